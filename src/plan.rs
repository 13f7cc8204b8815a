//! [`Plan`]: a plan ready to run — its module, checked and compiled from source (or given
//! compiled and validated), with the source kept for tracebacks.

use baton_compiler::{CompileError, CompileOptions};
use baton_host::{ModuleCache, ModuleError};

/// A plan's source: the name it is shown under (in diagnostics and tracebacks) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSource {
    pub path: String,
    pub text: String,
}

/// A plan ready to run: a WebAssembly module whose imports the host accepts, and the source
/// it was compiled from when there is one.
#[derive(Debug, Clone)]
pub struct Plan {
    module: Vec<u8>,
    source: Option<PlanSource>,
}

impl Plan {
    /// Checks and compiles plan source `text`, shown as `path`. A plan this build of Baton
    /// compiled before (same path, same text) is taken from the module cache's directory
    /// instead of being compiled again (`plan_cache.rs`). A plan the static check rejects is
    /// [`CompileError::Rejected`], whose report holds the diagnostics.
    pub fn from_source(
        path: impl Into<String>,
        text: impl Into<String>,
    ) -> Result<Plan, CompileError> {
        let (path, text) = (path.into(), text.into());
        let module = crate::plan_cache::compile(ModuleCache::global(), &path, &text)?;
        Ok(Plan {
            module,
            source: Some(PlanSource { path, text }),
        })
    }

    /// As [`Plan::from_source`], compiled with `options` and never cached (the cache keeps
    /// default builds only).
    pub fn from_source_with(
        path: impl Into<String>,
        text: impl Into<String>,
        options: CompileOptions,
    ) -> Result<Plan, CompileError> {
        let (path, text) = (path.into(), text.into());
        let module = baton_compiler::compile_source_with(&path, &text, options)?.wasm;
        Ok(Plan {
            module,
            source: Some(PlanSource { path, text }),
        })
    }

    /// A compiled plan (`baton compile`'s output). Its imports are validated here, so a module
    /// that imports anything but Baton's host calls is refused before anything else is done
    /// with it; `source`, when given, annotates its tracebacks.
    pub fn from_module(module: Vec<u8>, source: Option<PlanSource>) -> Result<Plan, ModuleError> {
        baton_host::validate_module(&module)?;
        Ok(Plan { module, source })
    }

    /// The module's bytes.
    pub fn module(&self) -> &[u8] {
        &self.module
    }

    /// The source, when the plan was compiled from one (or it was given).
    pub fn source(&self) -> Option<&PlanSource> {
        self.source.as_ref()
    }

    /// A traceback this plan raised, with the source line under each of its frames where the
    /// source is known, as CPython prints them.
    pub fn annotate(&self, traceback: &str) -> String {
        match &self.source {
            Some(source) => crate::annotate_traceback(traceback, &source.path, &source.text),
            None => traceback.to_owned(),
        }
    }
}
