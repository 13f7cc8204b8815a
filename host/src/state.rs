//! What a store carries ([`HostState`]): its limiter, the plan's output channel, the host calls
//! behind it, what starting branches needs ([`BranchContext`]), and the host-call state of the
//! instance (call numbers, the waiting reply, the result); and [`new_store`], which sets up a
//! store with an instance's limits.

use std::sync::Arc;

use tokio::sync::mpsc;
use wasmtime::{Engine, Instance, ResourceLimiter, Store, StoreLimits, StoreLimitsBuilder};

use crate::branch::activity::Activity;
use crate::branch_id::BranchId;
use crate::calls::{CallKind, SharedCalls};
use crate::error::HostError;
use crate::imports::{MAX_TABLES, MAX_TABLE_ELEMENTS};
use crate::instantiate::Instantiation;
use crate::limits::Limits;
use crate::run_limits::RunAccount;

/// Bytes per message on the output channel.
pub const OUTPUT_CHUNK: usize = 64 << 10;
/// Messages the output channel holds before `print` blocks.
pub const OUTPUT_CHANNEL_CHUNKS: usize = 16;

/// What a store needs to start branches: the module, the limits, and where it sits.
pub(crate) struct BranchContext {
    pub(crate) instantiation: Instantiation<HostState>,
    pub(crate) limits: Limits,
    /// This instance's name (the root for the run itself).
    pub(crate) id: BranchId,
    /// The run's run-wide accounts, shared by all its instances.
    pub(crate) run: Arc<RunAccount>,
}

/// The store's limiter: wasmtime's [`StoreLimits`], remembering whether it refused a growth so
/// that a trap after a refused `memory.grow` is reported as the memory limit; and the store's
/// share of the run-wide memory account, given back when the store is dropped.
struct Limiter {
    inner: StoreLimits,
    refused: bool,
    run: Arc<RunAccount>,
    /// Bytes of memory this store has taken from the run-wide account.
    taken: usize,
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let allowed = self.inner.memory_growing(current, desired, maximum)?;
        self.refused |= !allowed;
        if allowed {
            // Crossing the run-wide account traps: the host's bound, not the plan's to catch.
            let more = desired.saturating_sub(current);
            self.run.grow_memory(more)?;
            self.taken += more;
        }
        Ok(allowed)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let allowed = self.inner.table_growing(current, desired, maximum)?;
        self.refused |= !allowed;
        Ok(allowed)
    }

    fn instances(&self) -> usize {
        self.inner.instances()
    }

    fn tables(&self) -> usize {
        self.inner.tables()
    }

    fn memories(&self) -> usize {
        self.inner.memories()
    }
}

impl Drop for Limiter {
    fn drop(&mut self) {
        self.run.release_memory(self.taken);
    }
}

/// What a store carries.
pub(crate) struct HostState {
    limiter: Limiter,
    pub(crate) output: mpsc::Sender<Vec<u8>>,
    pub(crate) calls: SharedCalls,
    /// What `baton.branch` needs to start instances of this module.
    pub(crate) branching: Arc<BranchContext>,
    /// A branch's record of its host calls (steps, trace, stuck detection); `None` for the run.
    pub(crate) activity: Option<Arc<Activity>>,
    /// The number the instance's next journaled host call gets (`calls.rs`, `branch_id.rs`).
    next_seq: u64,
    /// The reply of the last host call, until the runtime fetches it with `baton.reply`.
    pub(crate) reply: Option<Vec<u8>>,
    /// The run's result (JSON text), when the plan's `main` returned (a branch's: its value).
    pub(crate) result: Option<String>,
    /// The instance, once made: where a limit stopped it is read from its frame stack.
    pub(crate) instance: Option<Instance>,
}

impl HostState {
    /// The number of a call of `kind` this instance is making: journaled calls take the next
    /// number, the others see it without taking it.
    pub(crate) fn number(&mut self, kind: CallKind) -> u64 {
        let seq = self.next_seq;
        if kind.is_journaled() {
            self.next_seq += 1;
        }
        seq
    }

    /// Whether the limiter refused a memory or table growth (a trap after one is reported as
    /// the memory limit, `error::classify`).
    pub(crate) fn growth_refused(&self) -> bool {
        self.limiter.refused
    }
}

/// A fresh store with the run's limits and fuel (where the engine's code meters it); wasm
/// yields to the async runtime at every epoch tick.
pub(crate) fn new_store(
    engine: &Engine,
    limits: &Limits,
    output: mpsc::Sender<Vec<u8>>,
    calls: SharedCalls,
    branching: Arc<BranchContext>,
    activity: Option<Arc<Activity>>,
) -> Result<Store<HostState>, HostError> {
    let store_limits = StoreLimitsBuilder::new()
        .memory_size(limits.memory_bytes)
        .table_elements(MAX_TABLE_ELEMENTS)
        // The runtime and the plan module (docs/abi.md, "The module"); only the runtime defines
        // memory.
        .instances(2)
        .tables(MAX_TABLES as usize)
        .memories(1)
        .trap_on_grow_failure(false)
        .build();
    let run = branching.run.clone();
    let mut store = Store::new(
        engine,
        HostState {
            limiter: Limiter {
                inner: store_limits,
                refused: false,
                run: run.clone(),
                taken: 0,
            },
            output,
            calls,
            branching,
            activity,
            next_seq: 0,
            reply: None,
            result: None,
            instance: None,
        },
    );
    store.limiter(|state| &mut state.limiter);
    if crate::engine::compile_profile().meters_fuel() {
        store
            .set_fuel(limits.fuel)
            .map_err(|error| HostError::Engine(format!("cannot set fuel: {error:#}")))?;
    }
    store.set_epoch_deadline(1);
    // Every tick: yield to the async runtime, or trap when the run was stopped by a run-wide
    // limit (in another instance, or in a host call of this one).
    store.epoch_deadline_callback(move |_| match run.check() {
        Ok(()) => Ok(wasmtime::UpdateDeadline::Yield(1)),
        Err(stopped) => Err(stopped.into()),
    });
    Ok(store)
}
