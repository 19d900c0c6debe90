//! `caber match`: a seeded match between two reference players, played by the service.

use caber_service::proto;

use super::{status, Session};
use crate::{output, progress};

/// The match options.
pub struct MatchArgs {
    /// Deals (each played twice, seats swapped).
    pub games: u32,
    /// Player A's name.
    pub a: String,
    /// Player B's name.
    pub b: String,
    /// ISMCTS iterations per move (0: the server's default).
    pub iterations: u64,
}

/// Plays the match and reports it.
pub async fn run(session: &mut Session, args: MatchArgs) -> anyhow::Result<()> {
    let request = proto::PlayMatchRequest {
        game: session.common.game.clone(),
        variant: session.common.variant.clone(),
        games: args.games,
        seed: session.common.seed,
        player_a: args.a.clone(),
        player_b: args.b.clone(),
        iterations: args.iterations,
    };
    let spinner = progress::spinner(
        &format!("{} vs {}: {} games", args.a, args.b, 2 * args.games),
        session.common.json,
    );
    let reply = session.client.play_match(request).await;
    spinner.finish_and_clear();
    let reply = reply.map_err(status)?.into_inner();
    output::match_result(&args.a, &args.b, &reply, session.common.json);
    Ok(())
}
