//! `caber view`: a player's view of a referee's full state (Schotten Totten).

use caber_service::proto;

use super::{required, status, Session};
use crate::output;
use crate::sides::Sides;

/// Shows `player`'s view of the current full state (a side's name, `1`,
/// `2`, or empty for the side to move).
pub async fn run(session: &mut Session, player: &str) -> anyhow::Result<()> {
    let current = session.current().await?;
    let player = if player.trim().is_empty() {
        proto::Side::Unspecified
    } else {
        Sides::of(&session.game_info().await?).parse("--player", player)?
    };
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
    let report = required(reply.position.as_ref(), "position")?;
    output::position(&reply, report, session.common.json);
    Ok(())
}
