//! What the host and the helper say to each other.
//!
//! The host writes one frame on the helper's stdin — an 8-byte little-endian length followed by
//! the JSON [`Spec`] — and then the command's input, if any. The helper reads exactly the frame
//! (never more), so whatever follows is the command's stdin. The helper answers on a separate
//! close-on-exec pipe (fd [`STATUS_FD`]) with [`Status`] lines, so nothing the command prints
//! can be mistaken for the sandbox's own reports.

use std::io::{self, Read};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The file descriptor on which the helper reports its [`Status`] lines.
pub(crate) const STATUS_FD: i32 = 3;

/// A spec frame larger than this is refused: the script and paths are all it carries.
pub(crate) const MAX_SPEC_BYTES: u64 = 64 * 1024 * 1024;

/// Everything the helper needs to set up the sandbox and run one command.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Spec {
    pub script: String,
    pub workspace: PathBuf,
    pub read_only: Vec<PathBuf>,
    pub has_stdin: bool,
    pub tmp_bytes: u64,
    pub max_processes: u64,
    pub memory_bytes: u64,
    pub cpu_seconds: u64,
    pub file_size_bytes: u64,
    pub open_files: u64,
    /// Overlay lower layers (topmost first), with `overlay_work`.
    #[serde(default)]
    pub overlay_lowers: Vec<PathBuf>,
    /// overlayfs' work directory, beside `workspace`: `/workspace` is then an overlay with
    /// `workspace` as its upper layer (over `overlay_lowers`, or over an empty layer when there
    /// are none). None: `workspace` is bound as it is.
    #[serde(default)]
    pub overlay_work: Option<PathBuf>,
    /// The workspace and overlay layers are Baton's own copies (see `Policy::private_workspace`).
    #[serde(default)]
    pub private_workspace: bool,
    /// The run's cgroups (`Policy::run_cgroups`), inside which the command's are made.
    #[serde(default)]
    pub run_cgroups: Vec<PathBuf>,
}

/// Encodes a spec as the frame the helper expects on stdin.
pub(crate) fn encode_frame(spec: &Spec) -> Result<Vec<u8>, serde_json::Error> {
    let json = serde_json::to_vec(spec)?;
    let mut frame = Vec::with_capacity(json.len() + 8);
    frame.extend_from_slice(&(json.len() as u64).to_le_bytes());
    frame.extend_from_slice(&json);
    Ok(frame)
}

/// Reads one frame, consuming exactly its bytes from `reader`.
pub(crate) fn read_frame(reader: &mut impl Read) -> io::Result<Spec> {
    let mut len = [0u8; 8];
    reader.read_exact(&mut len)?;
    let len = u64::from_le_bytes(len);
    if len > MAX_SPEC_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("spec frame of {len} bytes exceeds the {MAX_SPEC_BYTES}-byte limit"),
        ));
    }
    let mut json = vec![0u8; len as usize];
    reader.read_exact(&mut json)?;
    serde_json::from_slice(&json).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Whether a protection layer took effect in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayerState {
    /// The layer is in force.
    Active(String),
    /// The layer could not be used here; the text says why.
    Unavailable(String),
}

/// One line of the helper's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Status {
    /// A layer's state, e.g. `layer landlock active ABI 6`.
    Layer { name: String, state: LayerState },
    /// Setup failed at `step`; the command never ran.
    Error { step: String, message: String },
    /// A fork at `step` found no process left under the process limits; the command never ran.
    OutOfProcesses { step: String },
    /// The command ended with this code (128+signal when killed).
    Exit(i32),
    /// The kernel killed this many of the command's processes for memory (its cgroup's
    /// `oom_kill` count, read before the cgroup is removed).
    MemoryKills(u64),
}

impl Status {
    /// The line written on the status pipe, newline included. Newlines inside fields are
    /// replaced so one status is always one line.
    pub(crate) fn to_line(&self) -> String {
        let clean = |s: &str| s.replace(['\n', '\r'], " ");
        match self {
            Status::Layer { name, state } => match state {
                LayerState::Active(d) => format!("layer {} active {}\n", clean(name), clean(d)),
                LayerState::Unavailable(d) => {
                    format!("layer {} unavailable {}\n", clean(name), clean(d))
                }
            },
            Status::Error { step, message } => {
                format!("error {}\t{}\n", clean(step), clean(message))
            }
            Status::OutOfProcesses { step } => format!("noproc {}\n", clean(step)),
            Status::Exit(code) => format!("exit {code}\n"),
            Status::MemoryKills(n) => format!("oom {n}\n"),
        }
    }

    /// Parses one line written by [`Status::to_line`]; anything else is `None`.
    pub(crate) fn parse(line: &str) -> Option<Status> {
        let (kind, rest) = line.split_once(' ')?;
        match kind {
            "exit" => rest.trim().parse().ok().map(Status::Exit),
            "oom" => rest.trim().parse().ok().map(Status::MemoryKills),
            "noproc" => Some(Status::OutOfProcesses {
                step: rest.trim_end().to_string(),
            }),
            "error" => {
                let (step, message) = rest.split_once('\t')?;
                Some(Status::Error {
                    step: step.to_string(),
                    message: message.to_string(),
                })
            }
            "layer" => {
                let (name, rest) = rest.split_once(' ')?;
                let (state, detail) = rest.split_once(' ').unwrap_or((rest, ""));
                let detail = detail.to_string();
                let state = match state {
                    "active" => LayerState::Active(detail),
                    "unavailable" => LayerState::Unavailable(detail),
                    _ => return None,
                };
                Some(Status::Layer {
                    name: name.to_string(),
                    state,
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Spec {
        Spec {
            script: "echo hi\n".into(),
            workspace: "/w".into(),
            read_only: vec!["/opt/x".into()],
            has_stdin: true,
            tmp_bytes: 1,
            max_processes: 2,
            memory_bytes: 3,
            cpu_seconds: 4,
            file_size_bytes: 5,
            open_files: 6,
            overlay_lowers: vec!["/l1".into(), "/l2".into()],
            overlay_work: Some("/work".into()),
            private_workspace: true,
            run_cgroups: vec!["/sys/fs/cgroup/baton-run-1-0".into()],
        }
    }

    #[test]
    fn frame_round_trip_leaves_trailing_bytes_unread() {
        let mut bytes = encode_frame(&spec()).unwrap();
        bytes.extend_from_slice(b"stdin data");
        let mut cursor = io::Cursor::new(bytes);
        assert_eq!(read_frame(&mut cursor).unwrap(), spec());
        let mut rest = Vec::new();
        cursor.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"stdin data");
    }

    #[test]
    fn oversized_or_truncated_frames_are_errors() {
        let mut huge = (MAX_SPEC_BYTES + 1).to_le_bytes().to_vec();
        huge.extend_from_slice(b"{}");
        assert!(read_frame(&mut io::Cursor::new(huge)).is_err());
        let mut short = 100u64.to_le_bytes().to_vec();
        short.extend_from_slice(b"{");
        assert!(read_frame(&mut io::Cursor::new(short)).is_err());
        assert!(read_frame(&mut io::Cursor::new(vec![1, 2])).is_err());
    }

    #[test]
    fn status_lines_round_trip() {
        let all = [
            Status::Exit(137),
            Status::Error {
                step: "pivot_root".into(),
                message: "EPERM\nsecond line".into(),
            },
            Status::OutOfProcesses {
                step: "fork pid 1 of the sandbox".into(),
            },
            Status::Layer {
                name: "landlock".into(),
                state: LayerState::Active("ABI 6".into()),
            },
            Status::Layer {
                name: "cgroup-pids".into(),
                state: LayerState::Unavailable("no controller".into()),
            },
        ];
        for status in all {
            let line = status.to_line();
            assert_eq!(line.matches('\n').count(), 1);
            let parsed = Status::parse(line.trim_end_matches('\n')).unwrap();
            match (&status, &parsed) {
                (Status::Error { step, .. }, Status::Error { step: s2, message }) => {
                    assert_eq!(step, s2);
                    assert_eq!(message, "EPERM second line");
                }
                _ => assert_eq!(parsed, status),
            }
        }
        assert_eq!(Status::parse("garbage"), None);
        assert_eq!(Status::parse("exit x"), None);
    }
}
