//! Game records: one text format for a whole game of any game.
//!
//! ```text
//! ; comment lines start with a semicolon
//! [Game "tablut"]
//! [Variant "ashton"]
//! [First "caber alphabeta 1000 ms"]
//! [Second "Ada"]
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
//! (which may hold spaces, as Schotten Totten's do), then any comments in
//! braces. A comment `[%eval X]` is the evaluation after the move from the
//! mover's view: `cp N` (centi-units), `mate N` (a forced result in N plies,
//! negative when the mover loses) or `draw`. Tags: `Game` (required; a game
//! id), `Variant`, `First`, `Second` (the players, in the game's order),
//! `Date` (`YYYY.MM.DD`), `Result` (`1-0` the first player won, `0-1` the
//! second, `1/2-1/2` a draw, `*` not finished), `Reason`, `Start` (the start
//! position's text when it is not the variant's), `Seed` (the deal of a game
//! with chance: with it the moves replay exactly); other tags are kept.
//! Reading checks the syntax only: the moves are checked by replaying them.

use std::fmt;

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

#[cfg(test)]
mod tests {
    use super::*;
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
    fn a_record_is_read_with_its_tags_moves_comments_and_evaluations() {
        let r = GameRecord::parse(SAMPLE).unwrap();
        assert_eq!(r.game(), "schotten-totten");
        assert_eq!(r.tag("First"), Some("Ada \"the first\""));
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
