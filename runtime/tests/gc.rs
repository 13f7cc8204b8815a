//! The allocator and collector (runtime/wat/heap.wat, gc.wat) on WAT snippets: stress mode
//! catches a value nothing roots, rooted values survive, churn and cycles are reclaimed, and a
//! structure nested deeper than the mark stack is marked whole.

mod support;

use support::run;

/// WAT for `str(n)` printed on its own line.
fn print_int(value: &str) -> String {
    format!(
        "(call $write_str (call $to_str (i64.or (i64.shl {value} (i64.const 1)) (i64.const 1))))\
         (call $write_str (call $str_ascii_char (i32.const 10)))"
    )
}

#[test]
fn stress_mode_catches_a_value_held_only_in_a_wasm_local() {
    // A deliberately unrooted value: a heap str kept in a wasm local across a safe point. Under
    // stress the collection at the safe point frees and poisons it: its type field no longer
    // says str. The same code with the value rooted keeps it.
    let check = |root: &str| {
        run(&format!(
            "(func $plan_main (local $kept i64)
               (call $gc_stress_on (i32.const 1))
               (local.set $kept (call $to_str (i64.const 24691)))
               {root}
               (call $gc_safepoint)
               (drop (call $list_new (i32.const 4)))
               (call $write_str (call $to_str
                 (if (result i64) (i32.eq (i32.load (i32.wrap_i64 (local.get $kept))) (i32.const 5))
                   (then (i64.const 3)) (else (i64.const 1))))))"
        ))
        .stdout
    };
    assert_eq!(check(""), "0", "the unrooted str survived the collection");
    assert_eq!(check("(call $root_push (local.get $kept))"), "1");
}

#[test]
fn a_rooted_value_survives_collections_in_stress_mode() {
    let outcome = run("(func $plan_main (local $kept i64)
           (call $gc_stress_on (i32.const 1))
           (local.set $kept (call $to_str (i64.const 24691)))
           (call $root_push (local.get $kept))
           (call $gc_safepoint)
           (drop (call $list_new (i32.const 100)))
           (call $gc_safepoint)
           (call $write_str (local.get $kept)))");
    assert_eq!(outcome.stdout, "12345");
    assert_eq!(outcome.error, None);
}

#[test]
fn churn_and_cycles_are_reclaimed() {
    // 20,000 rounds, each making a 2 KiB list and a two-list cycle that nothing keeps: about
    // 45 MB allocated in all, in a heap that stays a few MiB.
    let report = print_int("(global.get $heap_peak)");
    let collections = print_int("(i64.extend_i32_u (global.get $gc_collections))");
    let outcome = run(&format!(
        "(func $plan_main (local $i i32) (local $a i64) (local $b i64)
           (loop $round
             (drop (call $list_new (i32.const 256)))
             (local.set $a (call $list_new (i32.const 1)))
             (local.set $b (call $list_new (i32.const 1)))
             (call $list_append (local.get $a) (local.get $b))
             (call $list_append (local.get $b) (local.get $a))
             (call $gc_safepoint)
             (local.set $i (i32.add (local.get $i) (i32.const 1)))
             (br_if $round (i32.lt_u (local.get $i) (i32.const 20000))))
           {report}{collections})"
    ));
    assert_eq!(outcome.error, None);
    let lines: Vec<u64> = outcome
        .stdout
        .lines()
        .map(|line| line.parse().unwrap())
        .collect();
    let (peak, collections) = (lines[0], lines[1]);
    assert!(peak <= 8 << 20, "the heap grew to {peak} bytes");
    assert!(collections >= 5, "{collections} collections");
}

#[test]
fn a_list_nested_deeper_than_the_mark_stack_is_marked_whole() {
    // 100,000 nested lists (the mark stack holds 16,384 entries): after a collection, walking
    // the nesting still finds every level and its payload.
    let count = print_int("(i64.extend_i32_u (local.get $n))");
    let outcome = run(&format!(
        "(func $plan_main (local $i i32) (local $top i64) (local $next i64) (local $n i32)
           (call $gc_stress_on (i32.const 1))
           (local.set $top (call $list_new (i32.const 1)))
           (call $list_append (local.get $top) (i64.const 15))
           (loop $nest
             (local.set $next (call $list_new (i32.const 2)))
             (call $list_append (local.get $next) (local.get $top))
             (call $list_append (local.get $next) (call $to_str (i64.const 3)))
             (local.set $top (local.get $next))
             (local.set $i (i32.add (local.get $i) (i32.const 1)))
             (br_if $nest (i32.lt_u (local.get $i) (i32.const 100000))))
           (call $root_push (local.get $top))
           (call $gc_safepoint)
           (drop (call $list_new (i32.const 1000)))
           (block $done
             (loop $walk
               (br_if $done (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $top))) (i32.const 2)))
               (br_if $done (i32.ne (call $tid (i64.load offset=8 (i32.load offset=12 (i32.wrap_i64 (local.get $top))))) (i32.const 5)))
               (local.set $n (i32.add (local.get $n) (i32.const 1)))
               (local.set $top (i64.load (i32.load offset=12 (i32.wrap_i64 (local.get $top)))))
               (br $walk)))
           {count})"
    ));
    assert_eq!(outcome.error, None);
    assert_eq!(outcome.stdout, "100000\n");
}
