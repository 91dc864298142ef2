-- Seat kinds, AI levels and game statuses are closed sets: the database refuses anything else,
-- and the application refuses to read anything else.
ALTER TABLE games ADD CONSTRAINT games_status_known
    CHECK (status IN ('waiting', 'active', 'finished', 'aborted'));
ALTER TABLE seats ADD CONSTRAINT seats_kind_known
    CHECK (kind IN ('human', 'ai', 'open'));
ALTER TABLE seats ADD CONSTRAINT seats_level_known
    CHECK ((kind = 'ai' AND level IN ('easy', 'normal', 'hard')) OR (kind <> 'ai' AND level IS NULL));
