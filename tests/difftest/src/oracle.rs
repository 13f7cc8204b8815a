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

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

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

/// A CPython process running [`WORKER`].
pub struct Worker {
    python: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// A request was sent and its reply not read yet.
    pending: bool,
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
        Ok(Worker {
            python: python.to_string(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            pending: false,
        })
    }

    /// Sends a plan without waiting: CPython runs it while the caller runs Baton.
    pub fn submit(&mut self, source: &str, timeout_secs: f64) -> Result<(), OracleError> {
        let request = json!({ "src": source, "timeout": timeout_secs });
        let mut line = request.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.flush()?;
        self.pending = true;
        Ok(())
    }

    /// Reads the reply to the last [`Worker::submit`].
    pub fn collect(&mut self) -> Result<Outcome, OracleError> {
        let mut line = String::new();
        let read = self.stdout.read_line(&mut line);
        self.pending = false;
        if read? == 0 {
            return Err(OracleError::Exited);
        }
        parse_reply(&line)
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
        self.pending
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
}
