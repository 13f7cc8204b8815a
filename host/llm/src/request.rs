//! What a plan asks of a model, and what comes back.

use std::time::Duration;

use crate::error::LlmError;

/// Roles a plan may give a message. `tool` is left out: it needs tool-call ids plans cannot make.
pub const ROLES: [&str; 4] = ["system", "developer", "user", "assistant"];

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Message {
    /// `system`, `developer`, `user` or `assistant`.
    pub role: String,
    /// The message text.
    pub content: String,
}

impl Message {
    /// A message with the given role and text.
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        Message {
            role: role.into(),
            content: content.into(),
        }
    }
}

/// The `prompt` argument of `llm(...)`: a string (one user message) or a list of messages.
#[derive(Debug, Clone, PartialEq)]
pub enum Prompt {
    /// One user message.
    Text(String),
    /// A whole conversation.
    Messages(Vec<Message>),
}

impl From<&str> for Prompt {
    fn from(text: &str) -> Self {
        Prompt::Text(text.to_owned())
    }
}

impl From<String> for Prompt {
    fn from(text: String) -> Self {
        Prompt::Text(text)
    }
}

impl From<Vec<Message>> for Prompt {
    fn from(messages: Vec<Message>) -> Self {
        Prompt::Messages(messages)
    }
}

/// One chat-completion request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Request {
    /// The conversation; a system text is its first message.
    pub messages: Vec<Message>,
    /// The model; `None` uses the client's default.
    pub model: Option<String>,
    /// Sampling temperature, 0 to 2.
    pub temperature: Option<f64>,
    /// Output cap; `None` uses the configured default, which is then sent too.
    pub max_tokens: Option<u32>,
    /// Stop sequences.
    pub stop: Vec<String>,
}

impl Request {
    /// Builds a request from `llm(prompt, system=...)`: the system text, when given, becomes the
    /// first message with role `system`, before the prompt's messages.
    pub fn new(prompt: impl Into<Prompt>, system: Option<String>) -> Self {
        let mut messages = Vec::new();
        if let Some(system) = system {
            messages.push(Message::new("system", system));
        }
        match prompt.into() {
            Prompt::Text(text) => messages.push(Message::new("user", text)),
            Prompt::Messages(list) => messages.extend(list),
        }
        Request {
            messages,
            ..Request::default()
        }
    }

    /// Sets the model.
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }

    /// Sets the output cap.
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// Sets the temperature.
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Sets the stop sequences.
    pub fn with_stop(mut self, stop: Vec<String>) -> Self {
        self.stop = stop;
        self
    }

    /// All message texts joined by newlines: what the script provider matches against.
    pub fn joined_text(&self) -> String {
        let parts: Vec<&str> = self.messages.iter().map(|m| m.content.as_str()).collect();
        parts.join("\n")
    }

    /// Checks what can be checked without a server, so a bad request never costs a call.
    pub fn validate(&self) -> Result<(), LlmError> {
        let bad = |s: String| Err(LlmError::InvalidRequest(s));
        if self.messages.is_empty() {
            return bad("the prompt has no messages".into());
        }
        for (i, m) in self.messages.iter().enumerate() {
            if !ROLES.contains(&m.role.as_str()) {
                return bad(format!(
                    "message {i} has role {:?}; expected one of {}",
                    crate::error::clean_snippet(&m.role, 40, None),
                    ROLES.join(", ")
                ));
            }
        }
        if let Some(model) = &self.model {
            if model.trim().is_empty() {
                return bad("the model name is empty".into());
            }
        }
        if let Some(t) = self.temperature {
            if !(0.0..=2.0).contains(&t) {
                return bad(format!("temperature {t} is outside 0 to 2"));
            }
        }
        if self.max_tokens == Some(0) {
            return bad("max_tokens must be at least 1".into());
        }
        if self.stop.iter().any(String::is_empty) {
            return bad("a stop sequence is empty".into());
        }
        Ok(())
    }
}

/// Tokens a call consumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
}

impl Usage {
    /// Input plus output, saturating.
    pub fn total(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// A model's answer, with what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The reply text.
    pub text: String,
    /// The model that answered (as the server names it).
    pub model: String,
    /// Tokens charged to the budget.
    pub usage: Usage,
    /// True when the provider reported no usage and `usage` is the crate's estimate.
    pub usage_estimated: bool,
    /// Cost charged to the budget, in USD.
    pub cost_usd: f64,
    /// False when the model has no price in the table: `cost_usd` is then 0.
    pub priced: bool,
    /// Attempts made (1 when the first attempt succeeded).
    pub attempts: u32,
    /// Time spent waiting between attempts (the computed backoff, including `Retry-After`).
    pub backoff: Duration,
    /// Wall time of the whole call, retries included.
    pub latency: Duration,
}
