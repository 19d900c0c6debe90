//! Node counting and the stop conditions of a search: the stop flag, the node
//! budget, the time budget, and when a progress report is due. In a parallel
//! search every thread adds its nodes to a shared counter as it goes, and the
//! node budget is the counter's.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Limits;

/// How many alpha-beta nodes pass between two reads of the wall clock: a
/// node takes well under a microsecond, so the clock is read about every
/// 0.1 ms, and reading it costs under 1% of the search.
const TIME_CHECK_INTERVAL: u64 = 256;

/// Counts nodes and decides when a search must stop.
///
/// The stop flag is read at every node (a relaxed atomic load), so a search
/// stops within a few nodes of the flag being set; the wall clock is read
/// every [`TIME_CHECK_INTERVAL`] nodes, or at every node of a clock made
/// [`Clock::per_playout`] (a Monte Carlo playout can take 0.1 ms and more).
pub(crate) struct Clock<'a> {
    start: Instant,
    stop: &'a AtomicBool,
    node_limit: Option<u64>,
    /// When the time budget runs out (movetime and deadline).
    ends: Option<Instant>,
    report_every: Option<Duration>,
    last_report: Duration,
    /// Whether the node and time budgets apply (the stop flag always does).
    enforce_budgets: bool,
    nodes: u64,
    stopped: bool,
    report_due: bool,
    /// The nodes of every thread of a parallel search.
    shared: Option<&'a AtomicU64>,
    /// Nodes between two reads of the wall clock, less one (a power of two less one).
    check_mask: u64,
}

impl<'a> Clock<'a> {
    /// A clock starting now.
    pub(crate) fn new(limits: &Limits, stop: &'a AtomicBool) -> Self {
        let start = Instant::now();
        Clock {
            start,
            stop,
            node_limit: limits.nodes,
            ends: limits.ends(start),
            report_every: limits.report_every,
            last_report: Duration::ZERO,
            enforce_budgets: true,
            nodes: 0,
            stopped: false,
            report_due: false,
            shared: None,
            check_mask: TIME_CHECK_INTERVAL - 1,
        }
    }

    /// A clock starting now that reads the wall clock at every node: for
    /// searchers whose node is a whole playout.
    pub(crate) fn per_playout(limits: &Limits, stop: &'a AtomicBool) -> Self {
        Clock {
            check_mask: 0,
            ..Clock::new(limits, stop)
        }
    }

    /// A clock of one thread of a parallel search: it adds its nodes to
    /// `shared`, which its node count and node budget are.
    pub(crate) fn shared(limits: &Limits, stop: &'a AtomicBool, shared: &'a AtomicU64) -> Self {
        Clock {
            shared: Some(shared),
            ..Clock::new(limits, stop)
        }
    }

    /// Adds the nodes not yet added to the shared counter (at the end of a
    /// thread's search).
    pub(crate) fn publish(&mut self) {
        if let Some(shared) = self.shared {
            shared.fetch_add(self.nodes & self.check_mask, Ordering::Relaxed);
            self.nodes -= self.nodes & self.check_mask;
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
        let next = self.nodes + 1;
        if next & self.check_mask == 0 {
            let now = Instant::now();
            // Out of time: this node is not searched, so it is not counted.
            if self.enforce_budgets && self.ends.is_some_and(|e| now >= e) {
                self.stopped = true;
                return false;
            }
            if let Some(shared) = self.shared {
                shared.fetch_add(self.check_mask + 1, Ordering::Relaxed);
            }
            self.nodes = next;
            let elapsed = now - self.start;
            if self
                .report_every
                .is_some_and(|every| elapsed >= self.last_report + every)
            {
                self.report_due = true;
            }
        } else {
            self.nodes = next;
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
                        || self.ends.is_some_and(|e| Instant::now() >= e))))
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

    /// Nodes counted so far (in a parallel search: by every thread).
    pub(crate) fn nodes(&self) -> u64 {
        match self.shared {
            Some(shared) => shared.load(Ordering::Relaxed) + (self.nodes & self.check_mask),
            None => self.nodes,
        }
    }

    /// Time since the clock started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the limits leave the search unbounded (only the stop flag ends it).
    pub(crate) fn unbounded(limits: &Limits) -> bool {
        limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.deadline.is_none()
    }

    /// Whether the stop flag is set.
    pub(crate) fn flag_set(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}
