//! Errors: only for "the command could not be run at all". A command that fails is an
//! [`Output`](crate::Output) with a non-zero exit code.

use std::io;
use std::path::PathBuf;

/// Why a command could not be run.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The policy cannot be used (missing workspace, relative path, ...).
    #[error("invalid sandbox policy: {0}")]
    InvalidPolicy(String),
    /// The command cannot be passed to bash (e.g. it contains a NUL byte).
    #[error("invalid command: {0}")]
    InvalidCommand(String),
    /// The helper executable could not be started.
    #[error("could not start the sandbox helper {path}: {source}")]
    Spawn {
        /// The helper executable.
        path: PathBuf,
        /// Why starting it failed.
        source: io::Error,
    },
    /// Setting up the sandbox failed; the command did not run. Fails closed.
    #[error("sandbox setup failed at step `{step}`: {message}")]
    Setup {
        /// The step that failed, e.g. `unshare ...` or `fresh /proc: mount /newroot/proc`.
        step: String,
        /// What went wrong, with the errno name where there is one.
        message: String,
    },
    /// The command could not start: a fork during setup found no process left under the
    /// process limits (the run's `CommandsCgroup`, the command's own pids cgroup, or
    /// `RLIMIT_NPROC`), typically because other commands of the run hold them all. Not a fault
    /// of the sandbox: retrying once those commands end can succeed.
    #[error(
        "the command could not start: the process limit is reached (a fork at step `{step}` \
         was refused with EAGAIN); other commands of this run may hold every process it allows"
    )]
    OutOfProcesses {
        /// The setup step whose fork was refused.
        step: String,
    },
    /// The helper ended without reporting, e.g. because the executable does not call
    /// [`run_helper_if_requested`](crate::run_helper_if_requested) first thing in `main`.
    #[error("the sandbox helper did not report a result ({0})")]
    Helper(String),
    /// Host-side plumbing (pipes, waiting) failed.
    #[error("sandbox host I/O failed while {context}: {source}")]
    Io {
        /// What the host was doing.
        context: &'static str,
        /// The underlying error.
        source: io::Error,
    },
    /// OS sandboxing is only implemented on Linux; use [`Mode::None`](crate::Mode::None).
    #[error("the OS sandbox is only available on Linux")]
    Unsupported,
}
