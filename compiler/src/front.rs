//! The parser front end: source text to a rustpython AST, with syntax errors as diagnostics.

use rustpython_parser::{ast, Mode};

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::source::SourceFile;
use crate::Limits;

/// Stack for the thread that parses, checks and drops one tree. rustpython's parser is
/// table-driven, but dropping its tree (and any walk over it) recurses once per level, and a
/// hostile source can nest one level per byte (`x = ------1`). Measured in a debug build:
/// about 140 bytes of stack per level when a tree is dropped; we allow 256 per source byte on
/// top of a fixed base. The memory is reserved, not committed, until it is touched.
pub fn stack_size_for(source_len: usize) -> usize {
    const BASE: usize = 16 << 20;
    BASE.saturating_add(source_len.saturating_mul(256))
}

pub fn source_too_large(file: &SourceFile, limits: &Limits) -> Diagnostic {
    Diagnostic::error(
        Code::SourceTooLarge,
        Span::new(0, 0),
        format!(
            "plan source is {} bytes; the limit is {} bytes",
            file.text().len(),
            limits.max_source_bytes
        ),
    )
    .with_help("split the plan into smaller steps or move data into `inputs`")
}

/// Parses a whole plan. Syntax errors become one [`Code::SyntaxError`] diagnostic.
pub fn parse(file: &SourceFile) -> Result<Vec<ast::Stmt>, Diagnostic> {
    match rustpython_parser::parse(file.text(), Mode::Module, file.name()) {
        Ok(ast::Mod::Module(module)) => Ok(module.body),
        Ok(_) => Err(Diagnostic::error(
            Code::InternalError,
            Span::new(0, 0),
            "the parser returned something other than a module",
        )),
        Err(error) => {
            let offset = file.clamp(error.offset.to_usize());
            let end = file.text()[offset..]
                .chars()
                .next()
                .map_or(offset, |c| offset + c.len_utf8());
            Err(Diagnostic::error(
                Code::SyntaxError,
                Span::new(offset, end),
                format!("invalid syntax: {}", error.error),
            )
            .with_help("plans are Python 3.11 source; fix the syntax at the marked position"))
        }
    }
}
