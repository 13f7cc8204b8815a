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

#[path = "rerun.rs"]
mod rerun;
#[allow(unused_imports)] // not every test file re-runs itself
pub use rerun::rerun_as_unprivileged_user;
