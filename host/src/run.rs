//! Running a module: limits, the host calls' linking (`calls.rs` holds what they do), the call
//! to `baton_main`, and the mapping of everything that can go wrong to [`HostError`].
//!
//! Order of events in [`run_module`]:
//! 1. [`validate_module`](crate::validate_module) refuses any module that imports something not
//!    on the allowlist — before wasmtime compiles, loads or instantiates it;
//! 2. the module is compiled with the shared [`engine`](crate::engine::engine), or found in the
//!    compiled-module cache ([`ModuleCache`], `cache.rs`), and its imports are resolved once
//!    (`InstancePre`) — steps 1 and 2 are [`ModuleCache::prepare`];
//! 3. per run ([`Prepared::run`]), a fresh `Store` gets the memory cap (each memory, and the GC heap that holds thrown
//!    exceptions, may grow to [`Limits::memory_bytes`]; a denied `memory.grow` returns -1 so the
//!    runtime raises MemoryError), at most one instance and one memory, the fuel
//!    ([`Limits::fuel`]) and the epoch deadline ([`Limits::timeout`]);
//! 4. the host calls (linked in step 2) treat every pointer, length and request as hostile
//!    (bounds-, UTF-8- and JSON-checked; bad input traps with a clear message, never a panic);
//! 5. the module is instantiated and `baton_main` called asynchronously ([`Prepared::run_async`]):
//!    wasm runs on a fiber and yields at every epoch tick, host calls await their I/O, and the
//!    wall-clock limit is a timeout around the whole run;
//! 6. `baton_main`'s result: 0 is [`RunOutcome::Success`]; anything else is the address of a
//!    str object (docs/abi.md) whose text becomes [`RunOutcome::Exception`].
//!
//! The caller's `stdout` stays on the calling thread: `print` sends its bytes to it through a
//! bounded channel (at most [`OUTPUT_CHANNEL_CHUNKS`] chunks of [`OUTPUT_CHUNK`] bytes in flight),
//! so output appears as the plan runs and a slow reader slows the plan instead of growing host
//! memory. If writing fails, the plan's next `print` traps and the run ends with
//! [`HostError::Output`].

use std::fmt;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;

use wasmtime::{
    Caller, Engine, Extern, GcHeapOutOfMemory, Instance, InstancePre, Linker, Module,
    ResourceLimiter, Store, StoreLimits, StoreLimitsBuilder, ThrownException, Trap, WasmBacktrace,
};

use crate::branch::{Activity, BranchContext, BranchStuck};
use crate::branch_id::BranchId;
use crate::cache::{ModuleCache, Prepared};
use crate::calls::{encode_reply, CallKind, CallResult, NoCapabilities, PlanError, SharedCalls};
use crate::engine;
use crate::imports::{ModuleError, BRANCH_EXPORT, IMPORT_MODULE, MAIN_EXPORT, MEMORY_EXPORT};
use crate::journal::DIVERGENCE;
use crate::limit_kind::LimitKind;
use crate::run_limits::{RunAccount, RunStopped, RunWideLimits};

/// The hard limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU limit, in wasmtime fuel units (roughly one per wasm instruction executed; since
    /// wasmtime 48, `memory.copy`/`memory.fill` also charge per byte). Default
    /// [`Limits::DEFAULT_FUEL`].
    pub fuel: u64,
    /// Wall-clock limit for the whole run, compilation excluded. Default
    /// [`Limits::DEFAULT_TIMEOUT`]. Rounded up to the epoch tick
    /// ([`EPOCH_TICK`](crate::engine::EPOCH_TICK)).
    pub timeout: Duration,
    /// The most each of the module's memories may grow to, in bytes. Default
    /// [`Limits::DEFAULT_MEMORY_BYTES`].
    pub memory_bytes: usize,
    /// What the run as a whole may use, all its instances together (`run_limits.rs`).
    pub run_wide: RunWideLimits,
}

impl Limits {
    /// 20 billion fuel units: 2-9 s of busy plan code on the development machine, depending
    /// on what it does (a tight `while` loop burns a unit in about 0.1 ns, a JSON round trip
    /// in about 0.4 ns) — well inside the default timeout, and room for a plan that parses
    /// command output or JSON in a long loop (tests/memory: a 60 KB document loaded and dumped
    /// 400 times needs more than 5e9, the default before).
    pub const DEFAULT_FUEL: u64 = 20_000_000_000;
    /// 60 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
    /// 256 MiB.
    pub const DEFAULT_MEMORY_BYTES: usize = 256 << 20;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: Self::DEFAULT_FUEL,
            timeout: Self::DEFAULT_TIMEOUT,
            memory_bytes: Self::DEFAULT_MEMORY_BYTES,
            run_wide: RunWideLimits::default(),
        }
    }
}

/// How a run that was not stopped by an error ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunOutcome {
    /// `baton_main` returned 0.
    Success,
    /// The plan raised an uncaught Python exception; `traceback` is the text the runtime built,
    /// exactly as returned (it ends with `Type: message\n`).
    Exception { traceback: String },
}

/// Why a run did not produce a [`RunOutcome`].
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The module was refused before it was instantiated.
    #[error("module refused: {0}")]
    Module(ModuleError),
    /// A limit ended the run. `message` names the limit and its value.
    #[error("{message}")]
    Limit { limit: LimitKind, message: String },
    /// The module trapped (a wasm trap, a host call refusing hostile arguments, an uncaught wasm
    /// exception). `backtrace` lists the wasm frames when wasmtime captured them.
    #[error("the plan trapped: {message}")]
    Trap {
        message: String,
        backtrace: Option<String>,
    },
    /// `baton_main` returned something that is not the address of a valid str object.
    #[error("baton_main returned an invalid traceback: {message}")]
    BadTraceback { message: String },
    /// Writing the plan's output failed (e.g. a closed pipe).
    #[error("cannot write the plan's output: {0}")]
    Output(std::io::Error),
    /// The engine could not be set up, the module could not be compiled, or the run thread
    /// could not be started.
    #[error("{0}")]
    Engine(String),
    /// A branch repeated the same request too many times in a row (`[branch] stuck_repeats`).
    #[error("{0}")]
    Stuck(String),
    /// A call differs from the journal being replayed (`--resume`, `baton replay`).
    #[error("divergence from the journal: {0}")]
    Divergence(String),
}

// No `#[source]`/`#[from]` on the variants above: their messages already include the inner
// error, and a source would make `{:#}` chains (anyhow) print it twice.
impl From<ModuleError> for HostError {
    fn from(error: ModuleError) -> Self {
        HostError::Module(error)
    }
}

impl HostError {
    /// The limit that ended the run, if one did.
    pub fn limit(&self) -> Option<LimitKind> {
        match self {
            HostError::Limit { limit, .. } => Some(*limit),
            _ => None,
        }
    }
}

/// Bytes per message on the output channel.
pub const OUTPUT_CHUNK: usize = 64 << 10;
/// Messages the output channel holds before `print` blocks.
pub const OUTPUT_CHANNEL_CHUNKS: usize = 16;

/// A host call refused its arguments. Becomes [`HostError::Trap`].
#[derive(Debug)]
struct GuestFault(String);

impl fmt::Display for GuestFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GuestFault {}

/// A replayed call differs from the journal. Becomes [`HostError::Divergence`].
#[derive(Debug)]
pub(crate) struct Diverged(pub(crate) String);

impl fmt::Display for Diverged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Diverged {}

/// The output's reader went away (writing failed). Becomes [`HostError::Output`].
#[derive(Debug)]
struct OutputClosed;

impl fmt::Display for OutputClosed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the run's output is closed")
    }
}

impl std::error::Error for OutputClosed {}

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
    calls: SharedCalls,
    /// What `baton.branch` needs to start instances of this module.
    branching: Arc<BranchContext>,
    /// A branch's record of its host calls (steps, trace, stuck detection); `None` for the run.
    activity: Option<Arc<Activity>>,
    /// The number the instance's next journaled host call gets (`calls.rs`, `branch_id.rs`).
    next_seq: u64,
    /// The reply of the last host call, until the runtime fetches it with `baton.reply`.
    pub(crate) reply: Option<Vec<u8>>,
    /// The run's result (JSON text), when the plan's `main` returned (a branch's: its value).
    pub(crate) result: Option<String>,
    /// The instance, once made: where a limit stopped it is read from its frame stack.
    instance: Option<Instance>,
}

impl HostState {
    /// The number of a call of `kind` this instance is making: journaled calls take the next
    /// number, the others see it without taking it.
    fn number(&mut self, kind: CallKind) -> u64 {
        let seq = self.next_seq;
        if kind.is_journaled() {
            self.next_seq += 1;
        }
        seq
    }
}

/// What a finished run produced besides its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    pub outcome: RunOutcome,
    /// The JSON text of what the plan's `main` returned, when it has one and it returned.
    pub result: Option<String>,
    /// What the runtime's memory manager did (zero for a module without its exports).
    pub heap: HeapFigures,
}

/// The memory manager's figures, read from the module's exports when the run ends
/// (docs/abi.md, "The heap").
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct HeapFigures {
    /// The most heap memory in use at once, in bytes (whole 64 KiB chunks).
    pub peak_bytes: u64,
    /// Collections run.
    pub collections: u64,
    /// Time spent collecting, in seconds.
    pub collect_seconds: f64,
}

impl HeapFigures {
    fn read(instance: wasmtime::Instance, store: &mut Store<HostState>) -> HeapFigures {
        let mut number = |name: &str| match instance
            .get_global(&mut *store, name)
            .map(|global| global.get(&mut *store))
        {
            Some(wasmtime::Val::I32(value)) => u64::from(value as u32),
            Some(wasmtime::Val::I64(value)) => value as u64,
            _ => 0,
        };
        HeapFigures {
            peak_bytes: number("baton_heap_peak"),
            collections: number("baton_gc_collections"),
            collect_seconds: number("baton_gc_nanos") as f64 / 1e9,
        }
    }
}

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

/// The linker with every host call, and the module's imports resolved against it.
pub(crate) fn instance_pre(module: &Module) -> Result<InstancePre<HostState>, HostError> {
    let mut linker = Linker::<HostState>::new(module.engine());
    link_host_calls(&mut linker)
        .map_err(|error| HostError::Engine(format!("cannot link the host calls: {error:#}")))?;
    linker
        .instantiate_pre(module)
        .map_err(|error| HostError::Engine(format!("cannot link the module: {error:#}")))
}

fn link_host_calls(linker: &mut Linker<HostState>) -> wasmtime::Result<()> {
    linker.func_wrap_async(
        IMPORT_MODULE,
        "print",
        |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
            Box::new(async move {
                let text = guest_text(&mut caller, "print", ptr, len)?;
                caller.data().branching.run.count_output(text.len())?;
                let output = caller.data().output.clone();
                // Most prints fit one chunk: hand over the copy already made.
                if text.len() <= OUTPUT_CHUNK {
                    output
                        .send(text.into_bytes())
                        .await
                        .map_err(|_| OutputClosed)?;
                    return Ok(());
                }
                for chunk in text.as_bytes().chunks(OUTPUT_CHUNK) {
                    output
                        .send(chunk.to_vec())
                        .await
                        .map_err(|_| OutputClosed)?;
                }
                Ok(())
            })
        },
    )?;
    for kind in [CallKind::Bash, CallKind::Llm] {
        linker.func_wrap_async(
            IMPORT_MODULE,
            kind.name(),
            move |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
                Box::new(async move {
                    let text = guest_text(&mut caller, kind.name(), ptr, len)?;
                    let request = match decode_request(kind.name(), &text)? {
                        Ok(request) => request,
                        Err(too_deep) => {
                            return Ok(hold_reply(&mut caller, kind.name(), &Err(too_deep)))
                        }
                    };
                    call_and_hold_reply(&mut caller, kind, request).await
                })
            },
        )?;
    }
    linker.func_wrap_async(
        IMPORT_MODULE,
        "branch",
        |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
            Box::new(async move {
                let text = guest_text(&mut caller, "branch", ptr, len)?;
                let request = match decode_request("branch", &text)? {
                    Ok(request) => request,
                    Err(too_deep) => return Ok(hold_reply(&mut caller, "branch", &Err(too_deep))),
                };
                let seq = caller.data_mut().number(CallKind::Branch);
                let context = caller.data().branching.clone();
                let calls = caller.data().calls.clone();
                let output = caller.data().output.clone();
                // Each branch may use what its parent had left.
                let fuel = caller.get_fuel().unwrap_or(context.limits.fuel);
                let live = Box::pin(crate::branch::run(
                    context,
                    calls.clone(),
                    seq,
                    fuel,
                    request.clone(),
                ));
                let mut result = calls.journaled(CallKind::Branch, seq, request, live).await;
                // A branch crossed a run-wide limit: the run ends here, not in the plan.
                caller.data().branching.run.check()?;
                if let Err(error) = &result {
                    if error.exception == DIVERGENCE {
                        return Err(Diverged(error.message.clone()).into());
                    }
                }
                // What the branches printed, in branch order (replayed runs print it again).
                if let Ok(Value::Object(reply)) = &mut result {
                    if let Some(Value::Array(printed)) = reply.remove("printed") {
                        for text in printed.iter().filter_map(Value::as_str) {
                            for chunk in text.as_bytes().chunks(OUTPUT_CHUNK) {
                                output
                                    .send(chunk.to_vec())
                                    .await
                                    .map_err(|_| OutputClosed)?;
                            }
                        }
                    }
                }
                Ok(hold_reply(&mut caller, "branch", &result))
            })
        },
    )?;
    linker.func_wrap_async(
        IMPORT_MODULE,
        "inputs",
        |mut caller: Caller<'_, HostState>, (): ()| {
            Box::new(async move {
                call_and_hold_reply(&mut caller, CallKind::Inputs, Value::Null).await
            })
        },
    )?;
    linker.func_wrap_async(
        IMPORT_MODULE,
        "log",
        |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
            Box::new(async move {
                let line = guest_text(&mut caller, "log", ptr, len)?;
                caller.data().branching.run.count_log(line.len())?;
                let calls = caller.data().calls.clone();
                let seq = caller.data_mut().number(CallKind::Log);
                // A log line cannot fail in a way the plan could act on.
                let _ = calls
                    .call(CallKind::Log, seq, serde_json::json!({ "line": line }))
                    .await;
                Ok(())
            })
        },
    )?;
    linker.func_wrap(
        IMPORT_MODULE,
        "result",
        |mut caller: Caller<'_, HostState>, ptr: i32, len: i32| -> wasmtime::Result<()> {
            let text = guest_text(&mut caller, "result", ptr, len)?;
            if let Err(error) = serde_json::from_str::<serde::de::IgnoredAny>(&text) {
                return Err(
                    GuestFault(format!("baton.result: the result is not JSON: {error}")).into(),
                );
            }
            caller.data_mut().result = Some(text);
            Ok(())
        },
    )?;
    // Nanoseconds on a monotonic clock, for the collector's own figures (the time it spends):
    // the plan never sees the value, so runs stay a function of their inputs.
    linker.func_wrap(IMPORT_MODULE, "clock", || -> i64 {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        let start = START.get_or_init(std::time::Instant::now);
        i64::try_from(start.elapsed().as_nanos()).unwrap_or(i64::MAX)
    })?;
    linker.func_wrap(IMPORT_MODULE, "libm", crate::libm::call)?;
    linker.func_wrap(
        IMPORT_MODULE,
        "reply",
        |mut caller: Caller<'_, HostState>, ptr: i32| -> wasmtime::Result<()> {
            let Some(reply) = caller.data_mut().reply.take() else {
                return Err(GuestFault("baton.reply: no host call reply is waiting".into()).into());
            };
            let memory = guest_memory(&mut caller, "reply")?;
            let data = memory.data_mut(&mut caller);
            let len = i32::try_from(reply.len())
                .map_err(|_| GuestFault("baton.reply: the reply is too large".into()))?;
            let range = guest_range(data.len(), ptr, len)
                .map_err(|message| GuestFault(format!("baton.reply: {message}")))?;
            data[range].copy_from_slice(&reply);
            Ok(())
        },
    )?;
    Ok(())
}

/// How deep a value crossing to the host may nest (serde_json's own bound, which would
/// otherwise refuse it as bad JSON).
pub const MAX_CROSSING_DEPTH: usize = 128;

/// Decodes a host call's request. A request that is not JSON is the module's fault (a trap);
/// one that nests deeper than [`MAX_CROSSING_DEPTH`] is a legal plan's value, answered with a
/// ValueError the plan can catch.
fn decode_request(call: &str, text: &str) -> Result<Result<Value, PlanError>, GuestFault> {
    let depth = json_depth(text.as_bytes());
    if depth > MAX_CROSSING_DEPTH {
        return Ok(Err(PlanError::value_error(format!(
            "the arguments of {call}() nest {depth} levels deep; values crossing to the host \
             may nest at most {MAX_CROSSING_DEPTH} levels"
        ))));
    }
    serde_json::from_str(text)
        .map(Ok)
        .map_err(|error| GuestFault(format!("baton.{call}: the request is not JSON: {error}")))
}

/// The deepest nesting of arrays and objects in JSON text (brackets inside strings do not
/// count). One pass, no recursion: the text is the plan's.
fn json_depth(text: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &byte in text {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Runs one call through the run's [`HostCalls`], keeps the encoded reply for `baton.reply`
/// and returns its length.
async fn call_and_hold_reply(
    caller: &mut Caller<'_, HostState>,
    kind: CallKind,
    request: Value,
) -> wasmtime::Result<i32> {
    let calls = caller.data().calls.clone();
    let activity = caller.data().activity.clone();
    let started = std::time::Instant::now();
    if let Some(activity) = &activity {
        activity.before(kind, &request).map_err(BranchStuck)?;
    }
    let seq = caller.data_mut().number(kind);
    let result = calls.call(kind, seq, request.clone()).await;
    if let Err(error) = &result {
        if error.exception == DIVERGENCE {
            return Err(Diverged(error.message.clone()).into());
        }
    }
    // The call may have stopped the run (a command killed for memory in the run's cgroup).
    caller.data().branching.run.check()?;
    if let Some(activity) = &activity {
        activity.after(kind, &request, &result, started.elapsed());
    }
    Ok(hold_reply(caller, kind.name(), &result))
}

/// Keeps a call's encoded reply for `baton.reply` and returns its length.
fn hold_reply(caller: &mut Caller<'_, HostState>, name: &str, result: &CallResult) -> i32 {
    let mut reply = encode_reply(result);
    if i32::try_from(reply.len()).is_err() {
        reply = encode_reply(&Err(PlanError::new(
            "RuntimeError",
            format!("the reply of {name}() is larger than 2 GiB"),
        )));
    }
    let len = reply.len() as i32;
    caller.data_mut().reply = Some(reply);
    len
}

fn guest_memory(
    caller: &mut Caller<'_, HostState>,
    call: &str,
) -> Result<wasmtime::Memory, GuestFault> {
    match caller.get_export(MEMORY_EXPORT) {
        Some(Extern::Memory(memory)) => Ok(memory),
        _ => Err(GuestFault(format!(
            "baton.{call}: the module exports no memory named `{MEMORY_EXPORT}`"
        ))),
    }
}

/// Copies `[ptr, ptr+len)` out of guest memory and checks it is UTF-8.
fn guest_text(
    caller: &mut Caller<'_, HostState>,
    call: &str,
    ptr: i32,
    len: i32,
) -> Result<String, GuestFault> {
    let memory = guest_memory(caller, call)?;
    let bytes = guest_slice(memory.data(&*caller), ptr, len)
        .map_err(|message| GuestFault(format!("baton.{call}: {message}")))?;
    String::from_utf8(bytes.to_vec()).map_err(|error| {
        GuestFault(format!(
            "baton.{call}: the text is not UTF-8 (invalid byte at offset {} of {})",
            error.utf8_error().valid_up_to(),
            bytes.len()
        ))
    })
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
            pre: self.pre.clone(),
            limits: *limits,
            id: BranchId::root(),
            run: account,
        });
        let mut store = new_store(self.module.engine(), limits, output, calls, context, None)?;
        let work = execute(&self.pre, limits, &mut store, Entry::Main);
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
            pre: self.pre.clone(),
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
            self.pre
                .instantiate_async(&mut store)
                .await
                .map(drop)
                .map_err(|error| classify(error, limits, store.data().limiter.refused))
        })
    }
}

/// A fresh store with the run's limits and fuel; wasm yields to the async runtime at every
/// epoch tick.
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
        .table_elements(crate::imports::MAX_TABLE_ELEMENTS)
        .instances(1)
        .tables(crate::imports::MAX_TABLES as usize)
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
    store
        .set_fuel(limits.fuel)
        .map_err(|error| HostError::Engine(format!("cannot set fuel: {error:#}")))?;
    store.set_epoch_deadline(1);
    // Every tick: yield to the async runtime, or trap when the run was stopped by a run-wide
    // limit (in another instance, or in a host call of this one).
    store.epoch_deadline_callback(move |_| match run.check() {
        Ok(()) => Ok(wasmtime::UpdateDeadline::Yield(1)),
        Err(stopped) => Err(stopped.into()),
    });
    Ok(store)
}

/// Where an instance starts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Entry {
    /// `baton_main`: the module body.
    Main,
    /// `baton_branch_main(len, index)`: a branch, with its task (`len` bytes) waiting as the
    /// reply.
    Branch { len: i32, index: i32 },
}

/// Instantiates the module and calls its entry point.
pub(crate) async fn execute(
    pre: &InstancePre<HostState>,
    limits: &Limits,
    store: &mut Store<HostState>,
    entry: Entry,
) -> Result<RunReport, HostError> {
    let instance = pre
        .instantiate_async(&mut *store)
        .await
        .map_err(|error| classify(error, limits, store.data().limiter.refused))?;
    store.data_mut().instance = Some(instance);
    if let Some(memory) = instance.get_memory(&mut *store, MEMORY_EXPORT) {
        advise_huge_pages(memory.data_ptr(&*store));
    }
    let status = match entry {
        Entry::Main => {
            let main = instance
                .get_typed_func::<(), i32>(&mut *store, MAIN_EXPORT)
                .map_err(|error| {
                    HostError::Engine(format!("cannot find {MAIN_EXPORT}: {error:#}"))
                })?;
            main.call_async(&mut *store, ()).await
        }
        Entry::Branch { len, index } => {
            let main = instance
                .get_typed_func::<(i32, i32), i32>(&mut *store, BRANCH_EXPORT)
                .map_err(|error| {
                    HostError::Engine(format!("cannot find {BRANCH_EXPORT}: {error:#}"))
                })?;
            main.call_async(&mut *store, (len, index)).await
        }
    }
    .map_err(|error| classify(error, limits, store.data().limiter.refused))?;
    let result = store.data_mut().result.take();
    let heap = HeapFigures::read(instance, store);
    if status == 0 {
        return Ok(RunReport {
            outcome: RunOutcome::Success,
            result,
            heap,
        });
    }
    let memory = instance
        .get_memory(&mut *store, MEMORY_EXPORT)
        .ok_or_else(|| HostError::Engine(format!("the module exports no `{MEMORY_EXPORT}`")))?;
    let traceback = read_str(memory.data(&*store), status)
        .map_err(|message| HostError::BadTraceback { message })?;
    Ok(RunReport {
        outcome: RunOutcome::Exception { traceback },
        result,
        heap,
    })
}

/// A limit that stopped the plan's own code, with where it stopped: "... at line 7 (in
/// `poll`)", read from the frame stack the runtime keeps (exported as `baton_frames` and
/// `baton_depth`, intact after a trap). Run-wide limits, and modules without the exports, are
/// left as they are.
pub(crate) fn with_place(error: HostError, store: &mut Store<HostState>) -> HostError {
    let HostError::Limit { limit, message } = error else {
        return error;
    };
    let own = matches!(
        limit,
        LimitKind::Cpu | LimitKind::WallClock | LimitKind::Memory | LimitKind::Stack
    );
    let place = if own { stopped_at(store) } else { None };
    HostError::Limit {
        limit,
        message: match place {
            Some(place) => format!("{message} at {place}"),
            None => message,
        },
    }
}

/// Where the innermost plan frame was: its line (and file, when a library module's) and the
/// function's name. Everything read is bounds-checked: the memory is the plan's.
fn stopped_at(store: &mut Store<HostState>) -> Option<String> {
    let instance = store.data().instance?;
    let number = |store: &mut Store<HostState>, name: &str| match instance
        .get_global(&mut *store, name)?
        .get(&mut *store)
    {
        wasmtime::Val::I32(value) => u32::try_from(value).ok(),
        _ => None,
    };
    let frames = number(store, "baton_frames")?;
    let depth = number(store, "baton_depth")?;
    if depth == 0 {
        return None;
    }
    let memory = instance.get_memory(&mut *store, MEMORY_EXPORT)?;
    let data = memory.data(&*store);
    let slot = usize::try_from(u64::from(frames) + 8 * u64::from(depth)).ok()?;
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
    };
    let (name, line) = (word(slot)?, word(slot + 4)?);
    let function = read_str(data, name as i32).ok()?;
    let (file, line) = (line >> 24, line & 0x00ff_ffff);
    let file = if file == 0 {
        String::new()
    } else {
        " of a baton library module".to_string()
    };
    // A function's name is a Python identifier or `<module>`/`<lambda>`: nothing to escape.
    Some(format!("line {line}{file} (in `{function}`)"))
}

/// Asks Linux to back the linear memory starting at `base` with transparent huge pages where
/// it can (where THP is in `madvise` mode, the common default, nothing else does). A plan's
/// heap grows into fresh memory until its first collections (and again whenever it outgrows
/// what they freed): with 4 KiB pages, page faults were a fifth to a quarter of
/// allocation-heavy runs (`perf` of bench/parse_ls.py, before the collector). The runtime keeps
/// its memory 2 MiB ahead of the heap (runtime/wat/heap.wat, `$heap_grow_to`) so that the pages
/// it touches can be huge ones. Advice only:
/// the memory's size, limit and contents are unchanged, and a failure changes nothing.
#[cfg(target_os = "linux")]
fn advise_huge_pages(base: *mut u8) {
    // The memory's slot in the pool reserves `MAX_MEMORY_BYTES` from its base (engine.rs).
    // SAFETY: MADV_HUGEPAGE changes only the kernel's choice of page size for the range; it
    // neither maps, unmaps nor changes the contents of any page.
    unsafe {
        libc::madvise(base.cast(), engine::MAX_MEMORY_BYTES, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_base: *mut u8) {}

/// The guest bytes `[ptr, ptr+len)`, both read as unsigned 32-bit numbers, or why they are out
/// of bounds.
fn guest_slice(data: &[u8], ptr: i32, len: i32) -> Result<&[u8], String> {
    guest_range(data.len(), ptr, len).map(|range| &data[range])
}

/// The range `[ptr, ptr+len)` (both read as unsigned 32-bit numbers) of a memory of `size`
/// bytes, or why it is out of bounds.
fn guest_range(size: usize, ptr: i32, len: i32) -> Result<std::ops::Range<usize>, String> {
    let start = u64::from(ptr as u32);
    let len = u64::from(len as u32);
    let end = start + len; // cannot overflow u64
    if end > u64::from(u32::MAX) + 1 {
        return Err(format!(
            "the range {start:#x} + {len} bytes overflows the 32-bit address space"
        ));
    }
    if end > size as u64 {
        return Err(format!(
            "the range [{start:#x}, {end:#x}) is outside the memory ({size} bytes)"
        ));
    }
    // In range: both fit in usize because they are at most `size`.
    Ok(start as usize..end as usize)
}

/// Offset of a str object's bytes from its address (docs/abi.md, "Objects").
const STR_BYTES_OFFSET: u64 = 16;
/// The str type id.
const STR_TYPE: u32 = 5;

/// Reads the str object at `address` (header: type id at +0, UTF-8 byte length at +4; bytes from
/// +16), checking every bound and the encoding.
fn read_str(data: &[u8], address: i32) -> Result<String, String> {
    let addr = u64::from(address as u32);
    let word = |offset: u64| -> Result<u32, String> {
        let at = addr + offset;
        let end = at + 4;
        if end > data.len() as u64 {
            return Err(format!(
                "address {addr:#x} is outside the memory ({} bytes)",
                data.len()
            ));
        }
        let at = at as usize;
        let mut word = [0u8; 4];
        word.copy_from_slice(&data[at..at + 4]);
        Ok(u32::from_le_bytes(word))
    };
    if addr % 8 != 0 {
        return Err(format!("address {addr:#x} is not 8-byte aligned"));
    }
    let type_id = word(0)?;
    if type_id != STR_TYPE {
        return Err(format!(
            "the object at {addr:#x} has type id {type_id}, not {STR_TYPE} (str)"
        ));
    }
    let len = u64::from(word(4)?);
    let start = addr + STR_BYTES_OFFSET;
    let end = start + len;
    if end > data.len() as u64 {
        return Err(format!(
            "the str at {addr:#x} claims {len} bytes, which run past the memory ({} bytes)",
            data.len()
        ));
    }
    let bytes = &data[start as usize..end as usize];
    String::from_utf8(bytes.to_vec()).map_err(|error| {
        format!(
            "the str at {addr:#x} is not UTF-8 (invalid byte at offset {})",
            error.utf8_error().valid_up_to()
        )
    })
}

/// Maps an error from instantiation or `baton_main` to a [`HostError`]. `refused` tells whether
/// the limiter refused a memory or table growth during the run.
fn classify(error: wasmtime::Error, limits: &Limits, refused: bool) -> HostError {
    if let Some(stopped) = error.downcast_ref::<RunStopped>() {
        return HostError::Limit {
            limit: stopped.limit,
            message: stopped.message.clone(),
        };
    }
    if let Some(stuck) = error.downcast_ref::<BranchStuck>() {
        return HostError::Stuck(stuck.0.clone());
    }
    if let Some(diverged) = error.downcast_ref::<Diverged>() {
        return HostError::Divergence(diverged.0.clone());
    }
    if error.downcast_ref::<OutputClosed>().is_some() {
        // The writer's own error is reported by run_module; this is the fallback.
        return HostError::Output(std::io::Error::new(
            std::io::ErrorKind::BrokenPipe,
            OutputClosed.to_string(),
        ));
    }
    let backtrace = error
        .downcast_ref::<WasmBacktrace>()
        .map(|trace| trace.to_string())
        .filter(|trace| !trace.trim().is_empty());
    if let Some(fault) = error.downcast_ref::<GuestFault>() {
        return HostError::Trap {
            message: fault.0.clone(),
            backtrace,
        };
    }
    let memory_limit = || HostError::Limit {
        limit: LimitKind::Memory,
        message: format!(
            "memory limit exceeded ({} MiB)",
            limits.memory_bytes as f64 / (1 << 20) as f64
        ),
    };
    if let Some(trap) = error.downcast_ref::<Trap>() {
        return match trap {
            Trap::OutOfFuel => HostError::Limit {
                limit: LimitKind::Cpu,
                message: format!("CPU limit exceeded (fuel {} exhausted)", limits.fuel),
            },
            Trap::Interrupt => HostError::Limit {
                limit: LimitKind::WallClock,
                message: format!(
                    "wall-clock limit exceeded (timeout {} s)",
                    limits.timeout.as_secs_f64()
                ),
            },
            Trap::StackOverflow => HostError::Limit {
                limit: LimitKind::Stack,
                message: format!(
                    "stack limit exceeded (the {} MiB wasm stack is exhausted)",
                    engine::MAX_WASM_STACK >> 20
                ),
            },
            Trap::AllocationTooLarge => memory_limit(),
            // A trap right after a refused memory.grow: the runtime could not go on.
            _ if refused => HostError::Limit {
                limit: LimitKind::Memory,
                message: format!(
                    "memory limit exceeded ({} MiB): the plan trapped after a memory.grow was \
                     refused ({trap})",
                    limits.memory_bytes >> 20
                ),
            },
            _ => HostError::Trap {
                message: trap.to_string(),
                backtrace,
            },
        };
    }
    if error.downcast_ref::<GcHeapOutOfMemory<()>>().is_some() {
        return memory_limit();
    }
    if error.downcast_ref::<ThrownException>().is_some() {
        return HostError::Trap {
            message: "an uncaught wasm exception escaped baton_main (the runtime must catch \
                      every exception and return its traceback)"
                .to_string(),
            backtrace,
        };
    }
    let text = format!("{error:#}");
    // Instantiation: an initial memory (or table) larger than the caps.
    if refused || text.contains("exceeds memory limits") || text.contains("exceeds table limits") {
        return HostError::Limit {
            limit: LimitKind::Memory,
            message: format!(
                "memory limit exceeded ({} MiB): {text}",
                limits.memory_bytes >> 20
            ),
        };
    }
    HostError::Trap {
        message: text,
        backtrace,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_depth_counts_brackets_outside_strings() {
        assert_eq!(json_depth(b"1"), 0);
        assert_eq!(json_depth(br#"{"a": [1, {"b": []}]}"#), 4);
        assert_eq!(json_depth(br#"["[[[[", "\"]]]", [1]]"#), 2);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(json_depth(deep.as_bytes()), 200);
        assert!(matches!(decode_request("llm", &deep), Ok(Err(e)) if e.exception == "ValueError"));
        assert!(decode_request("llm", "{not json").is_err());
    }

    #[test]
    fn guest_slice_checks_bounds() {
        let data = [1u8, 2, 3, 4];
        assert_eq!(guest_slice(&data, 1, 2).unwrap(), &[2, 3]);
        assert_eq!(guest_slice(&data, 4, 0).unwrap(), &[] as &[u8]);
        assert!(guest_slice(&data, 3, 2).is_err());
        assert!(guest_slice(&data, -1, 2).unwrap_err().contains("overflows"));
        assert!(guest_slice(&data, 5, 0).is_err());
        assert!(guest_slice(&data, 0, -1).is_err());
    }

    #[test]
    fn read_str_checks_everything() {
        let mut data = vec![0u8; 64];
        data[8..12].copy_from_slice(&5u32.to_le_bytes());
        data[12..16].copy_from_slice(&3u32.to_le_bytes());
        data[24..27].copy_from_slice(b"abc");
        assert_eq!(read_str(&data, 8).unwrap(), "abc");
        assert!(read_str(&data, 4).unwrap_err().contains("aligned"));
        assert!(read_str(&data, 16).unwrap_err().contains("type id"));
        assert!(read_str(&data, 64).unwrap_err().contains("outside"));
        assert!(read_str(&data, -8).unwrap_err().contains("outside"));
        data[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_str(&data, 8).unwrap_err().contains("run past"));
        data[12..16].copy_from_slice(&3u32.to_le_bytes());
        data[24] = 0xff;
        assert!(read_str(&data, 8).unwrap_err().contains("UTF-8"));
    }

    #[test]
    fn limits_have_documented_defaults() {
        let limits = Limits::default();
        assert_eq!(limits.timeout, Duration::from_secs(60));
        assert_eq!(limits.memory_bytes, 256 << 20);
        assert!(limits.fuel >= 1_000_000_000);
    }
}
