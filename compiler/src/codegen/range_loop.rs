//! `for x in range(...)` as a counted loop when `range` is the builtin.
//!
//! The generic loop allocates a range object and an iterator and calls `$next` for every item.
//! When the arguments are small ints the loop counts in a machine register instead; otherwise
//! (boxed ints, wrong types, a zero step) it builds the range through the builtin, so every
//! error and every value is what the builtin gives, and iterates it generically. Both ways
//! share one copy of the body.

use rustpython_parser::ast;

use super::fast::small_literal;
use super::scopes::Place;
use super::Generator;
use super::Result;
use crate::check::normalize;

impl Generator<'_> {
    /// The arguments of `iter` when it is a call of the builtin `range` (not shadowed) with one
    /// to three plain positional arguments.
    pub(super) fn builtin_range_args<'e>(&self, iter: &'e ast::Expr) -> Option<&'e [ast::Expr]> {
        let ast::Expr::Call(call) = iter else {
            return None;
        };
        let ast::Expr::Name(name) = &*call.func else {
            return None;
        };
        if !call.keywords.is_empty()
            || call.args.is_empty()
            || call.args.len() > 3
            || call.args.iter().any(|a| matches!(a, ast::Expr::Starred(_)))
        {
            return None;
        }
        let name = normalize(name.id.as_str());
        if name != "range" {
            return None;
        }
        matches!(
            self.scopes.resolve(self.current_scope(), &name),
            Place::Builtin(_)
        )
        .then_some(&call.args[..])
    }

    /// Emits `for target in range(args): body else: orelse`.
    pub(super) fn range_loop(&mut self, f: &ast::StmtFor, args: &[ast::Expr]) -> Result<()> {
        // The arguments are evaluated once, left to right, before the loop, as the call would.
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            let code = self.expr(arg)?;
            let temp = self.temp();
            self.emit(&format!("(local.set {temp} {code})"));
            values.push(temp);
        }
        // The body may run zero times (see `Definite`).
        let before = self.f().definite.snapshot();
        let (cur, stop, step, iterator, item) = (
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
        );
        let (start_value, stop_value, step_value) = match values.as_slice() {
            [stop] => (None, stop.clone(), None),
            [start, stop] => (Some(start.clone()), stop.clone(), None),
            [start, stop, step] => (Some(start.clone()), stop.clone(), Some(step.clone())),
            _ => unreachable!("builtin_range_args accepts one to three arguments"),
        };
        let step_known = match args.len() {
            3 => small_literal(&args[2]),
            _ => Some(1),
        };

        let mut fast = values
            .iter()
            .map(|v| format!("(i64.and (local.get {v}) (i64.const 1))"))
            .reduce(|a, b| format!("(i64.and {a} {b})"))
            .map(|all| format!("(i32.wrap_i64 {all})"))
            .unwrap_or_else(|| "(i32.const 1)".to_owned());
        if let (Some(step_value), None) = (&step_value, step_known) {
            // A zero step (tagged 1) raises ValueError in the builtin.
            fast = format!("(i32.and {fast} (i64.ne (local.get {step_value}) (i64.const 1)))");
        }
        if step_known == Some(0) {
            fast = "(i32.const 0)".to_owned();
        }
        let untag = |v: &str| format!("(i64.shr_s (local.get {v}) (i64.const 1))");
        let start_code = start_value
            .as_deref()
            .map_or("(i64.const 0)".to_owned(), untag);
        let step_code = step_value
            .as_deref()
            .map_or("(i64.const 1)".to_owned(), untag);
        let tuple = self.temp_i32();
        let mut make_range = format!(
            "(local.set {tuple} (call $tuple_new (i32.const {})))",
            values.len()
        );
        for (i, v) in values.iter().enumerate() {
            make_range.push_str(&format!(
                "(i64.store offset={} (local.get {tuple}) (local.get {v}))",
                8 + 8 * i
            ));
        }
        let range = self.runtime.builtins["range"];
        self.emit(&format!(
            "(if {fast} (then (local.set {cur} {start_code}) (local.set {stop} {}) (local.set {step} {step_code}) (local.set {iterator} (i64.const 0))) \
             (else {make_range} (local.set {iterator} (call $iter (call $call (i64.const {range}) (local.get {tuple}) (i32.const 0))))))",
            untag(&stop_value)
        ));

        // cur and step are within the small range, so cur + step cannot overflow an i64.
        let finished = match step_known {
            Some(n) if n > 0 => format!("(i64.ge_s (local.get {cur}) (local.get {stop}))"),
            Some(_) => format!("(i64.le_s (local.get {cur}) (local.get {stop}))"),
            None => format!(
                "(select (i64.ge_s (local.get {cur}) (local.get {stop})) (i64.le_s (local.get {cur}) (local.get {stop})) (i64.gt_s (local.get {step}) (i64.const 0)))"
            ),
        };
        let (after, exhausted, top) = (
            self.label("after"),
            self.label("exhausted"),
            self.label("top"),
        );
        self.emit(&format!("(block {after} (block {exhausted} (loop {top}"));
        self.f().looping += 1;
        self.emit(&format!(
            "(if (i64.eqz (local.get {iterator})) \
             (then (br_if {exhausted} {finished}) \
               (local.set {item} (i64.or (i64.shl (local.get {cur}) (i64.const 1)) (i64.const 1))) \
               (local.set {cur} (i64.add (local.get {cur}) (local.get {step})))) \
             (else (local.set {item} (call $next_plan (local.get {iterator}))) \
               (br_if {exhausted} (i64.eqz (local.get {item})))))"
        ));
        self.assign(&f.target, &format!("(local.get {item})"))?;
        self.loop_body(&f.body, &after, &top)?;
        self.emit(&format!("(br {top})))"));
        self.f().looping -= 1;
        self.f().definite.restore(before.clone());
        self.stmts(&f.orelse)?;
        self.emit(")");
        self.f().definite.restore(before);
        Ok(())
    }
}
