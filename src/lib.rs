//! The `baton` facade: what the command line shares with embedders.

use std::path::Path;

pub use baton_compiler as compiler;

/// Why a plan file could not be read. Each message names the file and the problem.
#[derive(Debug, thiserror::Error)]
pub enum ReadPlanError {
    #[error("cannot read plan `{path}`: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
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
    let bytes = std::fs::read(path).map_err(|source| ReadPlanError::Io {
        path: shown.clone(),
        source,
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
