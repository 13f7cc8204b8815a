//! What the host's benchmarks share: the count given on the command line, a compiled plan, a
//! script-provider client over a replies file, and the process's peak RSS.
#![allow(dead_code)] // each benchmark uses some of them

use std::path::PathBuf;
use std::sync::Arc;

use baton_host::llm::{Client, LlmConfig, ProviderSpec};
use baton_host::{ModuleCache, Prepared};

/// The first number on the command line (`cargo bench ... -- N`), else `default`.
pub fn count_arg(default: usize) -> usize {
    std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(default)
}

/// The process's peak resident set size, in MiB.
pub fn peak_rss_mib() -> f64 {
    // SAFETY: getrusage writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss as f64 / 1024.0
}

/// `plan` compiled and prepared (validated, compiled by Cranelift, imports resolved).
pub fn prepare(name: &str, plan: &str) -> Prepared {
    let wasm = baton_compiler::compile_source(name, plan)
        .expect("the plan compiles")
        .wasm;
    ModuleCache::new(None).prepare(&wasm).expect("prepare")
}

/// A scratch directory for benchmark `name` with `replies` (a script provider file), and a
/// client answering from it. Remove the directory when done.
pub fn script_client(name: &str, replies: &str) -> (PathBuf, Arc<Client>) {
    let dir = std::env::temp_dir().join(format!("baton-bench-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("replies.json");
    std::fs::write(&script, replies).unwrap();
    let client = Client::from_config(
        &LlmConfig::default(),
        Some(ProviderSpec::Script { path: script }),
    )
    .expect("script provider");
    (dir, Arc::new(client))
}
