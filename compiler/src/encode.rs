//! A plan module's text encoded in the WebAssembly binary format.
//!
//! The code generator writes WAT (folded instructions, names for everything) and
//! `baton_runtime::linking::assemble_plan` wraps it in a module; this turns that text into the
//! binary. It reads only the dialect those two write, which is small and regular: a `(module`
//! of imports (one memory, one table, one tag, functions, globals), immutable globals, `(type`
//! definitions, one passive `(data`, one passive `(elem` of functions, `(func`s and a `(start`;
//! function bodies of folded instructions only (no flat `end`/`else`), ~75 kinds of
//! instruction. Anything else is an error naming the place: the generator's bug, which the
//! conformance suite and the differential tester catch.
//!
//! Why not the `wat` crate, which handled this before: a general parser (every token class,
//! annotations, name resolution through maps, a second pass to expand inline types) was half of
//! the compiler's time on a large plan and a tenth of the differential tester's per plan
//! (~0.9 MB of text for an 800-line generated plan: 14 ms, against 2 ms here). The output is
//! the same module as `wat`'s byte for byte, but for the name section, which keeps the
//! functions' names (for wasmtime's backtraces and perf maps) and drops the locals' (13% of a
//! module, useful only in a debugger): `tests/encode.rs` compares the two over every
//! conformance program.
//!
//! Type indices follow `wat`'s order: the module's explicit `(type`s first, then each new
//! signature as the module uses it, in text order (imports, then each function's own type and
//! the block types in its body).

use std::collections::HashMap;
use std::fmt;

/// Why the text could not be encoded: what was wrong, and the byte offset in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    pub message: String,
    pub offset: usize,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (at byte {} of the module's text)",
            self.message, self.offset
        )
    }
}

impl std::error::Error for EncodeError {}

type Result<T> = std::result::Result<T, EncodeError>;

/// Encodes a plan module's text (see the module docs).
pub fn encode(text: &str) -> Result<Vec<u8>> {
    let module = Module::scan(text)?;
    module.encode(text)
}

// ----- reading ---------------------------------------------------------------------------------

/// A cursor over the text: parentheses, atoms (keywords, `$names`, numbers, `offset=N`) and
/// strings.
#[derive(Clone)]
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Open,
    Close,
    Atom(&'a str),
    /// A string literal, quotes excluded, escapes not yet decoded.
    Str(&'a str),
    End,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, at: usize) -> Self {
        Cursor { text, at }
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(EncodeError {
            message: message.into(),
            offset: self.at,
        })
    }

    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() {
            match bytes[self.at] {
                b' ' | b'\n' | b'\t' | b'\r' => self.at += 1,
                b';' if bytes.get(self.at + 1) == Some(&b';') => {
                    while self.at < bytes.len() && bytes[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn next(&mut self) -> Result<Token<'a>> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        let Some(&first) = bytes.get(self.at) else {
            return Ok(Token::End);
        };
        match first {
            b'(' => {
                if bytes.get(self.at + 1) == Some(&b';') {
                    return self.error("block comments are not part of the dialect");
                }
                self.at += 1;
                Ok(Token::Open)
            }
            b')' => {
                self.at += 1;
                Ok(Token::Close)
            }
            b'"' => {
                let start = self.at + 1;
                let mut i = start;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= bytes.len() {
                    return self.error("a string is not closed");
                }
                self.at = i + 1;
                Ok(Token::Str(&self.text[start..i]))
            }
            _ => {
                let start = self.at;
                while self.at < bytes.len()
                    && !matches!(
                        bytes[self.at],
                        b' ' | b'\n' | b'\t' | b'\r' | b'(' | b')' | b'"'
                    )
                {
                    self.at += 1;
                }
                Ok(Token::Atom(&self.text[start..self.at]))
            }
        }
    }

    fn peek(&self) -> Result<Token<'a>> {
        self.clone().next()
    }

    /// The keyword after a `(`, if the next tokens are `(` and an atom, without moving.
    fn peek_form(&self) -> Option<&'a str> {
        let mut ahead = self.clone();
        match (ahead.next(), ahead.next()) {
            (Ok(Token::Open), Ok(Token::Atom(word))) => Some(word),
            _ => None,
        }
    }

    fn expect_open(&mut self) -> Result<()> {
        match self.next()? {
            Token::Open => Ok(()),
            other => self.error(format!("expected `(`, found {other:?}")),
        }
    }

    fn expect_close(&mut self) -> Result<()> {
        match self.next()? {
            Token::Close => Ok(()),
            other => self.error(format!("expected `)`, found {other:?}")),
        }
    }

    fn atom(&mut self) -> Result<&'a str> {
        match self.next()? {
            Token::Atom(word) => Ok(word),
            other => self.error(format!("expected a word, found {other:?}")),
        }
    }

    fn keyword(&mut self, word: &str) -> Result<()> {
        match self.next()? {
            Token::Atom(found) if found == word => Ok(()),
            other => self.error(format!("expected `{word}`, found {other:?}")),
        }
    }

    /// A `$name`, if one comes next.
    fn name(&mut self) -> Option<&'a str> {
        match self.peek() {
            Ok(Token::Atom(word)) if word.starts_with('$') => {
                let _ = self.next();
                Some(word)
            }
            _ => None,
        }
    }

    fn string(&mut self) -> Result<Vec<u8>> {
        match self.next()? {
            Token::Str(raw) => unescape(raw).or_else(|message| self.error(message)),
            other => self.error(format!("expected a string, found {other:?}")),
        }
    }

    /// Skips to just past the `)` that closes the form whose `(` was already read.
    fn skip_form(&mut self) -> Result<()> {
        let mut depth = 1usize;
        loop {
            match self.next()? {
                Token::Open => depth += 1,
                Token::Close => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Token::End => return self.error("a form is not closed"),
                Token::Atom(_) | Token::Str(_) => {}
            }
        }
    }

    fn u32(&mut self) -> Result<u32> {
        let word = self.atom()?;
        parse_int(word)
            .and_then(|n| u32::try_from(n).ok())
            .map_or_else(|| self.error(format!("`{word}` is not a u32")), Ok)
    }
}

/// The bytes a WAT string literal stands for.
fn unescape(raw: &str) -> std::result::Result<Vec<u8>, String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let escape = *bytes.get(i + 1).ok_or("a string ends in `\\`")?;
        i += 2;
        match escape {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'\\' | b'"' | b'\'' => out.push(escape),
            b'u' => {
                let close = raw[i..].find('}').ok_or("a `\\u{` escape is not closed")?;
                let hex = raw
                    .get(i + 1..i + close)
                    .filter(|_| bytes.get(i) == Some(&b'{'))
                    .ok_or("a `\\u` escape without `{`")?;
                let c = u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or("a `\\u{...}` escape that is not a character")?;
                let mut buffer = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                i += close + 1;
            }
            high => {
                let low = *bytes.get(i).ok_or("a string ends inside an escape")?;
                let digit = |b: u8| (b as char).to_digit(16);
                match (digit(high), digit(low)) {
                    (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                    _ => return Err(format!("an unknown escape `\\{}`", high as char)),
                }
                i += 1;
            }
        }
    }
    Ok(out)
}

/// An integer literal: decimal or `0x` hex, with an optional sign and `_` separators.
fn parse_int(word: &str) -> Option<i128> {
    let (negative, digits) = match word.as_bytes().first()? {
        b'-' => (true, &word[1..]),
        b'+' => (false, &word[1..]),
        _ => (false, word),
    };
    let (radix, digits) = match digits.strip_prefix("0x") {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    if digits.is_empty() || digits.starts_with('_') {
        return None;
    }
    let mut value: i128 = 0;
    for b in digits.bytes() {
        if b == b'_' {
            continue;
        }
        let d = (b as char).to_digit(radix)?;
        value = value
            .checked_mul(i128::from(radix))?
            .checked_add(i128::from(d))?;
        if value > i128::from(u64::MAX) {
            return None;
        }
    }
    Some(if negative { -value } else { value })
}

// ----- the module ------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ValType {
    I32,
    I64,
    F32,
    F64,
    FuncRef,
    ExternRef,
    ExnRef,
}

impl ValType {
    fn parse(word: &str) -> Option<ValType> {
        Some(match word {
            "i32" => ValType::I32,
            "i64" => ValType::I64,
            "f32" => ValType::F32,
            "f64" => ValType::F64,
            "funcref" => ValType::FuncRef,
            "externref" => ValType::ExternRef,
            "exnref" => ValType::ExnRef,
            _ => return None,
        })
    }

    fn byte(self) -> u8 {
        match self {
            ValType::I32 => 0x7F,
            ValType::I64 => 0x7E,
            ValType::F32 => 0x7D,
            ValType::F64 => 0x7C,
            ValType::FuncRef => 0x70,
            ValType::ExternRef => 0x6F,
            ValType::ExnRef => 0x69,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
struct FuncType {
    params: Vec<ValType>,
    results: Vec<ValType>,
}

/// The module's function types, in index order, with a map to find one.
#[derive(Default)]
struct Types {
    list: Vec<FuncType>,
    index: HashMap<FuncType, u32>,
}

impl Types {
    /// The index of `ty`: its first definition, or a new one at the end.
    fn intern(&mut self, ty: FuncType) -> u32 {
        if let Some(&i) = self.index.get(&ty) {
            return i;
        }
        let i = self.list.len() as u32;
        self.index.insert(ty.clone(), i);
        self.list.push(ty);
        i
    }

    /// Appends an explicit `(type` definition (a duplicate keeps the first's index for lookups,
    /// as `wat` does).
    fn define(&mut self, ty: FuncType) -> u32 {
        let i = self.list.len() as u32;
        self.index.entry(ty.clone()).or_insert(i);
        self.list.push(ty);
        i
    }
}

enum ImportKind {
    Func(u32),
    Memory { min: u32 },
    Table { min: u32 },
    Tag(u32),
    Global { ty: ValType, mutable: bool },
}

struct Import {
    module: Vec<u8>,
    name: Vec<u8>,
    kind: ImportKind,
}

struct Global {
    ty: ValType,
    mutable: bool,
    /// The initializer: `(i32.const N)` or `(i64.const N)`.
    init: i64,
}

/// A defined function: its signature's type index, its parameters, and where its text continues
/// after the signature (locals, then the body).
struct Func<'a> {
    ty: u32,
    params: Vec<(Option<&'a str>, ValType)>,
    rest: usize,
}

/// Everything the module declares, read in one pass over the text (function bodies skipped).
#[derive(Default)]
struct Module<'a> {
    types: Types,
    type_names: HashMap<&'a str, u32>,
    imports: Vec<Import>,
    funcs: Vec<Func<'a>>,
    func_names: HashMap<&'a str, u32>,
    imported_funcs: u32,
    globals: Vec<Global>,
    global_names: HashMap<&'a str, u32>,
    imported_globals: u32,
    memory_names: HashMap<&'a str, u32>,
    table_names: HashMap<&'a str, u32>,
    tag_names: HashMap<&'a str, u32>,
    data: Vec<Vec<u8>>,
    data_names: HashMap<&'a str, u32>,
    elems: Vec<Vec<&'a str>>,
    elem_names: HashMap<&'a str, u32>,
    start: Option<&'a str>,
    /// Function names in index order (imports included), for the name section.
    names: Vec<&'a str>,
}

impl<'a> Module<'a> {
    fn scan(text: &'a str) -> Result<Module<'a>> {
        let mut module = Module::default();
        let mut c = Cursor::new(text, 0);
        c.expect_open()?;
        c.keyword("module")?;
        // The explicit types come first (see the module docs): find them before the rest.
        let fields = c.clone();
        loop {
            match c.next()? {
                Token::Close => break,
                Token::Open => {}
                other => return c.error(format!("expected a module field, found {other:?}")),
            }
            let at = c.at;
            if c.atom()? == "type" {
                let name = c.name();
                c.expect_open()?;
                c.keyword("func")?;
                let (ty, _) = signature(&mut c)?;
                c.expect_close()?;
                let index = module.types.define(ty);
                if let Some(name) = name {
                    module.type_names.insert(name, index);
                }
            } else {
                c.at = at;
                c.skip_form()?;
            }
        }
        let mut c = fields;
        loop {
            match c.next()? {
                Token::Close => break,
                Token::Open => {}
                other => return c.error(format!("expected a module field, found {other:?}")),
            }
            match c.atom()? {
                "import" => module.import(&mut c)?,
                "global" => module.global(&mut c)?,
                "type" => c.skip_form()?,
                "data" => {
                    let name = c.name();
                    let mut bytes = Vec::new();
                    while let Token::Str(_) = c.peek()? {
                        bytes.extend(c.string()?);
                    }
                    c.expect_close()?;
                    if let Some(name) = name {
                        module.data_names.insert(name, module.data.len() as u32);
                    }
                    module.data.push(bytes);
                }
                "elem" => {
                    let name = c.name();
                    c.keyword("func")?;
                    let mut items = Vec::new();
                    while let Some(item) = c.name() {
                        items.push(item);
                    }
                    c.expect_close()?;
                    if let Some(name) = name {
                        module.elem_names.insert(name, module.elems.len() as u32);
                    }
                    module.elems.push(items);
                }
                "func" => module.func(&mut c)?,
                "start" => {
                    module.start = Some(
                        c.name()
                            .map_or_else(|| c.error("a start without a name"), Ok)?,
                    );
                    c.expect_close()?;
                }
                other => {
                    return c.error(format!(
                        "a module field `{other}` is not part of the dialect"
                    ))
                }
            }
        }
        Ok(module)
    }

    fn import(&mut self, c: &mut Cursor<'a>) -> Result<()> {
        let module = c.string()?;
        let name = c.string()?;
        c.expect_open()?;
        let kind = c.atom()?;
        let id = c.name();
        let kind = match kind {
            "func" => {
                let (ty, _) = signature(c)?;
                let index = self.imported_funcs;
                self.imported_funcs += 1;
                if let Some(id) = id {
                    self.func_names.insert(id, index);
                }
                self.names.push(id.unwrap_or(""));
                ImportKind::Func(self.types.intern(ty))
            }
            "memory" => {
                let min = c.u32()?;
                if let Some(id) = id {
                    self.memory_names.insert(id, 0);
                }
                ImportKind::Memory { min }
            }
            "table" => {
                let min = c.u32()?;
                c.keyword("funcref")?;
                if let Some(id) = id {
                    self.table_names.insert(id, 0);
                }
                ImportKind::Table { min }
            }
            "tag" => {
                let (ty, _) = signature(c)?;
                if let Some(id) = id {
                    self.tag_names.insert(id, 0);
                }
                ImportKind::Tag(self.types.intern(ty))
            }
            "global" => {
                let (ty, mutable) = global_type(c)?;
                if let Some(id) = id {
                    self.global_names.insert(id, self.imported_globals);
                }
                self.imported_globals += 1;
                ImportKind::Global { ty, mutable }
            }
            other => {
                return c.error(format!(
                    "an import of a `{other}` is not part of the dialect"
                ))
            }
        };
        c.expect_close()?;
        c.expect_close()?;
        self.imports.push(Import { module, name, kind });
        Ok(())
    }

    fn global(&mut self, c: &mut Cursor<'a>) -> Result<()> {
        let id = c.name();
        let (ty, mutable) = global_type(c)?;
        c.expect_open()?;
        let op = c.atom()?;
        let word = c.atom()?;
        let init = match (op, ty, parse_int(word)) {
            ("i32.const", ValType::I32, Some(n)) => wrap32(n).map(i64::from),
            ("i64.const", ValType::I64, Some(n)) => wrap64(n),
            _ => None,
        };
        let Some(init) = init else {
            return c.error(format!(
                "a global initializer `({op} {word})` is not part of the dialect"
            ));
        };
        c.expect_close()?;
        c.expect_close()?;
        if let Some(id) = id {
            self.global_names
                .insert(id, self.imported_globals + self.globals.len() as u32);
        }
        self.globals.push(Global { ty, mutable, init });
        Ok(())
    }

    fn func(&mut self, c: &mut Cursor<'a>) -> Result<()> {
        let Some(name) = c.name() else {
            return c.error("a function without a name");
        };
        let mut explicit = None;
        if c.peek_form() == Some("type") {
            c.expect_open()?;
            c.keyword("type")?;
            let ty = c
                .name()
                .map_or_else(|| c.error("`(type` without a name"), Ok)?;
            explicit = Some(
                *self
                    .type_names
                    .get(ty)
                    .map_or_else(|| c.error(format!("no type `{ty}`")), Ok)?,
            );
            c.expect_close()?;
        }
        let (ty, params) = signature(c)?;
        let ty = match explicit {
            Some(index) => {
                if !params.is_empty() && self.types.list[index as usize] != ty {
                    return c.error(format!("`{name}` declares parameters unlike its type"));
                }
                index
            }
            None => self.types.intern(ty),
        };
        let params = if params.is_empty() {
            self.types.list[ty as usize]
                .params
                .iter()
                .map(|&t| (None, t))
                .collect()
        } else {
            params
        };
        let rest = c.at;
        c.skip_form()?;
        self.func_names
            .insert(name, self.imported_funcs + self.funcs.len() as u32);
        self.names.push(name);
        self.funcs.push(Func { ty, params, rest });
        Ok(())
    }

    fn encode(mut self, text: &'a str) -> Result<Vec<u8>> {
        // Bodies first: they may add block types, and the type section comes first.
        let mut code = Vec::with_capacity(text.len() / 6);
        leb_u32(&mut code, self.funcs.len() as u32);
        let funcs = std::mem::take(&mut self.funcs);
        let mut body = Vec::new();
        for func in &funcs {
            body.clear();
            Body::new(&mut self, func, text).encode(&mut body)?;
            leb_u32(&mut code, body.len() as u32);
            code.extend_from_slice(&body);
        }

        let mut out = Vec::with_capacity(code.len() + text.len() / 40);
        out.extend_from_slice(b"\0asm\x01\0\0\0");
        let mut section = Vec::new();

        // type
        leb_u32(&mut section, self.types.list.len() as u32);
        for ty in &self.types.list {
            section.push(0x60);
            leb_u32(&mut section, ty.params.len() as u32);
            section.extend(ty.params.iter().map(|t| t.byte()));
            leb_u32(&mut section, ty.results.len() as u32);
            section.extend(ty.results.iter().map(|t| t.byte()));
        }
        put_section(&mut out, 1, &mut section);

        // import
        leb_u32(&mut section, self.imports.len() as u32);
        for import in &self.imports {
            put_bytes(&mut section, &import.module);
            put_bytes(&mut section, &import.name);
            match import.kind {
                ImportKind::Func(ty) => {
                    section.push(0x00);
                    leb_u32(&mut section, ty);
                }
                ImportKind::Table { min } => {
                    section.extend_from_slice(&[0x01, 0x70, 0x00]);
                    leb_u32(&mut section, min);
                }
                ImportKind::Memory { min } => {
                    section.extend_from_slice(&[0x02, 0x00]);
                    leb_u32(&mut section, min);
                }
                ImportKind::Global { ty, mutable } => {
                    section.extend_from_slice(&[0x03, ty.byte(), u8::from(mutable)]);
                }
                ImportKind::Tag(ty) => {
                    section.extend_from_slice(&[0x04, 0x00]);
                    leb_u32(&mut section, ty);
                }
            }
        }
        put_section(&mut out, 2, &mut section);

        // function
        leb_u32(&mut section, funcs.len() as u32);
        for func in &funcs {
            leb_u32(&mut section, func.ty);
        }
        put_section(&mut out, 3, &mut section);

        // global
        if !self.globals.is_empty() {
            leb_u32(&mut section, self.globals.len() as u32);
            for global in &self.globals {
                section.extend_from_slice(&[global.ty.byte(), u8::from(global.mutable)]);
                if global.ty == ValType::I32 {
                    section.push(0x41);
                    leb_i64(&mut section, global.init);
                } else {
                    section.push(0x42);
                    leb_i64(&mut section, global.init);
                }
                section.push(0x0B);
            }
            put_section(&mut out, 6, &mut section);
        }

        // start
        if let Some(start) = self.start {
            let index = lookup(&self.func_names, start, "function", text.len())?;
            leb_u32(&mut section, index);
            put_section(&mut out, 8, &mut section);
        }

        // element: passive segments of function indices
        if !self.elems.is_empty() {
            leb_u32(&mut section, self.elems.len() as u32);
            for items in &self.elems {
                section.extend_from_slice(&[0x01, 0x00]);
                leb_u32(&mut section, items.len() as u32);
                for item in items {
                    leb_u32(
                        &mut section,
                        lookup(&self.func_names, item, "function", text.len())?,
                    );
                }
            }
            put_section(&mut out, 9, &mut section);
        }

        // data count (bodies use memory.init / data.drop)
        if !self.data.is_empty() {
            leb_u32(&mut section, self.data.len() as u32);
            put_section(&mut out, 12, &mut section);
        }

        out.extend_from_slice(&[10]);
        leb_u32(&mut out, code.len() as u32);
        out.extend_from_slice(&code);

        // data: passive segments
        if !self.data.is_empty() {
            leb_u32(&mut section, self.data.len() as u32);
            for bytes in &self.data {
                section.push(0x01);
                put_bytes(&mut section, bytes);
            }
            put_section(&mut out, 11, &mut section);
        }

        // name: the functions' names (imports included)
        let mut names = Vec::new();
        let named: Vec<(u32, &str)> = self
            .names
            .iter()
            .enumerate()
            .filter(|(_, name)| !name.is_empty())
            .map(|(i, name)| (i as u32, &name[1..]))
            .collect();
        leb_u32(&mut names, named.len() as u32);
        for (index, name) in named {
            leb_u32(&mut names, index);
            put_bytes(&mut names, name.as_bytes());
        }
        put_bytes(&mut section, b"name");
        section.push(1);
        leb_u32(&mut section, names.len() as u32);
        section.extend_from_slice(&names);
        put_section(&mut out, 0, &mut section);
        Ok(out)
    }
}

/// `(param ...)*` `(result ...)*` after a function's or import's name: the type, and the
/// parameters' names where given.
fn signature<'a>(c: &mut Cursor<'a>) -> Result<(FuncType, Vec<(Option<&'a str>, ValType)>)> {
    let mut ty = FuncType::default();
    let mut named = Vec::new();
    loop {
        match c.peek_form() {
            Some("param") => {
                c.expect_open()?;
                c.keyword("param")?;
                if let Some(name) = c.name() {
                    let t = valtype(c)?;
                    ty.params.push(t);
                    named.push((Some(name), t));
                } else {
                    while let Token::Atom(_) = c.peek()? {
                        let t = valtype(c)?;
                        ty.params.push(t);
                        named.push((None, t));
                    }
                }
                c.expect_close()?;
            }
            Some("result") => {
                c.expect_open()?;
                c.keyword("result")?;
                while let Token::Atom(_) = c.peek()? {
                    ty.results.push(valtype(c)?);
                }
                c.expect_close()?;
            }
            _ => return Ok((ty, named)),
        }
    }
}

fn valtype(c: &mut Cursor<'_>) -> Result<ValType> {
    let word = c.atom()?;
    ValType::parse(word).map_or_else(|| c.error(format!("`{word}` is not a value type")), Ok)
}

/// `i32` or `(mut i32)`.
fn global_type(c: &mut Cursor<'_>) -> Result<(ValType, bool)> {
    if c.peek_form() == Some("mut") {
        c.expect_open()?;
        c.keyword("mut")?;
        let ty = valtype(c)?;
        c.expect_close()?;
        Ok((ty, true))
    } else {
        Ok((valtype(c)?, false))
    }
}

fn lookup(names: &HashMap<&str, u32>, name: &str, what: &str, offset: usize) -> Result<u32> {
    names.get(name).copied().ok_or_else(|| EncodeError {
        message: format!("no {what} `{name}`"),
        offset,
    })
}

fn wrap32(n: i128) -> Option<i32> {
    (i128::from(i32::MIN)..=i128::from(u32::MAX))
        .contains(&n)
        .then_some(n as i32)
}

fn wrap64(n: i128) -> Option<i64> {
    (i128::from(i64::MIN)..=i128::from(u64::MAX))
        .contains(&n)
        .then_some(n as i64)
}

// ----- function bodies -------------------------------------------------------------------------

/// The encoding of one function's body.
struct Body<'m, 'a> {
    module: &'m mut Module<'a>,
    cursor: Cursor<'a>,
    locals: HashMap<&'a str, u32>,
    /// Enclosing blocks' labels, innermost last.
    labels: Vec<Option<&'a str>>,
    params: &'m [(Option<&'a str>, ValType)],
}

/// How an instruction's immediates are read and written.
#[derive(Clone, Copy)]
enum Imm {
    None,
    Local,
    Global,
    Func,
    Label,
    Tag,
    I32,
    I64,
    /// A load or store: its natural alignment (log2).
    Mem(u8),
    /// `memory.size`, `memory.grow`: the memory index.
    MemIndex,
    /// `memory.init $data` (then the memory index).
    DataMem,
    Data,
    Elem,
    /// `table.init $table $elem`.
    TableElem,
    Table,
    RefNull,
}

/// An instruction's opcode bytes and immediates (`None` for a mnemonic not in the dialect).
fn instruction(name: &str) -> Option<(&'static [u8], Imm)> {
    use Imm::*;
    Some(match name {
        "unreachable" => (&[0x00], None),
        "nop" => (&[0x01], None),
        "br" => (&[0x0C], Label),
        "br_if" => (&[0x0D], Label),
        "return" => (&[0x0F], None),
        "call" => (&[0x10], Func),
        "return_call" => (&[0x12], Func),
        "throw" => (&[0x08], Tag),
        "throw_ref" => (&[0x0A], None),
        "drop" => (&[0x1A], None),
        "select" => (&[0x1B], None),
        "local.get" => (&[0x20], Local),
        "local.set" => (&[0x21], Local),
        "local.tee" => (&[0x22], Local),
        "global.get" => (&[0x23], Global),
        "global.set" => (&[0x24], Global),
        "i32.load" => (&[0x28], Mem(2)),
        "i64.load" => (&[0x29], Mem(3)),
        "i32.load8_s" => (&[0x2C], Mem(0)),
        "i32.load8_u" => (&[0x2D], Mem(0)),
        "i32.load16_s" => (&[0x2E], Mem(1)),
        "i32.load16_u" => (&[0x2F], Mem(1)),
        "i64.load8_u" => (&[0x31], Mem(0)),
        "i64.load32_u" => (&[0x35], Mem(2)),
        "i32.store" => (&[0x36], Mem(2)),
        "i64.store" => (&[0x37], Mem(3)),
        "i32.store8" => (&[0x3A], Mem(0)),
        "i32.store16" => (&[0x3B], Mem(1)),
        "i64.store32" => (&[0x3E], Mem(2)),
        "memory.size" => (&[0x3F], MemIndex),
        "memory.grow" => (&[0x40], MemIndex),
        "i32.const" => (&[0x41], I32),
        "i64.const" => (&[0x42], I64),
        "i32.eqz" => (&[0x45], None),
        "i32.eq" => (&[0x46], None),
        "i32.ne" => (&[0x47], None),
        "i32.lt_s" => (&[0x48], None),
        "i32.lt_u" => (&[0x49], None),
        "i32.gt_s" => (&[0x4A], None),
        "i32.gt_u" => (&[0x4B], None),
        "i32.le_s" => (&[0x4C], None),
        "i32.le_u" => (&[0x4D], None),
        "i32.ge_s" => (&[0x4E], None),
        "i32.ge_u" => (&[0x4F], None),
        "i64.eqz" => (&[0x50], None),
        "i64.eq" => (&[0x51], None),
        "i64.ne" => (&[0x52], None),
        "i64.lt_s" => (&[0x53], None),
        "i64.lt_u" => (&[0x54], None),
        "i64.gt_s" => (&[0x55], None),
        "i64.gt_u" => (&[0x56], None),
        "i64.le_s" => (&[0x57], None),
        "i64.le_u" => (&[0x58], None),
        "i64.ge_s" => (&[0x59], None),
        "i64.ge_u" => (&[0x5A], None),
        "i32.clz" => (&[0x67], None),
        "i32.ctz" => (&[0x68], None),
        "i32.popcnt" => (&[0x69], None),
        "i32.add" => (&[0x6A], None),
        "i32.sub" => (&[0x6B], None),
        "i32.mul" => (&[0x6C], None),
        "i32.div_s" => (&[0x6D], None),
        "i32.div_u" => (&[0x6E], None),
        "i32.rem_s" => (&[0x6F], None),
        "i32.rem_u" => (&[0x70], None),
        "i32.and" => (&[0x71], None),
        "i32.or" => (&[0x72], None),
        "i32.xor" => (&[0x73], None),
        "i32.shl" => (&[0x74], None),
        "i32.shr_s" => (&[0x75], None),
        "i32.shr_u" => (&[0x76], None),
        "i64.clz" => (&[0x79], None),
        "i64.ctz" => (&[0x7A], None),
        "i64.popcnt" => (&[0x7B], None),
        "i64.add" => (&[0x7C], None),
        "i64.sub" => (&[0x7D], None),
        "i64.mul" => (&[0x7E], None),
        "i64.div_s" => (&[0x7F], None),
        "i64.div_u" => (&[0x80], None),
        "i64.rem_s" => (&[0x81], None),
        "i64.rem_u" => (&[0x82], None),
        "i64.and" => (&[0x83], None),
        "i64.or" => (&[0x84], None),
        "i64.xor" => (&[0x85], None),
        "i64.shl" => (&[0x86], None),
        "i64.shr_s" => (&[0x87], None),
        "i64.shr_u" => (&[0x88], None),
        "i32.wrap_i64" => (&[0xA7], None),
        "i64.extend_i32_s" => (&[0xAC], None),
        "i64.extend_i32_u" => (&[0xAD], None),
        "ref.null" => (&[0xD0], RefNull),
        "memory.init" => (&[0xFC, 8], DataMem),
        "data.drop" => (&[0xFC, 9], Data),
        "memory.copy" => (&[0xFC, 10, 0, 0], None),
        "memory.fill" => (&[0xFC, 11, 0], None),
        "table.init" => (&[0xFC, 12], TableElem),
        "elem.drop" => (&[0xFC, 13], Elem),
        "table.grow" => (&[0xFC, 15], Table),
        _ => return Option::None,
    })
}

impl<'m, 'a> Body<'m, 'a> {
    fn new(module: &'m mut Module<'a>, func: &'m Func<'a>, text: &'a str) -> Self {
        Body {
            module,
            cursor: Cursor::new(text, func.rest),
            locals: HashMap::new(),
            labels: Vec::new(),
            params: &func.params,
        }
    }

    fn encode(mut self, out: &mut Vec<u8>) -> Result<()> {
        for (i, (name, _)) in self.params.iter().enumerate() {
            if let Some(name) = name {
                self.locals.insert(name, i as u32);
            }
        }
        // Locals, grouped into runs of one type as `wat` groups them.
        let mut runs: Vec<(u32, ValType)> = Vec::new();
        let mut next = self.params.len() as u32;
        while self.cursor.peek_form() == Some("local") {
            let c = &mut self.cursor;
            c.expect_open()?;
            c.keyword("local")?;
            let mut declared = Vec::new();
            if let Some(name) = c.name() {
                declared.push((Some(name), valtype(c)?));
            } else {
                while let Token::Atom(_) = c.peek()? {
                    declared.push((None, valtype(c)?));
                }
            }
            c.expect_close()?;
            for (name, ty) in declared {
                if let Some(name) = name {
                    self.locals.insert(name, next);
                }
                next += 1;
                match runs.last_mut() {
                    Some((count, last)) if *last == ty => *count += 1,
                    _ => runs.push((1, ty)),
                }
            }
        }
        leb_u32(out, runs.len() as u32);
        for (count, ty) in runs {
            leb_u32(out, count);
            out.push(ty.byte());
        }
        self.sequence(out)?;
        out.push(0x0B);
        Ok(())
    }

    /// Folded instructions up to and including the `)` that ends the enclosing form.
    fn sequence(&mut self, out: &mut Vec<u8>) -> Result<()> {
        loop {
            match self.cursor.next()? {
                Token::Open => self.folded(out)?,
                Token::Close => return Ok(()),
                other => {
                    return self
                        .cursor
                        .error(format!("expected an instruction, found {other:?}"))
                }
            }
        }
    }

    /// One folded instruction whose `(` was read.
    fn folded(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let word = self.cursor.atom()?;
        match word {
            "block" | "loop" => {
                let label = self.cursor.name();
                let ty = self.block_type()?;
                out.push(if word == "block" { 0x02 } else { 0x03 });
                ty.write(out);
                self.labels.push(label);
                self.sequence(out)?;
                self.labels.pop();
                out.push(0x0B);
            }
            "if" => {
                let label = self.cursor.name();
                let ty = self.block_type()?;
                // The condition: the folded instructions before `(then`.
                while self.cursor.peek_form() != Some("then") {
                    self.cursor.expect_open()?;
                    self.folded(out)?;
                }
                out.push(0x04);
                ty.write(out);
                self.labels.push(label);
                self.cursor.expect_open()?;
                self.cursor.keyword("then")?;
                self.sequence(out)?;
                if self.cursor.peek_form() == Some("else") {
                    self.cursor.expect_open()?;
                    self.cursor.keyword("else")?;
                    out.push(0x05);
                    self.sequence(out)?;
                }
                self.cursor.expect_close()?;
                self.labels.pop();
                out.push(0x0B);
            }
            "try_table" => {
                let label = self.cursor.name();
                let ty = self.block_type()?;
                // The catch clauses' labels are resolved outside the try_table's own block.
                let (mut catches, mut count) = (Vec::new(), 0u32);
                loop {
                    let (kind, has_tag) = match self.cursor.peek_form() {
                        Some("catch") => (0x00, true),
                        Some("catch_ref") => (0x01, true),
                        Some("catch_all") => (0x02, false),
                        Some("catch_all_ref") => (0x03, false),
                        _ => break,
                    };
                    self.cursor.expect_open()?;
                    self.cursor.atom()?;
                    catches.push(kind);
                    count += 1;
                    if has_tag {
                        let tag = self.index(Imm::Tag)?;
                        leb_u32(&mut catches, tag);
                    }
                    let depth = self.index(Imm::Label)?;
                    leb_u32(&mut catches, depth);
                    self.cursor.expect_close()?;
                }
                out.push(0x1F);
                ty.write(out);
                leb_u32(out, count);
                out.extend_from_slice(&catches);
                self.labels.push(label);
                self.sequence(out)?;
                self.labels.pop();
                out.push(0x0B);
            }
            _ => {
                let Some((opcode, imm)) = instruction(word) else {
                    return self.cursor.error(format!(
                        "the instruction `{word}` is not part of the dialect"
                    ));
                };
                // Immediates come before the operands in the text, after them in the binary.
                let immediates = self.immediates(imm)?;
                self.sequence(out)?;
                out.extend_from_slice(opcode);
                immediates.write(out);
            }
        }
        Ok(())
    }

    /// Reads an instruction's immediates.
    fn immediates(&mut self, imm: Imm) -> Result<Immediates> {
        Ok(match imm {
            Imm::None => Immediates::None,
            Imm::Local
            | Imm::Global
            | Imm::Func
            | Imm::Label
            | Imm::Tag
            | Imm::Data
            | Imm::Elem
            | Imm::Table => Immediates::Index(self.index(imm)?),
            Imm::I32 => {
                let word = self.cursor.atom()?;
                let Some(n) = parse_int(word).and_then(wrap32) else {
                    return self.cursor.error(format!("`{word}` is not an i32"));
                };
                Immediates::Int(i64::from(n))
            }
            Imm::I64 => {
                let word = self.cursor.atom()?;
                let Some(n) = parse_int(word).and_then(wrap64) else {
                    return self.cursor.error(format!("`{word}` is not an i64"));
                };
                Immediates::Int(n)
            }
            Imm::Mem(natural) => {
                let (mut offset, mut align) = (0u32, natural);
                while let Token::Atom(word) = self.cursor.peek()? {
                    let value = |prefix: &str| {
                        word.strip_prefix(prefix)
                            .and_then(parse_int)
                            .and_then(|n| u32::try_from(n).ok())
                    };
                    if let Some(n) = value("offset=") {
                        offset = n;
                    } else if let Some(n) = value("align=").filter(|n| n.is_power_of_two()) {
                        align = n.trailing_zeros() as u8;
                    } else {
                        return self
                            .cursor
                            .error(format!("`{word}` is not a memory argument"));
                    }
                    self.cursor.next()?;
                }
                Immediates::Mem { align, offset }
            }
            Imm::MemIndex => Immediates::Byte(0),
            Imm::DataMem => Immediates::IndexThenByte(self.index(Imm::Data)?, 0),
            Imm::TableElem => {
                let table = self.index(Imm::Table)?;
                let elem = self.index(Imm::Elem)?;
                Immediates::Indices(elem, table)
            }
            Imm::RefNull => {
                self.cursor.keyword("func")?;
                Immediates::Byte(0x70)
            }
        })
    }

    /// A `$name` (or a number) in the index space `imm` names.
    fn index(&mut self, imm: Imm) -> Result<u32> {
        let word = self.cursor.atom()?;
        if !word.starts_with('$') {
            return match parse_int(word).and_then(|n| u32::try_from(n).ok()) {
                Some(n) => Ok(n),
                None => self.cursor.error(format!("`{word}` is not an index")),
            };
        }
        let found = match imm {
            Imm::Local => self.locals.get(word).copied(),
            Imm::Global => self.module.global_names.get(word).copied(),
            Imm::Func => self.module.func_names.get(word).copied(),
            Imm::Tag => self.module.tag_names.get(word).copied(),
            Imm::Data => self.module.data_names.get(word).copied(),
            Imm::Elem => self.module.elem_names.get(word).copied(),
            Imm::Table => self.module.table_names.get(word).copied(),
            Imm::Label => self
                .labels
                .iter()
                .rev()
                .position(|label| *label == Some(word))
                .map(|depth| depth as u32),
            _ => None,
        };
        found.map_or_else(|| self.cursor.error(format!("no `{word}` here")), Ok)
    }

    /// An optional `(param ...)`/`(result ...)` block type.
    fn block_type(&mut self) -> Result<BlockType> {
        let (ty, named) = signature(&mut self.cursor)?;
        if named.iter().any(|(name, _)| name.is_some()) {
            return self.cursor.error("a block's parameters cannot be named");
        }
        Ok(match (ty.params.len(), ty.results.len()) {
            (0, 0) => BlockType::Empty,
            (0, 1) => BlockType::Value(ty.results[0]),
            _ => BlockType::Index(self.module.types.intern(ty)),
        })
    }
}

/// An instruction's immediates, read before its operands and written after them.
enum Immediates {
    None,
    Index(u32),
    Indices(u32, u32),
    IndexThenByte(u32, u8),
    Int(i64),
    Byte(u8),
    Mem { align: u8, offset: u32 },
}

impl Immediates {
    fn write(&self, out: &mut Vec<u8>) {
        match *self {
            Immediates::None => {}
            Immediates::Index(index) => leb_u32(out, index),
            Immediates::Indices(a, b) => {
                leb_u32(out, a);
                leb_u32(out, b);
            }
            Immediates::IndexThenByte(index, byte) => {
                leb_u32(out, index);
                out.push(byte);
            }
            Immediates::Int(n) => leb_i64(out, n),
            Immediates::Byte(byte) => out.push(byte),
            Immediates::Mem { align, offset } => {
                out.push(align);
                leb_u32(out, offset);
            }
        }
    }
}

enum BlockType {
    Empty,
    Value(ValType),
    Index(u32),
}

impl BlockType {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            BlockType::Empty => out.push(0x40),
            BlockType::Value(ty) => out.push(ty.byte()),
            BlockType::Index(index) => leb_i64(out, i64::from(*index)),
        }
    }
}

// ----- bytes -----------------------------------------------------------------------------------

fn leb_u32(out: &mut Vec<u8>, mut value: u32) {
    loop {
        let byte = (value & 0x7F) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn leb_i64(out: &mut Vec<u8>, mut value: i64) {
    loop {
        let byte = (value & 0x7F) as u8;
        value >>= 7;
        let done = (value == 0 && byte & 0x40 == 0) || (value == -1 && byte & 0x40 != 0);
        if done {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    leb_u32(out, bytes.len() as u32);
    out.extend_from_slice(bytes);
}

/// Appends section `id` holding `content`, and empties `content` for the next one.
fn put_section(out: &mut Vec<u8>, id: u8, content: &mut Vec<u8>) {
    out.push(id);
    put_bytes(out, content);
    content.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_as_wat_reads_them() {
        assert_eq!(parse_int("0xFFFF_FFFD"), Some(0xFFFF_FFFD));
        assert_eq!(parse_int("-12"), Some(-12));
        assert_eq!(parse_int("0x"), None);
        assert_eq!(parse_int("1x"), None);
        assert_eq!(parse_int("99999999999999999999999"), None);
        assert_eq!(parse_int("0xFFFFFFFD").and_then(wrap32), Some(-3));
        assert_eq!(parse_int("4294967296").and_then(wrap32), None);
        assert_eq!(parse_int("0xFFFFFFFFFFFFFFFF").and_then(wrap64), Some(-1));
    }

    #[test]
    fn strings_unescape() {
        assert_eq!(
            unescape(r#"a\00\ff\n\"\\\u{e9}"#).unwrap(),
            b"a\0\xff\n\"\\\xc3\xa9"
        );
        assert!(unescape(r"\q").is_err());
    }

    #[test]
    fn what_is_outside_the_dialect_is_an_error_naming_it() {
        let error = encode("(module (func $f (f32.add)))").unwrap_err();
        assert!(error.message.contains("`f32.add`"), "{error}");
        let error = encode("(module (func $f (br $nowhere)))").unwrap_err();
        assert!(error.message.contains("`$nowhere`"), "{error}");
        assert!(encode("(module (func $f (i32.const 1)").is_err());
        assert!(encode("(module (export \"f\" (func $f)))").is_err());
    }
}
