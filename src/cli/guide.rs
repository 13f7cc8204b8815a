//! `baton guide`: the plan-language guide (`baton_compiler::guide`), with this build's limits.

use std::process::ExitCode;

use baton_compiler::guide::{Guide, Limit};
use baton_host::config::{LimitsConfig, SandboxConfig};
use clap::ValueEnum;

#[derive(Debug, clap::Args)]
pub struct GuideArgs {
    /// `markdown` (docs/plan-language.md is this output) or `json` (for tools).
    #[arg(long, value_enum, default_value_t = GuideFormat::Markdown)]
    pub format: GuideFormat,
    /// The condensed guide a planner model gets in its prompt (what `baton plan` sends; under
    /// 3,000 tokens).
    #[arg(long)]
    pub compact: bool,
    /// Write the guide to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GuideFormat {
    Markdown,
    Json,
}

/// The guide as this build's defaults make it.
pub fn guide() -> Guide {
    Guide::new(default_limits())
}

/// The limits a plan meets by default, with the flag that changes each.
fn default_limits() -> Vec<Limit> {
    let limits = LimitsConfig::default();
    let sandbox = SandboxConfig::default();
    let limit = |what: &str, default: String, flag: &str| Limit {
        what: what.to_string(),
        default,
        flag: flag.to_string(),
    };
    vec![
        limit(
            "wall clock of the run",
            format!("{} s", limits.timeout_secs),
            "--timeout",
        ),
        limit(
            "CPU (fuel, about one unit per instruction)",
            format!("{:e}", limits.fuel as f64),
            "--fuel",
        ),
        limit(
            "the plan's memory",
            format!("{} MiB", limits.memory_mib),
            "--memory",
        ),
        limit(
            "memory of the plan and its branches together",
            format!("{} MiB", limits.run_memory_mib),
            "--run-memory",
        ),
        limit(
            "what the plan and its branches print",
            format!("{} MiB", limits.output_mib),
            "--max-output",
        ),
        limit(
            "a command's time",
            "60 s (bash(..., timeout=))".to_string(),
            "timeout=",
        ),
        limit(
            "a command's stdout and stderr, each",
            format!("{} KiB", sandbox.output_kib),
            "[sandbox] output_kib",
        ),
        limit(
            "a command's memory",
            format!("{} MiB", sandbox.memory_mib),
            "[sandbox] memory_mib",
        ),
        limit(
            "model calls, tokens, cost",
            "unlimited".to_string(),
            "--max-llm-calls, --max-tokens, --max-cost",
        ),
    ]
}

pub fn run(args: &GuideArgs) -> anyhow::Result<ExitCode> {
    let guide = guide();
    let text = match (args.format, args.compact) {
        (GuideFormat::Markdown, false) => guide.markdown(),
        (GuideFormat::Markdown, true) => guide.compact(),
        (GuideFormat::Json, compact) => {
            let mut value = guide.json();
            if compact {
                value = serde_json::json!({ "compact": guide.compact() });
            }
            format!("{}\n", serde_json::to_string_pretty(&value)?)
        }
    };
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
        None => {
            // A closed pipe is the reader's choice, not an error.
            let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
        }
    }
    Ok(ExitCode::SUCCESS)
}
