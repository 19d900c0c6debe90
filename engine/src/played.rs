//! [`Played`]: a game in progress, a position with the repetition history its
//! rules read; [`Notation`]: the text form of one; and perft over it.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::game::{
    variant_name, Game, MoveError, NotationError, Outcome, PlayError, Player, SetupError,
};
use crate::history::History;
use crate::playable::{Applied, PerftError, Playable};
use crate::playouts::Playouts;

/// A position and its repetition history: the hashes of the earlier positions
/// that its repetition rule counts (since the last irreversible move, oldest
/// first). This is what a position text describes and what the API plays on;
/// searchers walk from one with a [`History`].
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    position: G,
    history: Vec<u64>,
}

impl<G: Game + PartialEq> PartialEq for Played<G> {
    /// The same position and the same history as a multiset (only the counts
    /// matter to the rules).
    fn eq(&self, other: &Self) -> bool {
        let sorted = |h: &[u64]| {
            let mut v = h.to_vec();
            v.sort_unstable();
            v
        };
        self.position == other.position && sorted(&self.history) == sorted(&other.history)
    }
}

impl<G: Game + Eq> Eq for Played<G> {}

/// The text notation of a game's positions, history included.
pub trait Notation: Game {
    /// A short help on the position notation (for `ListGames`).
    const POSITION_HELP: &'static str;
    /// A short help on the move notation (for `ListGames`).
    const MOVE_HELP: &'static str;

    /// Reads a position of `variant` with its history, validating it.
    fn read(variant: Self::Variant, text: &str) -> Result<Played<Self>, SetupError>;

    /// Writes a position with its history; [`Notation::read`] reads it back.
    fn write(played: &Played<Self>) -> String;
}

impl<G: Game> Played<G> {
    /// A position with an empty history (a game's start, say).
    pub fn new(position: G) -> Self {
        Played {
            position,
            history: Vec::new(),
        }
    }

    /// The start position of a variant; `seed` fixes any chance.
    pub fn start(variant: G::Variant, seed: u64) -> Self {
        Self::new(G::start(variant, seed))
    }

    /// A position with the recorded hashes of its earlier positions, oldest
    /// first; the game's validation (its `from_setup`) has checked them.
    pub(crate) fn from_parts(position: G, history: Vec<u64>) -> Self {
        Played { position, history }
    }

    /// The position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The position, without its history.
    pub fn into_position(self) -> G {
        self.position
    }

    /// The hashes of the earlier positions that count for repetition, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// How many times this position occurred before (in the history).
    pub fn repetitions(&self) -> usize {
        let hash = self.position.hash();
        self.history.iter().filter(|&&h| h == hash).count()
    }

    /// The player to move.
    pub fn side_to_move(&self) -> Player {
        self.position.side_to_move()
    }

    /// The position's hash ([`Game::hash`]).
    pub fn hash(&self) -> u64 {
        self.position.hash()
    }

    /// The end by the position alone or by repetition, without generating moves.
    fn settled(&self) -> Option<Outcome> {
        if let Some(o) = self.position.decided() {
            return Some(o);
        }
        self.position.repetition()?.ends(self.repetitions())
    }

    /// The end of the game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.settled() {
            return Some(o);
        }
        let any = self
            .position
            .generate(|_| ControlFlow::Break(()))
            .is_break();
        (!any).then(|| self.position.no_moves())
    }

    /// Calls `f` with each legal move until it breaks (nothing once the game is over).
    pub fn for_each_move(&self, f: impl FnMut(G::Move) -> ControlFlow<()>) -> ControlFlow<()> {
        if self.settled().is_some() {
            return ControlFlow::Continue(());
        }
        self.position.generate(f)
    }

    /// Appends every legal move to `out` (nothing once the game is over).
    pub fn legal_moves(&self, out: &mut Vec<G::Move>) {
        let _ = self.for_each_move(|m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Plays a legal move (one from [`Played::legal_moves`]) without checking
    /// it: the position after it with its history.
    pub fn play_unchecked(&self, mv: &G::Move) -> Self {
        let after = self.position.play_unchecked(mv);
        let history = if self.position.irreversible(&after) {
            Vec::new()
        } else {
            let mut h = self.history.clone();
            if self.position.recorded(self.history.is_empty()) {
                h.push(self.position.hash());
            }
            h
        };
        Played {
            position: after,
            history,
        }
    }

    /// Checks a move given from outside: the move to play (normalized), or why not.
    pub fn check(&self, mv: &G::Move) -> Result<G::Move, MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o));
        }
        self.position.check_move(mv).map_err(MoveError::Illegal)
    }

    /// Plays a move after checking it: the new position, or the error with
    /// this position handed back.
    pub fn play(self, mv: &G::Move) -> Result<Self, PlayError<Self>> {
        match self.check(mv) {
            Ok(mv) => Ok(self.play_unchecked(&mv)),
            Err(error) => Err(PlayError {
                error,
                position: self,
            }),
        }
    }

    /// Reads a move in the game's text notation (syntax only).
    pub fn parse_move(&self, text: &str) -> Result<G::Move, NotationError> {
        self.position.parse_move(text)
    }

    /// The text of a move.
    pub fn move_to_text(&self, mv: &G::Move) -> String {
        self.position.move_to_text(mv)
    }

    /// A [`History`] holding this position's history, to walk from it.
    pub fn walk(&self) -> History {
        let mut h = History::new();
        h.load(&self.history);
        h
    }
}

impl<G: Notation> Played<G> {
    /// Reads a position with its history ([`Notation::read`]).
    pub fn from_notation(variant: G::Variant, text: &str) -> Result<Self, SetupError> {
        G::read(variant, text)
    }

    /// Writes the position with its history ([`Notation::write`]).
    pub fn to_notation(&self) -> String {
        G::write(self)
    }
}

/// Counts the leaf nodes `depth` plies below `root` (perft), for testing move
/// generators; repetition draws end a line as in play.
pub fn perft<G: Game>(root: &Played<G>, depth: u32) -> u64 {
    perft_until(root, depth, &AtomicBool::new(false)).expect("a flag nobody sets never stops")
}

/// [`perft`] that gives up (`None`) once `stop` is set; the flag is read at
/// every node above the last ply, so it stops within one node's move generation.
pub fn perft_until<G: Game>(root: &Played<G>, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let mut history = root.walk();
    let mut buffers = Vec::new();
    count(root.position(), depth, stop, &mut history, &mut buffers)
}

fn count<G: Game>(
    pos: &G,
    depth: u32,
    stop: &AtomicBool,
    history: &mut History,
    buffers: &mut Vec<Vec<G::Move>>,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth == 1 {
        return Some(if history.settled(pos).is_some() {
            0
        } else {
            pos.count_moves() as u64
        });
    }
    let mut moves = buffers.pop().unwrap_or_default();
    let total = if history.turn(pos, &mut moves).is_some() {
        Some(0)
    } else {
        moves.iter().try_fold(0, |sum, m| {
            let child = pos.play_unchecked(m);
            history.enter(pos, &child);
            let n = count(&child, depth - 1, stop, history, buffers);
            history.leave();
            Some(sum + n?)
        })
    };
    buffers.push(moves);
    total
}

/// Perft below each legal move of `root`; `Stopped` once `stop` is set.
pub fn perft_divide<G: Game>(
    root: &Played<G>,
    depth: u32,
    stop: &AtomicBool,
) -> Result<Vec<(G::Move, u64)>, PerftError> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let n = perft_until(&root.play_unchecked(&m), depth.saturating_sub(1), stop)
                .ok_or(PerftError::Stopped)?;
            Ok((m, n))
        })
        .collect()
}

/// Plays seeded uniformly random games from `root` to their end, one after
/// another, for at least `budget` (at least one game) or until `stop` is set
/// between two games: a move drawn by
/// [`History::random_turn`] per ply, the repetition history kept
/// incrementally, no allocation per ply.
pub fn random_games<G: Game>(
    root: &Played<G>,
    budget: Duration,
    seed: u64,
    stop: &AtomicBool,
) -> Playouts {
    let mut moves = Vec::new();
    let mut history = root.walk();
    let earlier = history.len();
    Playouts::timed(budget, seed, stop, |rng| {
        let mut pos = root.position().clone();
        history.truncate(earlier);
        let mut plies = 0;
        while let Ok(mv) = history.random_turn(&pos, rng, &mut moves) {
            let next = pos.play_unchecked(&mv);
            history.enter(&pos, &next);
            pos = next;
            plies += 1;
        }
        plies
    })
}

impl<G: Notation> Playable for Played<G> {
    type Move = G::Move;

    const GAME: &'static str = G::NAME;

    fn variant_name(&self) -> &'static str {
        variant_name::<G>(self.position.variant())
    }

    fn player_name(player: Player) -> &'static str {
        G::player_name(player)
    }

    fn side_to_move(&self) -> Player {
        self.position.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        Played::outcome(self)
    }

    fn legal_moves(&self, out: &mut Vec<G::Move>) {
        Played::legal_moves(self, out);
    }

    fn apply(&self, mv: &G::Move) -> Result<Applied<Self>, MoveError> {
        let played = self.check(mv)?;
        let after = self.play_unchecked(&played);
        let outcome = after.outcome();
        let events = self.position.move_events(
            &played,
            &after.position,
            outcome.as_ref(),
            after.repetitions(),
        );
        Ok(Applied {
            position: after,
            played,
            events,
        })
    }

    fn after(&self, mv: &G::Move) -> Self {
        self.play_unchecked(mv)
    }

    fn parse_move(&self, text: &str) -> Result<G::Move, NotationError> {
        self.position.parse_move(text)
    }

    fn push_move_text(&self, mv: &G::Move, out: &mut String) {
        self.position.push_move_text(mv, out);
    }

    fn move_subject(&self, mv: &G::Move) -> String {
        self.position.move_subject(mv)
    }

    fn themes(events: &[crate::game::Event]) -> Vec<&'static str> {
        G::themes(events)
    }

    fn notation(&self) -> String {
        G::write(self)
    }

    fn perft_divide(
        &self,
        depth: u32,
        stop: &AtomicBool,
    ) -> Result<Vec<(G::Move, u64)>, PerftError> {
        perft_divide(self, depth, stop)
    }

    fn perft(&self, depth: u32, stop: &AtomicBool) -> Result<u64, PerftError> {
        perft_until(self, depth, stop).ok_or(PerftError::Stopped)
    }

    fn random_games(&self, budget: Duration, seed: u64, stop: &AtomicBool) -> Playouts {
        random_games(self, budget, seed, stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::almatafl::{AlmaTafl, Variant as AlmaVariant};
    use crate::tablut::{Tablut, Variant as TablutVariant};

    /// The fast random-game loops play the seeded games a plain loop over
    /// the client surface plays (legal moves, then the position after the
    /// drawn one): the same number of plies, game after game. Tablut draws
    /// its moves by rejection, not by one index, so its games differ; its
    /// draws are tested for uniformity in `tablut/tests/uniform.rs`.
    #[test]
    fn random_games_are_the_plain_loops_games() {
        fn same<P: Playable>(root: P) {
            for seed in 0..20 {
                let fast = root.random_games(Duration::ZERO, seed, &AtomicBool::new(false));
                let plain = crate::playable::listed_random_games(
                    &root,
                    Duration::ZERO,
                    seed,
                    &AtomicBool::new(false),
                );
                assert_eq!((fast.games, fast.plies), (1, plain.plies));
                assert!(fast.plies > 0);
            }
        }
        same(Played::<AlmaTafl>::start(AlmaVariant::Standard, 0));
        same(Played::<crate::tartan::Tartan>::start(
            crate::tartan::Variant::Standard,
            0,
        ));
        // Schotten Totten's referee plays by counted groups of moves.
        use crate::schotten_totten::{FullState, Position, Variant};
        for v in [Variant::Classic, Variant::Tactics, Variant::Expert] {
            same(Position::Full(FullState::start(v, 1)));
        }
    }

    /// A stop flag set before the run plays one game only, whatever the budget.
    #[test]
    fn random_games_stop_after_one_game_when_asked() {
        let root = Played::<Tablut>::start(TablutVariant::Bga, 0);
        let p = root.random_games(Duration::from_secs(60), 3, &AtomicBool::new(true));
        assert_eq!(p.games, 1);
        assert!(p.elapsed < Duration::from_secs(60));
    }

    /// A set stop flag ends perft with `Stopped`; a clear one counts, and the
    /// divided counts add up to the total.
    #[test]
    fn perft_stops_when_asked() {
        let start = Played::<Tablut>::start(TablutVariant::Bga, 0);
        let (go, halt) = (AtomicBool::new(false), AtomicBool::new(true));
        let total = start.perft(2, &go).unwrap();
        let divided = start.perft_divide(2, &go).unwrap();
        assert_eq!(divided.len(), 80);
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), total);
        assert_eq!(start.perft(2, &halt), Err(PerftError::Stopped));
        assert_eq!(start.perft_divide(2, &halt), Err(PerftError::Stopped));
    }

    #[test]
    fn apply_leaves_the_position_unchanged_and_reports_the_move() {
        let start = Played::<AlmaTafl>::start(AlmaVariant::Standard, 0);
        let before = start.notation();
        let applied = start.apply(&start.parse_move("b2-b3").unwrap()).unwrap();
        assert_eq!(start.move_text(&applied.played), "B2-B3");
        assert_eq!(start.notation(), before);
        assert_ne!(applied.position.notation(), before);
        assert_eq!(applied.position.side_to_move(), Player::Two);
        let illegal = start.parse_move("B2-B4").unwrap();
        assert!(matches!(start.apply(&illegal), Err(MoveError::Illegal(_))));
        assert!(start.parse_move("zz").is_err());
    }
}
