"""Noctiluca's content (the pool's geometry, jars, tokens, favourites) and the position helpers
used by the other Noctiluca rules tests."""

from __future__ import annotations

import json

import pytest

from engine import GAMES
from engine.content import ContentError
from engine.noctiluca import content
from engine.noctiluca.content import SHORES, SPACES, STACKS

G = GAMES["noctiluca"]


# -- helpers for hand-built positions ---------------------------------------------------------
@pytest.fixture(params=G.rules_versions, ids=lambda v: f"rules-v{v}")
def each_rules_version(request, monkeypatch):
    """Run a rules test under every rules version: games set up with ``G.new`` (``started``) are
    of that version. The rules are the same; the jar cards differ."""
    monkeypatch.setattr(G, "rules_version", request.param)
    return request.param


def started(players: int = 2, seed: int = 1):
    """A game past the jar choice: every seat kept its first two dealt jars."""
    s = G.new(players, seed)
    for seat in range(players):
        dealt = s.pending["dealt"][seat]
        s.apply(seat, f"keep {dealt[0]} {dealt[1]}")
    assert s.phase == "shore"
    return s


def clear_board(s) -> None:
    """Every die of the pool into the box lid."""
    for space in s.spaces:
        for d in space:
            s.lid[content.die_colour(d)] += 1
    s.spaces = [[] for _ in SPACES]


def put(s, space: int, dice: list[str]) -> None:
    """Dice from the box lid onto a space."""
    for d in dice:
        s.lid[content.die_colour(d)] -= 1
    s.spaces[space] += dice


def give_jars(s, seat: int, jar_ids: list[str], filled: dict[str, list[str]] | None = None) -> None:
    """Give ``seat`` exactly these jars (taken from wherever they are), with dice from the lid."""
    filled = filled or {}
    for who in range(s.players):
        for j in list(s.jars[who]):
            if j["id"] in jar_ids or who == seat:
                for d in j["dice"]:
                    if d is not None:
                        s.lid[content.die_colour(d)] += 1
                s.jars[who].remove(j)
                if s.piles:
                    s.piles[0].append(j["id"])
                else:
                    s.deck.append(j["id"])
    for pile in s.piles:
        for j in jar_ids:
            if j in pile:
                pile.remove(j)
    for j in jar_ids:
        if j in s.deck:
            s.deck.remove(j)
    for j in jar_ids:
        slots = s.jar_cards[j].slots
        dice: list = [None] * len(slots)
        for d in filled.get(j, []):
            i = next(k for k, c in enumerate(slots) if c == content.die_colour(d) and dice[k] is None)
            dice[i] = d
            s.lid[content.die_colour(d)] -= 1
        s.jars[seat].append({"id": j, "dice": dice})


def jars_of(s, colours: str, avoid: tuple[str, ...] = ()) -> str:
    """A jar of ``s``'s rules version whose slots hold exactly this set of colours (``"orange"``,
    ``"green,purple"``). Version 2 has only jars of two colours, 3+2 or 4+1 slots: a test that
    needs a jar this version does not have applies to version 1 only and is skipped under the
    others."""
    wanted = set(colours.split(","))
    for j in s.jar_cards.values():
        if set(j.slots) == wanted and j.id not in avoid:
            return j.id
    if s.rules_version != 1:
        pytest.skip(f"rules version {s.rules_version} has no jar of {colours}")
    raise LookupError(colours)


def checked(s):
    """The position survives a save and load: every die, jar and token is accounted for."""
    data = json.loads(json.dumps(s.to_dict()))
    assert G.load(data).to_dict() == data
    return s


# -- content -----------------------------------------------------------------------------------
def test_the_pool_has_an_island_6_inner_and_12_outer_spaces() -> None:
    """Seed: 4 dice on each inner space and 5 on each outer space; the centre is not a shore."""
    assert sorted(sp.ring for sp in SPACES) == ["inner"] * 6 + ["outer"] * 12
    assert {sp.capacity for sp in SPACES if sp.ring == "inner"} == {4}
    assert {sp.capacity for sp in SPACES if sp.ring == "outer"} == {5}
    assert (0, 0) not in {(sp.q, sp.r) for sp in SPACES}


def test_every_shore_sees_one_straight_path_of_3_and_one_of_4() -> None:
    """Seed: choose one of the 2 straight paths from that shore (facts: one of 3 spaces, one of 4)."""
    assert len(SHORES) == 12
    for shore in SHORES:
        assert len(shore.paths["short"]) == 3 and len(shore.paths["long"]) == 4
    # the 12 paths are the 6 edge rows and the 6 rows of 4, each seen from its two ends
    assert len({frozenset(p) for sh in SHORES for p in sh.paths.values()}) == 12


def test_the_solo_side_has_3_sections_numbered_1_to_6() -> None:
    """Seed (solo): roll the black die and clear the space with that number in the arrow's section."""
    assert content.SECTIONS[0] == "purple"
    for section in content.SECTIONS:
        assert sorted(content.section_spaces(section)) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("version", G.rules_versions)
def test_thirty_jars_ten_per_colour_with_3_to_6_slots(version: int) -> None:
    """Seed: 30 jar cards (3 colours, 10 each); facts: 3 to 6 slots, 0 to 2 points."""
    jars = content.jar_set(version)
    assert len(jars) == 30 and sorted(jars) == sorted(content.JAR_IDS)
    for colour in ("gold", "brown", "red"):
        assert sum(1 for j in jars.values() if j.colour == colour) == 10
    assert all(3 <= len(j.slots) <= 6 and 0 <= j.points <= 2 for j in jars.values())
    # Every noctiluca colour is on jars of every jar colour, so no favourite is worthless.
    for colour in ("gold", "brown", "red"):
        assert {c for j in jars.values() if j.colour == colour for c in j.slots} == set(content.DICE_COLOURS)


def test_token_stacks_go_from_2_on_top_to_8_at_the_bottom() -> None:
    """Seed: stack the tokens in numeric order, the "8" at the bottom and the "2" on top."""
    for values in STACKS.values():
        assert len(values) == 10 and values[0] == 2 and values[-1] == 8 and list(values) == sorted(values)


def test_a_broken_board_file_is_refused_with_its_place(monkeypatch) -> None:
    real = content.load

    def broken(relative, schema):
        data = real(relative, schema)
        if relative == "noctiluca/board.json":
            data["shores"][3]["paths"]["long"] = data["shores"][3]["paths"]["long"][::-1]
        return data

    monkeypatch.setattr(content, "load", broken)
    with pytest.raises(ContentError, match="shore 4's long path"):
        content._load()
    monkeypatch.setattr(content, "load", real)
    content._load()
