//! The seeded shuffle, the deal, and deck sessions (the seed's `CardManager`).
//!
//! Every shuffle is Fisher–Yates (`SliceRandom::shuffle`) of the canonical deck. A deck session
//! takes the randomness of its n-th random operation from stream n of its source (stream 0: the
//! first shuffle), so it only needs to persist the source and a counter:
//!
//! - a deck shuffled from a seed the client chose ([`Deck::new`]) uses ChaCha8 seeded with
//!   `seed_from_u64(seed)` (stream 0 is the same shuffle [`deal`] uses): reproducible, and
//!   predictable by anyone who knows the seed, which is public;
//! - a random deck ([`Deck::random`]) uses ChaCha20 keyed with 256 bits from the OS generator,
//!   a [`SecretKey`] kept with the stored deck and never shown: no seed exists for it, and nothing
//!   public (no seed of [`deal`], no other deck) reproduces its order.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::{ChaCha20Rng, ChaCha8Rng};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::card::{full_deck, Card, DECK_SIZE, HAND_SIZE};
#[cfg(feature = "serde")]
use super::card::{JOKERS_IN_DECK, REAL_CARDS};
use super::compare::{MAX_PLAYERS, MIN_PLAYERS};
use super::error::PokerError;

fn seeded_rng(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

fn shuffled_with(rng: &mut dyn RngCore) -> Vec<Card> {
    let mut deck = full_deck().to_vec();
    deck.shuffle(rng);
    deck
}

/// The 57 cards shuffled by `seed`, top card first.
pub fn shuffled_deck(seed: u64) -> Vec<Card> {
    shuffled_with(&mut seeded_rng(seed, 0))
}

/// Five cards to each of 2..=11 players from the deck shuffled by `seed`, dealt one at a time
/// round the table from the top (seat 0 gets cards 0, players, 2 × players, …).
pub fn deal(players: usize, seed: u64) -> Result<Vec<[Card; HAND_SIZE]>, PokerError> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        return Err(PokerError::PlayerCount { players });
    }
    let deck = shuffled_deck(seed);
    Ok((0..players)
        .map(|seat| std::array::from_fn(|round| deck[round * players + seat]))
        .collect())
}

/// A random deck's 256-bit ChaCha20 key, drawn from the OS generator. Stored with the deck (as
/// 64 hex characters) and never shown: its `Debug` hides it, so no log line can carry it.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretKey([u8; 32]);

impl SecretKey {
    /// A fresh key from the operating system's generator.
    pub fn generate() -> SecretKey {
        let mut key = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut key);
        SecretKey(key)
    }

    fn rng(&self, stream: u64) -> ChaCha20Rng {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(stream);
        rng
    }
}

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(…)")
    }
}

#[cfg(feature = "serde")]
impl Serialize for SecretKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(self.0))
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for SecretKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let mut key = [0u8; 32];
        // The error never quotes the text: a corrupt key must not reach a log line either.
        hex::decode_to_slice(&text, &mut key)
            .map_err(|_| serde::de::Error::custom("a deck key is 64 hex characters"))?;
        Ok(SecretKey(key))
    }
}

/// Where a deck's randomness comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    /// A seed the client chose: public, and the deck reproducible from it.
    Seeded(u64),
    /// A key from the OS generator, kept server-side.
    Secret(SecretKey),
}

impl Source {
    fn rng(&self, stream: u64) -> Box<dyn RngCore> {
        match self {
            Source::Seeded(seed) => Box::new(seeded_rng(*seed, stream)),
            Source::Secret(key) => Box::new(key.rng(stream)),
        }
    }
}

/// A deck session: a shuffled deck that cards are drawn from, one by one or several at a time.
/// Deterministic given its source (a public seed or a secret key) and the operations applied;
/// stored as JSON between requests.
///
/// - [`draw`](Deck::draw) takes cards from the top.
/// - [`undo`](Deck::undo) puts the last drawn card back on top: undo then draw gives it again.
/// - [`reselect`](Deck::reselect) puts the last drawn card back at a random place in the deck
///   and draws the top card: like the seed's random pick, it yields any remaining card (the
///   returned one included) with equal chance, so re-selecting usually gives a different card.
/// - [`shuffle`](Deck::shuffle) gathers every card and shuffles anew.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "DeckState", into = "DeckState"))]
pub struct Deck {
    source: Source,
    /// The ChaCha8 stream the next random operation uses.
    next_stream: u64,
    /// Top card first.
    remaining: Vec<Card>,
    /// In the order drawn.
    drawn: Vec<Card>,
}

impl Deck {
    /// A deck shuffled by `seed` (the same order as [`shuffled_deck`]), nothing drawn.
    pub fn new(seed: u64) -> Deck {
        Deck::from_source(Source::Seeded(seed))
    }

    /// A deck shuffled from a fresh [`SecretKey`]: it has no seed, and its order, reselects and
    /// shuffles follow from nothing public.
    pub fn random() -> Deck {
        Deck::from_source(Source::Secret(SecretKey::generate()))
    }

    fn from_source(source: Source) -> Deck {
        Deck {
            remaining: shuffled_with(&mut *source.rng(0)),
            source,
            next_stream: 1,
            drawn: Vec::new(),
        }
    }

    /// The seed a client chose; `None` for a random deck, which has none to show.
    pub fn seed(&self) -> Option<u64> {
        match self.source {
            Source::Seeded(seed) => Some(seed),
            Source::Secret(_) => None,
        }
    }

    /// The key of a random deck (`None` for a seeded one): for tests that look for it in answers.
    pub fn secret_key(&self) -> Option<&SecretKey> {
        match &self.source {
            Source::Seeded(_) => None,
            Source::Secret(key) => Some(key),
        }
    }

    /// Makes a seeded deck a random one: a fresh secret key, and the cards not yet drawn shuffled
    /// from it, so that nothing the seed told about their order holds any more. The drawn cards
    /// stay drawn.
    pub fn make_secret(&mut self) {
        let key = SecretKey::generate();
        self.remaining.shuffle(&mut key.rng(0));
        self.source = Source::Secret(key);
        self.next_stream = 1;
    }

    /// Cards left to draw.
    pub fn remaining(&self) -> usize {
        self.remaining.len()
    }

    /// Cards drawn so far, in order.
    pub fn drawn(&self) -> &[Card] {
        &self.drawn
    }

    /// Draws `count` (1..=57) cards from the top; all or nothing.
    pub fn draw(&mut self, count: usize) -> Result<Vec<Card>, PokerError> {
        if !(1..=DECK_SIZE).contains(&count) {
            return Err(PokerError::DrawCount { count });
        }
        if count > self.remaining.len() {
            return Err(PokerError::NotEnoughCards {
                requested: count,
                remaining: self.remaining.len(),
            });
        }
        let cards: Vec<Card> = self.remaining.drain(..count).collect();
        self.drawn.extend_from_slice(&cards);
        Ok(cards)
    }

    /// The seed's `undoLastSelectOneCards`: the last drawn card goes back on top. Returns it.
    pub fn undo(&mut self) -> Result<Card, PokerError> {
        let card = self.drawn.pop().ok_or(PokerError::NothingDrawn)?;
        self.remaining.insert(0, card);
        Ok(card)
    }

    /// The seed's `reSelectOneCards`: the last drawn card goes back into the deck at a random
    /// place (uniform over the gaps, from the session's next random stream), then the top card
    /// is drawn and returned.
    pub fn reselect(&mut self) -> Result<Card, PokerError> {
        let returned = self.drawn.pop().ok_or(PokerError::NothingDrawn)?;
        let place = self.next_rng().gen_range(0..=self.remaining.len());
        self.remaining.insert(place, returned);
        let card = self.remaining.remove(0);
        self.drawn.push(card);
        Ok(card)
    }

    /// Every drawn card back, and the whole deck shuffled again (from the next random stream).
    pub fn shuffle(&mut self) {
        let stream = self.take_stream();
        self.remaining = shuffled_with(&mut *self.source.rng(stream));
        self.drawn.clear();
    }

    fn take_stream(&mut self) -> u64 {
        let stream = self.next_stream;
        self.next_stream = self.next_stream.wrapping_add(1);
        stream
    }

    fn next_rng(&mut self) -> Box<dyn RngCore> {
        let stream = self.take_stream();
        self.source.rng(stream)
    }
}

/// A deck as stored; checked on the way in, so that a tampered or corrupt row cannot make a
/// deck with a card twice or missing. A seeded deck is stored as every release stored decks
/// (`seed`, no `key`), so a deck written before random decks had keys loads as a seeded one: its
/// seed was shown then, and stays public.
#[cfg(feature = "serde")]
#[derive(Serialize, Deserialize)]
struct DeckState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<SecretKey>,
    next_stream: u64,
    remaining: Vec<Card>,
    drawn: Vec<Card>,
}

#[cfg(feature = "serde")]
impl From<Deck> for DeckState {
    fn from(deck: Deck) -> DeckState {
        let (seed, key) = match deck.source {
            Source::Seeded(seed) => (Some(seed), None),
            Source::Secret(key) => (None, Some(key)),
        };
        DeckState {
            seed,
            key,
            next_stream: deck.next_stream,
            remaining: deck.remaining,
            drawn: deck.drawn,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<DeckState> for Deck {
    type Error = String;

    fn try_from(state: DeckState) -> Result<Deck, String> {
        let mut real = [0usize; REAL_CARDS];
        let mut jokers = 0;
        for card in state.remaining.iter().chain(&state.drawn) {
            match card.is_joker() {
                true => jokers += 1,
                false => real[usize::from(card.index())] += 1,
            }
        }
        if jokers != JOKERS_IN_DECK || real.iter().any(|&count| count != 1) {
            return Err("a stored deck must hold the 57 cards exactly once each".to_owned());
        }
        let source = match (state.seed, state.key) {
            (Some(seed), None) => Source::Seeded(seed),
            (None, Some(key)) => Source::Secret(key),
            _ => return Err("a stored deck has either a seed or a key".to_owned()),
        };
        Ok(Deck {
            source,
            next_stream: state.next_stream,
            remaining: state.remaining,
            drawn: state.drawn,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poker::compare::validate_one_deck;
    use proptest::prelude::*;
    #[cfg(feature = "serde")]
    use serde_json::json;

    fn assert_whole_deck(deck: &Deck) {
        let mut all: Vec<Card> = deck.remaining.iter().chain(&deck.drawn).copied().collect();
        all.sort();
        assert_eq!(all, full_deck().to_vec());
    }

    #[test]
    fn seeded_shuffle_is_reproducible_and_a_permutation() {
        let a = shuffled_deck(42);
        assert_eq!(a, shuffled_deck(42));
        assert_ne!(a, shuffled_deck(43));
        assert_ne!(a, full_deck().to_vec());
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, full_deck().to_vec());
        // Pinned: the first cards for seed 42 must not change between versions, or stored
        // seeds would deal differently.
        let top: Vec<String> = a.iter().take(5).map(ToString::to_string).collect();
        assert_eq!(top, PINNED_TOP_OF_SEED_42);
    }

    const PINNED_TOP_OF_SEED_42: [&str; 5] = ["TS", "3D", "9H", "7S", "6C"];

    #[test]
    fn deal_is_reproducible_from_one_deck_and_checks_the_player_count() {
        let hands = deal(11, 7).unwrap();
        assert_eq!(hands.len(), 11);
        assert_eq!(hands, deal(11, 7).unwrap());
        assert_ne!(hands, deal(11, 8).unwrap());
        assert_eq!(validate_one_deck(&hands), Ok(()));
        // Round the table: seat 1's first card is the deck's second card.
        let deck = shuffled_deck(7);
        assert_eq!(hands[1][0], deck[1]);
        assert_eq!(hands[0][1], deck[11]);
        assert_eq!(deal(2, 7).unwrap()[1][0], deck[1]);
        for players in [0, 1, 12, 100] {
            assert_eq!(deal(players, 7), Err(PokerError::PlayerCount { players }));
        }
        assert_eq!(deal(2, 7).unwrap().len(), 2);
    }

    #[test]
    fn draw_takes_from_the_top_all_or_nothing() {
        let mut deck = Deck::new(5);
        let order = shuffled_deck(5);
        assert_eq!(deck.remaining(), 57);
        assert_eq!(deck.draw(3).unwrap(), order[..3]);
        assert_eq!(deck.drawn(), &order[..3]);
        assert_eq!(deck.remaining(), 54);
        assert_eq!(deck.draw(0), Err(PokerError::DrawCount { count: 0 }));
        assert_eq!(deck.draw(58), Err(PokerError::DrawCount { count: 58 }));
        assert_eq!(
            deck.draw(55),
            Err(PokerError::NotEnoughCards {
                requested: 55,
                remaining: 54
            })
        );
        assert_eq!(deck.remaining(), 54);
        assert_eq!(deck.draw(54).unwrap(), order[3..]);
        assert_eq!(deck.remaining(), 0);
        assert_whole_deck(&deck);
        let mut fresh = Deck::new(5);
        assert_eq!(fresh.draw(57).unwrap(), order);
    }

    #[test]
    fn undo_puts_the_last_card_back_on_top() {
        let mut deck = Deck::new(9);
        assert_eq!(deck.undo(), Err(PokerError::NothingDrawn));
        let drawn = deck.draw(2).unwrap();
        assert_eq!(deck.undo(), Ok(drawn[1]));
        assert_eq!(deck.drawn(), &drawn[..1]);
        assert_eq!(deck.remaining(), 56);
        assert_eq!(deck.draw(1).unwrap(), vec![drawn[1]]);
        assert_eq!(deck.undo(), Ok(drawn[1]));
        assert_eq!(deck.undo(), Ok(drawn[0]));
        assert_eq!(deck.undo(), Err(PokerError::NothingDrawn));
        assert_eq!(deck, {
            let mut fresh = Deck::new(9);
            fresh.next_stream = deck.next_stream;
            fresh
        });
    }

    #[test]
    fn reselect_returns_a_random_remaining_card_reproducibly() {
        assert_eq!(Deck::new(1).reselect(), Err(PokerError::NothingDrawn));
        let mut same_card = 0;
        for seed in 0..200 {
            let mut deck = Deck::new(seed);
            let first = deck.draw(1).unwrap()[0];
            let mut twin = deck.clone();
            let card = deck.reselect().unwrap();
            assert_eq!(twin.reselect().unwrap(), card, "same state, same re-select");
            assert_eq!(deck.drawn(), &[card]);
            assert_eq!(deck.remaining(), 56);
            assert_whole_deck(&deck);
            if card == first {
                same_card += 1;
            } else {
                // The card that was next on top, unless the returned card went back on top.
                assert_eq!(card, shuffled_deck(seed)[1]);
            }
        }
        // The returned card comes back with chance 1/57: rarely, but it can.
        assert!(same_card < 20, "{same_card}");
        // With one card left in play it can only be that card.
        let mut deck = Deck::new(3);
        let all = deck.draw(57).unwrap();
        assert_eq!(deck.reselect(), Ok(all[56]));
        // Consecutive re-selects use fresh randomness.
        let mut deck = Deck::new(11);
        deck.draw(5).unwrap();
        let picks: Vec<Card> = (0..20).map(|_| deck.reselect().unwrap()).collect();
        assert!(picks.windows(2).any(|pair| pair[0] != pair[1]));
        assert_whole_deck(&deck);
    }

    #[test]
    fn shuffle_gathers_everything_and_differs_each_time() {
        let mut deck = Deck::new(4);
        deck.draw(10).unwrap();
        deck.shuffle();
        assert_eq!(deck.remaining(), 57);
        assert!(deck.drawn().is_empty());
        let first = deck.remaining.clone();
        assert_ne!(first, shuffled_deck(4));
        deck.shuffle();
        assert_ne!(deck.remaining, first);
        assert_whole_deck(&deck);
        let mut again = Deck::new(4);
        again.draw(10).unwrap();
        again.shuffle();
        assert_eq!(again.remaining, first, "reproducible");
    }

    #[test]
    #[cfg(feature = "serde")]
    fn serde_round_trip_and_corrupt_states_are_rejected() {
        let mut deck = Deck::new(77);
        deck.draw(4).unwrap();
        deck.reselect().unwrap();
        let json = serde_json::to_string(&deck).unwrap();
        assert!(json.contains("\"drawn\":[\""), "{json}");
        let mut back: Deck = serde_json::from_str(&json).unwrap();
        assert_eq!(back, deck);
        assert_eq!(back.reselect(), deck.reselect());
        assert_eq!(back.draw(3), deck.draw(3));

        let mut value = serde_json::to_value(&deck).unwrap();
        value["drawn"][0] = value["remaining"][0].clone();
        let err = serde_json::from_value::<Deck>(value).unwrap_err();
        assert!(err.to_string().contains("57 cards"), "{err}");
        let mut value = serde_json::to_value(&deck).unwrap();
        value["remaining"].as_array_mut().unwrap().pop();
        assert!(serde_json::from_value::<Deck>(value).is_err());
    }

    #[test]
    #[cfg(feature = "serde")]
    fn random_decks_have_no_seed_and_keep_their_key_to_themselves() {
        let mut a = Deck::random();
        let b = Deck::random();
        assert_eq!(a.seed(), None);
        assert_ne!(a.remaining, b.remaining, "two random decks, two orders");
        assert_whole_deck(&a);
        let key = hex::encode(a.secret_key().unwrap().0);
        // Never in Debug output (so never in a log line).
        assert!(!format!("{a:?}").contains(&key));
        assert_eq!(format!("{:?}", a.secret_key().unwrap()), "SecretKey(…)");
        // Stored with the deck: a reloaded deck goes on exactly as the original would.
        a.draw(3).unwrap();
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!(json["key"], key.as_str());
        assert!(json.get("seed").is_none(), "{json}");
        let mut back: Deck = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, a);
        assert_eq!(back.reselect(), a.reselect());
        back.shuffle();
        a.shuffle();
        assert_eq!(back.remaining, a.remaining);
        // Not a seeded deck's order under any reading of the key as a seed.
        for chunk in a.secret_key().unwrap().0.chunks(8) {
            let seed = u64::from_le_bytes(chunk.try_into().unwrap());
            assert_ne!(
                Deck::new(seed).remaining,
                Deck::from_source(Source::Secret(a.secret_key().unwrap().clone())).remaining
            );
        }
        // A corrupt key is refused without quoting it; a seed and a key together, or neither, too.
        let mut bad = json.clone();
        bad["key"] = json!("zz-not-a-key");
        let err = serde_json::from_value::<Deck>(bad).unwrap_err().to_string();
        assert!(err.contains("64 hex") && !err.contains("zz-not"), "{err}");
        let mut both = json.clone();
        both["seed"] = json!(7);
        assert!(serde_json::from_value::<Deck>(both).is_err());
        let mut neither = json;
        neither.as_object_mut().unwrap().remove("key");
        assert!(serde_json::from_value::<Deck>(neither).is_err());
    }

    #[test]
    #[cfg(feature = "serde")]
    fn a_deck_stored_by_the_previous_release_loads_as_a_seeded_deck() {
        // The previous release's JSON for a deck of seed 7 with two cards drawn.
        let order = shuffled_deck(7);
        let old = json!({
            "seed": 7u64,
            "next_stream": 1,
            "remaining": order[2..].iter().map(ToString::to_string).collect::<Vec<_>>(),
            "drawn": order[..2].iter().map(ToString::to_string).collect::<Vec<_>>(),
        });
        let mut deck: Deck = serde_json::from_value(old.clone()).unwrap();
        let mut now = Deck::new(7);
        now.draw(2).unwrap();
        assert_eq!(deck, now);
        assert_eq!(deck.seed(), Some(7));
        assert_eq!(
            serde_json::to_value(&deck).unwrap(),
            old,
            "written back the same way"
        );
        // Made secret: the drawn cards stay, the rest is reshuffled from a fresh key.
        deck.make_secret();
        assert_eq!(deck.seed(), None);
        assert_eq!(deck.drawn(), &order[..2]);
        assert_ne!(deck.remaining, order[2..]);
        assert_whole_deck(&deck);
    }

    #[derive(Debug, Clone)]
    enum Op {
        Draw(usize),
        Undo,
        Reselect,
        Shuffle,
    }

    fn any_op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0usize..8).prop_map(Op::Draw),
            2 => Just(Op::Undo),
            2 => Just(Op::Reselect),
            1 => Just(Op::Shuffle),
        ]
    }

    fn apply(deck: &mut Deck, op: &Op) -> String {
        match op {
            Op::Draw(count) => format!("{:?}", deck.draw(*count)),
            Op::Undo => format!("{:?}", deck.undo()),
            Op::Reselect => format!("{:?}", deck.reselect()),
            Op::Shuffle => {
                deck.shuffle();
                String::new()
            }
        }
    }

    /// `deck` stored and loaded again; as it is without serde, which stores decks.
    fn reloaded(deck: Deck) -> Deck {
        #[cfg(feature = "serde")]
        let deck = serde_json::from_str(&serde_json::to_string(&deck).unwrap()).unwrap();
        deck
    }

    proptest! {
        #[test]
        fn any_session_keeps_the_deck_whole_and_replays_identically(
            seed in any::<u64>(),
            ops in prop::collection::vec(any_op(), 0..40),
            save_at in 0usize..40,
        ) {
            let mut deck = Deck::new(seed);
            let mut replay = Deck::new(seed);
            for (i, op) in ops.iter().enumerate() {
                if i == save_at {
                    // Stored and loaded mid-session: nothing changes.
                    replay = reloaded(replay);
                }
                let before = deck.remaining() + deck.drawn().len();
                prop_assert_eq!(apply(&mut deck, op), apply(&mut replay, op));
                prop_assert_eq!(before, DECK_SIZE);
                assert_whole_deck(&deck);
            }
            prop_assert_eq!(deck, replay);
        }
    }
}
