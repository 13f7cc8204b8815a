//! Run workspaces: the directory a plan's sandboxed `bash` commands work in, how it starts
//! (empty, a copy of the user's directory, or the user's directory itself), how branches fork
//! it, and how its changes are computed, written to a patch, adopted from a branch and written
//! back to the user's directory.
//!
//! # Baselines
//! Changes are always relative to a baseline:
//! - [`Workspace::fresh`]: the empty tree.
//! - [`Mode::Copy`] and [`Workspace::fork`]: the live source directory (the user's original,
//!   or the parent workspace), plus a manifest of its state taken while copying (kind,
//!   permissions, size, mtime, ctime, symlink target). Paths whose state differs from the
//!   manifest later are *conflicts*: listed in [`ChangeSet::conflicts`], left out of the
//!   changes, and write-back or adopt refuse while any exist.
//! - [`Mode::InPlace`]: a manifest plus a private snapshot (in `run_dir/baseline`) of the
//!   content of files up to [`Limits::snapshot_max_file_bytes`] each and
//!   [`Limits::snapshot_max_total_bytes`] in all (defaults 1 MiB and 256 MiB). A file above
//!   the bound is reported changed when its size, mtime or ctime changed, with
//!   [`Content::BaselineNotKept`] instead of a diff.
//!
//! # What is tracked
//! Regular files (content and the `0o777` permission bits; setuid, setgid and sticky bits are
//! never copied or written back), symlinks (as links: their target text, never followed) and
//! directories, including empty ones (created and removed on write-back; listed as `#` notes
//! in the patch, since git's format has no directories). Fifos, sockets and devices are
//! skipped when copying, reported in [`CopyReport::skipped_special`] and
//! [`ChangeSet::ignored_special`], and never written back. Hard links are copied as separate
//! files.
//!
//! # Safety
//! Every access inside a workspace, a baseline or the user's directory goes through a
//! `cap_std::fs::Dir` and walks paths one component at a time without following symlinks, so
//! a link planted by a plan (to `/`, to a secret, replacing a file) is read and written as a
//! link and never traversed. Files are written back by writing a temporary file next to the
//! target and renaming it over the target, which replaces a link rather than writing through
//! it.
//!
//! # Patches
//! `run_dir/changes.patch` is a git-style unified diff (see [`ChangeSet::to_patch`]). Names
//! with control characters, quotes, backslashes, non-ASCII bytes or spaces are quoted as git
//! quotes them, so a name with a newline cannot forge a header line.

mod apply;
mod change;
mod changes;
mod copy;
mod error;
mod fsutil;
mod guard;
mod manifest;
pub mod overlay;
mod patch;
mod quote;
mod textdiff;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, MetadataExt};

pub use change::{Change, ChangeKind, ChangeSet, Content, HeldBack, HoldReason, Node};
pub use copy::CopyReport;
pub use error::WorkspaceError;
pub use guard::{Guard, DEFAULT_PROTECTED};
pub use patch::Patch;

use changes::BaseRef;
use copy::{copy_tree, Policy};
use fsutil::open_dir_nofollow;
use manifest::Manifest;

/// Result type of this crate.
pub type Result<T> = std::result::Result<T, WorkspaceError>;

/// How [`Workspace::from_dir`] treats the user's directory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The plan works on a copy in the run directory; changes reach the user's directory only
    /// through [`Workspace::finish`] with [`Outcome::Success`].
    #[default]
    Copy,
    /// The plan works directly in the user's directory; changes happen as the plan makes them.
    InPlace,
    /// As [`Mode::Copy`], but the changes never reach the user's directory: they stay in the
    /// run directory (its workspace and `changes.patch`). For batches, whose runs share one
    /// source directory and each keep their own result.
    Isolated,
}

/// How the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The run succeeded: in [`Mode::Copy`], its changes are written back.
    Success,
    /// The run failed: nothing is written back; the patch is still written.
    Failure,
}

/// Bounds on copies, diffs and patches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest patch written; larger ones are cut between whole diffs with a marker line.
    pub max_patch_bytes: u64,
    /// Files larger than this are reported changed without a line diff.
    pub max_text_diff_bytes: u64,
    /// In-place baseline: largest file whose original content is kept.
    pub snapshot_max_file_bytes: u64,
    /// In-place baseline: most original content kept in all.
    pub snapshot_max_total_bytes: u64,
    /// Largest tree [`Mode::Copy`] and [`Workspace::fork`] copy (`None`: no bound).
    pub max_copy_bytes: Option<u64>,
    /// Most entries in any tree walked.
    pub max_entries: u64,
    /// Longest path (bytes, relative to the tree's root) of any entry walked; default 4,096,
    /// Linux's `PATH_MAX`, beyond which ordinary tools (git, tar, patch) cannot name a file
    /// anyway. It is what keeps a walk linear: a plan-made chain thousands of levels deep
    /// would otherwise cost time and memory quadratic in its depth.
    pub max_path_bytes: u64,
    /// When every walk over a tree must have ended (the run's deadline): a walk still going
    /// then fails with [`WorkspaceError::DeadlineExceeded`]. `None`: no deadline.
    pub deadline: Option<std::time::Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_patch_bytes: 64 << 20,
            max_text_diff_bytes: 8 << 20,
            snapshot_max_file_bytes: 1 << 20,
            snapshot_max_total_bytes: 256 << 20,
            max_copy_bytes: None,
            max_entries: 1_000_000,
            max_path_bytes: 4096,
            deadline: None,
        }
    }
}

/// What [`Workspace::finish`] did.
#[derive(Clone, Debug)]
pub struct Finish {
    /// The run's changes.
    pub changes: ChangeSet,
    /// `run_dir/changes.patch`.
    pub patch_path: PathBuf,
    /// Size of the patch written.
    pub patch_bytes: u64,
    /// Whether the patch was cut at [`Limits::max_patch_bytes`].
    pub patch_truncated: bool,
    /// Whether the changes were copied into the user's directory (only [`Mode::Copy`] with
    /// [`Outcome::Success`]; in [`Mode::InPlace`] they are there already).
    pub written_back: bool,
    /// Changes the guard keeps from the user's directory (only [`Mode::Copy`]; also listed in
    /// the patch): never written back, whatever the outcome.
    pub held_back: Vec<HeldBack>,
}

enum Baseline {
    Empty,
    Live {
        dir: Dir,
        path: PathBuf,
        manifest: Manifest,
    },
    Snapshot {
        dir: Dir,
        path: PathBuf,
        manifest: Manifest,
        kept: BTreeSet<PathBuf>,
    },
}

/// A run's (or a branch's) workspace.
pub struct Workspace {
    root: Dir,
    root_path: PathBuf,
    run: Dir,
    run_path: PathBuf,
    baseline: Baseline,
    write_back: bool,
    limits: Limits,
    copy_report: CopyReport,
    /// What write-back holds back (`guard.rs`).
    guard: Guard,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("root", &self.root_path)
            .field("run_dir", &self.run_path)
            .field("write_back", &self.write_back)
            .finish_non_exhaustive()
    }
}

const WORKSPACE_DIR: &str = "workspace";
const BASELINE_DIR: &str = "baseline";
const PATCH_FILE: &str = "changes.patch";

fn open_run_dir(run_dir: &Path) -> Result<(Dir, PathBuf)> {
    std::fs::create_dir_all(run_dir)
        .map_err(WorkspaceError::io("create run directory", run_dir))?;
    let path = run_dir
        .canonicalize()
        .map_err(WorkspaceError::io("resolve run directory", run_dir))?;
    let dir = Dir::open_ambient_dir(&path, ambient_authority())
        .map_err(WorkspaceError::io("open run directory", &path))?;
    Ok((dir, path))
}

fn create_subdir(run: &Dir, run_path: &Path, name: &str) -> Result<(Dir, PathBuf)> {
    let path = run_path.join(name);
    run.create_dir(name)
        .map_err(WorkspaceError::io("create directory", &path))?;
    let dir = open_dir_nofollow(run, Path::new(name))
        .map_err(WorkspaceError::io("open directory", &path))?;
    Ok((dir, path))
}

/// Refuses trees that contain each other: copying a directory into itself never ends, and a
/// plan must not see its own run directory.
fn refuse_nesting(a: &Path, b: &Path) -> Result<()> {
    if a.starts_with(b) || b.starts_with(a) {
        return Err(WorkspaceError::Refused {
            path: a.to_path_buf(),
            reason: format!(
                "the run directory and the workspace source {} must not contain each other",
                b.display()
            ),
        });
    }
    Ok(())
}

impl Workspace {
    /// The workspace an interrupted run left at `run_dir/workspace`, to go on with it
    /// (`baton run --resume`). Its baseline is the empty tree (the interrupted run's baseline
    /// is not kept), so its patch lists every file, and it is never written back.
    pub fn reopen(run_dir: &Path) -> Result<Workspace> {
        Self::with_empty_baseline(run_dir, Limits::default(), false)
    }

    /// A new empty workspace at `run_dir/workspace` (created; must not exist yet).
    pub fn fresh(run_dir: &Path) -> Result<Workspace> {
        Self::fresh_with(run_dir, Limits::default())
    }

    /// [`Workspace::fresh`] with explicit limits.
    pub fn fresh_with(run_dir: &Path, limits: Limits) -> Result<Workspace> {
        Self::with_empty_baseline(run_dir, limits, true)
    }

    /// `run_dir/workspace`, made (`create`) or as it is, against the empty tree.
    fn with_empty_baseline(run_dir: &Path, limits: Limits, create: bool) -> Result<Workspace> {
        let (run, run_path) = open_run_dir(run_dir)?;
        let (root, root_path) = if create {
            create_subdir(&run, &run_path, WORKSPACE_DIR)?
        } else {
            let path = run_path.join(WORKSPACE_DIR);
            let dir = open_dir_nofollow(&run, Path::new(WORKSPACE_DIR))
                .map_err(WorkspaceError::io("open directory", &path))?;
            (dir, path)
        };
        Ok(Workspace {
            root,
            root_path,
            run,
            run_path,
            baseline: Baseline::Empty,
            write_back: false,
            limits,
            copy_report: CopyReport::default(),
            guard: Guard::default(),
        })
    }

    /// A workspace on the user's directory: a copy at `run_dir/workspace` ([`Mode::Copy`])
    /// or the directory itself ([`Mode::InPlace`], with a baseline in `run_dir/baseline`).
    pub fn from_dir(user_dir: &Path, run_dir: &Path, mode: Mode) -> Result<Workspace> {
        Self::from_dir_with(user_dir, run_dir, mode, Limits::default())
    }

    /// [`Workspace::from_dir`] with explicit limits.
    pub fn from_dir_with(
        user_dir: &Path,
        run_dir: &Path,
        mode: Mode,
        limits: Limits,
    ) -> Result<Workspace> {
        let user_path = user_dir
            .canonicalize()
            .map_err(WorkspaceError::io("resolve directory", user_dir))?;
        let user = Dir::open_ambient_dir(&user_path, ambient_authority())
            .map_err(WorkspaceError::io("open directory", &user_path))?;
        let (run, run_path) = open_run_dir(run_dir)?;
        refuse_nesting(&run_path, &user_path)?;
        match mode {
            Mode::Copy | Mode::Isolated => {
                let (root, root_path) = create_subdir(&run, &run_path, WORKSPACE_DIR)?;
                let copied =
                    copy_tree(&user, &user_path, &root, &root_path, Policy::Full, &limits)?;
                Ok(Workspace {
                    root,
                    root_path,
                    run,
                    run_path,
                    baseline: Baseline::Live {
                        dir: user,
                        path: user_path,
                        manifest: copied.manifest,
                    },
                    write_back: mode == Mode::Copy,
                    limits,
                    copy_report: copied.report,
                    guard: Guard::default(),
                })
            }
            Mode::InPlace => {
                let (snap, snap_path) = create_subdir(&run, &run_path, BASELINE_DIR)?;
                let copied = copy_tree(
                    &user,
                    &user_path,
                    &snap,
                    &snap_path,
                    Policy::Snapshot,
                    &limits,
                )?;
                let root = user
                    .try_clone()
                    .map_err(WorkspaceError::io("open directory", &user_path))?;
                Ok(Workspace {
                    root,
                    root_path: user_path,
                    run,
                    run_path,
                    baseline: Baseline::Snapshot {
                        dir: snap,
                        path: snap_path,
                        manifest: copied.manifest,
                        kept: copied.kept,
                    },
                    write_back: false,
                    limits,
                    copy_report: copied.report,
                    guard: Guard::default(),
                })
            }
        }
    }

    /// A branch's workspace at `dest_run_dir/workspace`: a copy (reflinked where the
    /// filesystem allows) of this workspace's current state, which is its baseline.
    pub fn fork(&self, dest_run_dir: &Path) -> Result<Workspace> {
        let (run, run_path) = open_run_dir(dest_run_dir)?;
        refuse_nesting(&run_path, &self.root_path)?;
        let (root, root_path) = create_subdir(&run, &run_path, WORKSPACE_DIR)?;
        let copied = copy_tree(
            &self.root,
            &self.root_path,
            &root,
            &root_path,
            Policy::Full,
            &self.limits,
        )?;
        let parent = self
            .root
            .try_clone()
            .map_err(WorkspaceError::io("open directory", &self.root_path))?;
        Ok(Workspace {
            root,
            root_path,
            run,
            run_path,
            baseline: Baseline::Live {
                dir: parent,
                path: self.root_path.clone(),
                manifest: copied.manifest,
            },
            write_back: false,
            limits: self.limits.clone(),
            copy_report: copied.report,
            guard: Guard::default(),
        })
    }

    /// The workspace directory on the host (what the sandbox binds at `/workspace`).
    pub fn path(&self) -> &Path {
        &self.root_path
    }

    /// Whether the workspace is the user's own directory ([`Mode::InPlace`]) rather than a
    /// copy inside the run directory.
    pub fn is_in_place(&self) -> bool {
        !self.root_path.starts_with(&self.run_path)
    }

    /// The run directory (holds the patch, and the in-place baseline).
    pub fn run_dir(&self) -> &Path {
        &self.run_path
    }

    /// What the initial copy (or in-place snapshot) did.
    pub fn copy_report(&self) -> &CopyReport {
        &self.copy_report
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn base_ref(&self) -> BaseRef<'_> {
        match &self.baseline {
            Baseline::Empty => BaseRef::Empty,
            Baseline::Live {
                dir,
                path,
                manifest,
            } => BaseRef::Live {
                dir,
                path,
                manifest,
            },
            Baseline::Snapshot {
                dir,
                path,
                manifest,
                kept,
            } => BaseRef::Snapshot {
                dir,
                path,
                manifest,
                kept,
            },
        }
    }

    /// The workspace's changes relative to its baseline.
    pub fn changes(&self) -> Result<ChangeSet> {
        changes::compute(&self.root, &self.root_path, &self.base_ref(), &self.limits)
    }

    /// Applies the changes of `child` (a [`fork`](Workspace::fork) of this workspace) onto
    /// this workspace and returns them. Refused when `child` was not forked from this
    /// workspace or when this workspace changed since the fork (the error names the paths).
    pub fn adopt(&mut self, child: &Workspace) -> Result<ChangeSet> {
        let Baseline::Live { dir, manifest, .. } = &child.baseline else {
            return Err(self.not_parent_of(child));
        };
        let same = |d: &Dir| d.dir_metadata().map(|m| (m.dev(), m.ino()));
        let parent_id = same(&self.root).map_err(WorkspaceError::io("inspect", &self.root_path))?;
        let base_id = same(dir).map_err(WorkspaceError::io("inspect", &self.root_path))?;
        if parent_id != base_id {
            return Err(self.not_parent_of(child));
        }
        let set = child.changes()?;
        let trees = apply::Trees {
            src: &child.root,
            src_path: &child.root_path,
            dst: &self.root,
            dst_path: &self.root_path,
        };
        apply::apply(&set, &trees, manifest)?;
        Ok(set)
    }

    fn not_parent_of(&self, child: &Workspace) -> WorkspaceError {
        WorkspaceError::Refused {
            path: child.root_path.clone(),
            reason: format!("was not forked from {}", self.root_path.display()),
        }
    }

    /// Ends the run: writes `run_dir/changes.patch` and, in [`Mode::Copy`] on
    /// [`Outcome::Success`], writes the changes back to the user's directory from the
    /// workspace's files. When the original changed during the run, nothing is written back
    /// and the error names the changed paths and the patch. The workspace directory is left
    /// in place for inspection.
    pub fn finish(self, outcome: Outcome) -> Result<Finish> {
        let mut set = self.changes()?;
        // Held-back changes stay in the patch (with a note), never in what is applied.
        if self.write_back {
            set.held_back = self.guard.held_back(&set.changes);
        }
        let patch = set.to_patch();
        let patch_path = self.run_path.join(PATCH_FILE);
        self.run
            .write(PATCH_FILE, &patch.bytes)
            .map_err(WorkspaceError::io("write patch", &patch_path))?;
        let mut written_back = false;
        if outcome == Outcome::Success && self.write_back {
            if let Baseline::Live {
                dir,
                path,
                manifest,
            } = &self.baseline
            {
                let trees = apply::Trees {
                    src: &self.root,
                    src_path: &self.root_path,
                    dst: dir,
                    dst_path: path,
                };
                let applied = ChangeSet {
                    changes: set
                        .changes
                        .iter()
                        .filter(|change| !guard::is_held(&set.held_back, &change.path))
                        .cloned()
                        .collect(),
                    ..set.clone()
                };
                apply::apply(&applied, &trees, manifest).map_err(|e| match e {
                    WorkspaceError::ConcurrentChange { dir, files, .. } => {
                        WorkspaceError::ConcurrentChange {
                            dir,
                            files,
                            patch_path: Some(patch_path.clone()),
                        }
                    }
                    other => other,
                })?;
                written_back = true;
            }
        }
        Ok(Finish {
            patch_bytes: patch.bytes.len() as u64,
            patch_truncated: patch.truncated,
            patch_path,
            written_back,
            held_back: set.held_back.clone(),
            changes: set,
        })
    }

    /// What write-back holds back (default: [`Guard::default`]).
    pub fn with_guard(mut self, guard: Guard) -> Workspace {
        self.guard = guard;
        self
    }

    /// The same workspace, with every later walk bounded by `deadline` (see
    /// [`Limits::deadline`]).
    pub fn with_deadline(mut self, deadline: std::time::Instant) -> Workspace {
        self.limits.deadline = Some(deadline);
        self
    }
}
