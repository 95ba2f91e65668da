-- Skill ratings (openskill's Plackett-Luce model), one per player per game per server.
--
-- A table is rated unless its creator made it casual; only finished, rated, competitive games
-- (docs/RATINGS.md) ever change a rating. Ratings are derived data: `python -m bot.ratings
-- rebuild` replays rating_history's source, the results rows, and gives the same numbers.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL CHECK (guild_id > 0),
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL CHECK (user_id > 0),
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
               CHECK (updated_at GLOB '????-??-??T??:??:??.???Z'),
    PRIMARY KEY (guild_id, game, user_id)
) STRICT, WITHOUT ROWID;

-- Leaderboards read a server's ratings of one game.
CREATE INDEX ratings_by_game ON ratings (guild_id, game);

-- Every change of a rating, per finished game and player: the trend on a profile, and the
-- record that a game has been rated (so a second call for the same game changes nothing).
CREATE TABLE rating_history (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL CHECK (user_id > 0),
    guild_id     INTEGER NOT NULL CHECK (guild_id > 0),
    game         TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    finished_at  TEXT    NOT NULL CHECK (finished_at GLOB '????-??-??T??:??:??.???Z'),
    PRIMARY KEY (game_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX rating_history_by_user ON rating_history (guild_id, game, user_id, finished_at);
