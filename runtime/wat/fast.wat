;; fast.wat: helpers for the compiler's fast paths (compiler/src/codegen): f-string building
;; without intermediate strings, and common method calls without an argument tuple or a
;; method lookup by name. Every helper falls back to the generic runtime for anything it does
;; not special-case, so results and errors are those of the generic path.

;; ---- f-strings ---------------------------------------------------------------------------------
;; A builder (internal, not a Python value): +0 the str object under construction (its bytes at
;; +16), +4 bytes used, +8 byte capacity, +12 code points. Finishing turns the buffer into the
;; str in place, and gives back the unused tail when nothing was allocated after it.

(func $fsb_new (result i32)
  (local $sb i32)
  (local.set $sb (call $alloc (i32.const 16)))
  (i32.store (local.get $sb) (call $alloc (i32.const 80)))
  (i32.store offset=8 (local.get $sb) (i32.const 64))
  (local.get $sb))

;; Room for `extra` more bytes.
(func $fsb_reserve (param $sb i32) (param $extra i32)
  (local $need i64) (local $cap i64) (local $buf i32)
  (local.set $need (i64.add (i64.extend_i32_u (i32.load offset=4 (local.get $sb)))
    (i64.extend_i32_u (local.get $extra))))
  (local.set $cap (i64.extend_i32_u (i32.load offset=8 (local.get $sb))))
  (if (i64.le_u (local.get $need) (local.get $cap)) (then (return)))
  (loop $double
    (local.set $cap (i64.shl (local.get $cap) (i64.const 1)))
    (br_if $double (i64.lt_u (local.get $cap) (local.get $need))))
  (local.set $buf (call $alloc64 (i64.add (local.get $cap) (i64.const 16))))
  (call $memcpy (i32.add (local.get $buf) (i32.const 16))
    (i32.add (i32.load (local.get $sb)) (i32.const 16)) (i32.load offset=4 (local.get $sb)))
  (i32.store (local.get $sb) (local.get $buf))
  (i32.store offset=8 (local.get $sb) (i32.wrap_i64 (local.get $cap))))

(func $fsb_push_str (param $sb i32) (param $s i64)
  (local $p i32) (local $len i32) (local $used i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $len (i32.load offset=4 (local.get $p)))
  (call $fsb_reserve (local.get $sb) (local.get $len))
  (local.set $used (i32.load offset=4 (local.get $sb)))
  (call $memcpy (i32.add (i32.add (i32.load (local.get $sb)) (i32.const 16)) (local.get $used))
    (i32.add (local.get $p) (i32.const 16)) (local.get $len))
  (i32.store offset=4 (local.get $sb) (i32.add (local.get $used) (local.get $len)))
  (i32.store offset=12 (local.get $sb)
    (i32.add (i32.load offset=12 (local.get $sb)) (i32.load offset=8 (local.get $p)))))

;; Appends the decimal digits of a small int's value `n` (|n| < 2^62, so -n does not overflow).
(func $fsb_push_small (param $sb i32) (param $n i64)
  (local $neg i32) (local $digits i32) (local $m i64) (local $at i32) (local $len i32)
  (local.set $neg (i64.lt_s (local.get $n) (i64.const 0)))
  (if (local.get $neg) (then (local.set $n (i64.sub (i64.const 0) (local.get $n)))))
  (local.set $digits (i32.const 1))
  (local.set $m (local.get $n))
  (block $counted
    (loop $count
      (br_if $counted (i64.lt_u (local.get $m) (i64.const 10)))
      (local.set $m (i64.div_u (local.get $m) (i64.const 10)))
      (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
      (br $count)))
  (local.set $len (i32.add (local.get $digits) (local.get $neg)))
  (call $fsb_reserve (local.get $sb) (local.get $len))
  (local.set $at (i32.add (i32.add (i32.load (local.get $sb)) (i32.const 16)) (i32.load offset=4 (local.get $sb))))
  (if (local.get $neg) (then (i32.store8 (local.get $at) (i32.const 45))))
  (local.set $at (i32.add (local.get $at) (local.get $len)))
  (loop $write
    (local.set $at (i32.sub (local.get $at) (i32.const 1)))
    (i32.store8 (local.get $at)
      (i32.add (i32.const 48) (i32.wrap_i64 (i64.rem_u (local.get $n) (i64.const 10)))))
    (local.set $n (i64.div_u (local.get $n) (i64.const 10)))
    (br_if $write (i64.ne (local.get $n) (i64.const 0))))
  (i32.store offset=4 (local.get $sb) (i32.add (i32.load offset=4 (local.get $sb)) (local.get $len)))
  (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (local.get $len))))

;; Appends str(v).
(func $fsb_push_value (param $sb i32) (param $v i64)
  (if (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))
    (then
      (call $fsb_push_small (local.get $sb) (i64.shr_s (local.get $v) (i64.const 1)))
      (return)))
  (call $fsb_push_str (local.get $sb) (call $to_str (local.get $v))))

(func $fsb_finish (param $sb i32) (result i64)
  (local $s i32) (local $used i32) (local $end i32)
  (local.set $s (i32.load (local.get $sb)))
  (local.set $used (i32.load offset=4 (local.get $sb)))
  (i32.store (local.get $s) (i32.const 5))
  (i32.store offset=4 (local.get $s) (local.get $used))
  (i32.store offset=8 (local.get $s) (i32.load offset=12 (local.get $sb)))
  ;; The buffer is the newest allocation: give back its unused (never written, still zero) tail.
  (local.set $end (i32.and (i32.add (i32.add (local.get $s) (i32.add (i32.load offset=8 (local.get $sb)) (i32.const 16))) (i32.const 7)) (i32.const -8)))
  (if (i32.eq (global.get $heap_top) (local.get $end))
    (then (global.set $heap_top
      (i32.and (i32.add (i32.add (local.get $s) (i32.add (local.get $used) (i32.const 16))) (i32.const 7)) (i32.const -8)))))
  (i64.extend_i32_u (local.get $s)))

;; ---- methods -----------------------------------------------------------------------------------

;; `recv.append(v)`.
(func $fast_append (param $recv i64) (param $name i64) (param $v i64) (result i64)
  (if (i32.eq (call $tid (local.get $recv)) (i32.const 7))
    (then
      (call $list_append (local.get $recv) (local.get $v))
      (return (i64.const 8))))
  (call $call_method (local.get $recv) (local.get $name) (i32.wrap_i64 (call $tuple1 (local.get $v))) (i32.const 0)))

;; `recv.get(k)` (n = 1) or `recv.get(k, default)` (n = 2).
(func $fast_get (param $recv i64) (param $name i64) (param $k i64) (param $default i64) (param $n i32) (result i64)
  (local $v i64) (local $t i32)
  (if (i32.eq (call $tid (local.get $recv)) (i32.const 8))
    (then
      (local.set $v (call $dict_get (local.get $recv) (local.get $k)))
      (if (i64.eqz (local.get $v)) (then (return (local.get $default))))
      (return (local.get $v))))
  (if (i32.eq (local.get $n) (i32.const 1))
    (then (return (call $call_method (local.get $recv) (local.get $name)
      (i32.wrap_i64 (call $tuple1 (local.get $k))) (i32.const 0)))))
  (local.set $t (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $t) (local.get $k))
  (i64.store offset=16 (local.get $t) (local.get $default))
  (call $call_method (local.get $recv) (local.get $name) (local.get $t) (i32.const 0)))
