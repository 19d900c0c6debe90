//! `caber games`.

use caber_service::proto;

use super::{status, Session};
use crate::output;

/// Lists the games.
pub async fn run(session: &mut Session) -> anyhow::Result<()> {
    let reply = session
        .client
        .list_games(proto::ListGamesRequest {})
        .await
        .map_err(status)?
        .into_inner();
    output::games(&reply, session.common.json);
    Ok(())
}
