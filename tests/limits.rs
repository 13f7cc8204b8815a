//! Hostile plans against the run limits: each ends with the documented exit code or Python
//! exception, and the `baton` process stays within its memory cap. No test asserts on time.

use std::io::Read;
use std::process::{Command, Stdio};

struct Run {
    exit: i32,
    stdout: String,
    stderr: String,
    /// The `baton` process's peak resident memory, in bytes.
    max_rss: u64,
}

// The child is reaped by `wait4` (for its own resource usage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn run(source: &str, limits: &[&str]) -> Run {
    // Under target/, as the run directories are (the plans' names tell them apart).
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("limits-plans");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("plan{}.py", source.len() ^ limits.len()));
    std::fs::write(&path, source).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("run")
        .arg(&path)
        .args(limits)
        .env("BATON_CACHE_DIR", "off")
        .env(
            "BATON_RUNS_DIR",
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("limits-runs"),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run baton");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            pipe.read_to_end(&mut text).expect("read baton's output");
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    // Reaped here rather than by `Child::wait`, for this child's own resource usage: the
    // process-wide figure for children (RUSAGE_CHILDREN) would count the other tests' runs,
    // which this binary's harness runs at the same time.
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: wait4 writes the status and usage into the locals passed; the child is ours and
    // has not been waited for.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    Run {
        exit: if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -1
        },
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        max_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
    }
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

const MEMORY: &[&str] = &["--memory", "64"];

#[test]
fn hostile_plans_end_with_the_documented_outcome_within_the_memory_cap() {
    // Every run's peak memory, for the check at the end.
    let peak = std::cell::Cell::new(0u64);
    let hostile = |source: &str, limits: &[&str]| {
        let r = run(source, limits);
        peak.set(peak.get().max(r.max_rss));
        r
    };

    // An infinite loop: the CPU limit (fuel) ends it.
    let r = hostile(
        "while True:\n    pass\n",
        &["--memory", "64", "--fuel", "50000000"],
    );
    assert_eq!(r.exit, 4, "{}", r.stderr);
    assert!(r.stderr.contains("CPU limit"), "{}", r.stderr);

    // The same loop with unlimited fuel: the wall-clock timeout ends it.
    let r = hostile(
        "x = 0\nwhile True:\n    x += 1\n",
        &[
            "--memory",
            "64",
            "--fuel",
            "100000000000000",
            "--timeout",
            "0.5",
        ],
    );
    assert_eq!(r.exit, 4, "{}", r.stderr);
    assert!(
        r.stderr.to_lowercase().contains("wall-clock"),
        "{}",
        r.stderr
    );

    // A string of ten billion characters: MemoryError inside the plan.
    let r = hostile("x = 'a' * 10**10\n", MEMORY);
    assert_eq!(
        (r.exit, last_line(&r.stderr)),
        (1, "MemoryError"),
        "{}",
        r.stderr
    );

    // A list that doubles forever, and a dict that grows forever: MemoryError at the cap.
    let r = hostile("xs = [1]\nwhile True:\n    xs = xs + xs\n", MEMORY);
    assert_eq!(
        (r.exit, last_line(&r.stderr)),
        (1, "MemoryError"),
        "{}",
        r.stderr
    );
    let r = hostile(
        "d = {}\ni = 0\nwhile True:\n    d[i] = str(i) * 100\n    i += 1\n",
        MEMORY,
    );
    assert_eq!(
        (r.exit, last_line(&r.stderr)),
        (1, "MemoryError"),
        "{}",
        r.stderr
    );

    // MemoryError is catchable, and the plan can go on and report it.
    let r = hostile(
        "try:\n    x = 'a' * 10**10\nexcept MemoryError:\n    print('caught')\n",
        MEMORY,
    );
    assert_eq!((r.exit, r.stdout.as_str()), (0, "caught\n"), "{}", r.stderr);

    // Unbounded recursion: a catchable RecursionError, never a wasm stack overflow.
    let r = hostile("def f():\n    return f()\nf()\n", MEMORY);
    assert_eq!(
        (r.exit, last_line(&r.stderr)),
        (1, "RecursionError: maximum recursion depth exceeded"),
        "{}",
        r.stderr
    );
    let r = hostile("def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept RecursionError as e:\n    print('caught', e)\n", MEMORY);
    assert_eq!(
        (r.exit, r.stdout.as_str()),
        (0, "caught maximum recursion depth exceeded\n"),
        "{}",
        r.stderr
    );

    // A huge f-string width: refused as CPython refuses it.
    let r = hostile("print(f\"{1:{10**10}}\")\n", MEMORY);
    assert_eq!(
        (r.exit, last_line(&r.stderr)),
        (1, "ValueError: Too many decimal digits in format string"),
        "{}",
        r.stderr
    );
    // A large but representable width allocates, within the cap.
    let r = hostile("print(len(f\"{1:{10**9}}\"))\n", MEMORY);
    assert_eq!(
        (r.exit, last_line(&r.stderr)),
        (1, "MemoryError"),
        "{}",
        r.stderr
    );

    // Memory right up to the cap stays usable: the runtime keeps its memory 2 MiB ahead of
    // the heap (for huge pages) only while the limit allows it. 60 MiB of 64 in one str (as
    // much as the earlier 1 MiB growth steps allowed), then small allocations into the last
    // of it.
    let r = hostile(
        "s = 'a' * (60 * 2**20)\nxs = [str(i) for i in range(20000)]\nprint(len(s), len(xs))\n",
        MEMORY,
    );
    assert_eq!(
        (r.exit, r.stdout.as_str()),
        (0, "62914560 20000\n"),
        "{}",
        r.stderr
    );

    // A MemoryError from filling the memory with small objects is catchable too, and its
    // handler can still allocate: the runtime keeps a reserve for it (runtime/wat/core.wat).
    let r = hostile(
        "xs = []\ntry:\n    while True:\n        xs.append(str(len(xs)))\nexcept MemoryError:\n    print('caught', len(xs) > 100000, str(len(xs))[:0] + 'ok', [1, 2, 3])\n",
        MEMORY,
    );
    assert_eq!(
        (r.exit, r.stdout.as_str()),
        (0, "caught True ok [1, 2, 3]\n"),
        "{}",
        r.stderr
    );

    // The process never grew far past the plan's cap: 64 MiB for the plan, plus the runtime
    // itself (wasmtime, the compiled module, buffers).
    let rss = peak.get();
    assert!(rss > 64 << 20, "no real reading: {rss} bytes");
    assert!(rss < (64 + 128) << 20, "baton used {} MiB", rss >> 20);
}

#[test]
fn a_long_plan_runs_across_the_functions_it_is_split_into() {
    // 1,200 rounds of statements that take scratch locals (a try, method calls, an f-string):
    // the module body is emitted as several functions (codegen `module_chunks`), which share
    // the module's globals and frame. The exception, the counter and the last f-string must
    // come out as in one function.
    let mut source = String::from("n = 0\ns = 'a,b'\n");
    for i in 0..1200 {
        source.push_str(&format!(
            "try:\n    n += len(s.split(',')) + s.find('b', {i} % 3)\nexcept ValueError as e:\n    n -= 1\nt = f'{{n:>8}}{{s!r}}'\n"
        ));
    }
    source.push_str("print(n, t)\nprint(s[99])\n");
    let long = run(&source, &[]);
    assert_eq!(long.exit, 1, "{}", long.stderr);
    assert_eq!(long.stdout, "4800     4800'a,b'\n");
    assert_eq!(
        last_line(&long.stderr),
        "IndexError: string index out of range"
    );
    assert!(
        long.stderr.contains(&format!("line {}", 2 + 1200 * 5 + 2)),
        "{}",
        long.stderr
    );
    // Its module (~415 KB) is compiled without inlining (`engine::large_module_engine`), so
    // compiling it takes memory for one function at a time, not for the whole module at once
    // (350 MB with inlining).
    assert!(
        long.max_rss < 200 << 20,
        "baton used {} MiB",
        long.max_rss >> 20
    );

    // The engine that compiled it also ends its runs at the wall-clock limit.
    let endless = source.replace("print(n, t)\nprint(s[99])\n", "while True:\n    n += 1\n");
    let endless = run(&endless, &["--timeout", "0.5", "--fuel", "1e15"]);
    assert_eq!(endless.exit, 4, "{}", endless.stderr);
    assert!(
        endless.stderr.contains("wall-clock limit exceeded"),
        "{}",
        endless.stderr
    );
}

/// Red-team finding: a huge format width filled its padding one character at a time and ended
/// in "CPU limit exceeded"; the size is checked before building, so it is a MemoryError.
#[test]
fn a_format_width_beyond_memory_is_a_memory_error() {
    let r = run(
        "for spec in ['^2147483647d', '>2000000000', '=2147483647']:\n    try:\n        f'{7:{spec}}'\n    except MemoryError:\n        print('MemoryError')\ntry:\n    print(f'{7:<2147483647d}')\nexcept MemoryError:\n    print('MemoryError')\ntry:\n    '{:^2147483647d}'.format(7)\nexcept MemoryError:\n    print('MemoryError')\n",
        &["--fuel", "100000000"],
    );
    assert_eq!(r.exit, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "MemoryError\n".repeat(5));
}

/// A limit that ends a run names the plan line where it stopped, and the function, besides the
/// flag that raises it: the frame stack is intact after the trap.
#[test]
fn a_limit_names_the_line_where_the_plan_stopped() {
    let source =
        "def spin(n):\n    x = 0\n    while True:\n        x += n\n\nprint('start')\nspin(1)\n";
    let r = run(source, &["--fuel", "10000000"]);
    assert_eq!(r.exit, 4, "{}", r.stderr);
    // Line 3 (the loop's test) or 4 (its body): wherever the fuel ran out.
    let stopped_in_loop = |text: &str, flag: &str| {
        ["at line 3 (in `spin`)", "at line 4 (in `spin`)"]
            .iter()
            .any(|place| text.contains(&format!("{place}; raise it with {flag}")))
    };
    assert!(
        stopped_in_loop(last_line(&r.stderr), "--fuel"),
        "{}",
        r.stderr
    );
    let r = run(source, &["--timeout", "0.5", "--fuel", "1e12"]);
    assert_eq!(r.exit, 4, "{}", r.stderr);
    assert!(
        stopped_in_loop(last_line(&r.stderr), "--timeout"),
        "{}",
        r.stderr
    );
    // At the top level.
    let r = run("while True:\n    pass\n", &["--fuel", "1000000"]);
    assert!(
        last_line(&r.stderr).contains("at line 2 (in `<module>`)")
            || last_line(&r.stderr).contains("at line 1 (in `<module>`)"),
        "{}",
        r.stderr
    );
}

/// An uncaught MemoryError shows its frames, as CPython's does: the preallocated exception
/// takes a copy of the frame stack in a static region (raising it must not allocate).
#[test]
fn an_uncaught_memory_error_shows_its_frames() {
    let r = run(
        "def grow(parts):\n    while True:\n        parts.append('x' * 1000000)\n\n\
         def main():\n    grow([])\n\nmain()\n",
        &["--memory", "64"],
    );
    assert_eq!(r.exit, 1, "{}", r.stderr);
    let traceback: Vec<&str> = r
        .stderr
        .lines()
        .filter(|line| !line.starts_with("[baton]"))
        .collect();
    assert_eq!(traceback.last(), Some(&"MemoryError"), "{}", r.stderr);
    for frame in ["line 8, in <module>", "line 6, in main", "line 3, in grow"] {
        assert!(
            traceback.iter().any(|line| line.ends_with(frame)),
            "{frame} missing:\n{}",
            r.stderr
        );
    }
}

/// The collector's shadow stack (256 KiB, docs/abi.md "The heap") bounds recursion of functions
/// with many values in flight before Python's limit of 1000 frames does: a deep recursion of
/// such a function ends in a catchable RecursionError, never a trap or a write past the region.
#[test]
fn a_recursion_that_fills_the_shadow_stack_is_a_recursion_error() {
    let values: String = (0..60).map(|i| format!("    v{i} = [n, {i}]\n")).collect();
    let sum: String = (0..60)
        .map(|i| format!("v{i}[1]"))
        .collect::<Vec<_>>()
        .join(" + ");
    let source = format!(
        "def deep(n):\n{values}    if n == 0:\n        return {sum}\n    return deep(n - 1)\n\
         try:\n    deep(900)\nexcept RecursionError as e:\n    print('caught', e)\nprint(deep(10))\n"
    );
    let r = run(&source, &[]);
    assert_eq!(
        (r.exit, r.stdout.as_str()),
        (0, "caught maximum recursion depth exceeded\n1770\n"),
        "{}",
        r.stderr
    );
}

/// A catastrophic regular expression (exponential backtracking) is a loop like any other: the
/// CPU limit ends it, in the plan library's matcher, and the host stays responsive.
#[test]
fn a_catastrophic_pattern_ends_at_the_cpu_limit() {
    let r = run(
        "import re\nprint('start')\nprint(re.match(r'(a+)+b', 'a' * 40))\n",
        &["--memory", "64", "--fuel", "200000000"],
    );
    assert_eq!(r.exit, 4, "{}", r.stderr);
    assert_eq!(r.stdout, "start\n");
    assert!(r.stderr.contains("CPU limit"), "{}", r.stderr);
    assert!(
        r.stderr.contains("of a baton library module (in `_run`)"),
        "{}",
        r.stderr
    );
}
