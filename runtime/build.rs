//! The runtime's version (`linking.rs`): a digest of every file its module is built from — the
//! WAT fragments and messages, the assembler's Rust and the ABI crate — computed when Baton is
//! built, so a host knows its runtime's version without assembling the runtime.

use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, into);
        } else {
            into.push(path);
        }
    }
}

/// FNV-1a, 128 bits: a digest to tell builds apart, not to resist an adversary.
fn fnv1a(state: &mut u128, bytes: &[u8]) {
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    for &byte in bytes {
        *state ^= u128::from(byte);
        *state = state.wrapping_mul(PRIME);
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut inputs = Vec::new();
    for dir in ["src", "wat", "../abi/src"] {
        let dir = root.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        files(&dir, &mut inputs);
    }
    inputs.push(root.join("build.rs"));
    inputs.sort();
    let mut state: u128 = 0x6c62272e07bb014262b821756295c58d;
    for path in &inputs {
        let name = path.strip_prefix(&root).unwrap_or(path);
        fnv1a(&mut state, name.to_string_lossy().as_bytes());
        fnv1a(&mut state, &[0]);
        fnv1a(&mut state, &fs::read(path).unwrap_or_default());
        fnv1a(&mut state, &[0]);
    }
    println!(
        "cargo:rustc-env=BATON_RUNTIME_VERSION={:016x}",
        (state >> 64) as u64 ^ state as u64
    );
}
