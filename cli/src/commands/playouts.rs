//! `caber bench playouts`: uniformly random full games per second on one
//! thread, from the position the options give (the variant's start by
//! default), by the `Playouts` RPC: the speed of the server's move generation
//! and play as a Monte Carlo playout sees it (the in-process engine's with
//! no `--server`).

use caber_service::proto;
use serde_json::json;

use super::{status, Session};
use crate::output::out;

/// Plays random games for `seconds` and reports the rates.
pub async fn run(session: &mut Session, seconds: f64) -> anyhow::Result<()> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds * 1000.0 <= f64::from(u32::MAX)) {
        anyhow::bail!("--seconds {seconds}: give a positive number of seconds (at most 4294967)");
    }
    let current = session.current().await?;
    let (game, variant) = (
        current.position.game.clone(),
        current.position.variant.clone(),
    );
    let request = proto::PlayoutsRequest {
        position: Some(current.position),
        seed: session.common.seed,
        movetime_ms: ((seconds * 1000.0).round() as u32).max(1),
    };
    let p = session
        .client
        .playouts(request)
        .await
        .map_err(status)?
        .into_inner();
    let secs = p.seconds.max(1e-9);
    let (games_per_second, moves_per_second) = (p.games as f64 / secs, p.plies as f64 / secs);
    let mean_length = p.plies as f64 / p.games.max(1) as f64;
    if session.common.json {
        out!(
            "{}",
            json!({
                "game": game, "variant": variant, "threads": 1,
                "seconds": p.seconds, "games": p.games, "plies": p.plies,
                "gamesPerSecond": games_per_second,
                "movesPerSecond": moves_per_second,
                "meanLength": mean_length,
                "note": p.note,
            })
        );
    } else {
        out!(
            "{game} ({variant}): {games_per_second:.0} games/s, {moves_per_second:.0} moves/s, mean length {mean_length:.1} plies ({} games in {:.1} s, one thread)",
            p.games,
            p.seconds,
        );
        if !p.note.is_empty() {
            out!("note: {}", p.note);
        }
    }
    Ok(())
}
