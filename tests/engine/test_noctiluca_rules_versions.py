"""Noctiluca's rules versions: version 2 plays the calibrated jars
(data/noctiluca/jars-v2.json); a game started under version 1 keeps the first jars in every code
path: set-up, play, save and load, replay from the seed, views, determinize, standing."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine import GAMES
from engine import content as content_loader
from engine.content import ContentError
from engine.noctiluca import content

G = GAMES["noctiluca"]

# Recorded with the code before version 2 existed (commit 0bd80ab, where every game was version 1):
# a random game's every action, events, saved state, views, standing and some determinized copies.
V1_FINGERPRINTS = {
    (1, 3): "8fa31b05783fd5ae032285f638f0869c363769981227cb89edaf81384ffbe47b",
    (1, 14): "a8bc3bb601d5a150090a8f9cac269608512e1d238e6506d73e332e68037b17b1",
    (2, 3): "5a686acd68a3f68cedacc73194da0464ea512b286b75f73744535d3f82b3f494",
    (2, 14): "72713921d9901d2c102ef0d6e90295728d936a823a2015517de4b3260b42a58c",
    (3, 3): "fc73cb5aad31603c4261251cdb391ca3b89769c0ae1db9a5b1deab7ba7cd018d",
    (3, 14): "039c31b8a83b925b24946e8c05809f32571afcf49afbdeed88338ea3783e5891",
    (4, 3): "b16b586153277f80b36e670318f53d4bd9d1ee4bdf0c4853cbcaea1330d87974",
    (4, 14): "e1250d2e382b54f5d2787ea48e64dd77146df0eca37a3dc9af41d72e32e26553",
}


def fingerprint(players: int, seed: int, rules_version: int) -> str:
    """Play a random game to its end and hash everything it shows: each action, its events, the
    saved state (which must load back to itself), every view, the standing, and a determinized
    copy every 15 steps."""
    rng = random.Random(seed)
    s = G.new(players, seed, rules_version=rules_version)
    digest = hashlib.sha256()

    def put(value: object) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=str).encode())

    put(s.to_dict())
    step = 0
    while s.outcome() is None:
        seat = s.to_move()[0]
        action = rng.choice(s.legal_actions(seat))
        put(action.text)
        put([dict(e) for e in s.apply(seat, action)])
        data = s.to_dict()
        put(data)
        assert G.load(data).to_dict() == data
        put(s.view(None))
        put([s.view(x) for x in range(players)])
        standing = s.standing()
        assert standing is not None
        put([standing.scores, standing.winners, standing.details])
        if step % 15 == 0:
            put(s.determinize(seat, step).to_dict())
        step += 1
    outcome = s.outcome()
    put([outcome.scores, outcome.winners, outcome.details])
    return digest.hexdigest()


def test_the_current_version_is_2_and_version_1_is_still_played() -> None:
    assert G.rules_version == 2 and G.rules_versions == (1, 2)
    assert sorted(content.JAR_FILES) == list(G.rules_versions), "every playable version has its jars"
    assert G.new(2, 5).rules_version == 2
    assert G.new(2, 5, rules_version=1).rules_version == 1
    with pytest.raises(ValueError, match="no rules version 3"):
        G.new(2, 5, rules_version=3)


@pytest.mark.parametrize(("players", "seed"), sorted(V1_FINGERPRINTS))
def test_a_version_1_game_plays_exactly_as_before_version_2(players: int, seed: int) -> None:
    """Same seed, same moves: the same states, events, views, standings and determinized copies
    as the code before the calibration."""
    assert fingerprint(players, seed, 1) == V1_FINGERPRINTS[(players, seed)]


def test_a_save_without_a_rules_version_is_version_1_with_the_first_jars() -> None:
    s = G.new(4, 8, rules_version=1)
    rng = random.Random(8)
    for _ in range(60):
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    data = s.to_dict()
    del data["rules_version"]
    old = G.load(data)
    assert old.rules_version == 1 and old.jar_cards is content.jar_set(1)
    assert old.view(None) == s.view(None) and old.standing() == s.standing()
    assert old.determinize(0, 4).rules_version == 1


def test_new_games_play_the_calibrated_jars() -> None:
    """Version 2's jars: 5 slots each, of two noctiluca colours (3+2 or 4+1)."""
    s = G.new(3, 21)
    for seat in range(3):
        dealt = s.pending["dealt"][seat]
        s.apply(seat, f"keep {dealt[0]} {dealt[1]}")
    assert s.jar_cards is content.jar_set(2)
    for seat in range(3):
        for j in s.jars[seat]:
            assert len(j["dice"]) == 5
    for panel in s.view(None)["public"]["seats"]:
        for jar in panel["jars"]:
            assert jar["slots"] == list(content.jar_set(2)[jar["id"]].slots)
            assert sorted(jar["slots"].count(c) for c in set(jar["slots"])) in ([2, 3], [1, 4])
    assert any(content.jar_set(1)[j].slots != content.jar_set(2)[j].slots for j in content.JAR_IDS)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_version_2_games_play_to_the_end_and_survive_save_and_load(players: int) -> None:
    fingerprint(players, 31, 2)  # asserts every saved position loads back to itself


def test_a_save_is_checked_against_the_jars_of_its_own_version() -> None:
    """A version 2 game's jars do not load as version 1 where the cards differ: the version is
    part of the game, never swapped under it."""
    s = G.new(2, 3)
    for seat in range(2):
        dealt = s.pending["dealt"][seat]
        s.apply(seat, f"keep {dealt[0]} {dealt[1]}")
    data = s.to_dict()
    assert G.load(data).to_dict() == data
    in_play = [j["id"] for seat in s.jars for j in seat]
    assert any(len(content.jar_set(1)[j].slots) != 5 for j in in_play)
    with pytest.raises(ValueError, match="'jars'"):
        G.load({**data, "rules_version": 1})


def _corrupt_v2(monkeypatch, tmp_path, change) -> None:
    """Serve a changed copy of jars-v2.json to the loader (schema check included)."""
    real = content_loader.data_file
    data = json.loads(real("noctiluca/jars-v2.json").read_text(encoding="utf-8"))
    change(data["jars"])
    path = tmp_path / "jars-v2.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(
        content_loader, "data_file", lambda relative: path if relative.endswith("jars-v2.json") else real(relative)
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda jars: jars[0].update(slots=["orange"] * 7), r"jars-v2.json\[0\]: a jar has 3 to 6 slots"),
        (lambda jars: jars[3].update(slots=["orange", "teal", "blue"]), r"jars-v2.json\[3\]: a jar has 3 to 6 slots"),
        (lambda jars: jars[4].update(points=3), r"jars-v2.json.*points"),
        (lambda jars: jars[6].pop("slots"), r"jars-v2.json"),
        (lambda jars: jars[5].update(colour="silver"), "unknown jar colour"),
        (lambda jars: jars[12].update(colour="gold"), "there must be 10"),
        (lambda jars: jars[1].update(id="gold-1"), "unique words"),
        (lambda jars: jars[29].update(id="red-11"), "the jar ids must be those of every other version"),
    ],
)
def test_bad_version_2_jars_are_refused_at_import(monkeypatch, tmp_path, change, message: str) -> None:
    _corrupt_v2(monkeypatch, tmp_path, change)
    with pytest.raises(ContentError, match=message):
        content._load()
    monkeypatch.undo()
    content._load()
    assert len(content.jar_set(2)) == 30
