//! The static checker. It walks a parsed plan once (after [`shape`] has bounded its depth),
//! resolving every name with Python's scoping rules and applying the plan language's rules.
//! Every problem is reported, not just the first; each diagnostic names the construct, carries
//! a stable code and says what to write instead.

mod format_string;
mod late_binding;
pub(crate) mod scope;
mod sdk_calls;
mod shape;
pub(crate) use late_binding::visit as visit_expr;
pub(crate) use shape::node_count;
mod suggest;

use std::borrow::Cow;
use std::collections::HashSet;

use rustpython_parser::ast::{self, Constant, Ranged};
use unicode_normalization::UnicodeNormalization;

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::policy;
use crate::source::SourceFile;
use crate::{front, Limits};
use scope::{Binding, Scope, ScopeKind};

/// Parses and checks one plan; the diagnostics are sorted by position.
pub fn check_file(file: &SourceFile, limits: &Limits) -> Vec<Diagnostic> {
    check_and_parse(file, limits).0
}

/// Parses and checks one plan, returning the tree too when it was parsed and is within the
/// limits (so a compiler can use it without parsing again).
pub fn check_and_parse(
    file: &SourceFile,
    limits: &Limits,
) -> (Vec<Diagnostic>, Option<Vec<ast::Stmt>>) {
    check_and_parse_as(file, limits, false)
}

/// [`check_and_parse`] for a module of the plan library, which may also import the internal
/// runtime helpers ([`policy::ModuleSpec::internal`]).
pub fn check_and_parse_library(
    file: &SourceFile,
    limits: &Limits,
) -> (Vec<Diagnostic>, Option<Vec<ast::Stmt>>) {
    check_and_parse_as(file, limits, true)
}

fn check_and_parse_as(
    file: &SourceFile,
    limits: &Limits,
    library: bool,
) -> (Vec<Diagnostic>, Option<Vec<ast::Stmt>>) {
    let body = match front::parse(file) {
        Ok(body) => body,
        Err(diagnostic) => return (vec![diagnostic], None),
    };
    if let Some(diagnostic) = shape::measure(&body, limits) {
        return (vec![diagnostic], None);
    }
    let mut checker = Checker::new(file);
    checker.library = library;
    checker.module(&body);
    let mut diagnostics = checker.diagnostics;
    diagnostics.extend(late_binding::check(&body));
    diagnostics.sort_by_key(|d| (d.span, d.code));
    diagnostics.dedup();
    (diagnostics, Some(body))
}

/// NFKC-normalises an identifier, as CPython's tokenizer does: `ｅｖａｌ` is `eval`.
pub fn normalize(identifier: &str) -> Cow<'_, str> {
    if identifier.is_ascii() {
        Cow::Borrowed(identifier)
    } else {
        Cow::Owned(identifier.nfkc().collect())
    }
}

/// `__name__`, `__import__`, and anything else that starts with `_` and ends with `__`.
fn is_dunder(name: &str) -> bool {
    name.starts_with('_') && name.ends_with("__")
}

/// How a name is shown: `eval`, or `ｅｖａｌ` (read by Python as `eval`).
fn shown(raw: &str, normalized: &str) -> String {
    if raw == normalized {
        format!("`{normalized}`")
    } else {
        format!("`{raw}` (which Python reads as `{normalized}`)")
    }
}

/// The literal text of a string expression: a str constant, or the constant parts of an
/// f-string (`f"{{0.__class__}}"` is the template `{0.__class__}`). Interpolated parts are
/// dynamic and left to the runtime's `str.format`, which refuses attribute and index fields.
fn literal_template(expr: &ast::Expr) -> Option<String> {
    match expr {
        ast::Expr::Constant(ast::ExprConstant {
            value: Constant::Str(text),
            ..
        }) => Some(text.clone()),
        ast::Expr::JoinedStr(joined) => {
            let mut template = String::new();
            for part in &joined.values {
                match part {
                    ast::Expr::Constant(ast::ExprConstant {
                        value: Constant::Str(text),
                        ..
                    }) => template.push_str(text),
                    // A placeholder that cannot start, end or extend a field name.
                    _ => template.push(' '),
                }
            }
            Some(template)
        }
        _ => None,
    }
}

enum Resolution {
    /// Bound by the plan, in a scope of this kind.
    Bound(Binding, ScopeKind),
    Builtin,
    Unbound,
}

struct Checker<'f> {
    file: &'f SourceFile,
    diagnostics: Vec<Diagnostic>,
    scopes: Vec<Scope>,
    /// Loops enclosing the current statement within the current function.
    loop_depth: usize,
    /// Iteration variables of the comprehensions being walked, innermost last.
    comprehension_targets: Vec<HashSet<String>>,
    /// How many comprehension iterables enclose the expression being walked.
    comprehension_iterables: usize,
    /// Module-level names some load reads (anywhere in the plan).
    module_reads: HashSet<String>,
    /// Names imported from `baton` at module level, with the span of their import (B501).
    sdk_imports: Vec<(String, Span)>,
    /// Checking a module of the plan library (it may import the internal runtime helpers).
    library: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TargetKind {
    Assign,
    Augmented,
    Annotated,
    Delete,
}

impl TargetKind {
    fn describe(self) -> &'static str {
        match self {
            TargetKind::Augmented => "an augmented assignment",
            TargetKind::Annotated => "an annotated assignment",
            TargetKind::Assign => "an assignment",
            TargetKind::Delete => "`del`",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            TargetKind::Delete => "delete",
            _ => "assign to",
        }
    }
}

/// How CPython's messages name an expression that cannot be a target.
fn describe(expr: &ast::Expr) -> &'static str {
    use ast::Expr as E;
    match expr {
        E::Constant(c) => match c.value {
            Constant::None => "None",
            Constant::Bool(true) => "True",
            Constant::Bool(false) => "False",
            Constant::Ellipsis => "ellipsis",
            _ => "a literal",
        },
        E::Call(_) => "a function call",
        E::Tuple(_) => "tuple",
        E::List(_) => "list",
        E::Compare(_) => "a comparison",
        E::Lambda(_) => "a lambda",
        E::JoinedStr(_) | E::FormattedValue(_) => "an f-string",
        E::NamedExpr(_) => "a named expression",
        E::ListComp(_) | E::SetComp(_) | E::DictComp(_) | E::GeneratorExp(_) => "a comprehension",
        E::Dict(_) | E::Set(_) => "a display",
        E::IfExp(_) => "a conditional expression",
        _ => "an expression",
    }
}

impl<'f> Checker<'f> {
    fn new(file: &'f SourceFile) -> Self {
        Self {
            file,
            diagnostics: Vec::new(),
            scopes: Vec::new(),
            loop_depth: 0,
            comprehension_targets: Vec::new(),
            comprehension_iterables: 0,
            module_reads: HashSet::new(),
            sdk_imports: Vec::new(),
            library: false,
        }
    }

    /// The module a plan (or, for [`Self::library`], a library module) may import by this name.
    fn importable(&self, module: &str) -> Option<&'static policy::ModuleSpec> {
        policy::module(module).filter(|spec| self.library || !spec.internal)
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn error(&mut self, code: Code, span: Span, message: String, help: impl Into<String>) {
        self.report(Diagnostic::error(code, span, message).with_help(help));
    }

    /// The literal text of an f-string's format specs (`f'{v:\x3e5}'`), which the parser leaves
    /// as written, has its escapes decoded as any str literal's: a malformed one (`\N` without
    /// a known `{name}`, a truncated `\x`) is CPython's SyntaxError. A raw f-string keeps them.
    fn literal_spec_escapes(&mut self, joined: &ast::ExprJoinedStr) {
        if crate::escapes::literal_is_raw(self.file.text(), joined.range.start().to_usize()) {
            return;
        }
        for part in &joined.values {
            let ast::Expr::FormattedValue(value) = part else {
                continue;
            };
            let Some(ast::Expr::JoinedStr(spec)) = value.format_spec.as_deref() else {
                continue;
            };
            for piece in &spec.values {
                let ast::Expr::Constant(ast::ExprConstant {
                    value: ast::Constant::Str(text),
                    ..
                }) = piece
                else {
                    continue;
                };
                if let Err(error) = crate::escapes::decode_escapes(text) {
                    self.error(
                        Code::SyntaxError,
                        Span::from(spec.range()),
                        error.to_string(),
                        "write the escape whole (`\\x3e`, `\\N{BULLET}`), or a backslash as `\\\\`",
                    );
                }
            }
        }
    }

    /// Python 3.11 refuses a backslash anywhere in an f-string's expression part
    /// (`f'{"\n".join(x)}'`, raw f-strings too); only 3.12 lifted that. The parser does not.
    fn expression_part_backslash(&mut self, value: &ast::ExprFormattedValue) {
        let range = value.value.range();
        let text = self
            .file
            .text()
            .get(range.start().to_usize()..range.end().to_usize())
            .unwrap_or("");
        if text.contains('\\') {
            self.error(
                Code::SyntaxError,
                Span::from(range),
                "f-string expression part cannot include a backslash".to_owned(),
                "compute the value first (`newline = \"\\n\"`) and name it in the f-string",
            );
        }
    }

    /// The span of `raw` inside `within`, found as a whole word; `within` if it is not there.
    fn word_span(&self, within: Span, raw: &str) -> Span {
        let text = self.file.text();
        let start = self.file.clamp(within.start);
        let end = self.file.clamp(within.end.max(start));
        let haystack = &text[start..end];
        let is_ident = |c: char| c == '_' || c.is_alphanumeric();
        let mut from = 0;
        while let Some(found) = haystack[from..].find(raw) {
            let at = from + found;
            let before = haystack[..at].chars().next_back();
            let after = haystack[at + raw.len()..].chars().next();
            if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
                return Span::new(start + at, start + at + raw.len());
            }
            from = at + raw.len().max(1);
            if from >= haystack.len() {
                break;
            }
        }
        within
    }

    /// A span of `len` bytes starting at `start`, kept inside the source.
    fn span_at(&self, start: usize, len: usize) -> Span {
        let start = self.file.clamp(start);
        Span::new(start, self.file.clamp(start.saturating_add(len)))
    }

    // ----- identifiers and names -------------------------------------------------------------

    /// Checks an identifier the plan writes (a name, parameter, keyword or alias) and returns
    /// its normalised form, or `None` when it is a dunder name (already reported).
    fn identifier<'a>(&mut self, raw: &'a str, span: Span) -> Option<Cow<'a, str>> {
        let normalized = normalize(raw);
        if is_dunder(&normalized) {
            self.error(
                Code::DunderName,
                span,
                format!("name {} is not allowed in plans", shown(raw, &normalized)),
                "names that start with `_` and end with `__` reach interpreter internals; choose another name",
            );
            return None;
        }
        Some(normalized)
    }

    fn resolve(&self, name: &str) -> Resolution {
        for (depth, scope) in self.scopes.iter().rev().enumerate() {
            // A class body's names are not visible from the functions nested in it.
            if depth > 0 && scope.kind == ScopeKind::Class {
                continue;
            }
            if scope.nonlocals.contains_key(name) {
                continue;
            }
            if scope.kind != ScopeKind::Module && scope.globals.contains_key(name) {
                // `global x`: the module's x, whatever the scopes between bind.
                let module = &self.scopes[0];
                return match module.bindings.get(name) {
                    Some(&binding) => Resolution::Bound(binding, ScopeKind::Module),
                    None if policy::is_python_builtin(name) => Resolution::Builtin,
                    None => Resolution::Unbound,
                };
            }
            if let Some(&binding) = scope.bindings.get(name) {
                return Resolution::Bound(binding, scope.kind);
            }
        }
        if policy::is_python_builtin(name) {
            Resolution::Builtin
        } else {
            Resolution::Unbound
        }
    }

    fn name_load(&mut self, raw: &str, span: Span) {
        let Some(name) = self.identifier(raw, span) else {
            return;
        };
        if let Resolution::Bound(_, ScopeKind::Module) = self.resolve(&name) {
            self.module_reads.insert(name.to_string());
        }
        match self.resolve(&name) {
            // A module-level name falls back to the builtin whenever its binding has not run
            // (a conditional or later assignment, `del`, the end of an `except ... as` block,
            // an annotation without a value), so only function-local bindings may shadow
            // builtins the plan language lacks.
            Resolution::Bound(_, ScopeKind::Module | ScopeKind::Class)
                if policy::is_python_builtin(name.as_ref()) =>
            {
                self.builtin_use(raw, &name, span, true)
            }
            Resolution::Bound(..) => {}
            Resolution::Builtin => self.builtin_use(raw, &name, span, false),
            Resolution::Unbound => self.undefined(raw, &name, span),
        }
    }

    /// A reference that reaches (or, for a module-level binding, may reach) a builtin.
    fn builtin_use(&mut self, raw: &str, name: &str, span: Span, module_binding: bool) {
        if policy::SUPPORTED_BUILTINS.contains(&name) {
            return;
        }
        if module_binding {
            let code = if policy::FORBIDDEN_BUILTINS.iter().any(|(f, _)| *f == name) {
                Code::ForbiddenBuiltin
            } else {
                Code::UnsupportedBuiltin
            };
            self.error(
                code,
                span,
                format!(
                    "{} is bound at module level, where Python falls back to the builtin `{name}` until the binding runs",
                    shown(raw, name)
                ),
                "use another name, or bind it inside a function (function locals never fall back to builtins)",
            );
            return;
        }
        if let Some((_, help)) = policy::FORBIDDEN_BUILTINS.iter().find(|(f, _)| *f == name) {
            self.error(
                Code::ForbiddenBuiltin,
                span,
                format!("builtin {} is forbidden in plans", shown(raw, name)),
                *help,
            );
        } else {
            let help = match name {
                "format" => "use an f-string such as f\"{value:>10}\"".to_owned(),
                "bytes" | "bytearray" => "use str".to_owned(),
                _ => match suggest::closest(name, policy::SUPPORTED_BUILTINS.iter().copied()) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => {
                        "plans support the builtins listed in docs/plan-language.md (`baton guide`)"
                            .to_owned()
                    }
                },
            };
            self.error(
                Code::UnsupportedBuiltin,
                span,
                format!("builtin {} is not supported in plans", shown(raw, name)),
                help,
            );
        }
    }

    fn undefined(&mut self, raw: &str, name: &str, span: Span) {
        let help = if policy::BATON_SDK.contains(&name) {
            format!("`{name}` comes from the SDK: add `from baton import {name}`")
        } else if let Some(module) = policy::module(name) {
            format!("add `import {}`", module.name)
        } else if !policy::import_alternative(name).is_empty() {
            format!(
                "`{name}` is not available in plans: {}",
                policy::import_alternative(name)
            )
        } else {
            let mut candidates: Vec<&str> = Vec::new();
            for scope in &self.scopes {
                candidates.extend(scope.bindings.keys().map(String::as_str));
            }
            candidates.extend(policy::SUPPORTED_BUILTINS.iter().copied());
            candidates.extend(policy::BATON_SDK.iter().copied());
            match suggest::closest(name, candidates) {
                Some(close) if policy::BATON_SDK.contains(&close) && !self.is_bound(close) => {
                    format!("did you mean `{close}`? add `from baton import {close}`")
                }
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("define `{name}` before using it, or pass it in through `inputs`"),
            }
        };
        self.error(
            Code::UndefinedName,
            span,
            format!("undefined name {}", shown(raw, name)),
            help,
        );
    }

    fn is_bound(&self, name: &str) -> bool {
        matches!(self.resolve(name), Resolution::Bound(..))
    }

    // ----- scopes ----------------------------------------------------------------------------

    /// Enters a function, lambda or class scope: binds its parameters and validates its
    /// `nonlocal` declarations against the scopes that enclose it.
    fn push_scope(&mut self, mut scope: Scope, params: &[(String, Span)]) {
        for (name, _) in params {
            scope.bind(name.clone(), Binding::Value);
        }
        let mut declared: Vec<(&String, &usize)> = scope.nonlocals.iter().collect();
        declared.sort_by_key(|(_, offset)| **offset);
        let mut problems = Vec::new();
        for (name, &offset) in declared {
            let span = self.word_span(self.span_at(offset, usize::MAX / 2), name);
            let span = if span.end - span.start > name.len() * 4 + 16 {
                self.span_at(offset, "nonlocal".len())
            } else {
                span
            };
            let problem = if scope.kind == ScopeKind::Module || scope.kind == ScopeKind::Class {
                Some("`nonlocal` is only allowed inside a nested function".to_owned())
            } else if params.iter().any(|(p, _)| p == name) {
                Some(format!(
                    "`{name}` is a parameter and cannot also be nonlocal"
                ))
            } else if scope
                .first_occurrence
                .get(name)
                .is_some_and(|&first| first < offset)
            {
                Some(format!("`{name}` is used before its nonlocal declaration"))
            } else if !self.enclosing_function_binds(name) {
                Some(format!(
                    "no binding for nonlocal `{name}` in an enclosing function"
                ))
            } else {
                None
            };
            if let Some(message) = problem {
                problems.push((span, message));
            }
        }
        let mut global_problems = Vec::new();
        if matches!(
            scope.kind,
            ScopeKind::Function | ScopeKind::Lambda | ScopeKind::Module
        ) {
            let mut declared: Vec<(&String, &usize)> = scope.globals.iter().collect();
            declared.sort_by_key(|(_, offset)| **offset);
            for (name, &offset) in declared {
                let span = self.word_span(self.span_at(offset, usize::MAX / 2), name);
                let span = if span.end - span.start > name.len() * 4 + 16 {
                    self.span_at(offset, "global".len())
                } else {
                    span
                };
                // CPython's words (Python/symtable.c).
                let problem = if params.iter().any(|(p, _)| p == name) {
                    Some(format!("name '{name}' is parameter and global"))
                } else if scope.nonlocals.contains_key(name) {
                    Some(format!("name '{name}' is nonlocal and global"))
                } else if scope
                    .first_occurrence
                    .get(name)
                    .is_some_and(|&first| first < offset)
                {
                    Some(format!(
                        "name '{name}' is used or assigned to before its global declaration"
                    ))
                } else {
                    None
                };
                if let Some(message) = problem {
                    global_problems.push((span, message));
                }
            }
        }
        for (span, message) in global_problems {
            self.error(
                Code::InvalidGlobal,
                span,
                message,
                "declare `global x` at the top of the function, before any use of `x`",
            );
        }
        for (span, message) in problems {
            self.error(
                Code::InvalidNonlocal,
                span,
                message,
                "declare `nonlocal x` first in a function nested inside the function that assigns `x`",
            );
        }
        self.scopes.push(scope);
    }

    fn enclosing_function_binds(&self, name: &str) -> bool {
        self.scopes.iter().rev().any(|scope| {
            matches!(
                scope.kind,
                ScopeKind::Function | ScopeKind::Lambda | ScopeKind::Comprehension
            ) && (scope.bindings.contains_key(name) || scope.nonlocals.contains_key(name))
        })
    }

    fn in_function(&self) -> bool {
        self.scopes
            .iter()
            .rev()
            .any(|s| matches!(s.kind, ScopeKind::Function))
            && !matches!(self.scopes.last().map(|s| s.kind), Some(ScopeKind::Class))
    }

    fn module(&mut self, body: &[ast::Stmt]) {
        let scope = Scope::of_block(ScopeKind::Module, body);
        self.push_scope(scope, &[]);
        self.stmts(body);
        self.scopes.pop();
        self.unused_sdk_imports();
    }

    /// B501: an SDK name imported at module level that nothing reads. The compiler leaves the
    /// host call of such a name out of the module, so the warning is also what tells a planner
    /// that its import claims a capability the plan does not use.
    fn unused_sdk_imports(&mut self) {
        for (name, span) in std::mem::take(&mut self.sdk_imports) {
            if self.module_reads.contains(&name) {
                continue;
            }
            self.report(
                Diagnostic::warning(
                    Code::UnusedImport,
                    span,
                    format!("`{name}` is imported from baton but never used"),
                )
                .with_help(format!("remove `{name}` from the import")),
            );
        }
    }

    /// Checks parameters (their names, and their defaults and annotations, which are
    /// evaluated in the enclosing scope) and returns them for binding in the new scope. The
    /// parser already rejects duplicate parameters.
    fn parameters(&mut self, args: &ast::Arguments) -> Vec<(String, Span)> {
        let with_defaults = || {
            args.posonlyargs
                .iter()
                .chain(&args.args)
                .chain(&args.kwonlyargs)
        };
        for arg in with_defaults() {
            self.opt_expr(&arg.default);
        }
        let mut all: Vec<&ast::Arg> = with_defaults().map(|a| &a.def).collect();
        all.extend(args.vararg.iter().map(|a| &**a));
        all.extend(args.kwarg.iter().map(|a| &**a));
        let mut params = Vec::new();
        for arg in all {
            self.opt_expr(&arg.annotation);
            let raw = arg.arg.as_str();
            let span = self.span_at(arg.range.start().to_usize(), raw.len());
            if let Some(name) = self.identifier(raw, span) {
                params.push((name.into_owned(), span));
            }
        }
        params
    }

    // ----- statements ------------------------------------------------------------------------

    fn stmts(&mut self, body: &[ast::Stmt]) {
        for stmt in body {
            self.stmt(stmt);
        }
    }

    fn opt_expr(&mut self, expr: &Option<Box<ast::Expr>>) {
        if let Some(expr) = expr {
            self.expr(expr);
        }
    }

    fn keyword_span(&self, stmt_start: usize, keyword: &str) -> Span {
        self.span_at(stmt_start, keyword.len())
    }

    fn stmt(&mut self, stmt: &ast::Stmt) {
        use ast::Stmt as S;
        let range: Span = stmt.range().into();
        match stmt {
            S::FunctionDef(f) => self.function(
                range,
                f.name.as_str(),
                &f.args,
                &f.body,
                &f.decorator_list,
                f.returns.as_deref(),
                !f.type_params.is_empty(),
            ),
            S::AsyncFunctionDef(f) => {
                self.error(
                    Code::AsyncSyntax,
                    self.keyword_span(range.start, "async def"),
                    "`async def` is not supported in plans".to_owned(),
                    "write a plain `def`; run work concurrently with `parallel([...])` or `branch([...])` from baton",
                );
                self.function(
                    range,
                    f.name.as_str(),
                    &f.args,
                    &f.body,
                    &f.decorator_list,
                    f.returns.as_deref(),
                    !f.type_params.is_empty(),
                );
            }
            S::ClassDef(c) => self.class(range, c),
            S::Return(r) => {
                if !self.in_function() {
                    self.error(
                        Code::InvalidStatement,
                        self.keyword_span(range.start, "return"),
                        "`return` outside a function".to_owned(),
                        "return from inside a `def`; at the top level, print the result instead",
                    );
                }
                self.opt_expr(&r.value);
            }
            S::Delete(d) => d
                .targets
                .iter()
                .for_each(|t| self.target_of(t, TargetKind::Delete)),
            S::Assign(a) => {
                self.expr(&a.value);
                a.targets
                    .iter()
                    .for_each(|t| self.target_of(t, TargetKind::Assign));
            }
            S::TypeAlias(t) => {
                self.error(
                    Code::NewerSyntax,
                    self.keyword_span(range.start, "type"),
                    "`type` alias statements are Python 3.12 syntax".to_owned(),
                    "plans are Python 3.11: assign the type to a name, or drop it",
                );
                self.expr(&t.value);
            }
            S::AugAssign(a) => {
                self.expr(&a.value);
                self.target_of(&a.target, TargetKind::Augmented);
                if let ast::Expr::Name(name) = &*a.target {
                    self.name_load(name.id.as_str(), name.range.into());
                }
            }
            S::AnnAssign(a) => {
                self.expr(&a.annotation);
                self.opt_expr(&a.value);
                self.target_of(&a.target, TargetKind::Annotated);
            }
            S::For(f) => {
                self.expr(&f.iter);
                self.target_of(&f.target, TargetKind::Assign);
                self.loop_body(&f.body);
                self.stmts(&f.orelse);
            }
            S::AsyncFor(f) => {
                self.error(
                    Code::AsyncSyntax,
                    self.keyword_span(range.start, "async for"),
                    "`async for` is not supported in plans".to_owned(),
                    "use a plain `for` loop",
                );
                self.expr(&f.iter);
                self.target_of(&f.target, TargetKind::Assign);
                self.loop_body(&f.body);
                self.stmts(&f.orelse);
            }
            S::While(w) => {
                self.expr(&w.test);
                self.loop_body(&w.body);
                self.stmts(&w.orelse);
            }
            S::If(i) => {
                self.expr(&i.test);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            S::With(w) => {
                self.error(
                    Code::WithStatement,
                    self.keyword_span(range.start, "with"),
                    "`with` statements are not supported in plans".to_owned(),
                    "plans have no context managers: call functions directly, and read files with bash(\"cat FILE\")",
                );
                self.with_items(&w.items);
                self.stmts(&w.body);
            }
            S::AsyncWith(w) => {
                self.error(
                    Code::AsyncSyntax,
                    self.keyword_span(range.start, "async with"),
                    "`async with` is not supported in plans".to_owned(),
                    "plans are synchronous and have no context managers; call functions directly",
                );
                self.with_items(&w.items);
                self.stmts(&w.body);
            }
            S::Match(m) => {
                self.error(
                    Code::MatchStatement,
                    self.keyword_span(range.start, "match"),
                    "`match` statements are not supported in plans".to_owned(),
                    "use an if/elif chain",
                );
                self.expr(&m.subject);
                for case in &m.cases {
                    self.pattern(&case.pattern);
                    self.opt_expr(&case.guard);
                    self.stmts(&case.body);
                }
            }
            S::Raise(r) => {
                self.opt_expr(&r.exc);
                self.opt_expr(&r.cause);
            }
            S::Try(t) => self.try_parts(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            S::TryStar(t) => {
                for ast::ExceptHandler::ExceptHandler(handler) in &t.handlers {
                    let span = self.span_at(handler.range.start().to_usize(), "except*".len());
                    self.error(
                        Code::ExceptStar,
                        span,
                        "`except*` (exception groups) is not supported in plans".to_owned(),
                        "use a plain `except` clause",
                    );
                }
                self.try_parts(&t.body, &t.handlers, &t.orelse, &t.finalbody);
            }
            S::Assert(a) => {
                self.expr(&a.test);
                self.opt_expr(&a.msg);
            }
            S::Import(i) => self.import(i),
            S::ImportFrom(i) => self.import_from(range, i),
            S::Global(g) => {
                for name in &g.names {
                    let span = self.word_span(range, name.as_str());
                    self.identifier(name.as_str(), span);
                }
            }
            S::Nonlocal(n) => {
                for name in &n.names {
                    let span = self.word_span(range, name.as_str());
                    self.identifier(name.as_str(), span);
                }
            }
            S::Expr(e) => self.expr(&e.value),
            S::Pass(_) => {}
            S::Break(_) | S::Continue(_) => {
                if self.loop_depth == 0 {
                    let keyword = if matches!(stmt, S::Break(_)) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.error(
                        Code::InvalidStatement,
                        range,
                        format!("`{keyword}` outside a loop"),
                        "use `break` and `continue` only inside `for` and `while` loops",
                    );
                }
            }
        }
    }

    fn loop_body(&mut self, body: &[ast::Stmt]) {
        self.loop_depth += 1;
        self.stmts(body);
        self.loop_depth -= 1;
    }

    fn with_items(&mut self, items: &[ast::WithItem]) {
        for item in items {
            self.expr(&item.context_expr);
            if let Some(vars) = &item.optional_vars {
                self.target_of(vars, TargetKind::Assign);
            }
        }
    }

    fn try_parts(
        &mut self,
        body: &[ast::Stmt],
        handlers: &[ast::ExceptHandler],
        orelse: &[ast::Stmt],
        finalbody: &[ast::Stmt],
    ) {
        self.stmts(body);
        for (i, ast::ExceptHandler::ExceptHandler(handler)) in handlers.iter().enumerate() {
            if handler.type_.is_none() && i + 1 < handlers.len() {
                let span = self.span_at(handler.range.start().to_usize(), "except".len());
                self.error(
                    Code::InvalidStatement,
                    span,
                    "a bare `except:` must be the last except clause".to_owned(),
                    "move it after the clauses that name exception types",
                );
            }
            self.opt_expr(&handler.type_);
            if let Some(name) = &handler.name {
                let within = Span::from(handler.range);
                let header_end = handler
                    .body
                    .first()
                    .map_or(within.end, |s| s.range().start().to_usize());
                let span = self.word_span(Span::new(within.start, header_end), name.as_str());
                self.identifier(name.as_str(), span);
            }
            self.stmts(&handler.body);
        }
        self.stmts(orelse);
        self.stmts(finalbody);
    }

    #[allow(clippy::too_many_arguments)]
    fn function(
        &mut self,
        range: Span,
        raw_name: &str,
        args: &ast::Arguments,
        body: &[ast::Stmt],
        decorators: &[ast::Expr],
        returns: Option<&ast::Expr>,
        has_type_params: bool,
    ) {
        for decorator in decorators {
            // The `@` sits just before the decorator expression.
            let start = decorator.range().start().to_usize().saturating_sub(1);
            let span = Span::new(start, decorator.range().end().to_usize());
            self.error(
                Code::Decorator,
                span,
                "decorators are not supported in plans".to_owned(),
                "apply the wrapper explicitly after the definition: `f = wrapper(f)`",
            );
            self.expr(decorator);
        }
        let header_end = body
            .first()
            .map_or(range.end, |s| s.range().start().to_usize());
        let name_span = self.word_span(Span::new(range.start, header_end), raw_name);
        self.identifier(raw_name, name_span);
        if has_type_params {
            self.error(
                Code::NewerSyntax,
                name_span,
                "type parameters (`def f[T](...)`) are Python 3.12 syntax".to_owned(),
                "plans are Python 3.11: drop the type parameters",
            );
        }
        let params = self.parameters(args);
        if let Some(returns) = returns {
            self.expr(returns);
        }
        let scope = Scope::of_block(ScopeKind::Function, body);
        self.push_scope(scope, &params);
        let saved_loops = std::mem::replace(&mut self.loop_depth, 0);
        self.stmts(body);
        self.loop_depth = saved_loops;
        self.scopes.pop();
    }

    fn class(&mut self, range: Span, class: &ast::StmtClassDef) {
        self.error(
            Code::ClassDefinition,
            self.keyword_span(range.start, "class"),
            format!(
                "class `{}` cannot be defined: plans have no classes",
                class.name.as_str()
            ),
            "use dicts (or tuples) for records and plain functions for behaviour",
        );
        for decorator in &class.decorator_list {
            self.expr(decorator);
        }
        class.bases.iter().for_each(|b| self.expr(b));
        class.keywords.iter().for_each(|k| self.expr(&k.value));
        let header_end = class
            .body
            .first()
            .map_or(range.end, |s| s.range().start().to_usize());
        let name_span = self.word_span(Span::new(range.start, header_end), class.name.as_str());
        self.identifier(class.name.as_str(), name_span);
        let scope = Scope::of_block(ScopeKind::Class, &class.body);
        self.push_scope(scope, &[]);
        let saved_loops = std::mem::replace(&mut self.loop_depth, 0);
        self.stmts(&class.body);
        self.loop_depth = saved_loops;
        self.scopes.pop();
    }

    // ----- imports ---------------------------------------------------------------------------

    fn forbidden_import(&mut self, span: Span, module: &str) {
        self.error(
            Code::ForbiddenImport,
            span,
            format!("import of module `{module}` is not allowed in plans"),
            match policy::import_alternative(module) {
                "" => format!("plans may import only: {}", policy::allowed_module_list()),
                alternative => {
                    format!(
                        "{alternative}; plans may import only: {}",
                        policy::allowed_module_list()
                    )
                }
            },
        );
    }

    fn import(&mut self, import: &ast::StmtImport) {
        for alias in &import.names {
            let raw = alias.name.as_str();
            let module: String = raw
                .split('.')
                .map(|part| normalize(part).into_owned())
                .collect::<Vec<_>>()
                .join(".");
            let span = self.span_at(alias.range.start().to_usize(), raw.len());
            if module.split('.').any(is_dunder) {
                self.identifier(&module, span);
            }
            if self.importable(&module).is_none() {
                self.forbidden_import(span, &module);
            } else if module.contains('.') {
                // The compiler binds only whole modules by `import`; a library module's names
                // are imported with `from`, so check and compile agree on what runs.
                self.error(
                    Code::DottedImport,
                    span,
                    format!("`import {module}` is not supported in plans"),
                    format!("write `from {module} import NAME` for the names you use"),
                );
            }
            if let Some(asname) = &alias.asname {
                let span = self.word_span(alias.range.into(), asname.as_str());
                self.identifier(asname.as_str(), span);
            }
        }
    }

    fn import_from(&mut self, range: Span, import: &ast::StmtImportFrom) {
        let level = import.level.map_or(0, |level| level.to_u32());
        let module_raw = import.module.as_ref().map(|m| m.as_str());
        if level > 0 {
            let dots = ".".repeat(level as usize);
            self.error(
                Code::RelativeImport,
                range,
                format!(
                    "relative import `from {dots}{} import ...` is not allowed in plans",
                    module_raw.unwrap_or("")
                ),
                format!(
                    "a plan is a single file; it may import only: {}",
                    policy::allowed_module_list()
                ),
            );
        }
        let spec = match module_raw {
            Some(raw) if level == 0 => {
                let module: String = raw
                    .split('.')
                    .map(|part| normalize(part).into_owned())
                    .collect::<Vec<_>>()
                    .join(".");
                let span = self.word_span(range, raw.split('.').next().unwrap_or(raw));
                let span = Span::new(span.start, span.start + raw.len());
                if module.split('.').any(is_dunder) {
                    self.identifier(&module, span);
                }
                let spec = self.importable(&module);
                if spec.is_none() {
                    self.forbidden_import(self.span_at(span.start, raw.len()), &module);
                }
                spec
            }
            _ => None,
        };
        for alias in &import.names {
            let raw = alias.name.as_str();
            let span = self.span_at(alias.range.start().to_usize(), raw.len());
            if raw == "*" {
                self.error(
                    Code::StarImport,
                    span,
                    "star imports are not allowed in plans".to_owned(),
                    match spec {
                        Some(spec) => format!(
                            "import the names you use: `from {} import {}`",
                            spec.name,
                            spec.members.join(", ")
                        ),
                        None => "import the names you use explicitly".to_owned(),
                    },
                );
                continue;
            }
            let Some(name) = self.identifier(raw, span) else {
                continue;
            };
            if let Some(spec) = spec {
                if !spec.members.contains(&name.as_ref()) {
                    self.unknown_member(span, spec, raw, &name);
                }
            }
            let known = spec.is_some_and(|spec| spec.members.contains(&name.as_ref()));
            let bound = match &alias.asname {
                Some(asname) => {
                    let span = self.word_span(alias.range.into(), asname.as_str());
                    self.identifier(asname.as_str(), span)
                        .map(|bound| bound.into_owned())
                }
                None => Some(name.into_owned()),
            };
            let at_module_level = self.scopes.len() == 1;
            // An unknown member is already an error (B102), not also an unused import.
            if let (Some(bound), Some(spec), true) = (bound, spec, at_module_level && known) {
                if spec.name == "baton" {
                    self.sdk_imports.push((bound, alias.range.into()));
                }
            }
        }
    }

    fn unknown_member(&mut self, span: Span, spec: &policy::ModuleSpec, raw: &str, name: &str) {
        let available = spec.members.join(", ");
        let help = match suggest::closest(name, spec.members.iter().copied()) {
            Some(close) => format!(
                "did you mean `{close}`? `{}` provides: {available}",
                spec.name
            ),
            None => format!("`{}` provides: {available}", spec.name),
        };
        self.error(
            Code::UnknownModuleMember,
            span,
            format!("module `{}` has no member {}", spec.name, shown(raw, name)),
            help,
        );
    }

    // ----- expressions -----------------------------------------------------------------------

    /// A target as CPython's compiler validates it, then walked by [`Self::target`].
    fn target_of(&mut self, target: &ast::Expr, kind: TargetKind) {
        self.validate_target(target, kind, false);
        self.target(target);
    }

    fn validate_target(&mut self, target: &ast::Expr, kind: TargetKind, nested: bool) {
        use ast::Expr as E;
        let problem = match target {
            E::Name(_) | E::Attribute(_) | E::Subscript(_) => None,
            E::Tuple(_) | E::List(_)
                if matches!(kind, TargetKind::Augmented | TargetKind::Annotated) =>
            {
                Some(format!(
                    "cannot use a {} as the target of {}",
                    describe(target),
                    kind.describe()
                ))
            }
            E::Tuple(ast::ExprTuple { elts, .. }) | E::List(ast::ExprList { elts, .. }) => {
                let starred = elts.iter().filter(|e| matches!(e, E::Starred(_))).count();
                if starred > 1 {
                    self.error(
                        Code::InvalidStatement,
                        target.range().into(),
                        "multiple starred expressions in one assignment".to_owned(),
                        "unpack into at most one `*name`",
                    );
                }
                for element in elts {
                    self.validate_target(element, kind, true);
                }
                None
            }
            E::Starred(starred) if nested && kind != TargetKind::Delete => {
                self.validate_target(&starred.value, kind, true);
                None
            }
            E::Starred(_) if kind == TargetKind::Delete => {
                Some("cannot delete a starred expression".to_owned())
            }
            E::Starred(_) => {
                Some("a starred assignment target must be in a list or tuple".to_owned())
            }
            other => Some(format!("cannot {} {}", kind.verb(), describe(other))),
        };
        if let Some(message) = problem {
            self.error(
                Code::InvalidStatement,
                target.range().into(),
                message,
                "targets are names, attributes (x.a), subscripts (x[i]) and tuples or lists of them",
            );
        }
    }

    /// An assignment target: names are bound (checked as identifiers), everything else is
    /// evaluated.
    fn target(&mut self, target: &ast::Expr) {
        match target {
            ast::Expr::Name(name) => {
                self.identifier(name.id.as_str(), name.range.into());
            }
            ast::Expr::Tuple(t) => t.elts.iter().for_each(|e| self.target(e)),
            ast::Expr::List(l) => l.elts.iter().for_each(|e| self.target(e)),
            ast::Expr::Starred(s) => self.target(&s.value),
            other => self.expr(other),
        }
    }

    fn pattern(&mut self, pattern: &ast::Pattern) {
        use ast::Pattern as P;
        match pattern {
            P::MatchValue(v) => self.expr(&v.value),
            P::MatchSingleton(_) | P::MatchStar(_) => {}
            P::MatchSequence(s) => s.patterns.iter().for_each(|p| self.pattern(p)),
            P::MatchMapping(m) => {
                m.keys.iter().for_each(|k| self.expr(k));
                m.patterns.iter().for_each(|p| self.pattern(p));
            }
            P::MatchClass(c) => {
                self.expr(&c.cls);
                c.patterns
                    .iter()
                    .chain(&c.kwd_patterns)
                    .for_each(|p| self.pattern(p));
            }
            P::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
            }
            P::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p)),
        }
    }

    fn exprs(&mut self, exprs: &[ast::Expr]) {
        for expr in exprs {
            self.expr(expr);
        }
    }

    fn expr(&mut self, expr: &ast::Expr) {
        use ast::Expr as E;
        let range: Span = expr.range().into();
        match expr {
            E::Name(name) => match name.ctx {
                ast::ExprContext::Store => {
                    self.identifier(name.id.as_str(), range);
                }
                _ => self.name_load(name.id.as_str(), range),
            },
            E::Attribute(a) => self.attribute(a),
            E::Constant(c) => self.constant(range, &c.value),
            E::Call(c) => {
                self.expr(&c.func);
                self.elements(&c.args);
                self.genexp_arguments(c);
                for keyword in &c.keywords {
                    if let Some(arg) = &keyword.arg {
                        let span =
                            self.span_at(keyword.range.start().to_usize(), arg.as_str().len());
                        self.identifier(arg.as_str(), span);
                    }
                    self.expr(&keyword.value);
                }
                self.str_format_call(c);
                self.sdk_call(c);
            }
            E::Lambda(l) => {
                let params = self.parameters(&l.args);
                let scope = Scope::of_lambda(&l.body);
                self.push_scope(scope, &params);
                self.expr(&l.body);
                self.scopes.pop();
            }
            E::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            E::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            E::GeneratorExp(c) => self.comprehension(&c.generators, &[&c.elt]),
            E::DictComp(c) => self.comprehension(&c.generators, &[&c.key, &c.value]),
            E::Await(a) => {
                self.error(
                    Code::AsyncSyntax,
                    self.keyword_span(range.start, "await"),
                    "`await` is not supported in plans".to_owned(),
                    "call functions directly; run work concurrently with `parallel([...])` from baton",
                );
                self.expr(&a.value);
            }
            E::Yield(y) => {
                self.generator(range, "yield");
                self.opt_expr(&y.value);
            }
            E::YieldFrom(y) => {
                self.generator(range, "yield from");
                self.expr(&y.value);
            }
            E::NamedExpr(n) => self.named_expr(n),
            E::BoolOp(b) => self.exprs(&b.values),
            E::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            E::UnaryOp(u) => self.expr(&u.operand),
            E::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            E::Dict(d) => {
                d.keys.iter().flatten().for_each(|k| self.expr(k));
                self.exprs(&d.values);
            }
            E::Set(s) => self.elements(&s.elts),
            E::Compare(c) => {
                self.expr(&c.left);
                self.exprs(&c.comparators);
            }
            E::FormattedValue(f) => {
                self.expression_part_backslash(f);
                if f.conversion == ast::ConversionFlag::Ascii {
                    self.error(
                        Code::UnsupportedBuiltin,
                        range,
                        "the `!a` conversion calls ascii(), which plans do not support".to_owned(),
                        "use `!r` for the repr, or no conversion",
                    );
                }
                self.expr(&f.value);
                self.opt_expr(&f.format_spec);
            }
            E::JoinedStr(j) => {
                self.literal_spec_escapes(j);
                self.exprs(&j.values);
            }
            E::Subscript(s) => {
                self.expr(&s.value);
                // `a[*b]` is valid Python 3.11 (PEP 646).
                match &*s.slice {
                    E::Starred(starred) => self.expr(&starred.value),
                    slice => self.expr(slice),
                }
            }
            E::Starred(s) => {
                self.error(
                    Code::InvalidStatement,
                    range,
                    "a starred expression cannot be used here".to_owned(),
                    "unpack with `*` only inside a list, tuple or set display, a call's arguments, or an assignment target",
                );
                self.expr(&s.value);
            }
            E::List(l) => self.elements(&l.elts),
            E::Tuple(t) => self.elements(&t.elts),
            E::Slice(s) => {
                self.opt_expr(&s.lower);
                self.opt_expr(&s.upper);
                self.opt_expr(&s.step);
            }
        }
    }

    fn generator(&mut self, range: Span, keyword: &str) {
        self.error(
            Code::Generator,
            self.keyword_span(range.start, keyword),
            format!("`{keyword}` (generators) is not supported in plans"),
            "build a list and return it",
        );
    }

    fn comprehension(&mut self, generators: &[ast::Comprehension], elements: &[&ast::Expr]) {
        // The first iterable is evaluated in the enclosing scope.
        if let Some(first) = generators.first() {
            self.comprehension_iterable(&first.iter);
        }
        let scope = Scope::of_comprehension(generators);
        let targets: HashSet<String> = scope.bindings.keys().cloned().collect();
        self.comprehension_targets.push(targets);
        self.push_scope(scope, &[]);
        for (i, generator) in generators.iter().enumerate() {
            if generator.is_async {
                let span = self.span_at(generator.range.start().to_usize(), "async for".len());
                self.error(
                    Code::AsyncSyntax,
                    span,
                    "`async for` in a comprehension is not supported in plans".to_owned(),
                    "use a plain `for` clause",
                );
            }
            if i > 0 {
                self.comprehension_iterable(&generator.iter);
            }
            self.target_of(&generator.target, TargetKind::Assign);
            self.exprs(&generator.ifs);
        }
        for element in elements {
            self.expr(element);
        }
        self.scopes.pop();
        self.comprehension_targets.pop();
    }

    fn comprehension_iterable(&mut self, iterable: &ast::Expr) {
        self.comprehension_iterables += 1;
        self.expr(iterable);
        self.comprehension_iterables -= 1;
    }

    /// `x := value`, with CPython's two compile-time rules for comprehensions.
    fn named_expr(&mut self, named: &ast::ExprNamedExpr) {
        self.expr(&named.value);
        if self.comprehension_iterables > 0 {
            self.error(
                Code::InvalidStatement,
                named.range.into(),
                "an assignment expression cannot be used in a comprehension's iterable".to_owned(),
                "assign the iterable to a variable before the comprehension",
            );
        }
        if let ast::Expr::Name(name) = &*named.target {
            let bound = normalize(name.id.as_str());
            if self
                .comprehension_targets
                .iter()
                .any(|targets| targets.contains(bound.as_ref()))
            {
                self.error(
                    Code::InvalidStatement,
                    named.range.into(),
                    format!("an assignment expression cannot rebind the comprehension variable `{bound}`"),
                    "assign to a different name",
                );
            }
        }
        self.target(&named.target);
    }

    /// Elements of a display or a call's positional arguments, where `*x` unpacks.
    fn elements(&mut self, elements: &[ast::Expr]) {
        for element in elements {
            match element {
                ast::Expr::Starred(starred) => self.expr(&starred.value),
                other => self.expr(other),
            }
        }
    }

    /// CPython requires a generator expression to be parenthesised unless it is a call's only
    /// argument: `f(x for x in y, 2)` is a SyntaxError.
    fn genexp_arguments(&mut self, call: &ast::ExprCall) {
        if call.args.len() + call.keywords.len() < 2 {
            return;
        }
        for argument in &call.args {
            if let ast::Expr::GeneratorExp(genexp) = argument {
                let start = self.file.clamp(genexp.range.start().to_usize());
                if !self.file.text()[start..].starts_with('(') {
                    self.error(
                        Code::InvalidStatement,
                        genexp.range.into(),
                        "a generator expression must be parenthesised when it is not the only argument".to_owned(),
                        "wrap it in parentheses, or build a list with [...]",
                    );
                }
            }
        }
    }

    fn constant(&mut self, range: Span, value: &Constant) {
        let (what, help) = match value {
            Constant::Bytes(_) => ("bytes literals are", "use a str literal"),
            Constant::Complex { .. } => ("complex numbers are", "use float"),
            _ => return,
        };
        self.error(
            Code::UnsupportedLiteral,
            range,
            format!("{what} not supported in plans"),
            help,
        );
    }

    fn attribute(&mut self, attribute: &ast::ExprAttribute) {
        let raw = attribute.attr.as_str();
        let name = normalize(raw);
        let end = attribute.range.end().to_usize();
        let span = self.span_at(end.saturating_sub(raw.len()), raw.len());
        if name.starts_with('_') {
            self.error(
                Code::PrivateAttribute,
                span,
                format!("attribute {} is not allowed in plans", shown(raw, &name)),
                "attributes that start with `_` reach interpreter internals; use the public methods of str, list and dict",
            );
        } else if policy::REFLECTIVE_ATTRIBUTES.contains(&name.as_ref()) {
            self.error(
                Code::ReflectiveAttribute,
                span,
                format!("attribute {} reaches interpreter internals and is not allowed", shown(raw, &name)),
                "plans cannot inspect frames, code objects or classes; pass the values you need explicitly",
            );
        } else if let ast::Expr::Name(base) = &*attribute.value {
            let base_name = normalize(base.id.as_str());
            if let Resolution::Bound(Binding::Module(spec), _) = self.resolve(&base_name) {
                if !spec.members.contains(&name.as_ref()) {
                    self.unknown_member(span, spec, raw, &name);
                }
            }
        }
        if name == "format" || name == "format_map" {
            if let Some(template) = literal_template(&attribute.value) {
                self.format_literal(&template, attribute.value.range().into());
            }
        }
        self.expr(&attribute.value);
    }

    /// A call of the SDK or the plan library, checked against its signature (B601-B603).
    fn sdk_call(&mut self, call: &ast::ExprCall) {
        let target = match &*call.func {
            ast::Expr::Name(name) => match self.resolve(&normalize(name.id.as_str())) {
                Resolution::Bound(Binding::Member(spec, member), _) => Some((spec, member)),
                _ => None,
            },
            ast::Expr::Attribute(attribute) => match &*attribute.value {
                ast::Expr::Name(base) => match self.resolve(&normalize(base.id.as_str())) {
                    Resolution::Bound(Binding::Module(spec), _) => {
                        let attr = normalize(attribute.attr.as_str());
                        spec.members
                            .iter()
                            .find(|m| **m == attr)
                            .map(|member| (spec, *member))
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some((spec, member)) = target else {
            return;
        };
        for problem in sdk_calls::check(spec.name, member, call) {
            self.error(problem.code, problem.span, problem.message, problem.help);
        }
    }

    /// `str.format("{0.__class__}", x)`: the literal is the first argument.
    fn str_format_call(&mut self, call: &ast::ExprCall) {
        let ast::Expr::Attribute(attribute) = &*call.func else {
            return;
        };
        let ast::Expr::Name(base) = &*attribute.value else {
            return;
        };
        let method = normalize(attribute.attr.as_str());
        if normalize(base.id.as_str()) != "str" || (method != "format" && method != "format_map") {
            return;
        }
        if !matches!(self.resolve("str"), Resolution::Builtin) {
            return;
        }
        if let Some(first) = call.args.first() {
            if let Some(template) = literal_template(first) {
                self.format_literal(&template, first.range().into());
            }
        }
    }

    fn format_literal(&mut self, format: &str, span: Span) {
        let mut seen = HashSet::new();
        for access in format_string::field_accesses(format) {
            if !seen.insert(access.field.clone()) {
                continue;
            }
            self.error(
                Code::FormatFieldAccess,
                span,
                format!(
                    "format field `{{{}}}` accesses an attribute or index, which plans may not do",
                    access.field
                ),
                "format plain values only: compute the value first, e.g. `\"{}\".format(x[0])` or an f-string",
            );
        }
    }
}

#[cfg(test)]
mod tests;
