//! Copy mode: patch content, write-back on success only, concurrent changes refused.

mod common;

use std::fs;
use std::time::{Duration, SystemTime};

use baton_workspace::{ChangeKind, Limits, Mode, Node, Outcome, Workspace, WorkspaceError};
use common::{patch_text, setup, tree, write, E};

fn seed(user: &std::path::Path) {
    write(user, "a.txt", b"one\ntwo\nthree\n");
    write(user, "b.txt", b"bye\n");
    write(user, "sub/c.txt", b"c\n");
}

fn edit(ws: &std::path::Path) {
    fs::write(ws.join("a.txt"), b"one\nTWO\nthree\n").unwrap();
    write(ws, "new.txt", b"hello\n");
    fs::remove_file(ws.join("b.txt")).unwrap();
}

const EXPECTED_PATCH: &str = "\
diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
diff --git a/b.txt b/b.txt
deleted file mode 100644
--- a/b.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/new.txt b/new.txt
new file mode 100644
--- /dev/null
+++ b/new.txt
@@ -0,0 +1 @@
+hello
";

#[test]
fn copy_is_faithful_and_separate() {
    let s = setup();
    seed(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    assert_eq!(ws.path(), s.run.canonicalize().unwrap().join("workspace"));
    assert_eq!(tree(ws.path()), tree(&s.user));
    let report = ws.copy_report();
    assert_eq!((report.files, report.dirs, report.bytes), (3, 1, 20));
    assert!(ws.changes().unwrap().is_empty());
    fs::write(ws.path().join("a.txt"), b"changed\n").unwrap();
    assert_eq!(
        fs::read(s.user.join("a.txt")).unwrap(),
        b"one\ntwo\nthree\n"
    );
}

#[test]
fn success_writes_back_and_patch_is_exact() {
    let s = setup();
    seed(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    edit(ws.path());
    let changes = ws.changes().unwrap();
    let kinds: Vec<_> = changes
        .changes
        .iter()
        .map(|c| (c.path.to_str().unwrap().to_string(), c.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("a.txt".to_string(), ChangeKind::Modified),
            ("b.txt".to_string(), ChangeKind::Deleted),
            ("new.txt".to_string(), ChangeKind::Added)
        ]
    );
    assert_eq!(
        changes.changes[2].new,
        Some(Node::File {
            mode: 0o644,
            size: 6
        })
    );
    let ws_tree = tree(ws.path());
    let done = ws.finish(Outcome::Success).unwrap();
    assert!(done.written_back);
    assert!(!done.patch_truncated);
    assert_eq!(
        done.patch_path,
        s.run.canonicalize().unwrap().join("changes.patch")
    );
    assert_eq!(patch_text(&done.patch_path), EXPECTED_PATCH);
    assert_eq!(done.patch_bytes, EXPECTED_PATCH.len() as u64);
    assert_eq!(tree(&s.user), ws_tree);
}

#[test]
fn failure_leaves_user_dir_untouched_and_keeps_patch() {
    let s = setup();
    seed(&s.user);
    let before = tree(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    edit(ws.path());
    let done = ws.finish(Outcome::Failure).unwrap();
    assert!(!done.written_back);
    assert_eq!(tree(&s.user), before);
    assert_eq!(patch_text(&done.patch_path), EXPECTED_PATCH);
    assert_eq!(done.changes.changes.len(), 3);
}

#[test]
fn unchanged_workspace_writes_empty_patch() {
    let s = setup();
    seed(&s.user);
    let before = tree(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    let done = ws.finish(Outcome::Success).unwrap();
    assert!(done.changes.is_empty());
    assert_eq!(done.patch_bytes, 0);
    assert_eq!(tree(&s.user), before);
}

fn assert_refused(err: WorkspaceError, file: &str) {
    let msg = err.to_string();
    match err {
        WorkspaceError::ConcurrentChange {
            files, patch_path, ..
        } => {
            assert!(files.iter().any(|f| f.to_str() == Some(file)), "{files:?}");
            assert!(patch_path.is_some());
        }
        other => panic!("expected a concurrent-change refusal, got {other}"),
    }
    assert!(msg.contains(file), "{msg}");
    assert!(msg.contains("changes.patch"), "{msg}");
}

#[test]
fn concurrent_edit_of_original_is_refused_and_named() {
    let s = setup();
    seed(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    edit(ws.path());
    fs::write(s.user.join("sub/c.txt"), b"user edit\n").unwrap();
    let user_before = tree(&s.user);
    let changes = ws.changes().unwrap();
    assert_eq!(changes.conflicts, [std::path::PathBuf::from("sub/c.txt")]);
    // The user's edit is not presented as the plan's change (that would revert it).
    assert!(changes
        .changes
        .iter()
        .all(|c| c.path.to_str() != Some("sub/c.txt")));
    let run = s.run.canonicalize().unwrap();
    let err = ws.finish(Outcome::Success).unwrap_err();
    assert_refused(err, "sub/c.txt");
    assert_eq!(tree(&s.user), user_before);
    let patch = patch_text(&run.join("changes.patch"));
    assert!(patch.starts_with("# not included, the original changed during the run: sub/c.txt\n"));
    assert!(patch.contains("+TWO\n"));
}

#[test]
fn concurrent_rewrite_with_same_size_and_mtime_is_still_seen() {
    let s = setup();
    seed(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    let p = s.user.join("b.txt");
    let mtime = fs::metadata(&p).unwrap().modified().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    fs::write(&p, b"BYE\n").unwrap();
    fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    assert_eq!(fs::metadata(&p).unwrap().modified().unwrap(), mtime);
    let err = ws.finish(Outcome::Success).unwrap_err();
    assert_refused(err, "b.txt");
    assert_eq!(fs::read(&p).unwrap(), b"BYE\n");
}

#[test]
fn file_added_to_original_during_run_is_a_conflict() {
    let s = setup();
    seed(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    write(&s.user, "late.txt", b"x\n");
    assert_refused(ws.finish(Outcome::Success).unwrap_err(), "late.txt");
    assert_eq!(fs::read(s.user.join("late.txt")).unwrap(), b"x\n");
    assert_eq!(
        fs::read(s.user.join("a.txt")).unwrap(),
        b"one\ntwo\nthree\n"
    );
}

#[test]
fn failure_ignores_conflicts() {
    let s = setup();
    seed(&s.user);
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    write(&s.user, "late.txt", b"x\n");
    let done = ws.finish(Outcome::Failure).unwrap();
    assert_eq!(done.changes.conflicts.len(), 1);
    assert!(!done.written_back);
}

#[test]
fn type_changes_are_written_back() {
    let s = setup();
    write(&s.user, "was_file", b"f\n");
    write(&s.user, "was_dir/inner/x.txt", b"x\n");
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    fs::remove_file(ws.path().join("was_file")).unwrap();
    write(ws.path(), "was_file/now_inside.txt", b"in\n");
    fs::remove_dir_all(ws.path().join("was_dir")).unwrap();
    write(ws.path(), "was_dir", b"now a file\n");
    let ws_tree = tree(ws.path());
    let done = ws.finish(Outcome::Success).unwrap();
    assert!(done.written_back);
    assert_eq!(tree(&s.user), ws_tree);
    let patch = patch_text(&done.patch_path);
    assert!(patch.contains("# added directory: was_file\n"));
    assert!(patch.contains("# deleted directory: was_dir/inner\n"));
    assert!(patch.contains("diff --git a/was_dir b/was_dir\nnew file mode 100644\n"));
}

#[test]
fn run_dir_inside_user_dir_is_refused() {
    let s = setup();
    seed(&s.user);
    for mode in [Mode::Copy, Mode::InPlace] {
        let err = Workspace::from_dir(&s.user, &s.user.join(".baton/run1"), mode).unwrap_err();
        assert!(matches!(err, WorkspaceError::Refused { .. }), "{err}");
        assert!(err.to_string().contains("must not contain each other"));
    }
    let err = Workspace::from_dir(&s.user, s.tmp.path(), Mode::Copy).unwrap_err();
    assert!(matches!(err, WorkspaceError::Refused { .. }), "{err}");
}

#[test]
fn a_run_dir_cannot_be_reused() {
    let s = setup();
    seed(&s.user);
    let _ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    let err = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("create directory") && msg.contains("workspace"),
        "{msg}"
    );
}

#[test]
fn missing_user_dir_is_an_error_naming_it() {
    let s = setup();
    let err = Workspace::from_dir(&s.user.join("nope"), &s.run, Mode::Copy).unwrap_err();
    assert!(err.to_string().contains("nope"), "{err}");
}

#[test]
fn copy_size_limit_is_enforced() {
    let s = setup();
    seed(&s.user);
    let limits = baton_workspace::Limits {
        max_copy_bytes: Some(10),
        ..Default::default()
    };
    let err = Workspace::from_dir_with(&s.user, &s.run, Mode::Copy, limits).unwrap_err();
    assert!(
        matches!(
            err,
            WorkspaceError::LimitExceeded {
                what: "bytes",
                limit: 10,
                ..
            }
        ),
        "{err}"
    );
    let limits = baton_workspace::Limits {
        max_entries: 2,
        ..Default::default()
    };
    let err = Workspace::from_dir_with(&s.user, &s.tmp.path().join("run2"), Mode::Copy, limits)
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorkspaceError::LimitExceeded {
                what: "entries",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn mtime_is_preserved_in_the_copy() {
    let s = setup();
    seed(&s.user);
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    fs::File::options()
        .write(true)
        .open(s.user.join("a.txt"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    assert_eq!(
        fs::metadata(ws.path().join("a.txt"))
            .unwrap()
            .modified()
            .unwrap(),
        old
    );
    assert!(matches!(
        tree(ws.path()).get(std::path::Path::new("a.txt")),
        Some(E::File(..))
    ));
}

/// Red-team finding: a 6,000-level chain in the run's workspace made the end-of-run walk
/// quadratic (every directory reopened from the root): 29 s after the plan ended. Deep, wide
/// and sparse trees are copied, diffed and written back with one directory open at a time
/// (here with the path-length bound lifted, to show the walks themselves hold at any depth;
/// the default bound is tested below).
#[test]
fn deep_wide_and_sparse_trees_are_walked_copied_and_written_back() {
    use cap_std::ambient_authority;
    use cap_std::fs::Dir;
    const DEPTH: usize = 6_000;
    let s = setup();
    // Wide: 3,000 files in one directory; sparse: one file deep in an otherwise empty path.
    for i in 0..3_000 {
        write(&s.user, &format!("wide/f{i}.txt"), b"w\n");
    }
    write(&s.user, "sparse/a/b/c/d/e/f/g/only.txt", b"s\n");
    // Deep: paths this long exceed PATH_MAX, so the chain is made one level at a time.
    let mut dir = Dir::open_ambient_dir(&s.user, ambient_authority()).unwrap();
    for _ in 0..DEPTH {
        dir.create_dir("d").unwrap();
        dir = dir.open_dir("d").unwrap();
    }
    dir.write("bottom.txt", "deep\n").unwrap();

    let started = std::time::Instant::now();
    let unbounded = Limits {
        max_path_bytes: u64::MAX,
        ..Limits::default()
    };
    let ws = Workspace::from_dir_with(&s.user, &s.run, Mode::Copy, unbounded).unwrap();
    // The plan changes the bottom of the chain and adds a level below it.
    let mut dir = Dir::open_ambient_dir(ws.path(), ambient_authority()).unwrap();
    for _ in 0..DEPTH {
        dir = dir.open_dir("d").unwrap();
    }
    dir.write("bottom.txt", "changed\n").unwrap();
    dir.create_dir("more").unwrap();
    let changes = ws.changes().unwrap();
    assert_eq!(changes.changes.len(), 2, "{:?}", changes.conflicts);
    let done = ws.finish(Outcome::Success).unwrap();
    assert!(done.written_back);
    // A figure for the note, not an assertion: tests never assert on time.
    eprintln!(
        "copy, diff and write-back of {DEPTH} levels and 3,000 files: {:.2?}",
        started.elapsed()
    );
    let mut dir = Dir::open_ambient_dir(&s.user, ambient_authority()).unwrap();
    for _ in 0..DEPTH {
        dir = dir.open_dir("d").unwrap();
    }
    assert_eq!(dir.read_to_string("bottom.txt").unwrap(), "changed\n");
    assert!(dir.open_dir("more").is_ok());
}

/// Makes a chain of `depth` directories named `d` under `root`, one level at a time (paths this
/// long exceed PATH_MAX).
fn chain(root: &std::path::Path, depth: usize) {
    use cap_std::ambient_authority;
    use cap_std::fs::Dir;
    let mut dir = Dir::open_ambient_dir(root, ambient_authority()).unwrap();
    for _ in 0..depth {
        dir.create_dir("d").unwrap();
        dir = dir.open_dir("d").unwrap();
    }
    dir.write("bottom.txt", "deep\n").unwrap();
}

/// A plan that makes a 12,000-level chain (113 s of end-of-run walking before) gets a clear
/// error from the default path-length bound as soon as the walk reaches 4,096 bytes of path,
/// nothing is written back, and the run's copy keeps what the plan made.
#[test]
fn a_chain_beyond_the_path_bound_is_refused_not_walked_for_minutes() {
    let s = setup();
    write(&s.user, "kept.txt", b"original\n");
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy).unwrap();
    write(ws.path(), "kept.txt", b"changed\n");
    chain(ws.path(), 12_000);
    let err = ws.changes().unwrap_err();
    assert!(
        matches!(
            err,
            WorkspaceError::LimitExceeded {
                limit: 4096,
                what,
                ..
            } if what.contains("path")
        ),
        "{err}"
    );
    assert!(err.to_string().contains("4096 bytes of path"), "{err}");
    let copy = ws.path().to_path_buf();
    assert!(ws.finish(Outcome::Success).is_err());
    assert_eq!(fs::read(s.user.join("kept.txt")).unwrap(), b"original\n");
    assert!(
        !s.user.join("d").exists(),
        "nothing of the chain was written back"
    );
    assert!(
        copy.join("d/d/d").is_dir(),
        "the run's copy keeps what the plan made"
    );
}

/// Every walk ends at the run's deadline: one that has passed stops the next walk with an
/// error that says so.
#[test]
fn walks_end_at_the_deadline() {
    let s = setup();
    for i in 0..600 {
        write(&s.user, &format!("many/f{i}.txt"), b"x\n");
    }
    let ws = Workspace::from_dir(&s.user, &s.run, Mode::Copy)
        .unwrap()
        .with_deadline(std::time::Instant::now());
    let err = ws.changes().unwrap_err();
    assert!(
        matches!(err, WorkspaceError::DeadlineExceeded { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("time limit"), "{err}");
    // Before the deadline, the same walk succeeds.
    let ws = Workspace::from_dir(&s.user, &s.run.join("again"), Mode::Copy)
        .unwrap()
        .with_deadline(std::time::Instant::now() + Duration::from_secs(3600));
    assert!(ws.changes().unwrap().changes.is_empty());
}

/// Everything above, again as an unprivileged user (when this runs as root).
#[test]
fn copy_mode_holds_for_an_unprivileged_caller_too() {
    common::rerun_as_unprivileged_user("copy_mode_holds_for_an_unprivileged_caller_too");
}
