//! `baton-difftest`: run random plans under Baton and CPython 3.11 and report differences.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use baton_difftest::baton::Runner;
use baton_difftest::driver::{self, Options};
use baton_difftest::gen::generate;
use baton_difftest::oracle::Worker;
use baton_difftest::outcome::first_difference;
use baton_host::engine::CompileProfile;

const USAGE: &str = "\
usage: baton-difftest [--seed S] [--count N] [--start I] [--jobs J] [--out DIR]
                      [--markdown FILE] [--python PYTHON] [--no-reduce] [--per-kind K]
                      [--sections N] [--statements N] [--budget-tests N] [--budget-secs S]
                      [--progress] [--optimised] [--gc-stress N] [--area MODULE [--calls N]]
       baton-difftest --print [--seed S] [--start I] [--count N]   print generated plans
       baton-difftest --print --mutate [--seed S] [--start I] [--count N] [--root DIR]
                      [--seeds DIR]...
                      print mutants (what --mutate would run), each after a comment line
       baton-difftest --file PLAN.py [--python PYTHON]             run one plan under both
       baton-difftest --mutate [--seed S] [--start I] [--count N] [--out DIR] [--no-reduce]
                      [--seeds DIR]... [--root DIR]
                      mutants of the conformance programs, examples and plan library of
                      the source tree this binary was built from, or of the checkout at
                      --root DIR (or of the *.py under each --seeds DIR): no crash, nothing CPython
                      refuses to compile may run, the same stdout where both end alike,
                      the same exception type where both raise
       baton-difftest --re-corpus [--out DIR] [--python PYTHON]
                      a corpus of patterns (plan writers' and CPython's test/re_tests.py)
                      through re's functions

Generates plans start..start+count of seed S, runs each under Baton (in-process) and CPython,
compares stdout, exit status and the final exception line, and writes each reduced mismatch to
DIR/mismatch-<seed>-<n>.py (and appends it to FILE with --markdown). Modules are compiled
with Cranelift's fast profile (no optimisation, single-pass register allocation: compiling
dominates a generated plan's run; generated plans, which end by construction, also without fuel
metering, the 10 s timeout bounding them, and without the cache of compiled functions, which
never finds a new plan's); the runtime, compiled for that profile, is kept in the module cache
(BATON_CACHE_DIR as for `baton run`), plan modules are not; with fewer --jobs than cores, each
module compiles on all of them.
--optimised compiles as `baton run` does. --gc-stress N
compiles Baton's side with the collector's stress mode (a collection at every Nth safe point,
freed memory poisoned; also with --file and --mutate). --area NAME (math, re, shlex, textwrap)
generates plans of N calls (default 100) of that module's functions instead, each call's result
or exception printed; --area types puts values of every type in every position where the
runtime expects a particular one. Exit status: 0 when no mismatch was found, 1 when some were,
2 on a usage or setup error.";

enum Mode {
    Run,
    Print,
    File(PathBuf),
    Mutate,
    PrintMutants,
    ReCorpus,
}

fn parse(args: &[String]) -> Result<(Mode, Options), String> {
    let mut options = Options::default();
    let mut mode = Mode::Run;
    let mut i = 0;
    let value = |i: &mut usize, name: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| format!("{name} needs a value"))
    };
    fn number<T: std::str::FromStr>(text: &str, name: &str) -> Result<T, String> {
        text.parse()
            .map_err(|_| format!("{name}: `{text}` is not a valid number"))
    }
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "--seed" => options.seed = number(&value(&mut i, arg)?, arg)?,
            "--count" => options.count = number(&value(&mut i, arg)?, arg)?,
            "--start" => options.start = number(&value(&mut i, arg)?, arg)?,
            "--jobs" => options.jobs = number(&value(&mut i, arg)?, arg)?,
            "--out" => options.out_dir = Some(PathBuf::from(value(&mut i, arg)?)),
            "--markdown" => options.markdown = Some(PathBuf::from(value(&mut i, arg)?)),
            "--python" => options.python = value(&mut i, arg)?,
            "--seeds" => options.seed_dirs.push(PathBuf::from(value(&mut i, arg)?)),
            "--root" => options.seed_root = Some(PathBuf::from(value(&mut i, arg)?)),
            "--no-reduce" => options.reduce = false,
            "--per-kind" => options.per_kind = number(&value(&mut i, arg)?, arg)?,
            "--sections" => options.gen.sections = number(&value(&mut i, arg)?, arg)?,
            "--statements" => options.gen.statements = number(&value(&mut i, arg)?, arg)?,
            "--budget-tests" => options.budget.max_tests = number(&value(&mut i, arg)?, arg)?,
            "--budget-secs" => {
                options.budget.max_time = Duration::from_secs(number(&value(&mut i, arg)?, arg)?)
            }
            "--progress" => options.progress = true,
            "--gc-stress" => options.gc_stress = number(&value(&mut i, arg)?, arg)?,
            "--optimised" => options.optimised = true,
            "--area" => {
                let name = value(&mut i, arg)?;
                options.gen.area =
                    Some(baton_difftest::gen::Area::named(&name).ok_or_else(|| {
                        format!("--area: no area `{name}` (math, re, shlex, textwrap, types)")
                    })?)
            }
            "--calls" => options.gen.area_calls = number(&value(&mut i, arg)?, arg)?,
            // `--print` with `--mutate` (in either order) prints mutants instead of plans.
            "--print" => {
                mode = match mode {
                    Mode::Mutate | Mode::PrintMutants => Mode::PrintMutants,
                    _ => Mode::Print,
                }
            }
            "--mutate" => {
                mode = match mode {
                    Mode::Print | Mode::PrintMutants => Mode::PrintMutants,
                    _ => Mode::Mutate,
                }
            }
            "--re-corpus" => mode = Mode::ReCorpus,
            "--file" => mode = Mode::File(PathBuf::from(value(&mut i, arg)?)),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
        i += 1;
    }
    Ok((mode, options))
}

fn run_file(path: &PathBuf, options: &Options) -> Result<ExitCode, String> {
    let source = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut worker = Worker::start(&options.python).map_err(|e| e.to_string())?;
    let runner = Runner::default().with_gc_stress(options.gc_stress);
    let (baton, python) = driver::run_both(&runner, &mut worker, &source, options.python_timeout);
    println!("CPython: {}", python.ending);
    println!("Baton:   {}", baton.ending);
    if let Some((n, b, p)) = first_difference(&baton.stdout, &python.stdout) {
        println!("stdout line {n}: Baton {b}, CPython {p}");
    }
    let verdict = driver::classify(&runner, &source, &baton, &python);
    println!("verdict: {verdict:?}");
    Ok(
        if matches!(verdict, baton_difftest::outcome::Verdict::Mismatch(_)) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

/// `--re-corpus`: CPython's table of regular expressions; each differing plan is written to
/// DIR/re-corpus-<n>.py.
fn re_corpus(options: &Options) -> Result<ExitCode, String> {
    let runner = Runner::default().with_gc_stress(options.gc_stress);
    let report = baton_difftest::corpus::run(&options.python, &runner, options.python_timeout)?;
    println!(
        "{} patterns (corpus/re_plans.txt and CPython's test/re_tests.py), {} calls: {} differing plans",
        report.patterns,
        report.calls,
        report.findings.len()
    );
    for (n, (source, what)) in report.findings.iter().enumerate() {
        println!("plan {n}: {what}");
        if let Some(dir) = &options.out_dir {
            let _ = std::fs::create_dir_all(dir);
            let path = dir.join(format!("re-corpus-{n}.py"));
            std::fs::write(&path, source).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(if report.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `--print --mutate`: the mutants `--mutate` would run, to reproduce one by its index.
fn print_mutants(options: &Options) -> Result<ExitCode, String> {
    let seeds = mutation_seeds(options)?;
    for index in options.start..options.start + options.count {
        let mutant = baton_difftest::mutate::mutant(&seeds, options.seed, index);
        println!(
            "# seed {}, mutant {index} of {}: {}",
            options.seed,
            mutant.seed,
            mutant.edits.join("; ")
        );
        print!("{}", mutant.source);
    }
    Ok(ExitCode::SUCCESS)
}

/// The seed programs of `--mutate`.
fn mutation_seeds(options: &Options) -> Result<Vec<baton_difftest::mutate::Seed>, String> {
    use baton_difftest::mutate;
    // The seeds of the tree the binary was built from, unless --root names a checkout (of the
    // commit the binary was built from, so that a long run reads the seeds it was meant to
    // while the working tree moves on).
    let root = options
        .seed_root
        .clone()
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let seeds = if options.seed_dirs.is_empty() {
        mutate::load_seeds(&root)
    } else {
        mutate::load_seeds_from(&root, &options.seed_dirs)
    };
    if seeds.is_empty() {
        let dirs: Vec<String> = if options.seed_dirs.is_empty() {
            vec![root.display().to_string()]
        } else {
            options
                .seed_dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect()
        };
        return Err(format!("no seed programs (*.py) under {}", dirs.join(", ")));
    }
    Ok(seeds)
}

/// `--mutate`: runs mutants and writes each finding to DIR/mutant-<seed>-<index>.py.
fn mutate(options: &Options) -> Result<ExitCode, String> {
    use baton_difftest::mutate;
    let seeds = mutation_seeds(options)?;
    let runner = Runner::new(mutate::LIMITS).with_gc_stress(options.gc_stress);
    let report = mutate::fuzz(
        &seeds,
        &runner,
        &options.python,
        options.seed,
        options.start,
        options.count,
    )
    .map_err(|e| e.to_string())?;
    println!(
        "{} mutants of {} seed programs: {} refused (by Baton's checker or CPython's compiler), \
         {} agreed, {} findings",
        report.mutants,
        seeds.len(),
        report.refused,
        report.agreed,
        report.findings.len()
    );
    let parser = &report.parser;
    println!(
        "parser: {} refused as syntax by both ({} with CPython's message), {} refused by \
         CPython's compiler and by another rule of Baton's checker, {} refused as syntax by \
         Baton only",
        parser.both, parser.same_message, parser.cpython_only_other_rule, parser.baton_only
    );
    for (index, ours) in &parser.baton_only_examples {
        println!("  mutant {index}: Baton only: {ours}");
    }
    for (index, ours, theirs) in &parser.other_message_examples {
        println!("  mutant {index}: Baton {ours:?}, CPython {theirs:?}");
    }
    for (class, count) in &report.classified {
        println!("  {count:>6}  {class}");
    }
    for finding in &report.findings {
        println!(
            "mutant {} of {} ({}): {}",
            finding.index,
            finding.mutant.seed,
            finding.mutant.edits.join("; "),
            finding.what
        );
        if let Some(dir) = &options.out_dir {
            let _ = std::fs::create_dir_all(dir);
            let path = dir.join(format!("mutant-{}-{}.py", options.seed, finding.index));
            let text = format!(
                "# {} ({})\n# {}\n{}",
                finding.mutant.seed,
                finding.mutant.edits.join("; "),
                finding.what,
                finding.mutant.source
            );
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            if options.reduce {
                let reduced =
                    mutate::reduce_finding(finding, &runner, &options.python, Default::default())
                        .map_err(|e| e.to_string())?;
                let path = dir.join(format!(
                    "mutant-{}-{}.reduced.py",
                    options.seed, finding.index
                ));
                std::fs::write(&path, &reduced.source)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                println!(
                    "  reduced to {} lines ({} tests): {}",
                    reduced.source.lines().count(),
                    reduced.tests,
                    path.display()
                );
            }
        }
    }
    Ok(if report.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, options) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("baton-difftest: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Generated plans end by construction (bounded loops, no recursion without a bound), so
    // their code need not count fuel, which is a quarter of compiling it; mutants and given
    // files may loop forever, and the area plans run regular expressions that may backtrack
    // for long, so theirs does: their fuel limit ends such a run in a fraction of the timeout.
    let ends_by_construction = matches!(mode, Mode::Run) && options.gen.area.is_none();
    baton_host::engine::set_compile_profile(if options.optimised {
        CompileProfile::Optimised
    } else if ends_by_construction {
        CompileProfile::FastUnmetered
    } else {
        CompileProfile::Fast
    });
    // Every generated plan is new, so compiled functions are never found again; mutants share
    // most of their code with their seed program and with each other, and find some.
    baton_host::engine::set_function_cache(!ends_by_construction);
    // Compiling one module on several threads uses cores that would be idle; with a plan per
    // core already, the threads only take turns (BENCHMARKS.md, stop 45).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    baton_host::engine::set_parallel_compilation(options.jobs < cores);
    match mode {
        Mode::Print => {
            for index in options.start..options.start + options.count {
                println!("# seed {}, plan {index}", options.seed);
                print!("{}", generate(options.seed, index, &options.gen));
            }
            ExitCode::SUCCESS
        }
        Mode::PrintMutants => print_mutants(&options).unwrap_or_else(|message| {
            eprintln!("baton-difftest: {message}");
            ExitCode::from(2)
        }),
        Mode::Mutate => mutate(&options).unwrap_or_else(|message| {
            eprintln!("baton-difftest: {message}");
            ExitCode::from(2)
        }),
        Mode::ReCorpus => re_corpus(&options).unwrap_or_else(|message| {
            eprintln!("baton-difftest: {message}");
            ExitCode::from(2)
        }),
        Mode::File(path) => run_file(&path, &options).unwrap_or_else(|message| {
            eprintln!("baton-difftest: {message}");
            ExitCode::from(2)
        }),
        Mode::Run => match driver::run(&options) {
            Ok(summary) => {
                print!("{}", summary.render());
                if summary.mismatches.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(error) => {
                eprintln!("baton-difftest: {error}");
                ExitCode::from(2)
            }
        },
    }
}
