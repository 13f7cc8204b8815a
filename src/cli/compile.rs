//! `baton compile`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use baton_compiler::CompileError;

use super::{EXIT_REJECTED, EXIT_USAGE};

#[derive(Debug, clap::Args)]
pub struct CompileArgs {
    /// The plan to compile (a `.py` file, UTF-8).
    pub plan: PathBuf,
    /// Write the module to FILE (default: the plan's path with `.wasm`).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write the module's WebAssembly text next to it (`.wat`), for inspection.
    #[arg(long)]
    pub emit_wat: bool,
    /// Build the module with the collector's stress mode: a collection at every Nth safe
    /// point (1: every one) and freed memory poisoned, so a value the collector cannot see
    /// shows at once. For testing the runtime; such a module runs many times slower.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub gc_stress: u32,
    /// Treat the check's warnings (B5xx) as errors: a plan with any is rejected (exit 3).
    #[arg(long)]
    pub deny_warnings: bool,
}

/// With `--deny-warnings`: the plan's warnings, as errors, on stderr, and exit 3 when it has
/// any. Checked before the module cache is consulted, which keeps modules of accepted plans.
pub fn refuse_warnings(shown: &str, text: &str) -> Option<ExitCode> {
    let report = baton_compiler::check_source(shown, text).deny_warnings();
    if report.is_accepted() {
        return None;
    }
    super::write_stderr(&report.render_human());
    Some(ExitCode::from(EXIT_REJECTED))
}

pub fn run(args: &CompileArgs) -> anyhow::Result<ExitCode> {
    let text = baton::read_plan(&args.plan)?;
    let shown = args.plan.display().to_string();
    if args.deny_warnings {
        if let Some(code) = refuse_warnings(&shown, &text) {
            return Ok(code);
        }
    }
    let options = baton_compiler::CompileOptions {
        gc_stress: args.gc_stress,
    };
    let plan = match compile_or_report(&shown, &text, options) {
        Ok(plan) => plan,
        Err(code) => return Ok(code),
    };
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.plan.with_extension("wasm"));
    std::fs::write(&output, &plan.wasm)
        .with_context(|| format!("writing `{}`", output.display()))?;
    if args.emit_wat {
        let wat_path = output.with_extension("wat");
        std::fs::write(&wat_path, &plan.wat)
            .with_context(|| format!("writing `{}`", wat_path.display()))?;
    }
    to_stderr!(
        "compiled `{shown}` to `{}` ({} bytes)",
        output.display(),
        plan.wasm.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// Compiles, printing diagnostics or the reason on stderr and returning the exit code on failure.
pub fn compile_or_report(
    shown: &str,
    text: &str,
    options: baton_compiler::CompileOptions,
) -> Result<baton_compiler::CompiledPlan, ExitCode> {
    baton_compiler::compile_source_with(shown, text, options).map_err(report)
}

/// Prints why a plan did not compile on stderr and returns the exit code for it.
pub fn report(error: CompileError) -> ExitCode {
    match error {
        CompileError::Rejected(report) => {
            super::write_stderr(&report.render_human());
            ExitCode::from(EXIT_REJECTED)
        }
        error @ CompileError::Unsupported { .. } => {
            to_stderr!("error: {error}");
            ExitCode::from(EXIT_REJECTED)
        }
        error @ CompileError::Assembly(_) => {
            to_stderr!("error: {error}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
