//! Generated plans are compiled without fuel metering (`CompileProfile::FastUnmetered`): plans
//! run as under the metered profiles, and the wall-clock timeout, not fuel, ends one that does
//! not finish. Nor do they go through the cache of compiled functions, where they would never be
//! found again. A test binary of its own, since both are chosen once per process, before the
//! engine is first used.

use std::time::Duration;

use baton_difftest::baton::{Runner, LIMITS};
use baton_difftest::outcome::Ending;
use baton_host::engine::{
    compile_profile, set_compile_profile, set_function_cache, CompileProfile, FunctionCache,
};

#[test]
fn unmetered_code_runs_plans_and_the_timeout_bounds_them() {
    assert!(set_compile_profile(CompileProfile::FastUnmetered));
    assert!(set_function_cache(false));
    assert!(!compile_profile().meters_fuel());
    // A fuel limit far below what the plans take: unmetered code does not count it.
    let limits = baton_host::Limits {
        fuel: 1_000,
        timeout: Duration::from_secs(1),
        ..LIMITS
    };
    let runner = Runner::new(limits);
    assert_eq!(compile_profile(), CompileProfile::FastUnmetered);
    let finished =
        runner.run("total = 0\nfor i in range(100_000):\n    total += i\nprint(total)\n");
    assert_eq!(finished.ending, Ending::Success);
    assert_eq!(finished.stdout, "4999950000\n");
    let endless = runner.run("n = 0\nwhile True:\n    n += 1\n");
    match &endless.ending {
        Ending::Limit(message) => assert!(message.contains("time"), "{message}"),
        other => panic!("an endless loop ended as {other}"),
    }
    assert!(
        FunctionCache::shared().is_empty(),
        "{} functions were cached",
        FunctionCache::shared().len()
    );
    assert!(!set_function_cache(true), "chosen once, before the engine");
}
