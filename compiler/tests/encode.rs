//! The plan module encoder (`baton_compiler::encode`) against the `wat` crate: for every
//! conformance program and every example plan, the same module byte for byte, but for the name
//! section (the encoder keeps only the functions' names).

use std::path::Path;

/// The module's sections as (id, contents), custom sections left out.
fn sections(module: &[u8]) -> Vec<(u8, &[u8])> {
    assert_eq!(&module[..8], b"\0asm\x01\0\0\0");
    let mut out = Vec::new();
    let mut at = 8;
    while at < module.len() {
        let id = module[at];
        at += 1;
        let (mut size, mut shift) = (0usize, 0);
        loop {
            let byte = module[at];
            at += 1;
            size |= usize::from(byte & 0x7F) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        if id != 0 {
            out.push((id, &module[at..at + size]));
        }
        at += size;
    }
    out
}

fn programs() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for dir in ["tests/conformance", "plans"] {
        let mut stack = vec![root.join(dir)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "py") {
                    found.push(path);
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_program_encodes_as_wat_assembles_it() {
    let mut compared = 0;
    for path in programs() {
        let source = std::fs::read_to_string(&path).unwrap();
        let Ok(plan) = baton_compiler::compile_source("plan.py", &source) else {
            continue;
        };
        let reference = wat::parse_str(&plan.wat).unwrap();
        let (ours, theirs) = (sections(&plan.wasm), sections(&reference));
        assert_eq!(ours.len(), theirs.len(), "{}", path.display());
        for ((id, a), (_, b)) in ours.iter().zip(&theirs) {
            assert!(a == b, "{}: section {id} differs", path.display());
        }
        compared += 1;
    }
    assert!(compared > 300, "only {compared} programs compiled");
}

#[test]
fn the_name_section_names_the_functions() {
    let plan =
        baton_compiler::compile_source("plan.py", "def f():\n    return 1\nprint(f())\n").unwrap();
    let text = String::from_utf8_lossy(&plan.wasm);
    for name in ["plan_main", "f0_body", "call_plan"] {
        assert!(text.contains(name), "{name} is not named");
    }
}

#[test]
fn a_signature_first_used_after_a_block_type_takes_wats_index() {
    // A function's type comes after the multi-value block types of the bodies before it: `wat`
    // numbers types in text order, function by function (a plan with a `finally` in a module
    // `try` body and a `def` after it was encoded with the two swapped).
    let text = "(module\n\
        (import \"rt\" \"memory\" (memory 1))\n\
        (func $first (param $d i32)\n\
        (drop (block $b (result i64 i64) (i64.const 1) (i64.const 2)))\n\
        (drop (block $c (param i32) (result i32 i32) (i32.const 3))))\n\
        (func $second (param $a i64) (result i64)\n\
        (local.get $a))\n\
        (func $third (param $d i32)\n\
        (drop (i32.const 0))))";
    let ours = baton_compiler::encode::encode(text).unwrap();
    let reference = wat::parse_str(text).unwrap();
    let ids = |s: &[(u8, &[u8])]| s.iter().map(|(id, _)| *id).collect::<Vec<_>>();
    let (ours, theirs) = (sections(&ours), sections(&reference));
    assert_eq!(ids(&ours), ids(&theirs));
    for ((id, a), (_, b)) in ours.iter().zip(&theirs) {
        assert!(a == b, "section {id} differs");
    }
}
