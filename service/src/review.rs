//! The `Review` RPC: a game record read and replayed in the game its `Game`
//! tag names (the engine's `record::replay`, every move checked), then
//! reviewed by the engine (`review::review`) on the pool in one job within
//! the review's bound ([`ReviewBound`]), each move's review streamed as it
//! comes, then both players' summaries.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caber_engine::review::{Tallies, INACCURACY};
use caber_engine::search::Limits;
use caber_engine::Player;
use tokio::sync::mpsc;
use tonic::Status;

use crate::convert;
use crate::games::{self, Reviewing, SearcherChoice, ServedGame};
use crate::proto;
use crate::search_runner::{self, SearchRunner, StopOnDrop};
use crate::updates::Updater;

/// A record read and replayed, its searcher checked: ready to review.
pub struct Prepared {
    game: &'static dyn ServedGame,
    reviewing: Reviewing,
    /// Who played each side, from the record's tags (empty when unnamed).
    players: [String; 2],
}

impl Prepared {
    /// Reads `text`, replays it in its game and checks `searcher` and
    /// `limits` for it; errors name the record's line, tag or move, or the
    /// request's field.
    pub fn new(
        text: &str,
        searcher: &SearcherChoice,
        limits: Option<&Limits>,
    ) -> Result<Self, Status> {
        let (game, record) = games::read_record(text)?;
        let reviewing = game.review(&record, searcher, limits)?;
        let sides = game.info().players;
        let players = [Player::One, Player::Two].map(|p| {
            let side = sides.get(p.index()).map_or("", String::as_str);
            record.player(p, side).unwrap_or_default().to_string()
        });
        Ok(Self {
            game,
            reviewing,
            players,
        })
    }

    /// The record's game.
    pub fn game_name(&self) -> &'static str {
        self.game.name()
    }
}

/// How long a review may take, all its searches together, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewBound {
    /// The time its searches get.
    pub within: Duration,
    /// Whether that is the call's deadline (otherwise the server's `--max-review-ms`).
    pub deadline: bool,
}

impl ReviewBound {
    /// The bound of a review on `runner` for a call with `timeout` that
    /// arrived at `arrived`: the server's maximum, or less to end before the
    /// call's deadline.
    pub fn new(runner: &SearchRunner, timeout: Option<Duration>, arrived: Instant) -> Self {
        let max = runner.caps().max_review;
        let left = |t| search_runner::before_deadline(t).saturating_sub(arrived.elapsed());
        match timeout.map(left) {
            Some(left) if left < max => Self {
                within: left,
                deadline: true,
            },
            _ => Self {
                within: max,
                deadline: false,
            },
        }
    }

    fn name(&self) -> &'static str {
        if self.deadline {
            "the call's deadline"
        } else {
            "the server's maximum (--max-review-ms)"
        }
    }
}

/// Past its bound, how long a review's searches get to notice their stop
/// flag before the review is given up.
const OVERRUN: Duration = Duration::from_secs(1);

/// Streams the review of `prepared` into `tx`: every position searched
/// within `limits` on the runner's pool (one job), one update per move as
/// it is judged, then the summary. The searches share `bound`: each gets at
/// most an equal share of the time left among the searches that may still
/// come, and the summary's `budget` says when that lowered their movetime.
/// The pool job never waits for the client, so a client that stops reading
/// holds no search place.
pub async fn review(
    runner: &SearchRunner,
    prepared: Prepared,
    limits: Limits,
    bound: ReviewBound,
    tx: Updater<proto::ReviewUpdate>,
) -> Result<(), Status> {
    let Prepared {
        game,
        reviewing,
        players,
    } = prepared;
    let Reviewing {
        positions,
        last,
        job,
    } = reviewing;
    let moves = u32::try_from(positions.saturating_sub(1)).unwrap_or(u32::MAX);
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    let (found_tx, mut found) = mpsc::unbounded_channel::<proto::MoveReview>();
    let ends_by = Instant::now().checked_add(bound.within);
    let work = {
        let stop = stop.clone();
        move || {
            // The lowest movetime the bound left a search, where it lowered one.
            let mut lowest: Option<Duration> = None;
            let mut limits_for = |searches_left: u32| {
                let mut limits = limits.clone();
                limits.deadline = ends_by;
                if let Some(end) = ends_by {
                    let share = (end.saturating_duration_since(Instant::now())
                        / searches_left.max(1))
                    .max(Duration::from_millis(1));
                    if limits.movetime.is_none_or(|m| m > share) {
                        limits.movetime = Some(share);
                        lowest = Some(lowest.map_or(share, |l| l.min(share)));
                    }
                }
                limits
            };
            let tallies = job(&mut limits_for, &stop, &mut |m| found_tx.send(m).is_ok());
            (tallies, lowest)
        }
    };
    let search = runner.run_within(stop.clone(), bound.within, work);
    tokio::pin!(search);
    let give_up = tokio::time::sleep(bound.within.saturating_add(OVERRUN));
    tokio::pin!(give_up);
    let mut reviewed = 0;
    let mut done = None;
    loop {
        tokio::select! {
            result = &mut search, if done.is_none() => done = Some(result?),
            () = &mut give_up, if done.is_none() => stop.store(true, Ordering::Relaxed),
            next = found.recv() => {
                let Some(m) = next else { break };
                reviewed += 1;
                let update = proto::ReviewUpdate {
                    r#move: Some(m),
                    moves,
                    inaccuracy: INACCURACY,
                    ..Default::default()
                };
                if tx.send(Ok(update)).await.is_err() {
                    return Ok(());
                }
            }
        }
    }
    let (tallies, lowest) = match done {
        Some(done) => done,
        None => search.await?,
    };
    let Some(tallies) = tallies else {
        if runner.interrupted() {
            return Err(Status::unavailable(
                "server shutting down: the review was stopped; retry on another server",
            ));
        }
        let message = format!(
            "review not finished within {} ms, {}: {reviewed} of {} moves reviewed",
            bound.within.as_millis(),
            bound.name(),
            positions - 1
        );
        return Err(match bound.deadline {
            true => Status::deadline_exceeded(message),
            false => Status::resource_exhausted(message),
        });
    };
    let budget = lowest.map_or(String::new(), |m| {
        format!(
            "movetime lowered to as little as {} ms a search to review {positions} positions \
             within {} ms, {}",
            m.as_millis(),
            bound.within.as_millis(),
            bound.name()
        )
    });
    let variant = last
        .position
        .as_ref()
        .map(|p| p.variant.clone())
        .unwrap_or_default();
    let _ = tx
        .send(Ok(proto::ReviewUpdate {
            players: summaries(game, &players, &tallies),
            final_position: Some(last),
            game: game.name().to_string(),
            variant,
            r#final: true,
            budget,
            moves,
            inaccuracy: INACCURACY,
            ..Default::default()
        }))
        .await;
    Ok(())
}

/// Both players' summaries, in the game's order; `players` say who played.
fn summaries(
    game: &dyn ServedGame,
    players: &[String; 2],
    tallies: &Tallies,
) -> Vec<proto::PlayerReview> {
    let info = game.info();
    [Player::One, Player::Two]
        .into_iter()
        .map(|p| {
            let t = tallies.of(p);
            proto::PlayerReview {
                side: convert::side(Some(p)),
                side_name: info.players[p.index()].clone(),
                player: players[p.index()].clone(),
                moves: t.moves,
                accuracy: t.accuracy(),
                inaccuracies: t.inaccuracies,
                mistakes: t.mistakes,
                blunders: t.blunders,
            }
        })
        .collect()
}
