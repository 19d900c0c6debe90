//! The four rule presets, as data: camps, throne, escape cells, hostile cells.
//!
//! Every rule that differs between variants is a field of [`Rules`], filled from
//! cell-name tables, so a corrected rule is a one-line change here.

use super::bits::{columns, rows};
use super::cells::{cells, has, CellSet, EDGE, SIZE};
use crate::Player;

/// A Tablut rule preset (see the module docs of [`crate::tablut`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Board Game Arena, edge escape with camps (the default).
    Bga,
    /// Board Game Arena, corner escape, no camps.
    BgaCorners,
    /// The Tablut Challenge rules (University of Bologna).
    Ashton,
    /// Ludii's "King Flanked" ruleset.
    Linnaeus,
}

/// The throne, e5.
pub(crate) const THRONE: usize = 4 * SIZE + 4;

/// The four camp groups (the black start cells), top, left, right, bottom.
const CAMP_GROUPS: [CellSet; 4] = [
    cells(&["d1", "e1", "f1", "e2"]),
    cells(&["a4", "a5", "a6", "b5"]),
    cells(&["i4", "i5", "i6", "h5"]),
    cells(&["d9", "e9", "f9", "e8"]),
];
const CAMPS: CellSet = CAMP_GROUPS[0] | CAMP_GROUPS[1] | CAMP_GROUPS[2] | CAMP_GROUPS[3];
/// Ashton: camp cells that are not hostile to black soldiers.
const MIDDLE_EDGE_CAMPS: CellSet = cells(&["a5", "e1", "i5", "e9"]);
const CORNERS: CellSet = cells(&["a1", "i1", "a9", "i9"]);
const THRONE_SET: CellSet = 1 << THRONE;
/// BGA: the 20 edge cells that are not camps.
const BGA_ESCAPES: CellSet = cells(&[
    "a1", "a2", "a3", "a7", "a8", "a9", "i1", "i2", "i3", "i7", "i8", "i9", "b1", "c1", "g1", "h1",
    "b9", "c9", "g9", "h9",
]);

/// How the king is captured (always by a black move next to him).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KingCapture {
    /// Each of his 4 neighbours is black, off the board or in `special`.
    Surround { special: CellSet },
    /// On the throne or next to it: each neighbour is black or the throne.
    /// Elsewhere custodial: the moving piece and, opposite, black or a cell of `anvils`.
    ThroneOrCustodial { anvils: CellSet },
}

/// What counts as a clear line for Tuichi/Raichi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClearLine {
    /// From the king to the board edge: no piece, camp or throne on it.
    ToEdge,
    /// The king on an edge line and that edge empty up to a corner.
    EdgeToCorner,
}

/// The rules of one variant.
#[derive(Debug)]
pub(crate) struct Rules {
    /// Who moves first.
    pub first: Player,
    /// Camp group (1..=4) of each cell, 0 for none.
    pub camp_group: [u8; SIZE * SIZE],
    /// All camp cells.
    pub camps: CellSet,
    /// Where the king wins.
    pub escapes: CellSet,
    /// Cells only the king may enter.
    pub king_only: CellSet,
    /// Soldiers may pass over the empty throne (never stop on it).
    pub soldiers_pass_throne: bool,
    /// The king may pass over and stop on the throne after leaving it.
    pub king_reenters_throne: bool,
    /// Cells against which a white soldier is captured (besides black pieces).
    pub hostile_to_white: CellSet,
    /// Cells against which a black soldier is captured (besides white soldiers and an armed king).
    pub hostile_to_black: CellSet,
    /// The king captures and closes captures.
    pub king_armed: bool,
    /// How the king is captured.
    pub king_capture: KingCapture,
    /// Tuichi/Raichi, if the variant has them.
    pub tuichi: Option<ClearLine>,
    /// The occurrence (counting occurrences since the last capture) that draws.
    pub repetition_draw_at: u8,
    /// Whether the game's start position counts as an occurrence.
    pub start_counts: bool,
    /// A side with no legal move passes (else it loses).
    pub stuck_passes: bool,
    /// The same rules as bitboards for the move generator (filled by [`Rules::masked`]).
    pub masks: Masks,
    /// Manhattan distance from each cell to the nearest escape cell (filled
    /// by [`Rules::masked`]; 0 without escape cells).
    pub escape_distance: [u8; SIZE * SIZE],
}

/// A set of cells line by line (see `bits.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    /// Bit `col` of `rows[row]`.
    pub rows: [u16; SIZE],
    /// Bit `row` of `cols[col]`.
    pub cols: [u16; SIZE],
}

impl Lines {
    const NONE: Lines = Lines {
        rows: [0; SIZE],
        cols: [0; SIZE],
    };

    const fn of(set: CellSet) -> Lines {
        Lines {
            rows: rows(set),
            cols: columns(set),
        }
    }
}

/// What stops a slide from one cell besides pieces, and where the piece may
/// pass but not stop, along the cell's row (bit `col`) and column (bit `row`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlideMasks {
    pub row_blocks: u16,
    pub row_no_stop: u16,
    pub col_blocks: u16,
    pub col_no_stop: u16,
}

impl SlideMasks {
    const NONE: SlideMasks = SlideMasks {
        row_blocks: 0,
        row_no_stop: 0,
        col_blocks: 0,
        col_no_stop: 0,
    };

    /// The masks of cell `i` for a piece stopped by `blocks` that may not stop on `no_stop`.
    const fn of(i: usize, blocks: &Lines, no_stop: &Lines) -> SlideMasks {
        let (r, c) = (i / SIZE, i % SIZE);
        SlideMasks {
            row_blocks: blocks.rows[r],
            row_no_stop: no_stop.rows[r],
            col_blocks: blocks.cols[c],
            col_no_stop: no_stop.cols[c],
        }
    }
}

/// The rules as bitboards for the move generator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Masks {
    /// The slide masks of a soldier (`[0]`, by its cell's camp group) and of
    /// the king (`[1]`) on each cell: one lookup per piece.
    pub slides: [[SlideMasks; SIZE * SIZE]; 2],
    /// Cells that interrupt a clear line (Tuichi): camps and the throne.
    pub clear_line_blocks: Lines,
}

impl Rules {
    /// The rules with their [`Masks`] and escape distances computed from the
    /// other fields.
    const fn masked(mut self) -> Rules {
        let throne_blocks_king = if self.king_reenters_throne {
            0
        } else {
            THRONE_SET
        };
        let throne_blocks_soldiers = if self.soldiers_pass_throne {
            0
        } else {
            THRONE_SET
        };
        let soldier_no_stop = Lines::of(THRONE_SET | self.king_only);
        // Soldiers are stopped by the camps but their own (a camp group's
        // soldiers move inside it until they leave), the king by all camps.
        let mut soldier_blocks =
            [Lines::of(self.camps | throne_blocks_soldiers); CAMP_GROUPS.len() + 1];
        let mut g = 0;
        while g < CAMP_GROUPS.len() {
            let own = if self.camps & CAMP_GROUPS[g] != 0 {
                CAMP_GROUPS[g]
            } else {
                0
            };
            soldier_blocks[g + 1] = Lines::of((self.camps & !own) | throne_blocks_soldiers);
            g += 1;
        }
        let king_blocks = Lines::of(self.camps | throne_blocks_king);
        let mut slides = [[SlideMasks::NONE; SIZE * SIZE]; 2];
        let mut i = 0;
        while i < SIZE * SIZE {
            let group = self.camp_group[i] as usize;
            slides[0][i] = SlideMasks::of(i, &soldier_blocks[group], &soldier_no_stop);
            slides[1][i] = SlideMasks::of(i, &king_blocks, &Lines::NONE);
            i += 1;
        }
        self.escape_distance = escape_distances(self.escapes);
        self.masks = Masks {
            slides,
            clear_line_blocks: Lines::of(self.camps | THRONE_SET),
        };
        self
    }
}

/// The Manhattan distance from each cell to the nearest cell of `escapes` (0
/// for all when there is none).
const fn escape_distances(escapes: CellSet) -> [u8; SIZE * SIZE] {
    let mut table = [0; SIZE * SIZE];
    let mut i = 0;
    while i < SIZE * SIZE {
        let mut best = usize::MAX;
        let mut e = 0;
        while e < SIZE * SIZE {
            let d = (i / SIZE).abs_diff(e / SIZE) + (i % SIZE).abs_diff(e % SIZE);
            if has(escapes, e) && d < best {
                best = d;
            }
            e += 1;
        }
        table[i] = if best == usize::MAX { 0 } else { best as u8 };
        i += 1;
    }
    table
}

const NO_MASKS: Masks = Masks {
    slides: [[SlideMasks::NONE; SIZE * SIZE]; 2],
    clear_line_blocks: Lines::NONE,
};

const fn group_table(groups: &[CellSet]) -> [u8; SIZE * SIZE] {
    let mut table = [0u8; SIZE * SIZE];
    let mut g = 0;
    while g < groups.len() {
        let mut i = 0;
        while i < SIZE * SIZE {
            if has(groups[g], i) {
                table[i] = g as u8 + 1;
            }
            i += 1;
        }
        g += 1;
    }
    table
}

static BGA: Rules = Rules {
    first: Player::One,
    camp_group: group_table(&CAMP_GROUPS),
    camps: CAMPS,
    escapes: BGA_ESCAPES,
    king_only: 0,
    soldiers_pass_throne: false,
    king_reenters_throne: true,
    hostile_to_white: 0,
    hostile_to_black: 0,
    king_armed: false,
    king_capture: KingCapture::Surround {
        special: THRONE_SET | CAMPS,
    },
    tuichi: Some(ClearLine::ToEdge),
    repetition_draw_at: 3,
    start_counts: true,
    stuck_passes: false,
    masks: NO_MASKS,
    escape_distance: [0; SIZE * SIZE],
}
.masked();

static BGA_CORNERS: Rules = Rules {
    first: Player::One,
    camp_group: [0; SIZE * SIZE],
    camps: 0,
    escapes: CORNERS,
    king_only: CORNERS,
    soldiers_pass_throne: true,
    king_reenters_throne: true,
    hostile_to_white: CORNERS,
    hostile_to_black: CORNERS,
    king_armed: false,
    king_capture: KingCapture::Surround {
        special: THRONE_SET | CORNERS,
    },
    tuichi: Some(ClearLine::EdgeToCorner),
    repetition_draw_at: 3,
    start_counts: true,
    stuck_passes: false,
    masks: NO_MASKS,
    escape_distance: [0; SIZE * SIZE],
}
.masked();

static ASHTON: Rules = Rules {
    first: Player::Two,
    camp_group: group_table(&CAMP_GROUPS),
    camps: CAMPS,
    escapes: EDGE,
    king_only: 0,
    soldiers_pass_throne: false,
    king_reenters_throne: false,
    hostile_to_white: THRONE_SET | CAMPS,
    // The throne is hostile to black only when empty; with the king on it the
    // (armed) king is an anvil anyway, so the static table may list it.
    hostile_to_black: THRONE_SET | (CAMPS & !MIDDLE_EDGE_CAMPS),
    king_armed: true,
    king_capture: KingCapture::ThroneOrCustodial { anvils: CAMPS },
    tuichi: None,
    repetition_draw_at: 2,
    start_counts: false,
    stuck_passes: false,
    masks: NO_MASKS,
    escape_distance: [0; SIZE * SIZE],
}
.masked();

static LINNAEUS: Rules = Rules {
    first: Player::One,
    camp_group: [0; SIZE * SIZE],
    camps: 0,
    escapes: EDGE,
    king_only: 0,
    soldiers_pass_throne: false,
    king_reenters_throne: false,
    hostile_to_white: THRONE_SET,
    hostile_to_black: THRONE_SET,
    king_armed: true,
    king_capture: KingCapture::ThroneOrCustodial { anvils: 0 },
    tuichi: None,
    repetition_draw_at: 3,
    start_counts: true,
    stuck_passes: true,
    masks: NO_MASKS,
    escape_distance: [0; SIZE * SIZE],
}
.masked();

impl Variant {
    /// The rule table of this variant.
    pub(crate) fn rules(self) -> &'static Rules {
        match self {
            Variant::Bga => &BGA,
            Variant::BgaCorners => &BGA_CORNERS,
            Variant::Ashton => &ASHTON,
            Variant::Linnaeus => &LINNAEUS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From the throne e5: 4 steps to any edge (ashton), 8 to a corner
    /// (bga-corners); from b2, 1 to the edge and 2 to the corner a1.
    #[test]
    fn escape_distances_by_hand() {
        let b2 = SIZE + 1;
        assert_eq!(Variant::Ashton.rules().escape_distance[THRONE], 4);
        assert_eq!(Variant::BgaCorners.rules().escape_distance[THRONE], 8);
        assert_eq!(Variant::Ashton.rules().escape_distance[b2], 1);
        assert_eq!(Variant::BgaCorners.rules().escape_distance[b2], 2);
        assert_eq!(escape_distances(0), [0; SIZE * SIZE]);
    }
}
