//! A random well-formed plan generator, driven by a byte stream.
//!
//! Shared (by `#[path]`) between the `compile_run` fuzz target (fuzz/fuzz_targets/compile_run.rs)
//! and the deterministic smoke test `tests/random_plans.rs`, so it depends only on std.
//!
//! The plans it writes pass the checker and always end: loops are `for` over `range(small)` or
//! over a copy of a collection, or `while` with a counter bound; functions call only functions
//! defined before them (no recursion). Every name is assigned before use: the module pool is
//! initialised at the top, function locals at the top of the function, and loop, comprehension
//! and handler names are read only inside their bodies. Expressions are typed, so most
//! operations succeed; the ones that may raise (indexing, `//`, `.index`, `int("..")`, ...) are
//! kept on purpose, and statements are often wrapped in `try`/`except Exception`.
//!
//! When the bytes run out every choice is 0, which is always a leaf (a literal, the end of a
//! block), so generation always stops.

#![allow(dead_code)]

use std::fmt::Write as _;

/// Reads choices from a byte stream; 0 forever once it is exhausted.
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> ByteReader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        ByteReader { data, pos: 0 }
    }

    pub fn exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }

    pub fn byte(&mut self) -> u8 {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => 0,
        }
    }

    /// A value in `0..n` (0 when `n` is 0 or the bytes are exhausted).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let raw = if n <= 256 {
            self.byte() as usize
        } else {
            (self.byte() as usize) << 8 | self.byte() as usize
        };
        raw % n
    }

    /// True with probability about `num / den` (false once exhausted).
    pub fn chance(&mut self, num: u8, den: u8) -> bool {
        if self.exhausted() {
            return false;
        }
        (self.byte() % den) >= den - num
    }

    pub fn int_in(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
}

/// A tiny xorshift PRNG for seeded byte streams (the smoke test).
pub fn seeded_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.extend_from_slice(&state.to_le_bytes());
    }
    out.truncate(len);
    out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Float,
    Str,
    Bool,
    ListInt,
    ListStr,
    Tuple,
    Dict,
    Set,
}

const ALL_TYPES: [Ty; 9] = [
    Ty::Int,
    Ty::Float,
    Ty::Str,
    Ty::Bool,
    Ty::ListInt,
    Ty::ListStr,
    Ty::Tuple,
    Ty::Dict,
    Ty::Set,
];

/// A module-level function: its name and signature shape.
#[derive(Clone)]
struct FnSig {
    name: String,
    /// has `b=...` (int, with a default)
    b: bool,
    /// has `*args` (ints)
    args: bool,
    /// has keyword-only `c="..."` (str)
    c: bool,
    /// has `**kw` (ints)
    kw: bool,
}

/// What a block may see and do.
#[derive(Clone)]
struct Scope {
    /// Names readable here, with their types.
    vars: Vec<(String, Ty)>,
    /// Names assignable here (a subset of `vars`): assigning anything else could make a name
    /// local to a function and unbound.
    writable: Vec<String>,
    /// Callable lambdas / inner functions `name(int[, y=int]) -> int` readable here.
    lambdas: Vec<String>,
    in_loop: bool,
    in_fn: bool,
    /// Functions callable from here.
    fns: Vec<FnSig>,
}

pub struct Gen<'a> {
    r: ByteReader<'a>,
    out: String,
    counter: usize,
    nodes: usize,
}

const STRS: &[&str] = &[
    "", "a", "ab c", "x,y,z", " pad ", "Hello", "é日本", "a-b-a", "42", "-7", "3.5", "{}", "\\n",
    "tab\\t", "q'uote", "AbC", "  ", "abcabc",
];
const INT_SPECS: &[&str] = &[
    "", ">5", "<4", "^7", "05", "+", "x", "X", "o", "b", "d", ",", "_", "#x", "*^9", "-", " ",
    "08.2f", "e", "%", "=+6",
];
const FLOAT_SPECS: &[&str] = &[
    "", ".2f", ".3e", "g", "10.1f", "%", ".0f", "+.1f", "<8", "^12.4g", ",.2f", "E", ".1%", "d",
];
const STR_SPECS: &[&str] = &["", ">8", "<4", "^6", ".2", "*<5", "s", "d"];
const EXCEPTIONS: &[&str] = &[
    "ValueError",
    "KeyError",
    "IndexError",
    "ZeroDivisionError",
    "TypeError",
    "RuntimeError",
    "AssertionError",
    "OverflowError",
    "Exception",
];

const MAX_NODES: usize = 4000;

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Gen {
            r: ByteReader::new(data),
            out: String::new(),
            counter: 0,
            nodes: 0,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.r.below(items.len())]
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Too big already: every choice from now on is a leaf.
    fn full(&self) -> bool {
        self.nodes > MAX_NODES || self.r.exhausted()
    }

    // ---------------------------------------------------------------- expressions

    fn var_of(&mut self, scope: &Scope, ty: Ty) -> Option<String> {
        let candidates: Vec<&String> = scope
            .vars
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n)
            .collect();
        if candidates.is_empty() {
            return None;
        }
        Some(candidates[self.r.below(candidates.len())].clone())
    }

    fn str_lit(&mut self) -> String {
        let s = self.pick(STRS);
        if s.contains('\'') {
            format!("\"{s}\"")
        } else {
            format!("'{s}'")
        }
    }

    fn small_int(&mut self) -> String {
        let n = match self.r.below(8) {
            0 => self.r.int_in(0, 5),
            1 => self.r.int_in(-3, 3),
            2 => self.r.int_in(-100, 100),
            3 => [
                i64::MAX,
                i64::MIN + 1,
                1 << 40,
                (1 << 62) - 1,
                1 << 62,
                -(1 << 62),
                1 << 31,
                -(1 << 31),
                (1 << 32) + 1,
                -1,
            ][self.r.below(10)],
            _ => self.r.int_in(0, 9),
        };
        if n < 0 {
            format!("({n})")
        } else {
            n.to_string()
        }
    }

    fn leaf(&mut self, scope: &Scope, ty: Ty) -> String {
        if self.r.chance(1, 2) {
            if let Some(v) = self.var_of(scope, ty) {
                return v;
            }
        }
        match ty {
            Ty::Int => self.small_int(),
            Ty::Float => {
                let f = [
                    "0.0",
                    "1.5",
                    "-2.25",
                    "3.14159",
                    "1e10",
                    "1e-5",
                    "0.1",
                    "2.5",
                    "-0.0",
                    "1e300",
                    "123456.789",
                ];
                self.pick(&f).to_owned()
            }
            Ty::Str => self.str_lit(),
            Ty::Bool => self.pick(&["True", "False"]).to_owned(),
            Ty::ListInt => {
                let n = self.r.below(4);
                let items: Vec<String> = (0..n).map(|_| self.small_int()).collect();
                format!("[{}]", items.join(", "))
            }
            Ty::ListStr => {
                let n = self.r.below(4);
                let items: Vec<String> = (0..n).map(|_| self.str_lit()).collect();
                format!("[{}]", items.join(", "))
            }
            Ty::Tuple => {
                let n = self.r.below(4);
                let items: Vec<String> = (0..n).map(|_| self.small_int()).collect();
                if n == 1 {
                    format!("({},)", items[0])
                } else {
                    format!("({})", items.join(", "))
                }
            }
            Ty::Dict => {
                let n = self.r.below(4);
                let items: Vec<String> = (0..n)
                    .map(|_| format!("{}: {}", self.str_lit(), self.small_int()))
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
            Ty::Set => {
                let n = self.r.below(4);
                if n == 0 {
                    return "set()".to_owned();
                }
                let items: Vec<String> = (0..n).map(|_| self.small_int()).collect();
                format!("{{{}}}", items.join(", "))
            }
        }
    }

    fn any_ty(&mut self) -> Ty {
        self.pick(&ALL_TYPES)
    }

    /// An expression of type `ty` (mostly; some operations may raise at run time).
    fn expr(&mut self, scope: &Scope, ty: Ty, depth: usize) -> String {
        self.nodes += 1;
        if depth == 0 || self.full() {
            return self.leaf(scope, ty);
        }
        let d = depth - 1;
        let choice = self.r.below(24);
        if choice < 6 {
            return self.leaf(scope, ty);
        }
        // Parenthesised, so a method call or subscript applied to it applies to all of it.
        let composite = self.composite(scope, ty, d, choice);
        format!("({composite})")
    }

    fn composite(&mut self, scope: &Scope, ty: Ty, d: usize, choice: usize) -> String {
        match ty {
            Ty::Int => self.int_expr(scope, d, choice),
            Ty::Float => match choice % 8 {
                0 => format!(
                    "{} / {}",
                    self.expr(scope, Ty::Int, d),
                    self.expr(scope, Ty::Int, d)
                ),
                1 => format!(
                    "({} + {})",
                    self.expr(scope, Ty::Float, d),
                    self.expr(scope, Ty::Int, d)
                ),
                2 => format!(
                    "({} * {})",
                    self.expr(scope, Ty::Float, d),
                    self.expr(scope, Ty::Float, d)
                ),
                3 => format!("float({})", self.expr(scope, Ty::Int, d)),
                4 => format!("abs({})", self.expr(scope, Ty::Float, d)),
                5 => format!(
                    "round({}, {})",
                    self.expr(scope, Ty::Float, d),
                    self.r.int_in(-1, 3)
                ),
                6 => format!(
                    "({} - {} / 3)",
                    self.expr(scope, Ty::Float, d),
                    self.expr(scope, Ty::Float, d)
                ),
                _ => format!(
                    "float({})",
                    self.pick(&["'1.25'", "'-3'", "' 2e3 '", "'inf'", "'nan'", "'x'"])
                ),
            },
            Ty::Str => self.str_expr(scope, d, choice),
            Ty::Bool => self.bool_expr(scope, d, choice),
            Ty::ListInt => match choice % 10 {
                0 => format!("sorted({})", self.expr(scope, Ty::ListInt, d)),
                1 => format!("sorted({}, reverse=True)", self.expr(scope, Ty::ListInt, d)),
                2 => {
                    let x = self.fresh("c");
                    let mut inner = scope.clone();
                    inner.vars.push((x.clone(), Ty::Int));
                    inner.writable.clear();
                    let src = self.expr(scope, Ty::ListInt, d);
                    let elt = self.expr(&inner, Ty::Int, d);
                    if self.r.chance(1, 2) {
                        let cond = self.expr(&inner, Ty::Bool, d);
                        format!("[{elt} for {x} in {src} if {cond}]")
                    } else {
                        format!("[{elt} for {x} in {src}]")
                    }
                }
                3 => format!(
                    "{} + {}",
                    self.expr(scope, Ty::ListInt, d),
                    self.expr(scope, Ty::ListInt, d)
                ),
                4 => format!(
                    "{}[{}]",
                    self.expr(scope, Ty::ListInt, d),
                    self.slice(scope, d)
                ),
                5 => format!("list(range({}))", self.r.int_in(-2, 8)),
                6 => {
                    let x = self.fresh("c");
                    let src = self.expr(scope, Ty::Str, d);
                    format!("[len({x}) for {x} in {src}.split()]")
                }
                7 => format!("list({})", self.expr(scope, Ty::Tuple, d)),
                8 => format!("sorted({})", self.expr(scope, Ty::Set, d)),
                _ => format!(
                    "{} * {}",
                    self.expr(scope, Ty::ListInt, d),
                    self.r.int_in(-1, 3)
                ),
            },
            Ty::ListStr => match choice % 8 {
                0 => format!(
                    "{}.split({})",
                    self.expr(scope, Ty::Str, d),
                    self.pick(&["','", "'-'", "", "'a'"])
                ),
                1 => format!("sorted({})", self.expr(scope, Ty::ListStr, d)),
                2 => {
                    let x = self.fresh("c");
                    let src = self.expr(scope, Ty::ListInt, d);
                    format!("[str({x}) for {x} in {src}]")
                }
                3 => format!("list({}.keys())", self.expr(scope, Ty::Dict, d)),
                4 => format!(
                    "{}[{}]",
                    self.expr(scope, Ty::ListStr, d),
                    self.slice(scope, d)
                ),
                5 => format!(
                    "sorted({}, key=lambda s: (len(s), s))",
                    self.expr(scope, Ty::ListStr, d)
                ),
                6 => format!(
                    "{} + {}",
                    self.expr(scope, Ty::ListStr, d),
                    self.expr(scope, Ty::ListStr, d)
                ),
                _ => format!("list({})", self.expr(scope, Ty::Str, d)),
            },
            Ty::Tuple => match choice % 5 {
                0 => format!("tuple({})", self.expr(scope, Ty::ListInt, d)),
                1 => format!(
                    "{} + {}",
                    self.expr(scope, Ty::Tuple, d),
                    self.expr(scope, Ty::Tuple, d)
                ),
                2 => format!(
                    "{}[{}]",
                    self.expr(scope, Ty::Tuple, d),
                    self.slice(scope, d)
                ),
                3 => format!(
                    "({}, {})",
                    self.expr(scope, Ty::Int, d),
                    self.expr(scope, Ty::Int, d)
                ),
                _ => format!(
                    "divmod({}, {})",
                    self.expr(scope, Ty::Int, d),
                    self.expr(scope, Ty::Int, d)
                ),
            },
            Ty::Dict => match choice % 6 {
                0 => {
                    let x = self.fresh("c");
                    let src = self.expr(scope, Ty::ListStr, d);
                    format!("{{{x}: len({x}) for {x} in {src}}}")
                }
                1 => format!(
                    "dict(zip({}, {}))",
                    self.expr(scope, Ty::ListStr, d),
                    self.expr(scope, Ty::ListInt, d)
                ),
                2 => format!("dict({})", self.expr(scope, Ty::Dict, d)),
                3 => format!(
                    "{{**{}, {}: {}}}",
                    self.expr(scope, Ty::Dict, d),
                    self.expr(scope, Ty::Str, d),
                    self.expr(scope, Ty::Int, d)
                ),
                4 => format!(
                    "dict(a={}, b={})",
                    self.expr(scope, Ty::Int, d),
                    self.expr(scope, Ty::Int, d)
                ),
                _ => format!(
                    "{} | {}",
                    self.expr(scope, Ty::Dict, d),
                    self.expr(scope, Ty::Dict, d)
                ),
            },
            Ty::Set => match choice % 6 {
                0 => format!("set({})", self.expr(scope, Ty::ListInt, d)),
                1 => format!(
                    "{} | {}",
                    self.expr(scope, Ty::Set, d),
                    self.expr(scope, Ty::Set, d)
                ),
                2 => format!(
                    "{} & {}",
                    self.expr(scope, Ty::Set, d),
                    self.expr(scope, Ty::Set, d)
                ),
                3 => format!(
                    "{} - {}",
                    self.expr(scope, Ty::Set, d),
                    self.expr(scope, Ty::Set, d)
                ),
                4 => {
                    let x = self.fresh("c");
                    let mut inner = scope.clone();
                    inner.vars.push((x.clone(), Ty::Int));
                    let src = self.expr(scope, Ty::ListInt, d);
                    let elt = self.expr(&inner, Ty::Int, d);
                    format!("{{{elt} % 5 for {x} in {src}}}")
                }
                _ => format!(
                    "{} ^ {}",
                    self.expr(scope, Ty::Set, d),
                    self.expr(scope, Ty::Set, d)
                ),
            },
        }
    }

    fn slice(&mut self, scope: &Scope, d: usize) -> String {
        let part = |g: &mut Self| -> String {
            if g.r.chance(1, 3) {
                String::new()
            } else {
                g.expr(scope, Ty::Int, d.min(1))
            }
        };
        let a = part(self);
        let b = part(self);
        if self.r.chance(1, 3) {
            let c = self.pick(&["1", "2", "-1", "-2", "3", "0", "None"]);
            format!("{a}:{b}:{c}")
        } else {
            format!("{a}:{b}")
        }
    }

    fn int_expr(&mut self, scope: &Scope, d: usize, choice: usize) -> String {
        match self.r.below(34) {
            0 => format!(
                "({} + {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            1 => format!(
                "({} - {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            2 => format!(
                "({} * {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            3 => format!(
                "({} // {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            4 => format!(
                "({} % {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            5 => format!("len({})", {
                let t = self.pick(&[
                    Ty::Str,
                    Ty::ListInt,
                    Ty::ListStr,
                    Ty::Dict,
                    Ty::Set,
                    Ty::Tuple,
                ]);
                self.expr(scope, t, d)
            }),
            6 => format!("abs({})", self.expr(scope, Ty::Int, d)),
            7 => format!(
                "min({}, {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            8 => format!("max({})", self.expr(scope, Ty::ListInt, d)),
            9 => format!("sum({})", self.expr(scope, Ty::ListInt, d)),
            10 => format!("int({})", self.expr(scope, Ty::Float, d)),
            11 => format!(
                "int({})",
                self.pick(&[
                    "'12'",
                    "' -3 '",
                    "'x'",
                    "'0x1f'",
                    "'1_000'",
                    "'99999999999999999999'"
                ])
            ),
            12 => format!("round({})", self.expr(scope, Ty::Float, d)),
            13 => format!(
                "{}.find({})",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Str, d)
            ),
            14 => format!(
                "{}.index({})",
                self.expr(scope, Ty::ListInt, d),
                self.expr(scope, Ty::Int, d)
            ),
            15 => format!(
                "{}.get({}, {})",
                self.expr(scope, Ty::Dict, d),
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Int, d)
            ),
            16 => format!(
                "({} if {} else {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Bool, d),
                self.expr(scope, Ty::Int, d)
            ),
            17 => format!(
                "{}[{}]",
                self.expr(scope, Ty::ListInt, d),
                self.expr(scope, Ty::Int, d)
            ),
            18 => format!(
                "{}[{}]",
                self.expr(scope, Ty::Tuple, d),
                self.expr(scope, Ty::Int, d)
            ),
            19 => format!(
                "({} & {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            20 => format!(
                "({} | {} ^ {})",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            21 => format!(
                "({} << {})",
                self.expr(scope, Ty::Int, d),
                self.r.int_in(0, 70)
            ),
            22 => format!(
                "({} >> {})",
                self.expr(scope, Ty::Int, d),
                self.r.int_in(0, 70)
            ),
            23 => format!(
                "({} ** {})",
                self.expr(scope, Ty::Int, d),
                self.r.int_in(-1, 5)
            ),
            24 => format!("-{}", self.expr(scope, Ty::Int, d)),
            25 => format!("~{}", self.expr(scope, Ty::Int, d)),
            26 => {
                // A call of a function or lambda in scope.
                if !scope.lambdas.is_empty() && self.r.chance(1, 2) {
                    let l = scope.lambdas[self.r.below(scope.lambdas.len())].clone();
                    let x = self.expr(scope, Ty::Int, d);
                    if self.r.chance(1, 2) {
                        let y = self.expr(scope, Ty::Int, d);
                        format!("{l}({x}, y={y})")
                    } else {
                        format!("{l}({x})")
                    }
                } else if !scope.fns.is_empty() {
                    let f = scope.fns[self.r.below(scope.fns.len())].clone();
                    self.call(scope, &f, d)
                } else {
                    self.leaf(scope, Ty::Int)
                }
            }
            27 => format!("{}.pop()", self.expr(scope, Ty::ListInt, d)),
            28 => format!(
                "{}.setdefault({}, {})",
                self.expr(scope, Ty::Dict, d),
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Int, d)
            ),
            29 => format!(
                "{}.pop({}, {})",
                self.expr(scope, Ty::Dict, d),
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Int, d)
            ),
            30 => format!(
                "{}[{}]",
                self.expr(scope, Ty::Dict, d),
                self.expr(scope, Ty::Str, d)
            ),
            31 => format!(
                "pow({}, {}, {})",
                self.expr(scope, Ty::Int, d),
                self.r.int_in(0, 9),
                self.expr(scope, Ty::Int, d)
            ),
            32 => format!(
                "sum({}, {})",
                self.expr(scope, Ty::Tuple, d),
                self.expr(scope, Ty::Int, d)
            ),
            _ => {
                let _ = choice;
                format!("ord({}[0])", self.expr(scope, Ty::Str, d))
            }
        }
    }

    fn str_expr(&mut self, scope: &Scope, d: usize, _choice: usize) -> String {
        match self.r.below(20) {
            0 => format!(
                "{} + {}",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Str, d)
            ),
            1 => format!(
                "{} * {}",
                self.expr(scope, Ty::Str, d),
                self.r.int_in(-1, 4)
            ),
            2 => format!("{}.upper()", self.expr(scope, Ty::Str, d)),
            3 => format!(
                "{}.strip({})",
                self.expr(scope, Ty::Str, d),
                self.pick(&["", "' '", "'a'", "'xa '"])
            ),
            4 => format!(
                "{}.replace({}, {})",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Str, d)
            ),
            5 => format!(
                "{}.join({})",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::ListStr, d)
            ),
            6 => {
                let t = self.any_ty();
                format!("str({})", self.expr(scope, t, d))
            }
            7 => {
                let t = self.any_ty();
                format!("repr({})", self.expr(scope, t, d))
            }
            8..=10 => self.fstring(scope, d),
            11 => format!("{}[{}]", self.expr(scope, Ty::Str, d), self.slice(scope, d)),
            12 => format!(
                "{}[{}]",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Int, d)
            ),
            13 => format!(
                "({} if {} else {})",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Bool, d),
                self.expr(scope, Ty::Str, d)
            ),
            14 => format!("'-'.join(sorted({}))", self.expr(scope, Ty::ListStr, d)),
            15 => format!(
                "{}.format({}, {})",
                self.pick(&["'{}|{}'", "'{1}{0}'", "'{:>4}{!r}'", "'{0:x}'"]),
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Str, d)
            ),
            16 => format!("hex({})", self.expr(scope, Ty::Int, d)),
            17 => format!("chr(65 + {} % 26)", self.expr(scope, Ty::Int, d)),
            18 => format!("{}.lower()", self.expr(scope, Ty::Str, d)),
            _ => format!(
                "max({}, {})",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Str, d)
            ),
        }
    }

    fn fstring(&mut self, scope: &Scope, d: usize) -> String {
        let n = 1 + self.r.below(3);
        let mut s = String::from("f'");
        for i in 0..n {
            if i > 0 || self.r.chance(1, 2) {
                s.push_str(self.pick(&["x", " ", "=", "{{", "}}", "é", "ab "]));
            }
            let ty = self.pick(&[Ty::Int, Ty::Float, Ty::Str, Ty::Int, Ty::Bool, Ty::ListInt]);
            // Python 3.11 replacement fields may not reuse the outer quote or hold a
            // backslash, so they hold only names and numbers.
            let _ = d;
            let value = match (self.var_of(scope, ty), ty) {
                (Some(v), Ty::Int) if self.r.chance(1, 3) => {
                    format!("{v} * {}", self.r.int_in(-3, 3))
                }
                (Some(v), _) if !self.r.chance(1, 5) => v,
                (_, Ty::Int | Ty::Bool) => self.small_int(),
                (_, Ty::Float) => self.pick(&["0.5", "-1.25", "1e100", "3.0"]).to_owned(),
                (Some(v), _) => v,
                (None, _) => "n0".to_owned(),
            };
            let conv = if self.r.chance(1, 6) {
                self.pick(&["!r", "!s"])
            } else {
                ""
            };
            let spec = match ty {
                Ty::Int | Ty::Bool => self.pick(INT_SPECS),
                Ty::Float => self.pick(FLOAT_SPECS),
                _ => self.pick(STR_SPECS),
            };
            let spec = if !conv.is_empty() && !spec.is_empty() {
                self.pick(STR_SPECS)
            } else {
                spec
            };
            if spec.is_empty() {
                let _ = write!(s, "{{{value}{conv}}}");
            } else {
                let _ = write!(s, "{{{value}{conv}:{spec}}}");
            }
        }
        s.push('\'');
        s
    }

    fn bool_expr(&mut self, scope: &Scope, d: usize, _choice: usize) -> String {
        match self.r.below(12) {
            0 | 1 => {
                let t = self.pick(&[Ty::Int, Ty::Float, Ty::Str, Ty::Int, Ty::ListInt, Ty::Tuple]);
                let op = self.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!("{} {op} {}", self.expr(scope, t, d), self.expr(scope, t, d))
            }
            2 => format!(
                "{} < {} <= {}",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::Int, d)
            ),
            3 => format!(
                "({} and {})",
                self.expr(scope, Ty::Bool, d),
                self.expr(scope, Ty::Bool, d)
            ),
            4 => format!(
                "({} or {})",
                self.expr(scope, Ty::Bool, d),
                self.expr(scope, Ty::Bool, d)
            ),
            5 => format!("not {}", self.expr(scope, Ty::Bool, d)),
            6 => {
                let t = self.any_ty();
                let k = self.pick(&[
                    "int",
                    "str",
                    "float",
                    "list",
                    "dict",
                    "tuple",
                    "bool",
                    "(int, float)",
                    "set",
                ]);
                format!("isinstance({}, {k})", self.expr(scope, t, d))
            }
            7 => format!(
                "{} in {}",
                self.expr(scope, Ty::Int, d),
                self.expr(scope, Ty::ListInt, d)
            ),
            8 => format!(
                "{} in {}",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Dict, d)
            ),
            9 => format!(
                "{} not in {}",
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Str, d)
            ),
            10 => format!(
                "{} == {}",
                self.expr(scope, Ty::Dict, d),
                self.expr(scope, Ty::Dict, d)
            ),
            _ => format!("bool({})", self.expr(scope, Ty::ListInt, d)),
        }
    }

    fn call(&mut self, scope: &Scope, f: &FnSig, d: usize) -> String {
        let mut args = Vec::new();
        let by_keyword = !f.args && self.r.chance(1, 4);
        let a = self.expr(scope, Ty::Int, d);
        if by_keyword {
            args.push(format!("a={a}"));
        } else {
            args.push(a);
        }
        if f.b && self.r.chance(1, 2) {
            let b = self.expr(scope, Ty::Int, d);
            if by_keyword || self.r.chance(1, 2) {
                args.push(format!("b={b}"));
            } else {
                args.push(b);
            }
        }
        let positional_b = args.len() == 2 && !args[1].starts_with("b=");
        if f.args && (positional_b || !f.b) {
            for _ in 0..self.r.below(3) {
                args.push(self.expr(scope, Ty::Int, d));
            }
            if self.r.chance(1, 5) {
                args.push(format!("*{}", self.expr(scope, Ty::ListInt, d)));
            }
        }
        if f.c && self.r.chance(1, 2) {
            args.push(format!("c={}", self.expr(scope, Ty::Str, d)));
        }
        if f.kw {
            for _ in 0..self.r.below(3) {
                let k = self.fresh("k");
                args.push(format!("{k}={}", self.expr(scope, Ty::Int, d)));
            }
            if self.r.chance(1, 5) {
                args.push(format!("**{{'zz': {}}}", self.expr(scope, Ty::Int, d)));
            }
        }
        format!("{}({})", f.name, args.join(", "))
    }

    // ---------------------------------------------------------------- statements

    fn assign(&mut self, scope: &Scope, indent: usize) {
        if scope.writable.is_empty() {
            let e = self.expr(scope, Ty::Int, 2);
            self.line(indent, &format!("print({e})"));
            return;
        }
        let name = scope.writable[self.r.below(scope.writable.len())].clone();
        let ty = scope
            .vars
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .unwrap_or(Ty::Int);
        let depth = 1 + self.r.below(3);
        if self.r.chance(1, 4) {
            match ty {
                Ty::Int => {
                    let op = self.pick(&["+=", "-=", "*=", "//=", "%=", "|=", "^="]);
                    let e = self.expr(scope, Ty::Int, depth);
                    self.line(indent, &format!("{name} {op} {e}"));
                    return;
                }
                Ty::Str => {
                    let e = self.expr(scope, Ty::Str, depth);
                    self.line(indent, &format!("{name} += {e}"));
                    return;
                }
                Ty::ListInt => {
                    let e = self.expr(scope, Ty::ListInt, depth);
                    self.line(indent, &format!("{name} += {e}"));
                    return;
                }
                _ => {}
            }
        }
        let e = self.expr(scope, ty, depth);
        self.line(indent, &format!("{name} = {e}"));
    }

    fn writable_of(&mut self, scope: &Scope, ty: Ty) -> Option<String> {
        let c: Vec<String> = scope
            .writable
            .iter()
            .filter(|w| scope.vars.iter().any(|(n, t)| n == *w && *t == ty))
            .cloned()
            .collect();
        if c.is_empty() {
            None
        } else {
            Some(c[self.r.below(c.len())].clone())
        }
    }

    fn mutate(&mut self, scope: &Scope, indent: usize) {
        match self.r.below(8) {
            0 => {
                if let Some(l) = self.var_of(scope, Ty::ListInt) {
                    let e = self.expr(scope, Ty::Int, 2);
                    self.line(indent, &format!("{l}.append({e})"));
                    return;
                }
            }
            1 => {
                if let Some(l) = self.var_of(scope, Ty::ListInt) {
                    let rev = self.pick(&["", "reverse=True", "key=lambda v: -v", "key=abs"]);
                    self.line(indent, &format!("{l}.sort({rev})"));
                    return;
                }
            }
            2 => {
                if let Some(dv) = self.var_of(scope, Ty::Dict) {
                    let k = self.expr(scope, Ty::Str, 1);
                    let v = self.expr(scope, Ty::Int, 2);
                    self.line(indent, &format!("{dv}[{k}] = {v}"));
                    return;
                }
            }
            3 => {
                if let Some(l) = self.var_of(scope, Ty::ListInt) {
                    let i = self.expr(scope, Ty::Int, 1);
                    let v = self.expr(scope, Ty::Int, 2);
                    self.line(indent, &format!("{l}[{i}] = {v}"));
                    return;
                }
            }
            4 => {
                if let Some(dv) = self.var_of(scope, Ty::Dict) {
                    let k = self.expr(scope, Ty::Str, 1);
                    self.line(indent, &format!("del {dv}[{k}]"));
                    return;
                }
            }
            5 => {
                if let Some(l) = self.var_of(scope, Ty::ListInt) {
                    let s = self.slice(scope, 1);
                    let v = self.expr(scope, Ty::ListInt, 1);
                    self.line(indent, &format!("{l}[{s}] = {v}"));
                    return;
                }
            }
            6 => {
                // Tuple unpacking into two writable ints.
                if let (Some(a), Some(b)) = (
                    self.writable_of(scope, Ty::Int),
                    self.writable_of(scope, Ty::Int),
                ) {
                    if a != b {
                        let x = self.expr(scope, Ty::Int, 1);
                        let y = self.expr(scope, Ty::Int, 1);
                        self.line(indent, &format!("{a}, {b} = {x}, {y}"));
                        return;
                    }
                }
            }
            _ => {
                if let Some(l) = self.var_of(scope, Ty::ListStr) {
                    let e = self.expr(scope, Ty::Str, 2);
                    self.line(indent, &format!("{l}.append({e})"));
                    return;
                }
            }
        }
        self.assign(scope, indent);
    }

    fn print_stmt(&mut self, scope: &Scope, indent: usize) {
        let n = self.r.below(3) + 1;
        let mut parts = Vec::new();
        for _ in 0..n {
            let t = self.any_ty();
            parts.push(self.expr(scope, t, 2));
        }
        match self.r.below(6) {
            0 => parts.push("sep=', '".to_owned()),
            1 => parts.push("end='|\\n'".to_owned()),
            2 => parts.push("sep=''".to_owned()),
            _ => {}
        }
        self.line(indent, &format!("print({})", parts.join(", ")));
    }

    fn block(&mut self, scope: &Scope, indent: usize, depth: usize, max: usize) {
        let n = 1 + self.r.below(max);
        for _ in 0..n {
            self.stmt(scope, indent, depth);
        }
    }

    fn stmt(&mut self, scope: &Scope, indent: usize, depth: usize) {
        self.nodes += 1;
        let choice = if depth == 0 || self.full() {
            self.r.below(4)
        } else {
            self.r.below(20)
        };
        let d = depth.saturating_sub(1);
        match choice {
            0 => self.print_stmt(scope, indent),
            1 | 2 => self.assign(scope, indent),
            3 => self.mutate(scope, indent),
            4 | 5 => {
                let c = self.expr(scope, Ty::Bool, 2);
                self.line(indent, &format!("if {c}:"));
                self.block(scope, indent + 1, d, 3);
                for _ in 0..self.r.below(3) {
                    let c = self.expr(scope, Ty::Bool, 2);
                    self.line(indent, &format!("elif {c}:"));
                    self.block(scope, indent + 1, d, 2);
                }
                if self.r.chance(1, 2) {
                    self.line(indent, "else:");
                    self.block(scope, indent + 1, d, 2);
                }
            }
            6 | 7 => {
                let x = self.fresh("i");
                let mut inner = scope.clone();
                inner.in_loop = true;
                let iter = match self.r.below(6) {
                    0 | 1 => {
                        inner.vars.push((x.clone(), Ty::Int));
                        let start = self.r.int_in(-2, 2);
                        let stop = self.r.int_in(0, 6);
                        match self.r.below(3) {
                            0 => format!("range({stop})"),
                            1 => format!("range({start}, {stop})"),
                            _ => format!("range({stop}, {start}, -1)"),
                        }
                    }
                    2 => {
                        inner.vars.push((x.clone(), Ty::Int));
                        let l = self.expr(scope, Ty::ListInt, 1);
                        format!("list({l})[:6]")
                    }
                    3 => {
                        inner.vars.push((x.clone(), Ty::Str));
                        let l = self.expr(scope, Ty::ListStr, 1);
                        format!("({l})[:]")
                    }
                    4 => {
                        // enumerate / zip / items with unpacking
                        let y = self.fresh("j");
                        match self.r.below(3) {
                            0 => {
                                inner.vars.push((x.clone(), Ty::Int));
                                inner.vars.push((y.clone(), Ty::Str));
                                let l = self.expr(scope, Ty::ListStr, 1);
                                self.emit_for(
                                    &inner,
                                    indent,
                                    d,
                                    &format!("{x}, {y}"),
                                    &format!("enumerate({l})"),
                                );
                            }
                            1 => {
                                inner.vars.push((x.clone(), Ty::Int));
                                inner.vars.push((y.clone(), Ty::Str));
                                let a = self.expr(scope, Ty::ListInt, 1);
                                let b = self.expr(scope, Ty::ListStr, 1);
                                self.emit_for(
                                    &inner,
                                    indent,
                                    d,
                                    &format!("{x}, {y}"),
                                    &format!("zip({a}, {b})"),
                                );
                            }
                            _ => {
                                inner.vars.push((x.clone(), Ty::Str));
                                inner.vars.push((y.clone(), Ty::Int));
                                let dv = self.expr(scope, Ty::Dict, 1);
                                self.emit_for(
                                    &inner,
                                    indent,
                                    d,
                                    &format!("{x}, {y}"),
                                    &format!("list({dv}.items())"),
                                );
                            }
                        }
                        return;
                    }
                    _ => {
                        inner.vars.push((x.clone(), Ty::Str));
                        let dv = self.expr(scope, Ty::Dict, 1);
                        format!("sorted({dv}.keys())")
                    }
                };
                self.emit_for(&inner, indent, d, &x, &iter);
            }
            8 => {
                // while with a counter bound
                let w = self.fresh("w");
                let bound = self.r.int_in(0, 6);
                self.line(indent, &format!("{w} = 0"));
                self.line(indent, &format!("while {w} < {bound}:"));
                self.line(indent + 1, &format!("{w} += 1"));
                let mut inner = scope.clone();
                inner.in_loop = true;
                inner.vars.push((w.clone(), Ty::Int));
                self.block(&inner, indent + 1, d, 3);
                if self.r.chance(1, 3) {
                    self.line(indent, "else:");
                    self.block(scope, indent + 1, d, 1);
                }
            }
            9 | 10 => self.try_stmt(scope, indent, d),
            11 => {
                let exc = self.pick(EXCEPTIONS);
                let c = self.expr(scope, Ty::Bool, 2);
                let msg = self.expr(scope, Ty::Str, 1);
                self.line(indent, &format!("if {c}:"));
                self.line(indent + 1, &format!("raise {exc}({msg})"));
            }
            12 => {
                if scope.in_loop {
                    let c = self.expr(scope, Ty::Bool, 2);
                    let kw = self.pick(&["break", "continue"]);
                    self.line(indent, &format!("if {c}:"));
                    self.line(indent + 1, kw);
                } else {
                    self.print_stmt(scope, indent);
                }
            }
            13 => {
                if scope.in_fn {
                    let c = self.expr(scope, Ty::Bool, 2);
                    let v = self.expr(scope, Ty::Int, 2);
                    self.line(indent, &format!("if {c}:"));
                    self.line(indent + 1, &format!("return {v}"));
                } else {
                    self.print_stmt(scope, indent);
                }
            }
            14 => {
                let c = self.expr(scope, Ty::Bool, 1);
                let m = self.expr(scope, Ty::Str, 1);
                self.line(indent, &format!("assert {c}, {m}"));
            }
            15 => {
                // A lambda bound to a writable-free fresh name, then used.
                let l = self.fresh("lam");
                let mut inner = scope.clone();
                inner.vars.push(("x".to_owned(), Ty::Int));
                inner.vars.push(("y".to_owned(), Ty::Int));
                let body = self.expr(&inner, Ty::Int, 2);
                self.line(indent, &format!("{l} = lambda x, y=2: {body}"));
                let mut after = scope.clone();
                after.lambdas.push(l.clone());
                let e = self.expr(&after, Ty::Int, 2);
                let arg = self.expr(scope, Ty::Int, 1);
                self.line(indent, &format!("print({l}({arg}), {e})"));
            }
            _ => {
                let t = self.any_ty();
                let e = self.expr(scope, t, 3);
                self.line(indent, &format!("print({e})"));
            }
        }
    }

    fn emit_for(&mut self, inner: &Scope, indent: usize, d: usize, target: &str, iter: &str) {
        self.line(indent, &format!("for {target} in {iter}:"));
        self.block(inner, indent + 1, d, 3);
        if self.r.chance(1, 4) {
            self.line(indent, "else:");
            // The else block runs in the enclosing scope, where the loop's own names may be
            // unbound (zero iterations); a break there would belong to an outer loop, so none.
            let mut after = inner.clone();
            after.in_loop = false;
            after
                .vars
                .retain(|(n, _)| !target.split(", ").any(|t| t == n));
            self.block(&after, indent + 1, d, 1);
        }
    }

    fn try_stmt(&mut self, scope: &Scope, indent: usize, d: usize) {
        self.line(indent, "try:");
        self.block(scope, indent + 1, d, 3);
        if self.r.chance(1, 2) {
            let exc = self.pick(EXCEPTIONS);
            let msg = self.expr(scope, Ty::Str, 1);
            let c = self.expr(scope, Ty::Bool, 1);
            self.line(indent + 1, &format!("if {c}:"));
            self.line(indent + 2, &format!("raise {exc}({msg})"));
        }
        let handlers = self.r.below(3);
        let finally = self.r.chance(1, 2);
        let handlers = if handlers == 0 && !finally {
            1
        } else {
            handlers
        };
        for i in 0..handlers {
            let e = self.fresh("e");
            let inner = scope.clone();
            let clause = match self.r.below(4) {
                0 => format!(
                    "except ({}, {}) as {e}:",
                    self.pick(EXCEPTIONS),
                    self.pick(EXCEPTIONS)
                ),
                1 => format!("except {}:", self.pick(EXCEPTIONS)),
                _ if i + 1 == handlers => format!("except Exception as {e}:"),
                _ => format!("except {} as {e}:", self.pick(EXCEPTIONS)),
            };
            let bound = clause.contains(" as ");
            self.line(indent, &clause);
            if bound {
                let how = self.pick(&["repr", "str"]);
                self.line(indent + 1, &format!("print('caught', {how}({e}))"));
            }
            if self.r.chance(1, 4) {
                self.line(indent + 1, "raise");
                continue;
            }
            self.block(&inner, indent + 1, d, 2);
        }
        if handlers > 0 && self.r.chance(1, 3) {
            self.line(indent, "else:");
            self.block(scope, indent + 1, d, 2);
        }
        if finally {
            self.line(indent, "finally:");
            self.block(scope, indent + 1, d, 2);
        }
    }

    /// A module-level function definition; returns its signature.
    fn function(&mut self, module: &Scope) -> FnSig {
        let name = self.fresh("f");
        let shape = self.r.below(6);
        let sig = FnSig {
            name: name.clone(),
            b: matches!(shape, 1 | 5),
            args: matches!(shape, 2 | 5),
            c: matches!(shape, 3 | 5),
            kw: matches!(shape, 4 | 5),
        };
        let mut params = vec!["a".to_owned()];
        let mut scope = Scope {
            vars: module.vars.clone(),
            writable: Vec::new(),
            lambdas: Vec::new(),
            in_loop: false,
            in_fn: true,
            fns: module.fns.clone(),
        };
        scope.vars.push(("a".into(), Ty::Int));
        if sig.b {
            let default = self.small_int();
            params.push(format!("b={default}"));
            scope.vars.push(("b".into(), Ty::Int));
        }
        if sig.args {
            params.push("*args".into());
            scope.vars.push(("args".into(), Ty::Tuple));
        } else if sig.c {
            params.push("*".into());
        }
        if sig.c {
            let default = self.str_lit();
            params.push(format!("c={default}"));
            scope.vars.push(("c".into(), Ty::Str));
        }
        if sig.kw {
            params.push("**kw".into());
            scope.vars.push(("kw".into(), Ty::Dict));
        }
        self.line(0, &format!("def {name}({}):", params.join(", ")));
        // Locals, assigned first.
        let mut locals = Vec::new();
        for ty in [Ty::Int, Ty::Int, Ty::Str, Ty::ListInt, Ty::Dict] {
            let l = self.fresh("v");
            let e = self.expr(&scope, ty, 2);
            self.line(1, &format!("{l} = {e}"));
            locals.push((l, ty));
        }
        for (l, ty) in &locals {
            scope.vars.push((l.clone(), *ty));
            scope.writable.push(l.clone());
        }
        // A closure over an int local, with nonlocal.
        if self.r.chance(1, 2) {
            let inner_name = self.fresh("g");
            let target = locals[0].0.clone();
            self.line(1, &format!("def {inner_name}(x, y=1):"));
            self.line(2, &format!("nonlocal {target}"));
            let mut inner = scope.clone();
            inner.vars.push(("x".into(), Ty::Int));
            inner.vars.push(("y".into(), Ty::Int));
            // Only the nonlocal name is assignable in the closure.
            inner.writable = vec![target.clone()];
            let b = 1 + self.r.below(3);
            for _ in 0..b {
                self.stmt(&inner, 2, 1);
            }
            let e = self.expr(&inner, Ty::Int, 2);
            self.line(2, &format!("{target} = {target} + x * y"));
            self.line(2, &format!("return {e}"));
            scope.lambdas.push(inner_name);
        }
        self.block(&scope, 1, 2, 5);
        let ret = self.expr(&scope, Ty::Int, 2);
        self.line(1, &format!("return {ret}"));
        sig
    }

    /// The whole plan.
    pub fn plan(mut self) -> String {
        let pool: [(&str, Ty, &str); 11] = [
            ("n0", Ty::Int, "3"),
            ("n1", Ty::Int, "-7"),
            ("r0", Ty::Float, "1.5"),
            ("s0", Ty::Str, "'ab c'"),
            ("s1", Ty::Str, "'x,y'"),
            ("b0", Ty::Bool, "True"),
            ("li0", Ty::ListInt, "[3, 1, 2]"),
            ("ls0", Ty::ListStr, "['b', 'a']"),
            ("t0", Ty::Tuple, "(1, 2)"),
            ("d0", Ty::Dict, "{'a': 1, 'b': 2}"),
            ("st0", Ty::Set, "{1, 2}"),
        ];
        let mut module = Scope {
            vars: Vec::new(),
            writable: Vec::new(),
            lambdas: Vec::new(),
            in_loop: false,
            in_fn: false,
            fns: Vec::new(),
        };
        for (name, ty, init) in pool {
            self.line(0, &format!("{name} = {init}"));
            module.vars.push((name.to_owned(), ty));
            module.writable.push(name.to_owned());
        }
        let items = 1 + self.r.below(12);
        for _ in 0..items {
            if self.full() {
                break;
            }
            if self.r.chance(1, 4) && module.fns.len() < 5 {
                let sig = self.function(&module);
                module.fns.push(sig);
            } else if !self.r.chance(1, 4) {
                self.line(0, "try:");
                self.block(&module, 1, 3, 3);
                let e = self.fresh("e");
                self.line(0, &format!("except Exception as {e}:"));
                self.line(1, &format!("print('error', repr({e}))"));
            } else {
                self.stmt(&module, 0, 3);
            }
        }
        // Print the final state, so runs have output to compare.
        self.line(
            0,
            "print(n0, n1, r0, s0, s1, b0, li0, ls0, t0, d0, sorted(st0))",
        );
        self.out
    }
}

/// The plan the bytes describe.
pub fn generate(data: &[u8]) -> String {
    Gen::new(data).plan()
}
