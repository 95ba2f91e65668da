"""``/meeple my-data`` and ``/meeple forget-me`` on Discord (README, "Privacy").

The export goes only to the player who asks, as a file on a private answer. Forgetting asks
first: a persistent button (``mp:forget:<user id>``) that only that user can press, answered
through the components' one error path (bot.ui.Answered). The work itself is services.player_data's.
"""

from __future__ import annotations

import gzip
import io
from typing import TYPE_CHECKING, Any

import discord

from bot.answers import answered, locale_of
from bot.ui import PREFIX, Answered, flow_of
from l10n.words import t
from league.refusal import Refusal
from services import player_data as privacy
from services.storage import privacy as store

if TYPE_CHECKING:
    from bot.flow import Flow

EXPORT_NAME = "meeple-post-my-data.json"
ATTACHMENT_LIMIT = 8 * 1024 * 1024  # bytes: within what Discord takes from a bot in any server


async def send_my_data(flow: Flow, interaction: discord.Interaction) -> None:
    """The player's data as a JSON file (gzipped when large), on an answer only they see."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await store.export(flow.service.db, interaction.user.id)
    content, name = store.export_json(data).encode(), EXPORT_NAME
    if len(content) > ATTACHMENT_LIMIT:
        content, name = gzip.compress(content), name + ".gz"
    if len(content) > ATTACHMENT_LIMIT:
        raise Refusal("privacy.my-data-too-large")
    file = discord.File(io.BytesIO(content), filename=name, description=t("alt.my-data", locale_of(interaction)))
    await flow.private(interaction, t("privacy.my-data", locale_of(interaction)), file=file)


async def ask_forget(flow: Flow, interaction: discord.Interaction) -> None:
    """Say what forgetting does (and how many open tables it settles), with the button that does it."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loc = locale_of(interaction)
    tables = len(await store.open_games(flow.service.db, interaction.user.id))
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(interaction.user.id, loc))
    await flow.private(interaction, t("privacy.forget-ask", loc, count=tables), view=view)


async def forget(flow: Flow, interaction: discord.Interaction) -> None:
    """Settle the player's open tables (each announced in its channel), then forget them."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loc = locale_of(interaction)
    user_id = interaction.user.id
    db = flow.service.db
    number = await privacy.reserve(db)
    tables = [game_id for game_id, _ in await store.open_games(db, user_id)]
    names = await store.names_of(db, user_id)  # before a computer takes her seat, and its name
    left = await privacy.leave_games(
        flow.service, user_id, number, flow.locale, takeover=flow.computer_turns is not None
    )
    for gone in left:
        public = flow.table_locale(gone.row)
        who = privacy.former(number, public)
        if gone.how == "resigned" and gone.result is not None:
            line = t("resign.public", public, player=who)
            await flow.after_move(gone.result, before=[line], forfeited={gone.result.seat})
        elif gone.how == "computer":
            await flow.announce(gone.row, t("computer.took-over.resign", public, player=who, computer=gone.computer))
            if flow.computer_turns is not None:
                flow.computer_turns.poke(gone.game_id)
        elif gone.how == "ended":
            await flow.announce(gone.row, t("privacy.game-ended", public, player=who))
        else:
            await flow.refresh_lobby(gone.row)
    # The boards being delivered for her tables (what they show names her) wait meanwhile.
    async with flow.delivery.forgetting(tables):
        await store.forget(db, user_id, number=number, names=names)
    flow.poster.forget_locale(user_id)  # the language last seen from them, kept in memory too
    await flow.private(interaction, t("privacy.forgotten", loc, count=len(left)))


class ForgetButton(Answered, discord.ui.DynamicItem[discord.ui.Button], template=r"mp:forget:(?P<uid>\d+)"):
    """Forget me (after /meeple forget-me asks to confirm): only its own user may press it."""

    game_id = 0  # no game of its own

    def __init__(self, user_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("privacy.forget-button", locale),
                style=discord.ButtonStyle.danger,
                custom_id=f"{PREFIX}:forget:{user_id}",
            )
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ForgetButton:
        return cls(int(match["uid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # The one error path, as every Answered item; the log names no game for it.
        await answered(interaction, lambda: self.checked(interaction), type(self).__name__)

    async def handle(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise Refusal("privacy.not-yours")
        await forget(flow_of(interaction), interaction)


PRIVACY_ITEMS = (ForgetButton,)
