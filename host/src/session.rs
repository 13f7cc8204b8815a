//! One run of a plan from start to finish, as `baton run` does it: grants checked against the
//! module's imports, a run directory, the workspace, the capabilities (sandbox, model client,
//! budget), the run itself, and what is kept afterwards.
//!
//! The run directory holds:
//! - `plan.sha256`: SHA-256 of the module that ran (and `plan.py`, the source, when there is one);
//! - `config.toml`: the effective configuration (file + flags; no secrets: keys are only named);
//! - `inputs.json`: the inputs;
//! - `log.txt`: the plan's `log(...)` lines;
//! - `result.json`: what `main` returned (when the plan has one and it returned);
//! - `figures.json`: outcome, wall time, per host call: calls, errors, seconds, tokens, cost; and
//!   per `branch` call site (the first callable's name): attempts, valid ones, model calls,
//!   tokens and cost, which `baton priors` turns into priors for `n="auto"`;
//! - `workspace/`: the workspace (fresh, or the copy of `--workspace DIR`), and
//!   `changes.patch`: what the run changed in it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use baton_llm::{Budget, Client, ProviderSpec};
use baton_sandbox::{HelperExe, Sandbox};
use baton_workspace::{Finish, Workspace};
use serde_json::{json, Value};

use crate::branch::Prior;
use crate::cache::{hex, module_hash, ModuleCache};
use crate::config::{check_grants, Config, GrantError, SandboxMode, WorkspaceMode};
use crate::run::{HostError, RunOutcome};
use crate::services::{LlmAccess, LogSink, Services, SharedWorkspace};

/// Where branches' workspaces are forked, inside the run directory (removed as they end).
const BRANCHES_DIR: &str = "branches";

/// What a run needs.
pub struct RunSpec<'a> {
    /// The compiled module.
    pub module: &'a [u8],
    /// The plan's source, kept in the run directory, when the run started from source.
    pub source: Option<&'a str>,
    pub config: Config,
    /// `llm` provider chosen on the command line (`script:FILE`, `openai[:MODEL]`).
    pub provider: Option<ProviderSpec>,
    /// The inputs (a JSON object).
    pub inputs: Value,
    /// The run directory (created; if it exists it must be empty); `None`: a new directory
    /// under `runs_base`.
    pub run_dir: Option<PathBuf>,
    /// Where new run directories are made (`baton run`: `.baton/runs`).
    pub runs_base: PathBuf,
    /// Where `log(...)` lines go besides `log.txt` (the command line: stderr).
    pub log_echo: Option<LogSink>,
    /// Learned priors of `branch` call sites, for `n="auto"` (`baton priors`).
    pub priors: BTreeMap<String, Prior>,
}

/// How a run went.
#[derive(Debug)]
pub struct RunRecord {
    pub outcome: RunOutcome,
    /// JSON text of `main`'s return value.
    pub result: Option<String>,
    pub run_dir: PathBuf,
    /// What the run changed in its workspace (absent when the workspace could not be finished;
    /// `workspace_error` says why).
    pub workspace: Option<Finish>,
    pub workspace_error: Option<String>,
    /// `figures.json`'s content.
    pub figures: Value,
}

/// Why a run could not start, or ended without an outcome.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Host(#[from] HostError),
    #[error("{0}")]
    Grants(#[from] GrantError),
    /// Setting up the run directory, workspace, sandbox or model client failed.
    #[error("{0}")]
    Setup(String),
}

impl SessionError {
    fn setup(what: impl std::fmt::Display) -> Self {
        SessionError::Setup(what.to_string())
    }
}

/// Runs a plan as configured, writing what it prints to `stdout`. Fails before running anything
/// when the module is refused, a capability it needs is not granted, or the run cannot be set
/// up. A run that started always leaves its run directory complete, whatever the outcome.
pub fn run_plan(spec: RunSpec<'_>, stdout: &mut dyn Write) -> Result<RunRecord, SessionError> {
    let info = crate::validate_module(spec.module).map_err(HostError::from)?;
    check_grants(
        info.imports.iter().map(|import| import.name.as_str()),
        &spec.config.grants,
    )?;
    let prepared = ModuleCache::global().prepare(spec.module)?;

    let run_dir = match &spec.run_dir {
        Some(dir) => dir.clone(),
        None => new_run_dir(&spec.runs_base, spec.module)?,
    };
    std::fs::create_dir_all(&run_dir).map_err(|error| {
        SessionError::setup(format!(
            "cannot create the run directory `{}`: {error}",
            run_dir.display()
        ))
    })?;
    // A run directory belongs to one run: never mix two runs' records.
    let occupied = std::fs::read_dir(&run_dir)
        .map(|mut entries| entries.next().is_some())
        .unwrap_or(true);
    if occupied {
        return Err(SessionError::setup(format!(
            "the run directory `{}` is not empty (each run needs a directory of its own)",
            run_dir.display()
        )));
    }
    let write = |name: &str, text: &str| {
        std::fs::write(run_dir.join(name), text).map_err(|error| {
            SessionError::setup(format!(
                "cannot write `{}`: {error}",
                run_dir.join(name).display()
            ))
        })
    };
    write(
        "plan.sha256",
        &format!("{}\n", hex(&module_hash(spec.module))),
    )?;
    if let Some(source) = spec.source {
        write("plan.py", source)?;
    }
    write("config.toml", &spec.config.to_toml())?;
    write(
        "inputs.json",
        &serde_json::to_string_pretty(&spec.inputs).unwrap_or_default(),
    )?;

    let workspace = match &spec.config.workspace.dir {
        None => Workspace::fresh(&run_dir),
        Some(dir) => Workspace::from_dir(
            dir,
            &run_dir,
            match spec.config.workspace.mode {
                WorkspaceMode::Copy => baton_workspace::Mode::Copy,
                WorkspaceMode::InPlace => baton_workspace::Mode::InPlace,
            },
        ),
    }
    .map_err(|error| SessionError::setup(format!("cannot prepare the workspace: {error}")))?;

    let log_file = std::fs::File::create(run_dir.join("log.txt")).map_err(|error| {
        SessionError::setup(format!("cannot create the run's log.txt: {error}"))
    })?;
    let log_file = Mutex::new(log_file);
    let echo = spec.log_echo.clone();
    let log = Arc::new(move |line: &str| {
        if let Ok(mut file) = log_file.lock() {
            let _ = writeln!(file, "{line}");
        }
        if let Some(echo) = &echo {
            echo(line);
        }
    });

    let policy = spec.config.sandbox.policy(workspace.path());
    let workspace: SharedWorkspace = Arc::new(Mutex::new(Some(workspace)));
    let mut services = Services::new(spec.inputs.clone(), log)
        .with_workspace(workspace.clone(), run_dir.join(BRANCHES_DIR))
        .with_branch_settings(spec.config.branch.settings())
        .with_fork_mode(spec.config.branch.workspaces)
        .with_priors(spec.priors.clone());
    if spec.config.grants.bash {
        let helper = HelperExe::from_env_or_current().map_err(|error| {
            SessionError::setup(format!(
                "cannot find the sandbox helper executable: {error}"
            ))
        })?;
        let mode = match spec.config.sandbox.mode {
            SandboxMode::Enforce => baton_sandbox::Mode::Enforce,
            SandboxMode::None => baton_sandbox::Mode::None,
        };
        services = services.with_bash(Arc::new(Sandbox::new(helper, policy, mode)));
    }
    let budget = Budget::new(spec.config.budget);
    if spec.config.grants.llm {
        let client = Client::from_config(&spec.config.llm, spec.provider.clone())
            .map_err(|error| SessionError::setup(format!("cannot set up `llm`: {error}")))?;
        services = services.with_llm(LlmAccess {
            client: Arc::new(client),
            budget: budget.clone(),
        });
    }
    let services = Arc::new(services);

    let started = Instant::now();
    let limits = spec.config.limits();
    let report = prepared.run_with(&limits, services.clone(), stdout);
    let seconds = started.elapsed().as_secs_f64();

    let succeeded = matches!(
        &report,
        Ok(report) if report.outcome == RunOutcome::Success
    );
    // Branches' forks are gone with their branches; an empty `branches/` is not kept.
    let _ = std::fs::remove_dir(run_dir.join(BRANCHES_DIR));
    let taken = workspace
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .take();
    let finished = match taken {
        Some(workspace) => workspace
            .finish(if succeeded {
                baton_workspace::Outcome::Success
            } else {
                baton_workspace::Outcome::Failure
            })
            .map_err(|error| error.to_string()),
        None => Err("the workspace was taken before the run ended".to_string()),
    };
    let (workspace, workspace_error) = match finished {
        Ok(finish) => (Some(finish), None),
        Err(error) => (None, Some(error)),
    };

    let ending = match &report {
        Ok(report) => match &report.outcome {
            RunOutcome::Success => json!({ "status": "success" }),
            RunOutcome::Exception { traceback } => json!({
                "status": "exception",
                "exception": traceback.lines().last().unwrap_or_default(),
            }),
        },
        Err(error) => json!({ "status": "error", "error": error.to_string() }),
    };
    let spent = budget.spent();
    let figures = json!({
        "outcome": ending,
        "seconds": seconds,
        "host_calls": services.figures(),
        "llm": {
            "calls": spent.calls,
            "input_tokens": spent.input_tokens,
            "output_tokens": spent.output_tokens,
            "cost_usd": spent.cost_usd,
        },
        "branches": services.site_figures(),
        "workspace": workspace.as_ref().map(|finish| json!({
            "changed_paths": finish.changes.changes.len(),
            "patch_bytes": finish.patch_bytes,
            "written_back": finish.written_back,
        })),
    });
    write(
        "figures.json",
        &serde_json::to_string_pretty(&figures).unwrap_or_default(),
    )?;
    let report = report?;
    if let Some(result) = &report.result {
        write("result.json", result)?;
    }
    Ok(RunRecord {
        outcome: report.outcome,
        result: report.result,
        run_dir,
        workspace,
        workspace_error,
        figures,
    })
}

/// A new, unique directory under `base`: `<unix seconds>-<module hash prefix>[-N]`.
fn new_run_dir(base: &Path, module: &[u8]) -> Result<PathBuf, SessionError> {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let hash = hex(&module_hash(module));
    let stem = format!("{seconds}-{}", &hash[..hash.len().min(12)]);
    std::fs::create_dir_all(base).map_err(|error| {
        SessionError::setup(format!("cannot create `{}`: {error}", base.display()))
    })?;
    for attempt in 0..1000u32 {
        let name = if attempt == 0 {
            stem.clone()
        } else {
            format!("{stem}-{attempt}")
        };
        let dir = base.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => {
                return Err(SessionError::setup(format!(
                    "cannot create `{}`: {error}",
                    dir.display()
                )))
            }
        }
    }
    Err(SessionError::setup(format!(
        "cannot find a free run directory name under `{}`",
        base.display()
    )))
}
