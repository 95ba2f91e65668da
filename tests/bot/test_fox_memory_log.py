"""Fox Duet without the memory aid, through the service and a real SQLite file: the log tells a
round's tricks (winners, movement) but not their cards until the round ends, and /table history
does not open the round's earlier boards; with the memory aid both show everything."""

from __future__ import annotations

import random
from pathlib import Path

from engine.fox_duet.cards import CARDS
from services import history
from services.game_service import GameService
from services.storage import Database
from services.wording import adapter_for
from services.wording.fox_duet import card_name

ALICE, BOB = 11, 22
NAMES = ["Alice", "Bob"]


async def two_tricks_in(service: GameService, memory: str) -> int:
    """A started Duet whose first trick is won and whose second one has begun."""
    row = await service.create("fox-duet", 1, 900 if memory == "off" else 901, ALICE, "Alice", {"memory": memory})
    await service.join(row.id, BOB, "Bob")
    game_id = (await service.start(row.id, ALICE)).row.id
    rng = random.Random(5)
    for _ in range(200):
        row = await service.get(game_id)
        state = await service.state(row)
        if state.trick == 2 and state.trick_cards:
            return game_id
        seat = state.to_move()[0]
        action = rng.choice([a for a in state.legal_actions(seat) if a.verb != "concede"]).text
        await service.act(game_id, [ALICE, BOB][seat], None, action)
    raise AssertionError("no second trick")


def plays(steps: list[history.Step]) -> list[tuple[int, str]]:
    """(version, card in words) of every card played."""
    return [(s.version, card_name(e["card"], "en")) for s in steps for e in s.events if e["type"] == "card played"]


def lines_of(lines: list[str], version: int) -> str:
    return "\n".join(line for line in lines if line.startswith(f"`{version:>3}`"))


async def logged(tmp_path: Path, memory: str) -> tuple[list[str], list[history.Step]]:
    """A spectator's log of a Duet two tricks in, and its steps."""
    async with await Database.open(tmp_path / "m.db") as db:
        service = GameService(db)
        row = await service.get(await two_tricks_in(service, memory))
        steps = await history.steps(db, row)
        return history.log_lines(row, steps, NAMES, None, "en"), steps


async def test_the_log_hides_the_cards_of_the_rounds_tricks_without_the_memory_aid(tmp_path: Path) -> None:
    """「每輪遊戲進行時，玩家無法查看先前牌墩」: trick winners and movement, not the cards, until the round ends."""
    lines, steps = await logged(tmp_path, "off")
    assert "won trick 1" in "\n".join(lines)
    assert plays(steps)
    for version, name in plays(steps):
        assert "played a card" in lines_of(lines, version) and name not in lines_of(lines, version), version


async def test_the_log_names_the_cards_with_the_memory_aid(tmp_path: Path) -> None:
    lines, steps = await logged(tmp_path, "on")
    assert "played a card" not in "\n".join(lines)
    assert all(name in lines_of(lines, version) for version, name in plays(steps))


async def test_past_boards_of_the_round_stay_closed_without_the_memory_aid(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "m.db") as db:
        service = GameService(db)
        game_id = await two_tricks_in(service, "off")
        row = await service.get(game_id)
        steps = [(s.version, s.events) for s in await history.steps(db, row)]
        adapter = adapter_for("fox-duet")
        hidden = adapter.hidden_boards(steps, history.public_now(row))
        assert hidden == range(0, row.version), "the whole first round so far, not the current board"
        on_id = await two_tricks_in(service, "on")
        on_row = await service.get(on_id)
        on_steps = [(s.version, s.events) for s in await history.steps(db, on_row)]
        assert adapter.hidden_boards(on_steps, history.public_now(on_row)) == range(0)


def test_a_hidden_card_is_worded_without_its_name() -> None:
    adapter = adapter_for("fox-duet")
    card = next(iter(CARDS))
    played = {"type": "card played", "visible_to": None, "seat": 0, "card": {"id": card, "name": "X"}, "lead": True}
    hidden = adapter.log_events([(5, [played])], {"memory_aid": False, "phase": "play"})[0][0]
    assert hidden["card"] is None
    assert adapter.describe_event(hidden, NAMES, "en") == (
        "Alice played a card (earlier tricks stay hidden until the round ends)."
    )
    ended = {"type": "round ended", "visible_to": None, "round": 1, "gems_on_board": 3}
    told = adapter.log_events([(3, [played]), (4, [ended]), (5, [played])], {"memory_aid": False, "phase": "play"})
    assert told[0][0]["card"] is not None and told[2][0]["card"] is None  # an ended round's cards are told
