//! This build's runtime module, assembled and precompiled when Baton was built (`build.rs`).
//!
//! A plan module imports the runtime (`baton_runtime::linking`). Compiling the runtime takes
//! Cranelift about 0.3 s of CPU, far more than a small plan's whole run, so the build does it
//! once and the binary carries the result: a run loads it in about a millisecond, whatever the
//! module cache holds. When wasmtime refuses the precompiled code (a binary copied to a CPU
//! without the features it was built for, or a build that could not precompile), the module
//! cache compiles [`RUNTIME_WASM`] instead and keeps the result on disk like any module.

use wasmtime::{Engine, Module};

/// The runtime module's bytes (what `baton_runtime::linking::runtime_module` assembles): kept
/// beside every run as its `runtime.wasm`, so that a later build of Baton can resume or replay
/// the run with the runtime it ran with.
pub const RUNTIME_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/runtime.wasm"));

/// [`RUNTIME_WASM`] compiled for the machine that built Baton; empty when not precompiled.
const RUNTIME_CWASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/runtime.cwasm"));

/// The precompiled runtime loaded into `engine`, or `None` when there is none, wasmtime finds
/// it incompatible with `engine`, or a perf map is asked for (code loaded, not compiled, is not
/// described in it).
pub(crate) fn precompiled(engine: &Engine) -> Option<Module> {
    if RUNTIME_CWASM.is_empty() || crate::engine::perf_map_requested() {
        return None;
    }
    // SAFETY: the bytes are part of this binary: `build.rs` produced them with
    // `Engine::precompile_module` from this build's runtime, under the engine settings this
    // engine uses (`code_config.rs`). wasmtime checks the header (its version, the target, every
    // setting that shapes code, the CPU features) and refuses what does not match.
    unsafe { Module::deserialize(engine, RUNTIME_CWASM) }.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_runtime_is_this_builds_runtime() {
        let assembled = baton_runtime::linking::runtime_module().binary().unwrap();
        assert!(
            assembled == RUNTIME_WASM,
            "build.rs embedded another runtime"
        );
    }

    #[test]
    fn the_precompiled_runtime_loads_into_the_shared_engine() {
        let engine = crate::engine::engine().unwrap();
        assert!(
            !RUNTIME_CWASM.is_empty(),
            "the build did not precompile the runtime"
        );
        let module = precompiled(engine).expect("wasmtime refused the precompiled runtime");
        let name = format!(
            "{}{}",
            baton_runtime::linking::RUNTIME_IMPORT_PREFIX,
            crate::RUNTIME_VERSION
        );
        assert!(module.exports().any(|export| export.name() == name));
    }
}
