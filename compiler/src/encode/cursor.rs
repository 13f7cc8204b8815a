//! Reading the text: parentheses, atoms, strings, integer literals.

use super::{EncodeError, Result};

/// A cursor over the text: parentheses, atoms (keywords, `$names`, numbers, `offset=N`) and
/// strings.
#[derive(Clone)]
pub(super) struct Cursor<'a> {
    text: &'a str,
    pub(super) at: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Token<'a> {
    Open,
    Close,
    Atom(&'a str),
    /// A string literal, quotes excluded, escapes not yet decoded.
    Str(&'a str),
    End,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str, at: usize) -> Self {
        Cursor { text, at }
    }

    pub(super) fn error<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(EncodeError {
            message: message.into(),
            offset: self.at,
            too_large: None,
        })
    }

    pub(super) fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() {
            match bytes[self.at] {
                b' ' | b'\n' | b'\t' | b'\r' => self.at += 1,
                b';' if bytes.get(self.at + 1) == Some(&b';') => {
                    while self.at < bytes.len() && bytes[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    pub(super) fn next(&mut self) -> Result<Token<'a>> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        let Some(&first) = bytes.get(self.at) else {
            return Ok(Token::End);
        };
        match first {
            b'(' => {
                if bytes.get(self.at + 1) == Some(&b';') {
                    return self.error("block comments are not part of the dialect");
                }
                self.at += 1;
                Ok(Token::Open)
            }
            b')' => {
                self.at += 1;
                Ok(Token::Close)
            }
            b'"' => {
                let start = self.at + 1;
                let mut i = start;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= bytes.len() {
                    return self.error("a string is not closed");
                }
                self.at = i + 1;
                Ok(Token::Str(&self.text[start..i]))
            }
            _ => {
                let start = self.at;
                while self.at < bytes.len() && !ends_token(bytes[self.at]) {
                    self.at += 1;
                }
                Ok(Token::Atom(&self.text[start..self.at]))
            }
        }
    }

    pub(super) fn peek(&self) -> Result<Token<'a>> {
        self.clone().next()
    }

    /// The keyword after a `(`, if the next tokens are `(` and an atom, without moving.
    pub(super) fn peek_form(&self) -> Option<&'a str> {
        let mut ahead = self.clone();
        match (ahead.next(), ahead.next()) {
            (Ok(Token::Open), Ok(Token::Atom(word))) => Some(word),
            _ => None,
        }
    }

    pub(super) fn expect_open(&mut self) -> Result<()> {
        match self.next()? {
            Token::Open => Ok(()),
            other => self.error(format!("expected `(`, found {other:?}")),
        }
    }

    pub(super) fn expect_close(&mut self) -> Result<()> {
        match self.next()? {
            Token::Close => Ok(()),
            other => self.error(format!("expected `)`, found {other:?}")),
        }
    }

    pub(super) fn atom(&mut self) -> Result<&'a str> {
        match self.next()? {
            Token::Atom(word) => Ok(word),
            other => self.error(format!("expected a word, found {other:?}")),
        }
    }

    pub(super) fn keyword(&mut self, word: &str) -> Result<()> {
        match self.next()? {
            Token::Atom(found) if found == word => Ok(()),
            other => self.error(format!("expected `{word}`, found {other:?}")),
        }
    }

    /// A `$name`, if one comes next.
    pub(super) fn name(&mut self) -> Option<&'a str> {
        match self.peek() {
            Ok(Token::Atom(word)) if word.starts_with('$') => {
                let _ = self.next();
                Some(word)
            }
            _ => None,
        }
    }

    pub(super) fn string(&mut self) -> Result<Vec<u8>> {
        match self.next()? {
            Token::Str(raw) => unescape(raw).or_else(|message| self.error(message)),
            other => self.error(format!("expected a string, found {other:?}")),
        }
    }

    /// Skips to just past the `)` that closes the form whose `(` was already read, as reading
    /// its tokens would: the scan before encoding skips every function body this way, most of a
    /// module's text. Jumps from parenthesis to parenthesis (`memchr`); a form with a `;` in it
    /// (which may start a comment that hides some) or that does not close is read byte by byte
    /// instead ([`Cursor::skip_form_exactly`]).
    pub(super) fn skip_form(&mut self) -> Result<()> {
        let bytes = self.text.as_bytes();
        let (start, mut i, mut depth) = (self.at, self.at, 1usize);
        while let Some(found) = memchr::memchr3(b'(', b')', b'"', &bytes[i..]) {
            i += found;
            match bytes[i] {
                b'(' if bytes.get(i + 1) == Some(&b';') => break,
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        if memchr::memchr(b';', &bytes[start..i]).is_some() {
                            break;
                        }
                        self.at = i + 1;
                        return Ok(());
                    }
                }
                _ => loop {
                    // A string: to its closing quote, past escapes.
                    i += 1;
                    match memchr::memchr2(b'"', b'\\', &bytes[i..]) {
                        Some(k) if bytes[i + k] == b'\\' => i += k + 1,
                        Some(k) => {
                            i += k;
                            break;
                        }
                        None => return self.skip_form_exactly(),
                    }
                },
            }
            i += 1;
        }
        self.skip_form_exactly()
    }

    /// [`Cursor::skip_form`] byte by byte, with what [`Cursor::next`] reports as errors.
    fn skip_form_exactly(&mut self) -> Result<()> {
        let bytes = self.text.as_bytes();
        let mut depth = 1usize;
        let mut i = self.at;
        while i < bytes.len() {
            match bytes[i] {
                b'(' => {
                    if bytes.get(i + 1) == Some(&b';') {
                        self.at = i;
                        return self.error("block comments are not part of the dialect");
                    }
                    depth += 1;
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.at = i + 1;
                        return Ok(());
                    }
                }
                b'"' => {
                    let start = i;
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    if i >= bytes.len() {
                        self.at = start;
                        return self.error("a string is not closed");
                    }
                }
                // `;;` starts a comment where a token ends, as `next` reads it between tokens;
                // inside an atom it is the atom's.
                b';' if bytes.get(i + 1) == Some(&b';') && (i == 0 || ends_token(bytes[i - 1])) => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        self.at = i;
        self.error("a form is not closed")
    }

    pub(super) fn u32(&mut self) -> Result<u32> {
        let word = self.atom()?;
        parse_int(word)
            .and_then(|n| u32::try_from(n).ok())
            .map_or_else(|| self.error(format!("`{word}` is not a u32")), Ok)
    }
}

/// Whether `byte` ends the token before it (an atom runs up to one of these).
fn ends_token(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\t' | b'\r' | b'(' | b')' | b'"')
}

/// The bytes a WAT string literal stands for.
pub(super) fn unescape(raw: &str) -> std::result::Result<Vec<u8>, String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let escape = *bytes.get(i + 1).ok_or("a string ends in `\\`")?;
        i += 2;
        match escape {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'\\' | b'"' | b'\'' => out.push(escape),
            b'u' => {
                let close = raw[i..].find('}').ok_or("a `\\u{` escape is not closed")?;
                let hex = raw
                    .get(i + 1..i + close)
                    .filter(|_| bytes.get(i) == Some(&b'{'))
                    .ok_or("a `\\u` escape without `{`")?;
                let c = u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or("a `\\u{...}` escape that is not a character")?;
                let mut buffer = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                i += close + 1;
            }
            high => {
                let low = *bytes.get(i).ok_or("a string ends inside an escape")?;
                let digit = |b: u8| (b as char).to_digit(16);
                match (digit(high), digit(low)) {
                    (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                    _ => return Err(format!("an unknown escape `\\{}`", high as char)),
                }
                i += 1;
            }
        }
    }
    Ok(out)
}

/// An integer literal: decimal or `0x` hex, with an optional sign and `_` separators.
pub(super) fn parse_int(word: &str) -> Option<i128> {
    let (negative, digits) = match word.as_bytes().first()? {
        b'-' => (true, &word[1..]),
        b'+' => (false, &word[1..]),
        _ => (false, word),
    };
    let (radix, digits) = match digits.strip_prefix("0x") {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    if digits.is_empty() || digits.starts_with('_') {
        return None;
    }
    let mut value: i128 = 0;
    for b in digits.bytes() {
        if b == b'_' {
            continue;
        }
        let d = (b as char).to_digit(radix)?;
        value = value
            .checked_mul(i128::from(radix))?
            .checked_add(i128::from(d))?;
        if value > i128::from(u64::MAX) {
            return None;
        }
    }
    Some(if negative { -value } else { value })
}
