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

#[test]
fn the_block_check_finds_every_block_of_every_size_class_and_nothing_else() {
    // For each of the 47 size classes, a chunk's worth of blocks and one more (so a second
    // chunk): `$block_size` gives the class size at every block (the chunk's reciprocal stands
    // in for a division there, heap.wat) and 0 eight bytes in, and 0 in a chunk's header.
    let bad = print_int("(i64.extend_i32_u (local.get $bad))");
    let checked = print_int("(i64.extend_i32_u (local.get $checked))");
    let classes = print_int("(i64.extend_i32_u (local.get $c))");
    let outcome = run(&format!(
        "(func $plan_main (local $c i32) (local $size i32) (local $p i32) (local $n i32)
           (local $bad i32) (local $checked i32)
           (local.set $c (i32.const 1))
           (loop $classes
             (local.set $size (call $class_size (local.get $c)))
             (local.set $n (i32.const 0))
             (loop $blocks
               (local.set $p (call $alloc (local.get $size)))
               (if (i32.ne (call $block_size (local.get $p)) (local.get $size))
                 (then (local.set $bad (i32.add (local.get $bad) (i32.const 1)))))
               (if (i32.and (i32.gt_u (local.get $size) (i32.const 8))
                     (i32.ne (call $block_size (i32.add (local.get $p) (i32.const 8))) (i32.const 0)))
                 (then (local.set $bad (i32.add (local.get $bad) (i32.const 1)))))
               (if (call $block_size (i32.add (i32.and (local.get $p) (i32.const 0xFFFF_0000)) (i32.const 16)))
                 (then (local.set $bad (i32.add (local.get $bad) (i32.const 1)))))
               (local.set $checked (i32.add (local.get $checked) (i32.const 1)))
               (local.set $n (i32.add (local.get $n) (i32.const 1)))
               (br_if $blocks (i32.le_u (local.get $n) (i32.div_u (i32.const 65536) (local.get $size)))))
             (local.set $c (i32.add (local.get $c) (i32.const 1)))
             (br_if $classes (i32.lt_u (local.get $c) (global.get $class_count))))
           {bad}{checked}{classes})"
    ));
    assert_eq!(outcome.error, None);
    let lines: Vec<u64> = outcome.stdout.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(lines[0], 0, "blocks the check got wrong");
    assert!(lines[1] > 20_000, "only {} blocks checked", lines[1]);
    assert_eq!(lines[2], 48, "the classes checked end at class 47 (28 KiB)");
}

#[test]
fn objects_up_to_28_kib_share_chunks() {
    // 60 live blocks of 20,000 bytes (a 20 KB command output, say): three to a chunk in their
    // size class (20 KiB), where as large objects they took a 64 KiB chunk each (3.9 MB).
    let report = print_int("(global.get $heap_peak)");
    let outcome = run(&format!(
        "(func $plan_main (local $i i32) (local $keep i64)
           (local.set $keep (call $list_new (i32.const 60)))
           (call $root_push (local.get $keep))
           (loop $make
             (call $list_append (local.get $keep) (i64.extend_i32_u (call $str_alloc (i32.const 19984) (i32.const 19984))))
             (local.set $i (i32.add (local.get $i) (i32.const 1)))
             (br_if $make (i32.lt_u (local.get $i) (i32.const 60))))
           (call $gc_safepoint)
           {report})"
    ));
    assert_eq!(outcome.error, None);
    let peak: u64 = outcome.stdout.trim().parse().unwrap();
    assert!(
        peak < 2 << 20,
        "60 blocks of 20,000 bytes took a heap of {peak} bytes"
    );
}

/// WAT that makes `count` lists of one item (`tag` + the round number), appending every
/// `keep_every`th to the list `$keep` (none when 0).
fn lists(count: u32, keep_every: u32, tag: i64) -> String {
    let keep = if keep_every == 0 {
        String::new()
    } else {
        format!(
            "(if (i32.eqz (i32.rem_u (local.get $i) (i32.const {keep_every})))
               (then (call $list_append (local.get $keep) (local.get $l))))"
        )
    };
    format!(
        "(local.set $i (i32.const 0))
         (loop $make
           (local.set $l (call $list_new (i32.const 1)))
           (call $list_append (local.get $l)
             (i64.or (i64.shl (i64.add (i64.const {tag}) (i64.extend_i32_u (local.get $i))) (i64.const 1)) (i64.const 1)))
           {keep}
           (local.set $i (i32.add (local.get $i) (i32.const 1)))
           (br_if $make (i32.lt_u (local.get $i) (i32.const {count}))))"
    )
}

#[test]
fn a_collection_leaves_chunks_unswept_and_their_dead_blocks_are_reused_without_the_live_ones() {
    // 30,000 one-item lists, every third kept; a collection; 10,000 more lists, which the dead
    // blocks of the same chunks hold (swept when the class needs them: the heap takes no new
    // chunk); a second collection, with some of those chunks still unswept (their old marks
    // are cleared first); 20,000 more. Every kept list still holds its own number.
    // (the figures are printed at the end: printing allocates)
    let figures = [
        print_int("(local.get $h1)"),
        print_int("(local.get $h2)"),
        print_int("(i64.extend_i32_u (local.get $ok))"),
    ]
    .concat();
    let outcome = run(&format!(
        "(func $plan_main (local $i i32) (local $l i64) (local $keep i64) (local $ok i32)
           (local $h1 i64) (local $h2 i64)
           (local.set $keep (call $list_new (i32.const 0)))
           (call $root_push (local.get $keep))
           {first}
           (call $gc_collect)
           (local.set $h1 (global.get $heap_used))
           {second}
           (local.set $h2 (global.get $heap_used))
           (call $gc_collect)
           {third}
           (local.set $i (i32.const 0))
           (loop $check
             (if (i64.eq
                   (i64.load (i32.load offset=12 (i32.wrap_i64
                     (i64.load (i32.add (i32.load offset=12 (i32.wrap_i64 (local.get $keep)))
                       (i32.shl (local.get $i) (i32.const 3)))))))
                   (i64.or (i64.shl (i64.extend_i32_u (i32.mul (local.get $i) (i32.const 3))) (i64.const 1)) (i64.const 1)))
               (then (local.set $ok (i32.add (local.get $ok) (i32.const 1)))))
             (local.set $i (i32.add (local.get $i) (i32.const 1)))
             (br_if $check (i32.lt_u (local.get $i) (i32.const 10000))))
           {figures})",
        first = lists(30_000, 3, 0),
        second = lists(10_000, 0, 1_000_000),
        third = lists(20_000, 0, 2_000_000),
    ));
    assert_eq!(outcome.error, None);
    let lines: Vec<u64> = outcome.stdout.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(lines.len(), 3, "{}", outcome.stdout);
    assert_eq!(
        lines[0], lines[1],
        "the second round took new chunks instead of the dead blocks"
    );
    assert_eq!(lines[2], 10_000, "kept lists were overwritten");
}

#[test]
fn a_mark_ignores_what_is_not_the_start_of_a_block() {
    // `$mark_block` checks an address as `$block_size` does, in place: eight bytes into a block,
    // a misaligned address and one in a chunk's header mark nothing and push nothing; the
    // block's own address marks it.
    let flags = print_int(
        "(i64.extend_i32_u (i32.or (i32.shl (global.get $mark_sp) (i32.const 8))
           (i32.or (i32.shl (call $marked (local.get $chunk) (i32.add (local.get $off) (i32.const 8))) (i32.const 1))
             (call $marked (local.get $chunk) (local.get $off)))))",
    );
    let outcome = run(&format!(
        "(func $plan_main (local $p i32) (local $chunk i32) (local $off i32)
           (local.set $p (call $alloc (i32.const 32)))
           (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
           (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
           (call $mark_block (i32.add (local.get $p) (i32.const 8)) (i32.const 1))
           (call $mark_block (i32.add (local.get $p) (i32.const 4)) (i32.const 1))
           (call $mark_block (i32.add (local.get $chunk) (i32.const 16)) (i32.const 1))
           {flags}
           (call $mark_block (local.get $p) (i32.const 0))
           {flags})"
    ));
    assert_eq!(outcome.error, None);
    assert_eq!(
        outcome.stdout, "0\n1\n",
        "mark stack depth << 8 | interior bit << 1 | block bit"
    );
}

#[test]
fn a_module_level_frame_is_taken_with_its_safe_point_or_refused_past_the_shadow_stack() {
    // `$shadow_frame_safe` (compiled module-level code's prologue): returns the old top, moves
    // it by the frame's size, and runs a collection that is due.
    let outcome = run(&format!(
        "(func $plan_main (local $before i32)
           (local.set $before (global.get $shadow_top))
           (global.set $gc_due (i32.const 1))
           {}
           (if (i32.ne (call $shadow_frame_safe (i32.const 24)) (local.get $before))
             (then (unreachable)))
           (if (i32.ne (global.get $shadow_top) (i32.add (local.get $before) (i32.const 24)))
             (then (unreachable)))
           {})",
        print_int("(i64.extend_i32_u (global.get $gc_collections))"),
        print_int("(i64.extend_i32_u (global.get $gc_collections))"),
    ));
    assert_eq!(outcome.error, None);
    let counts: Vec<u64> = outcome
        .stdout
        .lines()
        .map(|line| line.parse().expect("a count"))
        .collect();
    assert_eq!(counts.len(), 2, "{counts:?}");
    assert_eq!(
        counts[1],
        counts[0] + 1,
        "the due collection ran: {counts:?}"
    );
    // A frame larger than what is left of the shadow stack is a RecursionError.
    let outcome = run("(func $plan_main (drop (call $shadow_frame_safe (i32.const 0x40000000))))");
    let error = outcome.error.expect("an exception");
    assert!(
        error.ends_with("RecursionError: maximum recursion depth exceeded\n"),
        "{error}"
    );
}
