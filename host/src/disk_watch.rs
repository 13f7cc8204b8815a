//! The run's disk budget: how much its run directory (the workspace copy, the branches' forks
//! and overlay layers, the journal, the output) may grow while it runs.
//!
//! A command can write anything in its workspace; a per-file limit (`RLIMIT_FSIZE`) does not
//! bound how many files, and a sparse file that costs nothing here costs its whole size when
//! write-back copies it. So after each command the run directory is measured — apparent sizes,
//! since that is what a copy materialises — and a run that grew past its budget is stopped
//! through the run's account (exit 4). Between two measurements a command can overshoot by what
//! it writes before it ends (bounded by its timeout and the per-file limit).
//!
//! The walk is iterative, never follows symlinks, skips what it cannot read (an overlay's
//! work directory), stops at [`MAX_ENTRIES`], and runs at most once at a time: commands ending
//! together (branches) share one measurement instead of each walking the tree.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::run_limits::RunAccount;

/// The most entries one measurement visits (past it, the tree is taken to be over budget only
/// if what was counted already is).
pub const MAX_ENTRIES: usize = 2_000_000;

/// Watches one run directory's growth against a budget.
pub struct DiskWatch {
    root: PathBuf,
    start: u64,
    budget: u64,
    account: Arc<RunAccount>,
    walking: AtomicBool,
    /// When the last measurement ended ([`DiskWatch::check_now_and_then`]).
    last: std::sync::Mutex<Option<std::time::Instant>>,
}

/// How often model calls, which only grow the journal by their replies, measure the tree.
const BETWEEN_MODEL_CALL_WALKS: std::time::Duration = std::time::Duration::from_secs(1);

impl DiskWatch {
    /// Starts watching `root` (measured now) with `budget` bytes of growth.
    pub fn new(root: &Path, budget: u64, account: Arc<RunAccount>) -> DiskWatch {
        DiskWatch {
            root: root.to_path_buf(),
            start: apparent_size(root),
            budget,
            account,
            walking: AtomicBool::new(false),
            last: std::sync::Mutex::new(None),
        }
    }

    /// [`DiskWatch::check`], unless a measurement ended less than a second ago: model calls
    /// come fast and only add their replies to the journal, so they need not each walk a large
    /// workspace (commands and forks, which write files, measure every time).
    pub fn check_now_and_then(&self) -> bool {
        let recent = self
            .last
            .lock()
            .ok()
            .and_then(|last| *last)
            .is_some_and(|at| at.elapsed() < BETWEEN_MODEL_CALL_WALKS);
        !recent && self.check()
    }

    /// Measures the run directory after a command; past the budget, stops the run. Returns
    /// whether it did. A measurement already running elsewhere stands for this one.
    pub fn check(&self) -> bool {
        if self.walking.swap(true, Ordering::SeqCst) {
            return false;
        }
        let now = apparent_size(&self.root);
        self.walking.store(false, Ordering::SeqCst);
        if let Ok(mut last) = self.last.lock() {
            *last = Some(std::time::Instant::now());
        }
        let grown = now.saturating_sub(self.start);
        if grown <= self.budget {
            return false;
        }
        self.account.stop_for_disk(format!(
            "disk limit exceeded (the run directory grew by {} MiB, more than {} MiB: the \
             workspace, the branches' forks, the journal and the output together)",
            grown >> 20,
            self.budget >> 20
        ));
        true
    }
}

/// The apparent size (`st_size`) of every regular file under `root`, without following
/// symlinks; unreadable directories are skipped.
pub fn apparent_size(root: &Path) -> u64 {
    let mut total = 0u64;
    let mut seen = 0usize;
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_ENTRIES {
                return total;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                total += entry.metadata().map_or(0, |meta| meta.len());
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_limits::RunWideLimits;

    #[test]
    fn growth_past_the_budget_stops_the_run() {
        let root = std::env::temp_dir().join(format!("baton-disk-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("before"), vec![0u8; 4096]).unwrap();
        let account = RunAccount::new(RunWideLimits::default());
        let watch = DiskWatch::new(&root, 10_000, account.clone());
        std::fs::write(root.join("a/b/small"), vec![0u8; 5_000]).unwrap();
        assert!(!watch.check());
        // A sparse file costs nothing here, but its whole size when copied.
        let sparse = std::fs::File::create(root.join("a/sparse")).unwrap();
        sparse.set_len(1 << 30).unwrap();
        std::os::unix::fs::symlink("/usr", root.join("a/link")).unwrap();
        // Model calls measure at most once a second: right after a walk, not at all.
        assert!(!watch.check_now_and_then());
        assert!(account.check().is_ok());
        assert!(watch.check());
        let stopped = account.check().unwrap_err();
        assert!(stopped.message.contains("disk limit exceeded"), "{stopped}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
