//! Middleware of our own: request ids and the server's time on every response, and a last line
//! of defence against panics.

use std::panic::AssertUnwindSafe;
use std::time::Instant;

use crate::service::ServiceError;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::HttpMessage;
use futures_util::FutureExt;
use tracing_actix_web::RequestId;

use super::error::ApiError;

/// Echoes the id that the tracing span of this request carries as `x-request-id`, so a client's
/// report can be matched with the server's logs.
pub async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req.extensions().get::<RequestId>().copied();
    let mut response = next.call(req).await?;
    if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id.to_string()).ok()) {
        response
            .headers_mut()
            .insert(HeaderName::from_static("x-request-id"), value);
    }
    Ok(response)
}

/// `Server-Timing: app;dur=0.412`: the milliseconds the server spent on the request, up to its
/// answer's head (a JSON answer's body is written by then). Browsers' developer tools show it
/// beside the request; `go_move_cost` reads it to tell the server's work from the network's and
/// the client's, which grow with the answer's length.
pub async fn server_timing(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let start = Instant::now();
    let mut response = next.call(req).await?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Ok(value) = HeaderValue::from_str(&format!("app;dur={ms:.3}")) {
        response
            .headers_mut()
            .insert(HeaderName::from_static("server-timing"), value);
    }
    Ok(response)
}

/// A panic in a handler becomes a logged 500 problem instead of taking the worker down with it.
pub async fn catch_panics(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    match AssertUnwindSafe(next.call(req)).catch_unwind().await {
        Ok(response) => response.map(ServiceResponse::map_into_boxed_body),
        Err(panic) => {
            let cause = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(
                ApiError::Service(ServiceError::Internal(format!("handler panicked: {cause}")))
                    .into(),
            )
        }
    }
}

/// Every error a client sees is problem+json: answers that some part below us built bare (a
/// missing file under `/docs/`, for one) get a problem body with their status.
pub async fn problems_everywhere(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let response = next.call(req).await?;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/problem+json"));
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return Ok(response.map_into_boxed_body());
    }
    let error = match status.as_u16() {
        404 => ApiError::Service(ServiceError::NotFound(
            "no such route or file; the API is described at /openapi.json and /docs/".into(),
        )),
        405 => ApiError::MethodNotAllowed("GET"),
        400 => ApiError::Service(ServiceError::BadInput(
            "the request could not be understood".into(),
        )),
        _ => ApiError::Service(ServiceError::Internal(format!(
            "bare {status} from below the API"
        ))),
    };
    let (req, _) = response.into_parts();
    let mut problem = actix_web::ResponseError::error_response(&error);
    *problem.status_mut() = status;
    Ok(ServiceResponse::new(req, problem))
}

/// Reads a request's whole body (up to `limit` bytes and one more, so the extractors still
/// see an oversized body as one) within `timeout`. A body that does not arrive in time is a
/// 408, and the connection closes: a client that declares 100 bytes and sends 10 holds no
/// connection open.
pub async fn body_deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    timeout: std::time::Duration,
    limit: usize,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    use actix_web::http::header;
    use futures_util::StreamExt;
    let headers = req.headers();
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let chunked = headers.contains_key(header::TRANSFER_ENCODING);
    if declared.unwrap_or(0) > 0 || chunked {
        let mut payload = req.take_payload();
        let read = tokio::time::timeout(timeout, async move {
            let mut body = actix_web::web::BytesMut::new();
            while let Some(chunk) = payload.next().await {
                body.extend_from_slice(&chunk?);
                if body.len() > limit {
                    break;
                }
            }
            Ok::<_, actix_web::error::PayloadError>(body.freeze())
        })
        .await;
        match read {
            Ok(Ok(body)) => req.set_payload(actix_web::dev::Payload::from(body)),
            Ok(Err(_)) => {
                let error = ApiError::Service(ServiceError::BadInput(
                    "the request body could not be read".into(),
                ));
                return Ok(req.error_response(error));
            }
            Err(_) => return Ok(req.error_response(ApiError::RequestTimeout(timeout.as_secs()))),
        }
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// Cross-origin access for browser pages, as `PARLOR_CORS_ORIGINS` sets it. `*` lets any origin
/// call every route without credentials (Parlor authenticates with bearer tokens, never cookies,
/// so a page learns nothing it does not already hold); a list of origins narrows it; `none` sends
/// no CORS headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorsPolicy {
    Off,
    AnyOrigin,
    Origins(Vec<String>),
}

impl CorsPolicy {
    /// The setting's policy; an origin that is not `scheme://host[:port]` is an error for the
    /// start-up to report.
    pub fn parse(origins: &str) -> Result<Self, String> {
        let origins = origins.trim();
        if origins.eq_ignore_ascii_case("none") {
            return Ok(CorsPolicy::Off);
        }
        if origins == "*" {
            return Ok(CorsPolicy::AnyOrigin);
        }
        let list = origins
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(|origin| match is_origin(origin) {
                true => Ok(origin.to_owned()),
                false => Err(format!(
                    "PARLOR_CORS_ORIGINS: {origin:?} is not an origin like https://example.com \
                     (or use * or none)"
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(CorsPolicy::Origins(list))
    }

    /// The middleware for one worker (actix-cors' is not `Clone`); `None` when CORS is off.
    pub fn middleware(&self) -> Option<actix_cors::Cors> {
        let origins = match self {
            CorsPolicy::Off => return None,
            CorsPolicy::AnyOrigin => None,
            CorsPolicy::Origins(list) => Some(list),
        };
        Some(cors(origins))
    }
}

/// The CORS middleware for `origins`, or for any origin.
fn cors(origins: Option<&Vec<String>>) -> actix_cors::Cors {
    use actix_web::http::header;
    let cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "HEAD", "POST", "DELETE", "OPTIONS"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::IF_MATCH,
            header::IF_NONE_MATCH,
            header::ACCEPT,
            HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            header::RETRY_AFTER,
            HeaderName::from_static("x-request-id"),
        ])
        .max_age(3600);
    match origins {
        None => cors.allow_any_origin().send_wildcard(),
        Some(list) => list
            .iter()
            .fold(cors, |cors, origin| cors.allowed_origin(origin)),
    }
}

/// `scheme://host[:port]`, nothing after it: what a browser sends as `Origin`.
fn is_origin(text: &str) -> bool {
    text.parse::<actix_web::http::Uri>().is_ok_and(|uri| {
        matches!(uri.scheme_str(), Some("http" | "https"))
            && uri.host().is_some()
            && uri.path_and_query().is_none_or(|p| p.as_str() == "/")
            && !text.ends_with('/')
    })
}

/// The root span of every request, as tracing-actix-web's default builds it but with the path
/// alone as its target: a query string may carry a stream ticket, which no log line may hold.
pub struct PathOnlySpans;

impl tracing_actix_web::RootSpanBuilder for PathOnlySpans {
    fn on_request_start(request: &ServiceRequest) -> tracing::Span {
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let request_id = request.extensions().get::<RequestId>().copied();
        tracing::info_span!(
            "HTTP request",
            http.method = %request.method(),
            http.route = %route,
            http.target = %request.path(),
            http.status_code = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
            request_id = %request_id.map(|id| id.to_string()).unwrap_or_default(),
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: MessageBody>(
        span: tracing::Span,
        outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        tracing_actix_web::DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}
