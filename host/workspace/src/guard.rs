//! What write-back holds back: changes that would plant something another program runs later,
//! outside the sandbox, or that point out of the workspace.
//!
//! A plan's commands run sandboxed, but what they write is copied into the user's directory when
//! the run succeeds, and some files there are executed by other tools without asking: git runs
//! `.git/hooks/*` and `core.fsmonitor` on the next `git status`, direnv runs `.envrc` on `cd`,
//! editors run `.vscode/tasks.json` and dev-container definitions. A change under a protected
//! path is therefore never written back (the run's `changes.patch` still shows it, with a note,
//! and the run's summary lists it). The list is [`DEFAULT_PROTECTED`], replaced by
//! `[workspace] protect` in baton.toml. An entry of one component (`.git`) is protected at any
//! depth: a nested repository (`vendor/lib/.git/hooks/post-checkout`, in a vendored clone the
//! user later pulls) runs its hooks as surely as the top one. An entry of several components
//! (`ci/run`) names that path from the workspace root.
//!
//! A symlink whose target leaves the workspace (absolute, or climbing above the workspace root
//! with `..`) is held back too: `README.md -> /etc/passwd` written back would make the user's
//! next edit of the README read or write a host file.
//!
//! In-place runs (`Mode::InPlace`) change the user's directory directly, so there is nothing to
//! hold back; they are the user's explicit choice.

use std::path::{Component, Path, PathBuf};

use crate::change::{Change, HeldBack, HoldReason, Node};

/// Paths other tools execute, relative to the workspace root (a directory protects everything
/// under it).
pub const DEFAULT_PROTECTED: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".envrc",
    ".direnv",
    ".vscode",
    ".idea",
    ".devcontainer",
    ".husky",
    ".pre-commit-config.yaml",
];

/// The write-back policy: which paths are protected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    protected: Vec<PathBuf>,
}

impl Default for Guard {
    fn default() -> Self {
        Guard::new(DEFAULT_PROTECTED.iter().map(PathBuf::from))
    }
}

impl Guard {
    /// A guard protecting `paths` (relative to the workspace root; leading `./` and trailing
    /// `/` are ignored).
    pub fn new(paths: impl IntoIterator<Item = PathBuf>) -> Guard {
        let protected = paths
            .into_iter()
            .map(|path| {
                path.components()
                    .filter(|c| matches!(c, Component::Normal(_)))
                    .collect::<PathBuf>()
            })
            .filter(|path| !path.as_os_str().is_empty())
            .collect();
        Guard { protected }
    }

    /// Why `change` must not be written back, if it must not.
    pub fn hold(&self, change: &Change) -> Option<HoldReason> {
        if let Some(entry) = self
            .protected
            .iter()
            .find_map(|p| protects(p, &change.path))
        {
            return Some(HoldReason::Protected(entry));
        }
        if let Some(Node::Symlink { target }) = &change.new {
            let parent = change.path.parent().unwrap_or(Path::new(""));
            if leaves(parent, target) {
                return Some(HoldReason::LinkLeavesWorkspace(target.clone()));
            }
        }
        None
    }
}

impl Guard {
    /// The paths of `changes` write-back must leave out, with why. A path is held whole: a
    /// file replaced by an outside link keeps the file (the deletion half is held too), and
    /// what was under a held path stays as it was ([`is_held`]).
    pub fn held_back(&self, changes: &[Change]) -> Vec<HeldBack> {
        let mut held: Vec<HeldBack> = Vec::new();
        for change in changes {
            if let Some(reason) = self.hold(change) {
                if !held.iter().any(|h| h.path == change.path) {
                    held.push(HeldBack {
                        path: change.path.clone(),
                        reason,
                    });
                }
            }
        }
        held
    }
}

/// The protected path `path` is, or is under, for the entry `entry`: `entry` itself from the
/// root, or (for a one-component entry) the first directory of that name at any depth.
fn protects(entry: &Path, path: &Path) -> Option<PathBuf> {
    if path.starts_with(entry) {
        return Some(entry.to_path_buf());
    }
    let mut names = entry.components();
    let (Some(name), None) = (names.next(), names.next()) else {
        return None;
    };
    let mut prefix = PathBuf::new();
    for component in path.components() {
        prefix.push(component);
        if component == name {
            return Some(prefix);
        }
    }
    None
}

/// Whether `path` is, or is under, one of the `held` paths.
pub(crate) fn is_held(held: &[HeldBack], path: &Path) -> bool {
    held.iter().any(|h| path.starts_with(&h.path))
}

/// Whether `target`, read from directory `parent` (relative to the root), names something
/// outside the root. Lexical: the workspace's own symlinks are themselves checked when written.
fn leaves(parent: &Path, target: &Path) -> bool {
    let mut depth = parent
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .count();
    for component in target.components() {
        match component {
            Component::RootDir | Component::Prefix(_) => return true,
            Component::ParentDir => match depth.checked_sub(1) {
                Some(up) => depth = up,
                None => return true,
            },
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{ChangeKind, Content};

    fn added(path: &str, new: Node) -> Change {
        Change {
            path: PathBuf::from(path),
            kind: ChangeKind::Added,
            old: None,
            new: Some(new),
            content: Content::Same,
        }
    }

    fn file(path: &str) -> Change {
        added(
            path,
            Node::File {
                mode: 0o644,
                size: 1,
            },
        )
    }

    fn link(path: &str, target: &str) -> Change {
        added(
            path,
            Node::Symlink {
                target: PathBuf::from(target),
            },
        )
    }

    #[test]
    fn protected_paths_and_what_is_under_them_are_held() {
        let guard = Guard::default();
        for path in [
            ".git/hooks/pre-commit",
            ".git/config",
            ".git",
            ".envrc",
            ".vscode/tasks.json",
        ] {
            assert!(guard.hold(&file(path)).is_some(), "{path}");
        }
        for path in [
            "src/main.rs",
            ".gitignore",
            "git/x",
            ".github/x",
            "a/.gitmodules",
            "a/x.git/config",
        ] {
            assert_eq!(guard.hold(&file(path)), None, "{path}");
        }
        // A nested repository's hooks run as surely as the top one's (a vendored clone).
        assert_eq!(
            guard.hold(&file("vendor/lib/.git/hooks/post-checkout")),
            Some(HoldReason::Protected(PathBuf::from("vendor/lib/.git")))
        );
        assert!(guard.hold(&file("deep/er/.envrc")).is_some());
        let custom = Guard::new([PathBuf::from("./Makefile"), PathBuf::from("ci/run")]);
        assert!(custom.hold(&file("Makefile")).is_some());
        assert!(custom.hold(&file("sub/Makefile")).is_some());
        assert!(custom.hold(&file("ci/run")).is_some());
        assert_eq!(
            custom.hold(&file("sub/ci/run")),
            None,
            "several components: from the root"
        );
        assert_eq!(custom.hold(&file(".git/config")), None);
    }

    #[test]
    fn links_out_of_the_workspace_are_held() {
        let guard = Guard::default();
        for (path, target) in [
            ("README.md", "/etc/passwd"),
            ("sub", "/etc"),
            ("a", ".."),
            ("a/b", "../../x"),
            ("a/b", "c/../../../x"),
        ] {
            assert_eq!(
                guard.hold(&link(path, target)),
                Some(HoldReason::LinkLeavesWorkspace(PathBuf::from(target))),
                "{path} -> {target}"
            );
        }
        for (path, target) in [("a", "b"), ("a/b", "../c"), ("a/b", "./c/../d"), ("x", ".")] {
            assert_eq!(guard.hold(&link(path, target)), None, "{path} -> {target}");
        }
    }
}
