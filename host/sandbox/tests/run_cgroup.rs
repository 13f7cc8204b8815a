//! One cgroup for all of a run's commands (`CommandsCgroup`): its limits bind the commands
//! together, each command's own cgroup is made inside it, and nothing is left behind.

mod common;

use baton_sandbox::{CommandsCgroup, Policy, SandboxError};
use common::*;

/// Whether this machine gives the sandbox a cgroup for `controller`.
fn cgroup_works(controller: &str) -> bool {
    let info = baton_sandbox::info(&helper());
    matches!(
        info.layer(&format!("cgroup-{controller}")),
        Some(baton_sandbox::LayerState::Active(_))
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn the_run_s_process_limit_binds_its_commands_together() {
    if !cgroup_works("pids") {
        eprintln!("not checked: no pids cgroup can be made here");
        return;
    }
    let run = CommandsCgroup::create(40, 1 << 30);
    assert!(!run.dirs().is_empty(), "{:?}", run.reports);
    let ws = TempDir::new("run-pids");
    let policy = Policy {
        run_cgroups: run.dirs().to_vec(),
        ..Policy::for_workspace(ws.path())
    };
    // Three commands at once, each trying to hold 30 processes (each within its own limit of
    // 256): together they cannot pass the run's 40. The host samples the run's count. A command
    // is refused either inside (bash cannot fork a `sleep`) or, when the others already hold
    // every process, before it starts (the sandbox's own fork is refused): which one depends on
    // timing, and both are the run's limit at work.
    let script = "for ((i = 0; i < 30; i++)); do sleep 4 & done; wait";
    let commands = 3;
    let runs = (0..commands)
        .map(|_| {
            let sandbox = sandbox(policy.clone());
            tokio::spawn(async move { sandbox.run(command(script)).await })
        })
        .collect::<Vec<_>>();
    let pids = run
        .dirs()
        .iter()
        .map(|dir| dir.join("pids.current"))
        .find(|file| file.exists())
        .expect("the run's pids cgroup");
    let mut most = 0;
    while runs.iter().any(|run| !run.is_finished()) {
        let now: u64 = std::fs::read_to_string(&pids)
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(0);
        most = most.max(now);
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let mut refused = 0;
    for handle in runs {
        refused += usize::from(match handle.await.unwrap() {
            Ok(out) => text(&out.stderr).contains("Resource temporarily unavailable"),
            Err(SandboxError::OutOfProcesses { step }) => {
                assert!(step.contains("fork"), "{step}");
                true
            }
            Err(other) => panic!("a command failed otherwise: {other}"),
        });
    }
    // The kernel refuses every fork past the limit, but not a process moving into the cgroup:
    // each command's helper joins its cgroup by migration (`RunCgroups::join`), so while the
    // others hold all 40, a starting helper can make it 41 until its own first fork is refused.
    // At most one over per command (seen under load: 41).
    assert!(
        most > 0 && most <= 40 + commands,
        "{most} processes at once"
    );
    assert!(refused > 0, "no command was refused a process");
    let dirs = run.dirs().to_vec();
    drop(run);
    for dir in dirs {
        assert!(!dir.exists(), "{} was left behind", dir.display());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_command_with_no_process_left_to_start_is_refused_as_such() {
    if !cgroup_works("pids") {
        eprintln!("not checked: no pids cgroup can be made here");
        return;
    }
    // The helper itself is the run's one process: the sandbox's first fork finds none left.
    let run = CommandsCgroup::create(1, 1 << 30);
    let ws = TempDir::new("run-no-pids");
    let policy = Policy {
        run_cgroups: run.dirs().to_vec(),
        ..Policy::for_workspace(ws.path())
    };
    match sandbox(policy).run(command("echo ran")).await {
        Err(error @ SandboxError::OutOfProcesses { .. }) => {
            assert!(error.to_string().contains("process limit"), "{error}");
        }
        other => panic!("expected OutOfProcesses, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_command_killed_for_memory_is_reported() {
    if !cgroup_works("memory") {
        eprintln!("not checked: no memory cgroup can be made here");
        return;
    }
    let run = CommandsCgroup::create(256, 64 << 20);
    let ws = TempDir::new("run-memory");
    let policy = Policy {
        run_cgroups: run.dirs().to_vec(),
        ..Policy::for_workspace(ws.path())
    };
    let out = sandbox(policy.clone())
        .run(command(
            "x=$(head -c 200M /dev/zero | tr '\\0' a); echo ${#x}",
        ))
        .await
        .unwrap();
    assert_eq!(out.exit_code, 137, "{}", text(&out.stderr));
    assert!(out.memory_kills >= 1);
    let out = sandbox(policy).run(command("echo fine")).await.unwrap();
    assert_eq!((out.exit_code, out.memory_kills), (0, 0));
}
