//! Tunes Tablut's evaluation weights on the positions of recorded games
//! (`caber match --records DIR`) by their results (Texel's method): finds the
//! scale `k` that best maps the static value of every position to the game's
//! result, `1 / (1 + 10^(-k * value / 400))`, then moves one weight at a time
//! while the mean squared error falls.
//!
//! ```text
//! cargo run --release -p caber-engine --example tune -- VARIANT DIR...
//! ```
//!
//! Uses the finished games of `VARIANT` only, skips the first 8 plies each
//! record lists (positions alike in many games), and keeps only quiet
//! positions (no capture or end of the game next move). `black_soldier`
//! stays as it is (it sets the scale), and so do the weights of captures
//! next move (quiet positions have none).
//! Prints the error (on four games in five, and on the fifth held out) after
//! each pass, undoes a pass that raised the held-out error and goes on with
//! smaller steps, then the weights that changed as `name=value,...`, the
//! options of a match spec such as `default:name=value,...`.

#[path = "shared/records.rs"]
mod records;

use caber_engine::eval::{Evaluator, Weights};
use caber_engine::game::{variant_by_name, variant_name};
use caber_engine::record::{GameRecord, RecordResult};
use caber_engine::tablut::{Evaluation, Tablut, Variant};
use caber_engine::{Game, GameResult, Played, Player};

/// Plies of each record left out (near the start, alike in many games).
const SKIP_PLIES: usize = 8;

/// Weights left as they are: the scale and the threats of a capture next
/// move (quiet positions have none to fit on).
const FIXED: &[&str] = &["black_soldier", "capture_next_tenths", "king_capture_next"];

/// A position and the game's result for white (1 won, 0.5 drawn, 0 lost).
struct Sample {
    position: Tablut,
    white_result: f64,
}

/// The quiet positions of `record` after its first [`SKIP_PLIES`] moves
/// and before its end, if it is a finished game of `variant`.
fn samples(record: &GameRecord, variant: Variant) -> Result<Vec<Sample>, String> {
    if record.game() != "tablut" || record.tag("Variant") != Some(variant_name::<Tablut>(variant)) {
        return Ok(Vec::new());
    }
    let white_result = match record.result(Tablut::WHITE) {
        Some(RecordResult::Won(p)) => GameResult::Win(p).reward(Player::Two),
        Some(RecordResult::Draw) => 0.5,
        _ => return Ok(Vec::new()),
    };
    let positions = records::positions(record)?;
    Ok(positions[..positions.len() - 1]
        .iter()
        .skip(SKIP_PLIES)
        .filter(|p| quiet(p))
        .map(|p| Sample {
            position: *p.position(),
            white_result,
        })
        .collect())
}

/// Whether `p` is unfinished and its side to move can neither capture nor
/// end the game: a position whose static value the next move does not
/// overturn, as Texel's method is usually fitted.
fn quiet(p: &Played<Tablut>) -> bool {
    let pieces = |q: &Played<Tablut>| q.position().pieces().count();
    let before = pieces(p);
    if p.outcome().is_some() {
        return false;
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves.iter().all(|mv| {
        let next = p.play_unchecked(mv);
        next.outcome().is_none() && pieces(&next) == before
    })
}

/// The default evaluation with `values` for the weights named in `names`.
fn weights(names: &[(&str, i32)], values: &[i32]) -> Evaluation {
    let mut eval = Evaluation::default();
    for ((name, _), value) in names.iter().zip(values) {
        eval.set(name, *value);
    }
    eval
}

/// Mean squared error of `eval`'s predictions at scale `k`.
fn error(samples: &[Sample], eval: &Evaluation, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let value = eval.evaluate(&s.position);
            let white = if s.position.side_to_move() == Player::Two {
                value
            } else {
                -value
            };
            let predicted = 1.0 / (1.0 + 10f64.powf(-k * f64::from(white) / 400.0));
            (s.white_result - predicted).powi(2)
        })
        .sum();
    sum / samples.len() as f64
}

/// The scale in 0.01 .. 3 that fits `eval` best (golden-section search).
fn best_scale(samples: &[Sample], eval: &Evaluation) -> f64 {
    let (mut lo, mut hi) = (0.01, 3.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, eval, a) < error(samples, eval, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), dirs) = (args.first(), args.get(1..).unwrap_or_default()) else {
        return Err("usage: tune VARIANT DIR...".into());
    };
    let variant = variant_by_name::<Tablut>(name).ok_or(format!("no Tablut variant {name}"))?;
    let mut read = Vec::new();
    for dir in dirs {
        read.extend(records::read_dir(dir)?);
    }
    read.sort_by(|a, b| a.0.cmp(&b.0));
    let (mut all, mut held_out) = (Vec::new(), Vec::new());
    let mut games = 0;
    for (path, record) in read {
        let found = samples(&record, variant).map_err(|e| format!("{}: {e}", path.display()))?;
        if !found.is_empty() {
            games += 1;
            if games % 5 == 0 {
                held_out.extend(found);
            } else {
                all.extend(found);
            }
        }
    }
    if held_out.is_empty() {
        return Err(format!(
            "{games} finished {name} games in {dirs:?}: at least 5 needed (one held out)"
        ));
    }
    let mut eval = Evaluation::default();
    let k = best_scale(&all, &eval);
    let start = error(&all, &eval, k);
    let held_start = error(&held_out, &eval, k);
    println!(
        "{} positions of {games} games, {} of every fifth game held out; scale {k:.3}; error {start:.6}, held out {held_start:.6}",
        all.len(),
        held_out.len()
    );
    let defaults: Vec<(&str, i32)> = <Evaluation as Weights>::DEFAULTS
        .iter()
        .filter(|(name, _)| !FIXED.contains(name))
        .copied()
        .collect();
    let mut values: Vec<i32> = defaults.iter().map(|(_, v)| *v).collect();
    let mut best = start;
    let mut held = held_start;
    'steps: for divisor in [8, 32, 128] {
        let mut improved = true;
        while improved {
            improved = false;
            let before = (values.clone(), best);
            for (i, (name, _)) in defaults.iter().enumerate() {
                let step = (values[i].abs() / divisor).max(1);
                for delta in [step, -step] {
                    let mut trial = eval;
                    trial.set(name, values[i] + delta);
                    let e = error(&all, &trial, k);
                    if e < best {
                        best = e;
                        values[i] += delta;
                        eval = trial;
                        improved = true;
                        break;
                    }
                }
            }
            let e = error(&held_out, &eval, k);
            println!("steps of 1/{divisor}: error {best:.6}, held out {e:.6}");
            if e > held {
                println!("held-out error rose: back to before this pass");
                (values, best) = before;
                eval = weights(&defaults, &values);
                continue 'steps;
            }
            held = e;
        }
    }
    let changed: Vec<String> = defaults
        .iter()
        .zip(&values)
        .filter(|((_, default), value)| default != *value)
        .map(|((name, _), value)| format!("{name}={value}"))
        .collect();
    println!("error {start:.6} -> {best:.6}, held out {held_start:.6} -> {held:.6}");
    println!("changed: {}", changed.join(","));
    Ok(())
}
