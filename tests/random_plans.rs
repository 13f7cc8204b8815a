//! Deterministic smoke test of the random plan generator behind the `compile_run` fuzz target
//! (fuzz/plan_gen.rs): seeded plans are compiled, validated and run in-process with the same
//! invariants as the fuzzer (fuzz/plan_run.rs): no internal compiler error, a valid module, and
//! a run that ends in success, a Python exception or a limit, never a trap.
//!
//! `PLAN_GEN_SEEDS=N` runs more seeds; `PLAN_GEN_VERBOSE=1` prints rejected plans.

#[path = "../fuzz/plan_gen.rs"]
mod plan_gen;
#[path = "../fuzz/plan_run.rs"]
mod plan_run;

use std::collections::BTreeMap;

use plan_run::Ending;

/// Each plan costs ~0.3 s in a debug build (Cranelift compiles the runtime with it).
const DEFAULT_SEEDS: u64 = 80;

#[test]
fn random_plans_compile_and_run_without_traps() {
    let seeds = std::env::var("PLAN_GEN_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEEDS);
    let mut endings: BTreeMap<Ending, usize> = BTreeMap::new();
    for seed in 0..seeds {
        let bytes = plan_gen::seeded_bytes(seed, 2048);
        let plan = plan_gen::generate(&bytes);
        let ending = plan_run::compile_and_run(&plan);
        *endings.entry(ending).or_default() += 1;
    }
    eprintln!("{seeds} plans: {endings:?}");
    let refused = endings.get(&Ending::Rejected).copied().unwrap_or(0)
        + endings.get(&Ending::Unsupported).copied().unwrap_or(0);
    // The generator writes well-formed plans: a refusal is a generator or checker bug, and must
    // stay rare.
    assert!(
        refused * 20 <= seeds as usize,
        "too many plans refused: {endings:?} (rerun with PLAN_GEN_VERBOSE=1)"
    );
    let ran = endings.get(&Ending::Success).copied().unwrap_or(0)
        + endings.get(&Ending::Exception).copied().unwrap_or(0);
    assert!(ran * 2 >= seeds as usize, "too few plans ran: {endings:?}");
}

/// The same plans with the collector's stress mode (a collection at every safe point, freed
/// memory poisoned): a plan that ran to its end prints exactly what it printed before, so a
/// value the collector does not see shows as a difference or a trap.
#[test]
fn random_plans_print_the_same_when_the_collector_runs_at_every_safe_point() {
    let seeds = std::env::var("PLAN_GEN_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEEDS / 2);
    let stress = baton_compiler::CompileOptions { gc_stress: 1 };
    // Collections cost fuel the plan's own limit did not plan for.
    let limits = baton_host::Limits {
        fuel: plan_run::LIMITS.fuel * 1000,
        timeout: std::time::Duration::from_secs(30),
        ..plan_run::LIMITS
    };
    let mut compared = 0;
    for seed in 0..seeds {
        let plan = plan_gen::generate(&plan_gen::seeded_bytes(seed, 2048));
        let (ending, stdout) =
            plan_run::compile_and_run_with(&plan, Default::default(), &plan_run::LIMITS);
        if !matches!(ending, Ending::Success | Ending::Exception) {
            continue;
        }
        let (stressed, stressed_stdout) = plan_run::compile_and_run_with(&plan, stress, &limits);
        assert_eq!(
            (stressed, String::from_utf8_lossy(&stressed_stdout)),
            (ending, String::from_utf8_lossy(&stdout)),
            "seed {seed} differs under gc stress:\n{plan}"
        );
        compared += 1;
    }
    assert!(
        compared * 4 >= seeds as usize,
        "only {compared} plans compared"
    );
}

/// The generator is a pure function of its bytes, and stops on any input.
#[test]
fn generator_is_deterministic_and_total() {
    for seed in 0..200 {
        let bytes = plan_gen::seeded_bytes(seed, 512);
        assert_eq!(plan_gen::generate(&bytes), plan_gen::generate(&bytes));
    }
    assert!(plan_gen::generate(&[]).contains("print("));
    assert!(plan_gen::generate(&[255; 4096]).contains("print("));
}
