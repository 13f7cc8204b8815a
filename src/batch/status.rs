//! `baton batch status ROOT`: what a batch has done, from its root alone, at any moment.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::Layout;

/// The batch's state: runs by how they ended, running, failed for a retry, pending; model
/// calls, tokens and cost of the finished ones.
pub fn status(layout: &Layout) -> std::io::Result<Value> {
    let runs = layout.runs()?;
    let mut by_status: BTreeMap<String, u64> = BTreeMap::new();
    let (mut done, mut running, mut retry, mut pending) = (0u64, 0u64, 0u64, 0u64);
    let (mut calls, mut tokens, mut cost, mut seconds) = (0u64, 0u64, 0.0f64, 0.0f64);
    for run in &runs {
        let id = run["id"].as_str().unwrap_or_default();
        if let Some(result) = layout.read_result(id) {
            done += 1;
            *by_status
                .entry(result["status"].as_str().unwrap_or("?").to_string())
                .or_default() += 1;
            calls += result["llm"]["calls"].as_u64().unwrap_or(0);
            tokens += result["llm"]["input_tokens"].as_u64().unwrap_or(0)
                + result["llm"]["output_tokens"].as_u64().unwrap_or(0);
            cost += result["llm"]["cost_usd"].as_f64().unwrap_or(0.0);
            seconds += result["seconds"].as_f64().unwrap_or(0.0);
        } else if layout.claims().join(format!("{id}.lock")).exists() {
            running += 1;
        } else if layout.failure(id).exists() {
            retry += 1;
        } else {
            pending += 1;
        }
    }
    Ok(json!({
        "runs": runs.len(),
        "done": done,
        "by_status": by_status,
        "running": running,
        "failed_for_retry": retry,
        "pending": pending,
        "llm": {"calls": calls, "tokens": tokens, "cost_usd": cost},
        "run_seconds": seconds,
    }))
}

/// The status for people; `bar`: with a progress bar (on a terminal).
pub fn render(status: &Value, bar: bool) -> String {
    let runs = status["runs"].as_u64().unwrap_or(0);
    let done = status["done"].as_u64().unwrap_or(0);
    let mut out = String::new();
    if bar {
        const WIDTH: u64 = 30;
        let filled = (done * WIDTH).checked_div(runs).unwrap_or(0);
        out.push_str(&format!(
            "[{}{}] ",
            "#".repeat(filled as usize),
            ".".repeat((WIDTH - filled) as usize)
        ));
    }
    let statuses: Vec<String> = status["by_status"]
        .as_object()
        .map(|map| map.iter().map(|(k, v)| format!("{v} {k}")).collect())
        .unwrap_or_default();
    out.push_str(&format!(
        "{done}/{runs} done{}; {} running, {} failed for a retry, {} pending\n",
        if statuses.is_empty() {
            String::new()
        } else {
            format!(" ({})", statuses.join(", "))
        },
        status["running"],
        status["failed_for_retry"],
        status["pending"],
    ));
    out.push_str(&format!(
        "model calls {}, tokens {}, cost ${:.4}\n",
        status["llm"]["calls"],
        status["llm"]["tokens"],
        status["llm"]["cost_usd"].as_f64().unwrap_or(0.0)
    ));
    out
}
