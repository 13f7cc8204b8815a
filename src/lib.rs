//! The `baton` facade: what the command line shares with embedders.
//!
//! Embedding Baton takes two types: a [`Plan`] (source checked and compiled, or a compiled
//! module validated) and a [`Runner`] (configuration, model provider, inputs, where runs are
//! kept). `baton run` is built on them; `examples/embed.rs` embeds Baton in a dozen lines:
//!
//! ```no_run
//! let plan = baton::Plan::from_source("hello.py", "print(sum(range(10)))\n")?;
//! let runner = baton::Runner::new(baton::Config::default()).runs_in("/tmp/baton-runs");
//! let run = runner.run(&plan, &mut std::io::stdout())?;
//! assert!(matches!(run.outcome, Ok(baton::RunOutcome::Success)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A run ends in a [`RunRecord`]: its [`RunOutcome`] (success, or the uncaught exception's
//! traceback) or the [`HostError`] that ended it (a limit, a trap), what `main` returned, the
//! run directory (journal, log, figures, the workspace's patch) and what the run changed.

use std::path::Path;

pub use baton_compiler as compiler;
pub use baton_compiler::{CompileError, CompileOptions};
pub use baton_host::config::{Capability, Config};
pub use baton_host::llm::ProviderSpec;
pub use baton_host::session::{RunRecord, SessionError};
pub use baton_host::{HostError, LimitKind, ModuleError, RunOutcome};

pub mod batch;
mod plan;
pub mod plan_cache;
pub mod planner;
mod runner;

pub use plan::{Plan, PlanSource};
pub use runner::{Runner, DEFAULT_RUNS_DIR};

/// Why a plan file could not be read. Each message names the file and the problem.
#[derive(Debug, thiserror::Error)]
pub enum ReadPlanError {
    // The cause is in the message, so it is not also reported as the error's source.
    #[error("cannot read plan `{path}`: {cause}")]
    Io { path: String, cause: std::io::Error },
    #[error(
        "plan `{path}` is not UTF-8 (invalid byte at offset {offset}); plans must be UTF-8 text"
    )]
    NotUtf8 { path: String, offset: usize },
    #[error("plan `{path}` is a directory, not a file")]
    Directory { path: String },
}

/// Reads a plan's source, rejecting directories and text that is not UTF-8. A UTF-8 byte
/// order mark is dropped, as CPython does.
pub fn read_plan(path: &Path) -> Result<String, ReadPlanError> {
    let shown = path.display().to_string();
    if path.is_dir() {
        return Err(ReadPlanError::Directory { path: shown });
    }
    let bytes = std::fs::read(path).map_err(|cause| ReadPlanError::Io {
        path: shown.clone(),
        cause,
    })?;
    let mut text = String::from_utf8(bytes).map_err(|error| ReadPlanError::NotUtf8 {
        path: shown,
        offset: error.utf8_error().valid_up_to(),
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    Ok(text)
}

/// Adds the source line under each `  File "PATH", line N, in NAME` line of a traceback from a
/// plan at `path`, as CPython prints them. Other lines pass through unchanged.
pub fn annotate_traceback(traceback: &str, path: &str, source: &str) -> String {
    let prefix = format!("  File \"{path}\", line ");
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::with_capacity(traceback.len() * 2);
    for line in traceback.split_inclusive('\n') {
        out.push_str(line);
        let number = line
            .strip_prefix(&prefix)
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.trim().parse::<usize>().ok());
        if let Some(text) = number.and_then(|n| lines.get(n.wrapping_sub(1))) {
            let text = text.trim();
            if !text.is_empty() {
                out.push_str("    ");
                out.push_str(text);
                out.push('\n');
            }
        }
    }
    out
}

/// `text` made safe to print on a terminal: control characters (C0 but tab, DEL, C1) become
/// `\xNN` escapes, so text a plan chose (a `log` line, an exception message, a file name) can
/// neither clear the screen, move the cursor, set the clipboard (OSC 52) nor, with
/// `keep_newlines` off, start a line that looks like Baton's own (`[baton] ...`).
pub fn terminal_text(text: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && c != '\t' && !(keep_newlines && c == '\n'))
            // Bidirectional overrides reorder what the line shows.
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            let code = c as u32;
            if code <= 0xff {
                out.push_str(&format!("\\x{code:02x}"));
            } else {
                out.push_str(&format!("\\u{{{code:x}}}"));
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn terminal_text_escapes_what_could_drive_a_terminal() {
        use super::terminal_text;
        assert_eq!(
            terminal_text("plain 'text'\ttab", false),
            "plain 'text'\ttab"
        );
        assert_eq!(
            terminal_text("\x1b[2J\x1b]52;c;aGk=\x07", false),
            "\\x1b[2J\\x1b]52;c;aGk=\\x07"
        );
        assert_eq!(
            terminal_text("a\n[baton] forged\r", false),
            "a\\x0a[baton] forged\\x0d"
        );
        assert_eq!(terminal_text("line\nnext", true), "line\nnext");
        assert_eq!(
            terminal_text("\u{9b}31m \u{202e}x", true),
            "\\x9b31m \\u{202e}x"
        );
    }

    use super::*;

    #[test]
    fn tracebacks_show_source_lines() {
        let traceback = "Traceback (most recent call last):\n  File \"p.py\", line 2, in f\n  File \"other.py\", line 1, in g\nValueError: x\n";
        let annotated = annotate_traceback(traceback, "p.py", "def f():\n    return int('x')\n");
        assert_eq!(
            annotated,
            "Traceback (most recent call last):\n  File \"p.py\", line 2, in f\n    return int('x')\n  File \"other.py\", line 1, in g\nValueError: x\n"
        );
        // Lines past the end of the source are left alone.
        assert_eq!(
            annotate_traceback("  File \"p.py\", line 9, in f\n", "p.py", "x\n"),
            "  File \"p.py\", line 9, in f\n"
        );
    }
}
