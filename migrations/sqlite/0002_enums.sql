-- Seat kinds, AI levels and game statuses are closed sets: the database refuses anything else,
-- and the application refuses to read anything else. (SQLite cannot add a CHECK constraint to an
-- existing table, so triggers do the same job.)
CREATE TRIGGER games_status_known_insert BEFORE INSERT ON games
WHEN NEW.status NOT IN ('waiting', 'active', 'finished', 'aborted')
BEGIN SELECT RAISE(ABORT, 'unknown game status'); END;
CREATE TRIGGER games_status_known_update BEFORE UPDATE OF status ON games
WHEN NEW.status NOT IN ('waiting', 'active', 'finished', 'aborted')
BEGIN SELECT RAISE(ABORT, 'unknown game status'); END;
CREATE TRIGGER seats_kind_known_insert BEFORE INSERT ON seats
WHEN NEW.kind NOT IN ('human', 'ai', 'open')
  OR (NEW.kind = 'ai' AND (NEW.level IS NULL OR NEW.level NOT IN ('easy', 'normal', 'hard')))
  OR (NEW.kind <> 'ai' AND NEW.level IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'unknown seat kind or level'); END;
CREATE TRIGGER seats_kind_known_update BEFORE UPDATE OF kind, level ON seats
WHEN NEW.kind NOT IN ('human', 'ai', 'open')
  OR (NEW.kind = 'ai' AND (NEW.level IS NULL OR NEW.level NOT IN ('easy', 'normal', 'hard')))
  OR (NEW.kind <> 'ai' AND NEW.level IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'unknown seat kind or level'); END;
