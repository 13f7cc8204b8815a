//! `baton replay RUN_DIR`: re-executes a finished run from its journal (no commands, no network,
//! no model) and checks that it prints the same output and returns the same result.

use std::path::PathBuf;
use std::process::ExitCode;

use baton_host::session::{replay_run, SessionError};
use baton_host::RunOutcome;

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The run directory of a finished run.
    pub run_dir: PathBuf,
    /// Also print what the replay printed (on stdout).
    #[arg(long)]
    pub print: bool,
}

pub fn run(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let record = match replay_run(&args.run_dir) {
        Ok(record) => record,
        Err(SessionError::Host(baton_host::HostError::Divergence(message))) => {
            to_stderr!("error: the replay diverged from the journal: {message}");
            return Ok(ExitCode::from(super::EXIT_USAGE));
        }
        Err(error) => {
            return Err(anyhow::Error::new(error)
                .context(format!("cannot replay `{}`", args.run_dir.display())))
        }
    };
    if args.print {
        use std::io::Write as _;
        let _ = std::io::stdout().write_all(&record.output);
    }
    let mut same = true;
    if record.output != record.recorded_output {
        same = false;
        let replayed = String::from_utf8_lossy(&record.output);
        let recorded = String::from_utf8_lossy(&record.recorded_output);
        let line = replayed
            .lines()
            .zip(recorded.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| replayed.lines().count().min(recorded.lines().count()));
        to_stderr!(
            "the output differs from the run's output.txt from line {} ({} bytes replayed, {} recorded)",
            line + 1,
            record.output.len(),
            record.recorded_output.len()
        );
    }
    if record.result != record.recorded_result {
        same = false;
        to_stderr!(
            "the result differs from the run's result.json: {} (recorded: {})",
            record.result.as_deref().unwrap_or("none"),
            record.recorded_result.as_deref().unwrap_or("none")
        );
    }
    let ending = match &record.outcome {
        RunOutcome::Success => "success".to_string(),
        RunOutcome::Exception { traceback, .. } => {
            traceback.lines().last().unwrap_or_default().to_string()
        }
    };
    if same {
        to_stderr!(
            "replayed {} calls from the journal: same output ({} bytes), same result ({ending})",
            record.replayed,
            record.output.len()
        );
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(1))
    }
}
