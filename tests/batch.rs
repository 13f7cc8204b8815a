//! `baton batch` end to end: the local engine over 3 workspaces x 10 runs, killed with SIGKILL
//! and run again; two copies of one shard at once; collect; status; the Kubernetes Job.

mod support;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::fake_openai::{self, FakeServer};
use support::*;

// The last command adds its line only once: a command the kill cuts runs again when its run
// resumes (README: "a non-idempotent command may run twice"), and a kill that lands after the
// line was written but before the journal recorded the command would otherwise leave it twice.
const PLAN: &str = r#"
from baton import bash, llm

def main(n=0):
    data = bash("cat data.txt").stdout.strip()
    answer = llm(f"question {n} about {data}")
    bash(f"line='run {n}: {answer}'; grep -qxF \"$line\" data.txt || echo \"$line\" >> data.txt")
    return {"passed": n % 2 == 0, "data": data}
"#;

/// A batch of 3 workspaces x 10 runs in `scratch`, its model behind `server`.
fn manifest(scratch: &Scratch, server: &FakeServer) -> String {
    scratch.write("plan.py", PLAN);
    let mut lines = String::new();
    for repo in 1..=3 {
        let dir = scratch.path().join(format!("repo{repo}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("data.txt"), format!("value {repo}\n")).unwrap();
        for n in 0..10 {
            lines.push_str(
                &serde_json::json!({
                    "id": format!("r{repo}-n{n}"),
                    "plan": "plan.py",
                    "workspace": format!("repo{repo}"),
                    "inputs": {"n": n},
                    "grants": ["bash", "llm"],
                    "llm": "openai:fake",
                    "tags": {"variant": format!("repo{repo}"), "instance_id": format!("repo{repo}__{n}")},
                })
                .to_string(),
            );
            lines.push('\n');
        }
    }
    let _ = server;
    scratch.write("manifest.jsonl", &lines)
}

fn batch(scratch: &Scratch, server: &FakeServer, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_baton"));
    command
        .arg("batch")
        .args(args)
        .current_dir(scratch.path())
        .env(
            "BATON_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"),
        )
        .env("OPENAI_BASE_URL", server.base_url())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn results(root: &Path) -> Vec<Value> {
    let mut results: Vec<Value> = std::fs::read_dir(root.join("results"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .map(|e| read_json(&e.path()))
                .collect()
        })
        .unwrap_or_default();
    results.sort_by_key(|r| r["id"].as_str().unwrap_or_default().to_string());
    results
}

/// The issue's scenario: 30 runs, `--parallel 4`, killed with SIGKILL mid-way and run again.
#[test]
fn a_killed_batch_run_again_ends_with_every_result_once() {
    // Each answer takes 400 ms: the kill finds requests in flight.
    let server = FakeServer::start(|request| {
        std::thread::sleep(Duration::from_millis(400));
        format!("answer to {}", fake_openai::last_message(request))
    });
    let scratch = Scratch::new("batch-kill");
    let manifest = manifest(&scratch, &server);
    let root = scratch.path().join("out");
    let args = [
        "run",
        manifest.as_str(),
        "--out",
        root.to_str().unwrap(),
        "--parallel",
        "4",
    ];
    let mut first = batch(&scratch, &server, &args).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    first.kill().unwrap();
    let _ = first.wait();
    let before = results(&root).len();
    assert!(
        before < 30,
        "the kill came too late to test anything ({before} done)"
    );
    let second = batch(&scratch, &server, &args).output().unwrap();
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let results = results(&root);
    assert_eq!(results.len(), 30);
    for result in &results {
        assert_eq!(result["status"], "success", "{result}");
    }
    // No question was asked more than twice, and only those in flight at the kill twice.
    let mut asked: HashMap<String, usize> = HashMap::new();
    for prompt in server.prompts() {
        *asked.entry(prompt).or_default() += 1;
    }
    assert_eq!(asked.len(), 30, "{asked:?}");
    let twice = asked.values().filter(|&&n| n == 2).count();
    assert!(asked.values().all(|&n| n <= 2), "{asked:?}");
    assert!(
        twice <= 8,
        "{twice} questions asked twice: more than were in flight"
    );
    // Each run's workspace change is its own, and the workspaces themselves are untouched.
    let collect = batch(&scratch, &server, &["collect", root.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(collect.status.success());
    let predictions = std::fs::read_to_string(root.join("preds.jsonl")).unwrap();
    let lines: Vec<Value> = predictions
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 30);
    for line in &lines {
        let id = line["run_id"].as_str().unwrap();
        let n = id.rsplit("-n").next().unwrap();
        let patch = line["model_patch"].as_str().unwrap();
        assert!(
            patch.contains(&format!("+run {n}: answer to question {n} about")),
            "{id}: {patch}"
        );
        assert_eq!(patch.matches("\n+run ").count(), 1, "{id}: {patch}");
        assert!(line["instance_id"].as_str().unwrap().starts_with("repo"));
    }
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("repo1/data.txt")).unwrap(),
        "value 1\n"
    );
    let trajectory = read_json(&root.join("trajectories/r2-n3/r2-n3.traj.json"));
    assert_eq!(trajectory["trajectory_format"], "mini-swe-agent-1.1");
    assert_eq!(trajectory["messages"][1]["role"], "assistant");
    let summary = read_json(&root.join("summary.json"));
    assert_eq!(summary["all"]["runs"], 30);
    assert_eq!(summary["all"]["pass_rate"], 0.5);
    assert_eq!(summary["variant=repo2"]["runs"], 10);
    let status = batch(
        &scratch,
        &server,
        &["status", root.to_str().unwrap(), "--format", "json"],
    )
    .output()
    .unwrap();
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["done"], 30, "{status}");
    assert_eq!(status["by_status"]["success"], 30);
}

/// Two copies of one shard at once (Kubernetes may start a replacement pod before the old one
/// is gone): every run ends once, each run by one of them.
#[test]
fn two_copies_of_a_shard_never_run_one_run_twice() {
    let server = FakeServer::start(|request| {
        std::thread::sleep(Duration::from_millis(100));
        format!("answer to {}", fake_openai::last_message(request))
    });
    let scratch = Scratch::new("batch-twice");
    let manifest = manifest(&scratch, &server);
    let root = scratch.path().join("out");
    let shard = [
        "shard",
        manifest.as_str(),
        "--out",
        root.to_str().unwrap(),
        "--index",
        "0",
        "--shards",
        "1",
        "--jobs",
        "3",
    ];
    let a = batch(&scratch, &server, &shard).spawn().unwrap();
    let b = batch(&scratch, &server, &shard).spawn().unwrap();
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    // One may find runs the other holds: it says so with the retry code; run it again.
    for output in [&a, &b] {
        assert!(
            output.status.success() || output.status.code() == Some(75),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let again = batch(&scratch, &server, &shard).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(results(&root).len(), 30);
    let mut asked: HashMap<String, usize> = HashMap::new();
    for prompt in server.prompts() {
        *asked.entry(prompt).or_default() += 1;
    }
    assert_eq!(asked.len(), 30);
    assert!(
        asked.values().all(|&n| n == 1),
        "a run ran twice: {asked:?}"
    );
}

#[test]
fn a_bad_manifest_is_refused_line_by_line_before_anything_runs() {
    let scratch = Scratch::new("batch-bad");
    scratch.write("plan.py", "print(1)\n");
    let manifest = scratch.write(
        "manifest.jsonl",
        "{\"id\": \"a\", \"plan\": \"plan.py\"}\n{\"id\": \"a\", \"plan\": \"plan.py\"}\n{\"id\": \"b\", \"plan\": \"nope.py\", \"grants\": [\"root\"]}\n",
    );
    let output = baton_in(scratch.path(), &["batch", "run", &manifest, "--out", "out"]);
    assert_exit(&output, 2);
    let stderr = stderr(&output);
    assert!(
        stderr.contains("manifest.jsonl:2: id \"a\" is also on line 1"),
        "{stderr}"
    );
    assert!(stderr.contains("manifest.jsonl:3: plan"), "{stderr}");
    assert!(
        stderr.contains("manifest.jsonl:3: grant \"root\""),
        "{stderr}"
    );
    assert!(!scratch.path().join("out").exists(), "nothing ran");
}

#[test]
fn the_kubernetes_job_is_an_indexed_job_of_the_shards() {
    let server = FakeServer::start(|_| String::new());
    let scratch = Scratch::new("batch-k8s");
    let manifest = manifest(&scratch, &server);
    let output = baton_in(
        scratch.path(),
        &[
            "batch",
            "render",
            &manifest,
            "--out",
            "/batch",
            "--engine",
            "k8s",
            "--shards",
            "3",
            "--parallel",
            "2",
            "--image",
            "registry/baton:1",
        ],
    );
    assert_exit(&output, 0);
    let job: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(job["apiVersion"], "batch/v1");
    assert_eq!(job["kind"], "Job");
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    assert_eq!(spec["completions"], 3);
    assert_eq!(spec["parallelism"], 2);
    assert_eq!(spec["backoffLimitPerIndex"], 3);
    assert_eq!(spec["podReplacementPolicy"], "Failed");
    let rules = spec["podFailurePolicy"]["rules"].as_array().unwrap();
    assert_eq!(rules[1]["action"], "Count");
    assert_eq!(rules[1]["onExitCodes"]["values"], serde_json::json!([75]));
    assert_eq!(rules[2]["action"], "FailIndex");
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["restartPolicy"], "Never");
    let container = &pod["containers"][0];
    assert_eq!(container["image"], "registry/baton:1");
    let command: Vec<&str> = container["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(&command[..3], ["baton", "batch", "shard"]);
    assert!(command.contains(&"$(JOB_COMPLETION_INDEX)"));
    assert_eq!(container["volumeMounts"][0]["mountPath"], "/batch");
    assert_eq!(
        pod["volumes"][0]["persistentVolumeClaim"]["claimName"],
        "baton-batch"
    );
}

/// `--engine slurm` against stand-ins for `sbatch` and `sacct` (Slurm's daemons are not on
/// this machine): the job array's tasks run the shard command, one task fails with the retry
/// code once (an infrastructure failure), and the engine resubmits just that index.
#[test]
fn the_slurm_engine_submits_an_array_and_resubmits_what_needs_a_retry() {
    let server =
        FakeServer::start(|request| format!("answer to {}", fake_openai::last_message(request)));
    let scratch = Scratch::new("batch-slurm");
    let manifest = manifest(&scratch, &server);
    let bin = scratch.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let state = scratch.path().join("slurm-state");
    std::fs::create_dir_all(&state).unwrap();
    // sbatch --parsable --array=LIST%P --output=... --job-name=... --wrap=COMMAND: runs each
    // task now, as Slurm would, recording its exit code; index 1 fails with 75 the first time.
    let sbatch = format!(
        r#"#!/bin/bash
set -u
state={state}
job=$(( $(ls -d "$state"/[0-9]* 2>/dev/null | wc -l) + 100 ))
for arg in "$@"; do
    case "$arg" in
        --array=*) list=${{arg#--array=}}; list=${{list%%\%*}} ;;
        --wrap=*) wrap=${{arg#--wrap=}} ;;
    esac
done
mkdir -p "$state/$job"
echo "$list" > "$state/$job/submitted"
for index in ${{list//,/ }}; do
    if [ "$index" = 1 ] && [ ! -e "$state/failed-once" ]; then
        touch "$state/failed-once"; echo 75 > "$state/$job/$index"; continue
    fi
    SLURM_ARRAY_TASK_ID=$index bash -c "$wrap" > /dev/null 2>&1
    echo $? > "$state/$job/$index"
done
echo "$job"
"#,
        state = state.display()
    );
    let sacct = format!(
        r#"#!/bin/bash
state={state}
job=$2
for file in "$state/$job"/[0-9]*; do
    index=$(basename "$file"); code=$(cat "$file")
    if [ "$code" = 0 ]; then s=COMPLETED; else s=FAILED; fi
    echo "${{job}}_${{index}}|$s|$code:0"
done
"#,
        state = state.display()
    );
    // No controller to ask: the engine falls back to sacct.
    let scontrol = "#!/bin/bash\nexit 1\n".to_string();
    for (name, text) in [("sbatch", sbatch), ("sacct", sacct), ("scontrol", scontrol)] {
        let path = bin.join(name);
        std::fs::write(&path, text).unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let root = scratch.path().join("out");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = batch(
        &scratch,
        &server,
        &[
            "run",
            &manifest,
            "--out",
            root.to_str().unwrap(),
            "--engine",
            "slurm",
            "--parallel",
            "2",
        ],
    )
    .env("PATH", path)
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("resubmitting shards [1]"), "{stderr}");
    assert_eq!(results(&root).len(), 30);
    // Three groups, three shards: the first array had them all, the second only index 1.
    let submitted: Vec<String> = ["100", "101"]
        .iter()
        .map(|job| std::fs::read_to_string(state.join(job).join("submitted")).unwrap())
        .collect();
    assert_eq!(submitted, ["0,1,2\n", "1\n"]);
}

/// A one-node Slurm cluster of this machine's own daemons (Debian's `slurm-wlm` and `munge`,
/// installed by the test when it runs as root and they are missing), on ports of its own, for
/// the test's lifetime.
struct Slurm {
    conf: std::path::PathBuf,
    dir: std::path::PathBuf,
}

impl Slurm {
    fn start(scratch: &Scratch) -> Result<Slurm, String> {
        let have = |program: &str| {
            Command::new("sh")
                .args(["-c", &format!("command -v {program}")])
                .output()
                .is_ok_and(|o| o.status.success())
        };
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let programs = [
            "slurmctld",
            "slurmd",
            "munged",
            "sbatch",
            "scontrol",
            "sinfo",
        ];
        if !programs.iter().all(|p| have(p)) {
            if !root || !have("apt-get") {
                return Err("Slurm is not installed and this test cannot install it (it needs root and apt-get)".into());
            }
            let installed = Command::new("apt-get")
                .args([
                    "install",
                    "-y",
                    "--no-install-recommends",
                    "slurm-wlm",
                    "munge",
                ])
                .env("DEBIAN_FRONTEND", "noninteractive")
                .output()
                .map_err(|e| format!("apt-get: {e}"))?;
            if !installed.status.success() {
                return Err(format!(
                    "apt-get could not install slurm-wlm and munge: {}",
                    String::from_utf8_lossy(&installed.stderr)
                ));
            }
        }
        if !root {
            return Err("Slurm's daemons are started as root here".into());
        }
        let munge_works = || {
            Command::new("sh")
                .args(["-c", "munge -n | unmunge"])
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if !munge_works() {
            for dir in ["/run/munge", "/var/lib/munge", "/var/log/munge"] {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = Command::new("munged").arg("--force").output();
            std::thread::sleep(Duration::from_millis(500));
            if !munge_works() {
                return Err("munged could not be started".into());
            }
        }
        let host = String::from_utf8_lossy(
            &Command::new("hostname")
                .arg("-s")
                .output()
                .map_err(|e| e.to_string())?
                .stdout,
        )
        .trim()
        .to_string();
        let dir = scratch.path().join("slurm");
        for sub in ["state", "spool"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let port = 20_000 + (std::process::id() % 20_000) as u16;
        let conf = dir.join("slurm.conf");
        let d = dir.display();
        std::fs::write(
            &conf,
            format!(
                "ClusterName=batontest\nSlurmctldHost={host}\nSlurmctldPort={port}\nSlurmdPort={}\n\
                 SlurmUser=root\nSlurmdUser=root\nStateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
                 ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nReturnToService=2\n\
                 SchedulerType=sched/backfill\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
                 AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n\
                 JobAcctGatherType=jobacct_gather/none\nMpiDefault=none\nMinJobAge=600\n\
                 SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
                 NodeName={host} CPUs=2 State=UNKNOWN\n\
                 PartitionName=batch Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
                port + 1
            ),
        )
        .unwrap();
        let slurm = Slurm { conf, dir };
        for daemon in ["slurmctld", "slurmd"] {
            let started = Command::new(daemon)
                .arg("-f")
                .arg(&slurm.conf)
                .env("SLURM_CONF", &slurm.conf)
                .output()
                .map_err(|e| format!("{daemon}: {e}"))?;
            if !started.status.success() {
                return Err(format!(
                    "{daemon} did not start: {}",
                    String::from_utf8_lossy(&started.stderr)
                ));
            }
        }
        for _ in 0..60 {
            let sinfo = Command::new("sinfo")
                .args(["-h", "-o", "%t"])
                .env("SLURM_CONF", &slurm.conf)
                .output()
                .map_err(|e| e.to_string())?;
            if String::from_utf8_lossy(&sinfo.stdout).trim() == "idle" {
                return Ok(slurm);
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        Err("the Slurm node did not come up idle".into())
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        for daemon in ["slurmd", "slurmctld"] {
            if let Ok(pid) = std::fs::read_to_string(self.dir.join(format!("{daemon}.pid"))) {
                if let Ok(pid) = pid.trim().parse::<i32>() {
                    // SAFETY: signalling a daemon this test started.
                    unsafe { libc::kill(pid, libc::SIGTERM) };
                }
            }
        }
    }
}

/// The same batch through a real Slurm on this machine, with a shard's task killed mid-way:
/// Slurm reports it killed, the engine resubmits it, and the batch completes with every
/// result once.
#[test]
fn the_batch_runs_through_slurm_with_a_task_killed() {
    let server = FakeServer::start(|request| {
        std::thread::sleep(Duration::from_millis(300));
        format!("answer to {}", fake_openai::last_message(request))
    });
    let scratch = Scratch::new("batch-real-slurm");
    let slurm = match Slurm::start(&scratch) {
        Ok(slurm) => slurm,
        Err(why) => {
            eprintln!("not checked: {why}");
            return;
        }
    };
    let manifest = manifest(&scratch, &server);
    let root = scratch.path().join("out");
    let mut run = batch(
        &scratch,
        &server,
        &[
            "run",
            &manifest,
            "--out",
            root.to_str().unwrap(),
            "--engine",
            "slurm",
            "--parallel",
            "3",
            "--jobs",
            "1",
        ],
    )
    .env("SLURM_CONF", &slurm.conf)
    .spawn()
    .unwrap();
    // Kill shard 1's task once it has started a run.
    let mut killed = false;
    for _ in 0..200 {
        std::thread::sleep(Duration::from_millis(100));
        let holding = std::fs::read_dir(root.join("claims"))
            .map(|entries| {
                entries
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("r2-"))
            })
            .unwrap_or(false);
        if holding {
            // This batch's shard only (other tests run batches too).
            let pattern = format!("batch shard .* --out {} --index 1 ", root.display());
            let status = Command::new("pkill")
                .args(["-KILL", "-f", &pattern])
                .status()
                .unwrap();
            killed = status.success();
            break;
        }
    }
    assert!(killed, "no shard task of group 2 was found running to kill");
    let output = run.wait().unwrap();
    assert!(
        output.success(),
        "the batch did not complete after the kill"
    );
    let results = results(&root);
    assert_eq!(results.len(), 30);
    let mut asked: HashMap<String, usize> = HashMap::new();
    for prompt in server.prompts() {
        *asked.entry(prompt).or_default() += 1;
    }
    assert_eq!(asked.len(), 30);
    assert!(asked.values().all(|&n| n <= 2), "{asked:?}");
}

/// `--engine k8s` against a stand-in for `kubectl` that plays the Job controller: it runs each
/// index's pod command (the shard command with `$(JOB_COMPLETION_INDEX)` set) and reports the
/// indexes in `status.completedIndexes`, which the engine follows to the end.
#[test]
fn the_k8s_engine_applies_the_job_and_follows_its_indexes() {
    let server =
        FakeServer::start(|request| format!("answer to {}", fake_openai::last_message(request)));
    let scratch = Scratch::new("batch-k8s-run");
    let manifest = manifest(&scratch, &server);
    let bin = scratch.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_baton"), bin.join("baton")).unwrap();
    let state = scratch.path().join("job.json");
    let kubectl = format!(
        r#"#!/bin/bash
state={state}
if [ "$1" = apply ]; then
    cat > "$state.applied"
    cat > "$state.py" <<'PY'
import json, subprocess, sys
job = json.load(open(sys.argv[1] + ".applied"))
spec = job["spec"]
done = []
for index in range(spec["completions"]):
    command = [part.replace("$(JOB_COMPLETION_INDEX)", str(index))
               for part in spec["template"]["spec"]["containers"][0]["command"]]
    if subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
        done.append(str(index))
json.dump({{"job": job, "status": {{"completedIndexes": ",".join(done)}}}}, open(sys.argv[1], "w"))
PY
    python3 "$state.py" "$state"
    exit $?
fi
if [ "$1" = get ]; then
    python3 -c 'import json, sys; print(json.dumps({{"status": json.load(open(sys.argv[1]))["status"]}}))' "$state"
fi
"#,
        state = state.display()
    );
    let path = bin.join("kubectl");
    std::fs::write(&path, kubectl).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let root = scratch.path().join("out");
    let search = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = batch(
        &scratch,
        &server,
        &[
            "run",
            &manifest,
            "--out",
            root.to_str().unwrap(),
            "--engine",
            "k8s",
            "--shards",
            "3",
        ],
    )
    .env("PATH", search)
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("3 of 3 shards completed"), "{stderr}");
    assert_eq!(results(&root).len(), 30);
    let applied = read_json(&state);
    assert_eq!(applied["job"]["spec"]["completions"], 3);
}
