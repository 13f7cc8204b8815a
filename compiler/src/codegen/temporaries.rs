//! Temporaries freed as soon as they die: a value that an expression makes only for an
//! operation that reads it and keeps nothing of it (`len(s * n)`, `print(f"...")`, the field of
//! `f"{a + b}"`) goes back to the heap right after that operation, instead of waiting as garbage
//! for the next collection.
//!
//! CPython frees such a value at once (its reference count drops to zero), so the next one is
//! made in the same memory, still in the CPU's cache; a tracing collector leaves megabytes of
//! them behind between collections, and every new one is written to memory the cache no longer
//! holds. A loop that makes a 10 KB str per turn to measure it ran at 1.3x CPython's time for
//! that reason alone (bench/run.py's `memory/callback_garbage`).
//!
//! What makes it safe is knowing, at compile time, that nothing else can hold the value:
//!
//! - **The maker** is a binary operator or an f-string. Whatever the operands, a binary
//!   operator's result is a new object, one of its operands (`s * 1`, `t + ()`) or a static
//!   object (`"" * 3`, a small int): plans have no classes, so no `__add__` of a plan's can
//!   return anything else. An f-string is always a new str. So a result that is in the heap
//!   and is neither operand is referred to by nothing but the code at hand. (A call such as
//!   `str(x)` is not a maker: `str(e)` of an exception is the str its arguments hold.)
//! - **The reader** only reads: `len(x)` and `print(x)` (the runtime's `$fast_len` and
//!   `$fast_print`) and an f-string's field (its text is copied into the f-string) keep no
//!   reference to their operand, and run no plan code, so no collection runs between the value's
//!   making and its freeing.
//!
//! The runtime's `$drop_temp` (runtime/wat/heap.wat) gets the value and the operator's operands
//! and frees the value's block when the value is a str, boxed int or float in the heap and is
//! neither operand. Objects with references (lists, ...) are left to the collector. When the
//! reader raises, nothing is freed: the exception may refer to the value.

use rustpython_parser::ast;

use super::{binary_function, fast, Generator, Result};

/// A value an operation only reads (see the module docs).
pub(super) struct Borrowed {
    /// The code that leaves the value.
    pub(super) value: String,
    /// The code to run right after the operation that read it: frees it when it was a
    /// temporary no one else holds (empty when the value is not a temporary).
    pub(super) dead: String,
}

impl Borrowed {
    /// `read` (the code of an operation that reads the value and leaves an `i64` that needs no
    /// root, such as an int or None), followed by freeing the value.
    pub(super) fn then_i64(&self, generator: &mut Generator<'_>, read: String) -> String {
        if self.dead.is_empty() {
            return read;
        }
        let result = generator.number_temp();
        format!(
            "(block (result i64) (local.set {result} {read}) {} (local.get {result}))",
            self.dead
        )
    }
}

impl Generator<'_> {
    /// The value of `expr` for an operation that only reads it and keeps nothing of it.
    pub(super) fn borrowed(&mut self, expr: &ast::Expr) -> Result<Borrowed> {
        // Only a maker's result is a temporary; code that runs once gains nothing from it.
        if self.runs_once() || !matches!(expr, ast::Expr::BinOp(_) | ast::Expr::JoinedStr(_)) {
            return Ok(Borrowed {
                value: self.expr(expr)?,
                dead: String::new(),
            });
        }
        // The notes are taken before the operands' code is made, so that no temp that code
        // takes and gives back is one of them (it would write over a note before it is read).
        let temp = self.number_temp();
        let (value, operands) = match expr {
            ast::Expr::BinOp(b) => {
                // As `expr` makes it, with each operand's value noted (its address only: the
                // notes are compared, never read through, so they need no root).
                let (a, c) = (self.number_temp(), self.number_temp());
                let left = self.expr(&b.left)?;
                let right = self.expr(&b.right)?;
                let left = self.keep(left, false, &[&right]);
                let value = self.binary_op(
                    &b.op,
                    format!("(local.tee {a} {left})"),
                    format!("(local.tee {c} {right})"),
                    fast::small_literal(&b.right),
                    binary_function(&b.op),
                );
                (value, format!("(local.get {a}) (local.get {c})"))
            }
            _ => (self.expr(expr)?, "(i64.const 0) (i64.const 0)".to_owned()),
        };
        Ok(Borrowed {
            value: format!("(local.tee {temp} {value})"),
            dead: format!("(call $drop_temp (local.get {temp}) {operands})"),
        })
    }
}
