//! How a score reads as a win probability: a logistic curve in centi-units,
//! fitted per game and variant to self-play results where that was done
//! (`scripts/calibrate.py`; the fits and their checks are in
//! docs/MEASUREMENTS.md), [`WinCurve::UNFITTED`] elsewhere.

use super::Score;
use crate::game::Player;

/// A player's expected score (a win 1, a draw one half) given a score from
/// its view: `1 / (1 + exp(-(centi + offset) / scale))`, the offset
/// Player Two's and the opposite Player One's (what a side's results are
/// worth beyond its evaluation). A forced result is certain, a proven draw
/// one half.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinCurve {
    scale: f64,
    two_offset: f64,
}

impl WinCurve {
    /// 400 centi-units per unit of log-odds, no side favoured: the curve of
    /// a game not fitted, and the one the Monte Carlo searchers turn their
    /// win rates into centi-units by (so it gives their rates back).
    pub const UNFITTED: WinCurve = WinCurve::new(400.0, 0.0);

    /// The curve with `scale` centi-units per unit of log-odds (positive)
    /// and Player Two's results worth `two_offset` centi-units more than
    /// its evaluation says.
    pub const fn new(scale: f64, two_offset: f64) -> WinCurve {
        WinCurve { scale, two_offset }
    }

    /// `viewer`'s expected score given `score` from its view.
    pub fn probability(&self, score: Score, viewer: Player) -> f64 {
        match score {
            Score::Mate(n) if n >= 0 => 1.0,
            Score::Mate(_) => 0.0,
            Score::Draw => 0.5,
            Score::Centi(cp) => {
                let offset = match viewer {
                    Player::One => -self.two_offset,
                    Player::Two => self.two_offset,
                };
                1.0 / (1.0 + (-(f64::from(cp) + offset) / self.scale).exp())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand: at 0 centi-units the unfitted curve says one half;
    /// one scale above, 1 / (1 + e^-1) = 0.7311; the offset moves the
    /// middle to where the favoured side's evaluation is minus the offset,
    /// and both sides' probabilities of one position add up to 1.
    #[test]
    fn the_curve_is_logistic_with_the_offset_for_player_two() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-4;
        let unfitted = WinCurve::UNFITTED;
        assert_eq!(unfitted.probability(Score::Centi(0), Player::One), 0.5);
        assert!(close(
            unfitted.probability(Score::Centi(400), Player::Two),
            0.7311
        ));
        let curve = WinCurve::new(200.0, 100.0);
        assert_eq!(curve.probability(Score::Centi(-100), Player::Two), 0.5);
        assert_eq!(curve.probability(Score::Centi(100), Player::One), 0.5);
        assert!(close(
            curve.probability(Score::Centi(100), Player::Two),
            0.7311
        ));
        for cp in [-700, -30, 0, 250] {
            let two = curve.probability(Score::Centi(cp), Player::Two);
            let one = curve.probability(Score::Centi(-cp), Player::One);
            assert!(close(one + two, 1.0), "{cp}");
        }
        assert_eq!(curve.probability(Score::Mate(3), Player::One), 1.0);
        assert_eq!(curve.probability(Score::Mate(-2), Player::Two), 0.0);
        assert_eq!(curve.probability(Score::Draw, Player::Two), 0.5);
    }

    /// The unfitted curve gives a Monte Carlo searcher's rate back.
    #[test]
    fn the_unfitted_curve_inverts_the_rate_to_score_mapping() {
        for p in [0.01, 0.2, 0.5, 0.77, 0.99] {
            let back = WinCurve::UNFITTED.probability(Score::from_win_probability(p), Player::One);
            assert!((back - p).abs() < 1e-3, "{p}: {back}");
        }
    }
}
