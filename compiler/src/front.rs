//! The parser front end: source text to a rustpython AST, with syntax errors as diagnostics.

use rustpython_parser::lexer::{self, LexResult, LexicalErrorType};
use rustpython_parser::{ast, Mode, ParseErrorType, Tok};

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

/// CPython's tokenizer refuses more than 200 nested brackets ("too many nested parentheses")
/// and more than 100 levels of indentation; rustpython accepts both, so we apply CPython's
/// limits ourselves rather than accept plans CPython would not.
pub const MAX_BRACKET_DEPTH: usize = 200;
pub const MAX_INDENT_DEPTH: usize = 100;

/// The source's tokens up to and including the first lexical error. The lexer keeps yielding
/// errors after its first one; the parser stops at the first, so collecting stops there too
/// (collecting everything could grow without bound).
fn lex(text: &str) -> Vec<LexResult> {
    let mut tokens: Vec<LexResult> = Vec::new();
    for token in lexer::lex(text, Mode::Module) {
        let failed = token.is_err();
        tokens.push(token);
        if failed {
            break;
        }
    }
    tokens
}

/// How CPython names a compound statement by its first token, in "expected an indented block
/// after ..."; `None` for a token that starts no compound statement.
fn compound_statement(first: &Tok) -> Option<&'static str> {
    Some(match first {
        Tok::If => "'if' statement",
        Tok::Elif => "'elif' statement",
        Tok::Else => "'else' statement",
        Tok::For => "'for' statement",
        Tok::While => "'while' statement",
        Tok::Try => "'try' statement",
        Tok::Except => "'except' statement",
        Tok::Finally => "'finally' statement",
        Tok::With => "'with' statement",
        Tok::Def => "function definition",
        Tok::Class => "class definition",
        _ => return None,
    })
}

/// Parses a whole plan. Syntax errors become one [`Code::SyntaxError`] diagnostic. The source
/// is lexed once; the tokens are screened for CPython's nesting limits and then parsed.
pub fn parse(file: &SourceFile) -> Result<Vec<ast::Stmt>, Diagnostic> {
    let tokens = lex(file.text());
    screen_tokens(&tokens)?;
    screen_parameters(&tokens)?;
    match rustpython_parser::parse_tokens(tokens, Mode::Module, file.name()) {
        Ok(ast::Mod::Module(module)) => Ok(module.body),
        Ok(_) => Err(Diagnostic::error(
            Code::InternalError,
            Span::new(0, 0),
            "the parser returned something other than a module",
        )),
        Err(error) => {
            let at = error.offset.to_usize();
            if let Some((offset, message)) = cpython_wording(file.text(), &error.error, at) {
                let offset = file.clamp(offset);
                let end = file.text()[offset..]
                    .chars()
                    .next()
                    .map_or(offset, |c| offset + c.len_utf8());
                return Err(
                    Diagnostic::error(Code::SyntaxError, Span::new(offset, end), message)
                        .with_help(
                            "plans are Python 3.11 source; fix the syntax at the marked position",
                        ),
                );
            }
            let mut offset = file.clamp(error.offset.to_usize());
            // The lexer reports an unrecognised character just past it; point at it instead.
            if let ParseErrorType::Lexical(LexicalErrorType::UnrecognizedToken { tok }) =
                error.error
            {
                let before = offset.saturating_sub(tok.len_utf8());
                if file.text()[before..].starts_with(tok) {
                    offset = before;
                }
            }
            let end = file.text()[offset..]
                .chars()
                .next()
                .map_or(offset, |c| offset + c.len_utf8());
            Err(Diagnostic::error(
                Code::SyntaxError,
                Span::new(offset, end),
                syntax_message(&error.error.to_string()),
            )
            .with_help("plans are Python 3.11 source; fix the syntax at the marked position"))
        }
    }
}

fn screen_tokens(tokens: &[LexResult]) -> Result<(), Diagnostic> {
    let mut brackets = 0usize;
    let mut indents = 0usize;
    for (token, range) in tokens.iter().flatten() {
        match token {
            Tok::Lpar | Tok::Lsqb | Tok::Lbrace => {
                brackets += 1;
                if brackets > MAX_BRACKET_DEPTH {
                    return Err(Diagnostic::error(
                        Code::NestingTooDeep,
                        (*range).into(),
                        format!("more than {MAX_BRACKET_DEPTH} nested brackets (CPython's limit)"),
                    )
                    .with_help("split the expression into intermediate variables"));
                }
            }
            Tok::Rpar | Tok::Rsqb | Tok::Rbrace => brackets = brackets.saturating_sub(1),
            Tok::Indent => {
                indents += 1;
                if indents > MAX_INDENT_DEPTH {
                    return Err(Diagnostic::error(
                        Code::NestingTooDeep,
                        (*range).into(),
                        format!(
                            "more than {MAX_INDENT_DEPTH} levels of indentation (CPython's limit)"
                        ),
                    )
                    .with_help("move deeply nested blocks into helper functions"));
                }
            }
            Tok::Dedent => indents = indents.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Parameter lists rustpython's grammar accepts and CPython's refuses: `**` without a name
/// (`def f(a, **)`, `lambda **: 0`), and a bare `*` followed by `**kwargs` or by nothing
/// (`def f(*, **k)`). Only a `*` or `**` that starts a parameter (right after the opening
/// parenthesis, `lambda` or a comma, outside nested brackets) is one; `x*y` in a default is
/// multiplication.
fn screen_parameters(tokens: &[LexResult]) -> Result<(), Diagnostic> {
    let tokens: Vec<&(Tok, rustpython_parser::text_size::TextRange)> =
        tokens.iter().flatten().collect();
    let error = |range: rustpython_parser::text_size::TextRange, message: &str| {
        Diagnostic::error(Code::SyntaxError, range.into(), message.to_string())
            .with_help("plans are Python 3.11 source; fix the syntax at the marked position")
    };
    let mut i = 0;
    while i < tokens.len() {
        // Where a parameter list starts, and the token that ends it at depth 0.
        let (start, end) = match (&tokens[i].0, tokens.get(i + 1), tokens.get(i + 2)) {
            (Tok::Def, Some((Tok::Name { .. }, _)), Some((Tok::Lpar, _))) => (i + 3, Tok::Rpar),
            (Tok::Lambda, _, _) => (i + 1, Tok::Colon),
            _ => {
                i += 1;
                continue;
            }
        };
        let mut depth = 0usize;
        let mut at_parameter = true;
        let mut j = start;
        while let Some((token, range)) = tokens.get(j) {
            let next = tokens.get(j + 1).map(|(t, _)| t);
            match token {
                Tok::Lpar | Tok::Lsqb | Tok::Lbrace => depth += 1,
                Tok::Rpar | Tok::Rsqb | Tok::Rbrace if depth > 0 => depth -= 1,
                t if depth == 0 && *t == end => break,
                Tok::Newline => break,
                Tok::DoubleStar
                    if depth == 0 && at_parameter && !matches!(next, Some(Tok::Name { .. })) =>
                {
                    return Err(error(*range, "invalid syntax"));
                }
                Tok::Star if depth == 0 && at_parameter => {
                    let after = tokens.get(j + 2).map(|(t, _)| t);
                    let bare_then_nothing = matches!(next, Some(Tok::Rpar | Tok::Colon))
                        || (matches!(next, Some(Tok::Comma))
                            && matches!(after, Some(Tok::DoubleStar | Tok::Rpar | Tok::Colon)));
                    if bare_then_nothing {
                        return Err(error(*range, "named arguments must follow bare *"));
                    }
                }
                _ => {}
            }
            at_parameter = depth == 0 && matches!(token, Tok::Comma);
            j += 1;
        }
        i += 1;
    }
    Ok(())
}

/// CPython's message and position for the slips where rustpython words them otherwise:
/// brackets, which CPython's tokenizer judges over the whole source and which take precedence
/// over its parser's messages (an unmatched closer, a closer of the wrong kind, an opener never
/// closed), and a compound statement's missing colon (`if x` then a newline is CPython's
/// "expected ':'"). `at` is where rustpython's parser stopped. `None`: rustpython's message
/// stands.
fn cpython_wording(text: &str, error: &ParseErrorType, at: usize) -> Option<(usize, String)> {
    // The tokens again (the parser consumed them); this runs only for a plan that does not
    // parse.
    let tokens = lex(text);
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut complete = true;
    for token in &tokens {
        let (token, range) = match token {
            Ok(token) => token,
            Err(lexical) => {
                if lexical.error == LexicalErrorType::NestingError {
                    // Reported just past the closer.
                    let at = lexical.location.to_usize().saturating_sub(1);
                    let closer = text[at.min(text.len())..].chars().next().unwrap_or(')');
                    return Some((at, format!("unmatched '{closer}'")));
                }
                // The end of the source inside brackets is the lexer's Eof: the scan is whole.
                complete = lexical.error == LexicalErrorType::Eof;
                break;
            }
        };
        let start = range.start().to_usize();
        let (opener, closer) = match token {
            Tok::Lpar => ('(', None),
            Tok::Lsqb => ('[', None),
            Tok::Lbrace => ('{', None),
            Tok::Rpar => ('(', Some(')')),
            Tok::Rsqb => ('[', Some(']')),
            Tok::Rbrace => ('{', Some('}')),
            _ => continue,
        };
        let Some(closer) = closer else {
            open.push((opener, start));
            continue;
        };
        match open.pop() {
            None => return Some((start, format!("unmatched '{closer}'"))),
            Some((was, opened)) if was != opener => {
                let on = if line_of(opened) == line_of(start) {
                    String::new()
                } else {
                    format!(" on line {}", line_of(opened))
                };
                return Some((
                    start,
                    format!(
                        "closing parenthesis '{closer}' does not match opening parenthesis \
                         '{was}'{on}"
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    // CPython blames the innermost bracket left open when its parser stopped at the end of the
    // source, or on a later line than the bracket's (a statement swallowed by the bracket);
    // an error on the bracket's own line is the parser's.
    if complete {
        if let Some((opener, opened)) = open.last() {
            let at_end = matches!(
                error,
                ParseErrorType::Eof | ParseErrorType::Lexical(LexicalErrorType::Eof)
            );
            if at_end || line_of(at) > line_of(*opened) {
                return Some((*opened, format!("'{opener}' was never closed")));
            }
        }
    }
    // The first token of the logical line that ends with the newline at `newline`.
    let tokens: Vec<&(Tok, rustpython_parser::text_size::TextRange)> =
        tokens.iter().flatten().collect();
    let line_start = |newline: usize| {
        let starts = tokens[..newline]
            .iter()
            .rposition(|(token, _)| matches!(token, Tok::Newline | Tok::Indent | Tok::Dedent))
            .map_or(0, |p| p + 1);
        tokens.get(starts)
    };
    match error {
        // A compound statement's body that is not indented: CPython names the statement.
        ParseErrorType::UnrecognizedToken(_, Some(expected)) if expected == "Indent" => {
            let before = tokens.iter().rposition(|(token, range)| {
                matches!(token, Tok::Newline) && range.start().to_usize() < at
            })?;
            let (first, range) = line_start(before)?;
            let what = compound_statement(first)?;
            let line = line_of(range.start().to_usize());
            Some((
                at,
                format!("expected an indented block after {what} on line {line}"),
            ))
        }
        // A compound statement's header that ends at a newline without its colon.
        ParseErrorType::UnrecognizedToken(Tok::Newline, _) => {
            let newline = tokens.iter().position(|(token, range)| {
                matches!(token, Tok::Newline) && range.start().to_usize() == at
            })?;
            let (first, _) = line_start(newline)?;
            compound_statement(first).map(|_| (at, "expected ':'".to_string()))
        }
        _ => None,
    }
}

/// rustpython's messages, phrased like CPython's: CPython's own words where rustpython has
/// them (indentation, f-strings), else starting with "invalid syntax".
fn syntax_message(parser_message: &str) -> String {
    let message = parser_message
        .replace("Got unexpected", "unexpected")
        .replace("invalid syntax. ", "invalid syntax: ");
    let cpython_words = [
        "unexpected indent",
        "unindent does not match any outer indentation level",
    ]
    .contains(&message.as_str())
        || message.starts_with("f-string: ");
    if message.starts_with("invalid syntax") || cpython_words {
        message
    } else {
        format!("invalid syntax: {message}")
    }
}
