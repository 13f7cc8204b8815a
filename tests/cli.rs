//! End-to-end tests of the `baton` binary: exit codes, output streams and error messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn baton(args: &[&str]) -> Output {
    baton_command(args).output().expect("run baton")
}

fn baton_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_baton"));
    command
        .args(args)
        .env("BATON_CACHE_DIR", "off")
        // Run directories go under target/, not into the repository's `.baton/`.
        .env(
            "BATON_RUNS_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-runs"),
        );
    command
}

fn temp_dir(name: &str) -> PathBuf {
    // Under target/ (as the run directories are), one per test, emptied when the test starts.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, contents: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn clean_plan_exits_zero() {
    let dir = temp_dir("clean");
    let plan = write(
        &dir,
        "plan.py",
        b"from baton import bash\nprint(bash('ls').stdout)\n",
    );
    let output = baton(&["check", &plan]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert!(stderr(&output).contains("passes the check"));
}

#[test]
fn rejected_plan_exits_three_with_every_diagnostic_on_stderr() {
    let dir = temp_dir("rejected");
    let plan = write(&dir, "plan.py", b"import os\nx = eval('1')\n");
    let output = baton(&["check", &plan]);
    assert_eq!(output.status.code(), Some(3));
    let text = stderr(&output);
    assert!(
        text.contains("error[B101]") && text.contains("error[B202]"),
        "{text}"
    );
    assert!(
        text.contains("plan.py:1:8") && text.contains("= help:"),
        "{text}"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn json_format_prints_an_array_on_stdout() {
    let dir = temp_dir("json");
    let plan = write(&dir, "plan.py", b"x = ().__class__\n");
    let output = baton(&["check", &plan, "--format", "json"]);
    assert_eq!(output.status.code(), Some(3));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    let items = value.as_array().expect("an array");
    assert_eq!(items.len(), 1);
    let item = &items[0];
    assert_eq!(item["code"], "B205");
    assert_eq!(item["severity"], "error");
    assert_eq!(
        (item["line"].as_u64(), item["column"].as_u64()),
        (Some(1), Some(8))
    );
    assert_eq!(
        (item["end_line"].as_u64(), item["end_column"].as_u64()),
        (Some(1), Some(17))
    );
    assert!(item["message"].as_str().unwrap().contains("__class__"));
    assert!(item["help"].is_string());

    let clean = write(&dir, "clean.py", b"print(1)\n");
    let output = baton(&["check", &clean, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "[]");
}

#[test]
fn unreadable_inputs_are_usage_errors_that_name_the_problem() {
    let dir = temp_dir("usage");
    let missing = dir.join("missing.py").to_string_lossy().into_owned();
    let output = baton(&["check", &missing]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("missing.py"),
        "{}",
        stderr(&output)
    );

    let output = baton(&["check", &dir.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("is a directory"),
        "{}",
        stderr(&output)
    );

    let latin1 = write(&dir, "latin1.py", b"x = '\xe9'\n");
    let output = baton(&["check", &latin1]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not UTF-8") && stderr(&output).contains("offset 5"),
        "{}",
        stderr(&output)
    );

    assert_eq!(baton(&["check"]).status.code(), Some(2));
    assert_eq!(
        baton(&["check", &latin1, "--format", "xml"]).status.code(),
        Some(2)
    );
    assert_eq!(baton(&["frobnicate"]).status.code(), Some(2));
}

/// A stderr or stdout that cannot be written (/dev/full: every write fails, as on a full disk)
/// changes no exit code. `eprintln!` would panic there: exit 101, and nothing said.
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_stderr_or_stdout_changes_no_exit_code() {
    let dir = temp_dir("unwritable");
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    let code = |args: &[&str], stdout_full: bool| {
        let mut command = baton_command(args);
        command.stderr(full());
        if stdout_full {
            command.stdout(full());
        }
        command.status().expect("run baton").code()
    };
    let missing = dir.join("missing.py").to_string_lossy().into_owned();
    assert_eq!(code(&["run", &missing], false), Some(2));
    assert_eq!(code(&["check", &missing], false), Some(2));
    let rejected = write(&dir, "rejected.py", b"import os\n");
    assert_eq!(code(&["check", &rejected], false), Some(3));
    assert_eq!(code(&["run", &rejected], false), Some(3));
    let raises = write(
        &dir,
        "raises.py",
        b"print('before')\nraise ValueError('no')\n",
    );
    assert_eq!(code(&["run", &raises], false), Some(1));
    let clean = write(&dir, "clean.py", b"print('hello')\n");
    assert_eq!(code(&["run", &clean], false), Some(0));
    // The plan's output cannot be written: the run fails (1), as it does with stderr writable.
    assert_eq!(code(&["run", &clean], true), Some(1));
}

#[test]
fn byte_order_mark_is_accepted() {
    let dir = temp_dir("bom");
    let plan = write(&dir, "bom.py", b"\xef\xbb\xbfprint(1)\n");
    assert_eq!(baton(&["check", &plan]).status.code(), Some(0));
}

#[test]
fn help_documents_exit_codes() {
    let output = baton(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("3 rejected by the static check"), "{text}");
    let output = baton(&["check", "--help"]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("end_column"));
}

#[test]
fn example_plans_pass_the_check() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("plans/examples");
    let mut count = 0;
    for entry in std::fs::read_dir(examples).expect("plans/examples exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "py") {
            let output = baton(&["check", &path.to_string_lossy()]);
            assert_eq!(
                output.status.code(),
                Some(0),
                "{}: {}",
                path.display(),
                stderr(&output)
            );
            count += 1;
        }
    }
    assert!(count >= 2, "example plans went missing");
}

#[test]
fn compile_then_run_and_inspect_the_module() {
    let dir = temp_dir("compile");
    let plan = write(&dir, "plan.py", b"print('from a module')\n");
    let module = dir.join("out.wasm").to_string_lossy().into_owned();
    let output = baton(&["compile", &plan, "-o", &module, "--emit-wat"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        dir.join("out.wat").exists(),
        "--emit-wat writes the text beside the module"
    );

    let output = baton(&["run", &module]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "from a module\n");

    let output = baton(&["inspect", &module, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("\"print\""), "{text}");
    // print needs no grant: no capability is listed.
    let info: serde_json::Value = serde_json::from_str(&text).unwrap();
    // A plan module: its entry points are the runtime's, of the version it names.
    assert_eq!(info["runtime"], baton_host::RUNTIME_VERSION, "{text}");
    assert_eq!(info["capabilities"], serde_json::json!([]));
}

#[test]
fn inspect_lists_capabilities_apart_from_the_other_calls() {
    let dir = temp_dir("inspect-caps");
    let plan = write(
        &dir,
        "p.py",
        b"from baton import bash, llm, log\nlog(bash('ls').stdout)\nprint(llm('x'))\n",
    );
    let module = dir.join("p.wasm").to_string_lossy().into_owned();
    let output = baton(&["compile", &plan, "-o", &module]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = baton(&["inspect", &module]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("capabilities (what `baton run --grant` must give):\n  bash\n  llm\n"),
        "{text}"
    );
    let output = baton(&["inspect", &module, "--format", "json"]);
    let info: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(info["capabilities"], serde_json::json!(["bash", "llm"]));
}

#[test]
fn a_module_importing_outside_the_allowlist_is_refused_before_it_runs() {
    let dir = temp_dir("refused");
    let module = wat::parse_str(
        r#"(module (import "env" "system" (func)) (memory (export "memory") 1)
             (func (export "baton_main") (result i32) (call 0) (i32.const 0)))"#,
    )
    .unwrap();
    let path = write(&dir, "evil.wasm", &module);
    let output = baton(&["run", &path]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("env"),
        "the refusal names the import: {}",
        stderr(&output)
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn a_plan_run_again_reuses_its_module_and_an_edited_plan_is_never_stale() {
    let dir = temp_dir("plan-cache");
    let cache = dir.join("cache");
    let run = |plan: &str| {
        Command::new(env!("CARGO_BIN_EXE_baton"))
            .args(["run", plan])
            .env("BATON_CACHE_DIR", &cache)
            .env("BATON_RUNS_DIR", dir.join("runs"))
            .output()
            .expect("run baton")
    };
    let plans_kept = || {
        std::fs::read_dir(&cache)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "wasm"))
                    .count()
            })
            .unwrap_or(0)
    };
    let plan = write(&dir, "plan.py", b"print('first')\n");
    for _ in 0..2 {
        let output = run(&plan);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(String::from_utf8_lossy(&output.stdout), "first\n");
        assert_eq!(plans_kept(), 1, "one module kept for one plan");
    }
    write(&dir, "plan.py", b"print('second')\n");
    let output = run(&plan);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "second\n");
    assert_eq!(plans_kept(), 2);
    // A damaged or planted entry (here: every kept module replaced by one importing outside
    // the allowlist) is not run: the plan is compiled again and prints what it says.
    let evil = wat::parse_str(
        r#"(module (import "env" "system" (func)) (memory (export "memory") 1)
             (func (export "baton_main") (result i32) (call 0) (i32.const 0)))"#,
    )
    .unwrap();
    for entry in std::fs::read_dir(&cache).unwrap().filter_map(Result::ok) {
        if entry.path().extension().is_some_and(|x| x == "wasm") {
            std::fs::write(entry.path(), &evil).unwrap();
        }
    }
    let output = run(&plan);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "second\n");
    // A rejected plan is never kept: its diagnostics are printed on every run.
    write(&dir, "plan.py", b"import os\n");
    for _ in 0..2 {
        let output = run(&plan);
        assert_eq!(output.status.code(), Some(3));
        assert!(stderr(&output).contains("os"), "{}", stderr(&output));
    }
    assert_eq!(plans_kept(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The runtime module comes precompiled in the binary: a first run with an empty module cache
/// compiles only the plan (one compiled entry kept). Where the precompiled code cannot be used
/// (here: a perf map asked for, which needs code this process compiled) the runtime is compiled
/// and kept like any module, and the plan runs the same.
#[test]
fn the_runtime_comes_precompiled_and_is_compiled_only_where_it_cannot_be_used() {
    let dir = temp_dir("precompiled-runtime");
    let plan = write(&dir, "plan.py", b"print(sum(range(10)))\n");
    let compiled_entries = |cache: &Path| {
        std::fs::read_dir(cache)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "cwasm"))
                    .count()
            })
            .unwrap_or(0)
    };
    for (case, perf_map, entries) in [("precompiled", "0", 1), ("compiled", "1", 2)] {
        let cache = dir.join(case);
        let child = Command::new(env!("CARGO_BIN_EXE_baton"))
            .args(["run", "-q", &plan])
            .env("BATON_CACHE_DIR", &cache)
            .env("BATON_RUNS_DIR", dir.join("runs"))
            .env("BATON_PERFMAP", perf_map)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run baton");
        let pid = child.id();
        let output = child.wait_with_output().unwrap();
        let _ = std::fs::remove_file(format!("/tmp/perf-{pid}.map"));
        assert!(output.status.success(), "{case}: {}", stderr(&output));
        assert_eq!(String::from_utf8_lossy(&output.stdout), "45\n", "{case}");
        assert_eq!(
            compiled_entries(&cache),
            entries,
            "{case}: compiled modules kept"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tracebacks name the frames CPython names: an argument-binding TypeError is the caller's (no
/// frame of the callee, which never started), and "changed size during iteration" is the `for`
/// line's, not the body's last line.
#[test]
fn tracebacks_name_the_lines_cpython_names() {
    let dir = temp_dir("traceback-lines");
    let traceback = |name: &str, source: &str| -> Vec<String> {
        let plan = write(&dir, name, source.as_bytes());
        let output = baton(&["run", &plan, "--summary", "none"]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        // `  File "<path>", line 6, in main` -> `line 6, in main`
        stderr(&output)
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("File "))
            .filter_map(|frame| frame.split_once(".py\", "))
            .map(|(_, at)| at.to_string())
            .collect()
    };
    assert_eq!(
        traceback(
            "binding.py",
            "def f(a, b):\n    return a\n\n\ndef main():\n    f(1)\n\n\nmain()\n"
        ),
        ["line 9, in <module>", "line 6, in main"]
    );
    assert_eq!(
        traceback(
            "resized.py",
            "d = {'a': 1}\nfor k in d:\n    d['x' + k] = 2\n"
        ),
        ["line 2, in <module>"]
    );
    // A generator expression that sum, any, ... run inline still has its frame, one deeper
    // than the function's, as CPython's has; a handler pops it.
    assert_eq!(
        traceback(
            "genexpr.py",
            "def f(xs):\n    try:\n        any(1 // x for x in xs)\n    except ZeroDivisionError:\n        pass\n    return sum(1 // x for x in xs)\n\n\nf([1, 0])\n"
        ),
        ["line 9, in <module>", "line 6, in f", "line 6, in <genexpr>"]
    );
}

#[test]
fn an_exception_chain_that_leads_back_stops_as_cpythons_does() {
    // `saved`'s cause is `b`, whose cause is `saved`: CPython prints each once, the cause first.
    let dir = temp_dir("traceback-cycle");
    let plan = write(
        &dir,
        "cycle.py",
        b"try:\n    try:\n        raise KeyError('a')\n    except KeyError as a:\n        saved = a\n        raise ValueError('b') from a\nexcept ValueError as b:\n    raise saved from b\n",
    );
    let output = baton(&["run", &plan, "--summary", "none"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert_eq!(
        text.matches("Traceback (most recent call last):").count(),
        2,
        "{text}"
    );
    let exceptions: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("ValueError") || line.starts_with("KeyError"))
        .collect();
    assert_eq!(exceptions, ["ValueError: b", "KeyError: 'a'"], "{text}");
    assert!(
        text.contains("\nThe above exception was the direct cause of the following exception:\n\n"),
        "{text}"
    );
}

#[test]
fn a_cause_never_raised_prints_without_a_traceback_header_as_cpythons_does() {
    // `raise ... from ValueError("c")`: the cause has no frames, and CPython prints its line
    // alone, then the chain's separator, then the raised exception's traceback.
    let dir = temp_dir("cause-never-raised");
    let plan = write(
        &dir,
        "cause.py",
        b"raise KeyError('k') from ValueError('c')\n",
    );
    let output = baton(&["run", &plan, "--summary", "none"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(
        text.starts_with(
            "ValueError: c\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n"
        ),
        "{text}"
    );
    assert_eq!(
        text.matches("Traceback (most recent call last):").count(),
        1,
        "{text}"
    );
    assert!(text.ends_with("KeyError: 'k'\n"), "{text}");
}

/// Mutation-fuzzer finding (seeds 3 and 4): an SDK import nothing reads is not evaluated, so an
/// unused `inputs` no longer calls a host call the module does not import (a trap).
#[test]
fn an_unread_sdk_import_is_not_evaluated() {
    let dir = temp_dir("unread-import");
    let plan = write(
        &dir,
        "plan.py",
        b"print(1)\nfrom baton import bash, llm, inputs, log\nprint(2)\n",
    );
    let output = baton(&["run", &plan, "--summary", "none"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "1\n2\n");
}

/// What a terminal shows after `raw` is written to it: `\r` returns to the line's start,
/// `ESC [2K` clears the line, other escape sequences are ignored, text overwrites.
fn screen(raw: &str) -> Vec<String> {
    let mut lines: Vec<Vec<char>> = vec![Vec::new()];
    let mut col = 0;
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        let line = lines.last_mut().unwrap();
        match c {
            '\r' => col = 0,
            '\n' => {
                lines.push(Vec::new());
                col = 0;
            }
            '\x1b' => {
                let mut sequence = String::new();
                for c in chars.by_ref() {
                    sequence.push(c);
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
                if sequence == "[2K" {
                    line.clear();
                }
            }
            c => {
                if col < line.len() {
                    line[col] = c;
                } else {
                    line.resize(col, ' ');
                    line.push(c);
                }
                col += 1;
            }
        }
    }
    lines
        .into_iter()
        .map(|line| line.into_iter().collect::<String>().trim_end().to_string())
        .collect()
}

/// On a terminal the live progress line is drawn while branches run, erased before anything the
/// plan prints and redrawn after, and gone at the end: the screen holds the plan's lines intact
/// and then the summary. Run in a pseudo-terminal by util-linux's `script`.
#[test]
fn the_progress_line_never_mixes_with_the_plans_output_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("not checked: util-linux's `script` (to run baton in a terminal) is missing");
        return;
    }
    let dir = temp_dir("progress");
    let plan = write(
        &dir,
        "plan.py",
        br#"from baton import bash, branch

def work(i):
    def run():
        for step in range(3):
            bash(f"sleep 0.2 && echo {step}")
            print("branch", i, "step", step)
        return i
    return run

print("start")
print("end", len(branch([work(i) for i in range(3)], reduce="all")))
"#,
    );
    let command = format!(
        "{} run {plan} --grant bash --run-dir {}",
        env!("CARGO_BIN_EXE_baton"),
        dir.join("run").display()
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("BATON_CACHE_DIR", "off")
        .output()
        .expect("run script");
    let raw = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{raw}");
    assert!(
        raw.contains("running ·"),
        "the progress line was never drawn:\n{raw:?}"
    );
    let shown = screen(&raw);
    let plan_lines: Vec<&String> = shown
        .iter()
        .filter(|line| !line.starts_with("[baton]") && !line.is_empty())
        .collect();
    let mut expected = vec!["start".to_string()];
    // Branches print as they run; their output reaches the parent's in branch order.
    for i in 0..3 {
        for step in 0..3 {
            expected.push(format!("branch {i} step {step}"));
        }
    }
    expected.push("end 3".to_string());
    assert_eq!(plan_lines, expected.iter().collect::<Vec<_>>(), "{raw:?}");
    assert!(
        !shown.iter().any(|line| line.contains("running ·")),
        "the progress line is left on the screen:\n{}",
        shown.join("\n")
    );
    assert!(
        shown
            .iter()
            .any(|line| line.starts_with("[baton] the run succeeded")),
        "{}",
        shown.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/plan-language.md is `baton guide`'s output: regenerate it with
/// `baton guide -o docs/plan-language.md` when the tables behind it change.
#[test]
fn the_plan_language_guide_in_docs_is_what_baton_guide_prints() {
    let output = baton(&["guide"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/plan-language.md"),
    )
    .unwrap();
    assert!(
        String::from_utf8_lossy(&output.stdout) == committed,
        "docs/plan-language.md is stale: run `baton guide -o docs/plan-language.md`"
    );
    let compact = baton(&["guide", "--compact"]);
    let text = String::from_utf8_lossy(&compact.stdout);
    assert!(text.contains("bash(command: str"), "{text}");
    let json = baton(&["guide", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(
        value["sdk"].as_array().is_some_and(|sdk| sdk.len() == 5),
        "{value}"
    );
}

/// Warnings never reject a plan, unless `--deny-warnings` makes them errors: then `check`,
/// `compile` and `run` all refuse it (exit 3) and nothing runs.
#[test]
fn deny_warnings_rejects_a_plan_with_a_warning_everywhere() {
    let dir = temp_dir("deny-warnings");
    let plan = write(
        &dir,
        "plan.py",
        b"fns = [lambda: i for i in range(3)]\nprint([f() for f in fns])\n",
    );
    let checked = baton(&["check", &plan]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(stderr(&checked).contains("warning[B502]"));
    let ran = baton(&["run", &plan, "--summary", "none"]);
    assert_eq!(ran.status.code(), Some(0), "{}", stderr(&ran));
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "[2, 2, 2]\n");
    let module = dir.join("plan.wasm").display().to_string();
    for args in [
        vec!["check", plan.as_str(), "--deny-warnings"],
        vec![
            "compile",
            plan.as_str(),
            "-o",
            module.as_str(),
            "--deny-warnings",
        ],
        vec!["run", plan.as_str(), "--deny-warnings"],
    ] {
        let output = baton(&args);
        assert_eq!(
            output.status.code(),
            Some(3),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(stderr(&output).contains("error[B502]"), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert!(!dir.join("plan.wasm").exists());
}
