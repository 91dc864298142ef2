//! The table's rule options (RULES.md "UNO"); every one defaults to seed 000's plain game.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// Variants a game is created with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[cfg_attr(feature = "openapi", schema(as = UnoRules))]
pub struct Rules {
    /// Seed 000's hand cap (it used 14): a seat holding this many cards draws nothing, and the
    /// log says so. `None`: no cap.
    #[cfg_attr(feature = "openapi", schema(minimum = 7, maximum = 255, example = 14))]
    pub max_hand: Option<u8>,
    /// After a voluntary draw the turn waits for the drawing seat to play the drawn card (if it
    /// fits) or to pass, whatever the card: the table never learns whether it fits.
    pub draw_then_play: bool,
    /// Seed 002: a seat facing a pending +2 may add another +2 and pass the total on.
    pub stacking: bool,
    /// Seed 002's "抢牌": a seat holding a card identical to the one just played may play it
    /// out of turn before the next seat acts.
    pub jump_in: bool,
}

impl Rules {
    /// Every option on, with the seed's cap of 14 (what the property tests exercise).
    pub fn all_on() -> Rules {
        Rules {
            max_hand: Some(14),
            draw_then_play: true,
            stacking: true,
            jump_in: true,
        }
    }

    /// Checks values serde cannot: a cap below the 7 dealt cards would make dealing break it.
    pub fn validate(&self) -> Result<(), String> {
        match self.max_hand {
            Some(cap) if cap < 7 => Err(format!(
                "max_hand {cap} is below the 7 cards every seat is dealt; use 7 or more, or leave it out"
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "serde")]
    fn defaults_and_unknown_fields() {
        let rules: Rules = serde_json::from_str("{}").unwrap();
        assert_eq!(rules, Rules::default());
        let rules: Rules = serde_json::from_str(r#"{"max_hand": 14, "jump_in": true}"#).unwrap();
        assert_eq!(rules.max_hand, Some(14));
        assert!(rules.jump_in && !rules.stacking && !rules.draw_then_play);
        assert!(serde_json::from_str::<Rules>(r#"{"stacking": true, "bluff": true}"#).is_err());
        assert!(serde_json::from_str::<Rules>(r#"{"max_hand": 300}"#).is_err());
    }

    #[test]
    fn a_cap_below_the_deal_is_refused() {
        let low = Rules {
            max_hand: Some(6),
            ..Rules::default()
        };
        assert!(low.validate().unwrap_err().contains("max_hand 6"));
        assert!(Rules::all_on().validate().is_ok());
    }
}
