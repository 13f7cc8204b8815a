//! `branch` and `parallel` (docs/abi.md, "Branches"): the `baton.branch` host call.
//!
//! The runtime sends one request: the options, and one payload (the module's globals, the
//! callables and the validator, in the value encoding of runtime/wat/codec.wat) that the host
//! never looks inside. For each callable the host
//! 1. forks the capabilities ([`HostCalls::fork`](crate::HostCalls::fork)): a copy of the workspace, a budget drawn
//!    from the parent's, log lines marked with the branch's path;
//! 2. starts a fresh instance of the same module in a store of its own (fuel: what the parent
//!    had left), hands it the payload as the waiting reply and calls
//!    `baton_branch_main(len, index)`, which restores the globals, calls callable `index`, runs
//!    the validator and reports `{"value", "valid", "score"}` through `baton.result`;
//! 3. records its host calls (`Activity`, `activity.rs`: steps, a truncated trace, stuck detection) and keeps
//!    what it prints.
//!
//! Branches run concurrently (at most `max_parallel` at once, and the instance pool's slots).
//! As each ends, the reducer decides whether the result is known; with `stop_early` the others
//! are then cancelled: their tasks are aborted, which drops their stores at the next point
//! where they wait — a host call or an epoch yield — and with them their commands' processes
//! (the sandbox kills on drop) and their workspace directories. The chosen branch's workspace
//! changes are applied to the parent's (`adopt`). What the branches printed is written to the
//! parent's output afterwards, in branch order, so a run's output does not depend on timing.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use baton_llm::{Budget, Spent};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::branch_id::BranchId;
use crate::calls::{
    CallError, CallResult, ForkSpec, ForkedWorkspace, HostException, PlanError, SharedCalls,
};
use crate::engine;
use crate::error::HostError;
use crate::execute::{execute, with_place, Entry, RunOutcome, RunReport};
use crate::limits::Limits;
use crate::run_limits::Held;
use crate::state::{new_store, BranchContext, OUTPUT_CHANNEL_CHUNKS};
use crate::sync::lock;

pub(crate) mod activity;
mod choose;
mod options;
mod waves;

pub use crate::priors::{Prior, SiteFigures};
pub use activity::{active_branches, MAX_BRANCH_OUTPUT, TRACE_ENTRIES, TRACE_TEXT};
use activity::{Activity, Running};
use choose::{nothing_chosen, Decision};
use options::{options, Options, Reduce};
use waves::Waves;

/// The most branches one call may start.
pub const MAX_BRANCHES: u64 = 10_000;

// ----- one branch -------------------------------------------------------------------------------

/// How a branch ended.
#[derive(Debug, Clone)]
enum End {
    /// The callable returned (and the validator, if any, judged it).
    Returned {
        value: Value,
        valid: bool,
        score: Option<f64>,
    },
    /// A call of the branch differs from the journal being replayed: the whole run stops.
    Diverged(String),
    /// The callable or validator raised, a limit stopped it, it was stuck, or it could not be
    /// started. `kind` is the exception class (or `LimitExceeded`, `Stuck`, `Trap`).
    Failed {
        kind: String,
        message: String,
        /// The exception object, encoded, when the branch raised one it could copy out.
        exception: Option<Value>,
        /// The branch's traceback, when it raised: `parallel` raises the exception with it as
        /// the cause (a `BranchTraceback`), so the frames where the branch failed are shown.
        traceback: Option<String>,
    },
}

impl End {
    fn failed(kind: &str, message: impl Into<String>) -> End {
        End::Failed {
            kind: kind.to_string(),
            message: message.into(),
            exception: None,
            traceback: None,
        }
    }

    fn is_valid(&self) -> bool {
        matches!(self, End::Returned { valid: true, .. })
    }
}

/// What the call that started a branch keeps of it.
struct Slot {
    activity: Arc<Activity>,
    budget: Mutex<Option<Budget>>,
    workspace: Mutex<Option<Box<dyn ForkedWorkspace>>>,
    /// What the branch handed back, in the run-wide account until the call returns.
    held: Held,
}

/// The bytes of a finished branch's report the host keeps: its result and its traceback.
fn handed_back(report: &Result<RunReport, HostError>) -> usize {
    match report {
        Ok(report) => {
            let traceback = match &report.outcome {
                RunOutcome::Exception { traceback, .. } => traceback.len(),
                RunOutcome::Success => 0,
            };
            traceback + report.result.as_ref().map_or(0, String::len)
        }
        Err(error) => error.to_string().len(),
    }
}

fn end_of(report: Result<RunReport, HostError>) -> End {
    match report {
        Ok(report) => match report.outcome {
            RunOutcome::Success => {
                let parsed = report
                    .result
                    .as_deref()
                    .and_then(|text| serde_json::from_str::<Value>(text).ok());
                match parsed {
                    Some(Value::Object(mut map)) => End::Returned {
                        value: map.remove("value").unwrap_or(Value::Null),
                        valid: map.get("valid").and_then(Value::as_bool).unwrap_or(false),
                        score: map.get("score").and_then(Value::as_f64),
                    },
                    _ => End::failed("Trap", "the branch returned no result"),
                }
            }
            RunOutcome::Exception {
                class,
                message,
                traceback,
            } => {
                let exception = report
                    .result
                    .as_deref()
                    .and_then(|text| serde_json::from_str::<Value>(text).ok())
                    .and_then(|mut raised| raised.get_mut("raised").map(Value::take));
                End::Failed {
                    kind: class,
                    message,
                    exception,
                    traceback: Some(traceback),
                }
            }
        },
        Err(HostError::Stuck(message)) => End::failed(
            "Stuck",
            message
                .strip_prefix("Stuck: ")
                .unwrap_or(&message)
                .to_string(),
        ),
        Err(error @ HostError::Limit { .. }) => End::failed("LimitExceeded", error.to_string()),
        Err(HostError::Divergence(message)) => End::Diverged(message),
        Err(error) => End::failed("Trap", error.to_string()),
    }
}

struct Branch {
    context: Arc<BranchContext>,
    calls: SharedCalls,
    options: Arc<Options>,
    slot: Arc<Slot>,
    fuel: u64,
    /// The parent's call that started the branch (its sequence number in the parent).
    call: u64,
    /// The outcome's index (and, with `call`, the last level of the branch's name).
    index: u32,
    /// Which callable of the payload it runs.
    callable: u32,
}

impl Branch {
    async fn run(self) -> (usize, End) {
        let index = self.index as usize;
        let _running = Running::start();
        lock(&self.slot.activity.state).started = Some(Instant::now());
        let id = self.context.id.child(self.call, self.index);
        let spec = ForkSpec {
            id: id.clone(),
            budget: self.options.budget,
        };
        let fork = match self.calls.fork(spec).await {
            Ok(fork) => fork,
            Err(error) => return (index, End::failed(error.exception.name(), error.message)),
        };
        *lock(&self.slot.budget) = fork.budget;
        *lock(&self.slot.workspace) = fork.workspace;
        (index, self.execute(fork.calls, id).await)
    }

    async fn execute(&self, calls: SharedCalls, id: BranchId) -> End {
        let Ok(_pool_slot) = engine::instance_permits().acquire().await else {
            return End::failed("Trap", "the instance pool is closed");
        };
        let limits = Limits {
            fuel: self.fuel,
            ..self.context.limits
        };
        let context = Arc::new(BranchContext {
            instantiation: self.context.instantiation.clone(),
            limits,
            id,
            run: self.context.run.clone(),
        });
        let (sender, mut receiver) = mpsc::channel::<Vec<u8>>(OUTPUT_CHANNEL_CHUNKS);
        let engine = self.context.instantiation.module().engine().clone();
        let activity = self.slot.activity.clone();
        let mut store = match new_store(
            &engine,
            &limits,
            sender,
            calls,
            context,
            Some(activity.clone()),
        ) {
            Ok(store) => store,
            Err(error) => return End::failed("Trap", error.to_string()),
        };
        let Ok(len) = i32::try_from(self.options.payload.len()) else {
            return End::failed("Trap", "the branch's copied values exceed 2 GiB");
        };
        store.data_mut().reply = Some(self.options.payload.to_vec());
        let entry = Entry::Branch {
            len,
            index: self.callable as i32,
        };
        let instantiation = self.context.instantiation.clone();
        let report = {
            let run = execute(&instantiation, &limits, &mut store, entry);
            tokio::pin!(run);
            loop {
                tokio::select! {
                    report = &mut run => break report,
                    Some(chunk) = receiver.recv() => activity.print(&chunk),
                }
            }
        };
        while let Ok(chunk) = receiver.try_recv() {
            activity.print(&chunk);
        }
        let report = report.map_err(|error| with_place(error, &mut store));
        let handed_back = handed_back(&report) + lock(&activity.state).output.len();
        let end = end_of(report);
        match self.slot.held.add(handed_back) {
            Ok(()) => end,
            Err(stopped) => End::failed("LimitExceeded", stopped.message),
        }
    }
}

// ----- running branches -------------------------------------------------------------------------

/// The branches of one `branch` call, started in one wave or several (`n="auto"`).
struct Runs {
    context: Arc<BranchContext>,
    calls: SharedCalls,
    /// The parent's call these branches run for.
    call: u64,
    fuel: u64,
    options: Arc<Options>,
    stuck_repeats: u32,
    slots: Vec<Arc<Slot>>,
    ends: Vec<Option<End>>,
    /// Branch indices in the order they ended.
    order: Vec<usize>,
    waves: u64,
}

impl Runs {
    /// Runs `size` more branches: at most `max_parallel` at once, the next starting only after
    /// the reducer has seen the last one end (so with one at a time a decided result starts
    /// nothing more). Returns whether the result is settled.
    async fn wave(&mut self, size: usize) -> bool {
        let first = self.slots.len();
        self.waves += 1;
        for _ in 0..size {
            self.slots.push(Arc::new(Slot {
                activity: Arc::new(Activity::new(self.stuck_repeats)),
                budget: Mutex::new(None),
                workspace: Mutex::new(None),
                held: Held::new(self.context.run.clone()),
            }));
            self.ends.push(None);
        }
        let auto = self.options.auto;
        let mut waiting = (first..first + size).map(|index| Branch {
            context: self.context.clone(),
            calls: self.calls.clone(),
            options: self.options.clone(),
            slot: self.slots[index].clone(),
            fuel: self.fuel,
            call: self.call,
            index: index as u32,
            callable: if auto { 0 } else { index as u32 },
        });
        let mut tasks = JoinSet::new();
        for branch in waiting.by_ref().take(self.options.max_parallel) {
            tasks.spawn(branch.run());
        }
        let mut settled = false;
        while let Some(joined) = tasks.join_next().await {
            let Ok((index, end)) = joined else {
                // Cancelled by us, or (a bug) panicked: either way it has no outcome.
                continue;
            };
            self.ends[index] = Some(end);
            self.order.push(index);
            let decision = Decision {
                reduce: self.options.reduce,
                ends: &self.ends,
                order: &self.order,
            };
            if !settled && decision.settled() {
                settled = true;
                if self.options.stop_early {
                    tasks.abort_all();
                }
            }
            if !(settled && self.options.stop_early) {
                if let Some(branch) = waiting.next() {
                    tasks.spawn(branch.run());
                }
            }
        }
        let decision = Decision {
            reduce: self.options.reduce,
            ends: &self.ends,
            order: &self.order,
        };
        decision.chosen().is_some()
    }

    /// What the branches so far spent on models.
    fn spent(&self) -> Spent {
        let mut total = Spent::default();
        for slot in &self.slots {
            if let Some(budget) = lock(&slot.budget).as_ref() {
                let spent = budget.spent();
                total.calls += spent.calls;
                total.input_tokens += spent.input_tokens;
                total.output_tokens += spent.output_tokens;
                total.cost_usd += spent.cost_usd;
            }
        }
        total
    }

    /// This call's figures, for learned priors.
    fn figures(&self) -> SiteFigures {
        let spent = self.spent();
        SiteFigures {
            attempts: self.ends.iter().filter(|end| end.is_some()).count() as u64,
            waves: self.waves,
            valid: self
                .ends
                .iter()
                .flatten()
                .filter(|end| end.is_valid())
                .count() as u64,
            llm_calls: spent.calls,
            tokens: spent.tokens(),
            cost_usd: spent.cost_usd,
        }
    }
}

// ----- the call ---------------------------------------------------------------------------------

/// Runs the branches a `baton.branch` request describes, for the parent's call number `call`;
/// the reply is `{"outcomes": [...], "chosen": index | null, "message": text}`.
pub(crate) async fn run(
    context: Arc<BranchContext>,
    calls: SharedCalls,
    call: u64,
    fuel: u64,
    request: Value,
) -> CallResult {
    let env = calls.branch_env();
    let settings = env.settings;
    let depth = context.id.depth() as u32 + 1;
    if depth > settings.max_depth {
        return Err(PlanError::new(
            HostException::BranchError,
            format!(
                "branches nest at most {} deep ([branch] max_depth); {} cannot start more",
                settings.max_depth,
                context.id.describe()
            ),
        )
        .into());
    }
    let options = Arc::new(options(&request)?);
    let child_name = |index: usize| context.id.child(call, index as u32);
    let mut runs = Runs {
        context: context.clone(),
        calls: calls.clone(),
        call,
        fuel,
        options: options.clone(),
        stuck_repeats: settings.stuck_repeats,
        slots: Vec::new(),
        ends: Vec::new(),
        order: Vec::new(),
        waves: 0,
    };
    let mut waves = Vec::new();
    if options.auto {
        let prior = options
            .priors
            .or_else(|| env.prior(&options.site))
            .unwrap_or_default();
        let room = env.headroom();
        let capped = room.calls.is_some() || room.tokens.is_some() || room.cost_usd.is_some();
        if !capped && prior.value.is_none() {
            return Err(PlanError::value_error(
                "branch() with n='auto' needs a budget to plan against: cap the run's budget \
                 (--max-cost, --max-tokens, --max-llm-calls) or give priors={'value': ...}",
            )
            .into());
        }
        let mut plan = Waves::new(prior, options.max_parallel_given);
        loop {
            let room = env.headroom();
            let spent = runs.spent();
            match plan.next(room, spent, runs.slots.len()) {
                Ok(size) => {
                    let first = runs.slots.len();
                    waves.push(json!({"size": size, "success": plan.success(first)}));
                    if runs.wave(size).await {
                        break;
                    }
                    // A budget that refused calls will refuse the next wave's too.
                    if runs.ends[first..].iter().flatten().any(
                        |end| matches!(end, End::Failed { kind, .. } if kind == "BudgetExceeded"),
                    ) {
                        waves.push(json!({"stopped": "the budget refused a call"}));
                        break;
                    }
                }
                Err(reason) => {
                    waves.push(json!({"stopped": reason}));
                    break;
                }
            }
        }
    } else {
        runs.wave(options.count).await;
    }
    env.record_site(&options.site, runs.figures());
    let Runs {
        slots, ends, order, ..
    } = runs;
    let decision = Decision {
        reduce: options.reduce,
        ends: &ends,
        order: &order,
    };
    let chosen = decision.chosen();
    let message = match chosen {
        Some(_) => String::new(),
        None if options.reduce == Reduce::All => String::new(),
        None => match waves.last().and_then(|wave| wave.get("stopped")) {
            Some(Value::String(reason)) => {
                format!("{} (n='auto' stopped: {reason})", nothing_chosen(&ends))
            }
            _ => nothing_chosen(&ends),
        },
    };

    let mut adopted = None;
    if let (true, Some(index)) = (options.adopt, chosen) {
        let workspace = lock(&slots[index].workspace).take();
        if let Some(workspace) = workspace {
            let result = tokio::task::spawn_blocking(move || workspace.adopt())
                .await
                .map_err(|error| format!("the adoption did not finish: {error}"))
                .and_then(|result| result);
            match result {
                Ok(changed) => adopted = Some(changed),
                Err(message) => {
                    return Err(PlanError::new(
                        HostException::BranchError,
                        format!(
                            "cannot adopt the changes of {}: {message}",
                            child_name(index).describe()
                        ),
                    )
                    .into())
                }
            }
        }
    }

    // A branch that diverged from the journal being replayed stops the whole run.
    if let Some(End::Diverged(message)) = ends
        .iter()
        .flatten()
        .find(|end| matches!(end, End::Diverged(_)))
    {
        return Err(CallError::Diverged(message.clone()));
    }
    let mut outcomes = Vec::with_capacity(ends.len());
    let mut printed = Vec::new();
    for (index, (slot, end)) in slots.iter().zip(&ends).enumerate() {
        outcomes.push(outcome(
            index,
            &child_name(index),
            options.label(index),
            slot,
            end.as_ref(),
            chosen,
            adopted,
        ));
        let printed_bytes = {
            let mut state = lock(&slot.activity.state);
            let mut bytes = std::mem::take(&mut state.output);
            if state.output_cut {
                bytes.extend_from_slice(
                    format!(
                        "\n[{}: output cut at {MAX_BRANCH_OUTPUT} bytes]\n",
                        child_name(index).describe()
                    )
                    .as_bytes(),
                );
            }
            bytes
        };
        if !printed_bytes.is_empty() {
            printed.push(Value::String(
                String::from_utf8_lossy(&printed_bytes).into_owned(),
            ));
        }
    }
    // Dropping the slots removes the branches' workspaces.
    drop(slots);
    Ok(json!({
        "outcomes": outcomes,
        "chosen": chosen,
        "message": message,
        "waves": waves,
        // Written to the parent's output by linker.rs, in branch order.
        "printed": printed,
    }))
}

/// One branch's outcome as the plan sees it (docs/abi.md, "Branches").
fn outcome(
    index: usize,
    id: &BranchId,
    label: Option<&str>,
    slot: &Slot,
    end: Option<&End>,
    chosen: Option<usize>,
    adopted: Option<usize>,
) -> Value {
    let spent = lock(&slot.budget).as_ref().map(Budget::spent);
    let state = lock(&slot.activity.state);
    let seconds = state.started.map_or(0.0, |t| t.elapsed().as_secs_f64());
    let mut trace = state.trace.clone();
    if state.trace_left_out > 0 {
        trace.push(json!({ "left_out": state.trace_left_out }));
    }
    let (exception, traceback) = match end {
        Some(End::Failed {
            exception,
            traceback,
            ..
        }) => (
            exception.clone().unwrap_or(Value::Null),
            traceback.clone().map_or(Value::Null, Value::String),
        ),
        _ => (Value::Null, Value::Null),
    };
    let (ok, valid, value, score, error) = match end {
        Some(End::Returned {
            value,
            valid,
            score,
        }) => (
            true,
            *valid,
            value.clone(),
            score.map_or(Value::Null, |s| json!(s)),
            None,
        ),
        Some(End::Failed { kind, message, .. }) => (
            false,
            false,
            Value::Null,
            Value::Null,
            Some((kind.clone(), message.clone())),
        ),
        // Never shown: a divergence ends the call before outcomes are made.
        Some(End::Diverged(message)) => (
            false,
            false,
            Value::Null,
            Value::Null,
            Some(("Divergence".to_string(), message.clone())),
        ),
        None => (
            false,
            false,
            Value::Null,
            Value::Null,
            Some((
                "Cancelled".to_string(),
                "the branch was cancelled".to_string(),
            )),
        ),
    };
    json!({
        "index": index,
        "branch": id.to_string(),
        "label": label,
        "ok": ok,
        "valid": valid,
        "value": value,
        "score": score,
        "error": error.as_ref().map(|(kind, message)| if message.is_empty() {
            kind.clone()
        } else {
            format!("{kind}: {message}")
        }),
        "error_type": error.as_ref().map(|(kind, _)| kind.clone()),
        "error_message": error.as_ref().map(|(_, message)| message.clone()),
        "exception": exception,
        "traceback": traceback,
        "cancelled": end.is_none(),
        "chosen": chosen == Some(index),
        "adopted": if chosen == Some(index) { adopted } else { None },
        "cost": spent.map_or(0.0, |s| s.cost_usd),
        "tokens": spent.map_or(0, |s| s.tokens()),
        "steps": state.steps,
        "seconds": seconds,
        "trace": trace,
    })
}
