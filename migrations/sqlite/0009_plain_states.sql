-- Every game's state is stored whole, in its row, in one plain form (SQLite never kept pieces:
-- the table of migration 0004 is empty). A Go game's move list and redo line, stored packed
-- (`"BddWpp"`: colour, column, row; `..` a pass) or in the older forms (`["B D4"]`,
-- `[{"color": "black", "play": "D4"}]`), become the list of move names the answers show
-- (`["D4", "Q16", "pass"]`); the colours alternate from the stored `first`.

DROP TABLE state_pieces;

-- The packed form: three letters a move.
UPDATE games SET state = json_set(state, '$.game.moves', json((
    WITH RECURSIVE at(i) AS (SELECT 1 UNION ALL SELECT i + 3 FROM at WHERE i + 3 <= 6000)
    SELECT json_group_array(CASE substr(json_extract(games.state, '$.game.moves'), i + 1, 2)
        WHEN '..' THEN 'pass'
        ELSE substr('ABCDEFGHJKLMNOPQRSTUVWXYZ',
                    unicode(substr(json_extract(games.state, '$.game.moves'), i + 1, 1)) - 96, 1)
            || (unicode(substr(json_extract(games.state, '$.game.moves'), i + 2, 1)) - 96)
    END ORDER BY i)
    FROM at WHERE i < length(json_extract(games.state, '$.game.moves')))))
WHERE game = 'go' AND json_type(state, '$.game.moves') = 'text';

UPDATE games SET state = json_set(state, '$.game.redo', json((
    WITH RECURSIVE at(i) AS (SELECT 1 UNION ALL SELECT i + 3 FROM at WHERE i + 3 <= 6000)
    SELECT json_group_array(CASE substr(json_extract(games.state, '$.game.redo'), i + 1, 2)
        WHEN '..' THEN 'pass'
        ELSE substr('ABCDEFGHJKLMNOPQRSTUVWXYZ',
                    unicode(substr(json_extract(games.state, '$.game.redo'), i + 1, 1)) - 96, 1)
            || (unicode(substr(json_extract(games.state, '$.game.redo'), i + 2, 1)) - 96)
    END ORDER BY i)
    FROM at WHERE i < length(json_extract(games.state, '$.game.redo')))))
WHERE game = 'go' AND json_type(state, '$.game.redo') = 'text';

-- The older forms: a list of "B D4" strings, or of {"color", "play"} objects.
UPDATE games SET state = json_set(state, '$.game.moves', json((
    SELECT json_group_array(CASE
        WHEN type = 'object' THEN json_extract(value, '$.play')
        WHEN instr(value, ' ') > 0 THEN substr(value, instr(value, ' ') + 1)
        ELSE value
    END ORDER BY key)
    FROM json_each(games.state, '$.game.moves'))))
WHERE game = 'go' AND json_type(state, '$.game.moves') = 'array';

UPDATE games SET state = json_set(state, '$.game.redo', json((
    SELECT json_group_array(CASE
        WHEN type = 'object' THEN json_extract(value, '$.play')
        WHEN instr(value, ' ') > 0 THEN substr(value, instr(value, ' ') + 1)
        ELSE value
    END ORDER BY key)
    FROM json_each(games.state, '$.game.redo'))))
WHERE game = 'go' AND json_type(state, '$.game.redo') = 'array';
