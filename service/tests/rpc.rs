//! Every RPC through the generated client against the real server on an
//! ephemeral port: concrete results, bad input, and cancellation.

mod common;
use common::Client;

use std::time::Duration;

use caber_engine::playable::Playable;
use caber_engine::search::Searchable;
use caber_engine::tablut::{Tablut, Variant};
use caber_engine::{Notation, Played};
use caber_service::proto::{self, position::State, r#move::Kind};
use caber_service::EngineService;
use tonic::{Code, Request};

/// The Tablut start board (RULES.md section 1), every variant.
const START_BOARD: &str = "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3";
/// The start board with a second king on g9.
const TWO_KINGS: &str = "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbbk2 b -";
/// Ashton: the king stands on the edge cell c1, so white has won.
const KING_ESCAPED: &str = "2k6/9/9/9/9/9/4b4/9/9 b -";
/// bga, black to move: d7-d3 closes the white soldier on c3 against b3.
const CAPTURE: &str = "9/9/1bw6/9/4k4/9/3b5/9/9 b -";

async fn start() -> (Client, EngineService) {
    let service = EngineService::new();
    (common::serve(service.clone()).await, service)
}

fn text_position(variant: &str, text: &str) -> proto::Position {
    proto::Position {
        game: "tablut".into(),
        variant: variant.into(),
        state: Some(State::Text(text.into())),
    }
}

fn text_move(text: &str) -> Option<proto::Move> {
    Some(proto::Move {
        kind: Some(Kind::Text(text.into())),
    })
}

fn depth(d: u32) -> Option<proto::Limits> {
    Some(proto::Limits {
        depth: d,
        ..Default::default()
    })
}

async fn new_game(client: &mut Client, variant: &str) -> proto::PositionReport {
    let request = proto::NewGameRequest {
        game: "tablut".into(),
        variant: variant.into(),
        seed: 0,
    };
    client
        .new_game(request)
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap()
}

async fn legal_texts(client: &mut Client, position: proto::Position) -> Vec<String> {
    let request = proto::LegalMovesRequest {
        position: Some(position),
        include_position: false,
    };
    let reply = client.legal_moves(request).await.unwrap().into_inner();
    reply.moves.into_iter().map(|m| m.text).collect()
}

/// Checks the status of a failed call, then that the server still answers.
async fn assert_refused<T: std::fmt::Debug>(
    client: &mut Client,
    result: Result<tonic::Response<T>, tonic::Status>,
    code: Code,
    message_start: &str,
) {
    let status = result.expect_err("the call should fail");
    assert_eq!(status.code(), code, "{}", status.message());
    assert!(
        status.message().starts_with(message_start),
        "message {:?} should start with {message_start:?}",
        status.message()
    );
    let games = client
        .list_games(proto::ListGamesRequest {})
        .await
        .expect("the server keeps serving");
    assert!(!games.into_inner().games.is_empty());
}

#[tokio::test]
async fn list_games_tells_tablut_its_variants_and_weights() {
    let (mut client, _) = start().await;
    let games = client
        .list_games(proto::ListGamesRequest {})
        .await
        .unwrap()
        .into_inner()
        .games;
    let tablut = games.iter().find(|g| g.name == "tablut").unwrap();
    let variants: Vec<(&str, bool)> = tablut
        .variants
        .iter()
        .map(|v| (v.name.as_str(), v.is_default))
        .collect();
    assert_eq!(
        variants,
        [
            ("bga", true),
            ("bga-corners", false),
            ("ashton", false),
            ("linnaeus", false)
        ]
    );
    assert_eq!(tablut.players, ["black", "white"]);
    // Records' White: Tablut's white; the first-listed side elsewhere.
    assert_eq!(tablut.white(), proto::Side::Two);
    let whites: Vec<(&str, proto::Side)> =
        games.iter().map(|g| (g.name.as_str(), g.white())).collect();
    assert_eq!(
        whites,
        [
            ("tablut", proto::Side::Two),
            ("almatafl", proto::Side::One),
            ("schotten-totten", proto::Side::One),
            ("tartan", proto::Side::One)
        ]
    );
    assert!(!tablut.position_notation_help.is_empty());
    assert!(!tablut.move_notation_help.is_empty());
    // Each searcher's evaluation weights, with their defaults.
    let alphabeta = tablut.searchers.iter().find(|s| s.name == "alphabeta");
    let white = alphabeta.and_then(|s| s.weights.iter().find(|w| w.name == "white_soldier"));
    assert_eq!(white.map(|w| w.default_value), Some(180));
    // Plain UCT under the name matches use for it.
    let mcts = tablut.searchers.iter().find(|s| s.name == "mcts").unwrap();
    assert_eq!(mcts.aliases, ["uct-baseline"]);
    let st = games.iter().find(|g| g.name == "schotten-totten").unwrap();
    assert!(st.searchers.iter().all(|s| s.weights.is_empty()));
    // Only Schotten Totten's start depends on the seed (a shuffled deal).
    let chance: Vec<&str> = games
        .iter()
        .filter(|g| g.chance)
        .map(|g| g.name.as_str())
        .collect();
    assert_eq!(chance, ["schotten-totten"]);
}

#[tokio::test]
async fn new_game_reports_the_start_position_in_both_forms() {
    let (mut client, _) = start().await;
    // Ashton: white moves first.
    let report = new_game(&mut client, "ashton").await;
    assert_eq!(report.text, format!("{START_BOARD} w -"));
    assert_eq!(report.side_to_move(), proto::Side::Two);
    assert_eq!(report.side_to_move_name, "white");
    assert!(report.outcome.is_none());
    assert!(report.diagram.contains("a b c d e f g h i"));
    let position = report.position.unwrap();
    assert_eq!(
        (position.game.as_str(), position.variant.as_str()),
        ("tablut", "ashton")
    );
    let Some(State::Tablut(t)) = position.state else {
        panic!("structured state expected, got {:?}", position.state)
    };
    let mut black = t.black.clone();
    black.sort();
    let mut expected: Vec<&str> = vec![
        "d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d9", "e9", "f9",
        "e8",
    ];
    expected.sort();
    assert_eq!(black, expected);
    let mut white = t.white.clone();
    white.sort();
    assert_eq!(white, ["c5", "d5", "e3", "e4", "e6", "e7", "f5", "g5"]);
    assert_eq!(t.king, "e5");
    assert_eq!(t.side_to_move(), proto::Side::Two);
    assert!(t.history.is_empty());
    // The default variant (bga): black moves first.
    let report = new_game(&mut client, "").await;
    assert_eq!(report.side_to_move_name, "black");
    assert_eq!(report.position.unwrap().variant, "bga");
}

#[tokio::test]
async fn legal_moves_of_the_ashton_start() {
    let (mut client, _) = start().await;
    let request = proto::LegalMovesRequest {
        position: Some(text_position("ashton", &format!("{START_BOARD} w -"))),
        include_position: false,
    };
    let moves = client
        .legal_moves(request)
        .await
        .unwrap()
        .into_inner()
        .moves;
    // By hand, per arm of the cross (4 alike): e3 has 4 cells left and 4 right
    // (e2 is a camp, e4 taken), e4 has 3 and 3 (a4/i4 are camps, e5 the king): 4 * 14.
    assert_eq!(moves.len(), 56);
    let engine: Vec<String> = {
        let p = ashton_start();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        v.iter().map(|m| p.move_text(m)).collect()
    };
    let texts: Vec<&str> = moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, engine);
    assert!(!texts.contains(&"e4-a4"), "a4 is a camp");
    let e4b4 = moves.iter().find(|m| m.text == "e4-b4").unwrap();
    let Some(Kind::Tablut(m)) = e4b4.r#move.as_ref().unwrap().kind.as_ref() else {
        panic!("structured move expected")
    };
    assert_eq!(
        (m.from.as_str(), m.to.as_str(), m.pass),
        ("e4", "b4", false)
    );
    // Each move's subject names the piece that moves, not where it goes.
    for m in &moves {
        let from = m.text.split('-').next().unwrap();
        assert_eq!(m.subject, format!("the piece on {from}"), "{}", m.text);
    }
}

/// Every game says what each of its moves moves or plays (a puzzle's hint),
/// without giving the whole move away.
#[tokio::test]
async fn moves_name_their_subject_in_every_game() {
    let (mut client, _) = start().await;
    let games = [
        ("almatafl", "the piece on "),
        ("tartan", "a Family placed"),
        ("schotten-totten", "the card "),
    ];
    for (game, prefix) in games {
        let position = proto::Position {
            game: game.into(),
            ..Default::default()
        };
        let moves = client
            .legal_moves(proto::LegalMovesRequest {
                position: Some(position),
                include_position: false,
            })
            .await
            .unwrap()
            .into_inner()
            .moves;
        assert!(!moves.is_empty(), "{game}");
        for m in &moves {
            assert!(m.subject.starts_with(prefix), "{game}: {m:?}");
            assert_ne!(m.subject, m.text, "{game}");
        }
        if game == "almatafl" {
            let from = moves[0].text.split('-').next().unwrap();
            assert_eq!(moves[0].subject, format!("the piece on {from}"));
        }
        if game == "schotten-totten" {
            // `p:Y4@2 ...`: the card before the `@`.
            let card = &moves[0].text[2..moves[0].text.find('@').unwrap()];
            assert_eq!(moves[0].subject, format!("the card {card}"));
        }
    }
}

/// The position report of `LegalMoves` comes only when asked for; the moves are the same.
#[tokio::test]
async fn legal_moves_report_the_position_only_when_asked() {
    let (mut client, _) = start().await;
    let text = format!("{START_BOARD} w -");
    let mut replies = Vec::new();
    for include_position in [false, true] {
        let request = proto::LegalMovesRequest {
            position: Some(text_position("ashton", &text)),
            include_position,
        };
        replies.push(client.legal_moves(request).await.unwrap().into_inner());
    }
    assert_eq!(replies[0].position, None);
    let report = replies[1].position.as_ref().unwrap();
    assert_eq!(report.text, text);
    assert_eq!(report.side_to_move_name, "white");
    assert!(report.diagram.contains('K'), "{}", report.diagram);
    assert_eq!(replies[0].moves, replies[1].moves);
    assert_eq!(replies[0].moves.len(), 56);
}

#[tokio::test]
async fn apply_plays_text_and_structured_moves() {
    let (mut client, _) = start().await;
    let start = new_game(&mut client, "ashton").await;
    // A text move on the structured position from NewGame.
    let reply = client
        .apply(proto::ApplyRequest {
            position: start.position.clone(),
            r#move: text_move("E3-B3"),
        })
        .await
        .unwrap()
        .into_inner();
    let after = reply.position.unwrap();
    assert_eq!(after.side_to_move_name, "black");
    assert_eq!(
        after.text,
        "3bbb3/4b4/1w7/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -"
    );
    assert_eq!(reply.r#move.unwrap().text, "e3-b3");
    assert!(reply.events.is_empty());
    // The same move, structured, on the text position: the same result.
    let structured = proto::Move {
        kind: Some(Kind::Tablut(proto::TablutMove {
            from: "e3".into(),
            to: "b3".into(),
            pass: false,
        })),
    };
    let again = client
        .apply(proto::ApplyRequest {
            position: Some(text_position("ashton", &start.text)),
            r#move: Some(structured),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.position.unwrap().text, after.text);
    // A capture is reported as an event.
    let reply = client
        .apply(proto::ApplyRequest {
            position: Some(text_position("bga", CAPTURE)),
            r#move: text_move("d7-d3"),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reply.position.unwrap().text, "9/9/1b1b5/9/4k4/9/9/9/9 w -");
    let kinds: Vec<(&str, &[String])> = reply
        .events
        .iter()
        .map(|e| (e.kind.as_str(), e.cells.as_slice()))
        .collect();
    assert_eq!(kinds, [("capture", &["c3".to_string()][..])]);
}

#[tokio::test]
async fn evaluate_static_and_searched() {
    let (mut client, _) = start().await;
    let position = text_position("ashton", &format!("{START_BOARD} w -"));
    let reply = client
        .evaluate(proto::EvaluateRequest {
            searcher: String::new(),
            position: Some(position.clone()),
            limits: None,
        })
        .await
        .unwrap()
        .into_inner();
    assert!(reply.stats.is_none(), "static: no search");
    let start = ashton_start();
    let engine = start.static_evaluation(&[]);
    let score = reply.score.unwrap();
    assert_eq!(score.value, Some(proto::score::Value::Centi(engine)));
    // On the variant's fitted curve, from white's view (white starts).
    let white = start.side_to_move();
    let expected = start
        .win_curve()
        .probability(caber_engine::search::Score::Centi(engine), white);
    assert_eq!(score.win_probability, expected);
    assert_ne!(
        expected,
        caber_engine::search::Score::Centi(engine).win_probability(),
        "ashton's curve is fitted"
    );
    // All-zero limits are static too.
    let reply = client
        .evaluate(proto::EvaluateRequest {
            searcher: String::new(),
            position: Some(position.clone()),
            limits: Some(proto::Limits::default()),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(reply.stats.is_none());
    let reply = client
        .evaluate(proto::EvaluateRequest {
            searcher: String::new(),
            position: Some(position),
            limits: depth(2),
        })
        .await
        .unwrap()
        .into_inner();
    let stats = reply.stats.unwrap();
    assert_eq!(stats.depth, 2);
    assert!(stats.nodes > 0);
    assert!(reply.score.unwrap().value.is_some());
}

#[tokio::test]
async fn best_move_is_legal_and_searched() {
    let (mut client, _) = start().await;
    let position = text_position("bga", &format!("{START_BOARD} b -"));
    let reply = client
        .best_move(proto::BestMoveRequest {
            table: String::new(),
            search_moves: Vec::new(),
            searcher: String::new(),
            position: Some(position.clone()),
            limits: depth(2),
        })
        .await
        .unwrap()
        .into_inner();
    let best = reply.best_move.unwrap().text;
    assert!(legal_texts(&mut client, position).await.contains(&best));
    assert_eq!(reply.moves.first(), Some(&best));
    #[allow(deprecated)]
    let pv = &reply.pv;
    assert_eq!(pv, &reply.moves, "pv repeats moves for v1 clients");
    let stats = reply.stats.unwrap();
    assert_eq!(stats.depth, 2);
    assert!(stats.nodes > 0);
    assert_eq!(stats.clamped, "");
    assert!(reply.score.unwrap().value.is_some());
}

#[tokio::test]
async fn best_move_without_limits_uses_the_default_budget() {
    let (mut client, _) = start().await;
    let reply = client
        .best_move(proto::BestMoveRequest {
            table: String::new(),
            search_moves: Vec::new(),
            searcher: String::new(),
            position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
            limits: None,
        })
        .await
        .unwrap()
        .into_inner();
    let stats = reply.stats.unwrap();
    assert_eq!(stats.budget, "no limit given: default movetime 1000 ms");
    assert_eq!(stats.clamped, "", "a default lowers nothing that was asked");
    assert!(stats.depth >= 1);
    assert!(reply.best_move.is_some());
}

#[tokio::test]
async fn best_move_ends_before_the_call_deadline() {
    let (mut client, _) = start().await;
    let mut request = Request::new(proto::BestMoveRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
        limits: depth(60),
    });
    request.set_timeout(Duration::from_secs(3));
    let reply = client.best_move(request).await.unwrap().into_inner();
    let stats = reply.stats.unwrap();
    // On a busy machine the search thread may start a millisecond late,
    // which the budget then notes ("; waited N ms for a search thread").
    assert!(
        stats
            .budget
            .starts_with("movetime 2700 ms to end before the call's deadline"),
        "{}",
        stats.budget
    );
    assert_eq!(
        stats.clamped, "",
        "the caller's own deadline is no server cap"
    );
    assert!(stats.stopped);
    assert!(stats.depth >= 1);
    assert!(reply.best_move.is_some());
}

#[tokio::test]
async fn analyze_streams_progress_then_one_final_report() {
    let (mut client, _) = start().await;
    let request = proto::AnalyzeRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
        limits: depth(3),
        multipv: 2,
        report_interval_ms: 50,
    };
    let mut stream = client.analyze(request).await.unwrap().into_inner();
    let mut updates = Vec::new();
    while let Some(update) = stream.message().await.unwrap() {
        updates.push(update);
    }
    let (last, progress) = updates.split_last().unwrap();
    assert!(last.r#final);
    assert!(!progress.is_empty(), "at least one progress update");
    assert!(progress.iter().all(|u| !u.r#final));
    assert_eq!(last.stats.as_ref().unwrap().depth, 3);
    assert!(!last.lines.is_empty() && last.lines.len() <= 2);
    assert_eq!(last.lines[0].rank, 1);
    assert!(!last.lines[0].moves.is_empty());
}

/// A report interval below the minimum is raised to it: 1 ms asked, at
/// most one periodic update per 50 ms sent (besides one per completed depth).
#[tokio::test]
async fn analyze_reports_at_most_every_50_ms() {
    let (mut client, _) = start().await;
    let request = proto::AnalyzeRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
        limits: Some(proto::Limits {
            movetime_ms: 500,
            ..Default::default()
        }),
        multipv: 1,
        report_interval_ms: 1,
    };
    let mut stream = client.analyze(request).await.unwrap().into_inner();
    let mut updates = Vec::new();
    while let Some(update) = stream.message().await.unwrap() {
        updates.push(update);
    }
    let last = updates.last().unwrap();
    assert!(last.r#final);
    // One update per completed depth, the periodic ones (500 ms / 50 ms),
    // and the final report.
    let depth = last.stats.as_ref().unwrap().depth as usize;
    assert!(
        updates.len() <= depth + 10 + 1,
        "{} updates, depth {depth}",
        updates.len()
    );
}

#[tokio::test]
async fn analyze_stops_the_search_when_the_client_goes_away() {
    let (mut client, service) = start().await;
    let request = proto::AnalyzeRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
        // Far deeper than any search ends on its own.
        limits: depth(60),
        multipv: 1,
        report_interval_ms: 50,
    };
    let mut stream = client.analyze(request).await.unwrap().into_inner();
    let first = stream.message().await.unwrap().unwrap();
    assert!(!first.r#final);
    assert_eq!(service.running_searches(), 1);
    drop(stream);
    // Generous: the search only has to notice its stop flag.
    for _ in 0..600 {
        if service.running_searches() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the search still runs 30 s after the client went away");
}

#[tokio::test]
async fn perft_counts_and_divides() {
    let (mut client, _) = start().await;
    let position = text_position("ashton", &format!("{START_BOARD} w -"));
    let reply = client
        .perft(proto::PerftRequest {
            position: Some(position.clone()),
            depth: 1,
            divide: false,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reply.nodes, 56);
    assert!(reply.divide.is_empty());
    let reply = client
        .perft(proto::PerftRequest {
            position: Some(position),
            depth: 2,
            divide: true,
        })
        .await
        .unwrap()
        .into_inner();
    let engine = ashton_start()
        .perft(2, &std::sync::atomic::AtomicBool::new(false))
        .unwrap();
    assert_eq!(reply.nodes, engine);
    assert_eq!(reply.divide.len(), 56);
    assert_eq!(reply.divide.iter().map(|d| d.nodes).sum::<u64>(), engine);
}

#[tokio::test]
async fn bad_positions_are_invalid_arguments_naming_the_field() {
    let (mut client, _) = start().await;
    let legal = |position: Option<proto::Position>| proto::LegalMovesRequest {
        position,
        include_position: false,
    };
    let r = client
        .legal_moves(legal(Some(text_position("bga", "hello"))))
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.text: invalid position: ",
    )
    .await;
    let r = client
        .legal_moves(legal(Some(text_position("bga", TWO_KINGS))))
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.text: invalid position: there are 2 kings",
    )
    .await;
    let mut chess = text_position("bga", TWO_KINGS);
    chess.game = "chess".into();
    let r = client.legal_moves(legal(Some(chess))).await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.game: unknown game \"chess\"",
    )
    .await;
    let r = client
        .legal_moves(legal(Some(text_position(
            "nope",
            &format!("{START_BOARD} b -"),
        ))))
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.variant: game tablut has no variant \"nope\"",
    )
    .await;
    let r = client.legal_moves(legal(None)).await;
    assert_refused(&mut client, r, Code::InvalidArgument, "position: missing").await;
    // No state: the variant's start position, with no NewGame round trip.
    let mut stateless = text_position("bga", "");
    stateless.state = None;
    let start = client
        .legal_moves(legal(Some(stateless.clone())))
        .await
        .unwrap();
    assert_eq!(start.into_inner().moves.len(), 80);
    stateless.variant = "nope".into();
    let r = client.legal_moves(legal(Some(stateless))).await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.variant: game tablut has no variant \"nope\"",
    )
    .await;
    let bad_cell = proto::Position {
        game: "tablut".into(),
        variant: "bga".into(),
        state: Some(State::Tablut(proto::TablutPosition {
            black: vec!["a1".into(), "z9".into()],
            king: "e5".into(),
            side_to_move: proto::Side::One as i32,
            ..Default::default()
        })),
    };
    let r = client.legal_moves(legal(Some(bad_cell))).await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.tablut.black[1]: cell \"z9\"",
    )
    .await;
    let no_side = proto::Position {
        game: "tablut".into(),
        variant: "bga".into(),
        state: Some(State::Tablut(proto::TablutPosition {
            king: "e5".into(),
            ..Default::default()
        })),
    };
    let r = client.legal_moves(legal(Some(no_side))).await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.tablut.side_to_move: missing",
    )
    .await;
    let r = client
        .new_game(proto::NewGameRequest {
            game: "chess".into(),
            ..Default::default()
        })
        .await;
    assert_refused(&mut client, r, Code::InvalidArgument, "game: unknown game").await;
    let r = client
        .new_game(proto::NewGameRequest {
            game: "tablut".into(),
            variant: "nope".into(),
            seed: 0,
        })
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "variant: game tablut has no variant",
    )
    .await;
    let r = client.new_game(proto::NewGameRequest::default()).await;
    assert_refused(&mut client, r, Code::InvalidArgument, "game: missing").await;
}

#[tokio::test]
async fn bad_moves_are_invalid_arguments_naming_the_problem() {
    let (mut client, _) = start().await;
    let position = Some(text_position("bga", &format!("{START_BOARD} b -")));
    let apply = |mv: Option<proto::Move>| proto::ApplyRequest {
        position: position.clone(),
        r#move: mv,
    };
    // e4 holds a white soldier and black is to move.
    let r = client.apply(apply(text_move("e4-b4"))).await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "move: illegal move: e4-b4 is not a legal move here",
    )
    .await;
    let r = client.apply(apply(text_move("zz"))).await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "move.text: bad move notation",
    )
    .await;
    let r = client.apply(apply(None)).await;
    assert_refused(&mut client, r, Code::InvalidArgument, "move: missing").await;
    let r = client.apply(apply(Some(proto::Move { kind: None }))).await;
    assert_refused(&mut client, r, Code::InvalidArgument, "move.kind: missing").await;
    let structured = proto::Move {
        kind: Some(Kind::Tablut(proto::TablutMove {
            from: "e2".into(),
            to: "q2".into(),
            pass: false,
        })),
    };
    let r = client.apply(apply(Some(structured))).await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "move.tablut.to: cell \"q2\"",
    )
    .await;
}

#[tokio::test]
async fn a_finished_game_is_a_failed_precondition() {
    let (mut client, _) = start().await;
    let position = text_position("ashton", KING_ESCAPED);
    let over = Some(position.clone());
    let message = "position: the game is over (king escaped)";
    let r = client
        .apply(proto::ApplyRequest {
            position: over.clone(),
            r#move: text_move("g7-g1"),
        })
        .await;
    assert_refused(&mut client, r, Code::FailedPrecondition, message).await;
    let r = client
        .best_move(proto::BestMoveRequest {
            table: String::new(),
            search_moves: Vec::new(),
            searcher: String::new(),
            position: over.clone(),
            limits: depth(1),
        })
        .await;
    assert_refused(&mut client, r, Code::FailedPrecondition, message).await;
    let r = client
        .evaluate(proto::EvaluateRequest {
            searcher: String::new(),
            position: over.clone(),
            limits: None,
        })
        .await;
    assert_refused(&mut client, r, Code::FailedPrecondition, message).await;
    let r = client
        .analyze(proto::AnalyzeRequest {
            position: over.clone(),
            limits: depth(1),
            ..Default::default()
        })
        .await;
    assert_refused(&mut client, r, Code::FailedPrecondition, message).await;
    // Listing moves of a finished game is fine: there are none.
    assert!(legal_texts(&mut client, position).await.is_empty());
}

#[tokio::test]
async fn perft_refuses_too_deep_a_count() {
    let (mut client, _) = start().await;
    let r = client
        .perft(proto::PerftRequest {
            position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
            depth: 7,
            divide: false,
        })
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "depth: 7 is too deep",
    )
    .await;
}

#[tokio::test]
async fn structured_positions_round_trip_with_their_history() {
    let (mut client, _) = start().await;
    // Ashton records every position after the start for repetition.
    let mut report = new_game(&mut client, "ashton").await;
    for mv in ["e3-b3", "e2-c2", "b3-b2"] {
        report = client
            .apply(proto::ApplyRequest {
                position: report.position.clone(),
                r#move: text_move(mv),
            })
            .await
            .unwrap()
            .into_inner()
            .position
            .unwrap();
    }
    let Some(State::Tablut(t)) = report.position.as_ref().unwrap().state.clone() else {
        panic!("structured state expected")
    };
    assert_eq!(t.history.len(), 2, "{:?}", t.history);
    assert!(t.history.iter().all(|h| h.len() == 16));
    // The text carries the same hashes.
    assert!(
        report.text.ends_with(&t.history.join(",")),
        "{}",
        report.text
    );
    // Both forms are read back to the same position.
    let structured = client
        .legal_moves(proto::LegalMovesRequest {
            position: report.position.clone(),
            include_position: false,
        })
        .await
        .unwrap()
        .into_inner();
    let text = legal_texts(&mut client, text_position("ashton", &report.text)).await;
    let from_structured: Vec<String> = structured.moves.into_iter().map(|m| m.text).collect();
    assert_eq!(from_structured, text);
    // A history entry that is not a hash is refused, naming it.
    let mut bad = t.clone();
    bad.history[1] = "xyz".into();
    let r = client
        .legal_moves(proto::LegalMovesRequest {
            position: Some(proto::Position {
                game: "tablut".into(),
                variant: "ashton".into(),
                state: Some(State::Tablut(bad)),
            }),
            include_position: false,
        })
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.tablut.history[1]: \"xyz\" is not a hash",
    )
    .await;
    // A Tablut position given for another game is refused.
    let r = client
        .legal_moves(proto::LegalMovesRequest {
            position: Some(proto::Position {
                game: "almatafl".into(),
                variant: String::new(),
                state: Some(State::Tablut(t)),
            }),
            include_position: false,
        })
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "position.tablut: a Tablut position given for game \"almatafl\"",
    )
    .await;
}

/// A reply of several KiB arrives whole over the network, equal to what the
/// service's handler returned.
#[tokio::test]
async fn a_long_reply_arrives_whole() {
    use caber_service::proto::game_engine_server::GameEngine;
    let (mut client, service) = start().await;
    let request = || proto::LegalMovesRequest {
        position: Some(proto::Position {
            game: "almatafl".into(),
            variant: String::new(),
            state: Some(State::Text(
                Played::<caber_engine::almatafl::AlmaTafl>::start(
                    caber_engine::almatafl::Variant::Standard,
                    0,
                )
                .notation(),
            )),
        }),
        include_position: true,
    };
    let direct = service
        .legal_moves(Request::new(request()))
        .await
        .unwrap()
        .into_inner();
    let size = prost::Message::encoded_len(&direct);
    assert!(size > 3000, "{size} bytes");
    let received = client.legal_moves(request()).await.unwrap().into_inner();
    assert_eq!(received, direct);
    assert_eq!(received.moves.len(), 90);
}

/// The Ashton start, read by the engine itself.
fn ashton_start() -> Played<Tablut> {
    Tablut::read(Variant::Ashton, &format!("{START_BOARD} w -")).unwrap()
}

fn weights(pairs: &[(&str, i32)]) -> std::collections::HashMap<String, i32> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

/// Ashton's start, white to move, no soldier hangs: one more centi-unit per
/// white soldier (8) moves the static evaluation by 8, one less per black
/// soldier (16) by 16 more.
#[tokio::test]
async fn evaluate_sets_weights() {
    let (mut client, _) = start().await;
    let position = text_position("ashton", &format!("{START_BOARD} w -"));
    let static_with = |w: &[(&str, i32)]| {
        let request = proto::EvaluateRequest {
            position: Some(position.clone()),
            limits: Some(proto::Limits {
                weights: weights(w),
                ..Default::default()
            }),
            searcher: String::new(),
        };
        let mut client = client.clone();
        async move {
            let reply = client.evaluate(request).await.unwrap().into_inner();
            assert!(reply.stats.is_none(), "weights alone: static");
            match reply.score.unwrap().value {
                Some(proto::score::Value::Centi(c)) => c,
                other => panic!("{other:?}"),
            }
        }
    };
    let base = static_with(&[]).await;
    assert_eq!(base, ashton_start().static_evaluation(&[]));
    assert_eq!(static_with(&[("white_soldier", 181)]).await, base + 8);
    assert_eq!(
        static_with(&[("white_soldier", 181), ("black_soldier", 99)]).await,
        base + 24
    );
    let r = client
        .evaluate(proto::EvaluateRequest {
            position: Some(position.clone()),
            limits: Some(proto::Limits {
                weights: weights(&[("white_soldeir", 181)]),
                ..Default::default()
            }),
            searcher: String::new(),
        })
        .await;
    assert_refused(
        &mut client,
        r,
        Code::InvalidArgument,
        "limits.weights: searcher alphabeta: unknown weight \"white_soldeir\" (known: white_soldier,",
    )
    .await;
}

#[tokio::test]
async fn searches_refuse_weights_they_do_not_take() {
    let (mut client, _) = start().await;
    let ashton = Some(text_position("ashton", &format!("{START_BOARD} w -")));
    let searched = |position: Option<proto::Position>, w: &[(&str, i32)]| proto::BestMoveRequest {
        position,
        limits: Some(proto::Limits {
            nodes: 2000,
            weights: weights(w),
            ..Default::default()
        }),
        searcher: String::new(),
        table: String::new(),
        search_moves: Vec::new(),
    };
    let known = [("king_distance", -20), ("king_mobility", 100)];
    let reply = client.best_move(searched(ashton.clone(), &known)).await;
    assert!(reply.unwrap().into_inner().best_move.is_some());
    let deal = client
        .new_game(proto::NewGameRequest {
            game: "schotten-totten".into(),
            variant: String::new(),
            seed: 1,
        })
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap()
        .position;
    for (position, weight, says) in [
        (
            ashton.clone(),
            ("white_soldier", 10_001),
            "limits.weights: searcher alphabeta: weight white_soldier=10001 is outside -10000..=10000",
        ),
        (
            ashton,
            ("speed", 1),
            "limits.weights: searcher alphabeta: unknown weight \"speed\"",
        ),
        (
            deal,
            ("stones", 1),
            "limits.weights: searcher ismcts: unknown weight \"stones\": this searcher takes no weights",
        ),
    ] {
        let r = client.best_move(searched(position, &[weight])).await;
        assert_refused(&mut client, r, Code::InvalidArgument, says).await;
    }
}

/// A search naming a kept table starts from what the earlier searches of
/// the same connection left in it; another connection with the same name,
/// or a call naming none, starts afresh; a table size above the server's
/// maximum is lowered and said.
#[tokio::test]
async fn a_kept_table_carries_a_connections_searches_over() {
    let service = EngineService::new();
    let mut client = common::serve(service.clone()).await;
    let mut other = common::serve(service).await;
    let search = |table: &str, hash_mb: u32| proto::BestMoveRequest {
        position: Some(text_position("ashton", &format!("{START_BOARD} w -"))),
        limits: Some(proto::Limits {
            depth: 5,
            hash_mb,
            ..Default::default()
        }),
        searcher: String::new(),
        table: table.into(),
        search_moves: Vec::new(),
    };
    let nodes = |reply: proto::BestMoveResponse| reply.stats.unwrap().nodes;
    let fresh = nodes(client.best_move(search("", 0)).await.unwrap().into_inner());
    let first = nodes(
        client
            .best_move(search("game-1", 0))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(first, fresh, "a new table");
    let again = nodes(
        client
            .best_move(search("game-1", 0))
            .await
            .unwrap()
            .into_inner(),
    );
    assert!(
        again < first / 2,
        "the kept table: {again} nodes after {first}"
    );
    let elsewhere = nodes(
        other
            .best_move(search("game-1", 0))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(elsewhere, fresh, "another connection's table of that name");
    let unnamed = nodes(client.best_move(search("", 0)).await.unwrap().into_inner());
    assert_eq!(unnamed, fresh);
    let huge = client
        .best_move(search("", 1_000_000))
        .await
        .unwrap()
        .into_inner();
    let stats = huge.stats.unwrap();
    assert!(
        stats
            .clamped
            .contains("hash lowered to the server maximum of 64 MB"),
        "clamped"
    );
    // The same for programs, as values.
    assert_eq!(
        stats.clamps,
        [proto::Clamp {
            limit: proto::Limit::HashMb as i32,
            asked: 1_000_000,
            given: 64
        }]
    );
    assert!(stats.budget_changes.is_empty(), "a depth is a budget");
    let long = "x".repeat(129);
    let status = client.best_move(search(&long, 0)).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().starts_with("table: "), "{status:?}");
}

/// An INVALID_ARGUMENT carries, beside its message, a google.rpc.BadRequest
/// field violation naming the field, so that a client can point at it.
#[tokio::test]
async fn refusals_name_their_field_as_a_bad_request_violation() {
    use tonic_types::StatusExt;
    let (mut client, _service) = start().await;
    let status = client
        .best_move(proto::BestMoveRequest {
            position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
            limits: depth(2),
            searcher: "mcts".into(),
            table: String::new(),
            search_moves: Vec::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let details = status.get_error_details();
    let violation = &details
        .bad_request()
        .expect("a BadRequest")
        .field_violations[0];
    assert_eq!(violation.field, "limits.depth");
    assert!(status.message().starts_with("limits.depth: "), "{status:?}");
    assert!(
        status.message().ends_with(&violation.description),
        "{status:?}"
    );
    // A move refused in the move's own field.
    let status = client
        .apply(proto::ApplyRequest {
            position: Some(text_position("bga", &format!("{START_BOARD} b -"))),
            r#move: text_move("zz"),
        })
        .await
        .unwrap_err();
    let details = status.get_error_details();
    assert_eq!(
        details.bad_request().unwrap().field_violations[0].field,
        "move.text"
    );
}

/// `search_moves` (UCI's `searchmoves`) keeps a search to the moves named,
/// for every searcher: each line starts with one of them, in their normal
/// form whatever case was sent; an illegal or unreadable one is refused
/// naming it.
#[tokio::test]
async fn search_moves_keep_the_root_to_the_moves_named() {
    let (mut client, _) = start().await;
    let start = proto::Position {
        game: "tablut".into(),
        ..Default::default()
    };
    let named = ["D1-D2".to_string(), "a4-a3".to_string()];
    for (searcher, limits) in [
        ("alphabeta", depth(3)),
        (
            "mcts",
            Some(proto::Limits {
                nodes: 500,
                ..Default::default()
            }),
        ),
    ] {
        let request = proto::AnalyzeRequest {
            position: Some(start.clone()),
            limits,
            multipv: 5,
            searcher: searcher.into(),
            search_moves: named.to_vec(),
            ..Default::default()
        };
        let mut stream = client.analyze(request).await.unwrap().into_inner();
        let mut last = None;
        while let Some(update) = stream.message().await.unwrap() {
            last = Some(update);
        }
        let mut firsts: Vec<String> = last
            .unwrap()
            .lines
            .iter()
            .map(|l| l.moves[0].clone())
            .collect();
        firsts.sort();
        assert_eq!(firsts, ["a4-a3", "d1-d2"], "{searcher}");
    }
    let refused = client
        .best_move(proto::BestMoveRequest {
            position: Some(start.clone()),
            limits: depth(1),
            search_moves: vec!["d1-d2".into(), "a1-a2".into()],
            ..Default::default()
        })
        .await;
    assert_refused(
        &mut client,
        refused,
        Code::InvalidArgument,
        "search_moves[1]: illegal move: a1-a2",
    )
    .await;
}
