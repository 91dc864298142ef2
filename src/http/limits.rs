//! Per-client rate limiting of AI requests (off unless `PARLOR_AI_RATE_PER_MINUTE` is set): AI
//! moves cost CPU seconds, so one client must not be able to keep every AI thread busy.

use std::future::{ready, Ready};
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::error::ApiError;
use crate::app::AppState;

/// A token bucket per client IP address.
#[derive(Clone)]
pub struct AiRateLimiter(Arc<DefaultKeyedRateLimiter<IpAddr>>);

impl AiRateLimiter {
    pub fn per_minute(requests: u32) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(requests.max(1)).expect("at least one"));
        AiRateLimiter(Arc::new(RateLimiter::keyed(quota)))
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

/// Extracting this admits the request under the AI rate limit, or fails with 429.
pub struct AiRateLimit;

impl FromRequest for AiRateLimit {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let limiter = req
            .app_data::<web::Data<AppState>>()
            .and_then(|app| app.ai_limit.clone());
        let Some(limiter) = limiter else {
            return ready(Ok(AiRateLimit));
        };
        // The peer address: behind a proxy, all its clients share one bucket (OPERATIONS.md).
        let client = req
            .peer_addr()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
        ready(
            limiter
                .check(client)
                .map(|()| AiRateLimit)
                .map_err(|retry_after| ApiError::RateLimited { retry_after }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_quota_and_then_waits() {
        let limiter = AiRateLimiter::per_minute(3);
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
