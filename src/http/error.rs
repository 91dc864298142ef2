//! Every failure a client can see, mapped to RFC 9457 problem details in one place.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::games::RuleError;
use crate::store::StoreError;

/// One error type for the whole API; `code` is the stable machine word from API.md.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Not JSON, wrong types, unknown enum values or fields, bad notation.
    #[error("{0}")]
    BadRequest(String),
    /// Well-formed values out of range.
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    IllegalMove(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    NotYourTurn(String),
    /// The path exists but not with this method; the value is the `Allow` header.
    #[error("this route answers only {0}")]
    MethodNotAllowed(&'static str),
    #[error("the game is over")]
    GameOver,
    #[error("the game changed while this request was handled; fetch it again and retry")]
    Conflict,
    #[error("{0}")]
    PreconditionFailed(String),
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    /// A client asked for more AI moves than its rate allows.
    #[error("too many AI requests from this client; retry in {retry_after} s")]
    RateLimited { retry_after: u32 },
    /// Database down, AI pool saturated: retry after the given seconds.
    #[error("{message}")]
    Unavailable { message: String, retry_after: u32 },
    /// A fault of ours. The cause is logged, never sent (it may hold internals).
    #[error("internal error: {0}")]
    Internal(String),
}

/// RFC 9457 problem details, as every error response carries them.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"type": "https://parlor.dev/problems/illegal_move", "title": "Illegal move", "status": 422, "detail": "h8 is occupied", "code": "illegal_move"}))]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// Stable machine-readable error code.
    pub code: String,
}

impl ApiError {
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) | ApiError::Unprocessable(_) => "invalid_request",
            ApiError::IllegalMove(_) => "illegal_move",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::NotYourTurn(_) => "not_your_turn",
            ApiError::MethodNotAllowed(_) => "method_not_allowed",
            ApiError::GameOver => "game_over",
            ApiError::Conflict => "conflict",
            ApiError::PreconditionFailed(_) => "precondition_failed",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Unavailable { .. } => "unavailable",
            ApiError::Internal(_) => "internal",
        }
    }

    fn title(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "Invalid request",
            ApiError::Unprocessable(_) => "Invalid value",
            ApiError::IllegalMove(_) => "Illegal move",
            ApiError::Unauthorized(_) => "Unauthorized",
            ApiError::Forbidden(_) => "Forbidden",
            ApiError::NotFound(_) => "Not found",
            ApiError::NotYourTurn(_) => "Not your turn",
            ApiError::MethodNotAllowed(_) => "Method not allowed",
            ApiError::GameOver => "Game over",
            ApiError::Conflict => "Conflict",
            ApiError::PreconditionFailed(_) => "Precondition failed",
            ApiError::PayloadTooLarge(_) => "Payload too large",
            ApiError::RateLimited { .. } => "Too many requests",
            ApiError::Unavailable { .. } => "Service unavailable",
            ApiError::Internal(_) => "Internal error",
        }
    }

    pub fn problem(&self) -> Problem {
        let detail = match self {
            ApiError::Internal(_) => "something went wrong on our side; it has been logged".into(),
            other => clip(other.to_string()),
        };
        Problem {
            kind: format!("https://parlor.dev/problems/{}", self.code()),
            title: self.title().into(),
            status: self.status_code().as_u16(),
            detail,
            code: self.code().into(),
        }
    }

    pub fn not_found(what: impl std::fmt::Display) -> Self {
        ApiError::NotFound(format!("no {what} with that id"))
    }
}

/// Details quote what the client sent (serde's messages, bad notation); a 60 KiB input must not
/// come back as a 60 KiB error.
const MAX_DETAIL_CHARS: usize = 400;

fn clip(detail: String) -> String {
    match detail.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((cut, _)) => format!("{}…", &detail[..cut]),
        None => detail,
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unprocessable(_) | ApiError::IllegalMove(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::NotYourTurn(_) | ApiError::GameOver | ApiError::Conflict => {
                StatusCode::CONFLICT
            }
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(cause) = self {
            tracing::error!(%cause, "internal error");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if let ApiError::Unavailable { retry_after, .. } | ApiError::RateLimited { retry_after } =
            self
        {
            response.insert_header((header::RETRY_AFTER, retry_after.to_string()));
        }
        if let ApiError::MethodNotAllowed(allow) = self {
            response.insert_header((header::ALLOW, *allow));
        }
        if let ApiError::Unauthorized(_) = self {
            response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        response.json(self.problem())
    }
}

impl From<RuleError> for ApiError {
    fn from(err: RuleError) -> Self {
        match err {
            RuleError::Illegal(msg) => ApiError::IllegalMove(msg),
            RuleError::InvalidOptions(msg) => ApiError::Unprocessable(msg),
            err @ RuleError::NotYourTurn { .. } => ApiError::NotYourTurn(err.to_string()),
            RuleError::GameOver => ApiError::GameOver,
            RuleError::Unsupported(msg) => ApiError::IllegalMove(msg),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Conflict => ApiError::Conflict,
            StoreError::Unavailable(cause) => {
                tracing::warn!(%cause, "database unavailable");
                ApiError::Unavailable {
                    message: "the database is unavailable; retry shortly".into(),
                    retry_after: 1,
                }
            }
            other => ApiError::Internal(other.to_string()),
        }
    }
}

/// Maps actix's JSON extractor failures: too large → 413, anything else → 400 with serde's words.
pub fn json_error(err: actix_web::error::JsonPayloadError, limit: usize) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    match err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::PayloadTooLarge(limit).into()
        }
        JsonPayloadError::Deserialize(e) => {
            ApiError::BadRequest(format!("invalid JSON body: {e}")).into()
        }
        other => ApiError::BadRequest(format!("invalid request body: {other}")).into(),
    }
}

/// Maps query-string failures to 400.
pub fn query_error(err: actix_web::error::QueryPayloadError) -> actix_web::Error {
    ApiError::BadRequest(format!("invalid query string: {err}")).into()
}

/// Maps path failures (e.g. a malformed id) to 404: the resource cannot exist.
pub fn path_error(err: actix_web::error::PathError) -> actix_web::Error {
    ApiError::NotFound(format!("no such resource: {err}")).into()
}
