//! The module contract (DESIGN.md, hard rule 1): every module the compiler emits imports only
//! functions from the `baton` namespace that are on the host's allowlist, and only those the
//! plan uses; it defines its memory (never imports memory, tables, globals or tags); it exports
//! `memory` and `baton_main`. Checked with wasmparser directly, independently of the host's
//! own validator, over every conformance program and example plan.

use std::path::{Path, PathBuf};

fn plans(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            plans(&path, found);
        } else if path.extension().is_some_and(|e| e == "py") {
            found.push(path);
        }
    }
}

#[test]
fn every_compiled_module_keeps_the_contract() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    plans(&root.join("tests/conformance"), &mut found);
    plans(&root.join("plans/examples"), &mut found);
    found.sort();
    let allowed: Vec<&str> = baton_host::ALLOWED_IMPORTS
        .iter()
        .map(|(name, _)| *name)
        .collect();
    let mut compiled = 0;
    for path in &found {
        let text = std::fs::read_to_string(path).unwrap();
        let Ok(plan) = baton_compiler::compile_source(&path.to_string_lossy(), &text) else {
            // Plans the compiler refuses (deviations/) have no module to check.
            continue;
        };
        compiled += 1;
        let mut memories = 0;
        let mut exports = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(&plan.wasm) {
            match payload.expect("the module parses") {
                wasmparser::Payload::ImportSection(reader) => {
                    for import in reader.into_imports() {
                        let import = import.unwrap();
                        assert_eq!(
                            import.module,
                            "baton",
                            "{}: import from `{}`",
                            path.display(),
                            import.module
                        );
                        assert!(
                            allowed.contains(&import.name),
                            "{}: import `{}` not allowed",
                            path.display(),
                            import.name
                        );
                        assert!(
                            matches!(import.ty, wasmparser::TypeRef::Func(_)),
                            "{}: imports a non-function `{}`",
                            path.display(),
                            import.name
                        );
                    }
                }
                wasmparser::Payload::MemorySection(reader) => memories += reader.count(),
                wasmparser::Payload::ExportSection(reader) => {
                    exports.extend(reader.into_iter().map(|e| e.unwrap().name.to_owned()));
                }
                _ => {}
            }
        }
        assert_eq!(
            memories,
            1,
            "{}: defines {memories} memories",
            path.display()
        );
        assert!(
            exports.contains(&"memory".to_owned()) && exports.contains(&"baton_main".to_owned()),
            "{}",
            path.display()
        );
        baton_host::validate_module(&plan.wasm)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    assert!(compiled >= 150, "only {compiled} plans compiled");
}

#[test]
fn a_plan_that_does_not_print_imports_only_the_clock() {
    // The clock times the collector (docs/abi.md, "The heap"); nothing else is imported.
    let plan = baton_compiler::compile_source("p.py", "x = [i * i for i in range(3)]\n").unwrap();
    for payload in wasmparser::Parser::new(0).parse_all(&plan.wasm) {
        if let wasmparser::Payload::ImportSection(reader) = payload.unwrap() {
            let names: Vec<String> = reader
                .into_imports()
                .map(|import| import.unwrap().name.to_owned())
                .collect();
            assert_eq!(
                names,
                ["clock"],
                "a plan without print imports only the clock"
            );
        }
    }
}

#[test]
fn compilation_is_deterministic() {
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("plans/examples/hello.py"),
    )
    .unwrap();
    let first = baton_compiler::compile_source("hello.py", &source).unwrap();
    let second = baton_compiler::compile_source("hello.py", &source).unwrap();
    assert_eq!(first.wasm, second.wasm);
}
