//! The plan-language guide: what a plan may write, for the people and models who write plans.
//!
//! Generated, not written: every list comes from the table the checker or the runtime acts on —
//! the supported and forbidden builtins and the importable modules ([`crate::policy`]), the
//! methods of each type (the runtime's attribute tables, [`baton_runtime::methods`]), the
//! exception classes ([`baton_runtime::catalog`]), the refused syntax (by its diagnostic
//! [`Code`]), and the SDK's and plan library's signatures and docstrings, read out of
//! `plans/baton/__init__.py` and `plans/baton/ttc.py`. What no table holds (the builtins'
//! signatures, the statements, the idioms) is in `tables.rs`, and the tests below fail when it
//! and the tables disagree, so the guide cannot drift from what Baton does.
//!
//! [`Guide::markdown`] is `docs/plan-language.md` and `baton guide`; [`Guide::compact`] fits a
//! planner's prompt (`baton plan` sends it); [`Guide::json`] is for tools.

pub(crate) mod stub;
mod tables;

use serde::Serialize;
use serde_json::Value;

use crate::policy;

/// Where the standard modules differ from CPython's, said once under the module list.
const MODULE_NOTES: &str = "
The standard modules are written to CPython 3.11's documented behaviour and checked against \
it (`baton-difftest --area math|re|shlex|textwrap`, `--re-corpus`). Where they differ:

- `re`: str patterns only (no bytes, no LOCALE, no `\\N{...}` escapes); flags are plain ints \
(`re.I | re.M` works; `print(re.I)` shows `2`, not `re.IGNORECASE`); `finditer` finds all matches at once; a counted \
repeat is expanded into copies (a pattern beyond 200,000 instructions is refused). IGNORECASE \
compares simple lowercase forms (CPython also folds a few special pairs such as `ſ`/`s`). \
Matching costs fuel like any loop: a catastrophic pattern ends at the CPU limit.
- `math`: results are CPython's on this machine; integers beyond 64 bits (`factorial(21)`) \
raise OverflowError, as all of Baton's ints do.
- `typing`: names only; `Optional[int]` is `typing.Optional` and `List[int]` is `list` (`int | None` is a union, as in CPython).
";

pub(crate) const SDK_STUB: &str = include_str!("../../sdk/baton/__init__.py");
pub(crate) const LIBRARY: &str = include_str!("../../sdk/baton/ttc.py");

/// One of the run's limits, as the host that runs plans sets it (the compiler does not know
/// them: `baton guide` passes the host's defaults).
#[derive(Debug, Clone, Serialize)]
pub struct Limit {
    pub what: String,
    pub default: String,
    /// The `baton run` flag that changes it.
    pub flag: String,
}

#[derive(Debug, Clone, Serialize)]
struct Call {
    name: String,
    signature: String,
    doc: String,
}

#[derive(Debug, Clone, Serialize)]
struct Record {
    name: String,
    doc: String,
    fields: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
struct Refused {
    code: &'static str,
    what: &'static str,
    instead: &'static str,
}

#[derive(Debug, Clone, Serialize)]
struct Forbidden {
    name: &'static str,
    instead: &'static str,
}

#[derive(Debug, Clone, Serialize)]
struct Exception {
    name: String,
    base: Option<String>,
    doc: String,
}

#[derive(Debug, Clone, Serialize)]
struct Module {
    name: &'static str,
    summary: &'static str,
    members: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
struct Idiom {
    title: &'static str,
    code: &'static str,
}

/// The guide's content, assembled from the tables.
#[derive(Debug, Clone, Serialize)]
pub struct Guide {
    syntax: Vec<&'static str>,
    refused: Vec<Refused>,
    builtins: Vec<&'static str>,
    forbidden: Vec<Forbidden>,
    methods: Vec<(String, Vec<String>)>,
    exceptions: Vec<Exception>,
    modules: Vec<Module>,
    sdk: Vec<Call>,
    records: Vec<Record>,
    library: Vec<Call>,
    limits: Vec<Limit>,
    idioms: Vec<Idiom>,
}

impl Guide {
    pub fn new(limits: Vec<Limit>) -> Guide {
        let sdk_module = policy::module("baton").map_or(&[][..], |m| m.members);
        let sdk = sdk_module
            .iter()
            .filter_map(|name| {
                let (signature, doc) = stub::function(SDK_STUB, name)?;
                Some(Call {
                    name: name.to_string(),
                    signature,
                    doc,
                })
            })
            .collect();
        let records = ["BashResult", "Outcome"]
            .iter()
            .filter_map(|name| {
                let (doc, fields) = stub::class(SDK_STUB, name)?;
                Some(Record {
                    name: name.to_string(),
                    doc,
                    fields,
                })
            })
            .collect();
        let library = policy::module("baton.ttc")
            .map_or(&[][..], |m| m.members)
            .iter()
            .filter_map(|name| {
                let (signature, doc) = stub::function(LIBRARY, name)?;
                Some(Call {
                    name: name.to_string(),
                    signature,
                    doc,
                })
            })
            .collect();
        let exception_names = policy::SUPPORTED_BUILTINS
            .iter()
            .chain(sdk_module)
            .chain(policy::module("json").map_or(&[][..], |m| m.members))
            .filter(|name| baton_runtime::catalog::is_exception_class(name));
        let exceptions = exception_names
            .map(|name| Exception {
                name: name.to_string(),
                base: baton_runtime::catalog::type_spec(name)
                    .and_then(|spec| spec.base)
                    .map(str::to_string),
                doc: stub::class(SDK_STUB, name)
                    .map(|(doc, _)| doc)
                    .unwrap_or_default(),
            })
            .collect();
        Guide {
            syntax: tables::SUPPORTED_SYNTAX.to_vec(),
            refused: tables::REFUSED_SYNTAX
                .iter()
                .map(|(code, what, instead)| Refused {
                    code: code.as_str(),
                    what,
                    instead,
                })
                .collect(),
            builtins: tables::BUILTIN_SIGNATURES.to_vec(),
            forbidden: policy::FORBIDDEN_BUILTINS
                .iter()
                .map(|(name, instead)| Forbidden { name, instead })
                .collect(),
            methods: baton_runtime::TYPES_WITH_METHODS
                .iter()
                .map(|name| (name.to_string(), baton_runtime::methods(name)))
                .collect(),
            exceptions,
            modules: policy::MODULES
                .iter()
                .filter(|m| !m.internal)
                .map(|m| Module {
                    name: m.name,
                    summary: m.summary,
                    members: m.members.to_vec(),
                })
                .collect(),
            sdk,
            records,
            library,
            limits,
            idioms: tables::IDIOMS
                .iter()
                .map(|(title, code)| Idiom { title, code })
                .collect(),
        }
    }

    /// The guide as JSON, for tools.
    pub fn json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The whole guide in Markdown (`docs/plan-language.md`).
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "# The plan language\n\n\
             <!-- Generated by `baton guide` from the tables the checker and the runtime use; \
             edit those (compiler/src/policy.rs, compiler/src/guide/tables.rs, \
             plans/baton/*.py), not this file. -->\n\n\
             A plan is a Python 3.11 program in a strict subset of the language. `baton check` \
             tells what a plan may not do, with a stable code per problem; this page lists what \
             it may. Commands, files and models are reached only through the SDK \
             (`from baton import ...`), under the capabilities the run grants.\n",
        );
        out.push_str("\n## Statements and expressions\n\n");
        for line in &self.syntax {
            out.push_str(&format!("- {line}\n"));
        }
        out.push_str("\nRefused, with the diagnostic `baton check` gives:\n\n| code | what | instead |\n|---|---|---|\n");
        for refused in &self.refused {
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                refused.code,
                refused.what,
                cell(refused.instead)
            ));
        }
        out.push_str("\n## Builtins\n\n");
        for signature in &self.builtins {
            out.push_str(&format!("- `{signature}`\n"));
        }
        out.push_str(
            "\nForbidden (B202), with what to use instead:\n\n| builtin | instead |\n|---|---|\n",
        );
        for forbidden in &self.forbidden {
            out.push_str(&format!(
                "| `{}` | {} |\n",
                forbidden.name,
                cell(forbidden.instead)
            ));
        }
        out.push_str(
            "\nEvery other builtin of CPython is unsupported (B203): `format`, `bytes`, \
             `bytearray`, `complex`, `issubclass`, ... Bytes are left out by design, literals \
             (`b'...'`, B309) with them, and `str.encode` is an AttributeError: everything a plan handles is text (a \
             command's output and a model's reply are str; files are read and written by \
             commands), so a plan has no bytes to hold.\n\n## Methods\n\n",
        );
        for (type_name, methods) in &self.methods {
            out.push_str(&format!("- `{type_name}`: {}\n", methods.join(", ")));
        }
        out.push_str("\n## Exceptions\n\n");
        for exception in &self.exceptions {
            out.push_str(&format!("- `{}`", exception.name));
            if let Some(base) = &exception.base {
                out.push_str(&format!(" ({base})"));
            }
            if !exception.doc.is_empty() {
                out.push_str(&format!(": {}", exception.doc));
            }
            out.push('\n');
        }
        out.push_str("\n## Modules\n\nOnly these can be imported (any other import is B101):\n\n");
        for module in &self.modules {
            out.push_str(&format!(
                "- `{}`: {} — {}\n",
                module.name,
                module.summary,
                module.members.join(", ")
            ));
        }
        out.push_str(MODULE_NOTES);
        out.push_str("\n## The SDK: `from baton import ...`\n\n");
        for call in &self.sdk {
            out.push_str(&format!(
                "### `{}`\n\n`{}`\n\n{}\n\n",
                call.name, call.signature, call.doc
            ));
        }
        out.push_str(
            "`inputs` is a dict of the run's inputs (`--input FILE.json`, `--set KEY=VALUE`).\n",
        );
        for record in &self.records {
            out.push_str(&format!("\n### `{}`\n\n{}\n\n", record.name, record.doc));
            for field in &record.fields {
                out.push_str(&format!(
                    "- `{}`\n",
                    field.split(" — ").next().unwrap_or(field)
                ));
                if let Some((_, comment)) = field.split_once(" — ") {
                    out.pop();
                    out.push_str(&format!(": {comment}\n"));
                }
            }
        }
        out.push_str("\n## The plan library: `from baton.ttc import ...`\n\n");
        for call in &self.library {
            out.push_str(&format!("- `{}`: {}\n", call.signature, call.doc));
        }
        if !self.limits.is_empty() {
            out.push_str("\n## Limits\n\n| limit | default | raise it with |\n|---|---|---|\n");
            for limit in &self.limits {
                out.push_str(&format!(
                    "| {} | {} | `{}` |\n",
                    limit.what, limit.default, limit.flag
                ));
            }
        }
        out.push_str("\n## Idioms\n");
        for idiom in &self.idioms {
            out.push_str(&format!(
                "\n{}:\n\n```python\n{}```\n",
                idiom.title, idiom.code
            ));
        }
        out
    }

    /// The guide condensed for a planner's prompt: every rule and name, no prose.
    pub fn compact(&self) -> String {
        let mut out = String::from(
            "# Baton plan language (Python 3.11 subset)\n\
             Write one Python program. Reach commands, files and models only through the SDK.\n",
        );
        out.push_str("Allowed: ");
        out.push_str(&self.syntax.join("; "));
        out.push_str(".\nRefused: ");
        let refused: Vec<String> = self
            .refused
            .iter()
            .map(|r| format!("{} (instead: {})", r.what, r.instead))
            .collect();
        out.push_str(&refused.join("; "));
        out.push_str(".\nBuiltins: ");
        let names: Vec<&str> = self
            .builtins
            .iter()
            .map(|s| s.split('(').next().unwrap_or(s))
            .collect();
        out.push_str(&names.join(", "));
        out.push_str(
            ". No others (no format, bytes, complex, type, getattr, open, eval).\nMethods: ",
        );
        let methods: Vec<String> = self
            .methods
            .iter()
            .map(|(t, m)| format!("{t}: {}", m.join(" ")))
            .collect();
        out.push_str(&methods.join("; "));
        out.push_str(".\nExceptions: ");
        let exceptions: Vec<&str> = self.exceptions.iter().map(|e| e.name.as_str()).collect();
        out.push_str(&exceptions.join(", "));
        out.push_str(".\nImports: ");
        let modules: Vec<String> = self
            .modules
            .iter()
            .map(|m| format!("{} ({})", m.name, m.members.join(", ")))
            .collect();
        out.push_str(&modules.join("; "));
        out.push_str(". Nothing else (no os, sys, subprocess, datetime, bytes).\n\nSDK:\n");
        for call in &self.sdk {
            out.push_str(&format!("- {}: {}\n", call.signature, call.doc));
        }
        out.push_str("- inputs: dict of the run's inputs\n");
        for record in &self.records {
            let fields: Vec<&str> = record
                .fields
                .iter()
                .map(|f| f.split(':').next().unwrap_or(f))
                .collect();
            out.push_str(&format!("- {}: {}\n", record.name, fields.join(", ")));
        }
        for call in &self.library {
            out.push_str(&format!("- baton.ttc.{}\n", call.signature));
        }
        out.push_str("\nIdioms:\n");
        for idiom in &self.idioms {
            out.push_str(&format!("# {}\n{}\n", idiom.title, idiom.code));
        }
        out
    }
}

/// Text for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// A rough count of the tokens `text` costs a model: one per 3.5 characters, which tokenizers
/// of the GPT and Claude families beat on English and code (they average about 4).
pub fn approximate_tokens(text: &str) -> usize {
    (text.chars().count() * 2).div_ceil(7)
}

#[cfg(test)]
mod tests;
