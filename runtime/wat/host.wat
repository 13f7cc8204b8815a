;; ---- the SDK's side of the host calls ---------------------------------------------------------
;; Every host call but `print` crosses the boundary as JSON text (docs/abi.md, "Host calls"):
;; the runtime serialises a request with json.dumps, calls `baton.<call>(ptr, len)`, which
;; returns the length of the reply the host is holding, allocates that many bytes, has
;; `baton.reply(ptr)` copy the reply in, and decodes it with json.loads. A reply is
;; `{"ok": value}` or `{"error": {"type": name, "message": text}}`; an error is raised in the
;; plan as that exception class.

;; ---- records: the values host calls return (BashResult, ...) ----------------------------------
;; Type id 20: +4 len 1 when str() is also the repr (`_baton.record`), +8 i32 type object, +12
;; i32 fields (a dict: str -> value), +16 i64 what str() gives (0: the repr).

(func $record_new (param $type i32) (param $fields i64) (param $as_str i64) (result i64)
  (local $r i32)
  (local.set $r (call $alloc (i32.const 24)))
  (i32.store (local.get $r) (i32.const TYPE_RECORD))
  (i32.store offset=4 (local.get $r) (i32.const 0))
  (i32.store offset=8 (local.get $r) (local.get $type))
  (i32.store offset=12 (local.get $r) (i32.wrap_i64 (local.get $fields)))
  (i64.store offset=16 (local.get $r) (local.get $as_str))
  (i64.extend_i32_u (local.get $r)))

;; `record.name`: a field, or AttributeError as CPython words it for an object.
(func $record_getattr (param $obj i64) (param $name i64) (result i64)
  (local $v i64)
  (local.set $v (call $dict_get
    (i64.extend_i32_u (i32.load offset=12 (i32.wrap_i64 (local.get $obj)))) (local.get $name)))
  (if (i64.eqz (local.get $v))
    (then (call $raise_no_attribute (local.get $obj) (local.get $name))))
  (local.get $v))

;; str(record): the value chosen when it was made, else its repr.
(func $record_str (param $v i64) (result i64)
  (local $s i64)
  (local.set $s (i64.load offset=16 (i32.wrap_i64 (local.get $v))))
  (if (i64.eqz (local.get $s)) (then (return (call $record_repr (local.get $v)))))
  (local.get $s))

;; `BashResult(returncode=0, stdout='hi\n', ...)`: the fields in the order the host sent them.
;; A record made with `_baton.record` (len 1) is its text, as `<re.Match object; ...>` is.
(func $record_repr (param $v i64) (result i64)
  (local $sb i32) (local $d i32) (local $e i32) (local $stop i32) (local $first i32)
  (if (i32.eq (i32.load offset=4 (i32.wrap_i64 (local.get $v))) (i32.const 1))
    (then (return (i64.load offset=16 (i32.wrap_i64 (local.get $v))))))
  (call $native_enter)
  (local.set $sb (call $sb_new))
  (call $sb_push_str (local.get $sb)
    (i64.extend_i32_u (i32.load offset=8 (i32.load offset=8 (i32.wrap_i64 (local.get $v))))))
  (call $sb_push_byte (local.get $sb) (i32.const 40))
  (local.set $d (i32.load offset=12 (i32.wrap_i64 (local.get $v))))
  (local.set $e (i32.load offset=8 (local.get $d)))
  (local.set $stop (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $d)) (i32.const 24))))
  (local.set $first (i32.const 1))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $e) (local.get $stop)))
    (if (i64.ne (i64.load offset=8 (local.get $e)) (i64.const 0))
      (then
        (if (i32.eqz (local.get $first))
          (then (call $sb_push_byte (local.get $sb) (i32.const 44))
                (call $sb_push_byte (local.get $sb) (i32.const 32))))
        (local.set $first (i32.const 0))
        (call $sb_push_str (local.get $sb) (i64.load offset=8 (local.get $e)))
        (call $sb_push_byte (local.get $sb) (i32.const 61))
        (call $sb_push_str (local.get $sb) (call $to_repr (i64.load offset=16 (local.get $e))))))
    (local.set $e (i32.add (local.get $e) (i32.const 24)))
    (br $each)))
  (call $sb_push_byte (local.get $sb) (i32.const 41))
  (call $native_leave)
  (call $sb_finish (local.get $sb)))

;; ---- arguments -------------------------------------------------------------------------------

;; Binds an SDK function's arguments by name, as CPython binds a function's: the first `npos`
;; names may be given by position, the first `nreq` are required, the rest are keyword-only.
;; Returns a dict of the arguments given (absent optional ones are left to the host's defaults).
(func $sdk_bind (param $fname i32) (param $names i32) (param $npos i32) (param $nreq i32)
                (param $args i32) (param $kwargs i32) (result i64)
  (local $d i64) (local $n i32) (local $i i32) (local $count i32) (local $e i32) (local $stop i32)
  (local $k i64) (local $known i32)
  (local.set $d (call $dict_new))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (local.set $count (i32.load offset=4 (local.get $names)))
  (if (i32.gt_u (local.get $n) (local.get $npos))
    (then (call $raise_msg (global.get $t_TypeError)
      (call $msg2 (global.get $s_host_too_many_args)
        (i64.extend_i32_u (local.get $fname))
        (call $to_str (call $int_new (i64.extend_i32_u (local.get $n))))))))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
    (call $dict_set (local.get $d)
      (i64.load offset=8 (i32.add (local.get $names) (i32.shl (local.get $i) (i32.const 3))))
      (i64.load offset=8 (i32.add (local.get $args) (i32.shl (local.get $i) (i32.const 3)))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (if (local.get $kwargs)
    (then
      (local.set $e (i32.load offset=8 (local.get $kwargs)))
      (local.set $stop (i32.add (local.get $e) (i32.mul (i32.load offset=12 (local.get $kwargs)) (i32.const 24))))
      (block $done (loop $each
        (br_if $done (i32.ge_u (local.get $e) (local.get $stop)))
        (local.set $k (i64.load offset=8 (local.get $e)))
        (if (i64.ne (local.get $k) (i64.const 0))
          (then
            (local.set $known (i32.const 0))
            (local.set $i (i32.const 0))
            (block $found (loop $name
              (br_if $found (i32.ge_u (local.get $i) (local.get $count)))
              (if (call $str_eq (local.get $k)
                    (i64.load offset=8 (i32.add (local.get $names) (i32.shl (local.get $i) (i32.const 3)))))
                (then (local.set $known (i32.const 1)) (br $found)))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $name)))
            (if (i32.eqz (local.get $known))
              (then (call $raise_msg (global.get $t_TypeError)
                (call $msg2 (global.get $s_builtin_unexpected_keyword)
                  (i64.extend_i32_u (local.get $fname)) (local.get $k)))))
            (if (i32.lt_u (local.get $i) (local.get $n))
              (then (call $raise_msg (global.get $t_TypeError)
                (call $msg2 (global.get $s_host_multiple_values)
                  (i64.extend_i32_u (local.get $fname)) (local.get $k)))))
            (call $dict_set (local.get $d) (local.get $k) (i64.load offset=16 (local.get $e)))))
        (local.set $e (i32.add (local.get $e) (i32.const 24)))
        (br $each)))))
  (local.set $i (i32.const 0))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $nreq)))
    (local.set $k (i64.load offset=8 (i32.add (local.get $names) (i32.shl (local.get $i) (i32.const 3)))))
    (if (i64.eqz (call $dict_get (local.get $d) (local.get $k)))
      (then (call $raise_msg (global.get $t_TypeError)
        (call $msg2 (global.get $s_host_missing_arg) (i64.extend_i32_u (local.get $fname)) (local.get $k)))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (local.get $d))

;; A tuple of static strs (parameter names).
(func $host_names3 (param $a i32) (param $b i32) (param $c i32) (result i32)
  (local $t i32)
  (local.set $t (call $tuple_new (i32.const 3)))
  (i64.store offset=8 (local.get $t) (i64.extend_i32_u (local.get $a)))
  (i64.store offset=16 (local.get $t) (i64.extend_i32_u (local.get $b)))
  (i64.store offset=24 (local.get $t) (i64.extend_i32_u (local.get $c)))
  (local.get $t))

;; ---- the request/reply protocol --------------------------------------------------------------

;; Adds "line": the current line of the innermost frame, so the journal, divergence errors and
;; the run report can name where a call came from; and, when that frame is a plan library
;; module's rather than the plan's, "file": the module's number (a frame's line carries it in
;; its top 8 bits), so a library line is never taken for a plan line.
(func $host_with_line (param $d i64) (result i64)
  (local $line i32)
  (if (global.get $depth)
    (then
      (local.set $line
        (i32.load offset=4 (i32.add (global.get $frames) (i32.shl (global.get $depth) (i32.const 3)))))
      (call $dict_set (local.get $d) (i64.extend_i32_u (global.get $s_host_line))
        (call $int_new (i64.extend_i32_u (i32.and (local.get $line) (i32.const 0xffffff)))))
      (if (i32.shr_u (local.get $line) (i32.const 24))
        (then (call $dict_set (local.get $d) (i64.extend_i32_u (global.get $s_host_file))
          (call $int_new (i64.extend_i32_u (i32.shr_u (local.get $line) (i32.const 24)))))))))
  (local.get $d))

;; json.dumps(v) as a str value, for the host: a str holding a lone surrogate raises
;; UnicodeEncodeError (the host reads requests as UTF-8 JSON, which cannot carry one).
(func $host_encode (param $v i64) (result i64)
  (call $json_dumps (i32.wrap_i64 (call $tuple1 (local.get $v))) (i32.const 0) (i32.const 32)))

;; Fetches the reply the host holds (`len` bytes), decodes it and returns its "ok" value or
;; raises its "error".
(func $host_take_reply (param $len i32) (result i64)
  (local $buf i32) (local $reply i64) (local $v i64) (local $err i64)
  (if (i32.lt_s (local.get $len) (i32.const 0))
    (then (call $raise_static (global.get $t_RuntimeError) (global.get $s_host_bad_reply))))
  (local.set $buf (call $alloc (i32.add (local.get $len) (i32.const 1))))
  (call $host_reply (local.get $buf))
  (local.set $reply (call $b_json_loads
    (i32.wrap_i64 (call $tuple1 (call $str_new (local.get $buf) (local.get $len))))
    (i32.const 0)))
  (if (i32.ne (call $tid (local.get $reply)) (i32.const TYPE_DICT))
    (then (call $raise_static (global.get $t_RuntimeError) (global.get $s_host_bad_reply))))
  (local.set $v (call $dict_get (local.get $reply) (i64.extend_i32_u (global.get $s_host_ok))))
  (if (i64.ne (local.get $v) (i64.const 0)) (then (return (local.get $v))))
  (local.set $err (call $dict_get (local.get $reply) (i64.extend_i32_u (global.get $s_host_error))))
  (if (i32.ne (call $tid (local.get $err)) (i32.const TYPE_DICT))
    (then (call $raise_static (global.get $t_RuntimeError) (global.get $s_host_bad_reply))))
  (call $raise_msg
    (call $host_error_type (call $dict_get (local.get $err) (i64.extend_i32_u (global.get $s_host_type))))
    (call $host_message (call $dict_get (local.get $err) (i64.extend_i32_u (global.get $s_host_message)))))
  (unreachable))

(func $host_message (param $m i64) (result i64)
  (if (i32.eq (call $tid (local.get $m)) (i32.const TYPE_STR)) (then (return (local.get $m))))
  (i64.extend_i32_u (global.get $s_host_no_message)))

;; $host_error_type (the class a host error names, RuntimeError for a name the runtime does not
;; know) is generated from baton_abi::HostException by the assembler (runtime/src/lib.rs).

;; The address and length of a str's bytes, for a host call.
(func $host_ptr (param $s i64) (result i32)
  (i32.add (i32.wrap_i64 (local.get $s)) (i32.const 16)))
(func $host_len (param $s i64) (result i32)
  (i32.load offset=4 (i32.wrap_i64 (local.get $s))))

;; ---- the SDK ---------------------------------------------------------------------------------

;; bash(command, *, timeout=60, input=None) -> BashResult
(func $b_baton_bash (param $args i32) (param $kwargs i32) (result i64)
  (local $req i64) (local $r i64)
  (local.set $req (call $host_encode (call $host_with_line (call $sdk_bind (global.get $s_host_bash)
    (call $host_names3 (global.get $s_host_command) (global.get $s_host_timeout) (global.get $s_host_input))
    (i32.const 1) (i32.const 1) (local.get $args) (local.get $kwargs)))))
  (local.set $r (call $host_take_reply
    (call $host_bash (call $host_ptr (local.get $req)) (call $host_len (local.get $req)))))
  (if (i32.ne (call $tid (local.get $r)) (i32.const TYPE_DICT))
    (then (call $raise_static (global.get $t_RuntimeError) (global.get $s_host_bad_reply))))
  (call $record_new (global.get $t_BashResult) (local.get $r)
    (call $dict_get (local.get $r) (i64.extend_i32_u (global.get $s_host_output)))))

;; llm(prompt, *, model=None, system=None, temperature=None, max_tokens=None, stop=None) -> str
(func $b_baton_llm (param $args i32) (param $kwargs i32) (result i64)
  (local $names i32) (local $req i64)
  (local.set $names (call $tuple_new (i32.const 6)))
  (i64.store offset=8 (local.get $names) (i64.extend_i32_u (global.get $s_host_prompt)))
  (i64.store offset=16 (local.get $names) (i64.extend_i32_u (global.get $s_host_model)))
  (i64.store offset=24 (local.get $names) (i64.extend_i32_u (global.get $s_host_system)))
  (i64.store offset=32 (local.get $names) (i64.extend_i32_u (global.get $s_host_temperature)))
  (i64.store offset=40 (local.get $names) (i64.extend_i32_u (global.get $s_host_max_tokens)))
  (i64.store offset=48 (local.get $names) (i64.extend_i32_u (global.get $s_host_stop)))
  (local.set $req (call $host_encode (call $host_with_line (call $sdk_bind (global.get $s_host_llm) (local.get $names)
    (i32.const 1) (i32.const 1) (local.get $args) (local.get $kwargs)))))
  (call $host_take_reply
    (call $host_llm (call $host_ptr (local.get $req)) (call $host_len (local.get $req)))))

;; log(*values): one line, the values' str() joined by spaces, to the run's log.
(func $b_baton_log (param $args i32) (param $kwargs i32) (result i64)
  (local $sb i32) (local $i i32) (local $n i32) (local $line i64)
  (if (local.get $kwargs)
    (then (if (i32.load offset=4 (local.get $kwargs))
      (then (call $raise_static (global.get $t_TypeError) (global.get $s_host_log_kwargs))))))
  (local.set $n (i32.load offset=4 (local.get $args)))
  (local.set $sb (call $sb_new))
  (block $done (loop $each
    (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
    (if (local.get $i) (then (call $sb_push_byte (local.get $sb) (i32.const 32))))
    (call $sb_push_str (local.get $sb)
      (call $to_str (i64.load offset=8 (i32.add (local.get $args) (i32.shl (local.get $i) (i32.const 3))))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $each)))
  (local.set $line (call $sb_finish (local.get $sb)))
  (call $str_check_encodable (local.get $line))
  (call $host_log (call $host_ptr (local.get $line)) (call $host_len (local.get $line)))
  (i64.const 8))

;; `inputs`: the run's inputs, a dict (fetched once per module).
(global $sdk_inputs_cache (mut i64) (i64.const 0))
(func $sdk_inputs (result i64)
  (local $v i64)
  (if (i64.ne (global.get $sdk_inputs_cache) (i64.const 0))
    (then (return (global.get $sdk_inputs_cache))))
  (local.set $v (call $host_take_reply (call $host_inputs)))
  (if (i32.ne (call $tid (local.get $v)) (i32.const TYPE_DICT))
    (then (call $raise_static (global.get $t_RuntimeError) (global.get $s_host_bad_reply))))
  (global.set $sdk_inputs_cache (local.get $v))
  (local.get $v))

;; After the module body: when the plan defines `main`, calls `main(**inputs)` and hands its
;; return value to the host as the run's result (JSON; TypeError when it is not serialisable).
(func $sdk_run_main (param $main i64)
  (local $result i64) (local $text i64)
  (if (i32.ne (call $tid (local.get $main)) (i32.const TYPE_FUNCTION)) (then (return)))
  ;; Nothing here is needed after the call but its result: main may collect.
  (local.set $result (call $call_plan (local.get $main) (global.get $empty_tuple)
    (i32.wrap_i64 (call $dict_copy (call $sdk_inputs)))))
  (local.set $text (call $host_encode (local.get $result)))
  (call $host_result (call $host_ptr (local.get $text)) (call $host_len (local.get $text))))
