//! Crash anywhere, resume exactly: runs are killed with SIGKILL at many points (as the journal
//! reaches each of its lines, or every Nth), resumed with `baton run --resume`, and must print
//! what the uninterrupted run printed; `baton replay` must then pass on the resumed run. The
//! plans have several sequential and nested `branch`/`parallel` calls; the examples and the
//! plan library (`tournament`, `refine`) are killed at every Nth line.
//!
//! Model calls come from the script provider with a small latency, so a run spends its time
//! waiting at calls and a kill lands near the line it was aimed at.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::*;

const NESTED_PLAN: &str = r#"
from baton import llm, branch, parallel, bash

def judge(i):
    def run():
        bash(f"echo judge {i} > j{i}.txt")
        return llm(f"judge {i}")
    return run

def inner(i):
    def run():
        votes = parallel([judge(10 * i + k) for k in range(2)])
        return llm(f"combine {i} {votes}")
    return run

def main():
    first = llm("plan the work")
    print("first:", first)
    a = branch([inner(i) for i in range(2)], reduce="all")
    print("a:", [o.value for o in a])
    bash("echo middle > middle.txt")
    b = parallel([judge(i) for i in range(3)])
    print("b:", b)
    c = branch(lambda: llm("vote"), n=3, reduce="vote")
    print("c:", c)
    return {"first": first, "c": c}
"#;

const NESTED_SCRIPT: &str = r#"{"rules": [
  {"when": "judge", "reply": "yes", "latency_ms": 15},
  {"when": "combine", "reply": "merged", "latency_ms": 15},
  {"when": "vote", "reply": "B", "latency_ms": 15}
], "default": "fine"}"#;

fn baton() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_baton"));
    command
        .env(
            "BATON_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"),
        )
        .env_remove("OPENAI_API_KEY");
    command
}

fn journal_lines(run_dir: &Path) -> usize {
    std::fs::read(run_dir.join("journal.jsonl"))
        .map(|bytes| bytes.iter().filter(|&&b| b == b'\n').count())
        .unwrap_or(0)
}

/// A plan and how to run it.
struct Case<'a> {
    name: &'a str,
    plan: PathBuf,
    script: PathBuf,
    grants: &'a str,
    /// A directory each run works on a fresh copy of (`--workspace`).
    workspace: Option<PathBuf>,
}

impl Case<'_> {
    fn run_args(&self, run_dir: &Path) -> Vec<String> {
        let mut args = vec![
            "run".into(),
            self.plan.display().to_string(),
            "--grant".into(),
            self.grants.into(),
            "--llm".into(),
            format!("script:{}", self.script.display()),
            "--run-dir".into(),
            run_dir.display().to_string(),
            "-q".into(),
        ];
        if let Some(fixture) = &self.workspace {
            let copy = run_dir.with_extension("workspace");
            let copied = Command::new("cp")
                .arg("-a")
                .arg(fixture)
                .arg(&copy)
                .status()
                .unwrap();
            assert!(copied.success());
            args.extend(["--workspace".into(), copy.display().to_string()]);
        }
        args
    }

    fn resume_args(&self, run_dir: &Path) -> Vec<String> {
        vec![
            "run".into(),
            "--resume".into(),
            run_dir.display().to_string(),
            "--llm".into(),
            format!("script:{}", self.script.display()),
            "-q".into(),
        ]
    }
}

/// Kills `case` at every `stride`-th journal line and checks each resumed run. Returns how many
/// kill points were tried.
fn crash_everywhere(case: &Case<'_>, stride: usize) -> usize {
    let scratch = Scratch::new(case.name);
    let reference_dir = scratch.path().join("reference");
    let output = baton()
        .args(case.run_args(&reference_dir))
        .current_dir(scratch.path())
        .output()
        .unwrap();
    assert_exit(&output, 0);
    let expected = stdout(&output);
    let lines = journal_lines(&reference_dir);
    assert!(lines > 2, "{}: a journal of {lines} lines", case.name);

    let mut points = 0;
    for point in (1..lines).step_by(stride) {
        points += 1;
        let run_dir = scratch.path().join(format!("killed-{point}"));
        let mut child = baton()
            .args(case.run_args(&run_dir))
            .current_dir(scratch.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let finished = loop {
            if journal_lines(&run_dir) >= point {
                break false;
            }
            if child.try_wait().unwrap().is_some() {
                break true;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{}: the run never reached line {point}",
                case.name
            );
            std::thread::sleep(Duration::from_millis(1));
        };
        if !finished {
            // SAFETY: kill(2) on our own child's pid.
            unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        }
        let _ = child.wait();

        let output = baton()
            .args(case.resume_args(&run_dir))
            .current_dir(scratch.path())
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}: resuming after line {point}: {}",
            case.name,
            stderr(&output)
        );
        assert_eq!(
            stdout(&output),
            expected,
            "{}: resumed after line {point}",
            case.name
        );
        let output = baton()
            .args(["replay", run_dir.to_str().unwrap()])
            .current_dir(scratch.path())
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}: replay after a kill at line {point}: {}",
            case.name,
            stderr(&output)
        );
        let _ = std::fs::remove_dir_all(&run_dir);
    }
    eprintln!(
        "{}: {points} kill points over a journal of {lines} lines",
        case.name
    );
    points
}

#[test]
fn nested_branch_calls_resume_exactly_after_a_kill_at_every_journal_line() {
    let scratch = Scratch::new("nested-files");
    let case = Case {
        name: "nested",
        plan: PathBuf::from(scratch.write("plan.py", NESTED_PLAN)),
        script: PathBuf::from(scratch.write("script.json", NESTED_SCRIPT)),
        grants: "bash,llm",
        workspace: None,
    };
    let points = crash_everywhere(&case, 1);
    assert!(points >= 40, "{points} kill points");
}

#[test]
fn the_library_examples_resume_exactly_after_kills() {
    for (name, stride) in [("tournament", 7), ("refine", 7)] {
        let case = Case {
            name,
            plan: PathBuf::from(repo(&format!("plans/examples/{name}.py"))),
            script: PathBuf::from(repo(&format!("plans/examples/{name}.llm.json"))),
            grants: "llm",
            workspace: None,
        };
        let points = crash_everywhere(&case, stride);
        assert!(points >= 3, "{name}: {points} kill points");
    }
    // The mini-swe-agent workflow: commands in the sandbox, branches forking the workspace.
    let case = Case {
        name: "swe_workflow",
        plan: PathBuf::from(repo("plans/examples/swe_workflow.py")),
        script: PathBuf::from(repo("plans/examples/swe_workflow.llm.json")),
        grants: "bash,llm",
        workspace: Some(PathBuf::from(repo("tests/fixtures/calc_repo"))),
    };
    let points = crash_everywhere(&case, 2);
    assert!(points >= 5, "swe_workflow: {points} kill points");
}
