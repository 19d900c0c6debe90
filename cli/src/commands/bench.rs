//! `caber bench service`: load on a running server, against a no-op baseline.
//!
//! `concurrency` workers, each on its own connection, call the RPC back to
//! back for `seconds`, and the baseline the same way; the two take turns in
//! `rounds` slices (baseline first), so that a change in the load of a shared
//! machine during the run weighs on both alike. The default
//! baseline is the health `Check` (`grpc.health.v1.Health/Check`, service
//! `""`): no engine work, tiny messages, the same transport and the same
//! server-side call layer (logs, metrics), so the ratio measures what the RPC
//! itself costs on top. `ListGames` can be the baseline instead (an API call
//! with no position to read, but a ~2 KB response).

use std::time::{Duration, Instant};

use anyhow::Context;
use caber_service::proto::{self, position::State};
use caber_service::tonic_health::pb::health_client::HealthClient;
use caber_service::tonic_health::pb::HealthCheckRequest;
use clap::ValueEnum;
use serde_json::json;
use tonic::transport::Channel;

use crate::client;
use crate::output::out;

/// The RPCs `bench` can load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Rpc {
    /// `LegalMoves` of the start position of `--game`.
    LegalMoves,
    /// `NewGame` of `--game`.
    NewGame,
    /// `ListGames`.
    ListGames,
    /// `grpc.health.v1.Health/Check` (the baseline).
    HealthCheck,
}

/// What `bench service` is asked to do.
#[derive(Debug, Clone)]
pub struct BenchSettings {
    /// The server and how to reach it.
    pub target: client::Target,
    /// The RPC to load.
    pub rpc: Rpc,
    /// The baseline RPC, run first the same way.
    pub baseline: Rpc,
    /// The game of `LegalMoves` and `NewGame`.
    pub game: String,
    /// Calls in flight at once (one connection each).
    pub concurrency: usize,
    /// Time given to each of the two RPCs, in all.
    pub seconds: f64,
    /// Slices the time is cut into, the two RPCs taking turns.
    pub rounds: usize,
    /// A process (the server) whose resident memory is sampled, if given.
    pub server_pid: Option<u32>,
}

/// One phase's results.
#[derive(Debug)]
struct Phase {
    calls: u64,
    errors: u64,
    first_error: Option<String>,
    elapsed: Duration,
    latencies: Vec<Duration>,
    /// CPU time this process (the client) used during the phase.
    client_cpu: Option<Duration>,
    /// CPU time the server process (`--rss-pid`) used during the phase.
    server_cpu: Option<Duration>,
}

impl Phase {
    /// Adds a later slice of the same RPC (latencies sorted again by the caller).
    fn absorb(&mut self, slice: Phase) {
        let add = |a: Option<Duration>, b: Option<Duration>| Some(a? + b?);
        self.calls += slice.calls;
        self.errors += slice.errors;
        self.first_error = self.first_error.take().or(slice.first_error);
        self.elapsed += slice.elapsed;
        self.latencies.extend(slice.latencies);
        self.client_cpu = add(self.client_cpu, slice.client_cpu);
        self.server_cpu = add(self.server_cpu, slice.server_cpu);
    }

    fn throughput(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64()
    }

    fn percentile_ms(&self, p: f64) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies.len() as f64 - 1.0) * p).round() as usize;
        self.latencies[i].as_secs_f64() * 1000.0
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "calls": self.calls,
            "errors": self.errors,
            "firstError": self.first_error,
            "seconds": self.elapsed.as_secs_f64(),
            "throughputPerS": round(self.throughput()),
            "p50Ms": round(self.percentile_ms(0.50)),
            "p99Ms": round(self.percentile_ms(0.99)),
            "cpuUsPerCall": {
                "client": self.client_cpu.map(|c| round(self.per_call_us(c))),
                "server": self.server_cpu.map(|c| round(self.per_call_us(c))),
            },
        })
    }

    fn per_call_us(&self, cpu: Duration) -> f64 {
        cpu.as_secs_f64() * 1e6 / self.calls.max(1) as f64
    }

    /// CPU time per call of the client and the server together (or the client
    /// alone, which holds the service when it runs in-process).
    fn cpu_per_call_us(&self) -> Option<f64> {
        let total = self.client_cpu? + self.server_cpu.unwrap_or_default();
        Some(self.per_call_us(total))
    }
}

/// User plus system CPU time of process `pid` so far, from `/proc/PID/stat`
/// (in ticks of 1/100 s, Linux's fixed `USER_HZ`).
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses: state is
    // the 3rd field of the line, utime the 14th and stime the 15th.
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_whitespace().skip(11);
    let ticks: u64 = fields.next()?.parse::<u64>().ok()? + fields.next()?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A call ready to be made over and over on one connection.
struct Caller {
    rpc: Rpc,
    api: client::Client,
    health: HealthClient<Channel>,
    position: proto::Position,
    game: String,
}

impl Caller {
    async fn call(&mut self) -> Result<(), tonic::Status> {
        match self.rpc {
            Rpc::LegalMoves => {
                let request = proto::LegalMovesRequest {
                    position: Some(self.position.clone()),
                    include_position: false,
                };
                self.api.legal_moves(request).await.map(drop)
            }
            Rpc::NewGame => {
                let request = proto::NewGameRequest {
                    game: self.game.clone(),
                    variant: String::new(),
                    seed: 0,
                };
                self.api.new_game(request).await.map(drop)
            }
            Rpc::ListGames => self
                .api
                .list_games(proto::ListGamesRequest {})
                .await
                .map(drop),
            Rpc::HealthCheck => self
                .health
                .check(HealthCheckRequest::default())
                .await
                .map(drop),
        }
    }
}

/// Runs `rpc` with `plan.concurrency` workers for `length`.
async fn phase(
    plan: &BenchSettings,
    rpc: Rpc,
    position: &proto::Position,
    length: Duration,
) -> anyhow::Result<Phase> {
    let mut callers = Vec::with_capacity(plan.concurrency);
    let auth = client::Auth::of(&plan.target)?;
    for _ in 0..plan.concurrency.max(1) {
        let channel = client::channel(&plan.target).await?;
        callers.push(Caller {
            rpc,
            api: client::api(channel.clone(), auth.clone()),
            health: HealthClient::new(channel),
            position: position.clone(),
            game: plan.game.clone(),
        });
    }
    let client_cpu = cpu_time(std::process::id());
    let server_cpu = plan.server_pid.and_then(cpu_time);
    let start = Instant::now();
    let end = start + length;
    let workers: Vec<_> = callers
        .into_iter()
        .map(|mut caller| {
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let (mut errors, mut first_error) = (0u64, None);
                while Instant::now() < end {
                    let t = Instant::now();
                    let result = caller.call().await;
                    latencies.push(t.elapsed());
                    if let Err(e) = result {
                        errors += 1;
                        first_error
                            .get_or_insert_with(|| format!("{:?}: {}", e.code(), e.message()));
                    }
                }
                (latencies, errors, first_error)
            })
        })
        .collect();
    let mut all = Phase {
        calls: 0,
        errors: 0,
        first_error: None,
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
        client_cpu: None,
        server_cpu: None,
    };
    for worker in workers {
        let (latencies, errors, first_error) = worker.await.context("a bench worker failed")?;
        all.calls += latencies.len() as u64;
        all.errors += errors;
        all.first_error = all.first_error.or(first_error);
        all.latencies.extend(latencies);
    }
    all.elapsed = start.elapsed();
    let used =
        |before: Option<Duration>, pid: Option<u32>| Some(cpu_time(pid?)?.saturating_sub(before?));
    all.client_cpu = used(client_cpu, Some(std::process::id()));
    all.server_cpu = used(server_cpu, plan.server_pid);
    Ok(all)
}

/// The resident set size of process `pid` in KiB, from `/proc/PID/status`.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs the baseline and the RPC in turns, and reports both and their throughput ratio.
pub async fn service(plan: &BenchSettings, as_json: bool) -> anyhow::Result<()> {
    let mut setup = client::connect(&plan.target).await?;
    let start = setup
        .new_game(proto::NewGameRequest {
            game: plan.game.clone(),
            variant: String::new(),
            seed: 0,
        })
        .await
        .map_err(super::status)?
        .into_inner();
    let text = start.position.map(|p| p.text);
    let position = proto::Position {
        game: plan.game.clone(),
        variant: String::new(),
        state: text.map(State::Text),
    };
    let rounds = plan.rounds.max(1);
    let slice = Duration::from_secs_f64(plan.seconds.max(0.1) / rounds as f64);
    let rss_before = plan.server_pid.and_then(rss_kib);
    let mut rss_rounds = Vec::new();
    let mut baseline = phase(plan, plan.baseline, &position, slice).await?;
    let mut target = phase(plan, plan.rpc, &position, slice).await?;
    for _ in 1..rounds {
        rss_rounds.push(plan.server_pid.and_then(rss_kib));
        baseline.absorb(phase(plan, plan.baseline, &position, slice).await?);
        target.absorb(phase(plan, plan.rpc, &position, slice).await?);
    }
    let rss_after = plan.server_pid.and_then(rss_kib);
    baseline.latencies.sort_unstable();
    target.latencies.sort_unstable();
    let ratio = target.throughput() / baseline.throughput().max(f64::MIN_POSITIVE);
    // Baseline CPU per call over the RPC's (client, and server if given).
    let cpu_ratio = baseline
        .cpu_per_call_us()
        .zip(target.cpu_per_call_us())
        .map(|(b, t)| b / t.max(f64::MIN_POSITIVE));
    let name = |rpc: Rpc| rpc.to_possible_value().map(|v| v.get_name().to_string());
    let (rpc, baseline_rpc) = (name(plan.rpc), name(plan.baseline));
    if as_json {
        let report = json!({
            "rpc": rpc,
            "baselineRpc": baseline_rpc,
            "concurrency": plan.concurrency,
            "secondsPerPhase": plan.seconds,
            "rounds": rounds,
            "target": target.json(),
            "baseline": baseline.json(),
            "throughputRatio": round(ratio),
            "cpuRatio": cpu_ratio.map(round),
            "rssKib": plan.server_pid.map(|pid| json!({
                "pid": pid,
                "before": rss_before,
                "betweenRounds": rss_rounds,
                "after": rss_after,
            })),
        });
        out!("{report}");
    } else {
        for (name, p) in [(&baseline_rpc, &baseline), (&rpc, &target)] {
            out!(
                "{}: {} calls, {} errors, {:.0}/s, p50 {:.3} ms, p99 {:.3} ms",
                name.as_deref().unwrap_or("?"),
                p.calls,
                p.errors,
                p.throughput(),
                p.percentile_ms(0.5),
                p.percentile_ms(0.99)
            );
        }
        out!("throughput ratio (target / baseline): {ratio:.3}");
        for (name, p) in [(&baseline_rpc, &baseline), (&rpc, &target)] {
            if let Some(cpu) = p.cpu_per_call_us() {
                out!(
                    "{}: {cpu:.1} us of CPU per call (client{})",
                    name.as_deref().unwrap_or("?"),
                    if p.server_cpu.is_some() {
                        " + server"
                    } else {
                        ""
                    }
                );
            }
        }
        if let Some(r) = cpu_ratio {
            out!("CPU ratio (baseline per call / target per call): {r:.3}");
        }
        if plan.server_pid.is_some() {
            let kib = |k: Option<u64>| k.map_or("?".to_string(), |k| k.to_string());
            let between: Vec<String> = rss_rounds.iter().map(|&k| kib(k)).collect();
            out!(
                "server RSS KiB: before {}, between rounds [{}], after {}",
                kib(rss_before),
                between.join(", "),
                kib(rss_after)
            );
        }
    }
    Ok(())
}
