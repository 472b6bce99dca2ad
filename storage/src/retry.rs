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

use std::future::Future;
use std::time::Duration;

use crate::StoreError;

/// Attempts of one write, the first included.
pub const ATTEMPTS: u32 = 8;
/// The pause before the first retry, before jitter; it doubles for each further retry (5, 10, 20,
/// … 320 ms: at most about 0.6 s in all).
pub const FIRST_PAUSE: Duration = Duration::from_millis(5);

/// The pause before retry number `retry` (1 for the first), given a `jitter` in `[0, 1)`: between
/// half and all of `FIRST_PAUSE × 2^(retry−1)`.
pub fn pause(retry: u32, jitter: f64) -> Duration {
    let full = FIRST_PAUSE * 2u32.saturating_pow(retry.saturating_sub(1).min(16));
    full.mul_f64(0.5 + 0.5 * jitter.clamp(0.0, 1.0))
}

/// Runs `write` until it succeeds, fails otherwise than by a conflict, or has been tried
/// [`ATTEMPTS`] times. `write` builds its query anew on each call.
pub async fn retrying<T, F, Fut>(mut write: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    let mut retry = 0;
    loop {
        match write().await {
            Err(StoreError::Conflict(detail)) if retry + 1 < ATTEMPTS => {
                retry += 1;
                tracing::debug!(%detail, retry, "storage write conflict, retrying");
                tokio::time::sleep(pause(retry, rand::random::<f64>())).await;
            }
            other => return other,
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
