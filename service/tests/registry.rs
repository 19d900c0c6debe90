//! Every game of the registry, through the service's handlers: what holds for
//! any game, so a new game's adapter is covered by its registry line alone.
//!
//! - `ListGames` lists each game with its variants and searchers;
//! - start positions read back from their text and from their structured
//!   form to the same position;
//! - along seeded games, every legal move applies alike from its text and
//!   from its structured form;
//! - every listed searcher returns a legal move, and an unknown one is refused.

use caber_service::games;
use caber_service::proto::game_engine_server::GameEngine;
use caber_service::proto::{self, position::State};
use caber_service::EngineService;
use tonic::{Code, Request};

fn service() -> EngineService {
    EngineService::new()
}

/// The position of a report, as text.
fn as_text(report: &proto::PositionReport) -> proto::Position {
    let p = report.position.as_ref().unwrap();
    proto::Position {
        game: p.game.clone(),
        variant: p.variant.clone(),
        state: Some(State::Text(report.text.clone())),
    }
}

async fn read(service: &EngineService, position: proto::Position) -> proto::LegalMovesResponse {
    let request = proto::LegalMovesRequest {
        position: Some(position),
        include_position: true,
    };
    service
        .legal_moves(Request::new(request))
        .await
        .unwrap()
        .into_inner()
}

async fn apply(
    service: &EngineService,
    position: &proto::Position,
    mv: &proto::Move,
) -> proto::ApplyResponse {
    let request = proto::ApplyRequest {
        position: Some(position.clone()),
        r#move: Some(mv.clone()),
    };
    service
        .apply(Request::new(request))
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn list_games_lists_every_game_with_its_searchers() {
    let reply = service()
        .list_games(Request::new(proto::ListGamesRequest {}))
        .await
        .unwrap()
        .into_inner();
    let names: Vec<&str> = reply.games.iter().map(|g| g.name.as_str()).collect();
    let registered: Vec<&str> = games::registry().iter().map(|g| g.name()).collect();
    assert_eq!(names, registered);
    for g in &reply.games {
        assert!(g.variants[0].is_default, "{}", g.name);
        assert!(!g.searchers.is_empty(), "{}", g.name);
        assert!(g.searchers[0].is_default, "{}", g.name);
        assert_eq!(g.searchers.iter().filter(|s| s.is_default).count(), 1);
        assert_eq!(g.players.len(), 2);
        let by_depth: Vec<(&str, bool)> = g
            .searchers
            .iter()
            .map(|s| (s.name.as_str(), s.by_depth))
            .collect();
        let expected: &[(&str, bool)] = if g.name == "schotten-totten" {
            &[("ismcts", false), ("greedy", true)]
        } else {
            &[("alphabeta", true), ("mcts", false)]
        };
        assert_eq!(by_depth, expected, "{}", g.name);
        // View answers exactly for the games that say they hide information.
        assert_eq!(g.hidden_information, g.name == "schotten-totten");
        let view = service()
            .view(Request::new(proto::ViewRequest {
                position: Some(proto::Position {
                    game: g.name.clone(),
                    ..Default::default()
                }),
                player: 0,
            }))
            .await;
        assert_eq!(view.is_ok(), g.hidden_information, "{}: {view:?}", g.name);
    }
}

#[tokio::test]
async fn positions_and_moves_round_trip_through_text_and_structure() {
    let service = service();
    let mut moves_checked = 0;
    for game in games::registry() {
        for variant in game.info().variants {
            for seed in 0..2u64 {
                let request = proto::NewGameRequest {
                    game: game.name().to_string(),
                    variant: variant.name.clone(),
                    seed,
                };
                let mut report = service
                    .new_game(Request::new(request))
                    .await
                    .unwrap()
                    .into_inner()
                    .position
                    .unwrap();
                for ply in 0..30usize {
                    let structured = report.position.clone().unwrap();
                    let from_text = read(&service, as_text(&report)).await;
                    let from_structure = read(&service, structured.clone()).await;
                    assert_eq!(from_text.position.as_ref(), Some(&report));
                    assert_eq!(from_structure.position.as_ref(), Some(&report));
                    assert_eq!(from_text.moves, from_structure.moves);
                    let moves = from_text.moves;
                    if moves.is_empty() {
                        break;
                    }
                    for m in moves.iter().step_by(7) {
                        let text = proto::Move {
                            kind: Some(proto::r#move::Kind::Text(m.text.clone())),
                        };
                        let a = apply(&service, &structured, &text).await;
                        let b =
                            apply(&service, &as_text(&report), m.r#move.as_ref().unwrap()).await;
                        assert_eq!(a, b, "{} {}", game.name(), m.text);
                        assert_eq!(a.r#move.as_ref(), Some(m));
                        moves_checked += 1;
                    }
                    let pick = &moves[(ply * 5 + seed as usize) % moves.len()];
                    report = apply(&service, &structured, pick.r#move.as_ref().unwrap())
                        .await
                        .position
                        .unwrap();
                }
            }
        }
    }
    assert!(moves_checked > 1000, "only {moves_checked} moves checked");
}

#[tokio::test]
async fn every_listed_searcher_finds_a_legal_move() {
    let service = service();
    for game in games::registry() {
        let info = game.info();
        let start = game.new_game("", 3).unwrap();
        let legal = read(&service, as_text(&start)).await.moves;
        for searcher in info.searchers {
            // By its name and by each alias.
            for name in std::iter::once(&searcher.name).chain(&searcher.aliases) {
                let request = proto::BestMoveRequest {
                    table: String::new(),
                    search_moves: Vec::new(),
                    position: start.position.clone(),
                    limits: Some(proto::Limits {
                        nodes: 300,
                        ..Default::default()
                    }),
                    searcher: name.clone(),
                };
                let best = service
                    .best_move(Request::new(request))
                    .await
                    .unwrap()
                    .into_inner();
                let mv = best.best_move.unwrap();
                assert!(legal.contains(&mv), "{} {name}: {mv:?}", info.name);
            }
            // A depth limit: kept by a searcher that searches by depth,
            // refused at once by one that would run to its time cap.
            let request = proto::BestMoveRequest {
                table: String::new(),
                search_moves: Vec::new(),
                position: start.position.clone(),
                limits: Some(proto::Limits {
                    depth: 1,
                    ..Default::default()
                }),
                searcher: searcher.name.clone(),
            };
            let reply = service.best_move(Request::new(request)).await;
            match (searcher.by_depth, reply) {
                (true, Ok(best)) => assert!(best.into_inner().best_move.is_some()),
                (false, Err(status)) => {
                    assert_eq!(status.code(), Code::InvalidArgument);
                    assert_eq!(
                        status.message(),
                        format!(
                            "limits.depth: searcher {} does not search by depth; \
                             give nodes or movetime_ms",
                            searcher.name
                        )
                    );
                }
                (by_depth, reply) => panic!(
                    "{} {} (by_depth {by_depth}): {reply:?}",
                    info.name, searcher.name
                ),
            }
        }
        let request = proto::BestMoveRequest {
            table: String::new(),
            search_moves: Vec::new(),
            position: start.position.clone(),
            limits: None,
            searcher: "nosuch".into(),
        };
        let status = service.best_move(Request::new(request)).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert!(
            status.message().starts_with(&format!(
                "searcher: unknown searcher \"nosuch\" for {}",
                info.name
            )),
            "{status:?}"
        );
    }
}

/// Seeded random games of every game and variant, played to their end through
/// `LegalMoves` and `Apply` with structured moves: each ends with an outcome
/// and no legal move, and every position on the way reads back from its text.
#[tokio::test]
async fn random_games_play_to_the_end() {
    let service = service();
    for game in games::registry() {
        for variant in game.info().variants {
            let mut report = game.new_game(&variant.name, 5).unwrap();
            let mut plies = 0usize;
            while report.outcome.is_none() {
                let position = report.position.clone().unwrap();
                let moves = read(&service, position.clone()).await.moves;
                assert!(!moves.is_empty(), "{}: no move and no outcome", report.text);
                let pick = &moves[(plies * 7919 + 13) % moves.len()];
                report = apply(&service, &position, pick.r#move.as_ref().unwrap())
                    .await
                    .position
                    .unwrap();
                assert_eq!(
                    read(&service, as_text(&report)).await.position.as_ref(),
                    Some(&report)
                );
                plies += 1;
                assert!(
                    plies < 5000,
                    "{} {}: no end after 5000 plies",
                    game.name(),
                    variant.name
                );
            }
            let last = report.position.clone().unwrap();
            let mv = read(&service, as_text(&report)).await;
            assert!(mv.moves.is_empty());
            finished_games_follow_one_rule(&service, last, &report).await;
            eprintln!(
                "{} {}: ended after {plies} plies: {:?}",
                game.name(),
                variant.name,
                report.outcome
            );
        }
    }
}

/// On a finished game, the calls that read the position answer OK
/// (LegalMoves: no move; Perft: no leaf below depth 0; View: the view), and
/// the calls that evaluate, search or play from it refuse with
/// FAILED_PRECONDITION naming the result.
async fn finished_games_follow_one_rule(
    service: &EngineService,
    position: proto::Position,
    report: &proto::PositionReport,
) {
    let outcome = report.outcome.as_ref().expect("a finished game");
    let over = |status: tonic::Status, rpc: &str| {
        assert_eq!(status.code(), Code::FailedPrecondition, "{rpc}: {status:?}");
        assert!(
            status.message().starts_with("position: the game is over")
                && status.message().contains(&outcome.reason),
            "{rpc}: {status:?}"
        );
    };
    let p = Some(position.clone());
    let perft = |depth| proto::PerftRequest {
        position: p.clone(),
        depth,
        divide: false,
    };
    assert_eq!(
        service
            .perft(Request::new(perft(1)))
            .await
            .unwrap()
            .into_inner()
            .nodes,
        0
    );
    assert_eq!(
        service
            .perft(Request::new(perft(0)))
            .await
            .unwrap()
            .into_inner()
            .nodes,
        1
    );
    let view = proto::ViewRequest {
        position: p.clone(),
        player: 1,
    };
    let viewed = service.view(Request::new(view)).await;
    match (viewed, report.text.starts_with("full")) {
        (Ok(v), _) => assert!(v.into_inner().position.unwrap().outcome.is_some()),
        // Only hidden-information games have views.
        (Err(e), false) => assert_eq!(e.code(), Code::InvalidArgument, "{e:?}"),
        (Err(e), true) => panic!("View of a finished full state: {e:?}"),
    }
    let limits = Some(proto::Limits {
        depth: 1,
        nodes: 50,
        ..Default::default()
    });
    let evaluate = |limits| proto::EvaluateRequest {
        position: p.clone(),
        limits,
        searcher: String::new(),
    };
    over(
        service
            .evaluate(Request::new(evaluate(None)))
            .await
            .unwrap_err(),
        "Evaluate",
    );
    over(
        service
            .evaluate(Request::new(evaluate(limits.clone())))
            .await
            .unwrap_err(),
        "Evaluate searched",
    );
    let best = proto::BestMoveRequest {
        table: String::new(),
        search_moves: Vec::new(),
        position: p.clone(),
        limits: limits.clone(),
        searcher: String::new(),
    };
    over(
        service.best_move(Request::new(best)).await.unwrap_err(),
        "BestMove",
    );
    let analyze = proto::AnalyzeRequest {
        table: String::new(),
        search_moves: Vec::new(),
        position: p.clone(),
        limits,
        searcher: String::new(),
        multipv: 1,
        report_interval_ms: 0,
    };
    let analyzed = service.analyze(Request::new(analyze)).await.err();
    over(analyzed.expect("Analyze refuses at once"), "Analyze");
    let playouts = proto::PlayoutsRequest {
        position: p.clone(),
        seed: 0,
        movetime_ms: 1,
    };
    over(
        service.playouts(Request::new(playouts)).await.unwrap_err(),
        "Playouts",
    );
    let apply = proto::ApplyRequest {
        position: p,
        r#move: Some(proto::Move {
            kind: Some(proto::r#move::Kind::Text("pass".into())),
        }),
    };
    over(
        service.apply(Request::new(apply)).await.unwrap_err(),
        "Apply",
    );
}

/// Every game arm of the API's `Position.state` and `Move.kind` oneofs (all
/// but `text`) has a registered owner: a game added to the proto but not to
/// the registry (its adapter's `mod` line and registry line forgotten) fails
/// here, not in a client's call.
#[test]
fn every_game_arm_of_the_proto_has_a_registered_owner() {
    use prost::Message;
    use prost_reflect::{DescriptorPool, DynamicMessage, Value};
    let pool = DescriptorPool::decode(caber_service::proto::FILE_DESCRIPTOR_SET)
        .expect("the compiled-in descriptors");
    let mut arms = Vec::new();
    for (message, oneof) in [("caber.v1.Position", "state"), ("caber.v1.Move", "kind")] {
        let descriptor = pool.get_message_by_name(message).expect(message);
        let oneof = descriptor
            .oneofs()
            .find(|o| o.name() == oneof)
            .expect("the oneof");
        for field in oneof.fields().filter(|f| f.name() != "text") {
            let inner = field.kind();
            let inner = inner.as_message().expect("a game's message");
            let mut dynamic = DynamicMessage::new(descriptor.clone());
            dynamic.set_field(&field, Value::Message(DynamicMessage::new(inner.clone())));
            let bytes = dynamic.encode_to_vec();
            let owners: Vec<&str> = if message == "caber.v1.Position" {
                let position = proto::Position::decode(bytes.as_slice()).unwrap();
                let state = position.state.expect("the arm set");
                games::registry()
                    .iter()
                    .filter(|g| g.owns_state(&state))
                    .map(|g| g.name())
                    .collect()
            } else {
                let mv = proto::Move::decode(bytes.as_slice()).unwrap();
                let kind = mv.kind.expect("the arm set");
                games::registry()
                    .iter()
                    .filter(|g| g.owns_move(&kind))
                    .map(|g| g.name())
                    .collect()
            };
            assert_eq!(
                owners.len(),
                1,
                "{message}.{}: owners {owners:?}",
                field.name()
            );
            arms.push(field.name().to_string());
        }
    }
    // Each registered game owns one arm of each.
    assert_eq!(arms.len(), 2 * games::registry().len(), "{arms:?}");
}
