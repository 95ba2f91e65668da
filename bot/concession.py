"""A team's concession in a co-operative game (the Fox Duet): the team gives up together.

Nobody alone ends a co-operative game for their partner. ``/table concede`` asks the player to
confirm; their confirmation posts a proposal in the game's channel, naming the partner, with two
buttons: the partner's "Yes, we concede" ends the game (lost for the team, as the rules' own
concession), "Keep playing" (the partner's, or the proposer's, who withdraws) closes the
proposal. A computer partner agrees at once: it never holds a person in a game they want to end.

The proposal is stored nowhere: its buttons carry the game, the state version it was made at and
the proposer's seat, and discord.py only dispatches a button that stands on the message clicked,
so a "yes" exists only where the bot posted the proposer's request. A move made since lapses it
(the position it was made in is gone); a concession is then asked again.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.answers import locale_of
from bot.ui import ELSEWHERE, PREFIX, Answered, flow_of
from engine import GAMES, State
from l10n.words import listing, t
from league.refusal import Refusal
from services import computer_turns as computers
from services.storage import GameRow
from services.wording import adapter_for

MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def is_team_game(game: str, players: int) -> bool:
    """Whether a game is given up by its team together: a co-operative game (its rules declare a
    concession, not a resignation) played by more than one person."""
    return players > 1 and adapter_for(game).give_up_command == "concede"


def conceding_seat(state: State) -> int | None:
    """A seat to move that may play the rules' concession (the engine offers it to a seat to move)."""
    for seat in state.to_move():
        if any(state.action_kind(a) == "concede" for a in state.legal_actions(seat)):
            return seat
    return None


def lone_concession(game: str, action: str) -> bool:
    """Whether ``action`` would end a team game on one player's word (refused: the team decides)."""
    return GAMES[game].action_kind(action) == "concede" and adapter_for(game).give_up_command == "concede"


async def ask(interaction: discord.Interaction, row: GameRow, seat: int, state: State) -> None:
    """``/table concede`` at a team game: the player's private confirmation, which asks the partner."""
    flow = flow_of(interaction)
    loc = locale_of(interaction)
    if conceding_seat(state) is None:
        raise Refusal("error.concede-later")
    users = await flow.service.seat_users(row.id)
    partners = [user for other, user in enumerate(users) if other != seat]
    if all(computers.is_computer(user) for user in partners):
        names = await computers.seat_labels(flow.service.db, row.id, users, loc)
        others = listing([names[s] for s in range(len(users)) if s != seat], loc)
        text, label = t("concede.team.ask-computer", loc, partner=others), t("concede.team.confirm", loc)
    else:
        text, label = t("concede.team.ask", loc), t("concede.team.ask-button", loc)
    view = discord.ui.View(timeout=None)
    view.add_item(TeamConcede(row.id, state.version, seat, "ask", label))
    await flow.private(interaction, text, view=view)


async def concede_now(interaction: discord.Interaction, row: GameRow, state: State, line: str) -> None:
    """Play the rules' concession for the team (as a seat to move), with ``line`` on the board."""
    flow = flow_of(interaction)
    mover = conceding_seat(state)
    if mover is None:
        raise Refusal("error.concede-later")
    users = await flow.service.seat_users(row.id)
    result = await flow.service.act(row.id, users[mover], row.version, "concede")
    await flow.after_move(result, before=[line])


class TeamConcede(
    Answered,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mp:team:(?P<gid>\d+):(?P<ver>\d+):(?P<seat>\d{1,2}):(?P<op>ask|yes|no)",
):
    """The team concession's buttons: the proposer's confirmation (``ask``), then on the public
    proposal the partner's agreement (``yes``) or either's "keep playing" (``no``)."""

    def __init__(self, game_id: int, version: int, seat: int, op: str, label: str = "") -> None:
        style = discord.ButtonStyle.secondary if op == "no" else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=label or op, style=style, custom_id=f"{PREFIX}:team:{game_id}:{version}:{seat}:{op}"
            )
        )
        self.game_id, self.version, self.seat, self.op = game_id, version, seat, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> TeamConcede:
        return cls(int(match["gid"]), int(match["ver"]), int(match["seat"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        if self.op == "ask":  # the proposer's own private confirmation, rewritten with the outcome
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        flow = flow_of(interaction)
        loc = locale_of(interaction)
        row, clicker, state = await flow.service.running_seat(self.game_id, interaction.user.id)
        if not is_team_game(row.game, state.players) or self.seat >= state.players:
            raise Refusal(ELSEWHERE)
        table = flow.table_locale(row)
        if self.op == "no":  # the partner keeps playing, or the proposer takes it back
            if interaction.message is not None:
                text = t("concede.team.declined", table, player=interaction.user.mention)
                await interaction.message.edit(content=text, view=None, allowed_mentions=discord.AllowedMentions.none())
            await flow.private(interaction, t("concede.team.kept", loc))
            return
        if row.version != self.version:
            raise Refusal("concede.team.lapsed")
        if self.op == "ask":
            if clicker != self.seat:
                raise Refusal(ELSEWHERE)
            await self.propose(interaction, row, state, table)
            return
        if clicker == self.seat:
            raise Refusal("concede.team.partner-decides")
        users = await flow.service.seat_users(row.id)
        together = listing([f"<@{users[self.seat]}>", interaction.user.mention], table)
        await concede_now(interaction, row, state, t("concede.team.public", table, players=together))
        if interaction.message is not None:  # the proposal is answered: its buttons go
            text = t("concede.team.accepted", table, player=interaction.user.mention)
            await interaction.message.edit(content=text, view=None, allowed_mentions=discord.AllowedMentions.none())
        await flow.private(interaction, t("concede.team.done", loc))

    async def propose(self, interaction: discord.Interaction, row: GameRow, state: State, table: str) -> None:
        """The proposer confirmed: a computer partner agrees at once; a person is asked in public."""
        flow = flow_of(interaction)
        loc = locale_of(interaction)
        users = await flow.service.seat_users(row.id)
        partners = [user for other, user in enumerate(users) if other != self.seat]
        if all(computers.is_computer(user) for user in partners):
            names = await computers.seat_labels(flow.service.db, row.id, users, table)
            others = listing([names[s] for s in range(len(users)) if s != self.seat], table)
            line = t("concede.team.public-computer", table, player=interaction.user.mention, partner=others)
            await concede_now(interaction, row, state, line)
            await interaction.edit_original_response(content=t("concede.team.done", loc), view=None)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(TeamConcede(row.id, row.version, self.seat, "yes", t("concede.team.yes", table)))
        view.add_item(TeamConcede(row.id, row.version, self.seat, "no", t("concede.team.no", table)))
        people = listing([f"<@{user}>" for user in partners if not computers.is_computer(user)], table)
        text = t("concede.team.proposed", table, player=interaction.user.mention, partner=people)
        await flow.channel(row).send(text, view=view, allowed_mentions=MENTIONS)
        # Asked once: the confirmation loses its button (a second click would ask twice).
        await interaction.edit_original_response(content=t("concede.team.asked", loc), view=None)


TEAM_ITEMS = (TeamConcede,)
