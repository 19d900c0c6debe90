//! The AlmaTafl board as plain data (rows, escape spots, throne, start
//! position) and the geometry derived from it once.

use crate::quote::quote;
use std::sync::OnceLock;

use crate::NotationError;

/// Number of cells on the star board.
pub const CELLS: usize = 73;

/// Marks "no cell" in the geometry tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The rows top to bottom (row 1 first): first column letter and number of cells.
pub const ROWS: [(u8, u8); 11] = [
    (b'C', 2), // 1: C1 D1
    (b'B', 5), // 2: B2 .. F2
    (b'A', 8), // 3: A3 .. H3
    (b'A', 9), // 4: A4 .. I4
    (b'B', 8), // 5: B5 .. I5
    (b'B', 9), // 6: B6 .. J6
    (b'C', 8), // 7: C7 .. J7
    (b'C', 9), // 8: C8 .. K8
    (b'D', 8), // 9: D9 .. K9
    (b'F', 5), // 10: F10 .. J10
    (b'H', 2), // 11: H11 I11
];

/// The escape spots: only the King may stand there, and he wins by doing so.
pub const ESCAPES: [&str; 12] = [
    "C1", "D1", "A3", "H3", "A4", "I4", "C8", "K8", "D9", "K9", "H11", "I11",
];

/// The throne: only the King may stand there (and an invader burying him).
pub const THRONE: &str = "F6";

/// The invaders' start cells.
pub const START_INVADERS: [&str; 24] = [
    "B2", "C2", "D2", "E2", "F2", "B3", "G3", "B4", "H4", "B5", "I5", "B6", "J6", "C7", "J7", "D8",
    "J8", "E9", "J9", "F10", "G10", "H10", "I10", "J10",
];

/// The defenders' start cells (discs, the King excluded).
pub const START_DEFENDERS: [&str; 12] = [
    "E4", "D5", "E5", "F5", "G5", "E6", "G6", "E7", "F7", "G7", "H7", "G8",
];

/// The King's start cell.
pub const START_KING: &str = "F6";

/// Most invaders a position may hold.
pub const MAX_INVADERS: usize = 24;
/// Most defender discs a position may hold.
pub const MAX_DEFENDERS: usize = 12;
/// Highest stack.
pub const MAX_HEIGHT: usize = 3;

/// The six straight directions as (column, row) steps.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

/// Everything derived from the tables above.
pub(crate) struct Geometry {
    /// (column, row) indices of each cell, cells in row-major order.
    pub coords: [(u8, u8); CELLS],
    /// Each cell's name, e.g. `"F6"`.
    pub names: Vec<String>,
    /// Cell index by [row][column], or `NONE`.
    pub index: [[u8; 11]; 11],
    /// Whether each cell is an escape spot.
    pub escape: [bool; CELLS],
    /// The throne's cell index.
    pub throne: u8,
    /// `ray[cell][dir][d - 1]`: the cell `d` steps away, or `NONE` when any
    /// cell of the line (the landing cell or one jumped over) is off the board.
    pub ray: [[[u8; MAX_HEIGHT]; 6]; CELLS],
}

/// The board geometry, built on first use.
pub(crate) fn geometry() -> &'static Geometry {
    static GEO: OnceLock<Geometry> = OnceLock::new();
    GEO.get_or_init(build)
}

fn build() -> Geometry {
    let mut coords = [(0u8, 0u8); CELLS];
    let mut index = [[NONE; 11]; 11];
    let mut n = 0usize;
    for (r, &(first, len)) in ROWS.iter().enumerate() {
        for k in 0..len {
            let c = first - b'A' + k;
            coords[n] = (c, r as u8);
            index[r][c as usize] = n as u8;
            n += 1;
        }
    }
    assert_eq!(n, CELLS, "the row table must list {CELLS} cells");
    let at = |c: i32, r: i32| -> u8 {
        if (0..11).contains(&c) && (0..11).contains(&r) {
            index[r as usize][c as usize]
        } else {
            NONE
        }
    };
    let mut ray = [[[NONE; MAX_HEIGHT]; 6]; CELLS];
    for (cell, &(c, r)) in coords.iter().enumerate() {
        for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
            for dist in 1..=MAX_HEIGHT as i32 {
                let target = at(c as i32 + dc as i32 * dist, r as i32 + dr as i32 * dist);
                if target == NONE {
                    break; // the line leaves the board: no farther landing either
                }
                ray[cell][d][dist as usize - 1] = target;
            }
        }
    }
    let lookup = |name: &str| parse_index(&index, name).expect("board tables name board cells");
    let mut escape = [false; CELLS];
    for name in ESCAPES {
        escape[lookup(name) as usize] = true;
    }
    let names = coords
        .iter()
        .map(|&(c, r)| format!("{}{}", char::from(b'A' + c), r + 1))
        .collect();
    Geometry {
        coords,
        names,
        index,
        escape,
        throne: lookup(THRONE),
        ray,
    }
}

fn parse_index(index: &[[u8; 11]; 11], text: &str) -> Result<u8, NotationError> {
    let t = text.trim();
    let bad = || NotationError::new(format!("{} is not a cell of the AlmaTafl board", quote(t)));
    let mut chars = t.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return Err(bad());
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let row: usize = digits.parse().map_err(|_| bad())?;
    let col = (letter as u8 - b'A') as usize;
    if row == 0 || row > 11 || col >= 11 || index[row - 1][col] == NONE {
        return Err(bad());
    }
    Ok(index[row - 1][col])
}

/// A cell of the board. Cells are ordered row-major: row 1 first, within a
/// row by column letter (C1 < D1 < B2 < ... < I11); this order breaks ties
/// between King chains of equal length in the move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with row-major index `i` (0..73).
    pub fn from_index(i: usize) -> Option<Cell> {
        (i < CELLS).then_some(Cell(i as u8))
    }

    /// The row-major index (0..73).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell at column index `c` (A = 0) and row index `r` (row 1 = 0), if on the board.
    pub fn from_coords(c: usize, r: usize) -> Option<Cell> {
        let geo = geometry();
        if c < 11 && r < 11 && geo.index[r][c] != NONE {
            Some(Cell(geo.index[r][c]))
        } else {
            None
        }
    }

    /// (column index, row index), A = 0 and row 1 = 0.
    pub fn coords(self) -> (usize, usize) {
        let (c, r) = geometry().coords[self.index()];
        (c as usize, r as usize)
    }

    /// The cell's name, e.g. `"F6"`.
    pub fn name(self) -> String {
        self.as_str().to_string()
    }

    /// The cell's name as a static string, e.g. `"F6"`.
    pub fn as_str(self) -> &'static str {
        &geometry().names[self.index()]
    }

    /// Reads a cell name, case-insensitively (`"f6"`, `"H11"`).
    pub fn parse(text: &str) -> Result<Cell, NotationError> {
        parse_index(&geometry().index, text).map(Cell)
    }

    /// Every cell in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// Whether this is an escape spot.
    pub fn is_escape(self) -> bool {
        geometry().escape[self.index()]
    }

    /// Whether this is the throne.
    pub fn is_throne(self) -> bool {
        geometry().throne == self.0
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell's name is its column letter and 1-based row, and reads back as the cell.
    #[test]
    fn every_name_is_its_column_and_row() {
        for cell in Cell::all() {
            let (c, r) = cell.coords();
            let expected = crate::almatafl::reference::name((c as i32, r as i32));
            assert_eq!(cell.as_str(), expected);
            assert_eq!(cell.to_string(), expected);
            assert_eq!(Cell::parse(&expected).unwrap(), cell);
        }
    }
}
