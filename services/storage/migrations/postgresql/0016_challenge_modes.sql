-- The weekly challenge's modes are what the games declare (Game.facts.challenge, checked by
-- bot.challenge.MODES before anything is stored): the schema no longer lists them. PostgreSQL
-- drops the CHECK in place (SQLite rebuilds the tables: ../0016_challenge_modes.sql).
ALTER TABLE challenge_seeds DROP CONSTRAINT challenge_seeds_mode_check;
ALTER TABLE challenge_seeds ADD CONSTRAINT challenge_seeds_mode_check CHECK (length(mode) BETWEEN 1 AND 100);
