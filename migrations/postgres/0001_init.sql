-- Games: the state is JSON, the version is the optimistic-concurrency token.
CREATE TABLE games (
    id          UUID PRIMARY KEY,
    game        TEXT NOT NULL,
    status      TEXT NOT NULL,
    version     BIGINT NOT NULL,
    turn        INTEGER,
    state       JSONB NOT NULL,
    result      JSONB,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX games_by_game ON games (game, id DESC);
CREATE INDEX games_by_status ON games (status, id DESC);

-- Seats: who sits where; human seats keep only the SHA-256 of their token.
CREATE TABLE seats (
    game_id     UUID NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    name        TEXT,
    kind        TEXT NOT NULL,
    level       TEXT,
    token_hash  BYTEA UNIQUE,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_name ON seats (name, game_id);

-- The move log: seq equals the version the change produced, so it is gapless by construction.
CREATE TABLE moves (
    game_id     UUID NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         BIGINT NOT NULL,
    seat        INTEGER,
    action      JSONB NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE player_stats (
    name    TEXT NOT NULL,
    game    TEXT NOT NULL,
    score   BIGINT NOT NULL,
    wins    BIGINT NOT NULL,
    losses  BIGINT NOT NULL,
    draws   BIGINT NOT NULL,
    PRIMARY KEY (name, game)
);
CREATE INDEX player_stats_board ON player_stats (game, score DESC, name);

CREATE TABLE poker_decks (
    id          UUID PRIMARY KEY,
    version     BIGINT NOT NULL,
    state       JSONB NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
