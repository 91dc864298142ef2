-- Registered players: a name protected by a secret key (only its SHA-256 is kept). `canonical` is
-- the name compatibility-case-folded (NFKD + case fold, then NFC), so look-alikes such as "Alice",
-- "ALICE" and "Ａｌｉｃｅ" are one player.
CREATE TABLE players (
    canonical   TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    key_hash    BYTEA NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL
);

-- The registered player who claimed a seat with their key; NULL for a guest, an AI or an open seat.
ALTER TABLE seats ADD COLUMN player TEXT REFERENCES players (canonical);

-- Glicko-2 ratings per player and game, moved only by rated games.
CREATE TABLE ratings (
    player      TEXT NOT NULL REFERENCES players (canonical),
    game        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX ratings_board ON ratings (game, rating DESC, player);
