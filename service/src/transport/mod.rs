//! What one client may hold of the server below the API: connections,
//! HTTP/2 streams, request bytes and the time they take to arrive.
//!
//! [`connections`] accepts TCP connections up to a cap (and a cap per client
//! address) and closes those that stay without a call in progress; [`request_body`] bounds each request message by
//! its RPC's limit and all request bytes being received by one budget, and
//! ends a message that stops arriving. The HTTP/2 settings (streams per
//! connection, flow-control windows, keepalive pings) are set on the server
//! in [`crate::build`].

pub mod connections;
pub mod request_body;

use std::time::Duration;

/// The transport's limits, as `caberd`'s flags set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportLimits {
    /// Connections open at once; at the cap a new one replaces the one idle
    /// longest, or is closed at once if every one has a call in progress.
    pub max_connections: usize,
    /// Connections open at once from one client address (an IPv6 /64), with
    /// the same replacement; 0: a quarter of `max_connections`.
    pub max_connections_per_address: usize,
    /// A connection that opens no stream (no call) within this is closed.
    pub idle_timeout: Duration,
    /// A connection whose calls all ended this long ago is closed, whatever
    /// it answers to HTTP/2 PINGs.
    pub max_connection_idle: Duration,
    /// Streams (calls) open at once on one connection (HTTP/2
    /// `SETTINGS_MAX_CONCURRENT_STREAMS`).
    pub max_streams_per_connection: u32,
    /// Calls in progress at once over all connections (health checks and
    /// reflection included); one more is refused with `RESOURCE_EXHAUSTED`.
    pub max_calls: usize,
    /// How often an HTTP/2 PING checks that a connection's peer is alive.
    pub keepalive_interval: Duration,
    /// How long the PING's answer may take before the connection is closed.
    pub keepalive_timeout: Duration,
    /// Time a request message has to arrive: the first from the start of its
    /// call, each later one from its first byte.
    pub request_timeout: Duration,
    /// Request bytes being received at once, over every call: a message is
    /// admitted only if its announced length fits in what is left.
    pub request_memory: usize,
    /// Largest request message; each RPC has a smaller limit of its own
    /// ([`request_body::message_limit`]) that this can only lower.
    pub max_message_bytes: usize,
}

impl TransportLimits {
    /// The defaults of `caberd`'s flags. The cap on connections is lowered
    /// to fit the process's limit on open files
    /// ([`connections::connections_within_file_limit`]).
    pub const DEFAULT: Self = Self {
        max_connections: 1000,
        max_connections_per_address: 0,
        idle_timeout: Duration::from_secs(10),
        max_connection_idle: Duration::from_secs(300),
        max_streams_per_connection: 100,
        max_calls: 4096,
        keepalive_interval: Duration::from_secs(60),
        keepalive_timeout: Duration::from_secs(20),
        request_timeout: Duration::from_secs(10),
        request_memory: 32 << 20,
        max_message_bytes: request_body::LARGEST_MESSAGE_LIMIT,
    };
}

impl TransportLimits {
    /// The cap on connections from one address: the setting, or a quarter
    /// of the connections when it is 0; never above the connections.
    pub fn per_address(&self, max_connections: usize) -> usize {
        match self.max_connections_per_address {
            0 => max_connections / 4,
            n => n,
        }
        .clamp(1, max_connections.max(1))
    }
}

impl Default for TransportLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Flow-control window of a stream and of a connection: what a client may
/// send before the server reads it. Requests are small (at most
/// [`request_body::LARGEST_MESSAGE_LIMIT`]), so these bound what a stream or
/// a connection whose body nobody reads can hold in buffers.
pub const STREAM_WINDOW: u32 = 64 << 10;
/// See [`STREAM_WINDOW`].
pub const CONNECTION_WINDOW: u32 = 256 << 10;
