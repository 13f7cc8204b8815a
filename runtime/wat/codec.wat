;; ---- codec.wat: copying values between instances of the same module --------------------------
;; A branch is a fresh instance of the plan's module (docs/abi.md, "Branches"): the callable it
;; runs, the module's globals and what it returns cross over by copy, as JSON text in this
;; encoding (documented in docs/abi.md, "Value encoding"):
;;
;;   None, bool, int, finite float, str   themselves
;;   ["u"]                                unbound (an empty cell, an unassigned global)
;;   ["F", "nan" | "inf" | "-inf"]        a float JSON cannot spell
;;   ["@", address]                       a static object of the module (type, builtin, constant):
;;                                        every instance of one module has it at the same address
;;   ["r", n]                             the n-th object of this encoding again (aliasing, cycles)
;;   ["l", item...] ["t", item...] ["s", item...] ["d", key, value, ...]
;;   ["c", value]                         a cell
;;   ["f", index, name, defaults, kwdefaults, cells]   a function: its entry number, name, and
;;                                        its tuple/dict/tuple-of-cells (or null)
;;   ["e", class, args]  ["m", self, name, from_type]  ["R", start, stop, step]
;;   ["S", start, stop, step]  ["v", kind, dict]  ["o", type, fields, str]
;;   ["i", kind, object, position, length, start?, step?, left?]   an iterator (a container's, a
;;                                        range's with its three counters, or a lazy one: zip,
;;                                        map, filter, enumerate, a generator expression,
;;                                        whose object is its state)
;;
;; Every heap object gets the next number when its encoding starts (pre-order), so the decoder
;; numbers the objects it makes in the same order and `["r", n]` restores sharing and cycles.
;; Iterators are copied with their position: the copy goes on where the original was.

(global $cx_memo (mut i64) (i64.const 0))
(global $cx_count (mut i32) (i32.const 0))
(global $cx_objs (mut i64) (i64.const 0))

;; Starts an encoding (numbering from 0).
(func $codec_begin
  (global.set $cx_memo (call $dict_new))
  (global.set $cx_count (i32.const 0))
  (global.set $cx_objs (call $list_new (i32.const 8))))

;; [tag] with room for `cap` more items.
(func $cx_tagged (param $tag i32) (param $cap i32) (result i64)
  (local $l i64)
  (local.set $l (call $list_new (i32.add (local.get $cap) (i32.const 1))))
  (call $list_append (local.get $l) (i64.extend_i32_u (local.get $tag)))
  (local.get $l))

(func $cx_tagged1 (param $tag i32) (param $a i64) (result i64)
  (local $l i64)
  (local.set $l (call $cx_tagged (local.get $tag) (i32.const 1)))
  (call $list_append (local.get $l) (local.get $a))
  (local.get $l))

(func $cx_int (param $n i32) (result i64)
  (call $int_new (i64.extend_i32_u (local.get $n))))

;; `["r", n]` when `v` was encoded before; otherwise numbers it and returns 0.
(func $cx_seen (param $v i64) (result i64)
  (local $key i64) (local $id i64)
  (local.set $key (call $int_new (local.get $v)))
  (local.set $id (call $dict_get (global.get $cx_memo) (local.get $key)))
  (if (i64.ne (local.get $id) (i64.const 0))
    (then (return (call $cx_tagged1 (global.get $s_cx_r) (local.get $id)))))
  (call $dict_set (global.get $cx_memo) (local.get $key) (call $cx_int (global.get $cx_count)))
  (global.set $cx_count (i32.add (global.get $cx_count) (i32.const 1)))
  (i64.const 0))

;; Items `[from, from+n)` of an i64 array, each encoded, appended to `l`.
(func $cx_enc_items (param $l i64) (param $items i32) (param $n i32)
  (local $i i32)
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
    (call $list_append (local.get $l)
      (call $cx_enc (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3))))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each))))

;; A pointer field that may be 0, encoded (0 is null).
(func $cx_enc_opt (param $p i32) (result i64)
  (if (i32.eqz (local.get $p)) (then (return (i64.const 8))))
  (call $cx_enc (i64.extend_i32_u (local.get $p))))

;; Encodes a value (see the top of this file). Raises TypeError for what cannot be copied.
(func $cx_enc (param $v i64) (result i64)
  (local $t i32) (local $p i32) (local $r i64) (local $l i64) (local $x f64)
  (local $e i32) (local $stop i32)
  (if (i64.eqz (local.get $v)) (then (return (call $cx_tagged (global.get $s_cx_u) (i32.const 0)))))
  (if (call $is_small (local.get $v)) (then (return (local.get $v))))
  (local.set $t (call $tid (local.get $v)))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.le_u (local.get $t) (i32.const TYPE_INT)) (then (return (local.get $v))))
  (if (i32.eq (local.get $t) (i32.const TYPE_FLOAT))
    (then
      (local.set $x (f64.load offset=8 (local.get $p)))
      (if (f64.ne (local.get $x) (local.get $x))
        (then (return (call $cx_tagged1 (global.get $s_cx_F) (i64.extend_i32_u (global.get $s_cx_nan))))))
      (if (f64.eq (local.get $x) (f64.const inf))
        (then (return (call $cx_tagged1 (global.get $s_cx_F) (i64.extend_i32_u (global.get $s_cx_inf))))))
      (if (f64.eq (local.get $x) (f64.const -inf))
        (then (return (call $cx_tagged1 (global.get $s_cx_F) (i64.extend_i32_u (global.get $s_cx_neginf))))))
      (return (local.get $v))))
  (if (i32.eq (local.get $t) (i32.const TYPE_STR)) (then (return (local.get $v))))
  (if (i32.lt_u (local.get $p) (global.get $heap_start))
    (then (return (call $cx_tagged1 (global.get $s_cx_static) (call $cx_int (local.get $p))))))
  (local.set $r (call $cx_seen (local.get $v)))
  (if (i64.ne (local.get $r) (i64.const 0)) (then (return (local.get $r))))
  (call $native_enter)
  (block $made
    ;; tuple, list
    (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
      (then
        (local.set $l (call $cx_tagged (global.get $s_cx_t) (i32.load offset=4 (local.get $p))))
        (call $cx_enc_items (local.get $l) (i32.add (local.get $p) (i32.const 8)) (i32.load offset=4 (local.get $p)))
        (br $made)))
    (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
      (then
        (local.set $l (call $cx_tagged (global.get $s_cx_l) (i32.load offset=4 (local.get $p))))
        (call $cx_enc_items (local.get $l) (i32.load offset=12 (local.get $p)) (i32.load offset=4 (local.get $p)))
        (br $made)))
    ;; dict, set, frozenset: live entries in order
    (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_DICT)) (i32.eq (local.get $t) (i32.const TYPE_SET)))
      (then
        (local.set $l (call $cx_tagged
          (select (global.get $s_cx_d)
            (select (global.get $s_cx_z) (global.get $s_cx_s) (call $set_is_frozen (local.get $v)))
            (i32.eq (local.get $t) (i32.const TYPE_DICT)))
          (i32.shl (i32.load offset=4 (local.get $p)) (i32.const 1))))
        (local.set $e (i32.load offset=8 (local.get $p)))
        (local.set $stop (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $p)) (i32.const 24))))
        (block $done (loop $each
          (br_if $done (i32.ge_u (local.get $e) (local.get $stop)))
          (if (i64.ne (i64.load offset=8 (local.get $e)) (i64.const 0))
            (then
              (call $list_append (local.get $l) (call $cx_enc (i64.load offset=8 (local.get $e))))
              (if (i32.eq (local.get $t) (i32.const TYPE_DICT))
                (then (call $list_append (local.get $l) (call $cx_enc (i64.load offset=16 (local.get $e))))))))
          (local.set $e (i32.add (local.get $e) (i32.const 24)))
          (br $each)))
        (br $made)))
    ;; function
    (if (i32.eq (local.get $t) (i32.const TYPE_FUNCTION))
      (then
        (local.set $l (call $cx_tagged (global.get $s_cx_f) (i32.const 5)))
        (call $list_append (local.get $l) (call $cx_int (i32.load offset=8 (local.get $p))))
        (call $list_append (local.get $l) (call $cx_enc_opt (i32.load offset=12 (local.get $p))))
        (call $list_append (local.get $l) (call $cx_enc_opt (i32.load offset=16 (local.get $p))))
        (call $list_append (local.get $l) (call $cx_enc_opt (i32.load offset=20 (local.get $p))))
        (call $list_append (local.get $l) (call $cx_enc_opt (i32.load offset=24 (local.get $p))))
        (br $made)))
    ;; cell
    (if (i32.eq (local.get $t) (i32.const TYPE_CELL))
      (then
        (local.set $l (call $cx_tagged1 (global.get $s_cx_c) (call $cx_enc (i64.load offset=8 (local.get $p)))))
        (br $made)))
    ;; exception (class and args; the traceback and cause stay behind)
    (if (i32.eq (local.get $t) (i32.const TYPE_EXCEPTION))
      (then
        (local.set $l (call $cx_tagged1 (global.get $s_cx_e) (call $cx_enc_opt (i32.load offset=8 (local.get $p)))))
        (call $list_append (local.get $l) (call $cx_enc_opt (i32.load offset=12 (local.get $p))))
        (br $made)))
    ;; bound method
    (if (i32.eq (local.get $t) (i32.const TYPE_BOUND_METHOD))
      (then
        (local.set $l (call $cx_tagged1 (global.get $s_cx_m) (call $cx_enc (i64.load offset=8 (local.get $p)))))
        (call $list_append (local.get $l) (call $cx_enc (i64.load offset=16 (local.get $p))))
        (call $list_append (local.get $l) (call $cx_int (i32.load offset=4 (local.get $p))))
        (br $made)))
    ;; range, slice
    (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_RANGE)) (i32.eq (local.get $t) (i32.const TYPE_SLICE)))
      (then
        (local.set $l (call $cx_tagged1
          (select (global.get $s_cx_R) (global.get $s_cx_S) (i32.eq (local.get $t) (i32.const TYPE_RANGE)))
          (call $cx_enc (i64.load offset=8 (local.get $p)))))
        (call $list_append (local.get $l) (call $cx_enc (i64.load offset=16 (local.get $p))))
        (call $list_append (local.get $l) (call $cx_enc (i64.load offset=24 (local.get $p))))
        (br $made)))
    ;; dict view
    (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
      (then
        (local.set $l (call $cx_tagged1 (global.get $s_cx_v) (call $cx_int (i32.load offset=4 (local.get $p)))))
        (call $list_append (local.get $l) (call $cx_enc (i64.load offset=8 (local.get $p))))
        (br $made)))
    ;; iterator
    (if (i32.eq (local.get $t) (i32.const TYPE_ITERATOR))
      (then
        (local.set $l (call $cx_tagged1 (global.get $s_cx_i) (call $cx_int (i32.load offset=4 (local.get $p)))))
        (call $list_append (local.get $l) (call $cx_enc (i64.load offset=8 (local.get $p))))
        (call $list_append (local.get $l) (call $int_new (i64.extend_i32_s (i32.load offset=16 (local.get $p)))))
        (call $list_append (local.get $l) (call $int_new (i64.extend_i32_s (i32.load offset=20 (local.get $p)))))
        ;; A range's iterator counts in three more words.
        (if (i32.and (i32.eqz (i32.load offset=4 (local.get $p)))
              (i32.eq (call $tid (i64.load offset=8 (local.get $p))) (i32.const TYPE_RANGE)))
          (then
            (call $list_append (local.get $l) (call $int_new (i64.load offset=24 (local.get $p))))
            (call $list_append (local.get $l) (call $int_new (i64.load offset=32 (local.get $p))))
            (call $list_append (local.get $l) (call $int_new (i64.load offset=40 (local.get $p))))))
        (br $made)))
    ;; record (BashResult, Outcome)
    (if (i32.eq (local.get $t) (i32.const TYPE_RECORD))
      (then
        (local.set $l (call $cx_tagged1 (global.get $s_cx_o) (call $cx_enc_opt (i32.load offset=8 (local.get $p)))))
        (call $list_append (local.get $l) (call $cx_enc_opt (i32.load offset=12 (local.get $p))))
        (call $list_append (local.get $l) (call $cx_enc (i64.load offset=16 (local.get $p))))
        (br $made)))
    (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_cx_cannot_copy) (call $type_name (local.get $v)))))
  (call $native_leave)
  (local.get $l))

;; The encoding of `v` as JSON text (a str value). Numbering starts afresh.
(func $codec_encode (param $v i64) (result i64)
  (call $codec_begin)
  (call $host_encode (call $cx_enc (local.get $v))))

;; ---- decoding --------------------------------------------------------------------------------

(func $cx_bad (call $raise_static (global.get $t_RuntimeError) (global.get $s_cx_bad)))

;; Item `i` of the list `l` (bounds-checked: a malformed encoding raises).
(func $cx_item (param $l i64) (param $i i32) (result i64)
  (if (i32.ge_u (local.get $i) (i32.load offset=4 (i32.wrap_i64 (local.get $l)))) (then (call $cx_bad)))
  (i64.load (i32.add (i32.load offset=12 (i32.wrap_i64 (local.get $l))) (i32.shl (local.get $i) (i32.const 3)))))

(func $cx_item_i32 (param $l i64) (param $i i32) (result i32)
  (local $v i64)
  (local.set $v (call $cx_item (local.get $l) (local.get $i)))
  (if (i32.eqz (call $is_small (local.get $v))) (then (call $cx_bad)))
  (i32.wrap_i64 (i64.shr_s (local.get $v) (i64.const 1))))

(func $cx_register (param $v i64)
  (call $list_append (global.get $cx_objs) (local.get $v)))

;; A decoded pointer field: null is 0; otherwise an object of type `want` (0: any object).
(func $cx_dec_ptr (param $e i64) (param $want i32) (result i32)
  (local $v i64)
  (if (i64.eq (local.get $e) (i64.const 8)) (then (return (i32.const 0))))
  (local.set $v (call $cx_dec (local.get $e)))
  (if (i32.or (i64.eqz (local.get $v)) (call $is_small (local.get $v))) (then (call $cx_bad)))
  (if (local.get $want)
    (then (if (i32.ne (call $tid (local.get $v)) (local.get $want)) (then (call $cx_bad)))))
  (i32.wrap_i64 (local.get $v)))

;; Decodes one encoded value (see the top of this file); a malformed encoding raises
;; RuntimeError.
(func $cx_dec (param $e i64) (result i64)
  (local $t i32) (local $p i32) (local $n i32) (local $i i32) (local $tag i32) (local $o i32)
  (local $v i64) (local $s i64)
  (if (call $is_small (local.get $e)) (then (return (local.get $e))))
  (local.set $t (call $tid (local.get $e)))
  (if (i32.le_u (local.get $t) (i32.const TYPE_STR)) (then (return (local.get $e))))
  (if (i32.ne (local.get $t) (i32.const TYPE_LIST)) (then (call $cx_bad)))
  (local.set $p (i32.wrap_i64 (local.get $e)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $s (call $cx_item (local.get $e) (i32.const 0)))
  (if (i32.ne (call $tid (local.get $s)) (i32.const TYPE_STR)) (then (call $cx_bad)))
  (if (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $s))) (i32.const 1)) (then (call $cx_bad)))
  (local.set $tag (i32.load8_u offset=16 (i32.wrap_i64 (local.get $s))))
  ;; u: unbound
  (if (i32.eq (local.get $tag) (i32.const 117)) (then (return (i64.const 0))))
  ;; r: an object decoded before
  (if (i32.eq (local.get $tag) (i32.const 114))
    (then (return (call $cx_item (global.get $cx_objs) (call $cx_item_i32 (local.get $e) (i32.const 1))))))
  ;; F: nan, inf, -inf
  (if (i32.eq (local.get $tag) (i32.const 70))
    (then
      (local.set $v (call $cx_item (local.get $e) (i32.const 1)))
      (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_STR)) (then (call $cx_bad)))
      (local.set $i (i32.load8_u offset=16 (i32.wrap_i64 (local.get $v))))
      (if (i32.eq (local.get $i) (i32.const 110)) (then (return (call $float_new (f64.const nan)))))
      (if (i32.eq (local.get $i) (i32.const 105)) (then (return (call $float_new (f64.const inf)))))
      (return (call $float_new (f64.const -inf)))))
  ;; @: a static object
  (if (i32.eq (local.get $tag) (i32.const 64))
    (then
      (local.set $o (call $cx_item_i32 (local.get $e) (i32.const 1)))
      (if (i32.or (i32.or (i32.eqz (local.get $o)) (i32.and (local.get $o) (i32.const 7)))
                  (i32.ge_u (local.get $o) (global.get $heap_start)))
        (then (call $cx_bad)))
      (return (i64.extend_i32_u (local.get $o)))))
  (call $native_enter)
  (block $made
    ;; l: list
    (if (i32.eq (local.get $tag) (i32.const 108))
      (then
        (local.set $v (call $list_new (i32.sub (local.get $n) (i32.const 1))))
        (call $cx_register (local.get $v))
        (local.set $i (i32.const 1))
        (block $done (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (call $list_append (local.get $v) (call $cx_dec (call $cx_item (local.get $e) (local.get $i))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
        (br $made)))
    ;; t: tuple (made full of unbound, registered, then filled)
    (if (i32.eq (local.get $tag) (i32.const 116))
      (then
        (local.set $o (call $tuple_new (i32.sub (local.get $n) (i32.const 1))))
        (local.set $v (i64.extend_i32_u (local.get $o)))
        (call $cx_register (local.get $v))
        (local.set $i (i32.const 1))
        (block $done (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (i64.store (i32.add (local.get $o) (i32.shl (local.get $i) (i32.const 3)))
            (call $cx_dec (call $cx_item (local.get $e) (local.get $i))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
        (br $made)))
    ;; d: dict; s: set
    (if (i32.eq (local.get $tag) (i32.const 100))
      (then
        (local.set $v (call $dict_new))
        (call $cx_register (local.get $v))
        (local.set $i (i32.const 1))
        (block $done (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (call $dict_set (local.get $v)
            (call $cx_dec (call $cx_item (local.get $e) (local.get $i)))
            (call $cx_dec (call $cx_item (local.get $e) (i32.add (local.get $i) (i32.const 1)))))
          (local.set $i (i32.add (local.get $i) (i32.const 2)))
          (br $each)))
        (br $made)))
    ;; s: set; z: frozenset
    (if (i32.or (i32.eq (local.get $tag) (i32.const 115)) (i32.eq (local.get $tag) (i32.const 122)))
      (then
        (local.set $v (call $set_new))
        (i32.store offset=36 (i32.wrap_i64 (local.get $v)) (i32.eq (local.get $tag) (i32.const 122)))
        (call $cx_register (local.get $v))
        (local.set $i (i32.const 1))
        (block $done (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (call $set_add (local.get $v) (call $cx_dec (call $cx_item (local.get $e) (local.get $i))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
        (br $made)))
    ;; f: function (its entry number checked, so a call can only reach one of the plan's entries)
    (if (i32.eq (local.get $tag) (i32.const 102))
      (then
        (local.set $i (call $cx_item_i32 (local.get $e) (i32.const 1)))
        (if (i32.ge_u (local.get $i) (global.get $plan_entries)) (then (call $cx_bad)))
        (local.set $v (call $func_new (local.get $i) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)))
        (local.set $o (i32.wrap_i64 (local.get $v)))
        (call $cx_register (local.get $v))
        (i32.store offset=12 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 2)) (i32.const 5)))
        (if (i32.eqz (i32.load offset=12 (local.get $o))) (then (call $cx_bad)))
        (i32.store offset=16 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 3)) (i32.const 6)))
        (i32.store offset=20 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 4)) (i32.const 8)))
        (i32.store offset=24 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 5)) (i32.const 6)))
        (br $made)))
    ;; c: cell
    (if (i32.eq (local.get $tag) (i32.const 99))
      (then
        (local.set $v (call $cell_new (i64.const 0)))
        (call $cx_register (local.get $v))
        (i64.store offset=8 (i32.wrap_i64 (local.get $v)) (call $cx_dec (call $cx_item (local.get $e) (i32.const 1))))
        (br $made)))
    ;; e: exception
    (if (i32.eq (local.get $tag) (i32.const 101))
      (then
        (local.set $o (call $alloc (i32.const 32)))
        (i32.store (local.get $o) (i32.const TYPE_EXCEPTION))
        (local.set $v (i64.extend_i32_u (local.get $o)))
        (call $cx_register (local.get $v))
        (i32.store offset=8 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 1)) (i32.const 13)))
        (i32.store offset=12 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 2)) (i32.const 6)))
        (if (i32.or (i32.eqz (i32.load offset=8 (local.get $o))) (i32.eqz (i32.load offset=12 (local.get $o))))
          (then (call $cx_bad)))
        (br $made)))
    ;; m: bound method
    (if (i32.eq (local.get $tag) (i32.const 109))
      (then
        (local.set $o (call $alloc (i32.const 24)))
        (i32.store (local.get $o) (i32.const TYPE_BOUND_METHOD))
        (local.set $v (i64.extend_i32_u (local.get $o)))
        (call $cx_register (local.get $v))
        (i64.store offset=8 (local.get $o) (call $cx_dec (call $cx_item (local.get $e) (i32.const 1))))
        (i64.store offset=16 (local.get $o) (call $cx_dec (call $cx_item (local.get $e) (i32.const 2))))
        (if (i32.ne (call $tid (i64.load offset=16 (local.get $o))) (i32.const TYPE_STR)) (then (call $cx_bad)))
        (local.set $i (call $cx_item_i32 (local.get $e) (i32.const 3)))
        (if (i32.ge_u (local.get $i) (global.get $heap_start)) (then (call $cx_bad)))
        (i32.store offset=4 (local.get $o) (local.get $i))
        (br $made)))
    ;; R: range; S: slice (fields are ints or None)
    (if (i32.or (i32.eq (local.get $tag) (i32.const 82)) (i32.eq (local.get $tag) (i32.const 83)))
      (then
        (local.set $o (call $alloc (i32.const 32)))
        (i32.store (local.get $o) (select (i32.const 16) (i32.const 17) (i32.eq (local.get $tag) (i32.const 82))))
        (local.set $v (i64.extend_i32_u (local.get $o)))
        (call $cx_register (local.get $v))
        (i64.store offset=8 (local.get $o) (call $cx_dec_scalar (call $cx_item (local.get $e) (i32.const 1))))
        (i64.store offset=16 (local.get $o) (call $cx_dec_scalar (call $cx_item (local.get $e) (i32.const 2))))
        (i64.store offset=24 (local.get $o) (call $cx_dec_scalar (call $cx_item (local.get $e) (i32.const 3))))
        (br $made)))
    ;; v: dict view
    (if (i32.eq (local.get $tag) (i32.const 118))
      (then
        (local.set $o (call $alloc (i32.const 16)))
        (i32.store (local.get $o) (i32.const TYPE_DICT_VIEW))
        (local.set $v (i64.extend_i32_u (local.get $o)))
        (call $cx_register (local.get $v))
        (local.set $i (call $cx_item_i32 (local.get $e) (i32.const 1)))
        (if (i32.gt_u (local.get $i) (i32.const 2)) (then (call $cx_bad)))
        (i32.store offset=4 (local.get $o) (local.get $i))
        (i64.store offset=8 (local.get $o)
          (i64.extend_i32_u (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 2)) (i32.const 8))))
        (if (i64.eqz (i64.load offset=8 (local.get $o))) (then (call $cx_bad)))
        (br $made)))
    ;; i: iterator
    (if (i32.eq (local.get $tag) (i32.const 105))
      (then
        (local.set $o (call $alloc (select (i32.const 48) (i32.const 24) (i32.eq (local.get $n) (i32.const 8)))))
        (i32.store (local.get $o) (i32.const TYPE_ITERATOR))
        (local.set $v (i64.extend_i32_u (local.get $o)))
        (call $cx_register (local.get $v))
        (local.set $i (call $cx_item_i32 (local.get $e) (i32.const 1)))
        (if (i32.gt_u (local.get $i) (i32.const 6)) (then (call $cx_bad)))
        (i32.store offset=4 (local.get $o) (local.get $i))
        (i64.store offset=8 (local.get $o) (call $cx_dec (call $cx_item (local.get $e) (i32.const 2))))
        (if (i32.or (i64.eqz (i64.load offset=8 (local.get $o))) (call $is_small (i64.load offset=8 (local.get $o))))
          (then (call $cx_bad)))
        ;; A lazy iterator's state is a tuple; a container's iterator iterates a container.
        (if (local.get $i)
          (then (if (i32.ne (call $tid (i64.load offset=8 (local.get $o))) (i32.const TYPE_TUPLE)) (then (call $cx_bad)))))
        (i32.store offset=16 (local.get $o) (call $cx_item_i32 (local.get $e) (i32.const 3)))
        (i32.store offset=20 (local.get $o) (call $cx_item_i32 (local.get $e) (i32.const 4)))
        (if (i32.eq (local.get $n) (i32.const 8))
          (then
            (if (i32.ne (call $tid (i64.load offset=8 (local.get $o))) (i32.const TYPE_RANGE)) (then (call $cx_bad)))
            (i64.store offset=24 (local.get $o) (call $as_i64 (call $cx_dec_scalar (call $cx_item (local.get $e) (i32.const 5)))))
            (i64.store offset=32 (local.get $o) (call $as_i64 (call $cx_dec_scalar (call $cx_item (local.get $e) (i32.const 6)))))
            (i64.store offset=40 (local.get $o) (call $as_i64 (call $cx_dec_scalar (call $cx_item (local.get $e) (i32.const 7))))))
          (else (if (i32.ne (local.get $n) (i32.const 5)) (then (call $cx_bad)))))
        (br $made)))
    ;; o: record
    (if (i32.eq (local.get $tag) (i32.const 111))
      (then
        (local.set $v (call $record_new (i32.const 0) (i64.const 0) (i64.const 0)))
        (local.set $o (i32.wrap_i64 (local.get $v)))
        (call $cx_register (local.get $v))
        (i32.store offset=8 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 1)) (i32.const 13)))
        (i32.store offset=12 (local.get $o) (call $cx_dec_ptr (call $cx_item (local.get $e) (i32.const 2)) (i32.const 8)))
        (if (i32.or (i32.eqz (i32.load offset=8 (local.get $o))) (i32.eqz (i32.load offset=12 (local.get $o))))
          (then (call $cx_bad)))
        (i64.store offset=16 (local.get $o) (call $cx_dec (call $cx_item (local.get $e) (i32.const 3))))
        (br $made)))
    (call $cx_bad))
  (call $native_leave)
  (local.get $v))

;; A decoded int or None (range and slice fields).
(func $cx_dec_scalar (param $e i64) (result i64)
  (local $v i64)
  (local.set $v (call $cx_dec (local.get $e)))
  (if (call $is_small (local.get $v)) (then (return (local.get $v))))
  (if (i32.or (i32.eq (call $tid (local.get $v)) (i32.const TYPE_NONE)) (i32.eq (call $tid (local.get $v)) (i32.const TYPE_INT)))
    (then (return (local.get $v))))
  (call $cx_bad)
  (unreachable))

;; Decodes JSON text in this encoding (numbering starts afresh).
(func $codec_decode (param $text i64) (result i64)
  (call $codec_begin)
  (call $cx_dec (call $jl_decode (local.get $text))))
