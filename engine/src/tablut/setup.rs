//! Building positions through validation, and the start positions.

use super::cells::{has, Cell};
use super::variant::{Variant, THRONE};
use super::{Piece, Tablut};
use crate::{Game, Played, Player, SetupError};

/// The structured fields of a game in progress (its position and repetition
/// history); [`Tablut::from_setup`] validates them.
///
/// The king appears once, or not at all once captured (then white is to move and
/// the game is over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces on the board (each cell at most once).
    pub pieces: Vec<(Cell, Piece)>,
    /// The player to move.
    pub side_to_move: Player,
    /// Hashes of the earlier positions since the last capture that count for
    /// repetition, oldest first (see the notation docs in [`crate::tablut`]).
    pub history: Vec<u64>,
    /// Consecutive passes just made: 0..=2 in linnaeus, 0 elsewhere.
    pub passes: u8,
}

/// Black start cells (also the camps).
pub(crate) const BLACK_START: [&str; 16] = [
    "d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8",
];
/// White soldier start cells.
pub(crate) const WHITE_START: [&str; 8] = ["e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"];

/// The start board.
pub(crate) fn start_board() -> [Option<Piece>; 81] {
    let mut board = [None; 81];
    for name in BLACK_START {
        board[Cell::parse(name).expect("valid table").index()] = Some(Piece::Black);
    }
    for name in WHITE_START {
        board[Cell::parse(name).expect("valid table").index()] = Some(Piece::White);
    }
    board[THRONE] = Some(Piece::King);
    board
}

/// The start position of a variant.
pub(crate) fn start(variant: Variant) -> Tablut {
    Tablut::from_board(variant, &start_board(), variant.rules().first, 0)
}

/// Validates a setup, listing every problem.
pub(crate) fn build(variant: Variant, setup: &Setup) -> Result<Played<Tablut>, SetupError> {
    let rules = variant.rules();
    let mut problems = Vec::new();
    let mut board = [None; 81];
    let (mut kings, mut blacks, mut whites) = (0, 0, 0);
    for &(cell, piece) in &setup.pieces {
        if board[cell.index()].is_some() {
            problems.push(format!("cell {cell} holds more than one piece"));
            continue;
        }
        board[cell.index()] = Some(piece);
        match piece {
            Piece::King => kings += 1,
            Piece::Black => blacks += 1,
            Piece::White => whites += 1,
        }
        let i = cell.index();
        if piece != Piece::King && i == THRONE {
            problems.push(format!("a soldier can never stand on the throne {cell}"));
        }
        if piece != Piece::King && has(rules.king_only, i) {
            problems.push(format!("only the king may stand on {cell}"));
        }
        if piece.owner() == Player::Two && has(rules.camps, i) {
            let who = if piece == Piece::King {
                "the king"
            } else {
                "a white soldier"
            };
            problems.push(format!("{who} can never stand on the camp {cell}"));
        }
    }
    if kings > 1 {
        problems.push(format!("there are {kings} kings, at most one allowed"));
    }
    if kings == 0 && setup.side_to_move == Player::One {
        problems.push(
            "no king on the board (captured) but black to move: only a black move captures him"
                .to_string(),
        );
    }
    if blacks > 16 {
        problems.push(format!("{blacks} black soldiers, at most 16 allowed"));
    }
    if whites > 8 {
        problems.push(format!("{whites} white soldiers, at most 8 allowed"));
    }
    if rules.stuck_passes {
        if setup.passes > 2 {
            problems.push(format!(
                "{} consecutive passes, at most 2 possible",
                setup.passes
            ));
        }
    } else if setup.passes != 0 {
        problems.push("passing exists only in linnaeus; the pass count must be 0".to_string());
    }
    let position = Tablut::from_board(variant, &board, setup.side_to_move, setup.passes);
    if let Some(rule) = position.repetition() {
        problems.extend(rule.history_problems(&setup.history));
    }
    SetupError::check(problems)?;
    Ok(Played::from_parts(position, setup.history.clone()))
}
