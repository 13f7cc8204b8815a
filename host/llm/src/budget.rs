//! Nested budgets for model calls: reserve the worst case before a call, settle to the actual
//! usage after it.
//!
//! Each budget is a node holding its caps, its spending and what calls in flight have reserved;
//! a child points at its parent. A reservation locks the node and all its ancestors (always
//! child before parent, so two reservations can never wait on each other in a cycle), checks
//! every cap on the way up, and commits to all of them or none. That is what keeps many
//! concurrent calls from overshooting a cap at any level.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::{BudgetKind, LlmError};
use crate::request::Usage;

/// Caps of one budget; `None` means no cap. Also the `[budget]` table of `baton.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BudgetCaps {
    /// Most model calls.
    pub max_calls: Option<u64>,
    /// Most tokens, input plus output.
    pub max_tokens: Option<u64>,
    /// Most cost in USD (only priced models cost anything).
    pub max_cost_usd: Option<f64>,
}

/// The `[budget]` table of `baton.toml`.
pub type BudgetConfig = BudgetCaps;

impl BudgetCaps {
    /// No caps at all.
    pub fn unlimited() -> Self {
        BudgetCaps::default()
    }

    /// Checks the caps as configuration: a cost cap must be a finite number, not negative.
    pub fn validate(&self) -> Result<(), crate::error::ConfigError> {
        if let Some(c) = self.max_cost_usd {
            if !c.is_finite() || c < 0.0 {
                return Err(crate::error::ConfigError::Invalid {
                    field: "budget.max_cost_usd".into(),
                    reason: format!("{c} is not a finite number >= 0"),
                });
            }
        }
        Ok(())
    }

    /// A cost cap that is NaN or negative would compare false against everything and so never
    /// refuse; fail closed instead.
    fn sanitized(mut self) -> Self {
        if let Some(c) = self.max_cost_usd {
            if !c.is_finite() || c < 0.0 {
                self.max_cost_usd = Some(0.0);
            }
        }
        self
    }
}

/// What a budget may still spend ([`Budget::headroom`]); `None`: no cap.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Headroom {
    pub calls: Option<u64>,
    pub tokens: Option<u64>,
    pub cost_usd: Option<f64>,
}

/// What a budget has spent (settled calls only).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spent {
    /// Calls made, including failed ones.
    pub calls: u64,
    /// Input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Cost in USD.
    pub cost_usd: f64,
    /// Successful calls to a model without a price (charged 0 USD).
    pub unpriced_calls: u64,
}

impl std::ops::Add for Spent {
    type Output = Spent;

    /// Two amounts spent together (a planner's and its runs', `baton plan`).
    fn add(self, other: Spent) -> Spent {
        Spent {
            calls: self.calls + other.calls,
            input_tokens: self.input_tokens + other.input_tokens,
            output_tokens: self.output_tokens + other.output_tokens,
            cost_usd: self.cost_usd + other.cost_usd,
            unpriced_calls: self.unpriced_calls + other.unpriced_calls,
        }
    }
}

impl Spent {
    /// Input plus output tokens.
    pub fn tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// The worst case one call may spend.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Amount {
    pub tokens: u64,
    pub cost_usd: f64,
}

#[derive(Debug, Default)]
struct State {
    spent: Spent,
    reserved_calls: u64,
    reserved_tokens: u64,
    reserved_cost: f64,
}

#[derive(Debug)]
struct Node {
    caps: BudgetCaps,
    parent: Option<Arc<Node>>,
    state: Mutex<State>,
}

/// A budget for model calls. Cloning gives another handle to the same budget.
#[derive(Debug, Clone)]
pub struct Budget {
    node: Arc<Node>,
}

/// Floating-point sums of costs drift by a few ulps; a call that fits exactly must not be
/// refused for that.
const COST_TOLERANCE: f64 = 1e-12;

fn lock(node: &Node) -> MutexGuard<'_, State> {
    // No code panics while holding the lock, but a poisoned lock must not take the host down.
    node.state.lock().unwrap_or_else(|e| e.into_inner())
}

impl Budget {
    /// A top-level budget (one per run).
    pub fn new(caps: BudgetCaps) -> Self {
        Budget {
            node: Arc::new(Node {
                caps: caps.sanitized(),
                parent: None,
                state: Mutex::new(State::default()),
            }),
        }
    }

    /// A budget without caps.
    pub fn unlimited() -> Self {
        Budget::new(BudgetCaps::unlimited())
    }

    /// A budget that draws from this one: its calls count against its own caps and against every
    /// ancestor's. Use it to give a branch its own sub-cap.
    pub fn child(&self, caps: BudgetCaps) -> Budget {
        Budget {
            node: Arc::new(Node {
                caps: caps.sanitized(),
                parent: Some(self.node.clone()),
                state: Mutex::new(State::default()),
            }),
        }
    }

    /// This budget's own caps.
    pub fn caps(&self) -> BudgetCaps {
        self.node.caps
    }

    /// What this budget (with all its descendants) has spent on settled calls.
    pub fn spent(&self) -> Spent {
        lock(&self.node).spent
    }

    /// What is left before a cap, the tightest over this budget and its ancestors (spent and
    /// reserved amounts both count); `None` where nothing is capped.
    pub fn headroom(&self) -> Headroom {
        let mut room = Headroom::default();
        for (node, st) in self.lock_chain() {
            let spent = &st.spent;
            if let Some(cap) = node.caps.max_calls {
                let left = cap.saturating_sub(spent.calls.saturating_add(st.reserved_calls));
                room.calls = Some(room.calls.map_or(left, |r| r.min(left)));
            }
            if let Some(cap) = node.caps.max_tokens {
                let used = spent.tokens().saturating_add(st.reserved_tokens);
                let left = cap.saturating_sub(used);
                room.tokens = Some(room.tokens.map_or(left, |r| r.min(left)));
            }
            if let Some(cap) = node.caps.max_cost_usd {
                let left = (cap - spent.cost_usd - st.reserved_cost).max(0.0);
                room.cost_usd = Some(room.cost_usd.map_or(left, |r| r.min(left)));
            }
        }
        room
    }

    /// Records a call made elsewhere (e.g. replayed from a journal) without checking caps, at
    /// this budget and all its ancestors.
    pub fn charge(&self, usage: Usage, cost_usd: f64, priced: bool) {
        let mut guards = self.lock_chain();
        for g in guards.iter_mut() {
            add_spent(&mut g.1, usage, cost_usd, priced);
        }
    }

    fn chain(&self) -> Vec<&Node> {
        let mut nodes = vec![&*self.node];
        let mut cur = &self.node;
        while let Some(p) = &cur.parent {
            nodes.push(&**p);
            cur = p;
        }
        nodes
    }

    fn lock_chain(&self) -> Vec<(&Node, MutexGuard<'_, State>)> {
        self.chain().into_iter().map(|n| (n, lock(n))).collect()
    }

    /// Reserves one call of up to `amount`, or refuses without reserving anything.
    pub(crate) fn reserve(&self, amount: Amount) -> Result<Reservation, LlmError> {
        let mut guards = self.lock_chain();
        for (node, st) in guards.iter() {
            check(node.caps, st, amount)?;
        }
        for (_, st) in guards.iter_mut() {
            st.reserved_calls = st.reserved_calls.saturating_add(1);
            st.reserved_tokens = st.reserved_tokens.saturating_add(amount.tokens);
            st.reserved_cost += amount.cost_usd;
        }
        drop(guards);
        Ok(Reservation {
            budget: self.clone(),
            amount,
            open: true,
        })
    }
}

fn check(caps: BudgetCaps, st: &State, amount: Amount) -> Result<(), LlmError> {
    if let Some(max) = caps.max_calls {
        let used = st.spent.calls.saturating_add(st.reserved_calls);
        if used.checked_add(1).is_none_or(|n| n > max) {
            return Err(LlmError::BudgetExceeded {
                budget: BudgetKind::Calls,
                limit: max as f64,
                used: used as f64,
                requested: 1.0,
            });
        }
    }
    if let Some(max) = caps.max_tokens {
        let used = st.spent.tokens().saturating_add(st.reserved_tokens);
        // Overflow means "more than any cap".
        if used.checked_add(amount.tokens).is_none_or(|n| n > max) {
            return Err(LlmError::BudgetExceeded {
                budget: BudgetKind::Tokens,
                limit: max as f64,
                used: used as f64,
                requested: amount.tokens as f64,
            });
        }
    }
    if let Some(max) = caps.max_cost_usd {
        let used = st.spent.cost_usd + st.reserved_cost;
        if used + amount.cost_usd > max + COST_TOLERANCE {
            return Err(LlmError::BudgetExceeded {
                budget: BudgetKind::Cost,
                limit: max,
                used,
                requested: amount.cost_usd,
            });
        }
    }
    Ok(())
}

fn add_spent(st: &mut State, usage: Usage, cost_usd: f64, priced: bool) {
    let s = &mut st.spent;
    s.calls = s.calls.saturating_add(1);
    s.input_tokens = s.input_tokens.saturating_add(usage.input_tokens);
    s.output_tokens = s.output_tokens.saturating_add(usage.output_tokens);
    if cost_usd.is_finite() && cost_usd > 0.0 {
        s.cost_usd += cost_usd;
    }
    if !priced {
        s.unpriced_calls = s.unpriced_calls.saturating_add(1);
    }
}

/// A call's worst case, held against its budget chain until settled. Dropping it unsettled (the
/// call failed or was cancelled) counts the call but no tokens or cost.
#[derive(Debug)]
pub(crate) struct Reservation {
    budget: Budget,
    amount: Amount,
    open: bool,
}

impl Reservation {
    /// The worst case reserved.
    pub(crate) fn amount(&self) -> Amount {
        self.amount
    }

    /// Replaces the reservation by the call's actual spending.
    pub(crate) fn settle(mut self, usage: Usage, cost_usd: f64, priced: bool) {
        self.close(Some((usage, cost_usd, priced)));
    }

    fn close(&mut self, spent: Option<(Usage, f64, bool)>) {
        if !self.open {
            return;
        }
        self.open = false;
        let mut guards = self.budget.lock_chain();
        for (_, st) in guards.iter_mut() {
            st.reserved_calls = st.reserved_calls.saturating_sub(1);
            st.reserved_tokens = st.reserved_tokens.saturating_sub(self.amount.tokens);
            // Repeated float subtraction drifts; with no call in flight the exact value is 0.
            st.reserved_cost = if st.reserved_calls == 0 {
                0.0
            } else {
                (st.reserved_cost - self.amount.cost_usd).max(0.0)
            };
            match spent {
                Some((usage, cost, priced)) => add_spent(st, usage, cost, priced),
                None => st.spent.calls = st.spent.calls.saturating_add(1),
            }
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.close(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(calls: Option<u64>, tokens: Option<u64>, cost: Option<f64>) -> BudgetCaps {
        BudgetCaps {
            max_calls: calls,
            max_tokens: tokens,
            max_cost_usd: cost,
        }
    }

    fn amount(tokens: u64, cost: f64) -> Amount {
        Amount {
            tokens,
            cost_usd: cost,
        }
    }

    fn usage(i: u64, o: u64) -> Usage {
        Usage {
            input_tokens: i,
            output_tokens: o,
        }
    }

    #[test]
    fn reserve_then_settle_to_actual() {
        let b = Budget::new(caps(None, Some(100), None));
        let r = b.reserve(amount(80, 0.0)).unwrap();
        // In flight, the reservation blocks a second worst case.
        let err = b.reserve(amount(30, 0.0)).unwrap_err();
        assert!(matches!(
            err,
            LlmError::BudgetExceeded { budget: BudgetKind::Tokens, limit, used, requested }
                if limit == 100.0 && used == 80.0 && requested == 30.0
        ));
        r.settle(usage(10, 5), 0.0, true);
        assert_eq!(b.spent().tokens(), 15);
        assert_eq!(b.spent().calls, 1);
        b.reserve(amount(85, 0.0))
            .unwrap()
            .settle(usage(1, 1), 0.0, true);
        // 17 spent: 83 still fits, 84 does not.
        assert!(b.reserve(amount(84, 0.0)).is_err());
        assert!(b.reserve(amount(83, 0.0)).is_ok());
    }

    #[test]
    fn calls_cap_is_exact_and_drop_counts_a_call() {
        let b = Budget::new(caps(Some(2), None, None));
        let r1 = b.reserve(amount(1, 0.0)).unwrap();
        drop(r1);
        assert_eq!(b.spent().calls, 1);
        assert_eq!(b.spent().tokens(), 0);
        b.reserve(amount(1, 0.0))
            .unwrap()
            .settle(usage(1, 1), 0.0, true);
        let err = b.reserve(amount(1, 0.0)).unwrap_err();
        assert!(err.to_string().contains("calls limit 2"), "{err}");
    }

    #[test]
    fn cost_cap_and_unpriced_calls() {
        let b = Budget::new(caps(None, None, Some(1.0)));
        b.reserve(amount(10, 0.6))
            .unwrap()
            .settle(usage(5, 5), 0.5, true);
        assert!(matches!(
            b.reserve(amount(10, 0.6)).unwrap_err(),
            LlmError::BudgetExceeded {
                budget: BudgetKind::Cost,
                ..
            }
        ));
        // Exactly the remainder fits despite float rounding.
        b.reserve(amount(10, 0.5))
            .unwrap()
            .settle(usage(1, 1), 0.0, false);
        assert_eq!(b.spent().unpriced_calls, 1);
        assert!((b.spent().cost_usd - 0.5).abs() < 1e-12);
    }

    #[test]
    fn child_draws_from_parent_and_has_its_own_cap() {
        let run = Budget::new(caps(None, Some(100), None));
        let a = run.child(caps(None, Some(60), None));
        let b = run.child(BudgetCaps::unlimited());
        // The child's own cap refuses first.
        assert!(a.reserve(amount(61, 0.0)).is_err());
        a.reserve(amount(50, 0.0))
            .unwrap()
            .settle(usage(30, 20), 0.0, true);
        assert_eq!(run.spent().tokens(), 50);
        assert_eq!(a.spent().tokens(), 50);
        assert_eq!(b.spent().tokens(), 0);
        // The sibling has no cap of its own but the parent's remainder is 50.
        let err = b.reserve(amount(51, 0.0)).unwrap_err();
        assert!(matches!(err, LlmError::BudgetExceeded { limit, .. } if limit == 100.0));
        // A refusal at the parent leaves nothing reserved at the child.
        let r = b.reserve(amount(50, 0.0)).unwrap();
        drop(r);
        assert_eq!(b.spent().calls, 1);
        let grandchild = a.child(caps(Some(0), None, None));
        assert!(grandchild.reserve(amount(1, 0.0)).is_err());
    }

    #[test]
    fn invalid_cost_cap_fails_closed() {
        let b = Budget::new(caps(None, None, Some(f64::NAN)));
        assert!(b.reserve(amount(1, 0.01)).is_err());
        assert!(caps(None, None, Some(-1.0)).validate().is_err());
        assert!(caps(None, None, Some(1.0)).validate().is_ok());
    }

    #[test]
    fn charge_records_without_checking() {
        let run = Budget::new(caps(Some(1), None, None));
        let child = run.child(BudgetCaps::unlimited());
        child.charge(usage(3, 4), 0.25, true);
        child.charge(usage(3, 4), 0.25, true);
        assert_eq!(run.spent().calls, 2);
        assert_eq!(run.spent().tokens(), 14);
        assert!(child.reserve(amount(1, 0.0)).is_err());
    }

    #[test]
    fn huge_numbers_saturate() {
        let b = Budget::new(caps(None, Some(u64::MAX), None));
        b.reserve(amount(u64::MAX, 0.0)).unwrap().settle(
            usage(u64::MAX, u64::MAX),
            f64::INFINITY,
            true,
        );
        assert_eq!(b.spent().tokens(), u64::MAX);
        assert_eq!(b.spent().cost_usd, 0.0);
        assert!(b.reserve(amount(1, 0.0)).is_err());
    }

    #[test]
    fn concurrent_reservations_never_overshoot() {
        let run = Budget::new(caps(None, Some(1000), None));
        let children: Vec<Budget> = (0..4).map(|_| run.child(BudgetCaps::unlimited())).collect();
        std::thread::scope(|s| {
            for c in &children {
                s.spawn(move || {
                    for _ in 0..200 {
                        if let Ok(r) = c.reserve(amount(7, 0.0)) {
                            r.settle(usage(3, 4), 0.0, true);
                        }
                    }
                });
            }
        });
        let spent = run.spent();
        assert!(spent.tokens() <= 1000, "{spent:?}");
        // Every reservation was a worst case equal to the actual, so the cap fills up exactly
        // to the largest multiple of 7 below it.
        assert_eq!(spent.tokens(), 994);
        let sum: u64 = children.iter().map(|c| c.spent().tokens()).sum();
        assert_eq!(sum, 994);
    }
}
