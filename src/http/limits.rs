//! Per-client rate limits: on AI requests (off unless `PARLOR_AI_RATE_PER_MINUTE` is set: AI moves
//! cost CPU seconds, so one client must not keep every AI thread busy) and on creating games, decks
//! and players (`PARLOR_CREATE_RATE_PER_MINUTE`, on by default at a generous rate: whatever is
//! created is stored).

use std::future::{ready, Ready};
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use super::error::ApiError;
use crate::app::AppState;

/// A token bucket per client IP address.
#[derive(Clone)]
pub struct RateLimiter(Arc<DefaultKeyedRateLimiter<IpAddr>>);

impl RateLimiter {
    pub fn per_minute(requests: u32) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(requests.max(1)).expect("at least one"));
        RateLimiter(Arc::new(governor::RateLimiter::keyed(quota)))
    }

    /// Takes one request from `client`'s bucket, or says how many seconds until it may.
    pub fn check(&self, client: IpAddr) -> Result<(), u32> {
        self.0.check_key(&client).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            wait.as_secs().max(1) as u32
        })?;
        // Forget clients that are back to a full bucket, so the map stays as small as the set of
        // clients active in the last minute.
        if self.0.len() > 10_000 {
            self.0.retain_recent();
        }
        Ok(())
    }
}

/// The client a request comes from: the peer address (behind a proxy, all its clients share one
/// bucket; OPERATIONS.md).
fn client(req: &HttpRequest) -> IpAddr {
    req.peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip())
}

/// Takes one request from the bucket `pick` chooses, or fails with 429 naming `what`.
fn admit(
    req: &HttpRequest,
    pick: fn(&AppState) -> Option<&RateLimiter>,
    what: &'static str,
) -> Result<(), ApiError> {
    let Some(app) = req.app_data::<web::Data<AppState>>() else {
        return Ok(());
    };
    match pick(app) {
        Some(limiter) => limiter
            .check(client(req))
            .map_err(|retry_after| ApiError::RateLimited { what, retry_after }),
        None => Ok(()),
    }
}

/// Admits a request that makes the AI think (a route other than `ai-move`, such as Go's
/// estimate) under the client's AI rate limit, or fails with 429.
pub fn admit_ai(req: &HttpRequest) -> Result<(), ApiError> {
    admit(req, |app| app.ai_limit.as_ref(), "AI requests")
}

/// Extracting this admits the request under the AI rate limit, or fails with 429; what the
/// request then auto-plays is admitted move by move (`auto_play`).
pub struct AiRateLimit(AutoPlayLimit);

impl AiRateLimit {
    pub fn auto_play(&self) -> &AutoPlayLimit {
        &self.0
    }
}

impl FromRequest for AiRateLimit {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admit_ai(req).map(|()| AiRateLimit(AutoPlayLimit(req.clone()))))
    }
}

/// The client's AI allowance for the AI moves the server plays by itself within a request
/// (auto-play): each one is taken from the client's AI rate limit, as an `ai-move` would be.
pub struct AutoPlayLimit(HttpRequest);

impl AutoPlayLimit {
    /// Takes one AI move from the client's limit: `false` when it has none left.
    pub fn admits(&self) -> bool {
        admit_ai(&self.0).is_ok()
    }
}

impl FromRequest for AutoPlayLimit {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(AutoPlayLimit(req.clone())))
    }
}

/// Extracting this admits a creation (a game, a deck, a player) under the client's creation
/// quota, or fails with 429.
pub struct CreateQuota;

impl FromRequest for CreateQuota {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admit(req, |app| app.create_limit.as_ref(), "creations").map(|()| CreateQuota))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_quota_and_then_waits() {
        let limiter = RateLimiter::per_minute(3);
        let a = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let b = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
        for _ in 0..3 {
            assert!(limiter.check(a).is_ok());
        }
        let wait = limiter.check(a).unwrap_err();
        assert!((1..=60).contains(&wait), "{wait}");
        assert!(limiter.check(b).is_ok(), "buckets are per client");
    }
}
