//! Match statistics: the score of a series of games (1 a win, ½ a draw, 0 a
//! loss), the Elo difference it means with a 95 % interval, and the
//! sequential probability ratio test that stops a match once it has shown
//! whether one side is stronger (the generalized SPRT of Fishtest: the
//! likelihood of the win/draw/loss counts under the most likely outcome
//! distribution of each hypothesis' mean score).

/// A tally of one side's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Results {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score (0.5 with no game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n),
        }
    }

    /// The tally of two tallies together.
    pub fn plus(self, other: Results) -> Results {
        Results {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }
}

/// The Elo difference of a mean score (clamped away from 0 and 1).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference and its 95 % interval: the Wilson interval of the
/// mean score (sound at a score of 0 or 1 too, where the difference is
/// unbounded on one side).
pub fn elo_interval(t: &Results) -> (f64, f64, f64) {
    let n = f64::from(t.games().max(1));
    let (s, z) = (t.score(), 1.96);
    let centre = (s + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (s * (1.0 - s) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (elo(s), elo(centre - half), elo(centre + half))
}

/// Whether an Elo difference is past the clamp of [`elo`]: unbounded.
fn unbounded(elo: f64) -> bool {
    elo.abs() >= 1199.0
}

/// An Elo difference for people: `+95`, or `+inf` past the clamp of [`elo`].
pub fn shown(elo: f64) -> String {
    match (unbounded(elo), elo > 0.0) {
        (true, true) => "+inf".to_string(),
        (true, false) => "-inf".to_string(),
        // Adding 0 turns -0 into 0.
        (false, _) => format!("{:+.0}", elo.round() + 0.0),
    }
}

/// An Elo difference for JSON: a number, or `null` when unbounded.
pub fn json(elo: f64) -> Option<f64> {
    (!unbounded(elo)).then_some(elo)
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Not decided yet.
    Continue,
    /// The difference is at least elo1 (H1 accepted).
    Stronger,
    /// The difference is at most elo0 (H0 accepted).
    NotStronger,
}

/// A sequential probability ratio test of H0: Elo = elo0 against H1: Elo =
/// elo1 at error rates alpha = beta = 0.05.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
}

impl Sprt {
    /// The bounds of the log-likelihood ratio: below the first H0 holds,
    /// above the second H1.
    pub const BOUNDS: (f64, f64) = (-2.944_438_979_166_44, 2.944_438_979_166_44);

    /// The log-likelihood ratio of `t`: the counts' likelihood under the
    /// most likely loss/draw/win distribution whose mean score is that of
    /// elo1, over the same for elo0. Zero counts get a tiny pseudo-count, as
    /// Fishtest does, so that a run of wins alone decides too.
    pub fn llr(&self, t: &Results) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let counts = [t.losses, t.draws, t.wins].map(|c| f64::from(c).max(1e-3));
        let p0 = constrained_mle(counts, expected(self.elo0));
        let p1 = constrained_mle(counts, expected(self.elo1));
        (0..3)
            .filter(|&i| counts[i] >= 1.0)
            .map(|i| counts[i] * (p1[i] / p0[i]).ln())
            .sum()
    }

    /// The verdict on `t`.
    pub fn verdict(&self, t: &Results) -> Verdict {
        let llr = self.llr(t);
        if llr >= Self::BOUNDS.1 {
            Verdict::Stronger
        } else if llr <= Self::BOUNDS.0 {
            Verdict::NotStronger
        } else {
            Verdict::Continue
        }
    }
}

/// The scores of a loss, a draw and a win.
const OUTCOME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The distribution over loss/draw/win of mean score `mean` that makes
/// `counts` most likely: `p_i = q_i / (1 + λ (x_i - mean))` with the
/// observed frequencies `q_i` and `λ` found by bisection so that the mean
/// is `mean` (the function below falls as `λ` grows).
fn constrained_mle(counts: [f64; 3], mean: f64) -> [f64; 3] {
    let total: f64 = counts.iter().sum();
    let q = counts.map(|c| c / total);
    let excess = |lambda: f64| -> f64 {
        (0..3)
            .map(|i| {
                let d = OUTCOME_SCORES[i] - mean;
                q[i] * d / (1.0 + lambda * d)
            })
            .sum()
    };
    // Every 1 + λ (x_i - mean) stays positive inside these bounds.
    let (mut lo, mut hi) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if excess(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let p = (0..3).map(|i| q[i] / (1.0 + lambda * (OUTCOME_SCORES[i] - mean)));
    let p: Vec<f64> = p.collect();
    let sum: f64 = p.iter().sum();
    [p[0] / sum, p[1] / sum, p[2] / sum]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_expected_score_are_inverse() {
        assert!((elo(0.5)).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.01, "{}", elo(0.75));
        assert!((expected(elo(0.64)) - 0.64).abs() < 1e-9);
        assert!(elo(1.0).is_finite() && elo(0.0).is_finite());
        assert_eq!(shown(elo(0.5)), "+0");
    }

    #[test]
    fn the_interval_holds_the_estimate_and_shrinks_with_games() {
        let small = Results {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let big = Results {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let (e, lo, hi) = elo_interval(&small);
        assert!(lo < e && e < hi);
        let (e2, lo2, hi2) = elo_interval(&big);
        assert!((e - e2).abs() < 1e-9, "same score, same estimate");
        assert!(hi2 - lo2 < hi - lo);
        // All won of 4: Wilson's lower bound (1 + 0.4802 - 0.49) / 1.9604 = 0.5101.
        let (e, lo, hi) = elo_interval(&Results {
            wins: 4,
            draws: 0,
            losses: 0,
        });
        assert!((lo - elo(0.5101)).abs() < 0.5, "{lo}");
        assert_eq!(
            (shown(e), shown(hi)),
            ("+inf".to_string(), "+inf".to_string())
        );
        assert_eq!(shown(elo(0.25)), "-191");
    }

    #[test]
    fn sprt_decides_a_clear_difference_and_not_a_draw() {
        let test = Sprt {
            elo0: 0.0,
            elo1: 50.0,
        };
        let strong = Results {
            wins: 80,
            draws: 10,
            losses: 10,
        };
        assert_eq!(test.verdict(&strong), Verdict::Stronger);
        let weak = Results {
            wins: 30,
            draws: 20,
            losses: 50,
        };
        assert_eq!(test.verdict(&weak), Verdict::NotStronger);
        let few = Results {
            wins: 3,
            draws: 1,
            losses: 2,
        };
        assert_eq!(test.verdict(&few), Verdict::Continue);
        assert_eq!(test.llr(&Results::default()), 0.0);
        // Wins alone: each win multiplies the likelihood ratio by about
        // s1 / s0 = 0.5715 / 0.5, so 21 wins do not decide and 23 do.
        let wins = |n| Results {
            wins: n,
            draws: 0,
            losses: 0,
        };
        assert_eq!(test.verdict(&wins(21)), Verdict::Continue);
        assert_eq!(test.verdict(&wins(23)), Verdict::Stronger);
        let per_win = test.llr(&wins(10)) / 10.0;
        assert!(
            (per_win - (expected(50.0) / 0.5).ln()).abs() < 1e-3,
            "{per_win}"
        );
        // Equal strength: H0 is accepted in time.
        let even = Results {
            wins: 150,
            draws: 100,
            losses: 150,
        };
        assert_eq!(test.verdict(&even), Verdict::NotStronger);
    }
}
