//! `caber bench playouts`: uniformly random full games per second on one
//! thread, from the variant's start: the speed of the engine's move
//! generation and play as a Monte Carlo playout sees it. It runs the
//! engine here, whatever `--server` says: it measures this machine's engine.

use std::time::Duration;

use caber_service::games;
use serde_json::json;

use super::status;
use crate::output::out;

/// Plays random games of `game`/`variant` for `seconds` and reports the rates.
pub fn run(game: &str, variant: &str, seconds: f64, seed: u64, json: bool) -> anyhow::Result<()> {
    if !(seconds.is_finite() && seconds > 0.0) {
        anyhow::bail!("--seconds {seconds}: give a positive number of seconds");
    }
    let adapter = games::game_named(game, "game").map_err(status)?;
    let budget = Duration::from_secs_f64(seconds);
    let (variant, p) = adapter
        .random_games(variant, budget, seed)
        .map_err(status)?;
    let secs = p.elapsed.as_secs_f64();
    if json {
        out!(
            "{}",
            json!({
                "game": adapter.name(), "variant": variant, "threads": 1,
                "seconds": secs, "games": p.games, "plies": p.plies,
                "games_per_second": p.games_per_second(),
                "moves_per_second": p.moves_per_second(),
                "mean_length": p.mean_length(),
            })
        );
    } else {
        out!(
            "{} ({variant}): {:.0} games/s, {:.0} moves/s, mean length {:.1} plies ({} games in {secs:.1} s, one thread)",
            adapter.name(),
            p.games_per_second(),
            p.moves_per_second(),
            p.mean_length(),
            p.games
        );
    }
    Ok(())
}
