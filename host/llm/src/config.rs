//! The `[llm]` table of `baton.toml` and the `--llm` provider spec.

use std::path::PathBuf;
use std::str::FromStr;

use crate::error::ConfigError;
use crate::price::PriceTable;

/// Base URL used when neither the configuration nor `OPENAI_BASE_URL` gives one.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// Environment variable consulted for the base URL when the configuration has none.
pub const BASE_URL_ENV: &str = "OPENAI_BASE_URL";
/// Environment variable consulted for the default model when neither `--llm openai:MODEL` nor
/// the configuration names one.
pub const MODEL_ENV: &str = "BATON_LLM_MODEL";

/// Which provider serves model calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// An OpenAI-compatible chat-completions server.
    #[default]
    Openai,
    /// The offline script provider (needs `script`).
    Script,
}

/// The JSON field that carries the output cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaxTokensField {
    /// `max_tokens`: vLLM, llama.cpp, Ollama, LiteLLM and older OpenAI models.
    #[default]
    MaxTokens,
    /// `max_completion_tokens`: what OpenAI's reasoning models require.
    MaxCompletionTokens,
}

impl MaxTokensField {
    /// The JSON key.
    pub fn key(self) -> &'static str {
        match self {
            MaxTokensField::MaxTokens => "max_tokens",
            MaxTokensField::MaxCompletionTokens => "max_completion_tokens",
        }
    }
}

/// The `[llm]` table. Durations are seconds and may be fractional.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LlmConfig {
    /// `openai` or `script`.
    pub provider: ProviderKind,
    /// The script file, for `provider = "script"`.
    pub script: Option<PathBuf>,
    /// Base URL of the chat-completions API (`{base_url}/chat/completions` is called); falls back
    /// to `OPENAI_BASE_URL`, then to the OpenAI API.
    pub base_url: Option<String>,
    /// Name of the environment variable holding the API key. The key itself is never stored in
    /// the configuration; an unset or empty variable sends no `Authorization` header (local
    /// servers need none).
    pub api_key_env: String,
    /// Default model; falls back to `BATON_LLM_MODEL`.
    pub model: Option<String>,
    /// Output cap per call when a plan gives none (sent to the server, and reserved).
    pub max_tokens: u32,
    /// Which JSON field carries the output cap.
    pub max_tokens_field: MaxTokensField,
    /// Most requests in flight to the provider at once.
    pub concurrency: usize,
    /// TCP (and TLS) connect timeout per attempt.
    pub connect_timeout_secs: f64,
    /// Whole-attempt timeout: sending the request and reading the entire response.
    pub timeout_secs: f64,
    /// Most attempts per call, first one included.
    pub max_attempts: u32,
    /// Backoff before the second attempt is drawn from 0 to this; doubles each attempt.
    pub backoff_base_secs: f64,
    /// Ceiling of the backoff's doubling range.
    pub backoff_max_secs: f64,
    /// Longest `Retry-After` honoured; longer values are cut to this.
    pub retry_after_max_secs: f64,
    /// Largest response body accepted.
    pub max_response_bytes: u64,
    /// Prices by model name.
    pub prices: PriceTable,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            provider: ProviderKind::Openai,
            script: None,
            base_url: None,
            api_key_env: "OPENAI_API_KEY".into(),
            model: None,
            max_tokens: 1024,
            max_tokens_field: MaxTokensField::MaxTokens,
            concurrency: 8,
            connect_timeout_secs: 10.0,
            timeout_secs: 120.0,
            max_attempts: 5,
            backoff_base_secs: 0.5,
            backoff_max_secs: 30.0,
            retry_after_max_secs: 60.0,
            max_response_bytes: 8 << 20,
            prices: PriceTable::new(),
        }
    }
}

fn invalid(field: &str, reason: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        field: format!("llm.{field}"),
        reason: reason.into(),
    }
}

/// Longest duration accepted anywhere in the configuration: a day. Keeps `Duration` conversions
/// far from overflow.
const MAX_SECS: f64 = 86_400.0;

fn check_secs(field: &str, v: f64, allow_zero: bool) -> Result<(), ConfigError> {
    let ok = v.is_finite() && v <= MAX_SECS && (v > 0.0 || (allow_zero && v == 0.0));
    if ok {
        Ok(())
    } else {
        let range = if allow_zero { ">= 0" } else { "> 0" };
        Err(invalid(
            field,
            format!("{v} is not a number of seconds {range} and <= {MAX_SECS}"),
        ))
    }
}

impl LlmConfig {
    /// Checks every value's range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.api_key_env.is_empty()
            || !self
                .api_key_env
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(invalid(
                "api_key_env",
                format!(
                    "{:?} is not an environment variable name (letters, digits, _)",
                    self.api_key_env
                ),
            ));
        }
        if let Some(m) = &self.model {
            if m.trim().is_empty() {
                return Err(invalid("model", "is empty"));
            }
        }
        if self.max_tokens == 0 {
            return Err(invalid("max_tokens", "must be at least 1"));
        }
        if self.concurrency == 0 {
            return Err(invalid("concurrency", "must be at least 1"));
        }
        if self.max_attempts == 0 {
            return Err(invalid("max_attempts", "must be at least 1"));
        }
        check_secs("connect_timeout_secs", self.connect_timeout_secs, false)?;
        check_secs("timeout_secs", self.timeout_secs, false)?;
        check_secs("backoff_base_secs", self.backoff_base_secs, true)?;
        check_secs("backoff_max_secs", self.backoff_max_secs, true)?;
        check_secs("retry_after_max_secs", self.retry_after_max_secs, true)?;
        if self.max_response_bytes == 0 {
            return Err(invalid("max_response_bytes", "must be at least 1"));
        }
        for (model, price) in &self.prices {
            if !price.is_valid() {
                return Err(invalid(
                    &format!("prices.{model:?}"),
                    "prices must be finite numbers >= 0",
                ));
            }
        }
        Ok(())
    }
}

/// A provider chosen on the command line: `--llm openai`, `--llm openai:MODEL`,
/// `--llm script:FILE.json`. It overrides the configuration's provider (and model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderSpec {
    /// The OpenAI-compatible provider, optionally with a default model.
    Openai {
        /// Default model overriding the configuration's.
        model: Option<String>,
    },
    /// The script provider reading this file.
    Script {
        /// The script file.
        path: PathBuf,
    },
}

impl ProviderSpec {
    /// Parses `openai`, `openai:MODEL` or `script:FILE`.
    pub fn parse(spec: &str) -> Result<Self, ConfigError> {
        let err = |reason: &str| ConfigError::Spec {
            spec: spec.to_owned(),
            reason: reason.to_owned(),
        };
        let (name, arg) = match spec.split_once(':') {
            Some((name, arg)) => (name, Some(arg)),
            None => (spec, None),
        };
        match (name, arg) {
            ("openai", None) => Ok(ProviderSpec::Openai { model: None }),
            ("openai", Some(model)) if model.trim().is_empty() => {
                Err(err("the model after `openai:` is empty"))
            }
            ("openai", Some(model)) => Ok(ProviderSpec::Openai {
                model: Some(model.to_owned()),
            }),
            ("script", Some(path)) if !path.is_empty() => Ok(ProviderSpec::Script {
                path: PathBuf::from(path),
            }),
            ("script", _) => Err(err("expected `script:FILE.json`")),
            _ => Err(err(
                "expected `openai`, `openai:MODEL` or `script:FILE.json`",
            )),
        }
    }
}

impl FromStr for ProviderSpec {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProviderSpec::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_parses_the_three_forms() {
        assert_eq!(
            ProviderSpec::parse("openai").unwrap(),
            ProviderSpec::Openai { model: None }
        );
        assert_eq!(
            ProviderSpec::parse("openai:qwen:7b").unwrap(),
            ProviderSpec::Openai {
                model: Some("qwen:7b".into())
            }
        );
        assert_eq!(
            "script:a/b.json".parse::<ProviderSpec>().unwrap(),
            ProviderSpec::Script {
                path: "a/b.json".into()
            }
        );
        for bad in ["", "script", "script:", "openai:", "anthropic", "Script:x"] {
            let e = ProviderSpec::parse(bad).unwrap_err();
            assert!(e.to_string().contains("--llm"), "{bad}: {e}");
        }
    }

    #[test]
    fn defaults_are_valid() {
        LlmConfig::default().validate().unwrap();
    }

    /// A change to the defaults, and the key its validation error must name.
    type Case = (fn(&mut LlmConfig), &'static str);

    #[test]
    fn validation_names_the_field() {
        let cases: Vec<Case> = vec![
            (|c| c.concurrency = 0, "llm.concurrency"),
            (|c| c.max_attempts = 0, "llm.max_attempts"),
            (|c| c.timeout_secs = f64::NAN, "llm.timeout_secs"),
            (|c| c.connect_timeout_secs = 0.0, "llm.connect_timeout_secs"),
            (|c| c.backoff_max_secs = -1.0, "llm.backoff_max_secs"),
            (
                |c| c.retry_after_max_secs = 1e300,
                "llm.retry_after_max_secs",
            ),
            (|c| c.api_key_env = "A=B".into(), "llm.api_key_env"),
            (|c| c.max_tokens = 0, "llm.max_tokens"),
            (|c| c.model = Some(" ".into()), "llm.model"),
            (
                |c| {
                    c.prices.insert(
                        "m".into(),
                        crate::price::Price {
                            input_per_million: -1.0,
                            output_per_million: 0.0,
                        },
                    );
                },
                "llm.prices",
            ),
        ];
        for (mutate, field) in cases {
            let mut c = LlmConfig::default();
            mutate(&mut c);
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains(field), "{e}");
        }
    }

    #[test]
    fn config_deserializes_and_denies_unknown_fields() {
        let json = r#"{"provider": "script", "script": "s.json", "model": "m", "timeout_secs": 3,
            "prices": {"m": {"input_per_million": 1, "output_per_million": 2.5}}}"#;
        let c: LlmConfig = serde_json::from_str(json).unwrap();
        assert_eq!(c.provider, ProviderKind::Script);
        assert_eq!(c.timeout_secs, 3.0);
        assert_eq!(c.concurrency, 8);
        assert_eq!(c.prices["m"].output_per_million, 2.5);
        let e = serde_json::from_str::<LlmConfig>(r#"{"api_key": "sk-x"}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `api_key`"), "{e}");
        let e = serde_json::from_str::<crate::BudgetConfig>(r#"{"max_cents": 3}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field"), "{e}");
    }
}
