//! Facts of the ABI between the runtime module every plan module imports and the host that
//! runs it (docs/abi.md), in one place, so that the runtime's assembler and the host cannot
//! disagree on them. A leaf crate: no dependencies.

/// Type ids, stored at +0 of every object (docs/abi.md, "Objects").
pub mod type_id {
    pub const NONE: u32 = 1;
    pub const BOOL: u32 = 2;
    pub const INT: u32 = 3;
    pub const FLOAT: u32 = 4;
    pub const STR: u32 = 5;
    pub const TUPLE: u32 = 6;
    pub const LIST: u32 = 7;
    pub const DICT: u32 = 8;
    pub const SET: u32 = 9;
    pub const FUNCTION: u32 = 10;
    pub const CELL: u32 = 11;
    pub const EXCEPTION: u32 = 12;
    pub const TYPE: u32 = 13;
    pub const BUILTIN: u32 = 14;
    pub const BOUND_METHOD: u32 = 15;
    pub const RANGE: u32 = 16;
    pub const SLICE: u32 = 17;
    pub const ITERATOR: u32 = 18;
    pub const DICT_VIEW: u32 = 19;
    /// A record a host call returns (`BashResult`): fields by name.
    pub const RECORD: u32 = 20;
    /// An f-string under construction (runtime-internal, never a Python value).
    pub const STR_BUILDER: u32 = 21;

    /// Every type id by its constant's name: the runtime's WAT writes `(i32.const TYPE_STR)`
    /// for [`STR`], and its assembler substitutes the number from here.
    pub const ALL: &[(&str, u32)] = &[
        ("NONE", NONE),
        ("BOOL", BOOL),
        ("INT", INT),
        ("FLOAT", FLOAT),
        ("STR", STR),
        ("TUPLE", TUPLE),
        ("LIST", LIST),
        ("DICT", DICT),
        ("SET", SET),
        ("FUNCTION", FUNCTION),
        ("CELL", CELL),
        ("EXCEPTION", EXCEPTION),
        ("TYPE", TYPE),
        ("BUILTIN", BUILTIN),
        ("BOUND_METHOD", BOUND_METHOD),
        ("RANGE", RANGE),
        ("SLICE", SLICE),
        ("ITERATOR", ITERATOR),
        ("DICT_VIEW", DICT_VIEW),
        ("RECORD", RECORD),
        ("STR_BUILDER", STR_BUILDER),
    ];
}

/// Where an object's length field is (`len` in docs/abi.md: a str's UTF-8 byte length).
pub const LEN_OFFSET: u32 = 4;
/// Where a str object's UTF-8 bytes start.
pub const STR_BYTES_OFFSET: u32 = 16;

/// The exception classes a host call's error reply may name (docs/abi.md, "Host calls"). The
/// host builds its errors from these, and the runtime's assembler generates from this list the
/// function that maps a reply's name to the class it raises (any other name raises
/// RuntimeError), so the two cannot disagree on a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HostException {
    /// A model budget refused the call (`from baton import BudgetExceeded`).
    BudgetExceeded,
    /// The model provider failed, or `llm` is not granted.
    LLMError,
    /// The OS sandbox could not run the command, or `bash` is not granted.
    SandboxError,
    /// Arguments of the wrong type.
    TypeError,
    /// Arguments of the right type with a wrong value.
    ValueError,
    /// A command or model call ran out of its own time.
    TimeoutError,
    /// `branch`/`parallel` could not start, nest or adopt branches.
    BranchError,
    /// Anything else the host reports.
    RuntimeError,
}

impl HostException {
    /// Every class, in a fixed order.
    pub const ALL: [HostException; 8] = [
        HostException::BudgetExceeded,
        HostException::LLMError,
        HostException::SandboxError,
        HostException::TypeError,
        HostException::ValueError,
        HostException::TimeoutError,
        HostException::BranchError,
        HostException::RuntimeError,
    ];

    /// The class's Python name, as replies carry it.
    pub const fn name(self) -> &'static str {
        match self {
            HostException::BudgetExceeded => "BudgetExceeded",
            HostException::LLMError => "LLMError",
            HostException::SandboxError => "SandboxError",
            HostException::TypeError => "TypeError",
            HostException::ValueError => "ValueError",
            HostException::TimeoutError => "TimeoutError",
            HostException::BranchError => "BranchError",
            HostException::RuntimeError => "RuntimeError",
        }
    }

    /// The class named `name`, if it is one of these.
    pub fn from_name(name: &str) -> Option<HostException> {
        HostException::ALL
            .into_iter()
            .find(|class| class.name() == name)
    }
}

impl std::fmt::Display for HostException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The C library functions `baton.libm(op, x, y) -> f64` computes, `op` being the index here
/// (the runtime's WAT names each `$libm_<name>`). One-argument functions ignore `y`. The host
/// computes each with its C library's function of the same name, as CPython's math module
/// does, so results are equal to CPython's on the same machine. Append only: an op's index is
/// part of every compiled module that uses it.
pub const LIBM_FUNCTIONS: &[&str] = &[
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "cbrt", "erf", "erfc", "atan2",
    "pow", "fmod",
];

/// The index of a libm function, for `baton.libm`'s `op`.
pub fn libm_op(name: &str) -> Option<i32> {
    LIBM_FUNCTIONS
        .iter()
        .position(|n| *n == name)
        .and_then(|i| i32::try_from(i).ok())
}

/// Bounds on one function body of a module the host compiles (`host/src/imports.rs` checks them
/// before wasmtime compiles anything; the compiler's encoder checks its own modules against
/// them, so that a plan past them is refused with its line). Cranelift's translation costs time
/// and memory that grow with (block results x blocks) and with locals live across many blocks:
/// a 136 KB module of 6,000 nested blocks and 3,000 locals compiled for 79 s, one of 20,000
/// `br_if` blocks took 1.65 GB. Baton's own modules stay far below these (the checker bounds a
/// plan function at 5,000 nodes, B006), but for `try`/`finally` nested in each other's
/// `finally`, whose code doubles at each level.
pub mod function_bounds {
    /// The most locals of one function.
    pub const MAX_FUNCTION_LOCALS: u64 = 4_000;
    /// The deepest nesting of blocks, loops, ifs and try_tables in one function.
    pub const MAX_BLOCK_NESTING: u32 = 1_000;
    /// The most bytes of one function body.
    pub const MAX_FUNCTION_BYTES: usize = 1 << 20;

    /// What is wrong with a body of `bytes` bytes, if it is past [`MAX_FUNCTION_BYTES`]: the
    /// words the host and the compiler report (each check apart, for the host's early exits).
    pub fn body_too_large(bytes: usize) -> Option<String> {
        (bytes > MAX_FUNCTION_BYTES)
            .then(|| format!("its body is {bytes} bytes (at most {MAX_FUNCTION_BYTES})"))
    }

    /// The same for a body declaring `locals` locals ([`MAX_FUNCTION_LOCALS`]).
    pub fn too_many_locals(locals: u64) -> Option<String> {
        (locals > MAX_FUNCTION_LOCALS)
            .then(|| format!("it declares {locals} locals (at most {MAX_FUNCTION_LOCALS})"))
    }

    /// The same for blocks open `depth` deep at once ([`MAX_BLOCK_NESTING`]).
    pub fn nested_too_deep(depth: u32) -> Option<String> {
        (depth > MAX_BLOCK_NESTING)
            .then(|| format!("its blocks nest more than {MAX_BLOCK_NESTING} deep"))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn each_bound_is_exceeded_only_past_it() {
            assert_eq!(body_too_large(MAX_FUNCTION_BYTES), None);
            assert!(body_too_large(MAX_FUNCTION_BYTES + 1)
                .is_some_and(|what| what.contains("bytes (at most 1048576)")));
            assert_eq!(too_many_locals(MAX_FUNCTION_LOCALS), None);
            assert!(too_many_locals(MAX_FUNCTION_LOCALS + 1)
                .is_some_and(|what| what.contains("4001 locals")));
            assert_eq!(nested_too_deep(MAX_BLOCK_NESTING), None);
            assert!(nested_too_deep(MAX_BLOCK_NESTING + 1)
                .is_some_and(|what| what.contains("more than 1000 deep")));
        }
    }
}
