//! Game records: one text format for a whole game of any game.
//!
//! ```text
//! ; comment lines start with a semicolon
//! [Game "tablut"]
//! [Format "2"]
//! [Variant "ashton"]
//! [White "caber alphabeta 1000 ms"]
//! [Black "Ada"]
//! [Date "2026.12.01"]
//! [Result "1-0"]
//! [Reason "king escaped"]
//!
//! 1. e4-d4 {a comment} {[%eval cp -35]}
//! 2. i4-e4 {[%eval #-3]}
//! ```
//!
//! Tag pairs first (`[Name "value"]`, `\"` and `\\` escaped), then one move
//! per line: the ply number, a dot, the move in the game's text notation
//! (one token; older Schotten Totten records spaced its parts, still read),
//! then any comments in braces. Results and evaluations are read as in any
//! PGN tool, from the view of the game's White
//! ([`Game::WHITE`](crate::Game::WHITE): Tablut's white, else the
//! first-listed side): `Result` `1-0` White won, `0-1` the other side,
//! `1/2-1/2` a draw, `*` not finished; a comment `[%eval X]` is the
//! evaluation after the move, `cp N` (centi-units), `#N` (a forced win in N
//! moves of the side that wins, negative when it is not White) or `draw`.
//! Tags: `Game` (required; a game id), `Format` (`2`, this
//! meaning; a record without it is of [`Format::One`], read with its older
//! meaning), `Variant`, one tag per side naming who played it
//! ([`side_tag`]: `Black`, `White` in Tablut; the older `First`/`Second`
//! are still read), `Date` (`YYYY.MM.DD`), `Result`, `Reason`, `Start` (the
//! start position's text when it is not the variant's), `Seed` (the deal of
//! a game with chance: with it the moves replay exactly); other tags are
//! kept. Reading checks the syntax only: the moves are checked by replaying
//! them ([`replay`], in the game the `Game` tag names).

use std::fmt;

use crate::catalog::{ByName, TextError, UnknownVariant};
use crate::game::{MoveError, Player};
use crate::playable::{Applied, Playable};
use crate::quote::quote;
use crate::search::Score;

/// The `Format` tag of the records written here.
pub const FORMAT: &str = "2";

/// What a record's `Result` and evaluations mean: its `Format` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// No `Format` tag (or `1`), as records were written before White's
    /// view: `1-0` a win of the first-listed side ([`Player::One`], black in
    /// Tablut), an evaluation from the mover's view, `mate N` a forced
    /// result in N plies (negative when the mover loses).
    One,
    /// `Format "2"`: `1-0` a win of the game's White, evaluations from
    /// White's view, `#N` a forced win in N moves.
    Two,
}

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
    /// The evaluation after the move, as the record's format means it.
    pub eval: Option<Eval>,
}

/// An evaluation in a record, and a score as people read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// `cp N`: centi-units.
    Centi(i32),
    /// `#N`: a forced win in N moves of the side that wins (never 0),
    /// positive for the side whose view this is (White's in a record).
    Mate(i32),
    /// `mate N`, in [`Format::One`] records only: a forced result in N
    /// plies, negative when the mover loses.
    MatePlies(i32),
    /// `draw`: a forced draw.
    Draw,
}

impl Eval {
    /// A search's score as people read it, from the same side's view:
    /// a forced result in plies becomes `#N` in the winner's moves; `None`
    /// for one at once (the game is over: nothing to evaluate).
    pub fn of(score: Score) -> Option<Eval> {
        match score {
            Score::Centi(c) => Some(Eval::Centi(c)),
            Score::Draw => Some(Eval::Draw),
            Score::Mate(0) => None,
            Score::Mate(plies) => {
                let moves = i32::try_from(plies.unsigned_abs().div_ceil(2)).unwrap_or(i32::MAX);
                Some(Eval::Mate(moves * plies.signum()))
            }
        }
    }

    /// The same evaluation from the other side's view.
    pub fn negated(self) -> Eval {
        match self {
            Eval::Centi(c) => Eval::Centi(-c),
            Eval::Mate(n) => Eval::Mate(-n),
            Eval::MatePlies(n) => Eval::MatePlies(-n),
            Eval::Draw => Eval::Draw,
        }
    }

    /// This evaluation, from `viewer`'s view, from `side`'s.
    pub fn seen_by(self, viewer: Player, side: Player) -> Eval {
        if viewer == side {
            self
        } else {
            self.negated()
        }
    }
}

/// The result of a game as a record's `Result` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    /// `1-0` or `0-1`: this player won.
    Won(Player),
    /// `1/2-1/2`.
    Draw,
    /// `*`.
    Unfinished,
}

/// The `Result` tag values, as read.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

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
    /// A record of `game` in the current format ([`FORMAT`]) with no moves yet.
    pub fn new(game: &str) -> Self {
        let mut record = GameRecord::default();
        record.set_tag("Game", game);
        record.set_tag("Format", FORMAT);
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

    /// What the record's `Result` and evaluations mean (its `Format` tag).
    pub fn format(&self) -> Format {
        match self.tag("Format") {
            None | Some("1") => Format::One,
            Some(_) => Format::Two,
        }
    }

    /// The side `1-0` names in a game whose White is `white`: White, or in
    /// a [`Format::One`] record the first-listed side.
    fn first(&self, white: Player) -> Player {
        match self.format() {
            Format::One => Player::One,
            Format::Two => white,
        }
    }

    /// The `Result` tag, read as the record's format means it, in a game
    /// whose White is `white`.
    pub fn result(&self, white: Player) -> Option<RecordResult> {
        let first = self.first(white);
        match self.tag("Result")? {
            "1-0" => Some(RecordResult::Won(first)),
            "0-1" => Some(RecordResult::Won(first.opponent())),
            "1/2-1/2" => Some(RecordResult::Draw),
            "*" => Some(RecordResult::Unfinished),
            _ => None,
        }
    }

    /// Sets the `Result` tag as the record's format writes `result`, in a
    /// game whose White is `white`.
    pub fn set_result(&mut self, result: RecordResult, white: Player) {
        let tag = match result {
            RecordResult::Won(p) if p == self.first(white) => "1-0",
            RecordResult::Won(_) => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unfinished => "*",
        };
        self.set_tag("Result", tag);
    }

    /// Rewrites a [`Format::One`] record in the current format, in a game
    /// whose White is `white`: its `Result` (`1-0` becomes White's win),
    /// each evaluation from White's view (`movers`: who played each move,
    /// as a replay finds; the evaluation of a move past them is dropped),
    /// `mate N` as `#N` (`mate 0`, after the move that ended the game,
    /// dropped) and the `Format` tag after `Game`. A current record is left
    /// as it is.
    pub fn upgrade(&mut self, white: Player, movers: &[Player]) {
        if self.format() == Format::Two {
            return;
        }
        let result = self.result(white);
        for (i, mv) in self.moves.iter_mut().enumerate() {
            mv.eval = match (mv.eval, movers.get(i)) {
                (Some(Eval::MatePlies(plies)), Some(&mover)) => {
                    Eval::of(Score::Mate(plies)).map(|e| e.seen_by(mover, white))
                }
                (Some(eval), Some(&mover)) => Some(eval.seen_by(mover, white)),
                _ => None,
            };
        }
        match self.tags.iter().position(|(n, _)| n == "Format") {
            Some(at) => self.tags[at].1 = FORMAT.to_string(),
            None => {
                let after = self.tags.iter().position(|(n, _)| n == "Game");
                let at = after.map_or(0, |g| g + 1);
                self.tags
                    .insert(at, ("Format".to_string(), FORMAT.to_string()));
            }
        }
        if let Some(result) = result {
            self.set_result(result, white);
        }
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
                if name == "Format" && !["1", FORMAT].contains(&value.as_str()) {
                    return Err(error(
                        n,
                        format!(
                            "Format {} is not one this Caber reads (1 or {FORMAT})",
                            quote(&value)
                        ),
                    ));
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
            let mv = parse_move(rest, record.format()).map_err(|m| error(n, m))?;
            record.moves.push(mv);
        }
        match record.tag("Game") {
            Some(g) if !g.trim().is_empty() => {}
            _ => return Err(error(0, "no [Game \"...\"] tag".into())),
        }
        if let Some(r) = record.tag("Result") {
            if !RESULTS.contains(&r) {
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

/// The move and comments after a ply number's dot, in a record of `format`.
fn parse_move(rest: &str, format: Format) -> Result<RecordedMove, String> {
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
            Some(eval) => mv.eval = Some(parse_eval(eval.trim(), format)?),
            None => mv.comments.push(comment.to_string()),
        }
        comments_text = after;
    }
}

/// An evaluation's text in a record of `format`.
fn parse_eval(text: &str, format: Format) -> Result<Eval, String> {
    let forms = match format {
        Format::One => "cp N, mate N or draw",
        Format::Two => "cp N, #N or draw",
    };
    let bad = || format!("{} is not an evaluation: {forms}", quote(text));
    let number = |n: &str| n.parse::<i32>().map_err(|_| bad());
    if let Some(n) = text.strip_prefix('#') {
        return match (format, number(n)?) {
            (Format::One, _) => Err(format!(
                "{} is the current form of a forced result: the record needs the tag [Format \"{FORMAT}\"] (without it, it is read as older records were written, with mate N)",
                quote(text)
            )),
            (Format::Two, 0) => Err(format!(
                "{} is not an evaluation: #N counts the winner's moves, at least one (a move that ends the game has no evaluation)",
                quote(text)
            )),
            (Format::Two, n) => Ok(Eval::Mate(n)),
        };
    }
    let mut parts = text.split_whitespace();
    let eval = match (parts.next(), parts.next()) {
        (Some("cp"), Some(n)) => Eval::Centi(number(n)?),
        (Some("mate"), Some(n)) => match format {
            Format::One => Eval::MatePlies(number(n)?),
            Format::Two => {
                return Err(format!(
                    "{} is the older form of a forced result (plies, the mover's view): a Format {FORMAT} record writes #N",
                    quote(text)
                ))
            }
        },
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
            Eval::Mate(n) => write!(f, "#{n}"),
            Eval::MatePlies(n) => write!(f, "mate {n}"),
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
        assert_eq!(r.format(), Format::One);
        assert_eq!(r.result(Player::One), Some(RecordResult::Won(Player::Two)));
        let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["p:G5@3 d:clan", "p:R2@4 c:3 d:tactic", "pass"]);
        assert_eq!(r.moves[0].comments, ["good"]);
        assert_eq!(r.moves[0].eval, Some(Eval::Centi(35)));
        assert_eq!(r.moves[2].eval, Some(Eval::MatePlies(-3)));
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
                "[Game \"tablut\"]\n[Format \"2\"]\n1. e4-b4 {[%eval mate]}\n",
                "record line 3: \"mate\" is not an evaluation: cp N, #N or draw",
            ),
            (
                "[Game \"tablut\"]\n[Format \"2\"]\n1. e4-b4 {[%eval #x]}\n",
                "record line 3: \"#x\" is not an evaluation: cp N, #N or draw",
            ),
            (
                "[Game \"tablut\"]\n[Format \"2\"]\n1. e4-b4 {[%eval #0]}\n",
                "record line 3: \"#0\" is not an evaluation: #N counts the winner's moves, at least one (a move that ends the game has no evaluation)",
            ),
            (
                "[Game \"tablut\"]\n[Format \"2\"]\n1. e4-b4 {[%eval mate 3]}\n",
                "record line 3: \"mate 3\" is the older form of a forced result (plies, the mover's view): a Format 2 record writes #N",
            ),
            (
                "[Game \"tablut\"]\n1. e4-b4 {[%eval #3]}\n",
                "record line 2: \"#3\" is the current form of a forced result: the record needs the tag [Format \"2\"] (without it, it is read as older records were written, with mate N)",
            ),
            (
                "[Game \"tablut\"]\n[Format \"3\"]\n",
                "record line 2: Format \"3\" is not one this Caber reads (1 or 2)",
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

    /// Tablut's White is its white (`Player::Two`): a current record's
    /// `1-0` is white's win as in any PGN tool, an older record's (no
    /// `Format` tag) black's, the first-listed side's.
    #[test]
    fn results_are_whites_in_the_current_format_and_the_first_sides_before() {
        let white = Player::Two;
        let current = GameRecord::parse(
            "[Game \"tablut\"]\n[Format \"2\"]\n[White \"caber\"]\n[Result \"1-0\"]\n",
        )
        .unwrap();
        assert_eq!(current.format(), Format::Two);
        assert_eq!(current.result(white), Some(RecordResult::Won(Player::Two)));
        let older =
            GameRecord::parse("[Game \"tablut\"]\n[White \"caber\"]\n[Result \"1-0\"]\n").unwrap();
        assert_eq!(older.result(white), Some(RecordResult::Won(Player::One)));
        let draw = GameRecord::parse("[Game \"tartan\"]\n[Result \"1/2-1/2\"]\n").unwrap();
        assert_eq!(draw.result(Player::One), Some(RecordResult::Draw));
        // Written: a new record is of the current format.
        let mut r = GameRecord::new("tablut");
        r.set_result(RecordResult::Won(Player::Two), white);
        assert_eq!(
            r.to_string(),
            "[Game \"tablut\"]\n[Format \"2\"]\n[Result \"1-0\"]\n"
        );
        r.set_result(RecordResult::Won(Player::One), white);
        assert_eq!(r.tag("Result"), Some("0-1"));
        r.set_result(RecordResult::Unfinished, white);
        assert_eq!(r.tag("Result"), Some("*"));
        // In a game whose White is the first-listed side both formats agree.
        let mut tartan = GameRecord::new("tartan");
        tartan.set_result(RecordResult::Won(Player::One), Player::One);
        assert_eq!(tartan.tag("Result"), Some("1-0"));
    }

    #[test]
    fn scores_read_as_whole_moves_of_the_winner() {
        let eval = |score| Eval::of(score).map(|e| e.to_string());
        // The side to move wins with its first move, its second; loses to
        // the reply, to the reply after its next move.
        assert_eq!(eval(Score::Mate(1)).as_deref(), Some("#1"));
        assert_eq!(eval(Score::Mate(3)).as_deref(), Some("#2"));
        assert_eq!(eval(Score::Mate(-2)).as_deref(), Some("#-1"));
        assert_eq!(eval(Score::Mate(-4)).as_deref(), Some("#-2"));
        assert_eq!(eval(Score::Mate(0)), None, "over: nothing to evaluate");
        assert_eq!(eval(Score::Centi(-35)).as_deref(), Some("cp -35"));
        assert_eq!(eval(Score::Draw).as_deref(), Some("draw"));
        // From the mover's view (Two) to White's (One), and back.
        assert_eq!(
            Eval::Mate(2).seen_by(Player::Two, Player::One),
            Eval::Mate(-2)
        );
        assert_eq!(
            Eval::Centi(40).seen_by(Player::One, Player::One),
            Eval::Centi(40)
        );
        let r = GameRecord::parse(
            "[Game \"tablut\"]\n[Format \"2\"]\n\n1. e4-d4 {[%eval #+2]}\n2. i4-e4 {[%eval #-1]} {[%eval cp 12]}\n",
        )
        .unwrap();
        assert_eq!(r.moves[0].eval, Some(Eval::Mate(2)));
        // The last evaluation of a move counts.
        assert_eq!(r.moves[1].eval, Some(Eval::Centi(12)));
    }

    /// A record of Caber as black in the Tablut Challenge, written before
    /// the `Format` tag: `1-0` black's win, evaluations from the mover's
    /// (black's) view, `mate N` in plies, `mate 0` after the winning move.
    #[test]
    fn an_older_record_is_upgraded_to_whites_view() {
        let older = "[Game \"tablut\"]\n[Variant \"ashton\"]\n[White \"opponent\"]\n\
            [Black \"caber\"]\n[Result \"1-0\"]\n[Reason \"black won: king captured\"]\n\n\
            1. g5-g6\n2. i4-g4 {[%eval cp 277]}\n3. f5-f3\n4. f9-f6 {[%eval mate 4]}\n\
            5. e6-d6\n6. h5-h6 {[%eval mate 2]}\n7. e7-h7\n8. g4-g7 {[%eval mate 0]}\n";
        let mut record = GameRecord::parse(older).unwrap();
        // Ashton: white moves first.
        let movers = [Player::Two, Player::One].repeat(4);
        record.upgrade(Player::Two, &movers);
        assert_eq!(
            record.to_string(),
            "[Game \"tablut\"]\n[Format \"2\"]\n[Variant \"ashton\"]\n[White \"opponent\"]\n\
             [Black \"caber\"]\n[Result \"0-1\"]\n[Reason \"black won: king captured\"]\n\n\
             1. g5-g6\n2. i4-g4 {[%eval cp -277]}\n3. f5-f3\n4. f9-f6 {[%eval #-2]}\n\
             5. e6-d6\n6. h5-h6 {[%eval #-1]}\n7. e7-h7\n8. g4-g7\n"
        );
        assert_eq!(
            record.result(Player::Two),
            Some(RecordResult::Won(Player::One))
        );
        // Upgraded again: unchanged; movers missing: their evaluations dropped.
        let upgraded = record.clone();
        record.upgrade(Player::Two, &[]);
        assert_eq!(record, upgraded);
        let mut short = GameRecord::parse(older).unwrap();
        short.upgrade(Player::Two, &movers[..1]);
        assert!(short.moves.iter().all(|m| m.eval.is_none()));
    }

    /// The records under docs/ are of the current format: the result the
    /// game reached is its `Result`, as White's view writes it, and every
    /// forced win in their evaluations is the winner's.
    #[test]
    fn every_record_in_the_docs_is_current_and_reads_its_result() {
        use crate::tablut::Tablut;
        use crate::tartan::Tartan;
        use crate::{Game, GameResult, Played};
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
        let mut files = Vec::new();
        for dir in [
            "examples",
            "games/tablut-challenge-2026-12-05",
            "games/tablut-challenge-2026-12-06",
        ] {
            for entry in std::fs::read_dir(docs.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "record") {
                    files.push(path);
                }
            }
        }
        assert_eq!(files.len(), 95, "{files:?}");
        for path in files {
            let record = GameRecord::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let shown = path.display();
            assert_eq!(record.format(), Format::Two, "{shown}");
            let (white, outcome) = match record.game() {
                "tablut" => (
                    Tablut::WHITE,
                    replay::<Played<Tablut>>(&record).unwrap().last().outcome(),
                ),
                "tartan" => (
                    Tartan::WHITE,
                    replay::<Played<Tartan>>(&record).unwrap().last().outcome(),
                ),
                other => panic!("{shown}: {other}"),
            };
            let Some(outcome) = outcome else { continue };
            let expected = match outcome.result {
                GameResult::Win(p) => RecordResult::Won(p),
                GameResult::Draw => RecordResult::Draw,
            };
            assert_eq!(record.result(white), Some(expected), "{shown}");
            for mv in &record.moves {
                match (mv.eval, expected) {
                    (Some(Eval::MatePlies(_)), _) => panic!("{shown}: an older evaluation"),
                    (Some(Eval::Mate(n)), RecordResult::Won(p)) => {
                        assert_eq!(n > 0, p == white, "{shown}: {}", mv.text)
                    }
                    _ => {}
                }
            }
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
            mate in (1i32..50).prop_flat_map(|n| prop_oneof![Just(n), Just(-n)]),
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
                    eval: [Some(Eval::Centi(cp)), None, Some(Eval::Mate(mate)), Some(Eval::Draw)][i % 4],
                });
            }
            let again = GameRecord::parse(&r.to_string()).unwrap();
            prop_assert_eq!(again, r);
        }
    }
}
