//! Static evaluation, apart from the rules: what alpha-beta scores a leaf with
//! and what Monte Carlo search scores a cut-off playout with.

use std::ops::ControlFlow;

use crate::game::Game;

/// A heuristic value of a position.
pub trait Evaluator<G: Game>: Send + Sync {
    /// Whether [`Evaluator::move_hint`] or [`Evaluator::must_answer`] may say
    /// anything. Without hints the quiescence search is the static value
    /// alone, and the horizon lists no moves.
    const HINTS: bool = false;

    /// The value in centi-units from the side to move's view (positive: good
    /// for the side to move). Need not handle finished games.
    fn evaluate(&self, pos: &G) -> i32;

    /// How urgent a legal move of `pos` is: above 0 for moves worth trying
    /// first (captures, a win), larger for more urgent ones, below 2^20.
    /// Alpha-beta searches such moves right after the hash move.
    fn move_hint(&self, _pos: &G, _mv: &G::Move) -> i32 {
        0
    }

    /// Calls `f` with each legal move of `pos` that [`Evaluator::move_hint`]
    /// rates above 0, and its hint, in [`Game::generate`]'s order (same
    /// preconditions). The quiescence search follows these moves. The default
    /// rates every move; an evaluator that can skip moves that cannot be
    /// urgent overrides it.
    fn hinted_moves<F: FnMut(G::Move, i32)>(&self, pos: &G, mut f: F) {
        let _ = pos.generate(|mv| {
            let hint = self.move_hint(pos, &mv);
            if hint > 0 {
                f(mv, hint);
            }
            ControlFlow::Continue(())
        });
    }

    /// Whether the side to move faces a threat its static value ignores (in
    /// tafl: the king one move from escaping), so the quiescence search may
    /// not stand pat: it searches the hinted moves (the answers), or every
    /// move when none is hinted.
    fn must_answer(&self, _pos: &G) -> bool {
        false
    }
}
