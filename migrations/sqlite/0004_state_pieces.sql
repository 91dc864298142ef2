-- The table in which PostgreSQL keeps a growing state in pieces (see src/store/pieces.rs). SQLite
-- stores every state whole in `games`, so it stays empty here; it exists so both databases have
-- the same tables and the shared statements refer to tables that exist.
CREATE TABLE state_pieces (
    game_id     BLOB NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    piece       TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
