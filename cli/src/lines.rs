//! Lines read from another program with a bound on each: a line longer
//! than the bound is counted, never kept whole, so no input (one endless
//! line, say) makes the reader grow. Bytes that are not UTF-8 are read as
//! U+FFFD, so they make a line of text, not an error.

use std::fmt;
use std::io::{self, BufRead};

use caber_engine::quote::{quote, QUOTE_CHARS};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// A line read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line within the bound, without its end (`\n` or `\r\n`).
    Text(String),
    /// A line over the bound: its first bytes (the bound's worth, as text)
    /// and its size in bytes so far.
    TooLong { start: String, bytes: u64 },
}

impl fmt::Display for Line {
    /// The line as error messages quote it (see [`mod@caber_engine::quote`]):
    /// whole when short, else its first characters and its size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Text(text) => write!(f, "{}", quote(text)),
            Line::TooLong { start, bytes } => {
                let cut = start
                    .char_indices()
                    .nth(QUOTE_CHARS)
                    .map_or(start.len(), |(i, _)| i);
                write!(f, "{:?}... ({bytes} bytes)", &start[..cut])
            }
        }
    }
}

/// A line being read: at most `max` bytes kept, the rest counted.
struct Partial {
    max: usize,
    /// The line so far (at most `max` bytes).
    line: Vec<u8>,
    /// Bytes of the line past `max`, counted and dropped.
    over: u64,
}

impl Partial {
    fn new(max: usize) -> Self {
        Partial {
            max,
            line: Vec::new(),
            over: 0,
        }
    }

    /// Takes what `buf` holds of the line: how many bytes it used, and
    /// whether the line ended in them.
    fn feed(&mut self, buf: &[u8]) -> (usize, bool) {
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let keep = chunk.len().min(self.max - self.line.len());
        self.line.extend_from_slice(&chunk[..keep]);
        self.over += (chunk.len() - keep) as u64;
        (newline.map_or(buf.len(), |i| i + 1), newline.is_some())
    }

    fn is_empty(&self) -> bool {
        self.line.is_empty() && self.over == 0
    }

    /// The line read so far, and a fresh start.
    fn take(&mut self) -> Line {
        let mut bytes = std::mem::take(&mut self.line);
        let over = std::mem::take(&mut self.over);
        if over > 0 {
            return Line::TooLong {
                start: String::from_utf8_lossy(&bytes).into_owned(),
                bytes: bytes.len() as u64 + over,
            };
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Line::Text(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// Reads one line of at most `max` bytes from a blocking `reader` (a longer
/// one is counted to its end, not kept); `None` at the end of the input.
pub fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut partial = Partial::new(max);
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok((!partial.is_empty()).then(|| partial.take()));
        }
        let (used, ended) = partial.feed(buf);
        reader.consume(used);
        if ended {
            return Ok(Some(partial.take()));
        }
    }
}

/// Reads lines of at most `max` bytes from `reader`. Cancel-safe: what a
/// dropped [`BoundedLines::next_line`] had read is kept for the next call.
pub struct BoundedLines<R> {
    reader: R,
    /// Whether a line over the bound is returned as soon as it passes it
    /// (its rest then skipped), rather than once it ends.
    early: bool,
    partial: Partial,
    /// The rest of a line returned early is being skipped.
    skipping: bool,
}

impl<R: AsyncBufRead + Unpin> BoundedLines<R> {
    /// Lines of at most `max` bytes; a longer one is returned, as
    /// [`Line::TooLong`] with its whole size, once it ends.
    pub fn new(reader: R, max: usize) -> Self {
        BoundedLines {
            reader,
            early: false,
            partial: Partial::new(max),
            skipping: false,
        }
    }

    /// Lines of at most `max` bytes; a longer one is returned as soon as it
    /// passes the bound (for a reader that gives up on it: an endless line
    /// is not waited for), and its rest is skipped.
    pub fn cut_early(reader: R, max: usize) -> Self {
        BoundedLines {
            early: true,
            ..Self::new(reader, max)
        }
    }

    /// The next line, `None` at the end of the input.
    pub async fn next_line(&mut self) -> io::Result<Option<Line>> {
        loop {
            let buf = self.reader.fill_buf().await?;
            if buf.is_empty() {
                return Ok((!self.partial.is_empty()).then(|| self.partial.take()));
            }
            if self.skipping {
                let newline = buf.iter().position(|&b| b == b'\n');
                let used = newline.map_or(buf.len(), |i| i + 1);
                self.reader.consume(used);
                self.skipping = newline.is_none();
                continue;
            }
            let (used, ended) = self.partial.feed(buf);
            self.reader.consume(used);
            if ended {
                return Ok(Some(self.partial.take()));
            }
            if self.early && self.partial.over > 0 {
                self.skipping = true;
                return Ok(Some(self.partial.take()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(lines: &mut BoundedLines<&[u8]>) -> Vec<Line> {
        let mut read = Vec::new();
        while let Some(line) = lines.next_line().await.unwrap() {
            read.push(line);
        }
        read
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[tokio::test]
    async fn lines_within_the_bound_are_read_whole_and_lossily() {
        let input: &[u8] = b"uci\r\nisready\n\xffgo\n\nlast";
        let mut lines = BoundedLines::new(input, 8);
        assert_eq!(
            all(&mut lines).await,
            [
                text("uci"),
                text("isready"),
                text("\u{fffd}go"),
                text(""),
                text("last")
            ]
        );
    }

    #[tokio::test]
    async fn a_long_line_is_counted_not_kept() {
        let input: &[u8] = b"abcdefghij\nok\n0123456789";
        let mut lines = BoundedLines::new(input, 4);
        let long = |start: &str, bytes| Line::TooLong {
            start: start.to_string(),
            bytes,
        };
        assert_eq!(
            all(&mut lines).await,
            [long("abcd", 10), text("ok"), long("0123", 10)]
        );
        // Cut early: returned as soon as it passes the bound, its rest skipped.
        let mut lines = BoundedLines::cut_early(input, 4);
        let first = lines.next_line().await.unwrap().unwrap();
        assert!(
            matches!(&first, Line::TooLong { start, bytes } if start == "abcd" && *bytes > 4),
            "{first:?}"
        );
        assert_eq!(lines.next_line().await.unwrap(), Some(text("ok")));
        // Quoted with the line's size, not the part kept.
        let quoted = Line::TooLong {
            start: "y".repeat(100),
            bytes: 10_485_760,
        };
        assert_eq!(
            quoted.to_string(),
            format!("\"{}\"... (10485760 bytes)", "y".repeat(64))
        );
        assert_eq!(text("a\"b").to_string(), r#""a\"b""#);
    }

    #[test]
    fn a_blocking_reader_reads_lines_the_same_way() {
        let mut input: &[u8] = b"e4-d4\r\n\xffabcdefgh\nlast";
        let mut read = Vec::new();
        while let Some(line) = read_line(&mut input, 6).unwrap() {
            read.push(line);
        }
        let long = Line::TooLong {
            start: "\u{fffd}abcde".to_string(),
            bytes: 9,
        };
        assert_eq!(read, [text("e4-d4"), long, text("last")]);
    }

    #[tokio::test]
    async fn an_endless_line_keeps_the_reader_bounded() {
        // One line that never ends: a reader cut early returns once past
        // the bound (a guard of 5 s: without the cut it would read forever).
        let endless = tokio::io::BufReader::new(tokio::io::repeat(b'x'));
        let mut lines = BoundedLines::cut_early(endless, 1024);
        let line = tokio::time::timeout(std::time::Duration::from_secs(5), lines.next_line())
            .await
            .expect("returned past the bound")
            .unwrap();
        match line {
            Some(Line::TooLong { start, bytes }) => {
                assert_eq!(start, "x".repeat(1024));
                assert!(bytes > 1024, "{bytes}");
            }
            other => panic!("{other:?}"),
        }
    }
}
