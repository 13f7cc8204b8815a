//! Format specs of f-string fields parsed at compile time.
//!
//! A field such as `{size:>8}` has a constant spec, and parsing it for every string built
//! showed up in profiles (f-strings in loops are the common case in plans). [`pack`] parses
//! the specs that runtime/wat/fast.wat's `$fsb_push_formatted` lays out in place into one
//! `i64` with the layout documented there; every other spec (grouping, `z`, `#`, a fill that
//! is not one ASCII byte, anything malformed) is left to the runtime, whose parser raises
//! CPython's errors.

/// The packed form of `spec`, or `None` when the runtime must parse it.
pub(crate) fn pack(spec: &str) -> Option<i64> {
    let bytes = spec.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    let is_align = |b: u8| matches!(b, b'<' | b'>' | b'=' | b'^');
    let mut at = 0;
    let mut fill = None;
    let mut align = None;
    if bytes.len() >= 2 && is_align(bytes[1]) {
        // A fill is one char; a multi-byte one goes to the runtime, as its parser would
        // reject packing it anyway.
        if !bytes[0].is_ascii() {
            return None;
        }
        fill = Some(bytes[0]);
        align = Some(bytes[1]);
        at = 2;
    } else if !bytes[0].is_ascii() {
        return None;
    } else if is_align(bytes[0]) {
        align = Some(bytes[0]);
        at = 1;
    }
    let mut sign = 0;
    if let Some(&b @ (b'+' | b'-' | b' ')) = bytes.get(at) {
        sign = b;
        at += 1;
    }
    if matches!(bytes.get(at), Some(b'z' | b'#')) {
        return None;
    }
    let zero = bytes.get(at) == Some(&b'0');
    if zero {
        at += 1;
    }
    let (width, next) = digits(bytes, at)?;
    at = next;
    let width = match width {
        Some(w) => Some(w),
        None if zero => Some(0),
        None => None,
    };
    if matches!(bytes.get(at), Some(b',' | b'_')) {
        return None;
    }
    let mut precision = None;
    if bytes.get(at) == Some(&b'.') {
        let (p, next) = digits(bytes, at + 1)?;
        // `.` without digits is an error the runtime raises.
        precision = Some(p?);
        at = next;
    }
    let ty = match &bytes[at..] {
        [] => 0,
        // (a NUL type is not "no type": the runtime raises CPython's "Unknown format code")
        [t] if t.is_ascii() && *t != 0 => *t,
        _ => return None,
    };
    if zero {
        fill = fill.or(Some(b'0'));
        align = align.or(Some(b'='));
    }
    let fill = fill.unwrap_or(b' ');
    let align = align.unwrap_or(b'>');
    let width = match width {
        Some(w) if w < 0xFFFF => w + 1,
        Some(_) => return None,
        None => 0,
    };
    let precision = match precision {
        Some(p) if p < 0xFF => p + 1,
        Some(_) => return None,
        None => 0,
    };
    Some(
        i64::from(fill)
            | i64::from(align) << 8
            | i64::from(sign) << 16
            | i64::from(ty) << 24
            | (width as i64) << 32
            | (precision as i64) << 48,
    )
}

/// The decimal number at `at` (`None` when there are no digits) and the index after it;
/// `None` overall for a number too large to pack.
fn digits(bytes: &[u8], mut at: usize) -> Option<(Option<u32>, usize)> {
    let start = at;
    let mut n: u32 = 0;
    while let Some(&b) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
        n = n.checked_mul(10)?.checked_add(u32::from(b - b'0'))?;
        at += 1;
    }
    Some(((at > start).then_some(n), at))
}

#[cfg(test)]
mod tests {
    use super::pack;

    /// (fill, align, sign, type, width, precision) of a packed spec.
    fn fields(packed: i64) -> (char, char, u8, u8, i64, i64) {
        let byte = |shift: u32| ((packed >> shift) & 0xFF) as u8;
        (
            char::from(byte(0)),
            char::from(byte(8)),
            byte(16),
            byte(24),
            ((packed >> 32) & 0xFFFF) - 1,
            ((packed >> 48) & 0xFF) - 1,
        )
    }

    #[test]
    fn packs_the_specs_laid_out_in_place() {
        assert_eq!(fields(pack(">8").unwrap()), (' ', '>', 0, 0, 8, -1));
        assert_eq!(fields(pack("02d").unwrap()), ('0', '=', 0, b'd', 2, -1));
        assert_eq!(
            fields(pack("*^+10.3f").unwrap()),
            ('*', '^', b'+', b'f', 10, 3)
        );
        assert_eq!(fields(pack(".2f").unwrap()), (' ', '>', 0, b'f', -1, 2));
        assert_eq!(fields(pack("x<05").unwrap()), ('x', '<', 0, 0, 5, -1));
        assert_eq!(fields(pack("0").unwrap()), ('0', '=', 0, 0, 0, -1));
        assert_eq!(fields(pack(" x").unwrap()), (' ', '>', b' ', b'x', -1, -1));
        // A fill that is itself an align char, and `0` as a fill.
        assert_eq!(fields(pack("<<3").unwrap()), ('<', '<', 0, 0, 3, -1));
        assert_eq!(fields(pack("0>4").unwrap()), ('0', '>', 0, 0, 4, -1));
        // Types the in-place layout does not handle are still packed: it falls back itself.
        assert_eq!(fields(pack("e").unwrap()), (' ', '>', 0, b'e', -1, -1));
    }

    #[test]
    fn leaves_everything_else_to_the_runtime() {
        for spec in [
            "",
            ",",
            "_d",
            "10,.2f",
            "#x",
            "z.1f",
            "é>5",
            "é",
            ".f",
            "..2",
            "5dd",
            "99999999999",
            "65535",
            ".300f",
            "ab",
            "\0",
            ">5\0",
        ] {
            assert_eq!(pack(spec), None, "{spec:?}");
        }
    }
}
