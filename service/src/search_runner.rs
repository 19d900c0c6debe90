//! Runs searches and other long engine computations off the async runtime.
//!
//! Every search goes through [`SearchRunner::search`]: it plans the budget
//! (default budget, server maximums, the call's deadline), runs the engine on
//! the dedicated [`SearchPool`] and sets the stop flag as soon as the caller
//! goes away. When the pool is full the call is refused with
//! `RESOURCE_EXHAUSTED` rather than queued.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use caber_engine::search::{Info, Limits};
use tonic::metadata::MetadataMap;
use tonic::Status;

use crate::games::{SearchJob, Searched};
use crate::metrics;
use crate::pool::{Admission, SearchPool};

/// The budget of a search requested without any limit.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// The least time kept in reserve before a call's deadline.
const MIN_DEADLINE_MARGIN: Duration = Duration::from_millis(20);

/// The most one request may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Longest search; also bounds searches asked only for a depth or node count.
    pub max_movetime: Duration,
    /// Most nodes one search may visit (0: no maximum).
    pub max_nodes: u64,
}

impl Caps {
    /// No maximum: for a service that only its own process calls (the
    /// in-process engine of `caber`), whose user stops a long search.
    pub const NONE: Caps = Caps {
        max_movetime: Duration::MAX,
        max_nodes: 0,
    };
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            max_movetime: Duration::from_secs(60),
            max_nodes: 0,
        }
    }
}

/// Runs engine work on the search pool, within the server's caps.
#[derive(Clone, Debug)]
pub struct SearchRunner {
    pool: SearchPool,
    caps: Caps,
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
        Self { pool, caps }
    }

    /// The caps applied to every request.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// Searches still running (including ones whose caller went away and that are stopping).
    pub fn running(&self) -> usize {
        self.pool.admitted()
    }

    /// A place on the pool, or `RESOURCE_EXHAUSTED` when it is full.
    fn admit(&self) -> Result<Admission, Status> {
        self.pool.admit().ok_or_else(|| {
            metrics::global().rejected();
            Status::resource_exhausted(format!(
                "server busy: {} searches already running (the most at once); retry later",
                self.pool.capacity()
            ))
        })
    }

    /// Plans the limits of a search: see [`plan`], with this runner's caps.
    pub fn plan(&self, requested: Option<Limits>, timeout: Option<Duration>) -> (Limits, String) {
        plan(requested, timeout, self.caps)
    }

    /// Runs `search` within `limits` on the pool, calling `progress` with
    /// each report. The search stops when `stop` is set, and when this future
    /// is dropped (the caller went away).
    pub async fn search(
        &self,
        search: SearchJob,
        limits: Limits,
        stop: Arc<AtomicBool>,
        mut progress: impl FnMut(&Info<String>) + Send + 'static,
    ) -> Result<Searched, Status> {
        let admission = self.admit()?;
        let _stop_on_drop = StopOnDrop(stop.clone());
        let searched = self
            .pool
            .run(admission, move || search(&limits, &stop, &mut progress))
            .await
            .ok_or_else(|| Status::internal("search failed"))?;
        metrics::global().searched(searched.info.nodes);
        Ok(searched)
    }

    /// Runs other long engine work (perft) on the pool.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Status> {
        let admission = self.admit()?;
        self.pool
            .run(admission, work)
            .await
            .ok_or_else(|| Status::internal("engine failed"))
    }
}

/// The limits a search actually gets, and a note on how they were changed
/// (empty if not): the default budget when none is given, the server's caps
/// (a movetime or node count above them is lowered, and a search without a
/// movetime still ends after `caps.max_movetime`), and a movetime that ends a
/// safety margin before the call's deadline (`timeout`).
pub fn plan(requested: Option<Limits>, timeout: Option<Duration>, caps: Caps) -> (Limits, String) {
    let mut notes = Vec::new();
    let mut limits = requested.unwrap_or_else(|| {
        notes.push(format!(
            "no limit given: default movetime {} ms",
            DEFAULT_MOVETIME.as_millis()
        ));
        Limits {
            movetime: Some(DEFAULT_MOVETIME.min(caps.max_movetime)),
            ..Limits::default()
        }
    });
    match limits.movetime {
        Some(m) if m > caps.max_movetime => {
            limits.movetime = Some(caps.max_movetime);
            notes.push(format!(
                "movetime lowered to the server maximum of {} ms",
                caps.max_movetime.as_millis()
            ));
        }
        Some(_) => {}
        None => limits.movetime = Some(caps.max_movetime),
    }
    if caps.max_nodes > 0 && limits.nodes.is_some_and(|n| n > caps.max_nodes) {
        limits.nodes = Some(caps.max_nodes);
        notes.push(format!(
            "nodes lowered to the server maximum of {}",
            caps.max_nodes
        ));
    }
    if let Some(timeout) = timeout {
        let margin = (timeout / 10).max(MIN_DEADLINE_MARGIN);
        let budget = timeout.saturating_sub(margin).max(timeout / 2);
        if limits.movetime.is_none_or(|m| m > budget) {
            limits.movetime = Some(budget);
            notes.push(format!(
                "movetime {} ms to end before the call's deadline",
                budget.as_millis()
            ));
        }
    }
    (limits, notes.join("; "))
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
        let (limits, note) = plan(None, None, Caps::default());
        assert_eq!(limits.movetime, Some(DEFAULT_MOVETIME));
        assert_eq!(limits.depth, None);
        assert_eq!(note, "no limit given: default movetime 1000 ms");
    }

    #[test]
    fn requested_limits_are_kept_without_a_deadline() {
        let asked = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let (limits, note) = plan(Some(asked.clone()), None, Caps::default());
        assert_eq!(limits.depth, Some(4));
        assert_eq!(limits.movetime, Some(Caps::default().max_movetime));
        assert_eq!(note, "");
    }

    #[test]
    fn the_deadline_cuts_movetime_with_a_margin() {
        let asked = Limits {
            movetime: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        // 10% margin on a long deadline.
        let (limits, note) = plan(
            Some(asked.clone()),
            Some(Duration::from_millis(2000)),
            Caps::default(),
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(1800)));
        assert_eq!(note, "movetime 1800 ms to end before the call's deadline");
        // At least 20 ms of margin on a short one.
        let (limits, _) = plan(
            Some(asked.clone()),
            Some(Duration::from_millis(100)),
            Caps::default(),
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(80)));
        // Never less than half the time left.
        let (limits, _) = plan(
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
        let (limits, note) = plan(
            Some(short),
            Some(Duration::from_millis(2000)),
            Caps::default(),
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(note, "");
    }

    #[test]
    fn requests_above_the_caps_are_lowered_and_say_so() {
        let caps = Caps {
            max_movetime: Duration::from_millis(500),
            max_nodes: 1000,
        };
        let asked = Limits {
            movetime: Some(Duration::from_secs(5)),
            nodes: Some(1_000_000),
            ..Limits::default()
        };
        let (limits, note) = plan(Some(asked), None, caps);
        assert_eq!(limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!(limits.nodes, Some(1000));
        assert_eq!(
            note,
            "movetime lowered to the server maximum of 500 ms; nodes lowered to the server maximum of 1000"
        );
        let within = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let (limits, note) = plan(Some(within), None, caps);
        assert_eq!(limits.nodes, Some(10));
        assert_eq!(limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!(note, "");
    }

    #[test]
    fn without_caps_a_long_search_keeps_its_limits() {
        let asked = Limits {
            movetime: Some(Duration::from_secs(7200)),
            nodes: Some(u64::MAX),
            ..Limits::default()
        };
        let (limits, note) = plan(Some(asked.clone()), None, Caps::NONE);
        assert_eq!(limits.movetime, Some(Duration::from_secs(7200)));
        assert_eq!(limits.nodes, Some(u64::MAX));
        assert_eq!(note, "");
        // The call's deadline still applies.
        let (limits, note) = plan(Some(asked), Some(Duration::from_secs(10)), Caps::NONE);
        assert_eq!(limits.movetime, Some(Duration::from_secs(9)));
        assert_eq!(note, "movetime 9000 ms to end before the call's deadline");
    }
}
