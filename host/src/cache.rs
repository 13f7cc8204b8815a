//! The compiled-module cache: compile a module once, then load it from memory or disk.
//!
//! [`ModuleCache::prepare`] turns module bytes into a [`Prepared`] module — a compiled
//! [`Module`] plus its [`InstancePre`] (imports resolved once, so a run only creates a `Store` and
//! instantiates). In order:
//!
//! 1. [`validate_module`] checks the *original bytes*, always, before any lookup: a cache hit never
//!    lets a module skip the import allowlist (for a plan module, all but its function bodies'
//!    validity, which wasmtime checks as it compiles them; a hit was compiled from the same bytes);
//! 2. the in-process map (SHA-256 of the bytes → [`Prepared`], the [`MEMORY_ENTRIES`] most
//!    recently inserted) — repeated runs in one process compile once;
//! 3. the cache directory: the file `<sha256 of bytes>-<engine hash>.cwasm`, loaded with
//!    `Module::deserialize_file`. The engine hash is SHA-256 of
//!    [`Engine::precompile_compatibility_hash`], so a different wasmtime version or configuration
//!    never finds the entry. If deserializing fails (a corrupt, truncated or mismatched entry) the
//!    file is deleted and the module recompiled: an entry is never trusted twice;
//! 4. otherwise Cranelift compiles the bytes and the result is written back: serialized to a
//!    temporary file in the same directory, then renamed over the entry, so a reader sees either
//!    no file or a complete one.
//!
//! When it compiles, it first loads the directory's *function bundle* into the engine's
//! incremental compilation cache ([`engine::FunctionCache`], once per process), and writes it
//! back when this process compiled more new functions than it found there. The bundle holds
//! compiled code, so it is trusted exactly as the serialized modules are.
//!
//! Each module is compiled by the engine [`engine::engine_for`] chooses by its size (a large one
//! without inlining, so that compiling it does not hold the whole module in memory); the
//! runtime it imports is compiled by the same engine, and entries are keyed by that engine.
//!
//! A plan module imports the runtime module (`baton_runtime::linking`). The runtime is
//! precompiled into Baton when it is built (`runtime_image.rs`); only where wasmtime refuses
//! that code is it compiled here, then kept in the directory like any module, under a key made
//! of its version. The plan module is prepared with its imports checked against it
//! (`instantiate.rs`).
//!
//! The directory also keeps *module bytes* under a key the caller chooses
//! ([`ModuleCache::store_module_bytes`]): `baton run PLAN.py` stores the module it compiled
//! from a plan's source, so running the same plan again skips the compiler (see
//! `baton::plan_cache`). These are plain `.wasm` files, validated again when they run.
//!
//! Writing to the cache is best effort: if the directory cannot be created or written, the run
//! goes on with the freshly compiled module.
//!
//! # Where
//!
//! [`ModuleCache::from_env`]: `$BATON_CACHE_DIR` if set and not empty; `BATON_CACHE_DIR=off`
//! disables the disk cache (the in-process map stays); else `$XDG_CACHE_HOME/baton/modules`, else
//! `$HOME/.cache/baton/modules`; with none of these the disk cache is off.
//!
//! # Trust
//!
//! Loading a serialized module is `unsafe`: wasmtime checks its header (wasmtime version, engine
//! configuration, ELF structure) but not the machine code, so a forged file runs arbitrary native
//! code in the host. The cache therefore only ever loads files it wrote itself, and relies on
//! **the cache directory not being writable by anyone untrusted**. It enforces what it cheaply
//! can: the directory is created with mode 0700, and (on Unix) a directory that is not owned by
//! the effective user or that is group- or world-writable is not used at all (no reads, no
//! writes). Parent directories are not checked: do not point `BATON_CACHE_DIR` into a directory
//! another user controls. Accidental damage (a truncated or bit-rotted file) is caught when
//! wasmtime refuses the file's structure; damage that keeps the structure valid is not detected.
//!
//! A loaded module maps its file into memory, and wasmtime requires that file to stay unchanged
//! while the module lives. The cache never writes into an existing entry: it only creates files
//! under temporary names, renames them into place and unlinks bad ones, which leave a mapped
//! inode untouched. Clearing the cache with `rm` is likewise safe.
//!
//! # Size
//!
//! A test suite that runs hundreds of distinct plans would otherwise grow the directory without
//! bound. After each
//! write, if the entries exceed [`DISK_BUDGET_BYTES`], the least recently used ones (by
//! modification time, which a disk hit refreshes) are deleted until they fit.

use std::collections::{HashMap, VecDeque};
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use baton_runtime::linking::{RUNTIME_IMPORT_PREFIX, RUNTIME_VERSION};
use sha2::{Digest, Sha256};
use wasmtime::{Engine, InstancePre, Module};

use crate::atomic_file::write_atomically;
use crate::engine;
use crate::error::HostError;
use crate::imports::{validate_module, validate_module_but_bodies, ModuleError};
use crate::instantiate::Instantiation;
use crate::linker;
use crate::runtime_image::{self, RUNTIME_WASM};
use crate::state::HostState;

/// The environment variable that overrides the cache directory (`off` disables it).
pub const CACHE_DIR_ENV: &str = "BATON_CACHE_DIR";

/// The value of [`CACHE_DIR_ENV`] that disables the disk cache.
pub const CACHE_OFF: &str = "off";

/// How many prepared modules the in-process map keeps (the oldest inserted is dropped first).
/// Each holds its compiled code (and the runtime's, shared), so the map is bounded.
pub const MEMORY_ENTRIES: usize = 32;

/// The most bytes of entries the cache directory keeps (see "Size" in the module docs).
pub const DISK_BUDGET_BYTES: u64 = 256 << 20;

/// The file name extension of cache entries.
const ENTRY_EXTENSION: &str = "cwasm";

/// The file name extension of module-bytes entries ([`ModuleCache::store_module_bytes`]).
const BYTES_EXTENSION: &str = "wasm";

/// The file name extension of the runtime module's bytes that builds before the runtime was
/// embedded kept here: no longer written, still pruned.
const RUNTIME_EXTENSION: &str = "runtime";

/// The file name extension of the compiled-function bundle ([`engine::FunctionCache`]).
const BUNDLE_EXTENSION: &str = "fncache";

/// Where a [`Prepared`] module came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The in-process map: this process prepared the same bytes before.
    Memory,
    /// The cache directory (deserialized, not compiled).
    Disk,
    /// Compiled by Cranelift now.
    Compiled,
}

/// A validated, compiled module with its imports resolved: ready to instantiate in a fresh
/// `Store` per run ([`Prepared::run`]). Cloning is cheap (reference counted).
#[derive(Clone)]
pub struct Prepared {
    pub(crate) module: Module,
    pub(crate) instantiation: Instantiation<HostState>,
    origin: Origin,
}

impl Prepared {
    /// Where the compiled code came from.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The compiled wasmtime module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// This module with the runtime's deviation switch on in its runs
    /// ([`baton_runtime::linking::TRAP_DEVIATIONS_EXPORT`]): where Baton deviates from CPython
    /// on purpose, the run prints a marker naming the deviation and traps, which a plan's
    /// `except` cannot hide. For the differential tester, which re-runs a plan whose output
    /// differs from CPython's to tell a deliberate deviation from a bug, with the code it
    /// compiled already. A module that carries its own runtime has no switch: refused.
    pub fn trapping_deviations(&self) -> Result<Prepared, HostError> {
        let instantiation = self.instantiation.trapping_deviations().ok_or_else(|| {
            HostError::Engine(
                "the module carries its own runtime, which has no deviation switch".to_string(),
            )
        })?;
        Ok(Prepared {
            module: self.module.clone(),
            instantiation,
            origin: self.origin,
        })
    }
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

/// The SHA-256 of a module's bytes: the cache key (with the engine hash, for files).
pub type ModuleHash = [u8; 32];

/// SHA-256 of `bytes`.
pub fn module_hash(bytes: &[u8]) -> ModuleHash {
    Sha256::digest(bytes).into()
}

/// A [`Hasher`] that feeds SHA-256, to digest [`Engine::precompile_compatibility_hash`] (which
/// only implements [`Hash`]) into a stable, collision-resistant value.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        // Not used: the full digest is taken with `finalize`.
        let digest = self.0.clone().finalize();
        u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
    }
}

/// SHA-256 of the engine's precompile compatibility hash, in hex: two engines with the same value
/// can load each other's serialized modules.
pub fn engine_hash(engine: &Engine) -> String {
    let mut hasher = ShaHasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hex(&hasher.0.finalize())
}

/// The [`engine_hash`] of one of the process's engines (`engine.rs`), computed once each.
fn shared_engine_hash(engine: &Engine) -> String {
    static HASHES: Mutex<Vec<(Engine, String)>> = Mutex::new(Vec::new());
    let mut hashes = crate::sync::lock(&HASHES);
    if let Some((_, hash)) = hashes.iter().find(|(e, _)| Engine::same(e, engine)) {
        return hash.clone();
    }
    let hash = engine_hash(engine);
    hashes.push((engine.clone(), hash.clone()));
    hash
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// The cache directory that [`ModuleCache::from_env`] uses, from the values of
/// `BATON_CACHE_DIR`, `XDG_CACHE_HOME` and `HOME` (empty values count as unset). `None`: the disk
/// cache is off.
pub fn cache_dir_from(
    baton_cache_dir: Option<&OsStr>,
    xdg_cache_home: Option<&OsStr>,
    home: Option<&OsStr>,
) -> Option<PathBuf> {
    fn set(value: Option<&OsStr>) -> Option<&OsStr> {
        value.filter(|v| !v.is_empty())
    }
    if let Some(dir) = set(baton_cache_dir) {
        if dir == CACHE_OFF {
            return None;
        }
        return Some(PathBuf::from(dir));
    }
    if let Some(xdg) = set(xdg_cache_home) {
        return Some(Path::new(xdg).join("baton").join("modules"));
    }
    set(home).map(|home| Path::new(home).join(".cache").join("baton").join("modules"))
}

/// The in-process map: bounded, oldest insertion dropped first.
#[derive(Default)]
struct Memo {
    map: HashMap<ModuleHash, Prepared>,
    order: VecDeque<ModuleHash>,
}

impl Memo {
    fn insert(&mut self, key: ModuleHash, prepared: Prepared) {
        if self.map.insert(key, prepared).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > MEMORY_ENTRIES {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
    }
}

/// Compiled modules, in this process and (optionally) on disk. See the module docs.
pub struct ModuleCache {
    dir: Option<PathBuf>,
    /// Whether plan modules (every module but a runtime) are kept in `dir` too
    /// ([`ModuleCache::runtime_only_on_disk`]).
    plans_on_disk: bool,
    memo: Mutex<Memo>,
}

impl std::fmt::Debug for ModuleCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModuleCache")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl ModuleCache {
    /// A cache storing entries in `dir` (`None`: in-process only). The directory is created on
    /// first write.
    pub fn new(dir: Option<PathBuf>) -> Self {
        ModuleCache {
            dir,
            plans_on_disk: true,
            memo: Mutex::new(Memo::default()),
        }
    }

    /// This cache keeping only runtime modules on disk (those compiled here, for an engine the
    /// runtime precompiled into Baton does not serve), plan modules in memory only: for a tool
    /// that compiles thousands of plans that never repeat with such an engine (the differential
    /// tester), which then compiles the runtime once per machine instead of once per process
    /// (a third of a second), and does not write every plan's module to disk.
    pub fn runtime_only_on_disk(mut self) -> Self {
        self.plans_on_disk = false;
        self
    }

    /// A cache in the directory chosen by the environment (see the module docs).
    pub fn from_env() -> Self {
        Self::new(cache_dir_from(
            std::env::var_os(CACHE_DIR_ENV).as_deref(),
            std::env::var_os("XDG_CACHE_HOME").as_deref(),
            std::env::var_os("HOME").as_deref(),
        ))
    }

    /// The process-wide cache that [`run_module`](crate::run_module) uses, created with
    /// [`ModuleCache::from_env`] on first use.
    pub fn global() -> &'static ModuleCache {
        static GLOBAL: OnceLock<ModuleCache> = OnceLock::new();
        GLOBAL.get_or_init(ModuleCache::from_env)
    }

    /// The cache directory, if the disk cache is on.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The file that holds (or would hold) the compiled form of `bytes` for the engine that
    /// compiles it ([`engine::engine_for`]).
    pub fn entry_path(&self, bytes: &[u8]) -> Result<Option<PathBuf>, HostError> {
        let engine = engine::engine_for(bytes.len()).map_err(HostError::Engine)?;
        Ok(self
            .dir
            .as_deref()
            .map(|dir| entry_path(dir, &module_hash(bytes), &shared_engine_hash(engine))))
    }

    /// Forgets every module prepared in this process (the disk cache is untouched).
    pub fn clear_memory(&self) {
        let mut memo = self
            .memo
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        *memo = Memo::default();
    }

    /// Validates `bytes` and returns the compiled module ready to run, from this process's map,
    /// the cache directory, or Cranelift (see the module docs).
    pub fn prepare(&self, bytes: &[u8]) -> Result<Prepared, HostError> {
        self.prepare_with_runtime(bytes, None)
    }

    /// [`ModuleCache::prepare`] for a plan module that may have been compiled by another build
    /// of Baton: when it imports a runtime other than this build's, `kept` must be that
    /// runtime's bytes (a run directory's `runtime.wasm`, see [`RUNTIME_WASM`]),
    /// which are validated like any module and compiled (and cached) like any module.
    pub fn prepare_with_runtime(
        &self,
        bytes: &[u8],
        kept: Option<&[u8]>,
    ) -> Result<Prepared, HostError> {
        // Function bodies are validated by wasmtime as it compiles them (a memory or disk hit was
        // compiled from these very bytes): not twice.
        let info = validate_module_but_bodies(bytes)?;
        // A plan module and the runtime it imports must be compiled by one engine.
        let engine = engine::engine_for(bytes.len()).map_err(HostError::Engine)?;
        let runtime = match info.runtime_version() {
            None => None,
            Some(version) if version == RUNTIME_VERSION => Some(self.runtime(engine)?),
            Some(version) => {
                let Some(kept) = kept else {
                    return Err(ModuleError::RuntimeVersion {
                        found: version.to_owned(),
                    }
                    .into());
                };
                Some(self.kept_runtime(engine, version, kept)?)
            }
        };
        let key = module_hash(bytes);
        if let Some(found) = self.memo().map.get(&key) {
            let mut found = found.clone();
            found.origin = Origin::Memory;
            return Ok(found);
        }
        let (module, origin) =
            match self.compiled(engine, &key, self.plans_on_disk, || Ok(bytes.to_vec())) {
                Ok(compiled) => compiled,
                Err(error) => {
                    // An invalid body is refused as validation refuses it.
                    validate_module(bytes)?;
                    return Err(error);
                }
            };
        let instantiation = match runtime {
            Some(runtime) => {
                let host_calls = linker::host_call_linker(module.engine())?;
                Instantiation::linked(&runtime, &module, host_calls)?
            }
            None => Instantiation::Whole(linker::instance_pre(&module)?),
        };
        let prepared = Prepared {
            module,
            instantiation,
            origin,
        };
        self.memo().insert(key, prepared.clone());
        Ok(prepared)
    }

    /// This build's runtime module, compiled, its imports resolved: once per process, from the
    /// code precompiled into Baton ([`runtime_image`]); where wasmtime refuses that code,
    /// compiled once per build and engine and kept on disk like any module.
    fn runtime(&self, engine: &Engine) -> Result<InstancePre<HostState>, HostError> {
        // One compiled runtime per engine of the process (`engine.rs`: at most two): kept
        // apart from the plan modules' map, which `clear_memory` empties and each
        // `ModuleCache` has its own of.
        static RUNTIMES: Mutex<Vec<InstancePre<HostState>>> = Mutex::new(Vec::new());
        let mut runtimes = crate::sync::lock(&RUNTIMES);
        if let Some(runtime) = runtimes
            .iter()
            .find(|pre| Engine::same(pre.module().engine(), engine))
        {
            return Ok(runtime.clone());
        }
        let module = match runtime_image::precompiled(engine) {
            Some(module) => module,
            None => {
                // Keyed by the runtime's version, so that finding it does not need its bytes.
                let key = module_hash(format!("baton runtime {RUNTIME_VERSION}").as_bytes());
                let (module, _) = self.compiled(engine, &key, true, || {
                    validate_module(RUNTIME_WASM)?;
                    Ok(RUNTIME_WASM.to_vec())
                })?;
                module
            }
        };
        let pre = linker::instance_pre(&module)?;
        runtimes.push(pre.clone());
        Ok(pre)
    }

    /// A runtime module kept beside a run (`bytes`), which must be runtime `version`.
    fn kept_runtime(
        &self,
        engine: &Engine,
        version: &str,
        bytes: &[u8],
    ) -> Result<InstancePre<HostState>, HostError> {
        let refuse = |problem: String| {
            HostError::from(ModuleError::KeptRuntime {
                expected: version.to_owned(),
                problem,
            })
        };
        let info = validate_module(bytes).map_err(|error| refuse(error.to_string()))?;
        let name = format!("{RUNTIME_IMPORT_PREFIX}{version}");
        if info.runtime_version().is_some() || !info.exports.iter().any(|e| e.name == name) {
            return Err(refuse(format!("it does not export `{name}`")));
        }
        let (module, _) =
            self.compiled(engine, &module_hash(bytes), true, || Ok(bytes.to_vec()))?;
        linker::instance_pre(&module)
    }

    /// The module cached under `key` for `engine` (see the module docs), or `bytes()` compiled
    /// now and kept (on disk too when `on_disk` and the cache has a directory).
    fn compiled(
        &self,
        engine: &Engine,
        key: &ModuleHash,
        on_disk: bool,
        bytes: impl FnOnce() -> Result<Vec<u8>, HostError>,
    ) -> Result<(Module, Origin), HostError> {
        let hash = shared_engine_hash(engine);
        let path =
            if on_disk { self.usable_dir() } else { None }.map(|dir| entry_path(&dir, key, &hash));
        if let Some(module) = path.as_deref().and_then(|path| load(engine, path)) {
            return Ok((module, Origin::Disk));
        }
        let bundle = path
            .as_deref()
            .and_then(Path::parent)
            .map(|dir| bundle_path(dir, &hash));
        if let Some(bundle) = &bundle {
            load_bundle_once(bundle);
        }
        let module = Module::new(engine, bytes()?)
            .map_err(|error| HostError::Engine(format!("cannot compile the module: {error:#}")))?;
        if let Some(bundle) = &bundle {
            let functions = engine::FunctionCache::shared();
            // Best effort, like every write to the cache.
            if functions.bundle_is_stale() && functions.save_bundle(bundle).is_ok() {
                prune(bundle.parent().unwrap_or(Path::new(".")), DISK_BUDGET_BYTES);
            }
        }
        if let Some(path) = &path {
            // Best effort: a cache that cannot be written is only slower.
            if store(&module, path).is_ok() {
                prune(path.parent().unwrap_or(Path::new(".")), DISK_BUDGET_BYTES);
            }
        }
        Ok((module, Origin::Compiled))
    }

    /// Module bytes stored under `key` by [`ModuleCache::store_module_bytes`], if the disk
    /// cache is on and has them. The caller chooses the key (`baton run` uses a digest of the
    /// compiler's build and the plan's source, so a plan it ran before is not compiled again).
    ///
    /// The bytes are as trusted as the directory (see "Trust"), but they are only module bytes:
    /// running them goes through [`ModuleCache::prepare`], which validates them like any other
    /// module, so a tampered entry can change what a plan does, never what it may import.
    pub fn load_module_bytes(&self, key: &ModuleHash) -> Option<Vec<u8>> {
        read_entry(&bytes_path(&self.usable_dir()?, key))
    }

    /// Stores `bytes` under `key` (atomically, best effort: a cache that cannot be written is
    /// only slower), for [`ModuleCache::load_module_bytes`].
    pub fn store_module_bytes(&self, key: &ModuleHash, bytes: &[u8]) {
        let Some(dir) = self.usable_dir() else {
            return;
        };
        write_entry(&bytes_path(&dir, key), bytes);
    }

    fn memo(&self) -> std::sync::MutexGuard<'_, Memo> {
        self.memo
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// The cache directory, created if missing, if it is safe to use (see "Trust").
    fn usable_dir(&self) -> Option<PathBuf> {
        let dir = self.dir.as_deref()?;
        create_private_dir(dir).ok()?;
        dir_is_private(dir).then(|| dir.to_path_buf())
    }
}

fn entry_path(dir: &Path, key: &ModuleHash, engine_hash: &str) -> PathBuf {
    dir.join(format!("{}-{engine_hash}.{ENTRY_EXTENSION}", hex(key)))
}

/// The function bundle of engines with `engine_hash` (see [`engine::FunctionCache`]).
fn bundle_path(dir: &Path, engine_hash: &str) -> PathBuf {
    dir.join(format!("functions-{engine_hash}.{BUNDLE_EXTENSION}"))
}

/// Loads the function bundle into the shared function cache, once per process.
fn load_bundle_once(path: &Path) {
    static LOADED: OnceLock<()> = OnceLock::new();
    LOADED.get_or_init(|| {
        if engine::FunctionCache::shared().load_bundle(path) {
            mark_used(path);
        }
    });
}

/// A bytes entry's contents, marked used for pruning.
fn read_entry(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    mark_used(path);
    Some(bytes)
}

/// Writes a bytes entry atomically, then prunes the directory; best effort, like every write to
/// the cache.
fn write_entry(path: &Path, bytes: &[u8]) {
    if write_atomically(path, bytes).is_ok() {
        prune(path.parent().unwrap_or(Path::new(".")), DISK_BUDGET_BYTES);
    }
}

fn bytes_path(dir: &Path, key: &ModuleHash) -> PathBuf {
    dir.join(format!("{}.{BYTES_EXTENSION}", hex(key)))
}

/// Loads the entry at `path`, or deletes it if wasmtime refuses it. `None` when there is no
/// usable entry.
fn load(engine: &Engine, path: &Path) -> Option<Module> {
    if !path.is_file() {
        return None;
    }
    // SAFETY: `path` is in a directory that only the effective user can write (checked by
    // `usable_dir`, see "Trust" in the module docs), and its name carries the SHA-256 of the
    // module bytes and of the engine's compatibility hash, so it is a file this cache serialized
    // from exactly these bytes with a compatible engine. The cache never modifies an existing
    // file in place (only rename and unlink), so the mapped file stays unchanged while the
    // module lives.
    match unsafe { Module::deserialize_file(engine, path) } {
        Ok(module) => {
            mark_used(path);
            Some(module)
        }
        Err(_) => {
            // Corrupt, truncated or from an incompatible engine: never trust it again.
            let _ = std::fs::remove_file(path);
            None
        }
    }
}

/// Marks the entry at `path` recently used, for [`prune`]: its modification time only, the
/// contents stay unchanged (a loaded module maps its file).
fn mark_used(path: &Path) {
    if let Ok(file) = std::fs::File::options().write(true).open(path) {
        let _ = file.set_modified(std::time::SystemTime::now());
    }
}

/// Serializes `module` to `path` atomically: a temporary file in the same directory, renamed
/// into place.
fn store(module: &Module, path: &Path) -> std::io::Result<()> {
    let bytes = module
        .serialize()
        .map_err(|error| std::io::Error::other(format!("{error:#}")))?;
    write_atomically(path, &bytes)
}

/// Deletes the least recently used entries of `dir` (compiled modules and module bytes) until
/// the rest take at most `budget` bytes. Temporary files and anything that is not an entry are left alone. Deleting an entry another
/// process has loaded is safe: its mapping keeps the unlinked file alive.
pub fn prune(dir: &Path, budget: u64) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(std::time::SystemTime, u64, PathBuf)> = read
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.')
                && [
                    ENTRY_EXTENSION,
                    BYTES_EXTENSION,
                    RUNTIME_EXTENSION,
                    BUNDLE_EXTENSION,
                ]
                .iter()
                .any(|extension| name.ends_with(&format!(".{extension}")))
        })
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            let modified = metadata.modified().ok()?;
            Some((modified, metadata.len(), entry.path()))
        })
        .collect();
    let mut total: u64 = entries.iter().map(|(_, len, _)| len).sum();
    if total <= budget {
        return;
    }
    entries.sort();
    for (_, len, path) in entries {
        if total <= budget {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total = total.saturating_sub(len);
        }
    }
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

/// Whether `dir` is a directory owned by the effective user that neither group nor others may
/// write.
#[cfg(unix)]
fn dir_is_private(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(metadata) = std::fs::metadata(dir) else {
        return false;
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    metadata.is_dir() && metadata.uid() == euid && metadata.mode() & 0o022 == 0
}

#[cfg(not(unix))]
fn dir_is_private(dir: &Path) -> bool {
    dir.is_dir()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_dir_follows_the_environment() {
        let os = |s: &'static str| Some(OsStr::new(s));
        assert_eq!(
            cache_dir_from(os("/c"), os("/x"), os("/h")),
            Some(PathBuf::from("/c"))
        );
        assert_eq!(cache_dir_from(os("off"), os("/x"), os("/h")), None);
        assert_eq!(
            cache_dir_from(os(""), os("/x"), os("/h")),
            Some(PathBuf::from("/x/baton/modules"))
        );
        assert_eq!(
            cache_dir_from(None, os(""), os("/h")),
            Some(PathBuf::from("/h/.cache/baton/modules"))
        );
        assert_eq!(cache_dir_from(None, None, None), None);
    }

    #[test]
    fn entry_names_carry_the_full_key() {
        let path = entry_path(Path::new("/d"), &[0xab; 32], "e1");
        let name = path.file_name().unwrap().to_str().unwrap();
        assert_eq!(name, format!("{}-e1.cwasm", "ab".repeat(32)));
    }
}
