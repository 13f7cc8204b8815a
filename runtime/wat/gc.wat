;; gc.wat: the collector: mark from the roots, sweep the heap (heap.wat). docs/abi.md ("The
;; heap", "Roots") is the reference; docs/runtime-api.md says what a runtime function owes it.
;;
;; Collections run only at safe points (`$gc_safepoint`), which compiled plan code reaches at
;; function entry and on every loop iteration: there every value a plan frame holds is in its
;; shadow frame (the compiler writes each object-holding local through to it, and spills an
;; operand it keeps on the wasm stack across a call). A runtime function is never interrupted
;; by a collection in the middle of its own work, since `$alloc` never collects. Only a runtime
;; function that calls back into plan code (a sort key, a generator expression consumed by
;; `sum`) could hold values a collection does not see; such calls go through `$call`, which
;; holds collections off (`$gc_inhibit`) until the callback returns. Plan code calls plan code
;; through `$call_plan`, which does not.
;;
;; Roots: the shadow stack (`$shadow_base` to `$shadow_top`, i64 values), the plan's module
;; globals (`$plan_globals`, `$plan_globals_count` values), and what the runtime keeps in its own
;; globals (`$gc_collect` lists them: a new global that holds heap memory must be added there).
;; Static objects (below `$heap_start`) are not traced: they refer only to static objects.
;;
;; Marking is iterative (an explicit stack, so a list nested a million deep does not exhaust the
;; wasm stack): when the mark stack is full, objects are marked but not pushed, and the heap is
;; rescanned for marked objects afterwards, until nothing overflows. Every address is checked
;; against the chunk table before it is marked, and every count read from an object is clamped
;; to its block, so a value that is not an object is ignored and never read past its block.

(global $gc_inhibit (mut i32) (i32.const 0))
;; Stress mode: collect at every Nth safe point (0: off), and poison what is freed.
(global $gc_stress (mut i32) (i32.const 0))
(global $gc_stress_count (mut i32) (i32.const 0))
(global $gc_collections (export "baton_gc_collections") (mut i32) (i32.const 0))
;; Nanoseconds spent collecting, by the host's clock (`baton.clock`).
(global $gc_nanos (export "baton_gc_nanos") (mut i64) (i64.const 0))
(global $mark_sp (mut i32) (i32.const 0))
(global $mark_overflow (mut i32) (i32.const 0))

;; Roots a value for a runtime function that calls plan code through `$call_plan` and needs the
;; value afterwards: the slot lives until the caller sets `$shadow_top` back (a plan function's
;; return or handler does it for the runtime functions below it).
(func $root_push (param $v i64)
  (if (i32.ge_u (global.get $shadow_top) (global.get $shadow_end))
    (then (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion))))
  (i64.store (global.get $shadow_top) (local.get $v))
  (global.set $shadow_top (i32.add (global.get $shadow_top) (i32.const 8))))

;; Takes a shadow frame of `bytes` for compiled module-level code (compiler/src/codegen/shadow.rs)
;; and runs the safe point its entry is: returns the frame's start; RecursionError when the
;; shadow stack has no room. One call in the prologue instead of two comparisons and branches
;; inline, which are blocks for Cranelift to compile and cost it more than a call.
(func $shadow_frame_safe (param $bytes i32) (result i32)
  (local $sp i32) (local $end i32)
  (local.set $sp (global.get $shadow_top))
  (local.set $end (i32.add (local.get $sp) (local.get $bytes)))
  (if (i32.gt_u (local.get $end) (global.get $shadow_end))
    (then (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion))))
  (global.set $shadow_top (local.get $end))
  (if (global.get $gc_due) (then (call $gc_safepoint)))
  (local.get $sp))

;; Turns stress mode on: a collection at every `period`th safe point.
(func $gc_stress_on (param $period i32)
  (global.set $gc_stress (local.get $period))
  (global.set $gc_due (i32.const 1)))

;; The stress mode the module was built with ($gc_stress_period, `baton compile --gc-stress`),
;; at the start of every instance: the plan's and each branch's.
(func $gc_stress_as_built
  (if (global.get $gc_stress_period) (then (call $gc_stress_on (global.get $gc_stress_period)))))

;; A safe point: collects when one is due and no runtime function below holds values of its own.
(func $gc_safepoint
  (if (global.get $gc_inhibit) (then (return)))
  (if (global.get $gc_stress)
    (then
      (global.set $gc_stress_count (i32.add (global.get $gc_stress_count) (i32.const 1)))
      (if (i32.lt_u (global.get $gc_stress_count) (global.get $gc_stress)) (then (return)))
      (global.set $gc_stress_count (i32.const 0))))
  (call $gc_collect))

(func $gc_collect
  (local $p i32) (local $end i32) (local $started i64)
  (local.set $started (call $host_clock))
  (global.set $gc_collections (i32.add (global.get $gc_collections) (i32.const 1)))
  (call $forget_unswept)
  (global.set $mark_sp (i32.const 0))
  (global.set $mark_overflow (i32.const 0))
  (local.set $p (global.get $shadow_base))
  (local.set $end (global.get $shadow_top))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (call $mark_root (i64.load (local.get $p)))
      (local.set $p (i32.add (local.get $p) (i32.const 8)))
      (br $each)))
  (local.set $p (global.get $plan_globals))
  (local.set $end (i32.add (local.get $p) (i32.shl (global.get $plan_globals_count) (i32.const 3))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (call $mark_value (i64.load (local.get $p)))
      (local.set $p (i32.add (local.get $p) (i32.const 8)))
      (br $each)))
  (call $mark_value (global.get $sdk_inputs_cache))
  (call $mark_value (global.get $ellipsis_obj))
  (call $mark_value (global.get $handled))
  ;; Values runtime functions keep in globals while they work (json.loads's source, `%`'s
  ;; arguments, the branch codec's tables): no safe point falls inside them today, but a
  ;; callback under them would otherwise see them freed.
  (call $mark_value (global.get $jl_src))
  (call $mark_value (global.get $pct_args))
  (call $mark_value (global.get $cx_memo))
  (call $mark_value (global.get $cx_objs))
  ;; Scratch memory allocated once and kept: the repr and json.dumps cycle stacks, the
  ;; bignum work area.
  (call $mark_raw (global.get $seq_repr_stack))
  (call $mark_raw (global.get $dict_repr_stack))
  (call $mark_raw (global.get $jd_stack))
  ;; What running json.dumps calls hold (json.wat).
  (call $jd_mark)
  (call $mark_raw (global.get $bn_area))
  (call $mark_drain)
  (call $gc_sweep)
  (global.set $gc_threshold (i64.shl (global.get $heap_used) (i64.const 1)))
  (if (i64.lt_u (global.get $gc_threshold) (i64.const 0x40_0000))
    (then (global.set $gc_threshold (i64.const 0x40_0000))))
  ;; Near the store's memory limit (the heap's slack has shrunk to its reserve, heap.wat), the
  ;; heap cannot double: collect again once it has grown by 1 MiB (not at every chunk: a plan
  ;; that really fills the memory would be marked over and over on its way to MemoryError).
  (if (i64.le_u (global.get $heap_slack) (global.get $heap_reserve))
    (then (global.set $gc_threshold (i64.add (global.get $heap_used) (i64.const 0x10_0000)))))
  (global.set $gc_due (i32.ne (global.get $gc_stress) (i32.const 0)))
  (global.set $gc_nanos (i64.add (global.get $gc_nanos) (i64.sub (call $host_clock) (local.get $started)))))

;; The size of the heap block that starts at `p`, or 0 when `p` is not the start of one.
;; A small chunk's blocks start at multiples of its block size past the header; the multiple is
;; found with the chunk's reciprocal of the size (heap.wat), which is exact for every offset in
;; a chunk, since a division here would cost more than the rest of a mark.
(func $block_size (param $p i32) (result i32)
  (local $chunk i32) (local $kind i32) (local $off i32) (local $size i32)
  (if (i32.or (i32.lt_u (local.get $p) (global.get $heap_start))
        (i32.or (i32.ge_u (local.get $p) (global.get $heap_top)) (i32.and (local.get $p) (i32.const 7))))
    (then (return (i32.const 0))))
  (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
  (local.set $kind (i32.load8_u (i32.add (global.get $chunk_kinds) (i32.shr_u (local.get $chunk) (i32.const 16)))))
  (if (i32.eq (local.get $kind) (i32.const 1))
    (then
      ;; (an address in the header wraps to a large offset)
      (local.set $off (i32.sub (i32.sub (local.get $p) (local.get $chunk)) (global.get $chunk_hdr)))
      (if (i32.ge_u (local.get $off) (i32.const 0x10000)) (then (return (i32.const 0))))
      (local.set $size (i32.load (local.get $chunk)))
      ;; The tail of a chunk too short for another block is not one.
      (if (i32.gt_u (i32.add (local.get $off) (local.get $size)) (i32.sub (i32.const 0x10000) (global.get $chunk_hdr)))
        (then (return (i32.const 0))))
      (if (i32.ne (i32.mul (call $block_index (local.get $chunk) (local.get $off)) (local.get $size)) (local.get $off))
        (then (return (i32.const 0))))
      (return (local.get $size))))
  (if (i32.and (i32.eq (local.get $kind) (i32.const 2))
        (i32.eq (local.get $p) (i32.add (local.get $chunk) (global.get $large_hdr))))
    (then (return (i32.sub (i32.shl (i32.load (local.get $chunk)) (i32.const 16)) (global.get $large_hdr)))))
  (i32.const 0))

;; Which block of small chunk `chunk` the byte `off` bytes past the header is in: `off` divided
;; by the block size, by the chunk's reciprocal (`off` < 64 KiB, so the product is exact).
(func $block_index (param $chunk i32) (param $off i32) (result i32)
  (i32.wrap_i64 (i64.shr_u
    (i64.mul (i64.extend_i32_u (local.get $off)) (i64.extend_i32_u (i32.load offset=8 (local.get $chunk))))
    (i64.const 32))))

;; Marks what a shadow slot holds: a value, or an address inside an object (compiled code keeps
;; `$unpack`'s items address, a tuple's +8), which keeps the object that contains it.
(func $mark_root (param $v i64)
  (local $p i32) (local $chunk i32) (local $off i32) (local $size i32)
  (if (i32.or (i64.eqz (local.get $v)) (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1))))
    (then (return)))
  (if (i64.gt_u (local.get $v) (i64.const 0xFFFF_FFFF)) (then (return)))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.or (i32.lt_u (local.get $p) (global.get $heap_start)) (i32.ge_u (local.get $p) (global.get $heap_top)))
    (then (return)))
  (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
  (if (i32.eq (call $chunk_kind (local.get $chunk)) (i32.const 1))
    (then
      (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
      (if (i32.lt_u (local.get $off) (global.get $chunk_hdr)) (then (return)))
      (local.set $size (i32.load (local.get $chunk)))
      (local.set $off (i32.sub (local.get $off) (global.get $chunk_hdr)))
      (local.set $p (i32.add (i32.add (local.get $chunk) (global.get $chunk_hdr))
        (i32.mul (call $block_index (local.get $chunk) (local.get $off)) (local.get $size))))))
  (if (i32.eq (call $chunk_kind (local.get $chunk)) (i32.const 2))
    (then (local.set $p (i32.add (local.get $chunk) (global.get $large_hdr)))))
  (call $mark_block (local.get $p) (i32.const 1)))

;; Marks a value's object (small ints, 0 and static objects need nothing).
(func $mark_value (param $v i64)
  (if (i32.or (i64.eqz (local.get $v)) (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1))))
    (then (return)))
  (if (i64.gt_u (local.get $v) (i64.const 0xFFFF_FFFF)) (then (return)))
  (call $mark_block (i32.wrap_i64 (local.get $v)) (i32.const 1)))

;; Marks the block at `p` (anything but the start of a heap block is ignored); `trace`: it is an
;; object whose fields are values, pushed to be traced unless its type has none (str, float, a
;; big int), rather than raw memory an object owns (an item array, a hash index). This runs once
;; per reachable value in every collection, so it checks the block as `$block_size` does but in
;; place, and tests and sets the mark with one read of the bitmap.
(func $mark_block (param $p i32) (param $trace i32)
  (local $chunk i32) (local $kind i32) (local $off i32) (local $size i32) (local $at i32)
  (local $bit i32) (local $byte i32) (local $t i32)
  (if (i32.or (i32.lt_u (local.get $p) (global.get $heap_start))
        (i32.or (i32.ge_u (local.get $p) (global.get $heap_top)) (i32.and (local.get $p) (i32.const 7))))
    (then (return)))
  (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
  (local.set $kind (i32.load8_u (i32.add (global.get $chunk_kinds) (i32.shr_u (local.get $chunk) (i32.const 16)))))
  (if (i32.eq (local.get $kind) (i32.const 1))
    (then
      (local.set $off (i32.sub (i32.sub (local.get $p) (local.get $chunk)) (global.get $chunk_hdr)))
      (if (i32.ge_u (local.get $off) (i32.const 0x10000)) (then (return)))
      (local.set $size (i32.load (local.get $chunk)))
      (if (i32.gt_u (i32.add (local.get $off) (local.get $size)) (i32.sub (i32.const 0x10000) (global.get $chunk_hdr)))
        (then (return)))
      (if (i32.ne (i32.mul (call $block_index (local.get $chunk) (local.get $off)) (local.get $size)) (local.get $off))
        (then (return)))
      ;; The bitmap at +16 holds one bit per 8 bytes of the chunk.
      (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
      (local.set $at (i32.add (i32.add (local.get $chunk) (i32.const 16)) (i32.shr_u (local.get $off) (i32.const 6))))
      (local.set $bit (i32.shl (i32.const 1) (i32.and (i32.shr_u (local.get $off) (i32.const 3)) (i32.const 7))))
      (local.set $byte (i32.load8_u (local.get $at)))
      (if (i32.and (local.get $byte) (local.get $bit)) (then (return)))
      (i32.store8 (local.get $at) (i32.or (local.get $byte) (local.get $bit))))
    (else
      (if (i32.or (i32.ne (local.get $kind) (i32.const 2))
            (i32.ne (local.get $p) (i32.add (local.get $chunk) (global.get $large_hdr))))
        (then (return)))
      (if (i32.load offset=4 (local.get $chunk)) (then (return)))
      (i32.store offset=4 (local.get $chunk) (i32.const 1))))
  (if (i32.eqz (local.get $trace)) (then (return)))
  (local.set $t (i32.load (local.get $p)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_STR))
        (i32.or (i32.eq (local.get $t) (i32.const TYPE_FLOAT)) (i32.eq (local.get $t) (i32.const TYPE_INT))))
    (then (return)))
  (if (i32.lt_u (global.get $mark_sp) (global.get $mark_stack_slots))
    (then
      (i32.store (i32.add (global.get $mark_stack) (i32.shl (global.get $mark_sp) (i32.const 2))) (local.get $p))
      (global.set $mark_sp (i32.add (global.get $mark_sp) (i32.const 1))))
    (else (global.set $mark_overflow (i32.const 1)))))

;; Whether the block at offset `off` of small chunk `chunk` is marked: the chunk's bitmap (at
;; +16) holds one bit per 8 bytes of the chunk.
(func $marked (param $chunk i32) (param $off i32) (result i32)
  (i32.and (i32.load8_u (i32.add (i32.add (local.get $chunk) (i32.const 16)) (i32.shr_u (local.get $off) (i32.const 6))))
    (i32.shl (i32.const 1) (i32.and (i32.shr_u (local.get $off) (i32.const 3)) (i32.const 7)))))

(func $mark_ptr (param $p i32)
  (if (local.get $p) (then (call $mark_block (local.get $p) (i32.const 1)))))

(func $mark_raw (param $p i32)
  (if (local.get $p) (then (call $mark_block (local.get $p) (i32.const 0)))))

;; Marks `n` values from `at`, at most as many as fit before `end`. Four values a turn, and
;; four small ints (a list of numbers) passed over with one test: a list the plan is still
;; building is read again at every collection until it is done.
(func $mark_values (param $at i32) (param $n i32) (param $end i32)
  (local $last i32) (local $v i64) (local $v1 i64) (local $v2 i64) (local $v3 i64)
  (local.set $last (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 3))))
  (if (i32.or (i32.gt_u (local.get $last) (local.get $end)) (i32.lt_u (local.get $last) (local.get $at)))
    (then (local.set $last (local.get $end))))
  (block $fours_done
    (loop $four
      (br_if $fours_done (i32.gt_u (i32.add (local.get $at) (i32.const 32)) (local.get $last)))
      (local.set $v (i64.load (local.get $at)))
      (local.set $v1 (i64.load offset=8 (local.get $at)))
      (local.set $v2 (i64.load offset=16 (local.get $at)))
      (local.set $v3 (i64.load offset=24 (local.get $at)))
      (if (i32.eqz (i32.wrap_i64 (i64.and (i64.and (i64.and (local.get $v) (local.get $v1))
            (i64.and (local.get $v2) (local.get $v3))) (i64.const 1))))
        (then
          (call $mark_value (local.get $v))
          (call $mark_value (local.get $v1))
          (call $mark_value (local.get $v2))
          (call $mark_value (local.get $v3))))
      (local.set $at (i32.add (local.get $at) (i32.const 32)))
      (br $four)))
  (block $done
    (loop $each
      (br_if $done (i32.gt_u (i32.add (local.get $at) (i32.const 8)) (local.get $last)))
      (call $mark_value (i64.load (local.get $at)))
      (local.set $at (i32.add (local.get $at) (i32.const 8)))
      (br $each))))

;; Traces everything on the mark stack; after an overflow, rescans the heap for marked objects.
(func $mark_drain
  (local $p i32)
  (loop $again
    (block $empty
      (loop $each
        (br_if $empty (i32.eqz (global.get $mark_sp)))
        (global.set $mark_sp (i32.sub (global.get $mark_sp) (i32.const 1)))
        (call $trace (i32.load (i32.add (global.get $mark_stack) (i32.shl (global.get $mark_sp) (i32.const 2)))))
        (br $each)))
    (if (global.get $mark_overflow)
      (then
        (global.set $mark_overflow (i32.const 0))
        (call $gc_rescan)
        (br $again)))))

;; Traces every marked block again (their unmarked fields get marked and pushed; a block traced
;; twice marks nothing new). Raw blocks are traced as if they were objects: harmless, since every
;; count is clamped to the block and every address checked.
(func $gc_rescan
  (local $chunk i32) (local $kind i32) (local $size i32) (local $p i32) (local $end i32) (local $off i32)
  (local.set $chunk (global.get $heap_start))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $chunk) (global.get $heap_top)))
      (local.set $kind (call $chunk_kind (local.get $chunk)))
      (if (i32.eq (local.get $kind) (i32.const 1))
        (then
          (local.set $size (i32.load (local.get $chunk)))
          (local.set $p (i32.add (local.get $chunk) (global.get $chunk_hdr)))
          (local.set $end (i32.add (local.get $chunk) (i32.const 0x10000)))
          (block $blocks_done
            (loop $block
              (br_if $blocks_done (i32.gt_u (i32.add (local.get $p) (local.get $size)) (local.get $end)))
              (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
              (if (call $marked (local.get $chunk) (local.get $off))
                (then (call $trace (local.get $p))))
              (local.set $p (i32.add (local.get $p) (local.get $size)))
              (br $block)))
          (local.set $chunk (i32.add (local.get $chunk) (i32.const 0x10000)))
          (br $each)))
      (if (i32.or (i32.eq (local.get $kind) (i32.const 2)) (i32.eq (local.get $kind) (i32.const 4)))
        (then
          (if (i32.and (i32.eq (local.get $kind) (i32.const 2)) (i32.ne (i32.load offset=4 (local.get $chunk)) (i32.const 0)))
            (then (call $trace (i32.add (local.get $chunk) (global.get $large_hdr)))))
          (local.set $chunk (i32.add (local.get $chunk) (i32.shl (i32.load (local.get $chunk)) (i32.const 16))))
          (br $each)))
      (local.set $chunk (i32.add (local.get $chunk) (i32.const 0x10000)))
      (br $each))))

;; Marks what the object at `p` refers to (docs/abi.md, "Objects", for each type's fields).
(func $trace (param $p i32)
  (local $t i32) (local $end i32) (local $a i32) (local $n i32) (local $e i32) (local $dict i32)
  (local.set $end (i32.add (local.get $p) (call $block_size (local.get $p))))
  (local.set $t (i32.load (local.get $p)))
  ;; tuple: the items.
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
    (then
      (call $mark_values (i32.add (local.get $p) (i32.const 8)) (i32.load offset=4 (local.get $p)) (local.get $end))
      (return)))
  ;; list: the item array and its first `len` items.
  (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
    (then
      (local.set $a (i32.load offset=12 (local.get $p)))
      (call $mark_raw (local.get $a))
      (local.set $n (call $block_size (local.get $a)))
      (if (local.get $n)
        (then (call $mark_values (local.get $a) (i32.load offset=4 (local.get $p)) (i32.add (local.get $a) (local.get $n)))))
      (return)))
  ;; dict and set: the entries (keys, and a dict's values) and the index.
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_DICT)) (i32.eq (local.get $t) (i32.const TYPE_SET)))
    (then
      (local.set $dict (i32.eq (local.get $t) (i32.const TYPE_DICT)))
      (local.set $a (i32.load offset=8 (local.get $p)))
      (call $mark_raw (local.get $a))
      (call $mark_raw (i32.load offset=20 (local.get $p)))
      (local.set $n (call $block_size (local.get $a)))
      (if (i32.eqz (local.get $n)) (then (return)))
      (local.set $end (i32.add (local.get $a) (local.get $n)))
      (local.set $n (i32.load offset=12 (local.get $p)))
      (block $done
        (loop $each
          (br_if $done (i32.eqz (local.get $n)))
          (br_if $done (i32.gt_u (i32.add (local.get $a) (i32.const 24)) (local.get $end)))
          (call $mark_value (i64.load offset=8 (local.get $a)))
          (if (local.get $dict) (then (call $mark_value (i64.load offset=16 (local.get $a)))))
          (local.set $a (i32.add (local.get $a) (i32.const 24)))
          (local.set $n (i32.sub (local.get $n) (i32.const 1)))
          (br $each)))
      (return)))
  (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 16)) (then (return)))
  ;; function: name, defaults, keyword-only defaults, closure cells.
  (if (i32.eq (local.get $t) (i32.const TYPE_FUNCTION))
    (then
      (call $mark_ptr (i32.load offset=12 (local.get $p)))
      (call $mark_ptr (i32.load offset=16 (local.get $p)))
      (call $mark_ptr (i32.load offset=20 (local.get $p)))
      (call $mark_ptr (i32.load offset=24 (local.get $p)))
      (return)))
  ;; exception: args, the frames of its traceback (raw), the cause, its other attributes, its
  ;; context (bit 0 a flag).
  (if (i32.eq (local.get $t) (i32.const TYPE_EXCEPTION))
    (then
      (call $mark_ptr (i32.load offset=12 (local.get $p)))
      (call $mark_raw (i32.load offset=16 (local.get $p)))
      (call $mark_ptr (i32.load offset=20 (local.get $p)))
      (call $mark_ptr (i32.load offset=24 (local.get $p)))
      (call $mark_ptr (i32.and (i32.load offset=28 (local.get $p)) (i32.const -2)))
      (return)))
;; str builder (fast.wat, internal): its buffer; a join builder's (56 bytes) also the first
;; item and the first that is not a str.
  (if (i32.eq (local.get $t) (i32.const TYPE_STR_BUILDER))
    (then
      (call $mark_raw (i32.load offset=8 (local.get $p)))
      (if (i32.ge_u (i32.sub (local.get $end) (local.get $p)) (i32.const 56))
        (then
          (call $mark_value (i64.load offset=24 (local.get $p)))
          (call $mark_value (i64.load offset=32 (local.get $p)))))
      (return)))
  ;; record: its fields (a dict) and what str() gives.
  (if (i32.eq (local.get $t) (i32.const TYPE_RECORD))
    (then
      (call $mark_ptr (i32.load offset=12 (local.get $p)))
      (call $mark_value (i64.load offset=16 (local.get $p)))
      (return)))
  ;; cell, iterator, dict view: a value at +8 (an iterator's container or lazy state); bound
  ;; method (self, name), range and slice (start, stop, step): values at +8, +16, +24.
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_CELL))
        (i32.or (i32.eq (local.get $t) (i32.const TYPE_ITERATOR)) (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))))
    (then
      (call $mark_value (i64.load offset=8 (local.get $p)))
      ;; A range's iterator (48 bytes): its next value and step at +24 and +32.
      (if (i32.and (i32.eq (local.get $t) (i32.const TYPE_ITERATOR)) (i32.ge_u (i32.sub (local.get $end) (local.get $p)) (i32.const 48)))
        (then
          (call $mark_value (i64.load offset=24 (local.get $p)))
          (call $mark_value (i64.load offset=32 (local.get $p)))))
      (return)))
  (if (i32.eq (local.get $t) (i32.const TYPE_BOUND_METHOD))
    (then
      (call $mark_value (i64.load offset=8 (local.get $p)))
      (call $mark_value (i64.load offset=16 (local.get $p)))
      (return)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_RANGE)) (i32.eq (local.get $t) (i32.const TYPE_SLICE)))
    (then
      (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 32)) (then (return)))
      (call $mark_value (i64.load offset=8 (local.get $p)))
      (call $mark_value (i64.load offset=16 (local.get $p)))
      (call $mark_value (i64.load offset=24 (local.get $p))))))

;; Frees what the mark did not reach. Chunks with no live block, and dead large objects, join
;; the free runs, with free neighbours merged. The other small chunks are swept lazily: each
;; goes on its class's unswept list (`$class_unswept`, linked through the chunk header's +12,
;; in address order) with its marks kept, and `$class_refill` sweeps one when the class runs
;; out of free blocks (`$sweep_chunk`). A collection then costs a look at each chunk's bitmap,
;; not a walk over every block of every chunk in use: most of a heap's small chunks hold a few
;; long-lived objects of classes that are not allocating. The next collection clears the marks
;; of chunks still unswept (`$forget_unswept`): their unmarked blocks are unreachable, so they
;; stay unmarked and are freed by the sweep after it. Under stress the dead blocks are poisoned
;; at once (then swept lazily like the others).
(func $gc_sweep
  (local $chunk i32) (local $kind i32) (local $p i32)
  (local $n i32) (local $live i32) (local $bits i32) (local $c i32) (local $at i32)
  (local $run i32) (local $run_n i32) (local $runs_tail i32) (local $prev i32) (local $next i32)
  (memory.fill (global.get $class_free) (i32.const 0) (i32.shl (global.get $class_count) (i32.const 2)))
  (global.set $free_runs (i32.const 0))
  (global.set $heap_used (i64.const 0))
  (local.set $chunk (global.get $heap_start))
  (block $done
    (loop $each
      (if (i32.ge_u (local.get $chunk) (global.get $heap_top))
        (then (local.set $kind (i32.const 0)))
        (else (local.set $kind (call $chunk_kind (local.get $chunk)))))
      ;; n: the chunks that are free from here (0: this chunk is in use, or the heap ends).
      (local.set $n (i32.const 0))
      (if (i32.eq (local.get $kind) (i32.const 1))
        (then
          (local.set $bits (i32.add (local.get $chunk) (i32.const 16)))
          ;; live: whether any block is marked (the first marked word ends the search; most
          ;; chunks of a heap that churns hold none, and then every word is read).
          (local.set $live (i32.const 0))
          (local.set $p (i32.const 0))
          (block $counted
            (loop $count
              (br_if $counted (i32.ge_u (local.get $p) (i32.const 1024)))
              (if (i64.ne (i64.or (i64.load (i32.add (local.get $bits) (local.get $p)))
                      (i64.load offset=8 (i32.add (local.get $bits) (local.get $p))))
                    (i64.const 0))
                (then (local.set $live (i32.const 1)) (br $counted)))
              (local.set $p (i32.add (local.get $p) (i32.const 16)))
              (br $count)))
          (if (i32.eqz (local.get $live))
            (then (local.set $n (i32.const 1)))
            (else
              (global.set $heap_used (i64.add (global.get $heap_used) (i64.const 0x10000)))
              ;; Under stress the dead blocks are poisoned now, so that a block a missed root
              ;; still points to reads as garbage at once, not when its chunk is swept.
              (if (global.get $gc_stress) (then (call $poison_unmarked (local.get $chunk))))
              (local.set $at (i32.add (global.get $class_unswept)
                (i32.shl (i32.load offset=4 (local.get $chunk)) (i32.const 2))))
              (i32.store offset=12 (local.get $chunk) (i32.load (local.get $at)))
              (i32.store (local.get $at) (local.get $chunk))))))
      (if (i32.eq (local.get $kind) (i32.const 2))
        (then
          (if (i32.load offset=4 (local.get $chunk))
            (then
              (i32.store offset=4 (local.get $chunk) (i32.const 0))
              (global.set $heap_used (i64.add (global.get $heap_used)
                (i64.shl (i64.extend_i32_u (i32.load (local.get $chunk))) (i64.const 16)))))
            (else (local.set $n (i32.load (local.get $chunk)))))))
      (if (i32.eq (local.get $kind) (i32.const 4))
        (then (local.set $n (i32.load (local.get $chunk)))))
      (if (local.get $n)
        (then
          (if (i32.and (global.get $gc_stress) (i32.ne (local.get $kind) (i32.const 4)))
            (then (memory.fill (local.get $chunk) (i32.const 0xDB) (i32.shl (local.get $n) (i32.const 16)))))
          (if (i32.eqz (local.get $run)) (then (local.set $run (local.get $chunk))))
          (local.set $run_n (i32.add (local.get $run_n) (local.get $n))))
        (else
          ;; A chunk in use (or the end of the heap) closes the free run before it.
          (if (local.get $run)
            (then
              (call $set_chunk_kinds (local.get $run) (local.get $run_n) (i32.const 4) (i32.const 5))
              (i32.store (local.get $run) (local.get $run_n))
              (i32.store offset=4 (local.get $run) (i32.const 0))
              (if (local.get $runs_tail)
                (then (i32.store offset=4 (local.get $runs_tail) (local.get $run)))
                (else (global.set $free_runs (local.get $run))))
              (local.set $runs_tail (local.get $run))
              (local.set $run (i32.const 0))
              (local.set $run_n (i32.const 0))))))
      (br_if $done (i32.eqz (local.get $kind)))
      (if (i32.or (i32.eq (local.get $kind) (i32.const 2)) (i32.eq (local.get $kind) (i32.const 4)))
        (then (local.set $chunk (i32.add (local.get $chunk) (i32.shl (i32.load (local.get $chunk)) (i32.const 16)))))
        (else (local.set $chunk (i32.add (local.get $chunk) (i32.const 0x10000)))))
      (br $each)))
  ;; The unswept lists were built by pushing chunks in address order: reverse each, so that
  ;; allocation fills the lowest chunks first and the highest are the likeliest to empty.
  (local.set $c (i32.const 0))
  (block $classes_done
    (loop $class
      (br_if $classes_done (i32.ge_u (local.get $c) (global.get $class_count)))
      (local.set $at (i32.add (global.get $class_unswept) (i32.shl (local.get $c) (i32.const 2))))
      (local.set $chunk (i32.load (local.get $at)))
      (local.set $prev (i32.const 0))
      (block $reversed
        (loop $step
          (br_if $reversed (i32.eqz (local.get $chunk)))
          (local.set $next (i32.load offset=12 (local.get $chunk)))
          (i32.store offset=12 (local.get $chunk) (local.get $prev))
          (local.set $prev (local.get $chunk))
          (local.set $chunk (local.get $next))
          (br $step)))
      (i32.store (local.get $at) (local.get $prev))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $class))))

;; Frees the blocks of small chunk `chunk` that the last mark did not reach and clears its marks:
;; they are threaded in address order (each free block's first word the next) in front of its
;; class's free list. Returns the first, or 0 when every block is live.
(func $sweep_chunk (param $chunk i32) (result i32)
  (local $size i32) (local $p i32) (local $end i32) (local $bits i32) (local $off i32)
  (local $first i32) (local $tail i32) (local $head i32)
  (local.set $bits (i32.add (local.get $chunk) (i32.const 16)))
  (local.set $size (i32.load (local.get $chunk)))
  (local.set $p (i32.add (local.get $chunk) (global.get $chunk_hdr)))
  (local.set $end (i32.add (local.get $chunk) (i32.const 0x10000)))
  (block $blocks_done
    (loop $block
      (br_if $blocks_done (i32.gt_u (i32.add (local.get $p) (local.get $size)) (local.get $end)))
      (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
      ;; ($marked, written out: this runs for every block of the chunk)
      (if (i32.eqz (i32.and (i32.load8_u (i32.add (local.get $bits) (i32.shr_u (local.get $off) (i32.const 6))))
            (i32.shl (i32.const 1) (i32.and (i32.shr_u (local.get $off) (i32.const 3)) (i32.const 7)))))
        (then
          (if (local.get $tail)
            (then (i32.store (local.get $tail) (local.get $p)))
            (else (local.set $first (local.get $p))))
          (local.set $tail (local.get $p))))
      (local.set $p (i32.add (local.get $p) (local.get $size)))
      (br $block)))
  (memory.fill (local.get $bits) (i32.const 0) (i32.const 1024))
  (if (local.get $tail)
    (then
      (local.set $head (i32.add (global.get $class_free) (i32.shl (i32.load offset=4 (local.get $chunk)) (i32.const 2))))
      (i32.store (local.get $tail) (i32.load (local.get $head)))
      (i32.store (local.get $head) (local.get $first))))
  (local.get $first))

;; Poisons the blocks of small chunk `chunk` that the last mark did not reach (stress mode).
(func $poison_unmarked (param $chunk i32)
  (local $size i32) (local $p i32) (local $end i32) (local $off i32)
  (local.set $size (i32.load (local.get $chunk)))
  (local.set $p (i32.add (local.get $chunk) (global.get $chunk_hdr)))
  (local.set $end (i32.add (local.get $chunk) (i32.const 0x10000)))
  (block $blocks_done
    (loop $block
      (br_if $blocks_done (i32.gt_u (i32.add (local.get $p) (local.get $size)) (local.get $end)))
      (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
      (if (i32.eqz (call $marked (local.get $chunk) (local.get $off)))
        (then (memory.fill (local.get $p) (i32.const 0xDB) (local.get $size))))
      (local.set $p (i32.add (local.get $p) (local.get $size)))
      (br $block))))

;; Clears the marks of the chunks the last sweep left unswept and empties the lists, before a
;; mark (see `$gc_sweep`).
(func $forget_unswept
  (local $c i32) (local $at i32) (local $chunk i32)
  (block $classes_done
    (loop $class
      (br_if $classes_done (i32.ge_u (local.get $c) (global.get $class_count)))
      (local.set $at (i32.add (global.get $class_unswept) (i32.shl (local.get $c) (i32.const 2))))
      (local.set $chunk (i32.load (local.get $at)))
      (block $cleared
        (loop $each
          (br_if $cleared (i32.eqz (local.get $chunk)))
          (memory.fill (i32.add (local.get $chunk) (i32.const 16)) (i32.const 0) (i32.const 1024))
          (local.set $chunk (i32.load offset=12 (local.get $chunk)))
          (br $each)))
      (i32.store (local.get $at) (i32.const 0))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $class))))
