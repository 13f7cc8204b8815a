//! Tests of dict.wat: dicts and sets. Expected outputs are what CPython 3.11 prints.

mod support;

use baton_runtime::{runtime_layout, statics::Statics};

/// Builds a `$plan_main` from statements over WAT expressions and runs it.
struct Prog {
    st: std::cell::RefCell<Statics>,
    body: std::cell::RefCell<String>,
}

const NONE: &str = "(i64.const 8)";
const TRUE: &str = "(i64.const 24)";
const FALSE: &str = "(i64.const 16)";

fn int(n: i64) -> String {
    format!("(i64.const {})", (n << 1) | 1)
}

fn t(items: &[&str]) -> String {
    format!("(call $t{} {})", items.len(), items.join(" "))
}

/// A dict display {k: v, ...}.
fn dd(pairs: &[(&str, &str)]) -> String {
    let mut out = String::from("(call $dict_new)");
    for (k, v) in pairs {
        out = format!("(call $kw_add {out} {k} {v})");
    }
    out
}

/// A set display {a, ...} (or set() when empty).
fn ss(items: &[&str]) -> String {
    let mut out = String::from("(call $set_new)");
    for v in items {
        out = format!("(call $set_push {out} {v})");
    }
    out
}

fn l(items: &[&str]) -> String {
    format!("(call $lst {})", t(items))
}

impl Prog {
    fn new() -> Self {
        Prog {
            st: std::cell::RefCell::new(Statics::new(runtime_layout().plan_statics)),
            body: std::cell::RefCell::new(String::new()),
        }
    }

    fn s(&self, text: &str) -> String {
        format!("(i64.const {})", self.st.borrow_mut().str(text))
    }

    fn float(&self, x: f64) -> String {
        format!("(i64.const {})", self.st.borrow_mut().float(x))
    }

    fn stmt(&self, wat: &str) {
        let mut body = self.body.borrow_mut();
        body.push_str(wat);
        body.push('\n');
    }

    fn set(&self, local: &str, expr: &str) {
        self.stmt(&format!("(local.set ${local} {expr})"));
    }

    /// print(repr(expr))
    fn pr(&self, expr: &str) {
        self.stmt(&format!("(call $pr {expr})"));
    }

    /// print(repr(expr)), or `Type: message` when it raises.
    fn try_pr(&self, expr: &str) {
        self.stmt(&format!(
            "(block $ok (call $pr_exc (block $h (result i64) (try_table (catch $exc $h) (call $pr {expr}) (br $ok)) (unreachable))))"
        ));
    }

    /// A method call `obj.name(*args)`.
    fn m(&self, obj: &str, name: &str, args: &[&str]) -> String {
        let name = self.s(name);
        format!(
            "(call $call_method {obj} {name} (i32.wrap_i64 {}) (i32.const 0))",
            t(args)
        )
    }

    /// A method call with keyword arguments `obj.name(*args, **kw)`.
    fn mk(&self, obj: &str, name: &str, args: &[&str], kw: &[(&str, &str)]) -> String {
        let name = self.s(name);
        let kw = self.kwargs(kw);
        format!(
            "(call $call_method {obj} {name} (i32.wrap_i64 {}) {kw})",
            t(args)
        )
    }

    fn kwargs(&self, kw: &[(&str, &str)]) -> String {
        let mut out = String::from("(call $kw_new)");
        for (k, v) in kw {
            let k = self.s(k);
            out = format!("(call $kw_add {out} {k} {v})");
        }
        format!("(i32.wrap_i64 {out})")
    }

    fn d(&self, pairs: &[(&str, &str)]) -> String {
        dd(pairs)
    }

    fn st_(&self, items: &[&str]) -> String {
        ss(items)
    }

    fn builtin(&self, name: &str, args: &[&str], kw: &[(&str, &str)]) -> String {
        let kw = if kw.is_empty() {
            "(i32.const 0)".to_owned()
        } else {
            self.kwargs(kw)
        };
        format!("(call $b_{name} (i32.wrap_i64 {}) {kw})", t(args))
    }

    fn run(self) -> support::Outcome {
        let nl = self.st.borrow_mut().str("\n");
        let colon = self.st.borrow_mut().str(": ");
        let functions = format!(
            r#"
(func $pr (param $v i64)
  (call $write_str (call $to_repr (local.get $v)))
  (call $write_str (i64.const {nl})))
(func $pr_exc (param $e i64)
  (call $write_str (call $type_name (local.get $e)))
  (call $write_str (i64.const {colon}))
  (call $write_str (call $exc_str (local.get $e)))
  (call $write_str (i64.const {nl})))
(func $t0 (result i64) (i64.extend_i32_u (call $tuple_new (i32.const 0))))
(func $t1 (param i64) (result i64) (local $t i32)
  (local.set $t (call $tuple_new (i32.const 1)))
  (i64.store offset=8 (local.get $t) (local.get 0))
  (i64.extend_i32_u (local.get $t)))
(func $t2 (param i64 i64) (result i64) (local $t i32)
  (local.set $t (call $tuple_new (i32.const 2)))
  (i64.store offset=8 (local.get $t) (local.get 0))
  (i64.store offset=16 (local.get $t) (local.get 1))
  (i64.extend_i32_u (local.get $t)))
(func $t3 (param i64 i64 i64) (result i64) (local $t i32)
  (local.set $t (call $tuple_new (i32.const 3)))
  (i64.store offset=8 (local.get $t) (local.get 0))
  (i64.store offset=16 (local.get $t) (local.get 1))
  (i64.store offset=24 (local.get $t) (local.get 2))
  (i64.extend_i32_u (local.get $t)))
(func $t4 (param i64 i64 i64 i64) (result i64) (local $t i32)
  (local.set $t (call $tuple_new (i32.const 4)))
  (i64.store offset=8 (local.get $t) (local.get 0))
  (i64.store offset=16 (local.get $t) (local.get 1))
  (i64.store offset=24 (local.get $t) (local.get 2))
  (i64.store offset=32 (local.get $t) (local.get 3))
  (i64.extend_i32_u (local.get $t)))
(func $t5 (param i64 i64 i64 i64 i64) (result i64) (local $t i32)
  (local.set $t (call $tuple_new (i32.const 5)))
  (i64.store offset=8 (local.get $t) (local.get 0))
  (i64.store offset=16 (local.get $t) (local.get 1))
  (i64.store offset=24 (local.get $t) (local.get 2))
  (i64.store offset=32 (local.get $t) (local.get 3))
  (i64.store offset=40 (local.get $t) (local.get 4))
  (i64.extend_i32_u (local.get $t)))
;; A list with a tuple's items.
(func $lst (param $tv i64) (result i64) (local $t i32) (local $l i32) (local $n i32) (local $items i32)
  (local.set $t (i32.wrap_i64 (local.get $tv)))
  (local.set $n (i32.load offset=4 (local.get $t)))
  (local.set $items (call $alloc (i32.add (i32.shl (local.get $n) (i32.const 3)) (i32.const 8))))
  (call $memcpy (local.get $items) (i32.add (local.get $t) (i32.const 8)) (i32.shl (local.get $n) (i32.const 3)))
  (local.set $l (call $alloc (i32.const 16)))
  (i32.store (local.get $l) (i32.const 7))
  (i32.store offset=4 (local.get $l) (local.get $n))
  (i32.store offset=8 (local.get $l) (i32.add (local.get $n) (i32.const 1)))
  (i32.store offset=12 (local.get $l) (local.get $items))
  (i64.extend_i32_u (local.get $l)))
(func $kw_new (result i64) (call $dict_new))
(func $kw_add (param $d i64) (param $k i64) (param $v i64) (result i64)
  (call $dict_set (local.get $d) (local.get $k) (local.get $v))
  (local.get $d))
(func $set_push (param $s i64) (param $v i64) (result i64)
  (call $set_add (local.get $s) (local.get $v))
  (local.get $s))
(func $plan_main
  (local $a i64) (local $b i64) (local $c i64) (local $i i64) (local $n i32) (local $k i64)
{body}
)
"#,
            body = self.body.borrow()
        );
        support::run_with(&functions, &self.st.borrow()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn out(self) -> String {
        let outcome = self.run();
        if let Some(error) = outcome.error {
            panic!("uncaught exception:\n{error}\nstdout:\n{}", outcome.stdout);
        }
        outcome.stdout
    }
}

fn lines(out: &str) -> Vec<&str> {
    out.lines().collect()
}

#[test]
fn display_repr_and_lookup() {
    let p = Prog::new();
    let a = p.s("a");
    let d = p.d(&[(&a, &int(1)), (&int(2), &l(&[&int(3)]))]);
    p.set("a", &d);
    p.pr("(local.get $a)");
    p.pr("(call $dict_new)");
    p.pr(&format!("(call $dict_getitem (local.get $a) {a})"));
    p.pr(&format!("(call $dict_getitem (local.get $a) {})", int(2)));
    let missing = p.s("missing");
    p.try_pr(&format!("(call $dict_getitem (local.get $a) {missing})"));
    p.try_pr(&format!(
        "(call $dict_getitem (local.get $a) {})",
        t(&[&int(1), &a])
    ));
    p.try_pr(&format!("(call $dict_getitem (local.get $a) {})", l(&[])));
    p.try_pr(&format!("(call $kw_add (local.get $a) {} {NONE})", l(&[])));
    assert_eq!(
        lines(&p.out()),
        [
            "{'a': 1, 2: [3]}",
            "{}",
            "1",
            "[3]",
            "KeyError: 'missing'",
            "KeyError: (1, 'a')",
            "TypeError: unhashable type: 'list'",
            "TypeError: unhashable type: 'list'",
        ]
    );
}

#[test]
fn equal_keys_share_one_entry() {
    let p = Prog::new();
    let (a, b, c) = (p.s("a"), p.s("b"), p.s("c"));
    let one_f = p.float(1.0);
    let d = p.d(&[(&int(1), &a), (TRUE, &b), (&one_f, &c)]);
    p.set("a", &d);
    p.pr("(local.get $a)");
    let d2 = p.d(&[(&int(1), &c)]);
    p.pr(&format!("(call $bool (call $dict_eq (local.get $a) {d2}))"));
    p.pr(&format!("(call $dict_getitem (local.get $a) {TRUE})"));
    // Overwriting keeps the position; deleting and re-inserting moves the key to the end.
    let d3 = p.d(&[(&a, &int(1)), (&b, &int(2)), (&c, &int(3))]);
    p.set("b", &d3);
    p.stmt(&format!("(call $dict_set (local.get $b) {a} {})", int(9)));
    p.pr("(local.get $b)");
    p.pr(&format!("(call $bool (call $dict_del (local.get $b) {a}))"));
    p.pr(&format!("(call $bool (call $dict_del (local.get $b) {a}))"));
    p.pr("(local.get $b)");
    p.stmt(&format!("(call $dict_set (local.get $b) {a} {})", int(1)));
    p.pr("(local.get $b)");
    p.stmt(&format!("(call $dict_delitem (local.get $b) {b})"));
    p.try_pr(&format!(
        "(call $kw_add (local.get $b) {} {NONE}) (call $dict_delitem (local.get $b) {b})",
        int(5)
    ));
    p.pr("(local.get $b)");
    p.pr(&format!(
        "(call $bool (call $dict_contains (local.get $b) {c}))"
    ));
    p.pr(&format!(
        "(call $bool (call $dict_contains (local.get $b) {b}))"
    ));
    assert_eq!(
        lines(&p.out()),
        [
            "{1: 'c'}",
            "True",
            "'c'",
            "{'a': 9, 'b': 2, 'c': 3}",
            "True",
            "False",
            "{'b': 2, 'c': 3}",
            "{'b': 2, 'c': 3, 'a': 1}",
            "KeyError: 'b'",
            "{'c': 3, 'a': 1, 5: None}",
            "True",
            "False",
        ]
    );
}

#[test]
fn equality_ignores_order() {
    let p = Prog::new();
    let x = p.s("x");
    let cases = [
        (
            p.d(&[(&int(1), &int(2)), (&int(3), &int(4))]),
            p.d(&[(&int(3), &int(4)), (&int(1), &int(2))]),
        ),
        (p.d(&[(&int(1), &int(2))]), p.d(&[(&int(1), &int(3))])),
        (p.d(&[(&int(1), &int(2))]), p.d(&[(&int(2), &int(2))])),
        (
            p.d(&[(&int(1), &l(&[&int(1)]))]),
            p.d(&[(&int(1), &l(&[&int(1)]))]),
        ),
        (
            p.d(&[(&int(1), &int(2))]),
            p.d(&[(&int(1), &int(2)), (&x, &int(2))]),
        ),
        (p.d(&[]), p.d(&[])),
    ];
    for (a, b) in &cases {
        p.pr(&format!("(call $bool (call $dict_eq {a} {b}))"));
    }
    let empty = p.d(&[]);
    p.pr(&format!("(call $bool (call $dict_eq {empty} {}))", l(&[])));
    assert_eq!(
        lines(&p.out()),
        ["True", "False", "False", "True", "False", "True", "False"]
    );
}

#[test]
fn recursive_repr_prints_ellipsis() {
    let p = Prog::new();
    p.set("a", "(call $dict_new)");
    p.stmt(&format!(
        "(call $dict_set (local.get $a) {} (local.get $a))",
        int(1)
    ));
    p.pr("(local.get $a)");
    p.stmt(&format!(
        "(call $dict_set (local.get $a) {} {})",
        int(2),
        l(&["(local.get $a)"])
    ));
    p.pr("(local.get $a)");
    p.pr(&l(&["(local.get $a)", "(local.get $a)"]));
    // A deeply nested dict raises RecursionError and leaves no trace behind.
    p.set("b", "(call $dict_new)");
    p.set("c", "(local.get $b)");
    p.stmt(&format!(
        "(local.set $n (i32.const 0)) (loop $deep (local.set $k (call $dict_new)) (call $dict_set (local.get $c) {} (local.get $k)) (local.set $c (local.get $k)) (local.set $n (i32.add (local.get $n) (i32.const 1))) (br_if $deep (i32.lt_u (local.get $n) (i32.const 3000))))",
        int(0)
    ));
    p.try_pr("(call $dict_repr (local.get $b))");
    p.pr("(local.get $a)");
    let out = p.out();
    let out = lines(&out);
    assert_eq!(
        out[..3],
        [
            "{1: {...}}",
            "{1: {...}, 2: [{...}]}",
            "[{1: {...}, 2: [{...}]}, {1: {...}, 2: [{...}]}]"
        ]
    );
    // CPython adds " while getting the repr of an object" (core.wat's $native_enter message).
    assert!(
        out[3].starts_with("RecursionError: maximum recursion depth exceeded"),
        "{}",
        out[3]
    );
    assert_eq!(out[4], "{1: {...}, 2: [{...}]}");
}

#[test]
fn dict_methods() {
    let p = Prog::new();
    let (a, b, c, n, z) = (p.s("a"), p.s("b"), p.s("c"), p.s("n"), p.s("z"));
    let (x, y, ab) = (p.s("x"), p.s("y"), p.s("ab"));
    let d = p.d(&[(&a, &int(1)), (&b, &int(2))]);
    p.set("a", &d);
    let d = "(local.get $a)";
    let calls = vec![
        p.m(d, "get", &[&a]),
        p.m(d, "get", &[&z]),
        p.m(d, "get", &[&z, &int(5)]),
        p.m(d, "get", &[]),
        p.m(d, "get", &[&int(1), &int(2), &int(3)]),
        p.m(d, "keys", &[]),
        p.m(d, "values", &[]),
        p.m(d, "items", &[]),
        p.m(d, "keys", &[&int(1)]),
        p.m(d, "setdefault", &[&c, &int(3)]),
        p.m(d, "setdefault", &[&c, &int(4)]),
        p.m(d, "setdefault", &[&n]),
        d.to_owned(),
        p.m(d, "pop", &[&n]),
        p.m(d, "pop", &[&n]),
        p.m(d, "pop", &[&n, &int(0)]),
        p.m(d, "pop", &[]),
        p.m(d, "popitem", &[]),
        p.m(d, "popitem", &[]),
        d.to_owned(),
    ];
    let upd1 = p.d(&[(&x, &int(1)), (&a, &int(7))]);
    let pairs = l(&[&t(&[&y, &int(2)]), &l(&[&z, &int(3)]), &ab]);
    let more = vec![
        p.m(d, "update", &[&upd1]),
        p.m(d, "update", &[&pairs]),
        p.mk(d, "update", &[], &[("k", &int(0))]),
        d.to_owned(),
        p.m(d, "update", &[&l(&[&t(&[&int(1), &int(2), &int(3)])])]),
        p.m(d, "update", &[&l(&[&int(5)])]),
        p.m(d, "update", &[&int(5)]),
        p.m(d, "update", &["(call $dict_new)", "(call $dict_new)"]),
        p.mk(d, "get", &[], &[("k", &int(1))]),
        p.m(d, "copy", &[]),
        format!("(call $bool (call $dict_eq {} {d}))", p.m(d, "copy", &[])),
        p.m(d, "clear", &[]),
        d.to_owned(),
        p.m(d, "popitem", &[]),
        p.m(d, "nope", &[]),
    ];
    for call in calls.iter().chain(more.iter()) {
        p.try_pr(call);
    }
    assert_eq!(
        lines(&p.out()),
        [
            "1",
            "None",
            "5",
            "TypeError: get expected at least 1 argument, got 0",
            "TypeError: get expected at most 2 arguments, got 3",
            "dict_keys(['a', 'b'])",
            "dict_values([1, 2])",
            "dict_items([('a', 1), ('b', 2)])",
            "TypeError: dict.keys() takes no arguments (1 given)",
            "3",
            "3",
            "None",
            "{'a': 1, 'b': 2, 'c': 3, 'n': None}",
            "None",
            "KeyError: 'n'",
            "0",
            "TypeError: pop expected at least 1 argument, got 0",
            "('c', 3)",
            "('b', 2)",
            "{'a': 1}",
            "None",
            "None",
            "None",
            "{'a': 'b', 'x': 1, 'y': 2, 'z': 3, 'k': 0}",
            "ValueError: dictionary update sequence element #0 has length 3; 2 is required",
            "TypeError: cannot convert dictionary update sequence element #0 to a sequence",
            "TypeError: 'int' object is not iterable",
            "TypeError: update expected at most 1 argument, got 2",
            "TypeError: dict.get() takes no keyword arguments",
            "{'a': 'b', 'x': 1, 'y': 2, 'z': 3, 'k': 0}",
            "True",
            "None",
            "{}",
            "KeyError: 'popitem(): dictionary is empty'",
            "AttributeError: 'dict' object has no attribute 'nope'",
        ]
    );
}

#[test]
fn dict_builtin() {
    let p = Prog::new();
    let (a, b, ab) = (p.s("a"), p.s("b"), p.s("ab"));
    let src = p.d(&[(&int(1), &int(2))]);
    let calls = vec![
        p.builtin("dict", &[], &[]),
        p.builtin("dict", &[&src], &[("a", &int(1))]),
        p.builtin(
            "dict",
            &[&l(&[&l(&[&int(1), &int(2)]), &ab, &t(&[&int(3), &int(4)])])],
            &[],
        ),
        p.builtin("dict", &[&l(&[&ab])], &[("c", &int(1))]),
        p.builtin("dict", &[], &[("a", &int(1)), ("b", &int(2))]),
        p.builtin("dict", &[&int(1), &int(2)], &[("a", &int(1))]),
        p.builtin("dict", &[&int(1)], &[]),
        p.builtin("dict", &[&l(&[&t(&[&int(1), &int(2), &int(3)])])], &[]),
        p.builtin("dict", &[&l(&[&t(&[&a, &b]), &int(1)])], &[]),
        p.builtin("dict", &[&l(&[&l(&[])])], &[]),
        p.builtin("dict", &[&l(&[&t(&[&l(&[]), &int(1)])])], &[]),
        // From an iterable of pairs that is not a list: a dict's keys are the pairs.
        p.builtin(
            "dict",
            &[&format!(
                "(call $set_push (call $set_new) {})",
                t(&[&a, &int(1)])
            )],
            &[],
        ),
    ];
    for call in &calls {
        p.try_pr(call);
    }
    assert_eq!(
        lines(&p.out()),
        [
            "{}",
            "{1: 2, 'a': 1}",
            "{1: 2, 'a': 'b', 3: 4}",
            "{'a': 'b', 'c': 1}",
            "{'a': 1, 'b': 2}",
            "TypeError: dict expected at most 1 argument, got 2",
            "TypeError: 'int' object is not iterable",
            "ValueError: dictionary update sequence element #0 has length 3; 2 is required",
            "TypeError: cannot convert dictionary update sequence element #1 to a sequence",
            "ValueError: dictionary update sequence element #0 has length 0; 2 is required",
            "TypeError: unhashable type: 'list'",
            "{'a': 1}",
        ]
    );
}

/// Expected outputs are CPython's, except that Baton's sets keep insertion order (marked).
#[test]
fn set_methods_and_operators() {
    let p = Prog::new();
    let (sa, sx) = (p.s("a"), p.s("x"));
    let abca = p.s("abca");
    let s0 = p.st_(&[&int(1), &int(2), &int(3)]);
    p.set("a", &s0);
    let s = "(local.get $a)";
    let mut calls = vec![
        s.to_owned(),
        "(call $set_new)".to_owned(),
        format!("(call $bool (call $set_contains {s} {}))", int(2)),
        p.m(s, "add", &[&int(4)]),
        p.m(s, "add", &[&int(1)]),
        s.to_owned(),
        p.m(s, "remove", &[&int(4)]),
        p.m(s, "remove", &[&int(4)]),
        p.m(s, "discard", &[&int(4)]),
        p.m(s, "discard", &[&int(1)]),
        s.to_owned(),
        p.m(s, "add", &[]),
        p.m(s, "add", &[&l(&[])]),
        p.m(s, "pop", &[]),
        p.m(s, "pop", &[]),
        p.m(s, "pop", &[]),
        p.m(s, "pop", &[&int(1)]),
        p.m(s, "update", &[&l(&[&int(1), &int(2)]), &t(&[&int(3)]), &sa]),
        s.to_owned(),
        p.m(s, "union", &[&l(&[&int(9)]), &ss(&[&int(8)])]),
        p.m(s, "intersection", &[&l(&[&int(1), &int(2), &int(9)])]),
        p.m(s, "intersection", &[]),
        p.m(s, "difference", &[&l(&[&int(1)]), &ss(&[&int(2)])]),
        p.m(s, "symmetric_difference", &[&l(&[&int(3), &int(4)])]),
        p.m(s, "symmetric_difference", &[]),
        p.m(
            s,
            "issubset",
            &[&l(&[&int(1), &int(2), &int(3), &sa, &int(5)])],
        ),
        p.m(s, "issubset", &[&l(&[&int(1)])]),
        p.m(s, "issuperset", &[&l(&[&int(1), &int(2)])]),
        p.m(s, "issuperset", &[&l(&[&int(7)])]),
        p.m(s, "isdisjoint", &[&l(&[&int(7)])]),
        p.m(s, "isdisjoint", &[&l(&[&int(1)])]),
        p.m(s, "union", &[&int(1)]),
        p.m(s, "copy", &[]),
        p.mk(s, "add", &[], &[("x", &int(1))]),
        p.m(s, "frob", &[]),
        p.m(s, "clear", &[]),
        s.to_owned(),
        p.m(s, "pop", &[]),
    ];
    let a = p.st_(&[&int(1), &int(2), &int(3)]);
    let b = p.st_(&[&int(2), &int(3), &int(4)]);
    let s23 = p.st_(&[&int(2), &int(3)]);
    let s2 = p.st_(&[&int(2)]);
    let a321 = p.st_(&[&int(3), &int(2), &int(1)]);
    calls.extend([
        format!("(call $set_or {a} {b})"),
        format!("(call $set_and {a} {b})"),
        format!("(call $set_sub {a} {b})"),
        format!("(call $set_xor {a} {b})"),
        format!("(call $set_or {a} {})", l(&[&int(1)])),
        format!("(call $bool (call $set_le {a} {b}))"),
        format!("(call $bool (call $set_le {s23} {b}))"),
        format!("(call $bool (call $set_lt {s23} {b}))"),
        format!("(call $bool (call $set_lt {b} {b}))"),
        format!("(call $bool (call $set_le {b} {b}))"),
        format!("(call $bool (call $set_ge {b} {s2}))"),
        format!("(call $bool (call $set_gt {b} {s2}))"),
        format!("(call $bool (call $set_le {a} {}))", l(&[&int(1)])),
        format!("(call $bool (call $set_eq {a} {a321}))"),
        format!("(call $bool (call $set_eq {a} {b}))"),
        format!(
            "(call $bool (call $set_eq {a} {}))",
            l(&[&int(1), &int(2), &int(3)])
        ),
        p.builtin("set", &[&l(&[&int(3), &int(1), &int(3), &int(2)])], &[]),
        p.builtin("set", &[&abca], &[]),
        p.builtin("set", &[&dd(&[(&sx, &int(1)), (&sa, &int(2))])], &[]),
        p.builtin("set", &[&int(1), &int(2)], &[]),
        p.builtin("set", &[], &[("a", &int(1))]),
        p.builtin("set", &[&int(5)], &[]),
        p.builtin("set", &[], &[]),
        p.st_(&[&t(&[&int(1), &int(2)]), &t(&[&int(1), &int(2)]), &sx]),
        p.st_(&[&int(1), TRUE, FALSE, &int(0)]),
    ]);
    for call in &calls {
        p.try_pr(call);
    }
    assert_eq!(
        lines(&p.out()),
        [
            "{1, 2, 3}",
            "set()",
            "True",
            "None",
            "None",
            "{1, 2, 3, 4}",
            "None",
            "KeyError: 4",
            "None",
            "None",
            "{2, 3}",
            "TypeError: set.add() takes exactly one argument (0 given)",
            "TypeError: unhashable type: 'list'",
            "2",
            "3",
            "KeyError: 'pop from an empty set'",
            "TypeError: set.pop() takes no arguments (1 given)",
            "None",
            "{1, 2, 3, 'a'}",
            "{1, 2, 3, 'a', 9, 8}", // CPython: {1, 2, 3, 'a', 8, 9}
            "{1, 2}",
            "{1, 2, 3, 'a'}",
            "{3, 'a'}",
            "{1, 2, 'a', 4}", // CPython: {1, 2, 4, 'a'}
            "TypeError: set.symmetric_difference() takes exactly one argument (0 given)",
            "True",
            "False",
            "True",
            "False",
            "True",
            "False",
            "TypeError: 'int' object is not iterable",
            "{1, 2, 3, 'a'}",
            "TypeError: set.add() takes no keyword arguments",
            "AttributeError: 'set' object has no attribute 'frob'",
            "None",
            "set()",
            "KeyError: 'pop from an empty set'",
            "{1, 2, 3, 4}",
            "{2, 3}",
            "{1}",
            "{1, 4}",
            "TypeError: unsupported operand type(s) for |: 'set' and 'list'",
            "False",
            "True",
            "True",
            "False",
            "True",
            "True",
            "True",
            "TypeError: '<=' not supported between instances of 'set' and 'list'",
            "True",
            "False",
            "False",
            "{3, 1, 2}",       // CPython: {1, 2, 3}
            "{'a', 'b', 'c'}", // CPython: hash order
            "{'x', 'a'}",
            "TypeError: set expected at most 1 argument, got 2",
            "TypeError: set() takes no keyword arguments",
            "TypeError: 'int' object is not iterable",
            "set()",
            "{(1, 2), 'x'}",
            "{1, False}", // CPython: {False, 1}
        ]
    );
}

/// A counting loop over `count` str keys drawn from `distinct` words ("w0", "w1", ...).
fn word_count(count: i64, distinct: i64) -> Prog {
    let p = Prog::new();
    p.set("a", "(call $dict_new)");
    p.stmt(&format!(
        r#"(local.set $i (i64.const 0))
        (loop $each
          (local.set $n (call $sb_new))
          (call $sb_push_byte (local.get $n) (i32.const 119))
          (call $sb_push_i64 (local.get $n) (i64.rem_u (local.get $i) (i64.const {distinct})))
          (local.set $k (call $sb_finish (local.get $n)))
          (local.set $b (call $dict_get (local.get $a) (local.get $k)))
          (if (i64.eqz (local.get $b))
            (then (call $dict_set (local.get $a) (local.get $k) {one}))
            (else (call $dict_set (local.get $a) (local.get $k) (i64.add (local.get $b) (i64.const 2)))))
          (local.set $i (i64.add (local.get $i) (i64.const 1)))
          (br_if $each (i64.lt_u (local.get $i) (i64.const {count}))))"#,
        one = int(1)
    ));
    p
}

#[test]
fn many_string_keys() {
    let p = word_count(200_000, 5000);
    let (w0, w4999, w5000) = (p.s("w0"), p.s("w4999"), p.s("w5000"));
    p.pr("(i64.or (i64.shl (i64.extend_i32_u (i32.load offset=4 (i32.wrap_i64 (local.get $a)))) (i64.const 1)) (i64.const 1))");
    p.pr(&format!("(call $dict_getitem (local.get $a) {w0})"));
    p.pr(&format!("(call $dict_getitem (local.get $a) {w4999})"));
    p.try_pr(&format!("(call $dict_getitem (local.get $a) {w5000})"));
    assert_eq!(lines(&p.out()), ["5000", "40", "40", "KeyError: 'w5000'"]);
}

#[test]
fn many_int_keys_with_deletions_keep_order() {
    let p = Prog::new();
    p.set("a", "(call $dict_new)");
    // d[i] = i for i in range(100000); then delete the even keys; then re-add 0.
    p.stmt(&format!(
        r#"(local.set $i (i64.const 0))
        (loop $each
          (call $dict_set (local.get $a) (i64.or (i64.shl (local.get $i) (i64.const 1)) (i64.const 1))
            (i64.or (i64.shl (local.get $i) (i64.const 1)) (i64.const 1)))
          (local.set $i (i64.add (local.get $i) (i64.const 1)))
          (br_if $each (i64.lt_u (local.get $i) (i64.const 100000))))
        (local.set $i (i64.const 0))
        (loop $each
          (drop (call $dict_del (local.get $a) (i64.or (i64.shl (local.get $i) (i64.const 1)) (i64.const 1))))
          (local.set $i (i64.add (local.get $i) (i64.const 2)))
          (br_if $each (i64.lt_u (local.get $i) (i64.const 100000))))
        (call $dict_set (local.get $a) {zero} {zero})"#,
        zero = int(0)
    ));
    // Sum and count of the values, in iteration order through seq.wat's $iter/$next.
    p.stmt(
        r#"(local.set $b (call $iter (local.get $a)))
        (local.set $c (i64.const 0))
        (local.set $i (i64.const 0))
        (block $done
          (loop $each
            (local.set $k (call $next (local.get $b)))
            (br_if $done (i64.eqz (local.get $k)))
            (local.set $c (i64.add (local.get $c) (i64.shr_s (call $dict_getitem (local.get $a) (local.get $k)) (i64.const 1))))
            (local.set $i (i64.add (local.get $i) (i64.const 1)))
            (br $each)))"#,
    );
    p.pr("(i64.or (i64.shl (local.get $c) (i64.const 1)) (i64.const 1))");
    p.pr("(i64.or (i64.shl (local.get $i) (i64.const 1)) (i64.const 1))");
    // The first keys and the last one: popitem takes the re-added 0, then 99999.
    let keys = p.m("(local.get $a)", "keys", &[]);
    p.pr(&format!(
        "(call $getitem (call $list_from {keys}) {})",
        int(0)
    ));
    p.pr(&p.m("(local.get $a)", "popitem", &[]));
    p.pr(&p.m("(local.get $a)", "popitem", &[]));
    p.pr(&p.m("(local.get $a)", "popitem", &[]));
    assert_eq!(
        lines(&p.out()),
        [
            "2500000000",
            "50001",
            "1",
            "(0, 0)",
            "(99999, 99999)",
            "(99997, 99997)"
        ]
    );
}

#[test]
fn draining_with_popitem_and_pop_is_linear() {
    let p = Prog::new();
    p.set("a", "(call $dict_new)");
    p.set("b", "(call $set_new)");
    let popitem = p.m("(local.get $a)", "popitem", &[]);
    let pop = p.m("(local.get $b)", "pop", &[]);
    p.stmt(&format!(
        r#"(local.set $i (i64.const 0))
        (loop $each
          (local.set $k (i64.or (i64.shl (local.get $i) (i64.const 1)) (i64.const 1)))
          (call $dict_set (local.get $a) (local.get $k) (local.get $k))
          (call $set_add (local.get $b) (local.get $k))
          (local.set $i (i64.add (local.get $i) (i64.const 1)))
          (br_if $each (i64.lt_u (local.get $i) (i64.const 200000))))
        (local.set $c (i64.const 0))
        (loop $each
          (local.set $c (i64.add (local.get $c)
            (i64.shr_s (i64.load offset=8 (i32.wrap_i64 {popitem})) (i64.const 1))))
          (local.set $c (i64.sub (local.get $c) (i64.shr_s {pop} (i64.const 1))))
          (br_if $each (i32.load offset=4 (i32.wrap_i64 (local.get $a)))))"#
    ));
    p.pr("(i64.or (i64.shl (local.get $c) (i64.const 1)) (i64.const 1))");
    p.pr("(local.get $a)");
    p.pr("(local.get $b)");
    // Tables that were drained still work.
    p.stmt(&format!(
        "(call $dict_set (local.get $a) {} {NONE})",
        int(7)
    ));
    p.stmt(&format!("(call $set_add (local.get $b) {})", int(7)));
    p.pr("(local.get $a)");
    p.pr("(local.get $b)");
    assert_eq!(lines(&p.out()), ["0", "{}", "set()", "{7: None}", "{7}"]);
}

#[test]
fn copies_are_independent_and_in_place_operators_update() {
    let p = Prog::new();
    let (x, y) = (p.s("x"), p.s("y"));
    p.set("a", &dd(&[(&x, &int(1)), (&y, &int(2))]));
    p.set("b", &p.m("(local.get $a)", "copy", &[]));
    p.stmt(&format!("(call $dict_set (local.get $b) {x} {})", int(5)));
    p.pr("(local.get $a)");
    p.pr("(local.get $b)");
    p.pr(&format!(
        "(call $dict_or (local.get $a) {})",
        dd(&[(&y, &int(9)), (&int(3), &int(3))])
    ));
    p.pr(&format!(
        "(call $dict_ior (local.get $a) {})",
        l(&[&t(&[&int(4), &int(4)])])
    ));
    p.pr("(local.get $a)");
    p.set("c", &ss(&[&int(1), &int(2), &int(3)]));
    p.set("k", "(local.get $c)");
    p.pr(&format!(
        "(call $set_ior (local.get $c) {})",
        ss(&[&int(4)])
    ));
    p.pr(&format!(
        "(call $set_iand (local.get $c) {})",
        ss(&[&int(4), &int(2), &int(3)])
    ));
    p.pr(&format!(
        "(call $set_isub (local.get $c) {})",
        ss(&[&int(4)])
    ));
    p.pr(&format!(
        "(call $set_ixor (local.get $c) {})",
        ss(&[&int(3), &int(5)])
    ));
    p.pr("(local.get $k)");
    p.try_pr(&format!("(call $set_ior (local.get $c) {})", l(&[])));
    p.pr(&p.m(
        "(local.get $c)",
        "intersection_update",
        &[&l(&[&int(5), &int(6)])],
    ));
    p.pr("(local.get $c)");
    p.pr(&p.m("(local.get $c)", "difference_update", &[&l(&[&int(5)])]));
    p.pr("(local.get $c)");
    p.pr(&p.m(
        "(local.get $c)",
        "symmetric_difference_update",
        &[&l(&[&int(1), &int(2)])],
    ));
    p.pr("(local.get $c)");
    p.pr(&p.m("(local.get $c)", "intersection_update", &[]));
    p.pr("(local.get $k)");
    assert_eq!(
        lines(&p.out()),
        [
            "{'x': 1, 'y': 2}",
            "{'x': 5, 'y': 2}",
            "{'x': 1, 'y': 9, 3: 3}",
            "{'x': 1, 'y': 2, 4: 4}",
            "{'x': 1, 'y': 2, 4: 4}",
            "{1, 2, 3, 4}",
            "{4, 2, 3}", // CPython: {2, 3, 4}
            "{2, 3}",
            "{2, 5}",
            "{2, 5}",
            "TypeError: unsupported operand type(s) for |=: 'set' and 'list'",
            "None",
            "{5}",
            "None",
            "set()",
            "None",
            "{1, 2}",
            "None",
            "{1, 2}",
        ]
    );
}

/// `(call $bool (call $f a b))` for i32-returning runtime predicates.
fn pred(f: &str, a: &str, b: &str) -> String {
    format!("(call $bool (call ${f} {a} {b}))")
}

#[test]
fn views_are_live_and_iterate() {
    let p = Prog::new();
    let (a, b, c) = (p.s("a"), p.s("b"), p.s("c"));
    p.set("a", &p.d(&[(&a, &int(1)), (&b, &int(2))]));
    let d = "(local.get $a)";
    p.set("b", &p.m(d, "keys", &[]));
    p.set("c", &p.m(d, "items", &[]));
    p.set("i", &p.m(d, "values", &[]));
    let (k, it, v) = ("(local.get $b)", "(local.get $c)", "(local.get $i)");
    p.pr(k);
    p.pr(v);
    p.pr(it);
    // d["c"] = 3 after the views were made: they see it.
    p.stmt(&format!("(call $dict_set {d} {c} {})", int(3)));
    p.pr(k);
    p.pr(&format!("(call $list_from {v})"));
    p.pr(&format!("(call $tuple_from {it})"));
    p.pr(&format!(
        "(i64.or (i64.shl (call $len {it}) (i64.const 1)) (i64.const 1))"
    ));
    p.pr(&format!("(call $bool (call $truthy {k}))"));
    p.pr(&format!(
        "(call $bool (call $truthy {}))",
        p.m("(call $dict_new)", "values", &[])
    ));
    p.pr(&p.m("(call $dict_new)", "keys", &[]));
    p.pr(&p.m("(call $dict_new)", "items", &[]));
    // sorted() and sum() go through $iter.
    p.pr(&p.builtin("sorted", &[v], &[("reverse", TRUE)]));
    p.pr(&p.builtin("sum", &[v], &[]));
    p.pr(&p.builtin("set", &[k], &[]));
    p.pr(&p.builtin("dict", &[it], &[]));
    p.pr(&format!(
        "(call $list_from {})",
        p.builtin("reversed", &[it], &[])
    ));
    // Deleting through the dict shows in the view.
    p.stmt(&format!("(call $dict_delitem {d} {a})"));
    p.pr(it);
    assert_eq!(
        lines(&p.out()),
        [
            "dict_keys(['a', 'b'])",
            "dict_values([1, 2])",
            "dict_items([('a', 1), ('b', 2)])",
            "dict_keys(['a', 'b', 'c'])",
            "[1, 2, 3]",
            "(('a', 1), ('b', 2), ('c', 3))",
            "3",
            "True",
            "False",
            "dict_keys([])",
            "dict_items([])",
            "[3, 2, 1]",
            "6",
            "{'a', 'b', 'c'}",
            "{'a': 1, 'b': 2, 'c': 3}",
            "[('c', 3), ('b', 2), ('a', 1)]",
            "dict_items([('b', 2), ('c', 3)])",
        ]
    );
}

#[test]
fn view_iteration_raises_when_the_dict_changes_size() {
    let p = Prog::new();
    let (a, b, z) = (p.s("a"), p.s("b"), p.s("z"));
    p.set("a", &p.d(&[(&a, &int(1)), (&b, &int(2))]));
    for method in ["keys", "values", "items"] {
        p.set(
            "b",
            &format!("(call $iter {})", p.m("(local.get $a)", method, &[])),
        );
        p.pr("(call $next (local.get $b))");
        p.stmt(&format!("(call $dict_set (local.get $a) {z} {})", int(0)));
        p.try_pr("(call $next (local.get $b))");
        // Sticky, as in CPython.
        p.try_pr("(call $next (local.get $b))");
        p.stmt(&format!("(drop (call $dict_del (local.get $a) {z}))"));
    }
    assert_eq!(
        lines(&p.out()),
        [
            "'a'",
            "RuntimeError: dictionary changed size during iteration",
            "RuntimeError: dictionary changed size during iteration",
            "1",
            "RuntimeError: dictionary changed size during iteration",
            "RuntimeError: dictionary changed size during iteration",
            "('a', 1)",
            "RuntimeError: dictionary changed size during iteration",
            "RuntimeError: dictionary changed size during iteration",
        ]
    );
}

#[test]
fn view_membership_equality_and_order() {
    let p = Prog::new();
    let (a, b, c) = (p.s("a"), p.s("b"), p.s("c"));
    p.set("a", &p.d(&[(&a, &int(1)), (&b, &int(2))]));
    let d = "(local.get $a)";
    p.set("b", &p.m(d, "keys", &[]));
    p.set("c", &p.m(d, "items", &[]));
    p.set("i", &p.m(d, "values", &[]));
    let (k, it, v) = ("(local.get $b)", "(local.get $c)", "(local.get $i)");
    let cases = [
        pred("contains", k, &a),
        pred("contains", k, &c),
        pred("contains", it, &t(&[&a, &int(1)])),
        pred("contains", it, &t(&[&a, &int(2)])),
        pred("contains", it, &a),
        pred("contains", it, &t(&[&a, &int(1), &int(1)])),
        pred("contains", v, &int(2)),
        pred("contains", v, &int(5)),
        // ([1], 2) in d.items(): the key is hashed.
        pred("contains", it, &t(&[&l(&[&int(1)]), &int(2)])),
        pred("eq", k, &p.st_(&[&b, &a])),
        pred("eq", &p.st_(&[&b, &a]), k),
        pred("eq", k, &p.st_(&[&a])),
        pred("eq", k, &l(&[&a, &b])),
        pred("eq", k, &p.m(d, "keys", &[])),
        pred("eq", k, it),
        pred("eq", it, &p.st_(&[&t(&[&a, &int(1)]), &t(&[&b, &int(2)])])),
        pred(
            "eq",
            it,
            &p.m(&p.d(&[(&b, &int(2)), (&a, &int(1))]), "items", &[]),
        ),
        pred(
            "eq",
            it,
            &p.m(&p.d(&[(&b, &int(2)), (&a, &int(3))]), "items", &[]),
        ),
        pred("eq", v, v),
        pred("eq", v, &p.m(d, "values", &[])),
        pred("lt", k, &p.st_(&[&a, &b, &c])),
        pred("lt", k, k),
        pred("le", k, k),
        pred("lt", &p.st_(&[&a]), k),
        pred("ge", k, &p.st_(&[&c])),
        pred("gt", it, &p.st_(&[&t(&[&a, &int(1)])])),
        pred("lt", k, &l(&[&a])),
        pred("lt", &l(&[&a]), k),
        pred("lt", v, v),
        format!("(i64.extend_i32_u (i32.wrap_i64 (call $hash {k})))"),
        format!("(i64.extend_i32_u (i32.wrap_i64 (call $hash {it})))"),
    ];
    for case in &cases {
        p.try_pr(case);
    }
    assert_eq!(
        lines(&p.out()),
        [
            "True",
            "False",
            "True",
            "False",
            "False",
            "False",
            "True",
            "False",
            "TypeError: unhashable type: 'list'",
            "True",
            "True",
            "False",
            "False",
            "True",
            "False",
            "True",
            "True",
            "False",
            "True",
            "False",
            "True",
            "False",
            "True",
            "True",
            "False",
            "True",
            "TypeError: '<' not supported between instances of 'dict_keys' and 'list'",
            "TypeError: '<' not supported between instances of 'list' and 'dict_keys'",
            "TypeError: '<' not supported between instances of 'dict_values' and 'dict_values'",
            "TypeError: unhashable type: 'dict_keys'",
            "TypeError: unhashable type: 'dict_items'",
        ]
    );
}

#[test]
fn view_set_operations() {
    let p = Prog::new();
    let (a, b, z) = (p.s("a"), p.s("b"), p.s("z"));
    p.set("a", &p.d(&[(&a, &int(1)), (&b, &int(2))]));
    let d = "(local.get $a)";
    p.set("b", &p.m(d, "keys", &[]));
    p.set("c", &p.m(d, "items", &[]));
    p.set("i", &p.m(d, "values", &[]));
    let (k, it, v) = ("(local.get $b)", "(local.get $c)", "(local.get $i)");
    let sorted = |e: &str| p.builtin("sorted", &[e], &[]);
    let cases = [
        sorted(&format!("(call $bitand {k} {})", p.st_(&[&a, &z]))),
        sorted(&format!("(call $bitand {} {k})", l(&[&z, &b]))),
        sorted(&format!("(call $bitor {k} {})", l(&[&z]))),
        sorted(&format!("(call $bitor {} {k})", p.st_(&[&z]))),
        sorted(&format!("(call $sub {k} {})", p.st_(&[&a]))),
        sorted(&format!("(call $sub {} {k})", l(&[&a, &z]))),
        sorted(&format!("(call $bitxor {k} {})", p.st_(&[&a, &z]))),
        sorted(&format!("(call $sub {k} {})", p.m(d, "keys", &[]))),
        format!("(call $bitand {it} {})", p.st_(&[&t(&[&a, &int(1)])])),
        sorted(&format!("(call $bitor {k} {v})")),
        format!("(call $bitand {k} {})", int(5)),
        format!("(call $bitand {} {k})", int(5)),
        format!("(call $sub {} {k})", int(5)),
        format!("(call $bitor {k} {})", int(5)),
        format!("(call $bitand {v} {})", p.st_(&[&int(1)])),
        format!("(call $add {k} {k})"),
        format!("(call $bitor {} {k})", l(&[&l(&[&int(1)])])),
    ];
    for case in &cases {
        p.try_pr(case);
    }
    assert_eq!(
        lines(&p.out()),
        [
            "['a']",
            "['b']",
            "['a', 'b', 'z']",
            "['a', 'b', 'z']",
            "['b']",
            "['z']",
            "['b', 'z']",
            "[]",
            "{('a', 1)}",
            "TypeError: '<' not supported between instances of 'int' and 'str'",
            "TypeError: 'int' object is not iterable",
            "TypeError: 'int' object is not iterable",
            "TypeError: 'int' object is not iterable",
            "TypeError: 'int' object is not iterable",
            "TypeError: unsupported operand type(s) for &: 'dict_values' and 'set'",
            "TypeError: unsupported operand type(s) for +: 'dict_keys' and 'dict_keys'",
            "TypeError: unhashable type: 'list'",
        ]
    );
}

#[test]
fn view_repr_guards_recursion() {
    let p = Prog::new();
    // d = {}; d[1] = d.values(); d[2] = d.keys()
    p.set("a", "(call $dict_new)");
    p.stmt(&format!(
        "(call $dict_set (local.get $a) {} {})",
        int(1),
        p.m("(local.get $a)", "values", &[])
    ));
    p.pr(&p.m("(local.get $a)", "values", &[]));
    p.pr("(local.get $a)");
    p.stmt(&format!(
        "(call $dict_set (local.get $a) {} {})",
        int(2),
        p.m("(local.get $a)", "keys", &[])
    ));
    p.pr(&p.m("(local.get $a)", "items", &[]));
    assert_eq!(
        lines(&p.out()),
        [
            "dict_values([dict_values([...])])",
            "{1: dict_values([...])}",
            "dict_items([(1, dict_values([..., dict_keys([1, 2])])), (2, dict_keys([1, 2]))])",
        ]
    );
}
