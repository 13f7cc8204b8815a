//! Hand-written modules calling the host calls (`bash`, `llm`, `log`, `inputs`, `result`,
//! `reply`) with good and hostile arguments, against a fake [`HostCalls`] that records what
//! reached it. Hostile pointers, lengths, texts and call orders must end the run with a trap
//! whose message names the call — never a panic, and never a request reaching the capability.

use std::sync::{Arc, Mutex};

use baton_host::calls::BoxFuture;
use baton_host::{
    Call, CallKind, CallResult, HostCalls, HostError, HostException, Limits, ModuleCache, PlanError,
};
use serde_json::{json, Value};

/// Records every call and answers from a fixed table.
#[derive(Default)]
struct Fake {
    seen: Mutex<Vec<(CallKind, Value)>>,
}

impl HostCalls for Fake {
    fn call(&self, _seq: u64, call: Call) -> BoxFuture<'_, CallResult> {
        let kind = call.kind();
        self.seen
            .lock()
            .unwrap()
            .push((kind, call.request().clone()));
        Box::pin(async move {
            match kind {
                CallKind::Inputs => Ok(json!({"n": 3})),
                CallKind::Bash => Ok(json!({"returncode": 0, "stdout": "hi\n"})),
                CallKind::Llm => {
                    Err(PlanError::new(HostException::BudgetExceeded, "no money").into())
                }
                CallKind::Log => Ok(Value::Null),
                CallKind::Branch => {
                    Err(PlanError::new(HostException::RuntimeError, "not here").into())
                }
            }
        })
    }
}

struct Ran {
    result: Result<baton_host::RunReport, HostError>,
    out: String,
    seen: Vec<(CallKind, Value)>,
}

fn run(text: &str) -> Ran {
    let bytes = wat::parse_str(text).unwrap_or_else(|error| panic!("bad test WAT: {error}"));
    let fake = Arc::new(Fake::default());
    let prepared = ModuleCache::new(None)
        .prepare(&bytes)
        .expect("the module is valid");
    let mut out = Vec::new();
    let result = prepared.run_with(&Limits::default(), fake.clone(), &mut out);
    let seen = fake.seen.lock().unwrap().clone();
    Ran {
        result,
        out: String::from_utf8(out).unwrap(),
        seen,
    }
}

/// A module importing every host call, whose `baton_main` runs `body` and returns 0. Memory
/// holds a valid bash request at 64 (`REQ_LEN` bytes) and the bytes 0xff 0xfe at 32.
fn module(body: &str) -> String {
    format!(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (import "baton" "bash" (func $bash (param i32 i32) (result i32)))
  (import "baton" "llm" (func $llm (param i32 i32) (result i32)))
  (import "baton" "log" (func $log (param i32 i32)))
  (import "baton" "inputs" (func $inputs (result i32)))
  (import "baton" "result" (func $result (param i32 i32)))
  (import "baton" "reply" (func $reply (param i32)))
  (memory (export "memory") 1)
  (data (i32.const 32) "\ff\fe")
  (data (i32.const 64) "{{\"command\": \"echo hi\"}}")
  (data (i32.const 128) "not json")
  (func (export "baton_main") (result i32)
    (local $n i32)
    {body}
    (i32.const 0)))
"#
    )
}

const REQ_LEN: usize = r#"{"command": "echo hi"}"#.len();

fn expect_trap(ran: &Ran, needle: &str) {
    match &ran.result {
        Err(HostError::Trap { message, .. }) => {
            assert!(message.contains(needle), "{message:?} lacks {needle:?}")
        }
        other => panic!("expected a trap naming {needle:?}, got {other:?}"),
    }
}

#[test]
fn a_call_and_its_reply_round_trip() {
    // bash, then fetch the reply to 1024 and print it.
    let ran = run(&module(&format!(
        "(local.set $n (call $bash (i32.const 64) (i32.const {REQ_LEN})))
         (call $reply (i32.const 1024))
         (call $print (i32.const 1024) (local.get $n))"
    )));
    assert!(ran.result.is_ok(), "{:?}", ran.result);
    assert_eq!(
        serde_json::from_str::<Value>(&ran.out).unwrap(),
        json!({"ok": {"returncode": 0, "stdout": "hi\n"}})
    );
    assert_eq!(
        ran.seen,
        vec![(CallKind::Bash, json!({"command": "echo hi"}))]
    );
}

#[test]
fn errors_come_back_as_replies_naming_the_exception() {
    let ran = run(&module(&format!(
        "(local.set $n (call $llm (i32.const 64) (i32.const {REQ_LEN})))
         (call $reply (i32.const 1024))
         (call $print (i32.const 1024) (local.get $n))"
    )));
    assert!(ran.result.is_ok(), "{:?}", ran.result);
    assert_eq!(
        serde_json::from_str::<Value>(&ran.out).unwrap(),
        json!({"error": {"type": "BudgetExceeded", "message": "no money"}})
    );
}

#[test]
fn wild_request_pointers_and_lengths_trap() {
    for (ptr, len) in [
        ("-1", "1"),
        ("65530", "100"),
        ("0", "-1"),
        ("65536", "0"),
        ("2147483647", "2147483647"),
    ] {
        for call in ["bash", "llm"] {
            let ran = run(&module(&format!(
                "(drop (call ${call} (i32.const {ptr}) (i32.const {len})))"
            )));
            expect_trap(&ran, &format!("baton.{call}"));
            assert!(
                ran.seen.is_empty(),
                "a wild request reached the host: {:?}",
                ran.seen
            );
        }
        let ran = run(&module(&format!(
            "(call $log (i32.const {ptr}) (i32.const {len}))"
        )));
        if len == "0" {
            // An empty range at the end of memory is in bounds: an empty log line.
            assert!(ran.result.is_ok(), "{:?}", ran.result);
        } else {
            expect_trap(&ran, "baton.log");
        }
        let ran = run(&module(&format!(
            "(call $result (i32.const {ptr}) (i32.const {len}))"
        )));
        expect_trap(&ran, "baton.result");
    }
}

#[test]
fn requests_must_be_utf8_json() {
    let ran = run(&module("(drop (call $bash (i32.const 32) (i32.const 2)))"));
    expect_trap(&ran, "not UTF-8");
    let ran = run(&module("(drop (call $llm (i32.const 128) (i32.const 8)))"));
    expect_trap(&ran, "not JSON");
    let ran = run(&module("(call $result (i32.const 128) (i32.const 8))"));
    expect_trap(&ran, "not JSON");
    let ran = run(&module("(call $log (i32.const 32) (i32.const 2))"));
    expect_trap(&ran, "not UTF-8");
    assert!(ran.seen.is_empty());
}

#[test]
fn reply_without_a_call_or_twice_traps() {
    let ran = run(&module("(call $reply (i32.const 1024))"));
    expect_trap(&ran, "no host call reply is waiting");
    let ran = run(&module(&format!(
        "(drop (call $bash (i32.const 64) (i32.const {REQ_LEN})))
         (call $reply (i32.const 1024))
         (call $reply (i32.const 1024))"
    )));
    expect_trap(&ran, "no host call reply is waiting");
}

#[test]
fn reply_into_a_wild_buffer_traps() {
    for ptr in ["-1", "65535", "65500"] {
        let ran = run(&module(&format!(
            "(drop (call $bash (i32.const 64) (i32.const {REQ_LEN})))
             (call $reply (i32.const {ptr}))"
        )));
        expect_trap(&ran, "baton.reply");
    }
}

#[test]
fn inputs_log_and_result_reach_the_host() {
    let ran = run(&module(
        r#"(local.set $n (call $inputs))
           (call $reply (i32.const 1024))
           (call $print (i32.const 1024) (local.get $n))
           (call $log (i32.const 64) (i32.const 4))
           (call $result (i32.const 64) (i32.const 22))"#,
    ));
    let report = ran.result.expect("the run succeeds");
    assert_eq!(
        serde_json::from_str::<Value>(&ran.out).unwrap(),
        json!({"ok": {"n": 3}})
    );
    assert_eq!(report.result.as_deref(), Some(r#"{"command": "echo hi"}"#));
    assert_eq!(
        ran.seen,
        vec![
            (CallKind::Inputs, Value::Null),
            (CallKind::Log, json!({"line": "{\"co"})),
        ]
    );
}

/// Answers `inputs` after a pause, so that every run is alive at the same time.
struct Slow;

impl HostCalls for Slow {
    fn call(&self, _seq: u64, _call: Call) -> BoxFuture<'_, CallResult> {
        Box::pin(async {
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            Ok(json!({}))
        })
    }
}

#[test]
fn more_runs_than_pool_slots_wait_for_a_slot_instead_of_failing() {
    // Every run raises and catches an exception too, so each store also has a GC heap.
    let bytes = wat::parse_str(
        r#"
(module
  (import "baton" "inputs" (func $inputs (result i32)))
  (tag $e)
  (memory (export "memory") 1)
  (func (export "baton_main") (result i32)
    (drop (call $inputs))
    (block $caught (try_table (catch $e $caught) (throw $e)))
    (i32.const 0)))
"#,
    )
    .unwrap();
    let prepared = std::sync::Arc::new(ModuleCache::new(None).prepare(&bytes).unwrap());
    let runs = baton_host::engine::POOL_SLOTS as usize + 100;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ended = runtime.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..runs {
            let prepared = prepared.clone();
            tasks.spawn(async move {
                let (sender, _receiver) = tokio::sync::mpsc::channel(1);
                prepared
                    .run_async(&Limits::default(), Arc::new(Slow), sender)
                    .await
            });
        }
        let mut ended = Vec::new();
        while let Some(result) = tasks.join_next().await {
            ended.push(result.expect("no run panicked"));
        }
        ended
    });
    assert_eq!(ended.len(), runs);
    for result in ended {
        assert_eq!(
            result.expect("every run ends cleanly").outcome,
            baton_host::RunOutcome::Success
        );
    }
}
