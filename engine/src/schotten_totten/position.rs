//! [`Position`]: a referee's full state or a player's view, as a client hands
//! either to the engine; both are searched from the side to move's knowledge.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::search;
use super::svg;
use super::{FullState, Move, View, PLAYER_NAMES};
use crate::catalog::{lookup_variant, ByName, TextError, UnknownVariant};
use crate::game::{variant_name, Game, MoveError, NotationError, Outcome, Player};
use crate::information::InformationSet;
use crate::playable::{Applied, PerftError, Playable};
use crate::played::{Notation, Played};
use crate::playouts::Playouts;
use crate::search::{Info, Limits, Line, Score, Searchable, Searcher, SearcherInfo};

/// A Schotten Totten position as a client gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// The referee's full state: both hands, both decks in order.
    Full(FullState),
    /// What one player knows.
    View(View),
}

impl Position {
    /// `player`'s view of a full state (`None`: the side to move's); a view
    /// is refused (it cannot show more than it holds).
    pub fn view_of(&self, player: Option<Player>) -> Result<View, &'static str> {
        match self {
            Position::Full(s) => Ok(s.view(player.unwrap_or(s.side_to_move()))),
            Position::View(_) => Err("is already a player's view; give the referee's full state"),
        }
    }

    /// A terminal drawing (no colours).
    pub fn diagram(&self) -> String {
        match self {
            Position::Full(s) => s.diagram_ansi(false),
            Position::View(v) => v.diagram(false),
        }
    }

    /// An SVG picture: the nine stones with second's cards above and first's
    /// below in their clan colours (tactic cards by name), combat modes and
    /// claims; both hands of a full state, or the viewer's hand and the
    /// opponent's as face-down cards (those the viewer knows face up); deck
    /// sizes and the discard pile; `last_move` (drawn as given) highlighting
    /// the stones its card acted on and the stones it claimed.
    pub fn svg(&self, last_move: Option<&Move>) -> String {
        let last = last_move.map(|m| {
            let mut text = String::new();
            self.push_move_text(m, &mut text);
            (m, text)
        });
        match self {
            Position::Full(s) => svg::full(s, last),
            Position::View(v) => svg::view(v, last),
        }
    }

    /// The draw of a move from here whose deck was not said (see
    /// [`super::move_notation::default_draw`]).
    pub fn default_draw(
        &self,
        action: &super::Action,
    ) -> Result<Option<super::Deck>, NotationError> {
        let decks = match self {
            Position::Full(s) => [
                s.deck_len(super::Deck::Clan),
                s.deck_len(super::Deck::Tactic),
            ],
            Position::View(v) => [
                v.deck_len(super::Deck::Clan),
                v.deck_len(super::Deck::Tactic),
            ],
        };
        super::move_notation::default_draw(self.board(), decks, action)
    }

    fn board(&self) -> &super::Board {
        match self {
            Position::Full(s) => s.board(),
            Position::View(v) => v.board(),
        }
    }
}

impl ByName for Position {
    /// A seeded deal: the referee's full state.
    fn start_named(variant: &str, seed: u64) -> Result<Self, UnknownVariant> {
        Ok(Position::Full(FullState::start(
            lookup_variant::<FullState>(variant)?,
            seed,
        )))
    }

    /// A full state (`full ...`) or a player's view (`view:N ...`).
    fn read_named(variant: &str, text: &str) -> Result<Self, TextError> {
        let v = lookup_variant::<FullState>(variant).map_err(TextError::Variant)?;
        let text = text.trim();
        if text.starts_with("view") {
            View::from_notation(v, text)
                .map(Position::View)
                .map_err(TextError::Setup)
        } else {
            FullState::read(v, text)
                .map(|s| Position::Full(s.into_position()))
                .map_err(TextError::Setup)
        }
    }
}

impl Playable for Position {
    type Move = Move;

    const GAME: &'static str = FullState::NAME;

    fn variant_name(&self) -> &'static str {
        variant_name::<FullState>(self.board().variant)
    }

    fn player_name(player: Player) -> &'static str {
        PLAYER_NAMES[player.index()]
    }

    fn side_to_move(&self) -> Player {
        self.board().to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board().outcome()
    }

    /// A full state's moves, or the viewer's (none when the other player is to move).
    fn legal_moves(&self, out: &mut Vec<Move>) {
        match self {
            Position::Full(s) => s.legal_moves(out),
            Position::View(v) => v.viewer_moves(out),
        }
    }

    /// A full state's next state directly (no events, no repetition hash:
    /// this game has no repetition rule); a view's through [`Playable::apply`].
    fn after(&self, mv: &Move) -> Self {
        match self {
            Position::Full(s) => Position::Full(s.apply(mv)),
            Position::View(_) => {
                self.apply(mv)
                    .expect("after() takes a move legal_moves listed")
                    .position
            }
        }
    }

    /// A full state reports the claims, the draw and the end; a view only
    /// what the viewer learns, so no events.
    fn apply(&self, mv: &Move) -> Result<Applied<Self>, MoveError> {
        match self {
            Position::Full(s) => {
                let a = Played::new(s.clone()).apply(mv)?;
                Ok(Applied {
                    position: Position::Full(a.position.into_position()),
                    played: a.played,
                    events: a.events,
                })
            }
            Position::View(v) => {
                if v.outcome().is_none() && v.board().to_move != v.viewer() {
                    let name = |p: Player| PLAYER_NAMES[p.index()];
                    return Err(MoveError::Illegal(format!(
                        "it is {}'s turn, not the viewer's ({}): apply it on the full state",
                        name(v.board().to_move),
                        name(v.viewer())
                    )));
                }
                let after = v.clone().play(mv).map_err(|e| e.error)?;
                Ok(Applied {
                    position: Position::View(after),
                    played: super::moves::canonical(*mv),
                    events: Vec::new(),
                })
            }
        }
    }

    fn every_move_known(&self) -> bool {
        matches!(self, Position::Full(_))
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        match self {
            Position::Full(s) => s.parse_move(text),
            Position::View(v) => v.parse_move(text),
        }
    }

    fn push_move_text(&self, mv: &Move, out: &mut String) {
        out.push_str(&super::move_notation::move_text(self.board(), mv));
    }

    fn move_subject(&self, mv: &Move) -> String {
        super::move_notation::move_subject(mv)
    }

    fn themes(events: &[crate::game::Event]) -> Vec<&'static str> {
        FullState::themes(events)
    }

    fn notation(&self) -> String {
        match self {
            Position::Full(s) => s.to_notation(),
            Position::View(v) => v.to_notation(),
        }
    }

    /// A full state's games by the referee's fast path (moves counted by
    /// groups and drawn by index); a view's through the client surface (it
    /// ends when the viewer's opponent is to move).
    fn random_games(&self, budget: Duration, seed: u64, stop: &AtomicBool) -> Playouts {
        match self {
            Position::Full(s) => {
                crate::played::random_games(&Played::new(s.clone()), budget, seed, stop)
            }
            Position::View(_) => crate::playable::listed_random_games(self, budget, seed, stop),
        }
    }

    /// Not defined for a view: it cannot list the opponent's moves.
    fn perft_divide(&self, depth: u32, stop: &AtomicBool) -> Result<Vec<(Move, u64)>, PerftError> {
        match self {
            Position::Full(s) => Played::new(s.clone()).perft_divide(depth, stop),
            Position::View(_) => Err(PerftError::Undefined),
        }
    }

    fn perft(&self, depth: u32, stop: &AtomicBool) -> Result<u64, PerftError> {
        match self {
            Position::Full(s) => Played::new(s.clone()).perft(depth, stop),
            Position::View(_) => Err(PerftError::Undefined),
        }
    }
}

/// Schotten Totten's searchers: information-set MCTS with its
/// [`search::Policy`] (the default), and the greedy reference player, a
/// one-move rule of thumb to measure the search against.
static SEARCHERS: [SearcherInfo<View>; 2] = [
    SearcherInfo {
        name: "ismcts",
        aliases: &[],
        about: "information-set Monte Carlo tree search over the side to move's view",
        by_depth: false,
        table: false,
        weights: &[],
        build: |_| Box::new(search::searcher()),
    },
    SearcherInfo {
        name: "greedy",
        aliases: &[],
        about: "the greedy reference player: claims all it can, plays the troop keeping its best formation",
        // It answers at once, whatever the limits.
        by_depth: true,
        table: false,
        weights: &[],
        build: |_| Box::new(Greedy),
    },
];

/// The greedy reference player ([`super::players::greedy_player`]) as a
/// searcher: no search, its move as the one line.
struct Greedy;

impl Searcher<View> for Greedy {
    fn search(
        &mut self,
        root: &View,
        _limits: &Limits,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&Info<Move>),
    ) -> Info<Move> {
        let mut info = Info::empty();
        if let Some(mv) = super::players::greedy_player(root) {
            info.lines.push(Line {
                score: Score::Centi(0),
                moves: vec![mv],
                visits: 0,
            });
            info.depth = 1;
            info.nodes = 1;
        }
        info
    }
}

impl Searchable for Position {
    type Root = View;

    const HIDDEN_INFORMATION: bool = true;

    /// `viewer`'s view of a referee's state (its hidden cards are never
    /// searched); a view is what its own player knows, whoever asks.
    fn search_root_of(&self, viewer: Player) -> View {
        match self {
            Position::Full(s) => s.view(viewer),
            Position::View(v) => v.clone(),
        }
    }

    fn searchers() -> &'static [SearcherInfo<View>] {
        &SEARCHERS
    }

    /// Stone difference from the side to move's view (what a view shows).
    fn static_evaluation(&self, _weights: &[(String, i32)]) -> i32 {
        let b = self.board();
        let me = b.to_move;
        (b.stones_of(me) as i32 - b.stones_of(me.opponent()) as i32) * 100
    }
}
