//! Fan-out: one plan that starts `BRANCHES` branches (`branch(work, n=BRANCHES, reduce="all")`),
//! each making `CALLS` script-provider `llm` calls with `LATENCY_MS` of simulated latency. Every
//! branch is a fresh instance of the module with the parent's globals and the callable copied in
//! and its value copied out; they share the runtime's workers while they await their calls.
//!
//! Prints wall time, per-branch overhead (wall time beyond one branch's latency, divided over
//! the branches), and the process's peak RSS.
//!
//!   cargo bench -p baton-host --bench fanout [-- BRANCHES]

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
from baton import branch, llm, inputs

def work():
    total = 0
    for i in range(10):
        total += len(llm(f"step {i} of the branch"))
    return total

outcomes = branch(work, n=inputs["n"], reduce="all")
print(sum([o.value for o in outcomes]), sum([o.steps for o in outcomes]))
"#;

fn main() {
    let branches = count_arg(1000);
    let (dir, client) = script_client(
        "fanout",
        &format!(
            r#"{{"rules": [{{"when": "step", "reply": "a reply of some length", "latency_ms": {LATENCY_MS}}}]}}"#
        ),
    );
    let prepared = prepare("fanout.py", PLAN);
    let budget = Budget::new(BudgetCaps::unlimited());
    let services = Services::new(serde_json::json!({ "n": branches }), Arc::new(|_: &str| {}))
        .with_llm(LlmAccess {
            client,
            budget: budget.clone(),
        });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let rss_before = peak_rss_mib();

    let started = Instant::now();
    let output = runtime.block_on(async {
        let (sender, mut receiver) = tokio::sync::mpsc::channel(16);
        let limits = Limits::default();
        let run = prepared.run_async(&limits, Arc::new(services), sender);
        tokio::pin!(run);
        let mut out = Vec::new();
        let report = loop {
            tokio::select! {
                report = &mut run => break report,
                Some(chunk) = receiver.recv() => out.extend(chunk),
            }
        };
        while let Ok(chunk) = receiver.try_recv() {
            out.extend(chunk);
        }
        let report = report.expect("the run ends cleanly");
        assert_eq!(
            report.outcome,
            RunOutcome::Success,
            "{}",
            String::from_utf8_lossy(&out)
        );
        out
    });
    let wall = started.elapsed();
    let expected = format!("{} {}\n", branches * 220, branches * CALLS);
    assert_eq!(String::from_utf8_lossy(&output), expected);
    assert_eq!(budget.spent().calls, (branches * CALLS) as u64);

    let latency = (CALLS as u64 * LATENCY_MS) as f64 / 1000.0;
    println!(
        "1 plan, {branches} branches x {CALLS} llm calls ({LATENCY_MS} ms simulated latency each), {} workers",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!("wall time:           {:.3} s", wall.as_secs_f64());
    println!(
        "overhead per branch: {:.3} ms (wall time beyond one branch's {latency:.2} s of latency, over {branches} branches)",
        (wall.as_secs_f64() - latency).max(0.0) * 1000.0 / branches as f64
    );
    println!(
        "peak RSS:            {:.1} MiB (before the run: {rss_before:.1} MiB)",
        peak_rss_mib()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
