//! Cell names: columns `a`..`i` left to right, rows `1`..`9` from the top.

use crate::quote::quote;
use std::fmt;

use crate::NotationError;

/// Board width and height.
pub const SIZE: usize = 9;

/// Every cell's two-letter name, in index order.
const NAMES: &str = "a1b1c1d1e1f1g1h1i1a2b2c2d2e2f2g2h2i2a3b3c3d3e3f3g3h3i3a4b4c4d4e4f4g4h4i4a5b5c5d5e5f5g5h5i5a6b6c6d6e6f6g6h6i6a7b7c7d7e7f7g7h7i7a8b8c8d8e8f8g8h8i8a9b9c9d9e9f9g9h9i9";

/// One of the 81 cells; index `row * 9 + col`, row 0 is row `1` (the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at 0-based `col` (0 = `a`) and `row` (0 = row `1`), if on the board.
    pub fn new(col: usize, row: usize) -> Option<Cell> {
        (col < SIZE && row < SIZE).then(|| Cell((row * SIZE + col) as u8))
    }

    /// The cell with the given index (0..81), if any.
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < SIZE * SIZE).then_some(Cell(index as u8))
    }

    /// The cell with an index known to be below 81.
    pub(crate) const fn at(index: usize) -> Cell {
        Cell(index as u8)
    }

    /// The index `row * 9 + col`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based column (0 = `a`).
    pub fn col(self) -> usize {
        self.0 as usize % SIZE
    }

    /// 0-based row (0 = row `1`, the top).
    pub fn row(self) -> usize {
        self.0 as usize / SIZE
    }

    /// The cell's name, e.g. `"e5"`.
    pub fn name(self) -> String {
        self.as_str().to_string()
    }

    /// The cell's name as a static string, e.g. `"e5"`.
    pub fn as_str(self) -> &'static str {
        let i = 2 * self.index();
        &NAMES[i..i + 2]
    }

    /// Reads a cell name such as `e5` or `E5`.
    pub fn parse(text: &str) -> Result<Cell, NotationError> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return Err(NotationError::new(format!(
                "cell {}: expected a column a-i and a row 1-9, like e5",
                quote(text)
            )));
        }
        let col = bytes[0].to_ascii_lowercase();
        let row = bytes[1];
        if !(b'a'..=b'i').contains(&col) {
            return Err(NotationError::new(format!(
                "cell {}: column must be a letter a-i",
                quote(text)
            )));
        }
        if !(b'1'..=b'9').contains(&row) {
            return Err(NotationError::new(format!(
                "cell {}: row must be a digit 1-9",
                quote(text)
            )));
        }
        Ok(Cell::new((col - b'a') as usize, (row - b'1') as usize).expect("in range"))
    }

    /// Every cell, in index order (a1, b1, ..., i9).
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..(SIZE * SIZE) as u8).map(Cell)
    }

    /// The neighbour one step away in direction `(dcol, drow)`, if on the board.
    pub fn step(self, dcol: isize, drow: isize) -> Option<Cell> {
        let c = self.col() as isize + dcol;
        let r = self.row() as isize + drow;
        if (0..SIZE as isize).contains(&c) && (0..SIZE as isize).contains(&r) {
            Cell::new(c as usize, r as usize)
        } else {
            None
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The four orthogonal directions as `(dcol, drow)`.
pub(crate) const DIRS: [(isize, isize); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// A set of cells as a bit mask (bit `index`).
pub(crate) type CellSet = u128;

/// Whether `set` holds the cell with index `i`.
pub(crate) const fn has(set: CellSet, i: usize) -> bool {
    (set >> i) & 1 == 1
}

/// Builds a set from cell names (for the rule tables); panics at compile time on a bad name.
pub(crate) const fn cells(names: &[&str]) -> CellSet {
    let mut set = 0u128;
    let mut i = 0;
    while i < names.len() {
        let b = names[i].as_bytes();
        assert!(b.len() == 2, "cell names have two characters");
        assert!(b[0] >= b'a' && b[0] <= b'i' && b[1] >= b'1' && b[1] <= b'9');
        let idx = (b[1] - b'1') as usize * SIZE + (b[0] - b'a') as usize;
        set |= 1u128 << idx;
        i += 1;
    }
    set
}

/// Every edge cell (32).
pub(crate) const EDGE: CellSet = {
    let mut set = 0u128;
    let mut i = 0;
    while i < SIZE * SIZE {
        let (r, c) = (i / SIZE, i % SIZE);
        if r == 0 || c == 0 || r == SIZE - 1 || c == SIZE - 1 {
            set |= 1u128 << i;
        }
        i += 1;
    }
    set
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell's static name is its column letter and row digit, and reads back as the cell.
    #[test]
    fn every_name_is_its_column_and_row() {
        for index in 0..SIZE * SIZE {
            let cell = Cell::from_index(index).unwrap();
            let expected = format!("{}{}", char::from(b'a' + cell.col() as u8), cell.row() + 1);
            assert_eq!(cell.as_str(), expected);
            assert_eq!(cell.to_string(), expected);
            assert_eq!(Cell::parse(&expected).unwrap(), cell);
        }
    }
}
