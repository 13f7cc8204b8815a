//! Running a module: [`run_module`], and [`Prepared`]'s ways to run (blocking, or inside an
//! async runtime the caller drives), each under [`Limits`] with the plan's output streamed to
//! the caller.
//!
//! Order of events in [`run_module`]:
//! 1. [`validate_module`](crate::validate_module) refuses any module that imports something not
//!    on the allowlist — before wasmtime compiles, loads or instantiates it;
//! 2. the module is compiled with the shared [`engine`](crate::engine::engine), or found in the
//!    compiled-module cache ([`ModuleCache`], `cache.rs`), and its imports are resolved once
//!    against the host calls (`InstancePre`, `linker.rs`) — steps 1 and 2 are
//!    [`ModuleCache::prepare`];
//! 3. per run ([`Prepared::run`]), a fresh `Store` (`state.rs`) gets the memory cap (each
//!    memory, and the GC heap that holds thrown exceptions, may grow to
//!    [`Limits::memory_bytes`]; a denied `memory.grow` returns -1 so the runtime raises
//!    MemoryError), at most one instance and one memory, the fuel ([`Limits::fuel`]) and the
//!    epoch deadline ([`Limits::timeout`]);
//! 4. the host calls treat every pointer, length and request as hostile (`guest_memory.rs`:
//!    bounds-, UTF-8- and JSON-checked; bad input traps with a clear message, never a panic);
//! 5. the module is instantiated and `baton_main` called asynchronously (`execute.rs`,
//!    [`Prepared::run_async`]): wasm runs on a fiber and yields at every epoch tick, host calls
//!    await their I/O, and the wall-clock limit is a timeout around the whole run;
//! 6. `baton_main`'s result: 0 is [`RunOutcome::Success`]; anything else is the address of a
//!    str object (docs/abi.md) whose text becomes [`RunOutcome::Exception`]. Whatever else
//!    ended the instance becomes a [`HostError`] (`error.rs`).
//!
//! The caller's `stdout` stays on the calling thread: `print` sends its bytes to it through a
//! bounded channel (at most [`OUTPUT_CHANNEL_CHUNKS`] chunks of
//! [`OUTPUT_CHUNK`](crate::state::OUTPUT_CHUNK) bytes in flight), so output appears as the
//! plan runs and a slow reader slows the plan instead of growing host memory. If writing
//! fails, the plan's next `print` traps and the run ends with [`HostError::Output`].

use std::io::Write;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::branch_id::BranchId;
use crate::cache::{ModuleCache, Prepared};
use crate::calls::{NoCapabilities, SharedCalls};
use crate::engine;
use crate::error::{classify, HostError};
use crate::execute::{execute, with_place, Entry, RunOutcome, RunReport};
use crate::limit_kind::LimitKind;
use crate::limits::Limits;
use crate::run_limits::RunAccount;
use crate::state::{new_store, BranchContext, OUTPUT_CHANNEL_CHUNKS};

/// Validates, compiles (or finds in [`ModuleCache::global`]) and runs `bytes` under `limits`,
/// writing what the plan prints to `stdout` (which is flushed before returning).
///
/// Equivalent to `ModuleCache::global().prepare(bytes)?.run(limits, stdout)`.
pub fn run_module(
    bytes: &[u8],
    limits: &Limits,
    stdout: &mut dyn Write,
) -> Result<RunOutcome, HostError> {
    ModuleCache::global().prepare(bytes)?.run(limits, stdout)
}

impl Prepared {
    /// Runs the module under `limits` in a fresh `Store`, writing what the plan prints to
    /// `stdout` (which is flushed before returning). The plan is granted nothing
    /// ([`NoCapabilities`]); see [`Prepared::run_with`].
    pub fn run(&self, limits: &Limits, stdout: &mut dyn Write) -> Result<RunOutcome, HostError> {
        self.run_with(limits, Arc::new(NoCapabilities), stdout)
            .map(|report| report.outcome)
    }

    /// Runs the module with `calls` behind its host calls, on a runtime of its own, writing
    /// what the plan prints to `stdout` (flushed before returning).
    pub fn run_with(
        &self,
        limits: &Limits,
        calls: SharedCalls,
        stdout: &mut dyn Write,
    ) -> Result<RunReport, HostError> {
        self.run_with_account(limits, RunAccount::new(limits.run_wide), calls, stdout)
    }

    /// As [`Prepared::run_with`], with the run-wide account given: what shares it (the host
    /// calls, say, when a command was killed for memory) can stop the run through it.
    pub fn run_with_account(
        &self,
        limits: &Limits,
        account: Arc<RunAccount>,
        calls: SharedCalls,
        stdout: &mut dyn Write,
    ) -> Result<RunReport, HostError> {
        // Time for the limits and timeouts, I/O for the sandbox's processes and model requests.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| {
                HostError::Engine(format!("cannot start the async runtime: {error}"))
            })?;
        let result = runtime.block_on(self.run_to_writer_in(limits, account, calls, stdout));
        let flushed = stdout.flush();
        match (result, flushed) {
            (Ok(report), Ok(())) => Ok(report),
            (Ok(_), Err(error)) => Err(HostError::Output(error)),
            (Err(error), _) => Err(error),
        }
    }

    /// As [`Prepared::run_with`], inside an async runtime the caller drives.
    pub async fn run_to_writer(
        &self,
        limits: &Limits,
        calls: SharedCalls,
        stdout: &mut dyn Write,
    ) -> Result<RunReport, HostError> {
        let account = RunAccount::new(limits.run_wide);
        self.run_to_writer_in(limits, account, calls, stdout).await
    }

    async fn run_to_writer_in(
        &self,
        limits: &Limits,
        account: Arc<RunAccount>,
        calls: SharedCalls,
        stdout: &mut dyn Write,
    ) -> Result<RunReport, HostError> {
        let (sender, mut receiver) = mpsc::channel::<Vec<u8>>(OUTPUT_CHANNEL_CHUNKS);
        let run = self.run_async_in(limits, account, calls, sender);
        tokio::pin!(run);
        let mut write_error = None;
        let result = loop {
            tokio::select! {
                result = &mut run => break result,
                Some(chunk) = receiver.recv(), if write_error.is_none() => {
                    if let Err(error) = stdout.write_all(&chunk) {
                        // Dropping the receiver makes the plan's next print trap.
                        receiver.close();
                        write_error = Some(error);
                    }
                }
            }
        };
        if write_error.is_none() {
            while let Ok(chunk) = receiver.try_recv() {
                if let Err(error) = stdout.write_all(&chunk) {
                    write_error = Some(error);
                    break;
                }
            }
        }
        match write_error {
            // Writing failed: that is why the plan stopped (or it finished meanwhile).
            Some(error) => Err(HostError::Output(error)),
            None => result,
        }
    }

    /// Runs the module in a fresh `Store`: what it prints goes to `output` (a closed channel
    /// makes the next print trap with [`HostError::Output`]), its host calls to `calls`. The
    /// wall-clock limit is enforced here; wasm yields to the async runtime every epoch tick, so
    /// thousands of runs can share a few threads.
    pub async fn run_async(
        &self,
        limits: &Limits,
        calls: SharedCalls,
        output: mpsc::Sender<Vec<u8>>,
    ) -> Result<RunReport, HostError> {
        let account = RunAccount::new(limits.run_wide);
        self.run_async_in(limits, account, calls, output).await
    }

    async fn run_async_in(
        &self,
        limits: &Limits,
        account: Arc<RunAccount>,
        calls: SharedCalls,
        output: mpsc::Sender<Vec<u8>>,
    ) -> Result<RunReport, HostError> {
        // A slot of the instance pool, held until the store is dropped (declared first, so
        // dropped last); with every slot taken, the run waits here instead of failing.
        let _slot = engine::instance_permits()
            .acquire()
            .await
            .map_err(|_| HostError::Engine("the instance pool is closed".to_string()))?;
        let context = Arc::new(BranchContext {
            instantiation: self.instantiation.clone(),
            limits: *limits,
            id: BranchId::root(),
            run: account,
        });
        let mut store = new_store(self.module.engine(), limits, output, calls, context, None)?;
        let work = execute(&self.instantiation, limits, &mut store, Entry::Main);
        let result = match tokio::time::timeout(limits.timeout, work).await {
            Ok(result) => result,
            Err(_) => Err(HostError::Limit {
                limit: LimitKind::WallClock,
                message: format!(
                    "wall-clock limit exceeded (timeout {} s)",
                    limits.timeout.as_secs_f64()
                ),
            }),
        };
        result.map_err(|error| with_place(error, &mut store))
    }

    /// Creates a fresh `Store` with `limits` and instantiates the module in it, without calling
    /// `baton_main` (start functions, if any, do run). For benchmarks and warm-up; what a plan
    /// prints here is discarded.
    pub fn instantiate(&self, limits: &Limits) -> Result<(), HostError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .map_err(|error| {
                HostError::Engine(format!("cannot start the async runtime: {error}"))
            })?;
        let (sender, _receiver) = mpsc::channel::<Vec<u8>>(OUTPUT_CHANNEL_CHUNKS);
        let context = Arc::new(BranchContext {
            instantiation: self.instantiation.clone(),
            limits: *limits,
            id: BranchId::root(),
            run: RunAccount::new(limits.run_wide),
        });
        let mut store = new_store(
            self.module.engine(),
            limits,
            sender,
            Arc::new(NoCapabilities),
            context,
            None,
        )?;
        runtime.block_on(async {
            self.instantiation
                .instantiate(&mut store)
                .await
                .map(drop)
                .map_err(|error| classify(error, limits, store.data().growth_refused()))
        })
    }
}
