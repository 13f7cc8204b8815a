;; builtins.wat: builtins that belong to no single type: print, isinstance, repr.

;; A keyword argument's value from a kwargs dict (or 0), or 0 when absent.
(func $kwarg (param $kwargs i32) (param $name i32) (result i64)
  (if (result i64) (local.get $kwargs)
    (then (call $dict_get (i64.extend_i32_u (local.get $kwargs)) (i64.extend_i32_u (local.get $name))))
    (else (i64.const 0))))

;; Raises TypeError for keyword arguments other than the `allowed` count names given.
(func $kwargs_only (param $fname i32) (param $kwargs i32) (param $a i32) (param $b i32) (param $c i32)
  (local $i i32) (local $entry i32) (local $key i64)
  (if (i32.eqz (local.get $kwargs)) (then (return)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $kwargs))))
      (local.set $entry (i32.add (i32.load offset=8 (local.get $kwargs)) (i32.mul (local.get $i) (i32.const 24))))
      (local.set $key (i64.load offset=8 (local.get $entry)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (local.get $key)))
      (br_if $each (i32.and (i32.ne (local.get $a) (i32.const 0)) (call $str_eq (local.get $key) (i64.extend_i32_u (local.get $a)))))
      (br_if $each (i32.and (i32.ne (local.get $b) (i32.const 0)) (call $str_eq (local.get $key) (i64.extend_i32_u (local.get $b)))))
      (br_if $each (i32.and (i32.ne (local.get $c) (i32.const 0)) (call $str_eq (local.get $key) (i64.extend_i32_u (local.get $c)))))
      (if (i32.eqz (local.get $a))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg1 (global.get $s_builtin_no_keywords) (i64.extend_i32_u (local.get $fname))))))
      (call $raise_msg (global.get $t_TypeError)
        (call $msg2 (global.get $s_builtin_invalid_keyword) (local.get $key) (i64.extend_i32_u (local.get $fname))))
      (br $each))))

;; Raises TypeError unless exactly `n` (1 or 2) positional arguments were given, worded as
;; CPython words it for such builtins (repr, isinstance).
(func $expect_args (param $fname i32) (param $args i32) (param $n i32)
  (local $sb i32) (local $given i32)
  (local.set $given (i32.load offset=4 (local.get $args)))
  (if (i32.eq (local.get $given) (local.get $n)) (then (return)))
  (local.set $sb (call $sb_new))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $given)))
  (call $raise_msg (global.get $t_TypeError)
    (call $msg2 (select (global.get $s_expected_one_arg) (global.get $s_expected_two_args) (i32.eq (local.get $n) (i32.const 1)))
      (i64.extend_i32_u (local.get $fname)) (call $sb_finish (local.get $sb)))))

;; print(*values, sep=' ', end='\n'): one host call per print.
(func $b_print (param $args i32) (param $kwargs i32) (result i64)
  (local $sep i64) (local $end i64)
  (call $kwargs_only (global.get $s_name_print) (local.get $kwargs) (global.get $s_kw_sep) (global.get $s_kw_end) (global.get $s_kw_flush))
  (local.set $sep (call $kwarg (local.get $kwargs) (global.get $s_kw_sep)))
  (local.set $end (call $kwarg (local.get $kwargs) (global.get $s_kw_end)))
  (if (i32.or (i64.eqz (local.get $sep)) (i64.eq (local.get $sep) (i64.const 8)))
    (then (local.set $sep (i64.extend_i32_u (global.get $s_space))))
    (else (if (i32.ne (call $tid (local.get $sep)) (i32.const TYPE_STR))
      (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_sep_type) (call $type_name (local.get $sep))))))))
  (if (i32.or (i64.eqz (local.get $end)) (i64.eq (local.get $end) (i64.const 8)))
    (then (local.set $end (i64.extend_i32_u (global.get $s_newline))))
    (else (if (i32.ne (call $tid (local.get $end)) (i32.const TYPE_STR))
      (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_end_type) (call $type_name (local.get $end))))))))
  (call $print_items (i32.add (local.get $args) (i32.const 8)) (i32.load offset=4 (local.get $args))
    (local.get $sep) (local.get $end))
  (i64.const 8))

;; Prints the `n` values at `items` (a tuple's items, or a slot of the shadow stack), each
;; converted with str(), `sep` between them and `end` after them, the strs `print` checked.
;; CPython writes each piece as it goes: when a str() raises, or a piece cannot be encoded (a
;; lone surrogate), the pieces before it have been written. Here they gather in a builder that
;; the collector sees (an f-string builder, fast.wat, rooted in a shadow-stack slot: the next
;; str() may run plan code that collects) and go out together, or before the exception.
(func $print_items (param $items i32) (param $n i32) (param $sep i64) (param $end i64)
  (local $base i32) (local $sb i32) (local $i i32)
  (local.set $base (global.get $shadow_top))
  (local.set $sb (call $fsb_with (i32.const 64)))
  (call $root_push (i64.extend_i32_u (local.get $sb)))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (local.get $i) (then (call $print_piece (local.get $sb) (local.get $sep))))
      (call $print_piece (local.get $sb) (call $print_str (local.get $sb)
        (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $print_piece (local.get $sb) (local.get $end))
  (call $print_flush (local.get $sb))
  (global.set $shadow_top (local.get $base)))

;; Adds a piece of print's output to the builder `sb`; one that is not UTF-8 (a lone
;; surrogate) writes the pieces before it and raises UnicodeEncodeError.
(func $print_piece (param $sb i32) (param $s i64)
  (if (i32.ge_s (call $str_surrogate_at (local.get $s)) (i32.const 0))
    (then
      (call $print_flush (local.get $sb))
      (call $str_check_encodable (local.get $s))))
  (call $fsb_push_str (local.get $sb) (local.get $s)))

;; str(v) for print: what it raises goes on after the pieces in `sb` are written.
(func $print_str (param $sb i32) (param $v i64) (result i64)
  (local $thrown exnref)
  (local.set $thrown
    (block $caught (result exnref)
      (try_table (catch_all_ref $caught)
        (return (call $to_str (local.get $v))))
      (unreachable)))
  (call $print_flush (local.get $sb))
  (throw_ref (local.get $thrown)))

;; Writes what the builder `sb` holds (one host call) and empties it.
(func $print_flush (param $sb i32)
  (local $used i32)
  (local.set $used (i32.load offset=12 (local.get $sb)))
  (if (local.get $used)
    (then (call $host_print (i32.add (i32.load offset=8 (local.get $sb)) (i32.const 16)) (local.get $used))))
  (i32.store offset=12 (local.get $sb) (i32.const 0)))

;; callable(value): functions, builtins, bound methods and types can be called.
(func $b_callable (param $args i32) (param $kwargs i32) (result i64)
  (call $bool (call $is_callable (call $one_arg (global.get $s_name_callable) (local.get $args) (local.get $kwargs)))))

(func $is_callable (param $v i64) (result i32)
  (local $t i32)
  (local.set $t (call $tid (local.get $v)))
  (i32.or (i32.eq (local.get $t) (i32.const TYPE_FUNCTION))
    (i32.and (i32.ge_u (local.get $t) (i32.const TYPE_TYPE)) (i32.le_u (local.get $t) (i32.const TYPE_BOUND_METHOD)))))

;; isinstance(value, type or tuple of types)
(func $b_isinstance (param $args i32) (param $kwargs i32) (result i64)
  (call $kwargs_only (global.get $s_name_isinstance) (local.get $kwargs) (i32.const 0) (i32.const 0) (i32.const 0))
  (call $expect_args (global.get $s_name_isinstance) (local.get $args) (i32.const 2))
  (call $bool (call $isinstance_spec (i64.load offset=8 (local.get $args)) (i64.load offset=16 (local.get $args)))))

(func $isinstance_spec (param $v i64) (param $spec i64) (result i32)
  (local $t i32) (local $i i32) (local $n i32)
  (local.set $t (call $tid (local.get $spec)))
  (if (i32.eq (local.get $t) (i32.const TYPE_TYPE))
    (then (return (call $isinstance_t (local.get $v) (i32.wrap_i64 (local.get $spec))))))
  ;; A union: any of its members (None stands for NoneType).
  (if (call $is_union (local.get $spec))
    (then
      (local.set $spec (call $union_args (local.get $spec)))
      (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $spec))))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (if (i64.eq (i64.load offset=8 (i32.add (i32.wrap_i64 (local.get $spec)) (i32.shl (local.get $i) (i32.const 3)))) (i64.const 8))
            (then (if (i64.eq (local.get $v) (i64.const 8)) (then (return (i32.const 1)))))
            (else
              (if (call $isinstance_spec (local.get $v)
                    (i64.load offset=8 (i32.add (i32.wrap_i64 (local.get $spec)) (i32.shl (local.get $i) (i32.const 3)))))
                (then (return (i32.const 1))))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (i32.const 0))))
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
    (then
      (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $spec))))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (if (call $isinstance_spec (local.get $v)
                (i64.load offset=8 (i32.add (i32.wrap_i64 (local.get $spec)) (i32.shl (local.get $i) (i32.const 3)))))
            (then (return (i32.const 1))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return (i32.const 0))))
  (call $raise_static (global.get $t_TypeError) (global.get $s_isinstance_type))
  (unreachable))

;; ---- Ellipsis: `...` ----------------------------------------------------------------------
;; The one `ellipsis` object, made on first use: a record (id 20, len 1) with no fields whose
;; str and repr are `Ellipsis`. `x is ...` holds for every `...` of the plan.
(global $ellipsis_obj (mut i64) (i64.const 0))

(func $ellipsis (result i64)
  (local $r i64)
  (if (i64.eqz (global.get $ellipsis_obj))
    (then
      (local.set $r (call $record_new (global.get $t_ellipsis) (call $dict_new)
        (i64.extend_i32_u (global.get $s_ellipsis_text))))
      (i32.store offset=4 (i32.wrap_i64 (local.get $r)) (i32.const 1))
      (global.set $ellipsis_obj (local.get $r))))
  (global.get $ellipsis_obj))

;; ---- unions of types: `int | None` (types.UnionType) ---------------------------------------
;; What annotations and type aliases write (`Json = dict | list | None`), and isinstance takes.
;; A record (id 20, len 1) of type `types.UnionType` whose field `__args__` is the tuple of its
;; members (types, and None), each once, and whose str and repr are `int | None`. A union of
;; one member is that member (`int | int` is `int`).

;; Whether `v` can be a member: a type, None, or a union.
(func $union_member (param $v i64) (result i32)
  (local $t i32)
  (if (i64.eq (local.get $v) (i64.const 8)) (then (return (i32.const 1))))
  (local.set $t (call $tid (local.get $v)))
  (if (i32.eq (local.get $t) (i32.const TYPE_TYPE)) (then (return (i32.const 1))))
  (call $is_union (local.get $v)))

(func $is_union (param $v i64) (result i32)
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_RECORD)) (then (return (i32.const 0))))
  (i32.eq (i32.load offset=8 (i32.wrap_i64 (local.get $v))) (global.get $t_types.UnionType)))

;; A union's members (a tuple).
(func $union_args (param $u i64) (result i64)
  (call $dict_get (i64.extend_i32_u (i32.load offset=12 (i32.wrap_i64 (local.get $u))))
    (i64.extend_i32_u (global.get $s_union_args))))

(func $union_new (param $a i64) (param $b i64) (result i64)
  (local $list i64) (local $n i32) (local $i i32) (local $args i32) (local $sb i32) (local $x i64)
  (local $fields i64) (local $r i64)
  (local.set $list (call $list_new (i32.const 0)))
  (call $union_collect (local.get $list) (local.get $a))
  (call $union_collect (local.get $list) (local.get $b))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $list))))
  (if (i32.eq (local.get $n) (i32.const 1))
    (then (return (i64.load (i32.load offset=12 (i32.wrap_i64 (local.get $list)))))))
  (local.set $args (call $tuple_new (local.get $n)))
  (local.set $sb (call $sb_new))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $x (i64.load (i32.add (i32.load offset=12 (i32.wrap_i64 (local.get $list)))
        (i32.shl (local.get $i) (i32.const 3)))))
      (i64.store offset=8 (i32.add (local.get $args) (i32.shl (local.get $i) (i32.const 3))) (local.get $x))
      (if (local.get $i) (then (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_union_bar)))))
      (if (i64.eq (local.get $x) (i64.const 8))
        (then (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_union_none))))
        (else (call $sb_push_str (local.get $sb) (i64.extend_i32_u (call $type_display_name (i32.wrap_i64 (local.get $x)))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (local.set $fields (call $dict_new))
  (call $dict_set (local.get $fields) (i64.extend_i32_u (global.get $s_union_args)) (i64.extend_i32_u (local.get $args)))
  (local.set $r (call $record_new (global.get $t_types.UnionType) (local.get $fields) (call $sb_finish (local.get $sb))))
  (i32.store offset=4 (i32.wrap_i64 (local.get $r)) (i32.const 1))
  (local.get $r))

;; Appends `v`'s members to `list`, each once (a union contributes its own).
(func $union_collect (param $list i64) (param $v i64)
  (local $args i32) (local $i i32)
  (if (call $is_union (local.get $v))
    (then
      (local.set $args (i32.wrap_i64 (call $union_args (local.get $v))))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (i32.load offset=4 (local.get $args))))
          (call $union_collect (local.get $list)
            (i64.load offset=8 (i32.add (local.get $args) (i32.shl (local.get $i) (i32.const 3)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each)))
      (return)))
  (if (call $seq_contains_identical (local.get $list) (local.get $v)) (then (return)))
  (call $list_append (local.get $list) (local.get $v)))

;; Whether `list` holds `v` itself (types and None compare by identity).
(func $seq_contains_identical (param $list i64) (param $v i64) (result i32)
  (local $i i32) (local $n i32) (local $items i32)
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $list))))
  (local.set $items (i32.load offset=12 (i32.wrap_i64 (local.get $list))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (i64.eq (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))) (local.get $v))
        (then (return (i32.const 1))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const 0))

;; A type's name as a union shows it: the module-qualified one where CPython has one.
(func $type_display_name (param $t i32) (result i32)
  (select (i32.load offset=20 (local.get $t)) (i32.load offset=8 (local.get $t))
    (i32.ne (i32.load offset=20 (local.get $t)) (i32.const 0))))

(func $b_repr (param $args i32) (param $kwargs i32) (result i64)
  (call $kwargs_only (global.get $s_name_repr) (local.get $kwargs) (i32.const 0) (i32.const 0) (i32.const 0))
  (call $expect_args (global.get $s_name_repr) (local.get $args) (i32.const 1))
  (call $to_repr (i64.load offset=8 (local.get $args))))
