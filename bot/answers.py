"""One error path for every slash command, button and menu: what the player is told when a
request is refused or fails, and what the log keeps.

Handlers do not catch: a ``Refusal`` becomes its private message; an interaction that expired
before the bot could answer is noted quietly (there is nobody left to answer); anything else is
logged once with its traceback and the player gets a private answer that says truthfully
whether something was changed (see ``services.storage.db.watch_commits``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.languages import discord_locale
from l10n.typography import shortened
from l10n.words import resolve_locale, t
from league.refusal import Refusal
from services import metrics
from services.logs import note_game, note_interaction
from services.storage.db import CommitWatch, watch_commits

if TYPE_CHECKING:
    from bot.flow import Flow

log = logging.getLogger("meeple.errors")

UNKNOWN_INTERACTION = 10062  # answered too late: Discord forgot the interaction
ALREADY_ACKNOWLEDGED = 40060  # answered twice (another process, or a retry, got there first)
UNKNOWN_WEBHOOK = 10015  # a follow-up after the interaction's token ran out (15 minutes)
EXPIRED = (UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED, UNKNOWN_WEBHOOK)
MESSAGE_LIMIT = 2000  # characters of a Discord message


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to fit a message (after a whole word), an ellipsis saying so."""
    return shortened(text, limit)


def locale_of(interaction: discord.Interaction) -> str:
    """The reader's language: the catalogue their Discord client's locale reads."""
    return resolve_locale(str(interaction.locale.value) if interaction.locale else None)


def is_expired(error: BaseException) -> bool:
    """Whether the error says the interaction can no longer be answered."""
    return isinstance(error, discord.HTTPException) and error.code in EXPIRED


async def answered(
    interaction: discord.Interaction, handler: Callable[[], Awaitable[None]], what: str, game_id: int | None = None
) -> None:
    """Run a component's handler through the one error path (``what`` names it in the log)."""
    await seen(interaction)  # before the watch: remembering a language is not the click's change
    note_game(game_id)  # the log's lines for this click name its game
    watch = watch_commits()
    try:
        await handler()
    except Exception as error:  # the point of the funnel: every failure gets an answer
        await answer_failure(interaction, error, watch, what, game_id)


async def answer_failure(
    interaction: discord.Interaction,
    error: BaseException,
    watch: CommitWatch | None,
    what: str,
    game_id: int | None = None,
) -> None:
    """Tell the player, privately, what became of their request; log what the operator needs."""
    if isinstance(error, Refusal):
        await refuse(interaction, error, game_id)
        return
    if is_expired(error):
        assert isinstance(error, discord.HTTPException)
        log.warning("%s: the interaction expired before it was answered (%s %s)", what, error.status, error.code)
        return
    log.error("%s failed", what, exc_info=error)
    # After a commit the request went through: saying "nothing was changed" would be false.
    key = "error.after-commit" if watch is not None and watch.committed else "error.internal"
    await say(interaction, t(key, locale_of(interaction)), what)


# The slot in which discord.py caches ``Interaction.response`` (its ``cached_slot_property``).
CACHED_RESPONSE = "_cs_response"


class TimedResponse(discord.InteractionResponse):
    """discord.py's answer object for one interaction, noting when its first answer went out
    (``meeple_interaction_answer_seconds{stage="first_answer"}``, counted from the interaction's
    creation at Discord, as Discord's 3-second deadline is). Every kind of answer (a message, a
    deferral, an edit, a modal, autocomplete) sets ``_response_type``: that one setter sees them all."""

    __slots__ = ("_timed_type", "_created")

    def __init__(self, parent: discord.Interaction) -> None:
        self._created = parent.created_at
        self._timed_type: discord.InteractionResponseType | None = None
        super().__init__(parent)

    @property
    def _response_type(self) -> discord.InteractionResponseType | None:
        return self._timed_type

    @_response_type.setter
    def _response_type(self, value: discord.InteractionResponseType | None) -> None:
        if value is not None and self._timed_type is None:
            waited = (discord.utils.utcnow() - self._created).total_seconds()
            metrics.ANSWER_SECONDS.labels(stage="first_answer").observe(max(0.0, waited))
        self._timed_type = value


def time_first_answer(interaction: discord.Interaction) -> None:
    """Give ``interaction`` a TimedResponse, unless something already used its answer object."""
    if not hasattr(interaction, CACHED_RESPONSE):
        setattr(interaction, CACHED_RESPONSE, TimedResponse(interaction))


async def seen(interaction: discord.Interaction) -> None:
    """Remember the language this user reads, for the DMs that reach them later.

    The first thing every command and click does: it also names the interaction, its table and
    its shard in the log's lines written while handling it (services.logs), and starts the clock of
    its first answer (services.metrics).
    """
    time_first_answer(interaction)
    note_interaction(interaction)
    flow: Flow | None = getattr(interaction.client, "flow", None)
    if flow is None:
        return
    try:
        flow.saw(interaction.user.id, discord_locale(interaction))  # stored in the background
    except Exception:  # never the reason a click or command goes unanswered
        log.exception("could not note the language of an interaction")


async def refuse(interaction: discord.Interaction, refusal: Refusal, game_id: int | None = None) -> None:
    """A refusal's private message (with a link to the current board when the clicked one is old)."""
    flow: Flow = interaction.client.flow  # type: ignore[attr-defined]
    row = None
    if refusal.key == "error.stale-board" and game_id is not None:
        row = await flow.service.db.get_game(game_id)
    try:
        await flow.refuse(interaction, refusal, row)
    except discord.HTTPException as exc:
        log.warning("could not tell a player %s: %s %s", refusal.key, exc.status, exc.code)


async def say(interaction: discord.Interaction, text: str, what: str) -> None:
    """Answer only the user, as a follow-up when the interaction was already deferred."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("%s: could not tell the player it failed: %s %s", what, exc.status, exc.code)
