//! `caber engine`: a UCI-style engine loop on standard input and output, for
//! GUIs, tournament managers and scripts (docs/ENGINE.md). One process
//! serves many positions; every search is an `Analyze` call, so the loop
//! keeps reading while one runs (`stop`, `isready`, `ponderhit`, `quit`).
//! Every `go` gets exactly one `bestmove`, naming a move of a finished
//! search iteration or `(none)`.

mod answers;
mod input;
mod options;

use std::collections::VecDeque;
use std::future;
use std::time::Duration;

use anyhow::Context;
use caber_engine::quote;
use caber_service::proto;
use caber_service::search_runner::DEFAULT_MOVETIME;
use tokio::io::BufReader;
use tokio::time::Instant;
use tonic::Streaming;

use super::{status, Session};
use crate::lines::{BoundedLines, Line};
use crate::output::out;
use crate::sides::Sides;
use answers::{bestmove_line, finished, info_lines, searched};
use input::{parse, Go, Input, Start};

/// Times a search is retried, [`BUSY_WAIT`] apart, while the server is
/// busy (a search just stopped still holding its place).
const BUSY_RETRIES: u32 = 20;

/// The wait between two tries of a search the server was too busy for.
const BUSY_WAIT: Duration = Duration::from_millis(50);

/// Interval of the `info` lines of a running search, in milliseconds.
const REPORT_MS: u32 = 250;

/// Time kept back from a clock, for the moves' round trips.
const CLOCK_MARGIN_MS: u64 = 50;

/// The longest input line read (a `position` with a long game's moves fits
/// many times over); a longer one is answered with its start and size.
const MAX_LINE: usize = 1 << 20;

/// A command waiting for the running search's `bestmove`.
struct Queued {
    input: Input,
    /// A `go` that a later `stop` or `quit` (or, for one that waits for
    /// `stop`, the end of the input) already ended: it gets a minimal search.
    stopped: bool,
}

/// What ends a running search.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Until {
    /// Its limits, on the server.
    Limits,
    /// `stop` only (`go infinite`): a final report that comes first is held.
    Stop,
    /// `stop`, or `ponderhit` and then these limits from that moment on.
    PonderHit(Budget),
    /// Limits the loop keeps itself (after `ponderhit`): a depth reached,
    /// a node count, a time.
    Goal {
        depth: u32,
        nodes: u64,
        by: Option<Instant>,
    },
}

/// A `go`'s limits: sent with its search, or, for `go ponder`, kept until
/// `ponderhit`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Budget {
    depth: u32,
    nodes: u64,
    /// From a `movetime` or the clocks; 0: none.
    movetime: u64,
    infinite: bool,
}

/// A search in progress.
struct Search {
    stream: Streaming<proto::AnalysisUpdate>,
    /// The latest report of a finished iteration: the move of an early end.
    latest: Option<proto::AnalysisUpdate>,
    until: Until,
    /// What the `info` lines printed last said (see [`searched`]).
    printed: Vec<String>,
    /// How it is answered when it ends before an iteration finished.
    minimal: Minimal,
    /// The request, sent again while the server is busy.
    request: proto::AnalyzeRequest,
    /// Times it was sent again.
    retries: u32,
}

/// The search that answers a `go` whose own search ended before an
/// iteration finished (or never started): the fewest nodes in which an
/// iteration finishes, over the `go`'s `searchmoves`.
struct Minimal {
    request: proto::AnalyzeRequest,
}

impl Search {
    /// Whether `update` meets the goal the loop keeps for this search.
    fn reached(&self, update: &proto::AnalysisUpdate) -> bool {
        let Until::Goal { depth, nodes, .. } = self.until else {
            return false;
        };
        let stats = update.stats.clone().unwrap_or_default();
        finished(update)
            && ((depth > 0 && stats.depth >= depth) || (nodes > 0 && stats.nodes >= nodes))
    }

    /// Whether only `stop` (or `ponderhit`) ends this search.
    fn waits_for_stop(&self) -> bool {
        matches!(self.until, Until::Stop | Until::PonderHit(_))
    }

    /// The time at which the loop ends this search, if it keeps one.
    fn deadline(&self) -> Option<Instant> {
        match self.until {
            Until::Goal { by, .. } => by,
            _ => None,
        }
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
    /// `debug on`: what each search asks for, said in `info string`.
    debug: bool,
    /// The position of the last `position` command, if it was read.
    position: Option<super::Current>,
}

/// Runs the loop until `quit` or the end of the input (docs/ENGINE.md,
/// "Order and scripts"). Commands that come while a search runs wait for
/// its `bestmove`, but `stop`, `isready`, `ponderhit` and `quit`, which are
/// obeyed at once: `stop` ends the running search and every `go` waiting,
/// `quit` does the same and ends the loop once what came before it is
/// answered; the end of the input ends the loop once every command has
/// run (a search that waits for `stop` is stopped).
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
        debug: false,
        position: None,
    };
    let mut lines = BoundedLines::new(BufReader::new(tokio::io::stdin()), MAX_LINE);
    let mut input_done = false;
    let mut waiting: VecDeque<Queued> = VecDeque::new();
    let mut search: Option<Search> = None;
    // The `bestmove` of a search that waits for `stop` (or `ponderhit`)
    // and ended first, and whether it was pondering.
    let mut held: Option<(String, bool)> = None;
    loop {
        while search.is_none() && held.is_none() {
            let Some(queued) = waiting.pop_front() else {
                break;
            };
            search = engine.dispatch(session, queued).await;
        }
        if input_done {
            if held.is_some() || search.as_ref().is_some_and(Search::waits_for_stop) {
                // Nothing more will come: a search waiting for `stop` is stopped.
                stop(&mut engine, session, &mut search, &mut held, &mut waiting).await;
                continue;
            }
            if search.is_none() && waiting.is_empty() {
                return Ok(());
            }
        }
        let deadline = search.as_ref().and_then(Search::deadline);
        let update = async {
            match search.as_mut() {
                Some(s) => s.stream.message().await,
                None => future::pending().await,
            }
        };
        let timer = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => future::pending().await,
            }
        };
        tokio::select! {
            line = lines.next_line(), if !input_done => {
                let input = match line.context("cannot read standard input")? {
                    None => {
                        input_done = true;
                        for q in waiting.iter_mut() {
                            if let Input::Go(go) = &q.input {
                                // Nothing will stop it: stopped now.
                                q.stopped |= go.infinite || go.ponder;
                            }
                        }
                        continue;
                    }
                    Some(Line::Text(text)) => parse(&text),
                    Some(long @ Line::TooLong { .. }) => {
                        out!("info string error: a line of more than {MAX_LINE} bytes, ignored: {long}");
                        continue;
                    }
                };
                match input {
                    Input::IsReady => out!("readyok"),
                    Input::Stop => stop(&mut engine, session, &mut search, &mut held, &mut waiting).await,
                    Input::Quit => {
                        stop(&mut engine, session, &mut search, &mut held, &mut waiting).await;
                        input_done = true;
                    }
                    Input::PonderHit => ponderhit(&mut engine, session, &mut search, &mut held, &mut waiting).await,
                    input => waiting.push_back(Queued { input, stopped: false }),
                }
            }
            () = timer => {
                let s = search.take().expect("a search is running");
                engine.conclude(session, s.latest.as_ref(), &s.minimal).await;
            }
            update = update => {
                let s = search.as_mut().expect("a search is running");
                match update {
                    Ok(Some(update)) => {
                        // The final report repeats the last one when the
                        // search ended on a report: its lines are not repeated.
                        let key = searched(&update);
                        if finished(&update) && key != s.printed {
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
                        let reached = s.reached(&update);
                        if finished(&update) {
                            s.latest = Some(update.clone());
                        }
                        if update.r#final || reached {
                            let s = search.take().expect("a search is running");
                            let line = engine.bestmove(session, s.latest.as_ref(), &s.minimal).await;
                            match s.until {
                                Until::Stop => held = Some((line, false)),
                                Until::PonderHit(_) => held = Some((line, true)),
                                Until::Limits | Until::Goal { .. } => out!("{line}"),
                            }
                        }
                    }
                    // The server refuses a search it has no place for in the
                    // stream: a search just stopped may still hold its place.
                    Err(e) if busy(&e) && s.printed.is_empty() && s.retries < BUSY_RETRIES => {
                        s.retries += 1;
                        tokio::time::sleep(BUSY_WAIT).await;
                        match analyze(session, &s.request).await {
                            Ok(stream) => s.stream = stream,
                            Err(e) => {
                                let s = search.take().expect("a search is running");
                                out!("info string error: {}", e.message());
                                engine.conclude(session, s.latest.as_ref(), &s.minimal).await;
                            }
                        }
                    }
                    Ok(None) | Err(_) => {
                        let s = search.take().expect("a search is running");
                        if let Err(e) = update {
                            out!("info string error: {}", e.message());
                        }
                        engine.conclude(session, s.latest.as_ref(), &s.minimal).await;
                    }
                }
            }
        }
    }
}

/// `stop` (and `quit`): the running search's `bestmove` now, or the held
/// one of a search that ended by itself; every `go` waiting is stopped too.
async fn stop(
    engine: &mut Engine,
    session: &mut Session,
    search: &mut Option<Search>,
    held: &mut Option<(String, bool)>,
    waiting: &mut VecDeque<Queued>,
) {
    for q in waiting.iter_mut() {
        q.stopped |= matches!(q.input, Input::Go(_));
    }
    // Dropping the stream cancels the call, and the server stops the search.
    if let Some(s) = search.take() {
        engine
            .conclude(session, s.latest.as_ref(), &s.minimal)
            .await;
    } else if let Some((line, _)) = held.take() {
        out!("{line}");
    }
}

/// `ponderhit`: the pondering search goes on as a normal one, its `go`'s
/// limits counted from now (a search that ended while pondering answers at
/// once); a `go ponder` still waiting will start as a normal search.
async fn ponderhit(
    engine: &mut Engine,
    session: &mut Session,
    search: &mut Option<Search>,
    held: &mut Option<(String, bool)>,
    waiting: &mut VecDeque<Queued>,
) {
    if let Some(s) = search.as_mut() {
        if let Until::PonderHit(budget) = s.until {
            s.until = match budget {
                Budget { infinite: true, .. } => Until::Stop,
                Budget {
                    depth: 0,
                    nodes: 0,
                    movetime: 0,
                    ..
                } => Until::Goal {
                    depth: 0,
                    nodes: 0,
                    by: Some(Instant::now() + DEFAULT_MOVETIME),
                },
                Budget {
                    depth,
                    nodes,
                    movetime,
                    ..
                } => Until::Goal {
                    depth,
                    nodes,
                    by: (movetime > 0).then(|| Instant::now() + Duration::from_millis(movetime)),
                },
            };
            if s.latest.as_ref().is_some_and(|u| s.reached(u)) {
                let s = search.take().expect("a search is running");
                engine
                    .conclude(session, s.latest.as_ref(), &s.minimal)
                    .await;
            }
            return;
        }
    }
    if let Some((line, _)) = held.take_if(|(_, pondering)| *pondering) {
        out!("{line}");
        return;
    }
    let pondering = waiting.iter_mut().rev().find_map(|q| match &mut q.input {
        Input::Go(go) if go.ponder => Some(go),
        _ => None,
    });
    if let Some(go) = pondering {
        go.ponder = false;
    }
}

impl Engine {
    /// Makes the table of the game's searches now, at the `Hash` size,
    /// with a one-node search naming it: the server allocates it and maps
    /// its pages before this returns, so that no `go` spends its time on
    /// them (as UCI engines make their table at `setoption name Hash`, and
    /// `isready` waits for it). Only with a size set: the default table is
    /// small. An error (no game, a searcher without a table) costs nothing.
    async fn prepare_table(&mut self, session: &mut Session) {
        if self.hash == 0 {
            return;
        }
        let request = proto::AnalyzeRequest {
            position: Some(proto::Position {
                game: self.game.clone(),
                variant: self.variant.clone(),
                state: None,
            }),
            limits: Some(proto::Limits {
                nodes: 1,
                seed: self.seed,
                hash_mb: self.hash,
                ..Default::default()
            }),
            multipv: 1,
            report_interval_ms: 0,
            searcher: self.searcher.clone(),
            table: format!("uci-{}", self.games),
            search_moves: Vec::new(),
        };
        if self.debug {
            out!("info string debug: making the table: {} MB", self.hash);
        }
        let _ = run_to_end(session, &request).await;
    }

    /// Answers one command; errors are said in an `info string` (a `go`
    /// still gets its one `bestmove`), and the loop goes on.
    async fn dispatch(&mut self, session: &mut Session, queued: Queued) -> Option<Search> {
        let go = matches!(queued.input, Input::Go(_));
        match self.handle(session, queued).await {
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
        queued: Queued,
    ) -> anyhow::Result<Option<Search>> {
        match queued.input {
            Input::Uci => self.identify(session).await?,
            Input::Debug(Some(on)) => self.debug = on,
            Input::Debug(None) => out!("info string error: debug takes on or off"),
            Input::SetOption { name, value } => self.set(session, &name, &value).await?,
            // A new game searches with a new, empty table.
            Input::NewGame => {
                self.games += 1;
                self.prepare_table(session).await;
            }
            Input::Position { start, moves } => {
                self.position = None;
                match self.read_position(session, start, &moves).await {
                    Ok(position) => self.position = Some(position),
                    Err(e) => out!("info string error: {e:#}"),
                }
            }
            Input::Display => match &self.position {
                Some(current) => crate::output::print_report(&current.report),
                None => out!("info string error: no position (send `position startpos` or `position fen ...`)"),
            },
            Input::Go(go) => return self.go(session, &go, queued.stopped).await,
            Input::Unknown(line) => out!("info string unknown command: {line}"),
            Input::Empty | Input::IsReady | Input::Stop | Input::PonderHit | Input::Quit => {}
        }
        Ok(None)
    }

    /// The position of a `position` command, each move checked by `Apply`.
    async fn read_position(
        &self,
        session: &mut Session,
        start: Start,
        moves: &[String],
    ) -> anyhow::Result<super::Current> {
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
        start.after(&mut session.client, moves, "").await
    }

    /// `go`: starts an `Analyze` call, or answers at once: when there is
    /// nothing to search, when the search cannot run, and for a `go`
    /// already stopped (a minimal search).
    async fn go(
        &mut self,
        session: &mut Session,
        go: &Go,
        stopped: bool,
    ) -> anyhow::Result<Option<Search>> {
        for note in &go.ignored {
            out!("info string go: {note}");
        }
        let Some(position) = self.position.as_ref().map(|c| c.position.clone()) else {
            out!("info string error: no position (send `position startpos` or `position fen ...`)");
            out!("bestmove (none)");
            return Ok(None);
        };
        if let Some(over) = self
            .position
            .as_ref()
            .and_then(|c| c.report.outcome.as_ref())
        {
            out!(
                "info string the game is over: {}",
                crate::output::outcome_text(over)
            );
            out!("bestmove (none)");
            return Ok(None);
        }
        let to_move = self.position.as_ref().map_or(proto::Side::One, |c| {
            proto::Side::try_from(c.report.side_to_move).unwrap_or(proto::Side::One)
        });
        let search_moves = self
            .search_moves(session, &position, &go.searchmoves)
            .await?;
        let multipv = self.multipv;
        let minimal = Minimal {
            request: proto::AnalyzeRequest {
                position: Some(position.clone()),
                // Alpha-beta's first depth always completes; a Monte Carlo
                // search expands a root move an iteration.
                limits: Some(proto::Limits {
                    nodes: 1,
                    seed: self.seed,
                    hash_mb: 1,
                    ..Default::default()
                }),
                multipv,
                report_interval_ms: REPORT_MS,
                searcher: self.searcher.clone(),
                table: String::new(),
                search_moves: search_moves.clone(),
            },
        };
        if stopped {
            if self.debug {
                out!("info string debug: go stopped before it started: a minimal search gives the move");
            }
            self.conclude(session, None, &minimal).await;
            return Ok(None);
        }
        let clock = self.clock(session, go, to_move).await?;
        let budget = Budget {
            depth: go.depth,
            nodes: go.nodes,
            movetime: clock.unwrap_or(go.movetime),
            infinite: go.infinite,
        };
        // Searches that wait for `stop` or `ponderhit` run without limits.
        let (until, limits) = match (go.ponder, go.infinite) {
            (true, _) => (
                Until::PonderHit(budget),
                Budget {
                    depth: 0,
                    nodes: 0,
                    movetime: u64::from(u32::MAX),
                    infinite: true,
                },
            ),
            (false, true) => (
                Until::Stop,
                Budget {
                    depth: 0,
                    nodes: 0,
                    movetime: u64::from(u32::MAX),
                    infinite: true,
                },
            ),
            (false, false) => (Until::Limits, budget),
        };
        let request = proto::AnalyzeRequest {
            position: Some(position),
            limits: Some(proto::Limits {
                depth: limits.depth,
                nodes: limits.nodes,
                movetime_ms: u32::try_from(limits.movetime).unwrap_or(u32::MAX),
                seed: self.seed,
                threads: self.threads,
                hash_mb: self.hash,
                ..Default::default()
            }),
            multipv,
            report_interval_ms: REPORT_MS,
            searcher: self.searcher.clone(),
            // The server keeps the searcher, and its table, from one `go`
            // of a game to the next.
            table: format!("uci-{}", self.games),
            search_moves,
        };
        if self.debug {
            out!(
                "info string debug: Analyze searcher {} depth {} nodes {} movetime {} threads {} hash {} multipv {} table {}{}",
                quote(&request.searcher),
                limits.depth,
                limits.nodes,
                limits.movetime,
                self.threads,
                self.hash,
                multipv,
                request.table,
                match until {
                    Until::PonderHit(_) => ", until ponderhit or stop",
                    Until::Stop => ", until stop",
                    _ => "",
                }
            );
        }
        match analyze(session, &request).await {
            Ok(stream) => Ok(Some(Search {
                stream,
                latest: None,
                until,
                printed: Vec::new(),
                minimal,
                request,
                retries: 0,
            })),
            // A search that cannot run: nothing was searched.
            Err(e) => {
                out!("info string error: {}", e.message());
                out!("bestmove (none)");
                Ok(None)
            }
        }
    }

    /// The `bestmove` of a search that ended: from its latest report of a
    /// finished iteration, else from a minimal search of the position (its
    /// `info` lines printed); `(none)` when that cannot run either.
    async fn bestmove(
        &mut self,
        session: &mut Session,
        latest: Option<&proto::AnalysisUpdate>,
        minimal: &Minimal,
    ) -> String {
        if let Some(update) = latest.filter(|u| finished(u)) {
            return bestmove_line(update);
        }
        if self.debug {
            out!("info string debug: no iteration finished: a minimal search gives the move");
        }
        let mut last = run_to_end(session, &minimal.request).await;
        for _ in 0..BUSY_RETRIES {
            match &last {
                Err(e) if busy(e) => {
                    tokio::time::sleep(BUSY_WAIT).await;
                    last = run_to_end(session, &minimal.request).await;
                }
                _ => break,
            }
        }
        match last {
            Ok(Some(update)) => {
                if !finished(&update) {
                    out!("info string error: the minimal search finished no iteration of these moves");
                    return "bestmove (none)".to_string();
                }
                for line in info_lines(&update) {
                    out!("{line}");
                }
                bestmove_line(&update)
            }
            Ok(None) => {
                out!("info string error: the minimal search gave no report");
                "bestmove (none)".to_string()
            }
            Err(e) => {
                out!("info string error: {}", status(e));
                "bestmove (none)".to_string()
            }
        }
    }

    /// Prints the `bestmove` of a search that ended (see [`Engine::bestmove`]).
    async fn conclude(
        &mut self,
        session: &mut Session,
        latest: Option<&proto::AnalysisUpdate>,
        minimal: &Minimal,
    ) {
        let line = self.bestmove(session, latest, minimal).await;
        out!("{line}");
    }

    /// The moves of a `go searchmoves` the search is kept to
    /// (`AnalyzeRequest.search_moves`): the listed legal moves, an illegal
    /// one said and left out; none (every move) without `searchmoves` or
    /// when no listed move is legal.
    async fn search_moves(
        &self,
        session: &mut Session,
        position: &proto::Position,
        searchmoves: &[String],
    ) -> anyhow::Result<Vec<String>> {
        if searchmoves.is_empty() {
            return Ok(Vec::new());
        }
        let legal = super::legal_move_texts(session, position).await?;
        let mut only: Vec<String> = Vec::new();
        for mv in searchmoves {
            if !legal.contains(mv) {
                out!(
                    "info string go: searchmoves: {} is not a legal move, ignored",
                    quote(mv)
                );
            } else if !only.contains(mv) {
                only.push(mv.clone());
            }
        }
        if only.is_empty() {
            out!("info string go: searchmoves: no legal move listed, all moves are searched");
        }
        Ok(only)
    }

    /// The movetime of a `go` with clocks, for `to_move`: `wtime`/`winc`
    /// are the clock of the game's White (Tablut's white, else the side
    /// listed first); `btime`/`binc` the other's.
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
        let white = Sides::of(&info).white();
        let (left, inc) = if to_move == white {
            (go.wtime, go.winc)
        } else {
            (go.btime, go.binc)
        };
        Ok(left.map(|left| clock_movetime(left, inc, go.movestogo)))
    }
}

/// Whether the server refused a call for want of a place to search (a
/// search just stopped may hold its place for a moment): worth a retry.
fn busy(status: &tonic::Status) -> bool {
    status.code() == tonic::Code::ResourceExhausted
}

/// An `Analyze` call, retried while the server is busy. (A server may also
/// say so in the stream, as its first message.)
async fn analyze(
    session: &mut Session,
    request: &proto::AnalyzeRequest,
) -> Result<Streaming<proto::AnalysisUpdate>, tonic::Status> {
    let mut stream = session.client.analyze(request.clone()).await;
    for _ in 0..BUSY_RETRIES {
        match &stream {
            Err(e) if busy(e) => {
                tokio::time::sleep(BUSY_WAIT).await;
                stream = session.client.analyze(request.clone()).await;
            }
            _ => break,
        }
    }
    stream.map(tonic::Response::into_inner)
}

/// An `Analyze` call's last report: its final one.
async fn run_to_end(
    session: &mut Session,
    request: &proto::AnalyzeRequest,
) -> Result<Option<proto::AnalysisUpdate>, tonic::Status> {
    let mut stream = analyze(session, request).await?;
    let mut last = None;
    while let Some(update) = stream.message().await? {
        last = Some(update);
    }
    Ok(last)
}

/// A search's time from a clock: a twentieth of what is left (or its share
/// of the moves to go) plus most of the increment, never more than the
/// clock minus a margin.
fn clock_movetime(left: u64, inc: u64, movestogo: Option<u64>) -> u64 {
    let share = left / movestogo.filter(|n| *n > 0).unwrap_or(20).max(1);
    let wanted = share + inc * 3 / 4;
    wanted.min(left.saturating_sub(CLOCK_MARGIN_MS)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_give_a_share_and_keep_a_margin() {
        assert_eq!(clock_movetime(60_000, 0, None), 3_000);
        assert_eq!(clock_movetime(60_000, 1_000, None), 3_750);
        assert_eq!(clock_movetime(60_000, 0, Some(10)), 6_000);
        // Nearly out of time: all but the margin, never zero.
        assert_eq!(clock_movetime(100, 5_000, None), 50);
        assert_eq!(clock_movetime(10, 0, None), 1);
    }
}
