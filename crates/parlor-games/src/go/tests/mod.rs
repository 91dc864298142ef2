//! Tests of the Go rules through the game's public API: rules, undo/redo against replay, SGF, and
//! agreement with GNU Go on recorded games.

mod gnugo;
mod rules;
mod sgf;
mod support;
mod undo_fuzz;
