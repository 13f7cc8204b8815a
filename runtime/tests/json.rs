//! Tests of json.wat. Each test assembles one module that runs many cases and prints one line
//! per case: the repr of the result, or `Type: message` for an exception. The expected lines
//! are what CPython 3.11 prints for the Python expression noted with each case.

mod support;

use baton_runtime::{runtime_layout, statics::Statics};
use support::run_with;

const HELPERS: &str = r#"
(func $nl (call $write_str (call $str_ascii_char (i32.const 10))))
(func $show_exc (param $e i64)
  (call $write_str (call $type_name (local.get $e)))
  (call $write_str (call $str_ascii_char (i32.const 58)))
  (call $write_str (call $str_ascii_char (i32.const 32)))
  (call $write_str (call $exc_str (local.get $e))))
;; Prints repr(json.loads(s)) or the exception.
(func $try_loads (param $s i64) (param $kwargs i32)
  (local $e i64)
  (local.set $e (block $h (result i64)
    (try_table (catch $exc $h)
      (call $write_str (call $to_repr
        (call $b_json_loads (i32.wrap_i64 (call $tuple1 (local.get $s))) (local.get $kwargs))))
      (call $nl)
      (return))
    (unreachable)))
  (call $show_exc (local.get $e))
  (call $nl))
;; Prints repr(json.dumps(json.loads(s), **kwargs)) or the exception.
(func $try_dumps (param $s i64) (param $kwargs i32)
  (call $try_dumps_value
    (call $b_json_loads (i32.wrap_i64 (call $tuple1 (local.get $s))) (i32.const 0)) (local.get $kwargs)))
(func $try_dumps_value (param $v i64) (param $kwargs i32)
  (local $e i64)
  (local.set $e (block $h (result i64)
    (try_table (catch $exc $h)
      (call $write_str (call $to_repr
        (call $b_json_dumps (i32.wrap_i64 (call $tuple1 (local.get $v))) (local.get $kwargs))))
      (call $nl)
      (return))
    (unreachable)))
  (call $show_exc (local.get $e))
  (call $nl))
;; A kwargs dict of one keyword whose value is json.loads(value).
(func $kw (param $d i32) (param $name i64) (param $value i64) (result i32)
  (if (i32.eqz (local.get $d)) (then (local.set $d (i32.wrap_i64 (call $dict_new)))))
  (call $dict_set (i64.extend_i32_u (local.get $d)) (local.get $name)
    (call $b_json_loads (i32.wrap_i64 (call $tuple1 (local.get $value))) (i32.const 0)))
  (local.get $d))
;; Calls loads (which=0) or dumps (which=1) with an argument tuple; prints the result or error.
(func $try_args (param $args i32) (param $which i32)
  (local $e i64)
  (local.set $e (block $h (result i64)
    (try_table (catch $exc $h)
      (call $write_str (call $to_repr (if (result i64) (local.get $which)
        (then (call $b_json_dumps (local.get $args) (i32.const 0)))
        (else (call $b_json_loads (local.get $args) (i32.const 0))))))
      (call $nl)
      (return))
    (unreachable)))
  (call $show_exc (local.get $e))
  (call $nl))
(func $t_pair (param $a i64) (param $b i64) (result i32) (local $t i32)
  (local.set $t (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $t) (local.get $a)) (i64.store offset=16 (local.get $t) (local.get $b))
  (local.get $t))
"#;

struct Cases {
    statics: Statics,
    body: String,
}

impl Cases {
    fn new() -> Self {
        Cases {
            statics: Statics::new(runtime_layout().plan_statics),
            body: String::new(),
        }
    }

    fn s(&mut self, text: &str) -> u32 {
        self.statics.str(text)
    }

    fn kwargs(&mut self, kwargs: &[(&str, &str)]) -> String {
        let mut expr = String::from("(i32.const 0)");
        for (name, value) in kwargs {
            let (n, v) = (self.s(name), self.s(value));
            expr = format!("(call $kw {expr} (i64.const {n}) (i64.const {v}))");
        }
        expr
    }

    fn loads(&mut self, text: &str) {
        self.loads_kw(text, &[]);
    }

    fn loads_kw(&mut self, text: &str, kwargs: &[(&str, &str)]) {
        let s = self.s(text);
        let kw = self.kwargs(kwargs);
        self.body
            .push_str(&format!("(call $try_loads (i64.const {s}) {kw})\n"));
    }

    fn dumps(&mut self, json: &str, kwargs: &[(&str, &str)]) {
        let s = self.s(json);
        let kw = self.kwargs(kwargs);
        self.body
            .push_str(&format!("(call $try_dumps (i64.const {s}) {kw})\n"));
    }

    /// dumps of a value built by WAT instructions.
    fn dumps_expr(&mut self, expr: &str, kwargs: &[(&str, &str)]) {
        let kw = self.kwargs(kwargs);
        self.body
            .push_str(&format!("(call $try_dumps_value {expr} {kw})\n"));
    }

    fn raw(&mut self, wat: &str) {
        self.body.push_str(wat);
        self.body.push('\n');
    }

    fn run(self) -> Vec<String> {
        let functions = format!("{HELPERS}\n(func $plan_main\n{}\n)", self.body);
        let outcome = run_with(&functions, &self.statics).expect("module runs");
        assert!(outcome.error.is_none(), "uncaught: {:?}", outcome.error);
        outcome.stdout.lines().map(str::to_owned).collect()
    }
}

fn check(cases: Cases, expected: &[&str]) {
    let got = cases.run();
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert_eq!(g, e, "case {i}");
    }
    assert_eq!(got.len(), expected.len(), "{got:#?}");
}

#[test]
fn loads_values() {
    let mut c = Cases::new();
    let inputs = [
        "1",
        "-2.5",
        "\"s\"",
        "true",
        "false",
        "null",
        "[1, 2, [3]]",
        "{\"a\": 1, \"b\": [true, false, null]}",
        "1e3",
        "1E-2",
        "0",
        "-0",
        "-0.0",
        "  {\"x\" : {\"y\" : {}}}  ",
        "\"esc: \\n \\t \\\" \\\\ \\/ \\b \\f \\r\"",
        "\"\\u00e9\\u20AC\"",
        "\"\\ud83d\\ude00\"",
        "{\"dup\": 1, \"dup\": 2}",
        "12345678901234",
        "9223372036854775807",
        "-9223372036854775808",
        "4611686018427387904",
        "1.5e300",
        "-1e-7",
        "[1.0, 1, 100000000000000000000.0]",
        "NaN",
        "Infinity",
        "-Infinity",
        "0.1",
        "2.2250738585072014e-308",
        "1e400",
        "\"caf\u{e9} \u{1F600}\"",
        "[]",
        "{}",
        " [ ] ",
        "\t\n\r 7 \n",
        "[\"a\\u0041\\u00e9b\", \"\"]",
        "1.7976931348623157e308",
    ];
    for input in inputs {
        c.loads(input);
    }
    check(
        c,
        &[
            "1",
            "-2.5",
            "'s'",
            "True",
            "False",
            "None",
            "[1, 2, [3]]",
            "{'a': 1, 'b': [True, False, None]}",
            "1000.0",
            "0.01",
            "0",
            "0",
            "-0.0",
            "{'x': {'y': {}}}",
            "'esc: \\n \\t \" \\\\ / \\x08 \\x0c \\r'",
            "'é€'",
            "'😀'",
            "{'dup': 2}",
            "12345678901234",
            "9223372036854775807",
            "-9223372036854775808",
            "4611686018427387904",
            "1.5e+300",
            "-1e-07",
            "[1.0, 1, 1e+20]",
            "nan",
            "inf",
            "-inf",
            "0.1",
            "2.2250738585072014e-308",
            "inf",
            "'café 😀'",
            "[]",
            "{}",
            "[]",
            "7",
            "['aAéb', '']",
            "1.7976931348623157e+308",
        ],
    );
}

#[test]
fn loads_errors() {
    let mut c = Cases::new();
    let inputs = [
        "",
        "{",
        "[1,]",
        "{'a': 1}",
        "nul",
        "1 2",
        "{\"a\" 1}",
        "\"unterminated",
        "[1, 2",
        "01",
        "{\"a\":1,}",
        "[",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\u12x4\"",
        "\"a\nb\"",
        "\"\\u1234",
        "-",
        "-a",
        "1.",
        "1e",
        "1e+",
        "1.5e3x",
        "\u{feff}1",
        " \n [1,\n 2,, 3]",
        "{\"a\"",
        "{\"a\":",
        "{\"a\":1",
        "{\"a\":1 \"b\"",
        "tru",
        "-NaN",
        "Infinity1",
        "\"é\" x",
        "[1 2]",
        "{1:2}",
        "\"\\ud800\\x\"",
        "\"abc\\\"",
        "[] []",
        "  ",
        "\"\t\"",
        "99999999999999999999",
        "-9223372036854775809",
        "\"é\\q\"",
        "[\"ab\", é]",
    ];
    for input in inputs {
        c.loads(input);
    }
    check(c, &[
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "JSONDecodeError: Expecting value: line 1 column 4 (char 3)",
        "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "JSONDecodeError: Extra data: line 1 column 3 (char 2)",
        "JSONDecodeError: Expecting ':' delimiter: line 1 column 6 (char 5)",
        "JSONDecodeError: Unterminated string starting at: line 1 column 1 (char 0)",
        "JSONDecodeError: Expecting ',' delimiter: line 1 column 6 (char 5)",
        "JSONDecodeError: Extra data: line 1 column 2 (char 1)",
        "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 8 (char 7)",
        "JSONDecodeError: Expecting value: line 1 column 2 (char 1)",
        "JSONDecodeError: Invalid \\escape: line 1 column 2 (char 1)",
        "JSONDecodeError: Invalid \\uXXXX escape: line 1 column 3 (char 2)",
        "JSONDecodeError: Invalid \\uXXXX escape: line 1 column 3 (char 2)",
        "JSONDecodeError: Invalid control character at: line 1 column 3 (char 2)",
        "JSONDecodeError: Invalid \\uXXXX escape: line 1 column 3 (char 2)",
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "JSONDecodeError: Extra data: line 1 column 2 (char 1)",
        "JSONDecodeError: Extra data: line 1 column 2 (char 1)",
        "JSONDecodeError: Extra data: line 1 column 2 (char 1)",
        "JSONDecodeError: Extra data: line 1 column 6 (char 5)",
        "JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)",
        "JSONDecodeError: Expecting value: line 3 column 4 (char 10)",
        "JSONDecodeError: Expecting ':' delimiter: line 1 column 5 (char 4)",
        "JSONDecodeError: Expecting value: line 1 column 6 (char 5)",
        "JSONDecodeError: Expecting ',' delimiter: line 1 column 7 (char 6)",
        "JSONDecodeError: Expecting ',' delimiter: line 1 column 8 (char 7)",
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "JSONDecodeError: Extra data: line 1 column 9 (char 8)",
        "JSONDecodeError: Extra data: line 1 column 5 (char 4)",
        "JSONDecodeError: Expecting ',' delimiter: line 1 column 4 (char 3)",
        "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "JSONDecodeError: Invalid \\escape: line 1 column 8 (char 7)",
        "JSONDecodeError: Unterminated string starting at: line 1 column 1 (char 0)",
        "JSONDecodeError: Extra data: line 1 column 4 (char 3)",
        "JSONDecodeError: Expecting value: line 1 column 3 (char 2)",
        "JSONDecodeError: Invalid control character at: line 1 column 2 (char 1)",
        "OverflowError: integer overflow: result does not fit in 64 bits",
        "OverflowError: integer overflow: result does not fit in 64 bits",
        "JSONDecodeError: Invalid \\escape: line 1 column 3 (char 2)",
        "JSONDecodeError: Expecting value: line 1 column 8 (char 7)",
    ]);
}

#[test]
fn loads_arguments_and_hooks() {
    let mut c = Cases::new();
    c.raw("(call $try_loads (i64.const 8) (i32.const 0))");
    c.loads_kw("1", &[("x", "1")]);
    c.loads_kw(
        "[1.5, 2, NaN]",
        &[("parse_float", "null"), ("object_hook", "null")],
    );
    c.loads_kw("\"a\nb\"", &[("strict", "false")]);
    let (s, one) = (c.s("[1, 2]"), c.s("1"));
    let two = c.statics.tuple(&[s as i64, one as i64]);
    c.raw(&format!("(call $try_args (i32.const {two}) (i32.const 0))"));
    c.raw("(call $try_args (global.get $empty_tuple) (i32.const 0))");
    // Nesting beyond the recursion limit raises RecursionError, and the depth is restored.
    let deep = "[".repeat(5000);
    c.loads(&deep);
    let deep_obj = "{\"a\":".repeat(5000);
    c.loads(&deep_obj);
    let ok = format!("{}{}", "[".repeat(500), "]".repeat(500));
    let ok_s = c.s(&ok);
    c.raw(&format!(
        "(drop (call $b_json_loads (i32.wrap_i64 (call $tuple1 (i64.const {ok_s}))) (i32.const 0)))
         (call $write_str (call $to_str (call $int_new (i64.extend_i32_u (global.get $native_depth))))) (call $nl)"
    ));
    check(c, &[
        "TypeError: the JSON object must be str, bytes or bytearray, not NoneType",
        "TypeError: JSONDecoder.__init__() got an unexpected keyword argument 'x'",
        "[1.5, 2, nan]",
        "'a\\nb'",
        "TypeError: loads() takes 1 positional argument but 2 were given",
        "TypeError: loads() missing 1 required positional argument: 's'",
        "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string",
        "RecursionError: maximum recursion depth exceeded while decoding a JSON object from a unicode string",
        "0",
    ]);
}

#[test]
fn dumps_values() {
    let mut c = Cases::new();
    for json in [
        "1",
        "2.5",
        "\"s\"",
        "true",
        "null",
        "[1, \"a\", null, false]",
        "{\"a\": 1, \"b\": [1, 2]}",
        "{}",
        "[]",
        "0.1",
        "1e16",
        "1e-05",
        "-0.0",
        "Infinity",
        "-Infinity",
        "NaN",
        "9223372036854775807",
        "-9223372036854775808",
        "4611686018427387904",
        "[1.0, 100.0, 1e22, 123456789.125, -5]",
        "\"quote \\\" backslash \\\\ slash /\"",
        "\"nl\\ntab\\tcr\\rbs\\bff\\f\"",
        "\"\\u00e9\\u20ac\\ud83d\\ude00\"",
        "\"\\u0000\\u001f\\u007f\"",
        "[[[]], {\"k\": {\"nested\": [true, null, 1.5]}}]",
    ] {
        c.dumps(json, &[]);
    }
    c.dumps(
        "\"\\u00e9\\u007f\\ud83d\\ude00\\n\"",
        &[("ensure_ascii", "false")],
    );
    c.dumps("[\"caf\\u00e9\"]", &[("ensure_ascii", "false")]);
    // dict keys of every scalar type: {1: 'int', True: 'bool', None: 'none', 2.5: 'float'}
    let (int_s, bool_s, none_s, float_s) = (c.s("int"), c.s("bool"), c.s("none"), c.s("float"));
    let two_half = c.statics.float(2.5);
    c.dumps_expr(
        &format!(
            "(block (result i64) (local.set $d (call $dict_new))
               (call $dict_set (local.get $d) (i64.const 3) (i64.const {int_s}))
               (call $dict_set (local.get $d) (i64.const 24) (i64.const {bool_s}))
               (call $dict_set (local.get $d) (i64.const 8) (i64.const {none_s}))
               (call $dict_set (local.get $d) (i64.const {two_half}) (i64.const {float_s}))
               (call $dict_set (local.get $d) (i64.const -3) (i64.const 8))
               (local.get $d))"
        ),
        &[],
    );
    // a tuple encodes as an array
    c.dumps_expr(
        "(i64.extend_i32_u (call $t_pair (i64.const 3) (i64.const 5)))",
        &[],
    );
    c.body = format!("(local $d i64)\n{}", c.body);
    check(
        c,
        &[
            "'1'",
            "'2.5'",
            "'\"s\"'",
            "'true'",
            "'null'",
            "'[1, \"a\", null, false]'",
            "'{\"a\": 1, \"b\": [1, 2]}'",
            "'{}'",
            "'[]'",
            "'0.1'",
            "'1e+16'",
            "'1e-05'",
            "'-0.0'",
            "'Infinity'",
            "'-Infinity'",
            "'NaN'",
            "'9223372036854775807'",
            "'-9223372036854775808'",
            "'4611686018427387904'",
            "'[1.0, 100.0, 1e+22, 123456789.125, -5]'",
            "'\"quote \\\\\" backslash \\\\\\\\ slash /\"'",
            "'\"nl\\\\ntab\\\\tcr\\\\rbs\\\\bff\\\\f\"'",
            "'\"\\\\u00e9\\\\u20ac\\\\ud83d\\\\ude00\"'",
            "'\"\\\\u0000\\\\u001f\\\\u007f\"'",
            "'[[[]], {\"k\": {\"nested\": [true, null, 1.5]}}]'",
            "'\"é\\x7f😀\\\\n\"'",
            "'[\"café\"]'",
            "'{\"1\": \"bool\", \"null\": \"none\", \"2.5\": \"float\", \"-2\": null}'",
            "'[1, 2]'",
        ],
    );
}

#[test]
fn dumps_options() {
    let mut c = Cases::new();
    let data = "{\"b\": [1, 2, {\"c\": null}], \"a\": \"x\", \"empty\": [], \"obj\": {}}";
    c.dumps(data, &[("sort_keys", "true")]);
    c.dumps(data, &[("indent", "2")]);
    c.dumps(data, &[("indent", "4"), ("sort_keys", "true")]);
    c.dumps(data, &[("separators", "[\",\", \":\"]")]);
    c.dumps("[1, [2, 3]]", &[("indent", "0")]);
    c.dumps("[1]", &[("indent", "\"\\t\"")]);
    c.dumps("[1]", &[("indent", "-1")]);
    c.dumps("[1]", &[("indent", "1.5")]);
    c.dumps("[1, 2]", &[("separators", "[\";\", \"=\"]")]);
    c.dumps("{\"a\": 1}", &[("separators", "[\";\"]")]);
    c.dumps("{\"a\": 1}", &[("separators", "[1, 2]")]);
    c.dumps(
        "{\"a\": [1, {}], \"b\": {}}",
        &[("indent", "2"), ("separators", "[\",\", \": \"]")],
    );
    c.dumps("NaN", &[("allow_nan", "false")]);
    c.dumps("[1]", &[("x", "1")]);
    c.dumps(
        "{\"b\": 1, \"a\": {\"d\": 1, \"c\": 2}}",
        &[("sort_keys", "true"), ("indent", "1")],
    );
    c.dumps("[1]", &[("check_circular", "false"), ("default", "null")]);
    check(c, &[
        "'{\"a\": \"x\", \"b\": [1, 2, {\"c\": null}], \"empty\": [], \"obj\": {}}'",
        "'{\\n  \"b\": [\\n    1,\\n    2,\\n    {\\n      \"c\": null\\n    }\\n  ],\\n  \"a\": \"x\",\\n  \"empty\": [],\\n  \"obj\": {}\\n}'",
        "'{\\n    \"a\": \"x\",\\n    \"b\": [\\n        1,\\n        2,\\n        {\\n            \"c\": null\\n        }\\n    ],\\n    \"empty\": [],\\n    \"obj\": {}\\n}'",
        "'{\"b\":[1,2,{\"c\":null}],\"a\":\"x\",\"empty\":[],\"obj\":{}}'",
        "'[\\n1,\\n[\\n2,\\n3\\n]\\n]'",
        "'[\\n\\t1\\n]'",
        "'[\\n1\\n]'",
        "TypeError: can't multiply sequence by non-int of type 'float'",
        "'[1;2]'",
        "ValueError: not enough values to unpack (expected 2, got 1)",
        "TypeError: make_encoder() argument 5 must be str, not int",
        "'{\\n  \"a\": [\\n    1,\\n    {}\\n  ],\\n  \"b\": {}\\n}'",
        "ValueError: Out of range float values are not JSON compliant",
        "TypeError: JSONEncoder.__init__() got an unexpected keyword argument 'x'",
        "'{\\n \"a\": {\\n  \"c\": 2,\\n  \"d\": 1\\n },\\n \"b\": 1\\n}'",
        "'[1]'",
    ]);
}

#[test]
fn dumps_errors() {
    let mut c = Cases::new();
    // unsupported values and keys
    c.dumps_expr("(call $set_new)", &[]);
    c.raw("(local.set $l (call $dict_new)) (call $dict_set (local.get $l) (call $tuple1 (i64.const 3)) (i64.const 3))");
    c.dumps_expr("(local.get $l)", &[]);
    c.dumps_expr("(local.get $l)", &[("skipkeys", "true")]);
    c.dumps_expr("(local.get $l)", &[("skipkeys", "true"), ("indent", "2")]);
    // sort_keys with keys that do not compare
    c.raw("(local.set $l (call $dict_new)) (call $dict_set (local.get $l) (i64.const 3) (i64.const 3)) (call $dict_set (local.get $l) (call $str_ascii_char (i32.const 98)) (i64.const 5))");
    c.dumps_expr("(local.get $l)", &[("sort_keys", "true")]);
    // l = []; l.append(l)
    c.raw("(local.set $l (call $list_new (i32.const 1))) (call $list_append (local.get $l) (local.get $l))");
    c.dumps_expr("(local.get $l)", &[]);
    // d = {}; d['x'] = [d]
    c.raw("(local.set $d (call $dict_new)) (local.set $l (call $list_new (i32.const 1))) (call $list_append (local.get $l) (local.get $d)) (call $dict_set (local.get $d) (call $str_ascii_char (i32.const 120)) (local.get $l))");
    c.dumps_expr("(local.get $d)", &[]);
    // the same list twice is not circular
    c.raw("(local.set $l (call $list_new (i32.const 1))) (local.set $d (call $list_new (i32.const 2))) (call $list_append (local.get $d) (local.get $l)) (call $list_append (local.get $d) (local.get $l))");
    c.dumps_expr("(local.get $d)", &[]);
    // deep nesting: RecursionError, with or without the circular check
    c.raw("(local.set $l (call $list_new (i32.const 0))) (local.set $i (i32.const 0)) (loop $deep (local.set $d (call $list_new (i32.const 1))) (call $list_append (local.get $d) (local.get $l)) (local.set $l (local.get $d)) (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $deep (i32.lt_u (local.get $i) (i32.const 5000))))");
    c.dumps_expr("(local.get $l)", &[]);
    c.dumps_expr("(local.get $l)", &[("check_circular", "false")]);
    c.raw("(call $write_str (call $to_str (call $int_new (i64.extend_i32_u (i32.add (global.get $native_depth) (global.get $jd_sp)))))) (call $nl)");
    c.raw("(call $try_args (global.get $empty_tuple) (i32.const 1))");
    c.body = format!("(local $l i64) (local $d i64) (local $i i32)\n{}", c.body);
    check(
        c,
        &[
            "TypeError: Object of type set is not JSON serializable",
            "TypeError: keys must be str, int, float, bool or None, not tuple",
            "'{}'",
            "'{\\n  \\n}'",
            "TypeError: '<' not supported between instances of 'str' and 'int'",
            "ValueError: Circular reference detected",
            "ValueError: Circular reference detected",
            "'[[], []]'",
            "RecursionError: maximum recursion depth exceeded while encoding a JSON object",
            "RecursionError: maximum recursion depth exceeded while encoding a JSON object",
            "0",
            "TypeError: dumps() missing 1 required positional argument: 'obj'",
        ],
    );
}
