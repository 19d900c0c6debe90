//! Node counting and the stop conditions of a search: the stop flag, the node
//! budget, the time budget, and when a progress report is due. In a parallel
//! search the helper threads add their nodes to a shared counter that the
//! main thread's clock counts in.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Limits;

/// How many nodes pass between two reads of the wall clock.
const TIME_CHECK_INTERVAL: u64 = 256;

/// Counts nodes and decides when a search must stop.
///
/// The stop flag is read at every node (a relaxed atomic load), so a search
/// stops within a few nodes of the flag being set; the wall clock is read
/// every [`TIME_CHECK_INTERVAL`] nodes.
pub(crate) struct Clock<'a> {
    start: Instant,
    stop: &'a AtomicBool,
    node_limit: Option<u64>,
    movetime: Option<Duration>,
    report_every: Option<Duration>,
    last_report: Duration,
    /// Whether the node and time budgets apply (the stop flag always does).
    enforce_budgets: bool,
    nodes: u64,
    stopped: bool,
    report_due: bool,
    threads: Threads<'a>,
}

/// A clock's part in a parallel search.
#[derive(Clone, Copy)]
enum Threads<'a> {
    /// A search on one thread.
    Alone,
    /// The main thread: its nodes and those added to the counter.
    Main(&'a AtomicU64),
    /// A helper thread: adds its nodes to the counter.
    Helper(&'a AtomicU64),
}

impl<'a> Clock<'a> {
    /// A clock starting now.
    pub(crate) fn new(limits: &Limits, stop: &'a AtomicBool) -> Self {
        Clock {
            start: Instant::now(),
            stop,
            node_limit: limits.nodes,
            movetime: limits.movetime,
            report_every: limits.report_every,
            last_report: Duration::ZERO,
            enforce_budgets: true,
            nodes: 0,
            stopped: false,
            report_due: false,
            threads: Threads::Alone,
        }
    }

    /// The main thread's clock of a parallel search: its node count and
    /// node budget include the helpers' nodes added to `helpers`.
    pub(crate) fn main_thread(
        limits: &Limits,
        stop: &'a AtomicBool,
        helpers: &'a AtomicU64,
    ) -> Self {
        Clock {
            threads: Threads::Main(helpers),
            ..Clock::new(limits, stop)
        }
    }

    /// A helper thread's clock: no budget, stops with `stop`, adds its
    /// nodes to `helpers` as it goes.
    pub(crate) fn helper_thread(stop: &'a AtomicBool, helpers: &'a AtomicU64) -> Self {
        Clock {
            threads: Threads::Helper(helpers),
            ..Clock::new(&Limits::default(), stop)
        }
    }

    /// Counts one node; returns false (and stays stopped) once the search must stop.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        if self.stop.load(Ordering::Relaxed)
            || (self.enforce_budgets && self.node_limit.is_some_and(|n| self.nodes() >= n))
        {
            self.stopped = true;
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(TIME_CHECK_INTERVAL) {
            if let Threads::Helper(counter) = self.threads {
                counter.fetch_add(TIME_CHECK_INTERVAL, Ordering::Relaxed);
            }
            let elapsed = self.start.elapsed();
            if self.enforce_budgets && self.movetime.is_some_and(|t| elapsed >= t) {
                self.stopped = true;
                return false;
            }
            if self
                .report_every
                .is_some_and(|every| elapsed >= self.last_report + every)
            {
                self.report_due = true;
            }
        }
        true
    }

    /// Whether the search has been stopped (by the flag or a budget).
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Reads the stop flag and the budgets now, without counting a node.
    pub(crate) fn check_now(&mut self) -> bool {
        if !self.stopped
            && (self.stop.load(Ordering::Relaxed)
                || (self.enforce_budgets
                    && (self.node_limit.is_some_and(|n| self.nodes() >= n)
                        || self.movetime.is_some_and(|t| self.start.elapsed() >= t))))
        {
            self.stopped = true;
        }
        !self.stopped
    }

    /// Turns the node and time budgets on or off (the stop flag always applies).
    pub(crate) fn set_enforce_budgets(&mut self, on: bool) {
        self.enforce_budgets = on;
    }

    /// Whether a periodic progress report is due; clears the request.
    pub(crate) fn take_report_due(&mut self) -> bool {
        std::mem::take(&mut self.report_due)
    }

    /// Records that a report was just sent.
    pub(crate) fn reported(&mut self) {
        self.last_report = self.start.elapsed();
        self.report_due = false;
    }

    /// Nodes counted so far (the main thread's: with the helpers').
    pub(crate) fn nodes(&self) -> u64 {
        match self.threads {
            Threads::Main(helpers) => self.nodes + helpers.load(Ordering::Relaxed),
            Threads::Alone | Threads::Helper(_) => self.nodes,
        }
    }

    /// Time since the clock started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the limits leave the search unbounded (only the stop flag ends it).
    pub(crate) fn unbounded(limits: &Limits) -> bool {
        limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none()
    }

    /// Whether the stop flag is set.
    pub(crate) fn flag_set(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}
