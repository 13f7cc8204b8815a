//! What a plan's code links against in this build's runtime module: where the runtime's static
//! objects are (type objects, builtin functions, the strs a plan's constants share), the
//! signature of every function it exports, its globals, and which of its functions never reach
//! a collection.
//!
//! All of it follows from assembling the runtime ([`crate::runtime_layout`],
//! [`crate::linking::runtime_module`]): 1.2 MB of WAT text written and read back, ~15 ms of
//! CPU, which a plan never seen before would pay in every process that compiles one — more than
//! the rest of a small plan's compile and run together. So the compiler's build script
//! assembles the runtime once per build and writes the interface out as Rust statics
//! ([`Interface::to_rust`]); [`Interface::assembled`] derives the same value at run time, for
//! that build script and for the test that the two agree.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::sync::OnceLock;

/// A table of named entries, sorted by name: a `static` the build writes, looked up by binary
/// search.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Names<T: 'static>(pub &'static [(&'static str, T)]);

impl<T> Names<T> {
    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Option<&'static T> {
        let entries: &'static [(&'static str, T)] = self.0;
        entries
            .binary_search_by(|(key, _)| (*key).cmp(name))
            .ok()
            .map(|at| &entries[at].1)
    }

    /// Whether there is an entry named `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The entries, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &'static T)> {
        let entries: &'static [(&'static str, T)] = self.0;
        entries.iter().map(|(name, value)| (*name, value))
    }

    /// A table of the entries of `map` (sorted, as a `BTreeMap` is), kept for the process.
    fn leaked<K: AsRef<str>>(map: impl IntoIterator<Item = (K, T)>) -> Self {
        let entries: Vec<(&'static str, T)> = map
            .into_iter()
            .map(|(name, value)| (leak(name.as_ref()), value))
            .collect();
        debug_assert!(entries.windows(2).all(|pair| pair[0].0 < pair[1].0));
        Self(Vec::leak(entries))
    }
}

impl<T> std::ops::Index<&str> for Names<T> {
    type Output = T;

    /// The entry named `name`; panics when there is none (for names the compiler itself uses).
    fn index(&self, name: &str) -> &T {
        match self.get(name) {
            Some(value) => value,
            None => panic!("the runtime has no `{name}`"),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Names<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A runtime global: a plan module imports a mutable one, and copies an immutable one (a
/// constant, part of the runtime's version) as its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Global {
    pub mutable: bool,
    /// Its value type (`i32`, ...).
    pub ty: &'static str,
    /// Its initial value, as a WAT constant expression.
    pub init: &'static str,
}

/// What a plan's code links against in this build's runtime (the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interface {
    /// Type objects' addresses, by Python name (`int`, `re.Match`).
    pub types: Names<u32>,
    /// Builtin function objects' addresses, by the runtime's name (`len`, `json_loads`).
    pub builtins: Names<u32>,
    /// The runtime's static str objects, by text: a plan's equal constants are these objects.
    pub strs: Names<u32>,
    /// The empty tuple's address.
    pub empty_tuple: u32,
    /// The first address free for the plan's static objects.
    pub plan_statics: u32,
    /// The signature (`(param i64) (result i32)`) of every function the runtime exports.
    pub functions: Names<&'static str>,
    /// Every global the runtime declares.
    pub globals: Names<Global>,
    /// The functions whose calls never run a collection ([`Interface::never_collects`]).
    pub never_collect: Names<()>,
}

impl Interface {
    /// Whether a call of the runtime function `name` can never run a collection: it neither
    /// reaches `$gc_safepoint` or `$gc_collect` nor calls through the table (where plan code
    /// is, whose loops and entries are safe points), directly or through the runtime functions
    /// it calls. Host calls count as never collecting: a host function only reads and writes the
    /// instance's memory and never calls into it (`host/src/linker.rs` keeps that promise). A
    /// value the plan's code holds only across such calls needs no shadow slot
    /// (`compiler/src/codegen/shadow.rs`). `false` for any name the runtime does not define.
    pub fn never_collects(&self, name: &str) -> bool {
        self.never_collect.contains_key(name)
    }

    /// The interface read off the runtime as this process assembles it (~15 ms, once).
    pub fn assembled() -> &'static Interface {
        static INTERFACE: OnceLock<Interface> = OnceLock::new();
        INTERFACE.get_or_init(|| {
            let layout = crate::runtime_layout();
            let module = crate::linking::runtime_module();
            let strs: BTreeMap<&str, u32> = layout
                .strs
                .iter()
                .map(|(text, &address)| (text.as_str(), address))
                .collect();
            Interface {
                types: Names::leaked(layout.types.iter().map(|(name, &at)| (*name, at))),
                builtins: Names::leaked(layout.builtins.iter().map(|(name, &at)| (*name, at))),
                strs: Names::leaked(strs),
                empty_tuple: layout.empty_tuple,
                plan_statics: layout.plan_statics,
                functions: Names::leaked(
                    module
                        .functions()
                        .iter()
                        .map(|(name, signature)| (name.as_str(), leak(signature))),
                ),
                globals: Names::leaked(module.globals().iter().map(|(name, global)| {
                    let global = Global {
                        mutable: global.mutable,
                        ty: leak(&global.ty),
                        init: leak(&global.init),
                    };
                    (name.as_str(), global)
                })),
                never_collect: Names::leaked(
                    module
                        .never_collecting()
                        .iter()
                        .map(|name| (name.as_str(), ())),
                ),
            }
        })
    }

    /// This interface as a Rust expression of type `Interface` (the build script writes it,
    /// the compiler `include!`s it).
    pub fn to_rust(&self) -> String {
        let mut out = String::with_capacity(256 << 10);
        out.push_str("baton_runtime::interface::Interface {\n");
        for (field, names) in [
            ("types", &self.types),
            ("builtins", &self.builtins),
            ("strs", &self.strs),
        ] {
            write_names(&mut out, field, names, |out, address| {
                let _ = write!(out, "{address}");
            });
        }
        let _ = writeln!(out, "empty_tuple: {},", self.empty_tuple);
        let _ = writeln!(out, "plan_statics: {},", self.plan_statics);
        write_names(&mut out, "functions", &self.functions, |out, signature| {
            let _ = write!(out, "{signature:?}");
        });
        write_names(&mut out, "globals", &self.globals, |out, global| {
            let _ = write!(
                out,
                "baton_runtime::interface::Global {{ mutable: {}, ty: {:?}, init: {:?} }}",
                global.mutable, global.ty, global.init
            );
        });
        write_names(&mut out, "never_collect", &self.never_collect, |out, ()| {
            out.push_str("()");
        });
        out.push_str("}\n");
        out
    }
}

/// `field: Names(&[("name", value), ...]),`; a name's `Debug` form is a Rust string literal.
fn write_names<T>(
    out: &mut String,
    field: &str,
    names: &Names<T>,
    value: impl Fn(&mut String, &T),
) {
    let _ = writeln!(out, "{field}: baton_runtime::interface::Names(&[");
    for (name, entry) in names.iter() {
        let _ = write!(out, "({name:?}, ");
        value(out, entry);
        out.push_str("),\n");
    }
    out.push_str("]),\n");
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_by_binary_search() {
        let names = Names(&[("a", 1), ("b", 2), ("d", 4)]);
        assert_eq!(names.get("b"), Some(&2));
        assert_eq!(names.get("c"), None);
        assert_eq!(names["d"], 4);
        assert!(!names.contains_key(""));
    }

    #[test]
    fn the_assembled_interface_has_the_runtime_facts_plans_use() {
        let interface = Interface::assembled();
        assert!(interface.types.contains_key("int"));
        assert!(interface.builtins.contains_key("len"));
        assert!(interface.functions.contains_key("b_print"));
        assert!(interface.globals["shadow_top"].mutable);
        assert!(!interface.globals["t_int"].mutable);
        assert!(interface.never_collects("alloc"));
        assert!(!interface.never_collects("gc_collect"));
        assert!(interface.plan_statics > interface.empty_tuple);
        // Every str the runtime placed is in the table under its text.
        assert_eq!(
            interface.strs.iter().count(),
            crate::runtime_layout().strs.len()
        );
    }
}
