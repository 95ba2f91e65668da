"""How to play: a short illustrated guide per game, answered privately and browsed page by page.

The buttons carry the game and the page in their custom id (not a table), so the guide opens from
``/meeple rules``, a lobby or a board alike, and keeps working after a restart.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.answers import clip, locale_of
from bot.ui import ELSEWHERE, Answered, custom_ids_on, flow_of
from engine import GAMES
from l10n.words import game_title, t
from league.refusal import Refusal
from render.howto import SCENES, pages
from services import alt_text
from services.howto_pictures import labels, page_png

OPEN = "o"


def guide_exists(game_id: str) -> bool:
    return game_id in GAMES and game_id in SCENES


def howto_button(game_id: str, loc: str) -> HowtoPage:
    """The lobby's and the board's 'How to play' button: opens page 1 in a new private message."""
    item = HowtoPage(game_id, 0, OPEN, t("howto.button", loc))
    item.item.emoji = "\N{OPEN BOOK}"
    return item


class HowtoPage(
    Answered,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mp:howto:(?P<game>[a-z0-9-]{1,40}):(?P<page>\d{1,2}):(?P<tag>[a-z])",
):
    """A page of a game's guide (the tag only keeps the pager's custom ids distinct); like every
    component, it answers through the one error path (``Answered``)."""

    def __init__(self, game_id: str, page: int, tag: str, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or tag,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"mp:howto:{game_id}:{page}:{tag}",
            )
        )
        self.game, self.page, self.tag = game_id, page, tag
        self.game_id = 0  # no table behind a guide (the error path's log names the item by its kind)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> HowtoPage:
        return cls(match["game"], int(match["page"]), match["tag"])

    async def handle(self, interaction: discord.Interaction) -> None:
        if self.tag == OPEN:  # from a lobby or a board: a new private message, never an edit of theirs
            await interaction.response.defer(ephemeral=True, thinking=True)
            await show_page(interaction, self.game, 0, edit=False)
            return
        own_page(interaction, self.game)
        await interaction.response.defer()
        await show_page(interaction, self.game, self.page, edit=True)


def own_page(interaction: discord.Interaction, game_id: str) -> None:
    """Refuse a page button clicked anywhere but on one of this guide's own pages, which its answer
    rewrites: the clicker's private message (Discord's ephemeral flag, never a public board or
    lobby) whose buttons are all this guide's pager. Read from the message as Discord sends it,
    not from the custom id a modified client chooses."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        raise Refusal(ELSEWHERE)
    template = HowtoPage.__discord_ui_compiled_template__
    matches = [template.fullmatch(custom_id) for _, custom_id in custom_ids_on(message)]
    if not matches or not all(m and m["tag"] != OPEN and m["game"] == game_id for m in matches):
        raise Refusal(ELSEWHERE)


def pager(game_id: str, current: int, last: int, loc: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for tag, target, key in (
        ("a", 0, "howto.first"),
        ("b", current - 1, "howto.back"),
        ("c", current + 1, "howto.next"),
    ):
        disabled = target < 0 or target > last or target == current
        view.add_item(HowtoPage(game_id, max(0, min(target, last)), tag, t(key, loc), disabled))
    return view


def page_text(game_id: str, index: int, loc: str) -> str:
    names = pages(game_id)
    page = names[index]
    lines = [
        t("howto.header", loc, game=game_title(game_id, loc), page=index + 1, pages=len(names)),
        f"## {t(f'howto.{game_id}.{page}.title', loc)}",
        t(f"howto.{game_id}.{page}.text", loc),
    ]
    return clip("\n".join(lines))


def page_alt(game_id: str, index: int, loc: str) -> str:
    """The page's picture in words: which game and page, and what its numbered labels point at."""
    page = pages(game_id)[index]
    title = t(f"howto.{game_id}.{page}.title", loc)
    head = t("alt.howto", loc, game=game_title(game_id, loc), page=index + 1, pages=len(pages(game_id)), title=title)
    marks = [t("alt.howto.label", loc, number=n, label=label) for n, label in enumerate(labels(game_id, page, loc), 1)]
    return alt_text.fit([head, *marks])


async def show_page(interaction: discord.Interaction, game_id: str, page: int, edit: bool) -> None:
    """Answer privately with a page of the guide (a new message, or the pager's own message edited)."""
    loc = locale_of(interaction)
    if not guide_exists(game_id):
        await flow_of(interaction).private(interaction, t("howto.unknown-game", loc))
        return
    last = len(pages(game_id)) - 1
    index = max(0, min(page, last))
    png = await flow_of(interaction).pictures.draw(page_png, game_id, index, loc)  # in a drawing worker
    file = discord.File(io.BytesIO(png), filename="how-to-play.png", description=page_alt(game_id, index, loc))
    text, view = page_text(game_id, index, loc), pager(game_id, index, last, loc)
    if edit:
        await interaction.edit_original_response(content=text, attachments=[file], view=view)
    else:
        await interaction.followup.send(text, file=file, view=view, ephemeral=True)


HOWTO_ITEMS = (HowtoPage,)
