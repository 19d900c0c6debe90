//! `caber match`: a match between two players (engine specs, see
//! [`crate::engines`]) of any game, played through the service like any
//! client: each opening twice with the seats swapped, results per seat, the
//! score with its Elo difference and 95 % interval, an optional SPRT that
//! stops the match once decided, and every game written as a record.
//!
//! Openings, in this order: line `k` of `--openings FILE` (a position per
//! line); the position of `--position`/`--moves` for every game; for a game
//! with chance (its start depends on the seed, as Schotten Totten's deal)
//! the deal of seed `--seed + k`; otherwise the start position after
//! `--opening-plies` uniformly random plies drawn with seed `--seed + k`
//! (the same for every match with those flags).

use std::path::{Path, PathBuf};

use anyhow::Context;
use caber_engine::quote;
use caber_engine::record::{GameRecord, RecordResult, RecordedMove};
use caber_service::proto;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use tokio::task::JoinSet;

use super::{apply_request, required, status, Session};
use crate::client::Client;
use crate::clock::Civil;
use crate::elo::{self, Results, Sprt, Verdict};
use crate::engines::{self, Player};
use crate::output::{counted, out};
use crate::progress;
use crate::sides::Sides;
use crate::uci_process::UciProcess;

/// The longest game: past it, a draw.
const MAX_PLIES: usize = 1000;

/// The match options.
pub struct MatchArgs {
    /// Player A's spec.
    pub a: String,
    /// Player B's spec.
    pub b: String,
    /// Games (a pair of games per opening).
    pub games: u32,
    /// Budget per move of a searcher given no limit, in milliseconds.
    pub movetime: u32,
    /// Threads of a searcher whose spec names none.
    pub threads_per_engine: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// The SPRT's Elo bounds, if any.
    pub sprt: Option<(f64, f64)>,
    /// Random plies of a generated opening.
    pub opening_plies: u32,
    /// A file of opening positions instead.
    pub openings: Option<PathBuf>,
    /// Where the records go (`Some(None)`: a dated directory; `None`: nowhere).
    pub records: Option<Option<PathBuf>>,
}

/// One finished game: A's result and the record.
struct Played {
    index: u32,
    /// Whether A played `SIDE_ONE`.
    a_side_one: bool,
    a_result: Option<bool>,
    record: GameRecord,
}

/// What every game shares.
#[derive(Clone)]
struct MatchSetup {
    game: String,
    variant: String,
    seed: u64,
    chance: bool,
    sides: Sides,
    opening_plies: u32,
    openings: Vec<String>,
    a: Player,
    b: Player,
    /// The records' `Date` tag: the day the match started.
    date: String,
}

/// Plays the match and reports it.
pub async fn run(session: &mut Session, args: MatchArgs) -> anyhow::Result<()> {
    let json = session.common.json;
    let a = engines::parse(&args.a, args.movetime, args.threads_per_engine)?;
    let b = engines::parse(&args.b, args.movetime, args.threads_per_engine)?;
    if args.games == 0 {
        anyhow::bail!("--games 0: nothing to play");
    }
    let openings = match &args.openings {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read --openings {}", path.display()))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with(';'))
            .map(str::to_string)
            .collect(),
        None => Vec::new(),
    };
    let now = Civil::now();
    let start = session.current().await?;
    let given = session.common.position.is_some() || !session.common.moves.trim().is_empty();
    let openings = if openings.is_empty() && given {
        // --position/--moves: every game starts there.
        vec![start.report.text.clone()]
    } else {
        openings
    };
    for player in [&a, &b] {
        player.check(&mut session.client, &start.position).await?;
    }
    let info = session.game_info().await?;
    let setup = MatchSetup {
        game: session.common.game.clone(),
        variant: start.position.variant.clone(),
        seed: session.common.seed,
        chance: info.chance,
        sides: Sides::of(&info),
        opening_plies: args.opening_plies,
        openings,
        a,
        b,
        date: now.date_tag(),
    };
    let dir = args.records.clone().map(|dir| {
        dir.unwrap_or_else(|| PathBuf::from(format!("caber-match-{}-{}", setup.game, now.stamp())))
    });
    if let Some(dir) = &dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let bar = progress::bar(u64::from(args.games), "games", json);
    let test = args.sprt.map(|(elo0, elo1)| Sprt { elo0, elo1 });
    let mut seats = [Results::default(); 2];
    let mut verdict = Verdict::Continue;
    let mut failures = Vec::new();
    let mut running = JoinSet::new();
    let mut next = 0;
    loop {
        while next < args.games
            && running.len() < args.concurrency.max(1)
            && verdict == Verdict::Continue
        {
            let (setup, client) = (setup.clone(), session.client.clone());
            running.spawn(play_one(setup, client, next));
            next += 1;
        }
        let Some(done) = running.join_next().await else {
            break;
        };
        bar.inc(1);
        let played = match done.context("a game task failed")? {
            Ok(played) => played,
            Err(e) => {
                failures.push(format!("{e:#}"));
                continue;
            }
        };
        let seat = &mut seats[usize::from(!played.a_side_one)];
        match played.a_result {
            Some(true) => seat.wins += 1,
            Some(false) => seat.losses += 1,
            None => seat.draws += 1,
        }
        if let Some(dir) = &dir {
            let file = dir.join(format!("game-{:04}.record", played.index + 1));
            std::fs::write(&file, played.record.to_string())
                .with_context(|| format!("cannot write {}", file.display()))?;
        }
        // Decided on whole pairs only: each opening from both seats.
        if let Some(test) = test.filter(|_| seats[0].games() == seats[1].games()) {
            verdict = test.verdict(&seats[0].plus(seats[1]));
        }
    }
    bar.finish_and_clear();
    let total = seats[0].plus(seats[1]);
    if total.games() == 0 {
        anyhow::bail!(
            "no game was played: {}",
            failures.first().map_or("?", String::as_str)
        );
    }
    report(
        &setup,
        &seats,
        test,
        verdict,
        &failures,
        dir.as_deref(),
        json,
    );
    Ok(())
}

fn report(
    setup: &MatchSetup,
    seats: &[Results; 2],
    test: Option<Sprt>,
    verdict: Verdict,
    failures: &[String],
    dir: Option<&Path>,
    json: bool,
) {
    let total = seats[0].plus(seats[1]);
    let (e, lo, hi) = elo::elo_interval(&total);
    let sides = [proto::Side::One, proto::Side::Two].map(|s| setup.sides.name(s));
    let seat_json = |side: &str, t: &Results| json!({ "side": side, "wins": t.wins, "draws": t.draws, "losses": t.losses });
    let (verdict_token, verdict_name) = match verdict {
        Verdict::Continue => ("undecided", "undecided"),
        Verdict::Stronger => ("H1", "H1: A is stronger by at least elo1"),
        Verdict::NotStronger => ("H0", "H0: A is not stronger than elo0"),
    };
    if json {
        let sprt = test.map(|t| {
            json!({
                "elo0": t.elo0, "elo1": t.elo1, "llr": t.llr(&total),
                "bounds": [Sprt::BOUNDS.0, Sprt::BOUNDS.1], "verdict": verdict_token,
            })
        });
        out!(
            "{}",
            json!({
                "game": setup.game, "variant": setup.variant,
                "a": setup.a.spec, "b": setup.b.spec,
                "games": total.games(),
                "aSeats": [seat_json(sides[0], &seats[0]), seat_json(sides[1], &seats[1])],
                "aScore": total.score(), "elo": elo::json(e), "elo95": [elo::json(lo), elo::json(hi)],
                "sprt": sprt, "errors": failures, "records": dir.as_ref().map(|d| d.display().to_string()),
            })
        );
        return;
    }
    let (a, b) = (&setup.a.spec, &setup.b.spec);
    out!(
        "{a} vs {b}: {} of {} ({})",
        counted(total.games(), "game", "games"),
        setup.game,
        setup.variant
    );
    for (seat, t) in sides.iter().zip(seats) {
        out!(
            "{a} as {seat}: {}, {}, {}",
            counted(t.wins, "win", "wins"),
            counted(t.draws, "draw", "draws"),
            counted(t.losses, "loss", "losses")
        );
    }
    out!(
        "{a} score {:.1}%, Elo {} (95% {} .. {})",
        100.0 * total.score(),
        elo::shown(e),
        elo::shown(lo),
        elo::shown(hi)
    );
    if let Some(t) = test {
        out!(
            "SPRT elo0 {} elo1 {}: LLR {:.2} ({:.2} .. {:.2}): {verdict_name}",
            t.elo0,
            t.elo1,
            t.llr(&total),
            Sprt::BOUNDS.0,
            Sprt::BOUNDS.1
        );
    }
    for f in failures {
        out!("error in a game: {f}");
    }
    if let Some(dir) = dir {
        out!("records: {}", dir.display());
    }
}

/// Plays game `index`: opening `index / 2`, A as `SIDE_ONE` in even games.
async fn play_one(setup: MatchSetup, mut client: Client, index: u32) -> anyhow::Result<Played> {
    let opening = u64::from(index / 2);
    let a_side_one = index.is_multiple_of(2);
    let mut rng =
        ChaCha8Rng::seed_from_u64(setup.seed.wrapping_add(opening).wrapping_mul(0x9E37_79B9));
    let mut report = start(&setup, &mut client, opening).await?;
    let mut record = GameRecord::new(&setup.game);
    record.set_tag("Variant", &setup.variant);
    let (one, two) = if a_side_one {
        (&setup.a, &setup.b)
    } else {
        (&setup.b, &setup.a)
    };
    record.set_tag(&setup.sides.tag(proto::Side::One), &one.spec);
    record.set_tag(&setup.sides.tag(proto::Side::Two), &two.spec);
    record.set_tag("Date", &setup.date);
    record.set_tag("Round", &(index + 1).to_string());
    let seed = setup.seed.wrapping_add(opening);
    if setup.chance {
        record.set_tag("Seed", &seed.to_string());
    } else {
        record.set_tag("Start", &report.text);
    }
    // Each side's engine process in this game (`uci=` players), SIDE_ONE's first.
    let mut processes: [Option<UciProcess>; 2] = [None, None];
    let mut plies = 0;
    let outcome = loop {
        if let Some(o) = report.outcome.clone() {
            break Some(o);
        }
        if plies >= MAX_PLIES {
            break None;
        }
        let position = required(report.position.clone(), "position")?;
        let mover = if report.side_to_move == proto::Side::One as i32 {
            one
        } else {
            two
        };
        let process = &mut processes[usize::from(report.side_to_move != proto::Side::One as i32)];
        let text = if mover.reads_text() {
            let side = proto::Side::try_from(report.side_to_move).unwrap_or(proto::Side::One);
            super::view_of(&mut client, &report, side).await?.text
        } else {
            report.text.clone()
        };
        let (mv, score) = mover
            .choose(&mut client, &position, &text, &mut rng, process, seed)
            .await?;
        let mover_player = if report.side_to_move == proto::Side::One as i32 {
            caber_engine::Player::One
        } else {
            caber_engine::Player::Two
        };
        let applied = client
            .apply(apply_request(position, &mv))
            .await
            .map_err(|s| status(s).context(format!("{}: move {}", mover.spec, quote(&mv))))?
            .into_inner();
        let played = required(applied.r#move, "move")?.text;
        record.moves.push(RecordedMove {
            text: played,
            comments: Vec::new(),
            eval: crate::output::eval_after(
                score.as_ref(),
                mover_player,
                setup.sides.white_player(),
            ),
        });
        report = required(applied.position, "position")?;
        plies += 1;
    };
    let (result, reason) = match &outcome {
        Some(o) => (super::record_result(o), o.reason.clone()),
        None => (
            RecordResult::Draw,
            format!("{MAX_PLIES} plies without an end"),
        ),
    };
    // Whether A won: A is SIDE_ONE (Player One) in even games.
    let a_result = match result {
        RecordResult::Won(winner) => Some((winner == caber_engine::Player::One) == a_side_one),
        _ => None,
    };
    record.set_result(result, setup.sides.white_player());
    record.set_tag("Reason", &reason);
    Ok(Played {
        index,
        a_side_one,
        a_result,
        record,
    })
}

/// Opening `k`'s position.
async fn start(
    setup: &MatchSetup,
    client: &mut Client,
    k: u64,
) -> anyhow::Result<proto::PositionReport> {
    if let Some(text) = setup.openings.get(k as usize % setup.openings.len().max(1)) {
        let reply = client
            .legal_moves(proto::LegalMovesRequest {
                position: Some(proto::Position {
                    game: setup.game.clone(),
                    variant: setup.variant.clone(),
                    state: Some(proto::position::State::Text(text.clone())),
                }),
                include_position: true,
            })
            .await
            .map_err(|s| status(s).context(format!("--openings line {}", k + 1)))?;
        return required(reply.into_inner().position, "position");
    }
    let reply = client
        .new_game(proto::NewGameRequest {
            game: setup.game.clone(),
            variant: setup.variant.clone(),
            seed: setup.seed.wrapping_add(k),
        })
        .await
        .map_err(status)?;
    let mut report = required(reply.into_inner().position, "position")?;
    if setup.chance {
        return Ok(report);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed.wrapping_add(k));
    for _ in 0..setup.opening_plies {
        if report.outcome.is_some() {
            break;
        }
        let position = required(report.position.clone(), "position")?;
        let Some(mv) = engines::random_move(client, &position, &mut rng).await? else {
            break;
        };
        let applied = client
            .apply(apply_request(position, &mv.text))
            .await
            .map_err(status)?
            .into_inner();
        report = required(applied.position, "position")?;
    }
    Ok(report)
}
