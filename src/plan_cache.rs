//! Compiling a plan once: `baton run PLAN.py` looks up the module compiled from the same
//! source by the same build of Baton before it checks and compiles the plan again.
//!
//! The key is SHA-256 of the build's identity, the path the plan is shown under (tracebacks
//! carry it) and the source. The build's identity is the running executable's size and
//! modification time with the package version: any rebuild or reinstall of `baton` changes it,
//! so an entry never outlives the compiler that wrote it (stale entries age out of the
//! directory's size budget). Where the executable cannot be examined, nothing is cached.
//!
//! Only successful compilations are stored: a rejected plan is checked again and its
//! diagnostics printed every time. The entries live in the module cache's directory
//! ([`ModuleCache::store_module_bytes`]) and are only module bytes: an entry the host's
//! validation refuses is ignored (the plan is compiled again), and the module is validated
//! once more before it runs, like any other.

use std::sync::OnceLock;

use baton_host::cache::{module_hash, ModuleHash};
use baton_host::ModuleCache;

/// The cache key of a plan shown as `shown` with source `text`, for this build of Baton.
pub fn plan_key(shown: &str, text: &str) -> Option<ModuleHash> {
    let build = build_identity()?;
    let mut input = Vec::with_capacity(build.len() + shown.len() + text.len() + 32);
    for part in [build.as_bytes(), shown.as_bytes(), text.as_bytes()] {
        // Length-prefixed, so no two (path, source) pairs concatenate to the same input.
        input.extend_from_slice(&(part.len() as u64).to_le_bytes());
        input.extend_from_slice(part);
    }
    Some(module_hash(&input))
}

/// The module compiled before from this plan by this build, if the cache has it. An entry that
/// is not a module the host accepts (damaged, or written by someone else) is ignored, so the
/// plan is compiled again and the entry replaced.
pub fn load(cache: &ModuleCache, shown: &str, text: &str) -> Option<Vec<u8>> {
    let bytes = cache.load_module_bytes(&plan_key(shown, text)?)?;
    baton_host::validate_module(&bytes).ok()?;
    Some(bytes)
}

/// Remembers `wasm` as the module compiled from this plan.
pub fn store(cache: &ModuleCache, shown: &str, text: &str, wasm: &[u8]) {
    if let Some(key) = plan_key(shown, text) {
        cache.store_module_bytes(&key, wasm);
    }
}

/// The module for a plan's source: this build's earlier compilation of it from the cache, or
/// checked and compiled now (with default options) and remembered. What `baton run PLAN.py`
/// and a batch's runs both do.
pub fn compile(
    cache: &ModuleCache,
    shown: &str,
    text: &str,
) -> Result<Vec<u8>, baton_compiler::CompileError> {
    if let Some(wasm) = load(cache, shown, text) {
        return Ok(wasm);
    }
    let plan = baton_compiler::compile_source_with(shown, text, Default::default())?;
    store(cache, shown, text, &plan.wasm);
    Ok(plan.wasm)
}

fn build_identity() -> Option<&'static str> {
    static IDENTITY: OnceLock<Option<String>> = OnceLock::new();
    IDENTITY
        .get_or_init(|| {
            let exe = std::env::current_exe().ok()?;
            let metadata = std::fs::metadata(&exe).ok()?;
            let modified = metadata
                .modified()
                .ok()?
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?;
            // The runtime's version too: a module compiled for another runtime would be refused.
            Some(format!(
                "baton {} runtime {} {} {} {}",
                env!("CARGO_PKG_VERSION"),
                baton_host::RUNTIME_VERSION,
                exe.display(),
                metadata.len(),
                modified.as_nanos()
            ))
        })
        .as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_separate_path_and_source() {
        let a = plan_key("a.py", "print(1)").unwrap();
        assert_eq!(a, plan_key("a.py", "print(1)").unwrap());
        assert_ne!(a, plan_key("b.py", "print(1)").unwrap());
        assert_ne!(a, plan_key("a.py", "print(2)").unwrap());
        // The length prefixes keep the boundary between path and source.
        assert_ne!(
            plan_key("a.pyp", "rint(1)").unwrap(),
            plan_key("a.py", "print(1)").unwrap()
        );
    }

    #[test]
    fn stored_modules_come_back_by_plan() {
        let dir = std::env::temp_dir().join(format!("baton-plan-cache-{}", std::process::id()));
        let cache = ModuleCache::new(Some(dir.clone()));
        assert_eq!(load(&cache, "p.py", "print(1)"), None);
        // Not a module the host accepts: never handed out.
        store(&cache, "p.py", "print(1)", b"\0asm-bytes");
        assert_eq!(load(&cache, "p.py", "print(1)"), None);
        let module = baton_compiler::compile_source("p.py", "print(1)")
            .unwrap()
            .wasm;
        store(&cache, "p.py", "print(1)", &module);
        assert_eq!(load(&cache, "p.py", "print(1)"), Some(module));
        assert_eq!(load(&cache, "p.py", "print(2)"), None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
