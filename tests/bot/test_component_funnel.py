"""Every component class of the bot answers through the one error path (bot/answers.py), and
every persistent kind is registered, so that a click on it after a restart is rebuilt from its
custom id instead of failing."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import discord

import bot
from bot.answers import answer_failure, answered
from bot.client import MeepleBot
from bot.ui import Answered
from emulator.testing import running

FUNNEL = {answered.__name__, answer_failure.__name__}
VIEW_BASES = (discord.ui.View, discord.ui.LayoutView, discord.ui.Modal)


def bot_modules() -> list[str]:
    names = ["bot"]
    for found in pkgutil.walk_packages(bot.__path__, "bot."):
        names.append(found.name)
    for name in names:
        importlib.import_module(name)
    return names


def subclasses(base: type) -> set[type]:
    seen: set[type] = set()
    todo = [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return seen


def ours(cls: type) -> bool:
    return cls.__module__ == "bot" or cls.__module__.startswith("bot.")


def component_classes() -> set[type]:
    bot_modules()
    found: set[type] = set()
    for base in (discord.ui.Item, *VIEW_BASES):
        found |= {cls for cls in subclasses(base) if ours(cls)}
    return found


def outside_the_funnel(classes: set[type]) -> list[str]:
    """The classes whose clicks could fail without the player's answer, with the reason."""
    wrong = []
    for cls in sorted(classes, key=lambda c: f"{c.__module__}.{c.__qualname__}"):
        name = f"{cls.__module__}.{cls.__qualname__}"
        if issubclass(cls, VIEW_BASES):
            # discord.py's own on_error only logs: the player is left with "This interaction failed".
            on_error: Any = cls.on_error
            if any(on_error is base.on_error for base in VIEW_BASES):
                wrong.append(f"{name}: its on_error is discord.py's, which only logs")
            elif not FUNNEL & set(on_error.__code__.co_names):
                wrong.append(f"{name}: its on_error does not call {sorted(FUNNEL)}")
        elif issubclass(cls, discord.ui.Item):
            if not issubclass(cls, Answered):
                wrong.append(f"{name}: a component that is not Answered")
            elif cls.callback is not Answered.callback and not FUNNEL & set(cls.callback.__code__.co_names):
                wrong.append(f"{name}: its own callback goes past the error path")
            elif cls.interaction_check not in (
                discord.ui.Item.interaction_check,
                discord.ui.DynamicItem.interaction_check,
            ):
                wrong.append(f"{name}: its interaction_check runs outside the error path")
    return wrong


def test_every_component_class_of_the_bot_goes_through_the_error_path() -> None:
    classes = component_classes()
    dynamic = {cls for cls in classes if issubclass(cls, discord.ui.DynamicItem)}
    assert len(dynamic) >= 14, sorted(c.__qualname__ for c in dynamic)  # the walk found them all
    assert outside_the_funnel(classes) == []


def test_the_check_finds_a_component_outside_the_error_path() -> None:
    class Bare(discord.ui.DynamicItem[discord.ui.Button], template=r"mp:planted-bare:(?P<n>\d+)"):
        async def callback(self, interaction: discord.Interaction) -> None:
            raise RuntimeError("nobody answers")

    class Bypass(Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:planted-bypass:(?P<n>\d+)"):
        async def callback(self, interaction: discord.Interaction) -> None:
            await self.handle(interaction)

    class Checked(Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:planted-check:(?P<n>\d+)"):
        async def interaction_check(self, interaction: discord.Interaction) -> bool:
            raise RuntimeError("refused without an answer")

    class Logged(discord.ui.View):
        pass

    class Funnelled(discord.ui.View):
        async def on_error(
            self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
        ) -> None:
            await answer_failure(interaction, error, None, type(item).__name__)

    class Silent(discord.ui.Modal, title="planted"):
        async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
            return None

    planted: set[type] = {Bare, Bypass, Checked, Logged, Funnelled, Silent}
    for cls in planted:
        cls.__module__ = "bot.planted"
    try:
        assert planted <= component_classes(), "the walk sees classes of any bot module"
        wrong = outside_the_funnel(planted)
    finally:
        for cls in planted:
            cls.__module__ = __name__  # out of the other tests' walk
    assert [w.split(":")[0].rsplit(".", 1)[-1] for w in wrong] == ["Bare", "Bypass", "Checked", "Logged", "Silent"]


async def test_every_persistent_kind_is_registered_with_the_bot(emu, world, config_for) -> None:
    """A DynamicItem the bot does not register is rebuilt by nobody: after a restart (or any
    click) discord.py drops it and the player reads "This interaction failed"."""

    def named(cls: type) -> str:  # an extension's module is loaded anew: its classes are other objects
        return f"{cls.__module__}.{cls.__qualname__}"

    dynamic = {cls for cls in component_classes() if issubclass(cls, discord.ui.DynamicItem)}
    kinds = {named(cls) for cls in dynamic if cls.__module__ != "bot.planted"}
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as client:
        registered = {named(cls) for cls in client._connection._view_store._dynamic_items.values()}
    assert kinds - registered == set()
    assert len(kinds) >= 14
