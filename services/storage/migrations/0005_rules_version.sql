-- The version of its game's rules each game is played by (engine: Game.rules_versions). It is
-- written when the game starts and never changes, so a game keeps the rules it started with:
-- replays from the seed (undo, history, recovery) set it up under the same version. Games
-- stored before rules had versions were played by version 1.
ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1 CHECK (rules_version >= 1);
