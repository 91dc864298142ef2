//! Proposals by consent between two seats: take-backs and draw offers.
//!
//! One seat asks; the other seat asking the same accepts; the same seat asking again is refused;
//! a different ask replaces the waiting one; a move declines it. The games keep the waiting
//! proposal in their state as an `Option` of the proposal type ([`TakebackProposal`],
//! [`DrawOffer`]).
//!
//! [`TakebackProposal`]: crate::takeback::TakebackProposal

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use crate::{EndReason, GameResult, RuleError, Seat, SeatKind};

/// Something one seat proposes and the other accepts by proposing the same.
pub trait Proposal: Copy {
    /// What is proposed: the other seat's proposal of an equal action accepts.
    type Action: PartialEq;
    fn by(&self) -> Seat;
    fn action(&self) -> Self::Action;
}

/// What an ask does now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict<P> {
    /// Do it now: the other seat's proposal is accepted (or no consent is needed).
    Now,
    /// Recorded as the waiting proposal; nothing happens yet.
    Proposed(P),
}

/// Whether two humans sit at the table: only then does an ask wait for consent (an AI neither
/// proposes nor answers).
pub fn between_humans(seats: &[SeatKind]) -> bool {
    seats
        .iter()
        .filter(|kind| **kind == SeatKind::Human)
        .count()
        >= 2
}

/// Puts `proposal` to the table while `waiting` holds the unanswered one, if any. The other
/// seat's proposal of the same action is accepted (and cleared); the same seat asking again is a
/// Conflict naming `what` ("this undo", "a draw"); anything else becomes the waiting proposal.
pub fn ask<P: Proposal>(
    waiting: &mut Option<P>,
    proposal: P,
    what: &str,
) -> Result<Verdict<P>, RuleError> {
    match *waiting {
        Some(p) if p.action() == proposal.action() && p.by() != proposal.by() => {
            *waiting = None;
            Ok(Verdict::Now)
        }
        Some(p) if p.action() == proposal.action() => Err(RuleError::Conflict(format!(
            "seat {} already proposed {what}; the other seat accepts it by asking the same",
            p.by()
        ))),
        _ => {
            *waiting = Some(proposal);
            Ok(Verdict::Proposed(proposal))
        }
    }
}

/// A move was played: the waiting proposal, if any, is declined. Returns it, for the event.
pub fn declined_by_move<P>(waiting: &mut Option<P>) -> Option<P> {
    waiting.take()
}

/// A draw one seat offered and the other has not answered: `{"by": 0}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"by": 0})))]
pub struct DrawOffer {
    /// The offering seat.
    pub by: Seat,
}

impl Proposal for DrawOffer {
    type Action = ();

    fn by(&self) -> Seat {
        self.by
    }

    fn action(&self) {}
}

impl DrawOffer {
    /// `by` offers a draw while `waiting` holds the unanswered offer: `Now` when it accepts the
    /// other seat's offer, and the game ends in [`DrawOffer::agreed`]. Only between two humans.
    pub fn offer(
        waiting: &mut Option<DrawOffer>,
        by: Seat,
        seats: &[SeatKind],
    ) -> Result<Verdict<DrawOffer>, RuleError> {
        if !between_humans(seats) {
            return Err(RuleError::Conflict(
                "draw offers are between two humans; an AI seat does not take them".into(),
            ));
        }
        ask(waiting, DrawOffer { by }, "a draw")
    }

    /// The result of a draw both seats agreed to.
    pub fn agreed() -> GameResult {
        GameResult {
            winners: Vec::new(),
            reason: EndReason::DRAW,
            summary: "the players agreed to a draw".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AiLevel;

    /// A proposal of a letter, so that two different actions exist.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Ask(Seat, char);

    impl Proposal for Ask {
        type Action = char;
        fn by(&self) -> Seat {
            self.0
        }
        fn action(&self) -> char {
            self.1
        }
    }

    #[test]
    fn the_other_seat_asking_the_same_accepts() {
        let mut waiting = None;
        assert_eq!(
            ask(&mut waiting, Ask(0, 'a'), "a"),
            Ok(Verdict::Proposed(Ask(0, 'a')))
        );
        assert_eq!(waiting, Some(Ask(0, 'a')));
        assert_eq!(ask(&mut waiting, Ask(1, 'a'), "a"), Ok(Verdict::Now));
        assert_eq!(waiting, None, "accepted: nothing waits any more");
    }

    #[test]
    fn the_same_seat_asking_again_is_refused_and_keeps_its_proposal() {
        let mut waiting = None;
        ask(&mut waiting, DrawOffer { by: 1 }, "a draw").unwrap();
        let Err(RuleError::Conflict(text)) = ask(&mut waiting, DrawOffer { by: 1 }, "a draw")
        else {
            panic!("asking twice accepted one's own proposal")
        };
        assert!(text.contains("seat 1 already proposed a draw"), "{text}");
        assert_eq!(waiting, Some(DrawOffer { by: 1 }));
        assert_eq!(
            ask(&mut waiting, DrawOffer { by: 0 }, "a draw"),
            Ok(Verdict::Now)
        );
    }

    #[test]
    fn a_different_ask_replaces_and_a_move_declines() {
        let mut waiting = None;
        ask(&mut waiting, Ask(0, 'a'), "a").unwrap();
        assert_eq!(
            ask(&mut waiting, Ask(1, 'b'), "b"),
            Ok(Verdict::Proposed(Ask(1, 'b'))),
            "another action does not accept"
        );
        assert_eq!(
            ask(&mut waiting, Ask(1, 'a'), "a"),
            Ok(Verdict::Proposed(Ask(1, 'a'))),
            "the same seat may change its ask"
        );
        assert_eq!(declined_by_move(&mut waiting), Some(Ask(1, 'a')));
        assert_eq!(declined_by_move(&mut waiting), None);
        assert_eq!(
            ask(&mut waiting, Ask(0, 'a'), "a"),
            Ok(Verdict::Proposed(Ask(0, 'a'))),
            "declined: the next ask proposes anew"
        );
    }

    #[test]
    fn consent_is_between_two_humans() {
        let ai = SeatKind::Ai(AiLevel::Easy);
        assert!(between_humans(&[SeatKind::Human, SeatKind::Human]));
        assert!(!between_humans(&[SeatKind::Human, ai]));
        assert!(!between_humans(&[SeatKind::Human, SeatKind::Open]));
        assert!(!between_humans(&[ai, ai]));
    }

    #[test]
    fn a_draw_needs_two_humans_and_the_other_seats_offer() {
        let humans = [SeatKind::Human, SeatKind::Human];
        let mut waiting = None;
        assert_eq!(
            DrawOffer::offer(&mut waiting, 1, &humans),
            Ok(Verdict::Proposed(DrawOffer { by: 1 }))
        );
        assert_eq!(DrawOffer::offer(&mut waiting, 0, &humans), Ok(Verdict::Now));
        assert_eq!(waiting, None);
        let against_ai = [SeatKind::Human, SeatKind::Ai(AiLevel::Hard)];
        assert!(matches!(
            DrawOffer::offer(&mut waiting, 0, &against_ai),
            Err(RuleError::Conflict(_))
        ));
        assert_eq!(waiting, None, "a refused offer is not kept");
    }

    #[test]
    #[cfg(feature = "serde")]
    fn a_draw_offer_is_its_seat() {
        let offer = DrawOffer { by: 1 };
        assert_eq!(
            serde_json::to_value(offer).unwrap(),
            serde_json::json!({"by": 1})
        );
    }
}
