;; json.wat: json.loads and json.dumps, with CPython 3.11's output and error messages.
;; Positions are byte addresses while parsing; errors convert them to code point indexes.

;; ---- decoding ------------------------------------------------------------------------------------

;; The document being decoded: its str, its first byte, the address after its last byte, and
;; where the last parsed value ended.
(global $jl_src (mut i64) (i64.const 0))
(global $jl_base (mut i32) (i32.const 0))
(global $jl_end (mut i32) (i32.const 0))
(global $jl_pos (mut i32) (i32.const 0))
;; Hooks (0 when none): +0 object_hook, +8 object_pairs_hook, +16 parse_float, +24 parse_int,
;; +32 parse_constant: the items of a tuple that `$b_json_loads` keeps rooted while it decodes.
;;
;; A hook is plan code, called with collections on (`$call_plan`): the containers being filled
;; (and an object's key while its value is parsed) are rooted on the shadow stack as they are
;; made, so a collection inside a hook sees them; the hook functions are rooted with their
;; tuple. A hook may itself call json.loads: `$b_json_loads` saves and restores this state.
(global $jl_hooks (mut i32) (i32.const 0))
(global $jl_strict (mut i32) (i32.const 1))

;; Raises JSONDecodeError("<msg>: line L column C (char P)") for the byte address `at`.
(func $jl_fail (param $msg i32) (param $at i32)
  (local $p i32) (local $chars i32) (local $lines i32) (local $last i32) (local $b i32) (local $sb i32)
  (local $e i64)
  (local.set $p (global.get $jl_base))
  (local.set $last (i32.const -1))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $p) (local.get $at)))
    (local.set $b (i32.load8_u (local.get $p)))
    (if (i32.eq (local.get $b) (i32.const 10))
      (then
        (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
        (local.set $last (local.get $chars))))
    (if (i32.ne (i32.and (local.get $b) (i32.const 0xC0)) (i32.const 0x80))
      (then (local.set $chars (i32.add (local.get $chars) (i32.const 1)))))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (br $each)))
  (local.set $sb (call $sb_new))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (local.get $msg)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_json_pos_line)))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.add (local.get $lines) (i32.const 1))))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_json_pos_column)))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.sub (local.get $chars) (local.get $last))))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_json_pos_char)))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $chars)))
  (call $sb_push_byte (local.get $sb) (i32.const 41))
  (local.set $e (call $exc_new (global.get $t_JSONDecodeError) (call $tuple1 (call $sb_finish (local.get $sb)))))
  ;; CPython's JSONDecodeError(msg, doc, pos) also has lineno and colno.
  (call $exc_set_attr (local.get $e) (global.get $s_json_attr_msg) (i64.extend_i32_u (local.get $msg)))
  (call $exc_set_attr (local.get $e) (global.get $s_json_attr_doc) (global.get $jl_src))
  (call $exc_set_attr (local.get $e) (global.get $s_json_attr_pos) (call $int_new (i64.extend_i32_u (local.get $chars))))
  (call $exc_set_attr (local.get $e) (global.get $s_json_attr_lineno)
    (call $int_new (i64.extend_i32_u (i32.add (local.get $lines) (i32.const 1)))))
  (call $exc_set_attr (local.get $e) (global.get $s_json_attr_colno)
    (call $int_new (i64.extend_i32_u (i32.sub (local.get $chars) (local.get $last)))))
  (call $raise (local.get $e))
  (unreachable))

;; Guards nesting: the runtime's native depth plus the Python depth stay within the limit.
(func $json_enter (param $msg i32)
  (global.set $native_depth (i32.add (global.get $native_depth) (i32.const 1)))
  (if (i32.gt_u (i32.add (global.get $native_depth) (global.get $depth)) (global.get $max_depth))
    (then (call $raise_static (global.get $t_RecursionError) (local.get $msg)))))

;; JSON whitespace: space, tab, newline, carriage return.
(func $jl_ws (param $p i32) (result i32)
  (local $c i32) (local $end i32)
  (local.set $end (global.get $jl_end))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
    (local.set $c (i32.load8_u (local.get $p)))
    (br_if $done (i32.eqz (i32.or (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
      (i32.or (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $c) (i32.const 9))))))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (br $each)))
  (local.get $p))

(func $jl_hook (param $off i32) (result i64)
  (if (result i64) (global.get $jl_hooks)
    (then (i64.load (i32.add (global.get $jl_hooks) (local.get $off))))
    (else (i64.const 0))))

;; The value that starts at p; $jl_pos is set to just after it.
(func $jl_value (param $p i32) (result i64)
  (local $c i32) (local $end i32) (local $avail i32) (local $h i64)
  (local.set $end (global.get $jl_end))
  (if (i32.ge_u (local.get $p) (local.get $end))
    (then (call $jl_fail (global.get $s_json_expecting_value) (local.get $p))))
  (local.set $avail (i32.sub (local.get $end) (local.get $p)))
  (local.set $c (i32.load8_u (local.get $p)))
  (if (i32.eq (local.get $c) (i32.const 34)) (then (return (call $jl_string (i32.add (local.get $p) (i32.const 1))))))
  (if (i32.eq (local.get $c) (i32.const 123)) (then (return (call $jl_object (i32.add (local.get $p) (i32.const 1))))))
  (if (i32.eq (local.get $c) (i32.const 91)) (then (return (call $jl_array (i32.add (local.get $p) (i32.const 1))))))
  (if (i32.eq (local.get $c) (i32.const 110))
    (then (if (i32.ge_u (local.get $avail) (i32.const 4))
      (then (if (i32.eq (i32.load (local.get $p)) (i32.const 0x6c6c756e))
        (then (global.set $jl_pos (i32.add (local.get $p) (i32.const 4))) (return (i64.const 8))))))))
  (if (i32.eq (local.get $c) (i32.const 116))
    (then (if (i32.ge_u (local.get $avail) (i32.const 4))
      (then (if (i32.eq (i32.load (local.get $p)) (i32.const 0x65757274))
        (then (global.set $jl_pos (i32.add (local.get $p) (i32.const 4))) (return (i64.const 24))))))))
  (if (i32.eq (local.get $c) (i32.const 102))
    (then (if (i32.ge_u (local.get $avail) (i32.const 5))
      (then (if (i32.and (i32.eq (i32.load (local.get $p)) (i32.const 0x736c6166))
                         (i32.eq (i32.load8_u offset=4 (local.get $p)) (i32.const 101)))
        (then (global.set $jl_pos (i32.add (local.get $p) (i32.const 5))) (return (i64.const 16))))))))
  (if (i32.eq (local.get $c) (i32.const 78))
    (then (if (i32.ge_u (local.get $avail) (i32.const 3))
      (then (if (i32.and (i32.eq (i32.load8_u offset=1 (local.get $p)) (i32.const 97))
                         (i32.eq (i32.load8_u offset=2 (local.get $p)) (i32.const 78)))
        (then
          (global.set $jl_pos (i32.add (local.get $p) (i32.const 3)))
          (return (call $jl_constant (global.get $s_json_nan) (f64.const nan)))))))))
  (if (i32.eq (local.get $c) (i32.const 73))
    (then (if (i32.ge_u (local.get $avail) (i32.const 8))
      (then (if (i64.eq (i64.load (local.get $p)) (i64.const 0x7974696e69666e49))
        (then
          (global.set $jl_pos (i32.add (local.get $p) (i32.const 8)))
          (return (call $jl_constant (global.get $s_json_inf) (f64.const inf)))))))))
  (if (i32.eq (local.get $c) (i32.const 45))
    (then (if (i32.ge_u (local.get $avail) (i32.const 9))
      (then (if (i64.eq (i64.load offset=1 (local.get $p)) (i64.const 0x7974696e69666e49))
        (then
          (global.set $jl_pos (i32.add (local.get $p) (i32.const 9)))
          (return (call $jl_constant (global.get $s_json_ninf) (f64.const -inf)))))))))
  (call $jl_number (local.get $p)))

(func $jl_constant (param $name i32) (param $x f64) (result i64)
  (local $h i64)
  (local.set $h (call $jl_hook (i32.const 32)))
  (if (i32.and (i64.ne (local.get $h) (i64.const 0)) (i64.ne (local.get $h) (i64.const 8)))
    (then (return (call $call1_plan (local.get $h) (i64.extend_i32_u (local.get $name))))))
  (call $float_new (local.get $x)))

(func $jl_digit (param $p i32) (result i32)
  (i32.and (i32.lt_u (local.get $p) (global.get $jl_end))
    (i32.lt_u (i32.sub (i32.load8_u (local.get $p)) (i32.const 48)) (i32.const 10))))

;; A number at p (CPython's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?).
(func $jl_number (param $p i32) (result i64)
  (local $start i32) (local $end i32) (local $c i32) (local $float i32) (local $e i32)
  (local $neg i32) (local $acc i64) (local $d i64) (local $q i32) (local $h i64) (local $text i64)
  (local.set $start (local.get $p))
  (local.set $end (global.get $jl_end))
  (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 45))
    (then
      (local.set $neg (i32.const 1))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (if (i32.ge_u (local.get $p) (local.get $end))
        (then (call $jl_fail (global.get $s_json_expecting_value) (local.get $start))))))
  (local.set $c (i32.load8_u (local.get $p)))
  (if (i32.and (i32.ge_u (local.get $c) (i32.const 49)) (i32.le_u (local.get $c) (i32.const 57)))
    (then
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (block $done (loop $each
        (br_if $done (i32.eqz (call $jl_digit (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $each))))
    (else
      (if (i32.eq (local.get $c) (i32.const 48))
        (then (local.set $p (i32.add (local.get $p) (i32.const 1))))
        (else (call $jl_fail (global.get $s_json_expecting_value) (local.get $start))))))
  (local.set $q (local.get $p))
  (if (i32.lt_u (i32.add (local.get $p) (i32.const 1)) (local.get $end))
    (then (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 46))
      (then (if (call $jl_digit (i32.add (local.get $p) (i32.const 1)))
        (then
          (local.set $float (i32.const 1))
          (local.set $p (i32.add (local.get $p) (i32.const 2)))
          (block $done (loop $each
            (br_if $done (i32.eqz (call $jl_digit (local.get $p))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $each)))))))))
  (if (i32.lt_u (i32.add (local.get $p) (i32.const 1)) (local.get $end))
    (then (if (i32.eq (i32.or (i32.load8_u (local.get $p)) (i32.const 32)) (i32.const 101))
      (then
        (local.set $e (i32.add (local.get $p) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $e)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
          (then (local.set $e (i32.add (local.get $e) (i32.const 1)))))
        (if (call $jl_digit (local.get $e))
          (then
            (local.set $float (i32.const 1))
            (local.set $p (local.get $e))
            (block $done (loop $each
              (br_if $done (i32.eqz (call $jl_digit (local.get $p))))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $each)))))))))
  (global.set $jl_pos (local.get $p))
  (if (local.get $float)
    (then
      (local.set $h (call $jl_hook (i32.const 16)))
      (if (i32.and (i64.ne (local.get $h) (i64.const 0)) (i64.ne (local.get $h) (i64.const 8)))
        (then
          (local.set $text (call $str_new_counted (local.get $start) (i32.sub (local.get $p) (local.get $start))
            (i32.sub (local.get $p) (local.get $start))))
          (return (call $call1_plan (local.get $h) (local.get $text)))))
      (return (call $float_new (call $parse_float (local.get $start) (i32.sub (local.get $p) (local.get $start)))))))
  (local.set $h (call $jl_hook (i32.const 24)))
  (if (i32.and (i64.ne (local.get $h) (i64.const 0)) (i64.ne (local.get $h) (i64.const 8)))
    (then
      (local.set $text (call $str_new_counted (local.get $start) (i32.sub (local.get $p) (local.get $start))
        (i32.sub (local.get $p) (local.get $start))))
      (return (call $call1_plan (local.get $h) (local.get $text)))))
  ;; accumulate negatively so that -2^63 fits; more than 64 bits is Baton's OverflowError
  (local.set $c (i32.add (local.get $start) (local.get $neg)))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $c) (local.get $q)))
    (local.set $d (i64.extend_i32_u (i32.sub (i32.load8_u (local.get $c)) (i32.const 48))))
    (if (i64.lt_s (local.get $acc) (i64.const -922337203685477580)) (then (call $num_overflow)))
    (local.set $acc (i64.mul (local.get $acc) (i64.const 10)))
    (if (i64.lt_s (local.get $acc) (i64.add (i64.const 0x8000000000000000) (local.get $d))) (then (call $num_overflow)))
    (local.set $acc (i64.sub (local.get $acc) (local.get $d)))
    (local.set $c (i32.add (local.get $c) (i32.const 1)))
    (br $each)))
  (if (i32.eqz (local.get $neg))
    (then
      (if (i64.eq (local.get $acc) (i64.const 0x8000000000000000)) (then (call $num_overflow)))
      (local.set $acc (i64.sub (i64.const 0) (local.get $acc)))))
  (call $int_new (local.get $acc)))

;; Four hex digits at p as a number, or -1.
(func $jl_hex4 (param $p i32) (result i32)
  (local $i i32) (local $c i32) (local $r i32)
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (i32.const 4)))
    (local.set $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
    (if (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
      (then (local.set $c (i32.sub (local.get $c) (i32.const 48))))
      (else
        (local.set $c (i32.or (local.get $c) (i32.const 32)))
        (if (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 6))
          (then (local.set $c (i32.sub (local.get $c) (i32.const 87))))
          (else (return (i32.const -1))))))
    (local.set $r (i32.or (i32.shl (local.get $r) (i32.const 4)) (local.get $c)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (local.get $r))

;; Scans raw string content from p up to the next '"' or '\\'; returns its address and sets
;; $jl_count to the code points scanned.
(global $jl_count (mut i32) (i32.const 0))
(func $jl_scan (param $p i32) (param $begin i32) (result i32)
  (local $end i32) (local $b i32) (local $n i32)
  (local.set $end (global.get $jl_end))
  (block $found (loop $each
    (if (i32.ge_u (local.get $p) (local.get $end))
      (then (call $jl_fail (global.get $s_json_unterminated) (local.get $begin))))
    (local.set $b (i32.load8_u (local.get $p)))
    (br_if $found (i32.or (i32.eq (local.get $b) (i32.const 34)) (i32.eq (local.get $b) (i32.const 92))))
    (if (i32.lt_u (local.get $b) (i32.const 32))
      (then (if (global.get $jl_strict) (then (call $jl_fail (global.get $s_json_control) (local.get $p))))))
    (local.set $n (i32.add (local.get $n) (i32.ne (i32.and (local.get $b) (i32.const 0xC0)) (i32.const 0x80))))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (br $each)))
  (global.set $jl_count (local.get $n))
  (local.get $p))

;; A string whose content starts at p (after the opening quote).
(func $jl_string (param $p i32) (result i64)
  (local $begin i32) (local $q i32) (local $sb i32) (local $c i32) (local $cp i32) (local $lo i32)
  (local $end i32)
  (local.set $begin (i32.sub (local.get $p) (i32.const 1)))
  (local.set $end (global.get $jl_end))
  (local.set $q (call $jl_scan (local.get $p) (local.get $begin)))
  (if (i32.eq (i32.load8_u (local.get $q)) (i32.const 34))
    (then
      (global.set $jl_pos (i32.add (local.get $q) (i32.const 1)))
      (return (call $str_new_counted (local.get $p) (i32.sub (local.get $q) (local.get $p)) (global.get $jl_count)))))
  (local.set $sb (call $sb_new))
  (loop $chunk
    (call $sb_push_counted (local.get $sb) (local.get $p) (i32.sub (local.get $q) (local.get $p)) (global.get $jl_count))
    (if (i32.eq (i32.load8_u (local.get $q)) (i32.const 34))
      (then
        (global.set $jl_pos (i32.add (local.get $q) (i32.const 1)))
        (return (call $sb_finish (local.get $sb)))))
    ;; an escape: q is at the backslash
    (local.set $q (i32.add (local.get $q) (i32.const 1)))
    (if (i32.ge_u (local.get $q) (local.get $end))
      (then (call $jl_fail (global.get $s_json_unterminated) (local.get $begin))))
    (local.set $c (i32.load8_u (local.get $q)))
    (if (i32.ne (local.get $c) (i32.const 117))
      (then
        (block $ok
          (block $bad
            (br_if $ok (i32.or (i32.eq (local.get $c) (i32.const 34))
              (i32.or (i32.eq (local.get $c) (i32.const 92)) (i32.eq (local.get $c) (i32.const 47)))))
            (if (i32.eq (local.get $c) (i32.const 98)) (then (local.set $c (i32.const 8)) (br $ok)))
            (if (i32.eq (local.get $c) (i32.const 102)) (then (local.set $c (i32.const 12)) (br $ok)))
            (if (i32.eq (local.get $c) (i32.const 110)) (then (local.set $c (i32.const 10)) (br $ok)))
            (if (i32.eq (local.get $c) (i32.const 114)) (then (local.set $c (i32.const 13)) (br $ok)))
            (if (i32.eq (local.get $c) (i32.const 116)) (then (local.set $c (i32.const 9)) (br $ok))))
          (call $jl_fail (global.get $s_json_bad_escape) (i32.sub (local.get $q) (i32.const 1))))
        (call $sb_push_byte (local.get $sb) (local.get $c))
        (local.set $q (i32.add (local.get $q) (i32.const 1))))
      (else
        ;; \uXXXX: q at 'u'; the four digits must leave room for a closing quote
        (if (i32.ge_u (i32.add (local.get $q) (i32.const 5)) (local.get $end))
          (then (call $jl_fail (global.get $s_json_bad_uescape) (local.get $q))))
        (local.set $cp (call $jl_hex4 (i32.add (local.get $q) (i32.const 1))))
        (if (i32.lt_s (local.get $cp) (i32.const 0))
          (then (call $jl_fail (global.get $s_json_bad_uescape) (local.get $q))))
        (local.set $q (i32.add (local.get $q) (i32.const 5)))
        (if (i32.and (i32.eq (i32.and (local.get $cp) (i32.const 0xFC00)) (i32.const 0xD800))
              (i32.lt_u (i32.add (local.get $q) (i32.const 6)) (local.get $end)))
          (then
            (if (i32.and (i32.eq (i32.load8_u (local.get $q)) (i32.const 92))
                  (i32.eq (i32.load8_u offset=1 (local.get $q)) (i32.const 117)))
              (then
                (local.set $lo (call $jl_hex4 (i32.add (local.get $q) (i32.const 2))))
                (if (i32.lt_s (local.get $lo) (i32.const 0))
                  (then (call $jl_fail (global.get $s_json_bad_uescape) (i32.add (local.get $q) (i32.const 1)))))
                (if (i32.eq (i32.and (local.get $lo) (i32.const 0xFC00)) (i32.const 0xDC00))
                  (then
                    (local.set $cp (i32.add (i32.const 0x10000)
                      (i32.or (i32.shl (i32.and (local.get $cp) (i32.const 0x3FF)) (i32.const 10))
                        (i32.and (local.get $lo) (i32.const 0x3FF)))))
                    (local.set $q (i32.add (local.get $q) (i32.const 6)))))))))
        (call $str_sb_cp (local.get $sb) (local.get $cp))))
    (local.set $p (local.get $q))
    (local.set $q (call $jl_scan (local.get $p) (local.get $begin)))
    (br $chunk))
  (unreachable))

;; An object whose content starts at p (after '{').
(func $jl_object (param $p i32) (result i64)
  (local $d i64) (local $pairs i64) (local $key i64) (local $val i64) (local $end i32) (local $h i64)
  (local $t i32) (local $base i32)
  (call $json_enter (global.get $s_json_rec_object))
  (local.set $end (global.get $jl_end))
  (local.set $h (call $jl_hook (i32.const 8)))
  (if (i64.eq (local.get $h) (i64.const 8)) (then (local.set $h (i64.const 0))))
  (if (i64.ne (local.get $h) (i64.const 0))
    (then (local.set $pairs (call $list_new (i32.const 4))))
    (else (local.set $d (call $dict_new))))
  ;; roots: +0 the object (or its pairs), +8 the key whose value is being parsed
  (local.set $base (global.get $shadow_top))
  (call $root_push (i64.or (local.get $d) (local.get $pairs)))
  (local.set $p (call $jl_ws (local.get $p)))
  (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 125)))
    (then
      (loop $each
        (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 34)))
          (then (call $jl_fail (global.get $s_json_expecting_name) (local.get $p))))
        (local.set $key (call $jl_string (i32.add (local.get $p) (i32.const 1))))
        (call $root_push (local.get $key))
        (local.set $p (call $jl_ws (global.get $jl_pos)))
        (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 58)))
          (then (call $jl_fail (global.get $s_json_expecting_colon) (local.get $p))))
        (local.set $p (call $jl_ws (i32.add (local.get $p) (i32.const 1))))
        (local.set $val (call $jl_value (local.get $p)))
        (global.set $shadow_top (i32.add (local.get $base) (i32.const 8)))
        (if (i64.ne (local.get $h) (i64.const 0))
          (then
            (local.set $t (call $tuple_new (i32.const 2)))
            (i64.store offset=8 (local.get $t) (local.get $key))
            (i64.store offset=16 (local.get $t) (local.get $val))
            (call $list_append (local.get $pairs) (i64.extend_i32_u (local.get $t))))
          (else (call $dict_set (local.get $d) (local.get $key) (local.get $val))))
        (local.set $p (call $jl_ws (global.get $jl_pos)))
        (if (i32.lt_u (local.get $p) (local.get $end))
          (then (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 125))
            (then (br 3)))))
        (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 44)))
          (then (call $jl_fail (global.get $s_json_expecting_comma) (local.get $p))))
        (local.set $p (call $jl_ws (i32.add (local.get $p) (i32.const 1))))
        (br $each))))
  (global.set $jl_pos (i32.add (local.get $p) (i32.const 1)))
  (call $native_leave)
  ;; (the hook's frame roots its argument)
  (global.set $shadow_top (local.get $base))
  (if (i64.ne (local.get $h) (i64.const 0))
    (then (return (call $call1_plan (local.get $h) (local.get $pairs)))))
  (local.set $h (call $jl_hook (i32.const 0)))
  (if (i32.and (i64.ne (local.get $h) (i64.const 0)) (i64.ne (local.get $h) (i64.const 8)))
    (then (return (call $call1_plan (local.get $h) (local.get $d)))))
  (local.get $d))

;; An array whose content starts at p (after '[').
(func $jl_array (param $p i32) (result i64)
  (local $l i64) (local $end i32) (local $base i32)
  (call $json_enter (global.get $s_json_rec_array))
  (local.set $end (global.get $jl_end))
  (local.set $l (call $list_new (i32.const 4)))
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $l))
  (local.set $p (call $jl_ws (local.get $p)))
  (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 93)))
    (then
      (loop $each
        (call $list_append (local.get $l) (call $jl_value (local.get $p)))
        (local.set $p (call $jl_ws (global.get $jl_pos)))
        (if (i32.lt_u (local.get $p) (local.get $end))
          (then (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 93))
            (then (br 3)))))
        (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 44)))
          (then (call $jl_fail (global.get $s_json_expecting_comma) (local.get $p))))
        (local.set $p (call $jl_ws (i32.add (local.get $p) (i32.const 1))))
        (br $each))))
  (global.set $jl_pos (i32.add (local.get $p) (i32.const 1)))
  (call $native_leave)
  (global.set $shadow_top (local.get $base))
  (local.get $l))

;; Decodes a whole document (a str value).
(func $jl_decode (param $s i64) (result i64)
  (local $p i32) (local $v i64)
  (global.set $jl_src (local.get $s))
  (global.set $jl_base (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16)))
  (global.set $jl_end (i32.add (global.get $jl_base) (i32.load offset=4 (i32.wrap_i64 (local.get $s)))))
  (local.set $p (global.get $jl_base))
  (if (i32.ge_u (i32.load offset=4 (i32.wrap_i64 (local.get $s))) (i32.const 3))
    (then (if (i32.and (i32.eq (i32.load16_u (local.get $p)) (i32.const 0xBBEF))
                       (i32.eq (i32.load8_u offset=2 (local.get $p)) (i32.const 0xBF)))
      (then (call $jl_fail (global.get $s_json_bom) (local.get $p))))))
  (local.set $v (call $jl_value (call $jl_ws (local.get $p))))
  (local.set $p (call $jl_ws (global.get $jl_pos)))
  (if (i32.ne (local.get $p) (global.get $jl_end))
    (then (call $jl_fail (global.get $s_json_extra) (local.get $p))))
  (local.get $v))

;; Whether str value k equals static str s.
(func $json_kw_is (param $k i64) (param $s i32) (result i32)
  (call $str_eq (local.get $k) (i64.extend_i32_u (local.get $s))))

(func $b_json_loads (param $args i32) (param $kwargs i32) (result i64)
  (local $s i64) (local $n i32) (local $hooks i32) (local $e i32) (local $stop i32) (local $k i64)
  (local $v i64) (local $strict i32) (local $r i64) (local $exc i64)
  (local $save_src i64) (local $save_base i32) (local $save_end i32) (local $save_hooks i32)
  (local $save_strict i32) (local $save_native i32) (local $save_pos i32) (local $base i32)
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (local.get $n))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_json_loads_missing))))
  (if (i32.gt_u (local.get $n) (i32.const 1))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_json_loads_many) (call $to_str (call $int_new (i64.extend_i32_u (local.get $n))))))))
  (local.set $strict (i32.const 1))
  (if (local.get $kwargs)
    (then
      (local.set $e (i32.load offset=8 (local.get $kwargs)))
      (local.set $stop (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $kwargs)) (i32.const 24))))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $e) (local.get $stop)))
        (local.set $k (i64.load offset=8 (local.get $e)))
        (local.set $v (i64.load offset=16 (local.get $e)))
        (if (i64.ne (local.get $k) (i64.const 0))
          (then
            (if (i32.eqz (local.get $hooks))
              (then (local.set $hooks (i32.add (call $tuple_new (i32.const 5)) (i32.const 8)))))
            (block $matched
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_object_hook))
                (then (i64.store offset=0 (local.get $hooks) (local.get $v)) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_object_pairs_hook))
                (then (i64.store offset=8 (local.get $hooks) (local.get $v)) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_parse_float))
                (then (i64.store offset=16 (local.get $hooks) (local.get $v)) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_parse_int))
                (then (i64.store offset=24 (local.get $hooks) (local.get $v)) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_parse_constant))
                (then (i64.store offset=32 (local.get $hooks) (local.get $v)) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_strict))
                (then (local.set $strict (call $truthy (local.get $v))) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_cls))
                (then
                  (if (i64.ne (local.get $v) (i64.const 8))
                    (then (call $raise_static (global.get $t_NotImplementedError) (global.get $s_json_cls))))
                  (br $matched)))
              (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_json_decoder_kw) (local.get $k))))))
        (local.set $e (i32.add (local.get $e) (i32.const 24)))
        (br $each)))))
  (local.set $s (i64.load offset=8 (local.get $args)))
  (if (i32.ne (call $tid (local.get $s)) (i32.const TYPE_STR))
    (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_json_not_str) (call $type_name (local.get $s))))))
  (local.set $save_src (global.get $jl_src))
  (local.set $save_base (global.get $jl_base))
  (local.set $save_end (global.get $jl_end))
  (local.set $save_hooks (global.get $jl_hooks))
  (local.set $save_strict (global.get $jl_strict))
  (local.set $save_native (global.get $native_depth))
  (local.set $save_pos (global.get $jl_pos))
  ;; (the document rooted too: `$jl_src`, which the collector marks, holds only the innermost
  ;; of nested calls' documents)
  (local.set $base (global.get $shadow_top))
  (call $root_push (local.get $s))
  (if (local.get $hooks)
    (then (call $root_push (i64.extend_i32_u (i32.sub (local.get $hooks) (i32.const 8))))))
  (global.set $jl_hooks (local.get $hooks))
  (global.set $jl_strict (local.get $strict))
  (local.set $r
    (block $done (result i64)
      (local.set $exc
        (block $caught (result i64)
          (br $done (try_table (result i64) (catch $exc $caught)
            (call $jl_decode (local.get $s))))))
      (global.set $jl_src (local.get $save_src))
      (global.set $jl_base (local.get $save_base))
      (global.set $jl_end (local.get $save_end))
      (global.set $jl_hooks (local.get $save_hooks))
      (global.set $jl_strict (local.get $save_strict))
      (global.set $native_depth (local.get $save_native))
      (global.set $jl_pos (local.get $save_pos))
      (global.set $shadow_top (local.get $base))
      (throw $exc (local.get $exc))))
  (global.set $jl_src (local.get $save_src))
  (global.set $jl_base (local.get $save_base))
  (global.set $jl_end (local.get $save_end))
  (global.set $jl_hooks (local.get $save_hooks))
  (global.set $jl_strict (local.get $save_strict))
  (global.set $jl_pos (local.get $save_pos))
  (global.set $shadow_top (local.get $base))
  (local.get $r))

;; ---- encoding ------------------------------------------------------------------------------------

;; Encoder state (one per dumps call): +0 string builder, +4 indent (str) or 0, +8 item
;; separator (str), +12 key separator (str), +16 level, +20 flags, +24 default (value or 0),
;; +32 first marker slot of this call, +36 the state of the dumps call this one runs in (a
;; `default` that calls json.dumps), or 0.
;; Flags: 1 sort_keys, 2 ensure_ascii, 4 check_circular, 8 allow_nan, 16 skipkeys, 32 strict
;; text (for the host: a lone surrogate raises UnicodeEncodeError, as the host reads UTF-8).

;; Containers being encoded (for "Circular reference detected"), shared by nested calls.
(global $jd_stack (mut i32) (i32.const 0))
(global $jd_sp (mut i32) (i32.const 0))

;; The innermost running dumps call's state (its +36 links the enclosing ones), or 0.
(global $jd_state (mut i32) (i32.const 0))

;; Marks what running dumps calls hold outside the shadow stack, for a collection while a
;; `default` runs: each call's state, string builder (and its buffer), separators, indent and
;; `default`, and every container being encoded (a `default` may drop the document's last
;; reference to one: `d.clear()`).
(func $jd_mark
  (local $st i32) (local $sb i32) (local $i i32)
  (local.set $st (global.get $jd_state))
  (block $done (loop $each
    (br_if $done (i32.eqz (local.get $st)))
    (call $mark_raw (local.get $st))
    (local.set $sb (i32.load (local.get $st)))
    (if (local.get $sb)
      (then
        (call $mark_raw (local.get $sb))
        (call $mark_raw (i32.load (local.get $sb)))))
    (call $mark_value (i64.extend_i32_u (i32.load offset=4 (local.get $st))))
    (call $mark_value (i64.extend_i32_u (i32.load offset=8 (local.get $st))))
    (call $mark_value (i64.extend_i32_u (i32.load offset=12 (local.get $st))))
    (call $mark_value (i64.load offset=24 (local.get $st)))
    (local.set $st (i32.load offset=36 (local.get $st)))
    (br $each)))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (global.get $jd_sp)))
    (call $mark_value (i64.extend_i32_u (i32.load (i32.add (global.get $jd_stack) (i32.shl (local.get $i) (i32.const 2))))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each))))

(func $jd_lit (param $st i32) (param $s i32)
  (call $sb_push_str (i32.load (local.get $st)) (i64.extend_i32_u (local.get $s))))

;; Appends "\uXXXX" (lowercase hex).
(func $jd_u4 (param $sb i32) (param $cp i32)
  (local $i i32) (local $d i32)
  (call $sb_push_byte (local.get $sb) (i32.const 92))
  (call $sb_push_byte (local.get $sb) (i32.const 117))
  (local.set $i (i32.const 12))
  (loop $each
    (local.set $d (i32.and (i32.shr_u (local.get $cp) (local.get $i)) (i32.const 15)))
    (call $sb_push_byte (local.get $sb)
      (i32.add (local.get $d) (select (i32.const 48) (i32.const 87) (i32.lt_u (local.get $d) (i32.const 10)))))
    (local.set $i (i32.sub (local.get $i) (i32.const 4)))
    (br_if $each (i32.ge_s (local.get $i) (i32.const 0)))))

;; Appends str value s as a JSON string.
(func $jd_str (param $st i32) (param $s i64)
  (local $sb i32) (local $p i32) (local $end i32) (local $run i32) (local $n i32) (local $b i32)
  (local $ascii i32) (local $cp i32) (local $len i32)
  (local.set $sb (i32.load (local.get $st)))
  (local.set $ascii (i32.and (i32.load offset=20 (local.get $st)) (i32.const 2)))
  (local.set $p (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16)))
  (local.set $end (i32.add (local.get $p) (i32.load offset=4 (i32.wrap_i64 (local.get $s)))))
  (call $sb_push_byte (local.get $sb) (i32.const 34))
  (local.set $run (local.get $p))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
    (local.set $b (i32.load8_u (local.get $p)))
    (if (i32.and (i32.ge_u (local.get $b) (i32.const 32))
          (i32.and (i32.ne (local.get $b) (i32.const 34)) (i32.ne (local.get $b) (i32.const 92))))
      (then
        (if (i32.or (i32.eqz (local.get $ascii)) (i32.lt_u (local.get $b) (i32.const 127)))
          (then
            (local.set $n (i32.add (local.get $n) (i32.ne (i32.and (local.get $b) (i32.const 0xC0)) (i32.const 0x80))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $each)))))
    ;; flush the run of plain bytes, then escape this character
    (call $sb_push_counted (local.get $sb) (local.get $run) (i32.sub (local.get $p) (local.get $run)) (local.get $n))
    (local.set $n (i32.const 0))
    (local.set $len (i32.const 1))
    (block $escaped
      (if (i32.eq (local.get $b) (i32.const 34))
        (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (i32.const 34)) (br $escaped)))
      (if (i32.eq (local.get $b) (i32.const 92))
        (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (i32.const 92)) (br $escaped)))
      (if (i32.eq (local.get $b) (i32.const 10))
        (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (i32.const 110)) (br $escaped)))
      (if (i32.eq (local.get $b) (i32.const 13))
        (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (i32.const 114)) (br $escaped)))
      (if (i32.eq (local.get $b) (i32.const 9))
        (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (i32.const 116)) (br $escaped)))
      (if (i32.eq (local.get $b) (i32.const 8))
        (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (i32.const 98)) (br $escaped)))
      (if (i32.eq (local.get $b) (i32.const 12))
        (then (call $sb_push_byte (local.get $sb) (i32.const 92)) (call $sb_push_byte (local.get $sb) (i32.const 102)) (br $escaped)))
      (if (i32.lt_u (local.get $b) (i32.const 128))
        (then (call $jd_u4 (local.get $sb) (local.get $b)) (br $escaped)))
      ;; non-ASCII with ensure_ascii
      (local.set $cp (call $str_cp_at (local.get $p)))
      (local.set $len (call $str_seq_len (local.get $b)))
      (if (i32.ge_u (local.get $cp) (i32.const 0x10000))
        (then
          (local.set $cp (i32.sub (local.get $cp) (i32.const 0x10000)))
          (call $jd_u4 (local.get $sb) (i32.or (i32.const 0xD800) (i32.shr_u (local.get $cp) (i32.const 10))))
          (call $jd_u4 (local.get $sb) (i32.or (i32.const 0xDC00) (i32.and (local.get $cp) (i32.const 0x3FF)))))
        (else
          (if (i32.and (i32.ne (i32.and (i32.load offset=20 (local.get $st)) (i32.const 32)) (i32.const 0))
                (i32.eq (i32.and (local.get $cp) (i32.const 0xF800)) (i32.const 0xD800)))
            (then (call $str_check_encodable (local.get $s))))
          (call $jd_u4 (local.get $sb) (local.get $cp)))))
    (local.set $p (i32.add (local.get $p) (local.get $len)))
    (local.set $run (local.get $p))
    (br $each)))
  (call $sb_push_counted (local.get $sb) (local.get $run) (i32.sub (local.get $p) (local.get $run)) (local.get $n))
  (call $sb_push_byte (local.get $sb) (i32.const 34)))

(func $jd_float (param $st i32) (param $x f64)
  (local $s i32)
  (if (i32.or (f64.ne (local.get $x) (local.get $x)) (f64.eq (f64.abs (local.get $x)) (f64.const inf)))
    (then
      (if (i32.eqz (i32.and (i32.load offset=20 (local.get $st)) (i32.const 8)))
        (then (call $raise_static (global.get $t_ValueError) (global.get $s_json_out_of_range))))
      (local.set $s (global.get $s_json_nan))
      (if (f64.eq (local.get $x) (f64.const inf)) (then (local.set $s (global.get $s_json_inf))))
      (if (f64.eq (local.get $x) (f64.const -inf)) (then (local.set $s (global.get $s_json_ninf))))
      (call $jd_lit (local.get $st) (local.get $s))
      (return)))
  (call $sb_push_str (i32.load (local.get $st)) (call $float_repr (local.get $x))))

;; A newline and the indentation of the current level.
(func $jd_newline (param $st i32)
  (local $i i32) (local $sb i32)
  (local.set $sb (i32.load (local.get $st)))
  (call $sb_push_byte (local.get $sb) (i32.const 10))
  (block $done (loop $each
    (br_if $done (i32.ge_s (local.get $i) (i32.load offset=16 (local.get $st))))
    (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=4 (local.get $st))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each))))

;; Records container v as being encoded (with check_circular, ValueError if it already is)
;; and enters a level. Recorded either way: the record is also its root ($jd_mark); the levels
;; bound the records ($json_enter), so the stack, sized for the deepest, never overflows.
(func $jd_push (param $st i32) (param $v i64)
  (local $i i32) (local $obj i32)
  (call $json_enter (global.get $s_json_rec_encode))
  (local.set $obj (i32.wrap_i64 (local.get $v)))
  (if (i32.and (i32.load offset=20 (local.get $st)) (i32.const 4))
    (then
      (local.set $i (i32.load offset=32 (local.get $st)))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $i) (global.get $jd_sp)))
        (if (i32.eq (i32.load (i32.add (global.get $jd_stack) (i32.shl (local.get $i) (i32.const 2)))) (local.get $obj))
          (then (call $raise_static (global.get $t_ValueError) (global.get $s_json_circular))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))))
  (i32.store (i32.add (global.get $jd_stack) (i32.shl (global.get $jd_sp) (i32.const 2))) (local.get $obj))
  (global.set $jd_sp (i32.add (global.get $jd_sp) (i32.const 1))))

(func $jd_pop (param $st i32)
  (call $native_leave)
  (global.set $jd_sp (i32.sub (global.get $jd_sp) (i32.const 1))))

;; Opens a list or dict: the bracket, and with an indent a deeper level on a new line.
(func $jd_open (param $st i32) (param $c i32)
  (call $sb_push_byte (i32.load (local.get $st)) (local.get $c))
  (if (i32.load offset=4 (local.get $st))
    (then
      (i32.store offset=16 (local.get $st) (i32.add (i32.load offset=16 (local.get $st)) (i32.const 1)))
      (call $jd_newline (local.get $st)))))

(func $jd_close (param $st i32) (param $c i32)
  (if (i32.load offset=4 (local.get $st))
    (then
      (i32.store offset=16 (local.get $st) (i32.sub (i32.load offset=16 (local.get $st)) (i32.const 1)))
      (call $jd_newline (local.get $st))))
  (call $sb_push_byte (i32.load (local.get $st)) (local.get $c)))

(func $jd_sep (param $st i32)
  (call $sb_push_str (i32.load (local.get $st)) (i64.extend_i32_u (i32.load offset=8 (local.get $st))))
  (if (i32.load offset=4 (local.get $st)) (then (call $jd_newline (local.get $st)))))

(func $jd_value (param $st i32) (param $v i64)
  (local $t i32) (local $p i32) (local $i i32) (local $n i32) (local $items i32)
  (if (call $is_small (local.get $v))
    (then (call $sb_push_i64 (i32.load (local.get $st)) (i64.shr_s (local.get $v) (i64.const 1))) (return)))
  (local.set $p (i32.wrap_i64 (local.get $v)))
  (local.set $t (i32.load (local.get $p)))
  (if (i32.eq (local.get $t) (i32.const 5)) (then (call $jd_str (local.get $st) (local.get $v)) (return)))
  (if (i32.eq (local.get $t) (i32.const 1)) (then (call $jd_lit (local.get $st) (global.get $s_json_null)) (return)))
  (if (i32.eq (local.get $t) (i32.const 2))
    (then (call $jd_lit (local.get $st)
      (select (global.get $s_json_true) (global.get $s_json_false) (i32.load offset=4 (local.get $p)))) (return)))
  (if (i32.eq (local.get $t) (i32.const 3))
    (then (call $sb_push_i64 (i32.load (local.get $st)) (i64.load offset=8 (local.get $p))) (return)))
  (if (i32.eq (local.get $t) (i32.const 4)) (then (call $jd_float (local.get $st) (f64.load offset=8 (local.get $p))) (return)))
  (if (i32.or (i32.eq (local.get $t) (i32.const 6)) (i32.eq (local.get $t) (i32.const 7)))
    (then
      (if (i32.eqz (i32.load offset=4 (local.get $p)))
        (then
          (call $sb_push_byte (i32.load (local.get $st)) (i32.const 91))
          (call $sb_push_byte (i32.load (local.get $st)) (i32.const 93))
          (return)))
      (call $jd_push (local.get $st) (local.get $v))
      (call $jd_open (local.get $st) (i32.const 91))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (local.get $p))))
        (if (local.get $i) (then (call $jd_sep (local.get $st))))
        (local.set $items (if (result i32) (i32.eq (local.get $t) (i32.const 7))
          (then (i32.load offset=12 (local.get $p))) (else (i32.add (local.get $p) (i32.const 8)))))
        (call $jd_value (local.get $st) (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
      (call $jd_close (local.get $st) (i32.const 93))
      (call $jd_pop (local.get $st))
      (return)))
  (if (i32.eq (local.get $t) (i32.const 8)) (then (call $jd_dict (local.get $st) (local.get $v)) (return)))
  ;; anything else goes through default=
  (if (i64.eqz (i64.load offset=24 (local.get $st)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_json_not_serializable) (call $type_name (local.get $v))))))
  ;; (collections go on while it runs: what the encoding holds is rooted, $jd_mark)
  (call $jd_push (local.get $st) (local.get $v))
  (call $jd_value (local.get $st) (call $call1_plan (i64.load offset=24 (local.get $st)) (local.get $v)))
  (call $jd_pop (local.get $st)))

;; Appends a dict key (converted as CPython does); 0 when skipkeys drops it.
(func $jd_key (param $st i32) (param $k i64) (result i32)
  (local $t i32) (local $sb i32)
  (local.set $sb (i32.load (local.get $st)))
  (local.set $t (call $tid (local.get $k)))
  (if (i32.eq (local.get $t) (i32.const TYPE_STR)) (then (call $jd_str (local.get $st) (local.get $k)) (return (i32.const 1))))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_NONE))
        (i32.or (i32.eq (local.get $t) (i32.const TYPE_BOOL)) (i32.or (i32.eq (local.get $t) (i32.const TYPE_INT)) (i32.eq (local.get $t) (i32.const TYPE_FLOAT)))))
    (then
      (call $sb_push_byte (local.get $sb) (i32.const 34))
      (call $jd_value (local.get $st) (local.get $k))
      (call $sb_push_byte (local.get $sb) (i32.const 34))
      (return (i32.const 1))))
  (if (i32.and (i32.load offset=20 (local.get $st)) (i32.const 16)) (then (return (i32.const 0))))
  (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_json_bad_key) (call $type_name (local.get $k))))
  (unreachable))

(func $jd_dict (param $st i32) (param $v i64)
  (local $d i32) (local $i i32) (local $e i32) (local $k i64) (local $items i64) (local $t i32)
  (local $first i32) (local $n i32) (local $sb i32) (local $mark i32) (local $base i32)
  (local.set $d (i32.wrap_i64 (local.get $v)))
  (local.set $sb (i32.load (local.get $st)))
  (if (i32.eqz (i32.load offset=4 (local.get $d)))
    (then
      (call $sb_push_byte (local.get $sb) (i32.const 123))
      (call $sb_push_byte (local.get $sb) (i32.const 125))
      (return)))
  (call $jd_push (local.get $st) (local.get $v))
  (call $jd_open (local.get $st) (i32.const 123))
  (local.set $first (i32.const 1))
  (if (i32.and (i32.load offset=20 (local.get $st)) (i32.const 1))
    (then
      ;; sorted(d.items()): a list of (key, value) tuples, rooted while the items are encoded
      (local.set $items (call $list_new (i32.load offset=4 (local.get $d))))
      (local.set $base (global.get $shadow_top))
      (call $root_push (local.get $items))
      (local.set $n (i32.load offset=12 (local.get $d)))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $e (i32.add (i32.load offset=8 (local.get $d)) (i32.mul (local.get $i) (i32.const 24))))
        (if (i64.ne (i64.load offset=8 (local.get $e)) (i64.const 0))
          (then
            (local.set $t (call $tuple_new (i32.const 2)))
            (i64.store offset=8 (local.get $t) (i64.load offset=8 (local.get $e)))
            (i64.store offset=16 (local.get $t) (i64.load offset=16 (local.get $e)))
            (call $list_append (local.get $items) (i64.extend_i32_u (local.get $t)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
      (call $seq_sort (i32.wrap_i64 (local.get $items)) (i64.const 0) (i32.const 0))
      (local.set $i (i32.const 0))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (i32.wrap_i64 (local.get $items)))))
        (local.set $t (i32.wrap_i64 (i64.load (i32.add (i32.load offset=12 (i32.wrap_i64 (local.get $items)))
          (i32.shl (local.get $i) (i32.const 3))))))
        (call $jd_item (local.get $st) (i64.load offset=8 (local.get $t)) (i64.load offset=16 (local.get $t)) (local.get $first))
        (local.set $first (i32.and (local.get $first) (i32.eqz (global.get $jd_wrote))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
      (global.set $shadow_top (local.get $base)))
    (else
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $d))))
        (local.set $e (i32.add (i32.load offset=8 (local.get $d)) (i32.mul (local.get $i) (i32.const 24))))
        (local.set $k (i64.load offset=8 (local.get $e)))
        (if (i64.ne (local.get $k) (i64.const 0))
          (then
            (call $jd_item (local.get $st) (local.get $k) (i64.load offset=16 (local.get $e)) (local.get $first))
            (local.set $first (i32.and (local.get $first) (i32.eqz (global.get $jd_wrote))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))))
  (call $jd_close (local.get $st) (i32.const 125))
  (call $jd_pop (local.get $st)))

;; Whether the last $jd_item wrote anything (skipkeys may drop an item).
(global $jd_wrote (mut i32) (i32.const 0))

;; One "key": value item of a dict, preceded by the item separator unless it is the first.
(func $jd_item (param $st i32) (param $k i64) (param $v i64) (param $first i32)
  (local $sb i32) (local $used i32) (local $t i32)
  (local.set $sb (i32.load (local.get $st)))
  (local.set $t (call $tid (local.get $k)))
  (global.set $jd_wrote (i32.const 0))
  ;; keys that are neither str nor a scalar: TypeError, or skipped
  (if (i32.gt_u (local.get $t) (i32.const TYPE_STR))
    (then
      (if (i32.and (i32.load offset=20 (local.get $st)) (i32.const 16)) (then (return)))
      (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_json_bad_key) (call $type_name (local.get $k))))))
  (if (i32.eqz (local.get $first)) (then (call $jd_sep (local.get $st))))
  (drop (call $jd_key (local.get $st) (local.get $k)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=12 (local.get $st))))
  (call $jd_value (local.get $st) (local.get $v))
  (global.set $jd_wrote (i32.const 1)))

(func $b_json_dumps (param $args i32) (param $kwargs i32) (result i64)
  (call $json_dumps (local.get $args) (local.get $kwargs) (i32.const 0)))

;; json.dumps(*args, **kwargs) with the encoder flags `extra` set as well. The encoder's state
;; is in the chain $jd_mark walks from the moment it exists (the keywords' checks may run plan
;; code) until the call ends, however it ends.
(func $json_dumps (param $args i32) (param $kwargs i32) (param $extra i32) (result i64)
  (local $n i32) (local $st i32) (local $r i64) (local $exc i64) (local $save_sp i32) (local $save_native i32)
  (local $save_top i32)
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (i32.eqz (local.get $n))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_json_dumps_missing))))
  (if (i32.gt_u (local.get $n) (i32.const 1))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_json_dumps_many) (call $to_str (call $int_new (i64.extend_i32_u (local.get $n))))))))
  (local.set $st (call $alloc (i32.const 40)))
  (i32.store offset=36 (local.get $st) (global.get $jd_state))
  (global.set $jd_state (local.get $st))
  (local.set $save_sp (global.get $jd_sp))
  (local.set $save_native (global.get $native_depth))
  (local.set $save_top (global.get $shadow_top))
  (local.set $r
    (block $done (result i64)
      (local.set $exc
        (block $caught (result i64)
          (br $done (try_table (result i64) (catch $exc $caught)
            (call $jd_encode (local.get $st) (local.get $args) (local.get $kwargs) (local.get $extra))))))
      (global.set $jd_sp (local.get $save_sp))
      (global.set $native_depth (local.get $save_native))
      (global.set $jd_state (i32.load offset=36 (local.get $st)))
      ;; (the roots an encoding pushed, sort_keys's items)
      (global.set $shadow_top (local.get $save_top))
      (throw $exc (local.get $exc))))
  (global.set $jd_sp (local.get $save_sp))
  (global.set $jd_state (i32.load offset=36 (local.get $st)))
  (local.get $r))

;; The encoding of one json.dumps call into the state `st`: the keywords, then the document.
(func $jd_encode (param $st i32) (param $args i32) (param $kwargs i32) (param $extra i32) (result i64)
  (local $e i32) (local $stop i32) (local $k i64) (local $v i64)
  (local $flags i32) (local $indent i64) (local $seps i64) (local $pair i32)
  (local.set $flags (i32.or (i32.const 14) (local.get $extra)))
  (local.set $indent (i64.const 8))
  (local.set $seps (i64.const 8))
  (if (local.get $kwargs)
    (then
      (local.set $e (i32.load offset=8 (local.get $kwargs)))
      (local.set $stop (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $kwargs)) (i32.const 24))))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $e) (local.get $stop)))
        (local.set $k (i64.load offset=8 (local.get $e)))
        (local.set $v (i64.load offset=16 (local.get $e)))
        (if (i64.ne (local.get $k) (i64.const 0))
          (then
            (block $matched
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_sort_keys))
                (then (local.set $flags (call $jd_flag (local.get $flags) (i32.const 1) (local.get $v))) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_ensure_ascii))
                (then (local.set $flags (call $jd_flag (local.get $flags) (i32.const 2) (local.get $v))) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_check_circular))
                (then (local.set $flags (call $jd_flag (local.get $flags) (i32.const 4) (local.get $v))) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_allow_nan))
                (then (local.set $flags (call $jd_flag (local.get $flags) (i32.const 8) (local.get $v))) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_skipkeys))
                (then (local.set $flags (call $jd_flag (local.get $flags) (i32.const 16) (local.get $v))) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_indent))
                (then (local.set $indent (local.get $v)) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_separators))
                (then (local.set $seps (local.get $v)) (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_default))
                (then
                  (if (i64.ne (local.get $v) (i64.const 8)) (then (i64.store offset=24 (local.get $st) (local.get $v))))
                  (br $matched)))
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_cls))
                (then
                  (if (i64.ne (local.get $v) (i64.const 8))
                    (then (call $raise_static (global.get $t_NotImplementedError) (global.get $s_json_cls))))
                  (br $matched)))
              ;; The keywords go on to JSONEncoder(...), whose first parameter is `self`.
              (if (call $json_kw_is (local.get $k) (global.get $s_json_kw_self))
                (then (call $raise_static (global.get $t_TypeError) (global.get $s_json_encoder_self))))
              (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_json_encoder_kw) (local.get $k))))))
        (local.set $e (i32.add (local.get $e) (i32.const 24)))
        (br $each)))))
  (i32.store offset=20 (local.get $st) (local.get $flags))
  ;; indent: None, a str, or an int n for n spaces
  (if (i64.ne (local.get $indent) (i64.const 8))
    (then
      (if (i32.ne (call $tid (local.get $indent)) (i32.const TYPE_STR))
        (then
          (if (i32.eqz (i32.or (i32.eq (call $tid (local.get $indent)) (i32.const TYPE_INT)) (i32.eq (call $tid (local.get $indent)) (i32.const TYPE_BOOL))))
            (then (call $raise_msg (global.get $t_TypeError)
              (call $msg1 (global.get $s_json_indent_type) (call $type_name (local.get $indent))))))
          (local.set $indent (call $str_repeat (call $str_ascii_char (i32.const 32)) (call $as_i64 (local.get $indent))))))
      (i32.store offset=4 (local.get $st) (i32.wrap_i64 (local.get $indent)))))
  (if (i64.eq (local.get $seps) (i64.const 8))
    (then
      (i32.store offset=12 (local.get $st) (global.get $s_json_key_sep))
      (if (i64.eq (local.get $indent) (i64.const 8))
        (then (i32.store offset=8 (local.get $st) (global.get $s_json_item_sep)))
        (else (i32.store offset=8 (local.get $st) (i32.wrap_i64 (call $str_ascii_char (i32.const 44)))))))
    (else
      (local.set $pair (call $unpack (local.get $seps) (i32.const 2)))
      (if (i32.ne (call $tid (i64.load offset=8 (local.get $pair))) (i32.const TYPE_STR))
        (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_json_sep_type)
          (i64.extend_i32_u (global.get $s_json_five)) (call $clinic_type_name (i64.load offset=8 (local.get $pair)))))))
      (if (i32.ne (call $tid (i64.load (local.get $pair))) (i32.const TYPE_STR))
        (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_json_sep_type)
          (i64.extend_i32_u (global.get $s_json_six)) (call $clinic_type_name (i64.load (local.get $pair)))))))
      (i32.store offset=8 (local.get $st) (i32.wrap_i64 (i64.load (local.get $pair))))
      (i32.store offset=12 (local.get $st) (i32.wrap_i64 (i64.load offset=8 (local.get $pair))))))
  (if (i32.eqz (global.get $jd_stack))
    (then (global.set $jd_stack (call $alloc (i32.shl (i32.add (global.get $max_depth) (i32.const 16)) (i32.const 2))))))
  (i32.store offset=32 (local.get $st) (global.get $jd_sp))
  (i32.store (local.get $st) (call $sb_new))
  (call $jd_value (local.get $st) (i64.load offset=8 (local.get $args)))
  (call $sb_finish (i32.load (local.get $st))))

(func $jd_flag (param $flags i32) (param $bit i32) (param $v i64) (result i32)
  (if (result i32) (call $truthy (local.get $v))
    (then (i32.or (local.get $flags) (local.get $bit)))
    (else (i32.and (local.get $flags) (i32.xor (local.get $bit) (i32.const -1))))))
