//! Run-wide limits: what a run as a whole may use — the plan and every branch instance together.
//!
//! [`Limits`](crate::Limits) bounds one instance (its memory, its fuel). A plan that fans out
//! multiplies that: sixteen branches each within its own 256 MiB cap are 4 GiB, and what they
//! hand back (results, exception messages, printed output) is held by the host until the
//! `branch` call returns. So a run also has one account for each resource its instances share:
//!
//! - **memory**: the linear memories (and exception heaps) of all live instances together;
//! - **output**: the bytes the plan and its branches print;
//! - **log**: the bytes of `log()` lines;
//! - **held**: what finished branches hand back to the host (results, tracebacks, output) and
//!   the host keeps until their `branch` call returns.
//!
//! What the host watches outside the instances stops the run through the same account: the
//! commands' memory (`services.rs`, their cgroup) and the run directory's growth on disk
//! (`disk_watch.rs`: the workspace, the branches' forks, the journal).
//!
//! Crossing one stops the whole run: the instance that crossed it traps, every other instance
//! traps at its next epoch tick (each store checks `RunAccount::stopped`), and the run ends with
//! [`HostError::Limit`](crate::HostError::Limit) naming the run-wide limit (exit 4). Unlike a
//! single instance's memory cap, which the plan meets as a catchable `MemoryError`, these are
//! the host protecting itself, so a plan cannot catch and ignore them.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::limit_kind::LimitKind;

/// The run-wide limits (see the module doc). Defaults keep a default run's host memory near
/// 1 GiB whatever the plan does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunWideLimits {
    /// All instances' memories together, in bytes. Default 1 GiB.
    pub memory_bytes: usize,
    /// Bytes printed by the plan and its branches. Default 64 MiB.
    pub output_bytes: u64,
    /// Bytes of `log()` lines. Default 16 MiB.
    pub log_bytes: u64,
    /// Bytes finished branches hand back and the host holds at once. Default 128 MiB.
    pub held_bytes: usize,
}

impl RunWideLimits {
    /// The defaults, usable in constants.
    pub const DEFAULT: RunWideLimits = RunWideLimits {
        memory_bytes: 1 << 30,
        output_bytes: 64 << 20,
        log_bytes: 16 << 20,
        held_bytes: 128 << 20,
    };
}

impl Default for RunWideLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Why the run was stopped: the trap of the instance that crossed a run-wide limit, and of
/// every other instance after it.
#[derive(Debug, Clone)]
pub(crate) struct RunStopped {
    pub(crate) limit: LimitKind,
    pub(crate) message: String,
}

impl std::fmt::Display for RunStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RunStopped {}

/// The run's accounts, shared by all its instances (and by whatever else may stop the run:
/// see [`RunAccount::stop_for_commands`]).
#[derive(Debug)]
pub struct RunAccount {
    limits: RunWideLimits,
    memory: AtomicU64,
    output: AtomicU64,
    log: AtomicU64,
    held: AtomicU64,
    stopped: OnceLock<RunStopped>,
}

const MIB: f64 = (1 << 20) as f64;

impl RunAccount {
    pub fn new(limits: RunWideLimits) -> Arc<RunAccount> {
        Arc::new(RunAccount {
            limits,
            memory: AtomicU64::new(0),
            output: AtomicU64::new(0),
            log: AtomicU64::new(0),
            held: AtomicU64::new(0),
            stopped: OnceLock::new(),
        })
    }

    /// The reason the run was stopped, once it was.
    pub(crate) fn stopped(&self) -> Option<&RunStopped> {
        self.stopped.get()
    }

    /// Stops the run (the first reason wins) and returns the reason in force.
    fn stop(&self, limit: LimitKind, message: String) -> RunStopped {
        self.stopped
            .get_or_init(|| RunStopped { limit, message })
            .clone()
    }

    /// Stops the run because its commands crossed their run-wide limit (`message` says which);
    /// every instance traps at its next host call or epoch tick.
    pub fn stop_for_commands(&self, message: String) {
        self.stop(LimitKind::Commands, message);
    }

    /// Stops the run because its run directory grew past the disk budget (`disk_watch.rs`).
    pub fn stop_for_disk(&self, message: String) {
        self.stop(LimitKind::Disk, message);
    }

    /// Fails when the run was already stopped, so no instance carries on after it.
    pub(crate) fn check(&self) -> Result<(), RunStopped> {
        match self.stopped() {
            Some(stopped) => Err(stopped.clone()),
            None => Ok(()),
        }
    }

    /// Takes `bytes` from `account` under `cap`. Past it nothing is taken and the run stops
    /// for `limit`, with `message` (given the cap in MiB). The one mechanism behind every
    /// run-wide account below.
    fn take(
        &self,
        account: &AtomicU64,
        bytes: usize,
        cap: u64,
        limit: LimitKind,
        message: impl FnOnce(f64) -> String,
    ) -> Result<(), RunStopped> {
        self.check()?;
        let bytes = bytes as u64;
        let before = account.fetch_add(bytes, Ordering::SeqCst);
        if before.saturating_add(bytes) <= cap {
            return Ok(());
        }
        account.fetch_sub(bytes, Ordering::SeqCst);
        Err(self.stop(limit, message(cap as f64 / MIB)))
    }

    /// Takes `bytes` more of instance memory; on failure the run is stopped.
    pub(crate) fn grow_memory(&self, bytes: usize) -> Result<(), RunStopped> {
        self.take(
            &self.memory,
            bytes,
            self.limits.memory_bytes as u64,
            LimitKind::RunMemory,
            |mib| {
                format!(
                    "run-wide memory limit exceeded ({mib} MiB for the plan and all its \
                     branches together)"
                )
            },
        )
    }

    /// Gives back instance memory (an instance ended).
    pub(crate) fn release_memory(&self, bytes: usize) {
        self.memory.fetch_sub(bytes as u64, Ordering::SeqCst);
    }

    /// Counts `bytes` of printed output.
    pub(crate) fn count_output(&self, bytes: usize) -> Result<(), RunStopped> {
        self.take(
            &self.output,
            bytes,
            self.limits.output_bytes,
            LimitKind::Output,
            |mib| {
                format!(
                    "output limit exceeded ({mib} MiB printed by the plan and its branches \
                     together)"
                )
            },
        )
    }

    /// Counts `bytes` of log lines.
    pub(crate) fn count_log(&self, bytes: usize) -> Result<(), RunStopped> {
        self.take(
            &self.log,
            bytes,
            self.limits.log_bytes,
            LimitKind::Log,
            |mib| format!("log limit exceeded ({mib} MiB of log lines)"),
        )
    }

    /// Holds `bytes` a finished branch hands back, until its [`Held`] is dropped.
    fn hold(&self, bytes: usize) -> Result<(), RunStopped> {
        self.take(
            &self.held,
            bytes,
            self.limits.held_bytes as u64,
            LimitKind::Held,
            |mib| {
                format!(
                    "run-wide limit on what branches hand back exceeded ({mib} MiB of \
                     results, tracebacks and output held at once)"
                )
            },
        )
    }
}

/// Bytes a branch handed back, held in the run's account until this is dropped (when its
/// `branch` call has returned).
#[derive(Debug)]
pub(crate) struct Held {
    run: Arc<RunAccount>,
    bytes: AtomicUsize,
}

impl Held {
    pub(crate) fn new(run: Arc<RunAccount>) -> Held {
        Held {
            run,
            bytes: AtomicUsize::new(0),
        }
    }

    /// Holds `bytes` more; on failure nothing is held and the run is stopped.
    pub(crate) fn add(&self, bytes: usize) -> Result<(), RunStopped> {
        self.run.hold(bytes)?;
        self.bytes.fetch_add(bytes, Ordering::SeqCst);
        Ok(())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.run
            .held
            .fetch_sub(*self.bytes.get_mut() as u64, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Arc<RunAccount> {
        RunAccount::new(RunWideLimits {
            memory_bytes: 100,
            output_bytes: 10,
            log_bytes: 10,
            held_bytes: 50,
        })
    }

    #[test]
    fn memory_is_shared_and_given_back() {
        let run = small();
        run.grow_memory(60).unwrap();
        run.grow_memory(40).unwrap();
        run.release_memory(40);
        run.grow_memory(40).unwrap();
        let stopped = run.grow_memory(1).unwrap_err();
        assert_eq!(stopped.limit, LimitKind::RunMemory);
        assert!(
            stopped.message.contains("run-wide memory limit"),
            "{stopped}"
        );
        // Once stopped, everything else fails with the first reason.
        run.release_memory(100);
        let again = run.count_output(1).unwrap_err();
        assert_eq!(again.limit, LimitKind::RunMemory);
    }

    #[test]
    fn output_and_log_are_counted_apart() {
        let run = small();
        run.count_output(10).unwrap();
        run.count_log(10).unwrap();
        assert_eq!(run.count_log(1).unwrap_err().limit, LimitKind::Log);
        let run = small();
        assert_eq!(run.count_output(11).unwrap_err().limit, LimitKind::Output);
    }

    #[test]
    fn held_bytes_are_released_when_the_call_returns() {
        let run = small();
        {
            let held = Held::new(run.clone());
            held.add(30).unwrap();
            held.add(20).unwrap();
        }
        let held = Held::new(run.clone());
        held.add(50).unwrap();
        assert_eq!(held.add(1).unwrap_err().limit, LimitKind::Held);
        assert!(run.stopped().is_some());
    }
}
