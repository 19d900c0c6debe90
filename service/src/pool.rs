//! A dedicated pool of OS threads for engine work (searches, perft).
//!
//! Engine work never runs on the async runtime's threads nor on its blocking
//! pool: `threads` workers take jobs from a channel. At most `capacity` jobs
//! are admitted at once (running or waiting for a worker); beyond that
//! [`SearchPool::admit`] refuses at once instead of queueing without bound.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

/// A job for a worker thread.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// The pool: worker threads fed by a channel, and an admission count.
#[derive(Clone, Debug)]
pub struct SearchPool {
    jobs: mpsc::Sender<Job>,
    admitted: Arc<AtomicUsize>,
    capacity: usize,
}

/// A place in the pool, held from admission until the job has finished on its
/// worker (or was never started); dropping it frees the place.
#[derive(Debug)]
pub struct Admission {
    admitted: Arc<AtomicUsize>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.admitted.fetch_sub(1, Ordering::SeqCst);
        crate::metrics::global().search_running(-1);
    }
}

impl SearchPool {
    /// Starts `threads` workers (at least one) admitting at most `capacity`
    /// jobs at once (at least one). The workers end when every handle is dropped.
    pub fn new(threads: usize, capacity: usize) -> Self {
        let threads = threads.max(1);
        let (jobs, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for i in 0..threads {
            let receiver = receiver.clone();
            thread::Builder::new()
                .name(format!("caber-search-{i}"))
                .spawn(move || loop {
                    // The lock is held only while waiting for the next job.
                    let job = match receiver.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                })
                .expect("cannot start a search thread");
        }
        Self {
            jobs,
            admitted: Arc::new(AtomicUsize::new(0)),
            capacity: capacity.max(1),
        }
    }

    /// A pool sized for this machine: one worker per available core, as many places.
    pub fn for_this_machine() -> Self {
        let n = thread::available_parallelism().map_or(1, |n| n.get());
        Self::new(n, n)
    }

    /// Jobs admitted and not finished (running or waiting for a worker).
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::SeqCst)
    }

    /// The most jobs admitted at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Takes a place if one is free; `None` when `capacity` jobs are already admitted.
    pub fn admit(&self) -> Option<Admission> {
        self.admitted
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.capacity).then_some(n + 1)
            })
            .ok()
            .map(|_| {
                crate::metrics::global().search_running(1);
                Admission {
                    admitted: self.admitted.clone(),
                }
            })
    }

    /// Runs `work` on a worker and returns its result; the place is freed when
    /// the work has finished. `None` if the worker panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        admission: Admission,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            // The place is free before the caller hears of the result.
            drop(admission);
            if let Ok(value) = result {
                let _ = tx.send(value);
            }
        });
        self.jobs.send(job).ok()?;
        rx.await.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_a_pool_thread_and_places_are_bounded() {
        let pool = SearchPool::new(1, 2);
        let a = pool.admit().expect("first place");
        let b = pool.admit().expect("second place");
        assert!(pool.admit().is_none(), "a third job is refused");
        assert_eq!(pool.admitted(), 2);
        let name = pool
            .run(a, || thread::current().name().map(str::to_string))
            .await;
        assert_eq!(name, Some(Some("caber-search-0".to_string())));
        assert_eq!(pool.admitted(), 1, "the finished job freed its place");
        drop(b);
        assert_eq!(pool.admitted(), 0);
        assert!(pool.admit().is_some());
    }

    #[tokio::test]
    async fn a_panicking_job_frees_its_place_and_the_worker_survives() {
        let pool = SearchPool::new(1, 1);
        let result: Option<()> = pool.run(pool.admit().unwrap(), || panic!("boom")).await;
        assert_eq!(result, None);
        assert_eq!(pool.admitted(), 0);
        assert_eq!(pool.run(pool.admit().unwrap(), || 7).await, Some(7));
    }
}
