//! Building positions from structured fields, with validation that lists
//! every problem.

use super::board::{self, CELLS};
use super::{stack, AlmaTafl, Cell, Piece, REPETITION};
use crate::game::{Player, SetupError};
use crate::played::Played;

/// The structured fields of a game in progress (position and history). Build one and pass it to
/// [`AlmaTafl::from_setup`], which validates it: each cell listed once,
/// stacks of at most 3, exactly one King, at most 24 invaders and 12
/// defender discs, the King never under a defender nor under more than one
/// invader, only the King on escape spots (with nothing under him) and on the
/// throne (possibly with an invader burying him), a finished game with the
/// loser to move (King buried: defenders; King escaped: invaders), and no
/// history hash more than twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Occupied cells with their pieces bottom to top (an empty list is an empty cell).
    pub stacks: Vec<(Cell, Vec<Piece>)>,
    /// The side to move ([`Player::One`] = invaders).
    pub side_to_move: Player,
    /// Hashes of every earlier position of the game (any order).
    pub history: Vec<u64>,
}

/// Checks a setup and builds the game in progress.
pub(crate) fn validate(setup: &Setup) -> Result<Played<AlmaTafl>, SetupError> {
    let mut problems = Vec::new();
    let mut board = [0u8; CELLS];
    let mut seen = [false; CELLS];
    let (mut kings, mut invaders, mut defenders) = (Vec::new(), 0usize, 0usize);
    for (cell, pieces) in &setup.stacks {
        let name = cell.name();
        if std::mem::replace(&mut seen[cell.index()], true) {
            problems.push(format!("{name} is listed more than once"));
            continue;
        }
        if pieces.len() > board::MAX_HEIGHT {
            problems.push(format!(
                "the stack on {name} has {} pieces; at most {} are allowed",
                pieces.len(),
                board::MAX_HEIGHT
            ));
            continue;
        }
        for (level, p) in pieces.iter().enumerate() {
            match p {
                Piece::Invader => invaders += 1,
                Piece::Defender => defenders += 1,
                Piece::King => kings.push((*cell, level, pieces.len())),
            }
        }
        if cell.is_escape() && pieces.iter().any(|&p| p != Piece::King) {
            problems.push(format!("only the King may stand on the escape spot {name}"));
        }
        if cell.is_throne() {
            match pieces.as_slice() {
                [] | [Piece::King] | [Piece::King, Piece::Invader] => {}
                _ => problems.push(format!(
                    "only the King may stand on the throne {name} (or an invader burying him)"
                )),
            }
        }
        if let Some(k) = pieces.iter().position(|&p| p == Piece::King) {
            let above = &pieces[k + 1..];
            if above.contains(&Piece::Defender) {
                problems.push(format!("the King on {name} is covered by a defender"));
            } else if above.len() > 1 {
                problems.push(format!(
                    "the King on {name} is covered by more than one invader"
                ));
            }
        }
        board[cell.index()] = stack::pack(pieces);
    }
    match kings.as_slice() {
        [] => problems.push("there is no King".into()),
        [(cell, level, height)] => {
            let finished_side = if level + 1 < *height {
                Some((Player::Two, "the King is buried"))
            } else if cell.is_escape() {
                Some((Player::One, "the King has escaped"))
            } else {
                None
            };
            if let Some((side, why)) = finished_side {
                if setup.side_to_move != side {
                    problems.push(format!(
                        "{why}, so the {} just moved and the {} are to move",
                        <AlmaTafl as crate::Game>::player_name(side.opponent()),
                        <AlmaTafl as crate::Game>::player_name(side)
                    ));
                }
            }
        }
        more => problems.push(format!(
            "there are {} Kings; exactly one is needed",
            more.len()
        )),
    }
    if invaders > board::MAX_INVADERS {
        problems.push(format!(
            "there are {invaders} invaders; at most {} are allowed",
            board::MAX_INVADERS
        ));
    }
    if defenders > board::MAX_DEFENDERS {
        problems.push(format!(
            "there are {defenders} defender discs; at most {} are allowed",
            board::MAX_DEFENDERS
        ));
    }
    problems.extend(REPETITION.history_problems(&setup.history));
    SetupError::check(problems)?;
    Ok(Played::from_parts(
        AlmaTafl::assemble(board, setup.side_to_move),
        setup.history.clone(),
    ))
}
