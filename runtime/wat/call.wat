;; call.wat: function objects, argument binding, calling any callable, methods and attributes.

;; A function object (docs/abi.md, type 10).
(func $func_new (param $index i32) (param $name i32) (param $defaults i32) (param $kwdefaults i32)
  (param $cells i32) (result i64)
  (local $f i32)
  (local.set $f (call $alloc (i32.const 32)))
  (i32.store (local.get $f) (i32.const TYPE_FUNCTION))
  (i32.store offset=8 (local.get $f) (local.get $index))
  (i32.store offset=12 (local.get $f) (local.get $name))
  (i32.store offset=16 (local.get $f) (local.get $defaults))
  (i32.store offset=20 (local.get $f) (local.get $kwdefaults))
  (i32.store offset=24 (local.get $f) (local.get $cells))
  (i32.store offset=28 (local.get $f) (i32.const 0))
  (i64.extend_i32_u (local.get $f)))

;; The function object `f`, marked as standing for a function CPython writes in C (`math.floor`):
;; its type is builtin_function_or_method (`$type_of`) and its repr `<built-in function floor>`.
(func $func_as_builtin (param $f i64) (result i64)
  (i32.store offset=28 (i32.wrap_i64 (local.get $f)) (global.get $t_builtin_function_or_method))
  (local.get $f))

;; The function object `f`, marked as defined by the plan library module whose name is the str
;; `prefix` (`shlex.`): its header's second word, which messages read (`$call_func_str`).
(func $func_in_module (param $f i64) (param $prefix i32) (result i64)
  (i32.store offset=4 (i32.wrap_i64 (local.get $f)) (local.get $prefix))
  (local.get $f))

(func $cell_new (param $v i64) (result i64)
  (local $c i32)
  (local.set $c (call $alloc (i32.const 16)))
  (i32.store (local.get $c) (i32.const TYPE_CELL))
  (i64.store offset=8 (local.get $c) (local.get $v))
  (i64.extend_i32_u (local.get $c)))

;; Calls any callable with a tuple of positional arguments and a dict of keyword arguments
;; (or 0), for a runtime function that keeps values of its own in wasm locals across the call
;; (a sort holding its keys, `sum` its total): collections are held off while the callee runs
;; (gc.wat), since they would not see those values. Whatever the callee: a builtin runs plan
;; code too (`sorted(gens, key=sum)`: `sum` draws a generator expression's items).
(func $call (param $f i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $r i64)
  (global.set $gc_inhibit (i32.add (global.get $gc_inhibit) (i32.const 1)))
  (block $thrown (result exnref)
    (try_table (catch_all_ref $thrown)
      (local.set $r (call $call_plan (local.get $f) (local.get $args) (local.get $kwargs))))
    (global.set $gc_inhibit (i32.sub (global.get $gc_inhibit) (i32.const 1)))
    (return (local.get $r)))
  (global.set $gc_inhibit (i32.sub (global.get $gc_inhibit) (i32.const 1)))
  (throw_ref))

;; As $call, for plan code and for runtime functions that hold nothing across the call (or
;; root what they hold on the shadow stack): the callee may collect.
(func $call_plan (param $f i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $t i32) (local $p i32) (local $ctor i32)
  (local.set $t (call $tid (local.get $f)))
  (local.set $p (i32.wrap_i64 (local.get $f)))
  (if (i32.eq (local.get $t) (i32.const TYPE_FUNCTION))
    (then
      (return (call_indirect $fns (type $plan_call_type) (i32.load offset=8 (local.get $p))
        (local.get $p) (local.get $args) (local.get $kwargs) (global.get $plan_call_slot)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_BUILTIN))
    (then
      (return (call $call_builtin (i32.load offset=8 (local.get $p)) (local.get $args) (local.get $kwargs)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_BOUND_METHOD))
    (then
      (if (i64.eqz (i64.load offset=8 (local.get $p)))
        (then (return (call $call_unbound (local.get $p) (local.get $args) (local.get $kwargs)))))
      (return (call $call_method (i64.load offset=8 (local.get $p)) (i64.load offset=16 (local.get $p))
        (local.get $args) (local.get $kwargs)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_TYPE))
    (then
      (if (call $is_subclass (local.get $p) (global.get $t_BaseException))
        (then
          (if (local.get $kwargs)
            (then (if (i32.load offset=4 (local.get $kwargs))
              (then (call $raise_msg (global.get $t_TypeError)
                (call $msg1 (global.get $s_no_keyword_arguments) (i64.extend_i32_u (i32.load offset=8 (local.get $p)))))))))
          (return (call $exc_new (local.get $p) (i64.extend_i32_u (local.get $args))))))
      (local.set $ctor (i32.load offset=16 (local.get $p)))
      (if (i32.ne (local.get $ctor) (i32.const -1))
        (then (return (call $call_builtin (local.get $ctor) (local.get $args) (local.get $kwargs)))))
      (call $raise_msg (global.get $t_TypeError)
        (call $msg1 (global.get $s_cannot_create) (i64.extend_i32_u (i32.load offset=8 (local.get $p)))))))
  (call $raise_msg (global.get $t_TypeError)
    (call $msg1 (global.get $s_not_callable) (call $type_name (local.get $f))))
  (unreachable))

(func $call0 (param $f i64) (result i64)
  (call $call (local.get $f) (global.get $empty_tuple) (i32.const 0)))

(func $call1 (param $f i64) (param $a i64) (result i64)
  (call $call (local.get $f) (i32.wrap_i64 (call $tuple1 (local.get $a))) (i32.const 0)))

;; `f(a)` for a runtime function that roots what it keeps (and `f`) itself: collections stay
;; on while `f` runs (`$call_plan`; the callee's frame roots `a`).
(func $call1_plan (param $f i64) (param $a i64) (result i64)
  (call $call_plan (local.get $f) (i32.wrap_i64 (call $tuple1 (local.get $a))) (i32.const 0)))

(func $call2 (param $f i64) (param $a i64) (param $b i64) (result i64)
  (local $t i32)
  (local.set $t (call $alloc (i32.const 24)))
  (i32.store (local.get $t) (i32.const TYPE_TUPLE))
  (i32.store offset=4 (local.get $t) (i32.const 2))
  (i64.store offset=8 (local.get $t) (local.get $a))
  (i64.store offset=16 (local.get $t) (local.get $b))
  (call $call (local.get $f) (local.get $t) (i32.const 0)))

;; `f(a)`, `f(a, b)`, `f(a, b, c)` from plan code: `$call_plan` with the tuple of the arguments
;; made here, so that a call site is one call, not two (plan code that runs once calls builtins
;; this way too: less code to compile, for a call that happens once). The tuple stays rooted
;; until the call returns: a builtin reads its arguments from it while it may collect; an
;; exception leaves the root to the handler, which sets the shadow stack's top back.
(func $call_plan1 (param $f i64) (param $a i64) (result i64)
  (call $call_plan_rooted (local.get $f) (call $tuple_of1 (local.get $a))))

(func $call_plan2 (param $f i64) (param $a i64) (param $b i64) (result i64)
  (call $call_plan_rooted (local.get $f) (call $tuple_of2 (local.get $a) (local.get $b))))

(func $call_plan3 (param $f i64) (param $a i64) (param $b i64) (param $c i64) (result i64)
  (call $call_plan_rooted (local.get $f)
    (call $tuple_of3 (local.get $a) (local.get $b) (local.get $c))))

;; `$call_plan` of `f` with the tuple `args`, no keywords, `args` rooted while it runs.
(func $call_plan_rooted (param $f i64) (param $args i32) (result i64)
  (local $base i32) (local $r i64)
  (local.set $base (global.get $shadow_top))
  (call $root_push (i64.extend_i32_u (local.get $args)))
  (local.set $r (call $call_plan (local.get $f) (local.get $args) (i32.const 0)))
  (global.set $shadow_top (local.get $base))
  (local.get $r))

;; `x.name(a)`, `x.name(a, b)` from plan code: `$call_method` with the tuple made here, rooted
;; until the call returns (as `$call_plan1`).
(func $call_method1 (param $self i64) (param $name i64) (param $a i64) (result i64)
  (call $call_method_rooted (local.get $self) (local.get $name) (call $tuple_of1 (local.get $a))))

(func $call_method2 (param $self i64) (param $name i64) (param $a i64) (param $b i64) (result i64)
  (call $call_method_rooted (local.get $self) (local.get $name)
    (call $tuple_of2 (local.get $a) (local.get $b))))

(func $call_method_rooted (param $self i64) (param $name i64) (param $args i32) (result i64)
  (local $base i32) (local $r i64)
  (local.set $base (global.get $shadow_top))
  (call $root_push (i64.extend_i32_u (local.get $args)))
  (local.set $r (call $call_method (local.get $self) (local.get $name) (local.get $args) (i32.const 0)))
  (global.set $shadow_top (local.get $base))
  (local.get $r))

;; Calls a method by name; AttributeError when the receiver's type has no such method.
(func $call_method (param $self i64) (param $name i64) (param $args i32) (param $kwargs i32) (result i64)
  (local $t i32) (local $r i64) (local $f i64) (local $base i32)
  (local.set $t (call $tid (local.get $self)))
  ;; `str.lower(s)`, `dict.fromkeys(keys)`: a method taken from a type, called at once.
  ;; `m.group(1)`, `pattern.findall(text)`: a record's method is a function among its fields.
  ;; Either runs with collections on, as a plan function called from plan code does (a
  ;; library method over a large text makes garbage as it goes, more than the memory cap
  ;; allows in one call): the receiver and the method are rooted while it runs, since the
  ;; caller may hold neither (the receiver is often a temporary) and the method's body keeps
  ;; its function object and closure cells only in wasm locals.
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TYPE)) (i32.eq (local.get $t) (i32.const TYPE_RECORD)))
    (then
      (local.set $f
        (if (result i64) (i32.eq (local.get $t) (i32.const TYPE_TYPE))
          (then (call $getattr (local.get $self) (local.get $name)))
          (else (call $record_getattr (local.get $self) (local.get $name)))))
      (local.set $base (global.get $shadow_top))
      (call $root_push (local.get $self))
      (call $root_push (local.get $f))
      (local.set $r (call $call_plan (local.get $f) (local.get $args) (local.get $kwargs)))
      (global.set $shadow_top (local.get $base))
      (return (local.get $r))))
  (block $dispatched
    (if (i32.eq (local.get $t) (i32.const TYPE_STR))
      (then (local.set $r (call $str_method (local.get $self) (local.get $name) (local.get $args) (local.get $kwargs))) (br $dispatched)))
    (if (i32.eq (local.get $t) (i32.const TYPE_LIST))
      (then (local.set $r (call $list_method (local.get $self) (local.get $name) (local.get $args) (local.get $kwargs))) (br $dispatched)))
    (if (i32.eq (local.get $t) (i32.const TYPE_DICT))
      (then (local.set $r (call $dict_method (local.get $self) (local.get $name) (local.get $args) (local.get $kwargs))) (br $dispatched)))
    (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
      (then (local.set $r (call $tuple_method (local.get $self) (local.get $name) (local.get $args) (local.get $kwargs))) (br $dispatched)))
    (if (i32.eq (local.get $t) (i32.const TYPE_SET))
      (then (local.set $r (call $set_method (local.get $self) (local.get $name) (local.get $args) (local.get $kwargs))) (br $dispatched)))
    (if (i32.and (i32.ge_u (local.get $t) (i32.const TYPE_BOOL)) (i32.le_u (local.get $t) (i32.const TYPE_FLOAT)))
      (then (local.set $r (call $num_method (local.get $self) (local.get $name) (local.get $args) (local.get $kwargs))) (br $dispatched)))
    ;; keys() and items() views are set-like: isdisjoint as on the set of their items.
    (if (i32.and (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
          (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_dict_n_isdisjoint))))
      (then
        (if (call $dict_view_is_setlike (local.get $self))
          (then (local.set $r (call $set_method (i64.extend_i32_u (call $set_of (local.get $self)))
            (local.get $name) (local.get $args) (local.get $kwargs)))))
        (br $dispatched)))
    ;; range.index and range.count behave as on the list of the range's values.
    (if (i32.eq (local.get $t) (i32.const TYPE_RANGE))
      (then
        (if (i32.or (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_index)))
              (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_count))))
          (then
            (if (call $seq_kw_count (local.get $kwargs))
              (then (call $raise_msg (global.get $t_TypeError) (call $msg1 (global.get $s_range_method_no_kw) (local.get $name)))))
            (if (i32.ne (i32.load offset=4 (local.get $args)) (i32.const 1))
              (then (call $raise_msg (global.get $t_TypeError) (call $msg2 (global.get $s_range_method_one_arg) (local.get $name)
                (call $to_str (call $int_new (i64.extend_i32_u (i32.load offset=4 (local.get $args)))))))))
            (local.set $r
              (if (result i64) (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_index)))
                (then (call $range_index (local.get $self) (local.get $args)))
                (else (call $list_method (call $list_from (local.get $self)) (local.get $name) (local.get $args) (local.get $kwargs)))))))
        (br $dispatched))))
  (if (i64.eqz (local.get $r))
    (then (call $raise_no_attribute (local.get $self) (local.get $name))))
  (local.get $r))

;; range.index(x) (one argument, checked): where x is among the range's values, found as in
;; their list (so 2.0 is found at 2). Not found, CPython's ValueError: "x is not in range" for an
;; int or bool (which it looks up arithmetically), its generic sequence search's words otherwise.
(func $range_index (param $self i64) (param $args i32) (result i64)
  (local $i i32) (local $x i64) (local $t i32)
  (local.set $x (call $seq_arg (local.get $args) (i32.const 0)))
  (local.set $i (call $seq_find (call $list_from (local.get $self)) (local.get $x) (local.get $args)))
  (if (i32.ge_s (local.get $i) (i32.const 0))
    (then (return (call $seq_int (i64.extend_i32_u (local.get $i))))))
  (local.set $t (call $tid (local.get $x)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_BOOL)) (i32.eq (local.get $t) (i32.const TYPE_INT)))
    (then (call $raise_msg (global.get $t_ValueError) (call $msg1 (global.get $s_range_not_in)
      (call $to_repr (local.get $x))))))
  (call $raise_static (global.get $t_ValueError) (global.get $s_range_not_in_sequence))
  (unreachable))

;; The attribute lookup of a method call `obj.name(...)`, made before the arguments are evaluated,
;; as CPython looks the method up first: AttributeError (as `$getattr` raises it) when `obj` has
;; no method `name`, so an argument that runs a command or calls a model is not run for a call
;; that cannot happen.
(func $method_check (param $obj i64) (param $name i64)
  (local $t i32)
  (local.set $t (call $tid (local.get $obj)))
  (if (i32.eq (local.get $t) (i32.const TYPE_TYPE))
    (then
      (if (i32.eqz (call $type_has_method (i32.wrap_i64 (local.get $obj)) (local.get $name)))
        (then (call $raise_no_attribute (local.get $obj) (local.get $name))))
      (return)))
  (if (i32.or (i32.and (i32.ge_u (local.get $t) (i32.const TYPE_BOOL)) (i32.le_u (local.get $t) (i32.const TYPE_SET)))
        (i32.eq (local.get $t) (i32.const TYPE_RANGE)))
    (then
      (if (i32.eqz (call $type_has_method (call $type_of (local.get $obj)) (local.get $name)))
        (then (call $raise_no_attribute (local.get $obj) (local.get $name))))
      (return)))
  ;; A record's methods are among its fields; an exception's attributes are its own.
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_RECORD)) (i32.eq (local.get $t) (i32.const TYPE_EXCEPTION)))
    (then (drop (call $getattr (local.get $obj) (local.get $name))) (return)))
  ;; keys() and items() views have isdisjoint; no other receiver (None, a function, an
  ;; iterator, ...) has a method `$call_method` could call.
  (if (i32.eq (local.get $t) (i32.const TYPE_DICT_VIEW))
    (then (if (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_dict_n_isdisjoint)))
      (then (if (call $dict_view_is_setlike (local.get $obj)) (then (return)))))))
  (call $raise_no_attribute (local.get $obj) (local.get $name)))

;; $method_check for a method the compiler knows belongs to type id `tid` (`append` to lists,
;; `strip` to strs): a receiver of that type needs no lookup (but a frozenset, type id 9 as a
;; set is, lacks the set's methods that change it).
(func $method_check_on (param $obj i64) (param $name i64) (param $tid i32)
  (if (i32.eq (call $tid (local.get $obj)) (local.get $tid))
    (then (if (i32.eqz (call $set_is_frozen (local.get $obj))) (then (return)))))
  (call $method_check (local.get $obj) (local.get $name)))

(func $raise_no_attribute (param $self i64) (param $name i64)
  ;; A class's missing attribute is CPython's "type object 'dict' has no attribute 'x'".
  (if (i32.eq (call $tid (local.get $self)) (i32.const TYPE_TYPE))
    (then (call $raise_msg (global.get $t_AttributeError)
      (call $msg2 (global.get $s_type_no_attribute)
        (i64.extend_i32_u (i32.load offset=8 (i32.wrap_i64 (local.get $self)))) (local.get $name)))))
  (call $raise_msg (global.get $t_AttributeError)
    (call $msg2 (global.get $s_no_attribute) (call $type_name (local.get $self)) (local.get $name))))

;; `str.lower` and the like: a method taken from a type, called with the receiver first.
(func $call_unbound (param $m i32) (param $args i32) (param $kwargs i32) (result i64)
  (local $n i32) (local $rest i32)
  (local.set $n (i32.load offset=4 (local.get $args)))
  ;; dict.fromkeys(iterable, value=None) is the one class method plans use.
  (if (i32.and (i32.eq (i32.load offset=4 (local.get $m)) (global.get $t_dict))
        (call $str_eq (i64.load offset=16 (local.get $m)) (i64.extend_i32_u (global.get $s_attr_fromkeys))))
    (then (return (call $dict_fromkeys (local.get $args) (local.get $kwargs)))))
  (if (i32.eqz (local.get $n))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_unbound_needs_argument)
        (i64.extend_i32_u (i32.load offset=8 (i32.load offset=4 (local.get $m)))) (i64.load offset=16 (local.get $m))))))
  (if (i32.eqz (call $isinstance_t (i64.load offset=8 (local.get $args)) (i32.load offset=4 (local.get $m))))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $str_concat
        (call $msg2 (global.get $s_unbound_wrong_receiver) (i64.load offset=16 (local.get $m))
          (i64.extend_i32_u (i32.load offset=8 (i32.load offset=4 (local.get $m)))))
        (call $msg1 (global.get $s_unbound_wrong_receiver_tail) (call $type_name (i64.load offset=8 (local.get $args))))))))
  (local.set $rest (call $tuple_new (i32.sub (local.get $n) (i32.const 1))))
  (call $memcpy (i32.add (local.get $rest) (i32.const 8)) (i32.add (local.get $args) (i32.const 16))
    (i32.shl (i32.sub (local.get $n) (i32.const 1)) (i32.const 3)))
  (call $call_method (i64.load offset=8 (local.get $args)) (i64.load offset=16 (local.get $m))
    (local.get $rest) (local.get $kwargs)))

;; `obj.name` outside a call: exception arguments, or a bound method of a container or str.
(func $getattr (param $obj i64) (param $name i64) (result i64)
  (local $t i32) (local $m i32) (local $v i64)
  (local.set $t (call $tid (local.get $obj)))
  (if (i32.eq (local.get $t) (i32.const TYPE_RECORD))
    (then (return (call $record_getattr (local.get $obj) (local.get $name)))))
  (if (i32.eq (local.get $t) (i32.const TYPE_EXCEPTION))
    (then
      (if (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_args)))
        (then (return (i64.extend_i32_u (i32.load offset=12 (i32.wrap_i64 (local.get $obj)))))))
      (if (i32.load offset=24 (i32.wrap_i64 (local.get $obj)))
        (then
          (local.set $v (call $dict_get
            (i64.extend_i32_u (i32.load offset=24 (i32.wrap_i64 (local.get $obj)))) (local.get $name)))
          (if (i64.ne (local.get $v) (i64.const 0)) (then (return (local.get $v))))))))
  ;; A range's and a slice's start, stop and step (values at +8, +16, +24).
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_RANGE)) (i32.eq (local.get $t) (i32.const TYPE_SLICE)))
    (then
      (local.set $m (i32.const -1))
      (if (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_start))) (then (local.set $m (i32.const 8))))
      (if (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_stop))) (then (local.set $m (i32.const 16))))
      (if (call $str_eq (local.get $name) (i64.extend_i32_u (global.get $s_attr_step))) (then (local.set $m (i32.const 24))))
      (if (i32.ge_s (local.get $m) (i32.const 0))
        (then (return (i64.load (i32.add (i32.wrap_i64 (local.get $obj)) (local.get $m))))))))
  ;; A method taken from a type (`str.lower`): the receiver comes with the call. Self 0 marks it.
  (if (i32.eq (local.get $t) (i32.const TYPE_TYPE))
    (then
      (if (i32.eqz (call $type_has_method (i32.wrap_i64 (local.get $obj)) (local.get $name)))
        (then (call $raise_no_attribute (local.get $obj) (local.get $name))))
      (local.set $m (call $alloc (i32.const 24)))
      (i32.store (local.get $m) (i32.const TYPE_BOUND_METHOD))
      ;; The header's second word remembers the type the method was taken from.
      (i32.store offset=4 (local.get $m) (i32.wrap_i64 (local.get $obj)))
      (i64.store offset=16 (local.get $m) (local.get $name))
      (return (i64.extend_i32_u (local.get $m)))))
  (if (i32.and
        (i32.or (i32.and (i32.ge_u (local.get $t) (i32.const TYPE_BOOL)) (i32.le_u (local.get $t) (i32.const TYPE_SET)))
          (i32.eq (local.get $t) (i32.const TYPE_RANGE)))
        (call $type_has_method (call $type_of (local.get $obj)) (local.get $name)))
    (then
      (local.set $m (call $alloc (i32.const 24)))
      (i32.store (local.get $m) (i32.const TYPE_BOUND_METHOD))
      (i64.store offset=8 (local.get $m) (local.get $obj))
      (i64.store offset=16 (local.get $m) (local.get $name))
      (return (i64.extend_i32_u (local.get $m)))))
  (call $raise_no_attribute (local.get $obj) (local.get $name))
  (unreachable))

;; ---- argument binding --------------------------------------------------------------------------
;; A parameter descriptor (static data, i32 words): +0 positional parameters P (positional-only
;; first), +4 positional-only count, +8 keyword-only count K, +12 flags (1: *args, 2: **kwargs),
;; +16 the P + K parameter names (str addresses), then, with flag 4 (a C function's argument
;; errors, `$bind_c_check`), its bare name and the name a refusal of keywords shows. Binding fills `out`: P + K slots, then *args
;; (a tuple) and **kwargs (a dict) when the function has them. Every slot is an i64 value.

(func $bind (param $fn i32) (param $args i32) (param $kwargs i32) (param $desc i32) (param $out i32)
  (local $p i32) (local $k i32) (local $flags i32) (local $n i32) (local $i i32) (local $j i32)
  (local $count i32) (local $entry i32) (local $key i64) (local $found i32) (local $extra i32)
  (local $rest i32) (local $defaults i32) (local $nd i32) (local $slot i32) (local $kwdict i64)
  (local $missing i32) (local $first_missing i64)
  (local.set $p (i32.load (local.get $desc)))
  (local.set $k (i32.load offset=8 (local.get $desc)))
  (local.set $flags (i32.load offset=12 (local.get $desc)))
  (if (i32.and (local.get $flags) (i32.const 4))
    (then (call $bind_c_check (local.get $fn) (local.get $args) (local.get $kwargs) (local.get $desc))))
  (local.set $n (i32.load offset=4 (local.get $args)))
  ;; Positional arguments (too many is reported after the keywords, as CPython does: an
  ;; unexpected keyword first, and the keyword-only arguments given counted in the message).
  (local.set $count (select (local.get $p) (local.get $n) (i32.gt_u (local.get $n) (local.get $p))))
  (call $memcpy (local.get $out) (i32.add (local.get $args) (i32.const 8)) (i32.shl (local.get $count) (i32.const 3)))
  (local.set $extra (i32.add (local.get $p) (local.get $k)))
  (if (i32.and (local.get $flags) (i32.const 1))
    (then
      (local.set $rest (call $tuple_new (select (i32.sub (local.get $n) (local.get $p)) (i32.const 0)
        (i32.gt_u (local.get $n) (local.get $p)))))
      (call $memcpy (i32.add (local.get $rest) (i32.const 8))
        (i32.add (i32.add (local.get $args) (i32.const 8)) (i32.shl (local.get $count) (i32.const 3)))
        (i32.shl (i32.load offset=4 (local.get $rest)) (i32.const 3)))
      (i64.store (i32.add (local.get $out) (i32.shl (local.get $extra) (i32.const 3))) (i64.extend_i32_u (local.get $rest)))
      (local.set $extra (i32.add (local.get $extra) (i32.const 1)))))
  (if (i32.and (local.get $flags) (i32.const 2))
    (then
      (local.set $kwdict (call $dict_new))
      (i64.store (i32.add (local.get $out) (i32.shl (local.get $extra) (i32.const 3))) (local.get $kwdict))))
  ;; Keyword arguments: entries of the kwargs dict (24-byte records; key 0 = deleted).
  (if (local.get $kwargs)
    (then
      (local.set $i (i32.const 0))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $kwargs))))
          (local.set $entry (i32.add (i32.load offset=8 (local.get $kwargs)) (i32.mul (local.get $i) (i32.const 24))))
          (local.set $key (i64.load offset=8 (local.get $entry)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $each (i64.eqz (local.get $key)))
          ;; Find the parameter (positional-only parameters cannot be passed by keyword).
          (local.set $found (i32.const -1))
          (local.set $j (i32.load offset=4 (local.get $desc)))
          (block $searched
            (loop $search
              (br_if $searched (i32.ge_u (local.get $j) (i32.add (local.get $p) (local.get $k))))
              (if (call $str_eq (local.get $key)
                    (i64.extend_i32_u (i32.load offset=16 (i32.add (local.get $desc) (i32.shl (local.get $j) (i32.const 2))))))
                (then (local.set $found (local.get $j)) (br $searched)))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br $search)))
          (if (i32.ge_s (local.get $found) (i32.const 0))
            (then
              (local.set $slot (i32.add (local.get $out) (i32.shl (local.get $found) (i32.const 3))))
              (if (i64.ne (i64.load (local.get $slot)) (i64.const 0))
                (then (call $raise_msg (global.get $t_TypeError)
                  (call $msg2 (global.get $s_multiple_values) (i64.extend_i32_u (i32.load offset=12 (local.get $fn))) (local.get $key)))))
              (i64.store (local.get $slot) (i64.load offset=16 (local.get $entry))))
            (else
              (if (i32.and (local.get $flags) (i32.const 2))
                (then (call $dict_set (local.get $kwdict) (local.get $key) (i64.load offset=16 (local.get $entry))))
                (else
                  (if (call $is_posonly_name (local.get $desc) (local.get $key))
                    (then (call $raise_msg (global.get $t_TypeError)
                      (call $msg2 (global.get $s_posonly_as_keyword) (i64.extend_i32_u (i32.load offset=12 (local.get $fn))) (local.get $key)))))
                  (call $raise_msg (global.get $t_TypeError)
                    (call $msg2 (global.get $s_unexpected_keyword) (i64.extend_i32_u (i32.load offset=12 (local.get $fn))) (local.get $key)))))))
          (br $each)))))
  (if (i32.and (i32.gt_u (local.get $n) (local.get $p)) (i32.eqz (i32.and (local.get $flags) (i32.const 1))))
    (then (call $raise_positional_count (local.get $fn) (local.get $p) (local.get $n)
      (call $count_filled (local.get $out) (local.get $p) (i32.add (local.get $p) (local.get $k))))))
  ;; Positional defaults fill the last parameters.
  (local.set $defaults (i32.load offset=16 (local.get $fn)))
  (if (local.get $defaults)
    (then
      (local.set $nd (i32.load offset=4 (local.get $defaults)))
      (local.set $j (i32.const 0))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $j) (local.get $nd)))
          (local.set $slot (i32.add (local.get $out)
            (i32.shl (i32.add (i32.sub (local.get $p) (local.get $nd)) (local.get $j)) (i32.const 3))))
          (if (i64.eqz (i64.load (local.get $slot)))
            (then (i64.store (local.get $slot)
              (i64.load offset=8 (i32.add (local.get $defaults) (i32.shl (local.get $j) (i32.const 3)))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $each)))))
  ;; Keyword-only defaults.
  (if (i32.load offset=20 (local.get $fn))
    (then
      (local.set $j (local.get $p))
      (block $done
        (loop $each
          (br_if $done (i32.ge_u (local.get $j) (i32.add (local.get $p) (local.get $k))))
          (local.set $slot (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3))))
          (if (i64.eqz (i64.load (local.get $slot)))
            (then (i64.store (local.get $slot)
              (call $dict_get (i64.extend_i32_u (i32.load offset=20 (local.get $fn)))
                (i64.extend_i32_u (i32.load offset=16 (i32.add (local.get $desc) (i32.shl (local.get $j) (i32.const 2)))))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $each)))))
  ;; Anything still missing is an error, positional parameters first.
  (call $check_missing (local.get $fn) (local.get $desc) (local.get $out) (i32.const 0) (local.get $p) (global.get $s_positional))
  (call $check_missing (local.get $fn) (local.get $desc) (local.get $out) (local.get $p)
    (i32.add (local.get $p) (local.get $k)) (global.get $s_keyword_only)))

;; ---- the argument errors of CPython's C functions ----------------------------------------------
;; A plan library function that stands for one CPython implements in C (`math.floor`,
;; `re.Pattern.match`; descriptor flag 4) words its argument errors as CPython's C argument
;; parsers do. Its descriptor holds two more words after the parameter names: the bare name
;; (`floor`) and the name a refusal of keywords shows (`math.floor`). A function that takes no keywords (its
;; parameters all positional-only, or `*args` alone) is one of METH_O ("math.floor() takes
;; exactly one argument (2 given)"), a positional checker ("comb expected 2 arguments, got 1")
;; or METH_VARARGS; any other uses the keyword parser ("isclose() missing required argument 'a'
;; (pos 1)"), whose checks this follows in CPython 3.11's order (`_PyArg_UnpackKeywords`). It
;; raises the first error or returns; binding then cannot fail.
(func $bind_c_check (param $fn i32) (param $args i32) (param $kwargs i32) (param $desc i32)
  (local $p i32) (local $posonly i32) (local $k i32) (local $flags i32) (local $n i32) (local $nk i32)
  (local $minpos i32) (local $max i32) (local $bare i64) (local $display i64) (local $sb i32)
  (local $i i32) (local $name i64) (local $left i32) (local $entry i32) (local $key i64)
  (local.set $p (i32.load (local.get $desc)))
  (local.set $posonly (i32.load offset=4 (local.get $desc)))
  (local.set $k (i32.load offset=8 (local.get $desc)))
  (local.set $flags (i32.load offset=12 (local.get $desc)))
  (local.set $bare (i64.extend_i32_u (i32.load offset=16
    (i32.add (local.get $desc) (i32.shl (i32.add (local.get $p) (local.get $k)) (i32.const 2))))))
  (local.set $display (i64.extend_i32_u (i32.load offset=20
    (i32.add (local.get $desc) (i32.shl (i32.add (local.get $p) (local.get $k)) (i32.const 2))))))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (if (local.get $kwargs) (then (local.set $nk (i32.load offset=4 (local.get $kwargs)))))
  (local.set $minpos (i32.sub (local.get $p)
    (select (i32.load offset=4 (i32.load offset=16 (local.get $fn))) (i32.const 0)
      (i32.ne (i32.load offset=16 (local.get $fn)) (i32.const 0)))))
  (local.set $sb (call $sb_new))
  (if (i32.and (i32.eq (local.get $posonly) (local.get $p))
        (i32.and (i32.eqz (local.get $k)) (i32.eqz (i32.and (local.get $flags) (i32.const 2)))))
    (then
      (if (local.get $nk)
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg1 (global.get $s_no_keyword_arguments) (local.get $display)))))
      (if (i32.and (local.get $flags) (i32.const 1)) (then (return)))
      (if (i32.and (i32.ge_u (local.get $n) (local.get $minpos)) (i32.le_u (local.get $n) (local.get $p)))
        (then (return)))
      (if (i32.and (i32.eq (local.get $p) (i32.const 1)) (i32.eq (local.get $minpos) (i32.const 1)))
        (then
          (call $sb_push_str (local.get $sb) (local.get $display))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_exactly_one)))
          (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $n)))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_given)))
          (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb)))))
      ;; `_PyArg_CheckPositional`: "perm expected at most 2 arguments, got 3".
      (call $sb_push_str (local.get $sb) (local.get $bare))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_expected)))
      (local.set $max (local.get $p))
      (if (i32.ne (local.get $minpos) (local.get $p))
        (then
          (if (i32.lt_u (local.get $n) (local.get $minpos))
            (then
              (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_at_least)))
              (local.set $max (local.get $minpos)))
            (else (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_at_most)))))))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $max)))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u
        (select (global.get $s_c_argument_got) (global.get $s_c_arguments_got) (i32.eq (local.get $max) (i32.const 1)))))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $n)))
      (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb)))))
  ;; The keyword parser.
  (local.set $max (i32.add (local.get $p) (local.get $k)))
  (if (i32.gt_u (i32.add (local.get $n) (local.get $nk)) (local.get $max))
    (then
      (call $sb_push_str (local.get $sb) (local.get $bare))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_takes_at_most)))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $max)))
      (if (i32.eqz (local.get $n))
        (then (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_keyword)))))
      (call $c_push_arguments_given (local.get $sb) (local.get $max) (i32.add (local.get $n) (local.get $nk)))))
  (if (i32.gt_u (local.get $n) (local.get $p))
    (then
      (call $sb_push_str (local.get $sb) (local.get $bare))
      (if (i32.eqz (local.get $p))
        (then
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_takes_no_positional)))
          (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb)))))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u
        (select (global.get $s_c_takes_at_most) (global.get $s_c_takes_exactly)
          (i32.lt_u (local.get $minpos) (local.get $p)))))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $p)))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_positional)))
      (call $c_push_arguments_given (local.get $sb) (local.get $p) (local.get $n))))
  ;; Fewer positional arguments than the required positional-only parameters.
  (local.set $i (select (local.get $posonly) (local.get $minpos) (i32.lt_u (local.get $posonly) (local.get $minpos))))
  (if (i32.lt_u (local.get $n) (local.get $i))
    (then
      (call $sb_push_str (local.get $sb) (local.get $bare))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u
        (select (global.get $s_c_takes_at_least) (global.get $s_c_takes_exactly)
          (i32.lt_u (local.get $i) (local.get $p)))))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $i)))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_positional)))
      (call $c_push_arguments_given (local.get $sb) (local.get $i) (local.get $n))))
  ;; The parameters after the positional arguments, by keyword or from a default.
  (local.set $left (local.get $nk))
  (local.set $i (select (local.get $n) (local.get $posonly) (i32.gt_u (local.get $n) (local.get $posonly))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $max)))
      (local.set $name (i64.extend_i32_u (i32.load offset=16
        (i32.add (local.get $desc) (i32.shl (local.get $i) (i32.const 2))))))
      (if (if (result i32) (local.get $left)
            (then (i64.ne (call $dict_get (i64.extend_i32_u (local.get $kwargs)) (local.get $name)) (i64.const 0)))
            (else (i32.const 0)))
        (then (local.set $left (i32.sub (local.get $left) (i32.const 1))))
        (else
          (if (call $c_required (local.get $fn) (local.get $i) (local.get $minpos) (local.get $p) (local.get $name))
            (then
              (call $sb_push_str (local.get $sb) (local.get $bare))
              (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_missing_required)))
              (call $sb_push_str (local.get $sb) (local.get $name))
              (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_pos)))
              (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.add (local.get $i) (i32.const 1))))
              (call $sb_push_byte (local.get $sb) (i32.const 41))
              (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb)))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (if (i32.eqz (local.get $left)) (then (return)))
  ;; A keyword left over: one also given by position, else one that names no parameter.
  (local.set $i (local.get $posonly))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $name (i64.extend_i32_u (i32.load offset=16
        (i32.add (local.get $desc) (i32.shl (local.get $i) (i32.const 2))))))
      (if (i64.ne (call $dict_get (i64.extend_i32_u (local.get $kwargs)) (local.get $name)) (i64.const 0))
        (then
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_argument_for)))
          (call $sb_push_str (local.get $sb) (local.get $bare))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_given_by_name)))
          (call $sb_push_str (local.get $sb) (local.get $name))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_and_position)))
          (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.add (local.get $i) (i32.const 1))))
          (call $sb_push_byte (local.get $sb) (i32.const 41))
          (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (local.set $i (i32.const 0))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (i32.load offset=12 (local.get $kwargs))))
      (local.set $entry (i32.add (i32.load offset=8 (local.get $kwargs)) (i32.mul (local.get $i) (i32.const 24))))
      (local.set $key (i64.load offset=8 (local.get $entry)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i64.eqz (local.get $key)))
      (if (i32.eqz (call $c_keyword_names_parameter (local.get $desc) (local.get $posonly) (local.get $max) (local.get $key)))
        (then
          (call $raise_msg (global.get $t_TypeError)
            (call $msg2 (global.get $s_c_invalid_keyword) (local.get $key) (local.get $bare)))))
      (br $each))))

;; " 2 arguments (3 given)" and raises the message `sb` holds, a TypeError.
(func $c_push_arguments_given (param $sb i32) (param $count i32) (param $given i32)
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u
    (select (global.get $s_c_argument_open) (global.get $s_c_arguments_open) (i32.eq (local.get $count) (i32.const 1)))))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $given)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_c_given)))
  (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb))))

;; Whether parameter `i` (named `name`) has no default: a positional one before the defaults,
;; a keyword-only one missing from the keyword-only defaults.
(func $c_required (param $fn i32) (param $i i32) (param $minpos i32) (param $p i32) (param $name i64) (result i32)
  (if (i32.lt_u (local.get $i) (local.get $p)) (then (return (i32.lt_u (local.get $i) (local.get $minpos)))))
  (if (i32.eqz (i32.load offset=20 (local.get $fn))) (then (return (i32.const 1))))
  (i64.eqz (call $dict_get (i64.extend_i32_u (i32.load offset=20 (local.get $fn))) (local.get $name))))

;; Whether the str `key` names one of the parameters [from, to) of descriptor `desc`.
(func $c_keyword_names_parameter (param $desc i32) (param $from i32) (param $to i32) (param $key i64) (result i32)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $from) (local.get $to)))
      (if (call $str_eq (local.get $key)
            (i64.extend_i32_u (i32.load offset=16 (i32.add (local.get $desc) (i32.shl (local.get $from) (i32.const 2))))))
        (then (return (i32.const 1))))
      (local.set $from (i32.add (local.get $from) (i32.const 1)))
      (br $each)))
  (i32.const 0))

;; Raises "f() missing 2 required positional arguments: 'a' and 'b'" for empty slots in [from, to).
(func $check_missing (param $fn i32) (param $desc i32) (param $out i32) (param $from i32) (param $to i32) (param $kind i32)
  (local $i i32) (local $n i32) (local $names i32) (local $sb i32) (local $seen i32)
  (local.set $i (local.get $from))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
      (if (i64.eqz (i64.load (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3)))))
        (then (local.set $n (i32.add (local.get $n) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (if (i32.eqz (local.get $n)) (then (return)))
  (local.set $sb (call $sb_new))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=12 (local.get $fn))))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_missing)))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $n)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_required)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (local.get $kind)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u
    (select (global.get $s_argument_colon) (global.get $s_arguments_colon) (i32.eq (local.get $n) (i32.const 1)))))
  (local.set $i (local.get $from))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
      (if (i64.eqz (i64.load (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3)))))
        (then
          ;; CPython's list: 'a' and 'b'; 'a', 'b', and 'c'.
          (if (local.get $seen)
            (then (call $sb_push_str (local.get $sb) (i64.extend_i32_u
              (select
                (select (global.get $s_and) (global.get $s_comma_and) (i32.eq (local.get $n) (i32.const 2)))
                (global.get $s_comma)
                (i32.eq (local.get $seen) (i32.sub (local.get $n) (i32.const 1))))))))
          (call $sb_push_byte (local.get $sb) (i32.const 39))
          (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=16 (i32.add (local.get $desc) (i32.shl (local.get $i) (i32.const 2))))))
          (call $sb_push_byte (local.get $sb) (i32.const 39))
          (local.set $seen (i32.add (local.get $seen) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb))))

;; How many of the slots [from, to) of `out` hold a value.
(func $count_filled (param $out i32) (param $from i32) (param $to i32) (result i32)
  (local $n i32)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $from) (local.get $to)))
      (if (i64.ne (i64.load (i32.add (local.get $out) (i32.shl (local.get $from) (i32.const 3)))) (i64.const 0))
        (then (local.set $n (i32.add (local.get $n) (i32.const 1)))))
      (local.set $from (i32.add (local.get $from) (i32.const 1)))
      (br $each)))
  (local.get $n))

;; "f() takes 2 positional arguments but 3 were given", and with keyword-only arguments given,
;; "... but 3 positional arguments (and 1 keyword-only argument) were given".
(func $raise_positional_count (param $fn i32) (param $p i32) (param $n i32) (param $kwonly i32)
  (local $sb i32) (local $nd i32)
  (local.set $sb (call $sb_new))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=12 (local.get $fn))))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_takes)))
  ;; With defaults CPython says "takes from 1 to 2 positional arguments".
  (local.set $nd (select (i32.load offset=4 (i32.load offset=16 (local.get $fn))) (i32.const 0)
    (i32.ne (i32.load offset=16 (local.get $fn)) (i32.const 0))))
  (if (local.get $nd)
    (then
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_from)))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (i32.sub (local.get $p) (local.get $nd))))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_to)))))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $p)))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u
    (select (global.get $s_positional_argument_but) (global.get $s_positional_arguments_but)
      (i32.and (i32.eq (local.get $p) (i32.const 1)) (i32.eqz (local.get $nd))))))
  (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $n)))
  (if (local.get $kwonly)
    (then
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_space_positional_argument)))
      (if (i32.ne (local.get $n) (i32.const 1)) (then (call $sb_push_byte (local.get $sb) (i32.const 115))))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_and_open)))
      (call $sb_push_i64 (local.get $sb) (i64.extend_i32_u (local.get $kwonly)))
      (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_space_keyword_only_argument)))
      (if (i32.ne (local.get $kwonly) (i32.const 1)) (then (call $sb_push_byte (local.get $sb) (i32.const 115))))
      (call $sb_push_byte (local.get $sb) (i32.const 41))))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u
    (select (global.get $s_was_given) (global.get $s_were_given)
      (i32.and (i32.eq (local.get $n) (i32.const 1)) (i32.eqz (local.get $kwonly))))))
  (call $raise_msg (global.get $t_TypeError) (call $sb_finish (local.get $sb))))

;; Reads a closure cell; NameError when the variable it holds is unbound.
(func $cell_get (param $cell i64) (param $name i32) (result i64)
  (local $v i64)
  (local.set $v (i64.load offset=8 (i32.wrap_i64 (local.get $cell))))
  (if (i64.eqz (local.get $v))
    (then (call $raise_msg (global.get $t_NameError)
      (call $msg1 (global.get $s_free_variable) (i64.extend_i32_u (local.get $name))))))
  (local.get $v))

;; Reads a closure cell in the function that owns it; UnboundLocalError when the variable is
;; unbound (a closure's read of the same cell is `$cell_get`'s NameError).
(func $cell_get_local (param $cell i64) (param $name i32) (result i64)
  (local $v i64)
  (local.set $v (i64.load offset=8 (i32.wrap_i64 (local.get $cell))))
  (if (i64.eqz (local.get $v)) (then (call $raise_unbound_local (local.get $name))))
  (local.get $v))

;; NameError for a free variable read before it is bound (a comprehension reading a variable
;; of its function that is not assigned yet).
(func $raise_free_variable (param $name i32)
  (call $raise_msg (global.get $t_NameError)
    (call $msg1 (global.get $s_free_variable) (i64.extend_i32_u (local.get $name)))))

(func $cell_set (param $cell i64) (param $v i64)
  (i64.store offset=8 (i32.wrap_i64 (local.get $cell)) (local.get $v)))

(func $raise_unbound_local (param $name i32)
  (call $raise_msg (global.get $t_UnboundLocalError)
    (call $msg1 (global.get $s_unbound_local) (i64.extend_i32_u (local.get $name)))))

(func $raise_name_error (param $name i32)
  (call $raise_msg (global.get $t_NameError)
    (call $msg1 (global.get $s_name_not_defined) (i64.extend_i32_u (local.get $name)))))

;; A local variable's value; UnboundLocalError when it has not been assigned.
(func $check_local (param $v i64) (param $name i32) (result i64)
  (if (i64.eqz (local.get $v)) (then (call $raise_unbound_local (local.get $name))))
  (local.get $v))

;; A module-level name's value; NameError when it has not been assigned.
(func $check_global (param $v i64) (param $name i32) (result i64)
  (if (i64.eqz (local.get $v)) (then (call $raise_name_error (local.get $name))))
  (local.get $v))

;; `item in container`, evaluated left to right.
(func $in (param $item i64) (param $container i64) (result i32)
  (call $contains (local.get $container) (local.get $item)))

;; Whether values of a type (a type object) have a method `name`, from the method lists in
;; call.strings; so that `x.foo` raises AttributeError where it is written, as in CPython.
(func $type_has_method (param $type i32) (param $name i64) (result i32)
  (local $list i32)
  (block $found
    (if (i32.eq (local.get $type) (global.get $t_str)) (then (local.set $list (global.get $s_methods_str)) (br $found)))
    (if (i32.eq (local.get $type) (global.get $t_list)) (then (local.set $list (global.get $s_methods_list)) (br $found)))
    (if (i32.eq (local.get $type) (global.get $t_tuple)) (then (local.set $list (global.get $s_methods_tuple)) (br $found)))
    (if (i32.eq (local.get $type) (global.get $t_dict)) (then (local.set $list (global.get $s_methods_dict)) (br $found)))
    (if (i32.eq (local.get $type) (global.get $t_set)) (then (local.set $list (global.get $s_methods_set)) (br $found)))
    (if (i32.eq (local.get $type) (global.get $t_frozenset)) (then (local.set $list (global.get $s_methods_frozenset)) (br $found)))
    (if (i32.eq (local.get $type) (global.get $t_range)) (then (local.set $list (global.get $s_methods_range)) (br $found)))
    (if (i32.or (i32.eq (local.get $type) (global.get $t_int)) (i32.eq (local.get $type) (global.get $t_bool)))
      (then (local.set $list (global.get $s_methods_int)) (br $found)))
    (if (i32.eq (local.get $type) (global.get $t_float)) (then (local.set $list (global.get $s_methods_float)) (br $found)))
    (return (i32.const 0)))
  (call $word_in (local.get $list) (local.get $name)))

;; Whether the str `word` is one of the space-separated words of the static str at `list`.
(func $word_in (param $list i32) (param $word i64) (result i32)
  (local $p i32) (local $end i32) (local $w i32) (local $n i32) (local $start i32)
  (local.set $w (i32.add (i32.wrap_i64 (local.get $word)) (i32.const 16)))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $word))))
  (local.set $p (i32.add (local.get $list) (i32.const 16)))
  (local.set $end (i32.add (local.get $p) (i32.load offset=4 (local.get $list))))
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $start (local.get $p))
      (block $word_end
        (loop $scan
          (br_if $word_end (i32.ge_u (local.get $p) (local.get $end)))
          (br_if $word_end (i32.eq (i32.load8_u (local.get $p)) (i32.const 32)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $scan)))
      (if (i32.eq (i32.sub (local.get $p) (local.get $start)) (local.get $n))
        (then (if (call $bytes_equal (local.get $start) (local.get $w) (local.get $n))
          (then (return (i32.const 1))))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $each)))
  (i32.const 0))

(func $bytes_equal (param $a i32) (param $b i32) (param $n i32) (result i32)
  (local $i i32)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $i))) (i32.load8_u (i32.add (local.get $b) (local.get $i))))
        (then (return (i32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $each)))
  (i32.const 1))

;; dict.fromkeys(iterable, value=None)
(func $dict_fromkeys (param $args i32) (param $kwargs i32) (result i64)
  (local $d i64) (local $it i64) (local $k i64) (local $v i64)
  (call $dict_check_no_kwargs (global.get $s_dict_no_kwargs)
    (i64.extend_i32_u (global.get $s_attr_fromkeys)) (local.get $kwargs))
  (if (i32.lt_u (i32.load offset=4 (local.get $args)) (i32.const 1))
    (then (call $raise_static (global.get $t_TypeError) (global.get $s_fromkeys_arguments))))
  (if (i32.gt_u (i32.load offset=4 (local.get $args)) (i32.const 2))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_dict_at_most_2) (i64.extend_i32_u (global.get $s_attr_fromkeys))
        (call $to_str (call $int_new (i64.extend_i32_u (i32.load offset=4 (local.get $args)))))))))
  (local.set $v (i64.const 8))
  (if (i32.eq (i32.load offset=4 (local.get $args)) (i32.const 2)) (then (local.set $v (i64.load offset=16 (local.get $args)))))
  (local.set $d (call $dict_new))
  (local.set $it (call $iter (i64.load offset=8 (local.get $args))))
  (block $done
    (loop $each
      (local.set $k (call $next (local.get $it)))
      (br_if $done (i64.eqz (local.get $k)))
      (call $dict_set (local.get $d) (local.get $k) (local.get $v))
      (br $each)))
  (local.get $d))

(func $is_posonly_name (param $desc i32) (param $key i64) (result i32)
  (local $j i32)
  (block $done
    (loop $each
      (br_if $done (i32.ge_u (local.get $j) (i32.load offset=4 (local.get $desc))))
      (if (call $str_eq (local.get $key)
            (i64.extend_i32_u (i32.load offset=16 (i32.add (local.get $desc) (i32.shl (local.get $j) (i32.const 2))))))
        (then (return (i32.const 1))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $each)))
  (i32.const 0))

;; ---- `*args` and `**kwargs` in calls ----------------------------------------------------------
;; CPython names the callee when an unpacking in a call fails: `__main__.f() argument after *
;; must be an iterable, not NoneType`. `callee` is the called object; for a method call it is
;; the receiver and `mname` the method's name (0 otherwise).

;; The callee as CPython's `_PyObject_FunctionStr` shows it: `__main__.f()`, `str.split()`,
;; `len()`, or the str() of an object that has no qualified name (`None`, `5`).
(func $call_func_str (param $callee i64) (param $mname i64) (result i64)
  (local $sb i32) (local $t i32) (local $p i32)
  (local.set $sb (call $sb_new))
  (local.set $t (call $tid (local.get $callee)))
  (local.set $p (i32.wrap_i64 (local.get $callee)))
  (block $done
    (if (i64.ne (local.get $mname) (i64.const 0))
      (then
        ;; `str.split(...)`: the receiver is the type itself. A method's qualified name holds
        ;; its type's name without a module (`Match.group` of type `re.Match`).
        (if (i32.eq (local.get $t) (i32.const TYPE_TYPE))
          (then (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=8 (local.get $p)))))
          (else (call $sb_push_str (local.get $sb) (call $str_after_last_dot (call $type_name (local.get $callee))))))
        (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_call_dot)))
        (call $sb_push_str (local.get $sb) (local.get $mname))
        (br $done)))
    (if (i32.eq (local.get $t) (i32.const TYPE_FUNCTION))
      (then
        ;; The module's name (`shlex.`) for a plan library's function, else `__main__.`.
        (call $sb_push_str (local.get $sb) (i64.extend_i32_u
          (select (i32.load offset=4 (local.get $p)) (global.get $s_call_main_prefix) (i32.load offset=4 (local.get $p)))))
        (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=12 (local.get $p))))
        (br $done)))
    (if (i32.eq (local.get $t) (i32.const TYPE_BUILTIN))
      (then
        (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=16 (local.get $p))))
        (br $done)))
    (if (i32.eq (local.get $t) (i32.const TYPE_TYPE))
      (then
        (call $sb_push_str (local.get $sb) (i64.extend_i32_u (i32.load offset=8 (local.get $p))))
        (br $done)))
    (if (i32.eq (local.get $t) (i32.const TYPE_BOUND_METHOD))
      (then
        (if (i64.eqz (i64.load offset=8 (local.get $p)))
          (then (call $sb_push_str (local.get $sb)
            (i64.extend_i32_u (i32.load offset=8 (i32.load offset=4 (local.get $p))))))
          (else (call $sb_push_str (local.get $sb) (call $type_name (i64.load offset=8 (local.get $p))))))
        (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_call_dot)))
        (call $sb_push_str (local.get $sb) (i64.load offset=16 (local.get $p)))
        (br $done)))
    ;; Anything without a qualified name is shown as its str(), with no parentheses.
    (call $sb_push_str (local.get $sb) (call $to_str (local.get $callee)))
    (return (call $sb_finish (local.get $sb))))
  (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_call_parens)))
  (call $sb_finish (local.get $sb)))

;; The part of the str `s` after its last `.` (all of it when it has none).
(func $str_after_last_dot (param $s i64) (result i64)
  (local $p i32) (local $i i32) (local $n i32)
  (local.set $p (i32.wrap_i64 (local.get $s)))
  (local.set $n (i32.load offset=4 (local.get $p)))
  (local.set $i (local.get $n))
  (block $found
    (loop $back
      (br_if $found (i32.eqz (local.get $i)))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (if (i32.eq (i32.load8_u offset=16 (i32.add (local.get $p) (local.get $i))) (i32.const 46))
        (then
          (return (call $str_new
            (i32.add (i32.add (local.get $p) (i32.const 17)) (local.get $i))
            (i32.sub (i32.sub (local.get $n) (local.get $i)) (i32.const 1))))))
      (br $back)))
  (local.get $s))

;; `*value` in a call's arguments.
(func $call_star (param $list i64) (param $value i64) (param $callee i64) (param $mname i64)
  (if (i32.eqz (call $seq_iterable (local.get $value)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_call_star_iterable)
        (call $call_func_str (local.get $callee) (local.get $mname))
        (call $type_name (local.get $value))))))
  (call $list_extend (local.get $list) (local.get $value)))

;; The positional arguments of a call whose only one is `*value` (made after its keyword
;; arguments, as CPython makes them): value's items as a tuple, or the same TypeError as
;; $call_star.
(func $star_args (param $value i64) (param $callee i64) (param $mname i64) (result i32)
  (local $list i64)
  (local.set $list (call $list_new (i32.const 0)))
  (call $call_star (local.get $list) (local.get $value) (local.get $callee) (local.get $mname))
  (i32.wrap_i64 (call $tuple_from (local.get $list))))

;; `*value` in a list or tuple display (`[*a, *b]`); a set display's `{*value}` raises the plain
;; "not iterable" error instead, as CPython's does.
(func $display_star (param $list i64) (param $value i64)
  (if (i32.eqz (call $seq_iterable (local.get $value)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_display_star_iterable) (call $type_name (local.get $value))))))
  (call $list_extend (local.get $list) (local.get $value)))

;; A keyword argument of a call that also unpacks `**`: a name given twice raises.
(func $call_kw (param $dict i64) (param $key i64) (param $value i64) (param $callee i64) (param $mname i64)
  (if (i64.ne (call $dict_get (local.get $dict) (local.get $key)) (i64.const 0))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_call_kw_twice)
        (call $call_func_str (local.get $callee) (local.get $mname)) (local.get $key)))))
  (call $dict_set (local.get $dict) (local.get $key) (local.get $value)))

;; `**value` in a call: a dict of str keys, none given twice.
(func $call_dstar (param $dict i64) (param $value i64) (param $callee i64) (param $mname i64)
  (local $e i32) (local $stop i32) (local $k i64) (local $p i32)
  (if (i32.ne (call $tid (local.get $value)) (i32.const TYPE_DICT))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_call_dstar_mapping)
        (call $call_func_str (local.get $callee) (local.get $mname))
        (call $type_name (local.get $value))))))
  (local.set $p (i32.wrap_i64 (local.get $value)))
  (local.set $e (i32.load offset=8 (local.get $p)))
  (local.set $stop (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $p)) (i32.const 24))))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $e) (local.get $stop)))
    (local.set $k (i64.load offset=8 (local.get $e)))
    (if (i64.ne (local.get $k) (i64.const 0))
      (then
        (if (i32.ne (call $tid (local.get $k)) (i32.const TYPE_STR))
          (then
            ;; CPython checks the keys in the callee: what cannot be called says so first.
            (if (i64.eqz (local.get $mname))
              (then (if (i32.eqz (call $is_callable (local.get $callee)))
                (then (call $raise_msg (global.get $t_TypeError)
                  (call $msg1 (global.get $s_not_callable) (call $type_name (local.get $callee))))))))
            (call $raise_static (global.get $t_TypeError) (global.get $s_call_kw_not_str))))
        (call $call_kw (local.get $dict) (local.get $k) (i64.load offset=16 (local.get $e))
          (local.get $callee) (local.get $mname))))
    (local.set $e (i32.add (local.get $e) (i32.const 24)))
    (br $each))))
