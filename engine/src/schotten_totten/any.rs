//! Schotten Totten behind [`AnyPosition`]: a referee's full state or a
//! player's view, both searched with ISMCTS from the side to move's knowledge.

use std::any::Any;
use std::sync::atomic::AtomicBool;

use super::{ismcts, FullState, Variant, View, PLAYER_NAMES};
use crate::catalog::{
    apply_text, lookup_variant, perft_divide, text_moves, AnyPosition, Applied, CatalogError,
    PerftError, PositionResult,
};
use crate::game::{perft_until, variant_name, Game, MoveError, Outcome, Player};
use crate::search::{Info, Limits};

/// A short help on the position notation (for `ListGames`).
pub const POSITION_HELP: &str = "a full state ('full turn:1 pass:0 tc:0,0 st:... h1:... h2:... \
dc:... dt:... x:...', the referee's) or a player's view ('view:1 ...', unknown cards '?', \
decks as sizes); stones st: as first-side:modes:second-side:claim separated by '/'; cards \
G5 (colour G B R Y P K + rank) or JOKER SPY SHIELD BLIND MUD RECRUITER STRATEGIST BANSHEE TRAITOR";

/// A short help on the move notation (for `ListGames`).
pub const MOVE_HELP: &str = "parts separated by spaces: p:G5@3 (play on stone 3), \
p:STRATEGIST:G5@3>5, p:BANSHEE:R2@4, p:TRAITOR:R2@4>6, p:RECRUITER:2+1 then r:G5,SPY, \
x:SPY (discard), pass; c:3,4 (claim stones); d:clan or d:tactic (deck to draw from)";

/// Reads a full state (`full ...`) or a view (`view:N ...`).
pub fn parse(variant: &str, text: &str) -> PositionResult {
    let v = lookup_variant::<FullState>(variant)?;
    let text = text.trim();
    if text.starts_with("view") {
        View::from_notation(v, text)
            .map(|view| Box::new(ViewPosition(view)) as Box<dyn AnyPosition>)
            .map_err(CatalogError::Setup)
    } else {
        FullState::from_notation(v, text)
            .map(|s| Box::new(Referee(s)) as Box<dyn AnyPosition>)
            .map_err(CatalogError::Setup)
    }
}

/// The start of a variant, dealt from `seed`.
pub fn start(variant: &str, seed: u64) -> PositionResult {
    let v: Variant = lookup_variant::<FullState>(variant)?;
    Ok(Box::new(Referee(FullState::start(v, seed))))
}

/// The concrete full state behind `p`, if it is one.
pub fn as_full_state(p: &dyn AnyPosition) -> Option<&FullState> {
    p.as_any().downcast_ref::<Referee>().map(|r| &r.0)
}

/// The concrete view behind `p`, if it is one.
pub fn as_view(p: &dyn AnyPosition) -> Option<&View> {
    p.as_any().downcast_ref::<ViewPosition>().map(|r| &r.0)
}

/// Boxes a full state.
pub fn boxed_full(state: FullState) -> Box<dyn AnyPosition> {
    Box::new(Referee(state))
}

/// Boxes a view.
pub fn boxed_view(view: View) -> Box<dyn AnyPosition> {
    Box::new(ViewPosition(view))
}

/// A referee's full state.
#[derive(Clone, Debug)]
struct Referee(FullState);

/// A player's view.
#[derive(Clone, Debug)]
struct ViewPosition(View);

fn search_view(
    view: &View,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info<String>),
) -> Info<String> {
    let text = |i: &Info<super::Move>| i.map_moves(|m| view.move_to_text(m));
    let result = ismcts::search(view, limits, stop, &mut |i| progress(&text(i)));
    text(&result)
}

impl AnyPosition for Referee {
    fn game(&self) -> &'static str {
        FullState::NAME
    }
    fn variant(&self) -> &'static str {
        variant_name::<FullState>(self.0.variant())
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
        PLAYER_NAMES[player.index()]
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn legal_moves(&self) -> Vec<String> {
        text_moves(&self.0)
    }
    fn apply(&self, mv: &str) -> Result<Applied, MoveError> {
        apply_text(&self.0, mv, boxed_full)
    }
    fn evaluate(&self) -> i32 {
        self.0.evaluate()
    }
    /// Searches from the side to move's view only: the referee's hidden
    /// cards are never used.
    fn search(
        &self,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<String>),
    ) -> Info<String> {
        search_view(&self.0.view(self.0.side_to_move()), limits, stop, progress)
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

impl AnyPosition for ViewPosition {
    fn game(&self) -> &'static str {
        FullState::NAME
    }
    fn variant(&self) -> &'static str {
        variant_name::<FullState>(self.0.board().variant)
    }
    fn notation(&self) -> String {
        self.0.to_notation()
    }
    fn diagram(&self) -> String {
        self.0.diagram(false)
    }
    fn side_to_move(&self) -> Player {
        self.0.board().to_move
    }
    fn player_name(&self, player: Player) -> &'static str {
        PLAYER_NAMES[player.index()]
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    /// The viewer's moves; nothing when the opponent is to move.
    fn legal_moves(&self) -> Vec<String> {
        self.0
            .legal_moves()
            .iter()
            .map(|m| self.0.move_to_text(m))
            .collect()
    }
    fn apply(&self, mv: &str) -> Result<Applied, MoveError> {
        if self.0.outcome().is_none() && self.0.board().to_move != self.0.viewer() {
            return Err(MoveError::Illegal(format!(
                "it is {}'s turn, not the viewer's ({}): apply it on the full state",
                PLAYER_NAMES[self.0.board().to_move.index()],
                PLAYER_NAMES[self.0.viewer().index()]
            )));
        }
        let parsed = self.0.parse_move(mv)?;
        let after = self.0.clone().play(&parsed).map_err(|e| e.error)?;
        Ok(Applied {
            move_text: self.0.move_to_text(&parsed),
            events: Vec::new(),
            position: boxed_view(after),
        })
    }
    /// Stone difference from the side to move's view (what the view shows).
    fn evaluate(&self) -> i32 {
        let b = self.0.board();
        let me = b.to_move;
        (b.stones_of(me) as i32 - b.stones_of(me.opponent()) as i32) * 100
    }
    fn search(
        &self,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<String>),
    ) -> Info<String> {
        search_view(&self.0, limits, stop, progress)
    }
    /// Not defined: a view cannot list the opponent's moves.
    fn perft(&self, _depth: u32, _stop: &AtomicBool) -> Result<u64, PerftError> {
        Err(PerftError::Undefined)
    }
    fn perft_divide(
        &self,
        _depth: u32,
        _stop: &AtomicBool,
    ) -> Result<Vec<(String, u64)>, PerftError> {
        Err(PerftError::Undefined)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn AnyPosition> {
        Box::new(self.clone())
    }
}
