//! The journal's cost: one plan making `CALLS` script-provider `llm` calls (no latency), run
//! without a journal, with one (each call writes two lines), and replayed from that journal
//! (nothing runs; every result comes from the journal).
//!
//!   cargo bench -p baton-host --bench journal [-- CALLS]

use std::sync::Arc;
use std::time::{Duration, Instant};

use baton_host::journal::{Journal, JournaledCalls, Missing, Recorded};
mod support;

use baton_host::llm::{Budget, BudgetCaps};
use baton_host::services::{LlmAccess, Services};
use baton_host::{Limits, RunOutcome, SharedCalls};
use support::{count_arg, prepare, script_client};

fn main() {
    let calls = count_arg(10_000);
    let (dir, client) = script_client("journal", r#"{"rules": [{"when": "step", "reply": "ok"}]}"#);
    let plan = format!(
        "from baton import llm\nn = 0\nfor i in range({calls}):\n    n += len(llm(f\"step {{i}}\"))\nprint(n)\n"
    );
    let prepared = prepare("journal.py", &plan);
    let services = || -> Arc<Services> {
        Arc::new(
            Services::new(serde_json::json!({}), Arc::new(|_: &str| {})).with_llm(LlmAccess {
                client: client.clone(),
                budget: Budget::new(BudgetCaps::unlimited()),
            }),
        )
    };
    let limits = Limits {
        timeout: Duration::from_secs(600),
        ..Limits::default()
    };
    let expected = format!("{}\n", 2 * calls);
    let time = |calls_impl: SharedCalls| -> Duration {
        let mut out = Vec::new();
        let started = Instant::now();
        let report = prepared
            .run_with(&limits, calls_impl, &mut out)
            .expect("run");
        let elapsed = started.elapsed();
        assert_eq!(report.outcome, RunOutcome::Success);
        assert_eq!(String::from_utf8_lossy(&out), expected);
        elapsed
    };

    let plain = time(services());
    let path = dir.join("journal.jsonl");
    let journal = Arc::new(Journal::open(&path).unwrap());
    let journaled = time(Arc::new(JournaledCalls::new(
        services(),
        Some(journal.clone()),
        Arc::default(),
        Missing::RunLive,
    )));
    journal.sync();
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let started = Instant::now();
    let recorded = Arc::new(Recorded::read(&path).unwrap());
    let read = started.elapsed();
    assert_eq!(recorded.len(), calls);
    let replayed = time(Arc::new(JournaledCalls::new(
        Arc::new(Services::new(serde_json::json!({}), Arc::new(|_: &str| {}))),
        None,
        recorded,
        Missing::Stop,
    )));
    let per = |d: Duration| d.as_secs_f64() * 1e6 / calls as f64;
    println!("{calls} llm calls (script provider, no latency):");
    println!(
        "  without a journal  {:8.1} ms  ({:.1} us per call)",
        plain.as_secs_f64() * 1e3,
        per(plain)
    );
    println!(
        "  journaled          {:8.1} ms  ({:.1} us per call; {:.1} us of journaling per call; {} KiB written)",
        journaled.as_secs_f64() * 1e3,
        per(journaled),
        per(journaled) - per(plain),
        bytes >> 10
    );
    println!(
        "  replayed           {:8.1} ms  ({:.1} us per call), after reading the journal in {:.1} ms",
        replayed.as_secs_f64() * 1e3,
        per(replayed),
        read.as_secs_f64() * 1e3
    );
    let _ = std::fs::remove_dir_all(&dir);
}
