//! The offline, deterministic script provider: replies come from substring rules in a JSON file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Call, ProviderReply};
use crate::error::{clean_snippet, ConfigError, LlmError};
use crate::request::Usage;

/// Largest script file read; anything bigger is certainly a mistake.
const MAX_SCRIPT_BYTES: u64 = 64 << 20;
/// Characters of the request quoted when no rule matches.
const PREFIX_CHARS: usize = 120;

#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptFile {
    #[serde(default)]
    rules: Vec<Rule>,
    #[serde(default)]
    default: Option<String>,
}

#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Rule {
    when: String,
    reply: String,
    #[serde(default)]
    usage: Option<RuleUsage>,
    #[serde(default)]
    latency_ms: Option<u64>,
}

#[derive(Debug, Clone, Copy, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleUsage {
    input_tokens: u64,
    output_tokens: u64,
}

/// Replies by rule. Immutable after loading, so a request's reply never depends on what other
/// calls happened before or alongside it.
#[derive(Debug, Clone)]
pub(crate) struct ScriptProvider {
    rules: Vec<Rule>,
    default: Option<String>,
}

impl ScriptProvider {
    /// Reads and parses a script file.
    pub(crate) fn load(path: &Path) -> Result<Self, ConfigError> {
        let read_err = |source| ConfigError::ScriptRead {
            path: path.to_owned(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(read_err)?;
        if meta.len() > MAX_SCRIPT_BYTES {
            return Err(parse_error(
                path,
                ".",
                0,
                0,
                format!("the file is larger than {MAX_SCRIPT_BYTES} bytes"),
            ));
        }
        let bytes = std::fs::read(path).map_err(read_err)?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|e| parse_error(path, ".", 0, 0, format!("not UTF-8: {e}")))?;
        Self::parse(text, path)
    }

    /// Parses script text; `path` is only used in error messages.
    pub(crate) fn parse(text: &str, path: &Path) -> Result<Self, ConfigError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let file: ScriptFile = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let json_path = e.path().to_string();
            let inner = e.into_inner();
            json_error(path, &json_path, &inner)
        })?;
        de.end().map_err(|e| json_error(path, ".", &e))?;
        for (i, rule) in file.rules.iter().enumerate() {
            if rule.when.is_empty() {
                return Err(parse_error(
                    path,
                    &format!("rules[{i}].when"),
                    0,
                    0,
                    "is empty and would match every request; use \"default\" instead".into(),
                ));
            }
        }
        Ok(ScriptProvider {
            rules: file.rules,
            default: file.default,
        })
    }

    /// The first matching rule's reply, after its latency.
    pub(crate) async fn complete(&self, call: &Call<'_>) -> Result<ProviderReply, LlmError> {
        let text = call
            .messages
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let (reply, usage, latency) = match self.rules.iter().find(|r| text.contains(&r.when)) {
            Some(rule) => (rule.reply.clone(), rule.usage, rule.latency_ms),
            None => match &self.default {
                Some(d) => (d.clone(), None, None),
                None => {
                    return Err(LlmError::ScriptUnmatched {
                        request_prefix: clean_snippet(&text, PREFIX_CHARS, None),
                    })
                }
            },
        };
        if let Some(ms) = latency {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        // A real server never reports more output than `max_tokens`; neither does the script,
        // so reservations stay upper bounds.
        let usage = usage.map(|u| Usage {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens.min(u64::from(call.max_tokens)),
        });
        Ok(ProviderReply {
            text: reply,
            model: None,
            usage,
            attempts: 1,
            backoff: Duration::ZERO,
        })
    }
}

fn json_error(path: &Path, json_path: &str, e: &serde_json::Error) -> ConfigError {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let reason = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    parse_error(path, json_path, e.line(), e.column(), reason)
}

fn parse_error(
    path: &Path,
    json_path: &str,
    line: usize,
    column: usize,
    reason: String,
) -> ConfigError {
    ConfigError::ScriptParse {
        path: PathBuf::from(path),
        json_path: json_path.to_owned(),
        line,
        column,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ScriptProvider, ConfigError> {
        ScriptProvider::parse(text, Path::new("s.json"))
    }

    #[test]
    fn parse_errors_name_file_path_and_line() {
        let e = parse("{\"rules\": [\n {\"when\": \"a\", \"reply\": \"b\"},\n {\"when\": \"c\", \"reply\": \"d\", \"usage\": {\"input_tokens\": \"x\", \"output_tokens\": 1}}]}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("s.json"), "{e}");
        assert!(e.contains("rules[1].usage.input_tokens"), "{e}");
        assert!(e.contains("line 3"), "{e}");
        assert!(e.contains("invalid type: string"), "{e}");

        let e = parse(r#"{"rules": [], "defualt": "x"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `defualt`"), "{e}");
        let e = parse(r#"{"rules": [{"when": "", "reply": "x"}]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("rules[0].when"), "{e}");
        let e = parse("{\"rules\": []} trailing").unwrap_err().to_string();
        assert!(e.contains("trailing characters"), "{e}");
        let e = parse("{\"rules\": [").unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        let e = parse(r#"{"rules": [{"when": "a"}]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `reply`"), "{e}");
    }

    #[test]
    fn empty_object_is_a_script_that_matches_nothing() {
        let p = parse("{}").unwrap();
        assert!(p.rules.is_empty() && p.default.is_none());
    }
}
