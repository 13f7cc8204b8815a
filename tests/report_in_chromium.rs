//! The run report in a real browser: a tournament run and the swe workflow's run, each
//! reported, opened in headless Chromium at 1,400 px, screenshotted, and their rendered DOM
//! checked: every branch of the trace present, each `branch` call's decision shown, and no
//! element reaching past the window's right edge.
//!
//! Chromium is Debian's package. The test installs it when it is missing and it can (root with
//! apt-get, as on CI); otherwise it says it could not check, and why.

use std::path::{Path, PathBuf};
use std::process::Command;

const BROWSER: &str = "/usr/bin/chromium";

/// Chromium's path, installing Debian's package first when it is missing and this can.
fn chromium() -> Result<PathBuf, String> {
    let browser = PathBuf::from(BROWSER);
    if browser.exists() {
        return Ok(browser);
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || !Path::new("/usr/bin/apt-get").exists() {
        return Err("Chromium is not installed and this is not root with apt-get".into());
    }
    let installed = Command::new("apt-get")
        .args(["install", "-y", "-q", "chromium"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .map_err(|error| format!("cannot run apt-get: {error}"))?;
    if !installed.status.success() || !browser.exists() {
        return Err(format!(
            "apt-get install chromium failed: {}",
            String::from_utf8_lossy(&installed.stderr)
        ));
    }
    Ok(browser)
}

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-in-chromium");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn baton(args: &[&str]) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(args)
        .current_dir(root)
        .env("BATON_CACHE_DIR", "off")
        .output()
        .expect("run baton");
    assert!(
        output.status.success(),
        "baton {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// What a test page reports about itself: the elements that reach past the window's right
/// edge (`none`), written into the DOM that `--dump-dom` prints. Added to a copy of the report
/// only; the report itself has no scripts.
const PROBE: &str = "<script>\
const over=[...document.querySelectorAll('body *')]\
.filter(e=>e.getBoundingClientRect().right>window.innerWidth+1)\
.map(e=>e.tagName+(e.id?'#'+e.id:'')).slice(0,10);\
document.body.setAttribute('data-overflow',over.length?over.join(','):'none');\
document.body.setAttribute('data-width',String(document.documentElement.scrollWidth));\
</script>";

fn browser_args(dir: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--window-size=1400,3000",
    ]
    .iter()
    .map(|flag| flag.to_string())
    .chain([format!("--user-data-dir={}", dir.join("profile").display())])
    .collect()
}

/// Reports `run_dir`, screenshots the report, and checks its rendered DOM.
fn check_report(browser: &Path, dir: &Path, name: &str, run_dir: &Path) {
    let report = dir.join(format!("{name}.html"));
    baton(&[
        "report",
        &run_dir.display().to_string(),
        "-o",
        &report.display().to_string(),
    ]);
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        !html.contains("<script"),
        "the report itself has no scripts"
    );
    let probed = dir.join(format!("{name}-probed.html"));
    std::fs::write(&probed, html.replace("</body>", &format!("{PROBE}</body>"))).unwrap();

    let screenshot = dir.join(format!("{name}.png"));
    let shot = Command::new(browser)
        .args(browser_args(dir))
        .arg(format!("--screenshot={}", screenshot.display()))
        .arg(format!("file://{}", report.display()))
        .output()
        .expect("run chromium");
    assert!(
        shot.status.success() && screenshot.exists(),
        "screenshot: {}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let dumped = Command::new(browser)
        .args(browser_args(dir))
        .arg("--dump-dom")
        .arg(format!("file://{}", probed.display()))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&dumped.stdout);
    assert!(
        dom.contains("data-overflow=\"none\""),
        "{name}: elements past 1,400 px: {}",
        dom.split("data-overflow=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or("(the probe did not run)")
    );
    let trace = baton(&["trace", &run_dir.display().to_string()]);
    let trace: serde_json::Value = serde_json::from_slice(&trace.stdout).unwrap();
    let branches = trace["branches"].as_array().unwrap();
    assert!(branches.len() > 1, "{name}: the run has branches");
    for branch in branches {
        let path = branch["path"].as_str().unwrap();
        if !path.is_empty() {
            assert!(
                dom.contains(&format!("id=\"b-{path}\"")),
                "{name}: branch {path} missing from the rendered tree"
            );
            // Named as the plan names it (`labels=`, else the callable's name).
            let label = branch["label"]
                .as_str()
                .unwrap_or("(no label in the trace)");
            assert!(
                dom.contains(&format!("<span class=\"label\">{label}</span>")),
                "{name}: branch {path} is not shown as {label:?}"
            );
        }
    }
    assert!(dom.contains("<h2>Decisions</h2>"), "{name}: no decisions");
    assert!(
        dom.contains("<h2>Plan</h2>") && dom.contains("id=\"L1\""),
        "{name}: no source"
    );
    eprintln!("{name}: {} (screenshot)", screenshot.display());
}

#[test]
fn reports_render_in_chromium_with_every_branch_and_decision() {
    let browser = match chromium() {
        Ok(browser) => browser,
        Err(why) => {
            eprintln!("not checked: {why}");
            return;
        }
    };
    let dir = scratch();
    let tournament = dir.join("tournament-run");
    baton(&[
        "run",
        "plans/examples/tournament.py",
        "--grant",
        "llm",
        "--llm",
        "script:plans/examples/tournament.llm.json",
        "--run-dir",
        &tournament.display().to_string(),
        "--quiet",
    ]);
    check_report(&browser, &dir, "tournament", &tournament);

    let repo = dir.join("calc_repo");
    std::fs::create_dir_all(&repo).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/calc_repo");
    for entry in std::fs::read_dir(&fixture).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), repo.join(entry.file_name())).unwrap();
    }
    let swe = dir.join("swe-run");
    baton(&[
        "run",
        "plans/examples/swe_workflow.py",
        "--grant",
        "bash,llm",
        "--workspace",
        &repo.display().to_string(),
        "--llm",
        "script:plans/examples/swe_workflow.llm.json",
        "--run-dir",
        &swe.display().to_string(),
        "--quiet",
    ]);
    check_report(&browser, &dir, "swe-workflow", &swe);
}
