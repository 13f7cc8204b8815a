//! Tests of str.wat. Each test assembles one module that evaluates many cases, printing the
//! repr of each result (or `Type: message` for an exception) on its own line; the expected
//! lines are what CPython 3.11 prints for the Python expression noted with each case.

mod support;

use baton_runtime::{runtime_layout, statics::Statics};
use support::run_with;

const HELPERS: &str = r#"
(func $show (param $v i64)
  (local $t i32) (local $n i32) (local $i i32) (local $items i32)
  (if (i64.eqz (local.get $v)) (then (call $out (global.get $s_str_test_zero)) (return)))
  (if (call $is_small (local.get $v))
    (then (call $write_str (call $to_repr (local.get $v))) (return)))
  (local.set $t (call $tid (local.get $v)))
  (if (i32.eq (local.get $t) (i32.const 5)) (then (call $write_str (call $str_repr (local.get $v))) (return)))
  (if (i32.eq (local.get $t) (i32.const 1)) (then (call $out (global.get $s_str_test_none)) (return)))
  (if (i32.eq (local.get $t) (i32.const 2))
    (then (if (i32.load offset=4 (i32.wrap_i64 (local.get $v)))
      (then (call $out (global.get $s_str_test_true))) (else (call $out (global.get $s_str_test_false)))) (return)))
  (if (i32.eq (local.get $t) (i32.const 3))
    (then (call $write_str (call $test_i64 (i64.load offset=8 (i32.wrap_i64 (local.get $v))))) (return)))
  (if (i32.or (i32.eq (local.get $t) (i32.const 6)) (i32.eq (local.get $t) (i32.const 7)))
    (then
      (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $v))))
      (local.set $items (i32.add (i32.wrap_i64 (local.get $v)) (i32.const 8)))
      (if (i32.eq (local.get $t) (i32.const 7)) (then (local.set $items (i32.load offset=12 (i32.wrap_i64 (local.get $v))))))
      (call $out (select (global.get $s_str_test_lbr) (global.get $s_str_test_lpar) (i32.eq (local.get $t) (i32.const 7))))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (if (local.get $i) (then (call $out (global.get $s_str_test_comma))))
          (call $show (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (if (i32.and (i32.eq (local.get $t) (i32.const 6)) (i32.eq (local.get $n) (i32.const 1)))
        (then (call $out (global.get $s_str_test_onecomma))))
      (call $out (select (global.get $s_str_test_rbr) (global.get $s_str_test_rpar) (i32.eq (local.get $t) (i32.const 7))))
      (return)))
  (call $write_str (call $type_name (local.get $v))))
(func $out (param $s i32) (call $write_str (i64.extend_i32_u (local.get $s))))
(func $test_i64 (param $n i64) (result i64)
  (local $sb i32) (local.set $sb (call $sb_new)) (call $sb_push_i64 (local.get $sb) (local.get $n))
  (call $sb_finish (local.get $sb)))
(func $show_exc (param $e i64)
  (local $m i64)
  (call $write_str (call $type_name (local.get $e)))
  (local.set $m (call $exc_str (local.get $e)))
  (if (i32.load offset=4 (i32.wrap_i64 (local.get $m)))
    (then (call $out (global.get $s_str_test_colon)) (call $write_str (local.get $m)))))
(func $tuple_new_t (param $n i32) (result i32)
  (local $t i32)
  (local.set $t (call $alloc (i32.add (i32.const 8) (i32.shl (local.get $n) (i32.const 3)))))
  (i32.store (local.get $t) (i32.const 6))
  (i32.store offset=4 (local.get $t) (local.get $n))
  (local.get $t))
(func $t0 (result i32) (call $tuple_new_t (i32.const 0)))
(func $t1 (param $a i64) (result i32) (local $t i32) (local.set $t (call $tuple_new_t (i32.const 1)))
  (i64.store offset=8 (local.get $t) (local.get $a)) (local.get $t))
(func $t2 (param $a i64) (param $b i64) (result i32) (local $t i32) (local.set $t (call $tuple_new_t (i32.const 2)))
  (i64.store offset=8 (local.get $t) (local.get $a)) (i64.store offset=16 (local.get $t) (local.get $b)) (local.get $t))
(func $t3 (param $a i64) (param $b i64) (param $c i64) (result i32) (local $t i32) (local.set $t (call $tuple_new_t (i32.const 3)))
  (i64.store offset=8 (local.get $t) (local.get $a)) (i64.store offset=16 (local.get $t) (local.get $b))
  (i64.store offset=24 (local.get $t) (local.get $c)) (local.get $t))
(func $t4 (param $a i64) (param $b i64) (param $c i64) (param $d i64) (result i32) (local $t i32) (local.set $t (call $tuple_new_t (i32.const 4)))
  (i64.store offset=8 (local.get $t) (local.get $a)) (i64.store offset=16 (local.get $t) (local.get $b))
  (i64.store offset=24 (local.get $t) (local.get $c)) (i64.store offset=32 (local.get $t) (local.get $d)) (local.get $t))
(func $tv1 (param $a i64) (result i64) (i64.extend_i32_u (call $t1 (local.get $a))))
(func $tv2 (param $a i64) (param $b i64) (result i64) (i64.extend_i32_u (call $t2 (local.get $a) (local.get $b))))
(func $tv3 (param $a i64) (param $b i64) (param $c i64) (result i64) (i64.extend_i32_u (call $t3 (local.get $a) (local.get $b) (local.get $c))))
;; A list of the tuple's items (list layout of docs/abi.md).
(func $lst (param $t i32) (result i64)
  (local $l i32)
  (local.set $l (call $alloc (i32.const 16)))
  (i32.store (local.get $l) (i32.const 7))
  (i32.store offset=4 (local.get $l) (i32.load offset=4 (local.get $t)))
  (i32.store offset=8 (local.get $l) (i32.load offset=4 (local.get $t)))
  (i32.store offset=12 (local.get $l) (i32.add (local.get $t) (i32.const 8)))
  (i64.extend_i32_u (local.get $l)))
;; A dict with the entries of a tuple of (key, value) pairs, without an index (str.wat only
;; scans entries).
(func $kw (param $pairs i32) (result i32)
  (local $d i32) (local $n i32) (local $e i32) (local $i i32) (local $pair i32)
  (local.set $n (i32.load offset=4 (local.get $pairs)))
  (local.set $d (call $alloc (i32.const 32)))
  (local.set $e (call $alloc (i32.add (i32.mul (local.get $n) (i32.const 24)) (i32.const 8))))
  (i32.store (local.get $d) (i32.const 8))
  (i32.store offset=4 (local.get $d) (local.get $n))
  (i32.store offset=8 (local.get $d) (local.get $e))
  (i32.store offset=12 (local.get $d) (local.get $n))
  (i32.store offset=16 (local.get $d) (local.get $n))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $pair (i32.load offset=8 (i32.add (local.get $pairs) (i32.shl (local.get $i) (i32.const 3)))))
      (i64.store (local.get $e) (call $hash_of (i64.load offset=8 (local.get $pair))))
      (i64.store offset=8 (local.get $e) (i64.load offset=8 (local.get $pair)))
      (i64.store offset=16 (local.get $e) (i64.load offset=16 (local.get $pair)))
      (local.set $e (i32.add (local.get $e) (i32.const 24)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (local.get $d))
(func $hash_of (param $v i64) (result i64)
  (if (result i64) (i32.eq (call $tid (local.get $v)) (i32.const 5))
    (then (call $str_hash (local.get $v))) (else (local.get $v))))
(func $sl (param $a i64) (param $b i64) (param $c i64) (result i64)
  (local $s i32)
  (local.set $s (call $alloc (i32.const 32)))
  (i32.store (local.get $s) (i32.const 17))
  (i64.store offset=8 (local.get $s) (local.get $a))
  (i64.store offset=16 (local.get $s) (local.get $b))
  (i64.store offset=24 (local.get $s) (local.get $c))
  (i64.extend_i32_u (local.get $s)))
(func $big (param $n i64) (result i64)
  (local $s i32)
  (local.set $s (call $alloc (i32.const 16)))
  (i32.store (local.get $s) (i32.const 3))
  (i64.store offset=8 (local.get $s) (local.get $n))
  (i64.extend_i32_u (local.get $s)))
(func $b (param $x i32) (result i64) (call $bool (local.get $x)))
(func $i (param $x i32) (result i64) (call $str_small (local.get $x)))
"#;

const TEST_STRINGS: &[(&str, &str)] = &[
    ("zero", "<0>"),
    ("none", "None"),
    ("true", "True"),
    ("false", "False"),
    ("lbr", "["),
    ("rbr", "]"),
    ("lpar", "("),
    ("rpar", ")"),
    ("comma", ", "),
    ("onecomma", ","),
    ("colon", ": "),
];

/// Builds one module of cases.
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
            expected: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// A str constant, as a WAT expression.
    fn s(&mut self, text: &str) -> String {
        format!("(i64.const {})", self.statics.str(text))
    }

    /// A case: `expr` is a WAT expression of type i64 (a value, or 0 for "no result").
    fn case(&mut self, python: &str, expr: &str, expected: &str) {
        let line = self.expected.len();
        let nl = self.newline();
        self.body.push_str(&format!(
            "(block $ok{line}
               (call $show_exc (block $h{line} (result i64)
                 (try_table (catch $exc $h{line})
                   (call $show {expr})
                   (br $ok{line}))
                 (unreachable))))
             (call $write_str (i64.const {nl}))\n"
        ));
        self.expected.push(expected.to_owned());
        self.sources.push(python.to_owned());
    }

    fn newline(&mut self) -> u32 {
        self.statics.str("\n")
    }

    /// A method call with WAT argument expressions and keyword arguments.
    fn mc(
        &mut self,
        python: &str,
        this: &str,
        name: &str,
        args: &[&str],
        kwargs: &[(&str, &str)],
        expected: &str,
    ) {
        let name = self.s(name);
        let args = tuple(args);
        let kwargs = if kwargs.is_empty() {
            "(i32.const 0)".to_owned()
        } else {
            let pairs: Vec<String> = kwargs
                .iter()
                .map(|(k, v)| {
                    let k = self.s(k);
                    format!("(call $tv2 {k} {v})")
                })
                .collect();
            let refs: Vec<&str> = pairs.iter().map(String::as_str).collect();
            format!("(call $kw {})", tuple(&refs))
        };
        let expr = format!("(call $str_method {this} {name} {args} {kwargs})");
        self.case(python, &expr, expected);
    }

    fn run(mut self) {
        let mut globals = String::new();
        for (name, text) in TEST_STRINGS {
            globals.push_str(&format!(
                "(global $s_str_test_{name} i32 (i32.const {}))\n",
                self.statics.str(text)
            ));
        }
        let functions = format!("{globals}{HELPERS}\n(func $plan_main\n{}\n)", self.body);
        let outcome = run_with(&functions, &self.statics).unwrap_or_else(|e| panic!("{e}"));
        if let Some(error) = outcome.error {
            panic!(
                "uncaught exception:\n{error}\nstdout so far:\n{}",
                outcome.stdout
            );
        }
        let lines: Vec<&str> = outcome.stdout.split('\n').collect();
        let mut failures = Vec::new();
        for (i, expected) in self.expected.iter().enumerate() {
            let got = lines.get(i).copied().unwrap_or("<missing>");
            if got != expected {
                failures.push(format!(
                    "{}\n   expected: {expected}\n        got: {got}",
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

/// A tuple of WAT i64 expressions, as an i32 WAT expression.
fn tuple(items: &[&str]) -> String {
    match items.len() {
        0 => "(call $t0)".to_owned(),
        1 => format!("(call $t1 {})", items[0]),
        2 => format!("(call $t2 {} {})", items[0], items[1]),
        3 => format!("(call $t3 {} {} {})", items[0], items[1], items[2]),
        4 => format!(
            "(call $t4 {} {} {} {})",
            items[0], items[1], items[2], items[3]
        ),
        _ => panic!("too many items"),
    }
}

/// A small int constant.
fn i(n: i64) -> String {
    format!("(i64.const {})", (n << 1) | 1)
}

const NONE: &str = "(i64.const 8)";
const TRUE: &str = "(i64.const 24)";
const FALSE: &str = "(i64.const 16)";

fn slice(a: &str, b: &str, c: &str) -> String {
    format!("(call $sl {a} {b} {c})")
}

// ---- tests -------------------------------------------------------------------------------------

#[test]
fn concat_repeat_compare() {
    let mut c = Cases::new();
    let (ab, cd, e) = (c.s("ab"), c.s("cdé"), c.s(""));
    c.case(
        "'ab' + 'cdé'",
        &format!("(call $str_concat {ab} {cd})"),
        "'abcdé'",
    );
    c.case("'' + 'ab'", &format!("(call $str_concat {e} {ab})"), "'ab'");
    c.case(
        "len('ab' + 'cdé')",
        &format!("(call $str_small (i32.wrap_i64 (call $str_len (call $str_concat {ab} {cd}))))"),
        "5",
    );
    c.case(
        "'ab' * 3",
        &format!("(call $str_repeat {ab} (i64.const 3))"),
        "'ababab'",
    );
    c.case(
        "'cdé' * 2",
        &format!("(call $str_repeat {cd} (i64.const 2))"),
        "'cdécdé'",
    );
    c.case(
        "'ab' * -1",
        &format!("(call $str_repeat {ab} (i64.const -1))"),
        "''",
    );
    c.case(
        "'ab' * 0",
        &format!("(call $str_repeat {ab} (i64.const 0))"),
        "''",
    );
    c.case(
        "'ab' * 2**62",
        &format!("(call $str_repeat {ab} (i64.const 0x4000000000000000))"),
        "MemoryError",
    );
    c.case(
        "'ab' * 2**31",
        &format!("(call $str_repeat {ab} (i64.const 0x80000000))"),
        "MemoryError",
    );
    c.case("len('ab' * 1000)", &format!("(call $str_small (i32.wrap_i64 (call $str_len (call $str_repeat {ab} (i64.const 1000)))))"), "2000");
    let (a1, a2, b1) = (c.s("abc"), c.s("abd"), c.s("ab"));
    c.case("'abc' == 'ab'+'c'", &format!("(call $b (call $str_eq {a1} (call $str_concat {b1} (call $str_char {a1} (i32.const 2)))))"), "True");
    c.case(
        "'abc' == 'abd'",
        &format!("(call $b (call $str_eq {a1} {a2}))"),
        "False",
    );
    c.case(
        "cmp('abc', 'abd')",
        &format!("(call $i (call $str_cmp {a1} {a2}))"),
        "-1",
    );
    c.case(
        "cmp('abd', 'abc')",
        &format!("(call $i (call $str_cmp {a2} {a1}))"),
        "1",
    );
    c.case(
        "cmp('ab', 'abc')",
        &format!("(call $i (call $str_cmp {b1} {a1}))"),
        "-1",
    );
    c.case("cmp('abc', 'abc')", &format!("(call $i (call $str_cmp {a1} (call $str_concat {b1} (call $str_char {a1} (i32.const 2)))))"), "0");
    let (x, y) = (c.s("z"), c.s("é"));
    c.case(
        "'z' < 'é'",
        &format!("(call $i (call $str_cmp {x} {y}))"),
        "-1",
    );
    let (l1, l2) = (
        c.s("abcdefghijklmnopqrstuvwxyz1"),
        c.s("abcdefghijklmnopqrstuvwxyz2"),
    );
    c.case(
        "cmp long",
        &format!("(call $i (call $str_cmp {l2} {l1}))"),
        "1",
    );
    c.case(
        "eq long",
        &format!("(call $b (call $str_eq {l2} {l1}))"),
        "False",
    );
    c.case(
        "hash equal",
        &format!("(call $b (i64.eq (call $str_hash {l1}) (call $str_hash (call $str_concat (call $str_getitem {l1} (call $sl (i64.const 8) {} (i64.const 8))) (call $str_getitem {l1} (call $sl {} (i64.const 8) (i64.const 8)))))))", i(10), i(10)),
        "True",
    );
    c.case(
        "hash nonzero",
        &format!("(call $b (i64.ne (call $str_hash {e}) (i64.const 0)))"),
        "True",
    );
    c.case(
        "hash differs",
        &format!("(call $b (i64.ne (call $str_hash {l1}) (call $str_hash {l2})))"),
        "True",
    );
    c.run();
}

#[test]
fn repr_quotes_and_escapes() {
    let mut c = Cases::new();
    for (text, expected) in [
        ("abc", "'abc'"),
        ("", "''"),
        ("it's", "\"it's\""),
        ("say \"hi\"", "'say \"hi\"'"),
        ("both ' and \"", "'both \\' and \"'"),
        ("tab\there\nnl\rcr\\bs", "'tab\\there\\nnl\\rcr\\\\bs'"),
        ("\x00\x1f\x7f", "'\\x00\\x1f\\x7f'"),
        ("héllo wörld ß 日本", "'héllo wörld ß 日本'"),
        ("\u{80}\u{a0}\u{ad}", "'\\x80\\xa0\\xad'"),
        ("\u{2028}\u{feff}", "'\\u2028\\ufeff'"),
        ("😀", "'😀'"),
        ("\u{e0001}", "'\\U000e0001'"),
    ] {
        let s = c.s(text);
        c.case(&format!("repr({text:?})"), &s, expected);
    }
    c.run();
}

#[test]
fn indexing_and_slicing() {
    let mut c = Cases::new();
    let a = c.s("abcdef");
    let u = c.s("héllo wörld");
    for (n, expected) in [
        (0, "'a'"),
        (5, "'f'"),
        (-1, "'f'"),
        (-6, "'a'"),
        (6, "IndexError: string index out of range"),
        (-7, "IndexError: string index out of range"),
    ] {
        c.case(
            &format!("'abcdef'[{n}]"),
            &format!("(call $str_getitem {a} {})", i(n)),
            expected,
        );
    }
    for (n, expected) in [
        (1, "'é'"),
        (2, "'l'"),
        (-4, "'ö'"),
        (7, "'ö'"),
        (11, "IndexError: string index out of range"),
    ] {
        c.case(
            &format!("'héllo wörld'[{n}]"),
            &format!("(call $str_getitem {u} {})", i(n)),
            expected,
        );
    }
    c.case(
        "'abcdef'[True]",
        &format!("(call $str_getitem {a} {TRUE})"),
        "'b'",
    );
    c.case(
        "'abcdef'['x']",
        &format!("(call $str_getitem {a} {a})"),
        "TypeError: string indices must be integers, not 'str'",
    );
    c.case(
        "'abcdef'[2**62]",
        &format!("(call $str_getitem {a} (call $big (i64.const 0x4000000000000000)))"),
        "IndexError: string index out of range",
    );
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        ("1", "4", "None", "'bcd'", "'éll'"),
        ("None", "None", "None", "'abcdef'", "'héllo wörld'"),
        ("None", "None", "-1", "'fedcba'", "'dlröw olléh'"),
        ("None", "None", "2", "'ace'", "'hlowrd'"),
        ("-2", "None", "None", "'ef'", "'ld'"),
        ("None", "-2", "None", "'abcd'", "'héllo wör'"),
        ("5", "1", "-2", "'fd'", "' l'"),
        ("-100", "100", "None", "'abcdef'", "'héllo wörld'"),
        ("100", "-100", "-1", "'fedcba'", "'dlröw olléh'"),
        ("3", "3", "None", "''", "''"),
        ("4", "1", "None", "''", "''"),
        ("None", "None", "3", "'ad'", "'hlwl'"),
        ("None", "None", "-4", "'fb'", "'dwl'"),
        ("1", "None", "100", "'b'", "'é'"),
        (
            "None",
            "None",
            "0",
            "ValueError: slice step cannot be zero",
            "ValueError: slice step cannot be zero",
        ),
        (
            "'x'",
            "None",
            "None",
            "TypeError: slice indices must be integers or None or have an __index__ method",
            "TypeError: slice indices must be integers or None or have an __index__ method",
        ),
    ];
    let part = |c: &mut Cases, v: &str| -> String {
        if v == "None" {
            NONE.to_owned()
        } else if v == "'x'" {
            c.s("x")
        } else {
            i(v.parse().unwrap())
        }
    };
    for (lo, hi, st, ea, eu) in cases {
        let (l, h, s) = (part(&mut c, lo), part(&mut c, hi), part(&mut c, st));
        c.case(
            &format!("'abcdef'[{lo}:{hi}:{st}]"),
            &format!("(call $str_getitem {a} {})", slice(&l, &h, &s)),
            ea,
        );
        c.case(
            &format!("'héllo wörld'[{lo}:{hi}:{st}]"),
            &format!("(call $str_getitem {u} {})", slice(&l, &h, &s)),
            eu,
        );
    }
    c.case(
        "'abcdef'[::-9223372036854775808]",
        &format!(
            "(call $str_getitem {a} {})",
            slice(NONE, NONE, "(call $big (i64.const 0x8000000000000000))")
        ),
        "'f'",
    );
    c.case(
        "'abcdef'[-2**63:2**63-1]",
        &format!(
            "(call $str_getitem {a} {})",
            slice(
                "(call $big (i64.const 0x8000000000000000))",
                "(call $big (i64.const 0x7fffffffffffffff))",
                NONE
            )
        ),
        "'abcdef'",
    );
    c.case(
        "'héllo'[False:]",
        &format!("(call $str_getitem {u} {})", slice(FALSE, NONE, NONE)),
        "'héllo wörld'",
    );
    c.case(
        "str_char('héllo wörld', 7)",
        &format!("(call $str_char {u} (i32.const 7))"),
        "'ö'",
    );
    c.run();
}

#[test]
fn contains_join_and_builtins() {
    let mut c = Cases::new();
    let hay = c.s("hello wörld, hello again");
    for (needle, expected) in [
        ("hello", "True"),
        ("wörld", "True"),
        ("again", "True"),
        ("", "True"),
        ("agains", "False"),
        ("xyz", "False"),
        ("d, h", "True"),
        ("o, h", "False"),
        ("n", "True"),
    ] {
        let n = c.s(needle);
        c.case(
            &format!("{needle:?} in hay"),
            &format!("(call $b (call $str_contains {hay} {n}))"),
            expected,
        );
    }
    c.case(
        "1 in 'abc'",
        &format!("(call $b (call $str_contains {hay} {}))", i(1)),
        "TypeError: 'in <string>' requires string as left operand, not int",
    );
    let (comma, x, y, z, e) = (c.s(", "), c.s("x"), c.s("yé"), c.s("z"), c.s(""));
    c.case(
        "', '.join(['x', 'yé', 'z'])",
        &format!("(call $str_join_list {comma} (call $lst (call $t3 {x} {y} {z})))"),
        "'x, yé, z'",
    );
    c.case(
        "''.join(('x', 'yé', 'z'))",
        &format!("(call $str_join_list {e} (call $tv3 {x} {y} {z}))"),
        "'xyéz'",
    );
    c.case(
        "', '.join([])",
        &format!("(call $str_join_list {comma} (call $lst (call $t0)))"),
        "''",
    );
    c.case(
        "', '.join(['x'])",
        &format!("(call $str_join_list {comma} (call $lst (call $t1 {x})))"),
        "'x'",
    );
    c.case(
        "', '.join(['x', 1])",
        &format!(
            "(call $str_join_list {comma} (call $lst (call $t2 {x} {})))",
            i(1)
        ),
        "TypeError: sequence item 1: expected str instance, int found",
    );
    c.case(
        "chr(97)",
        &format!("(call $b_chr (call $t1 {}) (i32.const 0))", i(97)),
        "'a'",
    );
    c.case(
        "chr(233)",
        &format!("(call $b_chr (call $t1 {}) (i32.const 0))", i(233)),
        "'é'",
    );
    c.case(
        "chr(0x1F600)",
        &format!("(call $b_chr (call $t1 {}) (i32.const 0))", i(0x1F600)),
        "'😀'",
    );
    c.case(
        "chr(0x110000)",
        &format!("(call $b_chr (call $t1 {}) (i32.const 0))", i(0x110000)),
        "ValueError: chr() arg not in range(0x110000)",
    );
    c.case(
        "chr(-1)",
        &format!("(call $b_chr (call $t1 {}) (i32.const 0))", i(-1)),
        "ValueError: chr() arg not in range(0x110000)",
    );
    c.case(
        "chr(2**40)",
        &format!("(call $b_chr (call $t1 {}) (i32.const 0))", i(1 << 40)),
        "OverflowError: Python int too large to convert to C int",
    );
    c.case(
        "chr('a')",
        &format!("(call $b_chr (call $t1 {x}) (i32.const 0))"),
        "TypeError: 'str' object cannot be interpreted as an integer",
    );
    c.case(
        "chr()",
        "(call $b_chr (call $t0) (i32.const 0))",
        "TypeError: chr() takes exactly one argument (0 given)",
    );
    c.case(
        "ord('x')",
        &format!("(call $b_ord (call $t1 {x}) (i32.const 0))"),
        "120",
    );
    let (eacute, emoji) = (c.s("é"), c.s("😀"));
    c.case(
        "ord('é')",
        &format!("(call $b_ord (call $t1 {eacute}) (i32.const 0))"),
        "233",
    );
    c.case(
        "ord('😀')",
        &format!("(call $b_ord (call $t1 {emoji}) (i32.const 0))"),
        "128512",
    );
    c.case(
        "ord('yé')",
        &format!("(call $b_ord (call $t1 {y}) (i32.const 0))"),
        "TypeError: ord() expected a character, but string of length 2 found",
    );
    c.case(
        "ord('')",
        &format!("(call $b_ord (call $t1 {e}) (i32.const 0))"),
        "TypeError: ord() expected a character, but string of length 0 found",
    );
    c.case(
        "ord(1)",
        &format!("(call $b_ord (call $t1 {}) (i32.const 0))", i(1)),
        "TypeError: ord() expected string of length 1, but int found",
    );
    c.case(
        "ord(1, 2)",
        &format!("(call $b_ord (call $t2 {x} {x}) (i32.const 0))"),
        "TypeError: ord() takes exactly one argument (2 given)",
    );
    c.case("str()", "(call $b_str (call $t0) (i32.const 0))", "''");
    c.case(
        "str('x')",
        &format!("(call $b_str (call $t1 {x}) (i32.const 0))"),
        "'x'",
    );
    c.case(
        "str(12)",
        &format!("(call $b_str (call $t1 {}) (i32.const 0))", i(12)),
        "'12'",
    );
    c.case(
        "str('x', 'utf8')",
        &format!("(call $b_str (call $t2 {x} {x}) (i32.const 0))"),
        "TypeError: decoding str is not supported",
    );
    c.case(
        "str(1, 'utf8')",
        &format!("(call $b_str (call $t2 {} {x}) (i32.const 0))", i(1)),
        "TypeError: decoding to str: need a bytes-like object, int found",
    );
    c.case(
        "str(1, 2, 3, 4)",
        &format!("(call $b_str (call $t4 {x} {x} {x} {x}) (i32.const 0))"),
        "TypeError: str() takes at most 3 arguments (4 given)",
    );
    let (object, bad) = (c.s("object"), c.s("x"));
    c.case(
        "str(object='x')",
        &format!("(call $b_str (call $t0) (call $kw (call $t1 (call $tv2 {object} {x}))))"),
        "'x'",
    );
    c.case(
        "str(x='x')",
        &format!("(call $b_str (call $t0) (call $kw (call $t1 (call $tv2 {bad} {x}))))"),
        "TypeError: 'x' is an invalid keyword argument for str()",
    );
    c.run();
}

// ---- generated from CPython 3.11 (method calls and str.format) ----

#[test]
fn methods_split_strip_join_replace_find() {
    let mut c = Cases::new();
    {
        let a0 = c.s(",");
        let this = c.s("a,b,,c");
        c.mc(
            "'a,b,,c'.split(',')",
            &this,
            "split",
            &[&a0],
            &[],
            "['a', 'b', '', 'c']",
        );
    }
    {
        let a0 = c.s(",");
        let a1 = i(1);
        let this = c.s("a,b,,c");
        c.mc(
            "'a,b,,c'.split(',', 1)",
            &this,
            "split",
            &[&a0, &a1],
            &[],
            "['a', 'b,,c']",
        );
    }
    {
        let this = c.s("  a  b c  ");
        c.mc(
            "'  a  b c  '.split()",
            &this,
            "split",
            &[],
            &[],
            "['a', 'b', 'c']",
        );
    }
    {
        let a0 = c.s(" ");
        let this = c.s("  a  b c  ");
        c.mc(
            "'  a  b c  '.split(' ')",
            &this,
            "split",
            &[&a0],
            &[],
            "['', '', 'a', '', 'b', 'c', '', '']",
        );
    }
    {
        let a0 = NONE.to_owned();
        let a1 = i(1);
        let this = c.s("  a  b c  ");
        c.mc(
            "'  a  b c  '.split(None, 1)",
            &this,
            "split",
            &[&a0, &a1],
            &[],
            "['a', 'b c  ']",
        );
    }
    {
        let a0 = NONE.to_owned();
        let a1 = i(1);
        let this = c.s("  a  b c  ");
        c.mc(
            "'  a  b c  '.rsplit(None, 1)",
            &this,
            "rsplit",
            &[&a0, &a1],
            &[],
            "['  a  b', 'c']",
        );
    }
    {
        let a0 = c.s(",");
        let a1 = i(1);
        let this = c.s("a,b,,c");
        c.mc(
            "'a,b,,c'.rsplit(',', 1)",
            &this,
            "rsplit",
            &[&a0, &a1],
            &[],
            "['a,b,', 'c']",
        );
    }
    {
        let this = c.s("a\tb\nc d");
        c.mc(
            "'a\\tb\\nc\\xa0d'.split()",
            &this,
            "split",
            &[],
            &[],
            "['a', 'b', 'c', 'd']",
        );
    }
    {
        let this = c.s("");
        c.mc("''.split()", &this, "split", &[], &[], "[]");
    }
    {
        let a0 = c.s(",");
        let this = c.s("");
        c.mc("''.split(',')", &this, "split", &[&a0], &[], "['']");
    }
    {
        let a0 = c.s("");
        let this = c.s("abc");
        c.mc(
            "'abc'.split('')",
            &this,
            "split",
            &[&a0],
            &[],
            "ValueError: empty separator",
        );
    }
    {
        let a0 = i(1);
        let this = c.s("abc");
        c.mc(
            "'abc'.split(1)",
            &this,
            "split",
            &[&a0],
            &[],
            "TypeError: must be str or None, not int",
        );
    }
    {
        let k0 = i(1);
        let this = c.s("a b c");
        c.mc(
            "'a b c'.split(maxsplit=1)",
            &this,
            "split",
            &[],
            &[("maxsplit", k0.as_str())],
            "['a', 'b c']",
        );
    }
    {
        let k0 = c.s("b");
        let this = c.s("a b c");
        c.mc(
            "'a b c'.split(sep='b')",
            &this,
            "split",
            &[],
            &[("sep", k0.as_str())],
            "['a ', ' c']",
        );
    }
    {
        let k0 = i(1);
        let this = c.s("a b c");
        c.mc(
            "'a b c'.split(x=1)",
            &this,
            "split",
            &[],
            &[("x", k0.as_str())],
            "TypeError: 'x' is an invalid keyword argument for split()",
        );
    }
    {
        let a0 = c.s("ö");
        let this = c.s("héllo wörld");
        c.mc(
            "'héllo wörld'.split('ö')",
            &this,
            "split",
            &[&a0],
            &[],
            "['héllo w', 'rld']",
        );
    }
    {
        let this = c.s("a\nb\r\nc\rd\n");
        c.mc(
            "'a\\nb\\r\\nc\\rd\\n'.splitlines()",
            &this,
            "splitlines",
            &[],
            &[],
            "['a', 'b', 'c', 'd']",
        );
    }
    {
        let a0 = TRUE.to_owned();
        let this = c.s("a\nb\r\nc\rd\n");
        c.mc(
            "'a\\nb\\r\\nc\\rd\\n'.splitlines(True)",
            &this,
            "splitlines",
            &[&a0],
            &[],
            "['a\\n', 'b\\r\\n', 'c\\r', 'd\\n']",
        );
    }
    {
        let k0 = TRUE.to_owned();
        let this = c.s("a\nb");
        c.mc(
            "'a\\nb'.splitlines(keepends=True)",
            &this,
            "splitlines",
            &[],
            &[("keepends", k0.as_str())],
            "['a\\n', 'b']",
        );
    }
    {
        let this = c.s("  hi  ");
        c.mc("'  hi  '.strip()", &this, "strip", &[], &[], "'hi'");
    }
    {
        let this = c.s("  hi  ");
        c.mc("'  hi  '.lstrip()", &this, "lstrip", &[], &[], "'hi  '");
    }
    {
        let this = c.s("  hi  ");
        c.mc("'  hi  '.rstrip()", &this, "rstrip", &[], &[], "'  hi'");
    }
    {
        let a0 = c.s("xy");
        let this = c.s("xxhixyx");
        c.mc("'xxhixyx'.strip('xy')", &this, "strip", &[&a0], &[], "'hi'");
    }
    {
        let a0 = c.s("é");
        let this = c.s("ééhié");
        c.mc("'ééhié'.strip('é')", &this, "strip", &[&a0], &[], "'hi'");
    }
    {
        let a0 = i(1);
        let this = c.s("hi");
        c.mc(
            "'hi'.strip(1)",
            &this,
            "strip",
            &[&a0],
            &[],
            "TypeError: strip arg must be None or str",
        );
    }
    {
        let a0 = NONE.to_owned();
        let this = c.s("hi");
        c.mc("'hi'.strip(None)", &this, "strip", &[&a0], &[], "'hi'");
    }
    {
        let it0_0 = c.s("a");
        let it0_1 = c.s("b");
        let it0_2 = c.s("c");
        let a0 = format!("(i64.extend_i32_u {})", tuple(&[&it0_0, &it0_1, &it0_2]));
        let this = c.s(", ");
        c.mc(
            "', '.join(('a', 'b', 'c'))",
            &this,
            "join",
            &[&a0],
            &[],
            "'a, b, c'",
        );
    }
    {
        let it0_0 = c.s("a");
        let it0_1 = i(1);
        let a0 = format!("(call $lst {})", tuple(&[&it0_0, &it0_1]));
        let this = c.s(", ");
        c.mc(
            "', '.join(['a', 1])",
            &this,
            "join",
            &[&a0],
            &[],
            "TypeError: sequence item 1: expected str instance, int found",
        );
    }
    {
        let a0 = c.s("abc");
        let this = c.s("-");
        c.mc("'-'.join('abc')", &this, "join", &[&a0], &[], "'a-b-c'");
    }
    {
        let a0 = i(5);
        let this = c.s("-");
        c.mc(
            "'-'.join(5)",
            &this,
            "join",
            &[&a0],
            &[],
            "TypeError: can only join an iterable",
        );
    }
    {
        let a0 = c.s("a");
        let a1 = c.s("bb");
        let this = c.s("aaa");
        c.mc(
            "'aaa'.replace('a', 'bb')",
            &this,
            "replace",
            &[&a0, &a1],
            &[],
            "'bbbbbb'",
        );
    }
    {
        let a0 = c.s("a");
        let a1 = c.s("b");
        let a2 = i(2);
        let this = c.s("aaa");
        c.mc(
            "'aaa'.replace('a', 'b', 2)",
            &this,
            "replace",
            &[&a0, &a1, &a2],
            &[],
            "'bba'",
        );
    }
    {
        let a0 = c.s("");
        let a1 = c.s("-");
        let this = c.s("abc");
        c.mc(
            "'abc'.replace('', '-')",
            &this,
            "replace",
            &[&a0, &a1],
            &[],
            "'-a-b-c-'",
        );
    }
    {
        let a0 = c.s("");
        let a1 = c.s("-");
        let a2 = i(2);
        let this = c.s("abc");
        c.mc(
            "'abc'.replace('', '-', 2)",
            &this,
            "replace",
            &[&a0, &a1, &a2],
            &[],
            "'-a-bc'",
        );
    }
    {
        let a0 = c.s("x");
        let a1 = c.s("y");
        let this = c.s("abc");
        c.mc(
            "'abc'.replace('x', 'y')",
            &this,
            "replace",
            &[&a0, &a1],
            &[],
            "'abc'",
        );
    }
    {
        let a0 = c.s("é");
        let a1 = c.s("e");
        let this = c.s("héllo");
        c.mc(
            "'héllo'.replace('é', 'e')",
            &this,
            "replace",
            &[&a0, &a1],
            &[],
            "'hello'",
        );
    }
    {
        let a0 = i(1);
        let a1 = c.s("y");
        let this = c.s("abc");
        c.mc(
            "'abc'.replace(1, 'y')",
            &this,
            "replace",
            &[&a0, &a1],
            &[],
            "TypeError: replace() argument 1 must be str, not int",
        );
    }
    {
        let a0 = c.s("l");
        let this = c.s("hello");
        c.mc("'hello'.find('l')", &this, "find", &[&a0], &[], "2");
    }
    {
        let a0 = c.s("l");
        let this = c.s("hello");
        c.mc("'hello'.rfind('l')", &this, "rfind", &[&a0], &[], "3");
    }
    {
        let a0 = c.s("l");
        let a1 = i(3);
        let this = c.s("hello");
        c.mc("'hello'.find('l', 3)", &this, "find", &[&a0, &a1], &[], "3");
    }
    {
        let a0 = c.s("l");
        let a1 = i(-2);
        let this = c.s("hello");
        c.mc(
            "'hello'.find('l', -2)",
            &this,
            "find",
            &[&a0, &a1],
            &[],
            "3",
        );
    }
    {
        let a0 = c.s("x");
        let this = c.s("hello");
        c.mc("'hello'.find('x')", &this, "find", &[&a0], &[], "-1");
    }
    {
        let a0 = c.s("");
        let a1 = i(5);
        let this = c.s("hello");
        c.mc("'hello'.find('', 5)", &this, "find", &[&a0, &a1], &[], "5");
    }
    {
        let a0 = c.s("");
        let a1 = i(6);
        let this = c.s("hello");
        c.mc("'hello'.find('', 6)", &this, "find", &[&a0, &a1], &[], "-1");
    }
    {
        let a0 = c.s("l");
        let this = c.s("héllo");
        c.mc("'héllo'.find('l')", &this, "find", &[&a0], &[], "2");
    }
    {
        let a0 = c.s("l");
        let this = c.s("héllo");
        c.mc("'héllo'.rindex('l')", &this, "rindex", &[&a0], &[], "3");
    }
    {
        let a0 = c.s("x");
        let this = c.s("hello");
        c.mc(
            "'hello'.index('x')",
            &this,
            "index",
            &[&a0],
            &[],
            "ValueError: substring not found",
        );
    }
    {
        let a0 = c.s("l");
        let this = c.s("hello");
        c.mc("'hello'.count('l')", &this, "count", &[&a0], &[], "2");
    }
    {
        let a0 = c.s("");
        let this = c.s("hello");
        c.mc("'hello'.count('')", &this, "count", &[&a0], &[], "6");
    }
    {
        let a0 = c.s("l");
        let a1 = i(0);
        let a2 = i(3);
        let this = c.s("hello");
        c.mc(
            "'hello'.count('l', 0, 3)",
            &this,
            "count",
            &[&a0, &a1, &a2],
            &[],
            "1",
        );
    }
    {
        let a0 = i(1);
        let this = c.s("hello");
        c.mc(
            "'hello'.find(1)",
            &this,
            "find",
            &[&a0],
            &[],
            "TypeError: must be str, not int",
        );
    }
    {
        let this = c.s("hello");
        c.mc(
            "'hello'.find()",
            &this,
            "find",
            &[],
            &[],
            "TypeError: find() takes at least 1 argument (0 given)",
        );
    }
    {
        let a0 = c.s("l");
        let a1 = NONE.to_owned();
        let a2 = NONE.to_owned();
        let this = c.s("hello");
        c.mc(
            "'hello'.find('l', None, None)",
            &this,
            "find",
            &[&a0, &a1, &a2],
            &[],
            "2",
        );
    }
    {
        let a0 = c.s("l");
        let a1 = c.s("x");
        let this = c.s("hello");
        c.mc(
            "'hello'.find('l', 'x')",
            &this,
            "find",
            &[&a0, &a1],
            &[],
            "TypeError: slice indices must be integers or None or have an __index__ method",
        );
    }
    {
        let a0 = c.s("aa");
        let this = c.s("aaaa");
        c.mc("'aaaa'.count('aa')", &this, "count", &[&a0], &[], "2");
    }
    {
        let a0 = c.s("he");
        let this = c.s("hello");
        c.mc(
            "'hello'.startswith('he')",
            &this,
            "startswith",
            &[&a0],
            &[],
            "True",
        );
    }
    {
        let it0_0 = c.s("x");
        let it0_1 = c.s("he");
        let a0 = format!("(i64.extend_i32_u {})", tuple(&[&it0_0, &it0_1]));
        let this = c.s("hello");
        c.mc(
            "'hello'.startswith(('x', 'he'))",
            &this,
            "startswith",
            &[&a0],
            &[],
            "True",
        );
    }
    {
        let a0 = c.s("lo");
        let this = c.s("hello");
        c.mc(
            "'hello'.endswith('lo')",
            &this,
            "endswith",
            &[&a0],
            &[],
            "True",
        );
    }
    {
        let a0 = c.s("l");
        let a1 = i(0);
        let a2 = i(4);
        let this = c.s("hello");
        c.mc(
            "'hello'.endswith('l', 0, 4)",
            &this,
            "endswith",
            &[&a0, &a1, &a2],
            &[],
            "True",
        );
    }
    {
        let a0 = c.s("l");
        let a1 = i(2);
        let this = c.s("hello");
        c.mc(
            "'hello'.startswith('l', 2)",
            &this,
            "startswith",
            &[&a0, &a1],
            &[],
            "True",
        );
    }
    {
        let a0 = i(1);
        let this = c.s("hello");
        c.mc(
            "'hello'.startswith(1)",
            &this,
            "startswith",
            &[&a0],
            &[],
            "TypeError: startswith first arg must be str or a tuple of str, not int",
        );
    }
    {
        let it0_0 = i(1);
        let a0 = format!("(i64.extend_i32_u {})", tuple(&[&it0_0]));
        let this = c.s("hello");
        c.mc(
            "'hello'.startswith((1,))",
            &this,
            "startswith",
            &[&a0],
            &[],
            "TypeError: tuple for startswith must only contain str, not int",
        );
    }
    c.run();
}

#[test]
fn methods_case_predicates_padding() {
    let mut c = Cases::new();
    {
        let a0 = c.s("");
        let a1 = i(5);
        let this = c.s("hello");
        c.mc(
            "'hello'.startswith('', 5)",
            &this,
            "startswith",
            &[&a0, &a1],
            &[],
            "True",
        );
    }
    {
        let a0 = c.s("");
        let a1 = i(6);
        let this = c.s("hello");
        c.mc(
            "'hello'.startswith('', 6)",
            &this,
            "startswith",
            &[&a0, &a1],
            &[],
            "False",
        );
    }
    {
        let this = c.s("Hello Wörld ß");
        c.mc(
            "'Hello Wörld ß'.lower()",
            &this,
            "lower",
            &[],
            &[],
            "'hello wörld ß'",
        );
    }
    {
        let this = c.s("Hello Wörld ß");
        c.mc(
            "'Hello Wörld ß'.upper()",
            &this,
            "upper",
            &[],
            &[],
            "'HELLO WÖRLD SS'",
        );
    }
    {
        let this = c.s("Hello Wörld ß");
        c.mc(
            "'Hello Wörld ß'.swapcase()",
            &this,
            "swapcase",
            &[],
            &[],
            "'hELLO wÖRLD SS'",
        );
    }
    {
        let this = c.s("Hello Wörld ß");
        c.mc(
            "'Hello Wörld ß'.casefold()",
            &this,
            "casefold",
            &[],
            &[],
            "'hello wörld ss'",
        );
    }
    {
        let this = c.s("hello wORLD ßa");
        c.mc(
            "'hello wORLD ßa'.title()",
            &this,
            "title",
            &[],
            &[],
            "'Hello World Ssa'",
        );
    }
    {
        let this = c.s("hELLO wORLD");
        c.mc(
            "'hELLO wORLD'.capitalize()",
            &this,
            "capitalize",
            &[],
            &[],
            "'Hello world'",
        );
    }
    {
        let this = c.s("ßa");
        c.mc("'ßa'.capitalize()", &this, "capitalize", &[], &[], "'Ssa'");
    }
    {
        let this = c.s("they're bill's");
        c.mc(
            "\"they're bill's\".title()",
            &this,
            "title",
            &[],
            &[],
            "\"They'Re Bill'S\"",
        );
    }
    {
        let this = c.s("ÿ");
        c.mc("'ÿ'.upper()", &this, "upper", &[], &[], "'Ÿ'");
    }
    {
        let a0 = i(1);
        let this = c.s("abc");
        c.mc(
            "'abc'.upper(1)",
            &this,
            "upper",
            &[&a0],
            &[],
            "TypeError: str.upper() takes no arguments (1 given)",
        );
    }
    {
        let k0 = i(1);
        let this = c.s("abc");
        c.mc(
            "'abc'.upper(x=1)",
            &this,
            "upper",
            &[],
            &[("x", k0.as_str())],
            "TypeError: str.upper() takes no keyword arguments",
        );
    }
    {
        let this = c.s("123");
        c.mc("'123'.isdigit()", &this, "isdigit", &[], &[], "True");
    }
    {
        let this = c.s("12a");
        c.mc("'12a'.isdigit()", &this, "isdigit", &[], &[], "False");
    }
    {
        let this = c.s("²");
        c.mc("'²'.isdigit()", &this, "isdigit", &[], &[], "True");
    }
    {
        let this = c.s("²");
        c.mc("'²'.isdecimal()", &this, "isdecimal", &[], &[], "False");
    }
    {
        let this = c.s("½");
        c.mc("'½'.isnumeric()", &this, "isnumeric", &[], &[], "True");
    }
    {
        let this = c.s("abc");
        c.mc("'abc'.isalpha()", &this, "isalpha", &[], &[], "True");
    }
    {
        let this = c.s("abé");
        c.mc("'abé'.isalpha()", &this, "isalpha", &[], &[], "True");
    }
    {
        let this = c.s("ab1");
        c.mc("'ab1'.isalnum()", &this, "isalnum", &[], &[], "True");
    }
    {
        let this = c.s("");
        c.mc("''.isalpha()", &this, "isalpha", &[], &[], "False");
    }
    {
        let this = c.s(" \t\n");
        c.mc("' \\t\\n'.isspace()", &this, "isspace", &[], &[], "True");
    }
    {
        let this = c.s("ABC");
        c.mc("'ABC'.isupper()", &this, "isupper", &[], &[], "True");
    }
    {
        let this = c.s("AbC");
        c.mc("'AbC'.isupper()", &this, "isupper", &[], &[], "False");
    }
    {
        let this = c.s("abc1");
        c.mc("'abc1'.islower()", &this, "islower", &[], &[], "True");
    }
    {
        let this = c.s("1");
        c.mc("'1'.islower()", &this, "islower", &[], &[], "False");
    }
    {
        let this = c.s("Hello World");
        c.mc(
            "'Hello World'.istitle()",
            &this,
            "istitle",
            &[],
            &[],
            "True",
        );
    }
    {
        let this = c.s("Hello world");
        c.mc(
            "'Hello world'.istitle()",
            &this,
            "istitle",
            &[],
            &[],
            "False",
        );
    }
    {
        let this = c.s("_a1");
        c.mc(
            "'_a1'.isidentifier()",
            &this,
            "isidentifier",
            &[],
            &[],
            "True",
        );
    }
    {
        let this = c.s("1a");
        c.mc(
            "'1a'.isidentifier()",
            &this,
            "isidentifier",
            &[],
            &[],
            "False",
        );
    }
    {
        let this = c.s("é");
        c.mc("'é'.isascii()", &this, "isascii", &[], &[], "False");
    }
    {
        let this = c.s("");
        c.mc("''.isascii()", &this, "isascii", &[], &[], "True");
    }
    {
        let this = c.s("a\n");
        c.mc(
            "'a\\n'.isprintable()",
            &this,
            "isprintable",
            &[],
            &[],
            "False",
        );
    }
    {
        let this = c.s("");
        c.mc("''.isprintable()", &this, "isprintable", &[], &[], "True");
    }
    {
        let a0 = c.s("=");
        let this = c.s("a=b=c");
        c.mc(
            "'a=b=c'.partition('=')",
            &this,
            "partition",
            &[&a0],
            &[],
            "('a', '=', 'b=c')",
        );
    }
    {
        let a0 = c.s("=");
        let this = c.s("a=b=c");
        c.mc(
            "'a=b=c'.rpartition('=')",
            &this,
            "rpartition",
            &[&a0],
            &[],
            "('a=b', '=', 'c')",
        );
    }
    {
        let a0 = c.s("=");
        let this = c.s("abc");
        c.mc(
            "'abc'.partition('=')",
            &this,
            "partition",
            &[&a0],
            &[],
            "('abc', '', '')",
        );
    }
    {
        let a0 = c.s("=");
        let this = c.s("abc");
        c.mc(
            "'abc'.rpartition('=')",
            &this,
            "rpartition",
            &[&a0],
            &[],
            "('', '', 'abc')",
        );
    }
    {
        let a0 = c.s("");
        let this = c.s("abc");
        c.mc(
            "'abc'.partition('')",
            &this,
            "partition",
            &[&a0],
            &[],
            "ValueError: empty separator",
        );
    }
    {
        let this = c.s("abc");
        c.mc(
            "'abc'.partition()",
            &this,
            "partition",
            &[],
            &[],
            "TypeError: str.partition() takes exactly one argument (0 given)",
        );
    }
    {
        let a0 = i(5);
        let this = c.s("42");
        c.mc("'42'.zfill(5)", &this, "zfill", &[&a0], &[], "'00042'");
    }
    {
        let a0 = i(5);
        let this = c.s("-42");
        c.mc("'-42'.zfill(5)", &this, "zfill", &[&a0], &[], "'-0042'");
    }
    {
        let a0 = i(2);
        let this = c.s("+42");
        c.mc("'+42'.zfill(2)", &this, "zfill", &[&a0], &[], "'+42'");
    }
    {
        let a0 = i(7);
        let this = c.s("ab");
        c.mc("'ab'.center(7)", &this, "center", &[&a0], &[], "'   ab  '");
    }
    {
        let a0 = i(6);
        let a1 = c.s("*");
        let this = c.s("ab");
        c.mc(
            "'ab'.center(6, '*')",
            &this,
            "center",
            &[&a0, &a1],
            &[],
            "'**ab**'",
        );
    }
    {
        let a0 = i(6);
        let a1 = c.s("é");
        let this = c.s("abc");
        c.mc(
            "'abc'.center(6, 'é')",
            &this,
            "center",
            &[&a0, &a1],
            &[],
            "'éabcéé'",
        );
    }
    {
        let a0 = i(5);
        let a1 = c.s("-");
        let this = c.s("ab");
        c.mc(
            "'ab'.ljust(5, '-')",
            &this,
            "ljust",
            &[&a0, &a1],
            &[],
            "'ab---'",
        );
    }
    {
        let a0 = i(5);
        let this = c.s("ab");
        c.mc("'ab'.rjust(5)", &this, "rjust", &[&a0], &[], "'   ab'");
    }
    {
        let a0 = i(5);
        let a1 = c.s("xy");
        let this = c.s("ab");
        c.mc(
            "'ab'.rjust(5, 'xy')",
            &this,
            "rjust",
            &[&a0, &a1],
            &[],
            "TypeError: The fill character must be exactly one character long",
        );
    }
    {
        let a0 = i(5);
        let a1 = i(1);
        let this = c.s("ab");
        c.mc(
            "'ab'.rjust(5, 1)",
            &this,
            "rjust",
            &[&a0, &a1],
            &[],
            "TypeError: The fill character must be a unicode character, not int",
        );
    }
    {
        let this = c.s("ab");
        c.mc(
            "'ab'.center()",
            &this,
            "center",
            &[],
            &[],
            "TypeError: center expected at least 1 argument, got 0",
        );
    }
    {
        let a0 = c.s("x");
        let this = c.s("ab");
        c.mc(
            "'ab'.zfill('x')",
            &this,
            "zfill",
            &[&a0],
            &[],
            "TypeError: 'str' object cannot be interpreted as an integer",
        );
    }
    {
        let this = c.s("a\tbc\td");
        c.mc(
            "'a\\tbc\\td'.expandtabs()",
            &this,
            "expandtabs",
            &[],
            &[],
            "'a       bc      d'",
        );
    }
    {
        let a0 = i(4);
        let this = c.s("a\tbc\td");
        c.mc(
            "'a\\tbc\\td'.expandtabs(4)",
            &this,
            "expandtabs",
            &[&a0],
            &[],
            "'a   bc  d'",
        );
    }
    {
        let k0 = i(2);
        let this = c.s("ab\n\tc");
        c.mc(
            "'ab\\n\\tc'.expandtabs(tabsize=2)",
            &this,
            "expandtabs",
            &[],
            &[("tabsize", k0.as_str())],
            "'ab\\n  c'",
        );
    }
    {
        let a0 = c.s("prefix-");
        let this = c.s("prefix-x");
        c.mc(
            "'prefix-x'.removeprefix('prefix-')",
            &this,
            "removeprefix",
            &[&a0],
            &[],
            "'x'",
        );
    }
    {
        let a0 = c.s(".py");
        let this = c.s("x.py");
        c.mc(
            "'x.py'.removesuffix('.py')",
            &this,
            "removesuffix",
            &[&a0],
            &[],
            "'x'",
        );
    }
    {
        let a0 = c.s(".txt");
        let this = c.s("x.py");
        c.mc(
            "'x.py'.removesuffix('.txt')",
            &this,
            "removesuffix",
            &[&a0],
            &[],
            "'x.py'",
        );
    }
    {
        let a0 = i(1);
        let this = c.s("x");
        c.mc(
            "'x'.removeprefix(1)",
            &this,
            "removeprefix",
            &[&a0],
            &[],
            "TypeError: removeprefix() argument must be str, not int",
        );
    }
    {
        let this = c.s("abc");
        c.mc("'abc'.encode()", &this, "encode", &[], &[], "<0>");
    }
    {
        let this = c.s("abc");
        c.mc("'abc'.nosuch()", &this, "nosuch", &[], &[], "<0>");
    }
    c.run();
}

#[test]
fn format_method() {
    let mut c = Cases::new();
    {
        let a0 = c.s("a");
        let a1 = c.s("b");
        let this = c.s("{} and {}");
        c.mc(
            "'{} and {}'.format('a', 'b')",
            &this,
            "format",
            &[&a0, &a1],
            &[],
            "'a and b'",
        );
    }
    {
        let a0 = c.s("a");
        let a1 = c.s("b");
        let this = c.s("{1}{0}{1}");
        c.mc(
            "'{1}{0}{1}'.format('a', 'b')",
            &this,
            "format",
            &[&a0, &a1],
            &[],
            "'bab'",
        );
    }
    {
        let k0 = c.s("1");
        let k1 = c.s("2");
        let this = c.s("{x}-{y}");
        c.mc(
            "'{x}-{y}'.format(x='1', y='2')",
            &this,
            "format",
            &[],
            &[("x", k0.as_str()), ("y", k1.as_str())],
            "'1-2'",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{{}} {}");
        c.mc(
            "'{{}} {}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "'{} a'",
        );
    }
    {
        let a0 = c.s("ab");
        let this = c.s("{:*^9}");
        c.mc(
            "'{:*^9}'.format('ab')",
            &this,
            "format",
            &[&a0],
            &[],
            "'***ab****'",
        );
    }
    {
        let a0 = c.s("a");
        let a1 = c.s("b");
        let a2 = c.s("c");
        let this = c.s("{:>5}|{:<5}|{:^5}");
        c.mc(
            "'{:>5}|{:<5}|{:^5}'.format('a', 'b', 'c')",
            &this,
            "format",
            &[&a0, &a1, &a2],
            &[],
            "'    a|b    |  c  '",
        );
    }
    {
        let a0 = c.s("abcdef");
        let this = c.s("{:.2}");
        c.mc(
            "'{:.2}'.format('abcdef')",
            &this,
            "format",
            &[&a0],
            &[],
            "'ab'",
        );
    }
    {
        let a0 = c.s("abcdef");
        let this = c.s("{:10.3}|");
        c.mc(
            "'{:10.3}|'.format('abcdef')",
            &this,
            "format",
            &[&a0],
            &[],
            "'abc       |'",
        );
    }
    {
        let a0 = c.s("a'b");
        let this = c.s("{!r}");
        c.mc(
            "'{!r}'.format(\"a'b\")",
            &this,
            "format",
            &[&a0],
            &[],
            "'\"a\\'b\"'",
        );
    }
    {
        let a0 = c.s("x");
        let this = c.s("{0!s:>4}");
        c.mc(
            "'{0!s:>4}'.format('x')",
            &this,
            "format",
            &[&a0],
            &[],
            "'   x'",
        );
    }
    {
        let a0 = c.s("a");
        let a1 = i(4);
        let this = c.s("{:{}}|");
        c.mc(
            "'{:{}}|'.format('a', 4)",
            &this,
            "format",
            &[&a0, &a1],
            &[],
            "'a   |'",
        );
    }
    {
        let a0 = c.s("a");
        let a1 = c.s(">");
        let a2 = i(4);
        let this = c.s("{0:{1}{2}}|");
        c.mc(
            "'{0:{1}{2}}|'.format('a', '>', 4)",
            &this,
            "format",
            &[&a0, &a1, &a2],
            &[],
            "'   a|'",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{}{0}");
        c.mc("'{}{0}'.format('a')", &this, "format", &[&a0], &[], "ValueError: cannot switch from automatic field numbering to manual field specification");
    }
    {
        let a0 = c.s("a");
        let this = c.s("{0}{}");
        c.mc("'{0}{}'.format('a')", &this, "format", &[&a0], &[], "ValueError: cannot switch from manual field specification to automatic field numbering");
    }
    {
        let a0 = c.s("a");
        let this = c.s("{0.x}");
        c.mc(
            "'{0.x}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Baton: attribute and index fields are not supported in format strings",
        );
    }
    {
        let k0 = c.s("x");
        let this = c.s("{a[0]}");
        c.mc(
            "'{a[0]}'.format(a='x')",
            &this,
            "format",
            &[],
            &[("a", k0.as_str())],
            "ValueError: Baton: attribute and index fields are not supported in format strings",
        );
    }
    {
        let this = c.s("{");
        c.mc(
            "'{'.format()",
            &this,
            "format",
            &[],
            &[],
            "ValueError: Single '{' encountered in format string",
        );
    }
    {
        let this = c.s("}");
        c.mc(
            "'}'.format()",
            &this,
            "format",
            &[],
            &[],
            "ValueError: Single '}' encountered in format string",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{0");
        c.mc(
            "'{0'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: expected '}' before end of string",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{!x}");
        c.mc(
            "'{!x}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Unknown conversion specifier x",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{0!x}");
        c.mc(
            "'{0!x}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Unknown conversion specifier x",
        );
    }
    {
        let this = c.s("{}");
        c.mc(
            "'{}'.format()",
            &this,
            "format",
            &[],
            &[],
            "IndexError: Replacement index 0 out of range for positional args tuple",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:=5}");
        c.mc(
            "'{:=5}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: '=' alignment not allowed in string format specifier",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:+5}");
        c.mc(
            "'{:+5}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Sign not allowed in string format specifier",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:d}");
        c.mc(
            "'{:d}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Unknown format code 'd' for object of type 'str'",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:,}");
        c.mc(
            "'{:,}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Cannot specify ',' with 's'.",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:05}");
        c.mc(
            "'{:05}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "'a0000'",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:xx}");
        c.mc(
            "'{:xx}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Invalid format specifier 'xx' for object of type 'str'",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:.}");
        c.mc(
            "'{:.}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Format specifier missing precision",
        );
    }
    {
        let a0 = c.s("a");
        let a1 = i(1);
        let a2 = i(2);
        let this = c.s("{:{:{}}}");
        c.mc(
            "'{:{:{}}}'.format('a', 1, 2)",
            &this,
            "format",
            &[&a0, &a1, &a2],
            &[],
            "ValueError: Max string recursion exceeded",
        );
    }
    {
        let a0 = i(1);
        let a1 = i(-20);
        let this = c.s("{} is {}");
        c.mc(
            "'{} is {}'.format(1, -20)",
            &this,
            "format",
            &[&a0, &a1],
            &[],
            "'1 is -20'",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:é>4}");
        c.mc(
            "'{:é>4}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "'éééa'",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{:#}");
        c.mc(
            "'{:#}'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Alternate form (#) not allowed in string format specifier",
        );
    }
    {
        let a0 = c.s("a");
        let this = c.s("{: }");
        c.mc(
            "'{: }'.format('a')",
            &this,
            "format",
            &[&a0],
            &[],
            "ValueError: Space not allowed in string format specifier",
        );
    }
    {
        let dk0_0 = c.s("x");
        let dv0_0 = c.s("v");
        let dp0_0 = format!("(call $tv2 {dk0_0} {dv0_0})");
        let a0 = format!("(i64.extend_i32_u (call $kw {}))", tuple(&[&dp0_0]));
        let this = c.s("{x}");
        c.mc(
            "'{x}'.format_map({'x': 'v'})",
            &this,
            "format_map",
            &[&a0],
            &[],
            "'v'",
        );
    }
    {
        let a0 = c.s("é");
        let this = c.s("{0!a}");
        c.mc(
            "'{0!a}'.format('é')",
            &this,
            "format",
            &[&a0],
            &[],
            "\"'\\\\xe9'\"",
        );
    }
    {
        let a0 = i(1);
        let this = c.s("no braces");
        c.mc(
            "'no braces'.format(1)",
            &this,
            "format",
            &[&a0],
            &[],
            "'no braces'",
        );
    }
    c.run();
}
