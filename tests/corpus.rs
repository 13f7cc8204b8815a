//! The security and acceptance corpora for the static checker.
//!
//! `tests/corpus/hostile/*.py` are sandbox escapes, forbidden constructs and resource bombs.
//! Each must be rejected, and its header names the diagnostics that must appear:
//!
//! ```text
//! # expect: B204, B205        every listed code must be reported
//! # expect-any: B001, B003    at least one listed code must be reported
//! ```
//!
//! `tests/corpus/accepted/*.py` are realistic plans that must be accepted as they are.
//!
//! Each test checks its whole directory and fails once, listing every mismatch, so a single
//! run shows everything that is wrong.

use std::fs;
use std::path::{Path, PathBuf};

/// Fewer files than this means the corpus went missing, not that the checker got better.
const MIN_HOSTILE: usize = 60;
const MIN_ACCEPTED: usize = 40;

fn corpus_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("corpus")
        .join(kind)
}

/// Every `*.py` file in the corpus directory `kind`, sorted by name, with its text.
fn corpus_files(kind: &str) -> Vec<(String, String)> {
    let dir = corpus_dir(kind);
    let entries = fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot read corpus directory {}: {err}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.expect("corpus directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "py"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
            (name, text)
        })
        .collect()
}

/// What a hostile file's header says must be reported.
#[derive(Debug)]
enum Expectation {
    /// `# expect:` every code must appear.
    All(Vec<String>),
    /// `# expect-any:` at least one code must appear.
    Any(Vec<String>),
}

fn parse_codes(list: &str) -> Vec<String> {
    list.split(',')
        .map(|code| code.trim().to_string())
        .filter(|code| !code.is_empty())
        .collect()
}

fn parse_header(text: &str) -> Result<Expectation, String> {
    let first = text.lines().next().unwrap_or("").trim();
    let expectation = if let Some(rest) = first.strip_prefix("# expect-any:") {
        Expectation::Any(parse_codes(rest))
    } else if let Some(rest) = first.strip_prefix("# expect:") {
        Expectation::All(parse_codes(rest))
    } else {
        return Err(format!(
            "first line must be `# expect: Bxxx` or `# expect-any: ...`, found {first:?}"
        ));
    };
    let codes = match &expectation {
        Expectation::All(codes) | Expectation::Any(codes) => codes,
    };
    if codes.is_empty() {
        return Err("the header lists no codes".to_string());
    }
    for code in codes {
        if baton_compiler::Code::from_code(code).is_none() {
            return Err(format!("the header names unknown code {code:?}"));
        }
    }
    Ok(expectation)
}

fn fail_with(kind: &str, checked: usize, failures: &[String]) {
    if !failures.is_empty() {
        panic!(
            "{} of {checked} {kind} corpus files failed:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
}

#[test]
fn hostile_corpus_is_rejected_with_expected_codes() {
    let files = corpus_files("hostile");
    assert!(
        files.len() >= MIN_HOSTILE,
        "expected at least {MIN_HOSTILE} hostile plans in {}, found {}",
        corpus_dir("hostile").display(),
        files.len()
    );
    let mut failures = Vec::new();
    for (name, text) in &files {
        let expectation = match parse_header(text) {
            Ok(expectation) => expectation,
            Err(problem) => {
                failures.push(format!("{name}: bad header: {problem}"));
                continue;
            }
        };
        let report = baton_compiler::check_source(name, text);
        let mut got: Vec<&'static str> = report.codes().iter().map(|code| code.as_str()).collect();
        got.sort_unstable();
        got.dedup();
        let got_list = if got.is_empty() {
            "nothing".to_string()
        } else {
            got.join(", ")
        };
        if report.is_accepted() {
            let rendered = report.render_human();
            failures.push(format!(
                "{name}: ACCEPTED but must be rejected (reported: {got_list}){}{}",
                if rendered.trim().is_empty() { "" } else { "\n" },
                rendered.trim_end()
            ));
            continue;
        }
        match &expectation {
            Expectation::All(want) => {
                let missing: Vec<&str> = want
                    .iter()
                    .map(String::as_str)
                    .filter(|code| !got.contains(code))
                    .collect();
                if !missing.is_empty() {
                    failures.push(format!(
                        "{name}: missing {} (expected all of {}; reported: {got_list})",
                        missing.join(", "),
                        want.join(", ")
                    ));
                }
            }
            Expectation::Any(want) => {
                if !want.iter().any(|code| got.contains(&code.as_str())) {
                    failures.push(format!(
                        "{name}: expected at least one of {} (reported: {got_list})",
                        want.join(", ")
                    ));
                }
            }
        }
    }
    fail_with("hostile", files.len(), &failures);
}

#[test]
fn accepted_corpus_is_accepted() {
    let files = corpus_files("accepted");
    assert!(
        files.len() >= MIN_ACCEPTED,
        "expected at least {MIN_ACCEPTED} accepted plans in {}, found {}",
        corpus_dir("accepted").display(),
        files.len()
    );
    let mut failures = Vec::new();
    for (name, text) in &files {
        let report = baton_compiler::check_source(name, text);
        if !report.is_accepted() {
            failures.push(format!(
                "{name}: REJECTED but must be accepted\n{}",
                report.render_human()
            ));
        }
    }
    fail_with("accepted", files.len(), &failures);
}
