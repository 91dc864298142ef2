//! Operations: liveness, readiness, metrics, the OpenAPI document and Swagger UI.

use actix_web::{http::header, web, HttpResponse};
use prometheus::Encoder;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_swagger_ui::SwaggerUi;

use super::error::ApiError;
use super::problems::Unavailable;
use crate::app::AppState;
use crate::service::ServiceError;

#[derive(Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// 200 while the process lives.
#[utoipa::path(get, path = "/health", tag = "ops", responses((status = 200, body = Health)))]
pub async fn health(_: web::Query<super::NoParams>) -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// 200 when the database answers, else 503.
#[utoipa::path(get, path = "/ready", tag = "ops", responses(
    (status = 200, body = Health),
    (status = 503, response = Unavailable),
))]
pub async fn ready(
    app: web::Data<AppState>,
    _: web::Query<super::NoParams>,
) -> Result<HttpResponse, ApiError> {
    // A probe wants an answer within its own timeout (Kubernetes' default is 1 s), not after the
    // pool's 3 s acquire timeout: a database that is slower than this is not ready.
    tokio::time::timeout(READY_TIMEOUT, app.ping())
        .await
        .map_err(|_| {
            ApiError::Service(ServiceError::Unavailable {
                message: format!(
                    "the database did not answer within {} ms",
                    READY_TIMEOUT.as_millis()
                ),
                retry_after: 1,
            })
        })??;
    Ok(HttpResponse::Ok().json(Health { status: "ready" }))
}

const READY_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(800);

/// Prometheus text: requests by route and status, latency, moves applied, AI think time.
#[utoipa::path(get, path = "/metrics", tag = "ops", responses(
    (status = 200, description = "Prometheus exposition format", body = String, content_type = "text/plain"),
))]
pub async fn metrics(
    app: web::Data<AppState>,
    _: web::Query<super::NoParams>,
) -> Result<HttpResponse, ApiError> {
    let mut buffer = Vec::new();
    prometheus::TextEncoder::new()
        .encode(&app.metrics.registry.gather(), &mut buffer)
        .map_err(|e| ApiError::Service(ServiceError::Internal(format!("metrics encoding: {e}"))))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; version=0.0.4"))
        .body(buffer))
}

/// The admin listener's routes: `/metrics`, apart from the public port.
pub fn configure_admin(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/metrics", "GET, HEAD").route(super::get_or_head().to(metrics)))
        .default_service(web::to(no_route));
}

/// Any other path.
pub async fn no_route() -> Result<HttpResponse, ApiError> {
    Err(ApiError::Service(ServiceError::NotFound(
        "no such route; the API is described at /openapi.json and /docs/".into(),
    )))
}

/// The root: where to go from here.
#[derive(Serialize, ToSchema)]
pub struct Index {
    #[schema(example = "Parlor")]
    pub name: &'static str,
    /// Swagger UI.
    #[schema(example = "/docs/")]
    pub docs: &'static str,
    /// The OpenAPI document.
    #[schema(example = "/openapi.json")]
    pub openapi: &'static str,
    /// A page that plays every game, in the browser.
    #[schema(example = "/play/")]
    pub playground: &'static str,
}

/// Points to the documentation (Swagger UI at `/docs/`, the OpenAPI document at `/openapi.json`);
/// a browser (`Accept: text/html`) is sent to the playground at `/play/` instead.
#[utoipa::path(get, path = "/", tag = "ops", responses(
    (status = 200, body = Index),
    (status = 303, description = "`Accept: text/html`: the playground, `Location: /play/`"),
))]
pub async fn index(req: actix_web::HttpRequest, _: web::Query<super::NoParams>) -> HttpResponse {
    if super::play::wants_html(&req) {
        return super::play::to_playground();
    }
    HttpResponse::Ok().json(Index {
        name: "Parlor",
        docs: "/docs/",
        openapi: "/openapi.json",
        playground: "/play/",
    })
}

pub fn configure<R: crate::games::registry::Games>(cfg: &mut web::ServiceConfig) {
    use super::get_or_head;
    cfg.service(super::resource("/", "GET, HEAD").route(get_or_head().to(index)))
        .service(super::resource("/health", "GET, HEAD").route(get_or_head().to(health)))
        .service(super::resource("/ready", "GET, HEAD").route(get_or_head().to(ready)))
        .route(
            "/docs",
            web::get().to(|| async {
                HttpResponse::PermanentRedirect()
                    .insert_header((header::LOCATION, "/docs/"))
                    .finish()
            }),
        )
        // Swagger UI's files are compiled into the binary (the `vendored` feature): no network.
        .service(
            SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", super::openapi::document::<R>()),
        );
}
