//! Live progress on a terminal (indicatif): a bar for work of known length,
//! a spinner for a search. Nothing is drawn when standard error is not a
//! terminal or with `--json`: scripts see only the results.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Whether progress is drawn: standard error is a terminal and the output
/// is for people.
pub fn shown(json: bool) -> bool {
    !json && std::io::stderr().is_terminal()
}

/// A bar over `len` steps of `what` (hidden unless [`shown`]).
pub fn bar(len: u64, what: &str, json: bool) -> ProgressBar {
    if !shown(json) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{spinner}} {what} {{pos}}/{{len}} [{{bar:30}}] {{elapsed}} {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// A spinner saying `what` with the time elapsed (hidden unless [`shown`]).
pub fn spinner(what: &str, json: bool) -> ProgressBar {
    if !shown(json) {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix} {elapsed} {msg}") {
        spinner.set_style(style);
    }
    spinner.set_prefix(what.to_string());
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}
