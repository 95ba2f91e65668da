"""Application command registry (bulk overwrite, upsert) and slash-command option building."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import regex

from emulator import payloads, spec
from emulator.errors import form_error
from emulator.model import ApplicationCommand, Attachment, Channel, Guild, Member, Role, State, User

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
CHAT_INPUT = 1

# Discord's documented rule for chat-input command and option names: letters and numbers of any
# script, plus Devanagari and Thai as a whole (their vowel signs are marks, not letters).
_CHAT_NAME = regex.compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
# The locales Discord accepts as keys of name_localizations and description_localizations.
LOCALES = spec.locales()
MAX_COMMAND_SIZE = 4000  # name, description, options and choices of one command, in characters
MAX_CHOICE_VALUE = 100  # a string choice's value (the description allows 6000)


def _validate_localizations(data: dict[str, Any], path: str, *, chat_name: bool) -> None:
    """Localised names follow the name's own rules, descriptions are 1-100; keys are Discord locales."""
    for field, is_name in (("name_localizations", True), ("description_localizations", False)):
        table = data.get(field) or {}
        if not isinstance(table, dict):
            raise form_error(f"{path}{field}", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        for locale, text in table.items():
            where = f"{path}{field}.{locale}"
            if locale not in LOCALES:
                raise form_error(where, "LOCALE_INVALID", f"Invalid locale {locale!r}: not one of {sorted(LOCALES)}")
            if not isinstance(text, str):
                raise form_error(where, "BASE_TYPE_REQUIRED", "This field is required")
            if is_name and chat_name:
                if not valid_chat_name(text):
                    raise form_error(where, "APPLICATION_COMMAND_INVALID_NAME", f"Localized name is invalid: {text!r}")
            elif not 1 <= len(text) <= 100:
                raise form_error(where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


@dataclass
class Upload:
    """A file a user attaches to a slash command option (option type 11)."""

    filename: str
    content: bytes
    content_type: str | None = None


# -- registry -------------------------------------------------------------------------------------


def valid_chat_name(name: str) -> bool:
    """Whether Discord takes ``name`` as a chat-input command or option name (its pattern, lower case)."""
    return bool(_CHAT_NAME.match(name)) and name == name.lower()


def _longest(item: dict[str, Any], field: str) -> int:
    texts = [str(item.get(field) or ""), *((item.get(f"{field}_localizations") or {}).values())]
    return max(len(str(text)) for text in texts)


def _localized(item: dict[str, Any], field: str, locale: str | None) -> int:
    table = item.get(f"{field}_localizations") or {}
    return len(str(table.get(locale) or item.get(field) or "")) if locale else len(str(item.get(field) or ""))


def command_size(data: dict[str, Any], locale: str | None = None, *, longest: bool = False) -> int:
    """The characters Discord counts toward a command's 4,000: its name and description, and every
    option's (subcommands', groups') name and description and every choice's name and value.

    ``locale`` counts what a user of that locale gets (each string's localization, or the default);
    ``longest`` counts each string at its longest localization, the bound the emulator enforces.
    """

    def size(item: dict[str, Any]) -> int:
        if longest:
            total = _longest(item, "name") + _longest(item, "description")
        else:
            total = _localized(item, "name", locale) + _localized(item, "description", locale)
        for choice in item.get("choices") or []:
            name = _longest(choice, "name") if longest else _localized(choice, "name", locale)
            total += name + len(str(choice.get("value", "")))
        return total + sum(size(option) for option in item.get("options") or [])

    return size(data)


def validate_command(data: dict[str, Any], path: str = "") -> None:
    """Discord's main checks on a command payload; raises 50035 like Discord."""
    type_ = int(data.get("type", CHAT_INPUT))
    name = data.get("name") or ""
    if type_ == CHAT_INPUT:
        if not valid_chat_name(name):
            raise form_error(f"{path}name", "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        if not 1 <= len(data.get("description") or "") <= 100:
            raise form_error(f"{path}description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        _validate_localizations(data, path, chat_name=True)
        _validate_options(data.get("options") or [], f"{path}options")
    elif not 1 <= len(name) <= 32:
        raise form_error(f"{path}name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
    size = command_size(data, longest=True)
    if size > MAX_COMMAND_SIZE:
        raise form_error(
            path.rstrip(".") or "_root",
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({MAX_COMMAND_SIZE}): {size} characters in its name, description, "
            "options and choices (each at its longest localization)",
        )


def _validate_options(options: list[dict[str, Any]], path: str) -> None:
    if len(options) > 25:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        raise form_error(path, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
    kinds = {o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options}
    if len(kinds) > 1:
        raise form_error(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Cannot mix subcommands and options")
    seen_optional = False
    for index, option in enumerate(options):
        where = f"{path}.{index}"
        name = option.get("name") or ""
        if not valid_chat_name(name):
            raise form_error(f"{where}.name", "APPLICATION_COMMAND_INVALID_NAME", f"Option name is invalid: {name!r}")
        if not 1 <= len(option.get("description") or "") <= 100:
            raise form_error(f"{where}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        _validate_localizations(option, f"{where}.", chat_name=True)
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _validate_options(option.get("options") or [], f"{where}.options")
            continue
        if option.get("required"):
            if seen_optional:
                raise form_error(where, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options go first")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            raise form_error(f"{where}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for c, choice in enumerate(choices):
            if not 1 <= len(str(choice.get("name") or "")) <= 100:
                raise form_error(f"{where}.choices.{c}.name", "BASE_TYPE_BAD_LENGTH", "Must be 1 to 100 in length.")
            value = choice.get("value")
            if isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
                message = f"Must be {MAX_CHOICE_VALUE} or fewer in length."
                raise form_error(f"{where}.choices.{c}.value", "BASE_TYPE_MAX_LENGTH", message)
            # A choice's localised names are display text (1-100), not command names.
            _validate_localizations(choice, f"{where}.choices.{c}.", chat_name=False)
        if choices and option.get("autocomplete"):
            raise form_error(where, "AUTOCOMPLETE_AND_CHOICES", "Autocomplete cannot be used with choices")


def overwrite(state: State, guild_id: int | None, items: list[dict[str, Any]]) -> list[ApplicationCommand]:
    """Bulk overwrite: keep ids of commands that still exist, drop the rest."""
    for index, item in enumerate(items):
        validate_command(item, f"{index}.")
    keys = [(int(i.get("type", CHAT_INPUT)), i["name"]) for i in items]
    if len(set(keys)) != len(keys):
        raise form_error("_root", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
    table = state.commands(guild_id)
    old = dict(table)
    table.clear()
    result = []
    for key, item in zip(keys, items, strict=True):
        result.append(store(state, guild_id, item, old.get(key)))
    return result


def upsert(state: State, guild_id: int | None, item: dict[str, Any]) -> ApplicationCommand:
    """Create or replace one command by (type, name)."""
    validate_command(item)
    key = (int(item.get("type", CHAT_INPUT)), item["name"])
    return store(state, guild_id, item, state.commands(guild_id).get(key))


def store(
    state: State, guild_id: int | None, item: dict[str, Any], previous: ApplicationCommand | None
) -> ApplicationCommand:
    """Save a command, keeping the id of the one it replaces."""
    command = ApplicationCommand(
        id=previous.id if previous else state.ids.next(),
        application_id=state.application.id,
        name=item["name"],
        type=int(item.get("type", CHAT_INPUT)),
        description=item.get("description") or "",
        guild_id=guild_id,
        options=list(item.get("options") or []),
        version=state.ids.next(),
        raw={k: v for k, v in item.items() if k not in ("id", "application_id", "version", "guild_id")},
    )
    state.commands(guild_id)[(command.type, command.name)] = command
    return command


def find_by_id(state: State, guild_id: int | None, command_id: int) -> ApplicationCommand | None:
    """A registered command by id in the global or a guild table."""
    return next((c for c in state.commands(guild_id).values() if c.id == command_id), None)


# -- invocation ---------------------------------------------------------------------------------


class OptionBuilder:
    """Turns `{"option": value}` into Discord's nested options plus `resolved` data."""

    def __init__(
        self,
        state: State,
        user: User,
        guild: Guild | None,
        channel: Channel,
        store_upload: Callable[[Upload], Attachment],
        *,
        validate: bool = True,
    ) -> None:
        self.state = state
        # False forges a payload as a modified client could send it: values go out as given,
        # unchecked against the option's type, range and choices (entities are still resolved).
        self.validate = validate
        self.user = user
        self.guild = guild
        self.channel = channel
        self.store_upload = store_upload
        self.resolved: dict[str, dict[str, Any]] = {}

    def build(
        self, command: ApplicationCommand, path: list[str], values: dict[str, Any], *, focused: str | None = None
    ) -> list[dict[str, Any]]:
        """Options for `/command path... values`, checked against the registered schema."""
        schema = command.options
        chain: list[dict[str, Any]] = []
        trail = command.name
        for part in path:
            match = next(
                (o for o in schema if o.get("name") == part and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)),
                None,
            )
            if match is None:
                subs = [o["name"] for o in schema if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise ValueError(f"/{trail} has no subcommand {part!r}; it has {subs}")
            chain.append(match)
            schema = match.get("options") or []
            trail += f" {part}"
        subs = [o["name"] for o in schema if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs:
            raise ValueError(f"/{trail} needs a subcommand: one of {subs}")
        by_name = {o["name"]: o for o in schema}
        unknown = set(values) - set(by_name)
        if unknown:
            raise ValueError(f"/{trail} has no option(s) {sorted(unknown)}; it has {sorted(by_name)}")
        if focused is not None and focused not in by_name:
            raise ValueError(f"/{trail} has no option {focused!r} to autocomplete")
        if focused is None and self.validate:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
            if missing:
                raise ValueError(f"/{trail} is missing required option(s) {missing}")
        leaf = [
            self._option(by_name[name], values[name], focused=name == focused)
            for name in by_name
            if name in values or name == focused
        ]
        for sub in reversed(chain):
            leaf = [{"name": sub["name"], "type": sub["type"], "options": leaf}]
        return leaf

    def _option(self, schema: dict[str, Any], value: Any, *, focused: bool) -> dict[str, Any]:
        name, type_ = schema["name"], schema["type"]
        if focused:
            return {"name": name, "type": type_, "value": "" if value is None else str(value), "focused": True}
        return {"name": name, "type": type_, "value": self._value(schema, value)}

    def _value(self, schema: dict[str, Any], value: Any) -> Any:
        name, type_ = schema["name"], schema["type"]
        if not self.validate and not isinstance(value, User | Member | Role | Channel | Upload | tuple):
            return value
        if type_ == STRING:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} takes a string, not {value!r}")
            lo, hi = schema.get("min_length", 0), schema.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise ValueError(f"option {name!r} must be {lo}..{hi} characters long")
        elif type_ in (INTEGER, NUMBER):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (type_ == INTEGER and isinstance(value, float))
            ):
                raise TypeError(
                    f"option {name!r} takes {'an integer' if type_ == INTEGER else 'a number'}, not {value!r}"
                )
            if value < schema.get("min_value", value) or value > schema.get("max_value", value):
                raise ValueError(f"option {name!r} must be within {schema.get('min_value')}..{schema.get('max_value')}")
        elif type_ == BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} takes a bool, not {value!r}")
        elif type_ in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
            return self._entity(schema, value)
        choices = schema.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}, not {value!r}")
        return value

    def _entity(self, schema: dict[str, Any], value: Any) -> str:
        name, type_ = schema["name"], schema["type"]
        if isinstance(value, Member):
            value = value.user
        if type_ in (USER, MENTIONABLE) and isinstance(value, User):
            self.resolve_user(value)
            return str(value.id)
        if type_ in (ROLE, MENTIONABLE) and isinstance(value, Role):
            self.resolve_role(value)
            return str(value.id)
        if type_ == CHANNEL and isinstance(value, Channel):
            allowed = schema.get("channel_types")
            if allowed and value.type not in allowed:
                raise ValueError(f"option {name!r} accepts channel types {allowed}, not {value.type}")
            self.resolve_channel(value)
            return str(value.id)
        if type_ == ATTACHMENT:
            if isinstance(value, tuple):
                value = Upload(*value)
            if isinstance(value, Upload):
                attachment = self.store_upload(value)
                self.resolved.setdefault("attachments", {})[str(attachment.id)] = payloads.attachment(attachment)
                return str(attachment.id)
        raise TypeError(f"option {name!r} (type {type_}) cannot take {value!r}")

    def resolve_user(self, user: User) -> None:
        """Add a user (and its member in this guild) to the resolved data."""
        self.resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
        if self.guild is not None and user.id in self.guild.members:
            data = payloads.member(
                self.guild.members[user.id],
                with_user=False,
                permissions=self.state.permissions_in(self.channel, user.id),
            )
            self.resolved.setdefault("members", {})[str(user.id)] = data

    def resolve_role(self, role: Role) -> None:
        """Add a role to the resolved data."""
        self.resolved.setdefault("roles", {})[str(role.id)] = payloads.role(role)

    def resolve_channel(self, channel: Channel) -> None:
        """Add a channel to the resolved data (with the invoking user's permissions in it)."""
        data = payloads.channel(self.state, channel, permissions=self.state.permissions_in(channel, self.user.id))
        self.resolved.setdefault("channels", {})[str(channel.id)] = data
