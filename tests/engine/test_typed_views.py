"""Every view a game gives matches the TypedDicts it declares (docs/ENGINE.md, "Typed views"):
each key it declares required is there, no key it does not declare, every value of its type, at
every step of random games, for every seat and for a spectator."""

from __future__ import annotations

import random
import types
import typing
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import engine.fox_duet as fox_duet
import engine.noctiluca as noctiluca
import engine.tm_dice as tm_dice
import engine.vivarium as vivarium
from engine import GAMES, NoSecrets

DECLARED = {
    "fox-duet": (fox_duet.FoxDuetPublic, fox_duet.FoxDuetPrivate),
    "noctiluca": (noctiluca.NoctilucaPublic, noctiluca.NoctilucaPrivate),
    "vivarium": (vivarium.VivariumPublic, vivarium.VivariumPrivate),
    "tm-dice": (tm_dice.TMDicePublic, tm_dice.TMDicePrivate),
}


def mismatch(value: object, hint: Any, where: str) -> str | None:
    """Where ``value`` does not match the type ``hint``, or None."""
    if hint is Any or hint is object:
        return None
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return f"{where}: {type(value).__name__}, not a {hint.__name__}"
        hints = get_type_hints(hint, include_extras=True)
        # Under ``from __future__ import annotations`` Python 3.11 counts a NotRequired key as
        # required: read NotRequired from the resolved hints.
        required = {k for k in hint.__required_keys__ if get_origin(hints[k]) is not typing.NotRequired}
        missing = required - value.keys()
        if missing:
            return f"{where}: {hint.__name__} lacks {sorted(missing)}"
        extra = value.keys() - hints.keys()
        if extra:
            return f"{where}: {hint.__name__} does not declare {sorted(extra)}"
        for key, item in value.items():
            if found := mismatch(item, hints[key], f"{where}.{key}"):
                return found
        return None
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        found = [mismatch(value, option, where) for option in get_args(hint)]
        return None if any(f is None for f in found) else found[0]
    if origin in (typing.NotRequired, typing.Required):
        return mismatch(value, get_args(hint)[0], where)
    if origin is list:
        if not isinstance(value, list):
            return f"{where}: {type(value).__name__}, not a list"
        (item,) = get_args(hint)
        return next((f for i, v in enumerate(value) if (f := mismatch(v, item, f"{where}[{i}]"))), None)
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where}: {type(value).__name__}, not a dict"
        key_type, item = get_args(hint)
        for k, v in value.items():
            if found := mismatch(k, key_type, f"{where} key") or mismatch(v, item, f"{where}[{k!r}]"):
                return found
        return None
    if hint is type(None):
        return None if value is None else f"{where}: {value!r} is not None"
    if hint is int:  # a bool is not a count
        return None if isinstance(value, int) and not isinstance(value, bool) else f"{where}: {value!r} is not an int"
    if isinstance(hint, type):
        return None if isinstance(value, hint) else f"{where}: {value!r} is not a {hint.__name__}"
    raise AssertionError(f"{where}: the check does not know the type {hint!r}")


# Every player count of every game, a test each (they run side by side); two random games each,
# every view of every step checked.
TABLES = [(g, n) for g in sorted(DECLARED) for n in range(GAMES[g].min_players, GAMES[g].max_players + 1)]


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_every_view_matches_its_declared_types(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    public_type, private_type = DECLARED[game_id]
    for seed in range(2):
        state = game.new(players, seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            spectator = state.view(None)
            assert mismatch(spectator["public"], public_type, "public") is None, mismatch(
                spectator["public"], public_type, "public"
            )
            assert mismatch(spectator["private"], NoSecrets, "private") is None
            for seat in range(players):
                private = state.view(seat)["private"]
                assert mismatch(private, private_type, f"private[{seat}]") is None, mismatch(
                    private, private_type, f"private[{seat}]"
                )
            movers = state.to_move()
            if not movers or steps >= 400:
                break
            seat = movers[0]
            actions = [a for a in state.legal_actions(seat) if state.action_kind(a) not in ("concede", "resign")]
            state.apply(seat, rng.choice(actions or state.legal_actions(seat)))
            steps += 1


def test_the_check_finds_a_wrong_view() -> None:
    public = GAMES["fox-duet"].new(2, 1).view(None)["public"]
    assert mismatch(public, fox_duet.FoxDuetPublic, "public") is None
    broken: dict[str, object] = dict(public)
    del broken["decree"]
    assert "lacks ['decree']" in str(mismatch(broken, fox_duet.FoxDuetPublic, "public"))
    broken = {**public, "secret": 1}
    assert "does not declare ['secret']" in str(mismatch(broken, fox_duet.FoxDuetPublic, "public"))
    broken = {**public, "round": "two"}
    assert mismatch(broken, fox_duet.FoxDuetPublic, "public") == "public.round: 'two' is not an int"
