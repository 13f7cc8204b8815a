//! The process-wide wasmtime [`Engine`] and the thread that drives its epoch (and a second
//! engine, without inlining, for large modules: [`large_module_engine`]).
//!
//! Configuration (see NOTES.md, "wasmtime"; the settings that decide compiled code are in
//! `code_config.rs`, which the build script shares to precompile the runtime):
//! - Cranelift (Winch supports neither exceptions nor tail calls);
//! - exceptions (`try_table`, `throw`, `throw_ref`, `exnref`): `Config::wasm_exceptions(true)`,
//!   which needs wasmtime's `gc` cargo feature plus at least one collector (`gc-drc`: thrown
//!   exceptions are GC objects, and with the null collector a plan that catches exceptions in a
//!   loop would exhaust the GC heap);
//! - CPU limit: `consume_fuel(true)`, the fuel set per store ([`crate::Limits::fuel`]);
//! - wall-clock limit: `epoch_interruption(true)`; a background thread increments the epoch every
//!   [`EPOCH_TICK`] and each store's deadline is its timeout in ticks;
//! - async: every store is async (host calls such as `bash` and `llm` await I/O); wasm runs on a
//!   fiber stack of `async_stack_size`, and yields to the async runtime at every epoch tick, so
//!   thousands of runs share a few threads and the wall-clock limit is a `tokio` timeout;
//! - stack: `max_wasm_stack` = [`MAX_WASM_STACK`], so ~1000 nested Python calls fit; the fiber
//!   stack is 1 MiB larger, so exhausting the wasm stack is a `StackOverflow` trap, never a crash;
//! - parallel compilation: a module's functions compile on wasmtime's worker threads, one per
//!   core, unless [`set_parallel_compilation`] turned it off;
//! - incremental compilation ([`FunctionCache`]): compiled function bodies are cached by their
//!   input, so plan modules that share functions (and a runtime compiled here because its
//!   precompiled code was refused, `runtime_image.rs`) compile only what differs.
//!
//! Instance allocation: the pooling allocator ([`POOL_SLOTS`] slots), with the on-demand
//! allocator as a fallback when the pool cannot be reserved (a process whose address space is
//! capped by `ulimit -v`), and by choice in a process that makes one run
//! ([`set_instance_pool`]). Every slot reserves address space for the largest memory a run may
//! have ([`MAX_MEMORY_BYTES`]), a table, a GC heap and a fiber stack; the run's own memory cap
//! is enforced per store by the limiter, as with on-demand allocation. A full pool would make
//! instantiation fail, so runs take a permit of [`instance_permits`] first and wait for a free
//! slot instead. Measured with `cargo bench -p baton-host --bench run` (`instantiate/*`): a
//! store plus the runtime module's `InstancePre::instantiate` ~5 µs, pooled or on demand;
//! with plan200's module beside it, its imports resolved and its start function run, 25 µs
//! (`plan200`). The pool also keeps slots warm between runs, so thousands of short runs do not
//! each map fresh memory.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use wasmtime::{CacheStore, Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

use crate::code_config::code_config;
pub use crate::code_config::{CompileProfile, MAX_WASM_STACK};

use crate::imports::{MAX_TABLES, MAX_TABLE_ELEMENTS};

/// How often the epoch advances. The wall-clock timeout is rounded up to a whole number of ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Instances that can be alive at once in one process (runs and, later, branches); more wait
/// for a permit ([`instance_permits`]).
pub const POOL_SLOTS: u32 = 1000;

/// The largest memory a run may be given (`--memory` at most 4096 MiB: a 32-bit memory).
pub const MAX_MEMORY_BYTES: usize = 4 << 30;

/// Permits for instantiating: one per pool slot. A run holds one from instantiation until its
/// store is dropped.
pub fn instance_permits() -> &'static std::sync::Arc<tokio::sync::Semaphore> {
    static PERMITS: OnceLock<std::sync::Arc<tokio::sync::Semaphore>> = OnceLock::new();
    PERMITS.get_or_init(|| std::sync::Arc::new(tokio::sync::Semaphore::new(POOL_SLOTS as usize)))
}

/// Slots of each kind the pool has beyond what [`POOL_SLOTS`] stores can hold at once. wasmtime
/// splits each pool into shards (one per core, up to 16) and an allocation probes them one after
/// the other, locking one at a time: with the pool exactly as large as the permits allow, a
/// probe could find every shard full while another thread freed a slot in one it had already
/// passed, and the run failed with "maximum concurrent limit ... reached" (seen in 4 of 40 runs
/// of `host_calls`' test of 1,100 runs at once, on two cores). With this many slots that no
/// permit can claim, the probe finds a free one unless a hundred frees and allocations race it.
const POOL_HEADROOM: u32 = POOL_SLOTS / 8;

/// The pooling allocator's configuration: [`POOL_SLOTS`] of everything an instance uses, and
/// [`POOL_HEADROOM`] more.
fn pooling() -> PoolingAllocationConfig {
    let mut pool = PoolingAllocationConfig::new();
    // A plan module is instantiated beside the runtime's: two core instances per store.
    pool.total_core_instances(2 * POOL_SLOTS + POOL_HEADROOM)
        // A store's GC heap (the thrown exceptions) is a memory of the same pool as its linear
        // memory: two per instance.
        .total_memories(2 * POOL_SLOTS + POOL_HEADROOM)
        .total_tables(POOL_SLOTS + POOL_HEADROOM)
        .total_stacks(POOL_SLOTS + POOL_HEADROOM)
        .total_gc_heaps(POOL_SLOTS + POOL_HEADROOM)
        .max_memories_per_module(1)
        .max_tables_per_module(MAX_TABLES)
        .max_memory_size(MAX_MEMORY_BYTES)
        .table_elements(MAX_TABLE_ELEMENTS);
    pool
}

/// The configuration every Baton engine uses (with the pooling allocator; see the module docs).
pub fn config() -> Config {
    let mut config = base_config();
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling()));
    config
}

/// Set to anything but `0` to have the engine write `/tmp/perf-PID.map`, so `perf record` and
/// `perf report` name the plan's and the runtime's compiled functions (a developer's switch;
/// use with `BATON_CACHE_DIR=off`, since modules loaded from the disk cache are not described;
/// the runtime precompiled into Baton is then compiled again, so that it is).
pub const PERFMAP_ENV: &str = "BATON_PERFMAP";

static PROFILE: OnceLock<CompileProfile> = OnceLock::new();

/// Chooses the shared engine's [`CompileProfile`]. Only before the engine is first used (the
/// call returns `false` and changes nothing afterwards, or when a profile was already set).
pub fn set_compile_profile(profile: CompileProfile) -> bool {
    ENGINE.get().is_none() && PROFILE.set(profile).is_ok()
}

/// The shared engine's [`CompileProfile`] (fixed once the engine is first used).
pub fn compile_profile() -> CompileProfile {
    *PROFILE.get_or_init(CompileProfile::default)
}

static FUNCTION_CACHE: OnceLock<bool> = OnceLock::new();

/// Chooses whether the shared engine caches compiled functions ([`FunctionCache`]; on unless
/// chosen otherwise). Only before the engine is first used, like [`set_compile_profile`].
///
/// The cache pays where functions repeat: the runtime compiled here when its precompiled code
/// is refused, a plan edited and run again, mutants of one program. Where every plan is new
/// (the differential tester's generated plans) nothing is ever found, and each function's
/// body is hashed (SHA-256 over its IR) and its code copied into the cache for nothing: 4-6% of
/// compiling such a plan, measured in BENCHMARKS.md.
pub fn set_function_cache(enabled: bool) -> bool {
    ENGINE.get().is_none() && FUNCTION_CACHE.set(enabled).is_ok()
}

static PARALLEL_COMPILATION: OnceLock<bool> = OnceLock::new();

/// Chooses whether the shared engine compiles a module's functions on several threads (on
/// unless chosen otherwise). Only before the engine is first used, like [`set_compile_profile`].
///
/// A module's functions compile independently, so a plan never seen before is ready sooner on
/// a machine with idle cores: the differential tester's generated plans (~90 KB of code, ~170
/// functions), one at a time on two cores, 10.2 -> 15.0 plans/s (BENCHMARKS.md). Where every
/// core already compiles a module of its own (the tester with `--jobs` at the number of cores,
/// batches of new plans) the threads only take turns: turn it off there.
pub fn set_parallel_compilation(enabled: bool) -> bool {
    ENGINE.get().is_none() && PARALLEL_COMPILATION.set(enabled).is_ok()
}

/// [`config`] without the pooling allocator.
fn base_config() -> Config {
    let mut config = code_config(compile_profile());
    // wasmtime's worker threads (rayon's pool, a thread per core) compile the functions of a
    // module in parallel. It changes no compiled code, so it is the engine's own, not
    // `code_config`'s.
    config.parallel_compilation(*PARALLEL_COMPILATION.get_or_init(|| true));
    // Cache compiled functions by body, so that what was compiled before is not again (see
    // `FunctionCache`).
    // It cannot fail with Cranelift enabled; without it compilation is only slower.
    if *FUNCTION_CACHE.get_or_init(|| true) {
        let _ = config.enable_incremental_compilation(FunctionCache::shared());
    }
    if perf_map_requested() {
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    config
}

/// Whether [`PERFMAP_ENV`] asks for a perf map.
pub(crate) fn perf_map_requested() -> bool {
    std::env::var_os(PERFMAP_ENV).is_some_and(|value| !value.is_empty() && value != "0")
}

/// Cranelift's incremental compilation cache, in memory: compiled function bodies keyed by
/// wasmtime's hash of their input. Shared by every engine of the process; bounded by
/// [`FunctionCache::MAX_BYTES`] (past it, new entries are not kept).
///
/// Across processes it is carried by a *bundle* file in the module cache's directory
/// ([`FunctionCache::load_bundle`], [`FunctionCache::save_bundle`], used by
/// [`crate::cache::ModuleCache`]): the first plan a process compiles then finds the runtime's
/// functions already compiled, and only its own code goes through Cranelift.
#[derive(Debug, Default)]
pub struct FunctionCache {
    entries: Mutex<FunctionEntries>,
}

#[derive(Debug, Default)]
struct FunctionEntries {
    map: HashMap<Vec<u8>, Arc<[u8]>>,
    bytes: usize,
    /// Keys looked up with success or inserted in this process: what a bundle keeps.
    used: std::collections::HashSet<Vec<u8>>,
    hits: usize,
    inserts: usize,
}

/// The first bytes of a bundle file (and its format version).
const BUNDLE_MAGIC: &[u8; 8] = b"BATONFN1";

impl FunctionCache {
    /// The runtime's ~1,000 functions take about 10 MiB compiled; this leaves room for plans.
    pub const MAX_BYTES: usize = 256 << 20;

    pub fn shared() -> Arc<FunctionCache> {
        static SHARED: OnceLock<Arc<FunctionCache>> = OnceLock::new();
        SHARED.get_or_init(Arc::default).clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FunctionEntries> {
        self.entries
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    fn keep(entries: &mut FunctionEntries, key: Vec<u8>, value: Arc<[u8]>) -> bool {
        let size = key.len() + value.len();
        if entries.bytes + size > Self::MAX_BYTES {
            return false;
        }
        entries.bytes += size;
        entries.map.insert(key, value);
        true
    }

    /// How many compiled functions are kept.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether no compiled function is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds the entries of the bundle at `path` (written by [`FunctionCache::save_bundle`]).
    /// Returns whether there was a well-formed bundle; a malformed one is deleted.
    ///
    /// The entries are compiled machine code that wasmtime will link into modules, so the file
    /// must come from a directory only this user can write, like the module cache's serialized
    /// modules (see "Trust" in [`crate::cache`]).
    pub fn load_bundle(&self, path: &std::path::Path) -> bool {
        let Ok(bytes) = std::fs::read(path) else {
            return false;
        };
        let Some(parsed) = parse_bundle(&bytes) else {
            let _ = std::fs::remove_file(path);
            return false;
        };
        let mut entries = self.lock();
        for (key, value) in parsed {
            if !entries.map.contains_key(key) {
                Self::keep(&mut entries, key.to_vec(), value.into());
            }
        }
        true
    }

    /// Whether this process compiled more new functions than it found: the bundle on disk is
    /// missing or stale (a new runtime), and worth writing again.
    pub fn bundle_is_stale(&self) -> bool {
        let entries = self.lock();
        entries.inserts > 0 && entries.inserts >= entries.hits
    }

    /// Writes the functions this process used (found or compiled) to `path`, atomically (a
    /// temporary file renamed into place), and marks them as found, so the next
    /// [`FunctionCache::bundle_is_stale`] asks again only after as much new compiling.
    pub fn save_bundle(&self, path: &std::path::Path) -> std::io::Result<()> {
        let mut out = BUNDLE_MAGIC.to_vec();
        {
            let mut entries = self.lock();
            for key in &entries.used {
                if let Some(value) = entries.map.get(key) {
                    for part in [key.as_slice(), value] {
                        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
                        out.extend_from_slice(part);
                    }
                }
            }
            entries.hits += entries.inserts;
            entries.inserts = 0;
        }
        crate::atomic_file::write_atomically(path, &out)
    }
}

/// The (key, value) pairs of a bundle file, or `None` when it is not one.
fn parse_bundle(bytes: &[u8]) -> Option<Vec<(&[u8], &[u8])>> {
    fn take<'a>(rest: &mut &'a [u8]) -> Option<&'a [u8]> {
        let len = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let part = rest.get(4..4usize.checked_add(len)?)?;
        *rest = &rest[4 + len..];
        Some(part)
    }
    let mut rest = bytes.strip_prefix(BUNDLE_MAGIC.as_slice())?;
    let mut pairs = Vec::new();
    while !rest.is_empty() {
        let key = take(&mut rest)?;
        let value = take(&mut rest)?;
        pairs.push((key, value));
    }
    Some(pairs)
}

impl CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let mut entries = self.lock();
        let entry = entries.map.get(key).cloned()?;
        entries.hits += 1;
        entries.used.insert(key.to_vec());
        Some(Cow::Owned(entry.to_vec()))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let mut entries = self.lock();
        entries.inserts += 1;
        if !Self::keep(&mut entries, key.to_vec(), value.into()) {
            return false;
        }
        entries.used.insert(key.to_vec());
        true
    }
}

static POOLED: OnceLock<bool> = OnceLock::new();

/// Chooses whether the shared engine allocates instances from its pool (on unless chosen
/// otherwise) or on demand. Only before the engine is first used, like [`set_compile_profile`].
///
/// The pool pays where one process makes many runs (a batch, a server): its slots are reused
/// warm. Creating it is not free: each of its fiber stacks ([`POOL_SLOTS`] and an eighth more
/// for headroom) gets a guard page by its own `mprotect`, which splits the process's memory map
/// each time: a quarter of the CPU of a cached `baton run` of a small plan. A process that makes
/// one run (`baton run`, `baton replay`) allocates on demand instead: such a run of a cached
/// three-line plan took 14.9 -> 10.3 ms, of a new one 38.5 -> 33.7 ms (medians of 21, side by
/// side; BENCHMARKS.md, stop 51). Its branches' instances are still bounded by
/// [`instance_permits`], and each store's memory by its limiter.
pub fn set_instance_pool(pooled: bool) -> bool {
    ENGINE.get().is_none() && POOLED.set(pooled).is_ok()
}

/// Whether the shared engine allocates from its pool ([`set_instance_pool`]; fixed once the
/// engine is first used).
pub fn instance_pool() -> bool {
    *POOLED.get_or_init(|| true)
}

static ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();

/// The shared engine, created on first use together with its epoch ticker thread.
///
/// Errors (a configuration this build of wasmtime cannot honour) are reported as text, the same
/// on every call.
pub fn engine() -> Result<&'static Engine, String> {
    ENGINE
        .get_or_init(|| {
            // The pool reserves address space up front; where that is refused, allocate on
            // demand rather than not run at all.
            let engine = if instance_pool() {
                Engine::new(&config()).or_else(|_| Engine::new(&base_config()))
            } else {
                Engine::new(&base_config())
            }
            .map_err(|error| format!("{error:#}"))?;
            start_epoch(&engine)?;
            Ok(engine)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Modules of at least this many bytes are compiled by [`large_module_engine`].
pub const LARGE_MODULE_BYTES: usize = 256 << 10;

static LARGE_MODULE_ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();

/// The engine that compiles modules of [`LARGE_MODULE_BYTES`] or more: the shared engine's
/// settings without intra-module inlining (the same engine where the profile does not inline).
///
/// Why: to inline, wasmtime first translates every function of a module and keeps all of them
/// in memory until the last is compiled, so compiling takes memory in proportion to the whole
/// module: a plan of 6,000 lines took 350 MB to compile, the largest the checker accepts
/// (200,000 syntax nodes) 1.6 GB, none of it bounded by the run's memory limit. Without
/// inlining each function's memory is freed as it is done (49 MB instead of 288 for the same
/// module). What inlining buys is inside the runtime, whose precompiled code this engine cannot
/// use (wasmtime refuses code compiled with other inlining settings): it compiles the runtime
/// once (about 0.3 s; the module cache keeps it) and the calls into it are not inlined anyway.
/// A plan's own functions gain little from inlining, and a plan this large is mostly
/// module-level code that runs once. On-demand instance allocation: large plans are rare, and
/// a second pool would reserve as much address space again.
pub fn large_module_engine() -> Result<&'static Engine, String> {
    if compile_profile() != CompileProfile::Optimised {
        return engine();
    }
    LARGE_MODULE_ENGINE
        .get_or_init(|| {
            let mut config = base_config();
            config.compiler_inlining(wasmtime::Inlining::No);
            let engine = Engine::new(&config).map_err(|error| format!("{error:#}"))?;
            start_epoch(&engine)?;
            Ok(engine)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The engine that compiles a module of `bytes` bytes (see [`large_module_engine`]).
pub fn engine_for(bytes: usize) -> Result<&'static Engine, String> {
    if bytes >= LARGE_MODULE_BYTES {
        large_module_engine()
    } else {
        engine()
    }
}

/// Starts the thread that advances `engine`'s epoch every [`EPOCH_TICK`] (the wall-clock
/// limit of the runs its modules make).
fn start_epoch(engine: &Engine) -> Result<(), String> {
    let ticker = engine.clone();
    std::thread::Builder::new()
        .name("baton-epoch".to_string())
        .spawn(move || loop {
            std::thread::sleep(EPOCH_TICK);
            ticker.increment_epoch();
        })
        .map(drop)
        .map_err(|error| format!("cannot start the epoch thread: {error}"))
}

/// The epoch deadline, in ticks, for a wall-clock `timeout`: rounded up, plus one tick because
/// the current tick is already partly over.
pub fn deadline_ticks(timeout: Duration) -> u64 {
    let tick = EPOCH_TICK.as_nanos().max(1);
    let ticks = timeout.as_nanos().div_ceil(tick);
    u64::try_from(ticks).unwrap_or(u64::MAX).saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_carry_the_used_functions_and_refuse_damage() {
        let dir = std::env::temp_dir().join(format!("baton-fn-bundle-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("functions.fncache");
        let cache = FunctionCache::default();
        assert!(!cache.bundle_is_stale(), "nothing compiled yet");
        assert!(cache.insert(b"key-1", b"code-1".to_vec()));
        assert!(cache.insert(b"key-2", b"code-2".to_vec()));
        assert!(cache.bundle_is_stale(), "two new functions, none found");
        cache.save_bundle(&path).unwrap();
        assert!(!cache.bundle_is_stale(), "saved: nothing new since");

        let next = FunctionCache::default();
        assert!(next.load_bundle(&path));
        assert_eq!(next.get(b"key-1").as_deref(), Some(&b"code-1"[..]));
        assert_eq!(next.get(b"key-2").as_deref(), Some(&b"code-2"[..]));
        assert_eq!(next.get(b"key-3"), None);
        assert!(!next.bundle_is_stale(), "found more than it compiled");

        // Cut short, or not a bundle at all: nothing is loaded and the file is removed.
        let bytes = std::fs::read(&path).unwrap();
        for damaged in [&bytes[..bytes.len() - 1], &b"BATONFN0"[..], &bytes[..5]] {
            std::fs::write(&path, damaged).unwrap();
            let fresh = FunctionCache::default();
            assert!(!fresh.load_bundle(&path));
            assert_eq!(fresh.get(b"key-1"), None);
            assert!(!path.exists());
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
