//! Model calls for Baton plans: providers, retries and budgets.
//!
//! [`Client::complete`] is the one entry point: reserve the call's worst case against a
//! [`Budget`], call the provider, settle the reservation to the actual usage.
//!
//! # Providers
//!
//! * `openai`: any OpenAI-compatible `POST {base_url}/chat/completions` server (OpenAI, vLLM,
//!   llama.cpp server, Ollama, LiteLLM), HTTP/1.1 over rustls (ring, bundled Mozilla roots).
//!   The API key is read from the environment variable named by `llm.api_key_env`, sent as a
//!   sensitive `Authorization` header, and redacted from every error message (a server that
//!   echoes it back gets `[redacted]`). Redirects are not followed. A semaphore caps the
//!   requests in flight (`llm.concurrency`); a permit is held per attempt, not during backoff.
//! * `script`: offline and deterministic, for tests and replays. A JSON file of rules
//!   `{"when", "reply", "usage"?, "latency_ms"?}` and an optional `default`; the first rule
//!   whose `when` occurs in the request text (all message contents, system included, joined by
//!   newlines) answers. The provider holds no mutable state, so a request's reply does not
//!   depend on the order of concurrent calls.
//!
//! # Retry policy (openai)
//!
//! At most `llm.max_attempts` attempts. Retried: HTTP 408, 429 and 5xx, connect errors,
//! timeouts and connections dropped mid-response. Before the next attempt the client waits what
//! the server asked (`retry-after-ms`, else `Retry-After` in seconds or as an HTTP date, cut to
//! `llm.retry_after_max_secs`), or else a "full jitter" backoff: uniform in
//! `[0, min(backoff_max, backoff_base * 2^(n-1))]` after the n-th failure. Other 4xx fail at
//! once with the server's message ([`LlmError::Rejected`]). A success status with an unusable
//! body (not JSON, no choices, no text, over `llm.max_response_bytes`) fails at once
//! ([`LlmError::BadResponse`]): the server did the work, and a retry would pay for it again.
//! Each attempt has a connect timeout and a whole-attempt timeout (`timeout_secs`).
//!
//! # Token estimates
//!
//! * Reservation (an upper bound): every UTF-8 byte of every message's role and content counts
//!   as one token, plus 8 tokens per message and 8 per request for the chat template. Byte-level
//!   BPE and SentencePiece-with-byte-fallback tokenizers never emit more tokens than bytes.
//!   Output is bounded by `max_tokens` (the plan's, or `llm.max_tokens`, which is then sent to
//!   the server so it enforces it).
//! * Usage when a provider reports none (script rules without `usage`, servers that omit it):
//!   UTF-8 bytes / 4, rounded up, at least 1 — for the input over all message contents, for the
//!   output over the reply, capped at `max_tokens`. [`Reply::usage_estimated`] says so.
//!
//! # Budgets
//!
//! A [`Budget`] caps calls, tokens (input + output) and cost (USD, from `llm.prices`, by the
//! model name the request gives, never the name the server answers with; a model
//! without a price costs 0 and is counted in [`Spent::unpriced_calls`] and flagged by
//! [`Reply::priced`]). Before a call, its worst case (see above, priced at the model's price) is
//! reserved at the budget and every ancestor under their locks, all or nothing; if any cap
//! would be exceeded the call is refused before any request. After the call the reservation is
//! replaced by the actual usage. Many concurrent calls therefore never overshoot a cap, unless a
//! server reports more usage than the worst case bound (then the truth is recorded and later
//! calls are refused). A call that fails after being reserved (or whose future is dropped)
//! counts as a call with no tokens or cost; a success status with an unusable body is charged
//! its whole reservation. [`Budget::child`] makes a sub-budget whose spending also counts
//! against its parent.

mod budget;
mod client;
mod config;
mod error;
mod estimate;
mod price;
mod provider;
mod request;

pub use budget::{Budget, BudgetCaps, BudgetConfig, Headroom, Spent};
pub use client::{Client, SCRIPT_MODEL};
pub use config::{
    LlmConfig, MaxTokensField, ProviderKind, ProviderSpec, BASE_URL_ENV, DEFAULT_BASE_URL,
    MODEL_ENV,
};
pub use error::{BudgetKind, ConfigError, LlmError};
pub use estimate::{
    estimate_input_tokens, estimate_tokens, input_upper_bound, MESSAGE_OVERHEAD_TOKENS,
    REQUEST_OVERHEAD_TOKENS,
};
pub use price::{cost_of, Price, PriceTable};
pub use request::{Message, Prompt, Reply, Request, Usage, ROLES};
