//! Fixed facts of the value ABI (docs/abi.md) that Rust code needs: type ids, the addresses of
//! the static singletons, and the memory map.

/// Type ids stored at +0 of every object (defined in `baton-abi`, which the host shares).
pub use baton_abi::type_id;

pub const NONE: u32 = 8;
pub const FALSE: u32 = 16;
pub const TRUE: u32 = 24;
/// Where the runtime's own static objects (type objects, builtins, messages) start.
pub const RUNTIME_STATICS: u32 = 32;
/// Frames for tracebacks and the recursion limit: 8 bytes each, indexed by depth.
pub const MAX_DEPTH: u32 = 1000;
/// Frame slots reserved beyond the limit, so the runtime can still report the error.
pub const FRAME_SLOTS: u32 = MAX_DEPTH + 64;
pub const PAGE: u32 = 65536;
/// The heap is made of chunks of this size, aligned to it (runtime/wat/heap.wat).
pub const CHUNK: u32 = 65536;
/// The chunk table: one byte per chunk of the 4 GiB address space.
pub const CHUNK_TABLE_BYTES: u32 = 65536;
/// The collector's mark stack, in 4-byte entries (a fuller mark rescans the heap).
pub const MARK_STACK_SLOTS: u32 = 16384;
/// The shadow stack: the values plan frames hold, 8 bytes each (runtime/wat/gc.wat).
pub const SHADOW_STACK_BYTES: u32 = 256 << 10;
/// The collector's static regions together: the chunk table, each size class's free list and
/// list of unswept chunks (256 bytes each), the mark stack and the shadow stack; then the 128
/// one-character ASCII strs (24 bytes each), static so that they are never collected.
pub const GC_REGION: u32 =
    CHUNK_TABLE_BYTES + 512 + 4 * MARK_STACK_SLOTS + SHADOW_STACK_BYTES + 128 * 24;

/// Encodes a small int as a value, or `None` when it needs a boxed int.
pub fn small_int(n: i64) -> Option<i64> {
    const MIN: i64 = -(1 << 62);
    const MAX: i64 = (1 << 62) - 1;
    (MIN..=MAX).contains(&n).then_some((n << 1) | 1)
}
