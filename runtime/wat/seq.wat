;; seq.wat: tuples, lists, ranges, slices, iteration and the sequence builtins.
;;
;; Layouts (docs/abi.md): tuple +4 len, +8 items; list +4 len, +8 capacity, +12 item array
;; (grown by doubling; the old array is abandoned); range +8/+16/+24 start/stop/step as int
;; values; slice +8/+16/+24 start/stop/step as values (None when omitted); iterator +8
;; the iterated object, +16 position, +20 expected size (dict/set; dict views: their dict's) —
;; range iterators add +24
;; the next value, +32 the step, +40 the count of values left; str iterators over non-ASCII
;; text keep the byte offset at +20.

;; ---- small helpers -----------------------------------------------------------------------------

;; The address of the item array of a list or tuple.
(func $seq_items (param $o i64) (result i32)
  (if (result i32) (i32.eq (i32.load (i32.wrap_i64 (local.get $o))) (i32.const 7))
    (then (i32.load offset=12 (i32.wrap_i64 (local.get $o))))
    (else (i32.add (i32.wrap_i64 (local.get $o)) (i32.const 8)))))

;; An int value for a raw integer (tagged inline when it fits).
(func $seq_int (param $n i64) (result i64)
  (if (i64.eq (i64.shr_s (i64.shl (local.get $n) (i64.const 1)) (i64.const 1)) (local.get $n))
    (then (return (i64.or (i64.shl (local.get $n) (i64.const 1)) (i64.const 1)))))
  (call $int_new (local.get $n)))

;; Decimal text of a raw integer, as a str value.
(func $seq_istr (param $n i64) (result i64)
  (local $sb i32)
  (local.set $sb (call $sb_new))
  (call $sb_push_i64 (local.get $sb) (local.get $n))
  (call $sb_finish (local.get $sb)))

(func $seq_s (param $p i32) (result i64) (i64.extend_i32_u (local.get $p)))

;; Raises TypeError with a template whose `{}` is the type name of `v`.
(func $seq_type_error (param $template i32) (param $v i64)
  (call $raise_msg (global.get $t_TypeError) (call $msg1 (local.get $template) (call $type_name (local.get $v)))))

;; Whether the str value `s` has exactly the bytes of the static str `lit`.
(func $seq_str_is (param $s i64) (param $lit i32) (result i32)
  (local $p i32) (local $n i32) (local $i i32)
  (if (i32.eqz (local.get $lit)) (then (return (i32.const 0))))
  (if (i32.ne (call $tid (local.get $s)) (i32.const TYPE_STR)) (then (return (i32.const 0))))
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (if (i32.ne (local.get $n) (i32.load offset=4 (local.get $lit))) (then (return (i32.const 0))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.ne (i32.load8_u offset=16 (i32.add (local.get $p) (local.get $i)))
                  (i32.load8_u offset=16 (i32.add (local.get $lit) (local.get $i))))
        (then (return (i32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const 1))

;; An int or bool as a raw integer; otherwise TypeError "'x' object cannot be interpreted as an
;; integer".
(func $seq_as_index (param $v i64) (result i64)
  (local $t i32)
  (if (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))
    (then (return (i64.shr_s (local.get $v) (i64.const 1)))))
  (local.set $t (i32.load (i32.wrap_i64 (local.get $v))))
  (if (i32.eq (local.get $t) (i32.const 2))
    (then (return (i64.extend_i32_u (i32.load offset=4 (i32.wrap_i64 (local.get $v)))))))
  (if (i32.eq (local.get $t) (i32.const 3))
    (then (return (i64.load offset=8 (i32.wrap_i64 (local.get $v))))))
  (call $seq_type_error (global.get $s_seq_not_integer) (local.get $v))
  (unreachable))

;; Whether `v` is an int or a bool (usable as an index).
(func $seq_is_int (param $v i64) (result i32)
  (local $t i32)
  (if (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1))) (then (return (i32.const 1))))
  (local.set $t (i32.load (i32.wrap_i64 (local.get $v))))
  (i32.or (i32.eq (local.get $t) (i32.const 2)) (i32.eq (local.get $t) (i32.const 3))))

;; Whether $iter accepts `v`.
(func $seq_iterable (param $v i64) (result i32)
  (local $t i32)
  (if (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1))) (then (return (i32.const 0))))
  (local.set $t (i32.load (i32.wrap_i64 (local.get $v))))
  (i32.or
    (i32.and (i32.ge_u (local.get $t) (i32.const 5)) (i32.le_u (local.get $t) (i32.const 9)))
    (i32.or (i32.eq (local.get $t) (i32.const 16))
      (i32.or (i32.eq (local.get $t) (i32.const 18)) (i32.eq (local.get $t) (i32.const 19))))))

;; Equality of two items: identity first (as CPython's containers do), then $eq.
(func $seq_item_eq (param $a i64) (param $b i64) (result i32)
  (if (i64.eq (local.get $a) (local.get $b)) (then (return (i32.const 1))))
  (if (i32.wrap_i64 (i64.and (i64.and (local.get $a) (local.get $b)) (i64.const 1)))
    (then (return (i32.const 0))))
  ;; two strs (sort keys, dict-like records): straight to the byte comparison
  (if (i32.eqz (i32.wrap_i64 (i64.and (i64.or (local.get $a) (local.get $b)) (i64.const 1))))
    (then (if (i32.and (i32.eq (i32.load (i32.wrap_i64 (local.get $a))) (i32.const 5))
                (i32.eq (i32.load (i32.wrap_i64 (local.get $b))) (i32.const 5)))
      (then (return (call $str_eq (local.get $a) (local.get $b)))))))
  (call $eq (local.get $a) (local.get $b)))

;; a < b with fast paths for small ints, two strs and two tuples (or lists): what sorting
;; compares most.
(func $seq_lt (param $a i64) (param $b i64) (result i32)
  (local $ta i32)
  (if (i32.wrap_i64 (i64.and (i64.and (local.get $a) (local.get $b)) (i64.const 1)))
    (then (return (i64.lt_s (local.get $a) (local.get $b)))))
  (if (i32.eqz (i32.wrap_i64 (i64.and (i64.or (local.get $a) (local.get $b)) (i64.const 1))))
    (then
      (local.set $ta (i32.load (i32.wrap_i64 (local.get $a))))
      (if (i32.eq (local.get $ta) (i32.load (i32.wrap_i64 (local.get $b))))
        (then
          (if (i32.eq (local.get $ta) (i32.const 5))
            (then (return (i32.lt_s (call $str_cmp (local.get $a) (local.get $b)) (i32.const 0)))))
          (if (i32.or (i32.eq (local.get $ta) (i32.const 6)) (i32.eq (local.get $ta) (i32.const 7)))
            (then (return (call $seq_compare (local.get $a) (local.get $b) (i32.const 0)))))))))
  (call $lt (local.get $a) (local.get $b)))

;; The number of live entries of a kwargs dict (0 for none).
(func $seq_kw_count (param $kwargs i32) (result i32)
  (if (result i32) (local.get $kwargs)
    (then (i32.load offset=4 (local.get $kwargs)))
    (else (i32.const 0))))

;; Raises "<fname>() takes no keyword arguments" when `kwargs` holds any.
(func $seq_no_kwargs (param $kwargs i32) (param $fname i32)
  (if (call $seq_kw_count (local.get $kwargs))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_seq_b_no_kw) (call $seq_s (local.get $fname)))))))

;; Reads up to three keyword arguments named by static strs (0: unused); values are 0 when
;; absent. Any other keyword raises "'x' is an invalid keyword argument for <fname>()".
(func $seq_kwargs (param $kwargs i32) (param $n1 i32) (param $n2 i32) (param $n3 i32) (param $fname i32)
  (result i64 i64 i64)
  (local $v1 i64) (local $v2 i64) (local $v3 i64) (local $e i32) (local $end i32) (local $k i64)
  (if (i32.eqz (local.get $kwargs))
    (then (return (i64.const 0) (i64.const 0) (i64.const 0))))
  (local.set $e (i32.load offset=8 (local.get $kwargs)))
  (local.set $end (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $kwargs)) (i32.const 24))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $e) (local.get $end)))
      (local.set $k (i64.load offset=8 (local.get $e)))
      (if (i64.ne (local.get $k) (i64.const 0))
        (then
          (block $matched
            (if (call $seq_str_is (local.get $k) (local.get $n1))
              (then (local.set $v1 (i64.load offset=16 (local.get $e))) (br $matched)))
            (if (call $seq_str_is (local.get $k) (local.get $n2))
              (then (local.set $v2 (i64.load offset=16 (local.get $e))) (br $matched)))
            (if (call $seq_str_is (local.get $k) (local.get $n3))
              (then (local.set $v3 (i64.load offset=16 (local.get $e))) (br $matched)))
            (call $raise_msg (global.get $t_TypeError)
              (call $msg2 (global.get $s_seq_invalid_kw) (local.get $k) (call $seq_s (local.get $fname)))))))
      (local.set $e (i32.add (local.get $e) (i32.const 24)))
      (br $each)))
  (local.get $v1) (local.get $v2) (local.get $v3))

;; ---- construction ------------------------------------------------------------------------------

;; A tuple of `n` zeroed items.
(func $tuple_new (param $n i32) (result i32)
  (local $t i32)
  (if (i32.eqz (local.get $n)) (then (return (global.get $empty_tuple))))
  (local.set $t (call $alloc64 (i64.add (i64.const 8) (i64.shl (i64.extend_i32_u (local.get $n)) (i64.const 3)))))
  (i32.store (local.get $t) (i32.const TYPE_TUPLE))
  (i32.store offset=4 (local.get $t) (local.get $n))
  (local.get $t))

;; Tuples of one to four given items: what compiled plan code builds an argument tuple (or a
;; tuple display) with, one call where `$tuple_new` and a store per item took 4 + 3n
;; instructions at every call site. Allocation never collects, so the items need no root here.
(func $tuple_of1 (param $a i64) (result i32)
  (local $t i32)
  (local.set $t (call $tuple_new (i32.const 1)))
  (i64.store offset=8 (local.get $t) (local.get $a))
  (local.get $t))

(func $tuple_of2 (param $a i64) (param $b i64) (result i32)
  (local $t i32)
  (local.set $t (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $t) (local.get $a))
  (i64.store offset=16 (local.get $t) (local.get $b))
  (local.get $t))

(func $tuple_of3 (param $a i64) (param $b i64) (param $c i64) (result i32)
  (local $t i32)
  (local.set $t (call $tuple_new (i32.const 3)))
  (i64.store offset=8 (local.get $t) (local.get $a))
  (i64.store offset=16 (local.get $t) (local.get $b))
  (i64.store offset=24 (local.get $t) (local.get $c))
  (local.get $t))

(func $tuple_of4 (param $a i64) (param $b i64) (param $c i64) (param $d i64) (result i32)
  (local $t i32)
  (local.set $t (call $tuple_new (i32.const 4)))
  (i64.store offset=8 (local.get $t) (local.get $a))
  (i64.store offset=16 (local.get $t) (local.get $b))
  (i64.store offset=24 (local.get $t) (local.get $c))
  (i64.store offset=32 (local.get $t) (local.get $d))
  (local.get $t))

;; An empty list with room for `cap` items.
(func $list_new (param $cap i32) (result i64)
  (local $l i32)
  (local.set $l (call $alloc (i32.const 16)))
  (i32.store (local.get $l) (i32.const TYPE_LIST))
  (if (local.get $cap)
    (then
      (i32.store offset=8 (local.get $l) (local.get $cap))
      (i32.store offset=12 (local.get $l)
        (call $alloc64 (i64.shl (i64.extend_i32_u (local.get $cap)) (i64.const 3))))))
  (i64.extend_i32_u (local.get $l)))

;; Lists of one to four given items: a list display in one call, where `$list_new` and an
;; append per item took 1 + n at every display. The items are evaluated first, as CPython
;; evaluates them all before it builds the list; allocating never collects, so they need no
;; root here.
(func $list_of1 (param $a i64) (result i64)
  (local $l i64)
  (local.set $l (call $list_new (i32.const 1)))
  (i64.store (call $list_filled (local.get $l) (i32.const 1)) (local.get $a))
  (local.get $l))

(func $list_of2 (param $a i64) (param $b i64) (result i64)
  (local $l i64) (local $items i32)
  (local.set $l (call $list_new (i32.const 2)))
  (local.set $items (call $list_filled (local.get $l) (i32.const 2)))
  (i64.store (local.get $items) (local.get $a))
  (i64.store offset=8 (local.get $items) (local.get $b))
  (local.get $l))

(func $list_of3 (param $a i64) (param $b i64) (param $c i64) (result i64)
  (local $l i64) (local $items i32)
  (local.set $l (call $list_new (i32.const 3)))
  (local.set $items (call $list_filled (local.get $l) (i32.const 3)))
  (i64.store (local.get $items) (local.get $a))
  (i64.store offset=8 (local.get $items) (local.get $b))
  (i64.store offset=16 (local.get $items) (local.get $c))
  (local.get $l))

(func $list_of4 (param $a i64) (param $b i64) (param $c i64) (param $d i64) (result i64)
  (local $l i64) (local $items i32)
  (local.set $l (call $list_new (i32.const 4)))
  (local.set $items (call $list_filled (local.get $l) (i32.const 4)))
  (i64.store (local.get $items) (local.get $a))
  (i64.store offset=8 (local.get $items) (local.get $b))
  (i64.store offset=16 (local.get $items) (local.get $c))
  (i64.store offset=24 (local.get $items) (local.get $d))
  (local.get $l))

;; Gives the new list `l` (made with room for `n` items) its `n` items, to be written at the
;; address returned.
(func $list_filled (param $l i64) (param $n i32) (result i32)
  (i32.store offset=4 (i32.wrap_i64 (local.get $l)) (local.get $n))
  (i32.load offset=12 (i32.wrap_i64 (local.get $l))))

;; A list of `n` items copied from `src`.
(func $seq_list_of (param $src i32) (param $n i32) (result i64)
  (local $l i64)
  (local.set $l (call $list_new (local.get $n)))
  (call $memcpy (i32.load offset=12 (i32.wrap_i64 (local.get $l))) (local.get $src)
    (i32.shl (local.get $n) (i32.const 3)))
  (i32.store offset=4 (i32.wrap_i64 (local.get $l)) (local.get $n))
  (local.get $l))

;; A tuple of `n` items copied from `src`.
(func $seq_tuple_of (param $src i32) (param $n i32) (result i64)
  (local $t i32)
  (local.set $t (call $tuple_new (local.get $n)))
  (call $memcpy (i32.add (local.get $t) (i32.const 8)) (local.get $src) (i32.shl (local.get $n) (i32.const 3)))
  (i64.extend_i32_u (local.get $t)))

;; Makes room for `need` items in list `l` (doubling; the old array is abandoned).
(func $seq_reserve (param $l i32) (param $need i32)
  (local $cap i64) (local $arr i32)
  (if (i32.le_u (local.get $need) (i32.load offset=8 (local.get $l))) (then (return)))
  (local.set $cap (i64.shl (i64.extend_i32_u (i32.load offset=8 (local.get $l))) (i64.const 1)))
  (if (i64.lt_u (local.get $cap) (i64.extend_i32_u (local.get $need)))
    (then (local.set $cap (i64.extend_i32_u (local.get $need)))))
  (if (i64.lt_u (local.get $cap) (i64.const 4)) (then (local.set $cap (i64.const 4))))
  (if (i64.gt_u (local.get $cap) (i64.const 0x1FFF_FFFF)) (then (call $raise_memory)))
  (local.set $arr (call $alloc64 (i64.shl (local.get $cap) (i64.const 3))))
  (call $memcpy (local.get $arr) (i32.load offset=12 (local.get $l))
    (i32.shl (i32.load offset=4 (local.get $l)) (i32.const 3)))
  (i32.store offset=12 (local.get $l) (local.get $arr))
  (i32.store offset=8 (local.get $l) (i32.wrap_i64 (local.get $cap))))

(func $list_append (param $list i64) (param $v i64)
  (local $l i32) (local $n i32)
  (local.set $l (i32.wrap_i64 (local.get $list)))
  (local.set $n (i32.load offset=4 (local.get $l)))
  (if (i32.ge_u (local.get $n) (i32.load offset=8 (local.get $l)))
    (then (call $seq_reserve (local.get $l) (i32.add (local.get $n) (i32.const 1)))))
  (i64.store (i32.add (i32.load offset=12 (local.get $l)) (i32.shl (local.get $n) (i32.const 3))) (local.get $v))
  (i32.store offset=4 (local.get $l) (i32.add (local.get $n) (i32.const 1))))

;; Appends every item of any iterable (extending a list with itself doubles it).
(func $list_extend (param $list i64) (param $src i64)
  (local $l i32) (local $t i32) (local $n i32) (local $m i32) (local $it i64) (local $v i64)
  (local.set $l (i32.wrap_i64 (local.get $list)))
  (local.set $t (call $tid (local.get $src)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then
      (local.set $n (i32.load offset=4 (local.get $l)))
      (local.set $m (i32.load offset=4 (i32.wrap_i64 (local.get $src))))
      (call $seq_reserve (local.get $l) (i32.add (local.get $n) (local.get $m)))
      (call $memcpy (i32.add (i32.load offset=12 (local.get $l)) (i32.shl (local.get $n) (i32.const 3)))
        (call $seq_items (local.get $src)) (i32.shl (local.get $m) (i32.const 3)))
      (i32.store offset=4 (local.get $l) (i32.add (local.get $n) (local.get $m)))
      (return)))
  (if (i32.eq (local.get $t) (i32.const TYPE_RANGE))
    (then
      (local.set $n (i32.load offset=4 (local.get $l)))
      (call $seq_reserve (local.get $l)
        (i32.add (local.get $n) (i32.wrap_i64 (call $range_len (local.get $src)))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
    (then
      (local.set $n (i32.load offset=4 (local.get $l)))
      (call $seq_reserve (local.get $l) (i32.add (local.get $n) (call $dict_view_len (local.get $src))))))
  (local.set $it (call $iter (local.get $src)))
  (block $done
    (loop $each
      (local.set $v (call $next (local.get $it)))
      (br_if $done (i64.eqz (local.get $v)))
      (call $list_append (local.get $list) (local.get $v))
      (br $each))))

(func $list_from (param $src i64) (result i64)
  (local $t i32) (local $l i64)
  (local.set $t (call $tid (local.get $src)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then (return (call $seq_list_of (call $seq_items (local.get $src))
      (i32.load offset=4 (i32.wrap_i64 (local.get $src)))))))
  (if (i32.eqz (call $seq_iterable (local.get $src)))
    (then (call $seq_type_error (global.get $s_seq_not_iterable) (local.get $src))))
  (local.set $l (call $list_new (i32.const 0)))
  (call $list_extend (local.get $l) (local.get $src))
  (local.get $l))

;; As $list_from, for a caller that has rooted everything it keeps across the call: the list
;; and the iterator are rooted here, so a generator expression's or map's function may collect
;; between items ($next_plan). (list(), tuple(), sorted() and join of an iterator: one call
;; that runs the plan's function once per item, whose garbage must not wait for the end.)
(func $list_from_rooted (param $src i64) (result i64)
  (local $l i64) (local $it i64) (local $v i64) (local $base i32) (local $t i32)
  (local.set $t (call $tid (local.get $src)))
  ;; Sequences and ranges run nothing of the plan's: $list_from as it is.
  (if (i32.ne (local.get $t) (i32.const TYPE_ITERATOR)) (then (return (call $list_from (local.get $src)))))
  (local.set $l (call $list_new (i32.const 0)))
  (local.set $it (call $iter (local.get $src)))
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $l))
  (call $root_push (local.get $it))
  (block $done
    (loop $each
      (local.set $v (call $next_plan (local.get $it)))
      (br_if $done (i64.eqz (local.get $v)))
      (call $list_append (local.get $l) (local.get $v))
      (br $each)))
  (global.set $shadow_top (local.get $base))
  (local.get $l))

(func $tuple_from (param $src i64) (result i64)
  (local $t i32) (local $l i64)
  (local.set $t (call $tid (local.get $src)))
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (then (return (local.get $src))))
  (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
    (then (local.set $l (local.get $src)))
    (else (local.set $l (call $list_from_rooted (local.get $src)))))
  (call $seq_tuple_of (i32.load offset=12 (i32.wrap_i64 (local.get $l)))
    (i32.load offset=4 (i32.wrap_i64 (local.get $l)))))

;; list + list, tuple + tuple.
(func $seq_concat (param $a i64) (param $b i64) (result i64)
  (local $t i32) (local $na i32) (local $nb i32) (local $r i64) (local $dst i32)
  (local.set $t (call $tid (local.get $a)))
  (if (i32.ne (call $tid (local.get $b)) (local.get $t))
    (then
      (call $seq_type_error
        (select (global.get $s_seq_concat_list) (global.get $s_seq_concat_tuple) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
        (local.get $b))))
  (local.set $na (i32.load offset=4 (i32.wrap_i64 (local.get $a))))
  (local.set $nb (i32.load offset=4 (i32.wrap_i64 (local.get $b))))
  (if (i64.gt_u (i64.add (i64.extend_i32_u (local.get $na)) (i64.extend_i32_u (local.get $nb))) (i64.const 0x1FFF_FFFF))
    (then (call $raise_memory)))
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
    (then
      (if (i32.eqz (local.get $nb)) (then (return (local.get $a))))
      (if (i32.eqz (local.get $na)) (then (return (local.get $b))))
      (local.set $r (i64.extend_i32_u (call $tuple_new (i32.add (local.get $na) (local.get $nb)))))
      (local.set $dst (i32.add (i32.wrap_i64 (local.get $r)) (i32.const 8))))
    (else
      (local.set $r (call $list_new (i32.add (local.get $na) (local.get $nb))))
      (i32.store offset=4 (i32.wrap_i64 (local.get $r)) (i32.add (local.get $na) (local.get $nb)))
      (local.set $dst (i32.load offset=12 (i32.wrap_i64 (local.get $r))))))
  (call $memcpy (local.get $dst) (call $seq_items (local.get $a)) (i32.shl (local.get $na) (i32.const 3)))
  (call $memcpy (i32.add (local.get $dst) (i32.shl (local.get $na) (i32.const 3)))
    (call $seq_items (local.get $b)) (i32.shl (local.get $nb) (i32.const 3)))
  (local.get $r))

;; list * n, tuple * n (n a raw integer; <= 0 gives an empty sequence).
(func $seq_repeat (param $s i64) (param $n i64) (result i64)
  (local $t i32) (local $m i64) (local $total i64) (local $r i64) (local $dst i32) (local $done i64) (local $chunk i64)
  (local.set $t (call $tid (local.get $s)))
  (local.set $m (i64.extend_i32_u (i32.load offset=4 (i32.wrap_i64 (local.get $s)))))
  (if (i64.lt_s (local.get $n) (i64.const 0)) (then (local.set $n (i64.const 0))))
  (if (i32.and (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i64.eq (local.get $n) (i64.const 1)))
    (then (return (local.get $s))))
  (if (i64.eqz (local.get $m)) (then (local.set $n (i64.const 0))))
  (if (i64.gt_u (local.get $n) (i64.div_u (i64.const 0x1FFF_FFFF) (select (local.get $m) (i64.const 1) (i64.ne (local.get $m) (i64.const 0)))))
    (then (call $raise_memory)))
  (local.set $total (i64.mul (local.get $m) (local.get $n)))
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
    (then
      (local.set $r (i64.extend_i32_u (call $tuple_new (i32.wrap_i64 (local.get $total)))))
      (local.set $dst (i32.add (i32.wrap_i64 (local.get $r)) (i32.const 8))))
    (else
      (local.set $r (call $list_new (i32.wrap_i64 (local.get $total))))
      (i32.store offset=4 (i32.wrap_i64 (local.get $r)) (i32.wrap_i64 (local.get $total)))
      (local.set $dst (i32.load offset=12 (i32.wrap_i64 (local.get $r))))))
  (if (i64.eqz (local.get $total)) (then (return (local.get $r))))
  ;; First copy, then double the filled prefix.
  (call $memcpy (local.get $dst) (call $seq_items (local.get $s)) (i32.wrap_i64 (i64.shl (local.get $m) (i64.const 3))))
  (local.set $done (local.get $m))
  (block $full
    (loop $grow
      (br_if $full (i64.ge_u (local.get $done) (local.get $total)))
      (local.set $chunk (local.get $done))
      (if (i64.gt_u (i64.add (local.get $done) (local.get $chunk)) (local.get $total))
        (then (local.set $chunk (i64.sub (local.get $total) (local.get $done)))))
      (call $memcpy (i32.add (local.get $dst) (i32.wrap_i64 (i64.shl (local.get $done) (i64.const 3))))
        (local.get $dst) (i32.wrap_i64 (i64.shl (local.get $chunk) (i64.const 3))))
      (local.set $done (i64.add (local.get $done) (local.get $chunk)))
      (br $grow)))
  (local.get $r))

;; ---- comparison, repr, hash --------------------------------------------------------------------

;; Equality of two lists, two tuples or two ranges (other pairings are unequal).
(func $seq_eq (param $a i64) (param $b i64) (result i32)
  (local $t i32) (local $n i32) (local $i i32) (local $pa i32) (local $pb i32) (local $x i64) (local $y i64)
  (local $r i32)
  (if (i64.eq (local.get $a) (local.get $b)) (then (return (i32.const 1))))
  (local.set $t (call $tid (local.get $a)))
  (if (i32.ne (local.get $t) (call $tid (local.get $b))) (then (return (i32.const 0))))
  (if (i32.eq (local.get $t) (i32.const TYPE_RANGE)) (then (return (call $seq_range_eq (local.get $a) (local.get $b)))))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $a))))
  (if (i32.ne (local.get $n) (i32.load offset=4 (i32.wrap_i64 (local.get $b)))) (then (return (i32.const 0))))
  (call $native_enter)
  (local.set $r (i32.const 1))
  (block $done
    (loop $each
      ;; Lists may change length while items are compared: stop at the shorter.
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (i32.wrap_i64 (local.get $a)))))
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (i32.wrap_i64 (local.get $b)))))
      (local.set $x (i64.load (i32.add (call $seq_items (local.get $a)) (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $y (i64.load (i32.add (call $seq_items (local.get $b)) (i32.shl (local.get $i) (i32.const 3)))))
      (if (i32.eqz (call $seq_item_eq (local.get $x) (local.get $y)))
        (then (local.set $r (i32.const 0)) (br $done)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $native_leave)
  (local.get $r))

(func $seq_range_eq (param $a i64) (param $b i64) (result i32)
  (local $n i64) (local $pa i32) (local $pb i32)
  (local.set $pa (i32.wrap_i64 (local.get $a)))
  (local.set $pb (i32.wrap_i64 (local.get $b)))
  (local.set $n (call $seq_range_ulen (local.get $pa)))
  (if (i64.ne (local.get $n) (call $seq_range_ulen (local.get $pb))) (then (return (i32.const 0))))
  (if (i64.eqz (local.get $n)) (then (return (i32.const 1))))
  (if (i64.ne (call $seq_rstart (local.get $pa)) (call $seq_rstart (local.get $pb))) (then (return (i32.const 0))))
  (if (i64.eq (local.get $n) (i64.const 1)) (then (return (i32.const 1))))
  (i64.eq (call $seq_rstep (local.get $pa)) (call $seq_rstep (local.get $pb))))

;; Lexicographic comparison of two lists or two tuples: `op` 0 <, 1 <=, 2 >, 3 >=. The first
;; unequal pair decides, through the same operator (so errors name it, as in CPython).
(func $seq_compare (param $a i64) (param $b i64) (param $op i32) (result i32)
  (local $i i32) (local $na i32) (local $nb i32) (local $x i64) (local $y i64) (local $r i32)
  (call $native_enter)
  (block $found
    (block $same
      (loop $each
        (local.set $na (i32.load offset=4 (i32.wrap_i64 (local.get $a))))
        (local.set $nb (i32.load offset=4 (i32.wrap_i64 (local.get $b))))
        (br_if $same (i32.ge_u (local.get $i) (local.get $na)))
        (br_if $same (i32.ge_u (local.get $i) (local.get $nb)))
        (local.set $x (i64.load (i32.add (call $seq_items (local.get $a)) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $y (i64.load (i32.add (call $seq_items (local.get $b)) (i32.shl (local.get $i) (i32.const 3)))))
        (br_if $found (i32.eqz (call $seq_item_eq (local.get $x) (local.get $y))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    ;; One is a prefix of the other: compare lengths.
    (call $native_leave)
    (if (i32.eqz (local.get $op)) (then (return (i32.lt_u (local.get $na) (local.get $nb)))))
    (if (i32.eq (local.get $op) (i32.const 1)) (then (return (i32.le_u (local.get $na) (local.get $nb)))))
    (if (i32.eq (local.get $op) (i32.const 2)) (then (return (i32.gt_u (local.get $na) (local.get $nb)))))
    (return (i32.ge_u (local.get $na) (local.get $nb))))
  (if (i32.eqz (local.get $op)) (then (local.set $r (call $seq_lt (local.get $x) (local.get $y)))))
  (if (i32.eq (local.get $op) (i32.const 1)) (then (local.set $r (call $le (local.get $x) (local.get $y)))))
  (if (i32.eq (local.get $op) (i32.const 2)) (then (local.set $r (call $gt (local.get $x) (local.get $y)))))
  (if (i32.eq (local.get $op) (i32.const 3)) (then (local.set $r (call $ge (local.get $x) (local.get $y)))))
  (call $native_leave)
  (local.get $r))

;; -1, 0 or 1 (the first unequal pair is ordered with $lt).
(func $seq_cmp (param $a i64) (param $b i64) (result i32)
  (if (call $seq_compare (local.get $a) (local.get $b) (i32.const 0)) (then (return (i32.const -1))))
  (if (call $seq_compare (local.get $b) (local.get $a) (i32.const 0)) (then (return (i32.const 1))))
  (i32.const 0))

;; Containers whose repr is in progress (for `[...]`), a stack of addresses.
(global $seq_repr_stack (mut i32) (i32.const 0))
(global $seq_repr_n (mut i32) (i32.const 0))

;; repr of a list, tuple or range.
(func $seq_repr (param $v i64) (result i64)
  (local $p i32) (local $t i32) (local $j i32) (local $r i64) (local $e i64)
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (local.set $t (i32.load (local.get $p)))
  (if (i32.eq (local.get $t) (i32.const 16)) (then (return (call $seq_range_repr (local.get $p)))))
  (if (i32.eqz (i32.load offset=4 (local.get $p)))
    (then (return (call $seq_s (select (global.get $s_seq_list_empty) (global.get $s_seq_tuple_empty)
      (i32.eq (local.get $t) (i32.const 7)))))))
  (block $fresh
    (loop $each
      (br_if $fresh (i32.ge_u (local.get $j) (global.get $seq_repr_n)))
      (if (i32.eq (i32.load (i32.add (global.get $seq_repr_stack) (i32.shl (local.get $j) (i32.const 2)))) (local.get $p))
        (then (return (call $seq_s (select (global.get $s_seq_list_rec) (global.get $s_seq_tuple_rec)
          (i32.eq (local.get $t) (i32.const 7)))))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $each)))
  (call $native_enter)
  (if (i32.eqz (global.get $seq_repr_stack))
    (then (global.set $seq_repr_stack (call $alloc (i32.shl (i32.add (global.get $max_depth) (i32.const 64)) (i32.const 2))))))
  (if (i32.ge_u (global.get $seq_repr_n) (i32.add (global.get $max_depth) (i32.const 64)))
    (then (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion))))
  (i32.store (i32.add (global.get $seq_repr_stack) (i32.shl (global.get $seq_repr_n) (i32.const 2))) (local.get $p))
  (global.set $seq_repr_n (i32.add (global.get $seq_repr_n) (i32.const 1)))
  (local.set $e
    (block $failed (result i64)
      (try_table (catch $exc $failed)
        (local.set $r (call $seq_repr_items (local.get $v))))
      (global.set $seq_repr_n (i32.sub (global.get $seq_repr_n) (i32.const 1)))
      (call $native_leave)
      (return (local.get $r))))
  (global.set $seq_repr_n (i32.sub (global.get $seq_repr_n) (i32.const 1)))
  (throw $exc (local.get $e)))

(func $seq_repr_items (param $v i64) (result i64)
  (local $p i32) (local $list i32) (local $sb i32) (local $i i32) (local $x i64)
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (local.set $list (i32.eq (i32.load (local.get $p)) (i32.const TYPE_LIST)))
  (local.set $sb (call $sb_new))
  (call $sb_push_byte (local.get $sb) (select (i32.const 91) (i32.const 40) (local.get $list)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (local.get $p))))
      (if (local.get $i)
        (then (call $sb_push_byte (local.get $sb) (i32.const 44)) (call $sb_push_byte (local.get $sb) (i32.const 32))))
      (local.set $x (i64.load (i32.add (call $seq_items (local.get $v)) (i32.shl (local.get $i) (i32.const 3)))))
      (if (i32.wrap_i64 (i64.and (local.get $x) (i64.const 1)))
        (then (call $sb_push_i64 (local.get $sb) (i64.shr_s (local.get $x) (i64.const 1))))
        (else (call $sb_push_str (local.get $sb) (call $to_repr (local.get $x)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (if (i32.and (i32.eqz (local.get $list)) (i32.eq (i32.load offset=4 (local.get $p)) (i32.const 1)))
    (then (call $sb_push_byte (local.get $sb) (i32.const 44))))
  (call $sb_push_byte (local.get $sb) (select (i32.const 93) (i32.const 41) (local.get $list)))
  (call $sb_finish (local.get $sb)))

(func $seq_range_repr (param $p i32) (result i64)
  (local $sb i32)
  (local.set $sb (call $sb_new))
  (call $sb_push_str (local.get $sb) (call $seq_s (global.get $s_seq_range_open)))
  (call $sb_push_i64 (local.get $sb) (call $seq_rstart (local.get $p)))
  (call $sb_push_byte (local.get $sb) (i32.const 44))
  (call $sb_push_byte (local.get $sb) (i32.const 32))
  (call $sb_push_i64 (local.get $sb) (call $seq_rstop (local.get $p)))
  (if (i64.ne (call $seq_rstep (local.get $p)) (i64.const 1))
    (then
      (call $sb_push_byte (local.get $sb) (i32.const 44))
      (call $sb_push_byte (local.get $sb) (i32.const 32))
      (call $sb_push_i64 (local.get $sb) (call $seq_rstep (local.get $p)))))
  (call $sb_push_byte (local.get $sb) (i32.const 41))
  (call $sb_finish (local.get $sb)))

;; CPython's tuple hash (xxHash-based), combining $hash of the items.
(func $tuple_hash (param $t i64) (result i64)
  (local $p i32) (local $n i32) (local $i i32) (local $acc i64) (local $lane i64)
  (local.set $p (i32.wrap_i64 (local.get $t)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $acc (i64.const 2870177450012600261))
  (call $native_enter)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $lane (call $hash (i64.load offset=8 (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 3))))))
      (local.set $acc (i64.add (local.get $acc) (i64.mul (local.get $lane) (i64.const -4417276706812531889))))
      (local.set $acc (i64.rotl (local.get $acc) (i64.const 31)))
      (local.set $acc (i64.mul (local.get $acc) (i64.const -7046029288634856825)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $native_leave)
  (local.set $acc (i64.add (local.get $acc)
    (i64.xor (i64.extend_i32_u (local.get $n)) (i64.xor (i64.const 2870177450012600261) (i64.const 3527539)))))
  (if (i64.eq (local.get $acc) (i64.const -1)) (then (return (i64.const 1546275796))))
  (local.get $acc))

;; ---- slices and ranges -------------------------------------------------------------------------

(func $slice_new (param $lo i64) (param $hi i64) (param $step i64) (result i64)
  (local $s i32)
  (local.set $s (call $alloc (i32.const 32)))
  (i32.store (local.get $s) (i32.const TYPE_SLICE))
  (i64.store offset=8 (local.get $s) (local.get $lo))
  (i64.store offset=16 (local.get $s) (local.get $hi))
  (i64.store offset=24 (local.get $s) (local.get $step))
  (i64.extend_i32_u (local.get $s)))

;; slice(stop), slice(start, stop[, step]): any values, checked when the slice is used.
(func $b_slice (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32)
  (call $no_kwargs (global.get $s_seq_slice_name) (local.get $kwargs))
  (local.set $n (call $nargs (local.get $args)))
  (if (i32.eqz (local.get $n))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_slice_at_least))))
  (if (i32.gt_u (local.get $n) (i32.const 3))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_slice_at_most)
      (call $to_str (call $int_new (i64.extend_i32_u (local.get $n))))))))
  (if (i32.eq (local.get $n) (i32.const 1))
    (then (return (call $slice_new (i64.const 8) (call $arg (local.get $args) (i32.const 0)) (i64.const 8)))))
  (call $slice_new (call $arg (local.get $args) (i32.const 0)) (call $arg (local.get $args) (i32.const 1))
    (select (call $arg (local.get $args) (i32.const 2)) (i64.const 8) (i32.eq (local.get $n) (i32.const 3)))))

;; A slice bound: int or bool (None is handled by the caller).
(func $seq_slice_int (param $v i64) (result i64)
  (if (i32.eqz (call $seq_is_int (local.get $v)))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_slice_indices))))
  (call $seq_as_index (local.get $v)))

;; A slice resolved against a sequence of `len` items, as CPython's PySlice_AdjustIndices:
;; start, stop, step and the number of items selected.
(func $seq_slice (param $sl i32) (param $len i64) (result i64 i64 i64 i64)
  (local $v i64) (local $start i64) (local $stop i64) (local $step i64) (local $count i64) (local $neg i32)
  (local.set $v (i64.load offset=24 (local.get $sl)))
  (if (i64.eq (local.get $v) (i64.const 8))
    (then (local.set $step (i64.const 1)))
    (else
      (local.set $step (call $seq_slice_int (local.get $v)))
      (if (i64.eqz (local.get $step))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_seq_slice_step_zero))))
      (if (i64.lt_s (local.get $step) (i64.const -0x7FFF_FFFF_FFFF_FFFF))
        (then (local.set $step (i64.const -0x7FFF_FFFF_FFFF_FFFF))))))
  (local.set $neg (i64.lt_s (local.get $step) (i64.const 0)))
  (local.set $v (i64.load offset=8 (local.get $sl)))
  (if (i64.eq (local.get $v) (i64.const 8))
    (then (local.set $start (select (i64.const 0x7FFF_FFFF_FFFF_FFFF) (i64.const 0) (local.get $neg))))
    (else (local.set $start (call $seq_slice_int (local.get $v)))))
  (local.set $v (i64.load offset=16 (local.get $sl)))
  (if (i64.eq (local.get $v) (i64.const 8))
    (then (local.set $stop (select (i64.const 0x8000_0000_0000_0000) (i64.const 0x7FFF_FFFF_FFFF_FFFF) (local.get $neg))))
    (else (local.set $stop (call $seq_slice_int (local.get $v)))))
  (if (i64.lt_s (local.get $start) (i64.const 0))
    (then
      (local.set $start (i64.add (local.get $start) (local.get $len)))
      (if (i64.lt_s (local.get $start) (i64.const 0))
        (then (local.set $start (select (i64.const -1) (i64.const 0) (local.get $neg))))))
    (else
      (if (i64.ge_s (local.get $start) (local.get $len))
        (then (local.set $start (select (i64.sub (local.get $len) (i64.const 1)) (local.get $len) (local.get $neg)))))))
  (if (i64.lt_s (local.get $stop) (i64.const 0))
    (then
      (local.set $stop (i64.add (local.get $stop) (local.get $len)))
      (if (i64.lt_s (local.get $stop) (i64.const 0))
        (then (local.set $stop (select (i64.const -1) (i64.const 0) (local.get $neg))))))
    (else
      (if (i64.ge_s (local.get $stop) (local.get $len))
        (then (local.set $stop (select (i64.sub (local.get $len) (i64.const 1)) (local.get $len) (local.get $neg)))))))
  (if (local.get $neg)
    (then
      (if (i64.lt_s (local.get $stop) (local.get $start))
        (then (local.set $count (i64.add (i64.div_u (i64.sub (i64.sub (local.get $start) (local.get $stop)) (i64.const 1))
          (i64.sub (i64.const 0) (local.get $step))) (i64.const 1))))))
    (else
      (if (i64.lt_s (local.get $start) (local.get $stop))
        (then (local.set $count (i64.add (i64.div_u (i64.sub (i64.sub (local.get $stop) (local.get $start)) (i64.const 1))
          (local.get $step)) (i64.const 1)))))))
  (local.get $start) (local.get $stop) (local.get $step) (local.get $count))

;; Range fields are int values; these read them as raw integers.
(func $seq_rfield (param $v i64) (result i64)
  (if (result i64) (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))
    (then (i64.shr_s (local.get $v) (i64.const 1)))
    (else (i64.load offset=8 (i32.wrap_i64 (local.get $v))))))
(func $seq_rstart (param $r i32) (result i64) (call $seq_rfield (i64.load offset=8 (local.get $r))))
(func $seq_rstop (param $r i32) (result i64) (call $seq_rfield (i64.load offset=16 (local.get $r))))
(func $seq_rstep (param $r i32) (result i64) (call $seq_rfield (i64.load offset=24 (local.get $r))))

;; A range from raw integers.
(func $seq_range_raw (param $start i64) (param $stop i64) (param $step i64) (result i64)
  (local $r i32)
  (local.set $r (call $alloc (i32.const 32)))
  (i32.store (local.get $r) (i32.const TYPE_RANGE))
  (i64.store offset=8 (local.get $r) (call $seq_int (local.get $start)))
  (i64.store offset=16 (local.get $r) (call $seq_int (local.get $stop)))
  (i64.store offset=24 (local.get $r) (call $seq_int (local.get $step)))
  (i64.extend_i32_u (local.get $r)))

;; range(start, stop, step) from int values.
(func $range_new (param $start i64) (param $stop i64) (param $step i64) (result i64)
  (local $a i64) (local $b i64) (local $c i64)
  (local.set $a (call $seq_as_index (local.get $start)))
  (local.set $b (call $seq_as_index (local.get $stop)))
  (local.set $c (call $seq_as_index (local.get $step)))
  (if (i64.eqz (local.get $c))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_seq_range_zero))))
  (call $seq_range_raw (local.get $a) (local.get $b) (local.get $c)))

;; The length of a range as an unsigned 64-bit count.
(func $seq_range_ulen (param $r i32) (result i64)
  (local $start i64) (local $stop i64) (local $step i64)
  (local.set $start (call $seq_rstart (local.get $r)))
  (local.set $stop (call $seq_rstop (local.get $r)))
  (local.set $step (call $seq_rstep (local.get $r)))
  (if (i64.gt_s (local.get $step) (i64.const 0))
    (then
      (if (i64.ge_s (local.get $start) (local.get $stop)) (then (return (i64.const 0))))
      (return (i64.add (i64.div_u (i64.sub (i64.sub (local.get $stop) (local.get $start)) (i64.const 1))
        (local.get $step)) (i64.const 1)))))
  (if (i64.le_s (local.get $start) (local.get $stop)) (then (return (i64.const 0))))
  (i64.add (i64.div_u (i64.sub (i64.sub (local.get $start) (local.get $stop)) (i64.const 1))
    (i64.sub (i64.const 0) (local.get $step))) (i64.const 1)))

;; len(range) as a raw integer; OverflowError beyond the signed 64-bit range.
(func $range_len (param $r i64) (result i64)
  (local $n i64)
  (local.set $n (call $seq_range_ulen (i32.wrap_i64 (local.get $r))))
  (if (i64.lt_s (local.get $n) (i64.const 0))
    (then (call $raise_static (global.get $t_OverflowError) (global.get $s_seq_ssize))))
  (local.get $n))

(func $seq_range_getitem (param $o i64) (param $k i64) (result i64)
  (local $r i32) (local $n i64) (local $i i64) (local $t i32)
  (local $s i64) (local $e i64) (local $st i64) (local $c i64)
  (local.set $r (i32.wrap_i64 (local.get $o)))
  (local.set $n (call $range_len (local.get $o)))
  (if (call $seq_is_int (local.get $k))
    (then
      (local.set $i (call $seq_as_index (local.get $k)))
      (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.add (local.get $i) (local.get $n)))))
      (if (i32.or (i64.lt_s (local.get $i) (i64.const 0)) (i64.ge_s (local.get $i) (local.get $n)))
        (then (call $raise_static (global.get $t_IndexError) (global.get $s_seq_range_index))))
      (return (call $seq_int (i64.add (call $seq_rstart (local.get $r))
        (i64.mul (local.get $i) (call $seq_rstep (local.get $r))))))))
  (if (i32.eq (call $tid (local.get $k)) (i32.const TYPE_SLICE))
    (then
      (call $seq_slice (i32.wrap_i64 (local.get $k)) (local.get $n))
      (local.set $c) (local.set $st) (local.set $e) (local.set $s)
      ;; Checked: a step beyond 64 bits (range(2, 20, 3)[::2**62]) is Baton's OverflowError,
      ;; where wrapping gave a wrong range.
      (return (call $seq_range_raw
        (call $i64_add (call $seq_rstart (local.get $r)) (call $i64_mul (local.get $s) (call $seq_rstep (local.get $r))))
        (call $i64_add (call $seq_rstart (local.get $r)) (call $i64_mul (local.get $e) (call $seq_rstep (local.get $r))))
        (call $i64_mul (local.get $st) (call $seq_rstep (local.get $r)))))))
  (call $raise_msg (global.get $t_TypeError)
    (call $msg2 (global.get $s_seq_indices_type) (call $type_name (local.get $o)) (call $type_name (local.get $k))))
  (unreachable))

;; Whether int `v` is one of the range's values.
(func $seq_range_has (param $r i32) (param $x i64) (result i32)
  (local $start i64) (local $stop i64) (local $step i64)
  (local.set $start (call $seq_rstart (local.get $r)))
  (local.set $stop (call $seq_rstop (local.get $r)))
  (local.set $step (call $seq_rstep (local.get $r)))
  (if (i64.gt_s (local.get $step) (i64.const 0))
    (then
      (if (i32.or (i64.lt_s (local.get $x) (local.get $start)) (i64.ge_s (local.get $x) (local.get $stop)))
        (then (return (i32.const 0))))
      (return (i64.eqz (i64.rem_u (i64.sub (local.get $x) (local.get $start)) (local.get $step))))))
  (if (i32.or (i64.gt_s (local.get $x) (local.get $start)) (i64.le_s (local.get $x) (local.get $stop)))
    (then (return (i32.const 0))))
  (i64.eqz (i64.rem_u (i64.sub (local.get $start) (local.get $x)) (i64.sub (i64.const 0) (local.get $step)))))

;; ---- subscripts --------------------------------------------------------------------------------

;; o[k] for every subscriptable type.
(func $getitem (param $o i64) (param $k i64) (result i64)
  (local $t i32) (local $p i32) (local $i i64) (local $n i64)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_LIST)) (i32.eq (local.get $t) (i32.const TYPE_TUPLE)))
    (then
      (local.set $p (i32.wrap_i64 (local.get $o)))
      (if (i32.wrap_i64 (i64.and (local.get $k) (i64.const 1)))
        (then
          (local.set $i (i64.shr_s (local.get $k) (i64.const 1)))
          (local.set $n (i64.extend_i32_u (i32.load offset=4 (local.get $p))))
          (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.add (local.get $i) (local.get $n)))))
          (if (i64.lt_u (local.get $i) (local.get $n))
            (then
              (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
                (then (return (i64.load (i32.add (i32.load offset=12 (local.get $p)) (i32.shl (i32.wrap_i64 (local.get $i)) (i32.const 3)))))))
              (return (i64.load offset=8 (i32.add (local.get $p) (i32.shl (i32.wrap_i64 (local.get $i)) (i32.const 3)))))))))
      (return (call $seq_getitem_slow (local.get $o) (local.get $k)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_STR)) (then (return (call $str_getitem (local.get $o) (local.get $k)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT)) (then (return (call $dict_getitem (local.get $o) (local.get $k)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_RANGE)) (then (return (call $seq_range_getitem (local.get $o) (local.get $k)))))
  ;; A plan library's object (`_baton.record`, len 1) with a `__getitem__` field: `m[1]` of a
  ;; re.Match is `m.group(1)`.
  (if (i32.eq (local.get $t) (i32.const TYPE_RECORD))
    (then
      (if (i32.eq (i32.load offset=4 (i32.wrap_i64 (local.get $o))) (i32.const 1))
        (then
          (local.set $i (call $dict_get
            (i64.extend_i32_u (i32.load offset=12 (i32.wrap_i64 (local.get $o))))
            (i64.extend_i32_u (global.get $s_seq_dunder_getitem))))
          (if (i64.ne (local.get $i) (i64.const 0))
            (then (return (call $call (local.get $i) (i32.wrap_i64 (call $tuple1 (local.get $k))) (i32.const 0)))))))))
  ;; A generic type subscripted is itself (`list[int]`, `Optional[str]`; catalog::is_generic).
  (if (i32.eq (local.get $t) (i32.const TYPE_TYPE))
    (then
      (if (i32.load offset=4 (i32.wrap_i64 (local.get $o))) (then (return (local.get $o))))
      (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_type_not_subscriptable)
        (i64.extend_i32_u (i32.load offset=8 (i32.wrap_i64 (local.get $o))))))))
  (call $seq_type_error (global.get $s_seq_not_subscriptable) (local.get $o))
  (unreachable))

;; Normalizes an int index of a list or tuple of `n` items; raises `msg` when out of range.
(func $seq_norm_index (param $k i64) (param $n i64) (param $msg i32) (result i32)
  (local $i i64)
  (local.set $i (call $seq_as_index (local.get $k)))
  (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.add (local.get $i) (local.get $n)))))
  (if (i64.ge_u (local.get $i) (local.get $n))
    (then (call $raise_static (global.get $t_IndexError) (local.get $msg))))
  (i32.wrap_i64 (local.get $i)))

(func $seq_indices_error (param $o i64) (param $k i64)
  (call $raise_msg (global.get $t_TypeError)
    (call $msg2 (global.get $s_seq_indices_type) (call $type_name (local.get $o)) (call $type_name (local.get $k)))))

;; List and tuple subscripts other than small ints in range.
(func $seq_getitem_slow (param $o i64) (param $k i64) (result i64)
  (local $t i32) (local $n i64) (local $i i32) (local $items i32)
  (local $s i64) (local $e i64) (local $st i64) (local $c i64) (local $r i64) (local $dst i32) (local $j i32)
  (local.set $t (call $tid (local.get $o)))
  (local.set $n (i64.extend_i32_u (i32.load offset=4 (i32.wrap_i64 (local.get $o)))))
  (local.set $items (call $seq_items (local.get $o)))
  (if (call $seq_is_int (local.get $k))
    (then
      (local.set $i (call $seq_norm_index (local.get $k) (local.get $n)
        (select (global.get $s_seq_list_index) (global.get $s_seq_tuple_index) (i32.eq (local.get $t) (i32.const TYPE_LIST)))))
      (return (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))))
  (if (i32.ne (call $tid (local.get $k)) (i32.const TYPE_SLICE))
    (then (call $seq_indices_error (local.get $o) (local.get $k))))
  (call $seq_slice (i32.wrap_i64 (local.get $k)) (local.get $n))
  (local.set $c) (local.set $st) (local.set $e) (local.set $s)
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
    (then
      (if (i64.eq (local.get $c) (local.get $n)) (then (if (i64.eq (local.get $st) (i64.const 1)) (then (return (local.get $o))))))
      (local.set $r (i64.extend_i32_u (call $tuple_new (i32.wrap_i64 (local.get $c)))))
      (local.set $dst (i32.add (i32.wrap_i64 (local.get $r)) (i32.const 8))))
    (else
      (local.set $r (call $list_new (i32.wrap_i64 (local.get $c))))
      (i32.store offset=4 (i32.wrap_i64 (local.get $r)) (i32.wrap_i64 (local.get $c)))
      (local.set $dst (i32.load offset=12 (i32.wrap_i64 (local.get $r))))))
  (if (i64.eq (local.get $st) (i64.const 1))
    (then
      (call $memcpy (local.get $dst) (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (local.get $s)) (i32.const 3)))
        (i32.shl (i32.wrap_i64 (local.get $c)) (i32.const 3)))
      (return (local.get $r))))
  (local.set $i (i32.wrap_i64 (local.get $s)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $j) (i32.wrap_i64 (local.get $c))))
      (i64.store (i32.add (local.get $dst) (i32.shl (local.get $j) (i32.const 3)))
        (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $i (i32.add (local.get $i) (i32.wrap_i64 (local.get $st))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $each)))
  (local.get $r))

;; o[k] = v.
(func $setitem (param $o i64) (param $k i64) (param $v i64)
  (local $t i32) (local $p i32) (local $i i64) (local $n i64)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
    (then
      (local.set $p (i32.wrap_i64 (local.get $o)))
      (local.set $n (i64.extend_i32_u (i32.load offset=4 (local.get $p))))
      (if (i32.wrap_i64 (i64.and (local.get $k) (i64.const 1)))
        (then
          (local.set $i (i64.shr_s (local.get $k) (i64.const 1)))
          (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.add (local.get $i) (local.get $n)))))
          (if (i64.ge_u (local.get $i) (local.get $n))
            (then (call $raise_static (global.get $t_IndexError) (global.get $s_seq_list_assign_index))))
          (i64.store (i32.add (i32.load offset=12 (local.get $p)) (i32.shl (i32.wrap_i64 (local.get $i)) (i32.const 3)))
            (local.get $v))
          (return)))
      (if (call $seq_is_int (local.get $k))
        (then
          (i64.store (i32.add (i32.load offset=12 (local.get $p))
              (i32.shl (call $seq_norm_index (local.get $k) (local.get $n) (global.get $s_seq_list_assign_index)) (i32.const 3)))
            (local.get $v))
          (return)))
      (if (i32.eq (call $tid (local.get $k)) (i32.const TYPE_SLICE))
        (then (call $seq_set_slice (local.get $p) (i32.wrap_i64 (local.get $k)) (local.get $v)) (return)))
      (call $seq_indices_error (local.get $o) (local.get $k))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT))
    (then (call $dict_set (local.get $o) (local.get $k) (local.get $v)) (return)))
  (call $seq_type_error (global.get $s_seq_no_assign) (local.get $o)))

;; list[slice] = iterable.
(func $seq_set_slice (param $l i32) (param $sl i32) (param $v i64)
  (local $n i64) (local $s i64) (local $e i64) (local $st i64) (local $c i64)
  (local $t i32) (local $src i32) (local $m i32) (local $items i32) (local $newlen i32) (local $j i32) (local $i i32)
  (local.set $n (i64.extend_i32_u (i32.load offset=4 (local.get $l))))
  (call $seq_slice (local.get $sl) (local.get $n))
  (local.set $c) (local.set $st) (local.set $e) (local.set $s)
  (local.set $t (call $tid (local.get $v)))
  (if (i32.or (i64.eq (local.get $v) (i64.extend_i32_u (local.get $l)))
        (i32.and (i32.ne (local.get $t) (i32.const TYPE_TUPLE)) (i32.ne (local.get $t) (i32.const TYPE_LIST))))
    (then
      (if (i32.eqz (call $seq_iterable (local.get $v)))
        (then (call $raise_static (global.get $t_TypeError)
          (select (global.get $s_seq_assign_iterable) (global.get $s_seq_assign_extended) (i64.eq (local.get $st) (i64.const 1))))))
      (local.set $v (call $list_from (local.get $v)))))
  (local.set $src (call $seq_items (local.get $v)))
  (local.set $m (i32.load offset=4 (i32.wrap_i64 (local.get $v))))
  (if (i64.eq (local.get $st) (i64.const 1))
    (then
      (local.set $newlen (i32.add (i32.sub (i32.wrap_i64 (local.get $n)) (i32.wrap_i64 (local.get $c))) (local.get $m)))
      (call $seq_reserve (local.get $l) (local.get $newlen))
      (local.set $items (i32.load offset=12 (local.get $l)))
      (memory.copy
        (i32.add (local.get $items) (i32.shl (i32.add (i32.wrap_i64 (local.get $s)) (local.get $m)) (i32.const 3)))
        (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (i64.add (local.get $s) (local.get $c))) (i32.const 3)))
        (i32.shl (i32.wrap_i64 (i64.sub (local.get $n) (i64.add (local.get $s) (local.get $c)))) (i32.const 3)))
      (call $memcpy (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (local.get $s)) (i32.const 3)))
        (local.get $src) (i32.shl (local.get $m) (i32.const 3)))
      (i32.store offset=4 (local.get $l) (local.get $newlen))
      (return)))
  (if (i64.ne (i64.extend_i32_u (local.get $m)) (local.get $c))
    (then (call $raise_msg (global.get $t_ValueError)
      (call $msg2 (global.get $s_seq_ext_slice) (call $seq_istr (i64.extend_i32_u (local.get $m)))
        (call $seq_istr (local.get $c))))))
  (local.set $items (i32.load offset=12 (local.get $l)))
  (local.set $i (i32.wrap_i64 (local.get $s)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $j) (local.get $m)))
      (i64.store (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))
        (i64.load (i32.add (local.get $src) (i32.shl (local.get $j) (i32.const 3)))))
      (local.set $i (i32.add (local.get $i) (i32.wrap_i64 (local.get $st))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $each))))

;; del o[k].
(func $delitem (param $o i64) (param $k i64)
  (local $t i32) (local $p i32) (local $i i32) (local $n i32) (local $items i32)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
    (then
      (local.set $p (i32.wrap_i64 (local.get $o)))
      (local.set $n (i32.load offset=4 (local.get $p)))
      (if (call $seq_is_int (local.get $k))
        (then
          (local.set $i (call $seq_norm_index (local.get $k) (i64.extend_i32_u (local.get $n)) (global.get $s_seq_list_assign_index)))
          (local.set $items (i32.load offset=12 (local.get $p)))
          (memory.copy (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))
            (i32.add (local.get $items) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 3)))
            (i32.shl (i32.sub (i32.sub (local.get $n) (local.get $i)) (i32.const 1)) (i32.const 3)))
          (i32.store offset=4 (local.get $p) (i32.sub (local.get $n) (i32.const 1)))
          (return)))
      (if (i32.eq (call $tid (local.get $k)) (i32.const TYPE_SLICE))
        (then (call $seq_del_slice (local.get $p) (i32.wrap_i64 (local.get $k))) (return)))
      (call $seq_indices_error (local.get $o) (local.get $k))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT))
    (then
      (if (i32.eqz (call $dict_del (local.get $o) (local.get $k)))
        (then (call $raise (call $exc_new (global.get $t_KeyError) (call $tuple1 (local.get $k))))))
      (return)))
  ;; CPython words it by whether the type is a sequence at all (`in` and len()) and the key an
  ;; index: "doesn't" for str, tuple, range, set, frozenset and dict views with an int key,
  ;; "does not" otherwise.
  (call $seq_type_error
    (select (global.get $s_seq_no_delete) (global.get $s_seq_no_delete_at_all)
      (i32.and (i32.and (call $seq_iterable (local.get $o)) (i32.ne (local.get $t) (i32.const TYPE_ITERATOR)))
        (i32.or (i32.eq (call $tid (local.get $k)) (i32.const TYPE_INT)) (i32.eq (call $tid (local.get $k)) (i32.const TYPE_BOOL)))))
    (local.get $o)))

;; del list[slice].
(func $seq_del_slice (param $l i32) (param $sl i32)
  (local $n i32) (local $s i64) (local $e i64) (local $st i64) (local $c i64)
  (local $items i32) (local $r i32) (local $w i32) (local $next i32) (local $left i32)
  (local.set $n (i32.load offset=4 (local.get $l)))
  (call $seq_slice (local.get $sl) (i64.extend_i32_u (local.get $n)))
  (local.set $c) (local.set $st) (local.set $e) (local.set $s)
  (if (i64.eqz (local.get $c)) (then (return)))
  (if (i64.lt_s (local.get $st) (i64.const 0))
    (then
      (local.set $s (i64.add (local.get $s) (i64.mul (i64.sub (local.get $c) (i64.const 1)) (local.get $st))))
      (local.set $st (i64.sub (i64.const 0) (local.get $st)))))
  (local.set $items (i32.load offset=12 (local.get $l)))
  (if (i64.eq (local.get $st) (i64.const 1))
    (then
      (memory.copy (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (local.get $s)) (i32.const 3)))
        (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (i64.add (local.get $s) (local.get $c))) (i32.const 3)))
        (i32.shl (i32.sub (local.get $n) (i32.wrap_i64 (i64.add (local.get $s) (local.get $c)))) (i32.const 3)))
      (i32.store offset=4 (local.get $l) (i32.sub (local.get $n) (i32.wrap_i64 (local.get $c))))
      (return)))
  ;; Compact: skip indices s, s+st, ... (c of them).
  (local.set $r (i32.wrap_i64 (local.get $s)))
  (local.set $w (local.get $r))
  (local.set $next (local.get $r))
  (local.set $left (i32.wrap_i64 (local.get $c)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
      (if (i32.and (i32.eq (local.get $r) (local.get $next)) (i32.ne (local.get $left) (i32.const 0)))
        (then
          (local.set $next (i32.add (local.get $next) (i32.wrap_i64 (local.get $st))))
          (local.set $left (i32.sub (local.get $left) (i32.const 1))))
        (else
          (i64.store (i32.add (local.get $items) (i32.shl (local.get $w) (i32.const 3)))
            (i64.load (i32.add (local.get $items) (i32.shl (local.get $r) (i32.const 3)))))
          (local.set $w (i32.add (local.get $w) (i32.const 1)))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $each)))
  (i32.store offset=4 (local.get $l) (local.get $w)))

;; ---- iteration ---------------------------------------------------------------------------------

(func $iter (param $o i64) (result i64)
  (local $t i32) (local $it i32) (local $r i32)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.eq (local.get $t) (i32.const TYPE_ITERATOR)) (then (return (local.get $o))))
  (if (i32.eq (local.get $t) (i32.const TYPE_RANGE))
    (then
      (local.set $r (i32.wrap_i64 (local.get $o)))
      (local.set $it (call $alloc (i32.const 48)))
      (i32.store (local.get $it) (i32.const TYPE_ITERATOR))
      (i64.store offset=8 (local.get $it) (local.get $o))
      (i64.store offset=24 (local.get $it) (call $seq_rstart (local.get $r)))
      (i64.store offset=32 (local.get $it) (call $seq_rstep (local.get $r)))
      (i64.store offset=40 (local.get $it) (call $seq_range_ulen (local.get $r)))
      (return (i64.extend_i32_u (local.get $it)))))
  (if (i32.eqz (call $seq_iterable (local.get $o)))
    (then (call $seq_type_error (global.get $s_seq_not_iterable) (local.get $o))))
  (local.set $it (call $alloc (i32.const 24)))
  (i32.store (local.get $it) (i32.const TYPE_ITERATOR))
  (i64.store offset=8 (local.get $it) (local.get $o))
  (if (i32.ge_u (local.get $t) (i32.const TYPE_DICT))
    (then (i32.store offset=20 (local.get $it) (i32.load offset=4 (i32.wrap_i64 (local.get $o))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
    (then (i32.store offset=20 (local.get $it) (call $dict_view_len (local.get $o)))))
  (i64.extend_i32_u (local.get $it)))

;; The next item of an iterator, or 0 when it is exhausted.
(func $next (param $iter i64) (result i64)
  (local $it i32) (local $o i32) (local $t i32) (local $pos i32) (local $k i64) (local $e i32) (local $used i32)
  (local $left i64) (local $cur i64)
  (local.set $it (i32.wrap_i64 (local.get $iter)))
  (if (i32.load offset=4 (local.get $it)) (then (return (call $lazy_next (local.get $it)))))
  (local.set $o (i32.load offset=8 (local.get $it)))
  (local.set $pos (i32.load offset=16 (local.get $it)))
  (local.set $t (i32.load (local.get $o)))
  (if (i32.eq (local.get $t) (i32.const 7))
    (then
      (if (i32.lt_u (local.get $pos) (i32.load offset=4 (local.get $o)))
        (then
          (i32.store offset=16 (local.get $it) (i32.add (local.get $pos) (i32.const 1)))
          (return (i64.load (i32.add (i32.load offset=12 (local.get $o)) (i32.shl (local.get $pos) (i32.const 3)))))))
      ;; Exhausted for good, even if the list grows later.
      (i32.store offset=16 (local.get $it) (i32.const -1))
      (return (i64.const 0))))
  (if (i32.eq (local.get $t) (i32.const 16))
    (then
      (local.set $left (i64.load offset=40 (local.get $it)))
      (if (i64.eqz (local.get $left)) (then (return (i64.const 0))))
      (local.set $cur (i64.load offset=24 (local.get $it)))
      (i64.store offset=40 (local.get $it) (i64.sub (local.get $left) (i64.const 1)))
      (i64.store offset=24 (local.get $it) (i64.add (local.get $cur) (i64.load offset=32 (local.get $it))))
      (return (call $seq_int (local.get $cur)))))
  (if (i32.eq (local.get $t) (i32.const 6))
    (then
      (if (i32.lt_u (local.get $pos) (i32.load offset=4 (local.get $o)))
        (then
          (i32.store offset=16 (local.get $it) (i32.add (local.get $pos) (i32.const 1)))
          (return (i64.load offset=8 (i32.add (local.get $o) (i32.shl (local.get $pos) (i32.const 3)))))))
      (return (i64.const 0))))
  (if (i32.eq (local.get $t) (i32.const 5))
    (then (return (call $seq_str_next (local.get $it) (local.get $o) (local.get $pos)))))
  (if (i32.eq (local.get $t) (i32.const 19))
    (then (return (call $seq_view_next (local.get $it) (local.get $o) (local.get $pos)))))
  ;; dict (keys) and set
  (if (i32.ne (i32.load offset=4 (local.get $o)) (i32.load offset=20 (local.get $it)))
    (then
      (i32.store offset=20 (local.get $it) (i32.const -1))
      (call $raise_static (global.get $t_RuntimeError)
        (select (global.get $s_seq_dict_changed) (global.get $s_seq_set_changed) (i32.eq (local.get $t) (i32.const 8))))))
  (local.set $used (i32.load offset=12 (local.get $o)))
  (local.set $e (i32.load offset=8 (local.get $o)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $pos) (local.get $used)))
      (local.set $k (i64.load offset=8 (i32.add (local.get $e) (i32.mul (local.get $pos) (i32.const 24)))))
      (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
      (if (i64.ne (local.get $k) (i64.const 0))
        (then
          (i32.store offset=16 (local.get $it) (local.get $pos))
          (return (local.get $k))))
      (br $each)))
  (i32.store offset=16 (local.get $it) (local.get $pos))
  (i64.const 0))

;; The next item of a dict view's iterator: keys, values or (key, value) tuples, in order.
(func $seq_view_next (param $it i32) (param $view i32) (param $pos i32) (result i64)
  (local $d i32) (local $used i32) (local $e i32)
  (local.set $d (i32.load offset=8 (local.get $view)))
  (if (i32.ne (i32.load offset=4 (local.get $d)) (i32.load offset=20 (local.get $it)))
    (then
      (i32.store offset=20 (local.get $it) (i32.const -1))
      (call $raise_static (global.get $t_RuntimeError) (global.get $s_seq_dict_changed))))
  (local.set $used (i32.load offset=12 (local.get $d)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $pos) (local.get $used)))
      (local.set $e (call $dict_entry (local.get $d) (local.get $pos)))
      (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
      (if (i64.ne (i64.load offset=8 (local.get $e)) (i64.const 0))
        (then
          (i32.store offset=16 (local.get $it) (local.get $pos))
          (return (call $dict_view_item (local.get $e) (i32.load offset=4 (local.get $view))))))
      (br $each)))
  (i32.store offset=16 (local.get $it) (local.get $pos))
  (i64.const 0))

;; The next character of a str iterator: by index for ASCII text, else by byte offset (+20).
(func $seq_str_next (param $it i32) (param $s i32) (param $pos i32) (result i64)
  (local $off i32) (local $b i32) (local $n i32) (local $c i32)
  (if (i32.ge_u (local.get $pos) (i32.load offset=8 (local.get $s))) (then (return (i64.const 0))))
  (i32.store offset=16 (local.get $it) (i32.add (local.get $pos) (i32.const 1)))
  (if (i32.eq (i32.load offset=4 (local.get $s)) (i32.load offset=8 (local.get $s)))
    (then (return (call $str_char (i64.extend_i32_u (local.get $s)) (local.get $pos)))))
  (local.set $off (i32.load offset=20 (local.get $it)))
  (local.set $b (i32.load8_u offset=16 (i32.add (local.get $s) (local.get $off))))
  (local.set $n
    (if (result i32) (i32.lt_u (local.get $b) (i32.const 0x80)) (then (i32.const 1))
      (else (if (result i32) (i32.lt_u (local.get $b) (i32.const 0xE0)) (then (i32.const 2))
        (else (if (result i32) (i32.lt_u (local.get $b) (i32.const 0xF0)) (then (i32.const 3))
          (else (i32.const 4))))))))
  (i32.store offset=20 (local.get $it) (i32.add (local.get $off) (local.get $n)))
  (if (i32.eq (local.get $n) (i32.const 1))
    (then (return (call $str_char (i64.extend_i32_u (local.get $s)) (local.get $pos)))))
  (local.set $c (call $str_alloc (local.get $n) (i32.const 1)))
  (call $memcpy (i32.add (local.get $c) (i32.const 16)) (i32.add (i32.add (local.get $s) (i32.const 16)) (local.get $off))
    (local.get $n))
  (i64.extend_i32_u (local.get $c)))

;; ---- unpacking ---------------------------------------------------------------------------------

;; The items of any iterable as a list or tuple (lists and tuples as they are).
(func $seq_materialize (param $o i64) (param $unpack i32) (result i64)
  (local $t i32)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then (return (local.get $o))))
  (if (i32.eqz (call $seq_iterable (local.get $o)))
    (then
      (if (local.get $unpack)
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg1 (global.get $s_seq_unpack_non_iterable) (call $type_name (local.get $o))))))))
  (call $list_from (local.get $o)))

;; `a, b, c = o`: the address of n values.
(func $unpack (param $o i64) (param $n i32) (result i32)
  (local $t i32) (local $m i32) (local $it i64) (local $buf i32) (local $i i32) (local $v i64)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then
      (local.set $m (i32.load offset=4 (i32.wrap_i64 (local.get $o))))
      (if (i32.eq (local.get $m) (local.get $n)) (then (return (call $seq_items (local.get $o)))))
      (call $seq_unpack_error (local.get $n) (local.get $m))))
  (if (i32.eqz (call $seq_iterable (local.get $o)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_seq_unpack_non_iterable) (call $type_name (local.get $o))))))
  (local.set $it (call $iter (local.get $o)))
  ;; The items of a tuple, returned by address (+8): the compiled code that reads them keeps
  ;; that address in a shadow slot, which keeps the whole tuple (gc.wat, `$mark_root`).
  (local.set $buf (i32.add (call $tuple_new (local.get $n)) (i32.const 8)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $v (call $next (local.get $it)))
      (if (i64.eqz (local.get $v)) (then (call $seq_unpack_error (local.get $n) (local.get $i))))
      (i64.store (i32.add (local.get $buf) (i32.shl (local.get $i) (i32.const 3))) (local.get $v))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (if (i64.ne (call $next (local.get $it)) (i64.const 0))
    (then (call $seq_unpack_error (local.get $n) (i32.add (local.get $n) (i32.const 1)))))
  (local.get $buf))

(func $seq_unpack_error (param $expected i32) (param $got i32)
  (if (i32.gt_u (local.get $got) (local.get $expected))
    (then (call $raise_msg (global.get $t_ValueError)
      (call $msg1 (global.get $s_seq_unpack_many) (call $seq_istr (i64.extend_i32_u (local.get $expected)))))))
  (call $raise_msg (global.get $t_ValueError)
    (call $msg2 (global.get $s_seq_unpack_few) (call $seq_istr (i64.extend_i32_u (local.get $expected)))
      (call $seq_istr (i64.extend_i32_u (local.get $got))))))

;; `a, *b, c = o`: before + 1 + after values; the middle one a new list.
(func $unpack_star (param $o i64) (param $before i32) (param $after i32) (result i32)
  (local $s i64) (local $m i32) (local $items i32) (local $buf i32) (local $mid i32)
  (local.set $s (call $seq_materialize (local.get $o) (i32.const 1)))
  (local.set $m (i32.load offset=4 (i32.wrap_i64 (local.get $s))))
  (local.set $items (call $seq_items (local.get $s)))
  (if (i32.lt_u (local.get $m) (i32.add (local.get $before) (local.get $after)))
    (then (call $raise_msg (global.get $t_ValueError)
      (call $msg2 (global.get $s_seq_unpack_few_star)
        (call $seq_istr (i64.extend_i32_u (i32.add (local.get $before) (local.get $after))))
        (call $seq_istr (i64.extend_i32_u (local.get $m)))))))
  (local.set $buf (call $alloc (i32.shl (i32.add (i32.add (local.get $before) (local.get $after)) (i32.const 1)) (i32.const 3))))
  (call $memcpy (local.get $buf) (local.get $items) (i32.shl (local.get $before) (i32.const 3)))
  (local.set $mid (i32.sub (i32.sub (local.get $m) (local.get $before)) (local.get $after)))
  (i64.store (i32.add (local.get $buf) (i32.shl (local.get $before) (i32.const 3)))
    (call $seq_list_of (i32.add (local.get $items) (i32.shl (local.get $before) (i32.const 3))) (local.get $mid)))
  (call $memcpy (i32.add (local.get $buf) (i32.shl (i32.add (local.get $before) (i32.const 1)) (i32.const 3)))
    (i32.add (local.get $items) (i32.shl (i32.add (local.get $before) (local.get $mid)) (i32.const 3)))
    (i32.shl (local.get $after) (i32.const 3)))
  (local.get $buf))

;; ---- len and in --------------------------------------------------------------------------------

;; len(o) as a raw integer.
(func $len (param $o i64) (result i64)
  (local $t i32)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.or (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
        (i32.or (i32.eq (local.get $t) (i32.const TYPE_DICT)) (i32.eq (local.get $t) (i32.const TYPE_SET))))
    (then (return (i64.extend_i32_u (i32.load offset=4 (i32.wrap_i64 (local.get $o)))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_STR)) (then (return (call $str_len (local.get $o)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_RANGE)) (then (return (call $range_len (local.get $o)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
    (then (return (i64.extend_i32_u (call $dict_view_len (local.get $o))))))
  (call $seq_type_error (global.get $s_seq_no_len) (local.get $o))
  (unreachable))

;; `v in o` for lists, tuples, ranges, str, dict, set and iterators.
(func $seq_contains (param $o i64) (param $v i64) (result i32)
  (local $t i32) (local $items i32) (local $i i32) (local $x i64) (local $it i64)
  (local.set $t (call $tid (local.get $o)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (i32.wrap_i64 (local.get $o)))))
          (local.set $x (i64.load (i32.add (call $seq_items (local.get $o)) (i32.shl (local.get $i) (i32.const 3)))))
          (if (call $seq_item_eq (local.get $x) (local.get $v)) (then (return (i32.const 1))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (i32.const 0))))
  (if (i32.eq (local.get $t) (i32.const TYPE_RANGE))
    (then
      (if (call $seq_is_int (local.get $v))
        (then (return (call $seq_range_has (i32.wrap_i64 (local.get $o)) (call $seq_as_index (local.get $v))))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_STR)) (then (return (call $str_contains (local.get $o) (local.get $v)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT)) (then (return (i64.ne (call $dict_get (local.get $o) (local.get $v)) (i64.const 0)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_SET)) (then (return (call $set_contains (local.get $o) (local.get $v)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW)) (then (return (call $dict_view_contains (local.get $o) (local.get $v)))))
  (if (i32.eqz (call $seq_iterable (local.get $o)))
    (then (call $seq_type_error (global.get $s_seq_arg_not_iterable) (local.get $o))))
  ;; Ranges with non-int values, iterators: search item by item.
  (local.set $it (call $iter (local.get $o)))
  (block $done
    (loop $each
      (local.set $x (call $next (local.get $it)))
      (br_if $done (i64.eqz (local.get $x)))
      (if (call $seq_item_eq (local.get $x) (local.get $v)) (then (return (i32.const 1))))
      (br $each)))
  (i32.const 0))

;; ---- sorting -----------------------------------------------------------------------------------
;; Records of `w` bytes (8: a value; 16: a key then its value), ordered by the i64 at the start
;; of each record through $seq_lt. Comparisons ask "later < earlier", as CPython's sort does
;; (so TypeError messages name the same operand order).

(func $seq_mv (param $dst i32) (param $src i32) (param $w i32)
  (i64.store (local.get $dst) (i64.load (local.get $src)))
  (if (i32.eq (local.get $w) (i32.const 16))
    (then (i64.store offset=8 (local.get $dst) (i64.load offset=8 (local.get $src))))))

;; CPython's listsort without its galloping and merge-stack policy: runs found by count_run (a
;; strictly descending one reversed), short runs extended to `minrun` by binary insertion,
;; then the runs merged depth first. A list shorter than 64 is one count_run and one binary
;; insertion sort, so it sees exactly CPython's comparisons, and an exception from one leaves
;; the items in CPython's order; longer lists make the same comparisons until the first merge
;; (1,500 random sorts: only 11 lists of 130-300 items whose sort raised were left in another
;; order, with the same exception).

;; The length of the run starting at `lo` (below `hi`), and whether it is strictly descending.
(func $seq_count_run (param $a i32) (param $lo i32) (param $hi i32) (param $w i32) (result i32 i32)
  (local $i i32) (local $p i32) (local $descending i32)
  (if (i32.ge_u (i32.add (local.get $lo) (i32.const 1)) (local.get $hi)) (then (return (i32.const 1) (i32.const 0))))
  (local.set $p (i32.add (local.get $a) (i32.mul (local.get $lo) (local.get $w))))
  (local.set $descending
    (call $seq_lt (i64.load (i32.add (local.get $p) (local.get $w))) (i64.load (local.get $p))))
  (local.set $i (i32.add (local.get $lo) (i32.const 2)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $hi)))
      (local.set $p (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $w))))
      (br_if $done (i32.ne (local.get $descending)
        (call $seq_lt (i64.load (local.get $p)) (i64.load (i32.sub (local.get $p) (local.get $w))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.sub (local.get $i) (local.get $lo)) (local.get $descending))

;; Sorts records [lo, hi) of which [lo, start) are sorted, by binary insertion: each pivot is
;; placed after its search, so a comparison that raises leaves the records as they were.
(func $seq_binarysort (param $a i32) (param $lo i32) (param $hi i32) (param $start i32) (param $w i32)
  (local $l i32) (local $r i32) (local $m i32) (local $k i64) (local $v i64) (local $ps i32) (local $pl i32)
  (if (i32.eq (local.get $start) (local.get $lo)) (then (local.set $start (i32.add (local.get $start) (i32.const 1)))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $start) (local.get $hi)))
      (local.set $ps (i32.add (local.get $a) (i32.mul (local.get $start) (local.get $w))))
      (local.set $k (i64.load (local.get $ps)))
      (if (i32.eq (local.get $w) (i32.const 16)) (then (local.set $v (i64.load offset=8 (local.get $ps)))))
      (local.set $l (local.get $lo))
      (local.set $r (local.get $start))
      (block $found
        (loop $halve
          (br_if $found (i32.ge_u (local.get $l) (local.get $r)))
          (local.set $m (i32.add (local.get $l) (i32.shr_u (i32.sub (local.get $r) (local.get $l)) (i32.const 1))))
          (if (call $seq_lt (local.get $k) (i64.load (i32.add (local.get $a) (i32.mul (local.get $m) (local.get $w)))))
            (then (local.set $r (local.get $m)))
            (else (local.set $l (i32.add (local.get $m) (i32.const 1)))))
          (br $halve)))
      (local.set $pl (i32.add (local.get $a) (i32.mul (local.get $l) (local.get $w))))
      ;; Shift [l, start) up one record, a word at a time from the end (short shifts are the
      ;; common case, and memory.copy is a call out of wasm).
      (block $shifted
        (loop $shift
          (br_if $shifted (i32.le_u (local.get $ps) (local.get $pl)))
          (local.set $ps (i32.sub (local.get $ps) (i32.const 8)))
          (i64.store (i32.add (local.get $ps) (local.get $w)) (i64.load (local.get $ps)))
          (br $shift)))
      (i64.store (local.get $pl) (local.get $k))
      (if (i32.eq (local.get $w) (i32.const 16)) (then (i64.store offset=8 (local.get $pl) (local.get $v))))
      (local.set $start (i32.add (local.get $start) (i32.const 1)))
      (br $each))))

;; Merges the sorted records [lo, mid) and [mid, hi) stably into `tmp` (room for hi - lo),
;; then copies them back. The runs stay intact until the copy, so a comparison that raises
;; leaves every item in the list, with no handler in the loop (a call inside `try_table`
;; makes Cranelift spill the loop's registers around it: 20% slower sorts).
(func $seq_merge (param $a i32) (param $tmp i32) (param $lo i32) (param $mid i32) (param $hi i32) (param $w i32)
  (local $pi i32) (local $pj i32) (local $pk i32) (local $end_i i32) (local $end_j i32)
  ;; Already in order: nothing to merge (sorted input costs O(n)).
  (if (i32.eqz (call $seq_lt (i64.load (i32.add (local.get $a) (i32.mul (local.get $mid) (local.get $w))))
        (i64.load (i32.add (local.get $a) (i32.mul (i32.sub (local.get $mid) (i32.const 1)) (local.get $w))))))
    (then (return)))
  (local.set $pi (i32.add (local.get $a) (i32.mul (local.get $lo) (local.get $w))))
  (local.set $end_i (i32.add (local.get $a) (i32.mul (local.get $mid) (local.get $w))))
  (local.set $pj (local.get $end_i))
  (local.set $end_j (i32.add (local.get $a) (i32.mul (local.get $hi) (local.get $w))))
  (local.set $pk (local.get $tmp))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $pi) (local.get $end_i)))
      (br_if $done (i32.ge_u (local.get $pj) (local.get $end_j)))
      (if (call $seq_lt (i64.load (local.get $pj)) (i64.load (local.get $pi)))
        (then
          (call $seq_mv (local.get $pk) (local.get $pj) (local.get $w))
          (local.set $pj (i32.add (local.get $pj) (local.get $w))))
        (else
          (call $seq_mv (local.get $pk) (local.get $pi) (local.get $w))
          (local.set $pi (i32.add (local.get $pi) (local.get $w)))))
      (local.set $pk (i32.add (local.get $pk) (local.get $w)))
      (br $each)))
  ;; What is left of the left run moves up to end where the merged part of the right run did
  ;; ($memcpy handles the overlap); the right run's rest is already in place; then the merged
  ;; records go back before it.
  (call $memcpy (i32.sub (local.get $pj) (i32.sub (local.get $end_i) (local.get $pi))) (local.get $pi)
    (i32.sub (local.get $end_i) (local.get $pi)))
  (call $memcpy (i32.add (local.get $a) (i32.mul (local.get $lo) (local.get $w))) (local.get $tmp)
    (i32.sub (local.get $pk) (local.get $tmp))))

;; Merges runs [i, j) of the run starts at `starts` (the start of run j is the end of run
;; j - 1), depth first: each half while it is still in cache.
(func $seq_merge_runs (param $a i32) (param $tmp i32) (param $starts i32) (param $i i32) (param $j i32) (param $w i32)
  (local $m i32)
  (if (i32.le_u (i32.sub (local.get $j) (local.get $i)) (i32.const 1)) (then (return)))
  (local.set $m (i32.shr_u (i32.add (local.get $i) (local.get $j)) (i32.const 1)))
  (call $seq_merge_runs (local.get $a) (local.get $tmp) (local.get $starts) (local.get $i) (local.get $m) (local.get $w))
  (call $seq_merge_runs (local.get $a) (local.get $tmp) (local.get $starts) (local.get $m) (local.get $j) (local.get $w))
  (call $seq_merge (local.get $a) (local.get $tmp)
    (i32.load (i32.add (local.get $starts) (i32.shl (local.get $i) (i32.const 2))))
    (i32.load (i32.add (local.get $starts) (i32.shl (local.get $m) (i32.const 2))))
    (i32.load (i32.add (local.get $starts) (i32.shl (local.get $j) (i32.const 2))))
    (local.get $w)))

;; Sorts the `n` records of `w` bytes at `a` (see above).
(func $seq_timsort (param $a i32) (param $n i32) (param $w i32)
  (local $minrun i32) (local $r i32) (local $m i32) (local $lo i32) (local $run i32) (local $force i32)
  (local $starts i32) (local $runs i32) (local $tmp i32) (local $descending i32)
  (if (i32.lt_u (local.get $n) (i32.const 2)) (then (return)))
  ;; CPython's merge_compute_minrun: n's top 6 bits, plus one when any lower bit is set.
  (local.set $m (local.get $n))
  (block $done (loop $each
    (br_if $done (i32.lt_u (local.get $m) (i32.const 64)))
    (local.set $r (i32.or (local.get $r) (i32.and (local.get $m) (i32.const 1))))
    (local.set $m (i32.shr_u (local.get $m) (i32.const 1)))
    (br $each)))
  (local.set $minrun (i32.add (local.get $m) (local.get $r)))
  ;; Run starts, then n as the end of the last.
  (local.set $starts (call $alloc64 (i64.shl (i64.extend_i32_u (i32.add (i32.div_u (local.get $n) (local.get $minrun)) (i32.const 2))) (i64.const 2))))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $lo) (local.get $n)))
    (call $seq_count_run (local.get $a) (local.get $lo) (local.get $n) (local.get $w))
    (local.set $descending)
    (local.set $run)
    (if (local.get $descending)
      (then (call $seq_reverse_records (i32.add (local.get $a) (i32.mul (local.get $lo) (local.get $w))) (local.get $run) (local.get $w))))
    (if (i32.lt_u (local.get $run) (local.get $minrun))
      (then
        (local.set $force (select (local.get $minrun) (i32.sub (local.get $n) (local.get $lo))
          (i32.lt_u (local.get $minrun) (i32.sub (local.get $n) (local.get $lo)))))
        (call $seq_binarysort (local.get $a) (local.get $lo) (i32.add (local.get $lo) (local.get $force))
          (i32.add (local.get $lo) (local.get $run)) (local.get $w))
        (local.set $run (local.get $force))))
    (i32.store (i32.add (local.get $starts) (i32.shl (local.get $runs) (i32.const 2))) (local.get $lo))
    (local.set $runs (i32.add (local.get $runs) (i32.const 1)))
    (local.set $lo (i32.add (local.get $lo) (local.get $run)))
    (br $each)))
  (if (i32.lt_u (local.get $runs) (i32.const 2)) (then (return)))
  (i32.store (i32.add (local.get $starts) (i32.shl (local.get $runs) (i32.const 2))) (local.get $n))
  (local.set $tmp (call $alloc64 (i64.mul (i64.extend_i32_u (local.get $n)) (i64.extend_i32_u (local.get $w)))))
  (call $seq_merge_runs (local.get $a) (local.get $tmp) (local.get $starts) (i32.const 0) (local.get $runs) (local.get $w)))

;; Reverses `n` records of `w` bytes in place.
(func $seq_reverse_records (param $a i32) (param $n i32) (param $w i32)
  (local $p i32) (local $q i32) (local $x i64) (local $y i64)
  (if (i32.lt_u (local.get $n) (i32.const 2)) (then (return)))
  (local.set $p (local.get $a))
  (local.set $q (i32.add (local.get $a) (i32.mul (i32.sub (local.get $n) (i32.const 1)) (local.get $w))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $p) (local.get $q)))
      (local.set $x (i64.load (local.get $p)))
      (i64.store (local.get $p) (i64.load (local.get $q)))
      (i64.store (local.get $q) (local.get $x))
      (if (i32.eq (local.get $w) (i32.const 16))
        (then
          (local.set $y (i64.load offset=8 (local.get $p)))
          (i64.store offset=8 (local.get $p) (i64.load offset=8 (local.get $q)))
          (i64.store offset=8 (local.get $q) (local.get $y))))
      (local.set $p (i32.add (local.get $p) (local.get $w)))
      (local.set $q (i32.sub (local.get $q) (local.get $w)))
      (br $each))))

;; Sorts list `l` in place, stably; `key` is a callable, None or 0; `rev` as reverse=True
;; (reverse, sort, reverse again, which keeps equal items in their original order).
;; As in CPython, the list is empty while it is sorted (a key function that looks at it sees
;; `[]`), and is given its items back afterwards: sorted, or, when a key or a comparison
;; raised, as far as the sort got. Items added meanwhile are dropped, with ValueError("list
;; modified during sort").
(func $seq_sort (param $l i32) (param $key i64) (param $rev i32)
  (local $n i32) (local $items i32) (local $cap i32) (local $e i64) (local $base i32)
  (local.set $n (i32.load offset=4 (local.get $l)))
  (local.set $items (i32.load offset=12 (local.get $l)))
  (local.set $cap (i32.load offset=8 (local.get $l)))
  ;; Empty and without an array, as after clear() (CPython's ob_item is NULL meanwhile, so a
  ;; clear() from a key function changes nothing).
  (i32.store offset=4 (local.get $l) (i32.const 0))
  (i32.store offset=8 (local.get $l) (i32.const 0))
  (i32.store offset=12 (local.get $l) (i32.const 0))
  ;; The list is rooted while a key function may collect (`sorted`'s new list has no other
  ;; reference); the slot is given back below, or by the handler of what the sort raised.
  (local.set $base (global.get $shadow_top))
  (call $root_push (i64.extend_i32_u (local.get $l)))
  (local.set $e
    (block $caught (result i64)
      (try_table (catch $exc $caught)
        (call $seq_sort_items (local.get $items) (local.get $n) (local.get $key) (local.get $rev))
        (br 1 (i64.const 0)))
      (unreachable)))
  (global.set $shadow_top (local.get $base))
  ;; Modified meanwhile: something was appended (a new array, or a length).
  (local.set $cap (select (local.get $cap) (i32.const -1)
    (i32.and (i32.eqz (i32.load offset=4 (local.get $l)))
      (i32.eqz (i32.load offset=12 (local.get $l))))))
  (i32.store offset=4 (local.get $l) (local.get $n))
  (i32.store offset=12 (local.get $l) (local.get $items))
  (if (i32.ne (local.get $cap) (i32.const -1))
    (then (i32.store offset=8 (local.get $l) (local.get $cap)))
    (else (i32.store offset=8 (local.get $l) (local.get $n))))
  (if (i64.ne (local.get $e) (i64.const 0)) (then (throw $exc (local.get $e))))
  (if (i32.eq (local.get $cap) (i32.const -1))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_seq_sort_modified)))))

;; Sorts the `n` values at `items` in place (see `$seq_sort`).
(func $seq_sort_items (param $items i32) (param $n i32) (param $key i64) (param $rev i32)
  (local $a i32) (local $w i32) (local $i i32) (local $v i64) (local $e i64) (local $base i32)
  (if (i32.or (i64.eqz (local.get $key)) (i64.eq (local.get $key) (i64.const 8)))
    (then
      (if (i32.lt_u (local.get $n) (i32.const 2)) (then (return)))
      (local.set $w (i32.const 8))
      (local.set $a (local.get $items)))
    (else
      ;; The records (key, value) are the items of a tuple, rooted with the key function and
      ;; the items array (detached from its list meanwhile, `$seq_sort`): the key function runs
      ;; with collections on, as `min`'s and `max`'s do, and every value and every key made so
      ;; far is seen. Keys not yet made are 0, which the collector skips.
      (local.set $w (i32.const 16))
      (local.set $base (global.get $shadow_top))
      (local.set $a (call $tuple_new (i32.shl (local.get $n) (i32.const 1))))
      (call $root_push (i64.extend_i32_u (local.get $a)))
      (call $root_push (local.get $key))
      (call $root_push (i64.extend_i32_u (local.get $items)))
      (local.set $a (i32.add (local.get $a) (i32.const 8)))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (i64.store offset=8 (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 4)))
            (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (local.set $i (i32.const 0))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $v (i64.load offset=8 (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 4)))))
          (i64.store (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 4)))
            (call $call_plan (local.get $key) (i32.wrap_i64 (call $tuple1 (local.get $v))) (i32.const 0)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      ;; Nothing below runs plan code: the roots can go.
      (global.set $shadow_top (local.get $base))
      (if (i32.lt_u (local.get $n) (i32.const 2)) (then (return)))))
  (if (local.get $rev) (then (call $seq_reverse_records (local.get $a) (local.get $n) (local.get $w))))
  ;; A comparison that raises still leaves the items as far as the sort got (reversed back
  ;; for reverse=True), as CPython's listsort does; only a raising key leaves them untouched.
  (local.set $e
    (block $caught (result i64)
      (try_table (catch $exc $caught)
        (call $seq_timsort (local.get $a) (local.get $n) (local.get $w))
        (br 1 (i64.const 0)))
      (unreachable)))
  (if (local.get $rev) (then (call $seq_reverse_records (local.get $a) (local.get $n) (local.get $w))))
  (if (i32.eq (local.get $w) (i32.const 16))
    (then
      (local.set $i (i32.const 0))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (i64.store (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))
            (i64.load offset=8 (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 4)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))))
  (if (i64.ne (local.get $e) (i64.const 0)) (then (throw $exc (local.get $e)))))

;; The reverse= argument: an int or bool (0 when absent).
(func $seq_reverse_flag (param $v i64) (result i32)
  (if (i64.eqz (local.get $v)) (then (return (i32.const 0))))
  (i64.ne (call $seq_as_index (local.get $v)) (i64.const 0)))

;; ---- list and tuple methods --------------------------------------------------------------------

;; The method number of a list method name (0: none): append 1, extend 2, insert 3, pop 4,
;; remove 5, index 6, count 7, sort 8, reverse 9, clear 10, copy 11.
(func $seq_method_id (param $name i64) (result i32)
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_append)) (then (return (i32.const 1))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_extend)) (then (return (i32.const 2))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_insert)) (then (return (i32.const 3))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_pop)) (then (return (i32.const 4))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_remove)) (then (return (i32.const 5))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_index)) (then (return (i32.const 6))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_count)) (then (return (i32.const 7))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_sort)) (then (return (i32.const 8))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_reverse)) (then (return (i32.const 9))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_clear)) (then (return (i32.const 10))))
  (if (call $seq_str_is (local.get $name) (global.get $s_seq_m_copy)) (then (return (i32.const 11))))
  (i32.const 0))

(func $seq_arg (param $args i32) (param $i i32) (result i64)
  (i64.load offset=8 (i32.add (local.get $args) (i32.shl (local.get $i) (i32.const 3)))))

(func $seq_one_arg (param $template i32) (param $name i64) (param $n i32)
  (if (i32.ne (local.get $n) (i32.const 1))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (local.get $template) (local.get $name) (call $seq_istr (i64.extend_i32_u (local.get $n))))))))

;; The index of the first item equal to `x` in items [start, stop) of a list or tuple (start and
;; stop as list.index takes them), or -1.
(func $seq_find (param $o i64) (param $x i64) (param $args i32) (result i32)
  (local $n i32) (local $argc i32) (local $start i64) (local $stop i64) (local $i i32) (local $len i64)
  (local.set $argc (i32.load offset=4 (local.get $args)))
  (local.set $len (i64.extend_i32_u (i32.load offset=4 (i32.wrap_i64 (local.get $o)))))
  (local.set $stop (local.get $len))
  (if (i32.ge_u (local.get $argc) (i32.const 2))
    (then
      (local.set $start (call $seq_index_arg (call $seq_arg (local.get $args) (i32.const 1)) (local.get $len)))))
  (if (i32.ge_u (local.get $argc) (i32.const 3))
    (then
      (local.set $stop (call $seq_index_arg (call $seq_arg (local.get $args) (i32.const 2)) (local.get $len)))))
  (local.set $i (i32.wrap_i64 (local.get $start)))
  (block $done
    (loop $each
      (br_if $done (i64.ge_s (i64.extend_i32_u (local.get $i)) (local.get $stop)))
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (i32.wrap_i64 (local.get $o)))))
      (if (call $seq_item_eq (i64.load (i32.add (call $seq_items (local.get $o)) (i32.shl (local.get $i) (i32.const 3))))
            (local.get $x))
        (then (return (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const -1))

;; A start/stop argument of index(): an int, negative counts from the end, clamped to [0, len].
(func $seq_index_arg (param $v i64) (param $len i64) (result i64)
  (local $i i64)
  (if (i32.eqz (call $seq_is_int (local.get $v)))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_slice_indices2))))
  (local.set $i (call $seq_as_index (local.get $v)))
  (if (i64.lt_s (local.get $i) (i64.const 0))
    (then
      (local.set $i (i64.add (local.get $i) (local.get $len)))
      (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.const 0))))))
  (if (i64.gt_s (local.get $i) (local.get $len)) (then (local.set $i (local.get $len))))
  (local.get $i))

(func $seq_count (param $o i64) (param $x i64) (result i64)
  (local $i i32) (local $c i64)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (i32.wrap_i64 (local.get $o)))))
      (if (call $seq_item_eq (i64.load (i32.add (call $seq_items (local.get $o)) (i32.shl (local.get $i) (i32.const 3))))
            (local.get $x))
        (then (local.set $c (i64.add (local.get $c) (i64.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $seq_int (local.get $c)))

;; self.name(*args, **kwargs) for a list; 0 when lists have no such method.
(func $list_method (param $self i64) (param $name i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $id i32) (local $argc i32) (local $l i32) (local $n i32) (local $i i64) (local $items i32)
  (local $v i64) (local $k1 i64) (local $k2 i64) (local $k3 i64)
  (local.set $id (call $seq_method_id (local.get $name)))
  (if (i32.eqz (local.get $id)) (then (return (i64.const 0))))
  (local.set $argc (i32.load offset=4 (local.get $args)))
  (local.set $l (i32.wrap_i64 (local.get $self)))
  (if (i32.eq (local.get $id) (i32.const 8))
    (then
      (if (local.get $argc) (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_sort_positional))))
      (if (i32.gt_u (call $seq_kw_count (local.get $kwargs)) (i32.const 2))
        (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_sort_kw_count)
          (call $seq_istr (i64.extend_i32_u (call $seq_kw_count (local.get $kwargs))))))))
      (call $seq_kwargs (local.get $kwargs) (global.get $s_seq_k_key) (global.get $s_seq_k_reverse) (i32.const 0)
        (global.get $s_seq_n_sort))
      (local.set $k3) (local.set $k2) (local.set $k1)
      (call $seq_sort (local.get $l) (local.get $k1) (call $seq_reverse_flag (local.get $k2)))
      (return (i64.const 8))))
  (if (call $seq_kw_count (local.get $kwargs))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_list_no_kw) (local.get $name)))))
  ;; append, extend, remove, count: exactly one argument
  (if (i32.or (i32.or (i32.eq (local.get $id) (i32.const 1)) (i32.eq (local.get $id) (i32.const 2)))
        (i32.or (i32.eq (local.get $id) (i32.const 5)) (i32.eq (local.get $id) (i32.const 7))))
    (then (call $seq_one_arg (global.get $s_seq_list_one_arg) (local.get $name) (local.get $argc))))
  ;; reverse, clear, copy: none
  (if (i32.ge_u (local.get $id) (i32.const 9))
    (then
      (if (local.get $argc)
        (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_seq_list_no_args) (local.get $name)
          (call $seq_istr (i64.extend_i32_u (local.get $argc)))))))))
  (local.set $n (i32.load offset=4 (local.get $l)))
  (block $copy (block $clear (block $reverse (block $count (block $index (block $remove (block $pop (block $insert
  (block $extend (block $append
    (br_table $append $append $extend $insert $pop $remove $index $count $append $reverse $clear $copy
      (local.get $id)))
    ;; append
    (call $list_append (local.get $self) (call $seq_arg (local.get $args) (i32.const 0)))
    (return (i64.const 8)))
    ;; extend
    (call $list_extend (local.get $self) (call $seq_arg (local.get $args) (i32.const 0)))
    (return (i64.const 8)))
    ;; insert
    (if (i32.ne (local.get $argc) (i32.const 2))
      (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_insert_args)
        (call $seq_istr (i64.extend_i32_u (local.get $argc)))))))
    (local.set $i (call $seq_as_index (call $seq_arg (local.get $args) (i32.const 0))))
    (if (i64.lt_s (local.get $i) (i64.const 0))
      (then
        (local.set $i (i64.add (local.get $i) (i64.extend_i32_u (local.get $n))))
        (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.const 0))))))
    (if (i64.gt_s (local.get $i) (i64.extend_i32_u (local.get $n))) (then (local.set $i (i64.extend_i32_u (local.get $n)))))
    (call $seq_reserve (local.get $l) (i32.add (local.get $n) (i32.const 1)))
    (local.set $items (i32.load offset=12 (local.get $l)))
    (memory.copy (i32.add (local.get $items) (i32.shl (i32.add (i32.wrap_i64 (local.get $i)) (i32.const 1)) (i32.const 3)))
      (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (local.get $i)) (i32.const 3)))
      (i32.shl (i32.sub (local.get $n) (i32.wrap_i64 (local.get $i))) (i32.const 3)))
    (i64.store (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (local.get $i)) (i32.const 3)))
      (call $seq_arg (local.get $args) (i32.const 1)))
    (i32.store offset=4 (local.get $l) (i32.add (local.get $n) (i32.const 1)))
    (return (i64.const 8)))
    ;; pop
    (if (i32.gt_u (local.get $argc) (i32.const 1))
      (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_pop_args)
        (call $seq_istr (i64.extend_i32_u (local.get $argc)))))))
    (local.set $i (i64.const -1))
    (if (local.get $argc) (then (local.set $i (call $seq_as_index (call $seq_arg (local.get $args) (i32.const 0))))))
    (if (i32.eqz (local.get $n)) (then (call $raise_static (global.get $t_IndexError) (global.get $s_seq_pop_empty))))
    (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.add (local.get $i) (i64.extend_i32_u (local.get $n))))))
    (if (i64.ge_u (local.get $i) (i64.extend_i32_u (local.get $n)))
      (then (call $raise_static (global.get $t_IndexError) (global.get $s_seq_pop_index))))
    (local.set $items (i32.load offset=12 (local.get $l)))
    (local.set $v (i64.load (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (local.get $i)) (i32.const 3)))))
    (memory.copy (i32.add (local.get $items) (i32.shl (i32.wrap_i64 (local.get $i)) (i32.const 3)))
      (i32.add (local.get $items) (i32.shl (i32.add (i32.wrap_i64 (local.get $i)) (i32.const 1)) (i32.const 3)))
      (i32.shl (i32.sub (i32.sub (local.get $n) (i32.wrap_i64 (local.get $i))) (i32.const 1)) (i32.const 3)))
    (i32.store offset=4 (local.get $l) (i32.sub (local.get $n) (i32.const 1)))
    (return (local.get $v)))
    ;; remove
    (local.set $i (i64.extend_i32_s (call $seq_find (local.get $self) (call $seq_arg (local.get $args) (i32.const 0))
      (local.get $args))))
    (if (i64.lt_s (local.get $i) (i64.const 0))
      (then (call $raise_static (global.get $t_ValueError) (global.get $s_seq_remove_missing))))
    (call $delitem (local.get $self) (call $seq_int (local.get $i)))
    (return (i64.const 8)))
    ;; index
    (call $seq_index_argc (local.get $argc))
    (local.set $i (i64.extend_i32_s (call $seq_find (local.get $self) (call $seq_arg (local.get $args) (i32.const 0))
      (local.get $args))))
    (if (i64.lt_s (local.get $i) (i64.const 0))
      (then (call $raise_msg (global.get $t_ValueError) (call $msg1 (global.get $s_seq_not_in_list)
        (call $to_repr (call $seq_arg (local.get $args) (i32.const 0)))))))
    (return (call $seq_int (local.get $i))))
    ;; count
    (return (call $seq_count (local.get $self) (call $seq_arg (local.get $args) (i32.const 0)))))
    ;; reverse
    (call $seq_reverse_records (i32.load offset=12 (local.get $l)) (local.get $n) (i32.const 8))
    (return (i64.const 8)))
    ;; clear
    (i32.store offset=4 (local.get $l) (i32.const 0))
    (i32.store offset=8 (local.get $l) (i32.const 0))
    (i32.store offset=12 (local.get $l) (i32.const 0))
    (return (i64.const 8)))
  ;; copy
  (call $seq_list_of (i32.load offset=12 (local.get $l)) (local.get $n)))

(func $seq_index_argc (param $argc i32)
  (if (i32.eqz (local.get $argc))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_index_least)
      (call $seq_istr (i64.extend_i32_u (local.get $argc)))))))
  (if (i32.gt_u (local.get $argc) (i32.const 3))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_index_most)
      (call $seq_istr (i64.extend_i32_u (local.get $argc))))))))

;; self.name(*args) for a tuple (index, count); 0 for other names.
(func $tuple_method (param $self i64) (param $name i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $argc i32) (local $i i32) (local $id i32)
  (local.set $id (call $seq_method_id (local.get $name)))
  (if (i32.and (i32.ne (local.get $id) (i32.const 6)) (i32.ne (local.get $id) (i32.const 7)))
    (then (return (i64.const 0))))
  (local.set $argc (i32.load offset=4 (local.get $args)))
  (if (call $seq_kw_count (local.get $kwargs))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_tuple_no_kw) (local.get $name)))))
  (if (i32.eq (local.get $id) (i32.const 7))
    (then
      (call $seq_one_arg (global.get $s_seq_tuple_one_arg) (local.get $name) (local.get $argc))
      (return (call $seq_count (local.get $self) (call $seq_arg (local.get $args) (i32.const 0))))))
  (call $seq_index_argc (local.get $argc))
  (local.set $i (call $seq_find (local.get $self) (call $seq_arg (local.get $args) (i32.const 0)) (local.get $args)))
  (if (i32.lt_s (local.get $i) (i32.const 0))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_seq_not_in_tuple))))
  (call $seq_int (i64.extend_i32_u (local.get $i))))

;; ---- builtins ----------------------------------------------------------------------------------

(func $b_len (param $args i32) (param $kwargs i32) (result i64)
  (call $seq_no_kwargs (local.get $kwargs) (global.get $s_seq_n_len))
  (call $seq_one_arg (global.get $s_seq_b_one_arg) (call $seq_s (global.get $s_seq_n_len)) (i32.load offset=4 (local.get $args)))
  (call $seq_int (call $len (call $seq_arg (local.get $args) (i32.const 0)))))

(func $seq_at_most_1 (param $args i32) (param $fname i32)
  (if (i32.gt_u (i32.load offset=4 (local.get $args)) (i32.const 1))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_seq_b_at_most_1)
      (call $seq_s (local.get $fname)) (call $seq_istr (i64.extend_i32_u (i32.load offset=4 (local.get $args)))))))))

(func $seq_expect_1 (param $args i32) (param $fname i32)
  (if (i32.ne (i32.load offset=4 (local.get $args)) (i32.const 1))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_seq_b_expected_1)
      (call $seq_s (local.get $fname)) (call $seq_istr (i64.extend_i32_u (i32.load offset=4 (local.get $args)))))))))

(func $b_list (param $args i32) (param $kwargs i32) (result i64)
  (call $seq_no_kwargs (local.get $kwargs) (global.get $s_seq_n_list))
  (call $seq_at_most_1 (local.get $args) (global.get $s_seq_n_list))
  (if (i32.eqz (i32.load offset=4 (local.get $args))) (then (return (call $list_new (i32.const 0)))))
  (call $list_from_rooted (call $seq_arg (local.get $args) (i32.const 0))))

(func $b_tuple (param $args i32) (param $kwargs i32) (result i64)
  (local $v i64)
  (call $seq_no_kwargs (local.get $kwargs) (global.get $s_seq_n_tuple))
  (call $seq_at_most_1 (local.get $args) (global.get $s_seq_n_tuple))
  (if (i32.eqz (i32.load offset=4 (local.get $args))) (then (return (call $seq_s (global.get $empty_tuple)))))
  (local.set $v (call $seq_arg (local.get $args) (i32.const 0)))
  (if (i32.eqz (call $seq_iterable (local.get $v)))
    (then (call $seq_type_error (global.get $s_seq_not_iterable) (local.get $v))))
  (call $tuple_from (local.get $v)))

(func $b_range (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32)
  (call $seq_no_kwargs (local.get $kwargs) (global.get $s_seq_n_range))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (local.get $n))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_seq_b_at_least_1)
      (call $seq_s (global.get $s_seq_n_range)) (call $seq_istr (i64.const 0))))))
  (if (i32.gt_u (local.get $n) (i32.const 3))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_range_at_most)
      (call $seq_istr (i64.extend_i32_u (local.get $n)))))))
  (if (i32.eq (local.get $n) (i32.const 1))
    (then (return (call $seq_range_raw (i64.const 0)
      (call $seq_as_index (call $seq_arg (local.get $args) (i32.const 0))) (i64.const 1)))))
  (call $range_new (call $seq_arg (local.get $args) (i32.const 0)) (call $seq_arg (local.get $args) (i32.const 1))
    (if (result i64) (i32.eq (local.get $n) (i32.const 3))
      (then (call $seq_arg (local.get $args) (i32.const 2)))
      (else (i64.const 3)))))

(func $b_sorted (param $args i32) (param $kwargs i32) (result i64)
  (local $l i64) (local $k1 i64) (local $k2 i64) (local $k3 i64) (local $base i32)
  (call $seq_expect_1 (local.get $args) (global.get $s_seq_n_sorted))
  (call $seq_kwargs (local.get $kwargs) (global.get $s_seq_k_key) (global.get $s_seq_k_reverse) (i32.const 0)
    (global.get $s_seq_n_sort))
  (local.set $k3) (local.set $k2) (local.set $k1)
  ;; the key and reverse arguments rooted while the items are made
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $k1))
  (call $root_push (local.get $k2))
  (local.set $l (call $list_from_rooted (call $seq_arg (local.get $args) (i32.const 0))))
  (global.set $shadow_top (local.get $base))
  (call $seq_sort (i32.wrap_i64 (local.get $l)) (local.get $k1) (call $seq_reverse_flag (local.get $k2)))
  (local.get $l))

(func $b_reversed (param $args i32) (param $kwargs i32) (result i64)
  (local $v i64) (local $t i32) (local $l i64)
  (call $seq_no_kwargs (local.get $kwargs) (global.get $s_seq_n_reversed))
  (call $seq_expect_1 (local.get $args) (global.get $s_seq_n_reversed))
  (local.set $v (call $seq_arg (local.get $args) (i32.const 0)))
  (local.set $t (call $tid (local.get $v)))
  (if (i32.eqz (i32.or (i32.or (i32.eq (local.get $t) (i32.const 5)) (i32.eq (local.get $t) (i32.const 6)))
        (i32.or (i32.or (i32.eq (local.get $t) (i32.const 7)) (i32.eq (local.get $t) (i32.const 8)))
          (i32.or (i32.eq (local.get $t) (i32.const 16)) (i32.eq (local.get $t) (i32.const 19))))))
    (then (call $seq_type_error (global.get $s_seq_not_reversible) (local.get $v))))
  (if (i32.eq (local.get $t) (i32.const 16))
    (then
      (local.set $v (call $seq_range_raw
        (i64.add (call $seq_rstart (i32.wrap_i64 (local.get $v)))
          (i64.mul (i64.sub (call $range_len (local.get $v)) (i64.const 1)) (call $seq_rstep (i32.wrap_i64 (local.get $v)))))
        (i64.sub (call $seq_rstart (i32.wrap_i64 (local.get $v))) (call $seq_rstep (i32.wrap_i64 (local.get $v))))
        (i64.sub (i64.const 0) (call $seq_rstep (i32.wrap_i64 (local.get $v))))))
      (return (call $iter (local.get $v)))))
  ;; An iterator over a reversed copy (CPython's iterates the sequence itself, lazily). The
  ;; copy is a list, whose iterators leave +20 unused: it holds the iterator's type, as
  ;; CPython's reverse iterators are typed by what they reverse.
  (local.set $l (call $list_from (local.get $v)))
  (call $seq_reverse_records (i32.load offset=12 (i32.wrap_i64 (local.get $l)))
    (i32.load offset=4 (i32.wrap_i64 (local.get $l))) (i32.const 8))
  (local.set $l (call $iter (local.get $l)))
  (i32.store offset=20 (i32.wrap_i64 (local.get $l))
    (if (result i32) (i32.eq (local.get $t) (i32.const 7))
      (then (global.get $t_list_reverseiterator))
      (else (if (result i32) (i32.or (i32.eq (local.get $t) (i32.const 5)) (i32.eq (local.get $t) (i32.const 6)))
        (then (global.get $t_reversed))
        (else (if (result i32) (i32.eq (local.get $t) (i32.const 8))
          (then (global.get $t_dict_reversekeyiterator))
          (else (block (result i32)
            ;; A dict view: by its kind (0 keys, 1 values, 2 items).
            (local.set $t (i32.load offset=4 (i32.wrap_i64 (local.get $v))))
            (if (result i32) (i32.eqz (local.get $t))
              (then (global.get $t_dict_reversekeyiterator))
              (else (select (global.get $t_dict_reversevalueiterator) (global.get $t_dict_reverseitemiterator)
                (i32.eq (local.get $t) (i32.const 1)))))))))))))
  (local.get $l))

;; min() and max(): `ismax` selects max (comparing with >, as CPython does).
(func $seq_minmax (param $args i32) (param $kwargs i32) (param $ismax i32) (result i64)
  (local $fname i32) (local $argc i32) (local $key i64) (local $default i64) (local $unused i64)
  (local $it i64) (local $v i64) (local $kv i64) (local $best i64) (local $bestk i64) (local $better i32)
  (local $base i32)
  (local.set $fname (select (global.get $s_seq_n_max) (global.get $s_seq_n_min) (local.get $ismax)))
  (local.set $argc (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (local.get $argc))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_seq_b_at_least_1)
      (call $seq_s (local.get $fname)) (call $seq_istr (i64.const 0))))))
  (call $seq_kwargs (local.get $kwargs) (global.get $s_seq_k_key) (global.get $s_seq_k_default) (i32.const 0)
    (local.get $fname))
  (local.set $unused) (local.set $default) (local.set $key)
  (if (i64.eq (local.get $key) (i64.const 8)) (then (local.set $key (i64.const 0))))
  (if (i32.gt_u (local.get $argc) (i32.const 1))
    (then
      (if (i64.ne (local.get $default) (i64.const 0))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg1 (global.get $s_seq_minmax_default) (call $seq_s (local.get $fname))))))
      (local.set $it (call $iter (i64.extend_i32_u (local.get $args)))))
    (else (local.set $it (call $iter (call $seq_arg (local.get $args) (i32.const 0))))))
  ;; Everything kept across the items' and the key's calls is rooted (slots: iterator, key,
  ;; default, best, its key, the item), so those functions may collect ($next_plan, $call_plan).
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $it))
  (call $root_push (local.get $key))
  (call $root_push (local.get $default))
  (call $root_push (i64.const 0))
  (call $root_push (i64.const 0))
  (call $root_push (i64.const 0))
  (block $done
    (loop $each
      (local.set $v (call $next_plan (local.get $it)))
      (br_if $done (i64.eqz (local.get $v)))
      (i64.store offset=40 (local.get $base) (local.get $v))
      (local.set $kv (local.get $v))
      (if (i64.ne (local.get $key) (i64.const 0))
        (then (local.set $kv (call $call_plan (local.get $key) (i32.wrap_i64 (call $tuple1 (local.get $v))) (i32.const 0)))))
      (if (i64.eqz (local.get $best))
        (then (local.set $best (local.get $v)) (local.set $bestk (local.get $kv)))
        (else
          (if (i32.wrap_i64 (i64.and (i64.and (local.get $kv) (local.get $bestk)) (i64.const 1)))
            (then (local.set $better (select (i64.gt_s (local.get $kv) (local.get $bestk)) (i64.lt_s (local.get $kv) (local.get $bestk))
              (local.get $ismax))))
            (else
              (if (local.get $ismax)
                (then (local.set $better (call $gt (local.get $kv) (local.get $bestk))))
                (else (local.set $better (call $lt (local.get $kv) (local.get $bestk)))))))
          (if (local.get $better) (then (local.set $best (local.get $v)) (local.set $bestk (local.get $kv))))))
      (i64.store offset=24 (local.get $base) (local.get $best))
      (i64.store offset=32 (local.get $base) (local.get $bestk))
      (br $each)))
  (global.set $shadow_top (local.get $base))
  (if (i64.eqz (local.get $best))
    (then
      (if (i64.ne (local.get $default) (i64.const 0)) (then (return (local.get $default))))
      (call $minmax_empty (local.get $ismax))))
  (local.get $best))

;; ValueError("max() arg is an empty sequence") (`ismax`), or min()'s. Also for the min and max
;; of a generator expression the compiler runs inline (codegen/scopes.rs, `consumed_genexp`).
(func $minmax_empty (param $ismax i32)
  (call $raise_msg (global.get $t_ValueError) (call $msg1 (global.get $s_seq_minmax_empty)
    (call $seq_s (select (global.get $s_seq_n_max) (global.get $s_seq_n_min) (local.get $ismax))))))

(func $b_max (param $args i32) (param $kwargs i32) (result i64)
  (call $seq_minmax (local.get $args) (local.get $kwargs) (i32.const 1)))

(func $b_min (param $args i32) (param $kwargs i32) (result i64)
  (call $seq_minmax (local.get $args) (local.get $kwargs) (i32.const 0)))

;; sum()'s start, refused when it is a str, as CPython refuses it (after the iterable's
;; `iter()`, before the first item). Also for the sum of a generator expression the compiler
;; runs inline (codegen/scopes.rs, `consumed_genexp`).
(func $sum_start (param $start i64) (result i64)
  (if (i32.eq (call $tid (local.get $start)) (i32.const TYPE_STR))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_sum_strings))))
  (local.get $start))

(func $b_sum (param $args i32) (param $kwargs i32) (result i64)
  (local $argc i32) (local $acc i64) (local $start i64) (local $u1 i64) (local $u2 i64) (local $it i64) (local $v i64)
  (local $base i32)
  (local.set $argc (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (local.get $argc)) (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_sum_least))))
  (if (i32.gt_u (i32.add (local.get $argc) (call $seq_kw_count (local.get $kwargs))) (i32.const 2))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_sum_most)
      (call $seq_istr (i64.extend_i32_u (i32.add (local.get $argc) (call $seq_kw_count (local.get $kwargs)))))))))
  (call $seq_kwargs (local.get $kwargs) (global.get $s_seq_k_start) (i32.const 0) (i32.const 0) (global.get $s_seq_n_sum))
  (local.set $u2) (local.set $u1) (local.set $start)
  (if (i32.eq (local.get $argc) (i32.const 2)) (then (local.set $start (call $seq_arg (local.get $args) (i32.const 1)))))
  (if (i64.eqz (local.get $start)) (then (local.set $start (i64.const 1))))
  ;; The iterable first, as CPython: sum(0, 'a') is "'int' object is not iterable".
  (local.set $it (call $iter (call $seq_arg (local.get $args) (i32.const 0))))
  (local.set $acc (call $sum_start (local.get $start)))
  ;; The iterator and the total are rooted (slots 0 and 1), so a generator expression's or
  ;; map's function may collect while it runs ($next_plan).
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $it))
  (call $root_push (local.get $acc))
  (block $done
    (loop $each
      (local.set $v (call $next_plan (local.get $it)))
      (br_if $done (i64.eqz (local.get $v)))
      (if (i32.wrap_i64 (i64.and (i64.and (local.get $acc) (local.get $v)) (i64.const 1)))
        (then (local.set $acc (call $seq_int (i64.add (i64.shr_s (local.get $acc) (i64.const 1))
          (i64.shr_s (local.get $v) (i64.const 1))))))
        (else (local.set $acc (call $add (local.get $acc) (local.get $v)))))
      (i64.store offset=8 (local.get $base) (local.get $acc))
      (br $each)))
  (global.set $shadow_top (local.get $base))
  (local.get $acc))

;; any() and all(): `want` is the truthiness that stops the scan (1 for any, 0 for all).
(func $seq_any_all (param $args i32) (param $kwargs i32) (param $fname i32) (param $want i32) (result i64)
  (local $it i64) (local $v i64) (local $base i32)
  (call $seq_no_kwargs (local.get $kwargs) (local.get $fname))
  (call $seq_one_arg (global.get $s_seq_b_one_arg) (call $seq_s (local.get $fname)) (i32.load offset=4 (local.get $args)))
  (local.set $it (call $iter (call $seq_arg (local.get $args) (i32.const 0))))
  ;; The iterator rooted: the items' function may collect ($next_plan).
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $it))
  (block $done
    (loop $each
      (local.set $v (call $next_plan (local.get $it)))
      (br_if $done (i64.eqz (local.get $v)))
      (if (i32.eq (call $truthy (local.get $v)) (local.get $want))
        (then
          (global.set $shadow_top (local.get $base))
          (return (call $bool (local.get $want)))))
      (br $each)))
  (global.set $shadow_top (local.get $base))
  (call $bool (i32.eqz (local.get $want))))

(func $b_any (param $args i32) (param $kwargs i32) (result i64)
  (call $seq_any_all (local.get $args) (local.get $kwargs) (global.get $s_seq_n_any) (i32.const 1)))

(func $b_all (param $args i32) (param $kwargs i32) (result i64)
  (call $seq_any_all (local.get $args) (local.get $kwargs) (global.get $s_seq_n_all) (i32.const 0)))

(func $b_enumerate (param $args i32) (param $kwargs i32) (result i64)
  (local $argc i32) (local $src i64) (local $start i64) (local $u i64) (local $n i64) (local $it i64) (local $v i64)
  (local $l i64) (local $t i32)
  (local.set $argc (i32.load offset=4 (local.get $args)))
  (if (i32.gt_u (i32.add (local.get $argc) (call $seq_kw_count (local.get $kwargs))) (i32.const 2))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_enumerate_most)
      (call $seq_istr (i64.extend_i32_u (i32.add (local.get $argc) (call $seq_kw_count (local.get $kwargs)))))))))
  (call $seq_kwargs (local.get $kwargs) (global.get $s_seq_k_iterable) (global.get $s_seq_k_start) (i32.const 0)
    (global.get $s_seq_n_enumerate))
  (local.set $u) (local.set $start) (local.set $src)
  ;; CPython takes `iterable=` only without a positional iterable.
  (if (i32.and (i32.ne (local.get $argc) (i32.const 0)) (i64.ne (local.get $src) (i64.const 0)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_seq_invalid_kw) (i64.extend_i32_u (global.get $s_seq_k_iterable))
        (call $seq_s (global.get $s_seq_n_enumerate))))))
  (if (local.get $argc) (then (local.set $src (call $seq_arg (local.get $args) (i32.const 0)))))
  (if (i32.eq (local.get $argc) (i32.const 2)) (then (local.set $start (call $seq_arg (local.get $args) (i32.const 1)))))
  (if (i64.eqz (local.get $src))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_enumerate_missing))))
  (local.set $it (call $iter (local.get $src)))
  (if (i64.ne (local.get $start) (i64.const 0)) (then (local.set $n (call $seq_as_index (local.get $start)))))
  (local.set $t (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $t) (local.get $it))
  (i64.store offset=16 (local.get $t) (call $seq_int (local.get $n)))
  (call $lazy_new (i32.const 4) (local.get $t)))

;; "s 1-k" or " 1" for zip(strict=True) messages.
(func $seq_zip_args (param $k i32) (result i64)
  (local $sb i32)
  (local.set $sb (call $sb_new))
  (if (i32.gt_u (local.get $k) (i32.const 1))
    (then
      (call $sb_push_byte (local.get $sb) (i32.const 115))
      (call $sb_push_byte (local.get $sb) (i32.const 32))
      (call $sb_push_byte (local.get $sb) (i32.const 49))
      (call $sb_push_byte (local.get $sb) (i32.const 45))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $k))))
    (else
      (call $sb_push_byte (local.get $sb) (i32.const 32))
      (call $sb_push_byte (local.get $sb) (i32.const 49))))
  (call $sb_finish (local.get $sb)))

(func $b_zip (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32) (local $its i32) (local $i i32) (local $j i32) (local $l i64) (local $t i32) (local $v i64)
  (local $strict i64) (local $u1 i64) (local $u2 i64)
  (call $seq_kwargs (local.get $kwargs) (global.get $s_seq_k_strict) (i32.const 0) (i32.const 0) (global.get $s_seq_n_zip))
  (local.set $u2) (local.set $u1) (local.set $strict)
  (local.set $strict (i64.extend_i32_u (i32.and (i64.ne (local.get $strict) (i64.const 0))
    (call $truthy (select (local.get $strict) (i64.const 16) (i64.ne (local.get $strict) (i64.const 0)))))))
  (local.set $n (i32.load offset=4 (local.get $args)))
  ;; The iterators are made now (so a bad argument raises here, as in CPython); the rows as
  ;; they are asked for.
  (local.set $its (call $tuple_new (local.get $n)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (i64.store offset=8 (i32.add (local.get $its) (i32.shl (local.get $i) (i32.const 3)))
        (call $iter (call $seq_arg (local.get $args) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $lazy_new (select (i32.const 5) (i32.const 1) (i64.ne (local.get $strict) (i64.const 0)))
    (local.get $its)))

;; The next row of a zip iterator over the iterators `its`, or 0; `strict` as zip(strict=True).
;; `plan`: the items are drawn as plan code draws them (`$next_plan`: a generator expression's
;; step may collect), the row being filled rooted meanwhile; otherwise with `$next`.
(func $zip_next (param $its i32) (param $strict i32) (param $plan i32) (result i64)
  (local $n i32) (local $i i32) (local $j i32) (local $t i32) (local $v i64) (local $base i32)
  (local.set $n (i32.load offset=4 (local.get $its)))
  (if (i32.eqz (local.get $n)) (then (return (i64.const 0))))
  (local.set $t (call $tuple_new (local.get $n)))
  (local.set $base (global.get $shadow_top))
  (if (local.get $plan) (then (call $root_push (i64.extend_i32_u (local.get $t)))))
  (block $full
    (loop $each
      (br_if $full (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $v (call $zip_draw
        (i64.load offset=8 (i32.add (local.get $its) (i32.shl (local.get $i) (i32.const 3)))) (local.get $plan)))
      (if (i64.eqz (local.get $v))
        (then
          (global.set $shadow_top (local.get $base))
          (if (i32.eqz (local.get $strict)) (then (return (i64.const 0))))
          (if (local.get $i)
            (then (call $raise_msg (global.get $t_ValueError) (call $msg2 (global.get $s_seq_zip_shorter)
              (call $seq_istr (i64.extend_i32_u (i32.add (local.get $i) (i32.const 1))))
              (call $seq_zip_args (local.get $i))))))
          ;; The first is exhausted: every other one must be too.
          (local.set $j (i32.const 1))
          (block $checked
            (loop $check
              (br_if $checked (i32.ge_u (local.get $j) (local.get $n)))
              (if (i64.ne (call $zip_draw (i64.load offset=8 (i32.add (local.get $its) (i32.shl (local.get $j) (i32.const 3)))) (local.get $plan)) (i64.const 0))
                (then (call $raise_msg (global.get $t_ValueError) (call $msg2 (global.get $s_seq_zip_longer)
                  (call $seq_istr (i64.extend_i32_u (i32.add (local.get $j) (i32.const 1))))
                  (call $seq_zip_args (local.get $j))))))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br $check)))
          (return (i64.const 0))))
      (i64.store offset=8 (i32.add (local.get $t) (i32.shl (local.get $i) (i32.const 3))) (local.get $v))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (global.set $shadow_top (local.get $base))
  (i64.extend_i32_u (local.get $t)))

(func $zip_draw (param $it i64) (param $plan i32) (result i64)
  (if (result i64) (local.get $plan)
    (then (call $next_plan (local.get $it)))
    (else (call $next (local.get $it)))))

;; A lazy iterator (type 18 with `kind` in the header's len) over `state` (a tuple).
(func $lazy_new (param $kind i32) (param $state i32) (result i64)
  (local $it i32)
  (local.set $it (call $alloc (i32.const 24)))
  (i32.store (local.get $it) (i32.const TYPE_ITERATOR))
  (i32.store offset=4 (local.get $it) (local.get $kind))
  (i64.store offset=8 (local.get $it) (i64.extend_i32_u (local.get $state)))
  (i64.extend_i32_u (local.get $it)))

;; A lazy generator expression (compiler/src/codegen/scopes.rs): `step` is the compiled
;; function that binds the target to an item of `it` and returns the element, or 0 when an
;; `if` rejected the item.
(func $genexp_new (param $step i64) (param $it i64) (result i64)
  (local $state i32)
  (local.set $state (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $state) (local.get $step))
  (i64.store offset=16 (local.get $state) (local.get $it))
  (call $lazy_new (i32.const 6) (local.get $state)))

;; The next item of a lazy iterator, or 0. States: zip (iterators...), map (f, iterators...),
;; filter (f, iterator), enumerate (iterator, next count), generator expression (step,
;; iterator).
;; `$next` for compiled plan code, which keeps the iterator in its shadow frame: a generator
;; expression's step and a one-iterable map's function run as plan calls (they may collect; all
;; this function needs afterwards is reachable from the iterator). Anything else is `$next`.
(func $next_plan (param $iter i64) (result i64)
  (local $it i32) (local $s i32) (local $v i64) (local $kind i32)
  (if (i32.wrap_i64 (i64.and (local.get $iter) (i64.const 1))) (then (return (call $next (local.get $iter)))))
  (local.set $it (i32.wrap_i64 (local.get $iter)))
  (if (i32.ne (i32.load (local.get $it)) (i32.const TYPE_ITERATOR)) (then (return (call $next (local.get $iter)))))
  (local.set $kind (i32.load offset=4 (local.get $it)))
  (local.set $s (i32.load offset=8 (local.get $it)))
  (if (i32.eq (local.get $kind) (i32.const 6))
    (then
      (loop $each
        (local.set $v (call $next (i64.load offset=16 (local.get $s))))
        (if (i64.eqz (local.get $v)) (then (return (i64.const 0))))
        (local.set $v (call $genexp_step_via (i64.load offset=8 (local.get $s)) (local.get $v) (i32.const 1)))
        (br_if $each (i64.eqz (local.get $v))))
      (return (local.get $v))))
  (if (i32.eq (local.get $kind) (i32.const 7))
    (then (return (call $callable_next (local.get $s) (i32.const 1)))))
  (if (i32.eq (local.get $kind) (i32.const 2)) (then (return (call $map_next (local.get $s) (i32.const 1)))))
  (if (i32.eq (local.get $kind) (i32.const 3)) (then (return (call $filter_next (local.get $s) (i32.const 1)))))
  (if (i32.eq (local.get $kind) (i32.const 1)) (then (return (call $zip_next (local.get $s) (i32.const 0) (i32.const 1)))))
  (if (i32.eq (local.get $kind) (i32.const 5)) (then (return (call $zip_next (local.get $s) (i32.const 1) (i32.const 1)))))
  (call $next (local.get $iter)))

;; The next item of filter(f, iterator) (state `s`: f, iterator), or 0. `plan`: the predicate
;; runs as plan code may (`$next_plan`: it may collect, so the item it is given, returned if
;; kept, is rooted meanwhile, and while its truth is asked, which may run plan code too);
;; otherwise collections wait until it returns (`$call1`). A StopIteration the predicate raises
;; ends this draw as the iterator's end, as CPython's filter (whose `__next__` it leaves)
;; does (`$stop_ends_draw`).
(func $filter_next (param $s i32) (param $plan i32) (result i64)
  (local $v i64) (local $f i64) (local $r i64) (local $e i64) (local $base i32) (local $d i32)
  (local $keep i32)
  (loop $each
    (local.set $v (call $next (i64.load offset=16 (local.get $s))))
    (if (i64.eqz (local.get $v)) (then (return (i64.const 0))))
    (local.set $f (i64.load offset=8 (local.get $s)))
    (local.set $base (global.get $shadow_top))
    (call $root_push (local.get $v))
    (if (i64.eq (local.get $f) (i64.const 8))
      (then (local.set $r (local.get $v)))
      (else
        (local.set $d (global.get $depth))
        (block $called
          (local.set $e
            (block $caught (result i64)
              (local.set $r
                (try_table (result i64) (catch $exc $caught)
                  (if (result i64) (local.get $plan)
                    (then (call $call_plan (local.get $f) (i32.wrap_i64 (call $tuple1 (local.get $v))) (i32.const 0)))
                    (else (call $call1 (local.get $f) (local.get $v))))))
              (br $called)))
          (call $stop_ends_draw (local.get $e) (local.get $d) (local.get $base))
          (return (i64.const 0)))))
    (local.set $keep (call $truthy (local.get $r)))
    (global.set $shadow_top (local.get $base))
    (br_if $each (i32.eqz (local.get $keep))))
  (local.get $v))

;; A draw of map, filter or iter(callable, sentinel) whose function raised `e`: a StopIteration
;; ends the draw as the iterator's end (the frames it abandoned, and their shadow frames, given
;; back to `depth` and `top`, as a handler in plan code does); anything else goes on up.
(func $stop_ends_draw (param $e i64) (param $depth i32) (param $top i32)
  (if (i32.eqz (call $exc_matches (local.get $e) (i64.extend_i32_u (global.get $t_StopIteration))))
    (then (throw $exc (local.get $e))))
  (global.set $depth (local.get $depth))
  (global.set $shadow_top (local.get $top)))

;; The next item of map(f, iterators...) (state `s`: f, iterators...), or 0 once one of the
;; iterators is exhausted. `plan`: f runs as plan code may (`$next_plan`; the tuple of
;; arguments being gathered is rooted while the iterators give their items); otherwise
;; collections wait until it returns (`$call`). A StopIteration f raises ends this draw as the
;; iterator's end, as CPython's map (whose `__next__` it leaves) does (`$stop_ends_draw`).
(func $map_next (param $s i32) (param $plan i32) (result i64)
  (local $n i32) (local $i i32) (local $t i32) (local $v i64) (local $base i32) (local $d i32)
  (local $e i64)
  (local.set $n (i32.sub (i32.load offset=4 (local.get $s)) (i32.const 1)))
  (local.set $t (call $tuple_new (local.get $n)))
  (local.set $base (global.get $shadow_top))
  (call $root_push (i64.extend_i32_u (local.get $t)))
  (block $full
    (loop $each
      (br_if $full (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $v (call $next (i64.load offset=16 (i32.add (local.get $s) (i32.shl (local.get $i) (i32.const 3))))))
      (if (i64.eqz (local.get $v))
        (then (global.set $shadow_top (local.get $base)) (return (i64.const 0))))
      (i64.store offset=8 (i32.add (local.get $t) (i32.shl (local.get $i) (i32.const 3))) (local.get $v))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (global.set $shadow_top (local.get $base))
  (local.set $d (global.get $depth))
  (local.set $e
    (block $caught (result i64)
      (return
        (try_table (result i64) (catch $exc $caught)
          (if (result i64) (local.get $plan)
            (then (call $call_plan (i64.load offset=8 (local.get $s)) (local.get $t) (i32.const 0)))
            (else (call $call (i64.load offset=8 (local.get $s)) (local.get $t) (i32.const 0))))))))
  (call $stop_ends_draw (local.get $e) (local.get $d) (local.get $base))
  (i64.const 0))

;; The next item of iter(callable, sentinel) (state: callable, sentinel), or 0 when the call
;; returned the sentinel or raised StopIteration (then and ever after, as CPython's
;; callable_iterator ends). `plan`: call it as plan code may (it may collect; the caller keeps
;; the iterator rooted, and the state is read again after the call).
(func $callable_next (param $s i32) (param $plan i32) (result i64)
  (local $f i64) (local $v i64) (local $e i64) (local $d i32) (local $top i32)
  (local.set $f (i64.load offset=8 (local.get $s)))
  (if (i64.eqz (local.get $f)) (then (return (i64.const 0))))
  (local.set $d (global.get $depth))
  (local.set $top (global.get $shadow_top))
  (local.set $e
    (block $caught (result i64)
      (local.set $v
        (try_table (result i64) (catch $exc $caught)
          (if (result i64) (local.get $plan)
            (then (call $call_plan (local.get $f) (global.get $empty_tuple) (i32.const 0)))
            (else (call $call0 (local.get $f))))))
      (if (call $eq (local.get $v) (i64.load offset=16 (local.get $s)))
        (then
          (i64.store offset=8 (local.get $s) (i64.const 0))
          (return (i64.const 0))))
      (return (local.get $v))))
  ;; A StopIteration ends the iteration here, for good (anything else goes on up): the frames
  ;; it abandoned, and their shadow frames (a plan function pops its own only when it
  ;; returns), are given back, as a handler in plan code does.
  (call $stop_ends_draw (local.get $e) (local.get $d) (local.get $top))
  (i64.store offset=8 (local.get $s) (i64.const 0))
  (i64.const 0))

(func $lazy_next (param $it i32) (result i64)
  (local $kind i32) (local $s i32) (local $t i32) (local $v i64)
  (local.set $kind (i32.load offset=4 (local.get $it)))
  (local.set $s (i32.load offset=8 (local.get $it)))
  (if (i32.eq (local.get $kind) (i32.const 6))
    (then
      (loop $each
        (local.set $v (call $next (i64.load offset=16 (local.get $s))))
        (if (i64.eqz (local.get $v)) (then (return (i64.const 0))))
        (local.set $v (call $genexp_step (i64.load offset=8 (local.get $s)) (local.get $v)))
        (br_if $each (i64.eqz (local.get $v))))
      (return (local.get $v))))
  (if (i32.eq (local.get $kind) (i32.const 7)) (then (return (call $callable_next (local.get $s) (i32.const 0)))))
  (if (i32.eq (local.get $kind) (i32.const 1)) (then (return (call $zip_next (local.get $s) (i32.const 0) (i32.const 0)))))
  (if (i32.eq (local.get $kind) (i32.const 5)) (then (return (call $zip_next (local.get $s) (i32.const 1) (i32.const 0)))))
  (if (i32.eq (local.get $kind) (i32.const 4))
    (then
      (local.set $v (call $next (i64.load offset=8 (local.get $s))))
      (if (i64.eqz (local.get $v)) (then (return (i64.const 0))))
      (local.set $t (call $tuple_new (i32.const 2)))
      (i64.store offset=8 (local.get $t) (i64.load offset=16 (local.get $s)))
      (i64.store offset=16 (local.get $t) (local.get $v))
      (i64.store offset=16 (local.get $s)
        (call $add (i64.load offset=16 (local.get $s)) (i64.const 3)))
      (return (i64.extend_i32_u (local.get $t)))))
  (if (i32.eq (local.get $kind) (i32.const 3)) (then (return (call $filter_next (local.get $s) (i32.const 0)))))
  (call $map_next (local.get $s) (i32.const 0)))

(func $b_map (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32) (local $f i64) (local $its i32) (local $i i32) (local $l i64) (local $t i32) (local $v i64) (local $it i64)
  (call $seq_no_kwargs (local.get $kwargs) (global.get $s_seq_n_map))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.lt_u (local.get $n) (i32.const 2)) (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_map_args))))
  ;; (f, iterators...), the iterators made now, the calls as items are asked for.
  (local.set $t (call $tuple_new (local.get $n)))
  (i64.store offset=8 (local.get $t) (call $seq_arg (local.get $args) (i32.const 0)))
  (local.set $i (i32.const 1))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (i64.store offset=8 (i32.add (local.get $t) (i32.shl (local.get $i) (i32.const 3)))
        (call $iter (call $seq_arg (local.get $args) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $lazy_new (i32.const 2) (local.get $t)))

(func $b_filter (param $args i32) (param $kwargs i32) (result i64)
  (local $f i64) (local $it i64) (local $v i64) (local $l i64) (local $keep i32)
  (call $seq_no_kwargs (local.get $kwargs) (global.get $s_seq_n_filter))
  (if (i32.ne (i32.load offset=4 (local.get $args)) (i32.const 2))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_seq_filter_args)
      (call $seq_istr (i64.extend_i32_u (i32.load offset=4 (local.get $args))))))))
  (local.set $f (call $seq_arg (local.get $args) (i32.const 0)))
  (local.set $it (call $iter (call $seq_arg (local.get $args) (i32.const 1))))
  (local.set $keep (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $keep) (local.get $f))
  (i64.store offset=16 (local.get $keep) (local.get $it))
  (call $lazy_new (i32.const 3) (local.get $keep)))

;; ---- iter() and next() -------------------------------------------------------------------------

;; One step of a generator expression (its element function applied to the next source item).
;; A StopIteration escaping it becomes RuntimeError("generator raised StopIteration"), caused by
;; it, as in CPython (PEP 479): otherwise it would end the loop consuming the generator.
(func $genexp_step (param $step i64) (param $item i64) (result i64)
  (call $genexp_step_via (local.get $step) (local.get $item) (i32.const 0)))

;; `plan`: the caller holds nothing the collector cannot see (`$next_plan`), so the step may
;; collect (`$call_plan`); otherwise collections wait until it returns (`$call`).
(func $genexp_step_via (param $step i64) (param $item i64) (param $plan i32) (result i64)
  (local $e i64) (local $d i32)
  (local.set $d (global.get $depth))
  (local.set $e
    (block $caught (result i64)
      (return (try_table (result i64) (catch $exc $caught)
        (if (result i64) (local.get $plan)
          (then (call $call_plan (local.get $step) (i32.wrap_i64 (call $tuple1 (local.get $item))) (i32.const 0)))
          (else (call $call1 (local.get $step) (local.get $item))))))))
  (global.set $depth (local.get $d))
  (call $genexp_escape (local.get $e))
  (unreachable))

;; Raises exception `e` on, as it escapes a generator expression's code: a StopIteration as
;; RuntimeError("generator raised StopIteration") caused by it (PEP 479), anything else as it
;; is. Also for the generator expressions the compiler runs inline, as the loop of the builtin
;; that consumes them (codegen/scopes.rs, `consumed_genexp`), which catch what their code raises
;; and call this.
(func $genexp_escape (param $e i64)
  (if (call $exc_matches (local.get $e) (i64.extend_i32_u (global.get $t_StopIteration)))
    (then
      (call $raise_from
        (call $exc_new (global.get $t_RuntimeError) (call $tuple1 (i64.extend_i32_u (global.get $s_seq_gen_stop))))
        (local.get $e))))
  (throw $exc (local.get $e)))

;; The argument count of iter()/next() (1 or 2), or TypeError as CPython words it.
(func $seq_iter_arity (param $args i32) (param $kwargs i32) (param $fname i32) (result i32)
  (local $n i32)
  (call $seq_no_kwargs (local.get $kwargs) (local.get $fname))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (local.get $n))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_seq_b_at_least_1)
      (call $seq_s (local.get $fname)) (call $seq_istr (i64.const 0))))))
  (if (i32.gt_u (local.get $n) (i32.const 2))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_seq_b_at_most_2)
      (call $seq_s (local.get $fname)) (call $seq_istr (i64.extend_i32_u (local.get $n)))))))
  (local.get $n))

;; iter(x): an iterator over x (x itself when it is one). iter(callable, sentinel): an iterator
;; that calls `callable` for each item and stops, for good, at the first one equal to `sentinel`
;; (kind 7; state (callable, sentinel), the callable 0 once it has stopped).
(func $b_iter (param $args i32) (param $kwargs i32) (result i64)
  (local $f i64) (local $t i32)
  (if (i32.eq (call $seq_iter_arity (local.get $args) (local.get $kwargs) (global.get $s_seq_n_iter)) (i32.const 2))
    (then
      (local.set $f (call $seq_arg (local.get $args) (i32.const 0)))
      (local.set $t (call $tid (local.get $f)))
      ;; callables: functions (10), types (13), builtins (14), bound methods (15)
      (if (i32.eqz (i32.or (i32.eq (local.get $t) (i32.const 10))
            (i32.and (i32.ge_u (local.get $t) (i32.const 13)) (i32.le_u (local.get $t) (i32.const 15)))))
        (then (call $raise_static (global.get $t_TypeError) (global.get $s_seq_iter_callable))))
      (local.set $t (call $tuple_new (i32.const 2)))
      (i64.store offset=8 (local.get $t) (local.get $f))
      (i64.store offset=16 (local.get $t) (call $seq_arg (local.get $args) (i32.const 1)))
      (return (call $lazy_new (i32.const 7) (local.get $t)))))
  (call $iter (call $seq_arg (local.get $args) (i32.const 0))))

;; next(iterator[, default]): its next item; when it is exhausted, default, or StopIteration.
(func $b_next (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32) (local $it i64) (local $v i64)
  (local.set $n (call $seq_iter_arity (local.get $args) (local.get $kwargs) (global.get $s_seq_n_next)))
  (local.set $it (call $seq_arg (local.get $args) (i32.const 0)))
  (if (i32.ne (call $tid (local.get $it)) (i32.const TYPE_ITERATOR))
    (then (call $seq_type_error (global.get $s_seq_not_iterator) (local.get $it))))
  (local.set $v (call $next (local.get $it)))
  (if (i64.ne (local.get $v) (i64.const 0)) (then (return (local.get $v))))
  (if (i32.eq (local.get $n) (i32.const 2)) (then (return (call $seq_arg (local.get $args) (i32.const 1)))))
  (call $raise (i64.extend_i32_u (global.get $t_StopIteration)))
  (unreachable))
