//! This build's runtime interface: what a plan's code links against in the runtime module
//! (`baton_runtime::interface`), written by `build.rs` when Baton is built, so that no compile
//! assembles the runtime to learn it.

use baton_runtime::interface::Interface;

/// The runtime interface of this build.
pub static RUNTIME: Interface = include!(concat!(env!("OUT_DIR"), "/runtime_interface.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_interface_is_the_assembled_runtimes() {
        assert!(
            RUNTIME == *Interface::assembled(),
            "build.rs wrote another runtime's interface"
        );
    }
}
