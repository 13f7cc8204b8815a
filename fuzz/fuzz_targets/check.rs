//! Fuzzes the static checker: any UTF-8 input must be checked without a panic, without an
//! internal error, with in-range spans and with renderable diagnostics.
//!
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run check -- -max_len=4096` (see fuzz/README.md).
//! The invariants live in `baton_compiler::fuzzing` so `tests/fuzz_corpus.rs` replays the
//! committed corpus through exactly the same code.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    baton_compiler::fuzzing::check_invariants(text);
});
