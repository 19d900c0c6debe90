//! `Review` (a game record judged move by move) and `Solve` (exact forced
//! wins) through the generated client against the real server.

mod common;
use common::Client;

use caber_service::proto::{self, position::State};
use caber_service::EngineService;
use tonic::Code;

async fn start() -> Client {
    common::serve(EngineService::new()).await
}

fn depth(d: u32) -> Option<proto::Limits> {
    Some(proto::Limits {
        depth: d,
        ..Default::default()
    })
}

async fn review(
    client: &mut Client,
    record: &str,
) -> Result<Vec<proto::ReviewUpdate>, tonic::Status> {
    let request = proto::ReviewRequest {
        record: record.to_string(),
        limits: depth(2),
        searcher: String::new(),
    };
    let mut stream = client.review(request).await?.into_inner();
    let mut updates = Vec::new();
    while let Some(update) = stream.message().await? {
        updates.push(update);
    }
    Ok(updates)
}

/// A Tartan game of two moves: red's Bishop steps away from the block
/// that wins (B:D4-C4), and blue's Bishop wins.
const MISSED_BLOCK: &str = "[Game \"tartan\"]\n\
                            [Start \"play C4=r4,F6=b4 D4,G6 0,0 0 r -\"]\n\
                            \n\
                            1. B:D4-D3\n\
                            2. B:G6-F6\n";

/// Both Bishops stand next to their own Cathedral: red, to move, wins by
/// stepping onto C4 but steps elsewhere, and blue wins: a blunder by red
/// (from a won game to a lost one, the winning move named), then blue's
/// winning move, the engine's own choice.
#[tokio::test]
async fn a_missed_block_is_a_blunder_and_the_summary_counts_it() {
    let mut client = start().await;
    let record = MISSED_BLOCK;
    let updates = review(&mut client, record).await.unwrap();
    assert_eq!(updates.len(), 3, "two moves and the summary");
    let red = updates[0].r#move.as_ref().unwrap();
    assert_eq!(red.ply, 1);
    assert_eq!(red.mover_name, "red");
    assert_eq!(red.played.as_ref().unwrap().text, "B:D4-D3");
    assert_eq!(red.best.as_ref().unwrap().text, "B:D4-C4");
    assert_eq!(red.judgement(), proto::Judgement::Blunder);
    assert_eq!((red.win_before, red.loss), (1.0, 1.0), "{red:?}");
    assert_eq!(red.accuracy, 0.0);
    assert_eq!(red.win_after, 0.0, "blue wins at once: red has lost");
    let blue = updates[1].r#move.as_ref().unwrap();
    assert_eq!(blue.best.as_ref().unwrap().text, "B:G6-F6");
    assert_eq!(blue.judgement(), proto::Judgement::Good);
    assert_eq!((blue.loss, blue.accuracy), (0.0, 100.0));
    assert!(blue.after.is_none(), "the game ended with the move");
    let summary = &updates[2];
    assert!(summary.r#move.is_none());
    assert_eq!(summary.game, "tartan");
    // Every update carries the threshold its charts draw noise by.
    assert!(updates.iter().all(|u| u.inaccuracy == 0.10));
    let players: Vec<(&str, u32, u32)> = summary
        .players
        .iter()
        .map(|p| (p.side_name.as_str(), p.moves, p.blunders))
        .collect();
    assert_eq!(players, [("red", 1, 1), ("blue", 1, 0)]);
    assert!(summary.players[0].accuracy < 50.0);
    assert_eq!(summary.players[1].accuracy, 100.0);
    let end = summary.final_position.as_ref().unwrap();
    assert_eq!(end.outcome.as_ref().unwrap().winner_name, "blue");
}

/// A Tablut game from the start, its moves as a record writes them: one
/// update per move, then the summary.
#[tokio::test]
async fn a_game_from_the_start_gets_one_update_per_move() {
    let mut client = start().await;
    let record =
        "[Game \"tablut\"]\n[Variant \"ashton\"]\n\n1. e4-d4 {a comment}\n2. i4-e4\n3. f5-f4\n";
    let updates = review(&mut client, record).await.unwrap();
    assert_eq!(updates.len(), 4);
    for (i, u) in updates[..3].iter().enumerate() {
        let m = u.r#move.as_ref().unwrap();
        assert_eq!(m.ply as usize, i + 1);
        assert!((0.0..=1.0).contains(&m.win_before) && (0.0..=1.0).contains(&m.win_after));
        assert!(m.loss >= 0.0 && (0.0..=100.0).contains(&m.accuracy));
        assert!(!m.best_line.is_empty());
    }
    assert_eq!(updates[0].r#move.as_ref().unwrap().mover_name, "white");
    assert_eq!(updates[3].variant, "ashton");
    assert_eq!(updates[3].players.iter().map(|p| p.moves).sum::<u32>(), 3);
    // Every update says how many moves to expect.
    assert!(updates.iter().all(|u| u.moves == 3), "{updates:?}");
}

/// `Replay` reads a record as `Review` does and answers every position: the
/// start, then each move with its events and the position after it, which
/// reads back to what `Apply` gives.
#[tokio::test]
async fn replay_steps_through_a_record() {
    let mut client = start().await;
    let record = MISSED_BLOCK;
    let replay = client
        .replay(proto::ReplayRequest {
            record: record.into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (replay.game.as_str(), replay.variant.as_str()),
        ("tartan", "standard")
    );
    let start = replay.start.unwrap();
    assert_eq!(start.text, "play C4=r4,F6=b4 D4,G6 0,0 0 r -");
    let texts: Vec<&str> = replay
        .moves
        .iter()
        .map(|m| m.r#move.as_ref().unwrap().text.as_str())
        .collect();
    assert_eq!(texts, ["B:D4-D3", "B:G6-F6"]);
    assert_eq!(replay.outcome.unwrap().winner_name, "blue");
    // Each position after a move is Apply's.
    let mut before = start.position.unwrap();
    for m in &replay.moves {
        let applied = client
            .apply(proto::ApplyRequest {
                position: Some(before),
                r#move: m.r#move.as_ref().unwrap().r#move.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        let after = applied.position.unwrap();
        assert_eq!(after.text, m.text);
        assert_eq!(after.side_to_move, m.side_to_move);
        assert_eq!(applied.events, m.events);
        before = after.position.unwrap();
    }
    // Refusals name the record's tag or move, as Review's do.
    let refused = client
        .replay(proto::ReplayRequest {
            record: "[Game \"tablut\"]\n\n1. d1-d2\n2. d1-d2\n".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(
        refused
            .message()
            .starts_with("record: move 2 (\"d1-d2\"): illegal move"),
        "{refused:?}"
    );
    let moves: String = (1..=2001).map(|n| format!("{n}. d1-d2\n")).collect();
    let long = format!("[Game \"tablut\"]\n\n{moves}");
    let refused = client
        .replay(proto::ReplayRequest { record: long })
        .await
        .unwrap_err();
    assert_eq!(
        refused.message(),
        "record: 2001 moves; at most 2000 are taken"
    );
}

#[tokio::test]
async fn bad_records_are_refused_naming_the_problem() {
    let mut client = start().await;
    let cases = [
        ("1. e4-d4\n", "record: record: no [Game \"...\"] tag"),
        (
            "[Game \"chess\"]\n",
            "record: the Game tag: unknown game \"chess\"",
        ),
        (
            "[Game \"tablut\"]\n\n1. d1-d2\n2. d1-d2\n",
            "record: move 2 (\"d1-d2\"): illegal move",
        ),
        (
            "[Game \"tablut\"]\n[Variant \"nope\"]\n",
            "record: the Variant tag: game tablut has no variant \"nope\"",
        ),
        (
            "[Game \"tartan\"]\n[Start \"play\"]\n",
            "record: the Start tag: invalid position",
        ),
    ];
    for (record, message) in cases {
        let status = review(&mut client, record).await.unwrap_err();
        assert_eq!(
            status.code(),
            Code::InvalidArgument,
            "{record:?}: {status:?}"
        );
        assert!(
            status.message().starts_with(message),
            "{record:?}: {status:?}"
        );
    }
}

fn tartan(text: &str) -> Option<proto::Position> {
    Some(proto::Position {
        game: "tartan".into(),
        variant: String::new(),
        state: Some(State::Text(text.into())),
    })
}

#[tokio::test]
async fn solve_finds_the_only_win_and_its_line() {
    let mut client = start().await;
    let solve = |position, max_moves| proto::SolveRequest {
        position,
        max_moves,
    };
    let one = client
        .solve(solve(tartan("play C4=r4,G7=b1 D4,I9 0,0 0 r -"), 2))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(one.win_in, 1);
    let winning: Vec<&str> = one.winning.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(winning, ["B:D4-C4"]);
    assert_eq!(one.line, ["B:D4-C4"]);
    assert!(one.nodes > 0);
    let two = client
        .solve(solve(tartan("play C4=r2,D4=r2,I9=b1 D3,I8 0,0 0 r -"), 2))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((two.win_in, two.line.len()), (2, 3));
    let none = client
        .solve(solve(tartan("play F6=b4,A1=r1 E6,G6 0,0 0 r -"), 1))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((none.win_in, none.winning.len()), (0, 0));
    let refused = client
        .solve(solve(tartan("play C4=r4,G7=b1 D4,I9 0,0 0 r -"), 9))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(
        refused
            .message()
            .starts_with("max_moves: 9 is out of range"),
        "{refused:?}"
    );
}

#[tokio::test]
async fn solve_needs_every_move_known() {
    let mut client = start().await;
    let deal = client
        .new_game(proto::NewGameRequest {
            game: "schotten-totten".into(),
            variant: String::new(),
            seed: 3,
        })
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap();
    let view = client
        .view(proto::ViewRequest {
            position: deal.position.clone(),
            player: proto::Side::One as i32,
        })
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap();
    let refused = client
        .solve(proto::SolveRequest {
            position: view.position,
            max_moves: 1,
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(
        refused.message().contains("solve the referee's full state"),
        "{refused:?}"
    );
    let full = client
        .solve(proto::SolveRequest {
            position: deal.position,
            max_moves: 1,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(full.win_in, 0, "nobody wins on the first move of a deal");
}
