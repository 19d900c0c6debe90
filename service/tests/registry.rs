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
            let request = proto::BestMoveRequest {
                position: start.position.clone(),
                limits: Some(proto::Limits {
                    nodes: 300,
                    ..Default::default()
                }),
                searcher: searcher.name.clone(),
            };
            let best = service
                .best_move(Request::new(request))
                .await
                .unwrap()
                .into_inner();
            let mv = best.best_move.unwrap();
            assert!(
                legal.contains(&mv),
                "{} {}: {mv:?}",
                info.name,
                searcher.name
            );
        }
        let request = proto::BestMoveRequest {
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
            assert!(read(&service, report.position.clone().unwrap())
                .await
                .moves
                .is_empty());
            eprintln!(
                "{} {}: ended after {plies} plies: {:?}",
                game.name(),
                variant.name,
                report.outcome
            );
        }
    }
}
