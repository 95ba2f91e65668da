"""What a newcomer hit: options for every game, clear wording, names on buttons,
the replay labelled, the right command to give up, and "My hand" after the end."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.client import MeepleBot
from bot.cogs.table import option_choices
from bot.posting import Poster
from emulator.testing import running
from engine import GAMES, Action
from l10n.words import t
from league.refusal import Refusal
from render.replay import replay_animation
from services.game_service import GameService
from services.storage.db import GameRow
from services.wording import adapter_for
from tests.bot.test_discord_table import join_and_start, open_table
from tests.bot.test_discord_vivarium import open_and_start
from tests.support.driver import is_board, offered_actions

GAME_IDS = sorted(GAMES)


# -- 1. options: discoverable and choosable for every game -------------------------------
@pytest.mark.parametrize("game", GAME_IDS)
async def test_the_options_autocomplete_fits_discords_limits_for_every_game(emu, world, config_for, game) -> None:
    """The emulator refuses a choice whose name is not 1-100 characters, as Discord does."""
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        typed = await emu.autocomplete(
            world.alice, world.channel, "table create", {"game": game, "options": ""}, "options"
        )
        choices = await typed.choices()
        assert choices, "every game says something about its options"
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100 and 1 <= len(choice["value"]) <= 100


@pytest.mark.parametrize("game", [g for g in GAME_IDS if not GAMES[g].options()])
async def test_a_game_without_options_says_so_and_its_choice_opens_a_table(emu, world, config_for, game) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        typed = await emu.autocomplete(
            world.alice, world.channel, "table create", {"game": game, "options": ""}, "options"
        )
        [choice] = await typed.choices()
        assert "has no options" in choice["name"] and GAMES[game].title in choice["name"]
        args = {"game": game, "options": choice["value"]}
        created = await emu.slash(world.alice, world.channel, "table create", args)
        assert "table is open" in (await created.final_message()).content
        row = await bot.db.active_game_in_channel(world.channel.id)
        assert row is not None and row.game == game and row.options == {}


def test_the_bad_option_message_gives_an_example_of_the_game_itself() -> None:
    service = GameService(db=None)  # type: ignore[arg-type]  # parse_options needs no database
    with pytest.raises(Refusal) as fox:
        service.parse_options("fox-duet", "speed=9")
    assert fox.value.key == "error.bad-option" and fox.value.values["example"] == "level=2"
    for game in ("noctiluca", "vivarium", "tm-dice"):
        with pytest.raises(Refusal) as other:
            service.parse_options(game, "level=2")
        text = t(other.value.key, "en", **other.value.values)
        assert "has no options" in text and "level=2" in text  # what was typed, not an example
        assert service.parse_options(game, "none") == {}


def test_every_autocomplete_choice_parses_back_to_its_options() -> None:
    service = GameService(db=None)  # type: ignore[arg-type]
    for game in GAME_IDS:
        for choice in option_choices(game, "", "en"):
            service.parse_options(game, choice.value)


async def test_the_lobby_names_its_menu_only_when_the_game_has_options(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        lobby = await open_table(emu, world)
        assert "with the menu" in lobby.content
        options = [m["placeholder"] for m in lobby.selects() if ":opt:" in m["custom_id"]]
        assert options == ["Level: choose", "Memory aid: choose"]
        await (await emu.slash(world.alice, world.channel, "table abandon")).final_message()
        created = await emu.slash(world.alice, world.channel, "table create", {"game": "vivarium"})
        await created.final_message()
        viv = emu.last_message(world.channel)
        assert "Vivarium" in viv.content and "menu" not in viv.content
        assert [m["placeholder"] for m in viv.selects()] == ["Table language"], "no option menus, only the language's"
        assert "needs 2 to 4" in viv.content


# -- 4. Vivarium: the card taken is named, not the one that refilled its space ------------
async def test_vivarium_confirmation_names_the_card_taken(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await open_and_start(emu, world, [world.alice, world.bob])
        row = await bot.db.active_game_in_channel(world.channel.id)
        for _ in range(10):  # the opening swaps of contracts come first
            row = await bot.db.get_game(row.id)
            state = await bot.flow.service.state(row)
            seat = state.to_move()[0]
            take = next((a for a in state.legal_actions(seat) if a.verb == "take"), None)
            if take is not None:
                break
            first = state.legal_actions(seat)[0].text
            result = await bot.flow.service.act(row.id, [world.alice, world.bob][seat].id, None, first)
            await bot.flow.after_move(result)
        assert take is not None
        user = [world.alice, world.bob][seat]
        await emu.wait_until(
            lambda: (
                is_board(emu.last_message(world.channel))
                and take.text in offered_actions(emu.last_message(world.channel))
            ),
            what="the board offering cards",
        )
        adapter = adapter_for("vivarium")
        before = adapter.action_label(take, state.view(seat), "en")
        board = next(m for m in reversed(emu.messages(world.channel)) if is_board(m))
        how, custom_id = offered_actions(board)[take.text]
        if how == "click":
            clicked = await emu.click(user, board, custom_id=custom_id)
        else:  # the cards are offered in a menu when there are several
            clicked = await emu.select(user, board, custom_id, [take.text])
        answer = (await clicked.followups(1))[0]
        after_state = await bot.flow.service.state(await bot.db.get_game(row.id))
        after = adapter.action_label(take, after_state.view(seat), "en")
        assert before != after, "the space was refilled with another card"
        assert answer.ephemeral and before in answer.content and after not in answer.content


# -- 5. Fox Duet: directions named after the players -------------------------------------
def test_fox_direction_buttons_name_the_players() -> None:
    adapter = adapter_for("fox-duet")
    names = ["Alice", "Bob"]
    assert adapter.action_label(Action("toward 0"), {}, "en", names) == "Toward Alice's end"
    assert adapter.action_label(Action("forest end=1"), {}, "en", names) == "Forest token on Bob's end"
    assert adapter.action_label(Action("toward 1"), {}, "en") == "Toward Player 2's end"


def test_the_fox_board_buttons_carry_the_names() -> None:
    """Play random Duet games until a public direction choice comes up; the board's buttons name the players."""
    flow = Poster(bot=None, service=None)  # type: ignore[arg-type]  # public_choices uses neither
    now = datetime.now(UTC)
    row = GameRow(1, "fox-duet", None, 1, "running", {}, 0, 1, 0, None, None, None, None, None, now, now, None)
    rng = random.Random(3)
    for seed in range(40):
        state = GAMES["fox-duet"].new(2, seed)
        while state.outcome() is None:
            actions = [a for s in state.to_move() for a in state.legal_actions(s)]
            if any(a.verb in ("toward", "forest") for a in actions):
                items = flow.public_choices(row, state, state.view(None), ["Alice", "Bob"])
                labels = [i.item.label for i in items]
                assert any("Alice's end" in label or "Bob's end" in label for label in labels), labels
                assert not any("player 1" in label.lower() or "player 2" in label.lower() for label in labels)
                return
            seat = state.to_move()[0]
            state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a.verb != "concede"]))
    pytest.fail("no direction choice came up in 40 games")


# -- 6. the replay is labelled as the replay of the whole game ---------------------------
def test_replay_frames_carry_a_caption_band() -> None:
    state = GAMES["fox-duet"].new(2, 1)
    publics = [state.view(None)["public"]] * 2
    plain, _ = replay_animation("fox-duet", publics, ["A", "B"])
    labelled, _ = replay_animation("fox-duet", publics, ["A", "B"], caption=lambda s, n: f"REPLAY {s}/{n}")
    first = Image.open(io.BytesIO(labelled)).convert("RGB")
    unlabelled = Image.open(io.BytesIO(plain)).convert("RGB")
    band = first.crop((0, 0, first.width, 20)).getcolors(1 << 16)
    dark = sum(count for count, colour in band if max(colour) < 60)
    assert dark > first.width * 20 * 0.6, "a dark caption band across the top"
    assert first.crop((0, 0, first.width, 20)).tobytes() != unlabelled.crop((0, 0, first.width, 20)).tobytes()
    # The band is added above the board, which is shown whole beneath it.
    assert first.width == unlabelled.width and first.height > unlabelled.height


async def test_the_final_board_says_the_replay_is_of_the_whole_game(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await join_and_start(emu, world, await open_table(emu, world))
        asked = await emu.slash(world.alice, world.channel, "table resign")
        confirm = await asked.final_message()
        await (await emu.click(world.alice, confirm, label=confirm.buttons()[0]["label"])).response()

        def replayed() -> bool:
            boards = [m for m in emu.messages(world.channel) if is_board(m)]
            return bool(boards) and any(a.filename.startswith("replay.") for a in boards[-1].attachments)

        await emu.wait_until(replayed, what="the replay attached to the final board", timeout=60)
        final = [m for m in emu.messages(world.channel) if is_board(m)][-1]
        assert "animated replay of the whole game" in final.content


# -- 7. leaving a started game points to the command that applies ------------------------
async def test_leave_and_concede_point_competitive_games_to_resign(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await open_and_start(emu, world, [world.alice, world.bob])
        left = await (await emu.slash(world.bob, world.channel, "table leave")).final_message()
        # The commands are mentions (</table resign:ID>): a click puts them in the message box.
        assert "</table resign:" in left.content and "</table concede:" not in left.content
        conceded = await (await emu.slash(world.bob, world.channel, "table concede")).final_message()
        assert "</table resign:" in conceded.content


async def test_leave_points_the_fox_team_to_concede(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))):
        await join_and_start(emu, world, await open_table(emu, world))
        left = await (await emu.slash(world.bob, world.channel, "table leave")).final_message()
        assert "</table concede:" in left.content


# -- 10. wording -------------------------------------------------------------------------
def test_counts_of_one_read_in_the_singular() -> None:
    assert t("fox-duet.footprints", "en", count=1) == "1 footprint"
    assert t("fox-duet.event.trick-won", "en", name="Alice", trick=2, steps=1, end="Bob's end").endswith(
        "1 step toward Bob's end."
    )
    assert t("fox-duet.event.ignored-none", "en", name="Alice", steps=1).endswith("1 step.")
    assert t("error.player-count.exact", "en", game="X", low=2, high=2, count=1).startswith(
        "X needs exactly 2 players; 1 is seated."
    )


def test_noctiluca_pass_prompt_for_a_single_die() -> None:
    adapter = adapter_for("noctiluca")
    for seed in range(200):
        state = GAMES["noctiluca"].new(2, seed)
        while state.outcome() is None:
            public = state.view(None)["public"]
            pending = public.get("pending") or {}
            if public.get("phase") == "pass" and len(pending.get("dice", [])) == 1:
                text = adapter.prompt(public, ["@Bob"], "en")
                assert "Store it, or not." in text and "one of them" not in text
                return
            seat = state.to_move()[0]
            actions = [a for a in state.legal_actions(seat) if a.verb not in ("resign", "concede")]
            state.apply(seat, actions[(seed + state.version) % len(actions)])
    pytest.skip("no single-die pass came up")


# -- 11. My hand after the end says the game is over -------------------------------------
async def test_my_hand_on_a_finished_game_says_it_is_over(emu, world, config_for) -> None:
    async with running(emu, MeepleBot(config_for(emu, world.guild.id))) as bot:
        await join_and_start(emu, world, await open_table(emu, world))
        row = await bot.db.active_game_in_channel(world.channel.id)
        await bot.flow.service.resign(row.id, world.alice.id)
        board = next(m for m in emu.messages(world.channel) if is_board(m))
        shown = await emu.click(world.bob, board, custom_id=f"mp:hand:{row.id}")
        answer = (await shown.followups(1))[0]
        assert answer.ephemeral and answer.content.startswith("**This game is over.**")


# -- 8. Noctiluca: the shore and the path are not chosen blind ---------------------------
def noctiluca_at(phase: str) -> object:
    state = GAMES["noctiluca"].new(2, 1)
    while state.view(None)["public"]["phase"] != phase:
        seat = state.to_move()[0]
        state.apply(seat, [a for a in state.legal_actions(seat) if a.verb != "resign"][0])
    return state


def test_noctiluca_shore_and_path_buttons_say_what_they_reach() -> None:
    adapter = adapter_for("noctiluca")
    shore_state = noctiluca_at("shore")
    view = shore_state.view(None)
    shore = next(a for a in shore_state.legal_actions(shore_state.to_move()[0]) if a.verb == "shore")
    label = adapter.action_label(shore, view, "en")
    paths = view["public"]["shores"][int(shore.args[0]) - 1]["paths"]
    count = {k: sum(len(view["public"]["spaces"][s]["dice"]) for s in paths[k]) for k in paths}
    assert label == f"Shore {shore.args[0]}: short path {count['short']} dice, long {count['long']}"
    path_state = noctiluca_at("path")
    view = path_state.view(None)
    labels = [adapter.action_label(a, view, "en") for a in path_state.legal_actions(path_state.to_move()[0])]
    assert labels[0].startswith("S · Short path: ") and labels[1].startswith("L · Long path: ")
    assert all("blue" in x or "green" in x or "orange" in x or "purple" in x for x in labels)


def test_noctiluca_board_marks_both_paths_at_the_path_step() -> None:
    from render.noctiluca import HEX, PATH_EDGE, board, hex_centre

    state = noctiluca_at("path")
    public = state.view(None)["public"]
    posted = board(public, ["Alice", "Bob"])
    below = posted.info["board_offset"]  # the board under the phone band of key lines
    image = posted.convert("RGB")
    paths = public["shores"][public["pending"]["shore"] - 1]["paths"]
    for kind in ("short", "long"):
        for sid in paths[kind]:
            space = public["spaces"][sid]
            x, y = hex_centre(space["q"], space["r"])
            # the tag's disc, beside its letter
            assert image.getpixel((round(x) - 12, round(y - HEX + 12) + below)) == PATH_EDGE[kind], (kind, sid)
