;; ---- the plan library's internal helpers (`from _baton import ...`) ----------------------------
;; Builtins only the library's own modules (compiler/stdlib/) may import: the few things a module
;; written in the plan language cannot say in it. Their callers are trusted code, but a wrong
;; argument still raises, never traps.

;; _baton.type_name(v): the name of v's type, for the library's messages.
(func $b__baton_type_name (param $args i32) (param $kwargs i32) (result i64)
  (call $type_name (call $one_arg (global.get $s_lib_name_type_name) (local.get $args) (local.get $kwargs))))

;; _baton.runtime_type(name): the runtime's type object of that name (`re.Match`), so a module
;; can name, construct (exception classes) and test for the types the runtime defines for it.
(func $b__baton_runtime_type (param $args i32) (param $kwargs i32) (result i64)
  (local $name i64) (local $t i32)
  (local.set $name (call $one_arg (global.get $s_lib_name_runtime_type) (local.get $args) (local.get $kwargs)))
  (if (i32.ne (call $tid (local.get $name)) (i32.const TYPE_STR))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_lib_runtime_type_str))))
  (local.set $t (call $type_named (local.get $name)))
  (if (i32.eqz (local.get $t))
    (then (call $raise_msg (global.get $t_ValueError) (call $msg1 (global.get $s_lib_no_such_type) (local.get $name)))))
  (i64.extend_i32_u (local.get $t)))

;; _baton.record(type, fields, text): an object of a runtime record type (`re.Match`) whose
;; attributes are the entries of the dict `fields` (a method is a function stored there: `m.group`
;; is called as `m.group(1)`) and whose str() and repr() are `text`. Marked by len 1, which tells
;; `$record_repr` to give `text` instead of the fields.
(func $b__baton_record (param $args i32) (param $kwargs i32) (result i64)
  (local $type i64) (local $fields i64) (local $text i64) (local $r i64)
  (call $no_kwargs (global.get $s_lib_name_record) (local.get $kwargs))
  (if (i32.ne (call $nargs (local.get $args)) (i32.const 3))
    (then (call $num_count_error (global.get $s_lib_record_count) (i32.const 0) (call $nargs (local.get $args)))))
  (local.set $type (call $arg (local.get $args) (i32.const 0)))
  (local.set $fields (call $arg (local.get $args) (i32.const 1)))
  (local.set $text (call $arg (local.get $args) (i32.const 2)))
  (if (i32.or (i32.ne (call $tid (local.get $type)) (i32.const TYPE_TYPE))
        (i32.or (i32.ne (call $tid (local.get $fields)) (i32.const TYPE_DICT))
          (i32.ne (call $tid (local.get $text)) (i32.const TYPE_STR))))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_lib_record_types))))
  (local.set $r (call $record_new (i32.wrap_i64 (local.get $type)) (local.get $fields) (local.get $text)))
  (i32.store offset=4 (i32.wrap_i64 (local.get $r)) (i32.const 1))
  (local.get $r))

;; _baton.exc_attr(exc, name, value): sets an attribute of an exception (what CPython's classes
;; set in `__init__`: re.error's `msg`, `pattern`, `pos`, `lineno`, `colno`), read as `e.pos`.
;; Returns None.
(func $b__baton_exc_attr (param $args i32) (param $kwargs i32) (result i64)
  (local $exc i64) (local $name i64)
  (call $no_kwargs (global.get $s_lib_name_exc_attr) (local.get $kwargs))
  (if (i32.ne (call $nargs (local.get $args)) (i32.const 3))
    (then (call $num_count_error (global.get $s_lib_exc_attr_count) (i32.const 0) (call $nargs (local.get $args)))))
  (local.set $exc (call $arg (local.get $args) (i32.const 0)))
  (local.set $name (call $arg (local.get $args) (i32.const 1)))
  (if (i32.or (i32.ne (call $tid (local.get $exc)) (i32.const TYPE_EXCEPTION))
        (i32.ne (call $tid (local.get $name)) (i32.const TYPE_STR)))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_lib_exc_attr_types))))
  (call $exc_set_attr (local.get $exc) (i32.wrap_i64 (local.get $name)) (call $arg (local.get $args) (i32.const 2)))
  (i64.const 8))
