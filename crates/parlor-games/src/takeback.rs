//! Taking moves back ("悔棋" and "不悔了") by consent, for the two-player board games.
//!
//! The seeds let any seat undo at once: fine on one screen, not between two people on two screens,
//! where it lets one player erase the other's move. A game chooses a [`TakebackRule`] at creation;
//! under `consent` (the default) one human's undo between humans is a proposal, and the other's
//! undo accepts it. Against an AI the human's undo is immediate: the AI does not mind.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use crate::proposal::{self, Proposal};
use crate::{RuleError, Seat, SeatKind};

/// Who may take moves back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TakebackRule {
    /// Between humans one seat proposes and the other accepts (by asking the same); a move
    /// declines. Against an AI a human's request is immediate.
    #[default]
    Consent,
    /// Any seat takes back at once (the seeds' hot-seat behaviour).
    Any,
    /// Nobody takes back: 409.
    Off,
}

/// Which way a take-back goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TakebackAction {
    Undo,
    Redo,
}

impl TakebackAction {
    pub fn word(self) -> &'static str {
        match self {
            TakebackAction::Undo => "undo",
            TakebackAction::Redo => "redo",
        }
    }
}

/// A take-back one seat asked for and the other has not answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct TakebackProposal {
    /// The proposing seat.
    pub by: Seat,
    pub action: TakebackAction,
}

/// The rule of a game and the proposal waiting for an answer, as the state shows them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"rule": "consent", "proposal": {"by": 0, "action": "undo"}})))]
pub struct Takeback {
    #[cfg_attr(feature = "serde", serde(default))]
    pub rule: TakebackRule,
    /// A proposal waiting for the other seat (`consent` between humans).
    #[cfg_attr(feature = "serde", serde(default))]
    pub proposal: Option<TakebackProposal>,
}

impl Proposal for TakebackProposal {
    type Action = TakebackAction;

    fn by(&self) -> Seat {
        self.by
    }

    fn action(&self) -> TakebackAction {
        self.action
    }
}

/// What a take-back request does now: take back at once, or a proposal was recorded.
pub type Verdict = proposal::Verdict<TakebackProposal>;

impl Takeback {
    pub fn new(rule: TakebackRule) -> Self {
        Takeback {
            rule,
            proposal: None,
        }
    }

    /// Decides `by`'s request for `action`. `seats` are the game's seat kinds.
    pub fn request(
        &mut self,
        by: Seat,
        action: TakebackAction,
        seats: &[SeatKind],
    ) -> Result<Verdict, RuleError> {
        match self.rule {
            TakebackRule::Off => Err(RuleError::Conflict(
                "take-backs are off in this game (created with \"takeback\": \"off\")".into(),
            )),
            TakebackRule::Any => Ok(Verdict::Now),
            TakebackRule::Consent => {
                if !proposal::between_humans(seats) {
                    return Ok(Verdict::Now);
                }
                let what = format!("this {}", action.word());
                proposal::ask(&mut self.proposal, TakebackProposal { by, action }, &what)
            }
        }
    }

    /// A move was played: a waiting proposal is declined. Returns it, for the event.
    pub fn declined_by_move(&mut self) -> Option<TakebackProposal> {
        proposal::declined_by_move(&mut self.proposal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AiLevel;

    const HUMANS: [SeatKind; 2] = [SeatKind::Human, SeatKind::Human];
    const HUMAN_AND_AI: [SeatKind; 2] = [SeatKind::Human, SeatKind::Ai(AiLevel::Easy)];
    const UNDO: TakebackAction = TakebackAction::Undo;
    const REDO: TakebackAction = TakebackAction::Redo;

    #[test]
    fn consent_between_humans_needs_the_other_seat() {
        let mut t = Takeback::new(TakebackRule::Consent);
        assert_eq!(
            t.request(0, UNDO, &HUMANS).unwrap(),
            Verdict::Proposed(TakebackProposal {
                by: 0,
                action: UNDO
            })
        );
        assert!(
            matches!(t.request(0, UNDO, &HUMANS), Err(RuleError::Conflict(_))),
            "asking twice does not accept one's own proposal"
        );
        assert_eq!(t.request(1, UNDO, &HUMANS).unwrap(), Verdict::Now);
        assert_eq!(t.proposal, None, "accepted: nothing waits any more");
    }

    #[test]
    fn a_different_request_replaces_the_proposal_and_a_move_declines_it() {
        let mut t = Takeback::new(TakebackRule::Consent);
        t.request(0, UNDO, &HUMANS).unwrap();
        assert_eq!(
            t.request(1, REDO, &HUMANS).unwrap(),
            Verdict::Proposed(TakebackProposal {
                by: 1,
                action: REDO
            }),
            "a redo does not accept an undo"
        );
        assert_eq!(
            t.declined_by_move(),
            Some(TakebackProposal {
                by: 1,
                action: REDO
            })
        );
        assert_eq!(t.declined_by_move(), None);
        assert!(matches!(
            t.request(0, UNDO, &HUMANS).unwrap(),
            Verdict::Proposed(_)
        ));
    }

    #[test]
    fn consent_against_an_ai_is_immediate() {
        let mut t = Takeback::new(TakebackRule::Consent);
        for action in [UNDO, REDO] {
            assert_eq!(t.request(0, action, &HUMAN_AND_AI).unwrap(), Verdict::Now);
        }
    }

    #[test]
    fn any_is_immediate_and_off_refuses_for_every_seat_kind() {
        for seats in [HUMANS, HUMAN_AND_AI] {
            for action in [UNDO, REDO] {
                for by in 0..2 {
                    let mut any = Takeback::new(TakebackRule::Any);
                    assert_eq!(any.request(by, action, &seats).unwrap(), Verdict::Now);
                    let mut off = Takeback::new(TakebackRule::Off);
                    assert!(matches!(
                        off.request(by, action, &seats),
                        Err(RuleError::Conflict(_))
                    ));
                }
            }
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn old_states_without_the_field_read_as_consent() {
        let t: Takeback = serde_json::from_str("{}").unwrap();
        assert_eq!(t, Takeback::default());
        assert_eq!(t.rule, TakebackRule::Consent);
    }
}
