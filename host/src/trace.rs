//! A run's trace: what `baton trace` prints and `baton report` draws, from the run directory
//! (`journal.jsonl`, `figures.json`, `result.json`, `output.txt`).
//!
//! - `branches`: one entry per instance, named by its [`BranchId`] (path `""` is the run,
//!   `"3.0"` the first branch of its call #3), with its parent, its calls, and from its parent's
//!   `branch` call (`branch_call`, that call's seq): ok, valid, score, chosen, cancelled, error,
//!   tokens, cost; `start`/`end` span its calls (seconds since the journal began);
//! - `calls`: every journaled call in order: path, seq, call, plan line, start, seconds, ok,
//!   `request` (the JSON the plan sent, without a branch call's encoded payload) and `result`
//!   (the reply: `{"ok": value}` or `{"error": {"type", "message"}}`; `null` for a call the
//!   journal has no result for), as JSON values. A string longer than [`TEXT_LIMIT`] characters
//!   inside them is cut, with `… (N bytes in all)` at its end.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::branch_id::BranchId;
use crate::journal::{Recorded, JOURNAL_FILE};
use crate::session::OUTPUT_FILE;

/// The most characters of a request, result or output kept in a trace.
pub const TEXT_LIMIT: usize = 4000;

fn cut(text: &str) -> Value {
    match text.char_indices().nth(TEXT_LIMIT) {
        None => json!({ "text": text }),
        Some((end, _)) => json!({ "text": &text[..end], "length": text.len() }),
    }
}

/// `value` with every string longer than [`TEXT_LIMIT`] characters cut, saying its length.
/// Iterative: a reply may nest as deep as the plan made it.
fn cut_strings(mut value: Value) -> Value {
    let mut pending: Vec<&mut Value> = vec![&mut value];
    while let Some(node) = pending.pop() {
        match node {
            Value::String(text) => {
                if let Some((end, _)) = text.char_indices().nth(TEXT_LIMIT) {
                    *text = format!("{}… ({} bytes in all)", &text[..end], text.len());
                }
            }
            Value::Array(items) => pending.extend(items.iter_mut()),
            Value::Object(map) => pending.extend(map.values_mut()),
            _ => {}
        }
    }
    value
}

/// How `baton plan` got the run's plan, from the run directory's `planning/`: the task and
/// every revision (its source, the model's whole answer, what it was told before it, the
/// check's diagnostics, whether it was accepted), in order. Null for a run of `baton run`.
fn planning(run_dir: &Path) -> Value {
    let dir = run_dir.join(crate::session::PLANNING_DIR);
    if !dir.is_dir() {
        return Value::Null;
    }
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let mut revisions = Vec::new();
    for number in 1.. {
        let Some(text) = read(&format!("revision-{number}.json")) else {
            break;
        };
        let mut record: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if let Some(map) = record.as_object_mut() {
            let source = read(&format!("revision-{number}.py")).unwrap_or_default();
            map.insert("source".into(), Value::String(source));
        }
        revisions.push(cut_strings(record));
    }
    json!({
        "task": read("task.md").map(|task| cut(&task)),
        "revisions": revisions,
    })
}

/// The trace of the run in `run_dir`.
pub fn trace(run_dir: &Path) -> Result<Value, String> {
    crate::session::check_run_dir(run_dir)?;
    let recorded = Recorded::read(&run_dir.join(JOURNAL_FILE))?;
    let read_json = |name: &str| -> Value {
        std::fs::read_to_string(run_dir.join(name))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(Value::Null)
    };
    let output = std::fs::read_to_string(run_dir.join(OUTPUT_FILE)).unwrap_or_default();

    let mut branches: BTreeMap<String, Value> = BTreeMap::new();
    branches.insert(
        String::new(),
        json!({ "path": "", "parent": null, "calls": 0 }),
    );
    let mut calls = Vec::new();
    for ((path, seq), call) in recorded.calls() {
        let ok = call.result.as_ref().map(|r| r.get("ok").is_some());
        let mut request = call.request.clone();
        if let Some(map) = request.as_object_mut() {
            // The branch payload is the encoded callables: long, and not for people.
            map.remove("payload");
        }
        calls.push(json!({
            "path": path,
            "seq": seq,
            "call": call.call,
            "line": call.request.get("line"),
            // Set when the call came from a plan library module's frame, not the plan's.
            "file": call.request.get("file"),
            "at": call.at,
            "seconds": call.seconds,
            "request": cut_strings(request),
            "result": call.result.clone().map(cut_strings),
            "ok": ok,
        }));
        let entry = branches.entry(path.clone()).or_insert_with(|| {
            let parent = path
                .parse::<BranchId>()
                .ok()
                .and_then(|id| id.parent())
                .map(|parent| parent.to_string());
            json!({ "path": path, "parent": parent, "calls": 0 })
        });
        entry["calls"] = json!(entry["calls"].as_u64().unwrap_or(0) + 1);
        let end = call.at + call.seconds.unwrap_or(0.0);
        if entry["start"].as_f64().is_none_or(|s| call.at < s) {
            entry["start"] = json!(call.at);
        }
        if entry["end"].as_f64().is_none_or(|e| end > e) {
            entry["end"] = json!(end);
        }
        // A branch call's outcomes describe its children.
        if call.call == "branch" {
            let outcomes = call
                .result
                .as_ref()
                .and_then(|r| r["ok"]["outcomes"].as_array().cloned())
                .unwrap_or_default();
            let parent: BranchId = path.parse().unwrap_or_default();
            for outcome in outcomes {
                let index = outcome["index"].as_u64().unwrap_or(0);
                let child = parent.child(*seq, index as u32).to_string();
                let node = branches
                    .entry(child.clone())
                    .or_insert_with(|| json!({ "path": child, "parent": path, "calls": 0 }));
                for key in [
                    "label",
                    "ok",
                    "valid",
                    "score",
                    "chosen",
                    "cancelled",
                    "error",
                    "tokens",
                    "cost",
                    "steps",
                    "seconds",
                ] {
                    node[key] = outcome[key].clone();
                }
                node["branch_call"] = json!(seq);
            }
        }
    }
    Ok(json!({
        "run_dir": run_dir.display().to_string(),
        "planning": planning(run_dir),
        "figures": read_json("figures.json"),
        "result": read_json("result.json"),
        "output": cut(&output),
        "branches": branches.into_values().collect::<Vec<_>>(),
        "calls": calls,
    }))
}
