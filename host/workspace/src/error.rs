//! The one error type of this crate: every variant names the path and the operation.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::quote::quote_path;

/// Everything that can go wrong while creating, diffing, forking, adopting or finishing a
/// workspace.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// A filesystem operation failed.
    #[error("workspace: cannot {op} {}: {source}", Shown(path))]
    Io {
        /// What was being done, e.g. "copy file".
        op: &'static str,
        /// The path it was done to (for display only: the crate never reopens it).
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The original directory (or a forked workspace's parent) changed after its state was
    /// recorded, so writing the run's changes back could overwrite someone else's work.
    #[error(
        "workspace: {} changed during the run; refusing to write back over: {}{}",
        Shown(dir),
        List(files),
        match patch_path {
            Some(p) => format!(" (the run's changes are kept in {})", Shown(p)),
            None => String::new(),
        }
    )]
    ConcurrentChange {
        /// The directory that changed.
        dir: PathBuf,
        /// The changed entries, relative to `dir`.
        files: Vec<PathBuf>,
        /// Where the run's patch was written, when one was.
        patch_path: Option<PathBuf>,
    },
    /// A request this crate will not carry out (nested directories, wrong parent, ...).
    #[error("workspace: {}: {reason}", Shown(path))]
    Refused {
        /// The path concerned.
        path: PathBuf,
        /// Why it was refused.
        reason: String,
    },
    /// A configured bound was exceeded.
    #[error("workspace: {} exceeds the limit of {limit} {what}", Shown(path))]
    LimitExceeded {
        /// The tree or file that is too big.
        path: PathBuf,
        /// The unit of the limit ("bytes", "entries").
        what: &'static str,
        /// The limit.
        limit: u64,
    },
    /// The run's deadline passed while a tree was being walked (see `Limits::deadline`).
    #[error("workspace: the run's time limit passed while walking {}", Shown(path))]
    DeadlineExceeded {
        /// The tree being walked.
        path: PathBuf,
    },
}

impl WorkspaceError {
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> Self {
        let path = path.into();
        move |source| WorkspaceError::Io { op, path, source }
    }
}

/// Paths may hold newlines or other control characters: show them quoted as git does, so an
/// error message stays on one line and cannot be confused with other output.
struct Shown<'a>(&'a Path);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote_path("", self.0))
    }
}

struct List<'a>(&'a [PathBuf]);

impl fmt::Display for List<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 20;
        for (i, p) in self.0.iter().take(SHOWN).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", Shown(p))?;
        }
        if self.0.len() > SHOWN {
            write!(f, " and {} more", self.0.len() - SHOWN)?;
        }
        Ok(())
    }
}
