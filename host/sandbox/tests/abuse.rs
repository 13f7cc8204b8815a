//! Resource abuse: process floods, output floods, filling /tmp, outliving the timeout. Each test
//! asserts the abuse was contained and the host is intact afterwards.

mod common;

use std::path::Path;
use std::time::Duration;

use baton_sandbox::{truncation_marker, Command, Mode, Policy, Sandbox};
use common::*;

/// A generous bound for runs that must end by themselves or by their timeout: a hang guard, not
/// a performance check.
const HANG_GUARD: Duration = Duration::from_secs(20);

/// The host still starts processes, and a sandbox still runs commands.
async fn host_still_spawns(ws: &Path) {
    let status = std::process::Command::new("/bin/true").status().unwrap();
    assert!(status.success());
    let out = run_in(ws, "echo alive").await;
    assert_eq!(text(&out.stdout), "alive\n", "{}", text(&out.stderr));
}

#[tokio::test(flavor = "multi_thread")]
async fn fork_bomb_is_contained() {
    let ws = TempDir::new("forkbomb");
    // Numeric, so that the flood's sleeps can carry it as an argument.
    let marker = numeric_marker();
    let max_processes = 24;
    let mut policy = Policy::for_workspace(ws.path());
    policy.max_processes = max_processes;
    // Root ignores RLIMIT_NPROC: without the pids cgroup only the timeout would stop a real
    // fork bomb, which would swamp the machine first. Then a bounded flood stands in for it.
    let cgroup = pids_cgroup_active();
    let script = if cgroup {
        // The final sleep keeps pid 1 alive (else its exit would end the bomb at once).
        format!(": {marker}; :(){{ :|:& }};: ; sleep 30")
    } else {
        eprintln!(
            "note: no pids cgroup here; running a bounded process flood instead of a fork bomb"
        );
        format!(": {marker}; for i in $(seq 200); do sleep 30 {marker} & done; sleep 30")
    };
    let watch = ProcessWatch::start(&marker);
    let sb = sandbox(policy);
    let out = sb
        .run(Command {
            script,
            stdin: None,
            timeout: Duration::from_secs(3),
        })
        .await
        .unwrap();
    let max_seen = watch.max_seen();
    assert!(out.duration < HANG_GUARD, "took {:?}", out.duration);
    assert!(
        out.timed_out || out.exit_code != 0,
        "the bomb ran to a clean exit: code {}, {:?}",
        out.exit_code,
        out.duration
    );
    if cgroup {
        // The limit bound (the helper, outside the pid namespace, counts too and has no marker),
        // and bash saw its forks refused.
        assert!(
            max_seen <= max_processes as usize,
            "{max_seen} processes at once with max_processes = {max_processes}"
        );
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("fork"),
            "no fork failure reported: {stderr}"
        );
    }
    assert!(max_seen >= 1, "the watcher never saw the command");
    // Nothing of it is left on the host.
    let left = remaining_after(&marker, Duration::from_secs(5));
    assert!(left.is_empty(), "processes left on the host: {left:?}");
    host_still_spawns(ws.path()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn output_floods_are_capped_and_drained() {
    let ws = TempDir::new("flood");
    let cap = 64 * 1024;
    let marker = truncation_marker(cap);
    for mode in [Mode::Enforce, Mode::None] {
        let _ = std::fs::remove_file(ws.path().join("done.txt"));
        let mut policy = Policy::for_workspace(ws.path());
        policy.output_cap = cap;
        let out = Sandbox::new(helper(), policy, mode)
            .run(Command {
                // Both streams at once, 50 MiB each, then a sign of completion in the workspace.
                script: "(yes | head -c 50M) & (yes err | head -c 50M >&2) & wait; \
                         echo finished > done.txt"
                    .into(),
                stdin: None,
                timeout: Duration::from_secs(120),
            })
            .await
            .unwrap();
        assert!(
            !out.timed_out,
            "{mode:?}: the flood did not finish ({:?})",
            out.duration
        );
        assert_eq!(out.exit_code, 0, "{mode:?}");
        assert!(out.stdout_truncated && out.stderr_truncated, "{mode:?}");
        for (stream, pattern) in [(&out.stdout, &b"y\n"[..]), (&out.stderr, &b"err\n"[..])] {
            assert_eq!(stream.len(), cap + marker.len(), "{mode:?}");
            assert!(
                stream.ends_with(marker.as_bytes()),
                "{mode:?}: no truncation marker"
            );
            let kept = &stream[..cap];
            assert!(
                kept.chunks(pattern.len()).all(|c| pattern.starts_with(c)),
                "{mode:?}: the kept bytes are not the stream's beginning"
            );
        }
        assert_eq!(
            std::fs::read_to_string(ws.path().join("done.txt")).unwrap(),
            "finished\n",
            "{mode:?}: the command did not run to its end"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn filling_tmp_hits_its_cap_and_stays_private() {
    let ws = TempDir::new("fill-tmp");
    let name = unique("baton-fill");
    let tmp_bytes: u64 = 1 << 20;
    let mut policy = Policy::for_workspace(ws.path());
    policy.tmp_bytes = tmp_bytes;
    let sb = sandbox(policy);
    let script = format!(
        "head -c 8M /dev/zero > /tmp/{name}; echo \"rc=$?\"; stat -c %s /tmp/{name}; \
         stat -f -c %T /tmp; stat -f -c '%b*%S' /tmp; ls /tmp"
    );
    let out = sb.run(command(&script)).await.unwrap();
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("rc=") && lines[0] != "rc=0",
        "{stdout}\n{stderr}"
    );
    assert!(stderr.contains("No space left on device"), "{stderr}");
    let size: u64 = lines[1].parse().unwrap();
    assert!(
        size <= tmp_bytes,
        "{size} bytes written to a {tmp_bytes}-byte /tmp"
    );
    // /tmp is its own tmpfs of exactly the policy's size.
    assert_eq!(lines[2], "tmpfs");
    let (blocks, block_size) = lines[3].split_once('*').unwrap();
    let fs_bytes = blocks.parse::<u64>().unwrap() * block_size.parse::<u64>().unwrap();
    assert_eq!(fs_bytes, tmp_bytes, "{stdout}");
    assert!(lines[4..].contains(&name.as_str()), "{stdout}");
    // The host's /tmp (and the temp dir, if elsewhere) never saw the file, nor the workspace.
    for dir in [Path::new("/tmp"), std::env::temp_dir().as_path(), ws.path()] {
        assert!(
            !dir.join(&name).exists(),
            "{} appeared on the host",
            dir.join(&name).display()
        );
    }
    // The next run has a fresh /tmp.
    let out = sb
        .run(command(&format!("ls /tmp/{name} 2>/dev/null | wc -l")))
        .await
        .unwrap();
    assert_eq!(text(&out.stdout).trim(), "0");
}

#[tokio::test(flavor = "multi_thread")]
async fn timeout_kills_the_whole_tree_including_daemons() {
    let ws = TempDir::new("timeout");
    // The daemons' marker is assembled by bash, so only the daemons carry it, not the script
    // (which pid 1's command line shows); the script carries its own marker.
    let daemon = numeric_marker();
    let (head, last) = daemon.split_at(daemon.len() - 1);
    let shell = unique("timeout-shell");
    // Daemons that leave the session and ignore the polite signals, then a long sleep.
    let script = format!(
        ": {shell}; m={head}; m=${{m}}{last}; trap '' TERM HUP INT; setsid sleep 1000 $m & \
         (trap '' TERM HUP; setsid nohup sleep 1000 $m >/dev/null 2>&1 &) ; \
         echo started; sleep 30"
    );
    let watch = ProcessWatch::start(&daemon);
    let out = sandbox(Policy::for_workspace(ws.path()))
        .run(Command {
            script,
            stdin: None,
            timeout: Duration::from_secs(1),
        })
        .await
        .unwrap();
    let max_seen = watch.max_seen();
    assert!(
        out.timed_out,
        "not timed out: code {}, stderr {}",
        out.exit_code,
        text(&out.stderr)
    );
    assert_ne!(out.exit_code, 0);
    assert!(out.duration < HANG_GUARD, "took {:?}", out.duration);
    // Both daemons did start (seen from the host) and are gone now, with the shell.
    assert_eq!(text(&out.stdout), "started\n", "{}", text(&out.stderr));
    assert!(
        max_seen >= 2,
        "saw {max_seen} marked daemons at once while it ran"
    );
    for marker in [&daemon, &shell] {
        let left = remaining_after(marker, Duration::from_secs(5));
        assert!(left.is_empty(), "processes left on the host: {left:?}");
    }
}

/// Red-team finding: killed or cancelled commands left their cgroup directories behind (77
/// from one branch call). A command's future dropped mid-run kills its helper; the next
/// command, or the end of the run, removes what that helper could not.
#[tokio::test(flavor = "multi_thread")]
async fn a_killed_commands_cgroups_are_removed() {
    if !pids_cgroup_active() {
        eprintln!("skipped: the cgroup process limit is not available on this machine");
        return;
    }
    let ws = TempDir::new("cgroup-leak");
    let marker = numeric_marker();
    // Two commands, so bash stays (and keeps the marker in its command line) instead of
    // exec'ing sleep.
    let script = format!("sleep 30; true {marker}");
    let watch = async {
        loop {
            if let Some(line) = processes_with(&marker)
                .into_iter()
                .find(|l| l.contains("bash"))
            {
                return line;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    // The command is cancelled (its future dropped) as soon as it runs.
    let found = tokio::select! {
        _ = run_in(ws.path(), &script) => panic!("the command ended by itself"),
        line = watch => line,
    };
    // bash is pid 1 of its namespace; its parent on the host is the helper.
    let pid: u32 = found.split(':').next().unwrap().parse().unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let helper: u32 = stat
        .rsplit(')')
        .next()
        .and_then(|rest| rest.split_whitespace().nth(1))
        .and_then(|ppid| ppid.parse().ok())
        .expect("the helper's pid");
    let name = format!("baton-sandbox-{helper}");
    let leftovers = || -> Vec<std::path::PathBuf> {
        [
            "/sys/fs/cgroup",
            "/sys/fs/cgroup/pids",
            "/sys/fs/cgroup/memory",
        ]
        .iter()
        .flat_map(|root| walkdir_named(Path::new(root), &name, 3))
        .collect()
    };
    // Gone, or a zombie waiting to be reaped (it has left its cgroups either way).
    let running = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !matches!(
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().next()),
                Some("Z" | "X" | "x")
            )
        })
    };
    // Under the whole suite's load a cancelled helper has been seen still running 10 s after
    // its command's future was dropped (to investigate: see the closing note of stop 24); this
    // test is about what the sweep does once the helper is gone, so it waits, and says so when
    // it cannot check.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while running(helper) {
        if std::time::Instant::now() > deadline {
            eprintln!("not checked: the cancelled command's helper {helper} is still running");
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    baton_sandbox::sweep_stale_cgroups();
    assert_eq!(leftovers(), Vec::<std::path::PathBuf>::new());
}

/// Directories named `name` under `root`, at most `depth` levels down.
fn walkdir_named(root: &Path, name: &str, depth: usize) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        if entry.file_name() == name {
            found.push(path);
        } else if depth > 0 {
            found.extend(walkdir_named(&path, name, depth - 1));
        }
    }
    found
}
