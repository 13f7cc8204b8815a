//! Assembles this build's runtime module and precompiles it, so that no run compiles it.
//!
//! Writes to `OUT_DIR` (see `src/runtime_image.rs`, which embeds both):
//! - `runtime.wasm`: the runtime module's bytes (`baton_runtime::linking::runtime_module`),
//!   kept beside every run so that a later build can resume it;
//! - `runtime.cwasm`: those bytes compiled by Cranelift with the engine's code settings
//!   (`src/code_config.rs`, included here), for this machine's CPU. Empty when cross-compiling
//!   or when this machine cannot compile (the host then compiles the runtime on first use, as
//!   it does whenever wasmtime refuses the precompiled code: another CPU, another setting).

use std::error::Error;
use std::path::PathBuf;

#[allow(dead_code)]
#[path = "src/code_config.rs"]
mod code_config;

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/code_config.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("cargo sets OUT_DIR")?);
    let wasm = baton_runtime::linking::runtime_module()
        .binary()
        .map_err(|error| format!("the runtime module does not assemble: {error}"))?;
    std::fs::write(out.join("runtime.wasm"), &wasm)?;
    let native = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    let compiled = if native {
        wasmtime::Engine::new(&code_config::code_config(
            code_config::CompileProfile::Optimised,
        ))
        .and_then(|engine| engine.precompile_module(&wasm))
        .unwrap_or_else(|error| {
            println!("cargo:warning=the runtime is not precompiled ({error}); runs compile it");
            Vec::new()
        })
    } else {
        Vec::new()
    };
    std::fs::write(out.join("runtime.cwasm"), compiled)?;
    Ok(())
}
