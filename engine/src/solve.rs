//! Exact forced wins: does the side to move win within `n` of its own moves,
//! whatever the opponent does? No evaluation and no pruning beyond the
//! logic of the question (a move that wins ends the search of its node, a
//! reply that escapes ends the search of its move), so the answer is a proof,
//! used to set and check puzzles (a unique winning first move).
//!
//! A win within `n` moves is within `2n - 1` plies. Draws and unfinished
//! lines are no wins. Works on any [`Playable`] position; for a game with
//! hidden information, on the referee's full state (both hands known).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{GameResult, Player};
use crate::playable::Playable;

/// A forced win found by [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// The win takes this many of the winner's moves (1: a move that wins at once).
    pub moves: u32,
    /// Every first move that wins within `moves`, in the generator's order.
    pub winning: Vec<M>,
    /// A line: the first winning move, the defence that resists longest, the
    /// next winning move, ... to the end of the game.
    pub line: Vec<M>,
    /// Positions visited.
    pub nodes: u64,
}

/// Why [`solve`] has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// No forced win within the moves asked.
    NoWin,
    /// The stop flag was set.
    Stopped,
}

/// The shortest forced win of the side to move within `max_moves` of its
/// moves, with every first move that achieves it.
pub fn solve<P: Playable>(
    position: &P,
    max_moves: u32,
    stop: &AtomicBool,
) -> Result<Solved<P::Move>, Unsolved> {
    let winner = position.side_to_move();
    let mut search = Search { nodes: 0, stop };
    let (moves, winning) = search.shortest(position, max_moves)?;
    let mut line = vec![winning[0]];
    let mut at = position.after(&winning[0]);
    let mut left = moves - 1;
    while at.outcome().is_none() {
        let next = if at.side_to_move() == winner {
            let (n, first) = search.shortest(&at, left)?;
            left = n - 1;
            first[0]
        } else {
            match search.defence(&at, winner, left)? {
                Some(reply) => reply,
                None => break,
            }
        };
        line.push(next);
        at = at.after(&next);
    }
    Ok(Solved {
        moves,
        winning,
        line,
        nodes: search.nodes,
    })
}

/// Whether `winner` forces a win in `position` with at most `moves` more of
/// its own moves (whoever is to move).
pub fn wins_within<P: Playable>(
    position: &P,
    winner: Player,
    moves: u32,
    stop: &AtomicBool,
) -> Result<bool, Unsolved> {
    Search { nodes: 0, stop }.forced(position, winner, moves)
}

/// The defender's reply in `position` (the defender to move, `winner`
/// forcing a win within `moves` of its moves) after which the win takes
/// longest, and the winner's moves then left (0: the reply loses at once).
/// `None` if the defender has no reply or one escapes a loss within `moves`.
pub fn defence<P: Playable>(
    position: &P,
    winner: Player,
    moves: u32,
    stop: &AtomicBool,
) -> Result<Option<(P::Move, u32)>, Unsolved> {
    let mut search = Search { nodes: 0, stop };
    let Some(reply) = search.defence(position, winner, moves)? else {
        return Ok(None);
    };
    let after = position.after(&reply);
    match search.length(&after, winner, moves)? {
        Some(n) => Ok(Some((reply, n))),
        None => Ok(None),
    }
}

struct Search<'a> {
    nodes: u64,
    stop: &'a AtomicBool,
}

fn won_by<P: Playable>(position: &P, player: Player) -> bool {
    position
        .outcome()
        .is_some_and(|o| o.result == GameResult::Win(player))
}

impl Search<'_> {
    fn children<P: Playable>(&mut self, position: &P) -> Result<Vec<P::Move>, Unsolved> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(Unsolved::Stopped);
        }
        self.nodes += 1;
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        Ok(moves)
    }

    /// The fewest moves within `max` in which the side to move forces a
    /// win, and the first moves that do.
    fn shortest<P: Playable>(
        &mut self,
        position: &P,
        max: u32,
    ) -> Result<(u32, Vec<P::Move>), Unsolved> {
        let mover = position.side_to_move();
        let moves = self.children(position)?;
        for n in 1..=max {
            let mut winning = Vec::new();
            for mv in &moves {
                if self.forced(&position.after(mv), mover, n - 1)? {
                    winning.push(*mv);
                }
            }
            if !winning.is_empty() {
                return Ok((n, winning));
            }
        }
        Err(Unsolved::NoWin)
    }

    /// Whether `winner` wins from `position` with at most `n` more of its
    /// moves: some move of its own when it is to move, every reply when the
    /// other player is.
    fn forced<P: Playable>(
        &mut self,
        position: &P,
        winner: Player,
        n: u32,
    ) -> Result<bool, Unsolved> {
        if position.outcome().is_some() {
            return Ok(won_by(position, winner));
        }
        if n == 0 {
            return Ok(false);
        }
        let moves = self.children(position)?;
        if position.side_to_move() == winner {
            for mv in &moves {
                if self.forced(&position.after(mv), winner, n - 1)? {
                    return Ok(true);
                }
            }
            Ok(false)
        } else {
            for reply in &moves {
                if !self.forced(&position.after(reply), winner, n)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
    }

    /// The fewest winner's moves (up to `max`) that win from `position`.
    fn length<P: Playable>(
        &mut self,
        position: &P,
        winner: Player,
        max: u32,
    ) -> Result<Option<u32>, Unsolved> {
        for n in 0..=max {
            if self.forced(position, winner, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// The defender's reply (the defender to move) after which `winner`
    /// needs the most moves, the first in the generator's order among the
    /// longest; a reply that escapes a loss within `moves` at once; `None`
    /// without replies.
    fn defence<P: Playable>(
        &mut self,
        position: &P,
        winner: Player,
        moves: u32,
    ) -> Result<Option<P::Move>, Unsolved> {
        let mut best: Option<(P::Move, u32)> = None;
        for reply in self.children(position)? {
            match self.length(&position.after(&reply), winner, moves)? {
                None => return Ok(Some(reply)),
                Some(n) if best.is_none_or(|(_, l)| n > l) => best = Some((reply, n)),
                Some(_) => {}
            }
        }
        Ok(best.map(|(reply, _)| reply))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{alphabeta, Limits, Score};
    use crate::tablut::{self, Tablut};
    use crate::tartan::{self, Tartan};
    use crate::{Notation, Played};

    fn tartan(text: &str) -> Played<Tartan> {
        Tartan::read(tartan::Variant::Standard, text).unwrap()
    }

    fn texts<P: Playable>(p: &P, moves: &[P::Move]) -> Vec<String> {
        moves.iter().map(|m| p.move_text(m)).collect()
    }

    fn go() -> AtomicBool {
        AtomicBool::new(false)
    }

    /// Red's Bishop steps onto red's Cathedral: the one winning move.
    #[test]
    fn a_win_in_one_and_its_only_move() {
        let p = tartan("play C4=r4,G7=b1 D4,I9 0,0 0 r -");
        let solved = solve(&p, 3, &go()).unwrap();
        assert_eq!(solved.moves, 1);
        assert_eq!(texts(&p, &solved.winning), ["B:D4-C4"]);
        assert_eq!(texts(&p, &solved.line), ["B:D4-C4"]);
    }

    /// Red unites its Hordes into a Cathedral next to its Bishop; blue's
    /// Bishop is too far to block: a win in two, and the line ends in it.
    #[test]
    fn a_win_in_two_with_its_line() {
        let p = tartan("play C4=r2,D4=r2,I9=b1 D3,I8 0,0 0 r -");
        assert_eq!(solve(&p, 1, &go()), Err(Unsolved::NoWin));
        let solved = solve(&p, 2, &go()).unwrap();
        assert_eq!(solved.moves, 2);
        assert!(texts(&p, &solved.winning).contains(&"C4-D4".to_string()));
        assert_eq!(solved.line.len(), 3);
        let mut at = p.clone();
        for mv in &solved.line {
            assert_eq!(at.outcome(), None);
            at = at.apply(mv).unwrap().position;
        }
        assert!(won_by(&at, Player::One));
        assert!(wins_within(&p, Player::One, 2, &go()).unwrap());
        assert!(!wins_within(&p, Player::One, 1, &go()).unwrap());
    }

    /// Blue threatens to crown its Cathedral; red cannot win at once, and
    /// after a move that does not block, blue's win is the defence's reply.
    #[test]
    fn no_win_and_a_lost_defence() {
        let p = tartan("play F6=b4,A1=r1 E6,G6 0,0 0 r -");
        assert_eq!(solve(&p, 1, &go()), Err(Unsolved::NoWin));
        let careless = p.apply(&p.parse_move("A1-B1").unwrap()).unwrap().position;
        let blue = solve(&careless, 1, &go()).unwrap();
        assert_eq!(texts(&careless, &blue.winning), ["B:G6-F6"]);
        // Red to move with blue threatening: no defence lasts past blue's
        // first move except the block.
        let block = p.parse_move("B:E6-F6").unwrap();
        assert!(!wins_within(&p.after(&block), Player::Two, 1, &go()).unwrap());
    }

    #[test]
    fn a_set_stop_flag_stops() {
        let p = tartan("play C4=r2,D4=r2,I9=b1 D3,I8 0,0 0 r -");
        assert_eq!(solve(&p, 2, &AtomicBool::new(true)), Err(Unsolved::Stopped));
    }

    /// The solver agrees with alpha-beta at depth 3 on whether the side to
    /// move wins within two moves (three plies), along seeded random games of
    /// Tablut and Tartan.
    #[test]
    fn agrees_with_alpha_beta_on_wins_within_three_plies() {
        fn check<G: crate::search::PerfectSearch>(start: Played<G>, seed: u64) -> usize
        where
            G::Evaluation: Default,
        {
            let mut p = start;
            let mut rng = seed;
            let mut wins = 0;
            for _ in 0..120 {
                if p.outcome().is_some() {
                    break;
                }
                let limits = Limits {
                    depth: Some(3),
                    ..Limits::default()
                };
                let info =
                    alphabeta::AlphaBeta::new(alphabeta::DEFAULT_TT_MB, G::Evaluation::default())
                        .search(&p, &limits, &go(), &mut |_| {});
                let ab = matches!(info.score(), Some(Score::Mate(n)) if (1..=3).contains(&n));
                let solved = solve(&p, 2, &go());
                assert_eq!(
                    solved.is_ok(),
                    ab,
                    "{}: {:?} vs {:?}",
                    p.notation(),
                    solved,
                    info.score()
                );
                wins += usize::from(ab);
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = moves[(rng >> 33) as usize % moves.len()];
                p = p.after(&pick);
            }
            wins
        }
        let mut wins = 0;
        for seed in 0..4 {
            wins += check(Played::<Tablut>::start(tablut::Variant::Linnaeus, 0), seed);
            wins += check(Played::<Tartan>::start(tartan::Variant::Standard, 0), seed);
        }
        assert!(
            wins > 0,
            "no position with a win within three plies was met"
        );
    }
}
