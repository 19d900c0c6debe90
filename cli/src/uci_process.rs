//! An engine that speaks the UCI-style protocol of `caber engine`
//! (docs/ENGINE.md), run as a process for a whole game of `caber match`:
//! started and set up once, then asked for each move with `position fen`
//! and `go movetime`.

use std::process::Stdio;
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long an engine may take to answer `uci` or `isready`.
const SETUP_WITHIN: Duration = Duration::from_secs(10);

/// A running engine process.
pub struct UciProcess {
    /// Killed when dropped.
    _child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
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
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot run {program:?}"))?;
        let stdin = child.stdin.take().context("the engine's standard input")?;
        let stdout = BufReader::new(
            child
                .stdout
                .take()
                .context("the engine's standard output")?,
        )
        .lines();
        let mut engine = UciProcess {
            _child: child,
            stdin,
            stdout,
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
            Some("(none)") | None => bail!("the engine found no move: {line:?}"),
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

    /// Reads lines until one whose first word is `word`, and returns it.
    async fn until(&mut self, word: &str, within: Duration) -> anyhow::Result<String> {
        let read = async {
            while let Some(line) = self.stdout.next_line().await? {
                if line.split_whitespace().next() == Some(word) {
                    return Ok(line);
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
