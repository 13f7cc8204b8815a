//! The runtime's named static objects: type objects (with their bases, for `isinstance` and
//! `except` matching), exception classes, builtin functions, and the messages the runtime raises.
//! The assembler lays them out and gives WAT code a global with each one's address:
//! `$t_<name>` for types, `$bf_<name>` for builtin function objects, `$s_<name>` for messages.

/// A type object: its Python name, its base, and the builtin that runs when it is called.
#[derive(Debug, Clone, Copy)]
pub struct TypeSpec {
    pub name: &'static str,
    pub base: Option<&'static str>,
    /// The builtin function that `name(...)` calls, if the type is callable.
    pub constructor: Option<&'static str>,
    /// The object type id whose values have this type, if any.
    pub type_id: Option<u32>,
}

use crate::layout::type_id as id;

const fn ty(
    name: &'static str,
    base: Option<&'static str>,
    constructor: Option<&'static str>,
    type_id: Option<u32>,
) -> TypeSpec {
    TypeSpec {
        name,
        base,
        constructor,
        type_id,
    }
}

/// Value types, then exception classes in CPython's hierarchy. Exceptions have no constructor
/// builtin: calling an exception class builds an exception object.
pub const TYPES: &[TypeSpec] = &[
    ty("NoneType", None, None, Some(id::NONE)),
    ty("int", None, Some("int"), Some(id::INT)),
    ty("bool", Some("int"), Some("bool"), Some(id::BOOL)),
    ty("float", None, Some("float"), Some(id::FLOAT)),
    ty("str", None, Some("str"), Some(id::STR)),
    ty("tuple", None, Some("tuple"), Some(id::TUPLE)),
    ty("list", None, Some("list"), Some(id::LIST)),
    ty("dict", None, Some("dict"), Some(id::DICT)),
    ty("set", None, Some("set"), Some(id::SET)),
    // A frozenset is a set object marked at +36 (`$type_of` picks this type by the mark).
    ty("frozenset", None, Some("frozenset"), None),
    ty("function", None, None, Some(id::FUNCTION)),
    ty("cell", None, None, Some(id::CELL)),
    ty("type", None, None, Some(id::TYPE)),
    ty("builtin_function_or_method", None, None, Some(id::BUILTIN)),
    ty("method", None, None, Some(id::BOUND_METHOD)),
    // A method taken from its type (`list.append`): a bound method without a receiver.
    ty("method_descriptor", None, None, None),
    ty("range", None, Some("range"), Some(id::RANGE)),
    ty("slice", None, Some("slice"), Some(id::SLICE)),
    ty("iterator", None, None, Some(id::ITERATOR)),
    // Dict views share object type id 19; core.wat's `$type_of` picks one of these by the
    // view's kind (header `len`: 0 keys, 1 values, 2 items).
    // Lazy iterators (object type id 18 with a kind in the header's len; `$type_of` picks
    // one of these by it). Calling the type calls the builtin of the same name.
    ty("zip", None, Some("zip"), None),
    ty("map", None, Some("map"), None),
    ty("filter", None, Some("filter"), None),
    ty("enumerate", None, Some("enumerate"), None),
    ty("generator", None, None, None),
    ty("callable_iterator", None, None, None),
    // A container's iterator (object type id 18, kind 0): `$type_of` picks one of these by the
    // container, as CPython names them. `reversed(...)` iterates a reversed list copy whose
    // iterator keeps the type of CPython's reverse iterator at +20.
    ty("list_iterator", None, None, None),
    ty("tuple_iterator", None, None, None),
    ty("str_ascii_iterator", None, None, None),
    ty("str_iterator", None, None, None),
    ty("set_iterator", None, None, None),
    ty("range_iterator", None, None, None),
    ty("dict_keyiterator", None, None, None),
    ty("dict_valueiterator", None, None, None),
    ty("dict_itemiterator", None, None, None),
    ty("list_reverseiterator", None, None, None),
    ty("reversed", None, Some("reversed"), None),
    ty("dict_reversekeyiterator", None, None, None),
    ty("dict_reversevalueiterator", None, None, None),
    ty("dict_reverseitemiterator", None, None, None),
    ty("dict_keys", None, None, None),
    ty("dict_values", None, None, None),
    ty("dict_items", None, None, None),
    ty("BaseException", None, None, None),
    ty("Exception", Some("BaseException"), None, None),
    ty("ArithmeticError", Some("Exception"), None, None),
    ty("ZeroDivisionError", Some("ArithmeticError"), None, None),
    ty("OverflowError", Some("ArithmeticError"), None, None),
    ty("LookupError", Some("Exception"), None, None),
    ty("KeyError", Some("LookupError"), None, None),
    ty("IndexError", Some("LookupError"), None, None),
    ty("ValueError", Some("Exception"), None, None),
    ty("JSONDecodeError", Some("ValueError"), None, None),
    ty("UnicodeError", Some("ValueError"), None, None),
    ty("UnicodeEncodeError", Some("UnicodeError"), None, None),
    ty("TypeError", Some("Exception"), None, None),
    ty("NameError", Some("Exception"), None, None),
    ty("UnboundLocalError", Some("NameError"), None, None),
    ty("AttributeError", Some("Exception"), None, None),
    ty("AssertionError", Some("Exception"), None, None),
    ty("RuntimeError", Some("Exception"), None, None),
    ty("RecursionError", Some("RuntimeError"), None, None),
    ty("NotImplementedError", Some("RuntimeError"), None, None),
    ty("MemoryError", Some("Exception"), None, None),
    ty("TimeoutError", Some("Exception"), None, None),
    ty("StopIteration", Some("Exception"), None, None),
    // The SDK's exceptions (`from baton import BudgetExceeded`), raised by host calls.
    ty("BudgetExceeded", Some("Exception"), None, None),
    ty("LLMError", Some("Exception"), None, None),
    ty("SandboxError", Some("Exception"), None, None),
    ty("BranchError", Some("Exception"), None, None),
    // The cause of the exception `parallel` raises for a branch that raised: its message is the
    // branch's traceback. Plans do not name it (it is not in the SDK); tracebacks print it.
    ty("BranchTraceback", Some("Exception"), None, None),
    // Records host calls return (object type id 20; `$type_of` reads the type from the record).
    ty("BashResult", None, None, None),
    ty("Outcome", None, None, None),
    // typing's special forms (`from typing import Optional`): objects annotations may name and
    // subscript (annotations are not evaluated; a type alias is).
    ty("typing.Any", None, None, None),
    ty("typing.Callable", None, None, None),
    ty("typing.Generator", None, None, None),
    ty("typing.Iterable", None, None, None),
    ty("typing.Iterator", None, None, None),
    ty("typing.Literal", None, None, None),
    ty("typing.Mapping", None, None, None),
    ty("typing.Optional", None, None, None),
    ty("typing.Sequence", None, None, None),
    ty("typing.Type", None, None, None),
    ty("typing.Union", None, None, None),
    // `...` (runtime/wat/builtins.wat): a record with no fields.
    ty("ellipsis", None, None, None),
    // `int | None` (runtime/wat/builtins.wat): a record of its members.
    ty("types.UnionType", None, None, None),
    // The re module's objects (compiler/stdlib/re.py): patterns and matches are records made
    // with `_baton.record`; its exception class.
    ty("re.Pattern", None, None, None),
    ty("re.Match", None, None, None),
    ty("error", Some("Exception"), None, None),
];

/// Types whose objects a subscript leaves as they are (`list[int]` and `Optional[str]` are
/// `list` and `Optional`): the builtin generics and typing's forms. Marked by 1 in the type
/// object's header len.
pub fn is_generic(name: &str) -> bool {
    matches!(name, "list" | "dict" | "tuple" | "set" | "frozenset") || name.starts_with("typing.")
}

/// Builtin functions by id (the id is the index). Each is implemented in WAT as
/// `(func $b_<name> (param $args i32) (param $kwargs i32) (result i64))`: a tuple of positional
/// arguments and a dict of keyword arguments (0 when none).
pub const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bin",
    "bool",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "hash",
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
    "print",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "tuple",
    "zip",
    "iter",
    "next",
    "callable",
    "frozenset",
    // The json module's functions (`json.loads`, `from json import dumps`).
    "json_loads",
    "json_dumps",
    // The math module's functions that are a libm call each (runtime/wat/math.wat); the
    // others are written in the plan language (compiler/stdlib/math.py).
    "math_exp",
    "math_exp2",
    "math_expm1",
    "math_log",
    "math_log2",
    "math_log10",
    "math_log1p",
    "math_sin",
    "math_cos",
    "math_tan",
    "math_asin",
    "math_acos",
    "math_atan",
    "math_atan2",
    "math_sinh",
    "math_cosh",
    "math_tanh",
    "math_asinh",
    "math_acosh",
    "math_atanh",
    "math_cbrt",
    "math_erf",
    "math_erfc",
    "math_sqrt",
    "math_fabs",
    "math_copysign",
    "math_pow",
    "math_fmod",
    "math_isfinite",
    "math_isinf",
    "math_isnan",
    // The plan library's internal helpers (`from _baton import type_name`, library only).
    "_baton_type_name",
    "_baton_runtime_type",
    "_baton_record",
    "_baton_exc_attr",
    // The SDK's host calls (`from baton import bash`), in runtime/wat/host.wat.
    "baton_bash",
    "baton_llm",
    "baton_log",
    // `branch` and `parallel`, in runtime/wat/branch.wat.
    "baton_branch",
    "baton_parallel",
];

/// Names that CPython prints for a type in tracebacks when it is not a builtin
/// (`json.decoder.JSONDecodeError: ...`). Stored at +20 of the type object.
pub const QUALIFIED_NAMES: &[(&str, &str)] = &[
    ("JSONDecodeError", "json.decoder.JSONDecodeError"),
    ("error", "re.error"),
];

/// The prefixes of the builtins that are a module's functions: `math_sqrt` is `math.sqrt`, and
/// Python names it `sqrt`. Longest first where one prefix ends another.
pub const MODULE_PREFIXES: &[&str] = &["_baton_", "json_", "math_", "baton_"];

/// The modules of `MODULE_PREFIXES` whose functions CPython writes in Python: their builtins
/// present as functions (type `function`, repr `<function loads at 0x...>`), as CPython's do.
pub const PYTHON_FUNCTION_MODULES: &[&str] = &["json_"];

/// The host calls a module builtin makes (the module must import them when a plan uses it).
pub fn builtin_host_calls(name: &str) -> &'static [&'static str] {
    if name.starts_with("math_") {
        &["libm"]
    } else {
        &[]
    }
}

pub fn builtin_id(name: &str) -> Option<u32> {
    BUILTINS.iter().position(|b| *b == name).map(|i| i as u32)
}

pub fn type_spec(name: &str) -> Option<&'static TypeSpec> {
    TYPES.iter().find(|t| t.name == name)
}

pub fn is_exception_class(name: &str) -> bool {
    let mut current = type_spec(name);
    while let Some(spec) = current {
        if spec.name == "BaseException" {
            return true;
        }
        current = spec.base.and_then(type_spec);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_exist_and_builtins_are_unique() {
        for spec in TYPES {
            if let Some(base) = spec.base {
                assert!(
                    type_spec(base).is_some(),
                    "{} has unknown base {base}",
                    spec.name
                );
            }
            if let Some(constructor) = spec.constructor {
                assert!(
                    builtin_id(constructor).is_some(),
                    "{} constructor",
                    spec.name
                );
            }
        }
        let mut names = BUILTINS.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), BUILTINS.len());
        assert!(is_exception_class("KeyError"));
        assert!(!is_exception_class("int"));
    }
}
