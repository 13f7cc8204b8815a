//! End-to-end tests of `branch` and `parallel` through the real `baton` binary: the example
//! workflow over a repository fixture, each reducer, cancellation (processes and directories
//! gone), failure isolation, nested branches and budgets, stuck detection, and the copying of
//! values, closures and exceptions between instances.

mod support;

use std::path::Path;
use std::time::Duration;

use support::*;

/// Copies `tests/fixtures/NAME` into the scratch directory (a test must never change the
/// committed fixture).
fn fixture(scratch: &Scratch, name: &str) -> String {
    let dest = scratch.path().join(name);
    let output = std::process::Command::new("cp")
        .arg("-a")
        .arg(repo(&format!("tests/fixtures/{name}")))
        .arg(&dest)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    dest.to_string_lossy().into_owned()
}

fn wait_until_gone(needle: &str) -> Vec<String> {
    let mut left = processes_with(needle);
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        left = processes_with(needle);
    }
    left
}

#[test]
fn the_workflow_adopts_the_fix_that_passes_and_cancels_the_rest() {
    let scratch = Scratch::new("workflow");
    let repo_dir = fixture(&scratch, "calc_repo");
    let output = baton_in(
        scratch.path(),
        &[
            "run",
            &repo("plans/examples/swe_workflow.py"),
            "--grant",
            "bash,llm",
            "--workspace",
            &repo_dir,
            "--llm",
            &format!("script:{}", repo("plans/examples/swe_workflow.llm.json")),
            "--run-dir",
            scratch.run_dir().to_str().unwrap(),
        ],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "tests pass after the fix\n");
    let result = read_json(&scratch.run_dir().join("result.json"));
    assert_eq!(result["status"], "fixed", "{result}");
    assert_eq!(result["edge_case_ok"], true);
    // The fix (attempt 3) was adopted and written back: the tests pass in the repository.
    let calc = std::fs::read_to_string(Path::new(&repo_dir).join("calc.sh")).unwrap();
    assert!(calc.contains("$(( $2 + $3 ))"), "{calc}");
    assert!(!calc.contains("sleep"), "{calc}");
    let tests = std::process::Command::new("./test.sh")
        .current_dir(&repo_dir)
        .output()
        .unwrap();
    assert!(tests.status.success(), "{tests:?}");
    // Attempt 2 hangs in `sleep 41.75` until it is cancelled: its processes are gone, and so
    // is every branch's directory.
    let left = wait_until_gone("sleep 41.75");
    assert!(
        left.is_empty(),
        "cancelled branches' processes remain: {left:?}"
    );
    assert!(!scratch.run_dir().join("branches").exists());
    let log = std::fs::read_to_string(scratch.run_dir().join("log.txt")).unwrap();
    assert!(log.contains("diagnosis: `add` subtracts"), "{log}");
    // Four attempts and the analysis: five model calls, all charged to the run.
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(figures["llm"]["calls"], 5, "{figures}");
    // The report names the branches as the plan does, and shows why each loser lost as what
    // it did: the test run its validator made, with its failing output.
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
    let html = std::fs::read_to_string(&report).unwrap();
    for expected in [
        "chose <b>branch 3.2 (fix attempt 3)</b>",
        "<li>branch 3.1 (fix attempt 2): cancelled",
    ] {
        assert!(html.contains(expected), "the report lacks {expected:?}");
    }
    // Attempts 1 and 4 fail their tests; each either finished before attempt 3 won (and then
    // shows its failing test run) or was cancelled, as timing has it.
    for (name, failing) in [
        (
            "branch 3.0 (fix attempt 1)",
            "FAIL: calc.sh add 2 3 printed &#39;6&#39;, expected 5",
        ),
        (
            "branch 3.3 (fix attempt 4)",
            "syntax error: operand expected",
        ),
    ] {
        let rejected = format!("<li>{name}: returned a value the validator rejected");
        if html.contains(&rejected) {
            let shown = &html[html.find(&rejected).unwrap()..];
            let item = &shown[..shown.find("</li>").unwrap()];
            assert!(
                item.contains("<code>./test.sh 2&gt;&amp;1</code>, exit 1</summary><pre>")
                    && item.contains(failing),
                "{name}'s failing test run is not shown: {item}"
            );
        } else {
            assert!(
                html.contains(&format!("<li>{name}: cancelled")),
                "{name} neither lost nor was cancelled"
            );
        }
    }
}

const LABELS: &str = r#"
from baton import branch, parallel

def fast():
    return 1

def slow():
    return 2

def main():
    outs = branch([fast, slow, lambda: 3], reduce="all")
    print([(o.branch, o.label) for o in outs])
    outs = branch([fast, slow], reduce="all", labels=["quick", "careful"])
    print([(o.branch, o.label) for o in outs])
    print(parallel([fast, slow], labels=("a", "b")))
    print([o.label for o in branch(fast, n=3, reduce="all")])
    for bad in [["x"], [1, 2], "ab", ("a", None)]:
        try:
            branch([fast, slow], labels=bad)
        except (TypeError, ValueError) as e:
            print(isinstance(e, TypeError), e)
"#;

/// Branches carry the plan's names for them: `labels=`, else the callables' names, in the
/// outcomes the plan gets and in the trace.
#[test]
fn labels_name_branches_in_outcomes_and_trace() {
    let scratch = Scratch::new("labels");
    let output = run_plan(&scratch, LABELS, &[]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "[('0.0', 'fast'), ('0.1', 'slow'), ('0.2', 'main.<locals>.<lambda>')]\n\
         [('1.0', 'quick'), ('1.1', 'careful')]\n\
         [1, 2]\n\
         ['fast', 'fast', 'fast']\n\
         False branch() argument 'labels' must have as many items as there are callables (2)\n\
         True branch() argument 'labels' must hold str, not int\n\
         True branch() argument 'labels' must be a list of str, not str\n\
         True branch() argument 'labels' must hold str, not NoneType\n"
    );
    let trace = baton_in(
        scratch.path(),
        &["trace", scratch.run_dir().to_str().unwrap()],
    );
    assert_exit(&trace, 0);
    let trace: serde_json::Value = serde_json::from_slice(&trace.stdout).unwrap();
    let labels: Vec<(String, String)> = trace["branches"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| {
            Some((
                b["path"].as_str()?.to_string(),
                b["label"].as_str()?.to_string(),
            ))
        })
        .collect();
    assert_eq!(
        labels[..6],
        [
            ("0.0", "fast"),
            ("0.1", "slow"),
            ("0.2", "main.<locals>.<lambda>"),
            ("1.0", "quick"),
            ("1.1", "careful"),
            ("2.0", "a"),
        ]
        .map(|(p, l)| (p.to_string(), l.to_string()))
    );
}

const REDUCERS: &str = r#"
from baton import branch, BranchError

def main():
    fns = [lambda i=i: i for i in range(5)]
    # The first to end valid: only one is, so timing cannot change the answer.
    print("first_valid", branch(fns, validate=lambda v: v == 3))
    print("best", branch(fns, validate=lambda v: (v * 7) % 5, reduce="best"))
    print("vote", branch([lambda: "a", lambda: "b", lambda: "a", lambda: ("a",)], reduce="vote"))
    print("vote 1 == 1.0 is not one vote", branch([lambda: 1, lambda: 1.0, lambda: 1.0], reduce="vote"))
    outs = branch([lambda: 1, lambda: 1 / 0, lambda: {"k": (2.5, None, float("inf"))}],
                  validate=lambda v: v != 1, reduce="all")
    for o in outs:
        print(o.index, o.ok, o.valid, o.value, o.score, o.error, o.cancelled, o.steps)
    print("custom", branch(lambda: 3, n=4, reduce=lambda os: sum(o.value for o in os)))
    try:
        branch([lambda: 1, lambda: 2 // 0], validate=lambda v: v > 5)
    except BranchError as e:
        print("BranchError", e)
"#;

#[test]
fn each_reducer_chooses_as_documented() {
    let scratch = Scratch::new("reducers");
    let output = run_plan(&scratch, REDUCERS, &[]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "first_valid 3\n\
         best 2\n\
         vote a\n\
         vote 1 == 1.0 is not one vote 1.0\n\
         0 True False 1 0.0 None False 0\n\
         1 False False None None ZeroDivisionError: division by zero False 0\n\
         2 True True {'k': (2.5, None, inf)} 1.0 None False 0\n\
         custom 12\n\
         BranchError no branch produced a valid result (2 branches: 1 failed \
         (ZeroDivisionError: integer division or modulo by zero), 1 returned a result the \
         validator rejected)\n"
    );
}

/// A validator and a reducer each make 160 MB of garbage in one call, under a 64 MiB cap: they
/// run as plan code, collecting as they go (they ran with collections held off and raised
/// MemoryError).
#[test]
fn a_validator_and_a_reducer_collect_their_garbage_as_they_run() {
    let plan = r#"
from baton import branch

def churn(v):
    total = 0
    for i in range(16000):
        total += len(str(i) * 2000)
    return v + total % 7

def main():
    print(branch([lambda: 1, lambda: 2], validate=lambda v: churn(v) > 0, reduce="all")[1].value)
    print(branch([lambda: 3], reduce=lambda outcomes: churn(outcomes[0].value)))
"#;
    let scratch = Scratch::new("callback-garbage");
    let output = run_plan(&scratch, plan, &["--memory", "64"]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "2\n4\n");
}

const VALUES: &str = r#"
from baton import parallel

def make_counter():
    count = 0
    def bump(k):
        nonlocal count
        count += k
        return count
    return bump

def main():
    bump = make_counter()
    bump(5)
    # Each branch starts from a copy of the closure's cell; the parent's is untouched.
    print(parallel([lambda: bump(1), lambda: bump(2)]), bump(0))
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)
    print(parallel([lambda: fib(12)]))
    shared = [1, 2]
    pair = (shared, shared)
    cycle = []
    cycle.append(cycle)
    print(parallel([lambda: pair[0] is pair[1], lambda: cycle[0][0] is cycle]))
    value = {"a": [1, -2**62, 9223372036854775807, -0.0, float("nan")], (1, "x"): {3, 4}, "r": range(1, 9, 2),
             "e": KeyError("k"), "t": (), "s": "é\n\"\\", 7: None, False: True,
             frozenset({1, "x"}): frozenset({frozenset({2}), 3})}
    back, upper = parallel([lambda: value, lambda: "abc".upper])
    print(repr(back) == repr(value), back["r"], upper(), repr(back["e"]))
    fz = back[frozenset({"x", 1})]
    print(fz, isinstance(fz, frozenset), hash(fz) == hash(value[frozenset({1, "x"})]))
    try:
        parallel([lambda: 1, lambda: {}["missing"], lambda: int("x")])
    except KeyError as e:
        print("KeyError", e)
    try:
        parallel([lambda: enumerate([1])])
        print("lists cross")
    except TypeError as e:
        print("TypeError", e)
"#;

#[test]
fn values_closures_and_exceptions_are_copied_between_instances() {
    let scratch = Scratch::new("values");
    let output = run_plan(&scratch, VALUES, &[]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "[6, 7] 5\n\
         [144]\n\
         [True, True]\n\
         True range(1, 9, 2) ABC KeyError('k')\n\
         frozenset({frozenset({2}), 3}) True True\n\
         KeyError 'missing'\n\
         lists cross\n"
    );
}

/// The collector's stress mode is built into the module, so it runs in every instance: values,
/// closures and exceptions copied into and out of branches survive a collection at every safe
/// point of the plan and of each branch, and the plans print what they print without it.
#[test]
fn branches_behave_the_same_when_the_collector_runs_at_every_safe_point() {
    for (name, plan) in [("reducers", REDUCERS), ("values", VALUES)] {
        let plain = run_plan(&Scratch::new(&format!("{name}-plain")), plan, &[]);
        assert_exit(&plain, 0);
        let stressed = run_plan(
            &Scratch::new(&format!("{name}-stress")),
            plan,
            &["--gc-stress", "1"],
        );
        assert_exit(&stressed, 0);
        assert_eq!(stdout(&stressed), stdout(&plain), "{name}");
    }
}

#[test]
fn a_failing_branch_fails_alone() {
    let scratch = Scratch::new("isolation");
    let plan = r#"
from baton import branch

def spin():
    n = 0
    while True:
        n += 1

def hog():
    xs = []
    while True:
        xs.append("x" * 100000)

def deep(n):
    return deep(n + 1)

def main():
    outs = branch([spin, hog, lambda: deep(0), lambda: "fine"], reduce="all")
    for o in outs:
        print(o.index, o.ok, o.error_type, o.value)
"#;
    let output = run_plan(&scratch, plan, &["--fuel", "200000000", "--memory", "64"]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "0 False LimitExceeded None\n\
         1 False MemoryError None\n\
         2 False RecursionError None\n\
         3 True None fine\n"
    );
}

/// A branch that raised: `parallel` raises its exception with the branch's traceback as the
/// cause (a `BranchTraceback`, as CPython's process pools attach the worker's), so the frames
/// where the branch failed are printed, not only the `parallel` call; an `Outcome` carries the
/// same text. The run's journal replays it.
#[test]
fn a_branch_that_raised_shows_its_traceback() {
    let scratch = Scratch::new("branch-traceback");
    let plan = r#"
from baton import branch, parallel

def parse(text):
    return int(text)

def work(text):
    return parse(text) * 2

outs = branch([lambda: work("2"), lambda: work("x")], reduce="all")
print([o.ok for o in outs], outs[0].traceback)
print("in parse" in outs[1].traceback, outs[1].traceback.splitlines()[-1])
print(parallel([lambda: work("2"), lambda: work("x")]))
"#;
    let output = run_plan(&scratch, plan, &["--summary", "none"]);
    assert_exit(&output, 1);
    assert_eq!(
        stdout(&output),
        "[True, False] None\n\
         True ValueError: invalid literal for int() with base 10: 'x'\n"
    );
    let text = stderr(&output);
    let (cause, raised) = text
        .split_once("\nThe above exception was the direct cause of the following exception:\n\n")
        .unwrap_or_else(|| panic!("no cause in:\n{text}"));
    assert!(
        cause.starts_with("BranchTraceback: \n\"\"\"\nTraceback (most recent call last):\n"),
        "{text}"
    );
    for frame in ["in <lambda>", "line 8, in work", "line 5, in parse"] {
        assert!(cause.contains(frame), "{frame} not in:\n{cause}");
    }
    assert!(cause.ends_with("'x'\n\"\"\"\n"), "{cause}");
    assert!(
        raised.starts_with("Traceback (most recent call last):\n"),
        "{text}"
    );
    assert!(!raised.contains("in parse"), "{text}");
    assert!(
        raised.ends_with("ValueError: invalid literal for int() with base 10: 'x'\n"),
        "{text}"
    );
    let replay = baton_in(
        scratch.path(),
        &["replay", scratch.run_dir().to_str().unwrap()],
    );
    assert_exit(&replay, 0);
    // The report shows it beside the failed branch.
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
    let html = std::fs::read_to_string(&report).unwrap();
    let shown = html
        .split("<details><summary>its traceback</summary><pre>")
        .nth(1)
        .unwrap_or_else(|| panic!("no traceback in the report:\n{html}"));
    assert!(
        shown.starts_with("Traceback (most recent call last):"),
        "{shown:.200}"
    );
    assert!(
        shown.split("</pre>").next().unwrap().contains("in parse"),
        "{shown:.400}"
    );
}

#[test]
fn branches_nest_and_budgets_nest() {
    let scratch = Scratch::new("nesting");
    let replies = scratch.write(
        "replies.json",
        r#"{"rules": [{"when": "question", "reply": "ok", "usage": {"input_tokens": 10, "output_tokens": 5}}]}"#,
    );
    let plan = r#"
from baton import branch, parallel, llm, BudgetExceeded

def calls(n):
    def run():
        done = 0
        try:
            for i in range(n):
                llm("question " + str(i))
                done += 1
        except BudgetExceeded:
            return ("stopped", done)
        return ("all", done)
    return run

def inner():
    return parallel([calls(2), calls(2)])

def main():
    # Each branch may make 2 calls; the second asks for 3 and is stopped after 2.
    outs = branch([calls(2), calls(3)], budget={"calls": 2}, reduce="all")
    print([o.value for o in outs], [o.tokens for o in outs])
    # Nested: two branches, each running two branches of 2 calls.
    print(parallel([inner, inner]))
    # depth limit
    def level(k):
        return k if k == 0 else parallel([lambda: level(k - 1)])[0]
    print(level(3))
"#;
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "[('all', 2), ('stopped', 2)] [30, 30]\n\
         [[('all', 2), ('all', 2)], [('all', 2), ('all', 2)]]\n\
         0\n"
    );
    // Every branch's calls count against the run's budget.
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(figures["llm"]["calls"], 12, "{figures}");

    // The run's own cap binds its branches.
    let scratch = Scratch::new("nesting-cap");
    let output = run_plan(
        &scratch,
        plan,
        &[
            "--grant",
            "llm",
            "--llm",
            &format!("script:{replies}"),
            "--max-llm-calls",
            "3",
        ],
    );
    assert_exit(&output, 0);
    let out = stdout(&output);
    let first = out.lines().next().unwrap();
    // Three calls in all between the two branches, whoever got them.
    let done: u32 = first.chars().filter_map(|c| c.to_digit(10)).take(2).sum();
    assert_eq!(done, 3, "{out}");
}

#[test]
fn nesting_deeper_than_the_limit_is_a_branch_error() {
    let scratch = Scratch::new("depth");
    let config = scratch.write("baton.toml", "[branch]\nmax_depth = 2\n");
    let plan = r#"
from baton import parallel

def level(k):
    return k if k == 0 else parallel([lambda: level(k - 1)])[0]

print(level(2))
print(level(3))
"#;
    let output = run_plan(&scratch, plan, &["--config", &config]);
    assert_exit(&output, 1);
    assert_eq!(stdout(&output), "0\n");
    assert!(
        stderr(&output).contains("BranchError: branches nest at most 2 deep"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_branch_repeating_itself_is_stopped_as_stuck() {
    let scratch = Scratch::new("stuck");
    let plan = r#"
from baton import branch, bash

def retry_forever():
    while not bash("false").ok:
        pass

def varied():
    for i in range(5):
        bash("true " + str(i))
    return "done"

def main():
    outs = branch([retry_forever, varied], reduce="all")
    for o in outs:
        print(o.index, o.ok, o.error, o.steps)
"#;
    let output = run_plan(&scratch, plan, &["--grant", "bash"]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "0 False Stuck: the branch made the same bash request 3 times in a row: \
         {\"command\":\"false\",\"line\":5} 2\n\
         1 True None 5\n"
    );
}

#[test]
fn stop_early_cancels_the_rest_and_their_processes() {
    let scratch = Scratch::new("cancel");
    // A duration nobody else uses, to find the processes afterwards; far longer than the run's
    // timeout, so a run that waited for the slow branches would end with exit 4.
    let marker = format!("43.{}", std::process::id());
    let plan = format!(
        r#"
from baton import branch, bash

def slow():
    bash("(setsid sleep {marker} &); sleep {marker}; echo late > late.txt")
    return "slow"

def main():
    print(branch([slow, lambda: "fast", slow], validate=lambda v: v == "fast"))
"#
    );
    let output = run_plan(&scratch, &plan, &["--grant", "bash", "--timeout", "20"]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "fast\n");
    let left = wait_until_gone(&format!("sleep {marker}"));
    assert!(
        left.is_empty(),
        "cancelled branches' processes remain: {left:?}"
    );
    assert!(!scratch.run_dir().join("branches").exists());
    assert!(!scratch.run_dir().join("workspace/late.txt").exists());
}

#[path = "../fuzz/value_gen.rs"]
mod value_gen;

#[test]
fn generated_values_survive_the_copy_into_and_out_of_branches() {
    // The `branch_values` fuzz target's generator, on seeded bytes (xorshift64*).
    let mut state = 0x5eed_ba70_u64;
    let mut plans = String::new();
    for round in 0..12 {
        let bytes: Vec<u8> = (0..400)
            .map(|_| {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
            })
            .collect();
        let scratch = Scratch::new(&format!("generated-values-{round}"));
        let plan = value_gen::plan(&bytes);
        // Every third round with the collector's stress mode, in the plan and its branches.
        let stress: &[&str] = if round % 3 == 0 {
            &["--gc-stress", "1"]
        } else {
            &[]
        };
        let output = run_plan(&scratch, &plan, stress);
        assert_exit(&output, 0);
        assert_eq!(stdout(&output), value_gen::EXPECTED, "plan:\n{plan}");
        plans.push_str(&plan);
    }
    // The generator reached the interesting values.
    for needle in [
        "float('nan')",
        "lambda",
        "cycle",
        "'abc'.split",
        "{}.keys()",
        "frozenset([",
    ] {
        assert!(plans.contains(needle), "no {needle} in the generated plans");
    }
}

/// Script-provider rules that make judge `judge` of the match between `a` and `b` answer
/// `reply` (the rule matches the end of the judges' prompt, which names both candidates).
fn judge_rule(a: &str, b: &str, judge: u32, reply: &str) -> serde_json::Value {
    serde_json::json!({
        "when": format!(
            "Candidate 1:\n{a}\n\nCandidate 2:\n{b}\n\nAnswer with the number of the best \
             candidate and nothing else.\n\n(judge {judge})"
        ),
        "reply": reply,
    })
}

#[test]
fn tournament_votes_and_stops_each_match_once_it_is_decided() {
    let scratch = Scratch::new("tournament");
    let mut rules = Vec::new();
    // alpha vs beta: judges 1-5 prefer beta, 6-8 alpha. One at a time, the match is decided
    // after the fifth vote (5 > 0 + 3 still to come): 5 calls.
    for judge in 1..=8 {
        rules.push(judge_rule(
            "alpha",
            "beta",
            judge,
            if judge <= 5 { "2" } else { "1" },
        ));
    }
    // gamma vs delta: 3 for gamma first, then 5 for delta: never decided early, 8 calls.
    for judge in 1..=8 {
        rules.push(judge_rule(
            "gamma",
            "delta",
            judge,
            if judge <= 3 { "1" } else { "2" },
        ));
    }
    // beta vs delta: judge 1 answers nonsense (no vote), then beta: decided after judge 5
    // (4 votes > 0 + the 3 still to come): 5 calls.
    for judge in 1..=8 {
        rules.push(judge_rule(
            "beta",
            "delta",
            judge,
            if judge == 1 {
                "the second?"
            } else {
                "Candidate 1"
            },
        ));
    }
    let replies = scratch.write(
        "judges.json",
        &serde_json::json!({ "rules": rules }).to_string(),
    );
    let plan = r#"
from baton.ttc import tournament

def main():
    items = ["alpha", "beta", "gamma", "delta"]
    print(tournament(items, question="Which is best?", votes=8, max_parallel=1))
    print(tournament(items, question="Which is best?", votes=8))
"#;
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "beta\nbeta\n");
    // One at a time: 5 + 8 + 5 judge calls; all at once: at most 8 per match.
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    let calls = figures["llm"]["calls"].as_u64().unwrap();
    assert!((18 + 18..=18 + 24).contains(&calls), "{figures}");

    let scratch = Scratch::new("tournament-exact");
    let replies = scratch.write(
        "judges.json",
        &serde_json::json!({ "rules": rules }).to_string(),
    );
    let plan = r#"
from baton.ttc import tournament
print(tournament(["alpha", "beta", "gamma", "delta"], question="Which is best?", votes=8, max_parallel=1))
"#;
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "beta\n");
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(figures["llm"]["calls"], 18, "{figures}");
}

#[test]
fn refine_distills_summaries_into_a_second_round() {
    let scratch = Scratch::new("refine");
    let replies = scratch.write(
        "replies.json",
        r#"{"rules": [
            {"when": "Summarize this attempt", "reply": "{\"diagnosis\": \"a draft\", \"failure_modes\": [\"not refined\"]}"},
            {"when": "(judge", "reply": "1"},
            {"when": "attempt given 0 summaries", "reply": "draft"},
            {"when": "attempt given 2 summaries", "reply": "refined"}
        ]}"#,
    );
    let plan = r#"
from baton import llm
from baton.ttc import refine, summarize
from baton import branch

def step(context):
    for summary in context:
        assert summary["diagnosis"] == "a draft", summary
        assert summary["failure_modes"] == ["not refined"], summary
    return llm(f"attempt given {len(context)} summaries")

def main():
    print(refine(step, n=4, k=2, validate=lambda v: v == "refined", votes=3, max_parallel=1))
"#;
    let output = run_plan(
        &scratch,
        plan,
        &["--grant", "llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "refined\n");
    // 4 rollouts, 4 summaries, 2 tournaments of 2 (2 votes each decide them), 4 refined
    // rollouts, a final tournament of 4 (3 matches of 2 votes).
    let figures = read_json(&scratch.run_dir().join("figures.json"));
    assert_eq!(
        figures["llm"]["calls"],
        4 + 4 + 2 * 2 + 4 + 3 * 2,
        "{figures}"
    );
}

#[test]
fn the_plan_library_passes_the_check_and_names_its_file_in_tracebacks() {
    let scratch = Scratch::new("library");
    let output = baton_in(scratch.path(), &["check", &repo("plans/baton/ttc.py")]);
    assert_exit(&output, 0);
    let replies = scratch.write("replies.json", r#"{"rules": [], "default": "A"}"#);
    let output = run_plan(
        &scratch,
        "from baton.ttc import tournament\ntournament([], question='?')\n",
        &["--grant", "llm", "--llm", &format!("script:{replies}")],
    );
    assert_exit(&output, 1);
    let err = stderr(&output);
    assert!(err.contains("File \"baton/ttc.py\", line"), "{err}");
    assert!(
        err.ends_with("ValueError: tournament() needs at least one item\n"),
        "{err}"
    );
    let output = run_plan(&scratch, "import baton.ttc\n", &[]);
    assert_exit(&output, 3);
    assert!(
        stderr(&output).contains("from baton.ttc import NAME"),
        "{}",
        stderr(&output)
    );
}

const AUTO: &str = r#"
from baton import branch, llm, BranchError

def attempt():
    return llm("try to solve it", max_tokens=20)

def main():
    try:
        print(branch(attempt, n="auto", validate=inputs_valid, priors=PRIORS))
    except BranchError as e:
        print("BranchError", e)
    except ValueError as e:
        print("ValueError", e)
"#;

fn auto_plan(valid: bool, priors: &str) -> String {
    AUTO.replace(
        "inputs_valid",
        if valid {
            "lambda v: True"
        } else {
            "lambda v: False"
        },
    )
    .replace("PRIORS", priors)
}

fn site(scratch: &Scratch) -> serde_json::Value {
    read_json(&scratch.run_dir().join("figures.json"))["branches"]["attempt"].clone()
}

#[test]
fn auto_fan_out_runs_waves_until_the_budget_or_the_gain_runs_out() {
    let replies_text = r#"{"rules": [{"when": "try to solve it", "reply": "nope", "usage": {"input_tokens": 10, "output_tokens": 20}}]}"#;
    let script =
        |scratch: &Scratch| format!("script:{}", scratch.write("replies.json", replies_text));

    // Success 0.2: a first wave of 11 (P(some success) >= 0.9); after 11 failures the estimate
    // is 0.2 x 4 / 15, so 16 (the cap), then the 3 the 30-call budget still pays for.
    let scratch = Scratch::new("auto-budget");
    let llm = script(&scratch);
    let output = run_plan(
        &scratch,
        &auto_plan(false, r#"{"success": 0.2}"#),
        &["--grant", "llm", "--llm", &llm, "--max-llm-calls", "30"],
    );
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "BranchError no branch produced a valid result (30 branches: 30 returned a result the \
         validator rejected) (n='auto' stopped: the budget cannot pay for another attempt)\n"
    );
    let figures = site(&scratch);
    assert_eq!(
        (figures["attempts"].as_u64(), figures["waves"].as_u64()),
        (Some(30), Some(3)),
        "{figures}"
    );

    // What that run learned: success (0 + 1) / (30 + 2), one call per attempt. With it, a
    // 10-call budget goes in one wave; with the default prior (0.5) in two (4, then 6).
    let priors = scratch.path().join("priors.json");
    let out = baton_in(
        scratch.path(),
        &[
            "priors",
            scratch.run_dir().to_str().unwrap(),
            "-o",
            priors.to_str().unwrap(),
        ],
    );
    assert_exit(&out, 0);
    let learned = read_json(&priors);
    assert_eq!(learned["attempt"]["success"], 1.0 / 32.0, "{learned}");
    assert_eq!(learned["attempt"]["calls"], 1.0, "{learned}");
    for (flags, waves) in [(vec!["--priors", priors.to_str().unwrap()], 1), (vec![], 2)] {
        let scratch = Scratch::new("auto-learned");
        let llm = script(&scratch);
        let mut args = vec!["--grant", "llm", "--llm", &llm, "--max-llm-calls", "10"];
        args.extend(flags.iter().copied());
        let output = run_plan(&scratch, &auto_plan(false, "None"), &args);
        assert_exit(&output, 0);
        let figures = site(&scratch);
        assert_eq!(figures["attempts"], 10, "{figures}");
        assert_eq!(figures["waves"], waves, "{figures}");
    }

    // A valid result ends it: the first wave's others are cancelled.
    let scratch = Scratch::new("auto-success");
    let llm = script(&scratch);
    let output = run_plan(
        &scratch,
        &auto_plan(true, r#"{"success": 0.2}"#),
        &["--grant", "llm", "--llm", &llm, "--max-llm-calls", "30"],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "nope\n");
    let figures = site(&scratch);
    assert_eq!(figures["waves"], 1, "{figures}");
    assert!(figures["attempts"].as_u64().unwrap() <= 11, "{figures}");

    // Not worth it: 0.1 x 5 USD of expected gain does not pay a 1 USD attempt.
    let scratch = Scratch::new("auto-gain");
    let llm = script(&scratch);
    let output = run_plan(
        &scratch,
        &auto_plan(false, r#"{"success": 0.1, "cost": 1.0, "value": 5.0}"#),
        &["--grant", "llm", "--llm", &llm],
    );
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("not worth its cost"),
        "{}",
        stdout(&output)
    );

    // Nothing to plan against.
    let scratch = Scratch::new("auto-unbounded");
    let llm = script(&scratch);
    let output = run_plan(
        &scratch,
        &auto_plan(false, "None"),
        &["--grant", "llm", "--llm", &llm],
    );
    assert_exit(&output, 0);
    assert!(
        stdout(&output).starts_with("ValueError branch() with n='auto' needs a budget"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_tournament_and_refine_examples_run_offline() {
    for (plan, expected) in [
        (
            "tournament",
            "Merge sort: divide, sort both halves, merge; stable, O(n log n) always.\n",
        ),
        ("refine", "wc -l *.py | sort -rn\n"),
    ] {
        let scratch = Scratch::new(plan);
        let output = baton_in(
            scratch.path(),
            &[
                "run",
                &repo(&format!("plans/examples/{plan}.py")),
                "--grant",
                "llm",
                "--llm",
                &format!(
                    "script:{}",
                    repo(&format!("plans/examples/{plan}.llm.json"))
                ),
                "--run-dir",
                scratch.run_dir().to_str().unwrap(),
                "--quiet",
            ],
        );
        assert_exit(&output, 0);
        assert_eq!(stdout(&output), expected, "{plan}");
    }
}

const LAYERS: &str = r#"
from baton import branch, bash

def inner():
    bash("rm -rf d && mkdir d && echo new > d/n && rm a.txt && echo x > x.txt && ln -s x.txt link")
    return bash("ls -R").stdout

def outer():
    bash("echo outer > o.txt && rm -f d/k2 && chmod 600 o.txt")
    seen = branch([inner])
    return seen + "--\n" + bash("ls -R; cat d/n").stdout

print(branch([outer]))
print(bash("ls -R; cat o.txt d/n; readlink link").stdout)
"#;

#[test]
fn nested_branches_adopt_deletions_replacements_and_links_either_way() {
    let expected = ".:\nd\nlink\no.txt\nx.txt\n\n./d:\nn\n--\n.:\nd\nlink\no.txt\nx.txt\n\n\
                    ./d:\nn\nnew\n\n.:\nd\nlink\no.txt\nx.txt\n\n./d:\nn\nouter\nnew\nx.txt\n\n";
    for mode in ["copy", "auto"] {
        let scratch = Scratch::new(&format!("layers-{mode}"));
        let repo_dir = scratch.path().join("repo");
        std::fs::create_dir_all(repo_dir.join("d")).unwrap();
        std::fs::write(repo_dir.join("a.txt"), "a\n").unwrap();
        std::fs::write(repo_dir.join("d/k"), "k\n").unwrap();
        std::fs::write(repo_dir.join("d/k2"), "k2\n").unwrap();
        let config = scratch.write(
            "baton.toml",
            &format!("[branch]\nworkspaces = \"{mode}\"\n"),
        );
        let output = run_plan(
            &scratch,
            LAYERS,
            &[
                "--grant",
                "bash",
                "--config",
                &config,
                "--workspace",
                repo_dir.to_str().unwrap(),
            ],
        );
        assert_exit(&output, 0);
        assert_eq!(stdout(&output), expected, "{mode}");
        // Written back to the repository: a.txt and d/k, d/k2 gone, the rest new.
        let mut found: Vec<String> = walk(&repo_dir);
        found.sort();
        assert_eq!(found, ["d/", "d/n", "link", "o.txt", "x.txt"], "{mode}");
        use std::os::unix::fs::PermissionsExt;
        let mode_bits = std::fs::metadata(repo_dir.join("o.txt"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode_bits & 0o777, 0o600, "{mode}");
        assert!(!scratch.run_dir().join("branches").exists(), "{mode}");
    }
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if entry.file_type().unwrap().is_dir() {
                out.push(format!("{rel}/"));
                pending.push(entry.path());
            } else {
                out.push(rel);
            }
        }
    }
    out
}

#[test]
fn branches_that_are_not_adopted_leave_the_parent_workspace_alone() {
    let scratch = Scratch::new("not-adopted");
    let plan = r#"
from baton import branch, parallel, bash, BranchError

def vandal():
    bash("echo evil > f.txt; rm -rf keep; echo junk > junk.txt")
    return bash("ls").stdout

def main():
    bash("echo base > f.txt; mkdir keep; echo k > keep/k")
    try:
        branch([vandal, vandal], validate=lambda seen: False)
    except BranchError:
        pass
    print(parallel([vandal]))
    branch([vandal], adopt=False)
    print(bash("cat f.txt; ls").stdout)
"#;
    let output = run_plan(&scratch, plan, &["--grant", "bash"]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output),
        "['f.txt\\njunk.txt\\n']\nbase\nf.txt\nkeep\n\n"
    );
}
