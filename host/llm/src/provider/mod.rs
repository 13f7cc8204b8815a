//! Model providers behind one enum (no boxed futures on the hot path).

pub(crate) mod openai;
pub(crate) mod retry;
pub(crate) mod script;

use std::time::Duration;

use crate::error::LlmError;
use crate::request::{Message, Usage};

/// A request with the client's defaults filled in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Call<'a> {
    pub messages: &'a [Message],
    pub model: &'a str,
    pub temperature: Option<f64>,
    pub max_tokens: u32,
    pub stop: &'a [String],
}

/// What a provider returns; the client adds cost and timing.
#[derive(Debug, Clone)]
pub(crate) struct ProviderReply {
    pub text: String,
    /// The model the server says answered, when it says.
    pub model: Option<String>,
    /// Usage as reported; `None` when the provider reported none.
    pub usage: Option<Usage>,
    pub attempts: u32,
    pub backoff: Duration,
}

/// The configured provider.
#[derive(Debug)]
pub(crate) enum Provider {
    OpenAi(openai::OpenAiProvider),
    Script(script::ScriptProvider),
}

impl Provider {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Provider::OpenAi(_) => "openai",
            Provider::Script(_) => "script",
        }
    }

    pub(crate) async fn complete(&self, call: &Call<'_>) -> Result<ProviderReply, LlmError> {
        match self {
            Provider::OpenAi(p) => p.complete(call).await,
            Provider::Script(p) => p.complete(call).await,
        }
    }
}
