//! `baton batch collect ROOT`: what the finished runs produced, in the formats evaluations use,
//! at any point of the batch.
//!
//! - `ROOT/preds.jsonl`: one line per finished run in SWE-bench's prediction format:
//!   `instance_id` (the run's `instance_id` tag, else its id), `model_name_or_path` (its
//!   `model` tag, else "baton"), `model_patch` (the run's workspace changes, `changes.patch`).
//! - `ROOT/trajectories/ID/ID.traj.json`: a mini-swe-agent-style trajectory
//!   (`trajectory_format` "mini-swe-agent-1.1"): the messages of the run's model calls, from
//!   its journal, each request's messages then the reply.
//! - `ROOT/summary.json`: per tag (`variant=a`, `seed=3`, and `all`), runs, how they ended,
//!   the pass rate where plans return one (`main` returning a bool, or a dict with a bool
//!   `passed` or `resolved`), model calls, tokens, cost and run time.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{write_atomically, Layout};

/// What `collect` wrote.
#[derive(Debug, Default)]
pub struct Collected {
    pub predictions: usize,
    pub trajectories: usize,
}

pub fn collect(layout: &Layout) -> std::io::Result<Collected> {
    let runs = layout.runs()?;
    let mut collected = Collected::default();
    let mut predictions = String::new();
    let mut groups: BTreeMap<String, Figures> = BTreeMap::new();
    for run in &runs {
        let id = run["id"].as_str().unwrap_or_default();
        let Some(result) = layout.read_result(id) else {
            continue;
        };
        let run_dir = layout.run_dir(id);
        let tags = &run["tags"];
        let patch = std::fs::read_to_string(run_dir.join("changes.patch")).unwrap_or_default();
        let line = json!({
            "instance_id": tags["instance_id"].as_str().unwrap_or(id),
            "model_name_or_path": tags["model"].as_str().unwrap_or("baton"),
            "model_patch": patch,
            "run_id": id,
        });
        predictions.push_str(&line.to_string());
        predictions.push('\n');
        collected.predictions += 1;
        if let Ok(trajectory) = trajectory(id, &run_dir, &result) {
            let path = layout
                .root()
                .join("trajectories")
                .join(id)
                .join(format!("{id}.traj.json"));
            write_atomically(&path, &serde_json::to_string_pretty(&trajectory)?)?;
            collected.trajectories += 1;
        }
        let mut keys = vec!["all".to_string()];
        if let Some(map) = tags.as_object() {
            for (key, value) in map {
                let value = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_string);
                keys.push(format!("{key}={value}"));
            }
        }
        for key in keys {
            groups.entry(key).or_default().add(&result);
        }
    }
    write_atomically(&layout.root().join("preds.jsonl"), &predictions)?;
    let summary: BTreeMap<&String, Value> = groups.iter().map(|(k, f)| (k, f.json())).collect();
    write_atomically(
        &layout.root().join("summary.json"),
        &serde_json::to_string_pretty(&summary)?,
    )?;
    Ok(collected)
}

/// A mini-swe-agent-style trajectory of a run, from its journal.
fn trajectory(id: &str, run_dir: &std::path::Path, result: &Value) -> Result<Value, String> {
    let trace = baton_host::trace::trace(run_dir)?;
    let mut messages = Vec::new();
    let mut calls = 0u64;
    for call in trace["calls"].as_array().map_or(&[][..], Vec::as_slice) {
        if call["call"] != "llm" {
            continue;
        }
        calls += 1;
        let request = &call["request"];
        if let Some(system) = request["system"].as_str() {
            messages.push(json!({"role": "system", "content": system}));
        }
        match &request["prompt"] {
            Value::String(text) => messages.push(json!({"role": "user", "content": text})),
            Value::Array(items) => messages.extend(items.iter().cloned()),
            _ => {}
        }
        if let Some(reply) = call["result"]["ok"].as_str() {
            messages.push(json!({"role": "assistant", "content": reply}));
        }
    }
    Ok(json!({
        "trajectory_format": "mini-swe-agent-1.1",
        "instance_id": id,
        "info": {
            "exit_status": result["status"],
            "submission": std::fs::read_to_string(run_dir.join("changes.patch")).unwrap_or_default(),
            "model_stats": {
                "instance_cost": result["llm"]["cost_usd"],
                "api_calls": calls,
            },
        },
        "messages": messages,
    }))
}

#[derive(Default)]
struct Figures {
    runs: u64,
    by_status: BTreeMap<String, u64>,
    judged: u64,
    passed: u64,
    calls: u64,
    tokens: u64,
    cost: f64,
    seconds: f64,
}

impl Figures {
    fn add(&mut self, result: &Value) {
        self.runs += 1;
        *self
            .by_status
            .entry(result["status"].as_str().unwrap_or("?").to_string())
            .or_default() += 1;
        let returned = &result["result"];
        let verdict = returned
            .as_bool()
            .or_else(|| returned["passed"].as_bool())
            .or_else(|| returned["resolved"].as_bool());
        if let Some(passed) = verdict {
            self.judged += 1;
            self.passed += u64::from(passed);
        }
        self.calls += result["llm"]["calls"].as_u64().unwrap_or(0);
        self.tokens += result["llm"]["input_tokens"].as_u64().unwrap_or(0)
            + result["llm"]["output_tokens"].as_u64().unwrap_or(0);
        self.cost += result["llm"]["cost_usd"].as_f64().unwrap_or(0.0);
        self.seconds += result["seconds"].as_f64().unwrap_or(0.0);
    }

    fn json(&self) -> Value {
        json!({
            "runs": self.runs,
            "by_status": self.by_status,
            "pass_rate": (self.judged > 0).then(|| self.passed as f64 / self.judged as f64),
            "judged": self.judged,
            "llm_calls": self.calls,
            "tokens": self.tokens,
            "cost_usd": self.cost,
            "run_seconds": self.seconds,
        })
    }
}
