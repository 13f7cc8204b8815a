//! The Slurm engine: a batch as a job array whose tasks each run a shard
//! (`sbatch --array=0-(S-1)%P`); `baton batch run --engine slurm` submits it, follows it with
//! `scontrol` (or `sacct` where accounting keeps what the controller has let go), and
//! resubmits the indexes worth another try (exit [`super::EXIT_RETRY`], killed by a signal,
//! ended by Slurm), up to a retry budget. The nodes need `baton` and the batch root (manifest, plans, workspaces) at the same
//! paths, on a shared filesystem.

use std::process::Command;
use std::time::Duration;

use super::{Submission, EXIT_RETRY};

/// The `sbatch` command for these array indexes.
pub fn sbatch(submission: &Submission<'_>, indexes: &[usize], parallel: usize) -> Command {
    let list: Vec<String> = indexes.iter().map(usize::to_string).collect();
    let mut command = Command::new("sbatch");
    command
        .arg("--parsable")
        .arg(format!("--array={}%{}", list.join(","), parallel.max(1)))
        .arg(format!(
            "--output={}/slurm/%A_%a.out",
            submission.root.display()
        ))
        .arg("--job-name=baton-batch")
        .arg(format!(
            "--wrap=exec '{}' batch shard '{}' --out '{}' --index \"$SLURM_ARRAY_TASK_ID\" --shards {} --jobs {} --quiet",
            submission.exe.display(),
            submission.manifest.display(),
            submission.root.display(),
            submission.shards,
            submission.jobs,
        ));
    command
}

/// One array task as Slurm reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub index: usize,
    pub state: String,
    pub exit: Option<i32>,
    /// The signal that ended it (the part after `:` of Slurm's `ExitCode`), 0 for none.
    pub signal: i32,
}

impl Task {
    fn finished(&self) -> bool {
        !matches!(
            self.state.as_str(),
            "PENDING"
                | "RUNNING"
                | "REQUEUED"
                | "RESIZING"
                | "SUSPENDED"
                | "CONFIGURING"
                | "COMPLETING"
        )
    }

    fn succeeded(&self) -> bool {
        self.state == "COMPLETED" && self.exit == Some(0)
    }

    /// Worth another try: the retry code, a task killed by a signal (a node lost, a task
    /// killed), or ended by Slurm itself (cancelled, preempted, out of time or memory, a node
    /// failure). A plain failure with another code is for good.
    fn retry(&self) -> bool {
        self.exit == Some(i32::from(EXIT_RETRY)) || self.signal != 0 || self.state != "FAILED"
    }
}

/// Slurm's `ExitCode` field, `status:signal`.
fn exit_code(text: &str) -> (Option<i32>, i32) {
    let (status, signal) = text.split_once(':').unwrap_or((text, "0"));
    (status.parse().ok(), signal.parse().unwrap_or(0))
}

/// The array tasks from `sacct -n -P --format=JobID,State,ExitCode` (job steps left out).
pub fn parse_sacct(text: &str) -> Vec<Task> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split('|');
            let id = fields.next()?;
            let state = fields.next()?.split_whitespace().next()?.to_string();
            let (exit, signal) = exit_code(fields.next()?);
            // Array tasks are JOBID_INDEX; job steps (JOBID_INDEX.batch) are left out.
            let (_, index) = id.split_once('_')?;
            if index.contains('.') || index.starts_with('[') {
                return None;
            }
            Some(Task {
                index: index.parse().ok()?,
                state,
                exit,
                signal,
            })
        })
        .collect()
}

/// The array tasks from `scontrol -o show job JOBID` (one line per task; works without
/// Slurm's accounting, for as long as the controller keeps finished jobs: `MinJobAge`).
/// Tasks not yet started are one line with a range (`ArrayTaskId=3-5`): each index pending.
pub fn parse_scontrol(text: &str) -> Vec<Task> {
    let mut tasks = Vec::new();
    for line in text.lines() {
        let field = |name: &str| {
            line.split_whitespace()
                .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
        };
        let (Some(ids), Some(state)) = (field("ArrayTaskId"), field("JobState")) else {
            continue;
        };
        let (exit, signal) = exit_code(field("ExitCode").unwrap_or("0:0"));
        // `3-5%2` or `3,7` for the tasks still pending.
        let ids = ids.split('%').next().unwrap_or(ids);
        for part in ids.split(',') {
            let range = match part.split_once('-') {
                Some((a, b)) => match (a.parse::<usize>(), b.parse::<usize>()) {
                    (Ok(a), Ok(b)) => a..=b,
                    _ => continue,
                },
                None => match part.parse::<usize>() {
                    Ok(i) => i..=i,
                    Err(_) => continue,
                },
            };
            for index in range {
                tasks.push(Task {
                    index,
                    state: state.to_string(),
                    exit,
                    signal,
                });
            }
        }
    }
    tasks
}

/// The array's tasks: from `scontrol`, else (a job the controller no longer keeps) `sacct`.
fn tasks_of(job: &str) -> std::io::Result<Vec<Task>> {
    let output = Command::new("scontrol")
        .args(["-o", "show", "job", job])
        .output();
    if let Ok(output) = output {
        let tasks = parse_scontrol(&String::from_utf8_lossy(&output.stdout));
        if output.status.success() && !tasks.is_empty() {
            return Ok(tasks);
        }
    }
    let output = Command::new("sacct")
        .args(["-j", job, "-n", "-P", "--format=JobID,State,ExitCode"])
        .output()?;
    Ok(parse_sacct(&String::from_utf8_lossy(&output.stdout)))
}

/// Submits the shards and waits; returns the indexes that failed for good.
pub fn run(
    submission: &Submission<'_>,
    parallel: usize,
    retries: usize,
    echo: &dyn Fn(&str),
) -> std::io::Result<Vec<usize>> {
    let (root, shards) = (submission.root, submission.shards);
    std::fs::create_dir_all(root.join("slurm"))?;
    let mut pending: Vec<usize> = (0..shards).collect();
    let mut failed = Vec::new();
    for round in 0..=retries {
        if pending.is_empty() {
            break;
        }
        let output = sbatch(submission, &pending, parallel).output()?;
        if !output.status.success() {
            return Err(std::io::Error::other(format!(
                "sbatch failed: {}",
                String::from_utf8_lossy(&output.stderr)
            )));
        }
        let job = String::from_utf8_lossy(&output.stdout)
            .trim()
            .split(';')
            .next()
            .unwrap_or_default()
            .to_string();
        echo(&format!(
            "submitted job array {job} ({} shards)",
            pending.len()
        ));
        let tasks = loop {
            std::thread::sleep(Duration::from_secs(1));
            let tasks = tasks_of(&job)?;
            if tasks.len() >= pending.len() && tasks.iter().all(Task::finished) {
                break tasks;
            }
        };
        let mut retry = Vec::new();
        for task in tasks {
            if task.succeeded() {
                continue;
            }
            if task.retry() {
                retry.push(task.index);
            } else {
                failed.push(task.index);
            }
        }
        if !retry.is_empty() && round < retries {
            echo(&format!("resubmitting shards {retry:?}"));
        } else {
            failed.extend(&retry);
            retry.clear();
        }
        pending = retry;
    }
    failed.sort_unstable();
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_states_are_read_from_scontrol_and_sacct() {
        let scontrol =
            "JobId=3 ArrayJobId=1 ArrayTaskId=1 JobName=b JobState=FAILED Reason=x ExitCode=75:0\n\
                        JobId=1 ArrayJobId=1 ArrayTaskId=4-5%2 JobState=PENDING ExitCode=0:0\n\
                        JobId=2 ArrayJobId=1 ArrayTaskId=0 JobState=FAILED ExitCode=0:9\n";
        let tasks = parse_scontrol(scontrol);
        let indexes: Vec<usize> = tasks.iter().map(|t| t.index).collect();
        assert_eq!(indexes, [1, 4, 5, 0]);
        assert!(
            tasks[0].retry() && tasks[3].retry(),
            "75 and a signal are retried"
        );
        assert!(!tasks[1].finished());
        let sacct = "7_0|COMPLETED|0:0\n7_0.batch|COMPLETED|0:0\n7_1|FAILED|1:0\n";
        let tasks = parse_sacct(sacct);
        assert_eq!(tasks.len(), 2);
        assert!(tasks[0].succeeded());
        assert!(!tasks[1].retry(), "a plain failure is for good");
    }
}
