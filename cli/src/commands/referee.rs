//! `caber tablut-challenge serve`: a referee for two Tablut Challenge
//! clients, speaking the protocol of the competition's `Server.java`
//! ([`crate::challenge_protocol`]) from the initial position or any
//! position or record given, with Caber's `ashton` rules judging the moves
//! (through the service, as every command reaches a game). It writes the
//! game as a record `caber review` reads.
//!
//! As the server does: white connects and names itself, then black; each
//! gets every state, white first; the side to move has `--timeout` seconds
//! for its move, and one that does not move in time loses with no final
//! state sent (the server exits); an illegal move loses once `--errors` are
//! spent, with the board unchanged and the winner's turn sent to both, and
//! before that the same state is sent again. A side left with no legal move
//! is still given the turn (the server does not look), and loses by the
//! move it cannot make. Where the server would fail (a message that is not
//! a move, a client that left), the referee counts an illegal move, or a
//! loss for the one who left.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use caber_engine::record::{GameRecord, RecordResult, RecordedMove};
use caber_engine::tablut::Tablut;
use caber_engine::{Game as _, Player};
use caber_service::proto::{self, position::State as PositionState, r#move::Kind};
use clap::Args;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};

use super::{required, status, Current, Start};
use crate::challenge_protocol::{
    read_frame, read_move, read_name, write_frame, Color, Failure, State, Turn, NO_LEGAL_MOVE,
};
use crate::clock::Civil;
use crate::output::out;

use super::Session;

/// How `caber tablut-challenge serve` is set up.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (the server's: every interface).
    #[arg(long, default_value = "0.0.0.0")]
    pub host: String,
    /// White's port (0: any free one, printed).
    #[arg(long, default_value_t = Color::White.default_port())]
    pub white_port: u16,
    /// Black's port (0: any free one, printed).
    #[arg(long, default_value_t = Color::Black.default_port())]
    pub black_port: u16,
    /// Each move's time in seconds (the server's -t).
    #[arg(long, short = 't', value_name = "S", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub timeout: u32,
    /// Illegal moves each player is forgiven (the server's -e); the next
    /// one loses.
    #[arg(long, short = 'e', value_name = "N", default_value_t = 0)]
    pub errors: u32,
    /// Start where this record's game stands after --ply plies (all its
    /// moves by default); the record written keeps those moves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves"])]
    pub start_record: Option<PathBuf>,
    /// The plies of --start-record to start after.
    #[arg(long, value_name = "N", requires = "start_record")]
    pub ply: Option<usize>,
    /// Adjudicate a game still going after N plies played here (the start's
    /// not counted) a draw: not a rule of the competition, a bound for
    /// matches between engines that may never end a blocked game.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: Option<u32>,
    /// Save the record to FILE (default: caber-referee-DATE-TIME.record).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

/// The server waits this long for each player to connect.
const CONNECTION_WAIT: Duration = Duration::from_secs(300);

/// The server calls a game still going after this long a draw (its check
/// counts whole hours past 10).
const GAME_HOURS: Duration = Duration::from_secs(11 * 3600);

/// One connected player.
struct Client {
    color: Color,
    name: String,
    stream: TcpStream,
    errors: u32,
}

/// How a game ended: the final state's turn, why, and whether the final
/// state is sent (not after a timeout: the server exits without one).
struct Ending {
    turn: Turn,
    reason: String,
    send: bool,
}

/// Referees one game; its result is written to the record and the exit
/// code is 0 whatever it is. A start that is not a position, or players
/// that never connect or name themselves, are errors.
pub async fn run(session: &mut Session, args: &ServeArgs) -> anyhow::Result<()> {
    let json = session.common.json;
    let (mut current, mut record) = start(session, args).await?;
    let white_listener = listen(&args.host, args.white_port).await?;
    let black_listener = listen(&args.host, args.black_port).await?;
    let (white_at, black_at) = (white_listener.local_addr()?, black_listener.local_addr()?);
    if json {
        out!(
            "{}",
            json!({"white": white_at.to_string(), "black": black_at.to_string(),
                   "timeoutS": args.timeout, "errors": args.errors, "start": current.report.text})
        );
    } else {
        out!(
            "referee: white on {white_at}, black on {black_at}; {} s a move, {} illegal moves forgiven; start {}",
            args.timeout,
            args.errors,
            current.report.text
        );
    }
    let timeout = Duration::from_secs(u64::from(args.timeout));
    let white = join(&white_listener, Color::White, timeout, json).await?;
    let black = join(&black_listener, Color::Black, timeout, json).await?;
    record.set_tag("White", &white.name);
    record.set_tag("Black", &black.name);
    let mut players = [white, black];
    let began = Instant::now();
    let mut played = 0u32;
    let mut shown = State::of(
        tablut(&current.report)?,
        Turn::ToMove(mover(&current.report)?),
        None,
    );
    let ending = loop {
        let left = send(&mut players, &shown).await;
        // A final state ends the game whoever can still read it.
        let Turn::ToMove(color) = shown.turn else {
            break Ending {
                turn: shown.turn,
                reason: reason(&current.report),
                send: false,
            };
        };
        if let Some(ending) = left {
            break ending;
        }
        let sent = Instant::now();
        let player = &mut players[index(color)];
        let frame = tokio::time::timeout(timeout, read_frame(&mut player.stream)).await;
        let judged = match frame {
            Err(_) => {
                break Ending {
                    turn: win_of(color.other()),
                    reason: format!("{} did not move within {} s", color.name(), args.timeout),
                    send: false,
                }
            }
            Ok(Ok(None)) | Ok(Err(Failure::Connection(_))) => {
                break Ending {
                    turn: win_of(color.other()),
                    reason: format!("{} left the game", color.name()),
                    send: true,
                }
            }
            Ok(Err(Failure::Protocol(why))) => Err(why),
            Ok(Ok(Some(text))) => match read_move(&text) {
                Ok((from, to)) => play(session, &current, &from, &to).await,
                Err(why) => Err(why),
            },
        };
        let took = sent.elapsed();
        match judged {
            Ok(applied) => {
                let mv = required(applied.r#move, "move")?.text;
                let report = required(applied.position, "position")?;
                let ply = record.moves.len() + 1;
                if json {
                    out!(
                        "{}",
                        json!({"ply": ply, "side": color.name(), "move": mv,
                               "timeMs": took.as_millis() as u64})
                    );
                } else {
                    out!(
                        "{ply:>4}. {:<6} {mv}  {:.2} s",
                        color.name(),
                        took.as_secs_f64()
                    );
                    crate::output::events(&applied.events);
                }
                record.moves.push(RecordedMove {
                    text: mv,
                    comments: Vec::new(),
                    eval: None,
                });
                let king_before = tablut(&current.report)?.king.clone();
                let turn = turn_after(&report)?;
                shown = State::of(tablut(&report)?, turn, Some(&king_before));
                current = Current {
                    position: required(report.position.clone(), "position")?,
                    report,
                };
                played += 1;
                if matches!(shown.turn, Turn::ToMove(_)) {
                    if began.elapsed() > GAME_HOURS {
                        break Ending {
                            turn: Turn::Draw,
                            reason: "the game lasted more than 10 hours".to_string(),
                            send: true,
                        };
                    }
                    if args.max_plies.is_some_and(|n| played >= n) {
                        break Ending {
                            turn: Turn::Draw,
                            reason: format!("adjudicated after {played} plies (--max-plies)"),
                            send: true,
                        };
                    }
                }
            }
            Err(why) => {
                player.errors += 1;
                let lost = player.errors > args.errors;
                if json {
                    out!(
                        "{}",
                        json!({"illegal": why, "side": color.name(), "errors": player.errors})
                    );
                } else {
                    out!(
                        "      {} made an illegal move ({} of {} forgiven): {why}",
                        color.name(),
                        player.errors,
                        args.errors
                    );
                }
                if lost {
                    break Ending {
                        turn: win_of(color.other()),
                        reason: format!("{} made an illegal move: {why}", color.name()),
                        send: true,
                    };
                }
            }
        }
    };
    if ending.send {
        shown.turn = ending.turn;
        // Whoever left cannot read it; the other still does.
        let _ = send(&mut players, &shown).await;
    }
    drop(players);
    finish(record, &ending, args, json)
}

/// The start position and the record that begins with it.
async fn start(session: &mut Session, args: &ServeArgs) -> anyhow::Result<(Current, GameRecord)> {
    let mut record = GameRecord::new("tablut");
    record.set_tag("Event", "Tablut Challenge referee");
    record.set_tag("Date", &Civil::now().date_tag());
    record.set_tag("Variant", "ashton");
    let (text, moves) = match &args.start_record {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--start-record: cannot read {}", path.display()))?;
            let given = GameRecord::parse(&text)
                .with_context(|| format!("--start-record: {}", path.display()))?;
            let replayed = session
                .client
                .replay(proto::ReplayRequest { record: text })
                .await
                .map_err(status)
                .with_context(|| format!("--start-record: {}", path.display()))?
                .into_inner();
            if (replayed.game.as_str(), replayed.variant.as_str()) != ("tablut", "ashton") {
                anyhow::bail!(
                    "--start-record: {} is a game of {} {}, not of tablut ashton",
                    path.display(),
                    replayed.game,
                    replayed.variant
                );
            }
            let plies = args.ply.unwrap_or(replayed.moves.len());
            if plies > replayed.moves.len() {
                anyhow::bail!(
                    "--ply {plies}: {} has {} plies",
                    path.display(),
                    replayed.moves.len()
                );
            }
            let moves = replayed.moves[..plies]
                .iter()
                .map(|m| m.r#move.as_ref().map_or(String::new(), |i| i.text.clone()))
                .collect();
            let name = path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().to_string());
            record.set_tag("Opening", &format!("{plies} plies of {name}"));
            (given.tag("Start").map(str::to_string), moves)
        }
        None => (
            session.common.position.clone(),
            session
                .common
                .moves
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        ),
    };
    let from = Start {
        game: "tablut",
        variant: "ashton",
        seed: 0,
        text: text.as_deref(),
    };
    let begin = from.after(&mut session.client, &[], "").await?;
    let current = from
        .after(&mut session.client, &moves, "the start's ")
        .await?;
    if let Some(over) = &current.report.outcome {
        if over.reason != NO_LEGAL_MOVE {
            anyhow::bail!(
                "the start position is a finished game ({})",
                crate::output::outcome_text(over)
            );
        }
    }
    if text.is_some() {
        record.set_tag("Start", &begin.report.text);
    }
    record.moves = moves
        .into_iter()
        .map(|text| RecordedMove {
            text,
            comments: Vec::new(),
            eval: None,
        })
        .collect();
    Ok((current, record))
}

async fn listen(host: &str, port: u16) -> anyhow::Result<TcpListener> {
    TcpListener::bind((host, port))
        .await
        .map_err(|e| Failure::Connection(format!("cannot listen on {host}:{port} ({e})")).into())
}

/// The player of `color`: its connection (within 300 s) and its name
/// (within the move time), as the server takes them.
async fn join(
    listener: &TcpListener,
    color: Color,
    timeout: Duration,
    json: bool,
) -> anyhow::Result<Client> {
    let (mut stream, peer) = tokio::time::timeout(CONNECTION_WAIT, listener.accept())
        .await
        .map_err(|_| {
            Failure::Connection(format!(
                "{} did not connect in {} s",
                color.name(),
                CONNECTION_WAIT.as_secs()
            ))
        })?
        .map_err(|e| Failure::Connection(format!("{}'s connection failed ({e})", color.name())))?;
    let frame = tokio::time::timeout(timeout, read_frame(&mut stream))
        .await
        .map_err(|_| {
            Failure::Connection(format!(
                "{} sent no name in {} s",
                color.name(),
                timeout.as_secs()
            ))
        })??
        .ok_or_else(|| {
            Failure::Connection(format!("{} left before naming itself", color.name()))
        })?;
    let player =
        read_name(&frame).map_err(|why| Failure::Protocol(format!("{}: {why}", color.name())))?;
    if json {
        out!(
            "{}",
            json!({"side": color.name(), "name": player, "from": peer.to_string()})
        );
    } else {
        out!("{}: {player} ({peer})", color.name());
    }
    Ok(Client {
        color,
        name: player,
        stream,
        errors: 0,
    })
}

/// Sends `state` to both players, white first; a player it cannot reach
/// has left, and loses.
async fn send(players: &mut [Client; 2], state: &State) -> Option<Ending> {
    let message = state.message();
    let mut ending = None;
    for player in players.iter_mut() {
        if write_frame(&mut player.stream, &message).await.is_err() && ending.is_none() {
            ending = Some(Ending {
                turn: win_of(player.color.other()),
                reason: format!("{} left the game", player.color.name()),
                send: true,
            });
        }
    }
    ending
}

/// `from`-`to` played by Caber's `ashton` rules, or why it is illegal. The
/// server reads a cell's column letter in either case.
async fn play(
    session: &mut Session,
    current: &Current,
    from: &str,
    to: &str,
) -> Result<proto::ApplyResponse, String> {
    let request = proto::ApplyRequest {
        position: Some(current.position.clone()),
        r#move: Some(proto::Move {
            kind: Some(Kind::Tablut(proto::TablutMove {
                from: from.to_ascii_lowercase(),
                to: to.to_ascii_lowercase(),
                pass: false,
            })),
        }),
    };
    session
        .client
        .apply(request)
        .await
        .map(tonic::Response::into_inner)
        .map_err(|s| format!("{from}-{to}: {}", s.message()))
}

/// The state's turn after a move: the side to move, even one with no legal
/// move (the server gives it the turn), or the result.
fn turn_after(report: &proto::PositionReport) -> anyhow::Result<Turn> {
    Ok(match &report.outcome {
        Some(over) if over.reason != NO_LEGAL_MOVE => {
            match proto::Side::try_from(over.winner).unwrap_or(proto::Side::Unspecified) {
                proto::Side::Two => Turn::WhiteWin,
                proto::Side::One => Turn::BlackWin,
                proto::Side::Unspecified => Turn::Draw,
            }
        }
        _ => Turn::ToMove(mover(report)?),
    })
}

/// Why the rules ended the game.
fn reason(report: &proto::PositionReport) -> String {
    report
        .outcome
        .as_ref()
        .map_or(String::new(), |o| o.reason.clone())
}

fn tablut(report: &proto::PositionReport) -> anyhow::Result<&proto::TablutPosition> {
    match report.position.as_ref().and_then(|p| p.state.as_ref()) {
        Some(PositionState::Tablut(position)) => Ok(position),
        _ => anyhow::bail!("the service's position is not a Tablut position"),
    }
}

fn mover(report: &proto::PositionReport) -> anyhow::Result<Color> {
    let side = proto::Side::try_from(tablut(report)?.side_to_move);
    Ok(Color::of_side(side.unwrap_or(proto::Side::Two)))
}

fn win_of(color: Color) -> Turn {
    match color {
        Color::White => Turn::WhiteWin,
        Color::Black => Turn::BlackWin,
    }
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Prints the result and saves the record.
fn finish(
    mut record: GameRecord,
    ending: &Ending,
    args: &ServeArgs,
    json: bool,
) -> anyhow::Result<()> {
    let (result, said) = match ending.turn {
        Turn::WhiteWin => (RecordResult::Won(Player::Two), "white won"),
        Turn::BlackWin => (RecordResult::Won(Player::One), "black won"),
        _ => (RecordResult::Draw, "draw"),
    };
    let reason = if ending.reason.is_empty() {
        said.to_string()
    } else {
        format!("{said}: {}", ending.reason)
    };
    record.set_result(result, Tablut::WHITE);
    record.set_tag("Reason", &ending.reason);
    let path = args
        .record
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("caber-referee-{}.record", Civil::now().stamp())));
    std::fs::write(&path, record.to_string())
        .with_context(|| format!("cannot save the record to {}", path.display()))?;
    let plies = record.moves.len();
    if json {
        out!(
            "{}",
            json!({"result": record.tag("Result"), "reason": reason, "plies": plies, "record": path})
        );
    } else {
        out!(
            "game over after {plies} plies: {reason}; record saved to {}",
            path.display()
        );
    }
    Ok(())
}
