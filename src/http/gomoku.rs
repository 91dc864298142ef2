//! Gomoku's routes: the generic turn-game road plus undo. Everything else is in the rules.

use crate::games::gomoku::{GomokuGame, GomokuMove, GomokuOptions};

super::turns::turn_game_routes! {
    game: GomokuGame,
    tag: "gomoku",
    games: "/v1/gomoku/games",
    game_path: "/v1/gomoku/games/{id}",
    moves: "/v1/gomoku/games/{id}/moves",
    ai: "/v1/gomoku/games/{id}/ai-move",
    options: GomokuOptions,
    move_body: GomokuMove,
    undo: "/v1/gomoku/games/{id}/undo" => undo,
}
