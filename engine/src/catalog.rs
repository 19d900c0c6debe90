//! What a game is, for listing: its id, variants, players and notation help,
//! read from each game's [`Game`] and [`Notation`] implementations so that
//! no game needs to know of it; and positions made from a client's words
//! ([`ByName`]): a variant's name, or a position's text.

use crate::quote::quote;
use std::fmt;

use crate::game::{variant_by_name, Game, Player, SetupError};
use crate::playable::Playable;
use crate::played::{Notation, Played};

/// What `ListGames` tells about a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The game's id, e.g. `"tablut"`.
    pub name: &'static str,
    /// The variants, the default first.
    pub variants: Vec<VariantInfo>,
    /// The names of `Player::One` and `Player::Two`.
    pub players: [&'static str; 2],
    /// A short help on the position text notation.
    pub position_help: &'static str,
    /// A short help on the move text notation.
    pub move_help: &'static str,
    /// Whether the start position depends on a seed (a shuffled deal).
    pub chance: bool,
    /// The game's White ([`Game::WHITE`]).
    pub white: Player,
}

/// A variant: its name and who moves first in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The variant's name, e.g. `"ashton"`.
    pub name: &'static str,
    /// The player to move in the variant's start position (the same for
    /// every seed).
    pub moves_first: Player,
}

/// The metadata of game `G`.
pub fn info<G: Notation>() -> GameInfo {
    GameInfo {
        name: G::NAME,
        variants: G::variants()
            .iter()
            .map(|&(variant, name)| VariantInfo {
                name,
                moves_first: G::start(variant, 0).side_to_move(),
            })
            .collect(),
        players: [G::player_name(Player::One), G::player_name(Player::Two)],
        position_help: G::POSITION_HELP,
        move_help: G::MOVE_HELP,
        chance: G::CHANCE,
        white: G::WHITE,
    }
}

/// A variant name that game `G` does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant {
    /// The game's id.
    pub game: &'static str,
    /// The name asked for.
    pub variant: String,
    /// The variants the game has.
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} has no variant {} (known: {})",
            self.game,
            quote(&self.variant),
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// Why a position's text was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// The variant is not the game's.
    Variant(UnknownVariant),
    /// The text is not a valid position of the variant.
    Setup(SetupError),
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Variant(e) => e.fmt(f),
            TextError::Setup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TextError {}

/// Positions of a game made from a client's words: a variant's name (and a
/// seed for a game with chance), or a position in the game's text notation.
pub trait ByName: Playable {
    /// The start position of the variant named `variant` (`""`: the
    /// default); `seed` fixes any chance.
    fn start_named(variant: &str, seed: u64) -> Result<Self, UnknownVariant>;

    /// The position `text` (surrounding whitespace ignored) of the variant
    /// named `variant`.
    fn read_named(variant: &str, text: &str) -> Result<Self, TextError>;
}

impl<G: Notation> ByName for Played<G> {
    fn start_named(variant: &str, seed: u64) -> Result<Self, UnknownVariant> {
        Ok(Played::start(lookup_variant::<G>(variant)?, seed))
    }

    fn read_named(variant: &str, text: &str) -> Result<Self, TextError> {
        let v = lookup_variant::<G>(variant).map_err(TextError::Variant)?;
        G::read(v, text.trim()).map_err(TextError::Setup)
    }
}

/// The variant of `G` named `name` (`""`: the default), or an error listing the known ones.
pub fn lookup_variant<G: Game>(name: &str) -> Result<G::Variant, UnknownVariant> {
    variant_by_name::<G>(name.trim()).ok_or_else(|| UnknownVariant {
        game: G::NAME,
        variant: name.to_string(),
        known: G::variants().iter().map(|(_, n)| *n).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::almatafl::AlmaTafl;
    use crate::tablut::{Tablut, Variant};

    #[test]
    fn variants_are_looked_up_by_name_and_unknown_ones_named() {
        assert_eq!(lookup_variant::<Tablut>(""), Ok(Variant::Bga));
        assert_eq!(lookup_variant::<Tablut>(" Ashton "), Ok(Variant::Ashton));
        let e = lookup_variant::<AlmaTafl>("huge").unwrap_err();
        assert!(e.known.contains(&"standard"), "{e:?}");
        assert_eq!(
            e.to_string(),
            "game almatafl has no variant \"huge\" (known: standard)"
        );
        let tablut = info::<Tablut>();
        let variants: Vec<_> = tablut
            .variants
            .iter()
            .map(|v| (v.name, v.moves_first))
            .collect();
        assert_eq!(
            variants,
            [
                ("bga", Player::One),
                ("bga-corners", Player::One),
                ("ashton", Player::Two),
                ("linnaeus", Player::One)
            ]
        );
        assert_eq!(tablut.players, ["black", "white"]);
        // White is Tablut's white, else the first-listed player.
        assert_eq!(tablut.white, Player::Two);
        assert_eq!(info::<AlmaTafl>().white, Player::One);
    }
}
