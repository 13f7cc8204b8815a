//! SPIKE: measure the runtime as its own module.
use std::time::Instant;
use wasmtime::*;

fn main() -> wasmtime::Result<()> {
    let path = std::env::args().nth(1).expect("plan");
    let text = std::fs::read_to_string(&path)?;
    let t = Instant::now();
    let compiled = baton_compiler::compile_source(&path, &text).map_err(|e| wasmtime::Error::msg(format!("{e:?}")))?;
    eprintln!("compile (both ways) {:?}", t.elapsed());
    let t = Instant::now();
    std::fs::write("/tmp/plan_split.wat", &compiled.split_wat).ok();
    std::fs::write("/tmp/plan_mono.wat", &compiled.wat).ok();
    let plan_wasm = wat::parse_str(&compiled.split_wat)?;
    eprintln!("assemble plan {:?} -> {} bytes", t.elapsed(), plan_wasm.len());
    let t = Instant::now();
    let rt_wasm = baton_runtime::linking::runtime_module().binary()?;
    eprintln!("assemble runtime {:?} -> {} bytes", t.elapsed(), rt_wasm.len());
    let mut config = baton_host::engine::config();
    config.async_support(false);
    let engine = Engine::new(&config)?;
    let t = Instant::now();
    let rt = Module::new(&engine, &rt_wasm)?;
    eprintln!("cranelift runtime {:?}", t.elapsed());
    let t = Instant::now();
    let rt_ser = rt.serialize()?;
    let rt = unsafe { Module::deserialize(&engine, &rt_ser)? };
    eprintln!("serialize+deserialize runtime {:?} ({} bytes)", t.elapsed(), rt_ser.len());
    let t = Instant::now();
    let plan = Module::new(&engine, &plan_wasm)?;
    eprintln!("cranelift plan {:?}", t.elapsed());
    let t = Instant::now();
    let mono = Module::new(&engine, &compiled.wasm)?;
    eprintln!("cranelift monolithic (warm function cache) {:?}", t.elapsed());

    let mut linker: Linker<()> = Linker::new(&engine);
    linker.func_wrap("baton", "print", |mut caller: Caller<'_, ()>, ptr: i32, len: i32| {
        let mem = caller.get_export("memory").unwrap().into_memory().unwrap();
        let data = mem.data(&caller);
        print!("{}", String::from_utf8_lossy(&data[ptr as usize..(ptr + len) as usize]));
    })?;
    linker.func_wrap("baton", "clock", || -> i64 { 0 })?;
    linker.define_unknown_imports_as_traps(&rt)?;
    linker.define_unknown_imports_as_traps(&mono)?;
    for (name, module) in [("split", None), ("mono", Some(&mono))] {
        for round in 0..3 {
            let mut store = Store::new(&engine, ());
            store.set_fuel(u64::MAX)?;
            store.set_epoch_deadline(u64::MAX);
            let t = Instant::now();
            let main_instance = match module {
                Some(m) => linker.instantiate(&mut store, m)?,
                None => {
                    let rt_instance = linker.instantiate(&mut store, &rt)?;
                    let imports: Vec<Extern> = plan
                        .imports()
                        .map(|import| {
                            rt_instance
                                .get_export(&mut store, import.name())
                                .unwrap_or_else(|| panic!("no export {}", import.name()))
                        })
                        .collect();
                    Instance::new(&mut store, &plan, &imports)?;
                    rt_instance
                }
            };
            let inst = t.elapsed();
            let main = main_instance.get_typed_func::<(), i32>(&mut store, "baton_main")?;
            let t = Instant::now();
            let code = main.call(&mut store, ())?;
            eprintln!("{name} round {round}: instantiate {inst:?} run {:?} -> {code}", t.elapsed());
        }
    }
    Ok(())
}
