"""Noctiluca's jars changed with rules version 2: a game stored by the bot under
version 1 keeps replaying and playing with the first jars after the update, through the service
and a real SQLite file, while a game started after it gets the calibrated jars."""

from __future__ import annotations

from pathlib import Path

from engine.noctiluca import Noctiluca, content
from services import history
from services.game_service import GameService
from services.storage import Database

ALICE, BOB = 11, 22
USERS = [ALICE, BOB]


async def start_noctiluca(service: GameService, channel: int) -> int:
    row = await service.create("noctiluca", 1, channel, ALICE, "Alice", {}, seed=4242)
    await service.join(row.id, BOB, "Bob")
    return (await service.start(row.id, ALICE)).row.id


async def test_a_version_1_game_keeps_its_jars_after_the_update(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "meeple.db"
    monkeypatch.setattr(Noctiluca, "rules_version", 1)  # the bot before the update
    async with await Database.open(path) as db:
        service = GameService(db)
        game_id = await start_noctiluca(service, 600)
        state = await service.state(await service.get(game_id))
        assert state.rules_version == 1
        version = state.version
        for _ in range(8):  # the secret jar choice, then the first dives
            seat = state.to_move()[0]
            state = (await service.act(game_id, USERS[seat], version, state.legal_actions(seat)[0].text)).state
            version = state.version
        row = await service.get(game_id)
        positions = [(await history.state_at(db, row, v)).to_dict() for v in range(version + 1)]
        events = [step.events for step in await history.steps(db, row)]
        kept = [j["id"] for seat in state.jars for j in seat]
    monkeypatch.undo()  # the bot is updated: new games are version 2

    assert Noctiluca.rules_version == 2
    # The game's jars are cards whose version 2 differs, so keeping version 1 is what matters here.
    assert any(content.jar_set(1)[j].slots != content.jar_set(2)[j].slots for j in kept)
    async with await Database.open(path) as db:
        service = GameService(db)
        row = await service.get(game_id)
        assert row.rules_version == 1
        state = await service.state(row)
        assert state.rules_version == 1 and state.jar_cards is content.jar_set(1)
        assert state.to_dict() == positions[-1]
        assert [step.events for step in await history.steps(db, row)] == events
        for v, position in enumerate(positions):
            assert (await history.state_at(db, row, v)).to_dict() == position
        for seat, jars in enumerate(state.view(None)["public"]["seats"]):
            for jar in jars["jars"]:
                assert jar["slots"] == list(content.jar_set(1)[jar["id"]].slots), seat
        seat = state.to_move()[0]
        moved = await service.act(game_id, USERS[seat], state.version, state.legal_actions(seat)[0].text)
        assert moved.state.rules_version == 1

        new_id = await start_noctiluca(service, 601)
        new_row = await service.get(new_id)
        new_state = await service.state(new_row)
        assert new_row.rules_version == 2 and new_state.jar_cards is content.jar_set(2)
        assert history.start_state(new_row, 2)[0].to_dict() == new_state.to_dict()
