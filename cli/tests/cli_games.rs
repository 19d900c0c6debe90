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
    let text = view["position"]["text"].as_str().unwrap();
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
    let text = after["position"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("view:1 turn:2 ") && text.contains("dc:41"),
        "{text}"
    );
    // A view of a view is refused with the server's message.
    let out = caber(&[&common[..], &["--position", text, "view"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already a player's view"));
}

/// A match of any game between engine specs: both seats from each opening,
/// results per seat, the Elo estimate inside its interval, every game
/// written as a record that replays; a spec the game does not have fails
/// every game and the command says so.
#[test]
fn match_plays_both_seats_and_writes_records() {
    let dir = std::env::temp_dir().join(format!("caber-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let records = dir.to_str().unwrap();
    // Each game's SIDE_ONE, named as the record's tag names it.
    for (game, a, b, one) in [
        ("schotten-totten", "greedy", "random", "First"),
        ("tartan", "alphabeta:depth=1", "random", "Red"),
        ("almatafl", "uct-baseline:nodes=200", "random", "Invaders"),
    ] {
        let v = json(&[
            "--game",
            game,
            "--seed",
            "9",
            "match",
            "--games",
            "4",
            "--a",
            a,
            "--b",
            b,
            "--records",
            records,
            "--json",
        ]);
        assert_eq!(v["games"], 4, "{game}");
        assert_eq!(v["aSeats"][0]["side"], one.to_lowercase(), "{v}");
        let seats = |k: usize| {
            let s = &v["aSeats"][k];
            s["wins"].as_u64().unwrap()
                + s["draws"].as_u64().unwrap()
                + s["losses"].as_u64().unwrap()
        };
        assert_eq!((seats(0), seats(1)), (2, 2), "{game}");
        // The estimate lies in its interval; at a score of 0 or 1 the
        // difference is unbounded on that side (null).
        let range = v["elo95"].as_array().unwrap();
        let (lo, hi) = (range[0].as_f64(), range[1].as_f64());
        match v["elo"].as_f64() {
            Some(elo) => assert!(lo.unwrap() <= elo && elo <= hi.unwrap(), "{v}"),
            None => {
                let score = v["aScore"].as_f64().unwrap();
                assert!(score == 0.0 || score == 1.0, "{v}");
                assert_eq!(
                    (score == 1.0, lo.is_some(), hi.is_some()),
                    (true, true, false)
                );
                assert!(lo.unwrap() > 0.0, "{v}");
            }
        }
        let first = std::fs::read_to_string(dir.join("game-0001.record")).unwrap();
        assert!(first.contains(&format!("[Game \"{game}\"]")), "{first}");
        assert!(first.contains(&format!("[{one} \"{a}\"]")), "{first}");
        assert!(first.contains("[Date \"20"), "{first}");
        // The searcher's moves carry its evaluation; `random` has none.
        let moves = first.lines().filter(|l| l.contains(". ")).count();
        let evals = first.matches("{[%eval ").count();
        assert!(evals > 0 && evals < moves, "{evals} of {moves}: {first}");
        let second = std::fs::read_to_string(dir.join("game-0002.record")).unwrap();
        assert!(
            second.contains(&format!("[{one} \"{b}\"]")),
            "seats swapped: {second}"
        );
        // A record replays: the review reads every move.
        let review = caber(&[
            "review",
            dir.join("game-0002.record").to_str().unwrap(),
            "--nodes",
            "100",
        ]);
        assert!(
            review.status.success(),
            "{}",
            String::from_utf8_lossy(&review.stderr)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // A searcher the game lacks stops the match before its first game; an
    // engine that never answers fails every game, and the match says so.
    for (engine, says) in [
        ("ismcts", "engine \"ismcts\": searcher: unknown searcher"),
        ("cmd=false", "no game was played"),
    ] {
        let out = caber(&[
            "--game",
            "tablut",
            "match",
            "--games",
            "2",
            "--a",
            engine,
            "--records",
            records,
        ]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--sprt` stops a lopsided match once decided, on a whole pair of games;
/// `cmd=` plays another binary (here this one) through its command line.
#[test]
fn match_stops_by_sprt_and_plays_an_engine_command() {
    let dir = std::env::temp_dir().join(format!("caber-sprt-{}", std::process::id()));
    let records = dir.to_str().unwrap();
    let v = json(&[
        "--game",
        "tablut",
        "match",
        "--a",
        "alphabeta:depth=2",
        "--b",
        "random",
        "--games",
        "100",
        "--sprt",
        "0,50",
        "--records",
        records,
        "--json",
    ]);
    let games = v["games"].as_u64().unwrap();
    assert_eq!(v["sprt"]["verdict"], "H1", "{v}");
    assert!(v["sprt"]["llr"].as_f64().unwrap() >= 2.944, "{v}");
    assert!(games < 100 && games.is_multiple_of(2), "{v}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count() as u64, games);
    std::fs::remove_dir_all(&dir).unwrap();

    // --no-records writes nothing (the Job's read-only filesystem).
    let v = json(&[
        "--game",
        "tablut",
        "match",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--no-records",
        "--json",
    ]);
    assert_eq!(
        (v["games"].as_u64(), v["records"].is_null()),
        (Some(2), true),
        "{v}"
    );

    let template = format!(
        "cmd={} --game {{game}} --variant {{variant}} --position '{{position}}' best --depth 1 --json",
        env!("CARGO_BIN_EXE_caber")
    );
    let v = json(&[
        "--game",
        "tablut",
        "--variant",
        "ashton",
        "match",
        "--a",
        &template,
        "--b",
        "alphabeta:depth=1",
        "--games",
        "2",
        "--records",
        records,
        "--json",
    ]);
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["errors"].as_array().unwrap().len(), 0, "{v}");
    // The same deterministic engine on both sides of one opening: the two
    // games are the same game, so the first seat's result repeats.
    let (first, second) = (&v["aSeats"][0], &v["aSeats"][1]);
    assert_eq!(first["wins"], second["losses"], "{v}");
    assert_eq!(first["draws"], second["draws"], "{v}");

    // A `caber engine` process per game and seat (uci=), told the game by
    // its options: every game played, none failed.
    let uci = format!("uci={} engine", env!("CARGO_BIN_EXE_caber"));
    let v = json(&[
        "--game",
        "almatafl",
        "match",
        "--a",
        &uci,
        "--b",
        "random",
        "--games",
        "2",
        "--movetime",
        "30",
        "--records",
        records,
        "--json",
    ]);
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["errors"].as_array().unwrap().len(), 0, "{v}");
    let bad = caber(&[
        "match",
        "--a",
        "uci=/nonexistent/engine",
        "--b",
        "random",
        "--games",
        "2",
    ]);
    let said = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{said}");
    assert!(
        said.contains("cannot run \"/nonexistent/engine\""),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bench playouts` plays random games of every variant of every game
/// `caber games` lists on one thread and reports rates that follow from its
/// counts; a bad variant is refused.
#[test]
fn bench_playouts_reports_random_games_per_second() {
    let listed = json(&["games", "--json"]);
    let every: Vec<(String, String)> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| {
            let name = g["name"].as_str().unwrap().to_string();
            g["variants"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |v| (name.clone(), v["name"].as_str().unwrap().to_string()))
        })
        .collect();
    assert!(every.len() >= 9, "{every:?}");
    for (game, variant) in &every {
        let (game, variant) = (game.as_str(), variant.as_str());
        let v = json(&[
            "--game",
            game,
            "--variant",
            variant,
            "bench",
            "playouts",
            "--seconds",
            "0.2",
            "--json",
        ]);
        assert_eq!(
            (v["game"].as_str(), v["variant"].as_str()),
            (Some(game), Some(variant))
        );
        let (games, plies) = (v["games"].as_f64().unwrap(), v["plies"].as_f64().unwrap());
        let seconds = v["seconds"].as_f64().unwrap();
        assert!(games >= 1.0 && plies >= games && seconds >= 0.2, "{v}");
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1.0);
        assert!(
            close(v["gamesPerSecond"].as_f64().unwrap(), games / seconds),
            "{v}"
        );
        assert!(
            close(v["movesPerSecond"].as_f64().unwrap(), plies / seconds),
            "{v}"
        );
        assert!(
            close(v["meanLength"].as_f64().unwrap(), plies / games),
            "{v}"
        );
        assert_eq!(v["threads"], 1);
    }
    let out = caber(&[
        "--variant",
        "nosuch",
        "bench",
        "playouts",
        "--seconds",
        "0.1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nosuch"));
}

/// Every Schotten Totten move is one token, so a whole game of any variant
/// (claims and tactic cards included) replays from `--seed` and `--moves`:
/// random games recorded by `match`, given back move by move, end with the
/// recorded result.
#[test]
fn schotten_totten_games_replay_from_seed_and_moves() {
    let dir = std::env::temp_dir().join(format!("caber-st-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let records = dir.to_str().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for variant in ["classic", "tactics", "expert"] {
        let args = [
            "--game",
            "schotten-totten",
            "--variant",
            variant,
            "--seed",
            "5",
            "match",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "4",
            "--records",
            records,
            "--json",
        ];
        json(&args);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let tag = |name: &str| {
                let start = format!("[{name} \"");
                let line = text.lines().find(|l| l.starts_with(&start)).unwrap();
                line[start.len()..line.len() - 2].to_string()
            };
            let moves: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split_once(". ").map(|(_, m)| m))
                .collect();
            for m in &moves {
                assert!(!m.contains(' '), "{}: {m:?}", path.display());
                seen.insert(m.split(['@', ':', '/']).nth(1).unwrap_or("").to_string());
                seen.extend(
                    m.split('/')
                        .filter(|p| p.starts_with("c:"))
                        .map(|_| "claim".to_string()),
                );
            }
            let seed = tag("Seed");
            let replayed = json(&[
                "--game",
                "schotten-totten",
                "--variant",
                &tag("Variant"),
                "--seed",
                &seed,
                "--moves",
                &moves.join(" "),
                "new",
                "--json",
            ]);
            assert!(
                replayed["position"]["outcome"].is_object(),
                "{}: not over",
                path.display()
            );
            let winner = replayed["position"]["outcome"]["winnerName"]
                .as_str()
                .unwrap_or("");
            let expected = match tag("Result").as_str() {
                "1-0" => "first",
                "0-1" => "second",
                _ => "",
            };
            assert_eq!(winner, expected, "{}: {replayed}", path.display());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // Claims and tactic cards were among the moves replayed.
    for kind in ["claim", "RECRUITER", "TRAITOR", "MUD"] {
        assert!(seen.contains(kind), "no {kind} in {seen:?}");
    }
}

/// An engine run as a command is given only what its side may know: in
/// Schotten Totten the mover's view, never the referee's full state with
/// the other hand and the decks (this engine refuses anything but a view).
#[test]
fn a_command_engine_sees_only_its_view_of_hidden_cards() {
    let caber = env!("CARGO_BIN_EXE_caber");
    let template = format!(
        "cmd=sh -c 'case \"{{position}}\" in view:*) exec {caber} --game {{game}} \
         --variant {{variant}} --position \"{{position}}\" best --nodes 50 --json;; *) exit 7;; esac'"
    );
    let v = json(&[
        "--game",
        "schotten-totten",
        "--seed",
        "3",
        "match",
        "--a",
        &template,
        "--b",
        "greedy",
        "--games",
        "2",
        "--no-records",
        "--json",
    ]);
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["errors"].as_array().unwrap().len(), 0, "{v}");
}
