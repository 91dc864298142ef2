//! What the service layer can answer instead of a result. It knows nothing of HTTP: the mapping to
//! statuses and problem+json lives in `http/error.rs` alone.

use crate::games::RuleError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// Malformed input the service parses itself (a cursor, a report parameter).
    #[error("{0}")]
    BadInput(String),
    /// Well-formed values out of range.
    #[error("{0}")]
    Invalid(String),
    /// A well-formed move or action the rules forbid.
    #[error("{0}")]
    IllegalMove(String),
    /// No token where one is needed, or a token nobody holds.
    #[error("{0}")]
    Unauthenticated(String),
    /// A valid token that does not allow this (another game's, another seat's).
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    NotYourTurn(String),
    #[error("the game is over")]
    GameOver,
    #[error("the game has not started yet; it starts when every seat is taken (or on `start`)")]
    NotStarted,
    /// Lost an optimistic-concurrency race, or the state forbids the action (no open seat …).
    #[error("{0}")]
    Conflict(String),
    /// `If-Match` named another version.
    #[error("{0}")]
    PreconditionFailed(String),
    /// Database down, AI pool saturated: retry after the given seconds.
    #[error("{message}")]
    Unavailable { message: String, retry_after: u32 },
    /// A fault of ours; the cause is logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServiceError {
    pub fn not_found(what: impl std::fmt::Display) -> Self {
        ServiceError::NotFound(format!("no {what} with that id"))
    }

    pub fn race() -> Self {
        ServiceError::Conflict(
            "the game changed while this request was handled; fetch it again and retry".into(),
        )
    }
}

impl From<RuleError> for ServiceError {
    fn from(err: RuleError) -> Self {
        match err {
            RuleError::Illegal(msg) | RuleError::Unsupported(msg) => ServiceError::IllegalMove(msg),
            RuleError::InvalidOptions(msg) => ServiceError::Invalid(msg),
            err @ RuleError::NotYourTurn { .. } => ServiceError::NotYourTurn(err.to_string()),
            RuleError::GameOver => ServiceError::GameOver,
            RuleError::NotStarted => ServiceError::NotStarted,
            RuleError::Conflict(msg) => ServiceError::Conflict(msg),
        }
    }
}

impl From<StoreError> for ServiceError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Conflict => ServiceError::race(),
            StoreError::Unavailable(cause) => {
                tracing::warn!(%cause, "database unavailable");
                ServiceError::Unavailable {
                    message: "the database is unavailable; retry shortly".into(),
                    retry_after: 1,
                }
            }
            other => ServiceError::Internal(other.to_string()),
        }
    }
}
