//! Typed expressions. Every compound expression is parenthesised, so precedence never depends
//! on context. Sizes stay bounded: repetition counts and `range` bounds are literals.

use super::{Env, Gen, Param, Ty, MAX_LOOPS};

/// String literals, in source form: ASCII, separators, digits, escapes and a little Unicode
/// (case mapping and length of non-ASCII text is a classic source of differences).
pub(super) const STRS: &[&str] = &[
    "''",
    "'a'",
    "'ab c'",
    "'x,y,z'",
    "' pad '",
    "'Hello World'",
    "'é日本'",
    "'a-b-a'",
    "'42'",
    "'-7'",
    "'3.5'",
    "'{}'",
    "'\\n'",
    "'tab\\there'",
    "\"q'uote\"",
    "'AbC'",
    "'  '",
    "'abcabc'",
    "'straße'",
    "'line1\\nline2\\n'",
    "'x'",
    "'0b101'",
    "' 12 '",
    "'ǅx'",
];

/// Keys of the str→int dicts: few, so lookups hit as often as they miss.
pub(super) const KEYS: &[&str] = &["'a'", "'b'", "'c'", "'key'", "'x'", "'zz'"];

const FLOATS: &[&str] = &[
    "0.0",
    "(-0.0)",
    "0.1",
    "0.5",
    "1.5",
    "2.675",
    "(-3.25)",
    "1e-07",
    "123456.789",
    "1e+16",
    "1e22",
    "2.5",
    "(-2.5)",
    "3.0",
    "0.30000000000000004",
    "float('inf')",
    "float('-inf')",
    "float('nan')",
    "1.7976931348623157e+308",
    "5e-324",
    "(1/3)",
    "100.0",
];

const FLOAT_STRS: &[&str] = &[
    "'1e3'",
    "' 2.5 '",
    "'inf'",
    "'-nan'",
    "'1_000.5'",
    "'.5'",
    "'-0'",
    "'1e400'",
    "'-1E-3'",
];
const BAD_FLOAT_STRS: &[&str] = &["'abc'", "'1e'", "''", "'1,5'"];
const INT_STRS: &[&str] = &["'12'", "' -7 '", "'+3'", "'1_000'", "'007'", "'٣'", "'0'"];
const BAD_INT_STRS: &[&str] = &["'0x1f'", "'abc'", "''", "'3.5'", "'1__0'"];

impl Gen {
    /// An expression of type `ty`; `depth` bounds its nesting.
    pub(super) fn expr(&mut self, env: &Env, ty: Ty, depth: u32) -> String {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(env, ty);
        }
        let d = depth - 1;
        match ty {
            Ty::Int => self.int_expr(env, d),
            Ty::Float => self.float_expr(env, d),
            Ty::Str => self.str_expr(env, d),
            Ty::Bool => self.bool_expr(env, d),
            Ty::None => self.none_expr(env, d),
            Ty::ListInt => self.list_int_expr(env, d),
            Ty::ListStr => self.list_str_expr(env, d),
            Ty::Tuple => self.tuple_expr(env, d),
            Ty::Dict => self.dict_expr(env, d),
            Ty::Set => self.set_expr(env, d),
        }
    }

    /// A variable of type `ty` if one is visible (usually), else a literal.
    pub(super) fn leaf(&mut self, env: &Env, ty: Ty) -> String {
        let vars = env.of_type(ty);
        if !vars.is_empty() && self.rng.chance(70) {
            return self.rng.pick(&vars).name.clone();
        }
        self.literal(ty)
    }

    pub(super) fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int => self.lit_int(),
            Ty::Float => self.rng.pick(FLOATS).to_string(),
            Ty::Str => self.rng.pick(STRS).to_string(),
            Ty::Bool => self.rng.pick(&["True", "False"]).to_string(),
            Ty::None => "None".to_string(),
            Ty::ListInt => {
                let n = self.rng.below(6);
                let items: Vec<String> = (0..n).map(|_| self.small_int()).collect();
                format!("[{}]", items.join(", "))
            }
            Ty::ListStr => {
                let n = self.rng.below(5);
                let items: Vec<String> = (0..n).map(|_| self.rng.pick(STRS).to_string()).collect();
                format!("[{}]", items.join(", "))
            }
            Ty::Tuple => match self.rng.below(4) {
                0 => "()".to_string(),
                1 => format!("({},)", self.small_int()),
                _ => {
                    let n = self.rng.range(2, 5);
                    let items: Vec<String> = (0..n).map(|_| self.small_int()).collect();
                    format!("({})", items.join(", "))
                }
            },
            Ty::Dict => {
                let n = self.rng.below(4);
                let items: Vec<String> = (0..n)
                    .map(|_| format!("{}: {}", self.rng.pick(KEYS), self.small_int()))
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
            Ty::Set => {
                let n = self.rng.below(5);
                if n == 0 {
                    return "set()".to_string();
                }
                let items: Vec<String> = (0..n).map(|_| self.small_int()).collect();
                format!("{{{}}}", items.join(", "))
            }
        }
    }

    /// Mostly small ints, sometimes large ones (products of two stay inside 64 bits).
    pub(super) fn lit_int(&mut self) -> String {
        let v = match self.rng.below(20) {
            0..=11 => self.rng.range(-10, 20),
            12..=16 => self.rng.range(-1000, 1000),
            17 => self.rng.range(-1_000_000_000, 1_000_000_000),
            18 => *self
                .rng
                .pick(&[0, 1, -1, 2, 255, 256, 1 << 31, -(1 << 31), 65535]),
            _ => self.rng.range(0, 3),
        };
        if v < 0 {
            format!("({v})")
        } else {
            v.to_string()
        }
    }

    pub(super) fn small_int(&mut self) -> String {
        let v = self.rng.range(-5, 12);
        if v < 0 {
            format!("({v})")
        } else {
            v.to_string()
        }
    }

    /// A literal count for repetition, `range` and slicing bounds.
    pub(super) fn count(&mut self, max: i64) -> String {
        self.rng.range(0, max).to_string()
    }

    fn nonzero_step(&mut self) -> String {
        let step = *self.rng.pick(&[1, 2, 3, -1, -2, 1, 2]);
        if step < 0 {
            format!("({step})")
        } else {
            step.to_string()
        }
    }

    /// A slice `[a:b:c]` with optional parts; the step may be any int (0 raises ValueError).
    pub(super) fn slice(&mut self, env: &Env, depth: u32) -> String {
        let part = |g: &mut Gen| {
            if g.rng.chance(35) {
                String::new()
            } else if g.rng.chance(70) {
                g.rng.range(-6, 8).to_string()
            } else {
                g.expr(env, Ty::Int, depth.min(1))
            }
        };
        let a = part(self);
        let b = part(self);
        match self.rng.below(3) {
            0 => format!("[{a}:{b}]"),
            1 => format!("[{a}:{b}:{}]", self.nonzero_step()),
            _ => {
                let c = if self.risky() {
                    "0".to_string()
                } else {
                    self.nonzero_step()
                };
                format!("[{a}:{b}:{c}]")
            }
        }
    }

    /// True rarely: choose the alternative that raises. Errors are worth testing, but a plan
    /// whose sections all fail early covers little else.
    pub(super) fn risky(&mut self) -> bool {
        self.rng.chance(6)
    }

    /// One of `valid`, or (rarely) one of `invalid`.
    pub(super) fn pick_risky(&mut self, valid: &[&str], invalid: &[&str]) -> String {
        if self.risky() {
            self.rng.pick(invalid).to_string()
        } else {
            self.rng.pick(valid).to_string()
        }
    }

    /// A small index: mostly 0, -1 or 1, sometimes anything.
    fn index(&mut self, env: &Env, depth: u32) -> String {
        match self.rng.below(20) {
            0..=8 => "0".to_string(),
            9..=12 => "(-1)".to_string(),
            13..=15 => "1".to_string(),
            16 | 17 => {
                let v = self.rng.range(-4, 5);
                if v < 0 {
                    format!("({v})")
                } else {
                    v.to_string()
                }
            }
            _ => self.expr(env, Ty::Int, depth),
        }
    }

    /// A lambda `lambda p: <int expr over p>` (and, for keys, over ints).
    pub(super) fn int_lambda(&mut self, env: &Env) -> String {
        let p = self.fresh("p");
        let mut inner = env.clone();
        inner.add(&p, Ty::Int);
        inner.loops = MAX_LOOPS;
        let body = match self.rng.below(6) {
            0 => format!("(-{p})"),
            1 => format!("({p} % {})", self.rng.range(2, 5)),
            2 => format!("({p} * {p})"),
            3 => format!("abs({p} - {})", self.small_int()),
            4 => format!("({p} % 3, -{p})"),
            _ => self.expr(&inner, Ty::Int, 1),
        };
        format!("(lambda {p}: {body})")
    }

    fn str_lambda(&mut self) -> String {
        let p = self.fresh("p");
        let body = match self.rng.below(5) {
            0 => format!("len({p})"),
            1 => format!("{p}.lower()"),
            2 => format!("{p}[::-1]"),
            3 => format!("(len({p}), {p})"),
            _ => format!("{p}.count('a')"),
        };
        format!("(lambda {p}: {body})")
    }

    fn int_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(30) {
            0..=3 => {
                let op = self.rng.pick(&["+", "-", "*", "+", "-"]);
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Int, d);
                format!("({a} {op} {b})")
            }
            4 | 5 => {
                let op = self.rng.pick(&["//", "%"]);
                let a = self.expr(env, Ty::Int, d);
                let b = if self.rng.chance(85) {
                    self.pick_risky(&["2", "3", "(-2)", "(-3)", "7", "(-7)", "1"], &["0"])
                } else {
                    self.expr(env, Ty::Int, d)
                };
                format!("({a} {op} {b})")
            }
            6 => {
                let a = self.expr(env, Ty::Int, d.min(1));
                format!("({a} ** {})", self.rng.range(0, 3))
            }
            7 => {
                let op = self.rng.pick(&["&", "|", "^"]);
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Int, d);
                format!("({a} {op} {b})")
            }
            8 => {
                let a = self.expr(env, Ty::Int, d);
                match self.rng.below(3) {
                    0 => format!("({a} << {})", self.rng.range(0, 8)),
                    1 => format!("({a} >> {})", self.rng.range(0, 5)),
                    _ => format!("(~{a})"),
                }
            }
            9 => {
                let a = self.expr(env, Ty::Int, d);
                if self.rng.chance(50) {
                    format!("(-{a})")
                } else {
                    format!("abs({a})")
                }
            }
            10 => {
                let ty = *self.rng.pick(&[
                    Ty::Str,
                    Ty::ListInt,
                    Ty::ListStr,
                    Ty::Tuple,
                    Ty::Dict,
                    Ty::Set,
                ]);
                format!("len({})", self.expr(env, ty, d))
            }
            11 => {
                let l = self.expr(env, Ty::ListInt, d);
                format!("{l}[{}]", self.index(env, d))
            }
            12 => {
                let m = self.expr(env, Ty::Dict, d);
                let k = self.key(env, d);
                match self.rng.below(3) {
                    0 if self.rng.chance(30) => format!("{m}[{k}]"),
                    0 | 1 => format!("{m}.get({k}, {})", self.small_int()),
                    _ => format!("{m}.setdefault({k}, {})", self.small_int()),
                }
            }
            13 => match self.rng.below(6) {
                0 => format!("int({})", self.expr(env, Ty::Float, d)),
                1 => format!("int({})", self.pick_risky(INT_STRS, BAD_INT_STRS)),
                2 => format!(
                    "int({}, {})",
                    self.rng
                        .pick(&["'ff'", "'0x1f'", "'101'", "'z'", "'-12'", "'0o17'"]),
                    self.rng.pick(&["16", "2", "0", "36", "8"])
                ),
                3 => format!("round({})", self.expr(env, Ty::Float, d)),
                4 => format!("int({})", self.expr(env, Ty::Bool, d)),
                _ => format!("int({})", self.expr(env, Ty::Str, d)),
            },
            14 => {
                let l = self.expr(env, Ty::ListInt, d);
                match self.rng.below(7) {
                    0 => format!("sum({l})"),
                    1 => format!("sum({l}, {})", self.small_int()),
                    2 => format!("min({l})"),
                    3 => format!("max({l}, default={})", self.small_int()),
                    4 => format!("max({l}, key={})", self.int_lambda(env)),
                    5 => format!(
                        "min({}, {}, {})",
                        self.expr(env, Ty::Int, d),
                        self.expr(env, Ty::Int, d),
                        self.small_int()
                    ),
                    _ => format!("min({l}, key={}, default=0)", self.int_lambda(env)),
                }
            }
            15 => {
                let s = self.expr(env, Ty::Str, d);
                let t = self.expr(env, Ty::Str, d);
                match self.rng.below(7) {
                    0 => format!("{s}.find({t})"),
                    1 => format!("{s}.count({t})"),
                    2 if self.risky() => format!("{s}.index({t})"),
                    3 => format!("{s}.rfind({t}, {})", self.small_int()),
                    4 if self.risky() => format!("ord({s})"),
                    // Arguments of the wrong type in any position: which one CPython
                    // complains about first is part of the behaviour.
                    5 if self.risky() => {
                        let m = self.rng.pick(&["find", "rfind", "index", "count"]);
                        let args = ["None", "'b'", "1", "-2", "1.5", "('a',)"];
                        let (a, b) = (*self.rng.pick(&args), *self.rng.pick(&args));
                        format!("{s}.{m}({a}, {b})")
                    }
                    _ => format!("ord(({s} + 'z')[{}])", self.index(env, d)),
                }
            }
            16 => {
                let c = self.expr(env, Ty::Bool, d);
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Int, d);
                format!("({a} if {c} else {b})")
            }
            17 => {
                let op = self.rng.pick(&["or", "and"]);
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Int, d);
                format!("({a} {op} {b})")
            }
            18 | 19 => self.call(env, Ty::Int, d),
            20 => {
                let l = self.expr(env, Ty::ListInt, d);
                let x = self.expr(env, Ty::Int, d);
                match self.rng.below(3) {
                    0 if self.risky() => format!("{l}.index({x})"),
                    1 => format!("{l}.count({x})"),
                    _ => format!("{}[{}]", self.expr(env, Ty::Tuple, d), self.index(env, d)),
                }
            }
            21 => {
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Int, d);
                match self.rng.below(3) {
                    0 => format!("divmod({a}, {b})[{}]", self.rng.below(2)),
                    1 => format!("pow({a}, {}, {b})", self.rng.range(0, 5)),
                    _ => format!("pow({a}, {})", self.rng.range(0, 3)),
                }
            }
            22 if env.loops < MAX_LOOPS => {
                let x = self.fresh("x");
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&x, Ty::Int);
                let src = self.expr(env, Ty::ListInt, d);
                let body = self.expr(&inner, Ty::Int, d.min(1));
                let cond = self.expr(&inner, Ty::Bool, d.min(1));
                format!("sum({body} for {x} in {src} if {cond})")
            }
            23 => {
                let b = self.expr(env, Ty::Bool, d);
                format!("({b} + {})", self.expr(env, Ty::Int, d))
            }
            24 => {
                let a = self.expr(env, Ty::Int, d);
                let m = self.rng.pick(&["bit_length", "bit_count"]);
                format!("({a}).{m}()")
            }
            25 if self.risky() => {
                let a = self.count(6);
                let b = self.rng.range(-3, 12);
                format!(
                    "range({a}, {b}, {})[{}]",
                    self.nonzero_step(),
                    self.index(env, d)
                )
            }
            26 => {
                let (a, b) = (self.count(5), self.rng.range(-2, 15));
                format!("len(range({a}, {b}, {}))", self.nonzero_step())
            }
            27 if !env.lambdas.is_empty() => {
                let f = self.rng.pick(&env.lambdas).clone();
                format!("{f}({})", self.expr(env, Ty::Int, d))
            }
            28 => format!("json.loads({})", self.json_int_text()),
            29 => {
                let l = self.expr(env, Ty::ListInt, d);
                match self.rng.below(4) {
                    0 => format!("next(iter({l}), {})", self.small_int()),
                    1 if env.loops < MAX_LOOPS => {
                        let x = self.fresh("x");
                        let mut inner = env.clone();
                        inner.loops += 1;
                        inner.add(&x, Ty::Int);
                        let cond = self.expr(&inner, Ty::Bool, d.min(1));
                        format!("next(({x} for {x} in {l} if {cond}), {})", self.small_int())
                    }
                    // StopIteration when the list is empty.
                    2 if self.risky() => format!("next(iter({l}))"),
                    _ => format!("next(reversed({l}), {})", self.small_int()),
                }
            }
            _ => self.leaf(env, Ty::Int),
        }
    }

    fn json_int_text(&mut self) -> String {
        self.pick_risky(
            &["'7'", "'-12'", "' 3 '", "'42\\n'", "'0'"],
            &["'[1]'", "'x'", "'007'", "'1 2'"],
        )
    }

    /// A dict key: usually a literal key, sometimes any string.
    fn key(&mut self, env: &Env, d: u32) -> String {
        if self.rng.chance(75) {
            self.rng.pick(KEYS).to_string()
        } else {
            self.expr(env, Ty::Str, d)
        }
    }

    fn float_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(16) {
            0..=2 => {
                let op = self.rng.pick(&["+", "-", "*", "/"]);
                let a = self.expr(env, Ty::Float, d);
                let b = self.num(env, d);
                format!("({a} {op} {b})")
            }
            3 | 4 => {
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Int, d);
                format!("({a} / {b})")
            }
            5 => {
                let op = self.rng.pick(&["//", "%"]);
                let a = self.num(env, d);
                let b = self.expr(env, Ty::Float, d);
                format!("({a} {op} {b})")
            }
            6 => {
                let a = self.expr(env, Ty::Float, d.min(1));
                let e = self.rng.pick(&["2", "0.5", "(-1)", "3", "0"]);
                // A negative float to a fractional power is complex in CPython, a deviation
                // that takes the whole plan out of the comparison: the base is made
                // non-negative but for a rare plan that checks the deviation's handling.
                if *e == "0.5" && self.rng.chance(97) {
                    format!("(abs({a}) ** {e})")
                } else {
                    format!("({a} ** {e})")
                }
            }
            7 => format!("float({})", self.expr(env, Ty::Int, d)),
            8 => format!("float({})", self.pick_risky(FLOAT_STRS, BAD_FLOAT_STRS)),
            9 => format!("abs({})", self.expr(env, Ty::Float, d)),
            10 => format!(
                "round({}, {})",
                self.expr(env, Ty::Float, d),
                self.rng.range(-1, 4)
            ),
            11 => {
                let a = self.expr(env, Ty::Float, d);
                let b = self.expr(env, Ty::Float, d);
                let f = self.rng.pick(&["max", "min"]);
                format!("{f}({a}, {b})")
            }
            12 => {
                let items: Vec<String> = (0..self.rng.range(1, 4))
                    .map(|_| self.expr(env, Ty::Float, d))
                    .collect();
                format!("sum([{}])", items.join(", "))
            }
            13 => {
                let c = self.expr(env, Ty::Bool, d);
                let a = self.expr(env, Ty::Float, d);
                let b = self.expr(env, Ty::Float, d);
                format!("({a} if {c} else {b})")
            }
            14 => {
                let a = self.expr(env, Ty::Float, d);
                let b = self.num(env, d);
                format!("divmod({a}, {b})[{}]", self.rng.below(2))
            }
            _ => format!(
                "json.loads({})",
                self.rng.pick(&["'1.5'", "'-0.0'", "'1e400'", "'2E-3'"])
            ),
        }
    }

    /// An int or a float (mixed arithmetic).
    fn num(&mut self, env: &Env, d: u32) -> String {
        if self.rng.chance(50) {
            self.expr(env, Ty::Int, d)
        } else {
            self.expr(env, Ty::Float, d)
        }
    }

    /// Any printable expression (sets go through `sorted`).
    pub(super) fn printable(&mut self, env: &Env, depth: u32) -> String {
        let ty = *self.rng.pick(&[
            Ty::Int,
            Ty::Int,
            Ty::Float,
            Ty::Str,
            Ty::Str,
            Ty::Bool,
            Ty::ListInt,
            Ty::ListStr,
            Ty::Tuple,
            Ty::Dict,
            Ty::Set,
            Ty::None,
        ]);
        let e = self.expr(env, ty, depth);
        if ty == Ty::Set {
            format!("sorted({e})")
        } else {
            e
        }
    }

    fn str_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(24) {
            0 | 1 => {
                let a = self.expr(env, Ty::Str, d);
                let b = self.expr(env, Ty::Str, d);
                format!("({a} + {b})")
            }
            2 => format!("({} * {})", self.expr(env, Ty::Str, d), self.count(3)),
            3 => format!("{}[{}]", self.expr(env, Ty::Str, d), self.index(env, d)),
            4 => {
                let s = self.expr(env, Ty::Str, d);
                format!("{s}{}", self.slice(env, d))
            }
            5..=7 => self.str_method(env, d),
            8 => {
                let sep = self.rng.pick(&["''", "', '", "'-'", "'\\n'"]);
                format!("{sep}.join({})", self.expr(env, Ty::ListStr, d))
            }
            9 => format!("str({})", self.printable(env, d)),
            10 => format!("repr({})", self.printable(env, d)),
            11 | 12 => self.fstring(env, d),
            13 => self.format_call(env, d),
            14 => self.percent_format(env, d),
            15 => {
                let c = self.rng.pick(&[
                    "65", "97", "48", "32", "10", "233", "8364", "0x1F600", "127", "9", "0",
                ]);
                format!("chr({c})")
            }
            16 => self.json_dumps(env, d),
            17 => {
                let c = self.expr(env, Ty::Bool, d);
                let a = self.expr(env, Ty::Str, d);
                let b = self.expr(env, Ty::Str, d);
                format!("({a} if {c} else {b})")
            }
            18 => {
                let op = self.rng.pick(&["or", "and"]);
                format!(
                    "({} {op} {})",
                    self.expr(env, Ty::Str, d),
                    self.expr(env, Ty::Str, d)
                )
            }
            19 => {
                let f = self.rng.pick(&["hex", "oct", "bin", "str", "repr"]);
                format!("{f}({})", self.expr(env, Ty::Int, d))
            }
            20 => format!("str({})", self.expr(env, Ty::Float, d)),
            21 => self.call(env, Ty::Str, d),
            22 => format!(
                "{}.partition({})[{}]",
                self.expr(env, Ty::Str, d),
                self.rng.pick(&["','", "' '", "'-'", "'a'"]),
                self.rng.below(3)
            ),
            _ => self.leaf(env, Ty::Str),
        }
    }

    fn str_method(&mut self, env: &Env, d: u32) -> String {
        let s = self.expr(env, Ty::Str, d);
        let arg = |g: &mut Gen| {
            if g.rng.chance(60) {
                g.rng
                    .pick(&["'a'", "' '", "','", "'-'", "'ab'", "''", "'x'", "'\\n'"])
                    .to_string()
            } else {
                g.expr(env, Ty::Str, d.min(1))
            }
        };
        match self.rng.below(12) {
            0 | 1 => {
                let m = self.rng.pick(&[
                    "lower",
                    "upper",
                    "swapcase",
                    "casefold",
                    "title",
                    "capitalize",
                    "strip",
                    "lstrip",
                    "rstrip",
                ]);
                format!("{s}.{m}()")
            }
            2 => {
                let m =
                    self.rng
                        .pick(&["strip", "lstrip", "rstrip", "removeprefix", "removesuffix"]);
                format!("{s}.{m}({})", arg(self))
            }
            3 | 4 => {
                let (a, b) = (arg(self), arg(self));
                if self.rng.chance(30) {
                    format!("{s}.replace({a}, {b}, {})", self.rng.range(-1, 3))
                } else {
                    format!("{s}.replace({a}, {b})")
                }
            }
            5 => {
                let m = self.rng.pick(&["ljust", "rjust", "center"]);
                let w = self.rng.range(-1, 12);
                if self.rng.chance(50) {
                    format!(
                        "{s}.{m}({w}, {})",
                        self.rng.pick(&["'*'", "'-'", "' '", "'é'"])
                    )
                } else {
                    format!("{s}.{m}({w})")
                }
            }
            6 => format!("{s}.zfill({})", self.rng.range(0, 10)),
            7 => format!("{s}.expandtabs({})", self.rng.range(0, 8)),
            8 => format!("{s}.rpartition({})[0]", arg(self)),
            9 => format!("{s}.format({})", self.printable(env, d)),
            _ => {
                let m = self.rng.pick(&["upper", "lower", "title"]);
                format!("{s}.strip().{m}()")
            }
        }
    }

    fn bool_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(18) {
            0..=2 => {
                let ty =
                    *self
                        .rng
                        .pick(&[Ty::Int, Ty::Int, Ty::Float, Ty::Str, Ty::ListInt, Ty::Tuple]);
                let op = self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                let a = self.expr(env, ty, d);
                let b = self.expr(env, ty, d);
                format!("({a} {op} {b})")
            }
            3 => {
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Int, d);
                let c = self.expr(env, Ty::Int, d);
                let op1 = self.rng.pick(&["<", "<=", "==", "!="]);
                let op2 = self.rng.pick(&["<", "<=", ">", "!="]);
                format!("({a} {op1} {b} {op2} {c})")
            }
            4 => {
                let a = self.expr(env, Ty::Int, d);
                let b = self.expr(env, Ty::Float, d);
                let op = self.rng.pick(&["<", "==", ">=", "!="]);
                format!("({a} {op} {b})")
            }
            5 | 6 => {
                let (x, c) = match self.rng.below(5) {
                    0 => (self.expr(env, Ty::Int, d), self.expr(env, Ty::ListInt, d)),
                    1 => (self.expr(env, Ty::Str, d), self.expr(env, Ty::Str, d)),
                    2 => (self.key(env, d), self.expr(env, Ty::Dict, d)),
                    3 => (self.expr(env, Ty::Int, d), self.expr(env, Ty::Set, d)),
                    _ => (self.expr(env, Ty::Int, d), self.expr(env, Ty::Tuple, d)),
                };
                let op = self.rng.pick(&["in", "not in"]);
                format!("({x} {op} {c})")
            }
            7 => format!("(not {})", self.expr(env, Ty::Bool, d)),
            8 => {
                let op = self.rng.pick(&["and", "or"]);
                format!(
                    "({} {op} {})",
                    self.expr(env, Ty::Bool, d),
                    self.expr(env, Ty::Bool, d)
                )
            }
            9 => {
                let x = self.printable(env, d);
                let t = self.rng.pick(&[
                    "int",
                    "str",
                    "float",
                    "bool",
                    "list",
                    "dict",
                    "tuple",
                    "(int, float)",
                    "(list, tuple)",
                    "set",
                ]);
                format!("isinstance({x}, {t})")
            }
            10 => {
                let s = self.expr(env, Ty::Str, d);
                let m = self.rng.pick(&[
                    "isdigit",
                    "isalpha",
                    "isalnum",
                    "isspace",
                    "isupper",
                    "islower",
                    "istitle",
                    "isdecimal",
                    "isnumeric",
                    "isidentifier",
                    "isascii",
                    "isprintable",
                ]);
                format!("{s}.{m}()")
            }
            11 => {
                let s = self.expr(env, Ty::Str, d);
                let m = self.rng.pick(&["startswith", "endswith"]);
                let t = self.expr(env, Ty::Str, d);
                if self.risky() {
                    let start = self.rng.pick(&["None", "'x'", "1", "-1", "2.5"]);
                    return format!("{s}.{m}({t}, {start})");
                }
                format!("{s}.{m}({t})")
            }
            12 if env.loops < MAX_LOOPS => {
                let x = self.fresh("x");
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&x, Ty::Int);
                let src = self.expr(env, Ty::ListInt, d);
                let f = self.rng.pick(&["any", "all"]);
                let cond = self.expr(&inner, Ty::Bool, d.min(1));
                format!("{f}({cond} for {x} in {src})")
            }
            13 => {
                let f = self.rng.pick(&["any", "all"]);
                format!("{f}({})", self.expr(env, Ty::ListInt, d))
            }
            14 => {
                let a = self.expr(env, Ty::Set, d);
                let b = self.expr(env, Ty::Set, d);
                match self.rng.below(4) {
                    0 => format!("({a} <= {b})"),
                    1 => format!("({a} < {b})"),
                    2 => format!("{a}.isdisjoint({b})"),
                    _ => format!("{a}.issuperset({})", self.expr(env, Ty::ListInt, d)),
                }
            }
            15 => format!("bool({})", self.printable(env, d)),
            16 => format!("({}).is_integer()", self.expr(env, Ty::Float, d)),
            _ => {
                let ty = *self.rng.pick(&[Ty::Dict, Ty::ListStr, Ty::Set]);
                let op = self.rng.pick(&["==", "!="]);
                format!("({} {op} {})", self.expr(env, ty, d), self.expr(env, ty, d))
            }
        }
    }

    fn none_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(3) {
            0 => format!("{}.get({})", self.expr(env, Ty::Dict, d), self.key(env, d)),
            1 => format!("{}.sort()", self.expr(env, Ty::ListInt, d)),
            _ => "None".to_string(),
        }
    }

    /// A bounded list of ints to loop over: loops must end, and nested loops must stay short.
    pub(super) fn loop_source(&mut self, env: &Env) -> String {
        match self.rng.below(5) {
            0 => format!("range({})", self.count(5)),
            1 => format!(
                "range({}, {}, {})",
                self.rng.range(-3, 3),
                self.rng.range(-4, 7),
                self.nonzero_step()
            ),
            2 => self.literal(Ty::ListInt),
            _ => format!(
                "{}[:{}]",
                self.expr(env, Ty::ListInt, 1),
                self.rng.range(1, 6)
            ),
        }
    }

    fn list_int_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(20) {
            0 => format!(
                "list(range({}, {}, {}))",
                self.rng.range(-4, 4),
                self.rng.range(-6, 10),
                self.nonzero_step()
            ),
            1 => {
                let l = self.expr(env, Ty::ListInt, d);
                let rev = self.rng.pick(&["True", "False"]);
                match self.rng.below(3) {
                    0 => format!("sorted({l})"),
                    1 => format!("sorted({l}, reverse={rev})"),
                    _ => format!("sorted({l}, key={}, reverse={rev})", self.int_lambda(env)),
                }
            }
            2 => format!(
                "({} + {})",
                self.expr(env, Ty::ListInt, d),
                self.expr(env, Ty::ListInt, d)
            ),
            3 => format!("({} * {})", self.expr(env, Ty::ListInt, d), self.count(3)),
            4 => format!("{}{}", self.expr(env, Ty::ListInt, d), self.slice(env, d)),
            5..=7 if env.loops < MAX_LOOPS => self.list_comp(env, d),
            8 => format!(
                "list(map({}, {}))",
                self.int_lambda(env),
                self.expr(env, Ty::ListInt, d)
            ),
            9 => {
                let p = self.fresh("p");
                let f = if self.rng.chance(20) {
                    "None".to_string()
                } else {
                    format!(
                        "lambda {p}: {p} % {} == {}",
                        self.rng.range(2, 4),
                        self.rng.below(2)
                    )
                };
                format!("list(filter({f}, {}))", self.expr(env, Ty::ListInt, d))
            }
            10 => format!("list(reversed({}))", self.expr(env, Ty::ListInt, d)),
            11 => format!(
                "[*{}, *{}]",
                self.expr(env, Ty::ListInt, d),
                self.expr(env, Ty::Tuple, d)
            ),
            12 => format!("list({}.values())", self.expr(env, Ty::Dict, d)),
            13 => format!("sorted({})", self.expr(env, Ty::Set, d)),
            14 => format!("list({})", self.expr(env, Ty::Tuple, d)),
            15 => format!("{}.copy()", self.expr(env, Ty::ListInt, d)),
            16 => self.call(env, Ty::ListInt, d),
            17 => format!(
                "json.loads({})",
                self.pick_risky(&["'[1, 2, 3]'", "'[]'", "'[-1,0]'", "'[ 7 ]'"], &["'[1,]'"])
            ),
            _ => self.leaf(env, Ty::ListInt),
        }
    }

    /// List comprehensions: one or two `for`s (sources sliced short), optional conditions,
    /// sometimes a walrus in the condition.
    fn list_comp(&mut self, env: &Env, d: u32) -> String {
        let x = self.fresh("x");
        let mut inner = env.clone();
        inner.loops += 1;
        let src = self.expr(env, Ty::ListInt, d);
        inner.add(&x, Ty::Int);
        let mut clauses = format!("for {x} in {src}[:6]");
        if self.rng.chance(35) && inner.loops < MAX_LOOPS {
            let y = self.fresh("y");
            let src2 = self.expr(&inner, Ty::ListInt, d.min(1));
            inner.loops += 1;
            inner.add(&y, Ty::Int);
            clauses.push_str(&format!(" for {y} in {src2}[:4]"));
        }
        if self.rng.chance(25) {
            let cond = self.expr(&inner, Ty::Bool, d.min(1));
            clauses.push_str(&format!(" if {cond}"));
        }
        let body = self.expr(&inner, Ty::Int, d.min(2));
        format!("[{body} {clauses}]")
    }

    fn list_str_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(13) {
            0 => format!("{}.split()", self.expr(env, Ty::Str, d)),
            1 => format!(
                "{}.split({})",
                self.expr(env, Ty::Str, d),
                self.pick_risky(&["','", "' '", "'-'", "'a'", "'ab'"], &["''"])
            ),
            2 => format!(
                "{}.rsplit({}, {})",
                self.expr(env, Ty::Str, d),
                self.rng.pick(&["','", "' '", "'-'", "None"]),
                self.rng.range(-1, 2)
            ),
            3 => {
                let l = self.expr(env, Ty::ListStr, d);
                if self.rng.chance(50) {
                    format!("sorted({l})")
                } else {
                    format!(
                        "sorted({l}, key={}, reverse={})",
                        self.str_lambda(),
                        self.rng.pick(&["True", "False"])
                    )
                }
            }
            4 => format!("list({})", self.expr(env, Ty::Dict, d)),
            5 => format!("list({}.keys())", self.expr(env, Ty::Dict, d)),
            6 if env.loops < MAX_LOOPS => {
                let x = self.fresh("x");
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&x, Ty::Int);
                let src = self.expr(env, Ty::ListInt, d);
                let body = self.expr(&inner, Ty::Str, d.min(1));
                format!("[{body} for {x} in {src}[:5]]")
            }
            7 => format!("list({})", self.expr(env, Ty::Str, d)),
            8 => {
                let s = self.expr(env, Ty::Str, d);
                let keep = self.pick_risky(
                    &["", "", "True", "keepends=False", "1"],
                    &["'x'", "None", "1.5"],
                );
                format!("{s}.splitlines({keep})")
            }
            9 if env.loops < MAX_LOOPS => {
                let s = self.fresh("s");
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&s, Ty::Str);
                let src = self.expr(env, Ty::ListStr, d);
                let body = self.expr(&inner, Ty::Str, d.min(1));
                let cond = self.expr(&inner, Ty::Bool, d.min(1));
                format!("[{body} for {s} in {src} if {cond}]")
            }
            10 => format!(
                "({} + {})",
                self.expr(env, Ty::ListStr, d),
                self.expr(env, Ty::ListStr, d)
            ),
            11 => format!("{}{}", self.expr(env, Ty::ListStr, d), self.slice(env, d)),
            _ => self.leaf(env, Ty::ListStr),
        }
    }

    fn tuple_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(9) {
            0 => format!("tuple({})", self.expr(env, Ty::ListInt, d)),
            1 => format!(
                "divmod({}, {})",
                self.expr(env, Ty::Int, d),
                self.expr(env, Ty::Int, d)
            ),
            2 => format!(
                "({} + {})",
                self.expr(env, Ty::Tuple, d),
                self.expr(env, Ty::Tuple, d)
            ),
            3 => format!("{}{}", self.expr(env, Ty::Tuple, d), self.slice(env, d)),
            4 => format!("tuple(sorted({}))", self.expr(env, Ty::Tuple, d)),
            5 if env.loops < MAX_LOOPS => {
                let x = self.fresh("x");
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&x, Ty::Int);
                let src = self.expr(env, Ty::Tuple, d);
                let body = self.expr(&inner, Ty::Int, d.min(1));
                format!("tuple({body} for {x} in {src})")
            }
            6 => format!(
                "({}, {})",
                self.expr(env, Ty::Int, d),
                self.expr(env, Ty::Int, d)
            ),
            7 => format!("({} * {})", self.expr(env, Ty::Tuple, d), self.count(3)),
            _ => self.leaf(env, Ty::Tuple),
        }
    }

    fn dict_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(12) {
            0 => format!(
                "dict(zip({}, {}))",
                self.expr(env, Ty::ListStr, d),
                self.expr(env, Ty::ListInt, d)
            ),
            1 if env.loops < MAX_LOOPS => {
                let (k, v) = (self.fresh("k"), self.fresh("v"));
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&k, Ty::Str);
                inner.add(&v, Ty::Int);
                let src = self.expr(env, Ty::Dict, d);
                let body = self.expr(&inner, Ty::Int, d.min(1));
                let cond = if self.rng.chance(50) {
                    format!(" if {}", self.expr(&inner, Ty::Bool, d.min(1)))
                } else {
                    String::new()
                };
                format!("{{{k}: {body} for {k}, {v} in {src}.items(){cond}}}")
            }
            2 if env.loops < MAX_LOOPS => {
                let s = self.fresh("s");
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&s, Ty::Str);
                let src = self.expr(env, Ty::ListStr, d);
                let body = self.expr(&inner, Ty::Int, d.min(1));
                format!("{{{s}: {body} for {s} in {src}}}")
            }
            3 => format!(
                "{{**{}, {}: {}}}",
                self.expr(env, Ty::Dict, d),
                self.rng.pick(KEYS),
                self.small_int()
            ),
            4 => format!(
                "({} | {})",
                self.expr(env, Ty::Dict, d),
                self.expr(env, Ty::Dict, d)
            ),
            5 => format!("dict({})", self.expr(env, Ty::Dict, d)),
            6 => format!("{}.copy()", self.expr(env, Ty::Dict, d)),
            7 => format!("dict(a={}, zz={})", self.small_int(), self.small_int()),
            8 => format!(
                "dict([({}, {}), ({}, {})])",
                self.rng.pick(KEYS),
                self.small_int(),
                self.rng.pick(KEYS),
                self.small_int()
            ),
            9 => format!(
                "json.loads({})",
                self.pick_risky(
                    &[
                        "'{\"a\": 1, \"b\": 2}'",
                        "'{}'",
                        "'{\"a\": 1, \"a\": 3}'",
                        "'{\"x\": -0}'",
                        "' {\"key\" :\\n 5 } '",
                    ],
                    &["'{a: 1}'", "'{\"a\": 1,}'", "'{\"a\" 1}'"],
                )
            ),
            10 => self.call(env, Ty::Dict, d),
            _ => self.leaf(env, Ty::Dict),
        }
    }

    fn set_expr(&mut self, env: &Env, d: u32) -> String {
        match self.rng.below(9) {
            0 => format!("set({})", self.expr(env, Ty::ListInt, d)),
            1 => {
                let op = self.rng.pick(&["|", "&", "-", "^"]);
                format!(
                    "({} {op} {})",
                    self.expr(env, Ty::Set, d),
                    self.expr(env, Ty::Set, d)
                )
            }
            2 if env.loops < MAX_LOOPS => {
                let x = self.fresh("x");
                let mut inner = env.clone();
                inner.loops += 1;
                inner.add(&x, Ty::Int);
                let src = self.expr(env, Ty::ListInt, d);
                format!("{{{x} % {} for {x} in {src}}}", self.rng.range(2, 5))
            }
            3 => format!("set(range({}))", self.count(6)),
            4 => {
                let m = self.rng.pick(&[
                    "union",
                    "intersection",
                    "difference",
                    "symmetric_difference",
                ]);
                format!(
                    "{}.{m}({})",
                    self.expr(env, Ty::Set, d),
                    self.expr(env, Ty::ListInt, d)
                )
            }
            5 => format!("{}.copy()", self.expr(env, Ty::Set, d)),
            6 => format!("set({})", self.expr(env, Ty::Tuple, d)),
            _ => self.leaf(env, Ty::Set),
        }
    }

    /// A call of a module function or a closure returning `ty`, or a leaf when there is none.
    fn call(&mut self, env: &Env, ty: Ty, d: u32) -> String {
        let fns: Vec<_> = env
            .fns
            .iter()
            .filter(|f| f.ret == ty && (!f.heavy || env.loops == 0))
            .cloned()
            .collect();
        if fns.is_empty() {
            return self.leaf(env, ty);
        }
        let sig = self.rng.pick(&fns).clone();
        let mut args = Vec::new();
        let mut positional_only = true;
        for param in &sig.params {
            match param {
                Param::Positional { name, ty, default } => {
                    if default.is_some() && self.rng.chance(40) {
                        positional_only = false;
                        continue;
                    }
                    let value = self.expr(env, *ty, d.min(1));
                    if positional_only && self.rng.chance(75) {
                        args.push(value);
                    } else {
                        positional_only = false;
                        args.push(format!("{name}={value}"));
                    }
                }
                Param::VarArgs(_) => {
                    if positional_only {
                        for _ in 0..self.rng.below(3) {
                            args.push(self.expr(env, Ty::Int, d.min(1)));
                        }
                        if self.rng.chance(30) {
                            args.push(format!("*{}", self.expr(env, Ty::ListInt, d.min(1))));
                        }
                    }
                }
                Param::KwOnly { name, ty, default } => {
                    if default.is_none() || self.rng.chance(50) {
                        args.push(format!("{name}={}", self.expr(env, *ty, d.min(1))));
                    }
                }
                Param::VarKw(_) => {
                    for i in 0..self.rng.below(3) {
                        args.push(format!("extra{i}={}", self.small_int()));
                    }
                    if self.rng.chance(30) {
                        args.push(format!("**{{'more': {}}}", self.small_int()));
                    }
                }
            }
        }
        format!("{}({})", sig.name, args.join(", "))
    }
}
