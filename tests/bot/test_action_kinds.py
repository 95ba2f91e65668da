"""The bot knows a concession, a resignation or a pass only from the engine's declaration
(``action_kind``), never from an action's name."""

from __future__ import annotations

from bot.client import MeepleBot
from emulator.testing import running
from engine import GAMES, Action
from engine.fox_duet import FoxDuet
from services.scheduler import automatic_action
from services.wording import adapter_for
from tests.bot.test_discord_table import join_and_start, open_table
from tests.support.driver import Table, mentioned


class Row:
    seed, version = 5, 0


def test_time_outs_use_the_declared_concession_and_pass_whatever_their_names(monkeypatch) -> None:
    state = GAMES["fox-duet"].new(2, 5)
    seat = state.to_move()[0]
    monkeypatch.setattr(FoxDuet, "action_kinds", {"play": "concede"})
    forfeit, how = automatic_action(Row, state, seat, "forfeit")
    assert how == "forfeit" and forfeit.verb == "play"
    auto, how = automatic_action(Row, state, seat, "auto")
    assert how == "auto" and auto.text == "concede"  # no longer a concession: an ordinary move
    monkeypatch.setattr(FoxDuet, "action_kinds", {"play": "pass", "concede": "concede"})
    skip, how = automatic_action(Row, state, seat, "skip")
    assert how == "skip" and skip.verb == "play"


def test_only_declared_concessions_need_a_confirmation(monkeypatch) -> None:
    adapter = adapter_for("fox-duet")
    assert adapter.action_is_dangerous(Action("concede"))
    assert not adapter.action_is_dangerous(Action("toward 0"))
    monkeypatch.setattr(FoxDuet, "action_kinds", {"toward": "concede"})
    assert adapter.action_is_dangerous(Action("toward 0"))
    assert not adapter.action_is_dangerous(Action("concede"))


async def test_table_concede_offers_the_declared_concession_only(emu, world, config_for, monkeypatch) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await join_and_start(emu, world, await open_table(emu, world))
        table = Table(emu, world.channel, [world.alice, world.bob])
        mover = table.user(mentioned(table.board())[0])
        asked = await (await emu.slash(mover, world.channel, "table concede")).final_message()
        # A co-operative game's concession is the team's: the partner is asked first.
        assert "Concede as a team?" in asked.content and "ranked last" not in asked.content
        assert [b["label"] for b in asked.buttons()] == ["Ask my partner to concede"]
        monkeypatch.setattr(FoxDuet, "action_kinds", {})
        refused = await (await emu.slash(mover, world.channel, "table concede")).final_message()
        # With no concession declared, the game has nothing to concede: the answer points to resigning.
        assert refused.ephemeral and "</table resign:" in refused.content and not refused.buttons()
