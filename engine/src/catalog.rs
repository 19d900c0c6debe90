//! The games by name: a game-independent, text-based view of every position.
//!
//! The service and the CLI work through [`AnyPosition`] so that one code path
//! serves every game; a game joins by adding an entry to [`ENTRIES`].

use std::any::Any;
use std::fmt;
use std::sync::atomic::AtomicBool;

use crate::game::{
    perft_until, variant_by_name, variant_name, Event, Game, MoveError, Outcome, Player, SetupError,
};
use crate::search::{alphabeta, Info, Limits};

/// What `ListGames` tells about a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The game's id, e.g. `"tablut"`.
    pub name: &'static str,
    /// Variant names, the default first.
    pub variants: Vec<&'static str>,
    /// The names of `Player::One` and `Player::Two`.
    pub players: [&'static str; 2],
    /// A short help on the position text notation.
    pub position_help: &'static str,
    /// A short help on the move text notation.
    pub move_help: &'static str,
}

/// A position of any game, seen through text moves.
pub trait AnyPosition: Send + Sync + fmt::Debug {
    /// The game's id.
    fn game(&self) -> &'static str;
    /// The variant's name.
    fn variant(&self) -> &'static str;
    /// The position's text notation.
    fn notation(&self) -> String;
    /// A terminal drawing.
    fn diagram(&self) -> String;
    /// The player to move.
    fn side_to_move(&self) -> Player;
    /// The game's name for a player.
    fn player_name(&self, player: Player) -> &'static str;
    /// The end of the game, if over.
    fn outcome(&self) -> Option<Outcome>;
    /// Every legal move, as text, in the generator's order.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a text move: the new position and what happened; this one is unchanged.
    fn apply(&self, mv: &str) -> Result<Applied, MoveError>;
    /// Static evaluation in centi-units from the side to move's view.
    fn evaluate(&self) -> i32;
    /// Searches with the game's searcher; moves in reports are text.
    fn search(
        &self,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<String>),
    ) -> Info<String>;
    /// Leaf count `depth` plies down; stops once `stop` is set.
    fn perft(&self, depth: u32, stop: &AtomicBool) -> Result<u64, PerftError>;
    /// Perft per legal move; stops once `stop` is set.
    fn perft_divide(&self, depth: u32, stop: &AtomicBool)
        -> Result<Vec<(String, u64)>, PerftError>;
    /// The concrete position, for translation into structured messages.
    fn as_any(&self) -> &dyn Any;
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn AnyPosition>;
}

impl Clone for Box<dyn AnyPosition> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The result of [`AnyPosition::apply`].
#[derive(Debug)]
pub struct Applied {
    /// The position after the move.
    pub position: Box<dyn AnyPosition>,
    /// The move as the game writes it (normalized).
    pub move_text: String,
    /// What happened.
    pub events: Vec<Event>,
}

/// Why a perft count has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftError {
    /// Not defined for this position (a view cannot list the opponent's moves).
    Undefined,
    /// Stopped by the caller's flag.
    Stopped,
}

/// Why a game or position could not be had by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogError {
    /// No game of that name.
    UnknownGame(String),
    /// The game has no such variant.
    UnknownVariant {
        /// The game's id.
        game: &'static str,
        /// The name asked for.
        variant: String,
        /// The variants the game has.
        known: Vec<&'static str>,
    },
    /// The position text is wrong.
    Setup(SetupError),
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::UnknownGame(g) => {
                let known: Vec<_> = ENTRIES.iter().map(|e| e.name).collect();
                write!(f, "unknown game {g:?} (known: {})", known.join(", "))
            }
            CatalogError::UnknownVariant {
                game,
                variant,
                known,
            } => write!(
                f,
                "game {game} has no variant {variant:?} (known: {})",
                known.join(", ")
            ),
            CatalogError::Setup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CatalogError {}

/// A boxed position, or why there is none.
pub type PositionResult = Result<Box<dyn AnyPosition>, CatalogError>;

/// One game's entry in the catalog.
pub struct Entry {
    /// The game's id.
    pub name: &'static str,
    /// A short help on the position text notation.
    pub position_help: &'static str,
    /// A short help on the move text notation.
    pub move_help: &'static str,
    pub(crate) variants: fn() -> Vec<&'static str>,
    pub(crate) players: fn() -> [&'static str; 2],
    pub(crate) start: fn(&str, u64) -> PositionResult,
    pub(crate) parse: fn(&str, &str) -> PositionResult,
}

impl Entry {
    /// What `ListGames` tells about this game.
    pub fn info(&self) -> GameInfo {
        GameInfo {
            name: self.name,
            variants: (self.variants)(),
            players: (self.players)(),
            position_help: self.position_help,
            move_help: self.move_help,
        }
    }
}

/// Every game Caber plays.
pub static ENTRIES: &[Entry] = &[
    perfect::<crate::tablut::Tablut>(crate::tablut::POSITION_HELP, crate::tablut::MOVE_HELP),
    perfect::<crate::almatafl::AlmaTafl>(
        crate::almatafl::POSITION_HELP,
        crate::almatafl::MOVE_HELP,
    ),
    Entry {
        name: "schotten-totten",
        position_help: crate::schotten_totten::any::POSITION_HELP,
        move_help: crate::schotten_totten::any::MOVE_HELP,
        variants: || variant_names::<crate::schotten_totten::FullState>(),
        players: || crate::schotten_totten::PLAYER_NAMES,
        start: crate::schotten_totten::any::start,
        parse: crate::schotten_totten::any::parse,
    },
];

/// What every game is, for `ListGames`.
pub fn games() -> Vec<GameInfo> {
    ENTRIES.iter().map(Entry::info).collect()
}

fn entry(game: &str) -> Result<&'static Entry, CatalogError> {
    ENTRIES
        .iter()
        .find(|e| e.name.eq_ignore_ascii_case(game.trim()))
        .ok_or_else(|| CatalogError::UnknownGame(game.to_string()))
}

/// The start position of a game's variant (`""` = the default variant).
pub fn new_game(
    game: &str,
    variant: &str,
    seed: u64,
) -> Result<Box<dyn AnyPosition>, CatalogError> {
    (entry(game)?.start)(variant, seed)
}

/// Reads a position of a game's variant from its text notation.
pub fn parse_position(
    game: &str,
    variant: &str,
    text: &str,
) -> Result<Box<dyn AnyPosition>, CatalogError> {
    (entry(game)?.parse)(variant, text)
}

/// The variant of `G` named `name`, or an error listing the known ones.
pub fn lookup_variant<G: Game>(name: &str) -> Result<G::Variant, CatalogError> {
    variant_by_name::<G>(name.trim()).ok_or_else(|| CatalogError::UnknownVariant {
        game: G::NAME,
        variant: name.to_string(),
        known: G::variants().iter().map(|(_, n)| *n).collect(),
    })
}

/// Boxes a position of a perfect-information game (searched by alpha-beta).
pub fn boxed<G: Game>(position: G) -> Box<dyn AnyPosition> {
    Box::new(Perfect(position))
}

/// The concrete position behind `p`, if it is a perfect-information `G`.
pub fn downcast<G: Game>(p: &dyn AnyPosition) -> Option<&G> {
    p.as_any().downcast_ref::<Perfect<G>>().map(|w| &w.0)
}

/// The catalog entry of a perfect-information game, searched by alpha-beta.
pub const fn perfect<G: Game>(position_help: &'static str, move_help: &'static str) -> Entry {
    Entry {
        name: G::NAME,
        position_help,
        move_help,
        variants: variant_names::<G>,
        players: || [G::player_name(Player::One), G::player_name(Player::Two)],
        start: |variant, seed| Ok(boxed(G::start(lookup_variant::<G>(variant)?, seed))),
        parse: |variant, text| {
            let v = lookup_variant::<G>(variant)?;
            G::from_notation(v, text.trim())
                .map(boxed)
                .map_err(CatalogError::Setup)
        },
    }
}

fn variant_names<G: Game>() -> Vec<&'static str> {
    G::variants().iter().map(|(_, n)| *n).collect()
}

/// A perfect-information game position behind [`AnyPosition`].
#[derive(Clone, Debug)]
struct Perfect<G: Game>(G);

/// Every legal move of `pos` as text, in the generator's order.
pub(crate) fn text_moves<G: Game>(pos: &G) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().map(|m| pos.move_to_text(m)).collect()
}

/// Plays a text move on `pos`, boxing the result with `wrap`.
pub(crate) fn apply_text<G: Game>(
    pos: &G,
    mv: &str,
    wrap: fn(G) -> Box<dyn AnyPosition>,
) -> Result<Applied, MoveError> {
    let parsed = pos.parse_move(mv)?;
    let after = pos.clone().play(&parsed).map_err(|e| e.error)?;
    Ok(Applied {
        move_text: pos.move_to_text(&parsed),
        events: pos.move_events(&parsed, &after),
        position: wrap(after),
    })
}

/// Perft below each legal move of `pos`; `Stopped` once `stop` is set.
pub(crate) fn perft_divide<G: Game>(
    pos: &G,
    depth: u32,
    stop: &AtomicBool,
) -> Result<Vec<(String, u64)>, PerftError> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|m| {
            let n = perft_until(&pos.play_unchecked(m), depth.saturating_sub(1), stop)
                .ok_or(PerftError::Stopped)?;
            Ok((pos.move_to_text(m), n))
        })
        .collect()
}

/// Maps every move of `info` to text by replaying each line from `pos`.
pub fn info_to_text<G: Game>(pos: &G, info: &Info<G::Move>) -> Info<String> {
    let mut out = info.map_moves(|_| String::new());
    for (line, src) in out.lines.iter_mut().zip(&info.lines) {
        let mut p = pos.clone();
        line.moves = src
            .moves
            .iter()
            .map(|m| {
                let text = p.move_to_text(m);
                p = p.play_unchecked(m);
                text
            })
            .collect();
    }
    out
}

impl<G: Game> AnyPosition for Perfect<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }
    fn variant(&self) -> &'static str {
        variant_name::<G>(self.0.variant())
    }
    fn notation(&self) -> String {
        self.0.to_notation()
    }
    fn diagram(&self) -> String {
        self.0.diagram()
    }
    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }
    fn player_name(&self, player: Player) -> &'static str {
        G::player_name(player)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn legal_moves(&self) -> Vec<String> {
        text_moves(&self.0)
    }
    fn apply(&self, mv: &str) -> Result<Applied, MoveError> {
        apply_text(&self.0, mv, boxed)
    }
    fn evaluate(&self) -> i32 {
        self.0.evaluate()
    }
    fn search(
        &self,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<String>),
    ) -> Info<String> {
        let result = alphabeta::search(&self.0, limits, stop, &mut |i| {
            progress(&info_to_text(&self.0, i))
        });
        info_to_text(&self.0, &result)
    }
    fn perft(&self, depth: u32, stop: &AtomicBool) -> Result<u64, PerftError> {
        perft_until(&self.0, depth, stop).ok_or(PerftError::Stopped)
    }
    fn perft_divide(
        &self,
        depth: u32,
        stop: &AtomicBool,
    ) -> Result<Vec<(String, u64)>, PerftError> {
        perft_divide(&self.0, depth, stop)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn AnyPosition> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_game_and_variant_are_named() {
        let e = new_game("chess", "", 0).unwrap_err();
        assert!(e.to_string().contains("unknown game \"chess\""), "{e}");
        let e = new_game("almatafl", "huge", 0).unwrap_err();
        assert!(
            matches!(&e, CatalogError::UnknownVariant { known, .. } if known.contains(&"standard")),
            "{e:?}"
        );
    }

    #[test]
    fn every_game_round_trips_its_start_position_through_text() {
        for info in games() {
            for variant in &info.variants {
                let start = new_game(info.name, variant, 7).unwrap();
                let again = parse_position(info.name, variant, &start.notation()).unwrap();
                assert_eq!(again.notation(), start.notation());
                assert_eq!(again.legal_moves(), start.legal_moves());
            }
        }
    }

    /// A set stop flag ends perft with `Stopped`; a clear one counts, and the
    /// divided counts add up to the total.
    #[test]
    fn perft_stops_when_asked() {
        let start = new_game("tablut", "", 0).unwrap();
        let (go, halt) = (AtomicBool::new(false), AtomicBool::new(true));
        let total = start.perft(2, &go).unwrap();
        let divided = start.perft_divide(2, &go).unwrap();
        assert_eq!(divided.len(), 80);
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), total);
        assert_eq!(start.perft(2, &halt), Err(PerftError::Stopped));
        assert_eq!(start.perft_divide(2, &halt), Err(PerftError::Stopped));
    }

    #[test]
    fn apply_leaves_the_position_unchanged_and_reports_the_move() {
        let start = new_game("almatafl", "", 0).unwrap();
        let before = start.notation();
        let applied = start.apply("b2-b3").unwrap();
        assert_eq!(applied.move_text, "B2-B3");
        assert_eq!(start.notation(), before);
        assert_ne!(applied.position.notation(), before);
        assert_eq!(applied.position.side_to_move(), Player::Two);
        assert!(matches!(start.apply("B2-B4"), Err(MoveError::Illegal(_))));
        assert!(matches!(start.apply("zz"), Err(MoveError::Notation(_))));
    }

    #[test]
    fn schotten_totten_full_state_and_view_answer_alike() {
        let full = new_game("schotten-totten", "tactics", 11).unwrap();
        let state = crate::schotten_totten::any::as_full_state(full.as_ref()).unwrap();
        let view_text = state.view(Player::One).to_notation();
        let view = parse_position("schotten-totten", "tactics", &view_text).unwrap();
        assert!(view.notation().starts_with("view:1"));
        assert_eq!(view.legal_moves(), full.legal_moves());
        let never = AtomicBool::new(false);
        assert_eq!(view.perft(1, &never), Err(PerftError::Undefined));
        assert_eq!(view.perft_divide(1, &never), Err(PerftError::Undefined));
        let limits = Limits {
            nodes: Some(300),
            seed: 5,
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let a = full.search(&limits, &stop, &mut |_| {});
        let b = view.search(&limits, &stop, &mut |_| {});
        assert!(a.best_move().is_some());
        assert_eq!(a.lines, b.lines);
        let mv = a.best_move().unwrap().clone();
        let after_view = view.apply(&mv).unwrap().position;
        let after_full = full.apply(&mv).unwrap().position;
        assert_eq!(after_view.side_to_move(), after_full.side_to_move());
        let err = after_view.apply(&after_full.legal_moves()[0]).unwrap_err();
        assert!(err.to_string().contains("not the viewer's"), "{err}");
    }
}
