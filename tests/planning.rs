//! `baton plan` end to end: a planner model (the script provider, and a fake OpenAI-compatible
//! server) answers with plans the check rejects, gets the diagnostics back, repairs them, and
//! the accepted plan runs as `baton run` would.

mod support;

use serde_json::Value;
use support::fake_openai::{self, FakeServer};
use support::*;

/// The planner's three answers of the issue: a plan importing `os`, then one with a misspelt
/// name, then a good one. Each is chosen by what the planner was last told.
fn answer(told: &str) -> &'static str {
    if told.contains("B201") {
        "Fixed the name:\n```python\nitems = ['a', 'b', 'c']\nprint('counted', len(items))\n```\n"
    } else if told.contains("B101") {
        "```python\nitems = ['a', 'b', 'c']\nprint('counted', lenn(items))\n```"
    } else {
        "Here is a plan.\n```python\nimport os\nprint(len(os.listdir('.')))\n```\n"
    }
}

const SCRIPT: &str = r#"{
  "rules": [
    {"when": "B201", "reply": "Fixed the name:\n```python\nitems = ['a', 'b', 'c']\nprint('counted', len(items))\n```\n"},
    {"when": "B101", "reply": "```python\nitems = ['a', 'b', 'c']\nprint('counted', lenn(items))\n```"},
    {"when": "Task:", "reply": "Here is a plan.\n```python\nimport os\nprint(len(os.listdir('.')))\n```\n"}
  ]
}"#;

fn revision(scratch: &Scratch, number: usize) -> Value {
    read_json(
        &scratch
            .run_dir()
            .join(format!("planning/revision-{number}.json")),
    )
}

#[test]
fn a_rejected_plan_is_repaired_from_its_diagnostics_and_run() {
    let scratch = Scratch::new("plan-script");
    let script = scratch.write("planner.llm.json", SCRIPT);
    let output = baton_in(
        scratch.path(),
        &[
            "plan",
            "--task",
            "Count the items",
            "--llm",
            &format!("script:{script}"),
            "--run-dir",
            scratch.run_dir().to_str().unwrap(),
            "--summary",
            "json",
        ],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "counted 3\n");
    // Three planner requests, one revision each: the second was told B101, the third B201
    // with the misspelt name.
    let planning = scratch.run_dir().join("planning");
    assert!(!planning.join("revision-4.json").exists());
    assert_eq!(revision(&scratch, 1)["accepted"], false);
    assert!(revision(&scratch, 1)["asked"]
        .as_str()
        .unwrap()
        .contains("Count the items"));
    let second = revision(&scratch, 2);
    assert!(
        second["asked"].as_str().unwrap().contains("\"B101\""),
        "{second}"
    );
    assert!(
        second["asked"].as_str().unwrap().contains("import os"),
        "{second}"
    );
    let third = revision(&scratch, 3);
    let told = third["asked"].as_str().unwrap();
    assert!(
        told.contains("\"B201\"") && told.contains("lenn"),
        "{third}"
    );
    assert_eq!(third["accepted"], true);
    // The summary counts the planner's calls; the run's own figures are the plan's.
    let summary: Value = serde_json::from_str(stderr(&output).lines().last().unwrap()).unwrap();
    assert_eq!(summary["planning"]["calls"], 3, "{summary}");
    assert_eq!(summary["planning"]["revisions"], 3);
    assert_eq!(summary["outcome"]["status"], "success");
    // The trace and the report show the revisions.
    let trace = baton_in(
        scratch.path(),
        &["trace", scratch.run_dir().to_str().unwrap()],
    );
    let trace: Value = serde_json::from_slice(&trace.stdout).unwrap();
    assert_eq!(trace["planning"]["revisions"].as_array().unwrap().len(), 3);
    assert_eq!(
        trace["planning"]["revisions"][0]["diagnostics"][0]["code"],
        "B101"
    );
    let report = scratch.path().join("report.html");
    let output = baton_in(
        scratch.path(),
        &[
            "report",
            scratch.run_dir().to_str().unwrap(),
            "-o",
            report.to_str().unwrap(),
        ],
    );
    assert_exit(&output, 0);
    let html = std::fs::read_to_string(report).unwrap();
    assert!(html.contains("<h2>Planning</h2>"));
    assert!(
        html.contains("<code>B201</code> line 2: undefined name `lenn`"),
        "{html}"
    );
}

#[test]
fn against_an_openai_compatible_server() {
    let server = FakeServer::start(|request| answer(&fake_openai::last_message(request)).into());
    let scratch = Scratch::new("plan-server");
    let output = baton_in_env(
        scratch.path(),
        &[
            "plan",
            "--task",
            "Count the items",
            "--llm",
            "openai:fake-planner",
            "--planner-model",
            "planner-1",
            "--run-dir",
            scratch.run_dir().to_str().unwrap(),
            "--quiet",
        ],
        &[("OPENAI_BASE_URL", &server.base_url())],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "counted 3\n");
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "{requests:#?}");
    for request in &requests {
        assert_eq!(request["model"], "planner-1");
        let system = request["messages"][0]["content"].as_str().unwrap();
        assert!(
            system.contains("# Baton plan language"),
            "the compact guide is sent"
        );
    }
    let prompts = server.prompts();
    assert!(prompts[1].contains("\"B101\""));
    assert!(prompts[2].contains("\"B201\"") && prompts[2].contains("lenn"));
    // A repair carries the model's own last answer before the diagnostics.
    assert_eq!(
        requests[2]["messages"][2]["content"],
        answer(&prompts[1]),
        "{:#?}",
        requests[2]
    );
}

#[test]
fn a_plan_still_rejected_after_the_repairs_exits_3() {
    let scratch = Scratch::new("plan-rejected");
    let script = scratch.write("planner.llm.json", SCRIPT);
    let output = baton_in(
        scratch.path(),
        &[
            "plan",
            "--task",
            "Count the items",
            "--llm",
            &format!("script:{script}"),
            "--max-repairs",
            "1",
            "--run-dir",
            scratch.run_dir().to_str().unwrap(),
        ],
    );
    assert_exit(&output, 3);
    assert_eq!(stdout(&output), "");
    let stderr = stderr(&output);
    assert!(
        stderr.contains("error[B201]: undefined name `lenn`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("no plan passed the check after 2 revisions"),
        "{stderr}"
    );
    assert!(
        !scratch.run_dir().join("journal.jsonl").exists(),
        "nothing ran"
    );
}

#[test]
fn planning_and_the_plan_share_the_budget() {
    let scratch = Scratch::new("plan-budget");
    let script = scratch.write(
        "planner.llm.json",
        r#"{"rules": [
            {"when": "Task:", "reply": "```python\nfrom baton import llm\nprint(llm('one'))\nprint(llm('two'))\n```"},
            {"when": "one", "reply": "1"},
            {"when": "two", "reply": "2"}
        ]}"#,
    );
    let run = |calls: &str, dir: &str| {
        baton_in(
            scratch.path(),
            &[
                "plan",
                "--task",
                "Ask twice",
                "--grant",
                "llm",
                "--llm",
                &format!("script:{script}"),
                "--max-llm-calls",
                calls,
                "--run-dir",
                scratch.path().join(dir).to_str().unwrap(),
                "--quiet",
            ],
        )
    };
    // One planner call and the plan's two: three fit, two do not.
    let enough = run("3", "enough");
    assert_exit(&enough, 0);
    assert_eq!(stdout(&enough), "1\n2\n");
    let short = run("2", "short");
    assert_exit(&short, 4);
    assert_eq!(stdout(&short), "1\n");
    assert!(
        stderr(&short).contains("BudgetExceeded"),
        "{}",
        stderr(&short)
    );
}

#[test]
fn without_a_model_baton_plan_says_which_flag_gives_one() {
    let scratch = Scratch::new("plan-no-model");
    let output = baton_in_env(
        scratch.path(),
        &["plan", "--task", "anything"],
        &[("BATON_LLM_MODEL", "")],
    );
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("give --llm"),
        "{}",
        stderr(&output)
    );
}

/// `--replan 1`: a plan that raises after two model calls is replaced by one that repeats
/// them; the server sees those two requests once (the new run reuses the earlier answers) and
/// the planner's second request carries the traceback.
#[test]
fn a_plan_that_raises_is_replaced_and_its_model_calls_are_not_paid_twice() {
    const FAILING: &str = "```python\nfrom baton import llm\na = llm('first question')\nb = llm('second question')\nraise ValueError('gave up after ' + a + ' and ' + b)\n```";
    const FIXED: &str = "```python\nfrom baton import llm\na = llm('first question')\nb = llm('second question')\nprint('done:', a, b)\n```";
    let server = FakeServer::start(|request| {
        let system = request["messages"][0]["content"]
            .as_str()
            .unwrap_or_default();
        let last = fake_openai::last_message(request);
        if system.contains("# Baton plan language") {
            return if last.contains("when it ran it raised") {
                FIXED
            } else {
                FAILING
            }
            .into();
        }
        match last.as_str() {
            "first question" => "A1".into(),
            "second question" => "B2".into(),
            other => format!("unexpected {other}"),
        }
    });
    let scratch = Scratch::new("plan-replan");
    let output = baton_in_env(
        scratch.path(),
        &[
            "plan",
            "--task",
            "Ask two questions",
            "--grant",
            "llm",
            "--llm",
            "openai:fake",
            "--replan",
            "1",
            "--run-dir",
            scratch.run_dir().to_str().unwrap(),
            "--quiet",
        ],
        &[("OPENAI_BASE_URL", &server.base_url())],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "done: A1 B2\n");
    let prompts = server.prompts();
    let asked = |text: &str| prompts.iter().filter(|p| p.as_str() == text).count();
    assert_eq!(asked("first question"), 1, "{prompts:#?}");
    assert_eq!(asked("second question"), 1, "{prompts:#?}");
    let replan = prompts
        .iter()
        .find(|p| p.contains("when it ran it raised"))
        .expect("the planner was told the plan raised");
    assert!(
        replan.contains("ValueError: gave up after A1 and B2"),
        "{replan}"
    );
    assert!(
        replan.contains("second question"),
        "the last calls are shown: {replan}"
    );
    // The second run reused both answers, and its journal holds them (replay is exact).
    let second = scratch.run_dir().join("replan-1");
    let figures = read_json(&second.join("figures.json"));
    assert_eq!(figures["journal"]["reused"], 2, "{figures}");
    assert_eq!(figures["llm"]["calls"], 0, "{figures}");
    let replay = baton_in(scratch.path(), &["replay", second.to_str().unwrap()]);
    assert_exit(&replay, 0);
    assert_eq!(revision(&scratch, 2)["accepted"], true);
}

/// The example task set (`plans/examples/tasks/`): ten tasks over a fixture repository, planned
/// offline from a script of planner answers (two rejected by the check and repaired), each over
/// its own copy of the repository. What they print is `expected.txt`, as `run_all.sh` prints it.
#[test]
fn the_example_task_set_runs_offline() {
    let scratch = Scratch::new("plan-tasks");
    let here = std::path::Path::new(&repo("plans/examples/tasks")).to_path_buf();
    let mut tasks: Vec<_> = std::fs::read_dir(here.join("tasks"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    tasks.sort();
    assert_eq!(tasks.len(), 10);
    let mut printed = String::new();
    let mut repaired = 0;
    for task in &tasks {
        let name = task.file_stem().unwrap().to_str().unwrap();
        let workspace = scratch.path().join(name);
        let copied = std::process::Command::new("cp")
            .arg("-a")
            .arg(here.join("repo"))
            .arg(&workspace)
            .status()
            .unwrap();
        assert!(copied.success());
        let run_dir = scratch.path().join(format!("{name}.run"));
        let output = baton_in(
            scratch.path(),
            &[
                "plan",
                "--task-file",
                task.to_str().unwrap(),
                "--workspace",
                workspace.to_str().unwrap(),
                "--grant",
                "bash",
                "--llm",
                &format!("script:{}", here.join("planner.llm.json").display()),
                "--run-dir",
                run_dir.to_str().unwrap(),
                "--quiet",
            ],
        );
        assert_exit(&output, 0);
        printed.push_str(&format!("== {name}\n{}", stdout(&output)));
        repaired += usize::from(run_dir.join("planning/revision-2.json").exists());
    }
    let expected = std::fs::read_to_string(here.join("expected.txt")).unwrap();
    assert_eq!(printed, expected);
    assert_eq!(
        repaired, 2,
        "two tasks' first plans are rejected and repaired"
    );
    // The restock task changed its own copy of the repository, not the fixture.
    let todo = std::fs::read_to_string(scratch.path().join("08-restock/notes/todo.txt")).unwrap();
    assert!(todo.ends_with("- restock kiwi\n"), "{todo}");
    let fixture = std::fs::read_to_string(here.join("repo/notes/todo.txt")).unwrap();
    assert!(!fixture.contains("restock"));
}

/// `baton plan --resume`: planning cut short (here by the budget, after two revisions) goes on
/// where it stopped: the recorded revisions are not asked for again.
#[test]
fn interrupted_planning_resumes_without_asking_again() {
    let server = FakeServer::start(|request| answer(&fake_openai::last_message(request)).into());
    let scratch = Scratch::new("plan-resume");
    let run_dir = scratch.run_dir();
    let first = baton_in_env(
        scratch.path(),
        &[
            "plan",
            "--task",
            "Count the items",
            "--llm",
            "openai:fake",
            "--max-llm-calls",
            "2",
            "--run-dir",
            run_dir.to_str().unwrap(),
            "--quiet",
        ],
        &[("OPENAI_BASE_URL", &server.base_url())],
    );
    assert_exit(&first, 4);
    assert_eq!(server.requests().len(), 2);
    let resumed = baton_in_env(
        scratch.path(),
        &[
            "plan",
            "--resume",
            run_dir.to_str().unwrap(),
            "--llm",
            "openai:fake",
            "--quiet",
        ],
        &[("OPENAI_BASE_URL", &server.base_url())],
    );
    assert_exit(&resumed, 0);
    assert_eq!(stdout(&resumed), "counted 3\n");
    // One more request: the third revision's. The first two were answered from the record.
    let prompts = server.prompts();
    assert_eq!(prompts.len(), 3, "{prompts:#?}");
    assert!(prompts[2].contains("\"B201\""));
}
