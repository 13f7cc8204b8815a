//! Probing which layers work on this machine, by starting a real helper.

use std::fmt;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::time::Duration;

use crate::protocol::{self, LayerState};
use crate::runner;
use crate::{Command, HelperExe, Policy};

/// The layers a probe run reported, in the order they were set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxInfo {
    /// Layer name and state, e.g. `("landlock", Active("fully enforced ..."))`.
    pub layers: Vec<(String, LayerState)>,
    /// Why the sandbox cannot run commands at all, if it cannot.
    pub failure: Option<String>,
}

impl SandboxInfo {
    /// Whether a sandboxed command can run here.
    pub fn usable(&self) -> bool {
        self.failure.is_none()
    }

    /// The state of one layer, if the probe got that far.
    pub fn layer(&self, name: &str) -> Option<&LayerState> {
        self.layers.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }
}

impl fmt::Display for SandboxInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, state) in &self.layers {
            match state {
                LayerState::Active(detail) if detail.is_empty() => writeln!(f, "{name}: active")?,
                LayerState::Active(detail) => writeln!(f, "{name}: active ({detail})")?,
                LayerState::Unavailable(why) => writeln!(f, "{name}: unavailable ({why})")?,
            }
        }
        if let Some(failure) = &self.failure {
            writeln!(f, "sandbox: unavailable ({failure})")?;
        }
        Ok(())
    }
}

/// Starts a helper that sets up a full sandbox and runs `true`, and reports what took effect.
/// Blocking; takes a few milliseconds.
pub fn info(helper: &HelperExe) -> SandboxInfo {
    let failed = |failure: String| SandboxInfo {
        layers: Vec::new(),
        failure: Some(failure),
    };
    if !cfg!(target_os = "linux") {
        return failed("the OS sandbox is only available on Linux".into());
    }
    let workspace = std::env::temp_dir().join(format!(
        "baton-sandbox-probe-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    if let Err(e) = std::fs::create_dir_all(&workspace) {
        return failed(format!(
            "cannot create probe workspace {}: {e}",
            workspace.display()
        ));
    }
    let result = probe(helper, &workspace);
    let _ = std::fs::remove_dir_all(&workspace);
    result.unwrap_or_else(failed)
}

/// Whether overlay workspaces (a branch's fork as an overlayfs layer) can be mounted here: runs
/// `true` in one over a scratch layer. Blocking; takes a few milliseconds.
pub fn overlay_available(helper: &HelperExe) -> bool {
    let scratch = std::env::temp_dir().join(format!(
        "baton-overlay-probe-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let sandbox = crate::Sandbox::new(
        helper.clone(),
        Policy::for_workspace(std::env::temp_dir()),
        crate::Mode::Enforce,
    );
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map(|runtime| runtime.block_on(sandbox.overlay_works(&scratch)))
        .unwrap_or(false)
}

fn probe(helper: &HelperExe, workspace: &std::path::Path) -> Result<SandboxInfo, String> {
    let policy = Policy::for_workspace(workspace);
    let command = Command {
        script: "true".into(),
        stdin: None,
        timeout: Duration::from_secs(30),
    };
    let frame =
        protocol::encode_frame(&runner::spec_for(&policy, &command)).map_err(|e| e.to_string())?;
    let (status_read, status_write) = runner::status_pipe_pub()?;
    let mut cmd = runner::helper_command(helper, status_write.as_raw_fd());
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start helper {}: {e}", helper.path().display()))?;
    drop(status_write);
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&frame);
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("waiting for helper: {e}"))?;
    let statuses = runner::read_statuses(status_read);
    let layers = runner::layers(&statuses);
    let failure = match runner::setup_error(&statuses) {
        Some(error) => Some(error.to_string()),
        None if statuses
            .iter()
            .any(|s| matches!(s, protocol::Status::Exit(0))) =>
        {
            None
        }
        None => Some(format!(
            "helper exited with {} without reporting; stderr: {:?}",
            output.status,
            String::from_utf8_lossy(&output.stderr[..output.stderr.len().min(300)])
        )),
    };
    Ok(SandboxInfo { layers, failure })
}
