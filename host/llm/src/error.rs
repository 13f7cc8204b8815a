//! Error values for configuration and for model calls.

use std::fmt;
use std::path::PathBuf;

/// Which budget cap refused a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BudgetKind {
    /// The number of model calls.
    Calls,
    /// Input plus output tokens.
    Tokens,
    /// Cost in US dollars.
    Cost,
}

impl BudgetKind {
    /// The budget's name as the configuration and error messages spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            BudgetKind::Calls => "calls",
            BudgetKind::Tokens => "tokens",
            BudgetKind::Cost => "cost",
        }
    }
}

impl fmt::Display for BudgetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A problem with the `[llm]` / `[budget]` configuration, a provider spec or a script file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A configuration value is out of range or malformed.
    #[error("invalid llm configuration: {field}: {reason}")]
    Invalid {
        /// The offending key, e.g. `llm.concurrency`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A `--llm` provider spec could not be parsed.
    #[error("invalid --llm provider {spec:?}: {reason}")]
    Spec {
        /// The spec as given (it never holds a secret: keys come from the environment).
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A script file could not be read.
    #[error("cannot read llm script {path}: {source}")]
    ScriptRead {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A script file is not valid JSON or does not have the script shape.
    #[error("invalid llm script {path}: at {json_path} (line {line}, column {column}): {reason}")]
    ScriptParse {
        /// The file.
        path: PathBuf,
        /// Where in the document, e.g. `rules[2].usage.input_tokens` (`.` for the top level).
        json_path: String,
        /// 1-based line of the error (0 when unknown).
        line: usize,
        /// 1-based column of the error (0 when unknown).
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client for the openai provider: {0}")]
    Http(String),
}

/// Why a model call failed. Every variant's Display names the problem; none carries the API key.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The call's worst-case reservation would exceed a budget cap; nothing was sent.
    #[error(
        "model budget exceeded: {budget} limit {limit}, already used or reserved {used}, \
         this call needs up to {requested}"
    )]
    BudgetExceeded {
        /// Which cap refused the call.
        budget: BudgetKind,
        /// The cap.
        limit: f64,
        /// Spent plus reserved by calls in flight, at the budget that refused.
        used: f64,
        /// This call's worst-case need.
        requested: f64,
    },
    /// The request is invalid before anything is sent (no model, empty prompt, bad role...).
    #[error("invalid model request: {0}")]
    InvalidRequest(String),
    /// The server refused the request with a non-retryable status (4xx other than 408/429).
    #[error("model provider {provider} rejected the request with HTTP {status}: {message}")]
    Rejected {
        /// Provider name.
        provider: &'static str,
        /// HTTP status.
        status: u16,
        /// The server's error message (sanitised, truncated, key redacted).
        message: String,
    },
    /// Retryable failures (429, 5xx, connect errors, timeouts) persisted for every attempt.
    #[error("model provider {provider} failed after {attempts} attempt(s){}: {message}",
        last_status.map(|s| format!(" (last HTTP status {s})")).unwrap_or_default())]
    Provider {
        /// Provider name.
        provider: &'static str,
        /// Attempts made.
        attempts: u32,
        /// The status of the last attempt, if it got a response.
        last_status: Option<u16>,
        /// What went wrong on the last attempt.
        message: String,
    },
    /// The server answered with success but the body is unusable (not JSON, no choices, no text,
    /// too large). Not retried: the server did the work and a retry would pay for it again.
    #[error("model provider {provider} sent an unusable response: {detail}")]
    BadResponse {
        /// Provider name.
        provider: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// The script provider has no rule for the request and no default.
    #[error("llm script has no rule matching the request and no default; request begins {request_prefix:?}")]
    ScriptUnmatched {
        /// The first characters of the request text.
        request_prefix: String,
    },
    /// The client is misconfigured.
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// Makes untrusted text (a server's error body, a request prefix) safe to put in an error message:
/// control characters become spaces (no terminal escapes), length is capped at `max_chars`, and
/// every occurrence of `secret` is replaced.
pub(crate) fn clean_snippet(text: &str, max_chars: usize, secret: Option<&str>) -> String {
    let redacted;
    let text = match secret {
        Some(s) if !s.is_empty() && text.contains(s) => {
            redacted = text.replace(s, "[redacted]");
            redacted.as_str()
        }
        _ => text,
    };
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max_chars {
            out.push_str("...");
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_strips_controls_truncates_and_redacts() {
        let s = clean_snippet("key sk-123 \x1b[31mred\n", 100, Some("sk-123"));
        assert_eq!(s, "key [redacted]  [31mred ");
        assert_eq!(clean_snippet("ééééé", 3, None), "ééé...");
        assert_eq!(clean_snippet("abc", 3, Some("")), "abc");
    }

    #[test]
    fn budget_error_names_the_budget() {
        let e = LlmError::BudgetExceeded {
            budget: BudgetKind::Tokens,
            limit: 1000.0,
            used: 900.0,
            requested: 200.0,
        };
        let text = e.to_string();
        assert!(text.contains("tokens limit 1000"), "{text}");
        assert!(text.contains("200"), "{text}");
    }

    #[test]
    fn provider_error_shows_status_when_known() {
        let e = LlmError::Provider {
            provider: "openai",
            attempts: 3,
            last_status: Some(503),
            message: "busy".into(),
        };
        assert_eq!(
            e.to_string(),
            "model provider openai failed after 3 attempt(s) (last HTTP status 503): busy"
        );
    }
}
