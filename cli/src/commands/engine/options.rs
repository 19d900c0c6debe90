//! The engine loop's options: `uci` lists them, `setoption` sets them,
//! refusing a bad value at once (`Game`, `Variant` and `Searcher` are
//! checked against what `ListGames` lists).

use caber_engine::quote;
use caber_service::proto;

use super::Engine;
use crate::commands::Session;
use crate::output::out;

/// Most principal variations `setoption name MultiPV` takes.
const MAX_MULTIPV: u32 = 64;

/// Most threads `setoption name Threads` takes (the server lowers it further
/// to its own maximum and says so in an `info string`).
const MAX_THREADS: u32 = 256;

/// The default of the `Hash` option: the searchers' own table size.
const DEFAULT_HASH_MB: u32 = 16;

/// Most MB `setoption name Hash` takes from a server that names no maximum.
const MAX_HASH_MB: u32 = 65_536;

/// The most `Hash` may be: the server's maximum (`ListGames`; in process,
/// half this machine's memory), else [`MAX_HASH_MB`].
async fn max_hash(session: &mut Session) -> anyhow::Result<u32> {
    let limits = session.listing().await?.limits.unwrap_or_default();
    Ok(match limits.max_hash_mb {
        0 => MAX_HASH_MB,
        n => n.min(MAX_HASH_MB),
    })
}

impl Engine {
    /// `uci`: the engine's name and options, then `uciok`.
    pub(super) async fn identify(&mut self, session: &mut Session) -> anyhow::Result<()> {
        let games = session.games().await?;
        out!("id name Caber {}", env!("CARGO_PKG_VERSION"));
        out!("id author the Caber developers");
        let names: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
        out!(
            "option name Game type combo default {} var {}",
            self.game,
            names.join(" var ")
        );
        let shown = |v: &str| {
            if v.is_empty() {
                "<empty>".to_string()
            } else {
                v.to_string()
            }
        };
        out!(
            "option name Variant type string default {}",
            shown(&self.variant)
        );
        out!(
            "option name Searcher type string default {}",
            shown(&self.searcher)
        );
        out!("option name Seed type string default {}", self.seed);
        out!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}");
        out!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
        let max_hash = max_hash(session).await?;
        out!(
            "option name Hash type spin default {} min 1 max {max_hash}",
            DEFAULT_HASH_MB.min(max_hash)
        );
        out!("option name Clear Hash type button");
        out!("uciok");
        Ok(())
    }

    /// `setoption`: a bad value is refused at once (said in an `info
    /// string`) and the option keeps its value; `Game`, `Variant` and
    /// `Searcher` are checked against what `ListGames` lists.
    pub(super) async fn set(
        &mut self,
        session: &mut Session,
        name: &str,
        value: &str,
    ) -> anyhow::Result<()> {
        let number = |max: u32| value.parse::<u32>().ok().filter(|n| (1..=max).contains(n));
        let refused = |option: &str, why: String| {
            out!(
                "info string error: {option} {} refused ({why})",
                quote(value)
            );
        };
        match name.to_ascii_lowercase().as_str() {
            "game" => {
                let games = session.games().await?;
                match games.iter().find(|g| g.name.eq_ignore_ascii_case(value)) {
                    Some(game) => {
                        self.game = game.name.clone();
                        self.variant.clear();
                        self.position = None;
                        if !self.searcher.is_empty() && searcher_of(game, &self.searcher).is_none()
                        {
                            out!("info string {} has no searcher {}: the Searcher option is now its default", game.name, quote(&self.searcher));
                            self.searcher.clear();
                        }
                    }
                    None => {
                        let names: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
                        refused("Game", format!("the games are {}", names.join(", ")));
                    }
                }
            }
            "variant" => {
                let game = session.game_info_of(&self.game).await?;
                let variant = game
                    .variants
                    .iter()
                    .find(|v| v.name.eq_ignore_ascii_case(value));
                match variant {
                    _ if value.is_empty() => {
                        self.variant.clear();
                        self.position = None;
                    }
                    Some(v) => {
                        self.variant = v.name.clone();
                        self.position = None;
                    }
                    None => {
                        let names: Vec<&str> =
                            game.variants.iter().map(|v| v.name.as_str()).collect();
                        refused(
                            "Variant",
                            format!("the variants of {} are {}", game.name, names.join(", ")),
                        );
                    }
                }
            }
            "searcher" => {
                let game = session.game_info_of(&self.game).await?;
                if value.is_empty() || searcher_of(&game, value).is_some() {
                    self.searcher = value.to_string();
                } else {
                    let names: Vec<String> = game
                        .searchers
                        .iter()
                        .flat_map(|s| {
                            std::iter::once(s.name.clone()).chain(s.aliases.iter().cloned())
                        })
                        .collect();
                    refused(
                        "Searcher",
                        format!("the searchers of {} are {}", game.name, names.join(", ")),
                    );
                }
            }
            "seed" => match value.parse() {
                Ok(seed) => self.seed = seed,
                Err(_) => refused("Seed", "not a number".to_string()),
            },
            "multipv" => match number(MAX_MULTIPV) {
                Some(n) => self.multipv = n,
                None => refused("MultiPV", format!("not 1 to {MAX_MULTIPV}")),
            },
            "threads" => match number(MAX_THREADS) {
                Some(n) => self.threads = n,
                None => refused("Threads", format!("not 1 to {MAX_THREADS}")),
            },
            "hash" => {
                let max = max_hash(session).await?;
                match number(max) {
                    Some(n) => {
                        self.hash = n;
                        self.prepare_table(session).await;
                    }
                    None => refused("Hash", format!("not 1 to {max}, the server's maximum")),
                }
            }
            "clear hash" => {
                self.games += 1;
                self.prepare_table(session).await;
            }
            _ => out!("info string error: no option {}", quote(name)),
        }
        Ok(())
    }
}

/// The searcher of `game` that `name` names (its name or an alias).
fn searcher_of<'a>(game: &'a proto::GameInfo, name: &str) -> Option<&'a proto::SearcherInfo> {
    game.searchers.iter().find(|s| {
        s.name.eq_ignore_ascii_case(name) || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}
