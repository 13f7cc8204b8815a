//! Ordinary behaviour inside the sandbox: exit codes, stdin, the workspace, the environment.

mod common;

use std::fs::Permissions;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::time::Duration;

use baton_sandbox::{Command, Policy, Sandbox, SandboxError};
use common::*;

#[tokio::test(flavor = "multi_thread")]
async fn exit_codes_are_reported_not_errors() {
    let ws = TempDir::new("exit");
    assert_eq!(run_in(ws.path(), "true").await.exit_code, 0);
    assert_eq!(run_in(ws.path(), "exit 3").await.exit_code, 3);
    assert_eq!(run_in(ws.path(), "false").await.exit_code, 1);
    // A child killed by a signal: bash reports 128+signal.
    let out = run_in(ws.path(), "bash -c 'kill -TERM $$'; exit $?").await;
    assert_eq!(out.exit_code, 128 + 15);
    let out = run_in(ws.path(), "echo out; echo err >&2; exit 7").await;
    assert_eq!(text(&out.stdout), "out\n");
    assert_eq!(text(&out.stderr), "err\n");
    assert_eq!(out.exit_code, 7);
    assert!(!out.timed_out && !out.stdout_truncated && !out.stderr_truncated);
}

#[tokio::test(flavor = "multi_thread")]
async fn stdin_round_trips_and_defaults_to_dev_null() {
    let ws = TempDir::new("stdin");
    let sb = sandbox(Policy::for_workspace(ws.path()));
    let input: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    let out = sb
        .run(Command {
            script: "cat".into(),
            stdin: Some(input.clone()),
            timeout: Duration::from_secs(60),
        })
        .await
        .unwrap();
    assert_eq!(out.exit_code, 0);
    // The cap is 1 MiB: the first MiB comes back exactly, then the marker.
    assert!(out.stdout_truncated);
    assert_eq!(&out.stdout[..1 << 20], &input[..1 << 20]);

    let out = sb
        .run(Command {
            script: "wc -c; read -r x && echo got \"$x\"".into(),
            stdin: Some(b"hello\n".to_vec()),
            timeout: Duration::from_secs(60),
        })
        .await
        .unwrap();
    assert_eq!(text(&out.stdout).trim(), "6");

    // No input: stdin is /dev/null, so reading ends at once instead of hanging.
    let out = run_in(ws.path(), "cat; readlink /proc/self/fd/0").await;
    assert_eq!(text(&out.stdout).trim(), "/dev/null");
    // A command that ignores a large input still finishes.
    let out = sb
        .run(Command {
            script: "echo ignored".into(),
            stdin: Some(vec![b'x'; 10 << 20]),
            timeout: Duration::from_secs(60),
        })
        .await
        .unwrap();
    assert_eq!(text(&out.stdout), "ignored\n");
}

#[tokio::test(flavor = "multi_thread")]
async fn workspace_is_cwd_writable_and_persists() {
    let ws = TempDir::new("ws");
    std::fs::write(ws.path().join("given.txt"), "from host").unwrap();
    let out = run_in(
        ws.path(),
        "pwd; cat given.txt; echo; echo made > made.txt; mkdir -p sub/dir && echo deep > sub/dir/f; echo $HOME",
    )
    .await;
    assert_eq!(out.exit_code, 0, "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "/workspace\nfrom host\n/workspace\n");
    assert_eq!(
        std::fs::read_to_string(ws.path().join("made.txt")).unwrap(),
        "made\n"
    );
    assert_eq!(
        std::fs::read_to_string(ws.path().join("sub/dir/f")).unwrap(),
        "deep\n"
    );
    // A second run sees the first run's files.
    let out = run_in(ws.path(), "cat made.txt").await;
    assert_eq!(text(&out.stdout), "made\n");
}

#[tokio::test(flavor = "multi_thread")]
async fn environment_is_minimal() {
    let ws = TempDir::new("env");
    let out = run_in(ws.path(), "env | cut -d= -f1 | sort").await;
    let names: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    let allowed = ["HOME", "LANG", "PATH", "PWD", "SHLVL", "TMPDIR", "_"];
    for name in &names {
        assert!(
            allowed.contains(&name.as_str()),
            "unexpected variable {name}"
        );
    }
    let out = run_in(
        ws.path(),
        "echo $PATH; echo $LANG; echo $HOME; hostname; id -u",
    )
    .await;
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert!(lines[0].starts_with("/usr/local/bin:/usr/bin:/bin"));
    assert_eq!(lines[1], "C.UTF-8");
    assert_eq!(lines[2], "/workspace");
    assert_eq!(lines[3], "baton");
    assert_eq!(lines[4], "0");
}

#[tokio::test(flavor = "multi_thread")]
async fn tools_work_inside() {
    let ws = TempDir::new("tools");
    let out = run_in(
        ws.path(),
        "printf 'b\\na\\n' | sort | tr a-z A-Z; echo x > /tmp/t && cat /tmp/t; ls /dev | tr '\\n' ' '; echo; seq 3 | wc -l",
    )
    .await;
    assert_eq!(out.exit_code, 0, "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(&lines[..3], ["A", "B", "x"]);
    for dev in lines[3].split_whitespace() {
        assert!(
            [
                "fd", "full", "null", "random", "stderr", "stdin", "stdout", "tty", "urandom",
                "zero"
            ]
            .contains(&dev),
            "unexpected /dev entry {dev}"
        );
    }
    assert_eq!(lines[4], "3");
}

#[tokio::test(flavor = "multi_thread")]
async fn extra_read_only_paths_are_visible_read_only() {
    let ws = TempDir::new("rows");
    // The sandbox's own /tmp hides the host's, so a read-only path under the host /tmp is
    // refused: use /var/tmp, or the target directory when that is not under /tmp (the checkout
    // itself may be, as CI's can).
    let name = format!("baton-ro-{}", std::process::id());
    let target = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let extra = if std::path::Path::new("/var/tmp").is_dir() {
        std::path::PathBuf::from("/var/tmp").join(name)
    } else {
        target.join(name)
    };
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::write(extra.join("tool.sh"), "echo tool ran").unwrap();
    let mut policy = Policy::for_workspace(ws.path());
    policy.read_only.push(extra.clone());
    let script = format!(
        "bash {0}/tool.sh; echo x > {0}/new 2>/dev/null && echo wrote || echo refused",
        extra.display()
    );
    let out = sandbox(policy).run(command(&script)).await.unwrap();
    let _ = std::fs::remove_dir_all(&extra);
    assert_eq!(text(&out.stdout), "tool ran\nrefused\n");
}

#[tokio::test(flavor = "multi_thread")]
async fn setup_failures_are_errors_that_name_the_step() {
    let ws = TempDir::new("fail");
    let mut policy = Policy::for_workspace(ws.path());
    policy.read_only.push("/does/not/exist".into());
    match sandbox(policy).run(command("true")).await {
        Err(SandboxError::Setup { step, message }) => {
            assert!(step.contains("/does/not/exist"), "{step}");
            assert!(message.contains("ENOENT"), "{message}");
        }
        other => panic!("expected a setup error, got {other:?}"),
    }
    let mut policy = Policy::for_workspace(ws.path());
    policy.read_only.push("/proc/self".into());
    assert!(matches!(
        sandbox(policy).run(command("true")).await,
        Err(SandboxError::Setup { .. })
    ));
    let mut policy = Policy::for_workspace(ws.path());
    policy.read_only.push("relative".into());
    assert!(matches!(
        sandbox(policy).run(command("true")).await,
        Err(SandboxError::InvalidPolicy(_))
    ));
    assert!(matches!(
        sandbox(Policy::default()).run(command("true")).await,
        Err(SandboxError::InvalidPolicy(_))
    ));
    assert!(matches!(
        sandbox(Policy::for_workspace(ws.path()))
            .run(command("echo \0"))
            .await,
        Err(SandboxError::InvalidCommand(_))
    ));
    // A helper that does not speak the protocol.
    let bogus = baton_sandbox::Sandbox::new(
        baton_sandbox::HelperExe::new("/bin/true"),
        Policy::for_workspace(ws.path()),
        baton_sandbox::Mode::Enforce,
    );
    assert!(matches!(
        bogus.run(command("true")).await,
        Err(SandboxError::Helper(_))
    ));
    let missing = baton_sandbox::Sandbox::new(
        baton_sandbox::HelperExe::new("/no/such/helper"),
        Policy::for_workspace(ws.path()),
        baton_sandbox::Mode::Enforce,
    );
    assert!(matches!(
        missing.run(command("true")).await,
        Err(SandboxError::Spawn { .. })
    ));
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_runs_are_independent() {
    let ws = TempDir::new("conc");
    let sb = sandbox(Policy::for_workspace(ws.path()));
    let runs = (0..8)
        .map(|i| {
            let sb = sb.clone();
            tokio::spawn(async move {
                sb.run(command(&format!(
                    "echo {i} > /tmp/mine; sleep 0.2; cat /tmp/mine"
                )))
                .await
                .unwrap()
            })
        })
        // Collected, so all eight are started before the first is awaited.
        .collect::<Vec<_>>();
    for (i, run) in runs.into_iter().enumerate() {
        let out = run.await.unwrap();
        // Each run has its own /tmp.
        assert_eq!(text(&out.stdout), format!("{i}\n"));
    }
}

#[test]
fn info_reports_every_layer() {
    let info = baton_sandbox::info(&helper());
    assert!(info.usable(), "{info}");
    let shown = info.to_string();
    for layer in [
        "identity",
        "namespaces",
        "filesystem",
        "rlimits",
        "landlock",
        "capabilities",
        "no_new_privs",
        "seccomp",
        "cgroup-pids",
        "cgroup-memory",
    ] {
        assert!(
            shown.contains(&format!("{layer}: ")),
            "{layer} missing from:\n{shown}"
        );
    }
    let broken = baton_sandbox::info(&baton_sandbox::HelperExe::new("/bin/true"));
    assert!(!broken.usable());
    assert!(broken.to_string().contains("sandbox: unavailable"));
}

/// A branch's overlay workspace: the command reads and changes its parent's files (even
/// owner-only ones), its writes land in the upper layer as the caller's files, and the lower
/// layer is untouched. As root this goes through idmapped layers (see the identity module).
#[tokio::test(flavor = "multi_thread")]
async fn overlay_workspace_reads_the_lower_and_writes_the_upper() {
    let root = TempDir::new("overlay");
    let base = Sandbox::new(
        helper(),
        Policy::for_workspace(root.path()),
        baton_sandbox::Mode::Enforce,
    );
    if !base.overlay_works(&root.path().join("probe")).await {
        eprintln!("not checked: this kernel does not let the sandbox mount overlayfs");
        return;
    }
    let [lower, upper, work] = ["lower", "fork/upper", "fork/work"].map(|d| root.path().join(d));
    for dir in [&lower, &upper, &work] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(lower.join("private"), "secret of the parent\n").unwrap();
    std::fs::set_permissions(lower.join("private"), Permissions::from_mode(0o600)).unwrap();
    let sandbox = base.with_overlay(
        &upper,
        baton_sandbox::OverlayLayers {
            lowers: vec![lower.clone()],
            work,
        },
    );
    let out = sandbox
        .run(command(
            "cat private && echo changed >> private && echo new > made && ls; \
             grep -c ' /workspace ' /proc/self/mountinfo >&2; cat /proc/self/mountinfo >&2",
        ))
        .await
        .unwrap();
    // The overlay's options name its layers by neutral paths, not the host's.
    let mountinfo = text(&out.stderr);
    assert!(mountinfo.starts_with("1\n"), "{mountinfo}");
    assert!(
        !mountinfo.contains(&root.path().display().to_string()),
        "host paths in /proc/self/mountinfo:\n{mountinfo}"
    );
    assert_eq!(
        text(&out.stdout),
        "secret of the parent\nmade\nprivate\n",
        "stderr: {}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(lower.join("private")).unwrap(),
        "secret of the parent\n"
    );
    assert_eq!(
        std::fs::read_to_string(upper.join("private")).unwrap(),
        "secret of the parent\nchanged\n"
    );
    // SAFETY: geteuid/getegid have no preconditions.
    let caller = unsafe { (libc::geteuid(), libc::getegid()) };
    for name in ["private", "made"] {
        let meta = std::fs::metadata(upper.join(name)).unwrap();
        assert_eq!(
            (meta.uid(), meta.gid()),
            caller,
            "{name} is not the caller's"
        );
    }
}

/// Everything above, again with baton as an unprivileged user (when this runs as root).
#[test]
fn basics_hold_for_an_unprivileged_caller_too() {
    rerun_as_unprivileged_user("basics_hold_for_an_unprivileged_caller_too");
}

/// An overlayfs mount made by this test on the host, detached on drop.
struct HostOverlay(std::path::PathBuf);

impl HostOverlay {
    /// Mounts overlayfs at `root/merged` (root only); `None` where that is refused.
    fn mount(root: &std::path::Path) -> Option<HostOverlay> {
        let [lower, upper, work, merged] =
            ["lower", "upper", "work", "merged"].map(|d| root.join(d));
        for dir in [&lower, &upper, &work, &merged] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let c = |p: &std::path::Path| std::ffi::CString::new(p.as_os_str().as_encoded_bytes());
        let options = format!(
            "lowerdir={},upperdir={},workdir={}",
            lower.display(),
            upper.display(),
            work.display()
        );
        let (target, options) = (c(&merged).ok()?, std::ffi::CString::new(options).ok()?);
        // SAFETY: valid NUL-terminated strings.
        let ret = unsafe {
            libc::mount(
                c"overlay".as_ptr(),
                target.as_ptr(),
                c"overlay".as_ptr(),
                0,
                options.as_ptr().cast(),
            )
        };
        (ret == 0).then(|| HostOverlay(merged))
    }
}

impl Drop for HostOverlay {
    fn drop(&mut self) {
        if let Ok(c) = std::ffi::CString::new(self.0.as_os_str().as_encoded_bytes()) {
            // SAFETY: a valid path; detaching our own mount.
            unsafe { libc::umount2(c.as_ptr(), libc::MNT_DETACH) };
        }
    }
}

/// As root, the command runs as an unprivileged id and owns its workspace through an
/// idmapped mount; overlayfs (the root filesystem of most containers) has none. A workspace
/// that is Baton's own copy is then given to the command's id; the user's own directory is
/// not, and the run fails closed saying why.
#[tokio::test(flavor = "multi_thread")]
async fn as_root_a_workspace_without_idmapped_mounts() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("not checked: only root runs commands as another id");
        return;
    }
    let root = TempDir::new("no-idmap");
    let Some(overlay) = HostOverlay::mount(root.path()) else {
        eprintln!("not checked: cannot mount overlayfs on the host here");
        return;
    };
    let ws = overlay.0.join("ws");
    std::fs::create_dir_all(ws.join("sub")).unwrap();
    std::fs::write(ws.join("sub/owned"), "parent\n").unwrap();
    std::fs::set_permissions(ws.join("sub/owned"), Permissions::from_mode(0o4755)).unwrap();

    let user_dir = sandbox(Policy::for_workspace(&ws))
        .run(command("true"))
        .await;
    match user_dir {
        Err(SandboxError::Setup { step, message }) => {
            assert!(step.contains("idmapped mount"), "{step}");
            assert!(message.contains("--in-place"), "{message}");
        }
        other => panic!("expected a setup error for the user's directory, got {other:?}"),
    }

    let copy = Policy {
        private_workspace: true,
        ..Policy::for_workspace(&ws)
    };
    let out = sandbox(copy)
        .run(command("cat sub/owned && echo made > sub/new && id -u"))
        .await
        .unwrap();
    assert_eq!(
        text(&out.stdout),
        "parent\n0\n",
        "stderr: {}",
        text(&out.stderr)
    );
    let expected = 0x6261_746e;
    for name in ["", "sub", "sub/owned", "sub/new"] {
        let meta = std::fs::symlink_metadata(ws.join(name)).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (expected, expected), "{name:?}");
    }
    let mode = std::fs::metadata(ws.join("sub/owned")).unwrap().mode();
    assert_eq!(mode & 0o6000, 0, "chown keeps no setuid bit");
    drop(overlay);
}
