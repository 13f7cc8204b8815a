//! The tester's deviation traps are recognised under the profile `baton run` compiles with, which
//! inlines small functions into their callers (so a trap function has no frame of its own in a
//! backtrace): each trap prints a marker naming its kind before it traps. A test binary of its
//! own, since the compile profile is chosen once per process, before the engine is first used.

use baton_difftest::baton::Runner;
use baton_host::engine::{compile_profile, set_compile_profile, CompileProfile};

#[test]
fn deviation_traps_are_recognised_when_inlined() {
    assert!(set_compile_profile(CompileProfile::Optimised));
    let runner = Runner::default();
    assert_eq!(compile_profile(), CompileProfile::Optimised);
    for (plan, kind) in [
        (
            "try:\n    x = 3 ** 50\nexcept OverflowError:\n    x = 0\nprint(x > 1)\n",
            "64-bit int or complex",
        ),
        (
            "def down(n):\n    return down(n + 1)\ntry:\n    down(0)\nexcept RecursionError:\n    print('deep')\n",
            "recursion depth",
        ),
        ("print(199020226.0 ** 2)\n", "rounding tie"),
        ("print(hash('x') == hash('x'))\n", "hash()"),
    ] {
        let what = runner.deviation(plan);
        assert!(what.is_some_and(|w| w.contains(kind)), "{plan}: {what:?}");
    }
    assert_eq!(runner.deviation("print(2 ** 62)\n"), None);
}
