//! The re-executed helper: a fresh single-threaded process that builds the sandbox and runs the
//! command in it.
//!
//! Two processes take part. The helper proper (outside) creates the cgroups, unshares the
//! namespaces, writes the uid/gid maps and forks; it then supervises: it waits for the command,
//! kills it on SIGTERM from the host (the timeout) or when the host process disappears, reports
//! the exit code and removes the cgroups. Its child is pid 1 of the new pid namespace: it builds
//! the filesystem view, applies the remaining layers and execs `bash`, so `bash` itself is pid 1
//! and its exit (or its being killed) ends every process in the namespace.

pub(crate) mod cgroup;

pub(crate) use cgroup::sweep_stale as sweep_stale_cgroups;
mod confine;
mod identity;
mod mounts;
pub(crate) mod sys;

use std::ffi::CString;
use std::fs::File;
use std::io::{Read, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::protocol::{self, LayerState, Spec, Status, STATUS_FD};
use sys::{StepError, StepResult};

/// Where the helper reports; writes are single lines, below PIPE_BUF, so the two processes
/// sharing it never interleave within a line.
struct Reporter(ManuallyDrop<File>);

impl Reporter {
    fn send(&self, status: Status) {
        let _ = (&*self.0).write_all(status.to_line().as_bytes());
    }
    fn layer(&self, name: &str, state: LayerState) {
        self.send(Status::Layer {
            name: name.into(),
            state,
        });
    }
    fn error(&self, err: StepError) {
        self.send(if err.out_of_processes {
            Status::OutOfProcesses { step: err.step }
        } else {
            Status::Error {
                step: err.step,
                message: err.message,
            }
        });
    }
}

static TERMINATE: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigterm(_: libc::c_int) {
    TERMINATE.store(true, Ordering::SeqCst);
}

/// Exit code of the helper when setup failed (the report on the status pipe says why).
const SETUP_FAILED: i32 = 125;

/// Runs the helper and returns the process exit code.
pub(crate) fn main() -> i32 {
    // SAFETY: fcntl on a descriptor number only queries it.
    if unsafe { libc::fcntl(STATUS_FD, libc::F_GETFD) } < 0 {
        eprintln!("baton sandbox helper: no status pipe on fd {STATUS_FD}; this mode is only for Baton's own use");
        return SETUP_FAILED;
    }
    // SAFETY: fd 3 was checked open above; ManuallyDrop keeps it from being closed twice.
    let reporter = Reporter(ManuallyDrop::new(unsafe { File::from_raw_fd(STATUS_FD) }));
    // SAFETY: setting close-on-exec on our own descriptor.
    unsafe { libc::fcntl(STATUS_FD, libc::F_SETFD, libc::FD_CLOEXEC) };
    match supervise(&reporter) {
        Ok(code) => {
            reporter.send(Status::Exit(code));
            code
        }
        Err(err) => {
            reporter.error(err);
            SETUP_FAILED
        }
    }
}

fn read_spec() -> StepResult<Spec> {
    // SAFETY: fd 0 is our stdin; ManuallyDrop leaves it open for the command.
    let mut stdin = ManuallyDrop::new(unsafe { File::from_raw_fd(0) });
    protocol::read_frame(&mut *stdin).map_err(|e| StepError::io("read spec from stdin", e))
}

/// Paths go into the new root by their canonical host path, so no symlink is followed later
/// against the wrong root.
fn canonical_spec(mut spec: Spec) -> StepResult<Spec> {
    spec.workspace = std::fs::canonicalize(&spec.workspace)
        .map_err(|e| StepError::io(format!("workspace {}", spec.workspace.display()), e))?;
    if !spec.workspace.is_dir() {
        return Err(StepError::new(
            "workspace",
            format!("{} is not a directory", spec.workspace.display()),
        ));
    }
    let canonical_layer = |path: &Path| -> StepResult<PathBuf> {
        let canonical = std::fs::canonicalize(path)
            .map_err(|e| StepError::io(format!("overlay layer {}", path.display()), e))?;
        let text = canonical.to_string_lossy();
        if !canonical.is_dir() || text.contains([':', ',', '\\']) {
            return Err(StepError::new(
                "overlay layer",
                format!(
                    "{} must be a directory without ':', ',' or '\\' in its path",
                    canonical.display()
                ),
            ));
        }
        Ok(canonical)
    };
    spec.overlay_lowers = spec
        .overlay_lowers
        .iter()
        .map(|path| canonical_layer(path))
        .collect::<StepResult<_>>()?;
    if let Some(work) = &spec.overlay_work {
        spec.overlay_work = Some(canonical_layer(work)?);
    }
    if spec.overlay_work.is_some() {
        canonical_layer(&spec.workspace)?;
    }
    let mut read_only = Vec::with_capacity(spec.read_only.len());
    for path in &spec.read_only {
        let canonical = std::fs::canonicalize(path)
            .map_err(|e| StepError::io(format!("read-only path {}", path.display()), e))?;
        let reserved = canonical == Path::new("/")
            || ["/workspace", "/tmp", "/proc", "/dev"]
                .iter()
                .any(|r| canonical.starts_with(r));
        if reserved {
            return Err(StepError::new(
                "read-only path",
                format!(
                    "{} resolves to {}, which would hide or be hidden by the sandbox's own /, /workspace, /tmp, /proc or /dev",
                    path.display(),
                    canonical.display()
                ),
            ));
        }
        read_only.push(canonical);
    }
    spec.read_only = read_only;
    Ok(spec)
}

fn supervise(reporter: &Reporter) -> StepResult<i32> {
    // SAFETY: getppid has no preconditions.
    let original_parent = unsafe { libc::getppid() };
    let spec = read_spec()?;
    sys::close_from(STATUS_FD + 1);
    let spec = canonical_spec(spec)?;

    let (cgroups, reports) =
        cgroup::RunCgroups::create(spec.max_processes, spec.memory_bytes, &spec.run_cgroups);
    for (name, state) in reports {
        reporter.layer(&name, state);
    }
    cgroups.join()?;

    // SAFETY: installing a handler that only stores to an atomic.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigterm as extern "C" fn(libc::c_int) as usize;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }

    // The supervisor keeps the host's mount namespace: pivot_root in the child's namespace
    // would otherwise move the supervisor's root too and take /sys (the cgroups) away from it.
    let idmapped = if identity::caller_is_root() {
        // See the identity module: the command must not be host root.
        let ids = identity::sandbox_ids()?;
        let userns = identity::mapped_user_namespace(ids)?;
        let trees = identity::IdmappedTrees::prepare(&spec, &userns, ids)?;
        identity::enter(&userns)?;
        // SAFETY: unshare with a constant flag in a single-threaded process.
        sys::check(unsafe { libc::unshare(libc::CLONE_NEWPID) }, || {
            "unshare pid namespace".into()
        })?;
        reporter.layer(
            "identity",
            LayerState::Active(format!(
                "host uid {} gid {}, no groups; {}",
                ids.uid,
                ids.gid,
                trees.describe()
            )),
        );
        Some(trees)
    } else {
        // SAFETY: geteuid/getegid have no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        // SAFETY: unshare with constant flags in a single-threaded process.
        sys::check(
            unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWPID) },
            || "unshare user and pid namespaces".into(),
        )?;
        sys::write_file(Path::new("/proc/self/setgroups"), "deny")?;
        sys::write_file(Path::new("/proc/self/uid_map"), &format!("0 {uid} 1"))?;
        sys::write_file(Path::new("/proc/self/gid_map"), &format!("0 {gid} 1"))?;
        reporter.layer(
            "identity",
            LayerState::Active(format!("the caller's uid {uid} gid {gid}")),
        );
        None
    };

    let mut sync = [0; 2];
    // SAFETY: pipe2 fills the two-element array.
    sys::check(
        unsafe { libc::pipe2(sync.as_mut_ptr(), libc::O_CLOEXEC) },
        || "pipe".into(),
    )?;
    // SAFETY: the process is single-threaded, so the child may run arbitrary code.
    let child = unsafe { libc::fork() };
    if child < 0 {
        return Err(StepError::fork("fork pid 1 of the sandbox"));
    }
    if child == 0 {
        // SAFETY: closing our copy of the write end.
        unsafe { libc::close(sync[1]) };
        let err = match in_sandbox(&spec, idmapped.as_ref(), sync[0], reporter) {
            Err(err) => err,
            Ok(never) => match never {},
        };
        reporter.error(err);
        // SAFETY: leave without running the parent's atexit handlers.
        unsafe { libc::_exit(SETUP_FAILED) };
    }
    // The child holds its own copies; detached trees go away with the last descriptor.
    drop(idmapped);
    // Releasing the child only after it has armed PDEATHSIG closes the window in which it could
    // outlive us unnoticed; a write error means it already died, which waitpid reports.
    // SAFETY: one byte from a local buffer to our pipe, then closing both ends.
    unsafe {
        libc::close(sync[0]);
        libc::write(sync[1], [1u8].as_ptr().cast(), 1);
        libc::close(sync[1]);
    }
    let code = wait_for(child, original_parent);
    let kills = cgroups.memory_kills();
    if kills > 0 {
        reporter.send(Status::MemoryKills(kills));
    }
    cgroups.remove();
    Ok(code)
}

/// Waits for the command, killing it when asked to (SIGTERM) or when the host has gone.
fn wait_for(child: libc::pid_t, original_parent: libc::pid_t) -> i32 {
    // SAFETY: pidfd_open on our own child; failure (old kernel) falls back to timed sleeps.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, child, 0) } as libc::c_int;
    loop {
        // SAFETY: plain process-control syscalls on our own child.
        unsafe {
            if TERMINATE.load(Ordering::SeqCst) || libc::getppid() != original_parent {
                libc::kill(child, libc::SIGKILL);
            }
            let mut status = 0;
            let waited = libc::waitpid(child, &mut status, libc::WNOHANG | libc::__WALL);
            if waited == child {
                if libc::WIFEXITED(status) {
                    return libc::WEXITSTATUS(status);
                }
                if libc::WIFSIGNALED(status) {
                    return 128 + libc::WTERMSIG(status);
                }
                continue;
            }
            if waited < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return SETUP_FAILED;
            }
            if pidfd >= 0 {
                let mut poll = libc::pollfd {
                    fd: pidfd,
                    events: libc::POLLIN,
                    revents: 0,
                };
                libc::poll(&mut poll, 1, 250);
            } else {
                libc::usleep(10_000);
            }
        }
    }
}

/// Pid 1 of the sandbox: builds it and execs bash. Returns only on failure.
fn in_sandbox(
    spec: &Spec,
    idmapped: Option<&identity::IdmappedTrees>,
    sync: libc::c_int,
    reporter: &Reporter,
) -> StepResult<std::convert::Infallible> {
    if idmapped.is_some() {
        // Before PR_SET_PDEATHSIG, which a change of credentials clears.
        identity::become_namespace_root()?;
    }
    sys::prctl(
        libc::PR_SET_PDEATHSIG,
        libc::SIGKILL as libc::c_ulong,
        "PR_SET_PDEATHSIG",
    )?;
    let mut byte = [0u8; 1];
    // SAFETY: sync is the read end of our pipe; EOF means the supervisor died before releasing us.
    // ManuallyDrop: the descriptor is closed explicitly below.
    let released = ManuallyDrop::new(unsafe { File::from_raw_fd(sync) }).read(&mut byte);
    // SAFETY: closing our pipe end.
    unsafe { libc::close(sync) };
    if !matches!(released, Ok(1)) {
        return Err(StepError::new(
            "wait for supervisor",
            "the supervisor exited before releasing pid 1",
        ));
    }
    // SAFETY: restoring the default disposition; the handler belongs to the supervisor.
    unsafe { libc::signal(libc::SIGTERM, libc::SIG_DFL) };
    // A session of its own, with no controlling terminal: `/dev/tty` is then no terminal at
    // all (ENXIO), so a command can neither write past the output capture to the user's screen
    // nor read what the user types during the run.
    // SAFETY: setsid has no arguments; we are not a group leader (our pgid is the supervisor's).
    sys::check(unsafe { libc::setsid() }, || {
        "setsid (leave the caller's terminal session)".into()
    })?;
    let flags = libc::CLONE_NEWNS | libc::CLONE_NEWNET | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
    // SAFETY: unshare with constant flags; we hold every capability of the new user namespace.
    sys::check(unsafe { libc::unshare(flags) }, || {
        "unshare mount, net, ipc and uts namespaces".into()
    })?;

    let hostname = b"baton";
    // SAFETY: valid buffer and length.
    sys::check(
        unsafe { libc::sethostname(hostname.as_ptr().cast(), hostname.len()) },
        || "sethostname".into(),
    )?;
    reporter.layer(
        "namespaces",
        LayerState::Active("user, mount, pid, net, ipc, uts".into()),
    );

    let view = mounts::build_root(spec, idmapped)?;
    reporter.layer(
        "filesystem",
        LayerState::Active(format!(
            "new root: system dirs read-only, {}, private /tmp, fresh /proc, minimal /dev",
            view.workspace.describe()
        )),
    );

    if !spec.has_stdin {
        let null =
            File::open("/dev/null").map_err(|e| StepError::io("open /dev/null for stdin", e))?;
        // SAFETY: duplicating a valid descriptor onto stdin.
        sys::check(
            unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&null), 0) },
            || "dup2 /dev/null onto stdin".into(),
        )?;
    }

    confine::rlimits(spec)?;
    reporter.layer(
        "rlimits",
        LayerState::Active("cpu, fsize, nofile, core=0, nproc".into()),
    );

    let landlock_paths: Vec<PathBuf> = view.read_only;
    let landlock_state = confine::landlock(&landlock_paths)
        .map_err(|e| StepError::new("landlock", e.to_string()))?;
    reporter.layer("landlock", landlock_state);

    confine::drop_capabilities()?;
    reporter.layer(
        "capabilities",
        LayerState::Active("all dropped, securebits locked".into()),
    );
    sys::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, "PR_SET_NO_NEW_PRIVS")?;
    reporter.layer("no_new_privs", LayerState::Active(String::new()));

    let filters = crate::seccomp::filters()
        .map_err(|e| StepError::new("build seccomp filter", e.to_string()))?;
    reporter.layer("seccomp", LayerState::Active("deny list, EPERM".into()));
    crate::seccomp::install(&filters)
        .map_err(|e| StepError::new("install seccomp filter", e.to_string()))?;

    exec_bash(&spec.script)
}

fn exec_bash(script: &str) -> StepResult<std::convert::Infallible> {
    let script = CString::new(script)
        .map_err(|_| StepError::new("exec bash", "the script contains a NUL byte"))?;
    let argv = [
        c"bash".as_ptr(),
        c"-c".as_ptr(),
        script.as_ptr(),
        std::ptr::null(),
    ];
    let env = [
        c"PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin".as_ptr(),
        c"HOME=/workspace".as_ptr(),
        c"LANG=C.UTF-8".as_ptr(),
        c"PWD=/workspace".as_ptr(),
        c"TMPDIR=/tmp".as_ptr(),
        std::ptr::null(),
    ];
    // SAFETY: argv and env are NUL-terminated arrays of valid strings that outlive the call.
    unsafe { libc::execve(c"/bin/bash".as_ptr(), argv.as_ptr(), env.as_ptr()) };
    Err(StepError::errno("exec /bin/bash"))
}
