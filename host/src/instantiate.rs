//! How a prepared module becomes an instance in a store.
//!
//! A plan module compiled by Baton imports the runtime (`baton_runtime::linking`): it is
//! instantiated after an instance of the runtime module, in the same store, and each of its
//! imports is taken from the runtime instance's exports, or for its `baton.*` host calls from the
//! linker. The runtime instance is the one whose exports the host uses (`baton_main`,
//! `baton_branch_main`, `memory`, the figures). A module that carries its own runtime (one built
//! by hand, or by an older Baton) imports only host calls and is instantiated alone.
//!
//! Every import of a plan module is checked against the compiled runtime when the module is
//! prepared ([`Instantiation::linked`]): a name the runtime does not export, or one of another
//! kind or type, refuses the module before it runs.

use std::sync::Arc;

use baton_runtime::linking::TRAP_DEVIATIONS_EXPORT;
use wasmtime::{ExternType, Instance, InstancePre, Linker, Module, ModuleExport, Store, Val};

use crate::error::HostError;
use crate::imports::{ModuleError, IMPORT_MODULE};

/// A compiled module with its imports resolved once, for stores whose data is `T` (the
/// host's `HostState`).
pub(crate) enum Instantiation<T: 'static> {
    /// A module that carries its own runtime: its imports are host calls.
    Whole(InstancePre<T>),
    /// A plan module, instantiated after the runtime.
    Linked(Arc<LinkedPlan<T>>),
}

impl<T> Clone for Instantiation<T> {
    fn clone(&self) -> Self {
        match self {
            Instantiation::Whole(pre) => Instantiation::Whole(pre.clone()),
            Instantiation::Linked(linked) => Instantiation::Linked(linked.clone()),
        }
    }
}

/// A plan module and what its imports are.
pub(crate) struct LinkedPlan<T: 'static> {
    runtime: InstancePre<T>,
    plan: Module,
    /// The host calls, for the plan's own `baton.*` imports (the capabilities it declares).
    host_calls: Linker<T>,
    imports: Vec<Source>,
    /// Whether each instance's runtime has its deviation switch on
    /// ([`baton_runtime::linking::TRAP_DEVIATIONS_EXPORT`]).
    trap_deviations: bool,
}

/// Where one import of a plan module comes from.
#[derive(Clone)]
enum Source {
    Runtime(ModuleExport),
    HostCall(String),
}

impl<T: Send + 'static> Instantiation<T> {
    /// `plan`, importing from `runtime` (a module carrying the runtime, prepared as
    /// [`Instantiation::Whole`]) and its host calls from `host_calls`. Every import the runtime
    /// must satisfy is checked here.
    pub(crate) fn linked(
        runtime: &InstancePre<T>,
        plan: &Module,
        host_calls: Linker<T>,
    ) -> Result<Instantiation<T>, HostError> {
        let runtime_module = runtime.module();
        let mut imports = Vec::new();
        for import in plan.imports() {
            if import.module() == IMPORT_MODULE {
                imports.push(Source::HostCall(import.name().to_owned()));
                continue;
            }
            let refuse = |problem: String| {
                HostError::from(ModuleError::RuntimeImport {
                    module: import.module().to_owned(),
                    name: import.name().to_owned(),
                    problem,
                })
            };
            let Some(export) = runtime_module.get_export_index(import.name()) else {
                return Err(refuse("the runtime exports no such name".to_owned()));
            };
            let Some(exported) = runtime_module.get_export(import.name()) else {
                return Err(refuse("the runtime exports no such name".to_owned()));
            };
            if let Some(problem) = mismatch(&import.ty(), &exported) {
                return Err(refuse(problem));
            }
            imports.push(Source::Runtime(export));
        }
        Ok(Instantiation::Linked(Arc::new(LinkedPlan {
            runtime: runtime.clone(),
            plan: plan.clone(),
            host_calls,
            imports,
            trap_deviations: false,
        })))
    }

    /// This instantiation with the runtime's deviation switch on in every instance (the plan's
    /// and its branches'): where Baton deviates from CPython on purpose, the runtime traps
    /// instead of raising. `None` for a module that carries its own runtime, whose globals
    /// are its own business.
    pub(crate) fn trapping_deviations(&self) -> Option<Instantiation<T>> {
        match self {
            Instantiation::Whole(_) => None,
            Instantiation::Linked(linked) => Some(Instantiation::Linked(Arc::new(LinkedPlan {
                runtime: linked.runtime.clone(),
                plan: linked.plan.clone(),
                host_calls: linked.host_calls.clone(),
                imports: linked.imports.clone(),
                trap_deviations: true,
            }))),
        }
    }

    /// The module whose code runs first (the runtime's, for a plan module).
    pub(crate) fn module(&self) -> &Module {
        match self {
            Instantiation::Whole(pre) => pre.module(),
            Instantiation::Linked(linked) => linked.runtime.module(),
        }
    }

    /// Instantiates the module (and the runtime first, for a plan module) in `store`; returns
    /// the instance whose exports are the entry points.
    pub(crate) async fn instantiate(&self, store: &mut Store<T>) -> wasmtime::Result<Instance> {
        match self {
            Instantiation::Whole(pre) => pre.instantiate_async(store).await,
            Instantiation::Linked(linked) => {
                let runtime = linked.runtime.instantiate_async(&mut *store).await?;
                if linked.trap_deviations {
                    let switch = runtime
                        .get_global(&mut *store, TRAP_DEVIATIONS_EXPORT)
                        .ok_or_else(|| {
                            wasmtime::format_err!("the runtime exports no {TRAP_DEVIATIONS_EXPORT}")
                        })?;
                    switch.set(&mut *store, Val::I32(1))?;
                }
                let mut imports = Vec::with_capacity(linked.imports.len());
                for source in &linked.imports {
                    let found = match source {
                        Source::Runtime(export) => runtime.get_module_export(&mut *store, export),
                        Source::HostCall(name) => {
                            linked.host_calls.get(&mut *store, IMPORT_MODULE, name).ok()
                        }
                    };
                    imports.push(found.ok_or_else(|| {
                        wasmtime::format_err!("an import of the plan module is missing")
                    })?);
                }
                // The plan's start function fills the runtime's table and memory here.
                Instance::new_async(&mut *store, &linked.plan, &imports).await?;
                Ok(runtime)
            }
        }
    }
}

/// Why an import of type `wanted` cannot take an export of type `found`, if it cannot.
fn mismatch(wanted: &ExternType, found: &ExternType) -> Option<String> {
    let kinds = |ty: &ExternType| match ty {
        ExternType::Func(_) => "function",
        ExternType::Global(_) => "global",
        ExternType::Table(_) => "table",
        ExternType::Memory(_) => "memory",
        ExternType::Tag(_) => "tag",
    };
    match (wanted, found) {
        (ExternType::Func(wanted), ExternType::Func(found)) => {
            let same = wanted.params().len() == found.params().len()
                && wanted.results().len() == found.results().len()
                && wanted
                    .params()
                    .zip(found.params())
                    .chain(wanted.results().zip(found.results()))
                    .all(|(a, b)| wasmtime::ValType::eq(&a, &b));
            (!same).then(|| format!("its signature is {wanted}, but the runtime's is {found}"))
        }
        (ExternType::Global(wanted), ExternType::Global(found)) => {
            let same = wanted.mutability() == found.mutability()
                && wasmtime::ValType::eq(wanted.content(), found.content());
            let shown = |global: &wasmtime::GlobalType| {
                let mutability = match global.mutability() {
                    wasmtime::Mutability::Const => "constant",
                    wasmtime::Mutability::Var => "mutable",
                };
                format!("{mutability} {}", global.content())
            };
            (!same).then(|| {
                format!(
                    "it is imported as a {} global, but the runtime's is {}",
                    shown(wanted),
                    shown(found)
                )
            })
        }
        (ExternType::Memory(_), ExternType::Memory(_))
        | (ExternType::Table(_), ExternType::Table(_))
        | (ExternType::Tag(_), ExternType::Tag(_)) => None,
        _ => Some(format!(
            "it is imported as a {}, but the runtime's is a {}",
            kinds(wanted),
            kinds(found)
        )),
    }
}
