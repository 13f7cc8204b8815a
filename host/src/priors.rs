//! What runs learn about a `branch` call site and what `n="auto"` expects of it: the figures
//! each run records per site (`figures.json`) and the priors `baton priors` makes of them. A
//! leaf: the journal and the host calls carry these, and the branch module's wave rule uses
//! them (`branch/waves.rs`, where a prior given in the plan is read).

/// What a step is expected to do per attempt: the chance that an attempt is valid, and what it
/// spends. Given in the plan (`priors={"success": 0.3, "cost": 0.02}`), learned from earlier
/// runs (`baton priors`, `baton run --priors`), or these defaults.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Prior {
    /// Probability that one attempt is valid.
    pub success: f64,
    /// USD per attempt.
    pub cost: f64,
    /// Tokens per attempt.
    pub tokens: f64,
    /// Model calls per attempt.
    pub calls: f64,
    /// What a valid result is worth, in USD: a wave runs only while its expected gain
    /// (P(some attempt of it is valid) x value) covers its expected cost. None: no such check.
    pub value: Option<f64>,
    /// How much prior evidence `success` stands for, in attempts: after `f` failed attempts the
    /// estimate is `success * weight / (weight + f)`.
    pub weight: f64,
}

impl Default for Prior {
    fn default() -> Self {
        Prior {
            success: 0.5,
            cost: 0.0,
            tokens: 0.0,
            calls: 1.0,
            value: None,
            weight: 4.0,
        }
    }
}

/// One `branch` call site's figures (keyed by the first callable's name), which runs record in
/// `figures.json` and `baton priors` turns into [`Prior`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SiteFigures {
    /// Branches that ended (cancelled ones are not attempts).
    pub attempts: u64,
    /// Waves of branches started (one per call without `n="auto"`).
    pub waves: u64,
    pub valid: u64,
    pub llm_calls: u64,
    pub tokens: u64,
    pub cost_usd: f64,
}

impl SiteFigures {
    pub fn add(&mut self, other: &SiteFigures) {
        self.attempts += other.attempts;
        self.waves += other.waves;
        self.valid += other.valid;
        self.llm_calls += other.llm_calls;
        self.tokens += other.tokens;
        self.cost_usd += other.cost_usd;
    }

    /// The prior these figures give: the success rate with one success and one failure added
    /// (so a site seen once is not certain), and the mean spend per attempt.
    pub fn prior(&self) -> Prior {
        let n = self.attempts.max(1) as f64;
        Prior {
            success: (self.valid as f64 + 1.0) / (self.attempts as f64 + 2.0),
            cost: self.cost_usd / n,
            tokens: self.tokens as f64 / n,
            calls: (self.llm_calls as f64 / n).max(0.0),
            value: None,
            weight: (self.attempts as f64).clamp(1.0, 20.0),
        }
    }
}
