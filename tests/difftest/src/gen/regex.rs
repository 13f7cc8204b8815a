//! The `re` area: random patterns over a small alphabet (every construct the module supports:
//! classes, escapes, anchors, groups of each kind, backreferences, lookarounds, conditionals,
//! greedy, lazy and possessive quantifiers, inline flags), now and then a broken one, each
//! run through one of the module's functions on short subjects, so that the match, its groups
//! and spans, or the error's message and position are compared with CPython's.

use super::areas::python_literal;
use crate::rng::Rng;

/// The plan's preamble: `show` turns a match into everything it says; `call` prints what a
/// call returns or raises.
pub const RE_PRELUDE: &str = "\
import re


def show(m):
    if not isinstance(m, re.Match):
        return m
    spans = [m.span(i) for i in range(len(m.groups()) + 1)]
    return (m.group(), m.groups(), m.groupdict(), spans, m.lastindex, m.lastgroup)


def call(f):
    try:
        r = f()
        if isinstance(r, list):
            r = [show(x) for x in r]
        print(repr(show(r)))
    except (re.error, ValueError, TypeError, IndexError, OverflowError) as e:
        print(repr(e))


";

/// Characters of subjects and literals: few, so that patterns match often.
const SUBJECT: &[&str] = &[
    "a", "a", "b", "b", "c", "A", "B", "1", "2", " ", "-", "_", "\n", "é", ".",
];

/// A random subject of up to `max` characters.
fn subject(rng: &mut Rng, max: usize) -> String {
    let n = rng.below(max + 1);
    (0..n).map(|_| *rng.pick(SUBJECT)).collect()
}

/// Generation state: the groups opened so far (numbers and names) for references.
struct Patterns {
    groups: usize,
    closed: Vec<usize>,
    names: Vec<(String, usize)>,
}

impl Patterns {
    fn pattern(&mut self, rng: &mut Rng, depth: u32) -> String {
        let branches = if rng.chance(20) { 2 + rng.below(2) } else { 1 };
        let mut out = Vec::new();
        for _ in 0..branches {
            out.push(self.sequence(rng, depth));
        }
        out.join("|")
    }

    fn sequence(&mut self, rng: &mut Rng, depth: u32) -> String {
        let n = 1 + rng.below(4);
        let mut out = String::new();
        for _ in 0..n {
            let atom = self.atom(rng, depth);
            out.push_str(&atom);
            if rng.chance(30)
                && !atom.starts_with('^')
                && !atom.starts_with('$')
                && !atom.starts_with("\\b")
            {
                let q = quantifier(rng);
                // CPython 3.11's sre misbehaves on a possessive repeat of a group (results that
                // change between runs, unbounded memory): possessive repeats of single items only.
                if atom.starts_with('(') && q.len() == 2 && q.ends_with('+') {
                    out.push_str(&q[..1]);
                } else {
                    out.push_str(q);
                }
            }
        }
        out
    }

    fn atom(&mut self, rng: &mut Rng, depth: u32) -> String {
        let nested = depth < 3;
        match rng.below(24) {
            0..=5 => literal(rng),
            6 => ".".to_string(),
            7 | 8 => class(rng),
            9 => rng
                .pick(&["\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\b", "\\B"])
                .to_string(),
            10 => rng.pick(&["^", "$", "\\A", "\\Z"]).to_string(),
            11 | 12 if nested => {
                self.groups += 1;
                let number = self.groups;
                let inner = self.pattern(rng, depth + 1);
                self.closed.push(number);
                format!("({inner})")
            }
            13 if nested => {
                self.groups += 1;
                let number = self.groups;
                let name = format!("g{number}");
                let inner = self.pattern(rng, depth + 1);
                self.closed.push(number);
                self.names.push((name.clone(), number));
                format!("(?P<{name}>{inner})")
            }
            14 if nested => format!("(?:{})", self.pattern(rng, depth + 1)),
            15 if !self.closed.is_empty() => {
                let group = *rng.pick(&self.closed);
                if rng.chance(50) {
                    if let Some((name, _)) = self.names.iter().find(|(_, g)| *g == group) {
                        return format!("(?P={name})");
                    }
                }
                format!("\\{group}")
            }
            16 if nested => {
                let kind = rng.pick(&["?=", "?!"]);
                format!("({kind}{})", self.pattern(rng, depth + 1))
            }
            17 => {
                // Lookbehind: fixed width.
                let kind = rng.pick(&["?<=", "?<!"]);
                let n = 1 + rng.below(2);
                let inner: String = (0..n).map(|_| literal(rng)).collect();
                format!("({kind}{inner})")
            }
            18 if nested && !self.closed.is_empty() => {
                let group = *rng.pick(&self.closed);
                let yes = self.sequence(rng, depth + 1);
                if rng.chance(50) {
                    let no = self.sequence(rng, depth + 1);
                    format!("(?({group}){yes}|{no})")
                } else {
                    format!("(?({group}){yes})")
                }
            }
            19 if nested => format!("(?>{})", self.pattern(rng, depth + 1)),
            20 if nested => {
                let flag = rng.pick(&["i", "s", "m", "-i", "i-s", "x"]);
                format!("(?{flag}:{})", self.pattern(rng, depth + 1))
            }
            21 => broken(rng).to_string(),
            _ => literal(rng),
        }
    }
}

fn literal(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => rng
            .pick(&[
                "\\.", "\\-", "\\n", "\\t", "\\x41", "\\u00e9", "\\\\", "\\(", "\\*", "\\0",
            ])
            .to_string(),
        1 => " ".to_string(),
        _ => rng
            .pick(&["a", "a", "b", "b", "c", "A", "B", "1", "_", "é"])
            .to_string(),
    }
}

fn class(rng: &mut Rng) -> String {
    let mut out = String::from("[");
    if rng.chance(30) {
        out.push('^');
    }
    let n = 1 + rng.below(3);
    for _ in 0..n {
        out.push_str(rng.pick::<&str>(&[
            "a",
            "b",
            "a-c",
            "A-Z",
            "0-9",
            "\\d",
            "\\w",
            "\\s",
            "\\W",
            "_",
            "-",
            ".",
            "é",
            "\\n",
            "\\]",
            "a-a",
            "\\x41-\\x43",
        ]));
    }
    out.push(']');
    out
}

fn quantifier(rng: &mut Rng) -> &'static str {
    rng.pick::<&str>(&[
        "*", "+", "?", "*?", "+?", "??", "{2}", "{1,2}", "{0,}", "{,2}", "{2,1}", "*+", "++", "?+",
        "{1,3}?", "{", "{a}", "**",
    ])
}

/// A piece that makes a pattern invalid now and then (CPython's error and position compared).
fn broken(rng: &mut Rng) -> &'static str {
    rng.pick::<&str>(&[
        "(",
        ")",
        "[",
        "*",
        "\\",
        "(?P<1>a)",
        "(?P<n>a)(?P<n>b)",
        "(?<=a*)",
        "\\q",
        "[b-a]",
        "(?z)",
        "(?#comment)",
        "\\9",
        "(?i)",
        "{1,2}",
        "[\\d-z]",
        "(?P=zz)",
        "\\x4",
        "(?",
    ])
}

const FLAGS: &[&str] = &[
    "0",
    "0",
    "0",
    "re.I",
    "re.M",
    "re.S",
    "re.X",
    "re.I | re.M",
    "re.A",
    "re.I | re.S",
];

/// One line of the plan: a call of the module on a random pattern.
pub fn re_call(rng: &mut Rng) -> String {
    let mut patterns = Patterns {
        groups: 0,
        closed: Vec::new(),
        names: Vec::new(),
    };
    let pattern = python_literal(&patterns.pattern(rng, 0));
    let flags = rng.pick(FLAGS);
    let s = python_literal(&subject(rng, 12));
    let call = match rng.below(12) {
        0 | 1 => format!("re.search({pattern}, {s}, {flags})"),
        2 => format!("re.match({pattern}, {s}, {flags})"),
        3 => format!("re.fullmatch({pattern}, {s}, {flags})"),
        4 => format!("re.findall({pattern}, {s}, {flags})"),
        5 => format!("list(re.finditer({pattern}, {s}, {flags}))"),
        6 => format!("re.split({pattern}, {s}, {}, {flags})", rng.below(3)),
        7 => {
            let repl = rng.pick(&[
                "'<\\\\g<0>>'",
                "'-'",
                "''",
                "'[\\\\1]'",
                "'\\\\n'",
                "lambda m: m.group().upper()",
                "'<\\\\g<g1>>'",
            ]);
            format!("re.sub({pattern}, {repl}, {s}, {}, {flags})", rng.below(3))
        }
        8 => {
            let repl = rng.pick(&["'#'", "'(\\\\g<0>)'"]);
            format!("re.subn({pattern}, {repl}, {s}, 0, {flags})")
        }
        9 => {
            let a = rng.below(4);
            let b = rng.below(14);
            let f = rng.pick(&["match", "search", "fullmatch", "findall"]);
            format!("re.compile({pattern}, {flags}).{f}({s}, {a}, {b})")
        }
        10 => format!("re.compile({pattern}, {flags})"),
        _ => format!("[m.expand('<\\\\g<0>>') for m in re.finditer({pattern}, {s}, {flags})]"),
    };
    format!("call(lambda: {call})")
}
