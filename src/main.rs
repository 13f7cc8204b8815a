//! The `baton` command line.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    // The sandbox re-executes this binary as its helper (`baton_host::sandbox`): that process
    // must not parse arguments or start anything else.
    baton_host::sandbox::run_helper_if_requested();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => {
            cli::to_stderr!("error: {error:#}");
            ExitCode::from(cli::EXIT_USAGE)
        }
    }
}
