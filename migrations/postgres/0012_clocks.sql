-- Clocks and rematches. `sweep_at_ms` is when a timed game's running turn expires, grace
-- included (milliseconds since the Unix epoch): the sweeper finds overdue games through its index.
-- `options` are the create options without `players`, which a rematch creates its game from;
-- `rematch_of` names the finished game a rematch follows, at most one per game.
ALTER TABLE games ADD COLUMN sweep_at_ms BIGINT;
ALTER TABLE games ADD COLUMN options JSONB;
ALTER TABLE games ADD COLUMN rematch_of UUID;
CREATE INDEX games_sweep_at ON games (sweep_at_ms) WHERE sweep_at_ms IS NOT NULL;
CREATE UNIQUE INDEX games_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
