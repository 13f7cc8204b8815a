//! The conformance suite: every program under `tests/conformance/` runs under `baton run` and
//! must print what CPython 3.11 printed (`NAME.out`), and, for failing programs, exit and end
//! stderr as CPython did (`NAME.err`: `exit: N` and `last: <line>`), with the same frames of the
//! program in each traceback of the chain (`frames: line N, in NAME | ... || ...`; regen.py).
//!
//! Programs the compiler or runtime cannot run correctly yet are listed, one path per line, in
//! `tests/conformance/KNOWN_FAILURES`. The list is a ratchet: a listed program that starts
//! passing fails the test until it is removed from the list, so the list only shrinks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Programs live in one folder per topic; files at the top (regen.py) are tooling.
fn programs(root: &Path, found: &mut Vec<PathBuf>) {
    let mut topics: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    topics.sort();
    for topic in topics {
        if !topic.is_dir() || topic.file_name().is_some_and(|n| n == "deviations") {
            continue;
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&topic)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        found.extend(
            entries
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "py")),
        );
    }
}

struct Expected {
    stdout: String,
    exit: i32,
    last_stderr: Option<String>,
    /// The frames in the program of each traceback CPython printed (regen.py).
    frames: Option<String>,
}

fn expected(program: &Path) -> Expected {
    let stdout = std::fs::read_to_string(program.with_extension("out")).unwrap_or_default();
    let mut exit = 0;
    let (mut last_stderr, mut frames) = (None, None);
    if let Ok(err) = std::fs::read_to_string(program.with_extension("err")) {
        for line in err.lines() {
            if let Some(code) = line.strip_prefix("exit: ") {
                exit = code.trim().parse().expect("exit code");
            } else if let Some(last) = line.strip_prefix("last: ") {
                last_stderr = Some(last.to_owned());
            } else if let Some(list) = line.strip_prefix("frames: ") {
                frames = Some(list.to_owned());
            } else if line == "frames:" {
                frames = Some(String::new());
            }
        }
    }
    Expected {
        stdout,
        exit,
        last_stderr,
        frames,
    }
}

/// The frames of each traceback in `stderr` that are in the file `program`, as regen.py writes
/// CPython's: `line N, in NAME` joined by ` | `, tracebacks joined by ` || `.
fn traceback_frames(stderr: &str, program: &Path) -> String {
    let name = program.file_name().unwrap_or_default().to_string_lossy();
    stderr
        .split("Traceback (most recent call last):")
        .skip(1)
        .map(|block| {
            block
                .lines()
                .filter_map(|line| line.trim().strip_prefix("File \""))
                .filter_map(|frame| frame.split_once("\", "))
                .filter(|(file, _)| file.rsplit(['/', '\\']).next() == Some(name.as_ref()))
                .map(|(_, at)| at)
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect::<Vec<_>>()
        .join(" || ")
}

/// Runs one program; `None` when it behaves as CPython did, else what differed. `gc_stress`:
/// compiled with the collector's stress mode (`--gc-stress N`, 0 for the normal build).
fn run_one(program: &Path, gc_stress: u32) -> Option<String> {
    let expected = expected(program);
    // Each run's directory is removed once its output is read.
    let run_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("conformance-runs")
        .join(format!(
            "{}{gc_stress}",
            program.to_string_lossy().replace(['/', '.'], "_")
        ));
    let _ = std::fs::remove_dir_all(&run_dir);
    let output = Command::new(env!("CARGO_BIN_EXE_baton"))
        .args([
            "run",
            &program.to_string_lossy(),
            "--timeout",
            // A collection at every safe point makes a program many times slower.
            if gc_stress > 0 { "60" } else { "20" },
            "--quiet",
            "--gc-stress",
            &gc_stress.to_string(),
        ])
        // A collection at every safe point costs fuel the program's own limit did not plan for.
        .args(if gc_stress > 0 {
            &["--fuel", "1000000000000"][..]
        } else {
            &[][..]
        })
        .arg("--run-dir")
        .arg(&run_dir)
        // Compiled modules are cached under target/, not in the user's cache directory.
        .env(
            "BATON_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"),
        )
        .output()
        .expect("run baton");
    let _ = std::fs::remove_dir_all(&run_dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let exit = output.status.code().unwrap_or(-1);
    let mut problems = Vec::new();
    if stdout != expected.stdout {
        problems.push(format!(
            "stdout differs:\n--- expected\n{}--- actual\n{stdout}",
            expected.stdout
        ));
    }
    if exit != expected.exit {
        problems.push(format!("exit {exit}, expected {}", expected.exit));
    }
    let last = stderr.lines().last().unwrap_or("");
    match &expected.last_stderr {
        Some(line) if line != last => {
            problems.push(format!("last stderr line `{last}`, expected `{line}`"))
        }
        None if exit != 0 => problems.push(format!("stderr:\n{stderr}")),
        _ => {}
    }
    if let Some(frames) = &expected.frames {
        let actual = traceback_frames(&stderr, program);
        if &actual != frames {
            problems.push(format!("traceback frames `{actual}`, expected `{frames}`"));
        }
    }
    (!problems.is_empty()).then(|| problems.join("\n"))
}

#[test]
fn conformance_programs_behave_as_cpython() {
    conformance(0);
}

/// The same programs with a collection at every safe point and freed memory poisoned
/// (runtime/wat/gc.wat): a value the collector cannot see is freed and used at once, so it
/// shows as a difference from CPython or a trap here.
#[test]
fn conformance_programs_behave_as_cpython_when_the_collector_runs_at_every_safe_point() {
    conformance(1);
}

fn conformance(gc_stress: u32) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut found = Vec::new();
    programs(&root, &mut found);
    assert!(
        found.len() >= 150,
        "the conformance suite went missing ({} programs)",
        found.len()
    );
    let known: BTreeSet<String> = std::fs::read_to_string(root.join("KNOWN_FAILURES"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut passed = 0;
    for program in &found {
        let relative = program
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let outcome = run_one(program, gc_stress);
        match (outcome, known.contains(&relative)) {
            (None, false) => passed += 1,
            (None, true) => fixed.push(relative),
            (Some(problem), false) => unexpected.push(format!("{relative}:\n{problem}")),
            (Some(_), true) => {}
        }
    }
    eprintln!(
        "conformance (gc stress {gc_stress}): {passed} of {} programs pass; {} known failures",
        found.len(),
        known.len()
    );
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{} programs fail unexpectedly:\n\n{}\n\n{} known failures now pass; remove them from KNOWN_FAILURES:\n{}",
        unexpected.len(),
        unexpected.join("\n\n"),
        fixed.len(),
        fixed.join("\n")
    );
}
