//! The process-wide wasmtime [`Engine`] and the thread that drives its epoch.
//!
//! Configuration (see NOTES.md, "wasmtime"):
//! - Cranelift (Winch supports neither exceptions nor tail calls);
//! - exceptions (`try_table`, `throw`, `throw_ref`, `exnref`): `Config::wasm_exceptions(true)`,
//!   which needs wasmtime's `gc` cargo feature plus at least one collector (`gc-drc`: thrown
//!   exceptions are GC objects, and with the null collector a plan that catches exceptions in a
//!   loop would exhaust the GC heap);
//! - CPU limit: `consume_fuel(true)`, the fuel set per store ([`crate::Limits::fuel`]);
//! - wall-clock limit: `epoch_interruption(true)`; a background thread increments the epoch every
//!   [`EPOCH_TICK`] and each store's deadline is its timeout in ticks;
//! - stack: `max_wasm_stack` = [`MAX_WASM_STACK`], so ~1000 nested Python calls fit; wasm runs on
//!   a dedicated thread with [`RUN_THREAD_STACK`] of native stack, larger than `max_wasm_stack`,
//!   so exhausting the wasm stack is a `StackOverflow` trap, never a crash of the host.
//!   `async_stack_size` must be at least `max_wasm_stack` even though no store is async
//!   (`Engine::new` checks it unconditionally).
//!
//! Instance allocation: the default on-demand allocator, deliberately not the pooling allocator
//! (`InstanceAllocationStrategy::Pooling`). Measured with `cargo bench -p baton-host --bench run`
//! (`instantiate/*`, plan200's module, Store + `InstancePre::instantiate`, no call): on-demand
//! ~20 µs, pooling ~8 µs. The 12 µs saved is under 1% of a cached run (~2.8 ms, dominated by
//! validating the module and starting the run thread), while pooling would fix the largest memory
//! per slot at engine creation (but [`crate::Limits::memory_bytes`] is chosen per run), reserve
//! address space for every slot up front, and make instantiation fail when the pool is full
//! (needing a semaphore). Copy-on-write memory images (`memory_init_cow`, on by default) and one
//! `InstancePre` per module (`cache.rs`) already give most of the fast-instantiation recipe.
//! Revisit when many plans run concurrently in one process.

use std::sync::OnceLock;
use std::time::Duration;

use wasmtime::{Collector, Config, Engine, OptLevel, Strategy};

/// How often the epoch advances. The wall-clock timeout is rounded up to a whole number of ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// The most wasm stack a run may use (bytes).
pub const MAX_WASM_STACK: usize = 32 << 20;

/// The native stack of the thread that runs wasm (bytes). Must exceed [`MAX_WASM_STACK`] with
/// room left for host calls.
pub const RUN_THREAD_STACK: usize = 64 << 20;

/// The configuration every Baton engine uses.
pub fn config() -> Config {
    let mut config = Config::new();
    config
        .strategy(Strategy::Cranelift)
        .cranelift_opt_level(OptLevel::Speed)
        .wasm_exceptions(true)
        .wasm_tail_call(true)
        .wasm_multi_value(true)
        .wasm_bulk_memory(true)
        .wasm_reference_types(true)
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        .async_stack_size(MAX_WASM_STACK + (1 << 20))
        .collector(Collector::DeferredReferenceCounting);
    config
}

static ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();

/// The shared engine, created on first use together with its epoch ticker thread.
///
/// Errors (a configuration this build of wasmtime cannot honour) are reported as text, the same
/// on every call.
pub fn engine() -> Result<&'static Engine, String> {
    ENGINE
        .get_or_init(|| {
            let engine = Engine::new(&config()).map_err(|error| format!("{error:#}"))?;
            let ticker = engine.clone();
            std::thread::Builder::new()
                .name("baton-epoch".to_string())
                .spawn(move || loop {
                    std::thread::sleep(EPOCH_TICK);
                    ticker.increment_epoch();
                })
                .map_err(|error| format!("cannot start the epoch thread: {error}"))?;
            Ok(engine)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The epoch deadline, in ticks, for a wall-clock `timeout`: rounded up, plus one tick because
/// the current tick is already partly over.
pub fn deadline_ticks(timeout: Duration) -> u64 {
    let tick = EPOCH_TICK.as_nanos().max(1);
    let ticks = timeout.as_nanos().div_ceil(tick);
    u64::try_from(ticks).unwrap_or(u64::MAX).saturating_add(1)
}
