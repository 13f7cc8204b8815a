//! Replacement fields of `str.format` strings. A field name may be followed by `.attr` or
//! `[index]`, which `str.format` evaluates with getattr and getitem: `"{0.__class__}"` walks to
//! interpreter internals without a single forbidden name in the plan's code. Plans may use
//! only plain fields (`{}`, `{0}`, `{name}`), with conversions and format specs.

/// A replacement field whose name accesses an attribute or an index.
#[derive(Debug, PartialEq, Eq)]
pub struct FieldAccess {
    /// The whole field name, e.g. `0.__class__` or `x[0]`.
    pub field: String,
}

/// Finds every field (including fields nested in format specs) that accesses an attribute or
/// an index. Malformed format strings are left to the runtime, which raises ValueError.
pub fn field_accesses(format: &str) -> Vec<FieldAccess> {
    let mut found = Vec::new();
    let chars: Vec<char> = format.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' if chars.get(i + 1) == Some(&'{') => i += 2,
            '}' if chars.get(i + 1) == Some(&'}') => i += 2,
            '{' => i = scan_field(&chars, i + 1, 0, &mut found),
            _ => i += 1,
        }
    }
    found
}

/// Scans one field starting just after its `{`; returns the index just past its `}`.
fn scan_field(chars: &[char], start: usize, depth: usize, found: &mut Vec<FieldAccess>) -> usize {
    let mut i = start;
    // The field name runs to `!`, `:` or `}`; inside `[...]` those characters are index text.
    let mut in_index = false;
    let mut accesses = false;
    while i < chars.len() {
        let c = chars[i];
        if in_index {
            if c == ']' {
                in_index = false;
            }
        } else if c == '[' {
            in_index = true;
            accesses = true;
        } else if c == '.' {
            accesses = true;
        } else if c == '!' || c == ':' || c == '}' || c == '{' {
            break;
        }
        i += 1;
    }
    if accesses {
        found.push(FieldAccess {
            field: chars[start..i].iter().collect(),
        });
    }
    // Conversion and format spec; the spec may hold nested fields (CPython allows one level,
    // we look through any number so nothing hides behind a deeper one).
    while i < chars.len() {
        match chars[i] {
            '}' => return i + 1,
            '{' if depth < 8 => i = scan_field(chars, i + 1, depth + 1, found),
            _ => i += 1,
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(s: &str) -> Vec<String> {
        field_accesses(s).into_iter().map(|f| f.field).collect()
    }

    #[test]
    fn plain_fields_are_fine() {
        assert!(fields("{} {0} {name!r:>10} {x:{width}.{prec}f} {{0.__class__}}").is_empty());
    }

    #[test]
    fn attribute_and_index_fields_are_found() {
        assert_eq!(fields("{0.__class__}"), ["0.__class__"]);
        assert_eq!(fields("a {x[0]} b"), ["x[0]"]);
        assert_eq!(fields("{0[:]}"), ["0[:]"]);
        assert_eq!(fields("{0:{1.__class__}}"), ["1.__class__"]);
        assert_eq!(fields("{.real}"), [".real"]);
        assert_eq!(fields("{{}}{0.a}"), ["0.a"]);
    }

    #[test]
    fn malformed_strings_do_not_panic() {
        for s in [
            "{",
            "}",
            "{0.",
            "{0[",
            "{0:{",
            "{:{:{:{:{:{:{:{:{:{:{",
            "}}}{{{",
        ] {
            let _ = field_accesses(s);
        }
    }
}
