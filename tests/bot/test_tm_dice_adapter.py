"""The Discord wording of tm-dice (services/wording/tm_dice.py) over real games."""

from __future__ import annotations

import random

import pytest

from engine import Action
from engine.tm_dice import TMDice
from services.wording.tm_dice import PRIVATE_VERBS, TMDiceAdapter

GAME = TMDice()
ADAPTER = TMDiceAdapter()
NAMES = ["Alice", "Bob", "Carol", "Dmitri"]


def games(players: int, seeds: range):
    """Yield (state, seat, actions, events) at every step of random games."""
    for seed in seeds:
        s = GAME.new(players, seed)
        rng = random.Random(seed)
        events = list(s.setup_events)
        while s.outcome() is None:
            seat = rng.choice(s.to_move())
            actions = s.legal_actions(seat)
            yield s, seat, actions, events
            events = s.apply(seat, rng.choice(actions))
        yield s, None, [], events


@pytest.mark.parametrize("players", [1, 2, 4])
def test_every_choice_event_and_prompt_is_worded(players: int) -> None:
    """Labels fit a button (80) and a menu line (100) and tell the choices of a step apart; every
    event and step has its sentence."""
    seen_steps = set()
    for s, seat, actions, events in games(players, range(2)):
        for e in events:
            line = ADAPTER.describe_event(e, NAMES[:players], "en")
            assert line is None or (isinstance(line, str) and line and "{" not in line)
        if seat is None:
            lines = ADAPTER.outcome_lines(s.outcome(), NAMES[:players], "en")
            assert len(lines) == players + 2
            continue
        view = s.view(seat)
        labels = [ADAPTER.action_label(a, view, "en") for a in actions]
        assert len(set(labels)) == len(labels), f"two choices read the same: {labels}"
        for a, label in zip(actions, labels, strict=True):
            assert 0 < len(label) <= 80 and label != a.text, a.text
            description = ADAPTER.action_description(a, view, "en")
            assert description is None or len(description) <= 100
        prompt = ADAPTER.prompt(view["public"], ["@x"], "en")
        assert "@x" in prompt
        seen_steps.add((view["public"]["step"] or {}).get("kind", "corp"))
        assert ADAPTER.hand_text(view, "en")
    assert {"corp", "turn", "support", "main"} <= seen_steps


def test_choices_naming_hidden_cards_are_private() -> None:
    """Discord: the hand, the corporation choice and the bonus cards stay in the player's private answer."""
    for verb in ("corporation", "play", "discard", "bonus"):
        assert verb in PRIVATE_VERBS and ADAPTER.action_is_private(Action(f"{verb} x"))
    assert not ADAPTER.action_is_private(Action("roll red"))
    assert not ADAPTER.action_is_private(Action("hex d4"))


def test_the_hand_text_lists_each_card_with_cost_and_effect() -> None:
    s = GAME.new(2, 3)
    text = ADAPTER.hand_text(s.view(0), "en")
    for card in s.view(0)["private"]["hand"]:
        assert card["name"] in text
    assert "corporations" in text.lower()


def test_the_ways_to_pay_are_worded_with_the_proposal_highlighted() -> None:
    """Paying: the proposed payment is the highlighted button; each way says what it spends and keeps."""
    from tests.engine.test_tm_dice_rules import give, position, run, step, wild

    s = position(2)
    give(s, 0, "heat", "heat", "heat", "money")
    wild(s, 0, 2)
    step(s, "main")
    run(s, 0, "raise-temperature")
    view = s.view(None)
    actions = s.legal_actions(0)
    labels = [ADAPTER.action_label(a, view, "en") for a in actions]
    assert labels == ["Pay 3 heat (proposed)", "Pay 2 heat + 1 wild", "Pay 1 heat + 2 wild"]
    assert [ADAPTER.action_is_suggested(a, view) for a in actions] == [True, False, False]
    kept = [ADAPTER.action_description(a, s.view(0), "en") for a in actions]
    assert kept == ["Keeps 1 money and 2 wild", "Keeps 1 heat, 1 money, and 1 wild", "Keeps 2 heat and 1 money"]
    assert "pay 3 heat" in ADAPTER.prompt(view["public"], ["@x"], "en")


def test_a_run_of_dice_rolled_by_one_player_is_one_line() -> None:
    """A production of many dice reads as one line on the board and in the log."""
    rolled = [
        {"type": "die rolled", "visible_to": None, "seat": 0, "colour": c, "face": f, "reason": "production"}
        for c, f in (("green", "plant"), ("green", "plant"), ("red", "event"), ("blue", "water"))
    ]
    other = {"type": "die rolled", "visible_to": None, "seat": 1, "colour": "red", "face": "heat", "reason": "x"}
    lines = ADAPTER.describe_events([*rolled, other], NAMES[:2], "en")
    assert lines == [
        "Alice rolls 4 dice: plant ×2, event, and water.",
        "Bob rolls a red die: heat.",
    ]
