//! A fake OpenAI-compatible server for end-to-end tests: answers every chat completion with
//! what a test's function makes of the request, and records every request it was sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

type Answer = dyn Fn(&Value) -> String + Send + Sync;

pub struct FakeServer {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl FakeServer {
    /// Starts a server whose reply to a request (the JSON body) is `answer(request)`.
    pub fn start(answer: impl Fn(&Value) -> String + Send + Sync + 'static) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        let answer: Arc<Answer> = Arc::new(answer);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                let answer = answer.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &seen, &*answer);
                });
            }
        });
        FakeServer { port, requests }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// Every request received so far (JSON bodies), in order of arrival.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }

    /// The last message of every request received so far.
    pub fn prompts(&self) -> Vec<String> {
        self.requests().iter().map(last_message).collect()
    }
}

/// The text of a request's last message.
pub fn last_message(request: &Value) -> String {
    request["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn serve(stream: TcpStream, seen: &Mutex<Vec<Value>>, answer: &Answer) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    seen.lock().unwrap().push(request.clone());
    let content = answer(&request);
    let reply = json!({
        "model": "fake",
        "choices": [{"message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3},
    })
    .to_string();
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
        reply.len()
    )?;
    stream.flush()
}
