//! The engine settings that decide what compiled code looks like: one function, used by the
//! host's engine ([`crate::engine`]) and by the build script (`host/build.rs`, which includes
//! this file), so the runtime module precompiled when Baton is built loads into the engine that
//! runs it.
//!
//! wasmtime refuses a precompiled module whose engine differed in any setting that changes
//! compiled code (target, wasm features, fuel, epochs, stack limits, the collector, memory
//! reservations, inlining); it ignores Cranelift's optimisation level and register allocator.
//! The runtime precompiled with [`CompileProfile::Optimised`] therefore serves only engines that
//! inline and meter fuel as that profile does: an engine compiling with another profile compiles
//! the runtime itself, once (the module cache keeps it). Settings that do not change code (the
//! instance allocator, the incremental compilation cache, a profiler) are the engine's own, in
//! `engine.rs`.
//!
//! This file depends on nothing but `std` and `wasmtime`, since the build script compiles it too.

use wasmtime::{Collector, Config, Inlining, OptLevel, RegallocAlgorithm, Strategy};

/// The most wasm stack a run may use (bytes).
pub const MAX_WASM_STACK: usize = 32 << 20;

/// How Cranelift spends its effort: on the code ([`CompileProfile::Optimised`], what every
/// run uses) or on compiling quickly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CompileProfile {
    /// `OptLevel::Speed`, the backtracking register allocator, and inlining within a module.
    #[default]
    Optimised,
    /// No optimisation passes, the single-pass register allocator and no inlining: modules
    /// compile about twice as fast and run slower. For tools that compile many short-lived
    /// plans, such as the differential tester, where compiling dominates; the semantics are
    /// the same.
    Fast,
    /// [`CompileProfile::Fast`] without fuel metering: the code counts no instructions, so a
    /// run's CPU limit ([`crate::Limits::fuel`]) is not enforced and only the wall-clock
    /// timeout ends a run that does not finish. Fuel accounting is a quarter of what Cranelift
    /// does for a plan's code (a counter updated in every block, saved and reloaded around
    /// every call: the differential tester's generated plans, 3.75 -> 2.80 s of compiling for
    /// 30 plans of ~800 lines); for a tool whose plans end by construction.
    FastUnmetered,
}

impl CompileProfile {
    /// Whether code compiled with this profile meters fuel (enforces [`crate::Limits::fuel`]).
    pub fn meters_fuel(self) -> bool {
        self != CompileProfile::FastUnmetered
    }
}

/// The configuration that decides compiled code (see the module docs), for `profile`.
pub fn code_config(profile: CompileProfile) -> Config {
    let mut config = Config::new();
    config
        .strategy(Strategy::Cranelift)
        .cranelift_opt_level(match profile {
            CompileProfile::Optimised => OptLevel::Speed,
            CompileProfile::Fast | CompileProfile::FastUnmetered => OptLevel::None,
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
        .consume_fuel(profile.meters_fuel())
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        .async_stack_size(MAX_WASM_STACK + (1 << 20))
        .collector(Collector::DeferredReferenceCounting)
        // Inlining small callees within a module: the runtime is hundreds of small functions
        // (a value's type id, a chunk's kind, a size class) that call each other on every
        // path, and a call costs more than most of them. Measured on `bench/` (stop 38): 20-30%
        // less time on the plans that work the runtime hardest (json_roundtrip_loop 402 -> 310
        // ms, agent_output_loop 164 -> 119 ms; BENCHMARKS.md). It costs compile time (the
        // translated functions are kept until the inlining is done, and a plan's own calls are
        // inlined too), which the runtime pays once per build (precompiled) and a new plan pays
        // in milliseconds; the fast profile, for tools that compile thousands of plans, leaves
        // it off.
        .compiler_inlining(match profile {
            CompileProfile::Optimised => Inlining::Yes,
            CompileProfile::Fast | CompileProfile::FastUnmetered => Inlining::No,
        });
    if profile != CompileProfile::Optimised {
        config.cranelift_regalloc_algorithm(RegallocAlgorithm::SinglePass);
    }
    config
}
