//! Shared helpers for the sandbox's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use baton_sandbox::{Command, HelperExe, Mode, Output, Policy, Sandbox};

/// A directory under the host's temp dir, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "baton-sandbox-test-{tag}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn helper() -> HelperExe {
    HelperExe::new(env!("CARGO_BIN_EXE_baton-sandbox-helper"))
}

pub fn sandbox(policy: Policy) -> Sandbox {
    Sandbox::new(helper(), policy, Mode::Enforce)
}

pub fn command(script: &str) -> Command {
    Command {
        script: script.to_string(),
        stdin: None,
        timeout: Duration::from_secs(60),
    }
}

/// Runs `script` in a fresh sandbox over `workspace` and panics on a sandbox error.
pub async fn run_in(workspace: &Path, script: &str) -> Output {
    sandbox(Policy::for_workspace(workspace))
        .run(command(script))
        .await
        .unwrap_or_else(|e| panic!("sandbox error for {script:?}: {e}"))
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Host processes whose command line contains `marker`.
pub fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = text(&cmdline).replace('\0', " ");
            if cmdline.contains(marker) {
                found.push(format!("{pid}: {cmdline}"));
            }
        }
    }
    found
}

/// Whether the cgroup process limit works on this machine (CI may lack it).
pub fn pids_cgroup_active() -> bool {
    matches!(
        baton_sandbox::info(&helper()).layer("cgroup-pids"),
        Some(baton_sandbox::LayerState::Active(_))
    )
}

/// A string no other test (or earlier run) uses: tag, pid, a counter and the clock.
pub fn unique(tag: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{tag}-{}-{}-{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    )
}

/// A unique marker that is also a number: `sleep 1000 <marker>` sleeps (GNU sleep adds its
/// arguments up), and the marker then shows in the sleep's command line on the host.
pub fn numeric_marker() -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "0.00{}{:03}{nanos:09}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst) % 1000
    )
}

/// Polls the host's process table until no process mentions `marker` or `within` passes;
/// returns what is left. Processes of a finished run are gone at once (the pid namespace is
/// torn down before the helper reaps pid 1); the grace only absorbs scheduling noise.
pub fn remaining_after(marker: &str, within: Duration) -> Vec<String> {
    let deadline = std::time::Instant::now() + within;
    loop {
        let left = processes_with(marker);
        if left.is_empty() || std::time::Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Samples, on its own thread, how many host processes mention a marker, keeping the maximum.
pub struct ProcessWatch {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<usize>,
}

impl ProcessWatch {
    pub fn start(marker: &str) -> ProcessWatch {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let marker = marker.to_string();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut max = 0;
            while !flag.load(Ordering::SeqCst) {
                max = max.max(processes_with(&marker).len());
                std::thread::sleep(Duration::from_millis(10));
            }
            max
        });
        ProcessWatch { stop, thread }
    }

    /// Stops sampling; the largest number of matching processes seen at once.
    pub fn max_seen(self) -> usize {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap()
    }
}

/// A host child process killed and reaped on drop, so a failing test leaves nothing behind.
pub struct HostChild(pub std::process::Child);

impl HostChild {
    pub fn spawn(program: &str, args: &[&str]) -> HostChild {
        HostChild(
            std::process::Command::new(program)
                .args(args)
                .spawn()
                .unwrap(),
        )
    }

    pub fn pid(&self) -> u32 {
        self.0.id()
    }

    /// Alive and not a zombie: `try_wait` would reap a dead child and report it.
    pub fn alive(&mut self) -> bool {
        self.0.try_wait().unwrap().is_none()
    }
}

impl Drop for HostChild {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

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
    let out = std::process::Command::new(&exe)
        .args(["--skip", this_test, "--test-threads", "2"])
        .env(UNPRIVILEGED_RERUN, "1")
        .env("HOME", "/tmp")
        .env("TMPDIR", "/tmp")
        .current_dir("/")
        .uid(65534)
        .gid(65534)
        .output();
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
    let stdout = text(&out.stdout);
    if out.status.code() == Some(126) || stdout.is_empty() {
        eprintln!(
            "not checked: uid 65534 cannot execute {}: {}",
            exe.display(),
            text(&out.stderr)
        );
        return;
    }
    assert!(
        out.status.success() && stdout.contains("test result: ok"),
        "as uid 65534:\n{stdout}\n{}",
        text(&out.stderr)
    );
}
