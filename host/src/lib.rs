//! The wasmtime embedding: engine configuration, limits, import validation, the host calls
//! (`bash`, `llm`, `branch`, `log`), the OS sandbox, workspaces, budgets and the journal (see
//! DESIGN.md, "Layout"). The host never parses Python.
//!
//! So far:
//! - [`imports`]: the import allowlist ([`ALLOWED_IMPORTS`]) and [`validate_module`], which refuses
//!   a module before it is instantiated and describes it ([`ModuleInfo`], for `baton inspect`);
//! - [`engine`]: the shared wasmtime engine (Cranelift, exceptions, fuel, epochs, a 32 MiB wasm
//!   stack) and its epoch ticker;
//! - [`cache`]: [`ModuleCache`] — validate, then compile once per process and once per machine
//!   (serialized modules keyed by SHA-256 of the bytes and the engine's compatibility hash), with
//!   the imports resolved once ([`Prepared`], an `InstancePre`);
//! - [`run`]: [`run_module`] (and [`Prepared::run_with`]) under [`Limits`]; beneath it, in
//!   layers (no file imports one that imports it: `tests/layering.rs`), `linker.rs` links the
//!   host calls, `state.rs` is what a store carries, `execute.rs` runs one instance to its
//!   [`RunReport`], `guest_memory.rs` reads plan memory as hostile input, and `error.rs` maps
//!   whatever ended an instance to [`HostError`] ([`LimitKind`] for the limits);
//! - [`branch_id`]: [`BranchId`], the name of an instance (the run, or a branch by its
//!   ancestry), the key of the journal and the name everything else shows;
//! - [`calls`]: the one choke point every host call passes ([`HostCalls`]), its request/reply
//!   encoding and argument reading;
//! - [`services`]: the real capabilities behind it (`bash` in the OS sandbox, `llm` through a
//!   provider and the run's budget, `log`, `inputs`) and per-call figures;
//! - [`config`]: `baton.toml` (grants, limits, sandbox, workspace, llm, budget) and the grant
//!   check that refuses a module needing a capability that is not granted;
//! - [`session`]: one whole run as `baton run` does it (run directory, workspace, capabilities,
//!   the run, what is kept).
//!
//! The module contract is docs/abi.md; `baton.toml` is documented in docs/baton.toml.

mod atomic_file;
pub mod branch;
pub mod branch_id;
pub mod cache;
pub mod calls;
pub(crate) mod code_config;
pub mod config;
pub mod disk_watch;
pub mod engine;
mod error;
mod execute;
mod guest_memory;
pub mod imports;
mod instantiate;
pub mod journal;
mod libm;
mod limit_kind;
mod limits;
mod linker;
mod priors;
pub mod run;
pub mod run_limits;
mod runtime_image;
pub mod services;
pub mod session;
mod state;
mod sync;
pub mod trace;

/// Model providers and budgets.
pub use baton_llm as llm;
/// The OS sandbox, for `baton sandbox-info` and the helper entry point.
pub use baton_sandbox as sandbox;

pub use branch_id::BranchId;
pub use cache::{ModuleCache, Origin, Prepared};
pub use calls::{
    BranchCall, BranchEnv, Call, CallError, CallKind, CallResult, HostCalls, HostException,
    NoCapabilities, PlanError, SharedCalls,
};
pub use error::HostError;
pub use execute::{HeapFigures, RunOutcome, RunReport};
pub use imports::{
    validate_module, EntityKind, ExportInfo, FuncSignature, ImportInfo, ModuleError, ModuleInfo,
    SectionInfo, ValType, ALLOWED_IMPORTS, IMPORT_MODULE, RUNTIME_IMPORT_PREFIX, RUNTIME_VERSION,
};
pub use limit_kind::LimitKind;
pub use limits::Limits;
pub use run::run_module;
pub use run_limits::{RunAccount, RunWideLimits};
pub use state::{OUTPUT_CHANNEL_CHUNKS, OUTPUT_CHUNK};
