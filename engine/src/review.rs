//! Game review as players know it from Lichess: each move judged by the
//! win probability it gave away (from the mover's view, the searched value
//! of the position before the move against the searched value after it).
//!
//! A loss of at least [`INACCURACY`] is an inaccuracy, [`MISTAKE`] a
//! mistake, [`BLUNDER`] a blunder. A move's accuracy is Lichess' formula on
//! win percentages, `103.1668 e^(-0.04354 (before - after)) - 3.1669`,
//! clamped to 0..100 (100 for a move that loses nothing); a player's
//! accuracy is the mean over their moves.

use crate::game::Player;

/// The least win-probability loss of an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// The least win-probability loss of a mistake.
pub const MISTAKE: f64 = 0.20;
/// The least win-probability loss of a blunder.
pub const BLUNDER: f64 = 0.30;

/// What a move's loss makes of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// Lost less than [`INACCURACY`].
    Good,
    /// Lost at least [`INACCURACY`].
    Inaccuracy,
    /// Lost at least [`MISTAKE`].
    Mistake,
    /// Lost at least [`BLUNDER`].
    Blunder,
}

impl Judgement {
    /// The judgement of a move that lost `loss` win probability.
    pub fn of(loss: f64) -> Judgement {
        if loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else if loss >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    /// Its name, in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Good => "good",
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A move's accuracy in percent, from the mover's win probability before
/// and after it (0..1 each).
pub fn accuracy(before: f64, after: f64) -> f64 {
    let lost = 100.0 * (before - after);
    if lost <= 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * lost).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One player's moves in a review.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Moves judged.
    pub moves: u32,
    /// Sum of their accuracies.
    pub accuracy_sum: f64,
    /// Inaccuracies, mistakes and blunders.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
}

impl Tally {
    /// Counts a move that took the mover's win probability from `before` to `after`.
    pub fn add(&mut self, before: f64, after: f64) -> Judgement {
        let judgement = Judgement::of(before - after);
        self.moves += 1;
        self.accuracy_sum += accuracy(before, after);
        match judgement {
            Judgement::Good => {}
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
        }
        judgement
    }

    /// The mean accuracy in percent (100 with no move).
    pub fn accuracy(&self) -> f64 {
        match self.moves {
            0 => 100.0,
            n => self.accuracy_sum / f64::from(n),
        }
    }
}

/// Both players' tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tallies([Tally; 2]);

impl Tallies {
    /// A player's tally.
    pub fn of(&self, player: Player) -> &Tally {
        &self.0[player.index()]
    }

    /// Counts a move of `player` (see [`Tally::add`]).
    pub fn add(&mut self, player: Player, before: f64, after: f64) -> Judgement {
        self.0[player.index()].add(before, after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_judged_by_the_thresholds() {
        assert_eq!(Judgement::of(0.0), Judgement::Good);
        assert_eq!(Judgement::of(0.099), Judgement::Good);
        assert_eq!(Judgement::of(0.10), Judgement::Inaccuracy);
        assert_eq!(Judgement::of(0.2), Judgement::Mistake);
        assert_eq!(Judgement::of(0.31), Judgement::Blunder);
        assert_eq!(Judgement::of(-0.5), Judgement::Good, "a gain");
    }

    #[test]
    fn accuracy_follows_lichess_formula() {
        assert_eq!(accuracy(0.6, 0.7), 100.0);
        assert_eq!(accuracy(0.5, 0.5), 100.0);
        // 10 percentage points lost: 103.1668 e^-0.4354 - 3.1669 = 63.58.
        assert!(
            (accuracy(0.6, 0.5) - 63.58).abs() < 0.01,
            "{}",
            accuracy(0.6, 0.5)
        );
        assert_eq!(accuracy(1.0, 0.0), 0.0);
    }

    #[test]
    fn tallies_count_per_player() {
        let mut t = Tallies::default();
        assert_eq!(t.add(Player::One, 0.5, 0.1), Judgement::Blunder);
        assert_eq!(t.add(Player::One, 0.5, 0.45), Judgement::Good);
        assert_eq!(t.add(Player::Two, 0.9, 0.75), Judgement::Inaccuracy);
        let one = t.of(Player::One);
        assert_eq!((one.moves, one.blunders, one.mistakes), (2, 1, 0));
        assert!(one.accuracy() < 100.0 && one.accuracy() > 0.0);
        assert_eq!(t.of(Player::Two).inaccuracies, 1);
        assert_eq!(Tally::default().accuracy(), 100.0);
    }
}
