//! overlayfs' work directories, made and removed on the host around a command.
//!
//! A run's own workspace is shown to its command through an overlay (an empty lower layer under
//! the workspace as the upper one) rather than a bind mount, for one reason: a bind mount's
//! line in `/proc/self/mountinfo` carries, as its root field, the directory's path on its
//! filesystem — the user's directory layout — while an overlay's carries `/`. overlayfs needs a
//! work directory on the upper layer's mount and beside it (the helper attaches their common
//! parent as one tree), so one is made next to the workspace for each command: concurrent
//! commands never share one. The user's own directory (`--in-place`) is not given one; Baton
//! makes nothing beside it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Policy;

/// A work directory that is removed when dropped.
pub(crate) struct OverlayWork {
    path: PathBuf,
}

impl OverlayWork {
    /// A fresh work directory for `policy`'s command, when its workspace is the run's own
    /// (private) and not already an overlay fork. `None` when there should be none or one
    /// cannot be made here: the workspace is then bound as it is.
    pub(crate) fn for_policy(policy: &Policy) -> Option<OverlayWork> {
        if !policy.private_workspace || policy.overlay.is_some() {
            return None;
        }
        let workspace = std::fs::canonicalize(&policy.workspace).ok()?;
        // overlayfs' options separate layers with ':' and options with ','.
        if workspace.to_string_lossy().contains([':', ',', '\\']) {
            return None;
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            ".overlay-work-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = workspace.parent()?.join(name);
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new().mode(0o700).create(&path).ok()?;
        Some(OverlayWork { path })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OverlayWork {
    fn drop(&mut self) {
        remove(&self.path);
    }
}

/// Removes an overlay's work directory. overlayfs leaves a mode-0 directory in it, which an
/// unprivileged owner cannot list until it is given its permissions back.
pub(crate) fn remove(work: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(entries) = std::fs::read_dir(work) {
        for entry in entries.flatten() {
            let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o700));
        }
    }
    let _ = std::fs::remove_dir_all(work);
}
