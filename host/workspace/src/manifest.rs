//! Recording a tree's state: one entry per path with kind, permissions, size, times and
//! symlink target, gathered by a walk that never follows symlinks.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use cap_std::fs::{Dir, Metadata, MetadataExt};

use crate::fsutil::DirCursor;
use crate::{Limits, Result, WorkspaceError};

/// What kind of entry a path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    /// A symlink and its raw target, never resolved.
    Symlink(PathBuf),
    /// A fifo, socket or device: never copied, diffed or written back.
    Special,
}

/// The recorded state of one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Meta {
    pub kind: Kind,
    /// Full `st_mode` permission bits (including setuid/setgid/sticky).
    pub mode: u32,
    pub size: u64,
    pub mtime: (i64, i64),
    pub ctime: (i64, i64),
}

impl Meta {
    fn from_metadata(md: &Metadata, kind: Kind) -> Self {
        Meta {
            kind,
            mode: md.mode() & 0o7777,
            size: md.len(),
            mtime: (md.mtime(), md.mtime_nsec()),
            ctime: (md.ctime(), md.ctime_nsec()),
        }
    }

    /// Whether the entry is unchanged since it was recorded. ctime is included because it
    /// cannot be set from user space, so a rewrite that restores size and mtime still shows.
    pub(crate) fn same_state(&self, other: &Meta) -> bool {
        match (&self.kind, &other.kind) {
            (Kind::File, Kind::File) => {
                self.mode == other.mode
                    && self.size == other.size
                    && self.mtime == other.mtime
                    && self.ctime == other.ctime
            }
            (Kind::Dir, Kind::Dir) => self.mode == other.mode,
            (Kind::Symlink(a), Kind::Symlink(b)) => a == b,
            (Kind::Special, Kind::Special) => true,
            _ => false,
        }
    }
}

/// A tree's recorded state, keyed by path relative to its root (sorted parents first).
pub(crate) type Manifest = BTreeMap<PathBuf, Meta>;

/// Reads one entry's state without following it. `Ok(None)` when it does not exist.
pub(crate) fn stat_entry(dir: &Dir, name: &OsStr) -> io::Result<Option<Meta>> {
    let md = match dir.symlink_metadata(name) {
        Ok(md) => md,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let ft = md.file_type();
    let kind = if ft.is_dir() {
        Kind::Dir
    } else if ft.is_file() {
        Kind::File
    } else if ft.is_symlink() {
        Kind::Symlink(dir.read_link_contents(name)?)
    } else {
        Kind::Special
    };
    Ok(Some(Meta::from_metadata(&md, kind)))
}

/// Walks `root` depth-first, parents before children, calling `visit(rel, parent, name, meta)`
/// for every entry, and returns the manifest of what it saw. Entries that vanish while the
/// walk runs are left out. One directory is open at a time, moved through the tree by a
/// [`DirCursor`] (down by name, never through a symlink; up through a checked `..`), so a wide
/// tree cannot exhaust file descriptors and a deep one costs linear time (reopening every
/// directory from the root made a 6,000-level chain quadratic: 29 s after the plan ended).
/// Bounded by `limits`: entries, path length (so the manifest's keys stay linear in the
/// entries) and the deadline.
pub(crate) fn walk(
    root: &Dir,
    root_path: &Path,
    limits: &Limits,
    mut visit: impl FnMut(&Path, &Dir, &OsStr, &Meta) -> Result<()>,
) -> Result<Manifest> {
    let bounds = WalkBounds::new(root_path, limits);
    let mut manifest = Manifest::new();
    let mut stack = vec![PathBuf::new()];
    let mut cursor =
        DirCursor::new(root).map_err(WorkspaceError::io("open directory", root_path))?;
    while let Some(rel) = stack.pop() {
        let here = root_path.join(&rel);
        let dir = cursor
            .open(root, &rel)
            .map_err(WorkspaceError::io("open directory", here.clone()))?;
        let mut names = Vec::new();
        for entry in dir
            .entries()
            .map_err(WorkspaceError::io("list directory", here.clone()))?
        {
            let entry = entry.map_err(WorkspaceError::io("list directory", here.clone()))?;
            let name = entry.file_name();
            if name != "." && name != ".." {
                names.push(name);
            }
        }
        names.sort();
        let mut subdirs = Vec::new();
        for name in names {
            let child = rel.join(&name);
            let Some(meta) = stat_entry(dir, &name)
                .map_err(WorkspaceError::io("inspect", root_path.join(&child)))?
            else {
                continue;
            };
            bounds.check(manifest.len() as u64, &child)?;
            visit(&child, dir, &name, &meta)?;
            if meta.kind == Kind::Dir {
                subdirs.push(child.clone());
            }
            manifest.insert(child, meta);
        }
        stack.extend(subdirs.into_iter().rev());
    }
    Ok(manifest)
}

/// Records `root`'s state without doing anything else.
pub(crate) fn scan(root: &Dir, root_path: &Path, limits: &Limits) -> Result<Manifest> {
    walk(root, root_path, limits, |_, _, _, _| Ok(()))
}

/// The bounds every walk over a tree a plan shaped keeps: entries, path length, deadline.
pub(crate) struct WalkBounds<'a> {
    root_path: &'a Path,
    limits: &'a Limits,
}

impl<'a> WalkBounds<'a> {
    pub(crate) fn new(root_path: &'a Path, limits: &'a Limits) -> Self {
        WalkBounds { root_path, limits }
    }

    /// Checks the bounds before the walk takes entry number `seen` (0-based), at `rel`.
    pub(crate) fn check(&self, seen: u64, rel: &Path) -> Result<()> {
        if seen >= self.limits.max_entries {
            return Err(WorkspaceError::LimitExceeded {
                path: self.root_path.to_path_buf(),
                what: "entries",
                limit: self.limits.max_entries,
            });
        }
        if rel.as_os_str().len() as u64 > self.limits.max_path_bytes {
            return Err(WorkspaceError::LimitExceeded {
                path: self.root_path.to_path_buf(),
                what: "bytes of path (a directory chain too deep to diff or write back)",
                limit: self.limits.max_path_bytes,
            });
        }
        // The clock is read every 256 entries: cheap, and a walk costs far less than a
        // second per 256 entries.
        if seen % 256 == 0 {
            if let Some(deadline) = self.limits.deadline {
                if std::time::Instant::now() >= deadline {
                    return Err(WorkspaceError::DeadlineExceeded {
                        path: self.root_path.to_path_buf(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// Paths whose state differs between two manifests (added, removed or changed).
pub(crate) fn changed_paths(before: &Manifest, after: &Manifest) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = before
        .iter()
        .filter(|(p, m)| after.get(*p).is_none_or(|n| !m.same_state(n)))
        .map(|(p, _)| p.clone())
        .collect();
    out.extend(after.keys().filter(|p| !before.contains_key(*p)).cloned());
    out.sort();
    out
}
