//! Attacks on the sandbox's isolation. Each asserts the attack failed and the host is intact.

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream, UdpSocket};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use baton_sandbox::{Mode, Policy, Sandbox};
use common::*;

/// What the test compares before and after: a host file's length, mode and mtime.
fn fingerprint(path: &str) -> Option<(u64, u32, i64, i64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.mode(), meta.mtime(), meta.mtime_nsec()))
}

#[tokio::test(flavor = "multi_thread")]
async fn cannot_write_outside_the_workspace() {
    let ws = TempDir::new("write-out");
    let host_target = TempDir::new("write-target");
    let target = host_target.path().display().to_string();
    let ws_host = ws.path().display().to_string();
    let host_tmp = ws.path().parent().unwrap().to_path_buf();
    let name = unique("pwned");
    // Symlinks planted in the workspace (by the host, before the run) pointing at a host
    // directory and at /.
    std::os::unix::fs::symlink(host_target.path(), ws.path().join("escape")).unwrap();
    std::os::unix::fs::symlink("/", ws.path().join("root")).unwrap();
    let watched = ["/etc/passwd", "/usr/bin/env", "/bin/sh"];
    let before: Vec<_> = watched.iter().map(|p| fingerprint(p)).collect();
    let script = format!(
        r#"
        for p in /etc/{name} /usr/{name} /{name} ../{name} ../../{name} /proc/{name} /dev/{name} \
                 {target}/{name} {ws_host}/../{name} escape/{name} root/etc/{name} root/{name} \
                 /workspace/../{name} /proc/self/root/etc/{name} /proc/1/cwd/../{name} \
                 /proc/self/cwd/../../{name} /usr/bin/{name} /etc/passwd /usr/bin/env; do
            if echo x >> "$p" 2>/dev/null; then echo "WROTE $p"; fi
        done
        mkdir /{name}.d 2>/dev/null && echo "WROTE /{name}.d"
        ln -s / mine && echo x > mine/usr/{name} 2>/dev/null && echo "WROTE via own symlink"
        ln /etc/passwd hard 2>/dev/null && echo "HARDLINKED /etc/passwd"
        ln /usr/bin/env hard2 2>/dev/null && echo "HARDLINKED /usr/bin/env"
        touch /etc/passwd 2>/dev/null && echo "TOUCHED /etc/passwd"
        chmod 777 /usr/bin/env 2>/dev/null && echo "CHMODDED /usr/bin/env"
        rm -f /bin/sh 2>/dev/null; test -e /bin/sh || echo "REMOVED /bin/sh"
        mv /etc/passwd /workspace/stolen 2>/dev/null && echo "MOVED /etc/passwd"
        echo done
        "#
    );
    let out = run_in(ws.path(), &script).await;
    assert_eq!(text(&out.stdout), "done\n", "stderr: {}", text(&out.stderr));
    // Host side: nothing appeared, nothing changed.
    assert!(std::fs::read_dir(host_target.path())
        .unwrap()
        .next()
        .is_none());
    for dir in ["/etc", "/usr", "/", "/usr/bin", "/proc", "/dev"] {
        let p = Path::new(dir).join(&name);
        assert!(!p.exists(), "{} exists on the host", p.display());
    }
    assert!(!Path::new(&format!("/{name}.d")).exists());
    assert!(
        !host_tmp.join(&name).exists(),
        "written next to the workspace"
    );
    let after: Vec<_> = watched.iter().map(|p| fingerprint(p)).collect();
    // (The `mv` may leave a copy in the workspace: reading /etc/passwd is allowed; removing it
    // is what must fail.)
    assert_eq!(before, after, "a host file changed: {watched:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn cannot_read_host_secrets() {
    let ws = TempDir::new("secrets");
    let secret = unique("s3cr3t");
    let tmp_secret = std::env::temp_dir().join(unique("baton-secret"));
    std::fs::write(&tmp_secret, &secret).unwrap();
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or("/root".into());
    let home_secret = home.join(format!(".{}", unique("baton-secret")));
    let home_written = std::fs::write(&home_secret, &secret).is_ok();
    // A symlink the host planted in the workspace, pointing at the secret: it resolves inside.
    std::os::unix::fs::symlink(&tmp_secret, ws.path().join("link")).unwrap();
    let t = tmp_secret.display();
    let h = home_secret.display();
    let script = format!(
        "cat {t} {h} link /workspace/..{t} /proc/1/root{t} /proc/self/cwd/..{h} 2>&1; \
         cat /etc/shadow /etc/gshadow; ls / ; ls /root /home /var /run /sys 2>&1; \
         grep -r {prefix} /tmp /etc /workspace 2>/dev/null; true",
        // Only the secret's fixed prefix is in the script: the secret itself must not appear
        // in the command line, which the command can read.
        prefix = "s3cr3t-",
    );
    let out = run_in(ws.path(), &script).await;
    let _ = std::fs::remove_file(&tmp_secret);
    if home_written {
        let _ = std::fs::remove_file(&home_secret);
    }
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(
        !stdout.contains(&secret) && !stderr.contains(&secret),
        "secret leaked:\n{stdout}\n{stderr}"
    );
    assert!(!stdout.contains("root:"), "/etc/shadow readable:\n{stdout}");
    // The attempts ran: each of the six paths was reported missing by cat.
    let missing = stdout
        .lines()
        .filter(|l| l.starts_with("cat: ") && l.ends_with("No such file or directory"))
        .count();
    assert_eq!(missing, 6, "{stdout}");
    let root_listing: Vec<&str> = stdout.lines().collect();
    for gone in [
        "home", "root", "var", "run", "sys", "work", "boot", "opt", "mnt",
    ] {
        assert!(
            !root_listing.contains(&gone),
            "/{gone} is visible inside:\n{stdout}"
        );
    }
}

/// Regular files under /etc that the host keeps from other users but this test process can
/// read (as root on CI: TLS private keys, service configs), with a prefix of their content.
fn private_etc_files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::from("/etc")];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                pending.push(entry.path());
            } else if meta.is_file() && meta.permissions().mode() & 0o004 == 0 {
                let mut prefix = vec![0u8; 64];
                let Ok(n) = std::fs::File::open(entry.path()).and_then(|mut f| f.read(&mut prefix))
                else {
                    continue;
                };
                if n >= 8 {
                    prefix.truncate(n);
                    found.push((entry.path(), prefix));
                }
            }
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread")]
async fn private_files_under_etc_are_masked() {
    let ws = TempDir::new("etc-private");
    let private = private_etc_files();
    if private.is_empty() {
        eprintln!("note: no non-world-readable file under /etc is readable here; only the public checks run");
    }
    let mut script = String::from("head -c 5 /etc/passwd; echo\n");
    for (path, _) in &private {
        script.push_str(&format!(
            "echo \"== {0}\"; od -An -v -tx1 < '{0}' 2>/dev/null | tr -d ' \\n'; echo\n",
            path.display()
        ));
    }
    script.push_str("ls -A /etc/ssl/private 2>/dev/null | wc -l\n");
    let out = run_in(ws.path(), &script).await;
    // The output may hold secrets if the test fails: messages name files, never contents.
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    // World-readable files stay visible.
    assert_eq!(
        lines.next(),
        Some("root:"),
        "/etc/passwd is not readable inside"
    );
    for (path, _) in &private {
        let header = format!("== {}", path.display());
        assert_eq!(lines.next(), Some(header.as_str()), "output out of step");
        let hex = lines.next().unwrap_or_default();
        assert!(
            hex.is_empty(),
            "{} is readable inside ({} bytes shown)",
            path.display(),
            hex.len() / 2
        );
    }
    // A directory others cannot enter (/etc/ssl/private is 0710 on Debian) is shown empty.
    let listed = lines.next().unwrap_or_default();
    let ssl_private = std::fs::metadata("/etc/ssl/private");
    if ssl_private.is_ok_and(|m| m.permissions().mode() & 0o001 == 0) {
        assert_eq!(listed, "0", "/etc/ssl/private is listable inside");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn host_processes_are_invisible_and_unkillable() {
    let ws = TempDir::new("kill");
    let mut victim = HostChild::spawn("sleep", &["30"]);
    let pid = victim.pid();
    let me = std::process::id();
    let script = format!(
        "kill -9 {pid} 2>&1; kill -KILL {me} 2>&1; kill -9 -1 2>&1; pkill sleep; pkill -9 -f sleep; \
         pkill -9 -f baton; kill -9 -{pid} 2>&1; \
         ls /proc | grep -E '^[0-9]+$' | wc -l; ls /proc/{pid} 2>&1 | head -1; echo done"
    );
    let out = run_in(ws.path(), &script).await;
    let stdout = text(&out.stdout);
    // Host side: the victim and this test process survived, and the run itself ended normally.
    assert!(
        victim.alive(),
        "the host process was killed; output: {stdout}"
    );
    // SAFETY: signal 0 only checks that the process exists.
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, 0) }, 0);
    assert!(!out.timed_out);
    assert!(stdout.ends_with("done\n"), "{stdout}");
    // The pids are unknown inside rather than protected: the kills fail with ESRCH.
    assert!(stdout.matches("No such process").count() >= 2, "{stdout}");
    // Only the command's own processes exist in its /proc (bash, ls, grep, wc...).
    let count: usize = stdout
        .lines()
        .find_map(|l| l.trim().parse().ok())
        .expect("process count");
    assert!(count < 10, "too many processes visible: {stdout}");
    drop(victim);
}

/// Whether the listener has a connection waiting (it is non-blocking).
fn accepted(listener: &TcpListener) -> Option<std::net::SocketAddr> {
    match listener.accept() {
        Ok((_, addr)) => Some(addr),
        Err(e) if e.kind() == ErrorKind::WouldBlock => None,
        Err(e) => panic!("accept failed: {e}"),
    }
}

fn connect_script(port: u16) -> String {
    format!(
        "echo hi > /dev/tcp/127.0.0.1/{port} && echo CONNECTED-bash; \
         echo hi > /dev/udp/127.0.0.1/{port} && echo SENT-udp; \
         if command -v python3 >/dev/null; then \
           python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 3)' \
             && echo CONNECTED-python; fi; \
         if command -v curl >/dev/null; then \
           curl -sS -o /dev/null --max-time 3 http://127.0.0.1:{port}/ ; rc=$?; \
           [ $rc -ne 7 ] && echo CONNECTED-curl rc=$rc; fi; \
         true"
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn no_network_to_the_host() {
    let ws = TempDir::new("net");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    // A UDP socket on the same port, to see datagrams too.
    let udp = UdpSocket::bind(("127.0.0.1", port)).ok();
    if let Some(udp) = &udp {
        udp.set_nonblocking(true).unwrap();
    }
    let script = format!(
        "{}; cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '",
        connect_script(port)
    );
    let out = run_in(ws.path(), &script).await;
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(
        !stdout.contains("CONNECTED") && !stdout.contains("SENT"),
        "{stdout}\n{stderr}"
    );
    // The only interface is the namespace's own loopback.
    assert_eq!(stdout.trim(), "lo", "{stdout}");
    // The raw check: nothing ever reached the listener.
    assert_eq!(accepted(&listener), None, "the listener saw a connection");
    if let Some(udp) = &udp {
        let mut buf = [0u8; 16];
        match udp.recv_from(&mut buf) {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            other => panic!("the UDP socket saw a datagram: {other:?}"),
        }
    }
    // Socket creation for the IP families is refused by seccomp, not merely unroutable.
    assert!(
        stderr.contains("Operation not permitted") || stderr.contains("Permission denied"),
        "{stderr}"
    );

    // Controls. The host listener works...
    let mut client = TcpStream::connect(("127.0.0.1", port)).unwrap();
    client.write_all(b"x").unwrap();
    let mut got = None;
    for _ in 0..100 {
        got = accepted(&listener);
        if got.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        got.is_some(),
        "the host could not connect to its own listener"
    );
    // ...and the same script, unsandboxed, does reach it: the attack itself is real.
    let unsandboxed = Sandbox::new(helper(), Policy::for_workspace(ws.path()), Mode::None);
    let out = unsandboxed
        .run(command(&connect_script(port)))
        .await
        .unwrap();
    assert!(
        text(&out.stdout).contains("CONNECTED-bash"),
        "{}",
        text(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn privilege_and_namespace_escapes_fail() {
    let ws = TempDir::new("priv");
    let out = run_in(
        ws.path(),
        r#"
        grep -E '^Cap(Eff|Prm|Bnd|Amb)' /proc/self/status | awk '{print $2}' | sort -u
        grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status | awk '{print $1 $2}'
        unshare -r true 2>/dev/null && echo UNSHARED
        mount -t tmpfs none /tmp 2>/dev/null && echo MOUNTED
        chroot / true 2>/dev/null && echo CHROOTED
        nsenter -t 1 -m true 2>/dev/null && echo NSENTERED
        echo done
        "#,
    )
    .await;
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout,
        "0000000000000000\nNoNewPrivs:1\nSeccomp:2\ndone\n",
        "stderr: {}",
        text(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_and_proc_tricks_do_not_reach_the_host() {
    let ws = TempDir::new("proc");
    let swappiness = std::fs::read_to_string("/proc/sys/vm/swappiness").ok();
    let out = run_in(
        ws.path(),
        "ls /sys 2>&1 | head -1; cat /proc/1/cmdline | tr '\\0' ' '; echo; \
         readlink /proc/1/root; ls /proc/1/root/ | grep -c home; \
         v=$(cat /proc/sys/vm/swappiness); echo \"$v\" > /proc/sys/vm/swappiness && echo WROTE-sysctl; \
         echo h > /proc/sysrq-trigger 2>/dev/null && echo WROTE-sysrq; true",
    )
    .await;
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("No such file"), "{stdout}");
    // pid 1 is the command's own bash, not the host's init.
    assert!(lines[1].starts_with("bash -c"), "{stdout}");
    assert_eq!(lines[2], "/");
    assert_eq!(lines[3], "0");
    // Kernel knobs of the host are not writable (kuid 0 would pass their owner check).
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(
        std::fs::read_to_string("/proc/sys/vm/swappiness").ok(),
        swappiness
    );
}

/// Red-team finding: a command that made `rootsh` a setuid copy of bash left a setuid-root
/// binary in the workspace on the host. Every way of setting the bits is refused, and no
/// special file (fifo, device) can be made either.
#[tokio::test(flavor = "multi_thread")]
async fn no_setuid_setgid_or_special_file_reaches_the_host() {
    let ws = TempDir::new("setuid");
    let script = r#"
        cp /bin/bash rootsh
        chmod 4755 rootsh 2>/dev/null && echo "CHMOD u+s"
        chmod u+s rootsh 2>/dev/null && echo "CHMOD u+s symbolic"
        chmod g+s rootsh 2>/dev/null && echo "CHMOD g+s"
        install -m 4755 /bin/bash installed 2>/dev/null && echo "INSTALL 4755"
        cp -p /bin/bash copied 2>/dev/null
        python3 -c 'import os; os.close(os.open("made", os.O_CREAT | os.O_WRONLY, 0o4755))' 2>/dev/null
        mkfifo pipe 2>/dev/null && echo "MKFIFO"
        mknod dev c 1 3 2>/dev/null && echo "MKNOD"
        echo done
        "#;
    let out = run_in(ws.path(), script).await;
    assert_eq!(text(&out.stdout), "done\n", "stderr: {}", text(&out.stderr));
    for entry in std::fs::read_dir(ws.path()).unwrap() {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        assert_eq!(
            meta.mode() & 0o6000,
            0,
            "{:?} has setuid/setgid bits",
            entry.file_name()
        );
        assert!(
            meta.is_file() || meta.is_dir(),
            "{:?} is a special file",
            entry.file_name()
        );
    }
}

/// Red-team finding: commands shared baton's session, so `/dev/tty` was the user's terminal:
/// `echo X > /dev/tty` wrote past the output capture and `read < /dev/tty` read the user's keys.
/// A command runs in a session of its own, with no controlling terminal.
#[tokio::test(flavor = "multi_thread")]
async fn a_command_has_no_controlling_terminal() {
    let ws = TempDir::new("tty");
    let script = r#"
        (echo X > /dev/tty) 2>/dev/null && echo "WROTE /dev/tty"
        (read -t 1 line < /dev/tty) 2>/dev/null && echo "READ /dev/tty"
        test "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" && echo "own session"
        echo done
        "#;
    let out = run_in(ws.path(), script).await;
    assert_eq!(
        text(&out.stdout),
        "own session\ndone\n",
        "stderr: {}",
        text(&out.stderr)
    );
}

/// Red-team finding: `/proc/self/mountinfo` showed the workspace's host path (a bind mount's
/// root field is the directory's path on its filesystem: the user's name and directory layout).
/// A run's own workspace is shown through an overlay, whose line names only neutral paths; it
/// still behaves as the host directory (what the command does lands there), and the overlay's
/// work directory beside it is gone when the command ends.
#[tokio::test(flavor = "multi_thread")]
async fn mountinfo_names_no_host_path_of_a_runs_workspace() {
    let run_dir = TempDir::new("mountinfo");
    let workspace = run_dir.path().join("workspace");
    std::fs::create_dir(&workspace).unwrap();
    std::fs::write(workspace.join("old"), "from the host\n").unwrap();
    let mut policy = Policy::for_workspace(&workspace);
    policy.private_workspace = true;
    let script = "cat /proc/self/mountinfo >&2; grep -c ' /workspace ' /proc/self/mountinfo; \
                  cat old; mkdir -p a/b && echo x > a/b/f && mv a c && ln c/b/f hard && \
                  mv old renamed && rm -r c/b && ls";
    let out = sandbox(policy).run(command(script)).await.unwrap();
    let mountinfo = text(&out.stderr);
    for host in [run_dir.path(), workspace.as_path()] {
        assert!(
            !mountinfo.contains(&host.display().to_string()),
            "{} shows in /proc/self/mountinfo:\n{mountinfo}",
            host.display()
        );
    }
    assert_eq!(
        text(&out.stdout),
        "1\nfrom the host\nc\nhard\nrenamed\n",
        "stderr: {mountinfo}"
    );
    let mut on_host: Vec<String> = std::fs::read_dir(&workspace)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_host.sort();
    assert_eq!(on_host, ["c", "hard", "renamed"]);
    assert_eq!(
        std::fs::read_to_string(workspace.join("hard")).unwrap(),
        "x\n"
    );
    let beside: Vec<_> = std::fs::read_dir(run_dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        beside,
        ["workspace"],
        "the overlay's work directory was left"
    );
}

/// Removes a directory tree the test made outside its temp dir, on drop.
struct Planted(PathBuf);

impl Drop for Planted {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Attack: with baton running as root, the command was uid 0 of a namespace mapped onto host
/// root, so the owner bits of every root-owned file it could see applied: a mode-600 file
/// under /usr, and anything inside a root-owned 0700 directory, were read. The command must be
/// an unprivileged host id, with the workspace still its own (and what it creates stored as
/// the caller's).
#[tokio::test(flavor = "multi_thread")]
async fn root_owned_host_files_are_not_the_commands_own() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!(
            "not checked: this attack needs baton to run as root (the command then has the \
             caller's uid, whose own files outside the workspace it cannot see)"
        );
        return;
    }
    let planted = Planted(PathBuf::from("/usr/local/share").join(unique("baton-root-only")));
    if std::fs::create_dir_all(planted.0.join("private")).is_err() {
        eprintln!("not checked: cannot create {}", planted.0.display());
        return;
    }
    let secret = unique("s3cr3t");
    let file = planted.0.join("mode-600");
    std::fs::write(&file, &secret).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let inner = planted.0.join("private/world-readable");
    std::fs::write(&inner, &secret).unwrap();
    std::fs::set_permissions(&inner, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(
        planted.0.join("private"),
        std::fs::Permissions::from_mode(0o700),
    )
    .unwrap();

    let ws = TempDir::new("identity");
    std::fs::write(ws.path().join("mine"), "before\n").unwrap();
    std::fs::set_permissions(
        ws.path().join("mine"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let script = format!(
        "cat {f} {i} 2>&1; ls {d}/private 2>&1; \
         echo after >> mine && cat mine; mkdir -p made/deep && echo new > made/deep/file; \
         id -u; id -G",
        f = file.display(),
        i = inner.display(),
        d = planted.0.display(),
    );
    let out = run_in(ws.path(), &script).await;
    let stdout = text(&out.stdout);
    assert!(
        !stdout.contains(&secret),
        "a root-only host file was read:\n{stdout}"
    );
    assert_eq!(
        stdout.matches("Permission denied").count(),
        3,
        "cat twice and ls refused:\n{stdout}"
    );
    assert!(
        stdout.ends_with("before\nafter\n0\n0\n"),
        "inside, the command is root of its namespace, owns the workspace and has no other \
         group:\n{stdout}"
    );
    // Host side: what the command made is the caller's.
    for made in ["made", "made/deep", "made/deep/file", "mine"] {
        let meta = std::fs::metadata(ws.path().join(made)).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (0, 0), "{made} is not root's");
    }
}

/// Every attack above, again with baton as an unprivileged user (when this runs as root).
#[test]
fn escapes_fail_for_an_unprivileged_caller_too() {
    rerun_as_unprivileged_user("escapes_fail_for_an_unprivileged_caller_too");
}
