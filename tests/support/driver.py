"""Drive Meeple Post through the emulator the way people do: read messages, press buttons."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from emulator.emulator import Emulator
from emulator.model import Channel, Message, User

MENTION = re.compile(r"<@!?(\d+)>")


def is_board(message: Message) -> bool:
    return any(a.filename == "board.png" for a in message.attachments)


def mentioned(message: Message) -> list[int]:
    return [int(m) for m in MENTION.findall(message.content)]


def shown(message: Message) -> tuple[int, int]:
    """Which board a message shows: a step within a turn edits the turn's board message."""
    return message.id, message.edit_count


def notified(message: Message) -> list[int]:
    """The users a message pinged when it was posted (an edit pings nobody)."""
    return list(message.notified_ids)


def action_buttons(message: Message) -> list[dict]:
    return [b for b in message.buttons() if str(b.get("custom_id", "")).startswith("mp:act:")]


def action_menus(message: Message) -> list[dict]:
    """The menus of actions on a message (a board groups many choices in menus, Vivarium's cards)."""
    return [s for s in message.selects() if str(s.get("custom_id", "")).startswith("mp:pick:")]


def offered_actions(message: Message) -> dict[str, tuple[str, str]]:
    """Every action a message offers: its text -> ("click" or "select", the component's custom id)."""
    offered = {action_of(b["custom_id"]): ("click", str(b["custom_id"])) for b in action_buttons(message)}
    for menu in action_menus(message):
        offered.update({str(o["value"]): ("select", str(menu["custom_id"])) for o in menu.get("options", [])})
    return offered


def labels(message: Message) -> list[str]:
    """Every visible label of a message's components (buttons and menu options)."""
    found = [str(b.get("label", "")) for b in message.buttons()]
    for select in message.selects():
        found += [str(o.get("label", "")) for o in select.get("options", [])]
        found += [str(o.get("description", "") or "") for o in select.get("options", [])]
    return found


def action_of(custom_id: str) -> str:
    """The engine action a button stands for: ``mp:act:<game>:<version>:<action>``."""
    return custom_id.split(":", 4)[4]


# Picks the action text a user plays among those offered (a random one unless a test says).
Chooser = Callable[[User, list[str]], Awaitable[str]]


@dataclass
class Table:
    """One or more users playing in one channel, choosing among what they are offered.

    They choose at random, or with ``chooser`` (for example a goal-seeking player that reads
    the game's state to finish long games quickly); either way they only press what is shown.
    """

    emu: Emulator
    channel: Channel
    users: list[User]
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    moves: int = 0
    chooser: Chooser | None = None

    async def pick(self, user: User, offered: list[str]) -> str:
        if self.chooser is None:
            return self.rng.choice(offered)
        choice = await self.chooser(user, offered)
        assert choice in offered, f"the chooser picked {choice!r}, which is not offered: {offered}"
        return choice

    def user(self, user_id: int) -> User:
        return next(u for u in self.users if u.id == user_id)

    def boards(self) -> list[Message]:
        return [m for m in self.emu.messages(self.channel) if is_board(m)]

    def board(self) -> Message:
        boards = self.boards()
        assert boards, "no board has been posted"
        return boards[-1]

    def finished(self) -> bool:
        """A finished game's board offers no choices and no hand, only its log."""
        board = self.board()
        return not any(b.get("label") == "My hand" for b in board.buttons()) and not offered_actions(board)

    async def play_one(self) -> Message:
        """Make the next move: a public button on the board, or a choice from 'My hand'."""
        board = self.board()
        before = shown(board)
        movers = mentioned(board)
        assert movers, f"the board mentions nobody to act: {board.content!r}"
        user = self.user(movers[0])
        public = offered_actions(board)
        if public:
            chosen = await self.pick(user, list(public))
            how, custom_id = public[chosen]
            if how == "click":
                result = await self.emu.click(user, board, custom_id=custom_id)
            else:
                result = await self.emu.select(user, board, custom_id, [chosen])
        else:
            hand = await self.emu.click(user, board, label="My hand")
            panel = (await hand.followups(1))[0]
            buttons = action_buttons(panel)
            if buttons:
                by_action = {action_of(b["custom_id"]): b["custom_id"] for b in buttons}
                chosen = await self.pick(user, list(by_action))
                result = await self.emu.click(user, panel, custom_id=by_action[chosen])
            else:
                menu = panel.selects()
                assert menu, f"'My hand' offered no choice on the user's turn: {panel.content!r}"
                value = await self.pick(user, [o["value"] for o in menu[0]["options"]])
                result = await self.emu.select(user, panel, menu[0]["custom_id"], [value])
        answer = (await result.followups(1))[0]
        assert not result.errors, f"Discord refused the bot's answer: {result.errors}"
        assert answer.content.startswith("Done"), answer.content
        self.moves += 1
        # The answer may come before the board ("on its way", on a busy machine): the next move
        # is made from the new board (a new message, or the turn's message edited), so wait for
        # it rather than race it.
        await self.emu.wait_until(lambda: shown(self.board()) != before, what="the board of the move")
        return answer


PROPOSAL = "Yes, we concede"


def proposal(emu: Emulator, channel: Channel) -> Message:
    """The latest team concession proposal still open in the channel."""
    open_ones = [m for m in emu.messages(channel) if any(b.get("label") == PROPOSAL for b in m.buttons())]
    assert open_ones, "no open proposal to concede"
    return open_ones[-1]


async def ask_to_concede(emu: Emulator, channel: Channel, proposer: User) -> Message:
    """``/table concede`` at a team game, confirmed: the partner is asked in the channel."""
    asked = await (await emu.slash(proposer, channel, "table concede")).final_message()
    assert asked.ephemeral, asked.content
    await (await emu.click(proposer, asked, label="Ask my partner to concede")).response()
    await emu.wait_until(lambda: any(b.get("label") == PROPOSAL for m in emu.messages(channel) for b in m.buttons()))
    # Asked once: the private confirmation says so and loses its button.
    await emu.wait_until(lambda: "partner is asked" in asked.content and not asked.buttons(), what="the answer")
    return proposal(emu, channel)


async def concede_together(emu: Emulator, channel: Channel, proposer: User, partner: User) -> Message:
    """The team gives up: one asks, the partner agrees; the partner's private answer."""
    asked = await ask_to_concede(emu, channel, proposer)
    return await (await emu.click(partner, asked, label=PROPOSAL)).final_message()
