//! Every failure a client can see, mapped to RFC 9457 problem details in one place.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::service::ServiceError;

/// One error type for the whole API; `code` is the stable machine word of docs/API.md.
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
    #[error("{0}")]
    NotStarted(String),
    /// Lost a race, or the state forbids the action (no open seat …).
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    PreconditionFailed(String),
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    /// The request's body did not arrive in time; the connection closes.
    #[error("the request body did not arrive within {0} s")]
    RequestTimeout(u64),
    /// A client asked for more (AI moves, creations) than its rate allows.
    #[error("too many {what} from this client; retry in {retry_after} s")]
    RateLimited {
        what: &'static str,
        retry_after: u32,
    },
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
            ApiError::NotStarted(_) => "not_started",
            ApiError::Conflict(_) => "conflict",
            ApiError::PreconditionFailed(_) => "precondition_failed",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::RequestTimeout(_) => "request_timeout",
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
            ApiError::NotStarted(_) => "Not started",
            ApiError::Conflict(_) => "Conflict",
            ApiError::PreconditionFailed(_) => "Precondition failed",
            ApiError::PayloadTooLarge(_) => "Payload too large",
            ApiError::RequestTimeout(_) => "Request timeout",
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
            ApiError::NotYourTurn(_)
            | ApiError::GameOver
            | ApiError::NotStarted(_)
            | ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
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
        // An error describes one request, never a resource: no cache may keep it.
        response.insert_header((header::CACHE_CONTROL, "no-store"));
        if let ApiError::RequestTimeout(_) = self {
            response.force_close();
        }
        if let ApiError::Unavailable { retry_after, .. }
        | ApiError::RateLimited { retry_after, .. } = self
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

impl From<ServiceError> for ApiError {
    fn from(err: ServiceError) -> Self {
        match err {
            ServiceError::BadInput(msg) => ApiError::BadRequest(msg),
            ServiceError::Invalid(msg) => ApiError::Unprocessable(msg),
            ServiceError::IllegalMove(msg) => ApiError::IllegalMove(msg),
            ServiceError::Unauthenticated(msg) => ApiError::Unauthorized(msg),
            ServiceError::Forbidden(msg) => ApiError::Forbidden(msg),
            ServiceError::NotFound(msg) => ApiError::NotFound(msg),
            ServiceError::NotYourTurn(msg) => ApiError::NotYourTurn(msg),
            ServiceError::GameOver => ApiError::GameOver,
            err @ ServiceError::NotStarted => ApiError::NotStarted(err.to_string()),
            ServiceError::Conflict(msg) => ApiError::Conflict(msg),
            ServiceError::PreconditionFailed(msg) => ApiError::PreconditionFailed(msg),
            ServiceError::Unavailable {
                message,
                retry_after,
            } => ApiError::Unavailable {
                message,
                retry_after,
            },
            ServiceError::Internal(cause) => ApiError::Internal(cause),
        }
    }
}

/// serde's words, in a client's: no Rust type names (`u64`, `i64`, `usize` …), and never more
/// than a line of what the client sent.
pub fn client_words(serde_message: &str) -> String {
    let mut text = serde_message.to_owned();
    for (rust, plain) in [
        ("u8", "a small whole number"),
        ("u16", "a whole number"),
        ("u32", "a whole number"),
        ("u64", "a whole number"),
        ("usize", "a whole number"),
        ("i8", "a small whole number"),
        ("i32", "a whole number"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("a string", "text"),
        ("struct ", ""),
        ("enum ", ""),
    ] {
        text = replace_word(&text, rust, plain);
    }
    text
}

/// Replaces `word` where it stands alone (not inside another word).
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + word.len()..].chars().next();
        let alone = !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            || word.ends_with(' ');
        out.push_str(&rest[..at]);
        out.push_str(if alone { by } else { word });
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

/// Maps actix's JSON extractor failures: too large → 413, anything else → 400 with serde's words.
pub fn json_error(err: actix_web::error::JsonPayloadError, limit: usize) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    match err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::PayloadTooLarge(limit).into()
        }
        JsonPayloadError::Deserialize(e) => ApiError::BadRequest(format!(
            "invalid JSON body: {}",
            client_words(&e.to_string())
        ))
        .into(),
        JsonPayloadError::ContentType => {
            ApiError::BadRequest("the body must be JSON (`Content-Type: application/json`)".into())
                .into()
        }
        _ => ApiError::BadRequest("the request body could not be read as JSON".into()).into(),
    }
}

/// Maps query-string failures to 400.
pub fn query_error(err: actix_web::error::QueryPayloadError) -> actix_web::Error {
    let detail = match err {
        actix_web::error::QueryPayloadError::Deserialize(e) => client_words(&e.to_string()),
        _ => "it could not be read".into(),
    };
    ApiError::BadRequest(format!("invalid query string: {detail}")).into()
}

/// Maps path failures (a malformed id) to 404: the resource cannot exist.
pub fn path_error(_: actix_web::error::PathError) -> actix_web::Error {
    ApiError::NotFound("no such resource: the id in the path is not a valid UUID".into()).into()
}
