//! Seats from the players a client names: parse, don't validate.

use icu_properties::props::{BidiControl, BinaryProperty, DefaultIgnorableCodePoint};
use unicode_security::MixedScript;

use super::ServiceError;
use crate::games::{OpenSeat, PlayerSpec, ReservedFor, SeatKind};
use crate::store::SeatRow;

/// Refuses text that would not show as what it is: control characters (an ANSI escape starts
/// with one), characters that render as nothing, and those that reorder what follows (U+202E
/// shows "bob" reversed). `what` names the text in the error.
pub fn check_visible(text: &str, what: &str) -> Result<(), ServiceError> {
    if text.chars().any(char::is_control) {
        return Err(ServiceError::Invalid(format!(
            "{what} may not contain control characters"
        )));
    }
    if let Some(c) = text.chars().find(|&c| BidiControl::for_char(c)) {
        return Err(ServiceError::Invalid(format!(
            "{what} may not contain bidirectional control characters (U+{:04X})",
            c as u32
        )));
    }
    if let Some(c) = text
        .chars()
        .find(|&c| DefaultIgnorableCodePoint::for_char(c))
    {
        return Err(ServiceError::Invalid(format!(
            "{what} may not contain invisible (default-ignorable) characters (U+{:04X})",
            c as u32
        )));
    }
    Ok(())
}

/// A player's name: 1–32 characters as sent, not only spaces, trimmed; no control characters,
/// no invisible characters (Unicode's Default_Ignorable_Code_Point, which includes the
/// bidirectional controls), and not `AI` in any case or look-alike unless it names an AI seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerName(String);

impl PlayerName {
    pub const MAX_CHARS: usize = 32;

    /// A name somebody takes: a human seat's, a joining player's, a registration's.
    pub fn parse(raw: &str) -> Result<Self, ServiceError> {
        let name = Self::parse_for_ai(raw)?;
        if name.is_reserved() {
            return Err(ServiceError::Invalid(format!(
                "the name {:?} is reserved for AI seats (in any case or look-alike): choose another name",
                name.as_str()
            )));
        }
        Ok(name)
    }

    /// A name an AI seat may carry: every rule of [`parse`](Self::parse) but the reservation of
    /// `AI`, which is what AI seats are called.
    pub fn parse_for_ai(raw: &str) -> Result<Self, ServiceError> {
        let name = Self::lookup(raw)?;
        // Two names that look alike would be two names.
        check_visible(raw, "a player name")?;
        // UTS #39's mixed-script detection: "pаypal" with a Cyrillic "а" would pass for "paypal".
        if !name.0.as_str().is_single_script() {
            return Err(ServiceError::Invalid(format!(
                "the name {:?} mixes scripts (Latin beside Cyrillic or Greek letters that look \
                 alike, for instance): write it in one script",
                name.as_str()
            )));
        }
        Ok(name)
    }

    /// A name as given to look a player up: only the rules names have always had (trimmed,
    /// 1–32 characters, no control characters), so names taken before the newer rules are found.
    pub fn lookup(raw: &str) -> Result<Self, ServiceError> {
        // Control characters are refused anywhere, the ends included, before trimming: the
        // schema says so, and a name sent as "bob\n" should not quietly become "bob".
        if raw.chars().any(char::is_control) {
            return Err(ServiceError::Invalid(
                "a player name may not contain control characters".into(),
            ));
        }
        // The schema bounds the name as sent: spaces trimmed off do not make room for more.
        let name = raw.trim();
        if name.is_empty() || raw.chars().count() > Self::MAX_CHARS {
            return Err(ServiceError::Invalid(format!(
                "a player name has 1 to {} characters, not {:?}",
                Self::MAX_CHARS,
                raw
            )));
        }
        Ok(PlayerName(name.to_owned()))
    }

    /// Whether this is `AI` (compared canonically: `ai`, full-width `ＡＩ` …), which only AI seats
    /// are called.
    pub fn is_reserved(&self) -> bool {
        let skeleton = |text: &str| unicode_security::skeleton(text).collect::<String>();
        skeleton(&self.canonical())
            == skeleton(&PlayerName(super::players::AI_NAME.into()).canonical())
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
    /// Whom an open seat is kept for; `None` for a seat anyone may join.
    pub reserved: Option<Reservation>,
}

/// Whom an open seat is kept for.
#[derive(Clone, Debug, PartialEq)]
pub enum Reservation {
    /// Whoever presents the invitation code the create answer gave for it.
    Invite,
    /// One registered player (as named; the create looks the registration up).
    Player(PlayerName),
}

impl SeatPlan {
    pub fn parse(index: usize, spec: &PlayerSpec) -> Result<Self, ServiceError> {
        // "AI" is refused below for every seat but an AI's.
        let name = spec
            .name
            .as_deref()
            .map(PlayerName::parse_for_ai)
            .transpose()?;
        let (open, reserved) = match &spec.open {
            None | Some(OpenSeat::Anyone(false)) => (false, None),
            Some(OpenSeat::Anyone(true)) => (true, None),
            Some(OpenSeat::Invite(_)) => (true, Some(Reservation::Invite)),
            Some(OpenSeat::For(ReservedFor { player })) => (
                true,
                Some(Reservation::Player(PlayerName::lookup(player).map_err(
                    |e| match e {
                        ServiceError::Invalid(text) => {
                            ServiceError::Invalid(format!("player {index}: open.for: {text}"))
                        }
                        other => other,
                    },
                )?)),
            ),
        };
        match (spec.ai, open, name) {
            (Some(level), false, name) => Ok(SeatPlan {
                kind: SeatKind::Ai(level),
                name: Some(name.unwrap_or_else(|| PlayerName(super::players::AI_NAME.into()))),
                reserved: None,
            }),
            (None, true, None) => Ok(SeatPlan {
                kind: SeatKind::Open,
                name: None,
                reserved,
            }),
            (None, false, Some(name)) if name.is_reserved() => Err(ServiceError::Invalid(format!(
                "player {index}: the name {:?} is reserved for AI seats (in any case or look-alike); \
                 a human seat needs another name",
                name.as_str()
            ))),
            (None, false, Some(name)) => Ok(SeatPlan {
                kind: SeatKind::Human,
                name: Some(name),
                reserved: None,
            }),
            _ => Err(ServiceError::Invalid(format!(
                "player {index} must be exactly one of {{\"name\": …}}, {{\"ai\": level}} or \
                 {{\"open\": true | \"invite\" | {{\"for\": name}}}}"
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
            open: open.map(OpenSeat::Anyone),
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
        // The limit counts what was sent (schemathesis sent a no-break space and 32 more).
        assert!(PlayerName::parse(&format!("\u{a0}{}", "x".repeat(32))).is_err());
        assert!(PlayerName::parse(&format!(" {} ", "x".repeat(30))).is_ok());
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
        let reserved = |open: OpenSeat| {
            SeatPlan::parse(
                0,
                &PlayerSpec {
                    open: Some(open),
                    ..PlayerSpec::default()
                },
            )
        };
        let invite: OpenSeat = serde_json::from_value(serde_json::json!("invite")).unwrap();
        assert_eq!(
            reserved(invite).unwrap().reserved,
            Some(Reservation::Invite)
        );
        let carol: OpenSeat = serde_json::from_value(serde_json::json!({"for": "carol"})).unwrap();
        assert_eq!(
            reserved(carol).unwrap().reserved,
            Some(Reservation::Player(PlayerName::lookup("carol").unwrap()))
        );
        for bad in [
            serde_json::json!("public"),
            serde_json::json!({"for": "carol", "x": 1}),
            serde_json::json!(1),
        ] {
            assert!(
                serde_json::from_value::<OpenSeat>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn invisible_and_bidirectional_characters_are_refused() {
        let refused = |raw: &str, word: &str| match PlayerName::parse(raw) {
            Err(ServiceError::Invalid(text)) => assert!(text.contains(word), "{raw:?}: {text}"),
            other => panic!("{raw:?}: {other:?}"),
        };
        // Every bidirectional control (Unicode's Bidi_Control).
        for c in ('\u{202A}'..='\u{202E}')
            .chain('\u{2066}'..='\u{2069}')
            .chain(['\u{200E}', '\u{200F}', '\u{061C}'])
        {
            refused(&format!("bob{c}x"), "bidirectional");
            refused(&format!("{c}bob"), "bidirectional");
        }
        // Default_Ignorable_Code_Point: zero-width characters, word joiner and invisible
        // operators, the BOM, the soft hyphen, the grapheme joiner, the Mongolian vowel separator,
        // variation selectors (both blocks), the Hangul filler and the tag characters.
        for c in [
            '\u{200B}',
            '\u{200C}',
            '\u{200D}',
            '\u{2060}',
            '\u{2061}',
            '\u{2064}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{034F}',
            '\u{180E}',
            '\u{FE00}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{3164}',
            '\u{E0041}',
        ] {
            refused(&format!("bo{c}b"), "invisible");
            refused(&format!("{c}"), "invisible");
        }
        // Visible names from other scripts are fine, right-to-left ones too.
        for fine in [
            "\u{05D3}\u{05D5}\u{05D3}",
            "\u{0645}\u{062D}\u{0645}\u{062F}",
            "Zo\u{EB}",
            "\u{5F20}\u{4F1F}",
        ] {
            assert!(PlayerName::parse(fine).is_ok(), "{fine:?}");
        }
        // An AI seat's name follows the same rules.
        assert!(PlayerName::parse_for_ai("A\u{200B}I").is_err());
    }

    #[test]
    fn names_in_one_script_pass_and_mixed_look_alikes_do_not() {
        for one_script in [
            "alice",
            "Zoë",
            "Ελένη",
            "Алиса",
            "山田たろう",
            "bob 2",
            "O'Brien",
        ] {
            assert!(PlayerName::parse(one_script).is_ok(), "{one_script:?}");
        }
        // A Cyrillic "а" among Latin letters, a Greek "ο" in "bob".
        for mixed in ["p\u{430}ypal", "b\u{3BF}b"] {
            match PlayerName::parse(mixed) {
                Err(ServiceError::Invalid(text)) => {
                    assert!(text.contains("mixes scripts"), "{text}")
                }
                other => panic!("{mixed:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn ai_is_reserved_for_ai_seats() {
        // The last one is Cyrillic: "АІ".
        for reserved in [
            "AI",
            "ai",
            "Ai",
            " aI ",
            "\u{FF21}i",
            "\u{FF21}\u{FF29}",
            "\u{410}\u{406}",
        ] {
            match PlayerName::parse(reserved) {
                Err(ServiceError::Invalid(text)) => {
                    assert!(
                        text.contains("reserved for AI seats"),
                        "{reserved:?}: {text}"
                    )
                }
                other => panic!("{reserved:?}: {other:?}"),
            }
            let human = SeatPlan::parse(1, &spec(Some(reserved), None, None));
            assert!(
                matches!(&human, Err(ServiceError::Invalid(t)) if t.contains("reserved for AI seats")),
                "{reserved:?}: {human:?}"
            );
            // An AI seat may carry it.
            let ai = SeatPlan::parse(1, &spec(Some(reserved), Some(AiLevel::Easy), None)).unwrap();
            assert_eq!(ai.kind, SeatKind::Ai(AiLevel::Easy));
        }
        for fine in ["AIa", "A I", "Al", "aim"] {
            assert!(PlayerName::parse(fine).is_ok(), "{fine:?}");
        }
        // Looking a name up keeps the older rules, so a guest called "ai" before is still found.
        assert!(PlayerName::lookup("ai").is_ok());
    }
}
