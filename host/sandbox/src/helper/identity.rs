//! Who the command is on the host.
//!
//! Inside its user namespace the command is uid 0 with every capability dropped. What decides
//! which host files it may read or change is the host id that uid 0 maps to, since the kernel
//! checks permission bits against host ids:
//!
//! - **baton is not root**: the caller's own uid and gid, the only ids an unprivileged process
//!   may map. The command then has the caller's owner rights, but over nothing it could not
//!   reach anyway: the only host files in its view are the system directories (owned by root,
//!   read-only), the workspace and the caller's read-only paths (both the caller's own, shown on
//!   purpose, the latter read-only).
//! - **baton is root** (most containers and CI): mapping 0 onto host root would give the
//!   command root's owner rights over every root-owned file it can see — a mode-600 file under
//!   `/usr`, anything inside a root-owned 0700 directory of a read-only path. Instead uid 0 maps
//!   onto [`SANDBOX_ID`], an id that owns nothing, and supplementary groups are dropped, so every
//!   host file is "other" to the command. The files it must own — the workspace, and the
//!   read-only paths it was granted — are shown through *idmapped mounts* (Linux 5.12+), which
//!   present host root's files as owned by the namespace's root, and store what the command
//!   creates as root's: the workspace behaves exactly as before, on the host and inside.
//!
//! A workspace on a filesystem that cannot be idmapped (overlayfs, as in most containers; NFS)
//! is, when it is Baton's own copy (`Spec::private_workspace`), given to the command's id with
//! chown instead: the files the command makes are then that id's on the host, inside the run
//! directory (private to the caller). The user's own directory (`--in-place`) is never chowned:
//! there the run fails closed with a message that says what to change, since running the
//! command as host root is the escape this module exists to close.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use super::sys::{self, StepError, StepResult};
use crate::protocol::Spec;

/// The host uid and gid the command runs as when baton is root: an id no account uses ("batn"
/// in ASCII). Where the current user namespace does not map it, the highest id it maps.
pub const SANDBOX_ID: u32 = 0x6261_746e;

/// The host ids the command's uid 0 and gid 0 stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostIds {
    pub uid: u32,
    pub gid: u32,
}

/// Whether baton runs as root, and so must not hand the command its own identity.
pub fn caller_is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The unprivileged ids for the command of a root caller.
pub fn sandbox_ids() -> StepResult<HostIds> {
    Ok(HostIds {
        uid: unprivileged_id(Path::new("/proc/self/uid_map"))?,
        gid: unprivileged_id(Path::new("/proc/self/gid_map"))?,
    })
}

/// [`SANDBOX_ID`] when the current namespace maps it, else the highest id it maps (never 0).
fn unprivileged_id(map: &Path) -> StepResult<u32> {
    let text = std::fs::read_to_string(map)
        .map_err(|e| StepError::io(format!("read {}", map.display()), e))?;
    let ranges: Vec<(u64, u64)> = text
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace().map(|f| f.parse::<u64>().ok());
            let inside = fields.next()??;
            let _outside = fields.next()??;
            let count = fields.next()??;
            Some((inside, count))
        })
        .collect();
    let mapped = |id: u64| {
        ranges
            .iter()
            .any(|&(start, count)| id >= start && id - start < count)
    };
    if mapped(u64::from(SANDBOX_ID)) {
        return Ok(SANDBOX_ID);
    }
    ranges
        .iter()
        .map(|&(start, count)| start + count - 1)
        .filter(|&id| id != 0 && id < u64::from(u32::MAX))
        .max()
        .map(|id| id as u32)
        .ok_or_else(|| {
            StepError::new(
                "choose the command's host id",
                format!(
                    "{} maps no id but 0, so the command could only run as root",
                    map.display()
                ),
            )
        })
}

/// A user namespace whose uid 0 and gid 0 are `ids` on the host, held by a descriptor.
///
/// A process cannot write a map naming another host id for its own namespace, so a short-lived
/// child creates the namespace and we, still holding CAP_SETUID and CAP_SETGID here, write its
/// maps. The descriptor keeps the namespace alive after the child exits.
pub fn mapped_user_namespace(ids: HostIds) -> StepResult<OwnedFd> {
    let ready = pipe()?;
    let done = pipe()?;
    // SAFETY: the helper is single-threaded, so the child may run arbitrary code.
    let child = unsafe { libc::fork() };
    if child < 0 {
        return Err(StepError::fork(
            "fork to create the command's user namespace",
        ));
    }
    if child == 0 {
        // SAFETY: plain syscalls on our own pipes, then _exit without running atexit handlers.
        unsafe {
            let ok = libc::unshare(libc::CLONE_NEWUSER) == 0;
            if ok {
                libc::write(ready.1, [1u8].as_ptr().cast(), 1);
            }
            libc::close(ready.1);
            libc::close(done.1);
            let mut byte = 0u8;
            libc::read(done.0, (&mut byte as *mut u8).cast(), 1);
            libc::_exit(if ok { 0 } else { 1 });
        }
    }
    let result = (|| {
        // SAFETY: closing our copies of the child's ends.
        unsafe {
            libc::close(ready.1);
            libc::close(done.0);
        }
        let mut byte = 0u8;
        // SAFETY: one byte into a local.
        let got = unsafe { libc::read(ready.0, (&mut byte as *mut u8).cast(), 1) };
        if got != 1 {
            return Err(StepError::new(
                "create the command's user namespace",
                "unshare(CLONE_NEWUSER) failed in the child",
            ));
        }
        let proc = PathBuf::from(format!("/proc/{child}"));
        sys::write_file(&proc.join("uid_map"), &format!("0 {} 1", ids.uid))?;
        sys::write_file(&proc.join("gid_map"), &format!("0 {} 1", ids.gid))?;
        let ns = std::fs::File::open(proc.join("ns/user"))
            .map_err(|e| StepError::io("open the command's user namespace", e))?;
        Ok(OwnedFd::from(ns))
    })();
    // SAFETY: releasing and reaping our own child.
    unsafe {
        libc::close(ready.0);
        libc::close(done.1);
        let mut status = 0;
        libc::waitpid(child, &mut status, 0);
    }
    result
}

fn pipe() -> StepResult<(libc::c_int, libc::c_int)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills the two-element array.
    sys::check(
        unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) },
        || "pipe".into(),
    )?;
    Ok((fds[0], fds[1]))
}

/// Joins the user namespace (we keep our host uid: it still owns the cgroups we remove at the
/// end, while we gain the namespace's capabilities to create the others).
pub fn enter(userns: &OwnedFd) -> StepResult {
    use std::os::fd::AsRawFd;
    // SAFETY: a valid namespace descriptor, in a single-threaded process.
    sys::check(
        unsafe { libc::setns(userns.as_raw_fd(), libc::CLONE_NEWUSER) },
        || "join the command's user namespace".into(),
    )
}

/// Becomes uid 0 and gid 0 of the namespace, with no supplementary groups (root's host groups
/// would otherwise come along). Clears the parent-death signal: set it afterwards.
pub fn become_namespace_root() -> StepResult {
    // SAFETY: credential syscalls with constant arguments.
    unsafe {
        sys::check(libc::setgroups(0, std::ptr::null()), || {
            "drop supplementary groups".into()
        })?;
        sys::check(libc::setresgid(0, 0, 0), || "setresgid 0".into())?;
        sys::check(libc::setresuid(0, 0, 0), || "setresuid 0".into())?;
    }
    Ok(())
}

/// Detached, idmapped copies of the host trees the command must see as its own, made while we
/// are still privileged on the host, attached later inside the command's mount namespace.
pub struct IdmappedTrees {
    /// The workspace, or for an overlay workspace the directory holding its upper and work
    /// layers.
    /// `None` when the filesystem cannot be idmapped and the workspace, being Baton's own copy,
    /// was given to the command's id instead (see [`chown_tree`]): it is then bound as it is.
    pub workspace: Option<OwnedFd>,
    /// An overlay fork's lower layers, in the spec's order (empty with `workspace` `None`).
    pub lowers: Vec<OwnedFd>,
    /// The read-only paths, in the spec's order; `None` where the filesystem cannot be
    /// idmapped (the path is then bound as it is: readable where it is world-readable).
    pub read_only: Vec<Option<OwnedFd>>,
}

impl IdmappedTrees {
    pub fn prepare(spec: &Spec, userns: &OwnedFd, ids: HostIds) -> StepResult<Self> {
        let own = overlay_dir(spec)?.unwrap_or_else(|| spec.workspace.clone());
        let tree = sys::open_tree_clone(&own)?;
        let (workspace, lowers) = match sys::idmap_tree(&tree, userns) {
            Ok(()) => {
                let lowers = spec
                    .overlay_lowers
                    .iter()
                    .map(|layer| required(layer, userns))
                    .collect::<StepResult<_>>()?;
                (Some(tree), lowers)
            }
            Err(err) if spec.private_workspace && unsupported(&err) => {
                // The layers only, not the directory holding them: for a run's own workspace
                // that is the run directory.
                let layers = std::iter::once(&spec.workspace)
                    .chain(&spec.overlay_work)
                    .chain(&spec.overlay_lowers);
                for dir in layers {
                    chown_tree(dir, ids)?;
                }
                (None, Vec::new())
            }
            Err(err) => return Err(idmap_error(&own, err)),
        };
        let read_only = spec
            .read_only
            .iter()
            .map(|path| {
                let tree = sys::open_tree_clone(path)?;
                Ok(sys::idmap_tree(&tree, userns).ok().map(|()| tree))
            })
            .collect::<StepResult<_>>()?;
        Ok(IdmappedTrees {
            workspace,
            lowers,
            read_only,
        })
    }

    /// How the command comes to own its workspace, for the layer report.
    pub fn describe(&self) -> &'static str {
        if self.workspace.is_some() {
            "workspace idmapped"
        } else {
            "workspace chowned to it (no idmapped mounts on its filesystem)"
        }
    }
}

/// Errors of `mount_setattr(MOUNT_ATTR_IDMAP)` that mean "not on this filesystem or kernel".
fn unsupported(err: &std::io::Error) -> bool {
    matches!(
        err.raw_os_error(),
        Some(libc::EINVAL | libc::EOPNOTSUPP | libc::ENOSYS | libc::EPERM)
    )
}

/// Gives every entry of `root` (not following symlinks) to `ids`. Only for Baton's own copies,
/// and only between commands: the pid namespace of the previous command is gone, so nothing
/// rewrites the tree while it is walked and no path component can turn into a symlink.
/// Iterative, so a deep tree a plan made cannot overflow the stack. chown clears setuid and
/// setgid bits, which is what we want here anyway.
fn chown_tree(root: &Path, ids: HostIds) -> StepResult {
    use std::os::unix::fs::MetadataExt;
    let give = |path: &Path, meta: &std::fs::Metadata| -> StepResult {
        if meta.uid() == ids.uid && meta.gid() == ids.gid {
            return Ok(());
        }
        std::os::unix::fs::lchown(path, Some(ids.uid), Some(ids.gid))
            .map_err(|e| StepError::io(format!("chown {}", path.display()), e))
    };
    let meta = std::fs::symlink_metadata(root)
        .map_err(|e| StepError::io(format!("stat {}", root.display()), e))?;
    give(root, &meta)?;
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| StepError::io(format!("read directory {}", dir.display()), e))?;
        for entry in entries {
            let entry =
                entry.map_err(|e| StepError::io(format!("read directory {}", dir.display()), e))?;
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path)
                .map_err(|e| StepError::io(format!("stat {}", path.display()), e))?;
            give(&path, &meta)?;
            if meta.is_dir() {
                pending.push(path);
            }
        }
    }
    Ok(())
}

/// The directory holding an overlay workspace's upper and work layers, which must be siblings
/// (overlayfs wants them on one mount, and they are idmapped as one).
pub fn overlay_dir(spec: &Spec) -> StepResult<Option<PathBuf>> {
    let Some(work) = spec.overlay_work.as_ref() else {
        return Ok(None);
    };
    match (spec.workspace.parent(), work.parent()) {
        (Some(a), Some(b)) if a == b => Ok(Some(a.to_path_buf())),
        _ => Err(StepError::new(
            "overlay layers",
            format!(
                "the upper layer {} and the work directory {} must be in one directory",
                spec.workspace.display(),
                work.display()
            ),
        )),
    }
}

fn required(path: &Path, userns: &OwnedFd) -> StepResult<OwnedFd> {
    let tree = sys::open_tree_clone(path)?;
    sys::idmap_tree(&tree, userns).map_err(|err| idmap_error(path, err))?;
    Ok(tree)
}

fn idmap_error(path: &Path, err: std::io::Error) -> StepError {
    let code = err.raw_os_error().unwrap_or(0);
    StepError::new(
        format!("idmapped mount of {}", path.display()),
        format!(
            "{} ({err}): baton runs as root, so the command runs as an unprivileged id and sees \
             the workspace through an idmapped mount, which this filesystem or kernel does not \
             offer (Linux 5.12+; ext4, xfs, btrfs and tmpfs have it, overlayfs and NFS do not). \
             A copied workspace is then given to the command's id instead, but the user's own \
             directory (--in-place) is not: run baton as a non-root user, work on a copy, or \
             keep the directory on such a filesystem",
            sys::errno_name(code)
        ),
    )
}
