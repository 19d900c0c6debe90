//! A dedicated pool of OS threads for engine work (searches, perft, matches).
//!
//! Engine work never runs on the async runtime's threads nor on its blocking
//! pool: `threads` workers take jobs from one queue, first come first served.
//! At most `capacity` jobs are admitted at once (running or queued); beyond
//! that [`SearchPool::submit`] refuses at once instead of queueing without
//! bound. Every job comes with a [`Bound`] on its run time, so the pool knows
//! when each worker frees up at the latest: a job that must start by some
//! instant (a call's deadline) is refused at once when the jobs ahead of it
//! could keep every worker busy past that instant.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// What a job may overrun its bound by: the time a searcher takes to notice
/// its clock, and to write its report.
pub const OVERRUN: Duration = Duration::from_millis(10);

/// An upper bound on a job's run time, from the moment it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The longest the job runs once started.
    pub run: Duration,
    /// An instant by which the job ends whenever it starts (a call's deadline).
    pub ends_by: Option<Instant>,
}

impl Bound {
    /// When a job started at `start` has ended at the latest (a bound of
    /// more than a year, as a search without caps has, counts as a year).
    fn end(&self, start: Instant) -> Instant {
        const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);
        let run = match self.ends_by {
            Some(end) => self.run.min(end.saturating_duration_since(start)),
            None => self.run,
        };
        start + run.min(YEAR) + OVERRUN
    }
}

/// Why a job was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// `capacity` jobs are admitted already.
    Full {
        /// The most jobs admitted at once.
        capacity: usize,
    },
    /// No worker is sure to be free before the job's latest start.
    TooLate {
        /// When a worker is sure to be free, from now.
        wait: Duration,
    },
}

/// A job for a worker: runs the work and hands back the delivery of its
/// result, which the worker calls once the job's place is free.
type Job = Box<dyn FnOnce() -> Box<dyn FnOnce() + Send> + Send + 'static>;

/// The pool: worker threads fed by one queue, and the admission count.
#[derive(Clone, Debug)]
pub struct SearchPool {
    shared: Arc<Shared>,
    _owner: Arc<Owner>,
}

/// Held by every handle of a pool: the last one dropped lets the workers
/// end once the queue is empty.
#[derive(Debug)]
struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.work.notify_all();
    }
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    work: Condvar,
    capacity: usize,
}

#[derive(Default)]
struct State {
    queue: VecDeque<(Job, Bound)>,
    /// Per worker, when its running job has ended at the latest.
    busy_until: Vec<Option<Instant>>,
    admitted: usize,
    closed: bool,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("queued", &self.queue.len())
            .field("busy_until", &self.busy_until)
            .field("admitted", &self.admitted)
            .finish()
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker's loop: the next job, run, its place freed, its result delivered.
    fn work(&self, worker: usize) {
        loop {
            let (job, bound) = {
                let mut state = self.lock();
                loop {
                    if let Some(next) = state.queue.pop_front() {
                        break next;
                    }
                    if state.closed {
                        return;
                    }
                    state = self.work.wait(state).unwrap_or_else(|e| e.into_inner());
                }
            };
            self.lock().busy_until[worker] = Some(bound.end(Instant::now()));
            let deliver = job();
            {
                let mut state = self.lock();
                state.busy_until[worker] = None;
                state.admitted -= 1;
            }
            crate::metrics::global().search_running(-1);
            deliver();
        }
    }
}

impl SearchPool {
    /// Starts `threads` workers (at least one) admitting at most `capacity`
    /// jobs at once (at least one). The workers end when every handle is dropped.
    pub fn new(threads: usize, capacity: usize) -> Self {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                busy_until: vec![None; threads],
                ..State::default()
            }),
            work: Condvar::new(),
            capacity: capacity.max(1),
        });
        for worker in 0..threads {
            let shared = shared.clone();
            thread::Builder::new()
                .name(format!("caber-search-{worker}"))
                .spawn(move || shared.work(worker))
                .expect("cannot start a search thread");
        }
        Self {
            _owner: Arc::new(Owner(shared.clone())),
            shared,
        }
    }

    /// A pool sized for this machine: one worker per available core, as many places.
    pub fn for_this_machine() -> Self {
        let n = thread::available_parallelism().map_or(1, |n| n.get());
        Self::new(n, n)
    }

    /// Jobs admitted and not finished (running or queued).
    pub fn admitted(&self) -> usize {
        self.shared.lock().admitted
    }

    /// The most jobs admitted at once.
    pub fn capacity(&self) -> usize {
        self.shared.capacity
    }

    /// The number of workers.
    pub fn threads(&self) -> usize {
        self.shared.lock().busy_until.len()
    }

    /// Admits `work` and queues it, or refuses at once: when the pool is full,
    /// or when `latest_start` is given and the jobs running and queued ahead
    /// (each within its bound) could keep every worker busy past it.
    /// The future gives the work's result; `None` if the work panicked.
    pub fn submit<T: Send + 'static>(
        &self,
        bound: Bound,
        latest_start: Option<Instant>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<impl std::future::Future<Output = Option<T>>, Refused> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            Box::new(move || {
                if let Ok(value) = result {
                    let _ = tx.send(value);
                }
            })
        });
        {
            let mut state = self.shared.lock();
            if state.admitted >= self.shared.capacity {
                return Err(Refused::Full {
                    capacity: self.shared.capacity,
                });
            }
            let now = Instant::now();
            if let Some(latest) = latest_start {
                let start = earliest_start(&state, now);
                if start > latest {
                    return Err(Refused::TooLate { wait: start - now });
                }
            }
            state.admitted += 1;
            state.queue.push_back((job, bound));
        }
        crate::metrics::global().search_running(1);
        self.shared.work.notify_one();
        Ok(async move { rx.await.ok() })
    }
}

/// When a job queued now starts at the latest: the workers take the queued
/// jobs in order, each as soon as one is free, every job running to its bound.
fn earliest_start(state: &State, now: Instant) -> Instant {
    let mut free: Vec<Instant> = state
        .busy_until
        .iter()
        .map(|b| b.map_or(now, |t| t.max(now)))
        .collect();
    for (_, bound) in &state.queue {
        let (i, start) = free
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|&(_, t)| t)
            .expect("at least one worker");
        free[i] = bound.end(start);
    }
    free.into_iter().min().expect("at least one worker")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    const LONG: Bound = Bound {
        run: Duration::from_secs(60),
        ends_by: None,
    };

    #[tokio::test]
    async fn work_runs_on_a_pool_thread_and_places_are_bounded() {
        let pool = SearchPool::new(1, 2);
        let (release, hold) = mpsc::channel::<()>();
        let first = pool
            .submit(LONG, None, move || {
                let _ = hold.recv();
                thread::current().name().map(str::to_string)
            })
            .expect("first place");
        let second = pool.submit(LONG, None, || 7).expect("second place");
        assert_eq!(
            pool.submit(LONG, None, || 0).err(),
            Some(Refused::Full { capacity: 2 }),
            "a third job is refused"
        );
        assert_eq!(pool.admitted(), 2);
        release.send(()).unwrap();
        assert_eq!(first.await, Some(Some("caber-search-0".to_string())));
        assert_eq!(second.await, Some(7));
        assert_eq!(pool.admitted(), 0, "finished jobs free their places");
        assert!(pool.submit(LONG, None, || ()).is_ok());
    }

    #[tokio::test]
    async fn a_panicking_job_frees_its_place_and_the_worker_survives() {
        let pool = SearchPool::new(1, 1);
        let result: Option<()> = pool.submit(LONG, None, || panic!("boom")).unwrap().await;
        assert_eq!(result, None);
        assert_eq!(pool.admitted(), 0);
        assert_eq!(pool.submit(LONG, None, || 7).unwrap().await, Some(7));
    }

    #[tokio::test]
    async fn a_job_that_could_not_start_in_time_is_refused_at_once() {
        let pool = SearchPool::new(1, 3);
        let (release, hold) = mpsc::channel::<()>();
        let second = Bound {
            run: Duration::from_millis(500),
            ends_by: None,
        };
        let running = pool
            .submit(second, None, move || {
                let _ = hold.recv();
            })
            .unwrap();
        // Wait until the worker holds it: its bound is then known.
        while pool.shared.lock().busy_until[0].is_none() {
            tokio::task::yield_now().await;
        }
        let now = Instant::now();
        // The worker is free within 510 ms: a job that must start within
        // 100 ms is refused, one that may start within 2 s is admitted.
        match pool.submit(LONG, Some(now + Duration::from_millis(100)), || ()) {
            Err(Refused::TooLate { wait }) => {
                assert!(wait <= Duration::from_millis(510), "{wait:?}")
            }
            other => panic!("expected TooLate, got {:?}", other.err()),
        }
        let queued = pool
            .submit(second, Some(now + Duration::from_secs(2)), || 3)
            .unwrap();
        // Behind both, the earliest start is about 1 s away.
        let late = pool.submit(LONG, Some(now + Duration::from_millis(900)), || ());
        assert!(matches!(late.err(), Some(Refused::TooLate { .. })));
        assert_eq!(pool.admitted(), 2, "refused jobs take no place");
        release.send(()).unwrap();
        running.await.unwrap();
        assert_eq!(queued.await, Some(3));
    }

    #[test]
    fn a_bound_with_an_end_ends_by_it() {
        let now = Instant::now();
        let bound = Bound {
            run: Duration::from_secs(10),
            ends_by: Some(now + Duration::from_secs(1)),
        };
        assert_eq!(bound.end(now), now + Duration::from_secs(1) + OVERRUN);
        assert_eq!(
            bound.end(now + Duration::from_secs(5)),
            now + Duration::from_secs(5) + OVERRUN
        );
        let unbounded = Bound {
            run: Duration::MAX,
            ends_by: None,
        };
        assert!(unbounded.end(now) > now + Duration::from_secs(3600));
    }
}
