-- The bot's own facts, one value per key: e.g. the hash of the slash commands last synced to
-- each target, so that an unchanged command tree is not synced again at every start.
CREATE TABLE bot_meta (
    key        TEXT NOT NULL PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 200),
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT, WITHOUT ROWID;
