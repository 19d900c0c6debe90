//! Every key `caber --json` prints is a field of the API in protobuf's JSON
//! mapping (the names grpcurl and the board's client read), or one of the
//! few keys of the CLI's own reports listed here, all in the same
//! lowerCamelCase.

use std::collections::BTreeSet;
use std::process::Command;

use prost_reflect::DescriptorPool;
use serde_json::Value;

/// Keys of what the CLI reports itself (no RPC answers with them): errors,
/// `render`, `bench playouts`, `match` and `puzzle solve`, `list` and
/// `generate`. (`tablut-challenge` and its `serve`, `bench service` and `bench
/// reliability` need a server; their keys are in the same casing.)
const CLI_ONLY: &[&str] = &[
    // errors
    "error",
    "code",
    "message",
    "hint",
    // render
    "file",
    "bytes",
    "lastMove",
    // bench playouts
    "threads",
    "gamesPerSecond",
    "movesPerSecond",
    "meanLength",
    // match
    "a",
    "b",
    "aSeats",
    "wins",
    "draws",
    "losses",
    "aScore",
    "elo",
    "elo95",
    "sprt",
    "elo0",
    "elo1",
    "llr",
    "bounds",
    "verdict",
    "errors",
    "records",
    // puzzle solve, puzzle list
    "solved",
    "total",
    "disagreements",
    "id",
    "problem",
    "sets",
    "puzzles",
    "ratings",
    "themes",
    // puzzle generate: the puzzle file's lines (docs/PUZZLES.md), and the
    // summary of what it wrote
    "goal",
    "solution",
    "also",
    "rating",
    "tags",
    "positions",
];

/// Keys whose values are maps keyed by data (a theme's name), not by field.
const DATA_MAPS: &[&str] = &["themes"];

/// The JSON names of every field of the API.
fn api_names() -> BTreeSet<String> {
    let pool = DescriptorPool::decode(caber_service::proto::FILE_DESCRIPTOR_SET).unwrap();
    pool.all_messages()
        .flat_map(|m| {
            m.fields()
                .map(|f| f.json_name().to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every key of `value`, nested ones too.
fn keys(value: &Value, into: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                into.insert(k.clone());
                if !DATA_MAPS.contains(&k.as_str()) {
                    keys(v, into);
                }
            }
        }
        Value::Array(list) => list.iter().for_each(|v| keys(v, into)),
        _ => {}
    }
}

/// The JSON lines `caber ARGS` prints (it may fail: errors are JSON too).
fn printed(args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("caber runs");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.trim().is_empty(), "{args:?} printed nothing");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: {e}: {l}")))
        .collect()
}

#[test]
fn every_key_the_cli_prints_is_an_api_field_or_a_listed_report_key() {
    let svg = std::env::temp_dir().join(format!("caber-json-names-{}.svg", std::process::id()));
    let svg = svg.to_str().unwrap();
    let puzzles =
        std::env::temp_dir().join(format!("caber-json-names-{}.jsonl", std::process::id()));
    let puzzles = puzzles.to_str().unwrap();
    let st = ["--game", "schotten-totten", "--seed", "3"];
    let runs: Vec<Vec<&str>> = vec![
        vec!["games", "--json"],
        vec!["new", "--json"],
        vec!["legal", "--json"],
        vec!["apply", "d1-d2", "--json"],
        vec!["eval", "--json"],
        vec!["eval", "--depth", "1", "--json"],
        vec!["best", "--depth", "2", "--json"],
        vec!["best", "--searcher", "mcts", "--nodes", "100", "--json"],
        vec!["analyze", "--depth", "2", "--json"],
        vec!["perft", "--depth", "2", "--divide", "--json"],
        [&st[..], &["view", "--json"]].concat(),
        [&st[..], &["best", "--nodes", "50", "--json"]].concat(),
        vec![
            "review",
            "docs/examples/ashton.record",
            "--depth",
            "1",
            "--json",
        ],
        vec!["render", "--svg", svg, "--json"],
        vec!["bench", "playouts", "--seconds", "0.1", "--json"],
        vec![
            "--game",
            "tablut",
            "match",
            "--a",
            "alphabeta:depth=1",
            "--b",
            "random",
            "--games",
            "2",
            "--no-records",
            "--json",
        ],
        vec!["puzzle", "solve", "cli/puzzles/tartan.jsonl", "--json"],
        vec!["puzzle", "list", "--json"],
        vec![
            "--game", "tartan", "puzzle", "generate", "--count", "1", "--games", "20", "--json",
        ],
        vec![
            "--game", "tartan", "puzzle", "generate", "--count", "1", "--games", "20", "--out",
            puzzles, "--json",
        ],
        vec!["best", "--depth", "abc", "--json"],
    ];
    let api = api_names();
    let mut unknown = BTreeSet::new();
    for args in &runs {
        let mut seen = BTreeSet::new();
        for value in printed(args) {
            keys(&value, &mut seen);
        }
        for key in seen {
            if !api.contains(&key) && !CLI_ONLY.contains(&key.as_str()) {
                unknown.insert(format!("{key} (in {args:?})"));
            }
        }
    }
    let _ = std::fs::remove_file(svg);
    let _ = std::fs::remove_file(puzzles);
    assert!(
        unknown.is_empty(),
        "keys that are no API field: {unknown:#?}"
    );
    // The check can fail: a snake_case key is none of them.
    assert!(!api.contains("time_ms") && !CLI_ONLY.contains(&"time_ms"));
    assert!(api.contains("timeMs") && api.contains("bestMove"));
}
