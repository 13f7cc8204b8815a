;; heap.wat: the allocator. docs/abi.md ("The heap") is the reference; gc.wat collects.
;;
;; The heap is a run of 64 KiB chunks from `$heap_start` (chunk-aligned) up to `$heap_top`.
;; The chunk table (`$chunk_kinds`, one byte per chunk of the 4 GiB address space) says what
;; each chunk is:
;;   1  small: blocks of one size class. Header: +0 block size, +4 class, +8 the size's
;;      reciprocal (ceil(2^32 / size), so the collector finds a block's index with a
;;      multiplication: gc.wat's `$block_index`), +12 the next chunk on its class's unswept list
;;      (gc.wat, `$gc_sweep`), +16 the mark bitmap (one bit per 8 bytes of the chunk, so a
;;      block's bit is (address - chunk) >> 3); blocks from +HDR (1088).
;;   2  the first chunk of a large object (over 28 KiB). Header: +0 chunk count, +4 mark; the
;;      object at +64.
;;   3  a later chunk of a large object.
;;   4  the first chunk of a free run. Header: +0 chunk count, +4 next run (or 0).
;;   5  a later chunk of a free run.
;; Every object address maps to its chunk header by clearing the low 16 bits, with no search.
;;
;; Small sizes round up to one of 47 classes (8-byte steps to 128, then four per power of two
;; to 16 KiB and three more to 28 KiB, the largest of which two fit a chunk: at most 25% lost
;; to rounding, where a 20 KB str as a large object would take a whole chunk, three times its
;; size, and bring the next collection three times as soon); each class keeps a free list
;; threaded through its free blocks' first word. A chunk given to a class is cut into blocks at once. A collection
;; gives chunks with no live block back to the free runs, where large objects and other classes
;; take them (first fit), so churn does not fragment the heap without bound: a chunk is reusable
;; by any size as soon as it is empty. The free blocks of the other chunks join their class's
;; free list when the class needs them (lazy sweeping, gc.wat).
;;
;; Every allocation is zeroed (free blocks hold stale data or, under stress, poison).

(global $chunk_hdr i32 (i32.const 1088))
;; The largest small size (class 47); the size classes are 1..$class_count - 1.
(global $small_max i32 (i32.const 28672))
(global $class_count i32 (i32.const 48))
(global $large_hdr i32 (i32.const 64))

;; The heap size (`$heap_used`) past which the next collection is due: twice what the last one
;; kept, at least 4 MiB (gc.wat sets it).
(global $gc_threshold (mut i64) (i64.const 0x40_0000))
;; 1 when a collection should run at the next safe point (gc.wat).
(global $gc_due (mut i32) (i32.const 0))
;; Bytes in chunks in use (small chunks whole, large objects' chunks), and its peak.
(global $heap_used (mut i64) (i64.const 0))
(global $heap_peak (export "baton_heap_peak") (mut i64) (i64.const 0))
(global $free_runs (mut i32) (i32.const 0))

;; The size class of a small size (1..$small_max).
(func $size_class (param $size i32) (result i32)
  (local $s1 i32) (local $b i32)
  (if (i32.le_u (local.get $size) (i32.const 128))
    (then (return (select (i32.shr_u (i32.add (local.get $size) (i32.const 7)) (i32.const 3))
      (i32.const 1) (local.get $size)))))
  (local.set $s1 (i32.sub (local.get $size) (i32.const 1)))
  (local.set $b (i32.sub (i32.const 31) (i32.clz (local.get $s1))))
  (i32.add (i32.add (i32.const 17) (i32.shl (i32.sub (local.get $b) (i32.const 7)) (i32.const 2)))
    (i32.sub (i32.shr_u (local.get $s1) (i32.sub (local.get $b) (i32.const 2))) (i32.const 4))))

;; The block size of a class.
(func $class_size (param $c i32) (result i32)
  (local $k i32)
  (if (i32.le_u (local.get $c) (i32.const 16)) (then (return (i32.shl (local.get $c) (i32.const 3)))))
  (local.set $k (i32.sub (local.get $c) (i32.const 17)))
  (i32.shl (i32.add (i32.and (local.get $k) (i32.const 3)) (i32.const 5))
    (i32.add (i32.shr_u (local.get $k) (i32.const 2)) (i32.const 5))))

(func $chunk_kind (param $chunk i32) (result i32)
  (i32.load8_u (i32.add (global.get $chunk_kinds) (i32.shr_u (local.get $chunk) (i32.const 16)))))

(func $set_chunk_kinds (param $chunk i32) (param $n i32) (param $first i32) (param $rest i32)
  (local $at i32)
  (local.set $at (i32.add (global.get $chunk_kinds) (i32.shr_u (local.get $chunk) (i32.const 16))))
  (i32.store8 (local.get $at) (local.get $first))
  (if (i32.gt_u (local.get $n) (i32.const 1))
    (then (memory.fill (i32.add (local.get $at) (i32.const 1)) (local.get $rest)
      (i32.sub (local.get $n) (i32.const 1))))))

;; Allocates `size` bytes, 8-aligned and zeroed; raises MemoryError when the memory cannot grow.
;; The hot path of every object the runtime makes: the class of a size up to 128 is computed in
;; place (a call costs more), the free list popped, the words zeroed (unrolled for the first 32
;; bytes, where most objects end).
(func $alloc (param $size i32) (result i32)
  (local $c i32) (local $head i32) (local $p i32) (local $bytes i32) (local $at i32)
  (if (i32.le_u (local.get $size) (i32.const 128))
    (then (local.set $c (select (i32.shr_u (i32.add (local.get $size) (i32.const 7)) (i32.const 3))
      (i32.const 1) (local.get $size))))
    (else
      (if (i32.gt_u (local.get $size) (global.get $small_max))
        (then (return (call $alloc_large (i64.extend_i32_u (local.get $size)) (i32.const 1)))))
      (local.set $c (call $size_class (local.get $size)))))
  (local.set $head (i32.add (global.get $class_free) (i32.shl (local.get $c) (i32.const 2))))
  (local.set $p (i32.load (local.get $head)))
  (if (i32.eqz (local.get $p)) (then (local.set $p (call $class_refill (local.get $c)))))
  (i32.store (local.get $head) (i32.load (local.get $p)))
  (local.set $bytes (i32.and (i32.add (local.get $size) (i32.const 7)) (i32.const -8)))
  (i64.store (local.get $p) (i64.const 0))
  (if (i32.le_u (local.get $bytes) (i32.const 8)) (then (return (local.get $p))))
  (i64.store offset=8 (local.get $p) (i64.const 0))
  (if (i32.le_u (local.get $bytes) (i32.const 16)) (then (return (local.get $p))))
  (i64.store offset=16 (local.get $p) (i64.const 0))
  (if (i32.le_u (local.get $bytes) (i32.const 24)) (then (return (local.get $p))))
  (i64.store offset=24 (local.get $p) (i64.const 0))
  (if (i32.le_u (local.get $bytes) (i32.const 32)) (then (return (local.get $p))))
  (if (i32.gt_u (local.get $bytes) (i32.const 128))
    (then
      (memory.fill (i32.add (local.get $p) (i32.const 32)) (i32.const 0) (i32.sub (local.get $bytes) (i32.const 32)))
      (return (local.get $p))))
  (local.set $at (i32.const 32))
  (loop $word
    (i64.store (i32.add (local.get $p) (local.get $at)) (i64.const 0))
    (local.set $at (i32.add (local.get $at) (i32.const 8)))
    (br_if $word (i32.lt_u (local.get $at) (local.get $bytes))))
  (local.get $p))

;; As $alloc, for sizes computed in 64 bits (a size past the address space raises MemoryError).
(func $alloc64 (param $size i64) (result i32)
  (if (i64.le_u (local.get $size) (i64.extend_i32_u (global.get $small_max)))
    (then (return (call $alloc (i32.wrap_i64 (local.get $size))))))
  (call $alloc_large (local.get $size) (i32.const 1)))

;; Free blocks for class `c`, whose free list is empty: the first chunk of the class that the
;; last collection left unswept and that has a free block, swept now (gc.wat, `$gc_sweep`), or
;; else a new chunk cut into blocks. Returns the first block of a chain threaded through the
;; blocks' first words; `$alloc` pops it.
(func $class_refill (param $c i32) (result i32)
  (local $chunk i32) (local $size i32) (local $p i32) (local $end i32) (local $next i32)
  (local $unswept i32)
  (local.set $unswept (i32.add (global.get $class_unswept) (i32.shl (local.get $c) (i32.const 2))))
  (block $none
    (loop $each
      (local.set $chunk (i32.load (local.get $unswept)))
      (br_if $none (i32.eqz (local.get $chunk)))
      (i32.store (local.get $unswept) (i32.load offset=12 (local.get $chunk)))
      (local.set $p (call $sweep_chunk (local.get $chunk)))
      (if (local.get $p) (then (return (local.get $p))))
      (br $each)))
  (local.set $chunk (call $chunks_take (i32.const 1)))
  (call $set_chunk_kinds (local.get $chunk) (i32.const 1) (i32.const 1) (i32.const 0))
  (local.set $size (call $class_size (local.get $c)))
  (i32.store (local.get $chunk) (local.get $size))
  (i32.store offset=4 (local.get $chunk) (local.get $c))
  (i32.store offset=8 (local.get $chunk) (i32.wrap_i64 (i64.div_u
    (i64.add (i64.const 0x1_0000_0000) (i64.extend_i32_u (i32.sub (local.get $size) (i32.const 1))))
    (i64.extend_i32_u (local.get $size)))))
  (memory.fill (i32.add (local.get $chunk) (i32.const 16)) (i32.const 0) (i32.const 1024))
  (local.set $p (i32.add (local.get $chunk) (global.get $chunk_hdr)))
  (local.set $end (i32.add (local.get $chunk) (i32.const 0x10000)))
  (block $done
    (loop $cut
      (local.set $next (i32.add (local.get $p) (local.get $size)))
      (if (i32.gt_u (i32.add (local.get $next) (local.get $size)) (local.get $end))
        (then (i32.store (local.get $p) (i32.const 0)) (br $done)))
      (i32.store (local.get $p) (local.get $next))
      (local.set $p (local.get $next))
      (br $cut)))
  (i32.add (local.get $chunk) (global.get $chunk_hdr)))

;; A large object: its own run of chunks, the object 64 bytes into the first; `zero`: all of it
;; zeroed, else only what $alloc_dirty64 promises.
(func $alloc_large (param $size i64) (param $zero i32) (result i32)
  (local $n i32) (local $chunk i32) (local $p i32) (local $bytes i32)
  (if (i64.gt_u (local.get $size) (i64.const 0xFFF0_0000)) (then (call $raise_memory)))
  (local.set $n (i32.wrap_i64 (i64.shr_u (i64.add (local.get $size) (i64.const 0x1003F)) (i64.const 16))))
  (local.set $chunk (call $chunks_take (local.get $n)))
  (call $set_chunk_kinds (local.get $chunk) (local.get $n) (i32.const 2) (i32.const 3))
  (i32.store (local.get $chunk) (local.get $n))
  (i32.store offset=4 (local.get $chunk) (i32.const 0))
  (local.set $p (i32.add (local.get $chunk) (global.get $large_hdr)))
  (local.set $bytes (i32.wrap_i64 (i64.and (i64.add (local.get $size) (i64.const 7)) (i64.const -8))))
  (if (local.get $zero)
    (then (memory.fill (local.get $p) (i32.const 0) (local.get $bytes)))
    (else
      (i64.store (local.get $p) (i64.const 0))
      (i64.store offset=8 (local.get $p) (i64.const 0))
      (i64.store (i32.sub (i32.add (local.get $p) (local.get $bytes)) (i32.const 8)) (i64.const 0))))
  (local.get $p))

;; As $alloc64, for an object whose caller writes every byte past its first 16 straight away (a
;; str's text): only the first 16 bytes and the last 8 are zeroed (the header, and the padding
;; after the text, which whole-word readers of a str see; docs/abi.md). Zeroing the rest would
;; be written over at once, and costs time and fuel per byte.
(func $alloc_dirty64 (param $size i64) (result i32)
  (local $c i32) (local $head i32) (local $p i32) (local $bytes i32)
  (if (i64.le_u (local.get $size) (i64.const 128))
    (then (return (call $alloc (i32.wrap_i64 (local.get $size))))))
  (if (i64.gt_u (local.get $size) (i64.extend_i32_u (global.get $small_max)))
    (then (return (call $alloc_large (local.get $size) (i32.const 0)))))
  (local.set $c (call $size_class (i32.wrap_i64 (local.get $size))))
  (local.set $head (i32.add (global.get $class_free) (i32.shl (local.get $c) (i32.const 2))))
  (local.set $p (i32.load (local.get $head)))
  (if (i32.eqz (local.get $p)) (then (local.set $p (call $class_refill (local.get $c)))))
  (i32.store (local.get $head) (i32.load (local.get $p)))
  (local.set $bytes (i32.and (i32.add (i32.wrap_i64 (local.get $size)) (i32.const 7)) (i32.const -8)))
  (i64.store (local.get $p) (i64.const 0))
  (i64.store offset=8 (local.get $p) (i64.const 0))
  (i64.store (i32.sub (i32.add (local.get $p) (local.get $bytes)) (i32.const 8)) (i64.const 0))
  (local.get $p))

;; `n` contiguous chunks: the first free run that holds them (split from its front), else new
;; chunks at the top of the heap. Counts them as in use.
(func $chunks_take (param $n i32) (result i32)
  (local $run i32) (local $prev i32) (local $have i32) (local $rest i32)
  (global.set $heap_used (i64.add (global.get $heap_used) (i64.shl (i64.extend_i32_u (local.get $n)) (i64.const 16))))
  (if (i64.gt_u (global.get $heap_used) (global.get $heap_peak))
    (then (global.set $heap_peak (global.get $heap_used))))
  (if (i64.gt_u (global.get $heap_used) (global.get $gc_threshold))
    (then (global.set $gc_due (i32.const 1))))
  (local.set $run (global.get $free_runs))
  (block $none
    (loop $each
      (br_if $none (i32.eqz (local.get $run)))
      (local.set $have (i32.load (local.get $run)))
      (if (i32.ge_u (local.get $have) (local.get $n))
        (then
          (local.set $rest (i32.add (local.get $run) (i32.shl (local.get $n) (i32.const 16))))
          (if (i32.gt_u (local.get $have) (local.get $n))
            (then
              ;; What is left stays a run, in the same place in the list.
              (i32.store (local.get $rest) (i32.sub (local.get $have) (local.get $n)))
              (i32.store offset=4 (local.get $rest) (i32.load offset=4 (local.get $run)))
              (call $set_chunk_kinds (local.get $rest) (i32.const 1) (i32.const 4) (i32.const 0)))
            (else (local.set $rest (i32.load offset=4 (local.get $run)))))
          (if (local.get $prev)
            (then (i32.store offset=4 (local.get $prev) (local.get $rest)))
            (else (global.set $free_runs (local.get $rest))))
          (return (local.get $run))))
      (local.set $prev (local.get $run))
      (local.set $run (i32.load offset=4 (local.get $run)))
      (br $each)))
  (local.set $run (global.get $heap_top))
  (call $heap_grow_to (i64.add (i64.extend_i32_u (local.get $run)) (i64.shl (i64.extend_i32_u (local.get $n)) (i64.const 16))))
  (global.set $heap_top (i32.add (local.get $run) (i32.shl (local.get $n) (i32.const 16))))
  (local.get $run))

;; Makes the memory reach `end` (plus the slack). The memory is kept `$heap_slack` bytes
;; (2 MiB) ahead of the heap top, grown in 2 MiB steps: the host can back the heap with 2 MiB
;; pages (a huge page is used only where its whole extent is mapped when first touched).
;;
;; Near the store's memory limit the first refused growth shrinks the slack to a reserve of
;; 1 MiB (`$heap_reserve`: sixteen chunks, since a handler's few allocations may each need a
;; fresh chunk of their size class), kept free for the handler of the MemoryError to come: when
;; an allocation fits only by using the reserve, MemoryError is raised and the reserve released
;; (slack 0), so `except MemoryError:` can still print, append and format. The limiter is asked
;; again only as the heap reaches the reserve. An allocation too large for even the reserve
;; raises and keeps it.
(global $heap_slack (mut i64) (i64.const 0x20_0000))
(global $heap_reserve i64 (i64.const 0x10_0000))

(func $heap_grow_to (param $end i64)
  (local $have i64) (local $want i64)
  (if (i64.gt_u (local.get $end) (i64.const 0xFFFF_0000)) (then (call $raise_memory)))
  (local.set $have (i64.shl (i64.extend_i32_u (memory.size)) (i64.const 16)))
  (if (i64.le_u (i64.add (local.get $end) (global.get $heap_slack)) (local.get $have)) (then (return)))
  ;; The slack's growth: by what is missing, rounded up to 2 MiB (32 pages); refused, the
  ;; slack becomes the reserve.
  (if (i64.gt_u (global.get $heap_slack) (global.get $heap_reserve))
    (then
      (if (i32.eq (memory.grow (i32.wrap_i64 (i64.and
              (i64.add (i64.shr_u (i64.add (i64.sub (i64.add (local.get $end) (global.get $heap_slack)) (local.get $have))
                (i64.const 0xFFFF)) (i64.const 16)) (i64.const 31))
              (i64.const -32))))
            (i32.const -1))
        (then
          (global.set $heap_slack (global.get $heap_reserve))
          ;; Near the limit: collect at the next safe point rather than when the heap doubles.
          (global.set $gc_due (i32.const 1))))))
  (local.set $have (i64.shl (i64.extend_i32_u (memory.size)) (i64.const 16)))
  (local.set $want (i64.add (local.get $end) (global.get $heap_slack)))
  ;; The pages the allocation and the reserve need, exactly.
  (if (i64.gt_u (local.get $want) (local.get $have))
    (then
      (if (i32.eq (memory.grow (i32.wrap_i64
              (i64.shr_u (i64.add (i64.sub (local.get $want) (local.get $have)) (i64.const 0xFFFF)) (i64.const 16))))
            (i32.const -1))
        (then
          (if (i64.le_u (local.get $end) (local.get $have)) (then (global.set $heap_slack (i64.const 0))))
          (call $raise_memory))))))

;; Gives a block back at once, for memory only its owner can reach (a builder's buffer it has
;; outgrown). Anything a plan value may still point to is left to the collector.
(func $free (param $p i32)
  (local $chunk i32) (local $kind i32) (local $head i32) (local $size i32)
  (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
  (local.set $kind (call $chunk_kind (local.get $chunk)))
  (if (i32.eq (local.get $kind) (i32.const 1))
    (then
      (local.set $size (i32.load (local.get $chunk)))
      (if (global.get $gc_stress)
        (then (memory.fill (local.get $p) (i32.const 0xDB) (local.get $size))))
      (local.set $head (i32.add (global.get $class_free) (i32.shl (i32.load offset=4 (local.get $chunk)) (i32.const 2))))
      (i32.store (local.get $p) (i32.load (local.get $head)))
      (i32.store (local.get $head) (local.get $p))
      (return)))
  (if (i32.eq (local.get $kind) (i32.const 2))
    (then (call $chunks_release (local.get $chunk) (i32.load (local.get $chunk))))))

;; Frees `v` at once when it is a temporary no one else holds: the compiler passes the result
;; of a binary operator or an f-string (with its operands `a` and `b`, 0 for an f-string) right
;; after an operation that only read it (compiler/src/codegen/temporaries.rs). Such a result
;; is a new object, one of the operands, or static, so when it is in the heap and neither
;; operand, nothing else refers to it. Only objects without references are freed (str, boxed
;; int, float): their block is all they hold.
(func $drop_temp (param $v i64) (param $a i64) (param $b i64)
  (local $p i32) (local $t i32)
  (if (i32.or (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))
        (i32.or (i64.eq (local.get $v) (local.get $a)) (i64.eq (local.get $v) (local.get $b))))
    (then (return)))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.lt_u (local.get $p) (global.get $heap_start)) (then (return)))
  (local.set $t (i32.load (local.get $p)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_STR))
        (i32.or (i32.eq (local.get $t) (i32.const TYPE_INT)) (i32.eq (local.get $t) (i32.const TYPE_FLOAT))))
    (then (call $free (local.get $p)))))

;; Puts `n` chunks on the free runs (the sweep merges neighbours). Under stress the chunks are
;; poisoned, so a stale address reads garbage at once.
(func $chunks_release (param $chunk i32) (param $n i32)
  (global.set $heap_used (i64.sub (global.get $heap_used) (i64.shl (i64.extend_i32_u (local.get $n)) (i64.const 16))))
  (if (global.get $gc_stress)
    (then (memory.fill (local.get $chunk) (i32.const 0xDB) (i32.shl (local.get $n) (i32.const 16)))))
  (call $set_chunk_kinds (local.get $chunk) (local.get $n) (i32.const 4) (i32.const 5))
  (i32.store (local.get $chunk) (local.get $n))
  (i32.store offset=4 (local.get $chunk) (global.get $free_runs))
  (global.set $free_runs (local.get $chunk)))

;; Shrinks the block at `p` to `size` bytes where that frees memory: a large object gives back
;; its whole chunks past the new end. A small block keeps its size.
(func $shrink (param $p i32) (param $size i32)
  (local $chunk i32) (local $n i32) (local $keep i32)
  (local.set $chunk (i32.and (local.get $p) (i32.const 0xFFFF_0000)))
  (if (i32.ne (call $chunk_kind (local.get $chunk)) (i32.const 2)) (then (return)))
  (if (i32.ne (local.get $p) (i32.add (local.get $chunk) (global.get $large_hdr))) (then (return)))
  (local.set $n (i32.load (local.get $chunk)))
  (local.set $keep (i32.wrap_i64 (i64.shr_u (i64.add (i64.extend_i32_u (local.get $size)) (i64.const 0x1003F)) (i64.const 16))))
  (if (i32.ge_u (local.get $keep) (local.get $n)) (then (return)))
  (i32.store (local.get $chunk) (local.get $keep))
  (call $chunks_release (i32.add (local.get $chunk) (i32.shl (local.get $keep) (i32.const 16)))
    (i32.sub (local.get $n) (local.get $keep))))
