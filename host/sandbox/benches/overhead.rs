//! Per-command overhead of the sandbox: `bash -c true` sandboxed (Mode::Enforce) versus
//! unsandboxed (Mode::None), and sandboxed in an overlay workspace (a branch's fork over a
//! lower layer of 10,000 files), run one after another on one thread.
//!
//! `CARGO_TARGET_DIR=/work/target-sandbox cargo bench -p baton-sandbox --bench overhead`
//! (`-- <runs>` sets the number of timed runs per mode; default 50).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use baton_sandbox::{Command, HelperExe, Mode, OverlayLayers, Policy, Sandbox};

const WARMUP: usize = 5;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    // Nearest rank: the smallest sample with at least p of the samples at or below it.
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn measure(runtime: &tokio::runtime::Runtime, sandbox: &Sandbox, runs: usize) -> Vec<Duration> {
    let command = || Command {
        script: "true".into(),
        stdin: None,
        timeout: Duration::from_secs(30),
    };
    let mut times = Vec::with_capacity(runs);
    for i in 0..WARMUP + runs {
        let start = Instant::now();
        let out = runtime
            .block_on(sandbox.run(command()))
            .unwrap_or_else(|e| panic!("{:?} run failed: {e}", sandbox.mode()));
        let elapsed = start.elapsed();
        assert_eq!(
            out.exit_code,
            0,
            "{:?}: {}",
            sandbox.mode(),
            String::from_utf8_lossy(&out.stderr)
        );
        if i >= WARMUP {
            times.push(elapsed);
        }
    }
    times.sort();
    times
}

fn main() {
    // `cargo bench` passes `--bench`; a bare number sets the run count.
    let runs = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(50)
        .max(1);
    let workspace: PathBuf =
        std::env::temp_dir().join(format!("baton-sandbox-bench-{}", std::process::id()));
    std::fs::create_dir_all(&workspace).unwrap();
    let helper = HelperExe::new(env!("CARGO_BIN_EXE_baton-sandbox-helper"));
    let policy = Policy::for_workspace(&workspace);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();

    let sandboxed = measure(
        &runtime,
        &Sandbox::new(helper.clone(), policy.clone(), Mode::Enforce),
        runs,
    );
    let direct = measure(
        &runtime,
        &Sandbox::new(helper.clone(), policy.clone(), Mode::None),
        runs,
    );
    // An overlay over 10,000 files: mounting does not depend on the lower layer's size.
    let layers = workspace.join("layers");
    for d in 0..100 {
        let dir = layers.join("lower").join(format!("dir{d:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..100 {
            std::fs::write(dir.join(format!("f{f:03}")), [b'x'; 64]).unwrap();
        }
    }
    for name in ["upper", "work"] {
        std::fs::create_dir_all(layers.join(name)).unwrap();
    }
    let overlay_sandbox = Sandbox::new(helper, policy, Mode::Enforce).with_overlay(
        layers.join("upper"),
        OverlayLayers {
            lowers: vec![layers.join("lower")],
            work: layers.join("work"),
        },
    );
    let overlay = if runtime.block_on(overlay_sandbox.overlay_works(&workspace.join("probe"))) {
        Some(measure(&runtime, &overlay_sandbox, runs))
    } else {
        println!("(overlay workspaces do not work here; that row is left out)");
        None
    };
    let _ = std::process::Command::new("chmod")
        .args(["-R", "u+rwx"])
        .arg(&workspace)
        .status();
    let _ = std::fs::remove_dir_all(&workspace);

    println!("bash -c true, {runs} runs each after {WARMUP} warm-up runs (wall time per run):");
    let mut rows = vec![
        ("sandboxed (Mode::Enforce)", &sandboxed),
        ("unsandboxed (Mode::None)", &direct),
    ];
    if let Some(times) = &overlay {
        rows.push(("sandboxed, overlay fork", times));
    }
    for (name, times) in rows {
        println!(
            "  {name:<26} median {:7.2} ms   p90 {:7.2} ms   min {:7.2} ms   max {:7.2} ms",
            ms(percentile(times, 0.5)),
            ms(percentile(times, 0.9)),
            ms(times[0]),
            ms(times[times.len() - 1]),
        );
    }
    let ratio = |p| ms(percentile(&sandboxed, p)) / ms(percentile(&direct, p));
    println!(
        "  ratio sandboxed/unsandboxed: median {:.2}x, p90 {:.2}x; overhead at the median {:.2} ms",
        ratio(0.5),
        ratio(0.9),
        ms(percentile(&sandboxed, 0.5)) - ms(percentile(&direct, 0.5)),
    );
}
