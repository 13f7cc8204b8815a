//! The OS sandbox for Baton's `bash` host call.
//!
//! A plan's `bash(command, timeout=..., input=...)` runs `bash -c command` through
//! [`Sandbox::run`]. Nothing outside this crate is needed: no bubblewrap, no setuid helper — a
//! Linux kernel with unprivileged user namespaces, `/bin/bash` and coreutils.
//!
//! # Why a re-executed helper
//!
//! Namespaces, mounts, Landlock and seccomp apply to the calling thread or process, and must not
//! be set up inside Baton's multi-threaded tokio process (`unshare(CLONE_NEWUSER)` fails in a
//! threaded process, Landlock before ABI 8 covers one thread, and a fork of a threaded process
//! may only call async-signal-safe functions). So the host spawns an executable — by default
//! Baton itself, see [`HelperExe`] — with the hidden first argument [`HELPER_ARG`]. That process
//! calls [`run_helper_if_requested`] first thing in `main`, which never returns to the normal
//! program: it reads a spec frame from stdin (the rest of stdin is the command's input), builds
//! the sandbox with plain blocking code, and reports on a private status pipe (fd 3), never on
//! the command's stdout or stderr, so a command cannot forge the sandbox's reports.
//!
//! # Layers, outermost first
//!
//! 1. **cgroups** (`pids.max`, `memory.max`): per run, from cgroup v2 where the unified tree
//!    offers the controller, else from its v1 hierarchy. Best effort: where neither can be
//!    created the layer is reported unavailable (see [`info`]) and the run continues, bounded by
//!    the pid namespace and the timeout. This is the only process-count limit that binds root.
//! 2. **Namespaces**: user (uid and gid 0 inside; on the host the caller's uid and gid,
//!    `setgroups` denied — or, when the caller is root, an unprivileged id that owns nothing,
//!    with no supplementary groups, the workspace shown through an idmapped mount: see the
//!    helper's `identity` module), mount,
//!    pid, net (empty: no interface but a down loopback, nothing of the host reachable), ipc,
//!    uts (hostname `baton`). `bash` is pid 1 of its namespace: when it exits or is killed every
//!    process of the command dies with it, including `setsid` daemons.
//! 3. **Filesystem view**: a new tmpfs root (`pivot_root`, host tree detached, not merely
//!    hidden) holding only `/usr`, `/bin`, `/sbin`, `/lib`, `/lib64`, `/lib32`, `/etc` where the
//!    host has them and the caller's [`Policy::read_only`] paths, all bind-mounted read-only,
//!    nosuid, nodev (recursively); secrets under `/etc` — `shadow`, `gshadow`, `sudoers`, ...
//!    and every other file that is not world-readable — covered by `/dev/null`, directories
//!    that are not world-searchable by an empty tmpfs; the workspace read-write at `/workspace`
//!    (also the cwd and `$HOME`) — for a run's own copy through an overlay with an empty lower
//!    layer, so that `/proc/self/mountinfo` names no host path (a bind mount's root field would
//!    be the directory's host path; the user's own directory, `--in-place`, is bound as it is,
//!    as is a workspace where the kernel refuses the overlay); a private size-capped tmpfs
//!    `/tmp`; a fresh read-only `/proc`
//!    of the new pid namespace; a read-only `/dev` holding only `null`, `zero`, `full`,
//!    `random`, `urandom`, `tty`. Home directories, `/root`, `/var`, `/run`, `/sys`, the host's
//!    `/tmp` and everything else are absent.
//! 4. **rlimits**: `RLIMIT_CPU`, `RLIMIT_FSIZE`, `RLIMIT_NOFILE`, `RLIMIT_CORE=0`,
//!    `RLIMIT_NPROC` (which root ignores, hence cgroups).
//! 5. **Landlock** where the kernel has it (best effort by ABI, rules vetted for ABI 6):
//!    read+execute on the system and read-only paths, full access to `/workspace` and `/tmp`,
//!    read/write on the `/dev` nodes, read on `/proc`; all TCP bind/connect denied; signals and
//!    abstract unix sockets scoped to the sandbox. Unavailable Landlock is reported, not fatal:
//!    the mount namespace already enforces the same view.
//! 6. **Capabilities**: the command is uid 0 of its user namespace with every capability
//!    dropped (bounding, ambient, permitted, effective) and `SECBIT_NOROOT` locked, so it has no
//!    capability even there.
//! 7. **`PR_SET_NO_NEW_PRIVS`** and **seccomp** (see the `seccomp` module): ptrace,
//!    process_vm_*, mount and the new mount API, pivot_root, chroot, unshare, setns, namespace
//!    flags to clone, keyrings, bpf, io_uring, perf_event_open, `ioctl(TIOCSTI)` and sockets of
//!    any family but `AF_UNIX` fail with `EPERM`.
//!
//! A layer that is required (namespaces, mounts, rlimits, capabilities, seccomp) and cannot be
//! set up fails the run closed with [`SandboxError::Setup`], naming the step and the errno. A
//! setup fork refused because the process limits are full (the run's commands hold every
//! process its cgroup allows) is [`SandboxError::OutOfProcesses`] instead: a limit at work, not
//! a broken sandbox.
//!
//! # Around the command
//!
//! The environment is only `PATH`, `HOME=/workspace`, `LANG=C.UTF-8`, `PWD`, `TMPDIR=/tmp`.
//! Input is fed on stdin and then closed (no input: `/dev/null`). Stdout and stderr are each
//! kept up to [`Policy::output_cap`] bytes and cut with a marker line, while the pipes are
//! drained to the end so the command never blocks. On timeout the host asks the helper to kill
//! pid 1, which takes the whole tree; if the host process dies, the helper notices (its parent
//! changes) and does the same, and pid 1 carries `PR_SET_PDEATHSIG` in case the helper dies.
//!
//! [`Mode::None`] runs `bash` directly, unsandboxed, with the same timeout, caps, clean
//! environment (`HOME` is the workspace), rlimits and cwd, killing its process group at the end;
//! processes that leave the group (`setsid`) escape it. The caller must warn the user.

mod capture;
mod error;
#[cfg(target_os = "linux")]
mod helper;
mod info;
mod overlay_work;
mod protocol;
mod runner;
#[cfg(target_os = "linux")]
pub mod seccomp;

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use capture::truncation_marker;
pub use error::SandboxError;
pub use info::{info, overlay_available, SandboxInfo};
pub use protocol::LayerState;

/// The hidden first argument that turns an executable into the sandbox helper.
pub const HELPER_ARG: &str = "__baton_sandbox_helper";

/// Environment variable naming the helper executable, overriding the current executable.
pub const HELPER_ENV: &str = "BATON_SANDBOX_HELPER";

/// Removes the cgroups of sandbox helpers that are gone. A helper that is killed with its
/// command (a cancelled branch's, a timed-out run's) cannot remove the cgroups it made; every
/// new command sweeps them, and a run calls this when it ends so it leaves none behind.
/// Returns how many were removed.
pub fn sweep_stale_cgroups() -> usize {
    #[cfg(target_os = "linux")]
    return helper::sweep_stale_cgroups();
    #[cfg(not(target_os = "linux"))]
    0
}

/// One cgroup for all the commands of a run: processes and memory of every command the run
/// (and each of its branches) starts, together. Made by the host in its own cgroup, named
/// `baton-run-<pid>-<n>`; each command's helper makes its own cgroup inside it (pass
/// [`CommandsCgroup::dirs`] as [`Policy::run_cgroups`]). Removed on drop, after the cgroups
/// of commands whose helpers are gone; a run whose baton process died is swept by the next
/// command or run ([`sweep_stale_cgroups`]). Best effort, like the per-command cgroups: where
/// none can be made, [`CommandsCgroup::dirs`] is empty and the reports say why.
#[derive(Debug)]
pub struct CommandsCgroup {
    #[cfg(target_os = "linux")]
    cgroups: Option<helper::cgroup::RunCgroups>,
    dirs: Vec<PathBuf>,
    /// One report per controller, as for a command's cgroups.
    pub reports: Vec<(String, LayerState)>,
}

impl CommandsCgroup {
    /// Creates the run's cgroup with these limits for all its commands together.
    pub fn create(max_processes: u64, memory_bytes: u64) -> CommandsCgroup {
        #[cfg(target_os = "linux")]
        {
            use std::sync::atomic::{AtomicU32, Ordering};
            static NEXT: AtomicU32 = AtomicU32::new(0);
            let name = format!(
                "{}{}-{}",
                helper::cgroup::RUN_PREFIX,
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            );
            let (cgroups, reports) =
                helper::cgroup::RunCgroups::create_named(&name, max_processes, memory_bytes, &[]);
            let dirs = cgroups.dirs().map(Path::to_path_buf).collect();
            CommandsCgroup {
                cgroups: Some(cgroups),
                dirs,
                reports,
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (max_processes, memory_bytes);
            CommandsCgroup {
                dirs: Vec::new(),
                reports: Vec::new(),
            }
        }
    }

    /// The cgroup's directories, one per hierarchy (empty when none could be made).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }
}

impl Drop for CommandsCgroup {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(cgroups) = self.cgroups.take() {
            helper::cgroup::sweep_stale_in(&self.dirs);
            for dir in &self.dirs {
                helper::cgroup::remove_when_empty(dir);
            }
            drop(cgroups);
        }
    }
}

/// Call first thing in `main()`: if this process was started as the sandbox helper
/// (`argv[1] == HELPER_ARG`), runs the helper and exits the process; otherwise returns at once.
pub fn run_helper_if_requested() {
    let mut args = std::env::args_os();
    let _program = args.next();
    if args.next().as_deref() != Some(std::ffi::OsStr::new(HELPER_ARG)) {
        return;
    }
    #[cfg(target_os = "linux")]
    let code = helper::main();
    #[cfg(not(target_os = "linux"))]
    let code = {
        eprintln!("baton sandbox helper: only available on Linux");
        125
    };
    std::process::exit(code);
}

/// The executable the host re-executes as the sandbox helper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelperExe {
    path: PathBuf,
}

impl HelperExe {
    /// A helper at `path`; it must call [`run_helper_if_requested`] first thing in `main`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        HelperExe { path: path.into() }
    }

    /// `$BATON_SANDBOX_HELPER` when set and non-empty, else the current executable.
    pub fn from_env_or_current() -> io::Result<Self> {
        match std::env::var_os(HELPER_ENV) {
            Some(path) if !path.is_empty() => Ok(HelperExe::new(path)),
            _ => std::env::current_exe().map(HelperExe::new),
        }
    }

    /// The executable's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Whether commands are sandboxed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Full OS sandbox; setup failure is an error.
    Enforce,
    /// No sandbox (explicit opt-out): timeout, caps, clean env, cwd and process-group kill only.
    None,
}

/// Limits and visibility for the commands of one sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Host path of the workspace directory, bound read-write at `/workspace`.
    pub workspace: PathBuf,
    /// Extra absolute host paths made visible read-only at the same path.
    pub read_only: Vec<PathBuf>,
    /// Size of the private `/tmp` (default 64 MiB).
    pub tmp_bytes: u64,
    /// Bytes kept per output stream (default 1 MiB).
    pub output_cap: usize,
    /// Processes at once (`pids.max`; `RLIMIT_NPROC` where it applies); default 256.
    pub max_processes: u64,
    /// Memory (`memory.max` where available); default 1 GiB.
    pub memory_bytes: u64,
    /// CPU seconds (`RLIMIT_CPU`); default 120.
    pub cpu_seconds: u64,
    /// Largest file a command may write (`RLIMIT_FSIZE`); default 256 MiB.
    pub file_size_bytes: u64,
    /// Open descriptors per process (`RLIMIT_NOFILE`); default 1024.
    pub open_files: u64,
    /// Mount `/workspace` as an overlay instead: `workspace` is the upper layer (where writes
    /// land) over these layers. Only with [`Mode::Enforce`].
    pub overlay: Option<OverlayLayers>,
    /// The workspace (and an overlay's layers) are Baton's own copies, not the user's files.
    /// When baton runs as root on a filesystem without idmapped mounts (overlayfs, as in most
    /// containers), the sandbox then gives them to the command's unprivileged id (chown)
    /// instead of failing; the user's own directory is never chowned. Default false.
    pub private_workspace: bool,
    /// The run's cgroups ([`CommandsCgroup::dirs`]): each command's cgroup is made inside
    /// them, so their limits bind all the run's commands together. Empty: none.
    pub run_cgroups: Vec<PathBuf>,
}

/// The lower layers and work directory of an overlay workspace (see [`Policy::overlay`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverlayLayers {
    /// Read-only layers below the upper one, topmost first.
    pub lowers: Vec<PathBuf>,
    /// overlayfs' work directory, on the upper layer's filesystem.
    pub work: PathBuf,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            workspace: PathBuf::new(),
            read_only: Vec::new(),
            tmp_bytes: 64 << 20,
            output_cap: 1 << 20,
            max_processes: 256,
            memory_bytes: 1 << 30,
            cpu_seconds: 120,
            file_size_bytes: 256 << 20,
            open_files: 1024,
            overlay: None,
            private_workspace: false,
            run_cgroups: Vec::new(),
        }
    }
}

impl Policy {
    /// The default policy for `workspace`.
    pub fn for_workspace(workspace: impl Into<PathBuf>) -> Self {
        Policy {
            workspace: workspace.into(),
            ..Policy::default()
        }
    }

    fn validate(&self) -> Result<(), SandboxError> {
        if self.workspace.as_os_str().is_empty() {
            return Err(SandboxError::InvalidPolicy(
                "Policy.workspace is not set".into(),
            ));
        }
        if !self.workspace.is_dir() {
            return Err(SandboxError::InvalidPolicy(format!(
                "workspace {} is not an existing directory",
                self.workspace.display()
            )));
        }
        for path in &self.read_only {
            if !path.is_absolute() {
                return Err(SandboxError::InvalidPolicy(format!(
                    "read-only path {} is not absolute",
                    path.display()
                )));
            }
        }
        if let Some(overlay) = &self.overlay {
            let layers = overlay
                .lowers
                .iter()
                .chain([&overlay.work, &self.workspace]);
            for path in layers {
                // overlayfs' mount options separate layers with ':' and options with ','.
                let text = path.to_string_lossy();
                if !path.is_absolute() || !path.is_dir() || text.contains([':', ',', '\\']) {
                    return Err(SandboxError::InvalidPolicy(format!(
                        "overlay layer {} must be an existing absolute directory without ':', \
                         ',' or '\\' in its path",
                        path.display()
                    )));
                }
            }
            if overlay.lowers.is_empty() {
                return Err(SandboxError::InvalidPolicy(
                    "an overlay workspace needs at least one lower layer".into(),
                ));
            }
        }
        if self.max_processes == 0 || self.open_files == 0 || self.cpu_seconds == 0 {
            return Err(SandboxError::InvalidPolicy(
                "max_processes, open_files and cpu_seconds must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// One `bash -c` invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The script given to `bash -c`.
    pub script: String,
    /// Bytes fed on stdin, then closed; `None` gives `/dev/null`.
    pub stdin: Option<Vec<u8>>,
    /// Wall-clock limit; the whole process tree is killed when it passes.
    pub timeout: Duration,
}

impl Command {
    /// A command with no input and the plan default timeout of 60 s.
    pub fn new(script: impl Into<String>) -> Self {
        Command {
            script: script.into(),
            stdin: None,
            timeout: Duration::from_secs(60),
        }
    }
}

/// What a command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Standard output, cut at the cap with the marker line appended.
    pub stdout: Vec<u8>,
    /// Standard error, cut the same way.
    pub stderr: Vec<u8>,
    /// Whether stdout hit the cap.
    pub stdout_truncated: bool,
    /// Whether stderr hit the cap.
    pub stderr_truncated: bool,
    /// Exit status; 128+signal when killed by a signal, like bash.
    pub exit_code: i32,
    /// Whether the timeout ended the command.
    pub timed_out: bool,
    /// Wall time from start to the end of the command's tree.
    pub duration: Duration,
    /// Processes of the command the kernel killed for memory (its cgroup's limit or the run's,
    /// [`CommandsCgroup`]); 0 where no memory cgroup could be made.
    pub memory_kills: u64,
}

/// Runs commands under one policy. Cheap to share; concurrent [`Sandbox::run`] calls are fine.
#[derive(Debug, Clone)]
pub struct Sandbox {
    helper: HelperExe,
    policy: Policy,
    mode: Mode,
}

impl Sandbox {
    /// A sandbox; nothing is checked until the first run (see [`info`] for a probe).
    pub fn new(helper: HelperExe, policy: Policy, mode: Mode) -> Self {
        Sandbox {
            helper,
            policy,
            mode,
        }
    }

    /// The same sandbox working in another workspace (a branch's fork).
    pub fn with_workspace(&self, workspace: impl Into<PathBuf>) -> Sandbox {
        let mut sandbox = self.clone();
        sandbox.policy.workspace = workspace.into();
        sandbox.policy.overlay = None;
        sandbox
    }

    /// The same sandbox working in `workspace`, a private copy Baton made (a branch's copy
    /// fork): see [`Policy::private_workspace`].
    pub fn with_private_workspace(&self, workspace: impl Into<PathBuf>) -> Sandbox {
        let mut sandbox = self.with_workspace(workspace);
        sandbox.policy.private_workspace = true;
        sandbox
    }

    /// The same sandbox working in an overlay: `upper` over `layers` (a branch's overlay fork).
    pub fn with_overlay(&self, upper: impl Into<PathBuf>, layers: OverlayLayers) -> Sandbox {
        let mut sandbox = self.clone();
        sandbox.policy.workspace = upper.into();
        sandbox.policy.overlay = Some(layers);
        sandbox
    }

    /// Whether this sandbox can mount overlay workspaces here: runs `true` in one over a
    /// scratch layer under `scratch` (removed after). Needs [`Mode::Enforce`] and a kernel that
    /// lets a user namespace mount overlayfs (Linux 5.11).
    pub async fn overlay_works(&self, scratch: &Path) -> bool {
        if self.mode != Mode::Enforce {
            return false;
        }
        let dirs = ["lower", "upper", "work"].map(|name| scratch.join(name));
        if dirs.iter().any(|dir| std::fs::create_dir_all(dir).is_err()) {
            return false;
        }
        let [lower, upper, work] = dirs;
        let probe = self.with_overlay(
            &upper,
            OverlayLayers {
                lowers: vec![lower],
                work: work.clone(),
            },
        );
        let ran = probe.run(Command::new("true")).await;
        overlay_work::remove(&work);
        let _ = std::fs::remove_dir_all(scratch);
        matches!(ran, Ok(output) if output.exit_code == 0)
    }

    /// The policy in force.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The mode in force.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Runs one command. A non-zero exit is an [`Output`], not an error.
    pub async fn run(&self, command: Command) -> Result<Output, SandboxError> {
        self.policy.validate()?;
        if command.script.contains('\0') {
            return Err(SandboxError::InvalidCommand(
                "the script contains a NUL byte".into(),
            ));
        }
        match self.mode {
            Mode::Enforce => runner::run_sandboxed(&self.helper, &self.policy, command).await,
            Mode::None => runner::run_unsandboxed(&self.policy, command).await,
        }
    }
}
