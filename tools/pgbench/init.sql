-- pgbench baseline for Parlor's move transaction: the same tables as migrations/postgres (games,
-- seats, moves, with their keys, indexes and foreign keys), in the schema named by search_path
-- (tools/bench_http.sh creates a fresh one and sets PGOPTIONS="-c search_path=<schema>").
--
-- psql variables: clients (one active game per pgbench client, id md5(client_id)::uuid, version 0,
-- a mid-game Gomoku state of 30 moves, about 230 bytes of JSON like Parlor's stored state) and
-- filler (finished games with seats, so the tables and indexes are not trivially small).
--
--   psql "$URL" -v clients=16 -v filler=5000 -f tools/pgbench/init.sql

\set ON_ERROR_STOP on
SET client_min_messages = warning;

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

CREATE TABLE moves (
    game_id     UUID NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         BIGINT NOT NULL,
    seat        INTEGER,
    action      JSONB NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The mid-game state every benchmark game starts from (and move.sql writes back each time).
CREATE TABLE bench_state (state JSONB NOT NULL);
INSERT INTO bench_state VALUES ('{"board":{"size":15,"rule":"freestyle","moves":["i13","i14","e15","l1","f11","i4","n3","d11","l8","e10","i11","l3","f13","e12","l14","a8","a1","e2","f9","n12","e5","c3","n7","n14","b3","a6","g4","j10","g14","k5"]},"resigned":null}');

-- Finished filler games first, then the active ones the clients play.
INSERT INTO games (id, game, status, version, turn, state, result, created_at, updated_at)
SELECT gen_random_uuid(), 'gomoku', 'finished', 30, NULL, s.state,
       '{"winners":[0],"reason":"five_in_row","summary":"black wins with five in a row"}', now(), now()
FROM generate_series(1, :filler), bench_state s;

INSERT INTO games (id, game, status, version, turn, state, result, created_at, updated_at)
SELECT md5(c::text)::uuid, 'gomoku', 'active', 0, 0, s.state, NULL, now(), now()
FROM generate_series(0, :clients - 1) c, bench_state s;

INSERT INTO seats (game_id, seat, name, kind, level, token_hash)
SELECT g.id, k.seat, 'load-' || k.seat, 'human', NULL, sha256(convert_to(g.id::text || k.seat, 'UTF8'))
FROM games g, (VALUES (0), (1)) AS k(seat);

ANALYZE;
