//! Runs searches and other long engine computations off the async runtime.
//!
//! Every search goes through [`SearchRunner::search`]: it plans the budget
//! (default budget, the call's deadline), runs the engine on a blocking
//! thread and sets the stop flag as soon as the caller goes away.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use caber_engine::catalog::AnyPosition;
use caber_engine::search::{Info, Limits};
use tonic::metadata::MetadataMap;
use tonic::Status;

/// The budget of a search requested without any limit.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// The least time kept in reserve before a call's deadline.
const MIN_DEADLINE_MARGIN: Duration = Duration::from_millis(20);

/// Runs engine work on blocking threads and counts the searches in progress.
#[derive(Clone, Debug, Default)]
pub struct SearchRunner {
    running: Arc<AtomicUsize>,
}

/// Sets a stop flag when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Decrements the running-search count when dropped.
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl SearchRunner {
    /// Searches still running (including ones whose caller went away and that are stopping).
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Searches `position` within `limits` on a blocking thread, calling
    /// `progress` with each report. The search stops when `stop` is set, and
    /// when this future is dropped (the caller went away).
    pub async fn search(
        &self,
        position: Box<dyn AnyPosition>,
        limits: Limits,
        stop: Arc<AtomicBool>,
        mut progress: impl FnMut(&Info<String>) + Send + 'static,
    ) -> Result<Info<String>, Status> {
        let _stop_on_drop = StopOnDrop(stop.clone());
        self.running.fetch_add(1, Ordering::SeqCst);
        let running = Running(self.running.clone());
        tokio::task::spawn_blocking(move || {
            let _running = running;
            position.search(&limits, &stop, &mut progress)
        })
        .await
        .map_err(|e| Status::internal(format!("search failed: {e}")))
    }

    /// Runs other long engine work (perft) on a blocking thread.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Status> {
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| Status::internal(format!("engine failed: {e}")))
    }
}

/// The limits a search actually gets, and a note on how they were changed
/// (empty if not): the default budget when none is given, and a movetime that
/// ends a safety margin before the call's deadline (`timeout`).
pub fn plan(requested: Option<Limits>, timeout: Option<Duration>) -> (Limits, String) {
    let mut notes = Vec::new();
    let mut limits = requested.unwrap_or_else(|| {
        notes.push(format!(
            "no limit given: default movetime {} ms",
            DEFAULT_MOVETIME.as_millis()
        ));
        Limits {
            movetime: Some(DEFAULT_MOVETIME),
            ..Limits::default()
        }
    });
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
        let (limits, note) = plan(None, None);
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
        let (limits, note) = plan(Some(asked.clone()), None);
        assert_eq!(limits, asked);
        assert_eq!(note, "");
    }

    #[test]
    fn the_deadline_cuts_movetime_with_a_margin() {
        let asked = Limits {
            movetime: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        // 10% margin on a long deadline.
        let (limits, note) = plan(Some(asked.clone()), Some(Duration::from_millis(2000)));
        assert_eq!(limits.movetime, Some(Duration::from_millis(1800)));
        assert_eq!(note, "movetime 1800 ms to end before the call's deadline");
        // At least 20 ms of margin on a short one.
        let (limits, _) = plan(Some(asked.clone()), Some(Duration::from_millis(100)));
        assert_eq!(limits.movetime, Some(Duration::from_millis(80)));
        // Never less than half the time left.
        let (limits, _) = plan(Some(asked), Some(Duration::from_millis(30)));
        assert_eq!(limits.movetime, Some(Duration::from_millis(15)));
        // A shorter requested movetime is kept.
        let short = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let (limits, note) = plan(Some(short), Some(Duration::from_millis(2000)));
        assert_eq!(limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(note, "");
    }
}
