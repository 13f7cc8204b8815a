//! Rendering a change set as a git-style unified diff (names quoted as git does, `quote.rs`).

use crate::change::{Change, ChangeKind, ChangeSet, Content, Node};
use crate::quote::quote_path;

/// A rendered patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patch {
    /// The patch text (bytes: file content need not be UTF-8).
    pub bytes: Vec<u8>,
    /// Whether the cap cut it short; the last line then says so.
    pub truncated: bool,
}

/// Collects whole blocks until the cap; a block that does not fit ends the patch, so what is
/// there always parses.
struct Capped {
    out: Vec<u8>,
    cap: u64,
    dropped: usize,
}

impl Capped {
    fn push(&mut self, block: &[u8]) {
        if self.dropped > 0 || (self.out.len() + block.len()) as u64 > self.cap {
            self.dropped += 1;
        } else {
            self.out.extend_from_slice(block);
        }
    }
}

fn git_mode(node: &Node) -> Option<&'static str> {
    match node {
        Node::File { mode, .. } if mode & 0o100 != 0 => Some("100755"),
        Node::File { .. } => Some("100644"),
        Node::Symlink { .. } => Some("120000"),
        Node::Dir { .. } => None,
    }
}

/// Notes for what git's format cannot carry, written as `#` lines before the first diff
/// (both `git apply` and `patch` skip text before a diff header).
fn note(change: &Change) -> Option<String> {
    let p = quote_path("", &change.path);
    if let (Some(Node::Dir { .. }), None) | (None, Some(Node::Dir { .. })) =
        (&change.old, &change.new)
    {
        let what = if change.kind == ChangeKind::Added {
            "added"
        } else {
            "deleted"
        };
        return Some(format!("# {what} directory: {p}\n"));
    }
    match (&change.old, &change.new) {
        (Some(Node::Dir { mode: a }), Some(Node::Dir { mode: b }))
        | (Some(Node::File { mode: a, .. }), Some(Node::File { mode: b, .. }))
            if a != b =>
        {
            return Some(format!("# permissions: {p} {a:04o} -> {b:04o}\n"));
        }
        _ => {}
    }
    match change.content {
        Content::TooLarge => Some(format!("# too large to diff: {p}\n")),
        Content::BaselineNotKept => Some(format!(
            "# changed, but its original content was above the snapshot bound: {p}\n"
        )),
        Content::Omitted => Some(format!("# diff omitted (patch size cap reached): {p}\n")),
        _ => None,
    }
}

fn block(change: &Change) -> Option<Vec<u8>> {
    let old_mode = change.old.as_ref().and_then(git_mode);
    let new_mode = change.new.as_ref().and_then(git_mode);
    if old_mode.is_none() && new_mode.is_none() {
        return None;
    }
    let a = quote_path("a/", &change.path);
    let b = quote_path("b/", &change.path);
    let mut head = format!("diff --git {a} {b}\n");
    let (from, to) = match (old_mode, new_mode) {
        (None, Some(m)) => {
            head.push_str(&format!("new file mode {m}\n"));
            ("/dev/null".to_string(), b)
        }
        (Some(m), None) => {
            head.push_str(&format!("deleted file mode {m}\n"));
            (a, "/dev/null".to_string())
        }
        (Some(o), Some(n)) => {
            if o != n {
                head.push_str(&format!("old mode {o}\nnew mode {n}\n"));
            } else if change.content == Content::Same {
                // A permission change git cannot express; the header note carries it.
                return None;
            }
            (a, b)
        }
        (None, None) => return None,
    };
    let mut out = head.into_bytes();
    match &change.content {
        Content::Same => {}
        Content::Text(h) if h.is_empty() => {}
        Content::Text(h) => {
            out.extend_from_slice(format!("--- {from}\n+++ {to}\n").as_bytes());
            out.extend_from_slice(h);
        }
        Content::Binary | Content::TooLarge | Content::BaselineNotKept | Content::Omitted => {
            out.extend_from_slice(format!("Binary files {from} and {to} differ\n").as_bytes());
        }
    }
    Some(out)
}

/// Renders `set` as a patch of at most `cap` bytes plus one closing marker line.
impl ChangeSet {
    /// Renders the set as a git-style unified diff: text files and symlinks as hunks, binary
    /// files as `Binary files ... differ`, exec-bit changes as mode lines, and everything git
    /// cannot express (directories, other permission bits, conflicts) as `#` lines before the
    /// first diff. At most `Limits::max_patch_bytes`, cut between whole diffs with a marker.
    pub fn to_patch(&self) -> Patch {
        render(self, self.max_patch_bytes)
    }
}

pub(crate) fn render(set: &ChangeSet, cap: u64) -> Patch {
    let mut w = Capped {
        out: Vec::new(),
        cap,
        dropped: 0,
    };
    for p in &set.conflicts {
        w.push(
            format!(
                "# not included, the original changed during the run: {}\n",
                quote_path("", p)
            )
            .as_bytes(),
        );
    }
    for p in &set.ignored_special {
        w.push(format!("# ignored special file: {}\n", quote_path("", p)).as_bytes());
    }
    for held in &set.held_back {
        w.push(
            format!(
                "# held back from write-back ({}): {}\n",
                // A link target is plan-chosen text: no line break may forge a patch line.
                held.reason.to_string().escape_debug(),
                quote_path("", &held.path)
            )
            .as_bytes(),
        );
    }
    for c in &set.changes {
        if let Some(n) = note(c) {
            w.push(n.as_bytes());
        }
    }
    for c in &set.changes {
        if let Some(b) = block(c) {
            w.push(&b);
        }
    }
    let truncated = w.dropped > 0;
    if truncated {
        w.out.extend_from_slice(
            format!(
                "# patch truncated at the cap of {cap} bytes: {} more entries not shown\n",
                w.dropped
            )
            .as_bytes(),
        );
    }
    Patch {
        bytes: w.out,
        truncated,
    }
}

#[cfg(test)]
mod tests {
    use super::quote_path;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    #[test]
    fn quoting_follows_git() {
        assert_eq!(
            quote_path("a/", Path::new("plain/name.txt")),
            "a/plain/name.txt"
        );
        assert_eq!(
            quote_path("a/", Path::new("with space")),
            "\"a/with space\""
        );
        assert_eq!(quote_path("a/", Path::new("new\nline")), "\"a/new\\nline\"");
        assert_eq!(quote_path("b/", Path::new("é")), "\"b/\\303\\251\"");
        assert_eq!(quote_path("", Path::new("q\"b\\")), "\"q\\\"b\\\\\"");
        let raw = Path::new(OsStr::from_bytes(b"\xff\x01"));
        assert_eq!(quote_path("", raw), "\"\\377\\001\"");
    }
}
