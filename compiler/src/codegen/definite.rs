//! Definite assignment, so that reading a name that every path to the read has bound skips the
//! unbound test (`UnboundLocalError`, `NameError`).
//!
//! The generator emits statements in order; this tracks, at the point being emitted, which
//! names are assigned on every path there. Merges are conservative: after an `if` only what
//! both branches assign; after a loop or inside its `else` only what was assigned before the
//! loop (the body may run zero times); in an `except` handler or a `finally` body entered by an
//! exception, only what was assigned before the `try`; after `try` the meet of the normal
//! end and every handler's end. A walrus target is never counted (its expression may be
//! conditional), nor is any name the function ever unbinds (`del x`, `except E as x`), so a
//! loop cannot carry an unbinding into its next iteration unseen.
//!
//! Two kinds of names are tracked:
//! - a function's own plain (non-cell) locals. Locals of other scopes (closures' cells,
//!   variables of enclosing functions) are always tested.
//! - module globals, under the key [`GLOBALS`]. A global that the module never unbinds
//!   anywhere (no `del g` and no `except E as g` in any scope of the module: see
//!   [`module_unbinds`]) stays bound once bound, so a read needs no test where it is
//!   definitely bound: in module code after its assignment, and in a function whose `def` (or
//!   lambda, or generator expression) ran after it, since the function cannot run before it
//!   exists ([`Definite::inherit_globals`]). The caller tests membership in the module's
//!   unbinds at the read.

use std::collections::HashSet;
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};
use rustpython_parser::ast;

use super::scopes::ScopeId;
use crate::check::normalize;

/// The key under which module globals are tracked (no scope has this id).
pub(super) const GLOBALS: ScopeId = ScopeId::MAX;

/// Names assigned on every path to the current point, of one wasm function: locals by scope and
/// name, since a comprehension emitted inline has locals of its own scope in the same function;
/// module globals under [`GLOBALS`].
#[derive(Debug, Default, Clone)]
pub(super) struct Definite {
    assigned: Snapshot,
    /// Names the function unbinds somewhere: never counted as assigned.
    unbinds: Rc<HashSet<String>>,
}

/// The assigned names at one point, to return to after a branch. The generator takes one at
/// every branch of a plan (thousands in a generated plan), so taking one costs a reference
/// count: the names are shared until a path assigns a name not yet among them, which copies
/// them once (`Rc::make_mut`).
pub(super) type Snapshot = Rc<Names>;

type Names = FxHashMap<ScopeId, FxHashSet<Rc<str>>>;

impl Definite {
    /// Tracking for a function whose body is `body` (parameters are added by the caller).
    pub(super) fn new(body: &[ast::Stmt]) -> Self {
        let mut unbinds = HashSet::new();
        collect_unbinds(body, &mut unbinds);
        Self {
            assigned: Snapshot::default(),
            unbinds: Rc::new(unbinds),
        }
    }

    pub(super) fn assign(&mut self, scope: ScopeId, name: &str) {
        if !self.unbinds.contains(name) {
            self.insert(scope, name);
        }
    }

    fn insert(&mut self, scope: ScopeId, name: &str) {
        if !self.is_assigned(scope, name) {
            self.add(scope, Rc::from(name));
        }
    }

    /// Adds a name known to be missing, copying the shared names first if a snapshot holds them.
    fn add(&mut self, scope: ScopeId, name: Rc<str>) {
        Rc::make_mut(&mut self.assigned)
            .entry(scope)
            .or_default()
            .insert(name);
    }

    /// [`Definite::insert`] of a name another tracking holds, sharing it.
    fn insert_shared(&mut self, scope: ScopeId, name: &Rc<str>) {
        if !self.is_assigned(scope, name) {
            self.add(scope, Rc::clone(name));
        }
    }

    pub(super) fn is_assigned(&self, scope: ScopeId, name: &str) -> bool {
        self.assigned
            .get(&scope)
            .is_some_and(|names| names.contains(name))
    }

    /// A module global bound here (the caller checks that the module never unbinds it).
    pub(super) fn assign_global(&mut self, name: &str) {
        self.insert(GLOBALS, name);
    }

    pub(super) fn is_global_bound(&self, name: &str) -> bool {
        self.is_assigned(GLOBALS, name)
    }

    /// Takes the module globals `creator` has bound at this point: this tracking is for a
    /// function created here, which cannot run before then.
    pub(super) fn inherit_globals(&mut self, creator: &Definite) {
        if let Some(globals) = creator.assigned.get(&GLOBALS) {
            for name in globals {
                self.insert_shared(GLOBALS, name);
            }
        }
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        Rc::clone(&self.assigned)
    }

    pub(super) fn restore(&mut self, snapshot: Snapshot) {
        self.assigned = snapshot;
    }

    /// Keeps only what is also assigned in `other` (two paths joining).
    pub(super) fn meet(&mut self, other: &Snapshot) {
        let missing = |scope: &ScopeId, names: &FxHashSet<Rc<str>>| match other.get(scope) {
            Some(theirs) => names.iter().any(|name| !theirs.contains(name)),
            None => !names.is_empty(),
        };
        if Rc::ptr_eq(&self.assigned, other)
            || !self
                .assigned
                .iter()
                .any(|(scope, names)| missing(scope, names))
        {
            return;
        }
        for (scope, names) in Rc::make_mut(&mut self.assigned) {
            match other.get(scope) {
                Some(theirs) => names.retain(|name| theirs.contains(name)),
                None => names.clear(),
            }
        }
    }

    /// Adds what `other` assigns (code that runs after both, such as a `finally` body).
    pub(super) fn join(&mut self, other: &Snapshot) {
        if Rc::ptr_eq(&self.assigned, other) {
            return;
        }
        for (scope, names) in other.iter() {
            for name in names {
                self.insert_shared(*scope, name);
            }
        }
    }
}

/// The names `del` and `except ... as` unbind in `body`, nested blocks included (not nested
/// functions: those are other scopes).
fn collect_unbinds(body: &[ast::Stmt], out: &mut HashSet<String>) {
    unbinds(body, false, out);
}

/// The names a module body unbinds anywhere: `del` and `except ... as` in every scope of it
/// (nested functions included, since one may declare the name `global`). A module global not
/// among them, once bound, stays bound for the rest of the run.
pub(super) fn module_unbinds(body: &[ast::Stmt]) -> HashSet<String> {
    let mut out = HashSet::new();
    unbinds(body, true, &mut out);
    out
}

/// The names `body` unbinds, looking into nested scopes (functions, classes) when
/// `into_scopes`.
fn unbinds(body: &[ast::Stmt], into_scopes: bool, out: &mut HashSet<String>) {
    use ast::Stmt as S;
    let handlers = |handlers: &[ast::ExceptHandler], out: &mut HashSet<String>| {
        for ast::ExceptHandler::ExceptHandler(handler) in handlers {
            if let Some(name) = &handler.name {
                out.insert(normalize(name.as_str()).into_owned());
            }
            unbinds(&handler.body, into_scopes, out);
        }
    };
    for stmt in body {
        match stmt {
            S::Delete(d) => d.targets.iter().for_each(|t| deleted_names(t, out)),
            S::If(s) => {
                unbinds(&s.body, into_scopes, out);
                unbinds(&s.orelse, into_scopes, out);
            }
            S::While(s) => {
                unbinds(&s.body, into_scopes, out);
                unbinds(&s.orelse, into_scopes, out);
            }
            S::For(s) => {
                unbinds(&s.body, into_scopes, out);
                unbinds(&s.orelse, into_scopes, out);
            }
            S::AsyncFor(s) => {
                unbinds(&s.body, into_scopes, out);
                unbinds(&s.orelse, into_scopes, out);
            }
            S::With(s) => unbinds(&s.body, into_scopes, out),
            S::AsyncWith(s) => unbinds(&s.body, into_scopes, out),
            S::Try(s) => {
                unbinds(&s.body, into_scopes, out);
                handlers(&s.handlers, out);
                unbinds(&s.orelse, into_scopes, out);
                unbinds(&s.finalbody, into_scopes, out);
            }
            S::TryStar(s) => {
                unbinds(&s.body, into_scopes, out);
                handlers(&s.handlers, out);
                unbinds(&s.orelse, into_scopes, out);
                unbinds(&s.finalbody, into_scopes, out);
            }
            S::Match(s) => s
                .cases
                .iter()
                .for_each(|case| unbinds(&case.body, into_scopes, out)),
            S::FunctionDef(s) if into_scopes => unbinds(&s.body, true, out),
            S::AsyncFunctionDef(s) if into_scopes => unbinds(&s.body, true, out),
            S::ClassDef(s) if into_scopes => unbinds(&s.body, true, out),
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
