//! [`Playable`]: a position as a client of the engine uses it (the service's
//! view of every game), typed by its game's move.
//!
//! Implemented for [`crate::Played`] of every game and for Schotten Totten's
//! [`crate::schotten_totten::Position`] (a referee's full state or a player's view).

use std::fmt;
use std::hash::Hash;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::Rng;

use crate::game::{Event, MoveError, NotationError, Outcome, Player};
use crate::playouts::Playouts;

/// What playing a move gave: the new position, the move as played (the
/// game's normal form of it) and what happened.
#[derive(Clone, Debug)]
pub struct Applied<P: Playable> {
    /// The position after the move.
    pub position: P,
    /// The move, normalized.
    pub played: P::Move,
    /// What happened.
    pub events: Vec<Event>,
}

/// Why a perft count has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftError {
    /// Not defined for this position (a view cannot list the opponent's moves).
    Undefined,
    /// Stopped by the caller's flag.
    Stopped,
}

/// A position a client reads, lists moves of, plays on and writes back.
pub trait Playable: Clone + fmt::Debug + Send + Sync + 'static {
    /// The game's move.
    type Move: Copy + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + 'static;

    /// The game's id, e.g. `"tablut"`.
    const GAME: &'static str;

    /// The variant's API name.
    fn variant_name(&self) -> &'static str;

    /// The game's name for a player.
    fn player_name(player: Player) -> &'static str;

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// The end of the game, if it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends every legal move, in the generator's order (nothing once the
    /// game is over; for a player's view, that player's moves).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a move given from outside, checked: the new position and what
    /// happened; this position is unchanged.
    fn apply(&self, mv: &Self::Move) -> Result<Applied<Self>, MoveError>;

    /// Whether both players' moves can be listed: false for a player's view
    /// of a game with hidden information (perft and exact solving need the
    /// referee's full state).
    fn every_move_known(&self) -> bool {
        true
    }

    /// The position after `mv`, a move [`Playable::legal_moves`] listed:
    /// unchecked and without events, for searches over the legal moves.
    fn after(&self, mv: &Self::Move) -> Self {
        self.apply(mv)
            .expect("after() takes a move legal_moves listed")
            .position
    }

    /// Reads a move in the game's text notation (syntax only).
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;

    /// Appends the text of a move to `out`.
    fn push_move_text(&self, mv: &Self::Move, out: &mut String);

    /// What a move moves or plays, without the whole move (a puzzle's hint).
    fn move_subject(&self, mv: &Self::Move) -> String;

    /// A puzzle's themes from the events of its first move ([`crate::Game::themes`]).
    fn themes(events: &[Event]) -> Vec<&'static str>;

    /// The text of a move.
    fn move_text(&self, mv: &Self::Move) -> String {
        let mut text = String::new();
        self.push_move_text(mv, &mut text);
        text
    }

    /// The position's text notation (it reads back to the same position).
    fn notation(&self) -> String;

    /// Leaf count `depth` plies down, per legal move in the generator's order;
    /// stops once `stop` is set.
    fn perft_divide(
        &self,
        depth: u32,
        stop: &AtomicBool,
    ) -> Result<Vec<(Self::Move, u64)>, PerftError>;

    /// Leaf count `depth` plies down; stops once `stop` is set.
    fn perft(&self, depth: u32, stop: &AtomicBool) -> Result<u64, PerftError>;

    /// Seeded uniformly random games from here to their end for at least
    /// `budget` on this thread (at least one game; fewer once `stop` is
    /// set). This one plays through
    /// the client surface (legal moves, then the position after one); the
    /// perfect-information games override it with their fast path.
    fn random_games(&self, budget: Duration, seed: u64, stop: &AtomicBool) -> Playouts {
        listed_random_games(self, budget, seed, stop)
    }
}

/// [`Playable::random_games`] through the client surface: the legal moves
/// listed, one drawn, the position after it.
pub fn listed_random_games<P: Playable>(
    root: &P,
    budget: Duration,
    seed: u64,
    stop: &AtomicBool,
) -> Playouts {
    let mut moves = Vec::new();
    Playouts::timed(budget, seed, stop, |rng| {
        let (mut pos, mut plies) = (root.clone(), 0);
        loop {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                return plies;
            }
            pos = pos.after(&moves[rng.random_range(0..moves.len())]);
            plies += 1;
        }
    })
}
