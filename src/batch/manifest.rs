//! The batch manifest: JSON lines, one run each, validated whole before anything runs.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

/// One run of a batch, as the manifest gives it (paths resolved against its directory).
#[derive(Debug, Clone, PartialEq)]
pub struct RunEntry {
    /// Unique in the manifest; the name of the run's directory under the batch root.
    pub id: String,
    /// A `.py` plan or a compiled `.wasm`.
    pub plan: PathBuf,
    /// The run's inputs (a JSON object).
    pub inputs: Value,
    /// A directory, or a tarball (`.tar`, `.tar.gz`, `.tgz`); `None`: a fresh empty workspace.
    pub workspace: Option<PathBuf>,
    /// `bash`, `llm`.
    pub grants: Vec<String>,
    /// The model provider, as `--llm` takes it.
    pub llm: Option<String>,
    /// `timeout` (s), `memory` (MiB), `fuel`, `max_llm_calls`, `max_tokens`, `max_cost`.
    pub limits: BTreeMap<String, Value>,
    /// A `baton.toml` for the run.
    pub config: Option<PathBuf>,
    /// Free labels (variant, seed, instance): figures are summed per tag in `collect`.
    pub tags: BTreeMap<String, Value>,
    /// The manifest line it came from (1-based).
    pub line: usize,
}

impl RunEntry {
    /// The group the run belongs to: its workspace (runs of one workspace share its one base
    /// copy and always land in one shard), or its id when it has none.
    pub fn group(&self) -> String {
        match &self.workspace {
            Some(path) => path.display().to_string(),
            None => format!("\u{0}{}", self.id),
        }
    }
}

/// A manifest line as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    id: String,
    plan: String,
    #[serde(default)]
    inputs: Option<Value>,
    #[serde(default)]
    workspace: Option<String>,
    #[serde(default)]
    grants: Vec<String>,
    #[serde(default)]
    llm: Option<String>,
    #[serde(default)]
    limits: BTreeMap<String, Value>,
    #[serde(default)]
    config: Option<String>,
    #[serde(default)]
    tags: BTreeMap<String, Value>,
}

/// The limits a manifest line may set, as `baton run` names them.
pub const LIMIT_KEYS: &[&str] = &[
    "timeout",
    "memory",
    "fuel",
    "max_llm_calls",
    "max_tokens",
    "max_cost",
];

/// Every problem of a manifest, each naming its line.
#[derive(Debug, thiserror::Error)]
#[error("{}", .problems.join("\n"))]
pub struct ManifestError {
    pub problems: Vec<String>,
}

/// A validated manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    pub path: PathBuf,
    pub runs: Vec<RunEntry>,
}

/// A run id must name a directory: letters, digits, `.`, `_`, `-`, at most 200 bytes, not
/// starting with a dot.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 200
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn is_tarball(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".tar") || name.ends_with(".tar.gz") || name.ends_with(".tgz")
}

impl Manifest {
    /// Reads and validates `path`: every bad line is reported with its number, and nothing
    /// is returned unless all are good.
    pub fn read(path: &Path) -> Result<Manifest, ManifestError> {
        let text = std::fs::read_to_string(path).map_err(|error| ManifestError {
            problems: vec![format!(
                "cannot read the manifest {}: {error}",
                path.display()
            )],
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Self::parse(path, &text, base)
    }

    /// Validates manifest `text`; relative paths are taken from `base`.
    pub fn parse(path: &Path, text: &str, base: &Path) -> Result<Manifest, ManifestError> {
        let shown = path.display();
        let mut problems = Vec::new();
        let mut runs = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            if raw.trim().is_empty() {
                continue;
            }
            let mut problem = |what: String| problems.push(format!("{shown}:{number}: {what}"));
            let line: Line = match serde_json::from_str(raw) {
                Ok(line) => line,
                Err(error) => {
                    problem(format!("not a manifest line: {error}"));
                    continue;
                }
            };
            if !valid_id(&line.id) {
                problem(format!(
                    "id {:?} must be letters, digits, '.', '_' or '-' (at most 200, not \
                     starting with '.'): it names the run's directory",
                    line.id
                ));
            }
            if let Some(first) = seen.insert(line.id.clone(), number) {
                problem(format!("id {:?} is also on line {first}", line.id));
            }
            let resolve = |text: &str| base.join(text);
            let plan = resolve(&line.plan);
            let extension = plan.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !matches!(extension, "py" | "wasm") {
                problem(format!("plan {} must be a .py or a .wasm", plan.display()));
            } else if !plan.is_file() {
                problem(format!("plan {} does not exist", plan.display()));
            }
            let workspace = line.workspace.as_deref().map(resolve);
            if let Some(workspace) = &workspace {
                if !(workspace.is_dir() || (workspace.is_file() && is_tarball(workspace))) {
                    problem(format!(
                        "workspace {} must be a directory or a tarball (.tar, .tar.gz, .tgz)",
                        workspace.display()
                    ));
                }
            }
            for grant in &line.grants {
                if !matches!(grant.as_str(), "bash" | "llm") {
                    problem(format!("grant {grant:?} is not bash or llm"));
                }
            }
            if let Some(llm) = &line.llm {
                if let Err(error) = llm.parse::<baton_host::llm::ProviderSpec>() {
                    problem(format!("llm {llm:?}: {error}"));
                }
            }
            for (key, value) in &line.limits {
                if !LIMIT_KEYS.contains(&key.as_str()) {
                    problem(format!(
                        "limit {key:?} is not one of {}",
                        LIMIT_KEYS.join(", ")
                    ));
                } else if !value.as_f64().is_some_and(|v| v.is_finite() && v > 0.0) {
                    problem(format!(
                        "limit {key:?} must be a positive number, not {value}"
                    ));
                }
            }
            let inputs = line
                .inputs
                .unwrap_or_else(|| Value::Object(Default::default()));
            if !inputs.is_object() {
                problem("inputs must be a JSON object".to_string());
            }
            let config = line.config.as_deref().map(resolve);
            if let Some(config) = &config {
                if !config.is_file() {
                    problem(format!("config {} does not exist", config.display()));
                }
            }
            runs.push(RunEntry {
                id: line.id,
                plan,
                inputs,
                workspace: workspace.map(|w| w.canonicalize().unwrap_or(w)),
                grants: line.grants,
                llm: line.llm,
                limits: line.limits,
                config,
                tags: line.tags,
                line: number,
            });
        }
        if runs.is_empty() && problems.is_empty() {
            problems.push(format!("{shown}: the manifest has no runs"));
        }
        if problems.is_empty() {
            Ok(Manifest {
                path: path.to_path_buf(),
                runs,
            })
        } else {
            Err(ManifestError { problems })
        }
    }

    /// The groups, in the order their first run appears: runs of one workspace together.
    pub fn groups(&self) -> Vec<Vec<&RunEntry>> {
        let mut order: Vec<String> = Vec::new();
        let mut groups: HashMap<String, Vec<&RunEntry>> = HashMap::new();
        for run in &self.runs {
            let key = run.group();
            if !groups.contains_key(&key) {
                order.push(key.clone());
            }
            groups.entry(key).or_default().push(run);
        }
        order
            .into_iter()
            .filter_map(|key| groups.remove(&key))
            .collect()
    }

    /// The runs of shard `index` of `shards`: whole groups, dealt round-robin in the order
    /// they appear (the same manifest always makes the same shards).
    pub fn shard(&self, index: usize, shards: usize) -> Vec<Vec<&RunEntry>> {
        self.groups()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shards > 0 && i % shards == index)
            .map(|(_, group)| group)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test's own directory with a plan and a workspace in it, removed when dropped.
    struct Scratch(PathBuf);

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("baton-manifest-{}-{test}", std::process::id()));
        std::fs::create_dir_all(dir.join("repo")).unwrap();
        std::fs::write(dir.join("plan.py"), "print(1)\n").unwrap();
        Scratch(dir)
    }

    #[test]
    fn every_bad_line_is_reported_with_its_number() {
        let dir = scratch("bad-lines");
        let text = concat!(
            "{\"id\": \"a\", \"plan\": \"plan.py\", \"workspace\": \"repo\"}\n",
            "{\"id\": \"a\", \"plan\": \"missing.py\"}\n",
            "not json\n",
            "{\"id\": \"../x\", \"plan\": \"plan.py\", \"grants\": [\"net\"], \"limits\": {\"fuel\": -1, \"disk\": 3}}\n",
            "\n",
            "{\"id\": \"b\", \"plan\": \"plan.py\", \"workspace\": \"nowhere\", \"extra\": 1}\n",
        );
        let error = Manifest::parse(Path::new("m.jsonl"), text, &dir).unwrap_err();
        let problems = error.problems.join("\n");
        for expected in [
            "m.jsonl:2: id \"a\" is also on line 1",
            "m.jsonl:2: plan",
            "m.jsonl:3: not a manifest line",
            "m.jsonl:4: id \"../x\" must be",
            "m.jsonl:4: grant \"net\"",
            "m.jsonl:4: limit \"disk\" is not one of",
            "m.jsonl:4: limit \"fuel\" must be a positive number",
            "m.jsonl:6: not a manifest line: unknown field `extra`",
        ] {
            assert!(
                problems.contains(expected),
                "{expected:?} not in:\n{problems}"
            );
        }
    }

    #[test]
    fn shards_are_whole_groups() {
        let dir = scratch("shards");
        std::fs::create_dir_all(dir.join("repo2")).unwrap();
        let mut text = String::new();
        for i in 0..6 {
            let repo = if i % 2 == 0 { "repo" } else { "repo2" };
            text.push_str(&format!(
                "{{\"id\": \"r{i}\", \"plan\": \"plan.py\", \"workspace\": \"{repo}\"}}\n"
            ));
        }
        text.push_str("{\"id\": \"alone\", \"plan\": \"plan.py\"}\n");
        let manifest = Manifest::parse(Path::new("m.jsonl"), &text, &dir).unwrap();
        assert_eq!(manifest.groups().len(), 3);
        let ids = |shard: Vec<Vec<&RunEntry>>| -> Vec<String> {
            shard.iter().flatten().map(|r| r.id.clone()).collect()
        };
        assert_eq!(ids(manifest.shard(0, 2)), ["r0", "r2", "r4", "alone"]);
        assert_eq!(ids(manifest.shard(1, 2)), ["r1", "r3", "r5"]);
    }
}
