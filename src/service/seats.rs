//! Seats from the players a client names: parse, don't validate.

use super::ServiceError;
use crate::games::{PlayerSpec, SeatKind};
use crate::store::SeatRow;

/// A player's name: trimmed, 1–32 characters, no control characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerName(String);

impl PlayerName {
    pub const MAX_CHARS: usize = 32;

    pub fn parse(raw: &str) -> Result<Self, ServiceError> {
        // Control characters are refused anywhere, the ends included, before trimming: the
        // schema says so, and a name sent as "bob\n" should not quietly become "bob".
        if raw.chars().any(char::is_control) {
            return Err(ServiceError::Invalid(
                "a player name may not contain control characters".into(),
            ));
        }
        let name = raw.trim();
        if name.is_empty() || name.chars().count() > Self::MAX_CHARS {
            return Err(ServiceError::Invalid(format!(
                "a player name has 1 to {} characters, not {:?}",
                Self::MAX_CHARS,
                raw
            )));
        }
        Ok(PlayerName(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form names are compared in: compatibility caseless (Unicode's D146: NFKD and case
    /// folding, twice, as the definition prescribes), recomposed with NFC. "Alice", "ALICE",
    /// "Ａｌｉｃｅ" and a decomposed "Alicé" are each one name with their look-alikes.
    pub fn canonical(&self) -> String {
        use caseless::Caseless;
        use unicode_normalization::UnicodeNormalization;
        self.0
            .nfd()
            .default_case_fold()
            .nfkd()
            .default_case_fold()
            .nfkd()
            .nfc()
            .collect()
    }
}

/// A seat as the creator asked for it, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatPlan {
    pub kind: SeatKind,
    pub name: Option<PlayerName>,
}

impl SeatPlan {
    pub fn parse(index: usize, spec: &PlayerSpec) -> Result<Self, ServiceError> {
        let name = spec.name.as_deref().map(PlayerName::parse).transpose()?;
        let open = spec.open.unwrap_or(false);
        match (spec.ai, open, name) {
            (Some(level), false, name) => Ok(SeatPlan {
                kind: SeatKind::Ai(level),
                name: Some(name.unwrap_or_else(|| PlayerName(super::players::AI_NAME.into()))),
            }),
            (None, true, None) => Ok(SeatPlan {
                kind: SeatKind::Open,
                name: None,
            }),
            (None, false, Some(name)) => Ok(SeatPlan {
                kind: SeatKind::Human,
                name: Some(name),
            }),
            _ => Err(ServiceError::Invalid(format!(
                "player {index} must be exactly one of {{\"name\": …}}, {{\"ai\": level}} or {{\"open\": true}}"
            ))),
        }
    }
}

/// The kind of each stored seat, as the rules see it; a seat this build cannot read is an error.
pub fn kinds(seats: &[SeatRow]) -> Result<Vec<SeatKind>, ServiceError> {
    seats.iter().map(kind_of).collect()
}

pub fn kind_of(seat: &SeatRow) -> Result<SeatKind, ServiceError> {
    seat.kind()
        .map_err(|e| ServiceError::Internal(format!("stored seat {}: {e}", seat.seat)))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::AiLevel;

    fn spec(name: Option<&str>, ai: Option<AiLevel>, open: Option<bool>) -> PlayerSpec {
        PlayerSpec {
            name: name.map(str::to_owned),
            ai,
            open,
        }
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(PlayerName::parse("  alice ").unwrap().as_str(), "alice");
        assert!(PlayerName::parse("").is_err());
        assert!(PlayerName::parse("   ").is_err());
        assert!(PlayerName::parse(&"x".repeat(33)).is_err());
        assert!(PlayerName::parse(&"é".repeat(32)).is_ok());
        assert!(PlayerName::parse("a\nb").is_err());
        // At the ends too: trimming would otherwise hide them (schemathesis sent "6\n").
        assert!(PlayerName::parse("6\n").is_err());
        assert!(PlayerName::parse("\tbob").is_err());
    }

    #[test]
    fn look_alike_names_share_one_canonical_form() {
        let canonical = |raw: &str| PlayerName::parse(raw).unwrap().canonical();
        let alice = canonical("alice");
        for same in [
            "Alice",
            "ALICE",
            "\u{FF21}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}",
            " alice ",
        ] {
            assert_eq!(canonical(same), alice, "{same:?}");
        }
        // Precomposed and decomposed é; German ß folds to ss; the Kelvin sign is a K.
        assert_eq!(canonical("Ren\u{E9}"), canonical("RENE\u{301}"));
        assert_eq!(canonical("Stra\u{DF}e"), canonical("STRASSE"));
        assert_eq!(canonical("\u{212A}im"), canonical("kim"));
        assert_ne!(canonical("alice"), canonical("alicia"));
    }

    #[test]
    fn a_seat_is_exactly_one_kind() {
        let human = SeatPlan::parse(0, &spec(Some("bob"), None, None)).unwrap();
        assert_eq!(human.kind, SeatKind::Human);
        let ai = SeatPlan::parse(1, &spec(None, Some(AiLevel::Hard), None)).unwrap();
        assert_eq!(ai.kind, SeatKind::Ai(AiLevel::Hard));
        assert_eq!(ai.name.unwrap().as_str(), "AI");
        assert!(SeatPlan::parse(0, &spec(None, None, None)).is_err());
        assert!(SeatPlan::parse(0, &spec(None, None, Some(false))).is_err());
        assert_eq!(
            SeatPlan::parse(0, &spec(None, None, Some(true)))
                .unwrap()
                .kind,
            SeatKind::Open
        );
        assert!(SeatPlan::parse(0, &spec(Some("x"), None, Some(true))).is_err());
    }
}
