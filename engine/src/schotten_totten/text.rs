//! Small pieces of the text notation shared by positions, moves and messages.

use crate::Player;

/// `1` or `2`.
pub(crate) fn pnum(p: Player) -> char {
    match p {
        Player::One => '1',
        Player::Two => '2',
    }
}

/// Joins texts with commas.
pub(crate) fn list(items: impl IntoIterator<Item = String>) -> String {
    items.into_iter().collect::<Vec<_>>().join(",")
}
