//! Overlay layers read and applied by hand (the kernel is not involved): an upper layer with a
//! whiteout, an opaque directory, a replaced file, a new symlink and a mode change, applied onto
//! a plain directory and onto another fork's upper layer.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use baton_workspace::overlay::{apply, LayerOp, LayerTarget, OverlayFork};

fn whiteout(path: &Path) -> bool {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mknod with a valid NUL-terminated path.
    unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR, 0) == 0 }
}

fn opaque(path: &Path) -> bool {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: setxattr with valid NUL-terminated strings and a 1-byte value.
    unsafe {
        libc::setxattr(
            c.as_ptr(),
            c"user.overlay.opaque".as_ptr(),
            b"y".as_ptr().cast(),
            1,
            0,
        ) == 0
    }
}

/// An upper layer; `None` where this machine cannot make whiteouts or user xattrs here.
fn upper_layer(root: &Path) -> Option<OverlayFork> {
    let fork = OverlayFork::create(&root.join("fork"), vec![root.join("lower")]).unwrap();
    let upper = fork.upper();
    std::fs::create_dir_all(upper.join("keep")).unwrap();
    std::fs::write(upper.join("keep/changed.txt"), "new\n").unwrap();
    std::fs::set_permissions(
        upper.join("keep/changed.txt"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    std::fs::create_dir_all(upper.join("replaced")).unwrap();
    std::fs::write(upper.join("replaced/only.txt"), "only\n").unwrap();
    std::os::unix::fs::symlink("keep/changed.txt", upper.join("link")).unwrap();
    if !whiteout(&upper.join("gone.txt")) || !opaque(&upper.join("replaced")) {
        return None;
    }
    Some(fork)
}

fn lower_tree(dir: &Path) {
    std::fs::create_dir_all(dir.join("keep")).unwrap();
    std::fs::create_dir_all(dir.join("replaced")).unwrap();
    std::fs::write(dir.join("keep/changed.txt"), "old\n").unwrap();
    std::fs::write(dir.join("keep/untouched.txt"), "same\n").unwrap();
    std::fs::write(dir.join("replaced/hidden.txt"), "hidden\n").unwrap();
    std::fs::write(dir.join("gone.txt"), "bye\n").unwrap();
}

#[test]
fn an_upper_layer_reads_as_its_changes() {
    let root = tempfile::tempdir().unwrap();
    let Some(fork) = upper_layer(root.path()) else {
        eprintln!("skipped: no whiteouts or user xattrs on this filesystem");
        return;
    };
    let ops = fork.changes().unwrap();
    assert_eq!(
        ops,
        vec![
            LayerOp::Delete("gone.txt".into()),
            LayerOp::Dir {
                path: "keep".into(),
                mode: 0o755,
                opaque: false
            },
            LayerOp::File {
                path: "keep/changed.txt".into(),
                mode: 0o600
            },
            LayerOp::Symlink {
                path: "link".into(),
                target: "keep/changed.txt".into()
            },
            LayerOp::Dir {
                path: "replaced".into(),
                mode: 0o755,
                opaque: true
            },
            LayerOp::File {
                path: "replaced/only.txt".into(),
                mode: 0o644
            },
        ]
    );
    assert_eq!(fork.stacked()[0], fork.upper());
}

#[test]
fn applying_onto_a_directory_deletes_replaces_and_merges() {
    let root = tempfile::tempdir().unwrap();
    let Some(fork) = upper_layer(root.path()) else {
        eprintln!("skipped: no whiteouts or user xattrs on this filesystem");
        return;
    };
    let parent = root.path().join("parent");
    lower_tree(&parent);
    let ops = fork.changes().unwrap();
    apply(&ops, fork.upper(), LayerTarget::Plain(&parent)).unwrap();
    assert!(!parent.join("gone.txt").exists());
    assert_eq!(
        std::fs::read_to_string(parent.join("keep/changed.txt")).unwrap(),
        "new\n"
    );
    assert_eq!(
        std::fs::read_to_string(parent.join("keep/untouched.txt")).unwrap(),
        "same\n"
    );
    assert!(
        !parent.join("replaced/hidden.txt").exists(),
        "an opaque directory replaces"
    );
    assert_eq!(
        std::fs::read_to_string(parent.join("replaced/only.txt")).unwrap(),
        "only\n"
    );
    assert_eq!(
        std::fs::read_link(parent.join("link")).unwrap(),
        Path::new("keep/changed.txt")
    );
    let mode = std::fs::metadata(parent.join("keep/changed.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    fork.remove();
    assert!(!root.path().join("fork").exists());
}

#[test]
fn applying_onto_an_upper_layer_leaves_whiteouts_and_opaque_marks() {
    let root = tempfile::tempdir().unwrap();
    let Some(fork) = upper_layer(root.path()) else {
        eprintln!("skipped: no whiteouts or user xattrs on this filesystem");
        return;
    };
    let parent =
        OverlayFork::create(&root.path().join("parent"), vec![root.path().join("lower")]).unwrap();
    let ops = fork.changes().unwrap();
    apply(&ops, fork.upper(), LayerTarget::Upper(parent.upper())).unwrap();
    // The parent's upper layer now says the same as the child's.
    assert_eq!(parent.changes().unwrap(), ops);
}

#[test]
fn a_planted_symlink_in_the_parent_is_replaced_not_followed() {
    let root = tempfile::tempdir().unwrap();
    let Some(fork) = upper_layer(root.path()) else {
        eprintln!("skipped: no whiteouts or user xattrs on this filesystem");
        return;
    };
    let parent = root.path().join("parent");
    let outside = root.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(&parent).unwrap();
    // `keep` is a link out of the workspace in the parent: applying must not write through it.
    std::os::unix::fs::symlink(&outside, parent.join("keep")).unwrap();
    let ops = fork.changes().unwrap();
    apply(&ops, fork.upper(), LayerTarget::Plain(&parent)).unwrap();
    assert!(
        std::fs::read_dir(&outside).unwrap().next().is_none(),
        "nothing written outside"
    );
    assert!(std::fs::symlink_metadata(parent.join("keep"))
        .unwrap()
        .is_dir());
    assert_eq!(
        std::fs::read_to_string(parent.join("keep/changed.txt")).unwrap(),
        "new\n"
    );
}

/// Red-team finding: a 4,000-level directory chain made in a branch and adopted overflowed the
/// stack in the overlay walk. The walk is iterative with one directory open at a time, and
/// applying the chain opens each level once.
#[test]
fn a_deep_chain_is_read_and_applied_without_recursion() {
    use cap_std::ambient_authority;
    use cap_std::fs::Dir;
    const DEPTH: usize = 4_000;
    let root = tempfile::tempdir().unwrap();
    let fork = OverlayFork::create(&root.path().join("fork"), vec![]).unwrap();
    // Paths this deep exceed PATH_MAX: the chain is made one level at a time.
    let mut dir = Dir::open_ambient_dir(fork.upper(), ambient_authority()).unwrap();
    for _ in 0..DEPTH {
        dir.create_dir("d").unwrap();
        dir = dir.open_dir("d").unwrap();
    }
    dir.write("bottom.txt", "deep\n").unwrap();
    drop(dir);

    // Past the default bound on path length (4,096 bytes): refused, quickly.
    assert!(matches!(
        fork.changes(),
        Err(baton_workspace::WorkspaceError::LimitExceeded { limit: 4096, .. })
    ));
    // With the bound lifted, on a thread with a small stack: a recursive walk would overflow it.
    let unbounded = baton_workspace::Limits {
        max_path_bytes: u64::MAX,
        ..Default::default()
    };
    let ops = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || (fork.changes_within(&unbounded).unwrap(), fork))
        .unwrap()
        .join()
        .unwrap();
    let (ops, fork) = ops;
    assert_eq!(ops.len(), DEPTH + 1);
    assert!(matches!(ops.last(), Some(LayerOp::File { .. })));

    let target = root.path().join("target");
    std::fs::create_dir(&target).unwrap();
    let changed = apply(&ops, fork.upper(), LayerTarget::Plain(&target)).unwrap();
    assert_eq!(changed, DEPTH + 1);
    let mut dir = Dir::open_ambient_dir(&target, ambient_authority()).unwrap();
    for _ in 0..DEPTH {
        dir = dir.open_dir("d").unwrap();
    }
    assert_eq!(dir.read_to_string("bottom.txt").unwrap(), "deep\n");
    fork.remove();
}
