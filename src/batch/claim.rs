//! Claims: which process runs a run. Two copies of one shard (Kubernetes may start a
//! replacement pod before the old one is gone; a batch may be started twice) must never run
//! the same run at once, and a claim left by a dead holder must not block the run forever.
//!
//! A claim is a file `claims/<id>.lock` made with `O_EXCL`, naming its holder: host, pid,
//! process start time and a nonce. Its holder touches it every [`HEARTBEAT`]. It is stale when
//! its holder is on this host and no longer running (its pid is gone, or is another process
//! now: the start time differs), or, for a holder on another host, when it has not been
//! touched for [`STALE_AFTER`]. A stale claim is taken over by renaming it away (of several
//! takers only one rename succeeds), checking that what was renamed is the stale claim that was
//! judged (and putting it back otherwise), and claiming afresh.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// How often a holder touches its claims.
pub const HEARTBEAT: Duration = Duration::from_secs(10);
/// A claim of another host untouched this long is stale.
pub const STALE_AFTER: Duration = Duration::from_secs(60);

/// Who holds a claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub host: String,
    pub pid: u32,
    /// The process's start time (clock ticks since boot, `/proc/PID/stat`), so a reused pid
    /// is not taken for the holder.
    pub start: u64,
    pub nonce: u64,
}

impl Holder {
    /// This process.
    pub fn me() -> Holder {
        let pid = std::process::id();
        Holder {
            host: hostname(),
            pid,
            start: process_start(pid).unwrap_or(0),
            nonce: nonce(),
        }
    }

    /// Whether the holder still runs (judged only for this host's holders).
    fn alive_here(&self) -> bool {
        process_start(self.pid).is_some_and(|start| start == self.start)
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .unwrap_or_else(|_| "unknown".to_string())
}

fn nonce() -> u64 {
    let time = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    time ^ (u64::from(std::process::id()) << 32)
}

/// A running process's start time in clock ticks since boot (field 22 of `/proc/PID/stat`);
/// `None` when there is no such process, or it has exited and waits to be reaped (a zombie,
/// state `Z` or `X`: a shard killed with its batch stays one until its new parent reaps it, and
/// its claims are stale all the same).
fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: count from its end.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    if matches!(fields.next()?, "Z" | "X" | "x") {
        return None;
    }
    fields.nth(18)?.parse().ok()
}

/// The claims a process holds, touched by one heartbeat thread.
#[derive(Clone, Default)]
pub struct Claims {
    held: Arc<Mutex<Vec<PathBuf>>>,
}

/// A held claim; dropping it releases it.
pub struct Claim {
    path: PathBuf,
    claims: Claims,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut held = self.claims.held.lock().unwrap_or_else(|p| p.into_inner());
        held.retain(|path| path != &self.path);
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Claims {
    /// Starts the heartbeat that keeps this process's claims fresh.
    pub fn start() -> Claims {
        let claims = Claims::default();
        let held = Arc::downgrade(&claims.held);
        std::thread::spawn(move || loop {
            std::thread::sleep(HEARTBEAT);
            let Some(held) = held.upgrade() else { return };
            let paths = held.lock().unwrap_or_else(|p| p.into_inner()).clone();
            for path in paths {
                if let Ok(file) = OpenOptions::new().append(true).open(&path) {
                    let _ = file.set_modified(SystemTime::now());
                }
            }
        });
        claims
    }

    /// Claims `id` in `dir` for `holder`: `Ok(None)` when a live holder has it.
    pub fn claim(&self, dir: &Path, id: &str, holder: &Holder) -> std::io::Result<Option<Claim>> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("{id}.lock"));
        for _ in 0..8 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    file.write_all(serde_json::to_string(holder)?.as_bytes())?;
                    file.sync_all()?;
                    self.held
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(path.clone());
                    return Ok(Some(Claim {
                        path,
                        claims: self.clone(),
                    }));
                }
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(error),
            }
            let Some(stale) = stale_holder(&path) else {
                return Ok(None);
            };
            // Take the stale claim over: rename it away (only one taker's rename succeeds),
            // check that it is the claim judged stale, then claim afresh.
            let away = dir.join(format!("{id}.stale-{}", holder.nonce));
            match std::fs::rename(&path, &away) {
                Ok(()) => {
                    let renamed = read_holder(&away);
                    if renamed.as_ref() != Some(&stale) {
                        // A live claim made meanwhile: put it back (unless yet another exists).
                        let _ = std::fs::hard_link(&away, &path);
                    }
                    let _ = std::fs::remove_file(&away);
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(error),
            }
        }
        Ok(None)
    }
}

fn read_holder(path: &Path) -> Option<Holder> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The holder of the claim at `path` when it is stale; `None` when it is live.
fn stale_holder(path: &Path) -> Option<Holder> {
    let holder = read_holder(path);
    let age = std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|modified| SystemTime::now().duration_since(modified).ok())
        .unwrap_or_default();
    match holder {
        Some(holder) if holder.host == hostname() => (!holder.alive_here()).then_some(holder),
        Some(holder) => (age > STALE_AFTER).then_some(holder),
        // Unreadable: a claim being written, or torn by a crash; stale once old.
        None => (age > STALE_AFTER).then(|| Holder {
            host: String::new(),
            pid: 0,
            start: 0,
            nonce: 0,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exited_process_not_yet_reaped_holds_nothing() {
        assert!(process_start(std::process::id()).is_some());
        // A child that has exited and is not waited for stays a zombie: not alive.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while process_start(pid).is_some() {
            assert!(
                std::time::Instant::now() < deadline,
                "the exited child still counts as running"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        assert!(stat.contains(") Z "), "not a zombie: {stat}");
        child.wait().unwrap();
    }

    #[test]
    fn a_live_claim_excludes_and_a_dead_holders_is_taken_over() {
        let dir = std::env::temp_dir().join(format!("baton-claims-{}", std::process::id()));
        let claims = Claims::default();
        let me = Holder::me();
        let first = claims.claim(&dir, "run-1", &me).unwrap();
        assert!(first.is_some());
        // This process is alive: a second claim (another copy of the shard) is refused.
        let other = Holder {
            nonce: 7,
            ..me.clone()
        };
        assert!(claims.claim(&dir, "run-1", &other).unwrap().is_none());
        drop(first);
        assert!(claims.claim(&dir, "run-1", &other).unwrap().is_some());
        // A holder of this host that is gone (a pid with another start time) is stale.
        let dead = Holder {
            start: me.start + 1,
            ..me.clone()
        };
        std::fs::write(
            dir.join("run-2.lock"),
            serde_json::to_string(&dead).unwrap(),
        )
        .unwrap();
        let taken = claims.claim(&dir, "run-2", &me).unwrap();
        assert!(taken.is_some());
        assert_eq!(read_holder(&dir.join("run-2.lock")), Some(me.clone()));
        // Another host's fresh claim is respected.
        let remote = Holder {
            host: "elsewhere".into(),
            ..me
        };
        std::fs::write(
            dir.join("run-3.lock"),
            serde_json::to_string(&remote).unwrap(),
        )
        .unwrap();
        assert!(claims.claim(&dir, "run-3", &remote).unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
