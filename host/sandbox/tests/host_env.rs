//! The host process's environment never reaches a command. A test binary of its own: the
//! secret is set with `set_var` before any other thread exists.

mod common;

use baton_sandbox::{Mode, Policy, Sandbox};
use common::*;

const SECRET_NAME: &str = "BATON_SANDBOX_TEST_SECRET";

#[test]
fn host_environment_does_not_leak() {
    let secret = unique("env-s3cr3t");
    // Before the runtime starts: no other thread reads the environment concurrently.
    std::env::set_var(SECRET_NAME, &secret);
    // Control: an ordinary child of this process does inherit it.
    let inherited = std::process::Command::new("/usr/bin/env").output().unwrap();
    assert!(
        text(&inherited.stdout).contains(&secret),
        "set_var had no effect"
    );

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let ws = TempDir::new("env-leak");
        // Every way a process reads environments; each section must show the clean one.
        let script = "echo '== env'; env; \
                      echo '== self'; cat /proc/self/environ | tr '\\0' '\\n'; echo; \
                      echo '== pid1'; tr '\\0' '\\n' < /proc/1/environ; echo; \
                      echo '== all'; cat /proc/*/environ | tr '\\0' '\\n'; echo; \
                      echo '== shell'; declare -p; true";
        let out = run_in(ws.path(), script).await;
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        for shown in [&stdout, &stderr] {
            assert!(!shown.contains(&secret), "the secret leaked:\n{shown}");
            assert!(
                !shown.contains(SECRET_NAME),
                "the variable leaked:\n{shown}"
            );
        }
        // Sections start at lines "== name" (declare -p also shows the script, mid-line).
        let mut sections: Vec<(&str, String)> = Vec::new();
        for line in stdout.lines() {
            match line.strip_prefix("== ") {
                Some(name) => sections.push((name, String::new())),
                None => {
                    if let Some((_, body)) = sections.last_mut() {
                        body.push_str(line);
                        body.push('\n');
                    }
                }
            }
        }
        let names: Vec<&str> = sections.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["env", "self", "pid1", "all", "shell"], "{stderr}");
        for (name, body) in &sections {
            // `declare -p` quotes values: PATH="/usr/local/bin:...".
            assert!(
                body.contains("PATH=/usr/local/bin") || body.contains("PATH=\"/usr/local/bin"),
                "section {name} does not show the clean environment:\n{body}"
            );
        }

        // Mode::None promises the same clean environment (not the process isolation).
        let unsandboxed = Sandbox::new(helper(), Policy::for_workspace(ws.path()), Mode::None);
        let out = unsandboxed
            .run(command("env; cat /proc/self/environ | tr '\\0' '\\n'"))
            .await
            .unwrap();
        let stdout = text(&out.stdout);
        assert!(stdout.contains("PATH=/usr/local/bin"), "{stdout}");
        assert!(
            !stdout.contains(&secret) && !stdout.contains(SECRET_NAME),
            "{stdout}"
        );
    });
}
