//! The `caber.v1.GameEngine` RPCs: each looks the request's game up once in
//! the registry ([`games`]) and hands it the request; searches, counts and
//! matches run on the search pool.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use caber_engine::playable::PerftError;
use caber_engine::search::Info;
use tonic::{Request, Response, Status};

use crate::call_layer::{note_game, Arrival};
use crate::convert::{self, Odds};
use crate::games::{self, KeptSearchers, KeptTable, SearcherChoice};
use crate::proto;
use crate::proto::game_engine_server::GameEngine;
use crate::review;
use crate::search_runner::{self, Finished, Notes, SearchRunner, StopOnDrop};
use crate::transport::connections::ConnectionInfo;
use crate::updates::{self, NotSent, Updates};

/// Default interval between `Analyze` progress updates.
const DEFAULT_REPORT_INTERVAL: Duration = Duration::from_millis(500);
/// Shortest interval between `Analyze` progress updates (shorter requests are raised to it).
pub const MIN_REPORT_INTERVAL: Duration = Duration::from_millis(50);
/// Deepest `Perft` accepted (the count grows by the branching factor per ply).
const MAX_PERFT_DEPTH: u32 = 6;
/// How long `Playouts` plays when the request gives no time.
const DEFAULT_PLAYOUTS_TIME: Duration = Duration::from_secs(1);
/// Most moves `Solve` looks ahead (its search grows by the branching factor
/// squared per move).
const MAX_SOLVE_MOVES: u32 = 4;
/// Updates buffered for a slow client of a server stream (`Analyze`
/// progress beyond is skipped; `Review` waits, at most [`updates::SEND_TIMEOUT`]).
const STREAM_BUFFER: usize = 16;

/// The game engine service: stateless but for the searchers it keeps for
/// clients that name a table.
#[derive(Clone, Debug)]
pub struct EngineService {
    runner: SearchRunner,
    kept: Arc<KeptSearchers>,
}

impl Default for EngineService {
    fn default() -> Self {
        Self::with_runner(SearchRunner::default())
    }
}

impl EngineService {
    /// A service with a search pool sized for this machine and the default caps.
    pub fn new() -> Self {
        Self::default()
    }

    /// A service running its searches on `runner`, keeping as many
    /// searchers as its caps allow.
    pub fn with_runner(runner: SearchRunner) -> Self {
        let kept = Arc::new(KeptSearchers::new(runner.caps().kept_tables));
        Self { runner, kept }
    }

    /// The searchers kept between calls for the clients that name them.
    pub fn kept(&self) -> &KeptSearchers {
        &self.kept
    }

    /// Where a search asking for the kept table `name` keeps its searcher:
    /// owned by the caller's connection (its number; none in process, where
    /// there is one client), so no client reaches another's.
    fn kept_table(
        &self,
        connection: Option<&ConnectionInfo>,
        name: &str,
    ) -> Result<Option<KeptTable>, Status> {
        if name.is_empty() {
            return Ok(None);
        }
        if name.len() > MAX_TABLE_NAME {
            return Err(Status::invalid_argument(format!(
                "table: a name of {} bytes; at most {MAX_TABLE_NAME}",
                name.len()
            )));
        }
        let tables = self.kept.clone();
        if let Some(connection) = connection {
            let (id, tables) = (connection.id(), tables.clone());
            connection.on_close("kept tables", move || tables.drop_connection(id));
        }
        Ok(Some(KeptTable {
            tables,
            connection: connection.map(ConnectionInfo::id),
            name: name.to_string(),
        }))
    }

    /// Searches currently running, including cancelled ones still stopping.
    pub fn running_searches(&self) -> usize {
        self.runner.running()
    }
}

/// The longest kept table name a request may give, in bytes.
const MAX_TABLE_NAME: usize = 128;

/// The game named by a request's position, for the call's log line.
fn game_name(position: Option<&proto::Position>) -> &str {
    position.map_or("", |p| p.game.as_str())
}

/// An `Analyze` update from a search report (`unseen`: the cards the search
/// deals at random).
fn update(
    info: &Info<String>,
    is_final: bool,
    notes: &Notes,
    odds: Odds,
    unseen: &[String],
) -> proto::AnalysisUpdate {
    proto::AnalysisUpdate {
        r#final: is_final,
        stats: Some(convert::stats(info, notes)),
        lines: convert::lines(info, odds, unseen),
    }
}

#[tonic::async_trait]
impl GameEngine for EngineService {
    async fn list_games(
        &self,
        _request: Request<proto::ListGamesRequest>,
    ) -> Result<Response<proto::ListGamesResponse>, Status> {
        let games = games::registry().iter().map(|g| g.info()).collect();
        Ok(Response::new(proto::ListGamesResponse {
            games,
            limits: Some(convert::server_limits(&self.runner.caps())),
        }))
    }

    async fn new_game(
        &self,
        request: Request<proto::NewGameRequest>,
    ) -> Result<Response<proto::NewGameResponse>, Status> {
        note_game(&request, &request.get_ref().game);
        let r = request.get_ref();
        let report = games::game_named(&r.game, "game")?.new_game(&r.variant, r.seed)?;
        Ok(Response::new(proto::NewGameResponse {
            position: Some(report),
        }))
    }

    async fn legal_moves(
        &self,
        request: Request<proto::LegalMovesRequest>,
    ) -> Result<Response<proto::LegalMovesResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let r = request.get_ref();
        let (game, position) = games::game_of(r.position.as_ref())?;
        Ok(Response::new(
            game.legal_moves(position, r.include_position)?,
        ))
    }

    async fn apply(
        &self,
        request: Request<proto::ApplyRequest>,
    ) -> Result<Response<proto::ApplyResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let r = request.get_ref();
        let (game, position) = games::game_of(r.position.as_ref())?;
        Ok(Response::new(game.apply(position, r.r#move.as_ref())?))
    }

    async fn evaluate(
        &self,
        request: Request<proto::EvaluateRequest>,
    ) -> Result<Response<proto::EvaluateResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let timeout = search_runner::timeout(request.metadata());
        let arrived = Arrival::of(&request);
        let r = request.into_inner();
        let (game, position) = games::game_of(r.position.as_ref())?;
        let requested = convert::limits(r.limits.as_ref());
        let searcher = SearcherChoice::of(&r.searcher, r.limits.as_ref());
        if requested.is_none() && r.searcher.trim().is_empty() {
            return Ok(Response::new(proto::EvaluateResponse {
                score: Some(game.evaluate(position, &searcher.weights)?),
                stats: None,
            }));
        }
        let search = game.search(position, &searcher, requested.as_ref(), &[], None)?;
        let odds = game.odds(position)?;
        let plan = self.runner.plan(requested, timeout, arrived);
        let stop = Arc::new(AtomicBool::new(false));
        let finished = self.runner.search(search, plan, stop, |_| {}).await?;
        let info = &finished.searched.info;
        let score = info
            .score()
            .ok_or_else(|| Status::failed_precondition("position: no legal move to search"))?;
        Ok(Response::new(proto::EvaluateResponse {
            score: Some(convert::score(score, odds)),
            stats: Some(convert::stats(info, &finished.notes)),
        }))
    }

    async fn best_move(
        &self,
        request: Request<proto::BestMoveRequest>,
    ) -> Result<Response<proto::BestMoveResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let timeout = search_runner::timeout(request.metadata());
        let arrived = Arrival::of(&request);
        let connection = ConnectionInfo::in_extensions(request.extensions()).cloned();
        let r = request.into_inner();
        let (game, position) = games::game_of(r.position.as_ref())?;
        let requested = convert::limits(r.limits.as_ref());
        let search = game.search(
            position,
            &SearcherChoice::of(&r.searcher, r.limits.as_ref()),
            requested.as_ref(),
            &r.search_moves,
            self.kept_table(connection.as_ref(), &r.table)?,
        )?;
        let odds = game.odds(position)?;
        let plan = self.runner.plan(requested, timeout, arrived);
        let stop = Arc::new(AtomicBool::new(false));
        let Finished { searched, notes } = self.runner.search(search, plan, stop, |_| {}).await?;
        let (Some(best), Some(line)) = (searched.best, searched.info.lines.first()) else {
            return Err(Status::failed_precondition(
                "position: no legal move to search",
            ));
        };
        Ok(Response::new(proto::BestMoveResponse {
            best_move: Some(best),
            score: Some(convert::score(line.score, odds)),
            #[allow(deprecated)]
            pv: line.moves.clone(),
            moves: line.moves.clone(),
            stats: Some(convert::stats(&searched.info, &notes)),
        }))
    }

    type AnalyzeStream = Updates<proto::AnalysisUpdate>;

    async fn analyze(
        &self,
        request: Request<proto::AnalyzeRequest>,
    ) -> Result<Response<Self::AnalyzeStream>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let timeout = search_runner::timeout(request.metadata());
        let arrived = Arrival::of(&request);
        let connection = ConnectionInfo::in_extensions(request.extensions()).cloned();
        let r = request.into_inner();
        let (game, position) = games::game_of(r.position.as_ref())?;
        let requested = convert::limits(r.limits.as_ref());
        let search = game.search(
            position,
            &SearcherChoice::of(&r.searcher, r.limits.as_ref()),
            requested.as_ref(),
            &r.search_moves,
            self.kept_table(connection.as_ref(), &r.table)?,
        )?;
        let mut plan = self.runner.plan(requested, timeout, arrived);
        plan.limits.multipv = r.multipv.max(1) as usize;
        plan.limits.report_every = Some(match r.report_interval_ms {
            0 => DEFAULT_REPORT_INTERVAL,
            ms => Duration::from_millis(ms.into()).max(MIN_REPORT_INTERVAL),
        });
        let unseen = Arc::new(game.unseen(position)?);
        let odds = game.odds(position)?;
        let (tx, rx) = updates::channel(STREAM_BUFFER);
        let stop = Arc::new(AtomicBool::new(false));
        let progress = {
            let (tx, stop, notes) = (tx.clone(), stop.clone(), plan.notes.clone());
            let unseen = unseen.clone();
            move |info: &Info<String>| {
                if tx.try_send(Ok(update(info, false, &notes, odds, &unseen))) == Err(NotSent::Gone)
                {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        };
        let runner = self.runner.clone();
        tokio::spawn(async move {
            let search = runner.search(search, plan, stop, progress);
            // Dropping the search future when the client goes away sets its stop flag.
            let result = tokio::select! {
                result = search => result,
                () = tx.closed() => return,
            };
            let _ = tx
                .send(result.map(|f| update(&f.searched.info, true, &f.notes, odds, &unseen)))
                .await;
        });
        Ok(Response::new(rx))
    }

    async fn perft(
        &self,
        request: Request<proto::PerftRequest>,
    ) -> Result<Response<proto::PerftResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let r = request.into_inner();
        let (game, position) = games::game_of(r.position.as_ref())?;
        let count = game.perft(position, r.depth, r.divide)?;
        if r.depth > MAX_PERFT_DEPTH {
            return Err(Status::invalid_argument(format!(
                "depth: {} is too deep (at most {MAX_PERFT_DEPTH})",
                r.depth
            )));
        }
        if r.divide && r.depth == 0 {
            return Err(Status::invalid_argument(
                "depth: divide needs a depth of at least 1",
            ));
        }
        let name = game.name();
        let stop = Arc::new(AtomicBool::new(false));
        // The client going away (or its deadline passing) drops this future, and
        // the server's time limit ends it: either way the count stops.
        let _stop_on_drop = StopOnDrop(stop.clone());
        let work = self.runner.run(stop.clone(), move || count(&stop));
        let max = self.runner.caps().max_movetime;
        let counts = tokio::time::timeout(max, work)
            .await
            .map_err(|_| {
                Status::resource_exhausted(format!(
                    "depth: perft not done within the server's maximum of {} ms \
                     (--max-movetime-ms); ask for a smaller depth",
                    max.as_millis()
                ))
            })??
            .map_err(|e| match e {
                PerftError::Undefined => Status::invalid_argument(format!(
                    "position.game: perft is not defined for {name}"
                )),
                PerftError::Stopped if self.runner.interrupted() => Status::unavailable(
                    "server shutting down: perft stopped; retry on another server",
                ),
                PerftError::Stopped => Status::cancelled("perft stopped"),
            })?;
        let nodes = counts.iter().map(|(_, n)| n).sum();
        let divide = if r.divide {
            counts
                .into_iter()
                .map(|(m, nodes)| proto::PerftDivide { r#move: m, nodes })
                .collect()
        } else {
            Vec::new()
        };
        Ok(Response::new(proto::PerftResponse { nodes, divide }))
    }

    async fn playouts(
        &self,
        request: Request<proto::PlayoutsRequest>,
    ) -> Result<Response<proto::PlayoutsResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let timeout = search_runner::timeout(request.metadata());
        let arrived = Arrival::of(&request);
        let r = request.into_inner();
        let (game, position) = games::game_of(r.position.as_ref())?;
        let asked = match r.movetime_ms {
            0 => DEFAULT_PLAYOUTS_TIME,
            ms => Duration::from_millis(ms.into()),
        };
        // The time is planned as a search's movetime: lowered to the
        // server's cap and to end before the call's deadline, with notes.
        let requested = caber_engine::search::Limits {
            movetime: Some(asked),
            ..Default::default()
        };
        let plan = self.runner.plan(Some(requested), timeout, arrived);
        let budget = plan.limits.movetime.unwrap_or(asked);
        let job = game.playouts(position, budget, r.seed)?;
        let stop = Arc::new(AtomicBool::new(false));
        // The client going away or the server shutting down stops the run
        // between two games.
        let _stop_on_drop = StopOnDrop(stop.clone());
        let played = self.runner.run(stop.clone(), move || job(&stop)).await?;
        Ok(Response::new(proto::PlayoutsResponse {
            games: played.games,
            plies: played.plies,
            seconds: played.elapsed.as_secs_f64(),
            note: plan.notes.joined(),
        }))
    }

    async fn replay(
        &self,
        request: Request<proto::ReplayRequest>,
    ) -> Result<Response<proto::ReplayResponse>, Status> {
        let (game, record) = games::read_record(&request.get_ref().record)?;
        note_game(&request, game.name());
        Ok(Response::new(game.replay(&record)?))
    }

    type ReviewStream = Updates<proto::ReviewUpdate>;

    async fn review(
        &self,
        request: Request<proto::ReviewRequest>,
    ) -> Result<Response<Self::ReviewStream>, Status> {
        let timeout = search_runner::timeout(request.metadata());
        let arrived = Arrival::of(&request);
        let r = request.get_ref();
        let requested = convert::limits(r.limits.as_ref());
        let searcher = SearcherChoice::of(&r.searcher, r.limits.as_ref());
        let prepared = review::Prepared::new(&r.record, &searcher, requested.as_ref())?;
        note_game(&request, prepared.game_name());
        let plan = self.runner.plan(requested, None, arrived);
        let bound = review::ReviewBound::new(&self.runner, timeout, arrived);
        let (tx, rx) = updates::channel(STREAM_BUFFER);
        let runner = self.runner.clone();
        tokio::spawn(async move {
            let errors = tx.clone();
            let reviewing = review::review(&runner, prepared, plan.limits, bound, tx);
            // The client going away drops the review, which stops its searches.
            let result = tokio::select! {
                result = reviewing => result,
                () = errors.closed() => return,
            };
            if let Err(status) = result {
                let _ = errors.send(Err(status)).await;
            }
        });
        Ok(Response::new(rx))
    }

    async fn solve(
        &self,
        request: Request<proto::SolveRequest>,
    ) -> Result<Response<proto::SolveResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let r = request.into_inner();
        if !(1..=MAX_SOLVE_MOVES).contains(&r.max_moves) {
            return Err(Status::invalid_argument(format!(
                "max_moves: {} is out of range 1..={MAX_SOLVE_MOVES}",
                r.max_moves
            )));
        }
        let (game, position) = games::game_of(r.position.as_ref())?;
        let job = game.solve(position, r.max_moves)?;
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let work = self.runner.run(stop.clone(), move || job(&stop));
        let max = self.runner.caps().max_movetime;
        let solved = tokio::time::timeout(max, work).await.map_err(|_| {
            Status::resource_exhausted(format!(
                "max_moves: not solved within the server's maximum of {} ms \
                 (--max-movetime-ms); ask for fewer moves",
                max.as_millis()
            ))
        })??;
        solved.map(Response::new).ok_or_else(|| {
            Status::unavailable("server shutting down: solve stopped; retry on another server")
        })
    }

    async fn render(
        &self,
        request: Request<proto::RenderRequest>,
    ) -> Result<Response<proto::RenderResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let r = request.get_ref();
        let (game, position) = games::game_of(r.position.as_ref())?;
        Ok(Response::new(proto::RenderResponse {
            svg: game.render(position, &r.last_move)?,
        }))
    }

    async fn view(
        &self,
        request: Request<proto::ViewRequest>,
    ) -> Result<Response<proto::ViewResponse>, Status> {
        note_game(&request, game_name(request.get_ref().position.as_ref()));
        let r = request.get_ref();
        let (game, position) = games::game_of(r.position.as_ref())?;
        let player = convert::optional_side("player", r.player)?;
        Ok(Response::new(proto::ViewResponse {
            position: Some(game.view(position, player)?),
        }))
    }
}
