//! Baton's compiler front end: parse a plan, check it statically, and explain what is wrong.
//!
//! The entry point is [`check_source`]. It never panics and never overflows the stack on any
//! input: the parser and every walk over its tree run on a thread whose stack is sized for the
//! deepest tree a source of the accepted size can produce, and the checker refuses trees deeper
//! than [`Limits::max_depth`] before walking them further.

pub mod check;
pub mod diagnostic;
pub mod front;
pub mod fuzzing;
pub mod policy;
pub mod source;

pub use diagnostic::{Code, Diagnostic, Severity, Span};
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
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_source_bytes: 1 << 20,
            max_depth: 200,
            max_nodes: 200_000,
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
