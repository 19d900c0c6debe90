//! Puzzle files: JSON Lines, one puzzle per line (docs/PUZZLES.md), and
//! the sets shipped inside the binary (`cli/puzzles/`), so that an
//! installed `caber` plays them without a file.
//!
//! ```text
//! {"id":"tartan-standard-3f2a...","game":"tartan","variant":"standard","position":"play ...","goal":"win in 2","solution":["C4-D4","B:I8-H8","B:D3-D4"],"rating":1240,"tags":["win-in-2","union"]}
//! ```
//!
//! `solution` is the whole line: the solver's moves and the defence that
//! resists longest, ending in the win. A puzzle's first move is its only
//! solution (every other first move fails the goal), except in a win in one
//! whose winning moves all play the same piece or card: `also` lists the
//! others, and each is accepted.

use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A stable id: game, variant and a hash of the position.
    pub id: String,
    /// The game id.
    pub game: String,
    /// The variant name.
    pub variant: String,
    /// The position in the game's text notation.
    pub position: String,
    /// `win in N`: the side to move forces a win in N of its moves.
    pub goal: String,
    /// The solution line, the solver's moves and the defence alternating.
    pub solution: Vec<String>,
    /// The other winning first moves of a win in one, each accepted (they
    /// play what the solution's move plays, e.g. the same card drawing from
    /// the other deck).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// A difficulty rating (about 800 to 2500) from the search effort.
    pub rating: u32,
    /// Themes: `win-in-N` and what the first move does (`escape`, `capture`, ...).
    #[serde(default)]
    pub tags: Vec<String>,
}

impl Puzzle {
    /// N of a `win in N` goal.
    pub fn win_in(&self) -> anyhow::Result<u32> {
        self.goal
            .strip_prefix("win in ")
            .and_then(|n| n.trim().parse().ok())
            .filter(|&n| n > 0)
            .with_context(|| format!("puzzle {}: goal {:?} is not `win in N`", self.id, self.goal))
    }

    /// The rating of a puzzle solved in `moves` moves with `nodes` positions
    /// searched: longer wins and wins that take more search are harder.
    pub fn rating(moves: u32, nodes: u64) -> u32 {
        let effort = (nodes.max(1) as f64).log2() * 40.0;
        (700.0 + 350.0 * f64::from(moves.saturating_sub(1)) + effort).clamp(600.0, 2500.0) as u32
    }
}

/// The puzzles of a JSON Lines file (blank lines skipped).
pub fn read(path: &Path) -> anyhow::Result<Vec<Puzzle>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the puzzle file {}", path.display()))?;
    parse(&path.display().to_string(), &text)
}

/// The puzzles of `text`, a puzzle file's content (`origin` names it in errors).
pub fn parse(origin: &str, text: &str) -> anyhow::Result<Vec<Puzzle>> {
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let puzzle: Puzzle = serde_json::from_str(line)
            .with_context(|| format!("{origin} line {}: not a puzzle", i + 1))?;
        puzzle.win_in()?;
        if puzzle.solution.is_empty() {
            anyhow::bail!(
                "{origin} line {}: puzzle {} has no solution",
                i + 1,
                puzzle.id
            );
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// The sets shipped inside the binary, by name (their file's stem in
/// `cli/puzzles/`), one per variant of every game.
pub const SHIPPED: &[(&str, &str)] = &[
    ("tablut-bga", include_str!("../puzzles/tablut-bga.jsonl")),
    (
        "tablut-bga-corners",
        include_str!("../puzzles/tablut-bga-corners.jsonl"),
    ),
    (
        "tablut-ashton",
        include_str!("../puzzles/tablut-ashton.jsonl"),
    ),
    (
        "tablut-linnaeus",
        include_str!("../puzzles/tablut-linnaeus.jsonl"),
    ),
    ("almatafl", include_str!("../puzzles/almatafl.jsonl")),
    ("tartan", include_str!("../puzzles/tartan.jsonl")),
    (
        "schotten-totten",
        include_str!("../puzzles/schotten-totten.jsonl"),
    ),
    (
        "schotten-totten-tactics",
        include_str!("../puzzles/schotten-totten-tactics.jsonl"),
    ),
    (
        "schotten-totten-expert",
        include_str!("../puzzles/schotten-totten-expert.jsonl"),
    ),
];

/// A shipped set by name.
pub fn shipped(name: &str) -> Option<anyhow::Result<Vec<Puzzle>>> {
    SHIPPED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(n, text)| parse(&format!("the shipped set {n}"), text))
}

/// The puzzles `set` names: a shipped set, else a puzzle file (a name
/// with a path separator or a `.jsonl` extension is always a file).
pub fn open(set: &str) -> anyhow::Result<Vec<Puzzle>> {
    let path = Path::new(set);
    let file_like = set.contains(std::path::MAIN_SEPARATOR) || set.ends_with(".jsonl");
    match shipped(set) {
        Some(puzzles) => puzzles,
        None if file_like || path.exists() => read(path),
        None => anyhow::bail!(
            "{set:?} is neither a shipped set ({}) nor a puzzle file",
            SHIPPED
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// One puzzle as a line of a file.
pub fn line(puzzle: &Puzzle) -> String {
    serde_json::to_string(puzzle).expect("a puzzle is plain data")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_grow_with_the_length_and_the_effort() {
        assert!(Puzzle::rating(1, 10) < Puzzle::rating(1, 10_000));
        assert!(Puzzle::rating(1, 10_000) < Puzzle::rating(2, 10_000));
        assert_eq!(Puzzle::rating(9, u64::MAX), 2500);
    }

    #[test]
    fn every_shipped_set_reads_and_holds_one_variant() {
        assert_eq!(SHIPPED.len(), 9);
        for (name, _) in SHIPPED {
            let puzzles = shipped(name).unwrap().unwrap();
            assert!(puzzles.len() >= 30, "{name}: {}", puzzles.len());
            let (game, variant) = (&puzzles[0].game, &puzzles[0].variant);
            assert!(name.starts_with(game.as_str()), "{name}");
            assert!(
                puzzles
                    .iter()
                    .all(|p| &p.game == game && &p.variant == variant),
                "{name}"
            );
        }
        assert!(shipped("chess").is_none());
        let err = open("no-such-set").unwrap_err().to_string();
        assert!(err.contains("neither a shipped set (tablut-bga, "), "{err}");
    }

    #[test]
    fn a_line_reads_back() {
        let p = Puzzle {
            id: "x".into(),
            game: "tablut".into(),
            variant: "bga".into(),
            position: "9/9/9/9/4k4/9/9/9/9 w -".into(),
            goal: "win in 1".into(),
            solution: vec!["e5-e1".into()],
            also: Vec::new(),
            rating: 900,
            tags: vec!["win-in-1".into()],
        };
        let again: Puzzle = serde_json::from_str(&line(&p)).unwrap();
        assert_eq!(again, p);
        assert_eq!(p.win_in().unwrap(), 1);
        let bad = Puzzle {
            goal: "mate".into(),
            ..p
        };
        assert!(bad.win_in().is_err());
    }
}
