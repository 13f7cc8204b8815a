//! Why a run did not produce an outcome ([`HostError`]), the payloads the host's own traps
//! carry through wasmtime, and [`classify`], which maps whatever ended an instance to a
//! [`HostError`] — by type, never by parsing a message back.

use std::fmt;

use wasmtime::{GcHeapOutOfMemory, ThrownException, Trap, WasmBacktrace};

use crate::engine;
use crate::imports::ModuleError;
use crate::limit_kind::LimitKind;
use crate::limits::Limits;
use crate::run_limits::RunStopped;

/// Why a run did not produce a [`RunOutcome`](crate::RunOutcome).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The module was refused before it was instantiated.
    #[error("module refused: {0}")]
    Module(ModuleError),
    /// A limit ended the run. `message` names the limit and its value.
    #[error("{message}")]
    Limit { limit: LimitKind, message: String },
    /// The module trapped (a wasm trap, a host call refusing hostile arguments, an uncaught wasm
    /// exception). `backtrace` lists the wasm frames when wasmtime captured them.
    #[error("the plan trapped: {message}")]
    Trap {
        message: String,
        backtrace: Option<String>,
    },
    /// `baton_main` returned something that is not the address of a valid str object.
    #[error("baton_main returned an invalid traceback: {message}")]
    BadTraceback { message: String },
    /// Writing the plan's output failed (e.g. a closed pipe).
    #[error("cannot write the plan's output: {0}")]
    Output(std::io::Error),
    /// The engine could not be set up, the module could not be compiled, or the run thread
    /// could not be started.
    #[error("{0}")]
    Engine(String),
    /// A branch repeated the same request too many times in a row (`[branch] stuck_repeats`).
    #[error("{0}")]
    Stuck(String),
    /// A call differs from the journal being replayed (`--resume`, `baton replay`).
    #[error("divergence from the journal: {0}")]
    Divergence(String),
}

// No `#[source]`/`#[from]` on the variants above: their messages already include the inner
// error, and a source would make `{:#}` chains (anyhow) print it twice.
impl From<ModuleError> for HostError {
    fn from(error: ModuleError) -> Self {
        HostError::Module(error)
    }
}

impl HostError {
    /// The limit that ended the run, if one did.
    pub fn limit(&self) -> Option<LimitKind> {
        match self {
            HostError::Limit { limit, .. } => Some(*limit),
            _ => None,
        }
    }
}

/// A host call refused its arguments. Becomes [`HostError::Trap`].
#[derive(Debug)]
pub(crate) struct GuestFault(pub(crate) String);

impl fmt::Display for GuestFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GuestFault {}

/// A replayed call differs from the journal. Becomes [`HostError::Divergence`].
#[derive(Debug)]
pub(crate) struct Diverged(pub(crate) String);

impl fmt::Display for Diverged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Diverged {}

/// The output's reader went away (writing failed). Becomes [`HostError::Output`].
#[derive(Debug)]
pub(crate) struct OutputClosed;

impl fmt::Display for OutputClosed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the run's output is closed")
    }
}

impl std::error::Error for OutputClosed {}

/// A branch repeated the same request too many times in a row. Becomes [`HostError::Stuck`].
#[derive(Debug)]
pub(crate) struct BranchStuck(pub(crate) String);

impl fmt::Display for BranchStuck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BranchStuck {}

/// Maps an error from instantiation or `baton_main` to a [`HostError`]. `refused` tells whether
/// the limiter refused a memory or table growth during the run.
pub(crate) fn classify(error: wasmtime::Error, limits: &Limits, refused: bool) -> HostError {
    if let Some(stopped) = error.downcast_ref::<RunStopped>() {
        return HostError::Limit {
            limit: stopped.limit,
            message: stopped.message.clone(),
        };
    }
    if let Some(stuck) = error.downcast_ref::<BranchStuck>() {
        return HostError::Stuck(stuck.0.clone());
    }
    if let Some(diverged) = error.downcast_ref::<Diverged>() {
        return HostError::Divergence(diverged.0.clone());
    }
    if error.downcast_ref::<OutputClosed>().is_some() {
        // The writer's own error is reported by run_module; this is the fallback.
        return HostError::Output(std::io::Error::new(
            std::io::ErrorKind::BrokenPipe,
            OutputClosed.to_string(),
        ));
    }
    let backtrace = error
        .downcast_ref::<WasmBacktrace>()
        .map(|trace| trace.to_string())
        .filter(|trace| !trace.trim().is_empty());
    if let Some(fault) = error.downcast_ref::<GuestFault>() {
        return HostError::Trap {
            message: fault.0.clone(),
            backtrace,
        };
    }
    let memory_limit = || HostError::Limit {
        limit: LimitKind::Memory,
        message: format!(
            "memory limit exceeded ({} MiB)",
            limits.memory_bytes as f64 / (1 << 20) as f64
        ),
    };
    if let Some(trap) = error.downcast_ref::<Trap>() {
        return match trap {
            Trap::OutOfFuel => HostError::Limit {
                limit: LimitKind::Cpu,
                message: format!("CPU limit exceeded (fuel {} exhausted)", limits.fuel),
            },
            Trap::Interrupt => HostError::Limit {
                limit: LimitKind::WallClock,
                message: format!(
                    "wall-clock limit exceeded (timeout {} s)",
                    limits.timeout.as_secs_f64()
                ),
            },
            Trap::StackOverflow => HostError::Limit {
                limit: LimitKind::Stack,
                message: format!(
                    "stack limit exceeded (the {} MiB wasm stack is exhausted)",
                    engine::MAX_WASM_STACK >> 20
                ),
            },
            Trap::AllocationTooLarge => memory_limit(),
            // A trap right after a refused memory.grow: the runtime could not go on.
            _ if refused => HostError::Limit {
                limit: LimitKind::Memory,
                message: format!(
                    "memory limit exceeded ({} MiB): the plan trapped after a memory.grow was \
                     refused ({trap})",
                    limits.memory_bytes >> 20
                ),
            },
            _ => HostError::Trap {
                message: trap.to_string(),
                backtrace,
            },
        };
    }
    if error.downcast_ref::<GcHeapOutOfMemory<()>>().is_some() {
        return memory_limit();
    }
    if error.downcast_ref::<ThrownException>().is_some() {
        return HostError::Trap {
            message: "an uncaught wasm exception escaped baton_main (the runtime must catch \
                      every exception and return its traceback)"
                .to_string(),
            backtrace,
        };
    }
    let text = format!("{error:#}");
    // Instantiation: an initial memory (or table) larger than the caps.
    if refused || text.contains("exceeds memory limits") || text.contains("exceeds table limits") {
        return HostError::Limit {
            limit: LimitKind::Memory,
            message: format!(
                "memory limit exceeded ({} MiB): {text}",
                limits.memory_bytes >> 20
            ),
        };
    }
    HostError::Trap {
        message: text,
        backtrace,
    }
}
