//! Game records: one text format for a whole game of any game.
//!
//! ```text
//! ; comment lines start with a semicolon
//! [Game "tablut"]
//! [Variant "ashton"]
//! [White "caber alphabeta 1000 ms"]
//! [Black "Ada"]
//! [Date "2026.12.01"]
//! [Result "0-1"]
//! [Reason "king escaped"]
//!
//! 1. e4-d4 {a comment} {[%eval cp -35]}
//! 2. i4-e4
//! ```
//!
//! Tag pairs first (`[Name "value"]`, `\"` and `\\` escaped), then one move
//! per line: the ply number, a dot, the move in the game's text notation
//! (one token; older Schotten Totten records spaced its parts, still read),
//! then any comments in
//! braces. A comment `[%eval X]` is the evaluation after the move from the
//! mover's view: `cp N` (centi-units), `mate N` (a forced result in N plies,
//! negative when the mover loses) or `draw`. Tags: `Game` (required; a game
//! id), `Variant`, one tag per side naming who played it ([`side_tag`]:
//! `Black`, `White` in Tablut; the older `First`/`Second` are still read),
//! `Date` (`YYYY.MM.DD`), `Result` (`1-0` the game's first-named side won,
//! black in Tablut whichever variant starts, `0-1` the other, `1/2-1/2` a
//! draw, `*` not finished), `Reason`, `Start` (the start
//! position's text when it is not the variant's), `Seed` (the deal of a game
//! with chance: with it the moves replay exactly); other tags are kept.
//! Reading checks the syntax only: the moves are checked by replaying them
//! ([`replay`], in the game the `Game` tag names).

use std::fmt;

use crate::catalog::{ByName, TextError, UnknownVariant};
use crate::game::{MoveError, Player};
use crate::playable::{Applied, Playable};
use crate::quote::quote;

/// A whole game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// The tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The moves, in order.
    pub moves: Vec<RecordedMove>,
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedMove {
    /// The move in the game's text notation.
    pub text: String,
    /// The comments after it, without their braces (an evaluation apart).
    pub comments: Vec<String>,
    /// The evaluation after the move, from the mover's view.
    pub eval: Option<Eval>,
}

/// An evaluation in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centi-units.
    Centi(i32),
    /// A forced result in this many plies (negative: the mover loses).
    Mate(i32),
    /// A draw.
    Draw,
}

/// The result of a game as a record writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    /// `1-0`.
    FirstWon,
    /// `0-1`.
    SecondWon,
    /// `1/2-1/2`.
    Draw,
    /// `*`.
    Unfinished,
}

impl RecordResult {
    /// The tag value.
    pub fn tag(self) -> &'static str {
        match self {
            RecordResult::FirstWon => "1-0",
            RecordResult::SecondWon => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unfinished => "*",
        }
    }

    /// Reads a tag value.
    pub fn from_tag(tag: &str) -> Option<Self> {
        match tag {
            "1-0" => Some(RecordResult::FirstWon),
            "0-1" => Some(RecordResult::SecondWon),
            "1/2-1/2" => Some(RecordResult::Draw),
            "*" => Some(RecordResult::Unfinished),
            _ => None,
        }
    }
}

/// The tag naming who played a side: the game's name for it, capitalized
/// (`Black`, `White`, `Invaders`, `Red`), as PGN names its `White` and `Black`.
pub fn side_tag(side: &str) -> String {
    let mut chars = side.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A record that cannot be read: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line, counted from 1 (0: the record as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "record: {}", self.message),
            n => write!(f, "record line {n}: {}", self.message),
        }
    }
}

impl std::error::Error for RecordError {}

impl GameRecord {
    /// A record of `game` with no moves yet.
    pub fn new(game: &str) -> Self {
        let mut record = GameRecord::default();
        record.set_tag("Game", game);
        record
    }

    /// The value of a tag, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag (replacing its value, or appended).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Who played `player` (named `side` in the game, e.g. `"black"`): the
    /// side's tag ([`side_tag`]), or else the older `First`/`Second` tag,
    /// which named the players in the game's order.
    pub fn player(&self, player: Player, side: &str) -> Option<&str> {
        let older = ["First", "Second"][player.index()];
        self.tag(&side_tag(side)).or_else(|| self.tag(older))
    }

    /// The game id (the `Game` tag).
    pub fn game(&self) -> &str {
        self.tag("Game").unwrap_or_default()
    }

    /// The `Result` tag, read.
    pub fn result(&self) -> Option<RecordResult> {
        self.tag("Result").and_then(RecordResult::from_tag)
    }

    /// Reads a record.
    pub fn parse(text: &str) -> Result<Self, RecordError> {
        let mut record = GameRecord::default();
        let error = |line: usize, message: String| RecordError { line, message };
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            if let Some(tag) = line.strip_prefix('[') {
                if !record.moves.is_empty() {
                    return Err(error(n, "a tag after the moves".into()));
                }
                let (name, value) = parse_tag(tag).ok_or_else(|| {
                    error(
                        n,
                        format!("{} is not a tag like [Game \"tablut\"]", quote(line)),
                    )
                })?;
                if record.tag(&name).is_some() {
                    return Err(error(n, format!("the tag {name} appears twice")));
                }
                record.tags.push((name, value));
                continue;
            }
            let (number, rest) = line.split_once('.').ok_or_else(|| {
                error(
                    n,
                    format!(
                        "{} is neither a tag nor a move like `1. e4-b4`",
                        quote(line)
                    ),
                )
            })?;
            let expected = record.moves.len() + 1;
            if number.trim().parse::<usize>().ok() != Some(expected) {
                return Err(error(
                    n,
                    format!(
                        "move number {} where {expected} comes next",
                        quote(number.trim())
                    ),
                ));
            }
            let mv = parse_move(rest).map_err(|m| error(n, m))?;
            record.moves.push(mv);
        }
        match record.tag("Game") {
            Some(g) if !g.trim().is_empty() => {}
            _ => return Err(error(0, "no [Game \"...\"] tag".into())),
        }
        if let Some(r) = record.tag("Result") {
            if RecordResult::from_tag(r).is_none() {
                return Err(error(
                    0,
                    format!("Result {} is not 1-0, 0-1, 1/2-1/2 or *", quote(r)),
                ));
            }
        }
        Ok(record)
    }
}

/// `Name "value"]` (after the opening bracket), unescaped.
fn parse_tag(tag: &str) -> Option<(String, String)> {
    let (name, rest) = tag.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest
        .trim()
        .strip_suffix(']')?
        .trim()
        .strip_prefix('"')?
        .strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

/// The move and comments after a ply number's dot.
fn parse_move(rest: &str) -> Result<RecordedMove, String> {
    let (text, mut comments_text) = match rest.find('{') {
        Some(at) => (&rest[..at], &rest[at..]),
        None => (rest, ""),
    };
    let text = text.trim();
    if text.is_empty() {
        return Err("a move number without a move".into());
    }
    let mut mv = RecordedMove {
        text: text.to_string(),
        comments: Vec::new(),
        eval: None,
    };
    loop {
        comments_text = comments_text.trim_start();
        if comments_text.is_empty() {
            return Ok(mv);
        }
        let body = comments_text
            .strip_prefix('{')
            .and_then(|c| c.split_once('}'))
            .ok_or_else(|| format!("{} is not a comment in braces", quote(comments_text)))?;
        let (comment, after) = body;
        let comment = comment.trim();
        match comment
            .strip_prefix("[%eval ")
            .and_then(|e| e.strip_suffix(']'))
        {
            Some(eval) => mv.eval = Some(parse_eval(eval.trim())?),
            None => mv.comments.push(comment.to_string()),
        }
        comments_text = after;
    }
}

fn parse_eval(text: &str) -> Result<Eval, String> {
    let bad = || format!("{} is not an evaluation: cp N, mate N or draw", quote(text));
    let mut parts = text.split_whitespace();
    let eval = match (parts.next(), parts.next()) {
        (Some("cp"), Some(n)) => Eval::Centi(n.parse().map_err(|_| bad())?),
        (Some("mate"), Some(n)) => Eval::Mate(n.parse().map_err(|_| bad())?),
        (Some("draw"), None) => Eval::Draw,
        _ => return Err(bad()),
    };
    match parts.next() {
        None => Ok(eval),
        Some(_) => Err(bad()),
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Centi(n) => write!(f, "cp {n}"),
            Eval::Mate(n) => write!(f, "mate {n}"),
            Eval::Draw => write!(f, "draw"),
        }
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{escaped}\"]")?;
        }
        if !self.moves.is_empty() {
            writeln!(f)?;
        }
        for (i, mv) in self.moves.iter().enumerate() {
            write!(f, "{}. {}", i + 1, mv.text)?;
            for c in &mv.comments {
                write!(f, " {{{}}}", c.replace(['{', '}'], ""))?;
            }
            if let Some(eval) = mv.eval {
                write!(f, " {{[%eval {eval}]}}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A record's game played from its start, every move checked: the start
/// (the `Start` tag's position, or the `Variant` tag's start with the `Seed`
/// tag's deal) and each move as played, with the position after it.
#[derive(Clone, Debug)]
pub struct Replay<P: Playable> {
    /// The start position.
    pub start: P,
    /// Each move as played (the game's normal form), the position after it
    /// and what happened.
    pub moves: Vec<Applied<P>>,
}

impl<P: Playable> Replay<P> {
    /// The positions from the start to the end: one more than the moves.
    pub fn positions(&self) -> impl Iterator<Item = &P> {
        std::iter::once(&self.start).chain(self.moves.iter().map(|a| &a.position))
    }

    /// The position at the end.
    pub fn last(&self) -> &P {
        self.moves.last().map_or(&self.start, |a| &a.position)
    }
}

/// Why a record does not replay: the tag or the move, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `Variant` tag names no variant of the game.
    Variant(UnknownVariant),
    /// The `Start` tag is no position of the variant.
    Start(TextError),
    /// The `Seed` tag is not a number.
    Seed(String),
    /// A move (its number, from 1, and text) cannot be played.
    Move {
        /// The move's number, from 1.
        number: usize,
        /// The move as the record writes it.
        text: String,
        /// Why it cannot be played.
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Variant(e) => write!(f, "the Variant tag: {e}"),
            ReplayError::Start(e) => write!(f, "the Start tag: {e}"),
            ReplayError::Seed(s) => write!(f, "the Seed tag {} is not a number", quote(s)),
            ReplayError::Move {
                number,
                text,
                error,
            } => write!(f, "move {number} ({}): {error}", quote(text)),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Plays `record`'s moves from its start, each checked, in game `P` (the
/// caller picks `P` by the record's `Game` tag).
pub fn replay<P: ByName>(record: &GameRecord) -> Result<Replay<P>, ReplayError> {
    let variant = record.tag("Variant").unwrap_or_default();
    let start = match record.tag("Start") {
        Some(text) => P::read_named(variant, text).map_err(|e| match e {
            TextError::Variant(v) => ReplayError::Variant(v),
            e => ReplayError::Start(e),
        })?,
        None => {
            let seed = match record.tag("Seed") {
                None => 0,
                Some(s) => s
                    .trim()
                    .parse()
                    .map_err(|_| ReplayError::Seed(s.to_string()))?,
            };
            P::start_named(variant, seed).map_err(ReplayError::Variant)?
        }
    };
    let mut moves: Vec<Applied<P>> = Vec::with_capacity(record.moves.len());
    for (i, recorded) in record.moves.iter().enumerate() {
        let before = moves.last().map_or(&start, |a| &a.position);
        let error = |error| ReplayError::Move {
            number: i + 1,
            text: recorded.text.clone(),
            error,
        };
        let mv = before
            .parse_move(&recorded.text)
            .map_err(|e| error(MoveError::Notation(e)))?;
        moves.push(before.apply(&mv).map_err(error)?);
    }
    Ok(Replay { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::ByName;
    use proptest::prelude::*;

    const SAMPLE: &str = "; a game\n\
        [Game \"schotten-totten\"]\n\
        [Variant \"classic\"]\n\
        [First \"Ada \\\"the first\\\"\"]\n\
        [Seed \"7\"]\n\
        [Result \"0-1\"]\n\
        \n\
        1. p:G5@3 d:clan {good} {[%eval cp 35]}\n\
        2. p:R2@4 c:3 d:tactic\n\
        3. pass {[%eval mate -3]} {resigns soon}\n";

    #[test]
    fn a_record_replays_from_its_start_tag_or_its_variant_and_seed() {
        use crate::schotten_totten::Position;
        use crate::tablut::Tablut;
        use crate::Played;
        let record = GameRecord::parse(
            "[Game \"tablut\"]\n[Start \"9/9/1bw6/9/4k4/9/3b5/9/9 b -\"]\n\n1. d7-d3\n",
        )
        .unwrap();
        let replayed = replay::<Played<Tablut>>(&record).unwrap();
        assert_eq!(replayed.moves.len(), 1);
        assert_eq!(replayed.positions().count(), 2);
        assert_eq!(replayed.last().notation(), "9/9/1b1b5/9/4k4/9/9/9/9 w -");
        assert_eq!(replayed.moves[0].events.len(), 1, "the capture of c3");
        // A deal of Schotten Totten replays from its seed: the same deal.
        let seeded = GameRecord::parse("[Game \"schotten-totten\"]\n[Seed \"7\"]\n").unwrap();
        let deal = replay::<Position>(&seeded).unwrap().start;
        assert_eq!(deal, Position::start_named("", 7).unwrap());
    }

    #[test]
    fn a_record_that_does_not_replay_names_the_tag_or_the_move() {
        use crate::tablut::Tablut;
        use crate::Played;
        let error = |text: &str| {
            let record = GameRecord::parse(text).unwrap();
            replay::<Played<Tablut>>(&record).unwrap_err().to_string()
        };
        assert_eq!(
            error("[Game \"tablut\"]\n[Variant \"nope\"]\n"),
            "the Variant tag: game tablut has no variant \"nope\" (known: bga, bga-corners, ashton, linnaeus)"
        );
        assert!(error("[Game \"tablut\"]\n[Start \"9/9 b -\"]\n")
            .starts_with("the Start tag: invalid position"));
        assert_eq!(
            error("[Game \"tablut\"]\n[Seed \"x\"]\n"),
            "the Seed tag \"x\" is not a number"
        );
        assert_eq!(
            error("[Game \"tablut\"]\n\n1. d1-d2\n2. d1-d2\n"),
            "move 2 (\"d1-d2\"): illegal move: d1-d2 is not a legal move here"
        );
        assert!(
            error("[Game \"tablut\"]\n\n1. zz\n").starts_with("move 1 (\"zz\"): bad move notation")
        );
    }

    #[test]
    fn a_record_is_read_with_its_tags_moves_comments_and_evaluations() {
        let r = GameRecord::parse(SAMPLE).unwrap();
        assert_eq!(r.game(), "schotten-totten");
        assert_eq!(r.tag("First"), Some("Ada \"the first\""));
        // The older First tag names Player::One; a side's own tag wins.
        assert_eq!(r.player(Player::One, "first"), Some("Ada \"the first\""));
        assert_eq!(r.player(Player::Two, "second"), None);
        let tablut =
            GameRecord::parse("[Game \"tablut\"]\n[White \"Bo\"]\n[Second \"old\"]\n").unwrap();
        assert_eq!(tablut.player(Player::Two, "white"), Some("Bo"));
        assert_eq!(tablut.player(Player::One, "black"), None);
        assert_eq!(side_tag("invaders"), "Invaders");
        assert_eq!(side_tag(""), "");
        assert_eq!(r.tag("Seed"), Some("7"));
        assert_eq!(r.result(), Some(RecordResult::SecondWon));
        let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["p:G5@3 d:clan", "p:R2@4 c:3 d:tactic", "pass"]);
        assert_eq!(r.moves[0].comments, ["good"]);
        assert_eq!(r.moves[0].eval, Some(Eval::Centi(35)));
        assert_eq!(r.moves[2].eval, Some(Eval::Mate(-3)));
        assert_eq!(r.moves[2].comments, ["resigns soon"]);
        assert_eq!(GameRecord::parse(&r.to_string()).unwrap(), r);
    }

    #[test]
    fn bad_records_name_the_line_and_the_problem() {
        let cases = [
            ("1. e4-b4\n", "record: no [Game \"...\"] tag"),
            (
                "[Game \"tablut\"]\n2. e4-b4\n",
                "record line 2: move number \"2\" where 1 comes next",
            ),
            (
                "[Game \"tablut\"]\n1. e4-b4\n[Date \"x\"]\n",
                "record line 3: a tag after the moves",
            ),
            (
                "[Game \"tablut\"]\n1.\n",
                "record line 2: a move number without a move",
            ),
            (
                "[Game \"tablut\"]\n1. e4-b4 {open\n",
                "record line 2: \"{open\" is not a comment in braces",
            ),
            (
                "[Game \"tablut\"]\n1. e4-b4 {[%eval 12]}\n",
                "record line 2: \"12\" is not an evaluation: cp N, mate N or draw",
            ),
            (
                "[Game tablut]\n",
                "record line 1: \"[Game tablut]\" is not a tag like [Game \"tablut\"]",
            ),
            (
                "[Game \"a\"]\n[Game \"b\"]\n",
                "record line 2: the tag Game appears twice",
            ),
            (
                "[Game \"a\"]\n[Result \"2-0\"]\n",
                "record: Result \"2-0\" is not 1-0, 0-1, 1/2-1/2 or *",
            ),
            (
                "[Game \"a\"]\ne4-b4\n",
                "record line 2: \"e4-b4\" is neither a tag nor a move like `1. e4-b4`",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(
                GameRecord::parse(text).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panic(text in "(\\PC|\n|\\[|\\]|\\{|\\}|\"|\\.){0,200}") {
            let _ = GameRecord::parse(&text);
        }

        #[test]
        fn written_records_read_back(
            values in proptest::collection::vec("[^\n\r]{0,20}", 1..4),
            moves in proptest::collection::vec("[a-z0-9:@ -]{1,12}", 0..6),
            cp in -2000i32..2000,
        ) {
            let mut r = GameRecord::new("tablut");
            for (i, v) in values.iter().enumerate() {
                r.set_tag(&format!("T{i}"), v);
            }
            for (i, m) in moves.iter().enumerate() {
                let text = m.trim();
                prop_assume!(!text.is_empty());
                r.moves.push(RecordedMove {
                    text: text.to_string(),
                    comments: vec![format!("c{i}")],
                    eval: (i % 2 == 0).then_some(Eval::Centi(cp)),
                });
            }
            let again = GameRecord::parse(&r.to_string()).unwrap();
            prop_assert_eq!(again, r);
        }
    }
}
