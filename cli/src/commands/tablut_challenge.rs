//! `caber tablut-challenge`: one game as a client of the Tablut Challenge's
//! server (docs/TABLUT_CHALLENGE.md; the wire format in
//! [`crate::challenge_protocol`]). Each state the server sends is followed
//! through the service: the move that leads to it is found from the boards
//! and applied by Caber's `ashton` rules, so the position searched carries
//! the repetition history the server's draw rule counts. The game is written
//! as a record `caber review` reads.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use caber_engine::record::{GameRecord, RecordResult, RecordedMove};
use caber_engine::tablut::Tablut;
use caber_engine::{Game as _, Player};
use caber_service::proto::{self, position::State as PositionState, r#move::Kind};
use clap::Args;
use serde_json::json;
use tokio::net::TcpStream;

use super::{required, status, Session};
use crate::args::SearchArgs;
use crate::challenge_protocol::{
    move_message, name_message, read_frame, write_frame, Color, Failure, State, Turn, NO_LEGAL_MOVE,
};
use crate::clock::Civil;
use crate::output::out;

/// `caber tablut-challenge`: a client of the competition's server, or with
/// `serve` a referee of two clients.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ChallengeCommand {
    #[command(subcommand)]
    pub serve: Option<Serve>,
    #[command(flatten)]
    pub client: ChallengeArgs,
}

/// The referee.
#[derive(clap::Subcommand, Debug)]
pub enum Serve {
    /// Referee one game between two clients, as the competition's server
    /// does, from the start or any position or record; write its record.
    /// Exit code 0 for a game played, whatever its result.
    Serve(super::referee::ServeArgs),
}

/// How `caber tablut-challenge` is set up.
#[derive(Args, Debug)]
pub struct ChallengeArgs {
    /// Our colour.
    #[arg(long, value_parser = parse_color, required = true)]
    pub color: Option<Color>,
    /// The server's host.
    #[arg(long, default_value = "localhost")]
    pub host: String,
    /// The server's port (default: 5800 for white, 5801 for black).
    #[arg(long)]
    pub port: Option<u16>,
    /// Our name, as the server logs it (its first 10 letters and digits).
    #[arg(long, default_value = "caber")]
    pub name: String,
    /// The server's time for a move in seconds (its -t); each move is sent
    /// within it, less a safety margin the client measures.
    #[arg(long, value_name = "S", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub timeout: u32,
    /// Each move's search (default: the server's time less the margin; a
    /// shorter --movetime is kept).
    #[command(flatten)]
    pub search: SearchArgs,
    /// Save the record to FILE (default: caber-tablut-challenge-COLOR-DATE-TIME.record).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

impl ChallengeArgs {
    /// Our colour (clap requires `--color` of a client).
    fn color(&self) -> Color {
        self.color.unwrap_or(Color::White)
    }
}

/// `--color white|black`.
fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(format!("{text:?}: white or black")),
    }
}

/// The server waits this long for each player to connect (`Server.java`).
const CONNECTION_WAIT: Duration = Duration::from_secs(300);

/// Slack over the opponent's time before a silent server counts as gone:
/// the server polls its reader once a second.
const SLACK: Duration = Duration::from_secs(5);

/// The kept table of the game: the engine keeps it from move to move.
const TABLE: &str = "tablut-challenge";

/// The game so far, as Caber's rules have followed it.
struct Game {
    /// The current position, as the service reports it.
    report: proto::PositionReport,
    record: GameRecord,
    /// The states read, for messages.
    states: usize,
    /// Our move sent, until the server's state shows it played.
    sent: Option<String>,
    /// Why the server ended the game with the board unchanged.
    ended: Option<String>,
}

/// Plays one game; a failure of the server or the connection is an error
/// whose [`Failure`] sets the exit code. The record is saved in every case.
pub async fn run(session: &mut Session, args: &ChallengeArgs) -> anyhow::Result<()> {
    let port = args.port.unwrap_or(args.color().default_port());
    let address = format!("{}:{port}", args.host);
    let json = session.common.json;
    let mut stream = tokio::time::timeout(SLACK * 2, TcpStream::connect(&address))
        .await
        .map_err(|_| Failure::Connection(format!("no answer from {address}")))?
        .map_err(|e| Failure::Connection(format!("cannot connect to {address} ({e})")))?;
    write_frame(&mut stream, &name_message(&args.name)).await?;
    let mut margin = Margin::new(args.timeout);
    if json {
        out!(
            "{}",
            json!({"connected": address, "color": args.color().wire(), "name": args.name})
        );
    } else {
        out!(
            "connected to {address} as {} ({}); {} s a move, safety margin {:.2} s",
            args.color().name(),
            args.name,
            args.timeout,
            margin.get().as_secs_f64()
        );
    }
    let mut game: Option<Game> = None;
    let outcome = loop {
        let wait = match &game {
            None => CONNECTION_WAIT + Duration::from_secs(2 * u64::from(args.timeout)) + SLACK,
            Some(_) => Duration::from_secs(u64::from(args.timeout)) + SLACK,
        };
        let frame = match tokio::time::timeout(wait, read_frame(&mut stream)).await {
            Err(_) => Err(Failure::Connection(format!(
                "no message from the server in {} s",
                wait.as_secs()
            ))),
            Ok(Ok(None)) => Err(Failure::Connection(
                "the server closed the connection before the game ended (it does so when a \
                 player runs out of time)"
                    .to_string(),
            )),
            Ok(Ok(Some(frame))) => Ok(frame),
            Ok(Err(failure)) => Err(failure),
        };
        let received = Instant::now();
        let state = match frame.and_then(|f| State::parse(&f)) {
            Ok(state) => state,
            Err(failure) => break Err(failure.into()),
        };
        let followed = match game.as_mut() {
            None => start(session, &state, args).await.map(Some),
            Some(g) => follow(session, g, &state, json).await.map(|()| None),
        };
        match followed {
            Ok(Some(started)) => game = Some(started),
            Ok(None) => {}
            Err(e) => break Err(Failure::Protocol(format!("{e:#}")).into()),
        }
        let g = game.as_mut().expect("the game started");
        if state.turn != Turn::ToMove(args.color()) {
            if matches!(state.turn, Turn::ToMove(_)) {
                continue;
            }
            break Ok(state.turn);
        }
        if g.report.outcome.is_some() {
            // Our side has no legal move, and the server still wants one:
            // the empty move it counts as illegal.
            if let Err(e) = write_frame(&mut stream, &move_message("", "", args.color())).await {
                break Err(e.into());
            }
            out!("      no legal move for us: sent an empty move");
            continue;
        }
        if let Err(e) = play_move(session, g, args, &mut margin, received, &mut stream).await {
            break Err(e);
        }
    };
    finish(game, &outcome, args, json)?;
    outcome.map(|_| ())
}

/// Searches our move in `game` within the server's time and sends it.
async fn play_move(
    session: &mut Session,
    game: &mut Game,
    args: &ChallengeArgs,
    margin: &mut Margin,
    received: Instant,
    stream: &mut TcpStream,
) -> anyhow::Result<()> {
    let budget = margin.budget(args.search.movetime);
    let searched = search(session, game, &args.search, budget).await?;
    let mv = required(searched.best_move.clone(), "best move")?;
    let Some(Kind::Tablut(typed)) = mv.r#move.as_ref().and_then(|m| m.kind.clone()) else {
        anyhow::bail!("the service's move {} is not a Tablut move", mv.text);
    };
    write_frame(stream, &move_message(&typed.from, &typed.to, args.color())).await?;
    let took = received.elapsed();
    margin.observe(took, budget);
    let score = searched.score.as_ref();
    let ours = Player::try_from(args.color().side()).unwrap_or(Tablut::WHITE);
    let depth = searched.stats.as_ref().map_or(0, |s| s.depth);
    let ply = game.record.moves.len() + 1;
    if session.common.json {
        out!(
            "{}",
            json!({"ply": ply, "move": mv.text, "ours": true,
                   "timeMs": took.as_millis() as u64, "depth": depth,
                   "score": score.map(crate::json::of)})
        );
    } else {
        // Our search's score and win probability, as white's (the record's view).
        let whites = ours == Tablut::WHITE;
        let eval = crate::output::eval(score).map(|e| e.seen_by(ours, Tablut::WHITE));
        let win = score.map_or(0.5, |s| s.win_probability);
        out!(
            "{ply:>4}. {:<6} {}  caber: {:.2} s, depth {depth}, white: {}, win probability {:.2}",
            args.color().name(),
            mv.text,
            took.as_secs_f64(),
            eval.map_or("none".to_string(), |e| e.to_string()),
            if whites { win } else { 1.0 - win }
        );
    }
    game.record.moves.push(RecordedMove {
        text: mv.text.clone(),
        comments: Vec::new(),
        eval: crate::output::eval_after(score, ours, Tablut::WHITE),
    });
    game.sent = Some(mv.text);
    Ok(())
}

/// The safety margin kept from the server's time for a move: a tenth of it
/// (at least half a second) to begin with, and at least twice the longest
/// time a reply has taken beyond its search's budget.
struct Margin {
    timeout: Duration,
    margin: Duration,
}

impl Margin {
    fn new(timeout_s: u32) -> Self {
        let timeout = Duration::from_secs(u64::from(timeout_s));
        Margin {
            timeout,
            margin: (timeout / 10).max(Duration::from_millis(500)),
        }
    }

    fn get(&self) -> Duration {
        self.margin
    }

    /// The search's time: the server's time less the margin, or `movetime`
    /// (ms) when it is shorter; at least 50 ms.
    fn budget(&self, movetime: u32) -> Duration {
        let allowed = self.timeout.saturating_sub(self.margin);
        let asked = Duration::from_millis(u64::from(movetime));
        let budget = if movetime > 0 {
            asked.min(allowed)
        } else {
            allowed
        };
        budget.max(Duration::from_millis(50))
    }

    /// A reply took `took` for a search given `budget`.
    fn observe(&mut self, took: Duration, budget: Duration) {
        let over = took.saturating_sub(budget);
        self.margin = self.margin.max(over * 2);
    }
}

/// The game from the server's first state, whatever position it holds.
async fn start(session: &mut Session, state: &State, args: &ChallengeArgs) -> anyhow::Result<Game> {
    let Turn::ToMove(mover) = state.turn else {
        anyhow::bail!("the first state is a finished game ({})", state.turn.wire());
    };
    let position = proto::Position {
        game: "tablut".to_string(),
        variant: "ashton".to_string(),
        state: Some(PositionState::Tablut(state.position(mover.side()))),
    };
    let report = session
        .client
        .legal_moves(proto::LegalMovesRequest {
            position: Some(position),
            include_position: true,
        })
        .await
        .map_err(status)
        .context("the server's first state is not a position of Caber's ashton rules")?
        .into_inner()
        .position;
    let report = required(report, "position")?;
    if let Some(over) = report
        .outcome
        .as_ref()
        .filter(|o| o.reason != NO_LEGAL_MOVE)
    {
        anyhow::bail!(
            "the server's first state gives {} the move, but by Caber's ashton rules the game is over ({})",
            mover.wire(),
            crate::output::outcome_text(over)
        );
    }
    let standard = session
        .client
        .new_game(proto::NewGameRequest {
            game: "tablut".to_string(),
            variant: "ashton".to_string(),
            seed: 0,
        })
        .await
        .map_err(status)?
        .into_inner()
        .position;
    let mut record = GameRecord::new("tablut");
    record.set_tag(
        "Event",
        &format!(
            "Tablut Challenge, {}:{}",
            args.host,
            args.port.unwrap_or(args.color().default_port())
        ),
    );
    record.set_tag("Date", &Civil::now().date_tag());
    record.set_tag("Variant", "ashton");
    let ours = if args.name == "caber" {
        args.name.clone()
    } else {
        format!("{} (caber)", args.name)
    };
    let (white, black) = match args.color() {
        Color::White => (ours, "opponent".to_string()),
        Color::Black => ("opponent".to_string(), ours),
    };
    record.set_tag("White", &white);
    record.set_tag("Black", &black);
    if standard.map(|s| s.text) != Some(report.text.clone()) {
        record.set_tag("Start", &report.text);
    }
    Ok(Game {
        report,
        record,
        states: 1,
        sent: None,
        ended: None,
    })
}

/// The game after the server's next state: the same position again (the
/// server repeats it after an illegal move it tolerates), or the one move
/// of the side to move that leads to it, applied by Caber's rules and checked
/// against the server's board.
async fn follow(
    session: &mut Session,
    game: &mut Game,
    state: &State,
    json: bool,
) -> anyhow::Result<()> {
    game.states += 1;
    let n = game.states;
    let position = required(game.report.position.clone(), "position")?;
    let Some(PositionState::Tablut(before)) = position.state.clone() else {
        anyhow::bail!("the service's position is not a Tablut position");
    };
    let mover = proto::Side::try_from(before.side_to_move).unwrap_or(proto::Side::Unspecified);
    if same_board(&before, state) && state.turn == Turn::ToMove(Color::of_side(mover)) {
        match game.sent.take() {
            Some(mv) => {
                out!("the server refused our move {mv} as illegal and asks again (state {n})");
                game.record.moves.pop();
            }
            None => out!("the server sent the same position again (state {n})"),
        }
        return Ok(());
    }
    if same_board(&before, state) && !matches!(state.turn, Turn::ToMove(_)) {
        // The server ends a game on the board as it stands when the side to
        // move made an illegal move (or had none to make).
        let side = Color::of_side(mover).name();
        let why = match game.sent.take() {
            Some(mv) => {
                game.record.moves.pop();
                format!("the server refused {side}'s move {mv}")
            }
            None if game.report.outcome.is_some() => format!("{side} had no legal move"),
            None => format!("{side} made an illegal move"),
        };
        out!("the server ended the game: {why} (state {n})");
        game.ended = Some(why);
        return Ok(());
    }
    let (from, to) = moved(&before, state, mover).with_context(|| {
        format!("state {n} does not follow from the position before by one move")
    })?;
    let applied = session
        .client
        .apply(proto::ApplyRequest {
            position: Some(position),
            r#move: Some(proto::Move {
                kind: Some(Kind::Tablut(proto::TablutMove {
                    from: from.clone(),
                    to: to.clone(),
                    pass: false,
                })),
            }),
        })
        .await
        .map_err(status)
        .with_context(|| {
            format!("state {n} comes from {from}-{to}, not a legal move of Caber's ashton rules")
        })?
        .into_inner();
    let report = required(applied.position, "position")?;
    let Some(PositionState::Tablut(after)) = report.position.as_ref().and_then(|p| p.state.clone())
    else {
        anyhow::bail!("the service's position is not a Tablut position");
    };
    // The server leaves a captured king on the board; Caber removes him.
    let king_taken = state.turn == Turn::BlackWin && after.king.is_empty();
    let expected = State {
        king: if king_taken { None } else { state.king.clone() },
        ..state.clone()
    };
    if !same_board(&after, &expected) {
        anyhow::bail!(
            "state {n} is not the board Caber's ashton rules give after {from}-{to} (captures differ)"
        );
    }
    if let Turn::ToMove(color) = state.turn {
        if let Some(over) = report
            .outcome
            .as_ref()
            .filter(|o| o.reason != NO_LEGAL_MOVE)
        {
            anyhow::bail!(
                "state {n} gives {} the move, but by Caber's ashton rules the game is over ({})",
                color.wire(),
                crate::output::outcome_text(over)
            );
        }
        if after.side_to_move != color.side() as i32 {
            anyhow::bail!(
                "state {n} gives the turn to {}, Caber's rules to the other side",
                color.wire()
            );
        }
    }
    let text = required(applied.r#move, "move")?.text;
    match game.sent.take() {
        // Our move, recorded when sent.
        Some(sent) if sent == text => {}
        Some(sent) => anyhow::bail!("state {n} plays {text} for us; we sent {sent}"),
        None => {
            game.record.moves.push(RecordedMove {
                text: text.clone(),
                comments: Vec::new(),
                eval: None,
            });
            let ply = game.record.moves.len();
            if json {
                out!("{}", json!({"ply": ply, "move": text, "ours": false}));
            } else {
                let side = Color::of_side(mover).name();
                out!("{ply:>4}. {side:<6} {text}");
            }
        }
    }
    crate::output::events(&applied.events);
    game.report = report;
    Ok(())
}

fn same_board(position: &proto::TablutPosition, state: &State) -> bool {
    let sorted = |cells: &[String]| {
        let mut cells = cells.to_vec();
        cells.sort();
        cells
    };
    sorted(&position.black) == state.black
        && sorted(&position.white) == state.white
        && Some(position.king.clone()).filter(|k| !k.is_empty()) == state.king
}

/// The one piece of `mover` that left a cell and the one cell it reached.
fn moved(
    before: &proto::TablutPosition,
    state: &State,
    mover: proto::Side,
) -> anyhow::Result<(String, String)> {
    let king_before = Some(before.king.clone()).filter(|k| !k.is_empty());
    let (old, new): (Vec<String>, Vec<String>) =
        if mover == proto::Side::Two && king_before != state.king {
            (
                king_before.into_iter().collect(),
                state.king.clone().into_iter().collect(),
            )
        } else if mover == proto::Side::Two {
            (before.white.clone(), state.white.clone())
        } else {
            (before.black.clone(), state.black.clone())
        };
    let left: Vec<&String> = old.iter().filter(|c| !new.contains(c)).collect();
    let reached: Vec<&String> = new.iter().filter(|c| !old.contains(c)).collect();
    match (left.as_slice(), reached.as_slice()) {
        ([from], [to]) => Ok((from.to_string(), to.to_string())),
        _ => anyhow::bail!("the mover's pieces left {left:?} and reached {reached:?}"),
    }
}

/// The search of our move, within `budget`.
async fn search(
    session: &mut Session,
    game: &Game,
    search: &SearchArgs,
    budget: Duration,
) -> anyhow::Result<proto::BestMoveResponse> {
    let mut limits = super::search::limits(search, session.common.seed).unwrap_or_default();
    limits.movetime_ms = u32::try_from(budget.as_millis()).unwrap_or(u32::MAX);
    let reply = session
        .client
        .best_move(proto::BestMoveRequest {
            position: game.report.position.clone(),
            limits: Some(limits),
            searcher: search.searcher.clone(),
            table: TABLE.to_string(),
            search_moves: Vec::new(),
        })
        .await
        .map_err(status)?;
    Ok(reply.into_inner())
}

/// Prints the result and saves the record (unfinished after a failure).
fn finish(
    game: Option<Game>,
    outcome: &anyhow::Result<Turn>,
    args: &ChallengeArgs,
    json: bool,
) -> anyhow::Result<()> {
    let (result, reason) = match outcome {
        Ok(Turn::WhiteWin) => (RecordResult::Won(Player::Two), "white won".to_string()),
        Ok(Turn::BlackWin) => (RecordResult::Won(Player::One), "black won".to_string()),
        Ok(_) => (RecordResult::Draw, "draw".to_string()),
        Err(failure) => (RecordResult::Unfinished, format!("{failure:#}")),
    };
    let Some(mut game) = game else {
        return Ok(());
    };
    let rules = game.ended.clone().or_else(|| {
        game.report
            .outcome
            .as_ref()
            .map(|o| o.reason.clone())
            .filter(|r| !r.is_empty())
    });
    let reason = match (outcome, rules) {
        (Ok(_), Some(why)) => format!("{reason}: {why}"),
        _ => reason,
    };
    game.record.set_result(result, Tablut::WHITE);
    game.record.set_tag("Reason", &reason);
    let path = args.record.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "caber-tablut-challenge-{}-{}.record",
            args.color().name(),
            Civil::now().stamp()
        ))
    });
    std::fs::write(&path, game.record.to_string())
        .with_context(|| format!("cannot save the record to {}", path.display()))?;
    let plies = game.record.moves.len();
    if json {
        out!(
            "{}",
            json!({"result": game.record.tag("Result"), "reason": reason, "plies": plies, "record": path})
        );
    } else {
        out!(
            "game over after {plies} plies: {reason}; record saved to {}",
            path.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_a_tenth_then_twice_the_worst_overrun() {
        let mut margin = Margin::new(5);
        assert_eq!(margin.get(), Duration::from_millis(500));
        assert_eq!(margin.budget(0), Duration::from_millis(4500));
        assert_eq!(margin.budget(1000), Duration::from_millis(1000));
        margin.observe(Duration::from_millis(1400), Duration::from_millis(1000));
        assert_eq!(margin.get(), Duration::from_millis(800));
        margin.observe(Duration::from_millis(900), Duration::from_millis(1000));
        assert_eq!(margin.get(), Duration::from_millis(800));
        assert_eq!(Margin::new(60).budget(0), Duration::from_secs(54));
        assert_eq!(Margin::new(1).budget(0), Duration::from_millis(500));
    }

    fn position(black: &[&str], white: &[&str], king: &str) -> proto::TablutPosition {
        proto::TablutPosition {
            black: black.iter().map(|c| c.to_string()).collect(),
            white: white.iter().map(|c| c.to_string()).collect(),
            king: king.to_string(),
            side_to_move: 0,
            history: Vec::new(),
            passes: 0,
        }
    }

    fn state(black: &[&str], white: &[&str], king: &str) -> State {
        State {
            black: black.iter().map(|c| c.to_string()).collect(),
            white: white.iter().map(|c| c.to_string()).collect(),
            king: Some(king.to_string()),
            turn: Turn::Draw,
        }
    }

    #[test]
    fn the_move_is_the_movers_one_piece_that_left_and_arrived() {
        let before = position(&["a4", "d1"], &["e3", "c5"], "e5");
        // White e3-b3 captures nothing; the king stays.
        let after = state(&["a4", "d1"], &["b3", "c5"], "e5");
        assert_eq!(
            moved(&before, &after, proto::Side::Two).unwrap(),
            ("e3".to_string(), "b3".to_string())
        );
        // Black d1-d3 and a white soldier gone: black's piece is the move.
        let after = state(&["a4", "d3"], &["c5"], "e5");
        assert_eq!(
            moved(&before, &after, proto::Side::One).unwrap(),
            ("d1".to_string(), "d3".to_string())
        );
        let after = state(&["a4", "d1"], &["e3", "c5"], "e4");
        assert_eq!(
            moved(&before, &after, proto::Side::Two).unwrap(),
            ("e5".to_string(), "e4".to_string())
        );
        // Two pieces moved: no one move.
        let after = state(&["a5", "d2"], &["e3", "c5"], "e5");
        assert!(moved(&before, &after, proto::Side::One).is_err());
    }
}
