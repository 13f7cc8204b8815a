//! The local engine: a batch's shards as processes on this machine, at most `parallel` at
//! once, each retried when it exits with [`super::EXIT_RETRY`] or is killed by a signal.

use std::collections::VecDeque;
use std::process::{Child, Command};
use std::time::Duration;

use super::{Submission, EXIT_RETRY};

/// How a local batch went: shards that finished, and those that gave up (index, exit code).
#[derive(Debug, Default)]
pub struct LocalReport {
    pub finished: usize,
    pub failed: Vec<(usize, Option<i32>)>,
}

/// The shard command for `index`: `baton batch shard MANIFEST --out ROOT --index I --shards N`.
pub fn shard_command(submission: &Submission<'_>, index: usize) -> Command {
    let mut command = Command::new(submission.exe);
    command
        .args(["batch", "shard"])
        .arg(submission.manifest)
        .arg("--out")
        .arg(submission.root)
        .args(["--index", &index.to_string()])
        .args(["--shards", &submission.shards.to_string()])
        .args(["--jobs", &submission.jobs.to_string(), "--quiet"]);
    // A shard dies with the batch that started it: killing `baton batch run` leaves no shard
    // holding claims (the next `batch run` resumes their runs).
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt as _;
        // SAFETY: prctl with constant arguments, between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
                Ok(())
            });
        }
    }
    command
}

/// Runs every shard, `parallel` at once, each up to `retries` more times after a retry exit.
pub fn run(
    submission: &Submission<'_>,
    parallel: usize,
    retries: usize,
    echo: &dyn Fn(&str),
) -> std::io::Result<LocalReport> {
    let shards = submission.shards;
    let mut waiting: VecDeque<(usize, usize)> = (0..shards).map(|i| (i, 0)).collect();
    let mut running: Vec<(usize, usize, Child)> = Vec::new();
    let mut report = LocalReport::default();
    while !waiting.is_empty() || !running.is_empty() {
        while running.len() < parallel.max(1) {
            let Some((index, tries)) = waiting.pop_front() else {
                break;
            };
            let child = shard_command(submission, index).spawn()?;
            running.push((index, tries, child));
        }
        let mut still = Vec::new();
        for (index, tries, mut child) in running {
            match child.try_wait()? {
                None => still.push((index, tries, child)),
                Some(status) if status.success() => report.finished += 1,
                // The retry code, or killed by a signal (the machine under pressure, an
                // operator): its runs resume from their journals.
                Some(status)
                    if (status.code() == Some(i32::from(EXIT_RETRY))
                        || status.code().is_none())
                        && tries < retries =>
                {
                    echo(&format!(
                        "shard {index}: some runs need a retry ({})",
                        tries + 1
                    ));
                    waiting.push_back((index, tries + 1));
                }
                Some(status) => {
                    echo(&format!("shard {index}: gave up ({status})"));
                    report.failed.push((index, status.code()));
                }
            }
        }
        running = still;
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(report)
}
