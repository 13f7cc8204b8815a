//! Run-wide limits (host/src/run_limits.rs): a plan that fans out cannot multiply what one
//! instance may use. Each hostile plan ends with exit 4 naming the run-wide limit, and the
//! `baton` process's own peak memory stays under 1.5 GiB. No test asserts on time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Run {
    exit: i32,
    stdout_bytes: u64,
    stderr: String,
    /// Peak resident memory of the `baton` process, in bytes.
    peak_rss: u64,
}

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run-wide-limits");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `source` with `args`; stdout and stderr go to files (a plan may print tens of MiB),
/// and the child is reaped with wait4 for its own peak RSS.
#[allow(clippy::zombie_processes)] // reaped by wait4, which std's Child does not know about
fn run(name: &str, source: &str, args: &[&str]) -> Run {
    let dir = scratch();
    let plan = dir.join(format!("{name}.py"));
    std::fs::write(&plan, source).unwrap();
    let out_path = dir.join(format!("{name}.out"));
    let err_path = dir.join(format!("{name}.err"));
    let child = Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("run")
        .arg(&plan)
        .args(args)
        .env("BATON_CACHE_DIR", "off")
        .env("BATON_RUNS_DIR", dir.join("runs"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("run baton");
    let mut status = 0;
    // SAFETY: wait4 on our own child, writing into locals.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as libc::pid_t);
    Run {
        exit: if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -1
        },
        stdout_bytes: std::fs::metadata(&out_path).unwrap().len(),
        stderr: std::fs::read_to_string(&err_path).unwrap(),
        peak_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
    }
}

const PEAK: u64 = 1536 << 20;

fn assert_stopped(r: &Run, limit: &str) {
    assert_eq!(r.exit, 4, "{}", r.stderr);
    let error = r.stderr.lines().last().unwrap_or("");
    assert!(
        error.starts_with("error: ") && error.contains(limit),
        "{}",
        r.stderr
    );
    assert!(
        r.peak_rss < PEAK,
        "baton's peak RSS was {} MiB",
        r.peak_rss >> 20
    );
}

#[test]
fn sixteen_branches_holding_200_mib_stop_at_the_run_wide_memory_limit() {
    let r = run(
        "memory",
        "from baton import branch\n\
         def hog(i):\n    x = 'a' * (200 * 2**20)\n    for k in range(2000000):\n        pass\n    return len(x) + i\n\
         print(branch([lambda i=i: hog(i) for i in range(16)], reduce='all'))\n",
        &[],
    );
    assert_stopped(&r, "run-wide memory limit exceeded (1024 MiB");
    assert!(r.stderr.contains("--run-memory"), "{}", r.stderr);
}

#[test]
fn the_run_wide_memory_limit_is_the_flag_s() {
    // Eight branches, started together, each holding 60 MiB for a while (a busy loop) so
    // that they overlap: long enough to span several epoch ticks (10 ms), at each of which a
    // branch yields to the others. (2,000,000 rounds took ~4 ms: under a loaded test run the
    // branches could then run one or two at a time, and the run succeeded, once in a CI run.)
    let source = "from baton import branch\n\
                  def hog(i):\n    x = 'a' * (60 * 2**20)\n    for k in range(10000000):\n        pass\n    return len(x) + i\n\
                  r = branch([lambda i=i: hog(i) for i in range(8)], reduce='all')\n\
                  print(len(r))\n";
    let r = run("memory-small", source, &["--run-memory", "128"]);
    assert_stopped(&r, "run-wide memory limit exceeded (128 MiB");
    let r = run("memory-enough", source, &["--run-memory", "2048"]);
    assert_eq!(r.exit, 0, "{}", r.stderr);
}

#[test]
fn sixteen_branches_returning_30_mb_stop_at_the_held_limit() {
    let r = run(
        "held",
        "from baton import branch\n\
         def big(i):\n    return 'b' * (30 * 10**6)\n\
         r = branch([lambda i=i: big(i) for i in range(16)], reduce='all', max_parallel=4)\n\
         print(len(r))\n",
        &[],
    );
    assert_stopped(&r, "what branches hand back exceeded (128 MiB");
}

#[test]
fn sixteen_branches_printing_50_mib_stop_at_the_output_limit() {
    let r = run(
        "output",
        "from baton import branch\n\
         def chatty(i):\n    line = 'x' * (1 << 20)\n    for k in range(50):\n        print(line)\n    return i\n\
         print(branch([lambda i=i: chatty(i) for i in range(16)], reduce='all'))\n",
        &[],
    );
    assert_stopped(&r, "output limit exceeded (64 MiB");
    // A plan printing on its own is bounded the same way.
    let r = run(
        "output-main",
        "line = 'y' * (8 << 20)\nfor k in range(20):\n    print(line)\n",
        // (--memory: each printed line's copies are collected, but a run this short may end
        // before its first collection.)
        &["--max-output", "100", "--memory", "1024"],
    );
    assert_stopped(&r, "output limit exceeded (100 MiB");
    assert!(
        r.stdout_bytes <= 100 << 20,
        "{} bytes printed",
        r.stdout_bytes
    );
}

#[test]
fn a_log_flood_stops_at_the_log_limit() {
    let r = run(
        "log",
        "from baton import log\nline = 'z' * (1 << 20)\nfor k in range(40):\n    log(line)\n",
        &["--quiet"],
    );
    assert_stopped(&r, "log limit exceeded (16 MiB");
}

#[test]
fn a_command_allocating_1_gib_stops_at_the_commands_memory_limit() {
    let info = Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("sandbox-info")
        .output()
        .expect("baton sandbox-info");
    if !String::from_utf8_lossy(&info.stdout).contains("cgroup-memory: active") {
        eprintln!("not checked: no memory cgroup can be made here (baton sandbox-info)");
        return;
    }
    let r = run(
        "command-memory",
        "from baton import bash\n\
         r = bash(\"x=$(head -c 1100M /dev/zero | tr '\\\\0' a); echo ${#x}\", timeout=120)\n\
         print('the plan went on', r.returncode)\n",
        &["--grant", "bash", "--timeout", "120"],
    );
    assert_stopped(&r, "memory limit of the run's commands exceeded (1024 MiB");
    assert_eq!(r.stdout_bytes, 0, "the plan did not go on");
}

/// Branch amplification through nesting: 4 branches of 4 branches, each holding 100 MiB.
#[test]
fn nested_branches_share_the_run_wide_memory() {
    let r = run(
        "nested-memory",
        "from baton import branch\n\
         def leaf(i):\n    x = 'a' * (100 * 2**20)\n    for k in range(2000000):\n        pass\n    return len(x) + i\n\
         def inner(j):\n    return branch([lambda i=i: leaf(i) for i in range(4)], reduce='all')\n\
         print(branch([lambda j=j: inner(j) for j in range(4)], reduce='all'))\n",
        &[],
    );
    assert_stopped(&r, "run-wide memory limit exceeded");
}

/// Ten branches raising exceptions with 30 MB messages (3.5 GB of host memory before), two at
/// a time so that what is held, not their memory, is what grows.
#[test]
fn branches_raising_huge_messages_stop_at_the_held_limit() {
    let r = run(
        "raise",
        "from baton import branch\n\
         def boom(i):\n    raise ValueError('m' * (30 * 10**6))\n\
         r = branch([lambda i=i: boom(i) for i in range(10)], reduce='all', max_parallel=2)\n\
         print(len(r))\n",
        &[],
    );
    assert_stopped(&r, "what branches hand back exceeded");
}

/// 250 branches each printing just under the per-branch output cap (1 MiB): 1.03 GB before.
#[test]
fn many_branches_printing_to_their_cap_stop_at_the_output_limit() {
    let r = run(
        "wide-output",
        "from baton import branch\n\
         def chatty(i):\n    print('p' * ((1 << 20) - 100))\n    return i\n\
         print(len(branch([lambda i=i: chatty(i) for i in range(250)], reduce='all')))\n",
        &[],
    );
    assert_stopped(&r, "output limit exceeded");
}

/// Sixteen branches logging 2 MiB each: the log is the run's, not each branch's.
#[test]
fn branches_logging_share_the_log_limit() {
    let r = run(
        "branch-log",
        "from baton import branch, log\n\
         def noisy(i):\n    log('l' * (2 << 20))\n    return i\n\
         print(branch([lambda i=i: noisy(i) for i in range(16)], reduce='all'))\n",
        &["--quiet"],
    );
    assert_stopped(&r, "log limit exceeded");
}

/// Eight sparse 250 MB files cost nothing in the workspace and 2 GB on write-back (before):
/// the run directory's growth is measured by apparent size after each command.
#[test]
fn sparse_files_past_the_disk_budget_stop_the_run() {
    let info = Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("sandbox-info")
        .output()
        .expect("baton sandbox-info");
    if !info.status.success() {
        eprintln!("not checked: sandboxed commands cannot run here (baton sandbox-info)");
        return;
    }
    let r = run(
        "sparse",
        "from baton import bash\n\
         r = bash('for i in 1 2 3 4 5 6 7 8; do truncate -s 250M f$i; done; ls | wc -l')\n\
         print('the plan went on', r.stdout)\n",
        &["--grant", "bash"],
    );
    assert_stopped(&r, "disk limit exceeded");
    assert!(r.stderr.contains("[limits] disk_mib"), "{}", r.stderr);
    assert_eq!(r.stdout_bytes, 0, "the plan did not go on");
}
