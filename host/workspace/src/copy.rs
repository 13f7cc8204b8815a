//! Copying a tree into a workspace (full copy) or into a run's baseline store (bounded
//! snapshot), with reflinks where the filesystem supports them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;

use crate::fsutil::{
    clone_or_copy, create_file_new, open_file_nofollow, set_dir_mode, set_mode, set_mtime, split,
    DirCursor,
};
use crate::manifest::{walk, Kind, Manifest};
use crate::{Limits, Result, WorkspaceError};

/// What a copy did: counts, bytes, and what it left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Regular files copied.
    pub files: u64,
    /// Directories created.
    pub dirs: u64,
    /// Symlinks recreated (as links, never followed).
    pub symlinks: u64,
    /// Bytes of file content copied.
    pub bytes: u64,
    /// Files copied as reflinks (shared extents) rather than byte copies.
    pub reflinked_files: u64,
    /// Fifos, sockets and devices that were skipped (relative paths).
    pub skipped_special: Vec<PathBuf>,
    /// Files whose content a bounded baseline snapshot did not keep (relative paths).
    pub not_kept: Vec<PathBuf>,
}

/// Which entries a copy takes.
#[derive(Clone, Copy)]
pub(crate) enum Policy {
    /// Everything but special files; limited by `Limits::max_copy_bytes`.
    Full,
    /// Directories and the content of files within the snapshot bounds; symlinks live only in
    /// the manifest.
    Snapshot,
}

/// The result of a copy: its report, the source's manifest as seen before each entry was
/// read, and which files' content the destination holds.
pub(crate) struct Copied {
    pub report: CopyReport,
    pub manifest: Manifest,
    pub kept: BTreeSet<PathBuf>,
}

/// Copies `src` into the empty directory `dst`.
pub(crate) fn copy_tree(
    src: &Dir,
    src_path: &Path,
    dst: &Dir,
    dst_path: &Path,
    policy: Policy,
    limits: &Limits,
) -> Result<Copied> {
    let mut report = CopyReport::default();
    let mut kept = BTreeSet::new();
    let mut dir_modes: Vec<(PathBuf, u32)> = Vec::new();
    // One destination directory open at a time, moved with the walk (entries of one directory
    // are visited together, and a deep chain costs one open per level).
    let mut cursor = DirCursor::new(dst).map_err(WorkspaceError::io("open directory", dst_path))?;
    let mut snapshot_total: u64 = 0;

    let manifest = walk(src, src_path, limits, |rel, src_parent, name, meta| {
        let parent_rel = rel.parent().unwrap_or(Path::new(""));
        let dst_here = dst_path.join(rel);
        let dst_parent = cursor.open(dst, parent_rel).map_err(WorkspaceError::io(
            "open directory",
            dst_path.join(parent_rel),
        ))?;
        match &meta.kind {
            Kind::Dir => {
                dst_parent
                    .create_dir(name)
                    .map_err(WorkspaceError::io("create directory", dst_here))?;
                report.dirs += 1;
                if matches!(policy, Policy::Full) {
                    dir_modes.push((rel.to_path_buf(), meta.mode));
                }
            }
            Kind::File => {
                if matches!(policy, Policy::Snapshot) {
                    let fits = meta.size <= limits.snapshot_max_file_bytes
                        && snapshot_total.saturating_add(meta.size)
                            <= limits.snapshot_max_total_bytes;
                    if !fits {
                        report.not_kept.push(rel.to_path_buf());
                        return Ok(());
                    }
                    snapshot_total += meta.size;
                } else if let Some(max) = limits.max_copy_bytes {
                    if report.bytes.saturating_add(meta.size) > max {
                        return Err(WorkspaceError::LimitExceeded {
                            path: src_path.to_path_buf(),
                            what: "bytes",
                            limit: max,
                        });
                    }
                }
                let from = open_file_nofollow(src_parent, name)
                    .map_err(WorkspaceError::io("open file", src_path.join(rel)))?;
                let to = create_file_new(dst_parent, name)
                    .map_err(WorkspaceError::io("create file", dst_here.clone()))?;
                let (to, n, reflinked) = clone_or_copy(from, to)
                    .map_err(WorkspaceError::io("copy file", dst_here.clone()))?;
                if matches!(policy, Policy::Full) {
                    set_mode(&to, meta.mode)
                        .and_then(|()| set_mtime(&to, meta.mtime))
                        .map_err(WorkspaceError::io("set permissions of", dst_here))?;
                }
                report.files += 1;
                report.bytes += n;
                report.reflinked_files += u64::from(reflinked);
                kept.insert(rel.to_path_buf());
            }
            Kind::Symlink(target) => {
                if matches!(policy, Policy::Full) {
                    dst_parent
                        .symlink_contents(target, name)
                        .map_err(WorkspaceError::io("create symlink", dst_here))?;
                    report.symlinks += 1;
                }
            }
            Kind::Special => report.skipped_special.push(rel.to_path_buf()),
        }
        Ok(())
    })?;

    // Permissions last, deepest first, so a read-only directory is filled before it closes.
    for (rel, mode) in dir_modes.iter().rev() {
        let here = dst_path.join(rel);
        let (parent, name) = split(rel).map_err(WorkspaceError::io("set permissions of", &here))?;
        cursor
            .open(dst, parent)
            .and_then(|parent| set_dir_mode(parent, Path::new(name), *mode))
            .map_err(WorkspaceError::io("set permissions of", here))?;
    }
    Ok(Copied {
        report,
        manifest,
        kept,
    })
}
