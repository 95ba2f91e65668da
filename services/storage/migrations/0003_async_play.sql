-- Async play: reminders, time limits, vacations, server settings and results.

-- Per game, chosen at creation: how often to remind (NULL = the server's default, else 24 h),
-- an optional time limit per move and what happens when it runs out.
ALTER TABLE games ADD COLUMN reminder_hours INTEGER CHECK (reminder_hours BETWEEN 1 AND 720);
ALTER TABLE games ADD COLUMN time_limit_hours INTEGER CHECK (time_limit_hours BETWEEN 1 AND 2160);
ALTER TABLE games ADD COLUMN timeout_action TEXT CHECK (timeout_action IN ('auto', 'skip', 'forfeit'));
-- Reminder bookkeeping for the wait at one state version: a new move starts a new count.
ALTER TABLE games ADD COLUMN reminded_version INTEGER;
ALTER TABLE games ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0 CHECK (reminders_sent >= 0);
ALTER TABLE games ADD COLUMN snoozed_version INTEGER;
ALTER TABLE games ADD COLUMN warned_version INTEGER;

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY CHECK (guild_id > 0),
    reminder_hours    INTEGER CHECK (reminder_hours BETWEEN 1 AND 720),
    time_limit_hours  INTEGER CHECK (time_limit_hours BETWEEN 1 AND 2160),
    timeout_action    TEXT CHECK (timeout_action IN ('auto', 'skip', 'forfeit')),
    creator_role_id   INTEGER CHECK (creator_role_id > 0),
    use_threads       INTEGER NOT NULL DEFAULT 0 CHECK (use_threads IN (0, 1)),
    idle_days         INTEGER NOT NULL DEFAULT 30 CHECK (idle_days BETWEEN 1 AND 365)
) STRICT;

-- A player's declared vacation pauses their clock (reminders and time limits) in every game.
CREATE TABLE vacations (
    user_id    INTEGER NOT NULL CHECK (user_id > 0),
    starts_at  TEXT    NOT NULL CHECK (starts_at GLOB '????-??-??T??:??:??.???Z'),
    ends_at    TEXT    NOT NULL CHECK (ends_at GLOB '????-??-??T??:??:??.???Z'),
    CHECK (ends_at > starts_at),
    PRIMARY KEY (user_id, starts_at)
) STRICT, WITHOUT ROWID;

-- One row per seat of every finished game: for records, ratings and tournaments.
CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER NOT NULL CHECK (user_id > 0),
    game        TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    forfeited   INTEGER NOT NULL DEFAULT 0 CHECK (forfeited IN (0, 1)),
    finished_at TEXT    NOT NULL CHECK (finished_at GLOB '????-??-??T??:??:??.???Z'),
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

CREATE INDEX results_by_user ON results (user_id, game);
