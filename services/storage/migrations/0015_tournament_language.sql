-- A tournament keeps the language it was created in (/tournament create language:, else the
-- server's default at that moment): its sign-up, pairings, tables, standings and podium speak
-- it even after the server's setting changes. NULL for tournaments from before, which keep
-- speaking the server's current language.
-- Plain ALTER TABLE ADD COLUMN only, so the same file reads on PostgreSQL.
ALTER TABLE tournaments ADD COLUMN language TEXT CHECK (length(language) BETWEEN 2 AND 16);
