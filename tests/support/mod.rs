//! Helpers shared by the end-to-end tests that drive the `baton` binary: scratch directories,
//! running `baton` with the suite's module cache, and reading what a run left.
#![allow(dead_code)] // each test binary uses some of them

pub mod fake_openai;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// A directory of its own for each test, removed when the test passes.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "{}-{}-{}-{name}",
            module_path!().split("::").next().unwrap_or("test"),
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    }

    pub fn run_dir(&self) -> PathBuf {
        self.0.join("run")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `baton ARGS` in `dir`, with the module cache shared by the test suite and new run
/// directories under `dir/runs`.
pub fn baton_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(args)
        .current_dir(dir)
        .env(
            "BATON_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"),
        )
        .env("BATON_RUNS_DIR", dir.join("runs"))
        .output()
        .expect("run baton")
}

/// [`baton_in`] with these environment variables set (an empty value hides one the machine
/// may have).
pub fn baton_in_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(args)
        .current_dir(dir)
        .env(
            "BATON_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"),
        )
        .env("BATON_RUNS_DIR", dir.join("runs"))
        .envs(env.iter().copied())
        .output()
        .expect("run baton")
}

/// `baton run PLAN --run-dir DIR/run ARGS` for a plan written into the scratch directory.
pub fn run_plan(scratch: &Scratch, plan: &str, args: &[&str]) -> Output {
    let plan = scratch.write("plan.py", plan);
    let run_dir = scratch.run_dir();
    let mut all = vec!["run", plan.as_str(), "--run-dir", run_dir.to_str().unwrap()];
    all.extend_from_slice(args);
    baton_in(scratch.path(), &all)
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn assert_exit(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
}

pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    serde_json::from_str(&text).unwrap()
}

pub fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// Processes on this machine whose command line contains `needle`.
pub fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(needle) {
                found.push(format!(
                    "{}: {cmdline}",
                    entry.file_name().to_string_lossy()
                ));
            }
        }
    }
    found
}
