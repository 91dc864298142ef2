//! Engine tests and the position builder the AI tests share.

use super::card::{full_deck, Card, Color};
use super::game::{Direction, Parts, Played, Uno};
use super::lacks::Lacks;
use super::options::Rules;
use super::recent::{RecentPlay, TableSeen};

pub(super) fn cards(codes: &str) -> Vec<Card> {
    codes
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

/// A table in play: `hands` per seat, `top` face up ("R3", or "W4:blue" for a wild with its
/// named colour), `turn` to act; the rest of the deck in a fixed order.
pub(super) fn position(hands: &[&str], top: &str, turn: usize) -> Uno {
    position_with(hands, top, turn, Direction::Clockwise, Rules::default())
}

pub(super) fn position_with(
    hands: &[&str],
    top: &str,
    turn: usize,
    direction: Direction,
    rules: Rules,
) -> Uno {
    Table {
        hands,
        discard: &[top],
        deck_top: "",
        turn,
        direction,
        rules,
        rest_to_discard: false,
    }
    .build()
}

fn face(code: &str) -> Played {
    let (code, named) = match code.split_once(':') {
        Some((code, color)) => (code, Some(color)),
        None => (code, None),
    };
    let card: Card = code.parse().unwrap();
    let color = match named {
        Some(name) => Color::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .expect("a colour's name"),
        None => card.color().expect("a wild on the pile needs :colour"),
    };
    Played { card, color }
}

/// A hand-made table. Cards not named go to the deck (below `deck_top`, which is drawn first),
/// or under the discard pile when `rest_to_discard`.
pub(super) struct Table<'a> {
    pub hands: &'a [&'a str],
    /// Bottom first; the last is the top card ("W4:blue" for a wild with its colour).
    pub discard: &'a [&'a str],
    pub deck_top: &'a str,
    pub turn: usize,
    pub direction: Direction,
    pub rules: Rules,
    pub rest_to_discard: bool,
}

impl Table<'_> {
    pub fn build(&self) -> Uno {
        let mut rest = full_deck();
        let mut take = |c: Card| {
            let at = rest
                .iter()
                .position(|&d| d == c)
                .expect("card left in the deck");
            rest.remove(at)
        };
        let seats = self.hands.len();
        let hands: Vec<Vec<Card>> = self
            .hands
            .iter()
            .map(|h| {
                let mut hand: Vec<Card> = cards(h).into_iter().map(&mut take).collect();
                hand.sort_by_key(|c| c.seed_order());
                hand
            })
            .collect();
        let named: Vec<Played> = self.discard.iter().map(|c| face(c)).collect();
        for p in &named {
            take(p.card);
        }
        let top_of_deck: Vec<Card> = cards(self.deck_top).into_iter().map(&mut take).collect();
        let mut discard = Vec::new();
        let mut deck = Vec::new();
        if self.rest_to_discard {
            discard.extend(rest.iter().map(|&card| Played {
                card,
                color: card.color().unwrap_or(Color::Blue),
            }));
        } else {
            deck = rest;
        }
        discard.extend(named);
        deck.extend(top_of_deck.into_iter().rev());
        Uno::assemble(Parts {
            rules: self.rules,
            hands,
            deck,
            discard,
            turn: self.turn,
            direction: self.direction,
            pending_draw: 0,
            drawn: None,
            jump_window: None,
            lacks: vec![Lacks::NONE; seats],
            out: Vec::new(),
            rng_seed: 7,
        })
    }
}

fn table<'a>(hands: &'a [&'a str], top: &'a [&'a str], rules: Rules) -> Table<'a> {
    Table {
        hands,
        discard: top,
        deck_top: "",
        turn: 0,
        direction: Direction::Clockwise,
        rules,
        rest_to_discard: false,
    }
}

// ----- helpers for the engine tests ------------------------------------------------------

use super::action::{Outcome, UnoAction, UnoError, UnoEvent};
use super::deck::DeckSource;
use super::game::{Status, MAX_SHOUT_CHARS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn c(code: &str) -> Card {
    code.parse().unwrap()
}

fn play(code: &str) -> UnoAction {
    UnoAction::Play {
        card: c(code),
        color: None,
    }
}

fn wild(code: &str, color: Color) -> UnoAction {
    UnoAction::Play {
        card: c(code),
        color: Some(color),
    }
}

fn jump(code: &str) -> UnoAction {
    UnoAction::JumpIn { card: c(code) }
}

fn ok(game: &mut Uno, seat: usize, action: UnoAction) -> Vec<UnoEvent> {
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"))
}

fn illegal(game: &mut Uno, seat: usize, action: UnoAction, words: &str) {
    #[cfg(feature = "serde")]
    let before = serde_json::to_string(&*game).unwrap();
    match game.apply(seat, &action) {
        Err(UnoError::Illegal(msg)) => assert!(msg.contains(words), "{msg:?} lacks {words:?}"),
        other => panic!("seat {seat} {action:?}: expected Illegal({words}), got {other:?}"),
    }
    #[cfg(feature = "serde")]
    assert_eq!(
        serde_json::to_string(&*game).unwrap(),
        before,
        "a refused action changed nothing"
    );
}

fn counts(game: &Uno) -> Vec<usize> {
    (0..game.seats()).map(|s| game.hand_len(s)).collect()
}

fn fillers(seats: usize) -> Vec<&'static str> {
    [
        "Y1 Y2 Y3", "G1 G2 G3", "Y4 Y5 Y6", "G4 G5 G6", "Y7 Y8 Y9", "G7 G8 G9",
    ][..seats - 1]
        .to_vec()
}

/// Seat 0 holds `hand`; the others hold three cards that never match red 3.
fn opening(seats: usize, hand: &'static str, rules: Rules) -> Uno {
    let mut hands = vec![hand];
    hands.extend(fillers(seats));
    table(&hands, &["R3"], rules).build()
}

fn assert_conserved(game: &Uno) {
    let mut count = [0usize; super::card::DISTINCT_CARDS];
    for card in game.all_cards() {
        count[card.index()] += 1;
    }
    for (i, &n) in count.iter().enumerate() {
        let card = Card::from_index(i);
        assert_eq!(
            n,
            card.copies(),
            "{card}: the 108 cards are all there, once each"
        );
    }
}

// ----- dealing and decks -------------------------------------------------------------------

#[test]
fn dealing_gives_seven_each_from_a_seeded_deck() {
    for seats in 2..=10 {
        let game = Uno::new(seats, Rules::default(), seats as u64).unwrap();
        assert!(counts(&game).iter().all(|&n| n == 7));
        let top = game.top().unwrap();
        assert!(!top.card.is_wild());
        assert_eq!(game.deck_count(), 108 - 7 * seats - 1);
        assert_eq!(game.turn(), Some(0));
        assert_eq!(game.direction(), Direction::Clockwise);
        assert_conserved(&game);
    }
    assert!(matches!(
        Uno::new(1, Rules::default(), 1),
        Err(UnoError::Invalid(_))
    ));
    assert!(matches!(
        Uno::new(11, Rules::default(), 1),
        Err(UnoError::Invalid(_))
    ));
}

#[test]
fn an_explicit_deck_deals_top_first_and_a_wild_start_card_goes_to_the_bottom() {
    let deck = full_deck(); // R0 R1 R1 … , wilds last
    let (wilds, plain): (Vec<Card>, Vec<Card>) = deck.iter().partition(|c| c.is_wild());
    // 2 seats: 14 dealt, then a wild turned up, then plain[14] is the start card.
    let mut order: Vec<Card> = plain[..14].to_vec();
    order.push(wilds[0]);
    order.extend(&plain[14..]);
    order.extend(&wilds[1..]);
    let game = Uno::with_deck(2, Rules::default(), &order).unwrap();
    let mut seat0: Vec<Card> = order[..14].iter().step_by(2).copied().collect();
    seat0.sort_by_key(|c| c.seed_order());
    assert_eq!(game.hand(0), seat0.as_slice());
    assert_eq!(game.top().unwrap().card, plain[14]);
    assert_eq!(
        game.deck_for_tests().first(),
        Some(&wilds[0]),
        "the wild is at the bottom"
    );
    let events: Vec<UnoEvent> = game.log().cloned().collect();
    assert!(events.contains(&UnoEvent::StartCardBuried { card: wilds[0] }));
    assert_conserved(&game);
}

#[test]
fn a_deck_that_is_not_a_permutation_of_the_108_cards_is_refused() {
    let mut deck = full_deck();
    assert!(Uno::with_deck(4, Rules::default(), &deck).is_ok());
    deck.pop();
    let err = Uno::with_deck(4, Rules::default(), &deck).unwrap_err();
    assert!(
        matches!(&err, UnoError::Invalid(m) if m.contains("108")),
        "{err}"
    );
    deck.push(c("R0")); // now two red zeros and three W4
    let err = Uno::with_deck(4, Rules::default(), &deck).unwrap_err();
    assert!(
        matches!(&err, UnoError::Invalid(m) if m.contains("R0")),
        "{err}"
    );
}

#[test]
fn a_room_deals_only_at_start() {
    let mut room = Uno::new_room(3, Rules::default(), DeckSource::Seed(5)).unwrap();
    assert_eq!(room.turn(), None);
    assert_eq!(room.status(), Status::Waiting);
    assert_eq!(room.apply(0, &UnoAction::Draw), Err(UnoError::NotStarted));
    assert_eq!(room.shout(0, 1, "hi"), Err(UnoError::NotStarted));
    assert_eq!(room.public_view().status, "waiting");
    room.start().unwrap();
    assert_eq!(room.turn(), Some(0));
    assert_eq!(room.start(), Err(UnoError::AlreadyStarted));
    // The same seed dealt at once gives the same table.
    #[cfg(feature = "serde")]
    {
        let direct = Uno::new(3, Rules::default(), 5).unwrap();
        assert_eq!(
            serde_json::to_value(&room).unwrap(),
            serde_json::to_value(&direct).unwrap()
        );
    }
}

// ----- every card's effect with 2, 3 and 4 seats -------------------------------------------

#[test]
fn a_number_passes_the_turn_on() {
    for seats in 2..=4 {
        let mut game = opening(seats, "R5 B9", Rules::default());
        ok(&mut game, 0, play("R5"));
        assert_eq!(game.turn(), Some(1), "{seats} seats");
        // The symbol matches too: B9 on … no; G5 would. Colour now red.
        assert_eq!(game.current_color(), Some(Color::Red));
    }
}

#[test]
fn a_skip_skips_the_next_seat() {
    for seats in 2..=4 {
        let mut game = opening(seats, "RS B9", Rules::default());
        let events = ok(&mut game, 0, play("RS"));
        assert!(events.contains(&UnoEvent::Skipped { seat: 1 }));
        assert_eq!(game.turn(), Some(2 % seats), "{seats} seats");
    }
}

#[test]
fn a_reverse_flips_the_direction_and_acts_as_a_skip_with_two_seats() {
    for seats in 2..=4 {
        let mut game = opening(seats, "RR B9", Rules::default());
        let events = ok(&mut game, 0, play("RR"));
        assert_eq!(game.direction(), Direction::Counterclockwise);
        if seats == 2 {
            assert!(events.contains(&UnoEvent::Skipped { seat: 1 }));
            assert_eq!(game.turn(), Some(0));
        } else {
            assert_eq!(game.turn(), Some(seats - 1), "{seats} seats");
        }
    }
}

#[test]
fn a_draw_two_makes_the_next_seat_draw_two_and_lose_its_turn() {
    for seats in 2..=4 {
        let mut game = opening(seats, "RD2 B9", Rules::default());
        let events = ok(&mut game, 0, play("RD2"));
        assert!(events.contains(&UnoEvent::Drew {
            seat: 1,
            count: 2,
            penalty: true
        }));
        assert_eq!(game.hand_len(1), 5);
        assert_eq!(game.turn(), Some(2 % seats), "{seats} seats");
        assert_conserved(&game);
    }
}

#[test]
fn wilds_name_the_colour_and_a_wild_draw_four_makes_the_next_seat_draw_four() {
    for seats in 2..=4 {
        let mut game = opening(seats, "W W4 B9", Rules::default());
        ok(&mut game, 0, wild("W", Color::Green));
        assert_eq!(game.current_color(), Some(Color::Green));
        assert_eq!(game.turn(), Some(1));

        let mut game = opening(seats, "W W4 B9", Rules::default());
        ok(&mut game, 0, wild("W4", Color::Blue));
        assert_eq!(game.current_color(), Some(Color::Blue));
        assert_eq!(game.hand_len(1), 7);
        assert_eq!(game.turn(), Some(2 % seats), "{seats} seats");
        // Blue is in play: B9 fits, a red card no longer does.
        let view = game.public_view();
        assert_eq!(view.top.unwrap().color, Color::Blue);
    }
}

#[test]
fn colour_or_symbol_matches() {
    let game = table(&["R5 G3 G4 W", "Y1 Y2"], &["R3"], Rules::default()).build();
    assert!(game.is_playable(0, c("R5")));
    assert!(game.is_playable(0, c("G3")));
    assert!(!game.is_playable(0, c("G4")));
    assert!(game.is_playable(0, c("W")));
    assert!(!game.is_playable(1, c("Y1")), "not seat 1's turn");
    let actions = game.legal_actions(0);
    // R5, G3, W in four colours, and draw.
    assert_eq!(actions.len(), 2 + 4 + 1);
    assert!(actions.contains(&UnoAction::Draw));
}

// ----- stacking ------------------------------------------------------------------------------

#[test]
fn stacking_passes_the_growing_total_on_until_someone_draws_it() {
    let rules = Rules {
        stacking: true,
        ..Rules::default()
    };
    let mut game = table(&["RD2 B1", "BD2 Y1 Y2", "G1 G2 G3 W4"], &["R3"], rules).build();
    let events = ok(&mut game, 0, play("RD2"));
    assert!(events.contains(&UnoEvent::DrawPending { seat: 1, total: 2 }));
    assert_eq!(game.turn(), Some(1));
    illegal(&mut game, 1, play("Y1"), "a +2 is pending");
    ok(&mut game, 1, play("BD2"));
    assert_eq!(game.pending_draw(), 4);
    assert_eq!(game.turn(), Some(2));
    illegal(
        &mut game,
        2,
        wild("W4", Color::Red),
        "draw 4 cards or add a +2",
    );
    let events = ok(&mut game, 2, UnoAction::Draw);
    assert!(events.contains(&UnoEvent::Drew {
        seat: 2,
        count: 4,
        penalty: true
    }));
    assert_eq!(game.hand_len(2), 8);
    assert_eq!(game.pending_draw(), 0);
    assert_eq!(game.turn(), Some(0));
    assert_conserved(&game);
}

#[test]
fn without_stacking_a_pending_two_can_only_be_drawn() {
    // jump_in alone also keeps a +2 pending (so that a jump-in can move it).
    let rules = Rules {
        jump_in: true,
        ..Rules::default()
    };
    let mut game = table(&["RD2 B1", "BD2 Y1 Y2", "G1 G2 G3"], &["R3"], rules).build();
    ok(&mut game, 0, play("RD2"));
    illegal(&mut game, 1, play("BD2"), "draw 2 cards");
    assert_eq!(game.legal_actions(1), vec![UnoAction::Draw]);
    ok(&mut game, 1, UnoAction::Draw);
    assert_eq!(game.hand_len(1), 5);
    assert_eq!(game.turn(), Some(2));
}

// ----- jump-in --------------------------------------------------------------------------------

fn jump_rules() -> Rules {
    Rules {
        jump_in: true,
        ..Rules::default()
    }
}

#[test]
fn jump_in_on_a_number_moves_the_turn_to_the_jumpers_next_seat() {
    let mut game = table(&["R7 B1", "Y1 Y2", "R7 G5", "G1 G2"], &["R3"], jump_rules()).build();
    ok(&mut game, 0, play("R7"));
    assert_eq!(game.turn(), Some(1));
    assert!(game.can_jump_in(2) && !game.can_jump_in(1));
    let events = ok(&mut game, 2, jump("R7"));
    assert_eq!(
        events[0],
        UnoEvent::JumpedIn {
            seat: 2,
            card: c("R7"),
            over: 0
        }
    );
    assert_eq!(game.turn(), Some(3));
    assert_eq!(game.hand_len(2), 1);
    assert_eq!(
        game.apply(1, &play("Y1")),
        Err(UnoError::NotYourTurn {
            seat: 1,
            expected: 3
        })
    );
}

#[test]
fn jump_in_on_a_skip_skips_the_jumpers_next_seat_instead() {
    // The skipped seat itself jumps in: its own skip is lifted and seat 2 is skipped.
    let mut game = table(&["RS B1", "RS Y2", "Y1 Y3", "G1 G2"], &["R3"], jump_rules()).build();
    ok(&mut game, 0, play("RS"));
    assert_eq!(game.turn(), Some(2));
    let events = ok(&mut game, 1, jump("RS"));
    assert!(events.contains(&UnoEvent::Skipped { seat: 2 }));
    assert_eq!(game.turn(), Some(3));
    // The seat to act may jump in too.
    let mut game = table(&["RS B1", "Y1 Y2", "RS G5", "G1 G2"], &["R3"], jump_rules()).build();
    ok(&mut game, 0, play("RS"));
    ok(&mut game, 2, jump("RS"));
    assert_eq!(game.turn(), Some(0), "seat 3 skipped");
}

#[test]
fn jump_in_on_a_reverse_leaves_one_flip_from_the_original_direction() {
    let mut game = table(&["RR B1", "Y1 Y2", "RR G5", "G1 G2"], &["R3"], jump_rules()).build();
    ok(&mut game, 0, play("RR"));
    assert_eq!(game.direction(), Direction::Counterclockwise);
    assert_eq!(game.turn(), Some(3));
    ok(&mut game, 2, jump("RR"));
    assert_eq!(game.direction(), Direction::Counterclockwise);
    assert_eq!(
        game.turn(),
        Some(1),
        "the jumper's next seat, counterclockwise"
    );
}

#[test]
fn jump_in_on_a_draw_two_keeps_the_total_for_the_jumpers_next_seat() {
    let mut game = table(
        &["RD2 B1", "Y1 Y2", "RD2 G5", "G1 G2"],
        &["R3"],
        jump_rules(),
    )
    .build();
    ok(&mut game, 0, play("RD2"));
    assert_eq!((game.pending_draw(), game.turn()), (2, Some(1)));
    ok(&mut game, 2, jump("RD2"));
    assert_eq!((game.pending_draw(), game.turn()), (2, Some(3)));
    illegal(&mut game, 3, play("G1"), "a +2 is pending");
    ok(&mut game, 3, UnoAction::Draw);
    assert_eq!(game.hand_len(3), 4);
    assert_eq!(game.hand_len(1), 2, "the first victim drew nothing");
    assert_eq!(game.turn(), Some(0));

    // With stacking, the total built before the jumped card stays: 2 + 2 = 4, not 6.
    let rules = Rules {
        stacking: true,
        jump_in: true,
        ..Rules::default()
    };
    let mut game = table(&["RD2 B1", "BD2 Y1", "Y2 Y3", "BD2 G5"], &["R3"], rules).build();
    ok(&mut game, 0, play("RD2"));
    ok(&mut game, 1, play("BD2"));
    assert_eq!((game.pending_draw(), game.turn()), (4, Some(2)));
    ok(&mut game, 3, jump("BD2"));
    assert_eq!((game.pending_draw(), game.turn()), (4, Some(0)));
}

#[test]
fn a_seat_may_jump_in_on_its_own_card_and_win_by_jumping() {
    let mut game = table(&["R7 R7 B1", "Y1 Y2", "G1 G2"], &["R3"], jump_rules()).build();
    ok(&mut game, 0, play("R7"));
    ok(&mut game, 0, jump("R7"));
    assert_eq!(game.hand(0), &[c("B1")]);
    assert_eq!(game.turn(), Some(1));

    let mut game = table(&["R7 B1", "Y1 Y2", "R7"], &["R3"], jump_rules()).build();
    ok(&mut game, 0, play("R7"));
    let events = ok(&mut game, 2, jump("R7"));
    let points = 1 + (1 + 2);
    assert_eq!(events.last(), Some(&UnoEvent::Won { seat: 2, points }));
    assert_eq!(
        game.result(),
        Some(Outcome::OutOfCards { winner: 2, points })
    );
}

#[test]
fn jump_in_is_refused_without_the_option_a_window_or_the_identical_card() {
    let mut game = table(
        &["R7 B1", "Y1 Y2", "R7 G5 W", "G1 G2"],
        &["R3"],
        Rules::default(),
    )
    .build();
    ok(&mut game, 0, play("R7"));
    illegal(&mut game, 2, jump("R7"), "jump-in is off");

    let mut game = table(
        &["R7 B1", "Y1 Y2", "R7 G7 W", "G1 G2"],
        &["R3"],
        jump_rules(),
    )
    .build();
    assert_eq!(game.apply(2, &jump("R7")), Err(UnoError::NoJumpWindow));
    ok(&mut game, 0, play("R7"));
    illegal(&mut game, 2, jump("G7"), "identical");
    illegal(&mut game, 3, jump("R7"), "you do not hold R7");
    illegal(&mut game, 2, jump("W"), "wild cards cannot be jumped");
    // The window closes when the next seat acts: a jump racing that action loses.
    ok(&mut game, 1, UnoAction::Draw);
    assert_eq!(game.apply(2, &jump("R7")), Err(UnoError::NoJumpWindow));

    // No window after a wild.
    let mut game = table(&["W B1", "Y1 Y2", "W G5", "G1 G2"], &["R3"], jump_rules()).build();
    ok(&mut game, 0, wild("W", Color::Green));
    assert!(game.jump_window().is_none());
    illegal(&mut game, 2, jump("W"), "wild cards cannot be jumped");
}

// ----- drawing: reshuffle, the cap, draw_then_play ------------------------------------------

#[test]
fn an_empty_deck_is_refilled_from_the_discard_pile_with_wild_colours_reset() {
    let mut game = Table {
        hands: &["B1 B2", "G1 G2"],
        discard: &["W:blue", "W4:green", "R5"],
        deck_top: "",
        turn: 0,
        direction: Direction::Clockwise,
        rules: Rules::default(),
        rest_to_discard: true,
    }
    .build();
    assert_eq!(game.deck_count(), 0);
    let events = ok(&mut game, 0, UnoAction::Draw);
    assert_eq!(events[0], UnoEvent::Reshuffled { cards: 108 - 4 - 1 });
    assert_eq!(game.deck_count(), 108 - 4 - 1 - 1);
    assert_eq!(game.discard().len(), 1);
    assert_eq!(game.top().unwrap().card, c("R5"));
    assert_conserved(&game);
    // The wilds went back without their colours: drawn again, they need a new one.
    let deck = game.deck_for_tests().to_vec();
    assert!(deck.contains(&Card::WILD) || game.hand(0).contains(&Card::WILD));
    let mut game = Table {
        hands: &["B1", "G1 G2"],
        discard: &["W:blue", "R5"],
        deck_top: "",
        turn: 0,
        direction: Direction::Clockwise,
        rules: Rules::default(),
        rest_to_discard: false,
    }
    .build();
    // Draw the deck empty; the next draw can only come from the discard pile's wild.
    while game.deck_count() > 0 {
        let seat = game.turn().unwrap();
        ok(&mut game, seat, UnoAction::Draw);
    }
    let t = game.turn().unwrap();
    let events = ok(&mut game, t, UnoAction::Draw);
    assert_eq!(events[0], UnoEvent::Reshuffled { cards: 1 });
    assert!(game.hand(t).contains(&Card::WILD));
    ok(&mut game, 1 - t, UnoAction::Draw); // nothing left at all: the draw is skipped
    assert!(game.log().any(|e| *e
        == UnoEvent::NoCardsLeft {
            seat: 1 - t,
            missed: 1
        }));
    assert_conserved(&game);
    illegal(&mut game, t, play("W"), "name a colour");
    ok(&mut game, t, wild("W", Color::Yellow));
    assert_eq!(game.current_color(), Some(Color::Yellow));
}

#[test]
fn the_hand_cap_stops_draws_and_the_log_says_so() {
    let rules = Rules {
        max_hand: Some(14),
        ..Rules::default()
    };
    let full = "B0 B1 B1 B2 B2 B4 B4 B5 B5 B6 B6 B7 B7 B8";
    let mut game = table(&[full, "RD2 Y2"], &["R3"], rules).build();
    let events = ok(&mut game, 0, UnoAction::Draw);
    assert_eq!(
        events,
        vec![UnoEvent::HandFull {
            seat: 0,
            cap: 14,
            missed: 1
        }]
    );
    assert_eq!(game.hand_len(0), 14);
    assert_eq!(game.turn(), Some(1));
    // A penalty stops at the cap too: 13 cards + 2 → 14.
    let thirteen = "B0 B1 B1 B2 B2 B4 B4 B5 B5 B6 B6 B7 B7";
    let mut game = table(&["RD2 Y2", thirteen, "G1"], &["R3"], rules).build();
    let events = ok(&mut game, 0, play("RD2"));
    assert!(events.contains(&UnoEvent::Drew {
        seat: 1,
        count: 1,
        penalty: true
    }));
    assert!(events.contains(&UnoEvent::HandFull {
        seat: 1,
        cap: 14,
        missed: 1
    }));
    assert_eq!(game.hand_len(1), 14);
    assert_eq!(game.turn(), Some(2));
    assert!(game.public_view().log.contains(&UnoEvent::HandFull {
        seat: 1,
        cap: 14,
        missed: 1
    }));
}

#[test]
fn draw_then_play_lets_the_drawn_card_be_played_or_passed() {
    let rules = Rules {
        draw_then_play: true,
        ..Rules::default()
    };
    let build = |deck_top: &'static str| {
        Table {
            hands: &["R1 B2", "Y1 Y2"],
            discard: &["R3"],
            deck_top,
            turn: 0,
            direction: Direction::Clockwise,
            rules,
            rest_to_discard: false,
        }
        .build()
    };
    let mut game = build("R9");
    ok(&mut game, 0, UnoAction::Draw);
    assert_eq!(game.turn(), Some(0));
    assert_eq!(game.drawn(), Some(c("R9")));
    assert!(game.public_view().awaiting_pass);
    assert_eq!(game.legal_actions(0), vec![play("R9"), UnoAction::Pass]);
    illegal(&mut game, 0, play("R1"), "only play the card you drew");
    illegal(&mut game, 0, UnoAction::Draw, "already drawn");
    ok(&mut game, 0, play("R9"));
    assert_eq!(game.turn(), Some(1));

    let mut game = build("R9");
    ok(&mut game, 0, UnoAction::Draw);
    assert_eq!(
        ok(&mut game, 0, UnoAction::Pass),
        vec![UnoEvent::Passed { seat: 0 }]
    );
    assert_eq!((game.turn(), game.hand_len(0)), (Some(1), 3));

    // An unplayable drawn card waits for `pass` too: the table cannot tell the two draws
    // apart; only the seat's own view shows that G9 does not fit.
    let mut playable = build("R9");
    ok(&mut playable, 0, UnoAction::Draw);
    let mut game = build("G9");
    ok(&mut game, 0, UnoAction::Draw);
    assert_eq!(game.turn(), Some(0));
    assert_eq!(game.public_view(), playable.public_view());
    let mine = game.seat_view(0).hand.unwrap();
    assert!(mine.iter().all(|c| !c.playable), "{mine:?}");
    assert_eq!(game.legal_actions(0), vec![UnoAction::Pass]);
    illegal(&mut game, 0, play("G9"), "does not match the red R3: pass");
    illegal(&mut game, 0, play("R1"), "only play the card you drew");
    ok(&mut game, 0, UnoAction::Pass);
    assert_eq!((game.turn(), game.hand_len(0)), (Some(1), 3));
    illegal(&mut game, 1, UnoAction::Pass, "draw first");
}

// ----- illegal actions ---------------------------------------------------------------------

#[test]
fn illegal_plays_are_refused_with_their_error() {
    let mut game = table(&["R5 B7 W", "Y1 Y2", "G1 G2"], &["R3"], Rules::default()).build();
    illegal(&mut game, 0, play("B7"), "does not match the red R3");
    illegal(&mut game, 0, play("G5"), "you do not hold G5");
    illegal(&mut game, 0, play("W"), "name a colour");
    illegal(
        &mut game,
        0,
        wild("R5", Color::Blue),
        "only a wild card takes a colour",
    );
    illegal(&mut game, 0, UnoAction::Pass, "no pass in this game");
    assert_eq!(
        game.apply(1, &play("Y1")),
        Err(UnoError::NotYourTurn {
            seat: 1,
            expected: 0
        })
    );
    assert!(matches!(
        game.apply(3, &UnoAction::Draw),
        Err(UnoError::Invalid(_))
    ));
    ok(&mut game, 0, play("R5"));
    let mut over = table(&["R5", "Y1 Y2", "G1 G2"], &["R3"], Rules::default()).build();
    ok(&mut over, 0, play("R5"));
    assert_eq!(over.turn(), None);
    assert_eq!(over.apply(1, &UnoAction::Draw), Err(UnoError::GameOver));
    assert_eq!(over.shout(1, 2, "gg"), Err(UnoError::GameOver));
}

#[test]
#[cfg(feature = "serde")]
fn actions_read_and_write_as_the_api_spells_them() {
    let read = |json: &str| serde_json::from_str::<UnoAction>(json);
    assert_eq!(
        read(r#"{"action": "play", "card": "r7"}"#).unwrap(),
        play("R7")
    );
    assert_eq!(
        read(r#"{"action":"play","card":"W4","color":"blue"}"#).unwrap(),
        wild("W4", Color::Blue)
    );
    assert_eq!(read(r#"{"action":"draw"}"#).unwrap(), UnoAction::Draw);
    assert_eq!(read(r#"{"action":"pass"}"#).unwrap(), UnoAction::Pass);
    assert_eq!(
        read(r#"{"action":"jump_in","card":"R7"}"#).unwrap(),
        jump("R7")
    );
    assert!(read(r#"{"action":"play","card":"X7"}"#).is_err());
    assert!(read(r#"{"action":"play","card":"W","color":"pink"}"#).is_err());
    assert!(read(r#"{"action":"fold"}"#).is_err());
    assert!(
        read(r#"{"action":"play","card":"R7","colour":"red"}"#).is_err(),
        "unknown fields are refused"
    );
    assert_eq!(
        serde_json::to_string(&wild("W4", Color::Blue)).unwrap(),
        r#"{"action":"play","card":"W4","color":"blue"}"#
    );
    assert_eq!(
        serde_json::to_string(&play("R7")).unwrap(),
        r#"{"action":"play","card":"R7"}"#
    );
}

// ----- the end ----------------------------------------------------------------------------

#[test]
fn the_first_empty_hand_wins_the_official_points_of_the_others() {
    let mut game = table(&["R5", "Y1 YS", "W4 G9 GD2"], &["R3"], Rules::default()).build();
    let events = ok(&mut game, 0, play("R5"));
    let points = 1 + 20 + 50 + 9 + 20;
    assert_eq!(events.last(), Some(&UnoEvent::Won { seat: 0, points }));
    assert_eq!(game.status(), Status::Finished { winner: 0, points });
    let view = game.public_view();
    assert_eq!(
        (view.status, view.winner, view.points),
        ("finished", Some(0), Some(points))
    );
    let mut game = Uno::new(3, Rules::default(), 1).unwrap();
    assert_eq!(game.abort(), vec![UnoEvent::Aborted]);
    assert_eq!(game.result(), Some(Outcome::Aborted));
    assert!(game.abort().is_empty());
}

// ----- shouts ----------------------------------------------------------------------------------

#[test]
fn shouts_follow_the_seeds_limits_and_only_the_recipient_reads_them() {
    let mut game = table(&["R5 R6 R7", "Y1 Y2", "G1 G2"], &["R3"], Rules::default()).build();
    assert_eq!(
        game.shout(0, 0, "me"),
        Err(UnoError::Illegal("you cannot shout to yourself".into()))
    );
    let long: String = "喊".repeat(MAX_SHOUT_CHARS + 1);
    assert!(matches!(game.shout(0, 1, &long), Err(UnoError::Invalid(m)) if m.contains("201")));
    assert!(matches!(game.shout(0, 5, "hi"), Err(UnoError::Invalid(_))));
    let exactly: String = "喊".repeat(MAX_SHOUT_CHARS); // 600 bytes, 200 characters
    assert_eq!(
        game.shout(0, 1, &exactly).unwrap(),
        vec![UnoEvent::Shouted { from: 0, to: 1 }]
    );
    assert!(
        matches!(game.shout(0, 2, "again"), Err(UnoError::Illegal(m)) if m.contains("already shouted"))
    );
    ok(&mut game, 0, play("R5"));
    game.shout(0, 2, "secret plan").unwrap();
    game.shout(1, 2, "out of turn is fine").unwrap();

    let to2 = game.seat_view(2);
    let texts: Vec<&str> = to2
        .messages
        .as_ref()
        .unwrap()
        .iter()
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(texts, vec!["secret plan", "out of turn is fine"]);
    #[cfg(feature = "serde")]
    for seat in [0, 1] {
        let json = serde_json::to_string(&game.seat_view(seat)).unwrap();
        assert!(
            !json.contains("secret plan"),
            "seat {seat} must not read seat 2's messages"
        );
    }
    #[cfg(feature = "serde")]
    {
        let public = serde_json::to_string(&game.public_view()).unwrap();
        assert!(!public.contains("secret plan") && !public.contains('喊'));
    }
    assert_eq!(game.public_view().shouts.len(), 3);
}

// ----- forfeits --------------------------------------------------------------------------------

use crate::EndReason;

/// `action` by `seat`, which is out, is refused as such and changes nothing.
fn refused_as_out(game: &mut Uno, seat: usize, action: UnoAction) {
    let before = format!("{game:?}");
    assert_eq!(
        game.apply(seat, &action),
        Err(UnoError::Out(seat)),
        "{action:?}"
    );
    assert_eq!(
        format!("{game:?}"),
        before,
        "a refused action changed nothing"
    );
}

#[test]
fn a_seat_out_is_passed_by_both_ways_and_can_no_longer_act() {
    let rules = Rules {
        jump_in: true,
        ..Rules::default()
    };
    let mut game = table(&["R5 B2 B3", "R5 RR R2 G8", "R7 R9"], &["R3"], rules).build();
    let held = game.hand(0).to_vec();
    let deck_before = game.deck_count();
    // Seat 0, to act, runs out of time: the turn passes as if it had passed.
    let events = game.forfeit(0, EndReason::TIMEOUT).unwrap();
    assert_eq!(
        events,
        vec![UnoEvent::SeatOut {
            seat: 0,
            reason: EndReason::TIMEOUT
        }]
    );
    assert_eq!(game.turn(), Some(1));
    assert!(game.is_out(0) && !game.is_out(1) && game.seats_in() == 2);
    // Its hand went face down under the deck.
    assert_eq!(game.hand_len(0), 0);
    assert_eq!(game.deck_count(), deck_before + held.len());
    assert_eq!(&game.deck_for_tests()[..held.len()], held.as_slice());
    assert_conserved(&game);

    refused_as_out(&mut game, 0, play("R5"));
    refused_as_out(&mut game, 0, UnoAction::Draw);
    assert_eq!(game.shout(0, 1, "wait"), Err(UnoError::Out(0)));
    assert_eq!(game.forfeit(0, EndReason::ABANDONED), Err(UnoError::Out(0)));

    ok(&mut game, 1, play("R5"));
    assert_eq!(game.turn(), Some(2));
    // The jump-in window is open on R5, which seat 0 held: it may not jump in.
    assert!(game.jump_window().is_some());
    refused_as_out(&mut game, 0, jump("R5"));
    assert!(game.legal_actions(0).is_empty());

    // Clockwise from seat 2 the next seat in is 1.
    ok(&mut game, 2, play("R7"));
    assert_eq!(game.turn(), Some(1));
    // With two seats left in, a Reverse acts as a Skip.
    let events = ok(&mut game, 1, play("RR"));
    assert!(events.contains(&UnoEvent::Skipped { seat: 2 }));
    assert_eq!(
        (game.direction(), game.turn()),
        (Direction::Counterclockwise, Some(1))
    );
    // Counterclockwise from seat 1 the next seat in is 2.
    ok(&mut game, 1, play("R2"));
    assert_eq!(game.turn(), Some(2));
    // The last two finish as ever: the points count the hands in play (G8), not seat 0's.
    let events = ok(&mut game, 2, play("R9"));
    assert_eq!(events.last(), Some(&UnoEvent::Won { seat: 2, points: 8 }));
    assert_eq!(
        game.status(),
        Status::Finished {
            winner: 2,
            points: 8
        }
    );
    assert_conserved(&game);
}

#[test]
fn a_penalty_for_a_seat_that_goes_out_moves_on_to_the_next_seat_in() {
    let rules = Rules {
        stacking: true,
        ..Rules::default()
    };
    let mut game = table(&["RD2 GD2 B1", "Y1 Y2 Y3", "G1 G2 G3 G4"], &["R3"], rules).build();
    ok(&mut game, 0, play("RD2"));
    assert_eq!(game.turn(), Some(1));
    // Seat 1 leaves while the +2 waits for it: the +2 waits for seat 2 instead.
    let events = game.forfeit(1, EndReason::ABANDONED).unwrap();
    assert_eq!(
        events,
        vec![
            UnoEvent::SeatOut {
                seat: 1,
                reason: EndReason::ABANDONED
            },
            UnoEvent::DrawPending { seat: 2, total: 2 }
        ]
    );
    assert_eq!((game.turn(), game.pending_draw()), (Some(2), 2));
    ok(&mut game, 2, UnoAction::Draw);
    assert_eq!(game.hand_len(2), 6);
    assert_eq!(game.turn(), Some(0));
    // A +2 from seat 0 passes seat 1 by and waits for seat 2.
    let events = ok(&mut game, 0, play("GD2"));
    assert!(events.contains(&UnoEvent::DrawPending { seat: 2, total: 2 }));
    assert_eq!(game.turn(), Some(2));
}

#[test]
fn the_last_seat_in_wins_when_the_others_forfeit() {
    let mut game = Uno::new(3, Rules::default(), 5).unwrap();
    // A seat not to act may leave too: the turn stays where it is.
    game.forfeit(2, EndReason::ABANDONED).unwrap();
    assert_eq!((game.turn(), game.result()), (Some(0), None));
    game.forfeit(0, EndReason::TIMEOUT).unwrap();
    assert_eq!(game.status(), Status::LastStanding { winner: 1 });
    assert_eq!(game.result(), Some(Outcome::LastStanding { winner: 1 }));
    assert_eq!(game.turn(), None);
    let view = game.public_view();
    assert_eq!(
        (view.status, view.winner, view.points, view.out),
        ("finished", Some(1), None, vec![2, 0])
    );
    assert_eq!(game.forfeit(1, EndReason::TIMEOUT), Err(UnoError::GameOver));
    assert_eq!(game.apply(1, &UnoAction::Draw), Err(UnoError::GameOver));
    assert_conserved(&game);

    let mut room = Uno::new_room(2, Rules::default(), DeckSource::Seed(1)).unwrap();
    assert_eq!(
        room.forfeit(0, EndReason::TIMEOUT),
        Err(UnoError::NotStarted)
    );
}

#[test]
#[cfg(feature = "serde")]
fn views_show_who_is_out_and_never_its_cards() {
    // Nobody else holds W4, B7 or G9, and none is face up.
    let mut game = table(&["R5 R6", "W4 B7 G9", "Y1 Y2"], &["R3"], Rules::default()).build();
    let json = |view: &super::UnoView| serde_json::to_string(view).unwrap();
    assert!(
        json(&game.seat_view(1)).contains("\"B7\""),
        "its own view shows them"
    );
    game.forfeit(1, EndReason::TIMEOUT).unwrap();
    let views = [
        game.public_view(),
        game.seat_view(0),
        game.seat_view(1),
        game.seat_view(2),
    ];
    for view in &views {
        assert_eq!(view.out, vec![1]);
        assert_eq!(view.hands[1].count, 0);
        for code in ["\"W4\"", "\"B7\"", "\"G9\""] {
            assert!(!json(view).contains(code), "{code} in {}", json(view));
        }
    }
    assert!(json(&views[0]).contains("\"out\":[1]"));
    assert_eq!(views[2].hand, Some(Vec::new()));
    assert_eq!(views[2].can_jump_in, Some(false));
    // Hands stay private: seat 0 sees its own cards and only counts of the others.
    let codes: Vec<String> = views[1]
        .hand
        .iter()
        .flatten()
        .map(|c| c.code.to_string())
        .collect();
    assert_eq!(codes, ["R5", "R6"]);
    assert!(views[0].hand.is_none() && !json(&views[1]).contains("\"Y1\""));

    // A state saved before forfeits existed loads with every seat in.
    let mut stored = serde_json::to_value(&game).unwrap();
    stored.as_object_mut().unwrap().remove("out");
    let loaded: Uno = serde_json::from_value(stored).unwrap();
    assert!(loaded.out().is_empty() && !loaded.is_out(1));
}

// ----- properties over many random games --------------------------------------------------

/// Every action any seat may take now (jump-ins from every seat included).
fn all_actions(game: &Uno) -> Vec<(usize, UnoAction)> {
    (0..game.seats())
        .flat_map(|s| game.legal_actions(s).into_iter().map(move |a| (s, a)))
        .collect()
}

/// Card codes in a JSON value.
#[cfg(feature = "serde")]
fn codes_in(value: &serde_json::Value, out: &mut Vec<Card>) {
    match value {
        serde_json::Value::String(s) => out.extend(s.parse::<Card>().ok()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| codes_in(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| codes_in(v, out)),
        _ => {}
    }
}

/// Cards that were ever face up on the table.
fn note_public(events: &[UnoEvent], seen: &mut [bool]) {
    for e in events {
        match *e {
            UnoEvent::Played { card, .. }
            | UnoEvent::JumpedIn { card, .. }
            | UnoEvent::StartCard { card, .. }
            | UnoEvent::StartCardBuried { card } => seen[card.index()] = true,
            _ => {}
        }
    }
}

#[cfg(feature = "serde")]
fn assert_no_leak(game: &Uno, seat: usize, seen: &[bool], events: &[UnoEvent]) {
    let mut found = Vec::new();
    codes_in(
        &serde_json::to_value(game.seat_view(seat)).unwrap(),
        &mut found,
    );
    codes_in(&serde_json::to_value(events).unwrap(), &mut found);
    for card in found {
        assert!(
            seen[card.index()] || game.hand(seat).contains(&card),
            "seat {seat}'s view shows {card}, which it never saw"
        );
    }
    let mut public = Vec::new();
    codes_in(
        &serde_json::to_value(game.public_view()).unwrap(),
        &mut public,
    );
    assert!(
        public.iter().all(|c| seen[c.index()]),
        "the public view shows a hidden card"
    );
}

/// Plays random legal actions (jump-ins and shouts included); returns the game and whether a
/// reshuffle happened.
fn random_game(
    seats: usize,
    rules: Rules,
    seed: u64,
    check: &mut dyn FnMut(&Uno, &[UnoEvent]),
) -> Uno {
    let mut game = Uno::new(seats, rules, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xabcdef);
    let start: Vec<UnoEvent> = game.log().cloned().collect();
    check(&game, &start);
    for _ in 0..600 {
        if game.is_over() {
            break;
        }
        if rng.gen_ratio(1, 10) {
            let from = rng.gen_range(0..seats);
            let to = rng.gen_range(0..seats);
            let _ = game.shout(from, to, "hello there");
        }
        let actions = all_actions(&game);
        // Mostly plays, so that games end: a uniform choice draws far too often.
        let plays: Vec<_> = actions
            .iter()
            .filter(|(_, a)| !matches!(a, UnoAction::Draw | UnoAction::Pass))
            .collect();
        let (seat, action) = if !plays.is_empty() && rng.gen_ratio(4, 5) {
            *plays[rng.gen_range(0..plays.len())]
        } else {
            actions[rng.gen_range(0..actions.len())]
        };
        let events = ok(&mut game, seat, action);
        check(&game, &events);
    }
    game
}

#[test]
fn the_108_cards_are_conserved_and_no_view_shows_a_hidden_card() {
    let mut reshuffles = 0;
    let mut jumps = 0;
    let mut finished = 0;
    for g in 0..2000u64 {
        let seats = 2 + (g % 9) as usize;
        let mut seen = vec![false; super::card::DISTINCT_CARDS];
        let mut step = 0usize;
        random_game(seats, Rules::all_on(), g, &mut |game, events| {
            note_public(events, &mut seen);
            for p in game.discard() {
                seen[p.card.index()] = true;
            }
            assert_conserved(game);
            for s in 0..game.seats() {
                if let Some(cap) = game.rules().max_hand {
                    assert!(game.hand_len(s) <= usize::from(cap));
                }
            }
            reshuffles += events
                .iter()
                .filter(|e| matches!(e, UnoEvent::Reshuffled { .. }))
                .count();
            jumps += events
                .iter()
                .filter(|e| matches!(e, UnoEvent::JumpedIn { .. }))
                .count();
            step += 1;
            #[cfg(feature = "serde")]
            if step.is_multiple_of(40) {
                assert_no_leak(game, step % game.seats(), &seen, events);
            }
            finished += usize::from(game.is_over());
        });
    }
    assert!(
        finished > 1000,
        "most random games end ({finished} of 2000)"
    );
    assert!(
        reshuffles > 0 && jumps > 0,
        "the games exercised reshuffles ({reshuffles}) and jump-ins ({jumps})"
    );
}

#[test]
#[cfg(feature = "serde")]
fn the_same_seed_and_moves_give_the_same_game_even_across_a_reload() {
    let rules = Rules::all_on();
    let whole = random_game(5, rules, 99, &mut |_, _| {});
    let again = random_game(5, rules, 99, &mut |_, _| {});
    assert_eq!(
        serde_json::to_string(&whole).unwrap(),
        serde_json::to_string(&again).unwrap()
    );

    // Stop halfway through, store and load, and go on: every later reshuffle is the same.
    for seed in 0..20u64 {
        let mut a = Uno::new(3, rules, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut b: Option<Uno> = None;
        for step in 0..400 {
            if a.is_over() {
                break;
            }
            if step == 40 {
                b = Some(serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap());
            }
            let actions = all_actions(&a);
            let (seat, action) = actions[rng.gen_range(0..actions.len())];
            let ea = ok(&mut a, seat, action);
            if let Some(b) = b.as_mut() {
                assert_eq!(ok(b, seat, action), ea);
            }
        }
        if let Some(b) = b {
            assert_eq!(
                serde_json::to_string(&a).unwrap(),
                serde_json::to_string(&b).unwrap()
            );
        }
    }
}

#[test]
#[cfg(feature = "serde")]
fn views_differ_only_by_what_a_seat_may_see() {
    // Two decks that differ only in which cards seats 1 and 2 were dealt.
    let deck = full_deck();
    let mut other = deck.clone();
    // 3 seats: positions 1 (seat 1) and 2 (seat 2) swap; pick positions holding different cards.
    let (i, j) = (1 + 3 * 4, 2 + 3 * 5);
    other.swap(i, j);
    assert_ne!(deck[i], deck[j]);
    let a = Uno::with_deck(3, Rules::default(), &deck).unwrap();
    let b = Uno::with_deck(3, Rules::default(), &other).unwrap();
    assert_ne!(a.hand(1), b.hand(1));
    let json = |g: &Uno, seat: Option<usize>| {
        serde_json::to_string(&match seat {
            Some(s) => g.seat_view(s),
            None => g.public_view(),
        })
        .unwrap()
    };
    assert_eq!(json(&a, Some(0)), json(&b, Some(0)));
    assert_eq!(json(&a, None), json(&b, None));
    assert_ne!(json(&a, Some(1)), json(&b, Some(1)));
    // The seat view marks exactly the cards legal_actions plays.
    let view = a.seat_view(0);
    for card in view.hand.unwrap() {
        let listed = a
            .legal_actions(0)
            .iter()
            .any(|x| matches!(x, UnoAction::Play { card: c, .. } if *c == card.code));
        assert_eq!(card.playable, listed, "{}", card.code);
    }
    assert!(
        a.seat_view(1).hand.unwrap().iter().all(|c| !c.playable),
        "not seat 1's turn"
    );
}

// ----- what the table knows of hidden hands ------------------------------------------------

#[test]
fn a_draw_by_choice_does_not_prove_a_void_in_the_card_drawn() {
    // Seat 0 holds no red and no 3, draws by choice, and takes R7: the table cannot say it
    // lacks red any more.
    let mut game = Table {
        hands: &["B1 B2", "G1 G2 G3"],
        discard: &["R3"],
        deck_top: "R7 B9",
        turn: 0,
        direction: Direction::Clockwise,
        rules: Rules::default(),
        rest_to_discard: false,
    }
    .build();
    game.apply(0, &UnoAction::Draw).unwrap();
    assert!(game.hand(0).contains(&"R7".parse().unwrap()));
    assert!(!game.known_void(0, Color::Red));
    // Seat 1 draws by choice too, with red still in play: B9 is not red, but the table does
    // not see it either.
    game.apply(1, &UnoAction::Draw).unwrap();
    assert!(!game.known_void(1, Color::Red));
}

#[test]
fn lacks_cover_the_cards_held_at_the_draw_and_count_the_ones_after() {
    let mut game = Table {
        hands: &["B1 B2 G5", "G1 G2 G3"],
        discard: &["R3"],
        deck_top: "R7 B9 Y4 Y5",
        turn: 0,
        direction: Direction::Clockwise,
        rules: Rules::default(),
        rest_to_discard: false,
    }
    .build();
    game.apply(0, &UnoAction::Draw).unwrap();
    let lacks = game.lacks_of(0);
    assert_eq!(lacks.free_cards(game.hand_len(0)), 1);
    for code in ["R1", "B3", "W", "W4"] {
        assert!(!lacks.allows(code.parse().unwrap()), "{code}");
    }
    assert!(lacks.allows("B1".parse().unwrap()));
    // Seat 1 draws too; seat 0 then plays R7, which can only be the card it drew: the cards
    // left are the ones it held at the draw, so they lack red again.
    game.apply(1, &UnoAction::Draw).unwrap();
    game.apply(
        0,
        &UnoAction::Play {
            card: "R7".parse().unwrap(),
            color: None,
        },
    )
    .unwrap();
    assert_eq!(game.lacks_of(0).free_cards(game.hand_len(0)), 0);
    assert!(game.known_void(0, Color::Red));
    // A penalty adds cards that may be anything, without forgetting the older ones.
    let mut game = Table {
        hands: &["B1 B2 B3", "G1 G2 RD2"],
        discard: &["R3"],
        deck_top: "Y1 Y2 Y3",
        turn: 0,
        direction: Direction::Clockwise,
        rules: Rules::default(),
        rest_to_discard: false,
    }
    .build();
    game.apply(0, &UnoAction::Draw).unwrap();
    game.apply(
        1,
        &UnoAction::Play {
            card: "RD2".parse().unwrap(),
            color: None,
        },
    )
    .unwrap();
    let lacks = game.lacks_of(0);
    assert_eq!(lacks.free_cards(game.hand_len(0)), 3);
    assert!(lacks.lacks_color(Color::Red));
}

#[test]
fn recent_plays_keep_the_table_each_was_chosen_on_until_the_seat_takes_a_card() {
    let mut game = Table {
        hands: &["R1 R2 B5 W", "G1 G2 G3", "Y1 Y2"],
        discard: &["R3"],
        deck_top: "Y7 Y8",
        turn: 0,
        direction: Direction::Clockwise,
        rules: Rules::default(),
        rest_to_discard: false,
    }
    .build();
    game.apply(0, &play("R1")).unwrap();
    let seen = |game: &Uno, seat: usize| -> Vec<(String, Option<TableSeen>)> {
        game.recent_plays()
            .of(seat)
            .map(|p| (p.card.to_string(), p.table))
            .collect()
    };
    let first = TableSeen {
        top: "R3".parse().unwrap(),
        color: Color::Red,
        next_len: 3,
        prev_len: 2,
    };
    assert_eq!(seen(&game, 0), [("R1".to_string(), Some(first))]);
    game.apply(1, &UnoAction::Draw).unwrap();
    game.apply(2, &UnoAction::Draw).unwrap();
    game.apply(0, &wild("W", Color::Blue)).unwrap();
    let plays: Vec<RecentPlay> = game.recent_plays().of(0).copied().collect();
    assert_eq!(plays.len(), 2);
    assert_eq!(
        (plays[1].color, plays[1].table.unwrap().next_len),
        (Color::Blue, 4)
    );
    assert!(seen(&game, 1).is_empty() && seen(&game, 2).is_empty());
    // Taking a card forgets the seat's plays (its hand now holds a card it did not hold then).
    game.apply(1, &UnoAction::Draw).unwrap();
    game.apply(2, &UnoAction::Draw).unwrap();
    game.apply(0, &UnoAction::Draw).unwrap();
    assert!(seen(&game, 0).is_empty());
    // A state saved before the record existed loads with none.
    #[cfg(feature = "serde")]
    {
        let mut stored = serde_json::to_value(&game).unwrap();
        stored.as_object_mut().unwrap().remove("recent");
        let loaded: Uno = serde_json::from_value(stored).unwrap();
        assert!(loaded.recent_plays().is_empty());
    }
}

#[test]
fn a_stacked_draw_two_and_a_jump_in_are_recorded_without_a_table() {
    let rules = Rules {
        stacking: true,
        jump_in: true,
        ..Rules::default()
    };
    let mut game = Table {
        hands: &["RD2 B1 B2", "RD2 G1 G2", "GD2 Y1 Y2"],
        discard: &["R3"],
        deck_top: "",
        turn: 0,
        direction: Direction::Clockwise,
        rules,
        rest_to_discard: false,
    }
    .build();
    game.apply(0, &play("RD2")).unwrap();
    // Seat 1 jumps in on its identical +2: not a choice among every matching card.
    game.apply(1, &jump("RD2")).unwrap();
    assert!(game.recent_plays().of(0).next().unwrap().table.is_some());
    assert_eq!(game.recent_plays().of(1).next().unwrap().table, None);
    // Seat 2 stacks its +2 on the pending one.
    game.apply(2, &play("GD2")).unwrap();
    assert_eq!(game.recent_plays().of(2).next().unwrap().table, None);
}
