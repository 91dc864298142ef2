//! A game whose stored state grows at its end (`TurnGame::STATE_GROWS_AT_END`) keeps that
//! promise: a move leaves all of the stored text but its last few bytes as it was. The store
//! relies on it. It keeps such a state in pieces and writes only those that changed, so fields
//! stored after the move list, shifted by every move, made it rewrite a piece on some moves of
//! a long game and not on a new game's (found in PostgreSQL's statement log; the runs are in the
//! git history of docs/PERFORMANCE.md).

use serde_json::{json, Value};

use super::go::GoGame;
use super::gomoku::GomokuGame;
use super::refusals::play_easy_move;
use super::{SeatKind, TurnGame};

/// The bytes at the end of the stored text that a move may change: the quote and brackets that
/// close the move list and the objects around it.
const CHANGED_END: usize = 4;

/// Plays up to `moves` moves of the `easy` AI for both seats; each must keep all but the last
/// [`CHANGED_END`] bytes of the stored text. Returns the moves played.
fn moves_change_only_the_end<G: TurnGame>(options: Value, moves: usize) -> usize {
    assert!(G::STATE_GROWS_AT_END, "{} does not say so", G::NAME);
    let kinds = [SeatKind::Human, SeatKind::Human];
    let options: G::Options = serde_json::from_value(options).expect("options");
    let mut game = G::new(&options, &kinds, 7).expect("a new game");
    if !game.started() {
        game.start(&kinds).expect("a full table starts");
    }
    let mut before = serde_json::to_string(&game).expect("the state serializes");
    let mut played = 0;
    while played < moves {
        let Some(seat) = game.turn() else { break };
        play_easy_move(&mut game, seat, played as u64);
        played += 1;
        let after = serde_json::to_string(&game).expect("the state serializes");
        let kept = &before[..before.len() - CHANGED_END];
        assert!(
            after.starts_with(kept),
            "{} move {played} changed more than the end of the stored state:\nbefore {before}\nafter  {after}",
            G::NAME
        );
        before = after;
    }
    played
}

#[test]
fn a_go_move_changes_only_the_end_of_the_stored_state() {
    let played = moves_change_only_the_end::<GoGame>(
        json!({"size": 19, "players": [{"name": "b"}, {"name": "w"}]}),
        320,
    );
    assert!(played >= 100, "only {played} moves");
}

#[test]
fn a_gomoku_move_changes_only_the_end_of_the_stored_state() {
    let played = moves_change_only_the_end::<GomokuGame>(
        json!({"players": [{"name": "b"}, {"name": "w"}]}),
        225,
    );
    assert!(played >= 9, "only {played} moves");
}
