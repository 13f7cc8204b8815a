//! Budgets through `Client::complete` against the fake server: refusals happen before any
//! request, children draw from their parents, and concurrent calls never overshoot a cap.

mod support;

use std::time::Duration;

use baton_llm::{
    input_upper_bound, Budget, BudgetCaps, BudgetKind, Client, LlmConfig, LlmError, Price, Request,
    Usage,
};
use support::{client, config, ok, within, Action, FakeServer};

/// Output cap of the test configuration (`support::config`).
const MAX_TOKENS: u64 = 100;

fn hi() -> Request {
    Request::new("hi", None)
}

/// The reservation of `req` under the test configuration: input bound plus max_tokens.
fn worst(req: &Request) -> u64 {
    input_upper_bound(&req.messages) + req.max_tokens.map_or(MAX_TOKENS, u64::from)
}

fn caps(calls: Option<u64>, tokens: Option<u64>, cost: Option<f64>) -> BudgetCaps {
    BudgetCaps {
        max_calls: calls,
        max_tokens: tokens,
        max_cost_usd: cost,
    }
}

const PRICE: Price = Price {
    input_per_million: 1000.0,
    output_per_million: 2000.0,
};

fn priced_config(base_url: &str) -> LlmConfig {
    let mut cfg = config(base_url);
    cfg.prices.insert("test-model".into(), PRICE);
    cfg
}

fn worst_cost(req: &Request) -> f64 {
    PRICE.cost(Usage {
        input_tokens: input_upper_bound(&req.messages),
        output_tokens: req.max_tokens.map_or(MAX_TOKENS, u64::from),
    })
}

fn assert_refused(e: &LlmError, kind: BudgetKind, limit: f64) {
    match e {
        LlmError::BudgetExceeded {
            budget, limit: l, ..
        } => {
            assert_eq!(*budget, kind, "{e}");
            assert!((l - limit).abs() < 1e-12, "{e}");
        }
        other => panic!("expected a {kind} refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn worst_case_over_a_cap_is_refused_before_any_request() {
    let server = FakeServer::start(|_, _| ok("ok", 1, 1)).await;
    let client = client(&priced_config(&server.base_url()), None);
    let w = worst(&hi());
    // The worst case is the input bound (4 + 2 bytes + 8 + 8 overheads) plus max_tokens.
    assert_eq!(w, 22 + MAX_TOKENS);

    // Tokens: one short of the worst case.
    let b = Budget::new(caps(None, Some(w - 1), None));
    let e = within(client.complete(&b, hi())).await.unwrap_err();
    assert!(
        matches!(e, LlmError::BudgetExceeded { budget: BudgetKind::Tokens, limit, used, requested }
            if limit == (w - 1) as f64 && used == 0.0 && requested == w as f64),
        "{e:?}"
    );
    // The plan's own max_tokens is what is reserved.
    let b2 = Budget::new(caps(None, Some(w), None));
    let big = hi().with_max_tokens(101);
    let e = within(client.complete(&b2, big)).await.unwrap_err();
    assert_refused(&e, BudgetKind::Tokens, w as f64);

    // Calls.
    let e = within(client.complete(&Budget::new(caps(Some(0), None, None)), hi()))
        .await
        .unwrap_err();
    assert_refused(&e, BudgetKind::Calls, 0.0);

    // Cost: the worst case priced at the model's price.
    let wc = worst_cost(&hi());
    assert!((wc - (22.0 * 1000.0 + 100.0 * 2000.0) / 1e6).abs() < 1e-12);
    let e = within(client.complete(&Budget::new(caps(None, None, Some(wc * 0.99))), hi()))
        .await
        .unwrap_err();
    assert_refused(&e, BudgetKind::Cost, wc * 0.99);

    assert_eq!(server.count(), 0, "a refused call reached the server");
    // Refusals are not calls.
    assert_eq!(b.spent().calls, 0);
    assert_eq!(b2.spent().calls, 0);

    // Exactly the worst case fits, for every kind of cap.
    let exact = Budget::new(caps(Some(1), Some(w), Some(wc)));
    let reply = within(client.complete(&exact, hi())).await.unwrap();
    assert_eq!(server.count(), 1);
    // Settled to the actual usage and its cost.
    assert_eq!(exact.spent().tokens(), 2);
    assert!((exact.spent().cost_usd - reply.cost_usd).abs() < 1e-15);
    assert!((reply.cost_usd - 3000.0 / 1e6).abs() < 1e-15);
    // The calls cap is now used up.
    let e = within(client.complete(&exact, hi())).await.unwrap_err();
    assert_refused(&e, BudgetKind::Calls, 1.0);
    assert_eq!(server.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unpriced_models_cost_nothing_and_are_counted() {
    let server = FakeServer::start(|_, _| ok("ok", 5, 5)).await;
    let client = client(&priced_config(&server.base_url()), None);
    let b = Budget::new(caps(None, None, Some(0.0)));
    let reply = within(client.complete(&b, hi().with_model("free-model")))
        .await
        .unwrap();
    assert!(!reply.priced);
    assert_eq!(reply.cost_usd, 0.0);
    assert_eq!(b.spent().unpriced_calls, 1);
    assert_eq!(b.spent().cost_usd, 0.0);
    // A priced model cannot fit a zero cost cap.
    let e = within(client.complete(&b, hi())).await.unwrap_err();
    assert_refused(&e, BudgetKind::Cost, 0.0);
    assert_eq!(server.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_are_priced_by_the_requested_name_only() {
    // The server answers as `served-model`, which has a price; the requested name has none, so
    // nothing was reserved, and charging the served price could overshoot a cost cap.
    let server = FakeServer::start(|_, _| ok("ok", 5, 5)).await;
    let mut cfg = config(&server.base_url());
    cfg.prices.insert("served-model".into(), PRICE);
    let client = client(&cfg, None);
    let b = Budget::new(caps(None, None, Some(0.0)));
    let reply = within(client.complete(&b, hi())).await.unwrap();
    assert_eq!(reply.model, "served-model");
    assert!(!reply.priced);
    assert_eq!(b.spent().cost_usd, 0.0);
    assert_eq!(b.spent().unpriced_calls, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_draw_from_their_parent() {
    let server = FakeServer::start(|_, _| ok("ok", 10, 5)).await;
    let client = client(&config(&server.base_url()), None);
    let w = worst(&hi());
    let run = Budget::new(caps(None, Some(w + 10), None));
    let a = run.child(BudgetCaps::unlimited());
    let tight = run.child(caps(None, Some(w - 1), None));
    let sibling = run.child(BudgetCaps::unlimited());

    // The child's own cap refuses first, and leaves nothing at the parent.
    let e = within(client.complete(&tight, hi())).await.unwrap_err();
    assert_refused(&e, BudgetKind::Tokens, (w - 1) as f64);
    assert_eq!(run.spent().calls, 0);

    // A child's call counts at the child and at the parent, not at a sibling.
    within(client.complete(&a, hi())).await.unwrap();
    assert_eq!(a.spent().tokens(), 15);
    assert_eq!(run.spent().tokens(), 15);
    assert_eq!(run.spent().calls, 1);
    assert_eq!(sibling.spent().calls, 0);

    // The parent has w + 10 - 15 left, less than a worst case: the uncapped sibling, and a
    // grandchild through its uncapped parent, are refused by the run's cap.
    let e = within(client.complete(&sibling, hi())).await.unwrap_err();
    assert_refused(&e, BudgetKind::Tokens, (w + 10) as f64);
    let grandchild = a.child(BudgetCaps::unlimited());
    let e = within(client.complete(&grandchild, hi()))
        .await
        .unwrap_err();
    assert_refused(&e, BudgetKind::Tokens, (w + 10) as f64);
    assert_eq!(server.count(), 1);

    // A child's calls cap is its own.
    let run = Budget::unlimited();
    let one = run.child(caps(Some(1), None, None));
    within(client.complete(&one, hi())).await.unwrap();
    let e = within(client.complete(&one, hi())).await.unwrap_err();
    assert_refused(&e, BudgetKind::Calls, 1.0);
    within(client.complete(&run, hi())).await.unwrap();
    assert_eq!(run.spent().calls, 2);
    assert_eq!(one.spent().calls, 1);
}

/// Spawns `n` concurrent calls, the i-th charged to `budgets[i % budgets.len()]`, and returns
/// how many succeeded and how many were refused by a budget (anything else fails the test).
async fn race(client: &Client, budgets: &[Budget], n: usize) -> (usize, usize) {
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let client = client.clone();
            let budget = budgets[i % budgets.len()].clone();
            tokio::spawn(async move { client.complete(&budget, hi()).await })
        })
        .collect();
    let (mut done, mut refused) = (0, 0);
    for t in tasks {
        match within(t).await.unwrap() {
            Ok(_) => done += 1,
            Err(LlmError::BudgetExceeded { .. }) => refused += 1,
            Err(e) => panic!("unexpected failure: {e}"),
        }
    }
    (done, refused)
}

/// A server that reports exactly the worst case as usage: settling then frees nothing, so a cap
/// that allows five worst cases allows exactly five calls however they interleave.
fn worst_case_server_usage() -> impl Fn(usize, &support::Recorded) -> Action {
    let input = input_upper_bound(&hi().messages);
    move |_, _| ok("ok", input, MAX_TOKENS).with_delay(Duration::from_millis(50))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_never_overshoot_a_calls_cap() {
    let server =
        FakeServer::start(|_, _| ok("ok", 1, 1).with_delay(Duration::from_millis(50))).await;
    let client = client(&config(&server.base_url()), None);
    let b = Budget::new(caps(Some(5), None, None));
    let (done, refused) = race(&client, std::slice::from_ref(&b), 20).await;
    assert_eq!((done, refused), (5, 15));
    assert_eq!(server.count(), 5);
    assert_eq!(b.spent().calls, 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_never_overshoot_a_tokens_cap() {
    let server = FakeServer::start(worst_case_server_usage()).await;
    let client = client(&config(&server.base_url()), None);
    let w = worst(&hi());
    let b = Budget::new(caps(None, Some(5 * w), None));
    let (done, refused) = race(&client, std::slice::from_ref(&b), 20).await;
    assert_eq!((done, refused), (5, 15));
    assert_eq!(server.count(), 5);
    assert_eq!(b.spent().tokens(), 5 * w);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_never_overshoot_a_cost_cap() {
    let server = FakeServer::start(worst_case_server_usage()).await;
    let client = client(&priced_config(&server.base_url()), None);
    let wc = worst_cost(&hi());
    let b = Budget::new(caps(None, None, Some(5.0 * wc)));
    let (done, refused) = race(&client, std::slice::from_ref(&b), 20).await;
    assert_eq!((done, refused), (5, 15));
    assert_eq!(server.count(), 5);
    assert!(b.spent().cost_usd <= 5.0 * wc + 1e-12, "{:?}", b.spent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_children_never_overshoot_their_parent() {
    let server = FakeServer::start(worst_case_server_usage()).await;
    let client = client(&config(&server.base_url()), None);
    let w = worst(&hi());
    let run = Budget::new(caps(None, Some(5 * w), None));
    let children: Vec<Budget> = (0..4).map(|_| run.child(BudgetCaps::unlimited())).collect();
    let (done, refused) = race(&client, &children, 20).await;
    assert_eq!((done, refused), (5, 15));
    assert_eq!(server.count(), 5);
    assert_eq!(run.spent().tokens(), 5 * w);
    let sum: u64 = children.iter().map(|c| c.spent().tokens()).sum();
    assert_eq!(sum, 5 * w);
    let calls: u64 = children.iter().map(|c| c.spent().calls).sum();
    assert_eq!(calls, 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reservations_bound_the_calls_in_flight() {
    // Actual usage is far below the worst case, so settled calls free room and more than five
    // calls may run in total; but never more than five worst cases at once, and never more
    // spent than the cap.
    let server =
        FakeServer::start(|_, _| ok("ok", 1, 1).with_delay(Duration::from_millis(50))).await;
    let client = client(&config(&server.base_url()), None);
    let w = worst(&hi());
    let b = Budget::new(caps(None, Some(5 * w), None));
    let (done, refused) = race(&client, std::slice::from_ref(&b), 20).await;
    assert_eq!(done + refused, 20);
    assert!(done >= 5, "{done}");
    assert_eq!(server.count(), done);
    assert!(server.max_in_flight() <= 5, "{}", server.max_in_flight());
    assert!(b.spent().tokens() <= 5 * w);
    assert_eq!(b.spent().tokens(), 2 * done as u64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_over_the_worst_case_is_recorded_and_refuses_later_calls() {
    let server = FakeServer::start(|_, _| ok("ok", 5000, 5000)).await;
    let client = client(&config(&server.base_url()), None);
    let b = Budget::new(caps(None, Some(1000), None));
    let reply = within(client.complete(&b, hi())).await.unwrap();
    assert_eq!(reply.usage.total(), 10_000);
    assert_eq!(b.spent().tokens(), 10_000);
    let e = within(client.complete(&b, hi())).await.unwrap_err();
    assert_refused(&e, BudgetKind::Tokens, 1000.0);
    assert_eq!(server.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_and_cancelled_calls_count_without_tokens() {
    let server = FakeServer::start(|_, r| {
        let body = String::from_utf8_lossy(&r.body).into_owned();
        if body.contains("hang") {
            Action::Hang
        } else if body.contains("reject") {
            Action::status(400, "no")
        } else {
            ok("ok", 1, 1)
        }
    })
    .await;
    let client = client(&config(&server.base_url()), None);
    // Room for one worst case at a time ("reject" is the longest prompt used).
    let w = worst(&Request::new("reject", None));
    let b = Budget::new(caps(None, Some(w), None));

    // A rejected call: a call, no tokens, and its reservation is released.
    let e = within(client.complete(&b, Request::new("reject", None)))
        .await
        .unwrap_err();
    assert!(matches!(e, LlmError::Rejected { status: 400, .. }), "{e:?}");
    assert_eq!((b.spent().calls, b.spent().tokens()), (1, 0));

    // A call whose future is dropped while the server hangs.
    let hung = tokio::time::timeout(
        Duration::from_millis(300),
        client.complete(&b, Request::new("hang", None)),
    )
    .await;
    assert!(hung.is_err(), "the hanging call finished: {hung:?}");
    assert_eq!((b.spent().calls, b.spent().tokens()), (2, 0));

    // Both reservations are gone: a full worst case fits again.
    within(client.complete(&b, Request::new("okay", None)))
        .await
        .unwrap();
    assert_eq!((b.spent().calls, b.spent().tokens()), (3, 2));
}
