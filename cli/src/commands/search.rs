//! `caber eval`, `caber best` and `caber analyze`.

use anyhow::Context;
use caber_service::proto;

use super::{required, status, Session};
use crate::args::SearchArgs;
use crate::{output, progress};

/// The request's limits and weights; `None` when neither is given.
pub fn limits(args: &SearchArgs, seed: u64) -> Option<proto::Limits> {
    let any = args.depth > 0
        || args.nodes > 0
        || args.movetime > 0
        || args.hash > 0
        || !args.weights.is_empty();
    any.then(|| proto::Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime_ms: args.movetime,
        seed,
        threads: args.threads,
        weights: args.weights.iter().cloned().collect(),
        hash_mb: args.hash,
    })
}

/// Evaluates the position: static without limits or searcher, searched with them.
pub async fn eval(session: &mut Session, args: &SearchArgs) -> anyhow::Result<()> {
    let current = session.current().await?;
    output::shown(&current.report, session.common.json);
    let request = proto::EvaluateRequest {
        position: Some(current.position),
        limits: limits(args, session.common.seed),
        searcher: args.searcher.clone(),
    };
    let reply = session
        .client
        .evaluate(request)
        .await
        .map_err(status)?
        .into_inner();
    output::evaluation(&reply, session.common.json)
}

/// Searches for the best move.
pub async fn best(session: &mut Session, args: &SearchArgs) -> anyhow::Result<()> {
    let current = session.current().await?;
    output::shown(&current.report, session.common.json);
    let request = proto::BestMoveRequest {
        position: Some(current.position),
        limits: limits(args, session.common.seed),
        searcher: args.searcher.clone(),
        table: String::new(),
        search_moves: Vec::new(),
    };
    let spinner = progress::spinner("searching", session.common.json);
    let reply = session.client.best_move(request).await;
    spinner.finish_and_clear();
    output::best(&reply.map_err(status)?.into_inner(), session.common.json)
}

/// Streams the analysis, one line per update.
pub async fn analyze(
    session: &mut Session,
    args: &SearchArgs,
    multipv: u32,
    interval_ms: u32,
) -> anyhow::Result<()> {
    let current = session.current().await?;
    output::shown(&current.report, session.common.json);
    let request = proto::AnalyzeRequest {
        position: Some(current.position),
        limits: limits(args, session.common.seed),
        multipv,
        report_interval_ms: interval_ms,
        searcher: args.searcher.clone(),
        table: String::new(),
        search_moves: Vec::new(),
    };
    let mut stream = session
        .client
        .analyze(request)
        .await
        .map_err(status)?
        .into_inner();
    let spinner = progress::spinner("analysing", session.common.json);
    // Ctrl-C ends the analysis with the latest report as its final one.
    let interrupted = tokio::signal::ctrl_c();
    tokio::pin!(interrupted);
    let mut latest: Option<proto::AnalysisUpdate> = None;
    loop {
        let update = tokio::select! {
            next = stream.message() => next.map_err(status)?,
            _ = &mut interrupted => {
                spinner.finish_and_clear();
                let mut last = latest.context("stopped by Ctrl-C before the first report")?;
                last.r#final = true;
                let stats = last.stats.get_or_insert_with(Default::default);
                stats.stopped = true;
                stats.interrupted = "stopped by Ctrl-C: the best result so far".to_string();
                output::analysis(&last, session.common.json);
                return Ok(());
            }
        };
        // The stream ended without its final report.
        let Some(update) = update else {
            return required(None::<()>, "final analysis report");
        };
        if let Some(stats) = &update.stats {
            spinner.set_message(format!("depth {} nodes {}", stats.depth, stats.nodes));
        }
        spinner.suspend(|| output::analysis(&update, session.common.json));
        if update.r#final {
            spinner.finish_and_clear();
            return Ok(());
        }
        latest = Some(update);
    }
}
