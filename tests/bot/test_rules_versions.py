"""Rules versions through the service and a real SQLite file: after a rule changes, a game
started under the old rules keeps replaying, undoing and playing exactly as it was played."""

from __future__ import annotations

from pathlib import Path

from engine import GAMES
from services import history
from services.game_service import GameService
from services.storage import Database
from tests.support.rules_versions import NEW, OLD, upgrade_vivarium

ALICE, BOB = 11, 22


async def start_vivarium(service: GameService, channel: int) -> int:
    row = await service.create("vivarium", 1, channel, ALICE, "Alice", {})
    await service.join(row.id, BOB, "Bob")
    return (await service.start(row.id, ALICE)).row.id


async def test_a_stored_game_keeps_its_rules_version_through_replay_undo_and_play(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "meeple.db"
    async with await Database.open(path) as db:
        service = GameService(db)
        game_id = await start_vivarium(service, 500)
        row = await service.get(game_id)
        assert row.rules_version == OLD
        state = await service.state(row)
        seat = state.to_move()[0]
        user = [ALICE, BOB][seat]
        swap = state.legal_actions(seat)[0].text
        after_swap = (await service.act(game_id, user, 0, swap)).state
        legal_after_swap = [a.text for a in after_swap.legal_actions(seat)]
        adjust = next(a.text for a in after_swap.legal_actions(seat) if a.verb == "adjust")
        played = await service.act(game_id, user, 1, adjust)
        positions = [s.to_dict() for s in (await history.state_at(db, row, 0), after_swap, played.state)]
        events = [step.events for step in await history.steps(db, await service.get(game_id))]

    upgrade_vivarium(monkeypatch)  # the bot is updated and restarted with Vivarium's rules version NEW

    async with await Database.open(path) as db:
        service = GameService(db)
        row = await service.get(game_id)
        assert row.rules_version == OLD
        assert (await service.state(row)).to_dict() == positions[2]
        # Replays from the seed (the log, the past boards, the animated replay) are the game played.
        assert [step.events for step in await history.steps(db, row)] == events
        for version, position in enumerate(positions):
            assert (await history.state_at(db, row, version)).to_dict() == position
        # The same log under version NEW would not even be legal: the switch is what keeps it.
        fresh = GAMES["vivarium"].new(2, row.seed, row.options, rules_version=NEW)
        fresh.apply(seat, swap)
        assert adjust not in [a.text for a in fresh.legal_actions(seat)]
        undone = await service.undo(game_id, user)
        assert undone.state.to_dict() == positions[1]
        assert [a.text for a in (await service.state(await service.get(game_id))).legal_actions(seat)] == (
            legal_after_swap
        )
        again = await service.act(game_id, user, 1, adjust)
        assert again.state.to_dict() == positions[2]

        # A game started after the update is played by the new rules.
        new_id = await start_vivarium(service, 501)
        new_row = await service.get(new_id)
        new_state = await service.state(new_row)
        assert new_row.rules_version == NEW and new_state.rules_version == NEW
        assert history.start_state(new_row, 2)[0].to_dict() == new_state.to_dict()
        mover = new_state.to_move()[0]
        moved = await service.act(new_id, [ALICE, BOB][mover], 0, new_state.legal_actions(mover)[0].text)
        assert not [a for a in moved.state.legal_actions(mover) if a.verb == "adjust"]
