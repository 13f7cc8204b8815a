//! Which writes of a shadowed local need no shadow slot: those whose value no collection can
//! happen to while the function still needs it.
//!
//! The shadow pass (`shadow.rs`) writes a value through to its local's slot so that the
//! collector finds it at a safe point. A slot store costs Cranelift about as much to compile as
//! a call's argument (~25,000 instructions each: a generated plan of 850 lines had ~1,650), and
//! many of the values written are dead before anything can collect: a temp that carries a
//! list from `$list_of3` into a global, a dict from `$dict_new` through its `$dict_set`s. This
//! pass finds them, so the shadow pass leaves their stores out (that plan: 1,645 -> 1,203 slot
//! stores, 3.5% less to compile).
//!
//! Collections happen only at safe points (docs/abi.md, "Roots"): at a `loop`'s head, and inside
//! a call of anything but the runtime functions that never reach one
//! (`RuntimeModule::never_collects`). A value passed to a call as an argument is the callee's to
//! keep (plan functions root their parameters before their entry safe point; runtime functions
//! root what they hold across plan code). So a write of `$x` needs its slot only if, after it,
//! `$x`'s value is read once a collection may have happened, or a read of it waits on the wasm
//! stack while a later operand calls something that may collect.
//!
//! The analysis reads the function's text forward from the write, in evaluation order (folded
//! WAT evaluates operands left to right, each instruction when its parenthesis closes), and
//! answers "no slot needed" only when it sees the whole rest of the value's life:
//! - it ends at a later write of `$x` that runs whenever the code after the first one does (not
//!   inside an `if` opened after the first write, nor after a branch, nor while a `try_table` is
//!   open: a call before it may throw, and the handler still sees the first value), or at the
//!   function's end (or a `then`'s, whose `else` does not run after it);
//! - every read of `$x` before that comes before any call that may collect and any `loop`, and
//!   is consumed by an instruction that does not pass the value on (a store, a call, a
//!   comparison, a load from the object; through a conversion or as a block's result, by the
//!   instruction around it: not a `local.tee`, an `if`'s result or a `select`) before any such
//!   call runs;
//! - no branch goes back to the head of a `loop` around the write (its body may read the value
//!   in a later iteration).
//!
//! A throw goes to a handler after its `try_table`, forward, so reading on reads the handler
//! too; where a branch (`br`, `br_if`, `return`) leaves code out, the analysis reads on through
//! it as if it ran, which only sees more calls and reads than run. Anything it does not know
//! (`call_indirect`, `return_call`, `throw`, a numbered label) keeps the slot, as does a write
//! whose value's life runs past 8 KB of text.

use rustc_hash::FxHashSet;

/// How a construct open at some point of the walk matters to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open<'a> {
    /// A call that may reach a safe point (it runs, and may collect, when it closes).
    CollectingCall,
    /// A `then` clause: leaving it (having started inside it) skips the `else` after it.
    Then,
    /// An `if` or its `else`: code inside may not run.
    Conditional,
    /// A `loop` (with its label): a branch to it runs its body again.
    Loop(Option<&'a str>),
    /// A `block`: a value read as its last instruction is its result, passed on to the
    /// instruction around it.
    Block,
    /// A `try_table`: a call inside may throw to a handler after it (whose code the walk reads
    /// as it reads on), leaving the writes after the call undone.
    Try,
    /// A `select`, `local.tee`, branch: a value read into it is passed on to code this
    /// analysis does not follow.
    PassesOn,
    /// `i32.wrap_i64`, `i64.extend_i32_u`: the value continues, as the same address, to the
    /// instruction around.
    Converts,
    /// A write of the local being followed (its value's life ends when it closes).
    Rewrite,
    /// Anything else: a store, a load, a call that never collects, arithmetic, a comparison.
    Other,
}

/// The byte offsets (of the opening parenthesis) of the `local.set`s and `local.tee`s in `body`
/// of the locals `shadowed` names whose slot store can be left out (see the module docs).
/// `may_collect(name)` says whether a call of the function `name` (`$` included) may reach a
/// safe point.
pub(super) fn unrooted_writes(
    body: &str,
    shadowed: &dyn Fn(&str) -> bool,
    may_collect: &dyn Fn(&str) -> bool,
) -> FxHashSet<usize> {
    let mut found = FxHashSet::default();
    let bytes = body.as_bytes();
    // The constructs open at the current position of the walk, outermost first.
    let mut open: Vec<Open<'_>> = Vec::new();
    for at in memchr::memchr2_iter(b'(', b')', bytes) {
        if bytes[at] == b')' {
            open.pop();
            continue;
        }
        let token = token_at(body, at);
        if let ("local.set" | "local.tee", Some(name)) = (token.keyword, token.name) {
            if shadowed(name) {
                let is_tee = token.keyword == "local.tee";
                let end = closing_paren(bytes, at);
                if !value_may_be_needed(body, end + 1, name, is_tee, &open, may_collect) {
                    found.insert(at);
                }
            }
        }
        open.push(classify(&token, None, may_collect));
    }
    found
}

/// A parenthesised instruction's keyword and, when one follows, its first `$name`.
struct Token<'a> {
    keyword: &'a str,
    name: Option<&'a str>,
}

fn token_at(body: &str, open: usize) -> Token<'_> {
    let rest = &body[open + 1..];
    let keyword_len = rest
        .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .unwrap_or(rest.len());
    let keyword = &rest[..keyword_len];
    let after = rest[keyword_len..].trim_start();
    let name = after.starts_with('$').then(|| {
        let len = after
            .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
            .unwrap_or(after.len());
        &after[..len]
    });
    Token { keyword, name }
}

/// How the walk treats `token` while it is open; `followed` is the local whose value is
/// followed, if one is.
fn classify<'a>(
    token: &Token<'a>,
    followed: Option<&str>,
    may_collect: &dyn Fn(&str) -> bool,
) -> Open<'a> {
    match token.keyword {
        "call" => match token.name {
            Some(name) if !may_collect(name) => Open::Other,
            _ => Open::CollectingCall,
        },
        "local.set" | "local.tee" if followed.is_some() && token.name == followed => Open::Rewrite,
        "loop" => Open::Loop(token.name),
        "then" => Open::Then,
        "if" | "else" => Open::Conditional,
        "block" => Open::Block,
        "try_table" => Open::Try,
        "local.tee" | "select" | "br" | "br_if" | "br_table" | "return" => Open::PassesOn,
        "i32.wrap_i64" | "i64.extend_i32_u" => Open::Converts,
        _ => Open::Other,
    }
}

/// Whether the value written to `name` by the write that closes just before `from` may be
/// needed after a collection, so that its slot store must stay. `ancestors` are the constructs
/// open around the write; `is_tee` says the write also leaves the value on the stack.
fn value_may_be_needed(
    body: &str,
    from: usize,
    name: &str,
    is_tee: bool,
    ancestors: &[Open<'_>],
    may_collect: &dyn Fn(&str) -> bool,
) -> bool {
    /// Past this much text the slot stays (bounds the pass's time on long bodies).
    const MAX_SCAN: usize = 8 << 10;
    let bytes = body.as_bytes();
    let mut stack: Vec<Open<'_>> = ancestors.to_vec();
    // Constructs at indices below `floor` were open at the write (its ancestors).
    let mut floor = stack.len();
    // A call that may collect, or a loop's safe point, has run since the write.
    let mut collected = false;
    // A branch was passed: what follows it may not run.
    let mut branched = false;
    // The stack index of the instruction that will consume a read of the value now on the wasm
    // stack, if one is.
    let mut pending: Option<usize> = None;
    if is_tee {
        match consumer(&stack, bytes, from) {
            Some(index) => pending = Some(index),
            None => return true,
        }
    }
    let end = bytes.len().min(from.saturating_add(MAX_SCAN));
    let mut at = from;
    while at < end {
        match bytes[at] {
            b'(' => {
                let token = token_at(body, at);
                match token.keyword {
                    "local.get" => {
                        if token.name == Some(name) {
                            if collected {
                                return true;
                            }
                            let after = closing_paren(bytes, at) + 1;
                            match consumer(&stack, bytes, after) {
                                Some(index) if pending.is_none_or(|p| p == index) => {
                                    pending = Some(index)
                                }
                                _ => return true,
                            }
                        }
                        at = closing_paren(bytes, at) + 1;
                        continue;
                    }
                    "loop" => {
                        // Its head is a safe point.
                        if pending.is_some() {
                            return true;
                        }
                        collected = true;
                    }
                    "br" | "br_if" | "br_table" => {
                        if branches_to_an_enclosing_loop(body, at, &stack[..floor]) {
                            return true;
                        }
                        branched = true;
                    }
                    "return" => branched = true,
                    "call" | "local.set" | "local.tee" | "global.get" | "global.set" => {}
                    keyword
                        if keyword.starts_with("return_call")
                            || keyword.starts_with("call_")
                            || keyword.starts_with("throw")
                            || matches!(
                                keyword,
                                "rethrow" | "unreachable" | "try" | "delegate"
                            ) =>
                    {
                        return true;
                    }
                    _ => {}
                }
                let kind = classify(&token, Some(name), may_collect);
                if kind == Open::CollectingCall && pending.is_some() {
                    // It runs before the pending read's consumer does.
                    return true;
                }
                stack.push(kind);
                at += 1;
            }
            b')' => {
                let Some(closed) = stack.pop() else {
                    return true;
                };
                let index = stack.len();
                if pending == Some(index) {
                    pending = None;
                }
                match closed {
                    Open::CollectingCall => collected = true,
                    Open::Rewrite
                        if pending.is_none()
                            && !branched
                            && !in_condition(&stack[floor.min(index)..])
                            && !stack.contains(&Open::Try) =>
                    {
                        return false;
                    }
                    _ => {}
                }
                at += 1;
                if index < floor {
                    floor = index;
                    if closed == Open::Then {
                        // Left the `then` the write was in: its `else` does not run after it.
                        at = skip_else(bytes, at);
                    }
                }
            }
            _ => at += 1,
        }
    }
    // The function's end, where the value dies (or the scan's bound, where the slot stays).
    at < bytes.len() || pending.is_some()
}

/// Whether code inside the constructs `opened` (opened after the write) may not run.
fn in_condition(opened: &[Open<'_>]) -> bool {
    opened
        .iter()
        .any(|open| matches!(open, Open::Then | Open::Conditional))
}

/// The stack index of the instruction that consumes a value pushed by the instruction that
/// ends just before `after`: the innermost open construct, or, through conversions and blocks
/// that end right after it (the value is their result), the one around them; `None` when that
/// passes the value on.
fn consumer(stack: &[Open<'_>], bytes: &[u8], after: usize) -> Option<usize> {
    let mut at = after;
    for index in (0..stack.len()).rev() {
        match stack[index] {
            Open::Converts => {}
            Open::Block => {
                // The block's result only if nothing follows the value in it.
                while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                if bytes.get(at) != Some(&b')') {
                    return None;
                }
            }
            Open::PassesOn
            | Open::Then
            | Open::Conditional
            | Open::Loop(_)
            | Open::Rewrite
            | Open::Try => return None,
            Open::CollectingCall | Open::Other => return Some(index),
        }
        // Past the `)` that ends this level.
        while at < bytes.len() && bytes[at] != b')' {
            if bytes[at] == b'(' {
                return None;
            }
            at += 1;
        }
        at += 1;
    }
    None
}

/// Whether the branch at `open` may go to the head of a `loop` among `enclosing` (which runs
/// code before the write again): one of its labels names one of them, or is a relative depth
/// (generated code names its labels; a number is taken as a loop).
fn branches_to_an_enclosing_loop(body: &str, open: usize, enclosing: &[Open<'_>]) -> bool {
    let rest = &body[open + 1..];
    let mut labels = rest[rest.find(' ').unwrap_or(rest.len())..].trim_start();
    loop {
        if labels.starts_with('$') {
            let len = labels
                .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
                .unwrap_or(labels.len());
            let label = &labels[..len];
            if enclosing.contains(&Open::Loop(Some(label))) {
                return true;
            }
            labels = labels[len..].trim_start();
        } else {
            return labels.starts_with(|c: char| c.is_ascii_digit());
        }
    }
}

/// The position past the `else` clause that starts at `from` (after spaces), if one does, else
/// `from`.
fn skip_else(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    if bytes[at..].starts_with(b"(else") {
        closing_paren(bytes, at) + 1
    } else {
        from
    }
}

/// The index of the `)` that closes the `(` at `open` (or the text's end).
fn closing_paren(bytes: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    bytes.len()
}
