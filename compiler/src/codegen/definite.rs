//! Definite assignment of a function's own plain (non-cell) locals, so that reading one that
//! every path to the read has assigned skips the unbound test (`UnboundLocalError`).
//!
//! The generator emits statements in order; this tracks, at the point being emitted, which
//! locals are assigned on every path there. Merges are conservative: after an `if` only what
//! both branches assign; after a loop or inside its `else` only what was assigned before the
//! loop (the body may run zero times); in an `except` handler or a `finally` body entered by an
//! exception, only what was assigned before the `try`; after `try` the meet of the normal
//! end and every handler's end. A walrus target is never counted (its expression may be
//! conditional), nor is any name the function ever unbinds (`del x`, `except E as x`), so a
//! loop cannot carry an unbinding into its next iteration unseen. Locals of other scopes
//! (closures' cells, variables of enclosing functions) are always tested.

use std::collections::HashSet;

use rustpython_parser::ast;

use super::scopes::ScopeId;
use crate::check::normalize;

/// Locals assigned on every path to the current point, of one wasm function: by scope and name,
/// since a comprehension emitted inline has locals of its own scope in the same function.
#[derive(Debug, Default, Clone)]
pub(super) struct Definite {
    assigned: HashSet<(ScopeId, String)>,
    /// Names the function unbinds somewhere: never counted as assigned.
    unbinds: HashSet<String>,
}

/// The assigned locals at one point, to return to after a branch.
pub(super) type Snapshot = HashSet<(ScopeId, String)>;

impl Definite {
    /// Tracking for a function whose body is `body` (parameters are added by the caller).
    pub(super) fn new(body: &[ast::Stmt]) -> Self {
        let mut unbinds = HashSet::new();
        collect_unbinds(body, &mut unbinds);
        Self {
            assigned: HashSet::new(),
            unbinds,
        }
    }

    pub(super) fn assign(&mut self, scope: ScopeId, name: &str) {
        if !self.unbinds.contains(name) {
            self.assigned.insert((scope, name.to_owned()));
        }
    }

    pub(super) fn is_assigned(&self, scope: ScopeId, name: &str) -> bool {
        self.assigned.contains(&(scope, name.to_owned()))
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        self.assigned.clone()
    }

    pub(super) fn restore(&mut self, snapshot: Snapshot) {
        self.assigned = snapshot;
    }

    /// Keeps only what is also assigned in `other` (two paths joining).
    pub(super) fn meet(&mut self, other: &Snapshot) {
        self.assigned.retain(|name| other.contains(name));
    }

    /// Adds what `other` assigns (code that runs after both, such as a `finally` body).
    pub(super) fn join(&mut self, other: &Snapshot) {
        self.assigned.extend(other.iter().cloned());
    }
}

/// The names `del` and `except ... as` unbind in `body`, nested blocks included (not nested
/// functions: those are other scopes).
fn collect_unbinds(body: &[ast::Stmt], out: &mut HashSet<String>) {
    use ast::Stmt as S;
    for stmt in body {
        match stmt {
            S::Delete(d) => d.targets.iter().for_each(|t| deleted_names(t, out)),
            S::If(s) => {
                collect_unbinds(&s.body, out);
                collect_unbinds(&s.orelse, out);
            }
            S::While(s) => {
                collect_unbinds(&s.body, out);
                collect_unbinds(&s.orelse, out);
            }
            S::For(s) => {
                collect_unbinds(&s.body, out);
                collect_unbinds(&s.orelse, out);
            }
            S::With(s) => collect_unbinds(&s.body, out),
            S::Try(s) => {
                collect_unbinds(&s.body, out);
                for ast::ExceptHandler::ExceptHandler(handler) in &s.handlers {
                    if let Some(name) = &handler.name {
                        out.insert(normalize(name.as_str()).into_owned());
                    }
                    collect_unbinds(&handler.body, out);
                }
                collect_unbinds(&s.orelse, out);
                collect_unbinds(&s.finalbody, out);
            }
            _ => {}
        }
    }
}

fn deleted_names(target: &ast::Expr, out: &mut HashSet<String>) {
    match target {
        ast::Expr::Name(n) => {
            out.insert(normalize(n.id.as_str()).into_owned());
        }
        ast::Expr::Tuple(t) => t.elts.iter().for_each(|e| deleted_names(e, out)),
        ast::Expr::List(l) => l.elts.iter().for_each(|e| deleted_names(e, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(source: &str) -> Vec<ast::Stmt> {
        match rustpython_parser::parse(source, rustpython_parser::Mode::Module, "<test>") {
            Ok(ast::Mod::Module(module)) => module.body,
            other => panic!("not a module: {other:?}"),
        }
    }

    #[test]
    fn unbinding_names_are_never_counted() {
        let source = "for i in r:\n    if c:\n        del a, [b]\n    try:\n        pass\n    except E as e:\n        pass\ndef g():\n    del inner\n";
        let mut definite = Definite::new(&body(source));
        for name in ["a", "b", "e", "inner", "kept"] {
            definite.assign(0, name);
        }
        // `inner` is deleted by the nested function, a scope of its own.
        let assigned: Vec<&str> = ["a", "b", "e", "inner", "kept"]
            .into_iter()
            .filter(|name| definite.is_assigned(0, name))
            .collect();
        assert_eq!(assigned, ["inner", "kept"]);
        // Scopes are told apart: a comprehension's `x` is not the function's.
        definite.assign(1, "x");
        assert!(definite.is_assigned(1, "x") && !definite.is_assigned(0, "x"));
    }

    #[test]
    fn meet_keeps_what_both_paths_assign_and_join_adds() {
        let mut definite = Definite::default();
        definite.assign(0, "both");
        definite.assign(0, "left");
        let mut right = Definite::default();
        right.assign(0, "both");
        right.assign(0, "right");
        definite.meet(&right.snapshot());
        assert!(definite.is_assigned(0, "both"));
        assert!(!definite.is_assigned(0, "left") && !definite.is_assigned(0, "right"));
        definite.join(&right.snapshot());
        assert!(definite.is_assigned(0, "right"));
    }
}
