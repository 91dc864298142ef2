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

/// The caller's secret itself, for the one route family that must hand it back: a seek's, whose
/// secret becomes the seat's token once it is paired. Never logged (no `Debug` shows it).
pub struct BearerSecret(Option<String>);

impl BearerSecret {
    pub fn get(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl std::fmt::Debug for BearerSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerSecret(…)")
    }
}

impl FromRequest for BearerSecret {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(token_of(req.headers().get(header::AUTHORIZATION)).map(BearerSecret))
    }
}

fn parse(value: Option<&header::HeaderValue>) -> Result<Bearer, ApiError> {
    Ok(Bearer(token_of(value)?.map(|token| TokenHash::of(&token))))
}

/// The token of `Authorization: Bearer <token>`, lowercased; a malformed header is 401.
fn token_of(value: Option<&header::HeaderValue>) -> Result<Option<String>, ApiError> {
    let Some(value) = value else {
        return Ok(None);
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
    Ok(Some(token.to_ascii_lowercase()))
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
