-- Scores belong to a player, not to a name shown (0005). `owner` is `player:<canonical>` for a
-- registered player (whom `player` names) and `guest:<name>` for a guest's name: registering a
-- name starts a new, empty record, and the guest's record of that name stays as it was.
CREATE TABLE player_stats_by_owner (
    owner   TEXT NOT NULL,
    game    TEXT NOT NULL,
    name    TEXT NOT NULL,
    player  TEXT REFERENCES players (canonical),
    score   INTEGER NOT NULL,
    wins    INTEGER NOT NULL,
    losses  INTEGER NOT NULL,
    draws   INTEGER NOT NULL,
    PRIMARY KEY (owner, game)
);

-- Rows of earlier releases were keyed by the name shown, and a registered player's name showed the
-- row of that name as theirs: it stays theirs (what players saw before is what they see after).
-- Every other row is a guest's.
INSERT INTO player_stats_by_owner (owner, game, name, player, score, wins, losses, draws)
SELECT CASE WHEN p.canonical IS NULL THEN 'guest:' || s.name ELSE 'player:' || p.canonical END,
       s.game, s.name, p.canonical, s.score, s.wins, s.losses, s.draws
FROM player_stats s LEFT JOIN players p ON p.name = s.name;

DROP TABLE player_stats;
ALTER TABLE player_stats_by_owner RENAME TO player_stats;
CREATE INDEX player_stats_board ON player_stats (game, score DESC, owner);
CREATE INDEX player_stats_by_player ON player_stats (player, game);
