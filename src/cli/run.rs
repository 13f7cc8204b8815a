//! `baton run`: run a compiled plan (`.wasm`), or compile a plan (`.py`) and run it, under hard
//! limits. stdout carries exactly what the plan prints.
//!
//! Exit codes (DESIGN.md): 0 success; 1 the plan raised an uncaught exception (its traceback on
//! stderr, exactly as the runtime built it, ending with `Type: message`), and also when the module
//! trapped or returned an invalid traceback (stderr: `error: ...`); 2 usage or configuration error
//! (bad flags, unreadable file, a module refused by import validation); 3 the plan was rejected by
//! the static check (`.py` only); 4 a limit ended the run (stderr names the limit and the flag
//! that raises it).

use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context as _};
use baton::{Plan, PlanSource, Runner};
use baton_host::config::{Capability, Config, SandboxMode, WorkspaceMode};
use baton_host::llm::ProviderSpec;
use baton_host::session::SessionError;
use baton_host::{HostError, LimitKind, RunOutcome};

use super::summary::{self, SummaryFormat};
use serde_json::Value;

/// Where new run directories go: `$BATON_RUNS_DIR`, else `.baton/runs`.
pub fn runs_base() -> PathBuf {
    std::env::var_os(RUNS_DIR_ENV)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(baton::DEFAULT_RUNS_DIR))
}

/// The plan raised (or the module trapped).
const EXIT_EXCEPTION: u8 = 1;
/// A limit or budget ended the run.
const EXIT_LIMIT: u8 = 4;

/// The largest `--memory` (MiB): a 32-bit memory holds at most 4 GiB.
const MAX_MEMORY_MIB: u64 = 4096;

/// Where run directories go when `--run-dir` is not given: `$BATON_RUNS_DIR` moves it from
/// [`baton::DEFAULT_RUNS_DIR`].
const RUNS_DIR_ENV: &str = "BATON_RUNS_DIR";

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The plan: a compiled module (`.wasm`) or a plan source (`.py`, checked and compiled
    /// first). Not with `--resume`, which runs the run directory's plan.
    #[arg(required_unless_present = "resume", conflicts_with = "resume")]
    pub plan: Option<PathBuf>,
    /// Go on with an interrupted run: its journal's recorded results are replayed without
    /// running anything (no command runs twice, no model call is paid twice), then it continues
    /// live where the journal ends, in the run's own workspace, with the run's plan, inputs and
    /// configuration (flags given here override the configuration; give `--llm` again). A call
    /// cut by the interruption (recorded, without its result) runs again.
    #[arg(long, value_name = "RUN_DIR", conflicts_with_all = ["run_dir", "input", "sets", "workspace", "config"])]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub options: RunOptions,
}

/// How a plan runs: everything `baton run` takes besides the plan itself (and `--resume`).
/// `baton plan` takes the same, for the plan it has a model write.
#[derive(Debug, Clone, clap::Args)]
pub struct RunOptions {
    /// The configuration file (`baton.toml`; none is read unless given). Flags override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Grant capabilities to the plan: `bash`, `llm` (comma-separated or repeated). A plan that
    /// uses a capability that is not granted is refused before it runs.
    #[arg(long, value_name = "CAP[,CAP]", value_delimiter = ',', value_parser = parse_capability)]
    pub grant: Vec<Capability>,
    /// The model provider: `script:FILE.json` (offline, deterministic), `openai` or
    /// `openai:MODEL` (any OpenAI-compatible server; `OPENAI_BASE_URL`, `OPENAI_API_KEY`).
    #[arg(long, value_name = "PROVIDER", value_parser = parse_provider)]
    pub llm: Option<ProviderSpec>,
    /// `enforce` (default): every sandbox layer, failing closed; `none`: run `bash` commands
    /// unsandboxed on this machine (says so on stderr).
    #[arg(long, value_name = "MODE", value_parser = parse_sandbox)]
    pub sandbox: Option<SandboxMode>,
    /// The directory the plan's commands work in. Default: a fresh empty directory in the run
    /// directory. The plan works on a copy; the changes are written back only when the run
    /// succeeds, and kept as `changes.patch` in the run directory either way.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Work in `--workspace DIR` itself instead of a copy.
    #[arg(long, requires = "workspace")]
    pub in_place: bool,
    /// The run directory (must not exist or be empty). Default: a new directory under
    /// `.baton/runs/` (`$BATON_RUNS_DIR` moves it).
    #[arg(long, value_name = "DIR")]
    pub run_dir: Option<PathBuf>,
    /// The run's inputs: a JSON file holding an object. The plan sees them as `inputs`, and its
    /// `main` (if it defines one) is called with them as keyword arguments.
    #[arg(long, value_name = "FILE.json")]
    pub input: Option<PathBuf>,
    /// Set one input (after `--input`). VALUE is read as JSON when it parses (`3`, `true`,
    /// `[1, 2]`, `"7"`), Python's `True`, `False` and `None` are the bool and None they name, and
    /// anything else is the string as written. KEY is trimmed of surrounding spaces.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_set)]
    pub sets: Vec<(String, Value)>,
    /// Wall-clock limit for the run, in seconds (fractions allowed). Default 60.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// Memory cap in MiB: the most the plan's heap may grow to (a failed growth raises
    /// MemoryError inside the plan). Default 256.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=MAX_MEMORY_MIB))]
    pub memory: Option<u64>,
    /// CPU limit in fuel units (about one per WebAssembly instruction executed; a whole number,
    /// written `5000000000`, `5_000_000_000` or `5e9`). Default 2e10.
    #[arg(long, value_name = "N", value_parser = parse_fuel)]
    pub fuel: Option<u64>,
    /// Run-wide memory cap in MiB: the plan and all its branches together (crossing it stops
    /// the run, exit 4). Default 1024.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub run_memory: Option<u64>,
    /// Run-wide output cap in MiB: what the plan and its branches print together (crossing it
    /// stops the run, exit 4). Default 64.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub max_output: Option<u64>,
    /// Budget: most model calls in the run.
    #[arg(long, value_name = "N")]
    pub max_llm_calls: Option<u64>,
    /// Budget: most model tokens (input plus output) in the run.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u64>,
    /// Budget: most model cost in USD (prices per model in baton.toml's `[llm.prices]`).
    #[arg(long, value_name = "USD", value_parser = parse_cost)]
    pub max_cost: Option<f64>,
    /// Priors for `branch(..., n="auto")`, by call site, as `baton priors` writes them.
    #[arg(long, value_name = "FILE.json")]
    pub priors: Option<PathBuf>,
    /// Quiet: no `log(...)` lines echoed on stderr (they are kept in the run directory's
    /// log.txt), no progress line, and no end-of-run summary unless `--summary` asks for one.
    /// Warnings and errors are still printed.
    #[arg(long, short)]
    pub quiet: bool,
    /// Compile a `.py` plan with the collector's stress mode (as `baton compile --gc-stress`):
    /// a collection at every Nth safe point, freed memory poisoned. For testing the runtime.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub gc_stress: u32,
    /// Treat the check's warnings (B5xx) as errors: a `.py` plan with any is rejected (exit 3)
    /// before it runs.
    #[arg(long)]
    pub deny_warnings: bool,
    /// The end-of-run summary on stderr (outcome, time, model calls, tokens, cost, commands,
    /// branches, files written back or not and why, the run directory): `human` (default; none
    /// with `--quiet`), `json` (one line, for scripts and agents) or `none`. It comes before a
    /// traceback, so stderr still ends with the exception's line.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub summary: Option<SummaryFormat>,
    /// What was spent on model calls before the run (`baton plan`'s planner): taken off the
    /// run's budget, so planning and the plan share it.
    #[arg(skip)]
    pub spent_before: Option<baton_host::llm::Spent>,
    /// How `baton plan` got the plan, for the summary.
    #[arg(skip)]
    pub planning: Option<Value>,
    /// Journals of earlier revisions' runs, whose model answers this run reuses where it
    /// repeats their requests (`baton plan --replan`).
    #[arg(skip)]
    pub earlier_journals: Vec<PathBuf>,
}

impl std::ops::Deref for RunArgs {
    type Target = RunOptions;

    fn deref(&self) -> &RunOptions {
        &self.options
    }
}

impl RunArgs {
    /// The configuration: the file (if any), then the flags over it.
    pub fn config(&self) -> anyhow::Result<Config> {
        // Never a `baton.toml` found in the current directory: a repository the user runs a
        // plan in could plant one that turns the sandbox off or sends the API key to another
        // base URL. The configuration is what the user names.
        let mut config = match (&self.resume, &self.config) {
            (Some(run_dir), _) => {
                baton_host::session::check_run_dir(run_dir).map_err(anyhow::Error::msg)?;
                Config::load(&run_dir.join("config.toml"))?
            }
            (None, Some(path)) => Config::load(path)?,
            (None, None) => Config::default(),
        };
        for capability in &self.grant {
            config.grants.grant(*capability);
        }
        if let Some(mode) = self.sandbox {
            config.sandbox.mode = mode;
        }
        if let Some(dir) = &self.workspace {
            config.workspace.dir = Some(dir.clone());
        }
        if self.in_place {
            config.workspace.mode = WorkspaceMode::InPlace;
        }
        if let Some(timeout) = self.timeout {
            config.limits.timeout_secs = timeout.as_secs_f64();
        }
        if let Some(memory) = self.memory {
            config.limits.memory_mib = memory;
        }
        if let Some(fuel) = self.fuel {
            config.limits.fuel = fuel;
        }
        if let Some(memory) = self.run_memory {
            config.limits.run_memory_mib = memory;
        }
        if let Some(output) = self.max_output {
            config.limits.output_mib = output;
        }
        if let Some(calls) = self.max_llm_calls {
            config.budget.max_calls = Some(calls);
        }
        if let Some(tokens) = self.max_tokens {
            config.budget.max_tokens = Some(tokens);
        }
        if let Some(cost) = self.max_cost {
            config.budget.max_cost_usd = Some(cost);
        }
        if let Some(spent) = &self.spent_before {
            let budget = &mut config.budget;
            budget.max_calls = budget.max_calls.map(|cap| cap.saturating_sub(spent.calls));
            budget.max_tokens = budget
                .max_tokens
                .map(|cap| cap.saturating_sub(spent.tokens()));
            budget.max_cost_usd = budget
                .max_cost_usd
                .map(|cap| (cap - spent.cost_usd).max(0.0));
        }
        config.validate()?;
        Ok(config)
    }

    /// The inputs: `--input`'s object, then each `--set`.
    pub fn inputs(&self) -> anyhow::Result<Value> {
        let input = match &self.resume {
            Some(run_dir) => Some(run_dir.join("inputs.json")),
            None => self.input.clone(),
        };
        let mut inputs = match &input {
            None => serde_json::Map::new(),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the inputs `{}`", path.display()))?;
                match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Object(map)) => map,
                    Ok(_) => bail!("the inputs `{}` must hold a JSON object", path.display()),
                    Err(error) => bail!("the inputs `{}` are not JSON: {error}", path.display()),
                }
            }
        };
        for (key, value) in &self.sets {
            inputs.insert(key.clone(), value.clone());
        }
        Ok(Value::Object(inputs))
    }
}

fn parse_timeout(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!(
            "the timeout must be a positive number of seconds, not `{text}`"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("the timeout `{text}` is too large"))
}

fn parse_capability(text: &str) -> Result<Capability, String> {
    Capability::parse(text.trim()).ok_or_else(|| {
        let known: Vec<_> = Capability::ALL.iter().map(|c| c.name()).collect();
        format!("unknown capability `{text}` (known: {})", known.join(", "))
    })
}

fn parse_provider(text: &str) -> Result<ProviderSpec, String> {
    ProviderSpec::parse(text).map_err(|error| error.to_string())
}

fn parse_sandbox(text: &str) -> Result<SandboxMode, String> {
    match text {
        "enforce" => Ok(SandboxMode::Enforce),
        "none" => Ok(SandboxMode::None),
        _ => Err(format!("expected `enforce` or `none`, not `{text}`")),
    }
}

fn parse_cost(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(cost) if cost.is_finite() && cost >= 0.0 => Ok(cost),
        _ => Err(format!("`{text}` is not an amount of USD >= 0")),
    }
}

fn parse_set(text: &str) -> Result<(String, Value), String> {
    let Some((key, value)) = text.split_once('=') else {
        return Err(format!("expected KEY=VALUE, not `{text}`"));
    };
    let key = key.trim();
    if key.is_empty() {
        return Err(format!("the key of `{text}` is empty"));
    }
    // Plans are Python: `--set dry_run=False` means the bool, not the text "False".
    let value = match value.trim() {
        "True" => Value::Bool(true),
        "False" => Value::Bool(false),
        "None" => Value::Null,
        _ => serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned())),
    };
    Ok((key.to_owned(), value))
}

/// A fuel amount: a whole number of at least 1, with `_` separators or in `e` notation (`5e9`,
/// as the help's default is written).
fn parse_fuel(text: &str) -> Result<u64, String> {
    let bad = || format!("`{text}` is not a whole number of fuel units of at least 1 (e.g. 5e9)");
    let digits = text.trim().replace('_', "");
    let fuel = match digits.parse::<u64>() {
        Ok(fuel) => fuel,
        Err(_) => {
            let value: f64 = digits.parse().map_err(|_| bad())?;
            // Exactly a whole number within u64 (2^64 itself is out of range).
            if !(value.is_finite() && value.fract() == 0.0 && value < 18_446_744_073_709_551_616.0)
            {
                return Err(bad());
            }
            value as u64
        }
    };
    if fuel == 0 {
        return Err(bad());
    }
    Ok(fuel)
}

pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    run_with(args, &mut None)
}

/// [`run`], also handing back the traceback when the plan raised (`baton plan --replan`
/// sends it to the planner).
pub fn run_with(args: &RunArgs, raised: &mut Option<String>) -> anyhow::Result<ExitCode> {
    let config = args.config()?;
    let inputs = args.inputs()?;
    let plan = match (&args.plan, &args.resume) {
        (Some(plan), _) => plan.clone(),
        (None, Some(run_dir)) => run_dir.join("plan.wasm"),
        (None, None) => bail!("give a plan, or --resume RUN_DIR"),
    };
    let plan_path = plan;
    let plan = match load(
        &plan_path,
        args.gc_stress,
        args.deny_warnings,
        args.resume.as_deref(),
    )? {
        Loaded::Plan(plan) => plan,
        Loaded::Exit(code) => return Ok(code),
    };
    let plan_shown = plan_path.as_path();
    if config.grants.bash && config.sandbox.mode == SandboxMode::None {
        to_stderr!(
            "warning: --sandbox none: the plan's bash commands run unsandboxed, with this \
             user's access to the machine"
        );
    }
    let mut runner = Runner::new(config)
        .inputs(inputs)
        .runs_in(runs_base())
        .progress(std::io::stderr().is_terminal() && !args.quiet)
        .earlier_journals(args.earlier_journals.clone());
    if !args.quiet {
        // On a terminal the progress line may be showing: erase it first.
        let erase = if std::io::stderr().is_terminal() {
            "\r\x1b[2K"
        } else {
            ""
        };
        // The plan's text: no escape sequence reaches the terminal, no line break forges one.
        runner = runner.on_log(move |line: &str| {
            to_stderr!("{erase}[log] {}", baton::terminal_text(line, false))
        });
    }
    if let Some(provider) = &args.llm {
        runner = runner.provider(provider.clone());
    }
    match (&args.resume, &args.run_dir) {
        (Some(run_dir), _) => runner = runner.resume(run_dir),
        (None, Some(run_dir)) => runner = runner.run_dir(run_dir),
        (None, None) => {}
    }
    let priors = match &args.priors {
        None => Default::default(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the priors `{}`", path.display()))?;
            serde_json::from_str(&text).with_context(|| {
                format!(
                    "`{}` is not priors as `baton priors` writes them (a JSON object of call \
                     sites to {{success, cost, tokens, calls, value, weight}})",
                    path.display()
                )
            })?
        }
    };
    let runner = runner.priors(priors);
    let workspace_dir = runner.config().workspace.dir.clone();
    let in_place = runner.config().workspace.mode == WorkspaceMode::InPlace;

    let mut stdout = std::io::stdout().lock();
    let result = runner.run(&plan, &mut stdout);
    // Flush whatever happened, before anything goes to stderr, so output and error appear in
    // order on a terminal.
    let _ = stdout.flush();
    drop(stdout);

    let record = match result {
        Ok(record) => record,
        Err(SessionError::Host(error)) => return host_error(error, plan_shown),
        // Grants, run directory, workspace, sandbox or provider set-up: configuration errors.
        Err(error) => {
            return Err(
                anyhow::Error::new(error).context(format!("cannot run `{}`", plan_shown.display()))
            )
        }
    };
    if let Some(finish) = &record.workspace {
        // Names come from the plan: escaped, so none can move the cursor or forge a line.
        for held in &finish.held_back {
            to_stderr!(
                "warning: not written back: `{}`: {} (the run's changes.patch has it)",
                baton::terminal_text(&held.path.display().to_string(), false),
                baton::terminal_text(&held.reason.to_string(), false)
            );
        }
    }
    if let Some(error) = &record.workspace_error {
        to_stderr!(
            "warning: the workspace's changes could not be finished: {error} (the run \
             directory `{}` keeps what there is)",
            record.run_dir.display()
        );
    }
    let format = args.summary.unwrap_or(if args.quiet {
        SummaryFormat::None
    } else {
        SummaryFormat::Human
    });
    if format != SummaryFormat::None {
        let facts = summary::RunFacts {
            dir: workspace_dir.as_deref(),
            in_place,
            resumed: args.resume.is_some(),
            planning: args.planning.as_ref(),
        };
        let value = summary::summary(&record, &facts);
        let text = match format {
            SummaryFormat::Json => format!("{value}\n"),
            _ => summary::render_human(&value),
        };
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
    match record.outcome {
        Err(error) => host_error(error, plan_shown),
        Ok(RunOutcome::Success) => Ok(ExitCode::SUCCESS),
        Ok(RunOutcome::Exception {
            class, traceback, ..
        }) => {
            *raised = Some(traceback.clone());
            let budget = class == "BudgetExceeded";
            let traceback = plan.annotate(&traceback);
            let mut stderr = std::io::stderr().lock();
            // Messages are the plan's text: escaped, lines kept.
            let _ = stderr.write_all(baton::terminal_text(&traceback, true).as_bytes());
            let _ = stderr.flush();
            // An uncaught BudgetExceeded is a budget ending the run (DESIGN.md exit 4).
            Ok(ExitCode::from(if budget {
                EXIT_LIMIT
            } else {
                EXIT_EXCEPTION
            }))
        }
    }
}

/// The exit code and message for a run that ended without an outcome.
fn host_error(error: HostError, plan: &Path) -> anyhow::Result<ExitCode> {
    match error {
        HostError::Limit { limit, message } => {
            let hint = match limit {
                LimitKind::Cpu => "; raise it with --fuel",
                LimitKind::WallClock => "; raise it with --timeout",
                LimitKind::Memory => "; raise it with --memory",
                LimitKind::Stack => "; runaway recursion in the module",
                LimitKind::RunMemory => "; raise it with --run-memory",
                LimitKind::Output => "; raise it with --max-output",
                LimitKind::Log => "; raise it with [limits] log_mib in baton.toml",
                LimitKind::Held => "; raise it with [limits] held_mib in baton.toml",
                LimitKind::Disk => "; raise it with [limits] disk_mib in baton.toml",
                LimitKind::Commands => {
                    "; raise [sandbox] memory_mib (one command) and run_memory_mib (all together) in baton.toml"
                }
            };
            to_stderr!("error: {message}{hint}");
            Ok(ExitCode::from(EXIT_LIMIT))
        }
        HostError::Trap { message, backtrace } => {
            to_stderr!("error: the plan trapped: {message}");
            if let Some(backtrace) = backtrace {
                // Frame names come from the module: print them escaped.
                for line in backtrace.lines() {
                    to_stderr!("  {}", line.escape_debug());
                }
            }
            Ok(ExitCode::from(EXIT_EXCEPTION))
        }
        error @ (HostError::BadTraceback { .. } | HostError::Output(_)) => {
            to_stderr!("error: {error}");
            Ok(ExitCode::from(EXIT_EXCEPTION))
        }
        // Refused modules and engine problems: configuration errors (exit 2, via main).
        error => Err(anyhow::Error::new(error).context(format!("cannot run `{}`", plan.display()))),
    }
}

enum Loaded {
    /// The plan, with its source when it has one (tracebacks then show the source lines, as
    /// CPython's do).
    Plan(Plan),
    /// The plan was rejected (diagnostics already printed): exit with this code.
    Exit(ExitCode),
}

/// Loads the plan at `path`: a compiled module, or a source checked and compiled here. A
/// resumed run's module is annotated from the source its run directory kept (`resumed`).
fn load(
    path: &Path,
    gc_stress: u32,
    deny_warnings: bool,
    resumed: Option<&Path>,
) -> anyhow::Result<Loaded> {
    let extension = path.extension().and_then(|ext| ext.to_str()).unwrap_or("");
    match extension {
        "wasm" => {
            if path.is_dir() {
                bail!("module `{}` is a directory, not a file", path.display());
            }
            let bytes = std::fs::read(path)
                .with_context(|| format!("cannot read module `{}`", path.display()))?;
            let source = resumed.and_then(|run_dir| {
                let kept = run_dir.join("plan.py");
                let text = std::fs::read_to_string(&kept).ok()?;
                Some(PlanSource {
                    path: kept.display().to_string(),
                    text,
                })
            });
            let plan = Plan::from_module(bytes, source)
                .map_err(HostError::from)
                .with_context(|| format!("cannot run `{}`", path.display()))?;
            Ok(Loaded::Plan(plan))
        }
        "py" => {
            let shown = path.display().to_string();
            let text = baton::read_plan(path)?;
            if deny_warnings {
                if let Some(code) = super::compile::refuse_warnings(&shown, &text) {
                    return Ok(Loaded::Exit(code));
                }
            }
            // The plan cache keeps default builds only (`Plan::from_source`).
            let compiled = if gc_stress == 0 {
                Plan::from_source(shown, text)
            } else {
                let options = baton_compiler::CompileOptions { gc_stress };
                Plan::from_source_with(shown, text, options)
            };
            Ok(match compiled {
                Ok(plan) => Loaded::Plan(plan),
                Err(error) => Loaded::Exit(super::compile::report(error)),
            })
        }
        _ => bail!(
            "`{}`: expected a compiled plan (`.wasm`) or a plan source (`.py`)",
            path.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_parse_json_or_fall_back_to_text() {
        assert_eq!(parse_set("n=3").unwrap(), ("n".into(), Value::from(3)));
        assert_eq!(
            parse_set("name=fix the bug").unwrap(),
            ("name".into(), Value::from("fix the bug"))
        );
        assert_eq!(
            parse_set("s=\"7\"").unwrap(),
            ("s".into(), Value::from("7"))
        );
        assert_eq!(
            parse_set("a=b=c").unwrap(),
            ("a".into(), Value::from("b=c"))
        );
        assert!(parse_set("novalue").is_err());
        assert!(parse_set("=1").is_err());
        assert!(parse_set(" =1").is_err());
    }

    #[test]
    fn sets_read_python_literals_and_trim_keys() {
        assert_eq!(
            parse_set("dry_run=False").unwrap(),
            ("dry_run".into(), Value::Bool(false))
        );
        assert_eq!(
            parse_set("go=True").unwrap(),
            ("go".into(), Value::Bool(true))
        );
        assert_eq!(parse_set("x=None").unwrap(), ("x".into(), Value::Null));
        assert_eq!(
            parse_set(" key =false").unwrap(),
            ("key".into(), Value::Bool(false))
        );
        // Only the exact words: anything else stays text.
        assert_eq!(
            parse_set("x=Falsey").unwrap(),
            ("x".into(), Value::from("Falsey"))
        );
    }

    #[test]
    fn fuel_takes_the_notation_the_help_uses() {
        assert_eq!(parse_fuel("5e9"), Ok(5_000_000_000));
        assert_eq!(parse_fuel("5_000_000_000"), Ok(5_000_000_000));
        assert_eq!(parse_fuel("1000"), Ok(1000));
        assert_eq!(parse_fuel("2.5e3"), Ok(2500));
        for bad in ["0", "-1", "1.5", "1e30", "nan", "inf", "lots", ""] {
            assert!(parse_fuel(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn timeouts_parse() {
        assert_eq!(parse_timeout("60").unwrap(), Duration::from_secs(60));
        assert_eq!(parse_timeout("0.25").unwrap(), Duration::from_millis(250));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("-1").is_err());
        assert!(parse_timeout("nan").is_err());
        assert!(parse_timeout("inf").is_err());
        assert!(parse_timeout("1e300").is_err());
        assert!(parse_timeout("soon").is_err());
    }
}
