//! Cgroups for the process-count and memory limits: one per command (made by its helper), and
//! one per run holding them all (made by the host, see [`crate::CommandsCgroup`]).
//!
//! Root ignores `RLIMIT_NPROC` and memory has no usable rlimit (`RLIMIT_AS` breaks ordinary
//! programs), so cgroups are the only limits that hold here. Each controller is taken from cgroup
//! v2 when the unified hierarchy offers it and from its v1 hierarchy otherwise (hosts that mount
//! both, like this one, often leave the v2 tree without controllers). Where neither works the
//! layer is reported unavailable and the run goes on: the pid namespace and the timeout still end
//! every process.

use std::fs;
use std::path::{Path, PathBuf};

use super::sys::{self, StepError};
use crate::protocol::LayerState;

/// The cgroups created for one run; the helper joins them and removes them afterwards.
#[derive(Debug, Default)]
pub struct RunCgroups {
    /// (directory created, directory the helper returns to when leaving).
    dirs: Vec<(PathBuf, PathBuf)>,
}

struct Mount {
    point: PathBuf,
    root: String,
    fstype: String,
    super_opts: Vec<String>,
}

/// Undoes the octal escapes mountinfo uses for spaces and the like.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let digits = bytes.get(i + 1..i + 4);
        if bytes[i] == b'\\' {
            if let Some(d) = digits.filter(|d| d.iter().all(|b| (b'0'..=b'7').contains(b))) {
                let value = d.iter().fold(0u32, |acc, b| acc * 8 + u32::from(b - b'0'));
                if let Ok(v) = u8::try_from(value) {
                    out.push(v);
                    i += 4;
                    continue;
                }
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn mounts(mountinfo: &str) -> Vec<Mount> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let left: Vec<&str> = left.split(' ').collect();
            let right: Vec<&str> = right.split(' ').collect();
            Some(Mount {
                root: unescape(left.get(3)?),
                point: PathBuf::from(unescape(left.get(4)?)),
                fstype: (*right.first()?).to_string(),
                super_opts: right.get(2)?.split(',').map(str::to_string).collect(),
            })
        })
        .collect()
}

/// The directory of this process's cgroup in `mount`, given its path from /proc/self/cgroup.
fn own_dir(mount: &Mount, path: &str) -> PathBuf {
    let relative = if mount.root != "/" {
        path.strip_prefix(mount.root.as_str()).unwrap_or(path)
    } else {
        path
    };
    mount.point.join(relative.trim_start_matches('/'))
}

fn layer_name(controller: &str) -> String {
    format!("cgroup-{controller}")
}

impl RunCgroups {
    /// Creates a command's cgroups with their limits, inside `parents` (a run's cgroups, one
    /// per hierarchy) or else inside this process's own. Returns the handles and one layer
    /// report per controller.
    pub fn create(
        max_processes: u64,
        memory_bytes: u64,
        parents: &[PathBuf],
    ) -> (RunCgroups, Vec<(String, LayerState)>) {
        // Leftovers of helpers killed before they could clean up go first.
        sweep_stale_in(parents);
        let name = format!("{NAME_PREFIX}{}", std::process::id());
        Self::create_named(&name, max_processes, memory_bytes, parents)
    }

    /// Creates cgroups called `name` with these limits (see [`RunCgroups::create`]).
    pub fn create_named(
        name: &str,
        max_processes: u64,
        memory_bytes: u64,
        parents: &[PathBuf],
    ) -> (RunCgroups, Vec<(String, LayerState)>) {
        let mut run = RunCgroups::default();
        let mut reports = Vec::new();
        let mountinfo = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        let membership = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let all = mounts(&mountinfo);

        let wanted: [(&str, Vec<(&str, String)>); 2] = [
            ("pids", vec![("pids.max", max_processes.to_string())]),
            (
                "memory",
                vec![
                    ("memory.max", memory_bytes.to_string()),
                    ("memory.swap.max", "0".to_string()),
                ],
            ),
        ];
        let mut v2_dir: Option<PathBuf> = None;
        let mut v2_failure = String::from("no cgroup2 mount");
        let v2 = all.iter().find(|m| m.fstype == "cgroup2");
        let v2_path = membership
            .lines()
            .find_map(|l| l.strip_prefix("0::"))
            .map(str::to_string);

        for (controller, files) in wanted {
            let mut outcome: Result<String, String> = Err(String::new());
            if let (Some(mount), Some(path)) = (v2, v2_path.as_deref()) {
                let parent = parent_in(mount, parents).unwrap_or_else(|| own_dir(mount, path));
                outcome = run.try_v2(&parent, name, controller, &files, &mut v2_dir);
                if let Err(e) = &outcome {
                    v2_failure = e.clone();
                }
            }
            if outcome.is_err() {
                let v1_files: Vec<(&str, String)> = match controller {
                    "pids" => vec![("pids.max", max_processes.to_string())],
                    _ => vec![
                        ("memory.limit_in_bytes", memory_bytes.to_string()),
                        ("memory.memsw.limit_in_bytes", memory_bytes.to_string()),
                    ],
                };
                outcome = run
                    .try_v1(&all, &membership, parents, name, controller, &v1_files)
                    .map_err(|v1| format!("v2: {v2_failure}; v1: {v1}"));
            }
            let state = match outcome {
                Ok(detail) => LayerState::Active(detail),
                Err(why) => LayerState::Unavailable(why),
            };
            reports.push((layer_name(controller), state));
        }
        (run, reports)
    }

    fn try_v2(
        &mut self,
        parent: &Path,
        name: &str,
        controller: &str,
        files: &[(&str, String)],
        created: &mut Option<PathBuf>,
    ) -> Result<String, String> {
        let parent = parent.to_path_buf();
        let available = fs::read_to_string(parent.join("cgroup.controllers")).unwrap_or_default();
        if !available.split_whitespace().any(|c| c == controller) {
            return Err(format!("controller not offered in {}", parent.display()));
        }
        let enabled = fs::read_to_string(parent.join("cgroup.subtree_control")).unwrap_or_default();
        if !enabled.split_whitespace().any(|c| c == controller) {
            sys::write_file(
                &parent.join("cgroup.subtree_control"),
                &format!("+{controller}"),
            )
            .map_err(|e| e.message)?;
        }
        let dir = match created {
            Some(dir) => dir.clone(),
            None => {
                let dir = parent.join(name);
                make_fresh_dir(&dir)?;
                self.dirs.push((dir.clone(), parent.clone()));
                *created = Some(dir.clone());
                dir
            }
        };
        write_limits(&dir, files)?;
        Ok(format!("v2 {}", dir.display()))
    }

    fn try_v1(
        &mut self,
        all: &[Mount],
        membership: &str,
        parents: &[PathBuf],
        name: &str,
        controller: &str,
        files: &[(&str, String)],
    ) -> Result<String, String> {
        let mount = all
            .iter()
            .find(|m| m.fstype == "cgroup" && m.super_opts.iter().any(|o| o == controller))
            .ok_or_else(|| "no hierarchy mounted".to_string())?;
        let path = membership
            .lines()
            .find_map(|l| {
                let mut parts = l.splitn(3, ':');
                let _ = parts.next()?;
                let controllers = parts.next()?;
                let path = parts.next()?;
                controllers
                    .split(',')
                    .any(|c| c == controller)
                    .then(|| path.to_string())
            })
            .ok_or_else(|| "not a member of the hierarchy".to_string())?;
        let parent = parent_in(mount, parents).unwrap_or_else(|| own_dir(mount, &path));
        let dir = parent.join(name);
        make_fresh_dir(&dir)?;
        self.dirs.push((dir.clone(), parent));
        write_limits(&dir, files)?;
        Ok(format!("v1 {}", dir.display()))
    }

    /// Moves the calling process into every created cgroup; its children inherit them.
    pub fn join(&self) -> Result<(), StepError> {
        for (dir, _) in &self.dirs {
            sys::write_file(&dir.join("cgroup.procs"), "0")?;
        }
        Ok(())
    }

    /// How many processes the kernel killed for memory in these cgroups (cgroup v2's
    /// `memory.events`, v1's `memory.oom_control`: v1 counts a kill only in the victim's own
    /// cgroup, so a run's cgroup never sees its commands' — each helper reports its own).
    pub fn memory_kills(&self) -> u64 {
        self.dirs()
            .filter_map(|dir| {
                ["memory.events", "memory.oom_control"]
                    .iter()
                    .find_map(|file| fs::read_to_string(dir.join(file)).ok())
            })
            .filter_map(|text| {
                text.lines().find_map(|line| {
                    line.strip_prefix("oom_kill ")
                        .and_then(|n| n.trim().parse::<u64>().ok())
                })
            })
            .sum()
    }

    /// The directories created (one per hierarchy).
    pub fn dirs(&self) -> impl Iterator<Item = &Path> {
        self.dirs.iter().map(|(dir, _)| dir.as_path())
    }

    /// Leaves the cgroups and removes them. Called once every process of the run has been
    /// reaped; errors are ignored because the command has already finished.
    pub fn remove(self) {
        for (dir, parent) in &self.dirs {
            let _ = fs::write(parent.join("cgroup.procs"), "0");
            for _ in 0..50 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
}

/// The prefix of every command's cgroup name (`baton-sandbox-<helper pid>`).
const NAME_PREFIX: &str = "baton-sandbox-";

/// The prefix of every run's cgroup name (`baton-run-<baton pid>-<number>`).
pub const RUN_PREFIX: &str = "baton-run-";

/// The one of `parents` that lies in `mount`'s hierarchy.
fn parent_in(mount: &Mount, parents: &[PathBuf]) -> Option<PathBuf> {
    parents
        .iter()
        .find(|parent| parent.starts_with(&mount.point) && parent.is_dir())
        .cloned()
}

/// The directories our cgroups are made in: this process's own cgroup in the v2 hierarchy and
/// in the v1 hierarchies of the controllers we use (a helper's are its parent's).
fn parent_dirs() -> Vec<PathBuf> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let membership = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let all = mounts(&mountinfo);
    let mut dirs = Vec::new();
    for line in membership.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let mount = if controllers.is_empty() {
            all.iter().find(|m| m.fstype == "cgroup2")
        } else {
            let ours = controllers.split(',').any(|c| c == "pids" || c == "memory");
            all.iter().find(|m| {
                ours && m.fstype == "cgroup"
                    && controllers
                        .split(',')
                        .all(|c| m.super_opts.iter().any(|o| o == c))
            })
        };
        if let Some(mount) = mount {
            let dir = own_dir(mount, path);
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    dirs
}

/// Removes the cgroups of helpers that are gone: a helper killed with its command (a cancelled
/// branch's, a run's timeout) cannot remove its own. A cgroup still holding a process is left
/// (rmdir refuses it), and so is one whose helper pid is alive. Returns how many were removed.
pub fn sweep_stale() -> usize {
    sweep_stale_in(&[])
}

/// [`sweep_stale`] in this process's own cgroups and in `parents` (a run's cgroups). A run's
/// cgroup whose baton process is gone is emptied the same way and removed too.
pub fn sweep_stale_in(parents: &[PathBuf]) -> usize {
    let mut removed = 0;
    let mut dirs = parent_dirs();
    dirs.extend(parents.iter().cloned());
    while let Some(parent) = dirs.pop() {
        let Ok(entries) = fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let pid = name
                .strip_prefix(NAME_PREFIX)
                .or_else(|| name.strip_prefix(RUN_PREFIX)?.split('-').next());
            let Some(pid) = pid.and_then(|pid| pid.parse::<u32>().ok()) else {
                continue;
            };
            if process_alive(pid) {
                continue;
            }
            if name.starts_with(RUN_PREFIX) {
                removed += sweep_stale_in_run(&entry.path());
            }
            if remove_when_empty(&entry.path()) {
                removed += 1;
            }
        }
    }
    removed
}

/// Empties a dead run's cgroup of its commands' cgroups (whose helpers died with it).
fn sweep_stale_in_run(run: &Path) -> usize {
    let Ok(entries) = fs::read_dir(run) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(NAME_PREFIX))
        .filter(|entry| remove_when_empty(&entry.path()))
        .count()
}

/// Removes a cgroup directory, giving its killed processes a moment to exit.
pub fn remove_when_empty(dir: &Path) -> bool {
    for _ in 0..25 {
        if fs::remove_dir(dir).is_ok() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    false
}

/// Whether `pid` is a running process. A zombie (killed, not yet reaped: a cancelled branch's
/// helper until its parent collects it) is not: it has left its cgroups.
fn process_alive(pid: u32) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state follows the command name, which is in parentheses and may contain anything.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next());
    !matches!(state, Some("Z" | "X" | "x"))
}

/// A directory left by a helper that was killed (same pid, recycled) is removed first.
fn make_fresh_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        let _ = fs::remove_dir(dir);
    }
    fs::create_dir(dir).map_err(|e| format!("mkdir {}: {e}", dir.display()))
}

fn write_limits(dir: &Path, files: &[(&str, String)]) -> Result<(), String> {
    for (index, (file, value)) in files.iter().enumerate() {
        let path = dir.join(file);
        // The first file is the limit itself; the rest (swap) are refinements some kernels lack.
        match fs::write(&path, value) {
            Ok(()) => {}
            Err(e) if index == 0 => {
                let _ = fs::remove_dir(dir);
                return Err(format!("write {}: {e}", path.display()));
            }
            Err(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mountinfo_lines() {
        let info = "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n\
                    41 31 0:38 /sub /sys/fs/cgroup/uni\\040fied rw - cgroup2 cgroup2 rw\n\
                    garbage line\n";
        let m = mounts(info);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].fstype, "cgroup");
        assert!(m[0].super_opts.iter().any(|o| o == "pids"));
        assert_eq!(m[1].point, PathBuf::from("/sys/fs/cgroup/uni fied"));
        assert_eq!(
            own_dir(&m[1], "/sub/x"),
            PathBuf::from("/sys/fs/cgroup/uni fied/x")
        );
        assert_eq!(own_dir(&m[0], "/"), PathBuf::from("/sys/fs/cgroup/pids"));
    }

    #[test]
    fn unescape_handles_truncated_escapes() {
        assert_eq!(unescape("a\\040b"), "a b");
        assert_eq!(unescape("a\\04"), "a\\04");
        assert_eq!(unescape("\\"), "\\");
    }
}
