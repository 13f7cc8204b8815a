//! [`Runner`]: how plans run — a configuration (grants, limits, sandbox, workspace, budget), a
//! model provider, the inputs, where run directories go and who hears the plan's log lines —
//! and [`Runner::run`], which runs a [`Plan`] to its [`RunRecord`]. `baton run` is a client of
//! it; so is any program that embeds Baton (`examples/embed.rs`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use baton_host::branch::Prior;
use baton_host::config::Config;
use baton_host::llm::ProviderSpec;
use baton_host::services::LogSink;
use baton_host::session::{run_plan, RunRecord, RunSpec, SessionError};
use serde_json::Value;

use crate::Plan;

/// Where run directories go unless told otherwise (what `baton run` uses when
/// `$BATON_RUNS_DIR` is not set).
pub const DEFAULT_RUNS_DIR: &str = ".baton/runs";

/// How plans run. Made with [`Runner::new`] and the builder methods; one runner runs any
/// number of plans, each in a run directory of its own.
#[derive(Clone)]
pub struct Runner {
    config: Config,
    provider: Option<ProviderSpec>,
    inputs: Value,
    runs_base: PathBuf,
    run_dir: Option<PathBuf>,
    resume: bool,
    on_log: Option<LogSink>,
    priors: BTreeMap<String, Prior>,
    progress: bool,
    earlier_journals: Vec<PathBuf>,
}

impl Runner {
    /// A runner with `config` (`Config::default()` grants nothing and enforces every sandbox
    /// layer), no model provider, no inputs, and run directories under [`DEFAULT_RUNS_DIR`].
    pub fn new(config: Config) -> Runner {
        Runner {
            config,
            provider: None,
            inputs: Value::Object(Default::default()),
            runs_base: PathBuf::from(DEFAULT_RUNS_DIR),
            run_dir: None,
            resume: false,
            on_log: None,
            priors: BTreeMap::new(),
            progress: false,
            earlier_journals: Vec::new(),
        }
    }

    /// The model provider behind `llm` (`ProviderSpec::parse("script:replies.json")` is the
    /// offline one).
    pub fn provider(mut self, provider: ProviderSpec) -> Runner {
        self.provider = Some(provider);
        self
    }

    /// The run's inputs (a JSON object): the plan sees them as `inputs`, and its `main`, if it
    /// defines one, is called with them as keyword arguments.
    pub fn inputs(mut self, inputs: Value) -> Runner {
        self.inputs = inputs;
        self
    }

    /// Where new run directories are made (each run gets one of its own).
    pub fn runs_in(mut self, base: impl Into<PathBuf>) -> Runner {
        self.runs_base = base.into();
        self
    }

    /// The run directory itself (it must not exist or be empty).
    pub fn run_dir(mut self, dir: impl Into<PathBuf>) -> Runner {
        self.run_dir = Some(dir.into());
        self
    }

    /// Go on with the interrupted run in `dir`: its journal's results are replayed without
    /// running anything, then the run continues live where the journal ends.
    pub fn resume(mut self, dir: impl Into<PathBuf>) -> Runner {
        self.run_dir = Some(dir.into());
        self.resume = true;
        self
    }

    /// Called with each line the plan logs (`log(...)`), as it logs it; the run directory's
    /// `log.txt` has them too. The text is the plan's: escape it before showing it on a
    /// terminal ([`terminal_text`](crate::terminal_text)).
    pub fn on_log(mut self, listener: impl Fn(&str) + Send + Sync + 'static) -> Runner {
        self.on_log = Some(Arc::new(listener));
        self
    }

    /// Learned priors of `branch` call sites, for `n="auto"` (`baton priors` writes them).
    pub fn priors(mut self, priors: BTreeMap<String, Prior>) -> Runner {
        self.priors = priors;
        self
    }

    /// Show a progress line on stderr while the run is live (for a terminal).
    pub fn progress(mut self, on: bool) -> Runner {
        self.progress = on;
        self
    }

    /// Journals of earlier runs whose model answers the run reuses where it repeats their
    /// requests.
    pub fn earlier_journals(mut self, journals: Vec<PathBuf>) -> Runner {
        self.earlier_journals = journals;
        self
    }

    /// The configuration plans run with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Runs `plan`, writing what it prints to `stdout`. Fails before running anything when a
    /// capability the plan uses is not granted or the run cannot be set up; a run that started
    /// returns its record whatever the outcome (an uncaught exception, a limit, a trap:
    /// [`RunRecord::outcome`]), its run directory complete.
    pub fn run(&self, plan: &Plan, stdout: &mut dyn Write) -> Result<RunRecord, SessionError> {
        let spec = RunSpec {
            module: plan.module(),
            source: plan.source().map(|source| source.text.as_str()),
            config: self.config.clone(),
            provider: self.provider.clone(),
            inputs: self.inputs.clone(),
            run_dir: self.run_dir.clone(),
            runs_base: self.runs_base.clone(),
            log_echo: self.on_log.clone(),
            priors: self.priors.clone(),
            resume: self.resume,
            progress: self.progress,
            earlier_journals: self.earlier_journals.clone(),
        };
        run_plan(spec, stdout)
    }
}
