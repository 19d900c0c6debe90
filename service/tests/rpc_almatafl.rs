//! AlmaTafl through every RPC with the generated client against the real
//! server: structured positions and moves both ways, King chains, bad input.

mod common;
use common::{refused_position, Client};

use caber_service::proto::{self, position::State, r#move::Kind, AlmaTaflPiece as P};
use caber_service::EngineService;
use tonic::Code;

async fn start() -> Client {
    common::serve(EngineService::new()).await
}

fn stack(cell: &str, pieces: &[P]) -> proto::AlmaTaflStack {
    proto::AlmaTaflStack {
        cell: cell.into(),
        pieces: pieces.iter().map(|&p| p as i32).collect(),
    }
}

fn structured(stacks: Vec<proto::AlmaTaflStack>, side: proto::Side) -> proto::Position {
    proto::Position {
        game: "almatafl".into(),
        variant: String::new(),
        state: Some(State::Almatafl(proto::AlmaTaflPosition {
            stacks,
            side_to_move: side as i32,
            history: Vec::new(),
        })),
    }
}

fn text(position: &str) -> proto::Position {
    proto::Position {
        game: "almatafl".into(),
        variant: String::new(),
        state: Some(State::Text(position.into())),
    }
}

/// The King on the throne F6, invaders on F7 and F9 in his column: he may
/// bounce off F7 (two steps: F9), off F9 again and escape on D9.
fn chain_position() -> proto::Position {
    structured(
        vec![
            stack("B2", &[P::Invader]),
            stack("C3", &[P::Defender]),
            stack("F6", &[P::King]),
            stack("F7", &[P::Invader]),
            stack("F9", &[P::Invader]),
        ],
        proto::Side::Two,
    )
}

fn almatafl_state(report: &proto::PositionReport) -> &proto::AlmaTaflPosition {
    match report.position.as_ref().and_then(|p| p.state.as_ref()) {
        Some(State::Almatafl(a)) => a,
        other => panic!("not an AlmaTafl state: {other:?}"),
    }
}

fn cells_move(cells: &[&str]) -> proto::Move {
    proto::Move {
        kind: Some(Kind::Almatafl(proto::AlmaTaflMove {
            cells: cells.iter().map(|c| c.to_string()).collect(),
        })),
    }
}

async fn apply(
    client: &mut Client,
    position: proto::Position,
    mv: proto::Move,
) -> Result<proto::ApplyResponse, tonic::Status> {
    let request = proto::ApplyRequest {
        position: Some(position),
        r#move: Some(mv),
    };
    client.apply(request).await.map(|r| r.into_inner())
}

#[tokio::test]
async fn new_game_is_structured_with_90_legal_moves() {
    let mut client = start().await;
    let request = proto::NewGameRequest {
        game: "almatafl".into(),
        variant: String::new(),
        seed: 0,
    };
    let report = client
        .new_game(request)
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap();
    let state = almatafl_state(&report);
    // 24 invaders, 12 defenders and the King, one per cell.
    assert_eq!(state.stacks.len(), 37);
    assert!(state.stacks.contains(&stack("F6", &[P::King])));
    assert!(state.stacks.contains(&stack("B2", &[P::Invader])));
    assert!(state.stacks.contains(&stack("E4", &[P::Defender])));
    assert_eq!(state.side_to_move(), proto::Side::One);
    assert!(state.history.is_empty());
    assert!(report.diagram.contains("K1"), "{}", report.diagram);
    let request = proto::LegalMovesRequest {
        position: report.position.clone(),
        include_position: false,
    };
    let moves = client
        .legal_moves(request)
        .await
        .unwrap()
        .into_inner()
        .moves;
    assert_eq!(moves.len(), 90);
    let b2b3 = moves.iter().find(|m| m.text == "B2-B3").unwrap();
    assert_eq!(b2b3.r#move, Some(cells_move(&["B2", "B3"])));
    let perft = client
        .perft(proto::PerftRequest {
            position: report.position.clone(),
            depth: 1,
            divide: false,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(perft.nodes, 90);
}

#[tokio::test]
async fn a_king_bounce_chain_applies_as_text_and_structured() {
    let mut client = start().await;
    let by_text = apply(
        &mut client,
        chain_position(),
        proto::Move {
            kind: Some(Kind::Text("F6-F7-F9-D9".into())),
        },
    )
    .await
    .unwrap();
    let by_cells = apply(
        &mut client,
        chain_position(),
        cells_move(&["F6", "F7", "F9", "D9"]),
    )
    .await
    .unwrap();
    assert_eq!(by_text, by_cells);
    let kinds: Vec<&str> = by_text.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["bounce", "bounce", "escape"]);
    let mv = by_text.r#move.unwrap();
    assert_eq!(mv.text, "F6-F7-F9-D9");
    assert_eq!(mv.r#move, Some(cells_move(&["F6", "F7", "F9", "D9"])));
    let report = by_text.position.unwrap();
    let outcome = report.outcome.clone().unwrap();
    assert_eq!(outcome.winner(), proto::Side::Two);
    assert_eq!(outcome.reason, "king escaped");
    let state = almatafl_state(&report);
    assert!(state.stacks.contains(&stack("D9", &[P::King])));
    assert!(!state.stacks.iter().any(|s| s.cell == "F6"));
    // The move ended on F9 instead: the King stands on the invader there.
    let stop = apply(
        &mut client,
        chain_position(),
        cells_move(&["F6", "F7", "F9"]),
    )
    .await
    .unwrap();
    let state = almatafl_state(stop.position.as_ref().unwrap()).clone();
    assert!(state.stacks.contains(&stack("F9", &[P::Invader, P::King])));
    assert_eq!(state.side_to_move(), proto::Side::One);
    // One cell is no move; a chain over an empty cell is illegal.
    let status = apply(&mut client, chain_position(), cells_move(&["F6"]))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().starts_with("move.almatafl.cells:"),
        "{status:?}"
    );
    let status = apply(
        &mut client,
        chain_position(),
        cells_move(&["F6", "F5", "F4"]),
    )
    .await
    .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().starts_with("move:"), "{status:?}");
    let status = apply(&mut client, chain_position(), cells_move(&["F6", "Z9"]))
        .await
        .unwrap_err();
    assert!(
        status.message().starts_with("move.almatafl.cells[1]:"),
        "{status:?}"
    );
}

#[tokio::test]
async fn bad_structured_positions_name_the_field() {
    let mut client = start().await;
    let two_kings = structured(
        vec![stack("F6", &[P::King]), stack("B2", &[P::King])],
        proto::Side::One,
    );
    let m = refused_position(&mut client, two_kings).await;
    assert!(
        m.starts_with("position.almatafl:") && m.contains("King"),
        "{m}"
    );
    let too_high = structured(
        vec![
            stack("F6", &[P::King]),
            stack("C4", &[P::Invader, P::Invader, P::Invader, P::Invader]),
        ],
        proto::Side::One,
    );
    let m = refused_position(&mut client, too_high).await;
    assert!(
        m.starts_with("position.almatafl:") && m.contains("C4") && m.contains("4 pieces"),
        "{m}"
    );
    let defender_on_throne = structured(
        vec![stack("F6", &[P::Defender]), stack("C4", &[P::King])],
        proto::Side::One,
    );
    let m = refused_position(&mut client, defender_on_throne).await;
    assert!(
        m.starts_with("position.almatafl:") && m.contains("throne"),
        "{m}"
    );
    let unknown_piece = structured(
        vec![proto::AlmaTaflStack {
            cell: "F6".into(),
            pieces: vec![P::King as i32, 0],
        }],
        proto::Side::One,
    );
    let m = refused_position(&mut client, unknown_piece).await;
    assert!(
        m.starts_with("position.almatafl.stacks[0].pieces[1]:"),
        "{m}"
    );
    let bad_cell = structured(vec![stack("A1", &[P::King])], proto::Side::One);
    let m = refused_position(&mut client, bad_cell).await;
    assert!(m.starts_with("position.almatafl.stacks[0].cell:"), "{m}");
    let no_side = structured(vec![stack("F6", &[P::King])], proto::Side::Unspecified);
    let m = refused_position(&mut client, no_side).await;
    assert_eq!(m, "position.almatafl.side_to_move: missing");
    let mut bad_history = chain_position();
    if let Some(State::Almatafl(a)) = bad_history.state.as_mut() {
        a.history.push(proto::AlmaTaflRepetition {
            hash: "xyz".into(),
            count: 1,
        });
    }
    let m = refused_position(&mut client, bad_history).await;
    assert!(m.starts_with("position.almatafl.history[0].hash:"), "{m}");
}

#[tokio::test]
async fn structured_positions_round_trip_with_their_repetitions() {
    let mut client = start().await;
    // Invaders and King shuffle back and forth: the start position repeats.
    let mut position = text("B2=i,C3=d,F6=k,F7=i,F9=i d -");
    for mv in ["C3-D4", "B2-B3", "D4-C3", "B3-B2", "C3-D4"] {
        let reply = apply(
            &mut client,
            position,
            proto::Move {
                kind: Some(Kind::Text(mv.into())),
            },
        )
        .await
        .unwrap();
        position = reply.position.unwrap().position.unwrap();
    }
    let Some(State::Almatafl(state)) = position.state.clone() else {
        panic!("{position:?}");
    };
    let counts: Vec<u32> = state.history.iter().map(|r| r.count).collect();
    assert_eq!(counts.iter().sum::<u32>(), 5);
    assert!(counts.contains(&2), "{state:?}");
    let request = proto::LegalMovesRequest {
        position: Some(position.clone()),
        include_position: true,
    };
    let again = client
        .legal_moves(request)
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap();
    assert_eq!(again.position.unwrap(), position);
    // Searched from the structured form: a legal move and a score.
    let request = proto::BestMoveRequest {
        table: String::new(),
        search_moves: Vec::new(),
        position: Some(position.clone()),
        limits: Some(proto::Limits {
            depth: 2,
            ..Default::default()
        }),
        searcher: String::new(),
    };
    let best = client.best_move(request).await.unwrap().into_inner();
    let mv = best.best_move.unwrap();
    assert!(matches!(mv.r#move.unwrap().kind, Some(Kind::Almatafl(_))));
    let request = proto::EvaluateRequest {
        searcher: String::new(),
        position: Some(position),
        limits: None,
    };
    let eval = client.evaluate(request).await.unwrap().into_inner();
    let p = eval.score.unwrap().win_probability;
    assert!((0.0..=1.0).contains(&p), "{p}");
}
