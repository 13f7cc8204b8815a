//! The random plan generator: well-formed, terminating plans over the whole plan language.
//!
//! A plan is a module-level pool of typed variables, a few module-level functions, then many
//! *sections*. Each section is a short run of random statements that prints what it computes;
//! most sections sit in `try`/`except Exception` so that an error in one (often deliberate:
//! indexing, `//`, `int("..")`) is printed and the next section still runs. The last section is
//! sometimes left bare, so plans also end with uncaught exceptions.
//!
//! Why plans are well-formed and end:
//! - expressions are typed ([`Ty`]); a name is read only where it is definitely bound (names
//!   bound inside a block are forgotten when the block ends, every name is fresh);
//! - `for` loops run over bounded sequences (ranges, literals, `[:N]` slices of copies), `while`
//!   loops increment their counter first; loops nest at most [`MAX_LOOPS`] deep and functions
//!   that loop ("heavy") are not called inside loops;
//! - the only recursion is the bounded `rec` template (its depth is a literal below 16);
//! - strings and lists grow only by literals inside loops (never by themselves), so sizes stay
//!   small; ints stay mostly small (see `lit_int`), and the comparer treats Baton's
//!   documented OverflowError on big ints as a deviation, not a mismatch.
//!
//! What is never generated, because CPython's own output is not deterministic or Baton differs
//! by design: printing a set (hash order; sets are printed through `sorted`), iterating a set,
//! `set.pop`, printing a function, deep recursion (the limit differs under a batch driver).

mod areas;
mod expr;
mod format;
mod regex;
mod stmt;
mod templates;

use crate::rng::Rng;

pub use areas::{generate_area, python_literal, Area};
pub use regex::RE_PRELUDE;

/// The static type of a generated expression. Containers are homogeneous so that every
/// operation on their elements is well typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Int,
    Float,
    Str,
    Bool,
    None,
    ListInt,
    ListStr,
    /// A tuple of ints.
    Tuple,
    /// A dict from str to int.
    Dict,
    /// A set of ints (never printed directly: iteration order is CPython's hash order).
    Set,
}

/// Types a fresh variable may have.
const VAR_TYPES: [Ty; 9] = [
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

/// Deepest nesting of loops (statements and comprehensions together).
const MAX_LOOPS: u32 = 3;
/// Deepest nesting of compound statements.
const MAX_BLOCK_DEPTH: u32 = 3;

/// A module-level function's signature.
#[derive(Debug, Clone)]
struct FnSig {
    name: String,
    params: Vec<Param>,
    ret: Ty,
    /// The body loops or calls a heavy function: never called inside a loop.
    heavy: bool,
}

#[derive(Debug, Clone)]
enum Param {
    /// `name` or `name=default`.
    Positional {
        name: String,
        ty: Ty,
        default: Option<String>,
    },
    /// `*name` (ints).
    VarArgs(String),
    /// Keyword-only `name` or `name=default`.
    KwOnly {
        name: String,
        ty: Ty,
        default: Option<String>,
    },
    /// `**name` (ints).
    VarKw(String),
}

/// A variable visible at a point of the plan.
#[derive(Debug, Clone)]
struct Var {
    name: String,
    ty: Ty,
    /// May be assigned here (inside a function, module names are read-only: assigning one
    /// would make it local to the function).
    writable: bool,
}

/// What the code being generated may see and do.
#[derive(Debug, Clone, Default)]
struct Env {
    vars: Vec<Var>,
    /// Callables `name(int) -> int` (lambdas, closures).
    lambdas: Vec<String>,
    fns: Vec<FnSig>,
    /// Enclosing loops, statements and comprehensions.
    loops: u32,
    /// Directly inside a loop body (break/continue allowed).
    in_loop_body: bool,
    /// Inside a function body (return allowed), and its return type.
    ret: Option<Ty>,
    /// The bound exception of the enclosing `except ... as e` handler (for bare `raise`,
    /// `raise ... from e`).
    handler: Option<String>,
    /// Nesting of compound statements.
    depth: u32,
    /// Names from this index on were bound in the current block (only those may be `del`eted).
    block_start: usize,
}

impl Env {
    fn of_type(&self, ty: Ty) -> Vec<&Var> {
        self.vars.iter().filter(|v| v.ty == ty).collect()
    }

    fn add(&mut self, name: &str, ty: Ty) {
        self.vars.push(Var {
            name: name.to_string(),
            ty,
            writable: true,
        });
    }
}

/// Settings of one generated plan.
#[derive(Debug, Clone, Copy)]
pub struct GenConfig {
    /// Sections per plan (the main lever of coverage per compiled module).
    pub sections: usize,
    /// Statements per section.
    pub statements: usize,
    /// Module-level functions.
    pub functions: usize,
    /// A targeted area instead of the whole language: plans of `area_calls` calls of one
    /// module's functions (`areas.rs`).
    pub area: Option<Area>,
    pub area_calls: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            sections: 32,
            statements: 4,
            functions: 4,
            area: None,
            area_calls: 100,
        }
    }
}

/// Generates plan `index` of the run seeded with `seed`.
pub fn generate(seed: u64, index: u64, config: &GenConfig) -> String {
    if let Some(area) = config.area {
        return areas::generate_area(area, seed, index, config.area_calls);
    }
    let mut generator = Gen {
        rng: Rng::for_plan(seed, index),
        out: String::new(),
        indent: 0,
        counter: 0,
    };
    generator.plan(config);
    generator.out
}

/// The generator's state: the random stream and the text written so far.
struct Gen {
    rng: Rng,
    out: String,
    indent: usize,
    counter: usize,
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Writes `header` and then a body generated by `body` one level deeper. The body always
    /// gets at least a `pass`, so the block is never empty.
    fn block(&mut self, header: &str, body: impl FnOnce(&mut Self)) {
        self.line(header);
        self.indent += 1;
        let before = self.out.len();
        body(self);
        if self.out.len() == before {
            self.line("pass");
        }
        self.indent -= 1;
    }

    fn plan(&mut self, config: &GenConfig) {
        self.line("import json");
        let mut env = Env::default();
        // The pool: one or two variables of every type, bound unconditionally at the top.
        for &ty in VAR_TYPES.iter().chain(VAR_TYPES.iter().take(4)) {
            let name = self.fresh("g");
            let value = self.literal(ty);
            self.line(&format!("{name} = {value}"));
            env.add(&name, ty);
        }
        for _ in 0..config.functions {
            self.module_function(&mut env);
        }
        let shown: Vec<String> = env
            .vars
            .iter()
            .map(|v| match v.ty {
                Ty::Set => format!("sorted({})", v.name),
                _ => v.name.clone(),
            })
            .collect();
        self.line(&format!("print('pool', {})", shown.join(", ")));
        for index in 0..config.sections {
            let last = index + 1 == config.sections;
            self.section(&env, index, config.statements, last);
        }
        self.line("print('end')");
    }

    /// One section: statements in a `try` that prints any exception, or bare at the end of the
    /// plan (so that some plans end with an uncaught exception).
    fn section(&mut self, env: &Env, index: usize, statements: usize, last: bool) {
        let bare = last && self.rng.chance(40);
        self.line(&format!("print('-- s{index}')"));
        if bare {
            let mut local = env.clone();
            local.block_start = local.vars.len();
            for _ in 0..statements {
                self.stmt(&mut local);
            }
            return;
        }
        let statements = self.rng.range(1, statements as i64 * 2) as usize;
        self.block("try:", |g| {
            let mut local = env.clone();
            local.block_start = local.vars.len();
            for _ in 0..statements {
                g.stmt(&mut local);
            }
        });
        let e = self.fresh("e");
        self.block(&format!("except Exception as {e}:"), |g| {
            g.line(&format!("print('caught', repr({e}))"));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic() {
        let config = GenConfig::default();
        for index in 0..20 {
            assert_eq!(
                generate(3, index, &config),
                generate(3, index, &config),
                "plan {index}"
            );
        }
        assert_ne!(generate(3, 0, &config), generate(3, 1, &config));
    }

    #[test]
    fn plans_pass_the_checker() {
        let config = GenConfig::default();
        for index in 0..60 {
            let plan = generate(11, index, &config);
            let report = baton_compiler::check_source("gen.py", &plan);
            assert!(
                report.is_accepted(),
                "plan {index} rejected:\n{}\n{plan}",
                report.render_human()
            );
        }
    }
}
