//! Branches: fork copies the current state and takes it as the baseline; adopt applies a
//! branch's changes to its parent.

mod common;

use std::fs;

use baton_workspace::{ChangeKind, Mode, Outcome, Workspace, WorkspaceError};
use common::{setup, tree, write};

#[test]
fn fork_starts_clean_and_adopt_applies_the_branch() {
    let s = setup();
    let mut parent = Workspace::fresh(&s.run).unwrap();
    write(parent.path(), "keep.txt", b"keep\n");
    write(parent.path(), "edit.txt", b"v1\n");
    write(parent.path(), "gone.txt", b"gone\n");
    write(parent.path(), "d/e.txt", b"e\n");

    let child = parent.fork(&s.tmp.path().join("b1")).unwrap();
    assert_eq!(tree(child.path()), tree(parent.path()));
    assert!(child.changes().unwrap().is_empty());
    assert_eq!(child.copy_report().files, 4);

    fs::write(child.path().join("edit.txt"), b"v2\n").unwrap();
    fs::remove_file(child.path().join("gone.txt")).unwrap();
    write(child.path(), "d/new/deep.txt", b"deep\n");
    fs::create_dir(child.path().join("empty")).unwrap();

    let sibling = parent.fork(&s.tmp.path().join("b2")).unwrap();
    write(sibling.path(), "edit.txt", b"sibling\n");

    let adopted = parent.adopt(&child).unwrap();
    assert_eq!(adopted.changes.len(), 5, "{adopted:?}");
    assert_eq!(tree(parent.path()), tree(child.path()));

    // The parent moved on: the sibling's baseline no longer holds.
    let err = parent.adopt(&sibling).unwrap_err();
    match err {
        WorkspaceError::ConcurrentChange { files, .. } => {
            assert!(
                files.iter().any(|f| f.to_str() == Some("edit.txt")),
                "{files:?}"
            )
        }
        other => panic!("{other}"),
    }
    assert_eq!(fs::read(parent.path().join("edit.txt")).unwrap(), b"v2\n");

    // The parent's own changes (relative to its empty baseline) include the adopted ones.
    let mine = parent.changes().unwrap();
    assert!(mine.changes.iter().all(|c| c.kind == ChangeKind::Added));
    assert!(mine
        .changes
        .iter()
        .any(|c| c.path.to_str() == Some("d/new/deep.txt")));
}

#[test]
fn nested_forks_adopt_up_the_chain_and_reach_the_user() {
    let s = setup();
    write(&s.user, "f.txt", b"0\n");
    let mut top = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    let mut mid = top.fork(&s.tmp.path().join("mid")).unwrap();
    let leaf = mid.fork(&s.tmp.path().join("leaf")).unwrap();
    fs::write(leaf.path().join("f.txt"), b"leaf\n").unwrap();
    mid.adopt(&leaf).unwrap();
    top.adopt(&mid).unwrap();
    let done = top.finish(Outcome::Success).unwrap();
    assert!(done.written_back);
    assert_eq!(fs::read(s.user.join("f.txt")).unwrap(), b"leaf\n");
}

#[test]
fn adopting_a_stranger_is_refused() {
    let s = setup();
    let mut a = Workspace::fresh(&s.tmp.path().join("a")).unwrap();
    let b = Workspace::fresh(&s.tmp.path().join("b")).unwrap();
    let other = b.fork(&s.tmp.path().join("c")).unwrap();
    for stranger in [&b, &other] {
        let err = a.adopt(stranger).unwrap_err();
        assert!(matches!(err, WorkspaceError::Refused { .. }), "{err}");
        assert!(err.to_string().contains("was not forked from"));
    }
}

#[test]
fn fork_into_the_workspace_itself_is_refused() {
    let s = setup();
    let ws = Workspace::fresh(&s.run).unwrap();
    let err = ws.fork(&ws.path().join("inner")).unwrap_err();
    assert!(matches!(err, WorkspaceError::Refused { .. }), "{err}");
}

#[test]
fn failed_branch_changes_nothing_in_the_parent() {
    let s = setup();
    let parent = Workspace::fresh(&s.run).unwrap();
    write(parent.path(), "x.txt", b"x\n");
    let before = tree(parent.path());
    let child = parent.fork(&s.tmp.path().join("b")).unwrap();
    write(child.path(), "x.txt", b"child\n");
    let done = child.finish(Outcome::Failure).unwrap();
    assert!(!done.written_back);
    assert_eq!(tree(parent.path()), before);
    // A fork never writes back by itself, even on success.
    let child2 = parent.fork(&s.tmp.path().join("b2")).unwrap();
    write(child2.path(), "x.txt", b"child2\n");
    assert!(!child2.finish(Outcome::Success).unwrap().written_back);
    assert_eq!(tree(parent.path()), before);
}
