//! Python's string escapes, decoded as CPython 3.11 decodes a str literal's. The parser decodes
//! ordinary literals itself; an f-string's literal format spec (`f'{v:\x3e5}'`) it leaves as
//! written, so the checker validates it here (a malformed escape is CPython's SyntaxError) and
//! the code generator decodes it.

/// Whether the string literal starting at byte `start` of `source` is raw (an `r`/`R` among
/// its prefix letters): a raw literal's escapes are kept as written.
pub fn literal_is_raw(source: &str, start: usize) -> bool {
    source
        .get(start..)
        .unwrap_or("")
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .any(|c| c == 'r' || c == 'R')
}

/// A malformed escape: where it is in the text (byte offsets, first and last) and why, as
/// CPython's `unicodeescape` codec says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EscapeError {
    pub first: usize,
    pub last: usize,
    pub reason: &'static str,
}

impl std::fmt::Display for EscapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: {}",
            self.first, self.last, self.reason
        )
    }
}

/// `text` with its escapes decoded (`\x3e` is `>`, `\n` a newline, `\u00e9` and
/// `\N{LATIN SMALL LETTER E WITH ACUTE}` `é`, `\101` `A`); an unknown escape (`\q`) keeps its
/// backslash, as Python keeps it. A truncated `\x`, `\u` or `\U`, a code point past U+10FFFF, or
/// a `\N` without a known `{name}` is an error.
pub fn decode_escapes(text: &str) -> Result<String, EscapeError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text.char_indices().peekable();
    while let Some((at, c)) = rest.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&(_, next)) = rest.peek() else {
            out.push('\\');
            break;
        };
        let simple = match next {
            '\\' => Some('\\'),
            '\'' => Some('\''),
            '"' => Some('"'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'f' => Some('\x0c'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\x0b'),
            _ => None,
        };
        if let Some(decoded) = simple {
            rest.next();
            out.push(decoded);
            continue;
        }
        // A backslash before a line break joins the lines.
        if next == '\n' {
            rest.next();
            continue;
        }
        let hex_digits = match next {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => 0,
        };
        if hex_digits > 0 {
            rest.next();
            let mut value = 0u32;
            let mut last = at + 1;
            for _ in 0..hex_digits {
                match rest.peek() {
                    Some(&(i, d)) if d.is_ascii_hexdigit() => {
                        value = value * 16 + d.to_digit(16).unwrap_or(0);
                        last = i;
                        rest.next();
                    }
                    _ => {
                        let reason = match next {
                            'x' => "truncated \\xXX escape",
                            'u' => "truncated \\uXXXX escape",
                            _ => "truncated \\UXXXXXXXX escape",
                        };
                        return Err(EscapeError {
                            first: at,
                            last,
                            reason,
                        });
                    }
                }
            }
            match char::from_u32(value) {
                Some(decoded) => out.push(decoded),
                // A lone surrogate: Python keeps it; a str here cannot. The replacement
                // character stands in, as it did before.
                None if value <= 0x10ffff => out.push('\u{fffd}'),
                None => {
                    return Err(EscapeError {
                        first: at,
                        last,
                        reason: "illegal Unicode character",
                    })
                }
            }
            continue;
        }
        if next == 'N' {
            rest.next();
            let malformed = |last: usize| EscapeError {
                first: at,
                last,
                reason: "malformed \\N character escape",
            };
            if !matches!(rest.peek(), Some(&(_, '{'))) {
                return Err(malformed(at + 1));
            }
            rest.next();
            let mut name = String::new();
            let mut closed = None;
            for (i, d) in rest.by_ref() {
                if d == '}' {
                    closed = Some(i);
                    break;
                }
                name.push(d);
            }
            let Some(close) = closed.filter(|_| !name.is_empty()) else {
                return Err(malformed(text.len().saturating_sub(1).max(at + 2)));
            };
            match unicode_names2::character(&name) {
                Some(decoded) => out.push(decoded),
                None => {
                    return Err(EscapeError {
                        first: at,
                        last: close,
                        reason: "unknown Unicode character name",
                    })
                }
            }
            continue;
        }
        if next.is_digit(8) {
            let mut value = 0u32;
            for _ in 0..3 {
                match rest.peek() {
                    Some(&(_, d)) if d.is_digit(8) => {
                        value = value * 8 + d.to_digit(8).unwrap_or(0);
                        rest.next();
                    }
                    _ => break,
                }
            }
            out.push(char::from_u32(value).unwrap_or('\u{fffd}'));
            continue;
        }
        out.push('\\');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode_escapes;

    #[test]
    fn escapes_decode_as_python_decodes_them() {
        let ok = |text: &str| decode_escapes(text).unwrap();
        assert_eq!(ok(r"\x3e5"), ">5");
        assert_eq!(ok(r"\n<5"), "\n<5");
        assert_eq!(ok(r"\x00"), "\0");
        assert_eq!(ok(r"\u00e9^3"), "é^3");
        assert_eq!(ok(r"\U0001F600"), "\u{1F600}");
        assert_eq!(ok(r"\N{LATIN SMALL LETTER E WITH ACUTE}^3"), "é^3");
        assert_eq!(ok(r"\N{bullet}"), "\u{2022}");
        assert_eq!(ok(r"\101"), "A");
        assert_eq!(ok(r"\q"), r"\q");
        assert_eq!(ok(r"\\"), "\\");
        assert_eq!(ok("é\\x3e"), "é>");
    }

    #[test]
    fn malformed_escapes_are_errors_with_cpython_s_words() {
        let error = |text: &str| decode_escapes(text).unwrap_err().to_string();
        assert_eq!(
            error(r"\None"),
            "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: \
             malformed \\N character escape"
        );
        assert!(error(r"\x4").ends_with("position 0-2: truncated \\xXX escape"));
        assert!(error(r"ab\x").ends_with("position 2-3: truncated \\xXX escape"));
        assert!(error(r"\u12").ends_with("position 0-3: truncated \\uXXXX escape"));
        assert!(error(r"\U00110000").ends_with("position 0-9: illegal Unicode character"));
        assert!(
            error(r"\N{NO SUCH NAME}").ends_with("position 0-15: unknown Unicode character name")
        );
        assert!(error(r"\N{}").contains("malformed \\N character escape"));
        assert!(error(r"\N{BULLET").contains("malformed \\N character escape"));
    }
}
