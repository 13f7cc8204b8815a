//! The offline script provider through the public API: rule order, default, usage, latency,
//! determinism under concurrency, and errors for bad script files.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use baton_llm::{
    estimate_input_tokens, estimate_tokens, Budget, BudgetCaps, BudgetKind, Client, ConfigError,
    LlmConfig, LlmError, Message, Price, ProviderKind, ProviderSpec, Request, Usage, SCRIPT_MODEL,
};
use serde_json::json;
use support::{env_of, shuffled, within};

/// Writes a script file under Cargo's per-target temporary directory. Names are unique per
/// test, so parallel tests never share a file.
fn script_file(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("baton-llm-script-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}-{}.json", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn script_client(path: &Path) -> Result<Client, ConfigError> {
    let spec = ProviderSpec::Script {
        path: path.to_owned(),
    };
    Client::from_config_with_env(&LlmConfig::default(), Some(spec), &env_of(&[]))
}

async fn text_of(client: &Client, req: Request) -> String {
    within(client.complete(&Budget::unlimited(), req))
        .await
        .unwrap()
        .text
}

#[tokio::test]
async fn first_matching_rule_wins_and_default_answers_the_rest() {
    let path = script_file(
        "first-match",
        &json!({
            "rules": [
                {"when": "apple", "reply": "A1"},
                {"when": "app", "reply": "A2"},
                {"when": "pie", "reply": "P"},
            ],
            "default": "D",
        })
        .to_string(),
    );
    let client = script_client(&path).unwrap();
    assert_eq!(client.provider_name(), "script");
    assert_eq!(client.default_model(), Some(SCRIPT_MODEL));

    // Rule order decides, not the position of the match in the text.
    assert_eq!(
        text_of(&client, Request::new("pie and apple", None)).await,
        "A1"
    );
    assert_eq!(
        text_of(&client, Request::new("app store", None)).await,
        "A2"
    );
    assert_eq!(
        text_of(&client, Request::new("cherry pie", None)).await,
        "P"
    );
    assert_eq!(text_of(&client, Request::new("nothing", None)).await, "D");
    // The system text is part of the request text.
    assert_eq!(
        text_of(&client, Request::new("plain", Some("about pie".into()))).await,
        "P"
    );
    // Messages are joined by newlines: a `when` never matches across two of them.
    let split = vec![Message::new("user", "ap"), Message::new("assistant", "ple")];
    assert_eq!(text_of(&client, Request::new(split, None)).await, "D");

    // The default has no usage: it is estimated, and the requested model is reported.
    let req = Request::new("nothing at all", None).with_model("my-model");
    let messages = req.messages.clone();
    let reply = within(client.complete(&Budget::unlimited(), req))
        .await
        .unwrap();
    assert_eq!(reply.model, "my-model");
    assert!(reply.usage_estimated);
    assert_eq!(
        reply.usage,
        Usage {
            input_tokens: estimate_input_tokens(&messages),
            output_tokens: estimate_tokens("D"),
        }
    );
    assert_eq!((reply.attempts, reply.backoff), (1, Duration::ZERO));
}

#[tokio::test]
async fn no_rule_and_no_default_is_an_error_naming_the_request() {
    let path = script_file(
        "no-default",
        r#"{"rules": [{"when": "known", "reply": "yes"}]}"#,
    );
    let client = script_client(&path).unwrap();
    let budget = Budget::unlimited();
    let e = within(client.complete(&budget, Request::new("a mystery question", None)))
        .await
        .unwrap_err();
    match &e {
        LlmError::ScriptUnmatched { request_prefix } => {
            assert_eq!(request_prefix, "a mystery question")
        }
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("a mystery question"), "{e}");
    // A failed call counts as a call without tokens.
    assert_eq!((budget.spent().calls, budget.spent().tokens()), (1, 0));

    // Long requests are quoted by their beginning only, control characters blanked.
    let long = format!("line one\nline two {}", "x".repeat(500));
    let e = within(client.complete(&budget, Request::new(long, None)))
        .await
        .unwrap_err();
    let LlmError::ScriptUnmatched { request_prefix } = &e else {
        panic!("{e:?}")
    };
    assert!(
        request_prefix.starts_with("line one line two x"),
        "{request_prefix}"
    );
    assert!(request_prefix.ends_with("..."), "{request_prefix}");
    assert!(request_prefix.chars().count() < 200, "{request_prefix}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_and_latency_are_honoured() {
    let path = script_file(
        "usage-latency",
        &json!({
            "rules": [
                {"when": "slow", "reply": "took a while", "latency_ms": 150,
                 "usage": {"input_tokens": 7, "output_tokens": 3}},
                {"when": "verbose", "reply": "long", "usage": {"input_tokens": 4, "output_tokens": 500}},
            ],
        })
        .to_string(),
    );
    let mut cfg = LlmConfig {
        provider: ProviderKind::Script,
        script: Some(path),
        ..LlmConfig::default()
    };
    cfg.prices.insert(
        SCRIPT_MODEL.into(),
        Price {
            input_per_million: 1.0,
            output_per_million: 10.0,
        },
    );
    // The configuration alone selects the script provider.
    let client = Client::from_config_with_env(&cfg, None, &env_of(&[])).unwrap();
    let budget = Budget::unlimited();

    let reply = within(client.complete(&budget, Request::new("be slow", None)))
        .await
        .unwrap();
    assert_eq!(reply.text, "took a while");
    assert_eq!(
        reply.usage,
        Usage {
            input_tokens: 7,
            output_tokens: 3
        }
    );
    assert!(!reply.usage_estimated);
    assert!(reply.priced);
    assert!((reply.cost_usd - 37.0 / 1e6).abs() < 1e-15);
    assert!(
        reply.latency >= Duration::from_millis(150),
        "{:?}",
        reply.latency
    );

    // Output usage is capped at the call's max_tokens, like a real server's.
    let reply = within(client.complete(&budget, Request::new("verbose", None).with_max_tokens(10)))
        .await
        .unwrap();
    assert_eq!(reply.usage.output_tokens, 10);
    assert_eq!(budget.spent().tokens(), 10 + 14);
    assert_eq!(budget.spent().calls, 2);
}

#[tokio::test]
async fn script_calls_are_budgeted_too() {
    let path = script_file("budgeted", r#"{"default": "fine"}"#);
    let client = script_client(&path).unwrap();
    let b = Budget::new(BudgetCaps {
        max_calls: Some(1),
        ..BudgetCaps::unlimited()
    });
    within(client.complete(&b, Request::new("a", None)))
        .await
        .unwrap();
    let e = within(client.complete(&b, Request::new("b", None)))
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            LlmError::BudgetExceeded {
                budget: BudgetKind::Calls,
                ..
            }
        ),
        "{e:?}"
    );
}

/// Key facts of a reply that must not depend on call order.
type Outcome = (String, String, Usage, bool);

fn determinism_prompts() -> Vec<Request> {
    (0..40)
        .map(|i| {
            let text = if i % 5 == 0 {
                format!("q{i}: nothing to see")
            } else {
                format!("q{i}: about topic{} and topic{}", i % 8, (i * 3) % 8)
            };
            let system = (i % 3 == 0).then(|| format!("system for topic{}", (i + 1) % 8));
            Request::new(text, system)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn replies_do_not_depend_on_the_order_of_concurrent_calls() {
    let rules: Vec<serde_json::Value> = (0..8u64)
        .map(|k| {
            let mut rule = json!({
                "when": format!("topic{k}"),
                "reply": format!("reply {k}"),
                // Different latencies, so calls finish in another order than they started.
                "latency_ms": (k * 7) % 25,
            });
            if k % 2 == 0 {
                rule["usage"] = json!({"input_tokens": k + 1, "output_tokens": 2 * k + 1});
            }
            rule
        })
        .collect();
    let path = script_file(
        "determinism",
        &json!({"rules": rules, "default": "fallback"}).to_string(),
    );
    let client = script_client(&path).unwrap();
    let prompts = determinism_prompts();

    let outcome =
        |r: baton_llm::Reply| -> Outcome { (r.text, r.model, r.usage, r.usage_estimated) };
    let mut baseline = Vec::new();
    for req in &prompts {
        let r = within(client.complete(&Budget::unlimited(), req.clone()))
            .await
            .unwrap();
        baseline.push(outcome(r));
    }
    // The rules do discriminate: several different replies, the default among them.
    let distinct: std::collections::BTreeSet<&str> =
        baseline.iter().map(|o| o.0.as_str()).collect();
    assert!(
        distinct.len() >= 5 && distinct.contains("fallback"),
        "{distinct:?}"
    );
    let baseline_tokens: u64 = baseline.iter().map(|o| o.2.total()).sum();

    for seed in 1..=5u64 {
        let order = shuffled(prompts.len(), seed);
        let budget = Budget::unlimited();
        let tasks: Vec<_> = order
            .iter()
            .map(|&i| {
                let (client, budget, req) = (client.clone(), budget.clone(), prompts[i].clone());
                (
                    i,
                    tokio::spawn(async move { client.complete(&budget, req).await }),
                )
            })
            .collect();
        let mut got: Vec<Option<Outcome>> = vec![None; prompts.len()];
        for (i, t) in tasks {
            got[i] = Some(outcome(within(t).await.unwrap().unwrap()));
        }
        let got: Vec<Outcome> = got.into_iter().map(Option::unwrap).collect();
        assert_eq!(got, baseline, "order {order:?}");
        assert_eq!(budget.spent().tokens(), baseline_tokens);
        assert_eq!(budget.spent().calls, prompts.len() as u64);
    }
}

fn parse_error(name: &str, text: &str) -> (PathBuf, ConfigError) {
    let path = script_file(name, text);
    let e = script_client(&path).expect_err("the script must be refused");
    (path, e)
}

#[test]
fn bad_script_files_name_the_path_and_the_field() {
    let cases: [(&str, &str, &str, &str); 6] = [
        (
            "bad-usage-type",
            "{\"rules\": [\n  {\"when\": \"a\", \"reply\": \"b\"},\n  {\"when\": \"c\", \"reply\": \"d\",\n   \"usage\": {\"input_tokens\": \"many\", \"output_tokens\": 1}}]}",
            "rules[1].usage.input_tokens",
            "invalid type",
        ),
        (
            "missing-reply",
            r#"{"rules": [{"when": "a"}]}"#,
            "rules[0]",
            "missing field `reply`",
        ),
        (
            "unknown-field",
            r#"{"rules": [], "defualt": "x"}"#,
            "defualt",
            "unknown field `defualt`",
        ),
        (
            "rule-typo",
            r#"{"rules": [{"when": "a", "reply": "b", "latency": 5}]}"#,
            "rules[0]",
            "unknown field `latency`",
        ),
        (
            "empty-when",
            r#"{"rules": [{"when": "x", "reply": "y"}, {"when": "", "reply": "z"}]}"#,
            "rules[1].when",
            "would match every request",
        ),
        ("truncated", "{\"rules\": [", "line 1", "EOF"),
    ];
    for (name, text, field, reason) in cases {
        let (path, e) = parse_error(name, text);
        assert!(
            matches!(e, ConfigError::ScriptParse { .. }),
            "{name}: {e:?}"
        );
        let shown = e.to_string();
        assert!(
            shown.contains(&path.display().to_string()),
            "{name}: {shown}"
        );
        assert!(shown.contains(field), "{name}: {shown}");
        assert!(shown.contains(reason), "{name}: {shown}");
    }

    // The line of the bad value is reported.
    let (_, e) = parse_error(
        "line-number",
        "{\"rules\": [\n  {\"when\": \"a\", \"reply\": \"b\"},\n  {\"when\": 5, \"reply\": \"d\"}]}",
    );
    match e {
        ConfigError::ScriptParse {
            json_path, line, ..
        } => {
            assert_eq!(json_path, "rules[1].when");
            assert_eq!(line, 3);
        }
        other => panic!("{other:?}"),
    }

    // Not UTF-8.
    let path = script_file("not-utf8", "");
    std::fs::write(&path, b"{\"default\": \"\xff\"}").unwrap();
    let e = script_client(&path).unwrap_err();
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    assert!(e.to_string().contains("UTF-8"), "{e}");
}

#[test]
fn a_missing_script_file_is_named() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("baton-llm-no-such-script.json");
    let e = script_client(&path).unwrap_err();
    assert!(matches!(e, ConfigError::ScriptRead { .. }), "{e:?}");
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");

    // The script provider without any file is a configuration error naming the key.
    let cfg = LlmConfig {
        provider: ProviderKind::Script,
        ..LlmConfig::default()
    };
    let e = Client::from_config_with_env(&cfg, None, &env_of(&[])).unwrap_err();
    assert!(e.to_string().contains("llm.script"), "{e}");
}
