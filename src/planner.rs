//! Plans written by a model: the loop behind `baton plan`.
//!
//! The planner model gets the compact plan-language guide, the task, the capabilities the run
//! grants and the names of its inputs, and answers with a plan. The first fenced python block
//! of the answer is the plan (the whole answer when it has none). `baton check` judges it; while
//! it is rejected, the model gets its diagnostics back — JSON, each with the offending line
//! quoted — with its own last answer, and is asked for the whole corrected plan, up to
//! `max_repairs` times. Every answer is a [`Revision`], kept whether accepted or not.
//!
//! The planner's calls go through the same [`Client`] and [`Budget`] as the plan's own, so the
//! run's caps bound planning too.

use baton_host::llm::{Budget, Client, LlmError, Message, Request, Spent};
use serde_json::{json, Value};

/// What the planner is asked to do.
#[derive(Debug, Clone)]
pub struct Task {
    /// The task, in the user's words.
    pub text: String,
    /// The capabilities the run grants (`bash`, `llm`).
    pub grants: Vec<String>,
    /// The names of the run's inputs.
    pub inputs: Vec<String>,
}

/// One plan the model wrote, and what the check said of it.
#[derive(Debug, Clone)]
pub struct Revision {
    /// 1 for the first answer.
    pub number: usize,
    /// What the planner was told last before this answer: the task, or the diagnostics of the
    /// revision before.
    pub asked: String,
    /// The model's whole answer.
    pub reply: String,
    /// The plan taken from it.
    pub source: String,
    /// The check's diagnostics (as [`diagnostics_json`] gives them): errors and warnings.
    pub diagnostics: Value,
    pub accepted: bool,
}

/// How planning ended.
#[derive(Debug)]
pub struct Planned {
    /// Every revision, in order; the last is the accepted one when there is one.
    pub revisions: Vec<Revision>,
    /// What the planner's calls cost.
    pub spent: Spent,
    /// The model call that failed, if one did (no plan was then accepted).
    pub error: Option<LlmError>,
}

impl Planned {
    /// The accepted plan, if planning produced one.
    pub fn accepted(&self) -> Option<&Revision> {
        self.revisions.last().filter(|revision| revision.accepted)
    }
}

/// The instructions and guide the planner gets as its system message.
pub fn system_prompt(guide: &str) -> String {
    format!(
        "You write plans for Baton: programs in a strict subset of Python 3.11 that do a task \
         by running shell commands and calling models through Baton's SDK. The plan runs \
         unattended, in a sandbox, on the workspace the task names. Print what the user should \
         see; define main() to return a result. Reply with the whole plan in one ```python \
         fenced block.\n\n{guide}"
    )
}

fn task_message(task: &Task) -> String {
    let grants = if task.grants.is_empty() {
        "none (the plan can only compute and print)".to_string()
    } else {
        task.grants.join(", ")
    };
    let inputs = if task.inputs.is_empty() {
        "none".to_string()
    } else {
        task.inputs.join(", ")
    };
    format!(
        "Task:\n{}\n\nGranted capabilities (the plan may use only these): {grants}.\nInputs \
         (the `inputs` dict, and main's keyword arguments when the plan defines main): {inputs}.",
        task.text.trim_end()
    )
}

fn repair_message(diagnostics: &Value) -> String {
    format!(
        "`baton check` rejected the plan. Its diagnostics (JSON; `text` is the offending \
         line):\n```json\n{}\n```\nReply with the whole corrected plan in one ```python block.",
        serde_json::to_string_pretty(diagnostics).unwrap_or_default()
    )
}

/// The plan in a model's answer: the first ```python (or ```py, or bare ```) fenced block, or
/// the whole answer when it has none.
pub fn extract_plan(reply: &str) -> String {
    let mut in_block = false;
    // Inside a fenced block of another language, whose closing fence opens nothing.
    let mut in_other = false;
    let mut plan = Vec::new();
    for line in reply.lines() {
        let trimmed = line.trim();
        if in_other {
            in_other = !trimmed.starts_with("```");
            continue;
        }
        if !in_block {
            if let Some(info) = trimmed.strip_prefix("```") {
                let info = info.trim();
                if matches!(info, "" | "python" | "py" | "python3") {
                    in_block = true;
                } else {
                    in_other = true;
                }
            }
            continue;
        }
        if trimmed.starts_with("```") {
            return format!("{}\n", plan.join("\n"));
        }
        plan.push(line);
    }
    if in_block {
        // An unclosed block: what followed the fence.
        return format!("{}\n", plan.join("\n"));
    }
    let mut whole = reply.trim().to_string();
    whole.push('\n');
    whole
}

/// The check's diagnostics as the planner gets them: code, severity, message, help, position,
/// and the text of the line they point at.
pub fn diagnostics_json(report: &baton_compiler::CheckReport, source: &str) -> Value {
    let lines: Vec<&str> = source.lines().collect();
    let rendered: Value = serde_json::from_str(&report.render_json()).unwrap_or(Value::Null);
    let mut items = rendered.as_array().cloned().unwrap_or_default();
    for item in &mut items {
        let text = item["line"]
            .as_u64()
            .and_then(|line| lines.get((line as usize).checked_sub(1)?))
            .map(|line| line.to_string());
        if let (Some(map), Some(text)) = (item.as_object_mut(), text) {
            map.insert("text".into(), Value::String(text));
        }
    }
    Value::Array(items)
}

/// What the planner is told after a plan it wrote, when not the check's diagnostics: the
/// traceback of the run it raised in (`--replan`).
#[derive(Debug, Clone)]
pub struct Followup {
    /// The answer that held the plan.
    pub reply: String,
    /// What to tell the model about it.
    pub told: String,
}

/// What the planner is told when its accepted plan raised: the traceback and the run's last
/// calls, and the request for a new plan.
pub fn replan_message(traceback: &str, recent_calls: &Value) -> String {
    format!(
        "The plan passed the check, but when it ran it raised:\n```\n{}\n```\nIts last calls \
         (JSON):\n```json\n{}\n```\nWrite a new plan that does the task and does not fail \
         this way. Model calls it repeats exactly are answered as before, without being paid \
         again; commands run again on a fresh copy of the workspace. Reply with the whole plan \
         in one ```python block.",
        traceback.trim_end(),
        serde_json::to_string_pretty(recent_calls).unwrap_or_default()
    )
}

/// The model the planner asks, under a budget.
pub struct Planner<'a> {
    pub client: &'a Client,
    pub budget: &'a Budget,
    /// `--planner-model`; `None`: the provider's default.
    pub model: Option<String>,
    /// Corrections asked for after the first answer.
    pub max_repairs: usize,
    /// The compact guide for the system message.
    pub guide: String,
    /// Answers of an interrupted planning (`baton plan --resume`), by revision number: what
    /// the model was told and what it answered. A revision told the same again gets the same
    /// answer without a new call.
    pub recorded: std::collections::HashMap<usize, (String, String)>,
}

impl Planner<'_> {
    /// Asks for a plan, and for corrections while the check rejects it. `on_revision` hears
    /// of each revision as it is judged (for progress lines). Revisions are numbered from
    /// `first`; with a `followup`, the first request tells the model that instead of asking
    /// afresh. An error only when the async runtime the calls need cannot start.
    pub fn plan(
        &self,
        task: &Task,
        first: usize,
        followup: Option<Followup>,
        on_revision: &mut dyn FnMut(&Revision),
    ) -> std::io::Result<Planned> {
        let mut revisions: Vec<Revision> = Vec::new();
        let system = system_prompt(&self.guide);
        let asked = task_message(task);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        for number in first..=first + self.max_repairs {
            let mut messages = vec![
                Message::new("system", &system),
                Message::new("user", &asked),
            ];
            if let Some(last) = revisions.last() {
                messages.push(Message::new("assistant", &last.reply));
                messages.push(Message::new("user", repair_message(&last.diagnostics)));
            } else if let Some(followup) = &followup {
                messages.push(Message::new("assistant", &followup.reply));
                messages.push(Message::new("user", &followup.told));
            }
            let told = messages
                .last()
                .map(|m| m.content.clone())
                .unwrap_or_default();
            let request = Request {
                messages,
                model: self.model.clone(),
                ..Request::default()
            };
            let answer = match self.recorded.get(&number) {
                Some((asked, answer)) if *asked == told => answer.clone(),
                _ => match runtime.block_on(self.client.complete(self.budget, request)) {
                    Ok(reply) => reply.text,
                    Err(error) => {
                        return Ok(Planned {
                            revisions,
                            spent: self.budget.spent(),
                            error: Some(error),
                        })
                    }
                },
            };
            let source = extract_plan(&answer);
            let report = baton_compiler::check_source("plan.py", &source);
            let revision = Revision {
                number,
                asked: told,
                diagnostics: diagnostics_json(&report, &source),
                accepted: report.is_accepted(),
                reply: answer,
                source,
            };
            on_revision(&revision);
            let accepted = revision.accepted;
            revisions.push(revision);
            if accepted {
                break;
            }
        }
        Ok(Planned {
            revisions,
            spent: self.budget.spent(),
            error: None,
        })
    }
}

/// A revision as `planning/revision-N.json` keeps it.
pub fn revision_record(revision: &Revision) -> Value {
    json!({
        "revision": revision.number,
        "accepted": revision.accepted,
        "asked": revision.asked,
        "reply": revision.reply,
        "diagnostics": revision.diagnostics,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_is_the_first_python_block_or_the_whole_answer() {
        assert_eq!(
            extract_plan("Here:\n```python\nprint(1)\n```\nand\n```python\nprint(2)\n```\n"),
            "print(1)\n"
        );
        assert_eq!(extract_plan("```\nx = 1\n```"), "x = 1\n");
        assert_eq!(extract_plan("```py\nx = 1\n"), "x = 1\n");
        assert_eq!(extract_plan("print('hi')\n\n"), "print('hi')\n");
        // A block in another language is not the plan.
        assert_eq!(
            extract_plan("```bash\nls\n```\n```python\nprint(3)\n```"),
            "print(3)\n"
        );
    }

    #[test]
    fn diagnostics_quote_their_line() {
        let source = "import os\nprint(1)\n";
        let report = baton_compiler::check_source("plan.py", source);
        let json = diagnostics_json(&report, source);
        assert_eq!(json[0]["code"], "B101");
        assert_eq!(json[0]["text"], "import os");
    }
}
