"""Every body the bot sends is checked against Discord's API description and documented limits,
every answer against the description: each kind of refusal, and what Discord accepts."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import aiohttp
import discord
import pytest

from emulator import Emulator, payloads, spec
from emulator.commands import command_size
from emulator.errors import ApiError
from emulator.model import Message
from emulator.testing import CLIENT_OPTIONS, World, running
from tests.emulator.sample_bot import SampleBot, channel_of


async def call(emu: Emulator, method: str, path: str, payload: Any = None, *, form: bool = False) -> tuple[int, Any]:
    """A request as the bot would make it (its token), JSON or multipart with `payload_json`."""
    headers = {"Authorization": f"Bot {emu.bot_token}"}
    async with aiohttp.ClientSession() as session:
        if form:
            data = aiohttp.FormData()
            data.add_field("payload_json", json.dumps(payload), content_type="application/json")
            data.add_field("files[0]", b"board", filename="board.png", content_type="image/png")
            request = session.request(method, emu.api_base + path, data=data, headers=headers)
        else:
            request = session.request(method, emu.api_base + path, json=payload, headers=headers)
        async with request as response:
            body = await response.json() if response.content_type == "application/json" else None
            return response.status, body


def refusal(emu: Emulator, status: int, body: Any) -> str:
    """The one form error of a 400 50035 as `field: message`; takes it off `emu.invalid_requests`."""
    assert (status, body["code"]) == (400, 50035), body
    assert len(emu.invalid_requests) == 1, emu.invalid_requests
    emu.invalid_requests.clear()  # refused on purpose (assert_clean fails on any other)
    path, node = [], body["errors"]
    while "_errors" not in node:
        (key, node), *_ = node.items()
        path.append(key)
    return f"{'.'.join(path)}: {node['_errors'][0]['message']}"


def command(name: str = "table", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": 1, "description": "Tables", **extra}


def commands_path(emu: Emulator, world: World) -> str:
    return f"/applications/{emu.application_id}/guilds/{world.guild.id}/commands"


def select(**extra: Any) -> dict[str, Any]:
    options = [{"label": "North", "value": "n"}, {"label": "South", "value": "s"}]
    menu = {"type": 3, "custom_id": "seat", "options": options, **extra}
    return {"content": "seats", "components": [{"type": 1, "components": [menu]}]}


# -- the description ------------------------------------------------------------------------------


async def test_the_route_templates_of_the_description(emu: Emulator) -> None:
    assert spec.template_for("/channels/1/messages") == "/channels/{channel_id}/messages"
    assert spec.template_for("/channels/1/messages/pins/2") == "/channels/{channel_id}/messages/pins/{message_id}"
    assert spec.template_for("/channels/1/thread-members/@me") == "/channels/{channel_id}/thread-members/@me"
    original = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert spec.template_for("/webhooks/1/abc/messages/@original?thread_id=2") == original
    assert spec.template_for("/no/such/route") is None


async def test_requests_and_answers_are_checked_as_the_bot_works(emu: Emulator, world: World, bot: SampleBot) -> None:
    before = (emu.spec_stats.requests, emu.spec_stats.responses)
    await channel_of(bot, world.channel.id).send(
        "hello", file=discord.File(io.BytesIO(b"png"), "board.png", description="A board")
    )
    assert emu.spec_stats.requests == before[0] + 1  # the payload_json of the multipart body
    assert emu.spec_stats.responses == before[1] + 1


async def test_a_request_body_against_its_schema(emu: Emulator, world: World) -> None:
    status, body = await call(emu, "POST", f"/channels/{world.channel.id}/messages", {"content": "hi", "tts": "yes"})
    assert refusal(emu, status, body).startswith("tts: ")
    status, body = await call(
        emu, "POST", f"/channels/{world.channel.id}/messages", {"content": "hi", "nonce": "n" * 26}
    )
    assert refusal(emu, status, body) == "nonce: Must be 25 or fewer in length."


async def test_a_multipart_payload_json_against_its_schema(emu: Emulator, world: World) -> None:
    payload = {"content": "board", "attachments": [{"id": 0, "filename": "board.png", "description": "d" * 1025}]}
    status, body = await call(emu, "POST", f"/channels/{world.channel.id}/messages", payload, form=True)
    assert refusal(emu, status, body) == "attachments.0.description: Must be 1024 or fewer in length."
    payload["attachments"][0]["description"] = "the board"
    status, body = await call(emu, "POST", f"/channels/{world.channel.id}/messages", payload, form=True)
    assert status == 200, body  # a snowflake as a JSON integer, as discord.py sends it, is taken
    assert body["attachments"][0]["filename"] == "board.png"


async def test_the_bot_reads_the_field_and_the_limit(emu: Emulator, world: World, bot: SampleBot) -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Select(custom_id="seat", options=[discord.SelectOption(label="x" * 101, value="x")]))
    with pytest.raises(discord.HTTPException) as refused:
        await channel_of(bot, world.channel.id).send("seats", view=view)
    assert "components.0.components.0.options.0.label" in refused.value.text
    assert "Must be 100 or fewer in length." in refused.value.text
    emu.invalid_requests.clear()


async def test_an_answer_unlike_the_description_is_an_emulator_error(
    emu: Emulator, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = payloads.message

    def without_timestamp(*args: Any, **kwargs: Any) -> dict[str, Any]:
        data = real(*args, **kwargs)
        del data["timestamp"]
        return data

    monkeypatch.setattr(payloads, "message", without_timestamp)
    status, _ = await call(emu, "POST", f"/channels/{world.channel.id}/messages", {"content": "hi"})
    assert status == 200
    assert emu.server_errors == [
        "answer unlike Discord's API description: POST /channels/{channel_id}/messages 200: "
        "at (the body): 'timestamp' is a required property"
    ]
    emu.server_errors.clear()


def form_errors(method: str, path: str, payload: Any) -> dict[str, Any] | None:
    """The form errors `spec.check_request` refuses `payload` with, or None when it takes it."""
    try:
        spec.check_request(method, path, payload)
    except ApiError as error:
        assert (error.status, error.code) == (400, 50035)
        errors: dict[str, Any] = error.body()["errors"]
        return errors
    return None


def field_error(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def test_bodies_the_description_refuses_stay_refused() -> None:
    """Each kind of schema error, with the verdict and the words it had before the description's
    `$ref`s were resolved at load and its subschema validators kept (`spec._dereferenced`)."""
    messages, commands = "/channels/1/messages", "/applications/1/guilds/2/commands"
    wrong_type = {"content": "hi", "tts": "yes"}
    assert form_errors("POST", messages, wrong_type) == {
        "tts": field_error(
            "BASE_TYPE_INVALID",
            "'yes' is not of type 'boolean', 'null' (Discord's description: type ['boolean', 'null'])",
        )
    }
    button = {"type": 2, "style": "blue", "custom_id": "a"}  # in a union dispatched by its type
    assert form_errors("POST", messages, {"content": "x", "components": [{"type": 1, "components": [button]}]}) == {
        "components": {
            "0": {
                "components": {
                    "0": {
                        "style": field_error(
                            "BASE_TYPE_INVALID",
                            "'blue' is not of type 'integer' (Discord's description: type 'integer')",
                        )
                    }
                }
            }
        }
    }
    missing_name = [{"type": 1, "description": "Tables"}]
    assert form_errors("PUT", commands, missing_name) == {
        "0": {"name": field_error("BASE_TYPE_REQUIRED", "This field is required")}
    }
    too_long = {"content": "c" * 4001}
    assert form_errors("POST", messages, too_long) == {
        "content": field_error("BASE_TYPE_MAX_LENGTH", "Must be 4000 or fewer in length.")
    }
    # A key the schema does not name: its value is held to `additionalProperties`.
    localized = {"name": "table", "type": 1, "description": "Tables", "name_localizations": {"de": "t" * 33}}
    assert form_errors("PUT", commands, [localized]) == {
        "0": {"name_localizations": {"de": field_error("BASE_TYPE_MAX_LENGTH", "Must be 32 or fewer in length.")}}
    }
    for fine in ({"content": "hi", "tts": False}, {"content": "c" * 4000}):
        assert form_errors("POST", messages, fine) is None
    assert form_errors("PUT", commands, [{**localized, "name_localizations": {"de": "tisch"}}]) is None


def test_answers_the_description_refuses_stay_refused() -> None:
    """An unknown field where the description forbids any (a field error's `_errors` node), and a
    wrong type deep in a recursive schema (form errors nest as deep as the fields)."""
    where = "POST /channels/{channel_id}/messages 400"
    nested = {"embeds": {"0": {"title": field_error("BASE_TYPE_MAX_LENGTH", "Must be 256 or fewer in length.")}}}
    answer = {"code": 50035, "message": "Invalid Form Body", "errors": nested}
    assert spec.check_response("POST", "/channels/1/messages", 400, json.dumps(answer).encode()) is None
    extra = copy.deepcopy(answer)
    extra["errors"]["embeds"]["0"]["title"]["unknown"] = 1
    assert spec.check_response("POST", "/channels/1/messages", 400, json.dumps(extra).encode()) == (
        f"{where}: at errors.embeds.0.title._errors: [{{'code': 'BASE_TYPE_MAX_LENGTH', "
        "'message': 'Must be 256 or fewer in length.'}] is not valid under any of the given schemas"
    )
    numbered = copy.deepcopy(answer)
    numbered["errors"]["embeds"]["0"]["title"]["_errors"][0]["code"] = 1
    assert spec.check_response("POST", "/channels/1/messages", 400, json.dumps(numbered).encode()) == (
        f"{where}: at errors.embeds.0.title._errors.0.code: 1 is not of type 'string'"
    )


def test_no_ref_is_left_to_resolve_and_each_validator_is_built_once() -> None:
    def refs(node: Any, seen: set[int]) -> int:
        if id(node) in seen or not isinstance(node, dict | list):
            return 0
        seen.add(id(node))
        values = node.values() if isinstance(node, dict) else node
        return int(isinstance(node, dict) and "$ref" in node) + sum(refs(value, seen) for value in values)

    assert refs(spec.schemas(), set()) == 0
    pointer = spec._request_pointer("post", "/channels/{channel_id}/messages")
    assert pointer is not None
    assert spec._validator(pointer, True) is spec._validator(pointer, True)


# -- Discord's documented limits the description does not state ---------------------------------------


async def test_a_command_of_more_than_4000_characters(emu: Emulator, world: World) -> None:
    choices = [{"name": f"{i:02d}" + "n" * 88, "value": f"{i:02d}" + "v" * 98} for i in range(20)]  # 20 × 190
    option = {"name": "game", "type": 3, "description": "d" * 100, "choices": choices}
    fits = command(options=[option])  # "table" 5 + "Tables" 6 + "game" 4 + 100 + 3800 = 3915
    status, body = await call(emu, "PUT", commands_path(emu, world), [fits])
    assert status == 200, body
    (stored,) = emu.commands(world.guild)
    assert command_size(stored.raw, longest=True) == command_size(stored.raw, "de") == 3915
    over = command("other", options=[{**option, "choices": [*choices, {"name": "x" * 50, "value": "y" * 50}]}])
    status, body = await call(emu, "PUT", commands_path(emu, world), [fits, over])
    message = refusal(emu, status, body)
    assert message.startswith("1: Command exceeds maximum size (4000): 4015 characters"), message
    # Each string counts at its longest localization: ten more characters in 20 German names are enough.
    german = [{**c, "name_localizations": {"de": c["name"] + "ü" * 10}} for c in choices]
    status, body = await call(emu, "PUT", commands_path(emu, world), [command(options=[{**option, "choices": german}])])
    assert refusal(emu, status, body).startswith("0: Command exceeds maximum size (4000): 4115 characters")
    shorter = [{**c, "name_localizations": {"zh-TW": "狐狸"}} for c in choices]
    item = command(options=[{**option, "choices": shorter, "name_localizations": {"pt-BR": "jogo"}}])
    assert (await call(emu, "PUT", commands_path(emu, world), [item]))[0] == 200
    (stored,) = emu.commands(world.guild)
    assert command_size(stored.raw, "zh-TW") == 3915 - 20 * 88


async def test_choice_values_of_more_than_100_characters(emu: Emulator, world: World) -> None:
    option = {"name": "game", "type": 3, "description": "Which game", "choices": [{"name": "Fox", "value": "v" * 101}]}
    status, body = await call(emu, "PUT", commands_path(emu, world), [command(options=[option])])
    assert refusal(emu, status, body) == "0.options.0.choices.0.value: Must be 100 or fewer in length."
    option = {"name": "game", "type": 3, "description": "Which game", "autocomplete": True}
    assert (await call(emu, "PUT", commands_path(emu, world), [command(options=[option])]))[0] == 200
    async with running(emu, discord.Client(intents=discord.Intents.none(), **CLIENT_OPTIONS)):
        await autocomplete_answer_checked(emu, world)


async def autocomplete_answer_checked(emu: Emulator, world: World) -> None:
    """The client does not answer (it has no commands): the test answers in its place."""
    typed = await emu.autocomplete(world.alice, world.channel, "table", {"game": "fo"}, focused="game")
    answer = {"type": 8, "data": {"choices": [{"name": "Fox Duet", "value": "f" * 101}]}}
    status, body = await call(emu, "POST", f"/interactions/{typed.id}/{typed.token}/callback", answer)
    assert refusal(emu, status, body) == "data.choices.0.value: Must be 100 or fewer in length."
    answer["data"]["choices"][0]["value"] = "fox-duet"
    assert (await call(emu, "POST", f"/interactions/{typed.id}/{typed.token}/callback", answer))[0] == 204
    assert await typed.choices() == [{"name": "Fox Duet", "value": "fox-duet"}]


@pytest.mark.parametrize(
    ("option", "field", "limit"),
    [
        ({"label": "l" * 101, "value": "x"}, "label", 100),
        ({"label": "x", "value": "v" * 101}, "value", 100),
        ({"label": "x", "value": "x", "description": "d" * 101}, "description", 100),
    ],
)
async def test_select_option_texts_of_more_than_100_characters(
    emu: Emulator, world: World, option: dict[str, Any], field: str, limit: int
) -> None:
    payload = select()
    payload["components"][0]["components"][0]["options"].append(option)
    status, body = await call(emu, "POST", f"/channels/{world.channel.id}/messages", payload)
    expected = f"components.0.components.0.options.2.{field}: Must be {limit} or fewer in length."
    assert refusal(emu, status, body) == expected


async def test_a_placeholder_of_more_than_150_characters(emu: Emulator, world: World) -> None:
    status, body = await call(emu, "POST", f"/channels/{world.channel.id}/messages", select(placeholder="p" * 151))
    assert refusal(emu, status, body) == "components.0.components.0.placeholder: Must be 150 or fewer in length."
    user_select = {"type": 5, "custom_id": "invite", "placeholder": "p" * 151}
    payload = {"content": "invite", "components": [{"type": 1, "components": [user_select]}]}
    status, body = await call(emu, "POST", f"/channels/{world.channel.id}/messages", payload)
    assert refusal(emu, status, body) == "components.0.components.0.placeholder: Must be 150 or fewer in length."
    status, _ = await call(emu, "POST", f"/channels/{world.channel.id}/messages", select(placeholder="p" * 150))
    assert status == 200


async def test_allowed_mentions_parse_users_with_a_users_list(emu: Emulator, world: World) -> None:
    both = {"parse": ["users"], "users": [str(world.alice.id)]}
    status, body = await call(
        emu, "POST", f"/channels/{world.channel.id}/messages", {"content": "hi", "allowed_mentions": both}
    )
    assert (
        refusal(emu, status, body) == 'allowed_mentions.users: parse: ["users"] and a users list are mutually exclusive'
    )
    for fine in (
        {"parse": ["users"]},
        {"parse": [], "users": [str(world.alice.id)]},
        {"parse": ["roles"], "users": []},
    ):
        payload = {"content": "hi", "allowed_mentions": fine}
        assert (await call(emu, "POST", f"/channels/{world.channel.id}/messages", payload))[0] == 200, fine


async def test_a_thread_auto_archive_duration_not_among_discords(emu: Emulator, world: World) -> None:
    channel = f"/channels/{world.channel.id}"
    status, body = await call(emu, "POST", f"{channel}/threads", {"name": "g", "type": 11, "auto_archive_duration": 30})
    assert refusal(emu, status, body) == "auto_archive_duration: Value must be one of [60, 1440, 4320, 10080]."
    status, message = await call(emu, "POST", f"{channel}/messages", {"content": "game 1"})
    status, body = await call(
        emu, "POST", f"{channel}/messages/{message['id']}/threads", {"name": "g", "auto_archive_duration": 120}
    )
    assert refusal(emu, status, body) == "auto_archive_duration: Value must be one of [60, 1440, 4320, 10080]."
    status, thread = await call(
        emu, "POST", f"{channel}/threads", {"name": "g", "type": 11, "auto_archive_duration": 60}
    )
    assert status == 201, thread
    status, body = await call(emu, "PATCH", f"/channels/{thread['id']}", {"auto_archive_duration": 100})
    assert refusal(emu, status, body) == "auto_archive_duration: Value must be one of [60, 1440, 4320, 10080]."
    assert (await call(emu, "PATCH", f"/channels/{thread['id']}", {"auto_archive_duration": 10080}))[0] == 200


async def test_the_locales_are_the_descriptions(emu: Emulator, world: World) -> None:
    """Arabic and Hebrew (which the emulator's own list lacked) are Discord locales; others are not."""
    assert {"ar", "he", "hi", "th", "pt-BR", "zh-TW"} <= spec.locales() and "pt-PT" not in spec.locales()
    names = {"ar": "طاولة", "he": "שולחן", "hi": "खेल", "th": "เล่น"}
    descriptions = {"ar": "طاولات", "he": "שולחנות"}
    item = command(name_localizations=names, description_localizations=descriptions)
    status, body = await call(emu, "PUT", commands_path(emu, world), [item])
    assert status == 200, body
    assert body[0]["name_localizations"] == names
    status, body = await call(emu, "PUT", commands_path(emu, world), [command(name_localizations={"pt-PT": "mesa"})])
    message = refusal(emu, status, body)
    assert message.startswith("0.name_localizations.pt-PT: Invalid locale 'pt-PT': not one of ['ar', 'bg'"), message


@pytest.mark.parametrize("name", ["खेल", "खेलें", "เล่น", "เกม", "jeu_d'échecs", "棋盘", "ход-1"])
async def test_command_names_in_any_script_with_its_marks(emu: Emulator, world: World, name: str) -> None:
    option = {"name": name, "type": 3, "description": "d"}
    status, body = await call(emu, "PUT", commands_path(emu, world), [command(name, options=[option])])
    assert status == 200, body


@pytest.mark.parametrize("name", ["Table", "two words", "🎲", "x" * 33, "a.b"])
async def test_command_names_discord_refuses(emu: Emulator, world: World, name: str) -> None:
    status, body = await call(emu, "PUT", commands_path(emu, world), [command(name)])
    message = refusal(emu, status, body)
    assert message.startswith(("0.name: Command name is invalid", "0.name: Must be 32 or fewer")), message


# -- acting as a user -------------------------------------------------------------------------------


async def test_a_click_on_a_component_the_message_lacks(emu: Emulator, world: World) -> None:
    button = {"type": 2, "style": 1, "label": "Join", "custom_id": "join"}
    payload = {"content": "table", "components": [{"type": 1, "components": [button]}]}
    status, sent = await call(emu, "POST", f"/channels/{world.channel.id}/messages", payload)
    message: Message = emu.state.messages[int(sent["id"])]
    with pytest.raises(LookupError, match="no button with custom_id='leave'"):
        await emu.click(world.alice, message, "leave")
    stale = copy.deepcopy(message)  # what a test held before the bot took the button away
    edit = {"content": "full", "components": []}
    assert (await call(emu, "PATCH", f"/channels/{world.channel.id}/messages/{message.id}", edit))[0] == 200
    with pytest.raises(LookupError, match="has no component 'join'"):
        await emu.click(world.alice, stale, "join")
    assert not emu.interactions.records
