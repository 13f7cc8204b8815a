//! Statements: assignment (plain, augmented, unpacking), printing, container mutation, `if`,
//! `for`/`while` with `else`, `break`/`continue`, `try`, `raise`, `del`, `assert`, `pass`.
//!
//! Blocks get a copy of the environment: a name bound inside a block is forgotten when the
//! block ends, because it may not be bound on every path.

use super::{Env, Gen, Ty, MAX_BLOCK_DEPTH, MAX_LOOPS, VAR_TYPES};

/// Exception classes handlers catch (a tuple is one clause).
const CATCH: &[&str] = &[
    "ValueError",
    "KeyError",
    "IndexError",
    "LookupError",
    "ZeroDivisionError",
    "ArithmeticError",
    "TypeError",
    "AssertionError",
    "RuntimeError",
    "Exception",
    "(ValueError, TypeError)",
    "(KeyError, IndexError)",
    "OverflowError",
    "NameError",
    "AttributeError",
];

impl Gen {
    /// One random statement; may extend `env` with names it binds unconditionally.
    pub(super) fn stmt(&mut self, env: &mut Env) {
        let compound = env.depth < MAX_BLOCK_DEPTH;
        match self.rng.below(45) {
            0..=5 => self.print_stmt(env),
            6..=9 => self.assign(env),
            10 | 11 => self.reassign(env),
            12 | 13 => self.aug_assign(env),
            14 | 15 => self.unpack(env),
            16..=19 => self.mutate(env),
            20 | 21 if compound => self.if_stmt(env),
            22 | 23 if compound && env.loops < MAX_LOOPS => self.for_stmt(env),
            24 if compound && env.loops < MAX_LOOPS => self.while_stmt(env),
            25..=27 if compound => self.try_stmt(env),
            28 => self.raise_stmt(env),
            29 => self.del_stmt(env),
            30 => self.assert_stmt(env),
            31 if env.in_loop_body => {
                let c = self.expr(env, Ty::Bool, 1);
                let what = self.rng.pick(&["break", "continue"]);
                self.block(&format!("if {c}:"), |g| g.line(what));
            }
            32 if env.ret.is_some() => {
                let ty = env.ret.unwrap_or(Ty::None);
                let c = self.expr(env, Ty::Bool, 1);
                let v = self.expr(env, ty, 2);
                self.block(&format!("if {c}:"), |g| g.line(&format!("return {v}")));
            }
            33 if env.handler.is_some() => self.line("raise"),
            34 if compound && env.loops == 0 => self.template(env),
            35 if compound => self.walrus_if(env),
            39 if env.loops == 0 => self.walrus_comprehension(env),
            36 => self.line("pass"),
            37 | 38 if compound && env.loops == 0 && env.ret.is_none() => self.template(env),
            _ => self.print_stmt(env),
        }
    }

    fn print_stmt(&mut self, env: &Env) {
        let n = self.rng.range(1, 3);
        let mut args: Vec<String> = (0..n).map(|_| self.printable(env, 3)).collect();
        if self.rng.chance(15) {
            args.push(format!(
                "sep={}",
                self.rng.pick(&["''", "', '", "'|'", "'\\n'"])
            ));
        }
        if self.rng.chance(10) {
            args.push(format!(
                "end={}",
                self.rng.pick(&["'!\\n'", "' ;\\n'", "'\\n\\n'"])
            ));
        }
        self.line(&format!("print({})", args.join(", ")));
    }

    fn assign(&mut self, env: &mut Env) {
        let ty = *self.rng.pick(&VAR_TYPES);
        let name = self.fresh("v");
        let value = self.expr(env, ty, 3);
        if self.rng.chance(10) {
            // Chained assignment binds both names to the same object.
            let other = self.fresh("v");
            self.line(&format!("{name} = {other} = {value}"));
            env.add(&other, ty);
        } else {
            self.line(&format!("{name} = {value}"));
        }
        env.add(&name, ty);
        if self.rng.chance(50) {
            let shown = if ty == Ty::Set {
                format!("sorted({name})")
            } else {
                name.clone()
            };
            self.line(&format!("print('{name}', {shown})"));
        }
    }

    fn writable(&mut self, env: &Env, ty: Option<Ty>) -> Option<(String, Ty)> {
        let candidates: Vec<_> = env
            .vars
            .iter()
            .filter(|v| v.writable && ty.is_none_or(|t| v.ty == t))
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let v = self.rng.pick(&candidates);
        Some((v.name.clone(), v.ty))
    }

    fn reassign(&mut self, env: &mut Env) {
        let Some((name, ty)) = self.writable(env, None) else {
            return self.assign(env);
        };
        let value = self.expr(env, ty, 2);
        self.line(&format!("{name} = {value}"));
    }

    fn aug_assign(&mut self, env: &mut Env) {
        let ty = *self.rng.pick(&[
            Ty::Int,
            Ty::Int,
            Ty::Float,
            Ty::Str,
            Ty::ListInt,
            Ty::Set,
            Ty::Dict,
        ]);
        let Some((name, ty)) = self.writable(env, Some(ty)) else {
            return self.assign(env);
        };
        // Inside loops the right side is small and never the target itself, so values cannot
        // grow exponentially.
        let looping = env.loops > 0;
        let line = match ty {
            Ty::Int => {
                let op = if looping {
                    *self.rng.pick(&["+=", "-=", "//=", "%=", "&=", "|=", "^="])
                } else {
                    *self.rng.pick(&[
                        "+=", "-=", "*=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                    ])
                };
                let rhs = if looping || op == "<<=" {
                    self.small_int()
                } else {
                    self.expr(env, Ty::Int, 2)
                };
                format!("{name} {op} {rhs}")
            }
            Ty::Float => {
                let op = self.rng.pick(&["+=", "-=", "*=", "/=", "//=", "%="]);
                let rhs = if looping {
                    self.literal(Ty::Float)
                } else {
                    self.expr(env, Ty::Float, 2)
                };
                format!("{name} {op} {rhs}")
            }
            Ty::Str => format!("{name} += {}", self.literal(Ty::Str)),
            Ty::ListInt => {
                if !looping && self.rng.chance(20) {
                    format!("{name} *= {}", self.count(2))
                } else {
                    format!("{name} += {}", self.literal(Ty::ListInt))
                }
            }
            Ty::Set => {
                let op = self.rng.pick(&["|=", "&=", "-=", "^="]);
                format!("{name} {op} {}", self.literal(Ty::Set))
            }
            _ => format!("{name} |= {}", self.literal(Ty::Dict)),
        };
        self.line(&line);
        if self.rng.chance(40) {
            let shown = if ty == Ty::Set {
                format!("sorted({name})")
            } else {
                name.clone()
            };
            self.line(&format!("print({shown})"));
        }
    }

    fn unpack(&mut self, env: &mut Env) {
        let (a, b) = (self.fresh("u"), self.fresh("u"));
        match self.rng.below(6) {
            0 => {
                let x = self.expr(env, Ty::Int, 2);
                let y = self.expr(env, Ty::Int, 2);
                self.line(&format!("{a}, {b} = {x}, {y}"));
                self.line(&format!("{a}, {b} = {b}, {a}"));
                env.add(&a, Ty::Int);
                env.add(&b, Ty::Int);
            }
            1 => {
                let l = self.expr(env, Ty::ListInt, 2);
                self.line(&format!("{a}, *{b} = {l} or [0]"));
                env.add(&a, Ty::Int);
                env.add(&b, Ty::ListInt);
            }
            2 => {
                let c = self.fresh("u");
                let t = self.expr(env, Ty::Tuple, 2);
                self.line(&format!("*{a}, {b}, {c} = {t} + (1, 2)"));
                env.add(&a, Ty::ListInt);
                env.add(&b, Ty::Int);
                env.add(&c, Ty::Int);
            }
            3 => {
                let c = self.fresh("u");
                let s = self.expr(env, Ty::Str, 1);
                let x = self.expr(env, Ty::Int, 1);
                self.line(&format!("({a}, {b}), {c} = ({s}, {x}), {s}"));
                env.add(&a, Ty::Str);
                env.add(&b, Ty::Int);
                env.add(&c, Ty::Str);
            }
            4 => {
                let t = if self.risky() {
                    self.expr(env, Ty::Tuple, 2)
                } else {
                    let x = self.expr(env, Ty::Int, 2);
                    format!("divmod({x}, {})", self.rng.pick(&["3", "(-4)", "7"]))
                };
                self.line(&format!("{a}, {b} = {t}"));
                env.add(&a, Ty::Int);
                env.add(&b, Ty::Int);
            }
            _ => {
                let s = self.expr(env, Ty::Str, 2);
                self.line(&format!("{a}, {b} = {s}.split(',', 1) + ['pad']"));
                env.add(&a, Ty::Str);
                env.add(&b, Ty::Str);
            }
        }
        self.line(&format!("print('unpacked', {a}, {b})"));
    }

    /// Mutating methods and item/slice assignment on a visible container.
    fn mutate(&mut self, env: &mut Env) {
        let ty = *self
            .rng
            .pick(&[Ty::ListInt, Ty::ListInt, Ty::Dict, Ty::Set, Ty::ListStr]);
        let vars = env.of_type(ty);
        if vars.is_empty() {
            return self.assign(env);
        }
        let v = self.rng.pick(&vars).name.clone();
        let small = env.loops > 0;
        let line = match ty {
            Ty::ListInt => match self.rng.below(13) {
                0 | 1 => format!("{v}.append({})", self.expr(env, Ty::Int, 2)),
                2 => format!("{v}.extend({})", self.literal(Ty::ListInt)),
                3 => format!(
                    "{v}.insert({}, {})",
                    self.rng.range(-3, 5),
                    self.small_int()
                ),
                4 => format!("print('pop', {v}.pop())"),
                5 => format!("print('pop', {v}.pop({}))", self.rng.range(-3, 3)),
                6 if self.risky() => format!("{v}.remove({})", self.small_int()),
                6 => format!("{v}.remove({v}[0]) if {v} else None"),
                7 => format!(
                    "{v}.sort(key={}, reverse={})",
                    self.int_lambda(env),
                    self.rng.pick(&["True", "False"])
                ),
                8 => format!("{v}.reverse()"),
                9 => format!("{v}[{}] = {}", self.rng.range(-1, 0), self.small_int()),
                10 if !small => {
                    format!("{v}{} = {}", self.slice(env, 1), self.literal(Ty::ListInt))
                }
                11 => format!("{v}.sort()"),
                _ => format!("{v}.clear()"),
            },
            Ty::ListStr => match self.rng.below(4) {
                0 => format!("{v}.append({})", self.literal(Ty::Str)),
                1 => format!("{v}.sort(key=len)"),
                2 => format!("{v}.insert(0, {})", self.literal(Ty::Str)),
                _ => format!("{v}.sort(reverse=True)"),
            },
            Ty::Dict => {
                let k = self.rng.pick(super::expr::KEYS).to_string();
                match self.rng.below(9) {
                    0 | 1 => format!("{v}[{k}] = {}", self.expr(env, Ty::Int, 2)),
                    2 => format!("{v}.update({})", self.literal(Ty::Dict)),
                    3 => format!(
                        "{v}.update(zz={}, a={})",
                        self.small_int(),
                        self.small_int()
                    ),
                    4 if self.risky() => format!("print('pop', {v}.pop({k}))"),
                    4 => format!("print('pop', {v}.pop({k}, -1))"),
                    5 => format!("print('pop', {v}.pop({k}, None))"),
                    6 => format!("print('popitem', {v}.popitem())"),
                    7 => format!("print('sd', {v}.setdefault({k}, {}))", self.small_int()),
                    _ => format!("{v}[{k}] += 1"),
                }
            }
            _ => match self.rng.below(8) {
                0 | 1 => format!("{v}.add({})", self.small_int()),
                2 => format!("{v}.discard({})", self.small_int()),
                3 if self.risky() => format!("{v}.remove({})", self.small_int()),
                4 => format!("{v}.update({})", self.literal(Ty::ListInt)),
                5 => format!("{v}.intersection_update({})", self.literal(Ty::Set)),
                6 => format!("{v}.difference_update({})", self.literal(Ty::ListInt)),
                _ => format!("{v}.symmetric_difference_update({})", self.literal(Ty::Set)),
            },
        };
        self.line(&line);
        if self.rng.chance(50) {
            let shown = if ty == Ty::Set {
                format!("sorted({v})")
            } else {
                v
            };
            self.line(&format!("print({shown})"));
        }
    }

    /// The body of a compound statement: a few statements in a copy of `env`.
    pub(super) fn body(&mut self, env: &Env, max: i64) {
        let mut inner = env.clone();
        inner.depth += 1;
        inner.block_start = inner.vars.len();
        for _ in 0..self.rng.range(1, max) {
            self.stmt(&mut inner);
        }
    }

    fn if_stmt(&mut self, env: &Env) {
        let c = self.expr(env, Ty::Bool, 2);
        self.block(&format!("if {c}:"), |g| g.body(env, 3));
        for _ in 0..self.rng.below(3) {
            let c = self.expr(env, Ty::Bool, 2);
            self.block(&format!("elif {c}:"), |g| g.body(env, 2));
        }
        if self.rng.chance(50) {
            self.block("else:", |g| g.body(env, 2));
        }
    }

    fn for_stmt(&mut self, env: &Env) {
        let mut inner = env.clone();
        inner.loops += 1;
        inner.in_loop_body = true;
        let header = match self.rng.below(5) {
            0 => {
                let (i, x) = (self.fresh("i"), self.fresh("x"));
                let src = self.loop_source(env);
                inner.add(&i, Ty::Int);
                inner.add(&x, Ty::Int);
                format!(
                    "for {i}, {x} in enumerate({src}, {}):",
                    self.rng.range(-1, 2)
                )
            }
            1 => {
                let (s, x) = (self.fresh("s"), self.fresh("x"));
                let a = self.expr(env, Ty::ListStr, 2);
                let b = self.loop_source(env);
                inner.add(&s, Ty::Str);
                inner.add(&x, Ty::Int);
                format!("for {s}, {x} in zip({a}, {b}):")
            }
            2 => {
                let (k, x) = (self.fresh("k"), self.fresh("x"));
                let d = self.expr(env, Ty::Dict, 2);
                inner.add(&k, Ty::Str);
                inner.add(&x, Ty::Int);
                format!("for {k}, {x} in list({d}.items()):")
            }
            3 => {
                let c = self.fresh("c");
                let s = self.expr(env, Ty::Str, 2);
                inner.add(&c, Ty::Str);
                format!("for {c} in {s}[:8]:")
            }
            _ => {
                let x = self.fresh("x");
                let src = self.loop_source(env);
                inner.add(&x, Ty::Int);
                format!("for {x} in {src}:")
            }
        };
        self.block(&header, |g| g.body(&inner, 4));
        if self.rng.chance(30) {
            self.block("else:", |g| g.body(env, 2));
        }
    }

    fn while_stmt(&mut self, env: &Env) {
        let w = self.fresh("w");
        self.line(&format!("{w} = 0"));
        let bound = self.rng.range(0, 5);
        let mut inner = env.clone();
        inner.loops += 1;
        inner.in_loop_body = true;
        inner.vars.push(super::Var {
            name: w.clone(),
            ty: Ty::Int,
            writable: false,
        });
        // The counter moves first, so `continue` cannot make the loop endless.
        self.block(&format!("while {w} < {bound}:"), |g| {
            g.line(&format!("{w} += 1"));
            g.body(&inner, 4);
        });
        if self.rng.chance(30) {
            self.block("else:", |g| g.body(env, 2));
        }
    }

    fn try_stmt(&mut self, env: &Env) {
        self.block("try:", |g| g.body(env, 4));
        let handlers = self.rng.below(3);
        let finally = handlers == 0 || self.rng.chance(35);
        for h in 0..handlers {
            let class = *self.rng.pick(CATCH);
            let last = h + 1 == handlers;
            if last && self.rng.chance(8) {
                self.block("except:", |g| g.line("print('bare except')"));
                continue;
            }
            let e = self.fresh("e");
            let mut inner = env.clone();
            inner.handler = Some(e.clone());
            self.block(&format!("except {class} as {e}:"), |g| {
                let shown = match g.rng.below(4) {
                    0 => format!("str({e})"),
                    1 => format!("{e}.args"),
                    2 => format!("isinstance({e}, LookupError)"),
                    _ => format!("repr({e})"),
                };
                g.line(&format!("print('handled', {shown})"));
                if g.rng.chance(50) {
                    g.body(&inner, 2);
                }
            });
        }
        if handlers > 0 && self.rng.chance(30) {
            self.block("else:", |g| g.body(env, 2));
        }
        if finally {
            self.block("finally:", |g| {
                g.line("print('finally')");
                if g.rng.chance(30) {
                    g.body(env, 2);
                }
            });
        }
    }

    fn raise_stmt(&mut self, env: &Env) {
        let exc = match self.rng.below(9) {
            0 => format!("ValueError({})", self.expr(env, Ty::Str, 1)),
            1 => format!("KeyError({})", self.expr(env, Ty::Str, 1)),
            2 => "IndexError".to_string(),
            3 => format!("RuntimeError('r', {})", self.small_int()),
            4 => "ZeroDivisionError()".to_string(),
            5 => format!("TypeError({})", self.fstring(env, 1)),
            6 => "AssertionError".to_string(),
            7 => format!("Exception({}, {})", self.small_int(), self.literal(Ty::Str)),
            _ => format!("ArithmeticError({})", self.printable(env, 1)),
        };
        let from = match &env.handler {
            Some(e) if self.rng.chance(50) => format!(" from {e}"),
            _ if self.rng.chance(10) => " from None".to_string(),
            _ => String::new(),
        };
        let c = self.expr(env, Ty::Bool, 1);
        self.block(&format!("if {c}:"), |g| {
            g.line(&format!("raise {exc}{from}"))
        });
    }

    fn del_stmt(&mut self, env: &mut Env) {
        match self.rng.below(4) {
            0 => {
                // Only names bound in this very block: elsewhere a `del` would leave the name
                // unbound on paths the environment still counts as bound.
                let local: Vec<usize> = (env.block_start..env.vars.len())
                    .filter(|&i| env.vars[i].writable && env.vars[i].name.starts_with(['v', 'u']))
                    .collect();
                if let Some(&i) = local.last() {
                    let name = env.vars.remove(i).name;
                    self.line(&format!("del {name}"));
                }
            }
            1 => {
                if let Some(v) = env.of_type(Ty::ListInt).first().map(|v| v.name.clone()) {
                    let i = self.rng.range(-2, 3);
                    self.line(&format!("del {v}[{i}]"));
                    self.line(&format!("print({v})"));
                }
            }
            2 => {
                if let Some(v) = env.of_type(Ty::ListInt).last().map(|v| v.name.clone()) {
                    let slice = self.slice(env, 1);
                    self.line(&format!("del {v}{slice}"));
                    self.line(&format!("print({v})"));
                }
            }
            _ => {
                if let Some(v) = env.of_type(Ty::Dict).first().map(|v| v.name.clone()) {
                    let k = *self.rng.pick(super::expr::KEYS);
                    self.line(&format!("del {v}[{k}]"));
                    self.line(&format!("print({v})"));
                }
            }
        }
    }

    fn assert_stmt(&mut self, env: &Env) {
        // Mostly assertions that hold (over isinstance, so they still compute something).
        let c = if self.rng.chance(25) {
            self.expr(env, Ty::Bool, 2)
        } else {
            let (ty, name) = *self.rng.pick(&[
                (Ty::Int, "int"),
                (Ty::Str, "str"),
                (Ty::ListInt, "list"),
                (Ty::Dict, "dict"),
                (Ty::Tuple, "tuple"),
                (Ty::Float, "float"),
            ]);
            format!("isinstance({}, {name})", self.expr(env, ty, 2))
        };
        if self.rng.chance(50) {
            let m = self.expr(env, Ty::Str, 1);
            self.line(&format!("assert {c}, {m}"));
        } else {
            self.line(&format!("assert {c}"));
        }
    }

    fn walrus_if(&mut self, env: &mut Env) {
        let t = self.fresh("t");
        let v = self.expr(env, Ty::Int, 2);
        let k = self.small_int();
        let mut inner = env.clone();
        inner.add(&t, Ty::Int);
        self.block(&format!("if ({t} := {v}) > {k}:"), |g| g.body(&inner, 2));
        env.add(&t, Ty::Int);
        self.line(&format!("print('walrus', {t})"));
    }

    /// A walrus in a comprehension's condition binds in the enclosing scope. Only at statement
    /// level: inside another comprehension's iterable it would be a syntax error.
    fn walrus_comprehension(&mut self, env: &mut Env) {
        let (v, x, w) = (self.fresh("v"), self.fresh("x"), self.fresh("w"));
        let src = self.expr(env, Ty::ListInt, 2);
        let mut inner = env.clone();
        inner.loops += 1;
        inner.add(&x, Ty::Int);
        let val = self.expr(&inner, Ty::Int, 1);
        inner.add(&w, Ty::Int);
        let body = self.expr(&inner, Ty::Int, 1);
        self.line(&format!(
            "{v} = [{body} for {x} in {src}[:6] if ({w} := {val}) % 2 == 0]"
        ));
        self.line(&format!("print('wc', {v})"));
        env.add(&v, Ty::ListInt);
    }
}
