//! The one entry point: reserve against the budget, call the provider, settle.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::budget::{Amount, Budget};
use crate::config::{
    LlmConfig, ProviderKind, ProviderSpec, BASE_URL_ENV, DEFAULT_BASE_URL, MODEL_ENV,
};
use crate::error::{ConfigError, LlmError};
use crate::estimate::{estimate_input_tokens, estimate_tokens, input_upper_bound};
use crate::price::PriceTable;
use crate::provider::openai::{OpenAiProvider, Settings};
use crate::provider::retry::RetryPolicy;
use crate::provider::script::ScriptProvider;
use crate::provider::{Call, Provider};
use crate::request::{Reply, Request, Usage};

/// Model name reported by the script provider when no model is configured or requested.
pub const SCRIPT_MODEL: &str = "script";

/// A shared model client. Cheap to clone; all clones share one provider, so the provider's
/// concurrency limit holds across every plan and branch that uses it.
#[derive(Debug, Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    provider: Provider,
    default_model: Option<String>,
    default_max_tokens: u32,
    prices: PriceTable,
}

fn secs(v: f64) -> Duration {
    // validate() has bounded every duration to [0, one day].
    Duration::try_from_secs_f64(v).unwrap_or(Duration::ZERO)
}

fn non_empty(v: Option<String>) -> Option<String> {
    v.filter(|s| !s.trim().is_empty())
}

impl Client {
    /// Builds a client from the `[llm]` table, with `--llm` overriding its provider (and model),
    /// reading `OPENAI_BASE_URL`, the API key variable and `BATON_LLM_MODEL` from the process
    /// environment.
    pub fn from_config(cfg: &LlmConfig, spec: Option<ProviderSpec>) -> Result<Client, ConfigError> {
        Self::from_config_with_env(cfg, spec, &|name| std::env::var(name).ok())
    }

    /// [`Client::from_config`] with the environment given as a lookup function.
    ///
    /// Precedence, most specific first: `--llm openai:MODEL`, then the configuration, then the
    /// environment variable, then the built-in default.
    pub fn from_config_with_env(
        cfg: &LlmConfig,
        spec: Option<ProviderSpec>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Client, ConfigError> {
        cfg.validate()?;
        let (kind, spec_model, script) = match spec {
            Some(ProviderSpec::Openai { model }) => (ProviderKind::Openai, model, None),
            Some(ProviderSpec::Script { path }) => (ProviderKind::Script, None, Some(path)),
            None => (cfg.provider, None, cfg.script.clone()),
        };
        let model = spec_model
            .or_else(|| cfg.model.clone())
            .or_else(|| non_empty(env(MODEL_ENV)));
        let (provider, default_model) = match kind {
            ProviderKind::Script => {
                let path = script.ok_or_else(|| ConfigError::Invalid {
                    field: "llm.script".into(),
                    reason: "provider \"script\" needs a script file (llm.script or \
                             --llm script:FILE.json)"
                        .into(),
                })?;
                let p = ScriptProvider::load(&path)?;
                (
                    Provider::Script(p),
                    Some(model.unwrap_or_else(|| SCRIPT_MODEL.into())),
                )
            }
            ProviderKind::Openai => {
                let base_url = cfg
                    .base_url
                    .clone()
                    .or_else(|| non_empty(env(BASE_URL_ENV)))
                    .unwrap_or_else(|| DEFAULT_BASE_URL.into());
                let settings = Settings {
                    base_url,
                    api_key: env(&cfg.api_key_env),
                    connect_timeout: secs(cfg.connect_timeout_secs),
                    timeout: secs(cfg.timeout_secs),
                    concurrency: cfg.concurrency,
                    policy: RetryPolicy {
                        max_attempts: cfg.max_attempts,
                        base: secs(cfg.backoff_base_secs),
                        max: secs(cfg.backoff_max_secs),
                        retry_after_max: secs(cfg.retry_after_max_secs),
                    },
                    max_response_bytes: cfg.max_response_bytes,
                    max_tokens_field: cfg.max_tokens_field,
                };
                (Provider::OpenAi(OpenAiProvider::new(settings)?), model)
            }
        };
        Ok(Client {
            inner: Arc::new(Inner {
                provider,
                default_model,
                default_max_tokens: cfg.max_tokens,
                prices: cfg.prices.clone(),
            }),
        })
    }

    /// `openai` or `script`.
    pub fn provider_name(&self) -> &'static str {
        self.inner.provider.name()
    }

    /// The model used when a request names none.
    pub fn default_model(&self) -> Option<&str> {
        self.inner.default_model.as_deref()
    }

    /// One chat completion charged to `budget`.
    ///
    /// The call's worst case is reserved first (refused with [`LlmError::BudgetExceeded`] before
    /// anything is sent), the provider is called, and the reservation is settled to the usage
    /// the provider reports. A call that fails counts as a call with no tokens; a success
    /// response whose body is unusable is charged the whole reservation, since the server did
    /// the work.
    pub async fn complete(&self, budget: &Budget, req: Request) -> Result<Reply, LlmError> {
        req.validate()?;
        let inner = &*self.inner;
        let model = match req.model.as_deref().or(inner.default_model.as_deref()) {
            Some(m) => m,
            None => {
                return Err(LlmError::InvalidRequest(format!(
                    "no model given: pass model=..., or set llm.model, --llm openai:MODEL or \
                     {MODEL_ENV}"
                )))
            }
        };
        let max_tokens = req.max_tokens.unwrap_or(inner.default_max_tokens);
        let worst = Usage {
            input_tokens: input_upper_bound(&req.messages),
            output_tokens: u64::from(max_tokens),
        };
        let price = inner.prices.get(model).copied();
        let reservation = budget.reserve(Amount {
            tokens: worst.total(),
            cost_usd: price.map_or(0.0, |p| p.cost(worst)),
        })?;

        let call = Call {
            messages: &req.messages,
            model,
            temperature: req.temperature,
            max_tokens,
            stop: &req.stop,
        };
        let started = Instant::now();
        let result = inner.provider.complete(&call).await;
        let latency = started.elapsed();
        let reply = match result {
            Ok(r) => r,
            Err(e @ LlmError::BadResponse { .. }) => {
                let reserved = reservation.amount();
                reservation.settle(worst, reserved.cost_usd, price.is_some());
                return Err(e);
            }
            // Dropping the reservation counts the call without tokens.
            Err(e) => return Err(e),
        };

        let (usage, usage_estimated) = match reply.usage {
            Some(u) => (u, false),
            None => (
                Usage {
                    input_tokens: estimate_input_tokens(&req.messages),
                    output_tokens: estimate_tokens(&reply.text).min(u64::from(max_tokens)),
                },
                true,
            ),
        };
        let answered_by = reply.model.unwrap_or_else(|| model.to_owned());
        // Priced by the requested name only, the price the reservation used: falling back to
        // the name the server reports (`gpt-4o` answered as `gpt-4o-2024-...`) would charge
        // calls that reserved nothing, and concurrent calls could then overshoot a cost cap.
        // Price the name you request.
        let cost_usd = price.map_or(0.0, |p| p.cost(usage));
        reservation.settle(usage, cost_usd, price.is_some());
        Ok(Reply {
            text: reply.text,
            model: answered_by,
            usage,
            usage_estimated,
            cost_usd,
            priced: price.is_some(),
            attempts: reply.attempts,
            backoff: reply.backoff,
            latency,
        })
    }
}
