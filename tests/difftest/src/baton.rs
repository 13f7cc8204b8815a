//! Baton's side: compile a plan and run it in-process under limits.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::Duration;

use baton_compiler::CompileError;
use baton_host::{HostError, Limits, ModuleCache, Prepared, RunOutcome};

use crate::outcome::{exception_text, Ending, Outcome};

/// Limits of one generated plan's run: generous (CPython runs these plans in milliseconds), so
/// a limit means a Baton performance problem, not a slow plan. Generated plans are compiled
/// without fuel metering (`CompileProfile::FastUnmetered`, see main.rs), so the timeout is
/// their CPU bound too: the same as CPython's (`driver::Options::python_timeout`), so that a
/// reduction's candidate that loops forever (a deleted increment) costs no more on Baton's
/// side than on CPython's, which runs beside it.
pub const LIMITS: Limits = Limits {
    fuel: 2_000_000_000,
    timeout: Duration::from_secs(10),
    memory_bytes: 128 << 20,
    run_wide: baton_host::RunWideLimits::DEFAULT,
};

/// Compiles and runs plans. Holds its own module cache, which keeps only the runtime on disk
/// (compiled for the tester's engine once per machine, `BATON_CACHE_DIR` as for `baton run`):
/// generated plans never repeat, so writing each compiled module to disk would only cost time.
pub struct Runner {
    cache: ModuleCache,
    limits: Limits,
    /// The collector's stress mode for every plan compiled (`--gc-stress N`; 0 off).
    gc_stress: u32,
    /// The plan run last, with its compiled module: a plan whose output differs from CPython's
    /// is run again with the deviation switch on ([`Runner::deviation`]), and compiling it again
    /// would cost as much as the first run.
    last: Mutex<Option<(String, Prepared)>>,
}

impl Default for Runner {
    fn default() -> Self {
        Runner::new(LIMITS)
    }
}

impl Runner {
    /// A runner with `limits` per run. Chooses the fast compile profile for the process's
    /// engine unless a profile was chosen before (`baton_host::engine::set_compile_profile`).
    pub fn new(limits: Limits) -> Self {
        baton_host::engine::set_compile_profile(baton_host::engine::CompileProfile::Fast);
        Runner {
            cache: ModuleCache::from_env().runtime_only_on_disk(),
            limits,
            gc_stress: 0,
            last: Mutex::new(None),
        }
    }

    /// This runner compiling with the collector's stress mode: a collection at every `n`th safe
    /// point, freed memory poisoned (a difference from CPython then points at a missed root).
    /// Collections cost fuel, so the fuel limit grows a thousandfold.
    pub fn with_gc_stress(mut self, n: u32) -> Self {
        if n > 0 {
            self.gc_stress = n;
            self.limits.fuel = self.limits.fuel.saturating_mul(1000);
        }
        self
    }

    /// Compiles and runs `source`. Never panics: a panic in the compiler or host is reported as
    /// [`Ending::Crash`].
    pub fn run(&self, source: &str) -> Outcome {
        let prepared = match self.prepare(source) {
            Ok(prepared) => prepared,
            Err(ending) => return ended(ending),
        };
        let mut stdout = Vec::new();
        let result = catch_unwind(AssertUnwindSafe(|| prepared.run(&self.limits, &mut stdout)));
        *self.last() = Some((source.to_string(), prepared));
        let ending = match result {
            Ok(Ok(RunOutcome::Success)) => Ending::Success,
            Ok(Ok(RunOutcome::Exception { traceback, .. })) => {
                Ending::Raised(exception_text(&traceback))
            }
            Ok(Err(HostError::Limit { message, .. })) => Ending::Limit(message),
            Ok(Err(error)) => Ending::Crash(error.to_string()),
            Err(_) => Ending::Crash("the host panicked".to_string()),
        };
        Outcome {
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            ending,
        }
    }

    /// `source` checked, compiled and prepared; or how that ended.
    fn prepare(&self, source: &str) -> Result<Prepared, Ending> {
        let options = baton_compiler::CompileOptions {
            gc_stress: self.gc_stress,
        };
        let compiled =
            catch_unwind(|| baton_compiler::compile_source_with("plan.py", source, options));
        let wasm = match compiled {
            Ok(Ok(plan)) => plan.wasm,
            Ok(Err(CompileError::Rejected(report))) => {
                let first = report
                    .diagnostics
                    .first()
                    .map(|d| format!("{}: {}", d.code, d.message))
                    .unwrap_or_default();
                return Err(Ending::Rejected(first));
            }
            Ok(Err(CompileError::Unsupported { error, .. })) => {
                return Err(Ending::Unsupported(error.message))
            }
            Ok(Err(error)) => return Err(Ending::Crash(error.to_string())),
            Err(_) => return Err(Ending::Crash("the compiler panicked".to_string())),
        };
        let prepared = catch_unwind(AssertUnwindSafe(|| self.cache.prepare(&wasm)));
        // Drop the compiled module from the cache's map: every plan is new, and the map would
        // otherwise hold dozens of compiled modules. The one returned lives on in `last`.
        self.cache.clear_memory();
        match prepared {
            Ok(Ok(prepared)) => Ok(prepared),
            Ok(Err(HostError::Limit { message, .. })) => Err(Ending::Limit(message)),
            Ok(Err(error)) => Err(Ending::Crash(error.to_string())),
            Err(_) => Err(Ending::Crash("the host panicked".to_string())),
        }
    }

    fn last(&self) -> std::sync::MutexGuard<'_, Option<(String, Prepared)>> {
        self.last.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The deliberate deviation `source` reaches when run with the runtime's deviation switch
    /// on (`Prepared::trapping_deviations`), if any: an int beyond 64 bits or a complex result
    /// — even one the plan catches, which a normal run cannot show — or a float `**` whose
    /// exact value lies so near a rounding tie that CPython's last digit is its libm's choice,
    /// or the recursion limit (whose depth differs from CPython's, so output printed at every
    /// level or the depth caught differs), or a hash CPython seeds or takes from an address.
    /// The module compiled for the plan run last is run again if `source` is that plan's.
    ///
    /// Each trap prints a marker naming its kind just before it traps (runtime/wat/num.wat,
    /// `$deviation_trap`): what that run printed last says which, under any compile profile (a
    /// backtrace would not, since an inlined trap function has no frame of its own).
    pub fn deviation(&self, source: &str) -> Option<&'static str> {
        let last = self.last().take();
        let prepared = match last {
            Some((last_source, prepared)) if last_source == source => prepared,
            _ => self.prepare(source).ok()?,
        };
        let trapping = prepared.trapping_deviations().ok()?;
        let mut stdout = Vec::new();
        let result = catch_unwind(AssertUnwindSafe(|| trapping.run(&self.limits, &mut stdout)));
        *self.last() = Some((source.to_string(), prepared));
        let Ok(Err(HostError::Trap { .. })) = result else {
            return None;
        };
        DEVIATION_TRAPS
            .iter()
            .find(|(marker, _)| stdout.ends_with(marker.as_bytes()))
            .map(|&(_, deviation)| deviation)
    }
}

/// What each deviation trap prints before it traps (runtime/wat/num.strings, `num_trap_*`), and
/// the deviation it stands for.
const DEVIATION_TRAPS: [(&str, &str); 4] = [
    (
        "[baton deviation trap: 64-bit int or complex]",
        "64-bit int or complex deviation caught by the plan",
    ),
    (
        "[baton deviation trap: float ** near a tie]",
        "float ** near a rounding tie (CPython's is the libm's pow, not correctly rounded)",
    ),
    (
        "[baton deviation trap: unspecified hash]",
        "hash() of a value whose hash CPython seeds or takes from its address",
    ),
    (
        "[baton deviation trap: recursion limit]",
        "recursion depth (the limit counts other frames than CPython's) reached",
    ),
];

fn ended(ending: Ending) -> Outcome {
    Outcome {
        stdout: String::new(),
        ending,
    }
}
