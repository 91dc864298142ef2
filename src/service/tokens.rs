//! Seat tokens: 256 random bits, shown once, stored only as a SHA-256 hash.

use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The stored form of a token.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenHash(pub [u8; 32]);

impl std::fmt::Debug for TokenHash {
    // Even a hash is kept out of logs: it identifies a seat.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenHash(…)")
    }
}

impl TokenHash {
    pub fn of(token: &str) -> Self {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Constant-time comparison with a stored hash, so response timing reveals nothing.
    pub fn matches(&self, stored: &[u8]) -> bool {
        stored.len() == 32 && bool::from(self.0.ct_eq(stored))
    }
}

/// A new token: 64 lowercase hex characters, and its hash.
pub fn issue() -> (String, TokenHash) {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let hash = TokenHash::of(&token);
    (token, hash)
}

/// Whether a string looks like a token we issue (cheap check before any lookup).
pub fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_tokens_are_distinct_and_hash_back() {
        let (a, ha) = issue();
        let (b, hb) = issue();
        assert_ne!(a, b);
        assert!(well_formed(&a));
        assert!(ha.matches(&TokenHash::of(&a).0));
        assert!(!ha.matches(&hb.0));
        assert!(!ha.matches(&ha.0[..31]));
    }

    #[test]
    fn malformed_tokens_are_rejected() {
        for bad in ["", "abc", &"g".repeat(64), &"a".repeat(63), &"a".repeat(65)] {
            assert!(!well_formed(bad), "{bad:?}");
        }
    }
}
