//! Throughput of the poker evaluator on one core: every one of the C(57,5) = 4,187,106 hands of
//! the joker deck, then every C(52,5) = 2,598,960 joker-free hand for ours and for the published
//! `poker` crate (a port of the treys evaluator) in the same run, with the ratio.
//! Before timing, both evaluators must agree on the category of every joker-free hand.
//!
//! `cargo run --release --example poker_speed`

use std::hint::black_box;
use std::time::{Duration, Instant};

use parlor_games::poker::{category_of, full_deck, strength, Card, Category};
use poker::evaluate::FiveCardHandClass;

const RUNS: usize = 5;

fn for_each_hand<T: Copy>(deck: &[T], mut visit: impl FnMut([T; 5])) {
    let n = deck.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        visit([deck[a], deck[b], deck[c], deck[d], deck[e]]);
                    }
                }
            }
        }
    }
}

/// The fastest of `RUNS` passes (the least disturbed by whatever else shares the machine).
fn fastest(mut pass: impl FnMut() -> u64) -> (Duration, u64) {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let hands = pass();
            (start.elapsed(), hands)
        })
        .min()
        .expect("at least one run")
}

fn report(label: &str, (elapsed, hands): (Duration, u64)) -> f64 {
    let rate = hands as f64 / elapsed.as_secs_f64();
    println!(
        "{label:<40} {hands:>9} hands  {:>8.1} ms  {:>7.1} M evals/s",
        elapsed.as_secs_f64() * 1e3,
        rate / 1e6
    );
    rate
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

fn their_category(class: FiveCardHandClass) -> Category {
    match class {
        FiveCardHandClass::HighCard { .. } => Category::HighCard,
        FiveCardHandClass::Pair { .. } => Category::OnePair,
        FiveCardHandClass::TwoPair { .. } => Category::TwoPair,
        FiveCardHandClass::ThreeOfAKind { .. } => Category::ThreeOfAKind,
        FiveCardHandClass::Straight { .. } => Category::Straight,
        FiveCardHandClass::Flush { .. } => Category::Flush,
        FiveCardHandClass::FullHouse { .. } => Category::FullHouse,
        FiveCardHandClass::FourOfAKind { .. } => Category::FourOfAKind,
        FiveCardHandClass::StraightFlush { .. } => Category::StraightFlush,
    }
}

fn main() {
    let deck = full_deck();
    let ours_52: Vec<Card> = deck[..52].to_vec();
    let theirs_52: Vec<poker::Card> = ours_52.iter().copied().map(theirs_of).collect();
    // Both build their tables here, outside the timings.
    let start = Instant::now();
    black_box(strength(&[deck[0], deck[1], deck[2], deck[3], deck[4]]));
    println!(
        "our tables built in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let evaluator = poker::Evaluator::new();

    let mut disagreements = 0u64;
    for_each_hand(&ours_52, |hand| {
        let theirs = evaluator
            .evaluate_five(hand.map(theirs_of))
            .expect("five distinct cards");
        if category_of(strength(&hand)) != their_category(theirs.classify()) {
            disagreements += 1;
        }
    });
    assert_eq!(disagreements, 0, "the evaluators disagree on categories");
    println!("categories agree on all 2,598,960 joker-free hands\n");

    let ours_all = fastest(|| {
        let mut hands = 0;
        for_each_hand(&deck, |hand| {
            black_box(strength(black_box(&hand)));
            hands += 1;
        });
        hands
    });
    report("ours, all C(57,5) hands", ours_all);

    let ours_plain = fastest(|| {
        let mut hands = 0;
        for_each_hand(&ours_52, |hand| {
            black_box(strength(black_box(&hand)));
            hands += 1;
        });
        hands
    });
    let ours_rate = report("ours, C(52,5) joker-free hands", ours_plain);

    let theirs_plain = fastest(|| {
        let mut hands = 0;
        for_each_hand(&theirs_52, |hand| {
            black_box(evaluator.evaluate_five(black_box(&hand)).ok());
            hands += 1;
        });
        hands
    });
    let theirs_rate = report("poker 0.7 crate, C(52,5) joker-free", theirs_plain);
    println!(
        "\nratio on joker-free hands (ours / poker): {:.2}x",
        ours_rate / theirs_rate
    );
}
