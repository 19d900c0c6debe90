//! The players of `caber match`, by spec:
//!
//! - `random`: a uniformly random legal move;
//! - a searcher of the game by name or alias (`alphabeta`, `mcts` alias
//!   `uct-baseline`, `ismcts`, `greedy`, see `caber games`; `default`: the
//!   game's default), with
//!   options `:depth=N,nodes=N,movetime=MS,threads=N` and evaluation
//!   weights by name, `NAME=VALUE` (`caber games` lists each searcher's,
//!   e.g. `alphabeta:white_soldier=200`);
//! - `cmd=TEMPLATE`: another engine, such as an earlier `caber` binary, run
//!   once per move: the template's words with `{game}`, `{variant}`,
//!   `{position}` (the mover's view in a game with hidden information) and
//!   `{movetime}` replaced; its last line of output is the
//!   move, as `bestmove MOVE` or a JSON object with a `"move"` field (what
//!   `caber best --json` prints). An engine still running after twice the
//!   movetime plus 10 s is killed and its game reported as an error, so a
//!   hung engine cannot hang the match;
//! - `uci=COMMAND`: an engine that speaks the protocol of `caber engine`
//!   (docs/ENGINE.md), started once per game and told the game, variant and
//!   seed by its options, then asked `position fen TEXT` (again the mover's
//!   view where cards are hidden) and `go movetime MS` for each move (the
//!   same deadline as `cmd=`).

use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use anyhow::{bail, Context};
use caber_engine::quote;
use caber_service::proto;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::client::Client;
use crate::process_group::{in_own_group, ProcessGroup};
use crate::replies::status;
use crate::uci_process::UciProcess;

/// What plays a side.
#[derive(Clone, Debug, PartialEq)]
pub enum Engine {
    /// A uniformly random legal move.
    Random,
    /// One of the game's searchers within limits.
    Searcher {
        /// The searcher's name.
        name: String,
        /// Its limits.
        limits: proto::Limits,
    },
    /// An engine process speaking the `caber engine` protocol, one per game.
    Uci {
        /// The command's words.
        command: Vec<String>,
        /// The movetime of each `go`.
        movetime: u32,
    },
    /// An external command run once per move.
    Command {
        /// The command's words, with placeholders.
        template: Vec<String>,
        /// The movetime given as `{movetime}`.
        movetime: u32,
    },
}

/// A player: its spec as given, and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// The spec as given (the record's player name).
    pub spec: String,
    /// What it is.
    pub engine: Engine,
}

/// The options of a searcher spec (anything else is a weight).
const OPTIONS: [&str; 4] = ["depth", "nodes", "movetime", "threads"];

/// The option `name` is a misspelling of (at most two edits away), if any.
fn near_option(name: &str) -> Option<&'static str> {
    OPTIONS
        .into_iter()
        .find(|o| *o != name && edit_distance(o, name) <= 2)
}

/// Levenshtein distance: insertions, deletions and substitutions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Reads a spec; `movetime` is the budget of a searcher given no limit,
/// `threads` the threads of one given none.
pub fn parse(spec: &str, movetime: u32, threads: u32) -> anyhow::Result<Player> {
    let engine = if spec == "random" {
        Engine::Random
    } else if let Some(template) = spec.strip_prefix("cmd=") {
        let template = crate::words::split(template);
        if template.is_empty() {
            bail!("engine {spec:?}: cmd= needs a command");
        }
        Engine::Command { template, movetime }
    } else if let Some(command) = spec.strip_prefix("uci=") {
        let command = crate::words::split(command);
        if command.is_empty() {
            bail!("engine {spec:?}: uci= needs a command");
        }
        Engine::Uci { command, movetime }
    } else {
        let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
        let name = match name {
            "default" => "",
            "" => bail!("engine {spec:?}: no name"),
            n => n,
        };
        let mut limits = proto::Limits {
            threads,
            ..Default::default()
        };
        for option in options.split(',').filter(|o| !o.is_empty()) {
            let (key, value) = option
                .split_once('=')
                .with_context(|| format!("engine {spec:?}: {option:?} is not key=value"))?;
            let number = || {
                value
                    .parse::<u64>()
                    .with_context(|| format!("engine {spec:?}: {key}={value:?} is not a number"))
            };
            let weight = || {
                value.parse::<i32>().with_context(|| {
                    format!("engine {spec:?}: weight {key}={value:?} is not an integer")
                })
            };
            match key {
                "depth" => limits.depth = u32::try_from(number()?)?,
                "nodes" => limits.nodes = number()?,
                "movetime" => limits.movetime_ms = u32::try_from(number()?)?,
                "threads" => limits.threads = u32::try_from(number()?)?,
                // A near miss of an option is a typo, not a weight.
                name if near_option(name).is_some() => bail!(
                    "engine {spec:?}: unknown option {name:?} (did you mean {}? options: {})",
                    near_option(name).unwrap_or_default(),
                    OPTIONS.join(", ")
                ),
                // The service checks the weight's name against the searcher's.
                name => {
                    limits.weights.insert(name.to_string(), weight()?);
                }
            }
        }
        if limits.depth == 0 && limits.nodes == 0 && limits.movetime_ms == 0 {
            limits.movetime_ms = movetime;
        }
        Engine::Searcher {
            name: name.to_string(),
            limits,
        }
    };
    Ok(Player {
        spec: spec.to_string(),
        engine,
    })
}

impl Player {
    /// Refuses, before a match starts, a searcher spec the service refuses
    /// (an unknown searcher or weight, a depth limit MCTS cannot keep): a
    /// one-node search of `position`, the match's start.
    pub async fn check(
        &self,
        client: &mut Client,
        position: &proto::Position,
    ) -> anyhow::Result<()> {
        let Engine::Searcher { name, limits } = &self.engine else {
            return Ok(());
        };
        client
            .best_move(proto::BestMoveRequest {
                position: Some(position.clone()),
                limits: Some(proto::Limits {
                    nodes: 1,
                    movetime_ms: 0,
                    ..limits.clone()
                }),
                searcher: name.clone(),
                table: String::new(),
                search_moves: Vec::new(),
            })
            .await
            .map_err(status)
            .with_context(|| format!("engine {:?}", self.spec))?;
        Ok(())
    }

    /// Whether this player reads the position as text (another program):
    /// then it is given only what its side may know (a player's view in a
    /// game with hidden information), never the referee's full state.
    pub fn reads_text(&self) -> bool {
        matches!(self.engine, Engine::Uci { .. } | Engine::Command { .. })
    }

    /// This player's move in `position` (`text` its text notation) and,
    /// from a searcher of the service, its score (the mover's view);
    /// `process` is its engine process in this game, started at its first
    /// move (`uci=`), with the game's `seed`.
    pub async fn choose(
        &self,
        client: &mut Client,
        position: &proto::Position,
        text: &str,
        rng: &mut ChaCha8Rng,
        process: &mut Option<UciProcess>,
        seed: u64,
    ) -> anyhow::Result<(String, Option<proto::Score>)> {
        let text = match &self.engine {
            Engine::Uci { command, movetime } => {
                let engine = match process {
                    Some(engine) => engine,
                    None => process.insert(
                        UciProcess::start(command, &position.game, &position.variant, seed)
                            .await
                            .with_context(|| self.spec.clone())?,
                    ),
                };
                engine
                    .best(text, *movetime, command_deadline(*movetime))
                    .await
                    .with_context(|| self.spec.clone())?
            }
            Engine::Random => match random_move(client, position, rng).await? {
                Some(mv) => mv.text,
                None => bail!("{}: no legal move", self.spec),
            },
            Engine::Searcher { name, limits } => {
                let limits = proto::Limits {
                    seed: rng.random(),
                    ..limits.clone()
                };
                let reply = client
                    .best_move(proto::BestMoveRequest {
                        position: Some(position.clone()),
                        limits: Some(limits),
                        searcher: name.clone(),
                        table: String::new(),
                        search_moves: Vec::new(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                let best = reply
                    .best_move
                    .with_context(|| format!("{}: no move", self.spec))?;
                return Ok((best.text, reply.score));
            }
            Engine::Command { template, movetime } => {
                let words: Vec<String> = template
                    .iter()
                    .map(|w| {
                        w.replace("{game}", &position.game)
                            .replace("{variant}", &position.variant)
                            .replace("{position}", text)
                            .replace("{movetime}", &movetime.to_string())
                    })
                    .collect();
                let out = run_command(&words, command_deadline(*movetime))
                    .await
                    .with_context(|| self.spec.clone())?;
                let printed = String::from_utf8_lossy(&out.stdout);
                let last = printed
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                if !out.status.success() {
                    bail!(
                        "{}: exited with {}: {}",
                        self.spec,
                        out.status,
                        quote(String::from_utf8_lossy(&out.stderr).trim())
                    );
                }
                move_of(last)
                    .with_context(|| format!("{}: no move in {}", self.spec, quote(last)))?
            }
        };
        Ok((text, None))
    }
}

/// How long a `cmd=` engine may take for one move: twice its movetime, plus
/// 10 s for starting a process on a loaded machine.
fn command_deadline(movetime: u32) -> Duration {
    Duration::from_millis(2 * u64::from(movetime) + 10_000)
}

/// The most of a `cmd=` engine's output kept: the end of its standard
/// output (its last line is the move), the start of its standard error.
const KEPT_OUTPUT: usize = 64 * 1024;

/// What a `cmd=` engine did: how it exited and what of its output is kept.
#[derive(Debug)]
struct Ran {
    status: ExitStatus,
    /// The last [`KEPT_OUTPUT`] bytes of its standard output.
    stdout: Vec<u8>,
    /// The first [`KEPT_OUTPUT`] bytes of its standard error.
    stderr: Vec<u8>,
}

/// Runs an engine command to its end, or kills it at `deadline`; its
/// process group ends with it.
async fn run_command(words: &[String], deadline: Duration) -> anyhow::Result<Ran> {
    let mut command = tokio::process::Command::new(&words[0]);
    command
        .args(&words[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = in_own_group(&mut command)
        .spawn()
        .with_context(|| format!("cannot run {}", quote(&words[0])))?;
    let _group = ProcessGroup::of(&child);
    let stdout = child.stdout.take().context("the engine's output")?;
    let stderr = child.stderr.take().context("the engine's errors")?;
    let run = async {
        let (stdout, stderr, status) =
            tokio::join!(kept(stdout, true), kept(stderr, false), child.wait());
        anyhow::Ok(Ran {
            status: status?,
            stdout: stdout?,
            stderr: stderr?,
        })
    };
    match tokio::time::timeout(deadline, run).await {
        Ok(ran) => ran.with_context(|| format!("cannot run {}", quote(&words[0]))),
        Err(_) => bail!(
            "{} gave no move within {:.1} s and was killed",
            quote(&words[0]),
            deadline.as_secs_f64()
        ),
    }
}

/// Reads `input` to its end, keeping its last (`tail`) or its first
/// [`KEPT_OUTPUT`] bytes.
async fn kept(mut input: impl AsyncRead + Unpin, tail: bool) -> std::io::Result<Vec<u8>> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = input.read(&mut buf).await?;
        if n == 0 {
            if tail && kept.len() > KEPT_OUTPUT {
                kept.drain(..kept.len() - KEPT_OUTPUT);
            }
            return Ok(kept);
        }
        if tail {
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > 2 * KEPT_OUTPUT {
                kept.drain(..kept.len() - KEPT_OUTPUT);
            }
        } else {
            let room = KEPT_OUTPUT.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
    }
}

/// A uniformly random legal move of `position` drawn with `rng`, as the
/// server lists them (`None`: there is none).
pub async fn random_move(
    client: &mut Client,
    position: &proto::Position,
    rng: &mut ChaCha8Rng,
) -> anyhow::Result<Option<proto::MoveInfo>> {
    let mut moves = client
        .legal_moves(proto::LegalMovesRequest {
            position: Some(position.clone()),
            include_position: false,
        })
        .await
        .map_err(status)?
        .into_inner()
        .moves;
    if moves.is_empty() {
        return Ok(None);
    }
    Ok(Some(moves.swap_remove(rng.random_range(0..moves.len()))))
}

/// The move in an engine's last line: `bestmove MOVE ...`, or JSON: a
/// `BestMove` reply (`{"bestMove": {"text": ...}}`, what `caber best
/// --json` prints) or `{"move": ...}` (what builds before it printed).
fn move_of(line: &str) -> Option<String> {
    if let Some(rest) = line.trim().strip_prefix("bestmove ") {
        return rest.split_whitespace().next().map(str::to_string);
    }
    let json: serde_json::Value = serde_json::from_str(line).ok()?;
    json["bestMove"]["text"]
        .as_str()
        .or_else(|| json["move"].as_str())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_option_is_named_as_one() {
        assert_eq!(edit_distance("depht", "depth"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("nodes", "nodes"), 0);
        let e = parse("alphabeta:depht=2", 100, 1).unwrap_err().to_string();
        assert_eq!(
            e,
            "engine \"alphabeta:depht=2\": unknown option \"depht\" (did you mean depth? options: depth, nodes, movetime, threads)"
        );
        // A weight far from every option goes to the service as a weight.
        assert!(parse("alphabeta:white_soldier=200", 100, 1).is_ok());
    }

    #[test]
    fn specs_are_read() {
        assert_eq!(parse("random", 100, 1).unwrap().engine, Engine::Random);
        // An alias goes to the service as given (ListGames lists it).
        let uct = parse("uct-baseline", 250, 1).unwrap();
        assert_eq!(
            uct.engine,
            Engine::Searcher {
                name: "uct-baseline".into(),
                limits: proto::Limits {
                    movetime_ms: 250,
                    threads: 1,
                    ..Default::default()
                }
            }
        );
        let ab = parse("alphabeta:depth=4,nodes=9", 250, 2).unwrap();
        match ab.engine {
            Engine::Searcher { name, limits } => {
                assert_eq!(name, "alphabeta");
                assert_eq!(
                    (
                        limits.depth,
                        limits.nodes,
                        limits.movetime_ms,
                        limits.threads
                    ),
                    (4, 9, 0, 2)
                );
            }
            other => panic!("{other:?}"),
        }
        let weighted = parse(
            "alphabeta:depth=3,white_soldier=200,king_distance=-5",
            250,
            1,
        )
        .unwrap();
        match weighted.engine {
            Engine::Searcher { limits, .. } => {
                let mut weights: Vec<_> = limits.weights.into_iter().collect();
                weights.sort();
                assert_eq!(
                    weights,
                    [("king_distance".into(), -5), ("white_soldier".into(), 200)]
                );
            }
            other => panic!("{other:?}"),
        }
        let own = parse("alphabeta:threads=3", 250, 2).unwrap();
        match own.engine {
            Engine::Searcher { limits, .. } => {
                assert_eq!((limits.movetime_ms, limits.threads), (250, 3));
            }
            other => panic!("{other:?}"),
        }
        let cmd = parse("cmd=old/caber --position {position} best --json", 300, 1).unwrap();
        assert_eq!(
            cmd.engine,
            Engine::Command {
                template: vec![
                    "old/caber".into(),
                    "--position".into(),
                    "{position}".into(),
                    "best".into(),
                    "--json".into()
                ],
                movetime: 300
            }
        );
        for bad in [
            "alphabeta:depth",
            "alphabeta:depth=x",
            "alphabeta:white_soldier=x",
            "alphabeta:white_soldier=99999999999",
            "cmd=",
            ":depth=3",
        ] {
            assert!(parse(bad, 100, 1).is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn an_engine_past_its_deadline_is_killed() {
        // A duration no other process is likely to sleep, to find it by.
        let words = ["sleep".to_string(), "31.4159".to_string()];
        let started = std::time::Instant::now();
        let err = run_command(&words, Duration::from_millis(200))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("\"sleep\" gave no move within 0.2 s"),
            "{err}"
        );
        assert!(started.elapsed() < Duration::from_secs(20));
        let running = || {
            std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
                let cmdline = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
                let status = std::fs::read_to_string(p.path().join("status")).unwrap_or_default();
                cmdline == b"sleep\x0031.4159\x00" && !status.contains("State:\tZ")
            })
        };
        for _ in 0..100 {
            if !running() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(!running(), "the engine still runs");
        let echo = ["echo".to_string(), "bestmove e4-e5".to_string()];
        let out = run_command(&echo, Duration::from_secs(20)).await.unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "bestmove e4-e5\n");
        assert_eq!(command_deadline(1000), Duration::from_secs(12));
    }

    #[tokio::test]
    async fn a_commands_output_is_kept_bounded() {
        // A megabyte of noise, then the move: the end is kept, and the move
        // with it; of an error output only the start.
        let noisy = || {
            let noise = tokio::io::AsyncReadExt::take(tokio::io::repeat(b'x'), 1 << 20);
            tokio::io::AsyncReadExt::chain(noise, &b"\nbestmove e4-e5\n"[..])
        };
        let tail = kept(noisy(), true).await.unwrap();
        assert_eq!(tail.len(), KEPT_OUTPUT);
        assert!(tail.ends_with(b"x\nbestmove e4-e5\n"));
        let head = kept(noisy(), false).await.unwrap();
        assert_eq!(head, vec![b'x'; KEPT_OUTPUT]);
        let out = run_command(
            &[
                "sh".to_string(),
                "-c".to_string(),
                "head -c 3000000 /dev/zero; echo; echo bestmove a1-a2".to_string(),
            ],
            Duration::from_secs(20),
        )
        .await
        .unwrap();
        assert_eq!(out.stdout.len(), KEPT_OUTPUT);
        assert!(out.stdout.ends_with(b"\nbestmove a1-a2\n"));
    }

    #[test]
    fn an_engines_move_is_read_from_its_last_line() {
        assert_eq!(
            move_of("bestmove e4-e5 score cp 3").as_deref(),
            Some("e4-e5")
        );
        assert_eq!(
            move_of(r#"{"bestMove":{"text":"e4-d4"},"moves":["e4-d4"]}"#).as_deref(),
            Some("e4-d4")
        );
        assert_eq!(
            move_of(r#"{"move":"p:G5@3/d:clan","depth":2}"#).as_deref(),
            Some("p:G5@3/d:clan")
        );
        assert_eq!(move_of("nothing"), None);
    }
}
