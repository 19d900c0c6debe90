//! Server streams (`Analyze`, `Review`) fed by a task through a small
//! buffer. A client that stops reading must not hold the task, or anything
//! the task holds, for as long as it stays connected: a send waits at most
//! [`SEND_TIMEOUT`], and a stream the task gave up on ends with an error
//! status after the updates already buffered, never as if it were complete.

use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_stream::Stream;
use tonic::Status;

/// The longest a stream's task waits for the client to take an update.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// A stream's sending end and its receiving end (the response body), with
/// room for `buffer` updates.
pub fn channel<T>(buffer: usize) -> (Updater<T>, Updates<T>) {
    let (tx, rx) = mpsc::channel(buffer);
    let gave_up = Arc::new(OnceLock::new());
    (
        Updater {
            tx,
            gave_up: gave_up.clone(),
        },
        Updates {
            rx,
            gave_up,
            ended: false,
        },
    )
}

/// Why an update was not sent.
#[derive(Debug, PartialEq, Eq)]
pub enum NotSent {
    /// The client went away.
    Gone,
    /// The buffer is full (only from [`Updater::try_send`]).
    Full,
    /// The client did not take it within [`SEND_TIMEOUT`]: the stream ends.
    Stalled,
}

/// The sending end of a stream.
#[derive(Debug)]
pub struct Updater<T> {
    tx: mpsc::Sender<Result<T, Status>>,
    gave_up: Arc<OnceLock<Status>>,
}

impl<T> Clone for Updater<T> {
    fn clone(&self) -> Self {
        Self {
            tx: self.tx.clone(),
            gave_up: self.gave_up.clone(),
        }
    }
}

impl<T> Updater<T> {
    /// Sends `item`, waiting at most [`SEND_TIMEOUT`] for room: a client
    /// that takes nothing for that long gets its stream ended.
    pub async fn send(&self, item: Result<T, Status>) -> Result<(), NotSent> {
        match self.tx.send_timeout(item, SEND_TIMEOUT).await {
            Ok(()) => Ok(()),
            Err(mpsc::error::SendTimeoutError::Closed(_)) => Err(NotSent::Gone),
            Err(mpsc::error::SendTimeoutError::Timeout(_)) => {
                let _ = self.gave_up.set(Status::resource_exhausted(format!(
                    "the client read nothing of this stream for {} ms: stopped",
                    SEND_TIMEOUT.as_millis()
                )));
                Err(NotSent::Stalled)
            }
        }
    }

    /// Sends `item` if there is room now.
    pub fn try_send(&self, item: Result<T, Status>) -> Result<(), NotSent> {
        self.tx.try_send(item).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => NotSent::Full,
            mpsc::error::TrySendError::Closed(_) => NotSent::Gone,
        })
    }

    /// Completes when the client has gone away.
    pub async fn closed(&self) {
        self.tx.closed().await
    }
}

/// The receiving end: the updates sent, then the error the sender gave up
/// with, if it did.
#[derive(Debug)]
pub struct Updates<T> {
    rx: mpsc::Receiver<Result<T, Status>>,
    gave_up: Arc<OnceLock<Status>>,
    ended: bool,
}

impl<T> Stream for Updates<T> {
    type Item = Result<T, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(None) => {
                self.ended = true;
                Poll::Ready(self.gave_up.get().cloned().map(Err))
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_stream::StreamExt;

    #[tokio::test(start_paused = true)]
    async fn a_stalled_stream_ends_with_an_error_after_what_was_buffered() {
        let (tx, mut rx) = channel::<u32>(1);
        assert_eq!(tx.send(Ok(1)).await, Ok(()));
        assert_eq!(tx.send(Ok(2)).await, Err(NotSent::Stalled));
        drop(tx);
        assert_eq!(rx.next().await.map(|r| r.ok()), Some(Some(1)));
        let end = rx.next().await.expect("an error").unwrap_err();
        assert_eq!(end.code(), tonic::Code::ResourceExhausted);
        assert!(rx.next().await.is_none());
    }

    #[tokio::test]
    async fn a_finished_stream_ends_cleanly() {
        let (tx, rx) = channel::<u32>(4);
        tx.send(Ok(1)).await.unwrap();
        assert_eq!(tx.try_send(Ok(2)), Ok(()));
        drop(tx);
        let all: Vec<_> = rx.map(|r| r.unwrap()).collect().await;
        assert_eq!(all, vec![1, 2]);
    }
}
