//! Named constants in the runtime's WAT.
//!
//! WAT has no constants, and a bare `(i32.const 5)` does not say that it means "str". Where a
//! type id goes, the fragments write its name from [`baton_abi::type_id::ALL`] with a `TYPE_`
//! prefix — `(i32.const TYPE_STR)` — and [`expand`] substitutes the number once per process,
//! so the runtime, the compiler and the host read every type id from one table.

use baton_abi::type_id;

/// The prefix of a named type id in the WAT.
const TYPE_PREFIX: &str = "TYPE_";

/// `text` (the fragment `file`) with every `TYPE_<NAME>` replaced by its number.
///
/// # Panics
/// On a name [`type_id::ALL`] does not have: the fragments are part of this crate, so every
/// test that assembles a module reports the mistake, with the file and line.
pub(crate) fn expand(file: &str, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(TYPE_PREFIX) {
        let after_word = at == 0 || !is_name_byte(rest.as_bytes()[at - 1]);
        let name_start = at + TYPE_PREFIX.len();
        let name_len = rest[name_start..]
            .bytes()
            .take_while(|&byte| byte.is_ascii_uppercase() || byte == b'_')
            .count();
        let name = &rest[name_start..name_start + name_len];
        out.push_str(&rest[..at]);
        if after_word && !name.is_empty() {
            let Some(&(_, id)) = type_id::ALL.iter().find(|(known, _)| *known == name) else {
                let line = text[..text.len() - rest.len() + at].lines().count();
                panic!("{file}:{line}: unknown type id `{TYPE_PREFIX}{name}`");
            };
            out.push_str(&id.to_string());
        } else {
            out.push_str(&rest[at..name_start + name_len]);
        }
        rest = &rest[name_start + name_len..];
    }
    out.push_str(rest);
    out
}

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_numbers_and_nothing_else_changes() {
        assert_eq!(
            expand(
                "t.wat",
                "(i32.eq (call $tid (local.get $v)) (i32.const TYPE_STR))"
            ),
            "(i32.eq (call $tid (local.get $v)) (i32.const 5))"
        );
        assert_eq!(
            expand(
                "t.wat",
                "(i32.const TYPE_BOUND_METHOD) (i32.const TYPE_STR_BUILDER)"
            ),
            "(i32.const 15) (i32.const 21)"
        );
        // Inside another name (`$MY_TYPE_STR`) it is not a constant.
        let text = "(global.get $MY_TYPE_STR) ;; TYPE_ alone";
        assert_eq!(expand("t.wat", text), text);
    }

    /// A type id compared with a bare number, `(call $tid (local.get $v)) (i32.const 5)`, is what
    /// the names replaced: a new one fails here.
    #[test]
    fn the_fragments_compare_type_ids_by_name() {
        let mut bare = Vec::new();
        for (file, text) in crate::FRAGMENTS {
            for call in ["(call $tid ", "(call $inplace_tid "] {
                for (at, _) in text.match_indices(call) {
                    let mut depth = 0;
                    let end = text[at..]
                        .char_indices()
                        .find_map(|(i, c)| {
                            depth += match c {
                                '(' => 1,
                                ')' => -1,
                                _ => 0,
                            };
                            (depth == 0).then_some(at + i + 1)
                        })
                        .expect("balanced parentheses");
                    let next = text[end..].trim_start_matches(' ');
                    if let Some(number) = next.strip_prefix("(i32.const ") {
                        if number.starts_with(|c: char| c.is_ascii_digit()) {
                            bare.push(format!("{file}:{}", text[..at].lines().count()));
                        }
                    }
                }
            }
        }
        assert!(bare.is_empty(), "type ids as bare numbers: {bare:?}");
    }

    #[test]
    #[should_panic(expected = "t.wat:2: unknown type id `TYPE_STRING`")]
    fn an_unknown_name_is_reported_with_its_place() {
        expand("t.wat", "(nop)\n(i32.const TYPE_STRING)\n");
    }
}
