//! Many plans at once in one process: `PLANS` runs of the same compiled plan, each making
//! `CALLS` script-provider `llm` calls with `LATENCY_MS` of simulated latency, on a tokio
//! runtime with one worker per core. Wasm yields at every epoch tick and awaits its host calls,
//! so the runs share the workers instead of holding a thread each.
//!
//! Prints wall time, per-run overhead (wall time beyond the simulated latency, divided over the
//! runs), and the process's peak RSS.
//!
//!   cargo bench -p baton-host --bench concurrent [-- PLANS]

use std::sync::Arc;
use std::time::Instant;

mod support;

use baton_host::llm::{Budget, BudgetCaps};
use baton_host::services::{LlmAccess, Services};
use baton_host::{Limits, RunOutcome};
use support::{count_arg, peak_rss_mib, prepare, script_client};

const CALLS: usize = 10;
const LATENCY_MS: u64 = 10;

const PLAN: &str = r#"
from baton import llm
total = 0
for i in range(10):
    total += len(llm(f"step {i} of the plan"))
print(total)
"#;

fn main() {
    let plans = count_arg(1000);
    let (dir, client) = script_client(
        "concurrent",
        &format!(
            r#"{{"rules": [{{"when": "step", "reply": "a reply of some length", "latency_ms": {LATENCY_MS}}}]}}"#
        ),
    );
    let prepared = Arc::new(prepare("concurrent.py", PLAN));
    let budget = Budget::new(BudgetCaps::unlimited());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let rss_before = peak_rss_mib();

    let started = Instant::now();
    let outputs = runtime.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..plans {
            let prepared = prepared.clone();
            let services =
                Services::new(serde_json::json!({}), Arc::new(|_: &str| {})).with_llm(LlmAccess {
                    client: client.clone(),
                    budget: budget.child(BudgetCaps::unlimited()),
                });
            tasks.spawn(async move {
                let (sender, mut receiver) = tokio::sync::mpsc::channel(16);
                let report = prepared
                    .run_async(&Limits::default(), Arc::new(services), sender)
                    .await
                    .expect("the run ends cleanly");
                assert_eq!(report.outcome, RunOutcome::Success);
                let mut out = Vec::new();
                while let Ok(chunk) = receiver.try_recv() {
                    out.extend(chunk);
                }
                out
            });
        }
        let mut outputs = Vec::new();
        while let Some(output) = tasks.join_next().await {
            outputs.push(output.expect("no run panicked"));
        }
        outputs
    });
    let wall = started.elapsed();
    assert_eq!(outputs.len(), plans);
    assert!(
        outputs.iter().all(|out| out == b"220\n"),
        "every run prints 220"
    );
    let spent = budget.spent();
    assert_eq!(spent.calls, (plans * CALLS) as u64);

    let latency = (CALLS as u64 * LATENCY_MS) as f64 / 1000.0;
    println!(
        "{plans} plans x {CALLS} llm calls ({LATENCY_MS} ms simulated latency each), {} workers",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!("wall time:        {:.3} s", wall.as_secs_f64());
    println!(
        "overhead per run: {:.3} ms (wall time beyond one run's {latency:.2} s of latency, over {plans} runs)",
        (wall.as_secs_f64() - latency).max(0.0) * 1000.0 / plans as f64
    );
    println!(
        "peak RSS:         {:.1} MiB (before the runs: {rss_before:.1} MiB)",
        peak_rss_mib()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
