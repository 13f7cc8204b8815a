//! A tiny fake OpenAI-compatible HTTP/1.1 server on 127.0.0.1 for the tests: it records every
//! request, counts requests in flight, and answers what a handler decides. One request per
//! connection (`Connection: close`).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names lowercased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("request body is JSON")
    }
}

/// What the server does with a request.
pub enum Action {
    Reply {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
        delay: Duration,
    },
    /// Never answers.
    Hang,
    /// Writes these bytes as they are (a truncated or broken response), then closes.
    Raw(Vec<u8>),
    /// Writes these bytes (say, a status line and headers), then holds the connection open
    /// without another byte until the client gives up.
    Stall(Vec<u8>),
}

impl Action {
    pub fn status(status: u16, body: &str) -> Action {
        Action::Reply {
            status,
            headers: vec![],
            body: body.to_owned(),
            delay: Duration::ZERO,
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Action {
        if let Action::Reply { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    pub fn with_delay(mut self, d: Duration) -> Action {
        if let Action::Reply { delay, .. } = &mut self {
            *delay = d;
        }
        self
    }
}

/// A success body with the given text and usage.
pub fn completion(text: &str, prompt_tokens: u64, completion_tokens: u64) -> String {
    serde_json::json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "served-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens}
    })
    .to_string()
}

pub fn ok(text: &str, prompt_tokens: u64, completion_tokens: u64) -> Action {
    Action::status(200, &completion(text, prompt_tokens, completion_tokens))
}

type Handler = dyn Fn(usize, &Recorded) -> Action + Send + Sync;

struct State {
    requests: Mutex<Vec<Recorded>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    handler: Box<Handler>,
}

pub struct FakeServer {
    pub addr: SocketAddr,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeServer {
    /// Starts the server; `handler(n, request)` decides the answer to the n-th request (0-based).
    pub async fn start(
        handler: impl Fn(usize, &Recorded) -> Action + Send + Sync + 'static,
    ) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(State {
            requests: Mutex::new(Vec::new()),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            handler: Box::new(handler),
        });
        let st = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, st.clone()));
            }
        });
        FakeServer { addr, state, task }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    pub fn count(&self) -> usize {
        self.state.requests.lock().unwrap().len()
    }

    pub fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }
}

async fn read_request(stream: &mut TcpStream) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if buf.len() > 1 << 20 {
            return None;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_owned();
    let path = first.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < len {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Recorded {
        method,
        path,
        headers,
        body,
        at: Instant::now(),
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        408 => "Request Timeout",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

async fn serve(mut stream: TcpStream, st: Arc<State>) {
    let Some(req) = read_request(&mut stream).await else {
        return;
    };
    let now = st.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    st.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let n = {
        let mut list = st.requests.lock().unwrap();
        list.push(req.clone());
        list.len() - 1
    };
    // The request counts as in flight from when it has been read until just before the first
    // byte of the answer is written (or, for a hang, until the client closes). That interval
    // lies inside the client's own in-flight interval (it is still sending, or waiting for the
    // answer), so `max_in_flight` never over-counts because of scheduling: decrementing after
    // the write would race the client, which may already have started its next request. (A
    // hang is only noticed to end when the client's close arrives, a little after the client
    // gave up: tests of the concurrency limit use replies.)
    let done = || {
        st.in_flight.fetch_sub(1, Ordering::SeqCst);
    };
    match (st.handler)(n, &req) {
        Action::Hang => {
            hold_open(&mut stream).await;
            done();
        }
        Action::Raw(bytes) => {
            done();
            let _ = stream.write_all(&bytes).await;
            let _ = stream.shutdown().await;
        }
        Action::Stall(bytes) => {
            done();
            let _ = stream.write_all(&bytes).await;
            let _ = stream.flush().await;
            hold_open(&mut stream).await;
        }
        Action::Reply {
            status,
            headers,
            body,
            delay,
        } => {
            tokio::time::sleep(delay).await;
            let mut out = format!(
                "HTTP/1.1 {status} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
                reason(status),
                body.len()
            );
            for (n, v) in headers {
                out.push_str(&format!("{n}: {v}\r\n"));
            }
            out.push_str("\r\n");
            out.push_str(&body);
            done();
            let _ = stream.write_all(out.as_bytes()).await;
            let _ = stream.shutdown().await;
        }
    }
}

/// Holds the connection open without answering until the client closes it.
async fn hold_open(stream: &mut TcpStream) {
    let mut sink = [0u8; 64];
    while let Ok(k) = stream.read(&mut sink).await {
        if k == 0 {
            break;
        }
    }
}

// ---- Shared helpers for the integration tests ----

/// The environment variable the test configurations name for the API key. Tests never read the
/// real environment: they pass a lookup function to `Client::from_config_with_env`.
pub const KEY_ENV: &str = "BATON_LLM_TEST_KEY";

/// A configuration aimed at `base_url` with small timeouts and backoffs so tests are fast.
pub fn config(base_url: &str) -> baton_llm::LlmConfig {
    baton_llm::LlmConfig {
        base_url: Some(base_url.to_owned()),
        api_key_env: KEY_ENV.into(),
        model: Some("test-model".into()),
        max_tokens: 100,
        concurrency: 8,
        connect_timeout_secs: 5.0,
        timeout_secs: 10.0,
        max_attempts: 3,
        backoff_base_secs: 0.01,
        backoff_max_secs: 0.05,
        retry_after_max_secs: 5.0,
        ..baton_llm::LlmConfig::default()
    }
}

/// An environment lookup that knows only the given variables.
pub fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

/// A client from `cfg` whose environment holds only the API key (if any).
pub fn client(cfg: &baton_llm::LlmConfig, key: Option<&str>) -> baton_llm::Client {
    let vars: Vec<(&str, &str)> = key.map(|k| (KEY_ENV, k)).into_iter().collect();
    baton_llm::Client::from_config_with_env(cfg, None, &env_of(&vars)).expect("client builds")
}

/// Guards a test step against hanging forever when the code under test is broken. Generous on
/// purpose: it is a safety net, not an assertion about speed.
pub async fn within<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .expect("test step did not finish within 60 s")
}

/// A deterministic permutation of `0..n` (xorshift Fisher-Yates), different for each seed.
pub fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..n).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let j = (x % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}
