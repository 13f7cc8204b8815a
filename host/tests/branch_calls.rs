//! Hand-written modules calling `baton.branch` with good and hostile requests, and branch
//! entry points that misbehave (trap, spin, return a wild address, report a non-JSON result).
//! The parent must always get a reply it can read — an outcome per branch naming what went
//! wrong, or a TypeError/ValueError for a malformed request — and the host must never panic.

use std::sync::Arc;

use baton_host::calls::{BoxFuture, Fork, ForkSpec};
use baton_host::{
    Call, CallResult, HostCalls, HostError, HostException, Limits, ModuleCache, ModuleError,
    PlanError,
};
use serde_json::{json, Value};

/// Grants nothing but can branch (each branch gets the same).
struct Branching;

impl HostCalls for Branching {
    fn call(&self, _seq: u64, call: Call) -> BoxFuture<'_, CallResult> {
        Box::pin(async move {
            match call {
                Call::Inputs => Ok(json!({})),
                Call::Branch(branches) => branches.run().await,
                _ => Err(PlanError::new(HostException::RuntimeError, "not granted").into()),
            }
        })
    }

    fn fork(&self, _spec: ForkSpec) -> BoxFuture<'_, Result<Fork, PlanError>> {
        Box::pin(async {
            Ok(Fork {
                calls: Arc::new(Branching),
                budget: None,
                workspace: None,
            })
        })
    }
}

/// A module whose `baton_main` sends the request at 256 (`len` bytes) to `baton.branch` and
/// prints the reply; `entry` is the body of its `baton_branch_main(len, index) -> i32`.
fn module(request: &str, entry: &str) -> String {
    let escaped = request.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        r#"
(module
  (import "baton" "print" (func $print (param i32 i32)))
  (import "baton" "result" (func $result (param i32 i32)))
  (import "baton" "reply" (func $reply (param i32)))
  (import "baton" "branch" (func $branch (param i32 i32) (result i32)))
  (memory (export "memory") 2)
  (data (i32.const 64) "not json")
  (data (i32.const 256) "{escaped}")
  (func (export "baton_main") (result i32)
    (local $n i32)
    (local.set $n (call $branch (i32.const 256) (i32.const {len})))
    (call $reply (i32.const 8192))
    (call $print (i32.const 8192) (local.get $n))
    (i32.const 0))
  (func (export "baton_branch_main") (param $len i32) (param $index i32) (result i32)
    {entry}))
"#,
        len = request.len()
    )
}

fn run(text: &str) -> (Result<baton_host::RunReport, HostError>, Value) {
    let bytes = wat::parse_str(text).unwrap_or_else(|error| panic!("bad test WAT: {error}"));
    let prepared = ModuleCache::new(None)
        .prepare(&bytes)
        .expect("the module is valid");
    let limits = Limits {
        fuel: 50_000_000,
        ..Limits::default()
    };
    let mut out = Vec::new();
    let result = prepared.run_with(&limits, Arc::new(Branching), &mut out);
    let reply = serde_json::from_slice(&out).unwrap_or(Value::Null);
    (result, reply)
}

fn outcome_errors(reply: &Value) -> Vec<String> {
    reply["ok"]["outcomes"]
        .as_array()
        .unwrap_or_else(|| panic!("no outcomes in {reply}"))
        .iter()
        .map(|o| o["error_type"].as_str().unwrap_or("none").to_string())
        .collect()
}

const TWO: &str = r#"{"count": 2, "reduce": "all", "payload": [1]}"#;

#[test]
fn misbehaving_branches_fail_alone_with_a_named_error() {
    for (entry, expected) in [
        ("(unreachable)", "Trap"),
        ("(loop $spin (br $spin)) (i32.const 0)", "LimitExceeded"),
        // Not the address of a str: the host reads the traceback, finds garbage, says so.
        ("(i32.const 12345)", "Trap"),
        // `result` with text that is not JSON traps in the host call.
        (
            "(call $result (i32.const 64) (i32.const 8)) (i32.const 0)",
            "Trap",
        ),
        // Returning 0 without a result: nothing to copy out.
        ("(i32.const 0)", "Trap"),
    ] {
        let (result, reply) = run(&module(TWO, entry));
        assert!(
            result.is_ok(),
            "{entry}: the parent must survive: {result:?}"
        );
        assert_eq!(
            outcome_errors(&reply),
            [expected, expected],
            "{entry}: {reply}"
        );
    }
}

#[test]
fn malformed_requests_are_answered_with_python_errors() {
    for (request, exception, needle) in [
        (
            r#"{"count": 0, "payload": [1]}"#,
            "ValueError",
            "at least one",
        ),
        (
            r#"{"count": 100000, "payload": [1]}"#,
            "ValueError",
            "at most 10000",
        ),
        (r#"{"payload": [1]}"#, "TypeError", "no count"),
        (r#"{"count": 1}"#, "TypeError", "no payload"),
        (
            r#"{"count": 1, "reduce": "nope", "payload": 1}"#,
            "ValueError",
            "'nope'",
        ),
        (
            r#"{"count": 1, "max_parallel": 0, "payload": 1}"#,
            "ValueError",
            "at least 1",
        ),
        (
            r#"{"count": 1, "max_parallel": "2", "payload": 1}"#,
            "TypeError",
            "must be int",
        ),
        (
            r#"{"count": 1, "budget": "lots", "payload": 1}"#,
            "TypeError",
            "budget",
        ),
        (
            r#"{"count": 1, "stop_early": 1, "payload": 1}"#,
            "TypeError",
            "must be bool",
        ),
        (
            r#"{"count": 1, "auto": true, "reduce": "all", "payload": 1}"#,
            "ValueError",
            "first_valid",
        ),
        (
            r#"{"count": 1, "auto": true, "payload": 1}"#,
            "ValueError",
            "needs a budget",
        ),
        (
            r#"{"count": 1, "auto": true, "priors": {"success": 2}, "payload": 1}"#,
            "ValueError",
            "priors",
        ),
        (r#"[1, 2]"#, "TypeError", "no count"),
    ] {
        let (result, reply) = run(&module(request, "(unreachable)"));
        assert!(result.is_ok(), "{request}: {result:?}");
        assert_eq!(reply["error"]["type"], exception, "{request}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(needle), "{request}: {message}");
    }
}

#[test]
fn a_request_that_is_not_json_traps() {
    let text = module(TWO, "(unreachable)").replace(
        "(call $branch (i32.const 256)",
        "(call $branch (i32.const 64)",
    );
    let text = text.replace(&format!("(i32.const {}))", TWO.len()), "(i32.const 8))");
    let (result, _) = run(&text);
    match result {
        Err(HostError::Trap { message, .. }) => {
            assert!(message.contains("baton.branch"), "{message}")
        }
        other => panic!("expected a trap, got {other:?}"),
    }
}

#[test]
fn a_module_that_branches_must_be_able_to_be_a_branch() {
    let text = module(TWO, "(unreachable)").replace(
        "(func (export \"baton_branch_main\")",
        "(func $not_exported",
    );
    let bytes = wat::parse_str(&text).unwrap();
    match baton_host::validate_module(&bytes) {
        Err(ModuleError::MissingExport { name, .. }) => assert_eq!(name, "baton_branch_main"),
        other => panic!("expected a missing export, got {other:?}"),
    }
}
