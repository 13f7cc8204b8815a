//! What changed in a workspace, as data: the entries on each side of a change, the changes,
//! and the ones write-back holds back. Computing a change set is `changes.rs`; rendering it as
//! a patch is `patch.rs`; the write-back policy is `guard.rs`.

use std::path::PathBuf;

/// An entry as it is on one side of a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A regular file with its permission bits (`0o777` mask) and size.
    File {
        /// Permission bits.
        mode: u32,
        /// Size in bytes.
        size: u64,
    },
    /// A directory with its permission bits.
    Dir {
        /// Permission bits.
        mode: u32,
    },
    /// A symlink with its raw target (never resolved).
    Symlink {
        /// What the link says, byte for byte.
        target: PathBuf,
    },
}

/// Whether a path appeared, disappeared or changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// New in the workspace.
    Added,
    /// Gone from the workspace.
    Deleted,
    /// Same kind on both sides, different content, target or permissions.
    Modified,
}

/// The content side of a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// Content did not change (a permission change, or a directory).
    Same,
    /// Unified-diff hunks (`@@` lines onward) of a text file or a symlink target.
    Text(Vec<u8>),
    /// At least one side holds a NUL byte.
    Binary,
    /// One side is above `Limits::max_text_diff_bytes`.
    TooLarge,
    /// The baseline snapshot did not keep this file's original content (in-place mode);
    /// the change was detected from size and times.
    BaselineNotKept,
    /// The patch size cap was already reached; the diff was not computed.
    Omitted,
}

/// One change. A path whose kind changed (say a file replaced by a symlink) appears twice:
/// `Deleted` with the old entry, then `Added` with the new one, as git shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Path relative to the workspace root.
    pub path: PathBuf,
    /// Added, deleted or modified.
    pub kind: ChangeKind,
    /// The entry in the baseline (`None` when added).
    pub old: Option<Node>,
    /// The entry in the workspace (`None` when deleted).
    pub new: Option<Node>,
    /// The content difference.
    pub content: Content,
}

/// All changes of a workspace relative to its baseline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeSet {
    /// The changes, parents before children, a deletion before an addition at one path.
    pub changes: Vec<Change>,
    /// Paths of the baseline that changed under the workspace since it was recorded (the
    /// user edited the original, or a parent moved on after a fork). Their changes cannot be
    /// known exactly and are not in `changes`; write-back and adopt refuse while any exist.
    pub conflicts: Vec<PathBuf>,
    /// Fifos, sockets and devices in the workspace: never diffed or written back.
    pub ignored_special: Vec<PathBuf>,
    /// Changes write-back leaves out (`guard.rs`); they stay in `changes` for the patch.
    pub held_back: Vec<HeldBack>,
    pub(crate) max_patch_bytes: u64,
}

impl ChangeSet {
    /// True when there is nothing to apply and nothing in conflict.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.conflicts.is_empty()
    }
}

/// Why a change was not written back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoldReason {
    /// The path is, or is under, this protected entry.
    Protected(PathBuf),
    /// A symlink whose target leaves the workspace.
    LinkLeavesWorkspace(PathBuf),
}

impl std::fmt::Display for HoldReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HoldReason::Protected(entry) => write!(
                f,
                "other tools run what is under `{}` ([workspace] protect)",
                entry.display()
            ),
            HoldReason::LinkLeavesWorkspace(target) => write!(
                f,
                "a symlink to `{}`, outside the workspace",
                target.display()
            ),
        }
    }
}

/// A change write-back left out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldBack {
    pub path: PathBuf,
    pub reason: HoldReason,
}
