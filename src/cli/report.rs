//! `baton trace RUN_DIR` (the run's trace as JSON, `baton_host::trace`) and `baton report
//! RUN_DIR -o report.html`: the same data as one self-contained HTML file — no scripts, no
//! external assets — meant as the place to debug a run: the branch tree with each `branch`
//! call's decision (the reducer, what it chose and why the others lost), a timeline with a time
//! axis and the decisions and cancellations marked, tokens, cost and validator scores per
//! branch, every call's request and result (cut, expandable) linked to its plan line, the plan
//! source, the inputs, grants and limits, the log, and the workspace's changes as a diff.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::Value;

#[derive(Debug, clap::Args)]
pub struct TraceArgs {
    /// The run directory.
    pub run_dir: PathBuf,
    /// Write the trace to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The run directory.
    pub run_dir: PathBuf,
    /// Write the HTML report to FILE.
    #[arg(long, short, value_name = "FILE", default_value = "report.html")]
    pub output: PathBuf,
}

pub fn trace(args: &TraceArgs) -> anyhow::Result<ExitCode> {
    let trace = baton_host::trace::trace(&args.run_dir).map_err(anyhow::Error::msg)?;
    let text = serde_json::to_string_pretty(&trace)? + "\n";
    if let Some(path) = &args.output {
        std::fs::write(path, &text)
            .map_err(|error| anyhow::anyhow!("cannot write `{}`: {error}", path.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    // A closed pipe (`baton trace DIR | head`) is the reader's choice, not an error.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

pub fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let trace = baton_host::trace::trace(&args.run_dir).map_err(anyhow::Error::msg)?;
    let files = RunFiles::read(&args.run_dir);
    let html = render(&trace, &files);
    std::fs::write(&args.output, html)
        .with_context(|| format!("cannot write `{}`", args.output.display()))?;
    to_stderr!("wrote {}", args.output.display());
    Ok(ExitCode::SUCCESS)
}

/// The run directory's files the report shows besides the trace (each may be missing: a run
/// from a `.wasm` has no `plan.py`, a run without a workspace no patch).
#[derive(Default)]
struct RunFiles {
    plan: Option<String>,
    inputs: Option<String>,
    config: Option<String>,
    log: Option<String>,
    patch: Option<String>,
}

/// The most bytes of a run-directory file the report embeds (the rest is left in the file).
const FILE_SHOWN: usize = 1 << 20;

impl RunFiles {
    fn read(run_dir: &std::path::Path) -> RunFiles {
        let read = |name: &str| {
            let bytes = std::fs::read(run_dir.join(name)).ok()?;
            let shown = &bytes[..bytes.len().min(FILE_SHOWN)];
            let mut text = String::from_utf8_lossy(shown).into_owned();
            if bytes.len() > FILE_SHOWN {
                let _ = write!(
                    text,
                    "\n… ({} bytes in all: the rest is in {name})",
                    bytes.len()
                );
            }
            Some(text)
        };
        RunFiles {
            plan: read("plan.py"),
            inputs: read("inputs.json"),
            config: read("config.toml"),
            log: read("log.txt"),
            patch: read("changes.patch"),
        }
    }
}

/// A call's line when it is a line of the plan itself (a call from a plan library module's
/// frame names the module's number as `file`).
fn plan_line(call: &Value) -> Option<u64> {
    match call["file"].as_u64() {
        Some(file) if file != 0 => None,
        _ => call["line"].as_u64(),
    }
}

fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn text_of(value: &Value) -> String {
    let text = value["text"].as_str().unwrap_or_default();
    match value["length"].as_u64() {
        Some(length) => format!("{text}… ({length} bytes in all)"),
        None => text.to_string(),
    }
}

/// A call's request or result (JSON values in the trace) as text for people: a reply's string
/// as it is, an error as `Type: message`, anything else as indented JSON.
fn call_text(value: &Value) -> String {
    match value {
        Value::Object(map) if map.len() == 1 && map.contains_key("ok") => match &map["ok"] {
            Value::String(text) => text.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        },
        Value::Object(map) if map.len() == 1 && map.contains_key("error") => format!(
            "{}: {}",
            map["error"]["type"].as_str().unwrap_or("Error"),
            map["error"]["message"].as_str().unwrap_or_default()
        ),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// A branch's name with the plan's label for it (its `labels=` entry or callable's name).
fn labelled(path: &str, label: &Value) -> String {
    match label.as_str() {
        Some(label) => format!("{} ({label})", name_of(path)),
        None => name_of(path),
    }
}

/// The last `bash` call instance `path` made: for a branch that lost, usually the command that
/// showed why (a validator's test run, the step that failed).
fn last_command<'a>(calls: &'a [Value], path: &str) -> Option<&'a Value> {
    calls
        .iter()
        .rev()
        .find(|call| call["call"] == "bash" && call["path"].as_str() == Some(path))
}

/// Why a branch lost, shown as what it did: the value the validator rejected, and the output
/// of its last command.
fn evidence(html: &mut String, calls: &[Value], outcome: &Value) {
    // A branch that raised: where (its traceback, as its uncaught report printed it).
    if let Some(traceback) = outcome["traceback"].as_str() {
        let _ = write!(
            html,
            "<details><summary>its traceback</summary><pre>{}</pre></details>",
            esc(traceback)
        );
    }
    if outcome["valid"] == false && outcome["ok"] == true {
        let value = match &outcome["value"] {
            Value::String(text) => text.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        let _ = write!(
            html,
            "<details><summary>the value it returned</summary><pre>{}</pre></details>",
            esc(&value)
        );
    }
    let path = outcome["branch"].as_str().unwrap_or_default();
    let Some(call) = last_command(calls, path) else {
        return;
    };
    let command = call["request"]["command"].as_str().unwrap_or_default();
    let reply = &call["result"]["ok"];
    let status = match (&call["result"], reply["returncode"].as_i64()) {
        (Value::Null, _) => "cut off by the decision".to_string(),
        (_, Some(code)) if reply["timed_out"] == true => format!("timed out (exit {code})"),
        (_, Some(code)) => format!("exit {code}"),
        (result, None) => call_text(result),
    };
    let output = [&reply["stdout"], &reply["stderr"]]
        .into_iter()
        .filter_map(Value::as_str)
        .collect::<String>();
    let _ = write!(
        html,
        "<details open><summary>its last command, line {}: <code>{}</code>, {}</summary><pre>{}</pre></details>",
        line_cell(call, true),
        esc(command),
        esc(&status),
        esc(if output.is_empty() { "(no output)" } else { &output })
    );
}

fn name_of(path: &str) -> String {
    if path.is_empty() {
        "run".to_string()
    } else {
        format!("branch {path}")
    }
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}\
table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left;vertical-align:top}\
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:6px;margin:4px 0;max-width:100%;box-sizing:border-box}\
body{max-width:1320px}table{max-width:100%}td{overflow-wrap:anywhere}\
.src{counter-reset:none;white-space:pre;overflow-x:auto}.src a{color:#888;text-decoration:none;display:inline-block;width:3.5em;user-select:none}\
.src .hit{background:#fff3c4}.src :target{background:#ffe082}\
.diff .add{color:#1b5e20;background:#e8f5e9}.diff .del{color:#b71c1c;background:#ffebee}.diff .hunk{color:#1565c0}\
.decision{margin:2px 0 8px 1.4em;font-size:13px;color:#444}\
.tree ul{list-style:none;padding-left:1.4em;border-left:1px dotted #aaa}.tree>ul{border:0;padding:0}\
.badge{display:inline-block;border-radius:3px;padding:0 5px;margin-left:4px;font-size:12px;background:#eee}\
.label{font-style:italic;color:#555}.chosen{background:#ffd54f}.valid{background:#c8e6c9}.failed{background:#ffcdd2}.cancelled{background:#e0e0e0}\
summary{cursor:pointer}.num{text-align:right;font-variant-numeric:tabular-nums}";

fn render(trace: &Value, files: &RunFiles) -> String {
    let empty = Vec::new();
    let branches = trace["branches"].as_array().unwrap_or(&empty);
    let calls = trace["calls"].as_array().unwrap_or(&empty);
    let figures = &trace["figures"];
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Baton run report</title><style>{STYLE}</style></head><body>"
    );
    let _ = write!(
        html,
        "<h1>Baton run report</h1><p><code>{}</code></p><table>",
        esc(trace["run_dir"].as_str().unwrap_or_default())
    );
    let outcome = &figures["outcome"];
    let status = outcome["status"].as_str().unwrap_or("unknown");
    let detail = outcome["exception"]
        .as_str()
        .or(outcome["error"].as_str())
        .unwrap_or_default();
    for (label, value) in [
        ("outcome", format!("{status} {detail}")),
        (
            "wall time",
            format!("{:.3} s", figures["seconds"].as_f64().unwrap_or(0.0)),
        ),
        ("model calls", figures["llm"]["calls"].to_string()),
        (
            "tokens",
            (figures["llm"]["input_tokens"].as_u64().unwrap_or(0)
                + figures["llm"]["output_tokens"].as_u64().unwrap_or(0))
            .to_string(),
        ),
        (
            "cost",
            super::summary::cost(figures["llm"]["cost_usd"].as_f64().unwrap_or(0.0)),
        ),
        ("plan heap", heap_figures(&figures["heap"])),
        ("journaled calls", calls.len().to_string()),
        ("branches", (branches.len().saturating_sub(1)).to_string()),
    ] {
        let _ = write!(html, "<tr><th>{label}</th><td>{}</td></tr>", esc(&value));
    }
    html.push_str("</table>");

    planning(&mut html, &trace["planning"]);

    // Inputs, grants and limits.
    html.push_str("<h2>Inputs, grants and limits</h2>");
    if let Some(inputs) = &files.inputs {
        let _ = write!(
            html,
            "<details open><summary>inputs</summary><pre>{}</pre></details>",
            esc(inputs)
        );
    }
    if let Some(config) = &files.config {
        let _ = write!(
            html,
            "<details><summary>configuration (grants, limits, sandbox, budget)</summary><pre>{}</pre></details>",
            esc(config)
        );
    }

    // The branch tree, and every `branch` call's decision.
    html.push_str("<h2>Branches</h2><div class=\"tree\" id=\"tree\">");
    tree(&mut html, branches, "");
    html.push_str("</div>");
    decisions(&mut html, calls);

    // The timeline: a row per instance, a bar per call.
    html.push_str("<h2>Timeline</h2>");
    timeline(&mut html, branches, calls);

    // Every call.
    html.push_str("<h2>Host calls</h2><table><tr><th>instance</th><th>#</th><th>call</th><th>line</th><th class=\"num\">start (s)</th><th class=\"num\">took (s)</th><th>request</th><th>result</th></tr>");
    for call in calls {
        let path = call["path"].as_str().unwrap_or_default();
        let cell = |value: &Value| match value {
            Value::Null => "<td>(no result: cut by the end of the journal)</td>".to_string(),
            value => {
                let text = call_text(value);
                let head: String = text.chars().take(80).collect();
                format!(
                    "<td><details><summary>{}</summary><pre>{}</pre></details></td>",
                    esc(&head),
                    esc(&text)
                )
            }
        };
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{:.3}</td><td class=\"num\">{}</td>{}{}</tr>",
            esc(&name_of(path)),
            call["seq"],
            esc(call["call"].as_str().unwrap_or_default()),
            line_cell(call, files.plan.is_some()),
            call["at"].as_f64().unwrap_or(0.0),
            call["seconds"].as_f64().map_or("–".to_string(), |s| format!("{s:.3}")),
            cell(&call["request"]),
            cell(&call["result"]),
        );
    }
    html.push_str("</table>");
    let _ = write!(
        html,
        "<h2>Output</h2><details><summary>what the plan printed</summary><pre>{}</pre></details>",
        esc(&text_of(&trace["output"]))
    );
    if let Some(log) = files.log.as_deref().filter(|log| !log.is_empty()) {
        let _ = write!(html, "<h2>Log</h2><pre id=\"log\">{}</pre>", esc(log));
    }
    if let Some(patch) = files.patch.as_deref().filter(|patch| !patch.is_empty()) {
        html.push_str("<h2>Changes</h2>");
        diff(&mut html, patch);
    }
    if let Some(plan) = &files.plan {
        html.push_str("<h2>Plan</h2>");
        source(&mut html, plan, calls);
    }
    let _ = writeln!(
        html,
        "<h2>Result</h2><pre>{}</pre></body></html>",
        esc(&trace["result"].to_string())
    );
    html
}

/// A call's line, linked to the plan source below when it is a line of the plan itself.
fn line_cell(call: &Value, have_plan: bool) -> String {
    match (plan_line(call), call["line"].as_u64()) {
        (Some(line), _) if have_plan => format!("<a href=\"#L{line}\">{line}</a>"),
        (Some(line), _) => line.to_string(),
        (None, Some(line)) => format!("library {line}"),
        (None, None) => String::new(),
    }
}

/// The plan source with line numbers (anchors `L<n>`), the lines that made calls marked.
fn source(html: &mut String, plan: &str, calls: &[Value]) {
    let hit: std::collections::BTreeSet<u64> = calls.iter().filter_map(plan_line).collect();
    html.push_str("<pre class=\"src\">");
    for (index, text) in plan.lines().enumerate() {
        let number = index as u64 + 1;
        let class = if hit.contains(&number) {
            " class=\"hit\""
        } else {
            ""
        };
        let _ = writeln!(
            html,
            "<span id=\"L{number}\"{class}><a href=\"#L{number}\">{number}</a>{}</span>",
            esc(text)
        );
    }
    html.push_str("</pre>");
}

/// `changes.patch` as a diff: added, removed and hunk lines coloured.
fn diff(html: &mut String, patch: &str) {
    html.push_str("<pre class=\"diff\" id=\"diff\">");
    for line in patch.lines() {
        let class = if line.starts_with("+++") || line.starts_with("---") {
            ""
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "del"
        } else if line.starts_with("@@") {
            "hunk"
        } else {
            ""
        };
        let _ = writeln!(html, "<span class=\"{class}\">{}</span>", esc(line));
    }
    html.push_str("</pre>");
}

/// How `baton plan` got the plan: the task, and each revision with the check's diagnostics
/// (the accepted one open).
fn planning(html: &mut String, planning: &Value) {
    let Some(revisions) = planning["revisions"].as_array() else {
        return;
    };
    let _ = write!(
        html,
        "<h2>Planning</h2><p>The plan was written by a model: {} ({} rejected by the check).</p><details><summary>the task</summary><pre>{}</pre></details>",
        super::summary::plural(revisions.len() as u64, "revision", "revisions"),
        revisions.iter().filter(|r| r["accepted"] != true).count(),
        esc(&text_of(&planning["task"]))
    );
    for revision in revisions {
        let accepted = revision["accepted"] == true;
        let _ = write!(
            html,
            "<details id=\"revision-{n}\"{open}><summary>revision {n}: {verdict}</summary><ul>",
            n = revision["revision"],
            open = if accepted { " open" } else { "" },
            verdict = if accepted {
                "<span class=\"badge valid\">accepted</span>"
            } else {
                "<span class=\"badge failed\">rejected</span>"
            }
        );
        for diagnostic in revision["diagnostics"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
        {
            let _ = write!(
                html,
                "<li><code>{}</code> line {}: {}</li>",
                esc(diagnostic["code"].as_str().unwrap_or_default()),
                diagnostic["line"],
                esc(diagnostic["message"].as_str().unwrap_or_default())
            );
        }
        let _ = write!(
            html,
            "</ul><pre>{}</pre></details>",
            esc(revision["source"].as_str().unwrap_or_default())
        );
    }
}

/// Each `branch` call's decision: the reducer, what it chose, the message it gave when it chose
/// nothing, and why each other branch lost (its error, or that it was not valid).
fn decisions(html: &mut String, calls: &[Value]) {
    let branch_calls: Vec<&Value> = calls.iter().filter(|c| c["call"] == "branch").collect();
    if branch_calls.is_empty() {
        return;
    }
    html.push_str("<h2>Decisions</h2>");
    for call in branch_calls {
        let reply = &call["result"]["ok"];
        let outcomes = reply["outcomes"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let reduce = call["request"]["reduce"].as_str().unwrap_or("?");
        let chosen = reply["chosen"].as_u64();
        let _ = write!(
            html,
            "<div class=\"decision\"><b>{}</b> call #{} at line {}: {} branches, reduce=<code>{}</code>; ",
            esc(&name_of(call["path"].as_str().unwrap_or_default())),
            call["seq"],
            line_cell(call, true),
            outcomes.len(),
            esc(reduce)
        );
        // A journal is input like any other: a chosen index without its outcome is shown as such.
        let winner = chosen.and_then(|index| outcomes.get(usize::try_from(index).ok()?));
        match (chosen, winner) {
            (Some(index), None) => {
                let _ = write!(
                    html,
                    "chose branch #{index}, which has no outcome in the journal"
                );
            }
            (Some(_), Some(winner)) => {
                let _ = write!(
                    html,
                    "chose <b>{}</b>{}",
                    esc(&labelled(
                        winner["branch"].as_str().unwrap_or_default(),
                        &winner["label"]
                    )),
                    match winner["score"].as_f64() {
                        Some(score) => format!(" (score {score}, the best)"),
                        None if winner["valid"] == true => " (valid)".to_string(),
                        None => String::new(),
                    }
                );
            }
            (None, _) if reduce == "all" => html.push_str("kept every outcome"),
            (None, _) => {
                let _ = write!(
                    html,
                    "chose nothing: {}",
                    esc(reply["message"].as_str().unwrap_or_default())
                );
            }
        }
        html.push_str("<ul>");
        for outcome in outcomes {
            let name = esc(&labelled(
                outcome["branch"].as_str().unwrap_or_default(),
                &outcome["label"],
            ));
            let why = if outcome["cancelled"] == true {
                "cancelled (a decision was reached)".to_string()
            } else if outcome["ok"] == false {
                format!(
                    "failed: <code>{}: {}</code>",
                    esc(outcome["error_type"].as_str().unwrap_or("Error")),
                    esc(outcome["error_message"].as_str().unwrap_or_default())
                )
            } else if outcome["valid"] == false {
                "returned a value the validator rejected".to_string()
            } else if outcome["chosen"] == true {
                continue;
            } else if let Some(score) = outcome["score"].as_f64() {
                format!("valid, score {score}")
            } else {
                "valid".to_string()
            };
            let _ = write!(html, "<li>{name}: {why}");
            if outcome["cancelled"] != true {
                evidence(html, calls, outcome);
            }
            html.push_str("</li>");
        }
        html.push_str("</ul></div>");
    }
}

fn tree(html: &mut String, branches: &[Value], parent: &str) {
    let children: Vec<&Value> = branches
        .iter()
        .filter(|b| {
            let path = b["path"].as_str().unwrap_or_default();
            if parent.is_empty() && path.is_empty() {
                return false;
            }
            b["parent"].as_str() == Some(parent)
        })
        .collect();
    if parent.is_empty() {
        let _ = write!(html, "<ul><li><b>run</b>");
    }
    if !children.is_empty() {
        html.push_str("<ul>");
        for child in children {
            let path = child["path"].as_str().unwrap_or_default();
            let _ = write!(
                html,
                "<li id=\"b-{}\"><b>{}</b>",
                esc(path),
                esc(&name_of(path))
            );
            if let Some(label) = child["label"].as_str() {
                let _ = write!(html, " <span class=\"label\">{}</span>", esc(label));
            }
            if child["chosen"] == true {
                html.push_str("<span class=\"badge chosen\">chosen</span>");
            }
            if child["cancelled"] == true {
                html.push_str("<span class=\"badge cancelled\">cancelled</span>");
            } else if child["valid"] == true {
                html.push_str("<span class=\"badge valid\">valid</span>");
            } else if child["ok"] == false {
                html.push_str("<span class=\"badge failed\">failed</span>");
            } else if child["valid"] == false {
                html.push_str("<span class=\"badge failed\">invalid</span>");
            }
            if let Some(score) = child["score"].as_f64() {
                let _ = write!(html, "<span class=\"badge\">score {score}</span>");
            }
            let _ = write!(
                html,
                "<span class=\"badge\">{}</span><span class=\"badge\">{}</span><span class=\"badge\">{}</span>",
                super::summary::plural(child["calls"].as_u64().unwrap_or(0), "call", "calls"),
                super::summary::plural(child["tokens"].as_u64().unwrap_or(0), "token", "tokens"),
                super::summary::cost(child["cost"].as_f64().unwrap_or(0.0))
            );
            if let Some(error) = child["error"].as_str() {
                let _ = write!(html, " <code>{}</code>", esc(error));
            }
            tree(html, branches, path);
            html.push_str("</li>");
        }
        html.push_str("</ul>");
    }
    if parent.is_empty() {
        html.push_str("</li></ul>");
    }
}

fn timeline(html: &mut String, branches: &[Value], calls: &[Value]) {
    let end = calls
        .iter()
        .map(|c| c["at"].as_f64().unwrap_or(0.0) + c["seconds"].as_f64().unwrap_or(0.0))
        .fold(0.0_f64, f64::max)
        .max(1e-3);
    let (width, row, label) = (900.0, 18.0, 110.0);
    let mut rows: Vec<&str> = branches.iter().filter_map(|b| b["path"].as_str()).collect();
    rows.sort();
    let height = row * rows.len() as f64 + 30.0;
    let _ = write!(
        html,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" role=\"img\" aria-label=\"timeline\">",
        width + label + 10.0
    );
    let x = |t: f64| label + t / end * width;
    for (i, path) in rows.iter().enumerate() {
        let y = i as f64 * row;
        let _ = write!(
            html,
            "<text x=\"0\" y=\"{}\" font-size=\"11\">{}</text><line x1=\"{label}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#eee\"/>",
            y + 13.0,
            esc(&name_of(path)),
            width + label,
            y + 9.0,
            y + 9.0
        );
        for call in calls.iter().filter(|c| c["path"].as_str() == Some(path)) {
            let at = call["at"].as_f64().unwrap_or(0.0);
            let seconds = call["seconds"].as_f64().unwrap_or(end - at);
            let color = match call["call"].as_str() {
                Some("llm") => "#7e57c2",
                Some("bash") => "#26a69a",
                _ => "#ffb300",
            };
            let _ = write!(
                html,
                "<rect x=\"{:.1}\" y=\"{}\" width=\"{:.1}\" height=\"{}\" fill=\"{color}\" opacity=\"0.8\"><title>{} #{} {:.3}s</title></rect>",
                x(at),
                y + 3.0,
                (x(at + seconds) - x(at)).max(1.5),
                row - 6.0,
                esc(call["call"].as_str().unwrap_or_default()),
                call["seq"],
                seconds
            );
        }
    }
    // Decisions (a `branch` call's end, in its caller's row) and cancellations (a cancelled
    // branch's end, in its own row).
    for (i, path) in rows.iter().enumerate() {
        let y = i as f64 * row;
        for call in calls
            .iter()
            .filter(|c| c["path"].as_str() == Some(path) && c["call"] == "branch")
        {
            let Some(seconds) = call["seconds"].as_f64() else {
                continue;
            };
            let at = x(call["at"].as_f64().unwrap_or(0.0) + seconds);
            let _ = write!(
                html,
                "<path d=\"M{at:.1} {} l4 6 l-4 6 l-4 -6 z\" fill=\"#d32f2f\"><title>decision of branch call #{}</title></path>",
                y + 3.0,
                call["seq"]
            );
        }
        let cancelled = branches
            .iter()
            .find(|b| b["path"].as_str() == Some(path) && b["cancelled"] == true);
        if let Some(end_at) = cancelled.and_then(|b| b["end"].as_f64()) {
            let at = x(end_at);
            let _ = write!(
                html,
                "<path d=\"M{} {} l8 8 m0 -8 l-8 8\" stroke=\"#424242\" stroke-width=\"2\"><title>cancelled</title></path>",
                at - 4.0,
                y + 5.0
            );
        }
    }
    // The time axis: ticks at a round step.
    let step = round_step(end / 8.0);
    let axis = height - 16.0;
    let mut tick = 0.0;
    while tick <= end + step * 1e-9 {
        let _ = write!(
            html,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"0\" y2=\"{axis}\" stroke=\"#ddd\" stroke-dasharray=\"2 3\"/><text x=\"{0:.1}\" y=\"{1}\" font-size=\"10\" text-anchor=\"middle\">{2} s</text>",
            x(tick),
            height - 4.0,
            seconds_label(tick, step)
        );
        tick += step;
    }
    html.push_str("</svg><p><span class=\"badge\" style=\"background:#7e57c2;color:#fff\">llm</span><span class=\"badge\" style=\"background:#26a69a;color:#fff\">bash</span><span class=\"badge\" style=\"background:#ffb300\">branch</span><span class=\"badge\" style=\"color:#d32f2f\">&#9670; decision</span><span class=\"badge\">&#10005; cancelled</span> A call cut by the end of the run is drawn to the end.</p>");
}

/// 1, 2 or 5 times a power of ten, at least `rough`.
fn round_step(rough: f64) -> f64 {
    let rough = rough.max(1e-6);
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|step| *step >= rough)
        .unwrap_or(10.0 * power)
}

/// A tick's label with as many decimals as the step needs.
fn seconds_label(t: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    format!("{t:.decimals$}")
}

/// The memory manager's figures of the plan's own instance: "peak 4.1 MiB, 12 collections in
/// 3.2 ms"; a dash for a run that ended without them.
fn heap_figures(heap: &serde_json::Value) -> String {
    let Some(peak) = heap["peak_bytes"].as_u64() else {
        return "–".to_string();
    };
    format!(
        "peak {:.1} MiB, {} collections in {:.1} ms",
        peak as f64 / f64::from(1u32 << 20),
        heap["collections"].as_u64().unwrap_or(0),
        heap["collect_seconds"].as_f64().unwrap_or(0.0) * 1e3
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A journal is input: a decision naming a branch with no outcome (a cut or edited journal)
    /// is shown as such, not a panic.
    #[test]
    fn a_chosen_branch_without_an_outcome_is_reported_not_a_panic() {
        let calls = [serde_json::json!({
            "call": "branch", "path": "", "seq": 0, "line": 3,
            "request": {"reduce": "best"},
            "result": {"ok": {"chosen": 5, "outcomes": [], "message": ""}}
        })];
        let mut html = String::new();
        decisions(&mut html, &calls);
        assert!(
            html.contains("chose branch #5, which has no outcome"),
            "{html}"
        );
    }
}
