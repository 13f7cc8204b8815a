//! From plan text to a running instance: where the time goes.
//!
//! - `compile_plan200/check_and_compile`: `baton_compiler::compile_source` of `plan200.py` (a
//!   ~200-line orchestration plan): parse, check, generate, assemble the plan module's WAT text
//!   (the plan's own code; it imports the runtime) into wasm bytes;
//! - `wasmtime/compile_cold`: `Module::new` of the resulting module on the shared engine (no
//!   cache of any kind);
//! - `wasmtime/prepare_cold`: `ModuleCache::prepare` with a fresh in-process map and no disk
//!   cache: validation + Cranelift + `InstancePre`, i.e. everything before a run;
//! - `compile_plan200/assemble_wat`: the `wat` assembly alone, of the WAT text `compile_source`
//!   produced;
//! - `wasmtime/compile_incremental_empty`: `Module::new` with an empty Cranelift incremental cache
//!   (the cost of filling it);
//! - `wasmtime/compile_incremental`: `Module::new` on an engine whose Cranelift incremental cache
//!   was warmed by compiling a *different* (trivial) plan, so only what differs is compiled;
//! - `wasmtime/prepare_from_disk`: `ModuleCache::prepare` with a fresh in-process map and a warm
//!   cache directory: validation + `Module::deserialize_file` + `InstancePre`;
//! - `wasmtime/prepare_from_memory`: `ModuleCache::prepare` when this process prepared the bytes
//!   before: validation + SHA-256 + map lookup;
//! - `instantiate/*`: a fresh `Store` (limits, fuel, deadline) and the runtime's and plan200's
//!   instances, no call; `instantiate/pooling_raw` and `instantiate/on_demand_raw` compare
//!   wasmtime's pooling allocator with the default on-demand one on the runtime module alone (a
//!   bare store, its host calls traps, separate engines);
//! - `run/trivial_cached`: `prepare` (memory hit) + `Prepared::run` of `print("hi")` — what a
//!   repeated run costs end to end (validation, the run thread, instantiation, the call);
//! - `run/plan200_cached`: the same for plan200.
//!
//! Run: `cargo bench -p baton-host --bench run`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baton_host::engine;
use baton_host::{Limits, ModuleCache, Origin, RunOutcome};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use wasmtime::{
    CacheStore, Engine, InstanceAllocationStrategy, Linker, Module, PoolingAllocationConfig, Store,
    StoreLimitsBuilder,
};

const PLAN_NAME: &str = "plan200.py";
const PLAN: &str = include_str!("plan200.py");
const TRIVIAL: &str = "print(\"hi\")\n";

fn compile(name: &str, text: &str) -> Vec<u8> {
    match baton_compiler::compile_source(name, text) {
        Ok(plan) => plan.wasm,
        Err(error) => panic!("{name} does not compile: {error}"),
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("baton-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// An in-memory Cranelift incremental cache.
#[derive(Debug, Default, Clone)]
struct MemoryCacheStore(Arc<Mutex<HashMap<Vec<u8>, Vec<u8>>>>);

impl MemoryCacheStore {
    fn snapshot(&self) -> Self {
        MemoryCacheStore(Arc::new(Mutex::new(self.0.lock().unwrap().clone())))
    }
}

impl CacheStore for MemoryCacheStore {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        self.0.lock().unwrap().get(key).cloned().map(Cow::Owned)
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        self.0.lock().unwrap().insert(key.to_vec(), value);
        true
    }
}

fn incremental_engine(store: MemoryCacheStore) -> Engine {
    let mut config = engine::config();
    config
        .enable_incremental_compilation(Arc::new(store))
        .expect("incremental cache");
    Engine::new(&config).expect("engine")
}

fn bench_compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile_plan200");
    group.bench_function("check_and_compile", |b| {
        b.iter(|| baton_compiler::compile_source(black_box(PLAN_NAME), black_box(PLAN)))
    });
    // The WAT text assembly alone (the plan module, with `wat`).
    let plan = baton_compiler::compile_source(PLAN_NAME, PLAN).expect("compiles");
    eprintln!("plan200 WAT: {} bytes", plan.wat.len());
    group.bench_function("assemble_wat", |b| {
        b.iter(|| wat::parse_str(black_box(&plan.wat)).expect("assembles"))
    });
    group.finish();
}

fn bench_wasmtime(c: &mut Criterion) {
    let wasm = compile(PLAN_NAME, PLAN);
    let trivial = compile("trivial.py", TRIVIAL);
    eprintln!(
        "plan200 module: {} bytes; trivial module: {} bytes",
        wasm.len(),
        trivial.len()
    );
    let shared = engine::engine().expect("engine");

    let mut group = c.benchmark_group("wasmtime");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("compile_cold", |b| {
        b.iter(|| Module::new(shared, black_box(&wasm)).expect("compiles"))
    });
    group.bench_function("prepare_cold", |b| {
        b.iter(|| {
            let cache = ModuleCache::new(None);
            let prepared = cache.prepare(black_box(&wasm)).expect("prepares");
            assert_eq!(prepared.origin(), Origin::Compiled);
            prepared
        })
    });

    // Warm Cranelift's incremental cache with a different plan (the runtime is the same), then
    // measure plan200 on a copy of that warm cache each time.
    let warm = MemoryCacheStore::default();
    Module::new(&incremental_engine(warm.clone()), &trivial).expect("compiles");
    eprintln!(
        "incremental cache after the trivial plan: {} entries",
        warm.0.lock().unwrap().len()
    );
    group.bench_function("compile_incremental_empty", |b| {
        b.iter_batched(
            || incremental_engine(MemoryCacheStore::default()),
            |engine| Module::new(&engine, black_box(&wasm)).expect("compiles"),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("compile_incremental", |b| {
        b.iter_batched(
            || incremental_engine(warm.snapshot()),
            |engine| Module::new(&engine, black_box(&wasm)).expect("compiles"),
            BatchSize::PerIteration,
        )
    });

    let dir = temp_dir("disk");
    let writer = ModuleCache::new(Some(dir.clone()));
    assert_eq!(writer.prepare(&wasm).unwrap().origin(), Origin::Compiled);
    let entry = writer.entry_path(&wasm).unwrap().unwrap();
    eprintln!(
        "serialized plan200 module: {} bytes",
        std::fs::metadata(&entry).map(|m| m.len()).unwrap_or(0)
    );
    group.sample_size(50);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("prepare_from_disk", |b| {
        b.iter(|| {
            let cache = ModuleCache::new(Some(dir.clone()));
            let prepared = cache.prepare(black_box(&wasm)).expect("prepares");
            assert_eq!(prepared.origin(), Origin::Disk);
            prepared
        })
    });
    group.sample_size(100);
    group.bench_function("prepare_from_memory", |b| {
        b.iter(|| {
            let prepared = writer.prepare(black_box(&wasm)).expect("prepares");
            assert_eq!(prepared.origin(), Origin::Memory);
            prepared
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn raw_engine(pooling: bool) -> Engine {
    let mut config = engine::config();
    if pooling {
        let mut pool = PoolingAllocationConfig::default();
        pool.total_memories(64)
            .total_tables(64)
            .total_core_instances(64)
            .total_gc_heaps(64)
            .max_memory_size(Limits::DEFAULT_MEMORY_BYTES);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    Engine::new(&config).expect("engine")
}

fn bench_instantiate(c: &mut Criterion) {
    let wasm = compile(PLAN_NAME, PLAN);
    let limits = Limits::default();
    let cache = ModuleCache::new(None);
    let prepared = cache.prepare(&wasm).expect("prepares");

    let mut group = c.benchmark_group("instantiate");
    group.bench_function("plan200", |b| {
        b.iter(|| {
            prepared
                .instantiate(black_box(&limits))
                .expect("instantiates")
        })
    });
    // The runtime module (what every plan's store instantiates first), its host calls traps.
    let runtime = baton_runtime::linking::runtime_module()
        .binary()
        .expect("the runtime assembles");
    for pooling in [false, true] {
        let engine = raw_engine(pooling);
        let module = Module::new(&engine, &runtime).expect("compiles");
        let mut linker = Linker::<wasmtime::StoreLimits>::new(&engine);
        linker
            .define_unknown_imports_as_traps(&module)
            .expect("links");
        let pre = linker.instantiate_pre(&module).expect("links");
        let name = if pooling {
            "pooling_raw"
        } else {
            "on_demand_raw"
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let limits = StoreLimitsBuilder::new()
                    .memory_size(Limits::DEFAULT_MEMORY_BYTES)
                    .instances(1)
                    .memories(1)
                    .build();
                let mut store = Store::new(&engine, limits);
                store.limiter(|l| l);
                store.set_fuel(Limits::DEFAULT_FUEL).unwrap();
                store.set_epoch_deadline(1000);
                pre.instantiate(&mut store).expect("instantiates");
            })
        });
    }
    group.finish();
}

fn bench_run(c: &mut Criterion) {
    let trivial = compile("trivial.py", TRIVIAL);
    let plan = compile(PLAN_NAME, PLAN);
    let limits = Limits::default();
    let cache = ModuleCache::new(None);
    let mut group = c.benchmark_group("run");
    for (name, wasm) in [("trivial_cached", &trivial), ("plan200_cached", &plan)] {
        cache.prepare(wasm).expect("prepares");
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut out = Vec::new();
                let outcome = cache
                    .prepare(black_box(wasm))
                    .expect("prepares")
                    .run(&limits, &mut out)
                    .expect("runs");
                assert_eq!(outcome, RunOutcome::Success);
                out
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_compile,
    bench_wasmtime,
    bench_instantiate,
    bench_run
);
criterion_main!(benches);
