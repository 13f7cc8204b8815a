//! Function bodies: locals, then folded instructions, encoded as the binary's code entries.

use rustc_hash::FxHashMap;

use super::cursor::{parse_int, Cursor, Token};
use super::{leb_i64, leb_u32, signature, valtype, wrap32, wrap64, Func, Module, Result, ValType};

/// The encoding of one function's body.
pub(super) struct Body<'m, 'a> {
    module: &'m mut Module<'a>,
    cursor: Cursor<'a>,
    locals: FxHashMap<&'a str, u32>,
    /// Enclosing blocks' labels, innermost last.
    labels: Vec<Option<&'a str>>,
    /// The most blocks (blocks, loops, ifs, try_tables) open at once so far.
    deepest: usize,
    params: &'m [(Option<&'a str>, ValType)],
}

/// What the host bounds of a function body (`baton_abi::function_bounds`) besides its size.
pub(super) struct Shape {
    locals: u64,
    deepest: usize,
}

impl Shape {
    /// What is past the host's bounds in a body of this shape and `bytes` bytes, if anything.
    pub(super) fn past_bounds(&self, bytes: usize) -> Option<String> {
        use baton_abi::function_bounds::{body_too_large, nested_too_deep, too_many_locals};
        body_too_large(bytes)
            .or_else(|| too_many_locals(self.locals))
            .or_else(|| nested_too_deep(u32::try_from(self.deepest).unwrap_or(u32::MAX)))
    }
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
    pub(super) fn new(module: &'m mut Module<'a>, func: &'m Func<'a>, text: &'a str) -> Self {
        Body {
            module,
            cursor: Cursor::new(text, func.rest),
            locals: FxHashMap::default(),
            labels: Vec::new(),
            deepest: 0,
            params: &func.params,
        }
    }

    /// Encodes the body into `out`; returns its shape, for the host's bounds.
    pub(super) fn encode(mut self, out: &mut Vec<u8>) -> Result<Shape> {
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
        Ok(Shape {
            locals: u64::from(next) - self.params.len() as u64,
            deepest: self.deepest,
        })
    }

    /// Opens a block labelled `label`.
    fn open(&mut self, label: Option<&'a str>) {
        self.labels.push(label);
        self.deepest = self.deepest.max(self.labels.len());
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
                self.open(label);
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
                self.open(label);
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
                self.open(label);
                self.sequence(out)?;
                self.labels.pop();
                out.push(0x0B);
            }
            "br_table" => {
                // Labels (the targets by index, then the default) before the operand.
                let mut targets = Vec::new();
                while let Token::Atom(_) = self.cursor.peek()? {
                    targets.push(self.index(Imm::Label)?);
                }
                let Some(default) = targets.pop() else {
                    return self.cursor.error("`br_table` without a label");
                };
                self.sequence(out)?;
                out.push(0x0E);
                leb_u32(out, targets.len() as u32);
                for target in targets {
                    leb_u32(out, target);
                }
                leb_u32(out, default);
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
