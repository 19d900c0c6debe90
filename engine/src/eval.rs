//! Static evaluation, apart from the rules: what alpha-beta scores a leaf with
//! and what Monte Carlo search scores a cut-off playout with.

use std::fmt;
use std::ops::ControlFlow;

use crate::game::Game;
use crate::quote;

/// The range a weight may be set in: wide enough for any tuning, narrow
/// enough that no evaluation comes near a mate score.
pub const WEIGHT_RANGE: std::ops::RangeInclusive<i32> = -10_000..=10_000;

/// Weights a caller sets, as (name, value) pairs.
pub type WeightSettings = [(String, i32)];

/// An evaluation's named weights (centi-units), set by callers that tune it
/// (a match spec, a request's limits). Declared in this crate with the `weights!` macro.
pub trait Weights: Default {
    /// Each weight's name and default, in declaration order.
    const DEFAULTS: &'static [(&'static str, i32)];

    /// Sets the weight called `name`; false if there is none.
    fn set(&mut self, name: &str, value: i32) -> bool;
}

/// Declares a struct of `i32` weights with their defaults, its [`Default`]
/// and its [`Weights`] impl; a field's name is the weight's name.
macro_rules! weights {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[doc = $doc:literal])* $field:ident = $default:expr,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $name {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        impl $crate::eval::Weights for $name {
            const DEFAULTS: &'static [(&'static str, i32)] =
                &[$((stringify!($field), $default),)*];

            fn set(&mut self, name: &str, value: i32) -> bool {
                match name {
                    $(stringify!($field) => self.$field = value,)*
                    _ => return false,
                }
                true
            }
        }
    };
}
pub(crate) use weights;

/// Weights a request named that an evaluation does not take, or values
/// outside [`WEIGHT_RANGE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightError {
    /// No weight of this name; `known` lists the names there are.
    Unknown {
        /// The name asked for.
        name: String,
        /// The weights there are.
        known: Vec<&'static str>,
    },
    /// A value outside [`WEIGHT_RANGE`].
    OutOfRange {
        /// The weight's name.
        name: String,
        /// The value asked for.
        value: i32,
    },
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightError::Unknown { name, known } if known.is_empty() => {
                write!(
                    f,
                    "unknown weight {}: this searcher takes no weights",
                    quote(name)
                )
            }
            WeightError::Unknown { name, known } => {
                write!(
                    f,
                    "unknown weight {} (known: {})",
                    quote(name),
                    known.join(", ")
                )
            }
            // Only a known weight's value is checked: its name is short.
            WeightError::OutOfRange { name, value } => write!(
                f,
                "weight {name}={value} is outside {}..={}",
                WEIGHT_RANGE.start(),
                WEIGHT_RANGE.end()
            ),
        }
    }
}

impl std::error::Error for WeightError {}

/// Checks `weights` (name, value) against the names of `known` (name,
/// default) and [`WEIGHT_RANGE`].
pub fn check_weights(
    known: &[(&'static str, i32)],
    weights: &[(String, i32)],
) -> Result<(), WeightError> {
    for (name, value) in weights {
        if !known.iter().any(|(k, _)| k == name) {
            return Err(WeightError::Unknown {
                name: name.clone(),
                known: known.iter().map(|(k, _)| *k).collect(),
            });
        }
        if !WEIGHT_RANGE.contains(value) {
            return Err(WeightError::OutOfRange {
                name: name.clone(),
                value: *value,
            });
        }
    }
    Ok(())
}

/// `E`'s default evaluation with `weights` set, once [`check_weights`]
/// passed them (it ignores names `E` does not have).
pub fn weighted<G: Game, E: Evaluator<G> + Default>(weights: &[(String, i32)]) -> E {
    let mut evaluator = E::default();
    for (name, value) in weights {
        evaluator.set_weight(name, *value);
    }
    evaluator
}

/// A heuristic value of a position.
pub trait Evaluator<G: Game>: Send + Sync {
    /// Whether [`Evaluator::move_hint`] or [`Evaluator::must_answer`] may say
    /// anything. Without hints the quiescence search is the static value
    /// alone, and the horizon lists no moves.
    const HINTS: bool = false;

    /// The weights [`Evaluator::set_weight`] takes, with their defaults (by
    /// default none).
    const WEIGHTS: &'static [(&'static str, i32)] = &[];

    /// Sets the weight called `name` (one of [`Evaluator::WEIGHTS`]); false
    /// if there is none.
    fn set_weight(&mut self, _name: &str, _value: i32) -> bool {
        false
    }

    /// The value in centi-units from the side to move's view (positive: good
    /// for the side to move). Need not handle finished games.
    fn evaluate(&self, pos: &G) -> i32;

    /// How urgent a legal move of `pos` is: above 0 for moves worth trying
    /// first (captures, a win), larger for more urgent ones, below 2^20.
    /// Alpha-beta searches such moves right after the hash move.
    fn move_hint(&self, _pos: &G, _mv: &G::Move) -> i32 {
        0
    }

    /// Calls `f` with each legal move of `pos` that [`Evaluator::move_hint`]
    /// rates above 0, and its hint, in [`Game::generate`]'s order (same
    /// preconditions). The quiescence search follows these moves. The default
    /// rates every move; an evaluator that can skip moves that cannot be
    /// urgent overrides it.
    fn hinted_moves<F: FnMut(G::Move, i32)>(&self, pos: &G, mut f: F) {
        let _ = pos.generate(|mv| {
            let hint = self.move_hint(pos, &mv);
            if hint > 0 {
                f(mv, hint);
            }
            ControlFlow::Continue(())
        });
    }

    /// Whether the side to move faces a threat its static value ignores (in
    /// tafl: the king one move from escaping), so the quiescence search may
    /// not stand pat: it searches the hinted moves (the answers), or every
    /// move when none is hinted.
    fn must_answer(&self, _pos: &G) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Debug;

    use super::{check_weights, weighted, Evaluator, WeightError, Weights};
    use crate::almatafl::{self, AlmaTafl};
    use crate::game::Game;
    use crate::tablut::{self, Tablut};
    use crate::tartan::{self, Tartan};

    weights! {
        struct Two {
            a = 1,
            b = -2,
        }
    }

    #[test]
    fn weights_are_declared_named_and_set() {
        assert_eq!(Two::DEFAULTS, &[("a", 1), ("b", -2)]);
        let mut two = Two::default();
        assert_eq!((two.a, two.b), (1, -2));
        assert!(two.set("b", 5));
        assert_eq!((two.a, two.b), (1, 5));
        assert!(!two.set("c", 5));
    }

    #[test]
    fn weights_are_checked_by_name_and_range() {
        let known = Two::DEFAULTS;
        let ok = [("b".to_string(), -10_000), ("a".to_string(), 10_000)];
        assert_eq!(check_weights(known, &ok), Ok(()));
        let unknown = check_weights(known, &[("c".into(), 1)]).unwrap_err();
        assert_eq!(unknown.to_string(), "unknown weight \"c\" (known: a, b)");
        let far = check_weights(known, &[("a".into(), 10_001)]).unwrap_err();
        assert_eq!(
            far,
            WeightError::OutOfRange {
                name: "a".into(),
                value: 10_001
            }
        );
        assert_eq!(far.to_string(), "weight a=10001 is outside -10000..=10000");
        let none = check_weights(&[], &[("a".into(), 1)]).unwrap_err();
        assert_eq!(
            none.to_string(),
            "unknown weight \"a\": this searcher takes no weights"
        );
    }

    /// Each weight an evaluation lists has a unique name, starts at its
    /// listed default and can be set to another value.
    fn takes_what_it_lists<G: Game, E: Evaluator<G> + Default + PartialEq + Debug>() {
        let names: Vec<&str> = E::WEIGHTS.iter().map(|(n, _)| *n).collect();
        assert!(!names.is_empty());
        for (i, &(name, default)) in E::WEIGHTS.iter().enumerate() {
            assert!(!names[..i].contains(&name), "{name} twice");
            let same = weighted::<G, E>(&[(name.to_string(), default)]);
            assert_eq!(same, E::default(), "{name}");
            let other = weighted::<G, E>(&[(name.to_string(), default + 1)]);
            assert_ne!(other, E::default(), "{name}");
        }
        assert!(!E::default().set_weight("no_such_weight", 1));
    }

    #[test]
    fn every_evaluation_takes_the_weights_it_lists() {
        takes_what_it_lists::<Tablut, tablut::Evaluation>();
        takes_what_it_lists::<AlmaTafl, almatafl::Evaluation>();
        takes_what_it_lists::<Tartan, tartan::Evaluation>();
    }
}
