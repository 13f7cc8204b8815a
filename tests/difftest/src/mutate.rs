//! The mutation fuzzer: real programs with a slip in them, the way a model writes them.
//!
//! The random-plan generator ([`crate::gen`]) builds well-formed plans from a grammar, so it
//! never tries what a model actually writes: a real program with a line deleted, duplicated or
//! swapped, a number or string replaced by an edge value, an operator or a name swapped for a
//! sibling, a statement spliced in from another program. This module makes such mutants from
//! seed programs (the conformance programs, the examples, the plan library) and runs each under
//! Baton and CPython 3.11. The invariants are about Baton alone, whatever CPython prints:
//!
//! - **no crash**: no trap, no internal compiler error, no panic (an [`Ending::Crash`]);
//! - **no accepted syntax error**: a program CPython refuses to compile is refused by Baton's
//!   checker too, so a planner gets its feedback before the run.
//!
//! Semantic differences are counted, not reported: mutants reach far more of the deliberate
//! deviations and unsupported corners than the targeted areas do. Generation is a pure function
//! of `(seed, index)` and the seed programs, so a finding is reproduced from its number.

use std::path::{Path, PathBuf};

use crate::baton::Runner;
use crate::oracle::{OracleError, Worker};
use crate::outcome::{Ending, Outcome};
use crate::rng::Rng;

/// Limits of one mutant's run: a slip often makes a loop endless (a deleted increment), so the
/// CPU limit is small; CPython gets 2 s.
pub const LIMITS: baton_host::Limits = baton_host::Limits {
    fuel: 200_000_000,
    timeout: std::time::Duration::from_secs(5),
    memory_bytes: 128 << 20,
    run_wide: baton_host::RunWideLimits::DEFAULT,
};

/// A seed program: where it came from, and its text.
#[derive(Debug, Clone)]
pub struct Seed {
    pub name: String,
    pub text: String,
}

/// The seed programs under the repository `root`: `tests/conformance/**/*.py`,
/// `plans/examples/*.py` and `plans/baton/*.py`, sorted by path.
pub fn load_seeds(root: &Path) -> Vec<Seed> {
    let mut paths = Vec::new();
    for dir in ["tests/conformance", "plans/examples", "plans/baton"] {
        collect(&root.join(dir), &mut paths);
    }
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            Some(Seed { name, text })
        })
        .collect()
}

fn collect(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, found);
        } else if path.extension().is_some_and(|e| e == "py") {
            found.push(path);
        }
    }
}

/// One mutant: its seed, the edits made (for people), and its source.
#[derive(Debug, Clone)]
pub struct Mutant {
    pub seed: String,
    pub edits: Vec<String>,
    pub source: String,
}

const NUMBERS: [&str; 10] = [
    "0", "-1", "1", "2**63", "10**20", "1e308", "-0.0", "255", "0.1", "9999999",
];
const STRINGS: [&str; 7] = [
    "\"\"",
    "\"\\x00\"",
    "\"é\"",
    "\"{}\"",
    "\"%s\"",
    "\"a b\"",
    "'''x'''",
];
/// Operators and their siblings; an occurrence of the left one becomes the right one.
const OPERATORS: [(&str, &str); 16] = [
    (" + ", " - "),
    (" - ", " * "),
    (" * ", " @ "),
    (" / ", " // "),
    (" // ", " % "),
    (" == ", " is "),
    (" != ", " is not "),
    (" < ", " <= "),
    (" > ", " >= "),
    (" and ", " or "),
    (" in ", " not in "),
    ("(", "["),
    ("[", "("),
    (", ", ", *"),
    (": ", ":: "),
    ("**", "*"),
];
const NAMES: [&str; 8] = ["None", "len", "print", "x", "self", "True", "range", "str"];

/// Mutant `index` of `seed_number` (1-3 edits of one seed program).
pub fn mutant(seeds: &[Seed], seed_number: u64, index: u64) -> Mutant {
    let mut rng = Rng::for_plan(seed_number, index);
    let seed = rng.pick(seeds);
    let mut lines: Vec<String> = seed.text.lines().map(str::to_string).collect();
    let mut edits = Vec::new();
    let count = 1 + rng.below(3);
    for _ in 0..count {
        if lines.is_empty() {
            break;
        }
        let at = rng.below(lines.len());
        let edit = match rng.below(8) {
            0 => {
                lines.remove(at);
                format!("deleted line {}", at + 1)
            }
            1 => {
                lines.insert(at, lines[at].clone());
                format!("duplicated line {}", at + 1)
            }
            2 if at + 1 < lines.len() => {
                lines.swap(at, at + 1);
                format!("swapped lines {} and {}", at + 1, at + 2)
            }
            3 => match replace_token(&lines[at], &mut rng, is_number_start, |rng| {
                rng.pick(&NUMBERS).to_string()
            }) {
                Some(line) => {
                    lines[at] = line;
                    format!("number on line {}", at + 1)
                }
                None => continue,
            },
            4 => match replace_string(&lines[at], &mut rng) {
                Some(line) => {
                    lines[at] = line;
                    format!("string on line {}", at + 1)
                }
                None => continue,
            },
            5 => {
                let (from, to) = *rng.pick(&OPERATORS);
                match lines[at].find(from) {
                    Some(pos) => {
                        lines[at].replace_range(pos..pos + from.len(), to);
                        format!("`{}` -> `{}` on line {}", from.trim(), to.trim(), at + 1)
                    }
                    None => continue,
                }
            }
            6 => match replace_token(&lines[at], &mut rng, is_name_start, |rng| {
                rng.pick(&NAMES).to_string()
            }) {
                Some(line) => {
                    lines[at] = line;
                    format!("name on line {}", at + 1)
                }
                None => continue,
            },
            _ => {
                let other = rng.pick(seeds);
                let donor: Vec<&str> = other
                    .text
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .collect();
                if donor.is_empty() {
                    continue;
                }
                let line = donor[rng.below(donor.len())].trim_start();
                let indent: String = lines[at].chars().take_while(|c| *c == ' ').collect();
                lines.insert(at, format!("{indent}{line}"));
                format!("spliced a line of {} at line {}", other.name, at + 1)
            }
        };
        edits.push(edit);
    }
    let mut source = lines.join("\n");
    source.push('\n');
    Mutant {
        seed: seed.name.clone(),
        edits,
        source,
    }
}

fn is_number_start(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    bytes[at].is_ascii_digit()
        && (at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'))
}

fn is_name_start(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    (bytes[at].is_ascii_alphabetic() || bytes[at] == b'_')
        && (at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'))
}

/// Replaces one token of `line` that starts where `starts` says (digits or a name, through
/// the following alphanumerics, dots and underscores) with what `with` gives.
fn replace_token(
    line: &str,
    rng: &mut Rng,
    starts: fn(&str, usize) -> bool,
    with: impl FnOnce(&mut Rng) -> String,
) -> Option<String> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    let starts_at: Vec<usize> = (0..line.len())
        .filter(|&i| line.is_char_boundary(i) && starts(line, i))
        .collect();
    if starts_at.is_empty() {
        return None;
    }
    let start = *rng.pick(&starts_at);
    let end = line[start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map_or(line.len(), |n| start + n);
    Some(format!("{}{}{}", &line[..start], with(rng), &line[end..]))
}

/// Replaces one simple string literal (`"..."` or `'...'` without escapes) of `line`.
fn replace_string(line: &str, rng: &mut Rng) -> Option<String> {
    let quote = if line.contains('"') { '"' } else { '\'' };
    let start = line.find(quote)?;
    let end = start + 1 + line[start + 1..].find(quote)?;
    if line[start..end].contains('\\') {
        return None;
    }
    Some(format!(
        "{}{}{}",
        &line[..start],
        rng.pick(&STRINGS),
        &line[end + 1..]
    ))
}

/// A broken invariant: Baton crashed, or ran a program CPython refuses.
#[derive(Debug, Clone)]
pub struct Finding {
    pub index: u64,
    pub mutant: Mutant,
    pub what: String,
}

/// What a fuzzing run saw.
#[derive(Debug, Default)]
pub struct Report {
    pub mutants: u64,
    /// Refused by Baton's checker or by CPython's compiler.
    pub refused: u64,
    /// Ran under both and agreed (stdout and ending).
    pub agreed: u64,
    pub findings: Vec<Finding>,
}

/// The invariant `baton` breaks against `python`, if any.
pub fn broken(baton: &Outcome, python: &Outcome) -> Option<String> {
    match (&baton.ending, &python.ending) {
        (Ending::Crash(what), _) => Some(format!("Baton crashed: {what}")),
        (Ending::Rejected(_) | Ending::Unsupported(_), _) => None,
        (_, Ending::SyntaxError(line)) => Some(format!(
            "Baton ran a program CPython refuses to compile ({line})"
        )),
        _ => None,
    }
}

/// Runs mutants `start..start + count` of `seed_number` under Baton and CPython.
pub fn fuzz(
    seeds: &[Seed],
    runner: &Runner,
    python: &str,
    seed_number: u64,
    start: u64,
    count: u64,
) -> Result<Report, OracleError> {
    let mut worker = Worker::start(python)?;
    let mut report = Report::default();
    for index in start..start + count {
        let mutant = mutant(seeds, seed_number, index);
        let (baton, cpython) = crate::driver::run_both(runner, &mut worker, &mutant.source, 2.0);
        report.mutants += 1;
        if let Some(what) = broken(&baton, &cpython) {
            report.findings.push(Finding {
                index,
                mutant,
                what,
            });
            continue;
        }
        match (&baton.ending, &cpython.ending) {
            (Ending::Rejected(_) | Ending::Unsupported(_), _) | (_, Ending::SyntaxError(_)) => {
                report.refused += 1
            }
            _ if baton == cpython => report.agreed += 1,
            _ => {}
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds() -> Vec<Seed> {
        vec![
            Seed {
                name: "a.py".into(),
                text: "x = 1\nprint(x + 2, \"s\")\nfor i in range(3):\n    print(i)\n".into(),
            },
            Seed {
                name: "b.py".into(),
                text: "def f(a):\n    return a * 2\nprint(f(4))\n".into(),
            },
        ]
    }

    #[test]
    fn mutants_are_a_pure_function_of_seed_and_index() {
        let seeds = seeds();
        for index in 0..50 {
            assert_eq!(
                mutant(&seeds, 3, index).source,
                mutant(&seeds, 3, index).source
            );
        }
        let distinct: std::collections::BTreeSet<String> =
            (0..50).map(|i| mutant(&seeds, 3, i).source).collect();
        assert!(
            distinct.len() > 20,
            "{} distinct mutants of 50",
            distinct.len()
        );
    }

    #[test]
    fn every_mutant_is_edited_text_of_a_seed() {
        let seeds = seeds();
        for index in 0..200 {
            let m = mutant(&seeds, 9, index);
            assert!(seeds.iter().any(|s| s.name == m.seed));
            assert!(m.source.ends_with('\n'));
            assert!(m.edits.len() <= 3);
        }
    }

    #[test]
    fn only_crashes_and_accepted_syntax_errors_break_the_invariants() {
        let outcome = |ending: Ending| Outcome {
            stdout: String::new(),
            ending,
        };
        let ok = outcome(Ending::Success);
        assert!(broken(&outcome(Ending::Crash("trap".into())), &ok).is_some());
        assert!(broken(&ok, &outcome(Ending::SyntaxError("x".into()))).is_some());
        assert!(broken(
            &outcome(Ending::Rejected("B001".into())),
            &outcome(Ending::SyntaxError("x".into()))
        )
        .is_none());
        assert!(broken(&outcome(Ending::Raised("E: m".into())), &ok).is_none());
    }
}
