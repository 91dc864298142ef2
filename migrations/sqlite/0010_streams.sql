-- What a game's event stream replays to a client that reconnects: for each of a game's latest
-- changes, the events it caused and what it left (state and seats, to render any viewer's view).
-- Written in the change's own transaction; the oldest rows go as new ones come.
CREATE TABLE changes (
    game_id     BLOB NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    state       TEXT NOT NULL,
    seats       TEXT NOT NULL,
    events      TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- The lobby's announcements, in one sequence: a listed game created, joined, started, finished
-- or aborted, with its public listing entry as it stood then.
CREATE TABLE lobby (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     BLOB NOT NULL,
    game        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    status      TEXT NOT NULL,
    entry       TEXT NOT NULL,
    at          TEXT NOT NULL
);
CREATE INDEX lobby_by_age ON lobby (at);

-- Tickets that open a stream once (EventSource sends no headers): the SHA-256 of the ticket, what
-- it opens (a game, and which seat's view) and until when.
CREATE TABLE stream_tickets (
    ticket_hash BLOB PRIMARY KEY,
    target      BLOB NOT NULL,
    seat        INTEGER,
    expires_at  TEXT NOT NULL
);
CREATE INDEX stream_tickets_by_expiry ON stream_tickets (expires_at);
