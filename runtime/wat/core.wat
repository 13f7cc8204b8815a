;; core.wat: allocation, value tags, type objects, exceptions, call frames, the string builder
;; and the module entry point. See docs/abi.md for the layouts this code relies on.

;; ---- allocation ------------------------------------------------------------------------------

;; Allocation and collection: heap.wat and gc.wat.

;; Copies `len` bytes (the ranges may overlap). Short copies are plain loads and stores (up to
;; 16 bytes every load before any store; up to 256 in words when the ranges allow):
;; `memory.copy` is a call out of the module (wasmtime's libcall), which costs more than the
;; copy for the short strings most copies are.
(func $memcpy (param $dst i32) (param $src i32) (param $len i32)
  (local $a i64) (local $b i64) (local $i i32)
  (if (i32.gt_u (local.get $len) (i32.const 16))
    (then
      ;; Up to 256 bytes forwards in words when that is safe (the destination before the
      ;; source, or past its end): lines, words and keys, the copies string work makes most.
      (if (i32.and (i32.le_u (local.get $len) (i32.const 256))
            (i32.or (i32.le_u (local.get $dst) (local.get $src))
              (i32.le_u (i32.add (local.get $src) (local.get $len)) (local.get $dst))))
        (then
          (local.set $a (i64.load (i32.sub (i32.add (local.get $src) (local.get $len)) (i32.const 8))))
          ;; 32 bytes a turn while they last (fewer turns of the loop and its fuel count)
          (block $done32
            (loop $each32
              (br_if $done32 (i32.gt_u (i32.add (local.get $i) (i32.const 32)) (local.get $len)))
              (i64.store (i32.add (local.get $dst) (local.get $i)) (i64.load (i32.add (local.get $src) (local.get $i))))
              (i64.store offset=8 (i32.add (local.get $dst) (local.get $i)) (i64.load offset=8 (i32.add (local.get $src) (local.get $i))))
              (i64.store offset=16 (i32.add (local.get $dst) (local.get $i)) (i64.load offset=16 (i32.add (local.get $src) (local.get $i))))
              (i64.store offset=24 (i32.add (local.get $dst) (local.get $i)) (i64.load offset=24 (i32.add (local.get $src) (local.get $i))))
              (local.set $i (i32.add (local.get $i) (i32.const 32)))
              (br $each32)))
          (block $done
            (loop $each
              (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $len)))
              (i64.store (i32.add (local.get $dst) (local.get $i)) (i64.load (i32.add (local.get $src) (local.get $i))))
              (local.set $i (i32.add (local.get $i) (i32.const 8)))
              (br $each)))
          (i64.store (i32.sub (i32.add (local.get $dst) (local.get $len)) (i32.const 8)) (local.get $a))
          (return)))
      (memory.copy (local.get $dst) (local.get $src) (local.get $len)) (return)))
  (if (i32.ge_u (local.get $len) (i32.const 8))
    (then
      (local.set $a (i64.load (local.get $src)))
      (local.set $b (i64.load (i32.sub (i32.add (local.get $src) (local.get $len)) (i32.const 8))))
      (i64.store (local.get $dst) (local.get $a))
      (i64.store (i32.sub (i32.add (local.get $dst) (local.get $len)) (i32.const 8)) (local.get $b))
      (return)))
  (if (i32.ge_u (local.get $len) (i32.const 4))
    (then
      (local.set $a (i64.load32_u (local.get $src)))
      (local.set $b (i64.load32_u (i32.sub (i32.add (local.get $src) (local.get $len)) (i32.const 4))))
      (i64.store32 (local.get $dst) (local.get $a))
      (i64.store32 (i32.sub (i32.add (local.get $dst) (local.get $len)) (i32.const 4)) (local.get $b))
      (return)))
  (if (i32.eqz (local.get $len)) (then (return)))
  ;; 1-3 bytes: the first, the middle and the last (some of them the same byte).
  (local.set $a (i64.or (i64.load8_u (local.get $src))
    (i64.shl (i64.load8_u (i32.add (local.get $src) (i32.shr_u (local.get $len) (i32.const 1)))) (i64.const 8))))
  (local.set $b (i64.load8_u (i32.sub (i32.add (local.get $src) (local.get $len)) (i32.const 1))))
  (i64.store8 (local.get $dst) (local.get $a))
  (i64.store8 (i32.add (local.get $dst) (i32.shr_u (local.get $len) (i32.const 1))) (i64.shr_u (local.get $a) (i64.const 8)))
  (i64.store8 (i32.sub (i32.add (local.get $dst) (local.get $len)) (i32.const 1)) (local.get $b)))

;; ---- values ------------------------------------------------------------------------------------

(func $is_small (param $v i64) (result i32)
  (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1))))

;; The type id of any value (small ints are ints).
(func $tid (param $v i64) (result i32)
  (if (result i32) (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))
    (then (i32.const 3))
    (else (i32.load (i32.wrap_i64 (local.get $v))))))

(func $ptr (param $v i64) (result i32) (i32.wrap_i64 (local.get $v)))
(func $val (param $p i32) (result i64) (i64.extend_i32_u (local.get $p)))

(func $bool (param $b i32) (result i64)
  (select (i64.const 24) (i64.const 16) (local.get $b)))

;; The type object of a value; for exceptions, their class.
(func $type_of (param $v i64) (result i32)
  (local $t i32)
  (local.set $t (call $tid (local.get $v)))
  ;; Exceptions and records (id 20) carry their class at +8.
  (if (i32.or (i32.eq (local.get $t) (i32.const 12)) (i32.eq (local.get $t) (i32.const 20)))
    (then (return (i32.load offset=8 (i32.wrap_i64 (local.get $v))))))
  ;; Lazy iterators (id 18 with a kind in the header's len: 1 zip, 2 map, 3 filter,
  ;; 4 enumerate, 5 zip(strict=True), 6 a generator expression, 7 iter(callable, sentinel)).
  (if (i32.eq (local.get $t) (i32.const 18))
    (then
      (local.set $t (i32.load offset=4 (i32.wrap_i64 (local.get $v))))
      (if (i32.or (i32.eq (local.get $t) (i32.const 1)) (i32.eq (local.get $t) (i32.const 5)))
        (then (return (global.get $t_zip))))
      (if (i32.eq (local.get $t) (i32.const 2)) (then (return (global.get $t_map))))
      (if (i32.eq (local.get $t) (i32.const 3)) (then (return (global.get $t_filter))))
      (if (i32.eq (local.get $t) (i32.const 4)) (then (return (global.get $t_enumerate))))
      (if (i32.eq (local.get $t) (i32.const 6)) (then (return (global.get $t_generator))))
      (if (i32.eq (local.get $t) (i32.const 7)) (then (return (global.get $t_callable_iterator))))
      (if (i32.eqz (local.get $t)) (then (return (call $container_iterator_type (local.get $v)))))
      (return (global.get $t_iterator))))
  ;; Dict views (id 19): the type follows the kind in the header's len (0 keys, 1 values, 2 items).
  ;; A frozenset is a set marked at +36 (runtime/wat/dict.wat).
  (if (i32.eq (local.get $t) (i32.const 9))
    (then (if (i32.load offset=36 (i32.wrap_i64 (local.get $v))) (then (return (global.get $t_frozenset))))))
  ;; A function (id 10) or builtin (id 14) may present as the other kind, as CPython's are C or
  ;; Python functions (`math.floor`, `json.loads`): the type object at +28 or +20, else its own.
  (if (i32.eq (local.get $t) (i32.const TYPE_FUNCTION))
    (then (if (i32.load offset=28 (i32.wrap_i64 (local.get $v)))
      (then (return (i32.load offset=28 (i32.wrap_i64 (local.get $v))))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_BUILTIN))
    (then (if (i32.load offset=20 (i32.wrap_i64 (local.get $v)))
      (then (return (i32.load offset=20 (i32.wrap_i64 (local.get $v))))))))
  ;; A method taken from its type (`list.append`) is a bound method without a receiver.
  (if (i32.eq (local.get $t) (i32.const TYPE_BOUND_METHOD))
    (then (if (i64.eqz (i64.load offset=8 (i32.wrap_i64 (local.get $v))))
      (then (return (global.get $t_method_descriptor))))))
  (if (i32.eq (local.get $t) (i32.const 19))
    (then
      (local.set $t (i32.load offset=4 (i32.wrap_i64 (local.get $v))))
      (if (i32.eqz (local.get $t)) (then (return (global.get $t_dict_keys))))
      (if (i32.eq (local.get $t) (i32.const 1)) (then (return (global.get $t_dict_values))))
      (return (global.get $t_dict_items))))
  (call $type_object (local.get $t)))

;; The type of an iterator over a container (object type id 18, kind 0), by the container
;; (+8), as CPython names it: list_iterator, str_ascii_iterator, dict_keyiterator, ...; a
;; reverse iterator's type is at +20 (runtime/wat/seq.wat, `$b_reversed`).
(func $container_iterator_type (param $v i64) (result i32)
  (local $p i32) (local $c i64) (local $t i32)
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (local.set $c (i64.load offset=8 (local.get $p)))
  (local.set $t (call $tid (local.get $c)))
  (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
    (then
      (if (i32.load offset=20 (local.get $p)) (then (return (i32.load offset=20 (local.get $p)))))
      (return (global.get $t_list_iterator))))
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (then (return (global.get $t_tuple_iterator))))
  (if (i32.eq (local.get $t) (i32.const TYPE_STR))
    (then (return (select (global.get $t_str_ascii_iterator) (global.get $t_str_iterator)
      (call $str_is_ascii (i32.wrap_i64 (local.get $c)))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_SET)) (then (return (global.get $t_set_iterator))))
  (if (i32.eq (local.get $t) (i32.const TYPE_RANGE)) (then (return (global.get $t_range_iterator))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT)) (then (return (global.get $t_dict_keyiterator))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
    (then
      (local.set $t (i32.load offset=4 (i32.wrap_i64 (local.get $c))))
      (if (i32.eqz (local.get $t)) (then (return (global.get $t_dict_keyiterator))))
      (return (select (global.get $t_dict_valueiterator) (global.get $t_dict_itemiterator)
        (i32.eq (local.get $t) (i32.const 1))))))
  (global.get $t_iterator))

(func $type_name (param $v i64) (result i64)
  (i64.extend_i32_u (i32.load offset=8 (call $type_of (local.get $v)))))

;; A value's type as CPython's argument clinic names it ("must be str, not None"): None by its
;; repr, anything else by its type's name.
(func $clinic_type_name (param $v i64) (result i64)
  (if (result i64) (i64.eq (local.get $v) (i64.const 8))
    (then (call $to_repr (local.get $v)))
    (else (call $type_name (local.get $v)))))

;; Whether class `c` is `t` or derives from it.
(func $is_subclass (param $c i32) (param $t i32) (result i32)
  (block $no
    (loop $up
      (br_if $no (i32.eqz (local.get $c)))
      (if (i32.eq (local.get $c) (local.get $t)) (then (return (i32.const 1))))
      (local.set $c (i32.load offset=12 (local.get $c)))
      (br $up)))
  (i32.const 0))

(func $isinstance_t (param $v i64) (param $t i32) (result i32)
  (call $is_subclass (call $type_of (local.get $v)) (local.get $t)))

;; ---- the string builder ------------------------------------------------------------------------
;; An internal object (not a Python value): +0 buffer, +4 bytes used, +8 capacity, +12 chars.

(func $sb_new (result i32)
  (local $sb i32)
  (local.set $sb (call $alloc (i32.const 16)))
  (i32.store (local.get $sb) (call $alloc (i32.const 64)))
  (i32.store offset=8 (local.get $sb) (i32.const 64))
  (local.get $sb))

(func $sb_reserve (param $sb i32) (param $extra i32)
  (local $need i64) (local $cap i64) (local $buf i32)
  (local.set $need (i64.add (i64.extend_i32_u (i32.load offset=4 (local.get $sb)))
    (i64.extend_i32_u (local.get $extra))))
  (local.set $cap (i64.extend_i32_u (i32.load offset=8 (local.get $sb))))
  (if (i64.le_u (local.get $need) (local.get $cap)) (then (return)))
  (loop $double
    (local.set $cap (i64.shl (local.get $cap) (i64.const 1)))
    (br_if $double (i64.lt_u (local.get $cap) (local.get $need))))
  (local.set $buf (call $alloc64 (local.get $cap)))
  (call $memcpy (local.get $buf) (i32.load (local.get $sb)) (i32.load offset=4 (local.get $sb)))
  ;; Only the builder refers to its buffer.
  (call $free (i32.load (local.get $sb)))
  (i32.store (local.get $sb) (local.get $buf))
  (i32.store offset=8 (local.get $sb) (i32.wrap_i64 (local.get $cap))))

;; Appends UTF-8 bytes that are known to be `chars` code points. (The room is checked here and
;; `$sb_reserve` called only to grow: most pushes fit, and these run per piece of every repr,
;; JSON document and formatted message.)
(func $sb_push_counted (param $sb i32) (param $src i32) (param $len i32) (param $chars i32)
  (local $used i32)
  (local.set $used (i32.load offset=4 (local.get $sb)))
  (if (i64.gt_u (i64.add (i64.extend_i32_u (local.get $used)) (i64.extend_i32_u (local.get $len)))
        (i64.extend_i32_u (i32.load offset=8 (local.get $sb))))
    (then (call $sb_reserve (local.get $sb) (local.get $len))))
  (call $memcpy (i32.add (i32.load (local.get $sb)) (local.get $used)) (local.get $src) (local.get $len))
  (i32.store offset=4 (local.get $sb) (i32.add (local.get $used) (local.get $len)))
  (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (local.get $chars))))

;; Appends UTF-8 bytes, counting their code points.
(func $sb_push_bytes (param $sb i32) (param $src i32) (param $len i32)
  (call $sb_push_counted (local.get $sb) (local.get $src) (local.get $len)
    (call $utf8_count (local.get $src) (local.get $len))))

(func $sb_push_str (param $sb i32) (param $s i64)
  (local $p i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (call $sb_push_counted (local.get $sb) (i32.add (local.get $p) (i32.const 16))
    (i32.load offset=4 (local.get $p)) (i32.load offset=8 (local.get $p))))

;; Appends one ASCII byte.
(func $sb_push_byte (param $sb i32) (param $b i32)
  (local $used i32)
  (local.set $used (i32.load offset=4 (local.get $sb)))
  (if (i32.ge_u (local.get $used) (i32.load offset=8 (local.get $sb)))
    (then (call $sb_reserve (local.get $sb) (i32.const 1))))
  (i32.store8 (i32.add (i32.load (local.get $sb)) (local.get $used)) (local.get $b))
  (i32.store offset=4 (local.get $sb) (i32.add (local.get $used) (i32.const 1)))
  (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (i32.const 1))))

;; The number of decimal digits of `u` (unsigned), and the digits written back from `end` (the
;; address just past the last one): the one decimal writer of the str builders (`$sb_push_i64`,
;; fast.wat's `$fsb_push_small`) and of `str(i)` (ops.wat's `$small_int_str`). The magnitude of
;; a negative i64 is `0 - n` taken as unsigned, which holds even i64::MIN's.
(func $decimal_len (param $u i64) (result i32)
  (local $len i32)
  (local.set $len (i32.const 1))
  (block $counted
    (loop $count
      (br_if $counted (i64.lt_u (local.get $u) (i64.const 10)))
      (local.set $u (i64.div_u (local.get $u) (i64.const 10)))
      (local.set $len (i32.add (local.get $len) (i32.const 1)))
      (br $count)))
  (local.get $len))

(func $decimal_write (param $end i32) (param $u i64)
  (loop $digits
    (local.set $end (i32.sub (local.get $end) (i32.const 1)))
    (i32.store8 (local.get $end) (i32.add (i32.const 48) (i32.wrap_i64 (i64.rem_u (local.get $u) (i64.const 10)))))
    (local.set $u (i64.div_u (local.get $u) (i64.const 10)))
    (br_if $digits (i64.ne (local.get $u) (i64.const 0)))))

;; Appends the decimal digits of a signed 64-bit integer, written straight into the builder.
(func $sb_push_i64 (param $sb i32) (param $n i64)
  (local $neg i32) (local $u i64) (local $len i32) (local $at i32)
  (local.set $neg (i64.lt_s (local.get $n) (i64.const 0)))
  (local.set $u (select (i64.sub (i64.const 0) (local.get $n)) (local.get $n) (local.get $neg)))
  (local.set $len (i32.add (call $decimal_len (local.get $u)) (local.get $neg)))
  (call $sb_reserve (local.get $sb) (local.get $len))
  (local.set $at (i32.add (i32.load (local.get $sb)) (i32.load offset=4 (local.get $sb))))
  (if (local.get $neg) (then (i32.store8 (local.get $at) (i32.const 45))))
  (call $decimal_write (i32.add (local.get $at) (local.get $len)) (local.get $u))
  (i32.store offset=4 (local.get $sb) (i32.add (i32.load offset=4 (local.get $sb)) (local.get $len)))
  (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (local.get $len))))

;; Finishes the builder into a new str object.
(func $sb_finish (param $sb i32) (result i64)
  (local $s i32)
  (local.set $s (call $str_alloc_filled (i64.extend_i32_u (i32.load offset=4 (local.get $sb)))
    (i32.load offset=12 (local.get $sb))))
  (call $memcpy (i32.add (local.get $s) (i32.const 16)) (i32.load (local.get $sb))
    (i32.load offset=4 (local.get $sb)))
  (call $free (i32.load (local.get $sb)))
  (call $free (local.get $sb))
  (i64.extend_i32_u (local.get $s)))

;; A new str object with room for `nbytes` bytes of `nchars` code points, bytes at +16.
(func $str_alloc (param $nbytes i32) (param $nchars i32) (result i32)
  (local $s i32)
  (local.set $s
    (if (result i32) (i32.lt_u (local.get $nbytes) (i32.const 0x7FFF_0000))
      (then (call $alloc (i32.add (local.get $nbytes) (i32.const 16))))
      (else (call $alloc64 (i64.add (i64.extend_i32_u (local.get $nbytes)) (i64.const 16))))))
  (i32.store (local.get $s) (i32.const TYPE_STR))
  (i32.store offset=4 (local.get $s) (local.get $nbytes))
  (i32.store offset=8 (local.get $s) (local.get $nchars))
  (local.get $s))

(func $utf8_count (param $p i32) (param $len i32) (result i32)
  (local $end i32) (local $n i32)
  (local.set $end (i32.add (local.get $p) (local.get $len)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (if (i32.ne (i32.and (i32.load8_u (local.get $p)) (i32.const 0xC0)) (i32.const 0x80))
        (then (local.set $n (i32.add (local.get $n) (i32.const 1)))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $each)))
  (local.get $n))

;; A message from a static template whose `{}` is replaced by the str `arg` (first occurrence).
(func $msg1 (param $template i32) (param $arg i64) (result i64)
  (call $msg2 (local.get $template) (local.get $arg) (i64.const 0)))

;; As $msg1 with two `{}` placeholders; a 0 argument leaves its placeholder out.
(func $msg2 (param $template i32) (param $a i64) (param $b i64) (result i64)
  (local $sb i32) (local $p i32) (local $end i32) (local $which i32) (local $c i32)
  (local.set $sb (call $sb_new))
  (local.set $p (i32.add (local.get $template) (i32.const 16)))
  (local.set $end (i32.add (local.get $p) (i32.load offset=4 (local.get $template))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.and (i32.eq (local.get $c) (i32.const 123))
            (i32.eq (i32.load8_u offset=1 (local.get $p)) (i32.const 125)))
        (then
          (if (i32.eqz (local.get $which))
            (then (if (i64.ne (local.get $a) (i64.const 0)) (then (call $sb_push_str (local.get $sb) (local.get $a)))))
            (else (if (i64.ne (local.get $b) (i64.const 0)) (then (call $sb_push_str (local.get $sb) (local.get $b))))))
          (local.set $which (i32.add (local.get $which) (i32.const 1)))
          (local.set $p (i32.add (local.get $p) (i32.const 2)))
          (br $each)))
      (call $sb_push_bytes (local.get $sb) (local.get $p) (i32.const 1))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $each)))
  (call $sb_finish (local.get $sb)))

;; ---- exceptions --------------------------------------------------------------------------------

;; A new exception of class `type` (a type object) with the tuple `args`. Layout: +8 class,
;; +12 args, +16 traceback frames, +20 cause, +24 the attributes some classes have beside args
;; (a dict, or 0: JSONDecodeError's `msg` and `pos`, UnicodeEncodeError's `reason`, ...), +28
;; the context (the exception being handled when this one was first raised, `__context__`)
;; with bit 0 set when it is not to be printed (`raise ... from ...`: `__suppress_context__`).
(func $exc_new (param $type i32) (param $args i64) (result i64)
  (local $e i32)
  (local.set $e (call $alloc (i32.const 32)))
  (i32.store (local.get $e) (i32.const TYPE_EXCEPTION))
  (i32.store offset=8 (local.get $e) (local.get $type))
  (i32.store offset=12 (local.get $e) (i32.wrap_i64 (local.get $args)))
  (i64.extend_i32_u (local.get $e)))

;; Sets the attribute `name` (a static str) of the exception `e` to `v`.
(func $exc_set_attr (param $e i64) (param $name i32) (param $v i64)
  (local $p i32)
  (local.set $p (i32.wrap_i64 (local.get $e)))
  (if (i32.eqz (i32.load offset=24 (local.get $p)))
    (then (i32.store offset=24 (local.get $p) (i32.wrap_i64 (call $dict_new)))))
  (call $dict_set (i64.extend_i32_u (i32.load offset=24 (local.get $p)))
    (i64.extend_i32_u (local.get $name)) (local.get $v)))

;; A tuple of one value.
(func $tuple1 (param $v i64) (result i64)
  (local $t i32)
  (local.set $t (call $alloc (i32.const 16)))
  (i32.store (local.get $t) (i32.const TYPE_TUPLE))
  (i32.store offset=4 (local.get $t) (i32.const 1))
  (i64.store offset=8 (local.get $t) (local.get $v))
  (i64.extend_i32_u (local.get $t)))

;; The exception the innermost running `except` clause handles (or the one a `finally` body runs
;; for), anywhere up the call chain, or 0: what a bare `raise` re-raises in a function that runs
;; no handler of its own (`def fail(): raise`, called from an `except` block), as CPython's
;; sys.exc_info(). Compiled code sets it as a handler starts and, when the handler ends or a jump
;; leaves it, sets back the value it had when the `try` started; a handler left by an exception
;; leaves it to the handler that catches that one. The collector marks it.
(global $handled (mut i64) (i64.const 0))

;; A bare `raise` in code that runs no handler of its own function.
(func $reraise_handled
  (if (i64.eqz (global.get $handled))
    (then (call $raise_static (global.get $t_RuntimeError) (global.get $s_no_active_exception))))
  (call $reraise (global.get $handled)))

;; Raises a value: an exception object, or an exception class (instantiated without arguments).
(func $raise (param $v i64)
  (throw $exc (call $raise_prepare (local.get $v))))

;; Raises again an exception that was raised and caught: a bare `raise`, one no handler
;; matched, one a `finally` body ran for. As it is: its traceback and context stay, as CPython
;; re-raises the traceback it has. A call, not a `throw` in the plan's code, which Cranelift
;; would compile into an exception object's allocation at every such place.
(func $reraise (param $e i64)
  (global.set $aug_op (i32.const 0))
  (throw $exc (local.get $e)))

;; What raising `v` does before it is thrown: the exception object it raises (a class is
;; instantiated without arguments; anything else raises TypeError), with where it was raised
;; recorded: the frame stack, or for an exception raised before (`raise e`; a bare `raise` is
;; `$reraise`) the frame stack ahead of the traceback it has ($frames_reraised); and the
;; exception being handled, if another, as its context. Compiled code that catches the
;; exception in the same function branches to its handlers with the result instead of throwing.
(func $raise_prepare (param $v i64) (result i64)
  (local $t i32) (local $old i32)
  ;; Whatever raises, an augmented assignment's operator is no longer running (ops.wat).
  (global.set $aug_op (i32.const 0))
  (local.set $t (call $tid (local.get $v)))
  (if (i32.eq (local.get $t) (i32.const 13))
    (then
      (if (call $is_subclass (i32.wrap_i64 (local.get $v)) (global.get $t_BaseException))
        (then
          (local.set $v (call $exc_new (i32.wrap_i64 (local.get $v)) (i64.extend_i32_u (global.get $empty_tuple))))
          (local.set $t (i32.const 12))))))
  (if (i32.ne (local.get $t) (i32.const 12))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_raise_non_exception))))
  ;; The static MemoryError keeps the frames `$raise_memory` copied: it is outside the heap,
  ;; so nothing it points to would be marked.
  (if (i64.eq (local.get $v) (i64.extend_i32_u (global.get $memory_error)))
    (then (return (local.get $v))))
  (local.set $old (i32.load offset=16 (i32.wrap_i64 (local.get $v))))
  (i32.store offset=16 (i32.wrap_i64 (local.get $v))
    (if (result i32) (local.get $old)
      (then (call $frames_reraised (local.get $old)))
      (else (call $frames_snapshot))))
  ;; Raised while another is handled: that one is its context (raised again, its new one; as
  ;; CPython's, a context or cause leading back to `v` is printed once: `$format_chain`).
  (if (i32.and (i64.ne (global.get $handled) (i64.const 0))
               (i64.ne (global.get $handled) (local.get $v)))
    (then
      (i32.store offset=28 (i32.wrap_i64 (local.get $v))
        (i32.or (i32.and (i32.load offset=28 (i32.wrap_i64 (local.get $v))) (i32.const 1))
                (i32.wrap_i64 (global.get $handled))))))
  (local.get $v))

;; Raises `type(msg)` where msg is a str value.
(func $raise_msg (param $type i32) (param $msg i64)
  (call $raise (call $exc_new (local.get $type) (call $tuple1 (local.get $msg)))))

;; Raises `type(msg)` with a static message.
(func $raise_static (param $type i32) (param $msg i32)
  ;; The recursion limit counts other frames than CPython's (a documented deviation), so the
  ;; differential tester's runs that make deviations trap trap where it is reached.
  (if (global.get $trap_deviations)
    (then (if (i32.eq (local.get $type) (global.get $t_RecursionError)) (then (call $recursion_trap)))))
  (call $raise_msg (local.get $type) (i64.extend_i32_u (local.get $msg))))

;; MemoryError must not allocate: it raises a preallocated exception, its traceback the frame
;; stack copied into a static region ($memory_error_frames, $frames_snapshot's layout), so an
;; uncaught MemoryError shows where it happened as CPython's does.
(func $raise_memory
  (local $n i32)
  (global.set $heap_exhausted (i32.const 1))
  (local.set $n (global.get $depth))
  (if (i32.gt_u (local.get $n) (i32.add (global.get $max_depth) (i32.const 8)))
    (then (local.set $n (i32.add (global.get $max_depth) (i32.const 8)))))
  (i32.store (global.get $memory_error_frames) (local.get $n))
  (call $memcpy (i32.add (global.get $memory_error_frames) (i32.const 8))
    (i32.add (global.get $frames) (i32.const 8)) (i32.shl (local.get $n) (i32.const 3)))
  (i32.store offset=16 (global.get $memory_error) (global.get $memory_error_frames))
  (throw $exc (i64.extend_i32_u (global.get $memory_error))))

;; `raise X from Y`. Y is an exception, an exception class (instantiated) or None; anything
;; else raises TypeError, as in CPython, once X itself is known to be raisable.
(func $raise_from (param $v i64) (param $cause i64)
  (local $t i32)
  (if (i32.eq (call $tid (local.get $v)) (i32.const TYPE_TYPE))
    (then
      (if (call $is_exception_class (local.get $v))
        (then (local.set $v (call $exc_new (i32.wrap_i64 (local.get $v)) (i64.extend_i32_u (global.get $empty_tuple))))))))
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_EXCEPTION))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_raise_non_exception))))
  (if (call $is_exception_class (local.get $cause))
    (then (local.set $cause (call $exc_new (i32.wrap_i64 (local.get $cause)) (i64.extend_i32_u (global.get $empty_tuple))))))
  (if (i32.eqz (i32.or (i32.eq (call $tid (local.get $cause)) (i32.const TYPE_EXCEPTION))
                       (i64.eq (local.get $cause) (i64.const 8))))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_raise_bad_cause))))
  (if (i32.eq (call $tid (local.get $v)) (i32.const TYPE_EXCEPTION))
    (then
      (if (i32.eq (call $tid (local.get $cause)) (i32.const TYPE_EXCEPTION))
        (then (i32.store offset=20 (i32.wrap_i64 (local.get $v)) (i32.wrap_i64 (local.get $cause)))))
      ;; A cause, or `from None`, hides the context in tracebacks.
      (i32.store offset=28 (i32.wrap_i64 (local.get $v))
        (i32.or (i32.load offset=28 (i32.wrap_i64 (local.get $v))) (i32.const 1)))))
  (call $raise (local.get $v)))

;; Whether `v` is a class deriving from BaseException. Only a type object's base chain is
;; followed: anything else (an int, a function, a str) is no class at all.
(func $is_exception_class (param $v i64) (result i32)
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_TYPE)) (then (return (i32.const 0))))
  (call $is_subclass (i32.wrap_i64 (local.get $v)) (global.get $t_BaseException)))

;; Whether exception `e` matches an `except` clause's class or tuple of classes. As CPython,
;; every member of a tuple must be an exception class (a nested tuple is not), checked before
;; any is matched; anything else raises TypeError.
(func $exc_matches (param $e i64) (param $spec i64) (result i32)
  (local $i i32) (local $n i32) (local $items i32) (local $class i32)
  (local.set $class (i32.load offset=8 (i32.wrap_i64 (local.get $e))))
  (if (i32.ne (call $tid (local.get $spec)) (i32.const TYPE_TUPLE))
    (then
      (if (i32.eqz (call $is_exception_class (local.get $spec)))
        (then (call $raise_static (global.get $t_TypeError) (global.get $s_catch_non_exception))))
      (return (call $is_subclass (local.get $class) (i32.wrap_i64 (local.get $spec))))))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $spec))))
  (local.set $items (i32.add (i32.wrap_i64 (local.get $spec)) (i32.const 8)))
  (block $valid
    (loop $each
      (br_if $valid (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.eqz (call $is_exception_class (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3))))))
        (then (call $raise_static (global.get $t_TypeError) (global.get $s_catch_non_exception))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (local.set $i (i32.const 0))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (call $is_subclass (local.get $class)
            (i32.wrap_i64 (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3))))))
        (then (return (i32.const 1))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const 0))

;; str(exception): "" without args, str(arg) with one (repr for KeyError), else repr(args).
(func $exc_str (param $e i64) (result i64)
  (local $args i32) (local $n i32)
  (local.set $args (i32.load offset=12 (i32.wrap_i64 (local.get $e))))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (local.get $n)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
  ;; A UnicodeEncodeError words its five arguments (runtime/wat/str.wat).
  (if (i32.and (i32.eq (local.get $n) (i32.const 5))
        (i32.eq (i32.load offset=8 (i32.wrap_i64 (local.get $e))) (global.get $t_UnicodeEncodeError)))
    (then (return (call $unicode_encode_error_str (local.get $args)))))
  (if (i32.eq (local.get $n) (i32.const 1))
    (then
      (if (i32.eq (i32.load offset=8 (i32.wrap_i64 (local.get $e))) (global.get $t_KeyError))
        (then (return (call $to_repr (i64.load offset=8 (local.get $args))))))
      (return (call $to_str (i64.load offset=8 (local.get $args))))))
  (call $to_repr (i64.extend_i32_u (local.get $args))))

;; ---- call frames -------------------------------------------------------------------------------

;; Enters a Python frame named by the str at `name`; returns its depth. Raises RecursionError
;; beyond the limit (CPython's default of 1000).
(func $enter (param $name i32) (result i32)
  (local $d i32) (local $slot i32)
  (local.set $d (i32.add (global.get $depth) (i32.const 1)))
  (global.set $depth (local.get $d))
  (local.set $slot (i32.add (global.get $frames) (i32.shl (local.get $d) (i32.const 3))))
  (i32.store (local.get $slot) (local.get $name))
  (i32.store offset=4 (local.get $slot) (i32.const 0))
  (if (i32.gt_u (local.get $d) (global.get $max_depth))
    (then
      (global.set $depth (i32.sub (local.get $d) (i32.const 1)))
      (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion))))
  (local.get $d))

;; A plan function's entry beyond a limit: one frame deeper than the depth limit, or a shadow
;; frame beyond the shadow stack's end. The function's prologue (compiler/src/codegen/shadow.rs)
;; tests both at once, before it pushes anything, so the traceback ends at the caller's frame, as
;; CPython's does. No arguments: the one call site in every function is as small as it can be.
(func $raise_recursion
  (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion)))

;; A comprehension's frame (`<listcomp>`, `<genexpr>`, ...: CPython 3.11 runs each in a frame of
;; its own, one deeper than the code that evaluates it), pushed with its name and line; returns the
;; new depth. Past the limit it raises RecursionError with the frame pushed, as CPython's
;; traceback shows it. A call rather than inline code in the plan: the push is a dozen memory and
;; global accesses and a branch that Cranelift would compile at every comprehension of a plan
;; (2% of compiling a generated plan of 780 lines), and it runs once per comprehension, not per item.
(func $enter_comprehension (param $name i32) (param $line i32) (result i32)
  (local $d i32) (local $slot i32)
  (local.set $d (i32.add (global.get $depth) (i32.const 1)))
  (global.set $depth (local.get $d))
  (local.set $slot (i32.add (global.get $frames) (i32.shl (local.get $d) (i32.const 3))))
  (i32.store (local.get $slot) (local.get $name))
  (i32.store offset=4 (local.get $slot) (local.get $line))
  (if (i32.gt_u (local.get $d) (global.get $max_depth))
    (then (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion))))
  (local.get $d))

(func $leave (param $d i32)
  (global.set $depth (i32.sub (local.get $d) (i32.const 1))))

;; A handler caught an exception in the frame at depth `d`, whose shadow frame ends at
;; `shadow_top`: gives back what the throw abandoned below it, on both stacks. One call for both
;; (compiler/src/codegen/shadow.rs, `RESUME`): a store to a global imported from the runtime is
;; two loads and a store for Cranelift to compile in every handler, a call argument less.
(func $resume (param $d i32) (param $shadow_top i32)
  (global.set $depth (local.get $d))
  (global.set $shadow_top (local.get $shadow_top)))

;; A handler (or a `finally` body) of the exception `e` in the frame at depth `d` starts: `e` is
;; the one a bare `raise` re-raises and the context of any raised meanwhile; the depth is kept in
;; its frames' copy (+4), where a traceback printed as a context or cause starts (CPython's
;; holds the frames from where the exception was handled to where it was raised).
(func $handle (param $e i64) (param $d i32)
  (local $frames i32)
  (global.set $handled (local.get $e))
  (if (i32.eq (call $tid (local.get $e)) (i32.const TYPE_EXCEPTION))
    (then
      (local.set $frames (i32.load offset=16 (i32.wrap_i64 (local.get $e))))
      (if (local.get $frames) (then (i32.store offset=4 (local.get $frames) (local.get $d)))))))

;; Guards recursion inside the runtime (repr or equality of deeply nested containers).
(func $native_enter
  (global.set $native_depth (i32.add (global.get $native_depth) (i32.const 1)))
  (if (i32.gt_u (global.get $native_depth) (global.get $max_depth))
    (then
      (global.set $native_depth (i32.const 0))
      (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion)))))

(func $native_leave
  (global.set $native_depth (i32.sub (global.get $native_depth) (i32.const 1))))

;; Copies the frame stack: +0 count, then (name, line) pairs for depths 1..count.
(func $frames_snapshot (result i32)
  (local $n i32) (local $copy i32)
  (local.set $n (global.get $depth))
  (if (i32.gt_u (local.get $n) (i32.add (global.get $max_depth) (i32.const 8)))
    (then (local.set $n (i32.add (global.get $max_depth) (i32.const 8)))))
  (local.set $copy (call $alloc (i32.add (i32.const 8) (i32.shl (local.get $n) (i32.const 3)))))
  (i32.store (local.get $copy) (local.get $n))
  (call $memcpy (i32.add (local.get $copy) (i32.const 8))
    (i32.add (global.get $frames) (i32.const 8)) (i32.shl (local.get $n) (i32.const 3)))
  (local.get $copy))

;; The traceback of an exception raised again by `raise e`, from its frames copy `old`: the frame
;; stack down to this raise, then `old` from the frame that last handled it (+4 of the copy,
;; `$handle`; from the first when none did) to where it was first raised. CPython's traceback
;; grows so: each frame the exception passes adds an entry ahead of what it had. A copy holds
;; at most a snapshot's bound (the recursion limit + 8 frames): past it the outermost entries
;; go, which CPython does not print either (it prints the innermost 1000, `$format_one`), and
;; one exception re-raised in a loop costs at most that bound each time.
(func $frames_reraised (param $old i32) (result i32)
  (local $n i32) (local $from i32) (local $keep i32) (local $copy i32) (local $cap i32)
  (local $skip i32) (local $over i32)
  (local.set $n (global.get $depth))
  (local.set $cap (i32.add (global.get $max_depth) (i32.const 8)))
  (if (i32.gt_u (local.get $n) (local.get $cap))
    (then
      (local.set $skip (i32.sub (local.get $n) (local.get $cap)))
      (local.set $n (local.get $cap))))
  (local.set $from (i32.load offset=4 (local.get $old)))
  (if (i32.eqz (local.get $from)) (then (local.set $from (i32.const 1))))
  (if (i32.gt_u (local.get $from) (i32.load (local.get $old)))
    (then (return (call $frames_snapshot))))
  (local.set $keep (i32.sub (i32.add (i32.load (local.get $old)) (i32.const 1)) (local.get $from)))
  (if (i32.gt_u (local.get $keep) (local.get $cap))
    (then
      (local.set $from (i32.add (local.get $from) (i32.sub (local.get $keep) (local.get $cap))))
      (local.set $keep (local.get $cap))))
  ;; Past the bound, the outermost frames of this raise go (`skip` of them; never more than
  ;; there are, since `keep` is within the bound).
  (if (i32.gt_u (i32.add (local.get $n) (local.get $keep)) (local.get $cap))
    (then
      (local.set $over (i32.sub (i32.add (local.get $n) (local.get $keep)) (local.get $cap)))
      (local.set $skip (i32.add (local.get $skip) (local.get $over)))
      (local.set $n (i32.sub (local.get $n) (local.get $over)))))
  (local.set $copy (call $alloc (i32.add (i32.const 8)
    (i32.shl (i32.add (local.get $n) (local.get $keep)) (i32.const 3)))))
  (i32.store (local.get $copy) (i32.add (local.get $n) (local.get $keep)))
  (i32.store offset=4 (local.get $copy) (i32.const 0))
  (call $memcpy (i32.add (local.get $copy) (i32.const 8))
    (i32.add (global.get $frames) (i32.shl (i32.add (local.get $skip) (i32.const 1)) (i32.const 3)))
    (i32.shl (local.get $n) (i32.const 3)))
  (call $memcpy (i32.add (i32.add (local.get $copy) (i32.const 8)) (i32.shl (local.get $n) (i32.const 3)))
    (i32.add (local.get $old) (i32.shl (local.get $from) (i32.const 3)))
    (i32.shl (local.get $keep) (i32.const 3)))
  (local.get $copy))

;; The text CPython prints for an uncaught exception, as a str object: its cause's or context's
;; first (and theirs before them), then its own traceback.
(func $format_uncaught (param $e i64) (result i32)
  (local $sb i32) (local $seen i32)
  (local.set $sb (call $sb_new))
  ;; The exceptions of the chain printed so far: +0 their count, then up to 32 addresses.
  (local.set $seen (call $alloc (i32.const 136)))
  (call $format_chain (local.get $sb) (local.get $e) (local.get $seen))
  (i32.wrap_i64 (call $str_escape_surrogates (call $sb_finish (local.get $sb)))))

;; Appends to `sb` what leads to `e` (its cause, else its context unless hidden, each with
;; CPython's line between them), then `e`'s traceback. As CPython's, the chain stops at an
;; exception already in it (`seen`: a cause may lead back to one), and at 32 tracebacks.
(func $format_chain (param $sb i32) (param $e i64) (param $seen i32)
  (local $p i32) (local $n i32) (local $next i32) (local $line i32) (local $i i32)
  (local.set $p (i32.wrap_i64 (local.get $e)))
  (local.set $n (i32.load (local.get $seen)))
  (i32.store (i32.add (local.get $seen) (i32.shl (i32.add (local.get $n) (i32.const 1)) (i32.const 2)))
    (local.get $p))
  (i32.store (local.get $seen) (i32.add (local.get $n) (i32.const 1)))
  (if (i32.load offset=20 (local.get $p))
    (then
      (local.set $next (i32.load offset=20 (local.get $p)))
      (local.set $line (global.get $s_traceback_cause)))
    (else
      (local.set $next (i32.load offset=28 (local.get $p)))
      (local.set $line (global.get $s_traceback_context))
      ;; (bit 0: the context is hidden)
      (if (i32.and (local.get $next) (i32.const 1)) (then (local.set $next (i32.const 0))))))
  (if (i32.ge_u (local.get $n) (i32.const 31)) (then (local.set $next (i32.const 0))))
  (block $printed
    (loop $each
      (br_if $printed (i32.gt_u (local.get $i) (local.get $n)))
      (if (i32.eq (i32.load offset=4 (i32.add (local.get $seen) (i32.shl (local.get $i) (i32.const 2))))
                  (local.get $next))
        (then (local.set $next (i32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (if (local.get $next)
    (then
      (call $format_chain (local.get $sb) (i64.extend_i32_u (local.get $next)) (local.get $seen))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (local.get $line)))))
  (call $format_one (local.get $sb) (local.get $e) (i32.ne (local.get $n) (i32.const 0))))

;; After a run of `count` frames alike, of which three were printed: how many were not.
(func $format_repeated (param $sb i32) (param $count i32)
  (if (i32.le_u (local.get $count) (i32.const 3)) (then (return)))
  (local.set $count (i32.sub (local.get $count) (i32.const 3)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_traceback_repeated)))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $count)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_traceback_more_time)))
  (if (i32.gt_u (local.get $count) (i32.const 1)) (then (call $sb_push_byte (local.get $sb) (i32.const 115))))
  (call $sb_push_byte (local.get $sb) (i32.const 93))
  (call $sb_push_byte (local.get $sb) (i32.const 10)))

;; Appends to `sb` the traceback of `e` alone: the header, its frames, its class and message.
;; `handled`: `e` is a context or cause, printed from the frame that handled it (`$handle`). An
;; exception never raised (a cause made for `raise ... from`) has no frames and, as in
;; CPython's report, no header either.
(func $format_one (param $sb i32) (param $e i64) (param $handled i32)
  (local $frames i32) (local $n i32) (local $i i32) (local $msg i64) (local $pair i32)
  (local $last_line i32) (local $last_name i32) (local $count i32)
  (local.set $frames (i32.load offset=16 (i32.wrap_i64 (local.get $e))))
  (if (local.get $frames)
    (then
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_traceback_header)))
      (local.set $n (i32.load (local.get $frames)))
      ;; (the frames block's +4: the depth of the frame that handled it, 1-based; 0: none)
      (if (i32.and (local.get $handled) (i32.gt_u (i32.load offset=4 (local.get $frames)) (i32.const 1)))
        (then
          (local.set $i (i32.sub (i32.load offset=4 (local.get $frames)) (i32.const 1)))
          (if (i32.gt_u (local.get $i) (local.get $n)) (then (local.set $i (local.get $n))))))
      ;; At most the innermost 1000 frames, as CPython prints (its default traceback limit).
      (if (i32.gt_u (i32.sub (local.get $n) (local.get $i)) (i32.const 1000))
        (then (local.set $i (i32.sub (local.get $n) (i32.const 1000)))))
      ;; As CPython's traceback module prints: a frame the same as the one before it (file,
      ;; line, function) is printed three times at most, then one line says how many more.
      (local.set $last_line (i32.const -1))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $pair (i32.add (i32.add (local.get $frames) (i32.const 8)) (i32.shl (local.get $i) (i32.const 3))))
          (if (i32.or (i32.ne (i32.load offset=4 (local.get $pair)) (local.get $last_line))
                      (i32.ne (i32.load (local.get $pair)) (local.get $last_name)))
            (then
              (call $format_repeated (local.get $sb) (local.get $count))
              (local.set $last_line (i32.load offset=4 (local.get $pair)))
              (local.set $last_name (i32.load (local.get $pair)))
              (local.set $count (i32.const 0))))
          (local.set $count (i32.add (local.get $count) (i32.const 1)))
          (if (i32.le_u (local.get $count) (i32.const 3))
            (then
              ;; The line's top 8 bits name its file (the plan, or a plan library module).
              (call $sb_push_str (local.get $sb) (i64.extend_i32_u
                (call $traceback_file_of (i32.shr_u (i32.load offset=4 (local.get $pair)) (i32.const 24)))))
              (call $sb_push_i64 (local.get $sb)
                (i64.extend_i32_u (i32.and (i32.load offset=4 (local.get $pair)) (i32.const 0xffffff))))
              (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_traceback_in)))
              (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load (local.get $pair))))
              (call $sb_push_byte (local.get $sb) (i32.const 10))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (call $format_repeated (local.get $sb) (local.get $count))))
  ;; The class's qualified name when it has one (json.decoder.JSONDecodeError), as CPython prints.
  (if (i32.load offset=20 (call $type_of (local.get $e)))
    (then (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=20 (call $type_of (local.get $e))))))
    (else (call $sb_push_str (local.get $sb) (call $type_name (local.get $e)))))
  (local.set $msg (call $exc_str (local.get $e)))
  (if (i32.load offset=4 (i32.wrap_i64 (local.get $msg)))
    (then
      (call $sb_push_byte (local.get $sb) (i32.const 58))
      (call $sb_push_byte (local.get $sb) (i32.const 32))
      (call $sb_push_str (local.get $sb) (local.get $msg))))
  (call $sb_push_byte (local.get $sb) (i32.const 10)))

;; ---- entry point -------------------------------------------------------------------------------

;; Runs the plan. 0 on success; otherwise the address of the uncaught exception's report.
(func $baton_main (export "baton_main") (result i32)
  (local $e i64)
  (call $gc_stress_as_built)
  (local.set $e
    (block $caught (result i64)
      (try_table (catch $exc $caught)
        (call $plan_main)
        (return (i32.const 0)))
      (unreachable)))
  (call $report_uncaught (local.get $e)))

;; The address of the report (traceback text) of an uncaught exception, as the entry points
;; return it.
(func $report_uncaught (param $e i64) (result i32)
  (global.set $depth (i32.const 0))
  ;; Every plan frame is gone: only the exception and the module globals are still reachable.
  ;; Collecting first gives the report the memory the plan let go of (after a MemoryError, all
  ;; that a function's locals held).
  (global.set $shadow_top (global.get $shadow_base))
  (global.set $gc_inhibit (i32.const 0))
  (call $root_push (local.get $e))
  (call $gc_collect)
  ;; Formatting may itself fail (out of memory: MemoryError released the heap's reserve for
  ;; its handler, which is this); report what we can.
  (block $failed (result i64)
    (try_table (catch $exc $failed)
      (return (call $format_uncaught (local.get $e))))
    (unreachable))
  (drop)
  (global.get $s_memory_report))

;; Writes a str value to the run's stdout through the `baton.print` host call.
(func $write_str (param $s i64)
  (call $host_print (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16))
    (i32.load offset=4 (i32.wrap_i64 (local.get $s)))))
