//! `branch` and `parallel` (docs/abi.md, "Branches"): the `baton.branch` host call.
//!
//! The runtime sends one request: the options, and one payload (the module's globals, the
//! callables and the validator, in the value encoding of runtime/wat/codec.wat) that the host
//! never looks inside. For each callable the host
//! 1. forks the capabilities ([`HostCalls::fork`]): a copy of the workspace, a budget drawn
//!    from the parent's, log lines marked with the branch's path;
//! 2. starts a fresh instance of the same module in a store of its own (fuel: what the parent
//!    had left), hands it the payload as the waiting reply and calls
//!    `baton_branch_main(len, index)`, which restores the globals, calls callable `index`, runs
//!    the validator and reports `{"value", "valid", "score"}` through `baton.result`;
//! 3. records its host calls ([`Activity`]: steps, a truncated trace, stuck detection) and keeps
//!    what it prints.
//!
//! Branches run concurrently (at most `max_parallel` at once, and the instance pool's slots).
//! As each ends, the reducer decides whether the result is known; with `stop_early` the others
//! are then cancelled: their tasks are aborted, which drops their stores at the next point
//! where they wait — a host call or an epoch yield — and with them their commands' processes
//! (the sandbox kills on drop) and their workspace directories. The chosen branch's workspace
//! changes are applied to the parent's (`adopt`). What the branches printed is written to the
//! parent's output afterwards, in branch order, so a run's output does not depend on timing.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use baton_llm::{Budget, BudgetCaps, Headroom, Spent};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use wasmtime::InstancePre;

use crate::calls::{
    path_text, python_type, CallKind, CallResult, ForkSpec, ForkedWorkspace, PlanError, SharedCalls,
};
use crate::engine;
use crate::run::{execute, new_store, Entry, HostError, HostState, Limits, RunOutcome};

/// Branches running in this process right now (for the progress display).
static ACTIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many branches are running in this process.
pub fn active_branches() -> usize {
    ACTIVE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Counts a branch as running until dropped (which cancellation does too).
struct Running;

impl Running {
    fn start() -> Running {
        ACTIVE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The most branches one call may start.
pub const MAX_BRANCHES: u64 = 10_000;
/// The most bytes of a branch's printed output kept; the rest is cut with a marker.
pub const MAX_BRANCH_OUTPUT: usize = 1 << 20;
/// The most host calls a branch's trace keeps (the first ones), and the most characters kept of
/// each request and reply.
pub const TRACE_ENTRIES: usize = 64;
pub const TRACE_TEXT: usize = 240;

/// What a store needs to start branches: the module, the limits, and where it sits.
pub(crate) struct BranchContext {
    pub(crate) pre: InstancePre<HostState>,
    pub(crate) limits: Limits,
    /// This instance's branch path (empty for the run itself).
    pub(crate) path: Vec<u32>,
}

/// The trap that stops a stuck branch.
#[derive(Debug)]
pub(crate) struct BranchStuck(pub(crate) String);

impl std::fmt::Display for BranchStuck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BranchStuck {}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}

// ----- a branch's record of what it did ---------------------------------------------------------

/// A branch's host calls and output, shared by its store and the call that started it (which
/// still reads them when the branch was cancelled).
pub(crate) struct Activity {
    stuck_repeats: u32,
    state: Mutex<ActivityState>,
}

#[derive(Default)]
struct ActivityState {
    started: Option<Instant>,
    steps: u64,
    trace: Vec<Value>,
    trace_left_out: u64,
    /// The last `bash`/`llm` request and how many times in a row it was made.
    last: Option<(CallKind, Value)>,
    repeats: u32,
    output: Vec<u8>,
    output_cut: bool,
}

fn truncated(text: &str) -> String {
    match text.char_indices().nth(TRACE_TEXT) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

impl Activity {
    fn new(stuck_repeats: u32) -> Self {
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
            Err(error) => truncated(&format!("{}: {}", error.exception, error.message)),
        };
        state.trace.push(json!({
            "call": kind.name(),
            "request": truncated(&request.to_string()),
            "ok": result.is_ok(),
            "reply": reply,
            "seconds": elapsed.as_secs_f64(),
        }));
    }

    fn print(&self, bytes: &[u8]) {
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

// ----- options ----------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reduce {
    FirstValid,
    Best,
    All,
    Vote,
}

struct Options {
    /// Branches to run (with `auto`: the first wave's upper bound is decided later).
    count: usize,
    /// `n="auto"`: run the one callable in waves (see [`Waves`]).
    auto: bool,
    priors: Option<Prior>,
    /// The first callable's name, the key of learned priors.
    site: String,
    reduce: Reduce,
    stop_early: bool,
    max_parallel: usize,
    /// `max_parallel` as the plan gave it.
    max_parallel_given: Option<usize>,
    budget: BudgetCaps,
    adopt: bool,
    payload: Arc<Vec<u8>>,
}

fn bool_option(request: &Value, name: &str, default: bool) -> Result<bool, PlanError> {
    match request.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(PlanError::type_error(format!(
            "branch() argument '{name}' must be bool, not {}",
            python_type(other)
        ))),
    }
}

fn options(request: &Value) -> Result<Options, PlanError> {
    let count = match request.get("count").and_then(Value::as_u64) {
        Some(n) if (1..=MAX_BRANCHES).contains(&n) => n as usize,
        Some(0) => {
            return Err(PlanError::value_error(
                "branch() needs at least one callable",
            ))
        }
        Some(n) => {
            return Err(PlanError::value_error(format!(
                "branch() may start at most {MAX_BRANCHES} branches at once, not {n}"
            )))
        }
        None => return Err(PlanError::type_error("branch() request has no count")),
    };
    let reduce = match request.get("reduce").and_then(Value::as_str) {
        None | Some("first_valid") => Reduce::FirstValid,
        Some("best") => Reduce::Best,
        Some("all") => Reduce::All,
        Some("vote") => Reduce::Vote,
        Some(other) => {
            return Err(PlanError::value_error(format!(
                "branch() argument 'reduce' must be 'first_valid', 'best', 'all', 'vote' or a \
                 function, not '{other}'"
            )))
        }
    };
    let max_parallel = match request.get("max_parallel") {
        None | Some(Value::Null) => count,
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n >= 1) => {
            n.as_u64().map_or(count, |n| n.min(count as u64) as usize)
        }
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => {
            return Err(PlanError::value_error(format!(
                "branch() argument 'max_parallel' must be at least 1, not {n}"
            )))
        }
        Some(other) => {
            return Err(PlanError::type_error(format!(
                "branch() argument 'max_parallel' must be int, not {}",
                python_type(other)
            )))
        }
    };
    let payload = request
        .get("payload")
        .ok_or_else(|| PlanError::type_error("branch() request has no payload"))?;
    let auto = bool_option(request, "auto", false)?;
    if auto && reduce != Reduce::FirstValid {
        return Err(PlanError::value_error(
            "branch() with n='auto' stops at the first valid result: use reduce='first_valid'",
        ));
    }
    Ok(Options {
        count,
        auto,
        priors: match request.get("priors") {
            None | Some(Value::Null) => None,
            Some(value) => Some(Prior::from_plan(value)?),
        },
        site: request
            .get("site")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string(),
        reduce,
        stop_early: bool_option(request, "stop_early", true)?,
        max_parallel: if auto {
            Waves::MAX_WAVE.max(max_parallel)
        } else {
            max_parallel
        },
        max_parallel_given: match request.get("max_parallel") {
            Some(Value::Number(n)) => n.as_u64().map(|n| n as usize),
            _ => None,
        },
        budget: budget_caps(request.get("budget"))?,
        adopt: bool_option(request, "adopt", true)?,
        payload: Arc::new(serde_json::to_vec(payload).unwrap_or_default()),
    })
}

/// `budget=`: a number (USD), or a dict of `calls`, `tokens` and `cost` (each optional).
fn budget_caps(value: Option<&Value>) -> Result<BudgetCaps, PlanError> {
    let wrong = |what: &Value| {
        PlanError::type_error(format!(
            "branch() argument 'budget' must be a number (USD) or a dict with 'calls', 'tokens' \
             and 'cost', not {}",
            python_type(what)
        ))
    };
    let cost = |value: &Value| -> Result<f64, PlanError> {
        match value.as_f64() {
            Some(c) if c.is_finite() && c >= 0.0 && !value.is_boolean() => Ok(c),
            Some(c) => Err(PlanError::value_error(format!(
                "branch() budget cost must be a number of USD, at least 0, not {c}"
            ))),
            None => Err(wrong(value)),
        }
    };
    let count = |name: &str, value: &Value| -> Result<u64, PlanError> {
        value.as_u64().ok_or_else(|| {
            PlanError::value_error(format!(
                "branch() budget '{name}' must be an int, at least 0, not {value}"
            ))
        })
    };
    match value {
        None | Some(Value::Null) => Ok(BudgetCaps::unlimited()),
        Some(Value::Number(_)) => Ok(BudgetCaps {
            max_cost_usd: Some(cost(value.unwrap_or(&Value::Null))?),
            ..BudgetCaps::unlimited()
        }),
        Some(Value::Object(map)) => {
            let mut caps = BudgetCaps::unlimited();
            for (key, value) in map {
                if value.is_null() {
                    continue;
                }
                match key.as_str() {
                    "calls" => caps.max_calls = Some(count(key, value)?),
                    "tokens" => caps.max_tokens = Some(count(key, value)?),
                    "cost" => caps.max_cost_usd = Some(cost(value)?),
                    other => {
                        return Err(PlanError::value_error(format!(
                            "branch() budget has no key '{other}' (it takes 'calls', 'tokens' \
                             and 'cost')"
                        )))
                    }
                }
            }
            Ok(caps)
        }
        Some(other) => Err(wrong(other)),
    }
}

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
    /// The callable or validator raised, a limit stopped it, it was stuck, or it could not be
    /// started. `kind` is the exception class (or `LimitExceeded`, `Stuck`, `Trap`).
    Failed {
        kind: String,
        message: String,
        /// The exception object, encoded, when the branch raised one it could copy out.
        exception: Option<Value>,
    },
}

impl End {
    fn failed(kind: &str, message: impl Into<String>) -> End {
        End::Failed {
            kind: kind.to_string(),
            message: message.into(),
            exception: None,
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
}

/// The exception class and message of a traceback's last line (`json.decoder.X: m` gives `X`).
fn exception_of(traceback: &str) -> (String, String) {
    let last = traceback.trim_end().lines().last().unwrap_or_default();
    let (class, message) = last.split_once(": ").unwrap_or((last, ""));
    let class = class.rsplit('.').next().unwrap_or(class);
    (class.to_string(), message.to_string())
}

fn end_of(report: Result<crate::run::RunReport, HostError>) -> End {
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
            RunOutcome::Exception { traceback } => {
                let (kind, message) = exception_of(&traceback);
                let exception = report
                    .result
                    .as_deref()
                    .and_then(|text| serde_json::from_str::<Value>(text).ok())
                    .and_then(|mut raised| raised.get_mut("raised").map(Value::take));
                End::Failed {
                    kind,
                    message,
                    exception,
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
        Err(HostError::Divergence(message)) => End::failed("Divergence", message),
        Err(error) => End::failed("Trap", error.to_string()),
    }
}

struct Branch {
    context: Arc<BranchContext>,
    calls: SharedCalls,
    options: Arc<Options>,
    slot: Arc<Slot>,
    fuel: u64,
    /// The outcome's index (and the last step of the branch's path).
    index: u32,
    /// Which callable of the payload it runs.
    callable: u32,
}

impl Branch {
    async fn run(self) -> (usize, End) {
        let index = self.index as usize;
        let _running = Running::start();
        lock(&self.slot.activity.state).started = Some(Instant::now());
        let mut path = self.context.path.clone();
        path.push(self.index);
        let spec = ForkSpec {
            path: path.clone(),
            budget: self.options.budget,
        };
        let fork = match self.calls.fork(spec).await {
            Ok(fork) => fork,
            Err(error) => return (index, End::failed(error.exception, error.message)),
        };
        *lock(&self.slot.budget) = fork.budget;
        *lock(&self.slot.workspace) = fork.workspace;
        (index, self.execute(fork.calls, path).await)
    }

    async fn execute(&self, calls: SharedCalls, path: Vec<u32>) -> End {
        let Ok(_pool_slot) = engine::instance_permits().acquire().await else {
            return End::failed("Trap", "the instance pool is closed");
        };
        let limits = Limits {
            fuel: self.fuel,
            ..self.context.limits
        };
        let context = Arc::new(BranchContext {
            pre: self.context.pre.clone(),
            limits,
            path,
        });
        let (sender, mut receiver) = mpsc::channel::<Vec<u8>>(crate::run::OUTPUT_CHANNEL_CHUNKS);
        let engine = self.context.pre.module().engine().clone();
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
        let pre = self.context.pre.clone();
        let run = execute(&pre, &limits, &mut store, entry);
        tokio::pin!(run);
        let report = loop {
            tokio::select! {
                report = &mut run => break report,
                Some(chunk) = receiver.recv() => activity.print(&chunk),
            }
        };
        while let Ok(chunk) = receiver.try_recv() {
            activity.print(&chunk);
        }
        end_of(report)
    }
}

// ----- choosing ---------------------------------------------------------------------------------

/// The reducer's view while branches end: whether the result is known already.
struct Decision<'a> {
    reduce: Reduce,
    ends: &'a [Option<End>],
    /// Branch indices in the order they ended.
    order: &'a [usize],
}

impl Decision<'_> {
    /// The chosen branch among those that ended (for `all`: none).
    fn chosen(&self) -> Option<usize> {
        let valid = |i: &usize| self.ends[*i].as_ref().is_some_and(End::is_valid);
        match self.reduce {
            Reduce::All => None,
            Reduce::FirstValid => self.order.iter().copied().find(|i| valid(i)),
            Reduce::Best => {
                let mut best: Option<(usize, Option<f64>)> = None;
                for index in (0..self.ends.len()).filter(valid) {
                    let score = match &self.ends[index] {
                        Some(End::Returned { score, .. }) => *score,
                        _ => None,
                    };
                    let better = match best {
                        None => true,
                        Some((_, current)) => match (score, current) {
                            (Some(s), Some(c)) => s > c,
                            (Some(_), None) => true,
                            _ => false,
                        },
                    };
                    if better {
                        best = Some((index, score));
                    }
                }
                best.map(|(index, _)| index)
            }
            Reduce::Vote => self.votes().first().map(|(first, _)| *first),
        }
    }

    /// Valid values' groups, most votes first (ties: the group whose first member comes
    /// first), as (lowest index, count).
    fn votes(&self) -> Vec<(usize, usize)> {
        let mut groups: Vec<(usize, usize, &Value)> = Vec::new();
        for (index, end) in self.ends.iter().enumerate() {
            if let Some(End::Returned {
                value, valid: true, ..
            }) = end
            {
                match groups.iter_mut().find(|(_, _, v)| *v == value) {
                    Some(group) => group.1 += 1,
                    None => groups.push((index, 1, value)),
                }
            }
        }
        groups.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        groups
            .into_iter()
            .map(|(first, count, _)| (first, count))
            .collect()
    }

    /// Whether the branches still running can no longer change the choice.
    fn settled(&self) -> bool {
        let running = self.ends.iter().filter(|end| end.is_none()).count();
        match self.reduce {
            Reduce::All | Reduce::Best => running == 0,
            Reduce::FirstValid => running == 0 || self.chosen().is_some(),
            Reduce::Vote => {
                let votes = self.votes();
                let leader = votes.first().map_or(0, |v| v.1);
                let runner_up = votes.get(1).map_or(0, |v| v.1);
                running == 0 || leader > runner_up + running
            }
        }
    }
}

/// Why nothing was chosen.
fn nothing_chosen(ends: &[Option<End>]) -> String {
    let mut raised: BTreeMap<String, usize> = BTreeMap::new();
    let (mut invalid, mut cancelled, mut failures) = (0, 0, 0);
    for end in ends {
        match end {
            None => cancelled += 1,
            Some(End::Returned { .. }) => invalid += 1,
            Some(End::Failed { kind, message, .. }) => {
                failures += 1;
                *raised.entry(format!("{kind}: {message}")).or_default() += 1;
            }
        }
    }
    let mut parts = Vec::new();
    if failures > 0 {
        let examples: Vec<String> = raised
            .iter()
            .take(3)
            .map(|(what, n)| {
                if *n > 1 {
                    format!("{what} (x{n})")
                } else {
                    what.clone()
                }
            })
            .collect();
        parts.push(format!("{failures} failed ({})", examples.join("; ")));
    }
    if invalid > 0 {
        parts.push(format!(
            "{invalid} returned a result the validator rejected"
        ));
    }
    if cancelled > 0 {
        parts.push(format!("{cancelled} cancelled"));
    }
    format!(
        "no branch produced a valid result ({} branches: {})",
        ends.len(),
        parts.join(", ")
    )
}

// ----- running branches -------------------------------------------------------------------------

/// The branches of one `branch` call, started in one wave or several (`n="auto"`).
struct Runs {
    context: Arc<BranchContext>,
    calls: SharedCalls,
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

// ----- n="auto" ---------------------------------------------------------------------------------

/// What a step is expected to do per attempt: the chance that an attempt is valid, and what it
/// spends. Given in the plan (`priors={"success": 0.3, "cost": 0.02}`), learned from earlier
/// runs (`baton priors`, `baton run --priors`), or these defaults.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Prior {
    /// Probability that one attempt is valid.
    pub success: f64,
    /// USD per attempt.
    pub cost: f64,
    /// Tokens per attempt.
    pub tokens: f64,
    /// Model calls per attempt.
    pub calls: f64,
    /// What a valid result is worth, in USD: a wave runs only while its expected gain
    /// (P(some attempt of it is valid) x value) covers its expected cost. None: no such check.
    pub value: Option<f64>,
    /// How much prior evidence `success` stands for, in attempts: after `f` failed attempts the
    /// estimate is `success * weight / (weight + f)`.
    pub weight: f64,
}

impl Default for Prior {
    fn default() -> Self {
        Prior {
            success: 0.5,
            cost: 0.0,
            tokens: 0.0,
            calls: 1.0,
            value: None,
            weight: 4.0,
        }
    }
}

impl Prior {
    fn from_plan(value: &Value) -> Result<Prior, PlanError> {
        let prior: Prior = serde_json::from_value(value.clone()).map_err(|error| {
            PlanError::value_error(format!(
                "branch() argument 'priors' must be a dict of success, cost, tokens, calls, \
                 value and weight: {error}"
            ))
        })?;
        let finite = |x: f64| x.is_finite() && x >= 0.0;
        let valid = prior.success > 0.0
            && prior.success < 1.0
            && finite(prior.cost)
            && finite(prior.tokens)
            && finite(prior.calls)
            && prior.weight > 0.0
            && prior.weight.is_finite()
            && prior.value.is_none_or(finite);
        if !valid {
            return Err(PlanError::value_error(
                "branch() priors: success must be in (0, 1); cost, tokens, calls and value at \
                 least 0; weight more than 0",
            ));
        }
        Ok(prior)
    }
}

/// The wave rule of `n="auto"` (docs/abi.md, "Branches"): each wave is the smallest number of
/// attempts that gives a valid one with probability [`Waves::TARGET`] at the current estimate
/// of the success rate, capped by `max_parallel` (default [`Waves::MAX_WAVE`]), by what the
/// budget's headroom can pay at the expected cost per attempt, and, with a `value`, to the
/// attempts whose expected gain covers their cost. It stops when a wave gives a valid result,
/// when the budget cannot pay one more attempt, when one more attempt is not worth its cost,
/// or after [`Waves::MAX_WAVES`] waves.
struct Waves {
    prior: Prior,
    cap: usize,
    waves: usize,
}

impl Waves {
    const TARGET: f64 = 0.9;
    const MAX_WAVE: usize = 16;
    const MAX_WAVES: usize = 8;

    fn new(prior: Prior, max_parallel: Option<usize>) -> Waves {
        Waves {
            prior,
            cap: max_parallel.unwrap_or(Self::MAX_WAVE).max(1),
            waves: 0,
        }
    }

    /// The estimated success rate after `attempts` attempts, none of them valid.
    fn success(&self, attempts: usize) -> f64 {
        let p = self.prior.success.clamp(1e-3, 1.0 - 1e-3);
        p * self.prior.weight / (self.prior.weight + attempts as f64)
    }

    /// The next wave's size, or why there is none. `spent`: what this call's branches spent.
    fn next(&mut self, room: Headroom, spent: Spent, attempts: usize) -> Result<usize, String> {
        if self.waves >= Self::MAX_WAVES {
            return Err(format!(
                "{} waves ran without a valid result",
                Self::MAX_WAVES
            ));
        }
        let p = self.success(attempts);
        // Per attempt: what the attempts so far spent on average, else the prior.
        let per = |observed: f64, prior: f64| {
            if attempts > 0 && observed > 0.0 {
                observed / attempts as f64
            } else {
                prior
            }
        };
        let cost = per(spent.cost_usd, self.prior.cost);
        let tokens = per(spent.tokens() as f64, self.prior.tokens);
        let calls = per(spent.calls as f64, self.prior.calls);
        let mut affordable = f64::INFINITY;
        let mut bounded = false;
        for (left, each) in [
            (room.cost_usd, cost),
            (room.tokens.map(|t| t as f64), tokens),
            (room.calls.map(|c| c as f64), calls),
        ] {
            if let Some(left) = left {
                bounded = true;
                if each > 0.0 {
                    affordable = affordable.min((left / each).floor());
                } else if left <= 0.0 {
                    affordable = 0.0;
                }
            }
        }
        if bounded && affordable < 1.0 {
            return Err("the budget cannot pay for another attempt".to_string());
        }
        let needed = ((1.0 - Self::TARGET).ln() / (1.0 - p).ln()).ceil().max(1.0);
        let mut size = needed.min(self.cap as f64).min(affordable);
        size = size.min((MAX_BRANCHES as usize).saturating_sub(attempts) as f64);
        if let Some(value) = self.prior.value {
            // The k-th attempt of a wave adds p (1-p)^(k-1) x value of expected gain.
            let mut worth = 0.0;
            while worth < size && p * (1.0 - p).powf(worth) * value >= cost {
                worth += 1.0;
            }
            if worth < 1.0 {
                return Err(format!(
                    "one more attempt is not worth its cost (success {p:.3} x value {value} < \
                     cost {cost})"
                ));
            }
            size = worth;
        }
        if size < 1.0 {
            return Err("no attempts left".to_string());
        }
        self.waves += 1;
        Ok(size as usize)
    }
}

/// One `branch` call site's figures (keyed by the first callable's name), which runs record in
/// `figures.json` and `baton priors` turns into [`Prior`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SiteFigures {
    /// Branches that ended (cancelled ones are not attempts).
    pub attempts: u64,
    /// Waves of branches started (one per call without `n="auto"`).
    pub waves: u64,
    pub valid: u64,
    pub llm_calls: u64,
    pub tokens: u64,
    pub cost_usd: f64,
}

impl SiteFigures {
    pub fn add(&mut self, other: &SiteFigures) {
        self.attempts += other.attempts;
        self.waves += other.waves;
        self.valid += other.valid;
        self.llm_calls += other.llm_calls;
        self.tokens += other.tokens;
        self.cost_usd += other.cost_usd;
    }

    /// The prior these figures give: the success rate with one success and one failure added
    /// (so a site seen once is not certain), and the mean spend per attempt.
    pub fn prior(&self) -> Prior {
        let n = self.attempts.max(1) as f64;
        Prior {
            success: (self.valid as f64 + 1.0) / (self.attempts as f64 + 2.0),
            cost: self.cost_usd / n,
            tokens: self.tokens as f64 / n,
            calls: (self.llm_calls as f64 / n).max(0.0),
            value: None,
            weight: (self.attempts as f64).clamp(1.0, 20.0),
        }
    }
}

// ----- the call ---------------------------------------------------------------------------------

/// Runs the branches a `baton.branch` request describes; the reply is
/// `{"outcomes": [...], "chosen": index | null, "message": text}`.
pub(crate) async fn run(
    context: Arc<BranchContext>,
    calls: SharedCalls,
    fuel: u64,
    request: Value,
) -> CallResult {
    let settings = calls.branch_settings();
    let depth = context.path.len() as u32 + 1;
    if depth > settings.max_depth {
        return Err(PlanError::new(
            "BranchError",
            format!(
                "branches nest at most {} deep ([branch] max_depth); branch {} cannot start more",
                settings.max_depth,
                path_text(&context.path)
            ),
        ));
    }
    let options = Arc::new(options(&request)?);
    let mut runs = Runs {
        context,
        calls: calls.clone(),
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
            .or_else(|| calls.prior(&options.site))
            .unwrap_or_default();
        let room = calls.headroom();
        let capped = room.calls.is_some() || room.tokens.is_some() || room.cost_usd.is_some();
        if !capped && prior.value.is_none() {
            return Err(PlanError::value_error(
                "branch() with n='auto' needs a budget to plan against: cap the run's budget \
                 (--max-cost, --max-tokens, --max-llm-calls) or give priors={'value': ...}",
            ));
        }
        let mut plan = Waves::new(prior, options.max_parallel_given);
        loop {
            let room = calls.headroom();
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
    calls.record_site(&options.site, runs.figures());
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
                        "BranchError",
                        format!("cannot adopt the changes of branch {index}: {message}"),
                    ))
                }
            }
        }
    }

    // A branch that diverged from the journal being replayed stops the whole run.
    if let Some(End::Failed { message, .. }) = ends
        .iter()
        .flatten()
        .find(|end| matches!(end, End::Failed { kind, .. } if kind == "Divergence"))
    {
        return Err(PlanError::new(crate::journal::DIVERGENCE, message.clone()));
    }
    let mut outcomes = Vec::with_capacity(ends.len());
    let mut printed = Vec::new();
    for (index, (slot, end)) in slots.iter().zip(&ends).enumerate() {
        outcomes.push(outcome(index, slot, end.as_ref(), chosen, adopted));
        let printed_bytes = {
            let mut state = lock(&slot.activity.state);
            let mut bytes = std::mem::take(&mut state.output);
            if state.output_cut {
                bytes.extend_from_slice(
                    format!("\n[branch {index}: output cut at {MAX_BRANCH_OUTPUT} bytes]\n")
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
        // Written to the parent's output by run.rs, in branch order.
        "printed": printed,
    }))
}

/// One branch's outcome as the plan sees it (docs/abi.md, "Branches").
fn outcome(
    index: usize,
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
    let exception = match end {
        Some(End::Failed {
            exception: Some(exception),
            ..
        }) => exception.clone(),
        _ => Value::Null,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn returned(value: Value, valid: bool, score: Option<f64>) -> Option<End> {
        Some(End::Returned {
            value,
            valid,
            score,
        })
    }

    #[test]
    fn vote_is_settled_once_no_runner_up_can_catch_up() {
        let ends = vec![
            returned(json!("a"), true, None),
            returned(json!("a"), true, None),
            returned(json!("b"), true, None),
            None,
        ];
        let order = [0, 1, 2];
        let decision = Decision {
            reduce: Reduce::Vote,
            ends: &ends,
            order: &order,
        };
        // a: 2, b: 1, one running: b could tie.
        assert!(!decision.settled());
        let ends = vec![
            returned(json!("a"), true, None),
            returned(json!("a"), true, None),
            returned(json!("a"), true, None),
            None,
            None,
        ];
        let decision = Decision {
            reduce: Reduce::Vote,
            ends: &ends,
            order: &order,
        };
        assert!(decision.settled());
        assert_eq!(decision.chosen(), Some(0));
    }

    #[test]
    fn best_prefers_scores_and_the_lower_index_on_ties() {
        let ends = vec![
            returned(json!(1), true, Some(0.5)),
            returned(json!(2), true, Some(0.9)),
            returned(json!(3), true, Some(0.9)),
            returned(json!(4), false, Some(5.0)),
            Some(End::failed("ValueError", "x")),
        ];
        let decision = Decision {
            reduce: Reduce::Best,
            ends: &ends,
            order: &[4, 2, 1, 0, 3],
        };
        assert!(decision.settled());
        assert_eq!(decision.chosen(), Some(1));
    }

    #[test]
    fn first_valid_is_the_first_to_end_validly() {
        let ends = vec![
            returned(json!(1), false, None),
            None,
            returned(json!(3), true, None),
        ];
        let decision = Decision {
            reduce: Reduce::FirstValid,
            ends: &ends,
            order: &[0, 2],
        };
        assert!(decision.settled());
        assert_eq!(decision.chosen(), Some(2));
    }

    #[test]
    fn nothing_chosen_says_why() {
        let ends = vec![
            returned(json!(1), false, None),
            Some(End::failed("ValueError", "bad")),
            Some(End::failed("ValueError", "bad")),
            None,
        ];
        assert_eq!(
            nothing_chosen(&ends),
            "no branch produced a valid result (4 branches: 2 failed (ValueError: bad (x2)), 1 \
             returned a result the validator rejected, 1 cancelled)"
        );
    }

    #[test]
    fn budgets_parse_with_messages() {
        assert_eq!(
            budget_caps(Some(&json!(0.5))).unwrap().max_cost_usd,
            Some(0.5)
        );
        let caps = budget_caps(Some(&json!({"calls": 3, "tokens": 100}))).unwrap();
        assert_eq!((caps.max_calls, caps.max_tokens), (Some(3), Some(100)));
        assert!(budget_caps(Some(&json!("lots")))
            .unwrap_err()
            .message
            .contains("not str"));
        assert!(budget_caps(Some(&json!({"dollars": 1})))
            .unwrap_err()
            .message
            .contains("no key 'dollars'"));
        assert!(budget_caps(Some(&json!(-1))).is_err());
    }

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

    #[test]
    fn traceback_classes() {
        assert_eq!(
            exception_of("Traceback...\n  File x\njson.decoder.JSONDecodeError: bad: x\n"),
            ("JSONDecodeError".to_string(), "bad: x".to_string())
        );
        assert_eq!(
            exception_of("Traceback\nKeyError\n"),
            ("KeyError".to_string(), String::new())
        );
    }
}
