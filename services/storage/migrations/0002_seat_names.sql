-- The name a player had when they sat down, so boards can name players without the
-- privileged members intent and after a restart.
ALTER TABLE seats ADD COLUMN display_name TEXT CHECK (display_name IS NULL OR length(display_name) <= 100);
