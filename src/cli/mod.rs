//! Command-line definitions and dispatch. Exit codes follow DESIGN.md: 0 success, 1 the plan
//! raised, 2 usage or configuration error, 3 rejected by the static check, 4 a limit ended the
//! run.

/// `eprintln!` that cannot panic. Progress lines, summaries and errors go to stderr; a stderr
/// that cannot be written (a full disk, a closed pipe) must not turn the command's outcome into
/// a panic (exit 101 with nothing said): the exit code and the run directory still tell how it
/// ended. `eprintln!` panics when its write fails.
macro_rules! to_stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}
pub(crate) use to_stderr;

/// `eprint!` of finished text (a report that ends with its own newline) that cannot panic, for
/// the reason [`to_stderr!`] gives.
fn write_stderr(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

mod batch;
mod check;
mod compile;
mod guide;
mod inspect;
mod plan;
mod priors;
mod replay;
mod report;
mod run;
mod summary;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

pub const EXIT_USAGE: u8 = 2;
pub const EXIT_REJECTED: u8 = 3;

#[derive(Debug, Parser)]
#[command(
    name = "baton",
    version,
    about = "Run model-written plans safely",
    long_about = "Baton checks plans (a strict subset of Python 3.11 written by language models), \
compiles them to WebAssembly and runs them under hard limits.\n\n\
Exit codes: 0 success; 1 the plan raised an exception; 2 usage or configuration error; \
3 rejected by the static check; 4 a limit or budget ended the run."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Statically check a plan: exit 0 when it is accepted, 3 when it is rejected.
    ///
    /// Every problem is reported at once, each with a stable code (B001, B101, ...), the
    /// position, and a help line with the allowed alternative. `--format json` prints a JSON
    /// array on stdout (fields: code, severity, message, help, line, column, end_line,
    /// end_column; lines and columns are 1-based, columns count characters, end_column is
    /// exclusive), meant to be pasted back into a planner's prompt.
    Check(CheckArgs),
    /// Check a plan and compile it to a WebAssembly module whose only imports are Baton's
    /// runtime (of this build; a few KB of the plan's own code) and the host calls it uses
    /// (`baton.print`, ...). Exit 3 when the plan is rejected.
    Compile(compile::CompileArgs),
    /// Run a plan (`.py`, checked and compiled first, or a compiled `.wasm`) under hard limits.
    /// stdout carries exactly what the plan prints.
    ///
    /// Exit codes: 0 the plan succeeded; 1 it raised an uncaught exception (stderr ends with
    /// `Type: message`) or the module trapped; 2 usage or configuration error (bad flags, a
    /// refused module, a capability not granted); 3 rejected by the static check; 4 a limit or
    /// budget ended the run (the message names the flag that raises it).
    Run(Box<run::RunArgs>),
    /// Print the plan-language guide: the statements, builtins, methods, exceptions and modules
    /// a plan may use, what is refused and why, the SDK with its signatures, the limits, and
    /// idioms for plans that drive a shell. Generated from the tables the checker and the
    /// runtime use (docs/plan-language.md is its Markdown).
    Guide(guide::GuideArgs),
    /// Have a model write the plan for a task, and run it. The planner model gets the compact
    /// plan-language guide (`baton guide --compact`), the task, the granted capabilities and
    /// the inputs' names; the first fenced python block of its answer is the plan. While `baton
    /// check` rejects it, the model gets the diagnostics back (JSON, each with its line quoted)
    /// and writes the plan again, up to --max-repairs times. The accepted plan then runs as
    /// `baton run` runs it (stdout is the plan's; the same exit codes; the planner's calls count
    /// against the same budget). The run directory keeps every revision in `planning/`. A plan
    /// still rejected after the repairs exits 3 with its diagnostics.
    Plan(Box<plan::PlanArgs>),
    /// Batches of runs from a manifest (JSON lines, one run each): on this machine, as a
    /// Slurm job array or a Kubernetes Indexed Job; resumable; `status` and `collect` at any
    /// point.
    Batch(batch::BatchArgs),
    /// Show a compiled plan's imports (the capabilities it needs, the runtime version it was
    /// compiled for), exports and section sizes.
    Inspect(inspect::InspectArgs),
    /// Re-execute a finished run from its journal, running nothing (no commands, no network,
    /// no model), and check that it prints the same output and returns the same result. Exit 0
    /// when both match, 1 when they differ, 2 when a call diverges from the journal.
    Replay(replay::ReplayArgs),
    /// Print a run's trace as JSON: its instances (the run and every branch, with their
    /// outcomes, scores, tokens and cost) and every journaled call with its request and result.
    Trace(report::TraceArgs),
    /// Write a run's report: one self-contained HTML file (no scripts, no external assets) with
    /// the branch tree, a timeline, tokens, cost and scores per branch, and every call.
    Report(report::ReportArgs),
    /// Turn earlier runs' `branch` figures into priors for `branch(..., n="auto")`: per call
    /// site (the first callable's name), the success rate and the mean spend per attempt.
    /// `baton run --priors FILE` uses them.
    Priors(priors::PriorsArgs),
    /// Report which layers of the `bash` sandbox work on this machine (namespaces, filesystem
    /// view, rlimits, cgroups, Landlock, seccomp), by starting a real sandboxed command. Exit 0
    /// when sandboxed commands can run here, 1 when they cannot.
    SandboxInfo,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The plan to check (a `.py` file, UTF-8).
    pub plan: std::path::PathBuf,
    /// Output format: `human` (rustc-style, on stderr) or `json` (on stdout).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Treat warnings (B5xx) as errors: a plan with any is rejected (exit 3).
    #[arg(long)]
    pub deny_warnings: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Compile(args) => compile::run(&args),
        Command::Run(args) => {
            // One run in this process: a pool of instances would cost more to create than it
            // saves (`engine::set_instance_pool`).
            baton_host::engine::set_instance_pool(false);
            run::run(&args)
        }
        Command::Guide(args) => guide::run(&args),
        Command::Batch(args) => batch::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::Inspect(args) => inspect::run(&args),
        Command::Priors(args) => priors::run(&args),
        Command::Replay(args) => {
            baton_host::engine::set_instance_pool(false);
            replay::run(&args)
        }
        Command::Trace(args) => report::trace(&args),
        Command::Report(args) => report::report(&args),
        Command::SandboxInfo => sandbox_info(),
    }
}

fn sandbox_info() -> anyhow::Result<ExitCode> {
    use anyhow::Context as _;
    let helper = baton_host::sandbox::HelperExe::from_env_or_current()
        .context("cannot find the sandbox helper executable")?;
    let info = baton_host::sandbox::info(&helper);
    let mut text = info.to_string();
    if info.usable() {
        // Branches' workspaces are overlays where this works, copies elsewhere.
        let works = baton_host::sandbox::overlay_available(&helper);
        text.push_str(if works {
            "branch workspaces: overlay (a branch's fork is an overlayfs layer)\n"
        } else {
            "branch workspaces: copy (overlayfs cannot be mounted in a user namespace here)\n"
        });
    }
    // A closed pipe is the reader's choice, not an error.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    Ok(if info.usable() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
