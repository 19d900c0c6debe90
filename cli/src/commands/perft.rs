//! `caber perft`.

use caber_service::proto;

use super::{status, Session};
use crate::{output, progress};

/// Counts the leaves `depth` plies down, per move with `divide`.
pub async fn run(session: &mut Session, depth: u32, divide: bool) -> anyhow::Result<()> {
    let current = session.current().await?;
    let request = proto::PerftRequest {
        position: Some(current.position),
        depth,
        divide,
    };
    let spinner = progress::spinner(&format!("perft {depth}"), session.common.json);
    let reply = session.client.perft(request).await;
    spinner.finish_and_clear();
    let reply = reply.map_err(status)?.into_inner();
    output::perft(&reply, session.common.json);
    Ok(())
}
