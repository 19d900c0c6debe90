//! Stacks packed in a byte: two bits per piece, bottom piece in the low bits.

use super::Piece;

/// Code of an invader.
pub(crate) const INVADER: u8 = 1;
/// Code of a defender disc.
pub(crate) const DEFENDER: u8 = 2;
/// Code of the King.
pub(crate) const KING: u8 = 3;

/// Height and top piece's code of a packed stack (compile-time form of
/// [`height`] and [`top`]).
pub(crate) const fn shape(s: u8) -> (usize, u8) {
    let h = if s == 0 {
        0
    } else if s < 4 {
        1
    } else if s < 16 {
        2
    } else {
        3
    };
    if h == 0 {
        (0, 0)
    } else {
        (h, (s >> (2 * (h - 1))) & 3)
    }
}

/// [`shape`] of every packed stack.
static SHAPE: [(u8, u8); 64] = {
    let mut t = [(0u8, 0u8); 64];
    let mut s = 0;
    while s < 64 {
        let (h, top) = shape(s as u8);
        t[s] = (h as u8, top);
        s += 1;
    }
    t
};

/// Number of pieces in the stack.
#[inline]
pub(crate) fn height(s: u8) -> usize {
    SHAPE[s as usize & 63].0 as usize
}

/// The top piece's code (0 for an empty cell).
#[inline]
pub(crate) fn top(s: u8) -> u8 {
    SHAPE[s as usize & 63].1
}

/// The stack with `piece` put on top (the caller keeps heights at most 3).
#[inline]
pub(crate) fn push(s: u8, piece: u8) -> u8 {
    s | piece << (2 * height(s))
}

/// The stack with its top piece removed.
#[inline]
pub(crate) fn pop(s: u8) -> u8 {
    match height(s) {
        0 => 0,
        h => s & !(3 << (2 * (h - 1))),
    }
}

/// The code of a piece.
pub(crate) fn code(p: Piece) -> u8 {
    match p {
        Piece::Invader => INVADER,
        Piece::Defender => DEFENDER,
        Piece::King => KING,
    }
}

/// The piece of a non-zero code.
pub(crate) fn piece(code: u8) -> Piece {
    match code {
        INVADER => Piece::Invader,
        DEFENDER => Piece::Defender,
        _ => Piece::King,
    }
}

/// The pieces bottom to top.
pub(crate) fn pieces(s: u8) -> Vec<Piece> {
    (0..height(s)).map(|i| piece((s >> (2 * i)) & 3)).collect()
}

/// Packs pieces given bottom to top (at most 3).
pub(crate) fn pack(pieces: &[Piece]) -> u8 {
    pieces.iter().fold(0, |s, &p| push(s, code(p)))
}
