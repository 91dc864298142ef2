//! Agreement with GNU Go on the games of `crates/parlor-games/fixtures/go/gnugo_games.json` (made by
//! `tools/gnugo_fixtures.py`): after every move our board and capture counts equal GNU Go's, every
//! empty point GNU Go refused (ko, suicide) is refused by us too, and our territory count with GNU Go's
//! dead stones gives GNU Go's `final_score` (its default rules are Japanese: territory + prisoners,
//! so we count with `Scoring::Territory`). The generator plays every game out until no dame is left
//! and no territory touches a living enemy stone: there the seed's count (a region touching both
//! colours is split) and GNU Go's territory mean the same thing.

use serde::Deserialize;

use super::super::board::Color;
use super::super::game::{Go, GoError, GoOptions, IllegalReason};
use super::super::score::Scoring;
use super::super::vertex::{GoPlay, Vertex};

const FIXTURE: &str = include_str!("../../../fixtures/go/gnugo_games.json");

#[derive(Deserialize)]
struct Fixture {
    gnugo: String,
    games: Vec<FixtureGame>,
}

#[derive(Deserialize)]
struct FixtureGame {
    size: usize,
    komi: f64,
    seed: u64,
    moves: Vec<FixtureMove>,
    dead: Vec<Vertex>,
    score: String,
}

#[derive(Deserialize)]
struct FixtureMove {
    c: String,
    v: GoPlay,
    /// `size * size` characters, top row first.
    board: String,
    /// Stones captured by black, by white.
    cap: [u32; 2],
    #[serde(default)]
    illegal: Vec<Vertex>,
}

/// GNU Go's `final_score` as black's margin: `B+3.5` → 3.5, `W+7.5` → -7.5, `0` → 0.
fn margin(score: &str) -> f64 {
    match score.split_once('+') {
        Some(("B", n)) => n.parse().unwrap(),
        Some(("W", n)) => -n.parse::<f64>().unwrap(),
        _ if score == "0" => 0.0,
        _ => panic!("unexpected final score {score:?}"),
    }
}

#[test]
fn our_engine_agrees_with_gnu_go_move_by_move_and_on_the_score() {
    let fixture: Fixture = serde_json::from_str(FIXTURE).unwrap();
    assert!(fixture.games.len() >= 10, "too few fixture games");
    let (mut moves, mut captures, mut kos, mut refusals, mut ko_refusals) = (0, 0, 0, 0, 0);
    for (n, fg) in fixture.games.iter().enumerate() {
        let options = GoOptions {
            size: fg.size,
            komi: fg.komi,
            scoring: Scoring::Territory,
            superko: false,
        };
        let mut game = Go::new(options).unwrap();
        for (i, fm) in fg.moves.iter().enumerate() {
            let at = format!(
                "game {n} (seed {}, {}×{}), move {}",
                fg.seed,
                fg.size,
                fg.size,
                i + 1
            );
            let color = if fm.c == "B" {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(game.next(), color, "{at}");
            for &p in &fm.illegal {
                match game.check(color, p) {
                    Err(GoError::Illegal { reason, .. }) => {
                        refusals += 1;
                        ko_refusals += usize::from(reason == IllegalReason::Ko);
                    }
                    other => panic!("{at}: GNU Go refused {p} for {color:?}, we say {other:?}"),
                }
            }
            game.play(color, fm.v)
                .unwrap_or_else(|e| panic!("{at}: {} refused: {e}", fm.v));
            let view = game.view();
            assert_eq!(
                view.board.concat(),
                fm.board,
                "{at}: boards differ after {}",
                fm.v
            );
            assert_eq!(
                [view.captures.black, view.captures.white],
                fm.cap,
                "{at}: capture counts differ"
            );
            kos += usize::from(view.ko.is_some());
            moves += 1;
        }
        captures += game.captures().black + game.captures().white;
        let report = game.score(&fg.dead, Some(Scoring::Territory)).unwrap();
        assert_eq!(
            report.margin(),
            margin(&fg.score),
            "game {n} (seed {}): we count {} ({:?}), GNU Go {}; dead {}",
            fg.seed,
            report.result,
            report.ownership,
            fg.score,
            fg.dead
                .iter()
                .map(Vertex::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    eprintln!(
        "GNU Go {}: {} games, {moves} moves, {captures} stones captured, {kos} ko points, \
         {refusals} refusals checked ({ko_refusals} of them ko)",
        fixture.gnugo,
        fixture.games.len()
    );
    assert!(captures > 100 && kos > 0 && ko_refusals > 0 && refusals > ko_refusals);
}
