//! Tests of seq.wat: tuples, lists, ranges, slices, iteration and the sequence builtins.
//! Expected outputs are what CPython 3.11 prints for the equivalent Python.

mod support;

use baton_runtime::{runtime_layout, statics::Statics};

/// Helpers available to every test body: `$i` (small int), `$p` (print repr + newline),
/// `$L0`..`$L5` lists, `$T0`..`$T3` tuples, `$A0`..`$A3` argument tuples (i32), `$K1` a kwargs
/// dict, `$err` (print an exception as `Type: message`). `(str "text")` is a static str value.
const PRELUDE: &str = r#"
(func $i (param $n i64) (result i64) (i64.or (i64.shl (local.get $n) (i64.const 1)) (i64.const 1)))
(func $p (param $v i64) (call $write_str (call $to_repr (local.get $v))) (call $write_str (str "\n")))
(func $ps (param $v i64) (call $write_str (local.get $v)) (call $write_str (str "\n")))
(func $L0 (result i64) (call $list_new (i32.const 0)))
(func $L1 (param i64) (result i64) (local $l i64) (local.set $l (call $L0)) (call $list_append (local.get $l) (local.get 0)) (local.get $l))
(func $L2 (param i64 i64) (result i64) (local $l i64) (local.set $l (call $L1 (local.get 0))) (call $list_append (local.get $l) (local.get 1)) (local.get $l))
(func $L3 (param i64 i64 i64) (result i64) (local $l i64) (local.set $l (call $L2 (local.get 0) (local.get 1))) (call $list_append (local.get $l) (local.get 2)) (local.get $l))
(func $L4 (param i64 i64 i64 i64) (result i64) (local $l i64) (local.set $l (call $L3 (local.get 0) (local.get 1) (local.get 2))) (call $list_append (local.get $l) (local.get 3)) (local.get $l))
(func $L5 (param i64 i64 i64 i64 i64) (result i64) (local $l i64) (local.set $l (call $L4 (local.get 0) (local.get 1) (local.get 2) (local.get 3))) (call $list_append (local.get $l) (local.get 4)) (local.get $l))
(func $T0 (result i64) (call $tuple_from (call $L0)))
(func $T1 (param i64) (result i64) (call $tuple_from (call $L1 (local.get 0))))
(func $T2 (param i64 i64) (result i64) (call $tuple_from (call $L2 (local.get 0) (local.get 1))))
(func $T3 (param i64 i64 i64) (result i64) (call $tuple_from (call $L3 (local.get 0) (local.get 1) (local.get 2))))
(func $A0 (result i32) (i32.wrap_i64 (call $T0)))
(func $A1 (param i64) (result i32) (i32.wrap_i64 (call $T1 (local.get 0))))
(func $A2 (param i64 i64) (result i32) (i32.wrap_i64 (call $T2 (local.get 0) (local.get 1))))
(func $A3 (param i64 i64 i64) (result i32) (i32.wrap_i64 (call $T3 (local.get 0) (local.get 1) (local.get 2))))
(func $K1 (param i64 i64) (result i32) (local $d i64) (local.set $d (call $dict_new)) (call $dict_set (local.get $d) (local.get 0) (local.get 1)) (i32.wrap_i64 (local.get $d)))
(func $K2 (param i64 i64 i64 i64) (result i32) (local $d i32) (local.set $d (call $K1 (local.get 0) (local.get 1))) (call $dict_set (i64.extend_i32_u (local.get $d)) (local.get 2) (local.get 3)) (local.get $d))
(func $err (param $e i64)
  (call $write_str (call $type_name (local.get $e))) (call $write_str (str ": "))
  (call $write_str (call $exc_str (local.get $e))) (call $write_str (str "\n")))
(func $range (param i64 i64 i64) (result i64) (call $range_new (call $i (local.get 0)) (call $i (local.get 1)) (call $i (local.get 2))))
(func $irange (param $n i64) (result i64) (call $list_from (call $range (i64.const 0) (local.get $n) (i64.const 1))))
"#;

/// Replaces `(str "text")` with the address of a static str (`\n` escapes a newline).
fn with_strs(body: &str, statics: &mut Statics) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some(at) = rest.find("(str \"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 6..];
        let end = after.find("\")").expect("closing \")");
        let text = after[..end].replace("\\n", "\n");
        let address = statics.str(&text);
        out.push_str(&format!("(i64.const {address})"));
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// Wraps statements so that an exception they raise is printed as `Type: message`.
fn catch(statements: &str) -> String {
    format!(
        "(block $ok (call $err (block $h (result i64) (try_table (catch $exc $h) {statements} (call $write_str (str \"no error\\n\"))) (br $ok))))"
    )
}

fn py(body: &str) -> String {
    let mut statics = Statics::new(runtime_layout().plan_statics);
    let functions = with_strs(
        &format!("{PRELUDE}\n{METHODS}\n(func $plan_main\n{body}\n)"),
        &mut statics,
    );
    let outcome = support::run_with(&functions, &statics).unwrap_or_else(|e| panic!("{e}"));
    if let Some(error) = outcome.error {
        panic!(
            "uncaught exception:\n{error}\nstdout so far:\n{}",
            outcome.stdout
        );
    }
    outcome.stdout
}

fn check(body: &str, expected: &str) {
    let out = py(body);
    assert_eq!(
        out, expected,
        "\n--- got ---\n{out}\n--- expected ---\n{expected}"
    );
}

#[test]
fn repr_of_lists_tuples_ranges() {
    check(
        r#"
        (call $p (call $L2 (call $i (i64.const 1)) (str "a")))
        (call $p (call $T1 (call $i (i64.const 1))))
        (call $p (call $T0))
        (call $p (call $L0))
        (call $p (call $T2 (call $T2 (call $i (i64.const 1)) (call $i (i64.const 2))) (call $L1 (call $i (i64.const 3)))))
        (call $p (call $L1 (call $L0)))
        (call $p (call $range (i64.const 0) (i64.const 5) (i64.const 1)))
        (call $p (call $range (i64.const 1) (i64.const 10) (i64.const 2)))
        (call $p (call $L3 (i64.const 8) (i64.const 24) (i64.const 16)))
        "#,
        "[1, 'a']\n(1,)\n()\n[]\n((1, 2), [3])\n[[]]\nrange(0, 5)\nrange(1, 10, 2)\n[None, True, False]\n",
    );
}

#[test]
fn recursive_repr() {
    check(
        r#"(local $a i64)
        (local.set $a (call $L1 (call $i (i64.const 1))))
        (call $list_append (local.get $a) (local.get $a))
        (call $p (local.get $a))
        (call $p (call $T1 (local.get $a)))"#,
        "[1, [...]]\n([1, [...]],)\n",
    );
}

#[test]
fn indexing_and_errors() {
    let body = format!(
        r#"(local $a i64) (local $t i64)
        (local.set $a (call $irange (i64.const 5)))
        (local.set $t (call $tuple_from (local.get $a)))
        (call $p (call $getitem (local.get $a) (call $i (i64.const 0))))
        (call $p (call $getitem (local.get $a) (call $i (i64.const -1))))
        (call $p (call $getitem (local.get $t) (call $i (i64.const -5))))
        (call $p (call $getitem (local.get $a) (i64.const 24)))
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        "#,
        catch("(drop (call $getitem (local.get $a) (call $i (i64.const 5))))"),
        catch("(drop (call $getitem (local.get $t) (call $i (i64.const -6))))"),
        catch("(drop (call $getitem (local.get $a) (str \"x\")))"),
        catch("(drop (call $getitem (local.get $t) (str \"x\")))"),
        catch("(drop (call $getitem (call $i (i64.const 1)) (call $i (i64.const 0))))"),
        catch("(call $setitem (local.get $t) (call $i (i64.const 0)) (call $i (i64.const 0)))"),
        catch("(call $setitem (local.get $a) (call $i (i64.const 9)) (call $i (i64.const 0)))"),
        catch("(call $delitem (local.get $a) (call $i (i64.const 9)))"),
        catch("(call $delitem (local.get $t) (call $i (i64.const 0)))"),
        catch("(drop (call $getitem (call $range (i64.const 0) (i64.const 3) (i64.const 1)) (call $i (i64.const 3))))"),
        catch("(drop (call $getitem (call $range (i64.const 0) (i64.const 3) (i64.const 1)) (str \"a\")))"),
    );
    check(
        &body,
        "0\n4\n0\n1\n\
IndexError: list index out of range\n\
IndexError: tuple index out of range\n\
TypeError: list indices must be integers or slices, not str\n\
TypeError: tuple indices must be integers or slices, not str\n\
TypeError: 'int' object is not subscriptable\n\
TypeError: 'tuple' object does not support item assignment\n\
IndexError: list assignment index out of range\n\
IndexError: list assignment index out of range\n\
TypeError: 'tuple' object doesn't support item deletion\n\
IndexError: range object index out of range\n\
TypeError: range indices must be integers or slices, not str\n",
    );
}

#[test]
fn slices() {
    check(
        r#"(local $a i64) (local $t i64) (local $n i64)
        (local.set $n (i64.const 8))
        (local.set $a (call $irange (i64.const 10)))
        (local.set $t (call $tuple_from (call $irange (i64.const 3))))
        (call $p (call $getitem (local.get $a) (call $slice_new (call $i (i64.const -3)) (local.get $n) (local.get $n))))
        (call $p (call $getitem (local.get $a) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const -3)))))
        (call $p (call $getitem (local.get $a) (call $slice_new (call $i (i64.const 8)) (call $i (i64.const 2)) (call $i (i64.const -2)))))
        (call $p (call $getitem (local.get $t) (call $slice_new (call $i (i64.const 5)) (local.get $n) (local.get $n))))
        (call $p (call $getitem (local.get $t) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const -1)))))
        (call $p (call $getitem (local.get $a) (call $slice_new (i64.const 24) (local.get $n) (local.get $n))))
        (call $p (call $getitem (call $range (i64.const 0) (i64.const 10) (i64.const 1)) (call $slice_new (call $i (i64.const 2)) (call $i (i64.const 8)) (call $i (i64.const 3)))))
        (call $p (call $getitem (call $range (i64.const -3) (i64.const 5) (i64.const 1)) (call $slice_new (call $i (i64.const 10)) (call $i (i64.const -10)) (call $i (i64.const -1)))))
        (call $p (call $getitem (call $range (i64.const 0) (i64.const 10) (i64.const 3)) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const -1)))))
        (call $p (call $getitem (call $range (i64.const 0) (i64.const 5) (i64.const 1)) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const -1)))))
        (call $p (call $getitem (call $range (i64.const 0) (i64.const 10) (i64.const 3)) (call $i (i64.const -1))))
        "#,
        "[7, 8, 9]\n[9, 6, 3, 0]\n[8, 6, 4]\n()\n(2, 1, 0)\n[1, 2, 3, 4, 5, 6, 7, 8, 9]\n\
range(2, 8, 3)\nrange(4, -4, -1)\nrange(9, -3, -3)\nrange(4, -1, -1)\n9\n",
    );
}

#[test]
fn slice_assignment_and_deletion() {
    let body = format!(
        r#"(local $a i64) (local $n i64)
        (local.set $n (i64.const 8))
        (local.set $a (call $irange (i64.const 10)))
        (call $delitem (local.get $a) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const 2))))
        (call $p (local.get $a))
        (call $delitem (local.get $a) (call $slice_new (call $i (i64.const 1)) (call $i (i64.const 3)) (local.get $n)))
        (call $p (local.get $a))
        (call $setitem (local.get $a) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const -1)))
          (call $L3 (call $i (i64.const 1)) (call $i (i64.const 2)) (call $i (i64.const 3))))
        (call $p (local.get $a))
        (local.set $a (call $irange (i64.const 10)))
        (call $setitem (local.get $a) (call $slice_new (call $i (i64.const 2)) (call $i (i64.const 5)) (local.get $n)) (call $L0))
        (call $p (local.get $a))
        (call $setitem (local.get $a) (call $slice_new (call $i (i64.const 1)) (call $i (i64.const 1)) (local.get $n))
          (call $T2 (call $i (i64.const 7)) (call $i (i64.const 8))))
        (call $p (local.get $a))
        (call $setitem (local.get $a) (call $slice_new (call $i (i64.const -100)) (call $i (i64.const 100)) (call $i (i64.const 3)))
          (call $seq_repeat (call $L1 (call $i (i64.const 0))) (i64.const 3)))
        (call $p (local.get $a))
        (local.set $a (call $irange (i64.const 3)))
        (call $setitem (local.get $a) (call $slice_new (call $i (i64.const 1)) (call $i (i64.const 2)) (local.get $n)) (local.get $a))
        (call $p (local.get $a))
        (call $setitem (local.get $a) (call $slice_new (call $i (i64.const 5)) (local.get $n) (local.get $n)) (str "xy"))
        (call $p (local.get $a))
        (call $delitem (local.get $a) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const -2))))
        (call $p (local.get $a))
        {}
        {}
        {}
        "#,
        catch("(call $setitem (local.get $a) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const 2))) (call $L1 (call $i (i64.const 1))))"),
        catch("(call $setitem (local.get $a) (call $slice_new (call $i (i64.const 0)) (call $i (i64.const 1)) (local.get $n)) (call $i (i64.const 1)))"),
        catch("(drop (call $getitem (local.get $a) (call $slice_new (local.get $n) (local.get $n) (call $i (i64.const 0)))))"),
    );
    // a=list(range(10)); del a[::2]; del a[1:3]; a[::-1]=[1,2,3]; ...
    check(
        &body,
        "[1, 3, 5, 7, 9]\n[1, 7, 9]\n[3, 2, 1]\n[0, 1, 5, 6, 7, 8, 9]\n[0, 7, 8, 1, 5, 6, 7, 8, 9]\n\
[0, 7, 8, 0, 5, 6, 0, 8, 9]\n[0, 0, 1, 2, 2]\n[0, 0, 1, 2, 2, 'x', 'y']\n[0, 2, 'x']\n\
ValueError: attempt to assign sequence of size 1 to extended slice of size 2\n\
TypeError: can only assign an iterable\n\
ValueError: slice step cannot be zero\n",
    );
}

#[test]
fn iteration() {
    let body = format!(
        r#"(local $a i64) (local $it i64) (local $v i64) (local $d i64) (local $s i64)
        ;; appending while iterating visits the new items
        (local.set $a (call $L2 (call $i (i64.const 1)) (call $i (i64.const 2))))
        (local.set $it (call $iter (local.get $a)))
        (block $done (loop $each
          (local.set $v (call $next (local.get $it)))
          (br_if $done (i64.eqz (local.get $v)))
          (if (i64.lt_u (call $len (local.get $a)) (i64.const 5)) (then (call $list_append (local.get $a) (local.get $v))))
          (br $each)))
        (call $p (local.get $a))
        (call $p (call $list_from (str "héllo€")))
        (call $p (call $tuple_from (call $range (i64.const 10) (i64.const 0) (i64.const -3))))
        (local.set $d (call $dict_new))
        (call $dict_set (local.get $d) (str "a") (call $i (i64.const 1)))
        (call $dict_set (local.get $d) (str "b") (call $i (i64.const 2)))
        (call $dict_set (local.get $d) (str "c") (call $i (i64.const 3)))
        (drop (call $dict_del (local.get $d) (str "b")))
        (call $p (call $list_from (local.get $d)))
        (local.set $it (call $iter (call $iter (local.get $d))))
        (call $p (call $next (local.get $it)))
        (call $p (call $list_from (local.get $it)))
        (local.set $s (call $set_new))
        (call $set_add (local.get $s) (call $i (i64.const 5)))
        (call $p (call $list_from (local.get $s)))
        {}
        {}
        {}
        {}
        "#,
        catch("(local.set $it (call $iter (local.get $d))) (drop (call $next (local.get $it))) (call $dict_set (local.get $d) (str \"z\") (local.get $d)) (drop (call $next (local.get $it)))"),
        catch("(local.set $it (call $iter (local.get $s))) (drop (call $next (local.get $it))) (call $set_add (local.get $s) (str \"z\")) (drop (call $next (local.get $it)))"),
        catch("(drop (call $iter (call $i (i64.const 1))))"),
        catch("(drop (call $list_from (i64.const 8)))"),
    );
    check(
        &body,
        "[1, 2, 1, 2, 1]\n['h', 'é', 'l', 'l', 'o', '€']\n(10, 7, 4, 1)\n['a', 'c']\n'a'\n['c']\n[5]\n\
RuntimeError: dictionary changed size during iteration\n\
RuntimeError: Set changed size during iteration\n\
TypeError: 'int' object is not iterable\n\
TypeError: 'NoneType' object is not iterable\n",
    );
}

#[test]
fn unpacking() {
    let body = format!(
        r#"(local $a i64) (local $p i32)
        (local.set $a (call $irange (i64.const 5)))
        (local.set $p (call $unpack (call $range (i64.const 0) (i64.const 2) (i64.const 1)) (i32.const 2)))
        (call $p (i64.load (local.get $p))) (call $p (i64.load offset=8 (local.get $p)))
        (local.set $p (call $unpack_star (local.get $a) (i32.const 1) (i32.const 2)))
        (call $p (i64.load (local.get $p))) (call $p (i64.load offset=8 (local.get $p)))
        (call $p (i64.load offset=16 (local.get $p))) (call $p (i64.load offset=24 (local.get $p)))
        (local.set $p (call $unpack_star (str "ab") (i32.const 2) (i32.const 0)))
        (call $p (i64.load offset=16 (local.get $p)))
        {}
        {}
        {}
        {}
        {}
        {}
        "#,
        catch("(drop (call $unpack (local.get $a) (i32.const 2)))"),
        catch("(drop (call $unpack (local.get $a) (i32.const 7)))"),
        catch("(drop (call $unpack (call $iter (local.get $a)) (i32.const 3)))"),
        catch("(drop (call $unpack (str \"ab\") (i32.const 3)))"),
        catch("(drop (call $unpack (call $i (i64.const 1)) (i32.const 3)))"),
        catch("(drop (call $unpack_star (local.get $a) (i32.const 3) (i32.const 3)))"),
    );
    check(
        &body,
        "0\n1\n0\n[1, 2]\n3\n4\n[]\n\
ValueError: too many values to unpack (expected 2)\n\
ValueError: not enough values to unpack (expected 7, got 5)\n\
ValueError: too many values to unpack (expected 3)\n\
ValueError: not enough values to unpack (expected 3, got 2)\n\
TypeError: cannot unpack non-iterable int object\n\
ValueError: not enough values to unpack (expected at least 6, got 5)\n",
    );
}

#[test]
fn len_contains_concat_repeat_compare() {
    let body = format!(
        r#"(local $a i64) (local $b i64)
        (local.set $a (call $irange (i64.const 3)))
        (call $p (call $seq_int (call $len (local.get $a))))
        (call $p (call $seq_int (call $len (str "héllo"))))
        (call $p (call $seq_int (call $len (call $range (i64.const 0) (i64.const -10) (i64.const -3)))))
        (call $p (call $bool (call $seq_contains (local.get $a) (call $i (i64.const 2)))))
        (call $p (call $bool (call $seq_contains (local.get $a) (str "x"))))
        (call $p (call $bool (call $seq_contains (call $range (i64.const -5) (i64.const 0) (i64.const 2)) (call $i (i64.const -3)))))
        (call $p (call $bool (call $seq_contains (call $range (i64.const -5) (i64.const 0) (i64.const 2)) (call $i (i64.const -2)))))
        (call $p (call $bool (call $seq_contains (call $range (i64.const 0) (i64.const 5) (i64.const 1)) (i64.const 24))))
        (call $p (call $seq_concat (local.get $a) (local.get $a)))
        (call $p (call $seq_concat (call $T1 (call $i (i64.const 1))) (call $T0)))
        (call $p (call $seq_repeat (call $L2 (call $i (i64.const 1)) (call $i (i64.const 2))) (i64.const 3)))
        (call $p (call $seq_repeat (call $T1 (call $i (i64.const 1))) (i64.const 2)))
        (call $p (call $seq_repeat (local.get $a) (i64.const -1)))
        (call $p (call $bool (call $seq_eq (call $L2 (call $i (i64.const 1)) (call $L0)) (call $L2 (call $i (i64.const 1)) (call $L0)))))
        (call $p (call $bool (call $seq_eq (call $T2 (call $i (i64.const 1)) (call $i (i64.const 2))) (call $T2 (call $i (i64.const 1)) (call $i (i64.const 3))))))
        (call $p (call $bool (call $seq_eq (call $range (i64.const 0) (i64.const 0) (i64.const 1)) (call $range (i64.const 4) (i64.const 2) (i64.const 1)))))
        (call $p (call $bool (call $seq_eq (call $range (i64.const 1) (i64.const 2) (i64.const 5)) (call $range (i64.const 1) (i64.const 3) (i64.const 7)))))
        (call $p (call $seq_int (i64.extend_i32_s (call $seq_cmp (call $T2 (call $i (i64.const 1)) (call $i (i64.const 2))) (call $T3 (call $i (i64.const 1)) (call $i (i64.const 2)) (call $i (i64.const 0)))))))
        (call $p (call $seq_int (i64.extend_i32_s (call $seq_cmp (call $L1 (call $i (i64.const 2))) (call $L2 (call $i (i64.const 1)) (call $i (i64.const 5)))))))
        (call $p (call $seq_int (i64.extend_i32_s (call $seq_cmp (call $L1 (call $i (i64.const 2))) (call $L1 (call $i (i64.const 2)))))))
        {}
        {}
        {}
        {}
        {}
        "#,
        catch("(drop (call $len (call $i (i64.const 1))))"),
        catch("(drop (call $seq_concat (local.get $a) (call $T0)))"),
        catch("(drop (call $seq_concat (call $T0) (local.get $a)))"),
        catch("(drop (call $seq_compare (call $L1 (call $i (i64.const 1))) (call $L1 (str \"a\")) (i32.const 2)))"),
        catch("(drop (call $seq_contains (call $i (i64.const 1)) (call $i (i64.const 1))))"),
    );
    check(
        &body,
        "3\n5\n4\nTrue\nFalse\nTrue\nFalse\nTrue\n[0, 1, 2, 0, 1, 2]\n(1,)\n[1, 2, 1, 2, 1, 2]\n(1, 1)\n[]\n\
True\nFalse\nTrue\nTrue\n-1\n1\n0\n\
TypeError: object of type 'int' has no len()\n\
TypeError: can only concatenate list (not \"tuple\") to list\n\
TypeError: can only concatenate tuple (not \"list\") to tuple\n\
TypeError: '>' not supported between instances of 'int' and 'str'\n\
TypeError: argument of type 'int' is not iterable\n",
    );
}

#[test]
fn tuple_hash_matches_cpython() {
    check(
        r#"
        (call $p (call $seq_int (call $tuple_hash (call $T2 (call $i (i64.const 1)) (call $i (i64.const 2))))))
        (call $p (call $seq_int (call $tuple_hash (call $T0))))
        (call $p (call $seq_int (call $tuple_hash (call $T1 (call $i (i64.const 1))))))
        (call $p (call $seq_int (call $tuple_hash (call $T2 (call $T2 (call $i (i64.const 1)) (call $i (i64.const 2))) (call $i (i64.const 3))))))
        "#,
        "-3550055125485641917\n5740354900026072187\n-6644214454873602895\n-333907151259015829\n",
    );
}

/// `(m SELF "name" ARGS)` shorthand is spelled out: $lm calls a list method without kwargs.
const METHODS: &str = r#"
(func $lm (param $self i64) (param $name i64) (param $args i32) (result i64)
  (call $list_method (local.get $self) (local.get $name) (local.get $args) (i32.const 0)))
(func $tm (param $self i64) (param $name i64) (param $args i32) (result i64)
  (call $tuple_method (local.get $self) (local.get $name) (local.get $args) (i32.const 0)))
"#;

#[test]
fn list_and_tuple_methods() {
    let body = format!(
        r#"(local $x i64) (local $y i64)
        (local.set $x (call $L3 (call $i (i64.const 1)) (call $i (i64.const 2)) (call $i (i64.const 3))))
        (call $p (call $lm (local.get $x) (str "pop") (call $A0)))
        (call $p (call $lm (local.get $x) (str "pop") (call $A1 (call $i (i64.const 0)))))
        (call $p (local.get $x))
        (local.set $x (call $L4 (call $i (i64.const 0)) (call $i (i64.const 9)) (call $i (i64.const 2)) (call $i (i64.const 7))))
        (drop (call $lm (local.get $x) (str "insert") (call $A2 (call $i (i64.const -1)) (call $i (i64.const 5)))))
        (drop (call $lm (local.get $x) (str "insert") (call $A2 (call $i (i64.const 100)) (call $i (i64.const 7)))))
        (call $p (call $lm (local.get $x) (str "insert") (call $A2 (call $i (i64.const -100)) (call $i (i64.const 1)))))
        (call $p (local.get $x))
        (local.set $x (call $L3 (call $i (i64.const 1)) (call $i (i64.const 2)) (call $i (i64.const 1))))
        (call $p (call $lm (local.get $x) (str "index") (call $A2 (call $i (i64.const 1)) (call $i (i64.const 1)))))
        (call $p (call $lm (local.get $x) (str "count") (call $A1 (call $i (i64.const 1)))))
        (call $p (call $lm (local.get $x) (str "index") (call $A2 (call $i (i64.const 1)) (call $i (i64.const -1)))))
        (call $p (call $tm (call $tuple_from (local.get $x)) (str "index") (call $A1 (call $i (i64.const 2)))))
        (call $p (call $tm (call $tuple_from (local.get $x)) (str "count") (call $A1 (call $i (i64.const 1)))))
        (local.set $x (call $L3 (call $i (i64.const 3)) (call $i (i64.const 1)) (call $i (i64.const 2))))
        (drop (call $lm (local.get $x) (str "reverse") (call $A0)))
        (call $p (local.get $x))
        (local.set $y (call $lm (local.get $x) (str "copy") (call $A0)))
        (drop (call $lm (local.get $x) (str "clear") (call $A0)))
        (call $p (local.get $x)) (call $p (local.get $y))
        (drop (call $lm (local.get $x) (str "append") (call $A1 (call $i (i64.const 4)))))
        (call $p (local.get $x))
        (local.set $x (call $L4 (call $i (i64.const 1)) (call $i (i64.const 2)) (call $i (i64.const 3)) (call $i (i64.const 2))))
        (drop (call $lm (local.get $x) (str "remove") (call $A1 (call $i (i64.const 2)))))
        (drop (call $lm (local.get $x) (str "extend") (call $A1 (call $T2 (call $i (i64.const 5)) (call $i (i64.const 6))))))
        (drop (call $lm (local.get $x) (str "extend") (call $A1 (local.get $x))))
        (call $p (local.get $x))
        (call $p (call $bool (i64.eqz (call $lm (local.get $x) (str "nope") (call $A0)))))
        (call $p (call $bool (i64.eqz (call $tm (call $T0) (str "append") (call $A0)))))
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        "#,
        catch("(drop (call $lm (call $L0) (str \"pop\") (call $A0)))"),
        catch("(drop (call $lm (local.get $x) (str \"pop\") (call $A1 (call $i (i64.const 50)))))"),
        catch("(drop (call $lm (local.get $x) (str \"remove\") (call $A1 (call $i (i64.const 50)))))"),
        catch("(drop (call $lm (local.get $x) (str \"index\") (call $A1 (str \"a\"))))"),
        catch("(drop (call $tm (call $T0) (str \"index\") (call $A1 (call $i (i64.const 3)))))"),
        catch("(drop (call $lm (local.get $x) (str \"append\") (call $A0)))"),
        catch("(drop (call $lm (local.get $x) (str \"append\") (call $A2 (local.get $x) (local.get $x))))"),
        catch("(drop (call $list_method (local.get $x) (str \"append\") (call $A1 (local.get $x)) (call $K1 (str \"x\") (local.get $x))))"),
        catch("(drop (call $lm (local.get $x) (str \"insert\") (call $A1 (local.get $x))))"),
        catch("(drop (call $lm (local.get $x) (str \"pop\") (call $A2 (local.get $x) (local.get $x))))"),
        catch("(drop (call $lm (local.get $x) (str \"index\") (call $A0)))"),
        catch("(drop (call $lm (local.get $x) (str \"reverse\") (call $A1 (local.get $x))))"),
        catch("(drop (call $lm (local.get $x) (str \"pop\") (call $A1 (str \"a\"))))"),
        catch("(drop (call $lm (local.get $x) (str \"index\") (call $A2 (local.get $x) (str \"a\"))))"),
    );
    check(
        &body,
        "3\n1\n[2]\nNone\n[1, 0, 9, 2, 5, 7, 7]\n2\n2\n2\n1\n2\n[2, 1, 3]\n[]\n[2, 1, 3]\n[4]\n\
[1, 3, 2, 5, 6, 1, 3, 2, 5, 6]\nTrue\nTrue\n\
IndexError: pop from empty list\n\
IndexError: pop index out of range\n\
ValueError: list.remove(x): x not in list\n\
ValueError: 'a' is not in list\n\
ValueError: tuple.index(x): x not in tuple\n\
TypeError: list.append() takes exactly one argument (0 given)\n\
TypeError: list.append() takes exactly one argument (2 given)\n\
TypeError: list.append() takes no keyword arguments\n\
TypeError: insert expected 2 arguments, got 1\n\
TypeError: pop expected at most 1 argument, got 2\n\
TypeError: index expected at least 1 argument, got 0\n\
TypeError: list.reverse() takes no arguments (1 given)\n\
TypeError: 'str' object cannot be interpreted as an integer\n\
TypeError: slice indices must be integers or have an __index__ method\n",
    );
}

#[test]
fn sorting() {
    let body = format!(
        r#"(local $x i64) (local $i i64) (local $big i64)
        (local.set $x (call $L5 (call $i (i64.const 3)) (call $i (i64.const -1)) (call $i (i64.const 2)) (call $i (i64.const -7)) (call $i (i64.const 0))))
        (call $p (call $b_sorted (call $A1 (local.get $x)) (i32.const 0)))
        (call $p (call $b_sorted (call $A1 (local.get $x)) (call $K1 (str "key") (i64.extend_i32_u (global.get $bf_abs)))))
        (call $p (call $b_sorted (call $A1 (local.get $x)) (call $K2 (str "key") (i64.extend_i32_u (global.get $bf_abs)) (str "reverse") (i64.const 24))))
        (call $p (call $b_sorted (call $A1 (str "hello")) (call $K1 (str "reverse") (call $i (i64.const 1)))))
        ;; stability with reverse=True: key=len over words
        (local.set $x (call $L5 (str "bb") (str "a") (str "cc") (str "d") (str "eee")))
        (call $p (call $b_sorted (call $A1 (local.get $x)) (call $K2 (str "key") (i64.extend_i32_u (global.get $bf_len)) (str "reverse") (i64.const 24))))
        (call $p (call $b_sorted (call $A1 (local.get $x)) (call $K1 (str "key") (i64.extend_i32_u (global.get $bf_len)))))
        (call $p (call $list_method (local.get $x) (str "sort") (call $A0) (call $K1 (str "key") (i64.const 8))))
        (call $p (local.get $x))
        ;; a long list: (i * 7919) % 1000 for i in range(500), sorted; print a few and check order
        (local.set $big (call $L0))
        (local.set $i (i64.const 0))
        (block $done (loop $fill
          (br_if $done (i64.ge_s (local.get $i) (i64.const 500)))
          (call $list_append (local.get $big) (call $i (i64.rem_s (i64.mul (local.get $i) (i64.const 7919)) (i64.const 1000))))
          (local.set $i (i64.add (local.get $i) (i64.const 1)))
          (br $fill)))
        (drop (call $list_method (local.get $big) (str "sort") (call $A0) (i32.const 0)))
        (call $p (call $getitem (local.get $big) (call $slice_new (i64.const 8) (call $i (i64.const 8)) (i64.const 8))))
        (call $p (call $getitem (local.get $big) (call $slice_new (call $i (i64.const -5)) (i64.const 8) (i64.const 8))))
        (drop (call $list_method (local.get $big) (str "sort") (call $A0) (call $K1 (str "reverse") (i64.const 24))))
        (call $p (call $getitem (local.get $big) (call $slice_new (i64.const 8) (call $i (i64.const 4)) (i64.const 8))))
        (call $p (call $b_sorted (call $A1 (call $range (i64.const 0) (i64.const 40) (i64.const 1))) (call $K1 (str "reverse") (i64.const 24))))
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        "#,
        catch("(drop (call $b_sorted (call $A1 (call $L2 (call $i (i64.const 1)) (str \"a\"))) (i32.const 0)))"),
        catch("(drop (call $b_sorted (call $A0) (i32.const 0)))"),
        catch("(drop (call $b_sorted (call $A1 (call $L0)) (call $K1 (str \"x\") (call $i (i64.const 1)))))"),
        catch("(drop (call $b_sorted (call $A1 (call $L0)) (call $K1 (str \"reverse\") (str \"a\"))))"),
        catch("(drop (call $b_sorted (call $A1 (call $L1 (call $i (i64.const 1)))) (call $K1 (str \"key\") (i64.extend_i32_u (global.get $bf_len)))))"),
        catch("(drop (call $list_method (call $L0) (str \"sort\") (call $A1 (call $i (i64.const 1))) (i32.const 0)))"),
        catch("(drop (call $b_sorted (call $A1 (call $i (i64.const 1))) (i32.const 0)))"),
    );
    check(
        &body,
        "[-7, -1, 0, 2, 3]\n[0, -1, 2, 3, -7]\n[-7, 3, 2, -1, 0]\n['o', 'l', 'l', 'h', 'e']\n\
['eee', 'bb', 'cc', 'a', 'd']\n['a', 'd', 'bb', 'cc', 'eee']\nNone\n['a', 'bb', 'cc', 'd', 'eee']\n\
[0, 2, 3, 5, 6, 8, 9, 11]\n[987, 990, 993, 996, 999]\n[999, 996, 993, 990]\n\
[39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]\n\
TypeError: '<' not supported between instances of 'str' and 'int'\n\
TypeError: sorted expected 1 argument, got 0\n\
TypeError: 'x' is an invalid keyword argument for sort()\n\
TypeError: 'str' object cannot be interpreted as an integer\n\
TypeError: object of type 'int' has no len()\n\
TypeError: sort() takes no positional arguments\n\
TypeError: 'int' object is not iterable\n",
    );
}

#[test]
fn builtins() {
    let body = format!(
        r#"(local $d i64) (local $x i64)
        (call $p (call $list_from (call $b_enumerate (call $A2 (str "ab") (call $i (i64.const 3))) (i32.const 0))))
        (call $p (call $list_from (call $b_enumerate (call $A1 (str "ab")) (call $K1 (str "start") (i64.const 24)))))
        (call $p (call $list_from (call $b_zip (call $A2 (str "ab") (call $L3 (call $i (i64.const 1)) (call $i (i64.const 2)) (call $i (i64.const 3)))) (i32.const 0))))
        (call $p (call $list_from (call $b_zip (call $A0) (i32.const 0))))
        (call $p (call $list_from (call $b_zip (call $A3 (call $irange (i64.const 2)) (str "xy") (call $range (i64.const 5) (i64.const 7) (i64.const 1))) (i32.const 0))))
        (call $p (call $list_from (call $b_map (call $A2 (i64.extend_i32_u (global.get $bf_abs)) (call $L2 (call $i (i64.const -1)) (call $i (i64.const 2)))) (i32.const 0))))
        (call $p (call $list_from (call $b_map (call $A3 (i64.extend_i32_u (global.get $bf_max)) (call $L2 (call $i (i64.const 1)) (call $i (i64.const 5))) (call $L3 (call $i (i64.const 4)) (call $i (i64.const 2)) (call $i (i64.const 9)))) (i32.const 0))))
        (call $p (call $list_from (call $b_filter (call $A2 (i64.const 8) (call $L4 (call $i (i64.const 0)) (call $i (i64.const 1)) (str "") (call $i (i64.const 2)))) (i32.const 0))))
        (call $p (call $list_from (call $b_filter (call $A2 (i64.extend_i32_u (global.get $bf_len)) (call $L3 (str "") (str "a") (call $L0))) (i32.const 0))))
        (call $p (call $list_from (call $b_reversed (call $A1 (call $range (i64.const 0) (i64.const 5) (i64.const 1))) (i32.const 0))))
        (call $p (call $list_from (call $b_reversed (call $A1 (str "abc")) (i32.const 0))))
        (call $p (call $list_from (call $b_reversed (call $A1 (call $T2 (call $i (i64.const 1)) (call $i (i64.const 2)))) (i32.const 0))))
        (local.set $d (call $dict_new))
        (call $dict_set (local.get $d) (call $i (i64.const 1)) (call $i (i64.const 2)))
        (call $dict_set (local.get $d) (call $i (i64.const 3)) (call $i (i64.const 4)))
        (call $p (call $list_from (call $b_reversed (call $A1 (local.get $d)) (i32.const 0))))
        (call $p (call $b_max (call $A1 (str "abc")) (i32.const 0)))
        (call $p (call $b_min (call $A1 (str "abc")) (call $K1 (str "key") (i64.extend_i32_u (global.get $bf_ord)))))
        (call $p (call $b_max (call $A2 (call $L2 (call $i (i64.const 1)) (call $i (i64.const 2))) (call $L2 (call $i (i64.const 1)) (call $i (i64.const 3)))) (i32.const 0)))
        (call $p (call $b_min (call $A1 (call $L0)) (call $K1 (str "default") (call $i (i64.const 5)))))
        (call $p (call $b_max (call $A2 (call $i (i64.const -3)) (call $i (i64.const 2))) (call $K1 (str "key") (i64.extend_i32_u (global.get $bf_abs)))))
        (call $p (call $b_max (call $A1 (call $L3 (call $i (i64.const 1)) (call $i (i64.const -1)) (call $i (i64.const 1)))) (call $K1 (str "key") (i64.extend_i32_u (global.get $bf_abs)))))
        (call $p (call $b_sum (call $A1 (call $range (i64.const 0) (i64.const 10) (i64.const 1))) (call $K1 (str "start") (call $i (i64.const 3)))))
        (call $p (call $b_sum (call $A2 (call $L2 (call $L1 (call $i (i64.const 1))) (call $L1 (call $i (i64.const 2)))) (call $L0)) (i32.const 0)))
        (call $p (call $b_sum (call $A1 (call $L0)) (i32.const 0)))
        (call $p (call $b_any (call $A1 (call $L0)) (i32.const 0)))
        (call $p (call $b_all (call $A1 (call $L0)) (i32.const 0)))
        (call $p (call $b_any (call $A1 (call $L2 (call $i (i64.const 0)) (call $i (i64.const 1)))) (i32.const 0)))
        (call $p (call $b_all (call $A1 (call $L2 (call $i (i64.const 1)) (call $i (i64.const 0)))) (i32.const 0)))
        (call $p (call $b_list (call $A1 (call $range (i64.const 10) (i64.const 0) (i64.const -4))) (i32.const 0)))
        (call $p (call $b_tuple (call $A1 (str "ab")) (i32.const 0)))
        (call $p (call $b_tuple (call $A0) (i32.const 0)))
        (call $p (call $b_len (call $A1 (call $L1 (call $i (i64.const 1)))) (i32.const 0)))
        (call $p (call $b_range (call $A1 (call $i (i64.const 3))) (i32.const 0)))
        (call $p (call $b_range (call $A3 (call $i (i64.const 1)) (call $i (i64.const 9)) (call $i (i64.const 2))) (i32.const 0)))
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        {}
        "#,
        catch("(drop (call $b_len (call $A0) (i32.const 0)))"),
        catch("(drop (call $b_len (call $A1 (call $i (i64.const 1))) (i32.const 0)))"),
        catch("(drop (call $b_max (call $A0) (i32.const 0)))"),
        catch("(drop (call $b_max (call $A1 (call $L0)) (i32.const 0)))"),
        catch("(drop (call $b_min (call $A2 (call $i (i64.const 1)) (call $i (i64.const 2))) (call $K1 (str \"default\") (call $i (i64.const 1)))))"),
        catch("(drop (call $b_max (call $A1 (call $L2 (call $i (i64.const 1)) (str \"a\"))) (i32.const 0)))"),
        catch("(drop (call $b_max (call $A1 (call $L0)) (call $K1 (str \"x\") (call $i (i64.const 1)))))"),
        catch("(drop (call $b_sum (call $A2 (call $L0) (str \"\")) (i32.const 0)))"),
        catch("(drop (call $b_sum (call $A1 (call $L2 (call $i (i64.const 1)) (str \"a\"))) (i32.const 0)))"),
        catch("(drop (call $b_sum (call $A0) (i32.const 0)))"),
        catch("(drop (call $b_map (call $A1 (i64.const 8)) (i32.const 0)))"),
        catch("(drop (call $b_filter (call $A1 (i64.const 8)) (i32.const 0)))"),
        catch("(drop (call $b_reversed (call $A1 (call $set_new)) (i32.const 0)))"),
        catch("(drop (call $b_range (call $A3 (call $i (i64.const 1)) (call $i (i64.const 2)) (call $i (i64.const 0))) (i32.const 0)))"),
        catch("(drop (call $b_range (call $A1 (str \"a\")) (i32.const 0)))"),
        catch("(drop (call $b_list (call $A2 (str \"a\") (str \"a\")) (i32.const 0)))"),
        catch("(drop (call $list_from (call $b_zip (call $A2 (call $L1 (call $i (i64.const 1))) (call $L0)) (call $K1 (str \"strict\") (i64.const 24)))))"),
        catch("(drop (call $list_from (call $b_zip (call $A3 (call $L0) (call $L0) (str \"a\")) (call $K1 (str \"strict\") (i64.const 24)))))"),
        catch("(drop (call $b_iter (call $A2 (call $i (i64.const 5)) (call $i (i64.const 0))) (i32.const 0)))"),
    );
    check(
        &body,
        "[(3, 'a'), (4, 'b')]\n[(1, 'a'), (2, 'b')]\n[('a', 1), ('b', 2)]\n[]\n[(0, 'x', 5), (1, 'y', 6)]\n\
[1, 2]\n[4, 5]\n[1, 2]\n['a']\n[4, 3, 2, 1, 0]\n['c', 'b', 'a']\n[2, 1]\n[3, 1]\n\
'c'\n'a'\n[1, 3]\n5\n-3\n1\n48\n[1, 2]\n0\nFalse\nTrue\nTrue\nFalse\n[10, 6, 2]\n('a', 'b')\n()\n1\n\
range(0, 3)\nrange(1, 9, 2)\n\
TypeError: len() takes exactly one argument (0 given)\n\
TypeError: object of type 'int' has no len()\n\
TypeError: max expected at least 1 argument, got 0\n\
ValueError: max() arg is an empty sequence\n\
TypeError: Cannot specify a default for min() with multiple positional arguments\n\
TypeError: '>' not supported between instances of 'str' and 'int'\n\
TypeError: 'x' is an invalid keyword argument for max()\n\
TypeError: sum() can't sum strings [use ''.join(seq) instead]\n\
TypeError: unsupported operand type(s) for +: 'int' and 'str'\n\
TypeError: sum() takes at least 1 positional argument (0 given)\n\
TypeError: map() must have at least two arguments.\n\
TypeError: filter expected 2 arguments, got 1\n\
TypeError: 'set' object is not reversible\n\
ValueError: range() arg 3 must not be zero\n\
TypeError: 'str' object cannot be interpreted as an integer\n\
TypeError: list expected at most 1 argument, got 2\n\
ValueError: zip() argument 2 is shorter than argument 1\n\
ValueError: zip() argument 3 is longer than arguments 1-2\n\
TypeError: iter(v, w): v must be callable\n",
    );
}
