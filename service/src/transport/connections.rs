//! Accepting connections: at most `max_connections` open at once, a pause
//! instead of a busy loop when the process runs out of file descriptors, and
//! a connection that opens no stream within `idle_timeout` closed (it never
//! sent the HTTP/2 preface, never finished a TLS handshake, or opened no
//! call). At the cap a new connection takes the place of the oldest one that
//! has opened no call yet, so that a flood of idle connections cannot keep
//! out clients that call; when every open connection has made a call, the
//! new one is closed at once. Both are logged when the cap is reached.
//! Connections that made a call stay; HTTP/2 keepalive pings close those
//! whose peer is gone.

use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{ready, Context, Poll, Waker};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;
use tokio_stream::Stream;
use tonic::transport::server::{Connected, TlsConnectInfo};

use crate::metrics;

/// How long accepting pauses when the process has no file descriptor (or
/// memory) left for a new connection.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// Least time between two warnings about refused connections.
const WARN_EVERY: Duration = Duration::from_secs(10);

/// File descriptors kept for everything but client connections (the
/// listeners, logs, the metrics port, the runtime).
pub const RESERVED_FILES: u64 = 64;

/// The process's soft limit on open files, if it has one.
pub fn file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct we own and reads nothing else.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
    }
    #[cfg(not(unix))]
    None
}

/// The connections a process may keep open within its file limit.
pub fn connections_within_file_limit(wanted: usize) -> usize {
    match file_limit() {
        Some(files) => wanted.min(files.saturating_sub(RESERVED_FILES).max(1) as usize),
        None => wanted,
    }
}

/// Accepted connections as a stream for tonic's server: capped, with the
/// idle timeout, never yielding an error (accept errors are logged and
/// waited out).
pub struct Incoming {
    listener: TcpListener,
    shared: Arc<Shared>,
    max: usize,
    idle_timeout: Duration,
    pause: Option<Pin<Box<Sleep>>>,
    /// Set while the cap is reached.
    full: Option<AtCap>,
    last_accept_warning: Option<Instant>,
}

/// What the accept loop shares with its connections.
#[derive(Default)]
struct Shared {
    open: AtomicUsize,
    /// Connections that had opened no call when accepted, oldest first
    /// (entries of connections since closed or used are skipped and pruned).
    unused: Mutex<VecDeque<Weak<Watch>>>,
}

impl Shared {
    fn unused(&self) -> std::sync::MutexGuard<'_, VecDeque<Weak<Watch>>> {
        self.unused.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes the oldest open connection that has opened no call; false if
    /// every open connection has.
    fn evict_oldest_unused(&self) -> bool {
        let mut unused = self.unused();
        while let Some(weak) = unused.pop_front() {
            if let Some(watch) = weak.upgrade() {
                if !watch.opened.load(Ordering::Relaxed) {
                    watch.evicted.store(true, Ordering::Relaxed);
                    if let Some(waker) = lock(&watch.waker).take() {
                        waker.wake();
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Notes a new connection that has opened no call yet.
    fn push_unused(&self, watch: &Arc<Watch>, max: usize) {
        let mut unused = self.unused();
        if unused.len() > 2 * max {
            unused.retain(|w| {
                w.upgrade()
                    .is_some_and(|w| !w.opened.load(Ordering::Relaxed))
            });
        }
        unused.push_back(Arc::downgrade(watch));
    }
}

/// What happened at the cap since the last warning.
struct AtCap {
    evicted: u64,
    refused: u64,
    warned: Instant,
}

impl Incoming {
    /// Accepts on `listener`, at most `max` connections open at once, each
    /// closed if it opens no stream within `idle_timeout`.
    pub fn new(listener: TcpListener, max: usize, idle_timeout: Duration) -> Self {
        Self {
            listener,
            shared: Arc::default(),
            max: max.max(1),
            idle_timeout,
            pause: None,
            full: None,
            last_accept_warning: None,
        }
    }

    /// Notes a connection evicted (`true`) or refused at the cap: a warning
    /// when the cap is reached, then at most one every [`WARN_EVERY`] with
    /// the counts.
    fn at_cap(&mut self, evicted: bool) {
        let now = Instant::now();
        let max = self.max;
        let state = self.full.get_or_insert_with(|| {
            tracing::warn!(
                max_connections = max,
                "connection limit reached: {max} connections open (--max-connections); \
                 a new connection replaces the oldest one that has made no call, \
                 or is closed when every open connection has made one"
            );
            AtCap {
                evicted: 0,
                refused: 0,
                warned: now,
            }
        });
        if evicted {
            state.evicted += 1;
            metrics::global().connection_idle_closed();
        } else {
            state.refused += 1;
            metrics::global().connection_refused();
        }
        if now.duration_since(state.warned) >= WARN_EVERY {
            tracing::warn!(
                max_connections = max,
                evicted = state.evicted,
                refused = state.refused,
                "connection limit still reached (--max-connections): in the last {} s, \
                 {} connections that made no call closed to make room, {} new ones closed",
                now.duration_since(state.warned).as_secs(),
                state.evicted,
                state.refused
            );
            *state = AtCap {
                evicted: 0,
                refused: 0,
                warned: now,
            };
        }
    }

    /// Notes an accept error: resource errors pause accepting.
    fn accept_failed(&mut self, e: io::Error) {
        if !out_of_resources(&e) {
            tracing::debug!("accept failed: {e}");
            return;
        }
        let now = Instant::now();
        if self
            .last_accept_warning
            .is_none_or(|t| now.duration_since(t) >= WARN_EVERY)
        {
            tracing::warn!(
                "cannot accept a connection: {e}; pausing {} ms (raise the open-files \
                 limit or lower --max-connections)",
                ACCEPT_PAUSE.as_millis()
            );
            self.last_accept_warning = Some(now);
        }
        self.pause = Some(Box::pin(tokio::time::sleep(ACCEPT_PAUSE)));
    }
}

/// Whether an accept error says the process is out of file descriptors or
/// memory (accepting again at once would fail again).
fn out_of_resources(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
        )
    }
    #[cfg(not(unix))]
    {
        e.kind() == io::ErrorKind::OutOfMemory
    }
}

impl Stream for Incoming {
    type Item = io::Result<Connection>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(pause) = this.pause.as_mut() {
                ready!(pause.as_mut().poll(cx));
                this.pause = None;
            }
            let (stream, remote) = match ready!(this.listener.poll_accept(cx)) {
                Ok(accepted) => accepted,
                Err(e) => {
                    this.accept_failed(e);
                    continue;
                }
            };
            // An evicted connection closes at its next poll: until then the
            // count may pass the cap by the evictions under way.
            let open = this.shared.open.load(Ordering::Relaxed);
            if open >= this.max {
                let evicted = this.shared.evict_oldest_unused();
                this.at_cap(evicted);
                if !evicted {
                    drop(stream);
                    continue;
                }
            } else if open < this.max - this.max / 10 {
                // Said once the count is well below the cap, not at every
                // connection that closes.
                if let Some(full) = this.full.take() {
                    tracing::info!(
                        evicted = full.evicted,
                        refused = full.refused,
                        "connections well below --max-connections again"
                    );
                }
            }
            let _ = stream.set_nodelay(true);
            let connection =
                Connection::new(stream, remote, this.shared.clone(), this.idle_timeout);
            this.shared.push_unused(&connection.watch, this.max);
            return Poll::Ready(Some(Ok(connection)));
        }
    }
}

/// A connection as its requests and the accept loop see it: whether it has
/// opened a call, whether it was closed to make room, and the task to wake
/// then.
struct Watch {
    /// The connection's number, unique in the process.
    id: u64,
    opened: AtomicBool,
    evicted: AtomicBool,
    waker: Mutex<Option<Waker>>,
}

impl Watch {
    fn new() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Watch {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            opened: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
            waker: Mutex::new(None),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a request knows of its connection (a request extension).
#[derive(Clone)]
pub struct ConnectionInfo {
    /// The peer's address.
    pub remote: SocketAddr,
    watch: Arc<Watch>,
}

impl std::fmt::Debug for ConnectionInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectionInfo")
            .field("remote", &self.remote)
            .finish_non_exhaustive()
    }
}

impl ConnectionInfo {
    /// Notes that the connection opened a stream: the idle timeout no longer
    /// applies, nor is it closed to make room.
    pub fn stream_opened(&self) {
        self.watch.opened.store(true, Ordering::Relaxed);
    }

    /// The connection's number, unique in the process (never reused, as a
    /// peer's address and port may be).
    pub fn id(&self) -> u64 {
        self.watch.id
    }

    /// The connection of `request`, with or without TLS (none in process).
    pub fn of<B>(request: &http::Request<B>) -> Option<&ConnectionInfo> {
        Self::in_extensions(request.extensions())
    }

    /// The connection a call's extensions hold, with or without TLS.
    pub fn in_extensions(extensions: &http::Extensions) -> Option<&ConnectionInfo> {
        extensions.get::<ConnectionInfo>().or_else(|| {
            extensions
                .get::<TlsConnectInfo<ConnectionInfo>>()
                .map(TlsConnectInfo::get_ref)
        })
    }
}

/// An accepted connection: counted under the cap until it closes, with its
/// idle timer, which runs until it opens a stream.
pub struct Connection {
    stream: TcpStream,
    remote: SocketAddr,
    watch: Arc<Watch>,
    shared: Arc<Shared>,
    idle: Option<Pin<Box<Sleep>>>,
}

impl Connection {
    fn new(
        stream: TcpStream,
        remote: SocketAddr,
        shared: Arc<Shared>,
        idle_timeout: Duration,
    ) -> Self {
        shared.open.fetch_add(1, Ordering::Relaxed);
        metrics::global().connection_opened(1);
        Self {
            stream,
            remote,
            watch: Arc::new(Watch::new()),
            shared,
            idle: Some(Box::pin(tokio::time::sleep(idle_timeout))),
        }
    }

    /// Whether the connection must close now: it opened no call, and its
    /// idle time is up or it was chosen to make room.
    fn idle_expired(&mut self, cx: &mut Context<'_>) -> bool {
        let Some(idle) = self.idle.as_mut() else {
            return false;
        };
        if self.watch.opened.load(Ordering::Relaxed) {
            self.idle = None;
            return false;
        }
        let evicted = self.watch.evicted.load(Ordering::Relaxed);
        if evicted || idle.as_mut().poll(cx).is_ready() {
            self.idle = None;
            if !evicted {
                metrics::global().connection_idle_closed();
            }
            tracing::debug!(remote = %self.remote, evicted, "closing a connection that opened no call");
            return true;
        }
        let mut waker = lock(&self.watch.waker);
        if !waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            *waker = Some(cx.waker().clone());
        }
        false
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.shared.open.fetch_sub(1, Ordering::Relaxed);
        metrics::global().connection_opened(-1);
    }
}

impl Connected for Connection {
    type ConnectInfo = ConnectionInfo;

    fn connect_info(&self) -> ConnectionInfo {
        ConnectionInfo {
            remote: self.remote,
            watch: self.watch.clone(),
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.idle_expired(cx) {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no call within --idle-timeout-ms",
            )));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
