//! The command line's options shared by the commands: those every command
//! takes ([`Common`]) and a search's limits ([`SearchArgs`]).

use std::path::PathBuf;

use clap::Args;

use crate::client;

/// Options every command takes.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Game id (see `caber games`).
    #[arg(long, global = true, default_value = "tablut")]
    pub game: String,
    /// Variant name (default: the game's default variant).
    #[arg(long, global = true, default_value = "", hide_default_value = true)]
    pub variant: String,
    /// Start from this position (the game's text notation) instead of the start position.
    #[arg(long, global = true)]
    pub position: Option<String>,
    /// Moves to play first, in order, separated by spaces.
    #[arg(long, global = true, default_value = "", hide_default_value = true)]
    pub moves: String,
    /// Seed for games with chance (the deal; also the seed of sampling
    /// searchers), 0 by default.
    #[arg(long, global = true, default_value_t = 0, hide_default_value = true)]
    pub seed: u64,
    /// Machine output: one JSON object per command (per update for `analyze`).
    #[arg(long, global = true)]
    pub json: bool,
    /// URL of a running caberd (e.g. http://127.0.0.1:50051); without it the
    /// service runs in-process.
    #[arg(long, global = true)]
    pub server: Option<String>,
    /// PEM certificate(s) to trust for an https:// server instead of the
    /// system's roots (e.g. the server's self-signed certificate).
    #[arg(long, global = true, value_name = "FILE")]
    pub tls_ca: Option<PathBuf>,
    /// File holding the bearer token of a server started with
    /// `--auth-token-file`.
    #[arg(long, global = true, value_name = "FILE", env = "CABER_TOKEN_FILE")]
    pub token_file: Option<PathBuf>,
}

impl Common {
    /// Where the service is and how to reach it.
    pub fn target(&self) -> client::Target {
        client::Target {
            server: self.server.clone(),
            tls_ca: self.tls_ca.clone(),
            token_file: self.token_file.clone(),
        }
    }
}

/// Search limits (zero or absent: no limit of that kind).
#[derive(Args, Debug, Clone, Default)]
pub struct SearchArgs {
    /// Maximum depth in plies (0: no depth limit).
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    pub depth: u32,
    /// Maximum number of nodes (0: no node limit).
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    pub nodes: u64,
    /// Maximum time in milliseconds (0: no time limit; with no limit at
    /// all the search gets 1 s).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0,
        hide_default_value = true
    )]
    pub movetime: u32,
    /// Threads to search on (alpha-beta; 0 or 1: one).
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    pub threads: u32,
    /// Transposition table size in MB of a searcher that has one (0: its
    /// default, 16; a server lowers it to its --max-hash-mb).
    #[arg(
        long,
        value_name = "MB",
        default_value_t = 0,
        hide_default_value = true
    )]
    pub hash: u32,
    /// The searcher (see `caber games`; default: the game's best).
    #[arg(long, default_value = "", hide_default_value = true)]
    pub searcher: String,
    /// An evaluation weight in place of its default (repeatable; `caber
    /// games` lists each searcher's); `eval` without limits or searcher uses
    /// them in the static evaluation.
    #[arg(long = "weight", value_name = "NAME=VALUE", value_parser = parse_weight)]
    pub weights: Vec<(String, i32)>,
}

/// `--weight NAME=VALUE`.
fn parse_weight(text: &str) -> Result<(String, i32), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: expected NAME=VALUE such as white_soldier=200"))?;
    let value = value
        .trim()
        .parse::<i32>()
        .map_err(|_| format!("{value:?} is not an integer"))?;
    Ok((name.trim().to_string(), value))
}
