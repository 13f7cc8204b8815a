//! Retry policy of the openai provider against the fake server: what is retried, how long the
//! client waits when the server asks, timeouts and broken connections.
//!
//! Time is only ever checked from below (a retry came at least the asked delay after the
//! previous attempt, measured on the server's clock); `Reply::backoff` is the computed wait, so
//! it can be compared exactly.

mod support;

use std::time::Duration;

use baton_llm::{Budget, LlmConfig, LlmError, Request};
use support::{client, config, ok, within, Action, FakeServer};

fn rate_limited() -> Action {
    Action::status(429, r#"{"error": {"message": "slow down"}}"#)
}

async fn one_call(cfg: &LlmConfig) -> Result<baton_llm::Reply, LlmError> {
    let client = client(cfg, Some("sk-k"));
    within(client.complete(&Budget::unlimited(), Request::new("hi", None))).await
}

fn gap(server: &FakeServer, first: usize, second: usize) -> Duration {
    let reqs = server.requests();
    reqs[second].at.duration_since(reqs[first].at)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_seconds_is_honoured() {
    let server = FakeServer::start(|n, _| match n {
        0 => rate_limited().with_header("Retry-After", "1"),
        _ => ok("finally", 2, 1),
    })
    .await;
    let reply = one_call(&config(&server.base_url())).await.unwrap();
    assert_eq!(reply.text, "finally");
    assert_eq!(reply.attempts, 2);
    assert_eq!(server.count(), 2);
    // Exactly the server's wait, not the (much smaller) jittered backoff.
    assert_eq!(reply.backoff, Duration::from_secs(1));
    let g = gap(&server, 0, 1);
    assert!(g >= Duration::from_secs(1), "second attempt after {g:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_ms_is_honoured_and_wins_over_retry_after() {
    let server = FakeServer::start(|n, _| match n {
        0 => rate_limited().with_header("retry-after-ms", "250"),
        // Both headers: the millisecond one is more precise and wins.
        1 => rate_limited()
            .with_header("retry-after-ms", "300")
            .with_header("Retry-After", "4"),
        _ => ok("ok", 2, 1),
    })
    .await;
    let reply = one_call(&config(&server.base_url())).await.unwrap();
    assert_eq!(reply.attempts, 3);
    assert_eq!(server.count(), 3);
    assert_eq!(reply.backoff, Duration::from_millis(550));
    let g1 = gap(&server, 0, 1);
    let g2 = gap(&server, 1, 2);
    assert!(g1 >= Duration::from_millis(250), "{g1:?}");
    assert!(g2 >= Duration::from_millis(300), "{g2:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_is_cut_to_the_configured_maximum() {
    let server = FakeServer::start(|n, _| match n {
        0 => rate_limited().with_header("Retry-After", "3600"),
        // An HTTP date far in the future, also cut.
        1 => {
            Action::status(503, "busy").with_header("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")
        }
        // A date in the past: retry at once.
        2 => rate_limited().with_header("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"),
        _ => ok("ok", 2, 1),
    })
    .await;
    let cfg = LlmConfig {
        max_attempts: 4,
        retry_after_max_secs: 0.2,
        // Were a server's wait ignored, the jitter would not give exactly 0.4 s.
        backoff_base_secs: 0.05,
        ..config(&server.base_url())
    };
    let reply = one_call(&cfg).await.unwrap();
    assert_eq!(reply.attempts, 4);
    assert_eq!(reply.backoff, Duration::from_millis(400));
    assert!(gap(&server, 0, 1) >= Duration::from_millis(200));
    assert!(gap(&server, 1, 2) >= Duration::from_millis(200));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limit_that_persists_fails_after_max_attempts() {
    let server = FakeServer::start(|_, _| rate_limited().with_header("retry-after-ms", "10")).await;
    let e = one_call(&config(&server.base_url())).await.unwrap_err();
    match &e {
        LlmError::Provider {
            provider,
            attempts,
            last_status,
            message,
        } => {
            assert_eq!(*provider, "openai");
            assert_eq!(*attempts, 3);
            assert_eq!(*last_status, Some(429));
            assert!(message.contains("slow down"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_are_retried_up_to_max_attempts_then_named() {
    for status in [500u16, 502, 503] {
        let server = FakeServer::start(move |n, _| {
            Action::status(
                status,
                &format!(r#"{{"error": {{"message": "boom {n}"}}}}"#),
            )
        })
        .await;
        let cfg = LlmConfig {
            max_attempts: 4,
            ..config(&server.base_url())
        };
        let client = client(&cfg, None);
        let budget = Budget::unlimited();
        let e = within(client.complete(&budget, Request::new("hi", None)))
            .await
            .unwrap_err();
        assert_eq!(server.count(), 4, "HTTP {status}");
        assert!(
            matches!(e, LlmError::Provider { attempts: 4, last_status: Some(s), .. } if s == status),
            "{e:?}"
        );
        let shown = e.to_string();
        assert!(shown.contains(&format!("HTTP status {status}")), "{shown}");
        // The last attempt's message.
        assert!(shown.contains("boom 3"), "{shown}");
        // A failed call counts as a call, with no tokens.
        assert_eq!(budget.spent().calls, 1);
        assert_eq!(budget.spent().tokens(), 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transient_errors_then_success() {
    let server = FakeServer::start(|n, _| match n {
        0 => Action::status(500, "oops"),
        1 => Action::status(502, "<html>bad gateway</html>"),
        2 => Action::status(503, ""),
        3 => Action::status(408, ""),
        _ => ok("done", 3, 2),
    })
    .await;
    let cfg = LlmConfig {
        max_attempts: 5,
        ..config(&server.base_url())
    };
    let reply = one_call(&cfg).await.unwrap();
    assert_eq!(reply.text, "done");
    assert_eq!(reply.attempts, 5);
    assert_eq!(server.count(), 5);
    // Full jitter after failures 1..4 is at most 10 + 20 + 40 + 50 (capped) ms.
    assert!(
        reply.backoff <= Duration::from_millis(120),
        "{:?}",
        reply.backoff
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_errors_are_not_retried_and_their_message_surfaces() {
    let cases: [(u16, &str, &str); 5] = [
        (
            400,
            r#"{"error": {"message": "model 'x' does not exist", "type": "invalid_request_error"}}"#,
            "model 'x' does not exist",
        ),
        (401, r#"{"error": "invalid token"}"#, "invalid token"),
        (404, r#"{"detail": "Not Found"}"#, "Not Found"),
        (422, "plain text complaint", "plain text complaint"),
        (403, "", "HTTP 403 with an empty body"),
    ];
    for (status, body, want) in cases {
        let body = body.to_owned();
        let server = FakeServer::start(move |_, _| Action::status(status, &body)).await;
        let e = one_call(&config(&server.base_url())).await.unwrap_err();
        assert_eq!(server.count(), 1, "HTTP {status} was retried");
        match &e {
            LlmError::Rejected {
                provider,
                status: s,
                message,
            } => {
                assert_eq!((*provider, *s), ("openai", status));
                assert_eq!(message, want);
            }
            other => panic!("HTTP {status}: {other:?}"),
        }
        let shown = e.to_string();
        assert!(shown.contains(&format!("HTTP {status}")), "{shown}");
        assert!(shown.contains(want), "{shown}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hanging_server_times_out_each_attempt() {
    let server = FakeServer::start(|_, _| Action::Hang).await;
    let cfg = LlmConfig {
        timeout_secs: 0.2,
        ..config(&server.base_url())
    };
    let e = one_call(&cfg).await.unwrap_err();
    match &e {
        LlmError::Provider {
            attempts,
            last_status,
            message,
            ..
        } => {
            assert_eq!(*attempts, 3);
            assert_eq!(*last_status, None);
            assert!(message.contains("no complete response"), "{message}");
            assert!(message.contains(&server.addr.to_string()), "{message}");
            // The per-attempt timeout fired (not, say, a connect error), and it is named.
            assert!(message.contains("within 200ms"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_then_an_answer_succeeds() {
    let server = FakeServer::start(|n, _| {
        if n == 0 {
            Action::Hang
        } else {
            ok("late", 1, 1)
        }
    })
    .await;
    let cfg = LlmConfig {
        timeout_secs: 0.2,
        ..config(&server.base_url())
    };
    let reply = one_call(&cfg).await.unwrap();
    assert_eq!((reply.text.as_str(), reply.attempts), ("late", 2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeout_covers_reading_the_body() {
    // Status line and headers arrive at once; the body never does.
    let head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{\"choices\"";
    let server = FakeServer::start(move |_, _| Action::Stall(head.to_vec())).await;
    let cfg = LlmConfig {
        timeout_secs: 0.2,
        max_attempts: 2,
        ..config(&server.base_url())
    };
    let e = one_call(&cfg).await.unwrap_err();
    assert!(
        matches!(&e, LlmError::Provider { attempts: 2, last_status: Some(200), message, .. }
            if message.contains("no complete response")),
        "{e:?}"
    );
    assert_eq!(server.count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connections_are_retried() {
    let server = FakeServer::start(|n, _| match n {
        // Closed without a byte.
        0 => Action::Raw(Vec::new()),
        // A success status whose body is cut short.
        1 => Action::Raw(
            b"HTTP/1.1 200 OK\r\ncontent-length: 400\r\nconnection: close\r\n\r\n{\"cho".to_vec(),
        ),
        _ => ok("third time", 1, 1),
    })
    .await;
    let reply = one_call(&config(&server.base_url())).await.unwrap();
    assert_eq!((reply.text.as_str(), reply.attempts), ("third time", 3));
    assert_eq!(server.count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_refused_is_retried_then_names_the_endpoint() {
    // A port that was just free: nothing listens there any more.
    let addr = {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        l.local_addr().unwrap()
    };
    let cfg = LlmConfig {
        max_attempts: 2,
        ..config(&format!("http://{addr}/v1"))
    };
    let client = client(&cfg, Some("sk-k"));
    let e = within(client.complete(&Budget::unlimited(), Request::new("hi", None)))
        .await
        .unwrap_err();
    match &e {
        LlmError::Provider {
            attempts,
            last_status,
            message,
            ..
        } => {
            assert_eq!((*attempts, *last_status), (2, None));
            assert!(
                message.contains(&format!("could not connect to {addr}")),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_are_not_followed() {
    let server = FakeServer::start(|n, _| match n {
        0 => Action::status(307, "").with_header("location", "/elsewhere"),
        _ => ok("should not be asked", 1, 1),
    })
    .await;
    let e = one_call(&config(&server.base_url())).await.unwrap_err();
    assert!(matches!(e, LlmError::Rejected { status: 307, .. }), "{e:?}");
    assert_eq!(server.count(), 1);
}
