//! `caberd`'s configuration: command-line flags, each with an environment
//! variable (a flag on the command line wins), and a one-line summary for the
//! start-up log that never includes a secret.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};

use crate::browser::Origins;
use crate::search_runner::{self, Caps};
use crate::transport::TransportLimits;

/// The transport flags' defaults.
const DEFAULTS: TransportLimits = TransportLimits::DEFAULT;

/// A duration in whole milliseconds, as the flags take it.
const fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// How log lines are written (to standard error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// Caber's gRPC game engine server: caber.v1.GameEngine, grpc.health.v1.Health
/// and server reflection on one port, Prometheus metrics on another.
#[derive(Parser, Debug, Clone)]
#[command(name = "caberd", version, about)]
pub struct Config {
    /// Address of the gRPC API, health checking and reflection; port 0 picks a free port.
    #[arg(long, env = "CABER_LISTEN", default_value = "127.0.0.1:50051")]
    pub listen: SocketAddr,
    /// Address of the Prometheus metrics endpoint (HTTP, path /metrics); off when unset.
    #[arg(long, env = "CABER_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,
    /// Log line format on standard error (filter with RUST_LOG, default info).
    #[arg(long, env = "CABER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// File holding the bearer token that caber.v1 calls must send as
    /// `authorization: Bearer <token>`; health and reflection stay open. No auth when unset.
    #[arg(long, env = "CABER_AUTH_TOKEN_FILE")]
    pub auth_token_file: Option<PathBuf>,
    /// PEM certificate chain: serve TLS (needs --tls-key).
    #[arg(long, env = "CABER_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, env = "CABER_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Origin of web pages allowed to call the API from a browser with
    /// gRPC-Web (CORS), e.g. `https://example.com`; repeat it (or separate
    /// with commas) for several, * for any. None by default: gRPC-Web is
    /// still answered, but browsers refuse cross-origin calls.
    #[arg(long = "cors-origin", env = "CABER_CORS_ORIGIN", value_delimiter = ',', value_parser = cors_origin)]
    pub cors_origins: Vec<String>,
    /// Serve the analysis board, a page that calls this server with
    /// gRPC-Web, at / on the API's address (open it in a browser).
    #[arg(long, env = "CABER_WEB")]
    pub web: bool,
    /// Searches (and perft counts, matches) admitted at once, running or
    /// waiting for a search thread; beyond, calls get RESOURCE_EXHAUSTED.
    /// More than --search-threads lets searches wait for a thread: a call
    /// with a deadline is then admitted only if a thread is sure to be free
    /// in time, and its wait counts against its budget. [default: the
    /// number of search threads, so that no search waits]
    #[arg(long, env = "CABER_MAX_SEARCHES")]
    pub max_searches: Option<usize>,
    /// Dedicated threads that run searches. [default: the CPUs caberd may
    /// use: the container's CPU limit (cgroup v2 `cpu.max`, rounded up),
    /// else the cores]
    #[arg(long, env = "CABER_SEARCH_THREADS")]
    pub search_threads: Option<usize>,
    /// Threads of the async runtime that serves connections and calls
    /// (searches run apart, on the search threads); 0: the CPUs caberd may
    /// use, as for --search-threads.
    #[arg(long, env = "CABER_WORKER_THREADS", default_value_t = 0)]
    pub worker_threads: usize,
    /// Longest search one request may ask for, in milliseconds (larger
    /// movetimes are lowered, and SearchStats.clamped says so).
    #[arg(long, env = "CABER_MAX_MOVETIME_MS", default_value_t = 60_000)]
    pub max_movetime_ms: u64,
    /// Longest review in milliseconds, all its searches together: a review
    /// whose searches would take longer gets a lower movetime for each
    /// (ReviewUpdate.budget says so).
    #[arg(long, env = "CABER_MAX_REVIEW_MS", default_value_t = 60_000)]
    pub max_review_ms: u64,
    /// Most nodes one search may visit (larger requests are lowered); 0: no maximum.
    #[arg(long, env = "CABER_MAX_NODES", default_value_t = 0)]
    pub max_nodes: u64,
    /// Most threads one search may use (a request asking for more gets
    /// this many, and SearchStats.clamped says so). Each search still counts
    /// once against --max-searches.
    #[arg(long, env = "CABER_MAX_THREADS_PER_SEARCH", default_value_t = 1)]
    pub max_threads_per_search: usize,
    /// Largest transposition table one search may ask for (Limits.hash_mb),
    /// in MB, and the most a Monte Carlo tree may take; larger requests are
    /// lowered, and SearchStats.clamped says so.
    #[arg(long, env = "CABER_MAX_HASH_MB", default_value_t = search_runner::DEFAULT_MAX_TABLE_MB)]
    pub max_hash_mb: usize,
    /// Searchers kept between calls for the clients that name them
    /// (AnalyzeRequest.table), each holding its transposition table (at
    /// most --max-hash-mb), dropped with their connection or after 10
    /// minutes unused; a connection's new table replaces only its own, and
    /// is not kept when the others fill the store. 0: none kept.
    #[arg(long, env = "CABER_MAX_KEPT_TABLES", default_value_t = search_runner::DEFAULT_KEPT_TABLES)]
    pub max_kept_tables: usize,
    /// Largest request message accepted, in bytes: lowers each method's own
    /// limit (a game record 512 KiB, a position 256 KiB, a health check 1 KiB).
    #[arg(long, env = "CABER_MAX_MESSAGE_BYTES", default_value_t = DEFAULTS.max_message_bytes)]
    pub max_message_bytes: usize,
    /// Request bytes being received at once over all calls: a message is
    /// admitted only if the length it announces fits in what is left
    /// (otherwise RESOURCE_EXHAUSTED).
    #[arg(long, env = "CABER_MAX_REQUEST_MEMORY_BYTES", default_value_t = DEFAULTS.request_memory)]
    pub max_request_memory_bytes: usize,
    /// Time in milliseconds a request has to arrive: a call's whole request
    /// from its start (a client stream: each message from its first byte).
    #[arg(long, env = "CABER_REQUEST_TIMEOUT_MS", default_value_t = ms(DEFAULTS.request_timeout))]
    pub request_timeout_ms: u64,
    /// Client connections open at once; at the cap a new one replaces the
    /// one idle longest, or is closed at once when every open connection has
    /// a call in progress (logged). Lowered to fit the open-files limit.
    #[arg(long, env = "CABER_MAX_CONNECTIONS", default_value_t = DEFAULTS.max_connections)]
    pub max_connections: usize,
    /// Client connections open at once from one address (IPv6: one /64),
    /// replaced as at --max-connections; behind a proxy that opens many
    /// connections, raise it to --max-connections. 0: a quarter of
    /// --max-connections.
    #[arg(long, env = "CABER_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = DEFAULTS.max_connections_per_address)]
    pub max_connections_per_address: usize,
    /// Time in milliseconds a new connection has to open its first call (TLS
    /// handshake and HTTP/2 preface included) before it is closed.
    #[arg(long, env = "CABER_IDLE_TIMEOUT_MS", default_value_t = ms(DEFAULTS.idle_timeout))]
    pub idle_timeout_ms: u64,
    /// Time in milliseconds a connection may stay open after its last call
    /// ended, whatever it answers to HTTP/2 PINGs (HTTP/1.1 too).
    #[arg(long, env = "CABER_MAX_CONNECTION_IDLE_MS", default_value_t = ms(DEFAULTS.max_connection_idle))]
    pub max_connection_idle_ms: u64,
    /// Calls in progress at once over all connections, health checks and
    /// reflection included; one more is refused (RESOURCE_EXHAUSTED).
    #[arg(long, env = "CABER_MAX_CALLS", default_value_t = DEFAULTS.max_calls)]
    pub max_calls: usize,
    /// Calls open at once on one connection (HTTP/2 max concurrent streams).
    #[arg(long, env = "CABER_MAX_STREAMS_PER_CONNECTION", default_value_t = DEFAULTS.max_streams_per_connection)]
    pub max_streams_per_connection: u32,
    /// Interval in milliseconds of the HTTP/2 keepalive PING on each connection.
    #[arg(long, env = "CABER_KEEPALIVE_INTERVAL_MS", default_value_t = ms(DEFAULTS.keepalive_interval))]
    pub keepalive_interval_ms: u64,
    /// Time in milliseconds a keepalive PING's answer may take before the
    /// connection is closed.
    #[arg(long, env = "CABER_KEEPALIVE_TIMEOUT_MS", default_value_t = ms(DEFAULTS.keepalive_timeout))]
    pub keepalive_timeout_ms: u64,
    /// Time in milliseconds that calls in progress get to finish after SIGTERM
    /// or Ctrl-C (at once health turns NOT_SERVING, the listener closes and
    /// connections get an HTTP/2 GOAWAY); searches still running then are
    /// stopped and answer with their best result so far.
    #[arg(long, env = "CABER_SHUTDOWN_GRACE_MS", default_value_t = 10_000)]
    pub shutdown_grace_ms: u64,
}

impl Config {
    /// The number of search threads (the flag, or one per CPU caberd may use).
    pub fn threads(&self) -> usize {
        self.search_threads.unwrap_or_else(cores).max(1)
    }

    /// The number of async runtime threads (the flag, or one per CPU caberd may use).
    pub fn workers(&self) -> usize {
        match self.worker_threads {
            0 => cores(),
            n => n,
        }
    }

    /// The number of searches admitted at once (the flag, or one per search thread).
    pub fn searches(&self) -> usize {
        self.max_searches.unwrap_or_else(|| self.threads()).max(1)
    }

    /// The per-request caps.
    pub fn caps(&self) -> Caps {
        Caps {
            max_movetime: Duration::from_millis(self.max_movetime_ms.max(1)),
            max_nodes: self.max_nodes,
            max_threads: self.max_threads_per_search.max(1),
            max_review: Duration::from_millis(self.max_review_ms.max(1)),
            max_table_mb: self.max_hash_mb.max(1),
            kept_tables: self.max_kept_tables,
        }
    }

    /// The origins `--cors-origin` allows.
    pub fn origins(&self) -> Origins {
        Origins::parse(&self.cors_origins).expect("each value was checked when parsed")
    }

    /// The transport's limits.
    pub fn transport(&self) -> TransportLimits {
        TransportLimits {
            max_connections: self.max_connections.max(1),
            max_connections_per_address: self.max_connections_per_address,
            idle_timeout: Duration::from_millis(self.idle_timeout_ms.max(1)),
            max_connection_idle: Duration::from_millis(self.max_connection_idle_ms.max(1)),
            max_streams_per_connection: self.max_streams_per_connection.max(1),
            max_calls: self.max_calls.max(1),
            keepalive_interval: Duration::from_millis(self.keepalive_interval_ms.max(1)),
            keepalive_timeout: Duration::from_millis(self.keepalive_timeout_ms.max(1)),
            request_timeout: Duration::from_millis(self.request_timeout_ms.max(1)),
            request_memory: self.max_request_memory_bytes,
            max_message_bytes: self.max_message_bytes,
        }
    }

    /// The effective settings on one line (file paths, never their content).
    pub fn summary(&self) -> String {
        let metrics = self
            .metrics_listen
            .map_or("off".to_string(), |a| a.to_string());
        let auth = self
            .auth_token_file
            .as_ref()
            .map_or("off".to_string(), |p| format!("token from {}", p.display()));
        let tls = self
            .tls_cert
            .as_ref()
            .map_or("off".to_string(), |p| format!("cert {}", p.display()));
        let cors = match self.cors_origins.as_slice() {
            [] => "off".to_string(),
            origins => origins.join(","),
        };
        let transport = self.transport();
        format!(
            "listen={} metrics={metrics} log_format={} auth={auth} tls={tls} cors={cors} web={} \
             worker_threads={} search_threads={} max_searches={} max_movetime_ms={} max_review_ms={} max_nodes={} \
             max_threads_per_search={} max_hash_mb={} max_kept_tables={} max_message_bytes={} \
             max_request_memory_bytes={} request_timeout_ms={} max_connections={} \
             max_connections_per_address={} max_calls={} idle_timeout_ms={} max_connection_idle_ms={} \
             max_streams_per_connection={} keepalive_interval_ms={} keepalive_timeout_ms={} \
             shutdown_grace_ms={}",
            self.listen,
            match self.log_format {
                LogFormat::Text => "text",
                LogFormat::Json => "json",
            },
            if self.web { "on" } else { "off" },
            self.workers(),
            self.threads(),
            self.searches(),
            self.max_movetime_ms,
            self.max_review_ms,
            self.max_nodes,
            self.max_threads_per_search,
            self.max_hash_mb,
            self.max_kept_tables,
            self.max_message_bytes,
            self.max_request_memory_bytes,
            self.request_timeout_ms,
            self.max_connections,
            transport.per_address(transport.max_connections),
            self.max_calls,
            self.idle_timeout_ms,
            self.max_connection_idle_ms,
            self.max_streams_per_connection,
            self.keepalive_interval_ms,
            self.keepalive_timeout_ms,
            self.shutdown_grace_ms
        )
    }
}

/// One `--cors-origin` value, checked as [`Origins::parse`] reads it.
fn cors_origin(value: &str) -> Result<String, String> {
    Origins::parse(&[value.to_string()]).map(|_| value.to_string())
}

/// Refuses a PEM private key that caberd cannot use as it is: an encrypted
/// one (PKCS#8 `ENCRYPTED PRIVATE KEY`, or OpenSSL's `Proc-Type: 4,ENCRYPTED`),
/// which rustls would only call unreadable.
pub fn check_tls_key(path: &std::path::Path, pem: &[u8]) -> anyhow::Result<()> {
    let text = String::from_utf8_lossy(pem);
    if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
        || text.contains("Proc-Type: 4,ENCRYPTED")
    {
        anyhow::bail!(
            "the TLS key {} is encrypted (protected by a passphrase); caberd needs an \
             unencrypted PEM key: decrypt it with `openssl pkey -in {0} -out plain-key.pem` \
             and keep the result readable only by caberd",
            path.display()
        );
    }
    Ok(())
}

/// The CPUs caberd may use: the cores it may run on, fewer when its cgroup's
/// CPU limit (a container's) is lower.
fn cores() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cgroup_cpu_limit().map_or(cores, |limit| limit.min(cores))
}

/// The CPU limit of this process's cgroup (v2), in whole CPUs rounded up:
/// `cpu.max` of its own cgroup (the path in `/proc/self/cgroup`), or of the
/// cgroup root a container sees as its own.
fn cgroup_cpu_limit() -> Option<usize> {
    let own = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("0::").map(str::to_string))
        });
    let mut places = Vec::new();
    if let Some(path) = own {
        places.push(format!(
            "/sys/fs/cgroup{}/cpu.max",
            path.trim_end_matches('/')
        ));
    }
    places.push("/sys/fs/cgroup/cpu.max".to_string());
    places
        .iter()
        .find_map(|place| std::fs::read_to_string(place).ok())
        .and_then(|text| cpus_of_cpu_max(&text))
}

/// The whole CPUs a cgroup v2 `cpu.max` allows (`QUOTA PERIOD` in
/// microseconds, rounded up, at least 1), or `None` for `max` (no limit).
fn cpus_of_cpu_max(text: &str) -> Option<usize> {
    let mut words = text.split_whitespace();
    let quota: u64 = words.next()?.parse().ok()?;
    let period: u64 = words.next().map_or(Some(100_000), |p| p.parse().ok())?;
    if period == 0 {
        return None;
    }
    usize::try_from(quota.div_ceil(period).max(1)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cgroup_cpu_limit_is_read_in_whole_cpus_rounded_up() {
        assert_eq!(cpus_of_cpu_max("max 100000\n"), None);
        assert_eq!(cpus_of_cpu_max("200000 100000\n"), Some(2));
        assert_eq!(cpus_of_cpu_max("150000 100000"), Some(2));
        assert_eq!(cpus_of_cpu_max("10000 100000"), Some(1));
        assert_eq!(cpus_of_cpu_max("50000"), Some(1));
        assert_eq!(cpus_of_cpu_max("1 0"), None);
        assert_eq!(cpus_of_cpu_max(""), None);
        let c = Config::try_parse_from(["caberd", "--worker-threads", "3"]).unwrap();
        assert_eq!(c.workers(), 3);
        let c = Config::try_parse_from(["caberd"]).unwrap();
        assert_eq!(
            c.workers(),
            c.threads(),
            "both from the CPUs caberd may use"
        );
    }

    #[test]
    fn flags_are_read_and_summarised() {
        let c = Config::try_parse_from([
            "caberd",
            "--listen",
            "0.0.0.0:1",
            "--log-format",
            "json",
            "--max-searches",
            "3",
            "--search-threads",
            "2",
            "--worker-threads",
            "4",
            "--auth-token-file",
            "/run/t",
            "--max-nodes",
            "5",
        ])
        .unwrap();
        assert_eq!(c.searches(), 3);
        assert_eq!(c.threads(), 2);
        assert_eq!(c.caps().max_nodes, 5);
        assert_eq!(
            c.summary(),
            "listen=0.0.0.0:1 metrics=off log_format=json auth=token from /run/t tls=off cors=off web=off \
             worker_threads=4 search_threads=2 max_searches=3 max_movetime_ms=60000 max_review_ms=60000 max_nodes=5 \
             max_threads_per_search=1 max_hash_mb=64 max_kept_tables=4 max_message_bytes=524288 \
             max_request_memory_bytes=33554432 request_timeout_ms=10000 max_connections=1000 \
             max_connections_per_address=250 max_calls=4096 idle_timeout_ms=10000 \
             max_connection_idle_ms=300000 max_streams_per_connection=100 \
             keepalive_interval_ms=60000 keepalive_timeout_ms=20000 shutdown_grace_ms=10000"
        );
    }

    #[test]
    fn by_default_no_search_waits_for_a_thread() {
        let c = Config::try_parse_from(["caberd", "--search-threads", "3"]).unwrap();
        assert_eq!((c.threads(), c.searches()), (3, 3));
        let c = Config::try_parse_from(["caberd"]).unwrap();
        assert_eq!(c.searches(), c.threads());
    }

    #[test]
    fn an_encrypted_tls_key_is_refused_as_such() {
        let path = std::path::Path::new("key.pem");
        for pem in [
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF\n-----END ENCRYPTED PRIVATE KEY-----\n",
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n",
        ] {
            let e = check_tls_key(path, pem.as_bytes()).unwrap_err().to_string();
            assert!(e.contains("key.pem is encrypted"), "{e}");
        }
        let plain = "-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n";
        assert!(check_tls_key(path, plain.as_bytes()).is_ok());
    }

    #[test]
    fn tls_needs_both_files() {
        assert!(Config::try_parse_from(["caberd", "--tls-cert", "c.pem"]).is_err());
        assert!(Config::try_parse_from(["caberd", "--tls-key", "k.pem"]).is_err());
        assert!(Config::try_parse_from(["caberd", "--tls-cert", "c", "--tls-key", "k"]).is_ok());
    }
}
