//! `baton check`.

use std::io::Write as _;
use std::process::ExitCode;

use anyhow::Context as _;

use super::{CheckArgs, Format, EXIT_REJECTED};

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let shown = args.plan.display().to_string();
    let text = baton::read_plan(&args.plan)?;
    let mut report = baton_compiler::check_source(&shown, &text);
    if args.deny_warnings {
        report = report.deny_warnings();
    }
    match args.format {
        Format::Json => {
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{}", report.render_json()).context("writing to stdout")?;
        }
        Format::Human => {
            // Warnings (and errors) first; an accepted plan then says so.
            super::write_stderr(&report.render_human());
            if report.is_accepted() {
                to_stderr!("ok: `{shown}` passes the check");
            }
        }
    }
    Ok(if report.is_accepted() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_REJECTED)
    })
}
