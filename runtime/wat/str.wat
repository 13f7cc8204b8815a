;; str.wat: str objects. Layout (docs/abi.md): +4 UTF-8 byte length, +8 code point count,
;; +12 cached hash (0 = not computed), +16 bytes. A str is ASCII when count == byte length:
;; then indexing and slicing are O(1).

;; ---- primitives ----------------------------------------------------------------------------

;; One-char ASCII strings, built on first use: 128 objects of 24 bytes in a static region
;; (`$str_ascii`, runtime/src/lib.rs), so the collector never frees them.
(global $str_ascii_ready (mut i32) (i32.const 0))

(func $str_ascii_char (param $c i32) (result i64)
  (local $i i32) (local $o i32)
  (if (i32.eqz (global.get $str_ascii_ready))
    (then
      (loop $fill
        (local.set $o (i32.add (global.get $str_ascii) (i32.mul (local.get $i) (i32.const 24))))
        (i32.store (local.get $o) (i32.const TYPE_STR))
        (i32.store offset=4 (local.get $o) (i32.const 1))
        (i32.store offset=8 (local.get $o) (i32.const 1))
        (i32.store8 offset=16 (local.get $o) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $fill (i32.lt_u (local.get $i) (i32.const 128))))
      (global.set $str_ascii_ready (i32.const 1))))
  (i64.extend_i32_u (i32.add (global.get $str_ascii) (i32.mul (local.get $c) (i32.const 24)))))

;; The code point encoded at address p.
(func $str_cp_at (param $p i32) (result i32)
  (local $b i32)
  (local.set $b (i32.load8_u (local.get $p)))
  (if (i32.lt_u (local.get $b) (i32.const 0x80)) (then (return (local.get $b))))
  (if (i32.lt_u (local.get $b) (i32.const 0xE0))
    (then (return (i32.or (i32.shl (i32.and (local.get $b) (i32.const 0x1F)) (i32.const 6))
                          (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F))))))
  (if (i32.lt_u (local.get $b) (i32.const 0xF0))
    (then (return (i32.or (i32.or (i32.shl (i32.and (local.get $b) (i32.const 0x0F)) (i32.const 12))
                            (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F)) (i32.const 6)))
                          (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3F))))))
  (i32.or (i32.or (i32.shl (i32.and (local.get $b) (i32.const 0x07)) (i32.const 18))
                  (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F)) (i32.const 12)))
          (i32.or (i32.shl (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3F)) (i32.const 6))
                  (i32.and (i32.load8_u offset=3 (local.get $p)) (i32.const 0x3F)))))

;; The length of the UTF-8 sequence that starts with byte b.
(func $str_seq_len (param $b i32) (result i32)
  (if (result i32) (i32.lt_u (local.get $b) (i32.const 0x80)) (then (i32.const 1))
    (else (if (result i32) (i32.lt_u (local.get $b) (i32.const 0xE0)) (then (i32.const 2))
      (else (if (result i32) (i32.lt_u (local.get $b) (i32.const 0xF0)) (then (i32.const 3))
        (else (i32.const 4))))))))

;; The number of bytes that encode code point cp.
(func $str_cp_size (param $cp i32) (result i32)
  (if (result i32) (i32.lt_u (local.get $cp) (i32.const 0x80)) (then (i32.const 1))
    (else (if (result i32) (i32.lt_u (local.get $cp) (i32.const 0x800)) (then (i32.const 2))
      (else (if (result i32) (i32.lt_u (local.get $cp) (i32.const 0x10000)) (then (i32.const 3))
        (else (i32.const 4))))))))

;; Writes code point cp at dst; returns the number of bytes written.
(func $str_put_cp (param $dst i32) (param $cp i32) (result i32)
  (if (i32.lt_u (local.get $cp) (i32.const 0x80))
    (then (i32.store8 (local.get $dst) (local.get $cp)) (return (i32.const 1))))
  (if (i32.lt_u (local.get $cp) (i32.const 0x800))
    (then
      (i32.store8 (local.get $dst) (i32.or (i32.const 0xC0) (i32.shr_u (local.get $cp) (i32.const 6))))
      (i32.store8 offset=1 (local.get $dst) (i32.or (i32.const 0x80) (i32.and (local.get $cp) (i32.const 0x3F))))
      (return (i32.const 2))))
  (if (i32.lt_u (local.get $cp) (i32.const 0x10000))
    (then
      (i32.store8 (local.get $dst) (i32.or (i32.const 0xE0) (i32.shr_u (local.get $cp) (i32.const 12))))
      (i32.store8 offset=1 (local.get $dst) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $cp) (i32.const 6)) (i32.const 0x3F))))
      (i32.store8 offset=2 (local.get $dst) (i32.or (i32.const 0x80) (i32.and (local.get $cp) (i32.const 0x3F))))
      (return (i32.const 3))))
  (i32.store8 (local.get $dst) (i32.or (i32.const 0xF0) (i32.shr_u (local.get $cp) (i32.const 18))))
  (i32.store8 offset=1 (local.get $dst) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $cp) (i32.const 12)) (i32.const 0x3F))))
  (i32.store8 offset=2 (local.get $dst) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $cp) (i32.const 6)) (i32.const 0x3F))))
  (i32.store8 offset=3 (local.get $dst) (i32.or (i32.const 0x80) (i32.and (local.get $cp) (i32.const 0x3F))))
  (i32.const 4))

;; Appends one code point to a string builder.
(func $str_sb_cp (param $sb i32) (param $cp i32)
  (local $n i32)
  (if (i32.lt_u (local.get $cp) (i32.const 0x80))
    (then (call $sb_push_byte (local.get $sb) (local.get $cp)) (return)))
  (call $sb_reserve (local.get $sb) (i32.const 4))
  (local.set $n (call $str_put_cp (i32.add (i32.load (local.get $sb)) (i32.load offset=4 (local.get $sb))) (local.get $cp)))
  (i32.store offset=4 (local.get $sb) (i32.add (i32.load offset=4 (local.get $sb)) (local.get $n)))
  (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (i32.const 1))))

;; A one-code-point str.
(func $str_from_cp (param $cp i32) (result i64)
  (local $s i32)
  (if (i32.lt_u (local.get $cp) (i32.const 0x80)) (then (return (call $str_ascii_char (local.get $cp)))))
  (local.set $s (call $str_alloc (call $str_cp_size (local.get $cp)) (i32.const 1)))
  (drop (call $str_put_cp (i32.add (local.get $s) (i32.const 16)) (local.get $cp)))
  (i64.extend_i32_u (local.get $s)))

;; A new str from `len` bytes at `src` that are `n` code points.
(func $str_new_counted (param $src i32) (param $len i32) (param $n i32) (result i64)
  (local $s i32)
  (if (i32.eqz (local.get $len)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
  (if (i32.and (i32.eq (local.get $len) (i32.const 1)) (i32.lt_u (i32.load8_u (local.get $src)) (i32.const 0x80)))
    (then (return (call $str_ascii_char (i32.load8_u (local.get $src))))))
  (local.set $s (call $str_alloc_filled (i64.extend_i32_u (local.get $len)) (local.get $n)))
  (call $memcpy (i32.add (local.get $s) (i32.const 16)) (local.get $src) (local.get $len))
  (i64.extend_i32_u (local.get $s)))

(func $str_new (param $src i32) (param $len i32) (result i64)
  (call $str_new_counted (local.get $src) (local.get $len) (call $utf8_count (local.get $src) (local.get $len))))

;; The part of str p between byte offsets b0 and b1 (relative to its data) that is n code
;; points (-1: count them); p itself when that is all of it.
(func $str_sub (param $p i32) (param $b0 i32) (param $b1 i32) (param $n i32) (result i64)
  (if (i32.and (i32.eqz (local.get $b0)) (i32.eq (local.get $b1) (i32.load offset=4 (local.get $p))))
    (then (return (i64.extend_i32_u (local.get $p)))))
  (if (i32.lt_s (local.get $n) (i32.const 0))
    (then
      (local.set $n
        (if (result i32) (call $str_is_ascii (local.get $p))
          (then (i32.sub (local.get $b1) (local.get $b0)))
          (else (call $utf8_count (i32.add (i32.add (local.get $p) (i32.const 16)) (local.get $b0))
                  (i32.sub (local.get $b1) (local.get $b0))))))))
  (call $str_new_counted (i32.add (i32.add (local.get $p) (i32.const 16)) (local.get $b0))
    (i32.sub (local.get $b1) (local.get $b0)) (local.get $n)))

(func $str_is_ascii (param $p i32) (result i32)
  (i32.eq (i32.load offset=4 (local.get $p)) (i32.load offset=8 (local.get $p))))

;; The byte offset (relative to the data) of code point i (0 <= i <= count) of str p.
(func $str_offset (param $p i32) (param $i i32) (result i32)
  (local $d i32) (local $o i32)
  (if (call $str_is_ascii (local.get $p)) (then (return (local.get $i))))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (call $str_skip (local.get $d) (i32.const 0) (local.get $i)))

;; Advances byte offset o over k code points of the UTF-8 data at d.
(func $str_skip (param $d i32) (param $o i32) (param $k i32) (result i32)
  (block $done
    (loop $each
      (br_if $done (i32.le_s (local.get $k) (i32.const 0)))
      (local.set $o (i32.add (local.get $o)
        (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $o))))))
      (local.set $k (i32.sub (local.get $k) (i32.const 1)))
      (br $each)))
  (local.get $o))

;; Moves byte offset o back over k code points of the UTF-8 data at d.
(func $str_back (param $d i32) (param $o i32) (param $k i32) (result i32)
  (block $done
    (loop $each
      (br_if $done (i32.le_s (local.get $k) (i32.const 0)))
      (loop $cont
        (local.set $o (i32.sub (local.get $o) (i32.const 1)))
        (br_if $cont (i32.eq (i32.and (i32.load8_u (i32.add (local.get $d) (local.get $o))) (i32.const 0xC0))
          (i32.const 0x80))))
      (local.set $k (i32.sub (local.get $k) (i32.const 1)))
      (br $each)))
  (local.get $o))

;; The first n code points of s (s itself when it is no longer): CPython's `%.200R`.
(func $str_truncate (param $s i64) (param $n i32) (result i64)
  (local $p i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (if (i32.le_u (i32.load offset=8 (local.get $p)) (local.get $n)) (then (return (local.get $s))))
  (call $str_sub (local.get $p) (i32.const 0) (call $str_offset (local.get $p) (local.get $n)) (local.get $n)))

;; The code point index of byte offset o of str p.
(func $str_index_of (param $p i32) (param $o i32) (result i32)
  (if (call $str_is_ascii (local.get $p)) (then (return (local.get $o))))
  (call $utf8_count (i32.add (local.get $p) (i32.const 16)) (local.get $o)))

;; Raises TypeError unless v is a str; `what` is a template with one `{}` for the type name.
;; TypeError(template % type) unless v is a str, worded as CPython's argument clinic words it
;; ("argument 1 must be str, not None"): None is named by its repr there, not as NoneType.
(func $str_check_clinic (param $v i64) (param $template i32)
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_STR))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (local.get $template)
      (call $clinic_type_name (local.get $v)))))))

(func $str_check (param $v i64) (param $template i32)
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_STR))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (local.get $template) (call $type_name (local.get $v)))))))

;; Whether v is an int (small, boxed) or a bool.
(func $str_is_int (param $v i64) (result i32)
  (local $t i32)
  (if (call $is_small (local.get $v)) (then (return (i32.const 1))))
  (local.set $t (i32.load (i32.wrap_i64 (local.get $v))))
  (i32.or (i32.eq (local.get $t) (i32.const 3)) (i32.eq (local.get $t) (i32.const 2))))

;; The value of an int or bool (see $str_is_int).
(func $str_int_value (param $v i64) (result i64)
  (local $p i32)
  (if (call $is_small (local.get $v)) (then (return (i64.shr_s (local.get $v) (i64.const 1)))))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.eq (i32.load (local.get $p)) (i32.const TYPE_BOOL))
    (then (return (i64.extend_i32_u (i32.load offset=4 (local.get $p))))))
  (i64.load offset=8 (local.get $p)))

;; An argument that must be an integer: `'T' object cannot be interpreted as an integer`.
(func $str_as_index (param $v i64) (result i64)
  (if (i32.eqz (call $str_is_int (local.get $v)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_str_not_integer) (call $type_name (local.get $v))))))
  (call $str_int_value (local.get $v)))

(func $str_small (param $n i32) (result i64)
  (i64.or (i64.shl (i64.extend_i32_s (local.get $n)) (i64.const 1)) (i64.const 1)))

;; ---- comparison and hashing -------------------------------------------------------------------

(func $str_memeq (param $a i32) (param $b i32) (param $n i32) (result i32)
  (block $words
    (loop $each
      (br_if $words (i32.lt_u (local.get $n) (i32.const 8)))
      (if (i64.ne (i64.load (local.get $a)) (i64.load (local.get $b))) (then (return (i32.const 0))))
      (local.set $a (i32.add (local.get $a) (i32.const 8)))
      (local.set $b (i32.add (local.get $b) (i32.const 8)))
      (local.set $n (i32.sub (local.get $n) (i32.const 8)))
      (br $each)))
  (block $done
    (loop $each
      (br_if $done (i32.eqz (local.get $n)))
      (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))) (then (return (i32.const 0))))
      (local.set $a (i32.add (local.get $a) (i32.const 1)))
      (local.set $b (i32.add (local.get $b) (i32.const 1)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $each)))
  (i32.const 1))

(func $str_eq (param $a i64) (param $b i64) (result i32)
  (local $p i32) (local $q i32) (local $h1 i32) (local $h2 i32)
  (if (i64.eq (local.get $a) (local.get $b)) (then (return (i32.const 1))))
  (local.set $p (i32.wrap_i64 (local.get $a)))
  (local.set $q (i32.wrap_i64 (local.get $b)))
  (if (i32.ne (i32.load offset=4 (local.get $p)) (i32.load offset=4 (local.get $q))) (then (return (i32.const 0))))
  (local.set $h1 (i32.load offset=12 (local.get $p)))
  (local.set $h2 (i32.load offset=12 (local.get $q)))
  (if (i32.and (i32.and (i32.ne (local.get $h1) (i32.const 0)) (i32.ne (local.get $h2) (i32.const 0)))
        (i32.ne (local.get $h1) (local.get $h2)))
    (then (return (i32.const 0))))
  (call $str_memeq (i32.add (local.get $p) (i32.const 16)) (i32.add (local.get $q) (i32.const 16))
    (i32.load offset=4 (local.get $p))))

;; Code point order, which is UTF-8 byte order.
(func $str_cmp (param $a i64) (param $b i64) (result i32)
  (local $p i32) (local $q i32) (local $n i32) (local $la i32) (local $lb i32) (local $x i32) (local $y i32)
  (if (i64.eq (local.get $a) (local.get $b)) (then (return (i32.const 0))))
  (local.set $la (i32.load offset=4 (i32.wrap_i64 (local.get $a))))
  (local.set $lb (i32.load offset=4 (i32.wrap_i64 (local.get $b))))
  (local.set $p (i32.add (i32.wrap_i64 (local.get $a)) (i32.const 16)))
  (local.set $q (i32.add (i32.wrap_i64 (local.get $b)) (i32.const 16)))
  (local.set $n (select (local.get $la) (local.get $lb) (i32.lt_u (local.get $la) (local.get $lb))))
  (block $words
    (loop $each
      (br_if $words (i32.lt_u (local.get $n) (i32.const 8)))
      (br_if $words (i64.ne (i64.load (local.get $p)) (i64.load (local.get $q))))
      (local.set $p (i32.add (local.get $p) (i32.const 8)))
      (local.set $q (i32.add (local.get $q) (i32.const 8)))
      (local.set $n (i32.sub (local.get $n) (i32.const 8)))
      (br $each)))
  (block $done
    (loop $each
      (br_if $done (i32.eqz (local.get $n)))
      (local.set $x (i32.load8_u (local.get $p)))
      (local.set $y (i32.load8_u (local.get $q)))
      (if (i32.ne (local.get $x) (local.get $y))
        (then (return (select (i32.const -1) (i32.const 1) (i32.lt_u (local.get $x) (local.get $y))))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $each)))
  (if (i32.lt_u (local.get $la) (local.get $lb)) (then (return (i32.const -1))))
  (i32.ne (local.get $la) (local.get $lb)))

;; A 64-bit multiply-xorshift hash of the bytes, folded to the 32 bits the object caches
;; (never 0, and as an unsigned value never -1).
(func $str_hash (param $s i64) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $h i64) (local $w i64) (local $i i32) (local $h32 i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $h32 (i32.load offset=12 (local.get $p)))
  ;; 0: not computed; 1: an appendable str's mark ($str_append), never a hash.
  (if (i32.gt_u (local.get $h32) (i32.const 1)) (then (return (i64.extend_i32_u (local.get $h32)))))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $h (i64.xor (i64.const 0x243F6A8885A308D3) (i64.extend_i32_u (local.get $n))))
  (block $words
    (loop $each
      (br_if $words (i32.lt_u (local.get $n) (i32.const 8)))
      (local.set $h (i64.mul (i64.xor (local.get $h) (i64.load (local.get $d))) (i64.const 0x9E3779B97F4A7C15)))
      (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 29))))
      (local.set $d (i32.add (local.get $d) (i32.const 8)))
      (local.set $n (i32.sub (local.get $n) (i32.const 8)))
      (br $each)))
  (if (local.get $n)
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $w (i64.or (local.get $w)
            (i64.shl (i64.load8_u (i32.add (local.get $d) (local.get $i))) (i64.extend_i32_u (i32.shl (local.get $i) (i32.const 3))))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (local.set $h (i64.mul (i64.xor (local.get $h) (local.get $w)) (i64.const 0x9E3779B97F4A7C15)))))
  (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33))))
  (local.set $h (i64.mul (local.get $h) (i64.const 0xff51afd7ed558ccd)))
  (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33))))
  (local.set $h (i64.mul (local.get $h) (i64.const 0xc4ceb9fe1a85ec53)))
  (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33))))
  (local.set $h32 (i32.wrap_i64 (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32)))))
  (if (i32.le_u (local.get $h32) (i32.const 1)) (then (local.set $h32 (i32.const 0x2545F491))))
  (i32.store offset=12 (local.get $p) (local.get $h32))
  (i64.extend_i32_u (local.get $h32)))

;; ---- concatenation and repetition ------------------------------------------------------------

;; `name += value` and `name = name + value` where `name` is a plan variable the compiler
;; tracks (compiler/src/codegen/append.rs): appending to a str in a loop is amortised linear,
;; as CPython makes it by resizing a str it holds the only reference to. The result of a str
;; append is made with room to grow and marked appendable (hash field 1); the compiler passes
;; every other read of such a variable through `$str_share`, which clears the mark, so a marked
;; str is referred to by its variable alone, and the next append may write into its room and
;; return the same object. Anything but str + str is the generic `+=` (`aug` 1) or `+`.
(func $str_append (param $a i64) (param $b i64) (param $aug i32) (result i64)
  (local $p i32) (local $q i32) (local $la i32) (local $lb i32) (local $total i64) (local $cap i64)
  (local $r i32)
  (if (i32.eqz (i32.and (i32.eq (call $tid (local.get $a)) (i32.const TYPE_STR))
        (i32.eq (call $tid (local.get $b)) (i32.const TYPE_STR))))
    (then
      (if (local.get $aug) (then (return (call $aug_iadd (local.get $a) (local.get $b)))))
      (return (call $add (local.get $a) (local.get $b)))))
  (local.set $p (i32.wrap_i64 (local.get $a)))
  (local.set $q (i32.wrap_i64 (local.get $b)))
  (local.set $la (i32.load offset=4 (local.get $p)))
  (local.set $lb (i32.load offset=4 (local.get $q)))
  (local.set $total (i64.add (i64.extend_i32_u (local.get $la)) (i64.extend_i32_u (local.get $lb))))
  (if (i32.and (i32.eq (i32.load offset=12 (local.get $p)) (i32.const 1))
        (i64.le_u (i64.add (local.get $total) (i64.const 16)) (i64.extend_i32_u (call $block_size (local.get $p)))))
    (then
      (call $memcpy (i32.add (i32.add (local.get $p) (i32.const 16)) (local.get $la))
        (i32.add (local.get $q) (i32.const 16)) (local.get $lb))
      (i32.store offset=4 (local.get $p) (i32.wrap_i64 (local.get $total)))
      (i32.store offset=8 (local.get $p)
        (i32.add (i32.load offset=8 (local.get $p)) (i32.load offset=8 (local.get $q))))
      (return (local.get $a))))
  ;; A new str with room for as much again (at least 64 bytes).
  (local.set $cap (i64.shl (local.get $total) (i64.const 1)))
  (if (i64.lt_u (local.get $cap) (i64.const 64)) (then (local.set $cap (i64.const 64))))
  (if (i64.gt_u (local.get $cap) (i64.const 0x7FFF_0000)) (then (local.set $cap (local.get $total))))
  (local.set $r (call $str_alloc64 (local.get $cap) (i32.const 0)))
  (i32.store offset=4 (local.get $r) (i32.wrap_i64 (local.get $total)))
  (i32.store offset=8 (local.get $r)
    (i32.add (i32.load offset=8 (local.get $p)) (i32.load offset=8 (local.get $q))))
  (i32.store offset=12 (local.get $r) (i32.const 1))
  (call $memcpy (i32.add (local.get $r) (i32.const 16)) (i32.add (local.get $p) (i32.const 16)) (local.get $la))
  (call $memcpy (i32.add (i32.add (local.get $r) (i32.const 16)) (local.get $la))
    (i32.add (local.get $q) (i32.const 16)) (local.get $lb))
  (i64.extend_i32_u (local.get $r)))

;; The forms the compiler calls as the generic fallback of its small-int fast path.
(func $str_append_aug (param $a i64) (param $b i64) (result i64)
  (call $str_append (local.get $a) (local.get $b) (i32.const 1)))
(func $str_append_add (param $a i64) (param $b i64) (result i64)
  (call $str_append (local.get $a) (local.get $b) (i32.const 0)))

;; A read of a variable `$str_append` writes to: the str it holds is no longer only its own.
(func $str_share (param $v i64) (result i64)
  (local $p i32)
  (if (i32.or (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1))) (i64.eqz (local.get $v)))
    (then (return (local.get $v))))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.eq (i32.load (local.get $p)) (i32.const TYPE_STR))
    (then
      (if (i32.eq (i32.load offset=12 (local.get $p)) (i32.const 1))
        (then (i32.store offset=12 (local.get $p) (i32.const 0))))))
  (local.get $v))

(func $str_concat (param $a i64) (param $b i64) (result i64)
  (local $p i32) (local $q i32) (local $s i32) (local $la i32)
  (local.set $p (i32.wrap_i64 (local.get $a)))
  (local.set $q (i32.wrap_i64 (local.get $b)))
  (if (i32.eqz (i32.load offset=4 (local.get $q))) (then (return (local.get $a))))
  (if (i32.eqz (i32.load offset=4 (local.get $p))) (then (return (local.get $b))))
  (local.set $la (i32.load offset=4 (local.get $p)))
  (local.set $s (call $str_alloc_filled
    (i64.add (i64.extend_i32_u (local.get $la)) (i64.extend_i32_u (i32.load offset=4 (local.get $q))))
    (i32.add (i32.load offset=8 (local.get $p)) (i32.load offset=8 (local.get $q)))))
  (call $memcpy (i32.add (local.get $s) (i32.const 16)) (i32.add (local.get $p) (i32.const 16)) (local.get $la))
  (call $memcpy (i32.add (i32.add (local.get $s) (i32.const 16)) (local.get $la)) (i32.add (local.get $q) (i32.const 16))
    (i32.load offset=4 (local.get $q)))
  (i64.extend_i32_u (local.get $s)))

;; As $str_alloc64, for a caller that writes all `nbytes` bytes at once: they are not zeroed
;; first ($alloc_dirty64).
(func $str_alloc_filled (param $nbytes i64) (param $nchars i32) (result i32)
  (local $s i32)
  (local.set $s (call $alloc_dirty64 (i64.add (local.get $nbytes) (i64.const 16))))
  (i32.store (local.get $s) (i32.const TYPE_STR))
  (i32.store offset=4 (local.get $s) (i32.wrap_i64 (local.get $nbytes)))
  (i32.store offset=8 (local.get $s) (local.get $nchars))
  (local.get $s))

;; $str_alloc for a byte length computed in 64 bits: too large raises MemoryError.
(func $str_alloc64 (param $nbytes i64) (param $nchars i32) (result i32)
  (local $s i32)
  (local.set $s (call $alloc64 (i64.add (local.get $nbytes) (i64.const 16))))
  (i32.store (local.get $s) (i32.const TYPE_STR))
  (i32.store offset=4 (local.get $s) (i32.wrap_i64 (local.get $nbytes)))
  (i32.store offset=8 (local.get $s) (local.get $nchars))
  (local.get $s))

;; `s * n`: the text once, then doubled in place (each copy is the text so far, or what is
;; left), as CPython does: a 10 KB str from 5 bytes is 11 copies. Copies up to 64 bytes go word
;; by word ($memcpy); longer ones through memory.copy, whose call costs less than the loop then.
(func $str_repeat (param $s i64) (param $n i64) (result i64)
  (local $p i32) (local $len i64) (local $total i64) (local $r i32) (local $d i32) (local $filled i32) (local $t i32)
  (local $k i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $len (i64.extend_i32_u (i32.load offset=4 (local.get $p))))
  (if (i32.or (i64.le_s (local.get $n) (i64.const 0)) (i64.eqz (local.get $len)))
    (then (return (i64.extend_i32_u (global.get $s_empty)))))
  (if (i64.eq (local.get $n) (i64.const 1)) (then (return (local.get $s))))
  ;; (both factors under 2^32, so the product cannot wrap: no division needed)
  (if (i64.gt_u (local.get $n) (i64.const 0xFFFFFFFF)) (then (call $raise_memory)))
  (local.set $total (i64.mul (local.get $len) (local.get $n)))
  (if (i64.gt_u (local.get $total) (i64.const 0xFFFFFFFF)) (then (call $raise_memory)))
  (local.set $r (call $str_alloc_filled (local.get $total)
    (i32.wrap_i64 (i64.mul (i64.extend_i32_u (i32.load offset=8 (local.get $p))) (local.get $n)))))
  (local.set $d (i32.add (local.get $r) (i32.const 16)))
  (local.set $t (i32.wrap_i64 (local.get $total)))
  (call $memcpy (local.get $d) (i32.add (local.get $p) (i32.const 16)) (i32.wrap_i64 (local.get $len)))
  (local.set $filled (i32.wrap_i64 (local.get $len)))
  (block $done
    (loop $double
      (br_if $done (i32.ge_u (local.get $filled) (local.get $t)))
      (local.set $k (select (local.get $filled) (i32.sub (local.get $t) (local.get $filled))
        (i32.le_u (local.get $filled) (i32.sub (local.get $t) (local.get $filled)))))
      (if (i32.le_u (local.get $k) (i32.const 64))
        (then (call $memcpy (i32.add (local.get $d) (local.get $filled)) (local.get $d) (local.get $k)))
        (else (memory.copy (i32.add (local.get $d) (local.get $filled)) (local.get $d) (local.get $k))))
      (local.set $filled (i32.add (local.get $filled) (local.get $k)))
      (br $double)))
  (i64.extend_i32_u (local.get $r)))

(func $str_len (param $s i64) (result i64)
  (i64.extend_i32_u (i32.load offset=8 (i32.wrap_i64 (local.get $s)))))

;; ---- repr ------------------------------------------------------------------------------------

;; Whether a non-ASCII code point is printable (repr leaves it as it is), as CPython 3.11's
;; str.isprintable (Unicode 14): U+00A0 and below never, then a binary search of the
;; non-printable ranges in $s_printable_not (str.strings); from U+3134B on only the variation
;; selectors U+E0100..U+E01EF are printable.
(func $str_printable (param $c i32) (result i32)
  (local $r i32)
  (if (i32.le_u (local.get $c) (i32.const 0xA0)) (then (return (i32.const 0))))
  (if (i32.ge_u (local.get $c) (i32.const 0x3134B))
    (then (return (i32.le_u (i32.sub (local.get $c) (i32.const 0xE0100)) (i32.const 0xEF)))))
  (local.set $r (call $str_range_record (global.get $s_printable_not) (i32.const 8) (local.get $c)))
  (if (i32.eqz (local.get $r)) (then (return (i32.const 1))))
  (i32.gt_u (local.get $c) (i32.sub (call $str_cp_at (i32.add (local.get $r) (i32.const 4))) (i32.const 0x10000))))

;; Appends `digits` lowercase hex digits of v.
(func $str_sb_hex (param $sb i32) (param $v i32) (param $digits i32)
  (local $d i32)
  (loop $each
    (local.set $digits (i32.sub (local.get $digits) (i32.const 1)))
    (local.set $d (i32.and (i32.shr_u (local.get $v) (i32.shl (local.get $digits) (i32.const 2))) (i32.const 15)))
    (call $sb_push_byte (local.get $sb)
      (i32.add (local.get $d) (select (i32.const 48) (i32.const 87) (i32.lt_u (local.get $d) (i32.const 10)))))
    (br_if $each (local.get $digits))))

;; Appends the escape of a code point that repr does not show as it is.
(func $str_sb_escape (param $sb i32) (param $c i32)
  (call $sb_push_byte (local.get $sb) (i32.const 92))
  (if (i32.eq (local.get $c) (i32.const 10)) (then (call $sb_push_byte (local.get $sb) (i32.const 110)) (return)))
  (if (i32.eq (local.get $c) (i32.const 13)) (then (call $sb_push_byte (local.get $sb) (i32.const 114)) (return)))
  (if (i32.eq (local.get $c) (i32.const 9)) (then (call $sb_push_byte (local.get $sb) (i32.const 116)) (return)))
  (if (i32.lt_u (local.get $c) (i32.const 0x100))
    (then (call $sb_push_byte (local.get $sb) (i32.const 120)) (call $str_sb_hex (local.get $sb) (local.get $c) (i32.const 2)) (return)))
  (if (i32.lt_u (local.get $c) (i32.const 0x10000))
    (then (call $sb_push_byte (local.get $sb) (i32.const 117)) (call $str_sb_hex (local.get $sb) (local.get $c) (i32.const 4)) (return)))
  (call $sb_push_byte (local.get $sb) (i32.const 85))
  (call $str_sb_hex (local.get $sb) (local.get $c) (i32.const 8)))

;; CPython's repr: single quotes unless the text has ' and no ".
(func $str_repr (param $s i64) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $i i32) (local $b i32) (local $sq i32) (local $dq i32)
  (local $esc i32) (local $q i32) (local $r i32) (local $sb i32) (local $c i32) (local $k i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $b (i32.load8_u (i32.add (local.get $d) (local.get $i))))
      (if (i32.eq (local.get $b) (i32.const 39)) (then (local.set $sq (i32.const 1))))
      (if (i32.eq (local.get $b) (i32.const 34)) (then (local.set $dq (i32.const 1))))
      (if (i32.or (i32.or (i32.lt_u (local.get $b) (i32.const 32)) (i32.eq (local.get $b) (i32.const 127)))
            (i32.eq (local.get $b) (i32.const 92)))
        (then (local.set $esc (i32.const 1))))
      (if (i32.ge_u (local.get $b) (i32.const 0xC0))
        (then
          (if (i32.eqz (call $str_printable (call $str_cp_at (i32.add (local.get $d) (local.get $i)))))
            (then (local.set $esc (i32.const 1))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (local.set $q (select (i32.const 34) (i32.const 39) (i32.and (local.get $sq) (i32.eqz (local.get $dq)))))
  (if (i32.eqz (i32.or (local.get $esc) (i32.and (local.get $sq) (local.get $dq))))
    (then
      (local.set $r (call $str_alloc (i32.add (local.get $n) (i32.const 2))
        (i32.add (i32.load offset=8 (local.get $p)) (i32.const 2))))
      (i32.store8 offset=16 (local.get $r) (local.get $q))
      (call $memcpy (i32.add (local.get $r) (i32.const 17)) (local.get $d) (local.get $n))
      (i32.store8 offset=17 (i32.add (local.get $r) (local.get $n)) (local.get $q))
      (return (i64.extend_i32_u (local.get $r)))))
  (local.set $sb (call $sb_new))
  (call $sb_push_byte (local.get $sb) (local.get $q))
  (local.set $i (i32.const 0))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $b (i32.load8_u (i32.add (local.get $d) (local.get $i))))
      (if (i32.lt_u (local.get $b) (i32.const 0x80))
        (then
          (if (i32.or (i32.eq (local.get $b) (local.get $q)) (i32.eq (local.get $b) (i32.const 92)))
            (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (local.get $b)))
            (else
              (if (i32.or (i32.lt_u (local.get $b) (i32.const 32)) (i32.eq (local.get $b) (i32.const 127)))
                (then (call $str_sb_escape (local.get $sb) (local.get $b)))
                (else (call $sb_push_byte (local.get $sb) (local.get $b))))))
          (local.set $i (i32.add (local.get $i) (i32.const 1))))
        (else
          (local.set $k (call $str_seq_len (local.get $b)))
          (local.set $c (call $str_cp_at (i32.add (local.get $d) (local.get $i))))
          (if (call $str_printable (local.get $c))
            (then (call $sb_push_counted (local.get $sb) (i32.add (local.get $d) (local.get $i)) (local.get $k) (i32.const 1)))
            (else (call $str_sb_escape (local.get $sb) (local.get $c))))
          (local.set $i (i32.add (local.get $i) (local.get $k)))))
      (br $each)))
  (call $sb_push_byte (local.get $sb) (local.get $q))
  (call $sb_finish (local.get $sb)))

;; ascii(): repr with every non-ASCII code point escaped.
(func $str_ascii_repr (param $v i64) (result i64)
  (local $r i64) (local $p i32) (local $d i32) (local $n i32) (local $i i32) (local $b i32) (local $sb i32)
  (local.set $r (call $to_repr (local.get $v)))
  (local.set $p (i32.wrap_i64 (local.get $r)))
  (if (call $str_is_ascii (local.get $p)) (then (return (local.get $r))))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $sb (call $sb_new))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $b (i32.load8_u (i32.add (local.get $d) (local.get $i))))
      (if (i32.lt_u (local.get $b) (i32.const 0x80))
        (then (call $sb_push_byte (local.get $sb) (local.get $b))
          (local.set $i (i32.add (local.get $i) (i32.const 1))))
        (else
          (call $str_sb_escape (local.get $sb) (call $str_cp_at (i32.add (local.get $d) (local.get $i))))
          (local.set $i (i32.add (local.get $i) (call $str_seq_len (local.get $b))))))
      (br $each)))
  (call $sb_finish (local.get $sb)))

;; ---- indexing and slicing -----------------------------------------------------------------------

(func $str_char (param $s i64) (param $i i32) (result i64)
  (local $p i32) (local $o i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (if (call $str_is_ascii (local.get $p))
    (then (return (call $str_ascii_char (i32.load8_u offset=16 (i32.add (local.get $p) (local.get $i)))))))
  (local.set $o (call $str_offset (local.get $p) (local.get $i)))
  (call $str_new_counted (i32.add (i32.add (local.get $p) (i32.const 16)) (local.get $o))
    (call $str_seq_len (i32.load8_u offset=16 (i32.add (local.get $p) (local.get $o)))) (i32.const 1)))

(func $str_getitem (param $s i64) (param $k i64) (result i64)
  (local $i i64) (local $n i64)
  (if (call $str_is_int (local.get $k))
    (then
      (local.set $i (call $str_int_value (local.get $k)))
      (local.set $n (call $str_len (local.get $s)))
      (if (i64.lt_s (local.get $i) (i64.const 0)) (then (local.set $i (i64.add (local.get $i) (local.get $n)))))
      (if (i32.or (i64.lt_s (local.get $i) (i64.const 0)) (i64.ge_s (local.get $i) (local.get $n)))
        (then (call $raise_static (global.get $t_IndexError) (global.get $s_str_index_range))))
      (return (call $str_char (local.get $s) (i32.wrap_i64 (local.get $i))))))
  (if (i32.eq (call $tid (local.get $k)) (i32.const TYPE_SLICE))
    (then (return (call $str_slice (local.get $s) (local.get $k)))))
  (call $raise_msg (global.get $t_TypeError)
    (call $msg1 (global.get $s_str_indices) (call $type_name (local.get $k))))
  (unreachable))

;; One part of a slice: an int, or None (returns `dflt`).
(func $str_slice_part (param $v i64) (param $dflt i64) (result i64)
  (if (i64.eq (local.get $v) (i64.const 8)) (then (return (local.get $dflt))))
  (if (i32.eqz (call $str_is_int (local.get $v)))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_str_slice_indices))))
  (call $str_int_value (local.get $v)))

;; Clamps a slice bound like slice.indices.
(func $str_clamp (param $v i64) (param $n i64) (param $neg i32) (result i64)
  (if (i64.lt_s (local.get $v) (i64.const 0))
    (then
      (local.set $v (i64.add (local.get $v) (local.get $n)))
      (if (i64.lt_s (local.get $v) (i64.const 0))
        (then (local.set $v (select (i64.const -1) (i64.const 0) (local.get $neg))))))
    (else
      (if (i64.ge_s (local.get $v) (local.get $n))
        (then (local.set $v (select (i64.sub (local.get $n) (i64.const 1)) (local.get $n) (local.get $neg)))))))
  (local.get $v))

;; slice.indices(n) for the slice object at sl: start, step and the slice's length.
(func $str_slice_indices (param $sl i32) (param $n i64) (result i64 i64 i64)
  (local $start i64) (local $stop i64) (local $step i64) (local $neg i32) (local $count i64)
  (local.set $step (call $str_slice_part (i64.load offset=24 (local.get $sl)) (i64.const 1)))
  (if (i64.eqz (local.get $step))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_slice_step_zero))))
  (local.set $neg (i64.lt_s (local.get $step) (i64.const 0)))
  (if (i64.lt_s (local.get $step) (i64.const -0x7FFFFFFFFFFFFFFF)) (then (local.set $step (i64.const -0x7FFFFFFFFFFFFFFF))))
  (local.set $start (call $str_slice_part (i64.load offset=8 (local.get $sl))
    (select (i64.sub (local.get $n) (i64.const 1)) (i64.const 0) (local.get $neg))))
  (local.set $stop (call $str_slice_part (i64.load offset=16 (local.get $sl))
    (select (i64.const -1) (local.get $n) (local.get $neg))))
  (if (i64.ne (i64.load offset=8 (local.get $sl)) (i64.const 8))
    (then (local.set $start (call $str_clamp (local.get $start) (local.get $n) (local.get $neg)))))
  (if (i64.ne (i64.load offset=16 (local.get $sl)) (i64.const 8))
    (then (local.set $stop (call $str_clamp (local.get $stop) (local.get $n) (local.get $neg)))))
  (if (local.get $neg)
    (then
      (if (i64.lt_s (local.get $stop) (local.get $start))
        (then (local.set $count (i64.add (i64.div_s (i64.sub (i64.sub (local.get $start) (local.get $stop)) (i64.const 1))
          (i64.sub (i64.const 0) (local.get $step))) (i64.const 1))))))
    (else
      (if (i64.lt_s (local.get $start) (local.get $stop))
        (then (local.set $count (i64.add (i64.div_s (i64.sub (i64.sub (local.get $stop) (local.get $start)) (i64.const 1))
          (local.get $step)) (i64.const 1)))))))
  (local.get $start) (local.get $step) (local.get $count))

(func $str_slice (param $s i64) (param $sl i64) (result i64)
  (local $p i32) (local $d i32) (local $start i64) (local $step i64) (local $count i64)
  (local $r i32) (local $k i32) (local $o i32) (local $b0 i32) (local $sb i32) (local $cnt i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (call $str_slice_indices (i32.wrap_i64 (local.get $sl)) (call $str_len (local.get $s)))
  (local.set $count) (local.set $step) (local.set $start)
  (if (i64.le_s (local.get $count) (i64.const 0)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
  (local.set $cnt (i32.wrap_i64 (local.get $count)))
  (if (i64.eq (local.get $step) (i64.const 1))
    (then
      (local.set $b0 (call $str_offset (local.get $p) (i32.wrap_i64 (local.get $start))))
      (return (call $str_sub (local.get $p) (local.get $b0)
        (if (result i32) (call $str_is_ascii (local.get $p))
          (then (i32.add (local.get $b0) (local.get $cnt)))
          (else (call $str_skip (local.get $d) (local.get $b0) (local.get $cnt))))
        (local.get $cnt)))))
  (if (call $str_is_ascii (local.get $p))
    (then
      (if (i32.eq (local.get $cnt) (i32.const 1))
        (then (return (call $str_ascii_char (i32.load8_u (i32.add (local.get $d) (i32.wrap_i64 (local.get $start))))))))
      (local.set $r (call $str_alloc_filled (i64.extend_i32_u (local.get $cnt)) (local.get $cnt)))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $k) (local.get $cnt)))
          (i32.store8 offset=16 (i32.add (local.get $r) (local.get $k))
            (i32.load8_u (i32.add (local.get $d)
              (i32.wrap_i64 (i64.add (local.get $start) (i64.mul (i64.extend_i32_u (local.get $k)) (local.get $step)))))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $each)))
      (return (i64.extend_i32_u (local.get $r)))))
  (local.set $sb (call $sb_new))
  (local.set $o (call $str_offset (local.get $p) (i32.wrap_i64 (local.get $start))))
  (loop $each
    (call $sb_push_counted (local.get $sb) (i32.add (local.get $d) (local.get $o))
      (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $o)))) (i32.const 1))
    (local.set $k (i32.add (local.get $k) (i32.const 1)))
    (if (i32.lt_u (local.get $k) (local.get $cnt))
      (then
        (if (i64.gt_s (local.get $step) (i64.const 0))
          (then (local.set $o (call $str_skip (local.get $d) (local.get $o) (i32.wrap_i64 (local.get $step)))))
          (else (local.set $o (call $str_back (local.get $d) (local.get $o) (i32.wrap_i64 (i64.sub (i64.const 0) (local.get $step)))))))
        (br $each))))
  (call $sb_finish (local.get $sb)))

;; ---- searching -----------------------------------------------------------------------------------

;; The offset of the first occurrence of needle [nd, nd+nl) in [h, h+hl), or -1. A
;; Horspool-style search with a bloom filter of the needle's bytes (CPython's fastsearch).
(func $str_find_bytes (param $h i32) (param $hl i32) (param $nd i32) (param $nl i32) (result i32)
  (local $w i32) (local $i i32) (local $last i32) (local $first i32) (local $mask i64) (local $skip i32)
  (local $j i32) (local $c i32) (local $mlast i32)
  (if (i32.eqz (local.get $nl)) (then (return (i32.const 0))))
  (if (i32.gt_u (local.get $nl) (local.get $hl)) (then (return (i32.const -1))))
  (local.set $w (i32.sub (local.get $hl) (local.get $nl)))
  (local.set $first (i32.load8_u (local.get $nd)))
  (if (i32.eq (local.get $nl) (i32.const 1))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.gt_u (local.get $i) (local.get $w)))
          (if (i32.eq (i32.load8_u (i32.add (local.get $h) (local.get $i))) (local.get $first))
            (then (return (local.get $i))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (i32.const -1))))
  (local.set $mlast (i32.sub (local.get $nl) (i32.const 1)))
  (local.set $last (i32.load8_u (i32.add (local.get $nd) (local.get $mlast))))
  (local.set $skip (i32.sub (local.get $mlast) (i32.const 1)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $j) (local.get $mlast)))
      (local.set $c (i32.load8_u (i32.add (local.get $nd) (local.get $j))))
      (local.set $mask (i64.or (local.get $mask) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $c)))))
      (if (i32.eq (local.get $c) (local.get $last))
        (then (local.set $skip (i32.sub (i32.sub (local.get $mlast) (local.get $j)) (i32.const 1)))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $each)))
  (local.set $mask (i64.or (local.get $mask) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $last)))))
  (block $done
    (loop $each
      (br_if $done (i32.gt_u (local.get $i) (local.get $w)))
      (if (i32.eq (i32.load8_u (i32.add (i32.add (local.get $h) (local.get $i)) (local.get $mlast))) (local.get $last))
        (then
          (if (call $str_memeq (i32.add (local.get $h) (local.get $i)) (local.get $nd) (local.get $mlast))
            (then (return (local.get $i))))
          (if (i32.lt_u (local.get $i) (local.get $w))
            (then
              (if (i64.eqz (i64.and (local.get $mask) (i64.shl (i64.const 1)
                    (i64.load8_u (i32.add (i32.add (local.get $h) (local.get $i)) (local.get $nl))))))
                (then (local.set $i (i32.add (local.get $i) (local.get $nl))))
                (else (local.set $i (i32.add (local.get $i) (local.get $skip))))))))
        (else
          (if (i32.lt_u (local.get $i) (local.get $w))
            (then
              (if (i64.eqz (i64.and (local.get $mask) (i64.shl (i64.const 1)
                    (i64.load8_u (i32.add (i32.add (local.get $h) (local.get $i)) (local.get $nl))))))
                (then (local.set $i (i32.add (local.get $i) (local.get $nl)))))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const -1))

;; The offset of the last occurrence of the needle, or -1.
(func $str_rfind_bytes (param $h i32) (param $hl i32) (param $nd i32) (param $nl i32) (result i32)
  (local $i i32) (local $first i32)
  (if (i32.gt_u (local.get $nl) (local.get $hl)) (then (return (i32.const -1))))
  (local.set $i (i32.sub (local.get $hl) (local.get $nl)))
  (if (i32.eqz (local.get $nl)) (then (return (local.get $i))))
  (local.set $first (i32.load8_u (local.get $nd)))
  (block $done
    (loop $each
      (br_if $done (i32.lt_s (local.get $i) (i32.const 0)))
      (if (i32.eq (i32.load8_u (i32.add (local.get $h) (local.get $i))) (local.get $first))
        (then
          (if (call $str_memeq (i32.add (local.get $h) (local.get $i)) (local.get $nd) (local.get $nl))
            (then (return (local.get $i))))))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const -1))

;; Non-overlapping occurrences (at most max) of a non-empty needle.
(func $str_count_bytes (param $h i32) (param $hl i32) (param $nd i32) (param $nl i32) (param $max i32) (result i32)
  (local $n i32) (local $at i32)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $n) (local.get $max)))
      (local.set $at (call $str_find_bytes (local.get $h) (local.get $hl) (local.get $nd) (local.get $nl)))
      (br_if $done (i32.lt_s (local.get $at) (i32.const 0)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (local.set $at (i32.add (local.get $at) (local.get $nl)))
      (local.set $h (i32.add (local.get $h) (local.get $at)))
      (local.set $hl (i32.sub (local.get $hl) (local.get $at)))
      (br $each)))
  (local.get $n))

(func $str_contains (param $s i64) (param $sub i64) (result i32)
  (local $p i32) (local $q i32)
  (call $str_check (local.get $sub) (global.get $s_str_in_requires))
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $q (i32.wrap_i64 (local.get $sub)))
  (i32.ge_s (call $str_find_bytes (i32.add (local.get $p) (i32.const 16)) (i32.load offset=4 (local.get $p))
    (i32.add (local.get $q) (i32.const 16)) (i32.load offset=4 (local.get $q))) (i32.const 0)))

;; ---- join ----------------------------------------------------------------------------------------

;; The items of a list or tuple: their address and count.
(func $str_items (param $v i64) (result i32 i32)
  (local $p i32)
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.eq (i32.load (local.get $p)) (i32.const TYPE_LIST))
    (then (return (i32.load offset=12 (local.get $p)) (i32.load offset=4 (local.get $p)))))
  (i32.add (local.get $p) (i32.const 8)) (i32.load offset=4 (local.get $p)))

(func $str_join_list (param $sep i64) (param $seq i64) (result i64)
  (local $items i32) (local $n i32) (local $i i32) (local $v i64) (local $total i64) (local $chars i32)
  (local $sp i32) (local $sl i32) (local $r i32) (local $o i32) (local $q i32)
  (call $str_items (local.get $seq))
  (local.set $n) (local.set $items)
  (if (i32.eqz (local.get $n)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
  (local.set $sp (i32.wrap_i64 (local.get $sep)))
  (local.set $sl (i32.load offset=4 (local.get $sp)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $v (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
      (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_STR))
        (then (call $str_join_item_error (i64.extend_i32_u (local.get $i)) (local.get $v))))
      (local.set $total (i64.add (local.get $total) (i64.extend_i32_u (i32.load offset=4 (i32.wrap_i64 (local.get $v))))))
      (local.set $chars (i32.add (local.get $chars) (i32.load offset=8 (i32.wrap_i64 (local.get $v)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (if (i32.eq (local.get $n) (i32.const 1)) (then (return (local.get $v))))
  (local.set $total (i64.add (local.get $total)
    (i64.mul (i64.extend_i32_u (local.get $sl)) (i64.extend_i32_u (i32.sub (local.get $n) (i32.const 1))))))
  (local.set $chars (i32.add (local.get $chars)
    (i32.mul (i32.load offset=8 (local.get $sp)) (i32.sub (local.get $n) (i32.const 1)))))
  (local.set $r (call $str_alloc_filled (local.get $total) (local.get $chars)))
  (local.set $o (i32.add (local.get $r) (i32.const 16)))
  (local.set $i (i32.const 0))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.and (i32.ne (local.get $i) (i32.const 0)) (i32.ne (local.get $sl) (i32.const 0)))
        (then
          (call $memcpy (local.get $o) (i32.add (local.get $sp) (i32.const 16)) (local.get $sl))
          (local.set $o (i32.add (local.get $o) (local.get $sl)))))
      (local.set $q (i32.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
      (call $memcpy (local.get $o) (i32.add (local.get $q) (i32.const 16)) (i32.load offset=4 (local.get $q)))
      (local.set $o (i32.add (local.get $o) (i32.load offset=4 (local.get $q))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i64.extend_i32_u (local.get $r)))

;; ---- builtins -------------------------------------------------------------------------------------

;; Raises `name() takes exactly one argument (n given)` unless args has one item; no keywords.
(func $str_one_arg (param $args i32) (param $kwargs i32) (param $name i32)
  (local $sb i32)
  (if (local.get $kwargs)
    (then (if (i32.load offset=4 (local.get $kwargs))
      (then (call $raise_msg (global.get $t_TypeError)
        (call $msg1 (global.get $s_str_no_kwargs_plain) (i64.extend_i32_u (local.get $name))))))))
  (if (i32.ne (i32.load offset=4 (local.get $args)) (i32.const 1))
    (then
      (local.set $sb (call $sb_new))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.load offset=4 (local.get $args))))
      (call $raise_msg (global.get $t_TypeError)
        (call $msg2 (global.get $s_str_exactly_one_plain) (i64.extend_i32_u (local.get $name))
          (call $sb_finish (local.get $sb)))))))

(func $b_chr (param $args i32) (param $kwargs i32) (result i64)
  (local $v i64) (local $n i64)
  (call $str_one_arg (local.get $args) (local.get $kwargs) (global.get $s_str_chr))
  (local.set $v (i64.load offset=8 (local.get $args)))
  (local.set $n (call $str_as_index (local.get $v)))
  (if (i32.or (i64.gt_s (local.get $n) (i64.const 0x7FFFFFFF)) (i64.lt_s (local.get $n) (i64.const -0x80000000)))
    (then (call $raise_static (global.get $t_OverflowError) (global.get $s_str_c_int))))
  (if (i64.gt_u (local.get $n) (i64.const 0x10FFFF))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_chr_range))))
  (call $str_from_cp (i32.wrap_i64 (local.get $n))))

(func $b_ord (param $args i32) (param $kwargs i32) (result i64)
  (local $v i64) (local $p i32) (local $sb i32)
  (call $str_one_arg (local.get $args) (local.get $kwargs) (global.get $s_str_ord))
  (local.set $v (i64.load offset=8 (local.get $args)))
  (call $str_check (local.get $v) (global.get $s_str_ord_type))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (if (i32.ne (i32.load offset=8 (local.get $p)) (i32.const 1))
    (then
      (local.set $sb (call $sb_new))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.load offset=8 (local.get $p))))
      (call $raise_msg (global.get $t_TypeError)
        (call $msg1 (global.get $s_str_ord_length) (call $sb_finish (local.get $sb))))))
  (call $str_small (call $str_cp_at (i32.add (local.get $p) (i32.const 16)))))

;; CPython checks str()'s `encoding` and `errors` arguments are str before it looks at the object.
;; As C strings they may not hold a NUL.
(func $str_decode_arg (param $name i64) (param $v i64)
  (local $p i32) (local $i i32) (local $n i32)
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_STR))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_str_decode_arg_type) (local.get $name) (call $clinic_type_name (local.get $v))))))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.eqz (i32.load8_u offset=16 (i32.add (local.get $p) (local.get $i))))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_embedded_null))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each))))

;; str(), str(x); decoding arguments are not supported (there is no bytes type).
(func $b_str (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32) (local $v i64) (local $more i32) (local $e i32) (local $end i32) (local $key i64) (local $sb i32)
  (local.set $n (i32.load offset=4 (local.get $args)))
  ;; Keywords count towards "at most 3 arguments", as in CPython.
  (if (i32.gt_u (i32.add (local.get $n) (call $seq_kw_count (local.get $kwargs))) (i32.const 3))
    (then
      (local.set $sb (call $sb_new))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.add (local.get $n) (call $seq_kw_count (local.get $kwargs)))))
      (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_str_str_count) (call $sb_finish (local.get $sb))))))
  ;; An unknown keyword is reported before any argument is converted, as CPython's argument
  ;; clinic unpacks the keywords first.
  (if (local.get $kwargs)
    (then
      (local.set $e (i32.load offset=8 (local.get $kwargs)))
      (local.set $end (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $kwargs)) (i32.const 24))))
      (block $checked
        (loop $each
          (br_if $checked (i32.ge_u (local.get $e) (local.get $end)))
          (local.set $key (i64.load offset=8 (local.get $e)))
          (if (i32.and (i64.ne (local.get $key) (i64.const 0))
                (i32.eqz (i32.or (call $str_eq (local.get $key) (i64.extend_i32_u (global.get $s_str_kw_object)))
                  (i32.or (call $str_eq (local.get $key) (i64.extend_i32_u (global.get $s_str_kw_encoding)))
                    (call $str_eq (local.get $key) (i64.extend_i32_u (global.get $s_str_kw_errors)))))))
            (then (call $raise_msg (global.get $t_TypeError)
              (call $msg2 (global.get $s_str_kw_invalid) (local.get $key) (i64.extend_i32_u (global.get $s_str_str))))))
          (local.set $e (i32.add (local.get $e) (i32.const 24)))
          (br $each)))))
  (if (local.get $n) (then (local.set $v (i64.load offset=8 (local.get $args)))))
  (local.set $more (i32.gt_u (local.get $n) (i32.const 1)))
  (if (local.get $more)
    (then (call $str_decode_arg (i64.extend_i32_u (global.get $s_str_kw_encoding)) (i64.load offset=16 (local.get $args)))))
  (if (i32.gt_u (local.get $n) (i32.const 2))
    (then (call $str_decode_arg (i64.extend_i32_u (global.get $s_str_kw_errors)) (i64.load offset=24 (local.get $args)))))
  (if (local.get $kwargs)
    (then
      (local.set $e (i32.load offset=8 (local.get $kwargs)))
      (local.set $end (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $kwargs)) (i32.const 24))))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $e) (local.get $end)))
          (local.set $key (i64.load offset=8 (local.get $e)))
          (if (i64.ne (local.get $key) (i64.const 0))
            (then
              (if (call $str_eq (local.get $key) (i64.extend_i32_u (global.get $s_str_kw_object)))
                (then
                  (if (local.get $n) (then (call $raise_static (global.get $t_TypeError) (global.get $s_str_dup_object))))
                  (local.set $v (i64.load offset=16 (local.get $e))))
                (else
                  (if (i32.or (call $str_eq (local.get $key) (i64.extend_i32_u (global.get $s_str_kw_encoding)))
                        (call $str_eq (local.get $key) (i64.extend_i32_u (global.get $s_str_kw_errors))))
                    (then
                      (if (i32.and (i32.ge_u (local.get $n) (i32.const 2))
                            (call $str_eq (local.get $key) (i64.extend_i32_u (global.get $s_str_kw_encoding))))
                        (then (call $raise_static (global.get $t_TypeError) (global.get $s_str_dup_encoding))))
                      (call $str_decode_arg (local.get $key) (i64.load offset=16 (local.get $e)))
                      (local.set $more (i32.const 1)))
                    (else (call $raise_msg (global.get $t_TypeError)
                      (call $msg2 (global.get $s_str_kw_invalid) (local.get $key) (i64.extend_i32_u (global.get $s_str_str))))))))))
          (local.set $e (i32.add (local.get $e) (i32.const 24)))
          (br $each)))))
  (if (local.get $more)
    (then
      ;; str(encoding=..., errors=...) without an object is "", as in CPython.
      (if (i64.eqz (local.get $v)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
      (if (i32.eq (call $tid (local.get $v)) (i32.const TYPE_STR))
        (then (call $raise_static (global.get $t_TypeError) (global.get $s_str_decoding_str))))
      (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_str_decoding) (call $type_name (local.get $v))))))
  (if (i64.eqz (local.get $v)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
  (call $to_str (local.get $v)))

;; ---- format ----------------------------------------------------------------------------------

;; Parses decimal digits at d[pos..end): returns the value and the new position. Raises
;; ValueError for values that do not fit.
(func $str_digits (param $d i32) (param $pos i32) (param $end i32) (result i64 i32)
  (local $v i64) (local $c i32)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $pos) (local.get $end)))
      (local.set $c (i32.sub (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 48)))
      (br_if $done (i32.gt_u (local.get $c) (i32.const 9)))
      (if (i64.gt_s (local.get $v) (i64.const 922337203685477579))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_digits))))
      (local.set $v (i64.add (i64.mul (local.get $v) (i64.const 10)) (i64.extend_i32_u (local.get $c))))
      (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
      (br $each)))
  (local.get $v) (local.get $pos))

;; format(s, spec) for a str: [[fill]align][0][width][.precision][s].
(func $str_format_spec (param $s i64) (param $spec i64) (result i64)
  (local $sp i32) (local $d i32) (local $end i32) (local $pos i32) (local $c i32) (local $l0 i32)
  (local $fill i32) (local $align i32) (local $fillset i32) (local $sign i32) (local $z i32) (local $alt i32)
  (local $width i64) (local $prec i64) (local $group i32) (local $type i32) (local $start i32)
  (local $p i32) (local $n i64) (local $nbytes i32) (local $pad i64) (local $left i64) (local $right i64)
  (local $fs i32) (local $r i32) (local $o i32) (local $k i64) (local $sb i32)
  (local.set $sp (i32.wrap_i64 (local.get $spec)))
  (local.set $end (i32.load offset=4 (local.get $sp)))
  (if (i32.eqz (local.get $end)) (then (return (local.get $s))))
  (local.set $d (i32.add (local.get $sp) (i32.const 16)))
  (local.set $fill (i32.const 32))
  (local.set $prec (i64.const -1))
  (local.set $l0 (call $str_seq_len (i32.load8_u (local.get $d))))
  (if (i32.and (i32.gt_u (local.get $end) (local.get $l0))
        (call $str_is_align (i32.load8_u (i32.add (local.get $d) (local.get $l0)))))
    (then
      (local.set $fill (call $str_cp_at (local.get $d)))
      (local.set $fillset (i32.const 1))
      (local.set $align (i32.load8_u (i32.add (local.get $d) (local.get $l0))))
      (local.set $pos (i32.add (local.get $l0) (i32.const 1))))
    (else
      (if (call $str_is_align (i32.load8_u (local.get $d)))
        (then
          (local.set $align (i32.load8_u (local.get $d)))
          (local.set $pos (i32.const 1))))))
  (if (i32.lt_u (local.get $pos) (local.get $end))
    (then
      (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $pos))))
      (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
            (i32.eq (local.get $c) (i32.const 32)))
        (then (local.set $sign (local.get $c)) (local.set $pos (i32.add (local.get $pos) (i32.const 1)))))))
  (if (i32.lt_u (local.get $pos) (local.get $end))
    (then (if (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 122))
      (then (local.set $z (i32.const 1)) (local.set $pos (i32.add (local.get $pos) (i32.const 1)))))))
  (if (i32.lt_u (local.get $pos) (local.get $end))
    (then (if (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 35))
      (then (local.set $alt (i32.const 1)) (local.set $pos (i32.add (local.get $pos) (i32.const 1)))))))
  (if (i32.and (i32.eqz (local.get $fillset)) (i32.lt_u (local.get $pos) (local.get $end)))
    (then (if (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 48))
      (then (local.set $fill (i32.const 48)) (local.set $pos (i32.add (local.get $pos) (i32.const 1)))))))
  (call $str_digits (local.get $d) (local.get $pos) (local.get $end))
  (local.set $pos) (local.set $width)
  (if (i32.lt_u (local.get $pos) (local.get $end))
    (then
      (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $pos))))
      (if (i32.or (i32.eq (local.get $c) (i32.const 44)) (i32.eq (local.get $c) (i32.const 95)))
        (then (local.set $group (local.get $c)) (local.set $pos (i32.add (local.get $pos) (i32.const 1)))))))
  (if (i32.lt_u (local.get $pos) (local.get $end))
    (then (if (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 46))
      (then
        (local.set $start (i32.add (local.get $pos) (i32.const 1)))
        (call $str_digits (local.get $d) (local.get $start) (local.get $end))
        (local.set $pos) (local.set $prec)
        (if (i32.eq (local.get $pos) (local.get $start))
          (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_precision))))))))
  ;; What is left is the type: one character.
  (if (i32.and (i32.lt_u (local.get $pos) (local.get $end))
        (i32.gt_u (i32.sub (local.get $end) (local.get $pos))
          (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $pos))))))
    (then (call $raise_msg (global.get $t_ValueError)
      (call $msg1 (global.get $s_str_fmt_invalid) (local.get $spec)))))
  ;; (-1: no type; an explicit NUL is an unknown code, as in CPython)
  (local.set $type (i32.const -1))
  (if (i32.lt_u (local.get $pos) (local.get $end))
    (then (local.set $type (call $str_cp_at (i32.add (local.get $d) (local.get $pos))))))
  (call $fmt_check_group (local.get $group) (select (i32.const 0) (local.get $type) (i32.eq (local.get $type) (i32.const -1))))
  (if (i32.eq (local.get $type) (i32.const -1)) (then (local.set $type (i32.const 115))))
  (if (local.get $group)
    (then
      (if (i32.eq (local.get $type) (i32.const 115))
        (then (call $raise_msg (global.get $t_ValueError)
          (call $msg1 (global.get $s_str_fmt_group) (call $str_ascii_char (local.get $group))))))))
  (if (i32.ne (local.get $type) (i32.const 115))
    (then (call $raise_msg (global.get $t_ValueError)
      (call $msg1 (global.get $s_str_fmt_code) (call $fmt_code_text (local.get $type))))))
  (if (i32.eq (local.get $sign) (i32.const 32)) (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_space))))
  (if (local.get $sign) (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_sign))))
  (if (local.get $z) (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_z))))
  (if (local.get $alt) (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_alt))))
  (if (i32.eq (local.get $align) (i32.const 61)) (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_eq))))
  ;; Truncate to the precision, then pad to the width.
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $n (i64.extend_i32_u (i32.load offset=8 (local.get $p))))
  (local.set $nbytes (i32.load offset=4 (local.get $p)))
  (if (i32.and (i64.ge_s (local.get $prec) (i64.const 0)) (i64.lt_s (local.get $prec) (local.get $n)))
    (then
      (local.set $n (local.get $prec))
      (local.set $nbytes (call $str_offset (local.get $p) (i32.wrap_i64 (local.get $prec))))))
  (if (i64.gt_s (local.get $width) (local.get $n))
    (then (local.set $pad (i64.sub (local.get $width) (local.get $n)))))
  (if (i32.and (i64.eqz (local.get $pad)) (i32.eq (local.get $nbytes) (i32.load offset=4 (local.get $p))))
    (then (return (local.get $s))))
  (if (i32.eq (local.get $align) (i32.const 62)) (then (local.set $left (local.get $pad))))
  (if (i32.eq (local.get $align) (i32.const 94)) (then (local.set $left (i64.shr_u (local.get $pad) (i64.const 1)))))
  (local.set $right (i64.sub (local.get $pad) (local.get $left)))
  (local.set $fs (call $str_cp_size (local.get $fill)))
  (local.set $r (call $str_alloc64
    (i64.add (i64.extend_i32_u (local.get $nbytes)) (i64.mul (local.get $pad) (i64.extend_i32_u (local.get $fs))))
    (i32.wrap_i64 (i64.add (local.get $n) (local.get $pad)))))
  (local.set $o (i32.add (local.get $r) (i32.const 16)))
  (local.set $o (call $str_fill (local.get $o) (local.get $fill) (local.get $fs) (i32.wrap_i64 (local.get $left))))
  (call $memcpy (local.get $o) (i32.add (local.get $p) (i32.const 16)) (local.get $nbytes))
  (local.set $o (i32.add (local.get $o) (local.get $nbytes)))
  (drop (call $str_fill (local.get $o) (local.get $fill) (local.get $fs) (i32.wrap_i64 (local.get $right))))
  (i64.extend_i32_u (local.get $r)))

(func $str_is_align (param $c i32) (result i32)
  (i32.or (i32.or (i32.eq (local.get $c) (i32.const 60)) (i32.eq (local.get $c) (i32.const 62)))
    (i32.or (i32.eq (local.get $c) (i32.const 61)) (i32.eq (local.get $c) (i32.const 94)))))

;; Writes k copies of code point c (fs bytes each) at o; returns the end.
(func $str_fill (param $o i32) (param $c i32) (param $fs i32) (param $k i32) (result i32)
  (if (i32.eqz (local.get $k)) (then (return (local.get $o))))
  (if (i32.eq (local.get $fs) (i32.const 1))
    (then
      (memory.fill (local.get $o) (local.get $c) (local.get $k))
      (return (i32.add (local.get $o) (local.get $k)))))
  (block $done
    (loop $each
      (br_if $done (i32.eqz (local.get $k)))
      (local.set $o (i32.add (local.get $o) (call $str_put_cp (local.get $o) (local.get $c))))
      (local.set $k (i32.sub (local.get $k) (i32.const 1)))
      (br $each)))
  (local.get $o))

;; The value of the str key equal to bytes [ptr, ptr+len) in dict d, or 0.
(func $str_dict_find (param $d i32) (param $ptr i32) (param $len i32) (result i64)
  (local $e i32) (local $end i32) (local $k i32)
  (local.set $e (i32.load offset=8 (local.get $d)))
  (local.set $end (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $d)) (i32.const 24))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $e) (local.get $end)))
      (local.set $k (i32.wrap_i64 (i64.load offset=8 (local.get $e))))
      (if (i32.and (i32.ne (local.get $k) (i32.const 0)) (i32.eqz (i32.and (local.get $k) (i32.const 1))))
        (then
          (if (i32.and (i32.eq (i32.load (local.get $k)) (i32.const TYPE_STR)) (i32.eq (i32.load offset=4 (local.get $k)) (local.get $len)))
            (then
              (if (call $str_memeq (i32.add (local.get $k) (i32.const 16)) (local.get $ptr) (local.get $len))
                (then (return (i64.load offset=16 (local.get $e)))))))))
      (local.set $e (i32.add (local.get $e) (i32.const 24)))
      (br $each)))
  (i64.const 0))

;; str.format: `state` holds the automatic field number (+0) and the numbering mode (+4:
;; 1 automatic, 2 manual); `mapping` is the keyword source (a dict, another value for
;; format_map, or 0).
(func $str_format (param $t i64) (param $args i32) (param $kwargs i32) (result i64)
  (call $str_format_with (local.get $t) (local.get $args) (i64.extend_i32_u (local.get $kwargs))))

(func $str_format_with (param $t i64) (param $args i32) (param $mapping i64) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $i i32) (local $c i32) (local $sb i32)
  (local.set $p (i32.wrap_i64 (local.get $t)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  ;; No braces: the template itself.
  (block $found
    (loop $each
      (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (local.get $t))))
      (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $i))))
      (br_if $found (i32.or (i32.eq (local.get $c) (i32.const 123)) (i32.eq (local.get $c) (i32.const 125))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (local.set $sb (call $sb_new))
  (call $str_fmt_build (local.get $d) (i32.const 0) (local.get $n) (local.get $args) (local.get $mapping)
    (i32.const 2) (call $alloc (i32.const 8)) (local.get $sb))
  (call $sb_finish (local.get $sb)))

(func $str_fmt_build (param $d i32) (param $pos i32) (param $end i32) (param $args i32) (param $mapping i64)
    (param $depth i32) (param $state i32) (param $sb i32)
  (local $lit i32) (local $c i32) (local $ns i32) (local $ne i32) (local $conv i32) (local $ss i32) (local $se i32)
  (local $expand i32) (local $count i32) (local $v i64) (local $spec i64) (local $sub i32)
  (if (i32.le_s (local.get $depth) (i32.const 0))
    (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_recursion))))
  (loop $next
    (local.set $lit (local.get $pos))
    (block $stop
      (loop $scan
        (br_if $stop (i32.ge_u (local.get $pos) (local.get $end)))
        (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $pos))))
        (br_if $stop (i32.or (i32.eq (local.get $c) (i32.const 123)) (i32.eq (local.get $c) (i32.const 125))))
        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
        (br $scan)))
    (if (i32.gt_u (local.get $pos) (local.get $lit))
      (then (call $sb_push_bytes (local.get $sb) (i32.add (local.get $d) (local.get $lit))
        (i32.sub (local.get $pos) (local.get $lit)))))
    (if (i32.ge_u (local.get $pos) (local.get $end)) (then (return)))
    (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
    (if (i32.eq (local.get $c) (i32.const 125))
      (then
        (if (i32.and (i32.lt_u (local.get $pos) (local.get $end))
              (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 125)))
          (then
            (call $sb_push_byte (local.get $sb) (i32.const 125))
            (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
            (br $next)))
        (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_single_close))))
    (if (i32.ge_u (local.get $pos) (local.get $end))
      (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_single_open))))
    (if (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 123))
      (then
        (call $sb_push_byte (local.get $sb) (i32.const 123))
        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
        (br $next)))
    ;; A field: name, then !conversion, then :spec.
    (local.set $ns (local.get $pos))
    (local.set $c (i32.const 0))
    (block $named
      (loop $scan
        (if (i32.ge_u (local.get $pos) (local.get $end))
          (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_expected_close))))
        (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $pos))))
        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
        (if (i32.eq (local.get $c) (i32.const 123))
          (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_brace_in_name))))
        (if (i32.eq (local.get $c) (i32.const 91))
          (then
            (block $closed
              (loop $skip
                (br_if $closed (i32.ge_u (local.get $pos) (local.get $end)))
                (br_if $closed (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $pos))) (i32.const 93)))
                (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                (br $skip)))))
        (br_if $named (i32.or (i32.eq (local.get $c) (i32.const 125))
          (i32.or (i32.eq (local.get $c) (i32.const 58)) (i32.eq (local.get $c) (i32.const 33)))))
        (br $scan)))
    (local.set $ne (i32.sub (local.get $pos) (i32.const 1)))
    (local.set $conv (i32.const 0))
    (local.set $expand (i32.const 0))
    (local.set $ss (local.get $pos))
    (local.set $se (local.get $pos))
    (block $spec_done
      (if (i32.eq (local.get $c) (i32.const 125)) (then (br $spec_done)))
      (if (i32.eq (local.get $c) (i32.const 33))
        (then
          (if (i32.ge_u (local.get $pos) (local.get $end))
            (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_conv_end))))
          (local.set $conv (call $str_cp_at (i32.add (local.get $d) (local.get $pos))))
          (local.set $pos (i32.add (local.get $pos) (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $pos))))))
          (if (i32.lt_u (local.get $pos) (local.get $end))
            (then
              (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $pos))))
              (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
              (if (i32.eq (local.get $c) (i32.const 125)) (then (br $spec_done)))
              (if (i32.ne (local.get $c) (i32.const 58))
                (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_conv_colon))))))))
      (local.set $ss (local.get $pos))
      (local.set $count (i32.const 1))
      (loop $scan
        (if (i32.ge_u (local.get $pos) (local.get $end))
          (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_unmatched))))
        (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $pos))))
        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
        (if (i32.eq (local.get $c) (i32.const 123))
          (then (local.set $expand (i32.const 1)) (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (if (i32.eq (local.get $c) (i32.const 125))
          (then
            (local.set $count (i32.sub (local.get $count) (i32.const 1)))
            (if (i32.eqz (local.get $count))
              (then (local.set $se (i32.sub (local.get $pos) (i32.const 1))) (br $spec_done)))))
        (br $scan)))
    (local.set $v (call $str_fmt_field (local.get $d) (local.get $ns) (local.get $ne) (local.get $args)
      (local.get $mapping) (local.get $state)))
    (if (local.get $conv)
      (then (local.set $v (call $str_fmt_convert (local.get $v) (local.get $conv)))))
    (if (local.get $expand)
      (then
        (local.set $sub (call $sb_new))
        (call $str_fmt_build (local.get $d) (local.get $ss) (local.get $se) (local.get $args) (local.get $mapping)
          (i32.sub (local.get $depth) (i32.const 1)) (local.get $state) (local.get $sub))
        (local.set $spec (call $sb_finish (local.get $sub))))
      (else
        (local.set $spec (call $str_new (i32.add (local.get $d) (local.get $ss)) (i32.sub (local.get $se) (local.get $ss))))))
    (call $str_fmt_render (local.get $sb) (local.get $v) (local.get $spec))
    (br $next)))

;; Appends format(v, spec).
(func $str_fmt_render (param $sb i32) (param $v i64) (param $spec i64)
  (local $empty i32)
  (local.set $empty (i32.eqz (i32.load offset=4 (i32.wrap_i64 (local.get $spec)))))
  (if (call $is_small (local.get $v))
    (then (if (local.get $empty)
      (then (call $sb_push_i64 (local.get $sb) (i64.shr_s (local.get $v) (i64.const 1))) (return)))))
  (if (i32.eq (call $tid (local.get $v)) (i32.const TYPE_STR))
    (then (call $sb_push_str (local.get $sb) (call $str_format_spec (local.get $v) (local.get $spec))) (return)))
  (if (local.get $empty)
    (then (call $sb_push_str (local.get $sb) (call $to_str (local.get $v))) (return)))
  (call $sb_push_str (local.get $sb) (call $format (local.get $v) (local.get $spec))))

;; !r, !s, !a.
(func $str_fmt_convert (param $v i64) (param $conv i32) (result i64)
  (local $sb i32)
  (if (i32.eq (local.get $conv) (i32.const 114)) (then (return (call $to_repr (local.get $v)))))
  (if (i32.eq (local.get $conv) (i32.const 115)) (then (return (call $to_str (local.get $v)))))
  (if (i32.eq (local.get $conv) (i32.const 97)) (then (return (call $str_ascii_repr (local.get $v)))))
  (local.set $sb (call $sb_new))
  (if (i32.and (i32.gt_u (local.get $conv) (i32.const 32)) (i32.lt_u (local.get $conv) (i32.const 128)))
    (then (call $sb_push_byte (local.get $sb) (local.get $conv)))
    (else
      (call $sb_push_byte (local.get $sb) (i32.const 92))
      (call $sb_push_byte (local.get $sb) (i32.const 120))
      (call $str_sb_hexmin (local.get $sb) (local.get $conv))))
  (call $raise_msg (global.get $t_ValueError) (call $msg1 (global.get $s_str_fmt_conv_unknown) (call $sb_finish (local.get $sb))))
  (unreachable))

;; Appends hex digits without leading zeros.
(func $str_sb_hexmin (param $sb i32) (param $v i32)
  (local $k i32)
  (local.set $k (i32.const 1))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $k) (i32.const 8)))
      (br_if $done (i32.lt_u (local.get $v) (i32.shl (i32.const 1) (i32.shl (local.get $k) (i32.const 2)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $each)))
  (call $str_sb_hex (local.get $sb) (local.get $v) (local.get $k)))

;; The value a field name [ns, ne) refers to.
(func $str_fmt_field (param $d i32) (param $ns i32) (param $ne i32) (param $args i32) (param $mapping i64)
    (param $state i32) (result i64)
  (local $i i32) (local $c i32) (local $digits i32) (local $idx i64) (local $pos i32) (local $v i64)
  (local $name i64) (local $sb i32)
  (local.set $digits (i32.const 1))
  (local.set $i (local.get $ns))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $ne)))
      (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $i))))
      (if (i32.or (i32.eq (local.get $c) (i32.const 46)) (i32.eq (local.get $c) (i32.const 91)))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_attr))))
      (if (i32.gt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9)) (then (local.set $digits (i32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (if (i32.eq (local.get $ns) (local.get $ne))
    (then
      (if (i32.eq (i32.load offset=4 (local.get $state)) (i32.const 2))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_to_auto))))
      (i32.store offset=4 (local.get $state) (i32.const 1))
      (local.set $idx (i64.extend_i32_u (i32.load (local.get $state))))
      (i32.store (local.get $state) (i32.add (i32.load (local.get $state)) (i32.const 1)))
      (return (call $str_fmt_positional (local.get $args) (local.get $idx)))))
  (if (local.get $digits)
    (then
      (call $str_digits (local.get $d) (local.get $ns) (local.get $ne))
      (local.set $pos) (local.set $idx)
      (if (i32.eq (i32.load offset=4 (local.get $state)) (i32.const 1))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_fmt_to_manual))))
      (i32.store offset=4 (local.get $state) (i32.const 2))
      (return (call $str_fmt_positional (local.get $args) (local.get $idx)))))
  (local.set $name (call $str_new (i32.add (local.get $d) (local.get $ns)) (i32.sub (local.get $ne) (local.get $ns))))
  (if (i64.eqz (local.get $mapping))
    (then (call $raise_msg (global.get $t_KeyError) (local.get $name))))
  (if (i32.ne (call $tid (local.get $mapping)) (i32.const TYPE_DICT))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_str_fmt_subscript) (call $type_name (local.get $mapping))))))
  (local.set $v (call $str_dict_find (i32.wrap_i64 (local.get $mapping)) (i32.add (local.get $d) (local.get $ns))
    (i32.sub (local.get $ne) (local.get $ns))))
  (if (i64.eqz (local.get $v)) (then (call $raise_msg (global.get $t_KeyError) (local.get $name))))
  (local.get $v))

(func $str_fmt_positional (param $args i32) (param $idx i64) (result i64)
  (local $sb i32)
  (if (i64.ge_u (local.get $idx) (i64.extend_i32_u (i32.load offset=4 (local.get $args))))
    (then
      (local.set $sb (call $sb_new))
      (call $sb_push_i64 (local.get $sb) (local.get $idx))
      (call $raise_msg (global.get $t_IndexError)
        (call $msg1 (global.get $s_str_fmt_index) (call $sb_finish (local.get $sb))))))
  (i64.load offset=8 (i32.add (local.get $args) (i32.shl (i32.wrap_i64 (local.get $idx)) (i32.const 3)))))

;; ---- method support ------------------------------------------------------------------------

;; A list (docs/abi.md layout) with room for cap items.
(func $str_list_new (param $cap i32) (result i32)
  (local $l i32)
  (if (i32.lt_u (local.get $cap) (i32.const 4)) (then (local.set $cap (i32.const 4))))
  (local.set $l (call $alloc (i32.const 16)))
  (i32.store (local.get $l) (i32.const TYPE_LIST))
  (i32.store offset=8 (local.get $l) (local.get $cap))
  (i32.store offset=12 (local.get $l) (call $alloc (i32.shl (local.get $cap) (i32.const 3))))
  (local.get $l))

(func $str_list_push (param $l i32) (param $v i64)
  (local $n i32) (local $cap i32) (local $items i32)
  (local.set $n (i32.load offset=4 (local.get $l)))
  (local.set $cap (i32.load offset=8 (local.get $l)))
  (if (i32.eq (local.get $n) (local.get $cap))
    (then
      (local.set $cap (i32.shl (local.get $cap) (i32.const 1)))
      (local.set $items (call $alloc64 (i64.shl (i64.extend_i32_u (local.get $cap)) (i64.const 3))))
      (call $memcpy (local.get $items) (i32.load offset=12 (local.get $l)) (i32.shl (local.get $n) (i32.const 3)))
      (i32.store offset=12 (local.get $l) (local.get $items))
      (i32.store offset=8 (local.get $l) (local.get $cap))))
  (i64.store (i32.add (i32.load offset=12 (local.get $l)) (i32.shl (local.get $n) (i32.const 3))) (local.get $v))
  (i32.store offset=4 (local.get $l) (i32.add (local.get $n) (i32.const 1))))

(func $str_list_reverse (param $l i32)
  (local $a i32) (local $b i32) (local $t i64)
  (local.set $a (i32.load offset=12 (local.get $l)))
  (local.set $b (i32.add (local.get $a) (i32.shl (i32.sub (i32.load offset=4 (local.get $l)) (i32.const 1)) (i32.const 3))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_s (local.get $a) (local.get $b)))
      (local.set $t (i64.load (local.get $a)))
      (i64.store (local.get $a) (i64.load (local.get $b)))
      (i64.store (local.get $b) (local.get $t))
      (local.set $a (i32.add (local.get $a) (i32.const 8)))
      (local.set $b (i32.sub (local.get $b) (i32.const 8)))
      (br $each))))

(func $str_tuple3 (param $a i64) (param $b i64) (param $c i64) (result i64)
  (local $t i32)
  (local.set $t (call $alloc (i32.const 32)))
  (i32.store (local.get $t) (i32.const TYPE_TUPLE))
  (i32.store offset=4 (local.get $t) (i32.const 3))
  (i64.store offset=8 (local.get $t) (local.get $a))
  (i64.store offset=16 (local.get $t) (local.get $b))
  (i64.store offset=24 (local.get $t) (local.get $c))
  (i64.extend_i32_u (local.get $t)))

(func $str_num (param $sb i32) (param $n i32)
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $n))))

;; Checks a method's argument count and keywords, raising TypeError with CPython's wording.
;; style 0: `str.name() takes no arguments (n given)` / `takes exactly one argument`;
;; 1: `name expected at least/most k argument(s), got n`; 2: `name() takes at least/most k
;; argument(s) (n given)`; 3: as 2, but keywords are the method's own business.
;; Returns the number of positional arguments.
(func $str_arity (param $args i32) (param $kwargs i32) (param $name i32) (param $style i32)
    (param $min i32) (param $max i32) (result i32)
  (local $n i32) (local $sb i32) (local $k i32)
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.and (i32.ne (local.get $style) (i32.const 3))
        (i32.and (i32.ne (local.get $kwargs) (i32.const 0))
          (i32.ne (i32.load offset=4 (select (local.get $kwargs) (local.get $args) (local.get $kwargs))) (i32.const 0))))
    (then
      (local.set $sb (call $sb_new))
      (if (i32.ne (local.get $style) (i32.const 2)) (then (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_prefix)))))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (local.get $name)))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_no_kw)))
      (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb)))))
  (if (i32.and (i32.ge_u (local.get $n) (local.get $min)) (i32.le_u (local.get $n) (local.get $max)))
    (then (return (local.get $n))))
  (local.set $sb (call $sb_new))
  (local.set $k (select (local.get $min) (local.get $max) (i32.lt_u (local.get $n) (local.get $min))))
  (if (i32.eqz (local.get $style))
    (then
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_prefix)))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (local.get $name)))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u
        (select (global.get $s_str_a_none) (global.get $s_str_a_one) (i32.eqz (local.get $max)))))
      (call $str_num (local.get $sb) (local.get $n))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_given))))
    (else
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (local.get $name)))
      (if (i32.eq (local.get $style) (i32.const 1))
        (then
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u
            (select (global.get $s_str_a_exp_least) (global.get $s_str_a_exp_most) (i32.lt_u (local.get $n) (local.get $min)))))
          (call $str_num (local.get $sb) (local.get $k))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_argument)))
          (if (i32.ne (local.get $k) (i32.const 1)) (then (call $sb_push_byte (local.get $sb) (i32.const 115))))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_got)))
          (call $str_num (local.get $sb) (local.get $n)))
        (else
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u
            (select (global.get $s_str_a_least) (global.get $s_str_a_most) (i32.lt_u (local.get $n) (local.get $min)))))
          (call $str_num (local.get $sb) (local.get $k))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_argument)))
          (if (i32.ne (local.get $k) (i32.const 1)) (then (call $sb_push_byte (local.get $sb) (i32.const 115))))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_paren)))
          (call $str_num (local.get $sb) (local.get $n))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_str_a_given)))))))
  (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb)))
  (unreachable))

;; Positional argument i, or 0 when absent.
(func $str_arg (param $args i32) (param $i i32) (result i64)
  (if (result i64) (i32.lt_u (local.get $i) (i32.load offset=4 (local.get $args)))
    (then (i64.load offset=8 (i32.add (local.get $args) (i32.shl (local.get $i) (i32.const 3)))))
    (else (i64.const 0))))

;; Merges keyword arguments k1 (position 0) and k2 (position 1, or 0 for none) of method
;; `name` into a fresh 2-slot array of arguments; returns its address (0 slots are absent).
(func $str_kwmerge (param $args i32) (param $kwargs i32) (param $name i32) (param $k1 i32) (param $k2 i32) (result i32)
  (local $out i32) (local $e i32) (local $end i32) (local $key i64) (local $slot i32)
  (local.set $out (call $alloc (i32.const 16)))
  (i64.store (local.get $out) (call $str_arg (local.get $args) (i32.const 0)))
  (i64.store offset=8 (local.get $out) (call $str_arg (local.get $args) (i32.const 1)))
  (if (i32.eqz (local.get $kwargs)) (then (return (local.get $out))))
  (local.set $e (i32.load offset=8 (local.get $kwargs)))
  (local.set $end (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $kwargs)) (i32.const 24))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $e) (local.get $end)))
      (local.set $key (i64.load offset=8 (local.get $e)))
      (if (i64.ne (local.get $key) (i64.const 0))
        (then
          (local.set $slot (i32.const -1))
          (if (i32.eq (call $tid (local.get $key)) (i32.const TYPE_STR))
            (then
              (if (call $str_eq (local.get $key) (i64.extend_i32_u (local.get $k1))) (then (local.set $slot (i32.const 0))))
              (if (local.get $k2)
                (then (if (call $str_eq (local.get $key) (i64.extend_i32_u (local.get $k2))) (then (local.set $slot (i32.const 1))))))))
          (if (i32.lt_s (local.get $slot) (i32.const 0))
            (then (call $raise_msg (global.get $t_TypeError)
              (call $msg2 (global.get $s_str_kw_invalid) (local.get $key) (i64.extend_i32_u (local.get $name))))))
          (if (i64.ne (i64.load (i32.add (local.get $out) (i32.shl (local.get $slot) (i32.const 3)))) (i64.const 0))
            (then (call $raise_msg (global.get $t_TypeError)
              (call $msg2 (global.get $s_str_kw_twice) (i64.extend_i32_u (local.get $name)) (local.get $key)))))
          (i64.store (i32.add (local.get $out) (i32.shl (local.get $slot) (i32.const 3))) (i64.load offset=16 (local.get $e)))))
      (local.set $e (i32.add (local.get $e) (i32.const 24)))
      (br $each)))
  (local.get $out))

;; ---- character classes (ASCII and Latin-1, with common ranges beyond) ----------------------

(func $str_is_space (param $c i32) (result i32)
  (if (i32.lt_u (local.get $c) (i32.const 0x80))
    (then (return (i32.or (i32.eq (local.get $c) (i32.const 32))
      (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4))
      ))))
  (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x85)) (i32.eq (local.get $c) (i32.const 0xA0)))
    (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x1680)) (i32.le_u (i32.sub (local.get $c) (i32.const 0x2000)) (i32.const 10)))
      (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x2028)) (i32.eq (local.get $c) (i32.const 0x2029)))
        (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x202F)) (i32.eq (local.get $c) (i32.const 0x205F)))
          (i32.eq (local.get $c) (i32.const 0x3000)))))))

;; isspace also counts \x1c-\x1f (ASCII separators).
(func $str_is_ws (param $c i32) (result i32)
  (i32.or (call $str_is_space (local.get $c)) (i32.le_u (i32.sub (local.get $c) (i32.const 0x1C)) (i32.const 3))))

;; Simple case mappings. Latin-1 is computed; above it the ranges in $s_case_lower/$s_case_upper
;; (see str.strings) answer.
(func $str_lower_cp (param $c i32) (result i32)
  (if (i32.lt_u (local.get $c) (i32.const 0x80))
    (then (return (select (i32.add (local.get $c) (i32.const 32)) (local.get $c)
      (i32.le_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 25))))))
  (if (i32.lt_u (local.get $c) (i32.const 0xC0)) (then (return (local.get $c))))
  (if (i32.le_u (local.get $c) (i32.const 0xDE))
    (then (return (select (local.get $c) (i32.add (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 0xD7))))))
  (if (i32.lt_u (local.get $c) (i32.const 0x100)) (then (return (local.get $c))))
  ;; İ lowers to "i̇" (two code points, see $str_push_lower); its simple mapping is i.
  (if (i32.eq (local.get $c) (i32.const 0x130)) (then (return (i32.const 105))))
  (call $str_case_range (global.get $s_case_lower) (local.get $c)))

(func $str_upper_cp (param $c i32) (result i32)
  (if (i32.lt_u (local.get $c) (i32.const 0x80))
    (then (return (select (i32.sub (local.get $c) (i32.const 32)) (local.get $c)
      (i32.le_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 25))))))
  (if (i32.eq (local.get $c) (i32.const 0xB5)) (then (return (i32.const 0x39C))))
  (if (i32.lt_u (local.get $c) (i32.const 0xE0)) (then (return (local.get $c))))
  (if (i32.le_u (local.get $c) (i32.const 0xFE))
    (then (return (select (local.get $c) (i32.sub (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 0xF7))))))
  (if (i32.eq (local.get $c) (i32.const 0xFF)) (then (return (i32.const 0x178))))
  (call $str_case_range (global.get $s_case_upper) (local.get $c)))

;; Looks `c` up in a range table: 12-byte records (three 4-byte UTF-8 code points) sorted by
;; start: start + 0x10000, end + 0x10000, 0x40000 + 2 * delta + (1 when only every other code
;; point of the range maps). Answers c + delta, or c when no range holds it.
(func $str_case_range (param $t i32) (param $c i32) (result i32)
  (local $r i32) (local $start i32) (local $f i32)
  (local.set $r (call $str_range_record (local.get $t) (i32.const 12) (local.get $c)))
  (if (i32.eqz (local.get $r)) (then (return (local.get $c))))
  (local.set $start (i32.sub (call $str_cp_at (local.get $r)) (i32.const 0x10000)))
  (if (i32.gt_u (local.get $c) (i32.sub (call $str_cp_at (i32.add (local.get $r) (i32.const 4))) (i32.const 0x10000)))
    (then (return (local.get $c))))
  (local.set $f (i32.sub (call $str_cp_at (i32.add (local.get $r) (i32.const 8))) (i32.const 0x40000)))
  (if (i32.and (i32.and (local.get $f) (i32.const 1)) (i32.sub (local.get $c) (local.get $start)))
    (then (return (local.get $c))))
  (i32.add (local.get $c) (i32.shr_s (local.get $f) (i32.const 1))))

;; In a table of `w`-byte records that start with a 4-byte code point (+ 0x10000), sorted: the
;; address of the last record whose start is <= c, or 0 when there is none.
(func $str_range_record (param $t i32) (param $w i32) (param $c i32) (result i32)
  (local $lo i32) (local $hi i32) (local $mid i32)
  (local.set $hi (i32.div_u (i32.load offset=4 (local.get $t)) (local.get $w)))
  (local.set $t (i32.add (local.get $t) (i32.const 16)))
  (block $found
    (loop $halve
      (br_if $found (i32.ge_u (local.get $lo) (local.get $hi)))
      (local.set $mid (i32.shr_u (i32.add (local.get $lo) (local.get $hi)) (i32.const 1)))
      (if (i32.le_u (i32.sub (call $str_cp_at (i32.add (local.get $t) (i32.mul (local.get $mid) (local.get $w))))
                      (i32.const 0x10000))
                    (local.get $c))
        (then (local.set $lo (i32.add (local.get $mid) (i32.const 1))))
        (else (local.set $hi (local.get $mid))))
      (br $halve)))
  (if (i32.eqz (local.get $lo)) (then (return (i32.const 0))))
  (i32.add (local.get $t) (i32.mul (i32.sub (local.get $lo) (i32.const 1)) (local.get $w))))

;; Full mappings: records of the key + 0x10000 (a 4-byte code point), the mapping, byte 1,
;; sorted by key. The address of c's mapping (ended by byte 1), or 0 when c has no record.
(func $str_full_find (param $t i32) (param $c i32) (result i32)
  (local $p i32) (local $end i32) (local $key i32)
  (local.set $p (i32.add (local.get $t) (i32.const 16)))
  (local.set $end (i32.add (local.get $p) (i32.load offset=4 (local.get $t))))
  (block $absent
    (loop $each
      (br_if $absent (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $key (i32.sub (call $str_cp_at (local.get $p)) (i32.const 0x10000)))
      (br_if $absent (i32.gt_u (local.get $key) (local.get $c)))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (if (i32.eq (local.get $key) (local.get $c)) (then (return (local.get $p))))
      (loop $scan
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br_if $scan (i32.ne (i32.load8_u (i32.sub (local.get $p) (i32.const 1))) (i32.const 1))))
      (br $each)))
  (i32.const 0))

(func $str_has_full (param $t i32) (param $c i32) (result i32)
  (i32.ne (call $str_full_find (local.get $t) (local.get $c)) (i32.const 0)))

;; Pushes c's full mapping from table `t`; 0 when the table has none for c.
(func $str_case_full (param $sb i32) (param $t i32) (param $c i32) (result i32)
  (local $p i32) (local $q i32)
  (local.set $p (call $str_full_find (local.get $t) (local.get $c)))
  (if (i32.eqz (local.get $p)) (then (return (i32.const 0))))
  (local.set $q (local.get $p))
  (loop $scan
    (if (i32.ne (i32.load8_u (local.get $q)) (i32.const 1))
      (then (local.set $q (i32.add (local.get $q) (i32.const 1))) (br $scan))))
  (call $sb_push_bytes (local.get $sb) (local.get $p) (i32.sub (local.get $q) (local.get $p)))
  (i32.const 1))

;; Titlecase letters (category Lt): neither upper nor lower case.
(func $str_is_title_cp (param $c i32) (result i32)
  (if (i32.lt_u (local.get $c) (i32.const 0x1C5)) (then (return (i32.const 0))))
  (if (i32.le_u (local.get $c) (i32.const 0x1F2))
    (then (return (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x1C5)) (i32.eq (local.get $c) (i32.const 0x1C8)))
      (i32.or (i32.eq (local.get $c) (i32.const 0x1CB)) (i32.eq (local.get $c) (i32.const 0x1F2)))))))
  (if (i32.lt_u (local.get $c) (i32.const 0x1F88)) (then (return (i32.const 0))))
  (if (i32.le_u (local.get $c) (i32.const 0x1FAF))
    (then (return (i32.ge_u (i32.and (local.get $c) (i32.const 15)) (i32.const 8)))))
  (i32.or (i32.eq (local.get $c) (i32.const 0x1FBC))
    (i32.or (i32.eq (local.get $c) (i32.const 0x1FCC)) (i32.eq (local.get $c) (i32.const 0x1FFC)))))

;; Upper and lower case are judged by the mappings (a letter that lowers is upper case); CPython
;; reads Unicode's properties, which differ for a few uncased-mapping letters (𝐀, ℂ, ª).
(func $str_is_upper_cp (param $c i32) (result i32)
  (i32.and (i32.ne (call $str_lower_cp (local.get $c)) (local.get $c))
    (i32.eqz (call $str_is_title_cp (local.get $c)))))

(func $str_is_lower_cp (param $c i32) (result i32)
  (if (call $str_is_title_cp (local.get $c)) (then (return (i32.const 0))))
  (if (i32.ne (call $str_upper_cp (local.get $c)) (local.get $c)) (then (return (i32.const 1))))
  (if (i32.lt_u (local.get $c) (i32.const 0x100))
    (then (return (i32.or (i32.eq (local.get $c) (i32.const 0xDF))
      (i32.or (i32.eq (local.get $c) (i32.const 0xAA)) (i32.eq (local.get $c) (i32.const 0xBA)))))))
  ;; Letters whose only upper case is several code points (ŉ, ǰ, ﬁ) are lower case too.
  (if (i32.or (i32.lt_u (local.get $c) (i32.const 0x2000)) (i32.le_u (i32.sub (local.get $c) (i32.const 0xFB00)) (i32.const 0x17)))
    (then (return (call $str_has_full (global.get $s_case_full_upper) (local.get $c)))))
  (i32.const 0))

(func $str_is_cased_cp (param $c i32) (result i32)
  (i32.or (i32.or (call $str_is_upper_cp (local.get $c)) (call $str_is_lower_cp (local.get $c)))
    (call $str_is_title_cp (local.get $c))))

;; Case-ignorable code points for the final-sigma rule (apostrophes, periods, colons, modifier
;; letters and combining marks; an approximation of Unicode's Case_Ignorable property).
(func $str_is_case_ignorable (param $c i32) (result i32)
  (if (i32.lt_u (local.get $c) (i32.const 0x80))
    (then (return (i32.or (i32.or (i32.eq (local.get $c) (i32.const 39)) (i32.eq (local.get $c) (i32.const 46)))
      (i32.or (i32.eq (local.get $c) (i32.const 58)) (i32.or (i32.eq (local.get $c) (i32.const 94)) (i32.eq (local.get $c) (i32.const 96))))))))
  (i32.or
    (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0xA8)) (i32.eq (local.get $c) (i32.const 0xAD)))
      (i32.or (i32.eq (local.get $c) (i32.const 0xAF)) (i32.or (i32.eq (local.get $c) (i32.const 0xB4))
        (i32.or (i32.eq (local.get $c) (i32.const 0xB7)) (i32.eq (local.get $c) (i32.const 0xB8))))))
    (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0x2B0)) (i32.const 0xBF))
      (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0x200B)) (i32.const 4))
        (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0x2018)) (i32.const 1))
          (i32.or (i32.eq (local.get $c) (i32.const 0x2024)) (i32.eq (local.get $c) (i32.const 0x2027))))))))

(func $str_is_alpha_cp (param $c i32) (result i32)
  (if (i32.lt_u (local.get $c) (i32.const 0x80))
    (then (return (i32.le_u (i32.sub (i32.or (local.get $c) (i32.const 32)) (i32.const 97)) (i32.const 25)))))
  (if (i32.lt_u (local.get $c) (i32.const 0xC0))
    (then (return (i32.or (i32.eq (local.get $c) (i32.const 0xAA))
      (i32.or (i32.eq (local.get $c) (i32.const 0xB5)) (i32.eq (local.get $c) (i32.const 0xBA)))))))
  (if (i32.lt_u (local.get $c) (i32.const 0x100))
    (then (return (i32.and (i32.ne (local.get $c) (i32.const 0xD7)) (i32.ne (local.get $c) (i32.const 0xF7))))))
  (if (i32.le_u (local.get $c) (i32.const 0x2C1)) (then (return (i32.const 1))))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x386)) (i32.le_u (local.get $c) (i32.const 0x3FF)))
    (then (return (i32.and (i32.ne (local.get $c) (i32.const 0x387)) (i32.ne (local.get $c) (i32.const 0x3F6))))))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x400)) (i32.le_u (local.get $c) (i32.const 0x52F)))
    (then (return (i32.gt_u (i32.sub (local.get $c) (i32.const 0x482)) (i32.const 7)))))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x5D0)) (i32.le_u (local.get $c) (i32.const 0x5EA))) (then (return (i32.const 1))))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x620)) (i32.le_u (local.get $c) (i32.const 0x64A))) (then (return (i32.const 1))))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x3041)) (i32.le_u (local.get $c) (i32.const 0x30FA)))
    (then (return (i32.and (i32.ne (local.get $c) (i32.const 0x30A0)) (i32.gt_u (i32.sub (local.get $c) (i32.const 0x3097)) (i32.const 5))))))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x4E00)) (i32.le_u (local.get $c) (i32.const 0x9FFF))) (then (return (i32.const 1))))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 0xAC00)) (i32.le_u (local.get $c) (i32.const 0xD7A3))) (then (return (i32.const 1))))
  ;; Every cased letter (Latin Extended Additional, Armenian, Georgian, fullwidth, ...), but not
  ;; the cased marks and symbols: ypogegrammeni, Roman numerals, circled letters.
  (if (i32.or (i32.eq (local.get $c) (i32.const 0x345))
        (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0x2160)) (i32.const 0x1F))
          (i32.le_u (i32.sub (local.get $c) (i32.const 0x24B6)) (i32.const 0x33))))
    (then (return (i32.const 0))))
  (call $str_is_cased_cp (local.get $c)))

;; The value of decimal digit `c` (any Unicode Nd digit), or -1.
(func $str_decimal_value (param $c i32) (result i32)
  (local $d i32) (local $end i32) (local $z i32)
  (if (i32.lt_u (local.get $c) (i32.const 0x80))
    (then (return (select (i32.sub (local.get $c) (i32.const 48)) (i32.const -1)
      (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9))))))
  ;; Skip the table's first zero, ASCII '0'.
  (local.set $d (i32.add (global.get $s_str_decimal_zeros) (i32.const 17)))
  (local.set $end (i32.add (i32.add (global.get $s_str_decimal_zeros) (i32.const 16))
    (i32.load offset=4 (global.get $s_str_decimal_zeros))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
      (local.set $z (call $str_cp_at (local.get $d)))
      (br_if $done (i32.gt_u (local.get $z) (local.get $c)))
      (if (i32.le_u (i32.sub (local.get $c) (local.get $z)) (i32.const 9))
        (then (return (i32.sub (local.get $c) (local.get $z)))))
      (local.set $d (i32.add (local.get $d) (call $str_seq_len (i32.load8_u (local.get $d)))))
      (br $each)))
  (i32.const -1))

;; The text int() and float() parse, as CPython makes it: every Unicode decimal digit becomes its
;; ASCII digit, every Unicode space a space, any other non-ASCII character '?' (so it fails).
(func $str_ascii_number (param $s i64) (result i64)
  (local $p i32) (local $d i32) (local $end i32) (local $r i32) (local $o i32) (local $c i32) (local $v i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (if (call $str_is_ascii (local.get $p)) (then (return (local.get $s))))
  (local.set $r (call $str_alloc (i32.load offset=8 (local.get $p)) (i32.load offset=8 (local.get $p))))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $end (i32.add (local.get $d) (i32.load offset=4 (local.get $p))))
  (local.set $o (i32.add (local.get $r) (i32.const 16)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
      (local.set $c (call $str_cp_at (local.get $d)))
      (local.set $d (i32.add (local.get $d) (call $str_seq_len (i32.load8_u (local.get $d)))))
      (if (i32.ge_u (local.get $c) (i32.const 0x80))
        (then
          (local.set $v (call $str_decimal_value (local.get $c)))
          (local.set $c
            (if (result i32) (i32.ge_s (local.get $v) (i32.const 0))
              (then (i32.add (local.get $v) (i32.const 48)))
              (else (select (i32.const 32) (i32.const 63) (call $str_is_space (local.get $c))))))))
      (i32.store8 (local.get $o) (local.get $c))
      (local.set $o (i32.add (local.get $o) (i32.const 1)))
      (br $each)))
  (i64.extend_i32_u (local.get $r)))

;; 1: decimal (isdecimal), 2: other digit (isdigit), 3: other numeric (isnumeric), else 0.
(func $str_num_kind (param $c i32) (result i32)
  (if (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9)) (then (return (i32.const 1))))
  (if (i32.lt_u (local.get $c) (i32.const 0xB2)) (then (return (i32.const 0))))
  (if (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0xB2)) (i32.const 1)) (i32.eq (local.get $c) (i32.const 0xB9)))
    (then (return (i32.const 2))))
  (if (i32.le_u (i32.sub (local.get $c) (i32.const 0xBC)) (i32.const 2)) (then (return (i32.const 3))))
  (if (i32.ge_s (call $str_decimal_value (local.get $c)) (i32.const 0)) (then (return (i32.const 1))))
  (if (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0x2070)) (i32.const 9))
        (i32.le_u (i32.sub (local.get $c) (i32.const 0x2080)) (i32.const 9)))
    (then (return (select (i32.const 0) (i32.const 2)
      (i32.or (i32.eq (local.get $c) (i32.const 0x2071)) (i32.or (i32.eq (local.get $c) (i32.const 0x2072)) (i32.eq (local.get $c) (i32.const 0x2073))))))))
  (if (i32.le_u (i32.sub (local.get $c) (i32.const 0x2460)) (i32.const 8)) (then (return (i32.const 2))))
  (if (i32.le_u (i32.sub (local.get $c) (i32.const 0x2150)) (i32.const 0x38)) (then (return (i32.const 3))))
  (i32.const 0))

;; ---- methods ------------------------------------------------------------------------------

;; Whether code point c is in the str `chars`.
(func $str_in_chars (param $chars i32) (param $c i32) (result i32)
  (local $d i32) (local $end i32)
  (local.set $d (i32.add (local.get $chars) (i32.const 16)))
  (local.set $end (i32.add (local.get $d) (i32.load offset=4 (local.get $chars))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
      (if (i32.eq (call $str_cp_at (local.get $d)) (local.get $c)) (then (return (i32.const 1))))
      (local.set $d (i32.add (local.get $d) (call $str_seq_len (i32.load8_u (local.get $d)))))
      (br $each)))
  (i32.const 0))

;; strip (mode 3), lstrip (1), rstrip (2); chars is a str address or 0 for whitespace.
(func $str_strip (param $s i64) (param $chars i32) (param $mode i32) (result i64)
  (local $p i32) (local $d i32) (local $b0 i32) (local $b1 i32) (local $c i32) (local $o i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $b1 (i32.load offset=4 (local.get $p)))
  ;; ASCII text and whitespace: test bytes in place (the general loops below decode and
  ;; classify each code point through three calls).
  (if (i32.and (i32.eqz (local.get $chars)) (call $str_is_ascii (local.get $p)))
    (then
      (if (i32.and (local.get $mode) (i32.const 1))
        (then
          (block $done
            (loop $each
              (br_if $done (i32.ge_u (local.get $b0) (local.get $b1)))
              (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $b0))))
              (br_if $done (i32.eqz (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4)) (i32.le_u (i32.sub (local.get $c) (i32.const 0x1C)) (i32.const 3))))))
              (local.set $b0 (i32.add (local.get $b0) (i32.const 1)))
              (br $each)))))
      (if (i32.and (local.get $mode) (i32.const 2))
        (then
          (block $done
            (loop $each
              (br_if $done (i32.le_u (local.get $b1) (local.get $b0)))
              (local.set $c (i32.load8_u (i32.sub (i32.add (local.get $d) (local.get $b1)) (i32.const 1))))
              (br_if $done (i32.eqz (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4)) (i32.le_u (i32.sub (local.get $c) (i32.const 0x1C)) (i32.const 3))))))
              (local.set $b1 (i32.sub (local.get $b1) (i32.const 1)))
              (br $each)))))
      (return (call $str_sub (local.get $p) (local.get $b0) (local.get $b1)
        (i32.sub (local.get $b1) (local.get $b0))))))
  (if (i32.and (local.get $mode) (i32.const 1))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $b0) (local.get $b1)))
          (local.set $c (call $str_cp_at (i32.add (local.get $d) (local.get $b0))))
          (br_if $done (i32.eqz
            (if (result i32) (local.get $chars)
              (then (call $str_in_chars (local.get $chars) (local.get $c)))
              (else (call $str_is_ws (local.get $c))))))
          (local.set $b0 (i32.add (local.get $b0) (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $b0))))))
          (br $each)))))
  (if (i32.and (local.get $mode) (i32.const 2))
    (then
      (block $done
        (loop $each
          (br_if $done (i32.le_u (local.get $b1) (local.get $b0)))
          (local.set $o (call $str_back (local.get $d) (local.get $b1) (i32.const 1)))
          (local.set $c (call $str_cp_at (i32.add (local.get $d) (local.get $o))))
          (br_if $done (i32.eqz
            (if (result i32) (local.get $chars)
              (then (call $str_in_chars (local.get $chars) (local.get $c)))
              (else (call $str_is_ws (local.get $c))))))
          (local.set $b1 (local.get $o))
          (br $each)))))
  (call $str_sub (local.get $p) (local.get $b0) (local.get $b1) (i32.const -1)))

;; The ASCII text between byte offsets b0 < b1 of the data at d, as a new str (one character:
;; the shared one-character str).
(func $str_ascii_word (param $d i32) (param $b0 i32) (param $b1 i32) (result i64)
  (local $len i32) (local $s i32)
  (local.set $len (i32.sub (local.get $b1) (local.get $b0)))
  (if (i32.eq (local.get $len) (i32.const 1))
    (then (return (call $str_ascii_char (i32.load8_u (i32.add (local.get $d) (local.get $b0)))))))
  (local.set $s (call $str_alloc_filled (i64.extend_i32_u (local.get $len)) (local.get $len)))
  (call $memcpy (i32.add (local.get $s) (i32.const 16)) (i32.add (local.get $d) (local.get $b0)) (local.get $len))
  (i64.extend_i32_u (local.get $s)))

;; ASCII text eight bytes at a time. For the eight bytes x at d + o (o a multiple of 8, the str
;; data n bytes long), the bytes of a class as the high bit of each byte. Per byte v (< 0x80,
;; ASCII), (v | 0x80) - k is at least 0 and so never borrows from the next byte, and its high
;; bit is set exactly when v >= k: a range of bytes is the difference of two such tests, made
;; for eight bytes at once. The load stays inside the str even past its end: objects are
;; 8-aligned and their allocations end on a multiple of 8 (docs/abi.md); what it reads there is
;; masked off (the bytes from n - o on). The two classes are written out in full, not shared
;; through helpers: these are leaf functions, called once per chunk, and a call inside one
;; costs more than its arithmetic.

;; What str.split() splits on: \t \n \v \f \r (0x09-0x0D), \x1c-\x1f and space (0x1C-0x20).
;; Bytes past the end count as whitespace.
(func $ascii_ws8 (param $d i32) (param $o i32) (param $n i32) (result i64)
  (local $y i64)
  (local.set $y (i64.or (i64.load (i32.add (local.get $d) (local.get $o))) (i64.const 0x8080808080808080)))
  (i64.or
    (i64.and
      (i64.or
        (i64.xor (i64.sub (local.get $y) (i64.const 0x0909090909090909)) (i64.sub (local.get $y) (i64.const 0x0E0E0E0E0E0E0E0E)))
        (i64.xor (i64.sub (local.get $y) (i64.const 0x1C1C1C1C1C1C1C1C)) (i64.sub (local.get $y) (i64.const 0x2121212121212121))))
      (i64.const 0x8080808080808080))
    (if (result i64) (i32.lt_u (i32.sub (local.get $n) (local.get $o)) (i32.const 8))
      (then (i64.shl (i64.const 0x8080808080808080)
        (i64.extend_i32_u (i32.shl (i32.sub (local.get $n) (local.get $o)) (i32.const 3)))))
      (else (i64.const 0)))))

;; What str.splitlines() splits on: \n \v \f \r (0x0A-0x0D) and \x1c-\x1e. Bytes past the
;; end are not breaks.
(func $ascii_breaks8 (param $d i32) (param $o i32) (param $n i32) (result i64)
  (local $y i64) (local $m i64)
  (local.set $y (i64.or (i64.load (i32.add (local.get $d) (local.get $o))) (i64.const 0x8080808080808080)))
  (local.set $m (i64.and
    (i64.or
      (i64.xor (i64.sub (local.get $y) (i64.const 0x0A0A0A0A0A0A0A0A)) (i64.sub (local.get $y) (i64.const 0x0E0E0E0E0E0E0E0E)))
      (i64.xor (i64.sub (local.get $y) (i64.const 0x1C1C1C1C1C1C1C1C)) (i64.sub (local.get $y) (i64.const 0x1F1F1F1F1F1F1F1F))))
    (i64.const 0x8080808080808080)))
  (if (result i64) (i32.lt_u (i32.sub (local.get $n) (local.get $o)) (i32.const 8))
    (then (i64.and (local.get $m) (i64.xor (i64.const -1) (i64.shl (i64.const 0x8080808080808080)
      (i64.extend_i32_u (i32.shl (i32.sub (local.get $n) (local.get $o)) (i32.const 3)))))))
    (else (local.get $m))))

;; The number of words (maximal runs of non-whitespace) in the ASCII str data [d, d+n): the
;; word starts, non-whitespace bytes after whitespace, counted eight at a time.
(func $ascii_word_count (param $d i32) (param $n i32) (result i32)
  (local $o i32) (local $ws i64) (local $carry i64) (local $count i64)
  ;; The high bit of byte 0: "the byte before is whitespace" (the text's start counts as such).
  (local.set $carry (i64.const 0x80))
  (block $done
    (loop $chunks
      (br_if $done (i32.ge_u (local.get $o) (local.get $n)))
      (local.set $ws (call $ascii_ws8 (local.get $d) (local.get $o) (local.get $n)))
      (local.set $count (i64.add (local.get $count) (i64.popcnt
        (i64.and (i64.xor (local.get $ws) (i64.const 0x8080808080808080))
          (i64.or (i64.shl (local.get $ws) (i64.const 8)) (local.get $carry))))))
      (local.set $carry (i64.shr_u (local.get $ws) (i64.const 56)))
      (local.set $o (i32.add (local.get $o) (i32.const 8)))
      (br $chunks)))
  (i32.wrap_i64 (local.get $count)))

;; split(None, max) of the ASCII str p (max < 0: no limit). Words are found eight bytes at a
;; time: in each chunk the word starts (non-whitespace after whitespace) and ends (whitespace
;; after non-whitespace) are bits, taken lowest first. Without a limit the list is made at its
;; final size and the words are stored straight in.
(func $str_split_ascii (param $p i32) (param $max i64) (result i64)
  (local $d i32) (local $n i32) (local $l i32) (local $o i32) (local $at i32) (local $b0 i32)
  (local $bit i32) (local $counted i32)
  (local $ws i64) (local $prev i64) (local $starts i64) (local $events i64) (local $carry i64)
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $counted (i64.ge_s (local.get $max) (i64.const 0x7FFFFFFF)))
  (local.set $l (call $str_list_new
    (if (result i32) (local.get $counted)
      (then (call $ascii_word_count (local.get $d) (local.get $n)))
      (else (i32.const 4)))))
  (local.set $carry (i64.const 0x80))
  (block $finished
    (block $scanned
      (loop $chunks
        (br_if $scanned (i32.ge_u (local.get $o) (local.get $n)))
        (local.set $ws (call $ascii_ws8 (local.get $d) (local.get $o) (local.get $n)))
        (local.set $prev (i64.or (i64.shl (local.get $ws) (i64.const 8)) (local.get $carry)))
        (local.set $starts (i64.and (i64.xor (local.get $ws) (i64.const 0x8080808080808080)) (local.get $prev)))
        (local.set $events (i64.or (local.get $starts)
          (i64.and (local.get $ws) (i64.xor (local.get $prev) (i64.const 0x8080808080808080)))))
        (block $chunk_done
          (loop $each
            (br_if $chunk_done (i64.eqz (local.get $events)))
            (local.set $bit (i32.wrap_i64 (i64.ctz (local.get $events))))
            (local.set $at (i32.add (local.get $o) (i32.shr_u (local.get $bit) (i32.const 3))))
            (if (i64.ne (i64.and (local.get $starts) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $bit)))) (i64.const 0))
              (then
                (local.set $b0 (local.get $at))
                ;; The limit reached: the rest of the text, from this word on, is the last item.
                (if (i64.eqz (local.get $max))
                  (then
                    (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (local.get $b0) (local.get $n)
                      (i32.sub (local.get $n) (local.get $b0))))
                    (br $finished))))
              (else
                (if (local.get $counted)
                  (then
                    (i64.store (i32.add (i32.load offset=12 (local.get $l)) (i32.shl (i32.load offset=4 (local.get $l)) (i32.const 3)))
                      (call $str_ascii_word (local.get $d) (local.get $b0) (local.get $at)))
                    (i32.store offset=4 (local.get $l) (i32.add (i32.load offset=4 (local.get $l)) (i32.const 1))))
                  (else (call $str_list_push (local.get $l) (call $str_ascii_word (local.get $d) (local.get $b0) (local.get $at)))))
                (local.set $max (i64.sub (local.get $max) (i64.const 1)))))
            (local.set $events (i64.and (local.get $events) (i64.sub (local.get $events) (i64.const 1))))
            (br $each)))
        (local.set $carry (i64.shr_u (local.get $ws) (i64.const 56)))
        (local.set $o (i32.add (local.get $o) (i32.const 8)))
        (br $chunks)))
    ;; A word running to the end of a text whose length is a multiple of 8 (a shorter last
    ;; chunk ends its word with the whitespace past the end).
    (if (i64.eqz (local.get $carry))
      (then (call $str_list_push (local.get $l) (call $str_ascii_word (local.get $d) (local.get $b0) (local.get $n))))))
  (i64.extend_i32_u (local.get $l)))

;; split / rsplit.
(func $str_split (param $s i64) (param $sep i64) (param $max i64) (param $right i32) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $l i32) (local $q i32) (local $ql i32)
  (local $b0 i32) (local $b1 i32) (local $at i32) (local $o i32) (local $c i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (if (i64.lt_s (local.get $max) (i64.const 0)) (then (local.set $max (i64.const 0x7FFFFFFF))))
  (if (i64.eqz (local.get $sep))
    (then
      ;; split() of ASCII text, eight bytes at a time ($ascii_ws8): the list is made at its
      ;; final size (a first pass counts the words) and each word is made directly.
      (if (i32.and (i32.eqz (local.get $right)) (call $str_is_ascii (local.get $p)))
        (then (return (call $str_split_ascii (local.get $p) (local.get $max)))))
      (local.set $l (call $str_list_new (i32.const 4)))
      (if (i32.eqz (local.get $right))
        (then
          (block $done
            (loop $each
              ;; skip whitespace
              (block $ws
                (loop $skip
                  (br_if $ws (i32.ge_u (local.get $b0) (local.get $n)))
                  (br_if $ws (i32.eqz (call $str_is_ws (call $str_cp_at (i32.add (local.get $d) (local.get $b0))))))
                  (local.set $b0 (i32.add (local.get $b0) (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $b0))))))
                  (br $skip)))
              (br_if $done (i32.ge_u (local.get $b0) (local.get $n)))
              (if (i64.eqz (local.get $max))
                (then
                  (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (local.get $b0) (local.get $n) (i32.const -1)))
                  (br $done)))
              (local.set $b1 (local.get $b0))
              (block $word
                (loop $scan
                  (br_if $word (i32.ge_u (local.get $b1) (local.get $n)))
                  (br_if $word (call $str_is_ws (call $str_cp_at (i32.add (local.get $d) (local.get $b1)))))
                  (local.set $b1 (i32.add (local.get $b1) (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $b1))))))
                  (br $scan)))
              (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (local.get $b0) (local.get $b1) (i32.const -1)))
              (local.set $max (i64.sub (local.get $max) (i64.const 1)))
              (local.set $b0 (local.get $b1))
              (br $each)))
          (return (i64.extend_i32_u (local.get $l)))))
      ;; rsplit(): from the right.
      (local.set $b1 (local.get $n))
      (block $done
        (loop $each
          (block $ws
            (loop $skip
              (br_if $ws (i32.eqz (local.get $b1)))
              (local.set $o (call $str_back (local.get $d) (local.get $b1) (i32.const 1)))
              (br_if $ws (i32.eqz (call $str_is_ws (call $str_cp_at (i32.add (local.get $d) (local.get $o))))))
              (local.set $b1 (local.get $o))
              (br $skip)))
          (br_if $done (i32.eqz (local.get $b1)))
          (if (i64.eqz (local.get $max))
            (then
              (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (i32.const 0) (local.get $b1) (i32.const -1)))
              (br $done)))
          (local.set $b0 (local.get $b1))
          (block $word
            (loop $scan
              (br_if $word (i32.eqz (local.get $b0)))
              (local.set $o (call $str_back (local.get $d) (local.get $b0) (i32.const 1)))
              (br_if $word (call $str_is_ws (call $str_cp_at (i32.add (local.get $d) (local.get $o)))))
              (local.set $b0 (local.get $o))
              (br $scan)))
          (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (local.get $b0) (local.get $b1) (i32.const -1)))
          (local.set $max (i64.sub (local.get $max) (i64.const 1)))
          (local.set $b1 (local.get $b0))
          (br $each)))
      (call $str_list_reverse (local.get $l))
      (return (i64.extend_i32_u (local.get $l)))))
  (local.set $l (call $str_list_new (i32.const 4)))
  (local.set $q (i32.wrap_i64 (local.get $sep)))
  (local.set $ql (i32.load offset=4 (local.get $q)))
  (if (i32.eqz (local.get $ql)) (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_empty_sep))))
  (if (i32.eqz (local.get $right))
    (then
      (block $done
        (loop $each
          (br_if $done (i64.eqz (local.get $max)))
          (local.set $at (call $str_find_bytes (i32.add (local.get $d) (local.get $b0)) (i32.sub (local.get $n) (local.get $b0))
            (i32.add (local.get $q) (i32.const 16)) (local.get $ql)))
          (br_if $done (i32.lt_s (local.get $at) (i32.const 0)))
          (call $str_list_push (local.get $l)
            (call $str_sub (local.get $p) (local.get $b0) (i32.add (local.get $b0) (local.get $at)) (i32.const -1)))
          (local.set $b0 (i32.add (i32.add (local.get $b0) (local.get $at)) (local.get $ql)))
          (local.set $max (i64.sub (local.get $max) (i64.const 1)))
          (br $each)))
      (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (local.get $b0) (local.get $n) (i32.const -1)))
      (return (i64.extend_i32_u (local.get $l)))))
  (local.set $b1 (local.get $n))
  (block $done
    (loop $each
      (br_if $done (i64.eqz (local.get $max)))
      (local.set $at (call $str_rfind_bytes (local.get $d) (local.get $b1) (i32.add (local.get $q) (i32.const 16)) (local.get $ql)))
      (br_if $done (i32.lt_s (local.get $at) (i32.const 0)))
      (call $str_list_push (local.get $l)
        (call $str_sub (local.get $p) (i32.add (local.get $at) (local.get $ql)) (local.get $b1) (i32.const -1)))
      (local.set $b1 (local.get $at))
      (local.set $max (i64.sub (local.get $max) (i64.const 1)))
      (br $each)))
  (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (i32.const 0) (local.get $b1) (i32.const -1)))
  (call $str_list_reverse (local.get $l))
  (i64.extend_i32_u (local.get $l)))

;; splitlines(keepends) of the ASCII str p, eight bytes at a time ($ascii_breaks8): the line
;; breaks of a chunk are bits, taken lowest first; \r\n is one break. The list is made with room
;; for every break plus one (\r\n counts twice there, so a CRLF text's list has spare room)
;; and each line is made directly.
(func $str_splitlines_ascii (param $p i32) (param $keep i32) (result i64)
  (local $d i32) (local $n i32) (local $l i32) (local $o i32) (local $at i32) (local $b0 i32)
  (local $next i32) (local $skip i32) (local $end i32) (local $breaks i64) (local $count i64)
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (block $counted
    (loop $chunks
      (br_if $counted (i32.ge_u (local.get $o) (local.get $n)))
      (local.set $count (i64.add (local.get $count)
        (i64.popcnt (call $ascii_breaks8 (local.get $d) (local.get $o) (local.get $n)))))
      (local.set $o (i32.add (local.get $o) (i32.const 8)))
      (br $chunks)))
  (local.set $l (call $str_list_new (i32.add (i32.wrap_i64 (local.get $count)) (i32.const 1))))
  ;; $skip: the offset of a \n that ends a \r\n whose line is already made (-1: none).
  (local.set $skip (i32.const -1))
  (local.set $o (i32.const 0))
  (block $scanned
    (loop $chunks
      (br_if $scanned (i32.ge_u (local.get $o) (local.get $n)))
      (local.set $breaks (call $ascii_breaks8 (local.get $d) (local.get $o) (local.get $n)))
      (block $chunk_done
        (loop $each
          (br_if $chunk_done (i64.eqz (local.get $breaks)))
          (local.set $at (i32.add (local.get $o) (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $breaks)) (i64.const 3)))))
          (if (i32.ne (local.get $at) (local.get $skip))
            (then
              ;; The next line starts after the break (after both bytes of \r\n).
              (local.set $next (i32.add (local.get $at) (i32.const 1)))
              (if (i32.and (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $at))) (i32.const 13))
                    (i32.lt_u (local.get $next) (local.get $n)))
                (then (if (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $next))) (i32.const 10))
                  (then
                    (local.set $skip (local.get $next))
                    (local.set $next (i32.add (local.get $next) (i32.const 1)))))))
              (local.set $end (select (local.get $next) (local.get $at) (local.get $keep)))
              (call $str_list_push (local.get $l)
                (if (result i64) (i32.gt_u (local.get $end) (local.get $b0))
                  (then (call $str_ascii_word (local.get $d) (local.get $b0) (local.get $end)))
                  (else (i64.extend_i32_u (global.get $s_empty)))))
              (local.set $b0 (local.get $next))))
          (local.set $breaks (i64.and (local.get $breaks) (i64.sub (local.get $breaks) (i64.const 1))))
          (br $each)))
      (local.set $o (i32.add (local.get $o) (i32.const 8)))
      (br $chunks)))
  (if (i32.lt_u (local.get $b0) (local.get $n))
    (then (call $str_list_push (local.get $l) (call $str_ascii_word (local.get $d) (local.get $b0) (local.get $n)))))
  (i64.extend_i32_u (local.get $l)))

;; splitlines(keepends).
(func $str_splitlines (param $s i64) (param $keep i32) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $l i32) (local $b0 i32) (local $i i32) (local $c i32)
  (local $k i32) (local $eol i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (if (call $str_is_ascii (local.get $p))
    (then (return (call $str_splitlines_ascii (local.get $p) (local.get $keep)))))
  (local.set $l (call $str_list_new (i32.const 4)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $i))))
      (local.set $k (i32.const 1))
      (if (i32.ge_u (local.get $c) (i32.const 0x80))
        (then
          (local.set $c (call $str_cp_at (i32.add (local.get $d) (local.get $i))))
          (local.set $k (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $i)))))))
      (if (i32.or (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 10)) (i32.const 3))
                          (i32.le_u (i32.sub (local.get $c) (i32.const 0x1C)) (i32.const 2)))
            (i32.or (i32.eq (local.get $c) (i32.const 0x85)) (i32.le_u (i32.sub (local.get $c) (i32.const 0x2028)) (i32.const 1))))
        (then
          (local.set $eol (local.get $i))
          (local.set $i (i32.add (local.get $i) (local.get $k)))
          (if (i32.and (i32.eq (local.get $c) (i32.const 13)) (i32.lt_u (local.get $i) (local.get $n)))
            (then (if (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $i))) (i32.const 10))
              (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
          (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (local.get $b0)
            (select (local.get $i) (local.get $eol) (local.get $keep)) (i32.const -1)))
          (local.set $b0 (local.get $i)))
        (else (local.set $i (i32.add (local.get $i) (local.get $k)))))
      (br $each)))
  (if (i32.lt_u (local.get $b0) (local.get $n))
    (then (call $str_list_push (local.get $l) (call $str_sub (local.get $p) (local.get $b0) (local.get $n) (i32.const -1)))))
  (i64.extend_i32_u (local.get $l)))

;; replace(old, new, count).
(func $str_replace (param $s i64) (param $old i64) (param $new i64) (param $count i64) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $o i32) (local $ol i32) (local $w i32) (local $wl i32)
  (local $k i32) (local $r i32) (local $dst i32) (local $b0 i32) (local $at i32) (local $i i32) (local $chars i64)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $o (i32.wrap_i64 (local.get $old)))
  (local.set $w (i32.wrap_i64 (local.get $new)))
  (local.set $ol (i32.load offset=4 (local.get $o)))
  (local.set $wl (i32.load offset=4 (local.get $w)))
  (if (i64.lt_s (local.get $count) (i64.const 0)) (then (local.set $count (i64.const 0x7FFFFFFF))))
  (if (i64.gt_s (local.get $count) (i64.const 0x7FFFFFFF)) (then (local.set $count (i64.const 0x7FFFFFFF))))
  (if (i32.eqz (local.get $ol))
    (then
      ;; Insert `new` before every code point and at the end, count times at most.
      (local.set $k (i32.add (i32.load offset=8 (local.get $p)) (i32.const 1)))
      (if (i64.lt_s (local.get $count) (i64.extend_i32_u (local.get $k))) (then (local.set $k (i32.wrap_i64 (local.get $count)))))
      (if (i32.eqz (local.get $k)) (then (return (local.get $s))))
      (local.set $r (call $str_alloc64
        (i64.add (i64.extend_i32_u (local.get $n)) (i64.mul (i64.extend_i32_u (local.get $k)) (i64.extend_i32_u (local.get $wl))))
        (i32.add (i32.load offset=8 (local.get $p)) (i32.mul (local.get $k) (i32.load offset=8 (local.get $w))))))
      (local.set $dst (i32.add (local.get $r) (i32.const 16)))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
          (call $memcpy (local.get $dst) (i32.add (local.get $w) (i32.const 16)) (local.get $wl))
          (local.set $dst (i32.add (local.get $dst) (local.get $wl)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $done (i32.ge_u (local.get $b0) (local.get $n)))
          (local.set $at (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $b0)))))
          (call $memcpy (local.get $dst) (i32.add (local.get $d) (local.get $b0)) (local.get $at))
          (local.set $dst (i32.add (local.get $dst) (local.get $at)))
          (local.set $b0 (i32.add (local.get $b0) (local.get $at)))
          (br $each)))
      (call $memcpy (local.get $dst) (i32.add (local.get $d) (local.get $b0)) (i32.sub (local.get $n) (local.get $b0)))
      (return (i64.extend_i32_u (local.get $r)))))
  (local.set $k (call $str_count_bytes (local.get $d) (local.get $n) (i32.add (local.get $o) (i32.const 16)) (local.get $ol)
    (i32.wrap_i64 (local.get $count))))
  (if (i32.eqz (local.get $k)) (then (return (local.get $s))))
  (local.set $chars (i64.add (i64.extend_i32_u (i32.load offset=8 (local.get $p)))
    (i64.mul (i64.extend_i32_u (local.get $k))
      (i64.sub (i64.extend_i32_u (i32.load offset=8 (local.get $w))) (i64.extend_i32_u (i32.load offset=8 (local.get $o)))))))
  (local.set $r (call $str_alloc64
    (i64.add (i64.extend_i32_u (local.get $n))
      (i64.mul (i64.extend_i32_u (local.get $k)) (i64.sub (i64.extend_i32_u (local.get $wl)) (i64.extend_i32_u (local.get $ol)))))
    (i32.wrap_i64 (local.get $chars))))
  (local.set $dst (i32.add (local.get $r) (i32.const 16)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
      (local.set $at (call $str_find_bytes (i32.add (local.get $d) (local.get $b0)) (i32.sub (local.get $n) (local.get $b0))
        (i32.add (local.get $o) (i32.const 16)) (local.get $ol)))
      (call $memcpy (local.get $dst) (i32.add (local.get $d) (local.get $b0)) (local.get $at))
      (local.set $dst (i32.add (local.get $dst) (local.get $at)))
      (call $memcpy (local.get $dst) (i32.add (local.get $w) (i32.const 16)) (local.get $wl))
      (local.set $dst (i32.add (local.get $dst) (local.get $wl)))
      (local.set $b0 (i32.add (i32.add (local.get $b0) (local.get $at)) (local.get $ol)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $memcpy (local.get $dst) (i32.add (local.get $d) (local.get $b0)) (i32.sub (local.get $n) (local.get $b0)))
  (i64.extend_i32_u (local.get $r)))

;; The byte window [b0, b1) of str p for optional start/end arguments (0 = absent, None
;; allowed); b0 is -1 when start is past the end.
(func $str_window (param $p i32) (param $start i64) (param $end i64) (result i32 i32 i32)
  (local $n i64) (local $a i64) (local $b i64)
  (local.set $n (i64.extend_i32_u (i32.load offset=8 (local.get $p))))
  (local.set $a (i64.const 0))
  (local.set $b (local.get $n))
  (if (i64.ne (local.get $start) (i64.const 0))
    (then (local.set $a (call $str_slice_part (local.get $start) (i64.const 0)))))
  (if (i64.ne (local.get $end) (i64.const 0))
    (then (local.set $b (call $str_slice_part (local.get $end) (local.get $n)))))
  (if (i64.lt_s (local.get $a) (i64.const 0))
    (then (local.set $a (i64.add (local.get $a) (local.get $n)))
      (if (i64.lt_s (local.get $a) (i64.const 0)) (then (local.set $a (i64.const 0))))))
  (if (i64.lt_s (local.get $b) (i64.const 0))
    (then (local.set $b (i64.add (local.get $b) (local.get $n)))
      (if (i64.lt_s (local.get $b) (i64.const 0)) (then (local.set $b (i64.const 0))))))
  (if (i64.gt_s (local.get $b) (local.get $n)) (then (local.set $b (local.get $n))))
  (if (i64.gt_s (local.get $a) (local.get $n)) (then (return (i32.const -1) (i32.const 0) (i32.const 0))))
  ;; An empty window still holds "" (find gives its start); a reversed one holds nothing.
  (if (i64.lt_s (local.get $b) (local.get $a)) (then (return (i32.const -1) (i32.const 0) (i32.const 0))))
  (call $str_offset (local.get $p) (i32.wrap_i64 (local.get $a)))
  (call $str_offset (local.get $p) (i32.wrap_i64 (local.get $b)))
  (i32.wrap_i64 (i64.sub (local.get $b) (local.get $a))))

;; find (0), rfind (1), index (2), rindex (3), count (4).
(func $str_find_m (param $s i64) (param $args i32) (param $kind i32) (result i64)
  (local $p i32) (local $q i32) (local $b0 i32) (local $b1 i32) (local $nc i32) (local $at i32) (local $d i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  ;; start and end are converted before sub is looked at (CPython's parse_args_finds).
  (call $str_window (local.get $p) (call $str_arg (local.get $args) (i32.const 1)) (call $str_arg (local.get $args) (i32.const 2)))
  (local.set $nc) (local.set $b1) (local.set $b0)
  (call $str_check (i64.load offset=8 (local.get $args)) (global.get $s_str_must_be_str))
  (local.set $q (i32.wrap_i64 (i64.load offset=8 (local.get $args))))
  (if (i32.eq (local.get $kind) (i32.const 4))
    (then
      (if (i32.lt_s (local.get $b0) (i32.const 0)) (then (return (call $str_small (i32.const 0)))))
      (if (i32.eqz (i32.load offset=4 (local.get $q))) (then (return (call $str_small (i32.add (local.get $nc) (i32.const 1))))))
      (return (call $str_small (call $str_count_bytes (i32.add (local.get $d) (local.get $b0)) (i32.sub (local.get $b1) (local.get $b0))
        (i32.add (local.get $q) (i32.const 16)) (i32.load offset=4 (local.get $q)) (i32.const 0x7FFFFFFF))))))
  (local.set $at (i32.const -1))
  (if (i32.ge_s (local.get $b0) (i32.const 0))
    (then
      (local.set $at
        (if (result i32) (i32.and (local.get $kind) (i32.const 1))
          (then (call $str_rfind_bytes (i32.add (local.get $d) (local.get $b0)) (i32.sub (local.get $b1) (local.get $b0))
            (i32.add (local.get $q) (i32.const 16)) (i32.load offset=4 (local.get $q))))
          (else (call $str_find_bytes (i32.add (local.get $d) (local.get $b0)) (i32.sub (local.get $b1) (local.get $b0))
            (i32.add (local.get $q) (i32.const 16)) (i32.load offset=4 (local.get $q))))))))
  (if (i32.lt_s (local.get $at) (i32.const 0))
    (then
      (if (i32.ge_u (local.get $kind) (i32.const 2))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_not_found))))
      (return (call $str_small (i32.const -1)))))
  (call $str_small (call $str_index_of (local.get $p) (i32.add (local.get $b0) (local.get $at)))))

;; startswith (0) / endswith (1).
(func $str_affix_m (param $s i64) (param $args i32) (param $end i32) (param $name i32) (result i64)
  (local $p i32) (local $b0 i32) (local $b1 i32) (local $nc i32) (local $x i64) (local $items i32) (local $n i32) (local $i i32)
  (local $q i64)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $x (i64.load offset=8 (local.get $args)))
  ;; As for find: start and end first.
  (call $str_window (local.get $p) (call $str_arg (local.get $args) (i32.const 1)) (call $str_arg (local.get $args) (i32.const 2)))
  (local.set $nc) (local.set $b1) (local.set $b0)
  (if (i32.eq (call $tid (local.get $x)) (i32.const TYPE_TUPLE))
    (then
      (local.set $items (i32.add (i32.wrap_i64 (local.get $x)) (i32.const 8)))
      (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $x)))))
    (else
      (if (i32.ne (call $tid (local.get $x)) (i32.const TYPE_STR))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg2 (global.get $s_str_affix_type) (i64.extend_i32_u (local.get $name)) (call $type_name (local.get $x))))))
      (local.set $items (i32.add (local.get $args) (i32.const 8)))
      (local.set $n (i32.const 1))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $q (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
      (if (i32.ne (call $tid (local.get $q)) (i32.const TYPE_STR))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg2 (global.get $s_str_affix_tuple) (i64.extend_i32_u (local.get $name)) (call $type_name (local.get $q))))))
      (if (i32.ge_s (local.get $b0) (i32.const 0))
        (then
          (if (i32.le_u (i32.load offset=4 (i32.wrap_i64 (local.get $q))) (i32.sub (local.get $b1) (local.get $b0)))
            (then
              (if (call $str_memeq
                    (i32.add (i32.add (local.get $p) (i32.const 16))
                      (select (i32.sub (local.get $b1) (i32.load offset=4 (i32.wrap_i64 (local.get $q)))) (local.get $b0) (local.get $end)))
                    (i32.add (i32.wrap_i64 (local.get $q)) (i32.const 16)) (i32.load offset=4 (i32.wrap_i64 (local.get $q))))
                (then (return (i64.const 24))))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i64.const 16))

;; Case mappings: 0 lower, 1 upper, 2 swapcase, 3 casefold, 4 title, 5 capitalize.
(func $str_case (param $s i64) (param $mode i32) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $i i32) (local $c i32) (local $r i32) (local $sb i32)
  (local $prev i32) (local $k i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (if (call $str_is_ascii (local.get $p))
    (then
      (local.set $r (call $str_alloc_filled (i64.extend_i32_u (local.get $n)) (local.get $n)))
      ;; lower and upper: eight bytes at a time. Every byte is below 0x80, so adding
      ;; 0x80 - lo (or 0x80 - (hi + 1)) sets a byte's top bit exactly when it is >= lo
      ;; (> hi), without carries between bytes; bit 5 of the letters in range flips.
      (if (i32.le_u (local.get $mode) (i32.const 1))
        (then (local.set $i (call $str_case_ascii_words (local.get $d) (i32.add (local.get $r) (i32.const 16)) (local.get $n) (local.get $mode)))))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $c (i32.load8_u (i32.add (local.get $d) (local.get $i))))
          (i32.store8 offset=16 (i32.add (local.get $r) (local.get $i)) (call $str_case_cp (local.get $c) (local.get $mode) (local.get $prev) (local.get $i)))
          (local.set $prev (i32.or (call $str_is_upper_cp (local.get $c)) (call $str_is_lower_cp (local.get $c))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (i64.extend_i32_u (local.get $r)))))
  (local.set $sb (call $sb_new))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $c (call $str_cp_at (i32.add (local.get $d) (local.get $i))))
      (block $pushed
        (if (i32.eqz (local.get $mode))
          (then (call $str_push_lower (local.get $sb) (local.get $p) (local.get $i) (local.get $c)) (br $pushed)))
        (if (i32.eq (local.get $mode) (i32.const 1))
          (then (call $str_push_upper (local.get $sb) (local.get $c)) (br $pushed)))
        (if (i32.eq (local.get $mode) (i32.const 2))
          (then
            (if (call $str_is_upper_cp (local.get $c))
              (then (call $str_push_lower (local.get $sb) (local.get $p) (local.get $i) (local.get $c)) (br $pushed)))
            (if (call $str_is_lower_cp (local.get $c))
              (then (call $str_push_upper (local.get $sb) (local.get $c)) (br $pushed)))
            (call $str_sb_cp (local.get $sb) (local.get $c))
            (br $pushed)))
        (if (i32.eq (local.get $mode) (i32.const 3))
          (then (call $str_push_fold (local.get $sb) (local.get $p) (local.get $i) (local.get $c)) (br $pushed)))
        ;; title: title case after an uncased character; capitalize: title case first.
        (if (select (local.get $prev) (local.get $k) (i32.eq (local.get $mode) (i32.const 4)))
          (then (call $str_push_lower (local.get $sb) (local.get $p) (local.get $i) (local.get $c)))
          (else (call $str_push_title (local.get $sb) (local.get $c)))))
      (local.set $prev (call $str_is_cased_cp (local.get $c)))
      (local.set $i (i32.add (local.get $i) (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $i))))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $each)))
  (call $sb_finish (local.get $sb)))

;; Full lower case of `c`, the code point at byte offset `at` of str `p`: İ is "i̇", and Σ is
;; final (ς) after a cased letter when no cased letter follows (case-ignorables skipped).
(func $str_push_lower (param $sb i32) (param $p i32) (param $at i32) (param $c i32)
  (local $d i32) (local $j i32) (local $x i32) (local $final i32)
  (if (i32.eq (local.get $c) (i32.const 0x130))
    (then
      (call $sb_push_byte (local.get $sb) (i32.const 105))
      (call $str_sb_cp (local.get $sb) (i32.const 0x307))
      (return)))
  (if (i32.ne (local.get $c) (i32.const 0x3A3))
    (then (call $str_sb_cp (local.get $sb) (call $str_lower_cp (local.get $c))) (return)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $j (local.get $at))
  (block $before
    (loop $back
      (br_if $before (i32.eqz (local.get $j)))
      (local.set $j (i32.sub (local.get $j) (i32.const 1)))
      (br_if $back (i32.eq (i32.and (i32.load8_u (i32.add (local.get $d) (local.get $j))) (i32.const 0xC0)) (i32.const 0x80)))
      (local.set $x (call $str_cp_at (i32.add (local.get $d) (local.get $j))))
      (br_if $back (call $str_is_case_ignorable (local.get $x)))
      (local.set $final (call $str_is_cased_cp (local.get $x)))))
  (if (local.get $final)
    (then
      (local.set $j (i32.add (local.get $at) (i32.const 2)))
      (block $after
        (loop $fwd
          (br_if $after (i32.ge_u (local.get $j) (i32.load offset=4 (local.get $p))))
          (local.set $x (call $str_cp_at (i32.add (local.get $d) (local.get $j))))
          (local.set $j (i32.add (local.get $j) (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $j))))))
          (br_if $fwd (call $str_is_case_ignorable (local.get $x)))
          (local.set $final (i32.eqz (call $str_is_cased_cp (local.get $x))))))))
  (call $str_sb_cp (local.get $sb) (select (i32.const 0x3C2) (i32.const 0x3C3) (local.get $final))))

(func $str_push_upper (param $sb i32) (param $c i32)
  (if (i32.eq (local.get $c) (i32.const 0xDF))
    (then (call $sb_push_byte (local.get $sb) (i32.const 83)) (call $sb_push_byte (local.get $sb) (i32.const 83)) (return)))
  (if (i32.ge_u (local.get $c) (i32.const 0x100))
    (then (if (call $str_case_full (local.get $sb) (global.get $s_case_full_upper) (local.get $c)) (then (return)))))
  (call $str_sb_cp (local.get $sb) (call $str_upper_cp (local.get $c))))

(func $str_push_title (param $sb i32) (param $c i32)
  (if (i32.eq (local.get $c) (i32.const 0xDF))
    (then (call $sb_push_byte (local.get $sb) (i32.const 83)) (call $sb_push_byte (local.get $sb) (i32.const 115)) (return)))
  (if (i32.ge_u (local.get $c) (i32.const 0x100))
    (then (if (call $str_case_full (local.get $sb) (global.get $s_case_full_title) (local.get $c)) (then (return)))))
  (call $str_push_upper (local.get $sb) (local.get $c)))

;; casefold: the lower case except where Unicode folds differently (ß to ss, ς to σ, ﬁ to fi,
;; Cherokee to its upper case).
(func $str_push_fold (param $sb i32) (param $p i32) (param $at i32) (param $c i32)
  (if (i32.eq (local.get $c) (i32.const 0xDF))
    (then (call $sb_push_byte (local.get $sb) (i32.const 115)) (call $sb_push_byte (local.get $sb) (i32.const 115)) (return)))
  (if (i32.eq (local.get $c) (i32.const 0xB5)) (then (call $str_sb_cp (local.get $sb) (i32.const 0x3BC)) (return)))
  (if (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 0x13A0)) (i32.const 0x5D))
        (i32.le_u (i32.sub (local.get $c) (i32.const 0xAB70)) (i32.const 0x4F)))
    (then (call $str_sb_cp (local.get $sb) (call $str_upper_cp (local.get $c))) (return)))
  (if (i32.ge_u (local.get $c) (i32.const 0x100))
    (then (if (call $str_case_full (local.get $sb) (global.get $s_case_full_fold) (local.get $c)) (then (return)))))
  (if (i32.eq (local.get $c) (i32.const 0x3A3)) (then (call $str_sb_cp (local.get $sb) (i32.const 0x3C3)) (return)))
  (call $str_push_lower (local.get $sb) (local.get $p) (local.get $at) (local.get $c)))

;; lower (mode 0) or upper (mode 1) of the ASCII bytes [src, src+n) into dst, whole words
;; only; returns how many bytes it did (a multiple of 8), the rest is left to the byte loop.
(func $str_case_ascii_words (param $src i32) (param $dst i32) (param $n i32) (param $mode i32) (result i32)
  (local $i i32) (local $x i64) (local $lo i64) (local $hi i64) (local $in i64)
  (if (local.get $mode)
    (then (local.set $lo (i64.const 0x1F1F1F1F1F1F1F1F)) (local.set $hi (i64.const 0x0505050505050505)))
    (else (local.set $lo (i64.const 0x3F3F3F3F3F3F3F3F)) (local.set $hi (i64.const 0x2525252525252525))))
  (block $done
    (loop $each
      (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $n)))
      (local.set $x (i64.load (i32.add (local.get $src) (local.get $i))))
      (local.set $in (i64.and
        (i64.and (i64.add (local.get $x) (local.get $lo))
                 (i64.xor (i64.add (local.get $x) (local.get $hi)) (i64.const -1)))
        (i64.const 0x8080808080808080)))
      (i64.store (i32.add (local.get $dst) (local.get $i))
        (i64.xor (local.get $x) (i64.shr_u (local.get $in) (i64.const 2))))
      (local.set $i (i32.add (local.get $i) (i32.const 8)))
      (br $each)))
  (local.get $i))

;; One ASCII character's mapping (the ASCII fast path of $str_case).
(func $str_case_cp (param $c i32) (param $mode i32) (param $prev i32) (param $k i32) (result i32)
  (local $upper i32)
  (local.set $upper
    (block $b (result i32)
      (drop (br_if $b (i32.const 0) (i32.eqz (local.get $mode))))
      (drop (br_if $b (i32.const 1) (i32.eq (local.get $mode) (i32.const 1))))
      (drop (br_if $b (call $str_is_lower_cp (local.get $c)) (i32.eq (local.get $mode) (i32.const 2))))
      (drop (br_if $b (i32.const 0) (i32.eq (local.get $mode) (i32.const 3))))
      (drop (br_if $b (i32.eqz (local.get $prev)) (i32.eq (local.get $mode) (i32.const 4))))
      (i32.eqz (local.get $k))))
  (if (result i32) (local.get $upper)
    (then (call $str_upper_cp (local.get $c)))
    (else (call $str_lower_cp (local.get $c)))))

;; The is* predicates: 0 isdigit, 1 isalpha, 2 isalnum, 3 isspace, 4 isupper, 5 islower,
;; 6 istitle, 7 isdecimal, 8 isnumeric, 9 isidentifier, 10 isascii, 11 isprintable.
(func $str_is (param $s i64) (param $kind i32) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $i i32) (local $c i32) (local $ok i32) (local $cased i32)
  (local $prev i32) (local $up i32) (local $lo i32) (local $ti i32) (local $k i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (if (i32.eq (local.get $kind) (i32.const 10)) (then (return (call $bool (call $str_is_ascii (local.get $p))))))
  (if (i32.eqz (local.get $n)) (then (return (call $bool (i32.eq (local.get $kind) (i32.const 11))))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $c (call $str_cp_at (i32.add (local.get $d) (local.get $i))))
      (local.set $up (call $str_is_upper_cp (local.get $c)))
      (local.set $lo (call $str_is_lower_cp (local.get $c)))
      (local.set $ti (call $str_is_title_cp (local.get $c)))
      (local.set $ok
        (block $b (result i32)
          (drop (br_if $b (i32.ne (call $str_num_kind (local.get $c)) (i32.const 0))
            (i32.and (i32.eqz (local.get $kind)) (i32.ne (call $str_num_kind (local.get $c)) (i32.const 3)))))
          (drop (br_if $b (i32.const 0) (i32.eqz (local.get $kind))))
          (drop (br_if $b (call $str_is_alpha_cp (local.get $c)) (i32.eq (local.get $kind) (i32.const 1))))
          (drop (br_if $b (i32.or (call $str_is_alpha_cp (local.get $c)) (i32.ne (call $str_num_kind (local.get $c)) (i32.const 0)))
            (i32.eq (local.get $kind) (i32.const 2))))
          (drop (br_if $b (call $str_is_ws (local.get $c)) (i32.eq (local.get $kind) (i32.const 3))))
          (drop (br_if $b (i32.eqz (i32.or (local.get $lo) (local.get $ti))) (i32.eq (local.get $kind) (i32.const 4))))
          (drop (br_if $b (i32.eqz (i32.or (local.get $up) (local.get $ti))) (i32.eq (local.get $kind) (i32.const 5))))
          (if (i32.eq (local.get $kind) (i32.const 6))
            (then
              ;; Upper or title case only after uncased, lowercase only after cased.
              (if (i32.and (i32.or (local.get $up) (local.get $ti)) (local.get $prev)) (then (br $b (i32.const 0))))
              (if (i32.and (local.get $lo) (i32.eqz (local.get $prev))) (then (br $b (i32.const 0))))
              (br $b (i32.const 1))))
          (drop (br_if $b (i32.eq (call $str_num_kind (local.get $c)) (i32.const 1)) (i32.eq (local.get $kind) (i32.const 7))))
          (drop (br_if $b (i32.ne (call $str_num_kind (local.get $c)) (i32.const 0)) (i32.eq (local.get $kind) (i32.const 8))))
          (if (i32.eq (local.get $kind) (i32.const 9))
            (then
              (drop (br_if $b (i32.const 1) (i32.or (i32.eq (local.get $c) (i32.const 95)) (call $str_is_alpha_cp (local.get $c)))))
              (br $b (i32.and (i32.ne (local.get $i) (i32.const 0)) (i32.eq (call $str_num_kind (local.get $c)) (i32.const 1))))))
          (if (result i32) (i32.lt_u (local.get $c) (i32.const 0x80))
            (then (i32.le_u (i32.sub (local.get $c) (i32.const 32)) (i32.const 94)))
            (else (call $str_printable (local.get $c))))))
      (if (i32.eqz (local.get $ok)) (then (return (i64.const 16))))
      (if (i32.or (local.get $up) (local.get $lo)) (then (local.set $cased (i32.const 1))))
      (if (i32.and (local.get $ti) (i32.eq (local.get $kind) (i32.const 6))) (then (local.set $cased (i32.const 1))))
      (local.set $prev (i32.or (i32.or (local.get $up) (local.get $lo)) (local.get $ti)))
      (local.set $i (i32.add (local.get $i) (call $str_seq_len (i32.load8_u (i32.add (local.get $d) (local.get $i))))))
      (br $each)))
  (if (i32.and (i32.ge_u (local.get $kind) (i32.const 4)) (i32.le_u (local.get $kind) (i32.const 6)))
    (then (return (call $bool (local.get $cased)))))
  (i64.const 24))

;; partition (0) / rpartition (1).
(func $str_partition (param $s i64) (param $sep i64) (param $right i32) (result i64)
  (local $p i32) (local $q i32) (local $at i32) (local $ql i32) (local $n i32)
  (call $str_check (local.get $sep) (global.get $s_str_must_be_str))
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $q (i32.wrap_i64 (local.get $sep)))
  (local.set $ql (i32.load offset=4 (local.get $q)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (if (i32.eqz (local.get $ql)) (then (call $raise_static (global.get $t_ValueError) (global.get $s_str_empty_sep))))
  (local.set $at
    (if (result i32) (local.get $right)
      (then (call $str_rfind_bytes (i32.add (local.get $p) (i32.const 16)) (local.get $n) (i32.add (local.get $q) (i32.const 16)) (local.get $ql)))
      (else (call $str_find_bytes (i32.add (local.get $p) (i32.const 16)) (local.get $n) (i32.add (local.get $q) (i32.const 16)) (local.get $ql)))))
  (if (i32.lt_s (local.get $at) (i32.const 0))
    (then
      (if (local.get $right)
        (then (return (call $str_tuple3 (i64.extend_i32_u (global.get $s_empty)) (i64.extend_i32_u (global.get $s_empty)) (local.get $s)))))
      (return (call $str_tuple3 (local.get $s) (i64.extend_i32_u (global.get $s_empty)) (i64.extend_i32_u (global.get $s_empty))))))
  (call $str_tuple3
    (call $str_sub (local.get $p) (i32.const 0) (local.get $at) (i32.const -1))
    (local.get $sep)
    (call $str_sub (local.get $p) (i32.add (local.get $at) (local.get $ql)) (local.get $n) (i32.const -1))))

;; ljust (0), rjust (1), center (2), zfill (3).
(func $str_pad (param $s i64) (param $width i64) (param $fill i32) (param $kind i32) (result i64)
  (local $p i32) (local $n i64) (local $pad i64) (local $left i64) (local $fs i32) (local $r i32) (local $o i32)
  (local $c i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $n (i64.extend_i32_u (i32.load offset=8 (local.get $p))))
  (if (i64.le_s (local.get $width) (local.get $n)) (then (return (local.get $s))))
  (local.set $pad (i64.sub (local.get $width) (local.get $n)))
  (if (i32.eq (local.get $kind) (i32.const 1)) (then (local.set $left (local.get $pad))))
  (if (i32.eq (local.get $kind) (i32.const 3)) (then (local.set $left (local.get $pad))))
  (if (i32.eq (local.get $kind) (i32.const 2))
    (then (local.set $left (i64.add (i64.shr_u (local.get $pad) (i64.const 1))
      (i64.and (i64.and (local.get $pad) (local.get $width)) (i64.const 1))))))
  (local.set $fs (call $str_cp_size (local.get $fill)))
  (local.set $r (call $str_alloc64
    (i64.add (i64.extend_i32_u (i32.load offset=4 (local.get $p))) (i64.mul (local.get $pad) (i64.extend_i32_u (local.get $fs))))
    (i32.wrap_i64 (local.get $width))))
  (local.set $o (i32.add (local.get $r) (i32.const 16)))
  (if (i32.eq (local.get $kind) (i32.const 3))
    (then
      ;; zfill keeps a leading sign in front of the zeros.
      (if (i64.ne (local.get $n) (i64.const 0))
        (then
          (local.set $c (i32.load8_u offset=16 (local.get $p)))
          (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
            (then
              (i32.store8 (local.get $o) (local.get $c))
              (local.set $o (call $str_fill (i32.add (local.get $o) (i32.const 1)) (i32.const 48) (i32.const 1) (i32.wrap_i64 (local.get $pad))))
              (call $memcpy (local.get $o) (i32.add (local.get $p) (i32.const 17)) (i32.sub (i32.load offset=4 (local.get $p)) (i32.const 1)))
              (return (i64.extend_i32_u (local.get $r)))))))))
  (local.set $o (call $str_fill (local.get $o) (local.get $fill) (local.get $fs) (i32.wrap_i64 (local.get $left))))
  (call $memcpy (local.get $o) (i32.add (local.get $p) (i32.const 16)) (i32.load offset=4 (local.get $p)))
  (drop (call $str_fill (i32.add (local.get $o) (i32.load offset=4 (local.get $p))) (local.get $fill) (local.get $fs)
    (i32.wrap_i64 (i64.sub (local.get $pad) (local.get $left)))))
  (i64.extend_i32_u (local.get $r)))

;; The fill character argument of ljust/rjust/center.
(func $str_fillchar (param $v i64) (result i32)
  (if (i64.eqz (local.get $v)) (then (return (i32.const 32))))
  (call $str_check (local.get $v) (global.get $s_str_fill_type))
  (if (i32.ne (i32.load offset=8 (i32.wrap_i64 (local.get $v))) (i32.const 1))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_str_fill_len))))
  (call $str_cp_at (i32.add (i32.wrap_i64 (local.get $v)) (i32.const 16))))

(func $str_expandtabs (param $s i64) (param $tab i64) (result i64)
  (local $p i32) (local $d i32) (local $n i32) (local $i i32) (local $col i64) (local $sb i32) (local $b i32) (local $k i64)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $d (i32.add (local.get $p) (i32.const 16)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (block $has_tab
    (loop $scan
      (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (local.get $s))))
      (br_if $has_tab (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $i))) (i32.const 9)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $scan)))
  (local.set $i (i32.const 0))
  (local.set $sb (call $sb_new))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $b (i32.load8_u (i32.add (local.get $d) (local.get $i))))
      (if (i32.eq (local.get $b) (i32.const 9))
        (then
          (if (i64.gt_s (local.get $tab) (i64.const 0))
            (then
              (local.set $k (i64.sub (local.get $tab) (i64.rem_s (local.get $col) (local.get $tab))))
              (if (i64.gt_u (local.get $k) (i64.const 0xFFFFFFFF)) (then (call $raise_memory)))
              (call $sb_reserve (local.get $sb) (i32.wrap_i64 (local.get $k)))
              (local.set $col (i64.add (local.get $col) (local.get $k)))
              (loop $spaces
                (call $sb_push_byte (local.get $sb) (i32.const 32))
                (local.set $k (i64.sub (local.get $k) (i64.const 1)))
                (br_if $spaces (i64.gt_s (local.get $k) (i64.const 0))))))
          (local.set $i (i32.add (local.get $i) (i32.const 1))))
        (else
          (if (i32.or (i32.eq (local.get $b) (i32.const 10)) (i32.eq (local.get $b) (i32.const 13)))
            (then (local.set $col (i64.const 0)))
            (else (if (i32.ne (i32.and (local.get $b) (i32.const 0xC0)) (i32.const 0x80))
              (then (local.set $col (i64.add (local.get $col) (i64.const 1)))))))
          (call $sb_push_bytes (local.get $sb) (i32.add (local.get $d) (local.get $i)) (i32.const 1))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))))
      (br $each)))
  (call $sb_finish (local.get $sb)))


;; str.join(iterable).
(func $str_join_m (param $sep i64) (param $it i64) (result i64)
  (local $t i32) (local $p i32) (local $l i32) (local $i i32) (local $n i32) (local $d i32)
  (local.set $t (call $tid (local.get $it)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then (return (call $str_join_list (local.get $sep) (local.get $it)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_STR))
    (then
      (local.set $p (i32.wrap_i64 (local.get $it)))
      (local.set $n (i32.load offset=8 (local.get $p)))
      (local.set $l (call $str_list_new (local.get $n)))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (call $str_list_push (local.get $l) (call $str_char (local.get $it) (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (call $str_join_list (local.get $sep) (i64.extend_i32_u (local.get $l))))))
  (if (i32.eqz (call $seq_iterable (local.get $it)))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_str_join_iterable))))
  (if (i32.eq (local.get $t) (i32.const TYPE_ITERATOR))
    (then (return (call $str_join_iter (local.get $sep) (local.get $it)))))
  (call $str_join_list (local.get $sep) (call $list_from (local.get $it))))


;; `sep.join(iterator)`: the text is built as the items come (a join builder, fast.wat), not
;; from a list of them, so a collection while the iterator's code runs (a generator
;; expression's) finds one buffer to keep, not every item so far.
(func $str_join_iter (param $sep i64) (param $it i64) (result i64)
  (local $base i32) (local $jb i64) (local $v i64)
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $sep))
  (call $root_push (local.get $it))
  (local.set $jb (call $join_new))
  (call $root_push (local.get $jb))
  (block $done
    (loop $each
      (local.set $v (call $next_plan (local.get $it)))
      (br_if $done (i64.eqz (local.get $v)))
      (call $join_push (local.get $jb) (local.get $sep) (local.get $v))
      (br $each)))
  (global.set $shadow_top (local.get $base))
  (call $join_finish (local.get $jb)))

;; TypeError: sequence item `i`: expected str instance, `v`'s type found.
(func $str_join_item_error (param $i i64) (param $v i64)
  (local $sb i32)
  (local.set $sb (call $sb_new))
  (call $sb_push_i64 (local.get $sb) (local.get $i))
  (call $raise_msg (global.get $t_TypeError)
    (call $msg2 (global.get $s_str_join_item) (call $sb_finish (local.get $sb)) (call $type_name (local.get $v)))))

;; removeprefix (0) / removesuffix (1).
(func $str_remove_affix (param $s i64) (param $x i64) (param $suffix i32) (param $template i32) (result i64)
  (local $p i32) (local $q i32) (local $n i32) (local $m i32)
  (call $str_check_clinic (local.get $x) (local.get $template))
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $q (i32.wrap_i64 (local.get $x)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $m (i32.load offset=4 (local.get $q)))
  (if (i32.or (i32.eqz (local.get $m)) (i32.gt_u (local.get $m) (local.get $n))) (then (return (local.get $s))))
  (if (local.get $suffix)
    (then
      (if (call $str_memeq (i32.add (i32.add (local.get $p) (i32.const 16)) (i32.sub (local.get $n) (local.get $m)))
            (i32.add (local.get $q) (i32.const 16)) (local.get $m))
        (then (return (call $str_sub (local.get $p) (i32.const 0) (i32.sub (local.get $n) (local.get $m)) (i32.const -1)))))
      (return (local.get $s))))
  (if (call $str_memeq (i32.add (local.get $p) (i32.const 16)) (i32.add (local.get $q) (i32.const 16)) (local.get $m))
    (then (return (call $str_sub (local.get $p) (local.get $m) (local.get $n) (i32.const -1)))))
  (local.get $s))

;; Dispatches a str method call; 0 if `name` is not a str method.
;; str methods by name. A name among the runtime's static strs (every method name a plan
;; spells: plan constants share them, runtime/src/statics.rs) is compared by address; any other
;; str is compared by text (`$slow`).
(func $str_method (param $self i64) (param $name i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32) (local $m i32) (local $a i64) (local $b i64) (local $k i32) (local $slow i32)
  ;; The runtime's statics end where the frames begin.
  (local.set $slow (i32.ge_u (i32.wrap_i64 (local.get $name)) (global.get $frames)))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $name))))
  (if (i32.lt_u (local.get $n) (i32.const 3)) (then (return (i64.const 0))))
  ;; join
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_join))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_join)))) (else (i32.const 0)))))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (global.get $s_str_m_join) (i32.const 0) (i32.const 1) (i32.const 1)))
      (return (call $str_join_m (local.get $self) (i64.load offset=8 (local.get $args))))))
  ;; split, rsplit
  (local.set $k (i32.const -1))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_split))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_split)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rsplit))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rsplit)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (i32.ge_s (local.get $k) (i32.const 0))
    (then
      (local.set $m (select (global.get $s_str_m_rsplit) (global.get $s_str_m_split) (local.get $k)))
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (local.get $m) (i32.const 3) (i32.const 0) (i32.const 2)))
      (local.set $m (call $str_kwmerge (local.get $args) (local.get $kwargs) (local.get $m)
        (global.get $s_str_kw_sep) (global.get $s_str_kw_maxsplit)))
      ;; maxsplit is converted before sep is looked at, as CPython's argument clinic does.
      (local.set $b (i64.const -1))
      (if (i64.ne (i64.load offset=8 (local.get $m)) (i64.const 0))
        (then (local.set $b (call $str_as_index (i64.load offset=8 (local.get $m))))))
      (local.set $a (i64.load (local.get $m)))
      (if (i64.eq (local.get $a) (i64.const 8)) (then (local.set $a (i64.const 0))))
      (if (i64.ne (local.get $a) (i64.const 0)) (then (call $str_check (local.get $a) (global.get $s_str_sep_type))))
      (return (call $str_split (local.get $self) (local.get $a) (local.get $b) (local.get $k)))))
  ;; strip, lstrip, rstrip
  (local.set $k (i32.const 0))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_strip))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_strip)))) (else (i32.const 0))))) (then (local.set $k (i32.const 3))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_lstrip))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_lstrip)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rstrip))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rstrip)))) (else (i32.const 0))))) (then (local.set $k (i32.const 2))))
  (if (local.get $k)
    (then

      (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 1) (i32.const 0) (i32.const 1)))
      (local.set $a (call $str_arg (local.get $args) (i32.const 0)))
      (if (i64.eq (local.get $a) (i64.const 8)) (then (local.set $a (i64.const 0))))
      (if (i64.ne (local.get $a) (i64.const 0))
        (then (if (i32.ne (call $tid (local.get $a)) (i32.const TYPE_STR))
          (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_str_strip_type) (local.get $name)))))))
      (return (call $str_strip (local.get $self) (i32.wrap_i64 (local.get $a)) (local.get $k)))))
  ;; replace
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_replace))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_replace)))) (else (i32.const 0)))))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (global.get $s_str_m_replace) (i32.const 1) (i32.const 2) (i32.const 3)))
      (local.set $a (i64.load offset=8 (local.get $args)))
      (local.set $b (i64.load offset=16 (local.get $args)))
      (call $str_check_clinic (local.get $a) (global.get $s_str_replace_1))
      (call $str_check_clinic (local.get $b) (global.get $s_str_replace_2))
      (return (call $str_replace (local.get $self) (local.get $a) (local.get $b)
        (if (result i64) (i32.eq (i32.load offset=4 (local.get $args)) (i32.const 3))
          (then (call $str_as_index (i64.load offset=24 (local.get $args))))
          (else (i64.const -1)))))))
  ;; find, rfind, index, rindex, count
  (local.set $k (i32.const -1))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_find))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_find)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rfind))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rfind)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_index))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_index)))) (else (i32.const 0))))) (then (local.set $k (i32.const 2))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rindex))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rindex)))) (else (i32.const 0))))) (then (local.set $k (i32.const 3))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_count))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_count)))) (else (i32.const 0))))) (then (local.set $k (i32.const 4))))
  (if (i32.ge_s (local.get $k) (i32.const 0))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 2) (i32.const 1) (i32.const 3)))
      (return (call $str_find_m (local.get $self) (local.get $args) (local.get $k)))))
  ;; startswith, endswith
  (local.set $k (i32.const -1))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_startswith))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_startswith)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_endswith))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_endswith)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (i32.ge_s (local.get $k) (i32.const 0))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 2) (i32.const 1) (i32.const 3)))
      (return (call $str_affix_m (local.get $self) (local.get $args) (local.get $k) (i32.wrap_i64 (local.get $name))))))
  ;; format, format_map
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_format))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_format)))) (else (i32.const 0)))))
    (then (return (call $str_format (local.get $self) (local.get $args) (local.get $kwargs)))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_format_map))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_format_map)))) (else (i32.const 0)))))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (global.get $s_str_m_format_map) (i32.const 0) (i32.const 1) (i32.const 1)))
      (return (call $str_format_with (local.get $self) (global.get $empty_tuple) (i64.load offset=8 (local.get $args))))))
  ;; case mappings
  (local.set $k (i32.const -1))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_lower))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_lower)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_upper))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_upper)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_swapcase))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_swapcase)))) (else (i32.const 0))))) (then (local.set $k (i32.const 2))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_casefold))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_casefold)))) (else (i32.const 0))))) (then (local.set $k (i32.const 3))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_title))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_title)))) (else (i32.const 0))))) (then (local.set $k (i32.const 4))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_capitalize))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_capitalize)))) (else (i32.const 0))))) (then (local.set $k (i32.const 5))))
  (if (i32.ge_s (local.get $k) (i32.const 0))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 0) (i32.const 0) (i32.const 0)))
      (return (call $str_case (local.get $self) (local.get $k)))))
  ;; is* predicates
  (if (i32.eq (i32.load8_u offset=16 (i32.wrap_i64 (local.get $name))) (i32.const 105))
    (then
      (local.set $k (i32.const -1))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isdigit))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isdigit)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isalpha))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isalpha)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isalnum))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isalnum)))) (else (i32.const 0))))) (then (local.set $k (i32.const 2))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isspace))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isspace)))) (else (i32.const 0))))) (then (local.set $k (i32.const 3))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isupper))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isupper)))) (else (i32.const 0))))) (then (local.set $k (i32.const 4))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_islower))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_islower)))) (else (i32.const 0))))) (then (local.set $k (i32.const 5))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_istitle))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_istitle)))) (else (i32.const 0))))) (then (local.set $k (i32.const 6))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isdecimal))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isdecimal)))) (else (i32.const 0))))) (then (local.set $k (i32.const 7))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isnumeric))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isnumeric)))) (else (i32.const 0))))) (then (local.set $k (i32.const 8))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isidentifier))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isidentifier)))) (else (i32.const 0))))) (then (local.set $k (i32.const 9))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isascii))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isascii)))) (else (i32.const 0))))) (then (local.set $k (i32.const 10))))
      (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isprintable))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_isprintable)))) (else (i32.const 0))))) (then (local.set $k (i32.const 11))))
      (if (i32.ge_s (local.get $k) (i32.const 0))
        (then
          (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 0) (i32.const 0) (i32.const 0)))
          (return (call $str_is (local.get $self) (local.get $k)))))))
  ;; partition, rpartition
  (local.set $k (i32.const -1))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_partition))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_partition)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rpartition))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rpartition)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (i32.ge_s (local.get $k) (i32.const 0))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 0) (i32.const 1) (i32.const 1)))
      (return (call $str_partition (local.get $self) (i64.load offset=8 (local.get $args)) (local.get $k)))))
  ;; ljust, rjust, center, zfill
  (local.set $k (i32.const -1))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_ljust))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_ljust)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rjust))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_rjust)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_center))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_center)))) (else (i32.const 0))))) (then (local.set $k (i32.const 2))))
  (if (i32.ge_s (local.get $k) (i32.const 0))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 1) (i32.const 1) (i32.const 2)))
      (local.set $a (call $str_as_index (i64.load offset=8 (local.get $args))))
      (return (call $str_pad (local.get $self) (local.get $a)
        (call $str_fillchar (call $str_arg (local.get $args) (i32.const 1))) (local.get $k)))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_zfill))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_zfill)))) (else (i32.const 0)))))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (global.get $s_str_m_zfill) (i32.const 0) (i32.const 1) (i32.const 1)))
      (return (call $str_pad (local.get $self) (call $str_as_index (i64.load offset=8 (local.get $args))) (i32.const 48) (i32.const 3)))))
  ;; splitlines, expandtabs
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_splitlines))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_splitlines)))) (else (i32.const 0)))))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (global.get $s_str_m_splitlines) (i32.const 3) (i32.const 0) (i32.const 1)))
      (local.set $m (call $str_kwmerge (local.get $args) (local.get $kwargs) (global.get $s_str_m_splitlines) (global.get $s_str_kw_keepends) (i32.const 0)))
      ;; keepends is an int (bool(accept={int}) in CPython): a str or None is a TypeError.
      (return (call $str_splitlines (local.get $self)
        (if (result i32) (i64.eqz (i64.load (local.get $m)))
          (then (i32.const 0))
          (else (i64.ne (call $str_as_index (i64.load (local.get $m))) (i64.const 0))))))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_expandtabs))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_expandtabs)))) (else (i32.const 0)))))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (global.get $s_str_m_expandtabs) (i32.const 3) (i32.const 0) (i32.const 1)))
      (local.set $m (call $str_kwmerge (local.get $args) (local.get $kwargs) (global.get $s_str_m_expandtabs) (global.get $s_str_kw_tabsize) (i32.const 0)))
      (local.set $a (i64.const 8))
      (if (i64.ne (i64.load (local.get $m)) (i64.const 0)) (then (local.set $a (call $str_as_index (i64.load (local.get $m))))))
      (return (call $str_expandtabs (local.get $self) (local.get $a)))))
  ;; removeprefix, removesuffix
  (local.set $k (i32.const -1))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_removeprefix))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_removeprefix)))) (else (i32.const 0))))) (then (local.set $k (i32.const 0))))
  (if (if (result i32) (i64.eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_removesuffix))) (then (i32.const 1)) (else (if (result i32) (local.get $slow) (then (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_str_m_removesuffix)))) (else (i32.const 0))))) (then (local.set $k (i32.const 1))))
  (if (i32.ge_s (local.get $k) (i32.const 0))
    (then
      (drop (call $str_arity (local.get $args) (local.get $kwargs) (i32.wrap_i64 (local.get $name)) (i32.const 0) (i32.const 1) (i32.const 1)))
      (return (call $str_remove_affix (local.get $self) (i64.load offset=8 (local.get $args)) (local.get $k)
        (select (global.get $s_str_removesuffix_type) (global.get $s_str_removeprefix_type) (local.get $k))))))
  (i64.const 0))

;; ---- printf-style formatting: str % values (CPython 3.11's PyUnicode_Format) --------------------

;; The argument state: `$pct_args` is the tuple (arglen >= 0) or the single value (arglen -1).
(global $pct_args (mut i64) (i64.const 0))
(global $pct_argidx (mut i32) (i32.const 0))
(global $pct_arglen (mut i32) (i32.const 0))

(func $pct_next (result i64)
  (local $i i32)
  (local.set $i (global.get $pct_argidx))
  (if (i32.lt_s (local.get $i) (global.get $pct_arglen))
    (then
      (global.set $pct_argidx (i32.add (local.get $i) (i32.const 1)))
      (if (i32.lt_s (global.get $pct_arglen) (i32.const 0)) (then (return (global.get $pct_args))))
      (return (i64.load offset=8 (i32.add (i32.wrap_i64 (global.get $pct_args)) (i32.shl (local.get $i) (i32.const 3)))))))
  (call $raise_static (global.get $t_TypeError) (global.get $s_pct_not_enough))
  (unreachable))

;; A one-character ASCII str.
(func $pct_char_str (param $c i32) (result i64)
  (local $s i32)
  (local.set $s (call $str_alloc (i32.const 1) (i32.const 1)))
  (i32.store8 offset=16 (local.get $s) (local.get $c))
  (i64.extend_i32_u (local.get $s)))

;; Pushes n copies of ASCII byte c.
(func $pct_fill (param $sb i32) (param $c i32) (param $n i32)
  (local $at i32)
  (if (i32.le_s (local.get $n) (i32.const 0)) (then (return)))
  (call $sb_reserve (local.get $sb) (local.get $n))
  (local.set $at (i32.add (i32.load (local.get $sb)) (i32.load offset=4 (local.get $sb))))
  (memory.fill (local.get $at) (local.get $c) (local.get $n))
  (i32.store offset=4 (local.get $sb) (i32.add (i32.load offset=4 (local.get $sb)) (local.get $n)))
  (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (local.get $n))))

;; Pushes the first `nchars` code points of str s (all of it when nchars < 0), padded with spaces
;; to `width` (on the right when `ljust`).
(func $pct_push_padded (param $sb i32) (param $s i64) (param $nchars i32) (param $width i32) (param $ljust i32)
  (local $p i32) (local $src i32) (local $len i32) (local $n i32) (local $q i32) (local $end i32) (local $k i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $src (i32.add (local.get $p) (i32.const 16)))
  (local.set $len (i32.load offset=4 (local.get $p)))
  (local.set $n (i32.load offset=8 (local.get $p)))
  (if (i32.and (i32.ge_s (local.get $nchars) (i32.const 0)) (i32.lt_s (local.get $nchars) (local.get $n)))
    (then
      (if (i32.eq (local.get $len) (local.get $n))
        (then (local.set $len (local.get $nchars)))
        (else
          ;; find the byte offset of code point `nchars`
          (local.set $q (local.get $src))
          (local.set $end (i32.add (local.get $src) (local.get $len)))
          (block $done (loop $each
            (br_if $done (i32.ge_u (local.get $q) (local.get $end)))
            (if (i32.ne (i32.and (i32.load8_u (local.get $q)) (i32.const 0xC0)) (i32.const 0x80))
              (then
                (br_if $done (i32.eq (local.get $k) (local.get $nchars)))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $each)))
          (local.set $len (i32.sub (local.get $q) (local.get $src)))))
      (local.set $n (local.get $nchars))))
  (if (i32.eqz (local.get $ljust)) (then (call $pct_fill (local.get $sb) (i32.const 32) (i32.sub (local.get $width) (local.get $n)))))
  (call $sb_push_counted (local.get $sb) (local.get $src) (local.get $len) (local.get $n))
  (if (local.get $ljust) (then (call $pct_fill (local.get $sb) (i32.const 32) (i32.sub (local.get $width) (local.get $n))))))

;; ascii(): repr with non-ASCII code points escaped.
(func $pct_ascii (param $r i64) (result i64)
  (local $p i32) (local $end i32) (local $c i32) (local $sb i32) (local $n i32) (local $digits i32)
  (local.set $p (i32.wrap_i64 (local.get $r)))
  (if (i32.eq (i32.load offset=4 (local.get $p)) (i32.load offset=8 (local.get $p))) (then (return (local.get $r))))
  (local.set $end (i32.add (i32.add (local.get $p) (i32.const 16)) (i32.load offset=4 (local.get $p))))
  (local.set $p (i32.add (local.get $p) (i32.const 16)))
  (local.set $sb (call $sb_new))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
    (local.set $c (i32.load8_u (local.get $p)))
    (if (i32.lt_u (local.get $c) (i32.const 0x80))
      (then
        (call $sb_push_byte (local.get $sb) (local.get $c))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $each)))
    (if (i32.lt_u (local.get $c) (i32.const 0xE0))
      (then
        (local.set $c (i32.or (i32.shl (i32.and (local.get $c) (i32.const 0x1F)) (i32.const 6))
          (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F))))
        (local.set $n (i32.const 2)))
      (else (if (i32.lt_u (local.get $c) (i32.const 0xF0))
        (then
          (local.set $c (i32.or (i32.or (i32.shl (i32.and (local.get $c) (i32.const 0x0F)) (i32.const 12))
            (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F)) (i32.const 6)))
            (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3F))))
          (local.set $n (i32.const 3)))
        (else
          (local.set $c (i32.or (i32.or (i32.shl (i32.and (local.get $c) (i32.const 0x07)) (i32.const 18))
            (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F)) (i32.const 12)))
            (i32.or (i32.shl (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3F)) (i32.const 6))
              (i32.and (i32.load8_u offset=3 (local.get $p)) (i32.const 0x3F)))))
          (local.set $n (i32.const 4))))))
    (call $sb_push_byte (local.get $sb) (i32.const 92))
    (if (i32.le_u (local.get $c) (i32.const 0xFF))
      (then (call $sb_push_byte (local.get $sb) (i32.const 120)) (local.set $digits (i32.const 2)))
      (else (if (i32.le_u (local.get $c) (i32.const 0xFFFF))
        (then (call $sb_push_byte (local.get $sb) (i32.const 117)) (local.set $digits (i32.const 4)))
        (else (call $sb_push_byte (local.get $sb) (i32.const 85)) (local.set $digits (i32.const 8))))))
    (block $hex_done (loop $hex
      (br_if $hex_done (i32.eqz (local.get $digits)))
      (local.set $digits (i32.sub (local.get $digits) (i32.const 1)))
      (call $sb_push_byte (local.get $sb)
        (i32.load8_u (i32.add (i32.add (global.get $s_pct_hexdigits) (i32.const 16))
          (i32.and (i32.shr_u (local.get $c) (i32.shl (local.get $digits) (i32.const 2))) (i32.const 15)))))
      (br $hex)))
    (local.set $p (i32.add (local.get $p) (local.get $n)))
    (br $each)))
  (call $sb_finish (local.get $sb)))

;; Raises "unsupported format character" for the code point at p (char index ci).
(func $pct_unsupported (param $p i32) (param $ci i32)
  (local $c i32) (local $sb i32)
  (local.set $c (i32.load8_u (local.get $p)))
  (if (i32.ge_u (local.get $c) (i32.const 0xF0))
    (then (local.set $c (i32.or (i32.or (i32.shl (i32.and (local.get $c) (i32.const 0x07)) (i32.const 18))
            (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F)) (i32.const 12)))
            (i32.or (i32.shl (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3F)) (i32.const 6))
              (i32.and (i32.load8_u offset=3 (local.get $p)) (i32.const 0x3F))))))
    (else (if (i32.ge_u (local.get $c) (i32.const 0xE0))
      (then (local.set $c (i32.or (i32.or (i32.shl (i32.and (local.get $c) (i32.const 0x0F)) (i32.const 12))
            (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F)) (i32.const 6)))
            (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3F)))))
      (else (if (i32.ge_u (local.get $c) (i32.const 0xC0))
        (then (local.set $c (i32.or (i32.shl (i32.and (local.get $c) (i32.const 0x1F)) (i32.const 6))
          (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3F))))))))))
  (local.set $sb (call $sb_new))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_pct_unsupported)))
  (call $sb_push_byte (local.get $sb)
    (select (local.get $c) (i32.const 63) (i32.and (i32.ge_u (local.get $c) (i32.const 31)) (i32.le_u (local.get $c) (i32.const 126)))))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_pct_unsupported_hex)))
  (call $sb_push_base (local.get $sb) (i64.extend_i32_u (local.get $c)) (i64.const 16) (i32.const 0))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_pct_at_index)))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $ci)))
  (call $raise_msg (global.get $t_ValueError) (call $sb_finish (local.get $sb))))

;; %d %i %u %o %x %X. flags: 1 '-', 2 '+', 4 ' ', 8 '#', 16 '0'.
(func $pct_int (param $sb i32) (param $v i64) (param $c i32) (param $flags i32) (param $width i32) (param $prec i32)
  (local $k i32) (local $n i64) (local $u i64) (local $base i64) (local $sign i32) (local $prefix i32)
  (local $num i32) (local $nd i32) (local $zp i32) (local $len i32)
  (local.set $k (call $num_kind (local.get $v)))
  (local.set $base (i64.const 10))
  (if (i32.eq (local.get $c) (i32.const 111)) (then (local.set $base (i64.const 8))))
  (if (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 120)) (then (local.set $base (i64.const 16))))
  (if (i32.or (i32.eqz (local.get $k))
        (i32.and (i32.eq (local.get $k) (i32.const 2)) (i64.ne (local.get $base) (i64.const 10))))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (select (global.get $s_pct_real_required) (global.get $s_pct_int_required) (i64.eq (local.get $base) (i64.const 10)))
        (call $pct_char_str (local.get $c)) (call $type_name (local.get $v))))))
  (if (i32.eq (local.get $k) (i32.const 2))
    (then (local.set $v (call $float_to_int (f64.load offset=8 (i32.wrap_i64 (local.get $v)))))))
  (local.set $n (call $int_val (local.get $v)))
  (if (i64.lt_s (local.get $n) (i64.const 0))
    (then (local.set $sign (i32.const 45)) (local.set $u (i64.sub (i64.const 0) (local.get $n))))
    (else
      (local.set $u (local.get $n))
      (if (i32.and (local.get $flags) (i32.const 2)) (then (local.set $sign (i32.const 43)))
        (else (if (i32.and (local.get $flags) (i32.const 4)) (then (local.set $sign (i32.const 32))))))))
  (if (i32.and (i32.ne (i32.and (local.get $flags) (i32.const 8)) (i32.const 0)) (i64.ne (local.get $base) (i64.const 10)))
    (then (local.set $prefix (select (i32.const 111) (local.get $c) (i64.eq (local.get $base) (i64.const 8))))))
  (local.set $num (call $sb_new))
  (call $sb_push_base (local.get $num) (local.get $u) (local.get $base) (i32.eq (local.get $c) (i32.const 88)))
  (local.set $nd (i32.load offset=4 (local.get $num)))
  (local.set $zp (i32.sub (local.get $prec) (local.get $nd)))
  (if (i32.lt_s (local.get $zp) (i32.const 0)) (then (local.set $zp (i32.const 0))))
  (local.set $len (i32.add (i32.add (local.get $nd) (local.get $zp))
    (i32.add (i32.ne (local.get $sign) (i32.const 0)) (select (i32.const 2) (i32.const 0) (local.get $prefix)))))
  (if (i32.eqz (i32.and (local.get $flags) (i32.const 17)))
    (then (call $pct_fill (local.get $sb) (i32.const 32) (i32.sub (local.get $width) (local.get $len)))))
  (if (local.get $sign) (then (call $sb_push_byte (local.get $sb) (local.get $sign))))
  (if (local.get $prefix)
    (then (call $sb_push_byte (local.get $sb) (i32.const 48)) (call $sb_push_byte (local.get $sb) (local.get $prefix))))
  (if (i32.eq (i32.and (local.get $flags) (i32.const 17)) (i32.const 16))
    (then (call $pct_fill (local.get $sb) (i32.const 48) (i32.sub (local.get $width) (local.get $len)))))
  (call $pct_fill (local.get $sb) (i32.const 48) (local.get $zp))
  (call $sb_push_counted (local.get $sb) (i32.load (local.get $num)) (local.get $nd) (local.get $nd))
  (if (i32.and (local.get $flags) (i32.const 1))
    (then (call $pct_fill (local.get $sb) (i32.const 32) (i32.sub (local.get $width) (local.get $len))))))

;; %e %E %f %F %g %G through the format-spec mini-language.
(func $pct_float (param $sb i32) (param $v i64) (param $c i32) (param $flags i32) (param $width i32) (param $prec i32)
  (local $spec i32)
  (if (i32.eqz (call $num_kind (local.get $v)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_num_must_be_real) (call $type_name (local.get $v))))))
  (local.set $spec (call $sb_new))
  (if (i32.and (local.get $flags) (i32.const 1)) (then (call $sb_push_byte (local.get $spec) (i32.const 60))))
  (if (i32.and (local.get $flags) (i32.const 2))
    (then (call $sb_push_byte (local.get $spec) (i32.const 43)))
    (else (if (i32.and (local.get $flags) (i32.const 4)) (then (call $sb_push_byte (local.get $spec) (i32.const 32))))))
  (if (i32.and (local.get $flags) (i32.const 8)) (then (call $sb_push_byte (local.get $spec) (i32.const 35))))
  (if (i32.eq (i32.and (local.get $flags) (i32.const 17)) (i32.const 16)) (then (call $sb_push_byte (local.get $spec) (i32.const 48))))
  (if (i32.gt_s (local.get $width) (i32.const 0)) (then (call $sb_push_i64 (local.get $spec) (i64.extend_i32_u (local.get $width)))))
  (if (i32.ge_s (local.get $prec) (i32.const 0))
    (then
      (call $sb_push_byte (local.get $spec) (i32.const 46))
      (call $sb_push_i64 (local.get $spec) (i64.extend_i32_u (local.get $prec)))))
  (call $sb_push_byte (local.get $spec) (local.get $c))
  (call $sb_push_str (local.get $sb) (call $format (local.get $v) (call $sb_finish (local.get $spec)))))

;; A width or precision given as `*`.
(func $pct_star (result i32)
  (local $v i64) (local $n i64)
  (local.set $v (call $pct_next))
  (if (i32.ne (call $num_kind (local.get $v)) (i32.const 1))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_pct_star))))
  (local.set $n (call $int_val (local.get $v)))
  (if (i32.or (i64.gt_s (local.get $n) (i64.const 0x7FFFFFFF)) (i64.lt_s (local.get $n) (i64.const -0x7FFFFFFF)))
    (then (call $raise_static (global.get $t_OverflowError) (global.get $s_pct_too_big))))
  (i32.wrap_i64 (local.get $n)))

(func $str_percent (param $fmt i64) (param $values i64) (result i64)
  (local $sb i32) (local $p i32) (local $end i32) (local $ci i32) (local $lit i32) (local $litci i32)
  (local $c i32) (local $t i32) (local $dict i64) (local $ks i32) (local $pcount i32) (local $key i32)
  (local $flags i32) (local $width i32) (local $prec i32) (local $v i64) (local $n i64) (local $f i32)
  (local $save_args i64) (local $save_idx i32) (local $save_len i32)
  (local.set $save_args (global.get $pct_args))
  (local.set $save_idx (global.get $pct_argidx))
  (local.set $save_len (global.get $pct_arglen))
  (local.set $t (call $tid (local.get $values)))
  (global.set $pct_args (local.get $values))
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
    (then
      (global.set $pct_arglen (i32.load offset=4 (i32.wrap_i64 (local.get $values))))
      (global.set $pct_argidx (i32.const 0)))
    (else
      (global.set $pct_arglen (i32.const -1))
      (global.set $pct_argidx (i32.const -2))))
  ;; A mapping (anything subscriptable but a tuple or str) supplies %(key)s.
  (if (i32.or (i32.or (i32.eq (local.get $t) (i32.const TYPE_LIST)) (i32.eq (local.get $t) (i32.const TYPE_DICT)))
        (i32.eq (local.get $t) (i32.const TYPE_RANGE)))
    (then (local.set $dict (local.get $values))))
  (local.set $sb (call $sb_new))
  (local.set $p (i32.add (i32.wrap_i64 (local.get $fmt)) (i32.const 16)))
  (local.set $end (i32.add (local.get $p) (i32.load offset=4 (i32.wrap_i64 (local.get $fmt)))))
  (local.set $lit (local.get $p))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
    (local.set $c (i32.load8_u (local.get $p)))
    (if (i32.ne (local.get $c) (i32.const 37))
      (then
        (if (i32.ne (i32.and (local.get $c) (i32.const 0xC0)) (i32.const 0x80))
          (then (local.set $ci (i32.add (local.get $ci) (i32.const 1)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $each)))
    (call $sb_push_counted (local.get $sb) (local.get $lit) (i32.sub (local.get $p) (local.get $lit))
      (i32.sub (local.get $ci) (local.get $litci)))
    (block $conv
      (block $incomplete
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
        (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.eq (local.get $c) (i32.const 37))
          (then
            (call $sb_push_byte (local.get $sb) (i32.const 37))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
            (br $conv)))
        (local.set $flags (i32.const 0))
        (local.set $width (i32.const -1))
        (local.set $prec (i32.const -1))
        ;; %(key)
        (if (i32.eq (local.get $c) (i32.const 40))
          (then
            (if (i64.eqz (local.get $dict))
              (then (call $raise_static (global.get $t_TypeError) (global.get $s_pct_mapping))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
            (local.set $ks (local.get $p))
            (local.set $pcount (i32.const 1))
            (block $kdone (loop $kscan
              (br_if $kdone (i32.ge_u (local.get $p) (local.get $end)))
              (local.set $c (i32.load8_u (local.get $p)))
              (if (i32.eq (local.get $c) (i32.const 41)) (then (local.set $pcount (i32.sub (local.get $pcount) (i32.const 1)))))
              (if (i32.eq (local.get $c) (i32.const 40)) (then (local.set $pcount (i32.add (local.get $pcount) (i32.const 1)))))
              (if (i32.ne (i32.and (local.get $c) (i32.const 0xC0)) (i32.const 0x80))
                (then (local.set $ci (i32.add (local.get $ci) (i32.const 1)))))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br_if $kdone (i32.eqz (local.get $pcount)))
              (br $kscan)))
            (if (i32.gt_s (local.get $pcount) (i32.const 0))
              (then (call $raise_static (global.get $t_ValueError) (global.get $s_pct_incomplete_key))))
            (local.set $n (i64.extend_i32_u (i32.sub (i32.sub (local.get $p) (local.get $ks)) (i32.const 1))))
            (local.set $key (call $str_alloc (i32.wrap_i64 (local.get $n))
              (call $utf8_count (local.get $ks) (i32.wrap_i64 (local.get $n)))))
            (call $memcpy (i32.add (local.get $key) (i32.const 16)) (local.get $ks) (i32.wrap_i64 (local.get $n)))
            (global.set $pct_args (call $getitem (local.get $dict) (i64.extend_i32_u (local.get $key))))
            (global.set $pct_arglen (i32.const -1))
            (global.set $pct_argidx (i32.const -2))
            (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $p)))))
        ;; flags
        (block $fdone (loop $fscan
          (local.set $f (i32.const 0))
          (if (i32.eq (local.get $c) (i32.const 45)) (then (local.set $f (i32.const 1))))
          (if (i32.eq (local.get $c) (i32.const 43)) (then (local.set $f (i32.const 2))))
          (if (i32.eq (local.get $c) (i32.const 32)) (then (local.set $f (i32.const 4))))
          (if (i32.eq (local.get $c) (i32.const 35)) (then (local.set $f (i32.const 8))))
          (if (i32.eq (local.get $c) (i32.const 48)) (then (local.set $f (i32.const 16))))
          (br_if $fdone (i32.eqz (local.get $f)))
          (local.set $flags (i32.or (local.get $flags) (local.get $f)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
          (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
          (local.set $c (i32.load8_u (local.get $p)))
          (br $fscan)))
        ;; width
        (if (i32.eq (local.get $c) (i32.const 42))
          (then
            (local.set $width (call $pct_star))
            (if (i32.lt_s (local.get $width) (i32.const 0))
              (then
                (local.set $flags (i32.or (local.get $flags) (i32.const 1)))
                (local.set $width (i32.sub (i32.const 0) (local.get $width)))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
            (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $p))))
          (else
            (if (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
              (then
                (local.set $n (i64.const 0))
                (block $wdone (loop $wscan
                  (br_if $wdone (i32.ge_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)))
                  (local.set $n (i64.add (i64.mul (local.get $n) (i64.const 10)) (i64.extend_i32_u (i32.sub (local.get $c) (i32.const 48)))))
                  (if (i64.gt_s (local.get $n) (i64.const 0x7FFFFFFF))
                    (then (call $raise_static (global.get $t_ValueError) (global.get $s_pct_width_big))))
                  (local.set $p (i32.add (local.get $p) (i32.const 1)))
                  (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
                  (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
                  (local.set $c (i32.load8_u (local.get $p)))
                  (br $wscan)))
                (local.set $width (i32.wrap_i64 (local.get $n)))))))
        ;; precision
        (if (i32.eq (local.get $c) (i32.const 46))
          (then
            (local.set $prec (i32.const 0))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
            (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $p)))
            (if (i32.eq (local.get $c) (i32.const 42))
              (then
                (local.set $prec (call $pct_star))
                (if (i32.lt_s (local.get $prec) (i32.const 0)) (then (local.set $prec (i32.const 0))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
                (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
                (local.set $c (i32.load8_u (local.get $p))))
              (else
                (local.set $n (i64.const 0))
                (block $pdone (loop $pscan
                  (br_if $pdone (i32.ge_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)))
                  (local.set $n (i64.add (i64.mul (local.get $n) (i64.const 10)) (i64.extend_i32_u (i32.sub (local.get $c) (i32.const 48)))))
                  (if (i64.gt_s (local.get $n) (i64.const 0x7FFFFFFF))
                    (then (call $raise_static (global.get $t_ValueError) (global.get $s_pct_prec_big))))
                  (local.set $p (i32.add (local.get $p) (i32.const 1)))
                  (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
                  (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
                  (local.set $c (i32.load8_u (local.get $p)))
                  (br $pscan)))
                (local.set $prec (i32.wrap_i64 (local.get $n)))))))
        ;; length modifiers h, l, L are ignored
        (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 104)) (i32.eq (local.get $c) (i32.const 108)))
              (i32.eq (local.get $c) (i32.const 76)))
          (then
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
            (br_if $incomplete (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $p)))))
        ;; the conversion
        (local.set $v (call $pct_next))
        (block $converted
          (if (i32.eq (local.get $c) (i32.const 115))
            (then
              (call $pct_push_padded (local.get $sb) (call $to_str (local.get $v)) (local.get $prec) (local.get $width)
                (i32.and (local.get $flags) (i32.const 1)))
              (br $converted)))
          (if (i32.eq (local.get $c) (i32.const 114))
            (then
              (call $pct_push_padded (local.get $sb) (call $to_repr (local.get $v)) (local.get $prec) (local.get $width)
                (i32.and (local.get $flags) (i32.const 1)))
              (br $converted)))
          (if (i32.eq (local.get $c) (i32.const 97))
            (then
              (call $pct_push_padded (local.get $sb) (call $pct_ascii (call $to_repr (local.get $v))) (local.get $prec) (local.get $width)
                (i32.and (local.get $flags) (i32.const 1)))
              (br $converted)))
          (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 100)) (i32.eq (local.get $c) (i32.const 105)))
                (i32.or (i32.or (i32.eq (local.get $c) (i32.const 117)) (i32.eq (local.get $c) (i32.const 111)))
                  (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 120))))
            (then
              (call $pct_int (local.get $sb) (local.get $v) (local.get $c) (local.get $flags) (local.get $width) (local.get $prec))
              (br $converted)))
          (if (i32.or (i32.or (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 101))
                (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 102)))
                (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 103)))
            (then
              (call $pct_float (local.get $sb) (local.get $v) (local.get $c) (local.get $flags) (local.get $width) (local.get $prec))
              (br $converted)))
          (if (i32.eq (local.get $c) (i32.const 99))
            (then
              (if (i32.eq (call $tid (local.get $v)) (i32.const TYPE_STR))
                (then
                  (if (i32.ne (i32.load offset=8 (i32.wrap_i64 (local.get $v))) (i32.const 1))
                    (then (call $raise_static (global.get $t_TypeError) (global.get $s_pct_c_type)))))
                (else
                  (if (i32.ne (call $num_kind (local.get $v)) (i32.const 1))
                    (then (call $raise_static (global.get $t_TypeError) (global.get $s_pct_c_type))))
                  (local.set $n (call $int_val (local.get $v)))
                  (if (i64.gt_u (local.get $n) (i64.const 0x10FFFF))
                    (then (call $raise_static (global.get $t_OverflowError) (global.get $s_pct_c_range))))
                  (local.set $key (call $sb_new))
                  (call $sb_push_codepoint (local.get $key) (i32.wrap_i64 (local.get $n)))
                  (local.set $v (call $sb_finish (local.get $key)))))
              (call $pct_push_padded (local.get $sb) (local.get $v) (i32.const -1) (local.get $width)
                (i32.and (local.get $flags) (i32.const 1)))
              (br $converted)))
          (call $pct_unsupported (local.get $p) (local.get $ci)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
        (br $conv))
      (call $raise_static (global.get $t_ValueError) (global.get $s_pct_incomplete)))
    (local.set $lit (local.get $p))
    (local.set $litci (local.get $ci))
    (br $each)))
  (call $sb_push_counted (local.get $sb) (local.get $lit) (i32.sub (local.get $p) (local.get $lit))
    (i32.sub (local.get $ci) (local.get $litci)))
  (if (i32.and (i32.lt_s (global.get $pct_argidx) (global.get $pct_arglen)) (i64.eqz (local.get $dict)))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_pct_not_all))))
  (global.set $pct_args (local.get $save_args))
  (global.set $pct_argidx (local.get $save_idx))
  (global.set $pct_arglen (local.get $save_len))
  (call $sb_finish (local.get $sb)))

;; ---- text leaving the plan ---------------------------------------------------------------------
;; A str may hold a lone surrogate (chr(0xD800), json.loads('"\\ud800"')), kept as its three-byte
;; form ED A0..BF xx, which is not UTF-8. Text that leaves the plan (stdout, the run's log) must
;; be UTF-8, so, as CPython's UTF-8 streams do, such text raises UnicodeEncodeError instead.

;; The byte offset of the first lone surrogate in the str `s`, or -1.
(func $str_surrogate_at (param $s i64) (result i32)
  (local $d i32) (local $n i32) (local $i i32)
  (local.set $d (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16)))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $s))))
  ;; ASCII text (as many characters as bytes, the common case of every print) has none.
  (if (i32.eq (local.get $n) (i32.load offset=8 (i32.wrap_i64 (local.get $s)))) (then (return (i32.const -1))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
      (if (i32.and (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $i))) (i32.const 0xED))
            (i32.ge_u (i32.load8_u offset=1 (i32.add (local.get $d) (local.get $i))) (i32.const 0xA0)))
        (then (return (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const -1))

;; Raises CPython's UnicodeEncodeError unless the str `s` encodes as UTF-8.
(func $str_check_encodable (param $s i64)
  (local $at i32) (local $d i32) (local $e i64) (local $start i64) (local $end i64) (local $args i32)
  (local.set $at (call $str_surrogate_at (local.get $s)))
  (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return)))
  (local.set $d (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16)))
  ;; CPython's arguments, which are its attributes too: the codec, the text, where the
  ;; character is and why. The message is made from them (`$unicode_encode_error_str`).
  (local.set $start (call $int_new (i64.extend_i32_u (call $utf8_count (local.get $d) (local.get $at)))))
  (local.set $end (call $int_new (i64.extend_i32_u
    (i32.add (call $utf8_count (local.get $d) (local.get $at)) (i32.const 1)))))
  (local.set $args (call $tuple_new (i32.const 5)))
  (i64.store offset=8 (local.get $args) (i64.extend_i32_u (global.get $s_str_utf_8)))
  (i64.store offset=16 (local.get $args) (local.get $s))
  (i64.store offset=24 (local.get $args) (local.get $start))
  (i64.store offset=32 (local.get $args) (local.get $end))
  (i64.store offset=40 (local.get $args) (i64.extend_i32_u (global.get $s_str_surrogates_not_allowed)))
  (local.set $e (call $exc_new (global.get $t_UnicodeEncodeError) (i64.extend_i32_u (local.get $args))))
  (call $exc_set_attr (local.get $e) (global.get $s_str_kw_encoding) (i64.extend_i32_u (global.get $s_str_utf_8)))
  (call $exc_set_attr (local.get $e) (global.get $s_str_attr_object) (local.get $s))
  (call $exc_set_attr (local.get $e) (global.get $s_str_attr_start) (local.get $start))
  (call $exc_set_attr (local.get $e) (global.get $s_str_attr_end) (local.get $end))
  (call $exc_set_attr (local.get $e) (global.get $s_str_attr_reason) (i64.extend_i32_u (global.get $s_str_surrogates_not_allowed)))
  (call $raise (local.get $e)))

;; str() of a UnicodeEncodeError made by `$str_check_encodable` (arguments: codec, text, start,
;; end, reason), as CPython words it: "'utf-8' codec can't encode character '\ud800' in
;; position 3: surrogates not allowed".
(func $unicode_encode_error_str (param $args i32) (result i64)
  (local $ch i64) (local $sb i32)
  (local.set $ch (call $getitem (i64.load offset=16 (local.get $args)) (i64.load offset=24 (local.get $args))))
  (local.set $sb (call $sb_new))
  (call $str_sb_escape (local.get $sb) (call $str_cp_at (i32.add (i32.wrap_i64 (local.get $ch)) (i32.const 16))))
  (call $msg2 (global.get $s_str_unencodable) (call $sb_finish (local.get $sb))
    (call $to_str (i64.load offset=24 (local.get $args)))))

;; The str `s` with each lone surrogate written as its escape (`\ud800`), as CPython writes
;; text to stderr: for reports, which must reach the host as UTF-8 whatever they quote.
(func $str_escape_surrogates (param $s i64) (result i64)
  (local $d i32) (local $n i32) (local $i i32) (local $sb i32)
  (if (i32.lt_s (call $str_surrogate_at (local.get $s)) (i32.const 0)) (then (return (local.get $s))))
  (local.set $d (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16)))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $s))))
  (local.set $sb (call $sb_new))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.and (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $n))
            (i32.and (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $i))) (i32.const 0xED))
              (i32.ge_u (i32.load8_u offset=1 (i32.add (local.get $d) (local.get $i))) (i32.const 0xA0))))
        (then
          (call $str_sb_escape (local.get $sb) (call $str_cp_at (i32.add (local.get $d) (local.get $i))))
          (local.set $i (i32.add (local.get $i) (i32.const 3))))
        (else
          (call $sb_push_bytes (local.get $sb) (i32.add (local.get $d) (local.get $i)) (i32.const 1))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))))
      (br $each)))
  (call $sb_finish (local.get $sb)))
