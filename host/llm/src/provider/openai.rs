//! OpenAI-compatible chat completions over HTTP (OpenAI, vLLM, llama.cpp server, Ollama,
//! LiteLLM).

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use tokio::sync::Semaphore;

use super::retry::{is_retryable_status, parse_retry_after, parse_retry_after_ms, RetryPolicy};
use super::{Call, ProviderReply};
use crate::config::MaxTokensField;
use crate::error::{clean_snippet, ConfigError, LlmError};
use crate::request::Usage;

const NAME: &str = "openai";
/// Error bodies are only mined for a message; no need to read more.
const ERROR_BODY_LIMIT: u64 = 64 << 10;
/// Longest server message quoted in an error.
const MESSAGE_CHARS: usize = 500;

/// An API key that never shows in Debug output.
#[derive(Clone)]
pub(crate) struct Secret(String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Everything the provider needs, resolved from configuration and environment.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub base_url: String,
    pub api_key: Option<String>,
    pub connect_timeout: Duration,
    pub timeout: Duration,
    pub concurrency: usize,
    pub policy: RetryPolicy,
    pub max_response_bytes: u64,
    pub max_tokens_field: MaxTokensField,
}

/// The OpenAI-compatible provider. Shared by all calls of a run.
#[derive(Debug)]
pub(crate) struct OpenAiProvider {
    http: reqwest::Client,
    url: reqwest::Url,
    /// `host:port` only: what error messages name (never the path or any userinfo).
    endpoint: String,
    api_key: Option<Secret>,
    timeout: Duration,
    policy: RetryPolicy,
    limit: Arc<Semaphore>,
    max_response_bytes: u64,
    max_tokens_field: MaxTokensField,
}

/// rustls with the ring provider and the bundled Mozilla roots, HTTP/1.1 only.
fn tls_config() -> Result<rustls::ClientConfig, ConfigError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ConfigError::Http(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

fn parse_url(base_url: &str) -> Result<(reqwest::Url, String), ConfigError> {
    let invalid = |reason: String| ConfigError::Invalid {
        field: "llm.base_url".into(),
        reason,
    };
    let base = reqwest::Url::parse(base_url.trim_end_matches('/'))
        .map_err(|e| invalid(format!("not a URL: {e}")))?;
    if !matches!(base.scheme(), "http" | "https") {
        return Err(invalid(format!(
            "scheme {:?} is not http or https",
            base.scheme()
        )));
    }
    if base.query().is_some() || base.fragment().is_some() {
        return Err(invalid("must not have a query or fragment".into()));
    }
    let host = base
        .host_str()
        .ok_or_else(|| invalid("has no host".into()))?;
    let endpoint = match base.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    let path = format!("{}/chat/completions", base.path().trim_end_matches('/'));
    let mut url = base;
    url.set_path(&path);
    Ok((url, endpoint))
}

/// What one attempt came to.
enum Attempt {
    Done(ProviderReply),
    Retry {
        status: Option<u16>,
        message: String,
        retry_after: Option<Duration>,
    },
    Fail(LlmError),
}

impl OpenAiProvider {
    /// Builds the HTTP client. Nothing is sent yet.
    pub(crate) fn new(s: Settings) -> Result<Self, ConfigError> {
        let (url, endpoint) = parse_url(&s.base_url)?;
        let api_key = match s.api_key {
            Some(k) if !k.trim().is_empty() => {
                let k = k.trim().to_owned();
                // Checked here so that a key with, say, a newline is a configuration error that
                // does not quote it, rather than a failure on every call.
                if HeaderValue::from_str(&format!("Bearer {k}")).is_err() {
                    return Err(ConfigError::Invalid {
                        field: "llm.api_key_env".into(),
                        reason: "the API key holds characters not allowed in an HTTP header".into(),
                    });
                }
                Some(Secret(k))
            }
            _ => None,
        };
        let http = reqwest::Client::builder()
            .tls_backend_preconfigured(tls_config()?)
            .connect_timeout(s.connect_timeout)
            .timeout(s.timeout)
            // A redirect could carry the request (and its key) elsewhere; servers don't need it.
            .redirect(reqwest::redirect::Policy::none())
            // Requests go to `base_url` and nowhere else: an `HTTP(S)_PROXY` inherited from the
            // environment would route the key through a third party (in clear text for an
            // http:// base URL). A deployment that needs a proxy names it as the base URL.
            .no_proxy()
            .user_agent(concat!("baton-llm/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ConfigError::Http(e.to_string()))?;
        Ok(OpenAiProvider {
            http,
            url,
            endpoint,
            api_key,
            timeout: s.timeout,
            policy: s.policy,
            limit: Arc::new(Semaphore::new(s.concurrency)),
            max_response_bytes: s.max_response_bytes,
            max_tokens_field: s.max_tokens_field,
        })
    }

    fn body(&self, call: &Call<'_>) -> Vec<u8> {
        let mut body = serde_json::Map::new();
        body.insert("model".into(), call.model.into());
        let messages: Vec<serde_json::Value> = call
            .messages
            .iter()
            .map(|m| serde_json::json!({"role": m.role, "content": m.content}))
            .collect();
        body.insert("messages".into(), messages.into());
        if let Some(t) = call.temperature {
            body.insert("temperature".into(), t.into());
        }
        body.insert(self.max_tokens_field.key().into(), call.max_tokens.into());
        if !call.stop.is_empty() {
            body.insert("stop".into(), call.stop.to_vec().into());
        }
        body.insert("stream".into(), false.into());
        // A map of JSON values always serialises.
        serde_json::to_vec(&body).unwrap_or_default()
    }

    fn headers(&self) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(Secret(key)) = &self.api_key {
            if let Ok(mut v) = HeaderValue::from_str(&format!("Bearer {key}")) {
                v.set_sensitive(true);
                h.insert(AUTHORIZATION, v);
            }
        }
        h
    }

    fn secret(&self) -> Option<&str> {
        self.api_key.as_ref().map(|s| s.0.as_str())
    }

    /// One chat completion, with retries.
    pub(crate) async fn complete(&self, call: &Call<'_>) -> Result<ProviderReply, LlmError> {
        let body = self.body(call);
        let mut backoff = Duration::ZERO;
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let outcome = {
                let _permit = self.limit.acquire().await.map_err(|_| LlmError::Provider {
                    provider: NAME,
                    attempts: attempt - 1,
                    last_status: None,
                    message: "the provider is shutting down".into(),
                })?;
                self.attempt(&body).await
            };
            match outcome {
                Attempt::Done(mut reply) => {
                    reply.attempts = attempt;
                    reply.backoff = backoff;
                    return Ok(reply);
                }
                Attempt::Fail(e) => return Err(e),
                Attempt::Retry {
                    status,
                    message,
                    retry_after,
                } => {
                    if attempt >= self.policy.max_attempts {
                        return Err(LlmError::Provider {
                            provider: NAME,
                            attempts: attempt,
                            last_status: status,
                            message,
                        });
                    }
                    let wait = self.policy.delay(attempt, retry_after, fastrand::f64());
                    backoff += wait;
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    async fn attempt(&self, body: &[u8]) -> Attempt {
        let sent = self
            .http
            .post(self.url.clone())
            .headers(self.headers())
            .body(body.to_vec())
            .send()
            .await;
        let mut resp = match sent {
            Ok(r) => r,
            Err(e) => return self.transport_failure(None, &e),
        };
        let status = resp.status().as_u16();
        if resp.status().is_success() {
            let bytes = match read_capped(&mut resp, self.max_response_bytes).await {
                Ok(Some(b)) => b,
                Ok(None) => {
                    return Attempt::Fail(LlmError::BadResponse {
                        provider: NAME,
                        detail: format!(
                            "the body is larger than llm.max_response_bytes ({} bytes)",
                            self.max_response_bytes
                        ),
                    })
                }
                Err(e) => return self.transport_failure(Some(status), &e),
            };
            return match parse_reply(&bytes, self.secret()) {
                Ok(reply) => Attempt::Done(reply),
                Err(detail) => Attempt::Fail(LlmError::BadResponse {
                    provider: NAME,
                    detail,
                }),
            };
        }
        let retry_after = retry_after(resp.headers());
        // The error body only matters for its message; a failure to read it is not the error.
        let text = match read_capped(&mut resp, ERROR_BODY_LIMIT).await {
            Ok(Some(b)) => String::from_utf8_lossy(&b).into_owned(),
            _ => String::new(),
        };
        let message = error_message(&text, status, self.secret());
        if is_retryable_status(status) {
            Attempt::Retry {
                status: Some(status),
                message,
                retry_after,
            }
        } else {
            Attempt::Fail(LlmError::Rejected {
                provider: NAME,
                status,
                message,
            })
        }
    }

    fn transport_failure(&self, status: Option<u16>, e: &reqwest::Error) -> Attempt {
        let detail = clean_snippet(&describe(e), MESSAGE_CHARS, self.secret());
        let message = if e.is_connect() {
            format!("could not connect to {}: {detail}", self.endpoint)
        } else if e.is_timeout() {
            format!(
                "no complete response from {} within {:?}: {detail}",
                self.endpoint, self.timeout
            )
        } else {
            format!("request to {} failed: {detail}", self.endpoint)
        };
        // Connect errors, timeouts and dropped connections are all transient from here.
        Attempt::Retry {
            status,
            message,
            retry_after: None,
        }
    }
}

/// A reqwest error's causes, without the URL (which could hold credentials).
fn describe(e: &reqwest::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(e);
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    if parts.is_empty() {
        if e.is_timeout() {
            parts.push("timed out".into());
        } else {
            parts.push("connection error".into());
        }
    }
    parts.join(": ")
}

fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    get("retry-after-ms")
        .and_then(parse_retry_after_ms)
        .or_else(|| get("retry-after").and_then(|v| parse_retry_after(v, SystemTime::now())))
}

/// Reads the body up to `cap` bytes; `Ok(None)` when it is larger.
async fn read_capped(
    resp: &mut reqwest::Response,
    cap: u64,
) -> Result<Option<Vec<u8>>, reqwest::Error> {
    if resp.content_length().is_some_and(|n| n > cap) {
        return Ok(None);
    }
    let mut out = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        if (out.len() as u64).saturating_add(chunk.len() as u64) > cap {
            return Ok(None);
        }
        out.extend_from_slice(&chunk);
    }
    Ok(Some(out))
}

/// The message of an error body: OpenAI's `{"error": {"message"}}`, the `{"error": "..."}`,
/// `{"message"}` and `{"detail"}` shapes other servers use, or the raw text.
fn error_message(body: &str, status: u16, secret: Option<&str>) -> String {
    let json: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let found = json.as_ref().and_then(|v| {
        let e = v.get("error");
        e.and_then(|e| e.get("message"))
            .or(e)
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))
            .and_then(|m| m.as_str())
    });
    let text = match found {
        Some(m) => m.to_owned(),
        None if body.trim().is_empty() => format!("HTTP {status} with an empty body"),
        None => body.trim().to_owned(),
    };
    clean_snippet(&text, MESSAGE_CHARS, secret)
}

#[derive(serde::Deserialize)]
struct ChatResponse {
    model: Option<String>,
    choices: Option<Vec<Choice>>,
    usage: Option<ApiUsage>,
    error: Option<serde_json::Value>,
}

#[derive(serde::Deserialize)]
struct Choice {
    message: Option<ChoiceMessage>,
    finish_reason: Option<String>,
}

#[derive(serde::Deserialize)]
struct ChoiceMessage {
    content: Option<String>,
    refusal: Option<String>,
}

#[derive(serde::Deserialize)]
struct ApiUsage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
}

/// Extracts the reply from a success body; the error is a description for `BadResponse`.
fn parse_reply(bytes: &[u8], secret: Option<&str>) -> Result<ProviderReply, String> {
    let snippet = |b: &[u8]| clean_snippet(&String::from_utf8_lossy(b), 200, secret);
    let resp: ChatResponse = serde_json::from_slice(bytes).map_err(|e| {
        // serde_json's message quotes a wrongly typed string value (`invalid type: string
        // "..."`), which may be the echoed key: it goes through the same redaction (and length
        // cap) as the body snippet.
        format!(
            "not a chat-completion JSON object ({}); body begins {:?}",
            clean_snippet(&e.to_string(), 200, secret),
            snippet(bytes)
        )
    })?;
    let choices = match resp.choices {
        Some(c) => c,
        None => {
            let why = match &resp.error {
                Some(e) => format!(
                    "it holds an error: {}",
                    error_message(&serde_json::json!({ "error": e }).to_string(), 200, secret)
                ),
                None => "no `choices` field".into(),
            };
            return Err(why);
        }
    };
    let first = choices
        .into_iter()
        .next()
        .ok_or_else(|| "`choices` is empty".to_owned())?;
    let finish = first.finish_reason.unwrap_or_else(|| "unknown".into());
    let message = first
        .message
        .ok_or_else(|| "the first choice has no `message`".to_owned())?;
    let text = match (message.content, message.refusal) {
        (Some(text), _) => text,
        (None, Some(refusal)) => {
            return Err(format!(
                "the model refused: {}",
                clean_snippet(&refusal, MESSAGE_CHARS, secret)
            ))
        }
        (None, None) => {
            return Err(format!(
                "the reply has no text content (finish_reason {})",
                clean_snippet(&finish, 40, secret)
            ))
        }
    };
    let usage = resp.usage.and_then(|u| {
        Some(Usage {
            input_tokens: u.prompt_tokens?,
            output_tokens: u.completion_tokens?,
        })
    });
    Ok(ProviderReply {
        text,
        model: resp.model,
        usage,
        attempts: 1,
        backoff: Duration::ZERO,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_joins_and_hides_path_and_userinfo() {
        let (url, endpoint) = parse_url("http://u:p@127.0.0.1:8000/v1/").unwrap();
        assert_eq!(url.path(), "/v1/chat/completions");
        assert_eq!(endpoint, "127.0.0.1:8000");
        let (url, endpoint) = parse_url("https://api.openai.com/v1").unwrap();
        assert_eq!(url.as_str(), "https://api.openai.com/v1/chat/completions");
        assert_eq!(endpoint, "api.openai.com:443");
        let (url, _) = parse_url("http://localhost:11434").unwrap();
        assert_eq!(url.path(), "/chat/completions");
        for bad in [
            "",
            "ftp://x/v1",
            "not a url",
            "http://x/v1?q=1",
            "file:///etc",
        ] {
            let e = parse_url(bad).unwrap_err().to_string();
            assert!(e.contains("llm.base_url"), "{bad}: {e}");
        }
    }

    #[test]
    fn error_messages_from_common_shapes() {
        let m = |b: &str| error_message(b, 400, Some("sk-secret"));
        assert_eq!(m(r#"{"error": {"message": "bad model"}}"#), "bad model");
        assert_eq!(m(r#"{"error": "no such model"}"#), "no such model");
        assert_eq!(m(r#"{"detail": "Not Found"}"#), "Not Found");
        assert_eq!(m(r#"{"message": "m"}"#), "m");
        assert_eq!(m("plain text\n"), "plain text");
        assert_eq!(m(""), "HTTP 400 with an empty body");
        assert_eq!(m("key sk-secret is wrong"), "key [redacted] is wrong");
    }

    #[test]
    fn reply_parsing() {
        let ok = br#"{"model": "m-2024", "choices": [{"message": {"role": "assistant",
            "content": "hi"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 5,
            "completion_tokens": 1, "total_tokens": 6}}"#;
        let r = parse_reply(ok, None).unwrap();
        assert_eq!(r.text, "hi");
        assert_eq!(r.model.as_deref(), Some("m-2024"));
        assert_eq!(
            r.usage,
            Some(Usage {
                input_tokens: 5,
                output_tokens: 1
            })
        );
        let no_usage = br#"{"choices": [{"message": {"content": ""}}]}"#;
        let r = parse_reply(no_usage, None).unwrap();
        assert_eq!((r.text.as_str(), r.usage), ("", None));
        let cases: [(&[u8], &str); 7] = [
            (b"not json", "not a chat-completion JSON"),
            (b"{}", "no `choices`"),
            (br#"{"choices": []}"#, "`choices` is empty"),
            (br#"{"choices": [{}]}"#, "no `message`"),
            (
                br#"{"choices": [{"message": {"content": null}, "finish_reason": "length"}]}"#,
                "finish_reason length",
            ),
            (
                br#"{"choices": [{"message": {"refusal": "no"}}]}"#,
                "refused: no",
            ),
            (br#"{"error": {"message": "overloaded"}}"#, "overloaded"),
        ];
        for (body, want) in cases {
            let e = parse_reply(body, None).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
        let e =
            parse_reply(br#"{"usage": {"prompt_tokens": -1}, "choices": []}"#, None).unwrap_err();
        assert!(e.contains("not a chat-completion"), "{e}");
    }

    #[test]
    fn secret_debug_is_redacted() {
        assert_eq!(format!("{:?}", Secret("sk-abc".into())), "[redacted]");
    }
}
