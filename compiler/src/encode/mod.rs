//! A plan module's text encoded in the WebAssembly binary format.
//!
//! The code generator writes WAT (folded instructions, names for everything) and
//! `baton_runtime::linking::assemble_plan` wraps it in a module; this turns that text into the
//! binary. It reads only the dialect those two write, which is small and regular: a `(module`
//! of imports (one memory, one table, one tag, functions, globals), immutable globals, `(type`
//! definitions (before the first function), one passive `(data`, one passive `(elem` of
//! functions, `(func`s and a `(start`; function bodies of folded instructions only (no flat
//! `end`/`else`), ~75 kinds of instruction. Anything else is an error naming the place: the
//! generator's bug, which the conformance suite and the differential tester catch.
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

use rustc_hash::FxHashMap;
use std::fmt;

mod body;
mod cursor;

use body::Body;
use cursor::{parse_int, Cursor, Token};

/// Why the text could not be encoded: what was wrong, and the byte offset in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    pub message: String,
    pub offset: usize,
    /// When what is wrong is a function past a bound of the host's
    /// (`baton_abi::function_bounds`): the text was fine, the plan compiles to too much code in
    /// one function.
    pub too_large: Option<TooLarge>,
}

/// A function past a bound of the host's (`baton_abi::function_bounds`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    /// Its name, with `$`.
    pub function: String,
    /// Which bound, and by how much (`its body is 1580958 bytes (at most 1048576)`).
    pub what: String,
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

/// Parameters, with their names where the text gives them.
type Params<'a> = Vec<(Option<&'a str>, ValType)>;

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
struct FuncType {
    params: Vec<ValType>,
    results: Vec<ValType>,
}

/// The module's function types, in index order, with a map to find one.
#[derive(Default)]
struct Types {
    list: Vec<FuncType>,
    index: FxHashMap<FuncType, u32>,
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
    /// The type index: an explicit `(type`'s from the scan; for a signature written out, given
    /// when the function is encoded ([`Func::signature`]), so that it takes its place among the
    /// block types of the bodies before it, as in `wat`.
    ty: u32,
    /// The signature written out, to intern as the function is encoded; `None` for a function
    /// of an explicit `(type`.
    signature: Option<FuncType>,
    params: Params<'a>,
    rest: usize,
}

/// Everything the module declares, read in one pass over the text (function bodies skipped).
#[derive(Default)]
struct Module<'a> {
    types: Types,
    type_names: FxHashMap<&'a str, u32>,
    imports: Vec<Import>,
    funcs: Vec<Func<'a>>,
    func_names: FxHashMap<&'a str, u32>,
    imported_funcs: u32,
    globals: Vec<Global>,
    global_names: FxHashMap<&'a str, u32>,
    imported_globals: u32,
    memory_names: FxHashMap<&'a str, u32>,
    table_names: FxHashMap<&'a str, u32>,
    tag_names: FxHashMap<&'a str, u32>,
    data: Vec<Vec<u8>>,
    data_names: FxHashMap<&'a str, u32>,
    elems: Vec<Vec<&'a str>>,
    elem_names: FxHashMap<&'a str, u32>,
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
        // The explicit types come first (see the module docs): find them before the rest. They
        // precede the functions (the dialect's order), so the search stops at the first:
        // skipping the functions' text would be most of the module's.
        let fields = c.clone();
        loop {
            match c.next()? {
                Token::Close => break,
                Token::Open => {}
                other => return c.error(format!("expected a module field, found {other:?}")),
            }
            let at = c.at;
            let word = c.atom()?;
            if word == "func" {
                break;
            }
            if word == "type" {
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
                "type" if !module.funcs.is_empty() => {
                    return c.error("a `(type` after a function is not part of the dialect")
                }
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
        let (index, signature, params) = match explicit {
            Some(index) => {
                if !params.is_empty() && self.types.list[index as usize] != ty {
                    return c.error(format!("`{name}` declares parameters unlike its type"));
                }
                let params = if params.is_empty() {
                    self.types.list[index as usize]
                        .params
                        .iter()
                        .map(|&t| (None, t))
                        .collect()
                } else {
                    params
                };
                (index, None, params)
            }
            None => (0, Some(ty), params),
        };
        let rest = c.at;
        c.skip_form()?;
        self.func_names
            .insert(name, self.imported_funcs + self.funcs.len() as u32);
        self.names.push(name);
        self.funcs.push(Func {
            ty: index,
            signature,
            params,
            rest,
        });
        Ok(())
    }

    fn encode(mut self, text: &'a str) -> Result<Vec<u8>> {
        // Bodies first: they may add block types, and the type section comes first.
        let mut code = Vec::with_capacity(text.len() / 6);
        leb_u32(&mut code, self.funcs.len() as u32);
        let mut funcs = std::mem::take(&mut self.funcs);
        let imported = self.names.len() - funcs.len();
        let mut body = Vec::new();
        for (i, func) in funcs.iter_mut().enumerate() {
            if let Some(signature) = func.signature.take() {
                func.ty = self.types.intern(signature);
            }
            body.clear();
            let shape = Body::new(&mut self, func, text).encode(&mut body)?;
            if let Some(what) = shape.past_bounds(body.len()) {
                let name = self.names[imported + i];
                return Err(EncodeError {
                    message: format!("function `{name}` is too large to compile safely: {what}"),
                    offset: func.rest,
                    too_large: Some(TooLarge {
                        function: name.to_owned(),
                        what,
                    }),
                });
            }
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
fn signature<'a>(c: &mut Cursor<'a>) -> Result<(FuncType, Params<'a>)> {
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

fn lookup(names: &FxHashMap<&str, u32>, name: &str, what: &str, offset: usize) -> Result<u32> {
    names.get(name).copied().ok_or_else(|| EncodeError {
        message: format!("no {what} `{name}`"),
        offset,
        too_large: None,
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
    use super::cursor::unescape;
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
    fn skipping_a_form_reads_what_the_tokens_would() {
        // A form skipped byte by byte ends where reading its tokens ends: parentheses in
        // strings and comments do not count, `;;` inside an atom is the atom's.
        for text in [
            r#"(a "(\")" b) z"#,
            "(a ;; ) comment (\n b) z",
            "(a x;;y (c)) z",
            r#"(a (b (c "\\") d)) z"#,
            "(a \"x\";; )\n) z",
        ] {
            let mut bytes = Cursor::new(text, 1);
            bytes.skip_form().unwrap();
            let mut tokens = Cursor::new(text, 1);
            let mut depth = 1;
            while depth > 0 {
                match tokens.next().unwrap() {
                    Token::Open => depth += 1,
                    Token::Close => depth -= 1,
                    Token::End => panic!("{text}: not closed"),
                    _ => {}
                }
            }
            assert_eq!(bytes.at, tokens.at, "{text}");
        }
        for text in ["(a \"open", "(a (b)", "(a (; block ;))"] {
            assert!(Cursor::new(text, 1).skip_form().is_err(), "{text}");
        }
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
