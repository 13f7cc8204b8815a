//! `--re-corpus`: a corpus of regular expressions, each run through search, match, fullmatch,
//! findall, sub and split under Baton and CPython: the patterns plan writers use on command
//! output (`corpus/re_plans.txt`, this project's own) and CPython's own test table
//! (`test/re_tests.py` of the CPython the oracle runs: 403 patterns with their subjects, the
//! valid and the invalid), which is read from the interpreter at run time, never copied into
//! this repository.

use std::process::Command;

use serde_json::Value;

use crate::baton::Runner;
use crate::driver;
use crate::gen::{python_literal, RE_PRELUDE};
use crate::oracle::Worker;
use crate::outcome::Verdict;

/// Entries of the table per plan (each makes a few calls).
const PER_PLAN: usize = 40;

/// Prints the table as JSON: `[[pattern literal, subject literal], ...]` (str entries only).
const LOAD: &str = "\
import json
from test import re_tests
out = []
for t in re_tests.tests:
    if isinstance(t[0], str) and isinstance(t[1], str):
        out.append([repr(t[0]), repr(t[1])])
print(json.dumps(out))
";

/// The project's corpus: a header block, then blocks of a pattern line and a subject line.
const PLANS: &str = include_str!("../corpus/re_plans.txt");

/// The project's corpus as (pattern, subject) Python literals.
pub fn plan_patterns() -> Vec<(String, String)> {
    PLANS
        .split("\n\n")
        .skip(1)
        .filter_map(|block| {
            let mut lines = block.lines().filter(|line| !line.is_empty());
            let pattern = lines.next()?;
            let subject = lines.next()?;
            Some((
                python_literal(pattern),
                format!("'{}'", subject.replace('\'', "\\'")),
            ))
        })
        .collect()
}

/// CPython's table's (pattern, subject) pairs as Python literals.
pub fn load(python: &str) -> Result<Vec<(String, String)>, String> {
    let output = Command::new(python)
        .args(["-c", LOAD])
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{python} cannot load test.re_tests (is CPython's test package installed?): {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let value: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("the table from {python} is not JSON: {e}"))?;
    let entries = value.as_array().ok_or("the table is not a list")?;
    Ok(entries
        .iter()
        .filter_map(|entry| {
            let pattern = entry.get(0)?.as_str()?.to_string();
            let subject = entry.get(1)?.as_str()?.to_string();
            Some((pattern, subject))
        })
        .collect())
}

/// The plan for `entries`: each pattern through the module's functions on its subject.
pub fn plan(entries: &[(String, String)]) -> String {
    let mut out = String::from(RE_PRELUDE);
    for (pattern, subject) in entries {
        for call in [
            format!("re.search({pattern}, {subject})"),
            format!("re.match({pattern}, {subject})"),
            format!("re.fullmatch({pattern}, {subject})"),
            format!("re.findall({pattern}, {subject})"),
            format!("re.sub({pattern}, '<\\\\g<0>>', {subject})"),
            format!("re.split({pattern}, {subject})"),
            format!("re.search({pattern}, {subject}, re.I)"),
        ] {
            out.push_str(&format!("call(lambda: {call})\n"));
        }
    }
    out
}

/// Runs the table; returns (patterns, calls, mismatching plans with what differs).
pub fn run(python: &str, runner: &Runner, timeout: f64) -> Result<Report, String> {
    let mut entries = plan_patterns();
    entries.extend(load(python)?);
    let mut worker = Worker::start(python).map_err(|e| e.to_string())?;
    let mut report = Report {
        patterns: entries.len(),
        calls: 0,
        findings: Vec::new(),
    };
    for chunk in entries.chunks(PER_PLAN) {
        let source = plan(chunk);
        report.calls += source.lines().filter(|l| l.starts_with("call(")).count();
        let (baton, python_side) = driver::run_both(runner, &mut worker, &source, timeout);
        let verdict = driver::classify(runner, &source, &baton, &python_side);
        if !matches!(verdict, Verdict::Same) {
            let line = crate::outcome::first_difference(&baton.stdout, &python_side.stdout)
                .map(|(n, b, p)| format!("stdout line {n}: Baton {b}, CPython {p}"))
                .unwrap_or_else(|| {
                    format!("Baton {}, CPython {}", baton.ending, python_side.ending)
                });
            report
                .findings
                .push((source, format!("{verdict:?}: {line}")));
        }
    }
    Ok(report)
}

pub struct Report {
    pub patterns: usize,
    pub calls: usize,
    /// Each differing plan and what differs.
    pub findings: Vec<(String, String)>,
}
