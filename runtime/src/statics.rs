//! Static objects: objects whose bytes are known when a module is assembled (None, type objects,
//! builtin functions, the runtime's messages, and a plan's str, int and float constants). They
//! are laid out in data segments at fixed addresses, so a constant costs nothing at run time.

use crate::layout::{self, type_id};

/// A growing image of static memory starting at a fixed base address.
#[derive(Debug, Clone)]
pub struct Statics {
    base: u32,
    bytes: Vec<u8>,
    strings: std::collections::HashMap<String, u32>,
}

impl Statics {
    pub fn new(base: u32) -> Self {
        Self {
            base,
            bytes: Vec::new(),
            strings: Default::default(),
        }
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
        if let Some(&address) = self.strings.get(text) {
            return address;
        }
        let mut object = Self::header(type_id::STR, text.len() as u32);
        object.extend_from_slice(&(text.chars().count() as u32).to_le_bytes());
        object.extend_from_slice(&0u32.to_le_bytes());
        object.extend_from_slice(text.as_bytes());
        let address = self.place(&object);
        self.strings.insert(text.to_owned(), address);
        address
    }

    /// A boxed int object (for ints outside the small-int range).
    pub fn boxed_int(&mut self, value: i64) -> u32 {
        let mut object = Self::header(type_id::INT, 0);
        object.extend_from_slice(&value.to_le_bytes());
        self.place(&object)
    }

    pub fn float(&mut self, value: f64) -> u32 {
        let mut object = Self::header(type_id::FLOAT, 0);
        object.extend_from_slice(&value.to_le_bytes());
        self.place(&object)
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
                _ => out.push_str(&format!("\\{byte:02x}")),
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
