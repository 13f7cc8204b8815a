//! The engine settings that decide what compiled code looks like: one function, used by the
//! host's engine ([`crate::engine`]) and by the build script (`host/build.rs`, which includes
//! this file), so the runtime module precompiled when Baton is built loads into the engine that
//! runs it.
//!
//! wasmtime refuses a precompiled module whose engine differed in any setting that changes
//! compiled code (target, wasm features, fuel, epochs, stack limits, the collector, memory
//! reservations); it ignores Cranelift's optimisation level and register allocator, so the
//! runtime precompiled with [`CompileProfile::Optimised`] also serves an engine compiling with
//! [`CompileProfile::Fast`]. Settings that do not change code (the instance allocator, the
//! incremental compilation cache, a profiler) are the engine's own, in `engine.rs`.
//!
//! This file depends on nothing but `std` and `wasmtime`, since the build script compiles it too.

use wasmtime::{Collector, Config, OptLevel, RegallocAlgorithm, Strategy};

/// The most wasm stack a run may use (bytes).
pub const MAX_WASM_STACK: usize = 32 << 20;

/// How Cranelift spends its effort: on the code ([`CompileProfile::Optimised`], what every
/// run uses) or on compiling quickly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CompileProfile {
    /// `OptLevel::Speed` and the backtracking register allocator.
    #[default]
    Optimised,
    /// No optimisation passes and the single-pass register allocator: modules compile about
    /// twice as fast and run slower. For tools that compile many short-lived plans, such as
    /// the differential tester, where compiling dominates; the semantics are the same.
    Fast,
}

/// The configuration that decides compiled code (see the module docs), for `profile`.
pub fn code_config(profile: CompileProfile) -> Config {
    let mut config = Config::new();
    config
        .strategy(Strategy::Cranelift)
        .cranelift_opt_level(match profile {
            CompileProfile::Optimised => OptLevel::Speed,
            CompileProfile::Fast => OptLevel::None,
        })
        // Exactly the proposals `imports::validation_features` accepts; the rest off, whatever
        // wasmtime's defaults or other crates' cargo features would turn on.
        .wasm_exceptions(true)
        .wasm_tail_call(true)
        .wasm_multi_value(true)
        .wasm_bulk_memory(true)
        .wasm_reference_types(true)
        .wasm_simd(false)
        .wasm_relaxed_simd(false)
        // (threads and shared memory: wasmtime's `threads` cargo feature is not built in)
        .wasm_memory64(false)
        .wasm_multi_memory(false)
        .wasm_function_references(false)
        .wasm_gc(false)
        .wasm_wide_arithmetic(false)
        .wasm_custom_page_sizes(false)
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        .async_stack_size(MAX_WASM_STACK + (1 << 20))
        .collector(Collector::DeferredReferenceCounting);
    if profile == CompileProfile::Fast {
        config.cranelift_regalloc_algorithm(RegallocAlgorithm::SinglePass);
    }
    config
}
