//! `normal`: a card-counting heuristic. It reads only what its seat may see: its own hand, the
//! hand sizes, the face-up discard pile and the public table (who drew on which colour).
//!
//! - The kind of card comes first: Reverse to put the smaller hand behind, then the action
//!   cards (Skip, +2, Reverse) before numbers, wilds last (kept for need); a next seat at one
//!   card is punished with +2, Skip, Reverse, +4. (Measured against three `easy` bots: weighing
//!   kinds and colours freely lost to a fixed order; shedding actions before numbers beat seed
//!   000's numbers-first order, 28.2 % against 27.5 % over the same 400,000 deals.)
//! - Between cards of one kind, and for a wild's colour, it counts: the colour it holds most
//!   of after the play, less the cards of that colour still unseen (not in its hand nor on the
//!   discard pile), a little more if the next seat is known to lack it.
//! - It weighs that against keeping a hand that can answer what comes: the share of the unseen
//!   coloured cards (each a possible top card later) on which some card it keeps would fit.
//!   This reach counts for more than one step of the kind order, so a card whose play leaves
//!   the hand stuck on more of the cards to come waits (measured: +0.5 points, see
//!   the git history of docs/PERFORMANCE.md).
//! - A seat that acts right after the card and holds one card is stopped if it can be: each
//!   candidate loses score by the chance that seat can follow it, from the unseen cards, what
//!   the table knows the seat lacks, and the colour it named with a wild just before (a seat
//!   names the colour it holds; with one card left, that card's colour). Measured: +0.5 points.
//!   More lightly, the same for that seat at any size (the fewer its cards, the more), for the
//!   seat after it at one to three cards and the third at one card (the colour reaches them if
//!   the seats before them draw). Measured: +0.3 points over the last card and two cards alone.
//! - It keeps wilds for need: with four or more cards, other wilds not counted, and nobody at
//!   two cards or fewer, it draws rather than spend a wild that is its only fitting card; a wild
//!   played while another is kept loses a little score, since the reach no longer protects it.
//!   Measured with the line above: +0.33 points.
//! - It jumps in whenever it can (a card shed out of turn).

use super::super::action::{UnoAction, UnoEvent};
use super::super::card::{copies_left, Card, Color, Symbol, DISTINCT_CARDS};
use super::super::game::{Uno, MAX_SEATS};
use std::cell::OnceCell;

/// Cards per colour in the deck (one 0, two each of 1–9 and the three actions).
const PER_COLOR: i32 = 25;

/// From this many cards in hand, other wilds not counted, a wild is not spent when drawing is
/// possible. (Counting the whole hand, 5 for a Wild and 4 for a Wild Draw Four were best; with
/// the other wilds left out, 4 for both is: +0.14 points over 5 and 4, 3 worse.)
const SAVE_WILD_FROM: usize = 4;

/// A wild is spent rather than saved while some opponent holds this many cards or fewer
/// (measured: +0.2 points against watching the next seat only).
const SPEND_WILDS_AT: usize = 2;

/// Score lost by a card times the chance that the seat acting right after it can follow it
/// (its cards judged like a last card), by that seat's hand: one card, two, three, four, five
/// or more. At its last card more than any step of the kind order: letting a seat go out loses
/// the game (1,000 and 2,000 measured alike, 500 worse); at two cards it would be one from out
/// (300: +0.03–0.05 points, 600 worse). The lighter weights for longer hands steer the colour
/// away from what that seat can follow even when it is far from out, less and less the more
/// it holds (three to five or more cards together: about +0.1 points; 30 a card for every
/// hand size was within noise in round 4, and a heavier follow chance as the wild's colour
/// lost 0.5 points: the colour named stays the one held most).
const ACTOR_FOLLOWS: [f64; 5] = [2_000.0, 300.0, 200.0, 100.0, 50.0];

/// The same for the seat acting after that one, holding one, two or three cards, when the
/// first holds more than one: if the first cannot follow and draws, the colour reaches the
/// second unchanged (the last card measured +0.05 points in round 5; two and three cards
/// +0.1 more).
const SECOND_ACTOR_FOLLOWS: [f64; 3] = [500.0, 300.0, 100.0];

/// The same for the third seat to act after the card, holding its last card, when the two
/// before it hold more than one (measured: about +0.04 points; 500 alike).
const THIRD_ACTOR_LAST_CARD_FOLLOWS: f64 = 300.0;

/// Score lost by a wild played while the hand keeps another: the reach counts a kept wild as
/// fitting everything, so it no longer protects the wild played (measured: +0.05 points; 100
/// and 1,000 less).
const WILD_WITH_ANOTHER_KEPT: i32 = 300;

/// Score of one step in the kind order.
const KIND_STEP: i32 = 100;

/// Score of a hand that fits on every unseen coloured card (one that fits on none scores 0).
const FULL_REACH: i32 = 3_000;

/// What the seat knows about colours.
struct Counts {
    /// Coloured cards of each colour in its hand.
    mine: [i32; 4],
    /// Wilds in its hand.
    wilds: usize,
    /// Cards of each colour neither in its hand nor face up on the discard pile.
    unseen: [i32; 4],
    /// Colours the next seat is known to lack.
    next_voids: u8,
    /// Copies of each coloured card ([`Card::index`] below 52) neither in its hand nor face up;
    /// counted only when the reach can decide (more than one card fits), all 0 otherwise.
    unseen_cards: [u8; 52],
    /// Their sums per colour and per symbol rank, and in all.
    by_color: [i32; 4],
    by_symbol: [i32; 13],
    unseen_colored: i32,
    /// More than one card fits, so the scores decide (the reach and the follow chances are
    /// worked out only then).
    choice: bool,
}

impl Counts {
    fn of(game: &Uno, seat: usize, weigh_reach: bool, others: &Others) -> Counts {
        let (mut mine, mut wilds) = ([0; 4], 0);
        for c in game.hand(seat) {
            match c.color() {
                Some(color) => mine[color.index()] += 1,
                None => wilds += 1,
            }
        }
        // (`hard` runs `normal` in every rollout: the table stays empty when one card fits.)
        let mut unseen_cards = [0u8; 52];
        if weigh_reach {
            let left = others.unseen(game, seat);
            unseen_cards = std::array::from_fn(|i| left[i] as u8);
        }
        let mut seen = mine;
        for p in game.discard() {
            if let Some(color) = p.card.color() {
                seen[color.index()] += 1;
            }
        }
        let (mut by_color, mut by_symbol) = ([0; 4], [0; 13]);
        if weigh_reach {
            for (i, &n) in unseen_cards.iter().enumerate() {
                by_color[i / 13] += i32::from(n);
                by_symbol[i % 13] += i32::from(n);
            }
        }
        Counts {
            mine,
            wilds,
            unseen: seen.map(|s| PER_COLOR - s),
            next_voids: game.voids_of(game.next_seat(seat)),
            unseen_colored: by_color.iter().sum(),
            by_color,
            by_symbol,
            unseen_cards,
            choice: weigh_reach,
        }
    }

    /// How good it is to leave `color` in play holding `mine` (after the card is played).
    fn color_value(&self, mine: &[i32; 4], color: Color) -> i32 {
        // Following my own colour later matters most; a colour the others hold little of
        // makes them draw.
        let void = self.next_voids & (1 << color.index()) != 0;
        20 * mine[color.index()] - self.unseen[color.index()] + if void { 8 } else { 0 }
    }

    /// How much of what may come `kept` can answer: [`FULL_REACH`] times the share of the
    /// unseen coloured cards on which one of its cards fits.
    fn reach(&self, kept: impl Iterator<Item = Card>) -> i32 {
        if self.unseen_colored == 0 {
            return 0; // not counted (one card fits), or nothing left unseen
        }
        let (mut colors, mut symbols) = (0u8, 0u16);
        for card in kept {
            if card.is_wild() {
                return FULL_REACH;
            }
            if let Some(color) = card.color() {
                colors |= 1 << color.index();
            }
            symbols |= 1 << card.symbol().seed_rank();
        }
        // Unseen cards of a kept colour, plus those of a kept symbol, less those of both
        // (coloured cards are indexed colour × 13 + symbol rank).
        let bits = |set: u16| (0..13usize).filter(move |&b| set & (1 << b) != 0);
        let mut answered = 0;
        for c in bits(u16::from(colors)) {
            answered += self.by_color[c];
            for s in bits(symbols) {
                answered -= i32::from(self.unseen_cards[c * 13 + s]);
            }
        }
        for s in bits(symbols) {
            answered += self.by_symbol[s];
        }
        FULL_REACH * answered / self.unseen_colored
    }

    fn best_color(&self, mine: &[i32; 4]) -> Color {
        let mut best = Color::Red;
        for color in Color::ALL {
            if self.color_value(mine, color) > self.color_value(mine, best) {
                best = color;
            }
        }
        best
    }
}

/// Whether `seat` should jump in now: always, when it can.
pub fn jump_in(game: &Uno, seat: usize) -> Option<UnoAction> {
    game.jump_window()
        .filter(|_| game.can_jump_in(seat))
        .map(|w| UnoAction::JumpIn { card: w.card })
}

/// The move for the seat to act.
pub fn choose(game: &Uno, seat: usize) -> UnoAction {
    if game.turn() != Some(seat) {
        return jump_in(game, seat).unwrap_or(UnoAction::Draw);
    }
    let hand = game.hand(seat);
    let fitting = hand
        .iter()
        .enumerate()
        .filter(|&(i, &c)| (i == 0 || hand[i - 1] != c) && game.is_playable(seat, c))
        .count();
    let others = Others::default();
    let counts = Counts::of(game, seat, fitting > 1, &others);
    let mut best: Option<(i32, UnoAction)> = None;
    let mut last = None;
    for &card in hand {
        if Some(card) == last || !game.is_playable(seat, card) {
            continue;
        }
        last = Some(card);
        let (score, action) = evaluate(game, seat, card, &counts, &others);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, action));
        }
    }
    let opponents_far_from_out = (0..game.seats())
        .filter(|&other| other != seat && !game.is_out(other))
        .all(|other| game.hand_len(other) > SPEND_WILDS_AT);
    // A second wild stays in reserve and can always be shed at the end, so the length that
    // decides whether to save one is the hand less its other wilds (measured: +0.15 points
    // over the whole hand's length).
    let length_to_shed = hand.len() + 1 - counts.wilds.max(1);
    match best {
        // Only a wild fits, the hand is long and no opponent is close to going out: drawing
        // keeps the wild for when it is needed (measured: +1.3 points of win rate against
        // `easy`).
        Some((_, UnoAction::Play { card, .. }))
            if card.is_wild()
                && length_to_shed >= SAVE_WILD_FROM
                && game.drawn().is_none()
                && opponents_far_from_out =>
        {
            UnoAction::Draw
        }
        Some((_, action)) => action,
        None if game.drawn().is_some() => UnoAction::Pass,
        None => UnoAction::Draw,
    }
}

/// A score for playing `card` now, and the action (with a wild's colour): the kind of card in a
/// fixed order (measured: a free weighing of kinds against colours lost to it), the colour left
/// in play, and the reach of the cards kept.
fn evaluate(
    game: &Uno,
    seat: usize,
    card: Card,
    counts: &Counts,
    others: &Others,
) -> (i32, UnoAction) {
    let hand = game.hand(seat);
    if hand.len() == 1 {
        return (i32::MAX, play(card, Color::Red));
    }
    let mut mine = counts.mine;
    if let Some(color) = card.color() {
        mine[color.index()] -= 1;
    }
    let color = card.color().unwrap_or_else(|| counts.best_color(&mine));
    let next = game.next_seat(seat);
    let next_size = game.hand_len(next);
    let prev_size = game.hand_len(game.prev_seat(seat));
    let kind = if next_size == 1 {
        // Stop the next seat from going out.
        match card.symbol() {
            Symbol::DrawTwo => 6,
            Symbol::Skip => 5,
            Symbol::Reverse => 4,
            Symbol::WildDrawFour => 3,
            Symbol::Wild => 2,
            Symbol::Number(_) => 1,
        }
    } else {
        // Action cards while they still cost the others a turn, before numbers (measured:
        // +0.7 points over numbers first; holding them all for a seat at one card wastes
        // most); wilds last (they always fit).
        match card.symbol() {
            Symbol::Reverse if prev_size > next_size => 7,
            Symbol::Skip => 6,
            Symbol::DrawTwo => 5,
            Symbol::Reverse => 4,
            Symbol::Number(_) => 3,
            Symbol::Wild => 2,
            Symbol::WildDrawFour => 1,
        }
    };
    // The cards kept: the hand less one copy of this one.
    let at = hand.iter().position(|&c| c == card);
    let kept = hand
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != at)
        .map(|(_, &c)| c);
    let mut score = kind * KIND_STEP + counts.color_value(&mine, color) + counts.reach(kept);
    if card.is_wild() && counts.wilds >= 2 {
        score -= WILD_WITH_ANOTHER_KEPT;
    }
    if counts.choice {
        score -= followers_penalty(game, seat, card, color, others);
    }
    (score, play(card, color))
}

/// The score a card loses by the chances that the seats acting after it can follow it (naming
/// `color` if wild): [`ACTOR_FOLLOWS`], [`SECOND_ACTOR_FOLLOWS`] and
/// [`THIRD_ACTOR_LAST_CARD_FOLLOWS`].
fn followers_penalty(game: &Uno, seat: usize, card: Card, color: Color, others: &Others) -> i32 {
    // The seats in the order they act after the card: past the seat a Skip or a draw card
    // passes over, or back the other way after a Reverse.
    let reversed = card.symbol() == Symbol::Reverse && game.seats_in() > 2;
    let after = |s: usize| {
        if reversed {
            game.prev_seat(s)
        } else {
            game.next_seat(s)
        }
    };
    let actor = match card.symbol() {
        Symbol::Skip | Symbol::DrawTwo | Symbol::WildDrawFour => after(after(seat)),
        _ => after(seat),
    };
    let second = after(actor);
    let third = after(second);
    // The chance that `other`'s last card (or one of its cards, judged alike) can follow.
    let weighed = |weight: f64, other: usize| {
        (weight * others.follow_chance(game, seat, other, card, color)) as i32
    };
    let size = |s: usize| game.hand_len(s);
    let mut penalty = weighed(
        ACTOR_FOLLOWS[size(actor).clamp(1, ACTOR_FOLLOWS.len()) - 1],
        actor,
    );
    // The later seats get the colour only if the ones before them cannot go out on it.
    if second != seat && size(actor) > 1 {
        if let Some(&weight) = size(second)
            .checked_sub(1)
            .and_then(|i| SECOND_ACTOR_FOLLOWS.get(i))
        {
            penalty += weighed(weight, second);
        }
        if third != seat && size(second) > 1 && size(third) == 1 {
            penalty += weighed(THIRD_ACTOR_LAST_CARD_FOLLOWS, third);
        }
    }
    penalty
}

/// What the seat deciding has worked out about the other seats, each at most once a decision
/// and only when a candidate needs it.
#[derive(Default)]
struct Others {
    /// The cards the deciding seat has not seen ([`unseen`]).
    unseen: OnceCell<[usize; DISTINCT_CARDS]>,
    named: OnceCell<[Option<Color>; MAX_SEATS]>,
    may_hold: [OnceCell<MayHold>; MAX_SEATS],
}

impl Others {
    /// The cards `seat` (the seat deciding) has not seen, counted once a decision: the reach of
    /// its kept cards and every other seat's follow chance start from them.
    fn unseen(&self, game: &Uno, seat: usize) -> &[usize; DISTINCT_CARDS] {
        self.unseen.get_or_init(|| unseen(game, seat))
    }

    /// The chance that `other`'s last card can follow `card` played by `seat` (naming `color`).
    fn follow_chance(
        &self,
        game: &Uno,
        seat: usize,
        other: usize,
        card: Card,
        color: Color,
    ) -> f64 {
        self.may_hold[other]
            .get_or_init(|| {
                let named = self.named.get_or_init(|| named_colours(game))[other];
                MayHold::of(game, self.unseen(game, seat), other, named)
            })
            .follow_chance(card, color)
    }
}

/// What the deciding seat may see of the cards another seat may hold, judged as its last card:
/// the cards it has not seen, less what the table infers that card lacks, or only the colour the
/// seat named for the wild it played last. Built at most once a decision for each seat that
/// needs it.
struct MayHold {
    /// The colour named with its last wild, if no card came since.
    named: Option<Color>,
    /// Copies of each coloured card it may hold ([`Card::index`] below 52), their sums per
    /// colour and per symbol rank, the wilds, and all of them: a candidate's follow chance is
    /// then a few sums, not a pass over every card (the chance is weighed for up to three
    /// seats a candidate).
    cards: [i32; 52],
    by_color: [i32; 4],
    by_symbol: [i32; 13],
    wilds: i32,
    total: i32,
}

impl MayHold {
    fn of(
        game: &Uno,
        unseen: &[usize; DISTINCT_CARDS],
        other: usize,
        named: Option<Color>,
    ) -> MayHold {
        // A seat names the colour it holds most of (`easy` its best colour): after a wild with
        // no card taken since, its last card is of that colour, or a wild when it named red
        // (`easy`'s choice with only wilds left).
        let lacks = game.lacks_of(other);
        let lacks_known = lacks.free_cards(1) == 0;
        let possible = |c: Card| match named {
            Some(named) => c.color() == Some(named) || (named == Color::Red && c.is_wild()),
            None => !lacks_known || lacks.allows(c),
        };
        let count = |i: usize| {
            if possible(Card::from_index(i)) {
                unseen[i] as i32
            } else {
                0
            }
        };
        let cards: [i32; 52] = std::array::from_fn(count);
        let (mut by_color, mut by_symbol) = ([0; 4], [0; 13]);
        for (i, &n) in cards.iter().enumerate() {
            by_color[i / 13] += n;
            by_symbol[i % 13] += n;
        }
        let wilds = count(Card::WILD.index()) + count(Card::WILD_DRAW_FOUR.index());
        MayHold {
            named,
            cards,
            by_color,
            by_symbol,
            wilds,
            total: by_color.iter().sum::<i32>() + wilds,
        }
    }

    /// The chance that the seat's last card can follow `card` (naming `color` if wild): a wild,
    /// a card of the colour left, or one of the card's symbol.
    fn follow_chance(&self, card: Card, color: Color) -> f64 {
        if self.named == Some(color) {
            return 1.0;
        }
        if self.total == 0 {
            return 0.0;
        }
        let mut fitting = self.wilds + self.by_color[color.index()];
        if !card.is_wild() {
            // Cards of its symbol in the other colours (coloured cards are indexed colour × 13
            // + symbol rank, and a coloured card's colour is the colour left).
            let rank = usize::from(card.symbol().seed_rank());
            fitting += self.by_symbol[rank] - self.cards[color.index() * 13 + rank];
        }
        f64::from(fitting) / f64::from(self.total)
    }
}

/// The copies of each card `seat` has not seen: neither in its hand nor on the discard pile.
fn unseen(game: &Uno, seat: usize) -> [usize; DISTINCT_CARDS] {
    let known = game.hand(seat).iter().copied();
    copies_left(known.chain(game.discard().iter().map(|p| p.card)))
}

/// The colour each seat named for the wild it played last, if that was its last play and it
/// has taken no card since (from the public log, read once for every seat).
fn named_colours(game: &Uno) -> [Option<Color>; MAX_SEATS] {
    let mut named = [None; MAX_SEATS];
    for event in game.log() {
        match *event {
            UnoEvent::Played { seat, card, color } => {
                named[seat] = card.is_wild().then_some(color);
            }
            UnoEvent::Drew { seat, .. } | UnoEvent::JumpedIn { seat, .. } => {
                named[seat] = None;
            }
            _ => {}
        }
    }
    named
}

fn play(card: Card, color: Color) -> UnoAction {
    UnoAction::Play {
        card,
        color: card.is_wild().then_some(color),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::position;
    use super::*;

    /// Playing a Wild naming `color`.
    fn wild(color: Color) -> UnoAction {
        UnoAction::Play {
            card: Card::WILD,
            color: Some(color),
        }
    }

    /// Playing the coloured card `code`.
    fn plays(code: &str) -> UnoAction {
        UnoAction::Play {
            card: code.parse().unwrap(),
            color: None,
        }
    }

    #[test]
    fn punishes_a_next_seat_about_to_go_out() {
        let game = position(&["R5 R6 RD2 B1", "Y1", "Y2 Y3 Y4"], "R3", 0);
        assert_eq!(choose(&game, 0), plays("RD2"));
    }

    #[test]
    fn sheds_actions_before_numbers_and_keeps_wilds() {
        let game = position(&["W R5 RS B1 B2", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], "R3", 0);
        assert_eq!(choose(&game, 0), plays("RS"));
        // Only a number and the wild fit: the number.
        let game = position(&["W R5 B1 B2", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], "R3", 0);
        assert_eq!(choose(&game, 0), plays("R5"));
    }

    #[test]
    fn a_wild_names_the_colour_it_holds_most() {
        let game = position(&["W G1 G2", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], "R9", 0);
        assert_eq!(choose(&game, 0), wild(Color::Green));
    }

    #[test]
    fn a_hand_of_four_draws_rather_than_spend_its_only_wild() {
        let game = position(&["W G1 G2 B4", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], "R9", 0);
        assert_eq!(choose(&game, 0), UnoAction::Draw);
        // …unless the next seat is close to going out.
        let game = position(&["W G1 G2 B4", "Y1 Y2", "Y5 Y6 Y7 Y8"], "R9", 0);
        assert!(matches!(choose(&game, 0), UnoAction::Play { card, .. } if card == Card::WILD));
    }

    #[test]
    fn a_seat_out_of_the_game_is_not_close_to_going_out() {
        let mut game = position(&["W G1 G2 B4", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8", "G5"], "R9", 0);
        assert!(matches!(choose(&game, 0), UnoAction::Play { card, .. } if card == Card::WILD));
        // Seat 3 leaves: its empty hand is no reason to spend the wild.
        game.forfeit(3, crate::EndReason::ABANDONED).unwrap();
        assert_eq!(choose(&game, 0), UnoAction::Draw);
    }

    #[test]
    fn a_skip_does_not_hand_the_turn_to_a_seat_at_its_last_card() {
        // Seat 2 holds one card: the Skip would let it act on red at once; the number waits
        // for seat 1 to play first.
        let game = position(&["RS R5 B1", "Y1 Y2 Y3", "G1"], "R3", 0);
        assert_eq!(choose(&game, 0), plays("R5"));
    }

    #[test]
    fn a_wild_draw_four_is_kept_from_four_cards_and_spent_when_anyone_is_close() {
        let game = position(&["W4 G1 G2 B4", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], "R9", 0);
        assert_eq!(choose(&game, 0), UnoAction::Draw);
        // The seat after next holds two cards: spend it.
        let game = position(&["W4 G1 G2 B4", "Y1 Y2 Y3 Y4", "Y5 Y6"], "R9", 0);
        assert!(
            matches!(choose(&game, 0), UnoAction::Play { card, .. } if card == Card::WILD_DRAW_FOUR)
        );
    }

    #[test]
    fn a_second_wild_does_not_count_towards_saving_one() {
        // Five cards, three of them wilds: one wild is spent, the others stay in reserve.
        let game = position(&["W W W4 G1 B4", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], "R9", 0);
        assert!(matches!(choose(&game, 0), UnoAction::Play { card, .. } if card == Card::WILD));
    }

    #[test]
    fn a_number_goes_before_one_of_two_wilds() {
        // Naming green would leave six greens in play, but the wild kept would no longer
        // protect the one spent: the red number goes.
        let game = position(
            &["W W R5 G1 G2 G3 G4 G5 G6", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"],
            "R9",
            0,
        );
        assert_eq!(choose(&game, 0), plays("R5"));
    }

    #[test]
    fn a_next_seat_at_two_cards_is_not_given_the_colour_it_named() {
        // Seat 1 named blue with a wild and keeps two cards (blue ones, as a seat names the
        // colour it holds); the green 7 leaves it little to follow with.
        let mut game = position(&["B5 G7 R1 R2", "W B1 B2", "B7 Y8 Y9"], "R3", 1);
        game.apply(1, &wild(Color::Blue)).unwrap();
        game.apply(2, &plays("B7")).unwrap();
        assert_eq!(choose(&game, 0), plays("G7"));
    }

    #[test]
    fn a_next_seat_at_three_cards_is_not_given_the_colour_it_named() {
        // Seat 1 named blue with a wild and keeps three (blue) cards; the blue and green 5s
        // keep the same reach and blue is the better colour by one unseen card, but leaving
        // blue lets seat 1 follow for certain: the green 5.
        let mut game = position(
            &["B5 G5 B7 G7", "W B2 B3 B4", "Y1 Y2 Y3 Y4 Y6", "B5 Y8 Y9 Y0"],
            "R9",
            1,
        );
        game.apply(1, &wild(Color::Blue)).unwrap();
        game.apply(2, &UnoAction::Draw).unwrap();
        game.apply(3, &plays("B5")).unwrap();
        assert_eq!(choose(&game, 0), plays("G5"));
    }

    #[test]
    fn the_seat_after_next_at_its_last_card_is_not_left_its_colour() {
        // Seat 2 named green with its second-last card; seat 1 may draw and leave the colour to
        // it: the red 5 rather than the green one (which would leave green, the colour this
        // seat holds most).
        let mut game = position(
            &["R5 G5 R7 G7 G8", "Y1 Y2 Y3 Y4 Y6", "W G3", "G5 Y7 Y8"],
            "R9",
            2,
        );
        game.apply(2, &wild(Color::Green)).unwrap();
        game.apply(3, &plays("G5")).unwrap();
        assert_eq!(choose(&game, 0), plays("R5"));
    }
}
