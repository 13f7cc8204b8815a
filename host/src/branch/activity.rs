//! A branch's record of what it did: steps, a truncated trace of its host calls, what it
//! printed, and stuck detection; and the count of branches running (for the progress line).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::calls::{CallKind, CallResult};
use crate::sync::lock;

/// The most bytes of a branch's printed output kept; the rest is cut with a marker.
pub const MAX_BRANCH_OUTPUT: usize = 1 << 20;
/// The most host calls a branch's trace keeps (the first ones), and the most characters kept of
/// each request and reply.
pub const TRACE_ENTRIES: usize = 64;
pub const TRACE_TEXT: usize = 240;

/// Branches running in this process right now (for the progress display).
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// How many branches are running in this process.
pub fn active_branches() -> usize {
    ACTIVE.load(Ordering::Relaxed)
}

/// Counts a branch as running until dropped (which cancellation does too).
pub(super) struct Running;

impl Running {
    pub(super) fn start() -> Running {
        ACTIVE.fetch_add(1, Ordering::Relaxed);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A branch's host calls and output, shared by its store and the call that started it (which
/// still reads them when the branch was cancelled).
pub(crate) struct Activity {
    pub(super) stuck_repeats: u32,
    pub(super) state: Mutex<ActivityState>,
}

#[derive(Default)]
pub(super) struct ActivityState {
    pub(super) started: Option<Instant>,
    pub(super) steps: u64,
    pub(super) trace: Vec<Value>,
    pub(super) trace_left_out: u64,
    /// The last `bash`/`llm` request and how many times in a row it was made.
    pub(super) last: Option<(CallKind, Value)>,
    pub(super) repeats: u32,
    pub(super) output: Vec<u8>,
    pub(super) output_cut: bool,
}

pub(super) fn truncated(text: &str) -> String {
    match text.char_indices().nth(TRACE_TEXT) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

impl Activity {
    pub(super) fn new(stuck_repeats: u32) -> Self {
        Activity {
            stuck_repeats,
            state: Mutex::default(),
        }
    }

    /// Called before a host call: refuses the `stuck_repeats`-th identical `bash` or `llm`
    /// request in a row.
    pub(crate) fn before(&self, kind: CallKind, request: &Value) -> Result<(), String> {
        if !matches!(kind, CallKind::Bash | CallKind::Llm) {
            return Ok(());
        }
        let mut state = lock(&self.state);
        let same = state
            .last
            .as_ref()
            .is_some_and(|(last_kind, last)| *last_kind == kind && last == request);
        if same {
            state.repeats += 1;
        } else {
            state.last = Some((kind, request.clone()));
            state.repeats = 1;
        }
        if self.stuck_repeats > 0 && state.repeats >= self.stuck_repeats {
            return Err(format!(
                "Stuck: the branch made the same {} request {} times in a row: {}",
                kind.name(),
                state.repeats,
                truncated(&request.to_string())
            ));
        }
        state.steps += 1;
        Ok(())
    }

    /// Called after a host call: one trace entry.
    pub(crate) fn after(
        &self,
        kind: CallKind,
        request: &Value,
        result: &CallResult,
        elapsed: Duration,
    ) {
        if matches!(kind, CallKind::Inputs) {
            return;
        }
        let mut state = lock(&self.state);
        if state.trace.len() >= TRACE_ENTRIES {
            state.trace_left_out += 1;
            return;
        }
        let reply = match result {
            Ok(value) => truncated(&value.to_string()),
            Err(error) => truncated(&error.to_string()),
        };
        state.trace.push(json!({
            "call": kind.name(),
            "request": truncated(&request.to_string()),
            "ok": result.is_ok(),
            "reply": reply,
            "seconds": elapsed.as_secs_f64(),
        }));
    }

    pub(super) fn print(&self, bytes: &[u8]) {
        let mut state = lock(&self.state);
        let room = MAX_BRANCH_OUTPUT.saturating_sub(state.output.len());
        if bytes.len() > room {
            state.output.extend_from_slice(&bytes[..room]);
            state.output_cut = true;
        } else {
            state.output.extend_from_slice(bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stuck_after_the_configured_repeats() {
        let activity = Activity::new(3);
        let request = json!({"command": "make"});
        assert!(activity.before(CallKind::Bash, &request).is_ok());
        assert!(activity.before(CallKind::Bash, &request).is_ok());
        let error = activity.before(CallKind::Bash, &request).unwrap_err();
        assert!(error.contains("same bash request 3 times"), "{error}");
        // A different request in between resets the count.
        let activity = Activity::new(3);
        for command in ["a", "a", "b", "a", "a"] {
            assert!(activity
                .before(CallKind::Bash, &json!({ "command": command }))
                .is_ok());
        }
    }
}
