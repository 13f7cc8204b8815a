//! The mutation fuzzer: real programs with a slip in them, the way a model writes them.
//!
//! The random-plan generator ([`crate::gen`]) builds well-formed plans from a grammar, so it
//! never tries what a model actually writes: a real program with a line deleted, duplicated or
//! swapped, a number or string replaced by an edge value, an operator or a name swapped for a
//! sibling, a statement spliced in from another program. This module makes such mutants from
//! seed programs (the conformance programs, the examples, the plan library, one program of each
//! difftest area; or the programs of `--seeds DIR`) and runs each under Baton and CPython 3.11,
//! against these invariants ([`broken`]):
//!
//! - **no crash**: no trap, no internal compiler error, no panic (an [`Ending::Crash`]);
//! - **no accepted syntax error**: a program CPython refuses to compile is refused by Baton's
//!   checker too, so a planner gets its feedback before the run;
//! - **the same output**: where both end the same way, the same stdout (addresses masked);
//! - **the same exception type** where both raise.
//!
//! Documented deviations (64-bit ints, complex numbers, set order, the recursion limit's depth;
//! also when the plan catches the OverflowError or the RecursionError, found by a second run
//! that makes deviations trap) break none, nor do values Python leaves unspecified (`hash` of a
//! str, None or a type); mutants of
//! the programs that demonstrate them are held to the first two only. Other differences (one
//! side raising, another message) are counted by class, not reported. Generation is a pure
//! function of `(seed, index)` and the seed programs, so a finding is reproduced from its
//! number.

use std::path::{Path, PathBuf};

use crate::baton::Runner;
use crate::gen::{generate_area, Area};
use crate::oracle::{OracleError, Worker};
use crate::outcome::{compare, Ending, Kind, Outcome, Verdict};
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
    let dirs = ["tests/conformance", "plans/examples", "plans/baton"].map(|dir| root.join(dir));
    let mut seeds = load_seeds_from(root, &dirs);
    seeds.extend(area_seeds());
    seeds
}

/// One program of each difftest area (`--area NAME`): calls of a module's functions, or values
/// of every type where the runtime expects one, each result or exception printed.
fn area_seeds() -> Vec<Seed> {
    const CALLS: usize = 40;
    Area::ALL
        .into_iter()
        .map(|(area, name)| Seed {
            name: format!("difftest area {name} (seed 1, plan 0)"),
            text: generate_area(area, 1, 0, CALLS),
        })
        .collect()
}

/// Every `*.py` under `dirs` (recursively, hidden directories skipped), sorted by path and
/// named relative to `root` where they are under it: `--seeds DIR`, a set of programs that is
/// not the project's (the held-back set a reviewer mutates).
pub fn load_seeds_from(root: &Path, dirs: &[PathBuf]) -> Vec<Seed> {
    let mut paths = Vec::new();
    for dir in dirs {
        collect(dir, &mut paths);
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
        // Hidden directories are not the project's programs: `.baton/runs/*/plan.py` is a
        // copy of whatever plan was last run there.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
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

/// A broken invariant: Baton crashed, ran a program CPython refuses, printed something else
/// where both ended the same way, or raised another exception type.
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
    /// Differences that break no invariant, by class: documented deviations, runs a limit or a
    /// CPython timeout made incomparable, one side raising where the other did not, messages of
    /// the same exception type.
    pub classified: std::collections::BTreeMap<String, u64>,
    pub findings: Vec<Finding>,
    /// How Baton's parser agrees with CPython's compiler over the mutants either refuses as
    /// syntax.
    pub parser: ParserAgreement,
}

/// Baton's `B001` against CPython's `SyntaxError` (and its subclasses), mutant by mutant.
#[derive(Debug, Default)]
pub struct ParserAgreement {
    /// Both refused the syntax.
    pub both: u64,
    /// ... with the same message (CPython's `msg`, Baton's diagnostic).
    pub same_message: u64,
    /// CPython refused it and Baton's checker refused it by another rule (never ran it).
    pub cpython_only_other_rule: u64,
    /// Baton called it a syntax error and CPython compiled it.
    pub baton_only: u64,
    /// The first few of those (mutant index, Baton's message), to look at.
    pub baton_only_examples: Vec<(u64, String)>,
    /// The first few where both refused with different messages (index, Baton's, CPython's).
    pub other_message_examples: Vec<(u64, String, String)>,
}

impl ParserAgreement {
    fn add(&mut self, index: u64, baton: &Ending, python: &Ending) {
        const EXAMPLES: usize = 8;
        let baton_syntax = match baton {
            Ending::Rejected(what) => what.strip_prefix("B001: "),
            _ => None,
        };
        match (baton_syntax, python) {
            (Some(ours), Ending::SyntaxError(theirs)) => {
                self.both += 1;
                // CPython's line is `SyntaxError: msg` (or IndentationError, TabError).
                let theirs = theirs.split_once(": ").map_or(theirs.as_str(), |(_, m)| m);
                if ours == theirs {
                    self.same_message += 1;
                } else if self.other_message_examples.len() < EXAMPLES {
                    self.other_message_examples
                        .push((index, ours.to_owned(), theirs.to_owned()));
                }
            }
            (Some(ours), _) => {
                self.baton_only += 1;
                if self.baton_only_examples.len() < EXAMPLES {
                    self.baton_only_examples.push((index, ours.to_owned()));
                }
            }
            (None, Ending::SyntaxError(_)) if matches!(baton, Ending::Rejected(_)) => {
                self.cpython_only_other_rule += 1
            }
            _ => {}
        }
    }
}

/// The invariant `baton` breaks against `python`, if any (issue 23): no crash (trap, internal
/// compiler error, panic); nothing run that CPython refuses to compile; where both end the same
/// way, the same stdout (object addresses masked); where both raise, the same exception type.
/// Documented deviations (64-bit ints, no complex numbers, set order) break none; mutants of the
/// programs that demonstrate them (`tests/conformance/deviations/`, `compared` false) are held
/// to the first two invariants only.
pub fn broken(baton: &Outcome, python: &Outcome, compared: bool) -> Option<String> {
    broken_given(&compare(baton, python), baton, python, compared)
}

/// [`broken`] for a comparison already made (the fuzzer's, which also recognises deviations
/// the plan caught: `driver::classify`).
fn broken_given(
    verdict: &Verdict,
    baton: &Outcome,
    python: &Outcome,
    compared: bool,
) -> Option<String> {
    match (&baton.ending, &python.ending) {
        (Ending::Crash(what), _) => return Some(format!("Baton crashed: {what}")),
        (Ending::Rejected(_) | Ending::Unsupported(_), _) => return None,
        (_, Ending::SyntaxError(line)) => {
            return Some(format!(
                "Baton ran a program CPython refuses to compile ({line})"
            ))
        }
        _ => {}
    }
    if !compared || no_baton_module(python) {
        return None;
    }
    let same_kind = matches!(
        (&baton.ending, &python.ending),
        (Ending::Success, Ending::Success) | (Ending::Raised(_), Ending::Raised(_))
    );
    match verdict {
        Verdict::Mismatch(kind @ Kind::ExceptionType { .. }) => Some(kind.to_string()),
        Verdict::Mismatch(Kind::Stdout) if same_kind => Some(format!(
            "stdout differs (Baton {}, CPython {})",
            baton.ending, python.ending
        )),
        _ => None,
    }
}

/// Whether CPython stopped at an import of Baton's own modules (`baton`, `baton.ttc`), which
/// only Baton has, or printed that error (an import inside a function whose caller catches
/// it): such a mutant (of an example or the plan library) cannot be compared.
fn no_baton_module(python: &Outcome) -> bool {
    const MISSING: &str = "No module named 'baton";
    matches!(&python.ending, Ending::Raised(line)
        if line.starts_with("ModuleNotFoundError: No module named 'baton"))
        || python.stdout.contains(MISSING)
}

/// Whether a mutant swapped `is` (or `is not`) in for an equality test. Which equal ints,
/// floats and strs are one object is unspecified in Python (CPython itself warns about `is`
/// with a literal), so what such a test prints is no oracle.
fn swaps_in_identity(mutant: &Mutant) -> bool {
    mutant
        .edits
        .iter()
        .any(|edit| edit.contains("-> `is`") || edit.contains("-> `is not`"))
}

/// Whether CPython prints something else for `source` in a process of its own: its output then
/// depends on the process, which is no oracle. Object addresses are masked where they stand in a
/// repr (`outcome::mask_addresses`), but a program can print a piece of one
/// (`repr(f).split('x')[-1]`); a fresh process lays its heap out elsewhere (address space
/// randomisation), so such a piece differs. Asked only for a stdout difference (a few per
/// hundred thousand mutants), so the new worker's start costs nothing that matters.
fn cpython_varies(python: &str, source: &str, first: &Outcome) -> bool {
    let Ok(mut worker) = Worker::start(python) else {
        return false;
    };
    let again = worker.run(source, 2.0);
    again.ending == first.ending && again.stdout != first.stdout
}

/// The class of a difference that breaks no invariant, for the report.
fn classify(verdict: &Verdict, python: &Outcome) -> Option<String> {
    if no_baton_module(python) {
        return Some("not compared: CPython has no baton module".to_owned());
    }
    match verdict.clone() {
        Verdict::Same => None,
        Verdict::Deviation(what) => Some(format!("deviation: {what}")),
        Verdict::Skipped(why) => Some(format!(
            "not compared: {}",
            why.split(':').next().unwrap_or(&why)
        )),
        Verdict::Mismatch(Kind::Ending { baton, python }) => {
            let short = |s: &str| crate::outcome::exception_type(s).to_owned();
            Some(format!(
                "one side raised: Baton {}, CPython {}",
                short(&baton),
                short(&python)
            ))
        }
        Verdict::Mismatch(kind) => Some(kind.to_string()),
    }
}

/// The kind of a finding, for reduction: its text before any detail (`stdout differs`,
/// `Baton crashed`, `Baton ran a program CPython refuses to compile`).
fn finding_kind(what: &str) -> &str {
    what.split(['(', ':']).next().unwrap_or(what).trim()
}

/// Shrinks a finding's mutant while it still breaks the same invariant (the reducer of the
/// differential tester, `reduce.rs`, with the fuzzer's own judgement as its predicate).
pub fn reduce_finding(
    finding: &Finding,
    runner: &Runner,
    python: &str,
    budget: crate::reduce::Budget,
) -> Result<crate::reduce::Reduced, OracleError> {
    let mut worker = Worker::start(python)?;
    let compared = !finding.mutant.seed.contains("conformance/deviations/");
    let kind = finding_kind(&finding.what).to_owned();
    let mut interesting = |source: &str| {
        let (baton, cpython) = crate::driver::run_both(runner, &mut worker, source, 2.0);
        let verdict = crate::driver::classify(runner, source, &baton, &cpython);
        broken_given(&verdict, &baton, &cpython, compared)
            .is_some_and(|what| finding_kind(&what) == kind)
    };
    Ok(crate::reduce::reduce(
        &finding.mutant.source,
        budget,
        &mut interesting,
    ))
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
        report.parser.add(index, &baton.ending, &cpython.ending);
        let compared = !mutant.seed.contains("conformance/deviations/");
        let mut verdict = crate::driver::classify(runner, &mutant.source, &baton, &cpython);
        if swaps_in_identity(&mutant) && matches!(verdict, Verdict::Mismatch(Kind::Stdout)) {
            verdict = Verdict::Skipped(
                "identity of equal values is unspecified: `is` swapped in for `==`".to_owned(),
            );
        }
        if matches!(verdict, Verdict::Mismatch(Kind::Stdout))
            && cpython_varies(python, &mutant.source, &cpython)
        {
            verdict = Verdict::Skipped(
                "CPython's output varies between its runs (a piece of an address, say)".to_owned(),
            );
        }
        if let Some(what) = broken_given(&verdict, &baton, &cpython, compared) {
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
            _ => {
                if let Some(class) = classify(&verdict, &cpython) {
                    *report.classified.entry(class).or_default() += 1;
                }
            }
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

    /// A program that prints a piece of an address (out of the reach of address masking) is
    /// seen to vary between CPython's runs; one that prints the same each time is not.
    #[test]
    fn output_that_varies_between_cpythons_runs_is_recognised() {
        let python = "python3";
        crate::oracle::check_version(python).expect("python3 must be CPython 3.11: the oracle");
        let mut worker = Worker::start(python).expect("start the CPython worker");
        let piece = "print(repr(object()).split('x')[-1])\n";
        let first = worker.run(piece, 5.0);
        assert!(cpython_varies(python, piece, &first), "{first:?}");
        let steady = "print(sorted({3, 1, 2}), 2 ** 70)\n";
        let first = worker.run(steady, 5.0);
        assert!(!cpython_varies(python, steady, &first));
    }

    #[test]
    fn seeds_come_from_the_given_directories_and_the_areas() {
        let dir = std::env::temp_dir().join(format!("difftest-seeds-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::create_dir_all(dir.join(".hidden")).unwrap();
        std::fs::write(dir.join("b.py"), "print(2)\n").unwrap();
        std::fs::write(dir.join("sub/a.py"), "print(1)\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a program").unwrap();
        std::fs::write(dir.join(".hidden/c.py"), "print(3)\n").unwrap();
        let found = load_seeds_from(&dir, std::slice::from_ref(&dir));
        let names: Vec<&str> = found.iter().map(|seed| seed.name.as_str()).collect();
        assert_eq!(names, ["b.py", "sub/a.py"]);
        let _ = std::fs::remove_dir_all(&dir);
        let areas = area_seeds();
        assert_eq!(areas.len(), Area::ALL.len());
        assert!(areas.iter().all(|seed| seed.text.lines().count() > 40));
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
    fn the_invariants_are_crashes_refusals_stdout_and_exception_types() {
        let outcome = |stdout: &str, ending: Ending| Outcome {
            stdout: stdout.to_owned(),
            ending,
        };
        let ok = outcome("1\n", Ending::Success);
        let raised = |line: &str| outcome("1\n", Ending::Raised(line.into()));
        // Broken: a crash, a program CPython refuses, other stdout, another exception type.
        assert!(broken(&outcome("", Ending::Crash("trap".into())), &ok, true).is_some());
        assert!(broken(&ok, &outcome("", Ending::SyntaxError("x".into())), true).is_some());
        assert!(broken(&outcome("2\n", Ending::Success), &ok, true).is_some());
        assert!(broken(&raised("KeyError: 'a'"), &raised("IndexError: x"), true).is_some());
        // Not broken: refused by the checker, the same type with another message, one side
        // raising (classified, not an invariant), a documented deviation, CPython without the
        // baton module, and any output difference of a deviation program's mutant.
        let refused = outcome("", Ending::Rejected("B001".into()));
        assert!(broken(
            &refused,
            &outcome("", Ending::SyntaxError("x".into())),
            true
        )
        .is_none());
        assert!(broken(&raised("TypeError: a"), &raised("TypeError: b"), true).is_none());
        assert!(broken(&raised("E: m"), &ok, true).is_none());
        let overflow = outcome("", Ending::Raised("OverflowError: x".into()));
        assert!(broken(&overflow, &outcome("", Ending::Success), true).is_none());
        let no_module = raised("ModuleNotFoundError: No module named 'baton'");
        assert!(broken(&ok, &no_module, true).is_none());
        assert!(broken(&outcome("2\n", Ending::Success), &ok, false).is_none());
        assert!(broken(&outcome("", Ending::Crash("trap".into())), &ok, false).is_some());
    }
}
