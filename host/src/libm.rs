//! `baton.libm(op, x, y) -> f64`: the C library's math functions for the runtime's `math`
//! module (runtime/wat/math.wat; docs/abi.md, "Host calls").
//!
//! A pure function of its arguments, so it is not journaled: a replay computes the same values.
//! Each op is the C function of the same name in [`baton_abi::LIBM_FUNCTIONS`], called
//! directly rather than through Rust's `f64` methods, some of which (`asinh`, `acosh`,
//! `atanh`) are Rust's own formulas: calling the C library is what makes results equal to
//! CPython's, whose math module calls the same functions. An unknown op is a NaN, which the
//! runtime never asks for.

use std::sync::OnceLock;

mod c {
    // The C library's math functions (C99, <math.h>); Rust's std links the C math library on
    // every platform Baton runs on.
    extern "C" {
        pub fn exp(x: f64) -> f64;
        pub fn exp2(x: f64) -> f64;
        pub fn expm1(x: f64) -> f64;
        pub fn log(x: f64) -> f64;
        pub fn log2(x: f64) -> f64;
        pub fn log10(x: f64) -> f64;
        pub fn log1p(x: f64) -> f64;
        pub fn sin(x: f64) -> f64;
        pub fn cos(x: f64) -> f64;
        pub fn tan(x: f64) -> f64;
        pub fn asin(x: f64) -> f64;
        pub fn acos(x: f64) -> f64;
        pub fn atan(x: f64) -> f64;
        pub fn sinh(x: f64) -> f64;
        pub fn cosh(x: f64) -> f64;
        pub fn tanh(x: f64) -> f64;
        pub fn asinh(x: f64) -> f64;
        pub fn acosh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
        pub fn cbrt(x: f64) -> f64;
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn atan2(y: f64, x: f64) -> f64;
        pub fn pow(x: f64, y: f64) -> f64;
        pub fn fmod(x: f64, y: f64) -> f64;
    }
}

type Op = fn(f64, f64) -> f64;

/// The C function for a name of `LIBM_FUNCTIONS`, as linked into this binary.
fn op_named(name: &str) -> Option<Op> {
    // SAFETY (every arm): C99 math functions of doubles; they read and write nothing but their
    // arguments and errno, and are defined for every argument, NaN and infinities included.
    Some(match name {
        "exp" => |x, _| unsafe { c::exp(x) },
        "exp2" => |x, _| unsafe { c::exp2(x) },
        "expm1" => |x, _| unsafe { c::expm1(x) },
        "log" => |x, _| unsafe { c::log(x) },
        "log2" => |x, _| unsafe { c::log2(x) },
        "log10" => |x, _| unsafe { c::log10(x) },
        "log1p" => |x, _| unsafe { c::log1p(x) },
        "sin" => |x, _| unsafe { c::sin(x) },
        "cos" => |x, _| unsafe { c::cos(x) },
        "tan" => |x, _| unsafe { c::tan(x) },
        "asin" => |x, _| unsafe { c::asin(x) },
        "acos" => |x, _| unsafe { c::acos(x) },
        "atan" => |x, _| unsafe { c::atan(x) },
        "sinh" => |x, _| unsafe { c::sinh(x) },
        "cosh" => |x, _| unsafe { c::cosh(x) },
        "tanh" => |x, _| unsafe { c::tanh(x) },
        "asinh" => |x, _| unsafe { c::asinh(x) },
        "acosh" => |x, _| unsafe { c::acosh(x) },
        "atanh" => |x, _| unsafe { c::atanh(x) },
        "cbrt" => |x, _| unsafe { c::cbrt(x) },
        "erf" => |x, _| unsafe { c::erf(x) },
        "erfc" => |x, _| unsafe { c::erfc(x) },
        "atan2" => |y, x| unsafe { c::atan2(y, x) },
        "pow" => |x, y| unsafe { c::pow(x, y) },
        "fmod" => |x, y| unsafe { c::fmod(x, y) },
        _ => return None,
    })
}

/// How an op is computed: the shared C library's function, found by name at run time, or the
/// one linked in.
#[derive(Clone, Copy)]
enum Resolved {
    Unary(unsafe extern "C" fn(f64) -> f64),
    Binary(unsafe extern "C" fn(f64, f64) -> f64),
    Linked(Op),
}

const BINARY: &[&str] = &["atan2", "pow", "fmod"];

/// The shared C library's `name`. Rust's compiler-builtins defines a few math functions itself
/// (`cbrt`, `fmod`), and the linker binds a reference to those before the C library's: their
/// results can differ in the last bit (`cbrt(27.0)`), so the C library's are looked up by name.
#[cfg(unix)]
fn shared(name: &str) -> Option<Resolved> {
    let symbol = std::ffi::CString::new(name).ok()?;
    // SAFETY: dlsym with RTLD_DEFAULT only looks a name up in the loaded objects' exported
    // symbols; the pointer, when found, is that C function, whose signature C99 fixes.
    unsafe {
        let found = libc::dlsym(libc::RTLD_DEFAULT, symbol.as_ptr());
        if found.is_null() {
            return None;
        }
        Some(if BINARY.contains(&name) {
            Resolved::Binary(std::mem::transmute::<
                *mut libc::c_void,
                unsafe extern "C" fn(f64, f64) -> f64,
            >(found))
        } else {
            Resolved::Unary(std::mem::transmute::<
                *mut libc::c_void,
                unsafe extern "C" fn(f64) -> f64,
            >(found))
        })
    }
}

#[cfg(not(unix))]
fn shared(_name: &str) -> Option<Resolved> {
    None
}

/// The ops by index.
fn ops() -> &'static [Resolved] {
    static OPS: OnceLock<Vec<Resolved>> = OnceLock::new();
    OPS.get_or_init(|| {
        baton_abi::LIBM_FUNCTIONS
            .iter()
            .map(|name| {
                shared(name).unwrap_or_else(|| {
                    Resolved::Linked(
                        op_named(name)
                            .unwrap_or_else(|| panic!("libm function `{name}` has no C function")),
                    )
                })
            })
            .collect()
    })
}

/// `baton.libm`: op `op` of `x` (and `y`), NaN for an op that does not exist.
pub fn call(op: i32, x: f64, y: f64) -> f64 {
    usize::try_from(op)
        .ok()
        .and_then(|op| ops().get(op))
        .map_or(f64::NAN, |op| match *op {
            // SAFETY: see `shared`; C99 math functions are defined for every double.
            Resolved::Unary(f) => unsafe { f(x) },
            Resolved::Binary(f) => unsafe { f(x, y) },
            Resolved::Linked(f) => f(x, y),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_runtime_op_has_its_c_function() {
        for name in baton_abi::LIBM_FUNCTIONS {
            assert!(op_named(name).is_some(), "{name}");
        }
        let index = |name: &str| baton_abi::libm_op(name).unwrap();
        assert_eq!(call(index("exp"), 0.0, 0.0), 1.0);
        assert_eq!(call(index("pow"), 2.0, 10.0), 1024.0);
        assert_eq!(call(index("atan2"), 0.0, -1.0), std::f64::consts::PI);
        assert!(call(-1, 1.0, 1.0).is_nan());
        // glibc's cbrt, as CPython's math.cbrt gives it on glibc (compiler-builtins' says 3.0).
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        assert_eq!(call(index("cbrt"), 27.0, 0.0), 3.0000000000000004);
        assert!(call(1000, 1.0, 1.0).is_nan());
    }
}
