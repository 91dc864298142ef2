//! Every rules call the service makes on a game (`apply`, `undo`, `redo`, `start`, `message`)
//! changes nothing when it is refused, so that a library user may go on with a game after a
//! refusal. (The service does not rely on it: it keeps no game whose change was refused.) These
//! tests play random games of every turn game and throw random actions at them, legal or not,
//! from any seat; each refused one must leave the stored state and every seat's view as they were.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::go::GoGame;
use super::gomoku::GomokuGame;
use super::uno::{Card, Color, UnoGame, DISTINCT_CARDS};
use super::{AiBudget, AiLevel, RuleError, Seat, SeatKind, TurnGame};

/// All a client or the store could tell of `game`: the stored state, every view, the turn.
fn fingerprint<G: TurnGame>(game: &G, seats: usize) -> String {
    let mut text = serde_json::to_string(game).expect("the state serializes");
    for seat in (0..seats).map(Some).chain([None]) {
        text.push_str(&serde_json::to_string(&game.view(seat)).expect("a view serializes"));
    }
    text.push_str(&format!("{:?}", game.turn()));
    text
}

/// Plays the `easy` AI's move for `seat`, the seat to act (the move that moves these tests' games on).
pub(super) fn play_easy_move<G: TurnGame>(game: &mut G, seat: Seat, seed: u64) {
    let budget = AiBudget {
        time: Duration::from_millis(5),
        threads: 1,
        seed,
    };
    let choice = game
        .choose_move(seat, AiLevel::Easy, budget)
        .expect("the AI moves");
    game.apply(seat, &choice.chosen)
        .expect("the AI's move is legal");
}

/// What the random actions did.
#[derive(Default)]
struct Tally {
    refused: usize,
    taken: usize,
}

impl Tally {
    /// Tries `change` on a copy of `game`: a refusal must leave the copy as `game` was; a change
    /// that is taken becomes the game.
    fn attempt<G: TurnGame>(
        &mut self,
        game: &mut G,
        seats: usize,
        what: &str,
        change: impl FnOnce(&mut G) -> Result<Vec<G::Event>, RuleError>,
    ) {
        let mut copy = game.clone();
        match change(&mut copy) {
            Ok(_) => {
                self.taken += 1;
                *game = copy;
            }
            Err(refusal) => {
                self.refused += 1;
                assert_eq!(
                    fingerprint(&copy, seats),
                    fingerprint(game, seats),
                    "{} {what} was refused ({refusal}) but changed the game",
                    G::NAME
                );
            }
        }
    }
}

/// Plays `games` random games of `G` between humans: before each move of the `easy` AI for the
/// seat to act, four random attempts from random seats (a move `junk` makes, undo, redo, a
/// message, start).
fn refusals_change_nothing<G: TurnGame>(
    options: Value,
    seats: usize,
    games: u64,
    junk: impl Fn(&mut ChaCha8Rng) -> Value,
) {
    let kinds = vec![SeatKind::Human; seats];
    let options: G::Options = serde_json::from_value(options).expect("options");
    let mut tally = Tally::default();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = G::new(&options, &kinds, seed).expect("a new game");
        if !game.started() {
            game.start(&kinds).expect("a full table starts");
        }
        for _ in 0..200 {
            for _ in 0..4 {
                let seat = rng.gen_range(0..seats);
                match rng.gen_range(0..8) {
                    0 => tally.attempt(&mut game, seats, "undo", |g| g.undo(seat, &kinds)),
                    1 => tally.attempt(&mut game, seats, "redo", |g| g.redo(seat, &kinds)),
                    2 => {
                        let to = rng.gen_range(0..seats);
                        tally.attempt(&mut game, seats, "message", |g| g.message(seat, to, "hi"))
                    }
                    3 => tally.attempt(&mut game, seats, "start", |g| g.start(&kinds)),
                    _ => {
                        let Ok(mv) = serde_json::from_value::<G::Move>(junk(&mut rng)) else {
                            continue;
                        };
                        tally.attempt(&mut game, seats, "move", |g| g.apply(seat, &mv));
                    }
                }
            }
            let Some(seat) = game.turn() else { break };
            play_easy_move(&mut game, seat, seed);
        }
    }
    assert!(
        tally.refused >= 10 * games as usize && tally.taken >= games as usize,
        "{}: the attempts were both refused ({}) and taken ({})",
        G::NAME,
        tally.refused,
        tally.taken
    );
}

fn players(seats: usize) -> Value {
    (0..seats)
        .map(|i| json!({"name": format!("p{i}")}))
        .collect()
}

/// A point of a 9×9 board, now and then off it or a pass or resignation.
fn board_point(rng: &mut ChaCha8Rng, columns: &str, size: u32) -> Value {
    let text = match rng.gen_range(0..20) {
        0 => "pass".to_owned(),
        1 => "resign".to_owned(),
        _ => {
            let column = columns.as_bytes()[rng.gen_range(0..columns.len())] as char;
            format!("{column}{}", rng.gen_range(1..=size + 1))
        }
    };
    json!({ "move": text })
}

#[test]
fn refused_go_actions_change_nothing() {
    let options = json!({"size": 9, "players": players(2)});
    refusals_change_nothing::<GoGame>(options, 2, 30, |rng| board_point(rng, "ABCDEFGHJK", 9));
}

#[test]
fn refused_gomoku_actions_change_nothing() {
    refusals_change_nothing::<GomokuGame>(json!({"players": players(2)}), 2, 20, |rng| {
        board_point(rng, "abcdefghijklmnop", 15)
    });
}

#[test]
fn refused_uno_actions_change_nothing() {
    for seats in [2, 3, 5] {
        let options = json!({
            "players": players(seats),
            "rules": {"max_hand": 14, "draw_then_play": true, "stacking": true, "jump_in": true},
        });
        refusals_change_nothing::<UnoGame>(options, seats, 20, |rng| {
            let card = Card::from_index(rng.gen_range(0..DISTINCT_CARDS));
            let color = Color::ALL[rng.gen_range(0..4)];
            match rng.gen_range(0..8) {
                0 => json!({"action": "draw"}),
                1 => json!({"action": "pass"}),
                2 => json!({"action": "jump_in", "card": card}),
                3 => json!({"action": "play", "card": card, "color": color}),
                _ => json!({"action": "play", "card": card}),
            }
        });
    }
}
