-- PostgreSQL variant of 0004_undo_and_seats.sql: the trigger calls a function.

-- Undo, votes to abandon, and rematches.

-- An undone action leaves the log only by being copied here first, in the same transaction:
-- the history keeps it (the log marks it as taken back) and replays skip it.
CREATE TABLE undone_actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL CHECK (version >= 1),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    action     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    undone_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, version, created_at)
) STRICT, WITHOUT ROWID;

DROP TRIGGER actions_no_delete ON actions;

CREATE FUNCTION actions_delete_only_undone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM undone_actions u
        WHERE u.game_id = OLD.game_id AND u.version = OLD.version AND u.created_at = OLD.created_at
          AND u.seat = OLD.seat AND u.action = OLD.action
    ) THEN
        RAISE EXCEPTION USING ERRCODE = 'integrity_constraint_violation',
            MESSAGE = 'actions are append-only: only an undone action may leave the log';
    END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER actions_delete_only_undone BEFORE DELETE ON actions
FOR EACH ROW EXECUTE FUNCTION actions_delete_only_undone();

-- Players voting to abandon a running game; unanimity ends it.
CREATE TABLE abandon_votes (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL CHECK (user_id > 0),
    voted_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, user_id)
) STRICT, WITHOUT ROWID;
