//! The shipped puzzle sets (cli/puzzles/*.jsonl, docs/PUZZLES.md), each
//! puzzle checked by the engine: its goal holds (`Solve` finds a win in N
//! with the file's first move as the only winning first move, or in a win in
//! one the file's moves, which all play the same piece or card), its tags
//! are the goal and the themes `Solve` names, an
//! independent search agrees that every other first move fails (alpha-beta
//! to the same horizon, for the perfect-information games), and the
//! solution line replays legally to the solver's win in N moves.

use std::path::{Path, PathBuf};

use caber_service::games;
use caber_service::proto::game_engine_server::GameEngine;
use caber_service::proto::{self, position::State};
use caber_service::EngineService;
use serde_json::Value;
use tonic::Request;

fn puzzle_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/puzzles")
}

fn text(game: &str, variant: &str, text: &str) -> proto::Position {
    proto::Position {
        game: game.into(),
        variant: variant.into(),
        state: Some(State::Text(text.into())),
    }
}

fn text_move(mv: &str) -> proto::Move {
    proto::Move {
        kind: Some(proto::r#move::Kind::Text(mv.into())),
    }
}

async fn check(service: &EngineService, p: &Value) {
    let id = p["id"].as_str().unwrap();
    let (game, variant) = (p["game"].as_str().unwrap(), p["variant"].as_str().unwrap());
    let position = text(game, variant, p["position"].as_str().unwrap());
    let n: u32 = p["goal"]
        .as_str()
        .unwrap()
        .strip_prefix("win in ")
        .unwrap()
        .parse()
        .unwrap();
    let solution: Vec<&str> = p["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    // The goal, and the only winning first move.
    let solved = service
        .solve(Request::new(proto::SolveRequest {
            position: Some(position.clone()),
            max_moves: n,
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(solved.win_in, n, "{id}");
    let mut winning: Vec<&str> = solved.winning.iter().map(|m| m.text.as_str()).collect();
    let mut accepted: Vec<&str> = p["also"]
        .as_array()
        .map_or(vec![], |a| a.iter().map(|m| m.as_str().unwrap()).collect());
    assert!(
        accepted.is_empty() || n == 1,
        "{id}: other moves only in a win in one"
    );
    accepted.push(solution[0]);
    winning.sort_unstable();
    accepted.sort_unstable();
    assert_eq!(winning, accepted, "{id}");
    let subject = &solved.winning[0].subject;
    assert!(
        solved.winning.iter().all(|m| m.subject == *subject),
        "{id}: the winning moves play different things"
    );
    let mut tags = vec![format!("win-in-{n}")];
    tags.extend(solved.themes.iter().cloned());
    let file_tags: Vec<&str> = p["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(file_tags, tags, "{id}: tags");
    // Every other first move fails, by an independent search.
    let legal = service
        .legal_moves(Request::new(proto::LegalMovesRequest {
            position: Some(position.clone()),
            include_position: true,
        }))
        .await
        .unwrap()
        .into_inner();
    let solver = legal.position.as_ref().unwrap().side_to_move;
    let perfect = game != "schotten-totten";
    for alternative in legal
        .moves
        .iter()
        .filter(|m| !accepted.contains(&m.text.as_str()))
    {
        let after = service
            .apply(Request::new(proto::ApplyRequest {
                position: Some(position.clone()),
                r#move: alternative.r#move.clone(),
            }))
            .await
            .unwrap()
            .into_inner()
            .position
            .unwrap();
        if let Some(o) = &after.outcome {
            assert_ne!(
                o.winner, solver,
                "{id}: {} wins at once too",
                alternative.text
            );
            continue;
        }
        if n == 1 || !perfect {
            continue;
        }
        // The opponent to move is not lost within the 2n - 2 plies left.
        let searched = service
            .evaluate(Request::new(proto::EvaluateRequest {
                position: after.position,
                limits: Some(proto::Limits {
                    depth: 2 * n - 2,
                    ..Default::default()
                }),
                searcher: "alphabeta".into(),
            }))
            .await
            .unwrap()
            .into_inner();
        let lost = matches!(
            searched.score.and_then(|s| s.value),
            Some(proto::score::Value::MatePlies(k)) if k < 0 && -k <= 2 * n as i32 - 2
        );
        assert!(!lost, "{id}: {} also wins within {n}", alternative.text);
    }
    // The line replays to the solver's win in n of its moves.
    let mut at = position;
    let mut end = None;
    for (i, mv) in solution.iter().enumerate() {
        assert!(end.is_none(), "{id}: moves after the end");
        let applied = service
            .apply(Request::new(proto::ApplyRequest {
                position: Some(at.clone()),
                r#move: Some(text_move(mv)),
            }))
            .await
            .unwrap_or_else(|e| panic!("{id}: move {} ({mv}): {e:?}", i + 1))
            .into_inner();
        let report = applied.position.unwrap();
        end = report.outcome.clone();
        at = report.position.unwrap();
    }
    assert_eq!(solution.len() as u32, 2 * n - 1, "{id}");
    assert_eq!(end.expect("the line ends the game").winner, solver, "{id}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_shipped_puzzle_has_one_solution_and_it_wins() {
    let service = EngineService::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(puzzle_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let mut sets = Vec::new();
    for file in &files {
        let puzzles: Vec<Value> = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(
            puzzles.len() >= 30,
            "{}: {} puzzles",
            file.display(),
            puzzles.len()
        );
        for p in &puzzles {
            check(&service, p).await;
            sets.push((
                p["game"].as_str().unwrap().to_string(),
                p["variant"].as_str().unwrap().to_string(),
            ));
        }
    }
    // A set of at least 30 for every variant of every game.
    for g in games::registry() {
        for v in g.info().variants {
            let n = sets
                .iter()
                .filter(|(game, variant)| game == g.name() && *variant == v.name)
                .count();
            assert!(n >= 30, "{} {}: {n} puzzles", g.name(), v.name);
        }
    }
    eprintln!("{} puzzles in {} files checked", sets.len(), files.len());
}
