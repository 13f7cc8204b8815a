//! Fuzzes the compiler and the runtime end to end: the input bytes drive a generator of random
//! well-formed plans (fuzz/plan_gen.rs); each plan is compiled, its module validated and run
//! under small limits (fuel 20 million, 1 s, 32 MiB). Invariants (fuzz/plan_run.rs): no
//! internal compiler error, no panic, a valid module, and a run that ends in success, a Python
//! exception or a limit — a wasm trap is a runtime bug. A broken invariant panics with the plan.
//!
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run compile_run -s none -- -timeout=20` (see fuzz/README.md).
//! `tests/random_plans.rs` runs the same generator and invariants on seeded inputs in CI.

#![no_main]

use std::sync::atomic::{AtomicU64, Ordering};

use libfuzzer_sys::fuzz_target;

#[path = "../plan_gen.rs"]
mod plan_gen;
#[path = "../plan_run.rs"]
mod plan_run;

use plan_run::Ending;

static RUNS: AtomicU64 = AtomicU64::new(0);
static REFUSED: AtomicU64 = AtomicU64::new(0);
static SUCCESS: AtomicU64 = AtomicU64::new(0);
static EXCEPTION: AtomicU64 = AtomicU64::new(0);
static LIMIT: AtomicU64 = AtomicU64::new(0);

fuzz_target!(|data: &[u8]| {
    let plan = plan_gen::generate(data);
    if std::env::var_os("PLAN_GEN_PRINT").is_some() {
        eprintln!("--- plan ---\n{plan}");
    }
    let counter = match plan_run::compile_and_run(&plan) {
        Ending::Rejected | Ending::Unsupported => &REFUSED,
        Ending::Success => &SUCCESS,
        Ending::Exception => &EXCEPTION,
        Ending::Limit => &LIMIT,
    };
    counter.fetch_add(1, Ordering::Relaxed);
    let runs = RUNS.fetch_add(1, Ordering::Relaxed) + 1;
    if runs.is_power_of_two() || runs % 5000 == 0 {
        eprintln!(
            "compile_run: {runs} plans: {} success, {} exception, {} limit, {} refused by the checker/compiler",
            SUCCESS.load(Ordering::Relaxed),
            EXCEPTION.load(Ordering::Relaxed),
            LIMIT.load(Ordering::Relaxed),
            REFUSED.load(Ordering::Relaxed),
        );
    }
});
