"""The games' declared facts give the platform exactly the lists it used to keep by hand, and the
views follow the registered games live."""

from __future__ import annotations

from engine import GAMES, Game, register, registry, shipped, unregister
from engine.facts import Challenge, GameFacts


def test_the_shipped_games_declare_what_the_platform_listed_before() -> None:
    assert set(registry.ranked_games()) == {"noctiluca", "vivarium", "tm-dice"}
    assert set(registry.co_operative_games()) == {"fox-duet"}
    assert dict(registry.duplicate_sizes()) == {"fox-duet": 2, "noctiluca": 1, "tm-dice": 1}
    modes = registry.challenge_modes()
    assert list(modes) == ["noctiluca-solo", "tm-dice-solo", "fox-duet-1", "fox-duet-2", "fox-duet-3"]
    assert [(m.game, m.players, dict(m.options)) for m in modes.values()] == [
        ("noctiluca", 1, {}),
        ("tm-dice", 1, {}),
        ("fox-duet", 2, {"level": 1}),
        ("fox-duet", 2, {"level": 2}),
        ("fox-duet", 2, {"level": 3}),
    ]
    assert shipped() == {"fox-duet": "fox_duet", "noctiluca": "noctiluca", "vivarium": "vivarium", "tm-dice": "tm_dice"}


class Elsewhere(Game):
    id = "elsewhere"
    title = "Elsewhere"
    min_players = 1
    max_players = 2
    facts = GameFacts(
        co_operative=True, rating="scores", duplicate_size=2, challenge=(Challenge("elsewhere-1", 1, "E"),)
    )


def test_the_views_follow_a_game_registered_and_forgotten_later() -> None:
    ranked, co_op, sizes, modes = (
        registry.ranked_games(),
        registry.co_operative_games(),
        registry.duplicate_sizes(),
        registry.challenge_modes(),
    )
    register(Elsewhere())
    try:
        assert "elsewhere" in co_op and "elsewhere" not in ranked and sizes["elsewhere"] == 2
        assert modes["elsewhere-1"].game == "elsewhere" and list(modes)[:3] == [
            "noctiluca-solo",
            "tm-dice-solo",
            "elsewhere-1",
        ]
        assert "elsewhere" not in shipped(), "a game from outside engine/ is not found by package name"
    finally:
        unregister("elsewhere")
    assert "elsewhere" not in GAMES and "elsewhere" not in co_op and "elsewhere-1" not in modes
