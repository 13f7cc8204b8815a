//! Tests of core.wat: the string builder, exceptions, frames and the entry point.

mod support;

use support::{run, stdout_of};

#[test]
fn string_builder_and_integers() {
    let out = stdout_of(
        r#"(local $sb i32)
        (local.set $sb (call $sb_new))
        (call $sb_push_i64 (local.get $sb) (i64.const -9223372036854775808))
        (call $sb_push_byte (local.get $sb) (i32.const 32))
        (call $sb_push_i64 (local.get $sb) (i64.const 0))
        (call $sb_push_byte (local.get $sb) (i32.const 32))
        (call $sb_push_i64 (local.get $sb) (i64.const 1234567))
        (call $write_str (call $sb_finish (local.get $sb)))"#,
    );
    assert_eq!(out, "-9223372036854775808 0 1234567");
}

#[test]
fn uncaught_exception_reports_type_and_message() {
    let outcome = run(r#"(func $plan_main
        (drop (call $enter (global.get $s_empty)))
        (call $raise_static (global.get $t_ZeroDivisionError) (global.get $s_recursion)))"#);
    let error = outcome.error.expect("an exception");
    assert!(
        error.starts_with("Traceback (most recent call last):\n"),
        "{error}"
    );
    assert!(
        error.ends_with("ZeroDivisionError: maximum recursion depth exceeded\n"),
        "{error}"
    );
}

#[test]
fn caught_exception_matches_by_hierarchy() {
    let out = stdout_of(
        r#"(local $e i64)
        (local.set $e
          (block $h (result i64)
            (try_table (catch $exc $h)
              (call $raise_static (global.get $t_KeyError) (global.get $s_empty)))
            (unreachable)))
        (if (call $exc_matches (local.get $e) (i64.extend_i32_u (global.get $t_LookupError)))
          (then (call $write_str (i64.extend_i32_u (global.get $s_recursion)))))"#,
    );
    assert_eq!(out, "maximum recursion depth exceeded");
}

#[test]
fn recursion_limit_raises_recursion_error() {
    let outcome = run(
        r#"(func $recurse (drop (call $enter (global.get $s_empty))) (call $recurse))
        (func $plan_main (call $recurse))"#,
    );
    let error = outcome.error.expect("an exception");
    assert!(
        error.ends_with("RecursionError: maximum recursion depth exceeded\n"),
        "{error}"
    );
}
