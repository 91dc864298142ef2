//! Every rules call the service makes on a game (`apply`, `undo`, `redo`, `start`, `message`)
//! changes nothing when it is refused, so that a library user may go on with a game after a
//! refusal. (The service does not rely on it: it keeps no game whose change was refused.) These
//! tests play random games of every registered turn game and throw random actions at them, legal
//! or not, from any seat; each refused one must leave the stored state and every seat's view as
//! they were. Nothing here knows a game: the moves come from the game's examples, its AI and
//! the words of its move schema, so a game added to the registry is checked without test code.

use std::collections::BTreeSet;
use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::registry::{BuiltinGames, Games, TurnGameVisitor};
use super::{AiBudget, AiLevel, RuleError, SeatKind, TurnGame};

/// All a client or the store could tell of `game`: the stored state, every view, the turn.
fn fingerprint<G: TurnGame>(game: &G, seats: usize) -> String {
    let mut text = serde_json::to_string(game).expect("the state serializes");
    for seat in (0..seats).map(Some).chain([None]) {
        text.push_str(&serde_json::to_string(&game.view(seat)).expect("a view serializes"));
    }
    text.push_str(&format!("{:?}", game.turn()));
    text
}

fn easy(seed: u64) -> AiBudget {
    AiBudget {
        time: Duration::from_millis(5),
        threads: 1,
        seed,
    }
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

/// Moves of one game, as JSON: its examples, every move its AI chose in any game played so far
/// (legal once, mostly illegal later or elsewhere: an occupied point, a card no longer held, a
/// point off a smaller board), and the words its move schema names (`"jump_in"`, `"pass"` …),
/// which [`Moves::pick`] puts in place of a move's words.
struct Moves {
    seen: Vec<Value>,
    known: BTreeSet<String>,
    words: Vec<Value>,
}

impl Moves {
    fn of<G: TurnGame>() -> Self {
        let example = G::example();
        let mut moves = Moves {
            seen: Vec::new(),
            known: BTreeSet::new(),
            words: Vec::new(),
        };
        let schema = json!(super::schema_of::<G::Move>());
        let mut words = BTreeSet::new();
        collect_words(&schema, &mut words);
        moves.words = words.into_iter().map(Value::String).collect();
        for mv in [Some(example.first), Some(example.second), example.resign]
            .into_iter()
            .flatten()
        {
            moves.add(mv);
        }
        moves
    }

    fn add(&mut self, mv: Value) {
        if self.known.insert(mv.to_string()) {
            self.seen.push(mv);
        }
    }

    /// A move seen, as it was, or with one of its strings swapped for a word of the schema or
    /// of another move.
    fn pick(&self, rng: &mut ChaCha8Rng) -> Value {
        let mut mv = self.seen.choose(rng).cloned().unwrap_or(Value::Null);
        if rng.gen_bool(0.3) {
            let other = self.seen.choose(rng).cloned().unwrap_or(Value::Null);
            let mut strings = Vec::new();
            collect_strings(&other, &mut strings);
            let word = if rng.gen_bool(0.5) || strings.is_empty() {
                self.words.choose(rng).cloned()
            } else {
                strings.choose(rng).cloned()
            };
            if let (Some(word), Some(object)) = (word, mv.as_object_mut()) {
                let keys: Vec<String> = object.keys().cloned().collect();
                if let Some(key) = keys.choose(rng) {
                    object.insert(key.clone(), word);
                }
            }
        }
        mv
    }
}

/// The string values anywhere in a schema's `enum`, `const` and `example(s)`.
fn collect_words(schema: &Value, words: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                if matches!(key.as_str(), "enum" | "const" | "example" | "examples") {
                    let mut strings = Vec::new();
                    collect_strings(value, &mut strings);
                    words.extend(
                        strings
                            .into_iter()
                            .filter_map(|s| s.as_str().map(str::to_owned)),
                    );
                } else {
                    collect_words(value, words);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_words(item, words)),
        _ => {}
    }
}

fn collect_strings(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::String(_) => out.push(value.clone()),
        Value::Array(items) => items.iter().for_each(|item| collect_strings(item, out)),
        Value::Object(map) => map.values().for_each(|item| collect_strings(item, out)),
        _ => {}
    }
}

/// The create bodies the games start from: the game's example and its options' documented
/// example, with every seat a human (a name each), for two seats and, where the game takes them,
/// three and five; without a deal fixed in advance, so that every seed deals anew.
fn starts<G: TurnGame>() -> Vec<(Value, usize)> {
    let documented = json!(super::schema_of::<G::Options>())
        .pointer("/0/1/example")
        .cloned();
    let range = G::seat_range();
    let mut counts: Vec<usize> = [*range.start(), 2, 3, 5]
        .into_iter()
        .filter(|n| range.contains(n))
        .collect();
    counts.dedup();
    let mut starts = Vec::new();
    for body in [Some(G::example().create), documented]
        .into_iter()
        .flatten()
    {
        for &seats in &counts {
            let mut body = body.clone();
            body["players"] = (0..seats)
                .map(|i| json!({"name": format!("p{i}")}))
                .collect();
            let fields = body.as_object_mut().expect("a create body");
            for option in G::FIXED_DEAL_OPTIONS {
                fields.remove(*option);
            }
            starts.push((body, seats));
        }
    }
    starts
}

/// Plays `games` random games of `G` between humans from each of [`starts`]: before each move
/// of the `easy` AI for the seat to act, four random attempts from random seats (a move, undo,
/// redo, a message, start).
fn refusals_change_nothing<G: TurnGame>(games: u64) {
    let mut moves = Moves::of::<G>();
    for (body, seats) in starts::<G>() {
        let kinds = vec![SeatKind::Human; seats];
        let options: G::Options = serde_json::from_value(body.clone())
            .unwrap_or_else(|e| panic!("{}: the example {body} parses: {e}", G::NAME));
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
                            tally
                                .attempt(&mut game, seats, "message", |g| g.message(seat, to, "hi"))
                        }
                        3 => tally.attempt(&mut game, seats, "start", |g| g.start(&kinds)),
                        _ => {
                            let Ok(mv) = serde_json::from_value::<G::Move>(moves.pick(&mut rng))
                            else {
                                continue;
                            };
                            tally.attempt(&mut game, seats, "move", |g| g.apply(seat, &mv));
                        }
                    }
                }
                let Some(seat) = game.turn() else { break };
                let choice = game
                    .choose_move(seat, AiLevel::Easy, easy(seed))
                    .expect("the AI moves");
                moves.add(serde_json::to_value(&choice.chosen).expect("a move serializes"));
                game.apply(seat, &choice.chosen)
                    .expect("the AI's move is legal");
            }
        }
        assert!(
            tally.refused >= 10 * games as usize && tally.taken >= games as usize,
            "{} from {body}: the attempts were both refused ({}) and taken ({})",
            G::NAME,
            tally.refused,
            tally.taken
        );
    }
}

#[test]
fn refused_actions_change_nothing_in_every_game() {
    struct Check;
    impl TurnGameVisitor for Check {
        fn visit<G: TurnGame>(&mut self) {
            refusals_change_nothing::<G>(20);
        }
    }
    BuiltinGames::visit(&mut Check);
}
