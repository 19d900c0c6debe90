//! White's soldiers lost to black's very next move in the `ashton` games of
//! a match (`caber match --records DIR`), how many of those losses white
//! could have avoided (another legal move would have left black no capture
//! at all), and how many were drops (black's capture left white no capture
//! in reply) and of those avoidable (another move would have left black no
//! such capture).
//!
//! ```text
//! cargo run --release -p caber-engine --example ashton_drops -- DIR [NAME] [--deeper MS]
//! ```
//!
//! With NAME, only the games whose white player (the record's `White` tag,
//! or an older record's `Second`: black is a Tablut game's first player,
//! although white moves first) contains it. Prints one line per game and the totals.
//!
//! With `--deeper MS`, also searches again, for MS milliseconds with the
//! default engine (alpha-beta, default weights, one thread), every position
//! where white's move left black a drop that another move avoided, and
//! prints whether the search keeps the move, plays another leaving a drop,
//! or one leaving none, with its score: does a longer search judge the drop
//! a mistake? Where it plays another move, both positions after the two
//! moves are searched for MS as well and the played move is judged as
//! `caber review` judges moves: by the win probability white lost
//! (`caber_engine::review`).

#[path = "shared/records.rs"]
mod records;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use caber_engine::record::GameRecord;
use caber_engine::review::Tally;
use caber_engine::search::{alphabeta, Info, Limits, Score};
use caber_engine::tablut::{Evaluation, Move, Piece, Tablut};
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
    /// The positions before white's moves that left black a drop another
    /// move avoided (whether or not black took it), and the position after.
    avoidable_drop_moves: Vec<(Played<Tablut>, Played<Tablut>)>,
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
        || !record
            .player(Player::Two, "white")
            .unwrap_or_default()
            .contains(white)
    {
        return Ok(None);
    }
    let mut counts = Counts::default();
    let mut last_avoidable = false;
    let mut last_drop_avoidable = false;
    let positions = records::positions(record)?;
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
            if last_drop_avoidable {
                counts.avoidable_drop_moves.push((p.clone(), next.clone()));
            }
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

/// What a longer search plays where white's move left an avoidable drop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    /// The same move.
    Same,
    /// Another move, still leaving black a drop.
    OtherDrop,
    /// A move leaving black no drop.
    NoDrop,
}

/// The default engine's search of `p` for `budget` on one thread.
fn search(p: &Played<Tablut>, budget: Duration) -> Info<Move> {
    let limits = Limits {
        movetime: Some(budget),
        ..Limits::default()
    };
    alphabeta::AlphaBeta::new(alphabeta::DEFAULT_TT_MB, Evaluation::default()).search(
        p,
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// White's win probability in `p`, black to move: the outcome if the game
/// is over, else from a search for `budget`, as `caber review` values it.
fn white_value(p: &Played<Tablut>, budget: Duration) -> f64 {
    match p.outcome() {
        Some(outcome) => outcome.result.reward(Player::Two),
        None => search(p, budget)
            .score()
            .map_or(0.5, |s| 1.0 - s.win_probability()),
    }
}

/// A longer search's view of a move white played (which led to `after`).
struct Second {
    verdict: Verdict,
    /// The search's score of `before`, white's view.
    score: Score,
    /// White's win probability after the search's choice and after the move
    /// played (both positions searched alike); none if the choice was the same.
    values: Option<(f64, f64)>,
}

/// Searches `before` for `budget` and judges its move against the one
/// played, which led to `after`.
fn search_again(
    before: &Played<Tablut>,
    after: &Played<Tablut>,
    budget: Duration,
) -> Option<Second> {
    let info = search(before, budget);
    let chosen = before.play_unchecked(info.best_move()?);
    let verdict = if chosen.hash() == after.hash() {
        Verdict::Same
    } else if black_can_drop(&chosen) {
        Verdict::OtherDrop
    } else {
        Verdict::NoDrop
    };
    let score = info.score()?;
    let values = (verdict != Verdict::Same)
        .then(|| (white_value(&chosen, budget), white_value(after, budget)));
    Some(Second {
        verdict,
        score,
        values,
    })
}

/// The ranges of white's score the verdicts are tallied under.
const SCORE_CLASSES: [&str; 7] = [
    "forced win",
    "0 or more",
    "-1 to -199",
    "-200 to -399",
    "-400 or less",
    "forced loss",
    "forced draw",
];

/// The index in [`SCORE_CLASSES`] of `score`'s range.
fn score_class(score: Score) -> usize {
    match score {
        Score::Mate(n) if n > 0 => 0,
        Score::Centi(c) if c >= 0 => 1,
        Score::Centi(c) if c > -200 => 2,
        Score::Centi(c) if c > -400 => 3,
        Score::Centi(_) => 4,
        Score::Mate(_) => 5,
        Score::Draw => 6,
    }
}

fn main() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let deeper = match args.iter().position(|a| a == "--deeper") {
        Some(i) => {
            let ms = args
                .get(i + 1)
                .and_then(|ms| ms.parse().ok())
                .ok_or("--deeper needs milliseconds")?;
            args.drain(i..i + 2);
            Some(Duration::from_millis(ms))
        }
        None => None,
    };
    let Some(dir) = args.first() else {
        return Err("usage: ashton_drops DIR [NAME] [--deeper MS]".into());
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
        total.avoidable_drop_moves.extend(c.avoidable_drop_moves);
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
    if let Some(budget) = deeper {
        deeper_report(&total.avoidable_drop_moves, budget);
    }
    Ok(())
}

/// Searches every position of `moves` again for `budget` and prints the
/// verdicts, one line each, their tally by score, and the judgements of
/// the moves played where the search chose another.
fn deeper_report(moves: &[(Played<Tablut>, Played<Tablut>)], budget: Duration) {
    let mut tally = [[0usize; 3]; SCORE_CLASSES.len()];
    let mut judged = Tally::default();
    for (before, after) in moves {
        let Some(second) = search_again(before, after, budget) else {
            continue;
        };
        let (verdict, score) = (second.verdict, second.score);
        match second.values {
            Some((best, played)) => {
                let judgement = judged.add(best, played, 0.0);
                let loss = (best - played).max(0.0);
                println!(
                    "{}: {verdict:?} ({score:?}), played move lost {loss:.3}: {}",
                    before.to_notation(),
                    judgement.name()
                );
            }
            None => println!("{}: {verdict:?} ({score:?})", before.to_notation()),
        }
        tally[score_class(score)][verdict as usize] += 1;
    }
    let sum = |v: usize| tally.iter().map(|n| n[v]).sum::<usize>();
    println!(
        "searched again for {} ms: {} positions; the same move {}, another leaving a drop {}, one leaving none {}",
        budget.as_millis(),
        moves.len(),
        sum(0),
        sum(1),
        sum(2)
    );
    for (class, [same, other, none]) in SCORE_CLASSES.iter().zip(tally) {
        if same + other + none > 0 {
            println!("  scored {class}: same {same}, other drop {other}, no drop {none}");
        }
    }
    let Tally {
        moves,
        inaccuracies,
        mistakes,
        blunders,
        ..
    } = judged;
    let good = moves - inaccuracies - mistakes - blunders;
    println!(
        "the moves played where it chose another, judged by the win probability lost: good {good}, inaccuracy {inaccuracies}, mistake {mistakes}, blunder {blunders}"
    );
}
