//! Unified-diff hunks between two byte buffers, line by line.

use std::time::{Duration, Instant};

use similar::{capture_diff_slices_deadline, group_diff_ops, Algorithm, DiffTag};

/// Lines of context around each change, as `diff -u` and git use.
const CONTEXT: usize = 3;

/// Past this, Myers gives up on a minimal diff and returns a correct but longer one, so a
/// pathological pair of files cannot stall a run.
const DEADLINE: Duration = Duration::from_secs(5);

/// The `@@` hunks turning `old` into `new` (empty when they are equal). Lines keep their
/// terminators, so a missing final newline is a difference and is marked as diff does.
pub(crate) fn hunks(old: &[u8], new: &[u8]) -> Vec<u8> {
    let a: Vec<&[u8]> = old.split_inclusive(|&b| b == b'\n').collect();
    let b: Vec<&[u8]> = new.split_inclusive(|&b| b == b'\n').collect();
    let ops = capture_diff_slices_deadline(
        Algorithm::Myers,
        &a,
        &b,
        Instant::now().checked_add(DEADLINE),
    );
    let mut out = Vec::new();
    for group in group_diff_ops(ops, CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (_, o0, n0) = first.as_tag_tuple();
        let (_, o1, n1) = last.as_tag_tuple();
        out.extend_from_slice(
            format!(
                "@@ -{} +{} @@\n",
                range(o0.start, o1.end.saturating_sub(o0.start)),
                range(n0.start, n1.end.saturating_sub(n0.start))
            )
            .as_bytes(),
        );
        for op in &group {
            let (tag, o, n) = op.as_tag_tuple();
            let old_lines = a.get(o).unwrap_or(&[]);
            let new_lines = b.get(n).unwrap_or(&[]);
            match tag {
                DiffTag::Equal => emit(&mut out, b' ', old_lines),
                DiffTag::Delete => emit(&mut out, b'-', old_lines),
                DiffTag::Insert => emit(&mut out, b'+', new_lines),
                DiffTag::Replace => {
                    emit(&mut out, b'-', old_lines);
                    emit(&mut out, b'+', new_lines);
                }
            }
        }
    }
    out
}

/// A hunk range as diff writes it: 1-based start, length omitted when 1, and for an empty
/// range the line before it.
fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{len}", start + 1),
    }
}

fn emit(out: &mut Vec<u8>, prefix: u8, lines: &[&[u8]]) {
    for line in lines {
        out.push(prefix);
        out.extend_from_slice(line);
        if !line.ends_with(b"\n") {
            out.extend_from_slice(b"\n\\ No newline at end of file\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::hunks;

    #[test]
    fn equal_inputs_give_nothing() {
        assert!(hunks(b"a\nb\n", b"a\nb\n").is_empty());
        assert!(hunks(b"", b"").is_empty());
    }

    #[test]
    fn addition_from_empty() {
        assert_eq!(hunks(b"", b"x\ny\n"), b"@@ -0,0 +1,2 @@\n+x\n+y\n");
    }

    #[test]
    fn missing_final_newline_is_marked() {
        assert_eq!(
            hunks(b"a\n", b"a"),
            b"@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n".as_slice()
        );
    }

    #[test]
    fn context_is_three_lines() {
        let old = b"1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let new = b"1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        assert_eq!(
            String::from_utf8_lossy(&hunks(old, new)),
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
    }
}
