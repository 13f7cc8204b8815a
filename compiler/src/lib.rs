//! Baton's compiler front end: parse a plan, check it statically, and explain what is wrong.
//!
//! The entry point is [`check_source`]. It never panics and never overflows the stack on any
//! input: the parser and every walk over its tree run on a thread whose stack is sized for the
//! deepest tree a source of the accepted size can produce, and the checker refuses trees deeper
//! than [`Limits::max_depth`] before walking them further.

pub mod check;
pub mod codegen;
pub mod diagnostic;
pub mod encode;
pub mod escapes;
pub mod front;
pub mod fuzzing;
pub mod guide;
pub mod library;
pub mod policy;
mod runtime;
pub mod source;

pub use diagnostic::{Code, Diagnostic, Severity, Span};
use rustpython_parser::ast;
pub use source::SourceFile;

/// Bounds that keep the checker itself safe and fast on hostile input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted source, in bytes.
    pub max_source_bytes: usize,
    /// Deepest accepted nesting of statements and expressions together.
    pub max_depth: usize,
    /// Most syntax nodes accepted in one plan.
    pub max_nodes: usize,
    /// Most syntax nodes accepted in one function body, or in one top-level statement (the
    /// compiler emits long module bodies as several functions), nested `def`s not counted.
    pub max_function_nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_source_bytes: 1 << 20,
            max_depth: 200,
            max_nodes: 200_000,
            max_function_nodes: 5_000,
        }
    }
}

/// The outcome of checking one plan.
#[derive(Debug, Clone)]
pub struct CheckReport {
    pub file: SourceFile,
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckReport {
    /// True when the plan may be compiled: no error-severity diagnostics.
    pub fn is_accepted(&self) -> bool {
        !self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    pub fn render_human(&self) -> String {
        diagnostic::render_human(&self.file, &self.diagnostics)
    }

    pub fn render_json(&self) -> String {
        diagnostic::render_json(&self.file, &self.diagnostics)
    }

    /// The report with every warning made an error (`--deny-warnings`): a plan with a
    /// warning is then rejected.
    pub fn deny_warnings(mut self) -> Self {
        for diagnostic in &mut self.diagnostics {
            diagnostic.severity = Severity::Error;
        }
        self
    }

    pub fn codes(&self) -> Vec<Code> {
        self.diagnostics.iter().map(|d| d.code).collect()
    }
}

/// Parses and checks `text` (named `name` in diagnostics) with the default [`Limits`].
pub fn check_source(name: &str, text: &str) -> CheckReport {
    check_source_with(name, text, &Limits::default())
}

/// Parses and checks `text` under `limits`, on a thread with a stack large enough for any tree
/// the parser can build from a source of at most `limits.max_source_bytes` bytes. A panic in
/// the parser (a bug, never expected) rejects the plan with [`Code::InternalError`].
pub fn check_source_with(name: &str, text: &str, limits: &Limits) -> CheckReport {
    let file = SourceFile::new(name, text);
    if text.len() > limits.max_source_bytes {
        return CheckReport {
            diagnostics: vec![front::source_too_large(&file, limits)],
            file,
        };
    }
    let stack_size = front::stack_size_for(text.len());
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("baton-check".into())
            .stack_size(stack_size)
            .spawn_scoped(scope, || check::check_file(&file, limits))
            .map(|handle| handle.join())
    });
    let diagnostics = match outcome {
        Ok(Ok(diagnostics)) => diagnostics,
        Ok(Err(_panic)) => vec![Diagnostic::error(
            Code::InternalError,
            Span::new(0, 0),
            "the checker failed internally on this plan; it is rejected rather than trusted",
        )
        .with_help("please report this plan to the Baton developers")],
        Err(spawn_error) => vec![Diagnostic::error(
            Code::InternalError,
            Span::new(0, 0),
            format!("could not start the checker thread: {spawn_error}"),
        )],
    };
    CheckReport { file, diagnostics }
}

/// Parses and checks on the calling thread without catching panics. For fuzzing, where a panic
/// must surface. The caller must keep inputs small enough for its own stack (libFuzzer's default
/// input size is).
pub fn check_in_place(name: &str, text: &str, limits: &Limits) -> CheckReport {
    let file = SourceFile::new(name, text);
    let diagnostics = if text.len() > limits.max_source_bytes {
        vec![front::source_too_large(&file, limits)]
    } else {
        check::check_file(&file, limits)
    };
    CheckReport { file, diagnostics }
}

/// Why a plan could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The static check rejected the plan; the report has the diagnostics.
    #[error("plan `{}` was rejected by the static check", .0.file.name())]
    Rejected(Box<CheckReport>),
    /// The plan uses something the compiler does not handle yet.
    #[error("{}: cannot compile: {}", .file, .error)]
    Unsupported {
        file: String,
        error: codegen::Unsupported,
    },
    /// A bug: the generated module does not assemble.
    #[error("internal compiler error: the generated module does not assemble: {0}")]
    Assembly(String),
}

/// A compiled plan: the module's bytes, and its WAT text for inspection.
#[derive(Debug, Clone)]
pub struct CompiledPlan {
    pub wasm: Vec<u8>,
    pub wat: String,
}

/// Checks and compiles a plan to a WebAssembly module (see docs/abi.md). Runs on a thread with
/// a stack sized for the plan, like [`check_source`].
pub fn compile_source(name: &str, text: &str) -> Result<CompiledPlan, CompileError> {
    compile_source_with(name, text, CompileOptions::default())
}

/// How a plan is compiled; the default is what `baton compile` does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// The collector's stress mode (runtime/wat/gc.wat): 0 off; N collects at every Nth safe
    /// point and poisons what it frees, so a value the collector cannot see is used after it
    /// was freed at once, where it shows (a trap, a wrong result), instead of some day.
    pub gc_stress: u32,
}

/// [`compile_source`] with [`CompileOptions`].
pub fn compile_source_with(
    name: &str,
    text: &str,
    options: CompileOptions,
) -> Result<CompiledPlan, CompileError> {
    let limits = Limits::default();
    let file = SourceFile::new(name, text);
    if text.len() > limits.max_source_bytes {
        let report = CheckReport {
            diagnostics: vec![front::source_too_large(&file, &limits)],
            file,
        };
        return Err(CompileError::Rejected(Box::new(report)));
    }
    let stack_size = front::stack_size_for(text.len());
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("baton-compile".into())
            .stack_size(stack_size)
            .spawn_scoped(scope, || compile_file(&file, &limits, options))
            .map(|handle| handle.join())
    });
    match outcome {
        Ok(Ok(result)) => result,
        Ok(Err(_panic)) => Err(CompileError::Assembly("the compiler panicked".into())),
        Err(error) => Err(CompileError::Assembly(format!(
            "could not start the compiler thread: {error}"
        ))),
    }
}

fn compile_file(
    file: &SourceFile,
    limits: &Limits,
    options: CompileOptions,
) -> Result<CompiledPlan, CompileError> {
    let (diagnostics, body) = check::check_and_parse(file, limits);
    let report = CheckReport {
        file: file.clone(),
        diagnostics,
    };
    let body = match body {
        Some(body) if report.is_accepted() => body,
        _ => return Err(CompileError::Rejected(Box::new(report))),
    };
    // The plan library modules it imports, and those they import (a module imports only
    // modules listed before it, so one pass from the end finds them all), checked like any
    // plan and compiled in, dependencies first.
    let mut wanted = vec![false; library::LIBRARY.len()];
    let mut bodies: Vec<Option<Vec<ast::Stmt>>> = vec![None; library::LIBRARY.len()];
    for (index, (module, path, text)) in library::LIBRARY.iter().enumerate().rev() {
        let importers = std::iter::once(&body).chain(bodies.iter().flatten());
        if !importers.into_iter().any(|b| library::imports(b, module)) {
            continue;
        }
        let lib_file = SourceFile::new(*path, *text);
        let (diagnostics, lib_body) = check::check_and_parse_library(&lib_file, limits);
        match lib_body {
            Some(lib_body) if diagnostics.iter().all(|d| d.severity != Severity::Error) => {
                wanted[index] = true;
                bodies[index] = Some(lib_body);
            }
            _ => {
                return Err(CompileError::Assembly(format!(
                    "the plan library module `{module}` does not pass the check: {}",
                    diagnostics
                        .first()
                        .map_or("it does not parse".to_string(), |d| d.message.clone())
                )))
            }
        }
    }
    let sources: Vec<(&str, SourceFile)> = library::LIBRARY
        .iter()
        .zip(&wanted)
        .filter(|(_, wanted)| **wanted)
        .map(|((module, path, text), _)| (*module, SourceFile::new(*path, *text)))
        .collect();
    let bodies: Vec<(&str, Vec<ast::Stmt>)> = library::LIBRARY
        .iter()
        .zip(bodies)
        .filter_map(|((module, _, _), body)| Some((*module, body?)))
        .collect();
    let libraries: Vec<codegen::Library<'_>> = sources
        .iter()
        .zip(&bodies)
        .map(|((module, lib_file), (_, lib_body))| codegen::Library {
            module,
            file: lib_file,
            body: lib_body,
        })
        .collect();
    let generated = codegen::generate(file, &body, &libraries, &options).map_err(|error| {
        CompileError::Unsupported {
            file: file.name().to_owned(),
            error,
        }
    })?;
    let wat = baton_runtime::linking::assemble_plan(&generated.parts(), &runtime::RUNTIME);
    let wasm = encode::encode(&wat).map_err(|error| match error.too_large {
        // A function past the host's bounds: the plan's doing, at the statement whose code
        // most of it is.
        Some(encode::TooLarge { function, what }) => CompileError::Unsupported {
            file: file.name().to_owned(),
            error: codegen::Unsupported {
                line: generated
                    .function_lines
                    .get(&function)
                    .copied()
                    .unwrap_or(1),
                message: format!(
                    "this statement compiles to more code than one function may hold to be \
                     compiled safely ({what}); move part of it into a function of its own (a \
                     `finally` body is compiled once for each way out of its `try`, so each \
                     `try/finally` nested in another's `finally` doubles the code inside it)"
                ),
            },
        },
        None => CompileError::Assembly(error.to_string()),
    })?;
    Ok(CompiledPlan { wasm, wat })
}
