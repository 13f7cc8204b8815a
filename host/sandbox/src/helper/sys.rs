//! Thin wrappers over the raw syscalls the helper makes, each turning `-1` into an error that
//! names the step.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A setup step that failed: which one, and why.
#[derive(Debug)]
pub struct StepError {
    pub step: String,
    pub message: String,
    /// A fork failed because no process may be added: a pids cgroup (the command's or the
    /// run's) or `RLIMIT_NPROC` is full. The host reports it as its own error, since it is a
    /// limit doing its job rather than a broken sandbox.
    pub out_of_processes: bool,
}

impl StepError {
    pub fn new(step: impl Into<String>, message: impl Into<String>) -> Self {
        StepError {
            step: step.into(),
            message: message.into(),
            out_of_processes: false,
        }
    }

    /// A failed `fork` at `step`, from the current `errno`: EAGAIN means a process limit.
    pub fn fork(step: impl Into<String>) -> Self {
        let err = io::Error::last_os_error();
        let out_of_processes = err.raw_os_error() == Some(libc::EAGAIN);
        StepError {
            out_of_processes,
            ..Self::io(step, err)
        }
    }

    /// Wraps the current `errno` with its symbolic name, e.g. `EPERM (Operation not permitted)`.
    pub fn errno(step: impl Into<String>) -> Self {
        Self::io(step, io::Error::last_os_error())
    }

    pub fn io(step: impl Into<String>, err: io::Error) -> Self {
        let message = match err.raw_os_error() {
            Some(code) => format!("{} ({err})", errno_name(code)),
            None => err.to_string(),
        };
        StepError::new(step, message)
    }
}

pub type StepResult<T = ()> = Result<T, StepError>;

/// The symbolic name of the errno values setup can plausibly hit.
pub fn errno_name(code: i32) -> String {
    let name = match code {
        libc::EPERM => "EPERM",
        libc::ENOENT => "ENOENT",
        libc::EACCES => "EACCES",
        libc::EBUSY => "EBUSY",
        libc::EEXIST => "EEXIST",
        libc::ENOTDIR => "ENOTDIR",
        libc::EINVAL => "EINVAL",
        libc::ENOSPC => "ENOSPC",
        libc::ENOSYS => "ENOSYS",
        libc::EROFS => "EROFS",
        libc::ENOMEM => "ENOMEM",
        libc::EAGAIN => "EAGAIN",
        libc::EUSERS => "EUSERS",
        libc::EOPNOTSUPP => "EOPNOTSUPP",
        libc::ENODEV => "ENODEV",
        libc::ELOOP => "ELOOP",
        _ => return format!("errno {code}"),
    };
    name.to_string()
}

pub fn cstr(path: impl AsRef<OsStr>) -> StepResult<CString> {
    CString::new(path.as_ref().as_bytes())
        .map_err(|_| StepError::new("path", format!("{:?} contains a NUL byte", path.as_ref())))
}

/// Checks a libc return value.
pub fn check(ret: libc::c_int, step: impl FnOnce() -> String) -> StepResult {
    if ret < 0 {
        Err(StepError::errno(step()))
    } else {
        Ok(())
    }
}

pub fn mount(
    source: Option<&Path>,
    target: &Path,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
    step: &str,
) -> StepResult {
    let source_c = source.map(cstr).transpose()?;
    let target_c = cstr(target)?;
    let fstype_c = fstype.map(cstr).transpose()?;
    let data_c = data.map(cstr).transpose()?;
    // SAFETY: every pointer is either null or a valid NUL-terminated string that outlives the call.
    let ret = unsafe {
        libc::mount(
            source_c.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
            target_c.as_ptr(),
            fstype_c.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
            flags,
            data_c
                .as_ref()
                .map_or(std::ptr::null(), |s| s.as_ptr().cast()),
        )
    };
    check(ret, || format!("{step}: mount {}", target.display()))
}

/// `struct mount_attr` from linux/mount.h.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

pub const MOUNT_ATTR_RDONLY: u64 = 0x1;
pub const MOUNT_ATTR_NOSUID: u64 = 0x2;
pub const MOUNT_ATTR_NODEV: u64 = 0x4;
const AT_RECURSIVE: libc::c_uint = 0x8000;

/// Sets mount attributes on `target` and every mount below it. Returns `Ok(false)` when the
/// kernel lacks `mount_setattr` (before 5.12), so the caller can fall back.
pub fn mount_setattr_recursive(target: &Path, set: u64) -> StepResult<bool> {
    let target_c = cstr(target)?;
    let attr = MountAttr {
        attr_set: set,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: valid path string and a properly sized, initialised mount_attr.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            target_c.as_ptr(),
            AT_RECURSIVE,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if ret == 0 {
        return Ok(true);
    }
    let err = io::Error::last_os_error();
    if err.raw_os_error() == Some(libc::ENOSYS) {
        return Ok(false);
    }
    Err(StepError::io(
        format!("mount_setattr {}", target.display()),
        err,
    ))
}

const MOUNT_ATTR_IDMAP: u64 = 0x0010_0000;
const OPEN_TREE_CLONE: libc::c_uint = 1;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;

/// A detached copy of the mount tree at `source` (`open_tree(OPEN_TREE_CLONE | AT_RECURSIVE)`),
/// not attached anywhere until [`move_mount`].
pub fn open_tree_clone(source: &Path) -> StepResult<OwnedFd> {
    let source_c = cstr(source)?;
    // SAFETY: valid path string; the returned descriptor is owned below.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_open_tree,
            libc::AT_FDCWD,
            source_c.as_ptr(),
            OPEN_TREE_CLONE | libc::O_CLOEXEC as libc::c_uint | AT_RECURSIVE,
        )
    };
    if fd < 0 {
        return Err(StepError::errno(format!("open_tree {}", source.display())));
    }
    // SAFETY: a fresh descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Makes the detached tree `tree` an idmapped mount: files are seen with their ids mapped
/// through the user namespace `userns` (on-disk id `k` appears as the host id that `k` maps
/// to in `userns`, and the reverse for files created through it).
pub fn idmap_tree(tree: &OwnedFd, userns: &OwnedFd) -> io::Result<()> {
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_IDMAP,
        attr_clr: 0,
        propagation: 0,
        userns_fd: userns.as_raw_fd() as u64,
    };
    // SAFETY: valid descriptors, an empty path with AT_EMPTY_PATH and a sized mount_attr.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            tree.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_EMPTY_PATH as libc::c_uint | AT_RECURSIVE,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if ret == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Attaches the detached tree `tree` at `target`.
pub fn move_mount(tree: &OwnedFd, target: &Path) -> StepResult {
    let target_c = cstr(target)?;
    // SAFETY: a valid descriptor with an empty path, and a valid target path.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            tree.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_FDCWD,
            target_c.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        )
    };
    check(ret as libc::c_int, || {
        format!("move_mount onto {}", target.display())
    })
}

pub fn mkdir(path: &Path, mode: libc::mode_t) -> StepResult {
    let c = cstr(path)?;
    // SAFETY: valid NUL-terminated path.
    let ret = unsafe { libc::mkdir(c.as_ptr(), mode) };
    if ret < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST) {
        return Err(StepError::errno(format!("mkdir {}", path.display())));
    }
    Ok(())
}

pub fn mkdir_all(path: &Path) -> StepResult {
    let mut built = std::path::PathBuf::new();
    for component in path.components() {
        built.push(component);
        mkdir(&built, 0o755)?;
    }
    Ok(())
}

/// Creates an empty file to bind-mount a file onto.
pub fn touch(path: &Path) -> StepResult {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map(drop)
        .map_err(|e| StepError::io(format!("create mount point {}", path.display()), e))
}

pub fn symlink(target: &Path, link: &Path) -> StepResult {
    std::os::unix::fs::symlink(target, link)
        .map_err(|e| StepError::io(format!("symlink {}", link.display()), e))
}

pub fn chdir(path: &Path) -> StepResult {
    let c = cstr(path)?;
    // SAFETY: valid NUL-terminated path.
    check(unsafe { libc::chdir(c.as_ptr()) }, || {
        format!("chdir {}", path.display())
    })
}

pub fn pivot_root(new_root: &Path, put_old: &Path) -> StepResult {
    let new_c = cstr(new_root)?;
    let old_c = cstr(put_old)?;
    // SAFETY: valid NUL-terminated paths.
    let ret = unsafe { libc::syscall(libc::SYS_pivot_root, new_c.as_ptr(), old_c.as_ptr()) };
    check(ret as libc::c_int, || {
        format!("pivot_root {} {}", new_root.display(), put_old.display())
    })
}

pub fn umount_detach(target: &Path) -> StepResult {
    let c = cstr(target)?;
    // SAFETY: valid NUL-terminated path.
    check(
        unsafe { libc::umount2(c.as_ptr(), libc::MNT_DETACH) },
        || format!("umount {}", target.display()),
    )
}

/// Writes `content` to an existing file (procfs, cgroupfs) in one `write`.
pub fn write_file(path: &Path, content: &str) -> StepResult {
    std::fs::write(path, content)
        .map_err(|e| StepError::io(format!("write {:?} to {}", content, path.display()), e))
}

pub fn setrlimit(
    resource: libc::__rlimit_resource_t,
    soft: u64,
    hard: u64,
    name: &str,
) -> StepResult {
    let lim = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: valid rlimit struct.
    check(unsafe { libc::setrlimit(resource, &lim) }, || {
        format!("setrlimit {name}")
    })
}

pub fn prctl(option: libc::c_int, arg: libc::c_ulong, what: &str) -> StepResult {
    // SAFETY: prctl with integer arguments only.
    check(unsafe { libc::prctl(option, arg, 0, 0, 0) }, || {
        format!("prctl {what}")
    })
}

/// Closes every descriptor from `first` upwards, so nothing the host leaked reaches the command.
pub fn close_from(first: i32) {
    // SAFETY: close_range only closes descriptors; unsupported kernels return ENOSYS.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            libc::c_uint::MAX,
            0,
        )
    };
    if ret == 0 {
        return;
    }
    let fds: Vec<i32> = std::fs::read_dir("/proc/self/fd")
        .map(|dir| {
            dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .filter(|&fd| fd >= first)
                .collect()
        })
        .unwrap_or_default();
    for fd in fds {
        // SAFETY: closing a descriptor number; a stale one gives EBADF, which is harmless.
        unsafe { libc::close(fd) };
    }
}
