#![allow(clippy::approx_constant)] // 3.14159 is test data, not an approximation of pi.
//! Tests of printf-style formatting (`str % values`, str.wat's `$str_percent`, reached through
//! ops.wat's `$mod`) and of the int and float methods (num.wat's `$num_method`, reached through
//! call.wat's `$call_method`). Expected results are what CPython 3.11 prints: the repr of the
//! result, or `Type: message` for an exception.

mod support;

use baton_runtime::{runtime_layout, statics::Statics};
use support::run_with;

/// A Python value to build in the test module.
#[derive(Clone, Debug)]
pub enum V {
    N,
    B(bool),
    I(i64),
    F(f64),
    S(&'static str),
    T(Vec<V>),
    L(Vec<V>),
    D(Vec<(V, V)>),
}
use V::*;

const HELPERS: &str = r#"
(func $tstart (result i64) (call $list_new (i32.const 4)))
(func $tpush (param $l i64) (param $v i64) (result i64) (call $list_append (local.get $l) (local.get $v)) (local.get $l))
(func $dput (param $d i64) (param $k i64) (param $v i64) (result i64) (call $dict_set (local.get $d) (local.get $k) (local.get $v)) (local.get $d))
(func $show_exc (param $e i64)
  (local $m i64) (local $sb i32)
  (local.set $sb (call $sb_new))
  (call $sb_push_str (local.get $sb) (call $type_name (local.get $e)))
  (local.set $m (call $exc_str (local.get $e)))
  (if (i32.load offset=4 (i32.wrap_i64 (local.get $m)))
    (then (call $sb_push_byte (local.get $sb) (i32.const 58)) (call $sb_push_byte (local.get $sb) (i32.const 32))
      (call $sb_push_str (local.get $sb) (local.get $m))))
  (call $write_str (call $sb_finish (local.get $sb))))
"#;

struct Cases {
    statics: Statics,
    body: String,
    expected: Vec<String>,
    sources: Vec<String>,
}

impl Cases {
    fn new() -> Self {
        Cases {
            statics: Statics::new(runtime_layout().plan_statics),
            body: String::new(),
            expected: vec![],
            sources: vec![],
        }
    }

    /// A WAT i64 expression building the value.
    fn value(&mut self, v: &V) -> String {
        match v {
            N => "(i64.const 8)".into(),
            B(b) => format!("(i64.const {})", if *b { 24 } else { 16 }),
            I(n) => {
                if (-(1i64 << 62)..(1i64 << 62)).contains(n) {
                    format!("(i64.const {})", (n << 1) | 1)
                } else {
                    format!("(i64.const {})", self.statics.boxed_int(*n))
                }
            }
            F(x) => format!("(i64.const {})", self.statics.float(*x)),
            S(s) => format!("(i64.const {})", self.statics.str(s)),
            T(items) => format!("(call $tuple_from {})", self.list(items)),
            L(items) => self.list(items),
            D(pairs) => {
                let mut e = "(call $dict_new)".to_owned();
                for (k, v) in pairs {
                    e = format!("(call $dput {e} {} {})", self.value(k), self.value(v));
                }
                e
            }
        }
    }

    fn list(&mut self, items: &[V]) -> String {
        let mut e = "(call $tstart)".to_owned();
        for item in items {
            e = format!("(call $tpush {e} {})", self.value(item));
        }
        e
    }

    /// A case: `expr` is a WAT i64 expression; prints its repr or the exception it raises.
    fn case(&mut self, source: String, expr: String, expected: &str) {
        let line = self.expected.len();
        let nl = self.statics.str("\n");
        self.body.push_str(&format!(
            "(block $ok{line}
               (call $show_exc (block $h{line} (result i64)
                 (try_table (catch $exc $h{line})
                   (call $write_str (call $to_repr {expr}))
                   (br $ok{line}))
                 (unreachable))))
             (call $write_str (i64.const {nl}))\n"
        ));
        self.expected.push(expected.to_owned());
        self.sources.push(source);
    }

    fn check(self) {
        let functions = format!("{HELPERS}\n(func $plan_main\n{}\n)", self.body);
        let outcome = run_with(&functions, &self.statics).expect("module runs");
        assert!(outcome.error.is_none(), "uncaught: {:?}", outcome.error);
        let lines: Vec<&str> = outcome.stdout.split('\n').collect();
        let mut failures = Vec::new();
        for (i, expected) in self.expected.iter().enumerate() {
            let got = lines.get(i).copied().unwrap_or("<missing>");
            if got != expected {
                failures.push(format!(
                    "{}\n    expected: {expected}\n    got:      {got}",
                    self.sources[i]
                ));
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} cases failed:\n{}",
            failures.len(),
            self.expected.len(),
            failures.join("\n")
        );
    }
}

#[test]
fn percent_formatting() {
    let mut c = Cases::new();
    for (fmt, values, expected) in percent_cases() {
        let f = c.value(&S(fmt));
        let v = c.value(&values);
        c.case(
            format!("{fmt:?} % {values:?}"),
            format!("(call $mod {f} {v})"),
            expected,
        );
    }
    c.check();
}

#[test]
fn int_and_float_methods() {
    let mut c = Cases::new();
    for (this, name, args, expected) in method_cases() {
        let s = c.value(&this);
        let n = c.value(&S(name));
        let a = c.value(&args);
        c.case(
            format!("{this:?}.{name}{args:?}"),
            format!("(call $call_method {s} {n} (i32.wrap_i64 {a}) (i32.const 0))"),
            expected,
        );
    }
    c.check();
}

#[test]
fn method_keyword_arguments_and_attributes() {
    let mut c = Cases::new();
    let s = c.value(&F(1.5));
    let n = c.value(&S("is_integer"));
    let kw = c.value(&D(vec![(S("x"), I(1))]));
    c.case("(1.5).is_integer(x=1)".into(),
        format!("(call $call_method {s} {n} (i32.wrap_i64 (call $tuple_from (call $tstart))) (i32.wrap_i64 {kw}))"),
        "TypeError: float.is_integer() takes no keyword arguments");
    // A bound method taken with getattr, then called.
    let s = c.value(&I(10));
    let n = c.value(&S("bit_length"));
    c.case("f = (10).bit_length; f()".into(),
        format!("(call $call (call $getattr {s} {n}) (i32.wrap_i64 (call $tuple_from (call $tstart))) (i32.const 0))"), "4");
    let s = c.value(&I(10));
    let n = c.value(&S("is_integer"));
    c.case(
        "(10).is_integer".into(),
        format!("(call $getattr {s} {n})"),
        "AttributeError: 'int' object has no attribute 'is_integer'",
    );
    c.check();
}

// Generated from CPython 3.11 results: (format, values, expected repr or `Type: message`).
pub fn percent_cases() -> Vec<(&'static str, V, &'static str)> {
    vec![
        ("%d items", I(5i64), "'5 items'"),
        ("%s and %s", T(vec![S("a"), S("b")]), "'a and b'"),
        (
            "%5d|%-5d|%05d",
            T(vec![I(42i64), I(42i64), I(42i64)]),
            "'   42|42   |00042'",
        ),
        (
            "%.2f %8.3f %e",
            T(vec![F(3.14159f64), F(2.5f64), F(12345.678f64)]),
            "'3.14    2.500 1.234568e+04'",
        ),
        (
            "%x %X %o %%",
            T(vec![I(255i64), I(255i64), I(8i64)]),
            "'ff FF 10 %'",
        ),
        ("%r %s", T(vec![S("q"), S("q")]), "\"'q' q\""),
        (
            "%(name)s is %(age)d",
            D(vec![(S("name"), S("Ann")), (S("age"), I(30i64))]),
            "'Ann is 30'",
        ),
        ("%s", L(vec![I(1i64), I(2i64)]), "'[1, 2]'"),
        ("%s", T(vec![L(vec![I(1i64), I(2i64)])]), "'[1, 2]'"),
        (
            "%05s|%-5s|%.1s|%5.2r",
            T(vec![S("ab"), S("cd"), S("xy"), S("q")]),
            "\"   ab|cd   |x|   'q\"",
        ),
        (
            "%05c|%-3c|%c",
            T(vec![S("a"), I(65i64), I(9786i64)]),
            "'    a|A  |☺'",
        ),
        (
            "%.3d|%+.3d|%5.3d|%-6.3d|%05.3d|%#.3x|%#5.3o|%08.3d",
            T(vec![
                I(5i64),
                I(5i64),
                I(5i64),
                I(5i64),
                I(5i64),
                I(5i64),
                I(5i64),
                I(-5i64),
            ]),
            "'005|+005|  005|005   |00005|0x005|0o005|-0000005'",
        ),
        (
            "%05f|%-8f|%+f|%5.1f|% f",
            T(vec![
                F(f64::INFINITY),
                F(f64::NAN),
                F(f64::NEG_INFINITY),
                F(f64::NAN),
                F(f64::INFINITY),
            ]),
            "'00inf|nan     |-inf|  nan| inf'",
        ),
        (
            "%*d|%-*d|%*d|%.*f|%.*f",
            T(vec![
                I(5i64),
                I(42i64),
                I(5i64),
                I(42i64),
                I(-5i64),
                I(42i64),
                I(2i64),
                F(3.14159f64),
                I(-2i64),
                F(3.14159f64),
            ]),
            "'   42|42   |42   |3.14|3'",
        ),
        (
            "%d %i %u",
            T(vec![F(3.99f64), F(-3.99f64), B(true)]),
            "'3 -3 1'",
        ),
        (
            "%x %o %X",
            T(vec![B(true), I(-8i64), I(-255i64)]),
            "'1 -10 -FF'",
        ),
        (
            "%#x %#o %#X",
            T(vec![I(0i64), I(0i64), I(255i64)]),
            "'0x0 0o0 0XFF'",
        ),
        (
            "%g %G %g %#g %.3g %e %E",
            T(vec![
                F(1e+20f64),
                F(1e-20f64),
                F(0.0001f64),
                F(1.5f64),
                F(1234.5f64),
                F(0.0f64),
                F(-1.5f64),
            ]),
            "'1e+20 1E-20 0.0001 1.50000 1.23e+03 0.000000e+00 -1.500000E+00'",
        ),
        ("hi", L(vec![I(1i64), I(2i64)]), "'hi'"),
        ("hi", D(vec![(S("a"), I(1i64))]), "'hi'"),
        ("%s", D(vec![(S("a"), I(1i64))]), "\"{'a': 1}\""),
        ("%r", T(vec![T(vec![I(1i64), I(2i64)])]), "'(1, 2)'"),
        ("%s %(a)s", D(vec![(S("a"), I(1i64))]), "\"{'a': 1} 1\""),
        (
            "%ld %hd %Lf",
            T(vec![I(1i64), I(2i64), F(3.0f64)]),
            "'1 2 3.000000'",
        ),
        (
            "%+d % d %+ d % +d",
            T(vec![I(1i64), I(2i64), I(3i64), I(4i64)]),
            "'+1  2 +3 +4'",
        ),
        ("%-05d|", T(vec![I(3i64)]), "'3    |'"),
        ("%s %s", T(vec![S("a"), N]), "'a None'"),
        (
            "%.0f %.0f %.0f",
            T(vec![F(0.5f64), F(1.5f64), F(2.5f64)]),
            "'0 2 2'",
        ),
        ("%10.4s|", T(vec![S("abcdefgh")]), "'      abcd|'"),
        ("%c", T(vec![S("é")]), "'é'"),
        ("%5c|", T(vec![S("é")]), "'    é|'"),
        (
            "%.2e|%10.2E|%-10g|%010.3f",
            T(vec![
                F(12345.678f64),
                F(0.00012f64),
                F(3.5f64),
                F(-3.14159f64),
            ]),
            "'1.23e+04|  1.20E-04|3.5       |-00003.142'",
        ),
        ("%+.2f|%+x", T(vec![F(0.0f64), I(255i64)]), "'+0.00|+ff'"),
        (
            "%#.0f|%#.0e|%#g",
            T(vec![F(3.0f64), F(3.0f64), F(3.0f64)]),
            "'3.|3.e+00|3.00000'",
        ),
        (
            "%(x)5d|%(x)-5d|%(y)r",
            D(vec![(S("x"), I(7i64)), (S("y"), S("z"))]),
            "\"    7|7    |'z'\"",
        ),
        ("%%%s%%", T(vec![S("a")]), "'%a%'"),
        ("%s", I(5i64), "'5'"),
        ("%d%%", I(5i64), "'5%'"),
        ("%.3s", F(1.23456f64), "'1.2'"),
        ("%x", I(4611686018427387904i64), "'4000000000000000'"),
        ("%d", I(i64::MIN), "'-9223372036854775808'"),
        ("%f", I(5i64), "'5.000000'"),
        ("%e", B(true), "'1.000000e+00'"),
        ("%F", F(f64::INFINITY), "'INF'"),
        ("%#X|%#o", T(vec![I(255i64), I(8i64)]), "'0XFF|0o10'"),
        (
            "%*.*f",
            T(vec![I(8i64), I(2i64), F(3.14159f64)]),
            "'    3.14'",
        ),
        ("%s %s", T(vec![S("é"), S("ü")]), "'é ü'"),
        ("%-4sé|", T(vec![S("ü")]), "'ü   é|'"),
        ("%i", F(3.0f64), "'3'"),
        ("%(a)s %(a)s", D(vec![(S("a"), S("é"))]), "'é é'"),
        (
            "%a|%5a|%a",
            T(vec![S("é"), S("x"), S("😀€")]),
            "\"'\\\\xe9'|  'x'|'\\\\U0001f600\\\\u20ac'\"",
        ),
        ("%.0c|%.1c", T(vec![S("a"), I(66i64)]), "'a|B'"),
        (
            "%-+08.2f|%+08.2f|% 08.2f",
            T(vec![F(1.0f64), F(-1.0f64), F(1.0f64)]),
            "'+1.00   |-0001.00| 0001.00'",
        ),
        (
            "% 08x|%#08x|%#-8x|%#08.4x|%08.4x|%-8.4x|",
            T(vec![
                I(255i64),
                I(255i64),
                I(255i64),
                I(255i64),
                I(255i64),
                I(-255i64),
            ]),
            "' 00000ff|0x0000ff|0xff    |0x0000ff|000000ff|-00ff   |'",
        ),
        (
            "%0*d|%.*s|%.*s|%*s|",
            T(vec![
                I(5i64),
                I(-3i64),
                I(2i64),
                S("abc"),
                I(-2i64),
                S("abc"),
                I(-4i64),
                S("a"),
            ]),
            "'-0003|ab||a   |'",
        ),
        ("%x", I(9223372036854775807i64), "'7fffffffffffffff'"),
        ("%s", T(vec![B(true)]), "'True'"),
        ("%d", T(vec![B(false)]), "'0'"),
        ("%r", F(1.5f64), "'1.5'"),
        ("%s", F(0.1f64), "'0.1'"),
        ("%%", T(vec![]), "'%'"),
        ("%%%d", T(vec![I(1i64)]), "'%1'"),
        ("é%sü", S("x"), "'éxü'"),
        ("%s", S(""), "''"),
        ("", T(vec![]), "''"),
        ("abc", T(vec![]), "'abc'"),
        ("%(a)s", D(vec![(S("a"), L(vec![I(1i64)]))]), "'[1]'"),
        ("%(a(b))s", D(vec![(S("a(b)"), I(1i64))]), "'1'"),
        ("%s", T(vec![N]), "'None'"),
        ("%5s|%-5r|", T(vec![N, N]), "' None|None |'"),
        ("%d", I(4611686018427387904i64), "'4611686018427387904'"),
        ("%d", I(-4611686018427387905i64), "'-4611686018427387905'"),
        ("%o", I(9223372036854775807i64), "'777777777777777777777'"),
        (
            "%10.3e|%-10.1f|%+g",
            T(vec![F(-0.0f64), F(-0.0f64), F(-0.0f64)]),
            "'-0.000e+00|-0.0      |-0'",
        ),
        (
            "%d",
            T(vec![]),
            "TypeError: not enough arguments for format string",
        ),
        (
            "%d %d",
            T(vec![I(1i64)]),
            "TypeError: not enough arguments for format string",
        ),
        (
            "%d",
            T(vec![I(1i64), I(2i64)]),
            "TypeError: not all arguments converted during string formatting",
        ),
        (
            "x",
            I(5i64),
            "TypeError: not all arguments converted during string formatting",
        ),
        (
            "x",
            T(vec![I(1i64)]),
            "TypeError: not all arguments converted during string formatting",
        ),
        (
            "%d",
            S("s"),
            "TypeError: %d format: a real number is required, not str",
        ),
        (
            "%y",
            I(1i64),
            "ValueError: unsupported format character 'y' (0x79) at index 1",
        ),
        ("a%", I(1i64), "ValueError: incomplete format"),
        (
            "%(a)s",
            T(vec![I(1i64)]),
            "TypeError: format requires a mapping",
        ),
        ("%(a)s", I(5i64), "TypeError: format requires a mapping"),
        (
            "%x",
            F(1.5f64),
            "TypeError: %x format: an integer is required, not float",
        ),
        (
            "%x",
            S("s"),
            "TypeError: %x format: an integer is required, not str",
        ),
        ("%f", S("s"), "TypeError: must be real number, not str"),
        ("%c", S("ab"), "TypeError: %c requires int or char"),
        ("%c", F(1.5f64), "TypeError: %c requires int or char"),
        (
            "%c",
            I(1114112i64),
            "OverflowError: %c arg not in range(0x110000)",
        ),
        (
            "%c",
            I(-1i64),
            "OverflowError: %c arg not in range(0x110000)",
        ),
        ("%*d", T(vec![S("a"), I(1i64)]), "TypeError: * wants int"),
        (
            "%.*d",
            T(vec![F(1.0f64), I(1i64)]),
            "TypeError: * wants int",
        ),
        (
            "%(a",
            D(vec![(S("a"), I(1i64))]),
            "ValueError: incomplete format key",
        ),
        ("%(a)s", D(vec![]), "KeyError: 'a'"),
        (
            "%(a)s",
            L(vec![I(1i64)]),
            "TypeError: list indices must be integers or slices, not str",
        ),
        (
            "%d",
            N,
            "TypeError: %d format: a real number is required, not NoneType",
        ),
        ("%e", N, "TypeError: must be real number, not NoneType"),
        (
            "%d",
            F(f64::NAN),
            "ValueError: cannot convert float NaN to integer",
        ),
        (
            "%d",
            F(f64::INFINITY),
            "OverflowError: cannot convert float infinity to integer",
        ),
        (
            "%o",
            S("x"),
            "TypeError: %o format: an integer is required, not str",
        ),
        (
            "abc %é",
            I(1i64),
            "ValueError: unsupported format character '?' (0xe9) at index 5",
        ),
        ("%5", I(1i64), "ValueError: incomplete format"),
        ("%.", I(1i64), "ValueError: incomplete format"),
        ("%s %", T(vec![S("a")]), "ValueError: incomplete format"),
        (
            "%s",
            T(vec![]),
            "TypeError: not enough arguments for format string",
        ),
        (
            "x",
            S(""),
            "TypeError: not all arguments converted during string formatting",
        ),
        ("x %s", S(""), "'x '"),
        (
            "%X",
            L(vec![I(1i64)]),
            "TypeError: %X format: an integer is required, not list",
        ),
        (
            "%i",
            L(vec![I(1i64)]),
            "TypeError: %i format: a real number is required, not list",
        ),
        (
            "%u",
            S("x"),
            "TypeError: %u format: a real number is required, not str",
        ),
        (
            "%E",
            L(vec![I(1i64)]),
            "TypeError: must be real number, not list",
        ),
        ("%g", S("x"), "TypeError: must be real number, not str"),
        (
            "%d",
            T(vec![I(1i64), I(2i64), I(3i64)]),
            "TypeError: not all arguments converted during string formatting",
        ),
        ("%c", S(""), "TypeError: %c requires int or char"),
        (
            "%(a)d",
            D(vec![(S("a"), S("x"))]),
            "TypeError: %d format: a real number is required, not str",
        ),
        (
            "%z",
            T(vec![]),
            "TypeError: not enough arguments for format string",
        ),
        (
            "%\n",
            I(1i64),
            "ValueError: unsupported format character '?' (0xa) at index 1",
        ),
        (
            "%5%",
            T(vec![I(1i64)]),
            "ValueError: unsupported format character '%' (0x25) at index 2",
        ),
        (
            "%(a)",
            D(vec![(S("a"), I(1i64))]),
            "ValueError: incomplete format",
        ),
        (
            "%(a)s %s",
            D(vec![(S("a"), I(1i64))]),
            "TypeError: not enough arguments for format string",
        ),
        ("%-", I(1i64), "ValueError: incomplete format"),
        (
            "%é",
            I(1i64),
            "ValueError: unsupported format character '?' (0xe9) at index 1",
        ),
        (
            "%😀",
            I(1i64),
            "ValueError: unsupported format character '?' (0x1f600) at index 1",
        ),
        (
            "é%ü",
            I(1i64),
            "ValueError: unsupported format character '?' (0xfc) at index 2",
        ),
        (
            "%(é)s %q",
            D(vec![(S("é"), I(1i64))]),
            "TypeError: not enough arguments for format string",
        ),
    ]
}

pub fn method_cases() -> Vec<(V, &'static str, V, &'static str)> {
    vec![
        (F(1.5f64), "is_integer", T(vec![]), "False"),
        (F(4.0f64), "is_integer", T(vec![]), "True"),
        (F(f64::INFINITY), "is_integer", T(vec![]), "False"),
        (F(f64::NAN), "is_integer", T(vec![]), "False"),
        (F(-0.0f64), "is_integer", T(vec![]), "True"),
        (F(1e+300f64), "is_integer", T(vec![]), "True"),
        (
            F(1.5f64),
            "is_integer",
            T(vec![I(1i64)]),
            "TypeError: float.is_integer() takes no arguments (1 given)",
        ),
        (
            F(0.1f64),
            "as_integer_ratio",
            T(vec![]),
            "(3602879701896397, 36028797018963968)",
        ),
        (F(-2.5f64), "as_integer_ratio", T(vec![]), "(-5, 2)"),
        (F(0.0f64), "as_integer_ratio", T(vec![]), "(0, 1)"),
        (F(-0.0f64), "as_integer_ratio", T(vec![]), "(0, 1)"),
        (
            F(4.611686018427388e+18f64),
            "as_integer_ratio",
            T(vec![]),
            "(4611686018427387904, 1)",
        ),
        (F(0.75f64), "as_integer_ratio", T(vec![]), "(3, 4)"),
        (
            F(1e+18f64),
            "as_integer_ratio",
            T(vec![]),
            "(1000000000000000000, 1)",
        ),
        (F(3.0f64), "as_integer_ratio", T(vec![]), "(3, 1)"),
        (
            F(2.168404344971009e-19f64),
            "as_integer_ratio",
            T(vec![]),
            "(1, 4611686018427387904)",
        ),
        (
            F(f64::INFINITY),
            "as_integer_ratio",
            T(vec![]),
            "OverflowError: cannot convert Infinity to integer ratio",
        ),
        (
            F(f64::NEG_INFINITY),
            "as_integer_ratio",
            T(vec![]),
            "OverflowError: cannot convert Infinity to integer ratio",
        ),
        (
            F(f64::NAN),
            "as_integer_ratio",
            T(vec![]),
            "ValueError: cannot convert NaN to integer ratio",
        ),
        (
            F(1.5f64),
            "as_integer_ratio",
            T(vec![I(2i64)]),
            "TypeError: float.as_integer_ratio() takes no arguments (1 given)",
        ),
        (I(0i64), "bit_length", T(vec![]), "0"),
        (I(1i64), "bit_length", T(vec![]), "1"),
        (I(-7i64), "bit_length", T(vec![]), "3"),
        (I(255i64), "bit_length", T(vec![]), "8"),
        (I(4611686018427387904i64), "bit_length", T(vec![]), "63"),
        (I(i64::MIN), "bit_length", T(vec![]), "64"),
        (I(9223372036854775807i64), "bit_length", T(vec![]), "63"),
        (B(true), "bit_length", T(vec![]), "1"),
        (B(false), "bit_length", T(vec![]), "0"),
        (I(-7i64), "bit_count", T(vec![]), "3"),
        (I(255i64), "bit_count", T(vec![]), "8"),
        (I(0i64), "bit_count", T(vec![]), "0"),
        (I(i64::MIN), "bit_count", T(vec![]), "1"),
        (I(9223372036854775807i64), "bit_count", T(vec![]), "63"),
        (B(true), "bit_count", T(vec![]), "1"),
        (
            I(5i64),
            "bit_length",
            T(vec![I(1i64)]),
            "TypeError: int.bit_length() takes no arguments (1 given)",
        ),
        (
            I(5i64),
            "is_integer",
            T(vec![]),
            "AttributeError: 'int' object has no attribute 'is_integer'",
        ),
        (
            F(5.0f64),
            "bit_length",
            T(vec![]),
            "AttributeError: 'float' object has no attribute 'bit_length'",
        ),
        (
            B(true),
            "is_integer",
            T(vec![]),
            "AttributeError: 'bool' object has no attribute 'is_integer'",
        ),
        (
            F(1.5f64),
            "hex_nope",
            T(vec![]),
            "AttributeError: 'float' object has no attribute 'hex_nope'",
        ),
    ]
}
