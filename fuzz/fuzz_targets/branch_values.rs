//! Fuzzes the value encoding between instances (runtime/wat/codec.wat): the input bytes drive
//! a generator of nested values (fuzz/value_gen.rs) that a plan copies into a branch and back;
//! the run must succeed and print that every value came back with the same repr and that a
//! cycle survived. Anything else — a trap, an exception, a difference — panics with the plan.
//!
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run branch_values -s none -- -timeout=20` (see
//! fuzz/README.md). `tests/branching.rs` runs the same generator on seeded inputs in CI.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../value_gen.rs"]
mod value_gen;

fuzz_target!(|data: &[u8]| {
    let plan = value_gen::plan(data);
    let compiled = baton_compiler::compile_source("values.py", &plan)
        .unwrap_or_else(|error| panic!("the plan does not compile: {error}\n{plan}"));
    let mut out = Vec::new();
    let outcome = baton_host::run_module(&compiled.wasm, &baton_host::Limits::default(), &mut out)
        .unwrap_or_else(|error| panic!("the run failed: {error}\n{plan}"));
    assert_eq!(outcome, baton_host::RunOutcome::Success, "{plan}");
    assert_eq!(String::from_utf8_lossy(&out), value_gen::EXPECTED, "{plan}");
});
