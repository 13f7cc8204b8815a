//! B502 (a warning): a function made in a loop or a comprehension that reads the loop's
//! variable, and is then passed on or stored, reads the variable when it *runs* — by then the
//! loop has moved on, so every such function sees the last value.
//!
//! Why: fan-out is what plans do, and this is its classic mistake (ruff's B023):
//!
//! ```python
//! branch([lambda: llm(f"attempt {i}") for i in range(4)])    # all four ask "attempt 3"
//! branch([lambda i=i: llm(f"attempt {i}") for i in range(4)])  # each its own i
//! ```
//!
//! Reported for a lambda in a comprehension's element, and, inside a `for` loop's body, for a
//! lambda or a nested `def` handed to `branch`, `parallel`, a list's `append`, `extend` or
//! `insert`, or stored into a subscript or attribute. A lambda called on the spot, or passed to
//! a function that calls it at once (`sorted(xs, key=lambda x: x[i])`), is not reported. A
//! warning never rejects a plan (`--deny-warnings` makes it an error).

use std::collections::HashSet;

use rustpython_parser::ast::{self, Ranged};

use super::normalize;
use crate::diagnostic::{Code, Diagnostic, Span};

/// The B502 warnings of a plan.
pub fn check(body: &[ast::Stmt]) -> Vec<Diagnostic> {
    let mut walk = Walk::default();
    walk.stmts(body);
    walk.found
}

#[derive(Default)]
struct Walk {
    /// Variables of the `for` loops around the current statement, in the current function.
    loop_vars: Vec<Vec<String>>,
    found: Vec<Diagnostic>,
}

/// Calls whose callable arguments run later (or elsewhere): handing a closure to one of these
/// from a loop is storing it.
fn keeps_callables(func: &ast::Expr) -> bool {
    let name = match func {
        ast::Expr::Name(name) => name.id.as_str(),
        ast::Expr::Attribute(attribute) => attribute.attr.as_str(),
        _ => return false,
    };
    matches!(
        name,
        "branch" | "parallel" | "append" | "extend" | "insert" | "setdefault" | "add"
    )
}

impl Walk {
    fn stmts(&mut self, body: &[ast::Stmt]) {
        for stmt in body {
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt) {
        use ast::Stmt as S;
        match stmt {
            S::For(f) => {
                self.expr(&f.iter);
                let mut vars = Vec::new();
                targets(&f.target, &mut vars);
                self.loop_vars.push(vars);
                self.loop_body(&f.body);
                self.loop_vars.pop();
                self.stmts(&f.orelse);
            }
            S::FunctionDef(def) => {
                // A function's body is a new scope: the loops around the definition are not
                // its loops (its late reads are judged where it is stored, in `loop_body`).
                let saved = std::mem::take(&mut self.loop_vars);
                self.stmts(&def.body);
                self.loop_vars = saved;
            }
            S::Assign(a) => {
                self.expr(&a.value);
                let stored = a
                    .targets
                    .iter()
                    .any(|t| matches!(t, ast::Expr::Subscript(_) | ast::Expr::Attribute(_)));
                if stored {
                    self.stored(&a.value);
                }
            }
            _ => {
                for_each_child_stmt(stmt, &mut |s| self.stmt(s));
                for_each_stmt_expr(stmt, &mut |e| self.expr(e));
            }
        }
    }

    /// A `for` loop's body: also the `def`s made in it and then handed on.
    fn loop_body(&mut self, body: &[ast::Stmt]) {
        self.stmts(body);
        let defs: Vec<&ast::StmtFunctionDef> = body
            .iter()
            .filter_map(|s| match s {
                ast::Stmt::FunctionDef(def) => Some(def),
                _ => None,
            })
            .collect();
        for def in defs {
            let name = def.name.as_str();
            let mut handed_on = false;
            for stmt in body {
                for_each_stmt_expr(stmt, &mut |e| {
                    if passes_name(e, name) {
                        handed_on = true;
                    }
                });
            }
            if handed_on {
                let mut reads = HashSet::new();
                for stmt in &def.body {
                    stmt_reads(stmt, &mut reads);
                }
                let params = parameters(&def.args);
                let vars: Vec<String> = self.loop_vars.iter().flatten().cloned().collect();
                self.report(
                    &reads,
                    &vars,
                    &params,
                    def.range().into(),
                    "a function defined",
                );
            }
        }
    }

    fn expr(&mut self, expr: &ast::Expr) {
        use ast::Expr as E;
        match expr {
            E::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            E::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            E::GeneratorExp(c) => self.comprehension(&c.generators, &[&c.elt]),
            E::DictComp(c) => self.comprehension(&c.generators, &[&c.key, &c.value]),
            E::Call(call) => {
                // `(lambda: i)()` runs now; a callable handed to `branch` or `append` later.
                if !matches!(&*call.func, E::Lambda(_)) {
                    self.expr(&call.func);
                }
                for arg in &call.args {
                    self.expr(arg);
                }
                for keyword in &call.keywords {
                    self.expr(&keyword.value);
                }
                if keeps_callables(&call.func) {
                    for arg in call
                        .args
                        .iter()
                        .chain(call.keywords.iter().map(|k| &k.value))
                    {
                        self.stored(arg);
                    }
                }
            }
            E::Lambda(l) => {
                let saved = std::mem::take(&mut self.loop_vars);
                self.expr(&l.body);
                self.loop_vars = saved;
            }
            _ => for_each_child_expr(expr, &mut |e| self.expr(e)),
        }
    }

    fn comprehension(&mut self, generators: &[ast::Comprehension], elements: &[&ast::Expr]) {
        let mut vars = Vec::new();
        for generator in generators {
            self.expr(&generator.iter);
            targets(&generator.target, &mut vars);
            for condition in &generator.ifs {
                self.expr(condition);
            }
        }
        for element in elements {
            self.expr(element);
            if let ast::Expr::Lambda(lambda) = element {
                self.lambda_reads(lambda, &vars);
            }
        }
    }

    /// `value` is kept beyond this iteration: a lambda in it (directly or in a display) that
    /// reads a loop variable is reported.
    fn stored(&mut self, value: &ast::Expr) {
        let vars: Vec<String> = self.loop_vars.iter().flatten().cloned().collect();
        if vars.is_empty() {
            return;
        }
        match value {
            ast::Expr::Lambda(lambda) => self.lambda_reads(lambda, &vars),
            ast::Expr::List(ast::ExprList { elts, .. })
            | ast::Expr::Tuple(ast::ExprTuple { elts, .. }) => {
                for element in elts {
                    self.stored(element);
                }
            }
            _ => {}
        }
    }

    fn lambda_reads(&mut self, lambda: &ast::ExprLambda, vars: &[String]) {
        let mut reads = HashSet::new();
        expr_reads(&lambda.body, &mut reads);
        let params = parameters(&lambda.args);
        self.report(
            &reads,
            vars,
            &params,
            lambda.range().into(),
            "a lambda made",
        );
    }

    /// Reports `reads` that are loop variables (`vars`) and not the function's parameters.
    fn report(
        &mut self,
        reads: &HashSet<String>,
        vars: &[String],
        params: &[String],
        span: Span,
        what: &str,
    ) {
        let mut late: Vec<&String> = reads
            .iter()
            .filter(|name| vars.contains(name) && !params.contains(name))
            .collect();
        late.sort();
        let Some(first) = late.first() else {
            return;
        };
        let diagnostic = Diagnostic::warning(
            Code::LateBindingClosure,
            span,
            format!(
                "{what} in a loop reads the loop variable `{first}` when it runs, not when it was made: every one sees its last value"
            ),
        )
        .with_help(format!(
            "bind the current value with a default argument: `lambda {first}={first}: ...` (or `def f({first}={first}): ...`)"
        ));
        if !self.found.contains(&diagnostic) {
            self.found.push(diagnostic);
        }
    }
}

/// `name` handed on: an argument of a call that keeps callables, or inside a list or tuple
/// display that is one.
fn passes_name(expr: &ast::Expr, name: &str) -> bool {
    let is_name = |e: &ast::Expr| -> bool {
        match e {
            ast::Expr::Name(n) => n.id.as_str() == name,
            ast::Expr::List(ast::ExprList { elts, .. })
            | ast::Expr::Tuple(ast::ExprTuple { elts, .. }) => elts
                .iter()
                .any(|e| matches!(e, ast::Expr::Name(n) if n.id.as_str() == name)),
            _ => false,
        }
    };
    let mut found = false;
    visit(expr, &mut |e| {
        if let ast::Expr::Call(call) = e {
            if keeps_callables(&call.func)
                && call
                    .args
                    .iter()
                    .chain(call.keywords.iter().map(|k| &k.value))
                    .any(is_name)
            {
                found = true;
            }
        }
    });
    found
}

fn parameters(args: &ast::Arguments) -> Vec<String> {
    args.posonlyargs
        .iter()
        .chain(&args.args)
        .chain(&args.kwonlyargs)
        .map(|a| a.def.arg.to_string())
        .chain(args.vararg.iter().map(|a| a.arg.to_string()))
        .chain(args.kwarg.iter().map(|a| a.arg.to_string()))
        .map(|name| normalize(&name).into_owned())
        .collect()
}

fn targets(target: &ast::Expr, out: &mut Vec<String>) {
    match target {
        ast::Expr::Name(name) => out.push(normalize(name.id.as_str()).into_owned()),
        ast::Expr::Tuple(ast::ExprTuple { elts, .. })
        | ast::Expr::List(ast::ExprList { elts, .. }) => {
            elts.iter().for_each(|e| targets(e, out));
        }
        ast::Expr::Starred(s) => targets(&s.value, out),
        _ => {}
    }
}

/// The names an expression reads (nested lambdas included, minus their own parameters).
fn expr_reads(expr: &ast::Expr, out: &mut HashSet<String>) {
    match expr {
        ast::Expr::Name(name) if matches!(name.ctx, ast::ExprContext::Load) => {
            out.insert(normalize(name.id.as_str()).into_owned());
        }
        ast::Expr::Lambda(lambda) => {
            let mut inner = HashSet::new();
            expr_reads(&lambda.body, &mut inner);
            let params = parameters(&lambda.args);
            out.extend(inner.into_iter().filter(|n| !params.contains(n)));
        }
        _ => for_each_child_expr(expr, &mut |e| expr_reads(e, out)),
    }
}

fn stmt_reads(stmt: &ast::Stmt, out: &mut HashSet<String>) {
    for_each_stmt_expr(stmt, &mut |e| expr_reads(e, out));
    for_each_child_stmt(stmt, &mut |s| stmt_reads(s, out));
}

/// Calls `f` on `expr` and every expression inside it.
pub(crate) fn visit(expr: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    f(expr);
    for_each_child_expr(expr, &mut |e| visit(e, f));
}

/// The expressions directly inside `expr`.
fn for_each_child_expr(expr: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    use ast::Expr as E;
    match expr {
        E::BoolOp(b) => b.values.iter().for_each(f),
        E::NamedExpr(n) => {
            f(&n.target);
            f(&n.value);
        }
        E::BinOp(b) => {
            f(&b.left);
            f(&b.right);
        }
        E::UnaryOp(u) => f(&u.operand),
        E::Lambda(l) => f(&l.body),
        E::IfExp(i) => {
            f(&i.test);
            f(&i.body);
            f(&i.orelse);
        }
        E::Dict(d) => {
            d.keys.iter().flatten().for_each(&mut *f);
            d.values.iter().for_each(f);
        }
        E::Set(s) => s.elts.iter().for_each(f),
        E::List(l) => l.elts.iter().for_each(f),
        E::Tuple(t) => t.elts.iter().for_each(f),
        E::ListComp(c) => {
            f(&c.elt);
            generators(&c.generators, f);
        }
        E::SetComp(c) => {
            f(&c.elt);
            generators(&c.generators, f);
        }
        E::GeneratorExp(c) => {
            f(&c.elt);
            generators(&c.generators, f);
        }
        E::DictComp(c) => {
            f(&c.key);
            f(&c.value);
            generators(&c.generators, f);
        }
        E::Await(a) => f(&a.value),
        E::Yield(y) => y.value.iter().for_each(|v| f(v)),
        E::YieldFrom(y) => f(&y.value),
        E::Compare(c) => {
            f(&c.left);
            c.comparators.iter().for_each(f);
        }
        E::Call(c) => {
            f(&c.func);
            c.args.iter().for_each(&mut *f);
            c.keywords.iter().for_each(|k| f(&k.value));
        }
        E::FormattedValue(v) => {
            f(&v.value);
            v.format_spec.iter().for_each(|s| f(s));
        }
        E::JoinedStr(j) => j.values.iter().for_each(f),
        E::Attribute(a) => f(&a.value),
        E::Subscript(s) => {
            f(&s.value);
            f(&s.slice);
        }
        E::Starred(s) => f(&s.value),
        E::Slice(s) => {
            s.lower.iter().for_each(|e| f(e));
            s.upper.iter().for_each(|e| f(e));
            s.step.iter().for_each(|e| f(e));
        }
        E::Constant(_) | E::Name(_) => {}
    }
}

fn generators(generators: &[ast::Comprehension], f: &mut dyn FnMut(&ast::Expr)) {
    for generator in generators {
        f(&generator.target);
        f(&generator.iter);
        generator.ifs.iter().for_each(&mut *f);
    }
}

/// The expressions of `stmt` itself (not of the statements nested in it).
fn for_each_stmt_expr(stmt: &ast::Stmt, f: &mut dyn FnMut(&ast::Expr)) {
    use ast::Stmt as S;
    match stmt {
        S::Expr(e) => f(&e.value),
        S::Return(r) => r.value.iter().for_each(|v| f(v)),
        S::Assign(a) => {
            a.targets.iter().for_each(&mut *f);
            f(&a.value);
        }
        S::AugAssign(a) => {
            f(&a.target);
            f(&a.value);
        }
        S::AnnAssign(a) => {
            f(&a.target);
            a.value.iter().for_each(|v| f(v));
        }
        S::For(x) => {
            f(&x.target);
            f(&x.iter);
        }
        S::While(w) => f(&w.test),
        S::If(i) => f(&i.test),
        S::Raise(r) => {
            r.exc.iter().for_each(|e| f(e));
            r.cause.iter().for_each(|e| f(e));
        }
        S::Assert(a) => {
            f(&a.test);
            a.msg.iter().for_each(|m| f(m));
        }
        S::Delete(d) => d.targets.iter().for_each(f),
        S::FunctionDef(def) => {
            def.args.defaults().for_each(&mut *f);
        }
        _ => {}
    }
}

/// The statements directly inside `stmt`'s blocks (a `def`'s body included).
fn for_each_child_stmt(stmt: &ast::Stmt, f: &mut dyn FnMut(&ast::Stmt)) {
    use ast::Stmt as S;
    let blocks: Vec<&[ast::Stmt]> = match stmt {
        S::For(x) => vec![&x.body, &x.orelse],
        S::While(w) => vec![&w.body, &w.orelse],
        S::If(i) => vec![&i.body, &i.orelse],
        S::FunctionDef(def) => vec![&def.body],
        S::Try(t) => {
            let mut blocks: Vec<&[ast::Stmt]> = vec![&t.body, &t.orelse, &t.finalbody];
            for handler in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = handler;
                blocks.push(&h.body);
            }
            blocks
        }
        _ => Vec::new(),
    };
    for block in blocks {
        block.iter().for_each(&mut *f);
    }
}
