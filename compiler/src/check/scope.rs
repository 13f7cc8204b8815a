//! Scopes and the names they bind, by Python's rules: a name assigned anywhere in a function
//! is local to it for the whole body; `nonlocal` sends it to the enclosing function; lambdas and
//! comprehensions are scopes of their own; a walrus inside a comprehension binds in the nearest
//! enclosing function (or module); class bodies are invisible to the functions nested in them.

use rustc_hash::FxHashMap as HashMap;

use rustpython_parser::ast::{self, Ranged};

use super::normalize;
use crate::policy::{self, ModuleSpec};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Function,
    Lambda,
    Comprehension,
    Class,
}

/// What a name is bound to, as far as the checker can tell statically.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// Any value.
    Value,
    /// A module bound by `import m` and by nothing else in this scope.
    Module(&'static ModuleSpec),
    /// A member of an allowed module bound by `from m import x` (or `as y`) and by nothing
    /// else in this scope: the SDK's calls are checked against their signatures through it.
    Member(&'static ModuleSpec, &'static str),
}

#[derive(Debug)]
pub struct Scope {
    pub kind: ScopeKind,
    pub bindings: HashMap<String, Binding>,
    /// `nonlocal` names with the offset of their declaration.
    pub nonlocals: HashMap<String, usize>,
    /// `global` names with the offset of their (last) declaration: in a function they are the
    /// module's names, whatever assigns to them.
    pub globals: HashMap<String, usize>,
    /// The earliest offset at which each name occurs in this block (not in nested scopes).
    pub first_occurrence: HashMap<String, usize>,
}

impl Scope {
    pub fn new(kind: ScopeKind) -> Self {
        Self {
            kind,
            bindings: HashMap::default(),
            nonlocals: HashMap::default(),
            globals: HashMap::default(),
            first_occurrence: HashMap::default(),
        }
    }

    pub fn bind(&mut self, name: String, binding: Binding) {
        self.bindings
            .entry(name)
            .and_modify(|existing| {
                if *existing != binding {
                    *existing = Binding::Value;
                }
            })
            .or_insert(binding);
    }

    fn occurs(&mut self, name: &str, offset: usize) {
        match self.first_occurrence.get_mut(name) {
            Some(first) => *first = (*first).min(offset),
            None => {
                self.first_occurrence.insert(name.to_owned(), offset);
            }
        }
    }

    /// Collects the names a function, class or module body binds.
    pub fn of_block(kind: ScopeKind, body: &[ast::Stmt]) -> Self {
        let mut scope = Scope::new(kind);
        for stmt in body {
            scope.stmt(stmt);
        }
        scope.settle_nonlocals();
        if kind == ScopeKind::Module {
            // A function's `global x` binds the module's x when it assigns it.
            let mut declared = Vec::new();
            global_declarations(body, false, &mut declared);
            for name in declared {
                scope.bind(name, Binding::Value);
            }
        }
        scope
    }

    /// Collects the names a lambda binds: its parameters (added by the caller) and any walrus
    /// targets in its body.
    pub fn of_lambda(body: &ast::Expr) -> Self {
        let mut scope = Scope::new(ScopeKind::Lambda);
        scope.expr(body, true);
        scope
    }

    /// Whether `expr` holds a walrus (`:=`) anywhere, comprehensions and all.
    pub fn has_walrus(expr: &ast::Expr) -> bool {
        let mut scope = Scope::new(ScopeKind::Comprehension);
        scope.expr(expr, false);
        !scope.bindings.is_empty()
    }

    /// Collects the names a comprehension binds: its `for` targets.
    pub fn of_comprehension(generators: &[ast::Comprehension]) -> Self {
        let mut scope = Scope::new(ScopeKind::Comprehension);
        for generator in generators {
            scope.target(&generator.target);
        }
        scope
    }

    /// A `nonlocal` name is not a binding of this scope, whatever assigns to it; nor is a
    /// `global` name of a function (at module level `global` changes nothing).
    fn settle_nonlocals(&mut self) {
        for name in self.nonlocals.keys() {
            self.bindings.remove(name);
        }
        if self.kind != ScopeKind::Module {
            for name in self.globals.keys() {
                self.bindings.remove(name);
            }
        }
    }

    fn target(&mut self, target: &ast::Expr) {
        match target {
            ast::Expr::Name(name) => {
                let normalized = normalize(name.id.as_str()).into_owned();
                self.occurs(&normalized, name.range.start().to_usize());
                self.bind(normalized, Binding::Value);
            }
            ast::Expr::Tuple(t) => t.elts.iter().for_each(|e| self.target(e)),
            ast::Expr::List(l) => l.elts.iter().for_each(|e| self.target(e)),
            ast::Expr::Starred(s) => self.target(&s.value),
            other => self.expr(other, true),
        }
    }

    fn bind_identifier(&mut self, raw: &str, offset: usize) {
        let normalized = normalize(raw).into_owned();
        self.occurs(&normalized, offset);
        self.bind(normalized, Binding::Value);
    }

    fn stmts(&mut self, body: &[ast::Stmt]) {
        body.iter().for_each(|s| self.stmt(s));
    }

    fn arguments_outer(&mut self, args: &ast::Arguments) {
        // Defaults and annotations are evaluated in the enclosing scope.
        let all = args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs);
        for arg in all {
            self.opt(&arg.default);
            self.opt(&arg.def.annotation);
        }
        for arg in args.vararg.iter().chain(&args.kwarg) {
            self.opt(&arg.annotation);
        }
    }

    fn opt(&mut self, expr: &Option<Box<ast::Expr>>) {
        if let Some(expr) = expr {
            self.expr(expr, true);
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt) {
        use ast::Stmt as S;
        let offset = stmt.range().start().to_usize();
        match stmt {
            S::FunctionDef(f) => {
                f.decorator_list.iter().for_each(|e| self.expr(e, true));
                self.arguments_outer(&f.args);
                self.opt(&f.returns);
                self.bind_identifier(f.name.as_str(), offset);
            }
            S::AsyncFunctionDef(f) => {
                f.decorator_list.iter().for_each(|e| self.expr(e, true));
                self.arguments_outer(&f.args);
                self.opt(&f.returns);
                self.bind_identifier(f.name.as_str(), offset);
            }
            S::ClassDef(c) => {
                c.decorator_list.iter().for_each(|e| self.expr(e, true));
                c.bases.iter().for_each(|e| self.expr(e, true));
                c.keywords.iter().for_each(|k| self.expr(&k.value, true));
                self.bind_identifier(c.name.as_str(), offset);
            }
            S::Return(r) => self.opt(&r.value),
            S::Delete(d) => d.targets.iter().for_each(|t| self.target(t)),
            S::Assign(a) => {
                self.expr(&a.value, true);
                a.targets.iter().for_each(|t| self.target(t));
            }
            S::TypeAlias(t) => {
                self.expr(&t.value, true);
                self.target(&t.name);
            }
            S::AugAssign(a) => {
                self.expr(&a.value, true);
                self.target(&a.target);
            }
            S::AnnAssign(a) => {
                self.expr(&a.annotation, true);
                self.opt(&a.value);
                self.target(&a.target);
            }
            S::For(f) => {
                self.expr(&f.iter, true);
                self.target(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            S::AsyncFor(f) => {
                self.expr(&f.iter, true);
                self.target(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            S::While(w) => {
                self.expr(&w.test, true);
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            S::If(i) => {
                self.expr(&i.test, true);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            S::With(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr, true);
                    if let Some(vars) = &item.optional_vars {
                        self.target(vars);
                    }
                }
                self.stmts(&w.body);
            }
            S::AsyncWith(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr, true);
                    if let Some(vars) = &item.optional_vars {
                        self.target(vars);
                    }
                }
                self.stmts(&w.body);
            }
            S::Match(m) => {
                self.expr(&m.subject, true);
                for case in &m.cases {
                    self.pattern(&case.pattern);
                    self.opt(&case.guard);
                    self.stmts(&case.body);
                }
            }
            S::Raise(r) => {
                self.opt(&r.exc);
                self.opt(&r.cause);
            }
            S::Try(t) => self.try_parts(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            S::TryStar(t) => self.try_parts(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            S::Assert(a) => {
                self.expr(&a.test, true);
                self.opt(&a.msg);
            }
            S::Import(i) => {
                for alias in &i.names {
                    let module = normalize(alias.name.as_str()).into_owned();
                    let (bound, binding) = match &alias.asname {
                        Some(asname) => (
                            normalize(asname.as_str()).into_owned(),
                            policy::module(&module).map_or(Binding::Value, Binding::Module),
                        ),
                        None => {
                            let root = module.split('.').next().unwrap_or(&module).to_owned();
                            let binding =
                                policy::module(&root).map_or(Binding::Value, Binding::Module);
                            (root, binding)
                        }
                    };
                    self.occurs(&bound, offset);
                    self.bind(bound, binding);
                }
            }
            S::ImportFrom(i) => {
                for alias in &i.names {
                    if alias.name.as_str() == "*" {
                        continue;
                    }
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    let module = i
                        .module
                        .as_ref()
                        .filter(|_| i.level.is_none_or(|level| level.to_u32() == 0))
                        .and_then(|module| policy::module(&normalize(module.as_str())));
                    let member = normalize(alias.name.as_str());
                    let binding = module
                        .and_then(|spec| {
                            let member = spec.members.iter().find(|m| **m == member)?;
                            Some(Binding::Member(spec, member))
                        })
                        .unwrap_or(Binding::Value);
                    let normalized = normalize(bound.as_str()).into_owned();
                    self.occurs(&normalized, offset);
                    self.bind(normalized, binding);
                }
            }
            S::Global(g) => {
                for name in &g.names {
                    let normalized = normalize(name.as_str()).into_owned();
                    self.globals
                        .entry(normalized)
                        .and_modify(|last| *last = (*last).max(offset))
                        .or_insert(offset);
                }
            }
            S::Nonlocal(n) => {
                for name in &n.names {
                    let normalized = normalize(name.as_str()).into_owned();
                    // The last declaration: a use before any of them is CPython's error
                    // ("used prior to nonlocal declaration"), even after an earlier one.
                    self.nonlocals
                        .entry(normalized)
                        .and_modify(|last| *last = (*last).max(offset))
                        .or_insert(offset);
                }
            }
            S::Expr(e) => self.expr(&e.value, true),
            S::Pass(_) | S::Break(_) | S::Continue(_) => {}
        }
    }

    fn try_parts(
        &mut self,
        body: &[ast::Stmt],
        handlers: &[ast::ExceptHandler],
        orelse: &[ast::Stmt],
        finalbody: &[ast::Stmt],
    ) {
        self.stmts(body);
        for ast::ExceptHandler::ExceptHandler(handler) in handlers {
            self.opt(&handler.type_);
            if let Some(name) = &handler.name {
                self.bind_identifier(name.as_str(), handler.range.start().to_usize());
            }
            self.stmts(&handler.body);
        }
        self.stmts(orelse);
        self.stmts(finalbody);
    }

    fn pattern(&mut self, pattern: &ast::Pattern) {
        use ast::Pattern as P;
        let offset = pattern.range().start().to_usize();
        match pattern {
            P::MatchValue(v) => self.expr(&v.value, true),
            P::MatchSingleton(_) => {}
            P::MatchSequence(s) => s.patterns.iter().for_each(|p| self.pattern(p)),
            P::MatchMapping(m) => {
                m.keys.iter().for_each(|k| self.expr(k, true));
                m.patterns.iter().for_each(|p| self.pattern(p));
                if let Some(rest) = &m.rest {
                    self.bind_identifier(rest.as_str(), offset);
                }
            }
            P::MatchClass(c) => {
                self.expr(&c.cls, true);
                c.patterns
                    .iter()
                    .chain(&c.kwd_patterns)
                    .for_each(|p| self.pattern(p));
            }
            P::MatchStar(s) => {
                if let Some(name) = &s.name {
                    self.bind_identifier(name.as_str(), offset);
                }
            }
            P::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
                if let Some(name) = &a.name {
                    self.bind_identifier(name.as_str(), offset);
                }
            }
            P::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p)),
        }
    }

    /// Scans an expression of this block for walrus targets and name occurrences.
    /// `same_block` is false inside comprehensions, whose other names belong to their own scope.
    fn expr(&mut self, expr: &ast::Expr, same_block: bool) {
        use ast::Expr as E;
        match expr {
            E::Name(name) => {
                if same_block {
                    let normalized = normalize(name.id.as_str());
                    self.occurs(&normalized, name.range.start().to_usize());
                }
            }
            E::NamedExpr(n) => {
                self.expr(&n.value, same_block);
                if let E::Name(name) = &*n.target {
                    self.bind_identifier(name.id.as_str(), name.range.start().to_usize());
                }
            }
            E::Lambda(l) => self.arguments_outer(&l.args),
            E::ListComp(c) => self.comprehension(&c.generators, [&*c.elt], same_block),
            E::SetComp(c) => self.comprehension(&c.generators, [&*c.elt], same_block),
            E::GeneratorExp(c) => self.comprehension(&c.generators, [&*c.elt], same_block),
            E::DictComp(c) => self.comprehension(&c.generators, [&*c.key, &*c.value], same_block),
            E::BoolOp(b) => b.values.iter().for_each(|e| self.expr(e, same_block)),
            E::BinOp(b) => {
                self.expr(&b.left, same_block);
                self.expr(&b.right, same_block);
            }
            E::UnaryOp(u) => self.expr(&u.operand, same_block),
            E::IfExp(i) => {
                self.expr(&i.test, same_block);
                self.expr(&i.body, same_block);
                self.expr(&i.orelse, same_block);
            }
            E::Dict(d) => {
                d.keys
                    .iter()
                    .flatten()
                    .for_each(|e| self.expr(e, same_block));
                d.values.iter().for_each(|e| self.expr(e, same_block));
            }
            E::Set(s) => s.elts.iter().for_each(|e| self.expr(e, same_block)),
            E::Await(a) => self.expr(&a.value, same_block),
            E::Yield(y) => {
                if let Some(v) = &y.value {
                    self.expr(v, same_block);
                }
            }
            E::YieldFrom(y) => self.expr(&y.value, same_block),
            E::Compare(c) => {
                self.expr(&c.left, same_block);
                c.comparators.iter().for_each(|e| self.expr(e, same_block));
            }
            E::Call(c) => {
                self.expr(&c.func, same_block);
                c.args.iter().for_each(|e| self.expr(e, same_block));
                c.keywords
                    .iter()
                    .for_each(|k| self.expr(&k.value, same_block));
            }
            E::FormattedValue(f) => {
                self.expr(&f.value, same_block);
                if let Some(spec) = &f.format_spec {
                    self.expr(spec, same_block);
                }
            }
            E::JoinedStr(j) => j.values.iter().for_each(|e| self.expr(e, same_block)),
            E::Attribute(a) => self.expr(&a.value, same_block),
            E::Subscript(s) => {
                self.expr(&s.value, same_block);
                self.expr(&s.slice, same_block);
            }
            E::Starred(s) => self.expr(&s.value, same_block),
            E::List(l) => l.elts.iter().for_each(|e| self.expr(e, same_block)),
            E::Tuple(t) => t.elts.iter().for_each(|e| self.expr(e, same_block)),
            E::Slice(s) => {
                for part in [&s.lower, &s.upper, &s.step].into_iter().flatten() {
                    self.expr(part, same_block);
                }
            }
            E::Constant(_) => {}
        }
    }

    fn comprehension<'e>(
        &mut self,
        generators: &'e [ast::Comprehension],
        elements: impl IntoIterator<Item = &'e ast::Expr>,
        same_block: bool,
    ) {
        // The first iterable is evaluated in this block; everything else in the comprehension's
        // own scope, where only walrus targets reach out to this block.
        for (i, generator) in generators.iter().enumerate() {
            self.expr(&generator.iter, same_block && i == 0);
            generator.ifs.iter().for_each(|e| self.expr(e, false));
        }
        elements.into_iter().for_each(|e| self.expr(e, false));
    }
}

/// The names `global` statements declare in the functions of `body` (nested ones included),
/// `in_function` telling whether `body` is itself a function's.
fn global_declarations(body: &[ast::Stmt], in_function: bool, out: &mut Vec<String>) {
    use ast::Stmt as S;
    for stmt in body {
        match stmt {
            S::Global(g) if in_function => {
                out.extend(g.names.iter().map(|n| normalize(n.as_str()).into_owned()))
            }
            S::FunctionDef(f) => global_declarations(&f.body, true, out),
            S::AsyncFunctionDef(f) => global_declarations(&f.body, true, out),
            S::ClassDef(c) => global_declarations(&c.body, true, out),
            S::If(b) => {
                global_declarations(&b.body, in_function, out);
                global_declarations(&b.orelse, in_function, out);
            }
            S::For(b) => {
                global_declarations(&b.body, in_function, out);
                global_declarations(&b.orelse, in_function, out);
            }
            S::While(b) => {
                global_declarations(&b.body, in_function, out);
                global_declarations(&b.orelse, in_function, out);
            }
            S::With(b) => global_declarations(&b.body, in_function, out),
            S::Try(t) => {
                global_declarations(&t.body, in_function, out);
                for handler in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    global_declarations(&h.body, in_function, out);
                }
                global_declarations(&t.orelse, in_function, out);
                global_declarations(&t.finalbody, in_function, out);
            }
            _ => {}
        }
    }
}
