-- Computer players (issue 14): a seat played by the bot's own search (ai/), at a level.
--
-- A computer seat is seated like anyone, under a reserved user id below 1000 (Discord ids are
-- far larger), so every seat-based rule of the platform holds; this table says which seats
-- are computers and how strong. A table with a computer is never rated.
CREATE TABLE computer_seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    level   TEXT    NOT NULL CHECK (level IN ('easy', 'normal', 'hard')),
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

-- A table option: when a player resigns or forfeits on time, a computer takes over their seat
-- so the others can finish; ``left_user`` is that player, whose result stays a forfeit.
ALTER TABLE games ADD COLUMN takeover INTEGER NOT NULL DEFAULT 0 CHECK (takeover IN (0, 1));
ALTER TABLE computer_seats ADD COLUMN left_user INTEGER CHECK (left_user > 0);
