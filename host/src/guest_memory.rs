//! Reading the plan's memory: every pointer and length a module hands the host is hostile, so
//! each read is bounds-checked (as unsigned 32-bit numbers) and each text checked as UTF-8.
//! Nothing here panics on any input.

use baton_abi::{type_id, LEN_OFFSET, STR_BYTES_OFFSET};
use wasmtime::{Caller, Extern};

use crate::error::GuestFault;
use crate::imports::MEMORY_EXPORT;

/// The module's exported memory, or the fault of a module that exports none.
pub(crate) fn guest_memory<T>(
    caller: &mut Caller<'_, T>,
    call: &str,
) -> Result<wasmtime::Memory, GuestFault> {
    match caller.get_export(MEMORY_EXPORT) {
        Some(Extern::Memory(memory)) => Ok(memory),
        _ => Err(GuestFault(format!(
            "baton.{call}: the module exports no memory named `{MEMORY_EXPORT}`"
        ))),
    }
}

/// Copies `[ptr, ptr+len)` out of guest memory and checks it is UTF-8.
pub(crate) fn guest_text<T>(
    caller: &mut Caller<'_, T>,
    call: &str,
    ptr: i32,
    len: i32,
) -> Result<String, GuestFault> {
    let memory = guest_memory(caller, call)?;
    let bytes = guest_slice(memory.data(&*caller), ptr, len)
        .map_err(|message| GuestFault(format!("baton.{call}: {message}")))?;
    String::from_utf8(bytes.to_vec()).map_err(|error| {
        GuestFault(format!(
            "baton.{call}: the text is not UTF-8 (invalid byte at offset {} of {})",
            error.utf8_error().valid_up_to(),
            bytes.len()
        ))
    })
}

/// The guest bytes `[ptr, ptr+len)`, both read as unsigned 32-bit numbers, or why they are out
/// of bounds.
pub(crate) fn guest_slice(data: &[u8], ptr: i32, len: i32) -> Result<&[u8], String> {
    guest_range(data.len(), ptr, len).map(|range| &data[range])
}

/// The range `[ptr, ptr+len)` (both read as unsigned 32-bit numbers) of a memory of `size`
/// bytes, or why it is out of bounds.
pub(crate) fn guest_range(
    size: usize,
    ptr: i32,
    len: i32,
) -> Result<std::ops::Range<usize>, String> {
    let start = u64::from(ptr as u32);
    let len = u64::from(len as u32);
    let end = start + len; // cannot overflow u64
    if end > u64::from(u32::MAX) + 1 {
        return Err(format!(
            "the range {start:#x} + {len} bytes overflows the 32-bit address space"
        ));
    }
    if end > size as u64 {
        return Err(format!(
            "the range [{start:#x}, {end:#x}) is outside the memory ({size} bytes)"
        ));
    }
    // In range: both fit in usize because they are at most `size`.
    Ok(start as usize..end as usize)
}

/// Reads the str object at `address` (docs/abi.md, "Objects": type id at +0, UTF-8 byte
/// length at +4, the bytes from +16), checking every bound and the encoding.
pub(crate) fn read_str(data: &[u8], address: i32) -> Result<String, String> {
    let addr = u64::from(address as u32);
    let word = |offset: u32| -> Result<u32, String> {
        let at = addr + u64::from(offset);
        let bytes = usize::try_from(at)
            .ok()
            .and_then(|at| data.get(at..at.checked_add(4)?))
            .ok_or_else(|| {
                format!(
                    "address {addr:#x} is outside the memory ({} bytes)",
                    data.len()
                )
            })?;
        let mut word = [0u8; 4];
        word.copy_from_slice(bytes);
        Ok(u32::from_le_bytes(word))
    };
    if addr % 8 != 0 {
        return Err(format!("address {addr:#x} is not 8-byte aligned"));
    }
    let found = word(0)?;
    if found != type_id::STR {
        return Err(format!(
            "the object at {addr:#x} has type id {found}, not {} (str)",
            type_id::STR
        ));
    }
    let len = u64::from(word(LEN_OFFSET)?);
    let start = addr + u64::from(STR_BYTES_OFFSET);
    let end = start + len;
    if end > data.len() as u64 {
        return Err(format!(
            "the str at {addr:#x} claims {len} bytes, which run past the memory ({} bytes)",
            data.len()
        ));
    }
    let bytes = &data[start as usize..end as usize];
    String::from_utf8(bytes.to_vec()).map_err(|error| {
        format!(
            "the str at {addr:#x} is not UTF-8 (invalid byte at offset {})",
            error.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guest_slice_checks_bounds() {
        let data = [1u8, 2, 3, 4];
        assert_eq!(guest_slice(&data, 1, 2).unwrap(), &[2, 3]);
        assert_eq!(guest_slice(&data, 4, 0).unwrap(), &[] as &[u8]);
        assert!(guest_slice(&data, 3, 2).is_err());
        assert!(guest_slice(&data, -1, 2).unwrap_err().contains("overflows"));
        assert!(guest_slice(&data, 5, 0).is_err());
        assert!(guest_slice(&data, 0, -1).is_err());
    }

    #[test]
    fn read_str_checks_everything() {
        let mut data = vec![0u8; 64];
        data[8..12].copy_from_slice(&type_id::STR.to_le_bytes());
        data[12..16].copy_from_slice(&3u32.to_le_bytes());
        data[24..27].copy_from_slice(b"abc");
        assert_eq!(read_str(&data, 8).unwrap(), "abc");
        assert!(read_str(&data, 4).unwrap_err().contains("aligned"));
        assert!(read_str(&data, 16).unwrap_err().contains("type id"));
        assert!(read_str(&data, 64).unwrap_err().contains("outside"));
        assert!(read_str(&data, -8).unwrap_err().contains("outside"));
        data[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_str(&data, 8).unwrap_err().contains("run past"));
        data[12..16].copy_from_slice(&3u32.to_le_bytes());
        data[24] = 0xff;
        assert!(read_str(&data, 8).unwrap_err().contains("UTF-8"));
    }
}
