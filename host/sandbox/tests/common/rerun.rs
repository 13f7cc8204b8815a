//! Re-running a test binary as an unprivileged user. Shared by the sandbox's and the
//! workspace's tests (included with `#[path]`), which must hold for both kinds of caller.

/// Set in the environment of a test binary re-run as an unprivileged user.
const UNPRIVILEGED_RERUN: &str = "BATON_TEST_UNPRIVILEGED_RERUN";

/// When this test process is root, runs this whole test binary again as `nobody` (uid and gid
/// 65534; std drops the supplementary groups), skipping `this_test`, and asserts every test passes there too: the sandbox must hold
/// for both kinds of caller, which build the user namespace differently. Says so and returns
/// when not root, when already re-run, or when `nobody` cannot execute the binary.
pub fn rerun_as_unprivileged_user(this_test: &str) {
    use std::os::unix::process::CommandExt;
    // SAFETY: geteuid has no preconditions.
    if std::env::var_os(UNPRIVILEGED_RERUN).is_some() || unsafe { libc::geteuid() } != 0 {
        eprintln!("not checked here: this process is not root (it is the unprivileged run)");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    // The run's temporary files go into a directory of its own, removed here afterwards: what
    // `nobody` cannot remove itself (an overlay's work directory, which the kernel makes
    // root's) would otherwise be left in /tmp by every run.
    let tmp = std::env::temp_dir().join(format!("baton-unprivileged-rerun-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    std::os::unix::fs::chown(&tmp, Some(65534), Some(65534)).unwrap();
    let out = std::process::Command::new(&exe)
        .args(["--skip", this_test, "--test-threads", "2"])
        .env(UNPRIVILEGED_RERUN, "1")
        .env("HOME", "/tmp")
        .env("TMPDIR", &tmp)
        .current_dir("/")
        .uid(65534)
        .gid(65534)
        .output();
    let _ = std::fs::remove_dir_all(&tmp);
    let out = match out {
        Ok(out) => out,
        Err(err) => {
            eprintln!(
                "not checked: cannot run {} as uid 65534: {err}",
                exe.display()
            );
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.code() == Some(126) || stdout.is_empty() {
        eprintln!(
            "not checked: uid 65534 cannot execute {}: {}",
            exe.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    assert!(
        out.status.success() && stdout.contains("test result: ok"),
        "as uid 65534:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
