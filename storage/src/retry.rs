//! Writes that meet SurrealDB's retryable transaction conflict are run again.
//!
//! Two transactions that write the same record at the same moment (two administrators saving the
//! company's branding, the status writer and a settings change on one device) can end in
//! "Transaction conflict … This transaction can be retried": one of them committed, the other saw
//! its keys change. Nothing was written by the loser, so running it again is safe. Every write of
//! the repositories goes through [`retrying`]: a bounded number of attempts, each after a short
//! exponential pause with random jitter (so two losers do not meet again in step). A write that
//! still conflicts after [`ATTEMPTS`] is [`StoreError::Conflict`] (the API answers 503 with
//! `Retry-After`, never 500).
//!
//! A database server that is gone (restarted, its machine rebooting: [`StoreError::Unavailable`])
//! is waited for the same way, with pauses growing to [`LONGEST_PAUSE`], for up to
//! [`UNAVAILABLE_WAIT`]: the client reconnects by itself, and the write then runs. A write whose
//! connection broke while it was in flight may have committed before the server died; it is run
//! again, which the writes that matter are written for (statuses and device records are keyed by
//! device and time, settings are set whole).

use std::future::Future;
use std::time::Duration;

use crate::StoreError;

/// Attempts of one write, the first included.
pub const ATTEMPTS: u32 = 8;
/// The pause before the first retry, before jitter; it doubles for each further retry (5, 10, 20,
/// … 320 ms: at most about 0.6 s in all).
pub const FIRST_PAUSE: Duration = Duration::from_millis(5);

/// How long a write waits for an unavailable database server before it fails.
pub const UNAVAILABLE_WAIT: Duration = Duration::from_secs(30);
/// The longest pause between two tries of a write waiting for the server.
pub const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// What to do after a failed try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Pause this long and try again.
    RetryAfter(Duration),
    /// Give up: answer the error.
    GiveUp,
}

/// Decides after a failure: `conflicts` and `unavailable` are the failures of each kind so far
/// (this one included), `waited` how long the write has been waiting for the server.
pub fn next(error: &StoreError, conflicts: u32, unavailable: u32, waited: Duration, jitter: f64) -> Next {
    match error {
        StoreError::Conflict(_) if conflicts < ATTEMPTS => Next::RetryAfter(pause(conflicts, jitter)),
        StoreError::Unavailable(_) if waited < UNAVAILABLE_WAIT => {
            Next::RetryAfter(pause(unavailable, jitter).min(LONGEST_PAUSE).min(UNAVAILABLE_WAIT - waited))
        }
        _ => Next::GiveUp,
    }
}

/// The pause before retry number `retry` (1 for the first), given a `jitter` in `[0, 1)`: between
/// half and all of `FIRST_PAUSE × 2^(retry−1)`.
pub fn pause(retry: u32, jitter: f64) -> Duration {
    let full = FIRST_PAUSE * 2u32.saturating_pow(retry.saturating_sub(1).min(16));
    full.mul_f64(0.5 + 0.5 * jitter.clamp(0.0, 1.0))
}

/// Runs `write` until it succeeds, fails otherwise than by a conflict or an unavailable server,
/// has conflicted [`ATTEMPTS`] times, or has waited [`UNAVAILABLE_WAIT`] for the server. `write`
/// builds its query anew on each call.
pub async fn retrying<T, F, Fut>(mut write: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    let (mut conflicts, mut unavailable, mut waiting_since) = (0, 0, None);
    loop {
        let error = match write().await {
            Err(error) => error,
            done => return done,
        };
        match &error {
            StoreError::Conflict(_) => conflicts += 1,
            StoreError::Unavailable(_) => unavailable += 1,
            _ => return Err(error),
        }
        let since = *waiting_since.get_or_insert_with(tokio::time::Instant::now);
        let waited = if unavailable > 0 { since.elapsed() } else { Duration::ZERO };
        match next(&error, conflicts, unavailable, waited, rand::random::<f64>()) {
            Next::RetryAfter(pause) => {
                tracing::debug!(%error, conflicts, unavailable, "storage write failed, retrying");
                tokio::time::sleep(pause).await;
            }
            Next::GiveUp => return Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    #[test]
    fn pauses_double_with_jitter_between_half_and_all() {
        assert_eq!(pause(1, 0.0), Duration::from_micros(2_500));
        assert_eq!(pause(1, 1.0), Duration::from_millis(5));
        assert_eq!(pause(3, 1.0), Duration::from_millis(20));
        assert!(pause(3, 0.5) > pause(3, 0.0) && pause(3, 0.5) < pause(3, 1.0));
        let total: Duration = (1..ATTEMPTS).map(|r| pause(r, 1.0)).sum();
        assert!(total < Duration::from_secs(1), "a write gives up within a second: {total:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_conflict_is_retried_until_the_write_succeeds() {
        let calls = AtomicU32::new(0);
        let result =
            retrying(|| async { if calls.fetch_add(1, Ordering::SeqCst) < 3 { Err(StoreError::Conflict("busy".into())) } else { Ok(7) } })
                .await;
        assert_eq!((result.ok(), calls.load(Ordering::SeqCst)), (Some(7), 4));
    }

    #[test]
    fn an_unavailable_server_is_waited_for_up_to_its_limit_with_pauses_of_at_most_a_second() {
        let gone = StoreError::Unavailable("connection reset".into());
        assert_eq!(next(&gone, 0, 1, Duration::ZERO, 1.0), Next::RetryAfter(FIRST_PAUSE));
        assert_eq!(next(&gone, 0, 12, Duration::from_secs(5), 1.0), Next::RetryAfter(LONGEST_PAUSE));
        assert_eq!(next(&gone, 0, 40, UNAVAILABLE_WAIT - Duration::from_millis(300), 1.0), Next::RetryAfter(Duration::from_millis(300)));
        assert_eq!(next(&gone, 0, 41, UNAVAILABLE_WAIT, 1.0), Next::GiveUp);
        let busy = StoreError::Conflict("busy".into());
        assert_eq!(next(&busy, ATTEMPTS - 1, 0, Duration::ZERO, 1.0), Next::RetryAfter(pause(ATTEMPTS - 1, 1.0)));
        assert_eq!(next(&busy, ATTEMPTS, 0, Duration::ZERO, 1.0), Next::GiveUp);
        assert_eq!(next(&StoreError::NotFound, 0, 0, Duration::ZERO, 1.0), Next::GiveUp);
    }

    #[tokio::test(start_paused = true)]
    async fn a_write_waits_for_the_server_and_then_runs() {
        let calls = AtomicU32::new(0);
        let started = tokio::time::Instant::now();
        // Gone for 10 s of (simulated) time, then back.
        let result = retrying(|| async {
            calls.fetch_add(1, Ordering::SeqCst);
            if started.elapsed() < Duration::from_secs(10) { Err(StoreError::Unavailable("reset".into())) } else { Ok(7) }
        })
        .await;
        assert_eq!(result.ok(), Some(7));
        assert!(started.elapsed() < Duration::from_secs(11), "retried within a second of its return: {:?}", started.elapsed());

        let started = tokio::time::Instant::now();
        let result: Result<(), _> = retrying(|| async { Err(StoreError::Unavailable("reset".into())) }).await;
        assert!(matches!(result, Err(StoreError::Unavailable(_))));
        assert_eq!(started.elapsed(), UNAVAILABLE_WAIT, "gives up after the wait, not before");
    }

    #[tokio::test(start_paused = true)]
    async fn retries_are_bounded_and_other_errors_are_not_retried() {
        let calls = AtomicU32::new(0);
        let result: Result<(), _> = retrying(|| async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(StoreError::Conflict("busy".into()))
        })
        .await;
        assert!(matches!(result, Err(StoreError::Conflict(_))));
        assert_eq!(calls.load(Ordering::SeqCst), ATTEMPTS);

        let calls = AtomicU32::new(0);
        let result: Result<(), _> = retrying(|| async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(StoreError::NotFound)
        })
        .await;
        assert!(matches!(result, Err(StoreError::NotFound)));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
