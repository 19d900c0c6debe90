//! The two sides as each game's players know them (`ListGames`' players:
//! black and white, invaders and defenders, red and blue), read from and
//! written for people, and the game's White (`GameInfo.white`), whose view
//! records and reviews take; programs keep the stable `Side` values.

use caber_engine::record::side_tag;
use caber_engine::Player;
use caber_service::proto;

/// A game's two side names, `SIDE_ONE`'s first, and its White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    names: [String; 2],
    white: proto::Side,
}

impl Sides {
    /// The sides of `game` as `ListGames` names them. A server from before
    /// `GameInfo.white` says no White: the side named white is taken, else
    /// `SIDE_ONE`, as `Game::WHITE` defines it.
    pub fn of(game: &proto::GameInfo) -> Self {
        let name = |i: usize| game.players.get(i).cloned().unwrap_or_default();
        let names = [name(0), name(1)];
        let white = match game.white() {
            proto::Side::Unspecified if names[1] == "white" => proto::Side::Two,
            proto::Side::Unspecified => proto::Side::One,
            side => side,
        };
        Sides { names, white }
    }

    /// The name of `side` (`SIDE_ONE` or `SIDE_TWO`), e.g. `"white"`.
    pub fn name(&self, side: proto::Side) -> &str {
        match side {
            proto::Side::Two => &self.names[1],
            _ => &self.names[0],
        }
    }

    /// The game's White (docs/RECORDS.md): the side whose view records,
    /// reviews and charts take.
    pub fn white(&self) -> proto::Side {
        self.white
    }

    /// The game's White as the engine's player.
    pub fn white_player(&self) -> Player {
        Player::try_from(self.white).unwrap_or(Player::One)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tablut() -> proto::GameInfo {
        proto::GameInfo {
            name: "tablut".into(),
            players: vec!["black".into(), "white".into()],
            white: proto::Side::Two as i32,
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

    /// White is the server's; a server that does not say has it by name.
    #[test]
    fn white_is_the_servers_else_the_side_named_white_else_side_one() {
        assert_eq!(Sides::of(&tablut()).white(), proto::Side::Two);
        assert_eq!(Sides::of(&tablut()).white_player(), Player::Two);
        let older = proto::GameInfo {
            white: proto::Side::Unspecified as i32,
            ..tablut()
        };
        assert_eq!(Sides::of(&older).white(), proto::Side::Two);
        let tartan = proto::GameInfo {
            name: "tartan".into(),
            players: vec!["red".into(), "blue".into()],
            ..Default::default()
        };
        assert_eq!(Sides::of(&tartan).white(), proto::Side::One);
    }
}
