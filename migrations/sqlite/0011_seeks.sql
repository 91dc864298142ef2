-- Seeks: players asking the lobby for an opponent. A seek is open until it is paired into a game,
-- cancelled, or expires (`expires_at`, pushed on while its owner follows it). Only the SHA-256 of
-- its secret is kept: the secret becomes the owner's seat token in the game it is paired into.
CREATE TABLE seeks (
    id           BLOB PRIMARY KEY,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,
    players      INTEGER NOT NULL,
    seat         INTEGER,
    name         TEXT NOT NULL,
    player       TEXT,
    rating       REAL,
    rating_min   REAL,
    rating_max   REAL,
    secret_hash  BLOB NOT NULL,
    status       TEXT NOT NULL,
    game_id      BLOB,
    paired_seat  INTEGER,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    closed_at    TEXT
);
CREATE INDEX seeks_open ON seeks (game, expires_at) WHERE status = 'open';
CREATE INDEX seeks_closed ON seeks (closed_at) WHERE status <> 'open';

-- A seek's stream ticket carries the seek's secret, sealed with a pad only the ticket gives, so
-- the stream it opens can hand the secret back as the seat token when the seek is paired.
ALTER TABLE stream_tickets ADD COLUMN seal BLOB;
