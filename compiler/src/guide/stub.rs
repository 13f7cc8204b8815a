//! Signatures and docstrings read out of Python source: the SDK stub
//! (`plans/baton/__init__.py`) and the plan library (`plans/baton/ttc.py`) are the one place
//! the SDK's calls are spelt out, so the guide quotes them rather than repeating them.

/// A top-level `def NAME(...)` of `source`: its signature on one line (without `def` and the
/// final `:`), and the first paragraph of its docstring.
pub fn function(source: &str, name: &str) -> Option<(String, String)> {
    let start = source.find(&format!("\ndef {name}("))? + 5;
    let mut depth = 0usize;
    let mut end = None;
    for (offset, c) in source[start..].char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ':' if depth == 0 => {
                end = Some(start + offset);
                break;
            }
            _ => {}
        }
    }
    let end = end?;
    let signature = one_line(&source[start..end]);
    Some((signature, docstring(&source[end + 1..]).unwrap_or_default()))
}

/// The docstring and annotated fields (`name: type  # comment`) of a top-level class.
pub fn class(source: &str, name: &str) -> Option<(String, Vec<String>)> {
    let start = source.find(&format!("\nclass {name}"))?;
    let body = &source[start + 1..];
    let body_end = body[1..].find("\n\n\n").map_or(body.len(), |end| end + 1);
    let body = &body[..body_end];
    let after_header = &body[body.find(":\n")? + 2..];
    let doc = docstring(after_header).unwrap_or_default();
    let fields = after_header
        .lines()
        .map(str::trim)
        .filter(|line| {
            line.split_once(':').is_some_and(|(field, _)| {
                !field.is_empty() && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            }) && !line.starts_with('"')
        })
        .map(|line| one_line(line.replace("  #", " —").as_str()))
        .collect();
    Some((doc, fields))
}

/// The first paragraph of the docstring that opens `body`.
fn docstring(body: &str) -> Option<String> {
    let body = body.trim_start();
    let rest = body.strip_prefix("\"\"\"")?;
    let text = &rest[..rest.find("\"\"\"")?];
    let paragraph = text.split("\n\n").next().unwrap_or(text);
    Some(one_line(paragraph))
}

fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // A signature split over lines leaves "( a" and ", )": close them up.
    joined
        .replace("( ", "(")
        .replace(", )", ")")
        .replace(" )", ")")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "x = 1\n\n\ndef f(\n    a: int,\n    *,\n    b: str = \"x\",\n) -> list:\n    \"\"\"Does a thing\n    well.\n\n    More.\"\"\"\n    return []\n\n\nclass R:\n    \"\"\"A record.\"\"\"\n\n    ok: bool  # it worked\n    n: int\n";

    #[test]
    fn signatures_docstrings_and_fields_are_read() {
        assert_eq!(
            function(SOURCE, "f").unwrap(),
            (
                "f(a: int, *, b: str = \"x\") -> list".to_string(),
                "Does a thing well.".to_string()
            )
        );
        assert_eq!(
            class(SOURCE, "R").unwrap(),
            (
                "A record.".to_string(),
                vec!["ok: bool — it worked".to_string(), "n: int".to_string()]
            )
        );
        assert!(function(SOURCE, "g").is_none());
    }
}
