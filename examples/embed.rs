//! Embedding Baton: check and compile a plan, run it with `llm` granted and the offline model
//! provider, and read what it printed, returned and spent. `cargo run --example embed`.

use std::path::Path;

use baton::{Capability, CompileError, Config, Plan, ProviderSpec, RunOutcome, Runner};

const PLAN: &str = r#"
from baton import llm, log

def main(question):
    answer = llm(question)
    log(f"the model said {answer!r}")
    return {"question": question, "answer": int(answer) * 2}
"#;

/// Runs the plan with its run directory under `runs`, writing what it prints to `stdout`.
pub fn run_in(runs: &Path, stdout: &mut dyn std::io::Write) -> anyhow::Result<String> {
    let plan = match Plan::from_source("double.py", PLAN) {
        Ok(plan) => plan,
        // The static check's diagnostics, as `baton check` prints them.
        Err(CompileError::Rejected(report)) => anyhow::bail!("{}", report.render_human()),
        Err(error) => return Err(error.into()),
    };
    let replies = runs.join("replies.json");
    std::fs::create_dir_all(runs)?;
    std::fs::write(
        &replies,
        r#"{"rules": [{"when": "6 times 7", "reply": "42"}]}"#,
    )?;
    let mut config = Config::default();
    config.grants.grant(Capability::Llm);
    let runner = Runner::new(config)
        .provider(ProviderSpec::parse(&format!(
            "script:{}",
            replies.display()
        ))?)
        .inputs(serde_json::json!({"question": "What is 6 times 7?"}))
        .on_log(|line| eprintln!("[log] {}", baton::terminal_text(line, false)))
        .runs_in(runs);
    let run = runner.run(&plan, stdout)?;
    match run.outcome? {
        RunOutcome::Success => Ok(run.result.unwrap_or_default()),
        RunOutcome::Exception { traceback, .. } => anyhow::bail!("{}", plan.annotate(&traceback)),
    }
}

#[allow(dead_code)] // a test includes this file and calls `run_in` itself
fn main() -> anyhow::Result<()> {
    let result = run_in(
        &std::env::temp_dir().join("baton-embed"),
        &mut std::io::stdout(),
    )?;
    println!("main returned {result}");
    Ok(())
}
