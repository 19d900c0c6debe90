//! The commands, one module per group, sharing a [`Session`].

pub mod bench;
pub mod engine;
pub mod games;
pub mod matches;
pub mod perft;
pub mod play;
pub mod playouts;
pub mod position;
pub mod puzzle;
pub mod referee;
pub mod reliability;
pub mod render;
pub mod review;
pub mod search;
pub mod tablut_challenge;
pub mod view;

use caber_engine::quote;
use caber_engine::record::RecordResult;
use caber_engine::Player;
use caber_service::proto::{self, position::State, r#move::Kind};

use crate::args::Common;
use crate::client::Client;
pub use crate::replies::{required, status};

/// A connected client and the options common to every command.
pub struct Session {
    /// The gRPC client.
    pub client: Client,
    /// The common options.
    pub common: Common,
}

/// The position a command works on.
pub struct Current {
    /// The position to send.
    pub position: proto::Position,
    /// The server's report of it.
    pub report: proto::PositionReport,
}

impl Session {
    /// A session over `client`.
    pub fn new(client: Client, common: Common) -> Self {
        Session { client, common }
    }

    /// What `ListGames` says of the session's game (`--game`).
    pub async fn game_info(&mut self) -> anyhow::Result<proto::GameInfo> {
        let game = self.common.game.clone();
        self.game_info_of(&game).await
    }

    /// What `ListGames` answers: the games and the server's maximums.
    pub async fn listing(&mut self) -> anyhow::Result<proto::ListGamesResponse> {
        let reply = self
            .client
            .list_games(proto::ListGamesRequest {})
            .await
            .map_err(status)?;
        Ok(reply.into_inner())
    }

    /// Every game `ListGames` lists.
    pub async fn games(&mut self) -> anyhow::Result<Vec<proto::GameInfo>> {
        Ok(self.listing().await?.games)
    }

    /// What `ListGames` says of `game`.
    pub async fn game_info_of(&mut self, game: &str) -> anyhow::Result<proto::GameInfo> {
        let games = self.games().await?;
        let known: Vec<String> = games.iter().map(|g| g.name.clone()).collect();
        games
            .into_iter()
            .find(|g| g.name.eq_ignore_ascii_case(game))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "unknown game {game:?} (the server lists {})",
                    known.join(", ")
                )
            })
    }

    /// The position given by `--position` (or the start position), after `--moves`.
    pub async fn current(&mut self) -> anyhow::Result<Current> {
        let start = Start {
            game: &self.common.game,
            variant: &self.common.variant,
            seed: self.common.seed,
            text: self.common.position.as_deref(),
        };
        let moves: Vec<String> = self
            .common
            .moves
            .split_whitespace()
            .map(str::to_string)
            .collect();
        start.after(&mut self.client, &moves, "--moves: ").await
    }
}

/// Where a command's position starts: a position's text in a game and
/// variant, or the variant's start (the deal of `seed` in a game with chance).
pub struct Start<'a> {
    /// The game id.
    pub game: &'a str,
    /// The variant (empty: the game's default).
    pub variant: &'a str,
    /// The seed of the start's deal.
    pub seed: u64,
    /// A position in the game's text notation, or `None` for the start.
    pub text: Option<&'a str>,
}

impl Start<'_> {
    /// The position, read or dealt by the server, after `moves`, each
    /// applied (a refused one's error begins with `context`).
    pub async fn after(
        &self,
        client: &mut Client,
        moves: &[String],
        context: &str,
    ) -> anyhow::Result<Current> {
        let mut current = match self.text {
            Some(text) => {
                // Read by the server (LegalMoves reports the position it read).
                let request = proto::LegalMovesRequest {
                    position: Some(proto::Position {
                        game: self.game.to_string(),
                        variant: self.variant.to_string(),
                        state: Some(State::Text(text.to_string())),
                    }),
                    include_position: true,
                };
                let reply = client.legal_moves(request).await.map_err(status)?;
                from_report(required(reply.into_inner().position, "position")?)?
            }
            None => {
                let request = proto::NewGameRequest {
                    game: self.game.to_string(),
                    variant: self.variant.to_string(),
                    seed: self.seed,
                };
                let reply = client.new_game(request).await.map_err(status)?;
                from_report(required(reply.into_inner().position, "position")?)?
            }
        };
        for (i, mv) in moves.iter().enumerate() {
            let reply = client
                .apply(apply_request(current.position, mv))
                .await
                .map_err(|s| {
                    status(s).context(format!("{context}move {} ({})", i + 1, quote(mv)))
                })?;
            current = from_report(required(reply.into_inner().position, "position")?)?;
        }
        Ok(current)
    }
}

/// The legal moves of `position`, as text.
pub async fn legal_move_texts(
    session: &mut Session,
    position: &proto::Position,
) -> anyhow::Result<Vec<String>> {
    let legal = session
        .client
        .legal_moves(proto::LegalMovesRequest {
            position: Some(position.clone()),
            include_position: false,
        })
        .await
        .map_err(status)?
        .into_inner();
    Ok(legal.moves.into_iter().map(|m| m.text).collect())
}

/// What `side` may know of `report`'s position: its view in a game with
/// hidden information, the position itself in any other.
pub async fn view_of(
    client: &mut Client,
    report: &proto::PositionReport,
    side: proto::Side,
) -> anyhow::Result<proto::PositionReport> {
    let view = client
        .view(proto::ViewRequest {
            position: Some(required(report.position.clone(), "position")?),
            player: side as i32,
        })
        .await;
    match view {
        Ok(v) => required(v.into_inner().position, "view"),
        // A game without hidden information: the position is its own view.
        Err(e) if e.code() == tonic::Code::InvalidArgument => Ok(report.clone()),
        Err(e) => Err(status(e)),
    }
}

/// An `Apply` request for a text move.
pub fn apply_request(position: proto::Position, mv: &str) -> proto::ApplyRequest {
    proto::ApplyRequest {
        position: Some(position),
        r#move: Some(proto::Move {
            kind: Some(Kind::Text(mv.to_string())),
        }),
    }
}

/// A finished game's result for its record: the winner, or a draw.
pub fn record_result(outcome: &proto::Outcome) -> RecordResult {
    match Player::try_from(outcome.winner()) {
        Ok(winner) => RecordResult::Won(winner),
        Err(()) => RecordResult::Draw,
    }
}

fn from_report(report: proto::PositionReport) -> anyhow::Result<Current> {
    Ok(Current {
        position: required(report.position.clone(), "position")?,
        report,
    })
}
