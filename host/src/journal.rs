//! The journal: every `bash`, `llm` and `branch` call of a run, its request before the call and
//! its result after, in `RUN_DIR/journal.jsonl` (DESIGN.md, "Journal").
//!
//! # Format
//! One JSON object per line, appended. The first line says which format the file is in:
//! `{"t": "journal", "version": 2}`; a journal of another version (or, version 1, none) is
//! refused with a message that says so. Then:
//! - `{"t": "call", "path": "3.0", "seq": 5, "call": "bash", "request": {...}, "at": secs}`
//!   before the call is made;
//! - `{"t": "done", "path": "3.0", "seq": 5, "result": {"ok": ...} | {"error": {...}},
//!   "seconds": secs, "at": secs}` after it returned.
//!
//! `path` is the instance's name ([`BranchId`]: `""` for the run itself, `"3.0"` for the first
//! branch of the run's call #3, `"3.0/5.1"` below it); `seq` counts that instance's journaled
//! calls from 0. A plan is deterministic given its calls' results (DESIGN.md, rule 5), so an
//! instance's n-th call is the same call on every run, and a branch's name (which includes the
//! parent's call that started it) is the same branch: that is what makes (path, seq) a key.
//! Version 1 named a branch by its index alone, so every `branch` call of an instance reused the
//! names of the first.
//!
//! # Durability
//! Each line is written with one `write(2)` on a file opened for appending, as soon as it is
//! known: a process crash (SIGKILL included) loses nothing already written. The file is
//! `fsync`ed at most once a second and when the run ends, so a machine crash can lose the last
//! second of lines. A torn last line (a crash mid-write) is ignored when the journal is read.
//!
//! # Replaying
//! [`JournaledCalls`] wraps a run's [`HostCalls`]. With a recorded journal (`--resume`, `baton
//! replay`) a call whose (path, seq) has a recorded result gets that result without running
//! anything; a call recorded without a result (cut by the crash) runs again — for a
//! non-idempotent command that means twice; a call with no record runs live, or, in replay-only
//! mode, stops the run. A call whose kind or request differs from the record (the plan or its
//! inputs changed) stops the run with a divergence error naming the call, its branch and the
//! plan line.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::branch_id::BranchId;
use crate::calls::{
    encode_reply, BoxFuture, BranchEnv, Call, CallError, CallKind, CallResult, Fork, ForkSpec,
    HostCalls, HostException, PlanError, SharedCalls,
};
use crate::sync::lock;

/// The journal's file name in a run directory.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The format this build writes and reads (the first line of every journal).
pub const JOURNAL_VERSION: u64 = 2;

/// The append-only journal file of a run.
pub struct Journal {
    file: Mutex<File>,
    path: PathBuf,
    started: Instant,
    last_sync: Mutex<Instant>,
    /// The first write error; later lines are not written (the run goes on: losing the journal
    /// must not lose the run).
    failed: Mutex<Option<String>>,
}

impl Journal {
    /// Opens (creating if needed) `path` for appending. A new or empty file gets the format
    /// line first; an existing journal is appended to as it is (read it with
    /// [`Recorded::read`] first, which refuses another format).
    pub fn open(path: &Path) -> io::Result<Journal> {
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        // A run killed mid-write left a torn last line, which reading ignores; cut it, or the
        // resumed run's first line would be appended to it and the journal would have a bad
        // line in its middle.
        let len = file.metadata()?.len();
        if len > 0 {
            let complete = complete_lines_len(path)?;
            if complete < len {
                file.set_len(complete)?;
            }
        }
        if file.metadata()?.len() == 0 {
            let mut line = json!({"t": "journal", "version": JOURNAL_VERSION}).to_string();
            line.push('\n');
            file.write_all(line.as_bytes())?;
        }
        Ok(Journal {
            file: Mutex::new(file),
            path: path.to_path_buf(),
            started: Instant::now(),
            last_sync: Mutex::new(Instant::now()),
            failed: Mutex::new(None),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why writing stopped, if it did.
    pub fn error(&self) -> Option<String> {
        lock(&self.failed).clone()
    }

    fn write(&self, mut entry: Value) {
        if lock(&self.failed).is_some() {
            return;
        }
        entry["at"] = json!(self.started.elapsed().as_secs_f64());
        let mut line = serde_json::to_vec(&entry).unwrap_or_default();
        line.push(b'\n');
        let mut file = lock(&self.file);
        let mut result = file.write_all(&line);
        let mut last_sync = lock(&self.last_sync);
        if result.is_ok() && last_sync.elapsed() >= Duration::from_secs(1) {
            result = file.sync_data();
            *last_sync = Instant::now();
        }
        if let Err(error) = result {
            *lock(&self.failed) = Some(format!("cannot write {}: {error}", self.path.display()));
        }
    }

    /// Flushes to disk (at the end of a run).
    pub fn sync(&self) {
        let _ = lock(&self.file).sync_data();
    }
}

/// The length of `path`'s complete lines: up to and including its last newline.
fn complete_lines_len(path: &Path) -> io::Result<u64> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |at| at as u64 + 1))
}

/// One recorded call.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedCall {
    pub call: String,
    pub request: Value,
    /// The reply as the runtime received it (`{"ok": ...}` or `{"error": ...}`), when the call
    /// returned before the journal ended.
    pub result: Option<Value>,
    /// Seconds into the recording run when the call was made, and how long it took.
    pub at: f64,
    pub seconds: Option<f64>,
}

/// A journal as read back: calls by (instance name, seq), in the order they were written.
#[derive(Debug, Default, Clone)]
pub struct Recorded {
    calls: HashMap<(String, u64), RecordedCall>,
    order: Vec<(String, u64)>,
}

impl Recorded {
    /// Reads `path`. A journal of another format version is an error that says so; lines that
    /// are not journal entries are an error naming the line, except a torn last line (a crash
    /// mid-write), which is ignored. An empty file is an empty journal.
    pub fn read(path: &Path) -> Result<Recorded, String> {
        let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let lines: Vec<String> = io::BufReader::new(file)
            .lines()
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut recorded = Recorded::default();
        let count = lines.len();
        for (number, line) in lines.iter().enumerate() {
            let entry: Value = match serde_json::from_str(line) {
                Ok(entry) => entry,
                Err(_) if number + 1 == count => break,
                Err(error) => {
                    return Err(format!(
                        "{}:{}: not a journal entry: {error}",
                        path.display(),
                        number + 1
                    ))
                }
            };
            if number == 0 {
                let version = match entry["t"].as_str() {
                    Some("journal") => entry["version"].as_u64(),
                    // Version 1 had no format line: it started with its first call.
                    Some("call") => Some(1),
                    _ => None,
                };
                match version {
                    Some(JOURNAL_VERSION) => continue,
                    Some(version) => {
                        return Err(format!(
                            "{} is a journal of format version {version}, and this baton reads \
                             version {JOURNAL_VERSION} only (version {version} named branches \
                             differently); it cannot be resumed or replayed by this build",
                            path.display()
                        ))
                    }
                    None => {
                        return Err(format!(
                            "{}:1: not a journal (its first line is not \
                             {{\"t\": \"journal\", \"version\": N}})",
                            path.display()
                        ))
                    }
                }
            }
            let key = (
                entry["path"].as_str().unwrap_or_default().to_string(),
                entry["seq"].as_u64().unwrap_or(u64::MAX),
            );
            match entry["t"].as_str() {
                Some("call") => {
                    recorded.order.push(key.clone());
                    recorded.calls.insert(
                        key,
                        RecordedCall {
                            call: entry["call"].as_str().unwrap_or_default().to_string(),
                            request: entry["request"].clone(),
                            result: None,
                            at: entry["at"].as_f64().unwrap_or(0.0),
                            seconds: None,
                        },
                    );
                }
                Some("done") => {
                    if let Some(call) = recorded.calls.get_mut(&key) {
                        call.result = Some(entry["result"].clone());
                        call.seconds = entry["seconds"].as_f64();
                    }
                }
                _ => {
                    return Err(format!(
                        "{}:{}: not a journal entry (no \"t\")",
                        path.display(),
                        number + 1
                    ))
                }
            }
        }
        Ok(recorded)
    }

    pub fn get(&self, path: &str, seq: u64) -> Option<&RecordedCall> {
        self.calls.get(&(path.to_string(), seq))
    }

    /// Every call, in the order it was made: ((path, seq), call).
    pub fn calls(&self) -> impl Iterator<Item = (&(String, u64), &RecordedCall)> {
        self.order
            .iter()
            .filter_map(|key| Some((key, self.calls.get(key)?)))
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// What a journaled run does with calls the journal has no result for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Run them (`baton run`, `--resume`).
    RunLive,
    /// Stop with a divergence error (`baton replay`: no network, no model).
    Stop,
}

/// Counts of what a journaled run did.
#[derive(Debug, Default)]
pub struct JournalStats {
    pub replayed: AtomicU64,
    pub live: AtomicU64,
    /// Model calls answered from an earlier run's journal ([`EarlierAnswers`]).
    pub reused: AtomicU64,
}

/// Model answers of earlier runs that a new run may reuse (`baton plan --replan`: a new
/// revision of a plan that failed). Each earlier `llm` call that succeeded is kept by its
/// request without the plan line it came from (`line`, `file`), since a new revision asks from
/// other lines. A call of the new run that makes exactly such a request gets that answer
/// instead of a new, paid call — once per earlier call, in the order they were made — and the
/// new run's journal records it as its own, so its resume and replay stay exact. Commands are
/// never reused: they change the workspace, and the new run works on a fresh copy.
#[derive(Debug, Default)]
pub struct EarlierAnswers {
    answers: Mutex<HashMap<String, std::collections::VecDeque<Value>>>,
}

impl EarlierAnswers {
    /// The answers of the runs that wrote these journals.
    pub fn from_journals(paths: &[PathBuf]) -> Result<EarlierAnswers, String> {
        let earlier = EarlierAnswers::default();
        {
            let mut answers = lock(&earlier.answers);
            for path in paths {
                for (_, call) in Recorded::read(path)?.calls() {
                    let ok = call.result.as_ref().filter(|r| r.get("ok").is_some());
                    if let (CallKind::Llm, Some(result)) = (kind_of(&call.call), ok) {
                        answers
                            .entry(Self::key(&call.request))
                            .or_default()
                            .push_back(result.clone());
                    }
                }
            }
        }
        Ok(earlier)
    }

    fn key(request: &Value) -> String {
        let mut request = request.clone();
        if let Some(map) = request.as_object_mut() {
            map.remove("line");
            map.remove("file");
        }
        request.to_string()
    }

    /// The next earlier answer to `request`, if one is left. A run with no earlier answers
    /// (every run but a replanned one) pays only a lock: no key is built.
    fn take(&self, request: &Value) -> Option<Value> {
        let mut answers = lock(&self.answers);
        if answers.is_empty() {
            return None;
        }
        answers
            .get_mut(&Self::key(request))
            .and_then(|queue| queue.pop_front())
    }
}

/// The call kind a journal names (only `llm` matters to [`EarlierAnswers`]).
fn kind_of(name: &str) -> CallKind {
    match name {
        "llm" => CallKind::Llm,
        "branch" => CallKind::Branch,
        _ => CallKind::Bash,
    }
}

/// [`HostCalls`] that journal every `bash`, `llm` and `branch` call and replay recorded ones
/// (see the module documentation).
pub struct JournaledCalls {
    inner: SharedCalls,
    /// Where new calls are recorded (`None`: `baton replay`, which records nothing).
    journal: Option<Arc<Journal>>,
    recorded: Arc<Recorded>,
    missing: Missing,
    /// The instance whose calls these are.
    id: BranchId,
    stats: Arc<JournalStats>,
    earlier: Arc<EarlierAnswers>,
}

impl JournaledCalls {
    /// The run's calls, journaled into `journal`, replaying `recorded`.
    pub fn new(
        inner: SharedCalls,
        journal: Option<Arc<Journal>>,
        recorded: Arc<Recorded>,
        missing: Missing,
    ) -> JournaledCalls {
        JournaledCalls {
            inner,
            journal,
            recorded,
            missing,
            id: BranchId::root(),
            stats: Arc::default(),
            earlier: Arc::default(),
        }
    }

    /// Answers model calls from earlier runs where they repeat a request ([`EarlierAnswers`]).
    pub fn with_earlier(mut self, earlier: Arc<EarlierAnswers>) -> JournaledCalls {
        self.earlier = earlier;
        self
    }

    pub fn stats(&self) -> Arc<JournalStats> {
        self.stats.clone()
    }

    fn write(&self, entry: Value) {
        if let Some(journal) = &self.journal {
            journal.write(entry);
        }
    }

    fn divergence(&self, seq: u64, kind: CallKind, request: &Value, why: &str) -> CallError {
        let branch = self.id.describe();
        // A request from a plan library module's frame carries the module's number as "file".
        let library = request.get("file").and_then(Value::as_u64).is_some();
        let line = request
            .get("line")
            .and_then(Value::as_u64)
            .map_or(String::new(), |line| match library {
                false => format!(" at plan line {line}"),
                true => format!(" at line {line} of a plan library module"),
            });
        CallError::Diverged(format!(
            "{} call #{seq} of {branch}{line} {why}",
            kind.name()
        ))
    }
}

impl HostCalls for JournaledCalls {
    fn call(&self, seq: u64, call: Call) -> BoxFuture<'_, CallResult> {
        let kind = call.kind();
        if !kind.is_journaled() {
            // Neither changes anything outside the run: not journaled, never replayed.
            return self.inner.call(seq, call);
        }
        Box::pin(async move {
            let request = call.request().clone();
            let path = self.id.to_string();
            if let Some(record) = self.recorded.get(&path, seq) {
                if record.call != kind.name() || record.request != request {
                    let why = if record.call != kind.name() {
                        format!("is not the recorded call (a {} call)", record.call)
                    } else {
                        format!(
                            "differs from the recorded request: {} (recorded: {})",
                            short(&request),
                            short(&record.request)
                        )
                    };
                    return Err(self.divergence(seq, kind, &request, &why));
                }
                if let Some(result) = &record.result {
                    self.stats.replayed.fetch_add(1, Ordering::Relaxed);
                    return decode_reply(result);
                }
            } else {
                if self.missing == Missing::Stop {
                    return Err(self.divergence(
                        seq,
                        kind,
                        &request,
                        "was not made by the recorded run (replay runs nothing live)",
                    ));
                }
                self.write(json!({
                    "t": "call", "path": path, "seq": seq, "call": kind.name(),
                    "request": request,
                }));
            }
            if self.missing == Missing::Stop {
                return Err(self.divergence(
                    seq,
                    kind,
                    &request,
                    "has no recorded result (replay runs nothing live)",
                ));
            }
            if kind == CallKind::Llm {
                if let Some(reply) = self.earlier.take(&request) {
                    self.stats.reused.fetch_add(1, Ordering::Relaxed);
                    self.write(json!({
                        "t": "done", "path": path, "seq": seq, "result": reply,
                        "seconds": 0.0, "reused": true,
                    }));
                    return decode_reply(&reply);
                }
            }
            self.stats.live.fetch_add(1, Ordering::Relaxed);
            let started = Instant::now();
            let result = self.inner.call(seq, call).await;
            if !matches!(&result, Err(CallError::Diverged(_))) {
                let reply: Value =
                    serde_json::from_slice(&encode_reply(&result)).unwrap_or(Value::Null);
                self.write(json!({
                    "t": "done", "path": path, "seq": seq, "result": reply,
                    "seconds": started.elapsed().as_secs_f64(),
                }));
            }
            result
        })
    }

    fn fork(&self, spec: ForkSpec) -> BoxFuture<'_, Result<Fork, PlanError>> {
        Box::pin(async move {
            let id = spec.id.clone();
            let mut fork = self.inner.fork(spec).await?;
            fork.calls = Arc::new(JournaledCalls {
                inner: fork.calls,
                journal: self.journal.clone(),
                recorded: self.recorded.clone(),
                missing: self.missing,
                id,
                stats: self.stats.clone(),
                earlier: self.earlier.clone(),
            });
            Ok(fork)
        })
    }

    /// Configuration, not a call: passed through.
    fn branch_env(&self) -> BranchEnv {
        self.inner.branch_env()
    }
}

/// A request for a message: at most 200 characters.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A recorded reply back as a result. A class the host does not know (a journal written by
/// another build, or edited) is replayed as RuntimeError, as the runtime would raise it.
fn decode_reply(reply: &Value) -> CallResult {
    if let Some(value) = reply.get("ok") {
        return Ok(value.clone());
    }
    let error = &reply["error"];
    let exception = error["type"]
        .as_str()
        .and_then(HostException::from_name)
        .unwrap_or(HostException::RuntimeError);
    Err(PlanError::new(exception, error["message"].as_str().unwrap_or_default()).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calls::NoCapabilities;

    /// Answers every call with the request's "command" back, counting calls.
    #[derive(Default)]
    struct Echo(AtomicU64);

    impl HostCalls for Echo {
        fn call(&self, _seq: u64, call: Call) -> BoxFuture<'_, CallResult> {
            self.0.fetch_add(1, Ordering::SeqCst);
            Box::pin(async move { Ok(call.request()["command"].clone()) })
        }
    }

    fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("baton-journal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn bash(command: &str) -> Value {
        json!({ "command": command, "line": 3 })
    }

    #[test]
    fn recorded_calls_are_replayed_and_the_rest_run_live() {
        let dir = scratch("replay");
        let path = dir.join(JOURNAL_FILE);
        let echo = Arc::new(Echo::default());
        let journal = Arc::new(Journal::open(&path).unwrap());
        let calls = JournaledCalls::new(
            echo.clone(),
            Some(journal),
            Arc::default(),
            Missing::RunLive,
        );
        assert_eq!(
            block_on(calls.call(0, Call::Bash(bash("a")))),
            Ok(json!("a"))
        );
        assert_eq!(
            block_on(calls.call(1, Call::Bash(bash("b")))),
            Ok(json!("b"))
        );
        assert_eq!(echo.0.load(Ordering::SeqCst), 2);

        // A crash cut the journal after the second call's request (the format line first).
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().take(4).collect();
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
        let recorded = Arc::new(Recorded::read(&path).unwrap());
        assert_eq!(recorded.len(), 2);
        assert_eq!(recorded.get("", 1).unwrap().result, None);

        let echo = Arc::new(Echo::default());
        let journal = Arc::new(Journal::open(&path).unwrap());
        let calls = JournaledCalls::new(echo.clone(), Some(journal), recorded, Missing::RunLive);
        assert_eq!(
            block_on(calls.call(0, Call::Bash(bash("a")))),
            Ok(json!("a"))
        );
        assert_eq!(
            echo.0.load(Ordering::SeqCst),
            0,
            "the recorded result is replayed"
        );
        assert_eq!(
            block_on(calls.call(1, Call::Bash(bash("b")))),
            Ok(json!("b"))
        );
        assert_eq!(
            block_on(calls.call(2, Call::Bash(bash("c")))),
            Ok(json!("c"))
        );
        assert_eq!(
            echo.0.load(Ordering::SeqCst),
            2,
            "the cut call and the new one run"
        );
        assert_eq!(calls.stats().replayed.load(Ordering::SeqCst), 1);
        // The journal now has every call with its result, the cut one written once.
        let recorded = Recorded::read(&path).unwrap();
        assert_eq!(recorded.len(), 3);
        assert!(recorded.calls().all(|(_, call)| call.result.is_some()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn divergence_names_the_call_the_branch_and_the_line() {
        let dir = scratch("diverge");
        let path = dir.join(JOURNAL_FILE);
        let journal = Arc::new(Journal::open(&path).unwrap());
        let calls = JournaledCalls::new(
            Arc::new(Echo::default()),
            Some(journal),
            Arc::default(),
            Missing::RunLive,
        );
        block_on(calls.call(0, Call::Bash(bash("a")))).unwrap();
        let recorded = Arc::new(Recorded::read(&path).unwrap());

        let replay = |missing| {
            JournaledCalls::new(Arc::new(NoCapabilities), None, recorded.clone(), missing)
        };
        let error =
            block_on(replay(Missing::RunLive).call(0, Call::Bash(bash("other")))).unwrap_err();
        let diverged = |error: CallError| match error {
            CallError::Diverged(message) => message,
            other => panic!("expected a divergence, got {other:?}"),
        };
        let message = diverged(error);
        assert!(
            message.starts_with("bash call #0 of the run at plan line 3 differs"),
            "{message}"
        );
        let error = block_on(replay(Missing::RunLive).call(0, Call::Llm(bash("a")))).unwrap_err();
        let message = diverged(error);
        assert!(
            message.contains("is not the recorded call (a bash call)"),
            "{message}"
        );
        // Replay-only: a call past the journal's end is a divergence, not a live call.
        let only = replay(Missing::Stop);
        block_on(only.call(0, Call::Bash(bash("a")))).unwrap();
        let error = block_on(only.call(1, Call::Bash(bash("b")))).unwrap_err();
        let message = diverged(error);
        assert!(
            message.contains("was not made by the recorded run"),
            "{message}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_torn_last_line_is_ignored_but_a_bad_line_before_it_is_not() {
        let dir = scratch("torn");
        let path = dir.join(JOURNAL_FILE);
        let head = r#"{"t":"journal","version":2}"#;
        let call = r#"{"t":"call","path":"","seq":0,"call":"bash","request":{},"at":0}"#;
        std::fs::write(&path, format!("{head}\n{call}\n{{\"t\":\"done\",\"pa")).unwrap();
        let recorded = Recorded::read(&path).unwrap();
        assert_eq!(recorded.len(), 1);
        assert_eq!(recorded.get("", 0).unwrap().result, None);
        std::fs::write(&path, format!("{head}\ngarbage\n{call}\n")).unwrap();
        let error = Recorded::read(&path).unwrap_err();
        assert!(
            error.ends_with(":2: not a journal entry: expected value at line 1 column 1"),
            "{error}"
        );
        std::fs::write(&path, format!("{head}\n{{\"x\": 1}}\n{{}}\n")).unwrap();
        assert!(Recorded::read(&path)
            .unwrap_err()
            .contains(":2: not a journal entry (no \"t\")"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// CI finding (crash_resume under load): a run killed mid-write left a torn last line, the
    /// resumed run appended to it, and the replay found a bad line in the journal's middle.
    #[test]
    fn a_resumed_journal_cuts_the_torn_line_it_appends_after() {
        let dir = scratch("torn-append");
        let path = dir.join(JOURNAL_FILE);
        let head = r#"{"t":"journal","version":2}"#;
        let call = r#"{"t":"call","path":"","seq":0,"call":"bash","request":{},"at":0}"#;
        std::fs::write(&path, format!("{head}\n{call}\n{{\"t\":\"done\",\"pa")).unwrap();
        let journal = Journal::open(&path).unwrap();
        journal.write(json!({"t": "call", "path": "", "seq": 1, "call": "bash", "request": {}}));
        journal.sync();
        let recorded = Recorded::read(&path).unwrap();
        assert_eq!(recorded.len(), 2);
        assert!(recorded.get("", 1).is_some());
        // A file whose only line is torn starts again from the format line.
        std::fs::write(&path, "{\"t\":\"jour").unwrap();
        drop(Journal::open(&path).unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{head}\n"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_journal_of_another_format_is_refused_with_its_version() {
        let dir = scratch("version");
        let path = dir.join(JOURNAL_FILE);
        // Version 1 had no format line and named branches by their index alone.
        let call = r#"{"t":"call","path":"0","seq":0,"call":"bash","request":{},"at":0}"#;
        std::fs::write(&path, format!("{call}\n")).unwrap();
        let error = Recorded::read(&path).unwrap_err();
        assert!(
            error.contains("a journal of format version 1, and this baton reads version 2"),
            "{error}"
        );
        std::fs::write(&path, "{\"t\":\"journal\",\"version\":3}\n").unwrap();
        let error = Recorded::read(&path).unwrap_err();
        assert!(error.contains("format version 3"), "{error}");
        std::fs::write(&path, "{\"x\":1}\n").unwrap();
        let error = Recorded::read(&path).unwrap_err();
        assert!(error.contains(":1: not a journal"), "{error}");
        // A new journal starts with the format line, and reads back empty.
        std::fs::remove_file(&path).unwrap();
        drop(Journal::open(&path).unwrap());
        assert!(Recorded::read(&path).unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
