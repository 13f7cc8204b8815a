//! The invariants of compiling and running a generated plan (fuzz/plan_gen.rs), shared by
//! `#[path]` between the `compile_run` fuzz target and `tests/random_plans.rs`.
//!
//! - `compile_source` never panics and never returns `CompileError::Assembly` (a compiler bug);
//!   `Rejected` (the checker refused the plan) and `Unsupported` are allowed but counted;
//! - the module always passes `validate_module`;
//! - `run_module` never panics and ends in `Ok(Success)`, `Ok(Exception { .. })` or
//!   `Err(HostError::Limit { .. })`; anything else (a `Trap` above all) is a runtime bug.
//!
//! A broken invariant panics with the plan's text, so the crash is reproducible by hand.

#![allow(dead_code)]

use std::time::Duration;

use baton_compiler::CompileError;
use baton_host::{HostError, Limits, RunOutcome};

/// The limits of one generated plan's run.
pub const LIMITS: Limits = Limits {
    fuel: 20_000_000,
    timeout: Duration::from_secs(1),
    memory_bytes: 32 << 20,
    run_wide: baton_host::RunWideLimits::DEFAULT,
};

/// How one plan ended (for statistics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    Rejected,
    Unsupported,
    Success,
    Exception,
    Limit,
}

/// Compiles, validates and runs `plan`, panicking (with the plan) on a broken invariant.
pub fn compile_and_run(plan: &str) -> Ending {
    compile_and_run_with(plan, baton_compiler::CompileOptions::default(), &LIMITS).0
}

/// [`compile_and_run`] with compile options and limits; also returns what the plan printed.
pub fn compile_and_run_with(
    plan: &str,
    options: baton_compiler::CompileOptions,
    limits: &Limits,
) -> (Ending, Vec<u8>) {
    let compiled =
        std::panic::catch_unwind(|| baton_compiler::compile_source_with("fuzz.py", plan, options))
            .unwrap_or_else(|_| panic!("compile_source panicked on this plan:\n{plan}"));
    let compiled = match compiled {
        Ok(compiled) => compiled,
        Err(CompileError::Rejected(report)) => {
            if std::env::var_os("PLAN_GEN_VERBOSE").is_some() {
                eprintln!("rejected plan:\n{plan}\n{report:?}");
            }
            return (Ending::Rejected, Vec::new());
        }
        Err(CompileError::Unsupported { error, .. }) => {
            if std::env::var_os("PLAN_GEN_VERBOSE").is_some() {
                eprintln!("unsupported: {error}\n{plan}");
            }
            return (Ending::Unsupported, Vec::new());
        }
        Err(error @ CompileError::Assembly(_)) => {
            panic!("internal compiler error: {error}\n--- plan ---\n{plan}")
        }
    };
    if let Err(error) = baton_host::validate_module(&compiled.wasm) {
        panic!("the module does not validate: {error}\n--- plan ---\n{plan}");
    }
    let mut stdout = Vec::new();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        baton_host::run_module(&compiled.wasm, limits, &mut stdout)
    }))
    .unwrap_or_else(|_| panic!("run_module panicked on this plan:\n{plan}"));
    let ending = match result {
        Ok(RunOutcome::Success) => Ending::Success,
        Ok(RunOutcome::Exception { traceback, .. }) => {
            assert!(
                traceback.ends_with('\n'),
                "a traceback must end with a newline: {traceback:?}\n--- plan ---\n{plan}"
            );
            Ending::Exception
        }
        Err(HostError::Limit { .. }) => Ending::Limit,
        Err(error) => panic!(
            "the run ended with {error:?}\n--- output ---\n{}\n--- plan ---\n{plan}",
            String::from_utf8_lossy(&stdout)
        ),
    };
    (ending, stdout)
}
