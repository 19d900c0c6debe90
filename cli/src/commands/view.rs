//! `caber view`: a player's view of a referee's full state (Schotten Totten).

use caber_service::proto;

use super::{required, status, Session};
use crate::output;

/// The side named by `player`: `first`/`1`, `second`/`2`, or empty for the side to move.
fn side(player: &str) -> anyhow::Result<proto::Side> {
    match player.trim().to_ascii_lowercase().as_str() {
        "" => Ok(proto::Side::Unspecified),
        "1" | "first" | "one" => Ok(proto::Side::One),
        "2" | "second" | "two" => Ok(proto::Side::Two),
        other => anyhow::bail!("--player: {other:?} is not first, second, 1 or 2"),
    }
}

/// Shows `player`'s view of the current full state.
pub async fn run(session: &mut Session, player: &str) -> anyhow::Result<()> {
    let player = side(player)?;
    let current = session.current().await?;
    let request = proto::ViewRequest {
        position: Some(current.position),
        player: player as i32,
    };
    let reply = session
        .client
        .view(request)
        .await
        .map_err(status)?
        .into_inner();
    output::position(&required(reply.position, "position")?, session.common.json);
    Ok(())
}
