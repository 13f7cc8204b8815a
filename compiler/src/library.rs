//! The plan library: modules written in the plan language under `plans/baton/` (`baton.ttc`),
//! embedded in the compiler and compiled into the plans that import from them (see
//! `codegen::Library`). A library module is checked like any plan before it is compiled in.

use rustpython_parser::ast;

use crate::check::normalize;

/// (import name, file name shown in tracebacks, source) of each library module.
pub const LIBRARY: &[(&str, &str, &str)] = &[(
    "baton.ttc",
    "baton/ttc.py",
    include_str!("../../plans/baton/ttc.py"),
)];

/// Whether `body` has a `from <module> import ...` anywhere (in functions and blocks too).
pub fn imports_from(body: &[ast::Stmt], module: &str) -> bool {
    body.iter().any(|stmt| stmt_imports_from(stmt, module))
}

fn stmt_imports_from(stmt: &ast::Stmt, module: &str) -> bool {
    use ast::Stmt as S;
    let any = |body: &[ast::Stmt]| imports_from(body, module);
    match stmt {
        S::ImportFrom(i) => {
            i.level.map_or(0, |level| level.to_u32()) == 0
                && i.module.as_ref().is_some_and(|name| {
                    name.as_str()
                        .split('.')
                        .map(|part| normalize(part).into_owned())
                        .collect::<Vec<_>>()
                        .join(".")
                        == module
                })
        }
        S::FunctionDef(f) => any(&f.body),
        S::If(s) => any(&s.body) || any(&s.orelse),
        S::For(s) => any(&s.body) || any(&s.orelse),
        S::While(s) => any(&s.body) || any(&s.orelse),
        S::Try(s) => {
            any(&s.body)
                || any(&s.orelse)
                || any(&s.finalbody)
                || s.handlers.iter().any(|handler| {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    any(&h.body)
                })
        }
        _ => false,
    }
}
