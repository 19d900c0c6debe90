//! The Tablut Challenge server's protocol, as its source
//! (AGalassi/TablutCompetition, `Server.java`, `StreamUtils.java`,
//! `State.java`, `Action.java`) defines it; docs/TABLUT_CHALLENGE.md says
//! it in full. Every message is a frame: a 4-byte big-endian length, then
//! that many bytes of UTF-8 JSON. The client sends its name as a JSON
//! string, then one move `{"from":"e4","to":"h4","turn":"WHITE"}` per turn;
//! the server sends both players every state `{"board":[9 rows of 9 cell
//! names],"turn":...}`. Cells are named by a column letter `a`..`i` (the
//! second index of `board`) and a row digit `1`..`9` (the first index, row 1
//! on top), as in Caber's Tablut notation.

use std::fmt;

use caber_engine::quote;
use caber_service::proto;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The longest frame read (a state is 691 bytes): a larger length is a
/// protocol error, not an allocation.
const MAX_FRAME: usize = 64 * 1024;

/// Why a game against the server could not go on; the command's exit code
/// tells the two apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The server sent something the protocol does not allow.
    Protocol(String),
    /// The connection failed, closed, or went silent.
    Connection(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Protocol(why) => write!(f, "protocol error: {why}"),
            Failure::Connection(why) => write!(f, "connection: {why}"),
        }
    }
}

impl std::error::Error for Failure {}

/// The reason Caber's `ashton` rules give when the side to move has no
/// legal move (it loses). The server does not look: it gives that side the
/// turn, and the move it cannot make loses.
pub const NO_LEGAL_MOVE: &str = "no legal move";

/// The two players, as the server names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The server's name (`WHITE`, `BLACK`).
    pub fn wire(self) -> &'static str {
        match self {
            Color::White => "WHITE",
            Color::Black => "BLACK",
        }
    }

    /// The player's name as Caber's Tablut writes it (`white`, `black`).
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The player of Caber's Tablut `side` (black is side one).
    pub fn of_side(side: proto::Side) -> Color {
        match side {
            proto::Side::One => Color::Black,
            _ => Color::White,
        }
    }

    /// The opponent.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The server's port for this player (`Configuration.java`).
    pub fn default_port(self) -> u16 {
        match self {
            Color::White => 5800,
            Color::Black => 5801,
        }
    }

    /// The player as Caber's Tablut names it (black is side one).
    pub fn side(self) -> proto::Side {
        match self {
            Color::White => proto::Side::Two,
            Color::Black => proto::Side::One,
        }
    }
}

/// A state's `turn`: who moves, or how the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    ToMove(Color),
    WhiteWin,
    BlackWin,
    Draw,
}

impl Turn {
    /// The server's name of it.
    pub fn wire(self) -> &'static str {
        match self {
            Turn::ToMove(c) => c.wire(),
            Turn::WhiteWin => "WHITEWIN",
            Turn::BlackWin => "BLACKWIN",
            Turn::Draw => "DRAW",
        }
    }
}

/// A state the server sent: the pieces by cell name (sorted) and the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub black: Vec<String>,
    pub white: Vec<String>,
    pub king: Option<String>,
    pub turn: Turn,
}

impl State {
    /// Reads a state message; an error names what is wrong.
    pub fn parse(text: &str) -> Result<State, Failure> {
        let bad =
            |why: String| Failure::Protocol(format!("a state message {why}: {}", quote(text)));
        let value: Value =
            serde_json::from_str(text).map_err(|e| bad(format!("is not JSON ({e})")))?;
        let turn = match value.get("turn").and_then(Value::as_str) {
            Some("WHITE") => Turn::ToMove(Color::White),
            Some("BLACK") => Turn::ToMove(Color::Black),
            Some("WHITEWIN") => Turn::WhiteWin,
            Some("BLACKWIN") => Turn::BlackWin,
            Some("DRAW") => Turn::Draw,
            _ => {
                let turn = value.get("turn").map_or("none".to_string(), shown);
                return Err(bad(format!("has no valid \"turn\" ({turn})")));
            }
        };
        let rows = value
            .get("board")
            .and_then(Value::as_array)
            .filter(|rows| rows.len() == 9)
            .ok_or_else(|| bad("has no \"board\" of 9 rows".to_string()))?;
        let mut state = State {
            black: Vec::new(),
            white: Vec::new(),
            king: None,
            turn,
        };
        for (r, row) in rows.iter().enumerate() {
            let cells = row
                .as_array()
                .filter(|cells| cells.len() == 9)
                .ok_or_else(|| bad(format!("has a row {} that is not 9 cells", r + 1)))?;
            for (c, cell) in cells.iter().enumerate() {
                let name = cell_name(r, c);
                match cell.as_str() {
                    Some("EMPTY") => {}
                    Some("THRONE") if name == "e5" => {}
                    Some("BLACK") => state.black.push(name),
                    Some("WHITE") => state.white.push(name),
                    Some("KING") if state.king.is_none() => state.king = Some(name),
                    _ => return Err(bad(format!("has {} on {name}", shown(cell)))),
                }
            }
        }
        // The server leaves even a captured king on the board.
        if state.king.is_none() {
            return Err(bad("has no \"KING\"".to_string()));
        }
        state.black.sort();
        state.white.sort();
        Ok(state)
    }

    /// The position in Caber's typed form (no repetition history).
    pub fn position(&self, side_to_move: proto::Side) -> proto::TablutPosition {
        proto::TablutPosition {
            black: self.black.clone(),
            white: self.white.clone(),
            king: self.king.clone().unwrap_or_default(),
            side_to_move: side_to_move as i32,
            history: Vec::new(),
            passes: 0,
        }
    }
}

impl State {
    /// The state of `position` with `turn`, as the server shows it: a
    /// captured king (`king_left`) stays on the cell he was taken on.
    pub fn of(position: &proto::TablutPosition, turn: Turn, king_left: Option<&str>) -> State {
        let sorted = |cells: &[String]| {
            let mut cells = cells.to_vec();
            cells.sort();
            cells
        };
        let king = Some(position.king.as_str())
            .filter(|k| !k.is_empty())
            .or(king_left)
            .map(str::to_string);
        State {
            black: sorted(&position.black),
            white: sorted(&position.white),
            king,
            turn,
        }
    }

    /// The state message, byte for byte as the server's JSON library
    /// writes it: `board` (9 rows from row 1, `THRONE` on an empty e5),
    /// then `turn`.
    pub fn message(&self) -> String {
        let mut text = String::from("{\"board\":[");
        for r in 0..9 {
            text.push_str(if r == 0 { "[" } else { ",[" });
            for c in 0..9 {
                let name = cell_name(r, c);
                let cell = if self.king.as_ref() == Some(&name) {
                    "KING"
                } else if self.white.contains(&name) {
                    "WHITE"
                } else if self.black.contains(&name) {
                    "BLACK"
                } else if name == "e5" {
                    "THRONE"
                } else {
                    "EMPTY"
                };
                if c > 0 {
                    text.push(',');
                }
                text.push('"');
                text.push_str(cell);
                text.push('"');
            }
            text.push(']');
        }
        text.push_str("],\"turn\":\"");
        text.push_str(self.turn.wire());
        text.push_str("\"}");
        text
    }
}

/// A player's name message read as the server reads it (Gson 2.2.2's
/// lenient reader): a JSON string, a single-quoted string, or a bare word
/// such as `Player1` (what albe873/tablut.cpp sends), blanks around it
/// allowed; then the first 10 characters are kept, letters and digits only.
/// An error says what came instead: the server stops with an exception on
/// it (`Player 1`, `{}`, `null`, nothing).
pub fn read_name(text: &str) -> Result<String, String> {
    let refused = || format!("a name the server cannot read: {}", quote(text));
    let word = text.trim_matches([' ', '\t', '\n', '\r']);
    let name = if word.starts_with('"') {
        match serde_json::from_str::<Value>(word) {
            Ok(Value::String(name)) => name,
            _ => return Err(refused()),
        }
    } else if let Some(inner) = word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')) {
        if inner.contains(['\'', '\\']) {
            return Err(refused());
        }
        inner.to_string()
    } else if word.is_empty()
        || word == "null"
        || word.contains(|c: char| c.is_whitespace() || "/\\;#={}[]:,'\"".contains(c))
    {
        return Err(refused());
    } else {
        word.to_string()
    };
    Ok(name
        .chars()
        .take(10)
        .filter(|c| c.is_alphanumeric())
        .collect())
}

/// A move message read as the server reads it: an object whose `from` and
/// `to` are strings (its `turn` and anything else ignored). An error says
/// what is wrong; the cells themselves are the rules' to judge.
pub fn read_move(text: &str) -> Result<(String, String), String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|_| format!("a move message that is not JSON: {}", quote(text)))?;
    let cell = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("a move message with no \"{key}\" string: {}", quote(text)))
    };
    Ok((cell("from")?, cell("to")?))
}

/// A JSON value the server sent, as an error repeats it: a string quoted
/// (cut to its start and size when long), anything else as JSON, cut too.
fn shown(value: &Value) -> String {
    match value.as_str() {
        Some(text) => quote(text).to_string(),
        None => quote(&value.to_string()).to_string(),
    }
}

/// The server's name of `board[row][column]`.
fn cell_name(row: usize, column: usize) -> String {
    format!("{}{}", char::from(b'a' + column as u8), row + 1)
}

/// The name message: the name as a JSON string, as the reference client
/// sends it (the server keeps the first 10 characters, letters and digits).
pub fn name_message(name: &str) -> String {
    Value::from(name).to_string()
}

/// A move message.
pub fn move_message(from: &str, to: &str, mover: Color) -> String {
    serde_json::json!({"from": from, "to": to, "turn": mover.wire()}).to_string()
}

/// Writes one frame.
pub async fn write_frame<W: AsyncWriteExt + Unpin>(out: &mut W, text: &str) -> Result<(), Failure> {
    let length = u32::try_from(text.len()).expect("a short message");
    let mut frame = length.to_be_bytes().to_vec();
    frame.extend_from_slice(text.as_bytes());
    out.write_all(&frame)
        .await
        .and(out.flush().await)
        .map_err(|e| Failure::Connection(format!("cannot send to the server ({e})")))
}

/// Reads one frame: `None` when the server closed the connection before
/// starting one.
pub async fn read_frame<R: AsyncReadExt + Unpin>(input: &mut R) -> Result<Option<String>, Failure> {
    let mut length = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match input.read(&mut length[got..]).await {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(closed()),
            Ok(n) => got += n,
            Err(e) => return Err(Failure::Connection(format!("cannot read ({e})"))),
        }
    }
    let length = i32::from_be_bytes(length);
    let size = usize::try_from(length)
        .ok()
        .filter(|&n| n <= MAX_FRAME)
        .ok_or_else(|| {
            Failure::Protocol(format!(
                "a frame length of {length} bytes (at most {MAX_FRAME})"
            ))
        })?;
    let mut body = vec![0u8; size];
    input
        .read_exact(&mut body)
        .await
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => closed(),
            _ => Failure::Connection(format!("cannot read ({e})")),
        })?;
    String::from_utf8(body)
        .map(Some)
        .map_err(|_| Failure::Protocol("a frame that is not UTF-8".to_string()))
}

fn closed() -> Failure {
    Failure::Connection("the server closed the connection in the middle of a message".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's initial state, as `Server.java` sends it (691 bytes).
    const START: &str = concat!(
        r#"{"board":[["EMPTY","EMPTY","EMPTY","BLACK","BLACK","BLACK","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","BLACK","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["BLACK","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","BLACK"],"#,
        r#"["BLACK","BLACK","WHITE","WHITE","KING","WHITE","WHITE","BLACK","BLACK"],"#,
        r#"["BLACK","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","BLACK"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","WHITE","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","EMPTY","BLACK","EMPTY","EMPTY","EMPTY","EMPTY"],"#,
        r#"["EMPTY","EMPTY","EMPTY","BLACK","BLACK","BLACK","EMPTY","EMPTY","EMPTY"]],"turn":"WHITE"}"#
    );

    #[test]
    fn the_start_state_reads_with_row_one_on_top() {
        assert_eq!(START.len(), 691);
        let state = State::parse(START).unwrap();
        assert_eq!(state.turn, Turn::ToMove(Color::White));
        assert_eq!(state.king.as_deref(), Some("e5"));
        assert_eq!(
            state.white,
            ["c5", "d5", "e3", "e4", "e6", "e7", "f5", "g5"]
        );
        assert_eq!(state.black.len(), 16);
        // Black's top camp: d1 e1 f1 e2 (`StateTablut.java`).
        for cell in ["d1", "e1", "f1", "e2", "a4", "b5", "h5", "e8"] {
            assert!(state.black.contains(&cell.to_string()), "{cell}");
        }
    }

    #[test]
    fn bad_states_are_refused_by_what_is_wrong() {
        let cases = [
            ("{", "is not JSON"),
            (r#"{"board":[],"turn":"WHITE"}"#, "9 rows"),
            (r#"{"board":[[]],"turn":"W"}"#, "\"turn\""),
            (
                &START
                    .replacen("\"KING\"", "\"THRONE\"", 1)
                    .replacen("\"EMPTY\"", "\"THRONE\"", 1),
                "on a1",
            ),
            // A second king.
            (
                &START.replacen("\"EMPTY\"", "\"KING\"", 1),
                "\"KING\" on e5",
            ),
            // No king: the server leaves even a captured one on the board.
            (&START.replacen("\"KING\"", "\"THRONE\"", 1), "no \"KING\""),
            (r#"{"board":[],"turn":7}"#, "(\"7\")"),
            (&START.replacen("[\"EMPTY\",", "[", 1), "row 1"),
        ];
        for (text, expected) in cases {
            match State::parse(text) {
                Err(Failure::Protocol(why)) => assert!(why.contains(expected), "{why}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_state_is_written_as_the_server_writes_it() {
        let state = State::parse(START).unwrap();
        assert_eq!(state.message(), START);
        // A captured king stays on his cell; e5 empty is the throne.
        let position = proto::TablutPosition {
            black: vec!["e4".into(), "d3".into(), "f3".into()],
            white: vec![],
            king: String::new(),
            side_to_move: 0,
            history: Vec::new(),
            passes: 0,
        };
        let end = State::of(&position, Turn::BlackWin, Some("e3"));
        let text = end.message();
        assert!(text.ends_with(r#"],"turn":"BLACKWIN"}"#), "{text}");
        let back = State::parse(&text).unwrap();
        assert_eq!(back, end);
        assert_eq!(back.king.as_deref(), Some("e3"));
        assert!(text.contains(r#"["EMPTY","EMPTY","EMPTY","EMPTY","THRONE","#));
    }

    #[test]
    fn names_and_moves_are_read_as_the_server_reads_them() {
        assert_eq!(read_name("\"caber\"").unwrap(), "caber");
        // The first 10 characters, letters and digits only.
        assert_eq!(read_name("\"a b-c_d.e/f9xyz\"").unwrap(), "abcde");
        assert_eq!(read_name("\"Très1234567\"").unwrap(), "Très123456");
        // What Gson 2.2.2, the server's reader, makes of other names (its
        // answers, run on each of them).
        assert_eq!(read_name("Player1").unwrap(), "Player1");
        assert_eq!(read_name("  caber\n").unwrap(), "caber");
        assert_eq!(read_name("123").unwrap(), "123");
        assert_eq!(read_name("'x y'").unwrap(), "xy");
        assert_eq!(read_name("\"a\" ").unwrap(), "a");
        for refused in [
            "Player 1", "a;b", "a#b", "a/b", "a=b", "{}", "[1]", "null", "", "\"a\" x",
        ] {
            assert!(
                read_name(refused)
                    .unwrap_err()
                    .contains("a name the server cannot read"),
                "{refused}"
            );
        }
        assert_eq!(
            read_move(r#"{"from":"e4","to":"h4","turn":"WHITE"}"#).unwrap(),
            ("e4".to_string(), "h4".to_string())
        );
        // The turn is ignored; extra keys too.
        assert_eq!(
            read_move(r#"{"to":"A1","from":"zz","turn":7,"x":[]}"#).unwrap(),
            ("zz".to_string(), "A1".to_string())
        );
        assert!(read_move("e4-h4").unwrap_err().contains("not JSON"));
        assert!(read_move(r#"{"from":"e4"}"#)
            .unwrap_err()
            .contains("\"to\""));
        assert!(read_move(r#"{"from":1,"to":"e5"}"#)
            .unwrap_err()
            .contains("\"from\""));
    }

    #[test]
    fn messages_are_the_reference_clients_bytes() {
        assert_eq!(name_message("caber"), "\"caber\"");
        assert_eq!(
            move_message("e4", "h4", Color::White),
            r#"{"from":"e4","to":"h4","turn":"WHITE"}"#
        );
    }

    #[tokio::test]
    async fn frames_are_a_big_endian_length_and_the_bytes() {
        let mut written = Vec::new();
        write_frame(&mut written, "\"random\"").await.unwrap();
        assert_eq!(
            written,
            [0, 0, 0, 8, 0x22, b'r', b'a', b'n', b'd', b'o', b'm', 0x22]
        );
        let mut input: &[u8] = &written;
        assert_eq!(
            read_frame(&mut input).await.unwrap().as_deref(),
            Some("\"random\"")
        );
        assert_eq!(read_frame(&mut input).await.unwrap(), None);
        let mut cut: &[u8] = &written[..6];
        assert!(matches!(
            read_frame(&mut cut).await,
            Err(Failure::Connection(_))
        ));
        let mut huge: &[u8] = &[0x7f, 0, 0, 0];
        assert!(matches!(
            read_frame(&mut huge).await,
            Err(Failure::Protocol(_))
        ));
        let mut negative: &[u8] = &[0xff, 0xff, 0xff, 0xff];
        assert!(matches!(
            read_frame(&mut negative).await,
            Err(Failure::Protocol(_))
        ));
    }
}
