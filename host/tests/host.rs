//! Hand-written modules against the host: validation, printing, tracebacks, limits, hostile
//! pointers, exceptions. No test asserts on time.

use std::time::Duration;

use baton_host::{
    run_module, validate_module, EntityKind, HostError, LimitKind, Limits, ModuleError, RunOutcome,
};

fn wasm(text: &str) -> Vec<u8> {
    wat::parse_str(text).unwrap_or_else(|error| panic!("bad test WAT: {error}"))
}

fn run(text: &str, limits: &Limits) -> (Result<RunOutcome, HostError>, String) {
    let mut out = Vec::new();
    let result = run_module(&wasm(text), limits, &mut out);
    (result, String::from_utf8(out).expect("output is UTF-8"))
}

fn run_default(text: &str) -> (Result<RunOutcome, HostError>, String) {
    run(text, &Limits::default())
}

fn small(fuel: u64) -> Limits {
    Limits {
        fuel,
        ..Limits::default()
    }
}

const HELLO: &str = r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "hello\n")
  (func (export "baton_main") (result i32)
    (call $print (i32.const 64) (i32.const 6))
    (i32.const 0)))
"#;

#[test]
fn prints_hello() {
    let (result, out) = run_default(HELLO);
    assert_eq!(result.unwrap(), RunOutcome::Success);
    assert_eq!(out, "hello\n");
}

#[test]
fn prints_large_output_in_order() {
    // 200 KiB in one call, then a second call: crosses the output chunk size.
    let (result, out) = run_default(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 4)
  (func (export "baton_main") (result i32)
    (memory.fill (i32.const 0) (i32.const 97) (i32.const 204800))
    (i32.store8 (i32.const 204800) (i32.const 10))
    (call $print (i32.const 0) (i32.const 204801))
    (call $print (i32.const 204800) (i32.const 1))
    (i32.const 0)))
"#,
    );
    assert_eq!(result.unwrap(), RunOutcome::Success);
    assert_eq!(out.len(), 204802);
    assert!(out.starts_with("aaa"));
    assert!(out.ends_with("a\n\n"));
}

#[test]
fn returns_traceback() {
    let (result, out) = run_default(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  ;; str object at 256: type 5, byte length 38, code points 38, hash 0, then the bytes.
  (data (i32.const 256) "\05\00\00\00\26\00\00\00\26\00\00\00\00\00\00\00")
  (data (i32.const 272) "Traceback:\n  line 1\nValueError: bad 1\n")
  (func (export "baton_main") (result i32)
    (i32.const 256)))
"#,
    );
    assert_eq!(out, "");
    assert_eq!(
        result.unwrap(),
        RunOutcome::exception("Traceback:\n  line 1\nValueError: bad 1\n".to_string())
    );
}

fn refused(text: &str) -> ModuleError {
    let bytes = wasm(text);
    let error = validate_module(&bytes).expect_err("module must be refused");
    // run_module refuses it too, before instantiating.
    let mut out = Vec::new();
    match run_module(&bytes, &Limits::default(), &mut out) {
        Err(HostError::Module(again)) => assert_eq!(again, error),
        other => panic!("run_module did not refuse: {other:?}"),
    }
    error
}

#[test]
fn refuses_foreign_import() {
    let error = refused(
        r#"
(module
  (import "env" "foo" (func (param i32)))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    assert!(
        matches!(error, ModuleError::ForeignImport { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains("`env.foo`"), "{message}");
}

#[test]
fn refuses_wasi() {
    let error = refused(
        r#"
(module
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    assert!(error
        .to_string()
        .contains("wasi_snapshot_preview1.fd_write"));
}

#[test]
fn refuses_unknown_baton_import() {
    let error = refused(
        r#"
(module
  (import "baton" "exec" (func (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    assert!(
        matches!(error, ModuleError::UnknownImport { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("`baton.exec`"), "{error}");
}

#[test]
fn refuses_print_with_wrong_signature() {
    let error = refused(
        r#"
(module
  (import "baton" "print" (func (param i64 i32)))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    let message = error.to_string();
    assert!(
        matches!(error, ModuleError::WrongImportSignature { .. }),
        "{error:?}"
    );
    assert!(message.contains("`baton.print`"), "{message}");
    assert!(message.contains("(param i64 i32)"), "{message}");
    assert!(message.contains("(param i32 i32)"), "{message}");

    let error = refused(
        r#"
(module
  (import "baton" "print" (func (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    assert!(matches!(error, ModuleError::WrongImportSignature { .. }));
}

#[test]
fn refuses_imported_memory_table_global_tag() {
    for (import, kind) in [
        (
            r#"(import "baton" "memory" (memory 1))"#,
            EntityKind::Memory,
        ),
        (r#"(import "env" "memory" (memory 1))"#, EntityKind::Memory),
        (
            r#"(import "baton" "table" (table 1 funcref))"#,
            EntityKind::Table,
        ),
        (r#"(import "baton" "g" (global i32))"#, EntityKind::Global),
        (
            r#"(import "baton" "print" (tag (param i32 i32)))"#,
            EntityKind::Tag,
        ),
    ] {
        let text = format!(
            r#"(module {import}
                 (memory (export "memory") 1)
                 (func (export "baton_main") (result i32) (i32.const 0)))"#
        );
        // An imported memory makes the defined one the second: allow multi-memory modules to
        // reach the import check.
        let error = refused(&text);
        match &error {
            ModuleError::NonFunctionImport { kind: found, .. } => assert_eq!(*found, kind),
            other => panic!("{import}: {other:?}"),
        }
        assert!(error.to_string().contains("refused"));
    }
}

#[test]
fn requires_baton_main_and_memory() {
    let error = refused(
        r#"
(module
  (memory (export "memory") 1)
  (func (export "main") (result i32) (i32.const 0)))
"#,
    );
    assert!(
        matches!(
            error,
            ModuleError::MissingExport {
                name: "baton_main",
                ..
            }
        ),
        "{error:?}"
    );

    let error = refused(
        r#"
(module
  (memory (export "memory") 1)
  (func (export "baton_main") (result i64) (i64.const 0)))
"#,
    );
    assert!(
        matches!(
            error,
            ModuleError::WrongExport {
                name: "baton_main",
                ..
            }
        ),
        "{error:?}"
    );

    let error = refused(
        r#"
(module
  (memory (export "mem") 1)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    assert!(
        matches!(error, ModuleError::MissingExport { name: "memory", .. }),
        "{error:?}"
    );
}

#[test]
fn refuses_garbage_and_legacy_exceptions() {
    for bytes in [
        &b""[..],
        &b"\0asm"[..],
        &b"not wasm at all"[..],
        &b"\0asm\x01\0\0\0\x01\xff\xff\xff\xff\x0f"[..],
    ] {
        let error = validate_module(bytes).unwrap_err();
        assert!(matches!(error, ModuleError::Invalid { .. }), "{error:?}");
    }
    // The legacy try/catch form is not accepted.
    let legacy = wat::parse_str(
        r#"
(module
  (tag $e (param i32))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (try (result i32) (do (i32.const 0)) (catch $e))))
"#,
    );
    if let Ok(bytes) = legacy {
        assert!(matches!(
            validate_module(&bytes),
            Err(ModuleError::Invalid { .. })
        ));
    }
}

#[test]
fn describes_module() {
    let info = validate_module(&wasm(HELLO)).unwrap();
    assert_eq!(info.imports.len(), 1);
    assert_eq!(info.imports[0].module, "baton");
    assert_eq!(info.imports[0].name, "print");
    assert_eq!(info.imports[0].kind, EntityKind::Func);
    assert_eq!(info.imports[0].ty, "(param i32 i32)");
    let exports: Vec<_> = info
        .exports
        .iter()
        .map(|e| (e.name.as_str(), e.kind))
        .collect();
    assert_eq!(
        exports,
        [
            ("memory", EntityKind::Memory),
            ("baton_main", EntityKind::Func)
        ]
    );
    assert_eq!(info.exports[1].ty, "(result i32)");
    let names: Vec<_> = info.sections.iter().map(|s| s.name.as_str()).collect();
    for name in [
        "type", "import", "function", "memory", "export", "code", "data",
    ] {
        assert!(names.contains(&name), "{names:?}");
    }
    assert_eq!(info.defined_functions, 1);
    assert_eq!(info.size, wasm(HELLO).len());
}

const LOOP_FOREVER: &str = r#"
(module
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (loop $l (br $l))
    (i32.const 0)))
"#;

#[test]
fn cpu_limit() {
    let (result, _) = run(LOOP_FOREVER, &small(1_000_000));
    match result {
        Err(HostError::Limit {
            limit: LimitKind::Cpu,
            message,
        }) => assert!(message.contains("1000000"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn wall_clock_limit() {
    let limits = Limits {
        fuel: u64::MAX,
        timeout: Duration::from_millis(200),
        ..Limits::default()
    };
    let (result, _) = run(LOOP_FOREVER, &limits);
    match result {
        Err(error @ HostError::Limit { .. }) => {
            assert_eq!(error.limit(), Some(LimitKind::WallClock), "{error}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn memory_grow_beyond_cap_returns_minus_one() {
    // Cap 2 MiB = 32 pages; start with 1; growing by 16 works, by 100 more fails with -1 and
    // the module reports it by printing and returning a status.
    let limits = Limits {
        memory_bytes: 2 << 20,
        ..Limits::default()
    };
    let (result, out) = run(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "grew\n")
  (data (i32.const 80) "MemoryError\n")
  (func (export "baton_main") (result i32)
    (if (i32.ne (memory.grow (i32.const 16)) (i32.const 1)) (then (unreachable)))
    (call $print (i32.const 64) (i32.const 5))
    (if (i32.eq (memory.grow (i32.const 100)) (i32.const -1))
      (then (call $print (i32.const 80) (i32.const 12))))
    (i32.const 0)))
"#,
        &limits,
    );
    assert_eq!(result.unwrap(), RunOutcome::Success);
    assert_eq!(out, "grew\nMemoryError\n");
}

#[test]
fn initial_memory_beyond_cap_is_memory_limit() {
    let limits = Limits {
        memory_bytes: 1 << 20,
        ..Limits::default()
    };
    let (result, _) = run(
        r#"
(module
  (memory (export "memory") 100)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
        &limits,
    );
    match result {
        Err(error) => assert_eq!(error.limit(), Some(LimitKind::Memory), "{error}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn trap_after_refused_grow_is_memory_limit() {
    let limits = Limits {
        memory_bytes: 1 << 20,
        ..Limits::default()
    };
    let (result, _) = run(
        r#"
(module
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (drop (memory.grow (i32.const 1000)))
    (i32.store (i32.const 100000) (i32.const 1))
    (i32.const 0)))
"#,
        &limits,
    );
    match result {
        Err(error) => assert_eq!(error.limit(), Some(LimitKind::Memory), "{error}"),
        other => panic!("{other:?}"),
    }
}

fn print_with(ptr: &str, len: &str) -> String {
    format!(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (call $print (i32.const {ptr}) (i32.const {len}))
    (i32.const 0)))
"#
    )
}

fn expect_trap(result: Result<RunOutcome, HostError>, needle: &str) {
    match result {
        Err(HostError::Trap { message, .. }) => {
            assert!(message.contains(needle), "{message:?} lacks {needle:?}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn print_refuses_hostile_pointers() {
    // Past the end of memory (64 KiB).
    expect_trap(
        run_default(&print_with("65530", "10")).0,
        "outside the memory",
    );
    expect_trap(
        run_default(&print_with("65537", "0")).0,
        "outside the memory",
    );
    // ptr + len overflows u32.
    expect_trap(run_default(&print_with("-16", "32")).0, "overflows");
    expect_trap(run_default(&print_with("2", "-1")).0, "overflows");
    expect_trap(run_default(&print_with("1", "-1")).0, "outside the memory");
    expect_trap(run_default(&print_with("0", "-1")).0, "outside the memory");
    // Empty print at the very end is fine.
    assert_eq!(
        run_default(&print_with("65536", "0")).0.unwrap(),
        RunOutcome::Success
    );
}

#[test]
fn print_refuses_invalid_utf8() {
    let (result, out) = run_default(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "ok\n")
  (data (i32.const 80) "a\ff\fe")
  (func (export "baton_main") (result i32)
    (call $print (i32.const 64) (i32.const 3))
    (call $print (i32.const 80) (i32.const 3))
    (i32.const 0)))
"#,
    );
    expect_trap(result, "not UTF-8");
    assert_eq!(out, "ok\n");
}

fn traceback_at(address: &str, data: &str) -> String {
    format!(
        r#"
(module
  (memory (export "memory") 1)
  {data}
  (func (export "baton_main") (result i32) (i32.const {address})))
"#
    )
}

#[test]
fn hostile_traceback_pointers_are_clean_errors() {
    let cases = [
        // Outside memory, negative, misaligned.
        traceback_at("70000", ""),
        traceback_at("-8", ""),
        traceback_at("65532", ""),
        traceback_at("3", ""),
        // Not a str (type id 7).
        traceback_at(
            "256",
            r#"(data (i32.const 256) "\07\00\00\00\01\00\00\00")"#,
        ),
        // A str claiming more bytes than memory holds.
        traceback_at(
            "256",
            r#"(data (i32.const 256) "\05\00\00\00\ff\ff\ff\ff")"#,
        ),
        // A str whose header is cut off by the end of memory.
        traceback_at(
            "65528",
            r#"(data (i32.const 65528) "\05\00\00\00\01\00\00\00")"#,
        ),
        // A str that is not UTF-8.
        traceback_at(
            "256",
            r#"(data (i32.const 256) "\05\00\00\00\02\00\00\00\02\00\00\00\00\00\00\00\c3\28")"#,
        ),
    ];
    for text in cases {
        match run_default(&text).0 {
            Err(HostError::BadTraceback { message }) => assert!(!message.is_empty()),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn infinite_recursion_is_stack_limit() {
    let (result, _) = run_default(
        r#"
(module
  (memory (export "memory") 1)
  (func $f (param i64) (result i64)
    (i64.add (call $f (i64.add (local.get 0) (i64.const 1))) (i64.const 1)))
  (func (export "baton_main") (result i32)
    (drop (call $f (i64.const 0)))
    (i32.const 0)))
"#,
    );
    match result {
        Err(error) => assert_eq!(error.limit(), Some(LimitKind::Stack), "{error}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn deep_but_bounded_recursion_fits() {
    // 10,000 frames with a few locals each: well within a 32 MiB wasm stack.
    let (result, _) = run_default(
        r#"
(module
  (memory (export "memory") 1)
  (func $f (param i64) (result i64)
    (local i64 i64 i64 i64)
    (if (result i64) (i64.eqz (local.get 0))
      (then (i64.const 0))
      (else (i64.add (call $f (i64.sub (local.get 0) (i64.const 1))) (i64.const 1)))))
  (func (export "baton_main") (result i32)
    (if (i64.ne (call $f (i64.const 10000)) (i64.const 10000)) (then (unreachable)))
    (i32.const 0)))
"#,
    );
    assert_eq!(result.unwrap(), RunOutcome::Success);
}

#[test]
fn uncaught_wasm_exception_is_clean_error() {
    let (result, _) = run_default(
        r#"
(module
  (tag $exc (param i64))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (throw $exc (i64.const 42))))
"#,
    );
    expect_trap(result, "uncaught wasm exception");
}

#[test]
fn exceptions_try_table_and_throw_ref_work() {
    // Caught by try_table (catch $exc), then a catch_all_ref + throw_ref re-throw caught
    // outside, as the runtime compiles try/except and finally.
    let (result, out) = run_default(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (tag $exc (param i64))
  (memory (export "memory") 1)
  (data (i32.const 64) "caught\n")
  (data (i32.const 80) "finally\n")
  (func $raise (param i64) (throw $exc (local.get 0)))
  (func (export "baton_main") (result i32)
    (local $v i64)
    (block $h (result i64)
      (try_table (catch $exc $h)
        (call $raise (i64.const 7)))
      (unreachable))
    (local.set $v)
    (if (i64.ne (local.get $v) (i64.const 7)) (then (unreachable)))
    (call $print (i32.const 64) (i32.const 7))
    (block $outer (result i64)
      (try_table (catch $exc $outer)
        (block $fin (result exnref)
          (try_table (catch_all_ref $fin)
            (call $raise (i64.const 9)))
          (unreachable))
        (call $print (i32.const 80) (i32.const 8))
        (throw_ref))
      (unreachable))
    (i64.const 9)
    (i64.ne)
    (if (then (unreachable)))
    (i32.const 0)))
"#,
    );
    assert_eq!(result.unwrap(), RunOutcome::Success);
    assert_eq!(out, "caught\nfinally\n");
}

#[test]
fn many_caught_exceptions_do_not_exhaust_memory() {
    // 300,000 raise/catch cycles under a small memory cap: thrown exceptions are GC
    // objects and must be collected.
    let limits = Limits {
        memory_bytes: 4 << 20,
        ..Limits::default()
    };
    let (result, _) = run(
        r#"
(module
  (tag $exc (param i64))
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (local $i i32)
    (loop $l
      (block $h (result i64)
        (try_table (catch $exc $h)
          (throw $exc (i64.extend_i32_u (local.get $i))))
        (unreachable))
      (drop)
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 300000))))
    (i32.const 0)))
"#,
        &limits,
    );
    assert_eq!(result.unwrap(), RunOutcome::Success);
}

#[test]
fn other_traps_are_trap_errors() {
    let (result, _) = run_default(
        r#"
(module
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (i32.load (i32.const 70000))))
"#,
    );
    expect_trap(result, "out of bounds memory access");

    let (result, _) = run_default(
        r#"
(module
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32) (unreachable)))
"#,
    );
    expect_trap(result, "unreachable");
}

#[test]
fn write_errors_end_the_run() {
    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "closed",
            ))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // Prints forever; the failed write must stop it (fuel is the backstop).
    let text = r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "x\n")
  (func (export "baton_main") (result i32)
    (loop $l (call $print (i32.const 64) (i32.const 2)) (br $l))
    (i32.const 0)))
"#;
    let result = run_module(&wasm(text), &small(100_000_000), &mut Broken);
    assert!(matches!(result, Err(HostError::Output(_))), "{result:?}");
}

#[test]
fn start_function_runs_under_limits() {
    let text = r#"
(module
  (memory (export "memory") 1)
  (func $start (loop $l (br $l)))
  (start $start)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#;
    let (result, _) = run(text, &small(1_000_000));
    match result {
        Err(error) => assert_eq!(error.limit(), Some(LimitKind::Cpu), "{error}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn refuses_several_memories() {
    let error = refused(
        r#"
(module
  (memory (export "memory") 1)
  (memory 1)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    assert!(
        matches!(
            error,
            ModuleError::MemoryCount {
                count: 2,
                expected: 1
            }
        ),
        "{error:?}"
    );
}

#[test]
fn huge_initial_table_is_refused_not_a_crash() {
    // Every slot of the engine's instance pool holds tables of at most MAX_TABLE_ELEMENTS
    // entries: a module asking for more is refused before it is compiled.
    let error = refused(
        r#"
(module
  (memory (export "memory") 1)
  (table 10000000 funcref)
  (func (export "baton_main") (result i32) (i32.const 0)))
"#,
    );
    assert!(
        matches!(
            error,
            ModuleError::TableTooLarge {
                index: 0,
                initial: 10_000_000
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("at most 100000"), "{error}");
}

#[test]
fn validation_never_panics_on_mutated_modules() {
    let original = wasm(HELLO);
    for at in 0..original.len() {
        for value in [0x00u8, 0x01, 0x7f, 0x80, 0xff] {
            let mut bytes = original.clone();
            bytes[at] = value;
            let _ = validate_module(&bytes);
        }
        let _ = validate_module(&original[..at]);
    }
}

/// A module shell: `body` is the code of `baton_main`, `locals` its extra locals.
fn main_with(locals: &str, body: &str) -> String {
    format!(
        "(module (memory (export \"memory\") 1) \
         (func (export \"baton_main\") (result i32) {locals} {body} (i32.const 0)))"
    )
}

/// Red-team finding: SIMD ran although the validator was said to refuse it (cargo feature
/// unification had turned wasmparser's SIMD on). Every feature outside the stated set is
/// refused by the validator, whatever the dependencies enable.
#[test]
fn features_outside_the_stated_set_are_refused() {
    let cases = [
        ("simd", main_with("", "(drop (v128.const i64x2 0 0))")),
        (
            "relaxed simd",
            main_with(
                "",
                "(drop (f32x4.relaxed_madd (v128.const i64x2 0 0) (v128.const i64x2 0 0) (v128.const i64x2 0 0)))",
            ),
        ),
        (
            "threads",
            "(module (memory (export \"memory\") 1 1 shared) (func (export \"baton_main\") (result i32) (i32.const 0)))".to_string(),
        ),
        (
            "memory64",
            "(module (memory (export \"memory\") i64 1) (func (export \"baton_main\") (result i32) (i32.const 0)))".to_string(),
        ),
        (
            "wide arithmetic",
            main_with(
                "",
                "(drop (drop (i64.add128 (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0))))",
            ),
        ),
    ];
    for (name, text) in cases {
        let bytes = match wat::parse_str(&text) {
            Ok(bytes) => bytes,
            Err(error) => panic!("{name}: {error}"),
        };
        assert!(
            matches!(validate_module(&bytes), Err(ModuleError::Invalid { .. })),
            "{name} must be refused"
        );
    }
}

/// Red-team finding: a module of 6,000 nested blocks with 3,000 locals compiled for 79 s under
/// `--timeout 10`, one of 20,000 nested `br_if` blocks took 1.65 GB to compile. Function bodies
/// are bounded before anything is compiled.
#[test]
fn oversized_function_bodies_are_refused_before_compiling() {
    let nested = |depth: usize| {
        format!(
            "{}{}",
            "(block ".repeat(depth) + "(br_if 0 (i32.const 1))",
            ")".repeat(depth)
        )
    };
    let many_locals = |n: usize| format!("(local {})", "i64 ".repeat(n));
    for (name, text, needle) in [
        (
            "20,000 nested br_if blocks",
            main_with("", &nested(20_000)),
            "nest more than",
        ),
        (
            "6,000 nested blocks and 3,000 locals",
            main_with(&many_locals(3_000), &nested(6_000)),
            "nest more than",
        ),
        ("5,000 locals", main_with(&many_locals(5_000), ""), "locals"),
    ] {
        let bytes = wat::parse_str(&text).unwrap();
        let error = validate_module(&bytes).expect_err(name);
        assert!(
            matches!(&error, ModuleError::FunctionTooLarge { .. })
                && error.to_string().contains(needle),
            "{name}: {error}"
        );
    }
    // Within the bounds, a deep function still validates.
    let bytes = wat::parse_str(main_with(&many_locals(100), &nested(500))).unwrap();
    validate_module(&bytes).unwrap();
}

/// Red-team follow-up: compiling costs time and memory per function whatever its size, so a
/// 1.8 MB module of 300,000 one-instruction functions took 16 s and 1.8 GB (compilation is not
/// under `--timeout`). Every kind of entity is counted from the section headers, before
/// validation, and a module is at most 64 MiB.
#[test]
fn modules_with_too_many_entities_are_refused_before_compiling() {
    let module = |body: &str| {
        format!(
            "(module (memory (export \"memory\") 1) {body} \
             (func (export \"baton_main\") (result i32) (i32.const 0)))"
        )
    };
    let many = |n: usize, item: &dyn Fn(usize) -> String| (0..n).map(item).collect::<String>();
    for (kind, text) in [
        (
            "functions",
            module(&many(60_000, &|_| {
                "(func (result i32) (i32.const 0))".into()
            })),
        ),
        (
            "globals",
            module(&many(60_000, &|_| "(global i32 (i32.const 0))".into())),
        ),
        (
            "types",
            module(&many(60_000, &|i| {
                format!("(type (func (param {})))", "i32 ".repeat(i % 7))
            })),
        ),
        (
            "data segments",
            module(&many(60_000, &|_| "(data (i32.const 8) \"x\")".into())),
        ),
        (
            "exports",
            module(&many(60_000, &|i| format!("(export \"m{i}\" (memory 0))"))),
        ),
    ] {
        let bytes = wat::parse_str(&text).unwrap();
        let error = validate_module(&bytes).expect_err(kind);
        assert!(
            matches!(&error, ModuleError::TooLarge { .. })
                && error
                    .to_string()
                    .contains(&format!(" {kind} (at most 50000)")),
            "{kind}: {error}"
        );
    }
    // A module past 64 MiB (one large data segment) is refused by its size alone.
    let big = module(&format!(
        "(data (i32.const 8) \"{}\")",
        "y".repeat(65 << 20)
    ));
    let error = validate_module(&wat::parse_str(&big).unwrap()).expect_err("size");
    assert!(error.to_string().contains("bytes (at most"), "{error}");
    // Within the bounds, many functions still validate.
    let fine = module(&many(5_000, &|_| {
        "(func (result i32) (i32.const 0))".into()
    }));
    validate_module(&wat::parse_str(&fine).unwrap()).unwrap();
}
