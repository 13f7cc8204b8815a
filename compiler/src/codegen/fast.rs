//! Inline fast paths for small ints (docs/abi.md: a small int is `(n << 1) | 1`).
//!
//! Arithmetic and comparisons on two small ints are the bulk of loop and recursion work, and a
//! call into the generic runtime operator costs more than the operation. Each fast path tests
//! the tag bits, does the operation on the tagged words, and checks that the result stays in
//! the small range; anything else (boxed ints, floats, strings, an overflow, a zero divisor)
//! goes to the same runtime function as before, so results and errors are unchanged. Code that
//! runs once (module-level code outside loops, `Generator::runs_once`) calls the runtime
//! function alone: a fast path there saves nothing and is code to compile.

use rustpython_parser::ast::{self, Constant};

use super::Generator;

/// The value of an int literal (or a negated one, `-1`) that is a small int, so a fast path can
/// skip its tag test.
pub(super) fn small_literal(expr: &ast::Expr) -> Option<i64> {
    let literal = match expr {
        ast::Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => negated_literal(&u.operand)?,
        ast::Expr::Constant(c) => c.value.clone(),
        _ => return None,
    };
    let Constant::Int(big) = &literal else {
        return None;
    };
    let n = i64::try_from(big).ok()?;
    baton_runtime::layout::small_int(n).map(|_| n)
}

/// `-x` of an int or float literal `x`, as a literal (so `-9223372036854775808`, whose operand
/// alone is beyond 64 bits, is the smallest int, as in CPython). None for anything else
/// (`-True` stays a call: its value is the int -1, not a bool).
pub(super) fn negated_literal(operand: &ast::Expr) -> Option<Constant> {
    let ast::Expr::Constant(c) = operand else {
        return None;
    };
    match &c.value {
        Constant::Int(big) => Some(Constant::Int(-big)),
        Constant::Float(f) => Some(Constant::Float(-f)),
        _ => None,
    }
}

/// WAT i32 that is 1 when the i64 locals are all small ints (a known-small operand is skipped).
fn both_small(x: &str, y: &str, y_known: bool) -> String {
    if y_known {
        format!("(i32.wrap_i64 (i64.and (local.get {x}) (i64.const 1)))")
    } else {
        format!("(i32.wrap_i64 (i64.and (i64.and (local.get {x}) (local.get {y})) (i64.const 1)))")
    }
}

impl Generator<'_> {
    /// `left OP right` for a binary operator, with an inline small-int path when the operator
    /// has one; `fallback` is the runtime function for every other case (`$add`, `$iadd`, ...).
    pub(super) fn binary_op(
        &mut self,
        op: &ast::Operator,
        left: String,
        right: String,
        right_const: Option<i64>,
        fallback: &str,
    ) -> String {
        use ast::Operator as O;
        if self.runs_once() {
            return format!("(call {fallback} {left} {right})");
        }
        // The operands are held across the right operand's evaluation and the generic call (the
        // inline fast path between them calls nothing).
        let fallback_call = format!("(call {fallback})");
        let x = self.scratch(&[&right, &fallback_call]);
        let y = self.scratch(&[&fallback_call]);
        let known = right_const.is_some();
        let small = both_small(&x, &y, known);
        let generic = format!("(call {fallback} (local.get {x}) (local.get {y}))");
        let done = self.label("fast");
        // `y - 1` is the right operand's value times two: the tagged sum needs it untagged once.
        let y_even = match right_const {
            Some(n) => format!("(i64.const {})", n.wrapping_mul(2)),
            None => format!("(i64.sub (local.get {y}) (i64.const 1))"),
        };
        let fast = match op {
            O::Add | O::Sub => {
                let r = self.temp();
                let (operation, overflow) = if matches!(op, O::Add) {
                    // Signed overflow of x + e: both operands' signs differ from the result's.
                    (
                        format!("(i64.add (local.get {x}) {y_even})"),
                        format!(
                            "(i64.lt_s (i64.and (i64.xor (local.get {x}) (local.get {r})) (i64.xor {y_even} (local.get {r}))) (i64.const 0))"
                        ),
                    )
                } else {
                    // Signed overflow of x - e: the operands' signs differ and the result's sign
                    // differs from x's.
                    (
                        format!("(i64.sub (local.get {x}) {y_even})"),
                        format!(
                            "(i64.lt_s (i64.and (i64.xor (local.get {x}) {y_even}) (i64.xor (local.get {x}) (local.get {r}))) (i64.const 0))"
                        ),
                    )
                };
                format!(
                    "(if {small} (then (local.set {r} {operation}) (drop (br_if {done} (local.get {r}) (i32.eqz {overflow})))))"
                )
            }
            O::Mult => {
                // Both factors in (-2^31, 2^31), open at both ends: |product| <= (2^31 - 1)^2 <
                // 2^62, a small int. Tagged, a factor n is 2n+1, so the test is
                // -2^32 + 3 <= v <= 2^32 - 1, shifted to one unsigned comparison. (-2^31 itself
                // must go generic: its square is 2^62, just past the small range.)
                let bounded = |v: &str| {
                    format!(
                        "(i64.lt_u (i64.add (local.get {v}) (i64.const 0xFFFFFFFD)) (i64.const 0x1FFFFFFFD))"
                    )
                };
                let guard = format!("(i32.and {small} (i32.and {} {}))", bounded(&x), bounded(&y));
                format!(
                    "(if {guard} (then (drop (br_if {done} (i64.add (i64.mul (i64.shr_s (local.get {x}) (i64.const 1)) {y_even}) (i64.const 1)) (i32.const 1)))))"
                )
            }
            O::Mod | O::FloorDiv => {
                // Plain machine integers, never addresses: no slots.
                let (a, b, r) = (self.number_temp(), self.number_temp(), self.number_temp());
                // A zero divisor raises and -2^62 // -1 leaves the small range: both go generic.
                let divisor_ok = match right_const {
                    Some(n) => if n == 0 || n == -1 { "(i32.const 0)".to_owned() } else { "(i32.const 1)".to_owned() },
                    None => format!(
                        "(i32.and (i64.ne (local.get {y}) (i64.const 1)) (i64.ne (local.get {y}) (i64.const -1)))"
                    ),
                };
                // Python rounds the quotient down: the remainder takes the divisor's sign.
                let adjust = format!(
                    "(i32.and (i64.ne (local.get {r}) (i64.const 0)) (i64.lt_s (i64.xor (local.get {r}) (local.get {b})) (i64.const 0)))"
                );
                let result = if matches!(op, O::Mod) {
                    format!("(select (i64.add (local.get {r}) (local.get {b})) (local.get {r}) {adjust})")
                } else {
                    format!(
                        "(i64.sub (i64.div_s (local.get {a}) (local.get {b})) (i64.extend_i32_u {adjust}))"
                    )
                };
                format!(
                    "(if (i32.and {small} {divisor_ok}) (then \
                     (local.set {a} (i64.shr_s (local.get {x}) (i64.const 1))) \
                     (local.set {b} (i64.shr_s (local.get {y}) (i64.const 1))) \
                     (local.set {r} (i64.rem_s (local.get {a}) (local.get {b}))) \
                     (drop (br_if {done} (i64.or (i64.shl {result} (i64.const 1)) (i64.const 1)) (i32.const 1)))))"
                )
            }
            O::RShift => match right_const {
                Some(k @ 0..=63) => format!(
                    "(if {small} (then (drop (br_if {done} (i64.or (i64.shl (i64.shr_s (i64.shr_s (local.get {x}) (i64.const 1)) (i64.const {k})) (i64.const 1)) (i64.const 1)) (i32.const 1)))))"
                ),
                _ => String::new(),
            },
            // The tag bit survives these operations unchanged.
            O::BitAnd => format!(
                "(if {small} (then (drop (br_if {done} (i64.and (local.get {x}) (local.get {y})) (i32.const 1)))))"
            ),
            O::BitOr => format!(
                "(if {small} (then (drop (br_if {done} (i64.or (local.get {x}) (local.get {y})) (i32.const 1)))))"
            ),
            O::BitXor => format!(
                "(if {small} (then (drop (br_if {done} (i64.or (i64.xor (local.get {x}) (local.get {y})) (i64.const 1)) (i32.const 1)))))"
            ),
            _ => String::new(),
        };
        if fast.is_empty() {
            return format!("(call {fallback} {left} {right})");
        }
        format!(
            "(block {done} (result i64) (local.set {x} {left}) (local.set {y} {right}) {fast} {generic})"
        )
    }

    /// WAT leaving an i32 for one comparison, inline for two small ints where the tagged words
    /// compare like the ints they hold.
    pub(super) fn compare_op(
        &mut self,
        op: &ast::CmpOp,
        left: &str,
        right: &str,
        right_known: bool,
    ) -> String {
        use ast::CmpOp as C;
        let (inline, runtime) = match op {
            C::Eq => ("i64.eq", "$eq"),
            C::NotEq => ("i64.ne", "$ne"),
            C::Lt => ("i64.lt_s", "$lt"),
            C::LtE => ("i64.le_s", "$le"),
            C::Gt => ("i64.gt_s", "$gt"),
            C::GtE => ("i64.ge_s", "$ge"),
            C::Is => return format!("(i64.eq {left} {right})"),
            C::IsNot => return format!("(i64.ne {left} {right})"),
            C::In => return format!("(call $in {left} {right})"),
            C::NotIn => return format!("(i32.eqz (call $in {left} {right}))"),
        };
        if self.runs_once() {
            return format!("(call {runtime} {left} {right})");
        }
        let runtime_call = format!("(call {runtime})");
        let x = self.scratch(&[right, &runtime_call]);
        let y = self.scratch(&[&runtime_call]);
        let small = both_small(&x, &y, right_known);
        format!(
            "(block (result i32) (local.set {x} {left}) (local.set {y} {right}) \
             (if (result i32) {small} (then ({inline} (local.get {x}) (local.get {y}))) \
             (else (call {runtime} (local.get {x}) (local.get {y})))))"
        )
    }
}
