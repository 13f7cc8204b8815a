//! The host calls' linking: every `baton.*` import a plan module may have (docs/abi.md, "Host
//! calls"), each reading its arguments from guest memory as hostile input, decoding the request
//! and passing it to the store's [`HostCalls`](crate::HostCalls) (`calls.rs`), or for `branch`
//! to the branch runner (`branch/`). [`instance_pre`] resolves a module's imports against them
//! once.
//!
//! A host call never calls into the instance that made it: it reads and writes the instance's
//! memory, nothing else. The compiler relies on that: a host call cannot run a collection, so a
//! value a plan holds only across host calls and other such runtime calls needs no shadow slot
//! (`baton_runtime::interface::Interface::never_collects`). A host call that wanted to call
//! back into wasm would have to change that analysis first.

use serde_json::Value;
use wasmtime::{Caller, Engine, InstancePre, Linker, Module};

use crate::calls::{
    encode_reply, BranchCall, Call, CallError, CallKind, CallResult, HostException, PlanError,
};
use crate::error::{BranchStuck, Diverged, GuestFault, HostError, OutputClosed};
use crate::guest_memory::{guest_memory, guest_range, guest_text};
use crate::imports::IMPORT_MODULE;
use crate::state::{HostState, OUTPUT_CHUNK};

/// The linker with every host call, and the module's imports resolved against it.
pub(crate) fn instance_pre(module: &Module) -> Result<InstancePre<HostState>, HostError> {
    host_call_linker(module.engine())?
        .instantiate_pre(module)
        .map_err(|error| HostError::Engine(format!("cannot link the module: {error:#}")))
}

/// A linker with every host call.
pub(crate) fn host_call_linker(engine: &Engine) -> Result<Linker<HostState>, HostError> {
    let mut linker = Linker::<HostState>::new(engine);
    link_host_calls(&mut linker)
        .map_err(|error| HostError::Engine(format!("cannot link the host calls: {error:#}")))?;
    Ok(linker)
}

fn link_host_calls(linker: &mut Linker<HostState>) -> wasmtime::Result<()> {
    linker.func_wrap_async(
        IMPORT_MODULE,
        "print",
        |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
            Box::new(async move {
                let text = guest_text(&mut caller, "print", ptr, len)?;
                caller.data().branching.run.count_output(text.len())?;
                let output = caller.data().output.clone();
                // Most prints fit one chunk: hand over the copy already made.
                if text.len() <= OUTPUT_CHUNK {
                    output
                        .send(text.into_bytes())
                        .await
                        .map_err(|_| OutputClosed)?;
                    return Ok(());
                }
                for chunk in text.as_bytes().chunks(OUTPUT_CHUNK) {
                    output
                        .send(chunk.to_vec())
                        .await
                        .map_err(|_| OutputClosed)?;
                }
                Ok(())
            })
        },
    )?;
    for kind in [CallKind::Bash, CallKind::Llm] {
        linker.func_wrap_async(
            IMPORT_MODULE,
            kind.name(),
            move |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
                Box::new(async move {
                    let text = guest_text(&mut caller, kind.name(), ptr, len)?;
                    let request = match decode_request(kind.name(), &text)? {
                        Ok(request) => request,
                        Err(too_deep) => {
                            return Ok(hold_reply(&mut caller, kind.name(), &Err(too_deep.into())))
                        }
                    };
                    let call = match kind {
                        CallKind::Bash => Call::Bash(request),
                        _ => Call::Llm(request),
                    };
                    call_and_hold_reply(&mut caller, call).await
                })
            },
        )?;
    }
    linker.func_wrap_async(
        IMPORT_MODULE,
        "branch",
        |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
            Box::new(async move {
                let text = guest_text(&mut caller, "branch", ptr, len)?;
                let request = match decode_request("branch", &text)? {
                    Ok(request) => request,
                    Err(too_deep) => {
                        return Ok(hold_reply(&mut caller, "branch", &Err(too_deep.into())))
                    }
                };
                let seq = caller.data_mut().number(CallKind::Branch);
                let context = caller.data().branching.clone();
                let calls = caller.data().calls.clone();
                let output = caller.data().output.clone();
                // Each branch may use what its parent had left.
                let fuel = caller.get_fuel().unwrap_or(context.limits.fuel);
                let branches = BranchCall::new(request.clone(), {
                    let calls = calls.clone();
                    move || Box::pin(crate::branch::run(context, calls, seq, fuel, request))
                });
                let mut result = calls.call(seq, Call::Branch(branches)).await;
                // A branch crossed a run-wide limit: the run ends here, not in the plan.
                caller.data().branching.run.check()?;
                if let Err(CallError::Diverged(message)) = &result {
                    return Err(Diverged(message.clone()).into());
                }
                // What the branches printed, in branch order (replayed runs print it again).
                if let Ok(Value::Object(reply)) = &mut result {
                    if let Some(Value::Array(printed)) = reply.remove("printed") {
                        for text in printed.iter().filter_map(Value::as_str) {
                            for chunk in text.as_bytes().chunks(OUTPUT_CHUNK) {
                                output
                                    .send(chunk.to_vec())
                                    .await
                                    .map_err(|_| OutputClosed)?;
                            }
                        }
                    }
                }
                Ok(hold_reply(&mut caller, "branch", &result))
            })
        },
    )?;
    linker.func_wrap_async(
        IMPORT_MODULE,
        "inputs",
        |mut caller: Caller<'_, HostState>, (): ()| {
            Box::new(async move { call_and_hold_reply(&mut caller, Call::Inputs).await })
        },
    )?;
    linker.func_wrap_async(
        IMPORT_MODULE,
        "log",
        |mut caller: Caller<'_, HostState>, (ptr, len): (i32, i32)| {
            Box::new(async move {
                let line = guest_text(&mut caller, "log", ptr, len)?;
                caller.data().branching.run.count_log(line.len())?;
                let calls = caller.data().calls.clone();
                let seq = caller.data_mut().number(CallKind::Log);
                // A log line cannot fail in a way the plan could act on.
                let _ = calls
                    .call(seq, Call::Log(serde_json::json!({ "line": line })))
                    .await;
                Ok(())
            })
        },
    )?;
    linker.func_wrap(
        IMPORT_MODULE,
        "result",
        |mut caller: Caller<'_, HostState>, ptr: i32, len: i32| -> wasmtime::Result<()> {
            let text = guest_text(&mut caller, "result", ptr, len)?;
            if let Err(error) = serde_json::from_str::<serde::de::IgnoredAny>(&text) {
                return Err(
                    GuestFault(format!("baton.result: the result is not JSON: {error}")).into(),
                );
            }
            caller.data_mut().result = Some(text);
            Ok(())
        },
    )?;
    // Nanoseconds on a monotonic clock, for the collector's own figures (the time it spends):
    // the plan never sees the value, so runs stay a function of their inputs.
    linker.func_wrap(IMPORT_MODULE, "clock", || -> i64 {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        let start = START.get_or_init(std::time::Instant::now);
        i64::try_from(start.elapsed().as_nanos()).unwrap_or(i64::MAX)
    })?;
    linker.func_wrap(IMPORT_MODULE, "libm", crate::libm::call)?;
    linker.func_wrap(
        IMPORT_MODULE,
        "reply",
        |mut caller: Caller<'_, HostState>, ptr: i32| -> wasmtime::Result<()> {
            let Some(reply) = caller.data_mut().reply.take() else {
                return Err(GuestFault("baton.reply: no host call reply is waiting".into()).into());
            };
            let memory = guest_memory(&mut caller, "reply")?;
            let data = memory.data_mut(&mut caller);
            let len = i32::try_from(reply.len())
                .map_err(|_| GuestFault("baton.reply: the reply is too large".into()))?;
            let range = guest_range(data.len(), ptr, len)
                .map_err(|message| GuestFault(format!("baton.reply: {message}")))?;
            data[range].copy_from_slice(&reply);
            Ok(())
        },
    )?;
    Ok(())
}

/// How deep a value crossing to the host may nest (serde_json's own bound, which would
/// otherwise refuse it as bad JSON).
pub const MAX_CROSSING_DEPTH: usize = 128;

/// Decodes a host call's request. A request that is not JSON is the module's fault (a trap);
/// one that nests deeper than [`MAX_CROSSING_DEPTH`] is a legal plan's value, answered with a
/// ValueError the plan can catch.
fn decode_request(call: &str, text: &str) -> Result<Result<Value, PlanError>, GuestFault> {
    let depth = json_depth(text.as_bytes());
    if depth > MAX_CROSSING_DEPTH {
        return Ok(Err(PlanError::value_error(format!(
            "the arguments of {call}() nest {depth} levels deep; values crossing to the host \
             may nest at most {MAX_CROSSING_DEPTH} levels"
        ))));
    }
    serde_json::from_str(text)
        .map(Ok)
        .map_err(|error| GuestFault(format!("baton.{call}: the request is not JSON: {error}")))
}

/// The deepest nesting of arrays and objects in JSON text (brackets inside strings do not
/// count). One pass, no recursion: the text is the plan's.
fn json_depth(text: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &byte in text {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Runs one call through the run's [`HostCalls`], keeps the encoded reply for `baton.reply`
/// and returns its length.
async fn call_and_hold_reply(
    caller: &mut Caller<'_, HostState>,
    call: Call,
) -> wasmtime::Result<i32> {
    let kind = call.kind();
    let calls = caller.data().calls.clone();
    let activity = caller.data().activity.clone();
    let started = std::time::Instant::now();
    // A branch's activity watch sees each request before and after the call.
    let request = activity.as_ref().map(|_| call.request().clone());
    if let (Some(activity), Some(request)) = (&activity, &request) {
        activity.before(kind, request).map_err(BranchStuck)?;
    }
    let seq = caller.data_mut().number(kind);
    let result = calls.call(seq, call).await;
    if let Err(CallError::Diverged(message)) = &result {
        return Err(Diverged(message.clone()).into());
    }
    // The call may have stopped the run (a command killed for memory in the run's cgroup).
    caller.data().branching.run.check()?;
    if let (Some(activity), Some(request)) = (&activity, &request) {
        activity.after(kind, request, &result, started.elapsed());
    }
    Ok(hold_reply(caller, kind.name(), &result))
}

/// Keeps a call's encoded reply for `baton.reply` and returns its length.
fn hold_reply(caller: &mut Caller<'_, HostState>, name: &str, result: &CallResult) -> i32 {
    let mut reply = encode_reply(result);
    if i32::try_from(reply.len()).is_err() {
        reply = encode_reply(&Err(PlanError::new(
            HostException::RuntimeError,
            format!("the reply of {name}() is larger than 2 GiB"),
        )
        .into()));
    }
    let len = reply.len() as i32;
    caller.data_mut().reply = Some(reply);
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_depth_counts_brackets_outside_strings() {
        assert_eq!(json_depth(b"1"), 0);
        assert_eq!(json_depth(br#"{"a": [1, {"b": []}]}"#), 4);
        assert_eq!(json_depth(br#"["[[[[", "\"]]]", [1]]"#), 2);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(json_depth(deep.as_bytes()), 200);
        assert!(
            matches!(decode_request("llm", &deep), Ok(Err(e)) if e.exception == HostException::ValueError)
        );
        assert!(decode_request("llm", "{not json").is_err());
    }
}
