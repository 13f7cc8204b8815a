//! The plan library: modules written in the plan language, embedded in the compiler and compiled
//! into the plans that import them (see `codegen::Library`): `baton.ttc` (`compiler/sdk/baton/`,
//! which `plans/baton` links to so that editors and CPython find the SDK stub beside it) and the standard modules plans reach for
//! (`compiler/stdlib/`: `math`, `re`, `shlex`, `textwrap`, `typing`), written to CPython 3.11's
//! documented behaviour. A library module is checked like any plan before it is compiled in,
//! except that it may import the internal runtime helpers (`_baton`).
//!
//! A module's member is the library module's global of that name; a name the module does not
//! define is the runtime builtin `<module>_<name>` (`math.sqrt` is `math_sqrt` in
//! runtime/wat/math.wat), so a module is written in whichever language suits each function.

use rustpython_parser::ast;

use crate::check::normalize;

/// (import name, file name shown in tracebacks, source) of each library module. A module
/// imports only modules listed before it.
pub const LIBRARY: &[(&str, &str, &str)] = &[
    ("math", "stdlib/math.py", include_str!("../stdlib/math.py")),
    ("re", "stdlib/re.py", include_str!("../stdlib/re.py")),
    (
        "shlex",
        "stdlib/shlex.py",
        include_str!("../stdlib/shlex.py"),
    ),
    (
        "textwrap",
        "stdlib/textwrap.py",
        include_str!("../stdlib/textwrap.py"),
    ),
    (
        "typing",
        "stdlib/typing.py",
        include_str!("../stdlib/typing.py"),
    ),
    (
        "baton.ttc",
        "baton/ttc.py",
        include_str!("../sdk/baton/ttc.py"),
    ),
];

/// A group of library functions that stand for functions CPython writes in C: their module, the
/// scope they are defined in (the prefix of their qualified name), what CPython shows before
/// their names (`math.`, `Match.`), their names (a trailing `_` is the library's, dropped in
/// messages), and those of them that are METH_VARARGS in CPython, which names them bare when
/// refusing keywords ("group() takes no keyword arguments").
struct CFunctions {
    module: &'static str,
    scope: &'static str,
    qualifier: &'static str,
    names: &'static [&'static str],
    varargs: &'static [&'static str],
}

/// The library functions whose argument errors are worded as CPython's C argument parsers word
/// them ("math.floor() takes exactly one argument (2 given)", "isclose() missing required
/// argument 'a' (pos 1)"; runtime/wat/call.wat, `$bind_c_check`), from the signature the library
/// writes to match CPython's: positional-only parameters (`/`) where CPython's are.
const C_FUNCTIONS: &[CFunctions] = &[
    CFunctions {
        module: "math",
        scope: "",
        qualifier: "math.",
        names: &[
            "floor",
            "ceil",
            "trunc",
            "degrees",
            "radians",
            "isqrt",
            "factorial",
            "gcd",
            "lcm",
            "perm",
            "comb",
            "prod",
            "fsum",
            "hypot",
            "dist",
            "isclose",
        ],
        varargs: &[],
    },
    CFunctions {
        module: "re",
        scope: "_make_pattern.<locals>.",
        qualifier: "Pattern.",
        names: &[
            "match",
            "search",
            "fullmatch",
            "finditer",
            "findall",
            "subn",
            "sub",
            "split",
        ],
        varargs: &[],
    },
    CFunctions {
        module: "re",
        scope: "_make_match.<locals>.",
        qualifier: "Match.",
        names: &[
            "group",
            "groups_",
            "groupdict",
            "start",
            "end",
            "span",
            "expand",
        ],
        varargs: &["group"],
    },
];

/// CPython's names for a library function that stands for one of its C functions.
pub struct CFunctionNames {
    /// The name (`groups`), as the keyword parser's messages show it.
    pub bare: String,
    /// The name as a refusal of keywords shows it: qualified (`Match.start`) but for a
    /// METH_VARARGS function, which CPython names bare (`group`).
    pub no_keywords: String,
    /// What CPython shows before the name where it names the callee (`Match.` in
    /// "Match.group() argument after ** must be a mapping").
    pub qualifier: &'static str,
}

/// For a function of library module `module` with qualified name `qualname`: when it stands for
/// a C function of CPython, CPython's names for it.
pub fn c_function(module: &str, qualname: &str) -> Option<CFunctionNames> {
    C_FUNCTIONS.iter().find_map(|group| {
        let name = qualname.strip_prefix(group.scope)?;
        if group.module != module || !group.names.contains(&name) {
            return None;
        }
        let bare = name.trim_end_matches('_').to_owned();
        let no_keywords = if group.varargs.contains(&name) {
            bare.clone()
        } else {
            format!("{}{bare}", group.qualifier)
        };
        Some(CFunctionNames {
            bare,
            no_keywords,
            qualifier: group.qualifier,
        })
    })
}

/// Whether `module` is a library module (written in the plan language).
pub fn is_library_module(module: &str) -> bool {
    LIBRARY.iter().any(|(name, _, _)| *name == module)
}

/// Whether `body` imports `module` anywhere (`import module` or `from module import ...`, in
/// functions and blocks too).
pub fn imports(body: &[ast::Stmt], module: &str) -> bool {
    body.iter().any(|stmt| stmt_imports(stmt, module))
}

fn dotted(name: &str) -> String {
    name.split('.')
        .map(|part| normalize(part).into_owned())
        .collect::<Vec<_>>()
        .join(".")
}

fn stmt_imports(stmt: &ast::Stmt, module: &str) -> bool {
    use ast::Stmt as S;
    let any = |body: &[ast::Stmt]| imports(body, module);
    match stmt {
        S::Import(i) => i
            .names
            .iter()
            .any(|alias| dotted(alias.name.as_str()) == module),
        S::ImportFrom(i) => {
            i.level.map_or(0, |level| level.to_u32()) == 0
                && i.module
                    .as_ref()
                    .is_some_and(|name| dotted(name.as_str()) == module)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check, policy, Limits, SourceFile};

    /// Every library module passes the check (as a library), and every member the checker lets
    /// a plan import is bound by the module or is the runtime's (`<module>_<name>` builtin or
    /// `<module>.<name>` type), so an import the checker accepts always compiles.
    #[test]
    fn every_member_of_a_library_module_exists() {
        let layout = &crate::runtime::RUNTIME;
        for (module, path, text) in LIBRARY {
            let file = SourceFile::new(*path, *text);
            let (diagnostics, body) = check::check_and_parse_library(&file, &Limits::default());
            let errors: Vec<_> = diagnostics
                .iter()
                .filter(|d| d.severity == crate::Severity::Error)
                .map(|d| d.message.clone())
                .collect();
            assert!(errors.is_empty(), "{module}: {errors:?}");
            let body = body.unwrap();
            let spec = policy::module(module).expect("a library module is in the policy");
            for member in spec.members {
                let bound = body.iter().any(|stmt| match stmt {
                    ast::Stmt::FunctionDef(f) => f.name.as_str() == *member,
                    ast::Stmt::Assign(a) => a
                        .targets
                        .iter()
                        .any(|t| matches!(t, ast::Expr::Name(n) if n.id.as_str() == *member)),
                    _ => false,
                });
                let builtin = format!("{}_{member}", module.replace('.', "_"));
                let runtime = layout.builtins.contains_key(builtin.as_str())
                    || layout
                        .types
                        .contains_key(format!("{module}.{member}").as_str());
                assert!(
                    bound || runtime,
                    "`{module}.{member}` is neither bound nor the runtime's"
                );
            }
        }
    }

    #[test]
    fn a_plan_may_not_import_the_internal_helpers() {
        let file = SourceFile::new(
            "p.py",
            "from _baton import type_name\nprint(type_name(1))\n",
        );
        let (diagnostics, _) = check::check_and_parse(&file, &Limits::default());
        assert!(
            diagnostics
                .iter()
                .any(|d| d.code == crate::Code::ForbiddenImport),
            "{diagnostics:?}"
        );
    }
}
