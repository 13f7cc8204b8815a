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

/// `$memcpy` copies short ranges itself and hands long ones to `memory.copy`; for every length
/// up to 80 bytes and every kind of overlap its result must be `memory.copy`'s. Prints the
/// first failing `case * 1000 + length`, or nothing.
#[test]
fn memcpy_agrees_with_memory_copy_for_every_length_and_overlap() {
    let out = stdout_of(
        r#"(local $a i32) (local $b i32) (local $len i32) (local $case i32) (local $i i32)
        (local $s i32) (local $d i32) (local $sb i32)
        (local.set $a (call $alloc (i32.const 512)))
        (local.set $b (call $alloc (i32.const 512)))
        (block $failed
          (loop $cases
            (local.set $len (i32.const 0))
            (loop $lengths
              (local.set $i (i32.const 0))
              (loop $fill
                (i32.store8 (i32.add (local.get $a) (local.get $i)) (i32.add (i32.mul (local.get $i) (i32.const 7)) (i32.const 1)))
                (i32.store8 (i32.add (local.get $b) (local.get $i)) (i32.add (i32.mul (local.get $i) (i32.const 7)) (i32.const 1)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br_if $fill (i32.lt_u (local.get $i) (i32.const 512))))
              ;; 0: disjoint, destination after; 1: disjoint, before; 2: overlapping, destination
              ;; 3 bytes before; 3: overlapping, 5 bytes after; 4: the same range
              (local.set $s (i32.const 200))
              (local.set $d (select (i32.const 400) (i32.const 50) (i32.eqz (local.get $case))))
              (if (i32.eq (local.get $case) (i32.const 2)) (then (local.set $d (i32.const 197))))
              (if (i32.eq (local.get $case) (i32.const 3)) (then (local.set $d (i32.const 205))))
              (if (i32.eq (local.get $case) (i32.const 4)) (then (local.set $d (i32.const 200))))
              (call $memcpy (i32.add (local.get $a) (local.get $d)) (i32.add (local.get $a) (local.get $s)) (local.get $len))
              (memory.copy (i32.add (local.get $b) (local.get $d)) (i32.add (local.get $b) (local.get $s)) (local.get $len))
              (local.set $i (i32.const 0))
              (loop $compare
                (if (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $i))) (i32.load8_u (i32.add (local.get $b) (local.get $i))))
                  (then
                    (local.set $sb (call $sb_new))
                    (call $sb_push_i64 (local.get $sb)
                      (i64.extend_i32_u (i32.add (i32.mul (local.get $case) (i32.const 1000)) (local.get $len))))
                    (call $write_str (call $sb_finish (local.get $sb)))
                    (br $failed)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br_if $compare (i32.lt_u (local.get $i) (i32.const 512))))
              (local.set $len (i32.add (local.get $len) (i32.const 1)))
              (br_if $lengths (i32.le_u (local.get $len) (i32.const 80))))
            (local.set $case (i32.add (local.get $case) (i32.const 1)))
            (br_if $cases (i32.lt_u (local.get $case) (i32.const 5)))))"#,
    );
    assert_eq!(out, "", "first failing case * 1000 + length");
}

/// A method name that is not one of the runtime's static strs (built at run time) still finds
/// its method: `$str_method` compares such names by text, the static ones by address.
#[test]
fn a_str_method_named_by_a_built_str_is_found() {
    let out = stdout_of(
        r#"(local $name i64)
        (local.set $name (call $str_new (i32.add (global.get $s_str_m_upper) (i32.const 16)) (i32.const 5)))
        (call $write_str (call $call_method (i64.extend_i32_u (global.get $s_str_m_join)) (local.get $name)
          (call $tuple_new (i32.const 0)) (i32.const 0)))
        (call $write_str (call $call_method (i64.extend_i32_u (global.get $s_str_m_join))
          (i64.extend_i32_u (global.get $s_str_m_upper))
          (call $tuple_new (i32.const 0)) (i32.const 0)))"#,
    );
    assert_eq!(out, "JOINJOIN");
}

#[test]
fn a_function_decoded_from_another_instance_must_name_one_of_the_plans_entries() {
    // A function crosses to a branch instance as its entry number (codec.wat): a number past
    // the plan's function entries (`plan_entries`; this module has none) is refused with the
    // codec's error instead of reaching the plan's dispatcher.
    let mut statics =
        baton_runtime::statics::Statics::new(baton_runtime::runtime_layout().plan_statics);
    let encoded = statics.str(r#"["f", 0, "g", null, null, null]"#);
    let outcome = support::run_with(
        &format!(
            "(func $plan_main (drop (call $enter (global.get $s_empty))) \
             (drop (call $codec_decode (i64.const {encoded}))))"
        ),
        &statics,
    )
    .expect("the module runs");
    let error = outcome.error.expect("an exception");
    assert!(error.contains("RuntimeError"), "{error}");
}
