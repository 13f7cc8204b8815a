//! Targeted areas: plans that call one module's functions many times with arguments drawn to
//! reach its edges, each call's result or exception printed, so that a difference from CPython
//! names the call (`baton-difftest --area math`). Arities are right (a wrong count's message is
//! a documented difference of the plan-language functions); values are of every kind the
//! functions take and, now and then, of a kind they refuse.

use super::regex::{re_call, RE_PRELUDE};
use crate::rng::Rng;

/// A module with a targeted area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    Math,
    Shlex,
    Textwrap,
    /// Random patterns through every function of `re` (see `regex.rs`).
    Re,
    /// Values of every type in every position where the runtime expects a particular type
    /// (builtins' arguments and keywords, methods, except clauses, raise, operators,
    /// subscripts, unpacking, format specs): no trap, and CPython's exception class.
    Types,
}

impl Area {
    /// Every area, with its name (`--area NAME`).
    pub const ALL: [(Area, &'static str); 5] = [
        (Area::Math, "math"),
        (Area::Shlex, "shlex"),
        (Area::Textwrap, "textwrap"),
        (Area::Re, "re"),
        (Area::Types, "types"),
    ];

    pub fn named(name: &str) -> Option<Area> {
        match name {
            "math" => Some(Area::Math),
            "shlex" => Some(Area::Shlex),
            "textwrap" => Some(Area::Textwrap),
            "re" => Some(Area::Re),
            "types" => Some(Area::Types),
            _ => None,
        }
    }
}

/// The plan's preamble: `call` prints what a call returns or raises.
const PRELUDE: &str = "\
def call(f, *args, **kwargs):
    try:
        print(repr(f(*args, **kwargs)))
    except (ValueError, TypeError, OverflowError, ZeroDivisionError, AttributeError) as e:
        print(repr(e))


";

/// Plan `index` of `area` seeded with `seed`: `calls` calls of the module's functions.
pub fn generate_area(area: Area, seed: u64, index: u64, calls: usize) -> String {
    let mut rng = Rng::for_plan(seed ^ 0xA4EA, index);
    let mut out = String::from(match area {
        Area::Math => "import math\n",
        Area::Shlex => "import shlex\n",
        Area::Textwrap => "import textwrap\n",
        Area::Types | Area::Re => "",
    });
    out.push_str(match area {
        Area::Types => TYPES_PRELUDE,
        Area::Re => RE_PRELUDE,
        _ => PRELUDE,
    });
    for _ in 0..calls {
        let line = match area {
            Area::Math => math_call(&mut rng),
            Area::Shlex => shlex_call(&mut rng),
            Area::Textwrap => textwrap_call(&mut rng),
            Area::Types => types_call(&mut rng),
            Area::Re => re_call(&mut rng),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

// ----- math ---------------------------------------------------------------------------------

const MATH_ONE: &[&str] = &[
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "cbrt", "erf", "erfc", "sqrt",
    "fabs", "isfinite", "isinf", "isnan", "degrees", "radians",
];
/// Functions that return ints: their arguments stay below 2**63 (a larger result is the
/// documented 64-bit int deviation, which would taint the whole plan).
const MATH_TO_INT: &[&str] = &["floor", "ceil", "trunc"];
const MATH_TWO: &[&str] = &["atan2", "copysign", "pow", "fmod", "log", "isclose"];
const MATH_INT: &[&str] = &["factorial", "isqrt"];
const MATH_INT_TWO: &[&str] = &["comb", "perm", "gcd", "lcm"];

fn float(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => rng
            .pick(&[
                "math.inf",
                "-math.inf",
                "math.nan",
                "-0.0",
                "0.0",
                "5e-324",
                "1.7976931348623157e+308",
                "2.2250738585072014e-308",
            ])
            .to_string(),
        1 => format!("{:?}", rng.range(-20, 20) as f64 * 0.5),
        2 => format!("{:?}", rng.range(-1000, 1000) as f64),
        3 => format!("{:?}", (rng.range(-1_000_000, 1_000_000) as f64) / 1e6),
        4 => format!("1e{}", rng.range(-320, 310)),
        5 => format!("-1e{}", rng.range(-320, 310)),
        6 => rng
            .pick(&[
                "0.5",
                "1.0",
                "-1.0",
                "2.0",
                "0.1",
                "0.9999999999999999",
                "1.0000000000000002",
                "710.0",
                "-745.0",
                "1024.0",
                "3.141592653589793",
                "1.5707963267948966",
            ])
            .to_string(),
        _ => {
            // Any finite double (its repr, which Python reads back exactly).
            let bits = rng.next_u64();
            let value = f64::from_bits(bits);
            if value.is_finite() {
                format!("{value:?}")
            } else {
                "1.5".to_string()
            }
        }
    }
}

fn int(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => rng.range(-3, 3).to_string(),
        1 => rng.range(-100, 100).to_string(),
        2 => rng.range(-1_000_000_000, 1_000_000_000).to_string(),
        3 => rng
            .pick(&[
                "True",
                "False",
                "2**53",
                "2**53 + 1",
                "2**62",
                "-(2**62)",
                "10**18",
            ])
            .to_string(),
        _ => rng.range(0, 30).to_string(),
    }
}

fn number(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => rng
            .pick(&["'1'", "None", "[1.0]", "(2,)", "{}"])
            .to_string(),
        1..=3 => int(rng),
        _ => float(rng),
    }
}

fn math_call(rng: &mut Rng) -> String {
    match rng.below(11) {
        0..=4 => format!("call(math.{}, {})", rng.pick(MATH_ONE), number(rng)),
        10 => {
            let arg = match rng.below(6) {
                0 => rng
                    .pick(&[
                        "math.inf",
                        "-math.inf",
                        "math.nan",
                        "-0.0",
                        "'1'",
                        "None",
                        "True",
                        "9.2e18",
                        "-9.2e18",
                        "1e-300",
                    ])
                    .to_string(),
                1 => rng.range(-1_000_000_000, 1_000_000_000).to_string(),
                _ => format!(
                    "{:?}",
                    (rng.range(-1_000_000_000, 1_000_000_000) as f64) / 1e3
                ),
            };
            format!("call(math.{}, {arg})", rng.pick(MATH_TO_INT))
        }
        5 | 6 => {
            let f = rng.pick(MATH_TWO);
            if *f == "isclose" {
                let tol = match rng.below(3) {
                    0 => String::new(),
                    1 => format!(", rel_tol={}", rng.pick(&["0.1", "1e-15", "0.0", "-1.0"])),
                    _ => format!(", abs_tol={}", rng.pick(&["0.5", "1e-300", "0.0"])),
                };
                format!("call(math.isclose, {}, {}{tol})", number(rng), number(rng))
            } else {
                format!("call(math.{f}, {}, {})", number(rng), number(rng))
            }
        }
        7 => {
            let f = rng.pick(MATH_INT);
            // factorial's argument stays within 20 (21! is past 64 bits: the documented int
            // deviation, which would taint the whole plan; 10**18! never ends).
            let arg = match rng.below(8) {
                0 => rng.pick(&["2.0", "'3'", "-1", "None", "True"]).to_string(),
                1 if *f == "isqrt" => int(rng),
                _ => rng.range(0, 20).to_string(),
            };
            format!("call(math.{f}, {arg})")
        }
        8 => {
            let f = rng.pick(MATH_INT_TWO);
            // perm and comb within 20 and 50: their results fit in 64 bits.
            let limit = if *f == "perm" { 20 } else { 50 };
            let small = |rng: &mut Rng| match rng.below(8) {
                0 => rng.pick(&["-1", "2.5", "True", "0"]).to_string(),
                _ => rng.range(0, limit).to_string(),
            };
            format!("call(math.{f}, {}, {})", small(rng), small(rng))
        }
        _ => {
            let n = rng.below(5);
            let items: Vec<String> = (0..n).map(|_| float(rng)).collect();
            let f = rng.pick(&["hypot", "fsum", "prod", "dist", "gcd"]);
            match *f {
                "hypot" => format!("call(math.hypot, {})", items.join(", ")),
                "fsum" => format!("call(math.fsum, [{}])", items.join(", ")),
                "prod" => format!("call(math.prod, [{}])", items.join(", ")),
                "dist" => {
                    let other: Vec<String> = (0..n).map(|_| float(rng)).collect();
                    format!(
                        "call(math.dist, [{}], [{}])",
                        items.join(", "),
                        other.join(", ")
                    )
                }
                _ => {
                    let ints: Vec<String> =
                        (0..n).map(|_| rng.range(-1000, 1000).to_string()).collect();
                    format!("call(math.gcd, {})", ints.join(", "))
                }
            }
        }
    }
}

// ----- shlex and textwrap -------------------------------------------------------------------

/// A Python string literal of `pieces` drawn from `alphabet`.
fn text(rng: &mut Rng, alphabet: &[&str], max: usize) -> String {
    let n = rng.below(max + 1);
    let joined: String = (0..n).map(|_| *rng.pick(alphabet)).collect();
    python_literal(&joined)
}

/// `s` as a Python str literal (single-quoted, control characters escaped).
pub fn python_literal(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x0b' => out.push_str("\\x0b"),
            '\x0c' => out.push_str("\\x0c"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

const SHELL: &[&str] = &[
    "a", "b", "file.txt", " ", "  ", "'", "\"", "\\", "#", "\n", "\t", "$HOME", "`x`", "x y", "-n",
    "é", "*", ";", "|", "&&", "=",
];

fn shlex_call(rng: &mut Rng) -> String {
    let s = text(rng, SHELL, 10);
    match rng.below(6) {
        0 | 1 => format!("call(shlex.split, {s})"),
        2 => format!("call(shlex.split, {s}, comments=True)"),
        3 => format!("call(shlex.quote, {s})"),
        4 => format!(
            "call(lambda: shlex.split(shlex.join([{}, {}])))",
            text(rng, SHELL, 4),
            text(rng, SHELL, 4)
        ),
        _ => format!(
            "call(shlex.join, [{}, {}, {s}])",
            text(rng, SHELL, 4),
            text(rng, SHELL, 4)
        ),
    }
}

const PROSE: &[&str] = &[
    "a",
    "the",
    "word",
    " ",
    "  ",
    "\n",
    "\t",
    "-",
    "--",
    "well-known",
    "self-evident",
    ".",
    "!",
    "?",
    "'",
    "\"",
    "abcdefghijklmnop",
    "x-y-z",
    "1",
    "é",
    "_",
    "Mr.",
    "end. ",
    "\r",
    "\x0b",
];
const INDENTS: &[&str] = &["", " ", "  ", "\t", "    ", "\t ", " \t"];

fn textwrap_call(rng: &mut Rng) -> String {
    let t = text(rng, PROSE, 16);
    let width = rng.range(3, 30);
    let mut options = Vec::new();
    if rng.chance(20) {
        options.push("break_on_hyphens=False".to_string());
    }
    if rng.chance(15) {
        options.push("break_long_words=False".to_string());
    }
    if rng.chance(15) {
        options.push("drop_whitespace=False".to_string());
    }
    if rng.chance(15) {
        options.push("replace_whitespace=False".to_string());
    }
    if rng.chance(15) {
        options.push("fix_sentence_endings=True".to_string());
    }
    if rng.chance(15) {
        options.push("expand_tabs=False".to_string());
    }
    if rng.chance(10) {
        options.push(format!("tabsize={}", rng.range(0, 8)));
    }
    // Indents shorter than the width: CPython itself loops forever when they are not.
    if rng.chance(15) && width > 4 {
        options.push("initial_indent='> '".to_string());
    }
    if rng.chance(15) && width > 4 {
        options.push("subsequent_indent='  '".to_string());
    }
    let with_options = |options: &[String]| {
        if options.is_empty() {
            String::new()
        } else {
            format!(", {}", options.join(", "))
        }
    };
    match rng.below(8) {
        0 | 1 => format!(
            "call(textwrap.wrap, {t}, {width}{})",
            with_options(&options)
        ),
        2 => format!(
            "call(textwrap.fill, {t}, {width}{})",
            with_options(&options)
        ),
        3 => {
            options.push(format!("max_lines={}", rng.range(1, 4)));
            if rng.chance(50) {
                options.push("placeholder=' ...'".to_string());
            }
            format!(
                "call(textwrap.wrap, {t}, {width}{})",
                with_options(&options)
            )
        }
        4 => format!("call(textwrap.shorten, {t}, {})", rng.range(8, 40)),
        5 | 6 => {
            let lines: Vec<String> = (0..rng.range(0, 6))
                .map(|_| {
                    let indent = *rng.pick(INDENTS);
                    let body = *rng.pick(&["x", "def f():", "", "  ", "return 1", "# c"]);
                    format!("{indent}{body}")
                })
                .collect();
            format!(
                "call(textwrap.dedent, {})",
                python_literal(&lines.join("\n"))
            )
        }
        _ => {
            let prefix: &str = rng.pick::<&str>(&["> ", "  ", "#"]);
            format!(
                "call(textwrap.indent, {}, {})",
                text(rng, &["a", "\n", " ", "\r\n", "b c", "\t"], 8),
                python_literal(prefix)
            )
        }
    }
}

// ----- every type in every position -------------------------------------------------------

/// `call` runs a thunk and prints the class of what it raised (messages are not compared: the
/// invariant is no trap and CPython's exception), or a shape of what it returned that prints
/// alike under both (no addresses, no set order).
const TYPES_PRELUDE: &str = "\
def show(r):
    if isinstance(r, str) and ' at 0x' in r:
        return 'a repr with an address'
    if r is None or isinstance(r, (bool, int, float, str)):
        return repr(r)
    if isinstance(r, (list, tuple, dict, set, frozenset)):
        return 'container of ' + str(len(r))
    return 'object'


def call(n, f):
    try:
        r = f()
    except StopIteration:
        print(n, 'StopIteration')
        return
    except ZeroDivisionError:
        print(n, 'ZeroDivisionError')
        return
    except OverflowError:
        print(n, 'OverflowError')
        return
    except KeyError:
        print(n, 'KeyError')
        return
    except IndexError:
        print(n, 'IndexError')
        return
    except UnboundLocalError:
        print(n, 'UnboundLocalError')
        return
    except NameError:
        print(n, 'NameError')
        return
    except AttributeError:
        print(n, 'AttributeError')
        return
    except TypeError:
        print(n, 'TypeError')
        return
    except ValueError:
        print(n, 'ValueError')
        return
    except RecursionError:
        print(n, 'RecursionError')
        return
    except Exception:
        print(n, 'Exception')
        return
    print(n, 'ok', show(r))


";

/// Values of every kind the plan language has, as expressions.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "3",
    "10**6",
    "1.5",
    "-0.0",
    "float('nan')",
    "float('inf')",
    "True",
    "False",
    "None",
    "''",
    "'abc'",
    "'1'",
    "' a b '",
    "[]",
    "[1, 2]",
    "['b', 'a']",
    "[[1], [2]]",
    "()",
    "(1, 'a')",
    "{}",
    "{'a': 1}",
    "{1: 2}",
    "set()",
    "{1, 2}",
    "frozenset()",
    "frozenset({1, 2})",
    "range(3)",
    "range(0)",
    "len",
    "abs",
    "int",
    "str",
    "list",
    "dict",
    "lambda: 0",
    "lambda x: x",
    "lambda *a, **k: a",
    "ValueError",
    "ValueError('x')",
    "Exception",
    "KeyError",
    "slice(1, 2)",
    "iter([1, 2])",
    "{'a': 1}.keys()",
    "{'a': 1}.items()",
    "zip([1], [2])",
    "map(abs, [-1])",
    "enumerate('ab')",
    "reversed([1, 2])",
    "(x for x in [1, 2])",
    "filter(None, [0, 1])",
];

const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bin",
    "bool",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "frozenset",
    "hash",
    "hex",
    "int",
    "isinstance",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "oct",
    "ord",
    "pow",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "tuple",
    "zip",
];

const KEYWORDS: &[&str] = &[
    "key", "reverse", "default", "start", "base", "strict", "ndigits", "sep", "maxsplit", "x",
    "object", "encoding", "iterable", "mod", "exp",
];

/// Receivers and the methods called on them.
const METHODS: &[(&str, &[&str])] = &[
    (
        "'a,b'",
        &[
            "split",
            "rsplit",
            "join",
            "strip",
            "replace",
            "startswith",
            "endswith",
            "find",
            "index",
            "count",
            "format",
            "center",
            "ljust",
            "zfill",
            "partition",
            "splitlines",
            "expandtabs",
            "removeprefix",
            "casefold",
            "isdigit",
        ],
    ),
    (
        "[3, 1, 2]",
        &[
            "append", "extend", "insert", "pop", "remove", "index", "count", "sort", "copy",
            "clear", "reverse",
        ],
    ),
    (
        "{'a': 1, 'b': 2}",
        &[
            "get",
            "pop",
            "setdefault",
            "update",
            "keys",
            "items",
            "values",
            "copy",
            "popitem",
            "fromkeys",
        ],
    ),
    (
        "{1, 2, 3}",
        &[
            "add",
            "discard",
            "remove",
            "union",
            "intersection",
            "difference",
            "issubset",
            "isdisjoint",
            "update",
            "pop",
        ],
    ),
    (
        "frozenset({1, 2, 3})",
        &[
            "union",
            "intersection",
            "difference",
            "symmetric_difference",
            "issubset",
            "issuperset",
            "isdisjoint",
            "copy",
            "add",
            "update",
        ],
    ),
    ("(1, 2, 1)", &["index", "count"]),
    ("range(5)", &["index", "count"]),
];

const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", "==", "!=", ">",
    ">=", "in", "not in", "is", "@",
];

/// A value, parenthesised so that it fits any position (`[*(lambda: 0)]`).
fn value(rng: &mut Rng) -> String {
    format!("({})", rng.pick(VALUES))
}

fn types_call(rng: &mut Rng) -> String {
    let id = rng.next_u64() % 1_000_000;
    let line = match rng.below(12) {
        0..=2 => {
            let f = rng.pick(BUILTINS);
            let n = rng.below(4);
            let mut args: Vec<String> = (0..n).map(|_| value(rng)).collect();
            if rng.chance(25) {
                args.push(format!("{}={}", rng.pick(KEYWORDS), value(rng)));
            }
            if *f == "hash" {
                // CPython's hash of None and of objects is their address: only its kind compares.
                format!("call({id}, lambda: isinstance(hash({}), int))", args.join(", "))
            } else {
                format!("call({id}, lambda: {f}({}))", args.join(", "))
            }
        }
        3 | 4 => {
            let (receiver, methods) = *rng.pick(METHODS);
            let method = rng.pick(methods);
            let n = rng.below(3);
            let mut args: Vec<String> = (0..n).map(|_| value(rng)).collect();
            if rng.chance(15) {
                args.push(format!("{}={}", rng.pick(KEYWORDS), value(rng)));
            }
            format!("call({id}, lambda: {receiver}.{method}({}))", args.join(", "))
        }
        5 => format!(
            "call({id}, lambda: ({}) {} ({}))",
            value(rng),
            rng.pick(OPERATORS),
            value(rng)
        ),
        6 => format!("call({id}, lambda: ({})[{}])", value(rng), value(rng)),
        7 => {
            // except clauses, raise and raise-from with any value.
            let clause = value(rng);
            match rng.below(3) {
                0 => format!(
                    "def t{id}():\n    try:\n        raise ValueError('v')\n    except {clause}:\n        return 'caught'\ncall({id}, t{id})"
                ),
                1 => format!(
                    "def t{id}():\n    try:\n        return 1 // 0\n    except ({clause}, {}):\n        return 'caught'\ncall({id}, t{id})",
                    value(rng)
                ),
                _ => format!(
                    "def t{id}():\n    raise {} from {clause}\ncall({id}, t{id})",
                    rng.pick(&["ValueError", "ValueError('x')", "KeyError", "1", "None", "'s'", "len"])
                ),
            }
        }
        8 => format!("call({id}, lambda: isinstance({}, {}))", value(rng), value(rng)),
        9 => match rng.below(4) {
            0 => format!("call({id}, lambda: [*{}])", value(rng)),
            1 => format!("call({id}, lambda: {{**{}}})", value(rng)),
            2 => format!("call({id}, lambda: print(*{}, sep='') is None)", value(rng)),
            _ => format!("call({id}, lambda: dict(**{}))", value(rng)),
        },
        10 => format!(
            "call({id}, lambda v={}: f'{{v:{}}}')",
            value(rng),
            rng.pick(&["", "d", "s", ">5", ".2f", "x", "%", ",", "{0}", "\\x00", "#o", "+", "=^9"])
        ),
        _ => format!(
            "def t{id}():\n    out = []\n    for a in {}:\n        out.append(a)\n    return out\ncall({id}, t{id})",
            value(rng)
        ),
    };
    line
}
