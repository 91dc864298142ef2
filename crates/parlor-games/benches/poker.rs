//! Poker engine benchmarks: the evaluator's fast path and explanation, the whole hand space,
//! the published `poker` crate on the same joker-free hands, and the deck operations.
//!
//! `cargo bench --bench poker`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use parlor_games::poker::{deal, evaluate, full_deck, shuffled_deck, strength, Card, Deck};

/// 4,096 hands dealt from seeded shuffles: a realistic mix, jokers included.
fn sample_hands(with_jokers: bool) -> Vec<[Card; 5]> {
    (0u64..)
        .flat_map(|seed| {
            let deck: Vec<Card> = shuffled_deck(seed)
                .into_iter()
                .filter(|card| with_jokers || !card.is_joker())
                .collect();
            (0..10)
                .map(|i| std::array::from_fn(|j| deck[i * 5 + j]))
                .collect::<Vec<[Card; 5]>>()
        })
        .take(4096)
        .collect()
}

/// The published crate's card for one of our real cards (same rank and suit order).
fn theirs_of(card: Card) -> poker::Card {
    use poker::{Rank::*, Suit::*};
    const RANKS: [poker::Rank; 13] = [
        Two, Three, Four, Five, Six, Seven, Eight, Nine, Ten, Jack, Queen, King, Ace,
    ];
    const SUITS: [poker::Suit; 4] = [Clubs, Diamonds, Hearts, Spades];
    let index = usize::from(card.index());
    poker::Card::new(RANKS[index / 4 % 13], SUITS[index % 4])
}

fn evaluator(c: &mut Criterion) {
    let mixed = sample_hands(true);
    let plain = sample_hands(false);
    let theirs: Vec<[poker::Card; 5]> = plain.iter().map(|hand| hand.map(theirs_of)).collect();
    let their_evaluator = poker::Evaluator::new();
    black_box(strength(&mixed[0]));

    let mut group = c.benchmark_group("poker/evaluator");
    group.throughput(Throughput::Elements(mixed.len() as u64));
    group.bench_function("strength/4096_dealt_hands", |b| {
        b.iter(|| {
            for hand in &mixed {
                black_box(strength(black_box(hand)));
            }
        })
    });
    group.bench_function("evaluate/4096_dealt_hands", |b| {
        b.iter(|| {
            for hand in &mixed {
                black_box(evaluate(black_box(hand)));
            }
        })
    });
    group.bench_function("strength/4096_joker_free_hands", |b| {
        b.iter(|| {
            for hand in &plain {
                black_box(strength(black_box(hand)));
            }
        })
    });
    group.bench_function("published_poker_crate/4096_joker_free_hands", |b| {
        b.iter(|| {
            for hand in &theirs {
                black_box(their_evaluator.evaluate_five(black_box(hand)).ok());
            }
        })
    });
    group.finish();

    let deck = full_deck();
    let mut group = c.benchmark_group("poker/evaluator");
    group.sample_size(10);
    group.throughput(Throughput::Elements(4_187_106));
    group.bench_function("strength/all_57_choose_5_hands", |b| {
        b.iter(|| {
            let n = deck.len();
            for a in 0..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        for d in c + 1..n {
                            for e in d + 1..n {
                                let hand = [deck[a], deck[b], deck[c], deck[d], deck[e]];
                                black_box(strength(black_box(&hand)));
                            }
                        }
                    }
                }
            }
        })
    });
    group.finish();
}

fn deck_operations(c: &mut Criterion) {
    let mut group = c.benchmark_group("poker/deck");
    group.bench_function("deal/11_players", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(deal(11, seed).expect("11 players"))
        })
    });
    group.bench_function("session/draw5_undo_reselect_shuffle", |b| {
        b.iter_batched(
            || Deck::new(42),
            |mut deck| {
                deck.draw(5).expect("a full deck");
                deck.undo().expect("a card drawn");
                deck.reselect().expect("a card drawn");
                deck.shuffle();
                deck
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("session/json_round_trip", |b| {
        let mut deck = Deck::new(42);
        deck.draw(20).expect("a full deck");
        b.iter(|| {
            let json = serde_json::to_string(black_box(&deck)).expect("serializable");
            black_box(serde_json::from_str::<Deck>(&json).expect("valid"))
        })
    });
    group.finish();
}

criterion_group!(benches, evaluator, deck_operations);
criterion_main!(benches);
