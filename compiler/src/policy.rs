//! What a plan may name: the importable modules and their members, the supported builtins, and
//! the builtins and attributes that are forbidden outright. This is data, kept in one place, so
//! that later work (the `baton.ttc` plan library, new host calls) extends it here and nowhere
//! else. The runtime implements what is listed here (runtime/src/catalog.rs); a test keeps the
//! two in step.

/// A module a plan may import, and the names it provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModuleSpec {
    /// Dotted module name, e.g. `baton` or `json`.
    pub name: &'static str,
    pub members: &'static [&'static str],
    /// One line on what the module is for, shown when a plan imports something else.
    pub summary: &'static str,
    /// Importable only by the plan library's own modules (`compiler/stdlib/`), never by a plan,
    /// and not listed in the guide: the few runtime helpers those modules are written with.
    pub internal: bool,
}

/// The SDK: the plan's whole view of the world (see DESIGN.md, "The plan language and SDK").
pub const BATON_SDK: &[&str] = &[
    "bash",
    "llm",
    "branch",
    "parallel",
    "log",
    "inputs",
    "BashResult",
    "Outcome",
    "BudgetExceeded",
    "LLMError",
    "SandboxError",
    "BranchError",
];

pub const MODULES: &[ModuleSpec] = &[
    ModuleSpec {
        name: "baton",
        members: BATON_SDK,
        summary: "commands, model calls, branches and inputs",
        internal: false,
    },
    ModuleSpec {
        name: "baton.ttc",
        members: &["best_of", "summarize", "tournament", "refine"],
        summary: "test-time compute strategies (plans/baton/ttc.py)",
        internal: false,
    },
    ModuleSpec {
        name: "json",
        members: &["loads", "dumps", "JSONDecodeError"],
        summary: "JSON encoding and decoding",
        internal: false,
    },
    ModuleSpec {
        name: "math",
        members: MATH,
        summary: "floating-point and integer math, with CPython's results and errors",
        internal: false,
    },
    ModuleSpec {
        name: "re",
        members: RE,
        summary: "regular expressions with CPython's syntax and results (parse command output)",
        internal: false,
    },
    ModuleSpec {
        name: "shlex",
        members: &["quote", "split", "join"],
        summary: "shell quoting: put a path or a value into a bash() command safely",
        internal: false,
    },
    ModuleSpec {
        name: "textwrap",
        members: &["dedent", "indent", "wrap", "fill", "shorten"],
        summary: "text wrapping and indentation (for prompts and reports)",
        internal: false,
    },
    ModuleSpec {
        name: "typing",
        members: TYPING,
        summary: "names for annotations (evaluated as CPython evaluates them, not kept)",
        internal: false,
    },
    ModuleSpec {
        name: "_baton",
        members: &["type_name", "runtime_type", "record", "exc_attr"],
        summary: "runtime helpers of the plan library's own modules",
        internal: true,
    },
];

/// The `math` module: CPython 3.11's deterministic functions and constants.
pub const MATH: &[&str] = &[
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "ceil",
    "comb",
    "copysign",
    "cos",
    "cosh",
    "degrees",
    "dist",
    "e",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "factorial",
    "floor",
    "fmod",
    "fsum",
    "gcd",
    "hypot",
    "inf",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "isqrt",
    "lcm",
    "log",
    "log10",
    "log1p",
    "log2",
    "nan",
    "perm",
    "pi",
    "pow",
    "prod",
    "radians",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "tau",
    "trunc",
];

/// The `re` module: CPython 3.11's functions, flags and types over str patterns.
pub const RE: &[&str] = &[
    "A",
    "ASCII",
    "DOTALL",
    "I",
    "IGNORECASE",
    "M",
    "MULTILINE",
    "Match",
    "NOFLAG",
    "Pattern",
    "S",
    "U",
    "UNICODE",
    "VERBOSE",
    "X",
    "compile",
    "error",
    "escape",
    "findall",
    "finditer",
    "fullmatch",
    "match",
    "purge",
    "search",
    "split",
    "sub",
    "subn",
];

/// The `typing` names plans write in annotations.
pub const TYPING: &[&str] = &[
    "Any",
    "Callable",
    "Dict",
    "FrozenSet",
    "Generator",
    "Iterable",
    "Iterator",
    "List",
    "Literal",
    "Mapping",
    "Optional",
    "Sequence",
    "Set",
    "Tuple",
    "Type",
    "Union",
    "TYPE_CHECKING",
    "cast",
];

pub fn module(name: &str) -> Option<&'static ModuleSpec> {
    MODULES.iter().find(|m| m.name == name)
}

pub fn allowed_module_list() -> String {
    MODULES
        .iter()
        .filter(|m| !m.internal)
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Builtins the plan language supports. Every name here must exist in the runtime.
pub const SUPPORTED_BUILTINS: &[&str] = &[
    // functions
    "abs",
    "all",
    "any",
    "bin",
    "bool",
    "callable",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "frozenset",
    "hash",
    "hex",
    "int",
    "isinstance",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
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
    // exceptions
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "Exception",
    "IndexError",
    "KeyError",
    "LookupError",
    "MemoryError",
    "NameError",
    "NotImplementedError",
    "OverflowError",
    "RecursionError",
    "RuntimeError",
    "StopIteration",
    "TimeoutError",
    "TypeError",
    "UnboundLocalError",
    "UnicodeEncodeError",
    "UnicodeError",
    "ValueError",
    "ZeroDivisionError",
];

/// Builtins a plan may never use, each with the alternative to offer instead. Binding one of
/// these names yourself (`type = "bug"`) is fine: only a reference that reaches the builtin is
/// rejected.
pub const FORBIDDEN_BUILTINS: &[(&str, &str)] = &[
    ("eval", "write the expression directly in the plan"),
    ("exec", "write the statements directly in the plan"),
    ("compile", "write the code directly in the plan"),
    (
        "open",
        "read and write workspace files with bash(), e.g. bash('cat notes.txt').stdout",
    ),
    (
        "input",
        "read the run's inputs with `from baton import inputs`",
    ),
    ("globals", "pass values as function arguments"),
    ("locals", "pass values as function arguments"),
    ("vars", "use a dict"),
    ("dir", "use a dict and its keys()"),
    (
        "getattr",
        "access attributes directly (obj.name) or use a dict",
    ),
    ("setattr", "use a dict"),
    ("delattr", "use a dict"),
    ("hasattr", "use a dict and the `in` operator"),
    ("type", "use isinstance(value, T)"),
    ("object", "use dicts and tuples for records"),
    ("super", "classes are not supported; use functions"),
    ("breakpoint", "use print() or log() to inspect values"),
    ("help", "use print() or log() to inspect values"),
    ("memoryview", "use str and list"),
    ("id", "compare values with == or `is None`"),
    ("exit", "return from the function or raise an exception"),
    ("quit", "return from the function or raise an exception"),
    ("classmethod", "classes are not supported; use functions"),
    ("staticmethod", "classes are not supported; use functions"),
    ("property", "classes are not supported; use functions"),
];

/// Whether `name` is in CPython 3.11's `builtins` module ([`PYTHON_BUILTINS`]): a binary
/// search, since the checker asks for every name no scope binds.
pub fn is_python_builtin(name: &str) -> bool {
    PYTHON_BUILTINS.binary_search(&name).is_ok()
}

/// Every name in CPython 3.11's `builtins` module (without dunders), so that an unsupported
/// builtin gets its own diagnostic instead of "undefined name". Sorted (byte order), for
/// [`is_python_builtin`].
pub const PYTHON_BUILTINS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

/// Attributes that reach interpreter internals without a leading underscore: frames,
/// tracebacks, code objects, generator and coroutine state, the MRO. The runtime has none of
/// them; rejecting them statically keeps the promise independent of the runtime.
pub const REFLECTIVE_ATTRIBUTES: &[&str] = &[
    "mro",
    "gi_frame",
    "gi_code",
    "gi_running",
    "gi_yieldfrom",
    "cr_frame",
    "cr_code",
    "cr_await",
    "ag_frame",
    "ag_code",
    "f_back",
    "f_builtins",
    "f_code",
    "f_globals",
    "f_locals",
    "f_trace",
    "f_lasti",
    "tb_frame",
    "tb_next",
    "tb_lasti",
    "co_code",
    "co_consts",
    "co_names",
    "func_globals",
    "func_code",
    "func_closure",
    "im_func",
    "im_self",
    "with_traceback",
    "cell_contents",
];

/// Help for the commonly attempted modules, so the diagnostic names the plan-language way.
pub fn import_alternative(module: &str) -> &'static str {
    let root = module.split('.').next().unwrap_or(module);
    match root {
        "os" | "sys" | "subprocess" | "shutil" | "pathlib" | "glob" | "tempfile" | "io"
        | "pty" | "signal" | "multiprocessing" | "threading" | "concurrent" => {
            "run commands and touch files with `from baton import bash`; use `parallel` or `branch` for concurrency"
        }
        "socket" | "http" | "urllib" | "requests" | "httpx" | "ssl" | "ftplib" | "smtplib"
        | "openai" | "anthropic" => {
            "call models with `from baton import llm`; plans have no network access"
        }
        "time" | "datetime" | "random" | "secrets" | "uuid" => {
            "plans are deterministic; take times or random values from `inputs` or from bash()"
        }
        "re" | "string" | "collections" | "itertools" | "functools" | "dataclasses" | "copy" => {
            "use the builtins and str, list and dict methods"
        }
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supported_and_forbidden_builtins_are_real_builtins_and_disjoint() {
        for name in SUPPORTED_BUILTINS {
            assert!(PYTHON_BUILTINS.contains(name), "{name} is not a builtin");
            assert!(
                !FORBIDDEN_BUILTINS.iter().any(|(f, _)| f == name),
                "{name} in both lists"
            );
        }
        for (name, _) in FORBIDDEN_BUILTINS {
            assert!(PYTHON_BUILTINS.contains(name), "{name} is not a builtin");
        }
    }

    #[test]
    fn the_builtins_are_sorted_so_that_the_binary_search_finds_each() {
        assert!(PYTHON_BUILTINS.windows(2).all(|w| w[0] < w[1]));
        assert!(PYTHON_BUILTINS.iter().all(|name| is_python_builtin(name)));
        assert!(!is_python_builtin("eval_") && !is_python_builtin(""));
    }

    /// The checker accepts exactly what the runtime implements: every supported builtin is a
    /// runtime builtin function or type object, and every runtime builtin is reachable.
    #[test]
    fn supported_builtins_match_the_runtime_catalog() {
        use baton_runtime::catalog;
        for name in SUPPORTED_BUILTINS {
            assert!(
                catalog::builtin_id(name).is_some() || catalog::type_spec(name).is_some(),
                "`{name}` is accepted by the checker but the runtime has no `{name}`"
            );
        }
        for name in catalog::BUILTINS {
            let in_module = catalog::MODULE_PREFIXES.iter().find_map(|prefix| {
                let member = name.strip_prefix(prefix)?;
                Some((&prefix[..prefix.len() - 1], member))
            });
            let reachable = match in_module {
                Some((module_name, member)) => {
                    module(module_name).is_some_and(|m| m.members.contains(&member))
                }
                None => SUPPORTED_BUILTINS.contains(name),
            };
            assert!(
                reachable,
                "runtime builtin `{name}` cannot be reached from a plan"
            );
        }
    }

    #[test]
    fn the_sdk_stub_exports_every_sdk_name() {
        // plans/baton/__init__.py is what editors and CPython see; it must offer every name the
        // checker lets a plan import from `baton`.
        let stub = include_str!("../sdk/baton/__init__.py");
        let all = stub
            .split_once("__all__ = [")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(list, _)| list)
            .expect("the stub has __all__");
        for name in BATON_SDK {
            assert!(
                all.contains(&format!("\"{name}\"")),
                "`{name}` is missing from the stub's __all__"
            );
        }
    }

    #[test]
    fn modules_are_found_by_name() {
        assert!(module("baton").unwrap().members.contains(&"bash"));
        assert!(module("json").unwrap().members.contains(&"loads"));
        assert!(module("os").is_none());
    }
}
