//! When to retry a failed attempt, and how long to wait first.

use std::time::{Duration, SystemTime};

/// Retry settings of one provider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RetryPolicy {
    /// Most attempts, first one included (at least 1).
    pub max_attempts: u32,
    /// Upper end of the random wait after the first failure.
    pub base: Duration,
    /// Ceiling of the doubling upper end.
    pub max: Duration,
    /// Longest `Retry-After` honoured.
    pub retry_after_max: Duration,
}

impl RetryPolicy {
    /// The wait after attempt number `failed` (1-based) failed. A server's `Retry-After` wins,
    /// cut to `retry_after_max`; otherwise "full jitter": uniform in
    /// `[0, min(max, base * 2^(failed-1))]`, which spreads many clients' retries apart. `unit`
    /// is a random number in `[0, 1)`, passed in so the computation is testable.
    pub fn delay(&self, failed: u32, retry_after: Option<Duration>, unit: f64) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.retry_after_max);
        }
        let doublings = failed.saturating_sub(1).min(30);
        let ceiling = self
            .base
            .checked_mul(1u32 << doublings)
            .unwrap_or(self.max)
            .min(self.max);
        ceiling.mul_f64(unit.clamp(0.0, 1.0))
    }
}

/// Statuses worth another attempt: request timeout, rate limit and server errors.
pub(crate) fn is_retryable_status(status: u16) -> bool {
    status == 408 || status == 429 || (500..=599).contains(&status)
}

/// Parses a `Retry-After` value: delay seconds (fractions tolerated) or an HTTP date, which
/// becomes the time left until then (zero when it is past). Anything else is ignored.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return seconds(secs);
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Parses OpenAI's `retry-after-ms` value.
pub(crate) fn parse_retry_after_ms(value: &str) -> Option<Duration> {
    seconds(value.trim().parse::<f64>().ok()? / 1000.0)
}

fn seconds(secs: f64) -> Option<Duration> {
    // Duration::from_secs_f64 panics on negative, NaN or huge values; a day is already far past
    // any cap.
    if secs.is_finite() && secs >= 0.0 {
        Some(Duration::from_secs_f64(secs.min(86_400.0)))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 5,
            base: Duration::from_millis(100),
            max: Duration::from_millis(1000),
            retry_after_max: Duration::from_secs(10),
        }
    }

    #[test]
    fn full_jitter_doubles_up_to_the_ceiling() {
        let p = policy();
        let almost_one = 0.999_999_999;
        assert_eq!(p.delay(1, None, 0.0), Duration::ZERO);
        assert!(p.delay(1, None, almost_one) <= Duration::from_millis(100));
        assert!(p.delay(2, None, almost_one) > Duration::from_millis(199));
        assert!(p.delay(3, None, almost_one) > Duration::from_millis(399));
        assert!(p.delay(9, None, almost_one) <= Duration::from_millis(1000));
        assert!(p.delay(u32::MAX, None, almost_one) <= Duration::from_millis(1000));
        assert_eq!(p.delay(2, None, 0.5), Duration::from_millis(100));
        // Out-of-range random numbers are clamped rather than trusted.
        assert!(p.delay(1, None, 7.0) <= Duration::from_millis(100));
    }

    #[test]
    fn retry_after_wins_and_is_capped() {
        let p = policy();
        assert_eq!(
            p.delay(1, Some(Duration::from_secs(3)), 0.0),
            Duration::from_secs(3)
        );
        assert_eq!(
            p.delay(1, Some(Duration::from_secs(3600)), 0.0),
            Duration::from_secs(10)
        );
    }

    #[test]
    fn retry_after_parses_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
        assert_eq!(parse_retry_after("2", now), Some(Duration::from_secs(2)));
        assert_eq!(
            parse_retry_after(" 0.5 ", now),
            Some(Duration::from_millis(500))
        );
        // 2015-10-21 07:28:00 GMT is 1445412480; 30 s later:
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        for junk in ["", "-1", "NaN", "inf", "soon", "1e400"] {
            assert_eq!(parse_retry_after(junk, now), None, "{junk}");
        }
        assert_eq!(
            parse_retry_after("1e9", now),
            Some(Duration::from_secs(86_400))
        );
        assert_eq!(
            parse_retry_after_ms("1500"),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(parse_retry_after_ms("x"), None);
    }

    #[test]
    fn retryable_statuses() {
        for s in [408, 429, 500, 502, 503, 504, 599] {
            assert!(is_retryable_status(s), "{s}");
        }
        for s in [200, 400, 401, 403, 404, 409, 422, 600] {
            assert!(!is_retryable_status(s), "{s}");
        }
    }
}
