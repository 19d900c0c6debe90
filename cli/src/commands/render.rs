//! `caber render --svg FILE`: the service's SVG drawing of the position.

use std::path::Path;

use anyhow::Context;
use caber_service::proto;
use serde_json::json;

use super::{status, Session};
use crate::output::out;

/// Writes the drawing of the position (after `--moves`) to `file` (`-`:
/// standard output), the last of `--moves` marked unless `last` names
/// another move (`""`: none).
pub async fn run(session: &mut Session, file: &Path, last: Option<&str>) -> anyhow::Result<()> {
    let current = session.current().await?;
    let last_move = match last {
        Some(mv) => mv.to_string(),
        None => session
            .common
            .moves
            .split_whitespace()
            .last()
            .unwrap_or_default()
            .to_string(),
    };
    let request = proto::RenderRequest {
        position: Some(current.position),
        last_move: last_move.clone(),
    };
    let svg = session
        .client
        .render(request)
        .await
        .map_err(status)?
        .into_inner()
        .svg;
    if file == Path::new("-") {
        // `--svg -`: the drawing itself on standard output, nothing else.
        out!("{}", svg.trim_end());
        return Ok(());
    }
    std::fs::write(file, &svg).with_context(|| format!("cannot write {}", file.display()))?;
    if session.common.json {
        out!(
            "{}",
            json!({ "file": file.display().to_string(), "bytes": svg.len(), "lastMove": last_move })
        );
    } else {
        out!("{} written ({} bytes)", file.display(), svg.len());
    }
    Ok(())
}
