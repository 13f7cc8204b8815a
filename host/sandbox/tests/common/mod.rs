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
        let Some(pid) = name.to_str().filter(|n| n.bytes().all(|b| b.is_ascii_digit())) else {
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
