//! Helpers shared by the Go tests.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::super::board::Color;
use super::super::game::{Go, GoOptions, Setup};
use super::super::vertex::{GoPlay, Vertex};

pub fn options(size: usize) -> GoOptions {
    GoOptions {
        size,
        ..GoOptions::default()
    }
}

pub fn v(text: &str) -> Vertex {
    text.parse().unwrap()
}

pub fn vs(texts: &str) -> Vec<Vertex> {
    texts.split_whitespace().map(v).collect()
}

/// A game from `moves` ("D4 E5 pass …"), colours alternating from black.
pub fn game(size: usize, moves: &str) -> Go {
    let mut game = Go::new(options(size)).unwrap();
    play_all(&mut game, moves);
    game
}

/// A game from setup stones, `first` to move.
pub fn setup_game(size: usize, black: &str, white: &str, first: Color, superko: bool) -> Go {
    let setup = Setup {
        black: vs(black),
        white: vs(white),
    };
    let options = GoOptions {
        superko,
        ..options(size)
    };
    Go::with_setup(options, setup, first).unwrap()
}

/// Plays `moves` for whoever is to move, panicking on an illegal one.
pub fn play_all(game: &mut Go, moves: &str) {
    for text in moves.split_whitespace() {
        let play: GoPlay = text.parse().unwrap();
        let color = game.next();
        game.play(color, play)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// A fresh game with the same start and `game`'s moves replayed, for comparisons.
pub fn replayed(game: &Go) -> Go {
    let mut fresh = Go::with_setup(*game.options(), game.setup().clone(), first(game)).unwrap();
    for turn in game.moves() {
        fresh.play(turn.color, turn.play).unwrap();
    }
    fresh
}

/// Who moved first in `game`.
pub fn first(game: &Go) -> Color {
    match game.moves().first() {
        Some(turn) => turn.color,
        None => game.next(),
    }
}

/// A random legal stone for the side to move, or a pass when none is found quickly (or the game
/// is at its move cap).
pub fn random_play(game: &Go, rng: &mut ChaCha8Rng) -> GoPlay {
    let size = game.size() as u8;
    let mut points: Vec<Vertex> = (0..size)
        .flat_map(|c| (0..size).map(move |r| Vertex::new(c, r)))
        .collect();
    points.shuffle(rng);
    let color = game.next();
    if game.moves().len() >= game.move_cap() {
        return GoPlay::Pass;
    }
    let pass_ok = game.consecutive_passes() == 0;
    if pass_ok && rng.gen_bool(0.03) {
        return GoPlay::Pass;
    }
    points
        .into_iter()
        .find(|&p| game.check(color, p).is_ok())
        .map_or(GoPlay::Pass, GoPlay::Stone)
}
