//! The fault scenarios, one module each.

mod ai_pool;
mod database_restart;
mod sigkill;
mod streams;
mod two_servers;

use super::load::Style;

/// Plain play: some `If-Match`, some undos, every stone for the seat to move.
const STEADY: Style = Style {
    if_match: 0.3,
    undo: 0.08,
    wrong_seat: 0.0,
};
