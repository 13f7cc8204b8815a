//! Model prices and what a call costs.

use std::collections::BTreeMap;

use crate::request::Usage;

/// Price of one model, in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// USD per million input (prompt) tokens.
    pub input_per_million: f64,
    /// USD per million output (completion) tokens.
    pub output_per_million: f64,
}

impl Price {
    /// The cost of `usage` at this price.
    pub fn cost(&self, usage: Usage) -> f64 {
        // u64 -> f64 loses precision only beyond 2^53 tokens, far past any budget.
        (usage.input_tokens as f64 * self.input_per_million
            + usage.output_tokens as f64 * self.output_per_million)
            / 1_000_000.0
    }

    /// True when both prices are finite and not negative.
    pub fn is_valid(&self) -> bool {
        [self.input_per_million, self.output_per_million]
            .iter()
            .all(|p| p.is_finite() && *p >= 0.0)
    }
}

/// Prices by model name, exact match.
pub type PriceTable = BTreeMap<String, Price>;

/// The cost of `usage` on `model`, or `None` when the model has no price (it then costs 0).
pub fn cost_of(prices: &PriceTable, model: &str, usage: Usage) -> Option<f64> {
    prices.get(model).map(|p| p.cost(usage))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_is_per_million() {
        let p = Price {
            input_per_million: 0.15,
            output_per_million: 0.60,
        };
        let c = p.cost(Usage {
            input_tokens: 1_000_000,
            output_tokens: 500_000,
        });
        assert!((c - 0.45).abs() < 1e-12, "{c}");
        let mut table = PriceTable::new();
        table.insert("m".into(), p);
        assert!(cost_of(&table, "m", Usage::default()).is_some());
        assert!(cost_of(&table, "other", Usage::default()).is_none());
        assert!(p.is_valid());
        assert!(!Price {
            input_per_million: f64::NAN,
            output_per_million: 0.0
        }
        .is_valid());
    }
}
