//! The Kubernetes engine: a batch as one Indexed Job whose pods each run a shard, and
//! `baton batch run --engine k8s`, which applies it with `kubectl` and follows it.
//!
//! What the cluster needs: an image with `baton` on its PATH (this build's binary and bash;
//! the pods need unprivileged user namespaces for the sandbox), and a ReadWriteMany volume
//! (`--volume-claim`) mounted at the batch root in every pod, holding the manifest, the plans
//! and the workspaces too (paths in the manifest are resolved inside the pod).

use serde_json::{json, Value};

use super::EXIT_RETRY;

/// What the rendered Job runs and where.
#[derive(Debug, Clone)]
pub struct JobSpec {
    pub name: String,
    pub image: String,
    /// The manifest's path inside the pods.
    pub manifest: String,
    /// The batch root inside the pods (the volume's mount point).
    pub root: String,
    pub shards: usize,
    pub parallel: usize,
    /// Retries per index of a shard that exits with the retry code.
    pub retries: usize,
    /// The PersistentVolumeClaim mounted at `root`.
    pub volume_claim: String,
}

/// The Indexed Job: `completions` shards, `parallelism` at once; a pod that exits with
/// [`EXIT_RETRY`] counts against its index's `backoffLimitPerIndex` (so it is retried), any
/// other failure fails its index at once (`FailIndex`), a disruption (eviction, preemption) is
/// ignored; a failed pod is replaced only once it is gone (`podReplacementPolicy: Failed`).
pub fn render(spec: &JobSpec) -> Value {
    json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": spec.name, "labels": {"app.kubernetes.io/managed-by": "baton"}},
        "spec": {
            "completionMode": "Indexed",
            "completions": spec.shards,
            "parallelism": spec.parallel,
            "backoffLimitPerIndex": spec.retries,
            "maxFailedIndexes": spec.shards,
            "podReplacementPolicy": "Failed",
            "podFailurePolicy": {
                "rules": [
                    {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]},
                    {"action": "Count", "onExitCodes": {"containerName": "shard", "operator": "In", "values": [EXIT_RETRY]}},
                    {"action": "FailIndex", "onExitCodes": {"containerName": "shard", "operator": "NotIn", "values": [0, EXIT_RETRY]}},
                ]
            },
            "template": {
                "metadata": {"labels": {"app.kubernetes.io/managed-by": "baton"}},
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [{
                        "name": "shard",
                        "image": spec.image,
                        "command": ["baton", "batch", "shard", spec.manifest,
                                    "--out", spec.root,
                                    "--index", "$(JOB_COMPLETION_INDEX)",
                                    "--shards", spec.shards.to_string()],
                        "volumeMounts": [{"name": "batch", "mountPath": spec.root}],
                    }],
                    "volumes": [{"name": "batch", "persistentVolumeClaim": {"claimName": spec.volume_claim}}],
                },
            },
        },
    })
}

/// Indexes named by a Job's `status.completedIndexes`/`failedIndexes` ("0-2,5").
pub fn indexes(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                if let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) {
                    out.extend(a..=b);
                }
            }
            None => out.extend(part.parse::<usize>()),
        }
    }
    out
}

/// Applies the Job with `kubectl` and follows it until every index completed or failed;
/// returns the failed indexes.
pub fn run(spec: &JobSpec, kubectl: &str, echo: &dyn Fn(&str)) -> std::io::Result<Vec<usize>> {
    use std::io::Write as _;
    let mut apply = std::process::Command::new(kubectl)
        .args(["apply", "-f", "-"])
        .stdin(std::process::Stdio::piped())
        .spawn()?;
    if let Some(stdin) = apply.stdin.as_mut() {
        stdin.write_all(render(spec).to_string().as_bytes())?;
    }
    drop(apply.stdin.take());
    if !apply.wait()?.success() {
        return Err(std::io::Error::other("kubectl apply failed"));
    }
    let mut last = String::new();
    loop {
        let output = std::process::Command::new(kubectl)
            .args(["get", "job", &spec.name, "-o", "json"])
            .output()?;
        if !output.status.success() {
            return Err(std::io::Error::other(format!(
                "kubectl get job {} failed: {}",
                spec.name,
                String::from_utf8_lossy(&output.stderr)
            )));
        }
        let job: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
        let completed = indexes(job["status"]["completedIndexes"].as_str().unwrap_or(""));
        let failed = indexes(job["status"]["failedIndexes"].as_str().unwrap_or(""));
        let line = format!(
            "job {}: {} of {} shards completed, {} failed",
            spec.name,
            completed.len(),
            spec.shards,
            failed.len()
        );
        if line != last {
            echo(&line);
            last = line;
        }
        if completed.len() + failed.len() >= spec.shards {
            return Ok(failed);
        }
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
}
