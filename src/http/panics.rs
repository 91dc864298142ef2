//! A last line of defence: a panic in a handler becomes a 500 problem, logged, instead of taking
//! the worker down with it.

use std::panic::AssertUnwindSafe;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use futures_util::FutureExt;

use super::error::ApiError;

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
            Err(ApiError::Internal(format!("handler panicked: {cause}")).into())
        }
    }
}
