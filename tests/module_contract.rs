//! The module contract (DESIGN.md, hard rule 1; docs/abi.md, "The module"): every plan module
//! the compiler emits imports only allowlisted `baton` host calls (those the plan uses) and the
//! runtime of this build (`baton_runtime/<version>`), and defines no memory of its own; the
//! runtime module imports only host calls. Checked with wasmparser directly, independently of
//! the host's own validator, over every conformance program and example plan. Then what a
//! hostile plan module may try with the runtime's imports.

use std::path::{Path, PathBuf};

use baton::{Config, Plan, RunOutcome, Runner};
use baton_host::{HostError, ModuleError, RUNTIME_IMPORT_PREFIX, RUNTIME_VERSION};

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

fn runtime_module() -> String {
    format!("{RUNTIME_IMPORT_PREFIX}{RUNTIME_VERSION}")
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
    let runtime = runtime_module();
    let mut compiled = 0;
    for path in &found {
        let text = std::fs::read_to_string(path).unwrap();
        let Ok(plan) = baton_compiler::compile_source(&path.to_string_lossy(), &text) else {
            // Plans the compiler refuses (deviations/) have no module to check.
            continue;
        };
        compiled += 1;
        let mut memories = 0;
        for payload in wasmparser::Parser::new(0).parse_all(&plan.wasm) {
            match payload.expect("the module parses") {
                wasmparser::Payload::ImportSection(reader) => {
                    for import in reader.into_imports() {
                        let import = import.unwrap();
                        if import.module == runtime {
                            continue;
                        }
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
                _ => {}
            }
        }
        assert_eq!(
            memories,
            0,
            "{}: defines {memories} memories",
            path.display()
        );
        let info = baton_host::validate_module(&plan.wasm)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(info.runtime_version(), Some(RUNTIME_VERSION));
    }
    assert!(compiled >= 150, "only {compiled} plans compiled");
}

#[test]
fn the_runtime_module_imports_only_host_calls_and_exports_the_entry_points() {
    let bytes = baton_runtime::linking::runtime_module().binary().unwrap();
    let info = baton_host::validate_module(&bytes).unwrap();
    assert_eq!(info.runtime_version(), None);
    assert!(info.imports.iter().all(|import| import.module == "baton"));
    for name in ["memory", "baton_main", "baton_branch_main", "table", "exc"] {
        assert!(
            info.exports.iter().any(|export| export.name == name),
            "the runtime does not export `{name}`"
        );
    }
}

#[test]
fn a_three_line_plan_s_module_is_small() {
    let plan = baton_compiler::compile_source(
        "sum.py",
        "total = 0\nfor i in range(10):\n    total += i\nprint(total)\n",
    )
    .unwrap();
    assert!(plan.wasm.len() < 20_000, "{} bytes", plan.wasm.len());
}

#[test]
fn a_plan_that_does_not_print_declares_only_the_clock() {
    // The clock times the collector (docs/abi.md, "The heap"); no other host call is imported.
    let plan = baton_compiler::compile_source("p.py", "x = [i * i for i in range(3)]\n").unwrap();
    let info = baton_host::validate_module(&plan.wasm).unwrap();
    assert_eq!(info.host_calls().collect::<Vec<_>>(), ["clock"]);
}

/// The WAT of `source`'s plan module, edited by `edit`, assembled.
fn edited(source: &str, edit: impl Fn(String) -> String) -> Vec<u8> {
    let plan = baton_compiler::compile_source("p.py", source).unwrap();
    let text = edit(plan.wat);
    wat::parse_str(&text).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

fn prepare(module: &[u8]) -> Result<baton_host::Prepared, HostError> {
    baton_host::ModuleCache::new(None).prepare(module)
}

/// `source`'s plan module and this build's runtime module, both renamed to runtime `version`:
/// what another build of Baton would have left in a run directory.
fn as_another_build(source: &str, version: &str) -> (Vec<u8>, Vec<u8>) {
    let plan = edited(source, |wat| wat.replace(RUNTIME_VERSION, version));
    let runtime = baton_runtime::linking::runtime_module().wat.replace(
        &runtime_module(),
        &format!("{RUNTIME_IMPORT_PREFIX}{version}"),
    );
    (plan, wat::parse_str(runtime).unwrap())
}

#[test]
fn a_plan_module_for_another_runtime_runs_only_beside_that_runtime() {
    let (plan, runtime) = as_another_build("print('from another build')\n", "0123456789abcdef");
    // Alone: refused before it is compiled, with what to do.
    let error = prepare(&plan).unwrap_err();
    assert!(
        matches!(error, HostError::Module(ModuleError::RuntimeVersion { .. })),
        "{error}"
    );
    assert!(
        error.to_string().contains("compile the plan again"),
        "{error}"
    );
    // Beside a runtime that is not the one it names: refused.
    let (_, other) = as_another_build("print(1)\n", "fedcba9876543210");
    let error = baton_host::ModuleCache::new(None)
        .prepare_with_runtime(&plan, Some(&other))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("is not runtime 0123456789abcdef"),
        "{error}"
    );
    // Beside bytes that are no module at all: refused the same way.
    let error = baton_host::ModuleCache::new(None)
        .prepare_with_runtime(&plan, Some(b"not wasm"))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("is not runtime 0123456789abcdef"),
        "{error}"
    );
    // Beside the runtime it names: it runs.
    let prepared = baton_host::ModuleCache::new(None)
        .prepare_with_runtime(&plan, Some(&runtime))
        .unwrap();
    let mut out = Vec::new();
    let outcome = prepared
        .run(&baton_host::Limits::default(), &mut out)
        .unwrap();
    assert_eq!(outcome, RunOutcome::Success);
    assert_eq!(String::from_utf8(out).unwrap(), "from another build\n");
}

#[test]
fn a_run_of_another_build_is_replayed_with_the_runtime_its_directory_kept() {
    let source = "from baton import log\nfor i in range(3):\n    print('step', i)\nlog('done')\n";
    let plan = Plan::from_source("steps.py", source).unwrap();
    let scratch = std::env::temp_dir().join(format!("baton-kept-runtime-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let run_dir = scratch.join("run");
    let run = Runner::new(Config::default())
        .run_dir(&run_dir)
        .run(&plan, &mut Vec::new())
        .unwrap();
    assert!(
        matches!(run.outcome, Ok(RunOutcome::Success)),
        "{:?}",
        run.outcome
    );
    let kept = std::fs::read(run_dir.join(baton_host::session::RUNTIME_FILE)).unwrap();
    assert_eq!(
        kept,
        baton_runtime::linking::runtime_module().binary().unwrap(),
        "the run directory keeps this build's runtime"
    );
    // As if a build with another runtime had made the run.
    let (other_plan, other_runtime) = as_another_build(source, "0123456789abcdef");
    std::fs::write(run_dir.join("plan.wasm"), &other_plan).unwrap();
    std::fs::write(
        run_dir.join(baton_host::session::RUNTIME_FILE),
        &other_runtime,
    )
    .unwrap();
    let replay = baton_host::session::replay_run(&run_dir).unwrap();
    assert_eq!(replay.outcome, RunOutcome::Success);
    assert_eq!(replay.output, replay.recorded_output);
    assert_eq!(
        String::from_utf8_lossy(&replay.output),
        "step 0\nstep 1\nstep 2\n"
    );
    // Without the kept runtime, the replay is refused and says why.
    std::fs::remove_file(run_dir.join(baton_host::session::RUNTIME_FILE)).unwrap();
    let error = baton_host::session::replay_run(&run_dir).unwrap_err();
    assert!(error.to_string().contains("0123456789abcdef"), "{error}");
    let _ = std::fs::remove_dir_all(&scratch);
}

/// A module that imports `import` from this build's runtime and does nothing else.
fn importing(import: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(module (import "{}" {import}))"#,
        runtime_module()
    ))
    .unwrap()
}

#[test]
fn a_plan_module_importing_what_the_runtime_does_not_export_is_refused() {
    // The names and types are right: linked to the runtime, it instantiates.
    prepare(&importing(
        r#""f:b_print" (func (param i32 i32) (result i64))"#,
    ))
    .unwrap();
    prepare(&importing(r#""g:heap_top" (global (mut i32))"#)).unwrap();
    for (import, words) in [
        // A name the runtime does not have.
        (r#""f:b_print_everything" (func)"#, "no such name"),
        // A runtime function with another signature.
        (
            r#""f:b_print" (func (param i32) (result i32))"#,
            "signature",
        ),
        // A mutable runtime global imported as a constant.
        (r#""g:heap_top" (global i32)"#, "global"),
        // A function the runtime has, imported as a global.
        (r#""g:b_print" (global (mut i32))"#, "no such name"),
    ] {
        let error = prepare(&importing(import)).unwrap_err();
        assert!(error.to_string().contains(words), "{import}: {error}");
    }
    // A name of the wrong kind for its prefix, refused before anything is compiled.
    let error = baton_host::validate_module(&importing(r#""memory" (func)"#)).unwrap_err();
    assert!(
        matches!(error, ModuleError::RuntimeImport { .. }),
        "{error}"
    );
    let error = baton_host::validate_module(&importing(r#""f:b_print" (global i32)"#)).unwrap_err();
    assert!(
        matches!(error, ModuleError::RuntimeImport { .. }),
        "{error}"
    );
    // A plan module that defines a memory of its own.
    let module = edited("print(1)\n", |wat| {
        wat.replacen(
            "(elem $plan_functions",
            "(memory 1)\n(elem $plan_functions",
            1,
        )
    });
    let error = baton_host::validate_module(&module).unwrap_err();
    assert!(matches!(error, ModuleError::MemoryCount { .. }), "{error}");
}

#[test]
fn a_plan_module_reaching_bash_through_the_runtime_without_declaring_it_is_refused_at_the_call() {
    // The compiler declares `baton.bash`; a hand-edited module drops the declaration, so the
    // run's grant check sees no capability, and calls the runtime's bash all the same.
    let source = "from baton import bash\ntry:\n    bash('echo escaped')\nexcept Exception as e:\n    print(e)\n";
    let module = edited(source, |wat| {
        let at = wat.find("(import \"baton\" \"bash\"").unwrap();
        let end = at + wat[at..].find('\n').unwrap();
        format!("{}{}", &wat[..at], &wat[end..])
    });
    let info = baton_host::validate_module(&module).unwrap();
    assert!(info.host_calls().all(|name| name != "bash"));
    let plan = Plan::from_module(module, None).unwrap();
    let scratch = std::env::temp_dir().join(format!("baton-contract-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let mut printed = Vec::new();
    let run = Runner::new(Config::default())
        .runs_in(&scratch)
        .run(&plan, &mut printed)
        .unwrap();
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        matches!(run.outcome, Ok(RunOutcome::Success)),
        "{:?}",
        run.outcome
    );
    let printed = String::from_utf8(printed).unwrap();
    assert!(printed.contains("bash is not granted"), "{printed}");
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

#[test]
fn the_table_holds_three_functions_of_the_plan_which_reach_every_entry() {
    // The runtime reaches a plan's functions and module-level `try` bodies through two
    // dispatchers in the table (docs/abi.md, "The module"), since wasmtime compiles a trampoline
    // for each function a table holds. 350 entries of each kind take dispatchers of two
    // functions (256 entries each); every entry must be reached, the last ones included.
    let mut source = String::from("fs = []\ntotal = 0\n");
    for k in 0..350 {
        source.push_str(&format!(
            "def f{k}(x):\n    return x + {k}\nfs.append(f{k})\n"
        ));
        source.push_str(&format!(
            "try:\n    total += f{k}(1)\nexcept ValueError:\n    pass\n"
        ));
    }
    source.push_str("print(total, sum(f(0) for f in fs), fs[-1](0))\n");
    let plan = baton_compiler::compile_source("many.py", &source).unwrap();
    let mut elements = None;
    for payload in wasmparser::Parser::new(0).parse_all(&plan.wasm) {
        if let wasmparser::Payload::ElementSection(reader) = payload.unwrap() {
            let segments: Vec<_> = reader.into_iter().map(|s| s.unwrap()).collect();
            assert_eq!(segments.len(), 1);
            elements = Some(match &segments[0].items {
                wasmparser::ElementItems::Functions(functions) => functions.count(),
                wasmparser::ElementItems::Expressions(_, expressions) => expressions.count(),
            });
        }
    }
    assert_eq!(elements, Some(3), "the table's entries from the plan");
    for chunk in ["(func $plan_call1 ", "(func $plan_try1 "] {
        assert!(plan.wat.contains(chunk), "no `{chunk}`");
    }
    // The encoder's `br_table` as `wat`'s: every section but the names (which `wat` gives the
    // locals too) the same.
    let reference = wat::parse_str(&plan.wat).unwrap();
    let sections = |module: &[u8]| -> Vec<Vec<u8>> {
        wasmparser::Parser::new(0)
            .parse_all(module)
            .filter_map(|payload| payload.unwrap().as_section())
            .filter(|(id, _)| *id != 0)
            .map(|(_, range)| module[range].to_vec())
            .collect()
    };
    assert!(sections(&plan.wasm) == sections(&reference));
    let mut out = Vec::new();
    let outcome = prepare(&plan.wasm)
        .unwrap()
        .run(&baton_host::Limits::default(), &mut out)
        .unwrap();
    assert_eq!(outcome, RunOutcome::Success);
    let expected = (0..350).map(|k| k + 1).sum::<i64>();
    let all = (0..350).sum::<i64>();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("{expected} {all} 349\n")
    );
}

#[test]
fn a_plan_module_with_an_invalid_function_body_is_refused_as_invalid() {
    // The host leaves validating a plan module's function bodies to wasmtime, which validates
    // each as it compiles it; a body it refuses is still reported as validation reports it.
    let module = edited("print(1)\n", |wat| {
        wat.replacen(
            "(func $plan_call ",
            "(func $bad (result i32) (i64.const 1))\n(func $plan_call ",
            1,
        )
    });
    let error = prepare(&module).unwrap_err();
    assert!(
        matches!(error, HostError::Module(ModuleError::Invalid { .. })),
        "{error}"
    );
    assert!(error.to_string().contains("type mismatch"), "{error}");
}
