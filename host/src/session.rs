//! One run of a plan from start to finish, as `baton run` does it: grants checked against the
//! module's imports, a run directory, the workspace, the capabilities (sandbox, model client,
//! budget), the run itself, and what is kept afterwards.
//!
//! The run directory holds:
//! - `plan.sha256`, `plan.wasm`: the module that ran (and `plan.py`, the source, when there is
//!   one); `runtime.wasm`: the runtime module it imports, so that a later build of Baton, whose
//!   runtime differs, can still resume or replay the run ([`RUNTIME_FILE`]);
//! - `journal.jsonl`: every `bash`, `llm` and `branch` call, request and result (`journal.rs`);
//! - `output.txt`: a copy of what the plan printed (what `baton replay` compares);
//! - `config.toml`: the effective configuration (file + flags; no secrets: keys are only named);
//! - `inputs.json`: the inputs;
//! - `log.txt`: the plan's `log(...)` lines;
//! - `result.json`: what `main` returned (when the plan has one and it returned);
//! - `figures.json`: outcome, wall time, per host call: calls, errors, seconds, tokens, cost; and
//!   per `branch` call site (the first callable's name): attempts, valid ones, model calls,
//!   tokens and cost, which `baton priors` turns into priors for `n="auto"`; and how many calls
//!   the journal replayed and ran live;
//! - `workspace/`: the workspace (fresh, or the copy of `--workspace DIR`), and
//!   `changes.patch`: what the run changed in it;
//! - `branches/<name>/`: branches' workspaces while they run (removed as they end).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use baton_llm::{Budget, Client, ProviderSpec};
use baton_sandbox::{CommandsCgroup, HelperExe, Sandbox};
use baton_workspace::{Finish, Workspace};
use serde_json::{json, Value};

use crate::cache::{hex, module_hash, ModuleCache};
use crate::config::{check_grants, Config, GrantError, SandboxMode, WorkspaceMode};
use crate::disk_watch::DiskWatch;
use crate::error::HostError;
use crate::execute::RunOutcome;
use crate::journal::{EarlierAnswers, Journal, JournaledCalls, Missing, Recorded, JOURNAL_FILE};
use crate::priors::Prior;
use crate::run_limits::RunAccount;
use crate::runtime_image::RUNTIME_WASM;
use crate::services::{CommandsWatch, LlmAccess, LogSink, Services, SharedWorkspace};

/// A copy of what the run printed, in the run directory.
pub const OUTPUT_FILE: &str = "output.txt";

/// Where branches' workspaces are forked, inside the run directory (removed as they end).
const BRANCHES_DIR: &str = "branches";

/// How long the end of a run that used all of its time limit may still spend diffing the
/// workspace for its patch (the walks are linear and bounded in path length, so this covers
/// ordinary trees; a pathological one ends with an error, the workspace left in the run dir).
const FINISH_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

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
    /// Go on with the interrupted run in `run_dir` (`baton run --resume`): its journal's
    /// results are replayed and the run continues live where it ends, in its workspace.
    pub resume: bool,
    /// Show a progress line on stderr while the run is live (the command line: when stderr is
    /// a terminal and not `--quiet`).
    pub progress: bool,
    /// Journals of earlier runs whose model answers this run reuses where it repeats their
    /// requests (`baton plan --replan`; see [`crate::journal::EarlierAnswers`]).
    pub earlier_journals: Vec<PathBuf>,
}

/// The progress line: calls, running branches, tokens and cost, redrawn four times a second
/// until dropped (which erases it). It never mixes with what the plan prints: the plan's
/// output ([`Tee`]) erases it under the same lock before writing, and the next tick redraws it.
struct Progress {
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Whether the progress line is on the screen, under the lock that orders drawing it against
/// the plan's output.
type ProgressShown = Arc<Mutex<bool>>;

/// Erases the progress line if it is shown.
fn erase_progress(shown: &ProgressShown) -> std::sync::MutexGuard<'_, bool> {
    let mut guard = shown.lock().unwrap_or_else(|poison| poison.into_inner());
    if *guard {
        let mut stderr = std::io::stderr().lock();
        let _ = stderr.write_all(b"\r\x1b[2K");
        let _ = stderr.flush();
        *guard = false;
    }
    guard
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

impl Progress {
    fn start(services: Arc<Services>, budget: Budget, shown: ProgressShown) -> Progress {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(250));
                let figures = services.figures();
                let calls: u64 = ["bash", "llm"]
                    .iter()
                    .filter_map(|name| figures.get(name))
                    .map(|f| f.calls)
                    .sum();
                let spent = budget.spent();
                let line = format!(
                    "\r\x1b[2K[baton] {:.0}s · {} · {} running · {} · ${:.5}",
                    started.elapsed().as_secs_f64(),
                    plural(calls, "call", "calls"),
                    plural(
                        crate::branch::active_branches() as u64,
                        "branch",
                        "branches"
                    ),
                    plural(spent.tokens(), "token", "tokens"),
                    spent.cost_usd
                );
                // The line starts by erasing whatever the previous tick drew.
                let mut guard = shown.lock().unwrap_or_else(|poison| poison.into_inner());
                let mut stderr = std::io::stderr().lock();
                let _ = stderr.write_all(line.as_bytes());
                let _ = stderr.flush();
                *guard = true;
            }
            drop(erase_progress(&shown));
        });
        Progress {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Writes what the plan prints to the caller's output and to the run's `output.txt`.
struct Tee<'a> {
    out: &'a mut dyn Write,
    copy: std::fs::File,
    /// The progress line, when one is drawn.
    progress: Option<ProgressShown>,
}

impl Write for Tee<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        // The progress line off the screen first, and not redrawn until this is out.
        let erased = self.progress.as_ref().map(erase_progress);
        let n = self.out.write(bytes)?;
        if erased.is_some() {
            self.out.flush()?;
        }
        drop(erased);
        // The copy is for `baton replay` and the report; a full disk must not stop the run.
        let _ = self.copy.write_all(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = self.copy.flush();
        self.out.flush()
    }
}

/// How a run went.
#[derive(Debug)]
pub struct RunRecord {
    /// How the run ended: an outcome, or the error (a limit, a trap) that ended it.
    pub outcome: Result<RunOutcome, HostError>,
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
    // Transparent: the refusal is said once (a `{0}` message with `#[from]` as its source
    // printed it twice in an error chain).
    #[error(transparent)]
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

/// The directory of a run directory where `baton plan` keeps the plan's revisions, the
/// diagnostics of each and the planner's calls.
pub const PLANNING_DIR: &str = "planning";

/// The file of a run directory that keeps the runtime module the plan module imports.
pub const RUNTIME_FILE: &str = "runtime.wasm";

/// Runs a plan as configured, writing what it prints to `stdout`. Fails before running anything
/// when the module is refused, a capability it needs is not granted, or the run cannot be set
/// up. A run that started always leaves its run directory complete and returns its record,
/// whatever the outcome (a limit or a trap included: [`RunRecord::outcome`]).
pub fn run_plan(spec: RunSpec<'_>, stdout: &mut dyn Write) -> Result<RunRecord, SessionError> {
    let info = crate::validate_module(spec.module).map_err(HostError::from)?;
    check_grants(info.host_calls(), &spec.config.grants)?;
    // A resumed run goes on with the runtime it started with, which a later build of Baton
    // does not have itself.
    let kept = match (&spec.run_dir, spec.resume) {
        (Some(dir), true) => std::fs::read(dir.join(RUNTIME_FILE)).ok(),
        _ => None,
    };
    let prepared = ModuleCache::global().prepare_with_runtime(spec.module, kept.as_deref())?;

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
    // A run directory belongs to one run: never mix two runs' records. `baton plan` writes
    // how it got the plan ([`PLANNING_DIR`]) before the run starts.
    let occupied = std::fs::read_dir(&run_dir)
        .map(|mut entries| {
            entries.any(|entry| entry.map_or(true, |entry| entry.file_name() != PLANNING_DIR))
        })
        .unwrap_or(true);
    let journal_path = run_dir.join(JOURNAL_FILE);
    let recorded = if spec.resume {
        Recorded::read(&journal_path).map_err(SessionError::Setup)?
    } else {
        Recorded::default()
    };
    if occupied && !spec.resume {
        return Err(SessionError::setup(format!(
            "the run directory `{}` is not empty (each run needs a directory of its own)",
            run_dir.display()
        )));
    }
    // Private to the user: a workspace may hold whatever the plan's commands made, and the
    // journal every request and reply.
    if !spec.resume {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&run_dir, std::fs::Permissions::from_mode(0o700)).map_err(
            |error| {
                SessionError::setup(format!(
                    "cannot make the run directory `{}` private: {error}",
                    run_dir.display()
                ))
            },
        )?;
    }
    let write = |name: &str, text: &str| {
        std::fs::write(run_dir.join(name), text).map_err(|error| {
            SessionError::setup(format!(
                "cannot write `{}`: {error}",
                run_dir.join(name).display()
            ))
        })
    };
    if !spec.resume {
        write(
            "plan.sha256",
            &format!("{}\n", hex(&module_hash(spec.module))),
        )?;
        std::fs::write(run_dir.join("plan.wasm"), spec.module).map_err(|error| {
            SessionError::setup(format!("cannot write the run's plan.wasm: {error}"))
        })?;
        if info.runtime_version() == Some(crate::RUNTIME_VERSION) {
            std::fs::write(run_dir.join(RUNTIME_FILE), RUNTIME_WASM).map_err(|error| {
                SessionError::setup(format!("cannot write the run's {RUNTIME_FILE}: {error}"))
            })?;
        }
        if let Some(source) = spec.source {
            write("plan.py", source)?;
        }
        write("config.toml", &spec.config.to_toml())?;
        write(
            "inputs.json",
            &serde_json::to_string_pretty(&spec.inputs).unwrap_or_default(),
        )?;
    }

    let workspace = match &spec.config.workspace.dir {
        _ if spec.resume => Workspace::reopen(&run_dir),
        None => Workspace::fresh(&run_dir),
        Some(dir) => Workspace::from_dir(
            dir,
            &run_dir,
            match spec.config.workspace.mode {
                WorkspaceMode::Copy => baton_workspace::Mode::Copy,
                WorkspaceMode::InPlace => baton_workspace::Mode::InPlace,
                WorkspaceMode::Isolated => baton_workspace::Mode::Isolated,
            },
        ),
    }
    .map_err(|error| SessionError::setup(format!("cannot prepare the workspace: {error}")))?
    .with_guard(spec.config.workspace.guard());

    let log_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(run_dir.join("log.txt"))
        .map_err(|error| {
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

    let policy = spec
        .config
        .sandbox
        .policy(workspace.path(), !workspace.is_in_place());
    let workspace: SharedWorkspace = Arc::new(Mutex::new(Some(workspace)));
    // The run-wide account, shared by the run's instances and by what watches its commands.
    let account = RunAccount::new(spec.config.limits().run_wide);
    let disk = DiskWatch::new(&run_dir, spec.config.limits.disk_mib << 20, account.clone());
    let mut services = Services::new(spec.inputs.clone(), log)
        .with_disk_watch(disk)
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
        let mut policy = policy;
        if mode == baton_sandbox::Mode::Enforce {
            // One cgroup for all the run's commands (each command's is made inside it).
            let sandbox = &spec.config.sandbox;
            let cgroup =
                CommandsCgroup::create(sandbox.run_max_processes, sandbox.run_memory_mib << 20);
            policy.run_cgroups = cgroup.dirs().to_vec();
            services = services.with_commands_watch(CommandsWatch::new(
                cgroup,
                account.clone(),
                sandbox.run_memory_mib,
            ));
        }
        services = services.with_bash(Arc::new(Sandbox::new(helper, policy, mode)));
    }
    let budget = Budget::new(spec.config.budget);
    if spec.config.grants.llm {
        let client = Client::from_config(&spec.config.llm, spec.provider.clone())
            .map_err(|error| SessionError::setup(format!("cannot set up `llm`: {error}")))?;
        // Granted, used, and nothing says which model answers: refuse now, not at the first
        // call (possibly after commands ran). A plan that names `model=` in every call still
        // runs with `--llm openai`.
        let uses_llm = info.host_calls().any(|name| name == "llm");
        if uses_llm && spec.provider.is_none() && client.default_model().is_none() {
            return Err(SessionError::setup(
                "the plan calls `llm` but no model provider is given: pass `--llm \
                 script:FILE.json` (offline) or `--llm openai:MODEL`, or set `llm.model` in \
                 baton.toml or BATON_LLM_MODEL",
            ));
        }
        services = services.with_llm(LlmAccess {
            client: Arc::new(client),
            budget: budget.clone(),
        });
    }
    let services = Arc::new(services);
    let journal = Arc::new(Journal::open(&journal_path).map_err(|error| {
        SessionError::setup(format!("cannot open `{}`: {error}", journal_path.display()))
    })?);
    let earlier = EarlierAnswers::from_journals(&spec.earlier_journals).map_err(|error| {
        SessionError::setup(format!("cannot read an earlier run's journal: {error}"))
    })?;
    let calls = Arc::new(
        JournaledCalls::new(
            services.clone(),
            Some(journal.clone()),
            Arc::new(recorded),
            Missing::RunLive,
        )
        .with_earlier(Arc::new(earlier)),
    );
    let journal_stats = calls.stats();
    let output_copy = std::fs::File::create(run_dir.join(OUTPUT_FILE)).map_err(|error| {
        SessionError::setup(format!("cannot create the run's {OUTPUT_FILE}: {error}"))
    })?;
    let shown = ProgressShown::default();
    let mut tee = Tee {
        out: stdout,
        copy: output_copy,
        progress: spec.progress.then(|| shown.clone()),
    };

    let started = Instant::now();
    let limits = spec.config.limits();
    let progress = spec
        .progress
        .then(|| Progress::start(services.clone(), budget.clone(), shown));
    let report = prepared.run_with_account(&limits, account, calls, &mut tee);
    drop(progress);
    journal.sync();
    let seconds = started.elapsed().as_secs_f64();

    let succeeded = matches!(
        &report,
        Ok(report) if report.outcome == RunOutcome::Success
    );
    // Branches' forks are gone with their branches; an empty `branches/` is not kept.
    let _ = std::fs::remove_dir(run_dir.join(BRANCHES_DIR));
    // Commands killed with their helper (cancelled branches, timeouts) left their cgroups.
    if spec.config.grants.bash {
        baton_sandbox::sweep_stale_cgroups();
    }
    let taken = workspace
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .take();
    // The walks that diff and write back a tree the plan shaped end with the run's time limit
    // (a run that used all of it still gets a moment for its patch).
    let walks_end = (started + limits.timeout).max(Instant::now() + FINISH_GRACE);
    let finished = match taken {
        Some(workspace) => workspace
            .with_deadline(walks_end)
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
            RunOutcome::Exception { traceback, .. } => json!({
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
        "heap": report.as_ref().ok().map(|report| report.heap),
        "journal": {
            "replayed": journal_stats.replayed.load(std::sync::atomic::Ordering::Relaxed),
            "reused": journal_stats.reused.load(std::sync::atomic::Ordering::Relaxed),
            "live": journal_stats.live.load(std::sync::atomic::Ordering::Relaxed),
            "error": journal.error(),
        },
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
    let (outcome, result) = match report {
        Ok(report) => (Ok(report.outcome), report.result),
        Err(error) => (Err(error), None),
    };
    if let Some(result) = &result {
        write("result.json", result)?;
    }
    Ok(RunRecord {
        outcome,
        result,
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

/// The files every run directory has from its start.
const RUN_DIR_FILES: [&str; 3] = [JOURNAL_FILE, "plan.wasm", "config.toml"];

/// Checks that `dir` is a run directory (`baton run` made it), so that `--resume`, `replay` and
/// `trace` of some other directory say so instead of naming the first file they miss.
pub fn check_run_dir(dir: &Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!(
            "`{}` is not a run directory: it does not exist or is not a directory",
            dir.display()
        ));
    }
    if RUN_DIR_FILES.iter().all(|name| !dir.join(name).exists()) {
        return Err(format!(
            "`{}` is not a run directory: it has none of {} (`baton run` makes one under \
             .baton/runs/, or where --run-dir says)",
            dir.display(),
            RUN_DIR_FILES.join(", ")
        ));
    }
    Ok(())
}

/// What `baton replay` found.
#[derive(Debug)]
pub struct ReplayRecord {
    pub outcome: RunOutcome,
    /// What the replay printed, and what the run printed (`output.txt`).
    pub output: Vec<u8>,
    pub recorded_output: Vec<u8>,
    /// `main`'s result in the replay, and the run's (`result.json`).
    pub result: Option<String>,
    pub recorded_result: Option<String>,
    /// Calls whose recorded result was used.
    pub replayed: u64,
}

/// Re-executes the finished run in `run_dir` from its journal: the same module, inputs and
/// limits, every `bash`, `llm` and `branch` call answered from the journal — nothing runs, no
/// network, no model; a call the journal does not have is a divergence.
pub fn replay_run(run_dir: &Path) -> Result<ReplayRecord, SessionError> {
    check_run_dir(run_dir).map_err(SessionError::Setup)?;
    let read = |name: &str| {
        std::fs::read(run_dir.join(name)).map_err(|error| {
            SessionError::setup(format!(
                "cannot read `{}`: {error}",
                run_dir.join(name).display()
            ))
        })
    };
    let module = read("plan.wasm")?;
    let kept = std::fs::read(run_dir.join(RUNTIME_FILE)).ok();
    let config = Config::load(&run_dir.join("config.toml")).map_err(SessionError::setup)?;
    let inputs: Value = serde_json::from_slice(&read("inputs.json")?)
        .map_err(|error| SessionError::setup(format!("inputs.json is not JSON: {error}")))?;
    let recorded = Recorded::read(&run_dir.join(JOURNAL_FILE)).map_err(SessionError::Setup)?;
    let recorded_output = read(OUTPUT_FILE)?;
    let recorded_result = std::fs::read_to_string(run_dir.join("result.json")).ok();

    let prepared = ModuleCache::global().prepare_with_runtime(&module, kept.as_deref())?;
    // No capabilities at all: every call the plan makes must come from the journal.
    let services = Arc::new(
        Services::new(inputs, Arc::new(|_: &str| {}))
            .with_branch_settings(config.branch.settings()),
    );
    let calls = Arc::new(JournaledCalls::new(
        services,
        None,
        Arc::new(recorded),
        Missing::Stop,
    ));
    let stats = calls.stats();
    let mut output = Vec::new();
    let report = prepared.run_with(&config.limits(), calls, &mut output)?;
    Ok(ReplayRecord {
        outcome: report.outcome,
        output,
        recorded_output,
        result: report.result,
        recorded_result,
        replayed: stats.replayed.load(std::sync::atomic::Ordering::Relaxed),
    })
}
