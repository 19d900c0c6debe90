//! The two sides as each game's players know them (`ListGames`' players:
//! black and white, invaders and defenders, red and blue), read from and
//! written for people; programs keep the stable `Side` values.

use caber_engine::record::side_tag;
use caber_service::proto;

/// A game's two side names, `SIDE_ONE`'s first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    names: [String; 2],
}

impl Sides {
    /// The sides of `game` as `ListGames` names them.
    pub fn of(game: &proto::GameInfo) -> Self {
        let name = |i: usize| game.players.get(i).cloned().unwrap_or_default();
        Sides {
            names: [name(0), name(1)],
        }
    }

    /// The name of `side` (`SIDE_ONE` or `SIDE_TWO`), e.g. `"white"`.
    pub fn name(&self, side: proto::Side) -> &str {
        match side {
            proto::Side::Two => &self.names[1],
            _ => &self.names[0],
        }
    }

    /// The record tag naming who played `side`, e.g. `White`.
    pub fn tag(&self, side: proto::Side) -> String {
        side_tag(self.name(side))
    }

    /// The side the game calls `name` (any case), if it has one.
    pub fn named(&self, name: &str) -> Option<proto::Side> {
        let name = name.trim();
        if name.eq_ignore_ascii_case(&self.names[0]) {
            Some(proto::Side::One)
        } else if name.eq_ignore_ascii_case(&self.names[1]) {
            Some(proto::Side::Two)
        } else {
            None
        }
    }

    /// The side a person named in option `flag`: the game's name for it
    /// (any case), or `1`/`2` for `SIDE_ONE`/`SIDE_TWO`.
    pub fn parse(&self, flag: &str, text: &str) -> anyhow::Result<proto::Side> {
        let text = text.trim();
        match text {
            "1" => Ok(proto::Side::One),
            "2" => Ok(proto::Side::Two),
            _ => self.named(text).ok_or_else(|| {
                anyhow::anyhow!(
                    "{flag}: {text:?} is not a side of this game ({} or {})",
                    self.names[0],
                    self.names[1]
                )
            }),
        }
    }
}

/// The side that moves first in `variant` of `game` (its default variant
/// when `variant` is empty), if the server says.
pub fn moves_first(game: &proto::GameInfo, variant: &str) -> Option<proto::Side> {
    game.variants
        .iter()
        .find(|v| {
            if variant.is_empty() {
                v.is_default
            } else {
                v.name.eq_ignore_ascii_case(variant)
            }
        })
        .and_then(|v| proto::Side::try_from(v.moves_first).ok())
        .filter(|s| *s != proto::Side::Unspecified)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tablut() -> proto::GameInfo {
        proto::GameInfo {
            name: "tablut".into(),
            players: vec!["black".into(), "white".into()],
            variants: vec![
                proto::VariantInfo {
                    name: "bga".into(),
                    is_default: true,
                    moves_first: proto::Side::One as i32,
                },
                proto::VariantInfo {
                    name: "ashton".into(),
                    is_default: false,
                    moves_first: proto::Side::Two as i32,
                },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn sides_are_read_by_their_names_or_numbers_and_others_refused() {
        let sides = Sides::of(&tablut());
        assert_eq!(sides.parse("--side", "White").unwrap(), proto::Side::Two);
        assert_eq!(sides.parse("--side", "1").unwrap(), proto::Side::One);
        assert_eq!(
            sides.parse("--side", "first").unwrap_err().to_string(),
            "--side: \"first\" is not a side of this game (black or white)"
        );
        assert_eq!(sides.tag(proto::Side::Two), "White");
        assert_eq!(sides.name(proto::Side::One), "black");
    }

    #[test]
    fn who_moves_first_is_the_variants() {
        let game = tablut();
        assert_eq!(moves_first(&game, ""), Some(proto::Side::One));
        assert_eq!(moves_first(&game, "Ashton"), Some(proto::Side::Two));
        assert_eq!(moves_first(&game, "nope"), None);
    }
}
