//! The rules through `Go`: captures, suicide, ko and superko, passes, resignation, undo and redo,
//! the view, and the stored form.

use super::super::board::Color;
use super::super::game::{Go, GoEndReason, GoError, GoEvent, GoOptions, IllegalReason};
use super::super::score::Scoring;
use super::super::vertex::{GoPlay, Vertex};
use super::support::{game, options, play_all, setup_game, v, vs};

fn illegal_reason(result: Result<Vec<GoEvent>, GoError>) -> IllegalReason {
    match result {
        Err(GoError::Illegal { reason, .. }) => reason,
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

#[test]
fn a_corner_capture_is_reported_and_counted() {
    let mut g = game(9, "A1 B1 E5");
    let events = g.play(Color::White, GoPlay::Stone(v("A2"))).unwrap();
    assert_eq!(
        events,
        [GoEvent::Stone {
            seat: 1,
            color: "white",
            at: v("A2"),
            captured: vs("A1"),
        }]
    );
    assert_eq!(g.captures().white, 1);
    assert_eq!(g.view().board[8], ".O.......");
}

#[test]
fn one_stone_captures_several_groups_at_once() {
    // B1 and D1 are separate white stones whose last liberty is C1.
    let mut g = setup_game(9, "A1 B2 D2 E1", "B1 D1", Color::Black, false);
    let events = g.play(Color::Black, GoPlay::Stone(v("C1"))).unwrap();
    let GoEvent::Stone { mut captured, .. } = events[0].clone() else {
        panic!("{events:?}")
    };
    captured.sort();
    assert_eq!(captured, vs("B1 D1"));
    assert_eq!(g.captures().black, 2);
    // Capturing two stones at once makes no ko: white may play back in at once where legal.
    assert_eq!(g.view().ko, None);
}

#[test]
fn suicide_is_illegal_for_single_stones_and_groups() {
    // A1 is surrounded by white: black may not play there.
    let mut g = setup_game(9, "E5", "A2 B1", Color::Black, false);
    assert_eq!(
        illegal_reason(g.play(Color::Black, GoPlay::Stone(v("A1")))),
        IllegalReason::Suicide
    );
    // White A1 with an empty A2 between black walls: white A2 would leave the pair without liberty.
    let mut g = setup_game(9, "B1 B2 A3", "A1", Color::White, false);
    assert_eq!(
        illegal_reason(g.play(Color::White, GoPlay::Stone(v("A2")))),
        IllegalReason::Suicide
    );
    // The same move is no suicide when it takes the black pair's last liberty.
    let mut g = setup_game(9, "B1 B2 A3", "A1 C1 C2 B3", Color::White, false);
    g.play(Color::White, GoPlay::Stone(v("A2"))).unwrap();
    assert_eq!(g.captures().white, 2);
}

#[test]
fn occupied_and_off_board_points_are_refused() {
    let mut g = game(9, "E5");
    assert_eq!(
        illegal_reason(g.play(Color::White, GoPlay::Stone(v("E5")))),
        IllegalReason::Occupied
    );
    assert_eq!(
        illegal_reason(g.play(Color::White, GoPlay::Stone(v("K10")))),
        IllegalReason::OffBoard
    );
    let err = g.play(Color::Black, GoPlay::Pass).unwrap_err();
    assert_eq!(err.to_string(), "it is white's turn, not black's");
}

/// Two kos on the first line, in opposite states (see `ko_and_superko`).
fn double_ko(superko: bool) -> Go {
    setup_game(9, "A1 B2 G1 J1 H2", "B1 D1 C2 F1 G2", Color::Black, superko)
}

#[test]
fn simple_ko_forbids_the_immediate_retake_only() {
    let mut g = double_ko(false);
    let events = g.play(Color::Black, GoPlay::Stone(v("C1"))).unwrap();
    assert!(matches!(&events[0], GoEvent::Stone { captured, .. } if *captured == vs("B1")));
    assert_eq!(g.view().ko, Some(v("B1")));
    let err = g.play(Color::White, GoPlay::Stone(v("B1"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "B1 is not playable: ko: the stone just captured may not be retaken at once"
    );
    // After a move elsewhere the retake is legal.
    play_all(&mut g, "E5 E6 B1");
    assert_eq!(
        g.captures(),
        super::super::score::Captures { black: 1, white: 1 }
    );
}

#[test]
fn positional_superko_forbids_what_simple_ko_allows() {
    // B takes the left ko, W the right one, B passes, W retakes the left ko: black retaking the
    // right ko recreates the start position. Simple ko allows it (the last capture was elsewhere).
    let moves = "C1 H1 pass B1";
    let mut plain = double_ko(false);
    play_all(&mut plain, moves);
    plain.play(Color::Black, GoPlay::Stone(v("G1"))).unwrap();
    assert_eq!(plain.view().board, double_ko(false).view().board);

    let mut strict = double_ko(true);
    play_all(&mut strict, moves);
    let err = strict
        .play(Color::Black, GoPlay::Stone(v("G1")))
        .unwrap_err();
    assert_eq!(
        err,
        GoError::Illegal {
            at: v("G1"),
            reason: IllegalReason::Superko
        }
    );
    assert!(err.to_string().contains("superko"));
    // The position survives the refusal; other moves stay legal.
    play_all(&mut strict, "E5");
}

#[test]
fn two_passes_end_and_score_the_game() {
    let mut g = game(5, "C3 pass");
    let events = g.play(Color::Black, GoPlay::Pass).unwrap();
    assert!(g.is_over());
    let result = g.result().unwrap();
    assert_eq!(result.reason, GoEndReason::Score);
    // Black owns the whole board: 24 points against komi 6.5.
    assert_eq!(result.summary, "B+17.5");
    assert_eq!(result.winner, Some(Color::Black));
    assert!(matches!(events.last(), Some(GoEvent::GameOver { .. })));
    assert_eq!(
        g.play(Color::White, GoPlay::Stone(v("A1"))),
        Err(GoError::GameOver)
    );

    // Undoing the last pass reopens the game.
    g.undo().unwrap();
    assert!(!g.is_over());
    assert_eq!(g.result(), None);
    play_all(&mut g, "D4");
}

#[test]
fn a_single_pass_keeps_the_game_going_and_clears_the_ko() {
    let mut g = double_ko(false);
    play_all(&mut g, "C1 pass");
    assert_eq!(g.view().consecutive_passes, 1);
    assert_eq!(g.view().ko, None);
    play_all(&mut g, "pass");
    assert!(g.is_over());
}

#[test]
fn resignation_ends_at_once_and_is_final() {
    let mut g = game(9, "E5");
    let events = g.play(Color::White, GoPlay::Resign).unwrap();
    assert_eq!(events.len(), 2);
    let result = g.result().unwrap();
    assert_eq!(
        (result.winner, result.reason, result.summary.as_str()),
        (Some(Color::Black), GoEndReason::Resign, "B+R")
    );
    assert_eq!(g.undo(), Err(GoError::GameOver));
    assert!(!g.view().can_undo);
    assert_eq!(
        g.moves().len(),
        1,
        "a resignation is not a move on the board"
    );
}

#[test]
fn undo_restores_captures_and_ko_and_redo_replays() {
    let mut g = double_ko(false);
    let start = g.view();
    play_all(&mut g, "C1");
    let after = g.view();
    assert_eq!(after.captures.black, 1);

    let events = g.undo().unwrap();
    assert_eq!(
        events,
        [GoEvent::Undo {
            taken_back: vec![GoPlay::Stone(v("C1"))]
        }]
    );
    assert_eq!(g.view().board, start.board);
    assert_eq!(g.view().captures.black, 0);
    assert!(g.can_redo());
    assert_eq!(g.undo(), Err(GoError::NothingToUndo));

    g.redo().unwrap();
    assert_eq!(g.view(), after);
    assert_eq!(g.view().ko, Some(v("B1")));
    assert_eq!(g.redo(), Err(GoError::NothingToRedo));

    // A new move clears the redo line.
    g.undo().unwrap();
    play_all(&mut g, "E5");
    assert!(!g.can_redo());
}

#[test]
fn undo_against_an_ai_goes_back_to_the_humans_turn() {
    // Black is the human, white the AI.
    let human = |c: Color| c == Color::Black;
    let mut g = game(9, "C3 G7 C7 G3");
    let events = g.undo_until(human).unwrap();
    assert_eq!(
        events,
        [GoEvent::Undo {
            taken_back: vec![GoPlay::Stone(v("G3")), GoPlay::Stone(v("C7"))]
        }]
    );
    assert_eq!(g.next(), Color::Black);
    assert_eq!(g.moves().len(), 2);

    // Redo mirrors it: the human's move and the AI's answer come back together.
    let events = g.redo_until(human).unwrap();
    assert_eq!(g.moves().len(), 4);
    assert!(matches!(&events[0], GoEvent::Redo { replayed } if replayed.len() == 2));

    // The AI moved first and only once: taking it back leaves the AI to move again.
    let mut g = game(9, "C3");
    g.undo_until(|c| c == Color::White).unwrap();
    assert!(g.moves().is_empty());
}

#[test]
#[cfg(feature = "serde")]
fn the_view_follows_api_md() {
    let g = game(5, "B2 D4 pass");
    let json = serde_json::to_value(g.view()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "size": 5, "komi": 6.5, "scoring": "territory", "superko": false,
            "board": [".....", "...O.", ".....", ".X...", "....."],
            "next": "white", "captures": {"black": 0, "white": 0}, "ko": null,
            "moves": ["B2", "D4", "pass"], "consecutive_passes": 1,
            "can_undo": true, "can_redo": false,
            "takeback": {"rule": "consent", "proposal": null}
        })
    );
}

#[test]
fn options_are_checked() {
    for (size, komi) in [(4, 6.5), (26, 6.5), (19, 6.3), (19, f64::NAN), (19, 151.0)] {
        let opts = GoOptions {
            size,
            komi,
            ..GoOptions::default()
        };
        assert!(
            matches!(Go::new(opts), Err(GoError::InvalidOptions(_))),
            "{size} {komi}"
        );
    }
    let opts = GoOptions {
        komi: -150.0,
        scoring: Scoring::Area,
        ..options(25)
    };
    assert!(Go::new(opts).is_ok());
    #[cfg(feature = "serde")]
    {
        let parsed: GoOptions = serde_json::from_str(r#"{"size": 9}"#).unwrap();
        assert_eq!(parsed, options(9));
    }
}

#[test]
fn handicap_stones_are_set_up_and_white_moves_first() {
    let g = Go::with_handicap(options(19), 4).unwrap();
    assert_eq!(g.next(), Color::White);
    let board = g.view().board;
    assert_eq!(&board[3][3..4], "X");
    assert_eq!(&board[15][15..16], "X");
    assert!(Go::with_handicap(options(19), 10).is_err());
    assert_eq!(
        Go::with_handicap(options(9), 9)
            .unwrap()
            .setup()
            .black
            .len(),
        9
    );
}

#[test]
fn score_with_dead_stones_names_missing_stones() {
    let g = game(5, "C3 D4");
    assert_eq!(
        g.score(&[v("A1")], None).unwrap_err().to_string(),
        "A1 has no stone to count as dead"
    );
    let report = g.score(&[v("D4")], None).unwrap();
    assert_eq!(report.black.captures, 1);
    assert_eq!(report.black.territory, 24.0);
    assert_eq!(report.result, "B+18.5");
    let area = g.score(&[], Some(Scoring::Area)).unwrap();
    assert_eq!(area.method, Scoring::Area);
}

#[test]
#[cfg(feature = "serde")]
fn a_stored_game_loads_equal() {
    let mut g = double_ko(true);
    play_all(&mut g, "C1 H1 pass B1 E5 E6");
    g.undo().unwrap();
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.len() < 600, "{json}");
    let loaded: Go = serde_json::from_str(&json).unwrap();
    assert_eq!(loaded, g);
    assert_eq!(loaded.view(), g.view());
    assert_eq!(loaded.board().hash(), g.board().hash());
    // The superko history came back too: G1 is still forbidden.
    let mut loaded = loaded;
    loaded.undo().unwrap();
    assert_eq!(
        illegal_reason(loaded.play(Color::Black, GoPlay::Stone(v("G1")))),
        IllegalReason::Superko
    );
    // A record with an illegal move does not load: move 5, black E5, made C1.
    let bad = json.replace(r#""B1","E5""#, r#""B1","C1""#);
    assert_ne!(bad, json);
    let err = serde_json::from_str::<Go>(&bad).unwrap_err().to_string();
    assert!(err.contains("move 5"), "{err}");
}

#[test]
fn a_game_past_its_move_cap_takes_only_passes_and_resignations() {
    use rand::SeedableRng;
    for seed in 0..50 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut g = game(5, "");
        while !g.is_over() {
            if g.moves().len() >= g.move_cap() {
                assert_eq!(g.move_cap(), 75);
                let color = g.next();
                let stone = g
                    .board()
                    .points()
                    .map(|p| g.board().col_row(p))
                    .map(|(c, r)| Vertex::new(c as u8, r as u8))
                    .find(|&v| g.check(color, v).is_ok())
                    .expect("a legal point is left");
                assert!(matches!(
                    g.play(color, GoPlay::Stone(stone)),
                    Err(GoError::MoveCap(75))
                ));
                g.play(color, GoPlay::Pass)
                    .expect("a pass is always playable");
                return;
            }
            let play = super::support::random_play(&g, &mut rng);
            g.play(g.next(), play).expect("random plays are legal");
        }
    }
    panic!("no random 5x5 game reached the move cap");
}
