//! The compiled-module cache: misses, hits (in memory and on disk), corrupt entries, the
//! disabled cache, validation before any lookup. No test asserts on time.

use std::path::{Path, PathBuf};

use baton_host::cache::cache_dir_from;
use baton_host::{HostError, Limits, ModuleCache, ModuleError, Origin, RunOutcome};

const HELLO: &str = r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "hello\n")
  (func (export "baton_main") (result i32)
    (call $print (i32.const 64) (i32.const 6))
    (i32.const 0)))
"#;

const BYE: &str = r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "bye\n")
  (func (export "baton_main") (result i32)
    (call $print (i32.const 64) (i32.const 4))
    (i32.const 0)))
"#;

fn wasm(text: &str) -> Vec<u8> {
    wat::parse_str(text).unwrap_or_else(|error| panic!("bad test WAT: {error}"))
}

/// A fresh directory under the system temp dir (removed when dropped).
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("baton-cache-test-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn cache(&self) -> ModuleCache {
        ModuleCache::new(Some(self.0.clone()))
    }

    /// Cache entries (temporary files excluded).
    fn entries(&self) -> Vec<PathBuf> {
        let Ok(read) = std::fs::read_dir(&self.0) else {
            return Vec::new();
        };
        let mut entries: Vec<PathBuf> = read
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "cwasm"))
            .collect();
        entries.sort();
        entries
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(cache: &ModuleCache, bytes: &[u8]) -> (Origin, String) {
    let prepared = cache.prepare(bytes).expect("prepares");
    let mut out = Vec::new();
    let outcome = prepared.run(&Limits::default(), &mut out).expect("runs");
    assert_eq!(outcome, RunOutcome::Success);
    (prepared.origin(), String::from_utf8(out).unwrap())
}

#[test]
fn miss_then_memory_hit_then_disk_hit() {
    let dir = TempDir::new("hit");
    let bytes = wasm(HELLO);
    let cache = dir.cache();
    let entry = cache.entry_path(&bytes).unwrap().expect("disk cache on");
    assert!(entry.starts_with(dir.path()));
    assert!(!entry.exists());

    assert_eq!(run(&cache, &bytes), (Origin::Compiled, "hello\n".into()));
    assert!(entry.is_file(), "the compiled module is written back");
    assert_eq!(dir.entries(), vec![entry.clone()], "no temporary file left");
    assert_eq!(run(&cache, &bytes), (Origin::Memory, "hello\n".into()));

    // A new cache (a new process, in effect) on the same directory loads from disk.
    let fresh = dir.cache();
    assert_eq!(run(&fresh, &bytes), (Origin::Disk, "hello\n".into()));
    assert_eq!(run(&fresh, &bytes), (Origin::Memory, "hello\n".into()));

    // Forgetting the in-process map goes back to the disk.
    fresh.clear_memory();
    assert_eq!(run(&fresh, &bytes), (Origin::Disk, "hello\n".into()));
}

#[test]
fn different_modules_get_different_entries() {
    let dir = TempDir::new("keys");
    let cache = dir.cache();
    let (hello, bye) = (wasm(HELLO), wasm(BYE));
    assert_eq!(run(&cache, &hello), (Origin::Compiled, "hello\n".into()));
    assert_eq!(run(&cache, &bye), (Origin::Compiled, "bye\n".into()));
    assert_eq!(dir.entries().len(), 2);
    let fresh = dir.cache();
    assert_eq!(run(&fresh, &bye), (Origin::Disk, "bye\n".into()));
    assert_eq!(run(&fresh, &hello), (Origin::Disk, "hello\n".into()));
}

#[test]
fn corrupt_entries_are_deleted_and_recompiled() {
    let dir = TempDir::new("corrupt");
    let bytes = wasm(HELLO);
    let entry = {
        let cache = dir.cache();
        run(&cache, &bytes);
        cache.entry_path(&bytes).unwrap().unwrap()
    };
    let good = std::fs::read(&entry).unwrap();

    // Garbage, a truncated file, an empty file: each is refused, replaced and then loads.
    let damaged: Vec<Vec<u8>> = vec![
        b"not a compiled module".to_vec(),
        good[..good.len() / 2].to_vec(),
        Vec::new(),
    ];
    for bad in damaged {
        std::fs::write(&entry, &bad).unwrap();
        let cache = dir.cache();
        assert_eq!(run(&cache, &bytes), (Origin::Compiled, "hello\n".into()));
        assert_ne!(
            std::fs::read(&entry).unwrap(),
            bad,
            "the bad entry was replaced"
        );
        assert_eq!(run(&dir.cache(), &bytes), (Origin::Disk, "hello\n".into()));
    }
}

#[test]
fn validation_runs_before_any_lookup() {
    // A valid compiled entry planted under a refused module's key is never reached: the original
    // bytes are validated first, always.
    let dir = TempDir::new("validate-first");
    let cache = dir.cache();
    let hello = wasm(HELLO);
    run(&cache, &hello);
    let hello_entry = cache.entry_path(&hello).unwrap().unwrap();

    let refused = wasm(
        r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32) (i32.const 0)))"#,
    );
    let refused_entry = cache.entry_path(&refused).unwrap().unwrap();
    std::fs::copy(&hello_entry, &refused_entry).unwrap();
    let error = dir.cache().prepare(&refused).unwrap_err();
    assert!(
        matches!(error, HostError::Module(ModuleError::ForeignImport { .. })),
        "{error}"
    );
    let error = baton_host::run_module(&refused, &Limits::default(), &mut Vec::new()).unwrap_err();
    assert!(matches!(error, HostError::Module(_)), "{error}");
}

#[test]
fn disabled_cache_writes_nothing_but_remembers_in_process() {
    let dir = TempDir::new("off");
    assert_eq!(cache_dir_from(Some("off".as_ref()), None, None), None);
    assert_eq!(
        cache_dir_from(Some("off".as_ref()), Some(dir.path().as_os_str()), None),
        None,
        "`off` wins over XDG_CACHE_HOME"
    );
    let cache = ModuleCache::new(None);
    assert_eq!(cache.dir(), None);
    let bytes = wasm(HELLO);
    assert_eq!(cache.entry_path(&bytes).unwrap(), None);
    assert_eq!(run(&cache, &bytes), (Origin::Compiled, "hello\n".into()));
    assert_eq!(run(&cache, &bytes), (Origin::Memory, "hello\n".into()));
    assert_eq!(
        run(&ModuleCache::new(None), &bytes),
        (Origin::Compiled, "hello\n".into())
    );
    assert!(!dir.path().exists());
}

#[test]
fn a_cache_keeping_only_runtimes_on_disk_writes_no_plan_module() {
    // For tools whose plans never repeat (the differential tester): modules are compiled and
    // remembered in the process, never written to (nor looked for in) the directory.
    let dir = TempDir::new("runtime-only");
    let bytes = wasm(HELLO);
    let written = dir.cache();
    let entry = written.entry_path(&bytes).unwrap().expect("disk cache on");
    let cache = dir.cache().runtime_only_on_disk();
    assert_eq!(run(&cache, &bytes), (Origin::Compiled, "hello\n".into()));
    assert!(!entry.exists(), "no entry written");
    assert_eq!(run(&cache, &bytes), (Origin::Memory, "hello\n".into()));
    // An entry another cache wrote is not loaded either.
    assert_eq!(run(&written, &bytes), (Origin::Compiled, "hello\n".into()));
    assert!(entry.is_file());
    let fresh = dir.cache().runtime_only_on_disk();
    assert_eq!(run(&fresh, &bytes), (Origin::Compiled, "hello\n".into()));
}

#[cfg(unix)]
#[test]
fn a_directory_others_can_write_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("shared");
    std::fs::create_dir_all(dir.path()).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let bytes = wasm(HELLO);
    assert_eq!(
        run(&dir.cache(), &bytes),
        (Origin::Compiled, "hello\n".into())
    );
    assert!(
        dir.entries().is_empty(),
        "nothing written to a shared directory"
    );

    // Even a valid entry planted there is not loaded.
    let private = TempDir::new("private");
    let cache = private.cache();
    run(&cache, &bytes);
    let entry = cache.entry_path(&bytes).unwrap().unwrap();
    std::fs::copy(&entry, dir.path().join(entry.file_name().unwrap())).unwrap();
    assert_eq!(
        run(&dir.cache(), &bytes),
        (Origin::Compiled, "hello\n".into())
    );
}

#[test]
fn a_new_cache_directory_is_created_private() {
    let dir = TempDir::new("create");
    let nested = dir.path().join("a").join("b");
    let cache = ModuleCache::new(Some(nested.clone()));
    run(&cache, &wasm(HELLO));
    assert!(nested.is_dir());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&nested).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "mode {mode:o}");
    }
}

#[test]
fn pruning_drops_the_least_recently_used_entries() {
    use std::time::{Duration, SystemTime};
    let dir = TempDir::new("prune");
    let cache = dir.cache();
    let (hello, bye) = (wasm(HELLO), wasm(BYE));
    run(&cache, &hello);
    run(&cache, &bye);
    let hello_entry = cache.entry_path(&hello).unwrap().unwrap();
    let bye_entry = cache.entry_path(&bye).unwrap().unwrap();
    let age = |path: &Path, secs: u64| {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(secs))
            .unwrap();
    };
    age(&hello_entry, 100);
    age(&bye_entry, 200);
    // A disk hit marks the entry used: BYE becomes the newest.
    assert_eq!(run(&dir.cache(), &bye).0, Origin::Disk);

    let bye_len = std::fs::metadata(&bye_entry).unwrap().len();
    baton_host::cache::prune(dir.path(), u64::MAX);
    assert_eq!(dir.entries().len(), 2, "within budget: nothing deleted");
    baton_host::cache::prune(dir.path(), bye_len);
    assert_eq!(dir.entries(), vec![bye_entry]);
    assert_eq!(run(&dir.cache(), &hello).0, Origin::Compiled);
}

#[test]
fn a_large_module_and_its_runtime_are_compiled_without_inlining_and_kept() {
    // A plan of a few thousand lines: its module is past `LARGE_MODULE_BYTES`, so the engine
    // without inlining compiles it and the runtime it imports (engine.rs), and the entries are
    // keyed by that engine.
    let mut source = String::from("n = 0\n");
    for i in 0..2500 {
        source.push_str(&format!(
            "try:\n    n += len(str({i}).split(','))\nexcept ValueError:\n    n -= 1\n"
        ));
    }
    source.push_str("print(n)\n");
    let large = baton_compiler::compile_source("large.py", &source)
        .expect("compiles")
        .wasm;
    assert!(
        large.len() >= baton_host::engine::LARGE_MODULE_BYTES,
        "{}",
        large.len()
    );
    let small = baton_compiler::compile_source("small.py", "print(1)\n")
        .expect("compiles")
        .wasm;

    let dir = TempDir::new("large");
    let cache = dir.cache();
    let (large_entry, small_entry) = (
        cache.entry_path(&large).unwrap().unwrap(),
        cache.entry_path(&small).unwrap().unwrap(),
    );
    let engine_of = |entry: &Path| {
        let name = entry.file_stem().unwrap().to_string_lossy().into_owned();
        name.rsplit('-').next().unwrap().to_owned()
    };
    assert_ne!(engine_of(&large_entry), engine_of(&small_entry));

    let prepared = cache.prepare(&large).expect("prepares");
    let engine = prepared.module().engine();
    assert!(wasmtime::Engine::same(
        engine,
        baton_host::engine::large_module_engine().unwrap()
    ));
    assert!(!wasmtime::Engine::same(
        engine,
        baton_host::engine::engine().unwrap()
    ));
    assert_eq!(run(&cache, &large), (Origin::Memory, "2500\n".into()));
    assert!(large_entry.is_file());
    assert_eq!(run(&cache, &small), (Origin::Compiled, "1\n".into()));

    // A new process finds both on disk, the runtime for the large one too (compiled once,
    // under the runtime's key and that engine).
    let fresh = dir.cache();
    assert_eq!(run(&fresh, &large), (Origin::Disk, "2500\n".into()));
    assert_eq!(run(&fresh, &small), (Origin::Disk, "1\n".into()));
    assert!(dir.entries().len() >= 3, "{:?}", dir.entries());
}

#[test]
fn malformed_or_invalid_modules_are_refused_as_invalid_before_or_by_compiling() {
    // The cache leaves validating function bodies to wasmtime as it compiles them; what it
    // refuses, from a truncated module to a body outside the features, is reported as
    // validation reports it.
    let cache = ModuleCache::new(None);
    let simd_body = wasm(
        r#"(module (memory (export "memory") 1)
             (func (export "baton_main") (result i32)
               (drop (i32x4.splat (i32.const 0))) (i32.const 0)))"#,
    );
    let mut truncated = wasm(HELLO);
    truncated.truncate(truncated.len() - 3);
    for bytes in [&b"\0asm"[..], &truncated, &simd_body] {
        let error = cache.prepare(bytes).unwrap_err();
        assert!(
            matches!(error, HostError::Module(ModuleError::Invalid { .. })),
            "{error}"
        );
    }
}

#[test]
fn a_prepared_plan_runs_again_with_its_deviations_trapping_and_unchanged_without() {
    // A deliberate deviation (an int beyond 64 bits) the plan catches: a normal run shows
    // nothing of it; the same compiled module with the runtime's switch on traps there, after
    // printing the marker that names it, in the plan's code and in a function it calls.
    let source = "def f(n):\n    return 3 ** n\n\nprint('before')\ntry:\n    x = f(50)\nexcept OverflowError:\n    x = 0\nprint('after', x)\n";
    let plan = baton_compiler::compile_source("deviation.py", source).expect("compiles");
    let cache = ModuleCache::new(None);
    let prepared = cache.prepare(&plan.wasm).expect("prepares");
    let trapping = prepared
        .trapping_deviations()
        .expect("a plan module has the switch");
    let mut out = Vec::new();
    let error = trapping
        .run(&Limits::default(), &mut out)
        .expect_err("the deviation traps");
    assert!(matches!(error, HostError::Trap { .. }), "{error:?}");
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.starts_with("before\n")
            && out.ends_with("[baton deviation trap: 64-bit int or complex]"),
        "{out:?}"
    );
    // The switch belongs to the copy: the module it came from runs as before.
    let mut out = Vec::new();
    let outcome = prepared.run(&Limits::default(), &mut out).expect("runs");
    assert_eq!(outcome, RunOutcome::Success);
    assert_eq!(String::from_utf8(out).unwrap(), "before\nafter 0\n");
    // A module that carries its own runtime has no switch to set.
    let whole = cache.prepare(&wasm(HELLO)).expect("prepares");
    assert!(matches!(
        whole.trapping_deviations(),
        Err(HostError::Engine(message)) if message.contains("its own runtime")
    ));
}
