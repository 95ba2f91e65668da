-- The weekly challenge's modes are what the games declare (Game.facts.challenge, read by
-- bot.challenge.MODES, which checks a mode before anything is stored): the schema no longer lists
-- them, so a new game's modes need no migration. SQLite cannot drop a CHECK in place: both
-- challenge tables are rebuilt (the attempts refer to the seeds), with their rows.

CREATE TABLE challenge_seeds_new (
    guild_id INTEGER NOT NULL CHECK (guild_id > 0),
    week     TEXT    NOT NULL CHECK (week GLOB '[0-9][0-9][0-9][0-9]-W[0-9][0-9]'),
    mode     TEXT    NOT NULL CHECK (length(mode) BETWEEN 1 AND 100),
    seed     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, week, mode)
) STRICT, WITHOUT ROWID;
INSERT INTO challenge_seeds_new (guild_id, week, mode, seed) SELECT guild_id, week, mode, seed FROM challenge_seeds;

CREATE TABLE challenge_attempts_new (
    guild_id INTEGER NOT NULL CHECK (guild_id > 0),
    week     TEXT    NOT NULL,
    mode     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL CHECK (user_id > 0),
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, week, mode, user_id),
    FOREIGN KEY (guild_id, week, mode) REFERENCES challenge_seeds_new (guild_id, week, mode)
) STRICT, WITHOUT ROWID;
INSERT INTO challenge_attempts_new (guild_id, week, mode, user_id, game_id)
    SELECT guild_id, week, mode, user_id, game_id FROM challenge_attempts;

DROP TABLE challenge_attempts;
DROP TABLE challenge_seeds;
-- Renaming a table renames the references to it (SQLite 3.26+): the attempts refer to challenge_seeds.
ALTER TABLE challenge_seeds_new RENAME TO challenge_seeds;
ALTER TABLE challenge_attempts_new RENAME TO challenge_attempts;
CREATE INDEX challenge_attempts_by_game ON challenge_attempts (game_id);
