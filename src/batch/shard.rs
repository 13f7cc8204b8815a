//! The shard contract: `baton batch shard MANIFEST --out ROOT --index I --shards N`, the one
//! command every engine runs (see the module documentation of `batch` for the layout of ROOT).

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use baton_host::config::{Capability, Config, WorkspaceMode};
use baton_host::session::{RunRecord, SessionError};
use baton_host::{HostError, RunOutcome};
use serde_json::{json, Value};

use super::claim::{Claims, Holder};
use super::manifest::{Manifest, RunEntry};
use super::{write_atomically, Layout};
use crate::{Plan, PlanSource, Runner};

/// How a shard went.
#[derive(Debug, Default)]
pub struct ShardReport {
    /// Runs that got their result in this process.
    pub ran: usize,
    /// Runs that already had one.
    pub skipped: usize,
    /// Runs another live process holds: not done here.
    pub held_elsewhere: Vec<String>,
    /// Runs that failed for a reason worth a retry (sandbox set-up, provider unreachable after
    /// its retries, disk full): id and why.
    pub infrastructure: Vec<(String, String)>,
}

impl ShardReport {
    /// Every run of the shard has a result.
    pub fn complete(&self) -> bool {
        self.held_elsewhere.is_empty() && self.infrastructure.is_empty()
    }
}

/// Runs shard `index` of `shards`: its runs `parallel` at a time.
pub fn run_shard(
    manifest: &Manifest,
    layout: &Layout,
    index: usize,
    shards: usize,
    parallel: usize,
    echo: &(dyn Fn(&str) + Sync),
) -> std::io::Result<ShardReport> {
    layout.prepare(manifest)?;
    let claims = Claims::start();
    let holder = Holder::me();
    let mut queue = VecDeque::new();
    for group in manifest.shard(index, shards) {
        let base = match group[0].workspace.as_deref() {
            Some(source) => Some(layout.base_of(source)?),
            None => None,
        };
        for entry in group {
            queue.push_back((entry.clone(), base.clone()));
        }
    }
    let queue = Mutex::new(queue);
    let report = Mutex::new(ShardReport::default());
    std::thread::scope(|scope| {
        for _ in 0..parallel.max(1) {
            scope.spawn(|| loop {
                let Some((entry, base)) =
                    queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front()
                else {
                    return;
                };
                let outcome = run_entry(&entry, base.as_deref(), layout, &claims, &holder);
                let mut report = report.lock().unwrap_or_else(|p| p.into_inner());
                match outcome {
                    Entry::Done(status) => {
                        report.ran += 1;
                        echo(&format!("{}: {status}", entry.id));
                    }
                    Entry::Skipped => report.skipped += 1,
                    Entry::Held => report.held_elsewhere.push(entry.id.clone()),
                    Entry::Infrastructure(why) => {
                        echo(&format!("{}: not run ({why}); worth a retry", entry.id));
                        report.infrastructure.push((entry.id.clone(), why));
                    }
                }
            });
        }
    });
    Ok(report.into_inner().unwrap_or_else(|p| p.into_inner()))
}

enum Entry {
    /// The run got its result (its status).
    Done(String),
    /// It had one already.
    Skipped,
    /// Another live process holds it.
    Held,
    /// It failed for a reason outside the plan.
    Infrastructure(String),
}

fn run_entry(
    entry: &RunEntry,
    base: Option<&Path>,
    layout: &Layout,
    claims: &Claims,
    holder: &Holder,
) -> Entry {
    if layout.result(&entry.id).exists() {
        return Entry::Skipped;
    }
    let claim = match claims.claim(&layout.claims(), &entry.id, holder) {
        Ok(Some(claim)) => claim,
        Ok(None) => return Entry::Held,
        Err(error) => return Entry::Infrastructure(format!("cannot claim the run: {error}")),
    };
    // The holder before us may have finished between our look and our claim.
    if layout.result(&entry.id).exists() {
        return Entry::Skipped;
    }
    let started = Instant::now();
    let record = match execute(entry, base, layout) {
        Ok(record) => record,
        Err(Failure::Infrastructure(why)) => {
            let _ = write_atomically(
                &layout.failure(&entry.id),
                &json!({"id": entry.id, "why": why}).to_string(),
            );
            return Entry::Infrastructure(why);
        }
    };
    let mut result = record;
    result["id"] = json!(entry.id);
    result["tags"] = json!(entry.tags);
    result["seconds"] = json!(started.elapsed().as_secs_f64());
    let status = result["status"].as_str().unwrap_or("?").to_string();
    if let Err(error) = write_atomically(&layout.result(&entry.id), &result.to_string()) {
        return Entry::Infrastructure(format!("cannot write the result: {error}"));
    }
    let _ = std::fs::remove_file(layout.failure(&entry.id));
    drop(claim);
    Entry::Done(status)
}

enum Failure {
    Infrastructure(String),
}

/// Runs (or resumes) one run and describes how it ended.
fn execute(entry: &RunEntry, base: Option<&Path>, layout: &Layout) -> Result<Value, Failure> {
    let infra = |what: String| Failure::Infrastructure(what);
    let run_dir = layout.run_dir(&entry.id);
    let resume = run_dir.join(baton_host::journal::JOURNAL_FILE).is_file()
        && run_dir.join("plan.wasm").is_file();
    if !resume && run_dir.exists() {
        // Set up but never started (a crash before its journal): start it afresh.
        std::fs::remove_dir_all(&run_dir)
            .map_err(|e| infra(format!("cannot clear {}: {e}", run_dir.display())))?;
    }
    let mut config = match &entry.config {
        Some(path) => Config::load(path).map_err(|e| infra(e.to_string()))?,
        None => Config::default(),
    };
    for grant in &entry.grants {
        if let Some(capability) = Capability::parse(grant) {
            config.grants.grant(capability);
        }
    }
    for (key, value) in &entry.limits {
        let number = value.as_f64().unwrap_or(0.0);
        match key.as_str() {
            "timeout" => config.limits.timeout_secs = number,
            "memory" => config.limits.memory_mib = number as u64,
            "fuel" => config.limits.fuel = number as u64,
            "max_llm_calls" => config.budget.max_calls = Some(number as u64),
            "max_tokens" => config.budget.max_tokens = Some(number as u64),
            "max_cost" => config.budget.max_cost_usd = Some(number),
            _ => {}
        }
    }
    if let Some(base) = base {
        config.workspace.dir = Some(base.to_path_buf());
        config.workspace.mode = WorkspaceMode::Isolated;
    }
    let provider = entry
        .llm
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e: baton_host::llm::ConfigError| infra(e.to_string()))?;
    let loaded = if resume {
        let module = std::fs::read(run_dir.join("plan.wasm"))
            .map_err(|e| infra(format!("cannot read the run's plan.wasm: {e}")))?;
        let kept = run_dir.join("plan.py");
        let source = std::fs::read_to_string(&kept).ok().map(|text| PlanSource {
            path: kept.display().to_string(),
            text,
        });
        Plan::from_module(module, source).map_err(|error| HostError::from(error).to_string())
    } else {
        match load_plan(&entry.plan)? {
            Ok(loaded) => loaded,
            Err(diagnostics) => {
                return Ok(json!({"status": "rejected", "diagnostics": diagnostics}));
            }
        }
    };
    let plan = match loaded {
        Ok(plan) => plan,
        // A module the host refuses: the run's own fault, a result.
        Err(refused) => return Ok(json!({"status": "error", "error": refused})),
    };
    let mut runner = Runner::new(config)
        .inputs(entry.inputs.clone())
        .runs_in(layout.root());
    runner = if resume {
        runner.resume(&run_dir)
    } else {
        runner.run_dir(&run_dir)
    };
    if let Some(provider) = provider {
        runner = runner.provider(provider);
    }
    let record = match runner.run(&plan, &mut std::io::sink()) {
        Ok(record) => record,
        Err(SessionError::Setup(why)) => return Err(infra(why)),
        // A capability not granted: the run's own fault, a result.
        Err(error) => return Ok(json!({"status": "error", "error": error.to_string()})),
    };
    describe(&record).map_err(infra)
}

/// A run's result record; `Err` for an ending outside the plan's control that a retry may
/// cure (a sandbox that could not be set up, a provider unreachable after its retries).
fn describe(record: &RunRecord) -> Result<Value, String> {
    let result: Value = record
        .result
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or(Value::Null);
    let (status, detail) = match &record.outcome {
        Ok(RunOutcome::Success) => ("success", Value::Null),
        Ok(RunOutcome::Exception {
            class,
            message,
            traceback,
        }) => {
            let last = traceback.lines().last().unwrap_or_default();
            let unreachable = class == "LLMError"
                && message.starts_with("model provider")
                && message.contains(" failed after ");
            if class == "SandboxError" || unreachable {
                return Err(last.to_string());
            }
            ("exception", json!(last))
        }
        Err(error @ baton_host::HostError::Limit { .. }) => ("limit", json!(error.to_string())),
        Err(error) => ("error", json!(error.to_string())),
    };
    Ok(json!({
        "status": status,
        "detail": detail,
        "result": result,
        "llm": record.figures["llm"],
        "run_dir": record.run_dir,
    }))
}

/// The plan: a `.wasm` validated, a `.py` checked and compiled (through the plan cache).
/// `Ok(Err(diagnostics))`: the check rejected it; `Ok(Ok(Err(why)))`: the host refused the
/// module.
#[allow(clippy::type_complexity)]
fn load_plan(path: &Path) -> Result<Result<Result<Plan, String>, String>, Failure> {
    let infra = |what: String| Failure::Infrastructure(what);
    if path.extension().is_some_and(|e| e == "wasm") {
        let module = std::fs::read(path)
            .map_err(|e| infra(format!("cannot read {}: {e}", path.display())))?;
        let plan = Plan::from_module(module, None).map_err(|e| HostError::from(e).to_string());
        return Ok(Ok(plan));
    }
    let text = crate::read_plan(path).map_err(|e| infra(e.to_string()))?;
    let shown = path.display().to_string();
    match Plan::from_source(shown, text) {
        Ok(plan) => Ok(Ok(Ok(plan))),
        Err(baton_compiler::CompileError::Rejected(report)) => Ok(Err(report.render_human())),
        Err(error) => Ok(Err(error.to_string())),
    }
}
