//! Searchers generic over [`crate::Game`], and what they report.
//!
//! Every searcher takes [`Limits`], a stop flag that another thread may set at
//! any time, and a progress callback; it returns exactly one final [`Info`].

use std::time::Duration;

pub mod alphabeta;
mod clock;
pub mod mcts;
mod ordering;
mod tt;

#[cfg(test)]
mod tests;

/// Scores at or beyond this magnitude (in centi-units) encode a forced result.
pub const MATE: i32 = 1_000_000;
/// Any score at least this large in magnitude is a forced result.
pub const MATE_BOUND: i32 = MATE - 10_000;

/// How far and how long to search. `None` means no limit of that kind; a
/// search with no limit at all runs until stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Maximum wall-clock time.
    pub movetime: Option<Duration>,
    /// Number of principal variations to report (at least 1).
    pub multipv: usize,
    /// Call the progress callback at least this often (besides once per completed depth).
    pub report_every: Option<Duration>,
    /// Seed for searchers that use randomness.
    pub seed: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            multipv: 1,
            report_every: None,
            seed: 0,
        }
    }
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic value in centi-units (100 = about one soldier's worth).
    Centi(i32),
    /// A forced result in this many plies: positive, the side to move wins;
    /// negative, it loses.
    Mate(i32),
    /// A forced draw (or a solved draw).
    Draw,
}

impl Score {
    /// Converts an internal search value (with `MATE - ply` encoding) to a score.
    pub fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate(MATE - v)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v))
        } else {
            Score::Centi(v)
        }
    }

    /// A win probability for the side to move (logistic in centi-units).
    pub fn win_probability(self) -> f64 {
        match self {
            Score::Mate(n) if n >= 0 => 1.0,
            Score::Mate(_) => 0.0,
            Score::Draw => 0.5,
            Score::Centi(cp) => 1.0 / (1.0 + (-(cp as f64) / 400.0).exp()),
        }
    }

    /// A single number for ordering: mates beyond every centi-unit value.
    pub fn as_value(self) -> i32 {
        match self {
            Score::Centi(v) => v,
            Score::Draw => 0,
            Score::Mate(n) if n >= 0 => MATE - n,
            Score::Mate(n) => -MATE - n,
        }
    }
}

/// One principal variation.
#[derive(Clone, Debug, PartialEq)]
pub struct Line<M> {
    /// The score of the line's first move, from the side to move's view.
    pub score: Score,
    /// The moves, first the one to play now.
    pub moves: Vec<M>,
    /// For sampling searchers: how often the first move was visited (0 otherwise).
    pub visits: u64,
}

/// Progress of a search, and its final report.
#[derive(Clone, Debug, PartialEq)]
pub struct Info<M> {
    /// Last completed nominal depth (iterations for sampling searchers).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Best lines, best first (up to `multipv`); empty only if there is no legal move.
    pub lines: Vec<Line<M>>,
    /// Whether a limit was hit or the stop flag set (rather than the search being complete).
    pub stopped: bool,
}

impl<M> Info<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }

    /// The move the search recommends.
    pub fn best_move(&self) -> Option<&M> {
        self.lines.first().and_then(|l| l.moves.first())
    }

    /// The score of the best line.
    pub fn score(&self) -> Option<Score> {
        self.lines.first().map(|l| l.score)
    }

    /// The same report with every move mapped (e.g. to text).
    pub fn map_moves<N>(&self, mut f: impl FnMut(&M) -> N) -> Info<N> {
        Info {
            depth: self.depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            elapsed: self.elapsed,
            stopped: self.stopped,
            lines: self
                .lines
                .iter()
                .map(|l| Line {
                    score: l.score,
                    visits: l.visits,
                    moves: l.moves.iter().map(&mut f).collect(),
                })
                .collect(),
        }
    }
}
