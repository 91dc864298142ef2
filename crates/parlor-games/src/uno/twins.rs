//! Twin deals: two tables that differ only in cards nobody has seen must look the same to the
//! public, and make the server behave the same, until a seat's own choice tells them apart.
//!
//! Each game deals a seeded deck twice, the second time with two hidden cards swapped (two deck
//! cards, a hand card and a deck card, or cards of two hands). Both are driven in lockstep the
//! way the service drives a table with `auto_ai`: AI seats move until
//! [`TurnGame::humans_may_interject`] or a human's turn stops them; "humans" follow a seeded
//! random policy (jump in when they can, now and then; else a random legal move), and when the
//! server stops for a jump-in chance that nobody takes, the AI seat to act goes on (`ai-move`).
//! Before every step the two public views, whether auto-play stops there and, for an AI
//! decision, the think budget it spent (`hard`'s games played; 0 for the others) must be equal.
//! The comparison ends at the first step where the two tables' seats choose differently (a
//! choice from a hand that differs: that is the seat's own doing) or the game ends (the points
//! count the hidden hands).

use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::ai::{self, Limits};
use super::card::{full_deck, Card};
use super::{Rules, UnoAction, UnoGame, UnoOptions, HAND_SIZE};
use crate::{AiLevel, SeatKind, TurnGame};

/// Games per run (each played twice).
const GAMES: u64 = 3_000;
/// `hard`'s budget in the twin games: games played per decision, never a clock.
const HARD_GAMES: u64 = 3;

fn level_of(kind: SeatKind) -> Option<AiLevel> {
    match kind {
        SeatKind::Ai(level) => Some(level),
        _ => None,
    }
}

/// A seeded table: its rules, seats and deck (top first).
struct Setup {
    rules: Rules,
    kinds: Vec<SeatKind>,
    deck: Vec<Card>,
}

fn setup(rng: &mut ChaCha8Rng) -> Setup {
    let seats = rng.gen_range(2..=6);
    let humans = rng.gen_range(1..seats.min(3));
    let mut kinds: Vec<SeatKind> = (0..seats)
        .map(|i| {
            if i < humans {
                SeatKind::Human
            } else {
                match rng.gen_range(0..10) {
                    0..=3 => SeatKind::Ai(AiLevel::Easy),
                    4..=7 => SeatKind::Ai(AiLevel::Normal),
                    _ => SeatKind::Ai(AiLevel::Hard),
                }
            }
        })
        .collect();
    kinds.shuffle(rng);
    let rules = Rules {
        max_hand: rng.gen_bool(0.25).then(|| rng.gen_range(7..=14)),
        draw_then_play: rng.gen_bool(0.5),
        stacking: rng.gen_bool(0.4),
        jump_in: rng.gen_bool(0.8),
    };
    let mut deck = full_deck();
    deck.shuffle(rng);
    Setup { rules, kinds, deck }
}

/// The same deck with two cards nobody has seen swapped, or `None` when the draw found two
/// identical cards. Positions `0..7n` are dealt (position `i` to seat `i % n`); the first
/// coloured card after them is the start card (wilds before it are buried face up).
fn twin_deck(deck: &[Card], seats: usize, rng: &mut ChaCha8Rng) -> Option<Vec<Card>> {
    let dealt = HAND_SIZE * seats;
    let start = (dealt..deck.len()).find(|&i| !deck[i].is_wild())?;
    let in_deck = |rng: &mut ChaCha8Rng| rng.gen_range(start + 1..deck.len());
    let (a, b) = match rng.gen_range(0..3) {
        0 => (in_deck(rng), in_deck(rng)),
        1 => (rng.gen_range(0..dealt), in_deck(rng)),
        _ => {
            let a = rng.gen_range(0..dealt);
            let b = rng.gen_range(0..dealt);
            if a % seats == b % seats {
                return None;
            }
            (a, b)
        }
    };
    if deck[a] == deck[b] {
        return None;
    }
    let mut twin = deck.to_vec();
    twin.swap(a, b);
    Some(twin)
}

fn table(setup: &Setup, deck: &[Card]) -> UnoGame {
    let options: UnoOptions = serde_json::from_value(serde_json::json!({
        "players": setup.kinds.iter().map(|k| match k {
            SeatKind::Ai(level) => serde_json::json!({"ai": level.as_str()}),
            _ => serde_json::json!({"name": "h"}),
        }).collect::<Vec<_>>(),
        "rules": setup.rules,
        "deck": deck,
    }))
    .unwrap();
    let mut game = UnoGame::new(&options, &setup.kinds, 0).unwrap();
    game.start(&setup.kinds).unwrap();
    game
}

/// What happens next at one table: who acts, what, and (an AI's decision) the budget spent.
#[derive(Debug, PartialEq)]
struct Step {
    seat: usize,
    action: UnoAction,
    spent: Option<u64>,
}

/// The AI at `seat` decides; `spent` is the budget it used.
fn ai_step(game: &UnoGame, seat: usize, level: AiLevel, easy: &[usize], seed: u64) -> Step {
    let limits = Limits {
        time: Duration::from_secs(3600),
        max_iterations: HARD_GAMES,
    };
    let decision = ai::decide(game.table(), seat, level, limits, seed, easy);
    Step {
        seat,
        action: decision.action,
        spent: Some(decision.analysis.iterations),
    }
}

/// The next step at `game` under the driver's rules, from the step's random numbers.
fn next_step(game: &UnoGame, kinds: &[SeatKind], easy: &[usize], draws: [u64; 3]) -> Step {
    let table = game.table();
    let turn = table.turn().expect("in play");
    let stopped = game.humans_may_interject(kinds);
    if !stopped {
        if let Some(level) = level_of(kinds[turn]) {
            return ai_step(game, turn, level, easy, draws[0]);
        }
    }
    // A human may act: jump in now and then when it can, from the seat to act onwards.
    let seats = kinds.len();
    let jumper = (0..seats)
        .map(|i| (turn + i) % seats)
        .find(|&s| kinds[s] == SeatKind::Human && table.can_jump_in(s));
    if let (Some(seat), true) = (jumper, !draws[1].is_multiple_of(3)) {
        let card = table.jump_window().expect("open").card;
        return Step {
            seat,
            action: UnoAction::JumpIn { card },
            spent: None,
        };
    }
    match level_of(kinds[turn]) {
        // Nobody took the chance: `ai-move` lets the AI seat to act go on.
        Some(level) => ai_step(game, turn, level, easy, draws[0]),
        None => {
            let legal: Vec<UnoAction> = table
                .legal_actions(turn)
                .into_iter()
                .filter(|a| !matches!(a, UnoAction::JumpIn { .. }))
                .collect();
            let plays: Vec<UnoAction> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, UnoAction::Play { .. }))
                .collect();
            let from = if !plays.is_empty() && !draws[2].is_multiple_of(8) {
                plays
            } else {
                legal
            };
            Step {
                seat: turn,
                action: from[(draws[2] / 8) as usize % from.len()],
                spent: None,
            }
        }
    }
}

/// Tallies of a run.
#[derive(Default, Debug)]
struct Tally {
    games: u64,
    steps_compared: u64,
    stops_for_jump_ins: u64,
    waits_after_a_draw: u64,
    hard_decisions: u64,
    diverged: u64,
    capped: u64,
}

/// Plays one twin pair to the first divergence; panics on a public difference before it.
fn play_twins(seed: u64, tally: &mut Tally) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setup = setup(&mut rng);
    let Some(twin) = twin_deck(&setup.deck, setup.kinds.len(), &mut rng) else {
        return;
    };
    tally.games += 1;
    let kinds = &setup.kinds;
    let easy: Vec<usize> = (0..kinds.len())
        .filter(|&s| kinds[s] == SeatKind::Ai(AiLevel::Easy))
        .collect();
    let mut a = table(&setup, &setup.deck);
    let mut b = table(&setup, &twin);
    for step in 0..3_000 {
        if a.result().is_some() || b.result().is_some() {
            assert_eq!(a.result().is_some(), b.result().is_some(), "game {seed}");
            return;
        }
        let context = |a: &UnoGame, b: &UnoGame| {
            let hands = |g: &UnoGame| {
                (0..kinds.len())
                    .map(|s| g.table().hand(s).to_vec())
                    .collect::<Vec<_>>()
            };
            format!(
                "game {seed} step {step}, kinds {kinds:?}, rules {:?}\nA hands {:?}\nB hands {:?}",
                setup.rules,
                hands(a),
                hands(b),
            )
        };
        assert_eq!(
            a.view(None),
            b.view(None),
            "public views differ: {}",
            context(&a, &b)
        );
        let stopped = a.humans_may_interject(kinds);
        assert_eq!(
            stopped,
            b.humans_may_interject(kinds),
            "auto-play stops at one twin only: {}",
            context(&a, &b)
        );
        tally.steps_compared += 1;
        tally.stops_for_jump_ins += u64::from(stopped);
        tally.waits_after_a_draw += u64::from(a.view(None).awaiting_pass);
        let draws: [u64; 3] = [rng.gen(), rng.gen(), rng.gen()];
        let next_a = next_step(&a, kinds, &easy, draws);
        let next_b = next_step(&b, kinds, &easy, draws);
        if next_a.spent.is_some() && next_a.seat == next_b.seat {
            // The think budget shows (as time) before the move does.
            assert_eq!(
                next_a.spent,
                next_b.spent,
                "seat {}'s AI spent different budgets: {}",
                next_a.seat,
                context(&a, &b)
            );
            tally.hard_decisions += u64::from(next_a.spent > Some(0));
        }
        if next_a != next_b {
            tally.diverged += 1;
            return;
        }
        let events_a = a.apply(next_a.seat, &next_a.action).unwrap();
        let events_b = b.apply(next_b.seat, &next_b.action).unwrap();
        if a.result().is_none() {
            assert_eq!(events_a, events_b, "events differ: {}", context(&a, &b));
        }
    }
    // A table can draw in circles (every hand at the cap, say): enough compared.
    tally.capped += 1;
}

#[test]
fn twin_deals_look_the_same_until_a_seat_chooses_differently() {
    let mut tally = Tally::default();
    for seed in 0..GAMES {
        play_twins(seed, &mut tally);
    }
    eprintln!("{tally:?}");
    // The run reaches the situations it is about.
    assert!(tally.games > GAMES * 3 / 4, "{tally:?}");
    assert!(tally.steps_compared > 10 * tally.games, "{tally:?}");
    assert!(tally.stops_for_jump_ins > 1_000, "{tally:?}");
    assert!(tally.waits_after_a_draw > 1_000, "{tally:?}");
    assert!(tally.hard_decisions > 1_000, "{tally:?}");
}
