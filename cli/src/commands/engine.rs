//! `caber engine`: a UCI-style engine loop on standard input and output, for
//! GUIs, tournament managers and scripts (docs/ENGINE.md). One process
//! serves many positions; every search is an `Analyze` call, so the loop
//! keeps reading while one runs (`stop`, `isready`, `quit`).

use std::collections::VecDeque;
use std::future;
use std::time::Duration;

use anyhow::Context;
use caber_service::proto::{self, score::Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tonic::Streaming;

use super::{status, Session};
use crate::output::out;
use crate::sides::{self, Sides};

/// Most principal variations `setoption name MultiPV` takes.
const MAX_MULTIPV: u32 = 64;

/// Most threads `setoption name Threads` takes (the server lowers it further
/// to its own maximum and says so in an `info string`).
const MAX_THREADS: u32 = 256;

/// Times a `go` is retried, 50 ms apart, while the server is busy (a
/// search just stopped still holding its place).
const BUSY_RETRIES: u32 = 20;

/// The default of the `Hash` option: the searchers' own table size.
const DEFAULT_HASH_MB: u32 = 16;

/// Most MB `setoption name Hash` takes (a server lowers it further to its
/// `--max-hash-mb`, and says so).
const MAX_HASH_MB: u32 = 65_536;

/// Interval of the `info` lines of a running search, in milliseconds.
const REPORT_MS: u32 = 250;

/// Time kept back from a clock, for the moves' round trips.
const CLOCK_MARGIN_MS: u64 = 50;

/// A line of input, read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Input {
    Uci,
    IsReady,
    SetOption { name: String, value: String },
    NewGame,
    Position { start: Start, moves: Vec<String> },
    Go(Go),
    Stop,
    Quit,
    Empty,
    Unknown(String),
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Start {
    /// The variant's start (`startpos`), the deal of the `Seed` option.
    Variant,
    /// A position in the game's text notation (`fen TEXT`).
    Text(String),
}

/// The limits of a `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Go {
    depth: u32,
    nodes: u64,
    movetime: u64,
    infinite: bool,
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: u64,
    binc: u64,
    movestogo: Option<u64>,
}

/// Reads one line of the protocol.
fn parse(line: &str) -> Input {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&command, rest)) = words.split_first() else {
        return Input::Empty;
    };
    match command {
        "uci" => Input::Uci,
        "isready" => Input::IsReady,
        "ucinewgame" => Input::NewGame,
        "stop" => Input::Stop,
        "quit" => Input::Quit,
        "setoption" => parse_option(rest).unwrap_or_else(|| Input::Unknown(line.to_string())),
        "position" => parse_position(rest).unwrap_or_else(|| Input::Unknown(line.to_string())),
        "go" => parse_go(rest).map_or_else(|| Input::Unknown(line.to_string()), Input::Go),
        _ => Input::Unknown(line.to_string()),
    }
}

/// `name N... [value V...]`: names and values may hold spaces.
fn parse_option(words: &[&str]) -> Option<Input> {
    let words = words.strip_prefix(&["name"])?;
    let at = words.iter().position(|w| *w == "value");
    let (name, value) = match at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    (!name.is_empty()).then(|| Input::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

/// `startpos [moves ...]` or `fen TEXT [moves ...]` (the text may hold spaces).
fn parse_position(words: &[&str]) -> Option<Input> {
    let at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match head.split_first()? {
        (&"startpos", []) => Start::Variant,
        (&"fen", text) if !text.is_empty() => Start::Text(text.join(" ")),
        _ => return None,
    };
    Some(Input::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// `go` and its limits; `None` for a limit without its number.
fn parse_go(words: &[&str]) -> Option<Go> {
    let mut go = Go::default();
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        if word == "infinite" {
            go.infinite = true;
            continue;
        }
        if word == "ponder" {
            continue;
        }
        let number: u64 = words.next()?.parse().ok()?;
        match word {
            "depth" => go.depth = u32::try_from(number).ok()?,
            "nodes" => go.nodes = number,
            "movetime" => go.movetime = number,
            "wtime" => go.wtime = Some(number),
            "btime" => go.btime = Some(number),
            "winc" => go.winc = number,
            "binc" => go.binc = number,
            "movestogo" => go.movestogo = Some(number),
            // `mate N` and unknown limits: read and not used.
            _ => {}
        }
    }
    Some(go)
}

/// A search's time from a clock: a twentieth of what is left (or its share
/// of the moves to go) plus most of the increment, never more than the
/// clock minus a margin.
fn clock_movetime(left: u64, inc: u64, movestogo: Option<u64>) -> u64 {
    let share = left / movestogo.filter(|n| *n > 0).unwrap_or(20).max(1);
    let wanted = share + inc * 3 / 4;
    wanted.min(left.saturating_sub(CLOCK_MARGIN_MS)).max(1)
}

/// A score as UCI writes it: `cp N` (also for a draw) or `mate M`, M in the
/// side to move's moves (negative when it loses).
fn uci_score(score: Option<&proto::Score>) -> String {
    match score.and_then(|s| s.value.as_ref()) {
        Some(Value::Centi(c)) => format!("cp {c}"),
        Some(Value::MatePlies(p)) => {
            let moves = p.unsigned_abs().div_ceil(2);
            if *p > 0 {
                format!("mate {moves}")
            } else {
                format!("mate -{moves}")
            }
        }
        Some(Value::Draw(_)) | None => "cp 0".to_string(),
    }
}

/// The `info` lines of a report, one per principal variation.
fn info_lines(update: &proto::AnalysisUpdate) -> Vec<String> {
    let stats = update.stats.clone().unwrap_or_default();
    update
        .lines
        .iter()
        .map(|l| {
            let mut line = format!(
                "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {}",
                stats.depth,
                stats.seldepth,
                l.rank,
                uci_score(l.score.as_ref()),
                stats.nodes,
                stats.nps,
                stats.time_ms
            );
            if !l.moves.is_empty() {
                line.push_str(" pv ");
                line.push_str(&l.moves.join(" "));
            }
            line
        })
        .collect()
}

/// What a report says of the search, its speed and time left out: a final
/// report that says nothing new is not printed again.
fn searched(update: &proto::AnalysisUpdate) -> Vec<String> {
    let mut update = update.clone();
    if let Some(stats) = update.stats.as_mut() {
        (stats.nps, stats.time_ms) = (0, 0);
    }
    info_lines(&update)
}

/// The `bestmove` line of a report: its best line's first move, with the
/// reply to ponder on when the line has one.
fn bestmove_line(update: Option<&proto::AnalysisUpdate>, fallback: &str) -> String {
    let best = update.and_then(|u| u.lines.iter().find(|l| l.rank == 1).or(u.lines.first()));
    match best.map(|l| l.moves.as_slice()) {
        Some([mv, reply, ..]) => format!("bestmove {mv} ponder {reply}"),
        Some([mv]) => format!("bestmove {mv}"),
        _ => format!("bestmove {fallback}"),
    }
}

/// The options a GUI may set, and the position searched.
struct Engine {
    game: String,
    variant: String,
    searcher: String,
    seed: u64,
    multipv: u32,
    threads: u32,
    /// The `Hash` option in MB (0: the searcher's default).
    hash: u32,
    /// The games started (`ucinewgame`, `Clear Hash`): each has its own
    /// kept table on the server.
    games: u32,
    /// The position of the last `position` command, if it was read.
    position: Option<proto::Position>,
}

/// A search in progress.
struct Search {
    stream: Streaming<proto::AnalysisUpdate>,
    /// The latest report, for a `stop` before the final one.
    latest: Option<proto::AnalysisUpdate>,
    /// `go infinite`: the final report waits for `stop`.
    infinite: bool,
    /// A legal move, for a `stop` before any report.
    fallback: String,
    /// What the `info` lines printed last said (see [`searched`]).
    printed: Vec<String>,
}

/// Runs the loop until `quit` or the end of the input. Commands that come
/// while a search runs wait for its `bestmove` (`stop` and `isready` are
/// answered at once), so a script may send its whole input at once; at
/// `quit` or the end of the input, the commands before it run, a running
/// search ends as it would (an infinite one is stopped), and the loop ends.
pub async fn run(session: &mut Session) -> anyhow::Result<()> {
    let mut engine = Engine {
        game: session.common.game.clone(),
        variant: session.common.variant.clone(),
        searcher: String::new(),
        seed: session.common.seed,
        multipv: 1,
        threads: 1,
        hash: 0,
        games: 0,
        position: None,
    };
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut input_done = false;
    let mut waiting: VecDeque<Input> = VecDeque::new();
    let mut search: Option<Search> = None;
    // An infinite search's final report, held until `stop`.
    let mut held: Option<String> = None;
    loop {
        while search.is_none() && held.is_none() {
            let Some(input) = waiting.pop_front() else {
                break;
            };
            search = engine.dispatch(session, input).await;
        }
        if input_done {
            let infinite = search.as_ref().is_some_and(|s| s.infinite);
            if search.is_none() || infinite {
                stop(&mut search, &mut held);
                return Ok(());
            }
        }
        let update = async {
            match search.as_mut() {
                Some(s) => s.stream.message().await,
                None => future::pending().await,
            }
        };
        tokio::select! {
            line = lines.next_line(), if !input_done => {
                let Some(line) = line.context("cannot read standard input")? else {
                    input_done = true;
                    continue;
                };
                match parse(&line) {
                    // As the end of the input: what came before runs first.
                    Input::Quit => input_done = true,
                    Input::Stop => stop(&mut search, &mut held),
                    Input::IsReady => out!("readyok"),
                    input => waiting.push_back(input),
                }
            }
            update = update => {
                let s = search.as_mut().expect("a search is running");
                match update {
                    Ok(Some(update)) => {
                        // The final report repeats the last one when the
                        // search ended on a report: its lines are not repeated.
                        let key = searched(&update);
                        if key != s.printed {
                            for line in info_lines(&update) {
                                out!("{line}");
                            }
                            s.printed = key;
                        }
                        if let Some(stats) = update.stats.as_ref().filter(|_| update.r#final) {
                            for note in [&stats.clamped, &stats.budget, &stats.interrupted] {
                                if !note.is_empty() {
                                    out!("info string {note}");
                                }
                            }
                        }
                        if update.r#final {
                            let line = bestmove_line(Some(&update), &s.fallback);
                            if s.infinite {
                                held = Some(line);
                            } else {
                                out!("{line}");
                            }
                            search = None;
                        } else {
                            s.latest = Some(update);
                        }
                    }
                    Ok(None) | Err(_) => {
                        let s = search.take().expect("a search is running");
                        if let Err(e) = update {
                            out!("info string error: {}", e.message());
                        }
                        out!("{}", bestmove_line(s.latest.as_ref(), &s.fallback));
                    }
                }
            }
        }
    }
}

/// `stop`: the running search's best move so far (dropping its stream
/// cancels the call, and the server stops the search), or the held final
/// one of an infinite search that ended by itself.
fn stop(search: &mut Option<Search>, held: &mut Option<String>) {
    if let Some(s) = search.take() {
        out!("{}", bestmove_line(s.latest.as_ref(), &s.fallback));
    } else if let Some(line) = held.take() {
        out!("{line}");
    }
}

impl Engine {
    /// Answers one command; errors are said in an `info string` (a `go`
    /// still gets its one `bestmove`), and the loop goes on.
    async fn dispatch(&mut self, session: &mut Session, input: Input) -> Option<Search> {
        let go = matches!(input, Input::Go(_));
        match self.handle(session, input).await {
            Ok(search) => search,
            Err(e) => {
                out!("info string error: {e:#}");
                if go {
                    out!("bestmove (none)");
                }
                None
            }
        }
    }

    /// Answers one command; a `go` that starts a search returns it.
    async fn handle(
        &mut self,
        session: &mut Session,
        input: Input,
    ) -> anyhow::Result<Option<Search>> {
        match input {
            Input::Uci => self.identify(session).await?,
            Input::SetOption { name, value } => self.set(&name, &value),
            // A new game searches with a new, empty table.
            Input::NewGame => self.games += 1,
            Input::Position { start, moves } => {
                self.position = None;
                match self.read_position(session, start, &moves).await {
                    Ok(position) => self.position = Some(position),
                    Err(e) => out!("info string error: {e:#}"),
                }
            }
            Input::Go(go) => return self.go(session, &go).await,
            Input::Unknown(line) => out!("info string unknown command: {line}"),
            Input::Empty | Input::IsReady | Input::Stop | Input::Quit => {}
        }
        Ok(None)
    }

    /// `uci`: the engine's name and options, then `uciok`.
    async fn identify(&mut self, session: &mut Session) -> anyhow::Result<()> {
        let games = session.games().await?;
        out!("id name Caber {}", env!("CARGO_PKG_VERSION"));
        out!("id author the Caber developers");
        let names: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
        out!(
            "option name Game type combo default {} var {}",
            self.game,
            names.join(" var ")
        );
        let shown = |v: &str| {
            if v.is_empty() {
                "<empty>".to_string()
            } else {
                v.to_string()
            }
        };
        out!(
            "option name Variant type string default {}",
            shown(&self.variant)
        );
        out!(
            "option name Searcher type string default {}",
            shown(&self.searcher)
        );
        out!("option name Seed type string default {}", self.seed);
        out!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}");
        out!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
        out!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}");
        out!("option name Clear Hash type button");
        out!("uciok");
        Ok(())
    }

    /// `setoption`: an unknown option or a bad value is said in an `info string`.
    fn set(&mut self, name: &str, value: &str) {
        let number = |max: u32| value.parse::<u32>().ok().filter(|n| (1..=max).contains(n));
        match name.to_ascii_lowercase().as_str() {
            "game" => {
                self.game = value.to_string();
                self.variant.clear();
                self.position = None;
            }
            "variant" => {
                self.variant = value.to_string();
                self.position = None;
            }
            "searcher" => self.searcher = value.to_string(),
            "seed" => match value.parse() {
                Ok(seed) => self.seed = seed,
                Err(_) => out!("info string error: Seed {value:?} is not a number"),
            },
            "multipv" => match number(MAX_MULTIPV) {
                Some(n) => self.multipv = n,
                None => out!("info string error: MultiPV {value:?} is not 1 to {MAX_MULTIPV}"),
            },
            "threads" => match number(MAX_THREADS) {
                Some(n) => self.threads = n,
                None => out!("info string error: Threads {value:?} is not 1 to {MAX_THREADS}"),
            },
            "hash" => match number(MAX_HASH_MB) {
                Some(n) => self.hash = n,
                None => out!("info string error: Hash {value:?} is not 1 to {MAX_HASH_MB}"),
            },
            "clear hash" => self.games += 1,
            _ => out!("info string error: no option {name:?}"),
        }
    }

    /// The position of a `position` command, each move checked by `Apply`.
    async fn read_position(
        &self,
        session: &mut Session,
        start: Start,
        moves: &[String],
    ) -> anyhow::Result<proto::Position> {
        let text = match &start {
            Start::Variant => None,
            Start::Text(text) => Some(text.as_str()),
        };
        let start = super::Start {
            game: &self.game,
            variant: &self.variant,
            seed: self.seed,
            text,
        };
        Ok(start.after(&mut session.client, moves, "").await?.position)
    }

    /// `go`: starts an `Analyze` call, or answers at once when there is
    /// nothing to search.
    async fn go(&mut self, session: &mut Session, go: &Go) -> anyhow::Result<Option<Search>> {
        let Some(position) = self.position.clone() else {
            out!("info string error: no position (send `position startpos` or `position fen ...`)");
            out!("bestmove (none)");
            return Ok(None);
        };
        let legal = session
            .client
            .legal_moves(proto::LegalMovesRequest {
                position: Some(position.clone()),
                include_position: true,
            })
            .await
            .map_err(status)?
            .into_inner();
        let Some(first) = legal.moves.first() else {
            let over = legal.position.and_then(|p| p.outcome);
            let why = over.map_or("no legal move".to_string(), |o| {
                crate::output::outcome_text(&o)
            });
            out!("info string the game is over: {why}");
            out!("bestmove (none)");
            return Ok(None);
        };
        let fallback = first.text.clone();
        let to_move = legal.position.as_ref().map_or(proto::Side::One, |p| {
            proto::Side::try_from(p.side_to_move).unwrap_or(proto::Side::One)
        });
        let movetime = match self.clock(session, go, to_move).await? {
            Some(ms) => ms,
            None if go.infinite => u64::from(u32::MAX),
            None => go.movetime,
        };
        let limits = proto::Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime_ms: u32::try_from(movetime).unwrap_or(u32::MAX),
            seed: self.seed,
            threads: self.threads,
            hash_mb: self.hash,
            ..Default::default()
        };
        let request = proto::AnalyzeRequest {
            position: Some(position),
            limits: Some(limits),
            multipv: self.multipv,
            report_interval_ms: REPORT_MS,
            searcher: self.searcher.clone(),
            // The server keeps the searcher, and its table, from one `go`
            // of a game to the next.
            table: format!("uci-{}", self.games),
        };
        // A search just stopped may hold its place for a moment: wait for it.
        let mut stream = session.client.analyze(request.clone()).await;
        for _ in 0..BUSY_RETRIES {
            match &stream {
                Err(e) if e.code() == tonic::Code::ResourceExhausted => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    stream = session.client.analyze(request.clone()).await;
                }
                _ => break,
            }
        }
        match stream {
            Ok(stream) => Ok(Some(Search {
                stream: stream.into_inner(),
                latest: None,
                infinite: go.infinite,
                fallback,
                printed: Vec::new(),
            })),
            Err(e) => {
                out!("info string error: {}", e.message());
                out!("bestmove {fallback}");
                Ok(None)
            }
        }
    }

    /// The movetime of a `go` with clocks, for `to_move`: `wtime`/`winc`
    /// are the clock of the side named white, else of the side that moves
    /// first in the variant (chess's white); `btime`/`binc` the other's.
    async fn clock(
        &self,
        session: &mut Session,
        go: &Go,
        to_move: proto::Side,
    ) -> anyhow::Result<Option<u64>> {
        if go.wtime.is_none() && go.btime.is_none() {
            return Ok(None);
        }
        let info = session.game_info_of(&self.game).await?;
        let white = Sides::of(&info)
            .named("white")
            .or_else(|| sides::moves_first(&info, &self.variant))
            .unwrap_or(proto::Side::One);
        let (left, inc) = if to_move == white {
            (go.wtime, go.winc)
        } else {
            (go.btime, go.binc)
        };
        Ok(left.map(|left| clock_movetime(left, inc, go.movestogo)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_as_uci_writes_them() {
        assert_eq!(parse("  uci "), Input::Uci);
        assert_eq!(parse(""), Input::Empty);
        assert_eq!(
            parse("setoption name Game value schotten-totten"),
            Input::SetOption {
                name: "Game".into(),
                value: "schotten-totten".into()
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Input::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
        assert_eq!(
            parse("position startpos moves e4-d4 i4-e4"),
            Input::Position {
                start: Start::Variant,
                moves: vec!["e4-d4".into(), "i4-e4".into()]
            }
        );
        // A position's text holds spaces: all of it up to `moves`.
        assert_eq!(
            parse("position fen place - - 12,12 0 r - moves C4"),
            Input::Position {
                start: Start::Text("place - - 12,12 0 r -".into()),
                moves: vec!["C4".into()]
            }
        );
        assert_eq!(
            parse("go wtime 60000 btime 50000 winc 1000 binc 1000 movestogo 10"),
            Input::Go(Go {
                wtime: Some(60_000),
                btime: Some(50_000),
                winc: 1000,
                binc: 1000,
                movestogo: Some(10),
                ..Go::default()
            })
        );
        assert_eq!(
            parse("go infinite"),
            Input::Go(Go {
                infinite: true,
                ..Go::default()
            })
        );
        for bad in [
            "go depth",
            "go depth x",
            "position",
            "position fen",
            "setoption",
        ] {
            assert_eq!(parse(bad), Input::Unknown(bad.into()), "{bad}");
        }
    }

    #[test]
    fn clocks_give_a_share_and_keep_a_margin() {
        assert_eq!(clock_movetime(60_000, 0, None), 3_000);
        assert_eq!(clock_movetime(60_000, 1_000, None), 3_750);
        assert_eq!(clock_movetime(60_000, 0, Some(10)), 6_000);
        // Nearly out of time: all but the margin, never zero.
        assert_eq!(clock_movetime(100, 5_000, None), 50);
        assert_eq!(clock_movetime(10, 0, None), 1);
    }

    #[test]
    fn scores_and_best_moves_are_written_as_uci_does() {
        let score = |v| {
            Some(proto::Score {
                value: Some(v),
                win_probability: 0.5,
            })
        };
        assert_eq!(uci_score(score(Value::Centi(-35)).as_ref()), "cp -35");
        assert_eq!(uci_score(score(Value::MatePlies(1)).as_ref()), "mate 1");
        assert_eq!(uci_score(score(Value::MatePlies(3)).as_ref()), "mate 2");
        assert_eq!(uci_score(score(Value::MatePlies(-2)).as_ref()), "mate -1");
        assert_eq!(uci_score(score(Value::Draw(true)).as_ref()), "cp 0");
        let update = proto::AnalysisUpdate {
            r#final: true,
            stats: Some(proto::SearchStats {
                depth: 4,
                nodes: 900,
                ..Default::default()
            }),
            lines: vec![proto::PvLine {
                rank: 1,
                score: score(Value::Centi(12)),
                moves: vec!["e4-d4".into(), "i4-e4".into()],
                visits: 0,
            }],
        };
        assert_eq!(
            info_lines(&update),
            ["info depth 4 seldepth 0 multipv 1 score cp 12 nodes 900 nps 0 time 0 pv e4-d4 i4-e4"]
        );
        assert_eq!(
            bestmove_line(Some(&update), "x"),
            "bestmove e4-d4 ponder i4-e4"
        );
        assert_eq!(bestmove_line(None, "a4-a3"), "bestmove a4-a3");
    }
}
