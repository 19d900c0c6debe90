//! Hidden information: what one player knows of a game ([`InformationSet`]),
//! and games whose referee holds more than each player sees ([`HiddenInformation`]).
//!
//! A perfect-information game's position is its own information set, so
//! every searcher searches an [`InformationSet`]; handing a referee's full
//! state to a searcher does not compile.

use std::fmt;
use std::hash::Hash;

use rand::Rng;

use crate::game::{Game, Outcome, PerfectInformation, PlayError, Player};
use crate::played::Played;

/// What one player (the viewer) knows of a game in progress.
pub trait InformationSet: Clone + fmt::Debug + Send + Sync + 'static {
    /// The game's move.
    type Move: Copy + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// A full state of the game, as a referee holds it.
    type State: Game<Move = Self::Move>;

    /// Whose knowledge this is.
    fn viewer(&self) -> Player;

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// The end of the game, if it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends the viewer's legal moves (nothing when the other player is to
    /// move or the game is over).
    fn viewer_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays one of the viewer's moves: what the viewer knows after it.
    fn play(self, mv: &Self::Move) -> Result<Self, PlayError<Self>>;

    /// A full state consistent with what the viewer knows, the unknown drawn
    /// at random.
    fn determinize<R: Rng>(&self, rng: &mut R) -> Played<Self::State>;
}

/// A game whose full state hides some of it from each player.
pub trait HiddenInformation: Game {
    /// What one player knows.
    type View: InformationSet<State = Self, Move = Self::Move>;

    /// What `player` knows of this state.
    fn view(&self, player: Player) -> Self::View;
}

/// A perfect-information position is everything either player knows: the
/// viewer is the side to move and the only consistent state is itself.
impl<G: PerfectInformation> InformationSet for Played<G> {
    type Move = G::Move;
    type State = G;

    fn viewer(&self) -> Player {
        self.side_to_move()
    }

    fn side_to_move(&self) -> Player {
        Played::side_to_move(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Played::outcome(self)
    }

    fn viewer_moves(&self, out: &mut Vec<G::Move>) {
        self.legal_moves(out);
    }

    fn play(self, mv: &G::Move) -> Result<Self, PlayError<Self>> {
        Played::play(self, mv)
    }

    fn determinize<R: Rng>(&self, _rng: &mut R) -> Played<G> {
        self.clone()
    }
}
