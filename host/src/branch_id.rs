//! The name of an instance of a run: the run itself, or a branch named by its whole ancestry.
//!
//! A branch is named by its parent's name, which of the parent's journaled host calls started it
//! (the call's sequence number in the parent: every `bash`, `llm` and `branch` call of an
//! instance counts, from 0), and its index in that call. A plan is deterministic given its
//! calls' results (DESIGN.md, rule 5), so this name is the same on every run of the plan: it is
//! the key of the journal, resume and replay, and the name trace, report, figures, log prefixes
//! and error messages show.
//!
//! Written as text, each level is `CALL.INDEX` and levels are joined by `/`: `3.0` is the first
//! branch of the run's call #3, `3.0/5.1` the second branch of that branch's call #5; the run
//! itself is the empty text. [`BranchId::dir_name`] is the same with `-` between levels, one
//! file name (branch workspaces live side by side, not nested).
//!
//! Before this name, a branch was its index alone, so a plan's second `branch` call reused the
//! first call's names: its branch 0 was replayed the first call's branch 0 results on resume.

use std::fmt;
use std::str::FromStr;

/// One level of a branch's name: which call of its parent started it, and which of that call's
/// branches it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BranchStep {
    /// The sequence number of the parent's `branch` call among the parent's journaled calls.
    pub call: u64,
    /// The branch's index in that call (its outcome's index).
    pub index: u32,
}

/// An instance's name: empty for the run itself (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BranchId(Vec<BranchStep>);

impl BranchId {
    /// The run itself.
    pub fn root() -> BranchId {
        BranchId::default()
    }

    /// Whether this names the run itself.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// How deep the instance is: 0 for the run, 1 for its branches, and so on.
    pub fn depth(&self) -> usize {
        self.0.len()
    }

    /// The levels, outermost first.
    pub fn steps(&self) -> &[BranchStep] {
        &self.0
    }

    /// The name of branch `index` of this instance's call number `call`.
    pub fn child(&self, call: u64, index: u32) -> BranchId {
        let mut steps = self.0.clone();
        steps.push(BranchStep { call, index });
        BranchId(steps)
    }

    /// The instance that started this one (`None` for the run).
    pub fn parent(&self) -> Option<BranchId> {
        let (_, rest) = self.0.split_last()?;
        Some(BranchId(rest.to_vec()))
    }

    /// The name as one file name: levels joined by `-` (`3.0-5.1`).
    pub fn dir_name(&self) -> String {
        self.levels().collect::<Vec<_>>().join("-")
    }

    /// How a message names the instance: "the run" or "branch 3.0/5.1".
    pub fn describe(&self) -> String {
        if self.is_root() {
            "the run".to_string()
        } else {
            format!("branch {self}")
        }
    }

    fn levels(&self) -> impl Iterator<Item = String> + '_ {
        self.0
            .iter()
            .map(|step| format!("{}.{}", step.call, step.index))
    }
}

impl fmt::Display for BranchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.levels().collect::<Vec<_>>().join("/"))
    }
}

/// A text that is not a branch name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a branch name (levels CALL.INDEX joined by `/`, e.g. `3.0/5.1`)")]
pub struct BadBranchId(pub String);

impl FromStr for BranchId {
    type Err = BadBranchId;

    fn from_str(text: &str) -> Result<BranchId, BadBranchId> {
        if text.is_empty() {
            return Ok(BranchId::root());
        }
        let bad = || BadBranchId(text.to_string());
        text.split('/')
            .map(|level| {
                let (call, index) = level.split_once('.').ok_or_else(bad)?;
                Ok(BranchStep {
                    call: call.parse().map_err(|_| bad())?,
                    index: index.parse().map_err(|_| bad())?,
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(BranchId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_nest() {
        let run = BranchId::root();
        assert_eq!(run.to_string(), "");
        assert_eq!(run.describe(), "the run");
        let first = run.child(3, 0);
        let nested = first.child(5, 1);
        assert_eq!(nested.to_string(), "3.0/5.1");
        assert_eq!(nested.dir_name(), "3.0-5.1");
        assert_eq!(nested.describe(), "branch 3.0/5.1");
        assert_eq!(nested.depth(), 2);
        assert_eq!(nested.parent(), Some(first.clone()));
        assert_eq!(first.parent(), Some(run.clone()));
        assert_eq!(run.parent(), None);
        for id in [run, first, nested] {
            assert_eq!(id.to_string().parse::<BranchId>(), Ok(id));
        }
    }

    #[test]
    fn two_calls_name_their_branches_apart() {
        let run = BranchId::root();
        assert_ne!(run.child(0, 0), run.child(4, 0));
        assert_ne!(run.child(0, 0).dir_name(), run.child(4, 0).dir_name());
    }

    #[test]
    fn bad_names_are_refused() {
        for text in ["3", "3.x", "3.0/", "/3.0", "a.b", "3.0/5"] {
            assert!(text.parse::<BranchId>().is_err(), "{text}");
        }
    }
}
