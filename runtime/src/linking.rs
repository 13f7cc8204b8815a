//! The runtime as a module of its own, and the plan modules that import it.
//!
//! Every plan needs the same runtime: some 200 KB of WebAssembly that Cranelift would translate
//! again for each new plan, and that every shipped module would carry. Instead the runtime is one
//! module ([`runtime_module`]), compiled once per build of Baton (the host precompiles it when it
//! is built) and identified by its version ([`RUNTIME_VERSION`]), and a plan's module
//! ([`assemble_plan`]) holds only the plan's own functions and static objects. Both are instantiated in the plan's store, the
//! runtime first; the plan module imports from the runtime instance, under the import module
//! name [`runtime_import_module`] (`baton_runtime/<version>`, [`RUNTIME_VERSION`]):
//!
//! - `memory`, the table `table` and the exception tag `exc`;
//! - `f:<name>`, each runtime function the plan's code calls (the runtime exports them all);
//! - `g:<name>`, each mutable runtime global the plan's code reads or sets, and the globals
//!   that describe the plan to the runtime ([`PLAN_GLOBALS`]). The runtime's constants (type
//!   objects, messages, ...) are copied into the plan module as constants instead: their values
//!   are part of the runtime's version.
//!
//! The runtime calls into the plan only through the shared table, which holds three functions
//! of the plan's ([`PlanSlot`]): two dispatchers, each called with a number and arguments, which
//! call the plan's function entry (`$plan_call`: the number a function object holds) or
//! module-level `try` body (`$plan_try`: the number `$run_try_body` is given) of that number, and
//! `$plan_main`. Dispatchers rather than every entry in the table: wasmtime compiles a trampoline
//! for the host's calling convention for each function a table holds, which the runtime's calls
//! never use; and a function entry (binding a call's arguments) is code in `$plan_call` rather
//! than a function Cranelift compiles at a fixed cost (docs/abi.md, "The module", has the
//! figures). Two, so that a function object's number reaches only a function and a `try` body's
//! only a `try` body. The plan module's start function grows the runtime's memory and table to
//! what the plan needs, copies its statics and its three table entries in (passive segments),
//! and sets [`PLAN_GLOBALS`]. The runtime's own entry points (`baton_main`,
//! `baton_branch_main`) and figures (`baton_frames`, `baton_heap_peak`, ...) are the runtime
//! instance's exports, as they were the single module's.
//!
//! Because a plan module's constants are addresses in the runtime's static data, a plan module
//! runs only beside the runtime of the same version; the import module name says which, so a
//! host with another runtime refuses the module before it runs.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

use rustc_hash::FxHashSet;

use crate::interface::Interface;
use crate::{layout, runtime_layout, PlanParts, HOST_CALLS};

/// The start of a plan module's import module name; the runtime's version follows.
pub const RUNTIME_IMPORT_PREFIX: &str = "baton_runtime/";

/// This build's runtime version: 16 hex digits of a digest of every file the runtime module is
/// built from (`build.rs`), known without assembling it.
pub const RUNTIME_VERSION: &str = env!("BATON_RUNTIME_VERSION");

/// The import module name of plan modules for this build's runtime: `baton_runtime/<version>`.
pub fn runtime_import_module() -> String {
    format!("{RUNTIME_IMPORT_PREFIX}{RUNTIME_VERSION}")
}

/// The runtime's deviation switch, a mutable i32 global the host may set to 1 before a plan runs:
/// then each place where Baton deviates from CPython on purpose (an int beyond 64 bits, a complex
/// result, a float `**` near a rounding tie, the recursion limit, an unspecified hash) prints a
/// marker naming it and traps instead of going on (runtime/wat/num.wat, `$trap_deviations`).
/// The differential tester re-runs a plan whose output differs from CPython's with it on.
pub const TRAP_DEVIATIONS_EXPORT: &str = "g:trap_deviations";

/// Runtime globals whose values depend on the plan: the plan module's start function sets them.
pub const PLAN_GLOBALS: &[&str] = &[
    // Where the heap starts (after the plan's statics and module globals) and its top.
    "heap_start",
    "heap_top",
    // The plan's module globals: their address and count.
    "plan_globals",
    "plan_globals_count",
    // The traceback prefix of the plan's file, and of its plan library modules' files (an
    // `i32` count followed by the addresses, at `library_files`).
    "s_traceback_file",
    "library_files",
    // The collector's stress mode (`gc.wat`; 0: off).
    "gc_stress_period",
    // The table index of `$plan_main`.
    "plan_main_index",
    // How many function entries `$plan_call` reaches: a function object decoded from another
    // instance (codec.wat) must hold a number below.
    "plan_entries",
];

/// The runtime as a module of its own.
#[derive(Debug)]
pub struct RuntimeModule {
    /// The module's WAT text.
    pub wat: String,
    /// Signatures (`(param i64) (result i32)`) of the functions the runtime exports, by name.
    functions: BTreeMap<String, String>,
    /// Globals by name: whether mutable, the value type, the initial value expression.
    globals: BTreeMap<String, Global>,
    /// The functions that never reach a collection ([`Interface::never_collects`]).
    never_collect: BTreeSet<String>,
}

#[derive(Debug)]
pub(crate) struct Global {
    pub(crate) mutable: bool,
    pub(crate) ty: String,
    pub(crate) init: String,
}

impl RuntimeModule {
    /// The runtime's binary.
    pub fn binary(&self) -> Result<Vec<u8>, wat::Error> {
        wat::parse_str(&self.wat)
    }

    pub(crate) fn functions(&self) -> &BTreeMap<String, String> {
        &self.functions
    }

    pub(crate) fn globals(&self) -> &BTreeMap<String, Global> {
        &self.globals
    }

    pub(crate) fn never_collecting(&self) -> &BTreeSet<String> {
        &self.never_collect
    }
}

/// The plan's functions in the runtime's table (linking's docs), at these indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanSlot {
    /// `$plan_call (param $which i32) (param $fn i32) (param $args i32) (param $kwargs i32)
    /// (result i64)`: function entry `$which`.
    Call = 0,
    /// `$plan_try (param $which i32) (param $d i32)`: module-level `try` body `$which`.
    Try = 1,
    /// `$plan_main`.
    Main = 2,
}

/// The most entries one dispatcher function reaches with its `br_table` (one block each, and the
/// host bounds a function's nesting, `host/src/imports.rs`): a plan with more has a dispatcher
/// of such functions.
const DISPATCH_CHUNK: usize = 256;

/// The runtime module of this build, assembled once per process.
pub fn runtime_module() -> &'static RuntimeModule {
    static MODULE: OnceLock<RuntimeModule> = OnceLock::new();
    MODULE.get_or_init(build_runtime)
}

/// The runtime's functions that stand in for the plan's, reached through the table and the
/// plan globals.
const PLAN_FACING: &str = "\
(func $plan_globals_save (result i64)
  (local $t i32)
  (local.set $t (call $tuple_new (global.get $plan_globals_count)))
  (call $memcpy (i32.add (local.get $t) (i32.const 8)) (global.get $plan_globals)
    (i32.shl (global.get $plan_globals_count) (i32.const 3)))
  (i64.extend_i32_u (local.get $t)))
(func $plan_globals_load (param $t i64)
  (if (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $t))) (global.get $plan_globals_count))
    (then (call $cx_bad)))
  (call $memcpy (global.get $plan_globals) (i32.add (i32.wrap_i64 (local.get $t)) (i32.const 8))
    (i32.shl (global.get $plan_globals_count) (i32.const 3))))
(func $traceback_file_of (param $file i32) (result i32)
  (if (i32.and (i32.ne (local.get $file) (i32.const 0))
               (i32.le_u (local.get $file) (i32.load (global.get $library_files))))
    (then (return (i32.load (i32.add (global.get $library_files) (i32.shl (local.get $file) (i32.const 2)))))))
  (global.get $s_traceback_file))
(func $plan_main (call_indirect $fns (type $plan_main_type) (global.get $plan_main_index)))
;; Runs the module-level `try` body number `body` (`$plan_try`'s) in the module's frame at
;; depth `d`: 0 when it completes, else the exception that left it (the caller's handlers take
;; it from there, `$reraise` when none matches). One `try_table` here instead of one in every
;; plan function that has a `try`: Cranelift compiles a landing pad for each.
(func $run_try_body (param $body i32) (param $d i32) (result i64)
  (block $caught (result i64)
    (try_table (catch $exc $caught)
      (call_indirect $fns (type $plan_try_type) (local.get $body) (local.get $d)
        (global.get $plan_try_slot)))
    (return (i64.const 0))))
";

fn build_runtime() -> RuntimeModule {
    let layout = runtime_layout();
    let mut head = String::from("(module\n");
    for call in HOST_CALLS {
        head.push_str(call.import);
        head.push('\n');
    }
    // The plan's functions in the table (`PlanSlot`).
    head.push_str("(type $plan_call_type (func (param i32 i32 i32 i32) (result i64)))\n");
    head.push_str("(type $plan_try_type (func (param i32 i32)))\n");
    head.push_str("(type $plan_main_type (func))\n");
    for (name, slot) in [
        ("plan_call_slot", PlanSlot::Call),
        ("plan_try_slot", PlanSlot::Try),
    ] {
        let _ = writeln!(head, "(global ${name} i32 (i32.const {}))", slot as u32);
    }
    head.push_str("(tag $exc (export \"exc\") (param i64))\n");
    let pages = layout.plan_statics.div_ceil(layout::PAGE) + 1;
    let _ = writeln!(head, "(memory (export \"memory\") {pages})");
    head.push_str("(table $fns (export \"table\") 0 funcref)\n");
    // Its version, as an export's name: a runtime kept beside a run (`runtime.wasm` in the run
    // directory) says which plan modules it is for.
    let _ = writeln!(
        head,
        "(global (export \"{RUNTIME_IMPORT_PREFIX}{RUNTIME_VERSION}\") i32 (i32.const 0))"
    );
    for name in PLAN_GLOBALS {
        let _ = writeln!(head, "(global ${name} (mut i32) (i32.const 0))");
    }
    let mut body = String::with_capacity(1 << 20);
    body.push_str(&layout.globals_wat);
    body.push_str(&layout.statics_wat);
    body.push_str(&layout.type_object_wat);
    body.push_str(&layout.call_builtin_wat);
    body.push_str(&layout.fragments_wat);
    body.push_str(PLAN_FACING);
    let everything = format!("{head}{body}");
    let functions = function_signatures(&everything);
    let globals = global_declarations(&everything);
    let never_collect = never_collecting(&everything);
    let mut wat = everything;
    for name in functions.keys() {
        let _ = writeln!(wat, "(export \"f:{name}\" (func ${name}))");
    }
    for (name, global) in &globals {
        if global.mutable {
            let _ = writeln!(wat, "(export \"g:{name}\" (global ${name}))");
        }
    }
    wat.push_str(")\n");
    RuntimeModule {
        wat,
        functions,
        globals,
        never_collect,
    }
}

/// The WAT name at the start of `text` (after its `$`): up to a space or a parenthesis.
pub fn name_at(text: &str) -> &str {
    let len = text
        .find(|c: char| c.is_whitespace() || c == ')' || c == '(')
        .unwrap_or(text.len());
    &text[..len]
}

/// The functions `text` defines (each header at a line start, as [`function_signatures`] reads
/// them) that can never run a collection (see [`Interface::never_collects`]): the complement
/// of a fixpoint that starts from the collector's entries, every function that calls through a
/// table or a reference, and every call of a name that is neither defined in `text` nor a host
/// call it imports from `baton`, and grows by callers. A function's text runs to the next
/// header, so whatever lies between two functions counts against the first: a mistake can only
/// make a function look as if it may collect, never the reverse.
fn never_collecting(text: &str) -> BTreeSet<String> {
    const COLLECTORS: [&str; 2] = ["gc_safepoint", "gc_collect"];
    let mut headers: Vec<(usize, &str)> = Vec::new();
    for (at, _) in text.match_indices("(func $") {
        if at == 0 || text.as_bytes()[at - 1] == b'\n' {
            headers.push((at, name_at(&text[at + "(func $".len()..])));
        }
    }
    let defined: BTreeSet<&str> = headers.iter().map(|&(_, name)| name).collect();
    const HOST_IMPORT: &str = "(import \"baton\" \"";
    let host_calls: BTreeSet<&str> = text
        .match_indices(HOST_IMPORT)
        .filter_map(|(at, _)| {
            let rest = &text[at + HOST_IMPORT.len()..];
            Some(name_at(&rest[rest.find("(func $")? + "(func $".len()..]))
        })
        .collect();
    let mut callees: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut may: BTreeSet<&str> = COLLECTORS.into_iter().collect();
    for (i, &(start, name)) in headers.iter().enumerate() {
        let end = headers.get(i + 1).map_or(text.len(), |&(next, _)| next);
        let body = &text[start..end];
        if body.contains("call_indirect") || body.contains("call_ref") {
            may.insert(name);
        }
        let calls = callees.entry(name).or_default();
        for (at, _) in body.match_indices("call $") {
            let callee = name_at(&body[at + "call $".len()..]);
            if defined.contains(callee) {
                calls.insert(callee);
            } else if !host_calls.contains(callee) {
                may.insert(name);
            }
        }
    }
    loop {
        let grown: Vec<&str> = callees
            .iter()
            .filter(|(name, calls)| !may.contains(*name) && calls.iter().any(|c| may.contains(c)))
            .map(|(&name, _)| name)
            .collect();
        if grown.is_empty() {
            break;
        }
        may.extend(grown);
    }
    defined
        .into_iter()
        .filter(|name| !may.contains(name))
        .map(str::to_owned)
        .collect()
}

/// The signature of every function `text` defines, by name. The runtime's WAT writes each
/// function's header as `(func $name [(export ..)] (param ..)* (result ..)*`, one per line
/// start.
fn function_signatures(text: &str) -> BTreeMap<String, String> {
    const START: &str = "(func $";
    let mut functions = BTreeMap::new();
    // Line starts found by a byte search for `\n`, not a substring search over a copy of the
    // text: this runs on every plan's code (0.8 MB for a generated plan of 850 lines).
    let line_starts =
        std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
    for rest in line_starts.filter_map(|at| text[at..].strip_prefix(START)) {
        let (name, rest) = rest.split_at(name_at(rest).len());
        let mut signature = String::new();
        let mut rest = rest.trim_start();
        while let Some((kind, inner, after)) = field(rest) {
            match kind {
                "export" => {}
                "param" | "result" => {
                    let types: Vec<&str> = inner
                        .split_whitespace()
                        .filter(|word| !word.starts_with('$'))
                        .collect();
                    let _ = write!(signature, " ({kind} {})", types.join(" "));
                }
                _ => break,
            }
            rest = after.trim_start();
        }
        functions.insert(name.to_owned(), signature);
    }
    functions
}

/// `(kind inner)` at the start of `text`: the kind, the text inside, what follows.
fn field(text: &str) -> Option<(&str, &str, &str)> {
    let inner = text.strip_prefix('(')?;
    let end = inner.find(')')?;
    let (kind, rest) = inner[..end].split_once(' ')?;
    Some((kind, rest, &inner[end + 1..]))
}

/// Every global `text` declares at a line start: `(global $name [(export ..)] [(mut] ty ...`.
fn global_declarations(text: &str) -> BTreeMap<String, Global> {
    let mut globals = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("(global $") else {
            continue;
        };
        let Some((name, mut rest)) = rest.split_once(' ') else {
            continue;
        };
        if let Some((_, _, after)) = field(rest).filter(|(kind, _, _)| *kind == "export") {
            rest = after.trim_start();
        }
        let (mutable, ty, init) = match field(rest).filter(|(kind, _, _)| *kind == "mut") {
            Some((_, ty, after)) => (true, ty, after),
            None => match rest.split_once(' ') {
                Some((ty, after)) => (false, ty, after),
                None => continue,
            },
        };
        let init = init.trim();
        let init = init.strip_suffix(')').unwrap_or(init);
        globals.insert(
            name.to_owned(),
            Global {
                mutable,
                ty: ty.to_owned(),
                init: init.to_owned(),
            },
        );
    }
    globals
}

/// The runtime functions and globals that `codes` name: the `$name` after each `call `
/// (`return_call ` too), `ref.func `, `global.get ` and `global.set `. One pass over the text
/// (a plan's functions run to megabytes), borrowing the names.
///
/// Each in the order of first use: the plan's library modules come first in its code, so the
/// runtime functions and globals they use are imported first, at the same indices whatever
/// else the plan uses. Compiled code reaches an import through its index (an offset into the
/// instance's context), so this keeps a library's compiled functions the same from plan to
/// plan, and Cranelift's cache of compiled functions finds them (the host's `FunctionCache`):
/// a new plan that imports `re` does not compile `re` again.
fn names_used<'a>(codes: &[&'a str]) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut functions = Vec::new();
    let mut globals = Vec::new();
    let mut seen = FxHashSet::default();
    for (code, at) in codes
        .iter()
        .flat_map(|code| memchr::memchr_iter(b'$', code.as_bytes()).map(move |at| (*code, at)))
    {
        let before = &code[..at];
        let (into, kind) = if before.ends_with("call ") || before.ends_with("ref.func ") {
            (&mut functions, 0)
        } else if before.ends_with("global.get ") || before.ends_with("global.set ") {
            (&mut globals, 1)
        } else {
            continue;
        };
        let name = name_at(&code[at + 1..]);
        if seen.insert((kind, name)) {
            into.push(name);
        }
    }
    (functions, globals)
}

/// The plan's two dispatchers (the module docs): `$plan_call` runs the function entries' code,
/// `$plan_try` calls the `try` bodies.
fn dispatchers(plan: &PlanParts<'_>) -> String {
    let mut out = String::new();
    let call = Dispatcher {
        name: "plan_call",
        params: &["fn", "args", "kwargs"],
        result: " (result i64)",
        locals: "(local $slots i32)",
    };
    call.write(&mut out, plan.entries);
    let try_arms: Vec<String> = plan
        .try_bodies
        .iter()
        .map(|function| format!("(return_call {function} (local.get $which) (local.get $d))"))
        .collect();
    let try_ = Dispatcher {
        name: "plan_try",
        params: &["d"],
        result: "",
        locals: "",
    };
    try_.write(&mut out, &try_arms);
    out
}

/// A dispatcher's signature (`$which`, then `params`, all `i32`; `result`) and the locals its
/// arms use.
struct Dispatcher<'a> {
    name: &'a str,
    params: &'a [&'a str],
    result: &'a str,
    locals: &'a str,
}

impl Dispatcher<'_> {
    /// Writes the function that runs `arms[$which]` (each returns) by a `br_table`, or that calls
    /// the function of [`DISPATCH_CHUNK`] arms that does when there are more.
    fn write(&self, out: &mut String, arms: &[String]) {
        if arms.len() <= DISPATCH_CHUNK {
            self.write_function(out, self.name, "(local.get $which)", arms);
            return;
        }
        let arguments: String = self
            .params
            .iter()
            .map(|p| format!(" (local.get ${p})"))
            .collect();
        let mut chunks = Vec::new();
        for (k, chunk) in arms.chunks(DISPATCH_CHUNK).enumerate() {
            let name = format!("{}{k}", self.name);
            let index = format!("(i32.rem_u (local.get $which) (i32.const {DISPATCH_CHUNK}))");
            self.write_function(out, &name, &index, chunk);
            chunks.push(format!(
                "(return_call ${name} (local.get $which){arguments})"
            ));
        }
        let index = format!("(i32.div_u (local.get $which) (i32.const {DISPATCH_CHUNK}))");
        self.write_function(out, self.name, &index, &chunks);
    }

    /// The function `name` that runs `arms[index]` and traps for an index past them: one block
    /// per arm, which `br_table` leaves to the arm after its end.
    fn write_function(&self, out: &mut String, name: &str, index: &str, arms: &[String]) {
        let _ = write!(out, "(func ${name} (param $which i32)");
        for param in self.params {
            let _ = write!(out, " (param ${param} i32)");
        }
        let _ = writeln!(out, "{}\n{}", self.result, self.locals);
        out.push_str("(block $bad\n");
        for k in (0..arms.len()).rev() {
            let _ = writeln!(out, "(block $e{k}");
        }
        out.push_str("(br_table");
        for k in 0..arms.len() {
            let _ = write!(out, " $e{k}");
        }
        let _ = writeln!(out, " $bad {index}))");
        for arm in arms {
            let _ = writeln!(out, "{arm})");
        }
        out.push_str("(unreachable))\n");
    }
}

/// A plan's own module, importing [`runtime_module`] (see the module docs), whose `runtime`
/// interface is this build's (the compiler's copy of it, or [`Interface::assembled`]).
pub fn assemble_plan(plan: &PlanParts<'_>, runtime: &Interface) -> String {
    let from = runtime_import_module();
    let own = function_signatures(plan.functions);
    let dispatchers = dispatchers(plan);
    let (called, globals) = names_used(&[plan.functions, &dispatchers]);

    // Memory after the runtime's statics: the plan's statics, its library files' table, its
    // module globals, then the heap from a chunk boundary.
    let library_files = (plan.statics.end() + 3) & !3;
    let plan_globals = (library_files + 4 + 4 * plan.library_files.len() as u32 + 7) & !7;
    let globals_end = plan_globals + 8 * plan.globals as u32;
    let heap_start = globals_end.div_ceil(layout::CHUNK) * layout::CHUNK;
    let pages = heap_start.div_ceil(layout::PAGE) + 1;

    let mut out = String::with_capacity(plan.functions.len() + 8 * 1024);
    out.push_str("(module\n");
    let _ = writeln!(out, "(import \"{from}\" \"memory\" (memory 1))");
    let _ = writeln!(out, "(import \"{from}\" \"table\" (table $fns 0 funcref))");
    let _ = writeln!(out, "(import \"{from}\" \"exc\" (tag $exc (param i64)))");
    for &name in called.iter().filter(|name| !own.contains_key(**name)) {
        // A name the runtime does not define is the compiler's bug: assembling reports it.
        let Some(signature) = runtime.functions.get(name) else {
            continue;
        };
        let _ = writeln!(
            out,
            "(import \"{from}\" \"f:{name}\" (func ${name}{signature}))"
        );
    }
    // The host calls the plan uses, imported though only the runtime calls them: they are the
    // capabilities the module declares, which the host checks against the run's grants. After
    // the runtime's functions, whose indices then do not depend on them.
    for call in HOST_CALLS {
        if plan.host_calls.contains(&call.name) {
            out.push_str(call.import);
            out.push('\n');
        }
    }
    // The globals that describe the plan first: every plan imports them.
    for name in PLAN_GLOBALS {
        let _ = writeln!(
            out,
            "(import \"{from}\" \"g:{name}\" (global ${name} (mut i32)))"
        );
    }
    let mut constants = String::new();
    for &name in &globals {
        let Some(global) = runtime.globals.get(name) else {
            continue;
        };
        if !global.mutable {
            let _ = writeln!(constants, "(global ${name} {} {})", global.ty, global.init);
        } else if !PLAN_GLOBALS.contains(&name) {
            let _ = writeln!(
                out,
                "(import \"{from}\" \"g:{name}\" (global ${name} (mut {})))",
                global.ty
            );
        }
    }
    out.push_str(&constants);
    // Where the plan's own code finds the module globals (the value the start function gives
    // the runtime's `$plan_globals`), as a constant: compiled as an immediate.
    let _ = writeln!(
        out,
        "(global $plan_globals_at i32 (i32.const {plan_globals}))"
    );
    let base = plan.statics.base();
    let statics_len = plan.statics.end() - base;
    out.push_str(&plan.statics.to_wat().replacen(
        &format!("(data (i32.const {base}) "),
        "(data $plan_statics ",
        1,
    ));
    // In `PlanSlot` order.
    let table_len = 3;
    out.push_str("(elem $plan_functions func $plan_call $plan_try $plan_main)\n");
    out.push_str(plan.functions);
    out.push('\n');
    out.push_str(&dispatchers);

    out.push_str("(func $plan_start\n");
    let _ = writeln!(
        out,
        "  (if (i32.gt_u (i32.const {pages}) (memory.size))\n    (then (if (i32.lt_s (memory.grow (i32.sub (i32.const {pages}) (memory.size))) (i32.const 0)) (then (unreachable)))))"
    );
    let _ = writeln!(
        out,
        "  (memory.init $plan_statics (i32.const {base}) (i32.const 0) (i32.const {statics_len}))\n  (data.drop $plan_statics)"
    );
    let _ = writeln!(
        out,
        "  (if (i32.ne (table.grow $fns (ref.null func) (i32.const {table_len})) (i32.const 0)) (then (unreachable)))\n  (table.init $fns $plan_functions (i32.const 0) (i32.const 0) (i32.const {table_len}))\n  (elem.drop $plan_functions)"
    );
    let _ = writeln!(
        out,
        "  (i32.store (i32.const {library_files}) (i32.const {}))",
        plan.library_files.len()
    );
    for (index, address) in plan.library_files.iter().enumerate() {
        let _ = writeln!(
            out,
            "  (i32.store (i32.const {}) (i32.const {address}))",
            library_files + 4 + 4 * index as u32
        );
    }
    for (name, value) in [
        ("heap_start", heap_start),
        ("heap_top", heap_start),
        ("plan_globals", plan_globals),
        ("plan_globals_count", plan.globals as u32),
        ("s_traceback_file", plan.traceback_file),
        ("library_files", library_files),
        ("gc_stress_period", plan.gc_stress),
        ("plan_main_index", PlanSlot::Main as u32),
        ("plan_entries", plan.entries.len() as u32),
    ] {
        let _ = writeln!(out, "  (global.set ${name} (i32.const {value}))");
    }
    out.push_str(")\n(start $plan_start)\n)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_across_lines_with_exports_and_named_params() {
        let text = "(func $a (export \"x\") (param $p i64)\n  (param i32 i32) (result i64)\n  (local $l i32))\n(func $b)\n";
        let functions = function_signatures(text);
        assert_eq!(functions["a"], " (param i64) (param i32 i32) (result i64)");
        assert_eq!(functions["b"], "");
    }

    #[test]
    fn globals_are_read_with_their_mutability_type_and_value() {
        let text =
            "(global $c i32 (i32.const 7))\n(global $m (export \"m\") (mut i64) (i64.const 0))\n";
        let globals = global_declarations(text);
        assert!(!globals["c"].mutable);
        assert_eq!(
            (globals["c"].ty.as_str(), globals["c"].init.as_str()),
            ("i32", "(i32.const 7)")
        );
        assert!(globals["m"].mutable);
        assert_eq!(globals["m"].ty, "i64");
    }

    #[test]
    fn every_runtime_function_and_global_the_plan_names_is_imported_or_copied() {
        let runtime = runtime_module();
        assert!(runtime.functions.contains_key("b_print"));
        assert!(runtime.globals["shadow_top"].mutable);
        assert!(!runtime.globals["t_int"].mutable);
        for name in PLAN_GLOBALS {
            assert!(runtime.globals[*name].mutable, "{name}");
        }
    }

    #[test]
    fn a_function_may_collect_through_the_collector_a_table_a_host_call_or_a_callee() {
        let text = "(module\n(import \"baton\" \"log\" (func $host (param i32)))\n\
            (func $leaf (result i32) (i32.const 1))\n\
            (func $uses_leaf (result i32) (call $leaf))\n\
            (func $gc_safepoint)\n\
            (func $collects (call $gc_safepoint))\n\
            (func $through_collects (drop (call $uses_leaf)) (call $collects))\n\
            (func $indirect (call_indirect $fns (type $t) (i32.const 0)))\n\
            (func $host_caller (call $host (i32.const 0)))\n\
            (func $unknown_caller (call $nowhere))\n\
            (func $tail (return_call $through_collects))\n\
            (func $recursive (result i32) (call $recursive))\n)\n";
        let never = never_collecting(text);
        let never: Vec<&str> = never.iter().map(String::as_str).collect();
        assert_eq!(never, ["host_caller", "leaf", "recursive", "uses_leaf"]);
    }

    #[test]
    fn the_allocator_never_collects_and_calls_into_plan_code_may() {
        let runtime = Interface::assembled();
        for name in ["alloc", "tuple_new", "list_new", "list_append", "dict_new"] {
            assert!(runtime.never_collects(name), "{name}");
        }
        // The displays' makers hold their new list or dict in a wasm local only
        // (runtime/wat/seq.wat, dict.wat): they must never collect.
        for name in [
            "tuple_of4",
            "list_of1",
            "list_of4",
            "dict_set",
            "dict_of1",
            "dict_of2",
        ] {
            assert!(runtime.never_collects(name), "{name}");
        }
        // Nor do raising (a message, a traceback: host calls on the fatal paths) and arithmetic.
        for name in ["raise_msg", "raise_static", "add", "mul"] {
            assert!(runtime.never_collects(name), "{name}");
        }
        // `print` converts with `str()`, some of whose paths call through the table.
        for name in [
            "gc_safepoint",
            "gc_collect",
            "call",
            "call_plan",
            "call_plan1",
            "call_method2",
            "b_print",
            "no_such",
        ] {
            assert!(!runtime.never_collects(name), "{name}");
        }
    }
}
