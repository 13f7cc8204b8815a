//! The openai provider against the fake server: request shape, configuration precedence,
//! unusable success bodies, API key redaction and the concurrency limit.

mod support;

use std::time::Duration;

use baton_llm::{
    estimate_input_tokens, estimate_tokens, Budget, Client, LlmConfig, LlmError, MaxTokensField,
    Message, Price, ProviderSpec, Request, Usage, BASE_URL_ENV, MODEL_ENV,
};
use serde_json::json;
use support::{client, config, env_of, ok, within, Action, FakeServer, KEY_ENV};

const KEY: &str = "sk-test-0123456789abcdef";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_shape_and_reply() {
    let server = FakeServer::start(|_, _| ok("hello there", 12, 3)).await;
    let mut cfg = config(&server.base_url());
    cfg.prices.insert(
        "test-model".into(),
        Price {
            input_per_million: 2.0,
            output_per_million: 4.0,
        },
    );
    let client = client(&cfg, Some(KEY));
    assert_eq!(client.provider_name(), "openai");
    assert_eq!(client.default_model(), Some("test-model"));
    let budget = Budget::unlimited();
    let req = Request::new("What is 2+2?", Some("be brief".into()))
        .with_temperature(0.5)
        .with_max_tokens(64)
        .with_stop(vec!["END".into(), "\n\n".into()]);
    let reply = within(client.complete(&budget, req)).await.unwrap();

    assert_eq!(reply.text, "hello there");
    assert_eq!(
        reply.usage,
        Usage {
            input_tokens: 12,
            output_tokens: 3
        }
    );
    assert!(!reply.usage_estimated);
    assert_eq!(reply.model, "served-model");
    assert!(reply.priced);
    let cost = (12.0 * 2.0 + 3.0 * 4.0) / 1e6;
    assert!((reply.cost_usd - cost).abs() < 1e-15, "{}", reply.cost_usd);
    assert_eq!(reply.attempts, 1);
    assert_eq!(reply.backoff, Duration::ZERO);

    let spent = budget.spent();
    assert_eq!(spent.calls, 1);
    assert_eq!((spent.input_tokens, spent.output_tokens), (12, 3));
    assert!((spent.cost_usd - cost).abs() < 1e-15);
    assert_eq!(spent.unpriced_calls, 0);

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let ct = r.header("content-type").expect("content-type header");
    assert!(ct.starts_with("application/json"), "{ct}");
    assert_eq!(
        r.json(),
        json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "What is 2+2?"},
            ],
            "temperature": 0.5,
            "max_tokens": 64,
            "stop": ["END", "\n\n"],
            "stream": false,
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defaults_message_lists_and_no_key() {
    let server = FakeServer::start(|_, _| ok("ok", 1, 1)).await;
    let cfg = config(&server.base_url());
    // No key in the environment: no Authorization header at all.
    let client = client(&cfg, None);
    let budget = Budget::unlimited();
    let conversation = vec![
        Message::new("user", "first"),
        Message::new("assistant", "answer"),
        Message::new("user", "second"),
    ];
    let req = Request::new(conversation, Some("sys".into()));
    within(client.complete(&budget, req)).await.unwrap();
    // A request naming its own model overrides the default.
    let req = Request::new("x", None).with_model("other-model");
    within(client.complete(&budget, req)).await.unwrap();

    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[0].header("authorization"), None);
    // No temperature or stop when not given; the configured max_tokens is sent.
    assert_eq!(
        reqs[0].json(),
        json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "sys"},
                {"role": "user", "content": "first"},
                {"role": "assistant", "content": "answer"},
                {"role": "user", "content": "second"},
            ],
            "max_tokens": 100,
            "stream": false,
        })
    );
    assert_eq!(reqs[1].json()["model"], "other-model");

    // An empty (blank) key also sends no header.
    let client = support::client(&cfg, Some("   "));
    within(client.complete(&budget, Request::new("x", None)))
        .await
        .unwrap();
    assert_eq!(server.requests()[2].header("authorization"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_completion_tokens_field_and_key_trimming() {
    let server = FakeServer::start(|_, _| ok("ok", 1, 1)).await;
    let mut cfg = config(&server.base_url());
    cfg.max_tokens_field = MaxTokensField::MaxCompletionTokens;
    let client = client(&cfg, Some(&format!("  {KEY}\n")));
    within(client.complete(
        &Budget::unlimited(),
        Request::new("x", None).with_max_tokens(7),
    ))
    .await
    .unwrap();
    let r = &server.requests()[0];
    let body = r.json();
    assert_eq!(body["max_completion_tokens"], 7);
    assert!(body.get("max_tokens").is_none(), "{body}");
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn base_url_and_model_precedence() {
    let server = FakeServer::start(|_, _| ok("ok", 1, 1)).await;
    // Base URL and model from the environment when the configuration has none; a trailing
    // slash on the base is tolerated.
    let cfg = LlmConfig {
        base_url: None,
        model: None,
        ..config("unused")
    };
    let base = format!("{}/", server.base_url());
    let env = env_of(&[(BASE_URL_ENV, base.as_str()), (MODEL_ENV, "env-model")]);
    let c = Client::from_config_with_env(&cfg, None, &env).unwrap();
    assert_eq!(c.default_model(), Some("env-model"));
    within(c.complete(&Budget::unlimited(), Request::new("x", None)))
        .await
        .unwrap();

    // The configuration beats the environment...
    let cfg2 = LlmConfig {
        base_url: Some(server.base_url()),
        model: Some("cfg-model".into()),
        ..config("unused")
    };
    let env = env_of(&[
        (BASE_URL_ENV, "http://127.0.0.1:1/v1"),
        (MODEL_ENV, "env-model"),
    ]);
    let c = Client::from_config_with_env(&cfg2, None, &env).unwrap();
    assert_eq!(c.default_model(), Some("cfg-model"));
    within(c.complete(&Budget::unlimited(), Request::new("x", None)))
        .await
        .unwrap();

    // ...and `--llm openai:MODEL` beats the configuration.
    let spec = ProviderSpec::parse("openai:spec-model").unwrap();
    let c = Client::from_config_with_env(&cfg2, Some(spec), &env).unwrap();
    within(c.complete(&Budget::unlimited(), Request::new("x", None)))
        .await
        .unwrap();

    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    assert!(reqs.iter().all(|r| r.path == "/v1/chat/completions"));
    let models: Vec<String> = reqs
        .iter()
        .map(|r| r.json()["model"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(models, ["env-model", "cfg-model", "spec-model"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_requests_never_reach_the_server() {
    let server = FakeServer::start(|_, _| ok("ok", 1, 1)).await;
    let cfg = LlmConfig {
        model: None,
        ..config(&server.base_url())
    };
    let client = client(&cfg, Some(KEY));
    let budget = Budget::unlimited();
    let bad = [
        Request::new("x", None), // no model anywhere
        Request::new("x", None)
            .with_model("m")
            .with_temperature(3.0), // out of range
        Request::new("x", None).with_model("m").with_max_tokens(0), // zero output cap
        Request::new(Vec::<Message>::new(), None).with_model("m"), // no messages
        Request::new(vec![Message::new("tool", "x")], None).with_model("m"), // bad role
    ];
    for req in bad {
        let e = within(client.complete(&budget, req)).await.unwrap_err();
        assert!(matches!(e, LlmError::InvalidRequest(_)), "{e}");
    }
    assert_eq!(server.count(), 0);
    // Nothing was reserved or counted either.
    assert_eq!(budget.spent().calls, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_usage_is_estimated() {
    let server = FakeServer::start(|_, _| {
        Action::status(
            200,
            r#"{"choices": [{"message": {"content": "abcdefghi"}}]}"#,
        )
    })
    .await;
    let client = client(&config(&server.base_url()), None);
    let budget = Budget::unlimited();
    let req = Request::new("twelve bytes", Some("sys".into())).with_max_tokens(2);
    let messages = req.messages.clone();
    let reply = within(client.complete(&budget, req)).await.unwrap();
    assert!(reply.usage_estimated);
    assert_eq!(reply.text, "abcdefghi");
    // No model in the body: the requested one is reported.
    assert_eq!(reply.model, "test-model");
    assert!(!reply.priced);
    assert_eq!(reply.cost_usd, 0.0);
    assert_eq!(reply.usage.input_tokens, estimate_input_tokens(&messages));
    // 9 bytes estimate to 3 tokens, capped at max_tokens = 2.
    assert_eq!(estimate_tokens("abcdefghi"), 3);
    assert_eq!(reply.usage.output_tokens, 2);
    assert_eq!(budget.spent().tokens(), reply.usage.total());
    assert_eq!(budget.spent().unpriced_calls, 1);
}

/// A success status with an unusable body fails at once with `BadResponse`: one request only,
/// and the budget is charged the whole reservation (the server did the work).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusable_success_bodies_are_not_retried() {
    let cases: [(&str, &str); 7] = [
        ("{not json", "not a chat-completion JSON"),
        ("", "not a chat-completion JSON"),
        (
            r#"{"id": "x", "object": "chat.completion"}"#,
            "no `choices`",
        ),
        (r#"{"choices": []}"#, "`choices` is empty"),
        (r#"{"choices": [{"index": 0}]}"#, "no `message`"),
        (
            r#"{"error": {"message": "upstream overloaded"}}"#,
            "upstream overloaded",
        ),
        (
            r#"{"choices": [{"message": {"content": null}, "finish_reason": "length"}]}"#,
            "no text content",
        ),
    ];
    for (body, want) in cases {
        let body_owned = body.to_owned();
        let server = FakeServer::start(move |_, _| Action::status(200, &body_owned)).await;
        let client = client(&config(&server.base_url()), None);
        let budget = Budget::unlimited();
        let req = Request::new("hi", None);
        let worst = baton_llm::input_upper_bound(&req.messages) + 100;
        let e = within(client.complete(&budget, req)).await.unwrap_err();
        match &e {
            LlmError::BadResponse { provider, detail } => {
                assert_eq!(*provider, "openai");
                assert!(detail.contains(want), "{body:?}: {detail}");
            }
            other => panic!("{body:?}: expected BadResponse, got {other:?}"),
        }
        assert_eq!(server.count(), 1, "{body:?} was retried");
        let spent = budget.spent();
        assert_eq!(spent.calls, 1);
        assert_eq!(spent.tokens(), worst, "{body:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_success_body_is_a_bad_response() {
    let big = support::completion(&"x".repeat(4096), 1, 1);
    let server = FakeServer::start(move |_, _| Action::status(200, &big)).await;
    let cfg = LlmConfig {
        max_response_bytes: 1024,
        ..config(&server.base_url())
    };
    let client = client(&cfg, None);
    let e = within(client.complete(&Budget::unlimited(), Request::new("hi", None)))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, LlmError::BadResponse { detail, .. } if detail.contains("max_response_bytes")),
        "{e:?}"
    );
    assert_eq!(server.count(), 1);
}

fn echo_key(status: u16) -> impl Fn(usize, &support::Recorded) -> Action {
    move |_, r| {
        let auth = r.header("authorization").unwrap_or("none").to_owned();
        let body = json!({"error": {"message": format!("Incorrect API key provided: {auth}")}});
        Action::status(status, &body.to_string())
    }
}

fn assert_redacted(e: &LlmError) {
    let shown = e.to_string();
    let debug = format!("{e:?}");
    assert!(shown.contains("[redacted]"), "{shown}");
    assert!(!shown.contains(KEY), "{shown}");
    assert!(!debug.contains(KEY), "{debug}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_key_echoed_by_the_server_is_redacted() {
    // A rejection (401) quoting the key.
    let server = FakeServer::start(echo_key(401)).await;
    let client = client(&config(&server.base_url()), Some(KEY));
    let e = within(client.complete(&Budget::unlimited(), Request::new("hi", None)))
        .await
        .unwrap_err();
    assert!(matches!(e, LlmError::Rejected { status: 401, .. }), "{e:?}");
    assert!(e.to_string().contains("Incorrect API key provided"), "{e}");
    assert_redacted(&e);
    assert_eq!(server.count(), 1);

    // A retryable failure (500) quoting the key on every attempt.
    let server = FakeServer::start(echo_key(500)).await;
    let client = support::client(&config(&server.base_url()), Some(KEY));
    let e = within(client.complete(&Budget::unlimited(), Request::new("hi", None)))
        .await
        .unwrap_err();
    assert!(matches!(e, LlmError::Provider { .. }), "{e:?}");
    assert_redacted(&e);

    // A success status whose unusable body quotes the key: in plain text, in an error object,
    // in a refusal, and as a value of the wrong type (which the JSON parser's own message
    // would quote).
    for body in [
        format!("not json, but here is your key: {KEY}"),
        json!({"error": {"message": format!("bad key {KEY}")}}).to_string(),
        json!({"choices": [{"message": {"refusal": format!("no, {KEY}")}}]}).to_string(),
        json!({"choices": KEY}).to_string(),
        json!({"choices": [], "usage": {"prompt_tokens": KEY}}).to_string(),
        json!({"choices": [{"message": {"content": "hi"}, "finish_reason": {"k": KEY}}]})
            .to_string(),
    ] {
        let server = FakeServer::start(move |_, _| Action::status(200, &body)).await;
        let client = support::client(&config(&server.base_url()), Some(KEY));
        let e = within(client.complete(&Budget::unlimited(), Request::new("hi", None)))
            .await
            .unwrap_err();
        assert!(matches!(e, LlmError::BadResponse { .. }), "{e:?}");
        assert_redacted(&e);
    }

    // Nor does the client itself show the key.
    let shown = format!("{client:?}");
    assert!(!shown.contains(KEY), "{shown}");
}

#[test]
fn a_key_that_cannot_be_a_header_is_a_config_error_that_does_not_quote_it() {
    let cfg = config("http://127.0.0.1:9/v1");
    let env = env_of(&[(KEY_ENV, "sk-abc\ndef")]);
    let e = Client::from_config_with_env(&cfg, None, &env).unwrap_err();
    let shown = e.to_string();
    assert!(shown.contains("llm.api_key_env"), "{shown}");
    assert!(!shown.contains("sk-abc"), "{shown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrency_limit_caps_requests_in_flight() {
    for limit in [1usize, 3] {
        let server =
            FakeServer::start(|_, _| ok("ok", 1, 1).with_delay(Duration::from_millis(100))).await;
        let cfg = LlmConfig {
            concurrency: limit,
            ..config(&server.base_url())
        };
        let client = client(&cfg, None);
        let budget = Budget::unlimited();
        let tasks: Vec<_> = (0..12)
            .map(|i| {
                // Clones share the provider, hence the limit.
                let client = client.clone();
                let budget = budget.clone();
                tokio::spawn(async move {
                    client
                        .complete(&budget, Request::new(format!("call {i}"), None))
                        .await
                })
            })
            .collect();
        for t in tasks {
            within(t).await.unwrap().unwrap();
        }
        assert_eq!(server.count(), 12);
        let max = server.max_in_flight();
        assert!(
            max <= limit,
            "limit {limit}, the server saw {max} in flight"
        );
        assert!(max >= 1);
        assert_eq!(budget.spent().calls, 12);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn without_a_tight_limit_calls_do_overlap() {
    // The counterpart of the test above: the fake server does see overlapping requests when the
    // limit allows them, so the bound checked there is not vacuous.
    let server =
        FakeServer::start(|_, _| ok("ok", 1, 1).with_delay(Duration::from_millis(300))).await;
    let cfg = LlmConfig {
        concurrency: 4,
        ..config(&server.base_url())
    };
    let client = client(&cfg, None);
    let budget = Budget::unlimited();
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let (client, budget) = (client.clone(), budget.clone());
            tokio::spawn(async move {
                client
                    .complete(&budget, Request::new(format!("call {i}"), None))
                    .await
            })
        })
        .collect();
    for t in tasks {
        within(t).await.unwrap().unwrap();
    }
    let max = server.max_in_flight();
    assert!((2..=4).contains(&max), "{max}");
}
