//! A person's lines for `caber play` and `caber puzzle play`: on a terminal
//! with line editing, history and Tab completion of the legal moves
//! (rustyline); from a pipe, plain lines. The editor blocks, so it runs on
//! a thread of its own and answers each question over a channel.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Editor, Helper};
use tokio::sync::{mpsc, oneshot};

use crate::lines::{self, Line};

/// The longest line read from a pipe (a longer one is ignored, not kept).
const MAX_LINE: usize = 64 * 1024;

/// One question: the prompt, the words to complete, where to answer.
type Question = (String, Vec<String>, oneshot::Sender<Option<String>>);

/// Asks a person for lines.
pub struct Prompter {
    questions: mpsc::UnboundedSender<Question>,
}

impl Prompter {
    /// A prompter on standard input: an editor on a terminal, plain lines
    /// otherwise.
    pub fn new() -> Self {
        let (questions, mut asked) = mpsc::unbounded_channel::<Question>();
        std::thread::spawn(move || {
            let mut reader = Reader::new();
            while let Some((prompt, words, answer)) = asked.blocking_recv() {
                let line = reader.read(&prompt, words);
                if answer.send(line).is_err() {
                    break;
                }
            }
        });
        Prompter { questions }
    }

    /// Asks `prompt`, offering `words` (e.g. the legal moves) to Tab; the
    /// line trimmed, or `None` at the end of the input (or Ctrl-C/Ctrl-D).
    pub async fn ask(
        &mut self,
        prompt: &str,
        words: Vec<String>,
    ) -> anyhow::Result<Option<String>> {
        let (answer, answered) = oneshot::channel();
        self.questions
            .send((prompt.to_string(), words, answer))
            .ok()
            .context("the input reader stopped")?;
        let line = answered.await.context("the input reader stopped")?;
        Ok(line.map(|l| l.trim().to_string()))
    }
}

/// The reading end: an editor, or plain lines.
enum Reader {
    Editor(Box<Editor<Words, DefaultHistory>>),
    Plain,
}

impl Reader {
    fn new() -> Self {
        if !std::io::stdin().is_terminal() {
            return Reader::Plain;
        }
        match Editor::<Words, DefaultHistory>::new() {
            Ok(mut editor) => {
                editor.set_helper(Some(Words::default()));
                Reader::Editor(Box::new(editor))
            }
            Err(_) => Reader::Plain,
        }
    }

    fn read(&mut self, prompt: &str, words: Vec<String>) -> Option<String> {
        match self {
            Reader::Editor(editor) => {
                if let Some(helper) = editor.helper() {
                    *helper.words.lock().unwrap_or_else(PoisonError::into_inner) = words;
                }
                match editor.readline(prompt) {
                    Ok(line) => {
                        if !line.trim().is_empty() {
                            let _ = editor.add_history_entry(line.as_str());
                        }
                        Some(line)
                    }
                    Err(ReadlineError::Interrupted | ReadlineError::Eof) => None,
                    Err(_) => None,
                }
            }
            Reader::Plain => {
                print!("{prompt}");
                std::io::stdout().flush().ok();
                match lines::read_line(&mut std::io::stdin().lock(), MAX_LINE) {
                    Ok(None) | Err(_) => {
                        println!();
                        None
                    }
                    Ok(Some(Line::Text(line))) => Some(line),
                    // Not kept: said, and answered as an empty line.
                    Ok(Some(long)) => {
                        println!("a line of more than {MAX_LINE} bytes, ignored: {long}");
                        Some(String::new())
                    }
                }
            }
        }
    }
}

/// Completes the word under the cursor from the words of the question.
#[derive(Default)]
struct Words {
    words: Arc<Mutex<Vec<String>>>,
}

impl Helper for Words {}
impl Highlighter for Words {}
impl Validator for Words {}
impl Hinter for Words {
    type Hint = String;
}

impl Completer for Words {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let words = self.words.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(completions(&words, line, pos))
    }
}

/// The words that start like the one before `pos` in `line` (any case), and
/// where that word starts.
fn completions(words: &[String], line: &str, pos: usize) -> (usize, Vec<Pair>) {
    let before = &line[..pos];
    let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let prefix = before[start..].to_ascii_lowercase();
    let found = words
        .iter()
        .filter(|w| w.to_ascii_lowercase().starts_with(&prefix))
        .map(|w| Pair {
            display: w.clone(),
            replacement: w.clone(),
        })
        .collect();
    (start, found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_under_the_cursor_is_completed_from_the_moves() {
        let moves: Vec<String> = ["e4-d4", "e4-c4", "i4-e4", "hint"]
            .map(String::from)
            .to_vec();
        let (start, found) = completions(&moves, "E4", 2);
        assert_eq!(start, 0);
        let found: Vec<&str> = found.iter().map(|p| p.replacement.as_str()).collect();
        assert_eq!(found, ["e4-d4", "e4-c4"]);
        let (start, found) = completions(&moves, "undo i", 6);
        assert_eq!((start, found.len()), (5, 1));
        assert_eq!(completions(&moves, "zz", 2).1.len(), 0);
    }
}
