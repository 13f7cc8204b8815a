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
//! whose value's life runs past 512 instructions.
//!
//! The function is cut into tokens once (an instruction's opening, with its keyword's kind, its
//! `$name` and where it closes; a closing), and each write's reading walks the tokens, so the
//! pass costs the front end little beside what it saves Cranelift.

use rustc_hash::FxHashSet;

/// What an instruction (or clause) is, as far as the walk is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A `)`.
    Close,
    /// `local.get`, a leaf: it has no `Close` token of its own.
    Read,
    /// Another leaf (`i64.const`, `i32.const`, `global.get`): no `Close` token.
    Leaf,
    Set,
    Tee,
    /// A call that may reach a safe point (it runs, and may collect, when it closes).
    CollectingCall,
    /// A call of a runtime function that never collects.
    Call,
    /// A `loop`, whose head is a safe point.
    Loop,
    /// `br`, `br_if`, `br_table`.
    Branch,
    Return,
    Then,
    /// An `if` or its `else`: code inside may not run.
    Conditional,
    Block,
    /// A `try_table`: a call inside may throw to a handler after it (whose code the walk reads
    /// as it reads on), leaving the writes after the call undone.
    Try,
    /// `select`: passes a value on to code the walk does not follow.
    Select,
    /// `i32.wrap_i64`, `i64.extend_i32_u`: the value continues, as the same address, to the
    /// instruction around.
    Converts,
    /// What the walk does not know how to follow (`call_indirect`, `return_call`, `throw`, ...).
    Unknown,
    /// Anything else: a store, a load, arithmetic, a comparison, a `catch` clause.
    Other,
}

/// A parenthesis of the function's text.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    /// The byte offset of the parenthesis.
    at: usize,
    kind: Kind,
    /// The first `$name` after the keyword (empty if none).
    name: &'a str,
    /// For an opening: the index of its `Close` token (itself for a leaf).
    close: usize,
    /// For a branch: its labels (`$a $b`), up to its first operand.
    labels: &'a str,
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
    let tokens = tokenize(body, may_collect);
    let mut found = FxHashSet::default();
    // Indices of the tokens open at the current position of the walk, outermost first.
    let mut open: Vec<usize> = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        match token.kind {
            Kind::Close => {
                open.pop();
            }
            Kind::Read | Kind::Leaf => {}
            kind => {
                if matches!(kind, Kind::Set | Kind::Tee)
                    && shadowed(token.name)
                    && !value_may_be_needed(&tokens, index, &open)
                {
                    found.insert(token.at);
                }
                open.push(index);
            }
        }
    }
    found
}

fn tokenize<'a>(body: &'a str, may_collect: &dyn Fn(&str) -> bool) -> Vec<Token<'a>> {
    let bytes = body.as_bytes();
    let mut tokens: Vec<Token<'a>> = Vec::with_capacity(body.len() / 12);
    let mut open: Vec<usize> = Vec::new();
    let mut iter = memchr::memchr2_iter(b'(', b')', bytes);
    while let Some(at) = iter.next() {
        if bytes[at] == b')' {
            let index = tokens.len();
            if let Some(opener) = open.pop() {
                tokens[opener].close = index;
            }
            tokens.push(Token {
                at,
                kind: Kind::Close,
                name: "",
                close: index,
                labels: "",
            });
            continue;
        }
        let keyword_end = word_end(bytes, at + 1);
        let keyword = &body[at + 1..keyword_end];
        let mut name_start = keyword_end;
        while name_start < bytes.len() && bytes[name_start] == b' ' {
            name_start += 1;
        }
        let name = if bytes.get(name_start) == Some(&b'$') {
            &body[name_start..word_end(bytes, name_start)]
        } else {
            ""
        };
        let kind = match keyword {
            "local.get" => Kind::Read,
            "i64.const" | "i32.const" | "global.get" => Kind::Leaf,
            "local.set" => Kind::Set,
            "local.tee" => Kind::Tee,
            "call" if !name.is_empty() && !may_collect(name) => Kind::Call,
            "call" => Kind::CollectingCall,
            "loop" => Kind::Loop,
            "br" | "br_if" | "br_table" => Kind::Branch,
            "return" => Kind::Return,
            "then" => Kind::Then,
            "if" | "else" => Kind::Conditional,
            "block" => Kind::Block,
            "try_table" => Kind::Try,
            "select" => Kind::Select,
            "i32.wrap_i64" | "i64.extend_i32_u" => Kind::Converts,
            "rethrow" | "unreachable" | "try" | "delegate" => Kind::Unknown,
            _ if keyword.starts_with("return_call")
                || keyword.starts_with("call_")
                || keyword.starts_with("throw") =>
            {
                Kind::Unknown
            }
            _ => Kind::Other,
        };
        let index = tokens.len();
        let labels = if kind == Kind::Branch {
            let end = keyword_end
                + bytes[keyword_end..]
                    .iter()
                    .position(|&b| b == b'(' || b == b')')
                    .unwrap_or(bytes.len() - keyword_end);
            body[keyword_end..end].trim()
        } else {
            ""
        };
        tokens.push(Token {
            at,
            kind,
            name,
            close: index,
            labels,
        });
        if matches!(kind, Kind::Read | Kind::Leaf) {
            // A leaf's `)` is its own: skip it.
            if let Some(close) = iter.next() {
                debug_assert_eq!(bytes[close], b')');
            }
        } else {
            open.push(index);
        }
    }
    tokens
}

/// The end of the word (keyword, `$name`, number) that starts at `from`.
fn word_end(bytes: &[u8], from: usize) -> usize {
    let mut end = from;
    while end < bytes.len() && !matches!(bytes[end], b' ' | b'\n' | b'\t' | b'(' | b')') {
        end += 1;
    }
    end
}

/// Whether the value written by the write `tokens[write]` may be needed after a collection, so
/// that its slot store must stay. `ancestors` are the indices of the tokens open around it.
fn value_may_be_needed(tokens: &[Token<'_>], write: usize, ancestors: &[usize]) -> bool {
    /// Past this many tokens the slot stays (bounds the pass's time on long bodies).
    const MAX_TOKENS: usize = 512;
    let name = tokens[write].name;
    let is_write_of =
        |token: &Token<'_>| matches!(token.kind, Kind::Set | Kind::Tee) && token.name == name;
    // The constructs open at the current token (kind, token index), outermost first.
    let mut stack: Vec<(Kind, usize)> = ancestors.iter().map(|&i| (tokens[i].kind, i)).collect();
    // Constructs at indices below `floor` were open at the write (its ancestors).
    let mut floor = stack.len();
    // A call that may collect, or a loop's safe point, has run since the write.
    let mut collected = false;
    // A branch was passed: what follows it may not run.
    let mut branched = false;
    // The stack index of the instruction that will consume a read of the value now on the wasm
    // stack, if one is.
    let mut pending: Option<usize> = None;
    let mut at = tokens[write].close + 1;
    if tokens[write].kind == Kind::Tee {
        match consumer(tokens, &stack, at, name) {
            Some(index) => pending = Some(index),
            None => return true,
        }
    }
    let end = tokens.len().min(at + MAX_TOKENS);
    while at < end {
        let token = &tokens[at];
        match token.kind {
            Kind::Read => {
                if token.name == name {
                    if collected {
                        return true;
                    }
                    match consumer(tokens, &stack, at + 1, name) {
                        Some(index) if pending.is_none_or(|p| p == index) => pending = Some(index),
                        _ => return true,
                    }
                }
                at += 1;
                continue;
            }
            Kind::Leaf => {
                at += 1;
                continue;
            }
            Kind::Close => {
                let Some((closed, opener)) = stack.pop() else {
                    return true;
                };
                let index = stack.len();
                if pending == Some(index) {
                    pending = None;
                }
                match closed {
                    Kind::CollectingCall => collected = true,
                    Kind::Set | Kind::Tee
                        if index >= floor
                            && is_write_of(&tokens[opener])
                            && pending.is_none()
                            && !branched
                            && !stack[floor..].iter().any(|(kind, _)| {
                                matches!(kind, Kind::Then | Kind::Conditional)
                            })
                            && !stack.iter().any(|(kind, _)| *kind == Kind::Try) =>
                    {
                        return false;
                    }
                    _ => {}
                }
                at += 1;
                if index < floor {
                    floor = index;
                    if closed == Kind::Then {
                        // Left the `then` the write was in: its `else` does not run after it.
                        if tokens
                            .get(at)
                            .is_some_and(|t| t.kind == Kind::Conditional && t.close > at)
                        {
                            at = tokens[at].close + 1;
                        }
                    }
                }
                continue;
            }
            Kind::Loop => {
                if pending.is_some() {
                    return true;
                }
                collected = true;
            }
            Kind::Branch => {
                if branches_to_an_enclosing_loop(tokens, token.labels, &stack[..floor]) {
                    return true;
                }
                branched = true;
            }
            Kind::Return => branched = true,
            Kind::CollectingCall if pending.is_some() => {
                // It runs before the pending read's consumer does.
                return true;
            }
            Kind::Unknown => return true,
            _ => {}
        }
        stack.push((token.kind, at));
        at += 1;
    }
    // The function's end, where the value dies (or the walk's bound, where the slot stays).
    at < tokens.len() || pending.is_some()
}

/// The stack index of the instruction that consumes a value pushed just before the token at
/// `after`: the innermost open construct, or, through conversions and blocks that end right
/// after it (the value is their result), the one around them; `None` when that passes the
/// value on.
fn consumer(
    tokens: &[Token<'_>],
    stack: &[(Kind, usize)],
    after: usize,
    name: &str,
) -> Option<usize> {
    let mut at = after;
    for index in (0..stack.len()).rev() {
        match stack[index].0 {
            Kind::Converts | Kind::Block => {
                // Its value only if nothing follows the value in it.
                if tokens.get(at).map(|t| t.kind) != Some(Kind::Close) {
                    return None;
                }
                at += 1;
            }
            Kind::CollectingCall | Kind::Call | Kind::Other => return Some(index),
            // Into another local, which is followed on its own (or, unshadowed, is held only
            // where nothing collects).
            Kind::Set if tokens[stack[index].1].name != name => return Some(index),
            _ => return None,
        }
    }
    None
}

/// Whether a branch to `labels` may go to the head of a `loop` among `enclosing` (which runs
/// code before the write again): one of them names one, or is a number (generated code names
/// its labels; a number is taken as a loop).
fn branches_to_an_enclosing_loop(
    tokens: &[Token<'_>],
    labels: &str,
    enclosing: &[(Kind, usize)],
) -> bool {
    labels.split_whitespace().any(|label| {
        !label.starts_with('$')
            || enclosing
                .iter()
                .any(|&(kind, index)| kind == Kind::Loop && tokens[index].name == label)
    })
}
