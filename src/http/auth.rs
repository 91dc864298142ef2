//! The seat-token extractor: `Authorization: Bearer <token>` → the token's hash.

use std::future::{ready, Ready};

use actix_web::{dev::Payload, http::header, FromRequest, HttpRequest};

use super::error::ApiError;
use crate::service::tokens::{self, TokenHash};
use crate::service::ServiceError;

/// The caller's seat token, if it sent one. A malformed header is 401 at once; whether the token
/// belongs to the game is decided by the service, which has the game's seats.
pub struct Bearer(pub Option<TokenHash>);

impl Bearer {
    pub fn hash(&self) -> Option<&TokenHash> {
        self.0.as_ref()
    }
}

impl FromRequest for Bearer {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(parse(req.headers().get(header::AUTHORIZATION)))
    }
}

fn parse(value: Option<&header::HeaderValue>) -> Result<Bearer, ApiError> {
    let Some(value) = value else {
        return Ok(Bearer(None));
    };
    let malformed = || {
        ApiError::Service(ServiceError::Unauthenticated(
            "expected `Authorization: Bearer <64 hex characters>`".into(),
        ))
    };
    let text = value.to_str().map_err(|_| malformed())?;
    let (scheme, token) = text.trim().split_once(' ').ok_or_else(malformed)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || !tokens::well_formed(token) {
        return Err(malformed());
    }
    Ok(Bearer(Some(TokenHash::of(&token.to_ascii_lowercase()))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(s: &str) -> header::HeaderValue {
        header::HeaderValue::from_str(s).unwrap()
    }

    #[test]
    fn parses_bearer_tokens() {
        let token = "ab".repeat(32);
        let parsed = parse(Some(&header(&format!("Bearer {token}")))).unwrap();
        assert_eq!(parsed.0, Some(TokenHash::of(&token)));
        let upper = parse(Some(&header(&format!("bearer {}", token.to_uppercase())))).unwrap();
        assert_eq!(upper.0, Some(TokenHash::of(&token)));
        assert!(parse(None).unwrap().0.is_none());
    }

    #[test]
    fn rejects_malformed_headers() {
        for bad in [
            "Bearer",
            "Bearer abc",
            "Basic dXNlcjpwdw==",
            &"ab".repeat(32),
        ] {
            assert!(parse(Some(&header(bad))).is_err(), "{bad}");
        }
    }
}
