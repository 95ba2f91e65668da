"""Every picture the bot posts says in words what it shows (the attachment's description, its alt
text), in its reader's language, within Discord's 1,024 characters; a channel picture's alt text
never names a secret (a hand's card, a secret contract)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.client import MeepleBot
from bot.howto_ui import labels, page_alt
from emulator.model import Message
from emulator.testing import running
from engine import GAMES, State
from l10n.words import game_title, t
from render.howto import pages
from services import alt_text
from tests.bot.test_discord_vivarium import SECRET_NAMES, open_and_start
from tests.support.driver import Table, is_board, mentioned, offered_actions, shown

LOCALES = ("en", "zh-TW", "pt-BR")
NAMES = ["Alice", "電腦 1（普通）", "João 🎲", "Dave"]


def private_ids(value: object) -> Iterator[str]:
    """Every ``"id"`` of a private view: the secrets the conformance suite keeps out of the public view."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            yield value["id"]
        for item in value.values():
            yield from private_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from private_ids(item)


def positions(game: str, players: int, seed: int, every: int = 5) -> Iterator[State]:
    """A seeded random game, every ``every``-th position and the final one."""
    spec = GAMES[game]
    state = spec.new(players, seed)
    rng = random.Random(seed)
    while state.outcome() is None:
        if state.version % every == 0:
            yield state
        seat = state.to_move()[0]
        legal = [a for a in state.legal_actions(seat) if spec.action_kind(a) not in ("concede", "resign")]
        state.apply(seat, rng.choice(legal))
    yield state


CASES = [("fox-duet", 2), ("noctiluca", 1), ("noctiluca", 3), ("vivarium", 2), ("vivarium", 4), ("tm-dice", 3)]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_every_board_says_whose_turn_the_choice_and_the_scores_in_each_language(game: str, players: int) -> None:
    names = NAMES[:players]
    for state in positions(game, players, seed=players):
        public = state.view(None)["public"]
        secrets = {i for seat in range(players) for i in private_ids(state.view(seat)["private"])}
        for loc in LOCALES:
            alt = alt_text.board(game, public, state.to_move(), names, loc, ["<@42> did a thing."], state.outcome())
            assert 0 < len(alt) <= alt_text.LIMIT
            title = game_title(game, loc)
            key = "alt.board.final" if state.outcome() is not None else "alt.board"
            assert alt.startswith(t(key, loc, game=title)), alt
            if state.outcome() is None:
                movers = [names[s] for s in state.to_move()]
                assert all(name in alt for name in movers), (loc, alt)  # whose turn
            assert "<@" not in alt and "**" not in alt, alt  # read aloud: no mention markup, no Markdown
            for secret in secrets:
                assert secret not in alt, f"a private id {secret!r} in a board's alt text: {alt!r}"


SCORES = {
    "noctiluca": lambda seat, loc: t("noctiluca.alt.tokens", loc, points=sum(x["value"] for x in seat["tokens"])),
    "vivarium": lambda seat, loc: t("vivarium.alt.creature-points", loc, points=seat["creature_points"]),
    "tm-dice": lambda seat, loc: t("tm-dice.alt.vp", loc, points=seat["vp"]),
}


@pytest.mark.parametrize("game", sorted(SCORES))
def test_a_boards_alt_text_gives_every_players_score_on_their_line(game: str) -> None:
    state = list(positions(game, 3, seed=5, every=7))[3]
    public = state.view(None)["public"]
    seats = public.get("players_info") or public["seats"]
    for loc in LOCALES:
        lines = alt_text.board(game, public, state.to_move(), NAMES[:3], loc).splitlines()
        for name, seat in zip(NAMES[:3], seats, strict=True):
            line = next(x for x in lines if x.startswith(name) and SCORES[game](seat, loc) in x)
            assert len(line) < 400, line


def test_the_fox_duet_board_tells_the_path_the_decree_and_the_trick() -> None:
    state = GAMES["fox-duet"].new(2, 3)
    state.apply(state.to_move()[0], state.legal_actions(state.to_move()[0])[0])  # a card in the trick
    public = state.view(None)["public"]
    alt = alt_text.board("fox-duet", public, state.to_move(), NAMES[:2], "en")
    assert f"space {public['tracker'] + 1} of 11" in alt and "Decree card: " in alt and "In the trick: " in alt


def test_vivarium_step_2_lists_the_cards_within_reach() -> None:
    for state in positions("vivarium", 2, seed=9, every=1):
        public = state.view(None)["public"]
        if public["phase"] == "take":
            break
    alt = alt_text.board("vivarium", public, state.to_move(), NAMES[:2], "en")
    for row, col in public["reachable"]:
        assert f"row {row}, column {col}: " in alt
    zh = alt_text.board("vivarium", public, state.to_move(), NAMES[:2], "zh-TW")
    assert "可拿取的卡：" in zh and "；" in zh


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_hand_is_described_to_its_owner(game: str) -> None:
    players = GAMES[game].min_players if GAMES[game].min_players > 1 else 2
    state = GAMES[game].new(players, 11)
    for loc in LOCALES:
        alt = alt_text.hand(game, state.view(0), loc)
        assert alt.startswith(t("alt.hand", loc, game=game_title(game, loc))) and len(alt) <= alt_text.LIMIT
        assert len(alt) > len(t("alt.hand", loc, game=game_title(game, loc))) + 10, alt


def test_a_past_board_and_a_replay_say_what_they_show() -> None:
    state = next(positions("noctiluca", 2, seed=3, every=9))
    for loc in LOCALES:
        alt = alt_text.past_board("noctiluca", state.view(None)["public"], NAMES[:2], loc, "After move 9 of 40")
        assert alt.startswith(t("alt.history", loc, game=game_title("noctiluca", loc))) and "After move 9" in alt
        replay = t("alt.replay", loc, game="Vivarium", players="Alice, Bob", count=31)
        assert "31" in replay and "Alice, Bob" in replay


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_how_to_play_page_says_its_numbered_labels(game: str) -> None:
    for loc in LOCALES:
        for index, page in enumerate(pages(game)):
            alt = page_alt(game, index, loc)
            assert 0 < len(alt) <= alt_text.LIMIT
            assert t(f"howto.{game}.{page}.title", loc) in alt
            assert all(label in alt for label in labels(game, page, loc)), alt


def test_alt_text_is_plain_and_within_discords_limit() -> None:
    text = alt_text.fit(["## **Board**", "<@7> and <@!8> [see](https://x.y/z) `code`", "x" * 2000], {7: "Alice"})
    assert text.startswith("Board\nAlice and see code\n") and len(text) == alt_text.LIMIT and text.endswith("…")
    assert alt_text.mentioned(["<@7> <@!8> <@7>"]) == [7, 8]


# -- through the emulator: every picture posted carries its alt text ------------------------------


def described(message: Message) -> list[str]:
    assert message.attachments, message.content
    for attachment in message.attachments:
        assert attachment.description and len(attachment.description) <= alt_text.LIMIT, attachment.filename
    return [a.description or "" for a in message.attachments]


def rows_of(message: Message) -> int:
    return len(message.components)


async def test_a_vivarium_game_fits_phones_and_describes_every_picture(emu, world, config_for) -> None:
    """No Vivarium message has more than 5 rows of components; every legal choice of the player to
    move is on the board (buttons and menus); every board, hand and DM picture has alt text, in the
    language of its reader, and a board's never names a secret starting contract."""
    mei = emu.add_user("mei", global_name="小美", locale="zh-TW")
    emu.add_member(world.guild, mei)
    users = [world.alice, mei]
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        bot.flow.delivery.edit_pace = 0.05  # a step within a turn edits the board: no need to wait 1.5 s
        await open_and_start(emu, world, users)
        row = await bot.db.active_game_in_channel(world.channel.id)
        table = Table(emu, world.channel, users)
        rng = random.Random(5)
        menus_seen = 0
        for _ in range(36):
            board = table.board()
            row = await bot.db.get_game(row.id)
            state = await bot.flow.service.state(row)
            assert rows_of(board) <= 5, [c for c in board.components]
            offered = {str(b["custom_id"]).split(":", 4)[4] for b in board.buttons() if "mp:act:" in b["custom_id"]}
            for menu in board.selects():
                if str(menu["custom_id"]).startswith("mp:pick:"):
                    menus_seen += 1
                    offered |= {str(o["value"]) for o in menu["options"]}
                    assert all(o.get("description") for o in menu["options"]), "each card and shift is explained"
            seat = state.to_move()[0]
            assert offered == {a.text for a in state.legal_actions(seat)}, "every legal choice is on the board"
            (alt,) = described(board)
            assert alt.startswith("Board of Vivarium.") and "Alice" in alt
            assert not any(name in alt for name in SECRET_NAMES)
            user = table.user(mentioned(board)[0])
            hand = await emu.click(user, board, label="My hand")
            panel = (await hand.followups(1))[0]
            assert rows_of(panel) <= 5
            (mine,) = described(panel)
            assert mine.startswith(t("alt.hand", user.locale, game=game_title("vivarium", user.locale)))
            chosen = rng.choice(sorted(offered))
            how, custom_id = offered_actions(board)[chosen]
            before = shown(board)
            if how == "click":
                await (await emu.click(user, board, custom_id=custom_id)).followups(1)
            else:
                await (await emu.select(user, board, custom_id, [chosen])).followups(1)
            # A new turn posts a new board; a later step of the same turn edits the turn's board.
            await emu.wait_until(lambda b=before: shown(table.board()) != b, what="the board of the move")
        assert menus_seen, "step 2 was offered at least once in menus"
        for user in users:
            for dm in emu.dms(user):
                if dm.attachments:
                    (alt,) = described(dm)
                    assert alt.startswith(t("alt.hand", user.locale, game=game_title("vivarium", user.locale)))
        for message in emu.messages(world.channel):
            if is_board(message):
                described(message)


async def test_a_stale_or_forged_pick_from_a_board_menu_is_refused_privately(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        bot.flow.delivery.edit_pace = 0.05
        users = [world.alice, world.bob]
        await open_and_start(emu, world, users)
        row = await bot.db.active_game_in_channel(world.channel.id)
        table = Table(emu, world.channel, users, random.Random(1))
        for _ in range(20):
            if any(str(m["custom_id"]).startswith("mp:pick:") for m in table.board().selects()):
                break
            await table.play_one()
        board = table.board()
        menu = next(m for m in board.selects() if str(m["custom_id"]).startswith("mp:pick:"))
        user = table.user(mentioned(board)[0])
        version = (await bot.db.get_game(row.id)).version
        # A value the menu never offered (a modified client): refused, nothing changes.
        forged = await emu.forge_component(
            user, board, menu["custom_id"], component_type=3, values=["take row=9 col=9"]
        )
        answer = (await forged.followups(1))[0]
        assert answer.ephemeral and not answer.content.startswith("Done"), answer.content
        assert (await bot.db.get_game(row.id)).version == version
        # The player's move: a step within the turn edits this board, whose menu has changed since.
        # The old menu's id, sent from the edited message (a modified or outdated client; Discord
        # itself refuses a component the message no longer has): refused privately, nothing changes.
        await table.play_one()
        moved = (await bot.db.get_game(row.id)).version
        if board.id == table.board().id and menu["custom_id"] not in {m["custom_id"] for m in board.selects()}:
            late = await emu.forge_component(
                user, board, menu["custom_id"], component_type=3, values=[menu["options"][0]["value"]]
            )
            answer = await late.final_message()
            assert answer.ephemeral and not answer.content.startswith("Done"), answer.content
            assert (await bot.db.get_game(row.id)).version == moved
        # A menu left on an older turn's board: out of date, with a pointer to the board.
        old = None
        for _ in range(40):
            turn = table.board()
            await table.play_one()
            if table.board().id != turn.id and any(str(m["custom_id"]).startswith("mp:pick:") for m in turn.selects()):
                old = turn
                break
        assert old is not None, "a later turn's board was posted while an older one still showed a menu"
        moved = (await bot.db.get_game(row.id)).version
        menu = next(m for m in old.selects() if str(m["custom_id"]).startswith("mp:pick:"))
        late = await emu.select(table.user(mentioned(old)[0]), old, menu["custom_id"], [menu["options"][0]["value"]])
        answer = (await late.followups(1))[0]
        assert answer.ephemeral and "out of date" in answer.content, answer.content
        assert (await bot.db.get_game(row.id)).version == moved


async def test_pictures_answered_privately_carry_alt_text_in_the_readers_language(emu, world, config_for) -> None:
    joao = emu.add_user("joao", global_name="João", locale="pt-BR")
    emu.add_member(world.guild, joao)
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await open_and_start(emu, world, [world.alice, world.bob])
        table = Table(emu, world.channel, [world.alice, world.bob], random.Random(3))  # João looks on
        for _ in range(3):
            await table.play_one()
        status = await (await emu.slash(joao, world.channel, "table status")).final_message()
        (alt,) = described(status)
        assert alt.startswith("Tabuleiro de Vivarium.")
        past = await (await emu.slash(joao, world.channel, "table history", {"step": 1})).final_message()
        (alt,) = described(past)
        assert alt.startswith(t("alt.history", "pt-BR", game="Vivarium"))
        guide = await (await emu.slash(joao, world.channel, "meeple rules", {"game": "vivarium"})).final_message()
        (alt,) = described(guide)
        assert alt.startswith("Como jogar Vivarium, página 1 de ")
