//! Diagnostics: what the checker found, where, and what to write instead.
//!
//! Every problem has a stable [`Code`]. Codes never change meaning and are never reused, so a
//! planner prompt, a test or a dashboard can key on them. Rendering follows rustc and ruff:
//! the source line, a caret under the span, the code, and a `help` line with the alternative.

use serde::Serialize;

use crate::source::SourceFile;

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $name:literal; )*) => {
        /// A stable diagnostic code. `B0xx` limits and syntax, `B1xx` imports, `B2xx` names and
        /// attributes, `B3xx` syntax outside the plan language, `B4xx` format strings.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The stable code, e.g. `B101`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// A short kebab-case name for the rule, e.g. `forbidden-import`.
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            pub fn from_code(code: &str) -> Option<Code> {
                match code { $($code => Some(Code::$variant),)* _ => None }
            }
        }
    };
}

codes! {
    /// The parser failed internally; the plan is rejected rather than trusted.
    InternalError = "B000", "internal-error";
    /// The source is not valid Python 3.11 syntax.
    SyntaxError = "B001", "syntax-error";
    /// The source is larger than the checker accepts.
    SourceTooLarge = "B002", "source-too-large";
    /// Statements or expressions nest deeper than the checker accepts.
    NestingTooDeep = "B003", "nesting-too-deep";
    /// The plan has more syntax nodes than the checker accepts.
    TooManyNodes = "B004", "too-many-nodes";
    /// Code that CPython itself rejects at compile time (return outside a function, ...).
    InvalidStatement = "B005", "invalid-statement";
    /// One function body (or top-level statement) has more syntax nodes than the compiler
    /// accepts in one wasm function.
    FunctionTooLarge = "B006", "function-too-large";
    /// An import of a module that plans may not use.
    ForbiddenImport = "B101", "forbidden-import";
    /// A name that an allowed module does not provide.
    UnknownModuleMember = "B102", "unknown-module-member";
    /// `from . import x`.
    RelativeImport = "B103", "relative-import";
    /// `from m import *`.
    StarImport = "B104", "star-import";
    /// `import a.b` (with or without `as`): plans import a library module's names instead.
    DottedImport = "B105", "dotted-import";
    /// A name that is bound nowhere in scope and is not a builtin.
    UndefinedName = "B201", "undefined-name";
    /// A reflective or I/O builtin that plans may never use (eval, getattr, open, ...).
    ForbiddenBuiltin = "B202", "forbidden-builtin";
    /// A builtin outside the plan language's supported set.
    UnsupportedBuiltin = "B203", "unsupported-builtin";
    /// An identifier of the form `_name__` (dunder names such as `__class__`).
    DunderName = "B204", "dunder-name";
    /// An attribute whose name starts with `_`.
    PrivateAttribute = "B205", "private-attribute";
    /// An attribute that reaches interpreter internals (frames, code objects, the MRO).
    ReflectiveAttribute = "B206", "reflective-attribute";
    /// A `nonlocal` declaration that Python rejects.
    InvalidNonlocal = "B207", "invalid-nonlocal";
    /// A `global` declaration that Python rejects (a parameter, after a use). (B304, which
    /// refused `global` outright, is retired: plans may use it.)
    InvalidGlobal = "B208", "invalid-global";
    /// `class`.
    ClassDefinition = "B301", "class-definition";
    /// `async def`, `async for`, `async with`, `await`.
    AsyncSyntax = "B302", "async-syntax";
    /// `yield`, `yield from` (generators).
    Generator = "B303", "generator";
    /// `with`.
    WithStatement = "B305", "with-statement";
    /// `@decorator`.
    Decorator = "B306", "decorator";
    /// `match`.
    MatchStatement = "B307", "match-statement";
    /// `except*`.
    ExceptStar = "B308", "except-star";
    /// Literals of types the plan language lacks: bytes, complex, `...`.
    UnsupportedLiteral = "B309", "unsupported-literal";
    /// Syntax newer than Python 3.11 (`type X = ...`, `def f[T]()`).
    NewerSyntax = "B310", "newer-syntax";
    /// An attribute or index field in a literal `str.format` string (`"{0.__class__}"`).
    FormatFieldAccess = "B401", "format-field-access";
    /// A warning: a name imported from the SDK at module level that the plan never reads.
    UnusedImport = "B501", "unused-import";
    /// A warning: a function made in a loop or comprehension reads the loop variable when it
    /// runs, not when it was made, and is passed on or stored (all see the last value).
    LateBindingClosure = "B502", "late-binding-closure";
    /// A call of the SDK or the plan library with a keyword the function does not take.
    SdkUnknownKeyword = "B601", "sdk-unknown-keyword";
    /// A call of the SDK or the plan library with too many or missing arguments.
    SdkArguments = "B602", "sdk-arguments";
    /// A literal argument of the wrong type in a call of the SDK or the plan library.
    SdkArgumentType = "B603", "sdk-argument-type";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A half-open byte range into the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self {
            start,
            end: end.max(start),
        }
    }
}

impl From<rustpython_parser::text_size::TextRange> for Span {
    fn from(range: rustpython_parser::text_size::TextRange) -> Self {
        Span::new(range.start().to_usize(), range.end().to_usize())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    pub span: Span,
}

impl Diagnostic {
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: Severity::Error,
            message: message.into(),
            help: None,
            span,
        }
    }

    /// A diagnostic that does not reject the plan.
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(code, span, message)
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// The JSON form of one diagnostic: positions are 1-based, columns count characters, and
/// `end_column` is the column just past the span (as in ruff's JSON output).
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic<'a> {
    pub code: &'static str,
    pub severity: Severity,
    pub message: &'a str,
    pub help: Option<&'a str>,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

pub fn to_json_value<'a>(file: &SourceFile, diagnostic: &'a Diagnostic) -> JsonDiagnostic<'a> {
    let start = file.line_column(diagnostic.span.start);
    let end = file.line_column(diagnostic.span.end);
    JsonDiagnostic {
        code: diagnostic.code.as_str(),
        severity: diagnostic.severity,
        message: &diagnostic.message,
        help: diagnostic.help.as_deref(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
    }
}

/// Renders diagnostics as a JSON array (pretty-printed, one object per diagnostic).
pub fn render_json(file: &SourceFile, diagnostics: &[Diagnostic]) -> String {
    let values: Vec<_> = diagnostics.iter().map(|d| to_json_value(file, d)).collect();
    // Serialising plain strings and integers cannot fail.
    serde_json::to_string_pretty(&values).unwrap_or_else(|_| "[]".to_owned())
}

/// The most characters of a source line a snippet shows.
const SNIPPET_CHARS: usize = 120;

/// Renders diagnostics for a terminal, rustc-style, followed by a one-line summary.
pub fn render_human(file: &SourceFile, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        render_one(&mut out, file, diagnostic);
        out.push('\n');
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        out.push_str(&format!(
            "error: plan `{}` rejected: {errors} error{plural}",
            file.name()
        ));
        if warnings > 0 {
            let plural = if warnings == 1 { "" } else { "s" };
            out.push_str(&format!(", {warnings} warning{plural}"));
        }
        out.push('\n');
    }
    out
}

fn render_one(out: &mut String, file: &SourceFile, diagnostic: &Diagnostic) {
    use std::fmt::Write as _;

    let start = file.line_column(diagnostic.span.start);
    let end = file.line_column(diagnostic.span.end);
    let gutter = end.line.to_string().len().max(start.line.to_string().len());
    let pad = " ".repeat(gutter);
    let _ = writeln!(
        out,
        "{}[{}]: {}",
        diagnostic.severity.as_str(),
        diagnostic.code,
        diagnostic.message
    );
    let _ = writeln!(
        out,
        "{pad}--> {}:{}:{}",
        file.name(),
        start.line,
        start.column
    );
    let _ = writeln!(out, "{pad} |");
    let line_text = file.line_text(start.line);
    let chars: Vec<char> = line_text
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    // Underline to the end of the span, or to the end of the first line for spans that run on.
    let last_column = if end.line == start.line {
        end.column
    } else {
        chars.len() + 1
    };
    // A long line (a generated data literal) is shown as a window around the span: the reader
    // is often a model paying for every token, and the --> line keeps the true column.
    let from = if chars.len() > SNIPPET_CHARS {
        (start.column - 1)
            .saturating_sub(SNIPPET_CHARS / 3)
            .min(chars.len() - SNIPPET_CHARS)
    } else {
        0
    };
    let to = chars.len().min(from + SNIPPET_CHARS);
    let (open, close) = (
        if from > 0 { "…" } else { "" },
        if to < chars.len() { "…" } else { "" },
    );
    let shown: String = chars[from..to].iter().collect();
    let _ = writeln!(out, "{:>gutter$} | {open}{shown}{close}", start.line);
    let caret_at = (start.column - 1).clamp(from, to) - from + usize::from(from > 0);
    let width = last_column
        .min(to + 1)
        .saturating_sub(start.column.max(from + 1))
        .max(1);
    let _ = writeln!(out, "{pad} | {}{}", " ".repeat(caret_at), "^".repeat(width));
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "{pad} = help: {help}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_shown_as_a_window_around_the_span() {
        let source = format!(
            "x = [{}, undefined_name]\n",
            "1, ".repeat(2000).trim_end_matches(", ")
        );
        let file = SourceFile::new("plan.py", &source);
        let at = source.find("undefined_name").unwrap();
        let diagnostic = Diagnostic::error(
            Code::UndefinedName,
            Span::new(at, at + "undefined_name".len()),
            "undefined name",
        );
        let text = render_human(&file, &[diagnostic]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[1].ends_with(&format!("plan.py:1:{}", at + 1)),
            "{text}"
        );
        assert!(
            lines[3].len() < 200 && lines[3].contains("undefined_name"),
            "{text}"
        );
        // The caret is under the name.
        let line = lines[3].split_once(" | ").unwrap().1;
        let carets = lines[4].split_once(" | ").unwrap().1;
        let col = carets.find('^').unwrap();
        let shown: Vec<char> = line.chars().collect();
        let under: String = shown[col..col + "undefined_name".len()].iter().collect();
        assert_eq!(under, "undefined_name", "{text}");
        assert_eq!(carets.trim(), "^".repeat("undefined_name".len()));
    }

    #[test]
    fn codes_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            assert!(seen.insert(code.as_str()), "duplicate code {code}");
            assert_eq!(Code::from_code(code.as_str()), Some(code));
            assert!(code.as_str().starts_with('B') && code.as_str().len() == 4);
        }
    }

    #[test]
    fn human_rendering_points_at_the_span() {
        let file = SourceFile::new("plan.py", "import os\n");
        let diagnostic = Diagnostic::error(Code::ForbiddenImport, Span::new(7, 9), "no `os`")
            .with_help("use bash");
        let text = render_human(&file, &[diagnostic]);
        assert_eq!(
            text,
            "error[B101]: no `os`\n --> plan.py:1:8\n  |\n1 | import os\n  |        ^^\n  = help: use bash\n\nerror: plan `plan.py` rejected: 1 error\n"
        );
    }
}
