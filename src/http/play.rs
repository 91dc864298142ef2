//! The playground page at `/play/`: plain HTML, CSS and JavaScript modules from `web/play/`,
//! compiled into the binary (rust-embed), so the page works offline and needs no set-up. Each file
//! is sent with its SHA-256 as the `ETag` and revalidated on every load (`no-cache`): a browser
//! keeps the files and gets a 304 until the binary serves new ones. The scope compresses them.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use rust_embed::RustEmbed;

use super::error::ApiError;
use crate::service::ServiceError;

/// The page's files.
#[derive(RustEmbed)]
#[folder = "web/play/"]
struct Page;

/// `GET /play/{file}` (`index.html` for `/play/`).
async fn file(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let name = match path.as_str() {
        "" => "index.html",
        name => name,
    };
    let found = Page::get(name).ok_or_else(|| {
        ApiError::Service(ServiceError::NotFound(format!(
            "the playground has no file {:?}; it starts at /play/",
            name.chars().take(60).collect::<String>()
        )))
    })?;
    let tag = format!("\"{}\"", hex::encode(&found.metadata.sha256_hash()[..16]));
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|asked| asked.split(',').any(|t| t.trim() == tag));
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"));
    if fresh {
        return Ok(response.finish());
    }
    let mime = HeaderValue::from_str(found.metadata.mimetype())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    Ok(response
        .insert_header((header::CONTENT_TYPE, mime))
        .body(found.data.into_owned()))
}

/// Whether a request asks for a page (a browser's navigation) rather than JSON.
pub fn wants_html(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"))
}

/// A redirect to the playground.
pub fn to_playground() -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, "/play/"))
        .finish()
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/play",
        web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header((header::LOCATION, "/play/"))
                .finish()
        }),
    )
    .service(
        web::scope("/play")
            .wrap(actix_web::middleware::Compress::default())
            .service(
                super::resource("/{file:.*}", "GET, HEAD").route(super::get_or_head().to(file)),
            ),
    );
}
