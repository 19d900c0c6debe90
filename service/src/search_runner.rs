//! Runs searches and other long engine computations off the async runtime.
//!
//! Every search goes through [`SearchRunner::search`]: [`SearchRunner::plan`]
//! sets its budget (the default budget, the server's caps, the call's
//! deadline), the dedicated [`SearchPool`] runs it, and the stop flag is set
//! as soon as the caller goes away. A search's time counts from the call's
//! arrival when the call has a deadline: one that waited for a search thread
//! gets what is left, and one that could not start in time is refused at once
//! with `RESOURCE_EXHAUSTED`, as is one arriving when every place is taken.
//! [`SearchRunner::interrupt`] stops every job at shutdown: searches then
//! answer with their best result so far, noted as interrupted.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use caber_engine::search::{Info, Limits, DEFAULT_TREE_MB};
use tonic::metadata::MetadataMap;
use tonic::Status;

use crate::metrics;
use crate::pool::{Bound, Refused, SearchPool};
use crate::process_metrics;
use crate::proto;

/// A search ready to run off the async runtime (a game's adapter makes it):
/// the position and searcher are typed inside, the reports are in the
/// reply's terms.
pub type SearchJob = Box<
    dyn FnOnce(&Limits, &AtomicBool, &mut dyn FnMut(&Info<String>)) -> Searched + Send + 'static,
>;

/// A finished search: its report with moves as text, and the best move in both forms.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The final report.
    pub info: Info<String>,
    /// The recommended move, if there is one.
    pub best: Option<proto::MoveInfo>,
}

/// The budget of a search requested without any limit.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// The least time kept in reserve before a call's deadline, and the least
/// time a search that waited for a thread still gets.
const MIN_DEADLINE_MARGIN: Duration = Duration::from_millis(20);

/// The note on a search stopped by [`SearchRunner::interrupt`].
pub const INTERRUPTED: &str =
    "server shutting down: stopped at the end of the grace period; the best result so far";

/// The most one request may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Longest search; also bounds searches asked only for a depth or node count.
    pub max_movetime: Duration,
    /// Most nodes one search may visit (0: no maximum).
    pub max_nodes: u64,
    /// Most threads one search may use.
    pub max_threads: usize,
    /// Longest review, all its searches together.
    pub max_review: Duration,
    /// Largest transposition table of one search, in MB.
    pub max_table_mb: usize,
    /// Searchers kept between calls (each with its table) for the clients
    /// that name them.
    pub kept_tables: usize,
}

/// The default of `--max-hash-mb`: four times a search's default table.
pub const DEFAULT_MAX_TABLE_MB: usize = 64;

/// The default of `--max-kept-tables`.
pub const DEFAULT_KEPT_TABLES: usize = 4;

impl Caps {
    /// For a service that only its own process calls (the in-process engine
    /// of `caber`), whose user stops a long search: no maximum on time,
    /// nodes or threads; a table or tree of at most half this machine's
    /// memory (or its container's), so that an impossible size is lowered
    /// and said, not an abort.
    pub fn in_process() -> Caps {
        let memory_mb = process_metrics::memory_limit().map_or(usize::MAX, |b| (b >> 20) as usize);
        Caps {
            max_movetime: Duration::MAX,
            max_nodes: 0,
            max_threads: caber_engine::search::alphabeta::MAX_THREADS,
            max_review: Duration::MAX,
            max_table_mb: (memory_mb / 2).max(1),
            kept_tables: DEFAULT_KEPT_TABLES,
        }
    }
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            max_movetime: Duration::from_secs(60),
            max_nodes: 0,
            max_threads: 1,
            max_review: Duration::from_secs(60),
            max_table_mb: DEFAULT_MAX_TABLE_MB,
            kept_tables: DEFAULT_KEPT_TABLES,
        }
    }
}

/// A search's budget as planned, and what the server changed in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The limits the search runs with once started.
    pub limits: Limits,
    /// The instant the search must end by whenever it starts (the call's
    /// deadline less a margin), if the call has a deadline.
    pub ends_by: Option<Instant>,
    /// The notes for [`proto::SearchStats`].
    pub notes: Notes,
}

/// What the server did to a search's budget, as `SearchStats` reports it:
/// for programs as values, for people as the prose of [`Notes::clamped`],
/// [`Notes::budget`] and [`Notes::interrupted`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// What the server lowered to its caps.
    pub clamps: Vec<Clamp>,
    /// How the server chose or shortened the budget for the call.
    pub budget_changes: Vec<BudgetChange>,
    /// Whether [`SearchRunner::interrupt`] stopped the search.
    pub interrupted_by_shutdown: bool,
}

/// A limit lowered to the server's maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clamp {
    /// Which limit.
    pub limit: Limit,
    /// What was asked.
    pub asked: u64,
    /// What the search got (the server's maximum).
    pub given: u64,
}

/// A limit the server may lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The movetime, in ms.
    MovetimeMs,
    /// The node count.
    Nodes,
    /// The transposition table, in MB.
    HashMb,
    /// The threads of one search.
    Threads,
    /// The nodes of a Monte Carlo tree, which stopped growing at its memory
    /// limit (the search's hash): asked, the nodes it would have had.
    TreeNodes,
}

/// Why the server set or shortened a search's movetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetChange {
    /// No limit was given: the default movetime (ms).
    Default { movetime_ms: u64 },
    /// The movetime ends a margin before the call's deadline.
    Deadline { movetime_ms: u64 },
    /// The search waited for a thread; what was left of its deadline.
    Waited { waited_ms: u64, movetime_ms: u64 },
}

impl std::fmt::Display for Clamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let given = self.given;
        match self.limit {
            Limit::MovetimeMs => write!(f, "movetime lowered to the server maximum of {given} ms"),
            Limit::Nodes => write!(f, "nodes lowered to the server maximum of {given}"),
            Limit::HashMb => write!(f, "hash lowered to the server maximum of {given} MB"),
            Limit::Threads => write!(f, "threads lowered to the server maximum of {given}"),
            Limit::TreeNodes => write!(
                f,
                "the tree stopped growing at {given} nodes, its memory limit (hash); \
                 later playouts refined it ({} nodes wanted)",
                self.asked
            ),
        }
    }
}

impl std::fmt::Display for BudgetChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            BudgetChange::Default { movetime_ms } => {
                write!(f, "no limit given: default movetime {movetime_ms} ms")
            }
            BudgetChange::Deadline { movetime_ms } => {
                write!(
                    f,
                    "movetime {movetime_ms} ms to end before the call's deadline"
                )
            }
            BudgetChange::Waited {
                waited_ms,
                movetime_ms,
            } => write!(
                f,
                "waited {waited_ms} ms for a search thread: movetime {movetime_ms} ms"
            ),
        }
    }
}

impl Notes {
    /// These notes with what the search itself reports: a Monte Carlo tree
    /// that reached its memory limit.
    pub fn after(&self, info: &Info<String>) -> Notes {
        let mut notes = self.clone();
        notes.clamps.extend(info.full_tree.map(|full| Clamp {
            limit: Limit::TreeNodes,
            asked: full.wanted,
            given: full.nodes,
        }));
        notes
    }

    /// The clamps in prose (empty: the search got what was asked).
    pub fn clamped(&self) -> String {
        listed(&self.clamps)
    }

    /// The budget changes in prose.
    pub fn budget(&self) -> String {
        listed(&self.budget_changes)
    }

    /// The interruption in prose (empty: none).
    pub fn interrupted(&self) -> String {
        if self.interrupted_by_shutdown {
            INTERRUPTED.to_string()
        } else {
            String::new()
        }
    }

    /// Every note in one line (`"; "` between them; empty if none).
    pub fn joined(&self) -> String {
        join(&join(&self.clamped(), &self.budget()), &self.interrupted())
    }
}

fn listed<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A finished search and the notes on its budget.
pub struct Finished {
    /// The engine's result.
    pub searched: Searched,
    /// What the server changed.
    pub notes: Notes,
}

/// Runs engine work on the search pool, within the server's caps.
#[derive(Clone, Debug)]
pub struct SearchRunner {
    pool: SearchPool,
    caps: Caps,
    jobs: Arc<Jobs>,
}

/// The stop flags of the jobs running or queued, for [`SearchRunner::interrupt`].
#[derive(Debug, Default)]
struct Jobs {
    interrupted: AtomicBool,
    next: AtomicU64,
    flags: Mutex<HashMap<u64, Arc<AtomicBool>>>,
}

/// A job's entry in [`Jobs`], removed when dropped.
struct JobEntry<'a> {
    jobs: &'a Jobs,
    id: u64,
}

impl Drop for JobEntry<'_> {
    fn drop(&mut self) {
        self.jobs.lock().remove(&self.id);
    }
}

impl Jobs {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<AtomicBool>>> {
        self.flags.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `stop`; refused once interrupted.
    fn register(&self, stop: &Arc<AtomicBool>) -> Result<JobEntry<'_>, Status> {
        let mut flags = self.lock();
        if self.interrupted.load(Ordering::SeqCst) {
            return Err(Status::unavailable(
                "server shutting down: retry on another server",
            ));
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        flags.insert(id, stop.clone());
        Ok(JobEntry { jobs: self, id })
    }
}

impl Default for SearchRunner {
    fn default() -> Self {
        Self::new(SearchPool::for_this_machine(), Caps::default())
    }
}

/// Sets a stop flag when dropped: a search or count whose caller's future is
/// dropped (the client went away, the deadline passed) stops.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl SearchRunner {
    /// A runner on `pool` applying `caps` to every request.
    pub fn new(pool: SearchPool, caps: Caps) -> Self {
        Self {
            pool,
            caps,
            jobs: Arc::default(),
        }
    }

    /// The caps applied to every request.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// Jobs running or queued (including ones whose caller went away and that are stopping).
    pub fn running(&self) -> usize {
        self.pool.admitted()
    }

    /// Stops every job running or queued, and refuses new ones: searches end
    /// with their best result so far (noted [`INTERRUPTED`]).
    pub fn interrupt(&self) {
        let flags = self.jobs.lock();
        self.jobs.interrupted.store(true, Ordering::SeqCst);
        for flag in flags.values() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether [`SearchRunner::interrupt`] was called.
    pub fn interrupted(&self) -> bool {
        self.jobs.interrupted.load(Ordering::SeqCst)
    }

    /// Plans a search: see [`plan`], with this runner's caps, for a call
    /// that arrived at `arrived`.
    pub fn plan(
        &self,
        requested: Option<Limits>,
        timeout: Option<Duration>,
        arrived: Instant,
    ) -> Plan {
        plan(requested, timeout, self.caps, arrived)
    }

    /// Runs `search` as `plan` says on the pool, calling `progress` with each
    /// report. The search stops when `stop` is set, when this future is
    /// dropped (the caller went away) and at [`SearchRunner::interrupt`].
    pub async fn search(
        &self,
        search: SearchJob,
        plan: Plan,
        stop: Arc<AtomicBool>,
        mut progress: impl FnMut(&Info<String>) + Send + 'static,
    ) -> Result<Finished, Status> {
        let _registered = self.jobs.register(&stop)?;
        let _stop_on_drop = StopOnDrop(stop.clone());
        let Plan {
            mut limits,
            ends_by,
            mut notes,
        } = plan;
        let bound = Bound {
            run: limits.movetime.unwrap_or(self.caps.max_movetime),
            ends_by,
        };
        let latest_start = ends_by.map(|end| end - MIN_DEADLINE_MARGIN);
        let queued = Instant::now();
        let work = move || {
            let started = Instant::now();
            let mut wait_note = None;
            if let Some(end) = ends_by {
                // Whatever happens before the searcher's clock starts (its
                // tables' allocation) counts against the deadline too.
                limits.deadline = Some(end);
                let left = end
                    .saturating_duration_since(started)
                    .max(MIN_DEADLINE_MARGIN);
                let waited = started.duration_since(queued);
                if limits.movetime.is_none_or(|m| m > left) {
                    limits.movetime = Some(left);
                    if waited >= Duration::from_millis(1) {
                        wait_note = Some(BudgetChange::Waited {
                            waited_ms: millis(waited),
                            movetime_ms: millis(left),
                        });
                    }
                }
            }
            (search(&limits, &stop, &mut progress), wait_note)
        };
        let running = self.pool.submit(bound, latest_start, work).map_err(busy)?;
        let (searched, wait_note) = running
            .await
            .ok_or_else(|| Status::internal("search failed"))?;
        metrics::global().searched(searched.info.nodes);
        notes.budget_changes.extend(wait_note);
        if self.interrupted() && searched.info.stopped {
            notes.interrupted_by_shutdown = true;
        }
        Ok(Finished { searched, notes })
    }

    /// Runs other long engine work (perft, matches: at most the movetime cap
    /// each) on the pool, stopped through `stop` at [`SearchRunner::interrupt`].
    pub async fn run<T: Send + 'static>(
        &self,
        stop: Arc<AtomicBool>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Status> {
        self.run_within(stop, self.caps.max_movetime, work).await
    }

    /// Runs work that takes at most `run` (a review: several searches) on
    /// the pool, stopped through `stop` at [`SearchRunner::interrupt`].
    pub async fn run_within<T: Send + 'static>(
        &self,
        stop: Arc<AtomicBool>,
        run: Duration,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Status> {
        let _registered = self.jobs.register(&stop)?;
        let bound = Bound { run, ends_by: None };
        self.pool
            .submit(bound, None, work)
            .map_err(busy)?
            .await
            .ok_or_else(|| Status::internal("engine failed"))
    }
}

/// The refusal of a job the pool did not admit.
fn busy(refused: Refused) -> Status {
    metrics::global().rejected();
    Status::resource_exhausted(match refused {
        Refused::Full { capacity } => format!(
            "server busy: {capacity} searches already running or waiting (the most at once); \
             retry later"
        ),
        Refused::TooLate { wait } => format!(
            "server busy: no search thread is sure to be free before the call's deadline \
             (one is within {} ms); retry later or with a longer deadline",
            wait.as_millis()
        ),
    })
}

/// A duration in whole milliseconds.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}; {b}"),
    }
}

/// The limits a search gets and the notes on them: the default budget when
/// none is given (noted in `budget`), the server's caps (a movetime or node
/// count above them is lowered and noted in `clamped`; a search without a
/// movetime still ends after `caps.max_movetime`), and, for a call with a
/// deadline (`timeout` from `now`), an end a safety margin before it, which
/// counts any wait for a thread (noted in `budget` when it shortens the
/// movetime).
pub fn plan(
    requested: Option<Limits>,
    timeout: Option<Duration>,
    caps: Caps,
    now: Instant,
) -> Plan {
    let mut clamps = Vec::new();
    let mut budget = Vec::new();
    let mut limits = requested.unwrap_or_default();
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        // Limits with no budget (only a table size, say) get the default one.
        let movetime = DEFAULT_MOVETIME.min(caps.max_movetime);
        budget.push(BudgetChange::Default {
            movetime_ms: millis(DEFAULT_MOVETIME),
        });
        limits.movetime = Some(movetime);
    }
    match limits.movetime {
        Some(m) if m > caps.max_movetime => {
            limits.movetime = Some(caps.max_movetime);
            clamps.push(Clamp {
                limit: Limit::MovetimeMs,
                asked: millis(m),
                given: millis(caps.max_movetime),
            });
        }
        Some(_) => {}
        None => limits.movetime = Some(caps.max_movetime),
    }
    if let Some(asked) = limits
        .nodes
        .filter(|&n| caps.max_nodes > 0 && n > caps.max_nodes)
    {
        limits.nodes = Some(caps.max_nodes);
        clamps.push(Clamp {
            limit: Limit::Nodes,
            asked,
            given: caps.max_nodes,
        });
    }
    if limits.table_mb == 0 && caps.max_table_mb < DEFAULT_TREE_MB {
        // No size asked: the searcher's default, unless the cap is smaller.
        limits.table_mb = caps.max_table_mb;
    }
    if limits.table_mb > caps.max_table_mb {
        clamps.push(Clamp {
            limit: Limit::HashMb,
            asked: limits.table_mb as u64,
            given: caps.max_table_mb as u64,
        });
        limits.table_mb = caps.max_table_mb;
    }
    if limits.threads > caps.max_threads {
        clamps.push(Clamp {
            limit: Limit::Threads,
            asked: limits.threads as u64,
            given: caps.max_threads as u64,
        });
        limits.threads = caps.max_threads;
    }
    let mut ends_by = None;
    if let Some(timeout) = timeout {
        let left = before_deadline(timeout);
        ends_by = now.checked_add(left);
        if limits.movetime.is_none_or(|m| m > left) {
            limits.movetime = Some(left);
            budget.push(BudgetChange::Deadline {
                movetime_ms: millis(left),
            });
        }
    }
    Plan {
        limits,
        ends_by,
        notes: Notes {
            clamps,
            budget_changes: budget,
            interrupted_by_shutdown: false,
        },
    }
}

/// The time a call with `timeout` gets for its work: the timeout less a
/// margin for the reply (10%, at least 20 ms), and at least half of it.
pub fn before_deadline(timeout: Duration) -> Duration {
    let margin = (timeout / 10).max(MIN_DEADLINE_MARGIN);
    timeout.saturating_sub(margin).max(timeout / 2)
}

/// The call's timeout from its `grpc-timeout` header, if any and well formed.
pub fn timeout(metadata: &MetadataMap) -> Option<Duration> {
    let value = metadata.get("grpc-timeout")?.to_str().ok()?;
    let split = value.len().checked_sub(1)?;
    let (digits, unit) = value.split_at(split);
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n * 3600),
        "M" => Duration::from_secs(n * 60),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan made now: its limits and notes.
    fn planned(
        requested: Option<Limits>,
        timeout: Option<Duration>,
        caps: Caps,
    ) -> (Limits, Notes) {
        let plan = plan(requested, timeout, caps, Instant::now());
        assert_eq!(plan.ends_by.is_some(), timeout.is_some());
        (plan.limits, plan.notes)
    }

    #[test]
    fn grpc_timeout_header_is_read_in_every_unit() {
        let cases = [
            ("2H", Duration::from_secs(7200)),
            ("3M", Duration::from_secs(180)),
            ("5S", Duration::from_secs(5)),
            ("250m", Duration::from_millis(250)),
            ("7u", Duration::from_micros(7)),
            ("9n", Duration::from_nanos(9)),
        ];
        for (text, expected) in cases {
            let mut m = MetadataMap::new();
            m.insert("grpc-timeout", text.parse().unwrap());
            assert_eq!(timeout(&m), Some(expected), "{text}");
        }
        for bad in ["", "m", "12x", "123456789m", "-5m"] {
            let mut m = MetadataMap::new();
            m.insert("grpc-timeout", bad.parse().unwrap());
            assert_eq!(timeout(&m), None, "{bad:?}");
        }
        assert_eq!(timeout(&MetadataMap::new()), None);
    }

    #[test]
    fn no_limit_gets_the_default_budget() {
        let (limits, note) = planned(None, None, Caps::default());
        assert_eq!(limits.movetime, Some(DEFAULT_MOVETIME));
        assert_eq!(limits.depth, None);
        assert_eq!(note.budget(), "no limit given: default movetime 1000 ms");
        assert_eq!(
            note.budget_changes,
            [BudgetChange::Default { movetime_ms: 1000 }]
        );
        assert_eq!(note.clamped(), "");
    }

    #[test]
    fn requested_limits_are_kept_without_a_deadline() {
        let asked = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let (limits, note) = planned(Some(asked.clone()), None, Caps::default());
        assert_eq!(limits.depth, Some(4));
        assert_eq!(limits.movetime, Some(Caps::default().max_movetime));
        assert_eq!(note, Notes::default());
    }

    #[test]
    fn the_deadline_cuts_movetime_with_a_margin() {
        let asked = Limits {
            movetime: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        // 10% margin on a long deadline.
        let (limits, note) = planned(
            Some(asked.clone()),
            Some(Duration::from_millis(2000)),
            Caps::default(),
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(1800)));
        assert_eq!(
            note.budget(),
            "movetime 1800 ms to end before the call's deadline"
        );
        assert_eq!(note.clamped(), "", "the deadline is no cap");
        // At least 20 ms of margin on a short one.
        let (limits, _) = planned(
            Some(asked.clone()),
            Some(Duration::from_millis(100)),
            Caps::default(),
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(80)));
        // Never less than half the time left.
        let (limits, _) = planned(
            Some(asked),
            Some(Duration::from_millis(30)),
            Caps::default(),
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(15)));
        // A shorter requested movetime is kept.
        let short = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let (limits, note) = planned(
            Some(short),
            Some(Duration::from_millis(2000)),
            Caps::default(),
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(note, Notes::default());
    }

    #[test]
    fn a_deadline_sets_the_end_whatever_the_movetime() {
        let now = Instant::now();
        let short = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let plan = plan(
            Some(short),
            Some(Duration::from_secs(2)),
            Caps::default(),
            now,
        );
        assert_eq!(plan.limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(plan.ends_by, Some(now + Duration::from_millis(1800)));
        assert_eq!(plan.notes, Notes::default());
    }

    #[test]
    fn requests_above_the_caps_are_lowered_and_say_so() {
        let caps = Caps {
            max_movetime: Duration::from_millis(500),
            max_nodes: 1000,
            max_threads: 2,
            max_table_mb: 32,
            ..Caps::default()
        };
        let asked = Limits {
            movetime: Some(Duration::from_secs(5)),
            nodes: Some(1_000_000),
            threads: 8,
            table_mb: 1024,
            ..Limits::default()
        };
        let (limits, note) = planned(Some(asked), None, caps);
        assert_eq!(limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!(limits.nodes, Some(1000));
        assert_eq!(limits.threads, 2);
        assert_eq!(limits.table_mb, 32);
        assert_eq!(note.budget(), "");
        assert_eq!(
            note.clamped(),
            "movetime lowered to the server maximum of 500 ms; nodes lowered to the server maximum of 1000; \
             hash lowered to the server maximum of 32 MB; threads lowered to the server maximum of 2"
        );
        // The same for programs: each limit, what was asked and given.
        assert_eq!(
            note.clamps,
            [
                Clamp {
                    limit: Limit::MovetimeMs,
                    asked: 5000,
                    given: 500
                },
                Clamp {
                    limit: Limit::Nodes,
                    asked: 1_000_000,
                    given: 1000
                },
                Clamp {
                    limit: Limit::HashMb,
                    asked: 1024,
                    given: 32
                },
                Clamp {
                    limit: Limit::Threads,
                    asked: 8,
                    given: 2
                },
            ]
        );
        let within = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let (limits, note) = planned(Some(within), None, caps);
        assert_eq!(limits.nodes, Some(10));
        assert_eq!(limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!(note, Notes::default());
    }

    #[test]
    fn in_process_a_long_search_keeps_its_limits_but_not_an_impossible_table() {
        let caps = Caps::in_process();
        let asked = Limits {
            movetime: Some(Duration::from_secs(7200)),
            nodes: Some(u64::MAX),
            ..Limits::default()
        };
        let (limits, note) = planned(Some(asked.clone()), None, caps);
        assert_eq!(limits.movetime, Some(Duration::from_secs(7200)));
        assert_eq!(limits.nodes, Some(u64::MAX));
        assert_eq!(note, Notes::default());
        // A table of a petabyte is lowered to half the machine's memory.
        let huge = Limits {
            table_mb: 1 << 30,
            ..asked.clone()
        };
        let (limits, note) = planned(Some(huge), None, caps);
        assert!(limits.table_mb < 1 << 30 && limits.table_mb >= 1);
        assert_eq!(
            note.clamped(),
            format!(
                "hash lowered to the server maximum of {} MB",
                limits.table_mb
            )
        );
        // The call's deadline still applies.
        let (limits, note) = planned(Some(asked), Some(Duration::from_secs(10)), caps);
        assert_eq!(limits.movetime, Some(Duration::from_secs(9)));
        assert_eq!(
            note.budget(),
            "movetime 9000 ms to end before the call's deadline"
        );
    }
}
