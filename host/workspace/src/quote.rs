//! Paths quoted for headers and messages, unambiguous for both `git apply` and `patch`.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Quotes `prefix` + `path` as git does for names with control characters, quotes,
/// backslashes or non-ASCII bytes (C escapes, octal for other bytes), and additionally for
/// spaces, so every name in a header line is unambiguous for both `git apply` and `patch`.
pub(crate) fn quote_path(prefix: &str, path: &Path) -> String {
    let bytes = path.as_os_str().as_bytes();
    let needs = bytes
        .iter()
        .any(|&b| !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\' || b == b' ');
    let mut s = String::with_capacity(bytes.len() + prefix.len() + 2);
    if !needs {
        s.push_str(prefix);
        s.push_str(&String::from_utf8_lossy(bytes));
        return s;
    }
    s.push('"');
    s.push_str(prefix);
    for &b in bytes {
        match b {
            0x07 => s.push_str("\\a"),
            0x08 => s.push_str("\\b"),
            b'\t' => s.push_str("\\t"),
            b'\n' => s.push_str("\\n"),
            0x0b => s.push_str("\\v"),
            0x0c => s.push_str("\\f"),
            b'\r' => s.push_str("\\r"),
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b if !(0x20..0x7f).contains(&b) => s.push_str(&format!("\\{b:03o}")),
            b => s.push(char::from(b)),
        }
    }
    s.push('"');
    s
}
