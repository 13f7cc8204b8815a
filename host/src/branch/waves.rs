//! `n="auto"`: the wave rule, priors, and the per-call-site figures runs record for
//! `baton priors`.

use baton_llm::{Headroom, Spent};
use serde_json::Value;

use super::MAX_BRANCHES;
use crate::calls::PlanError;
use crate::priors::Prior;

impl Prior {
    pub(super) fn from_plan(value: &Value) -> Result<Prior, PlanError> {
        let prior: Prior = serde_json::from_value(value.clone()).map_err(|error| {
            PlanError::value_error(format!(
                "branch() argument 'priors' must be a dict of success, cost, tokens, calls, \
                 value and weight: {error}"
            ))
        })?;
        let finite = |x: f64| x.is_finite() && x >= 0.0;
        let valid = prior.success > 0.0
            && prior.success < 1.0
            && finite(prior.cost)
            && finite(prior.tokens)
            && finite(prior.calls)
            && prior.weight > 0.0
            && prior.weight.is_finite()
            && prior.value.is_none_or(finite);
        if !valid {
            return Err(PlanError::value_error(
                "branch() priors: success must be in (0, 1); cost, tokens, calls and value at \
                 least 0; weight more than 0",
            ));
        }
        Ok(prior)
    }
}

/// The wave rule of `n="auto"` (docs/abi.md, "Branches"): each wave is the smallest number of
/// attempts that gives a valid one with probability [`Waves::TARGET`] at the current estimate
/// of the success rate, capped by `max_parallel` (default [`Waves::MAX_WAVE`]), by what the
/// budget's headroom can pay at the expected cost per attempt, and, with a `value`, to the
/// attempts whose expected gain covers their cost. It stops when a wave gives a valid result,
/// when the budget cannot pay one more attempt, when one more attempt is not worth its cost,
/// or after [`Waves::MAX_WAVES`] waves.
pub(super) struct Waves {
    pub(super) prior: Prior,
    pub(super) cap: usize,
    pub(super) waves: usize,
}

impl Waves {
    pub(super) const TARGET: f64 = 0.9;
    pub(super) const MAX_WAVE: usize = 16;
    pub(super) const MAX_WAVES: usize = 8;

    pub(super) fn new(prior: Prior, max_parallel: Option<usize>) -> Waves {
        Waves {
            prior,
            cap: max_parallel.unwrap_or(Self::MAX_WAVE).max(1),
            waves: 0,
        }
    }

    /// The estimated success rate after `attempts` attempts, none of them valid.
    pub(super) fn success(&self, attempts: usize) -> f64 {
        let p = self.prior.success.clamp(1e-3, 1.0 - 1e-3);
        p * self.prior.weight / (self.prior.weight + attempts as f64)
    }

    /// The next wave's size, or why there is none. `spent`: what this call's branches spent.
    pub(super) fn next(
        &mut self,
        room: Headroom,
        spent: Spent,
        attempts: usize,
    ) -> Result<usize, String> {
        if self.waves >= Self::MAX_WAVES {
            return Err(format!(
                "{} waves ran without a valid result",
                Self::MAX_WAVES
            ));
        }
        let p = self.success(attempts);
        // Per attempt: what the attempts so far spent on average, else the prior.
        let per = |observed: f64, prior: f64| {
            if attempts > 0 && observed > 0.0 {
                observed / attempts as f64
            } else {
                prior
            }
        };
        let cost = per(spent.cost_usd, self.prior.cost);
        let tokens = per(spent.tokens() as f64, self.prior.tokens);
        let calls = per(spent.calls as f64, self.prior.calls);
        let mut affordable = f64::INFINITY;
        let mut bounded = false;
        for (left, each) in [
            (room.cost_usd, cost),
            (room.tokens.map(|t| t as f64), tokens),
            (room.calls.map(|c| c as f64), calls),
        ] {
            if let Some(left) = left {
                bounded = true;
                if each > 0.0 {
                    affordable = affordable.min((left / each).floor());
                } else if left <= 0.0 {
                    affordable = 0.0;
                }
            }
        }
        if bounded && affordable < 1.0 {
            return Err("the budget cannot pay for another attempt".to_string());
        }
        let needed = ((1.0 - Self::TARGET).ln() / (1.0 - p).ln()).ceil().max(1.0);
        let mut size = needed.min(self.cap as f64).min(affordable);
        size = size.min((MAX_BRANCHES as usize).saturating_sub(attempts) as f64);
        if let Some(value) = self.prior.value {
            // The k-th attempt of a wave adds p (1-p)^(k-1) x value of expected gain.
            let mut worth = 0.0;
            while worth < size && p * (1.0 - p).powf(worth) * value >= cost {
                worth += 1.0;
            }
            if worth < 1.0 {
                return Err(format!(
                    "one more attempt is not worth its cost (success {p:.3} x value {value} < \
                     cost {cost})"
                ));
            }
            size = worth;
        }
        if size < 1.0 {
            return Err("no attempts left".to_string());
        }
        self.waves += 1;
        Ok(size as usize)
    }
}
