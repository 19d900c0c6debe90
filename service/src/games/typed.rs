//! The RPCs of one game, generic over its [`Adapter`]: a request's position
//! and move become the engine's typed values, are played or searched, and the
//! reply is built from typed values (text only in text fields).

use caber_engine::quote;
use std::marker::PhantomData;
use std::time::Duration;

use caber_engine::information::InformationSet;
use caber_engine::playable::Playable;
use caber_engine::search::{Info, Limits, Score, Searchable, SearcherInfo};
use caber_engine::{MoveError, Player};
use tonic::Status;

use super::{
    move_owner, Adapter, KeptSearcher, KeptTable, PerftJob, PlayoutsJob, Reviewing, SearcherChoice,
    ServedGame, SolveJob,
};
use crate::convert::{self, Odds};
use crate::errors;
use crate::kept_tables::TableKey;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;
use crate::search_runner::{SearchJob, Searched};
use caber_engine::catalog::{ByName, TextError};
use caber_engine::record::{self, GameRecord};
use caber_engine::review::{self, MoveReview};
use caber_engine::solve::{self, Unsolved};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// The RPCs of the game of adapter `A`.
pub struct Served<A>(PhantomData<A>);

impl<A> Served<A> {
    /// The registry's entry of `A`.
    pub const NEW: Self = Served(PhantomData);
}

type Move<A> = <<A as Adapter>::Position as Playable>::Move;
/// What a game's searchers search.
type Root<A> = <<A as Adapter>::Position as Searchable>::Root;

/// The game's names of its players (One's, Two's).
fn names<A: Adapter>() -> [&'static str; 2] {
    [
        A::Position::player_name(Player::One),
        A::Position::player_name(Player::Two),
    ]
}

/// Reads a request's position (its game already checked to be `A`'s); no
/// state is the variant's start position (for a game with chance, seed 0's deal).
fn read<A: Adapter>(message: &proto::Position) -> Result<A::Position, Status> {
    match message.state.as_ref() {
        None => A::Position::start_named(&message.variant, 0)
            .map_err(|e| errors::variant("position.variant", &e)),
        Some(State::Text(text)) => {
            A::Position::read_named(&message.variant, text).map_err(|e| match e {
                TextError::Variant(e) => errors::variant("position.variant", &e),
                TextError::Setup(e) => Status::invalid_argument(format!("position.text: {e}")),
            })
        }
        Some(state) => match A::position_message(state) {
            Some(m) => A::read_message(&message.variant, m),
            None => Err(Status::invalid_argument(format!(
                "position.state: not {} position",
                A::A_NAME
            ))),
        },
    }
}

/// Reads a request's position, refused if its game is over.
fn playable<A: Adapter>(message: &proto::Position) -> Result<A::Position, Status> {
    let position = read::<A>(message)?;
    match position.outcome() {
        Some(outcome) => Err(errors::game_over(&outcome)),
        None => Ok(position),
    }
}

/// Reads a request's move for `position`, and the field it came from (for errors).
fn read_move<A: Adapter>(
    position: &A::Position,
    message: Option<&proto::Move>,
) -> Result<(Move<A>, &'static str), Status> {
    let kind = match message {
        None => return Err(errors::missing("move")),
        Some(m) => m
            .kind
            .as_ref()
            .ok_or_else(|| errors::missing("move.kind"))?,
    };
    if let Kind::Text(text) = kind {
        let mv = position
            .parse_move(text)
            .map_err(|e| errors::refused_move("move.text", &MoveError::Notation(e)))?;
        return Ok((mv, "move.text"));
    }
    match A::move_message(kind) {
        Some(m) => Ok((A::read_move(position, m)?, "move")),
        None => {
            let (field, a_name) = move_owner(kind).map_or(("kind", "a"), |g| g.field());
            Err(Status::invalid_argument(format!(
                "move.{field}: {a_name} move given for a {} position",
                A::Position::GAME
            )))
        }
    }
}

/// `INVALID_ARGUMENT` unless `searcher` takes `weights` (`Limits.weights`).
fn check_weights<R: InformationSet>(
    searcher: &SearcherInfo<R>,
    weights: &[(String, i32)],
) -> Result<(), Status> {
    searcher.check(weights).map_err(|e| {
        Status::invalid_argument(format!("limits.weights: searcher {}: {e}", searcher.name))
    })
}

/// The full report of a position: structured form, text, side to move, outcome, diagram.
fn report<A: Adapter>(position: &A::Position) -> proto::PositionReport {
    let mover = position.side_to_move();
    proto::PositionReport {
        position: Some(proto::Position {
            game: A::Position::GAME.to_string(),
            variant: position.variant_name().to_string(),
            state: Some(A::write_message(position)),
        }),
        text: position.notation(),
        side_to_move: convert::side(Some(mover)),
        side_to_move_name: A::Position::player_name(mover).to_string(),
        outcome: position
            .outcome()
            .map(|o| convert::outcome(&o, names::<A>())),
        diagram: A::diagram(position),
    }
}

/// A move of `position` in both forms.
fn move_info<A: Adapter>(position: &A::Position, mv: &Move<A>) -> proto::MoveInfo {
    proto::MoveInfo {
        text: position.move_text(mv),
        r#move: Some(proto::Move {
            kind: Some(A::write_move(mv)),
        }),
        subject: position.move_subject(mv),
    }
}

/// A search report with its moves as text (a move's text depends on the
/// game's position only through its variant, so the root writes them all).
fn texts<A: Adapter>(position: &A::Position, info: &Info<Move<A>>) -> Info<String> {
    info.map_moves(|m| position.move_text(m))
}

/// The searcher `choice` names (the game's default for none), refused if
/// `limits` asks for what it cannot bound or it does not take the weights.
fn searcher<A: Adapter>(
    choice: &SearcherChoice,
    limits: Option<&Limits>,
) -> Result<&'static SearcherInfo<<A::Position as Searchable>::Root>, Status> {
    let searchers = A::Position::searchers();
    let name = choice.name.trim();
    let entry = if name.is_empty() {
        &searchers[0]
    } else {
        searchers
            .iter()
            .find(|s| s.answers_to(name))
            .ok_or_else(|| {
                let known: Vec<&str> = searchers.iter().map(|s| s.name).collect();
                Status::invalid_argument(format!(
                    "searcher: unknown searcher {} for {} (known: {})",
                    quote(&choice.name),
                    A::Position::GAME,
                    known.join(", ")
                ))
            })?
    };
    if limits.is_some_and(|l| l.depth.is_some()) && !entry.by_depth {
        return Err(Status::invalid_argument(format!(
            "limits.depth: searcher {} does not search by depth; give nodes or movetime_ms",
            entry.name
        )));
    }
    check_weights(entry, &choice.weights)?;
    Ok(entry)
}

/// How a position's scores read as win probabilities, from its side to
/// move's view.
fn odds_of<A: Adapter>(position: &A::Position) -> Odds {
    Odds {
        curve: position.win_curve(),
        viewer: position.side_to_move(),
    }
}

/// A reviewed move in the reply's terms (`before`: the position it was played in).
fn move_review<A: Adapter>(
    before: &A::Position,
    r: &MoveReview<Move<A>>,
    names: [&'static str; 2],
) -> proto::MoveReview {
    // Both scores are the mover's view.
    let odds = Odds {
        curve: before.win_curve(),
        viewer: r.mover,
    };
    proto::MoveReview {
        ply: r.ply as u32,
        mover: convert::side(Some(r.mover)),
        mover_name: names[r.mover.index()].to_string(),
        played: Some(move_info::<A>(before, &r.played)),
        best: r.best.map(|b| move_info::<A>(before, &b)),
        best_line: r.best_line.iter().map(|m| before.move_text(m)).collect(),
        before: r.before.map(|s| convert::score(s, odds)),
        after: r.after.map(|s| convert::score(s, odds)),
        win_before: r.win_before,
        win_after: r.win_after,
        loss: r.loss,
        noise: r.noise,
        judgement: convert::judgement(r.judgement) as i32,
        accuracy: r.accuracy,
    }
}

impl<A: Adapter> ServedGame for Served<A> {
    fn name(&self) -> &'static str {
        A::Position::GAME
    }

    fn field(&self) -> (&'static str, &'static str) {
        (A::FIELD, A::A_NAME)
    }

    fn owns_state(&self, state: &State) -> bool {
        A::position_message(state).is_some()
    }

    fn owns_move(&self, kind: &Kind) -> bool {
        A::move_message(kind).is_some()
    }

    fn info(&self) -> proto::GameInfo {
        let searchers = A::Position::searchers()
            .iter()
            .enumerate()
            .map(|(i, s)| proto::SearcherInfo {
                name: s.name.to_string(),
                aliases: s.aliases.iter().map(|a| a.to_string()).collect(),
                table: s.table,
                about: s.about.to_string(),
                is_default: i == 0,
                by_depth: s.by_depth,
                weights: s
                    .weights
                    .iter()
                    .map(|&(name, default_value)| proto::Weight {
                        name: name.to_string(),
                        default_value,
                    })
                    .collect(),
            })
            .collect();
        convert::game_info(A::info(), searchers, A::HIDDEN_INFORMATION)
    }

    fn new_game(&self, variant: &str, seed: u64) -> Result<proto::PositionReport, Status> {
        let position =
            A::Position::start_named(variant, seed).map_err(|e| errors::variant("variant", &e))?;
        Ok(report::<A>(&position))
    }

    fn playouts(
        &self,
        message: &proto::Position,
        budget: Duration,
        seed: u64,
    ) -> Result<PlayoutsJob, Status> {
        let position = playable::<A>(message)?;
        if !position.every_move_known() {
            return Err(errors::hidden_moves("play random games from"));
        }
        Ok(Box::new(move |stop| {
            position.random_games(budget, seed, stop)
        }))
    }

    fn legal_moves(
        &self,
        message: &proto::Position,
        include_position: bool,
    ) -> Result<proto::LegalMovesResponse, Status> {
        let position = read::<A>(message)?;
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        Ok(proto::LegalMovesResponse {
            moves: moves.iter().map(|m| move_info::<A>(&position, m)).collect(),
            position: include_position.then(|| report::<A>(&position)),
        })
    }

    fn apply(
        &self,
        message: &proto::Position,
        mv: Option<&proto::Move>,
    ) -> Result<proto::ApplyResponse, Status> {
        let position = playable::<A>(message)?;
        let (mv, field) = read_move::<A>(&position, mv)?;
        let applied = position
            .apply(&mv)
            .map_err(|e| errors::refused_move(field, &e))?;
        let drawn = A::drawn(&position, &applied.position);
        let private_events = (!drawn.is_empty())
            .then(|| {
                let mover = position.side_to_move();
                proto::PrivateEvent {
                    player: convert::side(Some(mover)),
                    event: Some(proto::Event {
                        kind: "drawn-card".to_string(),
                        text: format!(
                            "{} draws {}",
                            A::Position::player_name(mover),
                            drawn.join(", ")
                        ),
                        cells: drawn,
                    }),
                }
            })
            .into_iter()
            .collect();
        Ok(proto::ApplyResponse {
            position: Some(report::<A>(&applied.position)),
            r#move: Some(move_info::<A>(&position, &applied.played)),
            events: applied.events.into_iter().map(convert::event).collect(),
            private_events,
        })
    }

    fn evaluate(
        &self,
        message: &proto::Position,
        weights: &[(String, i32)],
    ) -> Result<proto::Score, Status> {
        let position = playable::<A>(message)?;
        let default = &A::Position::searchers()[0];
        check_weights(default, weights)?;
        Ok(convert::score(
            Score::Centi(position.static_evaluation(weights)),
            odds_of::<A>(&position),
        ))
    }

    fn search(
        &self,
        message: &proto::Position,
        choice: &SearcherChoice,
        limits: Option<&Limits>,
        search_moves: &[String],
        kept: Option<KeptTable>,
    ) -> Result<SearchJob, Status> {
        let position = playable::<A>(message)?;
        let root_moves = search_moves
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let refused =
                    |e: MoveError| Status::invalid_argument(format!("search_moves[{i}]: {e}"));
                let mv = position
                    .parse_move(text)
                    .map_err(|e| refused(MoveError::Notation(e)))?;
                let applied = position.apply(&mv).map_err(refused)?;
                Ok(caber_engine::search::move_key(&applied.played))
            })
            .collect::<Result<Vec<u64>, Status>>()?;
        let entry = searcher::<A>(choice, limits)?;
        let (build, weights) = (entry.build, choice.weights.clone());
        // Only a searcher with a table gains from being kept.
        let kept = kept.filter(|_| entry.table).map(|k| {
            let mut sorted = weights.clone();
            sorted.sort();
            let setup = format!(
                "{} {} {sorted:?}",
                message.variant.trim().to_ascii_lowercase(),
                entry.name
            );
            let key = TableKey {
                connection: k.connection,
                name: k.name,
                setup,
            };
            (k.tables, key)
        });
        Ok(Box::new(move |limits, stop, progress| {
            let root = position.search_root();
            let mut searcher: KeptSearcher<A> = kept
                .as_ref()
                .and_then(|(tables, key)| A::kept(tables).take(key))
                .unwrap_or_else(|| build(&weights));
            let restricted;
            let limits = if root_moves.is_empty() {
                limits
            } else {
                restricted = Limits {
                    root_moves,
                    ..limits.clone()
                };
                &restricted
            };
            let info = searcher.search(&root, limits, stop, &mut |i| {
                progress(&texts::<A>(&position, i))
            });
            if let Some((tables, key)) = kept {
                // Not kept when other connections fill the places: the next
                // search starts afresh, which costs only speed.
                A::kept(&tables).put(key, searcher);
            }
            Searched {
                best: info.best_move().map(|m| move_info::<A>(&position, m)),
                info: texts::<A>(&position, &info),
            }
        }))
    }

    fn review(
        &self,
        record: &GameRecord,
        choice: &SearcherChoice,
        limits: Option<&Limits>,
    ) -> Result<Reviewing, Status> {
        let replay = record::replay::<A::Position>(record)
            .map_err(|e| Status::invalid_argument(format!("record: {e}")))?;
        let entry = searcher::<A>(choice, limits)?;
        let (build, weights) = (entry.build, choice.weights.clone());
        let names = names::<A>();
        let reviewing = Reviewing {
            positions: replay.moves.len() + 1,
            last: report::<A>(replay.last()),
            job: Box::new(move |limits_for, stop, each| {
                let mut search = |root: &Root<A>, searches_left: u32| {
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let limits = limits_for(searches_left);
                    let info = build(&weights).value(root, &limits, stop);
                    (!stop.load(Ordering::Relaxed)).then_some(info)
                };
                let mut reviewed = |before: &A::Position, r: MoveReview<Move<A>>| match each(
                    move_review::<A>(before, &r, names),
                ) {
                    true => ControlFlow::Continue(()),
                    false => ControlFlow::Break(()),
                };
                review::review(&replay, &mut search, &mut reviewed)
            }),
        };
        Ok(reviewing)
    }

    fn replay(&self, record: &GameRecord) -> Result<proto::ReplayResponse, Status> {
        let replay = record::replay::<A::Position>(record)
            .map_err(|e| Status::invalid_argument(format!("record: {e}")))?;
        let mut before = &replay.start;
        let mut moves = Vec::with_capacity(replay.moves.len());
        for applied in &replay.moves {
            moves.push(proto::ReplayedMove {
                r#move: Some(move_info::<A>(before, &applied.played)),
                events: applied.events.iter().cloned().map(convert::event).collect(),
                text: applied.position.notation(),
                side_to_move: convert::side(Some(applied.position.side_to_move())),
            });
            before = &applied.position;
        }
        let outcome = replay.last().outcome();
        Ok(proto::ReplayResponse {
            game: A::Position::GAME.to_string(),
            variant: replay.start.variant_name().to_string(),
            start: Some(report::<A>(&replay.start)),
            moves,
            outcome: outcome.map(|o| convert::outcome(&o, names::<A>())),
        })
    }

    fn perft(
        &self,
        message: &proto::Position,
        depth: u32,
        divide: bool,
    ) -> Result<PerftJob, Status> {
        let position = read::<A>(message)?;
        Ok(Box::new(move |stop| {
            if divide {
                let counts = position.perft_divide(depth, stop)?;
                Ok(counts
                    .into_iter()
                    .map(|(m, n)| (position.move_text(&m), n))
                    .collect())
            } else {
                Ok(vec![(String::new(), position.perft(depth, stop)?)])
            }
        }))
    }

    fn solve(&self, message: &proto::Position, max_moves: u32) -> Result<SolveJob, Status> {
        let position = playable::<A>(message)?;
        if !position.every_move_known() {
            return Err(errors::hidden_moves("solve"));
        }
        Ok(Box::new(move |stop| {
            let solved = match solve::solve(&position, max_moves, stop) {
                Ok(solved) => solved,
                Err(Unsolved::NoWin) => return Some(proto::SolveResponse::default()),
                Err(Unsolved::Stopped) => return None,
            };
            let mut at = position.clone();
            let mut line = Vec::new();
            for mv in &solved.line {
                line.push(at.move_text(mv));
                at = at.after(mv);
            }
            // The line's first move is legal: its events are there.
            let themes = position
                .apply(&solved.line[0])
                .map(|first| A::Position::themes(&first.events))
                .unwrap_or_default()
                .into_iter()
                .map(str::to_string)
                .collect();
            Some(proto::SolveResponse {
                win_in: solved.moves,
                winning: solved
                    .winning
                    .iter()
                    .map(|m| move_info::<A>(&position, m))
                    .collect(),
                line,
                nodes: solved.nodes,
                themes,
            })
        }))
    }

    fn render(&self, message: &proto::Position, last_move: &str) -> Result<String, Status> {
        let position = read::<A>(message)?;
        let last = match last_move.trim() {
            "" => None,
            text => Some(
                position
                    .parse_move(text)
                    .map_err(|e| errors::refused_move("last_move", &MoveError::Notation(e)))?,
            ),
        };
        Ok(A::svg(&position, last.as_ref()))
    }

    fn view(
        &self,
        message: &proto::Position,
        player: Option<Player>,
    ) -> Result<proto::PositionReport, Status> {
        let position = read::<A>(message)?;
        Ok(report::<A>(&A::view(&position, player)?))
    }

    fn unseen(&self, message: &proto::Position) -> Result<Vec<String>, Status> {
        Ok(A::unseen(&read::<A>(message)?))
    }

    fn odds(&self, message: &proto::Position) -> Result<Odds, Status> {
        Ok(odds_of::<A>(&read::<A>(message)?))
    }
}
