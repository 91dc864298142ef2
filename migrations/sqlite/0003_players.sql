-- Registered players: a name protected by a secret key (only its SHA-256 is kept). `canonical` is
-- the name compatibility-case-folded (NFKD + case fold, then NFC), so look-alikes such as "Alice",
-- "ALICE" and "Ａｌｉｃｅ" are one player.
CREATE TABLE players (
    canonical   TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    key_hash    BLOB NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
);

-- The registered player who claimed a seat with their key; NULL for a guest, an AI or an open seat.
ALTER TABLE seats ADD COLUMN player TEXT REFERENCES players (canonical);

-- Glicko-2 ratings per player and game, moved only by rated games.
CREATE TABLE ratings (
    player      TEXT NOT NULL REFERENCES players (canonical),
    game        TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX ratings_board ON ratings (game, rating DESC, player);
