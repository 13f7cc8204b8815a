//! The names of the limits that can end a run, shared by the per-instance limits
//! ([`crate::run::Limits`]) and the run-wide ones ([`crate::run_limits`]).

use std::fmt;

/// Which limit ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// Fuel ran out.
    Cpu,
    /// The wall-clock timeout passed.
    WallClock,
    /// The memory cap was hit and the run could not go on.
    Memory,
    /// The wasm stack was exhausted.
    Stack,
    /// The memories of all the run's instances together ([`RunWideLimits::memory_bytes`](crate::RunWideLimits::memory_bytes)).
    RunMemory,
    /// What the plan and its branches printed ([`RunWideLimits::output_bytes`](crate::RunWideLimits::output_bytes)).
    Output,
    /// What the plan logged ([`RunWideLimits::log_bytes`](crate::RunWideLimits::log_bytes)).
    Log,
    /// What finished branches handed back at once ([`RunWideLimits::held_bytes`](crate::RunWideLimits::held_bytes)).
    Held,
    /// Memory of all the run's commands together (their cgroup, `[sandbox] run_memory_mib`).
    Commands,
    /// The run directory's growth on disk (`[limits] disk_mib`).
    Disk,
}

impl LimitKind {
    pub fn name(self) -> &'static str {
        match self {
            LimitKind::Cpu => "CPU",
            LimitKind::WallClock => "wall-clock",
            LimitKind::Memory => "memory",
            LimitKind::Stack => "stack",
            LimitKind::RunMemory => "run-wide memory",
            LimitKind::Output => "output",
            LimitKind::Log => "log",
            LimitKind::Held => "held results",
            LimitKind::Commands => "commands' memory",
            LimitKind::Disk => "disk",
        }
    }
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
