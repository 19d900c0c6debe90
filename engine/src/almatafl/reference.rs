//! A slow reference formulation of the rules, written independently of the
//! fast generator (coordinates, maps of stacks, every chain by depth-first
//! search), for cross-checking in tests.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use super::{AlmaTafl, Piece};
use crate::game::{Game, Player};

/// RULES.md's cell table, verbatim.
const ROW_TEXT: &str = "C1 D1
B2 C2 D2 E2 F2
A3 B3 C3 D3 E3 F3 G3 H3
A4 B4 C4 D4 E4 F4 G4 H4 I4
B5 C5 D5 E5 F5 G5 H5 I5
B6 C6 D6 E6 F6 G6 H6 I6 J6
C7 D7 E7 F7 G7 H7 I7 J7
C8 D8 E8 F8 G8 H8 I8 J8 K8
D9 E9 F9 G9 H9 I9 J9 K9
F10 G10 H10 I10 J10
H11 I11";

const ESCAPE_TEXT: &str = "C1 D1 A3 H3 A4 I4 C8 K8 D9 K9 H11 I11";

/// (column, row), both from 0.
pub(crate) type Coord = (i32, i32);

fn coord(name: &str) -> Coord {
    let c = name.as_bytes()[0] as i32 - 'A' as i32;
    let r: i32 = name[1..].parse().expect("reference names are well formed");
    (c, r - 1)
}

/// The name of a coordinate.
pub(crate) fn name(c: Coord) -> String {
    format!("{}{}", (b'A' + c.0 as u8) as char, c.1 + 1)
}

fn on_board(c: Coord) -> bool {
    static CELLS: OnceLock<BTreeSet<Coord>> = OnceLock::new();
    CELLS.get_or_init(board_cells).contains(&c)
}

fn is_escape(c: Coord) -> bool {
    static ESCAPES: OnceLock<BTreeSet<Coord>> = OnceLock::new();
    ESCAPES
        .get_or_init(|| ESCAPE_TEXT.split_whitespace().map(coord).collect())
        .contains(&c)
}

const THRONE: Coord = (5, 5);
const STEPS: [Coord; 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

/// A position: stacks bottom to top as letters `i`, `d`, `k`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct RefPos {
    pub stacks: BTreeMap<Coord, Vec<char>>,
    pub invaders_to_move: bool,
}

impl RefPos {
    /// The reference view of a fast position.
    pub(crate) fn from_fast(p: &AlmaTafl) -> RefPos {
        let stacks = p
            .stacks()
            .into_iter()
            .map(|(c, ps)| {
                let letters = ps
                    .iter()
                    .map(|p| match p {
                        Piece::Invader => 'i',
                        Piece::Defender => 'd',
                        Piece::King => 'k',
                    })
                    .collect();
                (coord(&c.name()), letters)
            })
            .collect();
        RefPos {
            stacks,
            invaders_to_move: p.side_to_move() == Player::One,
        }
    }

    /// Whether a win is decided on the board.
    pub(crate) fn finished(&self) -> bool {
        let (&kc, ks) = self
            .stacks
            .iter()
            .find(|(_, s)| s.contains(&'k'))
            .expect("a King");
        ks.last() != Some(&'k')
            || is_escape(kc)
            || !self.stacks.values().any(|s| s.last() == Some(&'d'))
    }

    fn can_land(stacks: &BTreeMap<Coord, Vec<char>>, piece: char, at: Coord) -> bool {
        let here: &[char] = stacks.get(&at).map(|s| s.as_slice()).unwrap_or(&[]);
        if !on_board(at) || here.len() >= 3 {
            return false;
        }
        let king_on_top = here.last() == Some(&'k');
        match piece {
            'k' => true,
            'i' => !is_escape(at) && (at != THRONE || king_on_top),
            _ => !is_escape(at) && at != THRONE && !king_on_top,
        }
    }

    /// The cell `d` steps from `c`, if every cell of the way is on the board.
    fn reach(c: Coord, step: Coord, d: i32) -> Option<Coord> {
        let cells: Vec<Coord> = (1..=d)
            .map(|k| (c.0 + step.0 * k, c.1 + step.1 * k))
            .collect();
        cells
            .iter()
            .all(|&x| on_board(x))
            .then(|| cells[cells.len() - 1])
    }

    /// Every legal chain (start first), for every piece of the side to move.
    pub(crate) fn chains(&self) -> Vec<Vec<Coord>> {
        let mut out = Vec::new();
        if self.finished() {
            return out;
        }
        for (&c, s) in &self.stacks {
            let piece = *s.last().expect("stacks are not empty");
            if (piece == 'i') != self.invaders_to_move {
                continue;
            }
            if piece != 'k' {
                for step in STEPS {
                    if let Some(t) = Self::reach(c, step, s.len() as i32) {
                        if Self::can_land(&self.stacks, piece, t) {
                            out.push(vec![c, t]);
                        }
                    }
                }
            } else {
                let mut lifted = self.stacks.clone();
                lifted.get_mut(&c).expect("king stack").pop();
                self.king_dfs(&lifted, vec![c], s.len() as i32, &mut out);
            }
        }
        out
    }

    fn king_dfs(
        &self,
        lifted: &BTreeMap<Coord, Vec<char>>,
        path: Vec<Coord>,
        dist: i32,
        out: &mut Vec<Vec<Coord>>,
    ) {
        let cur = *path.last().expect("non-empty path");
        for step in STEPS {
            let Some(t) = Self::reach(cur, step, dist) else {
                continue;
            };
            if path.contains(&t) || !Self::can_land(lifted, 'k', t) {
                continue;
            }
            let mut next = path.clone();
            next.push(t);
            out.push(next.clone());
            let below = lifted.get(&t).cloned().unwrap_or_default();
            if below.last() == Some(&'i') {
                self.king_dfs(lifted, next, below.len() as i32 + 1, out);
            }
        }
    }

    /// The position after a chain.
    pub(crate) fn apply(&self, chain: &[Coord]) -> RefPos {
        let mut stacks = self.stacks.clone();
        let from = chain[0];
        let to = chain[chain.len() - 1];
        let piece = stacks
            .get_mut(&from)
            .and_then(|s| s.pop())
            .expect("a piece");
        if stacks[&from].is_empty() {
            stacks.remove(&from);
        }
        stacks.entry(to).or_default().push(piece);
        RefPos {
            stacks,
            invaders_to_move: !self.invaders_to_move,
        }
    }

    /// One chain per resulting position: the shortest, ties by row-major cell order.
    pub(crate) fn distinct_moves(&self) -> BTreeMap<RefPos, Vec<Coord>> {
        let key = |ch: &Vec<Coord>| {
            (
                ch.len(),
                ch.iter().map(|&(c, r)| (r, c)).collect::<Vec<_>>(),
            )
        };
        let mut best: BTreeMap<RefPos, Vec<Coord>> = BTreeMap::new();
        for ch in self.chains() {
            let after = self.apply(&ch);
            match best.get(&after) {
                Some(b) if key(b) <= key(&ch) => {}
                _ => {
                    best.insert(after, ch);
                }
            }
        }
        best
    }

    /// Leaf count `depth` plies down.
    pub(crate) fn perft(&self, depth: u32) -> u64 {
        let moves = self.distinct_moves();
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.keys().map(|p| p.perft(depth - 1)).sum()
    }
}

/// A chain as move text.
pub(crate) fn chain_text(chain: &[Coord]) -> String {
    chain.iter().map(|&c| name(c)).collect::<Vec<_>>().join("-")
}

/// All board coordinates (for random chains in tests).
pub(crate) fn board_cells() -> BTreeSet<Coord> {
    ROW_TEXT.split_whitespace().map(coord).collect()
}
