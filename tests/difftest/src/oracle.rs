//! The oracle: one long-lived CPython 3.11 process per thread that runs plans one after
//! another (starting a process per plan would cost more than running the plan).
//!
//! Batching must not change semantics, so the worker (`worker.py`) runs each plan like
//! `python3 -s -P plan.py` would: compiled as a module named `__main__` in a fresh namespace,
//! `print` going to a fresh buffer, the recursion limit reset (one more than the default, for the
//! worker's own frame), the final exception rendered by `traceback.format_exception_only` (the
//! last line CPython writes to stderr). The process environment is the conformance suite's
//! hermetic one (tests/conformance/regen.py): `PYTHONHASHSEED=0`, UTF-8, nothing inherited.
//!
//! Protocol: one JSON object per line each way. A request is `{"src": ..., "timeout": s}`; a
//! reply is `{"out": ..., "status": "ok"|"raised"|"syntax"|"timeout", "exc": line|null}`.
//!
//! The worker's own alarm ends a plan at its timeout, but only between bytecodes: a plan stuck
//! in one long C call (`9 ** 9 ** 9`: minutes of multiplication) never sees it. So the oracle
//! waits for a reply until a deadline past the timeout, then replaces the worker and counts the
//! plan as a CPython limit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::outcome::{Ending, Outcome};

/// The worker script run by `python3 -c`.
pub const WORKER: &str = include_str!("worker.py");

/// Why the oracle could not run a plan.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    #[error("cannot start `{python}`: {error}")]
    Spawn {
        python: String,
        error: std::io::Error,
    },
    #[error("`{python}` is Python {found}, the oracle must be CPython 3.11")]
    WrongVersion { python: String, found: String },
    #[error("the CPython worker failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the CPython worker sent a malformed reply ({error}): {line:?}")]
    Reply { error: String, line: String },
    #[error("the CPython worker exited")]
    Exited,
}

/// How long past a plan's timeout the oracle waits for the worker's reply.
const REPLY_GRACE: Duration = Duration::from_secs(5);

/// A CPython process running [`WORKER`].
pub struct Worker {
    python: String,
    child: Child,
    stdin: ChildStdin,
    /// The worker's reply lines, read by a thread of their own so that waiting has a deadline
    /// (an empty line: the worker exited).
    replies: Receiver<std::io::Result<String>>,
    /// A request was sent and its reply not read yet: until when to wait for it.
    pending: Option<Instant>,
}

/// The hermetic environment of the conformance suite.
fn command(python: &str) -> Command {
    let mut command = Command::new(python);
    command
        .env_clear()
        .env("PYTHONHASHSEED", "0")
        .env("PYTHONUTF8", "1")
        .env("PYTHONIOENCODING", "utf-8")
        .env("LC_ALL", "C.UTF-8")
        .env("PATH", "/usr/bin:/bin");
    command
}

/// Checks that `python` is CPython 3.11.
pub fn check_version(python: &str) -> Result<(), OracleError> {
    let output = command(python)
        .args([
            "-s",
            "-P",
            "-c",
            "import sys; print('%d.%d' % sys.version_info[:2])",
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|error| OracleError::Spawn {
            python: python.to_string(),
            error,
        })?;
    let found = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if found != "3.11" {
        return Err(OracleError::WrongVersion {
            python: python.to_string(),
            found,
        });
    }
    Ok(())
}

impl Worker {
    /// Starts a worker running `python` (e.g. `python3`).
    pub fn start(python: &str) -> Result<Self, OracleError> {
        let mut child = command(python)
            .args(["-s", "-P", "-c", WORKER])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| OracleError::Spawn {
                python: python.to_string(),
                error,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(OracleError::Exited);
        };
        let (send, replies) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                let read = stdout.read_line(&mut line);
                let done = !matches!(read, Ok(n) if n > 0);
                if send.send(read.map(|_| line)).is_err() || done {
                    break;
                }
            }
        });
        Ok(Worker {
            python: python.to_string(),
            child,
            stdin,
            replies,
            pending: None,
        })
    }

    /// Sends a plan without waiting: CPython runs it while the caller runs Baton.
    pub fn submit(&mut self, source: &str, timeout_secs: f64) -> Result<(), OracleError> {
        let request = json!({ "src": source, "timeout": timeout_secs });
        let mut line = request.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.flush()?;
        let timeout = Duration::try_from_secs_f64(timeout_secs).unwrap_or(Duration::ZERO);
        self.pending = Some(Instant::now() + timeout + REPLY_GRACE);
        Ok(())
    }

    /// Reads the reply to the last [`Worker::submit`]. A worker that does not answer by the
    /// deadline is replaced, and the plan is a CPython limit.
    pub fn collect(&mut self) -> Result<Outcome, OracleError> {
        let deadline = self.pending.take().unwrap_or_else(Instant::now);
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.replies.recv_timeout(wait) {
            Ok(Ok(line)) if line.is_empty() => Err(OracleError::Exited),
            Ok(Ok(line)) => parse_reply(&line),
            Ok(Err(error)) => Err(OracleError::Io(error)),
            Err(RecvTimeoutError::Disconnected) => Err(OracleError::Exited),
            Err(RecvTimeoutError::Timeout) => {
                self.restart();
                Ok(Outcome {
                    stdout: String::new(),
                    ending: Ending::Limit(format!(
                        "CPython did not answer {}s past its timeout (a long C call)",
                        REPLY_GRACE.as_secs()
                    )),
                })
            }
        }
    }

    /// Runs one plan and waits for its outcome. A worker that died (killed by memory
    /// exhaustion, say) is restarted, and the plan counts as a crash of the oracle.
    pub fn run(&mut self, source: &str, timeout_secs: f64) -> Outcome {
        let result = self
            .submit(source, timeout_secs)
            .and_then(|()| self.collect());
        match result {
            Ok(outcome) => outcome,
            Err(error) => {
                self.restart();
                Outcome {
                    stdout: String::new(),
                    ending: Ending::Crash(error.to_string()),
                }
            }
        }
    }

    /// Replaces the process with a fresh one (after a failure).
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Ok(fresh) = Worker::start(&self.python) {
            *self = fresh;
        }
    }

    /// True while a submitted plan's reply is unread.
    pub fn pending(&self) -> bool {
        self.pending.is_some()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_reply(line: &str) -> Result<Outcome, OracleError> {
    let malformed = |error: &str| OracleError::Reply {
        error: error.to_string(),
        line: line.chars().take(200).collect(),
    };
    let value: Value = serde_json::from_str(line).map_err(|e| malformed(&e.to_string()))?;
    let stdout = value["out"]
        .as_str()
        .ok_or_else(|| malformed("no `out`"))?
        .to_string();
    let exc = value["exc"].as_str().unwrap_or("").to_string();
    let ending = match value["status"].as_str() {
        Some("ok") => Ending::Success,
        Some("raised") => Ending::Raised(exc),
        Some("syntax") => Ending::SyntaxError(exc),
        Some("timeout") => Ending::Limit("CPython timed out".to_string()),
        _ => return Err(malformed("unknown `status`")),
    };
    Ok(Outcome { stdout, ending })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_parse() {
        let o =
            parse_reply(r#"{"out": "1\n", "status": "raised", "exc": "KeyError: 'a'"}"#).unwrap();
        assert_eq!(o.stdout, "1\n");
        assert_eq!(o.ending, Ending::Raised("KeyError: 'a'".into()));
        assert!(parse_reply("{}").is_err());
        assert!(parse_reply(r#"{"out": "", "status": "what"}"#).is_err());
        assert!(parse_reply("not json").is_err());
    }

    /// A plan the worker's alarm cannot end (here it blocks the alarm; `9 ** 9 ** 9` does it by
    /// staying in C) is a CPython limit once the deadline passes, and the next plan runs on a
    /// fresh worker.
    #[test]
    fn a_worker_stuck_past_its_deadline_is_replaced() {
        let python = "python3";
        check_version(python).expect("python3 must be CPython 3.11: it is the oracle");
        let mut worker = Worker::start(python).expect("start the CPython worker");
        let stuck = "import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\nwhile True:\n    pass\n";
        let outcome = worker.run(stuck, 0.1);
        assert!(
            matches!(&outcome.ending, Ending::Limit(what) if what.contains("did not answer")),
            "{outcome:?}"
        );
        assert!(!worker.pending());
        let next = worker.run("print(6 * 7)", 5.0);
        assert_eq!(
            (next.stdout.as_str(), &next.ending),
            ("42\n", &Ending::Success)
        );
    }
}
