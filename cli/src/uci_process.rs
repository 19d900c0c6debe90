//! An engine that speaks the UCI-style protocol of `caber engine`
//! (docs/ENGINE.md), run as a process for a whole game of `caber match`:
//! started and set up once, then asked for each move with `position fen`
//! and `go movetime`. It runs in a process group of its own, ended with the
//! game (when this is dropped), so whatever it started ends too; its lines
//! are read with a bound.

use std::process::Stdio;
use std::time::Duration;

use anyhow::{bail, Context};
use caber_engine::quote;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::lines::{BoundedLines, Line};
use crate::process_group::{in_own_group, ProcessGroup};

/// How long an engine may take to answer `uci` or `isready`.
const SETUP_WITHIN: Duration = Duration::from_secs(10);

/// The longest line read from an engine: a longer one ends its game.
pub const MAX_LINE: usize = 64 * 1024;

/// A running engine process.
pub struct UciProcess {
    /// The engine's process group, killed when dropped (first: fields
    /// drop in order).
    _group: ProcessGroup,
    /// Killed when dropped, and reaped.
    _child: Child,
    stdin: ChildStdin,
    stdout: BoundedLines<BufReader<ChildStdout>>,
}

impl UciProcess {
    /// Starts `words` and sets it up for `game`, `variant` and `seed`:
    /// `uci` (until `uciok`), the `Game`, `Variant` and `Seed` options,
    /// `ucinewgame`, `isready` (until `readyok`).
    pub async fn start(
        words: &[String],
        game: &str,
        variant: &str,
        seed: u64,
    ) -> anyhow::Result<Self> {
        let (program, args) = words.split_first().context("uci= needs a command")?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = in_own_group(&mut command)
            .spawn()
            .with_context(|| format!("cannot run {}", quote(program)))?;
        let stdin = child.stdin.take().context("the engine's standard input")?;
        let stdout = child
            .stdout
            .take()
            .context("the engine's standard output")?;
        let mut engine = UciProcess {
            _group: ProcessGroup::of(&child),
            _child: child,
            stdin,
            stdout: BoundedLines::cut_early(BufReader::new(stdout), MAX_LINE),
        };
        engine.send("uci").await?;
        engine.until("uciok", SETUP_WITHIN).await?;
        engine
            .send(&format!("setoption name Game value {game}"))
            .await?;
        engine
            .send(&format!("setoption name Variant value {variant}"))
            .await?;
        engine
            .send(&format!("setoption name Seed value {seed}"))
            .await?;
        engine.send("ucinewgame").await?;
        engine.send("isready").await?;
        engine.until("readyok", SETUP_WITHIN).await?;
        Ok(engine)
    }

    /// The engine's move in the position `text` within `movetime` ms; it
    /// must answer within `within`.
    pub async fn best(
        &mut self,
        text: &str,
        movetime: u32,
        within: Duration,
    ) -> anyhow::Result<String> {
        self.send(&format!("position fen {text}")).await?;
        self.send(&format!("go movetime {movetime}")).await?;
        let line = self.until("bestmove", within).await?;
        match line.split_whitespace().nth(1) {
            Some("(none)") | None => bail!("the engine found no move: {}", quote(&line)),
            Some(mv) => Ok(mv.to_string()),
        }
    }

    async fn send(&mut self, line: &str) -> anyhow::Result<()> {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .context("the engine's input is closed")?;
        self.stdin
            .flush()
            .await
            .context("the engine's input is closed")
    }

    /// Reads lines until one whose first word is `word`, and returns it; a
    /// line over [`MAX_LINE`] bytes is an error.
    async fn until(&mut self, word: &str, within: Duration) -> anyhow::Result<String> {
        let read = async {
            while let Some(line) = self.stdout.next_line().await? {
                match line {
                    Line::Text(line) if line.split_whitespace().next() == Some(word) => {
                        return Ok(line)
                    }
                    Line::Text(_) => {}
                    long @ Line::TooLong { .. } => {
                        bail!("the engine printed a line of more than {MAX_LINE} bytes: {long}")
                    }
                }
            }
            bail!("the engine ended before {word:?}")
        };
        match tokio::time::timeout(within, read).await {
            Ok(line) => line,
            Err(_) => bail!(
                "no {word:?} from the engine within {:.1} s",
                within.as_secs_f64()
            ),
        }
    }
}
