-- One accepted Gomoku move, as Parlor's store commits it (src/store/sql.rs `commit`): the
-- compare-and-swap UPDATE of the game row (the whole JSONB state rewritten, version + 1) and the
-- move-log INSERT, in one transaction. Each pgbench client owns one game (md5(client_id)::uuid),
-- as each load client owns its game; `-D v=0` starts the version and RETURNING … \gset carries it
-- to the next move (an UPDATE that matches no row aborts the client, as a 409 would).
-- JSON is written with a space after each colon: pgbench would take `:null` for a variable.
--
-- What Parlor does besides this is left out on purpose: loading the game and its seats (two
-- SELECTs, see move_with_load.sql), HTTP, JSON, token check, rules and rendering the response.
BEGIN;
UPDATE games SET status = 'active', turn = (version + 1) % 2,
    state = '{"board": {"size": 15, "rule": "freestyle", "moves": ["i13","i14","e15","l1","f11","i4","n3","d11","l8","e10","i11","l3","f13","e12","l14","a8","a1","e2","f9","n12","e5","c3","n7","n14","b3","a6","g4","j10","g14","k5"]}, "resigned": null}',
    result = NULL, updated_at = now(), version = version + 1
  WHERE id = md5(:client_id::text)::uuid AND version = :v
  RETURNING version AS v \gset
INSERT INTO moves (game_id, seq, seat, action, at)
  VALUES (md5(:client_id::text)::uuid, :v, (:v - 1) % 2, '{"move": "h8"}', now());
COMMIT;
