//! Invariants that must hold for every input the checker is given. The cargo-fuzz target
//! (`fuzz/fuzz_targets/check.rs`) and the corpus replay test (`tests/fuzz_corpus.rs`) both call
//! [`check_invariants`], so a crash the fuzzer finds reproduces as a failing test in CI.
//!
//! Every check panics with a message that names the input and the broken invariant: for the
//! fuzzer a panic is a finding.

use crate::{check_in_place, CheckReport, Code, Limits};

/// The file name the fuzz target and the replay test give every input.
pub const FUZZ_FILE_NAME: &str = "fuzz.py";

/// Checks `text` on the calling thread (so a panic inside the checker surfaces instead of being
/// turned into [`Code::InternalError`]) and asserts [`assert_report_invariants`] on the result.
/// Returns the report for callers that want to compare it with another run.
pub fn check_invariants(text: &str) -> CheckReport {
    let report = check_in_place(FUZZ_FILE_NAME, text, &Limits::default());
    assert_report_invariants(text, &report);
    report
}

/// The invariants of one report for the source `text`:
///
/// - no diagnostic is [`Code::InternalError`] (B000): the checker never gives up internally;
/// - the report's file holds exactly `text`;
/// - every span has `start <= end <= text.len()`, and both ends are character boundaries;
/// - `render_human()` and `render_json()` do not panic, and the JSON parses back as an array
///   with one object per diagnostic, carrying that diagnostic's code, with 1-based positions.
pub fn assert_report_invariants(text: &str, report: &CheckReport) {
    assert_eq!(
        report.file.text(),
        text,
        "the report's source differs from the input"
    );

    for diagnostic in &report.diagnostics {
        assert_ne!(
            diagnostic.code,
            Code::InternalError,
            "internal error (B000) on input {text:?}: {} (span {:?})",
            diagnostic.message,
            diagnostic.span,
        );
        let span = diagnostic.span;
        assert!(
            span.start <= span.end && span.end <= text.len(),
            "{} span {:?} out of range for a {}-byte input {text:?}: {}",
            diagnostic.code,
            span,
            text.len(),
            diagnostic.message,
        );
        assert!(
            text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
            "{} span {:?} splits a character in input {text:?}: {}",
            diagnostic.code,
            span,
            diagnostic.message,
        );
    }

    let human = report.render_human();
    if !report.is_accepted() {
        assert!(
            !human.is_empty(),
            "a rejected plan rendered no human-readable diagnostics"
        );
    }

    let json = report.render_json();
    let parsed: serde_json::Value = match serde_json::from_str(&json) {
        Ok(value) => value,
        Err(error) => panic!("render_json() produced invalid JSON ({error}): {json}"),
    };
    let Some(items) = parsed.as_array() else {
        panic!("render_json() did not produce an array: {json}");
    };
    assert_eq!(
        items.len(),
        report.diagnostics.len(),
        "render_json() has {} entries for {} diagnostics: {json}",
        items.len(),
        report.diagnostics.len(),
    );
    for (item, diagnostic) in items.iter().zip(&report.diagnostics) {
        assert_eq!(
            item.get("code").and_then(|c| c.as_str()),
            Some(diagnostic.code.as_str()),
            "JSON entry does not carry its diagnostic's code: {item}",
        );
        for key in ["line", "column", "end_line", "end_column"] {
            let value = item.get(key).and_then(|v| v.as_u64());
            assert!(
                value.is_some_and(|v| v >= 1),
                "JSON entry has no 1-based `{key}`: {item}",
            );
        }
    }
}
