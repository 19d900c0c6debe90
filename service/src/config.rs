//! `caberd`'s configuration: command-line flags, each with an environment
//! variable (a flag on the command line wins), and a one-line summary for the
//! start-up log that never includes a secret.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};

use crate::search_runner::Caps;

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
    /// Searches (and perft counts, matches) admitted at once, running or
    /// waiting for a search thread; beyond, calls get RESOURCE_EXHAUSTED.
    /// More than --search-threads lets searches wait for a thread: a call
    /// with a deadline is then admitted only if a thread is sure to be free
    /// in time, and its wait counts against its budget. [default: the
    /// number of search threads, so that no search waits]
    #[arg(long, env = "CABER_MAX_SEARCHES")]
    pub max_searches: Option<usize>,
    /// Dedicated threads that run searches. [default: number of cores]
    #[arg(long, env = "CABER_SEARCH_THREADS")]
    pub search_threads: Option<usize>,
    /// Longest search one request may ask for, in milliseconds (larger
    /// movetimes are lowered, and SearchStats.clamped says so).
    #[arg(long, env = "CABER_MAX_MOVETIME_MS", default_value_t = 60_000)]
    pub max_movetime_ms: u64,
    /// Most nodes one search may visit (larger requests are lowered); 0: no maximum.
    #[arg(long, env = "CABER_MAX_NODES", default_value_t = 0)]
    pub max_nodes: u64,
    /// Most threads one search may use (a request asking for more gets
    /// this many, and SearchStats.clamped says so). Each search still counts
    /// once against --max-searches.
    #[arg(long, env = "CABER_MAX_THREADS_PER_SEARCH", default_value_t = 1)]
    pub max_threads_per_search: usize,
    /// Largest request message accepted, in bytes.
    #[arg(long, env = "CABER_MAX_MESSAGE_BYTES", default_value_t = crate::DEFAULT_MAX_MESSAGE_BYTES)]
    pub max_message_bytes: usize,
    /// Time in milliseconds that calls in progress get to finish after SIGTERM
    /// or Ctrl-C (at once health turns NOT_SERVING, the listener closes and
    /// connections get an HTTP/2 GOAWAY); searches still running then are
    /// stopped and answer with their best result so far.
    #[arg(long, env = "CABER_SHUTDOWN_GRACE_MS", default_value_t = 10_000)]
    pub shutdown_grace_ms: u64,
}

impl Config {
    /// The number of search threads (the flag, or one per core).
    pub fn threads(&self) -> usize {
        self.search_threads.unwrap_or_else(cores).max(1)
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
        format!(
            "listen={} metrics={metrics} log_format={} auth={auth} tls={tls} \
             search_threads={} max_searches={} max_movetime_ms={} max_nodes={} \
             max_threads_per_search={} max_message_bytes={} shutdown_grace_ms={}",
            self.listen,
            match self.log_format {
                LogFormat::Text => "text",
                LogFormat::Json => "json",
            },
            self.threads(),
            self.searches(),
            self.max_movetime_ms,
            self.max_nodes,
            self.max_threads_per_search,
            self.max_message_bytes,
            self.shutdown_grace_ms
        )
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "listen=0.0.0.0:1 metrics=off log_format=json auth=token from /run/t tls=off \
             search_threads=2 max_searches=3 max_movetime_ms=60000 max_nodes=5 \
             max_threads_per_search=1 max_message_bytes=4194304 shutdown_grace_ms=10000"
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
    fn tls_needs_both_files() {
        assert!(Config::try_parse_from(["caberd", "--tls-cert", "c.pem"]).is_err());
        assert!(Config::try_parse_from(["caberd", "--tls-key", "k.pem"]).is_err());
        assert!(Config::try_parse_from(["caberd", "--tls-cert", "c", "--tls-key", "k"]).is_ok());
    }
}
