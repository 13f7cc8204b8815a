//! Symlinks planted by a plan are handled as links: never read through, never written
//! through, and their targets' content never reaches the patch.

mod common;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use baton_workspace::{ChangeKind, Mode, Node, Outcome, Workspace, WorkspaceError};
use common::{patch_text, setup, tree, write, E};

const SECRET: &[u8] = b"TOPSECRET-do-not-leak\n";

#[test]
fn planted_links_are_diffed_and_written_back_as_links() {
    let s = setup();
    write(&s.user, "a.txt", b"ordinary\n");
    write(&s.user, "keep.txt", b"keep\n");
    let secret = s.outside.join("secret.txt");
    fs::write(&secret, SECRET).unwrap();
    write(&s.outside, "dir/inner.txt", SECRET);

    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    let w = ws.path();
    symlink(&secret, w.join("leak")).unwrap();
    symlink("/", w.join("root")).unwrap();
    symlink(s.outside.join("dir"), w.join("dirlink")).unwrap();
    fs::remove_file(w.join("a.txt")).unwrap();
    symlink(&secret, w.join("a.txt")).unwrap();

    let changes = ws.changes().unwrap();
    // Nothing below the linked directories is seen.
    assert!(changes
        .changes
        .iter()
        .all(|c| c.path.components().count() == 1));
    let leak = changes
        .changes
        .iter()
        .find(|c| c.path == Path::new("leak"))
        .unwrap();
    assert_eq!(leak.kind, ChangeKind::Added);
    assert_eq!(
        leak.new,
        Some(Node::Symlink {
            target: secret.clone()
        })
    );
    let a: Vec<_> = changes
        .changes
        .iter()
        .filter(|c| c.path == Path::new("a.txt"))
        .map(|c| c.kind)
        .collect();
    assert_eq!(a, [ChangeKind::Deleted, ChangeKind::Added]);

    let done = ws.finish(Outcome::Success).unwrap();
    let patch = patch_text(&done.patch_path);
    assert!(!patch.contains("TOPSECRET"), "{patch}");
    let secret_str = secret.to_str().unwrap();
    assert!(patch.contains(&format!(
        "diff --git a/leak b/leak\nnew file mode 120000\n--- /dev/null\n+++ b/leak\n@@ -0,0 +1 @@\n+{secret_str}\n\\ No newline at end of file\n"
    )));
    assert!(patch.contains("diff --git a/a.txt b/a.txt\ndeleted file mode 100644\n"));

    // Links that leave the workspace are held back from write-back (the patch says so): the
    // user's directory keeps its file and gets none of them.
    for name in ["leak", "a.txt", "root", "dirlink"] {
        assert!(
            done.held_back.iter().any(|h| h.path == Path::new(name)),
            "{name}: {:?}",
            done.held_back
        );
    }
    assert!(
        patch.contains("held back from write-back (a symlink to "),
        "{patch}"
    );
    let user = tree(&s.user);
    assert_eq!(user.get(Path::new("leak")), None);
    assert_eq!(user.get(Path::new("root")), None);
    assert_eq!(user.get(Path::new("dirlink")), None);
    assert_eq!(fs::read(s.user.join("a.txt")).unwrap(), b"ordinary\n");
    assert_eq!(fs::read(&secret).unwrap(), SECRET);
    assert_eq!(fs::read(s.outside.join("dir/inner.txt")).unwrap(), SECRET);
}

#[test]
fn write_back_replaces_a_users_link_instead_of_writing_through_it() {
    let s = setup();
    let secret = s.outside.join("secret.txt");
    fs::write(&secret, SECRET).unwrap();
    symlink(&secret, s.user.join("config")).unwrap();
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    // The copy holds the link itself.
    assert_eq!(
        tree(ws.path()).get(Path::new("config")),
        Some(&E::Link(secret.clone()))
    );
    fs::remove_file(ws.path().join("config")).unwrap();
    write(ws.path(), "config", b"pwned\n");
    let done = ws.finish(Outcome::Success).unwrap();
    assert!(done.written_back);
    assert_eq!(fs::read(&secret).unwrap(), SECRET);
    assert_eq!(
        tree(&s.user).get(Path::new("config")),
        Some(&E::File(b"pwned\n".to_vec(), 0o644))
    );
    let patch = patch_text(&done.patch_path);
    assert!(!patch.contains("TOPSECRET"));
}

#[test]
fn link_swapped_into_the_original_during_the_run_is_refused() {
    let s = setup();
    let secret = s.outside.join("secret.txt");
    fs::write(&secret, SECRET).unwrap();
    write(&s.user, "a.txt", b"a\n");
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    fs::write(ws.path().join("a.txt"), b"plan wrote this\n").unwrap();
    fs::remove_file(s.user.join("a.txt")).unwrap();
    symlink(&secret, s.user.join("a.txt")).unwrap();
    let err = ws.finish(Outcome::Success).unwrap_err();
    assert!(
        matches!(err, WorkspaceError::ConcurrentChange { .. }),
        "{err}"
    );
    assert_eq!(fs::read(&secret).unwrap(), SECRET);
}

#[test]
fn directory_replaced_by_link_outside_is_not_descended_on_write_back() {
    let s = setup();
    write(&s.user, "sub/f.txt", b"f\n");
    write(&s.outside, "victim.txt", b"victim\n");
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    fs::remove_dir_all(ws.path().join("sub")).unwrap();
    symlink(&s.outside, ws.path().join("sub")).unwrap();
    let done = ws.finish(Outcome::Success).unwrap();
    assert!(done.written_back);
    // The link leaves the workspace: held back whole, so the directory and what was in it stay.
    assert_eq!(done.held_back.len(), 1, "{:?}", done.held_back);
    assert_eq!(done.held_back[0].path, Path::new("sub"));
    assert_eq!(fs::read(s.user.join("sub/f.txt")).unwrap(), b"f\n");
    assert_eq!(fs::read(s.outside.join("victim.txt")).unwrap(), b"victim\n");
    assert_eq!(fs::read_dir(&s.outside).unwrap().count(), 1);
}

#[test]
fn in_place_diff_shows_the_link_not_the_target() {
    let s = setup();
    let secret = s.outside.join("secret.txt");
    fs::write(&secret, SECRET).unwrap();
    write(&s.user, "a.txt", b"a\n");
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::InPlace).unwrap();
    fs::remove_file(s.user.join("a.txt")).unwrap();
    symlink(&secret, s.user.join("a.txt")).unwrap();
    let done = ws.finish(Outcome::Success).unwrap();
    let patch = patch_text(&done.patch_path);
    assert!(!patch.contains("TOPSECRET"));
    assert!(patch.contains("new file mode 120000"));
    assert_eq!(fs::read(&secret).unwrap(), SECRET);
}

#[test]
fn fork_and_adopt_keep_links_as_links() {
    let s = setup();
    let secret = s.outside.join("secret.txt");
    fs::write(&secret, SECRET).unwrap();
    let mut parent = Workspace::fresh(&s.run).unwrap();
    write(parent.path(), "x.txt", b"x\n");
    let child = parent.fork(&s.tmp.path().join("branch")).unwrap();
    fs::remove_file(child.path().join("x.txt")).unwrap();
    symlink(&secret, child.path().join("x.txt")).unwrap();
    parent.adopt(&child).unwrap();
    assert_eq!(
        tree(parent.path()).get(Path::new("x.txt")),
        Some(&E::Link(secret.clone()))
    );
    assert_eq!(fs::read(&secret).unwrap(), SECRET);
}

/// Everything above, again as an unprivileged user (when this runs as root).
#[test]
fn symlinks_hold_for_an_unprivileged_caller_too() {
    common::rerun_as_unprivileged_user("symlinks_hold_for_an_unprivileged_caller_too");
}
