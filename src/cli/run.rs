//! `baton run`: run a compiled plan (`.wasm`), or compile a plan (`.py`) and run it, under hard
//! limits. stdout carries exactly what the plan prints.
//!
//! Exit codes (DESIGN.md): 0 success; 1 the plan raised an uncaught exception (its traceback on
//! stderr, exactly as the runtime built it, ending with `Type: message`), and also when the module
//! trapped or returned an invalid traceback (stderr: `error: ...`); 2 usage or configuration error
//! (bad flags, unreadable file, a module refused by import validation); 3 the plan was rejected by
//! the static check (`.py` only); 4 a limit ended the run (stderr names the limit and the flag
//! that raises it).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context as _};
use baton_host::{HostError, LimitKind, Limits, RunOutcome};

/// The plan raised (or the module trapped).
const EXIT_EXCEPTION: u8 = 1;
/// A limit ended the run.
const EXIT_LIMIT: u8 = 4;

/// The largest `--memory` (MiB): a 32-bit memory holds at most 4 GiB.
const MAX_MEMORY_MIB: u64 = 4096;

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The plan: a compiled module (`.wasm`) or a plan source (`.py`, checked and compiled
    /// first).
    pub plan: PathBuf,
    /// Wall-clock limit for the run, in seconds (fractions allowed).
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Memory cap in MiB: the most the plan's heap may grow to (a failed growth raises
    /// MemoryError inside the plan).
    #[arg(
        long,
        value_name = "MIB",
        default_value_t = 256,
        value_parser = clap::value_parser!(u64).range(1..=MAX_MEMORY_MIB)
    )]
    pub memory: u64,
    /// CPU limit in fuel units (about one per WebAssembly instruction executed).
    #[arg(
        long,
        value_name = "N",
        default_value_t = Limits::DEFAULT_FUEL,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub fuel: u64,
}

impl RunArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            fuel: self.fuel,
            timeout: self.timeout,
            // At most 4096 MiB, so this fits in usize on 64-bit hosts; saturate elsewhere.
            memory_bytes: usize::try_from(self.memory << 20).unwrap_or(usize::MAX),
        }
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

pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let limits = args.limits();
    let (bytes, source) = match load(&args.plan)? {
        Loaded::Module(bytes, source) => (bytes, source),
        Loaded::Exit(code) => return Ok(code),
    };

    let mut stdout = std::io::stdout().lock();
    let result = baton_host::run_module(&bytes, &limits, &mut stdout);
    // run_module flushes on success; flush again whatever happened, before anything goes to
    // stderr, so output and error appear in order on a terminal.
    let _ = stdout.flush();
    drop(stdout);

    match result {
        Ok(RunOutcome::Success) => Ok(ExitCode::SUCCESS),
        Ok(RunOutcome::Exception { traceback }) => {
            let traceback = match &source {
                Some((path, text)) => baton::annotate_traceback(&traceback, path, text),
                None => traceback,
            };
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(traceback.as_bytes());
            let _ = stderr.flush();
            Ok(ExitCode::from(EXIT_EXCEPTION))
        }
        Err(HostError::Limit { limit, message }) => {
            let hint = match limit {
                LimitKind::Cpu => "; raise it with --fuel",
                LimitKind::WallClock => "; raise it with --timeout",
                LimitKind::Memory => "; raise it with --memory",
                LimitKind::Stack => "; runaway recursion in the module",
            };
            eprintln!("error: {message}{hint}");
            Ok(ExitCode::from(EXIT_LIMIT))
        }
        Err(HostError::Trap { message, backtrace }) => {
            eprintln!("error: the plan trapped: {message}");
            if let Some(backtrace) = backtrace {
                // Frame names come from the module: print them escaped.
                for line in backtrace.lines() {
                    eprintln!("  {}", line.escape_debug());
                }
            }
            Ok(ExitCode::from(EXIT_EXCEPTION))
        }
        Err(error @ (HostError::BadTraceback { .. } | HostError::Output(_))) => {
            eprintln!("error: {error}");
            Ok(ExitCode::from(EXIT_EXCEPTION))
        }
        // Refused modules and engine problems: configuration errors (exit 2, via main).
        Err(error) => {
            Err(anyhow::Error::new(error).context(format!("cannot run `{}`", args.plan.display())))
        }
    }
}

enum Loaded {
    /// A module, and the plan's path and source when it was compiled from source (tracebacks
    /// then show the source lines, as CPython's do).
    Module(Vec<u8>, Option<(String, String)>),
    /// The plan was rejected (diagnostics already printed): exit with this code.
    Exit(ExitCode),
}

fn load(path: &Path) -> anyhow::Result<Loaded> {
    let extension = path.extension().and_then(|ext| ext.to_str()).unwrap_or("");
    match extension {
        "wasm" => {
            if path.is_dir() {
                bail!("module `{}` is a directory, not a file", path.display());
            }
            let bytes = std::fs::read(path)
                .with_context(|| format!("cannot read module `{}`", path.display()))?;
            Ok(Loaded::Module(bytes, None))
        }
        "py" => {
            let shown = path.display().to_string();
            let text = baton::read_plan(path)?;
            compile_plan(&shown, &text)
        }
        _ => bail!(
            "`{}`: expected a compiled plan (`.wasm`) or a plan source (`.py`)",
            path.display()
        ),
    }
}

/// Compiles a plan's source to a module: the one place `baton run` calls the compiler. It
/// shares `baton compile`'s reporting (diagnostics on stderr, exit 3 when the static check
/// rejects the plan).
fn compile_plan(shown: &str, text: &str) -> anyhow::Result<Loaded> {
    Ok(match super::compile::compile_or_report(shown, text) {
        Ok(plan) => Loaded::Module(plan.wasm, Some((shown.to_owned(), text.to_owned()))),
        Err(code) => Loaded::Exit(code),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
