//! `baton.toml`: what a run is granted and how it is limited. Every table and key is optional;
//! the defaults are the safe ones (nothing granted, sandbox enforced, work on a copy). The
//! command line overrides the file (`baton run --help`); `docs/baton.toml` is a commented
//! example of every key.

use std::path::{Path, PathBuf};

use baton_llm::{BudgetConfig, LlmConfig};
use serde::{Deserialize, Serialize};

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub grants: Grants,
    pub limits: LimitsConfig,
    pub sandbox: SandboxConfig,
    pub workspace: WorkspaceConfig,
    pub llm: LlmConfig,
    pub budget: BudgetConfig,
    pub branch: BranchConfig,
}

/// `[branch]`: how `branch` and `parallel` are bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BranchConfig {
    /// How deep branches may nest (a branch started inside a branch is depth 2).
    pub max_depth: u32,
    /// A branch making the same `bash` or `llm` request this many times in a row is stopped as
    /// stuck (0: never).
    pub stuck_repeats: u32,
    /// How branches' workspaces are forked.
    pub workspaces: ForkMode,
}

/// `[branch] workspaces`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ForkMode {
    /// An overlay where the kernel allows it (checked once per run), a copy otherwise.
    #[default]
    Auto,
    /// Always an overlay (a branch fails to start where the kernel does not allow it).
    Overlay,
    /// Always a copy (reflinked where the filesystem allows).
    Copy,
}

impl Default for BranchConfig {
    fn default() -> Self {
        let settings = crate::calls::BranchSettings::default();
        BranchConfig {
            max_depth: settings.max_depth,
            stuck_repeats: settings.stuck_repeats,
            workspaces: ForkMode::default(),
        }
    }
}

impl BranchConfig {
    pub fn settings(&self) -> crate::calls::BranchSettings {
        crate::calls::BranchSettings {
            max_depth: self.max_depth,
            stuck_repeats: self.stuck_repeats,
        }
    }
}

/// `[grants]`: the capabilities a plan may use. A module that imports a host call of a
/// capability not granted here is refused before it runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Grants {
    /// `bash(...)`: commands in the OS sandbox, inside the run's workspace.
    pub bash: bool,
    /// `llm(...)`: model calls through the configured provider, within the budget.
    pub llm: bool,
}

impl Grants {
    pub fn allows(&self, capability: Capability) -> bool {
        match capability {
            Capability::Bash => self.bash,
            Capability::Llm => self.llm,
        }
    }

    pub fn grant(&mut self, capability: Capability) {
        match capability {
            Capability::Bash => self.bash = true,
            Capability::Llm => self.llm = true,
        }
    }

    /// The granted capabilities' names, for messages.
    pub fn names(&self) -> Vec<&'static str> {
        Capability::ALL
            .into_iter()
            .filter(|c| self.allows(*c))
            .map(Capability::name)
            .collect()
    }
}

/// A capability a run can be granted. `print`, `log`, `inputs` and the run's result are always
/// available: they reach nothing outside the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    Bash,
    Llm,
}

impl Capability {
    pub const ALL: [Capability; 2] = [Capability::Bash, Capability::Llm];

    pub fn name(self) -> &'static str {
        match self {
            Capability::Bash => "bash",
            Capability::Llm => "llm",
        }
    }

    pub fn parse(name: &str) -> Option<Capability> {
        Capability::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The capability a module import (`baton.<name>`) needs, if any.
    pub fn of_import(name: &str) -> Option<Capability> {
        Capability::parse(name)
    }
}

/// `[limits]`: the run's hard limits (DESIGN.md, rule 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// Wall-clock limit of the whole run, host calls included.
    pub timeout_secs: f64,
    /// The plan's memory cap.
    pub memory_mib: u64,
    /// CPU limit in fuel units (about one per wasm instruction).
    pub fuel: u64,
    /// Run-wide: the memories of the plan and all its branches together.
    pub run_memory_mib: u64,
    /// Run-wide: what the plan and its branches print.
    pub output_mib: u64,
    /// Run-wide: what the plan logs.
    pub log_mib: u64,
    /// Run-wide: what finished branches hand back (results, tracebacks, output) and the host
    /// holds until their `branch` call returns.
    pub held_mib: u64,
    /// Run-wide: how much the run directory (workspace, branches' forks, journal) may grow,
    /// measured after each command and fork, and at most once a second after model calls.
    pub disk_mib: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        let limits = crate::Limits::default();
        let run = limits.run_wide;
        LimitsConfig {
            timeout_secs: limits.timeout.as_secs_f64(),
            memory_mib: (limits.memory_bytes >> 20) as u64,
            fuel: limits.fuel,
            run_memory_mib: (run.memory_bytes >> 20) as u64,
            output_mib: run.output_bytes >> 20,
            log_mib: run.log_bytes >> 20,
            held_mib: (run.held_bytes >> 20) as u64,
            disk_mib: 1024,
        }
    }
}

/// How `bash` is sandboxed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// Every layer the machine supports; fail closed when the sandbox cannot be set up.
    #[default]
    Enforce,
    /// No sandbox at all (timeouts, output caps and a clean environment still apply). Says so on
    /// stderr at every run.
    None,
}

/// `[sandbox]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    pub mode: SandboxMode,
    /// Extra host paths visible read-only inside the sandbox (at the same path).
    pub read_only: Vec<PathBuf>,
    /// Size cap of the private `/tmp`.
    pub tmp_mib: u64,
    /// stdout and stderr are each cut after this many KiB (with a visible marker).
    pub output_kib: u64,
    /// Most processes a command may have at once.
    pub max_processes: u64,
    /// Memory cap of a command's processes (where a cgroup can be made).
    pub memory_mib: u64,
    /// CPU seconds per process (RLIMIT_CPU).
    pub cpu_secs: u64,
    /// Largest file a command may write.
    pub file_size_mib: u64,
    /// Most open files per process.
    pub open_files: u64,
    /// Run-wide: processes of all the run's commands together (one cgroup for the run).
    pub run_max_processes: u64,
    /// Run-wide: memory of all the run's commands together; a command killed for memory
    /// stops the run (exit 4).
    pub run_memory_mib: u64,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        let policy = baton_sandbox::Policy::default();
        SandboxConfig {
            mode: SandboxMode::Enforce,
            read_only: Vec::new(),
            tmp_mib: policy.tmp_bytes >> 20,
            output_kib: (policy.output_cap >> 10) as u64,
            max_processes: policy.max_processes,
            memory_mib: policy.memory_bytes >> 20,
            cpu_secs: policy.cpu_seconds,
            file_size_mib: policy.file_size_bytes >> 20,
            open_files: policy.open_files,
            run_max_processes: 1024,
            run_memory_mib: 1024,
        }
    }
}

impl SandboxConfig {
    /// The sandbox policy for a run whose workspace is `workspace`.
    /// `private`: the workspace is the run's own copy, not the user's directory.
    pub fn policy(&self, workspace: &Path, private: bool) -> baton_sandbox::Policy {
        baton_sandbox::Policy {
            workspace: workspace.to_path_buf(),
            read_only: self.read_only.clone(),
            tmp_bytes: self.tmp_mib << 20,
            output_cap: usize::try_from(self.output_kib << 10).unwrap_or(usize::MAX),
            max_processes: self.max_processes,
            memory_bytes: self.memory_mib << 20,
            cpu_seconds: self.cpu_secs,
            file_size_bytes: self.file_size_mib << 20,
            open_files: self.open_files,
            overlay: None,
            private_workspace: private,
            run_cgroups: Vec::new(),
        }
    }
}

/// Where the plan's commands work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkspaceMode {
    /// Work on a copy of the directory; write the changes back only when the run succeeds.
    #[default]
    Copy,
    /// Work in the directory itself.
    InPlace,
    /// Work on a copy; never write back (the changes stay in the run directory and its
    /// `changes.patch`). `baton batch` runs this way.
    Isolated,
}

/// `[workspace]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WorkspaceConfig {
    /// The directory the plan works on; none: a fresh empty directory in the run directory.
    pub dir: Option<PathBuf>,
    pub mode: WorkspaceMode,
    /// Paths (relative to the workspace) whose changes are never written back, because other
    /// tools run them later outside the sandbox; none: `baton_workspace::DEFAULT_PROTECTED`
    /// (`.git`, `.envrc`, `.vscode`, ...). A list replaces the default.
    pub protect: Option<Vec<PathBuf>>,
}

impl WorkspaceConfig {
    /// The write-back guard this configuration asks for.
    pub fn guard(&self) -> baton_workspace::Guard {
        match &self.protect {
            Some(paths) => baton_workspace::Guard::new(paths.iter().cloned()),
            None => baton_workspace::Guard::default(),
        }
    }
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read `{path}`: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("`{path}` is not a valid baton.toml: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{0}")]
    Invalid(String),
}

impl Config {
    /// Reads and checks a `baton.toml`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Self::parse(&text).map_err(|message| ConfigError::Parse {
            path: path.to_path_buf(),
            message,
        })
    }

    /// Parses and checks the text of a `baton.toml`; the error names the key and line.
    pub fn parse(text: &str) -> Result<Config, String> {
        let config: Config = toml::from_str(text).map_err(|error| error.to_string())?;
        config.validate().map_err(|error| error.to_string())?;
        Ok(config)
    }

    /// Checks every value's range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let invalid = |key: &str, why: String| ConfigError::Invalid(format!("{key}: {why}"));
        let timeout = self.limits.timeout_secs;
        if !(timeout.is_finite() && timeout > 0.0 && timeout <= 7.0 * 86_400.0) {
            return Err(invalid(
                "limits.timeout_secs",
                format!("{timeout} is not a number of seconds in (0, 604800]"),
            ));
        }
        if self.limits.memory_mib == 0 || self.limits.memory_mib > 4096 {
            return Err(invalid(
                "limits.memory_mib",
                format!("{} is not in [1, 4096]", self.limits.memory_mib),
            ));
        }
        if self.branch.max_depth == 0 || self.branch.max_depth > 16 {
            return Err(invalid(
                "branch.max_depth",
                format!("{} is not in [1, 16]", self.branch.max_depth),
            ));
        }
        if self.limits.fuel == 0 {
            return Err(invalid("limits.fuel", "must be positive".into()));
        }
        for (key, value) in [
            ("limits.run_memory_mib", self.limits.run_memory_mib),
            ("limits.output_mib", self.limits.output_mib),
            ("limits.log_mib", self.limits.log_mib),
            ("limits.held_mib", self.limits.held_mib),
            ("limits.disk_mib", self.limits.disk_mib),
        ] {
            if value == 0 || value > (1 << 20) {
                return Err(invalid(key, format!("{value} is not in [1, 1048576]")));
            }
        }
        let sandbox = &self.sandbox;
        for (key, value) in [
            ("sandbox.tmp_mib", sandbox.tmp_mib),
            ("sandbox.output_kib", sandbox.output_kib),
            ("sandbox.max_processes", sandbox.max_processes),
            ("sandbox.memory_mib", sandbox.memory_mib),
            ("sandbox.cpu_secs", sandbox.cpu_secs),
            ("sandbox.file_size_mib", sandbox.file_size_mib),
            ("sandbox.open_files", sandbox.open_files),
            ("sandbox.run_max_processes", sandbox.run_max_processes),
            ("sandbox.run_memory_mib", sandbox.run_memory_mib),
        ] {
            if value == 0 || value > (1 << 40) {
                return Err(invalid(key, format!("{value} is out of range")));
            }
        }
        for path in &sandbox.read_only {
            if !path.is_absolute() {
                return Err(invalid(
                    "sandbox.read_only",
                    format!("`{}` is not an absolute path", path.display()),
                ));
            }
        }
        self.llm
            .validate()
            .map_err(|error| ConfigError::Invalid(error.to_string()))?;
        self.budget
            .validate()
            .map_err(|error| ConfigError::Invalid(error.to_string()))?;
        Ok(())
    }

    /// The run's [`crate::Limits`].
    pub fn limits(&self) -> crate::Limits {
        crate::Limits {
            fuel: self.limits.fuel,
            timeout: std::time::Duration::from_secs_f64(self.limits.timeout_secs),
            memory_bytes: usize::try_from(self.limits.memory_mib << 20).unwrap_or(usize::MAX),
            run_wide: crate::RunWideLimits {
                memory_bytes: usize::try_from(self.limits.run_memory_mib << 20)
                    .unwrap_or(usize::MAX),
                output_bytes: self.limits.output_mib << 20,
                log_bytes: self.limits.log_mib << 20,
                held_bytes: usize::try_from(self.limits.held_mib << 20).unwrap_or(usize::MAX),
            },
        }
    }

    /// The configuration as TOML, for the run directory. No secret is in it: API keys are only
    /// ever named by their environment variable.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_else(|error| format!("# cannot render: {error}\n"))
    }
}

/// The capabilities a module's imports need that `grants` does not give, or `Ok`.
pub fn check_grants<'a>(
    imports: impl IntoIterator<Item = &'a str>,
    grants: &Grants,
) -> Result<(), GrantError> {
    let mut needed: Vec<Capability> = imports
        .into_iter()
        .filter_map(Capability::of_import)
        .collect();
    needed.sort();
    needed.dedup();
    let missing: Vec<Capability> = needed
        .iter()
        .copied()
        .filter(|c| !grants.allows(*c))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(GrantError {
        needed: needed.into_iter().map(Capability::name).collect(),
        missing: missing.into_iter().map(Capability::name).collect(),
        granted: grants.names(),
    })
}

/// A module needs capabilities that are not granted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the plan needs {} but {} not granted (granted: {}); grant with `--grant {}` or `[grants]` \
     in baton.toml",
    list(.needed), if .missing.len() == 1 { format!("`{}` is", .missing[0]) } else { format!("{} are", list(.missing)) },
    if .granted.is_empty() { "nothing".to_string() } else { list(.granted) },
    .missing.join(",")
)]
pub struct GrantError {
    pub needed: Vec<&'static str>,
    pub missing: Vec<&'static str>,
    pub granted: Vec<&'static str>,
}

fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_file_is_the_safe_default() {
        let config = Config::parse("").unwrap();
        assert!(!config.grants.bash && !config.grants.llm);
        assert_eq!(config.sandbox.mode, SandboxMode::Enforce);
        assert_eq!(config.workspace.mode, WorkspaceMode::Copy);
    }

    #[test]
    fn unknown_keys_and_bad_values_are_named() {
        let error = Config::parse("[grants]\nbash = true\nnetwork = true\n").unwrap_err();
        assert!(error.contains("network"), "{error}");
        let error = Config::parse("[limits]\ntimeout_secs = -1\n").unwrap_err();
        assert!(error.contains("limits.timeout_secs"), "{error}");
        let error = Config::parse("[sandbox]\nread_only = [\"relative\"]\n").unwrap_err();
        assert!(error.contains("absolute"), "{error}");
    }

    #[test]
    fn grants_refuse_what_is_not_granted_and_say_what_is() {
        let grants = Grants {
            bash: true,
            llm: false,
        };
        assert!(check_grants(["print", "bash", "reply"], &grants).is_ok());
        let error = check_grants(["bash", "llm", "reply"], &grants).unwrap_err();
        assert_eq!(error.missing, vec!["llm"]);
        let text = error.to_string();
        assert!(text.contains("needs `bash`, `llm`"), "{text}");
        assert!(text.contains("granted: `bash`"), "{text}");
        assert!(text.contains("--grant llm"), "{text}");
        let error = check_grants(["bash"], &Grants::default()).unwrap_err();
        assert!(error.to_string().contains("granted: nothing"), "{error}");
    }

    #[test]
    fn the_documented_example_is_valid_and_shows_the_defaults() {
        let text = include_str!("../../docs/baton.toml");
        assert_eq!(Config::parse(text).unwrap(), Config::default());
    }

    #[test]
    fn round_trips_through_toml() {
        let mut config = Config::default();
        config.grants.bash = true;
        config.sandbox.read_only.push("/opt".into());
        let text = config.to_toml();
        assert_eq!(Config::parse(&text).unwrap(), config);
    }
}
