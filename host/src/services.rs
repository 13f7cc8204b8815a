//! The real capabilities behind the host calls: `bash` in the OS sandbox (`baton-sandbox`),
//! `llm` through a provider and the run's budget (`baton-llm`), `log`, `inputs`, and the
//! per-call figures a run reports.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use baton_llm::{Budget, Client, LlmError, Message, Prompt, Request};
use baton_sandbox::{Command, CommandsCgroup, OverlayLayers, Sandbox};
use baton_workspace::overlay::{self, LayerTarget, OverlayFork};
use baton_workspace::Workspace;
use serde::Serialize;
use serde_json::{json, Value};

use crate::calls::{
    python_type, Args, BoxFuture, BranchEnv, BranchSettings, Call, CallError, CallKind, CallResult,
    Fork, ForkSpec, ForkedWorkspace, HostCalls, HostException, PlanError,
};
use crate::config::ForkMode;
use crate::disk_watch::DiskWatch;
use crate::priors::{Prior, SiteFigures};
use crate::run_limits::RunAccount;
use crate::sync::lock;

/// A workspace shared by a run (or branch) and the branches forked from it; `None` once the
/// run has taken it back to finish it.
pub type SharedWorkspace = Arc<Mutex<Option<Workspace>>>;

/// A run's or branch's workspace: a directory (the run's, or a copied fork), or an overlay
/// fork's layers.
#[derive(Clone)]
enum WorkspaceHandle {
    Dir(SharedWorkspace),
    Overlay(Arc<OverlayFork>),
}

/// The longest `timeout=` a plan may give `bash` (seconds); the run's own wall-clock limit
/// usually ends things sooner.
pub const MAX_BASH_TIMEOUT_SECS: f64 = 24.0 * 3600.0;
/// `bash`'s default timeout (seconds), as DESIGN.md gives it.
pub const DEFAULT_BASH_TIMEOUT_SECS: f64 = 60.0;

/// Where `log(...)` lines go.
pub type LogSink = Arc<dyn Fn(&str) + Send + Sync>;

/// `llm`: a provider client and the budget calls draw from.
#[derive(Clone)]
pub struct LlmAccess {
    pub client: Arc<Client>,
    pub budget: Budget,
}

/// The capabilities of one run (or branch): what is granted, and the figures of what was used.
pub struct Services {
    inputs: Value,
    sandbox: Option<Arc<Sandbox>>,
    llm: Option<LlmAccess>,
    log: LogSink,
    /// Shared with every branch, so the run's figures count its branches' calls.
    stats: Arc<Mutex<BTreeMap<&'static str, CallFigures>>>,
    workspace: Option<WorkspaceHandle>,
    /// Where branches' workspaces are forked (`<run dir>/branches/<name>/`, the name as
    /// [`BranchId::dir_name`](crate::BranchId::dir_name) gives it).
    branches_dir: Option<PathBuf>,
    fork_mode: ForkMode,
    /// Whether overlay forks work here, found out once per run (shared with every branch).
    overlay_works: Arc<tokio::sync::OnceCell<bool>>,
    settings: BranchSettings,
    /// Learned priors of `branch` call sites (`baton run --priors`).
    priors: Arc<BTreeMap<String, Prior>>,
    /// What each `branch` call site's branches did, shared with every branch.
    sites: Arc<Mutex<BTreeMap<String, SiteFigures>>>,
    /// The cgroup of all the run's commands, watched for memory kills (shared with branches).
    commands: Option<Arc<CommandsWatch>>,
    /// The run directory's growth, measured after commands and forks (and now and then after model calls).
    disk: Option<Arc<DiskWatch>>,
}

/// The reply of a call after which the run was stopped by a run-wide limit: linker.rs traps on the
/// run's account as the call returns, so the plan never sees it.
fn run_stopped(class: HostException) -> PlanError {
    PlanError::new(class, "the run was stopped by a run-wide limit")
}

/// The run's commands cgroup, and the account a memory kill of one of its commands stops the
/// run through.
pub struct CommandsWatch {
    /// Held for the run: dropped (and removed) when the run's services are.
    _cgroup: CommandsCgroup,
    account: Arc<RunAccount>,
    memory_mib: u64,
}

impl CommandsWatch {
    pub fn new(cgroup: CommandsCgroup, account: Arc<RunAccount>, memory_mib: u64) -> Self {
        CommandsWatch {
            _cgroup: cgroup,
            account,
            memory_mib,
        }
    }

    /// After a command: the kernel killed one of its processes for memory, so the commands
    /// reached their cap (the run's cgroup, or the command's own), and the run stops. Returns
    /// whether it did.
    fn check(&self, output: &baton_sandbox::Output) -> bool {
        if output.memory_kills == 0 {
            return false;
        }
        self.account.stop_for_commands(format!(
            "memory limit of the run's commands exceeded ({} MiB for all its commands \
             together): the kernel killed a command for memory",
            self.memory_mib
        ));
        true
    }
}

/// Figures of one kind of host call in a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CallFigures {
    pub calls: u64,
    /// Calls answered with an error (raised in the plan).
    pub errors: u64,
    pub seconds: f64,
    /// `bash`: commands that hit their timeout.
    #[serde(skip_serializing_if = "is_zero")]
    pub timed_out: u64,
    /// `llm`: tokens in and out, and cost in USD.
    #[serde(skip_serializing_if = "is_zero")]
    pub input_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub output_tokens: u64,
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub cost_usd: f64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_zero_f64(n: &f64) -> bool {
    *n == 0.0
}

impl Services {
    /// A run with `inputs` (a JSON object) and nothing granted; add capabilities with
    /// [`Services::with_bash`] and [`Services::with_llm`].
    pub fn new(inputs: Value, log: LogSink) -> Self {
        Services {
            inputs,
            sandbox: None,
            llm: None,
            log,
            stats: Arc::default(),
            workspace: None,
            branches_dir: None,
            fork_mode: ForkMode::default(),
            overlay_works: Arc::default(),
            settings: BranchSettings::default(),
            priors: Arc::default(),
            sites: Arc::default(),
            commands: None,
            disk: None,
        }
    }

    /// Measures the run directory against its disk budget after commands, model calls and
    /// forks (a run that grew past it is stopped through the watch's account).
    pub fn with_disk_watch(mut self, watch: DiskWatch) -> Self {
        self.disk = Some(Arc::new(watch));
        self
    }

    /// Measures the run directory (off the async threads: the walk is blocking); true when the
    /// run was stopped for it. `every_time` false: at most once a second (model calls).
    async fn disk_exceeded(&self, every_time: bool) -> bool {
        let Some(watch) = self.disk.clone() else {
            return false;
        };
        tokio::task::spawn_blocking(move || match every_time {
            true => watch.check(),
            false => watch.check_now_and_then(),
        })
        .await
        .unwrap_or(false)
    }

    /// Watches the run's commands cgroup: a memory kill in it stops the run through `account`.
    pub fn with_commands_watch(mut self, watch: CommandsWatch) -> Self {
        self.commands = Some(Arc::new(watch));
        self
    }

    /// Priors of `branch` call sites by the first callable's name, for `n="auto"`.
    pub fn with_priors(mut self, priors: BTreeMap<String, Prior>) -> Self {
        self.priors = Arc::new(priors);
        self
    }

    /// What each `branch` call site's branches did, summed over the run.
    pub fn site_figures(&self) -> BTreeMap<String, SiteFigures> {
        lock(&self.sites).clone()
    }

    /// The run's workspace (bash works in it; branches fork it) and where branches' forks go.
    pub fn with_workspace(mut self, workspace: SharedWorkspace, branches_dir: PathBuf) -> Self {
        self.workspace = Some(WorkspaceHandle::Dir(workspace));
        self.branches_dir = Some(branches_dir);
        self
    }

    /// How branches' workspaces are forked (`[branch] workspaces`).
    pub fn with_fork_mode(mut self, mode: ForkMode) -> Self {
        self.fork_mode = mode;
        self
    }

    /// Whether this run forks branches' workspaces as overlays.
    async fn use_overlay(&self, sandbox: &Sandbox, branches: &std::path::Path) -> bool {
        match self.fork_mode {
            ForkMode::Copy => false,
            ForkMode::Overlay => true,
            ForkMode::Auto => {
                *self
                    .overlay_works
                    .get_or_init(|| async move {
                        sandbox
                            .overlay_works(&branches.join(".overlay-probe"))
                            .await
                    })
                    .await
            }
        }
    }

    pub fn with_branch_settings(mut self, settings: BranchSettings) -> Self {
        self.settings = settings;
        self
    }

    pub fn with_bash(mut self, sandbox: Arc<Sandbox>) -> Self {
        self.sandbox = Some(sandbox);
        self
    }

    pub fn with_llm(mut self, llm: LlmAccess) -> Self {
        self.llm = Some(llm);
        self
    }

    /// Figures per host call name (`bash`, `llm`, `log`, `inputs`) so far.
    pub fn figures(&self) -> BTreeMap<&'static str, CallFigures> {
        self.lock_stats().clone()
    }

    fn lock_stats(&self) -> MutexGuard<'_, BTreeMap<&'static str, CallFigures>> {
        lock(&self.stats)
    }

    /// A copy of the parent's workspace at `dir/workspace`, made off the async threads. A branch
    /// cancelled while the copy is being made drops this future, but the copy goes on in its
    /// thread: whichever of the two finishes last removes the directory.
    async fn copy_fork(
        &self,
        parent: &SharedWorkspace,
        dir: &std::path::Path,
        path: &str,
    ) -> Result<Workspace, PlanError> {
        // A directory left by an interrupted run (`--resume`): the copy starts again from the
        // parent's files.
        let _ = std::fs::remove_dir_all(dir);
        let (parent_cell, fork_dir) = (parent.clone(), dir.to_path_buf());
        let handoff = Arc::new(Mutex::new(Handoff::default()));
        let guard = HandoffGuard {
            handoff: handoff.clone(),
            dir: dir.to_path_buf(),
            armed: true,
        };
        let fork = tokio::task::spawn_blocking(move || -> Result<Workspace, String> {
            let made = (|| {
                std::fs::create_dir_all(&fork_dir)
                    .map_err(|error| format!("cannot create `{}`: {error}", fork_dir.display()))?;
                let guard = lock(&parent_cell);
                let parent = guard
                    .as_ref()
                    .ok_or_else(|| "the parent's workspace is already finished".to_string())?;
                parent.fork(&fork_dir).map_err(|error| error.to_string())
            })();
            let mut state = lock(&handoff);
            if state.abandoned {
                drop(made);
                let _ = std::fs::remove_dir_all(&fork_dir);
                return Err("the branch was cancelled".to_string());
            }
            state.done = true;
            made
        })
        .await
        .map_err(|error| format!("the fork did not finish: {error}"))
        .and_then(|result| result);
        let mut guard = guard;
        guard.armed = false;
        fork.map_err(|message| {
            let _ = std::fs::remove_dir_all(dir);
            PlanError::new(
                HostException::BranchError,
                format!("cannot fork the workspace for branch {path}: {message}"),
            )
        })
    }

    /// A branch's capabilities: the same grants, a budget drawn from this one, log lines
    /// prefixed with the branch's path, and (with `bash`) a fork of this workspace, made off the
    /// async threads because copying a tree blocks.
    async fn fork_branch(&self, spec: ForkSpec) -> Result<Fork, PlanError> {
        let path = spec.id.to_string();
        let budget = self.llm.as_ref().map(|llm| llm.budget.child(spec.budget));
        let parent_log = self.log.clone();
        let prefix = format!("[branch {path}] ");
        let log: LogSink = Arc::new(move |line: &str| parent_log(&format!("{prefix}{line}")));
        let mut child = Services {
            inputs: self.inputs.clone(),
            sandbox: self.sandbox.clone(),
            llm: self
                .llm
                .as_ref()
                .zip(budget.clone())
                .map(|(llm, budget)| LlmAccess {
                    client: llm.client.clone(),
                    budget,
                }),
            log,
            stats: self.stats.clone(),
            workspace: None,
            branches_dir: self.branches_dir.clone(),
            fork_mode: self.fork_mode,
            overlay_works: self.overlay_works.clone(),
            settings: self.settings,
            priors: self.priors.clone(),
            sites: self.sites.clone(),
            commands: self.commands.clone(),
            disk: self.disk.clone(),
        };
        let mut forked: Option<Box<dyn ForkedWorkspace>> = None;
        if let (Some(sandbox), Some(parent), Some(branches)) =
            (&self.sandbox, &self.workspace, &self.branches_dir)
        {
            // Side by side, not nested: a copied branch's directory is its workspace.
            let dir = branches.join(spec.id.dir_name());
            if self.use_overlay(sandbox, branches).await {
                let lowers = match parent {
                    WorkspaceHandle::Dir(cell) => match lock(cell).as_ref() {
                        Some(workspace) => vec![workspace.path().to_path_buf()],
                        None => {
                            return Err(PlanError::new(
                                HostException::BranchError,
                                "the parent's workspace is already finished",
                            ))
                        }
                    },
                    WorkspaceHandle::Overlay(layers) => layers.stacked(),
                };
                let fork = OverlayFork::create(&dir, lowers).map_err(|error| {
                    PlanError::new(
                        HostException::BranchError,
                        format!("cannot fork the workspace for branch {path}: {error}"),
                    )
                })?;
                let fork = Arc::new(fork);
                child.sandbox = Some(Arc::new(sandbox.with_overlay(
                    fork.upper(),
                    OverlayLayers {
                        lowers: fork.lowers().to_vec(),
                        work: fork.work().to_path_buf(),
                    },
                )));
                child.workspace = Some(WorkspaceHandle::Overlay(fork.clone()));
                forked = Some(Box::new(OverlayBranch {
                    parent: parent.clone(),
                    fork,
                }));
            } else {
                let WorkspaceHandle::Dir(parent_cell) = parent else {
                    return Err(PlanError::new(
                        HostException::BranchError,
                        "a branch of an overlay branch cannot be a copy",
                    ));
                };
                let workspace = self.copy_fork(parent_cell, &dir, &path).await?;
                if self.disk_exceeded(true).await {
                    return Err(run_stopped(HostException::BranchError));
                }
                child.sandbox = Some(Arc::new(sandbox.with_private_workspace(workspace.path())));
                let cell: SharedWorkspace = Arc::new(Mutex::new(Some(workspace)));
                child.workspace = Some(WorkspaceHandle::Dir(cell.clone()));
                forked = Some(Box::new(BranchWorkspace {
                    parent: parent_cell.clone(),
                    child: cell,
                    dir,
                }));
            }
        }
        Ok(Fork {
            calls: Arc::new(child),
            budget,
            workspace: forked,
        })
    }

    fn record(&self, kind: CallKind, started: Instant, update: impl FnOnce(&mut CallFigures)) {
        let mut stats = self.lock_stats();
        let figures = stats.entry(kind.name()).or_default();
        figures.calls += 1;
        figures.seconds += started.elapsed().as_secs_f64();
        update(figures);
    }

    async fn bash(&self, request: &Value) -> Result<Value, PlanError> {
        let started = Instant::now();
        let result = self.run_bash(request).await;
        let timed_out = matches!(&result, Ok(v) if v["timed_out"] == Value::Bool(true));
        self.record(CallKind::Bash, started, |figures| {
            figures.errors += u64::from(result.is_err());
            figures.timed_out += u64::from(timed_out);
        });
        result
    }

    async fn run_bash(&self, request: &Value) -> Result<Value, PlanError> {
        let args = Args::new("bash", request)?;
        let script = args.required_str("command")?;
        let timeout = args.number("timeout")?.unwrap_or(DEFAULT_BASH_TIMEOUT_SECS);
        if !(timeout > 0.0 && timeout <= MAX_BASH_TIMEOUT_SECS) {
            return Err(PlanError::value_error(format!(
                "bash() timeout must be more than 0 and at most {MAX_BASH_TIMEOUT_SECS} seconds, \
                 not {timeout}"
            )));
        }
        let stdin = args.str("input")?.map(|text| text.as_bytes().to_vec());
        let Some(sandbox) = &self.sandbox else {
            return Err(PlanError::new(
                HostException::SandboxError,
                "bash is not granted to this run (grant it in baton.toml or with --grant bash)",
            ));
        };
        let output = sandbox
            .run(Command {
                script: script.to_owned(),
                stdin,
                timeout: Duration::from_secs_f64(timeout),
            })
            .await
            .map_err(|error| PlanError::new(HostException::SandboxError, error.to_string()))?;
        let commands_killed = self
            .commands
            .as_ref()
            .is_some_and(|watch| watch.check(&output));
        if commands_killed || self.disk_exceeded(true).await {
            return Err(run_stopped(HostException::SandboxError));
        }
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let ok = output.exit_code == 0 && !output.timed_out;
        Ok(json!({
            "returncode": output.exit_code,
            "stdout": stdout,
            "stderr": stderr,
            "timed_out": output.timed_out,
            "ok": ok,
            "output": format!("{stdout}{stderr}"),
        }))
    }

    async fn llm(&self, request: &Value) -> Result<Value, PlanError> {
        let started = Instant::now();
        let result = self.call_llm(request).await;
        let usage = result.as_ref().ok().map(|(_, reply)| reply.clone());
        self.record(CallKind::Llm, started, |figures| {
            figures.errors += u64::from(usage.is_none());
            if let Some(reply) = &usage {
                figures.input_tokens += reply.usage.input_tokens;
                figures.output_tokens += reply.usage.output_tokens;
                figures.cost_usd += reply.cost_usd;
            }
        });
        result.map(|(text, _)| text)
    }

    async fn call_llm(&self, request: &Value) -> Result<(Value, baton_llm::Reply), PlanError> {
        let args = Args::new("llm", request)?;
        let prompt = match args.get("prompt") {
            Some(Value::String(text)) => Prompt::Text(text.clone()),
            Some(Value::Array(items)) => Prompt::Messages(messages(items)?),
            Some(other) => {
                return Err(PlanError::type_error(format!(
                    "llm() argument 'prompt' must be str or a list of messages, not {}",
                    python_type(other)
                )))
            }
            None => {
                return Err(PlanError::type_error(
                    "llm() argument 'prompt' must be str or a list of messages, not NoneType",
                ))
            }
        };
        let mut model_request = Request::new(prompt, args.str("system")?.map(str::to_owned));
        if let Some(model) = args.str("model")? {
            model_request = model_request.with_model(model);
        }
        if let Some(temperature) = args.number("temperature")? {
            model_request = model_request.with_temperature(temperature);
        }
        if let Some(max_tokens) = args.int("max_tokens")? {
            let max_tokens = u32::try_from(max_tokens)
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| {
                    PlanError::value_error(format!(
                        "llm() max_tokens must be a positive int, not {max_tokens}"
                    ))
                })?;
            model_request = model_request.with_max_tokens(max_tokens);
        }
        match args.get("stop") {
            None => {}
            Some(Value::String(stop)) => {
                model_request = model_request.with_stop(vec![stop.clone()])
            }
            Some(Value::Array(items)) => {
                let stops = items
                    .iter()
                    .map(|item| match item {
                        Value::String(stop) => Ok(stop.clone()),
                        other => Err(PlanError::type_error(format!(
                            "llm() stop sequences must be str, not {}",
                            python_type(other)
                        ))),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                model_request = model_request.with_stop(stops);
            }
            Some(other) => {
                return Err(PlanError::type_error(format!(
                    "llm() argument 'stop' must be str or a list of str, not {}",
                    python_type(other)
                )))
            }
        }
        let Some(llm) = &self.llm else {
            return Err(PlanError::new(
                HostException::LLMError,
                "llm is not granted to this run (grant it in baton.toml or with --grant llm)",
            ));
        };
        match llm.client.complete(&llm.budget, model_request).await {
            Ok(reply) => Ok((Value::String(reply.text.clone()), reply)),
            Err(error @ LlmError::BudgetExceeded { .. }) => Err(PlanError::new(
                HostException::BudgetExceeded,
                error.to_string(),
            )),
            Err(error @ LlmError::InvalidRequest(_)) => {
                Err(PlanError::value_error(error.to_string()))
            }
            Err(error) => Err(PlanError::new(HostException::LLMError, error.to_string())),
        }
    }
}

/// `[{"role": ..., "content": ...}, ...]` as messages.
fn messages(items: &[Value]) -> Result<Vec<Message>, PlanError> {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let field = |name: &str| match item.get(name) {
                Some(Value::String(text)) => Ok(text.clone()),
                Some(other) => Err(PlanError::type_error(format!(
                    "llm() prompt message {index}: '{name}' must be str, not {}",
                    python_type(other)
                ))),
                None => Err(PlanError::type_error(format!(
                    "llm() prompt message {index} must be a dict with 'role' and 'content', \
                     not {}",
                    python_type(item)
                ))),
            };
            Ok(Message::new(field("role")?, field("content")?))
        })
        .collect()
}

/// Who cleans up a fork whose branch was cancelled while it was being copied.
#[derive(Default)]
struct Handoff {
    /// The branch went away before taking the fork.
    abandoned: bool,
    /// The copy finished and its result was handed over (or lost with the branch).
    done: bool,
}

/// Marks the fork abandoned when the branch's future is dropped before it took the fork, and
/// removes the directory if the copy already finished.
struct HandoffGuard {
    handoff: Arc<Mutex<Handoff>>,
    dir: PathBuf,
    armed: bool,
}

impl Drop for HandoffGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let mut state = lock(&self.handoff);
        state.abandoned = true;
        if state.done {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// A branch's overlay fork, seen from its parent. Dropping it removes the branch's layers.
struct OverlayBranch {
    parent: WorkspaceHandle,
    fork: Arc<OverlayFork>,
}

impl ForkedWorkspace for OverlayBranch {
    fn adopt(&self) -> Result<usize, String> {
        let ops = self.fork.changes().map_err(|error| error.to_string())?;
        let applied = match &self.parent {
            WorkspaceHandle::Dir(cell) => {
                let parent = lock(cell);
                let parent = parent
                    .as_ref()
                    .ok_or_else(|| "the parent's workspace is already finished".to_string())?;
                overlay::apply(&ops, self.fork.upper(), LayerTarget::Plain(parent.path()))
            }
            WorkspaceHandle::Overlay(parent) => {
                overlay::apply(&ops, self.fork.upper(), LayerTarget::Upper(parent.upper()))
            }
        };
        applied.map_err(|error| error.to_string())
    }
}

impl Drop for OverlayBranch {
    fn drop(&mut self) {
        self.fork.remove();
    }
}

/// A branch's fork of its parent's workspace. Dropping it removes the branch's directory.
struct BranchWorkspace {
    parent: SharedWorkspace,
    child: SharedWorkspace,
    dir: PathBuf,
}

impl ForkedWorkspace for BranchWorkspace {
    fn adopt(&self) -> Result<usize, String> {
        let child = lock(&self.child);
        let child = child
            .as_ref()
            .ok_or_else(|| "the branch's workspace is gone".to_string())?;
        let mut parent = lock(&self.parent);
        let parent = parent
            .as_mut()
            .ok_or_else(|| "the parent's workspace is already finished".to_string())?;
        parent
            .adopt(child)
            .map(|set| set.changes.len())
            .map_err(|error| error.to_string())
    }
}

impl Drop for BranchWorkspace {
    fn drop(&mut self) {
        lock(&self.child).take();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl HostCalls for Services {
    fn fork(&self, spec: ForkSpec) -> BoxFuture<'_, Result<Fork, PlanError>> {
        Box::pin(self.fork_branch(spec))
    }

    fn branch_env(&self) -> BranchEnv {
        BranchEnv {
            settings: self.settings,
            budget: self.llm.as_ref().map(|llm| llm.budget.clone()),
            priors: self.priors.clone(),
            sites: Some(self.sites.clone()),
        }
    }

    fn call(&self, _seq: u64, call: Call) -> BoxFuture<'_, CallResult> {
        Box::pin(async move {
            let result = match call {
                Call::Bash(request) => self.bash(&request).await,
                Call::Llm(request) => {
                    let reply = self.llm(&request).await;
                    // Replies land in the journal: they count against the disk budget too.
                    if self.disk_exceeded(false).await {
                        return Err(run_stopped(HostException::LLMError).into());
                    }
                    reply
                }
                Call::Log(request) => {
                    let started = Instant::now();
                    if let Some(line) = request.get("line").and_then(Value::as_str) {
                        (self.log)(line);
                    }
                    self.record(CallKind::Log, started, |_| {});
                    Ok(Value::Null)
                }
                Call::Inputs => Ok(self.inputs.clone()),
                // The host runs branches itself (`branch/`), with the capabilities `fork` gives.
                Call::Branch(branches) => return branches.run().await,
            };
            result.map_err(CallError::from)
        })
    }
}
