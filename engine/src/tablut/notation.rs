//! Text notation of positions and moves, and the terminal diagram.

use crate::quote::quote;
use std::fmt::Write;

use super::cells::{Cell, SIZE};
use super::variant::Variant;
use super::{Move, Piece, Setup, Tablut};
use crate::game::{NotationError, Player};
use crate::Played;

/// Reads the notation documented in [`crate::tablut`] into unvalidated fields.
pub(crate) fn parse_position(variant: Variant, text: &str) -> Result<Setup, NotationError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let passing = variant.rules().stuck_passes;
    if tokens.len() < 3 || tokens.len() > 4 {
        return Err(NotationError::new(format!(
            "expected 3 or 4 fields (board, side to move, history{}), found {}",
            if passing { ", passes" } else { "" },
            tokens.len()
        )));
    }
    let pieces = parse_board(tokens[0])?;
    let side_to_move = match tokens[1] {
        "b" | "B" => Player::One,
        "w" | "W" => Player::Two,
        other => {
            return Err(NotationError::new(format!(
                "side to move {}: expected b or w",
                quote(other)
            )))
        }
    };
    let history = parse_history(tokens[2])?;
    let passes = match tokens.get(3) {
        None => 0,
        Some(t) => parse_passes(t)?,
    };
    Ok(Setup {
        pieces,
        side_to_move,
        history,
        passes,
    })
}

fn parse_board(text: &str) -> Result<Vec<(Cell, Piece)>, NotationError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIZE {
        return Err(NotationError::new(format!(
            "board: expected 9 rows separated by '/', found {}",
            rows.len()
        )));
    }
    let mut pieces = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let mut col = 0usize;
        for ch in row.chars() {
            let piece = match ch.to_ascii_lowercase() {
                'b' => Some(Piece::Black),
                'w' => Some(Piece::White),
                'k' => Some(Piece::King),
                '1'..='9' => None,
                _ => {
                    return Err(NotationError::new(format!(
                        "board row {}: unexpected character {ch:?} (use b, w, k or digits 1-9)",
                        r + 1
                    )))
                }
            };
            match piece {
                Some(p) => {
                    if let Some(cell) = Cell::new(col, r) {
                        pieces.push((cell, p));
                    }
                    col += 1;
                }
                None => col += ch.to_digit(10).unwrap_or(0) as usize,
            }
            if col > SIZE {
                return Err(NotationError::new(format!(
                    "board row {}: more than 9 cells",
                    r + 1
                )));
            }
        }
        if col != SIZE {
            return Err(NotationError::new(format!(
                "board row {}: {col} cells instead of 9",
                r + 1
            )));
        }
    }
    Ok(pieces)
}

fn parse_history(text: &str) -> Result<Vec<u64>, NotationError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|h| {
            crate::parse_hash(h).ok_or_else(|| {
                NotationError::new(format!(
                    "history: {} is not a hash of 16 hex digits",
                    quote(h)
                ))
            })
        })
        .collect()
}

fn parse_passes(text: &str) -> Result<u8, NotationError> {
    let digits = text
        .strip_prefix('p')
        .or_else(|| text.strip_prefix('P'))
        .ok_or_else(|| {
            NotationError::new(format!("passes {}: expected p0, p1 or p2", quote(text)))
        })?;
    match digits {
        "0" => Ok(0),
        "1" => Ok(1),
        "2" => Ok(2),
        _ => Err(NotationError::new(format!(
            "passes {}: expected p0, p1 or p2",
            quote(text)
        ))),
    }
}

/// Writes a game in progress: its position and history.
pub(crate) fn write_position(played: &Played<Tablut>) -> String {
    let pos = played.position();
    let mut out = String::new();
    for r in 0..SIZE {
        if r > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for c in 0..SIZE {
            match pos.at(r * SIZE + c) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push(p.letter());
                }
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
    }
    out.push_str(if pos.side == Player::One {
        " b "
    } else {
        " w "
    });
    if played.history().is_empty() {
        out.push('-');
    } else {
        let hashes: Vec<String> = played
            .history()
            .iter()
            .map(|h| format!("{h:016x}"))
            .collect();
        out.push_str(&hashes.join(","));
    }
    if pos.variant.rules().stuck_passes {
        let _ = write!(out, " p{}", pos.passes);
    }
    out
}

/// Reads a move: `e4-b4` or (linnaeus) `pass`.
pub(crate) fn parse_move(variant: Variant, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return if variant.rules().stuck_passes {
            Ok(Move::Pass)
        } else {
            Err(NotationError::new(
                "pass: passing exists only in the linnaeus variant",
            ))
        };
    }
    let (a, b) = text.split_once('-').ok_or_else(|| {
        NotationError::new(format!(
            "move {}: expected two cells joined by '-', like e4-b4",
            quote(text)
        ))
    })?;
    let from =
        Cell::parse(a).map_err(|e| NotationError::new(format!("move {}: {e}", quote(text))))?;
    let to =
        Cell::parse(b).map_err(|e| NotationError::new(format!("move {}: {e}", quote(text))))?;
    if from == to {
        return Err(NotationError::new(format!(
            "move {}: start and destination are the same cell",
            quote(text)
        )));
    }
    if from.row() != to.row() && from.col() != to.col() {
        return Err(NotationError::new(format!(
            "move {}: pieces move along a row or a column",
            quote(text)
        )));
    }
    Ok(Move::Step { from, to })
}

/// Appends a move's text to `out`: `e4-b4` or `pass`.
pub(crate) fn push_move_text(mv: &Move, out: &mut String) {
    match mv {
        Move::Step { from, to } => {
            out.push_str(from.as_str());
            out.push('-');
            out.push_str(to.as_str());
        }
        Move::Pass => out.push_str("pass"),
    }
}
