//! The engine loop's commands, read from its lines (docs/ENGINE.md).

use caber_engine::quote;

/// A line of input, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Uci,
    IsReady,
    /// `debug on|off` (`None`: neither).
    Debug(Option<bool>),
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// `d`: the position's diagram.
    Display,
    Empty,
    /// An unknown command, quoted for the answer.
    Unknown(String),
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The variant's start (`startpos`), the deal of the `Seed` option.
    Variant,
    /// A position in the game's text notation (`fen TEXT`).
    Text(String),
}

/// The limits of a `go`, and what of it was not understood.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: u32,
    pub nodes: u64,
    pub movetime: u64,
    pub infinite: bool,
    pub ponder: bool,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: u64,
    pub binc: u64,
    pub movestogo: Option<u64>,
    /// The moves after `searchmoves`.
    pub searchmoves: Vec<String>,
    /// Words read and not obeyed, each with why (`info string go: ...`).
    pub ignored: Vec<String>,
}

/// The words of `go` that take a number.
const NUMBERS: [&str; 9] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
];

/// Whether `word` is one of `go`'s own words (it ends a list of `searchmoves`).
fn go_word(word: &str) -> bool {
    NUMBERS.contains(&word) || ["infinite", "ponder", "searchmoves"].contains(&word)
}

/// Reads one line of the protocol.
pub fn parse(line: &str) -> Input {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&command, rest)) = words.split_first() else {
        return Input::Empty;
    };
    let unknown = || Input::Unknown(quote(line.trim()).to_string());
    match command {
        "uci" => Input::Uci,
        "isready" => Input::IsReady,
        "ucinewgame" => Input::NewGame,
        "stop" => Input::Stop,
        "ponderhit" => Input::PonderHit,
        "quit" => Input::Quit,
        "d" => Input::Display,
        "debug" => Input::Debug(match rest {
            ["on"] => Some(true),
            ["off"] => Some(false),
            _ => None,
        }),
        "setoption" => parse_option(rest).unwrap_or_else(unknown),
        "position" => parse_position(rest).unwrap_or_else(unknown),
        "go" => Input::Go(parse_go(rest)),
        _ => unknown(),
    }
}

/// `name N... [value V...]`: names and values may hold spaces.
fn parse_option(words: &[&str]) -> Option<Input> {
    let words = words.strip_prefix(&["name"])?;
    let at = words.iter().position(|w| *w == "value");
    let (name, value) = match at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    (!name.is_empty()).then(|| Input::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

/// `startpos [moves ...]` or `fen TEXT [moves ...]` (the text may hold spaces).
fn parse_position(words: &[&str]) -> Option<Input> {
    let at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match head.split_first()? {
        (&"startpos", []) => Start::Variant,
        (&"fen", text) if !text.is_empty() => Start::Text(text.join(" ")),
        _ => return None,
    };
    Some(Input::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// `go` and its limits: a word it does not know, or a limit without a
/// number it can use, is noted in [`Go::ignored`] and the rest is read.
fn parse_go(words: &[&str]) -> Go {
    let mut go = Go::default();
    let mut at = 0;
    while let Some(&word) = words.get(at) {
        at += 1;
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(&mv) = words.get(at).filter(|w| !go_word(w)) {
                    go.searchmoves.push(mv.to_string());
                    at += 1;
                }
            }
            limit if NUMBERS.contains(&limit) => {
                let Some(&text) = words.get(at).filter(|w| !go_word(w)) else {
                    go.ignored
                        .push(format!("{limit} without a number, ignored"));
                    continue;
                };
                at += 1;
                let Ok(number) = text.parse::<u64>() else {
                    go.ignored
                        .push(format!("{limit} {} is not a number, ignored", quote(text)));
                    continue;
                };
                match limit {
                    "depth" => match u32::try_from(number) {
                        Ok(depth) => go.depth = depth,
                        Err(_) => go.ignored.push(format!("depth {number} is too deep, ignored")),
                    },
                    "nodes" => go.nodes = number,
                    "movetime" => go.movetime = number,
                    "wtime" => go.wtime = Some(number),
                    "btime" => go.btime = Some(number),
                    "winc" => go.winc = number,
                    "binc" => go.binc = number,
                    "movestogo" => go.movestogo = Some(number),
                    _ => go.ignored.push(format!(
                        "mate {number} ignored (no search for a mate in N; the search runs as without it)"
                    )),
                }
            }
            other => go
                .ignored
                .push(format!("unknown {}, ignored", quote(other))),
        }
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_as_uci_writes_them() {
        assert_eq!(parse("  uci "), Input::Uci);
        assert_eq!(parse(""), Input::Empty);
        assert_eq!(parse("d"), Input::Display);
        assert_eq!(parse("ponderhit"), Input::PonderHit);
        assert_eq!(parse("debug on"), Input::Debug(Some(true)));
        assert_eq!(parse("debug off"), Input::Debug(Some(false)));
        assert_eq!(parse("debug"), Input::Debug(None));
        assert_eq!(
            parse("setoption name Game value schotten-totten"),
            Input::SetOption {
                name: "Game".into(),
                value: "schotten-totten".into()
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Input::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
        assert_eq!(
            parse("position startpos moves e4-d4 i4-e4"),
            Input::Position {
                start: Start::Variant,
                moves: vec!["e4-d4".into(), "i4-e4".into()]
            }
        );
        // A position's text holds spaces: all of it up to `moves`.
        assert_eq!(
            parse("position fen place - - 12,12 0 r - moves C4"),
            Input::Position {
                start: Start::Text("place - - 12,12 0 r -".into()),
                moves: vec!["C4".into()]
            }
        );
        for bad in ["position", "position fen", "setoption", "bogus"] {
            assert_eq!(parse(bad), Input::Unknown(format!("\"{bad}\"")), "{bad}");
        }
        // An unknown command is quoted, a long one cut with its size.
        let long = "z".repeat(10_000);
        assert_eq!(
            parse(&long),
            Input::Unknown(format!("\"{}\"... (10000 bytes)", "z".repeat(64)))
        );
    }

    #[test]
    fn go_reads_its_limits_and_notes_what_it_ignores() {
        assert_eq!(
            parse("go wtime 60000 btime 50000 winc 1000 binc 1000 movestogo 10"),
            Input::Go(Go {
                wtime: Some(60_000),
                btime: Some(50_000),
                winc: 1000,
                binc: 1000,
                movestogo: Some(10),
                ..Go::default()
            })
        );
        assert_eq!(
            parse("go ponder infinite"),
            Input::Go(Go {
                infinite: true,
                ponder: true,
                ..Go::default()
            })
        );
        let go = |line: &str| match parse(line) {
            Input::Go(go) => go,
            other => panic!("{other:?}"),
        };
        let bad = go("go depth abc nodes 500");
        assert_eq!((bad.depth, bad.nodes), (0, 500));
        assert_eq!(bad.ignored, ["depth \"abc\" is not a number, ignored"]);
        assert_eq!(
            go("go movetime -5").ignored,
            ["movetime \"-5\" is not a number, ignored"]
        );
        let bare = go("go depth infinite");
        assert!(bare.infinite);
        assert_eq!(bare.ignored, ["depth without a number, ignored"]);
        assert_eq!(
            go("go depth 99999999999 fast").ignored,
            [
                "depth 99999999999 is too deep, ignored",
                "unknown \"fast\", ignored"
            ]
        );
        let some = go("go searchmoves e2-c2 e4-e3 depth 2");
        assert_eq!(some.searchmoves, ["e2-c2", "e4-e3"]);
        assert_eq!(some.depth, 2);
        assert!(some.ignored.is_empty());
        assert_eq!(
            go("go mate 3").ignored,
            ["mate 3 ignored (no search for a mate in N; the search runs as without it)"]
        );
    }
}
