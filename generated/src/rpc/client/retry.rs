//! When a call is tried again: [`RetryPolicy`] (attempts, total time, backoff with jitter) and
//! the `Retry-After` header it honours.
//!
//! The [`Endpoint`](super::Endpoint) asks its transport for a policy
//! ([`Transport::retry_policy`](super::Transport::retry_policy)) and retries only a method the
//! spec does not mark `changes-state` (every read; never `issueTx` nor a devnet control), and
//! only when the node was busy or unreachable: HTTP 429, 502, 503 or 504, or a transport error
//! (refused, reset, timed out). A JSON-RPC error, a reply that breaks the protocol or one too
//! large is an answer and is never retried.

use std::hash::{BuildHasher, Hasher};
use std::time::{Duration, SystemTime};

/// How often and how long a call that met a busy or unreachable node is tried again.
///
/// ```
/// use avalanche_rpc::rpc::RetryPolicy;
/// use std::time::Duration;
/// let policy = RetryPolicy::default()
///     .max_attempts(6)
///     .max_elapsed(Duration::from_secs(60))
///     .backoff(Duration::from_millis(200), Duration::from_secs(10));
/// assert_eq!(policy.attempts(), 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    max_attempts: u32,
    max_elapsed: Duration,
    initial_backoff: Duration,
    max_backoff: Duration,
}

impl Default for RetryPolicy {
    /// 4 attempts within 30 s in all, waiting 100 ms, then 200 ms, 400 ms, … (at most 5 s),
    /// each with jitter; a `Retry-After` is waited as given.
    fn default() -> Self {
        Self {
            max_attempts: 4,
            max_elapsed: Duration::from_secs(30),
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// One attempt: nothing is tried again.
    pub fn never() -> Self {
        Self::default().max_attempts(1)
    }

    /// The most attempts of one call, the first included (at least 1).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The longest a call may take in all, waits included: no attempt starts whose wait would
    /// end past it (a `Retry-After` longer than what is left ends the call at once).
    pub fn max_elapsed(mut self, total: Duration) -> Self {
        self.max_elapsed = total;
        self
    }

    /// The first wait and the longest: each wait doubles, up to `max`; jitter takes it to
    /// between half and all of that.
    pub fn backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.initial_backoff = initial;
        self.max_backoff = max.max(initial);
        self
    }

    /// The most attempts of one call.
    pub fn attempts(&self) -> u32 {
        self.max_attempts
    }

    /// How long to wait before attempt `made + 1`, after `made` attempts in `elapsed`, the
    /// last answered with `retry_after` if any; `None`: give up.
    pub(crate) fn wait(
        &self,
        made: u32,
        elapsed: Duration,
        retry_after: Option<Duration>,
    ) -> Option<Duration> {
        if made >= self.max_attempts {
            return None;
        }
        let wait = retry_after.unwrap_or_else(|| {
            let doubled = self
                .initial_backoff
                .saturating_mul(1u32.checked_shl(made.saturating_sub(1)).unwrap_or(u32::MAX));
            jitter(doubled.min(self.max_backoff))
        });
        (elapsed.saturating_add(wait) <= self.max_elapsed).then_some(wait)
    }
}

/// Between half and all of `d`, at random ("equal jitter"): callers that failed together do
/// not come back together.
fn jitter(d: Duration) -> Duration {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(d.as_nanos());
    let half = d / 2;
    let nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
    half + Duration::from_nanos(h.finish() % nanos.saturating_add(1))
}

/// A `Retry-After` header's wait: delay-seconds (`120`) or an HTTP-date
/// (`Wed, 21 Oct 2026 07:28:00 GMT`, zero if past); `None` if it is neither.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = http_date(value)?;
    let now = now.duration_since(SystemTime::UNIX_EPOCH).ok()?.as_secs();
    Some(Duration::from_secs(at.saturating_sub(now)))
}

/// Seconds since 1970 of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form RFC 9110
/// requires senders to use.
fn http_date(s: &str) -> Option<u64> {
    let mut parts = s.split_ascii_whitespace();
    let (_weekday, day, month, year, time, zone) = (
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
    );
    if zone != "GMT" || parts.next().is_some() {
        return None;
    }
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| *m == month)? as u64 + 1;
    let day: u64 = day.parse().ok().filter(|d| (1..=31).contains(d))?;
    let year: u64 = year.parse().ok().filter(|y| *y >= 1970)?;
    let mut hms = time.split(':').map(|p| p.parse::<u64>().ok());
    let (h, m, sec) = (hms.next()??, hms.next()??, hms.next()??);
    if h > 23 || m > 59 || sec > 60 || hms.next().is_some() {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm), March-based years.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era * 146_097 + doe).checked_sub(719_468)?;
    Some(days * 86_400 + h * 3_600 + m * 60 + sec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777); // 06 Nov 1994 08:49:37
        assert_eq!(parse_retry_after("1", now), Some(Duration::from_secs(1)));
        assert_eq!(
            parse_retry_after(" 120 ", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date("Tue, 29 Feb 2028 12:00:00 GMT"),
            Some(1_835_438_400)
        );
        for bad in [
            "-1",
            "soon",
            "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 32 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad}");
        }
    }

    #[test]
    fn waits_double_with_jitter_within_the_attempts_and_the_time() {
        let p = RetryPolicy::default()
            .max_attempts(5)
            .backoff(Duration::from_millis(100), Duration::from_millis(300));
        let zero = Duration::ZERO;
        for (made, full) in [(1, 100), (2, 200), (3, 300), (4, 300)] {
            let w = p.wait(made, zero, None).unwrap();
            let full = Duration::from_millis(full);
            assert!(w >= full / 2 && w <= full, "attempt {made}: {w:?}");
        }
        assert_eq!(p.wait(5, zero, None), None, "five attempts made");
        // A Retry-After is waited as given, unless it ends past the total time.
        assert_eq!(
            p.wait(1, zero, Some(Duration::from_secs(2))),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            p.wait(1, Duration::from_secs(29), Some(Duration::from_secs(2))),
            None
        );
        assert_eq!(RetryPolicy::never().wait(1, zero, None), None);
    }
}
