//! What one run of a plan produced, and the comparison of Baton's run with CPython's.

use std::fmt;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The plan ran to the end.
    Success,
    /// An uncaught exception; its final line, `Type: message` (as CPython prints it last on
    /// stderr).
    Raised(String),
    /// CPython refused the source (a generator bug, or a plan Baton should have refused).
    SyntaxError(String),
    /// Baton's static check refused the plan (the message is the first diagnostic).
    Rejected(String),
    /// Baton's compiler does not handle a construct yet (a coverage gap, not a mismatch).
    Unsupported(String),
    /// A limit (fuel, time, memory, stack) ended the run.
    Limit(String),
    /// Something that must never happen: a wasm trap, an internal compiler error, a panic, a
    /// crashed CPython worker.
    Crash(String),
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Success => f.write_str("success"),
            Ending::Raised(line) => write!(f, "raised {line}"),
            Ending::SyntaxError(line) => write!(f, "syntax error {line}"),
            Ending::Rejected(line) => write!(f, "rejected by the checker: {line}"),
            Ending::Unsupported(line) => write!(f, "unsupported: {line}"),
            Ending::Limit(line) => write!(f, "limit: {line}"),
            Ending::Crash(line) => write!(f, "crash: {line}"),
        }
    }
}

/// Stdout and ending of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub ending: Ending,
}

/// The kind of a mismatch: what the reducer must preserve, and what findings are grouped by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The printed output differs (endings agree or differ as a consequence).
    Stdout,
    /// One run succeeded and the other raised.
    Ending { baton: String, python: String },
    /// Both raised, with different exception types.
    ExceptionType { baton: String, python: String },
    /// Both raised the same type with different messages.
    ExceptionMessage { ty: String },
    /// Baton crashed (trap, internal compiler error, panic).
    Crash { what: String },
    /// CPython refused a plan Baton accepted.
    Accepted { python: String },
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Stdout => f.write_str("stdout differs"),
            Kind::Ending { baton, python } => {
                write!(f, "ending differs: Baton {baton}, CPython {python}")
            }
            Kind::ExceptionType { baton, python } => {
                write!(f, "exception type differs: Baton {baton}, CPython {python}")
            }
            Kind::ExceptionMessage { ty } => write!(f, "message of {ty} differs"),
            Kind::Crash { what } => write!(f, "Baton crashed: {what}"),
            Kind::Accepted { python } => {
                write!(f, "Baton accepted a plan CPython rejects: {python}")
            }
        }
    }
}

/// The result of comparing two runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Same stdout and same ending.
    Same,
    /// A documented deviation (e.g. Baton's OverflowError beyond 64-bit ints).
    Deviation(&'static str),
    /// Not comparable (a limit, an unsupported construct, CPython timed out); the reason.
    Skipped(String),
    /// A real difference.
    Mismatch(Kind),
}

/// The exception type of a final exception line (`json.decoder.JSONDecodeError: x` →
/// `json.decoder.JSONDecodeError`).
pub fn exception_type(line: &str) -> &str {
    line.split_once(':').map_or(line, |(ty, _)| ty).trim()
}

/// The last non-empty line of a traceback.
pub fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string()
}

/// The exception part of a traceback: what follows its last `  File "..."` frame line (or the
/// line that folds repeated frames, `  [Previous line repeated N more times]`), which spans
/// several lines when the message has newlines (`ValueError: \nx`), as CPython's
/// `format_exception_only(...)[-1]` does.
pub fn exception_text(traceback: &str) -> String {
    let lines: Vec<&str> = traceback.lines().collect();
    let start = lines
        .iter()
        .rposition(|line| {
            line.starts_with("  File \"") || line.starts_with("  [Previous line repeated ")
        })
        .map_or(
            usize::from(lines.first().is_some_and(|l| l.starts_with("Traceback"))),
            |i| i + 1,
        );
    let text = lines[start.min(lines.len())..].join("\n");
    if text.trim().is_empty() {
        last_line(traceback)
    } else {
        // Only the newline: a message may end in spaces (`ValueError(' a ')`).
        text.trim_end_matches('\n').to_string()
    }
}

fn short_ending(ending: &Ending) -> String {
    match ending {
        Ending::Success => "success".to_string(),
        Ending::Raised(line) => exception_type(line).to_string(),
        other => other.to_string(),
    }
}

/// Baton raises OverflowError where CPython computes a big int (a documented deviation):
/// Baton's run mentions OverflowError and CPython's does not.
fn overflow_deviation(baton: &Outcome, python: &Outcome) -> bool {
    let mentions = |o: &Outcome| {
        o.stdout.contains("OverflowError")
            || matches!(&o.ending, Ending::Raised(l) if l.starts_with("OverflowError"))
    };
    mentions(baton) && !mentions(python)
}

/// Baton raised MemoryError (ending in it, or printing it) where CPython did not: the plan's
/// memory reached the tester's limit (128 MiB, `baton.rs`), which CPython does not have.
/// A limit, not compared.
fn memory_limit(baton: &Outcome, python: &Outcome) -> bool {
    let mentions = |o: &Outcome| {
        o.stdout.contains("MemoryError")
            || matches!(&o.ending, Ending::Raised(l) if exception_type(l) == "MemoryError")
    };
    mentions(baton) && !mentions(python)
}

/// Baton has no complex numbers: `negative ** fractional` raises ValueError (CPython's message
/// for floats without complex support) where CPython computes a complex number.
const NO_COMPLEX: &str = "negative number cannot be raised to a fractional power";

fn complex_deviation(baton: &Outcome, python: &Outcome) -> bool {
    let mentions = |o: &Outcome| {
        o.stdout.contains(NO_COMPLEX)
            || matches!(&o.ending, Ending::Raised(l) if l.contains(NO_COMPLEX))
    };
    mentions(baton) && !mentions(python)
}

/// Both runs ended in RecursionError, and one printed the start of what the other printed: the
/// recursion stopped at another depth. CPython also counts a builtin called at every level
/// (`print(repr(x))` in a recursive function) toward its limit, so such a recursion stops a
/// level or more before Baton's, whose limit counts the plan's own frames (a documented
/// deviation, README: "Where Baton differs from CPython on purpose").
fn recursion_depth_deviation(baton: &Outcome, python: &Outcome) -> bool {
    let recursion = |o: &Outcome| matches!(&o.ending, Ending::Raised(line) if exception_type(line) == "RecursionError");
    recursion(baton)
        && recursion(python)
        && (baton.stdout.starts_with(&python.stdout) || python.stdout.starts_with(&baton.stdout))
}

/// `text` with the addresses in object reprs (`<function f at 0x7f3a...>`) masked: CPython's are
/// memory addresses, different in every process, so no two runs can agree on them. A repr cut
/// short (`repr(x).split(" at ")[-1]` prints `0x7f3a...>`) keeps its address masked too.
pub fn mask_addresses(text: &str) -> String {
    const MARK: &str = "0x";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        let (before, after) = rest.split_at(at + MARK.len());
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        // An address, not a number that happens to be written in hex: it ends the repr, or
        // follows `object at` (a repr cut short).
        if digits > 0 && (after[digits..].starts_with('>') || before.ends_with(" at 0x")) {
            out.push('_');
            rest = &after[digits..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// `text` with the items of every `{...}` without a top-level `:` (a set display) sorted, inner
/// displays first (`{frozenset({2, 1}), frozenset({0})}`): Baton prints a set in insertion
/// order, CPython in hash order (a documented deviation), so two outputs that differ only
/// there are the same set. Brackets are matched, so a tuple or list inside a set is one item.
pub fn sort_set_displays(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match matching_brace(after) {
            Some(close) => {
                let inner = sort_set_displays(&after[..close]);
                out.push('{');
                if at_top_level(&inner).any(|(_, c)| c == ':') {
                    out.push_str(&inner);
                } else {
                    let mut items = split_top_level(&inner);
                    items.sort_unstable();
                    out.push_str(&items.join(", "));
                }
                out.push('}');
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The characters of `text` outside any bracket pair, with their byte offsets.
fn at_top_level(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut depth = 0usize;
    text.char_indices().filter(move |&(_, c)| {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => return depth == 0,
        }
        false
    })
}

/// Where the `}` that closes a display whose contents start `text` is, if its brackets match.
fn matching_brace(text: &str) -> Option<usize> {
    let mut stack = Vec::new();
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match stack.pop() {
                    Some(open) if open == want => {}
                    None if c == '}' => return Some(at),
                    _ => return None,
                }
            }
            _ => {}
        }
    }
    None
}

/// The items of `text` split at its top-level `, `.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut start = 0;
    for (at, c) in at_top_level(text) {
        if c == ',' && text[at + 1..].starts_with(' ') {
            items.push(&text[start..at]);
            start = at + 2;
        }
    }
    items.push(&text[start..]);
    items
}

/// `text` with the two type names of every "not supported between instances of 'A' and 'B'"
/// in sorted order. Sorting a set whose items cannot be ordered fails on the first pair the
/// sort compares, and which pair that is follows the set's iteration order — insertion order in
/// Baton, hash order in CPython (the documented deviation) — so the names may come swapped.
pub fn sort_compared_types(text: &str) -> String {
    const MARK: &str = "not supported between instances of '";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        let start = at + MARK.len();
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let pair = after.find("' and '").and_then(|mid| {
            let second = &after[mid + 7..];
            second
                .find('\'')
                .map(|end| (&after[..mid], &second[..end], mid + 7 + end + 1))
        });
        match pair {
            Some((a, b, used)) => {
                let (first, second) = if a <= b { (a, b) } else { (b, a) };
                out.push_str(first);
                out.push_str("' and '");
                out.push_str(second);
                out.push('\'');
                rest = &after[used..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// `text` (CPython's output) with typing's container aliases written as the builtin types
/// Baton's are (README, "Where Baton differs"): `typing.List` and `typing.List[int]` as
/// `<class 'list'>`.
pub fn typing_aliases_as_types(text: &str) -> String {
    const ALIASES: [(&str, &str); 5] = [
        ("FrozenSet", "frozenset"),
        ("List", "list"),
        ("Dict", "dict"),
        ("Tuple", "tuple"),
        ("Set", "set"),
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("typing.") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "typing.".len()..];
        let alias = ALIASES.iter().find(|(alias, _)| {
            after.starts_with(alias)
                && !after[alias.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        });
        let Some((alias, builtin)) = alias else {
            out.push_str("typing.");
            rest = after;
            continue;
        };
        out.push_str(&format!("<class '{builtin}'>"));
        rest = &after[alias.len()..];
        // A subscript (`[int, str]`, nested brackets too) is the type itself in Baton.
        if rest.starts_with('[') {
            let mut depth = 0usize;
            let mut end = rest.len();
            for (i, c) in rest.char_indices() {
                match c {
                    '[' => depth += 1,
                    ']' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

/// `text` (CPython's output) with re's flags written as Baton's ints: `re.IGNORECASE|re.M...`
/// as its value, and the type name `'RegexFlag'` as `'int'`. CPython's flags are members of
/// the RegexFlag enum; Baton's are ints (a documented deviation), which print and name their
/// type as ints.
pub fn regex_flags_as_ints(text: &str) -> String {
    const FLAGS: [(&str, u32); 10] = [
        ("NOFLAG", 0),
        ("TEMPLATE", 1),
        ("IGNORECASE", 2),
        ("LOCALE", 4),
        ("MULTILINE", 8),
        ("DOTALL", 16),
        ("UNICODE", 32),
        ("VERBOSE", 64),
        ("DEBUG", 128),
        ("ASCII", 256),
    ];
    let flag_at = |rest: &str| -> Option<(u32, usize)> {
        let name = rest.strip_prefix("re.")?;
        FLAGS
            .iter()
            .filter(|(flag, _)| {
                name.starts_with(flag)
                    && !name[flag.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            })
            .map(|&(flag, value)| (value, 3 + flag.len()))
            .next()
    };
    let text = text.replace("'RegexFlag'", "'int'");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("re.") {
        let preceded = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match flag_at(rest).filter(|_| !preceded) {
            Some((mut value, mut used)) => {
                while let Some(next) = rest[used..].strip_prefix('|').and_then(flag_at) {
                    value |= next.0;
                    used += 1 + next.1;
                }
                out.push_str(&value.to_string());
                rest = &rest[used..];
            }
            None => {
                out.push_str("re.");
                rest = &rest[3..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Compares Baton's run with CPython's.
pub fn compare(baton: &Outcome, python: &Outcome) -> Verdict {
    match &python.ending {
        Ending::Crash(what) => return Verdict::Skipped(format!("CPython worker: {what}")),
        Ending::Limit(what) => return Verdict::Skipped(format!("CPython {what}")),
        _ => {}
    }
    match &baton.ending {
        Ending::Unsupported(what) => return Verdict::Skipped(format!("unsupported: {what}")),
        Ending::Rejected(what) => return Verdict::Skipped(format!("rejected: {what}")),
        Ending::Limit(what) => return Verdict::Skipped(format!("Baton {what}")),
        Ending::Crash(what) => {
            return Verdict::Mismatch(Kind::Crash {
                what: crash_class(what),
            })
        }
        _ => {}
    }
    if let Ending::SyntaxError(line) = &python.ending {
        return Verdict::Mismatch(Kind::Accepted {
            python: line.clone(),
        });
    }
    let same_stdout = baton.stdout == python.stdout
        || mask_addresses(&baton.stdout) == mask_addresses(&python.stdout);
    if same_stdout && baton.ending == python.ending {
        return Verdict::Same;
    }
    if memory_limit(baton, python) {
        return Verdict::Skipped("Baton memory limit (MemoryError)".to_owned());
    }
    if overflow_deviation(baton, python) {
        return Verdict::Deviation("OverflowError beyond 64-bit ints");
    }
    if complex_deviation(baton, python) {
        return Verdict::Deviation("no complex numbers (negative ** fractional)");
    }
    if recursion_depth_deviation(baton, python) {
        return Verdict::Deviation("recursion depth (CPython counts builtins called at the limit)");
    }
    if baton.ending == python.ending
        && sort_set_displays(&mask_addresses(&baton.stdout))
            == sort_set_displays(&mask_addresses(&python.stdout))
    {
        return Verdict::Deviation("set print order");
    }
    let flags_as_ints = |ending: &Ending| match ending {
        Ending::Raised(line) => Ending::Raised(regex_flags_as_ints(line)),
        other => other.clone(),
    };
    // Both sides mapped: a pattern's repr names its flags in Baton's output too
    // (`re.compile('a', re.IGNORECASE)`).
    if flags_as_ints(&baton.ending) == flags_as_ints(&python.ending)
        && mask_addresses(&regex_flags_as_ints(&baton.stdout))
            == mask_addresses(&regex_flags_as_ints(&python.stdout))
    {
        return Verdict::Deviation("re's flags are ints (CPython's print as re.NAME)");
    }
    if regex_debug_dump_only(baton, python) {
        return Verdict::Deviation("re.DEBUG's dump is not printed");
    }
    if baton.ending == python.ending
        && mask_addresses(&baton.stdout) == mask_addresses(&typing_aliases_as_types(&python.stdout))
    {
        return Verdict::Deviation("typing's container aliases are the builtin types");
    }
    let unordered = |o: &Outcome| {
        let ending = match &o.ending {
            Ending::Raised(line) => Ending::Raised(sort_compared_types(line)),
            other => other.clone(),
        };
        (
            sort_compared_types(&sort_set_displays(&mask_addresses(&o.stdout))),
            ending,
        )
    };
    if unordered(baton) == unordered(python) {
        return Verdict::Deviation(
            "set iteration order (which unorderable pair is compared first)",
        );
    }
    if !same_stdout {
        return Verdict::Mismatch(Kind::Stdout);
    }
    match (&baton.ending, &python.ending) {
        (Ending::Raised(b), Ending::Raised(p)) => {
            let (bt, pt) = (exception_type(b), exception_type(p));
            if bt != pt {
                Verdict::Mismatch(Kind::ExceptionType {
                    baton: bt.to_string(),
                    python: pt.to_string(),
                })
            } else {
                Verdict::Mismatch(Kind::ExceptionMessage { ty: bt.to_string() })
            }
        }
        (b, p) => Verdict::Mismatch(Kind::Ending {
            baton: short_ending(b),
            python: short_ending(p),
        }),
    }
}

/// Both runs ended the same way and printed the same lines with, in some lines, the same
/// items in another order (`print(*s)` of a set: insertion order in Baton, hash order in
/// CPython). Whether that is the set-order deviation depends on the program (see
/// `driver::classify`): a sort that went wrong prints the same way.
pub fn items_permuted(baton: &Outcome, python: &Outcome) -> bool {
    let items = |line: &str| {
        let mut items: Vec<String> = line
            .split_whitespace()
            .map(|item| {
                item.trim_matches(|c| matches!(c, ',' | '[' | ']' | '(' | ')'))
                    .to_owned()
            })
            .collect();
        items.sort_unstable();
        items
    };
    let sorted_lines = |o: &Outcome| {
        let mut lines: Vec<Vec<String>> = o.stdout.lines().map(items).collect();
        lines.sort_unstable();
        lines
    };
    // Items in another order within lines, or whole lines (one printed per item of a set, or
    // by a `key=` function called per item) in another order.
    baton.ending == python.ending
        && baton.stdout.lines().count() == python.stdout.lines().count()
        && sorted_lines(baton) == sorted_lines(python)
}

/// Both runs ended alike and printed the same lines, but for lines that hold the same items in
/// another order, each of at least [`LONG_SORT`] items: what a `list.sort` whose comparison raised
/// leaves behind in a list long enough for timsort to merge runs (Baton merges without
/// timsort's galloping, README "Where Baton differs"; the language leaves that order
/// unspecified). Whether it is that deviation depends on the program (see `driver::classify`).
pub fn long_list_left_reordered(baton: &Outcome, python: &Outcome) -> bool {
    let items = |line: &str| -> Vec<String> {
        line.split(", ")
            .map(|item| item.trim_matches(|c| matches!(c, '[' | ']')).to_owned())
            .collect()
    };
    let (b, p): (Vec<&str>, Vec<&str>) = (
        baton.stdout.lines().collect(),
        python.stdout.lines().collect(),
    );
    let mut reordered = false;
    let same_lines = b.len() == p.len()
        && b.iter().zip(&p).all(|(bl, pl)| {
            if bl == pl {
                return true;
            }
            let (mut bi, mut pi) = (items(bl), items(pl));
            if bi.len() < LONG_SORT {
                return false;
            }
            bi.sort_unstable();
            pi.sort_unstable();
            reordered = true;
            bi == pi
        });
    baton.ending == python.ending && same_lines && reordered
}

/// The shortest list timsort merges runs of (CPython's minrun is at most 64): shorter lists are
/// one binary insertion sort, whose partial order Baton keeps exactly.
pub const LONG_SORT: usize = 64;

/// Both runs ended alike, and CPython printed Baton's lines with re.DEBUG's dump among them (the
/// parsed pattern and the compiled code, `re._parser.SubPattern.dump` and `re._compiler.dis`),
/// which Baton does not print (README "Where Baton differs").
pub fn regex_debug_dump_only(baton: &Outcome, python: &Outcome) -> bool {
    const WORDS: &[&str] = &[
        "FAILURE",
        "SUCCESS",
        "ANY",
        "ANY_ALL",
        "ASSERT",
        "ASSERT_NOT",
        "AT",
        "BRANCH",
        "CATEGORY",
        "CHARSET",
        "BIGCHARSET",
        "GROUPREF",
        "GROUPREF_EXISTS",
        "IN",
        "INFO",
        "JUMP",
        "LITERAL",
        "MARK",
        "MAX_UNTIL",
        "MIN_UNTIL",
        "NOT_LITERAL",
        "NEGATE",
        "RANGE",
        "REPEAT",
        "REPEAT_ONE",
        "SUBPATTERN",
        "MIN_REPEAT_ONE",
        "ATOMIC_GROUP",
        "POSSESSIVE_REPEAT",
        "POSSESSIVE_REPEAT_ONE",
        "GROUPREF_IGNORE",
        "IN_IGNORE",
        "LITERAL_IGNORE",
        "NOT_LITERAL_IGNORE",
        "GROUPREF_LOC_IGNORE",
        "IN_LOC_IGNORE",
        "LITERAL_LOC_IGNORE",
        "NOT_LITERAL_LOC_IGNORE",
        "GROUPREF_UNI_IGNORE",
        "IN_UNI_IGNORE",
        "LITERAL_UNI_IGNORE",
        "NOT_LITERAL_UNI_IGNORE",
        "RANGE_UNI_IGNORE",
        "MAX_REPEAT",
        "MIN_REPEAT",
        "OR",
        "ELSE",
        "branch",
        "prefix_skip",
        "prefix",
        "overlap",
        "in",
    ];
    // A line of the dump: blank, or an opcode (after the compiled code's "12." or "12:"
    // offset), or an indented list of code words.
    let dump_line = |line: &str| {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || (line.len() > trimmed.len() && trimmed.starts_with('[')) {
            return true;
        }
        let mut words = trimmed.split_whitespace();
        let mut first = words.next().unwrap_or("");
        if first.len() > 1
            && first.ends_with(['.', ':'])
            && first[..first.len() - 1].bytes().all(|b| b.is_ascii_digit())
        {
            first = words.next().unwrap_or("");
        }
        WORDS.contains(&first)
    };
    let baton_stdout = mask_addresses(&baton.stdout);
    let python_stdout = mask_addresses(&python.stdout);
    let mut python_lines = python_stdout.lines();
    let mut skipped_words = false;
    for line in baton_stdout.lines() {
        loop {
            let Some(next) = python_lines.next() else {
                return false;
            };
            if next == line {
                break;
            }
            if !dump_line(next) {
                return false;
            }
            skipped_words |= !next.trim().is_empty();
        }
    }
    for rest in python_lines {
        if !dump_line(rest) {
            return false;
        }
        skipped_words |= !rest.trim().is_empty();
    }
    baton.ending == python.ending && skipped_words
}

/// Both runs printed the same lines and ended alike but for the type names quoted in some
/// error messages (`'str' object cannot be interpreted as an integer` where CPython's names
/// `'tuple'`): a loop over a set met another item first, whose type the error names. Whether
/// that is the set-order deviation depends on the program (see `driver::classify`).
pub fn other_type_first(baton: &Outcome, python: &Outcome) -> bool {
    // Each quoted word (a type name) as a placeholder.
    let unnamed = |text: &str| -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('\'') {
            out.push_str(&rest[..=open]);
            let after = &rest[open + 1..];
            let word = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(after.len());
            if word > 0 && after[word..].starts_with('\'') {
                out.push_str("T'");
                rest = &after[word + 1..];
            } else {
                rest = after;
            }
        }
        out.push_str(rest);
        out
    };
    let ending = |o: &Outcome| match &o.ending {
        Ending::Raised(line) => Ending::Raised(unnamed(line)),
        other => other.clone(),
    };
    baton.stdout != python.stdout
        && unnamed(&baton.stdout) == unnamed(&python.stdout)
        && ending(baton) == ending(python)
}

/// The first words of a crash message, without addresses or numbers, so that one bug is one
/// kind.
fn crash_class(what: &str) -> String {
    let first = what.lines().next().unwrap_or("");
    let cleaned: String = first
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .take(80)
        .collect();
    cleaned
}

/// The first line where two outputs differ: `(line number from 1, Baton's line, CPython's
/// line)`, `None` when equal.
pub fn first_difference(baton: &str, python: &str) -> Option<(usize, String, String)> {
    let mut b = baton.split_inclusive('\n');
    let mut p = python.split_inclusive('\n');
    let mut n = 0;
    loop {
        n += 1;
        match (b.next(), p.next()) {
            (None, None) => return None,
            (x, y) if x == y => continue,
            (x, y) => {
                let show = |l: Option<&str>| match l {
                    None => "<end of output>".to_string(),
                    Some(l) => format!("{:?}", l),
                };
                return Some((n, show(x), show(y)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(stdout: &str, ending: Ending) -> Outcome {
        Outcome {
            stdout: stdout.to_string(),
            ending,
        }
    }

    #[test]
    fn regex_flags_read_as_ints() {
        assert_eq!(regex_flags_as_ints("re.VERBOSE\n"), "64\n");
        assert_eq!(
            typing_aliases_as_types("typing.List typing.Dict[str, typing.List[int]] typing.Any\n"),
            "<class 'list'> <class 'dict'> typing.Any\n"
        );
        assert_eq!(typing_aliases_as_types("typing.Listing"), "typing.Listing");
        assert_eq!(
            regex_flags_as_ints("x re.IGNORECASE|re.MULTILINE y"),
            "x 10 y"
        );
        assert_eq!(
            regex_flags_as_ints("for &: 'type' and 'RegexFlag'"),
            "for &: 'type' and 'int'"
        );
        // Not a flag: another name, or `re.` inside a longer name.
        assert_eq!(
            regex_flags_as_ints("re.Ix more.DOTALL re.compile"),
            "re.Ix more.DOTALL re.compile"
        );
        let flags = out("re.VERBOSE\n", Ending::Success);
        let ints = out("64\n", Ending::Success);
        assert!(matches!(compare(&ints, &flags), Verdict::Deviation(_)));
        assert_eq!(
            compare(&out("65\n", Ending::Success), &flags),
            Verdict::Mismatch(Kind::Stdout)
        );
        // A pattern's repr names its flags on both sides (hour finding, seed 229).
        let repr = "re.compile('a', re.IGNORECASE)\n";
        let baton = out(&format!("{repr}2\n"), Ending::Success);
        let python = out(&format!("{repr}re.IGNORECASE\n"), Ending::Success);
        assert!(matches!(compare(&baton, &python), Verdict::Deviation(_)));
        let other = out(&format!("{repr}3\n"), Ending::Success);
        assert_eq!(compare(&other, &python), Verdict::Mismatch(Kind::Stdout));
    }

    #[test]
    fn swapped_comparison_types_are_the_set_order_deviation() {
        let message =
            |a: &str, b: &str| format!("'<' not supported between instances of '{a}' and '{b}'\n");
        let baton = out(&message("int", "tuple"), Ending::Success);
        let python = out(&message("tuple", "int"), Ending::Success);
        assert!(matches!(compare(&baton, &python), Verdict::Deviation(_)));
        let other = out(&message("str", "int"), Ending::Success);
        assert_eq!(compare(&other, &python), Verdict::Mismatch(Kind::Stdout));
        let m = "not supported between instances of '";
        assert_eq!(
            sort_compared_types(&format!("x {m}b' and 'a' y {m}c")),
            format!("x {m}a' and 'b' y {m}c")
        );
    }

    #[test]
    fn equal_runs_are_the_same() {
        let a = out("1\n", Ending::Raised("KeyError: 'a'".into()));
        assert_eq!(compare(&a, &a.clone()), Verdict::Same);
    }

    #[test]
    fn differences_are_classified() {
        let ok = out("1\n", Ending::Success);
        let other = out("2\n", Ending::Success);
        assert_eq!(compare(&ok, &other), Verdict::Mismatch(Kind::Stdout));
        let raised = out("1\n", Ending::Raised("ValueError: x".into()));
        assert_eq!(
            compare(&ok, &raised),
            Verdict::Mismatch(Kind::Ending {
                baton: "success".into(),
                python: "ValueError".into()
            })
        );
        let type_error = out("1\n", Ending::Raised("TypeError: x".into()));
        assert_eq!(
            compare(&type_error, &raised),
            Verdict::Mismatch(Kind::ExceptionType {
                baton: "TypeError".into(),
                python: "ValueError".into()
            })
        );
        let other_message = out("1\n", Ending::Raised("ValueError: y".into()));
        assert_eq!(
            compare(&other_message, &raised),
            Verdict::Mismatch(Kind::ExceptionMessage {
                ty: "ValueError".into()
            })
        );
        let trap = out(
            "",
            Ending::Crash("the plan trapped: unreachable at 0x12".into()),
        );
        assert!(matches!(
            compare(&trap, &ok),
            Verdict::Mismatch(Kind::Crash { .. })
        ));
    }

    #[test]
    fn object_addresses_are_not_compared() {
        assert_eq!(
            mask_addresses("<function f at 0x7fb7fa3fe480> x at 0xzz <lambda at 0xa7>"),
            "<function f at 0x_> x at 0xzz <lambda at 0x_>"
        );
        let baton = out("<function <lambda> at 0xa780>\n", Ending::Success);
        let python = out("<function <lambda> at 0x7fb7fa3fe480>\n", Ending::Success);
        assert!(matches!(compare(&baton, &python), Verdict::Same));
        let other = out("<function <lambda> at 0xa780>!\n", Ending::Success);
        assert!(matches!(compare(&other, &python), Verdict::Mismatch(_)));
    }

    #[test]
    fn set_print_order_is_a_deviation() {
        assert_eq!(
            sort_set_displays("{7, -3, 2} {'a': {2, 1}} {}"),
            "{-3, 2, 7} {'a': {1, 2}} {}"
        );
        // Nested displays sort inside out; a tuple is one item; unmatched brackets stay.
        assert_eq!(
            sort_set_displays("{frozenset({2, 1}), frozenset({0})} {(2, 1), (0, 5)} {x)"),
            "{frozenset({0}), frozenset({1, 2})} {(0, 5), (2, 1)} {x)"
        );
        let baton = out("{7, -3, 2}\n", Ending::Success);
        let python = out("{2, -3, 7}\n", Ending::Success);
        assert!(matches!(compare(&baton, &python), Verdict::Deviation(_)));
        let other = out("{2, -3, 8}\n", Ending::Success);
        assert!(matches!(compare(&other, &python), Verdict::Mismatch(_)));
    }

    #[test]
    fn no_complex_numbers_is_a_deviation() {
        let baton = out("", Ending::Raised(format!("ValueError: {NO_COMPLEX}")));
        let python = out("(1e-16+1.8j)\n", Ending::Success);
        assert!(matches!(compare(&baton, &python), Verdict::Deviation(_)));
    }

    #[test]
    fn overflow_is_a_deviation_only_when_cpython_did_not_overflow() {
        let baton = out("", Ending::Raised("OverflowError: int too large".into()));
        let python = out("", Ending::Success);
        assert!(matches!(compare(&baton, &python), Verdict::Deviation(_)));
        let both = out("", Ending::Raised("OverflowError: math range error".into()));
        assert!(matches!(
            compare(&baton, &both),
            Verdict::Mismatch(Kind::ExceptionMessage { .. })
        ));
    }

    #[test]
    fn a_recursion_stopped_at_another_depth_is_a_deviation() {
        let raised = |line: &str| Ending::Raised(line.into());
        let baton = out(
            "False\nFalse\nFalse\n",
            raised("RecursionError: maximum recursion depth exceeded"),
        );
        let python = out(
            "False\nFalse\n",
            raised(
                "RecursionError: maximum recursion depth exceeded while calling a Python object",
            ),
        );
        assert!(matches!(compare(&baton, &python), Verdict::Deviation(_)));
        // Other output, or another exception, is still a mismatch.
        let other = out(
            "True\n",
            raised("RecursionError: maximum recursion depth exceeded"),
        );
        assert!(matches!(compare(&other, &python), Verdict::Mismatch(_)));
        let value_error = out("False\n", raised("ValueError: x"));
        assert!(matches!(
            compare(&baton, &value_error),
            Verdict::Mismatch(_)
        ));
    }

    #[test]
    fn limits_and_gaps_are_skipped() {
        let ok = out("", Ending::Success);
        let limit = out("", Ending::Limit("CPU".into()));
        let gap = out("", Ending::Unsupported("class".into()));
        assert!(matches!(compare(&limit, &ok), Verdict::Skipped(_)));
        assert!(matches!(compare(&gap, &ok), Verdict::Skipped(_)));
        assert!(matches!(compare(&ok, &limit), Verdict::Skipped(_)));
        // A MemoryError under the tester's memory limit is a limit too; a difference beside
        // one CPython also raised is not.
        let memory = out("", Ending::Raised("MemoryError".into()));
        let printed = out("1\n", Ending::Success);
        assert!(matches!(compare(&memory, &printed), Verdict::Skipped(_)));
        assert!(matches!(
            compare(&memory, &out("2\n", Ending::Raised("MemoryError".into()))),
            Verdict::Mismatch(_)
        ));
    }

    #[test]
    fn another_type_named_first_is_recognised() {
        let baton = out(
            "'str' object cannot be interpreted as an integer\n",
            Ending::Success,
        );
        let python = out(
            "'tuple' object cannot be interpreted as an integer\n",
            Ending::Success,
        );
        assert!(other_type_first(&baton, &python));
        let other_words = out("'tuple' object is not callable\n", Ending::Success);
        assert!(!other_type_first(&baton, &other_words));
        assert!(!other_type_first(&baton, &baton));
    }

    #[test]
    fn a_repr_cut_short_still_has_its_address_masked() {
        assert_eq!(
            mask_addresses("<callable_iterator object at 0x7f9180eff8e0\n"),
            mask_addresses("<callable_iterator object at 0x7f00000a0a70\n")
        );
        assert_ne!(mask_addresses("x = 0x1f\n"), mask_addresses("x = 0x2f\n"));
    }

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        let (n, b, p) = first_difference("a\nb\n", "a\nc\n").unwrap();
        assert_eq!((n, b.as_str(), p.as_str()), (2, "\"b\\n\"", "\"c\\n\""));
        assert_eq!(
            first_difference("a\n", "a\nx\n").unwrap().1,
            "<end of output>"
        );
    }

    #[test]
    fn exception_lines_are_split() {
        assert_eq!(exception_type("KeyError: 'a'"), "KeyError");
        assert_eq!(exception_type("AssertionError"), "AssertionError");
        assert_eq!(
            last_line("Traceback\n  x\nValueError: y\n\n"),
            "ValueError: y"
        );
        let multiline = "Traceback (most recent call last):\n  File \"p.py\", line 2, in f\n\
                         ValueError: \nsecond line\n";
        assert_eq!(exception_text(multiline), "ValueError: \nsecond line");
        assert_eq!(
            exception_text("Traceback (most recent call last):\n  File \"p.py\", line 1, in <module>\nValueError:  a \n"),
            "ValueError:  a "
        );
        assert_eq!(
            exception_text("Traceback (most recent call last):\nKeyError: 'k'\n"),
            "KeyError: 'k'"
        );
        // Repeated frames folded, as CPython and Baton print a deep recursion.
        assert_eq!(
            exception_text(
                "Traceback (most recent call last):\n  File \"p.py\", line 4, in f\n\
                 \x20 [Previous line repeated 198 more times]\nIndexError: list index out of range\n"
            ),
            "IndexError: list index out of range"
        );
    }

    #[test]
    fn re_debug_dump_lines_are_the_only_difference_allowed() {
        let out = |stdout: &str| Outcome {
            stdout: stdout.to_string(),
            ending: Ending::Success,
        };
        let dump = "LITERAL 97\n\n 0. INFO 8 0b11 1 1 (to 9)\n      prefix_skip 1\n      prefix [0x61] ('a')\n      overlap [0]\n 9: LITERAL 0x61 ('a')\n11. SUCCESS\n";
        let baton = out("re.compile('a', re.DEBUG)\ndone\n");
        let python = out(&format!("{dump}re.compile('a', re.DEBUG)\ndone\n"));
        assert!(regex_debug_dump_only(&baton, &python));
        assert!(matches!(compare(&baton, &python), Verdict::Deviation(_)));
        // A line of the program's own that Baton lacks is a difference, dump or not.
        let python = out(&format!("{dump}re.compile('a', re.DEBUG)\nextra\ndone\n"));
        assert!(!regex_debug_dump_only(&baton, &python));
        // Blank lines alone are no dump.
        let python = out("\nre.compile('a', re.DEBUG)\ndone\n");
        assert!(!regex_debug_dump_only(&baton, &python));
        // Baton printing what CPython did not is not excused.
        assert!(!regex_debug_dump_only(&python, &baton));
    }
}
