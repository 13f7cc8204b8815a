//! Forking a branch's workspace: a tree of 10,000 files (100 directories of 100 files of
//! 1 KiB) is forked `ROUNDS` times (a copy, reflinked where the filesystem allows), one file of
//! the fork is changed, and the fork's changes are computed and adopted by the parent.
//!
//! Prints the median and the slowest of each step, and the filesystem of the temporary directory
//! (reflinks need btrfs or XFS; elsewhere every file is copied).
//!
//!   cargo bench -p baton-workspace --bench fork [-- FILES]

use std::path::Path;
use std::time::{Duration, Instant};

use baton_workspace::overlay::{apply, LayerTarget, OverlayFork};
use baton_workspace::{Mode, Workspace};

const ROUNDS: usize = 5;

fn median(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() - 1])
}

fn main() {
    let files: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(10_000);
    let root = std::env::temp_dir().join(format!("baton-bench-fork-{}", std::process::id()));
    let source = root.join("source");
    let per_dir = 100;
    for d in 0..files.div_ceil(per_dir) {
        let dir = source.join(format!("dir{d:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..per_dir.min(files - d * per_dir) {
            std::fs::write(dir.join(format!("file{f:03}.txt")), vec![b'x'; 1024]).unwrap();
        }
    }
    let run = root.join("run");
    std::fs::create_dir_all(&run).unwrap();
    let started = Instant::now();
    let mut parent = Workspace::from_dir(&source, &run, Mode::Copy).expect("the run's copy");
    let initial = started.elapsed();

    let (mut forks, mut diffs, mut adopts) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let dest = root.join(format!("branch{round}"));
        std::fs::create_dir_all(&dest).unwrap();
        let t = Instant::now();
        let child = parent.fork(&dest).expect("fork");
        forks.push(t.elapsed());
        std::fs::write(
            child.path().join("dir000/file000.txt"),
            format!("round {round}\n"),
        )
        .unwrap();
        let t = Instant::now();
        let changes = child.changes().expect("changes");
        diffs.push(t.elapsed());
        assert_eq!(changes.changes.len(), 1);
        let t = Instant::now();
        parent.adopt(&child).expect("adopt");
        adopts.push(t.elapsed());
        drop(child);
        std::fs::remove_dir_all(&dest).unwrap();
    }
    // Overlay forks: two empty directories; adopting reads and applies the upper layer.
    let (mut layer_forks, mut layer_adopts) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let dest = root.join(format!("layer{round}"));
        let t = Instant::now();
        let fork = OverlayFork::create(&dest, vec![parent.path().to_path_buf()]).expect("fork");
        layer_forks.push(t.elapsed());
        // What the kernel would leave in the upper layer after one file was changed.
        std::fs::create_dir_all(fork.upper().join("dir000")).unwrap();
        std::fs::write(
            fork.upper().join("dir000/file000.txt"),
            format!("layer {round}\n"),
        )
        .unwrap();
        let t = Instant::now();
        let ops = fork.changes().expect("changes");
        apply(&ops, fork.upper(), LayerTarget::Plain(parent.path())).expect("adopt");
        layer_adopts.push(t.elapsed());
        fork.remove();
    }
    let fs = filesystem_of(&root);
    println!(
        "{files} files of 1 KiB in {} directories, on {fs}",
        files.div_ceil(per_dir)
    );
    println!(
        "initial copy of the user's tree: {:.1} ms",
        initial.as_secs_f64() * 1e3
    );
    for (name, times) in [
        ("fork", forks),
        ("changes", diffs),
        ("adopt", adopts),
        ("overlay fork", layer_forks),
        ("overlay adopt", layer_adopts),
    ] {
        let (median, max) = median(times);
        println!(
            "{name:<14} median {:.3} ms, slowest {:.3} ms ({ROUNDS} rounds)",
            median.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The filesystem type holding `path`, from /proc/mounts (the longest mount point prefix).
fn filesystem_of(path: &Path) -> String {
    let mounts = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
    let mut best = (0, "unknown".to_string());
    for line in mounts.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() > 2 && path.starts_with(fields[1]) && fields[1].len() >= best.0 {
            best = (fields[1].len(), fields[2].to_string());
        }
    }
    best.1
}
