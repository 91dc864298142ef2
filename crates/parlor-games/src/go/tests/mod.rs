//! Tests of the Go rules through the game's public API: rules, undo/redo against replay, SGF, and
//! agreement with GNU Go on recorded games.

// The recorded games are read with serde.
#[cfg(feature = "serde")]
mod gnugo;
mod rules;
mod sgf;
mod support;
mod undo_fuzz;
