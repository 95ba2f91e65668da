-- Who reads which language (issue 15): public posts in the table's language, private answers in
-- the reader's Discord language, DMs in the language last seen from their recipient.
-- Plain CREATE TABLE / ALTER TABLE ADD COLUMN only, so the same file reads on PostgreSQL.

-- The Discord locale ('zh-TW', 'pt-BR', 'en-US'...) of each user's last interaction, as Discord
-- sent it: it is resolved to a catalogue when read, so a catalogue added later is picked up.
CREATE TABLE user_locales (
    user_id INTEGER PRIMARY KEY CHECK (user_id > 0),
    locale  TEXT    NOT NULL CHECK (length(locale) BETWEEN 2 AND 16)
);

-- A table's language (a catalogue: 'en', 'zh-TW', 'pt-BR'), chosen at /table create; NULL for
-- tables from before languages, which keep the bot-wide language they were started in.
ALTER TABLE games ADD COLUMN language TEXT CHECK (length(language) BETWEEN 2 AND 16);

-- A server's default table language (/meeple settings); NULL: the server's preferred locale.
ALTER TABLE guild_settings ADD COLUMN language TEXT CHECK (length(language) BETWEEN 2 AND 16);
