//! Static evaluation, apart from the rules: what alpha-beta scores a leaf with
//! and what Monte Carlo search scores a cut-off playout with.

use crate::game::Game;

/// A heuristic value of a position.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The value in centi-units from the side to move's view (positive: good
    /// for the side to move). Need not handle finished games.
    fn evaluate(&self, pos: &G) -> i32;
}
