//! Helpers shared by the integration tests: they stand in for the plan, so they use std::fs
//! directly on the workspace path.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// One entry of a tree, as the tests compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum E {
    File(Vec<u8>, u32),
    Dir(u32),
    Link(PathBuf),
    Other,
}

/// The whole tree below `root`, never following links.
pub fn tree(root: &Path) -> BTreeMap<PathBuf, E> {
    let mut out = BTreeMap::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for entry in fs::read_dir(root.join(&rel)).unwrap() {
            let entry = entry.unwrap();
            let r = rel.join(entry.file_name());
            let p = root.join(&r);
            let md = fs::symlink_metadata(&p).unwrap();
            let mode = md.permissions().mode() & 0o7777;
            let e = if md.file_type().is_symlink() {
                E::Link(fs::read_link(&p).unwrap())
            } else if md.is_dir() {
                stack.push(r.clone());
                E::Dir(mode)
            } else if md.is_file() {
                E::File(fs::read(&p).unwrap(), mode)
            } else {
                E::Other
            };
            out.insert(r, e);
        }
    }
    out
}

pub fn write(root: &Path, rel: &str, content: &[u8]) {
    let p = root.join(rel);
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(&p, content).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o644)).unwrap();
}

pub fn chmod(root: &Path, rel: &str, mode: u32) {
    fs::set_permissions(root.join(rel), fs::Permissions::from_mode(mode)).unwrap();
}

pub fn patch_text(path: &Path) -> String {
    String::from_utf8(fs::read(path).unwrap()).unwrap()
}

/// A user directory, a run directory, and a place for things "outside" both.
pub struct Setup {
    pub tmp: tempfile::TempDir,
    pub user: PathBuf,
    pub run: PathBuf,
    pub outside: PathBuf,
}

pub fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let run = tmp.path().join("run");
    let outside = tmp.path().join("outside");
    fs::create_dir(&user).unwrap();
    fs::create_dir(&outside).unwrap();
    fs::set_permissions(&user, fs::Permissions::from_mode(0o755)).unwrap();
    Setup {
        tmp,
        user,
        run,
        outside,
    }
}

#[path = "../../../sandbox/tests/common/rerun.rs"]
mod rerun;
#[allow(unused_imports)] // not every test file re-runs itself
pub use rerun::rerun_as_unprivileged_user;
