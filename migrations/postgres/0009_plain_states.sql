-- Every game's state is stored whole, in its row, in one plain form. A state that migration 0004
-- kept in pieces is put back together (its tail is a JSON string in `games.state`), and a Go game's
-- move list and redo line, stored packed (`"BddWpp"`: colour, column, row; `..` a pass) or in the
-- older forms (`["B D4"]`, `[{"color": "black", "play": "D4"}]`), become the list of move names the
-- answers show (`["D4", "Q16", "pass"]`); the colours alternate from the stored `first`.

UPDATE games AS g
SET state = ((SELECT string_agg(p.piece, '' ORDER BY p.idx) FROM state_pieces AS p
              WHERE p.game_id = g.id) || (g.state #>> '{}'))::jsonb
WHERE jsonb_typeof(g.state) = 'string';

DROP TABLE state_pieces;

CREATE FUNCTION pg_temp.go_move_names(moves jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE jsonb_typeof(moves)
        WHEN 'string' THEN (
            SELECT coalesce(jsonb_agg(to_jsonb(CASE substr(moves #>> '{}', i + 1, 2)
                WHEN '..' THEN 'pass'
                        ELSE substr('ABCDEFGHJKLMNOPQRSTUVWXYZ', ascii(substr(moves #>> '{}', i + 1, 1)) - 96, 1)
                    || (ascii(substr(moves #>> '{}', i + 2, 1)) - 96)::text
            END) ORDER BY i), '[]'::jsonb)
            FROM generate_series(1, length(moves #>> '{}'), 3) AS i)
        WHEN 'array' THEN (
            SELECT coalesce(jsonb_agg(CASE
                WHEN jsonb_typeof(m) = 'object' THEN m -> 'play'
                WHEN position(' ' IN m #>> '{}') > 0 THEN to_jsonb(split_part(m #>> '{}', ' ', 2))
                ELSE m
            END ORDER BY n), '[]'::jsonb)
            FROM jsonb_array_elements(moves) WITH ORDINALITY AS e(m, n))
        ELSE moves
    END
$$;

UPDATE games
SET state = jsonb_set(state, '{game,moves}', pg_temp.go_move_names(state #> '{game,moves}'))
WHERE game = 'go' AND state #> '{game,moves}' IS NOT NULL;

UPDATE games
SET state = jsonb_set(state, '{game,redo}', pg_temp.go_move_names(state #> '{game,redo}'))
WHERE game = 'go' AND state #> '{game,redo}' IS NOT NULL;

DROP FUNCTION pg_temp.go_move_names(jsonb);
