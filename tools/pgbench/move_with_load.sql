-- move.sql plus the two reads Parlor makes before every move (src/store/sql.rs `load_game`): the
-- game row and its seats, outside the transaction, as Parlor does. The gap between this and
-- move.sql is the cost of the load; the gap between this and Parlor's moves/s is HTTP, JSON,
-- token hashing, the rules (the state is replayed move by move) and rendering the answer.
SELECT id, game, status, version, turn, state, result, created_at, updated_at
  FROM games WHERE id = md5(:client_id::text)::uuid;
SELECT seat, name, kind, level, token_hash FROM seats
  WHERE game_id = md5(:client_id::text)::uuid ORDER BY seat;
BEGIN;
UPDATE games SET status = 'active', turn = (version + 1) % 2,
    state = '{"board": {"size": 15, "rule": "freestyle", "moves": ["i13","i14","e15","l1","f11","i4","n3","d11","l8","e10","i11","l3","f13","e12","l14","a8","a1","e2","f9","n12","e5","c3","n7","n14","b3","a6","g4","j10","g14","k5"]}, "resigned": null}',
    result = NULL, updated_at = now(), version = version + 1
  WHERE id = md5(:client_id::text)::uuid AND version = :v
  RETURNING version AS v \gset
INSERT INTO moves (game_id, seq, seat, action, at)
  VALUES (md5(:client_id::text)::uuid, :v, (:v - 1) % 2, '{"move": "h8"}', now());
COMMIT;
