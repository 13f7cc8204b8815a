//! Runs WAT snippets against the runtime in wasmtime, for testing runtime fragments without
//! the compiler. A snippet defines `$plan_main` (no params, no results) and may call any
//! runtime function; `$write_str` prints a str value. It is assembled as a plan module
//! (`baton_runtime::linking::assemble_plan`) and instantiated beside the runtime module, as the
//! host does, the runtime compiled once per test process.

#![allow(dead_code)]

use std::sync::OnceLock;

use baton_runtime::{runtime_layout, statics::Statics, PlanParts};

pub struct Outcome {
    pub stdout: String,
    /// The uncaught exception's report, when `baton_main` returned one.
    pub error: Option<String>,
}

fn engine() -> &'static wasmtime::Engine {
    static ENGINE: OnceLock<wasmtime::Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let mut config = wasmtime::Config::new();
        config.wasm_exceptions(true);
        config.consume_fuel(true);
        config.async_stack_size(64 << 20);
        config.max_wasm_stack(32 << 20);
        wasmtime::Engine::new(&config).expect("engine")
    })
}

/// The runtime module, compiled once.
fn runtime() -> &'static wasmtime::Module {
    static RUNTIME: OnceLock<wasmtime::Module> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        let bytes = baton_runtime::linking::runtime_module()
            .binary()
            .expect("the runtime assembles");
        wasmtime::Module::new(engine(), &bytes).expect("the runtime compiles")
    })
}

/// Runs `functions` (WAT fields defining `$plan_main`) with the given plan statics.
pub fn run_with(functions: &str, statics: &Statics) -> Result<Outcome, String> {
    let mut statics = statics.clone();
    let traceback_file = statics.str(&baton_runtime::traceback_file_prefix("test.py"));
    let parts = PlanParts {
        host_calls: &["print"],
        statics: &statics,
        functions,
        entries: &[],
        try_bodies: &[],
        traceback_file,
        library_files: &[],
        globals: 0,
        gc_stress: 0,
    };
    let text = baton_runtime::linking::assemble_plan(
        &parts,
        baton_runtime::interface::Interface::assembled(),
    );
    let wasm = wat::parse_str(&text).map_err(|e| format!("assembly failed: {e}"))?;
    let engine = engine();
    let plan = wasmtime::Module::new(engine, &wasm).map_err(|e| format!("compile: {e:?}"))?;
    let mut store = wasmtime::Store::new(engine, Vec::<u8>::new());
    store.set_fuel(5_000_000_000).unwrap();
    let mut linker = wasmtime::Linker::new(engine);
    linker
        .func_wrap(
            "baton",
            "print",
            |mut caller: wasmtime::Caller<'_, Vec<u8>>, ptr: u32, len: u32| {
                let memory = caller.get_export("memory").unwrap().into_memory().unwrap();
                let mut bytes = vec![0u8; len as usize];
                memory
                    .read(&caller, ptr as usize, &mut bytes)
                    .expect("print in bounds");
                caller.data_mut().extend_from_slice(&bytes);
            },
        )
        .unwrap();
    // The collector times itself; here its clock reads 0.
    linker.func_wrap("baton", "clock", || 0i64).unwrap();
    // The other host calls: no snippet makes them.
    linker.define_unknown_imports_as_traps(runtime()).unwrap();
    let instance = linker
        .instantiate(&mut store, runtime())
        .map_err(|e| format!("instantiate the runtime: {e:?}"))?;
    let mut imports = Vec::new();
    for import in plan.imports() {
        let found = if import.module() == "baton" {
            linker.get(&mut store, "baton", import.name()).ok()
        } else {
            instance.get_export(&mut store, import.name())
        };
        imports.push(found.ok_or_else(|| format!("no export for import {}", import.name()))?);
    }
    wasmtime::Instance::new(&mut store, &plan, &imports)
        .map_err(|e| format!("instantiate: {e:?}"))?;
    let main = instance
        .get_typed_func::<(), i32>(&mut store, "baton_main")
        .unwrap();
    let result = main
        .call(&mut store, ())
        .map_err(|e| format!("trap: {e:?}"))?;
    let memory = instance.get_memory(&mut store, "memory").unwrap();
    let error = (result != 0).then(|| {
        let data = memory.data(&store);
        let at = result as usize;
        let len = u32::from_le_bytes(data[at + 4..at + 8].try_into().unwrap()) as usize;
        String::from_utf8(data[at + 16..at + 16 + len].to_vec()).unwrap()
    });
    Ok(Outcome {
        stdout: String::from_utf8(store.into_data()).unwrap(),
        error,
    })
}

/// As [`run`], with a trap or an assembly failure as the error instead of a panic.
pub fn run_checked(functions: &str) -> Result<Outcome, String> {
    run_with(functions, &Statics::new(runtime_layout().plan_statics))
}

pub fn run(functions: &str) -> Outcome {
    let statics = Statics::new(runtime_layout().plan_statics);
    match run_with(functions, &statics) {
        Ok(outcome) => outcome,
        Err(message) => panic!("{message}"),
    }
}

/// Runs a body of WAT instructions as `$plan_main` and returns stdout (panics on an error).
pub fn stdout_of(body: &str) -> String {
    let outcome = run(&format!("(func $plan_main\n{body}\n)"));
    if let Some(error) = outcome.error {
        panic!("uncaught exception:\n{error}");
    }
    outcome.stdout
}
