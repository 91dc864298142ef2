-- Games: the state is JSON, the version is the optimistic-concurrency token.
CREATE TABLE games (
    id          BLOB PRIMARY KEY,
    game        TEXT NOT NULL,
    status      TEXT NOT NULL,
    version     INTEGER NOT NULL,
    turn        INTEGER,
    state       TEXT NOT NULL,
    result      TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX games_by_game ON games (game, id DESC);
CREATE INDEX games_by_status ON games (status, id DESC);

-- Seats: who sits where; human seats keep only the SHA-256 of their token.
CREATE TABLE seats (
    game_id     BLOB NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    name        TEXT,
    kind        TEXT NOT NULL,
    level       TEXT,
    token_hash  BLOB UNIQUE,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_name ON seats (name, game_id);

-- The move log: seq equals the version the change produced, so it is gapless by construction.
CREATE TABLE moves (
    game_id     BLOB NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    seat        INTEGER,
    action      TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE player_stats (
    name    TEXT NOT NULL,
    game    TEXT NOT NULL,
    score   INTEGER NOT NULL,
    wins    INTEGER NOT NULL,
    losses  INTEGER NOT NULL,
    draws   INTEGER NOT NULL,
    PRIMARY KEY (name, game)
);
CREATE INDEX player_stats_board ON player_stats (game, score DESC, name);

CREATE TABLE poker_decks (
    id          BLOB PRIMARY KEY,
    version     INTEGER NOT NULL,
    state       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
