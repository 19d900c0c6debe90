//! Tests of Tablut, with positions and expectations worked out by hand, and a
//! cross-check against the slow reference generator.

mod play;
mod prop;
pub(super) mod rules;
mod search;
mod svg;
mod uniform;

use crate::tablut::Tablut;
use crate::Played;

/// A game of Tablut in progress: what the tests build and play on.
type Pos = Played<Tablut>;

/// The events of move `m` from `p` to `after` (`after` played from `p`).
fn events(p: &Pos, m: &crate::tablut::Move, after: &Pos) -> Vec<crate::Event> {
    use crate::Game;
    p.position().move_events(
        m,
        after.position(),
        after.outcome().as_ref(),
        after.repetitions(),
    )
}
