//! Schotten Totten through the RPCs with the generated client against the
//! real server: seeded deals, the referee flow (full states), the player flow
//! (views), hidden information, structured input both ways, and matches.

mod common;
use common::{refused_position, Client};

use caber_service::proto::{self, position::State, r#move::Kind};
use caber_service::EngineService;
use tokio_stream::StreamExt;
use tonic::Code;

const GAME: &str = "schotten-totten";

async fn start() -> Client {
    common::serve(EngineService::new()).await
}

async fn new_game(client: &mut Client, variant: &str, seed: u64) -> proto::PositionReport {
    let request = proto::NewGameRequest {
        game: GAME.into(),
        variant: variant.into(),
        seed,
    };
    client
        .new_game(request)
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap()
}

async fn view(
    client: &mut Client,
    position: &proto::Position,
    side: proto::Side,
) -> proto::PositionReport {
    let request = proto::ViewRequest {
        position: Some(position.clone()),
        player: side as i32,
    };
    client
        .view(request)
        .await
        .unwrap()
        .into_inner()
        .position
        .unwrap()
}

/// The legal moves of `position`, with the position as the server read it.
async fn legal(client: &mut Client, position: &proto::Position) -> proto::LegalMovesResponse {
    let request = proto::LegalMovesRequest {
        position: Some(position.clone()),
        include_position: true,
    };
    client.legal_moves(request).await.unwrap().into_inner()
}

async fn apply(
    client: &mut Client,
    position: &proto::Position,
    mv: proto::Move,
) -> proto::ApplyResponse {
    let request = proto::ApplyRequest {
        position: Some(position.clone()),
        r#move: Some(mv),
    };
    client.apply(request).await.unwrap().into_inner()
}

fn limits(nodes: u64, seed: u64) -> Option<proto::Limits> {
    Some(proto::Limits {
        nodes,
        seed,
        ..Default::default()
    })
}

async fn best(
    client: &mut Client,
    position: &proto::Position,
    nodes: u64,
    seed: u64,
) -> proto::BestMoveResponse {
    let request = proto::BestMoveRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: Some(position.clone()),
        limits: limits(nodes, seed),
    };
    client.best_move(request).await.unwrap().into_inner()
}

async fn evaluate(
    client: &mut Client,
    position: &proto::Position,
    nodes: u64,
    seed: u64,
) -> proto::Score {
    let request = proto::EvaluateRequest {
        searcher: String::new(),
        position: Some(position.clone()),
        limits: limits(nodes, seed),
    };
    client
        .evaluate(request)
        .await
        .unwrap()
        .into_inner()
        .score
        .unwrap()
}

fn st(report: &proto::PositionReport) -> &proto::SchottenTottenPosition {
    match report.position.as_ref().and_then(|p| p.state.as_ref()) {
        Some(State::SchottenTotten(s)) => s,
        other => panic!("not a Schotten Totten state: {other:?}"),
    }
}

fn structured(variant: &str, state: proto::SchottenTottenPosition) -> proto::Position {
    proto::Position {
        game: GAME.into(),
        variant: variant.into(),
        state: Some(State::SchottenTotten(state)),
    }
}

fn hand(h: &Option<proto::SchottenTottenHand>) -> Vec<String> {
    h.as_ref()
        .unwrap()
        .cards
        .iter()
        .map(|c| c.card.clone())
        .collect()
}

#[tokio::test]
async fn new_game_with_a_seed_is_deterministic_and_structured() {
    let mut client = start().await;
    let a = new_game(&mut client, "classic", 42).await;
    let b = new_game(&mut client, "classic", 42).await;
    let c = new_game(&mut client, "classic", 43).await;
    assert_eq!(a, b);
    assert_ne!(st(&a), st(&c));
    let s = st(&a);
    assert_eq!(s.viewer(), proto::Side::Unspecified);
    assert_eq!(s.side_to_move(), proto::Side::One);
    assert_eq!(s.stones.len(), 9);
    assert_eq!(hand(&s.hand_first).len(), 6);
    assert_eq!(hand(&s.hand_second).len(), 6);
    let clan = s.clan_deck.as_ref().unwrap();
    assert_eq!(clan.size, 54 - 12);
    let positions: Vec<u32> = clan.cards.iter().map(|c| c.position).collect();
    assert_eq!(positions, (0..42).collect::<Vec<_>>());
    assert_eq!(s.tactic_deck.as_ref().unwrap().size, 0);
    // The seed-42 deal of the engine's documented example (first plays R3 from it).
    assert_eq!(
        hand(&s.hand_first),
        ["R3", "R6", "R8", "Y4", "Y9", "K3"].map(String::from)
    );
    assert!(a.text.starts_with("full turn:1 "), "{}", a.text);
    assert!(a.diagram.contains("stone"), "{}", a.diagram);
    // Read back from the structured form, the same position.
    let again = legal(&mut client, a.position.as_ref().unwrap()).await;
    assert_eq!(again.moves.len(), 6 * 9);
    assert_eq!(again.position.unwrap(), a);
    // tactics deals seven cards and shuffles the ten tactic cards.
    let t = new_game(&mut client, "tactics", 42).await;
    assert_eq!(hand(&st(&t).hand_first).len(), 7);
    assert_eq!(st(&t).tactic_deck.as_ref().unwrap().size, 10);
}

#[tokio::test]
async fn the_referee_plays_a_whole_seeded_game_with_structured_moves() {
    let mut client = start().await;
    let mut report = new_game(&mut client, "tactics", 3).await;
    let mut turns = 0;
    let mut actions = std::collections::BTreeSet::new();
    while report.outcome.is_none() {
        turns += 1;
        assert!(turns < 500, "the game does not end");
        let position = report.position.clone().unwrap();
        let moves = legal(&mut client, &position).await.moves;
        assert!(!moves.is_empty(), "no legal move in {}", report.text);
        // Vary the choice so that many kinds of action are played.
        let chosen = moves[(turns * 7) % moves.len()].clone();
        let structured_move = chosen.r#move.clone().unwrap();
        let Some(Kind::SchottenTotten(m)) = &structured_move.kind else {
            panic!("{chosen:?}");
        };
        actions.insert(
            format!("{:?}", m.action.as_ref().unwrap())
                .split('(')
                .next()
                .unwrap()
                .to_string(),
        );
        let reply = apply(&mut client, &position, structured_move).await;
        assert_eq!(reply.r#move.unwrap().text, chosen.text);
        report = reply.position.unwrap();
    }
    let outcome = report.outcome.clone().unwrap();
    assert_eq!(outcome.result(), proto::outcome::Result::Win);
    assert_ne!(outcome.winner(), proto::Side::Unspecified);
    assert!(!outcome.reason.is_empty());
    // This deal's game (56 turns) also has discards and passes.
    for kind in ["Play", "Discard", "Pass"] {
        assert!(actions.contains(kind), "{actions:?}");
    }
    // A finished game refuses moves and searches.
    let status = client
        .best_move(proto::BestMoveRequest {
            table: String::new(),
            search_moves: Vec::new(),
            searcher: String::new(),
            position: report.position.clone(),
            limits: limits(10, 0),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
}

#[tokio::test]
async fn the_referee_plays_a_game_of_searched_moves_from_the_movers_view() {
    let mut client = start().await;
    let mut report = new_game(&mut client, "classic", 5).await;
    let mut turns = 0;
    while report.outcome.is_none() {
        turns += 1;
        assert!(turns < 200, "the game does not end");
        let full = report.position.clone().unwrap();
        let mover = report.side_to_move();
        let seen = view(&mut client, &full, mover).await;
        let mv = best(
            &mut client,
            seen.position.as_ref().unwrap(),
            30,
            turns as u64,
        )
        .await;
        let reply = apply(&mut client, &full, mv.best_move.unwrap().r#move.unwrap()).await;
        report = reply.position.unwrap();
    }
    assert_eq!(
        report.outcome.unwrap().result(),
        proto::outcome::Result::Win
    );
}

#[tokio::test]
async fn the_player_flow_view_search_apply_then_view_the_drawn_card() {
    let mut client = start().await;
    let full = new_game(&mut client, "classic", 42).await;
    let full_position = full.position.clone().unwrap();
    let mine = view(&mut client, &full_position, proto::Side::One).await;
    let v = st(&mine);
    assert_eq!(v.viewer(), proto::Side::One);
    assert_eq!(hand(&v.hand_first), hand(&st(&full).hand_first));
    // The opponent's hand: six unknown cards; the decks: sizes only.
    assert!(v.hand_second.as_ref().unwrap().cards.is_empty());
    assert_eq!(v.hand_second.as_ref().unwrap().unknown, 6);
    let clan = v.clan_deck.as_ref().unwrap();
    assert_eq!((clan.size, clan.cards.len()), (42, 0));
    assert!(mine.text.starts_with("view:1 "), "{}", mine.text);
    assert!(mine.text.contains("h2:?,?,?,?,?,?"), "{}", mine.text);
    // The view lists first's moves; searched, it answers a move of first's.
    let view_position = mine.position.clone().unwrap();
    assert_eq!(legal(&mut client, &view_position).await.moves.len(), 54);
    let answer = best(&mut client, &view_position, 200, 1).await;
    let mv = answer.best_move.unwrap();
    let Some(Kind::SchottenTotten(m)) = mv.r#move.as_ref().and_then(|m| m.kind.clone()) else {
        panic!("{mv:?}");
    };
    let Some(proto::schotten_totten_move::Action::Play(play)) = m.action.clone() else {
        panic!("a classic first move plays a card: {m:?}");
    };
    assert_eq!(m.draw(), proto::SchottenTottenDeck::Clan);
    // The referee applies it on the full state; the new view shows the drawn
    // card: the top of the clan deck (the last one listed, bottom first).
    let top = st(&full)
        .clan_deck
        .as_ref()
        .unwrap()
        .cards
        .last()
        .unwrap()
        .card
        .clone();
    let applied = apply(&mut client, &full_position, mv.r#move.clone().unwrap()).await;
    // The drawn card is named to first alone, the public event says only
    // which deck it came from.
    assert_eq!(
        applied.private_events,
        [proto::PrivateEvent {
            player: proto::Side::One as i32,
            event: Some(proto::Event {
                kind: "drawn-card".into(),
                cells: vec![top.clone()],
                text: format!("first draws {top}"),
            }),
        }]
    );
    let public: Vec<&str> = applied.events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(public, ["first draws from the clan deck"]);
    // Applied to first's own view, the draw is unknown: nothing to tell.
    let on_view = apply(&mut client, &view_position, mv.r#move.clone().unwrap()).await;
    assert!(on_view.private_events.is_empty(), "{on_view:?}");
    let after = applied.position.unwrap();
    assert_eq!(after.side_to_move(), proto::Side::Two);
    let again = view(
        &mut client,
        after.position.as_ref().unwrap(),
        proto::Side::One,
    )
    .await;
    let mut expected = hand(&st(&full).hand_first);
    expected.retain(|c| *c != play.card);
    expected.push(top.clone());
    let mut got = hand(&st(&again).hand_first);
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "drawn {top}");
    assert_eq!(st(&again).clan_deck.as_ref().unwrap().size, 41);
    let stone = &st(&again).stones[play.stone as usize - 1];
    assert_eq!(stone.first, vec![play.card.clone()]);
    // It is second's turn: first's view lists no move.
    assert!(legal(&mut client, again.position.as_ref().unwrap())
        .await
        .moves
        .is_empty());
}

#[tokio::test]
async fn hidden_cards_do_not_change_searches_and_full_states_search_the_movers_view() {
    let mut client = start().await;
    let a = new_game(&mut client, "tactics", 7).await;
    // b: a card of second's hand swapped with a card deep in the clan deck;
    // first cannot tell a from b.
    let mut sb = st(&a).clone();
    let hand2 = sb.hand_second.as_mut().unwrap();
    let deck = sb.clan_deck.as_mut().unwrap();
    std::mem::swap(&mut hand2.cards[0].card, &mut deck.cards[3].card);
    hand2.cards.sort_by(|x, y| x.card.cmp(&y.card));
    let b = structured("tactics", sb);
    let a = a.position.unwrap();
    let b_report = legal(&mut client, &b).await.position.unwrap();
    assert_ne!(
        b_report.text,
        legal(&mut client, &a).await.position.unwrap().text
    );
    let (va, vb) = (
        view(&mut client, &a, proto::Side::One).await,
        view(&mut client, &b, proto::Side::One).await,
    );
    assert_eq!(va, vb);
    let (ba, bb) = (
        best(&mut client, &a, 300, 5).await,
        best(&mut client, &b, 300, 5).await,
    );
    assert_eq!(ba.best_move, bb.best_move);
    // Playouts are counted apart from the depth (the PV's length).
    let stats = ba.stats.as_ref().unwrap();
    assert_eq!((stats.iterations, stats.nodes), (300, 300));
    assert_eq!(stats.depth as usize, ba.moves.len());
    assert!((1..=4).contains(&stats.depth), "{stats:?}");
    assert_eq!(ba.moves, bb.moves);
    assert_eq!(ba.score, bb.score);
    let (ea, eb) = (
        evaluate(&mut client, &a, 300, 5).await,
        evaluate(&mut client, &b, 300, 5).await,
    );
    assert_eq!(ea, eb);
    // A full state is searched from the mover's view: the same answer.
    let on_view = best(&mut client, va.position.as_ref().unwrap(), 300, 5).await;
    assert_eq!(on_view.best_move, ba.best_move);
    assert_eq!(on_view.score, ba.score);
    // Evaluate on a view: a win probability, searched or static.
    let ev = evaluate(&mut client, va.position.as_ref().unwrap(), 300, 5).await;
    assert_eq!(ev, ea);
    assert!(
        ev.win_probability > 0.0 && ev.win_probability < 1.0,
        "{ev:?}"
    );
    let request = proto::EvaluateRequest {
        searcher: String::new(),
        position: va.position.clone(),
        limits: None,
    };
    let static_eval = client.evaluate(request).await.unwrap().into_inner();
    assert_eq!(static_eval.score.unwrap().win_probability, 0.5);
    // Analyze a view: progress, then one final report with a legal first move.
    let request = proto::AnalyzeRequest {
        table: String::new(),
        search_moves: Vec::new(),
        searcher: String::new(),
        position: va.position.clone(),
        limits: limits(200, 5),
        multipv: 2,
        report_interval_ms: 0,
    };
    let updates: Vec<_> = client
        .analyze(request)
        .await
        .unwrap()
        .into_inner()
        .collect::<Result<Vec<_>, _>>()
        .await
        .unwrap();
    let last = updates.last().unwrap();
    assert!(last.r#final);
    assert_eq!(updates.iter().filter(|u| u.r#final).count(), 1);
    assert_eq!(last.lines.len(), 2);
    let moves = legal(&mut client, va.position.as_ref().unwrap())
        .await
        .moves;
    assert!(moves.iter().any(|m| m.text == last.lines[0].moves[0]));
    // The cards a line names that first has not seen are its samples: each
    // is named in the line, none is first's or on the table; the second's
    // replies (the lines go on past first's move) play such cards.
    let seen: Vec<String> = hand(&st(&va).hand_first)
        .into_iter()
        .chain(
            st(&va)
                .stones
                .iter()
                .flat_map(|s| s.first.iter().chain(&s.second).cloned()),
        )
        .collect();
    for line in &last.lines {
        for card in &line.sampled {
            let named = line.moves[1..].iter().any(|m| {
                m.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w == card)
            });
            assert!(named && !seen.contains(card), "{card}: {line:?}");
        }
    }
    assert!(
        last.lines
            .iter()
            .any(|l| l.moves.len() > 1 && !l.sampled.is_empty()),
        "{:?}",
        last.lines
    );
    // Lines of a game without hidden information sample nothing.
    let request = proto::AnalyzeRequest {
        position: Some(proto::Position {
            game: "tablut".into(),
            ..Default::default()
        }),
        limits: Some(proto::Limits {
            depth: 2,
            ..Default::default()
        }),
        ..Default::default()
    };
    let updates: Vec<_> = client
        .analyze(request)
        .await
        .unwrap()
        .into_inner()
        .collect::<Result<Vec<_>, _>>()
        .await
        .unwrap();
    let lines = &updates.last().unwrap().lines;
    assert!(lines[0].moves.len() > 1 && lines.iter().all(|l| l.sampled.is_empty()));
}

#[tokio::test]
async fn bad_structured_states_and_requests_name_the_field() {
    let mut client = start().await;
    let full = new_game(&mut client, "classic", 1).await;
    let base = st(&full).clone();
    let mut s = base.clone();
    s.stones.pop();
    let m = refused_position(&mut client, structured("classic", s)).await;
    // The engine's setup counts the stones and names its field.
    assert_eq!(
        m,
        "position.schotten_totten: invalid position: stones: 8 given, 9 expected"
    );
    let mut s = base.clone();
    s.hand_first.as_mut().unwrap().cards[2].card = "Z7".into();
    let m = refused_position(&mut client, structured("classic", s)).await;
    assert!(
        m.starts_with("position.schotten_totten.hand_first.cards[2].card:"),
        "{m}"
    );
    let mut s = base.clone();
    s.hand_second.as_mut().unwrap().unknown = 1;
    let m = refused_position(&mut client, structured("classic", s)).await;
    assert!(
        m.starts_with("position.schotten_totten.hand_second.unknown:"),
        "{m}"
    );
    let mut s = base.clone();
    s.clan_deck.as_mut().unwrap().cards[0].position = 5;
    let m = refused_position(&mut client, structured("classic", s)).await;
    assert!(
        m.starts_with("position.schotten_totten.clan_deck.cards[0].position:"),
        "{m}"
    );
    // A card in both hands: the engine's validation says so.
    let mut s = base.clone();
    let card = s.hand_first.as_ref().unwrap().cards[0].card.clone();
    s.hand_second.as_mut().unwrap().cards[0].card = card;
    let m = refused_position(&mut client, structured("classic", s)).await;
    assert!(m.starts_with("position.schotten_totten: "), "{m}");
    let mut s = base.clone();
    s.side_to_move = 0;
    let m = refused_position(&mut client, structured("classic", s)).await;
    assert_eq!(m, "position.schotten_totten.side_to_move: missing");
    // View needs a full state of a game with hidden cards.
    let seen = view(
        &mut client,
        full.position.as_ref().unwrap(),
        proto::Side::Two,
    )
    .await;
    let request = proto::ViewRequest {
        position: seen.position.clone(),
        player: 0,
    };
    let status = client.view(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().starts_with("position: "), "{status:?}");
    // A view is searched for its viewer only: second's view at first's turn has no move.
    assert!(legal(&mut client, seen.position.as_ref().unwrap())
        .await
        .moves
        .is_empty());
    // A structured move naming a bad card, or an illegal one.
    let bad = proto::Move {
        kind: Some(Kind::SchottenTotten(proto::SchottenTottenMove {
            action: Some(proto::schotten_totten_move::Action::Play(
                proto::SchottenTottenPlay {
                    card: "JOKR".into(),
                    stone: 3,
                },
            )),
            claims: vec![],
            draw: 0,
        })),
    };
    let request = proto::ApplyRequest {
        position: full.position.clone(),
        r#move: Some(bad),
    };
    let status = client.apply(request).await.unwrap_err();
    assert!(
        status
            .message()
            .starts_with("move.schotten_totten.play.card:"),
        "{status:?}"
    );
    let not_in_hand = hand(&st(&full).hand_second)[0].clone();
    let illegal = proto::Move {
        kind: Some(Kind::SchottenTotten(proto::SchottenTottenMove {
            action: Some(proto::schotten_totten_move::Action::Play(
                proto::SchottenTottenPlay {
                    card: not_in_hand,
                    stone: 3,
                },
            )),
            claims: vec![],
            draw: proto::SchottenTottenDeck::Clan as i32,
        })),
    };
    let request = proto::ApplyRequest {
        position: full.position.clone(),
        r#move: Some(illegal),
    };
    let status = client.apply(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().starts_with("move: "), "{status:?}");
}

/// Numbers that are no value of their enum are refused naming the field,
/// in every enum a Schotten Totten message holds, as in `side_to_move`.
#[tokio::test]
async fn enum_numbers_out_of_range_are_refused_naming_the_field() {
    let mut client = start().await;
    let report = new_game(&mut client, "classic", 5).await;
    let full = st(&report).clone();
    let field = "position.schotten_totten";
    type Edit = fn(&mut proto::SchottenTottenPosition);
    let cases: [(&str, Edit); 4] = [
        ("stones[0].claimed", |s| s.stones[0].claimed = 9),
        ("stones[2].completed_first", |s| {
            s.stones[2].completed_first = 9
        }),
        ("viewer", |s| s.viewer = 9),
        ("side_to_move", |s| s.side_to_move = 9),
    ];
    for (name, edit) in cases {
        let mut s = full.clone();
        edit(&mut s);
        let m = refused_position(&mut client, structured("classic", s)).await;
        assert_eq!(
            m,
            format!("{field}.{name}: 9 is not one of the enum's values"),
            "{name}"
        );
    }
    // A move's draw, and View's player.
    let position = structured("classic", full);
    let legal = legal(&mut client, &position).await;
    let Some(Kind::SchottenTotten(mut m)) = legal.moves[0].r#move.clone().unwrap().kind else {
        panic!("a structured move");
    };
    m.draw = 7;
    let refused = client
        .apply(proto::ApplyRequest {
            position: Some(position.clone()),
            r#move: Some(proto::Move {
                kind: Some(Kind::SchottenTotten(m)),
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(
        refused.message(),
        "move.schotten_totten.draw: 7 is not one of the enum's values"
    );
    for player in [9, -1] {
        let refused = client
            .view(proto::ViewRequest {
                position: Some(position.clone()),
                player,
            })
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert_eq!(
            refused.message(),
            format!("player: {player} is not one of the enum's values")
        );
    }
}

/// A full state's deck lists every card bottom first with its place, and
/// its size is the count: the engine's rule, each refusal naming the field.
#[tokio::test]
async fn a_full_states_deck_is_listed_whole_and_in_order() {
    let mut client = start().await;
    let deal = new_game(&mut client, "classic", 3).await;
    let refused = |state: proto::SchottenTottenPosition| {
        let mut client = client.clone();
        async move {
            let request = proto::LegalMovesRequest {
                position: Some(structured("classic", state)),
                include_position: false,
            };
            let status = client.legal_moves(request).await.unwrap_err();
            assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
            status.message().to_string()
        }
    };
    let mut swapped = st(&deal).clone();
    swapped.clan_deck.as_mut().unwrap().cards[2].position = 3;
    assert_eq!(
        refused(swapped).await,
        "position.schotten_totten.clan_deck.cards[2].position: 3 given; a full state lists \
         the whole deck bottom first, so this card is at 2"
    );
    let mut short = st(&deal).clone();
    let deck = short.clan_deck.as_mut().unwrap();
    let listed = deck.cards.len();
    deck.size += 1;
    assert_eq!(
        refused(short).await,
        format!(
            "position.schotten_totten.clan_deck.size: {} given but {listed} cards listed",
            listed + 1
        )
    );
}
