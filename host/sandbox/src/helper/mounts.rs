//! Builds the command's filesystem view inside the new mount namespace.
//!
//! The sequence follows bubblewrap: a scratch tmpfs is mounted over `/tmp` and made the root with
//! `pivot_root`, which leaves the host's whole tree reachable at `/oldroot` (including the host's
//! real `/tmp`, where workspaces often live). The visible root is a second tmpfs at `/newroot`
//! into which the allowed directories are bind-mounted from `/oldroot`. A final
//! `pivot_root(".", ".")` into `/newroot` and a lazy unmount of the old root leave the host tree
//! unreachable: not hidden, but absent from the namespace.

use std::path::{Path, PathBuf};

use super::identity::{self, IdmappedTrees};
use super::sys::{self, StepError, StepResult};
use crate::protocol::Spec;

/// Where the workspace appears, and the command's working directory.
pub const WORKSPACE: &str = "/workspace";

/// System directories shown read-only when the host has them.
pub const SYSTEM_DIRS: [&str; 7] = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc"];

/// Files under /etc that only root should read; with the host's uid mapped to root inside, the
/// command would otherwise read them through the owner bits, so they are covered with an empty
/// file.
const MASKED_FILES: [&str; 7] = [
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/shadow-",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/security/opasswd",
    "/etc/ssh/ssh_host_ed25519_key",
];

const DEVICES: [&str; 6] = ["null", "zero", "full", "random", "urandom", "tty"];

const OLD: &str = "/oldroot";
const NEW: &str = "/newroot";

fn old(path: &Path) -> PathBuf {
    Path::new(OLD).join(path.strip_prefix("/").unwrap_or(path))
}

fn new(path: &Path) -> PathBuf {
    Path::new(NEW).join(path.strip_prefix("/").unwrap_or(path))
}

/// Where overlay layers are attached in the scratch root, out of the final view.
const LAYERS: &str = "/layers";

/// Builds the view and enters it. The paths in `spec` are absolute, canonical host paths.
/// `idmapped` holds the trees to show through idmapped mounts when the command runs as an
/// unprivileged host id (see the identity module); without it they are bound as they are.
pub fn build_root(spec: &Spec, idmapped: Option<&IdmappedTrees>) -> StepResult<View> {
    // Nothing we mount may propagate back to the host's namespace.
    sys::mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REC | libc::MS_PRIVATE,
        None,
        "make mounts private",
    )?;
    let scratch = Path::new("/tmp");
    sys::mount(
        Some(Path::new("tmpfs")),
        scratch,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some("size=64k,mode=0700"),
        "scratch root",
    )?;
    sys::mkdir(&scratch.join("newroot"), 0o755)?;
    sys::mkdir(&scratch.join("oldroot"), 0o755)?;
    sys::chdir(scratch)?;
    sys::pivot_root(Path::new("."), Path::new("oldroot"))?;
    sys::chdir(Path::new("/"))?;

    sys::mount(
        Some(Path::new("tmpfs")),
        Path::new(NEW),
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some("size=1m,mode=0755"),
        "new root",
    )?;

    let mut visible_ro = Vec::new();
    for dir in SYSTEM_DIRS {
        let dir = Path::new(dir);
        let source = old(dir);
        match std::fs::symlink_metadata(&source) {
            Ok(meta) if meta.file_type().is_symlink() => {
                // usr-merged hosts: /bin -> usr/bin. Recreate the link, it resolves inside.
                let target = std::fs::read_link(&source)
                    .map_err(|e| StepError::io(format!("readlink {}", dir.display()), e))?;
                sys::symlink(&target, &new(dir))?;
            }
            Ok(meta) if meta.is_dir() => {
                bind_read_only(&source, &new(dir), true)?;
                visible_ro.push(dir.to_path_buf());
            }
            _ => {}
        }
    }
    for (index, path) in spec.read_only.iter().enumerate() {
        let is_dir = std::fs::metadata(old(path))
            .map_err(|e| StepError::io(format!("read-only path {}", path.display()), e))?
            .is_dir();
        if let Some(parent) = new(path).parent() {
            sys::mkdir_all(parent)?;
        }
        match idmapped.and_then(|trees| trees.read_only.get(index)?.as_ref()) {
            Some(tree) => {
                make_target(&new(path), is_dir)?;
                sys::move_mount(tree, &new(path))?;
                set_flags(
                    &new(path),
                    sys::MOUNT_ATTR_RDONLY | sys::MOUNT_ATTR_NOSUID | sys::MOUNT_ATTR_NODEV,
                    true,
                )?;
            }
            None => bind_read_only(&old(path), &new(path), is_dir)?,
        }
        visible_ro.push(path.clone());
    }
    for file in MASKED_FILES {
        let target = new(Path::new(file));
        if std::fs::symlink_metadata(&target)
            .map(|m| m.is_file())
            .unwrap_or(false)
        {
            sys::mount(
                Some(Path::new("/oldroot/dev/null")),
                &target,
                None,
                libc::MS_BIND,
                None,
                "mask secret file",
            )?;
        }
    }
    if visible_ro.iter().any(|p| p == Path::new("/etc")) {
        mask_private_entries(&new(Path::new("/etc")))?;
    }

    // The workspace: the one writable host directory, shown through an overlay whenever there
    // is a work directory for one, so that `/proc/self/mountinfo` names no host path (a bind
    // mount's root field is the directory's path on its filesystem; an overlay's is `/`).
    let workspace = new(Path::new(WORKSPACE));
    sys::mkdir(&workspace, 0o755)?;
    let shown = match &spec.overlay_work {
        Some(_) => {
            let (lowers, upper, work) =
                attach_layers(spec, idmapped.filter(|t| t.workspace.is_some()))?;
            match mount_overlay(&workspace, &lowers, &upper, &work) {
                Ok(()) => WorkspaceMount::Overlay,
                // A run's own workspace (no lower layers) needs no overlay to work: where the
                // kernel refuses one, it is bound as it is, from the attached layer (which
                // carries its idmapping), and the report says its path shows.
                Err(_) if spec.overlay_lowers.is_empty() => {
                    bind(&upper, &workspace, "bind workspace")?;
                    WorkspaceMount::Bind
                }
                Err(err) => return Err(err),
            }
        }
        None => {
            match idmapped.and_then(|trees| trees.workspace.as_ref()) {
                Some(tree) => sys::move_mount(tree, &workspace)?,
                None => bind(&old(&spec.workspace), &workspace, "bind workspace")?,
            }
            WorkspaceMount::Bind
        }
    };
    set_flags(
        &workspace,
        sys::MOUNT_ATTR_NOSUID | sys::MOUNT_ATTR_NODEV,
        false,
    )?;

    let tmp = new(Path::new("/tmp"));
    sys::mkdir(&tmp, 0o1777)?;
    sys::mount(
        Some(Path::new("tmpfs")),
        &tmp,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some(&format!("size={},mode=1777", spec.tmp_bytes.max(4096))),
        "private /tmp",
    )?;

    build_dev()?;

    let proc_dir = new(Path::new("/proc"));
    sys::mkdir(&proc_dir, 0o555)?;
    // Mounted from inside the new pid namespace, so it lists only the command's processes.
    // Read-only: a host running as root maps to kuid 0 inside, and kuid 0 passes the owner
    // check on /proc/sys and the like whatever its capabilities; Landlock also refuses writes
    // to /proc, but it is best effort, so the mount must hold on its own.
    sys::mount(
        Some(Path::new("proc")),
        &proc_dir,
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
        None,
        "fresh /proc",
    )?;

    sys::chdir(Path::new(NEW))?;
    sys::pivot_root(Path::new("."), Path::new("."))?;
    // The old root (the scratch tmpfs with the host tree under it) is now stacked on "/";
    // detaching it drops every host mount from the namespace at once.
    sys::umount_detach(Path::new("."))?;
    sys::chdir(Path::new("/"))?;
    sys::mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
        None,
        "read-only root",
    )?;
    sys::chdir(Path::new(WORKSPACE))?;
    Ok(View {
        read_only: visible_ro,
        workspace: shown,
    })
}

/// What [`build_root`] made.
pub struct View {
    /// The host paths shown read-only.
    pub read_only: Vec<PathBuf>,
    pub workspace: WorkspaceMount,
}

/// How `/workspace` was mounted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkspaceMount {
    /// An overlay: `/proc/self/mountinfo` shows only neutral paths.
    Overlay,
    /// A bind mount of the host directory, whose path shows in mountinfo's root field: the
    /// user's own directory (`--in-place`), or where the kernel refused an overlay.
    Bind,
}

impl WorkspaceMount {
    pub fn describe(self) -> &'static str {
        match self {
            WorkspaceMount::Overlay => "/workspace rw (an overlay: no host path in mountinfo)",
            WorkspaceMount::Bind => {
                "/workspace rw (a bind mount: its host path shows in mountinfo)"
            }
        }
    }
}

/// Mounts an overlay of `upper` (and its work directory `work`) over `lowers` at `target`.
/// `userxattr` keeps overlayfs' marks in the user.* namespace, which a user namespace may
/// write.
fn mount_overlay(target: &Path, lowers: &[PathBuf], upper: &Path, work: &Path) -> StepResult {
    let lowers: Vec<String> = lowers
        .iter()
        .map(|layer| layer.to_string_lossy().into_owned())
        .collect();
    let options = format!(
        "lowerdir={},upperdir={},workdir={},userxattr",
        lowers.join(":"),
        upper.display(),
        work.display()
    );
    sys::mount(
        Some(Path::new("overlay")),
        target,
        Some("overlay"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some(&options),
        "overlay workspace",
    )
}

fn bind(source: &Path, target: &Path, step: &'static str) -> StepResult {
    sys::mount(
        Some(source),
        target,
        None,
        libc::MS_BIND | libc::MS_REC,
        None,
        step,
    )
}

/// Covers what the host keeps from other users under `etc` (the new root's `/etc`): `/dev/null`
/// over every regular file that is not world-readable, an empty read-only tmpfs over every
/// directory that is not world-searchable.
///
/// The command runs as the host uid mapped to 0, with the host's supplementary groups, so owner
/// and group bits let it read whatever the invoking user can. For a host running as root (CI,
/// containers) that includes TLS and SSH private keys (`/etc/ssl/private/*.key`), service
/// credentials and the like, which a fixed list ([`MASKED_FILES`]) cannot enumerate; "not
/// readable by others" is the generic mark of a secret. Symlinks are left alone: they resolve
/// inside the new root, to an entry checked here or to one outside /etc, which is not walked
/// (`/usr` is too large to walk per run, and secrets do not live there). A directory this
/// process cannot list is skipped: it has the command's credentials plus capabilities that only
/// apply to files the host user owns, so the command cannot list it either. On a typical /etc
/// (about 1200 entries) the walk costs 1-3 ms per run.
fn mask_private_entries(etc: &Path) -> StepResult {
    use std::os::unix::fs::PermissionsExt;
    let mut pending = vec![etc.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            // DirEntry::metadata does not follow symlinks.
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            let mode = meta.permissions().mode();
            let path = entry.path();
            if meta.is_dir() {
                if mode & 0o001 == 0 {
                    sys::mount(
                        Some(Path::new("tmpfs")),
                        &path,
                        Some("tmpfs"),
                        libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        Some("size=4k,mode=0755"),
                        "mask private directory",
                    )?;
                } else {
                    pending.push(path);
                }
            } else if meta.is_file() && mode & 0o004 == 0 {
                sys::mount(
                    Some(Path::new("/oldroot/dev/null")),
                    &path,
                    None,
                    libc::MS_BIND,
                    None,
                    "mask private file",
                )?;
            }
        }
    }
    Ok(())
}

fn build_dev() -> StepResult {
    let dev = new(Path::new("/dev"));
    sys::mkdir(&dev, 0o755)?;
    sys::mount(
        Some(Path::new("tmpfs")),
        &dev,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NOEXEC,
        Some("size=64k,mode=0755"),
        "minimal /dev",
    )?;
    for name in DEVICES {
        let source = Path::new("/oldroot/dev").join(name);
        if !source.exists() {
            continue;
        }
        let target = dev.join(name);
        sys::touch(&target)?;
        sys::mount(
            Some(&source),
            &target,
            None,
            libc::MS_BIND,
            None,
            "bind device",
        )?;
    }
    for (link, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        sys::symlink(Path::new(target), &dev.join(link))?;
    }
    sys::mount(
        None,
        &dev,
        None,
        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NOEXEC,
        None,
        "read-only /dev",
    )?;
    Ok(())
}

/// Attaches an overlay workspace's layers under [`LAYERS`] in the scratch root (idmapped trees,
/// or bind mounts of the host directories), so the overlay's options — which
/// `/proc/self/mountinfo` shows — name only those neutral paths, never the host's; the scratch
/// root, and these mounts with it, are detached before the command runs. Returns the lower
/// layers (an empty scratch directory when the spec has none), the upper layer and the work
/// directory as paths there.
fn attach_layers(
    spec: &Spec,
    idmapped: Option<&IdmappedTrees>,
) -> StepResult<(Vec<PathBuf>, PathBuf, PathBuf)> {
    let layers = Path::new(LAYERS);
    sys::mkdir(layers, 0o700)?;
    let attach = |tree: Option<&std::os::fd::OwnedFd>, host: &Path, target: &Path| {
        sys::mkdir(target, 0o755)?;
        match tree {
            Some(tree) => sys::move_mount(tree, target),
            None => sys::mount(
                Some(&old(host)),
                target,
                None,
                libc::MS_BIND | libc::MS_REC,
                None,
                "bind overlay layer",
            ),
        }
    };
    let mut lowers = Vec::with_capacity(spec.overlay_lowers.len());
    for (index, host) in spec.overlay_lowers.iter().enumerate() {
        let target = layers.join(index.to_string());
        let tree = idmapped.and_then(|trees| trees.lowers.get(index));
        attach(tree, host, &target)?;
        lowers.push(target);
    }
    if lowers.is_empty() {
        // A run's own workspace: overlayfs wants a lower layer, and an empty one in the
        // scratch root makes the overlay show exactly the upper layer.
        let empty = layers.join("empty");
        sys::mkdir(&empty, 0o755)?;
        lowers.push(empty);
    }
    let dir = identity::overlay_dir(spec)?
        .ok_or_else(|| StepError::new("overlay layers", "no work directory"))?;
    let top = layers.join("top");
    attach(
        idmapped.and_then(|trees| trees.workspace.as_ref()),
        &dir,
        &top,
    )?;
    let name = |path: &Path| -> StepResult<PathBuf> {
        path.file_name().map(|name| top.join(name)).ok_or_else(|| {
            StepError::new("overlay layers", format!("{} has no name", path.display()))
        })
    };
    let work = spec
        .overlay_work
        .as_deref()
        .ok_or_else(|| StepError::new("overlay layers", "no work directory"))?;
    Ok((lowers, name(&spec.workspace)?, name(work)?))
}

fn make_target(target: &Path, is_dir: bool) -> StepResult {
    if is_dir {
        sys::mkdir(target, 0o755)
    } else {
        sys::touch(target)
    }
}

fn bind_read_only(source: &Path, target: &Path, is_dir: bool) -> StepResult {
    make_target(target, is_dir)?;
    sys::mount(
        Some(source),
        target,
        None,
        libc::MS_BIND | libc::MS_REC,
        None,
        "bind read-only path",
    )?;
    set_flags(
        target,
        sys::MOUNT_ATTR_RDONLY | sys::MOUNT_ATTR_NOSUID | sys::MOUNT_ATTR_NODEV,
        true,
    )
}

/// Applies mount flags to a bind mount and everything below it; before Linux 5.12 only the top
/// mount can be changed, keeping the flags the host locked on it.
fn set_flags(target: &Path, attrs: u64, read_only: bool) -> StepResult {
    if sys::mount_setattr_recursive(target, attrs)? {
        return Ok(());
    }
    let mut flags = libc::MS_REMOUNT | libc::MS_BIND | libc::MS_NOSUID | libc::MS_NODEV;
    if read_only {
        flags |= libc::MS_RDONLY;
    }
    let c = sys::cstr(target)?;
    // SAFETY: zeroed statvfs filled by the kernel for a valid path.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } == 0 {
        for (st_flag, ms_flag) in [
            (libc::ST_NOEXEC, libc::MS_NOEXEC),
            (libc::ST_NOATIME, libc::MS_NOATIME),
            (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
            (libc::ST_RELATIME, libc::MS_RELATIME),
        ] {
            if st.f_flag & st_flag != 0 {
                flags |= ms_flag;
            }
        }
    }
    sys::mount(None, target, None, flags, None, "remount bind")
}
