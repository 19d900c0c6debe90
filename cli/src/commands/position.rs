//! `caber new`, `caber legal` and `caber apply`.

use caber_service::proto;

use super::{apply_request, status, Session};
use crate::output;

/// Shows the start position, or the one `--position` gives (after `--moves`).
pub async fn new(session: &mut Session) -> anyhow::Result<()> {
    let current = session.current().await?;
    let reply = proto::NewGameResponse {
        position: Some(current.report.clone()),
    };
    output::position(&reply, &current.report, session.common.json);
    Ok(())
}

/// Lists the legal moves.
pub async fn legal(session: &mut Session) -> anyhow::Result<()> {
    let current = session.current().await?;
    output::shown(&current.report, session.common.json);
    let request = proto::LegalMovesRequest {
        position: Some(current.position),
        include_position: false,
    };
    let reply = session
        .client
        .legal_moves(request)
        .await
        .map_err(status)?
        .into_inner();
    output::legal(&reply, session.common.json);
    Ok(())
}

/// Plays `mv` and shows what happened.
pub async fn apply(session: &mut Session, mv: &str) -> anyhow::Result<()> {
    let current = session.current().await?;
    let reply = session
        .client
        .apply(apply_request(current.position, mv))
        .await
        .map_err(status)?
        .into_inner();
    output::applied(&reply, session.common.json)
}
