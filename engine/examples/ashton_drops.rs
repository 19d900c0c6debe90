//! White's soldiers lost to black's very next move in the `ashton` games of
//! a match (`caber match --records DIR`), how many of those losses white
//! could have avoided (another legal move would have left black no capture
//! at all), and how many were drops (black's capture left white no capture
//! in reply) and of those avoidable (another move would have left black no
//! such capture).
//!
//! ```text
//! cargo run --release -p caber-engine --example ashton_drops -- DIR [NAME]
//! ```
//!
//! With NAME, only the games whose white player (the record's `Second` tag:
//! black is a Tablut game's first player, although white moves first)
//! contains it. Prints one line per game and the totals.

#[path = "shared/records.rs"]
mod records;

use caber_engine::record::GameRecord;
use caber_engine::tablut::{Move, Piece, Tablut, Variant};
use caber_engine::{Played, Player};

/// One game's counts.
#[derive(Default)]
struct Counts {
    /// White's moves.
    moves: usize,
    /// White soldiers black's next move captured.
    lost: usize,
    /// White's moves after which black captured.
    losing_moves: usize,
    /// Of those, the moves that had an alternative leaving black no capture.
    avoidable: usize,
    /// Black's captures after which white had no capture of its own.
    drops: usize,
    /// Of those, the drops white's move before could have avoided: another
    /// legal move would have left black no such capture.
    avoidable_drops: usize,
}

/// How many soldiers of `side` (`Piece::White` or `Piece::Black`) are on the board.
fn soldiers(p: &Played<Tablut>, side: Piece) -> usize {
    p.position()
        .pieces()
        .filter(|&(_, piece)| piece == side)
        .count()
}

fn white_soldiers(p: &Played<Tablut>) -> usize {
    soldiers(p, Piece::White)
}

fn legal(p: &Played<Tablut>) -> Vec<Move> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves
}

/// Whether the side to move in `p` has a move capturing a soldier of `prey`.
fn can_capture(p: &Played<Tablut>, prey: Piece) -> bool {
    let before = soldiers(p, prey);
    p.outcome().is_none()
        && legal(p)
            .iter()
            .any(|mv| soldiers(&p.play_unchecked(mv), prey) < before)
}

/// Whether black, to move in `p`, has a move capturing a white soldier.
fn black_can_capture(p: &Played<Tablut>) -> bool {
    can_capture(p, Piece::White)
}

/// Whether white, to move in `p`, has a move capturing a black soldier.
fn white_can_capture(p: &Played<Tablut>) -> bool {
    can_capture(p, Piece::Black)
}

/// Whether black, to move in `p`, can capture a white soldier after which
/// white has no capture of its own.
fn black_can_drop(p: &Played<Tablut>) -> bool {
    let before = white_soldiers(p);
    p.outcome().is_none()
        && legal(p).iter().any(|mv| {
            let next = p.play_unchecked(mv);
            white_soldiers(&next) < before && !white_can_capture(&next)
        })
}

/// Replays one record; `None` if it is not an `ashton` game of `white`.
fn count(record: &GameRecord, white: &str) -> Result<Option<Counts>, String> {
    if record.game() != "tablut"
        || record.tag("Variant") != Some("ashton")
        || !record.tag("Second").unwrap_or_default().contains(white)
    {
        return Ok(None);
    }
    let mut counts = Counts::default();
    let mut last_avoidable = false;
    let mut last_drop_avoidable = false;
    let positions = records::positions(record, Variant::Ashton)?;
    for (p, next) in positions.iter().zip(&positions[1..]) {
        if p.side_to_move() == Player::Two {
            counts.moves += 1;
            last_avoidable = black_can_capture(next)
                && legal(p)
                    .iter()
                    .any(|alt| !black_can_capture(&p.play_unchecked(alt)));
            last_drop_avoidable = black_can_drop(next)
                && legal(p)
                    .iter()
                    .any(|alt| !black_can_drop(&p.play_unchecked(alt)));
        } else {
            let lost = white_soldiers(p) - white_soldiers(next);
            if lost > 0 {
                counts.lost += lost;
                counts.losing_moves += 1;
                counts.avoidable += usize::from(last_avoidable);
                if !white_can_capture(next) {
                    counts.drops += 1;
                    counts.avoidable_drops += usize::from(last_drop_avoidable);
                }
            }
        }
    }
    Ok(Some(counts))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        return Err("usage: ashton_drops DIR [NAME]".into());
    };
    let white = args.get(1).map_or("", String::as_str);
    let mut total = Counts::default();
    for (path, record) in records::read_dir(dir)? {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let Some(c) = count(&record, white).map_err(|e| format!("{name}: {e}"))? else {
            continue;
        };
        println!(
            "{name}: {} soldiers lost to black's next move in {} white moves; {} of the {} losing moves avoidable; {} drops, {} of them avoidable",
            c.lost, c.moves, c.avoidable, c.losing_moves, c.drops, c.avoidable_drops
        );
        total.moves += c.moves;
        total.lost += c.lost;
        total.losing_moves += c.losing_moves;
        total.avoidable += c.avoidable;
        total.drops += c.drops;
        total.avoidable_drops += c.avoidable_drops;
    }
    println!(
        "total: {} soldiers lost in {} white moves, on {} of them; {} of those {} avoidable (another move left black no capture); {} drops (white had no capture in reply), {} of them avoidable (another move left black no such capture)",
        total.lost,
        total.moves,
        total.losing_moves,
        total.avoidable,
        total.losing_moves,
        total.drops,
        total.avoidable_drops
    );
    Ok(())
}
