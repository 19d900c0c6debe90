//! A tower layer around the whole server: one log line and the metrics of
//! every call, the count of API calls in flight (for the graceful shutdown),
//! the bearer-token check (only for the `caber.v1` API: health and
//! reflection stay open), and a bound on every status message: the handlers
//! quote client values by a short prefix, and a message that is still longer
//! than [`MAX_STATUS_MESSAGE`] is cut here, so that no reply and no log line
//! grows with a request, whatever the error path.
//!
//! A call ends when its response body ends (the status comes in the trailers,
//! or in the headers of an error), or when the client goes away (logged as
//! `CANCELLED`); streaming calls are thus timed to their last message.

use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Instant;

use caber_engine::quote;
use http::{HeaderMap, Request, Response};
use http_body::{Body as HttpBody, Frame, SizeHint};
use prost::Message;
use prost_types::FileDescriptorSet;
use tonic::body::Body;
use tonic::{Code, Status};
use tower::{Layer, Service};

use crate::auth::Token;
use crate::errors;
use crate::metrics::{self, code_name};
use crate::transport::connections::{CallOnConnection, ConnectionInfo};

/// The path prefix of the calls that need the token and are counted in flight.
const API_PREFIX: &str = "/caber.v1.";

/// The longest status message a reply carries, in bytes.
pub const MAX_STATUS_MESSAGE: usize = 1024;

/// `message` cut to at most [`MAX_STATUS_MESSAGE`] bytes (at a character
/// boundary), saying how long it was.
pub fn bounded(message: &str) -> std::borrow::Cow<'_, str> {
    if message.len() <= MAX_STATUS_MESSAGE {
        return message.into();
    }
    let tail = format!("... (status message cut: {} bytes)", message.len());
    let mut cut = MAX_STATUS_MESSAGE - tail.len();
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}{tail}", &message[..cut]).into()
}

/// Cuts the status message in `headers` (a reply's headers or trailers) to
/// [`bounded`]'s length, keeping its code and details, and gives an
/// `INVALID_ARGUMENT` the `BadRequest` field violation its message names
/// ([`errors::with_field_violation`]): every call's status passes here.
fn bound_status(headers: &mut HeaderMap) {
    let long = headers
        .get("grpc-message")
        .is_some_and(|m| m.len() > MAX_STATUS_MESSAGE);
    let invalid = headers
        .get("grpc-status")
        .is_some_and(|c| c.as_bytes() == b"3")
        && !headers.contains_key("grpc-status-details-bin");
    if !long && !invalid {
        return;
    }
    if let Some(status) = Status::from_header_map(headers) {
        let message = bounded(status.message()).into_owned();
        let cut = Status::with_details(status.code(), message, status.details().to_vec().into());
        // An INVALID_ARGUMENT's field as a BadRequest violation too.
        if errors::with_field_violation(cut)
            .add_header(headers)
            .is_err()
        {
            headers.remove("grpc-message");
        }
    }
}

/// State shared by the layer and the server's owner: the API calls in
/// flight, and all calls (health and reflection too) against `--max-calls`.
#[derive(Debug, Default)]
pub struct CallGate {
    in_flight: AtomicUsize,
    calls: AtomicUsize,
    idle: tokio::sync::Notify,
}

impl CallGate {
    /// API calls in progress.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// Completes when no API call is in progress.
    pub async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            if self.in_flight() == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// The game a call is about, set by the handler for the log line.
#[derive(Clone, Debug, Default)]
pub struct CallGame(Arc<OnceLock<String>>);

impl CallGame {
    /// Notes the call's game (the first note wins); a name that is no
    /// registered game is logged as [`quote()`] gives it, escaped and bounded.
    pub fn set(&self, game: &str) {
        let name = match crate::games::game_named(game, "game") {
            Ok(g) => g.name().to_string(),
            Err(_) if game.is_empty() => String::new(),
            Err(_) => quote(game).to_string(),
        };
        let _ = self.0.set(name);
    }
}

/// When a call reached the server (a request extension): a call's deadline
/// counts from here, not from when its handler runs.
#[derive(Clone, Copy, Debug)]
pub struct Arrival(pub Instant);

impl Arrival {
    /// When `request` arrived (now, outside the server).
    pub fn of<T>(request: &tonic::Request<T>) -> Instant {
        request
            .extensions()
            .get::<Arrival>()
            .map_or_else(Instant::now, |a| a.0)
    }
}

/// Notes `game` on the call of `request`, for its log line (a no-op outside the server).
pub fn note_game<T>(request: &tonic::Request<T>, game: &str) {
    if let Some(note) = request.extensions().get::<CallGame>() {
        note.set(game);
    }
}

/// The layer: see the module documentation.
#[derive(Clone, Debug)]
pub struct CallLayer {
    gate: Arc<CallGate>,
    token: Option<Token>,
    max_calls: usize,
}

impl CallLayer {
    /// A layer counting calls in `gate`, refusing one beyond `max_calls` in
    /// progress, and checking `token` (if any) on API calls.
    pub fn new(gate: Arc<CallGate>, token: Option<Token>, max_calls: usize) -> Self {
        // The method table is built now rather than on the first call.
        known_method("");
        Self {
            gate,
            token,
            max_calls: max_calls.max(1),
        }
    }
}

impl<S> Layer<S> for CallLayer {
    type Service = CallService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        CallService {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service made by [`CallLayer`].
#[derive(Clone, Debug)]
pub struct CallService<S> {
    inner: S,
    layer: CallLayer,
}

/// One call being watched: logged and counted once, when dropped.
#[derive(Debug)]
struct Call {
    method: Method,
    game: CallGame,
    start: Instant,
    code: Option<Code>,
    message: String,
    gate: Arc<CallGate>,
    api: bool,
    /// The call on its connection, which is not idle while it lasts.
    _on_connection: Option<CallOnConnection>,
}

impl Call {
    fn start(
        method: Method,
        gate: Arc<CallGate>,
        api: bool,
        on_connection: Option<CallOnConnection>,
    ) -> Self {
        metrics::global().call_started();
        gate.calls.fetch_add(1, Ordering::SeqCst);
        if api {
            gate.in_flight.fetch_add(1, Ordering::SeqCst);
        }
        Self {
            method,
            game: CallGame::default(),
            start: Instant::now(),
            code: None,
            message: String::new(),
            gate,
            api,
            _on_connection: on_connection,
        }
    }

    /// Takes the status from `grpc-status` / `grpc-message` if present.
    fn read_status(&mut self, headers: &HeaderMap) {
        if let Some(code) = headers.get("grpc-status") {
            let code = code.to_str().ok().and_then(|c| c.parse::<i32>().ok());
            self.code = Some(code.map_or(Code::Unknown, Code::from_i32));
            if let Some(m) = headers.get("grpc-message") {
                self.message = String::from_utf8_lossy(m.as_bytes()).into_owned();
            }
        }
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        let latency = self.start.elapsed();
        // No status seen: the client went away before the end of the call.
        let code = self.code.unwrap_or(Code::Cancelled);
        metrics::global().call_finished(self.method.label(), code, latency);
        let game = self.game.0.get().map_or("", String::as_str);
        let latency_ms = latency.as_micros() as f64 / 1000.0;
        let status = code_name(code);
        if code == Code::Ok {
            tracing::info!(method = %self.method, game, status, latency_ms, "call");
        } else {
            let error = percent_decode(&self.message);
            tracing::info!(method = %self.method, game, status, latency_ms, error, "call");
        }
        self.gate.calls.fetch_sub(1, Ordering::SeqCst);
        if self.api && self.gate.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.gate.idle.notify_waiters();
        }
    }
}

/// A call's method: one the server serves (its path), or a path the client
/// made up (logged quoted, labelled `unknown` in metrics).
#[derive(Debug)]
enum Method {
    Known(String),
    Unknown(String),
}

impl Method {
    /// The metrics label: only served methods are labelled by name, so a
    /// client cannot add label values.
    fn label(&self) -> &str {
        match self {
            Method::Known(path) => path,
            Method::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Known(path) | Method::Unknown(path) => f.write_str(path),
        }
    }
}

/// Whether `path` is a method the server serves (the API, health checking,
/// reflection), as their descriptor sets list them.
fn known_method(path: &str) -> bool {
    static KNOWN: OnceLock<HashSet<String>> = OnceLock::new();
    KNOWN
        .get_or_init(|| {
            let sets = [
                crate::proto::FILE_DESCRIPTOR_SET,
                tonic_health::pb::FILE_DESCRIPTOR_SET,
                tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            ];
            let mut known = HashSet::new();
            for set in sets {
                let set = FileDescriptorSet::decode(set).expect("compiled-in descriptor sets");
                for file in set.file {
                    for service in &file.service {
                        for method in &service.method {
                            known.insert(format!(
                                "/{}.{}/{}",
                                file.package(),
                                service.name(),
                                method.name()
                            ));
                        }
                    }
                }
            }
            known
        })
        .contains(path)
}

/// Decodes the percent-encoding of a `grpc-message` header.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A response body that logs and counts its call with the status it carries.
#[derive(Debug)]
pub struct CallBody {
    inner: Body,
    call: Option<Call>,
}

impl HttpBody for CallBody {
    type Data = <Body as HttpBody>::Data;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        let mut polled = Pin::new(&mut this.inner).poll_frame(cx);
        match &mut polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(trailers) = frame.trailers_mut() {
                    bound_status(trailers);
                    if let Some(call) = this.call.as_mut() {
                        call.read_status(trailers);
                    }
                }
            }
            Poll::Ready(Some(Err(status))) => {
                if status.message().len() > MAX_STATUS_MESSAGE {
                    let message = bounded(status.message()).into_owned();
                    *status = Status::new(status.code(), message);
                }
                if let Some(call) = this.call.as_mut() {
                    call.code = Some(status.code());
                    call.message = status.message().to_string();
                }
            }
            Poll::Ready(None) => this.call = None,
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A response carrying `status` and no message.
fn refuse(status: Status, mut call: Call) -> Response<CallBody> {
    call.code = Some(status.code());
    call.message = status.message().to_string();
    let (parts, body) = status.into_http::<Body>().into_parts();
    Response::from_parts(
        parts,
        CallBody {
            inner: body,
            call: Some(call),
        },
    )
}

type BoxFuture<T, E> = Pin<Box<dyn Future<Output = Result<T, E>> + Send>>;

impl<S> Service<Request<Body>> for CallService<S>
where
    S: Service<Request<Body>, Response = Response<Body>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response<CallBody>;
    type Error = S::Error;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<Body>) -> Self::Future {
        request.extensions_mut().insert(Arrival(Instant::now()));
        let path = request.uri().path();
        let api = path.starts_with(API_PREFIX);
        let method = match known_method(path) {
            true => Method::Known(path.to_string()),
            false => Method::Unknown(quote(path).to_string()),
        };
        let on_connection = ConnectionInfo::of(&request).map(ConnectionInfo::call_started);
        let call = Call::start(method, self.layer.gate.clone(), api, on_connection);
        let calls = self.layer.gate.calls.load(Ordering::SeqCst);
        if calls > self.layer.max_calls {
            let status = Status::resource_exhausted(format!(
                "server busy: {} calls in progress, the most at once (--max-calls); retry later",
                self.layer.max_calls
            ));
            return Box::pin(std::future::ready(Ok(refuse(status, call))));
        }
        if api {
            if let Some(token) = &self.layer.token {
                let header = request.headers().get("authorization").map(|v| v.as_bytes());
                if let Err(status) = token.check(header) {
                    return Box::pin(std::future::ready(Ok(refuse(status, call))));
                }
            }
        }
        request.extensions_mut().insert(call.game.clone());
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            let mut call = call;
            let response = inner.call(request).await?;
            let (mut parts, body) = response.into_parts();
            bound_status(&mut parts.headers);
            call.read_status(&parts.headers);
            Ok(Response::from_parts(
                parts,
                CallBody {
                    inner: body,
                    call: Some(call),
                },
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_status_message_is_cut_in_the_reply_keeping_its_code() {
        let long = format!("field: {}", "é".repeat(5000));
        let mut headers = HeaderMap::new();
        Status::invalid_argument(long.clone())
            .add_header(&mut headers)
            .unwrap();
        bound_status(&mut headers);
        let status = Status::from_header_map(&headers).unwrap();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert!(
            status.message().len() <= MAX_STATUS_MESSAGE,
            "{}",
            status.message().len()
        );
        assert!(status.message().starts_with("field: é"));
        assert!(status
            .message()
            .ends_with(&format!("(status message cut: {} bytes)", long.len())));
        assert_eq!(bounded("short"), "short");
    }

    #[test]
    fn grpc_messages_are_percent_decoded() {
        assert_eq!(percent_decode("a%20b%3A c%"), "a b: c%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }
}
