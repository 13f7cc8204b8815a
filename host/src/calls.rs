//! The host calls a plan makes through the SDK (`bash`, `llm`, `log`, `inputs`, and the run's
//! result), and the one choke point they all pass through.
//!
//! Protocol (docs/abi.md, "Host calls"): the runtime sends a request as JSON text
//! (`baton.bash(ptr, len) -> reply_len`), the host keeps the reply, and the runtime fetches it
//! with `baton.reply(ptr)` into a buffer of `reply_len` bytes it allocated. A reply is
//! `{"ok": value}` or `{"error": {"type": "BudgetExceeded", "message": "..."}}`; the runtime
//! raises an error as that exception class. Requests are hostile input: every pointer is
//! bounds-checked, the text must be UTF-8 JSON, and a request of the wrong shape is answered
//! with a `TypeError`/`ValueError` reply rather than a trap, so the plan sees a Python error it
//! can act on.
//!
//! Every call goes through [`HostCalls::call`], the one door: its number in the instance (the
//! store counts them; the journal keys calls and names branches by it) and the [`Call`], typed by
//! kind, with its decoded request. That is the seam the journal wraps whole (record, replay,
//! resume) and that tests fill with fakes; the real capabilities are
//! [`crate::services::Services`]. A `branch` call carries the run of its branches
//! ([`BranchCall`]), which only the innermost layer starts, so a journal replaying the call
//! answers it without running a branch. How branches are bounded and informed (settings, the
//! budget's headroom, priors, the figures of call sites) is configuration, not a call: one
//! [`BranchEnv`] value, read once per `branch` call.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

pub use baton_abi::HostException;

use crate::branch_id::BranchId;
use crate::priors::{Prior, SiteFigures};

/// A call a plan can make. Each is the `baton.<name>` import of the same name, except
/// [`CallKind::Inputs`] (`baton.inputs`) which the runtime makes for `inputs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CallKind {
    Bash,
    Llm,
    Log,
    Inputs,
    /// `branch`/`parallel`: run by the host (`branch/`), journaled like the others.
    Branch,
}

impl CallKind {
    /// Whether the journal records the call (and numbers it): `bash`, `llm` and `branch` act
    /// outside the run; `log` and `inputs` do not.
    pub fn is_journaled(self) -> bool {
        matches!(self, CallKind::Bash | CallKind::Llm | CallKind::Branch)
    }

    pub fn name(self) -> &'static str {
        match self {
            CallKind::Bash => "bash",
            CallKind::Llm => "llm",
            CallKind::Log => "log",
            CallKind::Inputs => "inputs",
            CallKind::Branch => "branch",
        }
    }
}

/// An error a host call raises inside the plan: the Python exception class (one of
/// [`HostException`], which the runtime's table is generated from) and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    pub exception: HostException,
    pub message: String,
}

impl PlanError {
    pub fn new(exception: HostException, message: impl Into<String>) -> Self {
        PlanError {
            exception,
            message: message.into(),
        }
    }

    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new(HostException::TypeError, message)
    }

    pub fn value_error(message: impl Into<String>) -> Self {
        Self::new(HostException::ValueError, message)
    }
}

/// Why a host call returned no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// An exception raised inside the plan, which it may catch.
    Raise(PlanError),
    /// The call differs from the journal being replayed (`--resume`, `baton replay`): the run
    /// stops with [`HostError::Divergence`](crate::HostError::Divergence); the plan never sees
    /// it. The message says which call of which instance, where, and how it differs.
    Diverged(String),
}

impl From<PlanError> for CallError {
    fn from(error: PlanError) -> Self {
        CallError::Raise(error)
    }
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Raise(error) => write!(f, "{}: {}", error.exception, error.message),
            CallError::Diverged(message) => write!(f, "divergence from the journal: {message}"),
        }
    }
}

/// What a host call returns to the plan.
pub type CallResult = Result<Value, CallError>;

/// One call a plan makes, with its request (the JSON the runtime sent: an object of the
/// arguments the plan gave, by parameter name).
pub enum Call {
    Bash(Value),
    Llm(Value),
    Log(Value),
    Inputs,
    Branch(BranchCall),
}

/// A `branch` call: its request, and the run of the branches it describes (`branch/`).
pub struct BranchCall {
    pub request: Value,
    run: Box<dyn FnOnce() -> BoxFuture<'static, CallResult> + Send>,
}

impl BranchCall {
    /// `run` starts the branches `request` describes and answers the call.
    pub fn new(
        request: Value,
        run: impl FnOnce() -> BoxFuture<'static, CallResult> + Send + 'static,
    ) -> Self {
        BranchCall {
            request,
            run: Box::new(run),
        }
    }

    /// Runs the branches: what a [`HostCalls`] that lets plans branch does with the call.
    pub fn run(self) -> BoxFuture<'static, CallResult> {
        (self.run)()
    }
}

impl Call {
    pub fn kind(&self) -> CallKind {
        match self {
            Call::Bash(_) => CallKind::Bash,
            Call::Llm(_) => CallKind::Llm,
            Call::Log(_) => CallKind::Log,
            Call::Inputs => CallKind::Inputs,
            Call::Branch(_) => CallKind::Branch,
        }
    }

    /// The request (`null` for `inputs`).
    pub fn request(&self) -> &Value {
        static NONE: Value = Value::Null;
        match self {
            Call::Bash(request) | Call::Llm(request) | Call::Log(request) => request,
            Call::Branch(call) => &call.request,
            Call::Inputs => &NONE,
        }
    }
}

impl std::fmt::Debug for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({})", self.kind().name(), self.request())
    }
}

/// A boxed future, as host calls return them.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The capabilities behind the host calls.
pub trait HostCalls: Send + Sync + 'static {
    /// Performs one call. `seq` is the call's number in its instance: journaled calls
    /// ([`CallKind::is_journaled`]) are numbered from 0 in the order the instance makes them,
    /// and the others carry the number the next journaled call will have. A host that lets
    /// plans branch answers [`Call::Branch`] with [`BranchCall::run`].
    fn call(&self, seq: u64, call: Call) -> BoxFuture<'_, CallResult>;

    /// The capabilities of a new branch of this run or branch (`branch/`): its own workspace
    /// forked from this one, a budget drawn from this one. By default a run cannot branch.
    fn fork(&self, spec: ForkSpec) -> BoxFuture<'_, Result<Fork, PlanError>> {
        let _ = spec;
        Box::pin(async {
            Err(PlanError::new(
                HostException::BranchError,
                "this run cannot start branches (its host gives no way to fork)",
            ))
        })
    }

    /// How this run's (or branch's) branches are bounded and informed. By default: the
    /// default settings, no budget, no priors, figures kept nowhere.
    fn branch_env(&self) -> BranchEnv {
        BranchEnv::default()
    }
}

/// How an instance's branches are bounded and informed: configuration that the journal passes
/// through untouched (`journal.rs`).
#[derive(Debug, Clone, Default)]
pub struct BranchEnv {
    pub settings: BranchSettings,
    /// The instance's model budget (the run's, or a branch's drawn from it): what `n="auto"`
    /// plans against.
    pub budget: Option<baton_llm::Budget>,
    /// Learned priors of `branch` call sites (`baton run --priors`).
    pub priors: Arc<BTreeMap<String, Prior>>,
    /// Where what each `branch` call site's branches did is added up (`figures.json`, `baton
    /// priors`), if anywhere.
    pub sites: Option<Arc<Mutex<BTreeMap<String, SiteFigures>>>>,
}

impl BranchEnv {
    /// What the budget may still spend, for `n="auto"`.
    pub fn headroom(&self) -> baton_llm::Headroom {
        self.budget
            .as_ref()
            .map_or_else(baton_llm::Headroom::default, |budget| budget.headroom())
    }

    /// The learned prior of a call site, if any.
    pub fn prior(&self, site: &str) -> Option<Prior> {
        self.priors.get(site).copied()
    }

    /// Adds what a call site's branches did to the run's figures.
    pub fn record_site(&self, site: &str, figures: SiteFigures) {
        if let Some(sites) = &self.sites {
            crate::sync::lock(sites)
                .entry(site.to_string())
                .or_default()
                .add(&figures);
        }
    }
}

/// What a new branch is: where it sits in the tree and what it may spend.
#[derive(Debug, Clone, PartialEq)]
pub struct ForkSpec {
    /// The branch's name: its ancestry (`branch_id.rs`).
    pub id: BranchId,
    /// Caps of the branch's own budget, drawn from its parent's.
    pub budget: baton_llm::BudgetCaps,
}

/// A branch's capabilities, as [`HostCalls::fork`] makes them.
pub struct Fork {
    pub calls: SharedCalls,
    /// The branch's budget (for its outcome's tokens and cost), when it may call models.
    pub budget: Option<baton_llm::Budget>,
    /// The branch's workspace, when it has one: adopting applies its changes to the parent's.
    /// Dropping it removes the branch's directory.
    pub workspace: Option<Box<dyn ForkedWorkspace>>,
}

/// A branch's workspace, seen from the parent.
pub trait ForkedWorkspace: Send + Sync {
    /// Applies the branch's changes (added, modified, deleted files) to the parent's workspace;
    /// returns how many paths changed.
    fn adopt(&self) -> Result<usize, String>;
}

/// Bounds on branching (`[branch]` in baton.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BranchSettings {
    /// How deep branches may nest (a branch of a branch is depth 2).
    pub max_depth: u32,
    /// A branch that makes the same `bash` or `llm` request this many times in a row is stopped
    /// as stuck; 0 turns the check off.
    pub stuck_repeats: u32,
}

impl Default for BranchSettings {
    fn default() -> Self {
        BranchSettings {
            max_depth: 4,
            stuck_repeats: 3,
        }
    }
}

/// Host calls for a run granted nothing: every capability call is refused (the grant check
/// refuses such modules before they run, so this is a second line), `inputs` is `{}` and
/// `log` goes nowhere.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoCapabilities;

impl HostCalls for NoCapabilities {
    fn fork(&self, _spec: ForkSpec) -> BoxFuture<'_, Result<Fork, PlanError>> {
        Box::pin(async {
            Ok(Fork {
                calls: Arc::new(NoCapabilities),
                budget: None,
                workspace: None,
            })
        })
    }

    fn call(&self, _seq: u64, call: Call) -> BoxFuture<'_, CallResult> {
        Box::pin(async move {
            match call {
                Call::Inputs => Ok(json!({})),
                Call::Log(_) => Ok(Value::Null),
                // Branches have what their parent has: nothing.
                Call::Branch(branches) => branches.run().await,
                Call::Bash(_) | Call::Llm(_) => Err(PlanError::new(
                    HostException::RuntimeError,
                    format!("`{}` is not granted to this run", call.kind().name()),
                )
                .into()),
            }
        })
    }
}

/// Shared host calls, as a store holds them.
pub type SharedCalls = Arc<dyn HostCalls>;

/// Encodes a call's result as the reply text the runtime decodes. A divergence never reaches
/// the plan (the host call traps first); were it encoded, it would be a RuntimeError.
pub fn encode_reply(result: &CallResult) -> Vec<u8> {
    let reply = match result {
        Ok(value) => json!({ "ok": value }),
        Err(CallError::Raise(error)) => {
            json!({ "error": { "type": error.exception.name(), "message": error.message } })
        }
        Err(CallError::Diverged(message)) => {
            json!({ "error": { "type": HostException::RuntimeError.name(), "message": message } })
        }
    };
    // Serialising a `Value` cannot fail (its map keys are strings).
    serde_json::to_vec(&reply).unwrap_or_else(|_| b"{\"ok\": null}".to_vec())
}

/// Python's name for the type of a decoded JSON value, for error messages.
pub fn python_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// Reading a call's arguments, with CPython-like messages for the wrong types.
pub struct Args<'a> {
    function: &'static str,
    map: &'a serde_json::Map<String, Value>,
}

impl<'a> Args<'a> {
    pub fn new(function: &'static str, request: &'a Value) -> Result<Self, PlanError> {
        match request.as_object() {
            Some(map) => Ok(Args { function, map }),
            None => Err(PlanError::type_error(format!(
                "{function}() arguments must come as a dict, not {}",
                python_type(request)
            ))),
        }
    }

    /// The argument, or `None` when absent or given as `None`.
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|value| !value.is_null())
    }

    fn wrong(&self, name: &str, expected: &str, value: &Value) -> PlanError {
        PlanError::type_error(format!(
            "{}() argument '{name}' must be {expected}, not {}",
            self.function,
            python_type(value)
        ))
    }

    pub fn str(&self, name: &str) -> Result<Option<&'a str>, PlanError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(self.wrong(name, "str", other)),
        }
    }

    pub fn required_str(&self, name: &str) -> Result<&'a str, PlanError> {
        self.str(name)?.ok_or_else(|| {
            PlanError::type_error(format!(
                "{}() argument '{name}' must be str, not NoneType",
                self.function
            ))
        })
    }

    /// A number (int or float; bool is refused, unlike Python, because `timeout=True` is a bug).
    pub fn number(&self, name: &str) -> Result<Option<f64>, PlanError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(self.wrong(name, "int or float", other)),
        }
    }

    pub fn int(&self, name: &str) -> Result<Option<i64>, PlanError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) if n.is_i64() => Ok(n.as_i64()),
            Some(other) => Err(self.wrong(name, "int", other)),
        }
    }
}
