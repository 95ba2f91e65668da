-- Games, their seats, the append-only action log and periodic state snapshots.
--
-- Timestamps are UTC text, 'YYYY-MM-DDTHH:MM:SS.sssZ', always written by SQLite itself with
-- strftime('%Y-%m-%dT%H:%M:%fZ', 'now') so that every row uses the same clock and format.
-- JSON columns hold compact JSON text, checked by json_valid().
-- STRICT tables make SQLite refuse a value of the wrong type instead of storing it anyway.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    game             TEXT    NOT NULL
                     CHECK (length(game) BETWEEN 1 AND 64 AND game NOT GLOB '*[^a-z0-9-]*'),
    guild_id         INTEGER CHECK (guild_id > 0),
    channel_id       INTEGER NOT NULL CHECK (channel_id > 0),
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    options          TEXT    NOT NULL DEFAULT '{}'
                     CHECK (json_valid(options) AND json_type(options) = 'object'),
    seed             INTEGER NOT NULL,
    creator_id       INTEGER NOT NULL CHECK (creator_id > 0),
    version          INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    state            TEXT    CHECK (state IS NULL OR (json_valid(state) AND json_type(state) = 'object')),
    outcome          TEXT    CHECK (outcome IS NULL OR (json_valid(outcome) AND json_type(outcome) = 'object')),
    lobby_message_id INTEGER CHECK (lobby_message_id > 0),
    board_message_id INTEGER CHECK (board_message_id > 0),
    -- The state version the current board message shows: after a crash between a move and
    -- its board post, board_version < version tells the bot to post the board again.
    board_version    INTEGER CHECK (board_version BETWEEN 0 AND version),
    created_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                     CHECK (created_at GLOB '????-??-??T??:??:??.???Z'),
    updated_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                     CHECK (updated_at GLOB '????-??-??T??:??:??.???Z'),
    finished_at      TEXT    CHECK (finished_at GLOB '????-??-??T??:??:??.???Z'),
    -- A lobby has no state yet; every started game has one (an abandoned lobby still has none).
    CHECK (status <> 'lobby' OR (state IS NULL AND version = 0)),
    CHECK (state IS NOT NULL OR status IN ('lobby', 'abandoned')),
    -- Only a finished game has an outcome, and every game that is over says when it ended.
    CHECK ((outcome IS NOT NULL) = (status = 'finished')),
    CHECK ((finished_at IS NOT NULL) = (status IN ('finished', 'abandoned')))
) STRICT;

-- At most one game being set up or played per channel: the board's buttons and the slash
-- commands find "the game in this channel" without asking which.
CREATE UNIQUE INDEX games_one_active_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'running');

-- At start-up the bot resumes every running game.
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER NOT NULL CHECK (user_id > 0),
    joined_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
              CHECK (joined_at GLOB '????-??-??T??:??:??.???Z'),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
) STRICT, WITHOUT ROWID;

-- "My games" for a player.
CREATE INDEX seats_by_user ON seats (user_id);

-- version is the state version the action produced: the first action of a game has version 1.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL CHECK (version >= 1),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    action     TEXT    NOT NULL CHECK (length(action) BETWEEN 1 AND 1000),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
               CHECK (created_at GLOB '????-??-??T??:??:??.???Z'),
    PRIMARY KEY (game_id, version)
) STRICT, WITHOUT ROWID;

-- The log is the game's history (replays, recovery, disputes): the database itself refuses to
-- rewrite it. This also refuses deleting a game that has moves, through the cascade.
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: UPDATE is not allowed');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: DELETE is not allowed');
END;

-- The full state at version 0 and every 25 versions, so a replay or an undo never has to
-- start from the very beginning of a long game. Rows are large, so this keeps its rowid.
CREATE TABLE snapshots (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL CHECK (version >= 0),
    state   TEXT    NOT NULL CHECK (json_valid(state) AND json_type(state) = 'object'),
    PRIMARY KEY (game_id, version)
) STRICT;
