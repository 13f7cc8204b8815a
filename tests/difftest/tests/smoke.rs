//! Seeded smoke tests of the differential tester: the oracle behaves like a standalone CPython,
//! Baton's runner reports every ending, a short seeded run compares most plans, and the reducer
//! shrinks a real mismatch.
//!
//! CPython 3.11 is the oracle and CI has it: these tests fail (they do not skip) without it.

use std::process::Command;

use baton_difftest::baton::Runner;
use baton_difftest::driver::{self, Options};
use baton_difftest::gen::GenConfig;
use baton_difftest::oracle::{check_version, Worker};
use baton_difftest::outcome::{compare, Ending, Kind, Verdict};
use baton_difftest::reduce::{reduce, Budget};

fn worker() -> Worker {
    check_version("python3").expect("python3 must be CPython 3.11: it is the oracle");
    Worker::start("python3").expect("start the CPython worker")
}

#[test]
fn oracle_runs_each_plan_in_a_fresh_namespace() {
    let mut w = worker();
    let first = w.run("x = 1\nprint(x, end='!')\n", 10.0);
    assert_eq!(first.stdout, "1!");
    assert_eq!(first.ending, Ending::Success);
    let second = w.run("print(x)\n", 10.0);
    assert_eq!(
        second.ending,
        Ending::Raised("NameError: name 'x' is not defined".into())
    );
    let keyed = w.run("print('a')\n{}['k']\n", 10.0);
    assert_eq!(keyed.stdout, "a\n");
    assert_eq!(keyed.ending, Ending::Raised("KeyError: 'k'".into()));
    let json = w.run("import json\njson.loads('x')\n", 10.0);
    assert_eq!(
        json.ending,
        Ending::Raised(
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)".into()
        )
    );
    assert!(matches!(
        w.run("x = (\n", 10.0).ending,
        Ending::SyntaxError(_)
    ));
    assert!(matches!(
        w.run("while True:\n    pass\n", 0.3).ending,
        Ending::Limit(_)
    ));
    // The worker survives a timeout and keeps answering.
    assert_eq!(w.run("print(2)\n", 10.0).stdout, "2\n");
}

/// Batching must not change semantics: recursion depth and string hashing are those of
/// `python3 -s -P plan.py` in the conformance suite's environment.
#[test]
fn oracle_matches_a_standalone_interpreter() {
    let plan = "def depth(n):\n    try:\n        return depth(n + 1)\n    except RecursionError:\n        return n\nprint(depth(1), hash('abc'))\n";
    let dir = std::env::temp_dir().join(format!("difftest-standalone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("plan.py");
    std::fs::write(&path, plan).unwrap();
    let standalone = Command::new("python3")
        .args(["-s", "-P"])
        .arg(&path)
        .env_clear()
        .env("PYTHONHASHSEED", "0")
        .env("PYTHONUTF8", "1")
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("run python3");
    std::fs::remove_dir_all(&dir).ok();
    let expected = String::from_utf8(standalone.stdout).unwrap();
    let mut w = worker();
    assert_eq!(w.run(plan, 10.0).stdout, expected);
    // And again: the limit is reset for every plan.
    assert_eq!(w.run(plan, 10.0).stdout, expected);
}

#[test]
fn baton_runner_reports_every_ending() {
    let runner = Runner::default();
    let ok = runner.run("print('hi', 1 + 1)\n");
    assert_eq!(
        (ok.stdout.as_str(), &ok.ending),
        ("hi 2\n", &Ending::Success)
    );
    let raised = runner.run("print(1)\n[][0]\n");
    assert_eq!(raised.stdout, "1\n");
    assert_eq!(
        raised.ending,
        Ending::Raised("IndexError: list index out of range".into())
    );
    assert!(matches!(
        runner.run("eval('1')\n").ending,
        Ending::Rejected(_)
    ));
    let tight = Runner::new(baton_host::Limits {
        fuel: 100_000,
        ..baton_difftest::baton::LIMITS
    });
    assert!(matches!(
        tight.run("x = 0\nwhile True:\n    x += 1\n").ending,
        Ending::Limit(_)
    ));
}

#[test]
fn a_seeded_run_compares_most_plans() {
    let options = Options {
        seed: 4,
        count: 20,
        jobs: 2,
        reduce: false,
        gen: GenConfig {
            sections: 10,
            statements: 4,
            functions: 3,
            ..GenConfig::default()
        },
        ..Options::default()
    };
    let summary = driver::run(&options).expect("the driver runs");
    eprintln!("{}", summary.render());
    assert_eq!(summary.plans, 20);
    let compared = summary.same
        + summary.mismatches.values().sum::<u64>()
        + summary.deviations.values().sum::<u64>();
    assert!(
        compared >= 16,
        "too few plans were compared (generator or harness problem):\n{}",
        summary.render()
    );
}

/// Baton's documented deviation (OverflowError beyond 64 bits) caught and hidden by the plan
/// makes a stdout mismatch that is certain; the reducer must cut the plan down to it.
#[test]
fn the_reducer_shrinks_a_real_mismatch() {
    let plan = "import json\nxs = [1, 2, 3]\nprint(len(xs))\nfor v in xs:\n    print(v * 2)\ntry:\n    big = 2 ** 70\nexcept Exception:\n    big = 0\nprint('ok')\nprint(big > 5, json.dumps(xs))\nprint('end')\n";
    let runner = Runner::default();
    let mut w = worker();
    let (b, p) = driver::run_both(&runner, &mut w, plan, 10.0);
    assert_eq!(compare(&b, &p), Verdict::Mismatch(Kind::Stdout));
    let mut interesting = |s: &str| {
        let (b, p) = driver::run_both(&runner, &mut w, s, 10.0);
        compare(&b, &p) == Verdict::Mismatch(Kind::Stdout)
    };
    let reduced = reduce(plan, Budget::default(), &mut interesting);
    assert!(reduced.source.contains("2 ** 70"), "{}", reduced.source);
    assert!(
        reduced.source.lines().count() <= 6,
        "not reduced enough:\n{}",
        reduced.source
    );
}

/// `source` run under both interpreters and classified.
fn classified(runner: &Runner, source: &str) -> Verdict {
    let (b, p) = driver::run_both(runner, &mut worker(), source, 10.0);
    driver::classify(runner, source, &b, &p)
}

#[test]
fn deviations_a_plan_catches_are_still_found() {
    let runner = Runner::default();
    // Each plan hides a deliberate deviation behind `except`: a normal run prints the same as
    // CPython would if the deviation did not exist, so only the trapping run can tell.
    for hidden in [
        "try:\n    x = 3 ** 50\nexcept OverflowError:\n    x = 0\nprint(x > 1)\n",
        "try:\n    r = round(1e22)\nexcept Exception:\n    r = -1\nprint(r)\n",
        "try:\n    c = (-8) ** 0.5\nexcept ValueError:\n    c = 0\nprint(c)\n",
    ] {
        let what = runner.deviation(hidden);
        assert!(
            what.is_some_and(|w| w.contains("64-bit int or complex")),
            "{hidden}: {what:?}"
        );
        assert!(
            matches!(classified(&runner, hidden), Verdict::Deviation(_)),
            "{hidden}"
        );
    }
    // Ordinary plans, and overflows CPython has too, are not deviations.
    for plain in [
        "print(2 ** 62)\n",
        "try:\n    1e308 * 1e308 ** 2\nexcept OverflowError as e:\n    print(e)\n",
        "try:\n    int(float('inf'))\nexcept OverflowError as e:\n    print(e)\n",
        "print(3.0 ** 2, 1.5 ** 3, 2.0 ** 0.5, 10.0 ** -2, 7.0 ** -1)\n",
    ] {
        assert_eq!(runner.deviation(plain), None, "{plain}");
    }
}

#[test]
fn float_pow_near_a_rounding_tie_is_the_libm_deviation() {
    let runner = Runner::default();
    // 199020226.0 ** 2 is an exact tie (glibc rounds it up, x * x to even); 365.6895512236686
    // ** -2 and 223.23974136804995 ** 31 lie within 0.001 ulp of one (glibc misrounds both).
    for near in [
        "print(199020226.0 ** 2)\n",
        "x = 365.6895512236686\nprint(x ** -2)\n",
        "print(pow(223.23974136804995, 31))\n",
        "print(2.0 ** 0.5 + 199020226.0 ** 2.0)\n",
    ] {
        let what = runner.deviation(near);
        assert!(
            what.is_some_and(|w| w.contains("rounding tie")),
            "{near}: {what:?}"
        );
        // Whatever this machine's libm picks, the difference is never a mismatch.
        assert!(
            !matches!(classified(&runner, near), Verdict::Mismatch(_)),
            "{near}"
        );
    }
}

/// The mutation fuzzer over the repository's own programs (issue 23): 200 seeded mutants of
/// the conformance programs, examples and plan library, each run under Baton and CPython; none
/// may crash Baton (trap, internal compiler error, panic), be run by Baton when CPython refuses
/// to compile it, print other output where both end the same way, or raise another exception
/// type (`mutate::broken`). `baton-difftest --mutate --count N` runs more.
#[test]
fn mutants_neither_crash_baton_nor_run_what_cpython_refuses() {
    use baton_difftest::mutate;
    check_version("python3").expect("python3 must be CPython 3.11: it is the oracle");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let seeds = mutate::load_seeds(&root);
    assert!(seeds.len() > 200, "{} seed programs", seeds.len());
    let runner = Runner::new(mutate::LIMITS);
    let report = mutate::fuzz(&seeds, &runner, "python3", 1, 0, 200).unwrap();
    let findings: Vec<String> = report
        .findings
        .iter()
        .map(|f| {
            format!(
                "mutant {} of {}: {}\n{}",
                f.index, f.mutant.seed, f.what, f.mutant.source
            )
        })
        .collect();
    assert!(findings.is_empty(), "{}", findings.join("\n---\n"));
    // The mutants reach both sides: some are refused, many run and agree.
    assert!(report.refused > 0 && report.agreed > 20, "{report:?}");
}

/// `--print --mutate` prints the very mutants `--mutate` runs, so a finding's index reproduces
/// it: each after a comment naming its seed program and edits.
#[test]
fn printed_mutants_are_the_mutants_run() {
    use baton_difftest::mutate;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = Command::new(env!("CARGO_BIN_EXE_baton-difftest"))
        .args([
            "--mutate", "--print", "--seed", "7", "--start", "40", "--count", "3",
        ])
        .arg("--root")
        .arg(&root)
        .output()
        .expect("run baton-difftest");
    assert!(output.status.success(), "{output:?}");
    let seeds = mutate::load_seeds(&root);
    let mut expected = String::new();
    for index in 40..43 {
        let m = mutate::mutant(&seeds, 7, index);
        expected.push_str(&format!(
            "# seed 7, mutant {index} of {}: {}\n{}",
            m.seed,
            m.edits.join("; "),
            m.source
        ));
    }
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}

/// A finding of the mutation fuzzer is shrunk while it still breaks the same invariant. The
/// mutant here prints whether two equal big ints are one object (unspecified in Python: Baton
/// says yes, CPython no) among lines that do not matter.
#[test]
fn a_mutants_finding_is_reduced_to_what_breaks_the_invariant() {
    use baton_difftest::mutate::{self, Finding, Mutant};
    check_version("python3").expect("python3 must be CPython 3.11: it is the oracle");
    let source = "xs = [1, 2, 3]\nprint(sum(xs))\nbig = 9223372036854775807\n\
                  for x in xs:\n    print(x * 2)\nprint(big is 2 ** 62 - 1 + 2 ** 62)\n\
                  print(len(xs))\n";
    let finding = Finding {
        index: 0,
        mutant: Mutant {
            seed: "synthetic.py".into(),
            edits: Vec::new(),
            source: source.into(),
        },
        what: "stdout differs (Baton success, CPython success)".into(),
    };
    let runner = Runner::new(mutate::LIMITS);
    let reduced = mutate::reduce_finding(&finding, &runner, "python3", Budget::default()).unwrap();
    assert!(
        reduced.source.lines().count() <= 2,
        "not reduced:\n{}",
        reduced.source
    );
    assert!(reduced.source.contains(" is "), "{}", reduced.source);
}

/// Every targeted area (the standard modules, and values of every type in every position)
/// agrees with CPython on a short seeded run: no mismatch, no trap.
#[test]
fn targeted_areas_agree_with_cpython() {
    use baton_difftest::gen::Area;
    check_version("python3").expect("python3 must be CPython 3.11: it is the oracle");
    for name in ["math", "re", "shlex", "textwrap", "types"] {
        let options = Options {
            seed: 1,
            count: 2,
            jobs: 2,
            reduce: false,
            gen: GenConfig {
                area: Area::named(name),
                area_calls: 60,
                ..GenConfig::default()
            },
            ..Options::default()
        };
        let summary = driver::run(&options).expect("the driver runs");
        assert!(
            summary.mismatches.is_empty()
                && summary.same + summary.deviations.values().sum::<u64>() == 2,
            "area {name}:\n{}",
            summary.render()
        );
    }
}

/// The regular-expression corpus (plan writers' patterns and CPython's test/re_tests.py, read
/// from the oracle's own installation) gives CPython's results.
#[test]
fn the_re_corpus_agrees_with_cpython() {
    check_version("python3").expect("python3 must be CPython 3.11: it is the oracle");
    let report = baton_difftest::corpus::run("python3", &Runner::default(), 30.0)
        .expect("the corpus loads (CPython's test package is part of the oracle's install)");
    assert!(report.patterns >= 500, "{} patterns", report.patterns);
    let findings: Vec<String> = report
        .findings
        .iter()
        .map(|(source, what)| format!("{what}\n{source}"))
        .collect();
    assert!(findings.is_empty(), "{}", findings.join("\n---\n"));
}
