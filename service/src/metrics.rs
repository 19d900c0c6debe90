//! Prometheus metrics: calls by method and code, errors, a latency histogram,
//! searches and nodes searched, the process and the build
//! ([`process_metrics`](crate::process_metrics)), served as text on a separate HTTP port.
//!
//! The registry is process-wide ([`global`]); [`serve`] answers `GET /metrics`
//! with the Prometheus text exposition format (version 0.0.4).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Upper bounds (seconds) of the call latency histogram's buckets.
const BUCKETS: [f64; 16] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
    60.0,
];

/// One method's latency histogram.
#[derive(Debug, Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// The process-wide metrics.
#[derive(Debug, Default)]
pub struct Metrics {
    calls: Mutex<BTreeMap<(String, &'static str), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
    in_flight: AtomicI64,
    searches_running: AtomicI64,
    searches_rejected: AtomicU64,
    nodes: AtomicU64,
    connections_open: AtomicI64,
    connections_refused: AtomicU64,
    connections_idle_closed: AtomicU64,
    request_bytes_held: AtomicI64,
    requests_refused: AtomicU64,
}

/// The process-wide registry.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::default)
}

impl Metrics {
    /// A call started.
    pub fn call_started(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    /// A call to `method` (a served method's path like
    /// `/caber.v1.GameEngine/Apply`, or `unknown`) ended with `code`.
    pub fn call_finished(&self, method: &str, code: tonic::Code, latency: Duration) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        *lock(&self.calls)
            .entry((method.to_string(), code_name(code)))
            .or_default() += 1;
        let mut latency_map = lock(&self.latency);
        let h = latency_map.entry(method.to_string()).or_default();
        let secs = latency.as_secs_f64();
        for (count, bound) in h.counts.iter_mut().zip(BUCKETS) {
            if secs <= bound {
                *count += 1;
            }
        }
        h.count += 1;
        h.sum += secs;
    }

    /// A search (or perft) took a place on the pool (`+1`) or gave it back (`-1`).
    pub fn search_running(&self, delta: i64) {
        self.searches_running.fetch_add(delta, Ordering::Relaxed);
    }

    /// A search was refused: the pool was full, or no thread would be free in time.
    pub fn rejected(&self) {
        self.searches_rejected.fetch_add(1, Ordering::Relaxed);
    }

    /// A search finished after visiting `nodes` nodes.
    pub fn searched(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// A connection was accepted (`+1`) or closed (`-1`).
    pub fn connection_opened(&self, delta: i64) {
        self.connections_open.fetch_add(delta, Ordering::Relaxed);
    }

    /// A new connection was closed at once: `--max-connections` were open,
    /// each of which had made a call.
    pub fn connection_refused(&self) {
        self.connections_refused.fetch_add(1, Ordering::Relaxed);
    }

    /// A connection that opened no call was closed: its idle time was up, or
    /// it made room for a new one at `--max-connections`.
    pub fn connection_idle_closed(&self) {
        self.connections_idle_closed.fetch_add(1, Ordering::Relaxed);
    }

    /// Request bytes being received were admitted (`> 0`) or arrived (`< 0`).
    pub fn request_bytes_held(&self, delta: i64) {
        self.request_bytes_held.fetch_add(delta, Ordering::Relaxed);
    }

    /// A request was refused while being received: a message too long for
    /// its method or the request memory budget, or one not received in time.
    pub fn request_refused(&self) {
        self.requests_refused.fetch_add(1, Ordering::Relaxed);
    }

    /// The metrics in Prometheus' text format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let calls = lock(&self.calls).clone();
        header(
            &mut out,
            "caber_grpc_calls_total",
            "counter",
            "gRPC calls finished, by method and status code.",
        );
        for ((method, code), n) in &calls {
            let _ = writeln!(
                out,
                "caber_grpc_calls_total{{method=\"{method}\",code=\"{code}\"}} {n}"
            );
        }
        header(
            &mut out,
            "caber_grpc_errors_total",
            "counter",
            "gRPC calls that ended with a status other than OK, by method.",
        );
        let mut errors: BTreeMap<&str, u64> = BTreeMap::new();
        for ((method, code), n) in &calls {
            if *code != "OK" {
                *errors.entry(method).or_default() += n;
            }
        }
        for (method, n) in errors {
            let _ = writeln!(out, "caber_grpc_errors_total{{method=\"{method}\"}} {n}");
        }
        header(
            &mut out,
            "caber_grpc_call_duration_seconds",
            "histogram",
            "gRPC call latency, from the request to the end of the response.",
        );
        for (method, h) in lock(&self.latency).iter() {
            let name = "caber_grpc_call_duration_seconds";
            for (count, bound) in h.counts.iter().zip(BUCKETS) {
                let _ = writeln!(
                    out,
                    "{name}_bucket{{method=\"{method}\",le=\"{bound}\"}} {count}"
                );
            }
            let _ = writeln!(
                out,
                "{name}_bucket{{method=\"{method}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(out, "{name}_sum{{method=\"{method}\"}} {}", h.sum);
            let _ = writeln!(out, "{name}_count{{method=\"{method}\"}} {}", h.count);
        }
        let gauges = [
            (
                "caber_grpc_calls_in_flight",
                "gauge",
                "gRPC calls in progress.",
                self.in_flight.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_searches_running",
                "gauge",
                "Searches and perft counts holding a place on the search pool.",
                self.searches_running.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_searches_rejected_total",
                "counter",
                "Searches refused with RESOURCE_EXHAUSTED: the pool was full, or no thread was sure to be free before the deadline.",
                self.searches_rejected.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_search_nodes_total",
                "counter",
                "Nodes visited by finished searches.",
                self.nodes.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_connections_open",
                "gauge",
                "Client connections open (at most --max-connections).",
                self.connections_open.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_connections_refused_total",
                "counter",
                "New connections closed at once: --max-connections were open, each of which had made a call.",
                self.connections_refused.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_connections_idle_closed_total",
                "counter",
                "Connections closed for opening no call: within --idle-timeout-ms, or to make room for a new one at --max-connections.",
                self.connections_idle_closed.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_request_bytes_receiving",
                "gauge",
                "Bytes of request messages announced and not yet received (at most --max-request-memory-bytes).",
                self.request_bytes_held.load(Ordering::Relaxed).to_string(),
            ),
            (
                "caber_requests_refused_total",
                "counter",
                "Requests refused while being received: a message too long for its method or for --max-request-memory-bytes, or not received within --request-timeout-ms.",
                self.requests_refused.load(Ordering::Relaxed).to_string(),
            ),
        ];
        for (name, kind, help, value) in gauges {
            header(&mut out, name, kind, help);
            let _ = writeln!(out, "{name} {value}");
        }
        crate::process_metrics::render(&mut out);
        out
    }
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The canonical name of a gRPC status code (`OK`, `INVALID_ARGUMENT`, ...).
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code::*;
    match code {
        Ok => "OK",
        Cancelled => "CANCELLED",
        Unknown => "UNKNOWN",
        InvalidArgument => "INVALID_ARGUMENT",
        DeadlineExceeded => "DEADLINE_EXCEEDED",
        NotFound => "NOT_FOUND",
        AlreadyExists => "ALREADY_EXISTS",
        PermissionDenied => "PERMISSION_DENIED",
        ResourceExhausted => "RESOURCE_EXHAUSTED",
        FailedPrecondition => "FAILED_PRECONDITION",
        Aborted => "ABORTED",
        OutOfRange => "OUT_OF_RANGE",
        Unimplemented => "UNIMPLEMENTED",
        Internal => "INTERNAL",
        Unavailable => "UNAVAILABLE",
        DataLoss => "DATA_LOSS",
        Unauthenticated => "UNAUTHENTICATED",
    }
}

/// Serves `GET /metrics` on `listener` forever (one short HTTP/1.1 exchange
/// per connection; other paths get 404).
pub async fn serve(listener: TcpListener) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                tokio::spawn(answer(stream));
            }
            Err(e) => {
                tracing::warn!("metrics: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Reads one request head (at most 8 KiB, 5 s) and answers it.
async fn answer(mut stream: TcpStream) {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 8192 {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    if read.is_err() {
        return;
    }
    let line = head.split(|&b| b == b'\r').next().unwrap_or_default();
    let mut parts = line.split(|&b| b == b' ');
    let (method, path) = (parts.next(), parts.next());
    let (status, body) = match (method, path) {
        (Some(b"GET"), Some(b"/metrics")) => ("200 OK", global().render()),
        (Some(b"GET"), Some(_)) => ("404 Not Found", "not found: try /metrics\n".to_string()),
        _ => ("405 Method Not Allowed", "only GET /metrics\n".to_string()),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/plain; version=0.0.4; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_counts_calls_errors_and_latency() {
        let m = Metrics::default();
        m.call_started();
        m.call_finished("/a/B", tonic::Code::Ok, Duration::from_millis(3));
        m.call_started();
        m.call_finished(
            "/a/B",
            tonic::Code::InvalidArgument,
            Duration::from_millis(200),
        );
        m.call_started();
        m.call_finished("unknown", tonic::Code::Unimplemented, Duration::ZERO);
        m.searched(42);
        let text = m.render();
        for line in [
            "caber_grpc_calls_total{method=\"/a/B\",code=\"OK\"} 1",
            "caber_grpc_calls_total{method=\"/a/B\",code=\"INVALID_ARGUMENT\"} 1",
            "caber_grpc_calls_total{method=\"unknown\",code=\"UNIMPLEMENTED\"} 1",
            "caber_grpc_errors_total{method=\"/a/B\"} 1",
            "caber_grpc_call_duration_seconds_bucket{method=\"/a/B\",le=\"0.0025\"} 0",
            "caber_grpc_call_duration_seconds_bucket{method=\"/a/B\",le=\"0.005\"} 1",
            "caber_grpc_call_duration_seconds_bucket{method=\"/a/B\",le=\"0.25\"} 2",
            "caber_grpc_call_duration_seconds_count{method=\"/a/B\"} 2",
            "caber_grpc_calls_in_flight 0",
            "caber_search_nodes_total 42",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
    }
}
