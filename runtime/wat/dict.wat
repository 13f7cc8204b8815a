;; dict.wat: dicts and sets (docs/abi.md, type ids 8 and 9).
;;
;; Both are the same insertion-ordered hash table:
;;   +0 type (8 dict, 9 set)   +4 len (live entries)
;;   +8 entries address        +12 entries used (live + deleted)   +16 entries capacity
;;   +20 index address         +24 index slot count (a power of two, or 0 before the first insert)
;;   +28 (private) first-live hint: every entry below it is deleted (set.pop scans from here)
;;   +32 (private) live-end hint: every entry at or above it is deleted (dict.popitem scans down)
;;   +36 1 for a frozenset (a set that nothing changes, and that hashes), else 0
;; Objects are 40 bytes; only $dict_new/$set_new (here) create them. Entries are 24 bytes:
;; i64 hash, i64 key (0 = deleted), i64 value (0 in sets). Index slots are i32: -1 empty, else an
;; entry number. Used entries never exceed the capacity, 2/3 of the slots; a deleted entry keeps
;; its index slot (a tombstone) until the next resize, which compacts the entries.
;; Probing is CPython's: i = (5i + perturb + 1) & mask, perturb >>= 5 each step.
;;
;; Iteration (seq.wat's $iter/$next) reads the entries directly: +8, +12, +4.
;;
;; Dict views (type 19, made by keys()/values()/items()): +4 kind (0 keys, 1 values, 2 items),
;; +8 i64 the dict. They are live: they read the dict's entries whenever they are used.
;; Set order is insertion order (CPython's set order is its hash-table order): a documented
;; deviation of Baton.

(global $dict_repr_stack (mut i32) (i32.const 0))
(global $dict_repr_depth (mut i32) (i32.const 0))

;; ---- the hash table ----------------------------------------------------------------------------

(func $dict_alloc (param $type i32) (result i64)
  (local $d i32)
  (local.set $d (call $alloc (i32.const 40)))
  (i32.store (local.get $d) (local.get $type))
  (i64.extend_i32_u (local.get $d)))

(func $dict_new (result i64) (call $dict_alloc (i32.const 8)))
(func $set_new (result i64) (call $dict_alloc (i32.const 9)))

;; Dicts of one or two given pairs: a dict display in one call, where `$dict_new` and a set per
;; pair took 1 + n. The keys and values are evaluated first, as CPython evaluates them all before
;; it builds the dict (a key that cannot be hashed raises here, after them); a later equal key
;; replaces the value and keeps the first's place. Allocating and hashing plan values never
;; collect, so they need no root here.
(func $dict_of1 (param $k i64) (param $v i64) (result i64)
  (local $d i64)
  (local.set $d (call $dict_new))
  (call $dict_set (local.get $d) (local.get $k) (local.get $v))
  (local.get $d))

(func $dict_of2 (param $k1 i64) (param $v1 i64) (param $k2 i64) (param $v2 i64) (result i64)
  (local $d i64)
  (local.set $d (call $dict_of1 (local.get $k1) (local.get $v1)))
  (call $dict_set (local.get $d) (local.get $k2) (local.get $v2))
  (local.get $d))

;; ---- frozensets ---------------------------------------------------------------------------------
;; A frozenset is a set (type id 9) marked at +36: it shares the set's table, iteration, `in`,
;; comparisons and algebra. What differs: the type (`$type_of`), the repr, a hash, no method that
;; changes it (`$set_method` answers only those of `methods_frozenset`), in-place operators that
;; make a new frozenset (`fs |= t` rebinds, as in CPython), and results that take the type of
;; the left operand or the receiver (`fs | s` and `fs.union(s)` are frozensets, `s | fs` a set).

(func $set_is_frozen (param $v i64) (result i32)
  (if (result i32) (i32.eq (call $tid (local.get $v)) (i32.const TYPE_SET))
    (then (i32.load offset=36 (i32.wrap_i64 (local.get $v))))
    (else (i32.const 0))))

;; `r` (a new set) marked as a frozenset when `like` is one.
(func $set_frozen_like (param $r i64) (param $like i64) (result i64)
  (i32.store offset=36 (i32.wrap_i64 (local.get $r)) (i32.load offset=36 (i32.wrap_i64 (local.get $like))))
  (local.get $r))

;; CPython's frozenset hash (Objects/setobject.c): the xor of every element's hash, its bits
;; shuffled so that equal hashes do not cancel, then the size mixed in and the bits dispersed
;; for nested frozensets. It depends on the elements only, not on their order, so it equals
;; CPython's `hash(frozenset(...))` wherever the elements' hashes do.
(func $set_hash (param $s i64) (result i64)
  (local $d i32) (local $i i32) (local $e i32) (local $h i64) (local $x i64)
  (local.set $d (i32.wrap_i64 (local.get $s)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $d))))
      (local.set $e (call $dict_entry (local.get $d) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (local.set $x (i64.load (local.get $e)))
      (local.set $h (i64.xor (local.get $h)
        (i64.mul
          (i64.xor (i64.xor (local.get $x) (i64.const 89869747)) (i64.shl (local.get $x) (i64.const 16)))
          (i64.const 3644798167))))
      (br $each)))
  (local.set $h (i64.xor (local.get $h)
    (i64.mul (i64.add (i64.extend_i32_u (i32.load offset=4 (local.get $d))) (i64.const 1)) (i64.const 1927868237))))
  (local.set $h (i64.xor (local.get $h)
    (i64.xor (i64.shr_u (local.get $h) (i64.const 11)) (i64.shr_u (local.get $h) (i64.const 25)))))
  (local.set $h (i64.add (i64.mul (local.get $h) (i64.const 69069)) (i64.const 907133923)))
  ;; -1 is CPython's error code, never a hash.
  (if (i64.eq (local.get $h) (i64.const -1)) (then (local.set $h (i64.const 590923713))))
  (local.get $h))

;; The entry number of key `k` (hash `h`) in table `d`; when absent, -1 - (the first empty index
;; slot on its probe path). An empty table (no index yet) answers -1.
(func $dict_find (param $d i32) (param $k i64) (param $h i64) (result i32)
  (local $mask i32) (local $i i32) (local $ix i32) (local $perturb i64) (local $e i32) (local $key i64)
  (local $index i32) (local $entries i32)
  (local.set $mask (i32.load offset=24 (local.get $d)))
  (if (i32.eqz (local.get $mask)) (then (return (i32.const -1))))
  (local.set $mask (i32.sub (local.get $mask) (i32.const 1)))
  (local.set $index (i32.load offset=20 (local.get $d)))
  (local.set $entries (i32.load offset=8 (local.get $d)))
  (local.set $perturb (local.get $h))
  (local.set $i (i32.and (i32.wrap_i64 (local.get $h)) (local.get $mask)))
  (loop $probe
    (local.set $ix (i32.load (i32.add (local.get $index) (i32.shl (local.get $i) (i32.const 2)))))
    (if (i32.lt_s (local.get $ix) (i32.const 0))
      (then (return (i32.sub (i32.const -1) (local.get $i)))))
    (local.set $e (i32.add (local.get $entries) (i32.mul (local.get $ix) (i32.const 24))))
    (local.set $key (i64.load offset=8 (local.get $e)))
    (if (i64.eq (local.get $key) (local.get $k)) (then (return (local.get $ix))))
    (if (i64.ne (local.get $key) (i64.const 0))
      (then
        (if (i64.eq (i64.load (local.get $e)) (local.get $h))
          (then
            (if (call $eq (local.get $key) (local.get $k)) (then (return (local.get $ix))))))))
    (local.set $perturb (i64.shr_u (local.get $perturb) (i64.const 5)))
    (local.set $i (i32.and
      (i32.add (i32.add (i32.mul (local.get $i) (i32.const 5)) (i32.wrap_i64 (local.get $perturb)))
        (i32.const 1))
      (local.get $mask)))
    (br $probe))
  (unreachable))

;; The first empty index slot on the probe path of hash `h` (the table has an index).
(func $dict_free_slot (param $d i32) (param $h i64) (result i32)
  (local $mask i32) (local $i i32) (local $perturb i64) (local $index i32)
  (local.set $mask (i32.sub (i32.load offset=24 (local.get $d)) (i32.const 1)))
  (local.set $index (i32.load offset=20 (local.get $d)))
  (local.set $perturb (local.get $h))
  (local.set $i (i32.and (i32.wrap_i64 (local.get $h)) (local.get $mask)))
  (loop $probe
    (if (i32.lt_s (i32.load (i32.add (local.get $index) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 0))
      (then (return (local.get $i))))
    (local.set $perturb (i64.shr_u (local.get $perturb) (i64.const 5)))
    (local.set $i (i32.and
      (i32.add (i32.add (i32.mul (local.get $i) (i32.const 5)) (i32.wrap_i64 (local.get $perturb)))
        (i32.const 1))
      (local.get $mask)))
    (br $probe))
  (unreachable))

;; Rebuilds the table for its live entries (compacting them, in order) with room to grow: the
;; slot count is the smallest power of two >= max(8, 3 * live), so capacity is about 2 * live.
(func $dict_resize (param $d i32)
  (local $live i32) (local $slots i64) (local $cap i32) (local $old i32) (local $oldn i32)
  (local $new i32) (local $index i32) (local $i i32) (local $j i32) (local $src i32) (local $dst i32)
  (local $mask i32) (local $s i32) (local $perturb i64) (local $h i64)
  (local.set $live (i32.load offset=4 (local.get $d)))
  (local.set $slots (i64.const 8))
  (loop $grow
    (if (i64.lt_u (local.get $slots) (i64.mul (i64.extend_i32_u (local.get $live)) (i64.const 3)))
      (then (local.set $slots (i64.shl (local.get $slots) (i64.const 1))) (br $grow))))
  (if (i64.gt_u (local.get $slots) (i64.const 0x4000_0000)) (then (call $raise_memory)))
  (local.set $cap (i32.div_u (i32.wrap_i64 (i64.shl (local.get $slots) (i64.const 1))) (i32.const 3)))
  (local.set $new (call $alloc64 (i64.mul (i64.extend_i32_u (local.get $cap)) (i64.const 24))))
  (local.set $index (call $alloc64 (i64.shl (local.get $slots) (i64.const 2))))
  (memory.fill (local.get $index) (i32.const 0xFF) (i32.wrap_i64 (i64.shl (local.get $slots) (i64.const 2))))
  (local.set $mask (i32.sub (i32.wrap_i64 (local.get $slots)) (i32.const 1)))
  (local.set $old (i32.load offset=8 (local.get $d)))
  (local.set $oldn (i32.load offset=12 (local.get $d)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $oldn)))
      (local.set $src (i32.add (local.get $old) (i32.mul (local.get $i) (i32.const 24))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $src))))
      (local.set $dst (i32.add (local.get $new) (i32.mul (local.get $j) (i32.const 24))))
      (local.set $h (i64.load (local.get $src)))
      (i64.store (local.get $dst) (local.get $h))
      (i64.store offset=8 (local.get $dst) (i64.load offset=8 (local.get $src)))
      (i64.store offset=16 (local.get $dst) (i64.load offset=16 (local.get $src)))
      (local.set $perturb (local.get $h))
      (local.set $s (i32.and (i32.wrap_i64 (local.get $h)) (local.get $mask)))
      (block $found
        (loop $probe
          (br_if $found (i32.lt_s (i32.load (i32.add (local.get $index) (i32.shl (local.get $s) (i32.const 2))))
            (i32.const 0)))
          (local.set $perturb (i64.shr_u (local.get $perturb) (i64.const 5)))
          (local.set $s (i32.and
            (i32.add (i32.add (i32.mul (local.get $s) (i32.const 5)) (i32.wrap_i64 (local.get $perturb)))
              (i32.const 1))
            (local.get $mask)))
          (br $probe)))
      (i32.store (i32.add (local.get $index) (i32.shl (local.get $s) (i32.const 2))) (local.get $j))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $each)))
  (i32.store offset=8 (local.get $d) (local.get $new))
  (i32.store offset=12 (local.get $d) (local.get $j))
  (i32.store offset=16 (local.get $d) (local.get $cap))
  (i32.store offset=20 (local.get $d) (local.get $index))
  (i32.store offset=24 (local.get $d) (i32.wrap_i64 (local.get $slots)))
  (i32.store offset=28 (local.get $d) (i32.const 0))
  (i32.store offset=32 (local.get $d) (local.get $j)))

;; Appends a new entry at index slot `slot` (the table has room).
(func $dict_append_at (param $d i32) (param $slot i32) (param $k i64) (param $h i64) (param $v i64)
  (local $n i32) (local $e i32)
  (local.set $n (i32.load offset=12 (local.get $d)))
  (i32.store (i32.add (i32.load offset=20 (local.get $d)) (i32.shl (local.get $slot) (i32.const 2)))
    (local.get $n))
  (local.set $e (i32.add (i32.load offset=8 (local.get $d)) (i32.mul (local.get $n) (i32.const 24))))
  (i64.store (local.get $e) (local.get $h))
  (i64.store offset=8 (local.get $e) (local.get $k))
  (i64.store offset=16 (local.get $e) (local.get $v))
  (local.set $n (i32.add (local.get $n) (i32.const 1)))
  (i32.store offset=12 (local.get $d) (local.get $n))
  (i32.store offset=32 (local.get $d) (local.get $n))
  (i32.store offset=4 (local.get $d) (i32.add (i32.load offset=4 (local.get $d)) (i32.const 1))))

;; Appends key `k` known to be absent.
(func $dict_append (param $d i32) (param $k i64) (param $h i64) (param $v i64)
  (if (i32.ge_u (i32.load offset=12 (local.get $d)) (i32.load offset=16 (local.get $d)))
    (then (call $dict_resize (local.get $d))))
  (call $dict_append_at (local.get $d) (call $dict_free_slot (local.get $d) (local.get $h))
    (local.get $k) (local.get $h) (local.get $v)))

;; Inserts or overwrites (an existing key keeps its key object and its position).
(func $dict_insert (param $d i32) (param $k i64) (param $h i64) (param $v i64)
  (local $r i32)
  (local.set $r (call $dict_find (local.get $d) (local.get $k) (local.get $h)))
  (if (i32.ge_s (local.get $r) (i32.const 0))
    (then
      (i64.store offset=16 (i32.add (i32.load offset=8 (local.get $d)) (i32.mul (local.get $r) (i32.const 24)))
        (local.get $v))
      (return)))
  (if (i32.lt_u (i32.load offset=12 (local.get $d)) (i32.load offset=16 (local.get $d)))
    (then
      (call $dict_append_at (local.get $d) (i32.sub (i32.const -1) (local.get $r))
        (local.get $k) (local.get $h) (local.get $v))
      (return)))
  (call $dict_resize (local.get $d))
  (call $dict_append_at (local.get $d) (call $dict_free_slot (local.get $d) (local.get $h))
    (local.get $k) (local.get $h) (local.get $v)))

;; Deletes entry `ix` (its index slot stays, as a tombstone).
(func $dict_remove_at (param $d i32) (param $ix i32)
  (local $e i32)
  (local.set $e (i32.add (i32.load offset=8 (local.get $d)) (i32.mul (local.get $ix) (i32.const 24))))
  (i64.store offset=8 (local.get $e) (i64.const 0))
  (i64.store offset=16 (local.get $e) (i64.const 0))
  (i32.store offset=4 (local.get $d) (i32.sub (i32.load offset=4 (local.get $d)) (i32.const 1))))

(func $dict_entry (param $d i32) (param $ix i32) (result i32)
  (i32.add (i32.load offset=8 (local.get $d)) (i32.mul (local.get $ix) (i32.const 24))))

;; A new table of the same type with the same entries.
(func $dict_copy (param $v i64) (result i64)
  (local $d i32) (local $c i32) (local $bytes i32)
  (local.set $d (i32.wrap_i64 (local.get $v)))
  (local.set $c (call $alloc (i32.const 40)))
  (call $memcpy (local.get $c) (local.get $d) (i32.const 40))
  (if (i32.load offset=24 (local.get $d))
    (then
      (local.set $bytes (i32.mul (i32.load offset=16 (local.get $d)) (i32.const 24)))
      (i32.store offset=8 (local.get $c) (call $alloc (local.get $bytes)))
      (call $memcpy (i32.load offset=8 (local.get $c)) (i32.load offset=8 (local.get $d)) (local.get $bytes))
      (local.set $bytes (i32.shl (i32.load offset=24 (local.get $d)) (i32.const 2)))
      (i32.store offset=20 (local.get $c) (call $alloc (local.get $bytes)))
      (call $memcpy (i32.load offset=20 (local.get $c)) (i32.load offset=20 (local.get $d)) (local.get $bytes))))
  (i64.extend_i32_u (local.get $c)))

;; Empties a table (the next insert allocates afresh).
(func $dict_clear (param $d i32)
  (memory.fill (i32.add (local.get $d) (i32.const 4)) (i32.const 0) (i32.const 36)))

;; Makes `dst` hold `src`'s entries (src is a fresh table nobody else holds).
(func $dict_take (param $dst i32) (param $src i32)
  (call $memcpy (i32.add (local.get $dst) (i32.const 4)) (i32.add (local.get $src) (i32.const 4)) (i32.const 36)))

;; ---- dict operations -----------------------------------------------------------------------------

(func $dict_set (param $d i64) (param $k i64) (param $v i64)
  (call $dict_insert (i32.wrap_i64 (local.get $d)) (local.get $k) (call $hash (local.get $k)) (local.get $v)))

;; The value for key `k`, or 0 when absent (unhashable keys raise TypeError).
(func $dict_get (param $d i64) (param $k i64) (result i64)
  (local $r i32)
  (local.set $r (call $dict_find (i32.wrap_i64 (local.get $d)) (local.get $k) (call $hash (local.get $k))))
  (if (i32.lt_s (local.get $r) (i32.const 0)) (then (return (i64.const 0))))
  (i64.load offset=16 (call $dict_entry (i32.wrap_i64 (local.get $d)) (local.get $r))))

(func $dict_raise_key_error (param $k i64)
  (call $raise (call $exc_new (global.get $t_KeyError) (call $tuple1 (local.get $k)))))

;; d[k]: KeyError(k) when absent.
(func $dict_getitem (param $d i64) (param $k i64) (result i64)
  (local $v i64)
  (local.set $v (call $dict_get (local.get $d) (local.get $k)))
  (if (i64.eqz (local.get $v)) (then (call $dict_raise_key_error (local.get $k))))
  (local.get $v))

;; Removes key `k` from a dict (or set): 1 if it was there, 0 if not (no exception; see
;; $dict_delitem for `del d[k]`).
(func $dict_del (param $d i64) (param $k i64) (result i32)
  (local $r i32)
  (local.set $r (call $dict_find (i32.wrap_i64 (local.get $d)) (local.get $k) (call $hash (local.get $k))))
  (if (i32.lt_s (local.get $r) (i32.const 0)) (then (return (i32.const 0))))
  (call $dict_remove_at (i32.wrap_i64 (local.get $d)) (local.get $r))
  (i32.const 1))

;; del d[k]: KeyError(k) when absent.
(func $dict_delitem (param $d i64) (param $k i64)
  (if (i32.eqz (call $dict_del (local.get $d) (local.get $k)))
    (then (call $dict_raise_key_error (local.get $k)))))

;; `k in d` (also works for sets).
(func $dict_contains (param $d i64) (param $k i64) (result i32)
  (i32.ge_s (call $dict_find (i32.wrap_i64 (local.get $d)) (local.get $k) (call $hash (local.get $k)))
    (i32.const 0)))

;; A list of the keys (which = 0), values (1) or (key, value) tuples (2), in order.
(func $dict_list (param $v i64) (param $which i32) (result i64)
  (local $d i32) (local $n i32) (local $l i32) (local $items i32) (local $i i32) (local $j i32)
  (local $e i32) (local $t i32) (local $cap i32)
  (local.set $d (i32.wrap_i64 (local.get $v)))
  (local.set $n (i32.load offset=4 (local.get $d)))
  (local.set $cap (select (local.get $n) (i32.const 4) (i32.gt_u (local.get $n) (i32.const 4))))
  (local.set $l (call $alloc (i32.const 16)))
  (local.set $items (call $alloc (i32.shl (local.get $cap) (i32.const 3))))
  (i32.store (local.get $l) (i32.const TYPE_LIST))
  (i32.store offset=4 (local.get $l) (local.get $n))
  (i32.store offset=8 (local.get $l) (local.get $cap))
  (i32.store offset=12 (local.get $l) (local.get $items))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $d))))
      (local.set $e (call $dict_entry (local.get $d) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (if (i32.eqz (local.get $which))
        (then (i64.store (i32.add (local.get $items) (i32.shl (local.get $j) (i32.const 3)))
          (i64.load offset=8 (local.get $e)))))
      (if (i32.eq (local.get $which) (i32.const 1))
        (then (i64.store (i32.add (local.get $items) (i32.shl (local.get $j) (i32.const 3)))
          (i64.load offset=16 (local.get $e)))))
      (if (i32.eq (local.get $which) (i32.const 2))
        (then
          (local.set $t (call $tuple_new (i32.const 2)))
          (i64.store offset=8 (local.get $t) (i64.load offset=8 (local.get $e)))
          (i64.store offset=16 (local.get $t) (i64.load offset=16 (local.get $e)))
          (i64.store (i32.add (local.get $items) (i32.shl (local.get $j) (i32.const 3)))
            (i64.extend_i32_u (local.get $t)))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $each)))
  (i64.extend_i32_u (local.get $l)))

(func $dict_keys_list (param $d i64) (result i64)
  (call $dict_list (local.get $d) (i32.const 0)))

;; repr of a dict or set; a dict met again inside its own repr prints as {...}.
(func $dict_repr (param $d i64) (result i64)
  (call $dict_repr_impl (local.get $d) (i32.const 1)))

(func $set_repr (param $s i64) (result i64)
  (if (i32.load offset=36 (i32.wrap_i64 (local.get $s)))
    (then
      (if (i32.eqz (i32.load offset=4 (i32.wrap_i64 (local.get $s))))
        (then (return (i64.extend_i32_u (global.get $s_frozenset_empty_repr)))))
      (return (call $msg1 (global.get $s_frozenset_repr) (call $dict_repr_impl (local.get $s) (i32.const 0))))))
  (call $dict_repr_impl (local.get $s) (i32.const 0)))

(func $dict_repr_impl (param $v i64) (param $is_dict i32) (result i64)
  (local $d i32) (local $sb i32) (local $i i32) (local $e i32) (local $first i32) (local $x i64)
  (local.set $d (i32.wrap_i64 (local.get $v)))
  (if (i32.eqz (i32.load offset=4 (local.get $d)))
    (then (return (i64.extend_i32_u
      (select (global.get $s_dict_empty_repr) (global.get $s_set_empty_repr) (local.get $is_dict))))))
  (if (i32.eqz (global.get $dict_repr_stack))
    (then (global.set $dict_repr_stack
      (call $alloc (i32.shl (i32.add (global.get $max_depth) (i32.const 16)) (i32.const 2))))))
  (block $fresh
    (loop $each
      (br_if $fresh (i32.ge_u (local.get $i) (global.get $dict_repr_depth)))
      (if (i32.eq (i32.load (i32.add (global.get $dict_repr_stack) (i32.shl (local.get $i) (i32.const 2))))
            (local.get $d))
        (then (return (i64.extend_i32_u (global.get $s_dict_recursive_repr)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $native_enter)
  (if (i32.ge_u (global.get $dict_repr_depth) (i32.add (global.get $max_depth) (i32.const 16)))
    (then (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion))))
  (i32.store (i32.add (global.get $dict_repr_stack) (i32.shl (global.get $dict_repr_depth) (i32.const 2)))
    (local.get $d))
  (global.set $dict_repr_depth (i32.add (global.get $dict_repr_depth) (i32.const 1)))
  (local.set $x
    (block $failed (result i64)
      (try_table (catch $exc $failed)
        (local.set $sb (call $sb_new))
        (call $sb_push_byte (local.get $sb) (i32.const 123))
        (local.set $first (i32.const 1))
        (local.set $i (i32.const 0))
        (block $done
          (loop $each
            (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $d))))
            (local.set $e (call $dict_entry (local.get $d) (local.get $i)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
            (if (i32.eqz (local.get $first))
              (then
                (call $sb_push_byte (local.get $sb) (i32.const 44))
                (call $sb_push_byte (local.get $sb) (i32.const 32))))
            (local.set $first (i32.const 0))
            (call $sb_push_str (local.get $sb) (call $to_repr (i64.load offset=8 (local.get $e))))
            (if (local.get $is_dict)
              (then
                (call $sb_push_byte (local.get $sb) (i32.const 58))
                (call $sb_push_byte (local.get $sb) (i32.const 32))
                (call $sb_push_str (local.get $sb) (call $to_repr (i64.load offset=16 (local.get $e))))))
            (br $each)))
        (call $sb_push_byte (local.get $sb) (i32.const 125))
        (global.set $dict_repr_depth (i32.sub (global.get $dict_repr_depth) (i32.const 1)))
        (call $native_leave)
        (return (call $sb_finish (local.get $sb))))
      (unreachable)))
  (global.set $dict_repr_depth (i32.sub (global.get $dict_repr_depth) (i32.const 1)))
  (throw $exc (local.get $x)))

;; Equality of two dicts (values compared with $eq) or two sets, whatever the order.
(func $dict_eq (param $a i64) (param $b i64) (result i32)
  (call $dict_eq_impl (local.get $a) (local.get $b) (i32.const 8)))

(func $set_eq (param $a i64) (param $b i64) (result i32)
  (call $dict_eq_impl (local.get $a) (local.get $b) (i32.const 9)))

(func $dict_eq_impl (param $a i64) (param $b i64) (param $type i32) (result i32)
  (local $pa i32) (local $pb i32) (local $i i32) (local $e i32) (local $r i32) (local $ix i32)
  (local $av i64) (local $bv i64)
  (if (i64.eq (local.get $a) (local.get $b)) (then (return (i32.const 1))))
  (if (i32.ne (call $tid (local.get $a)) (local.get $type)) (then (return (i32.const 0))))
  (if (i32.ne (call $tid (local.get $b)) (local.get $type)) (then (return (i32.const 0))))
  (local.set $pa (i32.wrap_i64 (local.get $a)))
  (local.set $pb (i32.wrap_i64 (local.get $b)))
  (if (i32.ne (i32.load offset=4 (local.get $pa)) (i32.load offset=4 (local.get $pb)))
    (then (return (i32.const 0))))
  (call $native_enter)
  (local.set $r (i32.const 1))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $pa))))
      (local.set $e (call $dict_entry (local.get $pa) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (local.set $ix (call $dict_find (local.get $pb) (i64.load offset=8 (local.get $e)) (i64.load (local.get $e))))
      (if (i32.lt_s (local.get $ix) (i32.const 0))
        (then (local.set $r (i32.const 0)) (br $done)))
      (if (i32.eq (local.get $type) (i32.const 8))
        (then
          (local.set $av (i64.load offset=16 (local.get $e)))
          (local.set $bv (i64.load offset=16 (call $dict_entry (local.get $pb) (local.get $ix))))
          (if (i64.ne (local.get $av) (local.get $bv))
            (then
              (if (i32.eqz (call $eq (local.get $av) (local.get $bv)))
                (then (local.set $r (i32.const 0)) (br $done)))))))
      (br $each)))
  (call $native_leave)
  (local.get $r))

;; ---- argument checks -------------------------------------------------------------------------------

(func $dict_int_str (param $n i32) (result i64)
  (local $sb i32)
  (local.set $sb (call $sb_new))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $n)))
  (call $sb_finish (local.get $sb)))

;; Raises TypeError(template with the method name and a count).
(func $dict_arg_error (param $template i32) (param $name i64) (param $n i32)
  (call $raise_msg (global.get $t_TypeError)
    (call $msg2 (local.get $template) (local.get $name) (call $dict_int_str (local.get $n)))))

;; TypeError when keyword arguments were given.
(func $dict_check_no_kwargs (param $template i32) (param $name i64) (param $kwargs i32)
  (if (local.get $kwargs)
    (then
      (if (i32.load offset=4 (local.get $kwargs))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg1 (local.get $template) (local.get $name))))))))

;; `name expected at least 1 argument, got n` / `at most max`.
(func $dict_check_range (param $name i64) (param $n i32) (param $min i32) (param $max i32)
  (if (i32.lt_u (local.get $n) (local.get $min))
    (then (call $dict_arg_error (global.get $s_dict_at_least) (local.get $name) (local.get $n))))
  (if (i32.gt_u (local.get $n) (local.get $max))
    (then (call $dict_arg_error
      (select (global.get $s_dict_at_most_1) (global.get $s_dict_at_most_2) (i32.eq (local.get $max) (i32.const 1)))
      (local.get $name) (local.get $n)))))

(func $dict_check_count (param $template i32) (param $name i64) (param $n i32) (param $want i32)
  (if (i32.ne (local.get $n) (local.get $want))
    (then (call $dict_arg_error (local.get $template) (local.get $name) (local.get $n)))))

;; Whether the str `name` has the text of the static str `s`.
(func $dict_name_is (param $name i64) (param $s i32) (result i32)
  (local $p i32) (local $len i32) (local $i i32)
  (local.set $p (i32.wrap_i64 (local.get $name)))
  (local.set $len (i32.load offset=4 (local.get $p)))
  (if (i32.ne (local.get $len) (i32.load offset=4 (local.get $s))) (then (return (i32.const 0))))
  (if (i32.eq (local.get $p) (local.get $s)) (then (return (i32.const 1))))
  (block $differ
    (loop $each
      (if (i32.ge_u (local.get $i) (local.get $len)) (then (return (i32.const 1))))
      (br_if $differ (i32.ne (i32.load8_u offset=16 (i32.add (local.get $p) (local.get $i)))
        (i32.load8_u offset=16 (i32.add (local.get $s) (local.get $i)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const 0))

(func $dict_arg (param $args i32) (param $i i32) (result i64)
  (i64.load offset=8 (i32.add (local.get $args) (i32.shl (local.get $i) (i32.const 3)))))

;; ---- filling tables from iterables -----------------------------------------------------------------

;; Adds every item of `src` (any iterable) to the set `s`.
(func $set_add_all (param $s i32) (param $src i64)
  (local $t i32) (local $p i32) (local $i i32) (local $n i32) (local $e i32) (local $items i32)
  (local $it i64) (local $v i64)
  (local.set $t (call $tid (local.get $src)))
  (local.set $p (i32.wrap_i64 (local.get $src)))
  ;; A keys view: its dict's keys.
  (if (i32.eq (local.get $t) (i32.const 19))
    (then
      (if (i32.eqz (i32.load offset=4 (local.get $p)))
        (then
          (local.set $p (i32.load offset=8 (local.get $p)))
          (local.set $t (i32.const 8))))))
  (if (i32.or (i32.eq (local.get $t) (i32.const 8)) (i32.eq (local.get $t) (i32.const 9)))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $p))))
          (local.set $e (call $dict_entry (local.get $p) (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
          (call $dict_insert (local.get $s) (i64.load offset=8 (local.get $e)) (i64.load (local.get $e)) (i64.const 0))
          (br $each)))
      (return)))
  (if (i32.or (i32.eq (local.get $t) (i32.const 6)) (i32.eq (local.get $t) (i32.const 7)))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (local.get $p))))
          (local.set $items (select (i32.add (local.get $p) (i32.const 8)) (i32.load offset=12 (local.get $p))
            (i32.eq (local.get $t) (i32.const 6))))
          (local.set $v (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
          (call $dict_insert (local.get $s) (local.get $v) (call $hash (local.get $v)) (i64.const 0))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return)))
  (local.set $it (call $iter (local.get $src)))
  (block $done
    (loop $each
      (local.set $v (call $next (local.get $it)))
      (br_if $done (i64.eqz (local.get $v)))
      (call $dict_insert (local.get $s) (local.get $v) (call $hash (local.get $v)) (i64.const 0))
      (br $each))))

;; `src` as a set: itself when it is one, else a new set of its items.
(func $set_of (param $src i64) (result i32)
  (local $s i64)
  (if (i32.eq (call $tid (local.get $src)) (i32.const TYPE_SET)) (then (return (i32.wrap_i64 (local.get $src)))))
  (local.set $s (call $set_new))
  (call $set_add_all (i32.wrap_i64 (local.get $s)) (local.get $src))
  (i32.wrap_i64 (local.get $s)))

;; Stores one (key, value) pair, element number `n` of a dict update sequence.
(func $dict_add_pair (param $d i32) (param $el i64) (param $n i32)
  (local $t i32) (local $p i32) (local $len i32) (local $items i32) (local $it i64) (local $x i64)
  (local $k i64) (local $v i64)
  (local.set $t (call $tid (local.get $el)))
  (local.set $p (i32.wrap_i64 (local.get $el)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then
      (local.set $len (i32.load offset=4 (local.get $p)))
      (local.set $items (select (i32.add (local.get $p) (i32.const 8)) (i32.load offset=12 (local.get $p))
        (i32.eq (local.get $t) (i32.const TYPE_TUPLE))))
      (if (i32.eq (local.get $len) (i32.const 2))
        (then
          (local.set $k (i64.load (local.get $items)))
          (local.set $v (i64.load offset=8 (local.get $items))))))
    (else
      (if (i32.eqz (i32.or (i32.or (i32.eq (local.get $t) (i32.const TYPE_STR)) (i32.eq (local.get $t) (i32.const TYPE_DICT)))
            (i32.or (i32.or (i32.eq (local.get $t) (i32.const TYPE_SET)) (i32.eq (local.get $t) (i32.const TYPE_RANGE)))
              (i32.or (i32.eq (local.get $t) (i32.const TYPE_ITERATOR)) (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))))))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg1 (global.get $s_dict_seq_convert) (call $dict_int_str (local.get $n))))))
      (local.set $it (call $iter (local.get $el)))
      (block $done
        (loop $each
          (local.set $x (call $next (local.get $it)))
          (br_if $done (i64.eqz (local.get $x)))
          (if (i32.eqz (local.get $len)) (then (local.set $k (local.get $x))))
          (if (i32.eq (local.get $len) (i32.const 1)) (then (local.set $v (local.get $x))))
          (local.set $len (i32.add (local.get $len) (i32.const 1)))
          (br $each)))))
  (if (i32.ne (local.get $len) (i32.const 2))
    (then (call $raise_msg (global.get $t_ValueError)
      (call $msg2 (global.get $s_dict_seq_len) (call $dict_int_str (local.get $n))
        (call $dict_int_str (local.get $len))))))
  (call $dict_insert (local.get $d) (local.get $k) (call $hash (local.get $k)) (local.get $v)))

;; dict.update(src): from a dict, or an iterable of pairs.
;; `{**m}` in a dict display: `m` must be a mapping (in plans, a dict); anything else is
;; CPython's TypeError, where dict.update would have taken a sequence of pairs.
(func $dict_display_unpack (param $d i64) (param $m i64)
  (if (i32.ne (call $tid (local.get $m)) (i32.const TYPE_DICT))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_dict_not_mapping) (call $type_name (local.get $m))))))
  (call $dict_update_from (i32.wrap_i64 (local.get $d)) (local.get $m)))

(func $dict_update_from (param $d i32) (param $src i64)
  (local $t i32) (local $p i32) (local $i i32) (local $e i32) (local $items i32) (local $it i64) (local $x i64)
  (local.set $t (call $tid (local.get $src)))
  (local.set $p (i32.wrap_i64 (local.get $src)))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $p))))
          (local.set $e (call $dict_entry (local.get $p) (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
          (call $dict_insert (local.get $d) (i64.load offset=8 (local.get $e)) (i64.load (local.get $e))
            (i64.load offset=16 (local.get $e)))
          (br $each)))
      (return)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (local.get $p))))
          (local.set $items (select (i32.add (local.get $p) (i32.const 8)) (i32.load offset=12 (local.get $p))
            (i32.eq (local.get $t) (i32.const TYPE_TUPLE))))
          (call $dict_add_pair (local.get $d)
            (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))) (local.get $i))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return)))
  (local.set $it (call $iter (local.get $src)))
  (block $done
    (loop $each
      (local.set $x (call $next (local.get $it)))
      (br_if $done (i64.eqz (local.get $x)))
      (call $dict_add_pair (local.get $d) (local.get $x) (local.get $i))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each))))

;; Adds keyword arguments (a dict, or 0) to a dict.
(func $dict_update_kwargs (param $d i32) (param $kwargs i32)
  (if (local.get $kwargs)
    (then (call $dict_update_from (local.get $d) (i64.extend_i32_u (local.get $kwargs))))))

;; ---- dict methods ------------------------------------------------------------------------------------

;; Methods of dict; 0 when there is no such method (the caller raises AttributeError).
;; keys(), values() and items() return live views (type 19, below).
(func $dict_method (param $self i64) (param $name i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $d i32) (local $n i32) (local $k i64) (local $v i64) (local $h i64) (local $r i32) (local $i i32)
  (local $e i32) (local $t i32)
  (local.set $d (i32.wrap_i64 (local.get $self)))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_update))
    (then
      (call $dict_check_range (local.get $name) (local.get $n) (i32.const 0) (i32.const 1))
      (if (local.get $n) (then (call $dict_update_from (local.get $d) (call $dict_arg (local.get $args) (i32.const 0)))))
      (call $dict_update_kwargs (local.get $d) (local.get $kwargs))
      (return (i64.const 8))))
  ;; A class method called on an instance, as CPython allows: `d.fromkeys(keys)` ignores `d`.
  (if (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_fromkeys)))
    (then (return (call $dict_fromkeys (local.get $args) (local.get $kwargs)))))
  (if (i32.eqz (call $dict_is_method (local.get $name))) (then (return (i64.const 0))))
  (call $dict_check_no_kwargs (global.get $s_dict_no_kwargs) (local.get $name) (local.get $kwargs))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_get))
    (then
      (call $dict_check_range (local.get $name) (local.get $n) (i32.const 1) (i32.const 2))
      (local.set $v (call $dict_get (local.get $self) (call $dict_arg (local.get $args) (i32.const 0))))
      (if (i64.eqz (local.get $v))
        (then (return (select (call $dict_arg (local.get $args) (i32.const 1)) (i64.const 8)
          (i32.eq (local.get $n) (i32.const 2))))))
      (return (local.get $v))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_setdefault))
    (then
      (call $dict_check_range (local.get $name) (local.get $n) (i32.const 1) (i32.const 2))
      (local.set $k (call $dict_arg (local.get $args) (i32.const 0)))
      (local.set $h (call $hash (local.get $k)))
      (local.set $r (call $dict_find (local.get $d) (local.get $k) (local.get $h)))
      (if (i32.ge_s (local.get $r) (i32.const 0))
        (then (return (i64.load offset=16 (call $dict_entry (local.get $d) (local.get $r))))))
      (local.set $v (select (call $dict_arg (local.get $args) (i32.const 1)) (i64.const 8)
        (i32.eq (local.get $n) (i32.const 2))))
      (call $dict_append (local.get $d) (local.get $k) (local.get $h) (local.get $v))
      (return (local.get $v))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_pop))
    (then
      (call $dict_check_range (local.get $name) (local.get $n) (i32.const 1) (i32.const 2))
      (local.set $k (call $dict_arg (local.get $args) (i32.const 0)))
      ;; An empty dict answers without hashing the key, as CPython's does (so {}.pop([]) is a
      ;; KeyError, not "unhashable type").
      (local.set $r (i32.const -1))
      (if (i32.load offset=4 (local.get $d))
        (then (local.set $r (call $dict_find (local.get $d) (local.get $k) (call $hash (local.get $k))))))
      (if (i32.ge_s (local.get $r) (i32.const 0))
        (then
          (local.set $v (i64.load offset=16 (call $dict_entry (local.get $d) (local.get $r))))
          (call $dict_remove_at (local.get $d) (local.get $r))
          (return (local.get $v))))
      (if (i32.eq (local.get $n) (i32.const 2)) (then (return (call $dict_arg (local.get $args) (i32.const 1)))))
      (call $dict_raise_key_error (local.get $k))))
  ;; The rest take no arguments.
  (call $dict_check_count (global.get $s_dict_no_args) (local.get $name) (local.get $n) (i32.const 0))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_keys))
    (then (return (call $dict_view_new (local.get $self) (i32.const 0)))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_values))
    (then (return (call $dict_view_new (local.get $self) (i32.const 1)))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_items))
    (then (return (call $dict_view_new (local.get $self) (i32.const 2)))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_popitem))
    (then
      (if (i32.eqz (i32.load offset=4 (local.get $d)))
        (then (call $raise_static (global.get $t_KeyError) (global.get $s_dict_popitem_empty))))
      (local.set $i (i32.load offset=32 (local.get $d)))
      (loop $back
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (local.set $e (call $dict_entry (local.get $d) (local.get $i)))
        (br_if $back (i64.eqz (i64.load offset=8 (local.get $e)))))
      (local.set $t (call $tuple_new (i32.const 2)))
      (i64.store offset=8 (local.get $t) (i64.load offset=8 (local.get $e)))
      (i64.store offset=16 (local.get $t) (i64.load offset=16 (local.get $e)))
      (call $dict_remove_at (local.get $d) (local.get $i))
      (i32.store offset=32 (local.get $d) (local.get $i))
      (return (i64.extend_i32_u (local.get $t)))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_clear))
    (then (call $dict_clear (local.get $d)) (return (i64.const 8))))
  ;; copy
  (call $dict_copy (local.get $self)))

;; Whether `name` is a dict method other than update.
(func $dict_is_method (param $name i64) (result i32)
  (i32.or
    (i32.or
      (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_get))
        (call $dict_name_is (local.get $name) (global.get $s_dict_n_keys)))
      (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_values))
        (call $dict_name_is (local.get $name) (global.get $s_dict_n_items))))
    (i32.or
      (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_pop))
        (call $dict_name_is (local.get $name) (global.get $s_dict_n_popitem)))
      (i32.or
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_setdefault))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_clear)))
        (call $dict_name_is (local.get $name) (global.get $s_dict_n_copy))))))

;; d1 | d2 (a new dict) and d1 |= other (update in place); other operand types are the caller's.
(func $dict_or (param $a i64) (param $b i64) (result i64)
  (local $r i64)
  (local.set $r (call $dict_copy (local.get $a)))
  (call $dict_update_from (i32.wrap_i64 (local.get $r)) (local.get $b))
  (local.get $r))

(func $dict_ior (param $a i64) (param $b i64) (result i64)
  (call $dict_update_from (i32.wrap_i64 (local.get $a)) (local.get $b))
  (local.get $a))

;; ---- sets ---------------------------------------------------------------------------------------------

(func $set_add (param $s i64) (param $v i64)
  (call $dict_insert (i32.wrap_i64 (local.get $s)) (local.get $v) (call $hash (local.get $v)) (i64.const 0)))

;; A set as the key of a lookup in a set (`in`, discard, remove) stands for the frozenset of its
;; elements, as in CPython: `{1} in s` is whether s holds frozenset({1}), not "unhashable".
(func $set_key (param $v i64) (result i64)
  (if (i32.eq (call $tid (local.get $v)) (i32.const TYPE_SET))
    (then
      (if (i32.eqz (i32.load offset=36 (i32.wrap_i64 (local.get $v))))
        (then
          (local.set $v (call $dict_copy (local.get $v)))
          (i32.store offset=36 (i32.wrap_i64 (local.get $v)) (i32.const 1))))))
  (local.get $v))

(func $set_contains (param $s i64) (param $v i64) (result i32)
  (call $dict_contains (local.get $s) (call $set_key (local.get $v))))

;; Whether every element of set `a` is in set `b`.
(func $set_subset (param $a i32) (param $b i32) (result i32)
  (local $i i32) (local $e i32)
  (if (i32.gt_u (i32.load offset=4 (local.get $a)) (i32.load offset=4 (local.get $b))) (then (return (i32.const 0))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $a))))
      (local.set $e (call $dict_entry (local.get $a) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (if (i32.lt_s (call $dict_find (local.get $b) (i64.load offset=8 (local.get $e)) (i64.load (local.get $e)))
            (i32.const 0))
        (then (return (i32.const 0))))
      (br $each)))
  (i32.const 1))

;; A new set of the elements of `a` that are (keep = 1) or are not (keep = 0) in `b`, appended
;; to `r` (0: a new set). Returns the set.
(func $set_filter (param $a i32) (param $b i32) (param $keep i32) (param $r i64) (result i64)
  (local $i i32) (local $e i32) (local $in i32)
  (if (i64.eqz (local.get $r)) (then (local.set $r (call $set_new))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $a))))
      (local.set $e (call $dict_entry (local.get $a) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (local.set $in (i32.ge_s (call $dict_find (local.get $b) (i64.load offset=8 (local.get $e)) (i64.load (local.get $e)))
        (i32.const 0)))
      (if (i32.eq (local.get $in) (local.get $keep))
        (then (call $dict_append (i32.wrap_i64 (local.get $r)) (i64.load offset=8 (local.get $e))
          (i64.load (local.get $e)) (i64.const 0))))
      (br $each)))
  (local.get $r))

;; Set algebra on two sets (CPython's intersection walks the smaller set, keeping its elements).
(func $set_inter (param $a i32) (param $b i32) (result i64)
  (if (i32.le_u (i32.load offset=4 (local.get $b)) (i32.load offset=4 (local.get $a)))
    (then (return (call $set_filter (local.get $b) (local.get $a) (i32.const 1) (i64.const 0)))))
  (call $set_filter (local.get $a) (local.get $b) (i32.const 1) (i64.const 0)))

(func $set_diff (param $a i32) (param $b i32) (result i64)
  (call $set_filter (local.get $a) (local.get $b) (i32.const 0) (i64.const 0)))

(func $set_symdiff (param $a i32) (param $b i32) (result i64)
  (call $set_filter (local.get $b) (local.get $a) (i32.const 0)
    (call $set_filter (local.get $a) (local.get $b) (i32.const 0) (i64.const 0))))

(func $set_union (param $a i64) (param $b i64) (result i64)
  (local $r i64)
  (local.set $r (call $dict_copy (local.get $a)))
  (call $set_add_all (i32.wrap_i64 (local.get $r)) (local.get $b))
  (local.get $r))

;; TypeError unless both operands are sets.
(func $set_check (param $a i64) (param $b i64) (param $template i32)
  (if (i32.and (i32.eq (call $tid (local.get $a)) (i32.const TYPE_SET)) (i32.eq (call $tid (local.get $b)) (i32.const TYPE_SET)))
    (then (return)))
  (call $raise_msg (global.get $t_TypeError)
    (call $msg2 (local.get $template) (call $type_name (local.get $a)) (call $type_name (local.get $b)))))

(func $set_or (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_or))
  (call $set_union (local.get $a) (local.get $b)))

(func $set_and (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_and))
  (call $set_frozen_like (call $set_inter (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b)))
    (local.get $a)))

(func $set_sub (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_sub))
  (call $set_frozen_like (call $set_diff (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b)))
    (local.get $a)))

(func $set_xor (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_xor))
  (call $set_frozen_like (call $set_symdiff (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b)))
    (local.get $a)))

;; In-place forms (s |= t ...): update `a` and return it.
(func $set_ior (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_ior))
  (call $set_add_all (i32.wrap_i64 (local.get $a)) (local.get $b))
  (local.get $a))

(func $set_iand (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_iand))
  (call $dict_take (i32.wrap_i64 (local.get $a))
    (i32.wrap_i64 (call $set_inter (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b)))))
  (local.get $a))

(func $set_isub (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_isub))
  (call $dict_take (i32.wrap_i64 (local.get $a))
    (i32.wrap_i64 (call $set_diff (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b)))))
  (local.get $a))

(func $set_ixor (param $a i64) (param $b i64) (result i64)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_unsupported_ixor))
  (call $dict_take (i32.wrap_i64 (local.get $a))
    (i32.wrap_i64 (call $set_symdiff (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b)))))
  (local.get $a))

;; Comparisons: subset and superset, strict or not.
(func $set_le (param $a i64) (param $b i64) (result i32)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_cmp_le))
  (call $set_subset (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b))))

(func $set_lt (param $a i64) (param $b i64) (result i32)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_cmp_lt))
  (i32.and
    (i32.lt_u (i32.load offset=4 (i32.wrap_i64 (local.get $a))) (i32.load offset=4 (i32.wrap_i64 (local.get $b))))
    (call $set_subset (i32.wrap_i64 (local.get $a)) (i32.wrap_i64 (local.get $b)))))

(func $set_ge (param $a i64) (param $b i64) (result i32)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_cmp_ge))
  (call $set_subset (i32.wrap_i64 (local.get $b)) (i32.wrap_i64 (local.get $a))))

(func $set_gt (param $a i64) (param $b i64) (result i32)
  (call $set_check (local.get $a) (local.get $b) (global.get $s_set_cmp_gt))
  (i32.and
    (i32.lt_u (i32.load offset=4 (i32.wrap_i64 (local.get $b))) (i32.load offset=4 (i32.wrap_i64 (local.get $a))))
    (call $set_subset (i32.wrap_i64 (local.get $b)) (i32.wrap_i64 (local.get $a)))))

;; Methods of set; 0 when there is no such method.
(func $set_method (param $self i64) (param $name i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $s i32) (local $n i32) (local $i i32) (local $e i32) (local $v i64) (local $r i64) (local $o i32)
  (local $one_arg i32)
  (local.set $s (i32.wrap_i64 (local.get $self)))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (call $set_is_method (local.get $name))) (then (return (i64.const 0))))
  (local.set $one_arg (select (global.get $s_frozenset_one_arg) (global.get $s_set_one_arg)
    (i32.load offset=36 (local.get $s))))
  ;; A frozenset has only the methods that leave it as it is; copy is the frozenset itself.
  (if (i32.load offset=36 (local.get $s))
    (then
      (if (i32.eqz (call $word_in (global.get $s_methods_frozenset) (local.get $name))) (then (return (i64.const 0))))
      (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_copy))
        (then
          (call $dict_check_no_kwargs (global.get $s_frozenset_no_kwargs) (local.get $name) (local.get $kwargs))
          (call $dict_check_count (global.get $s_frozenset_no_args) (local.get $name) (local.get $n) (i32.const 0))
          (return (local.get $self))))))
  (call $dict_check_no_kwargs
    (select (global.get $s_frozenset_no_kwargs) (global.get $s_set_no_kwargs) (i32.load offset=36 (local.get $s)))
    (local.get $name) (local.get $kwargs))
  ;; Methods of any number of iterables.
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_update))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (call $set_add_all (local.get $s) (call $dict_arg (local.get $args) (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (i64.const 8))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_union))
    (then
      (local.set $r (call $dict_copy (local.get $self)))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (call $set_add_all (i32.wrap_i64 (local.get $r)) (call $dict_arg (local.get $args) (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (local.get $r))))
  (if (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_intersection))
        (call $dict_name_is (local.get $name) (global.get $s_dict_n_intersection_update)))
    (then
      (local.set $r (local.get $self))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $r (call $set_inter (i32.wrap_i64 (local.get $r))
            (call $set_of (call $dict_arg (local.get $args) (local.get $i)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (call $set_result (local.get $self) (local.get $r) (local.get $name)
        (global.get $s_dict_n_intersection_update)))))
  (if (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_difference))
        (call $dict_name_is (local.get $name) (global.get $s_dict_n_difference_update)))
    (then
      (local.set $r (local.get $self))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $r (call $set_diff (i32.wrap_i64 (local.get $r))
            (call $set_of (call $dict_arg (local.get $args) (local.get $i)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (call $set_result (local.get $self) (local.get $r) (local.get $name)
        (global.get $s_dict_n_difference_update)))))
  ;; Methods of no argument.
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_pop))
    (then
      (call $dict_check_count (global.get $s_set_no_args) (local.get $name) (local.get $n) (i32.const 0))
      (if (i32.eqz (i32.load offset=4 (local.get $s)))
        (then (call $raise_static (global.get $t_KeyError) (global.get $s_set_pop_empty))))
      (local.set $i (i32.load offset=28 (local.get $s)))
      (loop $forward
        (local.set $e (call $dict_entry (local.get $s) (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $forward (i64.eqz (i64.load offset=8 (local.get $e)))))
      (local.set $v (i64.load offset=8 (local.get $e)))
      (call $dict_remove_at (local.get $s) (i32.sub (local.get $i) (i32.const 1)))
      (i32.store offset=28 (local.get $s) (local.get $i))
      (return (local.get $v))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_clear))
    (then
      (call $dict_check_count (global.get $s_set_no_args) (local.get $name) (local.get $n) (i32.const 0))
      (call $dict_clear (local.get $s))
      (return (i64.const 8))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_copy))
    (then
      (call $dict_check_count (global.get $s_set_no_args) (local.get $name) (local.get $n) (i32.const 0))
      (return (call $dict_copy (local.get $self)))))
  ;; The rest take exactly one argument.
  (call $dict_check_count (local.get $one_arg) (local.get $name) (local.get $n) (i32.const 1))
  (local.set $v (call $dict_arg (local.get $args) (i32.const 0)))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_add))
    (then (call $set_add (local.get $self) (local.get $v)) (return (i64.const 8))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_discard))
    (then
      (drop (call $dict_del (local.get $self) (call $set_key (local.get $v))))
      (return (i64.const 8))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_remove))
    (then
      ;; KeyError names the key given (a set, not the frozenset it stood for).
      (if (i32.eqz (call $dict_del (local.get $self) (call $set_key (local.get $v))))
        (then (call $dict_raise_key_error (local.get $v))))
      (return (i64.const 8))))
  (local.set $o (call $set_of (local.get $v)))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_issubset))
    (then (return (call $bool (call $set_subset (local.get $s) (local.get $o))))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_issuperset))
    (then (return (call $bool (call $set_subset (local.get $o) (local.get $s))))))
  (if (call $dict_name_is (local.get $name) (global.get $s_dict_n_isdisjoint))
    (then (return (call $bool (i32.eqz (i32.load offset=4
      (i32.wrap_i64 (call $set_inter (local.get $s) (local.get $o)))))))))
  ;; symmetric_difference, symmetric_difference_update
  (local.set $r (call $set_symdiff (local.get $s) (local.get $o)))
  (call $set_result (local.get $self) (local.get $r) (local.get $name)
    (global.get $s_dict_n_symmetric_difference_update)))

;; The result of a set method: for the `_update` form, `self` takes the result's elements (None);
;; otherwise the result itself, a new set (a copy when it is still `self`) of `self`'s type.
(func $set_result (param $self i64) (param $r i64) (param $name i64) (param $update i32) (result i64)
  (if (call $dict_name_is (local.get $name) (local.get $update))
    (then
      (if (i64.ne (local.get $r) (local.get $self))
        (then (call $dict_take (i32.wrap_i64 (local.get $self)) (i32.wrap_i64 (local.get $r)))))
      (return (i64.const 8))))
  (if (i64.eq (local.get $r) (local.get $self)) (then (return (call $dict_copy (local.get $self)))))
  (call $set_frozen_like (local.get $r) (local.get $self)))

(func $set_is_method (param $name i64) (result i32)
  (i32.or
    (i32.or
      (i32.or
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_add))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_remove)))
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_discard))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_pop))))
      (i32.or
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_clear))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_copy)))
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_update))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_union)))))
    (i32.or
      (i32.or
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_intersection))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_difference)))
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_symmetric_difference))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_intersection_update))))
      (i32.or
        (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_difference_update))
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_symmetric_difference_update)))
        (i32.or
          (call $dict_name_is (local.get $name) (global.get $s_dict_n_issubset))
          (i32.or (call $dict_name_is (local.get $name) (global.get $s_dict_n_issuperset))
            (call $dict_name_is (local.get $name) (global.get $s_dict_n_isdisjoint))))))))

;; ---- dict views (type 19) ----------------------------------------------------------------------
;; keys() and items() views are set-like: `in`, ==, <, <=, >, >= with sets and set-like views,
;; and & | - ^ with any iterable (the result is a set). values() views compare by identity.

(func $dict_view_new (param $d i64) (param $kind i32) (result i64)
  (local $v i32)
  (local.set $v (call $alloc (i32.const 16)))
  (i32.store (local.get $v) (i32.const TYPE_DICT_VIEW))
  (i32.store offset=4 (local.get $v) (local.get $kind))
  (i64.store offset=8 (local.get $v) (local.get $d))
  (i64.extend_i32_u (local.get $v)))

;; The item a view of kind `kind` yields for the live entry `e`: its key, its value or a
;; (key, value) tuple.
(func $dict_view_item (param $e i32) (param $kind i32) (result i64)
  (local $t i32)
  (if (i32.eqz (local.get $kind)) (then (return (i64.load offset=8 (local.get $e)))))
  (if (i32.eq (local.get $kind) (i32.const 1)) (then (return (i64.load offset=16 (local.get $e)))))
  (local.set $t (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $t) (i64.load offset=8 (local.get $e)))
  (i64.store offset=16 (local.get $t) (i64.load offset=16 (local.get $e)))
  (i64.extend_i32_u (local.get $t)))

;; The number of items of a view (its dict's length).
(func $dict_view_len (param $v i64) (result i32)
  (i32.load offset=4 (i32.load offset=8 (i32.wrap_i64 (local.get $v)))))

;; `x in view`: keys look the key up; items look the key up and compare the value (anything but
;; a pair is not in it); values compare item by item.
(func $dict_view_contains (param $v i64) (param $x i64) (result i32)
  (local $p i32) (local $kind i32) (local $d i32) (local $r i32) (local $i i32) (local $e i32) (local $val i64)
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (local.set $kind (i32.load offset=4 (local.get $p)))
  (local.set $d (i32.load offset=8 (local.get $p)))
  (if (i32.eqz (local.get $kind))
    (then (return (call $dict_contains (i64.extend_i32_u (local.get $d)) (local.get $x)))))
  (if (i32.eq (local.get $kind) (i32.const 2))
    (then
      (if (i32.ne (call $tid (local.get $x)) (i32.const TYPE_TUPLE)) (then (return (i32.const 0))))
      (if (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $x))) (i32.const 2)) (then (return (i32.const 0))))
      (local.set $r (call $dict_find (local.get $d) (i64.load offset=8 (i32.wrap_i64 (local.get $x)))
        (call $hash (i64.load offset=8 (i32.wrap_i64 (local.get $x))))))
      (if (i32.lt_s (local.get $r) (i32.const 0)) (then (return (i32.const 0))))
      (local.set $val (i64.load offset=16 (call $dict_entry (local.get $d) (local.get $r))))
      (call $native_enter)
      (local.set $r (call $seq_item_eq (local.get $val) (i64.load offset=16 (i32.wrap_i64 (local.get $x)))))
      (call $native_leave)
      (return (local.get $r))))
  (call $native_enter)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $d))))
      (local.set $e (call $dict_entry (local.get $d) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (if (call $seq_item_eq (i64.load offset=16 (local.get $e)) (local.get $x))
        (then (local.set $r (i32.const 1)) (br $done)))
      (br $each)))
  (call $native_leave)
  (local.get $r))

;; The length of a set or of a keys or items view; -1 for anything else.
(func $dict_setlike_len (param $v i64) (result i32)
  (local $t i32)
  (local.set $t (call $tid (local.get $v)))
  (if (i32.eq (local.get $t) (i32.const TYPE_SET)) (then (return (i32.load offset=4 (i32.wrap_i64 (local.get $v))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
    (then
      (if (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $v))) (i32.const 1))
        (then (return (call $dict_view_len (local.get $v)))))))
  (i32.const -1))

;; Whether every item of `a` (a set or a keys or items view) is in `b` (the same kinds).
(func $dict_setlike_all_in (param $a i64) (param $b i64) (result i32)
  (local $p i32) (local $kind i32) (local $i i32) (local $e i32) (local $x i64) (local $in i32) (local $r i32)
  (local.set $p (i32.wrap_i64 (local.get $a)))
  (if (i32.eq (i32.load (local.get $p)) (i32.const TYPE_DICT_VIEW))
    (then
      (local.set $kind (i32.load offset=4 (local.get $p)))
      (local.set $p (i32.load offset=8 (local.get $p)))))
  (call $native_enter)
  (local.set $r (i32.const 1))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $p))))
      (local.set $e (call $dict_entry (local.get $p) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (local.set $x (call $dict_view_item (local.get $e) (local.get $kind)))
      (if (i32.eq (call $tid (local.get $b)) (i32.const TYPE_SET))
        (then (local.set $in (call $set_contains (local.get $b) (local.get $x))))
        (else (local.set $in (call $dict_view_contains (local.get $b) (local.get $x)))))
      (if (i32.eqz (local.get $in)) (then (local.set $r (i32.const 0)) (br $done)))
      (br $each)))
  (call $native_leave)
  (local.get $r))

;; a == b where either is a view: keys and items views equal sets and set-like views with the
;; same items; values views equal only themselves.
(func $dict_view_eq (param $a i64) (param $b i64) (result i32)
  (local $tmp i64) (local $n i32)
  (if (i64.eq (local.get $a) (local.get $b)) (then (return (i32.const 1))))
  (if (i32.ne (call $tid (local.get $a)) (i32.const TYPE_DICT_VIEW))
    (then (local.set $tmp (local.get $a)) (local.set $a (local.get $b)) (local.set $b (local.get $tmp))))
  (local.set $n (call $dict_setlike_len (local.get $a)))
  (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (i32.const 0))))
  (if (i32.ne (call $dict_setlike_len (local.get $b)) (local.get $n)) (then (return (i32.const 0))))
  (call $dict_setlike_all_in (local.get $a) (local.get $b)))

;; a < b (op 0), <= (1), > (2), >= (3) where either is a view: subset order between sets and
;; set-like views; -1 when the operands do not support it (the caller raises TypeError).
(func $dict_view_order (param $a i64) (param $b i64) (param $op i32) (result i32)
  (local $tmp i64) (local $la i32) (local $lb i32)
  (local.set $la (call $dict_setlike_len (local.get $a)))
  (local.set $lb (call $dict_setlike_len (local.get $b)))
  (if (i32.or (i32.lt_s (local.get $la) (i32.const 0)) (i32.lt_s (local.get $lb) (i32.const 0)))
    (then (return (i32.const -1))))
  (if (i32.ge_u (local.get $op) (i32.const 2))
    (then
      (local.set $tmp (local.get $a)) (local.set $a (local.get $b)) (local.set $b (local.get $tmp))
      (local.set $la (call $dict_setlike_len (local.get $a)))
      (local.set $lb (call $dict_setlike_len (local.get $b)))
      (local.set $op (i32.sub (local.get $op) (i32.const 2)))))
  (if (i32.gt_u (local.get $la) (local.get $lb)) (then (return (i32.const 0))))
  (if (i32.and (i32.eqz (local.get $op)) (i32.eq (local.get $la) (local.get $lb))) (then (return (i32.const 0))))
  (call $dict_setlike_all_in (local.get $a) (local.get $b)))

;; Whether `v` is a keys or items view (the operands that make & | - ^ set operations).
(func $dict_view_is_setlike (param $v i64) (result i32)
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_DICT_VIEW)) (then (return (i32.const 0))))
  (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $v))) (i32.const 1)))

;; a & b where a or b is a keys or items view: CPython's `_PyDictView_Intersect`. The view (a,
;; unless only b is one) is `self`. An exact set at least as large as `self` takes the set's own
;; intersection: self's items, each looked up in the set. Otherwise the other operand (when both
;; are views, the smaller) is iterated and each of its items that `self` contains is kept: the
;; items kept are the iterated operand's, and an items view's values are never hashed, so
;; `[k] & d.items()` is an empty set where hashing the view's pairs would raise TypeError.
(func $dict_view_intersect (param $a i64) (param $b i64) (result i64)
  (local $self i64) (local $other i64) (local $n i32) (local $in_set i32) (local $r i64)
  (local $x i64) (local $it i64)
  (local.set $self (local.get $a))
  (local.set $other (local.get $b))
  (if (i32.eqz (call $dict_view_is_setlike (local.get $self)))
    (then (local.set $self (local.get $b)) (local.set $other (local.get $a))))
  (local.set $n (call $dict_view_len (local.get $self)))
  ;; in_set: iterate `self` and look each item up in the set `other`. (The type test first: the
  ;; header of a small int is not to be read.)
  (if (i32.eq (call $tid (local.get $other)) (i32.const TYPE_SET))
    (then
      (local.set $in_set (i32.and (i32.eqz (i32.load offset=36 (i32.wrap_i64 (local.get $other))))
        (i32.le_u (local.get $n) (i32.load offset=4 (i32.wrap_i64 (local.get $other))))))))
  (if (i32.eqz (local.get $in_set))
    (then
      (if (call $dict_view_is_setlike (local.get $other))
        (then
          (if (i32.gt_u (call $dict_view_len (local.get $other)) (local.get $n))
            (then
              (local.set $x (local.get $self))
              (local.set $self (local.get $other))
              (local.set $other (local.get $x))))))))
  (local.set $r (call $set_new))
  (local.set $it (call $iter (select (local.get $self) (local.get $other) (local.get $in_set))))
  (block $done
    (loop $each
      (local.set $x (call $next (local.get $it)))
      (br_if $done (i64.eqz (local.get $x)))
      (if (if (result i32) (local.get $in_set)
            (then (call $set_contains (local.get $other) (local.get $x)))
            (else (call $dict_view_contains (local.get $self) (local.get $x))))
        (then (call $set_add (local.get $r) (local.get $x))))
      (br $each)))
  (local.get $r))

;; Whether `v` is an items view.
(func $dict_view_is_items (param $v i64) (result i32)
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_DICT_VIEW)) (then (return (i32.const 0))))
  (i32.eq (i32.load offset=4 (i32.wrap_i64 (local.get $v))) (i32.const 2)))

;; a ^ b of two items views: CPython's `dictitems_xor`, which hashes no pair the two dicts share.
;; Each of b's pairs whose key a's dict has with an equal value drops that key from a copy of
;; a's dict, and each other pair of b's is kept; then the copy's remaining pairs are added.
(func $dict_items_xor (param $a i64) (param $b i64) (result i64)
  (local $rest i32) (local $d2 i32) (local $r i64) (local $i i32) (local $e i32) (local $ix i32)
  (local $same i32)
  (local.set $rest (i32.wrap_i64 (call $dict_copy
    (i64.extend_i32_u (i32.load offset=8 (i32.wrap_i64 (local.get $a)))))))
  (local.set $d2 (i32.load offset=8 (i32.wrap_i64 (local.get $b))))
  (local.set $r (call $set_new))
  (call $native_enter)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $d2))))
      (local.set $e (call $dict_entry (local.get $d2) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (i64.load offset=8 (local.get $e))))
      (local.set $ix (call $dict_find (local.get $rest) (i64.load offset=8 (local.get $e)) (i64.load (local.get $e))))
      (local.set $same (i32.const 0))
      (if (i32.ge_s (local.get $ix) (i32.const 0))
        (then (local.set $same (call $seq_item_eq
          (i64.load offset=16 (call $dict_entry (local.get $rest) (local.get $ix)))
          (i64.load offset=16 (local.get $e))))))
      (if (local.get $same)
        (then (call $dict_remove_at (local.get $rest) (local.get $ix)))
        (else (call $set_add (local.get $r) (call $dict_view_item (local.get $e) (i32.const 2)))))
      (br $each)))
  (call $native_leave)
  (call $set_add_all (i32.wrap_i64 (local.get $r))
    (call $dict_view_new (i64.extend_i32_u (local.get $rest)) (i32.const 2)))
  (local.get $r))

;; a OP b where a or b is a keys or items view (op 3 |, 4 ^, 5 -; 2 & is `$dict_view_intersect`,
;; ^ of two items views `$dict_items_xor`), as CPython's views do: a new set of a's items,
;; combined with b's items (either operand may be any iterable).
(func $dict_view_binop (param $op i32) (param $a i64) (param $b i64) (result i64)
  (local $r i64) (local $o i32)
  (if (i32.eq (local.get $op) (i32.const 2))
    (then (return (call $dict_view_intersect (local.get $a) (local.get $b)))))
  (if (i32.eq (local.get $op) (i32.const 4))
    (then
      (if (call $dict_view_is_items (local.get $a))
        (then
          (if (call $dict_view_is_items (local.get $b))
            (then (return (call $dict_items_xor (local.get $a) (local.get $b)))))))))
  (local.set $r (call $set_new))
  (call $set_add_all (i32.wrap_i64 (local.get $r)) (local.get $a))
  (if (i32.eq (local.get $op) (i32.const 3))
    (then
      (call $set_add_all (i32.wrap_i64 (local.get $r)) (local.get $b))
      (return (local.get $r))))
  ;; A keys view's dict serves as the table of its keys.
  ;; (Two tests, not one `i32.and`: wasm evaluates both operands, and reading the header of
  ;; a value that is not an object (a small int such as -1) is out of bounds.)
  (local.set $o (i32.const 0))
  (if (i32.eq (call $tid (local.get $b)) (i32.const TYPE_DICT_VIEW))
    (then
      (if (i32.eqz (i32.load offset=4 (i32.wrap_i64 (local.get $b))))
        (then (local.set $o (i32.load offset=8 (i32.wrap_i64 (local.get $b))))))))
  (if (i32.eqz (local.get $o)) (then (local.set $o (call $set_of (local.get $b)))))
  (if (i32.eq (local.get $op) (i32.const 2))
    (then (return (call $set_inter (i32.wrap_i64 (local.get $r)) (local.get $o)))))
  (if (i32.eq (local.get $op) (i32.const 4))
    (then (return (call $set_symdiff (i32.wrap_i64 (local.get $r)) (local.get $o)))))
  (call $set_diff (i32.wrap_i64 (local.get $r)) (local.get $o)))

;; repr: dict_keys([...]); a view met again inside its own repr prints as `...`.
(func $dict_view_repr (param $v i64) (result i64)
  (local $p i32) (local $i i32) (local $sb i32) (local $x i64)
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.eqz (global.get $dict_repr_stack))
    (then (global.set $dict_repr_stack
      (call $alloc (i32.shl (i32.add (global.get $max_depth) (i32.const 16)) (i32.const 2))))))
  (block $fresh
    (loop $each
      (br_if $fresh (i32.ge_u (local.get $i) (global.get $dict_repr_depth)))
      (if (i32.eq (i32.load (i32.add (global.get $dict_repr_stack) (i32.shl (local.get $i) (i32.const 2))))
            (local.get $p))
        (then (return (i64.extend_i32_u (global.get $s_dict_view_recursive_repr)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $native_enter)
  (if (i32.ge_u (global.get $dict_repr_depth) (i32.add (global.get $max_depth) (i32.const 16)))
    (then (call $raise_static (global.get $t_RecursionError) (global.get $s_recursion))))
  (i32.store (i32.add (global.get $dict_repr_stack) (i32.shl (global.get $dict_repr_depth) (i32.const 2)))
    (local.get $p))
  (global.set $dict_repr_depth (i32.add (global.get $dict_repr_depth) (i32.const 1)))
  (local.set $x
    (block $failed (result i64)
      (try_table (catch $exc $failed)
        (local.set $sb (call $sb_new))
        (call $sb_push_str (local.get $sb) (call $type_name (local.get $v)))
        (call $sb_push_byte (local.get $sb) (i32.const 40))
        (call $sb_push_str (local.get $sb)
          (call $to_repr (call $dict_list (i64.load offset=8 (local.get $p)) (i32.load offset=4 (local.get $p)))))
        (call $sb_push_byte (local.get $sb) (i32.const 41))
        (global.set $dict_repr_depth (i32.sub (global.get $dict_repr_depth) (i32.const 1)))
        (call $native_leave)
        (return (call $sb_finish (local.get $sb))))
      (unreachable)))
  (global.set $dict_repr_depth (i32.sub (global.get $dict_repr_depth) (i32.const 1)))
  (throw $exc (local.get $x)))

;; ---- builtins -------------------------------------------------------------------------------------------

;; dict(), dict(mapping or iterable of pairs), with keyword arguments added.
(func $b_dict (param $args i32) (param $kwargs i32) (result i64)
  (local $d i64) (local $n i32)
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.gt_u (local.get $n) (i32.const 1))
    (then (call $dict_arg_error (global.get $s_dict_at_most_1)
      (i64.extend_i32_u (global.get $s_dict_n_dict)) (local.get $n))))
  (local.set $d (call $dict_new))
  (if (local.get $n)
    (then (call $dict_update_from (i32.wrap_i64 (local.get $d)) (call $dict_arg (local.get $args) (i32.const 0)))))
  (call $dict_update_kwargs (i32.wrap_i64 (local.get $d)) (local.get $kwargs))
  (local.get $d))

;; frozenset(), frozenset(iterable): a frozenset given is the result itself, as in CPython.
(func $b_frozenset (param $args i32) (param $kwargs i32) (result i64)
  (local $s i64) (local $n i32)
  (if (local.get $kwargs)
    (then (if (i32.load offset=4 (local.get $kwargs))
      (then (call $raise_static (global.get $t_TypeError) (global.get $s_frozenset_builtin_no_kwargs))))))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.gt_u (local.get $n) (i32.const 1))
    (then (call $dict_arg_error (global.get $s_dict_at_most_1)
      (i64.extend_i32_u (global.get $s_dict_n_frozenset)) (local.get $n))))
  (if (local.get $n)
    (then
      (if (call $set_is_frozen (call $dict_arg (local.get $args) (i32.const 0)))
        (then (return (call $dict_arg (local.get $args) (i32.const 0)))))))
  (local.set $s (call $set_new))
  (if (local.get $n)
    (then (call $set_add_all (i32.wrap_i64 (local.get $s)) (call $dict_arg (local.get $args) (i32.const 0)))))
  (i32.store offset=36 (i32.wrap_i64 (local.get $s)) (i32.const 1))
  (local.get $s))

;; set(), set(iterable).
(func $b_set (param $args i32) (param $kwargs i32) (result i64)
  (local $s i64) (local $n i32)
  (if (local.get $kwargs)
    (then (if (i32.load offset=4 (local.get $kwargs))
      (then (call $raise_static (global.get $t_TypeError) (global.get $s_set_builtin_no_kwargs))))))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.gt_u (local.get $n) (i32.const 1))
    (then (call $dict_arg_error (global.get $s_dict_at_most_1)
      (i64.extend_i32_u (global.get $s_dict_n_set)) (local.get $n))))
  (local.set $s (call $set_new))
  (if (local.get $n)
    (then (call $set_add_all (i32.wrap_i64 (local.get $s)) (call $dict_arg (local.get $args) (i32.const 0)))))
  (local.get $s))
