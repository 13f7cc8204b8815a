//! `baton inspect`: what a compiled plan needs and provides — its imports (the capabilities it
//! asks the host for), its exports and its section sizes. The module is validated exactly as
//! `baton run` validates it; a refused module is reported with the reason (exit 2).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _};
use baton_host::ModuleInfo;

use super::Format;

#[derive(Debug, clap::Args)]
pub struct InspectArgs {
    /// The compiled plan (a `.wasm` module).
    pub module: PathBuf,
    /// Output format: `human` (tables) or `json`; both on stdout.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

pub fn run(args: &InspectArgs) -> anyhow::Result<ExitCode> {
    let path = &args.module;
    if path.is_dir() {
        bail!("module `{}` is a directory, not a file", path.display());
    }
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read module `{}`", path.display()))?;
    let info = baton_host::validate_module(&bytes)
        .with_context(|| format!("module `{}` is refused", path.display()))?;
    let text = match args.format {
        Format::Human => render_human(&path.display().to_string(), &info),
        Format::Json => format!("{:#}\n", render_json(&info)),
    };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .context("writing to stdout")?;
    Ok(ExitCode::SUCCESS)
}

/// Names inside a module are chosen by whoever wrote it: escape them for the terminal.
fn shown(name: &str) -> String {
    name.escape_debug().to_string()
}

fn table(rows: &[[String; 3]]) -> String {
    let mut widths = [0usize; 3];
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let line = format!(
            "  {:w0$}  {:w1$}  {}",
            row[0],
            row[1],
            row[2],
            w0 = widths[0],
            w1 = widths[1]
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn render_human(path: &str, info: &ModuleInfo) -> String {
    let mut out = format!(
        "module {}: {} bytes, {} defined function(s)\n\n",
        shown(path),
        info.size,
        info.defined_functions
    );

    // Capabilities (what a run must grant) apart from the calls every plan may make.
    let capabilities = capabilities_of(info);
    out.push_str("capabilities (what `baton run --grant` must give):\n");
    if capabilities.is_empty() {
        out.push_str("  (none: the plan needs no grant)\n");
    } else {
        for capability in &capabilities {
            out.push_str(&format!("  {capability}\n"));
        }
    }
    out.push_str("\nruntime:\n");
    match info.runtime_version() {
        Some(version) => {
            let count = info
                .imports
                .iter()
                .filter(|import| import.module != baton_host::imports::IMPORT_MODULE)
                .count();
            let this = if version == baton_host::imports::RUNTIME_VERSION {
                "this Baton's runtime"
            } else {
                "not this Baton's runtime: compile the plan again to run it here"
            };
            out.push_str(&format!(
                "  imports Baton runtime {} ({this}): {count} import(s) from it\n",
                shown(version)
            ));
        }
        None => out.push_str("  carries its own (imports no runtime)\n"),
    }
    out.push_str("\nimports (host calls, the capabilities among them):\n");
    let host_calls: Vec<_> = info
        .imports
        .iter()
        .filter(|import| import.module == baton_host::imports::IMPORT_MODULE)
        .collect();
    if host_calls.is_empty() {
        out.push_str("  (none)\n");
    } else {
        let rows: Vec<[String; 3]> = host_calls
            .iter()
            .map(|import| {
                [
                    format!("{}.{}", shown(&import.module), shown(&import.name)),
                    import.kind.to_string(),
                    import.ty.clone(),
                ]
            })
            .collect();
        out.push_str(&table(&rows));
    }

    out.push_str("\nexports:\n");
    if info.exports.is_empty() {
        out.push_str("  (none: the runtime's instance has the entry points)\n");
    }
    let rows: Vec<[String; 3]> = info
        .exports
        .iter()
        .map(|export| {
            [
                shown(&export.name),
                export.kind.to_string(),
                export.ty.clone(),
            ]
        })
        .collect();
    out.push_str(&table(&rows));

    out.push_str("\nsections (bytes):\n");
    let rows: Vec<[String; 3]> = info
        .sections
        .iter()
        .map(|section| {
            let name = match &section.custom {
                Some(custom) => format!("{} \"{}\"", section.name, shown(custom)),
                None => section.name.clone(),
            };
            [name, section.size.to_string(), String::new()]
        })
        .collect();
    out.push_str(&table(&rows));
    out
}

/// The capabilities the module's imports need (`bash`, `llm`), in a stable order.
fn capabilities_of(info: &ModuleInfo) -> Vec<&'static str> {
    let mut found: Vec<&'static str> = info
        .host_calls()
        .filter_map(baton_host::config::Capability::of_import)
        .map(|capability| capability.name())
        .collect();
    found.sort();
    found.dedup();
    found
}

fn render_json(info: &ModuleInfo) -> serde_json::Value {
    use serde_json::json;
    json!({
        "size": info.size,
        "capabilities": capabilities_of(info),
        "runtime": info.runtime_version(),
        "defined_functions": info.defined_functions,
        "imports": info.imports.iter().map(|import| json!({
            "module": import.module,
            "name": import.name,
            "kind": import.kind.name(),
            "type": import.ty,
        })).collect::<Vec<_>>(),
        "exports": info.exports.iter().map(|export| json!({
            "name": export.name,
            "kind": export.kind.name(),
            "type": export.ty,
        })).collect::<Vec<_>>(),
        "sections": info.sections.iter().map(|section| {
            let mut entry = json!({ "name": section.name, "size": section.size });
            if let Some(custom) = &section.custom {
                entry["custom_name"] = json!(custom);
            }
            entry
        }).collect::<Vec<_>>(),
    })
}
