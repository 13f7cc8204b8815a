//! The hard limits of one instance ([`Limits`]): fuel, wall clock, memory; and the run-wide
//! ones it carries (`run_limits.rs`).

use std::time::Duration;

use crate::run_limits::RunWideLimits;

/// The hard limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU limit, in wasmtime fuel units (roughly one per wasm instruction executed; since
    /// wasmtime 48, `memory.copy`/`memory.fill` also charge per byte). Default
    /// [`Limits::DEFAULT_FUEL`]. Not enforced by an engine whose code meters no fuel
    /// ([`CompileProfile::FastUnmetered`](crate::engine::CompileProfile::FastUnmetered)).
    pub fuel: u64,
    /// Wall-clock limit for the whole run, compilation excluded. Default
    /// [`Limits::DEFAULT_TIMEOUT`]. Rounded up to the epoch tick
    /// ([`EPOCH_TICK`](crate::engine::EPOCH_TICK)).
    pub timeout: Duration,
    /// The most each of the module's memories may grow to, in bytes. Default
    /// [`Limits::DEFAULT_MEMORY_BYTES`].
    pub memory_bytes: usize,
    /// What the run as a whole may use, all its instances together (`run_limits.rs`).
    pub run_wide: RunWideLimits,
}

impl Limits {
    /// 20 billion fuel units: 2-9 s of busy plan code on the development machine, depending
    /// on what it does (a tight `while` loop burns a unit in about 0.1 ns, a JSON round trip
    /// in about 0.4 ns) — well inside the default timeout, and room for a plan that parses
    /// command output or JSON in a long loop (tests/memory: a 60 KB document loaded and dumped
    /// 400 times needs more than 5e9, the default before).
    pub const DEFAULT_FUEL: u64 = 20_000_000_000;
    /// 60 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
    /// 256 MiB.
    pub const DEFAULT_MEMORY_BYTES: usize = 256 << 20;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: Self::DEFAULT_FUEL,
            timeout: Self::DEFAULT_TIMEOUT,
            memory_bytes: Self::DEFAULT_MEMORY_BYTES,
            run_wide: RunWideLimits::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_have_documented_defaults() {
        let limits = Limits::default();
        assert_eq!(limits.timeout, Duration::from_secs(60));
        assert_eq!(limits.memory_bytes, 256 << 20);
        assert!(limits.fuel >= 1_000_000_000);
    }
}
