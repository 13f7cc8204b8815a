//! The runtime that lives inside every compiled plan module: object model, allocator,
//! builtins and json, written in WAT (see DESIGN.md, "Layout"). Its value ABI is the contract
//! that `compiler` (which emits calls into it) and `host` (which copies values across the
//! boundary) share.
//!
//! Nothing is here yet: the compiler back end (issue "Compile plans to one self-contained
//! WebAssembly module") brings the runtime sources and the Rust that assembles them.
