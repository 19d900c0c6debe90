//! Client text as error messages quote it: escaped (quotes, control
//! characters) and cut to a short prefix, so that an error message or a log
//! line never grows with the input that caused it.

use std::fmt;

/// The most characters of a client value an error message repeats.
pub const QUOTE_CHARS: usize = 64;

/// `text` quoted for an error message: `"C9"`, or for a long value its
/// first [`QUOTE_CHARS`] characters and its size, `"aaaa..."... (100000 bytes)`.
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// A value quoted by [`quote`]; written by its `Display`.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((cut, _)) => write!(f, "{:?}... ({} bytes)", &self.0[..cut], self.0.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_quoted_whole_and_escaped() {
        assert_eq!(quote("C9").to_string(), r#""C9""#);
        assert_eq!(quote("a\"b\nc").to_string(), r#""a\"b\nc""#);
        assert_eq!(
            quote(&"x".repeat(64)).to_string(),
            format!("\"{}\"", "x".repeat(64))
        );
    }

    #[test]
    fn long_values_are_cut_at_a_character_boundary() {
        let long = "é".repeat(50_000);
        assert_eq!(
            quote(&long).to_string(),
            format!("\"{}\"... (100000 bytes)", "é".repeat(64))
        );
    }
}
