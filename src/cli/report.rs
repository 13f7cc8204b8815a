//! `baton trace RUN_DIR` (the run's trace as JSON, `baton_host::trace`) and `baton report
//! RUN_DIR -o report.html`: the same data as one self-contained HTML file — no scripts, no
//! external assets — with the branch tree, a timeline of branches and host calls, tokens, cost
//! and validator scores per branch, the chosen branches, and every call's request and result
//! (cut, expandable).

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
    let html = render(&trace);
    std::fs::write(&args.output, html)
        .with_context(|| format!("cannot write `{}`", args.output.display()))?;
    eprintln!("wrote {}", args.output.display());
    Ok(ExitCode::SUCCESS)
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
pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:6px;margin:4px 0;max-width:100em}\
.tree ul{list-style:none;padding-left:1.4em;border-left:1px dotted #aaa}.tree>ul{border:0;padding:0}\
.badge{display:inline-block;border-radius:3px;padding:0 5px;margin-left:4px;font-size:12px;background:#eee}\
.chosen{background:#ffd54f}.valid{background:#c8e6c9}.failed{background:#ffcdd2}.cancelled{background:#e0e0e0}\
summary{cursor:pointer}.num{text-align:right;font-variant-numeric:tabular-nums}";

fn render(trace: &Value) -> String {
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
        ("journaled calls", calls.len().to_string()),
        ("branches", (branches.len().saturating_sub(1)).to_string()),
    ] {
        let _ = write!(html, "<tr><th>{label}</th><td>{}</td></tr>", esc(&value));
    }
    html.push_str("</table>");

    // The branch tree.
    html.push_str("<h2>Branches</h2><div class=\"tree\" id=\"tree\">");
    tree(&mut html, branches, "");
    html.push_str("</div>");

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
            call["line"].as_u64().map_or(String::new(), |l| l.to_string()),
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
    let _ = writeln!(
        html,
        "<h2>Result</h2><pre>{}</pre></body></html>",
        esc(&trace["result"].to_string())
    );
    html
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
            let _ = write!(html, "<li><b>{}</b>", esc(&name_of(path)));
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
    let height = row * rows.len() as f64 + 24.0;
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
    let _ = write!(
        html,
        "<text x=\"{label}\" y=\"{}\" font-size=\"11\">0 s</text><text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{end:.3} s</text></svg><p><span class=\"badge\" style=\"background:#7e57c2;color:#fff\">llm</span><span class=\"badge\" style=\"background:#26a69a;color:#fff\">bash</span><span class=\"badge\" style=\"background:#ffb300\">branch</span></p>",
        height - 4.0,
        width + label,
        height - 4.0
    );
}
