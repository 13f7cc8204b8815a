//! Functions and the constructs that need a fixed shape to stay well-formed and terminating:
//! module functions with every kind of parameter, closures with `nonlocal`, late binding,
//! bounded recursion, `finally` interacting with `return`/`break`, exceptions across calls,
//! dict mutation during iteration, JSON round trips.

use super::{Env, FnSig, Gen, Param, Ty, Var};

impl Gen {
    /// A module-level `def` with a random signature; callable by later code.
    pub(super) fn module_function(&mut self, env: &mut Env) {
        let name = self.fresh("f");
        let ret = *self
            .rng
            .pick(&[Ty::Int, Ty::Int, Ty::Str, Ty::ListInt, Ty::Dict, Ty::Float]);
        let mut params = Vec::new();
        let mut defaults_started = false;
        for _ in 0..self.rng.range(0, 3) {
            let ty = *self
                .rng
                .pick(&[Ty::Int, Ty::Int, Ty::Str, Ty::ListInt, Ty::Float]);
            defaults_started |= self.rng.chance(40);
            let default = defaults_started.then(|| self.literal(ty));
            params.push(Param::Positional {
                name: self.fresh("a"),
                ty,
                default,
            });
        }
        if self.rng.chance(30) {
            params.push(Param::VarArgs(self.fresh("args")));
        }
        for _ in 0..self.rng.range(0, 2) {
            if self.rng.chance(50) {
                let ty = *self.rng.pick(&[Ty::Int, Ty::Str, Ty::Bool]);
                let default = self.rng.chance(60).then(|| self.literal(ty));
                params.push(Param::KwOnly {
                    name: self.fresh("k"),
                    ty,
                    default,
                });
            }
        }
        if self.rng.chance(25) {
            params.push(Param::VarKw(self.fresh("kw")));
        }
        let mut body_env = Env {
            vars: env
                .vars
                .iter()
                .map(|v| Var {
                    writable: false,
                    ..v.clone()
                })
                .collect(),
            fns: env.fns.clone(),
            ret: Some(ret),
            depth: 1,
            ..Env::default()
        };
        let mut header = Vec::new();
        let has_varargs = params.iter().any(|p| matches!(p, Param::VarArgs(_)));
        let mut star_written = false;
        for p in &params {
            match p {
                Param::Positional { name, ty, default } => {
                    body_env.add(name, *ty);
                    header.push(match default {
                        Some(d) => format!("{name}={d}"),
                        None => name.clone(),
                    });
                }
                Param::VarArgs(name) => {
                    body_env.add(name, Ty::Tuple);
                    header.push(format!("*{name}"));
                    star_written = true;
                }
                Param::KwOnly { name, ty, default } => {
                    if !has_varargs && !star_written {
                        header.push("*".to_string());
                        star_written = true;
                    }
                    body_env.add(name, *ty);
                    header.push(match default {
                        Some(d) => format!("{name}={d}"),
                        None => name.clone(),
                    });
                }
                Param::VarKw(name) => {
                    body_env.add(name, Ty::Dict);
                    header.push(format!("**{name}"));
                }
            }
        }
        body_env.block_start = body_env.vars.len();
        let start = self.out.len();
        self.block(&format!("def {name}({}):", header.join(", ")), |g| {
            for _ in 0..g.rng.range(0, 3) {
                g.stmt(&mut body_env);
            }
            let value = g.expr(&body_env, ret, 3);
            g.line(&format!("return {value}"));
        });
        let body = &self.out[start..];
        let heavy = body.contains(" for ")
            || body.contains("while ")
            || env
                .fns
                .iter()
                .any(|f| f.heavy && body.contains(&format!("{}(", f.name)));
        env.fns.push(FnSig {
            name,
            params,
            ret,
            heavy,
        });
    }

    /// One of the fixed-shape templates, at statement level.
    pub(super) fn template(&mut self, env: &mut Env) {
        match self.rng.below(13) {
            0 => self.closure_counter(env),
            1 => self.late_binding(env),
            2 => self.lambda_factory(env),
            3 => self.recursion(env),
            4 => self.finally_return(env),
            5 => self.varargs_echo(env),
            6 => self.mutual_recursion(),
            7 => self.raise_through_calls(),
            8 => self.default_once(env),
            9 => self.dict_mutation_while_iterating(env),
            10 => self.json_round_trip(env),
            11 => self.finally_in_loop(env),
            _ => self.comprehension_scope(env),
        }
    }

    fn closure_counter(&mut self, env: &mut Env) {
        let (mk, total, hist, step, peek) = (
            self.fresh("mk"),
            self.fresh("total"),
            self.fresh("hist"),
            self.fresh("step"),
            self.fresh("peek"),
        );
        let start = self.expr(env, Ty::Int, 1);
        self.block(&format!("def {mk}(start):"), |g| {
            g.line(&format!("{total} = start"));
            g.line(&format!("{hist} = []"));
            g.block(&format!("def {step}(d=1):"), |g| {
                g.line(&format!("nonlocal {total}"));
                g.line(&format!("{total} += d"));
                g.line(&format!("{hist}.append({total})"));
                g.line(&format!("return {total}"));
            });
            g.block(&format!("def {peek}():"), |g| {
                g.line(&format!("return ({total}, len({hist}), {hist}[-3:])"));
            });
            g.line(&format!("return {step}, {peek}"));
        });
        let (s, p) = (self.fresh("cs"), self.fresh("cp"));
        self.line(&format!("{s}, {p} = {mk}({start})"));
        let a = self.small_int();
        self.line(&format!("print('closure', {s}(), {s}({a}), {p}())"));
        env.lambdas.push(s);
    }

    fn late_binding(&mut self, env: &Env) {
        let (fs, i, f) = (self.fresh("fs"), self.fresh("i"), self.fresh("fn"));
        let n = self.rng.range(1, 4);
        let k = self.expr(env, Ty::Int, 1);
        if self.rng.chance(50) {
            self.line(&format!("{fs} = [lambda: {i} * {k} for {i} in range({n})]"));
        } else {
            self.line(&format!(
                "{fs} = [lambda {i}={i}: {i} * {k} for {i} in range({n})]"
            ));
        }
        self.line(&format!("print('late', [{f}() for {f} in {fs}])"));
    }

    fn lambda_factory(&mut self, env: &mut Env) {
        let (mk, k, p, lam) = (
            self.fresh("mk"),
            self.fresh("k"),
            self.fresh("p"),
            self.fresh("lam"),
        );
        match self.rng.below(3) {
            0 => {
                self.block(&format!("def {mk}({k}):"), |g| {
                    g.line(&format!("return lambda {p}, q=2: {p} * {k} + q"));
                });
                let arg = self.expr(env, Ty::Int, 1);
                self.line(&format!("{lam} = {mk}({arg})"));
            }
            1 => {
                let body = self.int_lambda(env);
                self.line(&format!("{lam} = {body}"));
            }
            _ => {
                // The closure sees the value its cell holds at call time, not at definition.
                self.block(&format!("def {mk}():"), |g| {
                    g.block(&format!("def inner({p}):"), |g| {
                        g.line(&format!("return {p} + {k}"));
                    });
                    g.line(&format!("{k} = 10"));
                    g.line("r1 = inner(1)");
                    g.line(&format!("{k} = 20"));
                    g.line("return inner, r1");
                });
                self.line(&format!("{lam}, _r = {mk}()"));
                self.line("print('cell', _r)");
            }
        }
        let a = self.expr(env, Ty::Int, 1);
        self.line(&format!("print('lambda', {lam}({a}))"));
        env.lambdas.push(lam);
    }

    fn recursion(&mut self, env: &Env) {
        let rec = self.fresh("rec");
        let n = self.rng.range(0, 12);
        match self.rng.below(3) {
            0 => {
                self.block(&format!("def {rec}(n, acc):"), |g| {
                    g.block("if n <= 0:", |g| g.line("return acc"));
                    g.line(&format!("return {rec}(n - 1, acc + [n % 3])"));
                });
                self.line(&format!("print('rec', {rec}({n}, []))"));
            }
            1 => {
                self.block(&format!("def {rec}(n):"), |g| {
                    g.block("if n < 2:", |g| g.line("return n"));
                    g.line(&format!("return {rec}(n - 1) + {rec}(n - 2)"));
                });
                self.line(&format!("print('fib', {rec}({n}))"));
            }
            _ => {
                let x = self.expr(env, Ty::ListInt, 1);
                self.block(&format!("def {rec}(xs, depth=0):"), |g| {
                    g.block("if depth > 8 or len(xs) < 2:", |g| {
                        g.line("return list(xs)")
                    });
                    g.line("pivot = xs[0]");
                    g.line(&format!(
                        "return {rec}([v for v in xs[1:] if v < pivot], depth + 1) + [pivot] + \
                         {rec}([v for v in xs[1:] if v >= pivot], depth + 1)"
                    ));
                });
                self.line(&format!("print('qsort', {rec}({x}))"));
            }
        }
    }

    fn finally_return(&mut self, env: &Env) {
        let f = self.fresh("fin");
        let override_return = self.rng.chance(30);
        self.block(&format!("def {f}(x):"), |g| {
            g.block("try:", |g| {
                g.block("if x > 0:", |g| g.line("return 'pos'"));
                g.line("raise ValueError('neg ' + str(x))");
            });
            g.block("except ValueError as err:", |g| {
                g.line("return 'err ' + str(err)");
            });
            g.block("finally:", |g| {
                g.line("print('fin', x)");
                if override_return {
                    g.block("if x == 0:", |g| g.line("return 'zero'"));
                }
            });
        });
        let a = self.expr(env, Ty::Int, 1);
        self.line(&format!("print({f}({a}), {f}(0), {f}(1))"));
    }

    fn varargs_echo(&mut self, env: &Env) {
        let f = self.fresh("va");
        self.block(&format!("def {f}(first, *rest, sep='-', **opts):"), |g| {
            g.line("return (first, rest, sep, opts)");
        });
        let a = self.expr(env, Ty::Int, 1);
        let l = self.expr(env, Ty::ListInt, 1);
        let call = match self.rng.below(4) {
            0 => format!("{f}({a})"),
            1 => format!("{f}({a}, *{l}, sep='+')"),
            2 => format!("{f}(*{l}, x={a}, **{{'y': 2}})"),
            _ => format!("{f}(first={a}, z=1)"),
        };
        self.line(&format!("print('va', {call})"));
    }

    fn mutual_recursion(&mut self) {
        let (even, odd) = (self.fresh("even"), self.fresh("odd"));
        self.block(&format!("def {even}(n):"), |g| {
            g.line(&format!("return True if n == 0 else {odd}(n - 1)"));
        });
        self.block(&format!("def {odd}(n):"), |g| {
            g.line(&format!("return False if n == 0 else {even}(n - 1)"));
        });
        let n = self.rng.range(0, 30);
        self.line(&format!("print('parity', {even}({n}), {odd}({n}))"));
    }

    fn raise_through_calls(&mut self) {
        let (inner, outer) = (self.fresh("thrower"), self.fresh("caller"));
        let exc = *self
            .rng
            .pick(&["KeyError", "IndexError", "ValueError", "ZeroDivisionError"]);
        let catch = *self
            .rng
            .pick(&["LookupError", "ArithmeticError", "Exception", exc]);
        self.block(&format!("def {inner}(n):"), |g| {
            g.block("if n > 2:", |g| g.line(&format!("raise {exc}(n)")));
            g.line(&format!("return {inner}(n + 1)"));
        });
        self.block(&format!("def {outer}(n):"), |g| {
            g.block("try:", |g| g.line(&format!("return {inner}(n)")));
            g.block(&format!("except {catch} as err:"), |g| {
                g.line("print('through', repr(err))");
                g.line("raise RuntimeError('wrapped') from err");
            });
        });
        let n = self.small_int();
        self.block("try:", |g| g.line(&format!("print({outer}({n}))")));
        self.block("except RuntimeError as err:", |g| {
            g.line("print('outer', repr(err), str(err))")
        });
    }

    fn default_once(&mut self, env: &Env) {
        let f = self.fresh("acc");
        self.block(&format!("def {f}(x, into=[]):"), |g| {
            g.line("into.append(x)");
            g.line("return len(into)");
        });
        let a = self.expr(env, Ty::Int, 1);
        self.line(&format!(
            "print('once', {f}({a}), {f}(2), {f}(3, []), {f}(4))"
        ));
    }

    fn dict_mutation_while_iterating(&mut self, env: &Env) {
        let (d, k) = (self.fresh("dm"), self.fresh("k"));
        let init = self.expr(env, Ty::Dict, 1);
        self.line(&format!("{d} = dict({init})"));
        let mutation = match self.rng.below(3) {
            0 => format!("{d}[{k} + 'x'] = 1"),
            1 => format!("{d}.pop({k})"),
            _ => format!("{d}[{k}] = 0"),
        };
        self.block(&format!("for {k} in {d}:"), |g| g.line(&mutation));
        self.line(&format!("print('dm', {d})"));
    }

    fn json_round_trip(&mut self, env: &Env) {
        let j = self.fresh("js");
        let dumped = self.json_dumps(env, 2);
        self.line(&format!("{j} = {dumped}"));
        self.line(&format!("print('json', {j})"));
        self.line(&format!("print('back', json.loads({j}))"));
    }

    fn finally_in_loop(&mut self, env: &Env) {
        let (x, n) = (self.fresh("x"), self.fresh("n"));
        let src = self.loop_source(env);
        let jump = *self.rng.pick(&["break", "continue"]);
        self.line(&format!("{n} = 0"));
        self.block(&format!("for {x} in {src}:"), |g| {
            g.block("try:", |g| {
                g.block(&format!("if {x} % 2 == 0:"), |g| g.line(jump));
                g.line(&format!("{n} += {x}"));
            });
            g.block("finally:", |g| {
                g.line(&format!("print('loop-finally', {x})"))
            });
        });
        self.line(&format!("print('n', {n})"));
    }

    fn comprehension_scope(&mut self, env: &Env) {
        let x = self.fresh("x");
        let v = self.expr(env, Ty::Int, 1);
        self.line(&format!("{x} = {v}"));
        self.line(&format!(
            "print('scope', [{x} * 2 for {x} in range(3)], {x}, {{{x}: {x} for {x} in 'ab'}}, {x})"
        ));
    }
}
