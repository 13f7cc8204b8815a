//! `baton plan`: a model writes the plan (`baton::planner`), the check judges it, the model
//! repairs it from the diagnostics, and the accepted plan runs exactly as `baton run` runs it.
//!
//! The run directory keeps how the plan came to be, in `planning/`: `system.md` (the planner's
//! instructions and guide), `task.md`, and for each revision `revision-N.py` and
//! `revision-N.json` (the model's whole answer, the diagnostics, whether it was accepted).
//! `baton report` and `baton trace` show them.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _};
use baton::planner::{self, Followup, Planner, Revision, Task};
use baton_host::llm::{Budget, Client, LlmError, Spent};
use baton_host::session::PLANNING_DIR;

use super::run::{RunArgs, RunOptions};
use super::EXIT_REJECTED;

#[derive(Debug, clap::Args)]
pub struct PlanArgs {
    /// The task, in words: what the plan should do.
    #[arg(
        long,
        value_name = "TEXT",
        required_unless_present_any = ["task_file", "resume"],
        conflicts_with = "task_file"
    )]
    pub task: Option<String>,
    /// Read the task from FILE.
    #[arg(long, value_name = "FILE")]
    pub task_file: Option<PathBuf>,
    /// The model that writes the plan (default: the provider's, as for the plan's `llm`).
    #[arg(long, value_name = "MODEL")]
    pub planner_model: Option<String>,
    /// How many times the model may correct a plan the check rejects.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_repairs: usize,
    /// How many times a plan that raises an uncaught exception when it runs is replaced: the
    /// traceback and the run's last calls go back to the planner for a new plan, which runs
    /// in a run directory of its own (`replan-N/` inside the first) on a fresh copy of the
    /// workspace. Model calls it repeats exactly are answered from the earlier runs' journals,
    /// not paid again. Not with `--in-place`.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub replan: usize,
    /// Go on with an interrupted `baton plan`: its task and revisions are read from the run
    /// directory's `planning/` (a revision told the same again gets its recorded answer, not a
    /// new model call), and a run that had started is resumed from its journal. Give the
    /// other flags again, as for `baton run --resume`.
    #[arg(long, value_name = "RUN_DIR", conflicts_with_all = ["task", "task_file", "run_dir"])]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub options: RunOptions,
}

/// The run directory `baton plan` plans into (the run then uses it): `--run-dir`, or a new
/// directory under the runs directory.
fn run_dir(options: &RunOptions) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &options.run_dir {
        return Ok(dir.clone());
    }
    let base = super::run::runs_base();
    std::fs::create_dir_all(&base)
        .with_context(|| format!("cannot create `{}`", base.display()))?;
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    for attempt in 0..1000u32 {
        let dir = base.join(format!("{seconds}-plan-{}-{attempt}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => bail!("cannot create `{}`: {error}", dir.display()),
        }
    }
    bail!(
        "cannot find a free run directory under `{}`",
        base.display()
    )
}

pub fn run(args: &PlanArgs) -> anyhow::Result<ExitCode> {
    let text = match (&args.task, &args.task_file, &args.resume) {
        (Some(task), _, _) => task.clone(),
        (None, Some(path), _) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the task `{}`", path.display()))?,
        (None, None, Some(dir)) => {
            let path = dir.join(PLANNING_DIR).join("task.md");
            std::fs::read_to_string(&path).with_context(|| {
                format!(
                    "`{}` is not a run of baton plan (no {})",
                    dir.display(),
                    path.display()
                )
            })?
        }
        (None, None, None) => bail!("give the task with --task TEXT or --task-file FILE"),
    };
    let draft = RunArgs {
        plan: None,
        resume: None,
        options: args.options.clone(),
    };
    let config = draft.config()?;
    let inputs = draft.inputs()?;
    let client = Client::from_config(&config.llm, args.options.llm.clone()).map_err(|error| {
        anyhow::anyhow!("baton plan needs a model to write the plan (give --llm): {error}")
    })?;
    if args.planner_model.is_none() && client.default_model().is_none() {
        bail!(
            "baton plan needs a model to write the plan: give --llm openai:MODEL (or \
             script:FILE.json), --planner-model MODEL, llm.model in the configuration, or \
             BATON_LLM_MODEL"
        );
    }
    let budget = Budget::new(config.budget);
    let task = Task {
        text,
        grants: config
            .grants
            .names()
            .into_iter()
            .map(str::to_string)
            .collect(),
        inputs: inputs
            .as_object()
            .map(|map| map.keys().cloned().collect())
            .unwrap_or_default(),
    };

    if args.replan > 0 && args.options.in_place {
        bail!(
            "--replan runs each new plan on a fresh copy of the workspace, which --in-place \
             does not have: leave out one of them"
        );
    }
    let dir = match &args.resume {
        Some(dir) => dir.clone(),
        None => run_dir(&args.options)?,
    };
    let planning = dir.join(PLANNING_DIR);
    let occupied = match std::fs::read_dir(&dir) {
        Ok(mut entries) => entries.next().is_some(),
        Err(error) => error.kind() != std::io::ErrorKind::NotFound,
    };
    if occupied && args.resume.is_none() {
        bail!(
            "the run directory `{}` is not empty (each run needs a directory of its own)",
            dir.display()
        );
    }
    std::fs::create_dir_all(&planning)
        .with_context(|| format!("cannot create `{}`", planning.display()))?;
    let guide = super::guide::guide().compact();
    let write = |name: &str, text: &str| -> anyhow::Result<()> {
        std::fs::write(planning.join(name), text)
            .with_context(|| format!("cannot write `{}`", planning.join(name).display()))
    };
    write("system.md", &planner::system_prompt(&guide))?;
    write("task.md", &task.text)?;

    let planner = Planner {
        client: &client,
        budget: &budget,
        model: args.planner_model.clone(),
        max_repairs: args.max_repairs,
        guide,
        recorded: recorded_revisions(&planning),
    };
    let quiet = args.options.quiet;
    let mut revisions = 0;
    let mut followup = None;
    let mut earlier_journals = Vec::new();
    let mut runs_spent = Spent::default();
    for attempt in 0..=args.replan {
        let mut kept = Ok(());
        let planned = planner
            .plan(
                &task,
                revisions + 1,
                followup.take(),
                &mut |revision: &Revision| {
                    let name = format!("revision-{}", revision.number);
                    let record = serde_json::to_string_pretty(&planner::revision_record(revision))
                        .unwrap_or_default();
                    if kept.is_ok() {
                        kept = write(&format!("{name}.py"), &revision.source)
                            .and_then(|()| write(&format!("{name}.json"), &record));
                    }
                    if !quiet {
                        to_stderr!("[baton] planning: {}", describe(revision));
                    }
                },
            )
            .context("cannot ask the planner")?;
        kept?;
        revisions += planned.revisions.len();

        if let Some(error) = &planned.error {
            to_stderr!("error: the planner's model call failed: {error}");
            return Ok(ExitCode::from(match error {
                LlmError::BudgetExceeded { .. } => 4,
                _ => 1,
            }));
        }
        let Some(accepted) = planned.accepted() else {
            if let Some(last) = planned.revisions.last() {
                let report = baton_compiler::check_source(
                    &planning
                        .join(format!("revision-{}.py", last.number))
                        .display()
                        .to_string(),
                    &last.source,
                );
                super::write_stderr(&report.render_human());
            }
            to_stderr!(
                "error: no plan passed the check after {} (the run directory `{}` keeps each)",
                super::summary::plural(planned.revisions.len() as u64, "revision", "revisions"),
                dir.display()
            );
            return Ok(ExitCode::from(EXIT_REJECTED));
        };
        let plan = planning.join(format!("revision-{}.py", accepted.number));
        // Each attempt runs in a run directory of its own: the first in the one planned into,
        // a replanned one below it, on a fresh copy of the workspace.
        let attempt_dir = match attempt {
            0 => dir.clone(),
            n => dir.join(format!("replan-{n}")),
        };
        let facts = serde_json::json!({
            "revisions": revisions,
            "rejected": revisions - 1 - attempt,
            "replans": attempt,
            "calls": planned.spent.calls,
            "tokens": planned.spent.tokens(),
            "cost_usd": planned.spent.cost_usd,
            "accepted": format!("{PLANNING_DIR}/revision-{}.py", accepted.number),
            "run_dir": attempt_dir,
        });
        write(
            "summary.json",
            &serde_json::to_string_pretty(&facts).unwrap_or_default(),
        )?;
        let mut options = args.options.clone();
        options.run_dir = Some(attempt_dir.clone());
        options.spent_before = Some(planned.spent + runs_spent);
        options.planning = Some(facts);
        options.earlier_journals = earlier_journals.clone();
        // A run that had started (`--resume`) goes on from its journal.
        let started = attempt_dir
            .join(baton_host::journal::JOURNAL_FILE)
            .is_file();
        let mut raised = None;
        let code = super::run::run_with(
            &RunArgs {
                plan: (!started).then_some(plan),
                resume: started.then(|| attempt_dir.clone()),
                options,
            },
            &mut raised,
        )?;
        let Some(traceback) = raised.filter(|_| attempt < args.replan) else {
            return Ok(code);
        };
        // A budget that ran out is not the plan's fault: a new plan would spend it again.
        let last = traceback.lines().last().unwrap_or_default().to_string();
        if last.starts_with("BudgetExceeded") {
            return Ok(code);
        }
        if !quiet {
            to_stderr!(
                "[baton] planning: the plan raised ({}); asking for a new one ({} of {})",
                baton::terminal_text(&last, false),
                attempt + 1,
                args.replan
            );
        }
        runs_spent = runs_spent + run_spent(&attempt_dir);
        earlier_journals.push(attempt_dir.join(baton_host::journal::JOURNAL_FILE));
        followup = Some(Followup {
            reply: accepted.reply.clone(),
            told: planner::replan_message(&traceback, &recent_calls(&attempt_dir)),
        });
    }
    unreachable!("the last attempt returns")
}

/// What an interrupted planning recorded: each revision's number, what the model was told
/// and what it answered.
fn recorded_revisions(
    planning: &std::path::Path,
) -> std::collections::HashMap<usize, (String, String)> {
    let mut recorded = std::collections::HashMap::new();
    for number in 1.. {
        let Ok(text) = std::fs::read_to_string(planning.join(format!("revision-{number}.json")))
        else {
            break;
        };
        let record: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        if let (Some(asked), Some(reply)) = (record["asked"].as_str(), record["reply"].as_str()) {
            recorded.insert(number, (asked.to_string(), reply.to_string()));
        }
    }
    recorded
}

/// What a finished run spent on model calls (its figures.json).
fn run_spent(run_dir: &std::path::Path) -> Spent {
    let figures: serde_json::Value = std::fs::read_to_string(run_dir.join("figures.json"))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let llm = &figures["llm"];
    Spent {
        calls: llm["calls"].as_u64().unwrap_or(0),
        input_tokens: llm["input_tokens"].as_u64().unwrap_or(0),
        output_tokens: llm["output_tokens"].as_u64().unwrap_or(0),
        cost_usd: llm["cost_usd"].as_f64().unwrap_or(0.0),
        unpriced_calls: 0,
    }
}

/// The last calls of a run, for the planner: each call's kind, request and result, cut short.
fn recent_calls(run_dir: &std::path::Path) -> serde_json::Value {
    const SHOWN: usize = 8;
    const CHARS: usize = 600;
    let cut = |value: &serde_json::Value| {
        let text = value.to_string();
        match text.char_indices().nth(CHARS) {
            Some((end, _)) => serde_json::Value::String(format!("{}…", &text[..end])),
            None => value.clone(),
        }
    };
    let Ok(trace) = baton_host::trace::trace(run_dir) else {
        return serde_json::Value::Array(Vec::new());
    };
    let calls = trace["calls"].as_array().map_or(&[][..], Vec::as_slice);
    let recent: Vec<serde_json::Value> = calls[calls.len().saturating_sub(SHOWN)..]
        .iter()
        .map(|call| {
            serde_json::json!({
                "call": call["call"],
                "branch": call["path"],
                "request": cut(&call["request"]),
                "result": cut(&call["result"]),
            })
        })
        .collect();
    serde_json::Value::Array(recent)
}

/// "revision 2 rejected: B201 name `lenn` is not defined (and 1 more)".
fn describe(revision: &Revision) -> String {
    let errors: Vec<&serde_json::Value> = revision
        .diagnostics
        .as_array()
        .map(|items| items.iter().filter(|d| d["severity"] == "error").collect())
        .unwrap_or_default();
    match (revision.accepted, errors.first()) {
        (true, _) => format!("revision {} passed the check", revision.number),
        (false, Some(first)) => format!(
            "revision {} rejected: {} {}{}",
            revision.number,
            first["code"].as_str().unwrap_or("?"),
            baton::terminal_text(first["message"].as_str().unwrap_or_default(), false),
            match errors.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            }
        ),
        (false, None) => format!("revision {} rejected", revision.number),
    }
}
