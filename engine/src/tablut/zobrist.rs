//! Zobrist keys from a fixed splitmix64 sequence: hashes are stable across runs
//! and platforms (they are written into the notation).

use super::Piece;
use crate::Player;

use crate::zobrist::{mix as splitmix64, GOLDEN};

/// Key for each cell and piece kind (black, white, king).
static PIECE_KEYS: [[u64; 3]; 81] = {
    let mut keys = [[0u64; 3]; 81];
    let mut state = 0x7461_626c_7574_0001u64; // "tablut" + 1
    let mut i = 0;
    while i < 81 {
        let mut k = 0;
        while k < 3 {
            state = state.wrapping_add(GOLDEN);
            keys[i][k] = splitmix64(state);
            k += 1;
        }
        i += 1;
    }
    keys
};

/// Key added when white is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix64(0x7461_626c_7574_0002u64.wrapping_mul(GOLDEN));

/// The key of a piece on a cell index.
pub(crate) fn piece(cell: usize, p: Piece) -> u64 {
    let k = match p {
        Piece::Black => 0,
        Piece::White => 1,
        Piece::King => 2,
    };
    PIECE_KEYS[cell][k]
}

/// The key of the side to move.
pub(crate) fn side(side: Player) -> u64 {
    match side {
        Player::One => 0,
        Player::Two => WHITE_TO_MOVE,
    }
}

/// The hash of a whole board (cell indices and pieces) and side to move.
#[cfg(test)]
pub(crate) fn full(pieces: impl IntoIterator<Item = (usize, Piece)>, to_move: Player) -> u64 {
    pieces
        .into_iter()
        .fold(side(to_move), |h, (i, p)| h ^ piece(i, p))
}
