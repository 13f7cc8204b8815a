//! Python's string escapes, decoded as CPython 3.11 decodes a str literal's. The parser decodes
//! ordinary literals itself; an f-string's literal format spec (`f'{v:\x3e5}'`) it leaves as
//! written, so the checker validates it here (a malformed escape is CPython's SyntaxError) and
//! the code generator decodes it. A Rust `String` cannot hold a lone surrogate (`"\ud800"`),
//! which the parser replaces with U+FFFD: such a literal is decoded again from its source text
//! (`str_literal_bytes`), to the bytes the runtime holds a str in (a surrogate in its
//! three-byte form, as `chr(0xD800)` makes it).

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
    decode_with(text, |c| out.push(char::from_u32(c).unwrap_or('\u{fffd}')))?;
    Ok(out)
}

/// As `decode_escapes`, to a str's bytes as the runtime holds them: UTF-8, with a lone surrogate
/// in its three-byte form.
pub fn decode_escapes_to_bytes(text: &str) -> Result<Vec<u8>, EscapeError> {
    let mut out = Vec::with_capacity(text.len());
    decode_with(text, |c| push_code_point(&mut out, c))?;
    Ok(out)
}

/// Appends code point `c` (at most U+10FFFF; a surrogate too) in UTF-8's encoding.
fn push_code_point(out: &mut Vec<u8>, c: u32) {
    // Every cast below keeps the low bits on purpose: they are the encoding's payload.
    match c {
        0..=0x7f => out.push(c as u8),
        0x80..=0x7ff => out.extend([0xc0 | (c >> 6) as u8, 0x80 | (c & 0x3f) as u8]),
        0x800..=0xffff => out.extend([
            0xe0 | (c >> 12) as u8,
            0x80 | ((c >> 6) & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ]),
        _ => out.extend([
            0xf0 | (c >> 18) as u8,
            0x80 | ((c >> 12) & 0x3f) as u8,
            0x80 | ((c >> 6) & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ]),
    }
}

/// Decodes `text`, passing each code point (surrogates included) to `push`.
fn decode_with(text: &str, mut push: impl FnMut(u32)) -> Result<(), EscapeError> {
    let mut rest = text.char_indices().peekable();
    while let Some((at, c)) = rest.next() {
        if c != '\\' {
            push(u32::from(c));
            continue;
        }
        let Some(&(_, next)) = rest.peek() else {
            push(u32::from('\\'));
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
            push(u32::from(decoded));
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
            match value {
                // A lone surrogate too: Python keeps it.
                0..=0x10ffff => push(value),
                _ => {
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
                Some(decoded) => push(u32::from(decoded)),
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
            push(value);
            continue;
        }
        push(u32::from('\\'));
    }
    Ok(())
}

/// The bytes of the str a literal's source text makes: one or more string literals (implicit
/// concatenation, with blanks, comments and line continuations between them), each decoded by
/// its prefix (raw or not). `None` for text that is not such a sequence of str literals (bytes
/// and f-strings included) or holds a malformed escape (the parser refused those already).
pub fn str_literal_bytes(source: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = source;
    loop {
        rest = rest.trim_start();
        if let Some(comment) = rest.strip_prefix('#') {
            rest = comment.split_once('\n').map_or("", |(_, after)| after);
            continue;
        }
        if let Some(joined) = rest
            .strip_prefix("\\\n")
            .or_else(|| rest.strip_prefix("\\\r\n"))
        {
            rest = joined;
            continue;
        }
        if rest.is_empty() {
            return Some(out);
        }
        let prefix_len = rest.find(['\'', '"'])?;
        let prefix = rest[..prefix_len].to_ascii_lowercase();
        if !matches!(prefix.as_str(), "" | "r" | "u") {
            return None;
        }
        let after_prefix = &rest[prefix_len..];
        let quote = if after_prefix.starts_with("\"\"\"") || after_prefix.starts_with("\'\'\'") {
            &after_prefix[..3]
        } else {
            &after_prefix[..1]
        };
        let body_and_rest = &after_prefix[quote.len()..];
        // The body ends at the first closing quote not escaped by a backslash (in a raw
        // literal too, where the backslash stays).
        let mut end = None;
        let mut chars = body_and_rest.char_indices();
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                chars.next();
            } else if body_and_rest[i..].starts_with(quote) {
                end = Some(i);
                break;
            }
        }
        let end = end?;
        let body = &body_and_rest[..end];
        if prefix == "r" {
            out.extend_from_slice(body.as_bytes());
        } else {
            out.extend(decode_escapes_to_bytes(body).ok()?);
        }
        rest = &body_and_rest[end + quote.len()..];
    }
}

#[cfg(test)]
mod tests {
    use super::{decode_escapes, str_literal_bytes};

    #[test]
    fn literals_keep_lone_surrogates_in_their_three_byte_form() {
        assert_eq!(
            str_literal_bytes(r#""\ud800""#),
            Some(vec![0xed, 0xa0, 0x80])
        );
        assert_eq!(
            str_literal_bytes(r#""a\udfff" 'b'"#),
            Some(vec![b'a', 0xed, 0xbf, 0xbf, b'b'])
        );
        // Concatenated across lines with a comment and a raw part; an escaped quote.
        assert_eq!(
            str_literal_bytes("'x\\'' # note\n  r'\\ud800'"),
            Some(b"x'\\ud800".to_vec())
        );
        assert_eq!(
            str_literal_bytes(r#"'''q"\U0001F600'''"#),
            Some("q\"\u{1F600}".as_bytes().to_vec())
        );
        assert_eq!(str_literal_bytes(r#"b"\ud800""#), None);
        assert_eq!(str_literal_bytes(r#"f"\ud800""#), None);
        assert_eq!(str_literal_bytes(r#""\x4""#), None);
    }

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
