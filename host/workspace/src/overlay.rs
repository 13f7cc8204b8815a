//! Overlay forks: a branch's workspace as an overlayfs upper layer over its parent's.
//!
//! Forking is creating two empty directories (`upper`, `work`); the sandbox mounts
//! `overlay(lowerdir=<parent layers>, upperdir=upper, workdir=work, userxattr)` at `/workspace`
//! for each of the branch's commands, so the branch sees its parent's files and writes only
//! into `upper`. A branch of an overlay branch stacks: its lower layers are its parent's upper
//! followed by its parent's lowers. The merged view exists only inside the sandbox; on the host
//! the branch's changes are exactly its upper layer, in overlayfs' format:
//!
//! - a character device 0:0 is a *whiteout*: the path was deleted;
//! - a directory with the xattr `user.overlay.opaque = "y"` replaced the lower one entirely;
//! - any other directory merges with the lower one; files and symlinks replace the lower ones.
//!
//! [`OverlayFork::changes`] reads the upper layer into [`LayerOp`]s (pre-order, so a directory
//! comes before what is in it) and [`apply`] carries them out onto the parent: onto a plain
//! directory by deleting, creating and replacing entries; onto a parent that is itself an
//! overlay fork by writing into its upper layer, with whiteouts and opaque directories where the
//! parent's lower layers must stay hidden. The upper layer is written by the sandboxed branch,
//! so it is read like any workspace: one component at a time, never following a symlink, and
//! only regular files, directories, symlinks and whiteouts are carried over.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_fs_ext::DirExt;
use cap_std::ambient_authority;
use cap_std::fs::{Dir, MetadataExt};
use rustix::fs::OFlags;

use crate::error::WorkspaceError;
use crate::fsutil::{
    clone_or_copy, create_file_new, open_dir_nofollow, open_file_nofollow, set_mode, split,
    PERM_MASK,
};
use crate::manifest::WalkBounds;
use crate::{Limits, Result};

/// The xattr overlayfs (mounted with `userxattr`) marks opaque directories with.
const OPAQUE_XATTR: &str = "user.overlay.opaque";

/// A branch's overlay layers.
#[derive(Debug)]
pub struct OverlayFork {
    dir: PathBuf,
    upper: PathBuf,
    work: PathBuf,
    lowers: Vec<PathBuf>,
}

/// One change an upper layer records, relative to the workspace root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayerOp {
    /// The path was deleted (a whiteout).
    Delete(PathBuf),
    /// A directory: `opaque` ones replace whatever was there, others merge with it.
    Dir {
        path: PathBuf,
        mode: u32,
        opaque: bool,
    },
    /// A regular file with the content of the upper layer's file.
    File { path: PathBuf, mode: u32 },
    /// A symlink.
    Symlink { path: PathBuf, target: PathBuf },
}

/// Where [`apply`] writes.
#[derive(Debug, Clone, Copy)]
pub enum LayerTarget<'a> {
    /// A plain directory (the run's workspace, or a copied fork).
    Plain(&'a Path),
    /// The upper layer of an overlay fork.
    Upper(&'a Path),
}

impl OverlayFork {
    /// A fork at `dir` (created; `dir/upper` and `dir/work`) over `lowers` (topmost first).
    pub fn create(dir: &Path, lowers: Vec<PathBuf>) -> Result<OverlayFork> {
        let upper = dir.join("upper");
        let work = dir.join("work");
        for path in [&upper, &work] {
            std::fs::create_dir_all(path).map_err(WorkspaceError::io("create", path))?;
        }
        Ok(OverlayFork {
            dir: dir.to_path_buf(),
            upper,
            work,
            lowers,
        })
    }

    /// The upper layer: where the branch's writes land (the sandbox's "workspace").
    pub fn upper(&self) -> &Path {
        &self.upper
    }

    /// overlayfs' work directory (same filesystem as the upper layer).
    pub fn work(&self) -> &Path {
        &self.work
    }

    /// The lower layers, topmost first.
    pub fn lowers(&self) -> &[PathBuf] {
        &self.lowers
    }

    /// The lower layers of a fork of this fork: this upper layer, then these lowers.
    pub fn stacked(&self) -> Vec<PathBuf> {
        let mut layers = vec![self.upper.clone()];
        layers.extend(self.lowers.iter().cloned());
        layers
    }

    /// The changes the upper layer holds, in pre-order, within the default [`Limits`].
    pub fn changes(&self) -> Result<Vec<LayerOp>> {
        self.changes_within(&Limits::default())
    }

    /// The changes the upper layer holds, in pre-order, within `limits` (entries, path
    /// length, deadline).
    pub fn changes_within(&self, limits: &Limits) -> Result<Vec<LayerOp>> {
        let root = Dir::open_ambient_dir(&self.upper, ambient_authority())
            .map_err(WorkspaceError::io("open", &self.upper))?;
        let mut ops = Vec::new();
        walk(
            &root,
            &self.upper,
            &WalkBounds::new(&self.upper, limits),
            &mut ops,
        )?;
        Ok(ops)
    }

    /// Removes the fork's directory (overlayfs leaves a mode-0 directory in `work`).
    pub fn remove(&self) {
        if let Ok(entries) = std::fs::read_dir(&self.work) {
            for entry in entries.flatten() {
                let _ =
                    std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o700));
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One directory of the walk: its entries, sorted, and the next to visit.
struct Level {
    rel: PathBuf,
    entries: Vec<(OsString, cap_std::fs::Metadata)>,
    next: usize,
}

fn list(dir: &Dir, here: &Path) -> Result<Vec<(OsString, cap_std::fs::Metadata)>> {
    let mut entries = Vec::new();
    for entry in dir.entries().map_err(WorkspaceError::io("list", here))? {
        let entry = entry.map_err(WorkspaceError::io("list", here))?;
        let meta = entry
            .metadata()
            .map_err(WorkspaceError::io("inspect", here.join(entry.file_name())))?;
        entries.push((entry.file_name(), meta));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

/// Pre-order walk of an upper layer. Iterative, with one directory open at a time: a finished
/// directory is left through `..` (the layer is the branch's, which has ended, so nothing moves
/// under the walk), so a plan's 4,000-level chain costs neither stack nor descriptors, and the
/// work is linear in the tree's size.
fn walk(
    root_dir: &Dir,
    root: &Path,
    bounds: &WalkBounds<'_>,
    ops: &mut Vec<LayerOp>,
) -> Result<()> {
    let mut dir = root_dir
        .try_clone()
        .map_err(WorkspaceError::io("open", root))?;
    let mut levels = vec![Level {
        rel: PathBuf::new(),
        entries: list(&dir, root)?,
        next: 0,
    }];
    while let Some(level) = levels.last_mut() {
        let Some((name, meta)) = level.entries.get(level.next).cloned() else {
            let done = levels.pop().map(|level| level.rel).unwrap_or_default();
            if !levels.is_empty() {
                dir = parent_of(&dir).map_err(WorkspaceError::io("open", root.join(&done)))?;
            }
            continue;
        };
        level.next += 1;
        let path = level.rel.join(&name);
        bounds.check(ops.len() as u64, &path)?;
        let file_type = meta.file_type();
        if file_type.is_symlink() {
            let target = dir
                .read_link_contents(&name)
                .map_err(WorkspaceError::io("read symlink", root.join(&path)))?;
            ops.push(LayerOp::Symlink { path, target });
        } else if file_type.is_dir() {
            let sub = dir
                .open_dir_nofollow(&name)
                .map_err(WorkspaceError::io("open", root.join(&path)))?;
            let opaque = dir_fd(&dir, &name)
                .map(|fd| is_opaque(&fd))
                .map_err(WorkspaceError::io("open", root.join(&path)))?;
            ops.push(LayerOp::Dir {
                path: path.clone(),
                mode: meta.mode() & PERM_MASK,
                opaque,
            });
            let entries = list(&sub, &root.join(&path))?;
            dir = sub;
            levels.push(Level {
                rel: path,
                entries,
                next: 0,
            });
        } else if file_type.is_file() {
            ops.push(LayerOp::File {
                path,
                mode: meta.mode() & PERM_MASK,
            });
        } else if is_whiteout(&meta) {
            ops.push(LayerOp::Delete(path));
        }
        // Fifos, sockets and other devices are not carried over, as in copies.
    }
    Ok(())
}

/// The directory above `dir` (`..` of an open directory is its real parent, never a link).
fn parent_of(dir: &Dir) -> io::Result<Dir> {
    let fd = rustix::fs::openat(
        dir,
        "..",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    Ok(Dir::from_std_file(std::fs::File::from(fd)))
}

fn is_whiteout(meta: &cap_std::fs::Metadata) -> bool {
    use cap_std::fs::FileTypeExt;
    meta.file_type().is_char_device() && meta.rdev() == 0
}

/// A readable descriptor of the directory `name` in `parent` (cap-std opens directories
/// `O_PATH`, which neither xattrs nor fchmod accept), without following a symlink.
fn dir_fd(parent: &Dir, name: &OsStr) -> io::Result<OwnedFd> {
    if name == ".." || name.as_encoded_bytes().contains(&b'/') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a plain name",
        ));
    }
    Ok(rustix::fs::openat(
        parent,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?)
}

fn is_opaque(dir: &OwnedFd) -> bool {
    let mut value = [0u8; 4];
    matches!(
        rustix::fs::fgetxattr(dir, OPAQUE_XATTR, &mut value),
        Ok(1) if value[0] == b'y'
    )
}

fn temp_name() -> OsString {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    OsString::from(format!(
        ".baton-layer-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Removes whatever `name` is in `dir` (a file, symlink, whiteout or directory tree), never
/// following a symlink.
fn remove_entry(dir: &Dir, name: &OsStr) -> io::Result<()> {
    match dir.symlink_metadata(name) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(meta) if meta.is_dir() => dir.remove_dir_all(name),
        Ok(_) => dir.remove_file(name),
    }
}

/// Applies `ops` (read from the upper layer at `upper`) onto `target`; returns how many
/// entries changed.
pub fn apply(ops: &[LayerOp], upper: &Path, target: LayerTarget<'_>) -> Result<usize> {
    let src = Dir::open_ambient_dir(upper, ambient_authority())
        .map_err(WorkspaceError::io("open", upper))?;
    let (dst_path, onto_upper) = match target {
        LayerTarget::Plain(path) => (path, false),
        LayerTarget::Upper(path) => (path, true),
    };
    let dst = Dir::open_ambient_dir(dst_path, ambient_authority())
        .map_err(WorkspaceError::io("open", dst_path))?;
    // Ops come in pre-order, so most ops' parent is the last op's parent or the directory the
    // last op made: opened from there, a deep chain costs one open per level, not one per
    // level per op (quadratic).
    let mut cached: Option<(PathBuf, Dir)> = None;
    for op in ops {
        let rel = match op {
            LayerOp::Delete(path)
            | LayerOp::Dir { path, .. }
            | LayerOp::File { path, .. }
            | LayerOp::Symlink { path, .. } => path,
        };
        let here = dst_path.join(rel);
        let (parent, name) = split(rel).map_err(WorkspaceError::io("apply", &here))?;
        let parent_dir = match cached.take() {
            Some((path, dir)) if path == parent => dir,
            Some((path, dir)) if parent.parent() == Some(path.as_path()) => {
                let last = parent.file_name().unwrap_or_default();
                open_dir_nofollow(&dir, Path::new(last))
                    .map_err(WorkspaceError::io("open", dst_path.join(parent)))?
            }
            _ => open_dir_nofollow(&dst, parent)
                .map_err(WorkspaceError::io("open", dst_path.join(parent)))?,
        };
        match op {
            LayerOp::Delete(_) => {
                remove_entry(&parent_dir, name).map_err(WorkspaceError::io("delete", &here))?;
                if onto_upper {
                    // Hide the parent's lower layers' entry (unprivileged since Linux 5.8).
                    rustix::fs::mknodat(
                        parent_dir.as_fd(),
                        name,
                        rustix::fs::FileType::CharacterDevice,
                        rustix::fs::Mode::empty(),
                        0,
                    )
                    .map_err(|e| WorkspaceError::io("create a whiteout for", &here)(e.into()))?;
                }
            }
            LayerOp::Dir { mode, opaque, .. } => {
                let existing = parent_dir.symlink_metadata(name).ok();
                let keep = existing.as_ref().is_some_and(|m| m.is_dir()) && !opaque;
                if !keep {
                    remove_entry(&parent_dir, name)
                        .map_err(WorkspaceError::io("replace", &here))?;
                    parent_dir
                        .create_dir(name)
                        .map_err(WorkspaceError::io("create directory", &here))?;
                }
                let made = dir_fd(&parent_dir, name).map_err(WorkspaceError::io("open", &here))?;
                set_mode(&made, *mode).map_err(WorkspaceError::io("set permissions of", &here))?;
                if *opaque && onto_upper {
                    rustix::fs::fsetxattr(
                        &made,
                        OPAQUE_XATTR,
                        b"y",
                        rustix::fs::XattrFlags::empty(),
                    )
                    .map_err(|e| WorkspaceError::io("mark opaque", &here)(e.into()))?;
                }
            }
            LayerOp::File { mode, .. } => {
                let (sp, sn) = split(rel).map_err(WorkspaceError::io("read", upper.join(rel)))?;
                let source = open_dir_nofollow(&src, sp)
                    .and_then(|d| open_file_nofollow(&d, sn))
                    .map_err(WorkspaceError::io("read", upper.join(rel)))?;
                if parent_dir.symlink_metadata(name).is_ok_and(|m| m.is_dir()) {
                    parent_dir
                        .remove_dir_all(name)
                        .map_err(WorkspaceError::io("replace", &here))?;
                }
                let tmp = temp_name();
                let written = create_file_new(&parent_dir, &tmp)
                    .and_then(|file| clone_or_copy(source, file))
                    .and_then(|(file, _, _)| set_mode(&file, *mode))
                    .and_then(|()| parent_dir.rename(&tmp, &parent_dir, name));
                if let Err(e) = written {
                    let _ = parent_dir.remove_file(&tmp);
                    return Err(WorkspaceError::io("write", here)(e));
                }
            }
            LayerOp::Symlink { target, .. } => {
                if parent_dir.symlink_metadata(name).is_ok_and(|m| m.is_dir()) {
                    parent_dir
                        .remove_dir_all(name)
                        .map_err(WorkspaceError::io("replace", &here))?;
                }
                let tmp = temp_name();
                parent_dir
                    .symlink_contents(target, &tmp)
                    .map_err(WorkspaceError::io("create symlink", &here))?;
                if let Err(e) = parent_dir.rename(&tmp, &parent_dir, name) {
                    let _ = parent_dir.remove_file(&tmp);
                    return Err(WorkspaceError::io("create symlink", here)(e));
                }
            }
        }
        cached = Some((parent.to_path_buf(), parent_dir));
    }
    Ok(ops.len())
}
