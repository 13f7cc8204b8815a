//! Batches of runs: one plan (or many) over many workspaces, inputs and seeds, on this machine
//! or across a cluster, resumable, nothing lost.
//!
//! # The manifest
//! JSON lines, one run each ([`manifest`]): `id` (unique), `plan` (a `.py` or `.wasm`; paths are
//! relative to the manifest's directory), `inputs`, `workspace` (a directory or a tarball; runs
//! naming the same workspace form a *group*), `grants`, `llm` (as `--llm`), `limits`, `config`
//! and free `tags`. Every bad line is reported, with its number, before anything runs.
//!
//! # The batch root
//! ```text
//! ROOT/manifest.json      the validated runs (paths resolved), for status and collect
//! ROOT/runs/ID/           each run's run directory (journal, workspace, changes.patch, ...)
//! ROOT/claims/ID.lock     who runs ID now ([`claim`])
//! ROOT/results/ID.json    how ID ended: written once, atomically (temp file and rename)
//! ROOT/failures/ID.json   why ID could not run this time (a failure worth a retry)
//! ROOT/bases/HASH/        a tarball workspace unpacked once for its whole group
//! ```
//!
//! # The shard contract
//! `baton batch shard MANIFEST --out ROOT --index I --shards N` runs shard I: whole groups,
//! dealt round-robin. A run with a result is skipped; a run with a journal and no result is
//! resumed (its journal replays what was done: no command runs twice, no answered model call
//! is sent again); a run is claimed first, so two copies of a shard never run one run at once.
//! A run's workspace is a private copy of its group's directory that is never written back
//! ([`baton_host::config::WorkspaceMode::Isolated`]), so runs of one repository share its one
//! checkout. A plan that raised or hit a limit has a result (recorded as such, not retried).
//! Exit status: 0 when every run of the shard has a result; [`EXIT_RETRY`] when some could not
//! run for a reason outside the plan (sandbox set-up, a model provider unreachable after its
//! retries, a full disk, a run another live process holds): the engines retry those; 2 for a
//! bad manifest or usage.
//!
//! # Engines
//! [`local`] runs shards as processes on this machine; [`k8s`] renders an Indexed Job; [`slurm`]
//! submits a job array. All run the same shard command.

pub mod claim;
pub mod collect;
pub mod k8s;
pub mod local;
pub mod manifest;
pub mod shard;
pub mod slurm;
pub mod status;

use std::io::Write as _;
use std::path::{Path, PathBuf};

pub use manifest::{Manifest, ManifestError, RunEntry};

/// A shard's exit status when some of its runs failed for a reason worth a retry
/// (`EX_TEMPFAIL`).
pub const EXIT_RETRY: u8 = 75;

/// What an engine needs to start shards: `EXE batch shard MANIFEST --out ROOT --index I
/// --shards SHARDS --jobs JOBS`.
#[derive(Debug, Clone, Copy)]
pub struct Submission<'a> {
    pub exe: &'a Path,
    pub manifest: &'a Path,
    pub root: &'a Path,
    pub shards: usize,
    /// Runs at once inside each shard.
    pub jobs: usize,
}

/// Where a batch keeps what it does (see the module documentation).
#[derive(Debug, Clone)]
pub struct Layout {
    root: PathBuf,
}

impl Layout {
    pub fn new(root: &Path) -> Layout {
        Layout {
            root: root.to_path_buf(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn run_dir(&self, id: &str) -> PathBuf {
        self.root.join("runs").join(id)
    }

    pub fn claims(&self) -> PathBuf {
        self.root.join("claims")
    }

    pub fn results_dir(&self) -> PathBuf {
        self.root.join("results")
    }

    pub fn result(&self, id: &str) -> PathBuf {
        self.results_dir().join(format!("{id}.json"))
    }

    pub fn failure(&self, id: &str) -> PathBuf {
        self.root.join("failures").join(format!("{id}.json"))
    }

    pub fn manifest(&self) -> PathBuf {
        self.root.join("manifest.json")
    }

    /// The runs recorded in the root (`manifest.json`: id, plan, workspace, tags), for
    /// `status` and `collect`; an error that says so when this is not a batch root.
    pub fn runs(&self) -> std::io::Result<Vec<serde_json::Value>> {
        let text = match std::fs::read_to_string(self.manifest()) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(std::io::Error::other(format!(
                    "{} is not a batch root (no manifest.json: `baton batch shard` or `run` \
                     makes one)",
                    self.root.display()
                )))
            }
            Err(error) => return Err(error),
        };
        serde_json::from_str(&text).map_err(|error| {
            std::io::Error::other(format!("{}: {error}", self.manifest().display()))
        })
    }

    /// Run `id`'s result, if it has one.
    pub fn read_result(&self, id: &str) -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(self.result(id)).ok()?).ok()
    }

    /// Makes the root's directories and records the manifest's runs in it.
    pub fn prepare(&self, manifest: &Manifest) -> std::io::Result<()> {
        for dir in ["runs", "claims", "results", "failures", "bases"] {
            std::fs::create_dir_all(self.root.join(dir))?;
        }
        let runs: Vec<serde_json::Value> = manifest
            .runs
            .iter()
            .map(|run| {
                serde_json::json!({
                    "id": run.id,
                    "plan": run.plan,
                    "workspace": run.workspace,
                    "tags": run.tags,
                })
            })
            .collect();
        write_atomically(&self.manifest(), &serde_json::to_string(&runs)?)
    }

    /// The directory a group's runs copy their workspace from: `source` itself, or a tarball
    /// unpacked once under `bases/` (unpacked to a temporary name and renamed, so a crash
    /// never leaves half a base).
    pub fn base_of(&self, source: &Path) -> std::io::Result<PathBuf> {
        if source.is_dir() {
            return Ok(source.to_path_buf());
        }
        let name = format!("{:016x}", fnv(source.display().to_string().as_bytes()));
        let base = self.root.join("bases").join(&name);
        if base.is_dir() {
            return Ok(base);
        }
        let unpacking = self
            .root
            .join("bases")
            .join(format!("{name}.unpacking-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&unpacking);
        std::fs::create_dir_all(&unpacking)?;
        let status = std::process::Command::new("tar")
            .arg("-xf")
            .arg(source)
            .arg("-C")
            .arg(&unpacking)
            .status()?;
        if !status.success() {
            let _ = std::fs::remove_dir_all(&unpacking);
            return Err(std::io::Error::other(format!(
                "tar could not unpack {} ({status})",
                source.display()
            )));
        }
        match std::fs::rename(&unpacking, &base) {
            Ok(()) => Ok(base),
            // Another process unpacked it first.
            Err(_) if base.is_dir() => {
                let _ = std::fs::remove_dir_all(&unpacking);
                Ok(base)
            }
            Err(error) => Err(error),
        }
    }
}

/// Writes `text` to `path` so that a reader sees all of it or nothing: a temporary file in the
/// same directory, synced, then renamed over `path`.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let temporary = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let mut file = std::fs::File::create(&temporary)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

/// FNV-1a: a stable name for a path.
fn fnv(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tarball workspace is unpacked once for its whole group; a directory is used as it is;
    /// a tarball tar cannot read is an error, and leaves no half-unpacked base behind.
    #[test]
    fn a_tarball_base_is_unpacked_once() {
        let dir = std::env::temp_dir().join(format!("baton-bases-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/data.txt"), "hello\n").unwrap();
        let tarball = dir.join("repo.tar.gz");
        let packed = std::process::Command::new("tar")
            .arg("-czf")
            .arg(&tarball)
            .arg("-C")
            .arg(dir.join("src"))
            .arg(".")
            .status()
            .unwrap();
        assert!(packed.success());
        let layout = Layout::new(&dir.join("root"));
        std::fs::create_dir_all(dir.join("root/bases")).unwrap();
        let base = layout.base_of(&tarball).unwrap();
        assert_eq!(
            std::fs::read_to_string(base.join("data.txt")).unwrap(),
            "hello\n"
        );
        // The second run of the group finds it unpacked (a marker survives).
        std::fs::write(base.join("marker"), "").unwrap();
        assert_eq!(layout.base_of(&tarball).unwrap(), base);
        assert!(base.join("marker").exists());
        assert_eq!(layout.base_of(&dir.join("src")).unwrap(), dir.join("src"));
        let broken = dir.join("broken.tar");
        std::fs::write(&broken, "not a tarball").unwrap();
        assert!(layout.base_of(&broken).is_err());
        let left: Vec<_> = std::fs::read_dir(dir.join("root/bases"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
