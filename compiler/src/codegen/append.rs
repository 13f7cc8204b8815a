//! Appending to a str variable in place: `name += value` and `name = name + value`.
//!
//! CPython makes a loop of `s += t` linear by resizing the str in place when it holds the only
//! reference. Baton has no reference counts, so it keeps the fact in the str itself: the
//! runtime's `$str_append` (runtime/wat/str.wat) returns a str with room to grow, marked as
//! referred to by its variable alone, and appends into that room while the mark holds. The mark
//! holds as long as the compiler routes every other read of such a variable through
//! `$str_share`, which clears it — which is what this module decides: the append targets of a
//! module are the names assigned by such a statement anywhere in it (a name, not a place: a
//! shared read of an unrelated variable of the same name costs a call and nothing else).
//!
//! Appends whose value is a number literal (`count += 1`) are not str appends and leave their
//! name alone, so counters keep plain reads. A closure's variable (a cell) is never appended
//! to in place: its reads go through the cell, which the compiler does not route.

use std::collections::HashSet;

use rustpython_parser::ast;

use crate::check::normalize;

/// The append targets of a module body (nested functions included).
#[derive(Debug, Default)]
pub(super) struct AppendTargets {
    names: HashSet<String>,
}

impl AppendTargets {
    pub(super) fn find(body: &[ast::Stmt]) -> AppendTargets {
        let mut targets = AppendTargets::default();
        targets.stmts(body);
        targets
    }

    pub(super) fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    fn stmts(&mut self, body: &[ast::Stmt]) {
        for stmt in body {
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt) {
        use ast::Stmt as S;
        if let Some((name, _)) = append_statement(stmt) {
            self.names.insert(name);
        }
        match stmt {
            S::FunctionDef(f) => self.stmts(&f.body),
            S::For(f) => {
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            S::While(w) => {
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            S::If(i) => {
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            S::Try(t) => {
                self.stmts(&t.body);
                for ast::ExceptHandler::ExceptHandler(handler) in &t.handlers {
                    self.stmts(&handler.body);
                }
                self.stmts(&t.orelse);
                self.stmts(&t.finalbody);
            }
            _ => {}
        }
    }
}

/// `name += value` (`true`) or `name = name + value` (`false`) with a value that may be a str:
/// the name, and which form.
pub(super) fn append_statement(stmt: &ast::Stmt) -> Option<(String, bool)> {
    let (target, value, aug) = match stmt {
        ast::Stmt::AugAssign(a) if a.op == ast::Operator::Add => (&*a.target, &*a.value, true),
        ast::Stmt::Assign(a) if a.targets.len() == 1 => {
            let ast::Expr::BinOp(b) = &*a.value else {
                return None;
            };
            let (ast::Expr::Name(left), ast::Operator::Add) = (&*b.left, b.op) else {
                return None;
            };
            let ast::Expr::Name(target) = &a.targets[0] else {
                return None;
            };
            if normalize(left.id.as_str()) != normalize(target.id.as_str()) {
                return None;
            }
            (&a.targets[0], &*b.right, false)
        }
        _ => return None,
    };
    let ast::Expr::Name(name) = target else {
        return None;
    };
    may_be_str(value).then(|| (normalize(name.id.as_str()).into_owned(), aug))
}

/// Whether an appended value may be a str: anything but a number literal.
pub(super) fn may_be_str(value: &ast::Expr) -> bool {
    !matches!(value, ast::Expr::Constant(c) if matches!(
        c.value,
        ast::Constant::Int(_) | ast::Constant::Float(_) | ast::Constant::Bool(_)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustpython_parser::{ast, Parse};

    fn targets(source: &str) -> AppendTargets {
        let body = ast::Suite::parse(source, "<test>").expect("parses");
        AppendTargets::find(&body)
    }

    #[test]
    fn str_appends_anywhere_are_targets_and_counters_are_not() {
        let found = targets(
            "log = ''\nfor i in range(3):\n    log += str(i)\ndef f():\n    if True:\n        s = s + 'x'\n    n += 1\n    m = m + 2\n    t = u + 'x'\n",
        );
        assert!(found.contains("log") && found.contains("s"));
        assert!(!found.contains("n") && !found.contains("m") && !found.contains("t"));
    }
}
