-- The lobby's most common listing, one game's games in one status (`?game=uno&status=waiting`),
-- walks one index instead of filtering every game of that game or status.
CREATE INDEX games_by_game_status ON games (game, status, id DESC);
