//! The import allowlist and module validation (DESIGN.md, hard rule 1; docs/abi.md, "The
//! module").
//!
//! A module may import functions from the [`IMPORT_MODULE`] (`baton`) namespace, each named in
//! [`ALLOWED_IMPORTS`] and with exactly the signature listed there, and — a plan module — the
//! runtime: anything from `baton_runtime/<version>` ([`RUNTIME_IMPORT_PREFIX`]; a version other
//! than this build's is refused when the module is prepared, unless the runtime it names is
//! given, as a run directory keeps it), and a name must be of the kind the runtime exports under it
//! (`memory`, `table`, `exc`, `f:*` functions, `g:*` globals; the exact types are checked
//! against the compiled runtime, `instantiate.rs`). Memories, tables, globals and tags from the
//! `baton` namespace are refused, as is anything from another namespace (no WASI). A module
//! that carries its own runtime must define exactly one memory (at most [`MAX_TABLES`] tables),
//! export it as `memory`, and export `baton_main: (result i32)`; a plan module defines no
//! memory (the runtime's is its) and exports nothing the host needs.
//! [`validate_module`] checks all of this with wasmparser *before* wasmtime ever sees the bytes,
//! and returns a [`ModuleInfo`] (imports, exports, section sizes) that `baton inspect` prints.
//!
//! Adding a host call (`bash`, `llm`, `branch`, `log`, ...) means adding one row to
//! [`ALLOWED_IMPORTS`] and linking it in `linker.rs`; nothing else here changes.

use std::fmt;

/// The runtime plan modules import (`baton_runtime::linking`): its import module prefix and
/// this build's version.
pub use baton_runtime::linking::{RUNTIME_IMPORT_PREFIX, RUNTIME_VERSION};
use wasmparser::types::EntityType;
use wasmparser::{CompositeInnerType, Parser, ValidPayload, Validator, WasmFeatures};

/// The only import namespace a module may use.
pub const IMPORT_MODULE: &str = "baton";

/// The export holding the module's linear memory.
pub const MEMORY_EXPORT: &str = "memory";

/// The most tables a module may define (a plan needs one function table).
pub const MAX_TABLES: u32 = 16;

/// Function table entries a module may have: the runtime's functions plus a large plan's. The
/// engine's instance pool sizes every table slot by it, and a store's tables never grow past it.
pub const MAX_TABLE_ELEMENTS: usize = 100_000;

/// The entry point: `(func (result i32))`, 0 on success, else the address of a traceback str.
pub const MAIN_EXPORT: &str = "baton_main";

/// The entry point of a branch instance, which a module importing `baton.branch` must export:
/// `(param len i32) (param index i32) (result i32)` (docs/abi.md, "Branches").
pub const BRANCH_EXPORT: &str = "baton_branch_main";

/// The signature `baton_branch_main` must have.
pub const BRANCH_SIGNATURE: FuncSignature = FuncSignature {
    params: &[ValType::I32, ValType::I32],
    results: &[ValType::I32],
};

/// A wasm number type, as used in host-call signatures (host calls only pass numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValType {
    I32,
    I64,
    F32,
    F64,
}

impl ValType {
    fn matches(self, ty: &wasmparser::ValType) -> bool {
        matches!(
            (self, ty),
            (ValType::I32, wasmparser::ValType::I32)
                | (ValType::I64, wasmparser::ValType::I64)
                | (ValType::F32, wasmparser::ValType::F32)
                | (ValType::F64, wasmparser::ValType::F64)
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            ValType::I32 => "i32",
            ValType::I64 => "i64",
            ValType::F32 => "f32",
            ValType::F64 => "f64",
        }
    }
}

/// A function signature in the allowlist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FuncSignature {
    pub params: &'static [ValType],
    pub results: &'static [ValType],
}

impl FuncSignature {
    /// Whether a validated wasm function type is exactly this signature.
    fn matches(&self, ty: &wasmparser::FuncType) -> bool {
        self.params.len() == ty.params().len()
            && self.results.len() == ty.results().len()
            && self
                .params
                .iter()
                .zip(ty.params())
                .all(|(a, b)| a.matches(b))
            && self
                .results
                .iter()
                .zip(ty.results())
                .all(|(a, b)| a.matches(b))
    }
}

/// WAT-style: `(param i32 i32) (result i32)`; `(func)` when empty.
impl fmt::Display for FuncSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<&str> = self.params.iter().map(|t| t.name()).collect();
        let results: Vec<&str> = self.results.iter().map(|t| t.name()).collect();
        f.write_str(&format_signature(&params, &results))
    }
}

fn format_signature<S: AsRef<str>>(params: &[S], results: &[S]) -> String {
    let join = |items: &[S]| {
        items
            .iter()
            .map(|s| s.as_ref())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut parts = Vec::new();
    if !params.is_empty() {
        parts.push(format!("(param {})", join(params)));
    }
    if !results.is_empty() {
        parts.push(format!("(result {})", join(results)));
    }
    if parts.is_empty() {
        "(func)".to_string()
    } else {
        parts.join(" ")
    }
}

/// Every import a module may have: `(name in the baton namespace, exact signature)`.
///
/// `print(ptr, len)`: write the UTF-8 bytes `[ptr, ptr+len)` to the run's stdout.
pub const ALLOWED_IMPORTS: &[(&str, FuncSignature)] = &[
    ("print", sig(&[ValType::I32, ValType::I32], &[])),
    ("bash", sig(&[ValType::I32, ValType::I32], &[ValType::I32])),
    ("llm", sig(&[ValType::I32, ValType::I32], &[ValType::I32])),
    ("log", sig(&[ValType::I32, ValType::I32], &[])),
    ("inputs", sig(&[], &[ValType::I32])),
    ("result", sig(&[ValType::I32, ValType::I32], &[])),
    ("reply", sig(&[ValType::I32], &[])),
    ("clock", sig(&[], &[ValType::I64])),
    (
        "libm",
        sig(&[ValType::I32, ValType::F64, ValType::F64], &[ValType::F64]),
    ),
    (
        "branch",
        sig(&[ValType::I32, ValType::I32], &[ValType::I32]),
    ),
];

const fn sig(params: &'static [ValType], results: &'static [ValType]) -> FuncSignature {
    FuncSignature { params, results }
}

/// The signature `baton_main` must have.
pub const MAIN_SIGNATURE: FuncSignature = FuncSignature {
    params: &[],
    results: &[ValType::I32],
};

/// The allowlisted signature of `baton.<name>`, if `name` is allowed.
pub fn allowed_import(name: &str) -> Option<FuncSignature> {
    ALLOWED_IMPORTS
        .iter()
        .find(|(allowed, _)| *allowed == name)
        .map(|(_, sig)| *sig)
}

/// The wasm features a module may use, named one by one (never a library's defaults, which move
/// with versions and with the cargo features other crates turn on: feature unification had
/// turned wasmparser's SIMD on, so SIMD modules validated although this comment said they were
/// refused). The engine (`engine.rs`) enables exactly the proposals among these and disables
/// the others, so what validates here is what wasmtime compiles.
///
/// On: the MVP's floats and mutable globals, sign extension, saturating float-to-int,
/// multi-value, bulk memory, reference types, tail calls, exceptions (`try_table`,
/// `throw_ref`, `exnref`; `exnref` needs `GC_TYPES`, wasmparser's gate for reference types
/// other than funcref). Multi-memory is accepted here only so that a second or imported memory
/// gets its own clear refusal below ([`ModuleError::MemoryCount`], `NonFunctionImport`): no
/// module with more than one memory passes, so the engine leaves it off. Off: SIMD and relaxed
/// SIMD, threads and shared memory, memory64, GC proper, function references, the legacy
/// exception instructions, stack switching, wide arithmetic, custom page sizes, the component
/// model.
pub fn validation_features() -> WasmFeatures {
    WasmFeatures::MULTI_MEMORY
        | WasmFeatures::FLOATS
        | WasmFeatures::MUTABLE_GLOBAL
        | WasmFeatures::SIGN_EXTENSION
        | WasmFeatures::SATURATING_FLOAT_TO_INT
        | WasmFeatures::MULTI_VALUE
        | WasmFeatures::BULK_MEMORY
        | WasmFeatures::REFERENCE_TYPES
        | WasmFeatures::TAIL_CALL
        | WasmFeatures::EXCEPTIONS
        | WasmFeatures::GC_TYPES
}

// Bounds on one function body (`baton_abi::function_bounds`), checked before wasmtime compiles
// anything; the compiler's encoder checks its own modules against the same ones.
use baton_abi::function_bounds;
pub use baton_abi::function_bounds::{MAX_BLOCK_NESTING, MAX_FUNCTION_BYTES, MAX_FUNCTION_LOCALS};

/// The most bytes of a module.
pub const MAX_MODULE_BYTES: usize = 64 << 20;
/// The most entities of each kind a module may define (functions, globals, types, exports,
/// data and element segments). Compiling costs time and memory per function whatever its size:
/// 300,000 one-instruction functions (a 1.8 MB module) took 16 s and 1.8 GB. Baton's largest
/// modules define a few thousand functions (the runtime about 700).
pub const MAX_ENTITIES: u32 = 50_000;

/// Checks the module's size and its counts of entities against the bounds above, reading only
/// section headers: before validation, which costs time per entity too.
fn check_module_bounds(bytes: &[u8]) -> Result<(), ModuleError> {
    use wasmparser::Payload;
    if bytes.len() > MAX_MODULE_BYTES {
        return Err(ModuleError::TooLarge {
            what: format!("it is {} bytes (at most {MAX_MODULE_BYTES})", bytes.len()),
        });
    }
    for payload in Parser::new(0).parse_all(bytes) {
        // Malformed input is for validation to report.
        let Ok(payload) = payload else { return Ok(()) };
        let (kind, count) = match &payload {
            Payload::TypeSection(reader) => ("types", reader.count()),
            Payload::FunctionSection(reader) => ("functions", reader.count()),
            Payload::GlobalSection(reader) => ("globals", reader.count()),
            Payload::ExportSection(reader) => ("exports", reader.count()),
            Payload::DataSection(reader) => ("data segments", reader.count()),
            Payload::ElementSection(reader) => ("element segments", reader.count()),
            Payload::ImportSection(reader) => ("imports", reader.count()),
            // Function bodies are checked one by one after validation.
            _ => continue,
        };
        if count > MAX_ENTITIES {
            return Err(ModuleError::TooLarge {
                what: format!("it defines {count} {kind} (at most {MAX_ENTITIES})"),
            });
        }
    }
    Ok(())
}

/// Checks every function body of `bytes` against the bounds above.
fn check_function_bounds(bytes: &[u8]) -> Result<(), ModuleError> {
    use wasmparser::{Operator, Payload};
    let too_large = |index: u32, what: String| ModuleError::FunctionTooLarge { index, what };
    let mut index = 0u32;
    for payload in Parser::new(0).parse_all(bytes) {
        let Ok(Payload::CodeSectionEntry(body)) = payload else {
            continue;
        };
        let this = index;
        index += 1;
        if let Some(what) = function_bounds::body_too_large(body.range().len()) {
            return Err(too_large(this, what));
        }
        let mut locals = 0u64;
        if let Ok(reader) = body.get_locals_reader() {
            for entry in reader.into_iter().flatten() {
                locals += u64::from(entry.0);
            }
        }
        if let Some(what) = function_bounds::too_many_locals(locals) {
            return Err(too_large(this, what));
        }
        let Ok(reader) = body.get_operators_reader() else {
            continue;
        };
        let mut depth = 0u32;
        for operator in reader.into_iter().flatten() {
            match operator {
                Operator::Block { .. }
                | Operator::Loop { .. }
                | Operator::If { .. }
                | Operator::TryTable { .. } => {
                    depth += 1;
                    if let Some(what) = function_bounds::nested_too_deep(depth) {
                        return Err(too_large(this, what));
                    }
                }
                Operator::End => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    Ok(())
}

/// What kind of entity an import or export is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntityKind {
    Func,
    Table,
    Memory,
    Global,
    Tag,
}

impl EntityKind {
    pub fn name(self) -> &'static str {
        match self {
            EntityKind::Func => "func",
            EntityKind::Table => "table",
            EntityKind::Memory => "memory",
            EntityKind::Global => "global",
            EntityKind::Tag => "tag",
        }
    }
}

impl fmt::Display for EntityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One import of a (valid) module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportInfo {
    pub module: String,
    pub name: String,
    pub kind: EntityKind,
    /// A readable type: `(param i32 i32)` for functions, limits for memories and tables, ...
    pub ty: String,
}

/// One export of a (valid) module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportInfo {
    pub name: String,
    pub kind: EntityKind,
    pub ty: String,
}

/// One section of the binary, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionInfo {
    /// `type`, `import`, `code`, ..., or `custom`.
    pub name: String,
    /// A custom section's own name (chosen by whoever built the module: escape it for display).
    pub custom: Option<String>,
    /// Byte size of the section's payload (without the id and size prefix).
    pub size: usize,
}

/// What [`validate_module`] learned about an accepted module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleInfo {
    /// Total size of the binary in bytes.
    pub size: usize,
    pub imports: Vec<ImportInfo>,
    pub exports: Vec<ExportInfo>,
    pub sections: Vec<SectionInfo>,
    /// Functions defined in the module (not imported).
    pub defined_functions: u32,
}

/// Why a module was refused. Each message names the offending import or export. An import that
/// is not a function is [`ModuleError::NonFunctionImport`] whatever its namespace; a function
/// from another namespace is [`ModuleError::ForeignImport`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModuleError {
    #[error("not a valid WebAssembly module: {message}")]
    Invalid { message: String },
    #[error(
        "import `{module}.{name}` is refused: modules may import only functions from the `{}` \
         namespace ({})",
        IMPORT_MODULE,
        allowed_list()
    )]
    ForeignImport { module: String, name: String },
    #[error(
        "import `{}.{name}` is refused: `{name}` is not an allowed host call ({})",
        IMPORT_MODULE,
        allowed_list()
    )]
    UnknownImport { name: String },
    #[error(
        "import `{module}.{name}` is refused: it is a {kind}, but modules may import only \
         functions (a module defines its own memory, tables, globals and tags)"
    )]
    NonFunctionImport {
        module: String,
        name: String,
        kind: EntityKind,
    },
    #[error(
        "import `{}.{name}` is refused: its signature is {found}, but `{name}` has signature \
         {expected}",
        IMPORT_MODULE
    )]
    WrongImportSignature {
        name: String,
        expected: String,
        found: String,
    },
    #[error("function {index} of the module is too large to compile safely: {what}")]
    FunctionTooLarge { index: u32, what: String },
    #[error("the module is too large to compile safely: {what}")]
    TooLarge { what: String },
    #[error(
        "the module defines {count} memories; it must define {}",
        if *expected == 0 { "none (it imports the runtime's)" } else { "exactly one" }
    )]
    MemoryCount { count: u32, expected: u32 },
    #[error(
        "the module was compiled for Baton runtime {found}, and this Baton's runtime is {}; \
         compile the plan again with this Baton (a run directory keeps the runtime its plan \
         ran with: `baton run --resume` and `baton replay` use it)",
        RUNTIME_VERSION
    )]
    RuntimeVersion { found: String },
    #[error("the runtime kept beside the plan module is not runtime {expected}: {problem}")]
    KeptRuntime { expected: String, problem: String },
    #[error("import `{module}.{name}` is refused: {problem}")]
    RuntimeImport {
        module: String,
        name: String,
        problem: String,
    },
    #[error("the module defines {count} tables; at most {max} are allowed", max = MAX_TABLES)]
    TableCount { count: u32 },
    #[error(
        "the module's table {index} starts with {initial} entries; at most {max} are allowed",
        max = MAX_TABLE_ELEMENTS
    )]
    TableTooLarge { index: u32, initial: u64 },
    #[error("the module does not export {what} named `{name}`")]
    MissingExport {
        name: &'static str,
        what: &'static str,
    },
    #[error("export `{name}` must be {expected}, but it is {found}")]
    WrongExport {
        name: &'static str,
        expected: String,
        found: String,
    },
}

/// An import from the runtime (`baton_runtime/<version>`): a name of the kind the runtime
/// exports under it (`memory`, `table`, `exc`, `f:<function>`, `g:<global>`). Whether a runtime
/// of that version is at hand is for [`crate::ModuleCache::prepare`] to say, and whether it
/// exports exactly that name with that type is checked when the module is linked to it
/// (`instantiate.rs`).
fn check_runtime_import(version: &str, name: &str, kind: EntityKind) -> Result<(), ModuleError> {
    let module = format!("{RUNTIME_IMPORT_PREFIX}{version}");
    let expected = match name {
        "memory" => EntityKind::Memory,
        "table" => EntityKind::Table,
        "exc" => EntityKind::Tag,
        _ if name.starts_with("f:") => EntityKind::Func,
        _ if name.starts_with("g:") => EntityKind::Global,
        _ => {
            return Err(ModuleError::RuntimeImport {
                module,
                name: name.to_string(),
                problem: "the runtime exports no such name (it exports `memory`, `table`, `exc`, \
                          `f:<function>` and `g:<global>`)"
                    .to_string(),
            })
        }
    };
    if kind != expected {
        return Err(ModuleError::RuntimeImport {
            module,
            name: name.to_string(),
            problem: format!("it is imported as a {kind}, but the runtime's is a {expected}"),
        });
    }
    Ok(())
}

fn allowed_list() -> String {
    if ALLOWED_IMPORTS.is_empty() {
        return "none are allowed".to_string();
    }
    let names: Vec<String> = ALLOWED_IMPORTS
        .iter()
        .map(|(name, sig)| format!("`{IMPORT_MODULE}.{name}` {sig}"))
        .collect();
    format!("allowed: {}", names.join(", "))
}

/// Validates `bytes` as a core wasm module that Baton may run: valid wasm (see
/// [`validation_features`]), imports only allowlisted `baton` functions with their exact
/// signatures, exports `memory` (a memory) and `baton_main: (result i32)`.
///
/// Never panics, whatever the bytes.
pub fn validate_module(bytes: &[u8]) -> Result<ModuleInfo, ModuleError> {
    check_module(bytes, Bodies::Validate)
}

/// [`validate_module`] but for the function bodies' validity, for a module wasmtime compiles
/// next: wasmtime validates every body as it translates it (with the same features, the
/// engine's), so validating them here too would do that work twice (3% of the instructions
/// that prepare a generated plan). Their bounds are checked all the same, before anything is compiled. A
/// module wasmtime then refuses is given to [`validate_module`] for the error to report.
pub(crate) fn validate_module_but_bodies(bytes: &[u8]) -> Result<ModuleInfo, ModuleError> {
    check_module(bytes, Bodies::LeaveToCompiler)
}

/// Whether [`check_module`] validates the function bodies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bodies {
    Validate,
    LeaveToCompiler,
}

fn check_module(bytes: &[u8], bodies: Bodies) -> Result<ModuleInfo, ModuleError> {
    check_module_bounds(bytes)?;
    let invalid = |error: wasmparser::BinaryReaderError| ModuleError::Invalid {
        message: error.to_string(),
    };
    let mut validator = Validator::new_with_features(validation_features());
    let types = match bodies {
        Bodies::Validate => validator.validate_all(bytes).map_err(invalid)?,
        Bodies::LeaveToCompiler => {
            let mut types = None;
            for payload in Parser::new(0).parse_all(bytes) {
                // A body's validator (`ValidPayload::Func`) is dropped unused.
                if let ValidPayload::End(end) = validator
                    .payload(&payload.map_err(invalid)?)
                    .map_err(invalid)?
                {
                    types = Some(end);
                    break;
                }
            }
            types.ok_or_else(|| ModuleError::Invalid {
                message: "the module has no end: it is truncated".to_owned(),
            })?
        }
    };
    check_function_bounds(bytes)?;
    let types = types.as_ref();

    let describe = |ty: &EntityType| -> (EntityKind, String) {
        match ty {
            EntityType::Func(id) | EntityType::FuncExact(id) => {
                (EntityKind::Func, describe_func(&types[*id]))
            }
            EntityType::Table(table) => (
                EntityKind::Table,
                format!(
                    "{} {}",
                    limits(table.initial, table.maximum),
                    table.element_type
                ),
            ),
            EntityType::Memory(memory) => (
                EntityKind::Memory,
                format!(
                    "{}{}{}",
                    if memory.memory64 { "i64 " } else { "" },
                    limits(memory.initial, memory.maximum),
                    if memory.shared { " shared" } else { "" }
                ),
            ),
            EntityType::Global(global) => (
                EntityKind::Global,
                if global.mutable {
                    format!("(mut {})", global.content_type)
                } else {
                    global.content_type.to_string()
                },
            ),
            EntityType::Tag(id) => (EntityKind::Tag, describe_func(&types[*id])),
        }
    };

    let mut imports = Vec::new();
    for (module, name, ty) in types.core_imports().into_iter().flatten() {
        let (kind, shown) = describe(&ty);
        if let Some(version) = module.strip_prefix(RUNTIME_IMPORT_PREFIX) {
            check_runtime_import(version, name, kind)?;
            imports.push(ImportInfo {
                module: module.to_string(),
                name: name.to_string(),
                kind,
                ty: shown,
            });
            continue;
        }
        let EntityType::Func(id) = ty else {
            return Err(ModuleError::NonFunctionImport {
                module: module.to_string(),
                name: name.to_string(),
                kind,
            });
        };
        if module != IMPORT_MODULE {
            return Err(ModuleError::ForeignImport {
                module: module.to_string(),
                name: name.to_string(),
            });
        }
        let Some(expected) = allowed_import(name) else {
            return Err(ModuleError::UnknownImport {
                name: name.to_string(),
            });
        };
        let ok = match types[id].composite_type.inner {
            CompositeInnerType::Func(ref func) => {
                !types[id].composite_type.shared && expected.matches(func)
            }
            _ => false,
        };
        if !ok {
            return Err(ModuleError::WrongImportSignature {
                name: name.to_string(),
                expected: expected.to_string(),
                found: shown,
            });
        }
        imports.push(ImportInfo {
            module: module.to_string(),
            name: name.to_string(),
            kind,
            ty: shown,
        });
    }

    let mut exports = Vec::new();
    let mut memory_seen = false;
    let mut main_seen = false;
    let mut branch_entry_seen = false;
    for (name, ty) in types.core_exports().into_iter().flatten() {
        let (kind, shown) = describe(&ty);
        if name == MEMORY_EXPORT {
            match ty {
                EntityType::Memory(memory) if !memory.memory64 && !memory.shared => {
                    memory_seen = true
                }
                _ => {
                    return Err(ModuleError::WrongExport {
                        name: MEMORY_EXPORT,
                        expected: "a 32-bit, unshared memory".to_string(),
                        found: format!("{kind} {shown}"),
                    })
                }
            }
        }
        if name == MAIN_EXPORT {
            let ok = match ty {
                EntityType::Func(id) => match types[id].composite_type.inner {
                    CompositeInnerType::Func(ref func) => MAIN_SIGNATURE.matches(func),
                    _ => false,
                },
                _ => false,
            };
            if !ok {
                return Err(ModuleError::WrongExport {
                    name: MAIN_EXPORT,
                    expected: format!("a function {MAIN_SIGNATURE}"),
                    found: format!("{kind} {shown}"),
                });
            }
            main_seen = true;
        }
        if name == BRANCH_EXPORT {
            let ok = match ty {
                EntityType::Func(id) => match types[id].composite_type.inner {
                    CompositeInnerType::Func(ref func) => BRANCH_SIGNATURE.matches(func),
                    _ => false,
                },
                _ => false,
            };
            if !ok {
                return Err(ModuleError::WrongExport {
                    name: BRANCH_EXPORT,
                    expected: format!("a function {BRANCH_SIGNATURE}"),
                    found: format!("{kind} {shown}"),
                });
            }
            branch_entry_seen = true;
        }
        exports.push(ExportInfo {
            name: name.to_string(),
            kind,
            ty: shown,
        });
    }
    // A plan module that imports the runtime has the runtime's memory and entry points; a
    // module that carries its own runtime defines and exports them.
    let linked = imports
        .iter()
        .any(|import| import.module.starts_with(RUNTIME_IMPORT_PREFIX));
    let imported = |kind: EntityKind| imports.iter().filter(|i| i.kind == kind).count() as u32;
    if !linked {
        if !memory_seen {
            return Err(ModuleError::MissingExport {
                name: MEMORY_EXPORT,
                what: "a memory",
            });
        }
        if !main_seen {
            return Err(ModuleError::MissingExport {
                name: MAIN_EXPORT,
                what: "a function (result i32)",
            });
        }
        // A module that starts branches must be able to be one.
        if !branch_entry_seen && imports.iter().any(|import| import.name == "branch") {
            return Err(ModuleError::MissingExport {
                name: BRANCH_EXPORT,
                what: "a function (param i32 i32) (result i32)",
            });
        }
    }

    // Counts of defined (not imported) memories and tables.
    let memories = types.memory_count() - imported(EntityKind::Memory);
    if memories != u32::from(!linked) {
        return Err(ModuleError::MemoryCount {
            count: memories,
            expected: u32::from(!linked),
        });
    }
    if types.table_count() > MAX_TABLES {
        return Err(ModuleError::TableCount {
            count: types.table_count(),
        });
    }
    // Every instance slot of the engine's pool holds tables of at most this many entries.
    for index in 0..types.table_count() {
        let initial = types.table_at(index).initial;
        if initial > MAX_TABLE_ELEMENTS as u64 {
            return Err(ModuleError::TableTooLarge { index, initial });
        }
    }

    let sections = sections(bytes)?;
    let defined_functions = types.function_count().saturating_sub(
        imports
            .iter()
            .filter(|import| import.kind == EntityKind::Func)
            .count() as u32,
    );
    Ok(ModuleInfo {
        size: bytes.len(),
        imports,
        exports,
        sections,
        defined_functions,
    })
}

impl ModuleInfo {
    /// The runtime version the module imports (`baton_runtime/<version>`), if it is a plan
    /// module that imports the runtime rather than carrying its own.
    pub fn runtime_version(&self) -> Option<&str> {
        self.imports
            .iter()
            .find_map(|import| import.module.strip_prefix(RUNTIME_IMPORT_PREFIX))
    }

    /// The host calls the module imports (`print`, `bash`, ...): the capabilities it declares.
    pub fn host_calls(&self) -> impl Iterator<Item = &str> {
        self.imports
            .iter()
            .filter(|import| import.module == IMPORT_MODULE)
            .map(|import| import.name.as_str())
    }
}

fn describe_func(ty: &wasmparser::SubType) -> String {
    match &ty.composite_type.inner {
        CompositeInnerType::Func(func) => {
            let params: Vec<String> = func.params().iter().map(|t| t.to_string()).collect();
            let results: Vec<String> = func.results().iter().map(|t| t.to_string()).collect();
            format_signature(&params, &results)
        }
        other => format!("{other:?}"),
    }
}

fn limits(initial: u64, maximum: Option<u64>) -> String {
    match maximum {
        Some(max) => format!("{initial} {max}"),
        None => initial.to_string(),
    }
}

fn sections(bytes: &[u8]) -> Result<Vec<SectionInfo>, ModuleError> {
    let mut sections = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(|error| ModuleError::Invalid {
            message: error.to_string(),
        })?;
        if let wasmparser::Payload::CustomSection(reader) = &payload {
            sections.push(SectionInfo {
                name: "custom".to_string(),
                custom: Some(reader.name().to_string()),
                size: reader.range().len(),
            });
            continue;
        }
        if let Some((id, range)) = payload.as_section() {
            let name = match id {
                1 => "type",
                2 => "import",
                3 => "function",
                4 => "table",
                5 => "memory",
                6 => "global",
                7 => "export",
                8 => "start",
                9 => "element",
                10 => "code",
                11 => "data",
                12 => "datacount",
                13 => "tag",
                _ => "unknown",
            };
            sections.push(SectionInfo {
                name: name.to_string(),
                custom: None,
                size: range.len(),
            });
        }
    }
    Ok(sections)
}
