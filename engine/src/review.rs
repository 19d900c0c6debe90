//! Game review as players know it from Lichess: each move judged by the
//! win probability it gave away (from the mover's view, the searched value
//! of the position before the move against the searched value after it).
//!
//! A loss of at least [`INACCURACY`] is an inaccuracy, [`MISTAKE`] a
//! mistake, [`BLUNDER`] a blunder. A move's accuracy is Lichess' formula on
//! win percentages, `103.1668 e^(-0.04354 (before - after)) - 3.1669`,
//! clamped to 0..100 (100 for a move that loses nothing); a player's
//! accuracy is the mean over their moves.
//!
//! [`review`] reviews a replayed record with the caller's search: a
//! position's value is its searched score's win probability (on the game's
//! fitted curve, [`Searchable::win_curve`]), or the outcome
//! once the game is over; a move's loss is the mover's value after the
//! searcher's choice less its value after the move played, both positions
//! searched alike (the other side to move, the same budget: the bias of a
//! search for its side to move cancels out) and from what the mover knew
//! (in a game with hidden information, the mover's view of both: the
//! player is judged by what it could know). The searcher's own choice loses
//! nothing.
//!
//! A sampled value (Monte Carlo) has a standard error; a move's noise is
//! that of its loss (of the two values, combined), and a move is judged by
//! its loss less its noise: marked only when the loss exceeds a threshold
//! by more than the noise. A deterministic value (alpha-beta) has none.

use std::ops::ControlFlow;

use crate::game::{GameResult, Player};
use crate::record::Replay;
use crate::search::{Info, Score, Searchable};

/// The least win-probability loss of an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// The least win-probability loss of a mistake.
pub const MISTAKE: f64 = 0.20;
/// The least win-probability loss of a blunder.
pub const BLUNDER: f64 = 0.30;

/// What a move's loss makes of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// Lost less than [`INACCURACY`].
    Good,
    /// Lost at least [`INACCURACY`].
    Inaccuracy,
    /// Lost at least [`MISTAKE`].
    Mistake,
    /// Lost at least [`BLUNDER`].
    Blunder,
}

impl Judgement {
    /// The judgement of a move that lost `loss` win probability.
    pub fn of(loss: f64) -> Judgement {
        if loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else if loss >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    /// Its name, in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Good => "good",
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A move's accuracy in percent, from the mover's win probability before
/// and after it (0..1 each).
pub fn accuracy(before: f64, after: f64) -> f64 {
    let lost = 100.0 * (before - after);
    if lost <= 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * lost).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One player's moves in a review.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Moves judged.
    pub moves: u32,
    /// Sum of their accuracies.
    pub accuracy_sum: f64,
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
}

impl Tally {
    /// Counts a move that took the mover's win probability from `before` to
    /// `after`, both known within `noise` (judged by the loss less it).
    pub fn add(&mut self, before: f64, after: f64, noise: f64) -> Judgement {
        let judgement = Judgement::of(before - after - noise);
        self.moves += 1;
        self.accuracy_sum += accuracy(before, after);
        match judgement {
            Judgement::Good => {}
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
        }
        judgement
    }

    /// The mean accuracy in percent (100 with no move).
    pub fn accuracy(&self) -> f64 {
        match self.moves {
            0 => 100.0,
            n => self.accuracy_sum / f64::from(n),
        }
    }
}

/// Both players' tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tallies([Tally; 2]);

impl Tallies {
    /// A player's tally.
    pub fn of(&self, player: Player) -> &Tally {
        &self.0[player.index()]
    }

    /// Counts a move of `player` (see [`Tally::add`]).
    pub fn add(&mut self, player: Player, before: f64, after: f64, noise: f64) -> Judgement {
        self.0[player.index()].add(before, after, noise)
    }
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview<M> {
    /// 1 for the first move.
    pub ply: usize,
    /// Who played it.
    pub mover: Player,
    /// The move as played.
    pub played: M,
    /// The searcher's choice in the position before the move, and its line.
    pub best: Option<M>,
    /// The searcher's line from the position before the move.
    pub best_line: Vec<M>,
    /// The mover's score before the move (its choice's), from its view.
    pub before: Option<Score>,
    /// The mover's score after the move played, from its view.
    pub after: Option<Score>,
    /// The mover's win probability after the searcher's choice.
    pub win_before: f64,
    /// The mover's win probability after the move played.
    pub win_after: f64,
    /// What the move gave away (at least 0).
    pub loss: f64,
    /// The standard error of the loss: of the two win probabilities, each
    /// a sample mean of a Monte Carlo search (0 for alpha-beta's values).
    pub noise: f64,
    /// What the loss less its noise makes of the move.
    pub judgement: Judgement,
    /// Lichess' accuracy of the move, in percent.
    pub accuracy: f64,
}

/// A position's value: the searched report, or the outcome.
struct Value<M> {
    side_to_move: Player,
    /// Player One's win probability.
    one: f64,
    /// Its standard error (0 for an outcome or a value that is no sample).
    error: f64,
    info: Option<Info<M>>,
}

impl<M> Value<M> {
    fn of<P: Searchable<Move = M>>(position: &P, info: Option<Info<M>>) -> Self {
        let side_to_move = position.side_to_move();
        let one = match (position.outcome(), info.as_ref().and_then(Info::score)) {
            (Some(outcome), _) => match outcome.result {
                GameResult::Win(Player::One) => 1.0,
                GameResult::Win(Player::Two) => 0.0,
                GameResult::Draw => 0.5,
            },
            (None, Some(score)) => from_one(
                side_to_move,
                position.win_curve().probability(score, side_to_move),
            ),
            (None, None) => 0.5,
        };
        Value {
            side_to_move,
            one,
            error: info.as_ref().map_or(0.0, Info::standard_error),
            info,
        }
    }

    /// `player`'s win probability.
    fn win(&self, player: Player) -> f64 {
        from_one(player, self.one)
    }
}

/// A win probability of player One as `player`'s (or the reverse).
fn from_one(player: Player, p: f64) -> f64 {
    match player {
        Player::One => p,
        Player::Two => 1.0 - p,
    }
}

/// Reviews every move of `replay`. `search` values a search root of a
/// position that is not over ([`Searcher::value`](crate::search::Searcher::value):
/// a root after a move is the mover's view, the other side to move; it is told how many searches may still come,
/// at most, so that a time budget can be shared) and gives `None` once the
/// review must stop; `each` gets every move's review with the position
/// before it, in order, and may stop the review. Both players' tallies, or
/// `None` if stopped.
pub fn review<P: Searchable>(
    replay: &Replay<P>,
    mut search: impl FnMut(&P::Root, u32) -> Option<Info<P::Move>>,
    mut each: impl FnMut(&P, MoveReview<P::Move>) -> ControlFlow<()>,
) -> Option<Tallies> {
    let positions: Vec<&P> = replay.positions().collect();
    // From `viewer`'s knowledge.
    let mut valued = |position: &P, viewer: Player, left: u32| -> Option<Value<P::Move>> {
        let info = match position.outcome() {
            Some(_) => None,
            None => Some(search(&position.search_root_of(viewer), left)?),
        };
        Some(Value::of(position, info))
    };
    // After a move: the position after the searcher's choice and after the
    // move played, then (with hidden information) the next mover's own
    // search of the position it faces; without, the latter is the former.
    let per_move = if P::HIDDEN_INFORMATION { 3 } else { 2 };
    let mut tallies = Tallies::default();
    let first = positions[0];
    let mut before = valued(
        first,
        first.side_to_move(),
        per_move * positions.len() as u32,
    )?;
    for (i, applied) in replay.moves.iter().enumerate() {
        let from = positions[i];
        let mover = before.side_to_move;
        // At most this move's searches and those of each move after it.
        let searches_left = per_move * (positions.len() - i - 1) as u32;
        let best = before
            .info
            .as_ref()
            .and_then(|info| info.best_move().copied());
        // The position the searcher's choice leads to, when the move played
        // was another: both are searched alike.
        let after_best = match best {
            Some(b) if b != applied.played => Some(valued(&from.after(&b), mover, searches_left)?),
            _ => None,
        };
        let after = valued(
            &applied.position,
            mover,
            searches_left.saturating_sub(1).max(1),
        )?;
        let win_after = after.win(mover);
        let win_before = after_best.as_ref().map_or(win_after, |v| v.win(mover));
        let noise = after_best
            .as_ref()
            .map_or(0.0, |v| v.error.hypot(after.error));
        let judgement = tallies.add(mover, win_before, win_after, noise);
        let after_score = after.info.as_ref().and_then(Info::score).map(|s| {
            if after.side_to_move == mover {
                s
            } else {
                s.negated()
            }
        });
        let line = before.info.as_ref().and_then(|info| info.lines.first());
        let reviewed = MoveReview {
            ply: i + 1,
            mover,
            played: applied.played,
            best,
            best_line: line.map(|l| l.moves.clone()).unwrap_or_default(),
            before: before.info.as_ref().and_then(Info::score),
            after: after_score,
            win_before,
            win_after,
            loss: (win_before - win_after).max(0.0),
            noise,
            judgement,
            accuracy: accuracy(win_before, win_after),
        };
        if each(from, reviewed).is_break() {
            return None;
        }
        before = if P::HIDDEN_INFORMATION {
            let next = &applied.position;
            valued(
                next,
                next.side_to_move(),
                searches_left.saturating_sub(2).max(1),
            )?
        } else {
            after
        };
    }
    Some(tallies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playable::Playable;
    use crate::record::{replay, GameRecord};
    use crate::search::alphabeta::AlphaBeta;
    use crate::search::Limits;
    use crate::tartan::{Evaluation, Tartan};
    use crate::Played;

    /// Both Bishops stand next to their own Cathedral: red, to move, wins by
    /// stepping onto C4 but steps elsewhere, and blue wins: a blunder by red
    /// (a won game lost, the winning move named), then blue's winning move,
    /// the searcher's own choice, good.
    #[test]
    fn a_missed_win_is_a_blunder_and_the_tallies_count_it() {
        let record = GameRecord::parse(
            "[Game \"tartan\"]\n[Start \"play C4=r4,F6=b4 D4,G6 0,0 0 r -\"]\n\n\
             1. B:D4-D3\n2. B:G6-F6\n",
        )
        .unwrap();
        let replayed = replay::<Played<Tartan>>(&record).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut searches = 0;
        let mut search = |p: &Played<Tartan>, _left: u32| {
            searches += 1;
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            Some(AlphaBeta::new(1, Evaluation::default()).search(p, &limits, &stop, &mut |_| {}))
        };
        let mut moves = Vec::new();
        let tallies = review(&replayed, &mut search, |before: &Played<Tartan>, m| {
            moves.push((
                before.move_text(&m.played),
                m.best.map(|b| before.move_text(&b)),
                m,
            ));
            ControlFlow::Continue(())
        })
        .unwrap();
        let (played, best, red) = &moves[0];
        assert_eq!(
            (played.as_str(), best.as_deref()),
            ("B:D4-D3", Some("B:D4-C4"))
        );
        assert_eq!(
            (red.mover, red.judgement),
            (Player::One, Judgement::Blunder)
        );
        assert_eq!((red.win_before, red.win_after, red.loss), (1.0, 0.0, 1.0));
        assert_eq!(red.accuracy, 0.0);
        let (played, best, blue) = &moves[1];
        assert_eq!(
            best.as_deref(),
            Some(played.as_str()),
            "blue plays its choice"
        );
        assert_eq!((blue.judgement, blue.loss), (Judgement::Good, 0.0));
        assert_eq!(tallies.of(Player::One).blunders, 1);
        assert_eq!(tallies.of(Player::Two).moves, 1);
        // The start and the position after red's move; the position after
        // red's winning choice and the last are over, valued by their outcome.
        assert_eq!(searches, 2);
        // A review stopped by its search ends without tallies.
        let refused = |_: &Played<Tartan>, _: u32| None;
        let each = |_: &Played<Tartan>, _| ControlFlow::Continue(());
        assert!(review(&replayed, refused, each).is_none());
    }

    #[test]
    fn losses_are_judged_by_the_thresholds() {
        assert_eq!(Judgement::of(0.0), Judgement::Good);
        assert_eq!(Judgement::of(0.099), Judgement::Good);
        assert_eq!(Judgement::of(0.10), Judgement::Inaccuracy);
        assert_eq!(Judgement::of(0.2), Judgement::Mistake);
        assert_eq!(Judgement::of(0.31), Judgement::Blunder);
        assert_eq!(Judgement::of(-0.5), Judgement::Good, "a gain");
    }

    #[test]
    fn accuracy_follows_lichess_formula() {
        assert_eq!(accuracy(0.6, 0.7), 100.0);
        assert_eq!(accuracy(0.5, 0.5), 100.0);
        // 10 percentage points lost: 103.1668 e^-0.4354 - 3.1669 = 63.58.
        assert!(
            (accuracy(0.6, 0.5) - 63.58).abs() < 0.01,
            "{}",
            accuracy(0.6, 0.5)
        );
        assert_eq!(accuracy(1.0, 0.0), 0.0);
    }

    #[test]
    fn tallies_count_per_player() {
        let mut t = Tallies::default();
        assert_eq!(t.add(Player::One, 0.5, 0.1, 0.0), Judgement::Blunder);
        assert_eq!(t.add(Player::One, 0.5, 0.45, 0.0), Judgement::Good);
        assert_eq!(t.add(Player::Two, 0.9, 0.75, 0.0), Judgement::Inaccuracy);
        let one = t.of(Player::One);
        assert_eq!((one.moves, one.blunders, one.mistakes), (2, 1, 0));
        assert!(one.accuracy() < 100.0 && one.accuracy() > 0.0);
        assert_eq!(t.of(Player::Two).inaccuracies, 1);
        assert_eq!(Tally::default().accuracy(), 100.0);
    }

    #[test]
    fn a_loss_within_its_noise_is_not_marked() {
        let mut t = Tally::default();
        // 0.15 lost: an inaccuracy, unless the values are 0.06 uncertain.
        assert_eq!(t.add(0.6, 0.45, 0.06), Judgement::Good);
        assert_eq!(t.add(0.6, 0.45, 0.04), Judgement::Inaccuracy);
        assert_eq!(t.add(0.9, 0.5, 0.15), Judgement::Mistake);
        assert_eq!((t.moves, t.inaccuracies, t.mistakes), (3, 1, 1));
    }

    /// In Schotten Totten each move is valued from what its mover knew: the
    /// positions after the searcher's choice and after the move played are
    /// searched from the mover's view (the opponent to move), the next
    /// position from the next mover's; sampled values carry their noise.
    #[test]
    fn a_hidden_information_move_is_valued_from_its_movers_view() {
        use crate::information::InformationSet;
        use crate::schotten_totten::{search::searcher, FullState, Position, Variant, View};
        use crate::search::Searcher;

        let mut position = Position::Full(FullState::new_game(Variant::Classic, 7));
        let mut text = String::from("[Game \"schotten-totten\"]\n[Seed \"7\"]\n\n");
        let mut moves = Vec::new();
        for ply in 1..=6 {
            moves.clear();
            position.legal_moves(&mut moves);
            let mv = moves[moves.len() / 2];
            text.push_str(&format!("{ply}. {}\n", position.move_text(&mv)));
            position = position.after(&mv);
        }
        let record = GameRecord::parse(&text).unwrap();
        let replayed = replay::<Position>(&record).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        // (viewer, side to move) of every search root.
        let mut roots = Vec::new();
        let mut search = |root: &View, _left: u32| {
            roots.push((root.viewer(), root.side_to_move()));
            let limits = Limits {
                nodes: Some(300),
                ..Limits::default()
            };
            Some(searcher().value(root, &limits, &stop))
        };
        let mut reviewed = Vec::new();
        review(&replayed, &mut search, |_: &Position, m| {
            reviewed.push(m);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(reviewed.len(), 6);
        let searched_twice_after = reviewed.iter().filter(|m| m.best != Some(m.played)).count();
        assert_eq!(roots.len(), 1 + 2 * 6 + searched_twice_after, "{roots:?}");
        let mut at = 1;
        for m in &reviewed {
            // After the move: the mover's view, the other side to move.
            let after = if m.best != Some(m.played) { 2 } else { 1 };
            for &(viewer, to_move) in &roots[at..at + after] {
                assert_eq!((viewer, to_move), (m.mover, m.mover.opponent()));
            }
            // Then the position the next mover faces, from its view.
            let (viewer, to_move) = roots[at + after];
            assert_eq!(viewer, to_move);
            at += after + 1;
            // A sampled value has noise; the judgement is of the loss less it.
            if m.best != Some(m.played) {
                assert!(m.noise > 0.0 && m.noise < 0.1, "{}", m.noise);
            } else {
                assert_eq!((m.loss, m.noise), (0.0, 0.0));
            }
            assert_eq!(
                m.judgement,
                Judgement::of(m.win_before - m.win_after - m.noise)
            );
        }
    }
}
