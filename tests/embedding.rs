//! The embedding API (`baton::Plan`, `baton::Runner`): what `baton run` is built on and what
//! `examples/embed.rs` shows, exercised as an embedder uses it — including the ways an
//! embedder's input can be wrong.

use std::path::{Path, PathBuf};

use baton::{CompileError, Config, Plan, PlanSource, RunOutcome, Runner, SessionError};

#[path = "../examples/embed.rs"]
mod embed;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("embedding")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_example_runs_its_plan_with_the_offline_provider() {
    let runs = scratch("example");
    let mut printed = Vec::new();
    let result = embed::run_in(&runs, &mut printed).expect("the example runs");
    let result: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_eq!(result["answer"], 84);
    assert_eq!(result["question"], "What is 6 times 7?");
    // The run directory is complete: its journal holds the model call, its log the line.
    let run_dir = std::fs::read_dir(&runs)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.is_dir())
        .expect("a run directory");
    let journal = std::fs::read_to_string(run_dir.join("journal.jsonl")).unwrap();
    assert!(journal.contains("6 times 7"), "{journal}");
    let log = std::fs::read_to_string(run_dir.join("log.txt")).unwrap();
    assert!(log.contains("the model said '42'"), "{log}");
}

#[test]
fn a_run_prints_to_the_given_writer_and_returns_main_s_value() {
    let plan = Plan::from_source(
        "count.py",
        "def main(n):\n    print('n is', n)\n    return n + 1\n",
    )
    .unwrap();
    assert_eq!(plan.source().map(|s| s.path.as_str()), Some("count.py"));
    let run_dir = scratch("count").join("run");
    let runner = Runner::new(Config::default())
        .inputs(serde_json::json!({"n": 41}))
        .run_dir(&run_dir);
    let mut printed = Vec::new();
    let run = runner.run(&plan, &mut printed).unwrap();
    assert!(matches!(run.outcome, Ok(RunOutcome::Success)));
    assert_eq!(String::from_utf8(printed).unwrap(), "n is 41\n");
    assert_eq!(run.result.as_deref(), Some("42"));
    assert_eq!(run.run_dir, run_dir);
    // A run directory is used once.
    let again = runner.run(&plan, &mut Vec::new());
    assert!(matches!(again, Err(SessionError::Setup(_))), "{again:?}");
}

#[test]
fn a_rejected_plan_is_a_compile_error_with_its_diagnostics() {
    let Err(CompileError::Rejected(report)) = Plan::from_source("bad.py", "print(nope)\n") else {
        panic!("an undefined name must be rejected");
    };
    let text = report.render_human();
    assert!(text.contains("B201") && text.contains("bad.py:1"), "{text}");
}

#[test]
fn a_module_importing_anything_else_is_refused_before_it_runs() {
    let module = wat::parse_str(
        r#"(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
                   (memory (export "memory") 1)
                   (func (export "baton_main") (result i32) (i32.const 0)))"#,
    )
    .unwrap();
    let error = Plan::from_module(module, None).unwrap_err();
    assert!(error.to_string().contains("fd_write"), "{error}");
    assert!(Plan::from_module(b"not wasm".to_vec(), None).is_err());
}

#[test]
fn a_capability_not_granted_refuses_the_run_before_anything_runs() {
    let plan =
        Plan::from_source("cmd.py", "from baton import bash\nprint(bash('true'))\n").unwrap();
    let runs = scratch("grants");
    let error = Runner::new(Config::default())
        .runs_in(&runs)
        .run(&plan, &mut Vec::new())
        .unwrap_err();
    assert!(matches!(error, SessionError::Grants(_)), "{error:?}");
    assert!(error.to_string().contains("bash"), "{error}");
    // Nothing ran: no run directory was made.
    assert_eq!(std::fs::read_dir(&runs).unwrap().count(), 0);
}

#[test]
fn an_uncaught_exception_is_the_outcome_and_its_traceback_shows_the_source() {
    let plan = Plan::from_source("raise.py", "x = 1\nint('seven')\n").unwrap();
    let run = Runner::new(Config::default())
        .runs_in(scratch("raise"))
        .run(&plan, &mut Vec::new())
        .unwrap();
    let Ok(RunOutcome::Exception {
        class,
        message,
        traceback,
    }) = &run.outcome
    else {
        panic!("expected an exception, got {:?}", run.outcome);
    };
    assert_eq!(class, "ValueError");
    assert_eq!(message, "invalid literal for int() with base 10: 'seven'");
    assert!(traceback.ends_with("ValueError: invalid literal for int() with base 10: 'seven'\n"));
    let annotated = plan.annotate(traceback);
    assert!(
        annotated.contains("line 2, in <module>\n    int('seven')\n"),
        "{annotated}"
    );
    // A compiled module given with its source annotates the same way.
    let compiled = Plan::from_module(
        plan.module().to_vec(),
        Some(PlanSource {
            path: "raise.py".into(),
            text: "x = 1\nint('seven')\n".into(),
        }),
    )
    .unwrap();
    assert_eq!(compiled.annotate(traceback), annotated);
}
