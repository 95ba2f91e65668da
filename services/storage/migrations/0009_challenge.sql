-- The weekly challenge (docs/CHALLENGE.md): one deal per mode per server per week, played by
-- anyone on the server, each in their own private thread, then ranked by score.

-- A server can switch it off, and choose the channel whose private threads host the attempts.
ALTER TABLE guild_settings ADD COLUMN challenge_enabled INTEGER NOT NULL DEFAULT 1 CHECK (challenge_enabled IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN challenge_channel_id INTEGER CHECK (challenge_channel_id > 0);

-- The week's seed of each mode, drawn once (the primary key makes two first attempts agree).
-- week is the ISO week in UTC, '2026-W48'; a week starts on Monday 00:00 UTC.
CREATE TABLE challenge_seeds (
    guild_id INTEGER NOT NULL CHECK (guild_id > 0),
    week     TEXT    NOT NULL CHECK (week GLOB '[0-9][0-9][0-9][0-9]-W[0-9][0-9]'),
    mode     TEXT    NOT NULL CHECK (mode IN ('noctiluca-solo', 'tm-dice-solo', 'fox-duet-1', 'fox-duet-2', 'fox-duet-3')),
    seed     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, week, mode)
) STRICT, WITHOUT ROWID;

-- Every attempt: one table per player per mode per week (a Fox Duet team is two rows, one game).
CREATE TABLE challenge_attempts (
    guild_id INTEGER NOT NULL CHECK (guild_id > 0),
    week     TEXT    NOT NULL,
    mode     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL CHECK (user_id > 0),
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, week, mode, user_id),
    FOREIGN KEY (guild_id, week, mode) REFERENCES challenge_seeds (guild_id, week, mode)
) STRICT, WITHOUT ROWID;

CREATE INDEX challenge_attempts_by_game ON challenge_attempts (game_id);
