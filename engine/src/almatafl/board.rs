//! The AlmaTafl board as plain data (rows, escape spots, throne, start
//! position) and the geometry derived from it at compile time.

use super::stack;
use crate::quote::quote;
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

/// Landing cells from one cell for one distance: the cells of `cells[..len]`.
#[derive(Clone, Copy)]
pub(crate) struct Landings {
    pub cells: [u8; 6],
    pub len: u8,
}

impl Landings {
    /// The landing cells.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.len as usize]
    }
}

/// Everything derived from the tables above, at compile time.
pub(crate) struct Geometry {
    /// (column, row) indices of each cell, cells in row-major order.
    pub coords: [(u8, u8); CELLS],
    /// Each cell's name in ASCII (e.g. `F6`, `H11`) and its length.
    names: [([u8; 3], u8); CELLS],
    /// Cell index by [row][column], or `NONE`.
    pub index: [[u8; 11]; 11],
    /// Whether each cell is an escape spot.
    pub escape: [bool; CELLS],
    /// The throne's cell index.
    pub throne: u8,
    /// `ray[cell][dir][d - 1]`: the cell `d` steps away, or `NONE` when any
    /// cell of the line (the landing cell or one jumped over) is off the board.
    pub ray: [[[u8; MAX_HEIGHT]; 6]; CELLS],
    /// `disc_steps[cell][d]` (`d` from 1): `ray[cell][..][d - 1]` with an
    /// escape spot (where no disc lands) in place of `NONE`, so that disc
    /// moves are checked in direction order without a test for the board's edge.
    pub disc_steps: [[[u8; 6]; MAX_HEIGHT + 1]; CELLS],
    /// `sorted_steps[cell][d - 1]`: the board cells of `ray[cell][..][d - 1]`
    /// in cell order (the order King landings are tried in).
    pub sorted_steps: [[Landings; MAX_HEIGHT]; CELLS],
    /// `land[cell][stack]`: bit `1 << code` set when the piece of that code
    /// may land on that packed stack on that cell.
    pub land: [[u8; 64]; CELLS],
}

/// The board geometry.
pub(crate) fn geometry() -> &'static Geometry {
    &GEOMETRY
}

static GEOMETRY: Geometry = build();

/// The index of a cell named in the tables above (compile time).
const fn lookup(index: &[[u8; 11]; 11], name: &str) -> u8 {
    let b = name.as_bytes();
    let col = (b[0] - b'A') as usize;
    let mut row = 0;
    let mut i = 1;
    while i < b.len() {
        row = row * 10 + (b[i] - b'0') as usize;
        i += 1;
    }
    let cell = index[row - 1][col];
    assert!(cell != NONE, "board tables name board cells");
    cell
}

const fn build() -> Geometry {
    let mut coords = [(0u8, 0u8); CELLS];
    let mut names = [([0u8; 3], 0u8); CELLS];
    let mut index = [[NONE; 11]; 11];
    let mut n = 0usize;
    let mut r = 0;
    while r < ROWS.len() {
        let (first, len) = ROWS[r];
        let mut k = 0;
        while k < len {
            let c = first - b'A' + k;
            coords[n] = (c, r as u8);
            index[r][c as usize] = n as u8;
            let row = r as u8 + 1;
            names[n] = if row < 10 {
                ([first + k, b'0' + row, 0], 2)
            } else {
                ([first + k, b'0' + row / 10, b'0' + row % 10], 3)
            };
            n += 1;
            k += 1;
        }
        r += 1;
    }
    assert!(n == CELLS, "the row table must list every cell");
    let mut escape = [false; CELLS];
    let mut e = 0;
    while e < ESCAPES.len() {
        escape[lookup(&index, ESCAPES[e]) as usize] = true;
        e += 1;
    }
    let throne = lookup(&index, THRONE);
    let mut ray = [[[NONE; MAX_HEIGHT]; 6]; CELLS];
    let empty = Landings {
        cells: [NONE; 6],
        len: 0,
    };
    let off_board = lookup(&index, ESCAPES[0]);
    let mut disc_steps = [[[off_board; 6]; MAX_HEIGHT + 1]; CELLS];
    let mut sorted_steps = [[empty; MAX_HEIGHT]; CELLS];
    let mut land = [[0u8; 64]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (c, r) = coords[cell];
        let mut d = 0;
        while d < 6 {
            let (dc, dr) = DIRECTIONS[d];
            let mut dist = 1;
            while dist <= MAX_HEIGHT as i32 {
                let (tc, tr) = (c as i32 + dc as i32 * dist, r as i32 + dr as i32 * dist);
                if tc < 0
                    || tr < 0
                    || tc >= 11
                    || tr >= 11
                    || index[tr as usize][tc as usize] == NONE
                {
                    break; // the line leaves the board: no farther landing either
                }
                let target = index[tr as usize][tc as usize];
                ray[cell][d][dist as usize - 1] = target;
                disc_steps[cell][dist as usize][d] = target;
                let list = &mut sorted_steps[cell][dist as usize - 1];
                list.cells[list.len as usize] = target;
                list.len += 1;
                dist += 1;
            }
            d += 1;
        }
        let mut h = 0;
        while h < MAX_HEIGHT {
            let mut list = sorted_steps[cell][h];
            // Insertion sort into cell order.
            let mut i = 1;
            while i < list.len as usize {
                let mut j = i;
                while j > 0 && list.cells[j - 1] > list.cells[j] {
                    let t = list.cells[j];
                    list.cells[j] = list.cells[j - 1];
                    list.cells[j - 1] = t;
                    j -= 1;
                }
                i += 1;
            }
            sorted_steps[cell][h] = list;
            h += 1;
        }
        let mut s = 0;
        while s < 64 {
            let (height, top) = stack::shape(s as u8);
            let on_throne = cell == throne as usize;
            if height < MAX_HEIGHT {
                let mut bits = 1 << stack::KING;
                if !escape[cell] && (!on_throne || top == stack::KING) {
                    bits |= 1 << stack::INVADER;
                }
                if !escape[cell] && !on_throne && top != stack::KING {
                    bits |= 1 << stack::DEFENDER;
                }
                land[cell][s] = bits;
            }
            s += 1;
        }
        cell += 1;
    }
    Geometry {
        coords,
        names,
        index,
        escape,
        throne,
        ray,
        disc_steps,
        sorted_steps,
        land,
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
        let (bytes, len) = &geometry().names[self.index()];
        std::str::from_utf8(&bytes[..*len as usize]).expect("cell names are ASCII")
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
