//! The runtime every plan runs on: object model, allocator, builtins and exceptions, written in
//! WAT (`runtime/wat/`, one fragment per topic), and the Rust that assembles those fragments
//! into the runtime module and a plan's code into the plan module that imports it
//! ([`linking`]). The value ABI it implements is documented in `docs/abi.md`; the compiler and
//! the host rely on it.

pub mod catalog;
mod constants;
pub mod interface;
pub mod layout;
pub mod linking;
pub mod statics;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use layout::type_id;
use statics::Statics;

/// The runtime's WAT fragments, in assembly order. Each holds module fields only.
const FRAGMENTS: &[(&str, &str)] = &[
    ("core.wat", include_str!("../wat/core.wat")),
    ("heap.wat", include_str!("../wat/heap.wat")),
    ("gc.wat", include_str!("../wat/gc.wat")),
    ("call.wat", include_str!("../wat/call.wat")),
    ("num.wat", include_str!("../wat/num.wat")),
    ("ops.wat", include_str!("../wat/ops.wat")),
    ("str.wat", include_str!("../wat/str.wat")),
    ("seq.wat", include_str!("../wat/seq.wat")),
    ("dict.wat", include_str!("../wat/dict.wat")),
    ("builtins.wat", include_str!("../wat/builtins.wat")),
    ("json.wat", include_str!("../wat/json.wat")),
    ("math.wat", include_str!("../wat/math.wat")),
    ("library.wat", include_str!("../wat/library.wat")),
    ("fast.wat", include_str!("../wat/fast.wat")),
    ("host.wat", include_str!("../wat/host.wat")),
    ("codec.wat", include_str!("../wat/codec.wat")),
    ("branch.wat", include_str!("../wat/branch.wat")),
];

/// Messages each fragment uses, as `name = text` lines (`\n` escapes a newline). Each becomes a
/// static str object whose address is the global `$s_<name>`.
const MESSAGES: &[(&str, &str)] = &[
    ("core.strings", include_str!("../wat/core.strings")),
    ("call.strings", include_str!("../wat/call.strings")),
    ("num.strings", include_str!("../wat/num.strings")),
    ("ops.strings", include_str!("../wat/ops.strings")),
    ("str.strings", include_str!("../wat/str.strings")),
    ("seq.strings", include_str!("../wat/seq.strings")),
    ("dict.strings", include_str!("../wat/dict.strings")),
    ("builtins.strings", include_str!("../wat/builtins.strings")),
    ("json.strings", include_str!("../wat/json.strings")),
    ("math.strings", include_str!("../wat/math.strings")),
    ("library.strings", include_str!("../wat/library.strings")),
    ("host.strings", include_str!("../wat/host.strings")),
    ("codec.strings", include_str!("../wat/codec.strings")),
    ("branch.strings", include_str!("../wat/branch.strings")),
];

/// A host call's import, from its name and signature.
macro_rules! host_call {
    ($name:ident, $sig:literal) => {
        HostCall {
            name: stringify!($name),
            import: concat!(
                "(import \"baton\" \"",
                stringify!($name),
                "\" (func $host_",
                stringify!($name),
                " ",
                $sig,
                "))"
            ),
        }
    };
}

/// Host calls (docs/abi.md, "Host calls"). The runtime module imports them all; a plan module
/// imports (declares) those the plan uses.
const HOST_CALLS: &[HostCall] = &[
    host_call!(print, "(param i32 i32)"),
    host_call!(bash, "(param i32 i32) (result i32)"),
    host_call!(llm, "(param i32 i32) (result i32)"),
    host_call!(log, "(param i32 i32)"),
    host_call!(inputs, "(result i32)"),
    host_call!(result, "(param i32 i32)"),
    host_call!(reply, "(param i32)"),
    host_call!(branch, "(param i32 i32) (result i32)"),
    // Pure: the C library's math functions (LIBM_FUNCTIONS), computed by the host.
    host_call!(libm, "(param i32 f64 f64) (result f64)"),
    // The collector times itself with it.
    host_call!(clock, "(result i64)"),
];

pub use baton_abi::LIBM_FUNCTIONS;

struct HostCall {
    name: &'static str,
    import: &'static str,
}

/// Names of the host calls the runtime knows (each is `baton.<name>` in the import section).
pub fn host_call_names() -> impl Iterator<Item = &'static str> {
    HOST_CALLS.iter().map(|call| call.name)
}

/// Where the runtime's static objects are, for the compiler to reference.
#[derive(Debug)]
pub struct RuntimeLayout {
    /// Type objects by Python name.
    pub types: BTreeMap<&'static str, u32>,
    /// Builtin function objects by Python name.
    pub builtins: BTreeMap<&'static str, u32>,
    /// Message strings by name.
    pub messages: BTreeMap<String, u32>,
    pub empty_tuple: u32,
    pub memory_error: u32,
    /// The first address free for the plan's static objects.
    pub plan_statics: u32,
    /// The runtime's static str objects by text, for a plan's statics to share
    /// ([`Statics::sharing_strs`]).
    pub strs: std::collections::HashMap<String, u32>,
    statics_wat: String,
    globals_wat: String,
    type_object_wat: String,
    call_builtin_wat: String,
    /// [`FRAGMENTS`] in order, their named constants expanded.
    fragments_wat: String,
}

fn parse_messages(file: &str, text: &str) -> Vec<(String, String)> {
    let mut messages = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, rest)) = line.split_once(" =") else {
            panic!("{file}:{}: expected `name = text`", number + 1);
        };
        let text = rest.strip_prefix(' ').unwrap_or(rest).replace("\\n", "\n");
        messages.push((name.trim().to_owned(), text));
    }
    messages
}

/// The types whose values have methods, in the order the guide lists them.
pub const TYPES_WITH_METHODS: &[&str] = &[
    "str",
    "list",
    "tuple",
    "dict",
    "set",
    "frozenset",
    "range",
    "int",
    "float",
];

/// The methods of type `name` (`str`, `list`, ...; see [`TYPES_WITH_METHODS`]), as the runtime's
/// attribute lookup knows them (`methods_<type>` in `call.strings`, which `$type_has_method`
/// and `$getattr` search): the list the checker's guide documents, so the two cannot differ.
pub fn methods(type_name: &str) -> Vec<String> {
    let key = format!("methods_{type_name}");
    MESSAGES
        .iter()
        .flat_map(|(file, text)| parse_messages(file, text))
        .find(|(name, _)| *name == key)
        .map(|(_, list)| list.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The runtime's layout, computed once: it is the same for every module.
pub fn runtime_layout() -> &'static RuntimeLayout {
    static LAYOUT: OnceLock<RuntimeLayout> = OnceLock::new();
    LAYOUT.get_or_init(build_layout)
}

fn build_layout() -> RuntimeLayout {
    let mut statics = Statics::new(layout::RUNTIME_STATICS);
    let mut globals = String::new();

    let mut messages = BTreeMap::new();
    for (file, text) in MESSAGES {
        for (name, text) in parse_messages(file, text) {
            let address = statics.str(&text);
            assert!(
                messages.insert(name.clone(), address).is_none(),
                "message `{name}` defined twice"
            );
        }
    }

    let mut types = BTreeMap::new();
    for spec in catalog::TYPES {
        let name = statics.str(spec.name);
        let constructor = spec
            .constructor
            .and_then(catalog::builtin_id)
            .unwrap_or(u32::MAX);
        let generic = u32::from(catalog::is_generic(spec.name));
        let address = statics.object(type_id::TYPE, generic, &[name, 0, constructor, 0]);
        types.insert(spec.name, address);
    }
    for spec in catalog::TYPES {
        if let Some(base) = spec.base {
            statics.patch_u32(types[spec.name], 12, types[base]);
        }
    }
    for (name, qualified) in catalog::QUALIFIED_NAMES {
        let qualified = statics.str(qualified);
        statics.patch_u32(types[name], 20, qualified);
    }
    let mut builtins = BTreeMap::new();
    for (id, name) in catalog::BUILTINS.iter().enumerate() {
        // A module's function is named as Python names it (`json_loads` is `loads`).
        let module = catalog::MODULE_PREFIXES
            .iter()
            .find_map(|prefix| Some((prefix, name.strip_prefix(prefix)?)));
        let python_name = module.map_or(*name, |(_, rest)| rest);
        let name_str = statics.str(python_name);
        // Messages that name the callee (`math.fmod() argument after * ...`) qualify a
        // module's function with its module, as CPython does.
        let qualified = match module {
            Some((prefix, rest)) => {
                statics.str(&format!("{}.{rest}", prefix.trim_end_matches('_')))
            }
            None => name_str,
        };
        // A builtin standing for a function CPython writes in Python (`json.loads`) presents
        // as a `function` (+20: the type object `$type_of` gives; 0 for its own type).
        let presents_as = module
            .filter(|(prefix, _)| catalog::PYTHON_FUNCTION_MODULES.contains(prefix))
            .map_or(0, |_| types["function"]);
        builtins.insert(
            *name,
            statics.object(
                type_id::BUILTIN,
                0,
                &[id as u32, name_str, qualified, presents_as],
            ),
        );
    }
    let empty_tuple = statics.tuple(&[]);
    let memory_error = statics.object(
        type_id::EXCEPTION,
        0,
        &[types["MemoryError"], empty_tuple, 0, 0, 0, 0],
    );

    // $exception_class_named: an exception class by name (a str value), or 0. Branches report
    // their exceptions by class name; `parallel` raises the same class in the parent.
    let mut class_named =
        String::from("(func $exception_class_named (param $name i64) (result i32)\n");
    for spec in catalog::TYPES {
        if catalog::is_exception_class(spec.name) {
            let _ = writeln!(
                class_named,
                "  (if (call $str_eq (local.get $name) (i64.const {})) (then (return (i32.const {}))))",
                statics.str(spec.name),
                types[spec.name]
            );
        }
    }
    class_named.push_str("  (i32.const 0))\n");
    // $type_named: any runtime type by name, or 0 (`_baton.runtime_type("re.Match")`).
    class_named.push_str("(func $type_named (param $name i64) (result i32)\n");
    for spec in catalog::TYPES {
        let _ = writeln!(
            class_named,
            "  (if (call $str_eq (local.get $name) (i64.const {})) (then (return (i32.const {}))))",
            statics.str(spec.name),
            types[spec.name]
        );
    }
    class_named.push_str("  (i32.const 0))\n");

    // $host_error_type: the class a host call's error reply names (baton_abi::HostException,
    // the list the host builds its errors from); RuntimeError for any other name.
    let _ = writeln!(
        class_named,
        "(func $host_error_type (param $name i64) (result i32)\n  (if (i32.ne (call $tid (local.get $name)) (i32.const {})) (then (return (global.get $t_RuntimeError))))",
        type_id::STR
    );
    for class in baton_abi::HostException::ALL {
        let name = class.name();
        let _ = writeln!(
            class_named,
            "  (if (call $str_eq (local.get $name) (i64.const {})) (then (return (i32.const {}))))",
            statics.str(name),
            types[name]
        );
    }
    class_named.push_str("  (global.get $t_RuntimeError))\n");

    let frames = statics.end();
    // MemoryError's traceback: the frame stack copied here when it is raised (it must not
    // allocate), in `$frames_snapshot`'s layout: a count, then up to MAX_DEPTH + 8 frames.
    let memory_error_frames = frames + 8 * (layout::FRAME_SLOTS + 1);
    let gc = (memory_error_frames + 8 + 8 * (layout::MAX_DEPTH + 8) + 7) & !7;
    let plan_statics = gc + layout::GC_REGION;

    for (name, address) in &types {
        let _ = writeln!(globals, "(global $t_{name} i32 (i32.const {address}))");
    }
    for (name, address) in &builtins {
        let _ = writeln!(globals, "(global $bf_{name} i32 (i32.const {address}))");
    }
    for (name, address) in &messages {
        let _ = writeln!(globals, "(global $s_{name} i32 (i32.const {address}))");
    }
    for (op, name) in LIBM_FUNCTIONS.iter().enumerate() {
        let _ = writeln!(globals, "(global $libm_{name} i32 (i32.const {op}))");
    }
    let _ = writeln!(
        globals,
        "(global $empty_tuple i32 (i32.const {empty_tuple}))"
    );
    let _ = writeln!(
        globals,
        "(global $memory_error i32 (i32.const {memory_error}))"
    );
    // Exported so that the host can say where a run stopped when a limit ends it (the frame
    // stack is intact after a trap; docs/abi.md, "Memory").
    let _ = writeln!(
        globals,
        "(global $frames (export \"baton_frames\") i32 (i32.const {frames}))"
    );
    let _ = writeln!(
        globals,
        "(global $memory_error_frames i32 (i32.const {memory_error_frames}))"
    );
    let _ = writeln!(
        globals,
        "(global $max_depth i32 (i32.const {}))",
        layout::MAX_DEPTH
    );
    globals.push_str("(global $depth (export \"baton_depth\") (mut i32) (i32.const 0))\n");
    globals.push_str("(global $native_depth (mut i32) (i32.const 0))\n");
    globals.push_str("(global $heap_exhausted (mut i32) (i32.const 0))\n");
    // The collector's static regions (heap.wat, gc.wat; docs/abi.md, "The heap").
    let chunk_kinds = gc;
    let class_free = chunk_kinds + layout::CHUNK_TABLE_BYTES;
    let class_unswept = class_free + 256;
    let mark_stack = class_unswept + 256;
    let shadow = mark_stack + 4 * layout::MARK_STACK_SLOTS;
    for (name, address) in [
        ("chunk_kinds", chunk_kinds),
        ("class_free", class_free),
        ("class_unswept", class_unswept),
        ("mark_stack", mark_stack),
        ("mark_stack_slots", layout::MARK_STACK_SLOTS),
        ("shadow_base", shadow),
        ("shadow_end", shadow + layout::SHADOW_STACK_BYTES),
        ("str_ascii", shadow + layout::SHADOW_STACK_BYTES),
    ] {
        let _ = writeln!(globals, "(global ${name} i32 (i32.const {address}))");
    }
    let _ = writeln!(
        globals,
        "(global $shadow_top (mut i32) (i32.const {shadow}))"
    );

    // $type_object: type id -> type object, for every value type.
    let mut by_id: BTreeMap<u32, u32> = BTreeMap::new();
    for spec in catalog::TYPES {
        if let Some(id) = spec.type_id {
            by_id.insert(id, types[spec.name]);
        }
    }
    let mut type_object = String::from("(func $type_object (param $id i32) (result i32)\n");
    for (id, address) in &by_id {
        let _ = writeln!(
            type_object,
            "  (if (i32.eq (local.get $id) (i32.const {id})) (then (return (i32.const {address}))))"
        );
    }
    type_object.push_str("  (unreachable))\n");

    // $call_builtin: builtin id -> $b_<name>.
    let mut call_builtin = String::from(
        "(func $call_builtin (param $id i32) (param $args i32) (param $kwargs i32) (result i64)\n",
    );
    for name in catalog::BUILTINS.iter().rev() {
        let _ = writeln!(call_builtin, "  (block $b_{name}_case");
    }
    call_builtin.push_str("  (br_table");
    for name in catalog::BUILTINS {
        let _ = write!(call_builtin, " $b_{name}_case");
    }
    call_builtin.push_str(" $b_abs_case (local.get $id))\n");
    for name in catalog::BUILTINS {
        let _ = writeln!(
            call_builtin,
            "  ) (return (call $b_{name} (local.get $args) (local.get $kwargs)))"
        );
    }
    call_builtin.push_str(")\n");

    type_object.push_str(&class_named);

    let strs = statics.strs().clone();
    let mut statics_wat = statics::singletons_wat();
    statics_wat.push_str(&statics.to_wat());

    RuntimeLayout {
        types,
        builtins,
        messages,
        empty_tuple,
        memory_error,
        plan_statics,
        strs,
        statics_wat,
        globals_wat: globals,
        type_object_wat: type_object,
        call_builtin_wat: call_builtin,
        fragments_wat: FRAGMENTS
            .iter()
            .map(|(file, text)| constants::expand(file, text) + "\n")
            .collect(),
    }
}

/// What the compiler contributes to a module.
#[derive(Debug)]
pub struct PlanParts<'a> {
    /// Host calls the plan uses, by name (`print`, ...).
    pub host_calls: &'a [&'a str],
    /// The plan's static objects; their base must be [`RuntimeLayout::plan_statics`].
    pub statics: &'a Statics,
    /// WAT module fields: the plan's functions, including `$plan_main` (no params, no result).
    pub functions: &'a str,
    /// The plan's function entries, by number (a function object holds its entry's): the code
    /// of each, which `$plan_call` (`linking`'s docs) runs with the function object `$fn`, the
    /// positional arguments' tuple `$args`, the keywords' dict or 0 `$kwargs` and an `i32`
    /// local `$slots`, and which returns the call's result (`return`, `return_call`).
    pub entries: &'a [String],
    /// The function (its name, with `$`) of each of the plan's module-level `try` bodies, by
    /// the number `$run_try_body` is given, which calls it through the plan's dispatcher with
    /// that number and the module frame's depth (`(param $which i32) (param $d i32)`). One
    /// function may hold several bodies, choosing by the number.
    pub try_bodies: &'a [String],
    /// A static str in the plan's statics: `  File "<plan path>", line `, the start of each
    /// traceback line (see [`traceback_file_prefix`]).
    pub traceback_file: u32,
    /// Static strs like `traceback_file` for the plan library modules compiled in: frame lines
    /// carry their file in the top 8 bits (0: the plan, n: `library_files[n - 1]`).
    pub library_files: &'a [u32],
    /// How many module globals the plan has (`$g0` ...): declared here, with the functions that
    /// copy them for a branch (`$plan_globals_save`, `$plan_globals_load`).
    pub globals: usize,
    /// The collector's stress mode built in (`$gc_stress_period`; 0: off): every instance of
    /// the module, the plan's and each branch's, collects at every Nth safe point (wat/gc.wat).
    pub gc_stress: u32,
}

/// The text that starts each traceback line for a plan at `path`.
pub fn traceback_file_prefix(path: &str) -> String {
    format!("  File \"{path}\", line ")
}
