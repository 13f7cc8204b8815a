//! `baton priors RUN_DIR...`: what earlier runs' `branch` call sites did (`figures.json`,
//! "branches"), summed per call site and turned into priors for `branch(..., n="auto")`:
//! the success rate (with one success and one failure added, so a site seen once is not
//! certain), and the mean model calls, tokens and cost per attempt. `baton run --priors FILE`
//! reads what this writes.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use baton_host::branch::{Prior, SiteFigures};

#[derive(Debug, clap::Args)]
pub struct PriorsArgs {
    /// Run directories (each holds a `figures.json`).
    #[arg(required = true)]
    pub runs: Vec<PathBuf>,
    /// Write the priors to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: &PriorsArgs) -> anyhow::Result<ExitCode> {
    let mut sites: BTreeMap<String, SiteFigures> = BTreeMap::new();
    for dir in &args.runs {
        let path = dir.join("figures.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read `{}`", path.display()))?;
        let figures: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("`{}` is not JSON", path.display()))?;
        let Some(branches) = figures.get("branches").and_then(|b| b.as_object()) else {
            continue;
        };
        for (site, value) in branches {
            let site_figures: SiteFigures = serde_json::from_value(value.clone())
                .with_context(|| format!("`{}`: branches.{site} is malformed", path.display()))?;
            sites.entry(site.clone()).or_default().add(&site_figures);
        }
    }
    let priors: BTreeMap<&String, Prior> = sites
        .iter()
        .map(|(site, figures)| (site, figures.prior()))
        .collect();
    let text = serde_json::to_string_pretty(&priors)? + "\n";
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write `{}`", path.display()))?,
        None => {
            let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
        }
    }
    Ok(ExitCode::SUCCESS)
}
