//! Accepting connections: at most `max_connections` open at once and at
//! most `max_per_address` from one client address, a pause instead of a
//! busy loop when the process runs out of file descriptors, and a
//! connection with no call in progress closed once idle: within
//! `idle_timeout` of its start if it opens no call (it never sent the HTTP/2
//! preface, never finished a TLS handshake, or opened no call), within
//! `max_idle` of its last call's end otherwise, whatever it answers to
//! HTTP/2 PINGs. At a cap a new connection takes the place of the one idle
//! longest (first those that never opened a call, then those with no call in
//! progress; at the address cap, that address's own), so that idle
//! connections cannot keep out clients that call; when every candidate has a
//! call in progress, the new one is closed at once. Both are logged. HTTP/2
//! keepalive pings close connections whose peer is gone.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
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
    max_per_address: usize,
    idle: Idle,
    pause: Option<Pin<Box<Sleep>>>,
    /// Set while the cap is reached.
    full: Option<AtCap>,
    /// When the per-address cap was last said to be reached.
    address_warned: Option<Instant>,
    last_accept_warning: Option<Instant>,
}

/// How long a connection may go with no call in progress.
#[derive(Clone, Copy, Debug)]
pub struct Idle {
    /// Before its first call.
    pub first_call: Duration,
    /// After a call ended.
    pub between_calls: Duration,
}

/// What the accept loop shares with its connections.
#[derive(Default)]
struct Shared {
    open: AtomicUsize,
    /// Every open connection by its number, and the open ones per client
    /// address: the candidates to close at a cap.
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    connections: HashMap<u64, Weak<Watch>>,
    per_address: HashMap<Address, usize>,
}

impl Shared {
    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        lock(&self.table)
    }

    /// Closes the open connection idle longest (of `address` only, if
    /// given): one that never opened a call before one that did, then the
    /// one whose last call ended first; false if every candidate has a call
    /// in progress.
    fn evict_idlest(&self, address: Option<Address>) -> bool {
        let table = self.table();
        let idlest = table
            .connections
            .values()
            .filter_map(Weak::upgrade)
            .filter(|w| address.is_none_or(|a| w.address == a))
            .filter(|w| {
                !w.evicted.load(Ordering::Relaxed) && w.in_flight.load(Ordering::SeqCst) == 0
            })
            .min_by_key(|w| (w.opened.load(Ordering::Relaxed), *lock(&w.idle_since)));
        match idlest {
            Some(watch) => {
                watch.evicted.store(true, Ordering::Relaxed);
                watch.wake();
                true
            }
            None => false,
        }
    }

    /// The connections open from `address`.
    fn open_from(&self, address: Address) -> usize {
        self.table().per_address.get(&address).copied().unwrap_or(0)
    }

    fn register(&self, watch: &Arc<Watch>) {
        let mut table = self.table();
        table.connections.insert(watch.id, Arc::downgrade(watch));
        *table.per_address.entry(watch.address).or_insert(0) += 1;
    }

    fn unregister(&self, watch: &Watch) {
        let mut table = self.table();
        table.connections.remove(&watch.id);
        if let Some(n) = table.per_address.get_mut(&watch.address) {
            *n -= 1;
            if *n == 0 {
                table.per_address.remove(&watch.address);
            }
        }
    }
}

/// A client's address as the per-address cap counts it: an IPv4 address,
/// or an IPv6 address's /64 (what one host usually gets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Address(IpAddr);

impl Address {
    /// The address `remote` counts under.
    pub fn of(remote: &SocketAddr) -> Address {
        match remote.ip() {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Address(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    Address(IpAddr::V6(bits.into()))
                }
            },
            v4 => Address(v4),
        }
    }
}

/// What happened at the cap since the last warning.
struct AtCap {
    evicted: u64,
    refused: u64,
    warned: Instant,
}

impl Incoming {
    /// Accepts on `listener`, at most `max` connections open at once and
    /// `max_per_address` from one address, each closed when `idle` says.
    pub fn new(listener: TcpListener, max: usize, max_per_address: usize, idle: Idle) -> Self {
        Self {
            listener,
            shared: Arc::default(),
            max: max.max(1),
            max_per_address: max_per_address.max(1),
            idle,
            pause: None,
            full: None,
            address_warned: None,
            last_accept_warning: None,
        }
    }

    /// Makes room for a connection from `address` under its cap: false if
    /// every connection from it has a call in progress.
    fn room_at_address(&mut self, address: Address) -> bool {
        if self.shared.open_from(address) < self.max_per_address {
            return true;
        }
        let evicted = self.shared.evict_idlest(Some(address));
        if evicted {
            metrics::global().connection_idle_closed();
        } else {
            metrics::global().connection_refused();
        }
        let now = Instant::now();
        if self
            .address_warned
            .is_none_or(|t| now.duration_since(t) >= WARN_EVERY)
        {
            tracing::warn!(
                max_connections_per_address = self.max_per_address,
                "connection limit of one address reached: {} connections open from {:?} \
                 (--max-connections-per-address); a new one {}",
                self.max_per_address,
                address.0,
                if evicted {
                    "replaces that address's connection idle longest"
                } else {
                    "is closed (each of them has a call in progress)"
                }
            );
            self.address_warned = Some(now);
        }
        evicted
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
                 a new connection replaces the one idle longest, or is closed when \
                 every open connection has a call in progress"
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
                 {} idle connections closed to make room, {} new ones closed",
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
            // counts may pass the caps by the evictions under way.
            let address = Address::of(&remote);
            if !this.room_at_address(address) {
                drop(stream);
                continue;
            }
            let open = this.shared.open.load(Ordering::Relaxed);
            if open >= this.max {
                let evicted = this.shared.evict_idlest(None);
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
            let connection = Connection::new(stream, remote, this.shared.clone(), this.idle);
            return Poll::Ready(Some(Ok(connection)));
        }
    }
}

/// A connection as its calls and the accept loop see it: its calls in
/// progress and since when it has had none, whether it was closed to make
/// room, the task to wake then, and what to do when it closes.
struct Watch {
    /// The connection's number, unique in the process.
    id: u64,
    address: Address,
    /// Whether it ever opened a call.
    opened: AtomicBool,
    /// Calls in progress.
    in_flight: AtomicUsize,
    /// When its last call ended (its start before any).
    idle_since: Mutex<Instant>,
    evicted: AtomicBool,
    waker: Mutex<Option<Waker>>,
    /// Run once when the connection closes, each under its purpose's name.
    on_close: Mutex<Vec<(&'static str, CloseHook)>>,
}

type CloseHook = Box<dyn FnOnce() + Send>;

impl Watch {
    fn new(address: Address) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Watch {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            address,
            opened: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
            idle_since: Mutex::new(Instant::now()),
            evicted: AtomicBool::new(false),
            waker: Mutex::new(None),
            on_close: Mutex::new(Vec::new()),
        }
    }

    /// Wakes the connection's task, so that it looks at its idle time again.
    fn wake(&self) {
        if let Some(waker) = lock(&self.waker).take() {
            waker.wake();
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
    /// Notes a call starting on the connection: until the returned guard is
    /// dropped (the call's end) the connection is not idle, neither closed
    /// for it nor to make room.
    pub fn call_started(&self) -> CallOnConnection {
        self.watch.opened.store(true, Ordering::Relaxed);
        self.watch.in_flight.fetch_add(1, Ordering::SeqCst);
        CallOnConnection {
            watch: self.watch.clone(),
        }
    }

    /// The connection's number, unique in the process (never reused, as a
    /// peer's address and port may be).
    pub fn id(&self) -> u64 {
        self.watch.id
    }

    /// Runs `hook` when the connection closes, unless a hook named `purpose`
    /// is already set (so that each call may ask without piling them up).
    pub fn on_close(&self, purpose: &'static str, hook: impl FnOnce() + Send + 'static) {
        let mut hooks = lock(&self.watch.on_close);
        if !hooks.iter().any(|(p, _)| *p == purpose) {
            hooks.push((purpose, Box::new(hook)));
        }
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

/// A call in progress on a connection ([`ConnectionInfo::call_started`]).
pub struct CallOnConnection {
    watch: Arc<Watch>,
}

impl Drop for CallOnConnection {
    fn drop(&mut self) {
        *lock(&self.watch.idle_since) = Instant::now();
        if self.watch.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.watch.wake();
        }
    }
}

impl std::fmt::Debug for CallOnConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOnConnection")
            .field("connection", &self.watch.id)
            .finish()
    }
}

/// An accepted connection: counted under the caps until it closes, with its
/// idle timer, which runs while it has no call in progress.
pub struct Connection {
    stream: TcpStream,
    remote: SocketAddr,
    watch: Arc<Watch>,
    shared: Arc<Shared>,
    idle: Idle,
    /// The timer, and the instant it is set for.
    timer: Pin<Box<Sleep>>,
    timer_at: Instant,
    closed: bool,
}

impl Connection {
    fn new(stream: TcpStream, remote: SocketAddr, shared: Arc<Shared>, idle: Idle) -> Self {
        shared.open.fetch_add(1, Ordering::Relaxed);
        metrics::global().connection_opened(1);
        let watch = Arc::new(Watch::new(Address::of(&remote)));
        shared.register(&watch);
        let timer_at = Instant::now() + idle.first_call;
        Self {
            stream,
            remote,
            watch,
            shared,
            idle,
            timer: Box::pin(tokio::time::sleep_until(timer_at.into())),
            timer_at,
            closed: false,
        }
    }

    /// Whether the connection must close now: it has no call in progress,
    /// and its idle time is up or it was chosen to make room.
    fn idle_expired(&mut self, cx: &mut Context<'_>) -> bool {
        if self.closed {
            return true;
        }
        let evicted = self.watch.evicted.load(Ordering::Relaxed);
        let busy = self.watch.in_flight.load(Ordering::SeqCst) > 0;
        if !evicted && !busy {
            let opened = self.watch.opened.load(Ordering::Relaxed);
            let idle_for = if opened {
                self.idle.between_calls
            } else {
                self.idle.first_call
            };
            let at = *lock(&self.watch.idle_since) + idle_for;
            if at != self.timer_at {
                self.timer.as_mut().reset(at.into());
                self.timer_at = at;
            }
        }
        if evicted || (!busy && self.timer.as_mut().poll(cx).is_ready()) {
            self.closed = true;
            if !evicted {
                metrics::global().connection_idle_closed();
            }
            tracing::debug!(remote = %self.remote, evicted, "closing an idle connection");
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
        self.shared.unregister(&self.watch);
        metrics::global().connection_opened(-1);
        let hooks = std::mem::take(&mut *lock(&self.watch.on_close));
        for (_, hook) in hooks {
            hook();
        }
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
                "idle: no call in progress for --idle-timeout-ms or --max-connection-idle-ms",
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
