//! Per-client rate limits: on AI requests (off unless `PARLOR_AI_RATE_PER_MINUTE` is set: AI moves
//! cost CPU seconds, so one client must not keep every AI thread busy) and on creating games, decks
//! and players (`PARLOR_CREATE_RATE_PER_MINUTE`, on by default at a generous rate: whatever is
//! created is stored).

use std::future::{ready, Ready};
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use super::error::ApiError;
use crate::app::AppState;

/// The longest a refusal is held back: a client that ignores `Retry-After` and asks again at
/// once gets its 429s slowly, so it cannot spend the server's CPU on refusals.
const MAX_REFUSAL_DELAY: Duration = Duration::from_secs(1);

/// A token bucket per client IP address.
#[derive(Clone)]
pub struct RateLimiter(Arc<DefaultKeyedRateLimiter<IpAddr>>);

impl RateLimiter {
    /// `requests` a minute, in bursts of a tenth of that (at least 10, at most all of it): a
    /// client that spends its minute at once would starve the store for everybody else.
    pub fn per_minute(requests: u32) -> Self {
        let requests = requests.max(1);
        let burst = (requests / 10).max(10).min(requests);
        let quota = Quota::per_minute(NonZeroU32::new(requests).expect("at least one"))
            .allow_burst(NonZeroU32::new(burst).expect("at least one"));
        RateLimiter(Arc::new(governor::RateLimiter::keyed(quota)))
    }

    /// Takes one request from `client`'s bucket, or says how long until it may.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        self.0
            .check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))?;
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

/// Takes one request from the bucket `pick` chooses, or says how long until it may.
fn take(req: &HttpRequest, pick: fn(&AppState) -> Option<&RateLimiter>) -> Result<(), Duration> {
    let Some(app) = req.app_data::<web::Data<AppState>>() else {
        return Ok(());
    };
    match pick(app) {
        Some(limiter) => limiter.check(client(req)),
        None => Ok(()),
    }
}

fn ai_bucket(app: &AppState) -> Option<&RateLimiter> {
    app.ai_limit.as_ref()
}

fn create_bucket(app: &AppState) -> Option<&RateLimiter> {
    app.create_limit.as_ref()
}

/// Lets a request through when it took a token from its bucket (`taken`); otherwise fails with 429 naming
/// `what`, after holding the refusal back for the wait it names (at most [`MAX_REFUSAL_DELAY`]).
async fn admit(taken: Result<(), Duration>, what: &'static str) -> Result<(), ApiError> {
    let Err(wait) = taken else { return Ok(()) };
    actix_web::rt::time::sleep(wait.min(MAX_REFUSAL_DELAY)).await;
    Err(ApiError::RateLimited {
        what,
        retry_after: wait.as_secs().max(1) as u32,
    })
}

/// Admits a request that makes the AI think (a route other than `ai-move`, such as Go's
/// estimate) under the client's AI rate limit, or fails with 429.
pub async fn admit_ai(req: &HttpRequest) -> Result<(), ApiError> {
    admit(take(req, ai_bucket), "AI requests").await
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
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let (taken, req) = (take(req, ai_bucket), req.clone());
        Box::pin(async move {
            admit(taken, "AI requests").await?;
            Ok(AiRateLimit(AutoPlayLimit(req)))
        })
    }
}

/// The client's AI allowance for the AI moves the server plays by itself within a request
/// (auto-play): each one is taken from the client's AI rate limit, as an `ai-move` would be.
pub struct AutoPlayLimit(HttpRequest);

impl AutoPlayLimit {
    /// Takes one AI move from the client's limit: `false` when it has none left.
    pub fn admits(&self) -> bool {
        take(&self.0, ai_bucket).is_ok()
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
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let taken = take(req, create_bucket);
        Box::pin(async move { admit(taken, "creations").await.map(|()| CreateQuota) })
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
        assert!(wait <= Duration::from_secs(20), "{wait:?}");
        assert!(limiter.check(b).is_ok(), "buckets are per client");
    }

    #[test]
    fn a_big_quota_comes_in_bursts_of_a_tenth() {
        let limiter = RateLimiter::per_minute(600);
        let a = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let admitted = (0..600).take_while(|_| limiter.check(a).is_ok()).count();
        assert_eq!(admitted, 60);
    }
}
