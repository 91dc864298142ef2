//! Undo and redo fuzzed against replay from scratch: random games on small boards (where captures
//! and kos are frequent), random undos (also against an "AI" colour) and redos; after every step the
//! game must equal the same moves replayed on a fresh board, and the move and redo lines must follow
//! a plain model of stacks.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::board::Color;
use super::super::game::{Go, GoOptions, Turn};
use super::support::{random_play, replayed};

fn assert_same_as_replay(game: &Go, step: usize) {
    let fresh = replayed(game);
    let (mine, theirs) = (game.view(), fresh.view());
    assert_eq!(mine.board, theirs.board, "step {step}");
    assert_eq!(mine.captures, theirs.captures, "step {step}");
    assert_eq!(mine.ko, theirs.ko, "step {step}");
    assert_eq!(mine.next, theirs.next, "step {step}");
    // The move list kept written for answers follows undo and redo too.
    assert_eq!(mine.moves, theirs.moves, "step {step}");
    #[cfg(feature = "serde")]
    {
        let names: Vec<String> = game.moves().iter().map(|t| t.play.to_string()).collect();
        assert_eq!(
            serde_json::to_value(&mine.moves).unwrap(),
            serde_json::json!(names),
            "step {step}"
        );
    }
    assert_eq!(game.board().hash(), fresh.board().hash(), "step {step}");
    assert_eq!(game.board(), fresh.board(), "step {step}");
    assert_eq!(game.history_hashes(), fresh.history_hashes(), "step {step}");
    assert!(game.history_hashes().contains(&game.board().hash()));
    assert_eq!(game.is_over(), fresh.is_over(), "step {step}");
}

#[test]
fn undo_and_redo_match_replay_from_scratch() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut undos = 0;
    let mut captures_seen = 0;
    for round in 0..30 {
        let options = GoOptions {
            size: [5, 7, 9][round % 3],
            superko: round % 2 == 1,
            ..GoOptions::default()
        };
        let mut game = Go::new(options).unwrap();
        let mut model_moves: Vec<Turn> = Vec::new();
        let mut model_redo: Vec<Turn> = Vec::new();
        // An "AI" colour for the undo_until steps.
        let ai = if round % 4 < 2 {
            Color::White
        } else {
            Color::Black
        };
        for step in 0..200 {
            let roll = rng.gen_range(0..100);
            if roll < 60 && !game.is_over() {
                let color = game.next();
                let play = random_play(&game, &mut rng);
                game.play(color, play).unwrap();
                model_moves.push(Turn { color, play });
                model_redo.clear();
            } else if roll < 75 && game.can_undo() {
                game.undo().unwrap();
                model_redo.push(model_moves.pop().unwrap());
                undos += 1;
            } else if roll < 85 && game.can_undo() {
                game.undo_until(|c| c != ai).unwrap();
                let mut taken = 0;
                loop {
                    model_redo.push(model_moves.pop().unwrap());
                    taken += 1;
                    let human_next = model_redo.last().unwrap().color != ai;
                    if human_next || model_moves.is_empty() {
                        break;
                    }
                }
                assert!(taken >= 1);
                undos += taken;
            } else if game.can_redo() && !game.is_over() {
                game.redo().unwrap();
                model_moves.push(model_redo.pop().unwrap());
            }
            assert_eq!(game.moves(), &model_moves[..], "round {round} step {step}");
            assert_eq!(
                game.redo_line(),
                &model_redo[..],
                "round {round} step {step}"
            );
            assert_same_as_replay(&game, step);
            #[cfg(feature = "serde")]
            if step % 20 == 0 {
                let json = serde_json::to_string(&game).unwrap();
                let loaded: Go = serde_json::from_str(&json).unwrap();
                assert_eq!(loaded, game);
                assert_eq!(loaded.view(), game.view());
                assert_eq!(loaded.board().hash(), game.board().hash());
            }
        }
        captures_seen += game.captures().black + game.captures().white;
    }
    assert!(undos > 500, "the fuzz took back only {undos} moves");
    assert!(
        captures_seen > 20,
        "random games captured only {captures_seen} stones"
    );
}
