//! Comparing a workspace with its baseline: what was added, deleted or modified, with the
//! diff of each text file.

use std::collections::BTreeSet;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;

use crate::change::{Change, ChangeKind, ChangeSet, Content, Node};
use crate::fsutil::{open_dir_nofollow, read_bounded, same_content, split, PERM_MASK};
use crate::manifest::{changed_paths, scan, Kind, Manifest, Meta};
use crate::{Limits, Result, WorkspaceError};

/// Where the baseline's state and content come from.
pub(crate) enum BaseRef<'a> {
    /// Nothing: every entry is new.
    Empty,
    /// A live directory (the user's original, or a fork's parent) whose recorded state is
    /// `manifest`; content is read from it for paths still in that state.
    Live {
        dir: &'a Dir,
        path: &'a Path,
        manifest: &'a Manifest,
    },
    /// A private snapshot holding the content of the files in `kept`.
    Snapshot {
        dir: &'a Dir,
        path: &'a Path,
        manifest: &'a Manifest,
        kept: &'a BTreeSet<PathBuf>,
    },
}

impl BaseRef<'_> {
    /// The directory and host path (for messages) holding `rel`'s original content, if kept.
    fn content_of(&self, rel: &Path) -> Option<(&Dir, &Path)> {
        match self {
            BaseRef::Empty => None,
            BaseRef::Live { dir, path, .. } => Some((dir, path)),
            BaseRef::Snapshot {
                dir, path, kept, ..
            } => kept.contains(rel).then_some((*dir, *path)),
        }
    }
}

fn node(meta: &Meta) -> Option<Node> {
    match &meta.kind {
        Kind::File => Some(Node::File {
            mode: meta.mode & PERM_MASK,
            size: meta.size,
        }),
        Kind::Dir => Some(Node::Dir {
            mode: meta.mode & PERM_MASK,
        }),
        Kind::Symlink(t) => Some(Node::Symlink { target: t.clone() }),
        Kind::Special => None,
    }
}

struct Differ<'a> {
    work: &'a Dir,
    work_path: &'a Path,
    base: &'a BaseRef<'a>,
    limits: &'a Limits,
    text_bytes: u64,
}

impl Differ<'_> {
    fn read(&self, dir: &Dir, root: &Path, rel: &Path) -> Result<Vec<u8>> {
        let here = root.join(rel);
        let (parent, name) = split(rel).map_err(WorkspaceError::io("read", &here))?;
        let d = open_dir_nofollow(dir, parent).map_err(WorkspaceError::io("read", &here))?;
        read_bounded(&d, name, self.limits.max_text_diff_bytes)
            .map_err(WorkspaceError::io("read", here))
    }

    /// The content diff of a file whose old side is `old` (absent when added) and new side
    /// `new` (absent when deleted).
    fn file_content(
        &mut self,
        rel: &Path,
        old: Option<&Meta>,
        new: Option<&Meta>,
    ) -> Result<Content> {
        let base_dir = match old {
            Some(_) => match self.base.content_of(rel) {
                Some(d) => Some(d),
                None => return Ok(Content::BaselineNotKept),
            },
            None => None,
        };
        let max = self.limits.max_text_diff_bytes;
        if old.is_some_and(|m| m.size > max) || new.is_some_and(|m| m.size > max) {
            return Ok(Content::TooLarge);
        }
        if self.text_bytes >= self.limits.max_patch_bytes {
            return Ok(Content::Omitted);
        }
        let old_bytes = match base_dir {
            Some((dir, root)) => self.read(dir, root, rel)?,
            None => Vec::new(),
        };
        let new_bytes = match new {
            Some(_) => self.read(self.work, self.work_path, rel)?,
            None => Vec::new(),
        };
        if old_bytes.contains(&0) || new_bytes.contains(&0) {
            return Ok(Content::Binary);
        }
        let h = crate::textdiff::hunks(&old_bytes, &new_bytes);
        self.text_bytes += h.len() as u64;
        Ok(Content::Text(h))
    }

    fn link_content(old: Option<&Path>, new: Option<&Path>) -> Content {
        let bytes = |p: Option<&Path>| {
            p.map(|p| p.as_os_str().as_bytes().to_vec())
                .unwrap_or_default()
        };
        Content::Text(crate::textdiff::hunks(&bytes(old), &bytes(new)))
    }

    fn added(&mut self, rel: &Path, m: &Meta) -> Result<Option<Change>> {
        let content = match &m.kind {
            Kind::File => self.file_content(rel, None, Some(m))?,
            Kind::Symlink(t) => Self::link_content(None, Some(t)),
            _ => Content::Same,
        };
        Ok(node(m).map(|n| Change {
            path: rel.to_path_buf(),
            kind: ChangeKind::Added,
            old: None,
            new: Some(n),
            content,
        }))
    }

    fn deleted(&mut self, rel: &Path, m: &Meta) -> Result<Option<Change>> {
        let content = match &m.kind {
            Kind::File => self.file_content(rel, Some(m), None)?,
            Kind::Symlink(t) => Self::link_content(Some(t), None),
            _ => Content::Same,
        };
        Ok(node(m).map(|n| Change {
            path: rel.to_path_buf(),
            kind: ChangeKind::Deleted,
            old: Some(n),
            new: None,
            content,
        }))
    }

    /// Both sides exist with the same kind.
    fn modified(&mut self, rel: &Path, b: &Meta, w: &Meta) -> Result<Option<Change>> {
        let mode_changed = (b.mode & PERM_MASK) != (w.mode & PERM_MASK);
        let content = match (&b.kind, &w.kind) {
            (Kind::File, Kind::File) => {
                let differs = if b.size != w.size {
                    true
                } else if let Some((dir, _)) = self.base.content_of(rel) {
                    !same_content(dir, rel, self.work, rel)
                        .map_err(WorkspaceError::io("compare", self.work_path.join(rel)))?
                } else {
                    // Not kept in the snapshot: only metadata can tell.
                    b.mtime != w.mtime || b.ctime != w.ctime
                };
                if differs {
                    self.file_content(rel, Some(b), Some(w))?
                } else {
                    Content::Same
                }
            }
            (Kind::Symlink(x), Kind::Symlink(y)) => {
                if x == y {
                    return Ok(None);
                }
                Self::link_content(Some(x), Some(y))
            }
            (Kind::Dir, Kind::Dir) => Content::Same,
            _ => return Ok(None),
        };
        let symlink = matches!(b.kind, Kind::Symlink(_));
        if content == Content::Same && (symlink || !mode_changed) {
            return Ok(None);
        }
        Ok(node(b).zip(node(w)).map(|(o, n)| Change {
            path: rel.to_path_buf(),
            kind: ChangeKind::Modified,
            old: Some(o),
            new: Some(n),
            content,
        }))
    }
}

/// Computes the changes of the workspace `work` relative to `base`.
pub(crate) fn compute(
    work: &Dir,
    work_path: &Path,
    base: &BaseRef<'_>,
    limits: &Limits,
) -> Result<ChangeSet> {
    let current = scan(work, work_path, limits)?;
    let empty = Manifest::new();
    let (base_manifest, conflicts) = match base {
        BaseRef::Empty => (&empty, Vec::new()),
        BaseRef::Live {
            dir,
            path,
            manifest,
        } => {
            let now = scan(dir, path, limits)?;
            (*manifest, changed_paths(manifest, &now))
        }
        BaseRef::Snapshot { manifest, .. } => (*manifest, Vec::new()),
    };
    let conflict_set: BTreeSet<&PathBuf> = conflicts.iter().collect();
    let mut differ = Differ {
        work,
        work_path,
        base,
        limits,
        text_bytes: 0,
    };
    let mut set = ChangeSet {
        max_patch_bytes: limits.max_patch_bytes,
        ..ChangeSet::default()
    };
    let paths: BTreeSet<&PathBuf> = base_manifest.keys().chain(current.keys()).collect();
    for rel in paths {
        if conflict_set.contains(rel) {
            continue;
        }
        let (b, w) = (base_manifest.get(rel), current.get(rel));
        if w.is_some_and(|w| w.kind == Kind::Special) {
            set.ignored_special.push(rel.clone());
            continue;
        }
        if b.is_some_and(|b| b.kind == Kind::Special) {
            // The plan never saw it (specials are not copied); something it put there would
            // replace the user's fifo or socket, so it is reported and not applied.
            if w.is_some() {
                set.ignored_special.push(rel.clone());
            }
            continue;
        }
        let same_kind = matches!(
            (b.map(|m| &m.kind), w.map(|m| &m.kind)),
            (Some(Kind::File), Some(Kind::File))
                | (Some(Kind::Dir), Some(Kind::Dir))
                | (Some(Kind::Symlink(_)), Some(Kind::Symlink(_)))
        );
        match (b, w) {
            (Some(b), Some(w)) if same_kind => set.changes.extend(differ.modified(rel, b, w)?),
            (b, w) => {
                if let Some(b) = b {
                    set.changes.extend(differ.deleted(rel, b)?);
                }
                if let Some(w) = w {
                    set.changes.extend(differ.added(rel, w)?);
                }
            }
        }
    }
    set.conflicts = conflicts;
    Ok(set)
}
