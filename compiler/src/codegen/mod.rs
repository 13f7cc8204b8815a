//! Code generation: a checked plan to the WAT text of its functions, assembled into the plan
//! module that imports the runtime (`baton_runtime::linking::assemble_plan`). The value ABI is `docs/abi.md`; the runtime
//! functions called here are listed in `docs/runtime-api.md`.
//!
//! Every expression becomes WAT that leaves one `i64` value on the stack. Statements append to
//! the current function's body. Python functions and lambdas become wasm functions of a
//! parameter each (`$f<n>_body`) and an entry that binds a call's arguments to them (code of the
//! plan's `$plan_call`, `PlanParts::entries`); the module body becomes `$plan_main`;
//! comprehensions are emitted inline.

mod append;
mod calls;
mod definite;
mod fast;
mod fstring_spec;
mod range_loop;
mod scopes;
mod shadow;
mod stop_iteration;
mod temporaries;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;

use rustpython_parser::ast::{self, Constant, Ranged};

use baton_runtime::interface::Interface;
use baton_runtime::layout;
use baton_runtime::statics::Statics;
use baton_runtime::PlanParts;

use crate::check::normalize;
use crate::runtime::RUNTIME;
use crate::source::SourceFile;
use definite::Definite;
use scopes::{lazy_genexp, Place, ScopeId, Scopes, GENEXP_ARG};

/// A construct the code generator does not handle, with the line it is on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct Unsupported {
    pub line: usize,
    pub message: String,
}

/// The generated parts of a module, ready for assembly.
pub struct Generated {
    pub statics: Statics,
    pub functions: String,
    pub entries: Vec<String>,
    pub try_bodies: Vec<String>,
    /// For each wasm function (by name, with `$`), the line of the plan statement whose code is
    /// the largest part of it (of the outermost: a compound statement's includes its body's).
    /// For errors about a function's size; the plan library's functions are not here.
    pub function_lines: HashMap<String, usize>,
    pub host_calls: Vec<&'static str>,
    pub traceback_file: u32,
    pub library_files: Vec<u32>,
    pub globals: usize,
    pub gc_stress: u32,
}

impl Generated {
    pub fn parts(&self) -> PlanParts<'_> {
        PlanParts {
            host_calls: &self.host_calls,
            statics: &self.statics,
            functions: &self.functions,
            entries: &self.entries,
            try_bodies: &self.try_bodies,
            traceback_file: self.traceback_file,
            library_files: &self.library_files,
            globals: self.globals,
            gc_stress: self.gc_stress,
        }
    }
}

/// A module of the plan library (`plans/baton/`), written in the plan language and compiled into
/// the plans that import from it.
pub struct Library<'a> {
    /// Its import name (`baton.ttc`).
    pub module: &'static str,
    pub file: &'a SourceFile,
    pub body: &'a [ast::Stmt],
}

/// `libraries`: the plan library modules the plan imports from.
pub fn generate<'a>(
    file: &'a SourceFile,
    body: &[ast::Stmt],
    libraries: &[Library<'a>],
    options: &crate::CompileOptions,
) -> Result<Generated, Unsupported> {
    let scopes = Scopes::analyze(body);
    let mut statics = Statics::sharing_strs(RUNTIME.plan_statics, RUNTIME.strs);
    // Nothing of the plan's before the libraries' code: their statics and globals are then at
    // the same places in every plan that imports them, so their compiled code is the same
    // (runtime/src/linking.rs, `names_used`, says why that matters).
    let library_files: Vec<u32> = libraries
        .iter()
        .map(|library| statics.str(&baton_runtime::traceback_file_prefix(library.file.name())))
        .collect();
    let mut generator = Generator {
        file,
        runtime: &RUNTIME,
        scopes,
        statics,
        functions: String::new(),
        entries: Vec::new(),
        try_bodies: Vec::new(),
        try_group: None,
        try_groups: 0,
        function_lines: HashMap::new(),
        host_calls: BTreeSet::new(),
        globals: HashMap::new(),
        fns: Vec::new(),
        reserved: HashMap::new(),
        emitted_defs: HashSet::new(),
        gc_stress: options.gc_stress,
        appends: append::AppendTargets::default(),
        global_prefix: String::new(),
        file_index: 0,
        libraries: Vec::new(),
        module_aliases: HashMap::new(),
        module_unbinds: HashSet::new(),
        fstring_raw: false,
    };
    for (index, library) in libraries.iter().enumerate() {
        generator.library(library, index as u32 + 1)?;
    }
    let traceback_file = generator
        .statics
        .str(&baton_runtime::traceback_file_prefix(file.name()));
    // The collector times itself with the host's clock (figures.json's heap figures).
    generator.host_calls.insert("clock");
    generator.appends = append::AppendTargets::find(body);
    generator.module_aliases = module_aliases(body);
    generator.module(body)?;
    Ok(Generated {
        library_files,
        globals: generator.globals.len(),
        gc_stress: generator.gc_stress,
        statics: generator.statics,
        functions: generator.functions,
        entries: generator.entries,
        try_bodies: generator.try_bodies,
        function_lines: generator.function_lines,
        host_calls: generator.host_calls.into_iter().collect(),
        traceback_file,
    })
}

/// The names `import` statements anywhere in `body` bind, and the modules they bind.
fn module_aliases(body: &[ast::Stmt]) -> HashMap<String, String> {
    let mut aliases = HashMap::new();
    let mut visit = |stmt: &ast::Stmt| {
        if let ast::Stmt::Import(import) = stmt {
            for alias in &import.names {
                let module = normalize(alias.name.as_str()).into_owned();
                let bound = match &alias.asname {
                    Some(asname) => normalize(asname.as_str()).into_owned(),
                    None => module.split('.').next().unwrap_or("").to_owned(),
                };
                aliases.insert(bound, module);
            }
        }
    };
    walk_statements(body, &mut visit);
    aliases
}

/// Calls `visit` on every statement of `body`, nested blocks and function bodies included.
fn walk_statements(body: &[ast::Stmt], visit: &mut impl FnMut(&ast::Stmt)) {
    use ast::Stmt as S;
    for stmt in body {
        visit(stmt);
        match stmt {
            S::FunctionDef(f) => walk_statements(&f.body, visit),
            S::If(s) => {
                walk_statements(&s.body, visit);
                walk_statements(&s.orelse, visit);
            }
            S::For(s) => {
                walk_statements(&s.body, visit);
                walk_statements(&s.orelse, visit);
            }
            S::While(s) => {
                walk_statements(&s.body, visit);
                walk_statements(&s.orelse, visit);
            }
            S::With(s) => walk_statements(&s.body, visit),
            S::Try(s) => {
                walk_statements(&s.body, visit);
                for handler in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    walk_statements(&h.body, visit);
                }
                walk_statements(&s.orelse, visit);
                walk_statements(&s.finalbody, visit);
            }
            _ => {}
        }
    }
}

/// A loop being emitted: where `break` and `continue` branch, and how many `finally` blocks
/// were open when it started (those opened inside it run before a jump out).
struct LoopLabels {
    break_label: String,
    continue_label: String,
    finally_depth: usize,
}

/// A jump that leaves `try` blocks: it is recorded in the innermost `finally` frame, which runs
/// its finally body outside the protected region and then makes the jump.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jump {
    /// `return` (the value is in the function's `$retval` local).
    Return,
    /// `break` out of the loop at this index of `FnState::loops`.
    Break(usize),
    /// `continue` of the loop at this index.
    Continue(usize),
}

/// A `try ... finally` being emitted. Jumps out of its body set `pending` to their number (an
/// index into `jumps`, plus one) and branch to `normal`, after which the finally body runs once,
/// outside the region that catches exceptions, and the jump is made.
#[derive(Debug, Clone)]
struct FinallyFrame {
    normal: String,
    pending: String,
    jumps: Vec<Jump>,
}

/// A handler (an `except` clause, or a `finally` body entered by an exception) that set the
/// runtime's `$handled` (runtime/wat/core.wat): what it was when its `try` started is in `save`.
struct HandledScope {
    save: String,
    /// The name an `except E as name` clause binds: unbound however the handler is left.
    name: Option<String>,
    /// How many `finally` frames and loops enclosed the handler, to tell which jumps leave it.
    finally_depth: usize,
    loop_depth: usize,
}

/// One wasm function being emitted.
struct FnState {
    scope: ScopeId,
    locals: Vec<String>,
    body: String,
    vars: HashMap<(ScopeId, String), usize>,
    next_label: usize,
    loops: Vec<LoopLabels>,
    /// Enclosing `try ... finally` blocks, innermost last: a jump out of one goes through its
    /// finally body first.
    finally: Vec<FinallyFrame>,
    /// Locals holding the exceptions of the handlers being emitted, innermost last.
    handlers: Vec<String>,
    /// The handlers being emitted that set the runtime's `$handled`, innermost last: a jump
    /// out of one sets it back (see [`Generator::jump`]).
    handled: Vec<HandledScope>,
    /// Where a `raise` at this point is caught, innermost last: the label of the block that
    /// enters a `try`'s handlers when this code is that `try`'s body (`Some`), or `None` where
    /// an exception must be thrown (a handler, an `else` or `finally` body, a `try` with only a
    /// `finally`). See [`Generator::raise_stmt`].
    catch_here: Vec<Option<String>>,
    /// Which of the function's own plain locals, and which module globals, are assigned on
    /// every path here (definite.rs).
    definite: Definite,
    /// Scratch locals, reused from statement to statement (see [`Generator::stmt`]).
    temps: TempPool,
    /// A module body (or a part of one): its code outside loops runs once per run.
    module_level: bool,
    /// How many loops (of statements or comprehensions) enclose the code being emitted.
    looping: usize,
    /// How many `try` statements of the same Python function enclose the code being emitted
    /// such that an exception raised here could be caught (or see a `finally` run) in it: the
    /// bodies of `try`s, and the handlers and `else` of a `try` with a `finally`. Carried into
    /// the functions a module body's code is split into.
    enclosing_trys: usize,
    /// The plan statement whose code is the largest part of this function's so far, and how
    /// many bytes of text it is (`Generated::function_lines`).
    largest: Option<(usize, usize)>,
    /// The line the prologue stored, until the first statement's line store: the same line
    /// (the frame's line is its first statement's) is not stored twice.
    prologue_line: Option<usize>,
}

impl FnState {
    /// A function being started: `locals` are its fixed ones (`$d`, `$line_slot`, ...).
    fn new(scope: ScopeId, locals: &[&str], definite: Definite) -> Self {
        FnState {
            scope,
            locals: locals.iter().map(|l| (*l).to_owned()).collect(),
            body: String::new(),
            vars: HashMap::new(),
            next_label: 0,
            loops: Vec::new(),
            finally: Vec::new(),
            handlers: Vec::new(),
            handled: Vec::new(),
            catch_here: Vec::new(),
            definite,
            temps: TempPool::default(),
            module_level: false,
            looping: 0,
            enclosing_trys: 0,
            largest: None,
            prologue_line: None,
        }
    }
}

/// A wasm function of module-level `try` bodies, each run by its number (`$which`, the number
/// `$run_try_body` is given): consecutive bodies share one function, up to
/// [`TRY_GROUP_BYTES`] of code. Cranelift compiles each function at a fixed cost that a small
/// body does not repay: the differential tester's generated plans (~800 lines, ~50 such bodies
/// of ~8 KB of text each) compile 5% faster with their bodies gathered (48.4 -> 45.5 ms each,
/// the least of three compiles of 30 plans); a function much larger costs more per byte (one
/// plan's fifty bodies in one function: 6% slower than fifty functions).
struct TryGroup {
    /// `$try_group<n>`.
    name: String,
    /// The function being emitted, shared by its bodies in turn: their temps come from one pool,
    /// so its locals (and shadow frame) are about the largest body's, not their sum.
    state: FnState,
    /// The number of the first body.
    first: u32,
    /// Each body's code, by number from `first`.
    arms: Vec<String>,
    /// The bytes of the bodies' code.
    bytes: usize,
}

/// The most code text (WAT) gathered into one function of `try` bodies ([`TryGroup`]); a
/// body this large or larger has its function alone.
const TRY_GROUP_BYTES: usize = 16 << 10;

/// The most `try` bodies in one function ([`TryGroup`]): each adds a block around the ones
/// before it.
const TRY_GROUP_ARMS: usize = 8;

/// The call that makes a tuple to be filled, as code that runs while its items are held
/// (`Generator::scratch` asks whether it may collect: it does not).
const TUPLE_NEW: &str = "(call $tuple_new)";

/// Sets `$line_slot` from the frame depth in `$d`: the address of the frame's line (+4 in a
/// frame of the runtime's stack, after its name). Statements store their line at it with no
/// offset: a wasm access with an offset is two more Cranelift instructions (the constant and its
/// add), and a plan stores a line per statement (~1,000 in a generated plan of 850 lines; 0.5%
/// of compiling it).
const LINE_SLOT_FROM_DEPTH: &str = "(local.set $line_slot (i32.add (global.get $frames) \
     (i32.add (i32.shl (local.get $d) (i32.const 3)) (i32.const 4))))";

/// WAT storing `line` (`Generator::frame_line`'s) as the current frame's line.
fn line_store(line: usize) -> String {
    format!("(i32.store (local.get $line_slot) (i32.const {line}))")
}

/// Scratch locals of one function. A temp holds a value only within the statement that took
/// it (every use sets it before reading it), so once that statement is emitted — its nested
/// statements included — its temps go back to the pool for the statements after it. Without
/// reuse a long plan ran into wasm's limit of 50,000 locals a function (a 4,000-statement
/// module was refused by the validator).
#[derive(Default)]
struct TempPool {
    free_i64: Vec<String>,
    free_i32: Vec<String>,
    free_unrooted: Vec<String>,
    free_int32: Vec<String>,
    /// Taken by the statements being emitted, in order.
    taken: Vec<(String, TempKind)>,
}

/// What a temp holds, and so whether the collector sees it (shadow.rs).
#[derive(Clone, Copy)]
enum TempKind {
    /// A value (`$t`), written through to the function's shadow frame.
    Value,
    /// An object's address (`$p`: a tuple or list under construction), written through too.
    Address,
    /// A value (`$u`) that no collection can happen to while it is held
    /// ([`Generator::scratch`], [`Generator::held_temps`]): not shadowed.
    Unrooted,
    /// An `i32` the collector need not see (`$n`): never an address (a frame depth, a jump's
    /// number), or an address held only while nothing can collect ([`Generator::transient_address`]).
    /// Not shadowed.
    Int32,
}

impl TempPool {
    fn free(&mut self, kind: TempKind) -> &mut Vec<String> {
        match kind {
            TempKind::Value => &mut self.free_i64,
            TempKind::Address => &mut self.free_i32,
            TempKind::Unrooted => &mut self.free_unrooted,
            TempKind::Int32 => &mut self.free_int32,
        }
    }

    /// Gives back the temps taken since `taken` had `mark` entries.
    fn release_since(&mut self, mark: usize) {
        while self.taken.len() > mark {
            if let Some((name, kind)) = self.taken.pop() {
                self.free(kind).push(name);
            }
        }
    }
}

struct Generator<'a> {
    file: &'a SourceFile,
    /// What the plan links against in the runtime: its static objects' addresses
    /// (`crate::runtime`).
    runtime: &'static Interface,
    scopes: Scopes,
    statics: Statics,
    functions: String,
    /// The plan's function entries' code, by number (`PlanParts::entries`); `(unreachable)`
    /// until the function is emitted.
    entries: Vec<String>,
    /// The function of each module-level `try` body made one, by the body's number
    /// (`PlanParts::try_bodies`).
    try_bodies: Vec<String>,
    /// The function of `try` bodies that the next body joins, if any ([`TryGroup`]).
    try_group: Option<TryGroup>,
    /// How many functions of `try` bodies were started (the number in their names).
    try_groups: u32,
    /// `Generated::function_lines`.
    function_lines: HashMap<String, usize>,
    host_calls: BTreeSet<&'static str>,
    /// The module globals' slots by name (prefixed for a library's), numbered as first used.
    globals: HashMap<String, usize>,
    fns: Vec<FnState>,
    /// Table indices reserved for `def` statements (by range) before they are emitted.
    reserved: HashMap<(u32, u32), u32>,
    /// `def` statements emitted so far (a `finally` body may emit one twice).
    emitted_defs: HashSet<(u32, u32)>,
    /// The names the module being emitted unbinds anywhere (`definite::module_unbinds`): its
    /// other globals, once definitely bound, are read without the unbound test.
    module_unbinds: HashSet<String>,
    /// `CompileOptions::gc_stress`.
    gc_stress: u32,
    /// The str variables the module appends to in place (append.rs).
    appends: append::AppendTargets,
    /// Prepended to module-level names while a library is emitted (`baton.ttc.`), so a
    /// library's globals never meet the plan's (plan names cannot contain a dot).
    global_prefix: String,
    /// Which file the code being emitted comes from (0: the plan; n: library n), kept with each
    /// line number in the frame so tracebacks name the right file.
    file_index: u32,
    /// The libraries emitted: (module name, file index).
    libraries: Vec<(&'static str, u32)>,
    /// The names `import` statements of the file being emitted bind, and their modules
    /// (`import textwrap as tw`: `tw` -> `textwrap`).
    module_aliases: HashMap<String, String>,
    /// The f-string being emitted is raw (`rf"..."`): its format specs keep their backslashes.
    fstring_raw: bool,
}

type Result<T, E = Unsupported> = std::result::Result<T, E>;

/// A plan function's frame pop (the runtime's `$leave`), and its shadow frame's: the pushes
/// are its prologue's (shadow.rs, [`shadow::Entry::Function`]).
const LEAVE_FRAME: &str = "(global.set $depth (i32.sub (local.get $d) (i32.const 1))) (global.set $shadow_top (local.get $sp))";

fn none() -> String {
    format!("(i64.const {})", layout::NONE)
}

impl<'a> Generator<'a> {
    fn unsupported<T>(&self, node: &impl Ranged, message: impl Into<String>) -> Result<T> {
        let line = self.file.line_column(node.range().start().to_usize()).line;
        Err(Unsupported {
            line,
            message: message.into(),
        })
    }

    fn line_of(&self, node: &impl Ranged) -> usize {
        self.file.line_column(node.range().start().to_usize()).line
    }

    /// What a frame records as its line: the line, and the file in the top 8 bits
    /// (`runtime/wat/core.wat`, `$format_uncaught`).
    fn frame_line(&self, node: &impl Ranged) -> usize {
        self.with_file(self.line_of(node))
    }

    fn with_file(&self, line: usize) -> usize {
        (line & 0xff_ffff) | ((self.file_index as usize) << 24)
    }

    /// WAT reading module global `index`: the plan's module globals are values in memory at
    /// `$plan_globals`, where the collector finds them (runtime/wat/gc.wat).
    fn global_get(&self, index: usize) -> String {
        format!("(i64.load offset={} {})", 8 * index, self.globals_address())
    }

    /// WAT storing `value` into module global `index`.
    fn global_set(&self, index: usize, value: &str) -> String {
        format!(
            "(i64.store offset={} {} {value})",
            8 * index,
            self.globals_address()
        )
    }

    /// Where the module globals are: for the plan's own code the plan module's constant
    /// `$plan_globals_at` (`linking::assemble_plan` knows the address), which Cranelift
    /// compiles as an immediate, where reading the runtime's global `$plan_globals` is two
    /// loads (1,166 of them in a generated plan of 850 lines). A plan library module's code
    /// reads the runtime's: it must compile to the same code in every plan that imports it, for
    /// the engine's cache of compiled functions, and the address depends on the plan's statics.
    fn globals_address(&self) -> &'static str {
        if self.file_index == 0 {
            "(global.get $plan_globals_at)"
        } else {
            "(global.get $plan_globals)"
        }
    }

    /// Whether the code being emitted runs at most once in a run: module-level code outside
    /// every loop. Such code gets no inline fast paths (an int operation's small-int path, a
    /// known function's direct call): they would save nothing at run time and only add code
    /// to compile, and a plan is mostly such code (the differential tester's generated plans
    /// are ~70% of it).
    fn runs_once(&self) -> bool {
        self.fns
            .last()
            .is_some_and(|f| f.module_level && f.looping == 0)
    }

    fn f(&mut self) -> &mut FnState {
        self.fns.last_mut().expect("inside a function")
    }

    /// The code text generated so far: finished functions and those being generated.
    fn code_len(&self) -> usize {
        self.functions.len() + self.fns.iter().map(|f| f.body.len()).sum::<usize>()
    }

    fn emit(&mut self, code: &str) {
        let body = &mut self.f().body;
        body.push_str(code);
        body.push('\n');
    }

    fn local(&mut self, prefix: &str, ty: &str) -> String {
        let f = self.f();
        let name = format!("${prefix}{}", f.locals.len());
        f.locals.push(format!("(local {name} {ty})"));
        name
    }

    /// Runs `emit_into` with an empty body and returns what it emitted, so statement-like code
    /// (a comprehension's loops, a walrus's store) can be placed inside an expression and run
    /// only when that expression is evaluated.
    fn capture(&mut self, emit_into: impl FnOnce(&mut Self) -> Result<()>) -> Result<String> {
        let saved = std::mem::take(&mut self.f().body);
        let result = emit_into(self);
        let captured = std::mem::replace(&mut self.f().body, saved);
        result.map(|()| captured)
    }

    fn temp(&mut self) -> String {
        self.pooled_temp(TempKind::Value)
    }

    fn temp_i32(&mut self) -> String {
        self.pooled_temp(TempKind::Address)
    }

    /// The temp a loop takes its next item into, before assigning it to `target`: unshadowed
    /// when the target is a name stored by a plain store (a local, a module global), which
    /// holds the item where the collector sees it before anything runs that may collect; a
    /// shadowed one otherwise (unpacking, a cell, a subscript call code first).
    fn item_temp(&mut self, target: &ast::Expr) -> String {
        let stored_plainly = match target {
            ast::Expr::Name(name) => matches!(
                self.scopes
                    .resolve(self.current_scope(), &normalize(name.id.as_str())),
                Place::Local { cell: false, .. } | Place::Global(_)
            ),
            _ => false,
        };
        if stored_plainly {
            self.pooled_temp(TempKind::Unrooted)
        } else {
            self.temp()
        }
    }

    /// A temp for an `i32` that is never an address (a frame depth, a jump's number): not
    /// shadowed, so setting it stores nothing to the shadow frame.
    fn int_temp(&mut self) -> String {
        self.pooled_temp(TempKind::Int32)
    }

    /// A temp for a value that is set, then read once `later` (the code that runs in between,
    /// in order) has run: an unshadowed one when nothing in `later` may collect (shadow.rs,
    /// `may_collect`), so the value needs no slot; else a shadowed one.
    fn scratch(&mut self, later: &[&str]) -> String {
        if later.iter().any(|code| shadow::may_collect(code)) {
            self.temp()
        } else {
            self.pooled_temp(TempKind::Unrooted)
        }
    }

    /// Temps for `values`, evaluated in order into them and then used together after `then`
    /// (a tuple's items before `$tuple_new`): each is held across the values after it and
    /// `then`, so it needs a shadowed temp only when one of those may collect (and it is not a
    /// constant). Decided in one pass from the end, so a display of thousands of items costs
    /// linear time.
    fn held_temps(&mut self, values: &[String], then: &str) -> Vec<String> {
        let mut later_collects = shadow::may_collect(then);
        let mut temps = vec![String::new(); values.len()];
        for (temp, value) in temps.iter_mut().zip(values).rev() {
            *temp = if later_collects && !shadow::is_constant(value) {
                self.temp()
            } else {
                self.pooled_temp(TempKind::Unrooted)
            };
            later_collects = later_collects || shadow::may_collect(value);
        }
        temps
    }

    /// A temp for an object's address that is held only while nothing can collect (a tuple
    /// between `$tuple_new` and the store of its last item, the items of an unpacking whose
    /// targets are all plain stores): not shadowed, so setting it stores nothing to the shadow
    /// frame. Whoever then takes the object roots it as any other value.
    fn transient_address(&mut self) -> String {
        self.pooled_temp(TempKind::Int32)
    }

    /// A temp for a plain machine integer (never an address): not shadowed.
    fn number_temp(&mut self) -> String {
        self.pooled_temp(TempKind::Unrooted)
    }

    fn pooled_temp(&mut self, kind: TempKind) -> String {
        let name = match self.f().temps.free(kind).pop() {
            Some(name) => name,
            None => match kind {
                TempKind::Value => self.local("t", "i64"),
                TempKind::Address => self.local("p", "i32"),
                TempKind::Unrooted => self.local(shadow::UNROOTED_PREFIX, "i64"),
                TempKind::Int32 => self.local("n", "i32"),
            },
        };
        self.f().temps.taken.push((name.clone(), kind));
        name
    }

    /// `code` (an operand evaluated before `later`, which uses the operand stack) as an operand
    /// the collector can see while `later` runs: teed into a shadowed temp when `later` may
    /// collect (shadow.rs). `is_i32`: the operand is an i32 (an object's address).
    fn keep(&mut self, code: String, is_i32: bool, later: &[&str]) -> String {
        if !later.iter().any(|l| shadow::needs_root(&code, l)) {
            return code;
        }
        let temp = self.pooled_temp(if is_i32 {
            TempKind::Address
        } else {
            TempKind::Value
        });
        format!("(local.tee {temp} {code})")
    }

    /// [`Generator::keep`], unless `rooted`: the code already holds its value in a shadowed
    /// temp (as [`Generator::method_looked_up`] may).
    fn kept_unless(&mut self, rooted: bool, code: String, later: &[&str]) -> String {
        if rooted {
            code
        } else {
            self.keep(code, false, later)
        }
    }

    fn label(&mut self, prefix: &str) -> String {
        let f = self.f();
        f.next_label += 1;
        format!("${prefix}{}", f.next_label)
    }

    fn str_const(&mut self, text: &str) -> u32 {
        self.statics.str(text)
    }

    /// The static str of the literal `node`, whose text the parser decoded to `text`. A Rust
    /// string cannot hold a lone surrogate (`"\ud800"`), which the parser replaced with U+FFFD:
    /// such a literal is decoded again from its source (`escapes::str_literal_bytes`).
    fn str_literal(&mut self, node: &ast::Expr, text: &str) -> u32 {
        if text.contains('\u{fffd}') {
            let range = node.range();
            let source = self
                .file
                .text()
                .get(range.start().to_usize()..range.end().to_usize());
            if let Some(bytes) = source.and_then(crate::escapes::str_literal_bytes) {
                return self.statics.str_bytes(&bytes);
            }
        }
        self.str_const(text)
    }

    fn str_value(&mut self, text: &str) -> String {
        format!("(i64.const {})", self.str_const(text))
    }

    /// The index of a module-level name's wasm global (in the module being emitted: the plan's,
    /// or a library's under its prefix).
    fn global_index(&mut self, name: &str) -> usize {
        let name = format!("{}{name}", self.global_prefix);
        self.global_index_of(&name)
    }

    fn global_index_of(&mut self, name: &str) -> usize {
        if let Some(&index) = self.globals.get(name) {
            return index;
        }
        let index = self.globals.len();
        self.globals.insert(name.to_owned(), index);
        index
    }

    /// The wasm local that holds a variable (or its cell) in the current function.
    fn var_local(&mut self, owner: ScopeId, name: &str, cell: bool) -> String {
        let key = (owner, name.to_owned());
        let f = self.f();
        let id = match f.vars.get(&key) {
            Some(&id) => id,
            None => {
                let id = f.vars.len();
                f.vars.insert(key, id);
                let prefix = if cell { "c" } else { "v" };
                f.locals.push(format!("(local ${prefix}{id} i64)"));
                id
            }
        };
        format!("${}{id}", if cell { "c" } else { "v" })
    }

    fn current_scope(&self) -> ScopeId {
        self.fns.last().map(|f| f.scope).unwrap_or(0)
    }

    // ----- functions ---------------------------------------------------------------------------

    fn module(&mut self, body: &[ast::Stmt]) -> Result<()> {
        self.module_body(body, "$plan_main", true)
    }

    /// Emits a module body as the wasm function `wasm_name`; the plan's (`with_main`) also
    /// calls `main` afterwards.
    fn module_body(&mut self, body: &[ast::Stmt], wasm_name: &str, with_main: bool) -> Result<()> {
        let scope = 0; // the module scope is always the first
        self.module_unbinds = definite::module_unbinds(body);
        self.fns.push(FnState::new(
            scope,
            &["(local $d i32)", "(local $line_slot i32)"],
            Definite::default(),
        ));
        self.f().module_level = true;
        let name = self.str_const("<module>");
        self.emit(&format!("(local.set $d (call $enter (i32.const {name})))"));
        self.emit(LINE_SLOT_FROM_DEPTH);
        let chunks = module_chunks(body);
        let result = if chunks.len() == 1 {
            self.stmts(body)
        } else {
            chunks.iter().enumerate().try_for_each(|(i, chunk)| {
                let part = format!("{wasm_name}_part{i}");
                self.emit(&format!("(call {part} (local.get $d))"));
                self.module_part(&part, chunk)
            })
        };
        if result.is_err() {
            self.fns.pop();
            return result;
        }
        if with_main {
            self.run_main()?;
        }
        self.emit("(call $leave (local.get $d))");
        self.emit(shadow::POP_FRAME);
        let mut f = self.fns.pop().expect("module function");
        self.record_largest(wasm_name, &f);
        let body = shadow::instrument(&mut f.locals, &f.body, shadow::Entry::ModuleLevel);
        let _ = writeln!(
            self.functions,
            "(func {wasm_name}\n{}\n{body})",
            f.locals.join(" ")
        );
        // A library's `try` bodies do not share a function with the plan's: its code must be
        // the same in every plan that imports it.
        if let Some(group) = self.try_group.take() {
            self.finish_try_group(group);
        }
        Ok(())
    }

    /// One part of a long module body as its own wasm function, run in the module's frame
    /// (`$d`): module-level names are wasm globals, so statements need nothing else from the
    /// function they are emitted in.
    fn module_part(&mut self, wasm_name: &str, body: &[ast::Stmt]) -> Result<()> {
        self.module_frame_function(wasm_name, |g| g.stmts(body))
    }

    /// Records the plan statement whose code is the largest part of the wasm function
    /// `wasm_name`, just finished as `f` (`Generated::function_lines`).
    fn record_largest(&mut self, wasm_name: &str, f: &FnState) {
        if let Some((_, line)) = f.largest {
            self.function_lines.insert(wasm_name.to_owned(), line);
        }
    }

    /// Module-level code that `emit` emits, as the wasm function `wasm_name`, run in the
    /// module's frame (`$d`), which the caller calls where the code belongs: the parts of a
    /// long module body.
    fn module_frame_function(
        &mut self,
        wasm_name: &str,
        emit: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        // The code runs where it is called: it starts with what the module has bound there,
        // and what it binds is bound after it.
        let bound = self.f().definite.clone();
        let (looping, enclosing_trys) = (self.f().looping, self.f().enclosing_trys);
        self.fns
            .push(FnState::new(0, &["(local $line_slot i32)"], bound));
        self.f().module_level = true;
        self.f().looping = looping;
        self.f().enclosing_trys = enclosing_trys;
        self.emit(LINE_SLOT_FROM_DEPTH);
        let result = emit(self);
        self.emit(shadow::POP_FRAME);
        let mut f = self.fns.pop().expect("module part");
        result?;
        self.record_largest(wasm_name, &f);
        self.f().definite = std::mem::take(&mut f.definite);
        let body = shadow::instrument(&mut f.locals, &f.body, shadow::Entry::ModuleLevel);
        let _ = writeln!(
            self.functions,
            "(func {wasm_name} (param $d i32)\n{}\n{body})",
            f.locals.join(" ")
        );
        Ok(())
    }

    /// Emits the module-level `try` body number `index` ([`Generator::outlines_try_body`]),
    /// which `emit` emits, into a function of `try` bodies ([`TryGroup`]) run in the module's
    /// frame (`$d`): the one the body before it finished in, when that was the body before in
    /// number and has room, else a new one. A group whose body finishes while another waits
    /// for the next body is finished then.
    fn try_body_function(
        &mut self,
        index: u32,
        emit: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        // The code runs where it is called: it starts with what the module has bound there,
        // and what it binds is bound after it.
        let bound = self.f().definite.clone();
        let (looping, enclosing_trys) = (self.f().looping, self.f().enclosing_trys);
        let mut group = match self.try_group.take() {
            Some(group)
                if group.first + group.arms.len() as u32 == index
                    && group.arms.len() < TRY_GROUP_ARMS
                    && group.bytes < TRY_GROUP_BYTES =>
            {
                group
            }
            other => {
                if let Some(full) = other {
                    self.finish_try_group(full);
                }
                self.try_groups += 1;
                let mut state = FnState::new(0, &["(local $line_slot i32)"], Definite::default());
                state.module_level = true;
                TryGroup {
                    name: format!("$try_group{}", self.try_groups),
                    state,
                    first: index,
                    arms: Vec::new(),
                    bytes: 0,
                }
            }
        };
        self.try_bodies[index as usize] = group.name.clone();
        group.state.definite = bound;
        group.state.looping = looping;
        group.state.enclosing_trys = enclosing_trys;
        let TryGroup {
            name,
            state,
            first,
            mut arms,
            bytes,
        } = group;
        self.fns.push(state);
        let result = emit(self);
        let mut state = self.fns.pop().expect("the try body's function");
        result?;
        self.f().definite = std::mem::take(&mut state.definite);
        let arm = std::mem::take(&mut state.body);
        let bytes = bytes + arm.len();
        arms.push(arm);
        let group = TryGroup {
            name,
            state,
            first,
            arms,
            bytes,
        };
        match self.try_group {
            None => self.try_group = Some(group),
            Some(_) => self.finish_try_group(group),
        }
        Ok(())
    }

    /// Writes the function of `group`'s bodies: one `br_table` on the body's number when it
    /// has several, each body returning after its code.
    fn finish_try_group(&mut self, group: TryGroup) {
        let TryGroup {
            name,
            mut state,
            first,
            arms,
            ..
        } = group;
        let mut code = String::with_capacity(arms.iter().map(|a| a.len() + 64).sum());
        code.push_str(LINE_SLOT_FROM_DEPTH);
        code.push('\n');
        if let [only] = &arms[..] {
            code.push_str(only);
            code.push_str(shadow::POP_FRAME);
        } else {
            for k in (0..arms.len()).rev() {
                let _ = write!(code, "(block $try_arm{k} ");
            }
            code.push_str("(br_table");
            for k in 0..arms.len() {
                let _ = write!(code, " $try_arm{k}");
            }
            // The innermost block ends after the `br_table`, each other after the body before
            // its own: `br_table` to `$try_arm<k>` runs body `k`.
            let _ = writeln!(code, " (i32.sub (local.get $which) (i32.const {first}))))");
            let last = arms.len() - 1;
            for (k, arm) in arms.iter().enumerate() {
                code.push_str(arm);
                code.push_str(shadow::POP_FRAME);
                if k < last {
                    code.push_str("(return))\n");
                }
            }
        }
        self.record_largest(&name, &state);
        let body = shadow::instrument(&mut state.locals, &code, shadow::Entry::ModuleLevel);
        let _ = writeln!(
            self.functions,
            "(func {name} (param $which i32) (param $d i32)\n{}\n{body})",
            state.locals.join(" ")
        );
    }

    /// Emits a plan library module: its body becomes `$lib<n>_main`, run once by
    /// `$lib<n>_init` when the plan first imports from it. Emitted with the library's own file,
    /// scopes and `def` bookkeeping, and its module-level names under `<module>.`.
    fn library(&mut self, library: &Library<'a>, file_index: u32) -> Result<()> {
        let saved_file = std::mem::replace(&mut self.file, library.file);
        let saved_scopes = std::mem::replace(&mut self.scopes, Scopes::analyze(library.body));
        let saved_appends =
            std::mem::replace(&mut self.appends, append::AppendTargets::find(library.body));
        let saved_reserved = std::mem::take(&mut self.reserved);
        let saved_emitted = std::mem::take(&mut self.emitted_defs);
        let saved_aliases =
            std::mem::replace(&mut self.module_aliases, module_aliases(library.body));
        self.global_prefix = format!("{}.", library.module);
        self.file_index = file_index;
        let result = self.module_body(library.body, &format!("$lib{file_index}_main"), false);
        self.file = saved_file;
        self.scopes = saved_scopes;
        self.appends = saved_appends;
        self.reserved = saved_reserved;
        self.emitted_defs = saved_emitted;
        self.module_aliases = saved_aliases;
        self.global_prefix.clear();
        self.file_index = 0;
        result?;
        let _ = writeln!(
            self.functions,
            "(global $lib{file_index}_done (mut i32) (i32.const 0))\n\
             (func $lib{file_index}_init\n\
             (if (global.get $lib{file_index}_done) (then (return)))\n\
             (global.set $lib{file_index}_done (i32.const 1))\n\
             (call $lib{file_index}_main))"
        );
        self.libraries.push((library.module, file_index));
        Ok(())
    }

    /// `from <library> import member`: runs the library's body the first time, then reads the
    /// member's global. `None` when `module` is not an emitted library.
    fn library_member(&mut self, module: &str, member: &str) -> Option<String> {
        let (_, index) = *self.libraries.iter().find(|(name, _)| *name == module)?;
        // Every module-level name a library binds has its global by the end of its emission;
        // a name it does not bind is the runtime's (`module_member`).
        let name = format!("{module}.{member}");
        if !self.globals.contains_key(&name) {
            return None;
        }
        let global = self.global_index_of(&name);
        Some(format!(
            "(block (result i64) (call $lib{index}_init) (call $str_share {}))",
            self.global_get(global)
        ))
    }

    /// A plan that binds `main` at module level has it called after the module body, with the
    /// run's inputs as keyword arguments; its return value is the run's result (DESIGN.md,
    /// "Runs"). `$sdk_run_main` does nothing when `main` is unbound or not a function.
    fn run_main(&mut self) -> Result<()> {
        if let Place::Global(name) = self.scopes.resolve(0, "main") {
            let index = self.global_index(&name);
            self.host_calls.extend(["inputs", "reply", "result"]);
            self.emit(&format!("(call $sdk_run_main {})", self.global_get(index)));
        }
        Ok(())
    }

    /// The entry number of the function a `def` statement makes, reserved on first request so
    /// that call sites emitted before the function itself can call it directly.
    fn def_index(&mut self, key: (u32, u32)) -> u32 {
        if let Some(&index) = self.reserved.get(&key) {
            return index;
        }
        let index = self.entries.len() as u32;
        self.entries.push(String::from("(unreachable)"));
        self.reserved.insert(key, index);
        index
    }

    /// CPython's names for the function with qualified name `qualname` when it is a library
    /// function standing for a C function of CPython (`library::c_function`).
    fn c_function_names(&self, qualname: &str) -> Option<crate::library::CFunctionNames> {
        let module = self.global_prefix.strip_suffix('.')?;
        crate::library::c_function(module, qualname)
    }

    /// Emits a function or lambda as a wasm function; returns its entry number. `def_key` is a
    /// `def` statement's range, whose reserved index direct call sites test for.
    fn function(
        &mut self,
        scope: ScopeId,
        name: &str,
        args: &ast::Arguments,
        body: FunctionBody<'_>,
        def_key: Option<(u32, u32)>,
    ) -> Result<u32> {
        // A `def` in a `finally` body is emitted twice; only the first copy takes the reserved
        // index (the other's function objects fail the direct-call test and go generic).
        let index = match def_key {
            Some(key) if self.emitted_defs.insert(key) => self.def_index(key),
            _ => {
                let index = self.entries.len() as u32;
                self.entries.push(String::from("(unreachable)"));
                index
            }
        };
        let wasm_name = format!("f{index}");

        // The parameter descriptor (docs: call.wat, "argument binding").
        let positional: Vec<&ast::ArgWithDefault> =
            args.posonlyargs.iter().chain(&args.args).collect();
        let mut names: Vec<String> = positional
            .iter()
            .map(|a| normalize(a.def.arg.as_str()).into_owned())
            .collect();
        names.extend(
            args.kwonlyargs
                .iter()
                .map(|a| normalize(a.def.arg.as_str()).into_owned()),
        );
        // A library function standing for one of CPython's C functions words its argument
        // errors as CPython's C argument parsers do (flag 4; its names follow the parameters').
        let c_names = self.c_function_names(&self.scopes.qualname(scope));
        let mut words = vec![
            positional.len() as u32,
            args.posonlyargs.len() as u32,
            args.kwonlyargs.len() as u32,
            u32::from(args.vararg.is_some())
                | (u32::from(args.kwarg.is_some()) << 1)
                | (u32::from(c_names.is_some()) << 2),
        ];
        for param in &names {
            words.push(self.str_const(param));
        }
        if let Some(c) = &c_names {
            words.push(self.str_const(&c.bare));
            words.push(self.str_const(&c.no_keywords));
        }
        let descriptor = self.statics.words(&words);
        if let Some(vararg) = &args.vararg {
            names.push(normalize(vararg.arg.as_str()).into_owned());
        }
        if let Some(kwarg) = &args.kwarg {
            names.push(normalize(kwarg.arg.as_str()).into_owned());
        }
        let name_str = self.str_const(name);
        let line = match &body {
            FunctionBody::Statements(stmts) => stmts
                .first()
                .map_or(self.with_file(1), |s| self.frame_line(s)),
            FunctionBody::Expression(expr) => self.frame_line(*expr),
            FunctionBody::Generator { elt, .. } => self.frame_line(*elt),
        };

        // The body is its own wasm function taking the bound parameters as arguments: direct
        // calls (see `direct_call`) enter it without an argument tuple or `$bind`.
        let mut definite = match &body {
            FunctionBody::Statements(stmts) => Definite::new(stmts),
            FunctionBody::Expression(_) | FunctionBody::Generator { .. } => Definite::default(),
        };
        // The function is created here: the globals bound here are bound whenever it runs.
        definite.inherit_globals(&self.f().definite);
        self.fns.push(FnState::new(
            scope,
            &[
                "(local $d i32)",
                "(local $line_slot i32)",
                "(local $cells i32)",
            ],
            definite,
        ));
        // The prologue (shadow.rs) pushes the call frame named `name_str` and sets `$d` and
        // `$line_slot`.
        self.emit(&line_store(line));
        self.f().prologue_line = Some(line);
        self.emit("(local.set $cells (i32.load offset=24 (local.get $fn)))");
        let cells = self.scopes.scopes[scope].cells.clone();
        for (i, param) in names.iter().enumerate() {
            let load = format!("(local.get $a{i})");
            let is_cell = cells.contains(param);
            let local = self.var_local(scope, param, is_cell);
            if is_cell {
                self.emit(&format!("(local.set {local} (call $cell_new {load}))"));
            } else {
                self.emit(&format!("(local.set {local} {load})"));
                self.f().definite.assign(scope, param);
            }
        }
        // Cells for the other captured variables of this scope, empty until assigned.
        for name in &cells {
            if !names.contains(name) {
                let local = self.var_local(scope, name, true);
                self.emit(&format!(
                    "(local.set {local} (call $cell_new (i64.const 0)))"
                ));
            }
        }
        // The arguments are in shadowed locals now: the entry's safe point (shadow.rs).
        self.emit(shadow::SAFE_POINT);
        match body {
            FunctionBody::Statements(stmts) => {
                self.stmts(stmts)?;
                self.emit(LEAVE_FRAME);
                self.emit(&none());
            }
            FunctionBody::Expression(expr) => {
                let value = self.expr(expr)?;
                let result = self.temp();
                self.emit(&format!("(local.set {result} {value})"));
                self.emit(LEAVE_FRAME);
                self.emit(&format!("(local.get {result})"));
            }
            FunctionBody::Generator { target, ifs, elt } => {
                let item = self.load_name(GENEXP_ARG)?;
                self.assign(target, &item)?;
                for test in ifs {
                    let truth = self.condition(test)?;
                    self.emit(&format!(
                        "(if (i32.eqz {truth}) (then {LEAVE_FRAME} (return (i64.const 0))))"
                    ));
                }
                let value = self.expr(elt)?;
                let result = self.temp();
                self.emit(&format!("(local.set {result} {value})"));
                self.emit(LEAVE_FRAME);
                self.emit(&format!("(local.get {result})"));
            }
        }
        let mut f = self.fns.pop().expect("function state");
        self.record_largest(&format!("${wasm_name}_body"), &f);
        let params: String = (0..names.len())
            .map(|i| format!(" (param $a{i} i64)"))
            .collect();
        let body = shadow::instrument(
            &mut f.locals,
            &f.body,
            shadow::Entry::Function { name: name_str },
        );
        let _ = writeln!(
            self.functions,
            "(func ${wasm_name}_body (param $fn i32){params} (result i64)\n{}\n{body})",
            f.locals.join(" ")
        );

        // The entry binds a call's arguments. When they are exactly the positional
        // parameters, no binding is needed. Otherwise `$bind` runs before the function's
        // frame exists, so its errors are reported at the call, as CPython reports them.
        let slot_loads = |base: &str, first: usize| -> String {
            (0..names.len())
                .map(|i| format!(" (i64.load offset={} (local.get {base}))", first + 8 * i))
                .collect()
        };
        // The entry is code of the plan's dispatcher, `$plan_call` (`PlanParts::entries`), not
        // a function of its own: a function costs Cranelift a fixed ~30 us to compile.
        let mut entry = String::new();
        if args.vararg.is_none() && args.kwarg.is_none() && args.kwonlyargs.is_empty() {
            let _ = writeln!(
                entry,
                "(if (i32.and (i32.eqz (local.get $kwargs)) (i32.eq (i32.load offset=4 (local.get $args)) (i32.const {}))) \
                 (then (return_call ${wasm_name}_body (local.get $fn){})))",
                names.len(),
                slot_loads("$args", 8)
            );
        }
        let _ = write!(
            entry,
            "(local.set $slots (call $alloc (i32.const {})))\n\
             (call $bind (local.get $fn) (local.get $args) (local.get $kwargs) (i32.const {descriptor}) (local.get $slots))\n\
             (return_call ${wasm_name}_body (local.get $fn){})",
            8 * names.len().max(1),
            slot_loads("$slots", 0)
        );
        self.entries[index as usize] = entry;
        Ok(index)
    }

    /// Code that builds the function object for a `def` (with its return annotation) or lambda
    /// at its definition site.
    fn make_function(
        &mut self,
        node_scope: ScopeId,
        name: &str,
        args: &ast::Arguments,
        returns: Option<&ast::Expr>,
        body: FunctionBody<'_>,
        def_key: Option<(u32, u32)>,
    ) -> Result<String> {
        // Defaults are evaluated once, at definition time, in the enclosing scope.
        let positional: Vec<&ast::ArgWithDefault> =
            args.posonlyargs.iter().chain(&args.args).collect();
        let defaults: Vec<&ast::Expr> = positional
            .iter()
            .filter_map(|a| a.default.as_deref())
            .collect();
        let mut prefix = String::new();
        let defaults_code = if defaults.is_empty() {
            "(i32.const 0)".to_owned()
        } else {
            let tuple = self.temp_i32();
            let _ = write!(
                prefix,
                "(local.set {tuple} (call $tuple_new (i32.const {})))",
                defaults.len()
            );
            for (i, default) in defaults.iter().enumerate() {
                let value = self.expr(default)?;
                let _ = write!(
                    prefix,
                    "(i64.store offset={} (local.get {tuple}) {value})",
                    8 + 8 * i
                );
            }
            format!("(local.get {tuple})")
        };
        let kwdefaults: Vec<&ast::ArgWithDefault> = args
            .kwonlyargs
            .iter()
            .filter(|a| a.default.is_some())
            .collect();
        let kwdefaults_code = if kwdefaults.is_empty() {
            "(i32.const 0)".to_owned()
        } else {
            let dict = self.temp();
            let _ = write!(prefix, "(local.set {dict} (call $dict_new))");
            for arg in kwdefaults {
                let key = self.str_value(&normalize(arg.def.arg.as_str()));
                let value = self.expr(arg.default.as_deref().expect("filtered"))?;
                let _ = write!(prefix, "(call $dict_set (local.get {dict}) {key} {value})");
            }
            format!("(i32.wrap_i64 (local.get {dict}))")
        };
        // The annotations are evaluated after the defaults and dropped, in CPython 3.11's order
        // (the parameters, the positional-only ones, `*args`, the keyword-only ones, `**kwargs`,
        // the return): Baton keeps no `__annotations__`, but one naming an undefined name is
        // CPython's NameError when the `def` runs.
        let annotations = args
            .args
            .iter()
            .chain(&args.posonlyargs)
            .map(|a| a.def.annotation.as_deref())
            .chain([args.vararg.as_ref().and_then(|v| v.annotation.as_deref())])
            .chain(args.kwonlyargs.iter().map(|a| a.def.annotation.as_deref()))
            .chain([args.kwarg.as_ref().and_then(|k| k.annotation.as_deref())])
            .chain([returns])
            .flatten();
        for annotation in annotations {
            let value = self.expr(annotation)?;
            let _ = write!(prefix, "(drop {value})");
        }
        let index = self.function(node_scope, name, args, body, def_key)?;
        // The closure: the cells of the variables the new function captures, in its order.
        let free = self.scopes.scopes[node_scope].free.clone();
        let cells_code = if free.is_empty() {
            "(i32.const 0)".to_owned()
        } else {
            let tuple = self.temp_i32();
            let _ = write!(
                prefix,
                "(local.set {tuple} (call $tuple_new (i32.const {})))",
                free.len()
            );
            let here = self.current_scope();
            for (i, (_, var)) in free.iter().enumerate() {
                let cell = match self.scopes.resolve(here, var) {
                    place @ (Place::Local { .. } | Place::Free { .. }) => self
                        .cell_of(&place)
                        .expect("a variable captured by a nested function lives in a cell"),
                    _ => unreachable!(
                        "a captured variable is local or free where the function is defined"
                    ),
                };
                let _ = write!(
                    prefix,
                    "(i64.store offset={} (local.get {tuple}) {cell})",
                    8 + 8 * i
                );
            }
            format!("(local.get {tuple})")
        };
        // Function objects carry the qualified name, as CPython's repr and argument errors
        // show it (`g.<locals>.inner() missing 1 required positional argument`).
        let qualname = self.scopes.qualname(node_scope);
        // One standing for a C function of CPython is named as CPython names it (`groups`).
        let c_names = self.c_function_names(&qualname);
        let shown = match &c_names {
            Some(c) => c.bare.as_str(),
            None if qualname.is_empty() => name,
            None => &qualname,
        };
        let name_str = self.str_const(shown);
        let mut function = format!(
            "(call $func_new (i32.const {index}) (i32.const {name_str}) {defaults_code} {kwdefaults_code} {cells_code})"
        );
        if c_names.is_some() {
            function = format!("(call $func_as_builtin {function})");
        }
        // A plan library's function names its module in messages (`shlex.split() argument
        // after * must be an iterable`), as CPython's do; a C method its type (`Match.`).
        if !self.global_prefix.is_empty() {
            let module = c_names
                .as_ref()
                .map_or(self.global_prefix.clone(), |c| c.qualifier.to_owned());
            let module_str = self.str_const(&module);
            function = format!("(call $func_in_module {function} (i32.const {module_str}))");
        }
        Ok(format!("(block (result i64) {prefix} {function})"))
    }

    // ----- statements ------------------------------------------------------------------------

    fn stmts(&mut self, body: &[ast::Stmt]) -> Result<()> {
        for stmt in body {
            self.stmt(stmt)?;
        }
        Ok(())
    }

    fn set_line(&mut self, node: &impl Ranged) {
        let line = self.frame_line(node);
        // The first statement after the prologue, which stored its line already (nothing
        // between them branches or stores another).
        if self.f().prologue_line.take() == Some(line) {
            return;
        }
        self.emit(&line_store(line));
    }

    /// Emits one statement; the temps it took are free again afterwards.
    fn stmt(&mut self, stmt: &ast::Stmt) -> Result<()> {
        if self.code_len() > MAX_CODE_TEXT {
            return self.unsupported(
                stmt,
                format!(
                    "the plan compiles to more than {} MiB of code, too much to compile safely: \
                     a `finally` body is compiled once for each way out of its `try` \
                     (completing, raising), so each `try/finally` nested in another's \
                     `finally` doubles the code of what is inside it; nest fewer of them, or \
                     move the inner ones into a function called from the `finally`",
                    MAX_CODE_TEXT >> 20
                ),
            );
        }
        let mark = self.f().temps.taken.len();
        let before = self.f().body.len();
        let result = self.stmt_inner(stmt);
        self.f().temps.release_since(mark);
        let grown = self.f().body.len().saturating_sub(before);
        if self.file_index == 0 && self.f().largest.is_none_or(|(bytes, _)| grown > bytes) {
            let line = self.line_of(stmt);
            self.f().largest = Some((grown, line));
        }
        result
    }

    fn stmt_inner(&mut self, stmt: &ast::Stmt) -> Result<()> {
        use ast::Stmt as S;
        self.set_line(stmt);
        match stmt {
            S::Expr(e) => {
                let value = self.expr(&e.value)?;
                self.emit(&format!("(drop {value})"));
            }
            S::Assign(_) if let Some((name, right)) = self.in_place_concat(stmt) => {
                let current = self.load_name_unshared(&name)?;
                let value = self.expr(right)?;
                let current = self.keep(current, false, &[&value]);
                let known = fast::small_literal(right);
                let result = self.binary_op(
                    &ast::Operator::Add,
                    current,
                    value,
                    known,
                    "$str_append_add",
                );
                self.store_name(&name, &result)?;
            }
            S::Assign(a) => {
                let value = self.expr(&a.value)?;
                if let [target] = a.targets.as_slice() {
                    // Straight into the one target, as an annotated assignment does: a temp
                    // between would be one more shadow-slot store for Cranelift to compile (73
                    // of a generated plan's 1,645 for plain variables). `assign` evaluates the
                    // value before anything of the target's own (a subscript's object and key,
                    // an unpacking), holding it where the target needs it held.
                    self.assign(target, &value)?;
                } else {
                    let temp = self.temp();
                    self.emit(&format!("(local.set {temp} {value})"));
                    for target in &a.targets {
                        self.assign(target, &format!("(local.get {temp})"))?;
                    }
                }
            }
            S::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    let value = self.expr(value)?;
                    self.assign(&a.target, &value)?;
                }
                // At module level CPython evaluates the annotation after the assignment (for
                // `__annotations__`); in a function it does not.
                let scope = self.current_scope();
                if self.scopes.scopes[scope].kind == crate::check::scope::ScopeKind::Module {
                    let annotation = self.expr(&a.annotation)?;
                    self.emit(&format!("(drop {annotation})"));
                }
            }
            S::AugAssign(a) => self.aug_assign(a)?,
            S::If(i) => {
                let test = self.condition(&i.test)?;
                let before = self.f().definite.snapshot();
                self.emit(&format!("(if {test} (then"));
                self.stmts(&i.body)?;
                let then_end = self.f().definite.snapshot();
                self.f().definite.restore(before);
                self.emit(") (else");
                self.stmts(&i.orelse)?;
                self.emit("))");
                self.f().definite.meet(&then_end);
            }
            S::While(w) => {
                let (after, exhausted, top) = (
                    self.label("after"),
                    self.label("exhausted"),
                    self.label("top"),
                );
                let before = self.f().definite.snapshot();
                self.emit(&format!("(block {after} (block {exhausted} (loop {top}"));
                self.f().looping += 1;
                // Each test runs on the `while` line, as in CPython's tracebacks (the body left
                // the frame on its last statement's line).
                self.set_line(&*w.test);
                let test = self.condition(&w.test)?;
                self.emit(&format!("(br_if {exhausted} (i32.eqz {test}))"));
                self.loop_body(&w.body, &after, &top)?;
                self.emit(&format!("(br {top})))"));
                self.f().looping -= 1;
                self.f().definite.restore(before.clone());
                self.stmts(&w.orelse)?;
                self.emit(")");
                self.f().definite.restore(before);
            }
            S::For(f) => self.for_loop(f)?,
            S::Break(_) | S::Continue(_) => {
                let is_break = matches!(stmt, S::Break(_));
                let index = self.f().loops.len() - 1;
                self.jump(if is_break {
                    Jump::Break(index)
                } else {
                    Jump::Continue(index)
                });
            }
            S::Pass(_) => {}
            S::Return(r) => {
                let value = match &r.value {
                    Some(v) => self.expr(v)?,
                    None => none(),
                };
                let retval = self.retval();
                self.emit(&format!("(local.set {retval} {value})"));
                self.jump(Jump::Return);
            }
            S::FunctionDef(f) => {
                if !f.decorator_list.is_empty() {
                    return self.unsupported(stmt, "decorators are not supported");
                }
                let scope = self.scopes.scope_of(stmt);
                let name = normalize(f.name.as_str()).into_owned();
                let code = self.make_function(
                    scope,
                    &name,
                    &f.args,
                    f.returns.as_deref(),
                    FunctionBody::Statements(&f.body),
                    Some(scopes::key(stmt)),
                )?;
                self.store_name(&name, &code)?;
            }
            S::Raise(r) => match (&r.exc, &r.cause) {
                (None, _) => {
                    let current = self.f().handlers.last().cloned();
                    match current {
                        // As it is: its traceback stays (`raise e` adds this raise to it).
                        Some(exc) => self.emit(&format!("(call $reraise (local.get {exc}))")),
                        // No handler of this function runs here: one up the call chain may.
                        None => self.emit("(call $reraise_handled)"),
                    }
                }
                (Some(exc), None) => self.raise_stmt(exc)?,
                (Some(exc), Some(cause)) => {
                    let value = self.expr(exc)?;
                    let cause = self.expr(cause)?;
                    let value = self.keep(value, false, &[&cause]);
                    self.emit(&format!("(call $raise_from {value} {cause})"));
                }
            },
            S::Try(t) => self.try_stmt(&t.body, &t.handlers, &t.orelse, &t.finalbody)?,
            S::Assert(a) => {
                let test = self.condition(&a.test)?;
                let t = self.runtime.types["AssertionError"];
                let raise = match &a.msg {
                    Some(msg) => {
                        let msg = self.expr(msg)?;
                        format!(
                            "(call $raise (call $exc_new (i32.const {t}) (call $tuple1 {msg})))"
                        )
                    }
                    None => format!("(call $raise (i64.const {t}))"),
                };
                self.emit(&format!("(if (i32.eqz {test}) (then {raise}))"));
            }
            S::Delete(d) => {
                for target in &d.targets {
                    self.delete(target)?;
                }
            }
            S::Import(i) => {
                for alias in &i.names {
                    // The checker allows only the SDK and json; module names are resolved
                    // statically where they are used, so the binding only marks them bound.
                    let bound = match &alias.asname {
                        Some(a) => normalize(a.as_str()).into_owned(),
                        None => normalize(alias.name.as_str().split('.').next().unwrap_or(""))
                            .into_owned(),
                    };
                    let module = normalize(alias.name.as_str()).into_owned();
                    if module.contains('.') {
                        return self.unsupported(
                            stmt,
                            format!("`import {module}` is not supported; write `from {module} import NAME`"),
                        );
                    }
                    let marker = self.str_value(&format!("<module '{module}'>"));
                    self.store_name(&bound, &marker)?;
                }
            }
            S::ImportFrom(i) => {
                let module = i
                    .module
                    .as_ref()
                    .map(|m| normalize(m.as_str()).into_owned())
                    .unwrap_or_default();
                for alias in &i.names {
                    let member = normalize(alias.name.as_str()).into_owned();
                    let (value, calls) = self.module_member(stmt, &module, &member)?;
                    let bound = alias
                        .asname
                        .as_ref()
                        .map_or(member.clone(), |a| normalize(a.as_str()).into_owned());
                    // A module-level import nothing reads needs no capability: `from baton
                    // import bash, llm` in a plan that never calls `llm` runs without
                    // `--grant llm` (the checker warns about the import, B501).
                    let unread = matches!(
                        self.scopes.resolve(self.current_scope(), &bound),
                        Place::Global(name) if !self.scopes.module_name_is_read(&name)
                    );
                    if unread && !calls.is_empty() {
                        // Nothing reads it, and making its value could take a host call the
                        // module then does not import (`inputs`: mutation-fuzzer finding).
                        continue;
                    }
                    self.host_calls.extend(calls);
                    self.store_name(&bound, &value)?;
                }
            }
            S::Nonlocal(_) | S::Global(_) => {}
            other => {
                return self
                    .unsupported(other, "this statement is not supported by the compiler yet")
            }
        }
        Ok(())
    }

    /// The value of `module.member` for the modules plans may import, and the host calls it
    /// needs once the plan uses it.
    fn module_member(
        &mut self,
        node: &impl Ranged,
        module: &str,
        member: &str,
    ) -> Result<(String, &'static [&'static str])> {
        if let Some(code) = self.library_member(module, member) {
            return Ok((code, &[]));
        }
        let (builtin, calls): (&str, &'static [&'static str]) = match (module, member) {
            ("json", "loads") => ("json_loads", &[]),
            ("json", "dumps") => ("json_dumps", &[]),
            ("json", "JSONDecodeError")
            | (
                "baton",
                "BudgetExceeded" | "LLMError" | "SandboxError" | "BranchError" | "BashResult"
                | "Outcome",
            ) => {
                return Ok((format!("(i64.const {})", self.runtime.types[member]), &[]));
            }
            // Each SDK function is a runtime builtin (runtime/wat/host.wat) over the host call
            // of the same name; `reply` fetches what a call returns.
            ("baton", "bash") => ("baton_bash", &["bash", "reply"]),
            ("baton", "llm") => ("baton_llm", &["llm", "reply"]),
            // A branch is a fresh instance that reports through `result` and fetches its task
            // with `reply` (runtime/wat/branch.wat).
            ("baton", "branch") => ("baton_branch", &["branch", "reply", "result"]),
            ("baton", "parallel") => ("baton_parallel", &["branch", "reply", "result"]),
            ("baton", "log") => ("baton_log", &["log"]),
            ("baton", "inputs") => {
                return Ok(("(call $sdk_inputs)".to_owned(), &["inputs", "reply"]));
            }
            // Any other module's function is the runtime builtin `<module>_<member>`
            // (library.rs): `math.sqrt` is `math_sqrt`.
            _ => {
                let builtin = format!("{}_{member}", module.replace('.', "_"));
                if let Some(address) = self
                    .runtime
                    .types
                    .get(format!("{module}.{member}").as_str())
                {
                    return Ok((format!("(i64.const {address})"), &[]));
                }
                return match self.runtime.builtins.get(builtin.as_str()) {
                    Some(address) => Ok((
                        format!("(i64.const {address})"),
                        baton_runtime::catalog::builtin_host_calls(&builtin),
                    )),
                    None => self.unsupported(
                        node,
                        format!("`{module}.{member}` is not available in this version of Baton"),
                    ),
                };
            }
        };
        match self.runtime.builtins.get(builtin) {
            Some(address) => Ok((format!("(i64.const {address})"), calls)),
            None => self.unsupported(
                node,
                format!("`{module}.{member}` is not available in this version of Baton"),
            ),
        }
    }

    fn loop_body(
        &mut self,
        body: &[ast::Stmt],
        break_label: &str,
        continue_label: &str,
    ) -> Result<()> {
        let finally_depth = self.f().finally.len();
        self.f().loops.push(LoopLabels {
            break_label: break_label.to_owned(),
            continue_label: continue_label.to_owned(),
            finally_depth,
        });
        let result = self.stmts(body);
        self.f().loops.pop();
        result
    }

    fn for_loop(&mut self, f: &ast::StmtFor) -> Result<()> {
        if let Some(args) = self.builtin_range_args(&f.iter) {
            return self.range_loop(f, args);
        }
        let iterable = self.expr(&f.iter)?;
        let before = self.f().definite.snapshot();
        let iterator = self.temp();
        let item = self.item_temp(&f.target);
        let (after, exhausted, top) = (
            self.label("after"),
            self.label("exhausted"),
            self.label("top"),
        );
        self.emit(&format!("(local.set {iterator} (call $iter {iterable}))"));
        self.emit(&format!("(block {after} (block {exhausted} (loop {top}"));
        self.f().looping += 1;
        // Taking the next item is the `for` line's doing (a dict that changed size during the
        // iteration is reported there, as CPython does), not the body's last line's.
        self.set_line(f);
        self.emit(&format!(
            "(local.set {item} (call $next_plan (local.get {iterator})))"
        ));
        self.emit(&format!("(br_if {exhausted} (i64.eqz (local.get {item})))"));
        self.assign(&f.target, &format!("(local.get {item})"))?;
        self.loop_body(&f.body, &after, &top)?;
        self.emit(&format!("(br {top})))"));
        self.f().looping -= 1;
        self.f().definite.restore(before.clone());
        self.stmts(&f.orelse)?;
        self.emit(")");
        self.f().definite.restore(before);
        Ok(())
    }

    /// The local that carries a return value through `finally` blocks.
    fn retval(&mut self) -> String {
        let f = self.f();
        if !f.locals.iter().any(|l| l == "(local $retval i64)") {
            f.locals.push("(local $retval i64)".into());
        }
        "$retval".to_owned()
    }

    /// Emits a jump; inside `try ... finally` blocks it goes to the innermost one's finally body
    /// first (see [`FinallyFrame`]).
    fn jump(&mut self, jump: Jump) {
        let target_depth = match jump {
            Jump::Return => 0,
            Jump::Break(i) | Jump::Continue(i) => self.f().loops[i].finally_depth,
        };
        let through_finally = self.f().finally.len() > target_depth;
        // Leaving handlers: `$handled` goes back to what it was before the outermost one's `try`.
        let finally_depth = self.f().finally.len();
        let left = self.f().handled.iter().position(|scope| {
            if through_finally {
                scope.finally_depth == finally_depth
            } else {
                match jump {
                    Jump::Return => true,
                    Jump::Break(i) | Jump::Continue(i) => scope.loop_depth > i,
                }
            }
        });
        if let Some(first) = left {
            let left = &self.f().handled[first..];
            let code = format!("(global.set $handled (local.get {}))", left[0].save);
            // Every handler the jump leaves unbinds its `as` name, as CPython's do.
            let names: Vec<String> = left.iter().filter_map(|scope| scope.name.clone()).collect();
            self.emit(&code);
            for name in names {
                // The same store succeeded where the handler bound the name.
                let _ = self.store_name(&name, "(i64.const 0)");
            }
        }
        if through_finally {
            let frame = self.f().finally.last_mut().expect("a finally frame");
            let number = match frame.jumps.iter().position(|j| *j == jump) {
                Some(at) => at + 1,
                None => {
                    frame.jumps.push(jump);
                    frame.jumps.len()
                }
            };
            let code = format!(
                "(local.set {} (i32.const {number})) (br {})",
                frame.pending, frame.normal
            );
            self.emit(&code);
            return;
        }
        let code = match jump {
            Jump::Return => format!("{LEAVE_FRAME} (return (local.get $retval))"),
            Jump::Break(i) => format!("(br {})", self.f().loops[i].break_label),
            Jump::Continue(i) => format!("(br {})", self.f().loops[i].continue_label),
        };
        self.emit(&code);
    }

    fn try_stmt(
        &mut self,
        body: &[ast::Stmt],
        handlers: &[ast::ExceptHandler],
        orelse: &[ast::Stmt],
        finalbody: &[ast::Stmt],
    ) -> Result<()> {
        if finalbody.is_empty() {
            return self.try_except(body, handlers, orelse);
        }
        let before = self.f().definite.snapshot();
        let in_flight = self.temp();
        let pending = self.int_temp();
        let handled = self.save_handled();
        let normal = self.label("fin_normal");
        self.emit(&format!("(local.set {pending} (i32.const 0))"));
        let mut parts = vec![body, orelse];
        parts.extend(
            handlers
                .iter()
                .map(|ast::ExceptHandler::ExceptHandler(h)| &h.body[..]),
        );
        let outlined = self.outlines_try_body(&parts, body);
        // Outlined, the body runs under the runtime's `try_table` (`$run_try_body`), which
        // returns the exception; inline, under this function's, which catches it. Either way
        // the exception (the value it carries: `$exc` is the module's only tag, so catching it
        // catches everything) is raised again by `$reraise` after the finally body, as a bare
        // `raise` is, not by `throw_ref`: an `exnref` held in a local is a GC reference that
        // Cranelift tracks in a stack map across every call after it (0.2% of compiling a
        // generated plan).
        let inline = outlined.is_none();
        match &outlined {
            Some(index) => {
                self.emit(&format!(
                    "(block {normal} (br_if {normal} (i64.eqz (local.tee {in_flight} \
                     (call $run_try_body (i32.const {index}) (local.get $d)))))"
                ));
            }
            None => {
                let caught = self.label("fin_exc");
                self.emit(&format!(
                    "(block {normal} (local.set {in_flight} (block {caught} (result i64) \
                     (try_table (catch $exc {caught})"
                ));
            }
        }
        self.f().finally.push(FinallyFrame {
            normal: normal.clone(),
            pending: pending.clone(),
            jumps: Vec::new(),
        });
        // An exception in the body goes through the finally body: only a throw gets there.
        self.f().catch_here.push(None);
        self.f().enclosing_trys += 1;
        let result = match &outlined {
            Some(index) => self.try_body_function(*index, |g| g.try_except(body, handlers, orelse)),
            None => self.try_except(body, handlers, orelse),
        };
        self.f().enclosing_trys -= 1;
        self.f().catch_here.pop();
        let frame = self.f().finally.pop().expect("the frame pushed above");
        result?;
        let body_end = self.f().definite.snapshot();
        if inline {
            self.emit(&format!(") (br {normal})))"));
        }
        // An exception: run the finally body, then re-raise (unless the body itself jumps).
        // Inside it, a bare `raise` re-raises the exception in flight, as CPython's does.
        self.emit(shadow::RESUME);
        self.f().handlers.push(in_flight.clone());
        self.enter_handled(&handled, &in_flight, None);
        // Entered by an exception from anywhere in the body: only what was assigned before.
        self.f().definite.restore(before.clone());
        self.f().catch_here.push(None);
        let result = self.stmts(finalbody);
        self.f().catch_here.pop();
        self.leave_handled();
        self.f().handlers.pop();
        result?;
        self.emit(&format!("(call $reraise (local.get {in_flight})))"));
        // Normal completion or a jump out of the body: run the finally body once, then jump.
        // A jump (break, continue, return) may leave the body early, so the finally body starts
        // from what was assigned before it; after it, what the body's normal end had too.
        self.f().definite.restore(before);
        self.stmts(finalbody)?;
        self.f().definite.join(&body_end);
        for (index, jump) in frame.jumps.iter().enumerate() {
            self.emit(&format!(
                "(if (i32.eq (local.get {pending}) (i32.const {})) (then",
                index + 1
            ));
            self.jump(*jump);
            self.emit("))");
        }
        Ok(())
    }

    fn try_except(
        &mut self,
        body: &[ast::Stmt],
        handlers: &[ast::ExceptHandler],
        orelse: &[ast::Stmt],
    ) -> Result<()> {
        if handlers.is_empty() {
            self.stmts(body)?;
            return self.stmts(orelse);
        }
        let exc = self.temp();
        let handled = self.save_handled();
        let end = self.label("end");
        let before = self.f().definite.snapshot();
        let outlined = self.outlines_try_body(&[body], body);
        self.f().enclosing_trys += 1;
        let result = match &outlined {
            // The runtime's `try_table` runs the body (`$run_try_body`): 0 when it completes,
            // else the exception, which the handlers below test.
            Some(index) => {
                self.emit(&format!(
                    "(block {end} (if (i64.eqz (local.tee {exc} \
                     (call $run_try_body (i32.const {index}) (local.get $d)))) (then"
                ));
                self.try_body_function(*index, |g| g.stmts(body))
            }
            None => {
                let caught = self.label("caught");
                self.emit(&format!("(block {end} (local.set {exc} (block {caught} (result i64) (try_table (catch $exc {caught})"));
                self.f().catch_here.push(Some(caught.clone()));
                let result = self.stmts(body);
                self.f().catch_here.pop();
                result
            }
        };
        self.f().enclosing_trys -= 1;
        result?;
        if outlined.is_none() {
            self.emit(")");
        }
        self.f().catch_here.push(None);
        let result = self.stmts(orelse);
        self.f().catch_here.pop();
        result?;
        self.emit(&format!("(br {end})))"));
        // A handler may be entered from anywhere in the body: only what was assigned before.
        let mut after = self.f().definite.clone();
        self.emit(shadow::RESUME);
        for ast::ExceptHandler::ExceptHandler(handler) in handlers {
            self.f().definite.restore(before.clone());
            self.set_line(handler);
            let matches = match &handler.type_ {
                Some(t) => {
                    let spec = self.expr(t)?;
                    format!("(call $exc_matches (local.get {exc}) {spec})")
                }
                None => "(i32.const 1)".to_owned(),
            };
            self.emit(&format!("(if {matches} (then"));
            let name = handler
                .name
                .as_ref()
                .map(|name| normalize(name.as_str()).into_owned());
            // `except E as e` unbinds `e` however the handler ends: normally, by a jump
            // (`jump`), or by an exception, which this block catches on its way out.
            let unbind = match &name {
                Some(name) if !self.unbinding_unobservable(name, &handler.body) => {
                    self.store_name(name, &format!("(local.get {exc})"))?;
                    let landing = self.label("unbind");
                    self.emit(&format!(
                        "(block {landing} (result i64) (try_table (catch $exc {landing})"
                    ));
                    Some((name.clone(), landing))
                }
                Some(name) => {
                    self.store_name(name, &format!("(local.get {exc})"))?;
                    None
                }
                None => None,
            };
            self.f().handlers.push(exc.clone());
            self.enter_handled(&handled, &exc, name.clone());
            self.f().catch_here.push(None);
            let result = self.stmts(&handler.body);
            self.f().catch_here.pop();
            self.leave_handled();
            self.f().handlers.pop();
            result?;
            match (unbind, &name) {
                (Some((name, _)), _) => {
                    self.emit(")");
                    self.store_name(&name, "(i64.const 0)")?;
                    self.emit(&format!("(br {end}))"));
                    // The exception on its way out (`$reraise`, as after a finally body): in
                    // a rooted temp while the name is unbound.
                    let escaping = self.temp();
                    self.emit(&format!("(local.set {escaping})"));
                    self.store_name(&name, "(i64.const 0)")?;
                    self.emit(&format!("(call $reraise (local.get {escaping}))))"));
                }
                (None, Some(name)) => {
                    self.store_name(name, "(i64.const 0)")?;
                    self.emit(&format!("(br {end})))"));
                }
                (None, None) => self.emit(&format!("(br {end})))")),
            }
            after.meet(&self.f().definite.snapshot());
        }
        // No handler matched: on it goes (as it was, traceback and context).
        self.emit(&format!("(call $reraise (local.get {exc})))"));
        self.f().definite = after;
        Ok(())
    }

    /// The number (`$run_try_body`'s) of a `try` body emitted in a function of its own
    /// ([`Generator::try_body_function`], run in the module's frame), when it is one (for a `try` with a `finally`, the body
    /// with its handlers and `else`, which the `finally` covers); the runtime's `$run_try_body`
    /// calls it under its own `try_table` and returns the exception that left it, if any.
    ///
    /// Inside a `try_table` every call is one that may unwind to the handlers, and Cranelift
    /// makes each such call end a block with an edge to the landing pad: compiling the
    /// differential tester's generated plans (most of them module-level `try` bodies) took a
    /// fifth longer than the same calls outside. Outlined, the body's calls are plain calls;
    /// and since even a `try_table` around one call costs Cranelift a landing pad that unpacks
    /// the exception, and a `throw` of the unmatched one an exception object's allocation, the
    /// one `try_table` is the runtime's, compiled once, and the `throw` a call (`$reraise`):
    /// 5% less compiling for a generated plan of 780 lines, which had 67 such `try_table`s.
    /// Module-level code only, whose names are globals, so the body needs nothing of the
    /// function it is in: code that runs once, and code in a loop when nothing in `parts`
    /// jumps out (`break`, `continue`) and nothing in `body` raises
    /// (inline, a `raise` in a `try` body branches straight to the handlers, `catch_here`;
    /// outlined it would be thrown, which costs more than the rest of raising and catching).
    fn outlines_try_body(&mut self, parts: &[&[ast::Stmt]], body: &[ast::Stmt]) -> Option<u32> {
        let outlines = match self.fns.last() {
            Some(f) if f.module_level => {
                f.looping == 0 || !(parts.iter().any(|p| jumps_out(p)) || raises(body))
            }
            _ => false,
        };
        if !outlines {
            return None;
        }
        let index = self.try_bodies.len() as u32;
        // Named when its function is known (`try_body_function`).
        self.try_bodies.push(String::new());
        Some(index)
    }

    /// Whether unbinding `name` when an `except ... as name` handler (of body `body`) is left by
    /// an exception cannot be seen, so the handler needs no `try_table` around its body to do
    /// it. The name must be a plain local (gone with its frame) or a global of the plan's own
    /// module body (run once: no other run of the handler can come between). Then either
    /// nothing of the same Python function encloses the handler that could catch the
    /// exception or run a `finally` (the exception leaves the function: for the module body,
    /// it ends the run), or nothing reads the name but the handler's own body (no other code
    /// can look). A cell, a function's `global`, or a library's global may be read after the
    /// exception is caught further up, and is unbound as CPython does.
    fn unbinding_unobservable(&self, name: &str, body: &[ast::Stmt]) -> bool {
        let Some(f) = self.fns.last() else {
            return false;
        };
        let scope = self.current_scope();
        let plain = match self.scopes.resolve(scope, name) {
            Place::Local { cell: false, .. } => true,
            Place::Global(_) => f.module_level && self.global_prefix.is_empty(),
            _ => false,
        };
        if !plain {
            return false;
        }
        if f.enclosing_trys == 0 {
            return true;
        }
        match (body.first(), body.last()) {
            (Some(first), Some(last)) => self.scopes.reads_only_within(
                scope,
                name,
                first.range().start().to_u32(),
                last.range().end().to_u32(),
            ),
            _ => false,
        }
    }

    /// A temp holding the runtime's `$handled` as a `try` starts, for its handlers to set back.
    fn save_handled(&mut self) -> String {
        let save = self.temp();
        self.emit(&format!("(local.set {save} (global.get $handled))"));
        save
    }

    /// A handler of the exception in `exc` starts: bare `raise`s in the functions it calls
    /// re-raise that exception.
    fn enter_handled(&mut self, save: &str, exc: &str, name: Option<String>) {
        // `$handle` also records the frame that handles it: a traceback printed as the context
        // or cause of a later exception starts there, as CPython's does.
        self.emit(&format!("(call $handle (local.get {exc}) (local.get $d))"));
        let (finally_depth, loop_depth) = (self.f().finally.len(), self.f().loops.len());
        self.f().handled.push(HandledScope {
            save: save.to_owned(),
            name,
            finally_depth,
            loop_depth,
        });
    }

    /// The handler entered last ends (its code may go on after its last statement).
    fn leave_handled(&mut self) {
        if let Some(scope) = self.f().handled.pop() {
            self.emit(&format!("(global.set $handled (local.get {}))", scope.save));
        }
    }

    /// `raise X`. In a `try` body of this same function it branches straight to the `try`'s
    /// handlers with the prepared exception: a wasm `throw` is caught by the engine walking the
    /// stack (a host call that costs more than the rest of raising and catching together), and
    /// the handlers cannot tell the two entries apart. Elsewhere it throws.
    fn raise_stmt(&mut self, exc: &ast::Expr) -> Result<()> {
        let value = self.expr(exc)?;
        match self.f().catch_here.last().cloned().flatten() {
            Some(caught) => self.emit(&format!("(br {caught} (call $raise_prepare {value}))")),
            None => self.emit(&format!("(call $raise {value})")),
        }
        Ok(())
    }

    fn aug_assign(&mut self, a: &ast::StmtAugAssign) -> Result<()> {
        // The in-place forms mutate lists, dicts and sets; every operator's generic path goes
        // through its `$aug_` wrapper, which runs it with `$aug_op` set so that a TypeError
        // names `+=` as CPython's does (runtime/wat/ops.wat). The small-int fast paths, which
        // cannot fail that way, stay inline.
        let op = match a.op {
            ast::Operator::Add => "$aug_iadd",
            ast::Operator::Mult => "$aug_imul",
            ast::Operator::BitOr => "$aug_ior",
            ast::Operator::BitAnd => "$aug_iand",
            ast::Operator::Sub => "$aug_isub",
            ast::Operator::BitXor => "$aug_ixor",
            ast::Operator::Div => "$aug_truediv",
            ast::Operator::FloorDiv => "$aug_floordiv",
            ast::Operator::Mod => "$aug_mod",
            ast::Operator::Pow => "$aug_pow",
            ast::Operator::LShift => "$aug_lshift",
            ast::Operator::RShift => "$aug_rshift",
            // No type in plans defines `@`: the runtime raises CPython's TypeError.
            ast::Operator::MatMult => "$aug_matmul",
        };
        match &*a.target {
            ast::Expr::Name(name) => {
                let name = normalize(name.id.as_str()).into_owned();
                // `s += value` on a str appends in place (append.rs).
                let in_place = a.op == ast::Operator::Add
                    && append::may_be_str(&a.value)
                    && self.shares_reads(&name);
                let (current, op) = if in_place {
                    (self.load_name_unshared(&name)?, "$str_append_aug")
                } else {
                    (self.load_name(&name)?, op)
                };
                let value = self.expr(&a.value)?;
                let current = self.keep(current, false, &[&value]);
                let known = fast::small_literal(&a.value);
                let result = self.binary_op(&a.op, current, value, known, op);
                self.store_name(&name, &result)
            }
            ast::Expr::Subscript(s) => {
                let (object, key) = (self.temp(), self.temp());
                let object_code = self.expr(&s.value)?;
                let key_code = self.expr(&s.slice)?;
                self.emit(&format!(
                    "(local.set {object} {object_code}) (local.set {key} {key_code})"
                ));
                let value = self.expr(&a.value)?;
                let known = fast::small_literal(&a.value);
                let current = format!("(call $getitem (local.get {object}) (local.get {key}))");
                let result = self.binary_op(&a.op, current, value, known, op);
                self.emit(&format!(
                    "(call $setitem (local.get {object}) (local.get {key}) {result})"
                ));
                Ok(())
            }
            other => self.unsupported(
                other,
                "augmented assignment to an attribute is not supported",
            ),
        }
    }

    /// `name = name + value` on a variable appended to in place (append.rs): the name and the
    /// value.
    fn in_place_concat<'s>(&self, stmt: &'s ast::Stmt) -> Option<(String, &'s ast::Expr)> {
        let (name, false) = append::append_statement(stmt)? else {
            return None;
        };
        if !self.shares_reads(&name) {
            return None;
        }
        let ast::Stmt::Assign(a) = stmt else {
            return None;
        };
        let ast::Expr::BinOp(b) = &*a.value else {
            return None;
        };
        Some((name, &*b.right))
    }

    /// Stores `value` (WAT producing an i64) into an assignment target.
    fn assign(&mut self, target: &ast::Expr, value: &str) -> Result<()> {
        use ast::Expr as E;
        match target {
            E::Name(name) => self.store_name(&normalize(name.id.as_str()), value),
            E::Subscript(s) => {
                // The value first, then the object and the key, as CPython evaluates them:
                // the value waits in a temp while they run, rooted only if one may collect,
                // and the object on the operand stack while the key runs.
                let object = self.expr(&s.value)?;
                let key = self.expr(&s.slice)?;
                let v = self.scratch(&[&object, &key]);
                let object = self.keep(object, false, &[&key]);
                self.emit(&format!("(local.set {v} {value})"));
                self.emit(&format!("(call $setitem {object} {key} (local.get {v}))"));
                Ok(())
            }
            E::Tuple(ast::ExprTuple { elts, .. }) | E::List(ast::ExprList { elts, .. }) => {
                // The items object holds the values not yet assigned: a root while an
                // assignment may collect (a subscript's, a cell's, a nested unpacking's), not
                // while each is a plain store.
                let plain = elts.iter().all(|element| match element {
                    E::Starred(s) => self.is_plain_variable(&s.value),
                    other => self.is_plain_variable(other),
                });
                let items = if plain {
                    self.transient_address()
                } else {
                    self.temp_i32()
                };
                let star = elts.iter().position(|e| matches!(e, E::Starred(_)));
                match star {
                    None => self.emit(&format!("(local.set {items} (call $unpack {value} (i32.const {})))", elts.len())),
                    Some(at) => self.emit(&format!(
                        "(local.set {items} (call $unpack_star {value} (i32.const {at}) (i32.const {})))",
                        elts.len() - at - 1
                    )),
                }
                for (i, element) in elts.iter().enumerate() {
                    let element = match element {
                        E::Starred(s) => &*s.value,
                        other => other,
                    };
                    self.assign(element, &format!("(i64.load offset={} (local.get {items}))", 8 * i))?;
                }
                Ok(())
            }
            E::Attribute(_) => self.unsupported(target, "assigning to attributes is not supported: plans have no objects with attributes; use a dict"),
            other => self.unsupported(other, "unsupported assignment target"),
        }
    }

    fn delete(&mut self, target: &ast::Expr) -> Result<()> {
        match target {
            ast::Expr::Name(name) => {
                let name = normalize(name.id.as_str()).into_owned();
                // Deleting an unbound name is a NameError: load it first to check. A module
                // global named like a builtin reads as the builtin while unbound, but deleting
                // it then is a NameError all the same (`del sorted`).
                if let Place::Global(global) = self.scopes.resolve(self.current_scope(), &name) {
                    let name_str = self.str_const(&name);
                    let index = self.global_index(&global);
                    let global = self.global_get(index);
                    self.emit(&format!(
                        "(if (i64.eqz {global}) (then (call $raise_name_error (i32.const {name_str}))))"
                    ));
                } else {
                    let current = self.load_name(&name)?;
                    self.emit(&format!("(drop {current})"));
                }
                self.store_name(&name, "(i64.const 0)")
            }
            ast::Expr::Subscript(s) => {
                let object = self.expr(&s.value)?;
                let key = self.expr(&s.slice)?;
                let object = self.keep(object, false, &[&key]);
                self.emit(&format!("(call $delitem {object} {key})"));
                Ok(())
            }
            ast::Expr::Tuple(t) => t.elts.iter().try_for_each(|e| self.delete(e)),
            ast::Expr::List(l) => l.elts.iter().try_for_each(|e| self.delete(e)),
            other => self.unsupported(other, "unsupported `del` target"),
        }
    }

    /// Whether the module global `name` is bound on every path here and never unbound.
    fn global_is_bound(&mut self, name: &str) -> bool {
        !self.module_unbinds.contains(name) && self.f().definite.is_global_bound(name)
    }

    /// Whether `target` is a name stored as a plain wasm local or a module global (not a
    /// closure cell): storing into it evaluates nothing but the value.
    fn is_plain_variable(&self, target: &ast::Expr) -> bool {
        let ast::Expr::Name(name) = target else {
            return false;
        };
        let place = self
            .scopes
            .resolve(self.current_scope(), &normalize(name.id.as_str()));
        matches!(place, Place::Local { cell: false, .. } | Place::Global(_))
    }

    fn store_name(&mut self, name: &str, value: &str) -> Result<()> {
        let scope = self.current_scope();
        let code = match self.scopes.resolve(scope, name) {
            Place::Local {
                owner,
                name,
                cell: false,
            } => {
                let local = self.var_local(owner, &name, false);
                if owner == scope {
                    self.f().definite.assign(owner, &name);
                }
                format!("(local.set {local} {value})")
            }
            place @ (Place::Local { cell: true, .. } | Place::Free { .. }) => {
                let cell = self.cell_of(&place).expect("cell or closure variable");
                format!("(call $cell_set {cell} {value})")
            }
            Place::Global(name) => {
                self.f().definite.assign_global(&name);
                let index = self.global_index(&name);
                self.global_set(index, value)
            }
            Place::Builtin(name) => {
                unreachable!("`{name}` is assigned, so it is bound in some scope")
            }
        };
        self.emit(&code);
        Ok(())
    }

    /// WAT leaving the cell that holds a captured variable: a cell local of the current
    /// function, or a slot of its closure tuple. `None` for places that are not cells.
    fn cell_of(&mut self, place: &Place) -> Option<String> {
        match place {
            Place::Local {
                owner,
                name,
                cell: true,
            } => {
                let local = self.var_local(*owner, name, true);
                Some(format!("(local.get {local})"))
            }
            Place::Free { index } => Some(format!(
                "(i64.load offset={} (local.get $cells))",
                8 + 8 * index
            )),
            _ => None,
        }
    }

    /// WAT reading a variable. A variable the module appends to in place (append.rs) is read
    /// through `$str_share`, except by the append itself ([`Generator::load_name_unshared`]).
    fn load_name(&mut self, name: &str) -> Result<String> {
        let code = self.load_name_unshared(name)?;
        Ok(if self.shares_reads(name) {
            format!("(call $str_share {code})")
        } else {
            code
        })
    }

    /// Whether `name`, here, is a variable appended to in place: a plain local or a module
    /// global (a cell's appends and reads go through the cell).
    fn shares_reads(&self, name: &str) -> bool {
        self.appends.contains(name)
            && matches!(
                self.scopes.resolve(self.current_scope(), name),
                Place::Local { cell: false, .. } | Place::Global(_)
            )
    }

    fn load_name_unshared(&mut self, name: &str) -> Result<String> {
        let scope = self.current_scope();
        let name_str = self.str_const(name);
        Ok(match self.scopes.resolve(scope, name) {
            Place::Local {
                owner,
                name,
                cell: false,
            } => {
                let local = self.var_local(owner, &name, false);
                if owner == scope && self.f().definite.is_assigned(owner, &name) {
                    return Ok(format!("(local.get {local})"));
                }
                // Inline: a call per variable read costs more than the test. The test is an
                // `if` without a result followed by the read: wasmtime's translation keeps a map
                // over the function's blocks for every block result, so results cost memory
                // that grows with the square of the function's size.
                // Read from a comprehension (inlined in the function that owns the variable),
                // it is a free variable of the comprehension's own scope in CPython: NameError.
                let raise = if owner == scope {
                    "$raise_unbound_local"
                } else {
                    "$raise_free_variable"
                };
                format!("(if (i64.eqz (local.get {local})) (then (call {raise} (i32.const {name_str})) (unreachable))) (local.get {local})")
            }
            place @ (Place::Local { cell: true, .. } | Place::Free { .. }) => {
                let cell = self.cell_of(&place).expect("cell or closure variable");
                // Unbound, a cell read by the function that owns it is that function's local
                // (UnboundLocalError, as CPython); read by a closure or a comprehension, a
                // free variable (NameError).
                let read = match place {
                    Place::Local { owner, .. } if owner == scope => "$cell_get_local",
                    _ => "$cell_get",
                };
                format!("(call {read} {cell} (i32.const {name_str}))")
            }
            Place::Global(name) => {
                let index = self.global_index(&name);
                if self.global_is_bound(&name) {
                    return Ok(self.global_get(index));
                }
                // A module global named like a builtin (a later `def max`, an `if False: sum = 0`)
                // is the builtin until it is bound, as in CPython, where a name missing from
                // the module's globals is looked up in the builtins. Only Python's builtins:
                // the runtime's own types (`cell`, `function`, `NoneType`, re's `error`) are no
                // names, so such a global read before it is bound is a NameError. `select`: no
                // block result.
                let builtin = if crate::policy::is_python_builtin(name.as_str()) {
                    self.runtime
                        .types
                        .get(name.as_str())
                        .or_else(|| self.runtime.builtins.get(name.as_str()))
                        .copied()
                } else {
                    None
                };
                if let Some(address) = builtin {
                    if name == "print" {
                        self.host_calls.insert("print");
                    }
                    let global = self.global_get(index);
                    return Ok(format!(
                        "(select (i64.const {address}) {global} (i64.eqz {global}))"
                    ));
                }
                let global = self.global_get(index);
                if self.runs_once() {
                    // Tested by a runtime call: one read and a call where the test inline is two
                    // reads and a branch for Cranelift to compile, which code that runs once
                    // does not repay (~80 such reads in a generated plan of 800 lines).
                    return Ok(format!(
                        "(call $check_global {global} (i32.const {name_str}))"
                    ));
                }
                // As for locals above: no block result.
                format!("(if (i64.eqz {global}) (then (call $raise_name_error (i32.const {name_str})) (unreachable))) {global}")
            }
            Place::Builtin(name) => {
                if name == "print" {
                    self.host_calls.insert("print");
                }
                // Types first: `int` is the type object (callable through its constructor), so
                // `isinstance(x, int)` works.
                if let Some(address) = self.runtime.types.get(name.as_str()) {
                    format!("(i64.const {address})")
                } else if let Some(address) = self.runtime.builtins.get(name.as_str()) {
                    format!("(i64.const {address})")
                } else {
                    format!("(call $raise_name_error (i32.const {name_str})) (i64.const 0)")
                }
            }
        })
    }

    // ----- expressions -----------------------------------------------------------------------

    /// WAT leaving an i32 truth value, without boxing comparisons into bool objects.
    fn condition(&mut self, expr: &ast::Expr) -> Result<String> {
        match expr {
            ast::Expr::Compare(c) if c.ops.len() == 1 => {
                let left = self.expr(&c.left)?;
                let right = self.expr(&c.comparators[0])?;
                let left = self.keep(left, false, &[&right]);
                let known = fast::small_literal(&c.comparators[0]).is_some();
                Ok(self.compare_op(&c.ops[0], &left, &right, known))
            }
            ast::Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::Not) => {
                let inner = self.condition(&u.operand)?;
                Ok(format!("(i32.eqz {inner})"))
            }
            other => {
                let value = self.expr(other)?;
                Ok(format!("(call $truthy {value})"))
            }
        }
    }

    fn exprs_to_tuple(&mut self, items: &[ast::Expr]) -> Result<String> {
        if items.iter().any(|e| matches!(e, ast::Expr::Starred(_))) {
            let list = self.build_list(items)?;
            return Ok(format!("(i32.wrap_i64 (call $tuple_from {list}))"));
        }
        if items.is_empty() {
            return Ok(format!("(i32.const {})", self.runtime.empty_tuple));
        }
        let mut values = Vec::new();
        for item in items {
            values.push(self.expr(item)?);
        }
        // Evaluate items left to right into temporaries first: an item may itself allocate.
        // Each is held until the tuple is filled: across the items after it and `$tuple_new`.
        // The tuple itself is the caller's to root (`Generator::keep`), like any operand: a
        // builtin's argument tuple, passed on at once, needs no slot.
        let temps = self.held_temps(&values, TUPLE_NEW);
        if let Some(make) = tuple_of_n(items.len()) {
            // The items as the operands of one call, in order; an item held across a later
            // one that may collect goes through its (shadowed) temp.
            let mut code = format!("(call {make}");
            for (temp, value) in temps.iter().zip(&values) {
                if temp[1..].starts_with(shadow::UNROOTED_PREFIX) {
                    let _ = write!(code, " {value}");
                } else {
                    let _ = write!(code, " (local.tee {temp} {value})");
                }
            }
            code.push(')');
            return Ok(code);
        }
        // Nothing collects between `$tuple_new` and the last item's store.
        let tuple = self.transient_address();
        let mut code = String::from("(block (result i32)");
        for (temp, value) in temps.iter().zip(&values) {
            let _ = write!(code, "(local.set {temp} {value})");
        }
        let _ = write!(
            code,
            "(local.set {tuple} (call $tuple_new (i32.const {})))",
            items.len()
        );
        for (i, temp) in temps.iter().enumerate() {
            let _ = write!(
                code,
                "(i64.store offset={} (local.get {tuple}) (local.get {temp}))",
                8 + 8 * i
            );
        }
        let _ = write!(code, "(local.get {tuple}))");
        Ok(code)
    }

    /// A list or tuple display's items (some `*starred`) in a new list.
    fn build_list(&mut self, items: &[ast::Expr]) -> Result<String> {
        if items.is_empty() {
            // `[]`: nothing is held while it is made.
            return Ok("(call $list_new (i32.const 0))".to_owned());
        }
        if (1..=4).contains(&items.len())
            && !items.iter().any(|e| matches!(e, ast::Expr::Starred(_)))
        {
            let operands = self.held_operands(items)?;
            return Ok(format!("(call $list_of{}{operands})", items.len()));
        }
        let (code, list) = self.list_of(items, |list, value| {
            format!("(call $display_star (local.get {list}) {value})")
        })?;
        Ok(format!("(block (result i64) {code} (local.get {list}))"))
    }

    /// Code that appends `items` to a new list, and the list's local. `star(list, value)` is
    /// the call that unpacks a `*starred` item's value into it (displays and calls word its
    /// errors differently).
    fn list_of(
        &mut self,
        items: &[ast::Expr],
        star: impl Fn(&str, &str) -> String,
    ) -> Result<(String, String)> {
        let list = self.temp();
        let mut code = format!(
            "(local.set {list} (call $list_new (i32.const {})))",
            items.len()
        );
        for item in items {
            match item {
                ast::Expr::Starred(s) => {
                    let value = self.expr(&s.value)?;
                    code.push_str(&star(&list, &value));
                }
                other => {
                    let value = self.expr(other)?;
                    let _ = write!(code, "(call $list_append (local.get {list}) {value})");
                }
            }
        }
        Ok((code, list))
    }

    fn expr(&mut self, expr: &ast::Expr) -> Result<String> {
        use ast::Expr as E;
        Ok(match expr {
            E::Constant(c) => self.constant(expr, &c.value)?,
            E::Name(n) => self.load_name(&normalize(n.id.as_str()))?,
            E::BinOp(b) => {
                let left = self.expr(&b.left)?;
                let right = self.expr(&b.right)?;
                let left = self.keep(left, false, &[&right]);
                let known = fast::small_literal(&b.right);
                self.binary_op(&b.op, left, right, known, binary_function(&b.op))
            }
            E::UnaryOp(u) => {
                // `-1`, `-2.5`: a negative literal is a constant, not a call of `$neg`.
                if let (ast::UnaryOp::USub, Some(value)) = (u.op, fast::negated_literal(&u.operand))
                {
                    return self.constant(expr, &value);
                }
                let operand = self.expr(&u.operand)?;
                match u.op {
                    ast::UnaryOp::Not => format!("(call $bool (i32.eqz (call $truthy {operand})))"),
                    ast::UnaryOp::USub => format!("(call $neg {operand})"),
                    ast::UnaryOp::UAdd => format!("(call $pos {operand})"),
                    ast::UnaryOp::Invert => format!("(call $invert {operand})"),
                }
            }
            E::BoolOp(b) => {
                // `a and b` is a if a is falsy, else b; `a or b` the other way round. The temp
                // is read only right after `$truthy`, so it needs a root only if that may
                // collect.
                let temp = self.scratch(&["(call $truthy (i64.const 0))"]);
                let mut code = self.expr(&b.values[b.values.len() - 1])?;
                for value in b.values[..b.values.len() - 1].iter().rev() {
                    let first = self.expr(value)?;
                    let test = format!("(call $truthy (local.tee {temp} {first}))");
                    code = match b.op {
                        ast::BoolOp::And => format!(
                            "(if (result i64) {test} (then {code}) (else (local.get {temp})))"
                        ),
                        ast::BoolOp::Or => format!(
                            "(if (result i64) {test} (then (local.get {temp})) (else {code}))"
                        ),
                    };
                }
                code
            }
            E::Compare(c) => self.comparison(c)?,
            E::IfExp(i) => {
                let test = self.condition(&i.test)?;
                let body = self.expr(&i.body)?;
                let orelse = self.expr(&i.orelse)?;
                format!("(if (result i64) {test} (then {body}) (else {orelse}))")
            }
            E::Call(c) => self.call(c)?,
            E::Attribute(a) => {
                if let Some(member) = self.module_attribute(a)? {
                    member
                } else {
                    let object = self.expr(&a.value)?;
                    let name = self.str_value(&normalize(a.attr.as_str()));
                    format!("(call $getattr {object} {name})")
                }
            }
            E::Subscript(s) => {
                if let Some(code) = self.split_item(s)? {
                    return Ok(code);
                }
                let object = self.expr(&s.value)?;
                let key = self.expr(&s.slice)?;
                let object = self.keep(object, false, &[&key]);
                // A str literal key (`record["name"]`): a dict's item straight from the key's hash.
                let getter = match s.slice.as_ref() {
                    E::Constant(ast::ExprConstant {
                        value: ast::Constant::Str(_),
                        ..
                    }) => "$fast_getitem_str",
                    _ => "$getitem",
                };
                format!("(call {getter} {object} {key})")
            }
            E::Slice(s) => {
                let mut part = |p: &Option<Box<ast::Expr>>| -> Result<String> {
                    match p {
                        Some(e) => self.expr(e),
                        None => Ok(none()),
                    }
                };
                let (lower, upper, step) = (part(&s.lower)?, part(&s.upper)?, part(&s.step)?);
                let lower = self.keep(lower, false, &[&upper, &step]);
                let upper = self.keep(upper, false, &[&step]);
                format!("(call $slice_new {lower} {upper} {step})")
            }
            E::List(l) => self.build_list(&l.elts)?,
            E::Tuple(t) => match self.constant_tuple(&t.elts) {
                Some(address) => format!("(i64.const {address})"),
                None => {
                    let tuple = self.exprs_to_tuple(&t.elts)?;
                    format!("(i64.extend_i32_u {tuple})")
                }
            },
            E::Set(s) => {
                let set = self.temp();
                let mut code = format!("(block (result i64) (local.set {set} (call $set_new))");
                for item in &s.elts {
                    match item {
                        E::Starred(st) => {
                            let value = self.expr(&st.value)?;
                            let update = self.str_value("update");
                            let _ = write!(code, "(drop (call $call_method (local.get {set}) {update} (i32.wrap_i64 (call $tuple1 {value})) (i32.const 0)))");
                        }
                        other => {
                            let value = self.expr(other)?;
                            let _ = write!(code, "(call $set_add (local.get {set}) {value})");
                        }
                    }
                }
                let _ = write!(code, "(local.get {set}))");
                code
            }
            E::Dict(d) if (1..=2).contains(&d.keys.len()) && d.keys.iter().all(Option::is_some) => {
                let pairs = d.keys.iter().flatten().zip(&d.values);
                let operands = self.held_operands(pairs.flat_map(|(k, v)| [k, v]))?;
                format!("(call $dict_of{}{operands})", d.keys.len())
            }
            // `{}`: nothing is held while it is made.
            E::Dict(d) if d.keys.is_empty() => "(call $dict_new)".to_owned(),
            E::Dict(d) => {
                let dict = self.temp();
                let mut code = format!("(block (result i64) (local.set {dict} (call $dict_new))");
                for (key, value) in d.keys.iter().zip(&d.values) {
                    let value_code = self.expr(value)?;
                    match key {
                        Some(key) => {
                            let key = self.expr(key)?;
                            let key = self.keep(key, false, &[&value_code]);
                            let _ = write!(
                                code,
                                "(call $dict_set (local.get {dict}) {key} {value_code})"
                            );
                        }
                        None => {
                            let _ = write!(
                                code,
                                "(call $dict_display_unpack (local.get {dict}) {value_code})"
                            );
                        }
                    }
                }
                let _ = write!(code, "(local.get {dict}))");
                code
            }
            E::ListComp(c) => self.comprehension(expr, &c.generators, Collect::List(&c.elt))?,
            E::GeneratorExp(c) if lazy_genexp(c) => self.lazy_genexp(expr, c)?,
            E::GeneratorExp(c) => self.comprehension(expr, &c.generators, Collect::List(&c.elt))?,
            E::SetComp(c) => self.comprehension(expr, &c.generators, Collect::Set(&c.elt))?,
            E::DictComp(c) => {
                self.comprehension(expr, &c.generators, Collect::Dict(&c.key, &c.value))?
            }
            E::Lambda(l) => {
                let scope = self.scopes.scope_of(expr);
                self.make_function(
                    scope,
                    "<lambda>",
                    &l.args,
                    None,
                    FunctionBody::Expression(&l.body),
                    None,
                )?
            }
            E::NamedExpr(n) => {
                let value = self.expr(&n.value)?;
                let temp = self.temp();
                // The expression may be evaluated conditionally: its target is not counted.
                let before = self.f().definite.snapshot();
                let store =
                    self.capture(|g| g.assign(&n.target, &format!("(local.get {temp})")))?;
                self.f().definite.restore(before);
                format!(
                    "(block (result i64) (local.set {temp} {value}) {store} (local.get {temp}))"
                )
            }
            E::JoinedStr(j) => {
                let raw = self.literal_is_raw(j.range.start().to_usize());
                let outer = std::mem::replace(&mut self.fstring_raw, raw);
                let code = self.fstring(&j.values);
                self.fstring_raw = outer;
                code?
            }
            E::FormattedValue(f) => self
                .fstring(std::slice::from_ref(expr))
                .or_else(|_| self.unsupported(f, "unsupported f-string"))?,
            E::Starred(s) => {
                return self.unsupported(s, "a starred expression cannot be used here")
            }
            other => {
                return self.unsupported(
                    other,
                    "this expression is not supported by the compiler yet",
                )
            }
        })
    }

    /// A tuple display of constants (`(-1, 0, 1)`, `("a", 2.5)`, nested ones too) as one static
    /// object, shared by equal displays: CPython folds them into one constant, so they are the
    /// same object (`(3,) is (3,)`), and a loop over one allocates nothing.
    fn constant_tuple(&mut self, items: &[ast::Expr]) -> Option<u32> {
        let words = items
            .iter()
            .map(|item| self.constant_word(item))
            .collect::<Option<Vec<i64>>>()?;
        Some(self.statics.constant_tuple(&words))
    }

    /// The value of a constant expression as a static word: None, a bool, a small int (negated
    /// too), a float, a str, or a constant tuple. `None` for anything else.
    fn constant_word(&mut self, item: &ast::Expr) -> Option<i64> {
        use ast::Expr as E;
        let literal = match item {
            E::UnaryOp(u) if u.op == ast::UnaryOp::USub => fast::negated_literal(&u.operand)?,
            E::Constant(c) => c.value.clone(),
            E::Tuple(t) => return self.constant_tuple(&t.elts).map(i64::from),
            _ => return None,
        };
        Some(match literal {
            Constant::None => i64::from(layout::NONE),
            Constant::Bool(true) => i64::from(layout::TRUE),
            Constant::Bool(false) => i64::from(layout::FALSE),
            Constant::Str(s) => i64::from(self.str_literal(item, &s)),
            Constant::Int(big) => layout::small_int(i64::try_from(&big).ok()?)?,
            Constant::Float(f) => i64::from(self.statics.float(f)),
            _ => return None,
        })
    }

    fn constant(&mut self, node: &ast::Expr, value: &Constant) -> Result<String> {
        Ok(match value {
            Constant::None => none(),
            Constant::Ellipsis => "(call $ellipsis)".to_string(),
            Constant::Bool(true) => format!("(i64.const {})", layout::TRUE),
            Constant::Bool(false) => format!("(i64.const {})", layout::FALSE),
            Constant::Str(s) => format!("(i64.const {})", self.str_literal(node, s)),
            Constant::Int(big) => {
                let Ok(n) = i64::try_from(big) else {
                    return self.unsupported(
                        node,
                        "integer literal outside the signed 64-bit range (Baton's ints are 64-bit)",
                    );
                };
                match layout::small_int(n) {
                    Some(tagged) => format!("(i64.const {tagged})"),
                    None => format!("(i64.const {})", self.statics.boxed_int(n)),
                }
            }
            Constant::Float(f) => format!("(i64.const {})", self.statics.float(*f)),
            _ => return self.unsupported(node, "unsupported literal"),
        })
    }

    fn comparison(&mut self, c: &ast::ExprCompare) -> Result<String> {
        let left = self.expr(&c.left)?;
        if c.ops.len() == 1 {
            let right = self.expr(&c.comparators[0])?;
            let left = self.keep(left, false, &[&right]);
            let known = fast::small_literal(&c.comparators[0]).is_some();
            let test = self.compare_op(&c.ops[0], &left, &right, known);
            return Ok(format!("(call $bool {test})"));
        }
        // A chain evaluates each middle operand once and stops at the first false link.
        let result = self.temp();
        let mut previous = self.temp();
        let done = self.label("chain");
        let mut code = format!(
            "(block {done} (local.set {result} (i64.const {})) (local.set {previous} {left})",
            layout::FALSE
        );
        for (i, (op, comparator)) in c.ops.iter().zip(&c.comparators).enumerate() {
            let next = self.temp();
            let value = self.expr(comparator)?;
            let known = fast::small_literal(comparator).is_some();
            let test = self.compare_op(
                op,
                &format!("(local.get {previous})"),
                &format!("(local.get {next})"),
                known,
            );
            let _ = write!(code, "(local.set {next} {value})");
            if i + 1 == c.ops.len() {
                let _ = write!(code, "(local.set {result} (call $bool {test}))");
            } else {
                let _ = write!(code, "(br_if {done} (i32.eqz {test}))");
            }
            previous = next;
        }
        let _ = write!(code, ") (local.get {result})");
        Ok(format!("(block (result i64) {code})"))
    }

    /// `json.dumps` and the like, when the base is a module bound by `import`.
    fn module_attribute(&mut self, a: &ast::ExprAttribute) -> Result<Option<String>> {
        let ast::Expr::Name(base) = &*a.value else {
            return Ok(None);
        };
        let base_name = normalize(base.id.as_str()).into_owned();
        let scope = self.current_scope();
        let (Place::Global(_) | Place::Local { .. }) = self.scopes.resolve(scope, &base_name)
        else {
            return Ok(None);
        };
        let module = match self.module_binding(&base_name) {
            Some(module) => module,
            None => return Ok(None),
        };
        let member = normalize(a.attr.as_str()).into_owned();
        let (code, calls) = self.module_member(a, &module, &member)?;
        self.host_calls.extend(calls);
        // The module's name must be bound by then, as in CPython: `json.loads(...)` before
        // `import json` has run is a NameError (the import binds a marker). Where it is bound
        // on every path here, there is nothing to test.
        if self.bound_here(&base_name) {
            return Ok(Some(code));
        }
        let bound = self.load_name_unshared(&base_name)?;
        Ok(Some(format!("(block (result i64) (drop {bound}) {code})")))
    }

    /// Whether `name` is bound on every path to the code being emitted, so that reading it
    /// cannot raise: a module global ([`Generator::global_is_bound`]) or a plain local of this
    /// function (as [`Generator::load_name_unshared`] decides).
    fn bound_here(&mut self, name: &str) -> bool {
        let scope = self.current_scope();
        match self.scopes.resolve(scope, name) {
            Place::Local {
                owner,
                name,
                cell: false,
            } => owner == scope && self.f().definite.is_assigned(owner, &name),
            Place::Global(name) => self.global_is_bound(&name),
            _ => false,
        }
    }

    /// Whether the string literal starting at byte `start` of the file has an `r` prefix.
    fn literal_is_raw(&self, start: usize) -> bool {
        crate::escapes::literal_is_raw(self.file.text(), start)
    }

    /// The module a name is bound to by an `import` in the file being emitted.
    fn module_binding(&self, name: &str) -> Option<String> {
        // The checker guarantees module names are not rebound when they are used as modules.
        self.module_aliases.get(name).cloned()
    }

    fn call(&mut self, c: &ast::ExprCall) -> Result<String> {
        if let Some(code) = self.direct_call(c)? {
            return Ok(code);
        }
        // Method calls skip the bound-method object.
        if let ast::Expr::Attribute(a) = &*c.func {
            if self.module_attribute(a)?.is_none() {
                if let Some(code) = self.fast_method(a, c)? {
                    return Ok(code);
                }
                let object = self.expr(&a.value)?;
                let receiver = self.temp();
                let name = self.str_value(&normalize(a.attr.as_str()));
                let (object, rooted) = self.method_looked_up(c, &receiver, object, &name, None);
                // `callee` names the receiver through its temp, which only the errors of a `*`
                // or `**` argument read; with one, the arguments are not all literals, and the
                // receiver is in the temp.
                let callee = (format!("(local.get {receiver})"), name.clone());
                if let Some(code) =
                    self.star_before_keywords(c, &object, "$call_method", &callee, &name)?
                {
                    return Ok(code);
                }
                if c.keywords.is_empty() {
                    if let Some((n, operands)) = self.argument_operands(&c.args, 2)? {
                        let object = self.kept_unless(rooted, object, &[&operands]);
                        return Ok(format!("(call $call_method{n} {object} {name}{operands})"));
                    }
                }
                let args = self.call_args(&c.args, &callee)?;
                let kwargs = self.call_kwargs(&c.keywords, &callee)?;
                let object = self.kept_unless(rooted, object, &[&args, &kwargs]);
                let args = self.keep(args, true, &[&kwargs]);
                return Ok(format!(
                    "(call $call_method {object} {name} {args} {kwargs})"
                ));
            }
        }
        let function = self.expr(&c.func)?;
        let temp = self.temp();
        let callee = (format!("(local.get {temp})"), "(i64.const 0)".to_owned());
        let function_set = format!("(local.tee {temp} {function})");
        if let Some(code) =
            self.star_before_keywords(c, &function_set, "$call_plan", &callee, "")?
        {
            return Ok(code);
        }
        if c.keywords.is_empty() {
            if let Some((n, operands)) = self.argument_operands(&c.args, 3)? {
                // No `*` among the arguments, so nothing reads `callee`: the function needs a
                // root only across arguments that may collect.
                let function = self.keep(function, false, &[&operands]);
                return Ok(format!("(call $call_plan{n} {function}{operands})"));
            }
        }
        let args = self.call_args(&c.args, &callee)?;
        let kwargs = self.call_kwargs(&c.keywords, &callee)?;
        // Only a `*` or `**` argument's error reads `callee` (the temp); without one, the
        // function needs a root only across arguments that may collect.
        let unpacks = c.args.iter().any(|a| matches!(a, ast::Expr::Starred(_)))
            || c.keywords.iter().any(|k| k.arg.is_none());
        let function = if unpacks {
            format!("(local.tee {temp} {function})")
        } else {
            self.keep(function, false, &[&args, &kwargs])
        };
        let args = self.keep(args, true, &[&kwargs]);
        Ok(format!("(call $call_plan {function} {args} {kwargs})"))
    }

    /// A call's positional arguments (one to `most`, none starred) as the operands of a
    /// runtime function that takes them one by one and makes their tuple itself (`$call_plan1`
    /// .. `$call_plan3`, `$call_method1`, `$call_method2`, runtime/wat/call.wat): their count,
    /// and the operands, each evaluated in order and held across the ones after it. `None` for
    /// any other arguments.
    fn argument_operands(
        &mut self,
        args: &[ast::Expr],
        most: usize,
    ) -> Result<Option<(usize, String)>> {
        if args.is_empty()
            || args.len() > most
            || args.iter().any(|a| matches!(a, ast::Expr::Starred(_)))
        {
            return Ok(None);
        }
        Ok(Some((args.len(), self.held_operands(args)?)))
    }

    /// `items` as the operands of a runtime function that takes them one by one and puts them
    /// in a new object before anything may collect (`$call_plan1`, `$list_of2`, ...): each
    /// evaluated in order and held across the ones after it.
    fn held_operands<'e>(
        &mut self,
        items: impl IntoIterator<Item = &'e ast::Expr>,
    ) -> Result<String> {
        let values = items
            .into_iter()
            .map(|item| self.expr(item))
            .collect::<Result<Vec<_>>>()?;
        Ok(self.held_code_operands(&values))
    }

    /// [`Generator::held_operands`] of values already emitted, in order.
    fn held_code_operands(&mut self, values: &[String]) -> String {
        let temps = self.held_temps(values, TUPLE_NEW);
        let mut operands = String::new();
        for (temp, value) in temps.iter().zip(values) {
            if temp[1..].starts_with(shadow::UNROOTED_PREFIX) {
                let _ = write!(operands, " {value}");
            } else {
                let _ = write!(operands, " (local.tee {temp} {value})");
            }
        }
        operands
    }

    /// `f(*xs, k=v)`: one unpacked positional argument and keywords. CPython evaluates `xs`, then
    /// the keywords, and makes the tuple of `xs`'s items only at the call, so a keyword argument
    /// that changes `xs` (or raises) comes first. `callee_code` evaluates the callee into
    /// `callee.0`'s local; `call` is `$call_method` (with `name` between callee and arguments)
    /// or `$call_plan`. `None` for any other call.
    fn star_before_keywords(
        &mut self,
        c: &ast::ExprCall,
        callee_code: &str,
        call: &str,
        callee: &(String, String),
        name: &str,
    ) -> Result<Option<String>> {
        let [ast::Expr::Starred(starred)] = c.args.as_slice() else {
            return Ok(None);
        };
        if c.keywords.is_empty() {
            return Ok(None);
        }
        let value = self.expr(&starred.value)?;
        let (star, kw) = (self.temp(), self.temp());
        let kwargs = self.call_kwargs(&c.keywords, callee)?;
        let (object, mname) = callee;
        Ok(Some(format!(
            "(block (result i64) (drop {callee_code}) (local.set {star} {value}) \
             (local.set {kw} (i64.extend_i32_u {kwargs})) \
             ({call_op} {object} {name} \
             (call $star_args (local.get {star}) {object} {mname}) (i32.wrap_i64 (local.get {kw}))))",
            call_op = format_args!("call {call}"),
        )))
    }

    /// The receiver of the method call `c`, evaluated into `receiver` and followed by the method's
    /// lookup (`$method_check`, or `$method_check_on` when the method is known to belong to type
    /// id `tid`) when the call has arguments: CPython looks the method up before it evaluates
    /// them, so `c.nope(f())` raises AttributeError without calling `f` (in a plan, `f` may run a
    /// command or call a model). Arguments that are all literals need no lookup first, and then
    /// the receiver is left as it is, not set into `receiver`: the caller roots it across the
    /// arguments (`Generator::keep`), which for literals is no root at all. The flag says
    /// whether the code holds the receiver in `receiver` (a shadowed temp, so already rooted).
    fn method_looked_up(
        &mut self,
        c: &ast::ExprCall,
        receiver: &str,
        object: String,
        name: &str,
        tid: Option<u32>,
    ) -> (String, bool) {
        let literal = |e: &ast::Expr| matches!(e, ast::Expr::Constant(_));
        if c.args.iter().all(literal) && c.keywords.iter().all(|k| literal(&k.value)) {
            return (object, false);
        }
        let check = match tid {
            Some(tid) => {
                format!("(call $method_check_on (local.get {receiver}) {name} (i32.const {tid}))")
            }
            None => format!("(call $method_check (local.get {receiver}) {name})"),
        };
        let code = format!(
            "(block (result i64) (local.set {receiver} {object}) {check} (local.get {receiver}))"
        );
        (code, true)
    }

    /// A call's positional arguments as a tuple. When a `*` unpacking fails, the TypeError
    /// names `callee` (the called object, or the receiver and the method's name) if the
    /// unpacking is the call's only positional argument, and says "Value after *" otherwise, as
    /// CPython 3.11 does (it builds such arguments as a list display first).
    fn call_args(&mut self, items: &[ast::Expr], callee: &(String, String)) -> Result<String> {
        if !items.iter().any(|e| matches!(e, ast::Expr::Starred(_))) {
            return self.exprs_to_tuple(items);
        }
        let (object, mname) = callee;
        let alone = items.len() == 1;
        let (code, list) = self.list_of(items, |list, value| {
            if alone {
                format!("(call $call_star (local.get {list}) {value} {object} {mname})")
            } else {
                format!("(call $display_star (local.get {list}) {value})")
            }
        })?;
        Ok(format!(
            "(block (result i32) {code} (i32.wrap_i64 (call $tuple_from (local.get {list}))))"
        ))
    }

    /// A call's keyword arguments as a dict (0 when there are none). With a `**` unpacking,
    /// a name given twice raises, naming the callee.
    fn call_kwargs(
        &mut self,
        keywords: &[ast::Keyword],
        callee: &(String, String),
    ) -> Result<String> {
        if keywords.is_empty() {
            return Ok("(i32.const 0)".to_owned());
        }
        let (object, mname) = callee;
        let unpacks = keywords.iter().any(|k| k.arg.is_none());
        if !unpacks && keywords.len() <= 2 {
            // One or two named arguments: their dict in one call (`$dict_of1`, `$dict_of2`).
            let mut values = Vec::new();
            for keyword in keywords {
                let name = keyword.arg.as_ref().map_or("", |arg| arg.as_str());
                values.push(self.str_value(&normalize(name)));
                values.push(self.expr(&keyword.value)?);
            }
            let operands = self.held_code_operands(&values);
            return Ok(format!(
                "(i32.wrap_i64 (call $dict_of{}{operands}))",
                keywords.len()
            ));
        }
        let dict = self.temp();
        let mut code = format!("(block (result i32) (local.set {dict} (call $dict_new))");
        for keyword in keywords {
            let value = self.expr(&keyword.value)?;
            match &keyword.arg {
                Some(arg) => {
                    let key = self.str_value(&normalize(arg.as_str()));
                    if unpacks {
                        let _ = write!(
                            code,
                            "(call $call_kw (local.get {dict}) {key} {value} {object} {mname})"
                        );
                    } else {
                        let _ = write!(code, "(call $dict_set (local.get {dict}) {key} {value})");
                    }
                }
                None => {
                    let _ = write!(
                        code,
                        "(call $call_dstar (local.get {dict}) {value} {object} {mname})"
                    );
                }
            }
        }
        let _ = write!(code, "(i32.wrap_i64 (local.get {dict})))");
        Ok(code)
    }

    /// An f-string, built by runtime/wat/fast.wat's builder: small ints are written as digits
    /// in place and the buffer becomes the str, so a piece costs no intermediate string.
    fn fstring(&mut self, parts: &[ast::Expr]) -> Result<String> {
        let builder = self.temp_i32();
        // Room for the literal text and ~16 bytes a field, so most f-strings never regrow
        // their buffer (an unused tail is given back when the string is finished).
        let estimate: usize = parts
            .iter()
            .map(|part| match part {
                ast::Expr::Constant(ast::ExprConstant {
                    value: Constant::Str(s),
                    ..
                }) => s.len(),
                _ => 16,
            })
            .sum();
        let capacity = estimate.next_power_of_two().clamp(64, 4096);
        let pieces = self.fstring_pieces(&format!("(local.get {builder})"), parts)?;
        Ok(format!(
            "(block (result i64) (local.set {builder} (call $fsb_with (i32.const {capacity}))){pieces}\
             (call $fsb_finish (local.get {builder})))"
        ))
    }

    /// An f-string's pieces appended to the builder `builder` (an `i32`, held where the collector
    /// sees it), in order.
    fn fstring_pieces(&mut self, builder: &str, parts: &[ast::Expr]) -> Result<String> {
        let mut code = String::new();
        for part in parts {
            // What frees the field's value once its text is in (temporaries.rs).
            let mut dead = String::new();
            let (push, piece) = match part {
                ast::Expr::Constant(ast::ExprConstant {
                    value: Constant::Str(s),
                    ..
                }) => ("$fsb_push_str", self.str_value(s)),
                ast::Expr::FormattedValue(f) => {
                    let borrowed = self.borrowed(&f.value)?;
                    let value = borrowed.value;
                    dead = borrowed.dead;
                    let converted = match f.conversion {
                        ast::ConversionFlag::Repr => format!("(call $to_repr {value})"),
                        ast::ConversionFlag::Str => format!("(call $to_str {value})"),
                        ast::ConversionFlag::Ascii => {
                            return self
                                .unsupported(part, "the !a conversion (ascii) is not supported")
                        }
                        ast::ConversionFlag::None => value,
                    };
                    match &f.format_spec {
                        Some(spec) => {
                            // A spec without nested fields (`:>8`, `:.2f`) is one constant
                            // str, most often parsed here once (fstring_spec.rs).
                            let (spec, packed) = match &**spec {
                                ast::Expr::JoinedStr(j) => match constant_text(&j.values) {
                                    // The parser leaves a spec's escapes as written
                                    // (`{v:\x3e5}` is `>5` to CPython).
                                    Some(text) if !self.fstring_raw => {
                                        // The checker refused malformed escapes.
                                        let text = match crate::escapes::decode_escapes(&text) {
                                            Ok(text) => text,
                                            Err(error) => {
                                                return self.unsupported(part, error.to_string())
                                            }
                                        };
                                        (
                                            self.str_value(&text),
                                            fstring_spec::pack(&text).unwrap_or(0),
                                        )
                                    }
                                    Some(text) => (
                                        self.str_value(&text),
                                        fstring_spec::pack(&text).unwrap_or(0),
                                    ),
                                    None => (self.fstring(&j.values)?, 0),
                                },
                                other => (self.expr(other)?, 0),
                            };
                            // The spec follows the value: the value is evaluated first, as
                            // CPython does.
                            (
                                "$fsb_push_formatted",
                                format!("{converted} {spec} (i64.const {packed})"),
                            )
                        }
                        None => ("$fsb_push_value", converted),
                    }
                }
                ast::Expr::JoinedStr(j) => ("$fsb_push_str", self.fstring(&j.values)?),
                other => ("$fsb_push_value", self.expr(other)?),
            };
            let _ = write!(code, "(call {push} {builder} {piece}){dead}");
        }
        Ok(code)
    }

    /// A lazy generator expression (scopes.rs, [`lazy_genexp`]): its iterable's iterator, made
    /// now, and the function that makes each item from the next one.
    fn lazy_genexp(&mut self, node: &ast::Expr, genexp: &ast::ExprGeneratorExp) -> Result<String> {
        let generator = &genexp.generators[0];
        let iterable = self.expr(&generator.iter)?;
        let iterator = self.temp();
        let range = generator.target.range();
        let args = ast::Arguments {
            range,
            posonlyargs: Vec::new(),
            args: vec![ast::ArgWithDefault {
                range,
                def: ast::Arg {
                    range,
                    arg: ast::Identifier::new(GENEXP_ARG),
                    annotation: None,
                    type_comment: None,
                },
                default: None,
            }],
            vararg: None,
            kwonlyargs: Vec::new(),
            kwarg: None,
        };
        let scope = self.scopes.scope_of(node);
        let step = self.make_function(
            scope,
            "<genexpr>",
            &args,
            None,
            FunctionBody::Generator {
                target: &generator.target,
                ifs: &generator.ifs,
                elt: &genexp.elt,
            },
            None,
        )?;
        // The iterator first: `iter()` of the iterable raises where the expression is.
        Ok(format!(
            "(block (result i64) (local.set {iterator} (call $iter {iterable})) \
             (call $genexp_new {step} (local.get {iterator})))"
        ))
    }

    /// Whether the code of a generator expression consumed inline, but for its first iterable
    /// (evaluated before it starts), may raise StopIteration (stop_iteration.rs): else its loop
    /// needs no handler to turn one into RuntimeError.
    fn genexp_may_raise_stop_iteration(
        &self,
        scope: ScopeId,
        generators: &[ast::Comprehension],
        collect: Collect<'_>,
    ) -> bool {
        let may_raise = |e: &ast::Expr| stop_iteration::may_raise(&self.scopes, scope, e);
        let elements: Vec<&ast::Expr> = match collect {
            Collect::List(e)
            | Collect::Set(e)
            | Collect::Sum(e, _)
            | Collect::Any(e)
            | Collect::All(e)
            | Collect::Min(e)
            | Collect::Max(e)
            | Collect::Join(e, _) => vec![e],
            Collect::Dict(k, v) => vec![k, v],
        };
        elements.into_iter().any(may_raise)
            || generators.iter().enumerate().any(|(i, generator)| {
                (i > 0 && may_raise(&generator.iter))
                    || may_raise(&generator.target)
                    || generator.ifs.iter().any(may_raise)
            })
    }

    /// A comprehension, emitted inline: its variables are extra locals of the current function.
    /// A generator expression's too, where it is consumed whole at once (scopes.rs,
    /// `consumed_genexp`, `joined_genexp`; or not lazy): then the first iterable's iterator is
    /// made before anything else, as the generator's creation makes it, and what its code
    /// raises leaves as it would leave a generator (`$genexp_escape`).
    fn comprehension(
        &mut self,
        node: &ast::Expr,
        generators: &[ast::Comprehension],
        collect: Collect<'_>,
    ) -> Result<String> {
        let scope = self.scopes.scope_of(node);
        let genexp = matches!(node, ast::Expr::GeneratorExp(_));
        let result = self.temp();
        // The first iterable is evaluated in the enclosing scope, and so is `sum`'s start.
        let first = self.expr(&generators[0].iter)?;
        let init = match collect {
            Collect::List(_) => "(call $list_new (i32.const 0))".to_owned(),
            Collect::Set(_) => "(call $set_new)".to_owned(),
            Collect::Dict(..) => "(call $dict_new)".to_owned(),
            Collect::Sum(_, Some(start)) => format!("(call $sum_start {})", self.expr(start)?),
            // (the int 0)
            Collect::Sum(_, None) => "(i64.const 1)".to_owned(),
            Collect::Any(_) => format!("(i64.const {})", layout::FALSE),
            Collect::All(_) => format!("(i64.const {})", layout::TRUE),
            // (no item yet)
            Collect::Min(_) | Collect::Max(_) => "(i64.const 0)".to_owned(),
            Collect::Join(..) => "(call $join_new)".to_owned(),
        };
        let first_temp = self.temp();
        let exit = self.label("cexit");
        let body = self.capture(|g| {
            g.emit(&format!("(local.set {first_temp} {first})"));
            // The first iterable's iterator is made in the enclosing frame, as CPython makes it
            // before it calls the comprehension's code ("not iterable" has no comprehension
            // frame in its traceback).
            g.emit(&format!(
                "(local.set {first_temp} (call $iter (local.get {first_temp})))"
            ));
            g.emit(&format!("(local.set {result} {init})"));
            let saved_scope = g.f().scope;
            g.f().scope = scope;
            let loops = g.capture(|g| {
                g.comprehension_body(scope, generators, 0, &first_temp, &result, &exit, collect)
            });
            g.f().scope = saved_scope;
            let loops = loops?;
            // The comprehension's frame, as CPython 3.11's tracebacks show it (`<listcomp>`,
            // `<genexpr>`, ..., one deeper than the function's): pushed around the loop
            // (`$enter_comprehension`), popped after it; a handler's `$resume` pops it on the way
            // out of an exception.
            let depth = g.int_temp();
            let name = g.str_const(match node {
                ast::Expr::ListComp(_) => "<listcomp>",
                ast::Expr::SetComp(_) => "<setcomp>",
                ast::Expr::DictComp(_) => "<dictcomp>",
                _ => "<genexpr>",
            });
            let line = g.frame_line(&generators[0].target);
            let enter = format!(
                "(local.set {depth} (call $enter_comprehension (i32.const {name}) (i32.const {line})))"
            );
            let leave = format!("(global.set $depth (i32.sub (local.get {depth}) (i32.const 1)))");
            if genexp && g.genexp_may_raise_stop_iteration(scope, generators, collect) {
                // What a generator expression's code raises leaves as from a generator: a
                // StopIteration as RuntimeError (`$genexp_escape`).
                let (done, caught) = (g.label("gdone"), g.label("gcaught"));
                let resume = shadow::RESUME;
                let escaping = g.scratch(&[resume]);
                g.emit(&format!(
                    "(block {done} (local.set {escaping} (block {caught} (result i64) \
                       (try_table (catch $exc {caught}) {enter} (block {exit} {loops}) {leave}) \
                       (br {done}))) \
                     {resume} (call $genexp_escape (local.get {escaping})) (unreachable))"
                ));
            } else {
                // Nothing it raises needs changing: an exception leaves with the frame pushed,
                // which the handler that catches it pops (`$resume`), as it pops those of the
                // functions the exception left.
                g.emit(&format!("{enter} (block {exit} {loops}) {leave}"));
            }
            // An empty sequence is an error of min and max themselves, not of the generator;
            // an item that is not a str is join's.
            if let Collect::Min(_) | Collect::Max(_) = collect {
                let is_max = i32::from(matches!(collect, Collect::Max(_)));
                g.emit(&format!(
                    "(if (i64.eqz (local.get {result})) (then (call $minmax_empty (i32.const {is_max}))))"
                ));
            }
            if let Collect::Join(..) = collect {
                g.emit(&format!(
                    "(local.set {result} (call $join_finish (local.get {result})))"
                ));
            }
            Ok(())
        })?;
        Ok(format!("(block (result i64) {body} (local.get {result}))"))
    }

    #[allow(clippy::too_many_arguments)]
    fn comprehension_body(
        &mut self,
        scope: ScopeId,
        generators: &[ast::Comprehension],
        index: usize,
        first: &str,
        result: &str,
        exit: &str,
        collect: Collect<'_>,
    ) -> Result<()> {
        if index == 0 {
            // Fresh cells for captured comprehension variables, once per evaluation.
            let cells = self.scopes.scopes[scope].cells.clone();
            for name in cells {
                let local = self.var_local(scope, &name, true);
                self.emit(&format!(
                    "(local.set {local} (call $cell_new (i64.const 0)))"
                ));
            }
        }
        let Some(generator) = generators.get(index) else {
            let code = match collect {
                Collect::List(elt) => {
                    let value = self.expr(elt)?;
                    format!("(call $list_append (local.get {result}) {value})")
                }
                Collect::Set(elt) => {
                    let value = self.expr(elt)?;
                    format!("(call $set_add (local.get {result}) {value})")
                }
                Collect::Dict(key, value) => {
                    let key = self.expr(key)?;
                    let value = self.expr(value)?;
                    let key = self.keep(key, false, &[&value]);
                    format!("(call $dict_set (local.get {result}) {key} {value})")
                }
                Collect::Sum(elt, _) => {
                    let value = self.expr(elt)?;
                    let total = self.keep(format!("(local.get {result})"), false, &[&value]);
                    let sum = self.binary_op(&ast::Operator::Add, total, value, None, "$add");
                    format!("(local.set {result} {sum})")
                }
                Collect::Any(elt) | Collect::All(elt) => {
                    let test = self.condition(elt)?;
                    let (test, answer) = match collect {
                        Collect::Any(_) => (test, layout::TRUE),
                        _ => (format!("(i32.eqz {test})"), layout::FALSE),
                    };
                    format!(
                        "(if {test} (then (local.set {result} (i64.const {answer})) (br {exit})))"
                    )
                }
                // An f-string item is written straight into the join's builder (which is a
                // str builder, runtime/wat/fast.wat): no builder and no str of its own.
                Collect::Join(ast::Expr::JoinedStr(item), sep) => {
                    let sep = self.expr(sep)?;
                    let into = format!("(i32.wrap_i64 (local.get {result}))");
                    let raw = self.literal_is_raw(item.range.start().to_usize());
                    let outer = std::mem::replace(&mut self.fstring_raw, raw);
                    let pieces = self.fstring_pieces(&into, &item.values);
                    self.fstring_raw = outer;
                    format!("(call $join_piece (local.get {result}) {sep}){}", pieces?)
                }
                Collect::Join(elt, sep) => {
                    let value = self.expr(elt)?;
                    let sep = self.expr(sep)?;
                    format!("(call $join_push (local.get {result}) {sep} {value})")
                }
                Collect::Min(elt) | Collect::Max(elt) => {
                    // The item is held across the comparison, which may run plan code.
                    let value = self.expr(elt)?;
                    let item = self.temp();
                    let op = match collect {
                        Collect::Max(_) => ast::CmpOp::Gt,
                        _ => ast::CmpOp::Lt,
                    };
                    let better = self.compare_op(
                        &op,
                        &format!("(local.get {item})"),
                        &format!("(local.get {result})"),
                        false,
                    );
                    format!(
                        "(local.set {item} {value}) \
                         (if (i64.eqz (local.get {result})) (then (local.set {result} (local.get {item}))) \
                           (else (if {better} (then (local.set {result} (local.get {item}))))))"
                    )
                }
            };
            self.emit(&code);
            return Ok(());
        };
        let iterator = if index == 0 {
            // The iterator already, made in the enclosing frame: CPython's comprehension code
            // loops over the iterator it is given without calling `iter` again.
            first.to_owned()
        } else {
            let iterable = self.expr(&generator.iter)?;
            let iterator = self.temp();
            self.emit(&format!("(local.set {iterator} (call $iter {iterable}))"));
            iterator
        };
        let item = self.item_temp(&generator.target);
        let (done, top) = (self.label("cdone"), self.label("ctop"));
        self.emit(&format!("(block {done} (loop {top}"));
        self.f().looping += 1;
        self.emit(&format!(
            "(local.set {item} (call $next_plan (local.get {iterator})))"
        ));
        self.emit(&format!("(br_if {done} (i64.eqz (local.get {item})))"));
        self.assign(&generator.target, &format!("(local.get {item})"))?;
        for condition in &generator.ifs {
            let test = self.condition(condition)?;
            self.emit(&format!("(br_if {top} (i32.eqz {test}))"));
        }
        self.comprehension_body(scope, generators, index + 1, first, result, exit, collect)?;
        self.emit(&format!("(br {top})))"));
        self.f().looping -= 1;
        Ok(())
    }
}

/// What a comprehension does with each element.
#[derive(Clone, Copy)]
pub(super) enum Collect<'e> {
    List(&'e ast::Expr),
    Set(&'e ast::Expr),
    Dict(&'e ast::Expr, &'e ast::Expr),
    /// Adds it to the total, which starts at the start given (else 0): `sum`'s loop.
    Sum(&'e ast::Expr, Option<&'e ast::Expr>),
    /// Ends the loop at the first true element (`any`) or false one (`all`).
    Any(&'e ast::Expr),
    All(&'e ast::Expr),
    /// Keeps the first element no later one is less than (`min`: `later < kept` replaces it)
    /// or greater than (`max`); none is ValueError.
    Min(&'e ast::Expr),
    Max(&'e ast::Expr),
    /// Appends it to the text, after the separator (the second expression, a str literal):
    /// `"sep".join(genexpr)`'s loop (`$join_push`, runtime/wat/fast.wat).
    Join(&'e ast::Expr, &'e ast::Expr),
}

enum FunctionBody<'e> {
    Statements(&'e [ast::Stmt]),
    Expression(&'e ast::Expr),
    /// A lazy generator expression's step (see scopes.rs): bind `target` from the argument,
    /// return 0 (no item) when an `if` fails, else the element.
    Generator {
        target: &'e ast::Expr,
        ifs: &'e [ast::Expr],
        elt: &'e ast::Expr,
    },
}

fn binary_function(op: &ast::Operator) -> &'static str {
    use ast::Operator as O;
    match op {
        O::Add => "$add",
        O::Sub => "$sub",
        O::Mult => "$mul",
        O::MatMult => "$matmul",
        O::Div => "$truediv",
        O::FloorDiv => "$floordiv",
        O::Mod => "$mod",
        O::Pow => "$pow",
        O::LShift => "$lshift",
        O::RShift => "$rshift",
        O::BitOr => "$bitor",
        O::BitXor => "$bitxor",
        O::BitAnd => "$bitand",
    }
}

/// Whether a `break` or `continue` in `body` leaves it: one not inside a loop of `body` (a
/// loop's `else` belongs to the loop around it). Nested functions are not looked into.
fn jumps_out(body: &[ast::Stmt]) -> bool {
    use ast::Stmt as S;
    body.iter().any(|stmt| match stmt {
        S::Break(_) | S::Continue(_) => true,
        S::For(s) => jumps_out(&s.orelse),
        S::While(s) => jumps_out(&s.orelse),
        S::If(s) => jumps_out(&s.body) || jumps_out(&s.orelse),
        S::Try(s) => {
            jumps_out(&s.body)
                || jumps_out(&s.orelse)
                || jumps_out(&s.finalbody)
                || s.handlers
                    .iter()
                    .any(|ast::ExceptHandler::ExceptHandler(h)| jumps_out(&h.body))
        }
        _ => false,
    })
}

/// Whether `body` has a `raise` statement anywhere (nested functions not looked into).
fn raises(body: &[ast::Stmt]) -> bool {
    use ast::Stmt as S;
    body.iter().any(|stmt| match stmt {
        S::Raise(_) => true,
        S::For(s) => raises(&s.body) || raises(&s.orelse),
        S::While(s) => raises(&s.body) || raises(&s.orelse),
        S::If(s) => raises(&s.body) || raises(&s.orelse),
        S::Try(s) => {
            raises(&s.body)
                || raises(&s.orelse)
                || raises(&s.finalbody)
                || s.handlers
                    .iter()
                    .any(|ast::ExceptHandler::ExceptHandler(h)| raises(&h.body))
        }
        _ => false,
    })
}

/// Syntax nodes of top-level statements emitted into one wasm function at most (a statement
/// larger than this is a part of its own; the checker bounds it by `max_function_nodes`).
/// Wasmtime's translation costs memory that grows with the square of a function's size, so a
/// long module body is emitted as parts of about this size, called one after the other.
const MODULE_PART_NODES: usize = 2_000;

/// The most code text (WAT, as generated) a plan may compile to. Code grows linearly with the
/// plan but for `finally` bodies, which are compiled twice each, so nested ones grow it
/// exponentially: 18 levels in a 54-line plan took 11 s and 1.8 GB before the host refused the
/// 91 MB module (CPython 3.11 itself: 5.9 s and 2.1 GB), outside every run limit. The largest
/// plan the checker accepts without them (30,000 lines, ~200,000 nodes) is 18 MB of text (a
/// 2.4 MB module); past seven times that a plan is refused, naming the statement.
const MAX_CODE_TEXT: usize = 128 << 20;

/// A module body cut at statement boundaries into runs of about [`MODULE_PART_NODES`] nodes.
fn module_chunks(body: &[ast::Stmt]) -> Vec<&[ast::Stmt]> {
    let mut chunks = Vec::new();
    let (mut start, mut nodes) = (0, 0);
    for (i, stmt) in body.iter().enumerate() {
        let size = crate::check::node_count(std::slice::from_ref(stmt));
        if i > start && nodes + size > MODULE_PART_NODES {
            chunks.push(&body[start..i]);
            (start, nodes) = (i, 0);
        }
        nodes += size;
    }
    chunks.push(&body[start..]);
    chunks
}

/// The runtime function that makes a tuple of `n` given items in one call (`$tuple_of1` ..
/// `$tuple_of4`, runtime/wat/seq.wat), for the sizes it has one for.
pub(super) fn tuple_of_n(n: usize) -> Option<&'static str> {
    Some(match n {
        1 => "$tuple_of1",
        2 => "$tuple_of2",
        3 => "$tuple_of3",
        4 => "$tuple_of4",
        _ => return None,
    })
}

/// The text of f-string parts that are all constant strs (a format spec with no nested field).
fn constant_text(parts: &[ast::Expr]) -> Option<String> {
    let mut text = String::new();
    for part in parts {
        match part {
            ast::Expr::Constant(ast::ExprConstant {
                value: Constant::Str(s),
                ..
            }) => text.push_str(s),
            _ => return None,
        }
    }
    Some(text)
}
