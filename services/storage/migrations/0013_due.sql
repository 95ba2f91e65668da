-- Scale (issue 18): the scheduler and start-up ask SQL for the few games that need them.
-- Plain CREATE INDEX / ALTER TABLE ADD COLUMN only, so the same file reads on PostgreSQL.

-- The earliest moment the scheduler may have something to do for a game (a reminder, a
-- warning, a time limit, idle closing), worked out for the state version ``due_version``.
-- It is a lower bound: at that moment the scheduler looks, and either acts or works out the
-- next one. A game whose ``due_version`` is not its version (a move, an undo) or NULL (a new
-- table, a changed setting, a vacation cut short, a seat handed over) is looked at the next
-- minute; ``due_at`` NULL with a current ``due_version`` means nothing can come due.
ALTER TABLE games ADD COLUMN due_at TEXT CHECK (length(due_at) = 24);  -- a stamp: 2026-11-22T11:18:18.399Z
ALTER TABLE games ADD COLUMN due_version INTEGER;

-- Covering the due query's filter, so a tick reads index entries, never the rows' states.
CREATE INDEX games_due ON games (status, version, due_version, due_at);

-- Covering start-up's question "which running game's current board was never posted?".
CREATE INDEX games_unposted ON games (status, version, board_version);
