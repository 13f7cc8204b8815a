//! Choosing among branches as they end: which one the reducer picks, whether the choice can
//! still change (for `stop_early`), and why nothing was chosen.

use std::collections::BTreeMap;

use serde_json::Value;

use super::options::Reduce;
use super::End;

/// The reducer's view while branches end: whether the result is known already.
pub(super) struct Decision<'a> {
    pub(super) reduce: Reduce,
    pub(super) ends: &'a [Option<End>],
    /// Branch indices in the order they ended.
    pub(super) order: &'a [usize],
}

impl Decision<'_> {
    /// The chosen branch among those that ended (for `all`: none).
    pub(super) fn chosen(&self) -> Option<usize> {
        let valid = |i: &usize| self.ends[*i].as_ref().is_some_and(End::is_valid);
        match self.reduce {
            Reduce::All => None,
            Reduce::FirstValid => self.order.iter().copied().find(|i| valid(i)),
            Reduce::Best => {
                let mut best: Option<(usize, Option<f64>)> = None;
                for index in (0..self.ends.len()).filter(valid) {
                    let score = match &self.ends[index] {
                        Some(End::Returned { score, .. }) => *score,
                        _ => None,
                    };
                    let better = match best {
                        None => true,
                        Some((_, current)) => match (score, current) {
                            (Some(s), Some(c)) => s > c,
                            (Some(_), None) => true,
                            _ => false,
                        },
                    };
                    if better {
                        best = Some((index, score));
                    }
                }
                best.map(|(index, _)| index)
            }
            Reduce::Vote => self.votes().first().map(|(first, _)| *first),
        }
    }

    /// Valid values' groups, most votes first (ties: the group whose first member comes
    /// first), as (lowest index, count).
    pub(super) fn votes(&self) -> Vec<(usize, usize)> {
        let mut groups: Vec<(usize, usize, &Value)> = Vec::new();
        for (index, end) in self.ends.iter().enumerate() {
            if let Some(End::Returned {
                value, valid: true, ..
            }) = end
            {
                match groups.iter_mut().find(|(_, _, v)| *v == value) {
                    Some(group) => group.1 += 1,
                    None => groups.push((index, 1, value)),
                }
            }
        }
        groups.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        groups
            .into_iter()
            .map(|(first, count, _)| (first, count))
            .collect()
    }

    /// Whether the branches still running can no longer change the choice.
    pub(super) fn settled(&self) -> bool {
        let running = self.ends.iter().filter(|end| end.is_none()).count();
        match self.reduce {
            Reduce::All | Reduce::Best => running == 0,
            Reduce::FirstValid => running == 0 || self.chosen().is_some(),
            Reduce::Vote => {
                let votes = self.votes();
                let leader = votes.first().map_or(0, |v| v.1);
                let runner_up = votes.get(1).map_or(0, |v| v.1);
                running == 0 || leader > runner_up + running
            }
        }
    }
}

/// Why nothing was chosen.
pub(super) fn nothing_chosen(ends: &[Option<End>]) -> String {
    let mut raised: BTreeMap<String, usize> = BTreeMap::new();
    let (mut invalid, mut cancelled, mut failures) = (0, 0, 0);
    for end in ends {
        match end {
            None => cancelled += 1,
            Some(End::Returned { .. }) => invalid += 1,
            Some(End::Failed { kind, message, .. }) => {
                failures += 1;
                *raised.entry(format!("{kind}: {message}")).or_default() += 1;
            }
            Some(End::Diverged(message)) => {
                failures += 1;
                *raised.entry(format!("Divergence: {message}")).or_default() += 1;
            }
        }
    }
    let mut parts = Vec::new();
    if failures > 0 {
        let examples: Vec<String> = raised
            .iter()
            .take(3)
            .map(|(what, n)| {
                if *n > 1 {
                    format!("{what} (x{n})")
                } else {
                    what.clone()
                }
            })
            .collect();
        parts.push(format!("{failures} failed ({})", examples.join("; ")));
    }
    if invalid > 0 {
        parts.push(format!(
            "{invalid} returned a result the validator rejected"
        ));
    }
    if cancelled > 0 {
        parts.push(format!("{cancelled} cancelled"));
    }
    format!(
        "no branch produced a valid result ({} branches: {})",
        ends.len(),
        parts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn returned(value: Value, valid: bool, score: Option<f64>) -> Option<End> {
        Some(End::Returned {
            value,
            valid,
            score,
        })
    }

    #[test]
    fn vote_is_settled_once_no_runner_up_can_catch_up() {
        let ends = vec![
            returned(json!("a"), true, None),
            returned(json!("a"), true, None),
            returned(json!("b"), true, None),
            None,
        ];
        let order = [0, 1, 2];
        let decision = Decision {
            reduce: Reduce::Vote,
            ends: &ends,
            order: &order,
        };
        // a: 2, b: 1, one running: b could tie.
        assert!(!decision.settled());
        let ends = vec![
            returned(json!("a"), true, None),
            returned(json!("a"), true, None),
            returned(json!("a"), true, None),
            None,
            None,
        ];
        let decision = Decision {
            reduce: Reduce::Vote,
            ends: &ends,
            order: &order,
        };
        assert!(decision.settled());
        assert_eq!(decision.chosen(), Some(0));
    }

    #[test]
    fn best_prefers_scores_and_the_lower_index_on_ties() {
        let ends = vec![
            returned(json!(1), true, Some(0.5)),
            returned(json!(2), true, Some(0.9)),
            returned(json!(3), true, Some(0.9)),
            returned(json!(4), false, Some(5.0)),
            Some(End::failed("ValueError", "x")),
        ];
        let decision = Decision {
            reduce: Reduce::Best,
            ends: &ends,
            order: &[4, 2, 1, 0, 3],
        };
        assert!(decision.settled());
        assert_eq!(decision.chosen(), Some(1));
    }

    #[test]
    fn first_valid_is_the_first_to_end_validly() {
        let ends = vec![
            returned(json!(1), false, None),
            None,
            returned(json!(3), true, None),
        ];
        let decision = Decision {
            reduce: Reduce::FirstValid,
            ends: &ends,
            order: &[0, 2],
        };
        assert!(decision.settled());
        assert_eq!(decision.chosen(), Some(2));
    }

    #[test]
    fn nothing_chosen_says_why() {
        let ends = vec![
            returned(json!(1), false, None),
            Some(End::failed("ValueError", "bad")),
            Some(End::failed("ValueError", "bad")),
            None,
        ];
        assert_eq!(
            nothing_chosen(&ends),
            "no branch produced a valid result (4 branches: 2 failed (ValueError: bad (x2)), 1 \
             returned a result the validator rejected, 1 cancelled)"
        );
    }
}
