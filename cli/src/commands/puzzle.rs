//! `caber puzzle list|solve|play|generate`: puzzles (docs/PUZZLES.md), the
//! sets shipped in the binary listed, solved by the service's exact
//! `Solve`, played in the terminal, or mined from games.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use caber_service::proto::{self, position::State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::{apply_request, required, status, Session};
use crate::engines;
use crate::output::{counted, out};
use crate::progress;
use crate::prompter::Prompter;
use crate::puzzles::{self, Puzzle};

/// A text position of `game`.
fn text_position(game: &str, variant: &str, text: &str) -> proto::Position {
    proto::Position {
        game: game.to_string(),
        variant: variant.to_string(),
        state: Some(State::Text(text.to_string())),
    }
}

/// The puzzle's position as the service reads it.
fn position_of(puzzle: &Puzzle) -> proto::Position {
    text_position(&puzzle.game, &puzzle.variant, &puzzle.position)
}

async fn solve_call(
    session: &mut Session,
    position: proto::Position,
    max_moves: u32,
) -> anyhow::Result<proto::SolveResponse> {
    let request = proto::SolveRequest {
        position: Some(position),
        max_moves,
    };
    Ok(session
        .client
        .solve(request)
        .await
        .map_err(status)?
        .into_inner())
}

/// `caber puzzle list`: the shipped sets, each with its game and variant,
/// how many puzzles, their ratings and their themes.
pub fn list(as_json: bool) -> anyhow::Result<()> {
    let mut sets = Vec::new();
    for (name, _) in puzzles::SHIPPED {
        let all = puzzles::open(name)?;
        let ratings = (
            all.iter().map(|p| p.rating).min().unwrap_or(0),
            all.iter().map(|p| p.rating).max().unwrap_or(0),
        );
        let mut themes: Vec<(String, usize)> = Vec::new();
        for tag in all.iter().flat_map(|p| &p.tags) {
            match themes.iter_mut().find(|(t, _)| t == tag) {
                Some((_, n)) => *n += 1,
                None => themes.push((tag.clone(), 1)),
            }
        }
        themes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        sets.push((
            name,
            all[0].game.clone(),
            all[0].variant.clone(),
            all.len(),
            ratings,
            themes,
        ));
    }
    if as_json {
        let list: Vec<_> = sets
            .iter()
            .map(|(name, game, variant, n, (lo, hi), themes)| {
                let themes: serde_json::Map<String, serde_json::Value> =
                    themes.iter().map(|(t, n)| (t.clone(), json!(n))).collect();
                json!({"name": name, "game": game, "variant": variant, "puzzles": n,
                       "ratings": [lo, hi], "themes": themes})
            })
            .collect();
        out!("{}", json!({ "sets": list }));
        return Ok(());
    }
    for (name, game, variant, n, (lo, hi), themes) in &sets {
        let themes: Vec<String> = themes.iter().map(|(t, n)| format!("{t} {n}")).collect();
        out!(
            "{name}: {game} ({variant}), {n} puzzles rated {lo}-{hi}; themes: {}",
            themes.join(", ")
        );
    }
    Ok(())
}

/// The set a command names (a shipped set or a file), or, when it names
/// none, the shipped set of `--game` and `--variant` (else the game's
/// default variant).
async fn chosen_set(
    session: &mut Session,
    set: Option<&str>,
) -> anyhow::Result<(String, Vec<Puzzle>)> {
    if let Some(set) = set {
        return Ok((set.to_string(), puzzles::open(set)?));
    }
    let info = session.game_info_of(&session.common.game.clone()).await?;
    let variant = match session.common.variant.trim() {
        "" => info
            .variants
            .iter()
            .find(|v| v.is_default)
            .map(|v| v.name.clone())
            .unwrap_or_default(),
        v => v.to_ascii_lowercase(),
    };
    for (name, _) in puzzles::SHIPPED {
        let all = puzzles::open(name)?;
        if all[0].game == info.name && all[0].variant == variant {
            return Ok((name.to_string(), all));
        }
    }
    anyhow::bail!(
        "no shipped puzzle set of {} ({variant}): see `caber puzzle list`",
        info.name
    )
}

/// `caber puzzle solve [SET]`: the engine solves each puzzle; reports where
/// it disagrees with the set (another length, another or a second winning
/// first move, another line) and fails if it does anywhere.
pub async fn solve(session: &mut Session, set: Option<&str>) -> anyhow::Result<()> {
    let (_, all) = chosen_set(session, set).await?;
    let json = session.common.json;
    let bar = progress::bar(all.len() as u64, "solving puzzle", json);
    let started = Instant::now();
    let mut disagreements = Vec::new();
    for puzzle in &all {
        let n = puzzle.win_in()?;
        let reply = solve_call(session, position_of(puzzle), n)
            .await
            .with_context(|| format!("puzzle {}", puzzle.id))?;
        let mut winning: Vec<&str> = reply.winning.iter().map(|m| m.text.as_str()).collect();
        let mut accepted: Vec<&str> = puzzle.also.iter().map(String::as_str).collect();
        accepted.push(&puzzle.solution[0]);
        winning.sort_unstable();
        accepted.sort_unstable();
        let problem = if reply.win_in == 0 {
            Some(format!("no win in {n} found"))
        } else if reply.win_in != n {
            Some(format!("a win in {} instead of {n}", reply.win_in))
        } else if winning != accepted {
            Some(format!(
                "winning first moves {winning:?}, the file says {accepted:?}"
            ))
        } else {
            None
        };
        if let Some(problem) = problem {
            disagreements.push((puzzle.id.clone(), problem));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let solved = all.len() - disagreements.len();
    if json {
        let list: Vec<_> = disagreements
            .iter()
            .map(|(id, problem)| json!({ "id": id, "problem": problem }))
            .collect();
        out!(
            "{}",
            json!({ "solved": solved, "total": all.len(), "seconds": seconds, "disagreements": list })
        );
    } else {
        for (id, problem) in &disagreements {
            out!("{id}: {problem}");
        }
        out!("solved {solved} of {} in {seconds:.2} s", all.len());
    }
    if disagreements.is_empty() {
        Ok(())
    } else {
        anyhow::bail!(
            "the engine disagrees with {}",
            counted(disagreements.len() as u32, "puzzle", "puzzles")
        )
    }
}

/// What `caber puzzle generate` mines.
pub struct GenerateArgs {
    /// Puzzles to find.
    pub count: usize,
    /// Longest win looked for, in the solver's moves.
    pub max_moves: u32,
    /// Game records to mine instead of self-play games.
    pub from: Vec<PathBuf>,
    /// Nodes of each self-play move's search.
    pub nodes: u64,
    /// Where to write the puzzles (standard output without).
    pub out: Option<PathBuf>,
    /// Most self-play games.
    pub games: u32,
}

/// Positions along one game, each a candidate.
struct Mined {
    puzzles: Vec<Puzzle>,
    seen: HashSet<String>,
    positions: u64,
}

impl Mined {
    /// Adds `position` (its text `text`; `over`: the game has ended there)
    /// if its side to move has one winning move (or, winning at once,
    /// several playing the same piece or card).
    async fn try_position(
        &mut self,
        session: &mut Session,
        position: proto::Position,
        text: &str,
        over: bool,
        max_moves: u32,
    ) -> anyhow::Result<()> {
        if over || !self.seen.insert(text.to_string()) {
            return Ok(());
        }
        self.positions += 1;
        let solved = solve_call(session, position.clone(), max_moves).await?;
        // One winning first move; or, winning at once, several that all play
        // the same piece or card (all accepted).
        let one_idea = solved.win_in == 1
            && solved
                .winning
                .iter()
                .all(|m| m.subject == solved.winning[0].subject);
        if solved.win_in == 0 || (solved.winning.len() != 1 && !one_idea) {
            return Ok(());
        }
        let also = solved
            .winning
            .iter()
            .map(|m| m.text.clone())
            .filter(|m| *m != solved.line[0])
            .collect();
        let mut tags = vec![format!("win-in-{}", solved.win_in)];
        tags.extend(solved.themes);
        self.puzzles.push(Puzzle {
            id: format!("{}-{}-{:016x}", position.game, position.variant, fnv(text)),
            game: position.game,
            variant: position.variant,
            position: text.to_string(),
            goal: format!("win in {}", solved.win_in),
            solution: solved.line,
            also,
            rating: Puzzle::rating(solved.win_in, solved.nodes),
            tags,
        });
        Ok(())
    }
}

/// FNV-1a of a position's text: a stable puzzle id.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `caber puzzle generate`: mines self-play games (or `--from` records) for
/// positions whose side to move has exactly one winning first move (or
/// winning at once, several that play the same piece or card), one puzzle a
/// game at most (the first such position).
pub async fn generate(session: &mut Session, args: &GenerateArgs) -> anyhow::Result<()> {
    let json = session.common.json;
    let bar = progress::bar(args.count as u64, "puzzles found", json);
    let mut mined = Mined {
        puzzles: Vec::new(),
        seen: HashSet::new(),
        positions: 0,
    };
    let mut games = 0;
    if args.from.is_empty() {
        let mut rng = ChaCha8Rng::seed_from_u64(session.common.seed);
        while mined.puzzles.len() < args.count && games < args.games {
            games += 1;
            let seed = session.common.seed.wrapping_add(u64::from(games));
            self_play(session, &mut mined, args, &mut rng, seed, &bar).await?;
        }
    } else {
        for file in &args.from {
            if mined.puzzles.len() >= args.count {
                break;
            }
            games += 1;
            replay(session, &mut mined, args, file, &bar).await?;
        }
    }
    bar.finish_and_clear();
    mined.puzzles.truncate(args.count);
    if mined.puzzles.is_empty() {
        anyhow::bail!(
            "no puzzle found in {} ({} positions tried)",
            counted(games, "game", "games"),
            mined.positions
        );
    }
    if mined.puzzles.len() < args.count {
        // Fewer than asked: say why, on standard error (the lines may be
        // the standard output).
        let why = if args.from.is_empty() {
            format!("--games {} played out (raise it)", args.games)
        } else {
            "the records given hold no more".to_string()
        };
        eprintln!(
            "note: {} of the {} asked for: {why}; {}, {} positions tried",
            mined.puzzles.len(),
            args.count,
            counted(games, "game", "games"),
            mined.positions
        );
    }
    let lines: String = mined
        .puzzles
        .iter()
        .map(|p| puzzles::line(p) + "\n")
        .collect();
    match &args.out {
        Some(path) => {
            std::fs::write(path, lines)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let summary = json!({
                "puzzles": mined.puzzles.len(),
                "games": games,
                "positions": mined.positions,
                "file": path.display().to_string(),
            });
            if json {
                out!("{summary}");
            } else {
                out!(
                    "{} written to {} ({}, {} positions tried)",
                    counted(mined.puzzles.len() as u32, "puzzle", "puzzles"),
                    path.display(),
                    counted(games, "game", "games"),
                    mined.positions
                );
            }
        }
        None => print!("{lines}"),
    }
    Ok(())
}

/// One self-play game: a third of the moves at random, the others the
/// engine's within `args.nodes`; every position tried.
async fn self_play(
    session: &mut Session,
    mined: &mut Mined,
    args: &GenerateArgs,
    rng: &mut ChaCha8Rng,
    seed: u64,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<()> {
    let start = session
        .client
        .new_game(proto::NewGameRequest {
            game: session.common.game.clone(),
            variant: session.common.variant.clone(),
            seed,
        })
        .await
        .map_err(status)?
        .into_inner();
    let mut report = required(start.position, "position")?;
    for _ in 0..400 {
        if mined.puzzles.len() >= args.count || report.outcome.is_some() {
            break;
        }
        let before = mined.puzzles.len();
        let position = required(report.position.clone(), "position")?;
        mined
            .try_position(session, position, &report.text, false, args.max_moves)
            .await?;
        if mined.puzzles.len() > before {
            // One puzzle a game: the next positions of the same game would
            // mostly be the same puzzle again.
            bar.inc(1);
            break;
        }
        let position = required(report.position.clone(), "position")?;
        let mv = if rng.random_bool(1.0 / 3.0) {
            match engines::random_move(&mut session.client, &position, rng).await? {
                Some(m) => m.text,
                None => break,
            }
        } else {
            let best = session
                .client
                .best_move(proto::BestMoveRequest {
                    position: Some(position.clone()),
                    limits: Some(proto::Limits {
                        nodes: args.nodes,
                        seed: rng.random(),
                        ..Default::default()
                    }),
                    searcher: String::new(),
                    table: String::new(),
                    search_moves: Vec::new(),
                })
                .await
                .map_err(status)?
                .into_inner();
            required(best.best_move, "best move")?.text
        };
        let applied = session
            .client
            .apply(apply_request(position, &mv))
            .await
            .map_err(status)?
            .into_inner();
        report = required(applied.position, "position")?;
    }
    Ok(())
}

/// The positions of a game record (the server's `Replay`), every one tried.
async fn replay(
    session: &mut Session,
    mined: &mut Mined,
    args: &GenerateArgs,
    file: &Path,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<()> {
    let record = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the game record {}", file.display()))?;
    let replay = session
        .client
        .replay(proto::ReplayRequest { record })
        .await
        .map_err(|s| status(s).context(file.display().to_string()))?
        .into_inner();
    let start = required(replay.start, "start")?;
    let last = replay.moves.len();
    let texts = std::iter::once(start.text).chain(replay.moves.into_iter().map(|m| m.text));
    for (i, text) in texts.enumerate() {
        if mined.puzzles.len() >= args.count {
            return Ok(());
        }
        let over = i == last && replay.outcome.is_some();
        let position = text_position(&replay.game, &replay.variant, &text);
        let before = mined.puzzles.len();
        mined
            .try_position(session, position, &text, over, args.max_moves)
            .await?;
        if mined.puzzles.len() > before {
            bar.inc(1);
            return Ok(());
        }
    }
    Ok(())
}

/// How a puzzle ended in `caber puzzle play`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Solved without a wrong move or a hint.
    Clean,
    /// Solved after wrong moves or hints.
    Helped,
    /// Given up (`solution`), or the input ended.
    Failed,
}

/// Which puzzles of a file `caber puzzle play` gives, in which order.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Only these ids (none: every puzzle).
    pub ids: Vec<String>,
    /// Only puzzles with this theme.
    pub theme: Option<String>,
    /// Only puzzles rated at least this.
    pub min_rating: Option<u32>,
    /// Only puzzles rated at most this.
    pub max_rating: Option<u32>,
    /// In an order shuffled by this seed instead of the file's.
    pub shuffle: Option<u64>,
}

impl Selection {
    /// The puzzles of `all` it takes, in its order.
    fn of<'a>(&self, all: &'a [Puzzle]) -> Vec<&'a Puzzle> {
        let mut chosen: Vec<&Puzzle> = all
            .iter()
            .filter(|p| self.ids.is_empty() || self.ids.contains(&p.id))
            .filter(|p| self.theme.as_ref().is_none_or(|t| p.tags.contains(t)))
            .filter(|p| self.min_rating.is_none_or(|r| p.rating >= r))
            .filter(|p| self.max_rating.is_none_or(|r| p.rating <= r))
            .collect();
        if let Some(seed) = self.shuffle {
            use rand::seq::SliceRandom;
            chosen.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        }
        chosen
    }
}

/// `caber puzzle play FILE`: each chosen puzzle in turn, its themes shown
/// once it is over; the user plays the solver's moves, the defence answers
/// from the solution line.
pub async fn play(
    session: &mut Session,
    set: Option<&str>,
    selection: &Selection,
) -> anyhow::Result<()> {
    let (name, all) = chosen_set(session, set).await?;
    let chosen = selection.of(&all);
    if chosen.is_empty() {
        anyhow::bail!(
            "no puzzle of {name} ({}) matches the selection",
            counted(all.len() as u32, "puzzle", "puzzles")
        );
    }
    let mut prompter = Prompter::new();
    let mut endings = Vec::new();
    for (i, puzzle) in chosen.iter().enumerate() {
        out!(
            "puzzle {} of {}: {} (rating {}, {})",
            i + 1,
            chosen.len(),
            puzzle.id,
            puzzle.rating,
            puzzle.goal
        );
        let ending = play_one(session, puzzle, &mut prompter).await?;
        // Themes would give the answer away: shown once it is over.
        out!("themes: {}", puzzle.tags.join(", "));
        let done = ending.is_none();
        endings.push(ending.unwrap_or(Ending::Failed));
        if done {
            break;
        }
    }
    out!("score: {}", score_line(&endings, chosen.len()));
    Ok(())
}

/// `3 solved first try, 1 solved with help, 1 failed (5 played of 30)`.
fn score_line(endings: &[Ending], of: usize) -> String {
    let count = |e: Ending| endings.iter().filter(|&&x| x == e).count();
    format!(
        "{} solved first try, {} solved with help, {} failed ({} played of {of})",
        count(Ending::Clean),
        count(Ending::Helped),
        count(Ending::Failed),
        endings.len()
    )
}

/// Plays one puzzle; `None` when the input ended (or `quit`).
async fn play_one(
    session: &mut Session,
    puzzle: &Puzzle,
    prompter: &mut Prompter,
) -> anyhow::Result<Option<Ending>> {
    let start = session
        .client
        .legal_moves(proto::LegalMovesRequest {
            position: Some(position_of(puzzle)),
            include_position: true,
        })
        .await
        .map_err(status)?
        .into_inner();
    let start = required(start.position, "position")?;
    let solver = start.side_to_move_name.clone();
    // The positions so far, and the index into the solution line.
    let mut history = vec![start];
    let mut at = 0;
    let mut helped = false;
    out!("{}", history[0].diagram.trim_end());
    out!("{solver} to move: {}", puzzle.goal);
    loop {
        let current = history.last().expect("the start").clone();
        let position = required(current.position.clone(), "position")?;
        let mut words = super::legal_move_texts(session, &position).await?;
        words.extend(["hint", "undo", "solution", "quit"].map(String::from));
        let Some(line) = prompter.ask("your move> ", words).await? else {
            return Ok(None);
        };
        let expected = &puzzle.solution[at];
        match line.as_str() {
            "" => continue,
            "quit" => return Ok(None),
            "hint" => {
                helped = true;
                // The solution move as the server reads it says what it moves.
                let position = required(current.position.clone(), "position")?;
                let reply = session
                    .client
                    .apply(apply_request(position, expected))
                    .await
                    .map_err(status)?
                    .into_inner();
                out!("hint: {}", required(reply.r#move, "move")?.subject);
                continue;
            }
            "solution" => {
                out!("solution: {}", puzzle.solution[at..].join(", "));
                return Ok(Some(Ending::Failed));
            }
            "undo" => {
                if at >= 2 {
                    history.truncate(history.len() - 2);
                    at -= 2;
                    let back = history.last().expect("the start");
                    out!("{}", back.diagram.trim_end());
                } else {
                    out!("nothing to undo");
                }
                continue;
            }
            _ => {}
        }
        let position = required(current.position.clone(), "position")?;
        let reply = match session.client.apply(apply_request(position, &line)).await {
            Ok(r) => r.into_inner(),
            Err(e) => {
                out!("{}: try again (hint, undo, solution, quit)", e.message());
                continue;
            }
        };
        let played = required(reply.r#move.clone(), "move")?.text;
        let after = required(reply.position, "position")?;
        let last = at + 1 == puzzle.solution.len();
        let wins_now = after
            .outcome
            .as_ref()
            .is_some_and(|o| o.winner_name == solver);
        if played != *expected && !(last && wins_now) {
            helped = true;
            out!("{played} is not the solution: try again");
            continue;
        }
        out!("{played}: correct");
        history.push(after);
        at += 1;
        if at == puzzle.solution.len() || wins_now {
            let end = history.last().expect("a position");
            out!("{}", end.diagram.trim_end());
            if let Some(o) = &end.outcome {
                out!("game over: {}", crate::output::outcome_text(o));
            }
            out!("solved!");
            return Ok(Some(if helped {
                Ending::Helped
            } else {
                Ending::Clean
            }));
        }
        // The defence, from the solution line.
        let defence = &puzzle.solution[at];
        let position = required(
            history.last().expect("a position").position.clone(),
            "position",
        )?;
        let answer = session
            .client
            .apply(apply_request(position, defence))
            .await
            .map_err(status)?
            .into_inner();
        out!("the opponent plays {defence}");
        let answered = required(answer.position, "position")?;
        out!("{}", answered.diagram.trim_end());
        history.push(answered);
        at += 1;
    }
}
