//! Shadow frames: where the collector finds the values a plan function holds.
//!
//! The collector (runtime/wat/gc.wat) cannot read wasm locals, so every compiled function keeps
//! a shadow frame on the runtime's shadow stack: one 8-byte slot per local that can hold a
//! value (every `i64` local but the `$u` temps, and the pooled `$p` temps, which hold tuples and
//! lists under construction; the `$n` temps have none: a frame depth, a jump's number, or an
//! address held only while nothing can collect, such as a tuple being filled), plus one for the
//! function object itself (its closure cells are reached through it while it runs, even if the
//! plan drops every other reference to it).
//!
//! The instrumentation is one pass over a finished function's WAT, so no emitter has to
//! remember it:
//! - every `local.set`/`local.tee` of a shadowed local also stores the value into its slot
//!   (write-through: reads stay plain `local.get`s);
//! - the prologue takes the frame (`$sp` .. `$sp_end`): a Python function's inline, together
//!   with its call frame (depth, name: [`Entry::Function`]), both limits tested by one branch
//!   (its body runs its entry's safe point itself, once its arguments are in shadowed locals);
//!   module-level code's with one call that also runs the safe point (`$shadow_frame_safe`);
//!   every exit (`LEAVE_FRAME`, the module body's end) gives the frame back; an exception
//!   handler's [`RESUME`] sets the top back to its own frame's end (frames below it were
//!   abandoned by the throw), with the depth;
//! - every `loop` begins with a safe point, so a long loop collects as it goes.
//!
//! What this pass cannot see — a value kept on the wasm operand stack while a later operand
//! calls into code that may collect — is the emitter's duty: the generator evaluates such
//! operands into temps, which are shadowed (see `Generator::rooted`).

use rustc_hash::FxHashMap;
use std::fmt::Write as _;

/// The prefix of the `i64` temps that are not shadowed: the generator takes one only for a
/// value no collection can happen to while it is held (`Generator::scratch`).
pub(super) const UNROOTED_PREFIX: &str = "u";

/// WAT that runs a collection when one is due (runtime/wat/gc.wat, `$gc_safepoint`).
pub(super) const SAFE_POINT: &str = "(if (global.get $gc_due) (then (call $gc_safepoint)))";

/// WAT that starts an exception handler in the current frame: the depth and the shadow stack's
/// top set back to this frame's (the frames below it were abandoned by the throw).
pub(super) const RESUME: &str = "(call $resume (local.get $d) (local.get $sp_end))";

/// WAT that gives the shadow frame back (part of every function exit).
pub(super) const POP_FRAME: &str = "(global.set $shadow_top (local.get $sp))";

/// How a shadowed local's value is stored into its slot.
#[derive(Clone, Copy)]
enum Kind {
    I64,
    I32,
}

/// Whose code a function is, which decides its prologue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entry {
    /// Module-level code (its parts, its `try` bodies), which runs once or once per iteration
    /// of a module-level loop, in the module's call frame.
    ModuleLevel,
    /// A Python function's body, whose call frame is named by the str at `name`. It declares
    /// `$d` (the frame's depth) and `$line_slot` (its line's address), which the prologue sets.
    Function { name: u32 },
}

/// Instruments a finished function. `locals` are its local declarations (two are added:
/// `$sp`, `$sp_end`). A plan function's body ([`Entry::Function`]) has its `$fn` parameter
/// rooted in slot 0 when it reads its closure cells through it; it takes its arguments as
/// wasm parameters, which are not shadowed, so it runs its entry safe point itself, once they
/// are in its locals (the prologue leaves it out).
pub(super) fn instrument(locals: &mut Vec<String>, body: &str, entry: Entry) -> String {
    let is_body = matches!(entry, Entry::Function { .. });
    let root_fn = is_body && memchr::memmem::find(body.as_bytes(), b"(local.get $cells)").is_some();
    let mut slots: FxHashMap<String, (u32, Kind)> = FxHashMap::default();
    let mut next = u32::from(root_fn);
    for decl in locals.iter() {
        let Some((name, ty)) = parse_local(decl) else {
            continue;
        };
        let kind = match ty {
            "i64" if name[1..].starts_with(UNROOTED_PREFIX) => continue,
            "i64" => Kind::I64,
            "i32" if name.starts_with("$p") => Kind::I32,
            _ => continue,
        };
        slots.insert(name.to_owned(), (8 * next, kind));
        next += 1;
    }
    locals.push("(local $sp i32) (local $sp_end i32)".to_owned());
    let bytes = 8 * next;
    let mut out = String::with_capacity(body.len() + body.len() / 4 + 256);
    if let Entry::Function { name } = entry {
        // A Python function's: inline, so that a call costs no runtime call of its own (fib(35)
        // took 0.36-0.45 s with a runtime call here, 0.28-0.41 s without). Both frames, the
        // shadow frame and the call frame (the runtime's `$enter`: depth, name), are tested
        // against their limits by one branch before either is pushed, so a RecursionError's
        // traceback ends at the caller, as CPython's does; one branch and one argument-less
        // call are less for Cranelift to compile in every function than a branch and a raise
        // for each (1% of the instructions Cranelift runs to compile a generated plan).
        let _ = write!(
            out,
            "(local.set $sp (global.get $shadow_top))\
             (local.set $sp_end (i32.add (local.get $sp) (i32.const {bytes})))\
             (local.set $d (i32.add (global.get $depth) (i32.const 1)))\
             (if (i32.or (i32.gt_u (local.get $sp_end) (global.get $shadow_end)) \
                         (i32.gt_u (local.get $d) (global.get $max_depth))) \
               (then (call $raise_recursion)))\
             (global.set $shadow_top (local.get $sp_end))\
             (global.set $depth (local.get $d))\
             {}\
             (i32.store (i32.sub (local.get $line_slot) (i32.const 4)) (i32.const {name}))",
            super::LINE_SLOT_FROM_DEPTH
        );
    } else {
        // Module-level code's (its parts, its `try` bodies), which runs once or once per
        // iteration of a module-level loop: the runtime takes the frame and runs the entry's
        // safe point in one call. Each branch inline is blocks for Cranelift to compile, which
        // cost more than the call: 1% of compiling a generated plan, which is mostly such code
        // (runtime/wat/gc.wat, `$shadow_frame_safe`).
        let _ = write!(
            out,
            "(local.set $sp (call $shadow_frame_safe (i32.const {bytes})))\
             (local.set $sp_end (i32.add (local.get $sp) (i32.const {bytes})))"
        );
    }
    // The slots are not cleared: what a returned frame left there is a value that was live,
    // and the collector checks every address it marks (a stale slot keeps garbage one
    // collection longer at most). Clearing cost a `memory.fill` per call.
    if root_fn {
        out.push_str("(i64.store (local.get $sp) (i64.extend_i32_u (local.get $fn)))");
    }
    out.push('\n');
    rewrite(body, &slots, &mut out);
    out
}

/// `(local $name type)` -> (name, type).
fn parse_local(decl: &str) -> Option<(&str, &str)> {
    let inner = decl.strip_prefix("(local ")?.strip_suffix(')')?;
    let mut parts = inner.split_whitespace();
    let name = parts.next()?;
    let ty = parts.next()?;
    parts.next().is_none().then_some((name, ty))
}

const SET: &str = "(local.set ";
const TEE: &str = "(local.tee ";
const LOOP: &str = "(loop ";

/// Copies `src` to `out`, instrumenting sets, tees and loops.
fn rewrite(src: &str, slots: &FxHashMap<String, (u32, Kind)>, out: &mut String) {
    let bytes = src.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'(', &bytes[at..]) {
        let start = at + found;
        let rest = &src[start..];
        if rest.starts_with(SET) || rest.starts_with(TEE) {
            let name_start = start + SET.len();
            let name_end = name_start
                + src[name_start..]
                    .find(|c: char| c.is_whitespace() || c == ')')
                    .unwrap_or(src.len() - name_start);
            if let Some(&(offset, kind)) = slots.get(&src[name_start..name_end]) {
                let end = closing_paren(bytes, start);
                out.push_str(&src[copied..start]);
                let name = &src[name_start..name_end];
                let mut operand = String::new();
                rewrite(&src[name_end..end], slots, &mut operand);
                let value = match kind {
                    Kind::I64 => format!("(local.tee {name}{operand})"),
                    Kind::I32 => format!("(i64.extend_i32_u (local.tee {name}{operand}))"),
                };
                if is_number(&operand) || is_constant(&operand) {
                    // A small int, a static object's address or 0 needs no root.
                    out.push_str(&src[start..name_end]);
                    out.push_str(&operand);
                    out.push(')');
                    copied = end + 1;
                    at = copied;
                    continue;
                }
                let value = if operand.trim().is_empty() {
                    // The value comes from the stack (after a `catch`): set, then copy.
                    let _ = write!(out, "(local.set {name})");
                    match kind {
                        Kind::I64 => format!("(local.get {name})"),
                        Kind::I32 => format!("(i64.extend_i32_u (local.get {name}))"),
                    }
                } else {
                    value
                };
                let _ = write!(out, "(i64.store offset={offset} (local.get $sp) {value})");
                if rest.starts_with(TEE) {
                    let _ = write!(out, " (local.get {name})");
                }
                copied = end + 1;
                at = copied;
                continue;
            }
        } else if rest.starts_with(LOOP) {
            // `(loop $label` then an optional block type; the safe point goes after both.
            let mut head = start + LOOP.len();
            head += src[head..]
                .find(|c: char| c.is_whitespace() || c == ')')
                .unwrap_or(0);
            let after_label = src[head..].trim_start();
            if after_label.starts_with("(result ") || after_label.starts_with("(param ") {
                let type_start = src.len() - after_label.len();
                head = closing_paren(bytes, type_start) + 1;
            }
            out.push_str(&src[copied..head]);
            out.push(' ');
            out.push_str(SAFE_POINT);
            copied = head;
            at = head;
            continue;
        }
        at = start + 1;
    }
    out.push_str(&src[copied..]);
}

/// Whether an operand's value is a number, never a heap address: a constant (a small int, or
/// a static object's address), or i64 arithmetic (the small-int fast paths' results; heap
/// addresses are made by widening an i32, never by i64 arithmetic).
fn is_number(operand: &str) -> bool {
    const NUMBER_OPS: [&str; 10] = [
        "(i64.const ",
        "(i64.add ",
        "(i64.sub ",
        "(i64.mul ",
        "(i64.or ",
        "(i64.and ",
        "(i64.xor ",
        "(i64.shl ",
        "(i64.shr_s ",
        "(i64.shr_u ",
    ];
    let operand = operand.trim();
    NUMBER_OPS.iter().any(|op| operand.starts_with(op))
        && closing_paren(operand.as_bytes(), 0) + 1 == operand.len()
}

/// The index of the `)` that closes the `(` at `open` (generated WAT has no strings or
/// comments in function bodies; an unbalanced text ends at its end).
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
    bytes.len().saturating_sub(1)
}

/// Whether evaluating `code` may reach a safe point: it runs a loop (each begins with one), calls
/// through a table or a reference, or calls a function that is not one of the runtime's that
/// never collect (`Interface::never_collects`: the allocator, building tuples, lists and
/// dicts, ... ; a plan function's entry is a safe point).
///
/// Asked of the same operands again and again as expressions nest, so it makes two byte searches
/// (`memmem`), not one substring search per kind of call.
pub(super) fn may_collect(code: &str) -> bool {
    if memchr::memmem::find(code.as_bytes(), b"(loop").is_some() {
        return true;
    }
    let runtime = &crate::runtime::RUNTIME;
    memchr::memmem::find_iter(code.as_bytes(), b"call").any(|at| {
        let rest = &code[at + "call".len()..];
        match rest.strip_prefix(" $") {
            Some(name) => !runtime.never_collects(baton_runtime::linking::name_at(name)),
            // `call_indirect`, `call_ref` (and, erring towards a root, a name with `call_ref`
            // or `call_indirect` in it).
            None => rest.starts_with("_indirect") || rest.starts_with("_ref"),
        }
    })
}

/// Whether `code` is a constant: a small int or a static object's address (the runtime's and
/// the plan's statics are never collected), so it never needs a root.
pub(super) fn is_constant(code: &str) -> bool {
    let code = code.trim();
    (code.starts_with("(i64.const ") || code.starts_with("(i32.const "))
        && closing_paren(code.as_bytes(), 0) + 1 == code.len()
}

/// Whether the value `code` leaves needs rooting while `later` runs: not for a constant, nor
/// for a read of a local that `later` does not assign (the local's slot holds the value).
pub(super) fn needs_root(code: &str, later: &str) -> bool {
    if !may_collect(later) {
        return false;
    }
    let code = code.trim();
    if is_constant(code) {
        return false;
    }
    if let Some(name) = code
        .strip_prefix("(local.get ")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        if !name.contains(['(', ' ']) {
            return later.contains(&format!("(local.set {name}"))
                || later.contains(&format!("(local.tee {name}"));
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(locals: &[&str], body: &str) -> String {
        let mut locals: Vec<String> = locals.iter().map(|l| (*l).to_owned()).collect();
        instrument(&mut locals, body, Entry::ModuleLevel)
    }

    #[test]
    fn sets_and_tees_of_values_write_through_to_their_slots() {
        let out = run(
            &["(local $d i32)", "(local $v0 i64)", "(local $p1 i32)"],
            "(local.set $v0 (call $f (local.tee $v0 (call $h))))(local.set $d (i32.const 1))(local.set $p1 (call $g))(local.set $v0 (i64.add (local.get $v0) (i64.const 2)))(local.set $p1 (i32.const 0))",
        );
        assert!(out.contains(
            "(i64.store offset=0 (local.get $sp) (local.tee $v0 (call $f (i64.store offset=0 (local.get $sp) (local.tee $v0 (call $h))) (local.get $v0))))"
        ), "{out}");
        // A number needs no root.
        assert!(
            out.contains("(local.set $v0 (i64.add (local.get $v0) (i64.const 2)))"),
            "{out}"
        );
        assert!(out.contains("(local.set $d (i32.const 1))"), "{out}");
        // Nor does a constant address (a static object, or none).
        assert!(out.contains("(local.set $p1 (i32.const 0))"), "{out}");
        assert!(
            out.contains(
                "(i64.store offset=8 (local.get $sp) (i64.extend_i32_u (local.tee $p1 (call $g))))"
            ),
            "{out}"
        );
        assert!(
            out.contains("(i32.const 16)"),
            "a frame of two slots: {out}"
        );
    }

    #[test]
    fn operands_need_roots_only_across_code_that_may_collect() {
        assert!(needs_root("(call $f)", "(call $g)"));
        assert!(!needs_root("(call $f)", "(i64.const 3)"));
        assert!(!needs_root("(i64.const 3)", "(call $g)"));
        assert!(!needs_root("(local.get $v1)", "(call $g (local.get $v1))"));
        assert!(needs_root("(local.get $v1)", "(local.set $v1 (call $g))"));
        assert!(needs_root("(global.get $x)", "(block (loop $l))"));
    }

    #[test]
    fn a_set_from_the_stack_is_copied_after_it() {
        let out = run(&["(local $t0 i64)"], "(local.set $t0)");
        assert!(
            out.ends_with("(local.set $t0)(i64.store offset=0 (local.get $sp) (local.get $t0))"),
            "{out}"
        );
    }

    #[test]
    fn module_level_code_takes_its_frame_and_entry_safe_point_in_one_call() {
        let locals = ["(local $t0 i64)"];
        let module_level = run(&locals, "(nop)");
        assert!(
            module_level.starts_with(
                "(local.set $sp (call $shadow_frame_safe (i32.const 8)))\
                 (local.set $sp_end (i32.add (local.get $sp) (i32.const 8)))"
            ),
            "{module_level}"
        );
        assert!(!module_level.contains("$shadow_end"), "{module_level}");
        // A Python function's body takes its frame inline and leaves the entry's safe point to
        // its own code (after its arguments are in shadowed locals).
        let mut body_locals: Vec<String> = locals.iter().map(|l| (*l).to_owned()).collect();
        let body = instrument(&mut body_locals, "(nop)", Entry::Function { name: 40 });
        assert!(
            body.starts_with("(local.set $sp (global.get $shadow_top))"),
            "{body}"
        );
        // Both limits by one branch, before anything is pushed; then both frames.
        let check = body.find("(then (call $raise_recursion))").expect(&body);
        assert_eq!(body.matches("(call $raise_recursion)").count(), 1, "{body}");
        assert!(body[..check].contains("(global.get $shadow_end)"), "{body}");
        assert!(body[..check].contains("(global.get $max_depth)"), "{body}");
        assert!(!body[..check].contains("global.set"), "{body}");
        assert!(!body[..check].contains("store"), "{body}");
        assert!(
            body[check..].contains("(global.set $shadow_top (local.get $sp_end))"),
            "{body}"
        );
        assert!(
            body[check..].contains("(global.set $depth (local.get $d))"),
            "{body}"
        );
        assert!(
            body[check..].contains(
                "(i32.store (i32.sub (local.get $line_slot) (i32.const 4)) (i32.const 40))"
            ),
            "{body}"
        );
        assert!(!body.contains("$shadow_frame_safe"), "{body}");
        assert!(!body.contains(SAFE_POINT), "{body}");
    }

    #[test]
    fn loops_get_safe_points_and_a_handler_resets_both_stacks_with_one_call() {
        let mut locals = Vec::new();
        let out = instrument(
            &mut locals,
            &format!("(loop $l (result i64) (br $l)) (loop $m (br $m)) {RESUME}"),
            Entry::ModuleLevel,
        );
        assert!(
            out.contains(&format!("(loop $l (result i64) {SAFE_POINT}")),
            "{out}"
        );
        assert!(out.contains(&format!("(loop $m {SAFE_POINT}")), "{out}");
        // The handler's reset names the frame's end, which every instrumented function declares.
        assert!(out.ends_with(RESUME), "{out}");
        assert!(
            locals.iter().any(|l| l.contains("(local $sp_end i32)")),
            "{locals:?}"
        );
    }
}
