//! Writes this build's runtime interface (`baton_runtime::interface`: the runtime's static
//! objects, function signatures, globals and never-collecting functions) to
//! `OUT_DIR/runtime_interface.rs`, which `src/runtime.rs` includes: reading it off the
//! assembled runtime costs ~15 ms, which a compile would otherwise pay in every process.
//! Cargo runs this again whenever the runtime crate, a build dependency, changes.

use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("cargo sets OUT_DIR")?);
    let interface = baton_runtime::interface::Interface::assembled();
    std::fs::write(out.join("runtime_interface.rs"), interface.to_rust())?;
    Ok(())
}
