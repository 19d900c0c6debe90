//! The board as data (cells by rows, the Lochs) and the geometry derived from
//! it once: neighbours, straight lines, bit masks.
//!
//! The default board (RULES.md section 3, a *decision*): a hexagon of 5 cells
//! a side, 61 cells, named like AlmaTafl's cells: with column index `c` (A = 0)
//! and row index `r` (row 1 = 0), row `r` holds the columns `max(0, r - 4)` to
//! `min(8, r + 4)`; the six neighbours of `(c, r)` are `(c ± 1, r)`,
//! `(c, r ± 1)`, `(c + 1, r + 1)` and `(c - 1, r - 1)`, which are also the six
//! straight directions. Lochs: the central Loch E5 and B2 E2 B5 H5 E8 H8.

use crate::quote::quote;
use std::sync::OnceLock;

use crate::NotationError;

/// Most cells a board may have (cell sets are 64-bit masks).
pub const MAX_CELLS: usize = 64;

/// Marks "no cell" in the tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The six straight directions as (column, row) steps.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

/// A board: its rows and Lochs, as data.
#[derive(Debug)]
pub struct Layout {
    /// Each row, top first: the letter of its first column and its cell count.
    pub rows: &'static [(u8, u8)],
    /// The central Loch, where both Bishops start.
    pub central_loch: &'static str,
    /// The other Lochs (next to which a dismantled Horde's Families go).
    pub outer_lochs: &'static [&'static str],
}

/// The default board of RULES.md.
pub static STANDARD: Layout = Layout {
    rows: &[
        (b'A', 5),
        (b'A', 6),
        (b'A', 7),
        (b'A', 8),
        (b'A', 9),
        (b'B', 8),
        (b'C', 7),
        (b'D', 6),
        (b'E', 5),
    ],
    central_loch: "E5",
    outer_lochs: &["B2", "E2", "B5", "H5", "E8", "H8"],
};

/// Everything derived from a [`Layout`].
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Number of cells.
    pub cells: usize,
    /// Every cell.
    pub all: u64,
    /// (column, row) indices of each cell, row-major.
    pub coords: Vec<(u8, u8)>,
    /// Each cell's name, e.g. `"E5"`.
    pub names: Vec<String>,
    /// Cell index by (row, column), or `NONE`.
    pub index: Vec<Vec<u8>>,
    /// `nbr[cell][dir]`: the neighbour in direction `dir`, or `NONE`.
    pub nbr: Vec<[u8; 6]>,
    /// The neighbours of each cell as a mask.
    pub nbr_mask: Vec<u64>,
    /// `ray[cell][dir]`: the cells 1, 2 and 3 steps away (`NONE` off the board).
    pub ray: Vec<[[u8; 3]; 6]>,
    /// Every Loch.
    pub lochs: u64,
    /// The central Loch.
    pub central: u8,
    /// For each cell, the outer Lochs next to it (bit i: `outer_lochs[i]`).
    pub loch_marks: Vec<u8>,
    /// The cells next to an outer Loch.
    pub by_lochs: u64,
}

/// The geometry of the default board, built on first use.
pub(crate) fn standard() -> &'static Geometry {
    static GEO: OnceLock<Geometry> = OnceLock::new();
    GEO.get_or_init(|| build(&STANDARD))
}

fn parse_index(index: &[Vec<u8>], text: &str) -> Option<u8> {
    let t = text.trim();
    let mut chars = t.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    let col = (letter as u8 - b'A') as usize;
    let cell = *index.get(row.checked_sub(1)?)?.get(col)?;
    (cell != NONE).then_some(cell)
}

fn build(layout: &Layout) -> Geometry {
    let mut coords = Vec::new();
    let height = layout.rows.len();
    let width = layout
        .rows
        .iter()
        .map(|&(first, len)| (first - b'A' + len) as usize)
        .max()
        .unwrap_or(0);
    let mut index = vec![vec![NONE; width]; height];
    for (r, &(first, len)) in layout.rows.iter().enumerate() {
        for k in 0..len {
            let c = first - b'A' + k;
            index[r][c as usize] = coords.len() as u8;
            coords.push((c, r as u8));
        }
    }
    let cells = coords.len();
    assert!(
        cells <= MAX_CELLS,
        "a board holds at most {MAX_CELLS} cells"
    );
    let at = |c: i32, r: i32| -> u8 {
        if r >= 0 && (r as usize) < height && c >= 0 && (c as usize) < width {
            index[r as usize][c as usize]
        } else {
            NONE
        }
    };
    let mut nbr = vec![[NONE; 6]; cells];
    let mut ray = vec![[[NONE; 3]; 6]; cells];
    let mut nbr_mask = vec![0u64; cells];
    for (cell, &(c, r)) in coords.iter().enumerate() {
        for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
            for dist in 1..=3i32 {
                let target = at(c as i32 + dc as i32 * dist, r as i32 + dr as i32 * dist);
                if target == NONE {
                    break;
                }
                ray[cell][d][dist as usize - 1] = target;
            }
            nbr[cell][d] = ray[cell][d][0];
            if nbr[cell][d] != NONE {
                nbr_mask[cell] |= 1 << nbr[cell][d];
            }
        }
    }
    let lookup = |name: &str| parse_index(&index, name).expect("board tables name board cells");
    let central = lookup(layout.central_loch);
    let mut lochs = 1u64 << central;
    let mut loch_marks = vec![0u8; cells];
    let mut by_lochs = 0u64;
    for (i, name) in layout.outer_lochs.iter().enumerate() {
        let l = lookup(name);
        lochs |= 1 << l;
        for &n in &nbr[l as usize] {
            if n != NONE {
                loch_marks[n as usize] |= 1 << i;
            }
        }
    }
    for (c, &m) in loch_marks.iter().enumerate() {
        if m != 0 && lochs & (1 << c) == 0 {
            by_lochs |= 1 << c;
        }
    }
    let names = coords
        .iter()
        .map(|&(c, r)| format!("{}{}", char::from(b'A' + c), r + 1))
        .collect();
    Geometry {
        cells,
        all: if cells == 64 {
            u64::MAX
        } else {
            (1 << cells) - 1
        },
        coords,
        names,
        index,
        nbr,
        nbr_mask,
        ray,
        lochs,
        central,
        loch_marks,
        by_lochs,
    }
}

/// A cell of the board, by its row-major index (row 1 first, then by column
/// letter): this order is the board order of the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub(crate) u8);

impl Cell {
    /// The cell with row-major index `i`, if on the default board.
    pub fn from_index(i: usize) -> Option<Cell> {
        (i < standard().cells).then_some(Cell(i as u8))
    }

    /// The row-major index.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// (column index, row index): A = 0, row 1 = 0.
    pub fn coords(self) -> (usize, usize) {
        let (c, r) = standard().coords[self.index()];
        (c as usize, r as usize)
    }

    /// The cell's name, e.g. `"E5"`.
    pub fn as_str(self) -> &'static str {
        &standard().names[self.index()]
    }

    /// The cell's name as a string.
    pub fn name(self) -> String {
        self.as_str().to_string()
    }

    /// Reads a cell name, case-insensitively (`"e5"`, `"I9"`).
    pub fn parse(text: &str) -> Result<Cell, NotationError> {
        parse_index(&standard().index, text)
            .map(Cell)
            .ok_or_else(|| {
                NotationError::new(format!(
                    "{} is not a cell of the Tartan board",
                    quote(text.trim())
                ))
            })
    }

    /// Every cell in board order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..standard().cells as u8).map(Cell)
    }

    /// Whether this is a Loch.
    pub fn is_loch(self) -> bool {
        standard().lochs & (1 << self.0) != 0
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The cells of a mask, lowest index first.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default board: 61 cells in rows of 5..9..5, named as RULES.md says,
    /// seven Lochs, each outer Loch with six neighbours, no cell next to two of them.
    #[test]
    fn the_default_board_is_the_one_of_the_rules() {
        let geo = standard();
        assert_eq!(geo.cells, 61);
        let row = |r: usize| -> Vec<&str> {
            Cell::all()
                .filter(|c| c.coords().1 == r)
                .map(|c| c.as_str())
                .collect()
        };
        assert_eq!(row(0), ["A1", "B1", "C1", "D1", "E1"]);
        assert_eq!(row(4).len(), 9);
        assert_eq!(row(4)[8], "I5");
        assert_eq!(row(8), ["E9", "F9", "G9", "H9", "I9"]);
        assert_eq!(geo.lochs.count_ones(), 7);
        assert_eq!(Cell(geo.central).as_str(), "E5");
        for c in Cell::all() {
            let (col, r) = c.coords();
            assert!(col + 4 >= r && col <= r + 4, "{c}");
            assert_eq!(Cell::parse(c.as_str()), Ok(c));
            assert_eq!(Cell::parse(&c.as_str().to_lowercase()), Ok(c));
            assert!(geo.loch_marks[c.index()].count_ones() <= 1, "{c}");
        }
        assert_eq!(geo.by_lochs.count_ones(), 36);
        // E5's neighbours: D5 F5 E4 E6 F6 D4.
        let mut around: Vec<&str> = bits(geo.nbr_mask[geo.central as usize])
            .map(|i| Cell(i as u8).as_str())
            .collect();
        around.sort();
        assert_eq!(around, ["D4", "D5", "E4", "E6", "F5", "F6"]);
        assert!(Cell::parse("F1").is_err() && Cell::parse("A6").is_err());
    }
}
