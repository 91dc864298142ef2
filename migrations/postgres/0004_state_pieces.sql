-- A state that grows at its end (a Go or Gomoku move list) is kept in pieces, so a change late in a
-- long game writes only what changed: `games.state` then holds the rest after the last piece (the
-- tail) as a JSON string, and these rows the pieces before it, in order (see src/store/pieces.rs).
CREATE TABLE state_pieces (
    game_id     UUID NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    piece       TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
