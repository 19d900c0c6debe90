//! The documentation's examples are real output: in every ```text block of
//! README.md and docs/*.md that starts with `$ caber ...`, each command is
//! run (from the repository root) and its output compared with the lines
//! up to the next command, line by line. A line `...` stands for any lines,
//! `...` within a line for any text; the fields that change from run to run
//! (`nps N`, `time N`, `in N s`) are compared as placeholders. A command
//! ending in `< FILE` reads FILE (from the root) on its standard input.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The words of a command line: spaces separate, double or single quotes
/// group, a backslash escapes the next character.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, ' ') => {
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

/// A line with its run-dependent numbers replaced.
fn normalized(line: &str) -> String {
    let tokens: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let number = !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
        let before = i.checked_sub(1).map(|j| tokens[j]);
        let after = tokens.get(i + 1).copied();
        let volatile =
            matches!(before, Some("nps" | "time")) || (before == Some("in") && after == Some("s"));
        out.push(if number && volatile { "N" } else { t });
    }
    out.join(" ").trim_end().to_string()
}

/// Whether an actual line matches an expected one: equal, or, where the
/// expected line holds `...`, the same beginning and end around it.
fn line_matches(expected: &str, actual: &str) -> bool {
    match expected.split_once("...") {
        Some((before, after)) => {
            let (before, after) = (before.trim_end(), after.trim_start());
            actual.len() >= before.len() + after.len()
                && actual.starts_with(before)
                && actual.ends_with(after)
        }
        None => expected == actual,
    }
}

/// Whether `actual` matches `expected` (a line `...` matches any lines).
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(first, a) && matches(rest, more)),
    }
}

/// The `$ caber` examples of a Markdown file: (line number, command, expected lines).
fn examples(text: &str) -> Vec<(usize, String, Vec<String>)> {
    let mut found = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "```text" {
            let start = i + 1;
            let end = (start..lines.len())
                .find(|&j| lines[j].trim() == "```")
                .expect("a closed block");
            // One block may hold several commands, each with its output.
            let mut j = start;
            while j < end {
                let Some(first) = lines[j].strip_prefix("$ caber ") else {
                    break;
                };
                // A command may go on over lines ending in a backslash.
                let mut command = first.to_string();
                let at = j;
                while command.ends_with('\\') && j + 1 < end {
                    command.pop();
                    j += 1;
                    command.push(' ');
                    command.push_str(lines[j].trim());
                }
                let next = (j + 1..end)
                    .find(|&k| lines[k].starts_with("$ caber "))
                    .unwrap_or(end);
                let mut expected: Vec<String> =
                    lines[j + 1..next].iter().map(|l| normalized(l)).collect();
                while expected.last().is_some_and(|l| l.is_empty()) {
                    expected.pop();
                }
                found.push((at + 1, command, expected));
                j = next;
            }
            i = end;
        }
        i += 1;
    }
    found
}

#[test]
fn every_caber_example_in_the_docs_is_what_caber_prints() {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line, command, expected) in examples(&text) {
            // `< FILE` at the end: the command reads FILE (from the root).
            let mut args = words(&command);
            let input = match args.as_slice() {
                [.., lt, file] if lt == "<" => {
                    let file = std::fs::File::open(root().join(file)).expect("the input file");
                    args.truncate(args.len() - 2);
                    Stdio::from(file)
                }
                _ => Stdio::null(),
            };
            let out = Command::new(env!("CARGO_BIN_EXE_caber"))
                .args(args)
                .current_dir(root())
                .stdin(input)
                .output()
                .expect("caber runs");
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let actual: Vec<String> = printed.lines().map(normalized).collect();
            checked += 1;
            if !matches(&expected, &actual) {
                failures.push(format!(
                    "{}:{line}: `caber {command}` printed:\n{printed}",
                    file.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 10, "only {checked} examples found");
}

#[test]
fn the_matcher_and_the_word_splitter_work() {
    let e = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&e(&["a", "...", "d"]), &e(&["a", "b", "c", "d"])));
    assert!(matches(&e(&["a", "...", "b"]), &e(&["a", "b"])));
    assert!(!matches(&e(&["a", "d"]), &e(&["a", "b", "d"])));
    assert!(!matches(&e(&["a"]), &e(&["a", "b"])));
    assert!(matches(&e(&["[1, ... ,9]"]), &e(&["[1,2,3,9]"])));
    assert!(!matches(&e(&["[1, ... ,9]"]), &e(&["[2,9]"])));
    assert_eq!(
        words(r#"--game tartan --moves "C4 F6" new --x 'a b' c\"d"#),
        ["--game", "tartan", "--moves", "C4 F6", "new", "--x", "a b", "c\"d"]
    );
    assert_eq!(
        normalized("depth 3 nodes 17 nps 9143961 time 0"),
        "depth 3 nodes 17 nps N time N"
    );
    assert_eq!(
        normalized("solved 30 of 30 in 0.05 s"),
        "solved 30 of 30 in N s"
    );
}
