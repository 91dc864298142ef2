//! AI thinking runs off the async workers, on a bounded set of threads, so a burst of AI requests
//! can neither stall plain reads nor queue without limit.

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::ServiceError;

#[derive(Clone)]
pub struct AiPool {
    /// Requests admitted (thinking or waiting); when none is left the answer is 503.
    admitted: Arc<Semaphore>,
    /// Requests thinking right now: one per AI thread.
    thinking: Arc<Semaphore>,
    threads: usize,
}

impl AiPool {
    pub fn new(threads: usize, queue: usize) -> Self {
        Self {
            admitted: Arc::new(Semaphore::new(threads + queue)),
            thinking: Arc::new(Semaphore::new(threads)),
            threads,
        }
    }

    /// Runs `think` on a blocking thread once one is free; 503 at once when the pool is full.
    pub async fn run<T, F>(&self, think: F) -> Result<T, ServiceError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.run_wide(move |_| think()).await
    }

    /// Like [`AiPool::run`], but the search may use every AI thread that is idle when it starts:
    /// `think` gets how many (at least one) and holds them until it returns.
    pub async fn run_wide<T, F>(&self, think: F) -> Result<T, ServiceError>
    where
        T: Send + 'static,
        F: FnOnce(usize) -> T + Send + 'static,
    {
        let admitted =
            self.admitted
                .clone()
                .try_acquire_owned()
                .map_err(|_| ServiceError::Unavailable {
                    message: "every AI thread is busy and the queue is full; retry shortly".into(),
                    retry_after: 1,
                })?;
        let thinking = self
            .thinking
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ServiceError::Internal("AI pool closed".into()))?;
        let idle = self
            .thinking
            .available_permits()
            .min(self.threads.saturating_sub(1)) as u32;
        let extra = match idle {
            0 => None,
            n => self.thinking.clone().try_acquire_many_owned(n).ok(),
        };
        let threads = 1 + extra.as_ref().map_or(0, |p| p.num_permits());
        // The permits travel with the work: if the client goes away, the thread is still busy until
        // the search ends, and the pool must keep counting it.
        tokio::task::spawn_blocking(move || {
            let _permits = (admitted, thinking, extra);
            think(threads)
        })
        .await
        .map_err(|e| ServiceError::Internal(format!("AI task failed: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_full_pool_answers_unavailable() {
        let pool = AiPool::new(1, 0);
        let busy = pool.clone();
        let long = tokio::spawn(async move {
            busy.run(|| std::thread::sleep(Duration::from_millis(300)))
                .await
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let refused = pool.run(|| ()).await;
        assert!(matches!(refused, Err(ServiceError::Unavailable { .. })));
        long.await.unwrap().unwrap();
        assert!(pool.run(|| 7).await.is_ok());
    }
}
