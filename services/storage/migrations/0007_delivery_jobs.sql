-- Durable delivery: every board post, every DM carrying private information and the public
-- notices that depend on them are rows here, written in the transaction that commits the move
-- (or the start, or the undo) they belong to. A worker posts them in id order per game and
-- retries transient failures; a crash between commit and post loses nothing.
CREATE TABLE delivery_jobs (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- The state version the job belongs to (a board shows the position at this version).
    version    INTEGER NOT NULL CHECK (version >= 0),
    kind       TEXT    NOT NULL CHECK (kind IN ('board', 'hand', 'notice')),
    -- The seat a private message goes to; its player is looked up when it is sent, so a seat
    -- handed over meanwhile never sends the seat's information to the player who left it.
    seat       INTEGER CHECK (seat >= 0),
    payload    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload) AND json_type(payload) = 'object'),
    status     TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed', 'skipped')),
    attempts   INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error TEXT,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
               CHECK (created_at GLOB '????-??-??T??:??:??.???Z'),
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
               CHECK (updated_at GLOB '????-??-??T??:??:??.???Z'),
    CHECK ((kind = 'hand') = (seat IS NOT NULL))
) STRICT;

-- The worker's question: the oldest pending job of a game, and which games have any.
CREATE INDEX delivery_jobs_pending ON delivery_jobs (game_id, id) WHERE status = 'pending';
