//! `baton batch`: many runs from a manifest, on this machine, Slurm or Kubernetes
//! (`baton::batch` holds the contract and the engines).

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _};
use baton::batch::{self, collect, k8s, local, shard, slurm, status, Layout, Manifest};
use clap::{Subcommand, ValueEnum};

use super::EXIT_USAGE;

#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    #[command(subcommand)]
    pub command: BatchCommand,
}

#[derive(Debug, Subcommand)]
pub enum BatchCommand {
    /// Run one shard of a batch: the command every engine runs. A run with a result is
    /// skipped, one with a journal and no result is resumed, each is claimed first (two copies
    /// of a shard never run one run at once). Exit 0 when every run of the shard has a result
    /// (a plan that raised or hit a limit is a result), 75 when some could not run for a
    /// reason worth a retry (sandbox set-up, a model provider unreachable, a full disk, a run
    /// held by another live process), 2 for a bad manifest.
    Shard(ShardArgs),
    /// Run a whole batch with an engine: `local` (shard processes on this machine, retried on
    /// exit 75), `slurm` (a job array, resubmitting the indexes that exited 75) or `k8s` (an
    /// Indexed Job applied with kubectl and followed). Run it again after an interruption: runs
    /// with results are skipped, the others resumed.
    Run(RunBatchArgs),
    /// What a batch has done so far: runs done (by how they ended), running, failed for a
    /// retry, pending; model calls, tokens and cost. Works while the batch runs.
    Status(RootArgs),
    /// Write what the finished runs produced: ROOT/preds.jsonl (SWE-bench predictions),
    /// ROOT/trajectories/ID/ID.traj.json (mini-swe-agent-style), ROOT/summary.json (figures
    /// per tag). Works at any point of the batch.
    Collect(RootArgs),
    /// Print what an engine would submit: for `k8s`, the Indexed Job (JSON, which kubectl
    /// applies as it is).
    Render(RenderArgs),
}

#[derive(Debug, clap::Args)]
pub struct ShardArgs {
    /// The manifest: JSON lines, one run each.
    pub manifest: PathBuf,
    /// The batch root.
    #[arg(long, value_name = "ROOT")]
    pub out: PathBuf,
    /// This shard's index (default: $JOB_COMPLETION_INDEX, else $SLURM_ARRAY_TASK_ID).
    #[arg(long, value_name = "I")]
    pub index: Option<usize>,
    /// How many shards the batch has.
    #[arg(long, value_name = "N")]
    pub shards: usize,
    /// Runs of the shard at once (default: the machine's cores).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// No line per run on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    Local,
    Slurm,
    K8s,
}

#[derive(Debug, clap::Args)]
pub struct RunBatchArgs {
    pub manifest: PathBuf,
    #[arg(long, value_name = "ROOT")]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value_t = Engine::Local)]
    pub engine: Engine,
    /// Shards running at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub parallel: usize,
    /// Shards (default: --parallel for local, else one per group).
    #[arg(long, value_name = "S")]
    pub shards: Option<usize>,
    /// Runs at once inside each shard.
    #[arg(long, value_name = "J", default_value_t = 2)]
    pub jobs: usize,
    /// Retries of a shard that exits 75.
    #[arg(long, value_name = "R", default_value_t = 3)]
    pub retries: usize,
    #[command(flatten)]
    pub k8s: K8sArgs,
}

#[derive(Debug, clap::Args)]
pub struct K8sArgs {
    /// k8s: the Job's name.
    #[arg(long, default_value = "baton-batch")]
    pub job_name: String,
    /// k8s: the image with `baton` on its PATH.
    #[arg(long, default_value = "baton:latest")]
    pub image: String,
    /// k8s: the PersistentVolumeClaim (ReadWriteMany) mounted at ROOT in every pod.
    #[arg(long, default_value = "baton-batch")]
    pub volume_claim: String,
    /// k8s: the kubectl to use.
    #[arg(long, default_value = "kubectl")]
    pub kubectl: String,
}

#[derive(Debug, clap::Args)]
pub struct RootArgs {
    /// The batch root.
    pub root: PathBuf,
    #[arg(long, value_enum, default_value_t = super::Format::Human)]
    pub format: super::Format,
}

#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    pub manifest: PathBuf,
    #[arg(long, value_name = "ROOT")]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value_t = Engine::K8s)]
    pub engine: Engine,
    #[arg(long, value_name = "S")]
    pub shards: Option<usize>,
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub parallel: usize,
    #[arg(long, value_name = "R", default_value_t = 3)]
    pub retries: usize,
    #[command(flatten)]
    pub k8s: K8sArgs,
}

fn manifest(path: &std::path::Path) -> Result<Manifest, ExitCode> {
    Manifest::read(path).map_err(|error| {
        for problem in &error.problems {
            to_stderr!("error: {problem}");
        }
        ExitCode::from(EXIT_USAGE)
    })
}

pub fn run(args: &BatchArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        BatchCommand::Shard(args) => run_shard(args),
        BatchCommand::Run(args) => run_batch(args),
        BatchCommand::Status(args) => {
            let value = status::status(&Layout::new(&args.root))?;
            let text = match args.format {
                super::Format::Json => format!("{value}\n"),
                super::Format::Human => status::render(&value, std::io::stdout().is_terminal()),
            };
            write_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        BatchCommand::Collect(args) => {
            let collected = collect::collect(&Layout::new(&args.root))?;
            to_stderr!(
                "wrote {} predictions and {} trajectories to {}",
                collected.predictions,
                collected.trajectories,
                args.root.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        BatchCommand::Render(args) => {
            let manifest = match manifest(&args.manifest) {
                Ok(manifest) => manifest,
                Err(code) => return Ok(code),
            };
            if args.engine != Engine::K8s {
                bail!("only the k8s engine has something to render");
            }
            let spec = job_spec(
                &args.k8s,
                &args.manifest,
                &args.out,
                &manifest,
                args.shards,
                args.parallel,
                args.retries,
            );
            let text = serde_json::to_string_pretty(&k8s::render(&spec))?;
            write_stdout(&format!("{text}\n"))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Writes what the command prints: an error (not `println!`'s panic) when stdout cannot take
/// it, since the output is what the command is for.
fn write_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write to stdout")
}

fn job_spec(
    k8s: &K8sArgs,
    manifest_path: &std::path::Path,
    root: &std::path::Path,
    manifest: &Manifest,
    shards: Option<usize>,
    parallel: usize,
    retries: usize,
) -> k8s::JobSpec {
    k8s::JobSpec {
        name: k8s.job_name.clone(),
        image: k8s.image.clone(),
        manifest: manifest_path.display().to_string(),
        root: root.display().to_string(),
        shards: shards.unwrap_or_else(|| manifest.groups().len()).max(1),
        parallel,
        retries,
        volume_claim: k8s.volume_claim.clone(),
    }
}

fn run_shard(args: &ShardArgs) -> anyhow::Result<ExitCode> {
    let manifest = match manifest(&args.manifest) {
        Ok(manifest) => manifest,
        Err(code) => return Ok(code),
    };
    let index = match args.index {
        Some(index) => index,
        None => ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]
            .iter()
            .find_map(|name| std::env::var(name).ok()?.parse().ok())
            .context(
                "give --index (or run where $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID is set)",
            )?,
    };
    if args.shards == 0 || index >= args.shards {
        bail!("--index {index} is not a shard of --shards {}", args.shards);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let quiet = args.quiet;
    let echo = move |line: &str| {
        if !quiet {
            to_stderr!("[batch] {}", baton::terminal_text(line, false));
        }
    };
    let layout = Layout::new(&args.out);
    let report = shard::run_shard(&manifest, &layout, index, args.shards, jobs, &echo)?;
    if !quiet {
        to_stderr!(
            "[batch] shard {index}: {} run, {} had results{}",
            report.ran,
            report.skipped,
            if report.complete() {
                String::new()
            } else {
                format!(
                    ", {} held by another process, {} to retry",
                    report.held_elsewhere.len(),
                    report.infrastructure.len()
                )
            }
        );
    }
    Ok(if report.complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(batch::EXIT_RETRY)
    })
}

fn run_batch(args: &RunBatchArgs) -> anyhow::Result<ExitCode> {
    let manifest = match manifest(&args.manifest) {
        Ok(manifest) => manifest,
        Err(code) => return Ok(code),
    };
    let exe = std::env::current_exe().context("cannot find the baton executable")?;
    let manifest_path = args
        .manifest
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", args.manifest.display()))?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let root = args.out.canonicalize()?;
    Layout::new(&root).prepare(&manifest)?;
    let echo = |line: &str| to_stderr!("[batch] {}", baton::terminal_text(line, false));
    let submission = |shards: usize| batch::Submission {
        exe: &exe,
        manifest: &manifest_path,
        root: &root,
        shards: shards.max(1),
        jobs: args.jobs,
    };
    let failed: Vec<usize> = match args.engine {
        Engine::Local => {
            let shards = args.shards.unwrap_or(args.parallel);
            local::run(&submission(shards), args.parallel, args.retries, &echo)?
                .failed
                .into_iter()
                .map(|(index, _)| index)
                .collect()
        }
        Engine::Slurm => {
            let shards = args.shards.unwrap_or_else(|| manifest.groups().len());
            slurm::run(&submission(shards), args.parallel, args.retries, &echo)?
        }
        Engine::K8s => {
            let spec = job_spec(
                &args.k8s,
                &manifest_path,
                &root,
                &manifest,
                args.shards,
                args.parallel,
                args.retries,
            );
            k8s::run(&spec, &args.k8s.kubectl, &echo)?
        }
    };
    let value = status::status(&Layout::new(&root))?;
    super::write_stderr(&status::render(&value, false));
    Ok(if failed.is_empty() && value["done"] == value["runs"] {
        ExitCode::SUCCESS
    } else {
        to_stderr!("error: shards {failed:?} did not finish; run the batch again to resume them");
        ExitCode::from(batch::EXIT_RETRY)
    })
}
