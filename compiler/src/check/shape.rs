//! The first walk over a parsed plan: how deep it nests and how many nodes it has. It stops
//! descending at the depth limit, so it is safe on any tree; every later walk runs only on trees
//! it has accepted, which bounds their recursion too.

use rustpython_parser::ast::{self, Ranged};

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::Limits;

pub fn measure(body: &[ast::Stmt], limits: &Limits) -> Option<Diagnostic> {
    let mut shape = Shape::new(limits);
    for stmt in body {
        // Each top-level statement is compiled on its own (the compiler splits a long module
        // body into several functions), so the per-function limit applies to each.
        shape.function_nodes.push(0);
        shape.stmt(stmt, 1);
        let nodes = shape.function_nodes.pop().unwrap_or(0);
        shape.check_function(nodes, stmt.range().into(), "this statement");
    }
    shape.problem
}

/// Syntax nodes of `body`, counted as [`measure`] counts them (for the compiler, which keeps
/// the functions it emits small: see `codegen::module_body`).
pub fn node_count(body: &[ast::Stmt]) -> usize {
    let limits = Limits {
        max_depth: usize::MAX,
        max_nodes: usize::MAX,
        max_function_nodes: usize::MAX,
        ..Limits::default()
    };
    let mut shape = Shape::new(&limits);
    shape.stmts(body, 1);
    shape.nodes
}

struct Shape<'l> {
    limits: &'l Limits,
    nodes: usize,
    /// Nodes of each function being walked (innermost last), not counting nested `def`s.
    function_nodes: Vec<usize>,
    problem: Option<Diagnostic>,
}

impl<'l> Shape<'l> {
    fn new(limits: &'l Limits) -> Self {
        Shape {
            limits,
            nodes: 0,
            function_nodes: Vec::new(),
            problem: None,
        }
    }

    /// Wasmtime's compile time and memory grow faster than linearly with the size of one
    /// function (its Wasm-to-CLIF translation keeps, for every block result, a map over the
    /// function's blocks: 4,000 calls in one body took 4.5 GB), so a plan's functions are
    /// bounded, not just the plan.
    fn check_function(&mut self, nodes: usize, span: Span, what: &str) {
        if self.problem.is_none() && nodes > self.limits.max_function_nodes {
            self.problem = Some(
                Diagnostic::error(
                    Code::FunctionTooLarge,
                    span,
                    format!(
                        "{what} has {nodes} syntax nodes; one function or top-level statement may have at most {}",
                        self.limits.max_function_nodes
                    ),
                )
                .with_help("split it into smaller functions, or move data into `inputs`"),
            );
        }
    }

    /// Counts a node at `depth`; false when the walk must not descend into it.
    fn enter(&mut self, depth: usize, span: Span) -> bool {
        if self.problem.is_some() {
            return false;
        }
        self.nodes += 1;
        if let Some(count) = self.function_nodes.last_mut() {
            *count += 1;
        }
        if depth > self.limits.max_depth {
            self.problem = Some(
                Diagnostic::error(
                    Code::NestingTooDeep,
                    span,
                    format!(
                        "the plan nests more than {} levels deep here",
                        self.limits.max_depth
                    ),
                )
                .with_help(
                    "split long expressions and deep blocks into helper functions and intermediate variables",
                ),
            );
            return false;
        }
        if self.nodes > self.limits.max_nodes {
            self.problem = Some(
                Diagnostic::error(
                    Code::TooManyNodes,
                    span,
                    format!(
                        "the plan has more than {} syntax nodes",
                        self.limits.max_nodes
                    ),
                )
                .with_help("split the plan into smaller plans or move data into `inputs`"),
            );
            return false;
        }
        true
    }

    fn stmts(&mut self, body: &[ast::Stmt], depth: usize) {
        for stmt in body {
            self.stmt(stmt, depth);
        }
    }

    fn exprs<'e>(&mut self, exprs: impl IntoIterator<Item = &'e ast::Expr>, depth: usize) {
        for expr in exprs {
            self.expr(expr, depth);
        }
    }

    fn opt(&mut self, expr: &Option<Box<ast::Expr>>, depth: usize) {
        if let Some(expr) = expr {
            self.expr(expr, depth);
        }
    }

    fn arguments(&mut self, args: &ast::Arguments, depth: usize) {
        let all = args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs);
        for arg in all {
            self.opt(&arg.default, depth);
            self.opt(&arg.def.annotation, depth);
        }
        for arg in args.vararg.iter().chain(&args.kwarg) {
            self.opt(&arg.annotation, depth);
        }
    }

    fn handlers(&mut self, handlers: &[ast::ExceptHandler], depth: usize) {
        for ast::ExceptHandler::ExceptHandler(handler) in handlers {
            self.opt(&handler.type_, depth);
            self.stmts(&handler.body, depth);
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt, depth: usize) {
        use ast::Stmt as S;
        if !self.enter(depth, stmt.range().into()) {
            return;
        }
        let d = depth + 1;
        match stmt {
            S::FunctionDef(f) => {
                self.exprs(&f.decorator_list, d);
                self.arguments(&f.args, d);
                self.opt(&f.returns, d);
                self.function_nodes.push(0);
                self.stmts(&f.body, d);
                let nodes = self.function_nodes.pop().unwrap_or(0);
                self.check_function(
                    nodes,
                    stmt.range().into(),
                    &format!("function `{}`", f.name),
                );
            }
            S::AsyncFunctionDef(f) => {
                self.exprs(&f.decorator_list, d);
                self.arguments(&f.args, d);
                self.opt(&f.returns, d);
                self.stmts(&f.body, d);
            }
            S::ClassDef(c) => {
                self.exprs(&c.decorator_list, d);
                self.exprs(&c.bases, d);
                self.exprs(c.keywords.iter().map(|k| &k.value), d);
                self.stmts(&c.body, d);
            }
            S::Return(r) => self.opt(&r.value, d),
            S::Delete(x) => self.exprs(&x.targets, d),
            S::Assign(a) => {
                self.exprs(&a.targets, d);
                self.expr(&a.value, d);
            }
            S::TypeAlias(t) => {
                self.expr(&t.name, d);
                self.expr(&t.value, d);
            }
            S::AugAssign(a) => {
                self.expr(&a.target, d);
                self.expr(&a.value, d);
            }
            S::AnnAssign(a) => {
                self.expr(&a.target, d);
                self.expr(&a.annotation, d);
                self.opt(&a.value, d);
            }
            S::For(f) => {
                self.expr(&f.target, d);
                self.expr(&f.iter, d);
                self.stmts(&f.body, d);
                self.stmts(&f.orelse, d);
            }
            S::AsyncFor(f) => {
                self.expr(&f.target, d);
                self.expr(&f.iter, d);
                self.stmts(&f.body, d);
                self.stmts(&f.orelse, d);
            }
            S::While(w) => {
                self.expr(&w.test, d);
                self.stmts(&w.body, d);
                self.stmts(&w.orelse, d);
            }
            S::If(i) => {
                self.expr(&i.test, d);
                self.stmts(&i.body, d);
                self.stmts(&i.orelse, d);
            }
            S::With(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr, d);
                    self.opt(&item.optional_vars, d);
                }
                self.stmts(&w.body, d);
            }
            S::AsyncWith(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr, d);
                    self.opt(&item.optional_vars, d);
                }
                self.stmts(&w.body, d);
            }
            S::Match(m) => {
                self.expr(&m.subject, d);
                for case in &m.cases {
                    self.pattern(&case.pattern, d);
                    self.opt(&case.guard, d);
                    self.stmts(&case.body, d);
                }
            }
            S::Raise(r) => {
                self.opt(&r.exc, d);
                self.opt(&r.cause, d);
            }
            S::Try(t) => {
                self.stmts(&t.body, d);
                self.handlers(&t.handlers, d);
                self.stmts(&t.orelse, d);
                self.stmts(&t.finalbody, d);
            }
            S::TryStar(t) => {
                self.stmts(&t.body, d);
                self.handlers(&t.handlers, d);
                self.stmts(&t.orelse, d);
                self.stmts(&t.finalbody, d);
            }
            S::Assert(a) => {
                self.expr(&a.test, d);
                self.opt(&a.msg, d);
            }
            S::Expr(e) => self.expr(&e.value, d),
            S::Import(_)
            | S::ImportFrom(_)
            | S::Global(_)
            | S::Nonlocal(_)
            | S::Pass(_)
            | S::Break(_)
            | S::Continue(_) => {}
        }
    }

    fn pattern(&mut self, pattern: &ast::Pattern, depth: usize) {
        use ast::Pattern as P;
        if !self.enter(depth, pattern.range().into()) {
            return;
        }
        let d = depth + 1;
        match pattern {
            P::MatchValue(v) => self.expr(&v.value, d),
            P::MatchSingleton(_) | P::MatchStar(_) => {}
            P::MatchSequence(s) => s.patterns.iter().for_each(|p| self.pattern(p, d)),
            P::MatchMapping(m) => {
                self.exprs(&m.keys, d);
                m.patterns.iter().for_each(|p| self.pattern(p, d));
            }
            P::MatchClass(c) => {
                self.expr(&c.cls, d);
                c.patterns
                    .iter()
                    .chain(&c.kwd_patterns)
                    .for_each(|p| self.pattern(p, d));
            }
            P::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p, d);
                }
            }
            P::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p, d)),
        }
    }

    fn comprehension(&mut self, generators: &[ast::Comprehension], depth: usize) {
        for generator in generators {
            self.expr(&generator.target, depth);
            self.expr(&generator.iter, depth);
            self.exprs(&generator.ifs, depth);
        }
    }

    fn expr(&mut self, expr: &ast::Expr, depth: usize) {
        use ast::Expr as E;
        if !self.enter(depth, expr.range().into()) {
            return;
        }
        let d = depth + 1;
        match expr {
            E::BoolOp(b) => self.exprs(&b.values, d),
            E::NamedExpr(n) => {
                self.expr(&n.target, d);
                self.expr(&n.value, d);
            }
            E::BinOp(b) => {
                self.expr(&b.left, d);
                self.expr(&b.right, d);
            }
            E::UnaryOp(u) => self.expr(&u.operand, d),
            E::Lambda(l) => {
                self.arguments(&l.args, d);
                self.expr(&l.body, d);
            }
            E::IfExp(i) => {
                self.expr(&i.test, d);
                self.expr(&i.body, d);
                self.expr(&i.orelse, d);
            }
            E::Dict(x) => {
                self.exprs(x.keys.iter().flatten(), d);
                self.exprs(&x.values, d);
            }
            E::Set(s) => self.exprs(&s.elts, d),
            E::ListComp(c) => {
                self.expr(&c.elt, d);
                self.comprehension(&c.generators, d);
            }
            E::SetComp(c) => {
                self.expr(&c.elt, d);
                self.comprehension(&c.generators, d);
            }
            E::DictComp(c) => {
                self.expr(&c.key, d);
                self.expr(&c.value, d);
                self.comprehension(&c.generators, d);
            }
            E::GeneratorExp(c) => {
                self.expr(&c.elt, d);
                self.comprehension(&c.generators, d);
            }
            E::Await(a) => self.expr(&a.value, d),
            E::Yield(y) => self.opt(&y.value, d),
            E::YieldFrom(y) => self.expr(&y.value, d),
            E::Compare(c) => {
                self.expr(&c.left, d);
                self.exprs(&c.comparators, d);
            }
            E::Call(c) => {
                self.expr(&c.func, d);
                self.exprs(&c.args, d);
                self.exprs(c.keywords.iter().map(|k| &k.value), d);
            }
            E::FormattedValue(f) => {
                self.expr(&f.value, d);
                self.opt(&f.format_spec, d);
            }
            E::JoinedStr(j) => self.exprs(&j.values, d),
            E::Attribute(a) => self.expr(&a.value, d),
            E::Subscript(s) => {
                self.expr(&s.value, d);
                self.expr(&s.slice, d);
            }
            E::Starred(s) => self.expr(&s.value, d),
            E::List(l) => self.exprs(&l.elts, d),
            E::Tuple(t) => self.exprs(&t.elts, d),
            E::Slice(s) => {
                self.opt(&s.lower, d);
                self.opt(&s.upper, d);
                self.opt(&s.step, d);
            }
            E::Constant(_) | E::Name(_) => {}
        }
    }
}
