//! The end-of-run summary `baton run` writes on stderr: what happened, in a few lines for
//! people (`--summary human`, the default) or one JSON object for scripts and agents
//! (`--summary json`). It comes before a traceback or a limit's message, so stderr still ends
//! with the exception line (DESIGN.md, exit codes).

use std::path::Path;

use baton_host::session::RunRecord;
use baton_host::{HostError, RunOutcome};
use serde_json::{json, Value};

/// How `baton run` ends with a summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SummaryFormat {
    Human,
    Json,
    None,
}

/// What the summary knows besides the run's record.
pub struct RunFacts<'a> {
    /// `--workspace DIR`, when given.
    pub dir: Option<&'a Path>,
    pub in_place: bool,
    pub resumed: bool,
    /// How `baton plan` got the plan (revisions, the planner's model calls).
    pub planning: Option<&'a Value>,
}

/// The summary as a JSON value (the `--summary json` line; the human form renders it).
pub fn summary(record: &RunRecord, facts: &RunFacts<'_>) -> Value {
    let figures = &record.figures;
    let outcome = match &record.outcome {
        Ok(RunOutcome::Success) => json!({"status": "success"}),
        Ok(RunOutcome::Exception { traceback, .. }) => json!({
            "status": "exception",
            "exception": traceback.lines().last().unwrap_or_default(),
        }),
        Err(error @ HostError::Limit { .. }) => {
            json!({"status": "limit", "error": error.to_string()})
        }
        Err(error) => json!({"status": "error", "error": error.to_string()}),
    };
    let commands = figures["host_calls"]["bash"]["calls"].as_u64().unwrap_or(0);
    let (branches, cancelled) = branch_counts(&record.run_dir);
    let files = match &record.workspace {
        None => json!({"status": "unknown", "why": record.workspace_error}),
        Some(finish) => {
            let changed = finish.changes.changes.len();
            let held: Vec<Value> = finish
                .held_back
                .iter()
                .map(|held| json!({"path": held.path, "why": held.reason.to_string()}))
                .collect();
            let (status, why) = if finish.written_back {
                ("written back", None)
            } else if facts.in_place {
                ("changed in place", None)
            } else if facts.dir.is_none() {
                (
                    "kept in the run directory",
                    Some("no --workspace was given"),
                )
            } else if facts.resumed {
                (
                    "kept in the run directory",
                    Some("a resumed run does not write back"),
                )
            } else if changed == 0 {
                ("unchanged", None)
            } else {
                (
                    "not written back",
                    Some("the run did not succeed (changes.patch has them)"),
                )
            };
            json!({
                "status": status,
                "why": why,
                "changed_paths": changed,
                "dir": facts.dir,
                "held_back": held,
            })
        }
    };
    json!({
        "outcome": outcome,
        "seconds": figures["seconds"],
        "llm": figures["llm"],
        "commands": commands,
        "branches": {"run": branches, "cancelled": cancelled},
        "files": files,
        "planning": facts.planning,
        "run_dir": record.run_dir,
    })
}

/// Branches started and cancelled, from the run's trace (the journal).
fn branch_counts(run_dir: &Path) -> (u64, u64) {
    let Ok(trace) = baton_host::trace::trace(run_dir) else {
        return (0, 0);
    };
    let branches = trace["branches"].as_array().map_or(&[][..], Vec::as_slice);
    let run = branches.iter().filter(|b| b["path"] != "").count() as u64;
    let cancelled = branches.iter().filter(|b| b["cancelled"] == true).count() as u64;
    (run, cancelled)
}

pub(super) fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The human form: a few lines, each a fact.
pub fn render_human(summary: &Value) -> String {
    let outcome = &summary["outcome"];
    let (what, detail) = match outcome["status"].as_str().unwrap_or_default() {
        "success" => ("succeeded", None),
        "exception" => ("raised an exception", outcome["exception"].as_str()),
        "limit" => ("was stopped by a limit", outcome["error"].as_str()),
        _ => ("failed", outcome["error"].as_str()),
    };
    let llm = &summary["llm"];
    let calls = llm["calls"].as_u64().unwrap_or(0);
    let tokens =
        llm["input_tokens"].as_u64().unwrap_or(0) + llm["output_tokens"].as_u64().unwrap_or(0);
    let mut out = format!(
        "[baton] the run {what} after {:.2} s",
        summary["seconds"].as_f64().unwrap_or(0.0)
    );
    if let Some(detail) = detail {
        out.push_str(&format!(": {}", baton::terminal_text(detail, false)));
    }
    out.push('\n');
    let planning = &summary["planning"];
    if let Some(revisions) = planning["revisions"].as_u64() {
        out.push_str(&format!(
            "[baton]   planning: {} ({} rejected), {}, {}, {}\n",
            plural(revisions, "revision", "revisions"),
            planning["rejected"].as_u64().unwrap_or(0),
            plural(
                planning["calls"].as_u64().unwrap_or(0),
                "model call",
                "model calls"
            ),
            plural(planning["tokens"].as_u64().unwrap_or(0), "token", "tokens"),
            cost(planning["cost_usd"].as_f64().unwrap_or(0.0))
        ));
    }
    out.push_str(&format!(
        "[baton]   models: {}, {}, {}\n",
        plural(calls, "call", "calls"),
        plural(tokens, "token", "tokens"),
        cost(llm["cost_usd"].as_f64().unwrap_or(0.0))
    ));
    let commands = summary["commands"].as_u64().unwrap_or(0);
    let branches = summary["branches"]["run"].as_u64().unwrap_or(0);
    let cancelled = summary["branches"]["cancelled"].as_u64().unwrap_or(0);
    out.push_str(&format!(
        "[baton]   {}, {} ({cancelled} cancelled)\n",
        plural(commands, "command", "commands"),
        plural(branches, "branch", "branches"),
    ));
    let files = &summary["files"];
    let changed = files["changed_paths"].as_u64().unwrap_or(0);
    let mut line = format!(
        "[baton]   files: {} {}",
        plural(changed, "path", "paths"),
        files["status"].as_str().unwrap_or("unknown")
    );
    if let Some(dir) = files["dir"]
        .as_str()
        .filter(|_| files["status"] == "written back")
    {
        line.push_str(&format!(" to {}", baton::terminal_text(dir, false)));
    }
    if let Some(why) = files["why"].as_str() {
        line.push_str(&format!(" ({why})"));
    }
    let held = files["held_back"].as_array().map_or(0, Vec::len) as u64;
    if held > 0 {
        line.push_str(&format!("; {} held back", plural(held, "path", "paths")));
    }
    out.push_str(&line);
    out.push('\n');
    out.push_str(&format!(
        "[baton]   run directory: {}\n",
        summary["run_dir"]
            .as_str()
            .map(|dir| baton::terminal_text(dir, false))
            .unwrap_or_default()
    ));
    out
}

/// Dollars with enough digits to be read: $0.00012, not $0.0000.
pub(super) fn cost(usd: f64) -> String {
    if usd == 0.0 {
        return "$0".to_string();
    }
    if usd >= 0.01 {
        return format!("${usd:.2}");
    }
    // Two significant digits.
    let digits = (-usd.log10()).ceil() as usize + 1;
    format!("${usd:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_keep_their_significant_digits() {
        assert_eq!(cost(0.0), "$0");
        assert_eq!(cost(0.00012), "$0.00012");
        assert_eq!(cost(0.0034), "$0.0034");
        assert_eq!(cost(1.5), "$1.50");
        assert_eq!(cost(0.05), "$0.05");
    }

    #[test]
    fn counts_are_singular_or_plural() {
        assert_eq!(plural(1, "branch", "branches"), "1 branch");
        assert_eq!(plural(0, "branch", "branches"), "0 branches");
        assert_eq!(plural(2, "call", "calls"), "2 calls");
    }
}
