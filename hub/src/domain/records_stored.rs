//! Waiting for the storage writer to store what a device's machine just recorded (an attendance,
//! a nurse's turn) before a REST call answers, and what the caller is told when it could not yet.
//!
//! The writer keeps every record it could not store and tries again on its own (its `FlushDue`
//! back-off), so a flush that failed because the database server is away, or one that did not
//! answer in time because the writer is waiting for that server, loses nothing: the caller is
//! told "busy, try again" (503 `busy` with `Retry-After`), never 500. Only a failure the writer
//! reports for another reason is an internal error.

use actors::actor::storage_writer::WriterMsg;
use ractor::MessagingErr;
use ractor::rpc::CallResult;
use storage::StoreError;

use super::error::DomainError;
use crate::http::state::{ACTOR_TIMEOUT, AppState};

/// Flushes the hub's storage writer and says what the caller answers (`what` names the records).
pub async fn flushed(hub: &AppState, what: &'static str) -> Result<(), DomainError> {
    outcome(hub.actors.writer.call(WriterMsg::Flush, Some(ACTOR_TIMEOUT)).await, what)
}

/// What a flush's answer means for the caller ([`flushed`]).
pub fn outcome(answer: Result<CallResult<Result<(), String>>, MessagingErr<WriterMsg>>, what: &'static str) -> Result<(), DomainError> {
    let pending = |detail: String| Err(DomainError::Store { error: StoreError::Unavailable(detail), what, duplicate_key: "duplicate" });
    match answer {
        Ok(CallResult::Success(Ok(()))) => Ok(()),
        Ok(CallResult::Success(Err(text))) if StoreError::text_is_unavailable(&text) => pending(text),
        Ok(CallResult::Success(Err(text))) => Err(DomainError::internal(format!("storing the {what}: {text}"))),
        Ok(CallResult::Timeout) => pending(format!("the {what} are queued; the storage writer is still waiting for the database")),
        Ok(CallResult::SenderError) | Err(_) => Err(DomainError::internal(format!("the storage writer did not answer for the {what}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_busy(result: Result<(), DomainError>) -> bool {
        matches!(result, Err(DomainError::Store { error: StoreError::Unavailable(_), .. }))
    }

    #[test]
    fn a_stored_flush_answers_ok() {
        assert!(outcome(Ok(CallResult::Success(Ok(()))), "attended alarms").is_ok());
    }

    #[test]
    fn a_database_away_or_a_writer_still_waiting_is_busy_not_internal() {
        let away = StoreError::Unavailable("Connection reset".into()).to_string();
        assert!(is_busy(outcome(Ok(CallResult::Success(Err(away))), "attended alarms")));
        assert!(is_busy(outcome(Ok(CallResult::Timeout), "recorded turn")));
    }

    #[test]
    fn another_failure_stays_internal() {
        let other = StoreError::Database("oops".into()).to_string();
        assert!(matches!(outcome(Ok(CallResult::Success(Err(other))), "attended alarms"), Err(DomainError::Internal(_))));
        assert!(matches!(outcome(Ok(CallResult::SenderError), "attended alarms"), Err(DomainError::Internal(_))));
    }
}
