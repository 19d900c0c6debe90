//! Searchers behind one trait ([`Searcher`]), and what they report.
//!
//! Every searcher takes [`Limits`], a stop flag that another thread may set at
//! any time, and a progress callback; it returns exactly one final [`Info`].
//! Alpha-beta ([`alphabeta`]) and Monte Carlo tree search ([`mcts`]) search
//! perfect-information games with an evaluator; information-set MCTS
//! ([`ismcts`]) searches what one player knows, with a game's policy. A game
//! lists the searchers that fit it through [`Searchable`].
//!
//! A referee's full state of a game with hidden information is not a search
//! root: it is no [`InformationSet`], so this does not compile.
//!
//! ```compile_fail
//! use caber_engine::schotten_totten::FullState;
//! use caber_engine::search::{alphabeta::AlphaBeta, Searcher};
//! use caber_engine::tablut::Evaluation;
//! use caber_engine::Played;
//!
//! let searcher: Box<dyn Searcher<Played<FullState>>> =
//!     Box::new(AlphaBeta::new(1, Evaluation::default()));
//! ```
//!
//! What the side to move knows of it is one (its view), for ISMCTS:
//!
//! ```
//! use caber_engine::schotten_totten::{search, View};
//! use caber_engine::search::Searcher;
//!
//! let searcher: Box<dyn Searcher<View>> = Box::new(search::searcher());
//! ```

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::{check_weights, weighted, Evaluator, WeightError, WeightSettings};
use crate::game::{PerfectInformation, Player};
use crate::information::InformationSet;
use crate::playable::Playable;
use crate::played::{Notation, Played};

pub use arena::DEFAULT_TREE_MB;
pub use ordering::move_key;
pub use win_curve::WinCurve;

pub mod alphabeta;
mod arena;
mod clock;
pub mod ismcts;
pub mod mcts;
mod ordering;
mod tt;
mod win_curve;

/// A search algorithm over roots of type `R`.
pub trait Searcher<R: InformationSet>: Send {
    /// Searches `root` within `limits` until done or `stop` is set, calling
    /// `progress` with reports on the way; returns the final report.
    fn search(
        &mut self,
        root: &R,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info<R::Move>),
    ) -> Info<R::Move>;

    /// Searches `root` for its value, whoever is to move: unlike
    /// [`Searcher::search`], also when its viewer is not to move (the other
    /// side's replies then as the viewer can expect them, scored from that
    /// side's view). A review values a move so, from what its mover knew.
    /// By default the search itself.
    fn value(&mut self, root: &R, limits: &Limits, stop: &AtomicBool) -> Info<R::Move> {
        self.search(root, limits, stop, &mut |_| {})
    }
}

/// A searcher a game offers, by name.
pub struct SearcherInfo<R: InformationSet> {
    /// The name requests use, e.g. `"alphabeta"`.
    pub name: &'static str,
    /// Other names requests may use for it (presets known elsewhere, e.g.
    /// `"uct-baseline"`).
    pub aliases: &'static [&'static str],
    /// One line on what it is.
    pub about: &'static str,
    /// Whether a depth limit ends its search; one without it (MCTS) must be
    /// given nodes or a movetime instead, or it would run to its time cap.
    pub by_depth: bool,
    /// Whether it has a transposition table: [`Limits::table_mb`] sizes it,
    /// and the same searcher searching again starts from what it holds.
    pub table: bool,
    /// The evaluation weights it takes, with their defaults (see
    /// [`Evaluator::WEIGHTS`]).
    pub weights: &'static [(&'static str, i32)],
    /// A fresh searcher with the given weights set; [`SearcherInfo::check`]
    /// them first (names it does not take are ignored).
    pub build: fn(&WeightSettings) -> Box<dyn Searcher<R>>,
}

impl<R: InformationSet> SearcherInfo<R> {
    /// Whether `name` (any case) is its name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        std::iter::once(&self.name)
            .chain(self.aliases)
            .any(|n| n.eq_ignore_ascii_case(name))
    }

    /// Whether this searcher takes `weights` (name, value): names among its
    /// [`SearcherInfo::weights`], values in [`WEIGHT_RANGE`](crate::eval::WEIGHT_RANGE).
    pub fn check(&self, weights: &[(String, i32)]) -> Result<(), WeightError> {
        check_weights(self.weights, weights)
    }
}

/// A position that can be searched and evaluated: what it is searched from
/// and by which searchers.
pub trait Searchable: Playable {
    /// What the searchers search: the position itself, or what the side to
    /// move knows of it.
    type Root: InformationSet<Move = Self::Move>;

    /// Whether players know less than the whole position (hidden cards): a
    /// position then has one search root per player.
    const HIDDEN_INFORMATION: bool = false;

    /// The root of a search from what `viewer` knows of this position,
    /// whoever is to move (the position itself when nothing is hidden).
    fn search_root_of(&self, viewer: Player) -> Self::Root;

    /// The root of a search from this position (the side to move's knowledge).
    fn search_root(&self) -> Self::Root {
        self.search_root_of(self.side_to_move())
    }

    /// The searchers of this game, the best first (the default).
    fn searchers() -> &'static [SearcherInfo<Self::Root>];

    /// The static evaluation in centi-units, from the side to move's view:
    /// the default searcher's, with `weights` set (checked by its
    /// [`SearcherInfo::check`]).
    fn static_evaluation(&self, weights: &[(String, i32)]) -> i32;

    /// How this position's scores read as win probabilities: its game's and
    /// variant's fitted curve, or [`WinCurve::UNFITTED`].
    fn win_curve(&self) -> WinCurve {
        WinCurve::UNFITTED
    }
}

/// How a perfect-information game is searched: its evaluation and its
/// searchers, the best first ([`standard_searchers`] gives the usual ones).
pub trait PerfectSearch: PerfectInformation + Notation {
    /// The evaluation alpha-beta scores leaves with and MCTS cut-off playouts.
    type Evaluation: Evaluator<Self> + Default + Send + Sync + 'static;

    /// The searchers of the game, the default first.
    fn searchers() -> &'static [SearcherInfo<Played<Self>>];

    /// How scores of this position read as win probabilities (see
    /// [`Searchable::win_curve`]).
    fn win_curve(&self) -> WinCurve {
        WinCurve::UNFITTED
    }
}

/// Alpha-beta with the game's evaluation (the default), and Monte Carlo tree
/// search with uniformly random playouts.
pub const fn standard_searchers<G: PerfectSearch>() -> [SearcherInfo<Played<G>>; 2] {
    [
        SearcherInfo {
            name: "alphabeta",
            aliases: &[],
            about: "iterative-deepening alpha-beta with a transposition table",
            by_depth: true,
            table: true,
            weights: <G::Evaluation as Evaluator<G>>::WEIGHTS,
            build: |weights| {
                Box::new(alphabeta::AlphaBeta::new(
                    alphabeta::DEFAULT_TT_MB,
                    weighted::<G, G::Evaluation>(weights),
                ))
            },
        },
        SearcherInfo {
            name: "mcts",
            // Plain UCT as general game systems ship it: the baseline our
            // matches measure against.
            aliases: &["uct-baseline"],
            about: "Monte Carlo tree search (UCT) with uniformly random playouts",
            by_depth: false,
            table: false,
            weights: <G::Evaluation as Evaluator<G>>::WEIGHTS,
            build: |weights| Box::new(mcts::Mcts::new(weighted::<G, G::Evaluation>(weights))),
        },
    ]
}

/// A perfect-information position is its own search root.
impl<G: PerfectSearch> Searchable for Played<G> {
    type Root = Played<G>;

    fn search_root_of(&self, _viewer: Player) -> Self {
        self.clone()
    }

    fn searchers() -> &'static [SearcherInfo<Self>] {
        G::searchers()
    }

    fn static_evaluation(&self, weights: &[(String, i32)]) -> i32 {
        weighted::<G, G::Evaluation>(weights).evaluate(self.position())
    }

    fn win_curve(&self) -> WinCurve {
        self.position().win_curve()
    }
}

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
    /// An instant the search ends by, whatever its movetime: a caller's
    /// deadline, against which the time before the search starts (building
    /// the searcher, a wait for a thread) counts too.
    pub deadline: Option<Instant>,
    /// Number of principal variations to report (at least 1).
    pub multipv: usize,
    /// Call the progress callback at least this often (besides once per completed depth).
    pub report_every: Option<Duration>,
    /// Seed for searchers that use randomness.
    pub seed: u64,
    /// Threads to search on (at least 1; alpha-beta uses them, the Monte
    /// Carlo searchers search on one).
    pub threads: usize,
    /// The transposition table's size in MB for a searcher that has one
    /// ([`SearcherInfo::table`]); a searcher whose table has another size
    /// makes a new, empty one. 0: keep the table as it is. For the Monte
    /// Carlo searchers, the most their tree may take (0: [`DEFAULT_TREE_MB`]).
    pub table_mb: usize,
    /// The root moves to search, by [`move_key`] (UCI's `searchmoves`);
    /// empty: every legal move. Keys that name no legal move are ignored;
    /// when none names one, every move is searched.
    pub root_moves: Vec<u64>,
}

impl Limits {
    /// Keeps in `moves` (the root's, in order) those `root_moves` names, if
    /// it names any of them.
    pub fn restrict_root<M: std::hash::Hash>(&self, moves: &mut Vec<M>) {
        if self.root_moves.is_empty() || !moves.iter().any(|m| self.allows(m)) {
            return;
        }
        moves.retain(|m| self.allows(m));
    }

    fn allows<M: std::hash::Hash>(&self, mv: &M) -> bool {
        self.root_moves.contains(&move_key(mv))
    }

    /// When a search started at `start` must end: the earlier of its
    /// movetime and its deadline, if it has either.
    pub fn ends(&self, start: Instant) -> Option<Instant> {
        let by_movetime = self.movetime.and_then(|t| start.checked_add(t));
        match (by_movetime, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            deadline: None,
            multipv: 1,
            report_every: None,
            seed: 0,
            threads: 1,
            table_mb: 0,
            root_moves: Vec::new(),
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

    /// The same score from the other side's view.
    pub fn negated(self) -> Score {
        match self {
            Score::Centi(c) => Score::Centi(-c),
            Score::Mate(n) => Score::Mate(-n),
            Score::Draw => Score::Draw,
        }
    }

    /// A win probability for the side whose view this is on
    /// [`WinCurve::UNFITTED`], the Monte Carlo searchers' own scale (a
    /// position's fitted probability is its [`Searchable::win_curve`]'s).
    pub fn win_probability(self) -> f64 {
        WinCurve::UNFITTED.probability(self, Player::One)
    }

    /// The centi-units whose [`Score::win_probability`] is `p` (a Monte
    /// Carlo searcher's win rate), `p` first kept within 0.1% of 0 and 1 so
    /// that a rate of a few playouts stays a finite score.
    pub fn from_win_probability(p: f64) -> Score {
        const MARGIN: f64 = 0.001;
        let p = p.clamp(MARGIN, 1.0 - MARGIN);
        Score::Centi((400.0 * (p / (1.0 - p)).ln()).round() as i32)
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
    /// Last completed nominal depth; for sampling searchers (MCTS), the
    /// length of the principal variation.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Playouts of a sampling searcher so far (0 for alpha-beta).
    pub iterations: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Best lines, best first (up to `multipv`); empty only if there is no legal move.
    pub lines: Vec<Line<M>>,
    /// Whether a limit was hit or the stop flag set (rather than the search being complete).
    pub stopped: bool,
    /// Set when a Monte Carlo tree reached its memory limit and stopped
    /// growing (its later iterations refined the tree it had).
    pub full_tree: Option<FullTree>,
}

/// A Monte Carlo tree that reached its memory limit ([`Limits::table_mb`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullTree {
    /// The nodes it held.
    pub nodes: u64,
    /// The nodes it would have held without the limit.
    pub wanted: u64,
    /// The limit, in MB.
    pub megabytes: usize,
}

impl<M> Info<M> {
    /// A report of nothing searched yet.
    pub fn empty() -> Self {
        Info {
            depth: 0,
            seldepth: 0,
            nodes: 0,
            iterations: 0,
            elapsed: Duration::ZERO,
            lines: Vec::new(),
            stopped: false,
            full_tree: None,
        }
    }

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

    /// The standard error of the best line's win probability when it is a
    /// sample mean (a sampling searcher's first move over its visits, each
    /// playout a win, draw or loss): at most `sqrt(p (1 - p) / visits)`.
    /// 0 for a value that is no sample (alpha-beta's, a proven result).
    pub fn standard_error(&self) -> f64 {
        match self.lines.first() {
            Some(line) if line.visits > 0 && matches!(line.score, Score::Centi(_)) => {
                let p = line.score.win_probability();
                (p * (1.0 - p) / line.visits as f64).sqrt()
            }
            _ => 0.0,
        }
    }

    /// The same report with every move mapped (e.g. to text).
    pub fn map_moves<N>(&self, mut f: impl FnMut(&M) -> N) -> Info<N> {
        Info {
            depth: self.depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            iterations: self.iterations,
            elapsed: self.elapsed,
            stopped: self.stopped,
            full_tree: self.full_tree,
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
