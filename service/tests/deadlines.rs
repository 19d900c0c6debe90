//! Deadlines kept with every core busy: the real `caberd` process answers
//! `BestMove` calls with a 300 ms and a 1 s deadline, for every game and
//! searcher, while this test keeps each core of the machine saturated with
//! a busy loop (the searches then share the cores with them).

#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caber_service::proto::game_engine_client::GameEngineClient;
use caber_service::proto::{self};

/// Busy loops on every core until dropped.
struct Saturated(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Saturated {
    fn cores() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let n = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                })
            })
            .collect();
        Self(stop, threads)
    }
}

impl Drop for Saturated {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for t in self.1.drain(..) {
            let _ = t.join();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn best_moves_answer_within_their_deadline_with_every_core_busy() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caberd"))
        .args(["--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("caberd starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("caberd listening on ")
        .unwrap()
        .to_string();
    let mut client = GameEngineClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let cases = [
        ("tablut", "ashton", "alphabeta"),
        ("tablut", "bga", "mcts"),
        ("almatafl", "", "alphabeta"),
        ("almatafl", "", "mcts"),
        ("tartan", "", "alphabeta"),
        ("tartan", "", "mcts"),
        ("schotten-totten", "expert", "ismcts"),
    ];
    let _busy = Saturated::cores();
    let mut report = Vec::new();
    let mut missed = Vec::new();
    for deadline_ms in [300u64, 1000] {
        for (game, variant, searcher) in cases {
            let mut latest = Duration::ZERO;
            for seed in 0..4 {
                let mut request = tonic::Request::new(proto::BestMoveRequest {
                    position: Some(proto::Position {
                        game: game.into(),
                        variant: variant.into(),
                        ..Default::default()
                    }),
                    limits: Some(proto::Limits {
                        seed,
                        ..Default::default()
                    }),
                    searcher: searcher.into(),
                });
                let deadline = Duration::from_millis(deadline_ms);
                request.set_timeout(deadline);
                let start = Instant::now();
                let reply = client.best_move(request).await;
                let took = start.elapsed();
                latest = latest.max(took);
                if let Err(status) = reply {
                    missed.push(format!(
                        "{game} {searcher} {deadline_ms} ms: {status:?} after {took:?}"
                    ));
                }
            }
            report.push(format!(
                "{game} {searcher} deadline {deadline_ms} ms: slowest answer {latest:?}"
            ));
        }
    }
    drop(_busy);
    let _ = child.kill();
    let _ = child.wait();
    eprintln!("{}", report.join("\n"));
    assert!(missed.is_empty(), "{missed:#?}");
}
