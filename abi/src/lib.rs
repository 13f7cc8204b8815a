//! Facts of the ABI between the runtime that lives inside every plan module and the host that
//! runs it (docs/abi.md), in one place, so that the runtime's assembler and the host cannot
//! disagree on them. A leaf crate: no dependencies.

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
