//! The reducer: shrinks a plan while a predicate ("still a mismatch of the same kind") holds.
//!
//! Plans are indented Python, so the passes work on *units* — a line with every deeper-indented
//! line after it, and for a compound statement its `elif`/`else`/`except`/`finally` clauses —
//! rather than on an AST:
//! 1. delta debugging over the top-level units (remove halves, quarters, ... one at a time);
//! 2. every unit, top to bottom: remove it, or else replace it with `pass`;
//! 3. unwrap compound statements (replace `if c:`/`try:`/`for ...:` and their clauses with the
//!    first body, dedented);
//! 4. simplify expressions: replace a call or parenthesised group by one of its operands or
//!    arguments, drop one argument of a call.
//!
//! Passes repeat until none makes progress or the budget runs out. A candidate is tested only
//! if Baton's checker accepts it ([`baton_compiler::check_source`]), so every reproducer stays a
//! well-formed plan.

use std::time::{Duration, Instant};

/// How much work one reduction may do.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Most candidate runs (each compiles a module and runs CPython).
    pub max_tests: usize,
    /// Most wall time.
    pub max_time: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_tests: 600,
            max_time: Duration::from_secs(180),
        }
    }
}

/// The result of a reduction.
#[derive(Debug, Clone)]
pub struct Reduced {
    pub source: String,
    /// Candidates run through the predicate.
    pub tests: usize,
    /// The budget ran out before a fixpoint.
    pub exhausted: bool,
}

struct Reducer<'a> {
    lines: Vec<String>,
    interesting: &'a mut dyn FnMut(&str) -> bool,
    budget: Budget,
    started: Instant,
    tests: usize,
}

/// Shrinks `source` while `interesting` holds, within `budget`. `interesting(source)` is
/// assumed true.
pub fn reduce(source: &str, budget: Budget, interesting: &mut dyn FnMut(&str) -> bool) -> Reduced {
    let mut reducer = Reducer {
        lines: source.lines().map(str::to_string).collect(),
        interesting,
        budget,
        started: Instant::now(),
        tests: 0,
    };
    loop {
        let before = reducer.lines.clone();
        reducer.top_level_chunks();
        reducer.units();
        reducer.unwrap_blocks();
        reducer.expressions();
        if reducer.lines == before || reducer.exhausted() {
            break;
        }
    }
    Reduced {
        source: join(&reducer.lines),
        tests: reducer.tests,
        exhausted: reducer.exhausted(),
    }
}

fn join(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_clause(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("elif ")
        || t.starts_with("else:")
        || t.starts_with("except")
        || t.starts_with("finally:")
}

/// The end (exclusive) of the unit starting at `i`: the line, its deeper-indented body and,
/// when `clauses`, the clauses that continue its compound statement.
fn unit_end(lines: &[String], i: usize, clauses: bool) -> usize {
    let level = indent(&lines[i]);
    let mut j = i + 1;
    while j < lines.len() && (lines[j].trim().is_empty() || indent(&lines[j]) > level) {
        j += 1;
    }
    if clauses && !is_clause(&lines[i]) {
        while j < lines.len() && indent(&lines[j]) == level && is_clause(&lines[j]) {
            j = unit_end(lines, j, false);
        }
    }
    j
}

impl Reducer<'_> {
    fn exhausted(&self) -> bool {
        self.tests >= self.budget.max_tests || self.started.elapsed() >= self.budget.max_time
    }

    /// Tests `candidate`; adopts it when it is well-formed and still interesting.
    fn attempt(&mut self, candidate: Vec<String>) -> bool {
        if self.exhausted() || candidate == self.lines {
            return false;
        }
        let text = join(&candidate);
        if !baton_compiler::check_source("reduce.py", &text).is_accepted() {
            return false;
        }
        self.tests += 1;
        if (self.interesting)(&text) {
            self.lines = candidate;
            true
        } else {
            false
        }
    }

    fn top_level_units(&self) -> Vec<(usize, usize)> {
        let mut units = Vec::new();
        let mut i = 0;
        while i < self.lines.len() {
            let end = unit_end(&self.lines, i, true);
            units.push((i, end));
            i = end;
        }
        units
    }

    fn top_level_chunks(&mut self) {
        let mut size = self.top_level_units().len() / 2;
        while size >= 1 && !self.exhausted() {
            let mut start = 0;
            loop {
                let units = self.top_level_units();
                if start >= units.len() {
                    break;
                }
                let last = (start + size).min(units.len()) - 1;
                let (from, to) = (units[start].0, units[last].1);
                let mut candidate = self.lines.clone();
                candidate.drain(from..to);
                if !self.attempt(candidate) {
                    start += size;
                }
            }
            size /= 2;
        }
    }

    fn units(&mut self) {
        let mut i = 0;
        while i < self.lines.len() && !self.exhausted() {
            let end = unit_end(&self.lines, i, true);
            let mut candidate = self.lines.clone();
            candidate.drain(i..end);
            if self.attempt(candidate) {
                continue;
            }
            if self.lines[i].trim() != "pass" && !is_clause(&self.lines[i]) {
                let mut candidate = self.lines.clone();
                let pass = format!("{}pass", " ".repeat(indent(&self.lines[i])));
                candidate.splice(i..end, [pass]);
                self.attempt(candidate);
            }
            i += 1;
        }
    }

    fn unwrap_blocks(&mut self) {
        let mut i = 0;
        while i < self.lines.len() && !self.exhausted() {
            let line = self.lines[i].trim_start();
            let compound = line.ends_with(':') && !line.starts_with("def ") && !is_clause(line);
            if compound {
                let body_end = unit_end(&self.lines, i, false);
                let end = unit_end(&self.lines, i, true);
                let body: Vec<String> = self.lines[i + 1..body_end]
                    .iter()
                    .map(|l| l.strip_prefix("    ").unwrap_or(l).to_string())
                    .collect();
                let mut candidate = self.lines.clone();
                candidate.splice(i..end, body);
                if self.attempt(candidate) {
                    continue;
                }
            }
            i += 1;
        }
    }

    fn expressions(&mut self) {
        for i in 0..self.lines.len() {
            let mut tries = 0;
            'line: while tries < 40 && !self.exhausted() {
                let line = self.lines[i].clone();
                for replacement in simplifications(&line) {
                    tries += 1;
                    let mut candidate = self.lines.clone();
                    candidate[i] = replacement;
                    if self.attempt(candidate) {
                        continue 'line;
                    }
                    if tries >= 40 || self.exhausted() {
                        break;
                    }
                }
                break;
            }
        }
    }
}

/// Byte ranges of string literals in a line (quotes included), so that brackets inside
/// strings are not taken for structure.
fn in_string_mask(line: &str) -> Vec<bool> {
    let bytes = line.as_bytes();
    let mut mask = vec![false; bytes.len()];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\'' || c == b'"' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            let end = (i + 1).min(bytes.len());
            mask[start..end].iter_mut().for_each(|m| *m = true);
            i = end;
        } else {
            i += 1;
        }
    }
    mask
}

/// Splits `text` at top-level occurrences of `seps` (outside brackets and strings).
fn split_top(text: &str, seps: &[&str]) -> Vec<String> {
    let mask = in_string_mask(text);
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !mask[i] {
            match bytes[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                if let Some(sep) = seps.iter().find(|s| text[i..].starts_with(*s)) {
                    parts.push(text[last..i].trim().to_string());
                    i += sep.len();
                    last = i;
                    continue;
                }
            }
        }
        i += 1;
    }
    parts.push(text[last..].trim().to_string());
    parts
}

const OPERATORS: &[&str] = &[
    " if ", " else ", " or ", " and ", " + ", " - ", " * ", " // ", " / ", " % ", " ** ", " & ",
    " | ", " ^ ", " << ", " >> ", " < ", " <= ", " > ", " >= ", " == ", " != ", " in ", " not in ",
];

/// Candidate rewrites of one line, each replacing one call or parenthesised group.
fn simplifications(line: &str) -> Vec<String> {
    let mask = in_string_mask(line);
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut stack = Vec::new();
    let mut groups = Vec::new();
    for (i, &c) in bytes.iter().enumerate() {
        if mask[i] {
            continue;
        }
        match c {
            b'(' => stack.push(i),
            b')' => {
                if let Some(open) = stack.pop() {
                    groups.push((open, i));
                }
            }
            _ => {}
        }
    }
    for (open, close) in groups {
        let inner = &line[open + 1..close];
        let mut start = open;
        while start > 0 {
            let c = bytes[start - 1];
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                start -= 1;
            } else {
                break;
            }
        }
        let is_call = start < open;
        let args = split_top(inner, &[", "]);
        let parts = if args.len() > 1 || is_call {
            args.clone()
        } else {
            split_top(inner, OPERATORS)
        };
        let keyword = |p: &str| {
            p.split_once('=')
                .filter(|(name, _)| {
                    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                })
                .map_or(p.to_string(), |(_, value)| value.to_string())
        };
        let statement_call =
            line.trim_start().starts_with(&line[start..open]) && start == indent(line);
        // A call that is the whole statement (print(...)) keeps its name; otherwise the group
        // may become one of its parts.
        if !statement_call && (parts.len() > 1 || is_call) {
            for part in &parts {
                let part = keyword(part);
                if part.is_empty() || part.starts_with('*') {
                    continue;
                }
                out.push(format!(
                    "{}({}){}",
                    &line[..start],
                    part,
                    &line[close + 1..]
                ));
            }
        }
        if is_call && args.len() > 1 {
            for skip in 0..args.len() {
                let kept: Vec<&str> = args
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| *k != skip)
                    .map(|(_, a)| a.as_str())
                    .collect();
                out.push(format!(
                    "{}({}){}",
                    &line[..open],
                    kept.join(", "),
                    &line[close + 1..]
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_include_bodies_and_clauses() {
        let lines: Vec<String> = "try:\n    a = 1\nexcept Exception:\n    pass\nprint(a)"
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(unit_end(&lines, 0, true), 4);
        assert_eq!(unit_end(&lines, 0, false), 2);
        assert_eq!(unit_end(&lines, 4, true), 5);
    }

    #[test]
    fn splitting_respects_brackets_and_strings() {
        assert_eq!(
            split_top("a, (b, c), 'x, y'", &[", "]),
            ["a", "(b, c)", "'x, y'"]
        );
        assert_eq!(split_top("a + f(b + c)", OPERATORS), ["a", "f(b + c)"]);
    }

    #[test]
    fn simplifications_replace_groups() {
        let c = simplifications("print('x', (a + b))");
        assert!(c.contains(&"print('x', (a))".to_string()), "{c:?}");
        assert!(c.contains(&"print((a + b))".to_string()), "{c:?}");
        assert!(!c.iter().any(|l| l.starts_with("('x')")), "{c:?}");
    }

    #[test]
    fn reduces_to_the_interesting_line() {
        let source = "import json\nx = 1\ntry:\n    y = 2\n    print(y, x)\n    print('bad', (x + 3))\nexcept Exception as e:\n    print(e)\nprint('end')\n";
        let mut interesting = |s: &str| s.contains("'bad'");
        let reduced = reduce(source, Budget::default(), &mut interesting);
        assert!(reduced.source.contains("'bad'"), "{}", reduced.source);
        assert!(reduced.source.lines().count() <= 2, "{}", reduced.source);
        assert!(baton_compiler::check_source("r.py", &reduced.source).is_accepted());
    }

    #[test]
    fn budget_stops_reduction() {
        let source = "a = 1\nb = 2\nprint(a, b)\n";
        let mut calls = 0;
        let mut interesting = |_: &str| {
            calls += 1;
            true
        };
        let budget = Budget {
            max_tests: 1,
            max_time: Duration::from_secs(60),
        };
        let reduced = reduce(source, budget, &mut interesting);
        assert_eq!(reduced.tests, 1);
        assert!(reduced.exhausted);
    }
}
