//! Applying a change set from one tree onto another: write-back to the user's directory and
//! adopting a branch into its parent. Content comes from the source tree's files, never from
//! the patch. Every target entry is checked against the state recorded when the source was
//! copied, first for all paths before anything is touched, then again right before each one
//! is replaced, so concurrent edits are refused rather than overwritten.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::fs::Dir;

use crate::change::{ChangeKind, ChangeSet, Node};
use crate::fsutil::{
    clone_or_copy, create_file_new, open_dir_nofollow, open_file_nofollow, set_dir_mode, set_mode,
    split, DirCursor,
};
use crate::manifest::{stat_entry, Manifest};
use crate::{Result, WorkspaceError};

/// The two trees of an apply: content is read from `src` and written to `dst`.
pub(crate) struct Trees<'a> {
    pub src: &'a Dir,
    pub src_path: &'a Path,
    pub dst: &'a Dir,
    pub dst_path: &'a Path,
}

/// What the target must hold at `rel` right before a step: the recorded entry for deletions
/// and modifications, nothing for additions (a kind change's deletion has run by then).
fn expectation_holds(
    t: &Trees<'_>,
    cursor: &mut DirCursor,
    expected: &Manifest,
    rel: &Path,
    kind: ChangeKind,
) -> Result<bool> {
    let here = t.dst_path.join(rel);
    let (parent, name) = split(rel).map_err(WorkspaceError::io("inspect", &here))?;
    let parent_dir = match cursor.open(t.dst, parent) {
        Ok(d) => d,
        // A parent that is missing or no longer a plain directory: only fine for an addition
        // whose parent is added earlier in this same apply.
        Err(_) if kind == ChangeKind::Added => return Ok(true),
        Err(e) => return Err(WorkspaceError::io("inspect", here)(e)),
    };
    let now = stat_entry(parent_dir, name).map_err(WorkspaceError::io("inspect", &here))?;
    Ok(match kind {
        ChangeKind::Added => now.is_none(),
        _ => match (expected.get(rel), now) {
            (Some(e), Some(n)) => e.same_state(&n),
            _ => false,
        },
    })
}

/// Refuses up front when any target entry is not as recorded.
fn precheck(set: &ChangeSet, t: &Trees<'_>, expected: &Manifest) -> Result<()> {
    let mut stale = Vec::new();
    let mut cursor = DirCursor::new(t.dst).map_err(WorkspaceError::io("open", t.dst_path))?;
    for c in &set.changes {
        // An addition at a path that also has a deletion (a kind change) is checked as the
        // deletion; the addition's emptiness only holds after that runs.
        let kind_change = c.kind == ChangeKind::Added && expected.contains_key(&c.path);
        let kind = if kind_change {
            ChangeKind::Deleted
        } else {
            c.kind
        };
        if !expectation_holds(t, &mut cursor, expected, &c.path, kind)? {
            stale.push(c.path.clone());
        }
    }
    stale.dedup();
    if stale.is_empty() {
        Ok(())
    } else {
        Err(WorkspaceError::ConcurrentChange {
            dir: t.dst_path.to_path_buf(),
            files: stale,
            patch_path: None,
        })
    }
}

fn temp_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!(
        ".baton-apply-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Writes the source file's content to a fresh temporary entry next to the target and
/// renames it over the target: the rename replaces whatever is there (even a symlink)
/// without following it, and readers never see a half-written file.
fn put_file(t: &Trees<'_>, rel: &Path, dst_parent: &Dir, name: &OsStr, mode: u32) -> Result<()> {
    let here = t.dst_path.join(rel);
    let (sp, sn) = split(rel).map_err(WorkspaceError::io("read", t.src_path.join(rel)))?;
    let src_file = open_dir_nofollow(t.src, sp)
        .and_then(|d| open_file_nofollow(&d, sn))
        .map_err(WorkspaceError::io("read", t.src_path.join(rel)))?;
    let tmp = temp_name();
    let tmp_file = create_file_new(dst_parent, OsStr::new(&tmp))
        .map_err(WorkspaceError::io("create temporary file for", &here))?;
    let written = clone_or_copy(src_file, tmp_file)
        .and_then(|(f, _, _)| set_mode(&f, mode))
        .and_then(|()| dst_parent.rename(&tmp, dst_parent, name));
    if let Err(e) = written {
        let _ = dst_parent.remove_file(&tmp);
        return Err(WorkspaceError::io("write", here)(e));
    }
    Ok(())
}

/// Creates the link next to the target and renames it over, for the same reasons as files.
fn put_symlink(
    t: &Trees<'_>,
    rel: &Path,
    dst_parent: &Dir,
    name: &OsStr,
    target: &Path,
) -> Result<()> {
    let here = t.dst_path.join(rel);
    let tmp = temp_name();
    dst_parent
        .symlink_contents(target, &tmp)
        .map_err(WorkspaceError::io("create symlink", &here))?;
    if let Err(e) = dst_parent.rename(&tmp, dst_parent, name) {
        let _ = dst_parent.remove_file(&tmp);
        return Err(WorkspaceError::io("create symlink", here)(e));
    }
    Ok(())
}

/// Applies `set` (computed from `t.src` against the baseline `expected`) onto `t.dst`.
pub(crate) fn apply(set: &ChangeSet, t: &Trees<'_>, expected: &Manifest) -> Result<()> {
    if !set.conflicts.is_empty() {
        return Err(WorkspaceError::ConcurrentChange {
            dir: t.dst_path.to_path_buf(),
            files: set.conflicts.clone(),
            patch_path: None,
        });
    }
    precheck(set, t, expected)?;
    // One directory open at a time, moved in change order (linear for a deep chain).
    let mut cursor = DirCursor::new(t.dst).map_err(WorkspaceError::io("open", t.dst_path))?;

    // Deletions children first, then additions and modifications parents first.
    for c in set
        .changes
        .iter()
        .rev()
        .filter(|c| c.kind == ChangeKind::Deleted)
    {
        let here = t.dst_path.join(&c.path);
        if !expectation_holds(t, &mut cursor, expected, &c.path, ChangeKind::Deleted)? {
            return Err(stale(t, &c.path));
        }
        let (parent, name) = split(&c.path).map_err(WorkspaceError::io("delete", &here))?;
        let d = cursor
            .open(t.dst, parent)
            .map_err(WorkspaceError::io("delete", &here))?;
        let removed = match c.old {
            Some(Node::Dir { .. }) => d.remove_dir(name),
            _ => d.remove_file(name),
        };
        removed.map_err(WorkspaceError::io("delete", here))?;
    }
    // Directory permissions are set last, deepest first, so a read-only directory still
    // receives its new children.
    let mut dir_modes = Vec::new();
    for c in set.changes.iter().filter(|c| c.kind != ChangeKind::Deleted) {
        let here = t.dst_path.join(&c.path);
        if !expectation_holds(t, &mut cursor, expected, &c.path, c.kind)? {
            return Err(stale(t, &c.path));
        }
        let (parent, name) = split(&c.path).map_err(WorkspaceError::io("write", &here))?;
        let d = cursor
            .open(t.dst, parent)
            .map_err(WorkspaceError::io("open directory", &here))?;
        match &c.new {
            Some(Node::Dir { mode }) => {
                if c.kind == ChangeKind::Added {
                    d.create_dir(name)
                        .map_err(WorkspaceError::io("create directory", &here))?;
                }
                dir_modes.push((&c.path, *mode));
            }
            Some(Node::File { mode, .. }) => put_file(t, &c.path, d, name, *mode)?,
            Some(Node::Symlink { target }) => put_symlink(t, &c.path, d, name, target)?,
            None => {}
        }
    }
    for (rel, mode) in dir_modes.into_iter().rev() {
        let here = t.dst_path.join(rel);
        let (parent, name) = split(rel).map_err(WorkspaceError::io("set permissions of", &here))?;
        cursor
            .open(t.dst, parent)
            .and_then(|parent| set_dir_mode(parent, Path::new(name), mode))
            .map_err(WorkspaceError::io("set permissions of", here))?;
    }
    Ok(())
}

fn stale(t: &Trees<'_>, rel: &Path) -> WorkspaceError {
    WorkspaceError::ConcurrentChange {
        dir: t.dst_path.to_path_buf(),
        files: vec![rel.to_path_buf()],
        patch_path: None,
    }
}
