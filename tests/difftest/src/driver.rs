//! The driver: generate plans, run each under Baton and CPython on `jobs` threads, compare,
//! reduce the first mismatches of each kind, and write them out.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::baton::Runner;
use crate::gen::{generate, GenConfig};
use crate::oracle::{self, OracleError, Worker};
use crate::outcome::{
    compare, first_difference, items_permuted, long_list_left_reordered, other_type_first, Ending,
    Kind, Outcome, Verdict,
};
use crate::reduce::{reduce, Budget};

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--mutate --seeds DIR`: mutate the programs under these directories instead of the
    /// project's own seeds.
    pub seed_dirs: Vec<PathBuf>,
    /// `--mutate`: the repository whose seed programs are mutated (default: the source tree
    /// the binary was built from).
    pub seed_root: Option<PathBuf>,
    pub seed: u64,
    /// The first plan index (plans `start..start + count` are run).
    pub start: u64,
    pub count: u64,
    pub jobs: usize,
    /// Where reduced mismatches are written (`mismatch-<seed>-<n>.py`).
    pub out_dir: Option<PathBuf>,
    /// A markdown file each reduced mismatch is appended to.
    pub markdown: Option<PathBuf>,
    /// The CPython 3.11 to run.
    pub python: String,
    pub gen: GenConfig,
    /// Reduce mismatches (off: report them unreduced).
    pub reduce: bool,
    pub budget: Budget,
    /// How many mismatches of one kind are reduced and written (the rest are counted).
    pub per_kind: usize,
    /// CPython's time limit per plan, seconds.
    pub python_timeout: f64,
    /// The collector's stress mode for Baton's runs (`--gc-stress N`; 0 off).
    pub gc_stress: u32,
    /// Print progress to stderr.
    pub progress: bool,
    /// Compile with the engine's optimised profile, as `baton run` does (default: the fast
    /// profile, set by the command before the engine is first used).
    pub optimised: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed_dirs: Vec::new(),
            seed_root: None,
            seed: 1,
            start: 0,
            count: 100,
            jobs: 1,
            out_dir: None,
            markdown: None,
            python: "python3".to_string(),
            gen: GenConfig::default(),
            reduce: true,
            budget: Budget::default(),
            per_kind: 2,
            python_timeout: 10.0,
            progress: false,
            optimised: false,
            gc_stress: 0,
        }
    }
}

/// One reduced mismatch.
#[derive(Debug, Clone)]
pub struct Finding {
    pub seed: u64,
    pub index: u64,
    pub kind: Kind,
    /// The reproducer (reduced unless reduction was off).
    pub source: String,
    pub original_lines: usize,
    pub reduction_tests: usize,
    pub baton: Outcome,
    pub python: Outcome,
    /// Where it was written, if it was.
    pub file: Option<PathBuf>,
}

/// What a run of the driver found.
#[derive(Debug, Default)]
pub struct Summary {
    pub plans: u64,
    pub same: u64,
    /// Mismatches by kind (every one, reduced or not).
    pub mismatches: BTreeMap<String, u64>,
    pub deviations: BTreeMap<String, u64>,
    /// Plans not compared, by reason (unsupported constructs are coverage gaps).
    pub skipped: BTreeMap<String, u64>,
    pub findings: Vec<Finding>,
    /// Wall time of the whole run.
    pub elapsed: Duration,
    /// Lines of generated plan text.
    pub lines: u64,
}

impl Summary {
    /// Plans per second of wall time.
    pub fn rate(&self) -> f64 {
        self.plans as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// A human-readable report.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let mismatched: u64 = self.mismatches.values().sum();
        let _ = writeln!(
            s,
            "{} plans ({} lines) in {:.1} s: {:.2} plans/s; {} same, {} mismatched, {} deviations, {} skipped",
            self.plans,
            self.lines,
            self.elapsed.as_secs_f64(),
            self.rate(),
            self.same,
            mismatched,
            self.deviations.values().sum::<u64>(),
            self.skipped.values().sum::<u64>(),
        );
        for (title, map) in [
            ("mismatches", &self.mismatches),
            ("deviations", &self.deviations),
            ("skipped", &self.skipped),
        ] {
            if !map.is_empty() {
                let _ = writeln!(s, "{title}:");
                for (k, n) in map {
                    let _ = writeln!(s, "  {n:6}  {k}");
                }
            }
        }
        for f in &self.findings {
            let _ = writeln!(
                s,
                "finding: {} (seed {}, plan {}, {} -> {} lines){}",
                f.kind,
                f.seed,
                f.index,
                f.original_lines,
                f.source.lines().count(),
                f.file
                    .as_ref()
                    .map(|p| format!(": {}", p.display()))
                    .unwrap_or_default()
            );
        }
        s
    }
}

struct Shared {
    summary: Summary,
    /// Kinds being or already reduced, with how many.
    reducing: BTreeMap<Kind, usize>,
    /// Normalised reproducers already written (deduplication).
    seen: Vec<String>,
}

/// Runs one plan under both, pipelined: CPython works while Baton compiles.
pub fn run_both(
    runner: &Runner,
    worker: &mut Worker,
    source: &str,
    timeout: f64,
) -> (Outcome, Outcome) {
    let submitted = worker.submit(source, timeout);
    let baton = runner.run(source);
    let python = match submitted.and_then(|()| worker.collect()) {
        Ok(outcome) => outcome,
        Err(error) => {
            worker.restart();
            Outcome {
                stdout: String::new(),
                ending: crate::outcome::Ending::Crash(error.to_string()),
            }
        }
    };
    (baton, python)
}

/// [`compare`], and for a mismatch a second Baton run that makes the deliberate deviations
/// trap: a mismatch that comes from a deviation the plan caught (an OverflowError or the
/// no-complex ValueError inside `try`), or from a float `**` at a near-tie, is a deviation too.
pub fn classify(runner: &Runner, source: &str, baton: &Outcome, python: &Outcome) -> Verdict {
    let verdict = compare(baton, python);
    if matches!(verdict, Verdict::Mismatch(_)) {
        if let Some(what) = runner.deviation(source) {
            return Verdict::Deviation(what);
        }
        if uses_sets(source) && items_permuted(baton, python) {
            return Verdict::Deviation("set iteration order (a line's items in another order)");
        }
        if uses_sets(source) && other_type_first(baton, python) {
            return Verdict::Deviation("set iteration order (an error names another item's type)");
        }
        if source.contains(".sort(") && long_list_left_reordered(baton, python) {
            return Verdict::Deviation(
                "the order a long list is left in by a sort whose comparison raised",
            );
        }
        if uses_regex_flags(source) && flag_is_int_difference(baton, python) {
            return Verdict::Deviation("re's flags are ints (a flag used as a RegexFlag)");
        }
    }
    verdict
}

/// Whether `source` makes a set: calls `set`/`frozenset`, takes a dict's keys or items view
/// (whose operators make sets), or has a set display or comprehension (braces whose contents
/// have no top-level `:`; an f-string's `{name}` counts too, which only makes the classifier
/// more willing, never a crash less visible).
fn uses_sets(source: &str) -> bool {
    if ["set(", ".keys()", ".items()"]
        .iter()
        .any(|call| source.contains(call))
    {
        return true;
    }
    source.match_indices('{').any(|(at, _)| {
        let inner = &source[at + 1..];
        let close = inner.find('}').unwrap_or(0);
        close > 0 && !inner[..close].contains(':')
    })
}

/// Whether `source` names one of re's flags (`re.M`, `re.IGNORECASE`, `re.RegexFlag`, ...).
fn uses_regex_flags(source: &str) -> bool {
    const FLAGS: &[&str] = &[
        "A",
        "ASCII",
        "DEBUG",
        "DOTALL",
        "I",
        "IGNORECASE",
        "L",
        "LOCALE",
        "M",
        "MULTILINE",
        "NOFLAG",
        "RegexFlag",
        "S",
        "T",
        "TEMPLATE",
        "U",
        "UNICODE",
        "VERBOSE",
        "X",
    ];
    source.match_indices("re.").any(|(at, _)| {
        let name: String = source[at + 3..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        FLAGS.contains(&name.as_str())
    })
}

/// A difference that comes from re's flags being ints in Baton (README, "Where Baton differs"):
/// Baton's run ended in an error about an `int` (iterating a flag, calling one) that CPython's
/// did not, or the first line printed differently is such an error, or CPython's output names a
/// RegexFlag where Baton's cannot.
fn flag_is_int_difference(baton: &Outcome, python: &Outcome) -> bool {
    let int_error = |o: &Outcome| matches!(&o.ending, Ending::Raised(l) if l.contains("int"));
    let names_flag = |o: &Outcome| {
        o.stdout.contains("RegexFlag")
            || matches!(&o.ending, Ending::Raised(l) if l.contains("RegexFlag"))
    };
    let first_line_int = first_difference(&baton.stdout, &python.stdout)
        .is_some_and(|(_, b, p)| b.contains("int") && !p.contains("int"));
    (int_error(baton) && !int_error(python))
        || first_line_int
        || (names_flag(python) && !names_flag(baton))
}

/// Runs plans `start..start+count` of `seed`.
pub fn run(options: &Options) -> Result<Summary, OracleError> {
    oracle::check_version(&options.python)?;
    if let Some(dir) = &options.out_dir {
        std::fs::create_dir_all(dir)?;
    }
    let started = Instant::now();
    let next = AtomicU64::new(options.start);
    let end = options.start + options.count;
    let shared = Mutex::new(Shared {
        summary: Summary::default(),
        reducing: BTreeMap::new(),
        seen: Vec::new(),
    });
    let jobs = options.jobs.max(1);
    let results: Vec<Result<(), OracleError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| scope.spawn(|| worker_loop(options, &next, end, &shared, started)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(OracleError::Exited)))
            .collect()
    });
    for result in results {
        result?;
    }
    let mut shared = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    shared.summary.elapsed = started.elapsed();
    shared.summary.findings.sort_by_key(|f| (f.seed, f.index));
    Ok(shared.summary)
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

fn worker_loop(
    options: &Options,
    next: &AtomicU64,
    end: u64,
    shared: &Mutex<Shared>,
    started: Instant,
) -> Result<(), OracleError> {
    let runner = Runner::default().with_gc_stress(options.gc_stress);
    let mut worker = Worker::start(&options.python)?;
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= end {
            return Ok(());
        }
        let source = generate(options.seed, index, &options.gen);
        let (baton, python) = run_both(&runner, &mut worker, &source, options.python_timeout);
        let verdict = classify(&runner, &source, &baton, &python);
        let reduce_this = {
            let mut s = lock(shared);
            s.summary.plans += 1;
            s.summary.lines += source.lines().count() as u64;
            let reduce_this = match &verdict {
                Verdict::Same => {
                    s.summary.same += 1;
                    None
                }
                Verdict::Deviation(what) => {
                    *s.summary.deviations.entry(what.to_string()).or_default() += 1;
                    None
                }
                Verdict::Skipped(why) => {
                    *s.summary.skipped.entry(normalise_reason(why)).or_default() += 1;
                    None
                }
                Verdict::Mismatch(kind) => {
                    *s.summary.mismatches.entry(kind.to_string()).or_default() += 1;
                    let quota = if *kind == Kind::Stdout {
                        options.per_kind * 5
                    } else {
                        options.per_kind
                    };
                    let taken = s.reducing.entry(kind.clone()).or_default();
                    if *taken < quota {
                        *taken += 1;
                        Some(kind.clone())
                    } else {
                        None
                    }
                }
            };
            if options.progress && s.summary.plans % 50 == 0 {
                let mismatched: u64 = s.summary.mismatches.values().sum();
                eprintln!(
                    "[{:.0} s] {} plans, {:.2}/s, {} mismatched, {} findings",
                    started.elapsed().as_secs_f64(),
                    s.summary.plans,
                    s.summary.plans as f64 / started.elapsed().as_secs_f64(),
                    mismatched,
                    s.summary.findings.len()
                );
            }
            reduce_this
        };
        if let Some(kind) = reduce_this {
            let finding = investigate(
                options,
                &runner,
                &mut worker,
                index,
                &source,
                kind,
                baton,
                python,
            );
            record(options, shared, finding)?;
        }
    }
}

/// Reduces one mismatch and re-runs the reproducer for its header.
#[allow(clippy::too_many_arguments)]
fn investigate(
    options: &Options,
    runner: &Runner,
    worker: &mut Worker,
    index: u64,
    source: &str,
    kind: Kind,
    baton: Outcome,
    python: Outcome,
) -> Finding {
    let mut finding = Finding {
        seed: options.seed,
        index,
        kind: kind.clone(),
        source: source.to_string(),
        original_lines: source.lines().count(),
        reduction_tests: 0,
        baton,
        python,
        file: None,
    };
    if !options.reduce {
        return finding;
    }
    let timeout = options.python_timeout;
    let mut interesting = |candidate: &str| {
        let (b, p) = run_both(runner, worker, candidate, timeout);
        classify(runner, candidate, &b, &p) == Verdict::Mismatch(kind.clone())
    };
    let reduced = reduce(source, options.budget, &mut interesting);
    let (b, p) = run_both(runner, worker, &reduced.source, timeout);
    finding.source = reduced.source;
    finding.reduction_tests = reduced.tests;
    finding.baton = b;
    finding.python = p;
    finding
}

/// Identifiers and numbers blurred, so that two reproducers of one bug compare equal.
fn normalise_source(source: &str) -> String {
    let mut out = String::new();
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                chars.next();
            }
            out.push('N');
        } else {
            out.push(c);
        }
    }
    out
}

fn normalise_reason(reason: &str) -> String {
    let mut s = normalise_source(reason);
    s.truncate(120);
    s
}

fn record(
    options: &Options,
    shared: &Mutex<Shared>,
    mut finding: Finding,
) -> Result<(), OracleError> {
    let key = format!("{}\n{}", finding.kind, normalise_source(&finding.source));
    {
        let mut s = lock(shared);
        if s.seen.contains(&key) {
            return Ok(());
        }
        s.seen.push(key);
    }
    if let Some(dir) = &options.out_dir {
        let path = dir.join(format!("mismatch-{}-{}.py", finding.seed, finding.index));
        std::fs::write(&path, render_file(&finding))?;
        finding.file = Some(path);
    }
    if let Some(md) = &options.markdown {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(md)?;
        file.write_all(render_markdown(&finding).as_bytes())?;
    }
    lock(shared).summary.findings.push(finding);
    Ok(())
}

fn ending_and_difference(finding: &Finding) -> (String, Option<String>) {
    let endings = format!(
        "CPython: {}\nBaton:   {}",
        finding.python.ending, finding.baton.ending
    );
    let diff = first_difference(&finding.baton.stdout, &finding.python.stdout)
        .map(|(n, b, p)| format!("stdout line {n}: Baton {b}, CPython {p}"));
    (endings, diff)
}

/// The reproducer file: a header comment with both outcomes, then the plan.
pub fn render_file(finding: &Finding) -> String {
    let (endings, diff) = ending_and_difference(finding);
    let mut s = format!(
        "# baton-difftest: {}\n# seed {}, plan {} ({} lines, reduced in {} runs); regenerate with\n\
         #   cargo run --release -p baton-difftest -- --seed {} --start {} --count 1\n",
        finding.kind,
        finding.seed,
        finding.index,
        finding.original_lines,
        finding.reduction_tests,
        finding.seed,
        finding.index
    );
    for line in endings.lines().chain(diff.iter().map(String::as_str)) {
        let _ = writeln!(s, "# {line}");
    }
    s.push_str(&finding.source);
    s
}

fn fenced(text: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut s: String = lines
        .iter()
        .take(max_lines)
        .map(|l| format!("{l}\n"))
        .collect();
    if lines.len() > max_lines {
        let _ = writeln!(s, "... ({} more lines)", lines.len() - max_lines);
    }
    format!("```\n{s}```\n")
}

/// A short markdown entry for the shared mismatch log.
pub fn render_markdown(finding: &Finding) -> String {
    let (endings, diff) = ending_and_difference(finding);
    let mut s = format!(
        "\n### {} (seed {}, plan {})\n\n```python\n{}```\n\n",
        finding.kind, finding.seed, finding.index, finding.source
    );
    for line in endings.lines().chain(diff.iter().map(String::as_str)) {
        let _ = writeln!(s, "- {line}");
    }
    if finding.baton.stdout != finding.python.stdout {
        s.push_str("\nCPython stdout:\n");
        s.push_str(&fenced(&finding.python.stdout, 12));
        s.push_str("Baton stdout:\n");
        s.push_str(&fenced(&finding.baton.stdout, 12));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_blurs_numbers_only() {
        assert_eq!(normalise_source("v12 = 345 + x"), "vN = N + x");
    }

    #[test]
    fn a_line_of_set_items_in_another_order_is_the_set_order_deviation_only_with_sets() {
        let out = |stdout: &str| Outcome {
            stdout: stdout.to_string(),
            ending: crate::outcome::Ending::Success,
        };
        let (baton, python) = (out("3 1 2 10 5\n[1, 2]\n"), out("1 2 3 5 10\n[1, 2]\n"));
        assert!(items_permuted(&baton, &python));
        assert!(uses_sets("s = {3, 1, 2}\ns.update([10, 5])\nprint(*s)\n"));
        assert!(uses_sets("print(*set(xs))"));
        assert!(!uses_sets("d = {1: 2}\nprint(*sorted(xs))\n"));
        assert!(uses_regex_flags("for m in re.M:\n    pass\n"));
        assert!(uses_regex_flags("re.compile(p, re.IGNORECASE | re.X)"));
        assert!(!uses_regex_flags("re.compile(p).match(s)\nre.Match"));
        // Lines in another order (one printed per item) are too.
        assert!(items_permuted(&out("b\na\nc\n"), &out("a\nb\nc\n")));
        // Another item, or another line count, is not a permutation.
        assert!(!items_permuted(&out("3 1 2\n"), &out("1 2 4\n")));
        assert!(!items_permuted(&out("1 2\n"), &out("1 2\n3\n")));
    }

    #[test]
    fn a_long_list_left_reordered_by_a_raising_sort_is_a_deviation_a_short_one_is_not() {
        let out = |stdout: String| Outcome {
            stdout,
            ending: crate::outcome::Ending::Success,
        };
        let list = |items: &[usize]| {
            let shown: Vec<String> = items.iter().map(usize::to_string).collect();
            format!("[{}, 's']\n", shown.join(", "))
        };
        let long: Vec<usize> = (0..100).map(|i| i % 11).collect();
        let mut merged = long.clone();
        merged[..64].sort_unstable();
        let both = |b: &[usize], p: &[usize]| (out(list(b)), out(list(p)));
        let (baton, python) = both(&long, &merged);
        assert!(long_list_left_reordered(&baton, &python));
        // Another item is a real difference, however long the list.
        let mut other = merged.clone();
        other[3] = 99;
        let (baton, python) = both(&long, &other);
        assert!(!long_list_left_reordered(&baton, &python));
        // Under 64 items Baton's sort leaves CPython's order exactly: no excuse.
        let short: Vec<usize> = (0..40).map(|i| i % 7).collect();
        let mut sorted = short.clone();
        sorted.sort_unstable();
        let (baton, python) = both(&short, &sorted);
        assert!(!long_list_left_reordered(&baton, &python));
        // The same output is no deviation either (nothing reordered).
        let (baton, python) = both(&long, &long);
        assert!(!long_list_left_reordered(&baton, &python));
    }
}
