//! Calls that skip the generic `$call` dispatch.
//!
//! A plain call of a name bound by exactly one `def` tests, at run time, that the callee is a
//! function object made by that `def` (its entry number) and then calls the function's body
//! with the arguments as wasm parameters: no argument tuple, no `$bind`. Any other callee (the
//! name was rebound, or the `def` is a second copy) goes through `$call` as before. Code that
//! runs once (module-level code outside loops, `Generator::runs_once`) makes every such call
//! through `$call`: the test would save nothing there and cost code to compile. A call of
//! an unshadowed builtin function calls its runtime implementation directly.

use rustpython_parser::ast;

use super::scopes::{consumed_genexp, ConsumedGenexp, Consumer, Place};
use super::{Collect, Generator, Result};
use crate::check::normalize;
use baton_runtime::layout::type_id;

impl Generator<'_> {
    /// The call, if it can be emitted directly; `None` leaves it to the generic path.
    pub(super) fn direct_call(&mut self, c: &ast::ExprCall) -> Result<Option<String>> {
        let ast::Expr::Name(name) = &*c.func else {
            return Ok(None);
        };
        if !c.keywords.is_empty() || c.args.iter().any(|a| matches!(a, ast::Expr::Starred(_))) {
            return Ok(None);
        }
        let name = normalize(name.id.as_str()).into_owned();
        let scope = self.current_scope();
        if let Place::Builtin(builtin) = self.scopes.resolve(scope, &name) {
            return self.builtin_call(&builtin, c);
        }
        let Some(def) = self.scopes.only_def(scope, &name) else {
            return Ok(None);
        };
        if !def.plain || def.positional != c.args.len() || self.runs_once() {
            return Ok(None);
        }
        let index = self.def_index(def.key);
        // Evaluation order as for any call: the callee, then the arguments left to right.
        let callee = self.load_name(&name)?;
        let f = self.temp();
        let mut code = format!("(block (result i64) (local.set {f} {callee})");
        let values = c
            .args
            .iter()
            .map(|arg| self.expr(arg))
            .collect::<Result<Vec<_>>>()?;
        // Each argument is held across the ones after it and the making of the tuple; the call
        // then has it in the tuple, or the body its parameter, which the body roots itself.
        let temps = self.held_temps(&values, super::TUPLE_NEW);
        for (temp, value) in temps.iter().zip(&values) {
            code.push_str(&format!("(local.set {temp} {value})"));
        }
        let tuple = self.tuple_of(&temps);
        let direct: String = temps.iter().map(|t| format!(" (local.get {t})")).collect();
        // A function object (type 10) whose entry number is this def's: only its body can be
        // behind it. Small ints (bit 0 set) are not addresses and are tested first.
        code.push_str(&format!(
            "(if (result i64) \
               (if (result i32) (i32.wrap_i64 (i64.and (local.get {f}) (i64.const 1))) (then (i32.const 0)) \
                 (else (if (result i32) (i32.eq (i32.load (i32.wrap_i64 (local.get {f}))) (i32.const 10)) \
                   (then (i32.eq (i32.load offset=8 (i32.wrap_i64 (local.get {f}))) (i32.const {index}))) \
                   (else (i32.const 0))))) \
             (then (call $f{index}_body (i32.wrap_i64 (local.get {f})){direct})) \
             (else (call $call_plan (local.get {f}) {tuple} (i32.const 0)))))"
        ));
        Ok(Some(code))
    }

    /// Method calls with plain positional arguments that runtime/wat/fast.wat's helpers make
    /// directly: `append` on a list, `get` on a dict, and the str methods plans call most
    /// (`strip` and its kin, `split`/`rsplit`, `startswith`/`endswith` with one str, `join`,
    /// `replace` with two). Each helper takes the receiver, the method name and the arguments,
    /// acts when they are of the common types, and hands anything else to `$call_method`
    /// with the same arguments (so errors are the generic path's).
    pub(super) fn fast_method(
        &mut self,
        attribute: &ast::ExprAttribute,
        c: &ast::ExprCall,
    ) -> Result<Option<String>> {
        if !c.keywords.is_empty() || c.args.iter().any(|a| matches!(a, ast::Expr::Starred(_))) {
            return Ok(None);
        }
        let method = normalize(attribute.attr.as_str()).into_owned();
        let n = c.args.len();
        // The helper and what follows the arguments: absent optional arguments (as 0, which
        // no value is) and the helper's own selectors.
        let (helper, tail) = match (method.as_str(), n) {
            ("append", 1) => ("$fast_append", String::new()),
            ("get", 1) => ("$fast_get", format!(" {} (i32.const 1)", super::none())),
            ("get", 2) => ("$fast_get", " (i32.const 2)".to_owned()),
            ("strip", 0) => ("$fast_strip", " (i32.const 3)".to_owned()),
            ("lstrip", 0) => ("$fast_strip", " (i32.const 1)".to_owned()),
            ("rstrip", 0) => ("$fast_strip", " (i32.const 2)".to_owned()),
            ("split" | "rsplit", 0..=2) => (
                "$fast_split",
                format!(
                    "{} (i32.const {n}) (i32.const {})",
                    " (i64.const 0)".repeat(2 - n),
                    u8::from(method == "rsplit")
                ),
            ),
            ("startswith", 1) => ("$fast_affix", " (i32.const 0)".to_owned()),
            ("endswith", 1) => ("$fast_affix", " (i32.const 1)".to_owned()),
            ("join", 1) => ("$fast_join", String::new()),
            ("replace", 2) => ("$fast_replace", String::new()),
            _ => return Ok(None),
        };
        // `"sep".join(genexpr)`: the receiver is a str literal (its evaluation and its `join`'s
        // lookup do nothing a plan can see), so the generator runs inline and the text is
        // joined as its items come (`$join_push`), with no list of them that every collection
        // during the loop would read again.
        if let Some((arg, genexp)) = super::scopes::joined_genexp(c) {
            let collect = Collect::Join(&genexp.elt, &attribute.value);
            let joined = self.comprehension(arg, &genexp.generators, collect)?;
            return Ok(Some(joined));
        }
        // The receiver first, the method's lookup, then the arguments, as CPython evaluates them.
        let receiver = self.expr(&attribute.value)?;
        let name = self.str_value(&method);
        let owner = match method.as_str() {
            "append" => type_id::LIST,
            "get" => type_id::DICT,
            _ => type_id::STR,
        };
        let temp = self.temp();
        let (receiver, rooted) = self.method_looked_up(c, &temp, receiver, &name, Some(owner));
        let values = c
            .args
            .iter()
            .map(|arg| self.expr(arg))
            .collect::<Result<Vec<_>>>()?;
        // Each operand stays visible to the collector while the ones after it run.
        let receiver = {
            let later: Vec<&str> = values.iter().map(String::as_str).collect();
            self.kept_unless(rooted, receiver, &later)
        };
        let mut args = String::new();
        for (i, value) in values.iter().enumerate() {
            let later: Vec<&str> = values[i + 1..].iter().map(String::as_str).collect();
            args.push(' ');
            args.push_str(&self.keep(value.clone(), false, &later));
        }
        Ok(Some(format!(
            "(call {helper} {receiver} {name}{args}{tail})"
        )))
    }

    /// `s.split()[i]` and `s.split(sep)[i]` for a literal `i` that is 0 or more, or -1: the one
    /// piece asked for, made without the list and the other pieces (`$fast_split_at`, which
    /// hands anything but an ASCII str split on whitespace or on one ASCII character to the
    /// generic split and subscript). Plans pick fields out of command output this way
    /// (`int(line.split()[4])`), once per line.
    pub(super) fn split_item(&mut self, s: &ast::ExprSubscript) -> Result<Option<String>> {
        let ast::Expr::Call(c) = s.value.as_ref() else {
            return Ok(None);
        };
        let ast::Expr::Attribute(attribute) = c.func.as_ref() else {
            return Ok(None);
        };
        let index = match super::fast::small_literal(&s.slice) {
            Some(i @ (-1..=0x3FFF_FFFF)) => i,
            _ => return Ok(None),
        };
        let receiver_is_module = matches!(attribute.value.as_ref(),
            ast::Expr::Name(n) if self.module_binding(n.id.as_str()).is_some());
        if attribute.attr.as_str() != "split"
            || receiver_is_module
            || !c.keywords.is_empty()
            || c.args.len() > 1
            || c.args.iter().any(|a| matches!(a, ast::Expr::Starred(_)))
        {
            return Ok(None);
        }
        let receiver = self.expr(&attribute.value)?;
        let name = self.str_value("split");
        let temp = self.temp();
        let (receiver, rooted) =
            self.method_looked_up(c, &temp, receiver, &name, Some(type_id::STR));
        let sep = match c.args.first() {
            Some(arg) => self.expr(arg)?,
            None => "(i64.const 0)".to_owned(),
        };
        let receiver = self.kept_unless(rooted, receiver, &[&sep]);
        Ok(Some(format!(
            "(call $fast_split_at {receiver} {name} {sep} (i32.const {}) (i32.const {index}))",
            c.args.len()
        )))
    }

    /// `name(args)` for a builtin function the plan does not shadow: its `$b_` implementation
    /// with the argument tuple, as `$call` would reach it; `str(x)` of the builtin type.
    fn builtin_call(&mut self, name: &str, c: &ast::ExprCall) -> Result<Option<String>> {
        // (`name` resolved to the builtin already: the scope pass asked the same of this call)
        if let Some(consumed) = consumed_genexp(c, |_| true) {
            return self.consumed_genexp(&consumed).map(Some);
        }
        // `str(x)`: what `$b_str` does with one positional argument and no keywords, without
        // the argument tuple and the type's call dispatch (the commonest conversion in plans).
        if let ("str", [arg]) = (name, c.args.as_slice()) {
            let value = self.expr(arg)?;
            return Ok(Some(format!("(call $to_str {value})")));
        }
        if self.runtime.types.contains_key(name) || !self.runtime.builtins.contains_key(name) {
            return Ok(None);
        }
        if name == "print" {
            self.host_calls.insert("print");
        }
        // `print(x)`, `len(x)` and `int(x)`: runtime/wat/fast.wat's helpers take the value
        // itself (no argument tuple, no arity or keyword checks; one argument is what they
        // need). `print` of one value is a plan's commonest call.
        if let ("print" | "len", [arg]) = (name, c.args.as_slice()) {
            // Both only read their argument: a temporary made for them is freed after
            // (temporaries.rs). Not `int`, whose result may be its argument.
            let arg = self.borrowed(arg)?;
            let call = format!("(call $fast_{name} {})", arg.value);
            return Ok(Some(arg.then_i64(self, call)));
        }
        if let ("int", [arg]) = (name, c.args.as_slice()) {
            let value = self.expr(arg)?;
            return Ok(Some(format!("(call $fast_int {value})")));
        }
        // Code that runs once calls the builtin object through `$call_plan1` .. `$call_plan3`
        // (one call where the direct entry takes two, the tuple's and its own): the dispatch
        // costs nothing that matters once, and less code compiles faster.
        if self.runs_once() {
            let builtin = format!("(i64.const {})", self.runtime.builtins[name]);
            if let Some((n, operands)) = self.argument_operands(&c.args, 3)? {
                return Ok(Some(format!("(call $call_plan{n} {builtin}{operands})")));
            }
        }
        let args = self.exprs_to_tuple(&c.args)?;
        Ok(Some(format!("(call $b_{name} {args} (i32.const 0))")))
    }

    /// A builtin's loop over the generator expression it consumes (scopes.rs,
    /// `consumed_genexp`).
    fn consumed_genexp(&mut self, consumed: &ConsumedGenexp<'_>) -> Result<String> {
        let ConsumedGenexp {
            consumer,
            node,
            genexp,
            start,
        } = *consumed;
        let (generators, elt) = (&genexp.generators, &genexp.elt);
        Ok(match consumer {
            Consumer::Sum => self.comprehension(node, generators, Collect::Sum(elt, start))?,
            Consumer::Any => self.comprehension(node, generators, Collect::Any(elt))?,
            Consumer::All => self.comprehension(node, generators, Collect::All(elt))?,
            Consumer::Min => self.comprehension(node, generators, Collect::Min(elt))?,
            Consumer::Max => self.comprehension(node, generators, Collect::Max(elt))?,
            Consumer::List => self.comprehension(node, generators, Collect::List(elt))?,
            Consumer::Set => self.comprehension(node, generators, Collect::Set(elt))?,
            Consumer::Tuple => {
                let list = self.comprehension(node, generators, Collect::List(elt))?;
                format!("(call $tuple_from {list})")
            }
            Consumer::Sorted => {
                let list = self.comprehension(node, generators, Collect::List(elt))?;
                format!("(call $b_sorted (i32.wrap_i64 (call $tuple1 {list})) (i32.const 0))")
            }
        })
    }

    /// WAT leaving a new tuple (i32 address) of the values in i64 locals.
    fn tuple_of(&mut self, temps: &[String]) -> String {
        if temps.is_empty() {
            return format!("(i32.const {})", self.runtime.empty_tuple);
        }
        // The tuple is the caller's to root, as any operand; nothing collects between
        // `$tuple_new` and the last item's store.
        if let Some(make) = super::tuple_of_n(temps.len()) {
            let items: String = temps.iter().map(|t| format!(" (local.get {t})")).collect();
            return format!("(call {make}{items})");
        }
        let tuple = self.transient_address();
        let mut code = format!(
            "(block (result i32) (local.set {tuple} (call $tuple_new (i32.const {})))",
            temps.len()
        );
        for (i, temp) in temps.iter().enumerate() {
            code.push_str(&format!(
                "(i64.store offset={} (local.get {tuple}) (local.get {temp}))",
                8 + 8 * i
            ));
        }
        code.push_str(&format!("(local.get {tuple}))"));
        code
    }
}
