//! The host side of a run: spawning, feeding stdin, draining output, the timeout.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin};

use crate::capture::{read_capped, read_capped_until};
use crate::overlay_work::OverlayWork;
use crate::protocol::{self, LayerState, Spec, Status, STATUS_FD};
use crate::{Command, HelperExe, Output, Policy, SandboxError, HELPER_ARG};

/// How long the helper gets to kill and reap the tree after SIGTERM before it is killed itself
/// (pid 1 then dies of PR_SET_PDEATHSIG).
const TERM_GRACE: Duration = Duration::from_secs(5);

/// How long after the deadline an unsandboxed run keeps reading pipes held open by processes
/// that escaped its process group.
const UNSANDBOXED_DRAIN_GRACE: Duration = Duration::from_secs(1);

fn io_err(context: &'static str) -> impl FnOnce(std::io::Error) -> SandboxError {
    move |source| SandboxError::Io { context, source }
}

/// A close-on-exec pipe: (read end, write end).
fn status_pipe() -> Result<(OwnedFd, OwnedFd), SandboxError> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2 fills the array with two new descriptors that we then own.
    let ret = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    if ret < 0 {
        return Err(io_err("creating the status pipe")(
            std::io::Error::last_os_error(),
        ));
    }
    // SAFETY: both descriptors are fresh and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// [`status_pipe`] with a plain-text error, for the blocking probe.
pub(crate) fn status_pipe_pub() -> Result<(OwnedFd, OwnedFd), String> {
    status_pipe().map_err(|e| e.to_string())
}

/// The helper process, with the status pipe's write end as its fd 3 and nothing of our
/// environment.
pub(crate) fn helper_command(helper: &HelperExe, status_write: RawFd) -> std::process::Command {
    let mut cmd = std::process::Command::new(helper.path());
    cmd.arg(HELPER_ARG)
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: runs between fork and exec; only dup2/fcntl, which are async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            let ret = if status_write == STATUS_FD {
                libc::fcntl(STATUS_FD, libc::F_SETFD, 0)
            } else {
                libc::dup2(status_write, STATUS_FD)
            };
            if ret < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

pub(crate) fn spec_for(policy: &Policy, command: &Command) -> Spec {
    Spec {
        script: command.script.clone(),
        workspace: policy.workspace.clone(),
        private_workspace: policy.private_workspace,
        run_cgroups: policy.run_cgroups.clone(),
        read_only: policy.read_only.clone(),
        has_stdin: command.stdin.is_some(),
        tmp_bytes: policy.tmp_bytes,
        max_processes: policy.max_processes,
        memory_bytes: policy.memory_bytes,
        cpu_seconds: policy.cpu_seconds,
        file_size_bytes: policy.file_size_bytes,
        open_files: policy.open_files,
        overlay_lowers: policy
            .overlay
            .as_ref()
            .map(|o| o.lowers.clone())
            .unwrap_or_default(),
        overlay_work: policy.overlay.as_ref().map(|o| o.work.clone()),
    }
}

/// Reads whatever the helper reported. Every writer has exited by now; the descriptor is made
/// non-blocking anyway so a stray holder cannot hang the host.
pub(crate) fn read_statuses(read_end: OwnedFd) -> Vec<Status> {
    // SAFETY: setting O_NONBLOCK on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(read_end.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(
            read_end.as_raw_fd(),
            libc::F_SETFL,
            flags | libc::O_NONBLOCK,
        );
    }
    let mut file = File::from(read_end);
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    // The helper writes a few short lines; stop at 1 MiB should anything go wrong.
    while bytes.len() < (1 << 20) {
        match file.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(Status::parse)
        .collect()
}

/// Layer reports from a helper's statuses.
pub(crate) fn layers(statuses: &[Status]) -> Vec<(String, LayerState)> {
    statuses
        .iter()
        .filter_map(|s| match s {
            Status::Layer { name, state } => Some((name.clone(), state.clone())),
            _ => None,
        })
        .collect()
}

/// The setup error, if the helper reported one.
pub(crate) fn setup_error(statuses: &[Status]) -> Option<SandboxError> {
    statuses.iter().find_map(|s| match s {
        Status::Error { step, message } => Some(SandboxError::Setup {
            step: step.clone(),
            message: message.clone(),
        }),
        Status::OutOfProcesses { step } => {
            Some(SandboxError::OutOfProcesses { step: step.clone() })
        }
        _ => None,
    })
}

fn exit_code(status: ExitStatus) -> i32 {
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1)
}

async fn feed(stdin: Option<ChildStdin>, prefix: Vec<u8>, input: Option<Vec<u8>>) {
    let Some(mut stdin) = stdin else { return };
    // A command that exits without reading its input closes the pipe: EPIPE is expected.
    if stdin.write_all(&prefix).await.is_err() {
        return;
    }
    if let Some(input) = input {
        let _ = stdin.write_all(&input).await;
    }
    let _ = stdin.shutdown().await;
}

fn signal(child: &Child, sig: libc::c_int) {
    if let Some(pid) = child.id() {
        // SAFETY: signalling our own, not yet reaped, child.
        unsafe { libc::kill(pid as libc::pid_t, sig) };
    }
}

/// Runs `command` through the helper.
pub(crate) async fn run_sandboxed(
    helper: &HelperExe,
    policy: &Policy,
    command: Command,
) -> Result<Output, SandboxError> {
    if !cfg!(target_os = "linux") {
        return Err(SandboxError::Unsupported);
    }
    // Held until the helper is gone, then removed.
    let overlay_work = OverlayWork::for_policy(policy);
    let mut spec = spec_for(policy, &command);
    if let Some(work) = &overlay_work {
        spec.overlay_work = Some(work.path().to_path_buf());
    }
    let frame = protocol::encode_frame(&spec).map_err(|e| {
        SandboxError::InvalidPolicy(format!(
            "cannot encode the policy (paths must be UTF-8): {e}"
        ))
    })?;
    let (status_read, status_write) = status_pipe()?;
    let std_cmd = helper_command(helper, status_write.as_raw_fd());
    let mut cmd = tokio::process::Command::from(std_cmd);
    cmd.kill_on_drop(true);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| SandboxError::Spawn {
        path: helper.path().to_path_buf(),
        source,
    })?;
    drop(status_write);

    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let cap = policy.output_cap;
    let out = async move {
        match stdout {
            Some(s) => read_capped(s, cap).await,
            None => (Vec::new(), false),
        }
    };
    let err = async move {
        match stderr {
            Some(s) => read_capped(s, cap).await,
            None => (Vec::new(), false),
        }
    };
    let wait = async {
        match tokio::time::timeout(command.timeout, child.wait()).await {
            Ok(status) => status.map(|s| (s, false)),
            Err(_) => {
                // The helper kills pid 1 (and with it the tree) and reaps it before exiting.
                signal(&child, libc::SIGTERM);
                match tokio::time::timeout(TERM_GRACE, child.wait()).await {
                    Ok(status) => status.map(|s| (s, true)),
                    Err(_) => {
                        let _ = child.start_kill();
                        child.wait().await.map(|s| (s, true))
                    }
                }
            }
        }
    };
    let (_, (stdout, stdout_truncated), (stderr, stderr_truncated), waited) =
        tokio::join!(feed(stdin, frame, command.stdin), out, err, wait);
    let (helper_status, timed_out) = waited.map_err(io_err("waiting for the sandbox helper"))?;
    let duration = start.elapsed();

    let statuses = read_statuses(status_read);
    if let Some(error) = setup_error(&statuses) {
        return Err(error);
    }
    let reported = statuses.iter().rev().find_map(|s| match s {
        Status::Exit(code) => Some(*code),
        _ => None,
    });
    let exit_code = match (reported, timed_out) {
        (Some(code), _) => code,
        // Killed before it could report: only acceptable after our own timeout kill.
        (None, true) => exit_code(helper_status),
        (None, false) => {
            let excerpt = String::from_utf8_lossy(&stderr[..stderr.len().min(300)]).into_owned();
            return Err(SandboxError::Helper(format!(
                "{} exited with {helper_status}; stderr: {excerpt:?}",
                helper.path().display()
            )));
        }
    };
    let memory_kills = statuses
        .iter()
        .filter_map(|s| match s {
            Status::MemoryKills(n) => Some(*n),
            _ => None,
        })
        .sum();
    Ok(Output {
        stdout,
        stderr,
        stdout_truncated,
        stderr_truncated,
        exit_code,
        timed_out,
        duration,
        memory_kills,
    })
}

/// Runs `command` directly, in a session (and process group) of its own with no controlling
/// terminal, without any sandbox.
pub(crate) async fn run_unsandboxed(
    policy: &Policy,
    command: Command,
) -> Result<Output, SandboxError> {
    let workspace =
        std::fs::canonicalize(&policy.workspace).map_err(io_err("resolving the workspace"))?;
    let mut std_cmd = std::process::Command::new("/bin/bash");
    std_cmd
        .arg("-c")
        .arg(&command.script)
        .env_clear()
        .env(
            "PATH",
            "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
        )
        .env("HOME", &workspace)
        .env("PWD", &workspace)
        .env("LANG", "C.UTF-8")
        .current_dir(&workspace)
        .stdin(if command.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let limits = [
        (
            libc::RLIMIT_CPU,
            policy.cpu_seconds,
            policy.cpu_seconds.saturating_add(1),
        ),
        (
            libc::RLIMIT_FSIZE,
            policy.file_size_bytes,
            policy.file_size_bytes,
        ),
        (libc::RLIMIT_NOFILE, policy.open_files, policy.open_files),
        (libc::RLIMIT_CORE, 0, 0),
    ];
    // SAFETY: runs between fork and exec; setsid and setrlimit are async-signal-safe.
    unsafe {
        std_cmd.pre_exec(move || {
            // A session (and so a process group) of its own, without the user's terminal.
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            for (resource, soft, hard) in limits {
                let lim = libc::rlimit {
                    rlim_cur: soft,
                    rlim_max: hard,
                };
                if libc::setrlimit(resource, &lim) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut cmd = tokio::process::Command::from(std_cmd);
    cmd.kill_on_drop(true);
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + command.timeout;
    let mut child = cmd.spawn().map_err(|source| SandboxError::Spawn {
        path: "/bin/bash".into(),
        source,
    })?;
    let pgid = child.id().map(|id| id as libc::pid_t);
    let kill_group = move || {
        if let Some(pgid) = pgid {
            // SAFETY: signalling the process group we created; ESRCH when it is gone is fine.
            unsafe { libc::killpg(pgid, libc::SIGKILL) };
        }
    };

    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let cap = policy.output_cap;
    // Outputs end when the group is dead; a process that left the group (setsid) and kept the
    // pipes open is abandoned shortly after the deadline, keeping what it wrote.
    let abandon = Some(deadline + UNSANDBOXED_DRAIN_GRACE);
    let out = async move {
        match stdout {
            Some(s) => read_capped_until(s, cap, abandon).await,
            None => (Vec::new(), false),
        }
    };
    let err = async move {
        match stderr {
            Some(s) => read_capped_until(s, cap, abandon).await,
            None => (Vec::new(), false),
        }
    };
    let wait = async {
        let waited = tokio::time::timeout_at(deadline, child.wait()).await;
        // Background jobs die with the command, as they do in the sandbox's pid namespace.
        kill_group();
        match waited {
            Ok(status) => status.map(|s| (exit_code(s), false)),
            Err(_) => child.wait().await.map(|s| (exit_code(s), true)),
        }
    };
    let feed_input = async move {
        if let (Some(mut pipe), Some(input)) = (stdin, command.stdin) {
            let _ = pipe.write_all(&input).await;
            let _ = pipe.shutdown().await;
        }
    };
    let (_, waited, (stdout, stdout_truncated), (stderr, stderr_truncated)) =
        tokio::join!(feed_input, wait, out, err);
    let (exit_code, timed_out) = waited.map_err(io_err("waiting for bash"))?;
    Ok(Output {
        stdout,
        stderr,
        stdout_truncated,
        stderr_truncated,
        exit_code,
        timed_out,
        duration: start.elapsed(),
        memory_kills: 0,
    })
}
