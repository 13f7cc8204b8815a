//! Snapshot tests of diagnostics: every `tests/snapshots/NAME.py` is checked and its human and
//! JSON renderings are compared with `NAME.human` and `NAME.json` beside it. Run with
//! `BATON_BLESS=1` to rewrite the snapshots after an intended change, then review the diff.

use std::path::Path;

#[test]
fn diagnostics_match_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let bless = std::env::var_os("BATON_BLESS").is_some();
    let mut plans: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/snapshots exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "py"))
        .collect();
    plans.sort();
    assert!(plans.len() >= 6, "snapshot plans went missing: {plans:?}");
    let mut mismatches = Vec::new();
    for plan in &plans {
        let name = format!("snapshots/{}", plan.file_name().unwrap().to_string_lossy());
        let text = std::fs::read_to_string(plan).expect("plan is UTF-8");
        let report = baton_compiler::check_source(&name, &text);
        for (extension, actual) in [
            ("human", report.render_human()),
            ("json", report.render_json() + "\n"),
        ] {
            let expected_path = plan.with_extension(extension);
            if bless {
                std::fs::write(&expected_path, &actual).expect("write snapshot");
                continue;
            }
            let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
            if expected != actual {
                mismatches.push(format!(
                    "--- {} (expected)\n{expected}\n+++ actual\n{actual}",
                    expected_path.display()
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "snapshots differ (BATON_BLESS=1 rewrites them):\n{}",
        mismatches.join("\n")
    );
}
