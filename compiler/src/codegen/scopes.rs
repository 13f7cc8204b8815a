//! Scope analysis for code generation: which scope owns each variable, which variables live in
//! cells because a nested function captures them, and which cells each function's closure
//! carries. Scopes are keyed by the address of their AST node, so the emitter finds the same
//! scope when it reaches the same node.
//!
//! Only functions, lambdas, lazy generator expressions and the module become wasm functions
//! ("hosts"). Comprehensions are scopes of their own (their variables do not leak), but their
//! code is emitted inline in their host, with their variables as extra locals of the host.
//!
//! A generator expression with one `for` and no walrus is lazy ([`lazy_genexp`]): it is a host
//! of its own, a function of one argument ([`GENEXP_ARG`], the next item) that binds the target,
//! tests the `if`s and computes the element, which the runtime calls as the generator is
//! iterated (`$genexp_new`, runtime/wat/seq.wat). Its captured variables are cells, so it sees
//! their values when it runs, as CPython's generators do. Other generator expressions are
//! computed at once into a list (a documented deviation).

use std::collections::{BTreeSet, HashMap};

use rustc_hash::FxHashSet;
use rustpython_parser::ast::{self, Ranged};

use crate::check::normalize;
use crate::check::scope::{Scope, ScopeKind};

pub type ScopeId = usize;

/// The parameter of a lazy generator expression's function: the next item of its iterable
/// (CPython's name for it, which no plan can spell).
pub const GENEXP_ARG: &str = ".0";

/// Whether a generator expression is compiled lazily (see the module docs): one synchronous
/// `for`, and no walrus, whose target would belong to the enclosing function.
pub fn lazy_genexp(genexp: &ast::ExprGeneratorExp) -> bool {
    match genexp.generators.as_slice() {
        [only] => {
            !only.is_async
                && !Scope::has_walrus(&genexp.elt)
                && !only.ifs.iter().any(Scope::has_walrus)
                && !Scope::has_walrus(&only.target)
        }
        _ => false,
    }
}

/// The generator expression a call joins, when the call is `"literal".join(genexpr)`: such a
/// generator is consumed whole before anything else happens (str.join makes a list of its
/// argument first, then checks and joins), so it runs inline as a loop that joins each item as
/// it comes (`Collect::Join`), without a step function called per item. Both passes ask this
/// of every call.
pub fn joined_genexp(call: &ast::ExprCall) -> Option<(&ast::Expr, &ast::ExprGeneratorExp)> {
    let ast::Expr::Attribute(method) = call.func.as_ref() else {
        return None;
    };
    let receiver_is_str = matches!(
        method.value.as_ref(),
        ast::Expr::Constant(ast::ExprConstant {
            value: ast::Constant::Str(_),
            ..
        })
    );
    match (call.args.as_slice(), call.keywords.is_empty()) {
        ([arg @ ast::Expr::GeneratorExp(genexp)], true)
            if receiver_is_str && method.attr.as_str() == "join" =>
        {
            Some((arg, genexp))
        }
        _ => None,
    }
}

/// The builtins whose generator-expression argument is compiled inline, as their own loop:
/// what they do with the items, one at a time, is what the loop does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consumer {
    /// `sum(genexpr)`, `sum(genexpr, start)`: adds each item to the total as it comes.
    Sum,
    /// `any(genexpr)`, `all(genexpr)`: stop at the first true (false) item.
    Any,
    All,
    /// `min(genexpr)`, `max(genexpr)`: keep the first least (greatest) item, as it comes.
    Min,
    Max,
    /// `list(genexpr)`, `set(genexpr)`: the comprehension itself.
    List,
    Set,
    /// `tuple(genexpr)`, `sorted(genexpr)`: the list comprehension, then the builtin on it
    /// (each takes all the items before it does anything with them).
    Tuple,
    Sorted,
}

/// A call of a builtin that consumes a generator expression inline ([`Consumer`]).
pub struct ConsumedGenexp<'e> {
    pub consumer: Consumer,
    /// The generator expression's node (its scope is a comprehension's).
    pub node: &'e ast::Expr,
    pub genexp: &'e ast::ExprGeneratorExp,
    /// `sum`'s second argument.
    pub start: Option<&'e ast::Expr>,
}

/// The generator expression a call of `sum`, `any`, `all`, `min`, `max`, `list`, `set`, `tuple`
/// or `sorted` consumes, when `is_builtin` says the name is the builtin's (the plan binds it
/// nowhere on the way out) and the call has no keywords: such a generator is iterated by that
/// builtin alone, at once and to its end (or to `any`'s and `all`'s answer), so its code runs
/// as the builtin's loop, inline, without a step function called per item. What CPython does
/// that a loop would not is kept: the first iterable's `iter()` before `sum`'s start is
/// evaluated, a StopIteration escaping the element's code is raised as RuntimeError (PEP 479),
/// and tracebacks show the `<genexpr>` frame. The scope pass asks this of every call; code
/// generation asks it of calls of builtins, which the scope pass resolved the same way.
pub fn consumed_genexp<'e>(
    call: &'e ast::ExprCall,
    is_builtin: impl Fn(&str) -> bool,
) -> Option<ConsumedGenexp<'e>> {
    let ast::Expr::Name(name) = call.func.as_ref() else {
        return None;
    };
    if !call.keywords.is_empty() {
        return None;
    }
    let (node, start) = match call.args.as_slice() {
        [node] => (node, None),
        [node, start] if !matches!(start, ast::Expr::Starred(_)) => (node, Some(start)),
        _ => return None,
    };
    let ast::Expr::GeneratorExp(genexp) = node else {
        return None;
    };
    if genexp.generators.iter().any(|g| g.is_async) {
        return None;
    }
    let name = normalize(name.id.as_str());
    let consumer = match (name.as_ref(), start) {
        ("sum", _) => Consumer::Sum,
        ("any", None) => Consumer::Any,
        ("all", None) => Consumer::All,
        ("min", None) => Consumer::Min,
        ("max", None) => Consumer::Max,
        ("list", None) => Consumer::List,
        ("set", None) => Consumer::Set,
        ("tuple", None) => Consumer::Tuple,
        ("sorted", None) => Consumer::Sorted,
        _ => return None,
    };
    is_builtin(&name).then_some(ConsumedGenexp {
        consumer,
        node,
        genexp,
        start,
    })
}

#[derive(Debug)]
pub struct ScopeData {
    pub kind: ScopeKind,
    pub parent: Option<ScopeId>,
    /// The name CPython gives the scope's code: the function's, `<lambda>`, `<listcomp>`, ...
    pub name: String,
    /// The wasm function whose code runs this scope (itself, unless a comprehension).
    pub host: ScopeId,
    /// (Hash sets: [`Scopes::resolve`] looks names up in them for every name the generator
    /// emits, tens of thousands in a generated plan; nothing iterates them.)
    pub bindings: FxHashSet<String>,
    /// Names a function declares `global`: the module's, wherever they are used inside it.
    pub globals: FxHashSet<String>,
    /// Variables of this scope that functions nested in another host capture.
    pub cells: BTreeSet<String>,
    /// For hosts: the captured variables their closure tuple carries, in order.
    pub free: Vec<(ScopeId, String)>,
}

/// Where a name lives, seen from one scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A variable of a scope run by the same wasm function.
    Local {
        owner: ScopeId,
        name: String,
        cell: bool,
    },
    /// A captured variable: the index of its cell in the current host's closure tuple.
    Free { index: usize },
    /// A module-level name.
    Global(String),
    /// Not bound anywhere: a builtin (the checker has rejected everything else).
    Builtin(String),
}

/// A `def` statement, as a call site that names it needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefInfo {
    /// The statement's source range (see [`key`]).
    pub key: (u32, u32),
    /// Positional parameters; meaningful when `plain`.
    pub positional: usize,
    /// No `*args`, `**kwargs` or keyword-only parameters: positional arguments bind one to one.
    pub plain: bool,
}

#[derive(Debug, Default)]
pub struct Scopes {
    pub scopes: Vec<ScopeData>,
    by_node: HashMap<(u32, u32), ScopeId>,
    /// The `def` statements that bind each name of each scope.
    defs: HashMap<(ScopeId, String), Vec<DefInfo>>,
    /// Module-level names read anywhere (a load that resolves to the module's binding): an SDK
    /// name imported and never read needs no capability.
    module_reads: BTreeSet<String>,
    /// Where each variable is read (a load, a `del`, an augmented assignment's target), by the
    /// variable (its owning scope, `None` for a module-level name): the scope the read is in and
    /// its source offset.
    reads: HashMap<Variable, Vec<(ScopeId, u32)>>,
}

/// A variable: its owning scope (`None` for a module-level name) and its name.
type Variable = (Option<ScopeId>, String);

/// A scope-opening node (a `def`, a lambda, a comprehension) is found by its source range, not
/// its address: `finally` bodies are cloned to be emitted again before `return`/`break`/
/// `continue`, and a clone must find the scope of the original. No two scope-opening nodes
/// share a range.
pub fn key(node: &impl Ranged) -> (u32, u32) {
    let range = node.range();
    (range.start().to_u32(), range.end().to_u32())
}

impl Scopes {
    pub fn analyze(module: &[ast::Stmt]) -> Self {
        let mut scopes = Scopes::default();
        let root = Scope::of_block(ScopeKind::Module, module);
        let id = scopes.push(ScopeKind::Module, String::new(), None, root, &[]);
        let mut walker = Walker {
            scopes: &mut scopes,
            stack: vec![id],
        };
        walker.stmts(module);
        scopes
    }

    fn push(
        &mut self,
        kind: ScopeKind,
        name: String,
        parent: Option<ScopeId>,
        scope: Scope,
        params: &[String],
    ) -> ScopeId {
        let id = self.scopes.len();
        let host = match kind {
            ScopeKind::Comprehension => parent.map_or(id, |p| self.scopes[p].host),
            _ => id,
        };
        let mut bindings: FxHashSet<String> = scope.bindings.into_keys().collect();
        bindings.extend(params.iter().cloned());
        let globals = match kind {
            ScopeKind::Module => FxHashSet::default(),
            _ => scope.globals.into_keys().collect(),
        };
        self.scopes.push(ScopeData {
            kind,
            name,
            parent,
            host,
            bindings,
            globals,
            cells: BTreeSet::new(),
            free: Vec::new(),
        });
        id
    }

    /// The scope a function, lambda, comprehension or the module body opened.
    pub fn scope_of(&self, node: &impl Ranged) -> ScopeId {
        self.by_node[&key(node)]
    }

    /// The one `def` that binds the variable a name resolves to, if exactly one does. Other
    /// assignments may rebind the name, so callers check the callee at run time.
    pub fn only_def(&self, from: ScopeId, name: &str) -> Option<DefInfo> {
        let owner = match self.resolve(from, name) {
            Place::Global(_) => 0,
            Place::Local { owner, .. } => owner,
            Place::Free { index } => self.scopes[self.scopes[from].host].free.get(index)?.0,
            Place::Builtin(_) => return None,
        };
        match self.defs.get(&(owner, name.to_owned()))?.as_slice() {
            [only] => Some(*only),
            _ => None,
        }
    }

    /// Whether every read of the variable that `name` is in `scope` is in `scope` itself (not a
    /// nested function, lambda or comprehension), between the source offsets `start` and `end`.
    pub fn reads_only_within(&self, scope: ScopeId, name: &str, start: u32, end: u32) -> bool {
        let Some(variable) = self.variable(scope, name) else {
            return false;
        };
        self.reads.get(&variable).is_none_or(|reads| {
            reads
                .iter()
                .all(|&(at, offset)| at == scope && (start..end).contains(&offset))
        })
    }

    /// The variable `name` is in `scope`, as [`Scopes::reads`] keys it; `None` for a builtin.
    fn variable(&self, scope: ScopeId, name: &str) -> Option<Variable> {
        let owner = match self.resolve(scope, name) {
            Place::Global(_) => None,
            Place::Local { owner, .. } => Some(owner),
            Place::Free { index } => Some(self.scopes[self.scopes[scope].host].free.get(index)?.0),
            Place::Builtin(_) => return None,
        };
        Some((owner, name.to_owned()))
    }

    /// Whether a load anywhere in the plan reads the module-level variable `name`.
    pub fn module_name_is_read(&self, name: &str) -> bool {
        self.module_reads.contains(name)
    }

    /// CPython's `__qualname__` of the scope's code: `f.<locals>.g`, `<listcomp>.<lambda>`.
    pub fn qualname(&self, id: ScopeId) -> String {
        let scope = &self.scopes[id];
        let prefix = match scope.parent {
            None => return String::new(),
            Some(parent) => match self.scopes[parent].kind {
                ScopeKind::Module => String::new(),
                ScopeKind::Comprehension => format!("{}.", self.qualname(parent)),
                _ => format!("{}.<locals>.", self.qualname(parent)),
            },
        };
        format!("{prefix}{}", scope.name)
    }

    pub fn resolve(&self, from: ScopeId, name: &str) -> Place {
        let host = self.scopes[from].host;
        let mut current = Some(from);
        while let Some(id) = current {
            let scope = &self.scopes[id];
            if scope.globals.contains(name) {
                return Place::Global(name.to_owned());
            }
            if scope.bindings.contains(name) {
                if scope.kind == ScopeKind::Module {
                    return Place::Global(name.to_owned());
                }
                if scope.host == host {
                    let cell = scope.cells.contains(name);
                    return Place::Local {
                        owner: id,
                        name: name.to_owned(),
                        cell,
                    };
                }
                let index = self.scopes[host]
                    .free
                    .iter()
                    .position(|(owner, n)| *owner == id && n == name)
                    .expect("captured variables are recorded during analysis");
                return Place::Free { index };
            }
            current = scope.parent;
        }
        Place::Builtin(name.to_owned())
    }
}

struct Walker<'s> {
    scopes: &'s mut Scopes,
    stack: Vec<ScopeId>,
}

impl Walker<'_> {
    fn current(&self) -> ScopeId {
        *self.stack.last().expect("inside a scope")
    }

    /// Records a read of the variable `name` names here (see [`Scopes::reads`]).
    fn read(&mut self, name: &ast::ExprName) {
        let current = self.current();
        let normalized = normalize(name.id.as_str());
        if let Some(variable) = self.scopes.variable(current, &normalized) {
            let offset = name.range().start().to_u32();
            self.scopes
                .reads
                .entry(variable)
                .or_default()
                .push((current, offset));
        }
    }

    /// Records a reference, marking cells and closure variables when it crosses hosts.
    fn reference(&mut self, raw: &str) {
        let name = normalize(raw).into_owned();
        let from = self.current();
        let host = self.scopes.scopes[from].host;
        let mut current = Some(from);
        while let Some(id) = current {
            let scope = &self.scopes.scopes[id];
            if scope.globals.contains(&name) {
                return;
            }
            if scope.bindings.contains(&name) {
                if scope.kind == ScopeKind::Module || scope.host == host {
                    return;
                }
                let owner_host = scope.host;
                self.scopes.scopes[id].cells.insert(name.clone());
                // Every host between the reference and the owner carries the cell.
                let mut h = Some(host);
                while let Some(hid) = h {
                    if hid == owner_host {
                        break;
                    }
                    let entry = (id, name.clone());
                    if !self.scopes.scopes[hid].free.contains(&entry) {
                        self.scopes.scopes[hid].free.push(entry);
                    }
                    h = self.scopes.scopes[hid]
                        .parent
                        .map(|p| self.scopes.scopes[p].host);
                }
                return;
            }
            current = scope.parent;
        }
    }

    fn enter(
        &mut self,
        key: (u32, u32),
        kind: ScopeKind,
        name: String,
        scope: Scope,
        params: Vec<String>,
    ) {
        let parent = self.current();
        let id = self.scopes.push(kind, name, Some(parent), scope, &params);
        self.scopes.by_node.insert(key, id);
        self.stack.push(id);
    }

    fn stmts(&mut self, body: &[ast::Stmt]) {
        body.iter().for_each(|s| self.stmt(s));
    }

    fn opt(&mut self, e: &Option<Box<ast::Expr>>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn params(args: &ast::Arguments) -> Vec<String> {
        let mut names: Vec<String> = args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs)
            .map(|a| normalize(a.def.arg.as_str()).into_owned())
            .collect();
        names.extend(
            args.vararg
                .iter()
                .chain(&args.kwarg)
                .map(|a| normalize(a.arg.as_str()).into_owned()),
        );
        names
    }

    fn outer_parts(&mut self, args: &ast::Arguments) {
        for a in args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs)
        {
            self.opt(&a.default);
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt) {
        use ast::Stmt as S;
        match stmt {
            S::FunctionDef(f) => {
                self.outer_parts(&f.args);
                self.reference(f.name.as_str());
                let info = DefInfo {
                    key: key(stmt),
                    positional: f.args.posonlyargs.len() + f.args.args.len(),
                    plain: f.args.vararg.is_none()
                        && f.args.kwarg.is_none()
                        && f.args.kwonlyargs.is_empty(),
                };
                let owner = self.current();
                self.scopes
                    .defs
                    .entry((owner, normalize(f.name.as_str()).into_owned()))
                    .or_default()
                    .push(info);
                let scope = Scope::of_block(ScopeKind::Function, &f.body);
                let name = normalize(f.name.as_str()).into_owned();
                self.enter(
                    key(stmt),
                    ScopeKind::Function,
                    name,
                    scope,
                    Self::params(&f.args),
                );
                self.stmts(&f.body);
                self.stack.pop();
            }
            S::Return(r) => self.opt(&r.value),
            S::Delete(d) => d.targets.iter().for_each(|t| self.expr(t)),
            S::Assign(a) => {
                self.expr(&a.value);
                a.targets.iter().for_each(|t| self.expr(t));
            }
            S::AugAssign(a) => {
                self.expr(&a.value);
                self.expr(&a.target);
                if let ast::Expr::Name(name) = a.target.as_ref() {
                    self.read(name);
                }
            }
            S::AnnAssign(a) => {
                self.opt(&a.value);
                self.expr(&a.target);
            }
            S::For(f) => {
                self.expr(&f.iter);
                self.expr(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            S::While(w) => {
                self.expr(&w.test);
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            S::If(i) => {
                self.expr(&i.test);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            S::Raise(r) => {
                self.opt(&r.exc);
                self.opt(&r.cause);
            }
            S::Try(t) => {
                self.stmts(&t.body);
                for ast::ExceptHandler::ExceptHandler(h) in &t.handlers {
                    self.opt(&h.type_);
                    if let Some(name) = &h.name {
                        self.reference(name.as_str());
                    }
                    self.stmts(&h.body);
                }
                self.stmts(&t.orelse);
                self.stmts(&t.finalbody);
            }
            S::Assert(a) => {
                self.expr(&a.test);
                self.opt(&a.msg);
            }
            S::Import(i) => {
                for alias in &i.names {
                    let bound = alias.asname.as_ref().map_or_else(
                        || {
                            alias
                                .name
                                .as_str()
                                .split('.')
                                .next()
                                .unwrap_or("")
                                .to_owned()
                        },
                        |a| a.as_str().to_owned(),
                    );
                    self.reference(&bound);
                }
            }
            S::ImportFrom(i) => {
                for alias in &i.names {
                    self.reference(alias.asname.as_ref().unwrap_or(&alias.name).as_str());
                }
            }
            S::Nonlocal(n) => n
                .names
                .iter()
                .for_each(|name| self.reference(name.as_str())),
            S::Global(_) => {}
            S::Expr(e) => self.expr(&e.value),
            // Everything else is rejected by the checker before code generation.
            _ => {}
        }
    }

    fn expr(&mut self, expr: &ast::Expr) {
        use ast::Expr as E;
        match expr {
            E::Name(n) => {
                self.reference(n.id.as_str());
                if n.ctx != ast::ExprContext::Store {
                    self.read(n);
                }
                if n.ctx == ast::ExprContext::Load {
                    let name = normalize(n.id.as_str()).into_owned();
                    if let Place::Global(name) = self.scopes.resolve(self.current(), &name) {
                        self.scopes.module_reads.insert(name);
                    }
                }
            }
            E::Lambda(l) => {
                self.outer_parts(&l.args);
                let scope = Scope::of_lambda(&l.body);
                self.enter(
                    key(expr),
                    ScopeKind::Lambda,
                    "<lambda>".to_owned(),
                    scope,
                    Self::params(&l.args),
                );
                self.expr(&l.body);
                self.stack.pop();
            }
            E::ListComp(c) => self.comprehension(expr, &c.generators, &[&c.elt]),
            E::SetComp(c) => self.comprehension(expr, &c.generators, &[&c.elt]),
            E::GeneratorExp(c) if lazy_genexp(c) => {
                let generator = &c.generators[0];
                // The iterable is evaluated where the expression is; the rest when iterated.
                self.expr(&generator.iter);
                self.enter(
                    key(expr),
                    ScopeKind::Lambda,
                    "<genexpr>".to_owned(),
                    Scope::of_comprehension(&c.generators),
                    vec![GENEXP_ARG.to_owned()],
                );
                self.expr(&generator.target);
                generator.ifs.iter().for_each(|e| self.expr(e));
                self.expr(&c.elt);
                self.stack.pop();
            }
            E::GeneratorExp(c) => self.comprehension(expr, &c.generators, &[&c.elt]),
            E::DictComp(c) => self.comprehension(expr, &c.generators, &[&c.key, &c.value]),
            E::BoolOp(b) => b.values.iter().for_each(|e| self.expr(e)),
            E::NamedExpr(n) => {
                self.expr(&n.value);
                self.expr(&n.target);
            }
            E::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            E::UnaryOp(u) => self.expr(&u.operand),
            E::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            E::Dict(d) => {
                d.keys.iter().flatten().for_each(|k| self.expr(k));
                d.values.iter().for_each(|v| self.expr(v));
            }
            E::Set(s) => s.elts.iter().for_each(|e| self.expr(e)),
            E::Compare(c) => {
                self.expr(&c.left);
                c.comparators.iter().for_each(|e| self.expr(e));
            }
            E::Call(c) => {
                self.expr(&c.func);
                let current = self.current();
                let scopes = &*self.scopes;
                let consumed = consumed_genexp(c, |name| {
                    matches!(scopes.resolve(current, name), Place::Builtin(_))
                });
                if let Some(consumed) = consumed {
                    let genexp = consumed.genexp;
                    self.comprehension(consumed.node, &genexp.generators, &[&genexp.elt]);
                    if let Some(start) = consumed.start {
                        self.expr(start);
                    }
                } else if let Some((arg, genexp)) = joined_genexp(c) {
                    self.comprehension(arg, &genexp.generators, &[&genexp.elt]);
                } else {
                    c.args.iter().for_each(|e| self.expr(e));
                }
                c.keywords.iter().for_each(|k| self.expr(&k.value));
            }
            E::FormattedValue(f) => {
                self.expr(&f.value);
                self.opt(&f.format_spec);
            }
            E::JoinedStr(j) => j.values.iter().for_each(|e| self.expr(e)),
            E::Attribute(a) => self.expr(&a.value),
            E::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            E::Starred(s) => self.expr(&s.value),
            E::List(l) => l.elts.iter().for_each(|e| self.expr(e)),
            E::Tuple(t) => t.elts.iter().for_each(|e| self.expr(e)),
            E::Slice(s) => {
                self.opt(&s.lower);
                self.opt(&s.upper);
                self.opt(&s.step);
            }
            _ => {}
        }
    }

    fn comprehension(
        &mut self,
        node: &ast::Expr,
        generators: &[ast::Comprehension],
        elements: &[&ast::Expr],
    ) {
        if let Some(first) = generators.first() {
            self.expr(&first.iter);
        }
        let scope = Scope::of_comprehension(generators);
        let name = match node {
            ast::Expr::ListComp(_) => "<listcomp>",
            ast::Expr::SetComp(_) => "<setcomp>",
            ast::Expr::DictComp(_) => "<dictcomp>",
            _ => "<genexpr>",
        };
        self.enter(
            key(node),
            ScopeKind::Comprehension,
            name.to_owned(),
            scope,
            Vec::new(),
        );
        for (i, generator) in generators.iter().enumerate() {
            if i > 0 {
                self.expr(&generator.iter);
            }
            self.expr(&generator.target);
            generator.ifs.iter().for_each(|e| self.expr(e));
        }
        elements.iter().for_each(|e| self.expr(e));
        self.stack.pop();
    }
}
