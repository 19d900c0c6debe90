//! Toy games with known theory, and a plain reference minimax.

use std::ops::ControlFlow;

use crate::eval::Evaluator;
use crate::search::{MATE, MATE_BOUND};
use crate::{
    Game, GameResult, History, NotationError, Outcome, PerfectInformation, Player, SetupError,
};

/// The evaluation of the toy games.
#[derive(Clone, Copy, Debug, Default)]
pub struct Toy;

/// The end of a toy game (they have no repetition rule).
pub fn outcome<G: Game>(pos: &G) -> Option<Outcome> {
    History::new().outcome(pos)
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The subtraction game: take 1..=`max_take` stones; whoever takes the last stone wins.
/// A heap is lost for the side to move exactly when it is a multiple of `max_take + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    pub heap: u32,
    pub max_take: u32,
    pub to_move: Player,
}

impl Nim {
    pub fn new(heap: u32, max_take: u32) -> Self {
        Nim {
            heap,
            max_take,
            to_move: Player::One,
        }
    }
}

impl Game for Nim {
    type Move = u32;
    type Variant = ();
    const NAME: &'static str = "nim";

    fn variants() -> &'static [((), &'static str)] {
        &[((), "standard")]
    }

    fn variant(&self) {}

    fn start(_: (), _: u64) -> Self {
        Nim::new(21, 3)
    }

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn player_name(player: Player) -> &'static str {
        match player {
            Player::One => "first",
            Player::Two => "second",
        }
    }

    fn decided(&self) -> Option<Outcome> {
        (self.heap == 0).then(|| Outcome::win(self.to_move.opponent(), "took the last stone"))
    }

    fn generate<F: FnMut(u32) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        for take in 1..=self.max_take.min(self.heap) {
            f(take)?;
        }
        ControlFlow::Continue(())
    }

    fn no_moves(&self) -> Outcome {
        Outcome::win(self.to_move.opponent(), "took the last stone")
    }

    fn play_unchecked(&self, mv: &u32) -> Self {
        Nim {
            heap: self.heap - mv,
            max_take: self.max_take,
            to_move: self.to_move.opponent(),
        }
    }

    fn hash(&self) -> u64 {
        mix(u64::from(self.heap) << 16
            | u64::from(self.max_take) << 1
            | self.to_move.index() as u64)
    }

    fn parse_move(&self, text: &str) -> Result<u32, NotationError> {
        text.parse().map_err(|_| NotationError::new("bad move"))
    }

    fn push_move_text(&self, mv: &u32, out: &mut String) {
        out.push_str(&mv.to_string());
    }

    fn move_subject(&self, mv: &u32) -> String {
        format!("{mv} taken")
    }
}

impl PerfectInformation for Nim {}

impl Evaluator<Nim> for Toy {
    fn evaluate(&self, pos: &Nim) -> i32 {
        // A deliberately misleading heuristic: the search must see through it.
        (pos.heap % 3) as i32 * 7 - 5
    }
}

/// Exact value of a Nim heap for the side to move, by dynamic programming:
/// `MATE - d` for a win in `d` plies, `-(MATE - d)` for a loss in `d` plies.
pub fn nim_value(heap: u32, max_take: u32) -> i32 {
    // dist[n]: (wins, plies) with optimal play (fastest win, slowest loss).
    let mut dist: Vec<(bool, i32)> = vec![(false, 0)];
    for n in 1..=heap {
        let children = (1..=max_take.min(n)).map(|t| dist[(n - t) as usize]);
        let winning = children.clone().filter(|c| !c.0).map(|c| c.1).min();
        dist.push(match winning {
            Some(d) => (true, d + 1),
            None => (false, children.map(|c| c.1).max().unwrap() + 1),
        });
    }
    let (wins, d) = dist[heap as usize];
    if wins {
        MATE - d
    } else {
        -(MATE - d)
    }
}

/// An m,n,k-game on a square board of `size` ≤ 5: get `k` in a row (tic-tac-toe
/// is 3,3,3). `One` is X and moves first; cells are numbered row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    pub size: usize,
    pub k: usize,
    pub cells: [u8; 25],
    pub to_move: Player,
}

fn mark(p: Player) -> u8 {
    p.index() as u8 + 1
}

impl TicTacToe {
    /// The empty 3×3 board.
    pub fn empty() -> Self {
        Self::empty_board(3, 3)
    }

    /// An empty `size`×`size` board where `k` in a row wins.
    pub fn empty_board(size: usize, k: usize) -> Self {
        TicTacToe {
            size,
            k,
            cells: [0; 25],
            to_move: Player::One,
        }
    }

    /// Reads `X`, `O`, `.` cells row by row (9, 16 or 25 of them, three in a
    /// row wins); the side to move follows from the counts.
    pub fn parse(text: &str) -> Self {
        Self::from_notation(text).expect("valid test position")
    }

    /// Calls `f` with every run of `k` cells in a line.
    fn for_each_line(&self, mut f: impl FnMut(&[usize])) {
        let (n, k) = (self.size as isize, self.k as isize);
        for r in 0..n {
            for c in 0..n {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                    if (0..n).contains(&er) && (0..n).contains(&ec) {
                        let mut line = [0; 5];
                        for (i, cell) in line.iter_mut().enumerate().take(self.k) {
                            let i = i as isize;
                            *cell = ((r + dr * i) * n + c + dc * i) as usize;
                        }
                        f(&line[..self.k]);
                    }
                }
            }
        }
    }

    fn cell_count(&self) -> usize {
        self.size * self.size
    }
}

impl TicTacToe {
    /// Reads `X`, `O`, `.` cells row by row.
    pub fn from_notation(text: &str) -> Result<Self, SetupError> {
        let chars: Vec<char> = text.chars().collect();
        let size = match chars.len() {
            9 => 3,
            16 => 4,
            25 => 5,
            n => return Err(NotationError::new(format!("{n} cells")).into()),
        };
        let mut pos = TicTacToe::empty_board(size, 3);
        for (cell, c) in pos.cells.iter_mut().zip(chars) {
            *cell = match c {
                'X' => 1,
                'O' => 2,
                '.' => 0,
                _ => return Err(NotationError::new(format!("bad cell {c:?}")).into()),
            };
        }
        let xs = pos.cells.iter().filter(|&&c| c == 1).count();
        let os = pos.cells.iter().filter(|&&c| c == 2).count();
        pos.to_move = match xs.checked_sub(os) {
            Some(0) => Player::One,
            Some(1) => Player::Two,
            _ => return Err(NotationError::new("bad counts").into()),
        };
        Ok(pos)
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type Variant = ();
    const NAME: &'static str = "tictactoe";

    fn variants() -> &'static [((), &'static str)] {
        &[((), "standard")]
    }

    fn variant(&self) {}

    fn start(_: (), _: u64) -> Self {
        TicTacToe::empty()
    }

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn player_name(player: Player) -> &'static str {
        match player {
            Player::One => "X",
            Player::Two => "O",
        }
    }

    fn generate<F: FnMut(u8) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        for i in 0..self.cell_count() {
            if self.cells[i] == 0 {
                f(i as u8)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn no_moves(&self) -> Outcome {
        Outcome::draw("board full")
    }

    fn play_unchecked(&self, mv: &u8) -> Self {
        let mut next = self.clone();
        next.cells[*mv as usize] = mark(self.to_move);
        next.to_move = self.to_move.opponent();
        next
    }

    fn decided(&self) -> Option<Outcome> {
        let mut winner = None;
        self.for_each_line(|line| {
            let first = self.cells[line[0]];
            if first != 0 && line.iter().all(|&i| self.cells[i] == first) {
                winner = Some(if first == 1 { Player::One } else { Player::Two });
            }
        });
        if let Some(w) = winner {
            return Some(Outcome::win(w, "k in a row"));
        }
        self.cells[..self.cell_count()]
            .iter()
            .all(|&c| c != 0)
            .then(|| Outcome::draw("board full"))
    }

    fn hash(&self) -> u64 {
        let code = self.cells[..self.cell_count()]
            .iter()
            .fold(0u64, |acc, &c| acc * 3 + u64::from(c));
        mix(code)
    }

    fn parse_move(&self, text: &str) -> Result<u8, NotationError> {
        text.parse().map_err(|_| NotationError::new("bad move"))
    }

    fn push_move_text(&self, mv: &u8, out: &mut String) {
        out.push_str(&mv.to_string());
    }

    fn move_subject(&self, _: &u8) -> String {
        "a cell".to_string()
    }
}

impl PerfectInformation for TicTacToe {}

impl Evaluator<TicTacToe> for Toy {
    fn evaluate(&self, pos: &TicTacToe) -> i32 {
        let me = mark(pos.to_move);
        let mut score = 0;
        pos.for_each_line(|line| {
            let (mut mine, mut theirs) = (0, 0);
            for &i in line {
                match pos.cells[i] {
                    0 => {}
                    c if c == me => mine += 1,
                    _ => theirs += 1,
                }
            }
            if theirs == 0 {
                score += mine * mine * 10;
            }
            if mine == 0 {
                score -= theirs * theirs * 9;
            }
        });
        let centre = pos.cell_count() / 2;
        score + if pos.cells[centre] == me { 3 } else { 0 }
    }
}

/// Plain full-width minimax (no pruning, no table) with the searcher's conventions.
pub fn minimax<G: Game>(pos: &G, depth: u32, ply: i32) -> i32
where
    Toy: Evaluator<G>,
{
    if let Some(outcome) = outcome(pos) {
        return match outcome.result {
            GameResult::Draw => 0,
            GameResult::Win(p) if p == pos.side_to_move() => MATE - ply,
            GameResult::Win(_) => -(MATE - ply),
        };
    }
    let eval = || Toy.evaluate(pos).clamp(-(MATE_BOUND - 1), MATE_BOUND - 1);
    if depth == 0 {
        return eval();
    }
    let mut moves = Vec::new();
    let _ = History::new().turn(pos, &mut moves);
    moves
        .iter()
        .map(|m| -minimax(&pos.play_unchecked(m), depth - 1, ply + 1))
        .max()
        .unwrap_or_else(eval)
}

/// Each root move with its minimax value at `depth`, best first.
pub fn root_values<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, i32)>
where
    Toy: Evaluator<G>,
{
    let mut moves = Vec::new();
    let _ = History::new().turn(pos, &mut moves);
    let mut values: Vec<(G::Move, i32)> = moves
        .into_iter()
        .map(|m| {
            let v = -minimax(&pos.play_unchecked(&m), depth - 1, 1);
            (m, v)
        })
        .collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.1));
    values
}
