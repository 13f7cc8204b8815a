//! Replays the committed fuzz corpus (`fuzz/corpus/check`) through the same invariants the
//! cargo-fuzz target asserts (`baton_compiler::fuzzing::check_invariants`), so CI catches a
//! regression on any input the fuzzer once found interesting without needing cargo-fuzz,
//! nightly or a sanitizer. Every input also goes through the guarded `check_source`, which must
//! agree with the in-place run.

use std::path::{Path, PathBuf};

use baton_compiler::fuzzing::{assert_report_invariants, check_invariants, FUZZ_FILE_NAME};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join("corpus")
        .join("check")
}

/// Every file of the corpus that is valid UTF-8 (the fuzz target skips the rest), sorted by
/// name so failures are reported in a stable order.
fn corpus() -> Vec<(PathBuf, String)> {
    let dir = corpus_dir();
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot read the fuzz corpus {}: {error}", dir.display()));
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.expect("corpus directory entry").path();
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
        if let Ok(text) = String::from_utf8(bytes) {
            files.push((path, text));
        }
    }
    files.sort();
    files
}

/// Runs `f` on a thread with the stack `check_source` would give this input: libFuzzer runs the
/// target on the main thread (8 MiB here), while test threads get 2 MiB.
fn with_checker_stack<T: Send>(text: &str, f: impl FnOnce() -> T + Send) -> T {
    let stack_size = baton_compiler::front::stack_size_for(text.len());
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("fuzz-corpus-replay".into())
            .stack_size(stack_size)
            .spawn_scoped(scope, f)
            .expect("spawn the replay thread")
            .join()
    })
    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[test]
fn corpus_is_not_empty() {
    let files = corpus();
    assert!(
        files.len() >= 20,
        "expected at least 20 UTF-8 inputs in {}, found {}",
        corpus_dir().display(),
        files.len()
    );
}

#[test]
fn every_corpus_input_keeps_the_fuzz_invariants() {
    let mut failures = Vec::new();
    for (path, text) in corpus() {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        eprintln!("replaying {name}");
        let outcome = std::panic::catch_unwind(|| {
            let in_place = with_checker_stack(&text, || check_invariants(&text));

            let guarded = baton_compiler::check_source(FUZZ_FILE_NAME, &text);
            assert_report_invariants(&text, &guarded);
            assert_eq!(
                guarded.diagnostics, in_place.diagnostics,
                "check_source and check_in_place disagree"
            );
        });
        if let Err(panic) = outcome {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "non-string panic".to_owned());
            failures.push(format!("{name}: {message}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} corpus input(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
