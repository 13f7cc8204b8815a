//! A minimal helper executable for this crate's tests and examples: the `baton` binary plays
//! this role in production. Run without the helper argument it prints the probe of this machine.

fn main() {
    baton_sandbox::run_helper_if_requested();
    let exe = match baton_sandbox::HelperExe::from_env_or_current() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("cannot locate the helper executable: {e}");
            std::process::exit(2);
        }
    };
    print!("{}", baton_sandbox::info(&exe));
}
