-- Seeks: players asking the lobby for an opponent. A seek is open until it is paired into a game,
-- cancelled, or expires (`expires_at`, pushed on while its owner follows it). Only the SHA-256 of
-- its secret is kept: the secret becomes the owner's seat token in the game it is paired into.
CREATE TABLE seeks (
    id           UUID PRIMARY KEY,
    game         TEXT NOT NULL,
    options      JSONB NOT NULL,
    players      INTEGER NOT NULL,
    seat         INTEGER,
    name         TEXT NOT NULL,
    player       TEXT,
    rating       DOUBLE PRECISION,
    rating_min   DOUBLE PRECISION,
    rating_max   DOUBLE PRECISION,
    secret_hash  BYTEA NOT NULL,
    status       TEXT NOT NULL,
    game_id      UUID,
    paired_seat  INTEGER,
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    closed_at    TIMESTAMPTZ
);
CREATE INDEX seeks_open ON seeks (game, expires_at) WHERE status = 'open';
CREATE INDEX seeks_closed ON seeks (closed_at) WHERE status <> 'open';

-- A seek's stream ticket carries the seek's secret, sealed with a pad only the ticket gives, so
-- the stream it opens can hand the secret back as the seat token when the seek is paired.
ALTER TABLE stream_tickets ADD COLUMN seal BYTEA;
