//! End-to-end tests of the journal through the real `baton` binary: a branching run against a
//! fake OpenAI-compatible server on 127.0.0.1 is killed with SIGKILL part-way and resumed;
//! divergence from the journal is detected; finished runs replay offline; and the trace and
//! the HTML report show the branch tree.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::fake_openai::{self, FakeServer};
use support::*;

/// The fake server of these tests: a reply derived from the last message, after 3 s for
/// prompts containing "slow".
fn fake_server() -> FakeServer {
    FakeServer::start(|request| {
        let prompt = fake_openai::last_message(request);
        if prompt.contains("slow") {
            std::thread::sleep(Duration::from_secs(3));
        }
        format!("answer to {prompt}")
    })
}

const PLAN: &str = r#"
from baton import llm, branch, bash

def ask(i):
    return lambda: llm(f"branch question {i}")

def main():
    first = llm("first question")
    print("first:", first)
    bash("echo one >> steps.txt")
    # The run is killed while branch 1 waits for its answer.
    outs = branch([ask(0), lambda: llm("the slow branch question"), ask(2)], reduce="all")
    print("branches:", [o.value for o in outs])
    slow = outs[1].value
    bash("echo two >> steps.txt")
    last = llm("last question")
    print("last:", last)
    return {"first": first, "slow": slow, "last": last, "steps": bash("cat steps.txt").stdout}
"#;

fn baton_command<S: AsRef<std::ffi::OsStr>>(
    dir: &Path,
    server: &FakeServer,
    args: &[S],
) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_baton"));
    command
        .args(args)
        .current_dir(dir)
        .env(
            "BATON_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"),
        )
        .env("BATON_RUNS_DIR", dir.join("runs"))
        .env("OPENAI_BASE_URL", server.base_url())
        .env_remove("OPENAI_API_KEY");
    command
}

/// `baton run` of [`PLAN`] (written into `scratch`) against the fake server.
fn run_args(scratch: &Scratch) -> Vec<String> {
    let plan = scratch.write("plan.py", PLAN);
    let run_dir = scratch.run_dir().to_string_lossy().into_owned();
    [
        "run",
        &plan,
        "--grant",
        "bash,llm",
        "--llm",
        "openai:fake",
        "--run-dir",
        &run_dir,
        "-q",
    ]
    .map(str::to_string)
    .to_vec()
}

#[test]
fn a_killed_run_resumes_without_paying_twice() {
    // The uninterrupted run, for reference.
    let reference = Scratch::new("reference");
    let server = fake_server();
    let output = baton_command(reference.path(), &server, &run_args(&reference))
        .output()
        .unwrap();
    assert_exit(&output, 0);
    let expected_output = stdout(&output);
    let expected_result = read_json(&reference.run_dir().join("result.json"));
    assert_eq!(server.prompts().len(), 5);

    // The same run, killed while the slow call (in a branch) is in flight.
    let scratch = Scratch::new("killed");
    let server = fake_server();
    let run_dir = scratch.run_dir();
    let mut child = baton_command(scratch.path(), &server, &run_args(&scratch))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !server.prompts().iter().any(|p| p.contains("slow")) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the run never reached the slow call"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The other branches' calls are done (their results journaled) before the kill.
    while server.prompts().len() < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{:?}",
            server.prompts()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let _ = child.wait();
    let before_resume = server.prompts();
    assert_eq!(before_resume.len(), 4, "{before_resume:?}");

    let output = baton_command(
        scratch.path(),
        &server,
        &[
            "run",
            "--resume",
            run_dir.to_str().unwrap(),
            "--llm",
            "openai:fake",
            "-q",
        ],
    )
    .output()
    .unwrap();
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), expected_output);
    assert_eq!(read_json(&run_dir.join("result.json")), expected_result);
    // The journaled calls (the first question and branches 0 and 2, which resumed from the
    // journal too) were not sent again; branch 1's call, cut by the kill, was, and the last one
    // ran live.
    let after = server.prompts();
    let resumed: Vec<&String> = after[before_resume.len()..].iter().collect();
    assert_eq!(
        resumed,
        ["the slow branch question", "last question"],
        "{after:?}"
    );
    // The bash step before the kill ran once: its result was journaled.
    assert_eq!(expected_result["steps"], "one\ntwo\n");
    let figures = read_json(&run_dir.join("figures.json"));
    // Replayed: the first question, the first bash command, branches 0 and 2.
    assert_eq!(figures["journal"]["replayed"], 4, "{figures}");

    // And the finished run replays offline (no server reachable: any request would fail).
    let output = baton_in(scratch.path(), &["replay", run_dir.to_str().unwrap()]);
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains("same output"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_replayed_request_that_differs_from_the_journal_is_a_divergence() {
    let scratch = Scratch::new("divergence");
    let replies = scratch.write(
        "replies.json",
        r#"{"rules": [{"when": "question", "reply": "yes"}]}"#,
    );
    let plan =
        "from baton import llm\nprint(llm('first question'))\nprint(llm('second question'))\n";
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 0);
    let run_dir = scratch.run_dir();
    // The recorded run asked something else second.
    let journal = std::fs::read_to_string(run_dir.join("journal.jsonl")).unwrap();
    std::fs::write(
        run_dir.join("journal.jsonl"),
        journal.replace("second question", "another question"),
    )
    .unwrap();
    let output = baton_in(scratch.path(), &["replay", run_dir.to_str().unwrap()]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(
        err.contains("llm call #1 of the run at plan line 3 differs from the recorded request"),
        "{err}"
    );
    let output = baton_in(
        scratch.path(),
        &[
            "run",
            "--resume",
            run_dir.to_str().unwrap(),
            "--llm",
            &format!("script:{replies}"),
        ],
    );
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("divergence from the journal"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_branching_example_replays_and_reports() {
    let scratch = Scratch::new("report");
    let repo_dir = scratch.path().join("calc_repo");
    let copied = Command::new("cp")
        .arg("-a")
        .arg(repo("tests/fixtures/calc_repo"))
        .arg(&repo_dir)
        .status()
        .unwrap();
    assert!(copied.success());
    let run_dir = scratch.run_dir();
    let output = baton_in(
        scratch.path(),
        &[
            "run",
            &repo("plans/examples/swe_workflow.py"),
            "--grant",
            "bash,llm",
            "--workspace",
            repo_dir.to_str().unwrap(),
            "--llm",
            &format!("script:{}", repo("plans/examples/swe_workflow.llm.json")),
            "--run-dir",
            run_dir.to_str().unwrap(),
            "-q",
        ],
    );
    assert_exit(&output, 0);
    let output = baton_in(scratch.path(), &["replay", run_dir.to_str().unwrap()]);
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains("same output"),
        "{}",
        stderr(&output)
    );

    let output = baton_in(scratch.path(), &["trace", run_dir.to_str().unwrap()]);
    assert_exit(&output, 0);
    let trace: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let branches = trace["branches"].as_array().unwrap();
    assert_eq!(branches.len(), 5, "the run and four attempts");
    let chosen: Vec<&str> = branches
        .iter()
        .filter(|b| b["chosen"] == true)
        .map(|b| b["path"].as_str().unwrap())
        .collect();
    // Branch 2 of the run's call #3 (after three bash calls).
    assert_eq!(chosen, ["3.2"]);
    assert!(branches.iter().any(|b| b["cancelled"] == true));

    let report = scratch.path().join("report.html");
    let output = baton_in(
        scratch.path(),
        &[
            "report",
            run_dir.to_str().unwrap(),
            "-o",
            report.to_str().unwrap(),
        ],
    );
    assert_exit(&output, 0);
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("id=\"tree\""));
    assert!(
        html.contains(
            "<b>branch 3.2</b> <span class=\"label\">fix attempt 3</span><span class=\"badge chosen\">chosen</span>"
        ),
        "{html}"
    );
    assert!(html.contains("badge cancelled"));
    // Self-contained: no scripts, no external assets; links only within the page (a call's
    // line to the plan source).
    assert!(!html.contains("<script"));
    assert!(!html.contains(" src="));
    for link in html.split("href=\"").skip(1) {
        assert!(link.starts_with("#L"), "a link out of the page: {link:.40}");
    }
    assert!(html.contains("<h2>Plan</h2>") && html.contains("<h2>Decisions</h2>"));
}

#[test]
fn resume_and_replay_of_a_directory_that_is_not_a_run_are_usage_errors() {
    let scratch = Scratch::new("not-a-run");
    let dir = scratch.path().join("empty");
    std::fs::create_dir_all(&dir).unwrap();
    let output = baton_in(scratch.path(), &["run", "--resume", dir.to_str().unwrap()]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("is not a run directory")
            && stderr(&output).contains("config.toml"),
        "{}",
        stderr(&output)
    );
    let output = baton_in(scratch.path(), &["replay", dir.to_str().unwrap()]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("is not a run directory") && stderr(&output).contains("plan.wasm"),
        "{}",
        stderr(&output)
    );
    let output = baton_in(scratch.path(), &["trace", dir.to_str().unwrap()]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("is not a run directory"),
        "{}",
        stderr(&output)
    );
    // A directory that does not exist says so too.
    let missing = scratch.path().join("missing");
    let output = baton_in(scratch.path(), &["replay", missing.to_str().unwrap()]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("does not exist or is not a directory"),
        "{}",
        stderr(&output)
    );
    // A plan given together with --resume is refused by the command line.
    let output = baton_in(
        scratch.path(),
        &["run", "plan.py", "--resume", dir.to_str().unwrap()],
    );
    assert_exit(&output, 2);
}

/// Three sequential `branch`/`parallel` calls of 3, 2 and 2 callables: each call's branches are
/// branches of their own (named by the call that started them), so a run killed during the
/// second call resumes where it was, and the trace shows all 8 instances apart.
const SEQUENTIAL_PLAN: &str = r#"
from baton import llm, branch, parallel, bash

def first(i):
    return lambda: llm(f"first {i}")

def second(i):
    def run():
        bash(f"echo second {i} > s{i}.txt")
        return llm(f"second {i}" + (" slow" if i == 1 else ""))
    return run

def third(i):
    def run():
        bash(f"echo third {i}")
        return llm(f"third {i}")
    return run

def main():
    a = branch([first(i) for i in range(3)], reduce="all")
    print("a:", [o.value for o in a])
    b = branch([second(i) for i in range(2)], reduce="all")
    print("b:", [o.value for o in b])
    c = parallel([third(i) for i in range(2)])
    print("c:", c)
    return {"a": [o.value for o in a], "b": [o.value for o in b], "c": c}
"#;

fn sequential_args(scratch: &Scratch) -> Vec<String> {
    let plan = scratch.write("plan.py", SEQUENTIAL_PLAN);
    let run_dir = scratch.run_dir().to_string_lossy().into_owned();
    [
        "run",
        &plan,
        "--grant",
        "bash,llm",
        "--llm",
        "openai:fake",
        "--run-dir",
        &run_dir,
        "-q",
    ]
    .map(str::to_string)
    .to_vec()
}

#[test]
fn sequential_branch_calls_are_kept_apart_through_a_kill_and_resume() {
    let reference = Scratch::new("sequential-reference");
    let server = fake_server();
    let output = baton_command(reference.path(), &server, &sequential_args(&reference))
        .output()
        .unwrap();
    assert_exit(&output, 0);
    let expected_output = stdout(&output);
    assert!(
        expected_output.starts_with("a: ['answer to first 0', 'answer to first 1',"),
        "{expected_output}"
    );
    let expected_result = read_json(&reference.run_dir().join("result.json"));

    let scratch = Scratch::new("sequential-killed");
    let server = fake_server();
    let run_dir = scratch.run_dir();
    let mut child = baton_command(scratch.path(), &server, &sequential_args(&scratch))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // Killed while the second call's branch 1 waits for its answer, after its branch 0 is done.
    while !(server.prompts().iter().any(|p| p == "second 1 slow")
        && server.prompts().iter().any(|p| p == "second 0"))
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{:?}",
            server.prompts()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let _ = child.wait();
    let before = server.prompts().len();
    assert_eq!(before, 5, "{:?}", server.prompts());

    let output = baton_command(
        scratch.path(),
        &server,
        &[
            "run",
            "--resume",
            run_dir.to_str().unwrap(),
            "--llm",
            "openai:fake",
            "-q",
        ],
    )
    .output()
    .unwrap();
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), expected_output);
    assert_eq!(read_json(&run_dir.join("result.json")), expected_result);
    // Only the call in flight ran again, then the third call's branches, live.
    let mut resumed = server.prompts()[before..].to_vec();
    resumed.sort();
    assert_eq!(resumed, ["second 1 slow", "third 0", "third 1"]);

    let output = baton_in(scratch.path(), &["replay", run_dir.to_str().unwrap()]);
    assert_exit(&output, 0);

    let output = baton_in(scratch.path(), &["trace", run_dir.to_str().unwrap()]);
    assert_exit(&output, 0);
    let trace: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let mut instances: Vec<(String, u64)> = trace["branches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["path"].as_str().unwrap().to_string(),
                b["calls"].as_u64().unwrap(),
            )
        })
        .collect();
    instances.sort();
    // The run's calls are #0, #1 and #2, one per branch call; each branch has its own calls.
    let expected: Vec<(String, u64)> = [
        ("", 3),
        ("0.0", 1),
        ("0.1", 1),
        ("0.2", 1),
        ("1.0", 2),
        ("1.1", 2),
        ("2.0", 2),
        ("2.1", 2),
    ]
    .iter()
    .map(|(path, calls)| (path.to_string(), *calls))
    .collect();
    assert_eq!(instances, expected, "{trace:#}");
    for call in trace["calls"].as_array().unwrap() {
        let path = call["path"].as_str().unwrap();
        // Requests are JSON values, not text holding JSON.
        assert!(call["request"].is_object(), "{call}");
        let request = call["request"].to_string();
        match path.split('.').next().unwrap() {
            "0" => assert!(request.contains("first"), "{path}: {request}"),
            "1" => assert!(request.contains("second"), "{path}: {request}"),
            "2" => assert!(request.contains("third"), "{path}: {request}"),
            _ => {}
        }
    }
}
