//! Tests of num.wat and ops.wat: numbers, generic operators, str()/repr() and format().
//!
//! Cases are written as small call expressions (`add(1, 2.5)`, `b_round(2.675, 2)`) that are
//! translated to WAT here; the expected outputs were produced by CPython 3.11 evaluating the same
//! expressions with the names bound to the corresponding Python operations (see `PY_PRELUDE`).

mod support;

use baton_runtime::{runtime_layout, statics::Statics};

/// The Python definitions under which the case expressions were evaluated to get the expected
/// output (kept here to regenerate the tables).
#[allow(dead_code)]
const PY_PRELUDE: &str = r#"
import operator as o
add, sub, mul, truediv, floordiv, mod, pow = o.add, o.sub, o.mul, o.truediv, o.floordiv, o.mod, o.pow
lshift, rshift, bitand, bitor, bitxor = o.lshift, o.rshift, o.and_, o.or_, o.xor
neg, pos, invert = o.neg, o.pos, o.invert
eq, ne, lt, le, gt, ge = o.eq, o.ne, o.lt, o.le, o.gt, o.ge
truthy = bool
contains = lambda c, v: v in c
def iadd(a, b):
    a += b
    return a
tup = lambda *a: a
inf, nan = float('inf'), float('nan')
import builtins
b_abs, b_bool, b_divmod, b_float, b_int, b_pow, b_round = abs, bool, divmod, float, int, builtins.pow, round
b_bin, b_hex, b_oct = bin, hex, oct
"#;

#[derive(Debug)]
enum Expr {
    Int(String),
    Float(String),
    Str(String),
    Name(String),
    List(Vec<Expr>),
    Call(String, Vec<Expr>),
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i] == b' ' {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.i < self.s.len() && self.s[self.i] == c {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn args(&mut self, close: u8) -> Vec<Expr> {
        let mut out = Vec::new();
        if self.eat(close) {
            return out;
        }
        loop {
            out.push(self.expr());
            if self.eat(close) {
                return out;
            }
            assert!(self.eat(b','), "expected , at {}", self.i);
        }
    }
    fn expr(&mut self) -> Expr {
        self.ws();
        let c = self.s[self.i];
        if c == b'\'' {
            let start = self.i + 1;
            let end = start + self.s[start..].iter().position(|&b| b == b'\'').unwrap();
            self.i = end + 1;
            return Expr::Str(String::from_utf8(self.s[start..end].to_vec()).unwrap());
        }
        if c == b'[' {
            self.i += 1;
            return Expr::List(self.args(b']'));
        }
        let start = self.i;
        if c == b'-' || c.is_ascii_digit() {
            self.i += 1;
            while self.i < self.s.len() {
                let b = self.s[self.i];
                let sign_after_e =
                    (b == b'-' || b == b'+') && matches!(self.s[self.i - 1], b'e' | b'E');
                if b.is_ascii_alphanumeric() || b == b'.' || sign_after_e {
                    self.i += 1;
                } else {
                    break;
                }
            }
            let text = std::str::from_utf8(&self.s[start..self.i])
                .unwrap()
                .to_string();
            let is_float =
                text.contains(['.', 'e', 'E']) || text.ends_with("inf") || text.ends_with("nan");
            return if is_float {
                Expr::Float(text)
            } else {
                Expr::Int(text)
            };
        }
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        let name = std::str::from_utf8(&self.s[start..self.i])
            .unwrap()
            .to_string();
        assert!(!name.is_empty(), "unexpected character at {}", self.i);
        if self.eat(b'(') {
            Expr::Call(name, self.args(b')'))
        } else {
            Expr::Name(name)
        }
    }
}

fn tuple_wat(items: &[Expr], statics: &mut Statics) -> String {
    let mut out = format!("(call $test_tuple (i32.const {})", items.len());
    for item in items {
        out.push(' ');
        out.push_str(&wat_of(item, statics));
    }
    out.push(')');
    out
}

fn wat_of(e: &Expr, statics: &mut Statics) -> String {
    match e {
        Expr::Int(n) => format!("(call $int_new (i64.const {n}))"),
        Expr::Float(x) => format!("(call $float_new (f64.const {x}))"),
        Expr::Str(s) => format!("(i64.const {})", statics.str(s)),
        Expr::Name(n) => match n.as_str() {
            "None" => "(i64.const 8)".into(),
            "False" => "(i64.const 16)".into(),
            "True" => "(i64.const 24)".into(),
            "inf" => "(call $float_new (f64.const inf))".into(),
            "nan" => "(call $float_new (f64.const nan))".into(),
            _ => panic!("unknown name {n}"),
        },
        Expr::List(items) => format!("(call $test_list {})", tuple_wat(items, statics)),
        Expr::Call(f, args) => {
            let a: Vec<String> = args.iter().map(|x| wat_of(x, statics)).collect();
            match f.as_str() {
                "tup" => format!("(i64.extend_i32_u {})", tuple_wat(args, statics)),
                "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "truthy" | "contains" => {
                    format!("(call $bool (call ${f} {}))", a.join(" "))
                }
                "hash" => format!("(call $int_new (call $hash {}))", a[0]),
                "repr" => format!("(call $to_repr {})", a[0]),
                "str" => format!("(call $to_str {})", a[0]),
                name if name.starts_with("b_") => {
                    format!("(call ${name} {} (i32.const 0))", tuple_wat(args, statics))
                }
                name => format!("(call ${name} {})", a.join(" ")),
            }
        }
    }
}

const HELPERS: &str = r#"
(func $test_tuple (param $n i32) (param $a i64) (param $b i64) (param $c i64) (result i32)
  (local $t i32)
  (local.set $t (call $alloc (i32.add (i32.const 8) (i32.shl (local.get $n) (i32.const 3)))))
  (i32.store (local.get $t) (i32.const 6))
  (i32.store offset=4 (local.get $t) (local.get $n))
  (if (i32.gt_u (local.get $n) (i32.const 0)) (then (i64.store offset=8 (local.get $t) (local.get $a))))
  (if (i32.gt_u (local.get $n) (i32.const 1)) (then (i64.store offset=16 (local.get $t) (local.get $b))))
  (if (i32.gt_u (local.get $n) (i32.const 2)) (then (i64.store offset=24 (local.get $t) (local.get $c))))
  (local.get $t))
(func $test_list (param $t i32) (result i64)
  (local $l i32) (local $n i32)
  (local.set $n (i32.load offset=4 (local.get $t)))
  (local.set $l (call $alloc (i32.const 16)))
  (i32.store (local.get $l) (i32.const 7))
  (i32.store offset=4 (local.get $l) (local.get $n))
  (i32.store offset=8 (local.get $l) (local.get $n))
  (i32.store offset=12 (local.get $l) (i32.add (local.get $t) (i32.const 8)))
  (i64.extend_i32_u (local.get $l)))
(func $test_show (param $v i64)
  (call $write_str (call $to_str (local.get $v)))
  (call $write_str (i64.extend_i32_u (global.get $s_newline))))
(func $test_exc (param $e i64)
  (call $write_str (i64.extend_i32_u (global.get $s_test_bang)))
  (call $write_str (call $type_name (local.get $e)))
  (call $write_str (i64.extend_i32_u (global.get $s_test_colon)))
  (call $write_str (call $exc_str (local.get $e)))
  (call $write_str (i64.extend_i32_u (global.get $s_newline))))
"#;

/// Runs each expression and returns one output line per case (`!! Type: message` on error).
fn eval_all(exprs: &[&str]) -> Vec<String> {
    let mut statics = Statics::new(runtime_layout().plan_statics);
    let bang = statics.str("!! ");
    let colon = statics.str(": ");
    let mut body = String::from("(func $plan_main (local $e i64)\n");
    for (i, text) in exprs.iter().enumerate() {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let e = p.expr();
        // pad tuple helper arity
        let mut wat = wat_of(&e, &mut statics);
        wat = pad_tuples(&wat);
        body.push_str(&format!(
            "(block $ok{i} (local.set $e (block $h{i} (result i64) (try_table (catch $exc $h{i}) (call $test_show {wat}) (br $ok{i})) (unreachable))) (call $test_exc (local.get $e)))\n"
        ));
    }
    body.push_str(")\n");
    let functions = format!(
        "(global $s_test_bang i32 (i32.const {bang}))\n(global $s_test_colon i32 (i32.const {colon}))\n{HELPERS}\n{body}"
    );
    let outcome = support::run_with(&functions, &statics).unwrap_or_else(|e| panic!("{e}"));
    if let Some(error) = outcome.error {
        panic!("uncaught: {error}");
    }
    outcome.stdout.lines().map(str::to_string).collect()
}

/// `$test_tuple` takes exactly three item slots: fill the unused ones with zeros.
fn pad_tuples(wat: &str) -> String {
    // Rebuild by scanning for "(call $test_tuple (i32.const N)" and inserting zeros before the
    // matching close paren.
    let bytes = wat.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut stack: Vec<Option<usize>> = Vec::new();
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'(' {
            let rest = &wat[i..];
            if let Some(after) = rest.strip_prefix("(call $test_tuple (i32.const ") {
                let n: usize = after[..after.find(')').unwrap()].parse().unwrap();
                stack.push(Some(n));
            } else {
                stack.push(None);
            }
            out.push('(');
        } else if c == b')' {
            if let Some(Some(n)) = stack.pop() {
                for _ in n..3 {
                    out.push_str(" (i64.const 0)");
                }
                assert!(n <= 3, "tuples in tests hold at most 3 items");
            }
            out.push(')');
        } else {
            out.push(c as char);
        }
        i += 1;
    }
    out
}

fn check(cases: &[(&str, &str)]) {
    let exprs: Vec<&str> = cases.iter().map(|(e, _)| *e).collect();
    let got = eval_all(&exprs);
    assert_eq!(got.len(), cases.len(), "output lines: {got:?}");
    let mut failures = Vec::new();
    for ((expr, want), got) in cases.iter().zip(&got) {
        if got != want {
            failures.push(format!("{expr}\n   want: {want}\n    got: {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
/// Float repr, formatting with precision, round() and float() parsing of ~2,000 doubles (random
/// bit patterns, subnormals, decimal-looking values, powers of ten), expected output from CPython.
#[test]
fn float_table() {
    let data = include_str!("data/float_repr.txt");
    let mut statics = Statics::new(runtime_layout().plan_statics);
    let sp = statics.str(" ");
    let nl = statics.str("\n");
    let ok = statics.str("ok");
    let bad = statics.str("BAD");
    let dash = statics.str("-");
    let g17 = statics.str(".17g");
    let e6 = statics.str(".6e");
    let f3 = statics.str(".3f");
    let mut body = String::from("(func $plan_main\n");
    let mut expected = String::new();
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(' ').collect();
        let [bits, repr, _, _, f3_want, _] = fields[..] else {
            panic!("bad line {line}")
        };
        let text = statics.str(repr);
        let full = if f3_want == "-" { 0 } else { 1 };
        body.push_str(&format!(
            "(call $test_float_line (f64.reinterpret_i64 (i64.const 0x{bits})) (i64.const {text}) (i32.const {full}))\n"
        ));
        expected.push_str(&fields[1..].join(" "));
        expected.push_str(" ok\n");
    }
    body.push_str(")\n");
    let helper = format!(
        r#"(func $test_float_line (param $x f64) (param $s i64) (param $full i32)
  (local $y f64)
  (call $write_str (call $float_repr (local.get $x)))
  (call $write_str (i64.const {sp}))
  (call $write_str (call $format (call $float_new (local.get $x)) (i64.const {g17})))
  (call $write_str (i64.const {sp}))
  (call $write_str (call $format (call $float_new (local.get $x)) (i64.const {e6})))
  (call $write_str (i64.const {sp}))
  (if (local.get $full)
    (then
      (call $write_str (call $format (call $float_new (local.get $x)) (i64.const {f3})))
      (call $write_str (i64.const {sp}))
      (call $write_str (call $float_repr (call $float_round (local.get $x) (i64.const 2)))))
    (else
      (call $write_str (i64.const {dash}))
      (call $write_str (i64.const {sp}))
      (call $write_str (i64.const {dash}))))
  (call $write_str (i64.const {sp}))
  (local.set $y (call $parse_float (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16))
    (i32.load offset=4 (i32.wrap_i64 (local.get $s)))))
  (if (i64.eq (i64.reinterpret_f64 (local.get $y)) (i64.reinterpret_f64 (local.get $x)))
    (then (call $write_str (i64.const {ok})))
    (else (call $write_str (i64.const {bad}))))
  (call $write_str (i64.const {nl})))
"#
    );
    let outcome =
        support::run_with(&format!("{helper}{body}"), &statics).unwrap_or_else(|e| panic!("{e}"));
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    let mut failures = Vec::new();
    for (got, want) in outcome.stdout.lines().zip(expected.lines()) {
        if got != want {
            failures.push(format!("want: {want}\n got: {got}"));
        }
    }
    assert_eq!(outcome.stdout.lines().count(), expected.lines().count());
    assert!(
        failures.is_empty(),
        "{} of {} lines differ:\n{}",
        failures.len(),
        expected.lines().count(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn int_arithmetic() {
    check(&[
        (r#"add(1, 2)"#, r#"3"#),
        (r#"add(4611686018427387903, 1)"#, r#"4611686018427387904"#),
        (r#"add(9223372036854775807, 0)"#, r#"9223372036854775807"#),
        (
            r#"add(9223372036854775807, 1)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"sub(-9223372036854775807, 1)"#, r#"-9223372036854775808"#),
        (
            r#"sub(-9223372036854775807, 2)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"mul(3037000499, 3037000499)"#, r#"9223372030926249001"#),
        (
            r#"mul(3037000500, 3037000500)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"mul(-1, -9223372036854775807)"#, r#"9223372036854775807"#),
        (
            r#"mul(4294967296, 4294967296)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"mul(-4611686018427387904, 2)"#, r#"-9223372036854775808"#),
        (r#"mul(4611686018427387904, -2)"#, r#"-9223372036854775808"#),
        (r#"neg(-9223372036854775807)"#, r#"9223372036854775807"#),
        (
            r#"neg(sub(-9223372036854775807, 1))"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (
            r#"b_abs(sub(-9223372036854775807, 1))"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"floordiv(7, 2)"#, r#"3"#),
        (r#"floordiv(-7, 2)"#, r#"-4"#),
        (r#"floordiv(7, -2)"#, r#"-4"#),
        (r#"floordiv(-7, -2)"#, r#"3"#),
        (r#"mod(7, 3)"#, r#"1"#),
        (r#"mod(-7, 3)"#, r#"2"#),
        (r#"mod(7, -3)"#, r#"-2"#),
        (r#"mod(-7, -3)"#, r#"-1"#),
        (
            r#"floordiv(sub(-9223372036854775807, 1), -1)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"mod(sub(-9223372036854775807, 1), -1)"#, r#"0"#),
        (
            r#"floordiv(1, 0)"#,
            r#"!! ZeroDivisionError: integer division or modulo by zero"#,
        ),
        (
            r#"mod(1, 0)"#,
            r#"!! ZeroDivisionError: integer modulo by zero"#,
        ),
        (
            r#"truediv(1, 0)"#,
            r#"!! ZeroDivisionError: division by zero"#,
        ),
        (r#"truediv(1, 3)"#, r#"0.3333333333333333"#),
        (r#"truediv(6, 3)"#, r#"2.0"#),
        (r#"truediv(-7, 2)"#, r#"-3.5"#),
        (r#"truediv(9007199254740993, 1)"#, r#"9007199254740992.0"#),
        (
            r#"truediv(9223372036854775807, 3)"#,
            r#"3.0744573456182584e+18"#,
        ),
        (
            r#"truediv(1, 9007199254740993)"#,
            r#"1.1102230246251564e-16"#,
        ),
        (
            r#"truediv(9223372036854775807, 9223372036854775806)"#,
            r#"1.0"#,
        ),
        (r#"pow(2, 10)"#, r#"1024"#),
        (r#"pow(2, 62)"#, r#"4611686018427387904"#),
        (
            r#"pow(2, 63)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"pow(-2, 63)"#, r#"-9223372036854775808"#),
        (r#"pow(3, 39)"#, r#"4052555153018976267"#),
        (
            r#"pow(3, 40)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"pow(-1, 1000001)"#, r#"-1"#),
        (r#"pow(0, 0)"#, r#"1"#),
        (r#"pow(2, -1)"#, r#"0.5"#),
        (r#"pow(10, -2)"#, r#"0.01"#),
        (
            r#"pow(0, -1)"#,
            r#"!! ZeroDivisionError: 0.0 cannot be raised to a negative power"#,
        ),
        (r#"lshift(1, 62)"#, r#"4611686018427387904"#),
        (
            r#"lshift(1, 63)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"lshift(-1, 63)"#, r#"-9223372036854775808"#),
        (
            r#"lshift(3, 100)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"lshift(0, 100)"#, r#"0"#),
        (r#"lshift(1, -1)"#, r#"!! ValueError: negative shift count"#),
        (r#"rshift(-7, 1)"#, r#"-4"#),
        (r#"rshift(-1, 100)"#, r#"-1"#),
        (r#"rshift(5, 100)"#, r#"0"#),
        (r#"bitand(12, 10)"#, r#"8"#),
        (r#"bitor(12, 10)"#, r#"14"#),
        (r#"bitxor(12, 10)"#, r#"6"#),
        (r#"invert(5)"#, r#"-6"#),
        (r#"invert(True)"#, r#"-2"#),
        (r#"neg(True)"#, r#"-1"#),
        (r#"pos(True)"#, r#"1"#),
        (r#"bitand(True, False)"#, r#"False"#),
        (r#"bitor(True, False)"#, r#"True"#),
        (r#"bitxor(True, True)"#, r#"False"#),
        (r#"bitand(True, 3)"#, r#"1"#),
        (r#"add(True, 1)"#, r#"2"#),
        (r#"add(True, True)"#, r#"2"#),
        (r#"mul(True, 2.5)"#, r#"2.5"#),
        (r#"sub(2.5, True)"#, r#"1.5"#),
        (
            r#"add(1, 'a')"#,
            r#"!! TypeError: unsupported operand type(s) for +: 'int' and 'str'"#,
        ),
        (
            r#"add('a', 1)"#,
            r#"!! TypeError: can only concatenate str (not "int") to str"#,
        ),
        (
            r#"add([1], tup(2))"#,
            r#"!! TypeError: can only concatenate list (not "tuple") to list"#,
        ),
        (
            r#"sub('a', 'b')"#,
            r#"!! TypeError: unsupported operand type(s) for -: 'str' and 'str'"#,
        ),
        (
            r#"mul('ab', 1.5)"#,
            r#"!! TypeError: can't multiply sequence by non-int of type 'float'"#,
        ),
        (
            r#"mul([1], 'a')"#,
            r#"!! TypeError: can't multiply sequence by non-int of type 'str'"#,
        ),
        (
            r#"mul(1.5, 'a')"#,
            r#"!! TypeError: can't multiply sequence by non-int of type 'float'"#,
        ),
        (
            r#"bitand(1, 1.0)"#,
            r#"!! TypeError: unsupported operand type(s) for &: 'int' and 'float'"#,
        ),
        (
            r#"lshift(1.0, 1)"#,
            r#"!! TypeError: unsupported operand type(s) for <<: 'float' and 'int'"#,
        ),
        (
            r#"neg('a')"#,
            r#"!! TypeError: bad operand type for unary -: 'str'"#,
        ),
        (
            r#"invert(1.5)"#,
            r#"!! TypeError: bad operand type for unary ~: 'float'"#,
        ),
        (
            r#"pos(None)"#,
            r#"!! TypeError: bad operand type for unary +: 'NoneType'"#,
        ),
        (
            r#"add(None, None)"#,
            r#"!! TypeError: unsupported operand type(s) for +: 'NoneType' and 'NoneType'"#,
        ),
        (
            r#"pow(2, 'a')"#,
            r#"!! TypeError: unsupported operand type(s) for ** or pow(): 'int' and 'str'"#,
        ),
        (
            r#"truediv('a', 2)"#,
            r#"!! TypeError: unsupported operand type(s) for /: 'str' and 'int'"#,
        ),
        (
            r#"floordiv(None, 1)"#,
            r#"!! TypeError: unsupported operand type(s) for //: 'NoneType' and 'int'"#,
        ),
    ]);
}

#[test]
fn float_arithmetic() {
    check(&[
        (r#"add(0.1, 0.2)"#, r#"0.30000000000000004"#),
        (r#"sub(1.0, 0.9)"#, r#"0.09999999999999998"#),
        (r#"mul(1.1, 1.1)"#, r#"1.2100000000000002"#),
        (r#"truediv(1.0, 3)"#, r#"0.3333333333333333"#),
        (
            r#"truediv(1.0, 0)"#,
            r#"!! ZeroDivisionError: float division by zero"#,
        ),
        (
            r#"truediv(1, 0.0)"#,
            r#"!! ZeroDivisionError: float division by zero"#,
        ),
        (
            r#"floordiv(1.0, 0)"#,
            r#"!! ZeroDivisionError: float floor division by zero"#,
        ),
        (r#"mod(1.0, 0.0)"#, r#"!! ZeroDivisionError: float modulo"#),
        (r#"mod(-7.5, 2)"#, r#"0.5"#),
        (r#"mod(7.5, -2)"#, r#"-0.5"#),
        (r#"mod(-0.0, 1.0)"#, r#"0.0"#),
        (r#"mod(0.0, -1.0)"#, r#"-0.0"#),
        (r#"floordiv(-7.5, 2)"#, r#"-4.0"#),
        (r#"floordiv(7.5, -2)"#, r#"-4.0"#),
        (r#"floordiv(-0.0, 1)"#, r#"-0.0"#),
        (r#"floordiv(1e308, 1e-308)"#, r#"inf"#),
        (r#"mod(5.0, inf)"#, r#"5.0"#),
        (r#"mod(-5.0, inf)"#, r#"inf"#),
        (r#"floordiv(5.0, inf)"#, r#"0.0"#),
        (r#"floordiv(-5.0, inf)"#, r#"-1.0"#),
        (r#"mod(inf, 2.0)"#, r#"nan"#),
        (r#"mod(1e300, 3.0)"#, r#"0.0"#),
        (r#"mod(0.3, 0.1)"#, r#"0.09999999999999998"#),
        (r#"floordiv(0.3, 0.1)"#, r#"2.0"#),
        (r#"mul(1e308, 10)"#, r#"inf"#),
        (r#"sub(inf, inf)"#, r#"nan"#),
        (r#"neg(0.0)"#, r#"-0.0"#),
        (r#"b_abs(-0.0)"#, r#"0.0"#),
        (r#"b_abs(-2.5)"#, r#"2.5"#),
        (r#"pow(2.0, 0.5)"#, r#"1.4142135623730951"#),
        (r#"pow(2.0, -1)"#, r#"0.5"#),
        (r#"pow(1.1, 10)"#, r#"2.5937424601000023"#),
        (r#"pow(10.0, 308)"#, r#"1e+308"#),
        (
            r#"pow(10.0, 309)"#,
            r#"!! OverflowError: (34, 'Numerical result out of range')"#,
        ),
        (r#"pow(10.0, -320)"#, r#"1e-320"#),
        (
            r#"pow(0.0, -1.0)"#,
            r#"!! ZeroDivisionError: 0.0 cannot be raised to a negative power"#,
        ),
        (
            r#"pow(-8.0, 0.5)"#,
            r#"!! ValueError: negative number cannot be raised to a fractional power"#,
        ),
        (r#"pow(-2.0, 3)"#, r#"-8.0"#),
        (r#"pow(-2.0, 4.0)"#, r#"16.0"#),
        (r#"pow(2, 0.5)"#, r#"1.4142135623730951"#),
        (r#"pow(1.0000001, 1e9)"#, r#"2.6881038582144647e+43"#),
        (r#"pow(3.0, 0.3333333333333333)"#, r#"1.4422495703074083"#),
        (r#"pow(7.0, 22)"#, r#"3.9098210485829883e+18"#),
        (r#"pow(inf, -1)"#, r#"0.0"#),
        (r#"pow(-inf, 3)"#, r#"-inf"#),
        (r#"pow(nan, 0)"#, r#"1.0"#),
        (r#"pow(1.0, nan)"#, r#"1.0"#),
        (r#"pow(0.5, inf)"#, r#"0.0"#),
        (r#"pow(-1.0, inf)"#, r#"1.0"#),
        (r#"pow(2.5, -3.5)"#, r#"0.040477154050155256"#),
        (r#"pow(123.456, 7.89)"#, r#"3.1771028258180936e+16"#),
        (r#"pow(1e-5, 0.3)"#, r#"0.0316227766016838"#),
        (r#"pow(0.0, 0.0)"#, r#"1.0"#),
        (r#"pow(-0.0, 3)"#, r#"-0.0"#),
        (r#"pow(2.0, 1023)"#, r#"8.98846567431158e+307"#),
        (
            r#"pow(2.0, 1024)"#,
            r#"!! OverflowError: (34, 'Numerical result out of range')"#,
        ),
        (r#"pow(2.0, -1074)"#, r#"5e-324"#),
        (r#"pow(2.0, -1075)"#, r#"0.0"#),
        (r#"pow(5.0, -3)"#, r#"0.008"#),
        (
            r#"pow(10, 22)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (r#"pow(10.0, 22)"#, r#"1e+22"#),
        (r#"pow(10.0, 23)"#, r#"1.0000000000000001e+23"#),
        (r#"pow(1.5, 2)"#, r#"2.25"#),
        (r#"pow(9.0, 0.5)"#, r#"3.0"#),
        (r#"pow(27.0, 0.3333333333333333)"#, r#"3.0"#),
    ]);
}

#[test]
fn comparisons() {
    check(&[
        (r#"eq(1, 1.0)"#, r#"True"#),
        (r#"eq(True, 1)"#, r#"True"#),
        (
            r#"eq(add(pow(2, 53), 1), b_float(add(pow(2, 53), 1)))"#,
            r#"False"#,
        ),
        (r#"gt(add(pow(2, 53), 1), b_float(pow(2, 53)))"#, r#"True"#),
        (r#"lt(b_float(pow(2, 53)), add(pow(2, 53), 1))"#, r#"True"#),
        (r#"eq(nan, nan)"#, r#"False"#),
        (r#"ne(nan, nan)"#, r#"True"#),
        (r#"lt(nan, 1)"#, r#"False"#),
        (r#"ge(nan, 1)"#, r#"False"#),
        (r#"lt(1, inf)"#, r#"True"#),
        (r#"gt(9223372036854775807, 9.2e18)"#, r#"True"#),
        (r#"lt(9223372036854775807, 9.3e18)"#, r#"True"#),
        (
            r#"eq(9223372036854775807, 9223372036854775808.0)"#,
            r#"False"#,
        ),
        (r#"lt(-9223372036854775807, -9.3e18)"#, r#"False"#),
        (
            r#"lt(4611686018427387905, 4611686018427387905.5)"#,
            r#"False"#,
        ),
        (r#"lt(1, 1.5)"#, r#"True"#),
        (r#"gt(2, 1.5)"#, r#"True"#),
        (r#"le(1.5, 1.5)"#, r#"True"#),
        (r#"lt('a', 'b')"#, r#"True"#),
        (
            r#"lt(1, 'a')"#,
            r#"!! TypeError: '<' not supported between instances of 'int' and 'str'"#,
        ),
        (
            r#"lt([], 1)"#,
            r#"!! TypeError: '<' not supported between instances of 'list' and 'int'"#,
        ),
        (
            r#"le(None, None)"#,
            r#"!! TypeError: '<=' not supported between instances of 'NoneType' and 'NoneType'"#,
        ),
        (
            r#"gt(tup(1), 1)"#,
            r#"!! TypeError: '>' not supported between instances of 'tuple' and 'int'"#,
        ),
        (
            r#"ge(1.5, 'x')"#,
            r#"!! TypeError: '>=' not supported between instances of 'float' and 'str'"#,
        ),
        (r#"eq('a', 'a')"#, r#"True"#),
        (r#"eq('a', 1)"#, r#"False"#),
        (r#"eq([1, 2], [1, 2])"#, r#"True"#),
        (r#"eq(tup(1, 2), [1, 2])"#, r#"False"#),
        (r#"eq(None, None)"#, r#"True"#),
        (r#"ne(None, 0)"#, r#"True"#),
        (r#"eq(1, '1')"#, r#"False"#),
        (r#"lt(9007199254740993, 9007199254740992.0)"#, r#"False"#),
        (r#"gt(9007199254740993, 9007199254740992.0)"#, r#"True"#),
        (r#"eq(-0.0, 0)"#, r#"True"#),
        (r#"lt(-1, -0.5)"#, r#"True"#),
    ]);
}

#[test]
fn truthiness_and_hash() {
    check(&[
        (r#"truthy(0)"#, r#"False"#),
        (r#"truthy(1)"#, r#"True"#),
        (r#"truthy(0.0)"#, r#"False"#),
        (r#"truthy(-0.0)"#, r#"False"#),
        (r#"truthy(nan)"#, r#"True"#),
        (r#"truthy(None)"#, r#"False"#),
        (r#"truthy(False)"#, r#"False"#),
        (r#"truthy(True)"#, r#"True"#),
        (r#"truthy('')"#, r#"False"#),
        (r#"truthy('a')"#, r#"True"#),
        (r#"truthy(tup())"#, r#"False"#),
        (r#"truthy(tup(0))"#, r#"True"#),
        (r#"truthy([])"#, r#"False"#),
        (r#"truthy([0])"#, r#"True"#),
        (r#"truthy(9223372036854775807)"#, r#"True"#),
        (
            r#"truthy(sub(9223372036854775807, 9223372036854775807))"#,
            r#"False"#,
        ),
        (r#"hash(1)"#, r#"1"#),
        (r#"hash(1.0)"#, r#"1"#),
        (r#"hash(True)"#, r#"1"#),
        (r#"hash(-1)"#, r#"-2"#),
        (r#"hash(-2)"#, r#"-2"#),
        (r#"hash(2305843009213693951)"#, r#"0"#),
        (r#"hash(2305843009213693952)"#, r#"1"#),
        (r#"hash(9223372036854775807)"#, r#"3"#),
        (r#"hash(sub(-9223372036854775807, 1))"#, r#"-4"#),
        (r#"hash(1.5)"#, r#"1152921504606846977"#),
        (r#"hash(-1.5)"#, r#"-1152921504606846977"#),
        (r#"hash(0.1)"#, r#"230584300921369408"#),
        (r#"hash(1e100)"#, r#"1822893315824342674"#),
        (r#"hash(-1e-100)"#, r#"-1735222877707689105"#),
        (r#"hash(inf)"#, r#"314159"#),
        (r#"hash(neg(inf))"#, r#"-314159"#),
        (r#"hash(4e18)"#, r#"1694156990786306049"#),
        (r#"hash(1e19)"#, r#"776627963145224196"#),
        (r#"hash(5e-324)"#, r#"16777216"#),
        (r#"hash(123456.789)"#, r#"1819310134279660096"#),
        (r#"hash([1])"#, r#"!! TypeError: unhashable type: 'list'"#),
        (
            r#"hash(tup(1, [2]))"#,
            r#"!! TypeError: unhashable type: 'list'"#,
        ),
        (r#"contains([1, 2], 2)"#, r#"True"#),
        (r#"contains([1, 2], 3)"#, r#"False"#),
        (r#"contains(tup(1, 2.0), 2)"#, r#"True"#),
        (
            r#"contains(5, 1)"#,
            r#"!! TypeError: argument of type 'int' is not iterable"#,
        ),
        (r#"contains('abc', 'b')"#, r#"True"#),
    ]);
}

#[test]
fn str_and_repr() {
    check(&[
        (r#"repr(None)"#, r#"None"#),
        (r#"repr(True)"#, r#"True"#),
        (r#"repr(False)"#, r#"False"#),
        (r#"repr(0)"#, r#"0"#),
        (r#"repr(-5)"#, r#"-5"#),
        (r#"repr(9223372036854775807)"#, r#"9223372036854775807"#),
        (
            r#"repr(sub(-9223372036854775807, 1))"#,
            r#"-9223372036854775808"#,
        ),
        (r#"repr(0.1)"#, r#"0.1"#),
        (r#"repr(1e16)"#, r#"1e+16"#),
        (r#"repr(1e-05)"#, r#"1e-05"#),
        (r#"repr(2.0)"#, r#"2.0"#),
        (r#"repr(add(0.1, 0.2))"#, r#"0.30000000000000004"#),
        (
            r#"repr(1.7976931348623157e308)"#,
            r#"1.7976931348623157e+308"#,
        ),
        (r#"repr(5e-324)"#, r#"5e-324"#),
        (r#"repr(inf)"#, r#"inf"#),
        (r#"repr(neg(inf))"#, r#"-inf"#),
        (r#"repr(nan)"#, r#"nan"#),
        (r#"repr(-0.0)"#, r#"-0.0"#),
        (r#"repr(1e15)"#, r#"1000000000000000.0"#),
        (r#"repr(123456789012345678.0)"#, r#"1.2345678901234568e+17"#),
        (r#"repr(0.0001)"#, r#"0.0001"#),
        (r#"repr(0.00001)"#, r#"1e-05"#),
        (r#"repr(1e22)"#, r#"1e+22"#),
        (r#"repr(1e23)"#, r#"1e+23"#),
        (r#"repr(9007199254740993.0)"#, r#"9007199254740992.0"#),
        (r#"repr(2.5e-310)"#, r#"2.5e-310"#),
        (r#"repr(100.0)"#, r#"100.0"#),
        (r#"repr(1234.5)"#, r#"1234.5"#),
        (r#"str(1.5)"#, r#"1.5"#),
        (r#"str('abc')"#, r#"abc"#),
        (r#"repr('abc')"#, r#"'abc'"#),
        (r#"repr(tup(1, 'a', 2.5))"#, r#"(1, 'a', 2.5)"#),
        (r#"repr([1, tup()])"#, r#"[1, ()]"#),
        (r#"repr(tup(1))"#, r#"(1,)"#),
        (r#"repr(b_divmod(7, 2))"#, r#"(3, 1)"#),
        (r#"repr(b_divmod(-7.5, 2))"#, r#"(-4.0, 0.5)"#),
        (
            r#"b_divmod(1, 0)"#,
            r#"!! ZeroDivisionError: integer division or modulo by zero"#,
        ),
        (
            r#"b_divmod(1.0, 0)"#,
            r#"!! ZeroDivisionError: float divmod()"#,
        ),
        (
            r#"b_divmod('a', 1)"#,
            r#"!! TypeError: unsupported operand type(s) for divmod(): 'str' and 'int'"#,
        ),
    ]);
}

#[test]
fn builtins() {
    check(&[
        (r#"b_abs(-5)"#, r#"5"#),
        (r#"b_abs(5.5)"#, r#"5.5"#),
        (r#"b_abs(True)"#, r#"1"#),
        (
            r#"b_abs('a')"#,
            r#"!! TypeError: bad operand type for abs(): 'str'"#,
        ),
        (
            r#"b_abs()"#,
            r#"!! TypeError: abs() takes exactly one argument (0 given)"#,
        ),
        (
            r#"b_abs(1, 2)"#,
            r#"!! TypeError: abs() takes exactly one argument (2 given)"#,
        ),
        (r#"b_bool()"#, r#"False"#),
        (r#"b_bool(0)"#, r#"False"#),
        (r#"b_bool('x')"#, r#"True"#),
        (
            r#"b_bool(1, 2)"#,
            r#"!! TypeError: bool expected at most 1 argument, got 2"#,
        ),
        (r#"b_int()"#, r#"0"#),
        (r#"b_int(5)"#, r#"5"#),
        (r#"b_int(True)"#, r#"1"#),
        (r#"b_int(-2.7)"#, r#"-2"#),
        (r#"b_int(2.7)"#, r#"2"#),
        (r#"b_int(1e18)"#, r#"1000000000000000000"#),
        (
            r#"b_int(1e19)"#,
            r#"!! OverflowError: integer overflow: result does not fit in 64 bits"#,
        ),
        (
            r#"b_int(nan)"#,
            r#"!! ValueError: cannot convert float NaN to integer"#,
        ),
        (
            r#"b_int(inf)"#,
            r#"!! OverflowError: cannot convert float infinity to integer"#,
        ),
        (r#"b_int('42')"#, r#"42"#),
        (r#"b_int('  -42  ')"#, r#"-42"#),
        (r#"b_int('+7')"#, r#"7"#),
        (r#"b_int('1_000')"#, r#"1000"#),
        (
            r#"b_int('1__0')"#,
            r#"!! ValueError: invalid literal for int() with base 10: '1__0'"#,
        ),
        (
            r#"b_int('_1')"#,
            r#"!! ValueError: invalid literal for int() with base 10: '_1'"#,
        ),
        (
            r#"b_int('1_')"#,
            r#"!! ValueError: invalid literal for int() with base 10: '1_'"#,
        ),
        (
            r#"b_int('abc')"#,
            r#"!! ValueError: invalid literal for int() with base 10: 'abc'"#,
        ),
        (
            r#"b_int('')"#,
            r#"!! ValueError: invalid literal for int() with base 10: ''"#,
        ),
        (
            r#"b_int(' ')"#,
            r#"!! ValueError: invalid literal for int() with base 10: ' '"#,
        ),
        (
            r#"b_int('1.5')"#,
            r#"!! ValueError: invalid literal for int() with base 10: '1.5'"#,
        ),
        (r#"b_int('ff', 16)"#, r#"255"#),
        (r#"b_int('0xff', 16)"#, r#"255"#),
        (r#"b_int('0xff', 0)"#, r#"255"#),
        (r#"b_int('0o17', 0)"#, r#"15"#),
        (r#"b_int('0b101', 0)"#, r#"5"#),
        (r#"b_int('0b_101', 0)"#, r#"5"#),
        (
            r#"b_int('010', 0)"#,
            r#"!! ValueError: invalid literal for int() with base 0: '010'"#,
        ),
        (r#"b_int('000', 0)"#, r#"0"#),
        (r#"b_int('z', 36)"#, r#"35"#),
        (
            r#"b_int('12', 2)"#,
            r#"!! ValueError: invalid literal for int() with base 2: '12'"#,
        ),
        (
            r#"b_int('1', 1)"#,
            r#"!! ValueError: int() base must be >= 2 and <= 36, or 0"#,
        ),
        (
            r#"b_int('1', 37)"#,
            r#"!! ValueError: int() base must be >= 2 and <= 36, or 0"#,
        ),
        (
            r#"b_int(2.5, 2)"#,
            r#"!! TypeError: int() can't convert non-string with explicit base"#,
        ),
        (r#"b_int('9223372036854775807')"#, r#"9223372036854775807"#),
        (
            r#"b_int('-9223372036854775808')"#,
            r#"-9223372036854775808"#,
        ),
        (
            r#"b_int([])"#,
            r#"!! TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'"#,
        ),
        (
            r#"b_int(None)"#,
            r#"!! TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'"#,
        ),
        (
            r#"b_int(1, 2, 3)"#,
            r#"!! TypeError: int() takes at most 2 arguments (3 given)"#,
        ),
        (r#"b_float()"#, r#"0.0"#),
        (r#"b_float(3)"#, r#"3.0"#),
        (r#"b_float('1e5')"#, r#"100000.0"#),
        (r#"b_float('  3.5 ')"#, r#"3.5"#),
        (r#"b_float('inf')"#, r#"inf"#),
        (r#"b_float('-inf')"#, r#"-inf"#),
        (r#"b_float('nan')"#, r#"nan"#),
        (r#"b_float('Infinity')"#, r#"inf"#),
        (r#"b_float('-iNF')"#, r#"-inf"#),
        (
            r#"b_float('x')"#,
            r#"!! ValueError: could not convert string to float: 'x'"#,
        ),
        (r#"b_float('1_000.5')"#, r#"1000.5"#),
        (r#"b_float('1e1_0')"#, r#"10000000000.0"#),
        (r#"b_float('.5')"#, r#"0.5"#),
        (r#"b_float('5.')"#, r#"5.0"#),
        (
            r#"b_float('.')"#,
            r#"!! ValueError: could not convert string to float: '.'"#,
        ),
        (
            r#"b_float('1e')"#,
            r#"!! ValueError: could not convert string to float: '1e'"#,
        ),
        (
            r#"b_float('--1')"#,
            r#"!! ValueError: could not convert string to float: '--1'"#,
        ),
        (
            r#"b_float([])"#,
            r#"!! TypeError: float() argument must be a string or a real number, not 'list'"#,
        ),
        (
            r#"b_float(1, 2)"#,
            r#"!! TypeError: float expected at most 1 argument, got 2"#,
        ),
        (r#"b_float('0.1')"#, r#"0.1"#),
        (r#"b_float('1e-400')"#, r#"0.0"#),
        (r#"b_float('1e400')"#, r#"inf"#),
        (
            r#"b_float('2.2250738585072011e-308')"#,
            r#"2.225073858507201e-308"#,
        ),
        (r#"b_float('4.9406564584124654e-324')"#, r#"5e-324"#),
        (r#"b_float('2.4703282292062327e-324')"#, r#"0.0"#),
        (r#"b_float('2.4703282292062328e-324')"#, r#"5e-324"#),
        (r#"b_float('9007199254740993')"#, r#"9007199254740992.0"#),
        (
            r#"b_float('9007199254740993.0000000001')"#,
            r#"9007199254740994.0"#,
        ),
        (
            r#"b_float('1.7976931348623158e308')"#,
            r#"1.7976931348623157e+308"#,
        ),
        (r#"b_float('1.7976931348623159e308')"#, r#"inf"#),
        (
            r#"b_float('0.30000000000000004')"#,
            r#"0.30000000000000004"#,
        ),
        (
            r#"b_float('123456789012345678901234567890')"#,
            r#"1.2345678901234568e+29"#,
        ),
        (
            r#"b_float('0.000000000000000000000000000000000000000000001')"#,
            r#"1e-45"#,
        ),
        (r#"b_round(0.5)"#, r#"0"#),
        (r#"b_round(1.5)"#, r#"2"#),
        (r#"b_round(2.5)"#, r#"2"#),
        (r#"b_round(-0.5)"#, r#"0"#),
        (r#"b_round(2.675, 2)"#, r#"2.67"#),
        (r#"b_round(1.2345, 3)"#, r#"1.234"#),
        (r#"b_round(1234.5, -2)"#, r#"1200.0"#),
        (r#"b_round(1250.0, -2)"#, r#"1200.0"#),
        (r#"b_round(-1.5)"#, r#"-2"#),
        (r#"b_round(1e300, -299)"#, r#"1e+300"#),
        (r#"b_round(7)"#, r#"7"#),
        (r#"b_round(1250, -2)"#, r#"1200"#),
        (r#"b_round(1350, -2)"#, r#"1400"#),
        (r#"b_round(-1250, -2)"#, r#"-1200"#),
        (r#"b_round(1249, -2)"#, r#"1200"#),
        (r#"b_round(15, -1)"#, r#"20"#),
        (r#"b_round(25, -1)"#, r#"20"#),
        (r#"b_round(7, 2)"#, r#"7"#),
        (r#"b_round(123, -5)"#, r#"0"#),
        (r#"b_round(2.5, None)"#, r#"2"#),
        (
            r#"b_round(inf)"#,
            r#"!! OverflowError: cannot convert float infinity to integer"#,
        ),
        (
            r#"b_round(nan)"#,
            r#"!! ValueError: cannot convert float NaN to integer"#,
        ),
        (r#"b_round(inf, 2)"#, r#"inf"#),
        (
            r#"b_round('a')"#,
            r#"!! TypeError: type str doesn't define __round__ method"#,
        ),
        (
            r#"b_round(1.5, 'a')"#,
            r#"!! TypeError: 'str' object cannot be interpreted as an integer"#,
        ),
        (r#"b_round(0.1, 400)"#, r#"0.1"#),
        (
            r#"b_round(1.7976931348623157e308, -308)"#,
            r#"!! OverflowError: rounded value too large to represent"#,
        ),
        (r#"b_round(5e-324, 400)"#, r#"5e-324"#),
        (r#"b_round(-0.001, 2)"#, r#"-0.0"#),
        (r#"b_round(0.285, 2)"#, r#"0.28"#),
        (r#"b_round(0.125, 2)"#, r#"0.12"#),
        (r#"b_divmod(7, -2)"#, r#"(-4, -1)"#),
        (r#"b_divmod(-7, 2)"#, r#"(-4, 1)"#),
        (r#"b_divmod(7.0, 2)"#, r#"(3.0, 1.0)"#),
        (r#"b_pow(2, 10)"#, r#"1024"#),
        (r#"b_pow(2, 10, 1000)"#, r#"24"#),
        (r#"b_pow(2, -1, 5)"#, r#"3"#),
        (r#"b_pow(3, 200, 7)"#, r#"2"#),
        (
            r#"b_pow(2, 3, 0)"#,
            r#"!! ValueError: pow() 3rd argument cannot be 0"#,
        ),
        (
            r#"b_pow(2.0, 3, 5)"#,
            r#"!! TypeError: pow() 3rd argument not allowed unless all arguments are integers"#,
        ),
        (r#"b_pow(2, 3, -5)"#, r#"-2"#),
        (r#"b_pow(-2, 3, 5)"#, r#"2"#),
        (
            r#"b_pow(4, -1, 8)"#,
            r#"!! ValueError: base is not invertible for the given modulus"#,
        ),
        (r#"b_pow(2, 0.5)"#, r#"1.4142135623730951"#),
        (r#"b_pow(123456789, 987654321, 1000000007)"#, r#"652541198"#),
        (r#"b_pow(3, 5, 9223372036854775807)"#, r#"243"#),
        (r#"b_bin(5)"#, r#"0b101"#),
        (r#"b_bin(-5)"#, r#"-0b101"#),
        (r#"b_bin(0)"#, r#"0b0"#),
        (r#"b_hex(255)"#, r#"0xff"#),
        (r#"b_hex(-255)"#, r#"-0xff"#),
        (r#"b_oct(8)"#, r#"0o10"#),
        (r#"b_oct(-8)"#, r#"-0o10"#),
        (r#"b_hex(9223372036854775807)"#, r#"0x7fffffffffffffff"#),
        (
            r#"b_bin(sub(-9223372036854775807, 1))"#,
            r#"-0b1000000000000000000000000000000000000000000000000000000000000000"#,
        ),
        (
            r#"b_bin(1.5)"#,
            r#"!! TypeError: 'float' object cannot be interpreted as an integer"#,
        ),
        (
            r#"b_hex()"#,
            r#"!! TypeError: hex() takes exactly one argument (0 given)"#,
        ),
        (r#"b_bin(True)"#, r#"0b1"#),
    ]);
}

#[test]
fn formatting() {
    check(&[
        (r#"format(3.14159, '>10.3f')"#, r#"     3.142"#),
        (r#"format(1234567, ',')"#, r#"1,234,567"#),
        (r#"format(3.14159, '08.2f')"#, r#"00003.14"#),
        (r#"format(42, '+d')"#, r#"+42"#),
        (r#"format(1234.5, 'e')"#, r#"1.234500e+03"#),
        (r#"format(0.1234, '.2%')"#, r#"12.34%"#),
        (r#"format(1234.5, 'g')"#, r#"1234.5"#),
        (r#"format(1234, '010,')"#, r#"00,001,234"#),
        (r#"format(1234, '08,')"#, r#"0,001,234"#),
        (r#"format(-1234.5, '010,.1f')"#, r#"-001,234.5"#),
        (r#"format(255, '#010x')"#, r#"0x000000ff"#),
        (r#"format(255, '#012_b')"#, r#"0b0_1111_1111"#),
        (r#"format(12345678, '_x')"#, r#"bc_614e"#),
        (r#"format(-5, '#b')"#, r#"-0b101"#),
        (r#"format(255, 'X')"#, r#"FF"#),
        (r#"format(255, '#o')"#, r#"0o377"#),
        (r#"format(1e16, '')"#, r#"1e+16"#),
        (r#"format(1.0, '.3')"#, r#"1.0"#),
        (r#"format(1234.5, '.3')"#, r#"1.23e+03"#),
        (r#"format(123.0, '.3')"#, r#"1.23e+02"#),
        (r#"format(1e22, '.3')"#, r#"1e+22"#),
        (r#"format(1e-7, '.3')"#, r#"1e-07"#),
        (r#"format(0.0001, 'g')"#, r#"0.0001"#),
        (r#"format(0.00001, 'g')"#, r#"1e-05"#),
        (r#"format(123456789, 'g')"#, r#"1.23457e+08"#),
        (r#"format(100000, 'g')"#, r#"100000"#),
        (r#"format(1e6, 'g')"#, r#"1e+06"#),
        (r#"format(1.5, '#g')"#, r#"1.50000"#),
        (r#"format(2, '#.0f')"#, r#"2."#),
        (r#"format(2.0, '.0e')"#, r#"2e+00"#),
        (r#"format(2.0, '#.0e')"#, r#"2.e+00"#),
        (r#"format(0.5, '.0f')"#, r#"0"#),
        (r#"format(1.5, '.0f')"#, r#"2"#),
        (r#"format(2.5, '.0f')"#, r#"2"#),
        (r#"format(2.675, '.2f')"#, r#"2.67"#),
        (r#"format(0.25, '.1f')"#, r#"0.2"#),
        (r#"format(0.35, '.1f')"#, r#"0.3"#),
        (r#"format(nan, '08.2f')"#, r#"00000nan"#),
        (r#"format(neg(inf), '+f')"#, r#"-inf"#),
        (r#"format(inf, 'F')"#, r#"INF"#),
        (r#"format(nan, 'E')"#, r#"NAN"#),
        (r#"format(-0.0, 'z.1f')"#, r#"0.0"#),
        (r#"format(-0.001, 'z.1f')"#, r#"0.0"#),
        (r#"format(-0.0, '')"#, r#"-0.0"#),
        (r#"format(-0.0, 'z')"#, r#"0.0"#),
        (r#"format(-0.0, '.1f')"#, r#"-0.0"#),
        (r#"format(65, 'c')"#, r#"A"#),
        (r#"format(8364, 'c')"#, r#"€"#),
        (r#"format(True, '')"#, r#"True"#),
        (r#"format(True, 'd')"#, r#"1"#),
        (r#"format(True, '>5')"#, r#"    1"#),
        (r#"format(None, '')"#, r#"None"#),
        (r#"format(12, '^+9')"#, r#"   +12   "#),
        (r#"format(1.0, '=+9')"#, r#"+     1.0"#),
        (r#"format(1, '<05')"#, r#"10000"#),
        (r#"format(-1, '<05')"#, r#"-1000"#),
        (r#"format(1, '^05')"#, r#"00100"#),
        (r#"format(3, '=^5')"#, r#"==3=="#),
        (r#"format(1, '€^5')"#, r#"€€1€€"#),
        (
            r#"format(1, 'xx')"#,
            r#"!! ValueError: Invalid format specifier 'xx' for object of type 'int'"#,
        ),
        (
            r#"format(1.5, 'xx')"#,
            r#"!! ValueError: Invalid format specifier 'xx' for object of type 'float'"#,
        ),
        (
            r#"format(1, '.')"#,
            r#"!! ValueError: Format specifier missing precision"#,
        ),
        (
            r#"format(1, '+c')"#,
            r#"!! ValueError: Sign not allowed with integer format specifier 'c'"#,
        ),
        (
            r#"format(1, 'q')"#,
            r#"!! ValueError: Unknown format code 'q' for object of type 'int'"#,
        ),
        (
            r#"format(1, '.2d')"#,
            r#"!! ValueError: Precision not allowed in integer format specifier"#,
        ),
        (
            r#"format(1, ',x')"#,
            r#"!! ValueError: Cannot specify ',' with 'x'."#,
        ),
        (
            r#"format(1.5, 'd')"#,
            r#"!! ValueError: Unknown format code 'd' for object of type 'float'"#,
        ),
        (
            r#"format(1, 'z')"#,
            r#"!! ValueError: Negative zero coercion (z) not allowed in integer format specifier"#,
        ),
        (
            r#"format([], 'x')"#,
            r#"!! TypeError: unsupported format string passed to list.__format__"#,
        ),
        (r#"format([], '')"#, r#"[]"#),
        (
            r#"format(5, ',b')"#,
            r#"!! ValueError: Cannot specify ',' with 'b'."#,
        ),
        (
            r#"format(1.5, 'c')"#,
            r#"!! ValueError: Unknown format code 'c' for object of type 'float'"#,
        ),
        (
            r#"format(1, ',_')"#,
            r#"!! ValueError: Cannot specify both ',' and '_'."#,
        ),
        (r#"format(12345, '_')"#, r#"12_345"#),
        (r#"format(1.0, '_')"#, r#"1.0"#),
        (r#"format(1234567.0, ',')"#, r#"1,234,567.0"#),
        (r#"format(1e20, ',')"#, r#"1e+20"#),
        (r#"format(1234567.891, ',.2f')"#, r#"1,234,567.89"#),
        (r#"format(1e100, '.3e')"#, r#"1.000e+100"#),
        (r#"format(5e-324, 'e')"#, r#"4.940656e-324"#),
        (
            r#"format(5e-324, '.20e')"#,
            r#"4.94065645841246544177e-324"#,
        ),
        (
            r#"format(1.7976931348623157e308, 'f')"#,
            r#"179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.000000"#,
        ),
        (r#"format(0.000123456, 'e')"#, r#"1.234560e-04"#),
        (r#"format(99.99, '.1f')"#, r#"100.0"#),
        (r#"format(99.95, '.1f')"#, r#"100.0"#),
        (r#"format(9.999, '.2e')"#, r#"1.00e+01"#),
        (r#"format(0.0, 'e')"#, r#"0.000000e+00"#),
        (r#"format(0.0, 'g')"#, r#"0"#),
        (r#"format(0.0, '%')"#, r#"0.000000%"#),
        (r#"format(1, '%')"#, r#"100.000000%"#),
        (r#"format(10, 'e')"#, r#"1.000000e+01"#),
        (r#"format(10, '.1f')"#, r#"10.0"#),
        (r#"format(-7, '08')"#, r#"-0000007"#),
        (r#"format(-7, ' d')"#, r#"-7"#),
        (r#"format(7, ' d')"#, r#" 7"#),
        (r#"format(7.5, ' ')"#, r#" 7.5"#),
        (r#"format(123.456, '10')"#, r#"   123.456"#),
        (r#"format(123.456, '<10')"#, r#"123.456   "#),
        (r#"format(123.456, '^10.1f')"#, r#"  123.5   "#),
        (r#"format(1e-10, 'f')"#, r#"0.000000"#),
        (r#"format(1e-10, '.12f')"#, r#"0.000000000100"#),
        (r#"format(123456789.0, '.3g')"#, r#"1.23e+08"#),
        (r#"format(0.5, 'n')"#, r#"0.5"#),
        (r#"format(12345, 'n')"#, r#"12345"#),
        (r#"format(1.5, '#.3g')"#, r#"1.50"#),
        (r#"format(100.0, '#g')"#, r#"100.000"#),
        (r#"format(1e-5, '#g')"#, r#"1.00000e-05"#),
    ]);
}
