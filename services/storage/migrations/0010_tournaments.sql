-- Tournaments (docs/TOURNAMENTS.md): sign-up, rounds that run themselves, and the audit log.
--
-- The runner (bot/tournaments/runner.py) is a state machine kept entirely in these rows: a
-- round's pairings are stored with the round, before any table exists; each table is then
-- opened and linked to its pairing in one transaction, so a restart at any moment re-opens
-- only what is missing, never a second table for the same pairing.

CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL CHECK (guild_id > 0),
    channel_id       INTEGER NOT NULL CHECK (channel_id > 0),
    organiser_id     INTEGER NOT NULL CHECK (organiser_id > 0),
    name             TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}'
                     CHECK (json_valid(options) AND json_type(options) = 'object'),
    format           TEXT    NOT NULL
                     CHECK (format IN ('swiss', 'round-robin', 'single', 'double', 'duplicate')),
    -- Players per table: 2 for duels, 3-4 for pods (Swiss with pods, pod elimination), 1 for a
    -- solo duplicate, 2 for a Fox Duet duplicate (a team).
    table_size       INTEGER NOT NULL CHECK (table_size BETWEEN 1 AND 8),
    -- Planned rounds: NULL until the start for formats whose count follows the entrants.
    rounds           INTEGER CHECK (rounds BETWEEN 1 AND 64),
    best_of          INTEGER NOT NULL DEFAULT 1 CHECK (best_of IN (1, 3)),
    advance          INTEGER NOT NULL DEFAULT 1 CHECK (advance BETWEEN 1 AND 3),
    round_days       INTEGER NOT NULL CHECK (round_days BETWEEN 1 AND 60),
    time_limit_hours INTEGER CHECK (time_limit_hours BETWEEN 1 AND 2160),
    timeout_action   TEXT    CHECK (timeout_action IN ('auto', 'skip', 'forfeit')),
    -- How a table still unfinished at the round's deadline is settled.
    settle           TEXT    NOT NULL DEFAULT 'forfeit' CHECK (settle IN ('forfeit', 'score')),
    cap              INTEGER CHECK (cap BETWEEN 2 AND 512),
    signup_deadline  TEXT    CHECK (signup_deadline GLOB '????-??-??T??:??:??.???Z'),
    seed             INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'signup'
                     CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round            INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    signup_message_id INTEGER CHECK (signup_message_id > 0),
    created_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_at       TEXT,
    finished_at      TEXT
) STRICT;

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

-- Everyone who signed up. seed_order is fixed at the start (ratings, else a random draw);
-- partner_id pairs a Fox Duet team that signed up together (or was paired by the bot).
CREATE TABLE entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL CHECK (user_id > 0),
    display_name  TEXT    CHECK (length(display_name) <= 100),
    partner_id    INTEGER CHECK (partner_id > 0),
    seed_order    INTEGER CHECK (seed_order >= 0),
    status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'dropped', 'removed')),
    joined_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX entrants_by_user ON entrants (user_id);

-- status: 'opening' while its tables are being opened, 'playing', then 'settled'.
-- announced: the round's standings have been posted (a restart posts them if not).
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL CHECK (number >= 1),
    status        TEXT    NOT NULL DEFAULT 'opening' CHECK (status IN ('opening', 'playing', 'settled')),
    seed          INTEGER NOT NULL,
    deadline      TEXT    NOT NULL CHECK (deadline GLOB '????-??-??T??:??:??.???Z'),
    announced     INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),
    pairings_message_id INTEGER CHECK (pairings_message_id > 0),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    settled_at    TEXT,
    PRIMARY KEY (tournament_id, number)
) STRICT, WITHOUT ROWID;

-- One row per table of a round (a bye is a table of one that is never opened). players is the
-- seat order as a JSON array of user ids. result is set when the table is over:
-- {"ranks": [...], "scores": [...], "won": [...], "forfeited": [...], "how": "played" | "bye" |
--  "settled" | "organiser"}, in seat order.
CREATE TABLE pairings (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    slot          INTEGER NOT NULL CHECK (slot >= 0),
    match_id      TEXT,
    game_number   INTEGER NOT NULL DEFAULT 1 CHECK (game_number BETWEEN 1 AND 3),
    players       TEXT    NOT NULL CHECK (json_valid(players) AND json_type(players) = 'array'),
    thread_id     INTEGER CHECK (thread_id > 0),
    game_id       INTEGER UNIQUE REFERENCES games (id),
    result        TEXT    CHECK (result IS NULL OR (json_valid(result) AND json_type(result) = 'object')),
    PRIMARY KEY (tournament_id, round, slot),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, number) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

-- Every organiser's correction, with its reason: shown on the standings page.
CREATE TABLE tournament_audit (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    actor_id      INTEGER NOT NULL CHECK (actor_id > 0),
    action        TEXT    NOT NULL CHECK (length(action) BETWEEN 1 AND 40),
    detail        TEXT    NOT NULL DEFAULT '' CHECK (length(detail) <= 400),
    reason        TEXT    NOT NULL DEFAULT '' CHECK (length(reason) <= 400),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE INDEX tournament_audit_by_tournament ON tournament_audit (tournament_id, id);
