;; fast.wat: helpers for the compiler's fast paths (compiler/src/codegen): f-string building
;; without intermediate strings, and common method calls without an argument tuple or a
;; method lookup by name. Every helper falls back to the generic runtime for anything it does
;; not special-case, so results and errors are those of the generic path.

;; ---- f-strings ---------------------------------------------------------------------------------
;; A builder (internal, never a Python value): an object of type 21 (so a collection that finds
;; it in a shadow frame keeps its buffer, gc.wat); +8 the str object under construction (its
;; bytes at +16), +12 bytes used, +16 byte capacity, +20 code points. Finishing turns the buffer
;; into the str in place; a large buffer gives back its unused whole chunks.

;; A builder with room for `cap` bytes (the compiler's estimate of the f-string's length: its
;; literal text and some bytes per field).
(func $fsb_with (param $cap i32) (result i32)
  (local $sb i32)
  (local.set $sb (call $alloc (i32.const 24)))
  (i32.store (local.get $sb) (i32.const TYPE_STR_BUILDER))
  (i32.store offset=8 (local.get $sb) (call $alloc (i32.add (local.get $cap) (i32.const 16))))
  (i32.store offset=16 (local.get $sb) (local.get $cap))
  (local.get $sb))

;; Room for `extra` more bytes.
(func $fsb_reserve (param $sb i32) (param $extra i32)
  (local $need i64) (local $cap i64) (local $buf i32)
  (local.set $need (i64.add (i64.extend_i32_u (i32.load offset=12 (local.get $sb)))
    (i64.extend_i32_u (local.get $extra))))
  (local.set $cap (i64.extend_i32_u (i32.load offset=16 (local.get $sb))))
  (if (i64.le_u (local.get $need) (local.get $cap)) (then (return)))
  (loop $double
    (local.set $cap (i64.shl (local.get $cap) (i64.const 1)))
    (br_if $double (i64.lt_u (local.get $cap) (local.get $need))))
  (local.set $buf (call $alloc64 (i64.add (local.get $cap) (i64.const 16))))
  (call $memcpy (i32.add (local.get $buf) (i32.const 16))
    (i32.add (i32.load offset=8 (local.get $sb)) (i32.const 16)) (i32.load offset=12 (local.get $sb)))
  ;; Only the builder refers to its buffer.
  (call $free (i32.load offset=8 (local.get $sb)))
  (i32.store offset=8 (local.get $sb) (local.get $buf))
  (i32.store offset=16 (local.get $sb) (i32.wrap_i64 (local.get $cap))))

(func $fsb_push_str (param $sb i32) (param $s i64)
  (local $p i32) (local $len i32) (local $used i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $len (i32.load offset=4 (local.get $p)))
  (local.set $used (i32.load offset=12 (local.get $sb)))
  ;; (the room checked here: most pieces fit the compiler's estimate)
  (if (i64.gt_u (i64.add (i64.extend_i32_u (local.get $used)) (i64.extend_i32_u (local.get $len)))
        (i64.extend_i32_u (i32.load offset=16 (local.get $sb))))
    (then (call $fsb_reserve (local.get $sb) (local.get $len))))
  (call $memcpy (i32.add (i32.add (i32.load offset=8 (local.get $sb)) (i32.const 16)) (local.get $used))
    (i32.add (local.get $p) (i32.const 16)) (local.get $len))
  (i32.store offset=12 (local.get $sb) (i32.add (local.get $used) (local.get $len)))
  (i32.store offset=20 (local.get $sb)
    (i32.add (i32.load offset=20 (local.get $sb)) (i32.load offset=8 (local.get $p)))))

;; Appends the decimal digits of a small int's value `n`.
(func $fsb_push_small (param $sb i32) (param $n i64)
  (local $neg i32) (local $u i64) (local $len i32) (local $at i32)
  (local.set $neg (i64.lt_s (local.get $n) (i64.const 0)))
  (local.set $u (select (i64.sub (i64.const 0) (local.get $n)) (local.get $n) (local.get $neg)))
  (local.set $len (i32.add (call $decimal_len (local.get $u)) (local.get $neg)))
  (call $fsb_reserve (local.get $sb) (local.get $len))
  (local.set $at (i32.add (i32.add (i32.load offset=8 (local.get $sb)) (i32.const 16)) (i32.load offset=12 (local.get $sb))))
  (if (local.get $neg) (then (i32.store8 (local.get $at) (i32.const 45))))
  (call $decimal_write (i32.add (local.get $at) (local.get $len)) (local.get $u))
  (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (local.get $len)))
  (i32.store offset=20 (local.get $sb) (i32.add (i32.load offset=20 (local.get $sb)) (local.get $len))))

;; Appends str(v).
(func $fsb_push_value (param $sb i32) (param $v i64)
  (if (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))
    (then
      (call $fsb_push_small (local.get $sb) (i64.shr_s (local.get $v) (i64.const 1)))
      (return)))
  (if (i32.eq (i32.load (i32.wrap_i64 (local.get $v))) (i32.const 5))
    (then (call $fsb_push_str (local.get $sb) (local.get $v)) (return)))
  (call $fsb_push_str (local.get $sb) (call $to_str (local.get $v))))

(func $fsb_finish (param $sb i32) (result i64)
  (local $s i32) (local $used i32) (local $end i32)
  (local.set $s (i32.load offset=8 (local.get $sb)))
  (local.set $used (i32.load offset=12 (local.get $sb)))
  (i32.store (local.get $s) (i32.const TYPE_STR))
  (i32.store offset=4 (local.get $s) (local.get $used))
  (i32.store offset=8 (local.get $s) (i32.load offset=20 (local.get $sb)))
  (call $shrink (local.get $s) (i32.add (local.get $used) (i32.const 16)))
  (call $free (local.get $sb))
  (i64.extend_i32_u (local.get $s)))

;; ---- join builders -----------------------------------------------------------------------------
;; `sep.join(items)` made as the items come, for an iterator (str.wat, `$str_join_iter`) and for
;; a generator expression the compiler runs inline (`"sep".join(genexpr)`): a str builder (56
;; bytes, so the collector also keeps the two items below) with the join's state after it: +24
;; the first item, +32 the first item that is not a str (0: none yet), +40 the items so far
;; (i64), +48 that item's index (i64). What CPython's join, which makes a list of the items
;; first, does is kept: every item is made before an error about one of them is raised, the
;; error names the first that is not a str, and the one item of a one-item join is the result
;; itself.

(func $join_new (result i64)
  (local $jb i32)
  (local.set $jb (call $alloc (i32.const 56)))
  (i32.store (local.get $jb) (i32.const TYPE_STR_BUILDER))
  (i32.store offset=8 (local.get $jb) (call $alloc (i32.const 80)))
  (i32.store offset=16 (local.get $jb) (i32.const 64))
  (i64.extend_i32_u (local.get $jb)))

;; Adds the next item (and the separator before it).
(func $join_push (param $jb i64) (param $sep i64) (param $v i64)
  (local $b i32) (local $n i64)
  (local.set $b (i32.wrap_i64 (local.get $jb)))
  (local.set $n (i64.load offset=40 (local.get $b)))
  (i64.store offset=40 (local.get $b) (i64.add (local.get $n) (i64.const 1)))
  ;; The first item waits: if it is the only one, it is the result.
  (if (i64.eqz (local.get $n))
    (then (i64.store offset=24 (local.get $b) (local.get $v)) (return)))
  (if (i64.eq (local.get $n) (i64.const 1))
    (then (call $join_take (local.get $b) (i64.extend_i32_u (global.get $s_empty))
      (i64.load offset=24 (local.get $b)) (i64.const 0))))
  (call $join_take (local.get $b) (local.get $sep) (local.get $v) (local.get $n)))

;; Starts an item the compiler's code writes into the builder itself (an f-string's pieces,
;; `"sep".join(f"..." for ...)`): counts it and appends the separator before it. Such items are
;; strs, so none is an error, and there is no first item waiting for `$join_finish`.
(func $join_piece (param $jb i64) (param $sep i64)
  (local $b i32) (local $n i64)
  (local.set $b (i32.wrap_i64 (local.get $jb)))
  (local.set $n (i64.load offset=40 (local.get $b)))
  (i64.store offset=40 (local.get $b) (i64.add (local.get $n) (i64.const 1)))
  (if (i32.and (i64.ne (local.get $n) (i64.const 0))
               (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $sep))) (i32.const 0)))
    (then (call $fsb_push_str (local.get $b) (local.get $sep)))))

;; Appends `sep` and item `v` (number `i`), or notes `v` when it is the first that is not a str.
(func $join_take (param $b i32) (param $sep i64) (param $v i64) (param $i i64)
  (if (i64.ne (i64.load offset=32 (local.get $b)) (i64.const 0)) (then (return)))
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_STR))
    (then
      (i64.store offset=32 (local.get $b) (local.get $v))
      (i64.store offset=48 (local.get $b) (local.get $i))
      (return)))
  (if (i32.load offset=4 (i32.wrap_i64 (local.get $sep)))
    (then (call $fsb_push_str (local.get $b) (local.get $sep))))
  (call $fsb_push_str (local.get $b) (local.get $v)))

;; The joined str (the builder is used up), or TypeError for an item that is not a str.
(func $join_finish (param $jb i64) (result i64)
  (local $b i32) (local $n i64) (local $first i64)
  (local.set $b (i32.wrap_i64 (local.get $jb)))
  (local.set $n (i64.load offset=40 (local.get $b)))
  (if (i64.eqz (local.get $n)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
  (if (i64.ne (i64.load offset=32 (local.get $b)) (i64.const 0))
    (then (call $str_join_item_error (i64.load offset=48 (local.get $b)) (i64.load offset=32 (local.get $b)))))
  ;; (an item written in place, `$join_piece`, is in the buffer already: no first item waits)
  (local.set $first (i64.load offset=24 (local.get $b)))
  (if (i32.and (i64.eq (local.get $n) (i64.const 1)) (i64.ne (local.get $first) (i64.const 0)))
    (then
      (if (i32.ne (call $tid (local.get $first)) (i32.const TYPE_STR))
        (then (call $str_join_item_error (i64.const 0) (local.get $first))))
      (return (local.get $first))))
  (call $fsb_finish (local.get $b)))

;; `{v:spec}`: appends format(v, spec). Small ints with type `d` `x` `X` `o` `b` (or none) and finite floats with
;; type `f`/`F` and a precision of at most 3 are laid out in place (sign, fill, alignment, width);
;; anything else — grouping, `z`, `#`, a fill that is not one ASCII byte, other types — goes
;; through the generic `$format`, which parses the spec again and so raises the same errors.
;; `packed` is the spec parsed by the compiler (compiler/src/codegen/fstring_spec.rs), or 0 to
;; parse `spec` here: bits 0-7 the fill byte, 8-15 the align, 16-23 the sign, 24-31 the type
;; (0 for none), 32-47 width + 1 and 48-55 precision + 1 (0 for none); the compiler packs only
;; specs with an ASCII fill and no grouping, `z` or `#`, after applying the `0` flag's defaults.
(func $fsb_push_formatted (param $sb i32) (param $v i64) (param $spec i64) (param $packed i64)
  (local $fill i32) (local $kind i32) (local $sign i32) (local $u i64) (local $prec i32) (local $ip i64) (local $fp i64)
  (local $body i32) (local $len i32) (local $pad i32) (local $before i32) (local $at i32) (local $t i32)
  (local $bits i64) (local $m i64) (local $k i64) (local $rem i64) (local $half i64) (local $scale i64)
  (local $shift i32)
  (if (i32.eqz (i32.load offset=4 (i32.wrap_i64 (local.get $spec))))
    (then (call $fsb_push_value (local.get $sb) (local.get $v)) (return)))
  ;; 1: a small int, 2: a float; anything else takes the generic path unparsed.
  (local.set $kind
    (if (result i32) (i32.wrap_i64 (i64.and (local.get $v) (i64.const 1)))
      (then (i32.const 1))
      (else (i32.shl (i32.eq (i32.load (i32.wrap_i64 (local.get $v))) (i32.const 4)) (i32.const 1)))))
  (block $generic
    (br_if $generic (i32.eqz (local.get $kind)))
    (if (i64.eqz (local.get $packed))
      (then
        (call $fmt_parse (local.get $v) (local.get $spec))
        (br_if $generic (i32.or (i32.or (global.get $fmt_group) (global.get $fmt_z))
          (i32.or (global.get $fmt_alt) (i32.ne (global.get $fmt_fill_len) (i32.const 1)))))
        (local.set $fill (i32.load8_u (global.get $fmt_fill)))
        (br_if $generic (i32.ge_u (local.get $fill) (i32.const 0x80))))
      (else
        (local.set $fill (i32.wrap_i64 (i64.and (local.get $packed) (i64.const 0xFF))))
        (global.set $fmt_align (i32.wrap_i64 (i64.and (i64.shr_u (local.get $packed) (i64.const 8)) (i64.const 0xFF))))
        (global.set $fmt_sign (i32.wrap_i64 (i64.and (i64.shr_u (local.get $packed) (i64.const 16)) (i64.const 0xFF))))
        (global.set $fmt_type (i32.wrap_i64 (i64.and (i64.shr_u (local.get $packed) (i64.const 24)) (i64.const 0xFF))))
        (global.set $fmt_width (i32.sub
          (i32.wrap_i64 (i64.and (i64.shr_u (local.get $packed) (i64.const 32)) (i64.const 0xFFFF))) (i32.const 1)))
        (global.set $fmt_prec (i32.sub
          (i32.wrap_i64 (i64.and (i64.shr_u (local.get $packed) (i64.const 48)) (i64.const 0xFF))) (i32.const 1)))))
    (local.set $t (global.get $fmt_type))
    (if (i32.eq (local.get $kind) (i32.const 1))
      (then
        ;; d (or none) in decimal; x X o b as digits of 4, 4, 3 or 1 bits (`#` went generic)
        (local.set $shift (select (i32.const 4) (select (i32.const 3) (select (i32.const 1) (i32.const 0)
          (i32.eq (local.get $t) (i32.const 98))) (i32.eq (local.get $t) (i32.const 111)))
          (i32.eq (i32.or (local.get $t) (i32.const 32)) (i32.const 120))))
        (br_if $generic (i32.eqz (i32.or (local.get $shift)
          (i32.or (i32.eqz (local.get $t)) (i32.eq (local.get $t) (i32.const 100))))))
        (br_if $generic (i32.ge_s (global.get $fmt_prec) (i32.const 0)))
        (local.set $ip (i64.shr_s (local.get $v) (i64.const 1)))
        (if (i64.lt_s (local.get $ip) (i64.const 0))
          (then (local.set $sign (i32.const 45)) (local.set $ip (i64.sub (i64.const 0) (local.get $ip)))))
        (local.set $prec (i32.const 0)))
      (else
        ;; x = m * 2^-k exactly; rounded to `prec` decimals, it is round(m * 10^prec / 2^k)
        ;; half to even (CPython rounds the exact binary value): m < 2^53 and 10^prec <= 1000
        ;; keep the product below 2^63.
        (br_if $generic (i32.ne (i32.or (local.get $t) (i32.const 32)) (i32.const 102)))
        (local.set $prec (global.get $fmt_prec))
        (if (i32.lt_s (local.get $prec) (i32.const 0)) (then (local.set $prec (i32.const 6))))
        (br_if $generic (i32.gt_u (local.get $prec) (i32.const 3)))
        (local.set $bits (i64.load offset=8 (i32.wrap_i64 (local.get $v))))
        (local.set $k (i64.and (i64.shr_u (local.get $bits) (i64.const 52)) (i64.const 0x7FF)))
        (br_if $generic (i64.eq (local.get $k) (i64.const 0x7FF)))
        (local.set $m (i64.and (local.get $bits) (i64.const 0xFFFFFFFFFFFFF)))
        (if (i64.eqz (local.get $k))
          (then (local.set $k (i64.const 1074)))
          (else
            (local.set $m (i64.or (local.get $m) (i64.const 0x10000000000000)))
            (local.set $k (i64.sub (i64.const 1075) (local.get $k)))))
        ;; 2^52 and above: integers, rare in `.Nf`; the generic path has the digits.
        (br_if $generic (i64.le_s (local.get $k) (i64.const 0)))
        (if (i64.lt_s (local.get $bits) (i64.const 0)) (then (local.set $sign (i32.const 45))))
        (local.set $scale (select (i64.const 1) (select (i64.const 10) (select (i64.const 100) (i64.const 1000)
          (i32.eq (local.get $prec) (i32.const 2))) (i32.eq (local.get $prec) (i32.const 1))) (i32.eqz (local.get $prec))))
        (local.set $m (i64.mul (local.get $m) (local.get $scale)))
        (if (i64.ge_u (local.get $k) (i64.const 64))
          ;; m * 10^prec < 2^63, so the value is below one half: it rounds to 0.
          (then (local.set $u (i64.const 0)))
          (else
            (local.set $u (i64.shr_u (local.get $m) (local.get $k)))
            (local.set $rem (i64.and (local.get $m) (i64.sub (i64.shl (i64.const 1) (local.get $k)) (i64.const 1))))
            (local.set $half (i64.shl (i64.const 1) (i64.sub (local.get $k) (i64.const 1))))
            (if (i32.or (i64.gt_u (local.get $rem) (local.get $half))
                  (i32.and (i64.eq (local.get $rem) (local.get $half)) (i32.wrap_i64 (i64.and (local.get $u) (i64.const 1)))))
              (then (local.set $u (i64.add (local.get $u) (i64.const 1)))))))
        (local.set $ip (i64.div_u (local.get $u) (local.get $scale)))
        (local.set $fp (i64.rem_u (local.get $u) (local.get $scale)))))
    (if (i32.eqz (local.get $sign))
      (then (if (i32.or (i32.eq (global.get $fmt_sign) (i32.const 43)) (i32.eq (global.get $fmt_sign) (i32.const 32)))
        (then (local.set $sign (global.get $fmt_sign))))))
    ;; body: the integer digits, then "." and `prec` fraction digits
    (local.set $body (if (result i32) (local.get $shift)
      (then (call $bits_len (local.get $ip) (local.get $shift)))
      (else (call $dec_len (local.get $ip)))))
    (if (local.get $prec) (then (local.set $body (i32.add (local.get $body) (i32.add (local.get $prec) (i32.const 1))))))
    (local.set $len (i32.add (local.get $body) (i32.ne (local.get $sign) (i32.const 0))))
    (local.set $pad (i32.sub (global.get $fmt_width) (local.get $len)))
    (if (i32.lt_s (local.get $pad) (i32.const 0)) (then (local.set $pad (i32.const 0))))
    (local.set $before (local.get $pad))
    (if (i32.eq (global.get $fmt_align) (i32.const 60)) (then (local.set $before (i32.const 0))))
    (if (i32.eq (global.get $fmt_align) (i32.const 94)) (then (local.set $before (i32.shr_u (local.get $pad) (i32.const 1)))))
    (local.set $len (i32.add (local.get $len) (local.get $pad)))
    (call $fsb_reserve (local.get $sb) (local.get $len))
    (local.set $at (i32.add (i32.add (i32.load offset=8 (local.get $sb)) (i32.const 16)) (i32.load offset=12 (local.get $sb))))
    (if (i32.ne (global.get $fmt_align) (i32.const 61))
      (then
        (memory.fill (local.get $at) (local.get $fill) (local.get $before))
        (local.set $at (i32.add (local.get $at) (local.get $before)))))
    (if (local.get $sign)
      (then (i32.store8 (local.get $at) (local.get $sign)) (local.set $at (i32.add (local.get $at) (i32.const 1)))))
    (if (i32.eq (global.get $fmt_align) (i32.const 61))
      (then
        (memory.fill (local.get $at) (local.get $fill) (local.get $pad))
        (local.set $at (i32.add (local.get $at) (local.get $pad)))
        (local.set $pad (i32.const 0))
        (local.set $before (i32.const 0))))
    (local.set $at
      (if (result i32) (local.get $shift)
        (then (call $put_bits_digits (local.get $at) (local.get $ip) (local.get $body) (local.get $shift)
          (i32.eq (local.get $t) (i32.const 88))))
        (else (call $put_digits (local.get $at) (local.get $ip) (call $dec_len (local.get $ip))))))
    (if (local.get $prec)
      (then
        (i32.store8 (local.get $at) (i32.const 46))
        (local.set $at (call $put_digits (i32.add (local.get $at) (i32.const 1)) (local.get $fp) (local.get $prec)))))
    (memory.fill (local.get $at) (local.get $fill) (i32.sub (local.get $pad) (local.get $before)))
    (i32.store offset=12 (local.get $sb) (i32.add (i32.load offset=12 (local.get $sb)) (local.get $len)))
    (i32.store offset=20 (local.get $sb) (i32.add (i32.load offset=20 (local.get $sb)) (local.get $len)))
    (return))
  (call $fsb_push_str (local.get $sb) (call $format (local.get $v) (local.get $spec))))

;; The number of decimal digits of u (1 for 0).
(func $dec_len (param $u i64) (result i32)
  (local $n i32)
  (local.set $n (i32.const 1))
  (block $done
    (loop $each
      (br_if $done (i64.lt_u (local.get $u) (i64.const 10)))
      (local.set $u (i64.div_u (local.get $u) (i64.const 10)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $each)))
  (local.get $n))

;; The number of base-2^shift digits of u (1 for 0).
(func $bits_len (param $u i64) (param $shift i32) (result i32)
  (local $n i32)
  (local.set $n (i32.const 1))
  (block $done
    (loop $each
      (local.set $u (i64.shr_u (local.get $u) (i64.extend_i32_u (local.get $shift))))
      (br_if $done (i64.eqz (local.get $u)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $each)))
  (local.get $n))

;; Writes the `n` base-2^shift digits of u at `at` (letters upper case when `upper`); returns
;; the address after them.
(func $put_bits_digits (param $at i32) (param $u i64) (param $n i32) (param $shift i32) (param $upper i32) (result i32)
  (local $p i32) (local $d i32) (local $mask i64)
  (local.set $mask (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $shift))) (i64.const 1)))
  (local.set $p (i32.add (local.get $at) (local.get $n)))
  (block $done
    (loop $each
      (br_if $done (i32.le_u (local.get $p) (local.get $at)))
      (local.set $p (i32.sub (local.get $p) (i32.const 1)))
      (local.set $d (i32.wrap_i64 (i64.and (local.get $u) (local.get $mask))))
      (i32.store8 (local.get $p) (i32.add (local.get $d)
        (if (result i32) (i32.lt_u (local.get $d) (i32.const 10)) (then (i32.const 48))
          (else (select (i32.const 55) (i32.const 87) (local.get $upper))))))
      (local.set $u (i64.shr_u (local.get $u) (i64.extend_i32_u (local.get $shift))))
      (br $each)))
  (i32.add (local.get $at) (local.get $n)))

;; Writes the last `n` decimal digits of u at `at` (zero-padded); returns the address after them.
(func $put_digits (param $at i32) (param $u i64) (param $n i32) (result i32)
  (local $p i32)
  (local.set $p (i32.add (local.get $at) (local.get $n)))
  (block $done
    (loop $each
      (br_if $done (i32.le_u (local.get $p) (local.get $at)))
      (local.set $p (i32.sub (local.get $p) (i32.const 1)))
      (i32.store8 (local.get $p) (i32.add (i32.const 48) (i32.wrap_i64 (i64.rem_u (local.get $u) (i64.const 10)))))
      (local.set $u (i64.div_u (local.get $u) (i64.const 10)))
      (br $each)))
  (i32.add (local.get $at) (local.get $n)))

;; ---- methods -----------------------------------------------------------------------------------

;; `recv.append(v)`.
(func $fast_append (param $recv i64) (param $name i64) (param $v i64) (result i64)
  (if (i32.eq (call $tid (local.get $recv)) (i32.const TYPE_LIST))
    (then
      (call $list_append (local.get $recv) (local.get $v))
      (return (i64.const 8))))
  (call $call_method (local.get $recv) (local.get $name) (i32.wrap_i64 (call $tuple1 (local.get $v))) (i32.const 0)))

;; `recv.get(k)` (n = 1) or `recv.get(k, default)` (n = 2).
(func $fast_get (param $recv i64) (param $name i64) (param $k i64) (param $default i64) (param $n i32) (result i64)
  (local $v i64)
  (if (i32.eq (call $tid (local.get $recv)) (i32.const TYPE_DICT))
    (then
      (local.set $v (call $dict_get (local.get $recv) (local.get $k)))
      (if (i64.eqz (local.get $v)) (then (return (local.get $default))))
      (return (local.get $v))))
  (call $call_method (local.get $recv) (local.get $name)
    (call $fast_args (local.get $k) (local.get $default) (local.get $n)) (i32.const 0)))

;; str methods a plan calls with plain positional arguments, straight to their implementation
;; when the receiver (and each argument) is what the common case needs; anything else goes to
;; `$call_method` with the same arguments, which dispatches and raises as it always does. No
;; argument tuple is made on the direct path, and the method name is not looked up.

;; The arguments as a tuple for `$call_method`: the first n of a, b.
(func $fast_args (param $a i64) (param $b i64) (param $n i32) (result i32)
  (local $t i32)
  (if (i32.eqz (local.get $n)) (then (return (global.get $empty_tuple))))
  (local.set $t (call $tuple_new (local.get $n)))
  (i64.store offset=8 (local.get $t) (local.get $a))
  (if (i32.eq (local.get $n) (i32.const 2)) (then (i64.store offset=16 (local.get $t) (local.get $b))))
  (local.get $t))

;; `recv.strip()`, `lstrip()`, `rstrip()` (mode 3, 1, 2).
(func $fast_strip (param $recv i64) (param $name i64) (param $mode i32) (result i64)
  (if (i32.eq (call $tid (local.get $recv)) (i32.const TYPE_STR))
    (then (return (call $str_strip (local.get $recv) (i32.const 0) (local.get $mode)))))
  (call $call_method (local.get $recv) (local.get $name) (global.get $empty_tuple) (i32.const 0)))

;; `recv.split()`, `split(sep)`, `split(sep, maxsplit)` (n arguments; rsplit: right 1). Direct
;; when sep is None or a str and maxsplit a small int.
(func $fast_split (param $recv i64) (param $name i64) (param $sep i64) (param $max i64) (param $n i32)
    (param $right i32) (result i64)
  (local $s i64) (local $m i64)
  (if (i32.eq (call $tid (local.get $recv)) (i32.const TYPE_STR))
    (then
      (local.set $s (select (i64.const 0) (local.get $sep)
        (i32.or (i32.eqz (local.get $n)) (i64.eq (local.get $sep) (i64.const 8)))))
      (local.set $m (i64.const -1))
      (if (i32.eq (local.get $n) (i32.const 2))
        (then (local.set $m (select (i64.shr_s (local.get $max) (i64.const 1)) (i64.const -2)
          (i32.wrap_i64 (i64.and (local.get $max) (i64.const 1)))))))
      (if (i32.and (i64.ne (local.get $m) (i64.const -2))
            (i32.or (i64.eqz (local.get $s)) (i32.eq (call $tid (local.get $s)) (i32.const TYPE_STR))))
        (then (return (call $str_split (local.get $recv) (local.get $s) (local.get $m) (local.get $right)))))))
  (call $call_method (local.get $recv) (local.get $name)
    (call $fast_args (local.get $sep) (local.get $max) (local.get $n)) (i32.const 0)))

;; `recv.split()[idx]` (n 0) or `recv.split(sep)[idx]` (n 1), idx >= 0 or -1 (the compiler's
;; literal): for an ASCII str split on whitespace or on one ASCII character, the piece is found
;; by scanning and made alone; anything else is the generic split, then the subscript, so
;; results and errors are theirs (IndexError for a piece past the end, as the list's).
(func $fast_split_at (param $recv i64) (param $name i64) (param $sep i64) (param $n i32) (param $idx i32)
    (result i64)
  (local $p i32) (local $d i32) (local $len i32) (local $i i32) (local $start i32) (local $k i32)
  (local $c i32) (local $o i32) (local $count i32) (local $ws i64) (local $starts i64) (local $carry i64)
  (block $generic
    (br_if $generic (i32.ne (call $tid (local.get $recv)) (i32.const TYPE_STR)))
    (local.set $p (i32.wrap_i64 (local.get $recv)))
    (local.set $len (i32.load offset=4 (local.get $p)))
    ;; ASCII: as many bytes as code points
    (br_if $generic (i32.ne (local.get $len) (i32.load offset=8 (local.get $p))))
    (local.set $d (i32.add (local.get $p) (i32.const 16)))
    (if (i32.or (i32.eqz (local.get $n)) (i64.eq (local.get $sep) (i64.const 8)))
      (then
        (if (i32.lt_s (local.get $idx) (i32.const 0))
          (then
            ;; the last word
            (local.set $i (local.get $len))
            (block $found
              (loop $skip
                (br_if $found (i32.eqz (local.get $i)))
                (br_if $found (i32.eqz (call $ascii_is_ws (i32.load8_u (i32.add (local.get $d) (i32.sub (local.get $i) (i32.const 1)))))))
                (local.set $i (i32.sub (local.get $i) (i32.const 1)))
                (br $skip)))
            (br_if $generic (i32.eqz (local.get $i)))
            (local.set $start (local.get $i))
            (block $begun
              (loop $back
                (br_if $begun (i32.eqz (local.get $start)))
                (br_if $begun (call $ascii_is_ws (i32.load8_u (i32.add (local.get $d) (i32.sub (local.get $start) (i32.const 1))))))
                (local.set $start (i32.sub (local.get $start) (i32.const 1)))
                (br $back)))
            (return (call $str_piece (local.get $recv) (local.get $start) (local.get $i)))))
        ;; Word number idx, eight bytes at a time ($ascii_ws8; bytes past the end are
        ;; whitespace): the chunk holding its start is found by counting word starts
        ;; (non-whitespace after whitespace), then its end is the first whitespace after it.
        (local.set $carry (i64.const 0x80))
        (block $started
          (loop $chunks
            (br_if $generic (i32.ge_u (local.get $o) (local.get $len)))
            (local.set $ws (call $ascii_ws8 (local.get $d) (local.get $o) (local.get $len)))
            (local.set $starts (i64.and (i64.xor (local.get $ws) (i64.const 0x8080808080808080))
              (i64.or (i64.shl (local.get $ws) (i64.const 8)) (local.get $carry))))
            (local.set $count (i32.wrap_i64 (i64.popcnt (local.get $starts))))
            (if (i32.gt_u (i32.add (local.get $k) (local.get $count)) (local.get $idx))
              (then
                (block $dropped
                  (loop $drop
                    (br_if $dropped (i32.eq (local.get $k) (local.get $idx)))
                    (local.set $starts (i64.and (local.get $starts) (i64.sub (local.get $starts) (i64.const 1))))
                    (local.set $k (i32.add (local.get $k) (i32.const 1)))
                    (br $drop)))
                (local.set $start (i32.add (local.get $o)
                  (i32.shr_u (i32.wrap_i64 (i64.ctz (local.get $starts))) (i32.const 3))))
                (br $started)))
            (local.set $k (i32.add (local.get $k) (local.get $count)))
            (local.set $carry (i64.shr_u (local.get $ws) (i64.const 56)))
            (local.set $o (i32.add (local.get $o) (i32.const 8)))
            (br $chunks)))
        ;; the end: whitespace at or after the start, in this chunk or a later one
        (local.set $ws (i64.and (local.get $ws)
          (i64.shl (i64.const -1) (i64.extend_i32_u (i32.shl (i32.sub (local.get $start) (local.get $o)) (i32.const 3))))))
        (loop $ends
          (if (i64.ne (local.get $ws) (i64.const 0))
            (then
              (local.set $i (i32.add (local.get $o) (i32.shr_u (i32.wrap_i64 (i64.ctz (local.get $ws))) (i32.const 3))))
              (if (i32.gt_u (local.get $i) (local.get $len)) (then (local.set $i (local.get $len))))
              (return (call $str_piece (local.get $recv) (local.get $start) (local.get $i)))))
          (local.set $o (i32.add (local.get $o) (i32.const 8)))
          (if (i32.ge_u (local.get $o) (local.get $len))
            (then (return (call $str_piece (local.get $recv) (local.get $start) (local.get $len)))))
          (local.set $ws (call $ascii_ws8 (local.get $d) (local.get $o) (local.get $len)))
          (br $ends))))
    ;; one ASCII separator character
    (br_if $generic (i32.ne (call $tid (local.get $sep)) (i32.const TYPE_STR)))
    (br_if $generic (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $sep))) (i32.const 1)))
    (local.set $c (i32.load8_u offset=16 (i32.wrap_i64 (local.get $sep))))
    (br_if $generic (i32.ge_u (local.get $c) (i32.const 0x80)))
    (if (i32.lt_s (local.get $idx) (i32.const 0))
      (then
        (local.set $i (local.get $len))
        (block $found
          (loop $back
            (br_if $found (i32.eqz (local.get $i)))
            (br_if $found (i32.eq (i32.load8_u (i32.add (local.get $d) (i32.sub (local.get $i) (i32.const 1)))) (local.get $c)))
            (local.set $i (i32.sub (local.get $i) (i32.const 1)))
            (br $back)))
        (return (call $str_piece (local.get $recv) (local.get $i) (local.get $len)))))
    (loop $piece
      (local.set $start (local.get $i))
      (block $end
        (loop $scan
          (br_if $end (i32.ge_u (local.get $i) (local.get $len)))
          (br_if $end (i32.eq (i32.load8_u (i32.add (local.get $d) (local.get $i))) (local.get $c)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $scan)))
      (if (i32.eq (local.get $k) (local.get $idx))
        (then (return (call $str_piece (local.get $recv) (local.get $start) (local.get $i)))))
      ;; no separator left: no piece number idx
      (br_if $generic (i32.ge_u (local.get $i) (local.get $len)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $piece)))
  (call $getitem
    (call $fast_split (local.get $recv) (local.get $name) (local.get $sep) (i64.const 0) (local.get $n) (i32.const 0))
    (i64.or (i64.shl (i64.extend_i32_s (local.get $idx)) (i64.const 1)) (i64.const 1))))

;; Whether an ASCII byte is whitespace to str.split(): \t \n \v \f \r, \x1c-\x1f, space.
(func $ascii_is_ws (param $b i32) (result i32)
  (i32.or (i32.le_u (i32.sub (local.get $b) (i32.const 9)) (i32.const 4))
    (i32.le_u (i32.sub (local.get $b) (i32.const 0x1C)) (i32.const 4))))

;; The ASCII str `s`'s bytes [b0, b1) as a str (s itself when that is all of it).
(func $str_piece (param $s i64) (param $b0 i32) (param $b1 i32) (result i64)
  (if (i32.and (i32.eqz (local.get $b0)) (i32.eq (local.get $b1) (i32.load offset=4 (i32.wrap_i64 (local.get $s)))))
    (then (return (local.get $s))))
  (if (i32.eq (local.get $b0) (local.get $b1)) (then (return (i64.extend_i32_u (global.get $s_empty)))))
  (call $str_ascii_word (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16)) (local.get $b0) (local.get $b1)))

;; `obj["literal"]` (the compiler's str constant `key`): a dict's value found with the key's
;; cached hash, without the generic subscript's dispatch; anything else, a missing key included,
;; is `$getitem` (so KeyError, `__missing__` and other types behave as there).
(func $fast_getitem_str (param $obj i64) (param $key i64) (result i64)
  (local $d i32) (local $r i32)
  (if (i32.eqz (i32.wrap_i64 (i64.and (local.get $obj) (i64.const 1))))
    (then
      (local.set $d (i32.wrap_i64 (local.get $obj)))
      (if (i32.eq (i32.load (local.get $d)) (i32.const TYPE_DICT))
        (then
          (local.set $r (call $dict_find (local.get $d) (local.get $key) (call $str_hash (local.get $key))))
          (if (i32.ge_s (local.get $r) (i32.const 0))
            (then (return (i64.load offset=16 (call $dict_entry (local.get $d) (local.get $r))))))))))
  (call $getitem (local.get $obj) (local.get $key)))

;; `recv.startswith(x)` / `endswith(x)` (end 1) of one str.
(func $fast_affix (param $recv i64) (param $name i64) (param $x i64) (param $end i32) (result i64)
  (local $p i32) (local $q i32) (local $n i32) (local $m i32)
  (if (i32.and (i32.eq (call $tid (local.get $recv)) (i32.const TYPE_STR)) (i32.eq (call $tid (local.get $x)) (i32.const TYPE_STR)))
    (then
      (local.set $p (i32.wrap_i64 (local.get $recv)))
      (local.set $q (i32.wrap_i64 (local.get $x)))
      (local.set $n (i32.load offset=4 (local.get $p)))
      (local.set $m (i32.load offset=4 (local.get $q)))
      (if (i32.gt_u (local.get $m) (local.get $n)) (then (return (call $bool (i32.const 0)))))
      (return (call $bool (call $str_memeq
        (i32.add (i32.add (local.get $p) (i32.const 16)) (select (i32.sub (local.get $n) (local.get $m)) (i32.const 0) (local.get $end)))
        (i32.add (local.get $q) (i32.const 16)) (local.get $m))))))
  (call $call_method (local.get $recv) (local.get $name) (i32.wrap_i64 (call $tuple1 (local.get $x))) (i32.const 0)))

;; `recv.join(items)`.
(func $fast_join (param $recv i64) (param $name i64) (param $items i64) (result i64)
  (if (i32.eq (call $tid (local.get $recv)) (i32.const TYPE_STR))
    (then (return (call $str_join_m (local.get $recv) (local.get $items)))))
  (call $call_method (local.get $recv) (local.get $name) (i32.wrap_i64 (call $tuple1 (local.get $items))) (i32.const 0)))

;; `recv.replace(old, new)` of strs.
(func $fast_replace (param $recv i64) (param $name i64) (param $old i64) (param $new i64) (result i64)
  (if (i32.and (i32.eq (call $tid (local.get $recv)) (i32.const TYPE_STR))
        (i32.and (i32.eq (call $tid (local.get $old)) (i32.const TYPE_STR)) (i32.eq (call $tid (local.get $new)) (i32.const TYPE_STR))))
    (then (return (call $str_replace (local.get $recv) (local.get $old) (local.get $new) (i64.const -1)))))
  (call $call_method (local.get $recv) (local.get $name)
    (call $fast_args (local.get $old) (local.get $new) (i32.const 2)) (i32.const 0)))

;; Builtins called with one positional argument ($b_print, $b_len and $b_int with the tuple
;; made and checked are what any other call of them reaches).

;; `print(x)`: as `$b_print` with the one value in a shadow-stack slot instead of a tuple, where
;; it is rooted while str() runs (the slot is given back on return, and by the handler that
;; catches what str() raised).
(func $fast_print (param $x i64) (result i64)
  (local $at i32)
  (local.set $at (global.get $shadow_top))
  (call $root_push (local.get $x))
  (call $print_items (local.get $at) (i32.const 1)
    (i64.extend_i32_u (global.get $s_space)) (i64.extend_i32_u (global.get $s_newline)))
  (global.set $shadow_top (local.get $at))
  (i64.const 8))

;; `len(x)`.
(func $fast_len (param $x i64) (result i64)
  (call $seq_int (call $len (local.get $x))))

;; `int(x)`: a small int is itself, a str is parsed in base 10; anything else as `$b_int`.
(func $fast_int (param $x i64) (result i64)
  (if (i32.wrap_i64 (i64.and (local.get $x) (i64.const 1))) (then (return (local.get $x))))
  (if (i32.eq (call $tid (local.get $x)) (i32.const TYPE_STR))
    (then (return (call $int_from_str (local.get $x) (i64.const 10)))))
  (call $b_int (i32.wrap_i64 (call $tuple1 (local.get $x))) (i32.const 0)))
