-- Retention (MEEPLE_RETENTION_DAYS, bot/storage/retention.py): a game over for longer than the
-- configured age loses its move-by-move record (the action log, undone moves, snapshots and
-- delivered jobs); the games row keeps its result and final state, and the results rows stay.

-- When the record was compacted (NULL: never). History, log and replay commands read it to say
-- so, instead of rebuilding a wrong position from a log that is no longer there.
ALTER TABLE games ADD COLUMN compacted_at TEXT CHECK (compacted_at GLOB '????-??-??T??:??:??.???Z');

-- The compaction's question: games over, not compacted, oldest end first. Partial, so it holds
-- only the games still waiting for it (about the configured age's worth), never the archive.
CREATE INDEX games_to_compact ON games (finished_at) WHERE finished_at IS NOT NULL AND compacted_at IS NULL;

-- A game's delivery jobs, for the compaction's delete of the finished ones and its check that
-- none is pending (delivery_jobs_pending holds only pending jobs); the cascade from games too.
CREATE INDEX delivery_jobs_by_game ON delivery_jobs (game_id, status);

-- The log stays append-only, except for an undone move (0004) and the whole log of a game whose
-- record is being compacted (its compacted_at is set first, in the same transaction).
DROP TRIGGER actions_delete_only_undone;

CREATE TRIGGER actions_delete_only_undone_or_compacted BEFORE DELETE ON actions
WHEN NOT EXISTS (
    SELECT 1 FROM undone_actions u
    WHERE u.game_id = OLD.game_id AND u.version = OLD.version AND u.created_at = OLD.created_at
      AND u.seat = OLD.seat AND u.action = OLD.action
) AND NOT EXISTS (
    SELECT 1 FROM games g WHERE g.id = OLD.game_id AND g.compacted_at IS NOT NULL
)
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: only an undone action, or a compacted game''s log, may leave the log');
END;
