//! `caber` on AlmaTafl and Schotten Totten: diagrams in human output, the
//! view of a full state, and matches.

use std::process::{Command, Output};

use serde_json::Value;

fn caber(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(args)
        .output()
        .expect("caber runs")
}

fn stdout(args: &[&str]) -> String {
    let out = caber(args);
    assert!(
        out.status.success(),
        "caber {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).expect("one JSON object")
}

#[test]
fn almatafl_commands_show_the_star_diagram() {
    let legal = stdout(&["--game", "almatafl", "legal"]);
    // The King on the throne row, escape spots, and the row labels of the star.
    assert!(
        legal.contains(" 6  i1  ..  ..  d1  K1  d1  ..  ..  i1"),
        "{legal}"
    );
    assert!(legal.contains("90 legal moves"), "{legal}");
    let best = stdout(&["--game", "almatafl", "best", "--depth", "1"]);
    assert!(best.contains("K1") && best.contains("bestmove "), "{best}");
    let eval = stdout(&[
        "--game",
        "almatafl",
        "--position",
        "B2=i,C3=d,F6=k,F7=i,F9=i d -",
        "eval",
    ]);
    assert!(
        eval.contains("static evaluation") && eval.contains("K1"),
        "{eval}"
    );
}

#[test]
fn schotten_totten_view_best_and_the_stones_diagram() {
    let common = [
        "--game",
        "schotten-totten",
        "--variant",
        "classic",
        "--seed",
        "42",
    ];
    let view = json(&[&common[..], &["view", "--player", "first", "--json"]].concat());
    let text = view["position"].as_str().unwrap();
    assert!(
        text.starts_with("view:1 turn:1 ") && text.contains("h1:R3,R6,R8,Y4,Y9,K3 h2:?,?,?,?,?,?"),
        "{text}"
    );
    let best = stdout(&[&common[..], &["--position", text, "best", "--nodes", "50"]].concat());
    assert!(
        best.contains("first (viewer) hand: R3 R6 R8 Y4 Y9 K3"),
        "{best}"
    );
    assert!(best.contains("stone"), "{best}");
    let line = best.lines().find(|l| l.starts_with("bestmove p:")).unwrap();
    let mv = line.split_whitespace().nth(1).unwrap();
    // The referee applies it on the full state; first's new view has six cards again.
    let after = json(
        &[
            &common[..],
            &["--moves", mv, "view", "--player", "first", "--json"],
        ]
        .concat(),
    );
    let text = after["position"].as_str().unwrap();
    assert!(
        text.starts_with("view:1 turn:2 ") && text.contains("dc:41"),
        "{text}"
    );
    // A view of a view is refused with the server's message.
    let out = caber(&[&common[..], &["--position", text, "view"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already a player's view"));
}

#[test]
fn match_reports_every_game_and_a_confidence_interval() {
    let v = json(&[
        "--game",
        "schotten-totten",
        "--seed",
        "9",
        "match",
        "--games",
        "3",
        "--a",
        "greedy",
        "--b",
        "random",
        "--json",
    ]);
    assert_eq!(v["games"], 6);
    let count = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(count("a_wins") + count("b_wins") + count("draws"), 6);
    let rate = v["a_win_rate"].as_f64().unwrap();
    let range = v["a_win_rate_95"].as_array().unwrap();
    let (low, high) = (range[0].as_f64().unwrap(), range[1].as_f64().unwrap());
    assert!(low <= rate && rate <= high && (0.0..=1.0).contains(&low) && high <= 1.0);
    let out = caber(&["--game", "tablut", "match", "--games", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("game: matches are played for schotten-totten"));
}
