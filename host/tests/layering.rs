//! No circle of imports in the host's crates (`host/src`, `host/workspace/src`): no source file
//! uses, directly or through others, a file that uses it. A circle is where layers stop being
//! layers — a change to either file is a change to both — so this test keeps them apart.
//!
//! How it reads a file: every `crate::a::b` path (in `use` lines, `use crate::{a, b::c}` groups
//! and inline paths) and every `super::x` path outside comments and outside the file's
//! `#[cfg(test)]` module, resolved to the longest module path that names a file. The crate root
//! (`lib.rs`) only declares modules and re-exports; a path through one of its `pub use`
//! re-exports counts as a use of the module that defines the name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's files by module path (`""` the root, `"branch"`, `"branch::choose"`), each with
/// the module paths it uses.
struct Graph {
    uses: BTreeMap<String, BTreeSet<String>>,
}

fn module_path(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file of the crate");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_owned());
    }
    parts.join("::")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file that counts: lines before its `#[cfg(test)]` module, without comments.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        code.push_str(line);
        code.push('\n');
    }
    code
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The path segments that follow `at` in `code` (`a::b::C`), and where they end.
fn segments(code: &str, mut at: usize) -> (Vec<String>, usize) {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    loop {
        let start = at;
        while at < bytes.len() && is_ident(bytes[at] as char) {
            at += 1;
        }
        if at == start {
            break;
        }
        out.push(code[start..at].to_owned());
        if code[at..].starts_with("::") && code[at + 2..].starts_with(|c: char| is_ident(c)) {
            at += 2;
        } else {
            break;
        }
    }
    (out, at)
}

/// Every path that follows `prefix` (`crate::` or `super::`), a `{...}` group expanded into
/// its members (nested groups too).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find(prefix) {
        let at = from + found;
        from = at + prefix.len();
        // `foo_crate::x` is not `crate::x`.
        if at > 0 && is_ident(code[..at].chars().next_back().unwrap_or(' ')) {
            continue;
        }
        group(code, from, Vec::new(), &mut out);
    }
    out
}

fn group(code: &str, at: usize, base: Vec<String>, out: &mut Vec<Vec<String>>) {
    let (mut segs, end) = segments(code, at);
    let mut path = base.clone();
    path.append(&mut segs);
    let rest = &code[end..];
    let open = if rest.starts_with("::{") {
        end + 3
    } else if rest.starts_with('{') && path.is_empty() {
        end + 1
    } else {
        out.push(path);
        return;
    };
    // The members of the group, split at its top-level commas.
    let mut depth = 0;
    let mut member = open;
    for (offset, c) in code[open..].char_indices() {
        let here = open + offset;
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                group(code, skip_space(code, member), path.clone(), out);
                return;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                group(code, skip_space(code, member), path.clone(), out);
                member = here + 1;
            }
            _ => {}
        }
    }
}

fn skip_space(code: &str, mut at: usize) -> usize {
    while code[at..].starts_with(char::is_whitespace) {
        at += 1;
    }
    at
}

impl Graph {
    fn of_crate(src: &Path) -> Graph {
        let mut files = Vec::new();
        rust_files(src, &mut files);
        let texts: BTreeMap<String, String> = files
            .iter()
            .map(|file| {
                let text = std::fs::read_to_string(file).expect("a readable source file");
                (module_path(src, file), code_of(&text))
            })
            .collect();
        Graph::of_sources(&texts)
    }

    fn of_sources(texts: &BTreeMap<String, String>) -> Graph {
        let modules: BTreeSet<&str> = texts.keys().map(String::as_str).collect();
        let resolve = |path: &[String]| -> Option<String> {
            (1..=path.len())
                .rev()
                .map(|n| path[..n].join("::"))
                .find(|candidate| modules.contains(candidate.as_str()))
        };
        // The root's re-exports: a name to the module that defines it.
        let mut reexports = BTreeMap::new();
        if let Some(root) = texts.get("") {
            for line in root
                .lines()
                .filter(|l| l.trim_start().starts_with("pub use "))
            {
                for path in paths_after(&format!("crate::{}", &line.trim_start()[8..]), "crate::") {
                    if let (Some(name), Some(module)) = (path.last(), resolve(&path)) {
                        reexports.insert(name.clone(), module);
                    }
                }
            }
        }
        let mut uses = BTreeMap::new();
        for (module, code) in texts {
            let mut targets = BTreeSet::new();
            for path in paths_after(code, "crate::") {
                let target = match resolve(&path) {
                    Some(target) => Some(target),
                    None => path.first().and_then(|name| reexports.get(name).cloned()),
                };
                targets.extend(target);
            }
            // `super::x` from `a::b` (a file) is `a::x`; from `a` (its mod.rs) it is `x`.
            let parent: Vec<String> = module
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            let parent = &parent[..parent.len().saturating_sub(1)];
            for path in paths_after(code, "super::") {
                let mut full = parent.to_vec();
                full.extend(path);
                targets.extend(resolve(&full).or_else(|| Some(parent.join("::"))));
            }
            targets.remove(module);
            // The root declares every module; uses of it are re-exports, resolved above.
            targets.remove("");
            uses.insert(module.clone(), targets);
        }
        Graph { uses }
    }

    /// Every circle, as the modules on it (strongly connected components of two or more).
    fn circles(&self) -> Vec<Vec<String>> {
        struct Tarjan<'g> {
            graph: &'g Graph,
            index: BTreeMap<&'g str, usize>,
            low: BTreeMap<&'g str, usize>,
            stack: Vec<&'g str>,
            circles: Vec<Vec<String>>,
        }
        impl<'g> Tarjan<'g> {
            fn visit(&mut self, v: &'g str) {
                let n = self.index.len();
                self.index.insert(v, n);
                self.low.insert(v, n);
                self.stack.push(v);
                for w in &self.graph.uses[v] {
                    let w = w.as_str();
                    if !self.graph.uses.contains_key(w) {
                        continue;
                    }
                    if !self.index.contains_key(w) {
                        self.visit(w);
                        let low = self.low[v].min(self.low[w]);
                        self.low.insert(v, low);
                    } else if self.stack.contains(&w) {
                        let low = self.low[v].min(self.index[w]);
                        self.low.insert(v, low);
                    }
                }
                if self.low[v] == self.index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = self.stack.pop() {
                        component.push(w.to_owned());
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        component.sort();
                        self.circles.push(component);
                    }
                }
            }
        }
        let mut tarjan = Tarjan {
            graph: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            circles: Vec::new(),
        };
        for v in self.uses.keys() {
            if !tarjan.index.contains_key(v.as_str()) {
                tarjan.visit(v);
            }
        }
        tarjan.circles
    }
}

/// Fails, naming the files and their uses, when any files of the crate at `crate_src` import
/// each other (directly or through others).
fn assert_no_circle(crate_src: &str) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(crate_src);
    let graph = Graph::of_crate(&src);
    assert!(
        graph.uses.len() > 3,
        "{crate_src}: found too few files ({}) to be the crate",
        graph.uses.len()
    );
    let circles = graph.circles();
    let uses: Vec<String> = circles
        .iter()
        .flatten()
        .flat_map(|from| {
            graph.uses[from]
                .iter()
                .filter(|to| circles.iter().any(|c| c.contains(to)))
                .map(move |to| format!("{from} -> {to}"))
        })
        .collect();
    assert!(
        circles.is_empty(),
        "{crate_src}: files that import each other (directly or through others): \
         {circles:?}\ntheir uses: {uses:#?}"
    );
}

#[test]
fn the_host_core_has_no_circle_of_imports() {
    assert_no_circle("src");
}

#[test]
fn the_workspace_crate_has_no_circle_of_imports() {
    assert_no_circle("workspace/src");
}

/// The reader finds what it must: direct and grouped uses, paths through the root's
/// re-exports and `super::`, and a circle of three; it ignores comments and test modules.
#[test]
fn the_reader_finds_circles_through_groups_reexports_and_super() {
    let sources = |files: &[(&str, &str)]| -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(module, text)| (module.to_string(), code_of(text)))
            .collect()
    };
    let circles = |files: &[(&str, &str)]| Graph::of_sources(&sources(files)).circles();
    let root = "mod a;\nmod b;\nmod c;\npub use c::Thing;\n";
    // a -> b (group), b -> c (inline path), c -> a through the root's re-export of... a's name.
    let three = [
        (
            "",
            "mod a;\nmod b;\nmod c;\npub use a::{Alpha, other::Beta};\n",
        ),
        ("a", "use crate::{b::B, x};\n"),
        ("b", "fn f() { crate::c::g(); }\n"),
        ("c", "use crate::Alpha;\n"),
    ];
    assert_eq!(circles(&three), vec![vec!["a", "b", "c"]]);
    // The same uses only in a comment, a doc link or the test module: no circle.
    let quiet = [
        ("", root),
        ("a", "use crate::b::B;\n"),
        (
            "b",
            "//! See [`crate::a`].\n// crate::a::x\n#[cfg(test)]\nmod tests { use crate::a::A; }\n",
        ),
    ];
    assert!(circles(&quiet).is_empty());
    // `super::` from a submodule file reaches its parent's other children and the parent.
    let nested = [
        ("", "mod p;\n"),
        (
            "p",
            "mod x;\nmod y;\nuse self::y::Y;\nfn f() { crate::p::x::g(); }\n",
        ),
        ("p::x", "use super::y::Y;\n"),
        ("p::y", "use super::x::X;\n"),
    ];
    assert_eq!(circles(&nested), vec![vec!["p::x", "p::y"]]);
    // `other_crate::x` is not `crate::x`.
    let foreign = [
        ("", root),
        ("a", "use baton_crate::b::B;\nuse crate::b::B;\n"),
        ("b", "use my_crate::a::A;\n"),
    ];
    assert!(circles(&foreign).is_empty());
}
