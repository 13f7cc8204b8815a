//! How long the static check of a realistic plan takes.
//!
//! `plan500.py` is a ~500-line coding-agent orchestration plan (helpers, closures, f-strings,
//! comprehensions, try/except, json, branch and parallel). We measure the guarded entry point
//! `check_source`, which spawns a checker thread with a large reserved stack, and
//! `check_in_place`, which checks on the calling thread, so the difference is the thread's cost;
//! `parse_only` is rustpython-parser alone, so the rest of `check_in_place` is the checker's walk.
//!
//! Run: `cargo bench -p baton-compiler --bench check`.

use std::hint::black_box;

use baton_compiler::{check_in_place, check_source, Limits};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const PLAN_NAME: &str = "plan500.py";
const PLAN: &str = include_str!("plan500.py");

fn assert_accepted() {
    let report = check_source(PLAN_NAME, PLAN);
    assert!(
        report.is_accepted(),
        "the benchmark plan must be accepted by the checker:\n{}",
        report.render_human()
    );
}

fn bench_check(c: &mut Criterion) {
    assert_accepted();
    let limits = Limits::default();

    let mut group = c.benchmark_group("check_plan500");
    group.throughput(Throughput::Bytes(PLAN.len() as u64));
    group.bench_function("check_source", |b| {
        b.iter(|| check_source(black_box(PLAN_NAME), black_box(PLAN)))
    });
    group.bench_function("check_in_place", |b| {
        b.iter(|| check_in_place(black_box(PLAN_NAME), black_box(PLAN), black_box(&limits)))
    });
    // The parser alone (rustpython-parser), to tell parsing cost from checking cost.
    let file = baton_compiler::SourceFile::new(PLAN_NAME, PLAN);
    group.bench_function("parse_only", |b| {
        b.iter(|| baton_compiler::front::parse(black_box(&file)))
    });
    group.finish();
}

criterion_group!(benches, bench_check);
criterion_main!(benches);
