//! `caber play`: a person against the engine in the terminal, the game
//! record saved at the end (docs/RECORDS.md).

use std::path::{Path, PathBuf};

use anyhow::Context;
use caber_engine::record::{GameRecord, RecordResult, RecordedMove};
use caber_engine::Player;
use caber_service::proto;

use super::{apply_request, required, status, Session};
use crate::args::SearchArgs;
use crate::clock::Civil;
use crate::output::{out, outcome_text};
use crate::prompter::Prompter;
use crate::sides::Sides;

/// How `caber play` is set up.
pub struct PlayArgs {
    /// The person's side as the game names it (e.g. `white`), or `1`/`2`;
    /// empty: the side to move.
    pub side: String,
    /// The engine's search of each move (default 1 s).
    pub search: SearchArgs,
    /// Where to save the record (default: a dated file in the current directory).
    pub record: Option<PathBuf>,
}

/// The engine's description in a record: searcher and budget.
fn engine_name(search: &SearchArgs) -> String {
    let searcher = if search.searcher.is_empty() {
        "default searcher"
    } else {
        search.searcher.as_str()
    };
    let budget = if search.depth > 0 {
        format!("depth {}", search.depth)
    } else if search.nodes > 0 {
        format!("{} nodes", search.nodes)
    } else {
        format!(
            "{} ms",
            if search.movetime > 0 {
                search.movetime
            } else {
                1000
            }
        )
    };
    format!("caber {searcher} {budget}")
}

/// Plays a game: the person types moves (or `hint`, `undo`, `moves`,
/// `resign`, `quit`), the engine answers; the record is saved when the game
/// ends, on `resign`, or on `quit`, `exit` or the end of the input (then
/// unfinished).
pub async fn run(session: &mut Session, args: &PlayArgs) -> anyhow::Result<()> {
    let current = session.current().await?;
    let info = session.game_info().await?;
    let sides = Sides::of(&info);
    let person = if args.side.trim().is_empty() {
        proto::Side::try_from(current.report.side_to_move).unwrap_or(proto::Side::One)
    } else {
        sides.parse("--side", &args.side)?
    };
    let mut record = GameRecord::new(&session.common.game);
    let variant = current.position.variant.clone();
    record.set_tag("Variant", &variant);
    for side in [proto::Side::One, proto::Side::Two] {
        let who = if side == person {
            "you".to_string()
        } else {
            engine_name(&args.search)
        };
        record.set_tag(&sides.tag(side), &who);
    }
    out!("you play {}", sides.name(person));
    let now = Civil::now();
    record.set_tag("Date", &now.date_tag());
    match &session.common.position {
        Some(text) => record.set_tag("Start", text),
        None => record.set_tag("Seed", &session.common.seed.to_string()),
    }
    if !session.common.moves.trim().is_empty() {
        // The record starts where the game does: after --moves.
        record.set_tag("Start", &current.report.text);
    }
    // The person's view in a game with hidden information; the position
    // itself in others (which have no view to ask for).
    let seen = info.hidden_information.then_some(person);
    let mut history = vec![current.report];
    let mut prompter = Prompter::new();
    // The history's length when the position was last drawn.
    let mut shown = None;
    let (result, reason) = loop {
        let report = history.last().expect("the start").clone();
        if let Some(o) = &report.outcome {
            show(session, &report, seen, record.moves.last()).await?;
            out!("game over: {}", outcome_text(o));
            break (super::record_result(o), o.reason.clone());
        }
        let position = required(report.position.clone(), "position")?;
        if report.side_to_move != person as i32 {
            let reply = session
                .client
                .best_move(proto::BestMoveRequest {
                    position: Some(position.clone()),
                    limits: super::search::limits(&args.search, session.common.seed),
                    searcher: args.search.searcher.clone(),
                    table: TABLE.to_string(),
                    search_moves: Vec::new(),
                })
                .await
                .map_err(status)?
                .into_inner();
            let mv = required(reply.best_move, "best move")?.text;
            let applied = session
                .client
                .apply(apply_request(position, &mv))
                .await
                .map_err(status)?
                .into_inner();
            out!("caber plays {mv}");
            crate::output::events(&applied.events);
            record.moves.push(played(&mv));
            history.push(required(applied.position, "position")?);
            continue;
        }
        if shown != Some(history.len()) {
            show(session, &report, seen, record.moves.last()).await?;
            shown = Some(history.len());
        }
        let legal = super::legal_move_texts(session, &position).await?;
        let mut words = legal.clone();
        words.extend(COMMANDS.iter().map(|c| c.to_string()));
        let line = prompter.ask("your move> ", words).await?;
        // The end of the input leaves as `quit` does.
        match line.as_deref().unwrap_or("quit") {
            "" => {}
            "quit" | "exit" => {
                out!("game left unfinished (*)");
                break (RecordResult::Unfinished, "the game was left".to_string());
            }
            "resign" => {
                let loser = Player::try_from(person).unwrap_or(Player::One);
                out!(
                    "{} resigns: {} wins",
                    sides.name(person),
                    sides.name(proto::Side::from(loser.opponent()))
                );
                break (RecordResult::Won(loser.opponent()), "resigned".to_string());
            }
            "hint" => {
                let reply = glance(session, &args.search, position).await?;
                out!("hint: {}", required(reply.best_move, "best move")?.text);
            }
            "moves" => out!("{}", legal.join(" ")),
            "history" => out!("{}", move_list(&record)),
            "eval" => {
                let reply = glance(session, &args.search, position).await?;
                let score = reply.score.as_ref();
                out!(
                    "evaluation for you: {}, win probability {:.2}",
                    crate::output::score_text(score),
                    score.map_or(0.5, |s| s.win_probability)
                );
            }
            "undo" => {
                // Back to the person's previous turn: their move and the reply.
                let back = if history.len() >= 3 { 2 } else { 0 };
                if back == 0 {
                    out!("nothing to undo");
                } else {
                    history.truncate(history.len() - back);
                    record.moves.truncate(record.moves.len() - back);
                    shown = None;
                }
            }
            mv => match session.client.apply(apply_request(position, mv)).await {
                Ok(applied) => {
                    let applied = applied.into_inner();
                    crate::output::events(&applied.events);
                    // What the person alone may know (the card they drew).
                    let yours = applied
                        .private_events
                        .into_iter()
                        .filter(|p| p.player == person as i32)
                        .filter_map(|p| p.event);
                    crate::output::events(&yours.collect::<Vec<_>>());
                    let text = required(applied.r#move, "move")?.text;
                    record.moves.push(played(&text));
                    history.push(required(applied.position, "position")?);
                }
                Err(e) => out!(
                    "{}: try again (Tab completes; moves, history, eval, hint, undo, resign, quit)",
                    e.message()
                ),
            },
        }
    };
    record.set_result(result, sides.white_player());
    record.set_tag("Reason", &reason);
    let path = args.record.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "caber-{}-{}.record",
            session.common.game,
            now.stamp()
        ))
    });
    save(&record, &path)
}

fn played(text: &str) -> RecordedMove {
    RecordedMove {
        text: text.to_string(),
        comments: Vec::new(),
        eval: None,
    }
}

fn save(record: &GameRecord, path: &Path) -> anyhow::Result<()> {
    std::fs::write(path, record.to_string())
        .with_context(|| format!("cannot save the record to {}", path.display()))?;
    out!("record saved to {}", path.display());
    Ok(())
}

/// A short search for the person (`hint`, `eval`): 300 ms with the
/// engine's searcher and weights, in the game's kept table.
async fn glance(
    session: &mut Session,
    search: &SearchArgs,
    position: proto::Position,
) -> anyhow::Result<proto::BestMoveResponse> {
    let reply = session
        .client
        .best_move(proto::BestMoveRequest {
            position: Some(position),
            limits: Some(proto::Limits {
                movetime_ms: 300,
                weights: search.weights.iter().cloned().collect(),
                ..Default::default()
            }),
            searcher: search.searcher.clone(),
            table: TABLE.to_string(),
            search_moves: Vec::new(),
        })
        .await
        .map_err(status)?;
    Ok(reply.into_inner())
}

/// The kept table of the game: the engine keeps it from move to move.
const TABLE: &str = "play";

/// The words `caber play` takes besides moves.
const COMMANDS: [&str; 8] = [
    "moves", "history", "eval", "hint", "undo", "resign", "quit", "exit",
];

/// The moves so far, numbered by ply as records are: `1. e4-d4 2. i4-e4`.
fn move_list(record: &GameRecord) -> String {
    if record.moves.is_empty() {
        return "no moves yet".to_string();
    }
    record
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{}. {}", i + 1, m.text))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Shows the position as the person sees it (`seen`: their view, in a game
/// with hidden information), and the move that led to it.
async fn show(
    session: &mut Session,
    report: &proto::PositionReport,
    seen: Option<proto::Side>,
    last: Option<&RecordedMove>,
) -> anyhow::Result<()> {
    let shown = match seen {
        Some(person) => super::view_of(&mut session.client, report, person).await?,
        None => report.clone(),
    };
    out!("{}", shown.diagram.trim_end());
    if let Some(last) = last {
        out!("last move: {}", last.text);
    }
    Ok(())
}
