//! The UNO state machine: dealing, playing, drawing, the options of RULES.md, shouts and the end.
//!
//! Choices where the seeds leave a gap, each documented where it is made:
//! - The start card has no effect of its own: seed 000 turns it and "the first player follows
//!   it" (然后第一位玩家依据该起始牌来跟牌), so a Skip, Reverse or +2 turned up only sets the
//!   colour and symbol to match. Seat 0 acts first, clockwise.
//! - A +2's draw happens at once (seed 000) unless `stacking` or `jump_in` is on: then it waits as
//!   `pending_draw` for its victim to answer (`draw` takes the total; with `stacking` another +2
//!   passes it on), so that a jump-in can still move it to another seat (seed 002). A Wild Draw
//!   Four can be neither stacked nor jumped and always draws at once.
//! - The jump-in window is open from a played coloured card until the next play, draw or pass;
//!   any seat holding the identical card may jump in, the seat to act and the card's own player
//!   included.
//! - A seat that forfeits (out of time, or gone) is out: play passes it by and the last seat
//!   in wins; see [`Uno::forfeit`].

use std::collections::VecDeque;

use rand::seq::SliceRandom;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use super::action::{Outcome, UnoAction, UnoError, UnoEvent};
use super::card::{full_deck, Card, Color, Symbol};
use super::deck::{check_deck, seed_of_deck, DeckRng, DeckSource};
use super::lacks::Lacks;
use super::options::Rules;
use super::recent::{RecentPlay, RecentPlays, TableSeen};
use crate::{EndReason, Forfeit};

/// Cards dealt to every seat.
pub const HAND_SIZE: usize = 7;
/// Seats a table takes.
pub const MIN_SEATS: usize = 2;
pub const MAX_SEATS: usize = 10;
/// Seed 002's shout limit, counted in characters (not bytes).
pub const MAX_SHOUT_CHARS: usize = 200;
/// Public events kept for the view's `log`.
const LOG_LEN: usize = 24;
/// Shouts kept in the state (oldest dropped first).
const SHOUTS_KEPT: usize = 64;

/// The way play passes. `Clockwise` goes to the next higher seat number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "openapi", schema(as = UnoDirection))]
pub enum Direction {
    Clockwise,
    Counterclockwise,
}

impl Direction {
    pub fn flipped(self) -> Direction {
        match self {
            Direction::Clockwise => Direction::Counterclockwise,
            Direction::Counterclockwise => Direction::Clockwise,
        }
    }
}

/// A card on the discard pile with the colour it set: its own, or the one named for a wild.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Played {
    pub card: Card,
    pub color: Color,
}

impl Played {
    /// Seed 000's matching rule with this card on top: a wild, or the colour in play, or the
    /// card's symbol.
    pub fn takes(self, card: Card) -> bool {
        card.is_wild() || card.color() == Some(self.color) || card.symbol() == self.card.symbol()
    }
}

/// The chance to jump in on the card just played (seed 002's "抢牌"). It remembers how the
/// table stood before that card, because a jump-in cancels the card's effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct JumpWindow {
    /// The card on top; only an identical card may jump in.
    pub card: Card,
    /// Who played it.
    pub seat: usize,
    direction_before: Direction,
    pending_before: u16,
}

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "status", rename_all = "snake_case"))]
pub enum Status {
    /// A room: seats may still be filled; nothing is dealt.
    Waiting,
    Active,
    Finished {
        winner: usize,
        points: u32,
    },
    /// Every seat but `winner` forfeited.
    LastStanding {
        winner: usize,
    },
    Aborted,
}

/// A seat's message to another (seed 002's "喊话").
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Shout {
    pub from: usize,
    pub to: usize,
    pub text: String,
}

/// A whole UNO table: hands, deck order and all. Persist it whole; show clients only
/// [`Uno::public_view`] and [`Uno::seat_view`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Uno {
    rules: Rules,
    seats: usize,
    status: Status,
    /// Each hand sorted in seed 000's order (see [`Card::seed_order`]).
    hands: Vec<Vec<Card>>,
    /// Top card last.
    deck: Vec<Card>,
    /// Top card last.
    discard: Vec<Played>,
    turn: usize,
    direction: Direction,
    pending_draw: u16,
    /// Under `draw_then_play`: the card the seat to act has just drawn by choice, playable or
    /// not; the turn waits for `play` (of that card, if it fits) or `pass` either way.
    drawn: Option<Card>,
    jump_window: Option<JumpWindow>,
    /// Seats that have shouted since they last played or drew.
    shouted: Vec<bool>,
    /// Public inference per seat: what it lacked when it last drew by choice, and how many of
    /// its cards came since (see [`Lacks`]). Empty in states saved before it existed.
    #[cfg_attr(feature = "serde", serde(default))]
    lacks: Vec<Lacks>,
    /// Public record: what each seat played since it last took a card (see [`RecentPlays`]).
    /// Empty in states saved before it existed.
    #[cfg_attr(feature = "serde", serde(default))]
    recent: RecentPlays,
    /// Seats out of the game, in the order they forfeited (see [`Uno::forfeit`]). Empty in
    /// states saved before it existed.
    #[cfg_attr(feature = "serde", serde(default))]
    out: Vec<Forfeit>,
    shouts: VecDeque<Shout>,
    log: VecDeque<UnoEvent>,
    rng: DeckRng,
    /// Accepted actions so far.
    actions: u32,
}

/// The parts of a table a determinising AI rebuilds (public facts plus guessed hidden cards).
pub(super) struct Parts {
    pub rules: Rules,
    pub hands: Vec<Vec<Card>>,
    pub deck: Vec<Card>,
    pub discard: Vec<Played>,
    pub turn: usize,
    pub direction: Direction,
    pub pending_draw: u16,
    pub drawn: Option<Card>,
    pub jump_window: Option<JumpWindow>,
    pub lacks: Vec<Lacks>,
    pub out: Vec<Forfeit>,
    pub rng_seed: u64,
}

fn check_seats(seats: usize) -> Result<(), UnoError> {
    if (MIN_SEATS..=MAX_SEATS).contains(&seats) {
        Ok(())
    } else {
        Err(UnoError::Invalid(format!(
            "UNO takes {MIN_SEATS} to {MAX_SEATS} seats, not {seats}"
        )))
    }
}

impl Uno {
    /// A dealt game with a deck shuffled from `seed`.
    pub fn new(seats: usize, rules: Rules, seed: u64) -> Result<Uno, UnoError> {
        let mut game = Uno::new_room(seats, rules, DeckSource::Seed(seed))?;
        game.start()?;
        Ok(game)
    }

    /// A dealt game from an explicit deck, top first (replays, puzzles, tests).
    pub fn with_deck(seats: usize, rules: Rules, deck: &[Card]) -> Result<Uno, UnoError> {
        let mut game = Uno::new_room(seats, rules, DeckSource::Cards(deck.to_vec()))?;
        game.start()?;
        Ok(game)
    }

    /// A room whose seats may still be filled; [`Uno::start`] deals.
    pub fn new_room(seats: usize, rules: Rules, source: DeckSource) -> Result<Uno, UnoError> {
        check_seats(seats)?;
        rules.validate().map_err(UnoError::Invalid)?;
        let (deck, rng) = match source {
            DeckSource::Seed(seed) => {
                let mut rng = DeckRng::new(seed);
                // Fisher–Yates over the fixed deck order.
                let mut deck = full_deck();
                deck.shuffle(&mut rng.rng);
                (deck, rng)
            }
            DeckSource::Cards(mut cards) => {
                check_deck(&cards)?;
                let rng = DeckRng::new(seed_of_deck(&cards));
                cards.reverse(); // stored top last
                (cards, rng)
            }
        };
        Ok(Uno {
            rules,
            seats,
            status: Status::Waiting,
            hands: vec![Vec::with_capacity(16); seats],
            deck,
            discard: Vec::with_capacity(108),
            turn: 0,
            direction: Direction::Clockwise,
            pending_draw: 0,
            drawn: None,
            jump_window: None,
            shouted: vec![false; seats],
            lacks: vec![Lacks::NONE; seats],
            recent: RecentPlays::default(),
            out: Vec::new(),
            shouts: VecDeque::new(),
            log: VecDeque::with_capacity(LOG_LEN),
            rng,
            actions: 0,
        })
    }

    /// Deals 7 cards each, one at a time from seat 0, and turns the start card; a wild turned
    /// up goes to the bottom and the next is turned (seed 000).
    pub fn start(&mut self) -> Result<Vec<UnoEvent>, UnoError> {
        match self.status {
            Status::Waiting => {}
            Status::Active => return Err(UnoError::AlreadyStarted),
            Status::Finished { .. } | Status::LastStanding { .. } | Status::Aborted => {
                return Err(UnoError::GameOver)
            }
        }
        let mut events = Vec::new();
        for _ in 0..HAND_SIZE {
            for seat in 0..self.seats {
                let card = self.deck.pop().expect("108 cards cover 10 hands of 7");
                self.insert_in_hand(seat, card);
            }
        }
        events.push(UnoEvent::Dealt {
            seats: self.seats,
            cards_each: HAND_SIZE,
        });
        loop {
            let card = self.deck.pop().expect("only 8 of the cards left are wild");
            if card.is_wild() {
                self.deck.insert(0, card);
                events.push(UnoEvent::StartCardBuried { card });
            } else {
                let color = card.color().expect("not wild");
                self.discard.push(Played { card, color });
                events.push(UnoEvent::StartCard { card, color });
                break;
            }
        }
        self.status = Status::Active;
        self.turn = 0;
        self.direction = Direction::Clockwise;
        self.record(&events);
        Ok(events)
    }

    /// Rebuilds a table in play from its parts (a determinised guess of a hidden position).
    pub(super) fn assemble(parts: Parts) -> Uno {
        let seats = parts.hands.len();
        Uno {
            rules: parts.rules,
            seats,
            status: Status::Active,
            hands: parts.hands,
            deck: parts.deck,
            discard: parts.discard,
            turn: parts.turn,
            direction: parts.direction,
            pending_draw: parts.pending_draw,
            drawn: parts.drawn,
            jump_window: parts.jump_window,
            shouted: vec![false; seats],
            lacks: parts.lacks,
            // A guessed table is played forward by AIs that do not read it.
            recent: RecentPlays::default(),
            out: parts.out,
            shouts: VecDeque::new(),
            log: VecDeque::new(),
            rng: DeckRng::new(parts.rng_seed),
            actions: 0,
        }
    }

    // ----- reading the table -------------------------------------------------------------

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn seats(&self) -> usize {
        self.seats
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn is_started(&self) -> bool {
        self.status != Status::Waiting
    }

    pub fn is_over(&self) -> bool {
        matches!(
            self.status,
            Status::Finished { .. } | Status::LastStanding { .. } | Status::Aborted
        )
    }

    /// The seat to act; `None` before the deal and after the end.
    pub fn turn(&self) -> Option<usize> {
        (self.status == Status::Active).then_some(self.turn)
    }

    pub fn result(&self) -> Option<Outcome> {
        match self.status {
            Status::Finished { winner, points } => Some(Outcome::OutOfCards { winner, points }),
            Status::LastStanding { winner } => Some(Outcome::LastStanding { winner }),
            Status::Aborted => Some(Outcome::Aborted),
            _ => None,
        }
    }

    /// The seat's cards, in seed 000's order. Empty for a seat number out of range.
    pub fn hand(&self, seat: usize) -> &[Card] {
        self.hands.get(seat).map_or(&[], Vec::as_slice)
    }

    pub fn hand_len(&self, seat: usize) -> usize {
        self.hand(seat).len()
    }

    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The seats that forfeited, in order, with why (public).
    pub fn out(&self) -> &[Forfeit] {
        &self.out
    }

    /// Whether `seat` forfeited and is out of the game.
    pub fn is_out(&self, seat: usize) -> bool {
        self.out.iter().any(|f| f.seat == seat)
    }

    /// Seats still in the game.
    pub fn seats_in(&self) -> usize {
        self.seats - self.out.len()
    }

    pub fn top(&self) -> Option<Played> {
        self.discard.last().copied()
    }

    /// The colour in play: the top card's, or the one named for a wild on top.
    pub fn current_color(&self) -> Option<Color> {
        self.top().map(|p| p.color)
    }

    pub fn pending_draw(&self) -> u16 {
        self.pending_draw
    }

    /// Under `draw_then_play`: the seat to act drew this card by choice and must now play it
    /// (when it fits) or pass. Private to the seat to act; that a draw is waiting is public.
    pub fn drawn(&self) -> Option<Card> {
        self.drawn
    }

    pub fn jump_window(&self) -> Option<JumpWindow> {
        self.jump_window
    }

    pub fn deck_count(&self) -> usize {
        self.deck.len()
    }

    /// The discard pile, top last (all public: every card on it was played face up).
    pub fn discard(&self) -> &[Played] {
        &self.discard
    }

    pub fn shouts(&self) -> impl Iterator<Item = &Shout> {
        self.shouts.iter()
    }

    /// Whether `seat` is inferred to hold no card of `color` at all: it drew by choice with that
    /// colour in play and every card it took since has been played (public knowledge).
    pub fn known_void(&self, seat: usize, color: Color) -> bool {
        self.voids_of(seat) & (1 << color.index()) != 0
    }

    /// [`Uno::known_void`] for every colour as bits (`1 << Color::index`).
    pub fn voids_of(&self, seat: usize) -> u8 {
        let lacks = self.lacks_of(seat);
        if lacks.free_cards(self.hand_len(seat)) == 0 {
            lacks.colors()
        } else {
            0
        }
    }

    /// What each seat played since it last took a card (public knowledge).
    pub fn recent_plays(&self) -> &RecentPlays {
        &self.recent
    }

    /// What the table infers `seat`'s cards lack (public knowledge).
    pub fn lacks_of(&self, seat: usize) -> Lacks {
        self.lacks.get(seat).copied().unwrap_or(Lacks::NONE)
    }

    pub fn has_shouted(&self, seat: usize) -> bool {
        self.shouted.get(seat).copied().unwrap_or(false)
    }

    pub fn log(&self) -> impl Iterator<Item = &UnoEvent> {
        self.log.iter()
    }

    /// Actions accepted so far (deal excluded).
    pub fn actions(&self) -> u32 {
        self.actions
    }

    /// The first seat still in after `seat` going `direction` (`seat` itself when no other is).
    fn step(&self, seat: usize, direction: Direction) -> usize {
        let mut next = seat;
        loop {
            next = match direction {
                Direction::Clockwise => (next + 1) % self.seats,
                Direction::Counterclockwise => (next + self.seats - 1) % self.seats,
            };
            if next == seat || !self.is_out(next) {
                return next;
            }
        }
    }

    /// The seat after `seat` in the current direction, passing seats that are out.
    pub fn next_seat(&self, seat: usize) -> usize {
        self.step(seat, self.direction)
    }

    /// The seat before `seat` in the current direction, passing seats that are out.
    pub fn prev_seat(&self, seat: usize) -> usize {
        self.step(seat, self.direction.flipped())
    }

    /// Seed 000's matching rule: a wild, or the colour in play, or the top card's symbol.
    pub fn matches_top(&self, card: Card) -> bool {
        card.is_wild() || self.top().is_some_and(|top| top.takes(card))
    }

    /// Whether the seat to act may play `card` now (held or not), given a pending +2 or a
    /// card just drawn under `draw_then_play`.
    fn allowed_now(&self, card: Card) -> bool {
        if let Some(drawn) = self.drawn {
            return card == drawn && self.matches_top(card);
        }
        if self.pending_draw > 0 {
            return self.rules.stacking && card.symbol() == Symbol::DrawTwo;
        }
        self.matches_top(card)
    }

    /// Whether `seat` may jump in now: the window is open and it holds the identical card.
    pub fn can_jump_in(&self, seat: usize) -> bool {
        self.status == Status::Active
            && self
                .jump_window
                .is_some_and(|w| self.hand(seat).contains(&w.card))
    }

    /// Whether somebody could jump in now, judging by public information only: the window is
    /// open (a coloured card was just played) and a copy identical to that card is not on the
    /// discard pile, so some hand may hold it. Who holds it does not count: the server stops for
    /// a jump-in chance on this alone, so a stop tells nobody where the copy is.
    pub fn jump_in_possible(&self) -> bool {
        self.status == Status::Active
            && self.jump_window.is_some_and(|w| {
                let shown = self.discard.iter().filter(|p| p.card == w.card).count();
                shown < w.card.copies()
            })
    }

    /// Seats that may jump in now.
    pub fn jump_in_seats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats).filter(|&s| self.can_jump_in(s))
    }

    /// Whether `seat` may play `card` now, in turn: what the view's `playable` flags show.
    pub fn is_playable(&self, seat: usize, card: Card) -> bool {
        self.turn() == Some(seat) && self.allowed_now(card)
    }

    /// Every action `seat` may take now; a wild appears once per colour. Duplicates of a card
    /// are listed once.
    pub fn legal_actions(&self, seat: usize) -> Vec<UnoAction> {
        let mut actions = Vec::new();
        if self.status != Status::Active || seat >= self.seats {
            return actions;
        }
        if seat == self.turn {
            let mut last = None;
            for &card in &self.hands[seat] {
                if Some(card) == last || !self.allowed_now(card) {
                    continue;
                }
                last = Some(card);
                if card.is_wild() {
                    for color in Color::ALL {
                        actions.push(UnoAction::Play {
                            card,
                            color: Some(color),
                        });
                    }
                } else {
                    actions.push(UnoAction::Play { card, color: None });
                }
            }
            actions.push(if self.drawn.is_some() {
                UnoAction::Pass
            } else {
                UnoAction::Draw
            });
        }
        if self.can_jump_in(seat) {
            let card = self.jump_window.expect("can_jump_in").card;
            actions.push(UnoAction::JumpIn { card });
        }
        actions
    }

    // ----- changing the table ------------------------------------------------------------

    /// Applies `action` for `seat` and returns what the table saw.
    pub fn apply(&mut self, seat: usize, action: &UnoAction) -> Result<Vec<UnoEvent>, UnoError> {
        let mut events = Vec::with_capacity(4);
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Uno::apply`] appending to a caller's buffer (simulations reuse one).
    pub fn apply_into(
        &mut self,
        seat: usize,
        action: &UnoAction,
        events: &mut Vec<UnoEvent>,
    ) -> Result<(), UnoError> {
        self.check_active()?;
        self.check_seat(seat)?;
        self.check_in(seat)?;
        let first = events.len();
        match *action {
            UnoAction::JumpIn { card } => self.jump_in(seat, card, events)?,
            _ if seat != self.turn => {
                return Err(UnoError::NotYourTurn {
                    seat,
                    expected: self.turn,
                })
            }
            UnoAction::Play { card, color } => self.play(seat, card, color, events)?,
            UnoAction::Draw => self.draw_action(seat, events)?,
            UnoAction::Pass => self.pass(seat, events)?,
        }
        self.actions += 1;
        self.record(&events[first..]);
        Ok(())
    }

    /// Seed 002's shout: at most once until the shouter next plays or draws, never to oneself,
    /// at most 200 characters. Only `to` ever sees the text.
    pub fn shout(&mut self, from: usize, to: usize, text: &str) -> Result<Vec<UnoEvent>, UnoError> {
        self.check_active()?;
        self.check_seat(from)?;
        self.check_in(from)?;
        self.check_seat(to)?;
        if from == to {
            return Err(UnoError::Illegal("you cannot shout to yourself".into()));
        }
        let chars = text.chars().count();
        if chars > MAX_SHOUT_CHARS {
            return Err(UnoError::Invalid(format!(
                "a shout is at most {MAX_SHOUT_CHARS} characters; this one has {chars}"
            )));
        }
        if text.trim().is_empty() {
            return Err(UnoError::Invalid("a shout needs some text".into()));
        }
        if self.shouted[from] {
            return Err(UnoError::Illegal(
                "you have already shouted this turn; you may shout again after you play or draw"
                    .into(),
            ));
        }
        self.shouted[from] = true;
        if self.shouts.len() == SHOUTS_KEPT {
            self.shouts.pop_front();
        }
        self.shouts.push_back(Shout {
            from,
            to,
            text: text.to_owned(),
        });
        let events = vec![UnoEvent::Shouted { from, to }];
        self.record(&events);
        Ok(events)
    }

    /// `seat` loses without a move (`reason`: out of time or gone) and is out of the game: play
    /// passes it by, and once a single seat is left in, that seat wins.
    ///
    /// Its hand goes face down under the deck rather than out of play: the 108 cards stay in
    /// the game, so the deck runs dry no sooner than before and `hard`'s guesses (which deal
    /// every card it has not seen to a hand or the deck) stay true. If it held the turn, the
    /// turn passes on as if it had passed: a card it had just drawn goes with its hand, the
    /// jump-in window closes, and a pending +2 moves on to the next seat still in, as it would
    /// have had the seat been out before the +2 was played.
    pub fn forfeit(&mut self, seat: usize, reason: EndReason) -> Result<Vec<UnoEvent>, UnoError> {
        self.check_active()?;
        self.check_seat(seat)?;
        self.check_in(seat)?;
        let hand = std::mem::take(&mut self.hands[seat]);
        self.deck.splice(0..0, hand);
        self.recent.took(seat);
        if let Some(lacks) = self.lacks.get_mut(seat) {
            *lacks = Lacks::NONE;
        }
        self.out.push(Forfeit {
            seat,
            reason: reason.clone(),
        });
        let mut events = vec![UnoEvent::SeatOut { seat, reason }];
        if self.seats_in() == 1 {
            self.status = Status::LastStanding {
                winner: self.next_seat(seat),
            };
            self.pending_draw = 0;
            self.drawn = None;
            self.jump_window = None;
        } else if self.turn == seat {
            self.turn = self.next_seat(seat);
            self.drawn = None;
            self.jump_window = None;
            if self.pending_draw > 0 {
                events.push(UnoEvent::DrawPending {
                    seat: self.turn,
                    total: self.pending_draw,
                });
            }
        }
        self.record(&events);
        Ok(events)
    }

    /// Ends the game at once (`POST …/end`). Does nothing to a game already over.
    pub fn abort(&mut self) -> Vec<UnoEvent> {
        if self.is_over() {
            return Vec::new();
        }
        self.status = Status::Aborted;
        self.jump_window = None;
        let events = vec![UnoEvent::Aborted];
        self.record(&events);
        events
    }

    fn check_active(&self) -> Result<(), UnoError> {
        match self.status {
            Status::Active => Ok(()),
            Status::Waiting => Err(UnoError::NotStarted),
            Status::Finished { .. } | Status::LastStanding { .. } | Status::Aborted => {
                Err(UnoError::GameOver)
            }
        }
    }

    fn check_in(&self, seat: usize) -> Result<(), UnoError> {
        if self.is_out(seat) {
            Err(UnoError::Out(seat))
        } else {
            Ok(())
        }
    }

    fn check_seat(&self, seat: usize) -> Result<(), UnoError> {
        if seat < self.seats {
            Ok(())
        } else {
            Err(UnoError::Invalid(format!(
                "there is no seat {seat}: the seats are 0 to {}",
                self.seats - 1
            )))
        }
    }

    fn record(&mut self, events: &[UnoEvent]) {
        for e in events.iter().cloned() {
            if self.log.len() == LOG_LEN {
                self.log.pop_front();
            }
            self.log.push_back(e);
        }
    }

    fn holds(&self, seat: usize, card: Card) -> bool {
        self.hands[seat].contains(&card)
    }

    fn insert_in_hand(&mut self, seat: usize, card: Card) {
        let hand = &mut self.hands[seat];
        let key = card.seed_order();
        let at = hand.partition_point(|c| c.seed_order() <= key);
        hand.insert(at, card);
    }

    fn play(
        &mut self,
        seat: usize,
        card: Card,
        color: Option<Color>,
        events: &mut Vec<UnoEvent>,
    ) -> Result<(), UnoError> {
        let color = self.check_play(seat, card, color)?;
        let table = self.table_seen(seat);
        self.jump_window = None;
        self.drawn = None;
        let before = self.top();
        self.put_down(seat, card, color, table);
        // Players keep wilds for need: a wild played while the next seat is not about to go
        // out suggests nothing else fitted.
        if let (true, Some(top), Some(lacks)) = (
            card.is_wild() && self.hand_len(self.next_seat(seat)) > 1,
            before,
            self.lacks.get_mut(seat),
        ) {
            lacks.played_wild(top.card, top.color);
        }
        events.push(UnoEvent::Played { seat, card, color });
        self.resolve(seat, card, events);
        Ok(())
    }

    /// Validates a play in turn and returns the colour it sets.
    fn check_play(&self, seat: usize, card: Card, color: Option<Color>) -> Result<Color, UnoError> {
        if !self.holds(seat, card) {
            return Err(UnoError::Illegal(format!("you do not hold {card}")));
        }
        let color = match (card.color(), color) {
            (None, Some(named)) => named,
            (None, None) => {
                return Err(UnoError::Illegal(format!(
                    "name a colour for {card}: add \"color\": \"red\", \"yellow\", \"green\" or \"blue\""
                )))
            }
            (Some(_), Some(_)) => {
                return Err(UnoError::Illegal(format!(
                    "only a wild card takes a colour; play {card} without \"color\""
                )))
            }
            (Some(own), None) => own,
        };
        if let Some(drawn) = self.drawn {
            if card != drawn {
                return Err(UnoError::Illegal(format!(
                    "after drawing you may only play the card you drew ({drawn}), or pass"
                )));
            }
            if !self.matches_top(card) {
                let top = self.top().expect("active games have a top card");
                return Err(UnoError::Illegal(format!(
                    "the card you drew ({card}) does not match the {} {}: pass",
                    top.color, top.card
                )));
            }
        } else if self.pending_draw > 0 {
            if !(self.rules.stacking && card.symbol() == Symbol::DrawTwo) {
                let also = if self.rules.stacking {
                    " or add a +2 of your own"
                } else {
                    ""
                };
                return Err(UnoError::Illegal(format!(
                    "a +2 is pending: draw {} cards{also}",
                    self.pending_draw
                )));
            }
        } else if !self.matches_top(card) {
            let top = self.top().expect("active games have a top card");
            return Err(UnoError::Illegal(format!(
                "{card} does not match the {} {}: play a {} card, a card with the same symbol, or a wild",
                top.color, top.card, top.color
            )));
        }
        Ok(color)
    }

    /// The table `seat` chooses a card on in turn, when the choice is among every matching card
    /// (no penalty pending, no card just drawn).
    fn table_seen(&self, seat: usize) -> Option<TableSeen> {
        if self.pending_draw > 0 || self.drawn.is_some() {
            return None;
        }
        let top = self.top()?;
        let len = |s: usize| self.hand_len(s).min(usize::from(u8::MAX)) as u8;
        Some(TableSeen {
            top: top.card,
            color: top.color,
            next_len: len(self.next_seat(seat)),
            prev_len: len(self.prev_seat(seat)),
        })
    }

    fn put_down(&mut self, seat: usize, card: Card, color: Color, table: Option<TableSeen>) {
        self.recent.played(RecentPlay {
            seat: seat as u8,
            card,
            color,
            table,
        });
        let hand = &mut self.hands[seat];
        let at = hand.iter().position(|&c| c == card).expect("checked");
        hand.remove(at);
        let left = hand.len();
        self.discard.push(Played { card, color });
        self.shouted[seat] = false;
        if let Some(lacks) = self.lacks.get_mut(seat) {
            lacks.put_down(card, left);
        }
    }

    /// The effect of `card` just put down by `seat`, from the table as it stands.
    fn resolve(&mut self, seat: usize, card: Card, events: &mut Vec<UnoEvent>) {
        if self.hands[seat].is_empty() {
            let points = self.hands.iter().flatten().map(|c| c.points()).sum();
            self.status = Status::Finished {
                winner: seat,
                points,
            };
            self.pending_draw = 0;
            events.push(UnoEvent::Won { seat, points });
            return;
        }
        let direction_before = self.direction;
        let pending_before = self.pending_draw;
        let next = self.next_seat(seat);
        match card.symbol() {
            Symbol::Number(_) | Symbol::Wild => self.turn = next,
            Symbol::Skip => {
                events.push(UnoEvent::Skipped { seat: next });
                self.turn = self.next_seat(next);
            }
            Symbol::Reverse => {
                self.direction = self.direction.flipped();
                events.push(UnoEvent::Reversed {
                    direction: self.direction,
                });
                if self.seats_in() == 2 {
                    // With two seats in the game a Reverse acts as a Skip.
                    events.push(UnoEvent::Skipped { seat: next });
                    self.turn = seat;
                } else {
                    self.turn = self.next_seat(seat);
                }
            }
            Symbol::DrawTwo if self.rules.stacking || self.rules.jump_in => {
                self.pending_draw += 2;
                self.turn = next;
                events.push(UnoEvent::DrawPending {
                    seat: next,
                    total: self.pending_draw,
                });
            }
            Symbol::DrawTwo | Symbol::WildDrawFour => {
                let count = if card.symbol() == Symbol::DrawTwo {
                    2
                } else {
                    4
                };
                self.draw_cards(next, count, true, events);
                events.push(UnoEvent::Skipped { seat: next });
                self.turn = self.next_seat(next);
            }
        }
        if self.rules.jump_in && !card.is_wild() {
            self.jump_window = Some(JumpWindow {
                card,
                seat,
                direction_before,
                pending_before,
            });
        }
    }

    fn jump_in(
        &mut self,
        seat: usize,
        card: Card,
        events: &mut Vec<UnoEvent>,
    ) -> Result<(), UnoError> {
        if !self.rules.jump_in {
            return Err(UnoError::Illegal(
                "jump-in is off in this game (rules.jump_in)".into(),
            ));
        }
        if card.is_wild() {
            return Err(UnoError::Illegal(
                "wild cards cannot be jumped in on".into(),
            ));
        }
        let window = self.jump_window.ok_or(UnoError::NoJumpWindow)?;
        if card != window.card {
            return Err(UnoError::Illegal(format!(
                "a jump-in needs the card identical to the one just played ({}), not {card}",
                window.card
            )));
        }
        if !self.holds(seat, card) {
            return Err(UnoError::Illegal(format!("you do not hold {card}")));
        }
        // The jumped card's effect is cancelled; the jumper's takes effect from the jumper.
        self.direction = window.direction_before;
        self.pending_draw = window.pending_before;
        self.jump_window = None;
        self.drawn = None;
        let color = card.color().expect("wilds refused above");
        self.put_down(seat, card, color, None);
        events.push(UnoEvent::JumpedIn {
            seat,
            card,
            over: window.seat,
        });
        self.resolve(seat, card, events);
        Ok(())
    }

    fn draw_action(&mut self, seat: usize, events: &mut Vec<UnoEvent>) -> Result<(), UnoError> {
        if let Some(drawn) = self.drawn {
            return Err(UnoError::Illegal(format!(
                "you have already drawn this turn: play {drawn} or pass"
            )));
        }
        self.jump_window = None;
        self.shouted[seat] = false;
        if self.pending_draw > 0 {
            let total = std::mem::take(&mut self.pending_draw);
            self.draw_cards(seat, total, true, events);
            self.turn = self.next_seat(seat);
            return Ok(());
        }
        if let (Some(top), Some(lacks)) = (self.top(), self.lacks.get_mut(seat)) {
            lacks.drew_by_choice(top.card, top.color);
        }
        let card = self.draw_cards(seat, 1, false, events);
        // Under `draw_then_play` the turn waits for `play` or `pass` whatever the card is, so
        // the table does not learn whether it fits; only a draw that took no card (a full hand,
        // no card left: both public) ends the turn at once.
        match card {
            Some(card) if self.rules.draw_then_play => self.drawn = Some(card),
            _ => self.turn = self.next_seat(seat),
        }
        Ok(())
    }

    fn pass(&mut self, seat: usize, events: &mut Vec<UnoEvent>) -> Result<(), UnoError> {
        if self.drawn.take().is_none() {
            let how = if self.rules.draw_then_play {
                "pass only after drawing by choice; draw first"
            } else {
                "there is no pass in this game (rules.draw_then_play is off): play a card or draw"
            };
            return Err(UnoError::Illegal(format!("you cannot pass now: {how}")));
        }
        events.push(UnoEvent::Passed { seat });
        self.turn = self.next_seat(seat);
        Ok(())
    }

    /// `seat` takes up to `count` cards, stopping at the hand cap or when no card is left.
    /// Returns the last card taken.
    fn draw_cards(
        &mut self,
        seat: usize,
        count: u16,
        penalty: bool,
        events: &mut Vec<UnoEvent>,
    ) -> Option<Card> {
        let mut taken = 0u16;
        let mut last = None;
        let mut shortfall = None;
        while taken < count {
            if let Some(cap) = self.rules.max_hand {
                if self.hands[seat].len() >= usize::from(cap) {
                    shortfall = Some(UnoEvent::HandFull {
                        seat,
                        cap,
                        missed: count - taken,
                    });
                    break;
                }
            }
            if self.deck.is_empty() {
                self.reshuffle(events);
            }
            let Some(card) = self.deck.pop() else {
                shortfall = Some(UnoEvent::NoCardsLeft {
                    seat,
                    missed: count - taken,
                });
                break;
            };
            self.insert_in_hand(seat, card);
            last = Some(card);
            taken += 1;
        }
        if let Some(lacks) = self.lacks.get_mut(seat) {
            lacks.took(taken);
        }
        if taken > 0 {
            self.recent.took(seat);
            events.push(UnoEvent::Drew {
                seat,
                count: taken,
                penalty,
            });
        }
        events.extend(shortfall);
        last
    }

    /// The discard pile but its top card goes back into the deck, shuffled; the colours named
    /// for wilds stay behind with the discard entries (seed 000 resets them to none).
    fn reshuffle(&mut self, events: &mut Vec<UnoEvent>) {
        if self.discard.len() <= 1 {
            return;
        }
        let top = self.discard.pop().expect("checked");
        self.deck.extend(self.discard.drain(..).map(|p| p.card));
        self.deck.shuffle(&mut self.rng.rng);
        self.discard.push(top);
        events.push(UnoEvent::Reshuffled {
            cards: self.deck.len(),
        });
    }

    /// Every card on the table, wherever it is (tests check that none appears or vanishes).
    #[cfg(test)]
    pub(super) fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.hands.iter().flatten().copied().collect();
        all.extend(&self.deck);
        all.extend(self.discard.iter().map(|p| p.card));
        all
    }

    /// The deck, top last (tests only: it is the secret part of the state).
    #[cfg(test)]
    pub(super) fn deck_for_tests(&self) -> &[Card] {
        &self.deck
    }
}
