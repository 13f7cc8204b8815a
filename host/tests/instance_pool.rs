//! A process that makes one run allocates its instances on demand (`engine::set_instance_pool`,
//! as `baton run` and `baton replay` choose): runs work, and their memory cap holds, as with the
//! pool. A test binary of its own, since the choice is made once per process, before the engine
//! is first used.

use baton_host::engine::{engine, instance_pool, set_instance_pool};
use baton_host::{run_module, Limits, RunOutcome};

#[test]
fn runs_allocated_on_demand_run_and_keep_their_memory_cap() {
    assert!(set_instance_pool(false));
    assert!(!instance_pool());
    engine().expect("the on-demand engine");
    assert!(!set_instance_pool(true), "chosen once, before the engine");
    assert!(!instance_pool());

    // Cap 2 MiB = 32 pages; start with 1; growing by 16 works, by 100 more fails with -1.
    let module = wat::parse_str(
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
    )
    .expect("test WAT");
    let limits = Limits {
        memory_bytes: 2 << 20,
        ..Limits::default()
    };
    // Several runs one after another: each instance is mapped and given back on its own.
    for _ in 0..3 {
        let mut out = Vec::new();
        let result = run_module(&module, &limits, &mut out);
        assert_eq!(result.expect("runs"), RunOutcome::Success);
        assert_eq!(
            String::from_utf8(out).expect("UTF-8"),
            "grew\nMemoryError\n"
        );
    }
}
