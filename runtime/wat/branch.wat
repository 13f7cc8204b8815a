;; ---- branch.wat: the SDK's `branch` and `parallel`, and the entry point of a branch ---------
;; (docs/abi.md, "Branches"). The parent encodes the module's globals, the callables and the
;; validator once (codec.wat) and sends them with the options in one `baton.branch` request.
;; The host starts one fresh instance of the module per callable and calls its
;; `baton_branch_main(len, index)` with the encoded task waiting as the reply; the branch
;; restores the globals, calls callable `index`, runs the validator, and hands
;; `{"value", "valid", "score"}` to `baton.result`. The host answers the parent with every
;; branch's outcome and the chosen one, which this file turns into `Outcome` records and the
;; reduced value.

;; The names `branch` binds, in order: `fns` may be given by position, the rest are keyword-only.
(func $branch_names (result i32)
  (local $t i32)
  (local.set $t (call $tuple_new (i32.const 10)))
  (i64.store offset=8 (local.get $t) (i64.extend_i32_u (global.get $s_br_fns)))
  (i64.store offset=16 (local.get $t) (i64.extend_i32_u (global.get $s_br_validate)))
  (i64.store offset=24 (local.get $t) (i64.extend_i32_u (global.get $s_br_reduce)))
  (i64.store offset=32 (local.get $t) (i64.extend_i32_u (global.get $s_br_stop_early)))
  (i64.store offset=40 (local.get $t) (i64.extend_i32_u (global.get $s_br_max_parallel)))
  (i64.store offset=48 (local.get $t) (i64.extend_i32_u (global.get $s_br_budget)))
  (i64.store offset=56 (local.get $t) (i64.extend_i32_u (global.get $s_br_adopt)))
  (i64.store offset=64 (local.get $t) (i64.extend_i32_u (global.get $s_br_n)))
  (i64.store offset=72 (local.get $t) (i64.extend_i32_u (global.get $s_br_priors)))
  (i64.store offset=80 (local.get $t) (i64.extend_i32_u (global.get $s_br_labels)))
  (local.get $t))

(func $br_arg (param $d i64) (param $name i32) (result i64)
  (call $dict_get (local.get $d) (i64.extend_i32_u (local.get $name))))

(func $br_is_callable (param $v i64) (result i32)
  (local $t i32)
  (if (call $is_small (local.get $v)) (then (return (i32.const 0))))
  (local.set $t (call $tid (local.get $v)))
  (i32.or (i32.or (i32.eq (local.get $t) (i32.const TYPE_FUNCTION)) (i32.eq (local.get $t) (i32.const TYPE_BUILTIN)))
    (i32.or (i32.eq (local.get $t) (i32.const TYPE_BOUND_METHOD)) (i32.eq (local.get $t) (i32.const TYPE_TYPE)))))

;; The list of callables to run: `fns` itself (a list or tuple of callables), or `n` times the
;; one callable `fns`.
(func $br_tasks (param $fname i32) (param $fns i64) (param $n i64) (result i64)
  (local $t i32) (local $tasks i64) (local $i i32) (local $count i32) (local $items i32) (local $f i64)
  (local.set $t (call $tid (local.get $fns)))
  (if (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST)))
    (then
      (if (i32.and (i64.ne (local.get $n) (i64.const 0)) (i64.ne (local.get $n) (i64.const 8)))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg1 (global.get $s_br_n_with_list) (i64.extend_i32_u (local.get $fname))))))
      (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
        (then (local.set $items (i32.add (i32.wrap_i64 (local.get $fns)) (i32.const 8))))
        (else (local.set $items (i32.load offset=12 (i32.wrap_i64 (local.get $fns))))))
      (local.set $count (i32.load offset=4 (i32.wrap_i64 (local.get $fns))))
      (local.set $tasks (call $list_new (local.get $count)))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $f (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
        (if (i32.eqz (call $br_is_callable (local.get $f)))
          (then (call $raise_msg (global.get $t_TypeError)
            (call $msg2 (global.get $s_br_not_callable) (i64.extend_i32_u (local.get $fname))
              (call $type_name (local.get $f))))))
        (call $list_append (local.get $tasks) (local.get $f))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
      (return (local.get $tasks))))
  (if (i32.eqz (call $br_is_callable (local.get $fns)))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_br_fns_type) (i64.extend_i32_u (local.get $fname))
        (call $type_name (local.get $fns))))))
  (local.set $count (i32.const 1))
  ;; n="auto": one callable; the host runs it in waves (host/src/branch/waves.rs).
  (if (i32.eq (call $tid (local.get $n)) (i32.const TYPE_STR))
    (then (if (call $str_eq (local.get $n) (i64.extend_i32_u (global.get $s_br_auto)))
      (then (local.set $n (i64.const 8))))))
  (if (i32.and (i64.ne (local.get $n) (i64.const 0)) (i64.ne (local.get $n) (i64.const 8)))
    (then
      (if (i32.eqz (call $is_small (local.get $n)))
        (then (call $raise_msg (global.get $t_TypeError)
          (call $msg2 (global.get $s_br_n_type) (i64.extend_i32_u (local.get $fname))
            (call $type_name (local.get $n))))))
      (if (i32.or (i64.lt_s (local.get $n) (i64.const 3))
                  (i64.gt_s (local.get $n) (i64.const 20001)))
        (then (call $raise_msg (global.get $t_ValueError)
          (call $msg2 (global.get $s_br_n_range) (i64.extend_i32_u (local.get $fname))
            (call $to_str (local.get $n))))))
      (local.set $count (i32.wrap_i64 (i64.shr_s (local.get $n) (i64.const 1))))))
  (local.set $tasks (call $list_new (local.get $count)))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
    (call $list_append (local.get $tasks) (local.get $fns))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (local.get $tasks))

;; Runs the branches `d` (the bound arguments) describes and returns the host's answer with its
;; outcomes turned into `Outcome` records: a dict with "outcomes" (a list), "chosen" (an index
;; or None) and "message" (why nothing was chosen).
(func $br_run (param $fname i32) (param $d i64) (param $reduce i64) (result i64)
  (local $req i64) (local $tasks i64) (local $validate i64) (local $payload i32) (local $text i64)
  (local $reply i64) (local $outcomes i64) (local $i i32) (local $n i32) (local $o i64)
  (local.set $tasks (call $br_tasks (local.get $fname)
    (call $br_arg (local.get $d) (global.get $s_br_fns)) (call $br_arg (local.get $d) (global.get $s_br_n))))
  (local.set $validate (call $br_arg (local.get $d) (global.get $s_br_validate)))
  (if (i64.eq (local.get $validate) (i64.const 8)) (then (local.set $validate (i64.const 0))))
  (if (i64.ne (local.get $validate) (i64.const 0))
    (then (if (i32.eqz (call $br_is_callable (local.get $validate)))
      (then (call $raise_msg (global.get $t_TypeError)
        (call $msg2 (global.get $s_br_validate_type) (i64.extend_i32_u (local.get $fname))
          (call $type_name (local.get $validate))))))))
  ;; One encoding for all branches: (globals, callables, validator).
  (local.set $payload (call $tuple_new (i32.const 3)))
  (i64.store offset=8 (local.get $payload) (call $plan_globals_save))
  (i64.store offset=16 (local.get $payload) (local.get $tasks))
  (i64.store offset=24 (local.get $payload)
    (select (i64.const 8) (local.get $validate) (i64.eqz (local.get $validate))))
  (local.set $req (call $dict_new))
  (call $dict_set (local.get $req) (i64.extend_i32_u (global.get $s_br_count))
    (call $cx_int (i32.load offset=4 (i32.wrap_i64 (local.get $tasks)))))
  (call $dict_set (local.get $req) (i64.extend_i32_u (global.get $s_br_reduce)) (local.get $reduce))
  (call $dict_set (local.get $req) (i64.extend_i32_u (global.get $s_br_validate))
    (select (i64.const 16) (i64.const 24) (i64.eqz (local.get $validate))))
  (call $br_copy_option (local.get $d) (local.get $req) (global.get $s_br_stop_early))
  (call $br_copy_option (local.get $d) (local.get $req) (global.get $s_br_max_parallel))
  (call $br_copy_option (local.get $d) (local.get $req) (global.get $s_br_budget))
  (call $br_copy_option (local.get $d) (local.get $req) (global.get $s_br_adopt))
  (call $br_copy_option (local.get $d) (local.get $req) (global.get $s_br_priors))
  (call $dict_set (local.get $req) (i64.extend_i32_u (global.get $s_br_auto))
    (select (i64.const 24) (i64.const 16)
      (call $br_is_auto (call $br_arg (local.get $d) (global.get $s_br_n)))))
  ;; Where the branches come from, for learned priors: the first callable's name.
  (call $dict_set (local.get $req) (i64.extend_i32_u (global.get $s_br_site))
    (call $br_site (call $cx_item (local.get $tasks) (i32.const 0))))
  (call $dict_set (local.get $req) (i64.extend_i32_u (global.get $s_br_labels))
    (call $br_labels (local.get $fname) (call $br_arg (local.get $d) (global.get $s_br_labels))
      (local.get $tasks)))
  (call $codec_begin)
  (call $dict_set (local.get $req) (i64.extend_i32_u (global.get $s_br_payload))
    (call $cx_enc (i64.extend_i32_u (local.get $payload))))
  (local.set $text (call $host_encode (call $host_with_line (local.get $req))))
  (local.set $reply (call $host_take_reply
    (call $host_branch (call $host_ptr (local.get $text)) (call $host_len (local.get $text)))))
  (if (i32.ne (call $tid (local.get $reply)) (i32.const TYPE_DICT)) (then (call $br_bad_reply)))
  (local.set $outcomes (call $br_arg (local.get $reply) (global.get $s_br_outcomes)))
  (if (i32.ne (call $tid (local.get $outcomes)) (i32.const TYPE_LIST)) (then (call $br_bad_reply)))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $outcomes))))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
    (local.set $o (call $cx_item (local.get $outcomes) (local.get $i)))
    (if (i32.ne (call $tid (local.get $o)) (i32.const TYPE_DICT)) (then (call $br_bad_reply)))
    (call $codec_begin)
    (call $dict_set (local.get $o) (i64.extend_i32_u (global.get $s_br_value))
      (call $cx_dec (call $br_arg_or_none (local.get $o) (global.get $s_br_value))))
    (call $codec_begin)
    (call $dict_set (local.get $o) (i64.extend_i32_u (global.get $s_br_exception))
      (call $cx_dec (call $br_arg_or_none (local.get $o) (global.get $s_br_exception))))
    (i64.store (i32.add (i32.load offset=12 (i32.wrap_i64 (local.get $outcomes))) (i32.shl (local.get $i) (i32.const 3)))
      (call $record_new (global.get $t_Outcome) (local.get $o) (i64.const 0)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (local.get $reply))

(func $br_is_auto (param $n i64) (result i32)
  (if (i64.eqz (local.get $n)) (then (return (i32.const 0))))
  (if (i32.ne (call $tid (local.get $n)) (i32.const TYPE_STR)) (then (return (i32.const 0))))
  (call $str_eq (local.get $n) (i64.extend_i32_u (global.get $s_br_auto))))

;; The branches' names for the trace, the report and each Outcome's `label`: `labels` as the
;; plan gave it (a list or tuple of str, one per branch), else each callable's name.
(func $br_labels (param $fname i32) (param $labels i64) (param $tasks i64) (result i64)
  (local $out i64) (local $i i32) (local $n i32) (local $t i32) (local $items i32) (local $v i64)
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $tasks))))
  (local.set $out (call $list_new (local.get $n)))
  (if (i32.or (i64.eqz (local.get $labels)) (i64.eq (local.get $labels) (i64.const 8)))
    (then
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (call $list_append (local.get $out)
          (call $br_site (call $cx_item (local.get $tasks) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
      (return (local.get $out))))
  (local.set $t (call $tid (local.get $labels)))
  (if (i32.eqz (i32.or (i32.eq (local.get $t) (i32.const TYPE_TUPLE)) (i32.eq (local.get $t) (i32.const TYPE_LIST))))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_br_labels_type) (i64.extend_i32_u (local.get $fname))
        (call $type_name (local.get $labels))))))
  (if (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $labels))) (local.get $n))
    (then (call $raise_msg (global.get $t_ValueError)
      (call $msg2 (global.get $s_br_labels_count) (i64.extend_i32_u (local.get $fname))
        (call $to_str (call $cx_int (local.get $n)))))))
  (if (i32.eq (local.get $t) (i32.const TYPE_TUPLE))
    (then (local.set $items (i32.add (i32.wrap_i64 (local.get $labels)) (i32.const 8))))
    (else (local.set $items (i32.load offset=12 (i32.wrap_i64 (local.get $labels))))))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
    (local.set $v (i64.load (i32.add (local.get $items) (i32.shl (local.get $i) (i32.const 3)))))
    (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_STR))
      (then (call $raise_msg (global.get $t_TypeError)
        (call $msg2 (global.get $s_br_labels_item) (i64.extend_i32_u (local.get $fname))
          (call $type_name (local.get $v))))))
    (call $list_append (local.get $out) (local.get $v))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (local.get $out))

;; A callable's name: a function's own, else its type's.
(func $br_site (param $f i64) (result i64)
  (if (i32.eq (call $tid (local.get $f)) (i32.const TYPE_FUNCTION))
    (then (return (i64.extend_i32_u (i32.load offset=12 (i32.wrap_i64 (local.get $f)))))))
  (call $type_name (local.get $f)))

(func $br_bad_reply (call $raise_static (global.get $t_RuntimeError) (global.get $s_host_bad_reply)))

(func $br_arg_or_none (param $d i64) (param $name i32) (result i64)
  (local $v i64)
  (local.set $v (call $br_arg (local.get $d) (local.get $name)))
  (if (i64.eqz (local.get $v)) (then (return (i64.const 8))))
  (local.get $v))

;; Copies option `name` into the request when the plan gave it (absent ones get the host's
;; defaults).
(func $br_copy_option (param $d i64) (param $req i64) (param $name i32)
  (local $v i64)
  (local.set $v (call $br_arg (local.get $d) (local.get $name)))
  (if (i64.ne (local.get $v) (i64.const 0))
    (then (call $dict_set (local.get $req) (i64.extend_i32_u (local.get $name)) (local.get $v)))))

;; branch(fns, *, validate=None, reduce="first_valid", stop_early=True, max_parallel=None,
;;        budget=None, adopt=True, n=None, priors=None, labels=None)
(func $b_baton_branch (param $args i32) (param $kwargs i32) (result i64)
  (local $d i64) (local $reduce i64) (local $custom i64) (local $reply i64) (local $chosen i64)
  (local $base i32) (local $reduced i64)
  (local $outcomes i64)
  (local.set $d (call $sdk_bind (global.get $s_br_branch) (call $branch_names)
    (i32.const 1) (i32.const 1) (local.get $args) (local.get $kwargs)))
  (local.set $reduce (call $br_arg (local.get $d) (global.get $s_br_reduce)))
  (if (i32.or (i64.eqz (local.get $reduce)) (i64.eq (local.get $reduce) (i64.const 8)))
    (then (local.set $reduce (i64.extend_i32_u (global.get $s_br_first_valid)))))
  ;; A reducer function gets every outcome: the host reduces with "all".
  (if (call $br_is_callable (local.get $reduce))
    (then (local.set $custom (local.get $reduce))
          (local.set $reduce (i64.extend_i32_u (global.get $s_br_all)))))
  (if (i32.ne (call $tid (local.get $reduce)) (i32.const TYPE_STR))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg1 (global.get $s_br_reduce_type) (call $type_name (local.get $reduce))))))
  (local.set $reply (call $br_run (global.get $s_br_branch) (local.get $d) (local.get $reduce)))
  (local.set $outcomes (call $br_arg (local.get $reply) (global.get $s_br_outcomes)))
  ;; The reducer runs as plan code, which may collect (it is rooted: the arguments it came in
  ;; may have no other reference).
  (if (i64.ne (local.get $custom) (i64.const 0))
    (then
      (local.set $base (global.get $shadow_top))
      (call $root_push (local.get $custom))
      (local.set $reduced (call $call_plan (local.get $custom)
        (i32.wrap_i64 (call $tuple1 (local.get $outcomes))) (i32.const 0)))
      (global.set $shadow_top (local.get $base))
      (return (local.get $reduced))))
  (if (call $str_eq (local.get $reduce) (i64.extend_i32_u (global.get $s_br_all)))
    (then (return (local.get $outcomes))))
  (local.set $chosen (call $br_arg_or_none (local.get $reply) (global.get $s_br_chosen)))
  (if (i32.eqz (call $is_small (local.get $chosen)))
    (then (call $raise_msg (global.get $t_BranchError)
      (call $host_message (call $br_arg (local.get $reply) (global.get $s_host_message))))))
  (call $record_getattr
    (call $cx_item (local.get $outcomes) (i32.wrap_i64 (i64.shr_s (local.get $chosen) (i64.const 1))))
    (i64.extend_i32_u (global.get $s_br_value))))

;; parallel(fns, *, max_parallel=None, labels=None): the callables' return values, in order. The first
;; branch (by position) that raised has its exception raised here, as the same class when the
;; runtime knows it (else RuntimeError), its cause a BranchTraceback whose message is the
;; branch's traceback (as CPython's process pools attach the worker's, `_RemoteTraceback`): the
;; frames here end at the `parallel` call, the branch's show where it failed.
(func $b_baton_parallel (param $args i32) (param $kwargs i32) (result i64)
  (local $names i32) (local $d i64) (local $reply i64) (local $outcomes i64) (local $values i64)
  (local $i i32) (local $n i32) (local $fields i64) (local $err i64) (local $class i32)
  (local $tb i64) (local $sb i32)
  (local.set $names (call $tuple_new (i32.const 3)))
  (i64.store offset=8 (local.get $names) (i64.extend_i32_u (global.get $s_br_fns)))
  (i64.store offset=16 (local.get $names) (i64.extend_i32_u (global.get $s_br_max_parallel)))
  (i64.store offset=24 (local.get $names) (i64.extend_i32_u (global.get $s_br_labels)))
  (local.set $d (call $sdk_bind (global.get $s_br_parallel) (local.get $names)
    (i32.const 1) (i32.const 1) (local.get $args) (local.get $kwargs)))
  (call $dict_set (local.get $d) (i64.extend_i32_u (global.get $s_br_stop_early)) (i64.const 16))
  (call $dict_set (local.get $d) (i64.extend_i32_u (global.get $s_br_adopt)) (i64.const 16))
  (local.set $reply (call $br_run (global.get $s_br_parallel) (local.get $d)
    (i64.extend_i32_u (global.get $s_br_all))))
  (local.set $outcomes (call $br_arg (local.get $reply) (global.get $s_br_outcomes)))
  (local.set $n (i32.load offset=4 (i32.wrap_i64 (local.get $outcomes))))
  (local.set $values (call $list_new (local.get $n)))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
    (local.set $fields (i64.extend_i32_u (i32.load offset=12
      (i32.wrap_i64 (call $cx_item (local.get $outcomes) (local.get $i))))))
    (if (i64.ne (call $br_arg (local.get $fields) (global.get $s_br_ok)) (i64.const 24))
      (then
        (local.set $err (call $br_arg_or_none (local.get $fields) (global.get $s_br_error_type)))
        (local.set $class (global.get $t_RuntimeError))
        (if (i32.eq (call $tid (local.get $err)) (i32.const TYPE_STR))
          (then (local.set $class (call $exception_class_named (local.get $err)))
                (if (i32.eqz (local.get $class)) (then (local.set $class (global.get $t_RuntimeError))))))
        ;; The branch's own exception object when it could be copied out.
        (local.set $err (call $br_arg_or_none (local.get $fields) (global.get $s_br_exception)))
        (if (i32.ne (call $tid (local.get $err)) (i32.const TYPE_EXCEPTION))
          (then (local.set $err (call $exc_new (local.get $class) (call $tuple1
            (call $host_message (call $br_arg (local.get $fields) (global.get $s_br_error_message))))))))
        (local.set $tb (call $br_arg_or_none (local.get $fields) (global.get $s_br_traceback)))
        (if (i32.eq (call $tid (local.get $tb)) (i32.const TYPE_STR))
          (then
            (local.set $sb (call $sb_new))
            (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_br_remote_open)))
            (call $sb_push_str (local.get $sb) (local.get $tb))
            (call $sb_push_str (local.get $sb) (i64.extend_i32_u (global.get $s_br_remote_close)))
            (call $raise_from (local.get $err) (call $exc_new (global.get $t_BranchTraceback)
              (call $tuple1 (call $sb_finish (local.get $sb)))))))
        (call $raise (local.get $err))))
    (call $list_append (local.get $values) (call $br_arg (local.get $fields) (global.get $s_br_value)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (local.get $values))

;; ---- a branch's side -------------------------------------------------------------------------

;; The entry point of a branch instance: `len` is the length of the task the host holds as the
;; reply, `index` the callable to run. 0 on success (the result went to `baton.result`);
;; otherwise the address of the uncaught exception's report, as `baton_main`.
(func $baton_branch_main (export "baton_branch_main") (param $len i32) (param $index i32) (result i32)
  (local $e i64)
  (call $gc_stress_as_built)
  (local.set $e
    (block $caught (result i64)
      (try_table (catch $exc $caught)
        (call $br_body (local.get $len) (local.get $index))
        (return (i32.const 0)))
      (unreachable)))
  (call $br_report_raised (local.get $e))
  (call $report_uncaught (local.get $e)))

;; Hands the exception a branch raised to `baton.result` as `{"raised": ...}` (encoded), so the
;; parent can raise the same object (`parallel`). Best effort: an exception whose arguments
;; cannot be copied is reported by its traceback alone.
(func $br_report_raised (param $e i64)
  (local $out i64) (local $text i64)
  (block $failed (result i64)
    (try_table (catch $exc $failed)
      (local.set $out (call $dict_new))
      (call $codec_begin)
      (call $dict_set (local.get $out) (i64.extend_i32_u (global.get $s_br_raised)) (call $cx_enc (local.get $e)))
      (local.set $text (call $host_encode (local.get $out)))
      (call $host_result (call $host_ptr (local.get $text)) (call $host_len (local.get $text)))
      (return))
    (unreachable))
  (drop))

(func $br_body (param $len i32) (param $index i32)
  (local $buf i32) (local $task i64) (local $tasks i64) (local $validate i64) (local $value i64)
  (local $valid i64) (local $score i64) (local $s i64) (local $t i32) (local $x f64)
  (local $out i64) (local $text i64)
  (if (i32.lt_s (local.get $len) (i32.const 0)) (then (call $cx_bad)))
  (local.set $buf (call $alloc (i32.add (local.get $len) (i32.const 1))))
  (call $host_reply (local.get $buf))
  (local.set $task (call $codec_decode (call $str_new (local.get $buf) (local.get $len))))
  (if (i32.ne (call $tid (local.get $task)) (i32.const TYPE_TUPLE)) (then (call $cx_bad)))
  (if (i32.ne (i32.load offset=4 (i32.wrap_i64 (local.get $task))) (i32.const 3)) (then (call $cx_bad)))
  (call $plan_globals_load (i64.load offset=8 (i32.wrap_i64 (local.get $task))))
  (local.set $tasks (i64.load offset=16 (i32.wrap_i64 (local.get $task))))
  (if (i32.ne (call $tid (local.get $tasks)) (i32.const TYPE_LIST)) (then (call $cx_bad)))
  (local.set $validate (i64.load offset=24 (i32.wrap_i64 (local.get $task))))
  ;; The branch's function may collect: the task (globals, callables, validator) is rooted.
  (call $root_push (local.get $task))
  (local.set $value (call $call_plan (call $cx_item (local.get $tasks) (local.get $index))
    (global.get $empty_tuple) (i32.const 0)))
  (local.set $valid (i64.const 24))
  (local.set $score (i64.const 8))
  (if (i64.ne (local.get $validate) (i64.const 8))
    (then
      ;; The validator may collect too: the value, sent back after it, is rooted.
      (call $root_push (local.get $value))
      (local.set $s (call $call_plan (local.get $validate)
        (i32.wrap_i64 (call $tuple1 (local.get $value))) (i32.const 0)))
      (local.set $t (call $tid (local.get $s)))
      (if (i32.eq (local.get $t) (i32.const TYPE_BOOL))
        (then
          (local.set $valid (local.get $s))
          (local.set $score (call $float_new
            (select (f64.const 1) (f64.const 0) (i64.eq (local.get $s) (i64.const 24))))))
        (else
          (if (i32.or (call $is_small (local.get $s))
                (i32.or (i32.eq (local.get $t) (i32.const TYPE_INT)) (i32.eq (local.get $t) (i32.const TYPE_FLOAT))))
            (then
              (if (i32.eq (local.get $t) (i32.const TYPE_FLOAT))
                (then
                  (local.set $x (f64.load offset=8 (i32.wrap_i64 (local.get $s))))
                  (if (i32.eqz (f64.lt (f64.abs (local.get $x)) (f64.const inf)))
                    (then (call $raise_msg (global.get $t_ValueError)
                      (call $msg1 (global.get $s_br_score_finite) (call $to_repr (local.get $s))))))))
              (local.set $score (local.get $s)))
            (else (call $raise_msg (global.get $t_TypeError)
              (call $msg1 (global.get $s_br_score_type) (call $type_name (local.get $s))))))))))
  (local.set $out (call $dict_new))
  (call $codec_begin)
  (call $dict_set (local.get $out) (i64.extend_i32_u (global.get $s_br_value)) (call $cx_enc (local.get $value)))
  (call $dict_set (local.get $out) (i64.extend_i32_u (global.get $s_br_valid)) (local.get $valid))
  (call $dict_set (local.get $out) (i64.extend_i32_u (global.get $s_br_score)) (local.get $score))
  (local.set $text (call $host_encode (local.get $out)))
  (call $host_result (call $host_ptr (local.get $text)) (call $host_len (local.get $text))))
