//! The `Review` RPC: a game record replayed through its game's adapter (every
//! move checked), every position searched on the pool in one job within the
//! review's bound ([`ReviewBound`]), each move judged by the win probability
//! it lost ([`caber_engine::review`]).
//!
//! A position's value is its searched score's win probability, or the
//! outcome once the game is over. A move's loss is the mover's value after
//! the engine's choice less its value after the move played, both positions
//! searched alike (the other side to move, the same budget: the bias of a
//! search for its side to move cancels out). The engine's own choice loses
//! nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caber_engine::quote;
use caber_engine::record::GameRecord;
use caber_engine::review::{accuracy, Judgement, Tallies};
use caber_engine::search::{Limits, Score};
use caber_engine::Player;
use tokio::sync::mpsc;
use tonic::Status;

use crate::convert;
use crate::games::{self, Game, SearcherChoice};
use crate::proto;
use crate::search_runner::{self, SearchRunner, Searched, StopOnDrop};
use crate::updates::Updater;

/// The most moves one review takes.
pub const MAX_REVIEW_MOVES: usize = 2000;

/// A record replayed: its game, the positions from the start to the end,
/// and the moves between them as played.
pub struct Replayed {
    game: &'static dyn Game,
    positions: Vec<proto::PositionReport>,
    played: Vec<proto::MoveInfo>,
}

impl Replayed {
    /// The record's game.
    pub fn game_name(&self) -> &'static str {
        self.game.name()
    }

    /// Refuses, before any search starts, a searcher the game lacks or
    /// limits it cannot keep.
    pub fn check_search(
        &self,
        searcher: &SearcherChoice,
        limits: Option<&Limits>,
    ) -> Result<(), Status> {
        match self.positions.first().and_then(|p| p.position.as_ref()) {
            Some(start) => self.game.search(start, searcher, limits).map(drop),
            None => Ok(()),
        }
    }
}

/// Reads a record's text and replays its moves; errors name the record's
/// line, tag or move.
pub fn replay(text: &str) -> Result<Replayed, Status> {
    let record =
        GameRecord::parse(text).map_err(|e| Status::invalid_argument(format!("record: {e}")))?;
    if record.moves.len() > MAX_REVIEW_MOVES {
        return Err(Status::invalid_argument(format!(
            "record: {} moves; a review takes at most {MAX_REVIEW_MOVES}",
            record.moves.len()
        )));
    }
    let game = games::game_named(record.game(), "record: the Game tag")?;
    let variant = record.tag("Variant").unwrap_or_default().to_string();
    let seed = match record.tag("Seed") {
        None => 0,
        Some(s) => s.trim().parse().map_err(|_| {
            Status::invalid_argument(format!("record: the Seed tag {} is not a number", quote(s)))
        })?,
    };
    let start = match record.tag("Start") {
        Some(text) => {
            let position = proto::Position {
                game: game.name().to_string(),
                variant: variant.clone(),
                state: Some(proto::position::State::Text(text.to_string())),
            };
            let read = game
                .legal_moves(&position, true)
                .map_err(|e| tagged(e, "record: the Start tag"))?;
            read.position.expect("include_position asks for it")
        }
        None => game
            .new_game(&variant, seed)
            .map_err(|e| tagged(e, "record: the Variant tag"))?,
    };
    let mut positions = vec![start];
    let mut played = Vec::new();
    for (i, mv) in record.moves.iter().enumerate() {
        let position = positions[i]
            .position
            .as_ref()
            .expect("reports hold their position");
        let message = proto::Move {
            kind: Some(proto::r#move::Kind::Text(mv.text.clone())),
        };
        let applied = game
            .apply(position, Some(&message))
            .map_err(|e| tagged(e, &format!("record: move {} ({})", i + 1, quote(&mv.text))))?;
        played.push(applied.r#move.expect("Apply reports the move"));
        positions.push(applied.position.expect("Apply reports the position"));
    }
    Ok(Replayed {
        game,
        positions,
        played,
    })
}

/// `status` with `what` before its message, its code kept.
fn tagged(status: Status, what: &str) -> Status {
    Status::new(status.code(), format!("{what}: {}", status.message()))
}

/// A position's value: the searched score and best line, or the outcome.
struct Value {
    side_to_move: Player,
    /// Player One's win probability.
    one: f64,
    /// The searched score (side to move's view) and best move, if searched.
    searched: Option<Searched>,
}

impl Value {
    fn of(report: &proto::PositionReport, searched: Option<Searched>) -> Self {
        let side_to_move = Player::try_from(report.side_to_move()).unwrap_or(Player::One);
        let one = match (
            &report.outcome,
            searched.as_ref().and_then(|s| s.info.score()),
        ) {
            (Some(outcome), _) => match Player::try_from(outcome.winner()) {
                Ok(Player::One) => 1.0,
                Ok(Player::Two) => 0.0,
                Err(_) => 0.5,
            },
            (None, Some(score)) => from_one(side_to_move, score.win_probability()),
            (None, None) => 0.5,
        };
        Value {
            side_to_move,
            one,
            searched,
        }
    }

    /// `player`'s win probability.
    fn win(&self, player: Player) -> f64 {
        from_one(player, self.one)
    }
}

/// A win probability of player One as `player`'s (or the reverse).
fn from_one(player: Player, p: f64) -> f64 {
    match player {
        Player::One => p,
        Player::Two => 1.0 - p,
    }
}

fn negated(score: Score) -> Score {
    match score {
        Score::Centi(c) => Score::Centi(-c),
        Score::Mate(n) => Score::Mate(-n),
        Score::Draw => Score::Draw,
    }
}

/// What the pool job found for one position: its search, and for the move
/// that led to it, the value of the engine's choice instead (when another
/// move was played).
struct Found {
    searched: Option<Searched>,
    after_best: Option<Value>,
}

/// The values a move is judged by: the position before it (its search gives
/// the engine's choice), after it, and after the engine's choice if that
/// was another move.
struct Judged<'a> {
    before: &'a Value,
    after: &'a Value,
    after_best: Option<&'a Value>,
}

/// The review of move `ply` (1-based). The move's loss is the mover's win
/// probability after the engine's choice less after the move played, both
/// positions searched alike (the same budget, the other side to move).
fn move_review(
    ply: usize,
    played: &proto::MoveInfo,
    judged: Judged<'_>,
    names: [&str; 2],
    tallies: &mut Tallies,
) -> proto::MoveReview {
    let Judged {
        before,
        after,
        after_best,
    } = judged;
    let mover = before.side_to_move;
    let best = before.searched.as_ref().and_then(|s| s.best.clone());
    let best_line = before
        .searched
        .as_ref()
        .and_then(|s| s.info.lines.first())
        .map(|l| l.moves.clone())
        .unwrap_or_default();
    let win_after = after.win(mover);
    let win_before = after_best.map_or(win_after, |v| v.win(mover));
    let loss = (win_before - win_after).max(0.0);
    let judgement = tallies.add(mover, win_before, win_after);
    let after_score = after
        .searched
        .as_ref()
        .and_then(|s| s.info.score())
        .map(|s| {
            if after.side_to_move == mover {
                s
            } else {
                negated(s)
            }
        });
    proto::MoveReview {
        ply: ply as u32,
        mover: convert::side(Some(mover)),
        mover_name: names[mover.index()].to_string(),
        played: Some(played.clone()),
        best,
        best_line,
        before: before
            .searched
            .as_ref()
            .and_then(|s| s.info.score())
            .map(convert::score),
        after: after_score.map(convert::score),
        win_before,
        win_after,
        loss,
        judgement: judgement_message(judgement) as i32,
        accuracy: accuracy(win_before, win_after),
    }
}

fn judgement_message(j: Judgement) -> proto::Judgement {
    match j {
        Judgement::Good => proto::Judgement::Good,
        Judgement::Inaccuracy => proto::Judgement::Inaccuracy,
        Judgement::Mistake => proto::Judgement::Mistake,
        Judgement::Blunder => proto::Judgement::Blunder,
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

/// Streams the review of `replayed` into `tx`: searches every position not
/// over with `searcher` within `limits` on the runner's pool (one job), one
/// update per move as its two positions are known, then the summary. The
/// searches share `bound`: each gets at most an equal share of the time left
/// among the searches that may still come, and the summary's `budget` says
/// when that lowered their movetime. The pool job never waits for the
/// client, so a client that stops reading holds no search place.
pub async fn review(
    runner: &SearchRunner,
    replayed: Replayed,
    searcher: &SearcherChoice,
    limits: Limits,
    bound: ReviewBound,
    tx: Updater<proto::ReviewUpdate>,
) -> Result<(), Status> {
    let Replayed {
        game,
        positions,
        played,
    } = replayed;
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    let (found_tx, mut found) = mpsc::unbounded_channel::<Result<Found, Status>>();
    let ends_by = Instant::now().checked_add(bound.within);
    let work = {
        let (stop, positions, played) = (stop.clone(), positions.clone(), played.clone());
        let searcher = searcher.clone();
        move || {
            // The lowest movetime the bound left a search, where it lowered one.
            let mut lowest: Option<Duration> = None;
            let mut search = |report: &proto::PositionReport,
                              searches_left: u32|
             -> Result<Option<Searched>, Status> {
                if report.outcome.is_some() {
                    return Ok(None);
                }
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
                let job = game.search(
                    report.position.as_ref().expect("a position"),
                    &searcher,
                    Some(&limits),
                )?;
                Ok(Some(job(&limits, &stop, &mut |_| {})))
            };
            let mut best: Option<proto::MoveInfo> = None;
            for (i, report) in positions.iter().enumerate() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                // At most: this move's search after the engine's choice, this
                // position's, and two for each position after it.
                let searches_left = 2 * (positions.len() - i) as u32;
                // The position the engine's choice would have led to, when
                // the move played was another: both are searched alike.
                let after_best = match (i.checked_sub(1), best.take()) {
                    (Some(before), Some(best)) if best.text != played[before].text => {
                        let from = positions[before].position.as_ref().expect("a position");
                        game.apply(from, best.r#move.as_ref())
                            .map(|a| a.position.expect("Apply reports the position"))
                            .and_then(|report| {
                                let searched = search(&report, searches_left)?;
                                Ok(Some(Value::of(&report, searched)))
                            })
                    }
                    _ => Ok(None),
                };
                let found = after_best.and_then(|after_best| {
                    let searched = search(report, searches_left - 1)?;
                    best = searched.as_ref().and_then(|s| s.best.clone());
                    Ok(Found {
                        searched,
                        after_best,
                    })
                });
                if found_tx.send(found).is_err() {
                    break;
                }
            }
            lowest
        }
    };
    let search = runner.run_within(stop.clone(), bound.within, work);
    tokio::pin!(search);
    let give_up = tokio::time::sleep(bound.within.saturating_add(OVERRUN));
    tokio::pin!(give_up);
    let info = game.info();
    let names = [info.players[0].as_str(), info.players[1].as_str()];
    let mut tallies = Tallies::default();
    let mut values: Vec<Value> = Vec::new();
    let mut lowest = None;
    let mut searching = true;
    loop {
        tokio::select! {
            done = &mut search, if searching => {
                lowest = done?;
                searching = false;
            }
            () = &mut give_up, if searching => {
                stop.store(true, Ordering::Relaxed);
            }
            next = found.recv() => {
                let Some(next) = next else { break };
                let Found { searched, after_best } = next?;
                let i = values.len();
                values.push(Value::of(&positions[i], searched));
                if i > 0 {
                    let judged = Judged {
                        before: &values[i - 1],
                        after: &values[i],
                        after_best: after_best.as_ref(),
                    };
                    let update = proto::ReviewUpdate {
                        r#move: Some(move_review(i, &played[i - 1], judged, names, &mut tallies)),
                        ..Default::default()
                    };
                    if tx.send(Ok(update)).await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }
    if searching {
        lowest = search.await?;
    }
    if values.len() < positions.len() {
        if runner.interrupted() {
            return Err(Status::unavailable(
                "server shutting down: the review was stopped; retry on another server",
            ));
        }
        let message = format!(
            "review not finished within {} ms, {}: {} of {} positions searched",
            bound.within.as_millis(),
            bound.name(),
            values.len(),
            positions.len()
        );
        return Err(match bound.deadline {
            true => Status::deadline_exceeded(message),
            false => Status::resource_exhausted(message),
        });
    }
    let players = [Player::One, Player::Two]
        .into_iter()
        .map(|p| {
            let t = tallies.of(p);
            proto::PlayerReview {
                side: convert::side(Some(p)),
                name: names[p.index()].to_string(),
                moves: t.moves,
                accuracy: t.accuracy(),
                inaccuracies: t.inaccuracies,
                mistakes: t.mistakes,
                blunders: t.blunders,
            }
        })
        .collect();
    let last = positions.last().expect("the start at least").clone();
    let variant = last
        .position
        .as_ref()
        .map(|p| p.variant.clone())
        .unwrap_or_default();
    let budget = lowest.map_or(String::new(), |m| {
        format!(
            "movetime lowered to as little as {} ms a search to review {} positions within {} ms, {}",
            m.as_millis(),
            positions.len(),
            bound.within.as_millis(),
            bound.name()
        )
    });
    let _ = tx
        .send(Ok(proto::ReviewUpdate {
            players,
            final_position: Some(last),
            game: game.name().to_string(),
            variant,
            r#final: true,
            budget,
            ..Default::default()
        }))
        .await;
    Ok(())
}
