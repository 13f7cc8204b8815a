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
//! - [`run`]: [`run_module`] (and [`Prepared::run`]) under [`Limits`], the `baton.print` host call, and the mapping of
//!   traps to [`HostError`] ([`LimitKind`] for the limits).
//!
//! The module contract is docs/abi.md.

pub mod cache;
pub mod engine;
pub mod imports;
pub mod run;

pub use cache::{ModuleCache, Origin, Prepared};
pub use imports::{
    validate_module, EntityKind, ExportInfo, FuncSignature, ImportInfo, ModuleError, ModuleInfo,
    SectionInfo, ValType, ALLOWED_IMPORTS, IMPORT_MODULE,
};
pub use run::{run_module, HostError, LimitKind, Limits, RunOutcome};
