//! `caber match` against `uci=` engines that misbehave: one that prints an
//! endless line, one that leaves a process of its own behind. The match
//! reads each engine's lines with a bound, quotes what it repeats of them
//! with their size, and ends each engine's process group with its game.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A shell script in a fresh directory, for `uci=sh SCRIPT`.
fn script(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("caber-uci-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("engine.sh");
    std::fs::write(&path, text).unwrap();
    path
}

fn play(engine: &str, games: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caber"))
        .args([
            "--game", "almatafl", "match", "--a", engine, "--b", "random",
        ])
        .args(["--games", games, "--movetime", "30", "--no-records"])
        .output()
        .expect("caber runs")
}

/// Whether a process with this command line runs (zombies do not count).
fn running(cmdline: &[u8]) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
        let line = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
        let status = std::fs::read_to_string(p.path().join("status")).unwrap_or_default();
        line == cmdline && !status.contains("State:\tZ")
    })
}

#[test]
fn an_endless_line_ends_the_game_with_a_short_error() {
    // A proper setup, then for `go` one line of `x` that never ends.
    let engine = script(
        "endless",
        "while read -r line; do case \"$line\" in \
         uci) echo uciok ;; isready) echo readyok ;; \
         go*) tr '\\0' x < /dev/zero ;; esac; done\n",
    );
    let started = Instant::now();
    let out = play(&format!("uci=sh {}", engine.display()), "2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the engine printed a line of more than 65536 bytes: \"{}\"... (",
            "x".repeat(64)
        )),
        "{stderr}"
    );
    assert!(stderr.len() < 1000, "{} bytes of errors", stderr.len());
    // Not waited out to the deadline (2 x 30 ms + 10 s a move): given up
    // at the bound. A guard, not a measure of speed.
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn an_engines_own_processes_end_with_its_game() {
    // The engine starts a process of its own, then is `caber engine`.
    let engine = script(
        "child",
        &format!(
            "sleep 314.1592 &\nexec {} engine\n",
            env!("CARGO_BIN_EXE_caber")
        ),
    );
    let out = play(&format!("uci=sh {}", engine.display()), "2");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(": 2 games of almatafl"), "{stdout}");
    // Its group was killed with the game: the sleep is gone (a moment for
    // the signal, within 5 s).
    let sleep = b"sleep\x00314.1592\x00";
    for _ in 0..100 {
        if !running(sleep) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!running(sleep), "the engine's child outlived the match");
}

#[test]
fn a_long_bestmove_is_quoted_short_with_its_size() {
    // A move of 60 KB (within the line bound): refused, and quoted short.
    let engine = script(
        "long-move",
        "while read -r line; do case \"$line\" in \
         uci) echo uciok ;; isready) echo readyok ;; \
         go*) printf 'bestmove '; head -c 60000 /dev/zero | tr '\\0' q; echo ;; esac; done\n",
    );
    let out = play(&format!("uci=sh {}", engine.display()), "2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("move \"{}\"... (60000 bytes)", "q".repeat(64))),
        "{stderr}"
    );
    assert!(stderr.len() < 1000, "{} bytes of errors", stderr.len());
}
