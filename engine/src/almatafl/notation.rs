//! Text notation of positions and moves (described in the module docs).

use super::{AlmaTafl, Cell, Move, Piece, Setup, MAX_CHAIN};
use crate::game::{NotationError, Player, SetupError};
use crate::quote::quote;

/// Writes a move: its cells joined by `-`.
pub(crate) fn move_text(mv: &Move) -> String {
    let mut text = String::new();
    push_move_text(mv, &mut text);
    text
}

/// Appends a move's text to `out`.
pub(crate) fn push_move_text(mv: &Move, out: &mut String) {
    for (i, cell) in mv.cells().into_iter().enumerate() {
        if i > 0 {
            out.push('-');
        }
        out.push_str(cell.as_str());
    }
}

/// Reads a move (syntax only).
pub(crate) fn parse_move(text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    let parts: Vec<&str> = t.split('-').collect();
    if parts.len() < 2 {
        return Err(NotationError::new(format!(
            "{} is not a move: expected cells joined by '-', like B2-B3",
            quote(t)
        )));
    }
    if parts.len() > MAX_CHAIN {
        return Err(NotationError::new(format!(
            "{} has {} cells; a move has at most {MAX_CHAIN}",
            quote(t),
            parts.len()
        )));
    }
    let cells = parts
        .iter()
        .map(|p| Cell::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    Move::new(&cells).ok_or_else(|| NotationError::new(format!("{} is not a move", quote(t))))
}

/// Writes a position and its history.
pub(crate) fn position_text(pos: &AlmaTafl, history: &[u64]) -> String {
    let board: Vec<String> = pos
        .stacks()
        .iter()
        .map(|(c, ps)| {
            format!(
                "{}={}",
                c.name(),
                ps.iter().map(|p| p.letter()).collect::<String>()
            )
        })
        .collect();
    let side = match pos.side {
        Player::One => "i",
        Player::Two => "d",
    };
    let mut hist = history.to_vec();
    hist.sort_unstable();
    let mut entries = Vec::new();
    let mut i = 0;
    while i < hist.len() {
        let n = hist[i..].iter().take_while(|&&h| h == hist[i]).count();
        entries.push(if n == 1 {
            format!("{:016x}", hist[i])
        } else {
            format!("{:016x}*{n}", hist[i])
        });
        i += n;
    }
    let history = if entries.is_empty() {
        "-".to_string()
    } else {
        entries.join(",")
    };
    format!("{} {side} {history}", board.join(","))
}

/// Reads a position's fields, listing every problem of syntax.
pub(crate) fn parse_position(text: &str) -> Result<Setup, SetupError> {
    let mut problems = Vec::new();
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 2 || fields.len() > 3 {
        return Err(SetupError {
            problems: vec![format!(
                "expected 2 or 3 fields separated by spaces (stacks, side to move, history), found {}",
                fields.len()
            )],
        });
    }
    let mut stacks = Vec::new();
    for entry in fields[0].split(',') {
        match parse_stack(entry) {
            Ok(s) => stacks.push(s),
            Err(e) => problems.push(e),
        }
    }
    let side_to_move = match fields[1].to_ascii_lowercase().as_str() {
        "i" | "invaders" => Player::One,
        "d" | "defenders" => Player::Two,
        other => {
            problems.push(format!(
                "side to move {} is neither 'i' (invaders) nor 'd' (defenders)",
                quote(other)
            ));
            Player::One
        }
    };
    let mut history = Vec::new();
    if let Some(h) = fields.get(2).filter(|&&h| h != "-") {
        for entry in h.split(',') {
            match parse_history_entry(entry) {
                Ok((hash, n)) => history.extend(std::iter::repeat_n(hash, n)),
                Err(e) => problems.push(e),
            }
        }
    }
    SetupError::check(problems)?;
    Ok(Setup {
        stacks,
        side_to_move,
        history,
    })
}

fn parse_stack(entry: &str) -> Result<(Cell, Vec<Piece>), String> {
    let (cell, pieces) = entry.split_once('=').ok_or_else(|| {
        format!(
            "{} is not a stack: expected cell=pieces, like F6=k",
            quote(entry)
        )
    })?;
    let cell = Cell::parse(cell).map_err(|e| e.message)?;
    if pieces.is_empty() || pieces.len() > 3 {
        return Err(format!(
            "the stack {} must list 1 to 3 pieces (i, d or k) bottom to top",
            quote(entry)
        ));
    }
    let pieces = pieces
        .chars()
        .map(|ch| match ch.to_ascii_lowercase() {
            'i' => Ok(Piece::Invader),
            'd' => Ok(Piece::Defender),
            'k' => Ok(Piece::King),
            _ => Err(format!(
                "{ch:?} in {} is not a piece: use i (invader), d (defender) or k (King)",
                quote(entry)
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((cell, pieces))
}

fn parse_history_entry(entry: &str) -> Result<(u64, usize), String> {
    let (hash, count) = match entry.split_once('*') {
        Some((h, c)) => (h, Some(c)),
        None => (entry, None),
    };
    let bad_hash = || format!("{} in the history is not a 16-digit hex hash", quote(entry));
    let hash = crate::parse_hash(hash).ok_or_else(bad_hash)?;
    let count = match count {
        None => 1,
        Some(c) => match c.parse::<usize>() {
            Ok(n @ 1..=2) => n,
            _ => {
                return Err(format!(
                    "the count in {} must be 1 or 2 (a third occurrence ends the game)",
                    quote(entry)
                ))
            }
        },
    };
    Ok((hash, count))
}
