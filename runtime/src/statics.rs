//! Static objects: objects whose bytes are known when a module is assembled (None, type objects,
//! builtin functions, the runtime's messages, and a plan's str, int and float constants). They
//! are laid out in data segments at fixed addresses, so a constant costs nothing at run time.

use crate::interface::Names;
use crate::layout::{self, type_id};

/// The runtime's str hash (`$str_hash` in runtime/wat/str.wat), computed ahead of time for
/// static strs; both must give the same value for the same bytes, or dict lookups of a
/// constant key would miss an equal computed one.
pub fn str_hash(bytes: &[u8]) -> u32 {
    const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(MIX);
        h ^= h >> 29;
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let w = tail
            .iter()
            .enumerate()
            .fold(0u64, |w, (i, &b)| w | (u64::from(b) << (8 * i)));
        h = (h ^ w).wrapping_mul(MIX);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    // 0 marks a hash not computed yet, 1 an appendable str (runtime/wat/str.wat).
    match (h ^ (h >> 32)) as u32 {
        0 | 1 => 0x2545_F491,
        h32 => h32,
    }
}

/// A growing image of static memory starting at a fixed base address.
#[derive(Debug, Clone)]
pub struct Statics {
    base: u32,
    bytes: Vec<u8>,
    /// Str objects placed elsewhere that equal constants here reuse ([`Statics::sharing_strs`]).
    shared: Names<u32>,
    strings: std::collections::HashMap<String, u32>,
    /// Float constants by bit pattern, and constant tuples by their encoded items: one object
    /// each, as CPython folds equal constants of a code object into one (`2.5 is 2.5`).
    floats: std::collections::HashMap<u64, u32>,
    tuples: std::collections::HashMap<Vec<i64>, u32>,
}

impl Statics {
    pub fn new(base: u32) -> Self {
        Self::sharing_strs(base, Names(&[]))
    }

    /// Statics at `base` whose str constants reuse `shared` (text → address of a str object
    /// placed elsewhere, the runtime's: [`crate::interface::Interface::strs`]): a plan's
    /// `"strip"` is then the very object the runtime's method table names, so the names compare
    /// equal by address.
    pub fn sharing_strs(base: u32, shared: Names<u32>) -> Self {
        Self {
            base,
            bytes: Vec::new(),
            shared,
            strings: Default::default(),
            floats: Default::default(),
            tuples: Default::default(),
        }
    }

    /// The str objects placed here so far (not the shared ones), by text.
    pub fn strs(&self) -> &std::collections::HashMap<String, u32> {
        &self.strings
    }

    /// The next free address (8-aligned).
    pub fn end(&self) -> u32 {
        self.base + self.bytes.len() as u32
    }

    pub fn base(&self) -> u32 {
        self.base
    }

    fn place(&mut self, object: &[u8]) -> u32 {
        let address = self.end();
        self.bytes.extend_from_slice(object);
        while self.bytes.len() % 8 != 0 {
            self.bytes.push(0);
        }
        address
    }

    fn header(type_id: u32, len: u32) -> Vec<u8> {
        let mut object = Vec::with_capacity(16);
        object.extend_from_slice(&type_id.to_le_bytes());
        object.extend_from_slice(&len.to_le_bytes());
        object
    }

    /// A str object; equal strings share one object.
    pub fn str(&mut self, text: &str) -> u32 {
        if let Some(&address) = self.shared.get(text).or_else(|| self.strings.get(text)) {
            return address;
        }
        let mut object = Self::header(type_id::STR, text.len() as u32);
        object.extend_from_slice(&(text.chars().count() as u32).to_le_bytes());
        // The hash is filled in now, so comparing two static strs (a method name against the
        // runtime's names, a constant dict key) rejects a mismatch without reading the bytes.
        object.extend_from_slice(&str_hash(text.as_bytes()).to_le_bytes());
        object.extend_from_slice(text.as_bytes());
        let address = self.place(&object);
        self.strings.insert(text.to_owned(), address);
        address
    }

    /// A str object from its bytes as the runtime holds them: UTF-8, where a lone surrogate
    /// (`"\ud800"` in a plan's source) is in its three-byte form. Valid UTF-8 is shared as
    /// `str` shares it.
    pub fn str_bytes(&mut self, bytes: &[u8]) -> u32 {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return self.str(text);
        }
        let mut object = Self::header(type_id::STR, bytes.len() as u32);
        // Code points: every byte that does not continue one.
        let chars = bytes.iter().filter(|&&b| b & 0xc0 != 0x80).count();
        object.extend_from_slice(&(chars as u32).to_le_bytes());
        object.extend_from_slice(&str_hash(bytes).to_le_bytes());
        object.extend_from_slice(bytes);
        self.place(&object)
    }

    /// A boxed int object (for ints outside the small-int range).
    pub fn boxed_int(&mut self, value: i64) -> u32 {
        let mut object = Self::header(type_id::INT, 0);
        object.extend_from_slice(&value.to_le_bytes());
        self.place(&object)
    }

    pub fn float(&mut self, value: f64) -> u32 {
        if let Some(&address) = self.floats.get(&value.to_bits()) {
            return address;
        }
        let mut object = Self::header(type_id::FLOAT, 0);
        object.extend_from_slice(&value.to_le_bytes());
        let address = self.place(&object);
        self.floats.insert(value.to_bits(), address);
        address
    }

    /// A constant tuple of static values (already encoded as i64 words); equal ones share one
    /// object. Its items must be static objects or small ints: statics never point into the
    /// heap.
    pub fn constant_tuple(&mut self, items: &[i64]) -> u32 {
        if let Some(&address) = self.tuples.get(items) {
            return address;
        }
        let address = self.tuple(items);
        self.tuples.insert(items.to_vec(), address);
        address
    }

    /// A tuple of values (already encoded as i64 words).
    pub fn tuple(&mut self, items: &[i64]) -> u32 {
        let mut object = Self::header(type_id::TUPLE, items.len() as u32);
        for item in items {
            object.extend_from_slice(&item.to_le_bytes());
        }
        self.place(&object)
    }

    /// An object with the given type id, header `len` and i32 fields after the header.
    pub fn object(&mut self, type_id: u32, len: u32, fields: &[u32]) -> u32 {
        let mut object = Self::header(type_id, len);
        for field in fields {
            object.extend_from_slice(&field.to_le_bytes());
        }
        self.place(&object)
    }

    /// Raw i32 words (not an object): parameter descriptors and other tables.
    pub fn words(&mut self, words: &[u32]) -> u32 {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.place(&bytes)
    }

    /// Patches an i32 field of an object placed earlier.
    pub fn patch_u32(&mut self, address: u32, offset: u32, value: u32) {
        let at = (address - self.base + offset) as usize;
        self.bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// The value encoding of a static object.
    pub fn value(address: u32) -> i64 {
        i64::from(address)
    }

    /// The data segment, as WAT.
    pub fn to_wat(&self) -> String {
        let mut out = String::with_capacity(self.bytes.len() * 3 + 32);
        out.push_str(&format!("(data (i32.const {}) \"", self.base));
        for &byte in &self.bytes {
            match byte {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b' ' | b'_' | b'.' | b',' => {
                    out.push(byte as char)
                }
                // Two hex digits by hand: a `format!` per byte was 4% of the front end's work
                // on a generated plan.
                _ => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.push('\\');
                    out.push(char::from(HEX[usize::from(byte >> 4)]));
                    out.push(char::from(HEX[usize::from(byte & 15)]));
                }
            }
        }
        out.push_str("\")\n");
        out
    }
}

/// The None, False and True singletons at their fixed addresses.
pub fn singletons_wat() -> String {
    let mut statics = Statics::new(layout::NONE);
    assert_eq!(statics.object(type_id::NONE, 0, &[]), layout::NONE);
    assert_eq!(statics.object(type_id::BOOL, 0, &[]), layout::FALSE);
    assert_eq!(statics.object(type_id::BOOL, 1, &[]), layout::TRUE);
    statics.to_wat()
}
