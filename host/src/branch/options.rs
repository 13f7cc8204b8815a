//! The options of a `baton.branch` request, checked with Python-like messages.

use std::sync::Arc;

use baton_llm::BudgetCaps;
use serde_json::Value;

use super::waves::Waves;
use super::MAX_BRANCHES;
use crate::calls::{python_type, PlanError};
use crate::priors::Prior;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reduce {
    FirstValid,
    Best,
    All,
    Vote,
}

pub(super) struct Options {
    /// Branches to run (with `auto`: the first wave's upper bound is decided later).
    pub(super) count: usize,
    /// `n="auto"`: run the one callable in waves (see [`Waves`]).
    pub(super) auto: bool,
    pub(super) priors: Option<Prior>,
    /// The first callable's name, the key of learned priors.
    pub(super) site: String,
    pub(super) reduce: Reduce,
    pub(super) stop_early: bool,
    pub(super) max_parallel: usize,
    /// `max_parallel` as the plan gave it.
    pub(super) max_parallel_given: Option<usize>,
    pub(super) budget: BudgetCaps,
    pub(super) adopt: bool,
    /// The branches' names for people (trace, report, outcomes): the plan's `labels=`, else
    /// each callable's name; empty when the request has none.
    pub(super) labels: Vec<String>,
    pub(super) payload: Arc<Vec<u8>>,
}

impl Options {
    /// Branch `index`'s label: its own, or the one callable's for the waves of `n="auto"`.
    pub(super) fn label(&self, index: usize) -> Option<&str> {
        match self.labels.as_slice() {
            [only] => Some(only),
            labels => labels.get(index).map(String::as_str),
        }
    }
}

/// `labels`, as the runtime sends them (one str per branch, checked there with Python's
/// messages); a module that sends anything else gets a TypeError.
fn labels(request: &Value, count: usize) -> Result<Vec<String>, PlanError> {
    let wrong = || PlanError::type_error(format!("branch() request labels must be {count} strs"));
    match request.get("labels") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) if items.len() == count => items
            .iter()
            .map(|item| item.as_str().map(str::to_string).ok_or_else(wrong))
            .collect(),
        Some(_) => Err(wrong()),
    }
}

pub(super) fn bool_option(request: &Value, name: &str, default: bool) -> Result<bool, PlanError> {
    match request.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(PlanError::type_error(format!(
            "branch() argument '{name}' must be bool, not {}",
            python_type(other)
        ))),
    }
}

pub(super) fn options(request: &Value) -> Result<Options, PlanError> {
    let count = match request.get("count").and_then(Value::as_u64) {
        Some(n) if (1..=MAX_BRANCHES).contains(&n) => n as usize,
        Some(0) => {
            return Err(PlanError::value_error(
                "branch() needs at least one callable",
            ))
        }
        Some(n) => {
            return Err(PlanError::value_error(format!(
                "branch() may start at most {MAX_BRANCHES} branches at once, not {n}"
            )))
        }
        None => return Err(PlanError::type_error("branch() request has no count")),
    };
    let reduce = match request.get("reduce").and_then(Value::as_str) {
        None | Some("first_valid") => Reduce::FirstValid,
        Some("best") => Reduce::Best,
        Some("all") => Reduce::All,
        Some("vote") => Reduce::Vote,
        Some(other) => {
            return Err(PlanError::value_error(format!(
                "branch() argument 'reduce' must be 'first_valid', 'best', 'all', 'vote' or a \
                 function, not '{other}'"
            )))
        }
    };
    let max_parallel = match request.get("max_parallel") {
        None | Some(Value::Null) => count,
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n >= 1) => {
            n.as_u64().map_or(count, |n| n.min(count as u64) as usize)
        }
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => {
            return Err(PlanError::value_error(format!(
                "branch() argument 'max_parallel' must be at least 1, not {n}"
            )))
        }
        Some(other) => {
            return Err(PlanError::type_error(format!(
                "branch() argument 'max_parallel' must be int, not {}",
                python_type(other)
            )))
        }
    };
    let payload = request
        .get("payload")
        .ok_or_else(|| PlanError::type_error("branch() request has no payload"))?;
    let auto = bool_option(request, "auto", false)?;
    if auto && reduce != Reduce::FirstValid {
        return Err(PlanError::value_error(
            "branch() with n='auto' stops at the first valid result: use reduce='first_valid'",
        ));
    }
    Ok(Options {
        count,
        auto,
        priors: match request.get("priors") {
            None | Some(Value::Null) => None,
            Some(value) => Some(Prior::from_plan(value)?),
        },
        site: request
            .get("site")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string(),
        reduce,
        stop_early: bool_option(request, "stop_early", true)?,
        max_parallel: if auto {
            Waves::MAX_WAVE.max(max_parallel)
        } else {
            max_parallel
        },
        max_parallel_given: match request.get("max_parallel") {
            Some(Value::Number(n)) => n.as_u64().map(|n| n as usize),
            _ => None,
        },
        budget: budget_caps(request.get("budget"))?,
        adopt: bool_option(request, "adopt", true)?,
        labels: labels(request, count)?,
        payload: Arc::new(serde_json::to_vec(payload).unwrap_or_default()),
    })
}

/// `budget=`: a number (USD), or a dict of `calls`, `tokens` and `cost` (each optional).
pub(super) fn budget_caps(value: Option<&Value>) -> Result<BudgetCaps, PlanError> {
    let wrong = |what: &Value| {
        PlanError::type_error(format!(
            "branch() argument 'budget' must be a number (USD) or a dict with 'calls', 'tokens' \
             and 'cost', not {}",
            python_type(what)
        ))
    };
    let cost = |value: &Value| -> Result<f64, PlanError> {
        match value.as_f64() {
            Some(c) if c.is_finite() && c >= 0.0 && !value.is_boolean() => Ok(c),
            Some(c) => Err(PlanError::value_error(format!(
                "branch() budget cost must be a number of USD, at least 0, not {c}"
            ))),
            None => Err(wrong(value)),
        }
    };
    let count = |name: &str, value: &Value| -> Result<u64, PlanError> {
        value.as_u64().ok_or_else(|| {
            PlanError::value_error(format!(
                "branch() budget '{name}' must be an int, at least 0, not {value}"
            ))
        })
    };
    match value {
        None | Some(Value::Null) => Ok(BudgetCaps::unlimited()),
        Some(Value::Number(_)) => Ok(BudgetCaps {
            max_cost_usd: Some(cost(value.unwrap_or(&Value::Null))?),
            ..BudgetCaps::unlimited()
        }),
        Some(Value::Object(map)) => {
            let mut caps = BudgetCaps::unlimited();
            for (key, value) in map {
                if value.is_null() {
                    continue;
                }
                match key.as_str() {
                    "calls" => caps.max_calls = Some(count(key, value)?),
                    "tokens" => caps.max_tokens = Some(count(key, value)?),
                    "cost" => caps.max_cost_usd = Some(cost(value)?),
                    other => {
                        return Err(PlanError::value_error(format!(
                            "branch() budget has no key '{other}' (it takes 'calls', 'tokens' \
                             and 'cost')"
                        )))
                    }
                }
            }
            Ok(caps)
        }
        Some(other) => Err(wrong(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn budgets_parse_with_messages() {
        assert_eq!(
            budget_caps(Some(&json!(0.5))).unwrap().max_cost_usd,
            Some(0.5)
        );
        let caps = budget_caps(Some(&json!({"calls": 3, "tokens": 100}))).unwrap();
        assert_eq!((caps.max_calls, caps.max_tokens), (Some(3), Some(100)));
        assert!(budget_caps(Some(&json!("lots")))
            .unwrap_err()
            .message
            .contains("not str"));
        assert!(budget_caps(Some(&json!({"dollars": 1})))
            .unwrap_err()
            .message
            .contains("no key 'dollars'"));
        assert!(budget_caps(Some(&json!(-1))).is_err());
    }
}
