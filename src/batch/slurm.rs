//! The Slurm engine: a batch as a job array whose tasks each run a shard
//! (`sbatch --array=0-(S-1)%P`); `baton batch run --engine slurm` submits it, waits for it with
//! `sacct`, and resubmits the indexes that exited with [`super::EXIT_RETRY`], up to a retry
//! budget. The nodes need `baton` and the batch root (manifest, plans, workspaces) at the same
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

/// The array tasks' states and exit codes from `sacct -P` output: (index, state, exit code).
pub fn parse_sacct(text: &str) -> Vec<(usize, String, Option<i32>)> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split('|');
            let id = fields.next()?;
            let state = fields.next()?.split_whitespace().next()?.to_string();
            let exit = fields.next()?.split(':').next()?.parse().ok();
            // Array tasks are JOBID_INDEX; job steps (JOBID_INDEX.batch) are left out.
            let (_, index) = id.split_once('_')?;
            if index.contains('.') || index.starts_with('[') {
                return None;
            }
            Some((index.parse().ok()?, state, exit))
        })
        .collect()
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
            let output = Command::new("sacct")
                .args(["-j", &job, "-n", "-P", "--format=JobID,State,ExitCode"])
                .output()?;
            let tasks = parse_sacct(&String::from_utf8_lossy(&output.stdout));
            let finished = |state: &str| {
                !matches!(
                    state,
                    "PENDING" | "RUNNING" | "REQUEUED" | "RESIZING" | "SUSPENDED"
                )
            };
            if tasks.len() >= pending.len() && tasks.iter().all(|(_, state, _)| finished(state)) {
                break tasks;
            }
        };
        let mut retry = Vec::new();
        for (index, state, exit) in tasks {
            if state == "COMPLETED" && exit == Some(0) {
                continue;
            }
            if exit == Some(i32::from(EXIT_RETRY)) || state != "FAILED" {
                retry.push(index);
            } else {
                failed.push(index);
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
