//! The text notation of positions and moves (see the module docs of [`super`]).

use crate::quote::quote;
use std::fmt::Write;

use super::setup::{Setup, Stack};
use super::{Cell, Move, Path, Phase, Tartan};
use crate::game::{NotationError, Player, SetupError};

fn owner_letter(p: Player) -> char {
    match p {
        Player::One => 'r',
        Player::Two => 'b',
    }
}

/// Writes a position and its history.
pub(crate) fn position_text(pos: &Tartan, history: &[u64]) -> String {
    let mut out = String::from(match pos.phase {
        Phase::Placement => "place ",
        Phase::Play => "play ",
    });
    let stacks: Vec<String> = pos
        .stacks()
        .map(|s| format!("{}={}{}", s.cell, owner_letter(s.owner), s.height))
        .collect();
    if stacks.is_empty() {
        out.push('-');
    } else {
        out.push_str(&stacks.join(","));
    }
    match (pos.bishop(Player::One), pos.bishop(Player::Two)) {
        (Some(r), Some(b)) => {
            let _ = write!(out, " {r},{b}");
        }
        _ => out.push_str(" -"),
    }
    let _ = write!(
        out,
        " {},{} {} {} ",
        pos.tokens[0],
        pos.tokens[1],
        pos.counter,
        owner_letter(pos.side)
    );
    let mut hist = history.to_vec();
    hist.sort_unstable();
    if hist.is_empty() {
        out.push('-');
    }
    let mut i = 0;
    while i < hist.len() {
        let n = hist[i..].iter().take_while(|&&h| h == hist[i]).count();
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{:016x}", hist[i]);
        if n > 1 {
            let _ = write!(out, "*{n}");
        }
        i += n;
    }
    out
}

fn player_of(letter: &str) -> Option<Player> {
    match letter {
        "r" | "R" | "red" => Some(Player::One),
        "b" | "B" | "blue" => Some(Player::Two),
        _ => None,
    }
}

/// Reads a position's fields, listing every problem of syntax.
pub(crate) fn parse_position(text: &str) -> Result<Setup, SetupError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 7 {
        return Err(SetupError {
            problems: vec![format!(
                "expected 7 fields separated by spaces (phase, stacks, bishops, tokens, \
                 quiet turns, side to move, history), found {}",
                fields.len()
            )],
        });
    }
    let mut problems = Vec::new();
    let phase = match fields[0] {
        "place" => Phase::Placement,
        "play" => Phase::Play,
        p => {
            problems.push(format!("phase {} is neither place nor play", quote(p)));
            Phase::Placement
        }
    };
    let mut stacks = Vec::new();
    if fields[1] != "-" {
        for entry in fields[1].split(',') {
            match parse_stack(entry) {
                Ok(s) => stacks.push(s),
                Err(e) => problems.push(e),
            }
        }
    }
    let bishops = match fields[2] {
        "-" => [None, None],
        t => match t.split_once(',') {
            Some((r, b)) => {
                let mut cell = |c: &str| match Cell::parse(c) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        problems.push(format!("bishops: {e}"));
                        None
                    }
                };
                [cell(r), cell(b)]
            }
            None => {
                problems.push(format!(
                    "bishops {} are not two cells red,blue or -",
                    quote(t)
                ));
                [None, None]
            }
        },
    };
    let tokens = match fields[3]
        .split_once(',')
        .map(|(r, b)| (r.parse(), b.parse()))
    {
        Some((Ok(r), Ok(b))) => [r, b],
        _ => {
            problems.push(format!(
                "tokens {} are not two counts red,blue",
                quote(fields[3])
            ));
            [0, 0]
        }
    };
    let quiet_turns = fields[4].parse().unwrap_or_else(|_| {
        problems.push(format!("quiet turns {} is not a count", quote(fields[4])));
        0
    });
    let side_to_move = player_of(fields[5]).unwrap_or_else(|| {
        problems.push(format!(
            "side to move {} is neither r nor b",
            quote(fields[5])
        ));
        Player::One
    });
    let mut history = Vec::new();
    if fields[6] != "-" {
        for entry in fields[6].split(',') {
            match parse_history_entry(entry) {
                Ok((hash, n)) => history.extend(std::iter::repeat_n(hash, n)),
                Err(e) => problems.push(e),
            }
        }
    }
    SetupError::check(problems)?;
    Ok(Setup {
        phase,
        stacks,
        bishops,
        tokens,
        quiet_turns,
        side_to_move,
        history,
    })
}

fn parse_stack(entry: &str) -> Result<Stack, String> {
    let bad = || format!("{} is not a stack like C4=r2", quote(entry));
    let (cell, unit) = entry.split_once('=').ok_or_else(bad)?;
    let cell = Cell::parse(cell).map_err(|e| e.to_string())?;
    let (who, height) = unit.split_at_checked(1).ok_or_else(bad)?;
    let owner = player_of(who).ok_or_else(bad)?;
    let height = height.parse().map_err(|_| bad())?;
    Ok(Stack {
        cell,
        owner,
        height,
    })
}

fn parse_history_entry(entry: &str) -> Result<(u64, usize), String> {
    let bad = || format!("{} in the history is not a 16-digit hex hash", quote(entry));
    let (hash, n) = match entry.split_once('*') {
        Some((h, n)) => (h, n.parse::<usize>().map_err(|_| bad())?),
        None => (entry, 1),
    };
    if !(1..=3).contains(&n) {
        return Err(bad());
    }
    Ok((crate::parse_hash(hash).ok_or_else(bad)?, n))
}

/// Reads a move (syntax only).
pub(crate) fn parse_move(text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let upper = t.to_ascii_uppercase();
    if let Some(rest) = upper.strip_prefix("B:") {
        let (from, to) = rest.split_once('-').ok_or_else(|| {
            NotationError::new(format!("{} is not a Bishop step like B:E5-D4", quote(t)))
        })?;
        return Ok(Move::Bishop {
            from: Cell::parse(from)?,
            to: Cell::parse(to)?,
        });
    }
    if let Some(rest) = upper.strip_prefix("D:") {
        let bad = || {
            NotationError::new(format!(
                "{} is not a dismantle like D:F4:A2,C3,H7",
                quote(t)
            ))
        };
        let (horde, cells) = rest.split_once(':').ok_or_else(bad)?;
        let cells = cells
            .split(',')
            .map(Cell::parse)
            .collect::<Result<Vec<_>, _>>()?;
        return Move::dismantle(Cell::parse(horde)?, &cells).map_err(|_| bad());
    }
    let cells = upper
        .split('-')
        .map(Cell::parse)
        .collect::<Result<Vec<_>, _>>()?;
    match cells[..] {
        [cell] => Ok(Move::Place(cell)),
        _ => Path::new(&cells).map(Move::Unit).map_err(|_| {
            NotationError::new(format!(
                "{} is not a move: a unit's move has a start and 1 to 3 landings",
                quote(t)
            ))
        }),
    }
}

/// Appends a move's text.
pub(crate) fn push_move_text(mv: &Move, out: &mut String) {
    match mv {
        Move::Place(c) => out.push_str(c.as_str()),
        Move::Pass => out.push_str("pass"),
        Move::Unit(path) => {
            for (i, c) in path.cells().enumerate() {
                if i > 0 {
                    out.push('-');
                }
                out.push_str(c.as_str());
            }
        }
        Move::Bishop { from, to } => {
            out.push_str("B:");
            out.push_str(from.as_str());
            out.push('-');
            out.push_str(to.as_str());
        }
        Move::Dismantle { horde, cells } => {
            out.push_str("D:");
            out.push_str(horde.as_str());
            out.push(':');
            for (i, c) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(c.as_str());
            }
        }
    }
}
