//! The Tablut Challenge's wire format, as the CLI's tests write it: a frame
//! (a 4-byte big-endian length, then UTF-8 JSON) and the server's state
//! message for a position in Caber's notation.

use std::io::Write;
use std::net::TcpStream;

pub fn write_frame(stream: &mut TcpStream, text: &str) {
    stream
        .write_all(&(text.len() as u32).to_be_bytes())
        .unwrap();
    stream.write_all(text.as_bytes()).unwrap();
}

/// The server's state message for a position in Caber's notation: the
/// board's rows from row 1, `THRONE` on an empty e5, and the turn.
pub fn state_message(notation: &str, turn: &str) -> String {
    let board = notation.split(' ').next().unwrap();
    let rows: Vec<String> = board
        .split('/')
        .enumerate()
        .map(|(r, row)| {
            let mut cells = Vec::new();
            for c in row.chars() {
                match c {
                    'b' => cells.push("BLACK"),
                    'w' => cells.push("WHITE"),
                    'k' => cells.push("KING"),
                    d => (0..d.to_digit(10).unwrap()).for_each(|_| cells.push("EMPTY")),
                }
            }
            if r == 4 && cells[4] == "EMPTY" {
                cells[4] = "THRONE";
            }
            let quoted: Vec<String> = cells.iter().map(|c| format!("\"{c}\"")).collect();
            format!("[{}]", quoted.join(","))
        })
        .collect();
    format!("{{\"board\":[{}],\"turn\":\"{turn}\"}}", rows.join(","))
}
