//! Fuzzing on stable with proptest: bad input never hurts the server.
//!
//! 1. Every game of the registry: its position notation (incl. Schotten
//!    Totten's full states and views) and move notation, mutated and random
//!    texts through the game's `LegalMoves` and `Apply`, never panic, and a
//!    position read is written back in a text that reads again.
//! 2. Every RPC on arbitrary messages: valid requests (text and structured
//!    positions and moves of every game) with their encoded bytes mutated, and
//!    random bytes, decoded with prost and handed to the service's handlers
//!    directly; nothing panics, and every refusal is `INVALID_ARGUMENT` or
//!    `FAILED_PRECONDITION` with a "field: problem" message.
//!
//! The case count is small for CI (a few seconds); raise it with
//! `PROPTEST_CASES=100000 cargo test --release -p caber-service --test fuzz`.

use std::sync::OnceLock;
use std::time::Duration;

use caber_engine::Player;
use caber_service::games::{self, ServedGame};
use caber_service::pool::SearchPool;
use caber_service::proto::game_engine_server::GameEngine;
use caber_service::proto::{self, position::State};
use caber_service::search_runner::{Caps, SearchRunner};
use caber_service::EngineService;
use proptest::prelude::*;
use prost::Message;
use tokio_stream::StreamExt;
use tonic::{Code, Request, Status};

/// `cases` cases, or `PROPTEST_CASES` if set.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A text position of `game`.
fn text(game: &str, variant: &str, text: &str) -> proto::Position {
    proto::Position {
        game: game.to_string(),
        variant: variant.to_string(),
        state: Some(State::Text(text.to_string())),
    }
}

/// A text move.
fn text_move(mv: &str) -> proto::Move {
    proto::Move {
        kind: Some(proto::r#move::Kind::Text(mv.to_string())),
    }
}

/// The registry's game of that name.
fn game(name: &str) -> &'static dyn ServedGame {
    games::game_named(name, "game").unwrap()
}

/// Valid positions of every game and variant, as (game, variant, text).
fn corpus() -> &'static [(String, String, String)] {
    static CORPUS: OnceLock<Vec<(String, String, String)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut out = Vec::new();
        for g in games::registry() {
            for variant in g.info().variants {
                let variant = variant.name;
                for seed in 0..3u64 {
                    let mut p = g.new_game(&variant, seed).unwrap().position.unwrap();
                    for ply in 0..12 {
                        push(&mut out, *g, &p);
                        let moves = g.legal_moves(&p, false).unwrap().moves;
                        if moves.is_empty() {
                            break;
                        }
                        let mv = &moves[(seed as usize * 7 + ply * 13) % moves.len()];
                        p = g
                            .apply(&p, mv.r#move.as_ref())
                            .unwrap()
                            .position
                            .unwrap()
                            .position
                            .unwrap();
                    }
                }
            }
        }
        out
    })
}

/// Adds `p`'s text, and for games with hidden information both players' views of it.
fn push(out: &mut Vec<(String, String, String)>, g: &dyn ServedGame, p: &proto::Position) {
    let report = g.legal_moves(p, true).unwrap().position.unwrap();
    out.push((g.name().to_string(), p.variant.clone(), report.text));
    for player in [Player::One, Player::Two] {
        if let Ok(view) = g.view(p, Some(player)) {
            out.push((g.name().to_string(), p.variant.clone(), view.text));
        }
    }
}

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = prop_oneof![
        any::<char>(),
        proptest::sample::select(
            " /-:;,.0123456789abcdefghkwxyzABKW+*#|\n\t"
                .chars()
                .collect::<Vec<_>>()
        ),
    ];
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, n)| Edit::Duplicate(i, n)),
    ]
}

/// `text` with `edits` applied (positions taken modulo the length).
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let len = chars.len();
        let at = |i: usize| if len == 0 { 0 } else { i % len };
        match *e {
            Edit::Insert(i, c) => chars.insert(if len == 0 { 0 } else { i % (len + 1) }, c),
            Edit::Delete(i) if len > 0 => {
                chars.remove(at(i));
            }
            Edit::Replace(i, c) if len > 0 => chars[at(i)] = c,
            Edit::Truncate(i) => chars.truncate(if len == 0 { 0 } else { i % (len + 1) }),
            Edit::Duplicate(i, n) if len > 0 => {
                let start = at(i);
                let end = (start + n % 16).min(len);
                let piece: Vec<char> = chars[start..end].to_vec();
                chars.splice(start..start, piece);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Reads a text, and if that works applies mutated legal moves and random texts.
fn exercise_notation(name: &str, variant: &str, position: &str, edits: &[Edit], junk: &str) {
    let g = game(name);
    let p = text(name, variant, position);
    let Ok(reply) = g.legal_moves(&p, true) else {
        return;
    };
    // What was read can be written and read again.
    let written = reply.position.unwrap().text;
    let again = g.legal_moves(&text(name, variant, &written), false);
    assert!(
        again.is_ok(),
        "{name} {position:?}: own notation refused: {again:?}"
    );
    for mv in reply.moves.iter().take(3) {
        let _ = g.apply(&p, Some(&text_move(&mutate(&mv.text, edits))));
    }
    let _ = g.apply(&p, Some(&text_move(junk)));
    let _ = g.apply(&p, Some(&text_move("")));
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn mutated_position_and_move_texts_never_panic(
        index in any::<usize>(),
        edits in proptest::collection::vec(edit(), 0..6),
        junk in ".{0,40}",
    ) {
        let (game, variant, text) = &corpus()[index % corpus().len()];
        let mutated = mutate(text, &edits);
        exercise_notation(game, variant, &mutated, &edits, &junk);
        // The unmutated position with mutated moves.
        exercise_notation(game, variant, text, &edits, &junk);
        // A text of one game read as another's.
        for other in games::registry() {
            let _ = other.legal_moves(&self::text(other.name(), "", &mutated), false);
        }
    }

    #[test]
    fn random_texts_never_panic(game_index in 0usize..8, junk in ".{0,120}") {
        let registry = games::registry();
        let name = registry.get(game_index).map_or("nosuchgame", |g| g.name());
        let service = service();
        for variant in ["", "nosuchvariant"] {
            let request = proto::LegalMovesRequest {
                position: Some(text(name, variant, &junk)),
                include_position: true,
            };
            check(runtime().block_on(service.legal_moves(Request::new(request))).map(drop));
        }
    }
}

/// A service whose searches are tiny.
fn service() -> &'static EngineService {
    static SERVICE: OnceLock<EngineService> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let caps = Caps {
            max_movetime: Duration::from_millis(5),
            max_nodes: 500,
            max_threads: 2,
            max_review: Duration::from_millis(50),
            // Fuzzed hash sizes stay small; kept tables are exercised too.
            max_table_mb: 1,
            kept_tables: 2,
        };
        EngineService::with_runner(SearchRunner::new(SearchPool::new(1, 4), caps))
    })
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    })
}

/// Valid requests' bytes: (rpc index, encoded request), for every corpus
/// position in text and structured form, with one of its legal moves.
fn seeds() -> &'static [(usize, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(usize, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut out = Vec::new();
        for (game, variant, text) in corpus().iter().step_by(8) {
            let text_position = proto::Position {
                game: game.clone(),
                variant: variant.clone(),
                state: Some(State::Text(text.clone())),
            };
            let mut positions = vec![text_position.clone()];
            let legal = runtime().block_on(service().legal_moves(Request::new(
                proto::LegalMovesRequest {
                    position: Some(text_position.clone()),
                    include_position: false,
                },
            )));
            let moves = legal.map(|r| r.into_inner().moves).unwrap_or_default();
            if let Some(first) = moves.first() {
                let applied =
                    runtime().block_on(service().apply(Request::new(proto::ApplyRequest {
                        position: Some(text_position.clone()),
                        r#move: first.r#move.clone(),
                    })));
                if let Some(p) = applied.ok().and_then(|r| r.into_inner().position) {
                    positions.extend(p.position);
                }
            }
            let mv = moves.first().and_then(|m| m.r#move.clone());
            let limits = Some(proto::Limits {
                depth: 2,
                nodes: 200,
                movetime_ms: 5,
                seed: 1,
                threads: 2,
                ..Default::default()
            });
            // Weights of every game's evaluations, some out of range.
            let weighted = Some(proto::Limits {
                weights: [
                    ("white_soldier".to_string(), 200),
                    ("mobility".to_string(), -10_001),
                    ("token".to_string(), 10_000),
                ]
                .into(),
                ..limits.clone().unwrap()
            });
            for p in positions {
                let p = Some(p);
                out.push((
                    0,
                    proto::LegalMovesRequest {
                        position: p.clone(),
                        include_position: false,
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    1,
                    proto::ApplyRequest {
                        position: p.clone(),
                        r#move: mv.clone(),
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    2,
                    proto::EvaluateRequest {
                        searcher: String::new(),
                        position: p.clone(),
                        limits: limits.clone(),
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    3,
                    proto::BestMoveRequest {
                        table: "fuzz".into(),
                        search_moves: Vec::new(),
                        searcher: String::new(),
                        position: p.clone(),
                        limits: limits.clone(),
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    4,
                    proto::AnalyzeRequest {
                        table: String::new(),
                        search_moves: Vec::new(),
                        searcher: String::new(),
                        position: p.clone(),
                        limits: weighted.clone(),
                        multipv: 2,
                        report_interval_ms: 1,
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    5,
                    proto::PerftRequest {
                        position: p.clone(),
                        depth: 1,
                        divide: true,
                    }
                    .encode_to_vec(),
                ));
                let view = proto::ViewRequest {
                    position: p.clone(),
                    player: 1,
                };
                out.push((7, view.encode_to_vec()));
                out.push((
                    9,
                    proto::SolveRequest {
                        position: p.clone(),
                        max_moves: 1,
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    10,
                    proto::RenderRequest {
                        position: p.clone(),
                        last_move: mv
                            .as_ref()
                            .and_then(|m| match &m.kind {
                                Some(proto::r#move::Kind::Text(t)) => Some(t.clone()),
                                _ => None,
                            })
                            .unwrap_or_default(),
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    11,
                    proto::PlayoutsRequest {
                        position: p.clone(),
                        seed: 4,
                        movetime_ms: 1,
                    }
                    .encode_to_vec(),
                ));
                let record = format!("[Game \"{game}\"]\n[Variant \"{variant}\"]\n");
                out.push((
                    12,
                    proto::ReplayRequest {
                        record: record.clone(),
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    8,
                    proto::ReviewRequest {
                        record,
                        limits: limits.clone(),
                        searcher: String::new(),
                    }
                    .encode_to_vec(),
                ));
                out.push((
                    6,
                    proto::NewGameRequest {
                        game: game.clone(),
                        variant: variant.clone(),
                        seed: 3,
                    }
                    .encode_to_vec(),
                ));
            }
        }
        out
    })
}

/// The RPCs of `caber.v1.GameEngine` the fuzzer calls (index 6 is NewGame).
const RPCS: usize = 13;

/// A refusal must name the field and the problem. Besides bad input, the
/// service's tiny caps may refuse a perft that outlasts them.
fn check(result: Result<(), Status>) {
    if let Err(status) = result {
        assert!(
            matches!(
                status.code(),
                Code::InvalidArgument | Code::FailedPrecondition | Code::ResourceExhausted
            ),
            "unexpected {status:?}"
        );
        assert!(status.message().contains(": "), "no field in {status:?}");
        assert!(
            status.message().len() <= MAX_MESSAGE,
            "a {}-byte message: {status:?}",
            status.message().len()
        );
    }
}

/// The longest status message any input may cause: values are quoted by a
/// short prefix, problem lists are cut.
const MAX_MESSAGE: usize = 1024;

/// A value far longer than anything valid, with a quote and a line break
/// inside its quoted prefix.
fn long_value() -> String {
    format!("x\"y\n{}", "z".repeat(100_000))
}

/// Every string a client sends, 100 KB long, in every RPC: the refusal
/// quotes at most a short escaped prefix and the size, never the whole value.
#[test]
fn long_values_are_quoted_by_a_short_prefix() {
    let long = long_value();
    let quoted_prefix = format!("\"x\\\"y\\n{}\"... ({} bytes)", "z".repeat(60), long.len());
    let s = service();
    let quoted = std::cell::Cell::new(0);
    let refused = |result: Result<(), Status>, what: &str| {
        let status = result.expect_err(what);
        assert_eq!(status.code(), Code::InvalidArgument, "{what}: {status:?}");
        assert!(
            status.message().len() <= MAX_MESSAGE,
            "{what}: {} bytes",
            status.message().len()
        );
        let message = status.message();
        assert!(
            !message.contains(&"z".repeat(65)),
            "{what}: more than the prefix: {message}"
        );
        if message.contains("\"x\\\"y\\n") {
            assert!(message.contains(&quoted_prefix), "{what}: {message}");
            quoted.set(quoted.get() + 1);
        }
    };
    runtime().block_on(async {
        for g in games::registry() {
            let name = g.name();
            let report = g.new_game("", 1).unwrap();
            let good = report.position.clone().unwrap();
            let mut positions = Vec::new();
            let mut p = good.clone();
            p.game = long.clone();
            positions.push(("position.game", p));
            let mut p = good.clone();
            p.variant = long.clone();
            positions.push(("position.variant", p));
            positions.push(("position.text", text(name, "", &long)));
            let first_field = report.text.split(' ').next().unwrap();
            let spliced = report.text.replacen(first_field, &long, 1);
            positions.push(("position.text (a field)", text(name, "", &spliced)));
            for (what, p) in positions {
                let r = s.legal_moves(Request::new(proto::LegalMovesRequest {
                    position: Some(p.clone()),
                    include_position: false,
                }));
                refused(r.await.map(drop), &format!("{name} LegalMoves {what}"));
                let r = s.perft(Request::new(proto::PerftRequest {
                    position: Some(p),
                    depth: 1,
                    divide: false,
                }));
                refused(r.await.map(drop), &format!("{name} Perft {what}"));
            }
            let r = s.apply(Request::new(proto::ApplyRequest {
                position: Some(good.clone()),
                r#move: Some(text_move(&long)),
            }));
            refused(r.await.map(drop), &format!("{name} Apply move.text"));
            let r = s.best_move(Request::new(proto::BestMoveRequest {
                table: String::new(),
                search_moves: Vec::new(),
                position: Some(good.clone()),
                limits: None,
                searcher: long.clone(),
            }));
            refused(r.await.map(drop), &format!("{name} BestMove searcher"));
            let r = s.evaluate(Request::new(proto::EvaluateRequest {
                position: Some(good.clone()),
                limits: None,
                searcher: long.clone(),
            }));
            refused(r.await.map(drop), &format!("{name} Evaluate searcher"));
            let r = s.analyze(Request::new(proto::AnalyzeRequest {
                table: String::new(),
                search_moves: Vec::new(),
                position: Some(good.clone()),
                limits: None,
                searcher: long.clone(),
                multipv: 1,
                report_interval_ms: 0,
            }));
            refused(r.await.map(drop), &format!("{name} Analyze searcher"));
            let r = s.new_game(Request::new(proto::NewGameRequest {
                game: name.into(),
                variant: long.clone(),
                seed: 0,
            }));
            refused(r.await.map(drop), &format!("{name} NewGame variant"));
        }
        let r = s.new_game(Request::new(proto::NewGameRequest {
            game: long.clone(),
            variant: String::new(),
            seed: 0,
        }));
        refused(r.await.map(drop), "NewGame game");
    });
    // At least the game, variant, searcher and move names quote it.
    assert!(quoted.get() > 4 * 6, "{} quoted", quoted.get());
}

/// The method of each RPC index of [`call`].
const METHODS: [&str; RPCS] = [
    "LegalMoves",
    "Apply",
    "Evaluate",
    "BestMove",
    "Analyze",
    "Perft",
    "NewGame",
    "View",
    "Review",
    "Solve",
    "Render",
    "Playouts",
    "Replay",
];

/// Every string a request can carry, as the schema says: a field path from
/// the request message (`None` where a path goes into a map's key).
fn string_paths(
    message: &prost_reflect::MessageDescriptor,
    path: &mut Vec<prost_reflect::FieldDescriptor>,
    out: &mut Vec<Vec<prost_reflect::FieldDescriptor>>,
) {
    use prost_reflect::Kind;
    for field in message.fields() {
        path.push(field.clone());
        match field.kind() {
            Kind::String => out.push(path.clone()),
            Kind::Message(m)
                if field.is_map() && m.map_entry_key_field().kind() == Kind::String =>
            {
                out.push(path.clone())
            }
            Kind::Message(_) if field.is_map() => {}
            Kind::Message(m)
                if path.len() < 5
                    && !path[..path.len() - 1]
                        .iter()
                        .any(|f| f.kind() == field.kind()) =>
            {
                string_paths(&m, path, out)
            }
            _ => {}
        }
        path.pop();
    }
}

/// `message` with `value` at `path`: sub-messages made where absent, a list
/// or map given one long entry.
fn set_long(
    message: &mut prost_reflect::DynamicMessage,
    path: &[prost_reflect::FieldDescriptor],
    value: &str,
) {
    use prost_reflect::{MapKey, Value};
    let (field, rest) = path.split_first().expect("a path");
    if rest.is_empty() {
        let v = if field.is_map() {
            let mut map = std::collections::HashMap::new();
            let entry = match field.kind() {
                prost_reflect::Kind::Message(m) => m,
                _ => unreachable!("a map's entry is a message"),
            };
            map.insert(
                MapKey::String(value.to_string()),
                Value::default_value_for_field(&entry.map_entry_value_field()),
            );
            Value::Map(map)
        } else if field.is_list() {
            Value::List(vec![Value::String(value.to_string())])
        } else {
            Value::String(value.to_string())
        };
        message.set_field(field, v);
        return;
    }
    let mut child = match message.get_field(field).as_message() {
        Some(m) => m.clone(),
        None => match field.kind() {
            prost_reflect::Kind::Message(m) => prost_reflect::DynamicMessage::new(m),
            _ => unreachable!("a path goes through messages"),
        },
    };
    if field.is_list() {
        let first = message
            .get_field(field)
            .as_list()
            .and_then(|l| l.first().and_then(|v| v.as_message().cloned()));
        let mut child = first.unwrap_or_else(|| match field.kind() {
            prost_reflect::Kind::Message(m) => prost_reflect::DynamicMessage::new(m),
            _ => unreachable!("a path goes through messages"),
        });
        set_long(&mut child, rest, value);
        message.set_field(field, Value::List(vec![Value::Message(child)]));
        return;
    }
    set_long(&mut child, rest, value);
    message.set_field(field, Value::Message(child));
}

/// Every string field of every RPC's request, as the schema lists them
/// (map keys and lists included), set to a 100 KB value in a valid request
/// of each game: whatever the handler refuses, its status message stays
/// within [`MAX_MESSAGE`] and quotes at most a short prefix of the value.
#[test]
fn every_string_of_every_request_is_quoted_by_a_short_prefix() {
    let pool = prost_reflect::DescriptorPool::decode(caber_service::proto::FILE_DESCRIPTOR_SET)
        .expect("the compiled-in descriptors");
    let api = pool
        .get_service_by_name("caber.v1.GameEngine")
        .expect("the API service");
    // Every RPC that takes input is fuzzed (ListGames takes none).
    let schema: std::collections::BTreeSet<String> = api
        .methods()
        .map(|m| m.name().to_string())
        .filter(|m| m != "ListGames")
        .collect();
    let fuzzed: std::collections::BTreeSet<String> =
        METHODS.iter().map(|m| m.to_string()).collect();
    assert_eq!(schema, fuzzed);
    let long = long_value();
    let mut tried = 0;
    let mut covered = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::new();
    for (rpc, bytes) in seeds() {
        let method = api
            .methods()
            .find(|m| m.name() == METHODS[*rpc])
            .expect("every RPC of the test is in the schema");
        let input = method.input();
        let seed = prost_reflect::DynamicMessage::decode(input.clone(), bytes.as_slice())
            .expect("seeds decode");
        // One seed per RPC, game and form of position (text or structured).
        let position = seed
            .get_field_by_name("position")
            .and_then(|p| p.as_message().cloned());
        let game = match &position {
            Some(p) => p.get_field_by_name("game").map(|g| g.to_string()),
            None => seed.get_field_by_name("game").map(|g| g.to_string()),
        };
        let form = position.map(|p| p.has_field_by_name("text"));
        if !seen.insert((*rpc, game, form)) {
            continue;
        }
        let mut paths = Vec::new();
        string_paths(&input, &mut Vec::new(), &mut paths);
        for path in paths {
            let name: Vec<&str> = path.iter().map(|f| f.name()).collect();
            let name = format!("{}.{}", METHODS[*rpc], name.join("."));
            let mut message = seed.clone();
            set_long(&mut message, &path, &long);
            let encoded = message.encode_to_vec();
            let Some(result) = runtime().block_on(call_status(*rpc, &encoded)) else {
                continue;
            };
            tried += 1;
            covered.insert(name.clone());
            if let Err(status) = result {
                let text = status.message();
                assert!(
                    text.len() <= MAX_MESSAGE,
                    "{name}: a {}-byte message",
                    text.len()
                );
                assert!(
                    !text.contains(&"z".repeat(65)),
                    "{name}: more than a prefix: {}",
                    &text[..200.min(text.len())]
                );
            }
        }
    }
    eprintln!("{tried} requests over {} fields", covered.len());
    for must in [
        "BestMove.limits.weights",
        "Review.limits.weights",
        "Apply.move.text",
    ] {
        assert!(covered.contains(must), "{must} not tried");
    }
}

/// A position with thousands of problems lists a few and counts the rest.
#[test]
fn a_position_with_many_problems_lists_a_few() {
    let stacks: Vec<String> = (0..5000).map(|i| format!("Z{i}=q9")).collect();
    let text = format!("play {} - 0,0 0 r -", stacks.join(","));
    let r = runtime().block_on(
        service().legal_moves(Request::new(proto::LegalMovesRequest {
            position: Some(self::text("tartan", "", &text)),
            include_position: false,
        })),
    );
    let status = r.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().len() <= MAX_MESSAGE,
        "{} bytes",
        status.message().len()
    );
    assert!(
        status.message().contains("more problems"),
        "{}",
        status.message()
    );
}

/// Decodes `bytes` as request `rpc` and calls its handler directly.
/// Reads a stream to its end: the last item's status.
async fn last_of<T>(
    mut stream: impl tokio_stream::Stream<Item = Result<T, Status>> + Unpin,
) -> Result<(), Status> {
    let mut last = Ok(());
    while let Some(update) = stream.next().await {
        last = update.map(drop);
    }
    last
}

async fn call(rpc: usize, bytes: &[u8]) {
    if let Some(r) = call_status(rpc, bytes).await {
        check(r);
    }
}

/// Decodes `bytes` as request `rpc` and calls its handler directly: its
/// status, or `None` if the bytes are no such request.
async fn call_status(rpc: usize, bytes: &[u8]) -> Option<Result<(), Status>> {
    let s = service();
    let r = match rpc % RPCS {
        0 => match proto::LegalMovesRequest::decode(bytes) {
            Ok(m) => s.legal_moves(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
        1 => match proto::ApplyRequest::decode(bytes) {
            Ok(m) => s.apply(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
        2 => match proto::EvaluateRequest::decode(bytes) {
            Ok(m) => s.evaluate(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
        3 => match proto::BestMoveRequest::decode(bytes) {
            Ok(m) => s.best_move(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
        4 => match proto::AnalyzeRequest::decode(bytes) {
            Ok(mut m) => {
                m.multipv %= 8;
                match s.analyze(Request::new(m)).await {
                    Ok(stream) => last_of(stream.into_inner()).await,
                    Err(e) => Err(e),
                }
            }
            Err(_) => return None,
        },
        5 => match proto::PerftRequest::decode(bytes) {
            // Deep counts are legal but slow; keep them shallow here.
            Ok(mut m) => {
                m.depth %= 3;
                s.perft(Request::new(m)).await.map(drop)
            }
            Err(_) => return None,
        },
        7 => match proto::ViewRequest::decode(bytes) {
            Ok(m) => s.view(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
        8 => match proto::ReviewRequest::decode(bytes) {
            Ok(mut m) => {
                // Reviews of long records are legal but slow; keep them short.
                m.record.truncate(400);
                match s.review(Request::new(m)).await {
                    Ok(stream) => last_of(stream.into_inner()).await,
                    Err(e) => Err(e),
                }
            }
            Err(_) => return None,
        },
        9 => match proto::SolveRequest::decode(bytes) {
            // Deep solves are legal but slow; keep them shallow here.
            Ok(mut m) => {
                m.max_moves %= 3;
                s.solve(Request::new(m)).await.map(drop)
            }
            Err(_) => return None,
        },
        10 => match proto::RenderRequest::decode(bytes) {
            Ok(m) => s.render(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
        12 => match proto::ReplayRequest::decode(bytes) {
            Ok(m) => s.replay(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
        11 => match proto::PlayoutsRequest::decode(bytes) {
            // Long runs are legal but slow; keep them short here.
            Ok(mut m) => {
                m.movetime_ms %= 20;
                s.playouts(Request::new(m)).await.map(drop)
            }
            Err(_) => return None,
        },
        _ => match proto::NewGameRequest::decode(bytes) {
            Ok(m) => s.new_game(Request::new(m)).await.map(drop),
            Err(_) => return None,
        },
    };
    Some(r)
}

/// `bytes` with byte-level edits.
fn mutate_bytes(bytes: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for &(i, kind, value) in edits {
        let len = b.len();
        let at = if len == 0 { 0 } else { i % len };
        match kind % 5 {
            0 if len > 0 => b[at] ^= value | 1,
            1 => b.insert(if len == 0 { 0 } else { i % (len + 1) }, value),
            2 if len > 0 => {
                b.remove(at);
            }
            3 => b.truncate(if len == 0 { 0 } else { i % (len + 1) }),
            _ if len > 0 => b[at] = value,
            _ => {}
        }
    }
    b
}

proptest! {
    #![proptest_config(config(384))]

    #[test]
    fn every_rpc_survives_mutated_messages(
        index in any::<usize>(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 0..8),
    ) {
        let (rpc, bytes) = &seeds()[index % seeds().len()];
        let mutated = mutate_bytes(bytes, &edits);
        runtime().block_on(call(*rpc, &mutated));
    }

    #[test]
    fn every_rpc_survives_random_bytes(
        rpc in 0usize..RPCS,
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        runtime().block_on(call(rpc, &bytes));
    }
}

#[test]
fn the_seeds_cover_every_game_and_rpc() {
    let games: std::collections::BTreeSet<&str> =
        corpus().iter().map(|(g, ..)| g.as_str()).collect();
    let all: std::collections::BTreeSet<&str> =
        games::registry().iter().map(|g| g.name()).collect();
    assert_eq!(games, all);
    assert!(
        corpus().iter().any(|(_, _, t)| t.starts_with("view:")),
        "Schotten Totten views"
    );
    let rpcs: std::collections::BTreeSet<usize> = seeds().iter().map(|(r, _)| *r).collect();
    assert_eq!(rpcs.len(), RPCS);
    eprintln!(
        "corpus {} texts, {} request seeds",
        corpus().len(),
        seeds().len()
    );
    // The valid seeds themselves pass (structured positions included).
    for (rpc, bytes) in seeds() {
        runtime().block_on(call(*rpc, bytes));
    }
}
