//! Whether the code of a generator expression consumed inline may raise StopIteration.
//!
//! A generator expression that a builtin consumes whole (`sum(x * 2 for x in xs)`, scopes.rs's
//! `consumed_genexp`, `joined_genexp`) is emitted as a loop in the function it is in, not as a
//! generator. What its code raises must still leave as it would leave a generator: a
//! StopIteration becomes RuntimeError (PEP 479, `$genexp_escape`). That takes a `try_table`
//! around the loop, and inside a `try_table` every call ends a block with an edge to the landing
//! pad: Cranelift took a quarter longer on some generated plans for it. The `try_table` is left
//! out where nothing in the loop's own code can raise StopIteration:
//!
//! - drawing the next item never does: an iterator's end is no exception here, and the
//!   iterators that run plan code end at a StopIteration that code raises (map, filter,
//!   `iter(callable, sentinel)`) or turn it into RuntimeError (a lazy generator expression);
//! - operators, subscripts and conversions of plan values run no plan code (plans define no
//!   classes);
//! - a call may, unless it is one of the builtins or methods below, called without keywords
//!   (a `key=` or `default=` function is called at once): none of them calls a function it is
//!   given, nor raises StopIteration itself.
//!
//! Anything else (a call of a plan function, `next()`, a method not listed, a nested
//! comprehension or lambda, whose names this does not resolve) keeps the `try_table`.

use rustpython_parser::ast;

use super::scopes::{Place, ScopeId, Scopes};
use crate::check::{normalize, visit_expr};

/// Builtins that call no function they are given and never raise StopIteration.
const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "ascii",
    "bin",
    "bool",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "hex",
    "int",
    "isinstance",
    "len",
    "list",
    "map",
    "max",
    "min",
    "oct",
    "ord",
    "pow",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "sorted",
    "str",
    "sum",
    "tuple",
    "zip",
];

/// Methods of str, int, float, list, dict and set (and json's functions) that call no function
/// they are given and never raise StopIteration. Not `sort` (`key=`), nor a generator's `send`.
const METHODS: &[&str] = &[
    "add",
    "append",
    "as_integer_ratio",
    "bit_count",
    "bit_length",
    "capitalize",
    "casefold",
    "center",
    "clear",
    "copy",
    "count",
    "difference",
    "discard",
    "dumps",
    "endswith",
    "extend",
    "find",
    "format",
    "get",
    "index",
    "insert",
    "intersection",
    "is_integer",
    "isalnum",
    "isalpha",
    "isdecimal",
    "isdigit",
    "isdisjoint",
    "islower",
    "isspace",
    "issubset",
    "issuperset",
    "istitle",
    "isupper",
    "items",
    "join",
    "keys",
    "ljust",
    "loads",
    "lower",
    "lstrip",
    "partition",
    "pop",
    "remove",
    "removeprefix",
    "removesuffix",
    "replace",
    "reverse",
    "rfind",
    "rindex",
    "rjust",
    "rpartition",
    "rsplit",
    "rstrip",
    "setdefault",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "swapcase",
    "symmetric_difference",
    "title",
    "union",
    "update",
    "upper",
    "values",
    "zfill",
];

/// Whether evaluating `expr` in `scope` may raise StopIteration (see the module docs; `true`
/// where this cannot tell).
pub(super) fn may_raise(scopes: &Scopes, scope: ScopeId, expr: &ast::Expr) -> bool {
    let mut may = false;
    visit_expr(expr, &mut |e| {
        may = may || unsafe_node(scopes, scope, e);
    });
    may
}

/// Whether `expr` itself (not what is inside it) may raise StopIteration.
fn unsafe_node(scopes: &Scopes, scope: ScopeId, expr: &ast::Expr) -> bool {
    use ast::Expr as E;
    match expr {
        E::Call(call) => {
            if !call.keywords.is_empty() {
                return true;
            }
            match call.func.as_ref() {
                E::Name(name) => {
                    let name = normalize(name.id.as_str());
                    !matches!(scopes.resolve(scope, &name), Place::Builtin(_))
                        || !BUILTINS.contains(&name.as_ref())
                }
                E::Attribute(attribute) => !METHODS.contains(&attribute.attr.as_str()),
                _ => true,
            }
        }
        E::Lambda(_)
        | E::ListComp(_)
        | E::SetComp(_)
        | E::DictComp(_)
        | E::GeneratorExp(_)
        | E::Await(_)
        | E::Yield(_)
        | E::YieldFrom(_) => true,
        _ => false,
    }
}
