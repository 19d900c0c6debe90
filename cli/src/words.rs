//! Command-line words: spaces separate, double or single quotes group, a
//! backslash escapes the next character (enough for engine templates).

/// The words of `line`.
pub fn split(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (_, '\\') => {
                word.extend(chars.next());
                in_word = true;
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    #[test]
    fn quotes_group_and_backslashes_escape() {
        assert_eq!(
            super::split(r#"a "b c" 'd e' f\ g "" h"#),
            ["a", "b c", "d e", "f g", "", "h"]
        );
    }
}
