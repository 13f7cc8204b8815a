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
  (call $mark_raw (global.get $bn_area))
  (call $mark_drain)
  (call $gc_sweep)
  (global.set $gc_threshold (i64.shl (global.get $heap_used) (i64.const 1)))
  (if (i64.lt_u (global.get $gc_threshold) (i64.const 0x40_0000))
    (then (global.set $gc_threshold (i64.const 0x40_0000))))
;; Near the store's memory limit (the heap's slack has shrunk to its reserve, heap.wat), the
  ;; heap cannot double: collect again once it has grown by 1 MiB (not at every chunk: a plan
  ;; that really fills the memory would be marked over and over on its way to MemoryError).
  (if (i64.le_u (global.get $heap_slack) (i64.const 0x4_0000))
    (then (global.set $gc_threshold (i64.add (global.get $heap_used) (i64.const 0x10_0000)))))
  (global.set $gc_due (i32.ne (global.get $gc_stress) (i32.const 0)))
  (global.set $gc_nanos (i64.add (global.get $gc_nanos) (i64.sub (call $host_clock) (local.get $started)))))

;; The size of the heap block that starts at `p`, or 0 when `p` is not the start of one.
(func $block_size (param $p i32) (result i32)
  (local $chunk i32) (local $kind i32) (local $off i32) (local $size i32)
  (if (i32.or (i32.lt_u (local.get $p) (global.get $heap_start))
        (i32.or (i32.ge_u (local.get $p) (global.get $heap_top)) (i32.and (local.get $p) (i32.const 7))))
    (then (return (i32.const 0))))
  (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
  (local.set $kind (call $chunk_kind (local.get $chunk)))
  (if (i32.eq (local.get $kind) (i32.const 1))
    (then
      (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
      (if (i32.lt_u (local.get $off) (global.get $chunk_hdr)) (then (return (i32.const 0))))
      (local.set $size (i32.load (local.get $chunk)))
      (if (i32.rem_u (i32.sub (local.get $off) (global.get $chunk_hdr)) (local.get $size))
        (then (return (i32.const 0))))
      ;; The tail of a chunk too short for another block is not one.
      (if (i32.gt_u (i32.add (local.get $off) (local.get $size)) (i32.const 0x10000))
        (then (return (i32.const 0))))
      (return (local.get $size))))
  (if (i32.and (i32.eq (local.get $kind) (i32.const 2))
        (i32.eq (local.get $p) (i32.add (local.get $chunk) (global.get $large_hdr))))
    (then (return (i32.sub (i32.shl (i32.load (local.get $chunk)) (i32.const 16)) (global.get $large_hdr)))))
  (i32.const 0))

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
        (i32.mul (i32.div_u (local.get $off) (local.get $size)) (local.get $size))))))
  (if (i32.eq (call $chunk_kind (local.get $chunk)) (i32.const 2))
    (then (local.set $p (i32.add (local.get $chunk) (global.get $large_hdr)))))
  (call $mark_block (local.get $p) (i32.const 1)))

;; Marks a value's object (small ints, 0 and static objects need nothing).
(func $mark_value (param $v i64)
  (if (i32.or (i64.eqz (local.get $v)) (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1))))
    (then (return)))
  (if (i64.gt_u (local.get $v) (i64.const 0xFFFF_FFFF)) (then (return)))
  (call $mark_block (i32.wrap_i64 (local.get $v)) (i32.const 1)))

;; Marks the block at `p`; `trace`: it is an object whose fields are values (pushed to be
;; traced), not raw memory an object owns (an item array, a hash index).
(func $mark_block (param $p i32) (param $trace i32)
  (local $chunk i32) (local $off i32) (local $at i32)
  (if (i32.lt_u (local.get $p) (global.get $heap_start)) (then (return)))
  (if (i32.eqz (call $block_size (local.get $p))) (then (return)))
  (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
  (if (i32.eq (call $chunk_kind (local.get $chunk)) (i32.const 1))
    (then
      (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
      (if (call $marked (local.get $chunk) (local.get $off)) (then (return)))
      (local.set $at (i32.add (i32.add (local.get $chunk) (i32.const 16)) (i32.shr_u (local.get $off) (i32.const 6))))
      (i32.store8 (local.get $at) (i32.or (i32.load8_u (local.get $at))
        (i32.shl (i32.const 1) (i32.and (i32.shr_u (local.get $off) (i32.const 3)) (i32.const 7))))))
    (else
      (if (i32.load offset=4 (local.get $chunk)) (then (return)))
      (i32.store offset=4 (local.get $chunk) (i32.const 1))))
  (if (i32.eqz (local.get $trace)) (then (return)))
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

;; Marks `n` values from `at`, at most as many as fit before `end`.
(func $mark_values (param $at i32) (param $n i32) (param $end i32)
  (local $last i32) (local $v i64)
  (local.set $last (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 3))))
  (if (i32.or (i32.gt_u (local.get $last) (local.get $end)) (i32.lt_u (local.get $last) (local.get $at)))
    (then (local.set $last (local.get $end))))
  (block $done
    (loop $each
      (br_if $done (i32.gt_u (i32.add (local.get $at) (i32.const 8)) (local.get $last)))
      ;; (small ints and empty slots, most of a list of numbers, without a call)
      (local.set $v (i64.load (local.get $at)))
      (if (i32.eqz (i32.or (i64.eqz (local.get $v)) (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))))
        (then (call $mark_value (local.get $v))))
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
  (if (i32.eq (local.get $t) (i32.const 6))
    (then
      (call $mark_values (i32.add (local.get $p) (i32.const 8)) (i32.load offset=4 (local.get $p)) (local.get $end))
      (return)))
  ;; list: the item array and its first `len` items.
  (if (i32.eq (local.get $t) (i32.const 7))
    (then
      (local.set $a (i32.load offset=12 (local.get $p)))
      (call $mark_raw (local.get $a))
      (local.set $n (call $block_size (local.get $a)))
      (if (local.get $n)
        (then (call $mark_values (local.get $a) (i32.load offset=4 (local.get $p)) (i32.add (local.get $a) (local.get $n)))))
      (return)))
  ;; dict and set: the entries (keys, and a dict's values) and the index.
  (if (i32.or (i32.eq (local.get $t) (i32.const 8)) (i32.eq (local.get $t) (i32.const 9)))
    (then
      (local.set $dict (i32.eq (local.get $t) (i32.const 8)))
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
  (if (i32.eq (local.get $t) (i32.const 10))
    (then
      (call $mark_ptr (i32.load offset=12 (local.get $p)))
      (call $mark_ptr (i32.load offset=16 (local.get $p)))
      (call $mark_ptr (i32.load offset=20 (local.get $p)))
      (call $mark_ptr (i32.load offset=24 (local.get $p)))
      (return)))
  ;; exception: args, the frames of its traceback (raw), the cause, its other attributes.
  (if (i32.eq (local.get $t) (i32.const 12))
    (then
      (call $mark_ptr (i32.load offset=12 (local.get $p)))
      (call $mark_raw (i32.load offset=16 (local.get $p)))
      (call $mark_ptr (i32.load offset=20 (local.get $p)))
      (call $mark_ptr (i32.load offset=24 (local.get $p)))
      (return)))
;; f-string builder (fast.wat, internal): its buffer.
  (if (i32.eq (local.get $t) (i32.const 21))
    (then
      (call $mark_raw (i32.load offset=8 (local.get $p)))
      (return)))
  ;; record: its fields (a dict) and what str() gives.
  (if (i32.eq (local.get $t) (i32.const 20))
    (then
      (call $mark_ptr (i32.load offset=12 (local.get $p)))
      (call $mark_value (i64.load offset=16 (local.get $p)))
      (return)))
  ;; cell, iterator, dict view: a value at +8 (an iterator's container or lazy state); bound
  ;; method (self, name), range and slice (start, stop, step): values at +8, +16, +24.
  (if (i32.or (i32.eq (local.get $t) (i32.const 11))
        (i32.or (i32.eq (local.get $t) (i32.const 18)) (i32.eq (local.get $t) (i32.const 19))))
    (then
      (call $mark_value (i64.load offset=8 (local.get $p)))
      ;; A range's iterator (48 bytes): its next value and step at +24 and +32.
      (if (i32.and (i32.eq (local.get $t) (i32.const 18)) (i32.ge_u (i32.sub (local.get $end) (local.get $p)) (i32.const 48)))
        (then
          (call $mark_value (i64.load offset=24 (local.get $p)))
          (call $mark_value (i64.load offset=32 (local.get $p)))))
      (return)))
  (if (i32.eq (local.get $t) (i32.const 15))
    (then
      (call $mark_value (i64.load offset=8 (local.get $p)))
      (call $mark_value (i64.load offset=16 (local.get $p)))
      (return)))
  (if (i32.or (i32.eq (local.get $t) (i32.const 16)) (i32.eq (local.get $t) (i32.const 17)))
    (then
      (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 32)) (then (return)))
      (call $mark_value (i64.load offset=8 (local.get $p)))
      (call $mark_value (i64.load offset=16 (local.get $p)))
      (call $mark_value (i64.load offset=24 (local.get $p))))))

;; Frees every block the mark did not reach and clears the marks. Free lists are rebuilt in
;; address order; chunks with no live block, and dead large objects, join the free runs, with
;; free neighbours merged.
(func $gc_sweep
  (local $chunk i32) (local $kind i32) (local $size i32) (local $p i32) (local $end i32)
  (local $n i32) (local $live i32) (local $bits i32) (local $c i32) (local $tail i32)
  (local $run i32) (local $run_n i32) (local $runs_tail i32) (local $off i32)
  (memory.fill (global.get $class_free) (i32.const 0) (i32.const 180))
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
          (local.set $live (i32.const 0))
          (local.set $p (i32.const 0))
          (block $counted
            (loop $count
              (br_if $counted (i32.ge_u (local.get $p) (i32.const 1024)))
              (local.set $live (i32.add (local.get $live)
                (i32.wrap_i64 (i64.popcnt (i64.load (i32.add (local.get $bits) (local.get $p)))))))
              (local.set $p (i32.add (local.get $p) (i32.const 8)))
              (br $count)))
          (if (i32.eqz (local.get $live))
            (then (local.set $n (i32.const 1)))
            (else
              (global.set $heap_used (i64.add (global.get $heap_used) (i64.const 0x10000)))
              (local.set $size (i32.load (local.get $chunk)))
              (local.set $c (i32.load offset=4 (local.get $chunk)))
              (local.set $tail (i32.load (i32.add (global.get $class_tail) (i32.shl (local.get $c) (i32.const 2)))))
              (local.set $p (i32.add (local.get $chunk) (global.get $chunk_hdr)))
              (local.set $end (i32.add (local.get $chunk) (i32.const 0x10000)))
              (block $blocks_done
                (loop $block
                  (br_if $blocks_done (i32.gt_u (i32.add (local.get $p) (local.get $size)) (local.get $end)))
                  (local.set $off (i32.sub (local.get $p) (local.get $chunk)))
                  ;; ($marked, written out: this runs for every block of every chunk in use)
                  (if (i32.eqz (i32.and (i32.load8_u (i32.add (local.get $bits) (i32.shr_u (local.get $off) (i32.const 6))))
                        (i32.shl (i32.const 1) (i32.and (i32.shr_u (local.get $off) (i32.const 3)) (i32.const 7)))))
                    (then
                      (if (global.get $gc_stress)
                        (then (memory.fill (local.get $p) (i32.const 0xDB) (local.get $size))))
                      (i32.store (local.get $p) (i32.const 0))
                      (if (local.get $tail)
                        (then (i32.store (local.get $tail) (local.get $p)))
                        (else (i32.store (i32.add (global.get $class_free) (i32.shl (local.get $c) (i32.const 2))) (local.get $p))))
                      (local.set $tail (local.get $p))))
                  (local.set $p (i32.add (local.get $p) (local.get $size)))
                  (br $block)))
              (i32.store (i32.add (global.get $class_tail) (i32.shl (local.get $c) (i32.const 2))) (local.get $tail))
              (memory.fill (local.get $bits) (i32.const 0) (i32.const 1024))))))
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
  (memory.fill (global.get $class_tail) (i32.const 0) (i32.const 180)))
