//! Request bodies, bounded before tonic buffers them.
//!
//! tonic reads a message's 5-byte gRPC prefix and reserves a buffer of the
//! length it announces, so a stream that sends only the prefix pins that
//! much. This layer reads the same prefixes as the bytes pass: a message
//! longer than its RPC's limit ([`message_limit`]) is refused before tonic
//! sees its prefix, and one longer than [`UNBUDGETED`] that fits is admitted
//! only if its length fits in the budget of request bytes being received
//! ([`Budget`]), which it holds until its last byte arrives. A request must also arrive in time: a unary
//! or server-streaming call's whole body (message and end of stream) within
//! the timeout from the call's start; in a client-streaming call (server
//! reflection), the first message likewise and each later one from its
//! first byte. Every refusal is `RESOURCE_EXHAUSTED`.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Request, Response};
use http_body::{Body as HttpBody, Frame, SizeHint};
use prost::bytes::{Buf, Bytes};
use tokio::time::Sleep;
use tonic::body::Body;
use tonic::Status;
use tower::{Layer, Service};

use super::TransportLimits;
use crate::metrics;

/// The largest request message of any RPC (a game record for `Review` and
/// `Replay`).
pub const LARGEST_MESSAGE_LIMIT: usize = 512 << 10;

/// Messages up to this long take nothing of the budget: tonic's receive
/// buffer starts at this size whatever the message, so they cost no more
/// than any call does (and calls are bounded by `--max-calls`).
pub const UNBUDGETED: usize = 8 << 10;

/// The largest request message of the RPC at `path`: a position with a long
/// repetition history fits in 256 KiB, a record of the longest reviewable
/// game in 512 KiB, a health check's service name in 1 KiB.
pub fn message_limit(path: &str) -> usize {
    if matches!(
        path,
        "/caber.v1.GameEngine/Review" | "/caber.v1.GameEngine/Replay"
    ) {
        LARGEST_MESSAGE_LIMIT
    } else if path.starts_with("/caber.v1.") {
        256 << 10
    } else if path.starts_with("/grpc.reflection.") {
        8 << 10
    } else {
        1 << 10
    }
}

/// Whether the RPC at `path` takes a stream of request messages.
fn client_streaming(path: &str) -> bool {
    path.starts_with("/grpc.reflection.")
}

/// The request bytes all calls may be receiving at once.
#[derive(Debug)]
pub struct Budget {
    left: AtomicUsize,
    total: usize,
}

impl Budget {
    /// A budget of `total` bytes.
    pub fn new(total: usize) -> Arc<Self> {
        Arc::new(Self {
            left: AtomicUsize::new(total),
            total,
        })
    }

    /// Bytes not held by any message.
    pub fn left(&self) -> usize {
        self.left.load(Ordering::Relaxed)
    }

    /// Holds `n` bytes until the returned guard is dropped, if that many are left.
    fn take(self: &Arc<Self>, n: usize) -> Option<Held> {
        self.left
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| {
                left.checked_sub(n)
            })
            .ok()?;
        metrics::global().request_bytes_held(n as i64);
        Some(Held {
            budget: self.clone(),
            n,
        })
    }
}

/// Bytes held of a [`Budget`], given back when dropped.
#[derive(Debug)]
struct Held {
    budget: Arc<Budget>,
    n: usize,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.budget.left.fetch_add(self.n, Ordering::AcqRel);
        metrics::global().request_bytes_held(-(self.n as i64));
    }
}

/// The layer: see the module documentation.
#[derive(Clone, Debug)]
pub struct RequestBodyLayer {
    budget: Arc<Budget>,
    max_message: usize,
    timeout: Duration,
}

impl RequestBodyLayer {
    /// The layer for `limits`.
    pub fn new(limits: &TransportLimits) -> Self {
        Self {
            budget: Budget::new(limits.request_memory),
            max_message: limits.max_message_bytes,
            timeout: limits.request_timeout,
        }
    }
}

impl<S> Layer<S> for RequestBodyLayer {
    type Service = RequestBodyService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        RequestBodyService {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service made by [`RequestBodyLayer`].
#[derive(Clone, Debug)]
pub struct RequestBodyService<S> {
    inner: S,
    layer: RequestBodyLayer,
}

impl<S, B> Service<Request<Body>> for RequestBodyService<S>
where
    S: Service<Request<Body>, Response = Response<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let path = request.uri().path();
        let limits = Limits {
            message: message_limit(path).min(self.layer.max_message),
            budget: self.layer.budget.clone(),
            timeout: self.layer.timeout,
            per_message: client_streaming(path),
        };
        let request = request.map(|body| Body::new(LimitedBody::new(body, limits)));
        self.inner.call(request)
    }
}

/// One call's limits.
#[derive(Debug)]
struct Limits {
    message: usize,
    budget: Arc<Budget>,
    timeout: Duration,
    /// Whether the timeout runs per message (client streaming) rather than
    /// for the whole body.
    per_message: bool,
}

/// A request body that reads the gRPC message prefixes as they pass.
struct LimitedBody {
    inner: Body,
    limits: Limits,
    /// The prefix of the message being received, and how much of it came.
    prefix: [u8; 5],
    prefix_len: usize,
    /// Bytes of the message being received still to come.
    remaining: usize,
    held: Option<Held>,
    /// Runs while the body (or, client streaming, a message) is due.
    timer: Option<Pin<Box<Sleep>>>,
    done: bool,
}

impl LimitedBody {
    fn new(inner: Body, limits: Limits) -> Self {
        let timer = Some(Box::pin(tokio::time::sleep(limits.timeout)));
        Self {
            inner,
            limits,
            prefix: [0; 5],
            prefix_len: 0,
            remaining: 0,
            held: None,
            timer,
            done: false,
        }
    }

    /// Follows the messages through `data`; refuses a message too long for
    /// its RPC or for the budget.
    fn scan(&mut self, mut data: &[u8]) -> Result<(), Status> {
        while !data.is_empty() {
            if self.remaining > 0 {
                let n = self.remaining.min(data.len());
                self.remaining -= n;
                data.advance(n);
                if self.remaining == 0 {
                    self.message_received();
                }
                continue;
            }
            if self.prefix_len == 0 && self.timer.is_none() {
                self.timer = Some(Box::pin(tokio::time::sleep(self.limits.timeout)));
            }
            let n = (5 - self.prefix_len).min(data.len());
            self.prefix[self.prefix_len..self.prefix_len + n].copy_from_slice(&data[..n]);
            self.prefix_len += n;
            data.advance(n);
            if self.prefix_len < 5 {
                continue;
            }
            self.prefix_len = 0;
            let len = u32::from_be_bytes([
                self.prefix[1],
                self.prefix[2],
                self.prefix[3],
                self.prefix[4],
            ]) as usize;
            if len > self.limits.message {
                return Err(Status::resource_exhausted(format!(
                    "request: a message of {len} bytes; this method takes at most {}",
                    self.limits.message
                )));
            }
            if len == 0 {
                self.message_received();
                continue;
            }
            self.remaining = len;
            if len <= UNBUDGETED {
                continue;
            }
            self.held = Some(self.limits.budget.take(len).ok_or_else(|| {
                Status::resource_exhausted(format!(
                    "server busy: the request messages being received fill the server's \
                     {} bytes for them (--max-request-memory-bytes); retry later",
                    self.limits.budget.total
                ))
            })?);
        }
        Ok(())
    }

    /// The message being received is complete: its bytes go back to the
    /// budget, and in a client stream its timer stops.
    fn message_received(&mut self) {
        self.held = None;
        if self.limits.per_message {
            self.timer = None;
        }
    }

    /// Ends the body with `status`.
    fn fail(&mut self, status: Status) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        metrics::global().request_refused();
        self.done = true;
        self.held = None;
        self.timer = None;
        Poll::Ready(Some(Err(status)))
    }
}

impl HttpBody for LimitedBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    if let Err(status) = this.scan(data) {
                        return this.fail(status);
                    }
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(None) => {
                this.done = true;
                this.held = None;
                this.timer = None;
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(status))) => {
                this.done = true;
                Poll::Ready(Some(Err(status)))
            }
            Poll::Pending => {
                let expired = this
                    .timer
                    .as_mut()
                    .is_some_and(|t| t.as_mut().poll(cx).is_ready());
                if !expired {
                    return Poll::Pending;
                }
                let timeout = this.limits.timeout.as_millis();
                this.fail(Status::resource_exhausted(format!(
                    "request: not received within {timeout} ms (--request-timeout-ms)"
                )))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(message: usize, budget: &Arc<Budget>) -> Limits {
        Limits {
            message,
            budget: budget.clone(),
            timeout: Duration::from_secs(10),
            per_message: false,
        }
    }

    fn prefix(len: u32) -> Vec<u8> {
        let mut p = vec![0];
        p.extend_from_slice(&len.to_be_bytes());
        p
    }

    /// Bytes in units of [`UNBUDGETED`]: `n` units.
    fn units(n: usize) -> usize {
        n * UNBUDGETED
    }

    #[tokio::test]
    async fn a_message_holds_its_length_of_the_budget_until_it_has_arrived() {
        let budget = Budget::new(units(100));
        let mut body = LimitedBody::new(Body::empty(), limits(units(80), &budget));
        // The prefix in two pieces, then the message in two.
        let p = prefix(units(60) as u32);
        body.scan(&p[..3]).unwrap();
        assert_eq!(budget.left(), units(100));
        body.scan(&p[3..]).unwrap();
        assert_eq!(budget.left(), units(40));
        body.scan(&vec![7; units(60) - 1]).unwrap();
        assert_eq!(budget.left(), units(40));
        // The last byte of the message and the next message's prefix.
        let mut next = vec![7];
        next.extend(prefix(units(30) as u32));
        body.scan(&next).unwrap();
        assert_eq!(budget.left(), units(70));
        drop(body);
        assert_eq!(
            budget.left(),
            units(100),
            "a dropped body gives its bytes back"
        );
    }

    #[tokio::test]
    async fn a_small_message_takes_nothing_of_the_budget() {
        let budget = Budget::new(units(2));
        let mut body = LimitedBody::new(Body::empty(), limits(units(80), &budget));
        body.scan(&prefix(UNBUDGETED as u32)).unwrap();
        assert_eq!(budget.left(), units(2));
        body.scan(&vec![0; UNBUDGETED]).unwrap();
        body.scan(&prefix(UNBUDGETED as u32 + 1)).unwrap();
        assert_eq!(budget.left(), units(1) - 1);
    }

    #[tokio::test]
    async fn a_message_too_long_for_its_method_or_the_budget_is_refused() {
        let budget = Budget::new(units(100));
        let mut body = LimitedBody::new(Body::empty(), limits(units(80), &budget));
        let status = body.scan(&prefix(units(80) as u32 + 1)).unwrap_err();
        assert_eq!(status.code(), tonic::Code::ResourceExhausted);
        assert!(
            status
                .message()
                .contains(&format!("takes at most {}", units(80))),
            "{status:?}"
        );
        let mut first = LimitedBody::new(Body::empty(), limits(units(80), &budget));
        first.scan(&prefix(units(80) as u32)).unwrap();
        let mut second = LimitedBody::new(Body::empty(), limits(units(80), &budget));
        let status = second.scan(&prefix(units(21) as u32)).unwrap_err();
        assert_eq!(status.code(), tonic::Code::ResourceExhausted);
        assert!(status.message().contains("server busy"), "{status:?}");
        assert!(
            second.scan(&prefix(units(20) as u32)).is_ok(),
            "what is left can be held"
        );
    }

    #[test]
    fn every_rpc_has_a_limit_and_health_the_smallest() {
        assert_eq!(message_limit("/grpc.health.v1.Health/Check"), 1024);
        assert_eq!(
            message_limit("/caber.v1.GameEngine/Review"),
            LARGEST_MESSAGE_LIMIT
        );
        assert_eq!(message_limit("/caber.v1.GameEngine/Apply"), 256 << 10);
        assert!(client_streaming(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
        ));
    }
}
