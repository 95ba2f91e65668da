"""Acting as a human user: slash commands, autocomplete, buttons, selects, modals, messages, reactions."""

from __future__ import annotations

import copy
import mimetypes
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from emulator import components as comp
from emulator import payloads
from emulator import permissions as perms
from emulator.bodies import Body, UploadedFile
from emulator.commands import OptionBuilder, Upload
from emulator.gateway import Gateway
from emulator.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    InteractionRecord,
    InteractionResult,
    Interactions,
)
from emulator.model import ApplicationCommand, Attachment, Channel, Member, Message, Role, State, User
from emulator.service import Service


class UserActions:
    """Mixin of the Emulator: everything a person can do in the Discord client."""

    state: State
    service: Service
    gateway: Gateway
    interactions: Interactions
    upload_limit: int

    if TYPE_CHECKING:  # the Emulator's read-only property, known once it has bound its port

        @property
        def base_url(self) -> str: ...

    # -- application commands ------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        validate: bool = True,
    ) -> InteractionResult:
        """Invoke `/command [group] [subcommand]` with options, e.g. slash(u, ch, "table create", {"game": "x"}).

        ``validate=False`` forges the payload, as a modified client could: option values are sent
        as given, without the type, range, choice and required checks Discord's client makes.
        """
        record = self._command_interaction(
            APPLICATION_COMMAND, user, channel, command, options or {}, None, validate=validate
        )
        return self.interactions.dispatch(record)

    async def autocomplete(
        self, user: User, channel: Channel, command: str, options: dict[str, Any], focused: str
    ) -> InteractionResult:
        """Type in option `focused` (its partial text is options[focused]); await .choices() on the result."""
        record = self._command_interaction(AUTOCOMPLETE, user, channel, command, options, focused)
        return self.interactions.dispatch(record)

    def _command_interaction(
        self,
        type_: int,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any],
        focused: str | None,
        *,
        validate: bool = True,
    ) -> InteractionRecord:
        name, *path = command.strip().lstrip("/").split()
        guild = self.state.guild_of(channel)
        found = self.state.find_command(name, guild.id if guild else None)
        if found is None:
            known = sorted(c.name for c in self.state.global_commands.values())
            if guild is not None:
                known += sorted(c.name for c in self.state.commands(guild.id).values())
            raise LookupError(f"/{name} is not registered (registered: {known}); did the bot sync its command tree?")
        self._check_access(user, channel, perms.VIEW_CHANNEL | perms.USE_APPLICATION_COMMANDS)
        self._check_command_allowed(user, channel, found)
        builder = OptionBuilder(self.state, user, guild, channel, self._store_upload, validate=validate)
        built = builder.build(found, path, options, focused=focused)
        record = self.interactions.new_record(type_, user, channel, " ".join([name, *path]))
        data: dict[str, Any] = {"id": str(found.id), "name": found.name, "type": found.type}
        if built:
            data["options"] = built
        if builder.resolved:
            data["resolved"] = builder.resolved
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        record.payload = {**self._interaction_base(record), "data": data}
        return record

    def _check_command_allowed(self, user: User, channel: Channel, command: ApplicationCommand) -> None:
        raw = command.raw
        if channel.is_dm:
            contexts = raw.get("contexts")
            if raw.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise PermissionError(f"/{command.name} is not available in DMs")
            return
        required = raw.get("default_member_permissions")
        if required is not None:
            value = self.state.permissions_in(channel, user.id)
            if not perms.has(value, int(required)):
                raise PermissionError(f"{user.username} lacks the permissions /{command.name} requires ({required})")

    # -- components ----------------------------------------------------------------------------------

    async def click(
        self, user: User, message: Message, custom_id: str | None = None, *, label: str | None = None
    ) -> InteractionResult:
        """Press a button found by custom_id and/or label."""
        button = comp.find_button(message.components, label=label, custom_id=custom_id)
        if button.get("style") in (comp.LINK_STYLE, comp.PREMIUM_STYLE):
            raise ValueError(f"button {button.get('label')!r} is a link/premium button: it creates no interaction")
        if button.get("disabled"):
            raise ValueError(f"button {button.get('label') or button.get('custom_id')!r} is disabled")
        data = {"custom_id": button["custom_id"], "component_type": comp.BUTTON, "id": button.get("id")}
        return self._component_interaction(user, message, data)

    async def select(
        self, user: User, message: Message, custom_id: str | None, values: Sequence[Any]
    ) -> InteractionResult:
        """Choose values in a select menu (strings, or Users/Roles/Channels for entity selects)."""
        menu = comp.find_select(message.components, custom_id=custom_id)
        if menu.get("disabled"):
            raise ValueError(f"select {menu.get('custom_id')!r} is disabled")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {menu.get('custom_id')!r} takes {low}..{high} values, not {len(values)}")
        guild = self.state.guild_of(self.state.channels[message.channel_id])
        builder = OptionBuilder(self.state, user, guild, self.state.channels[message.channel_id], self._store_upload)
        raw_values = [self._select_value(menu, builder, v) for v in values]
        data: dict[str, Any] = {
            "custom_id": menu["custom_id"],
            "component_type": menu["type"],
            "values": raw_values,
            "id": menu.get("id"),
        }
        if menu["type"] != comp.STRING_SELECT:
            data["resolved"] = builder.resolved
        return self._component_interaction(user, message, data)

    async def forge_component(
        self,
        user: User,
        message: Message,
        custom_id: str,
        *,
        component_type: int = comp.BUTTON,
        values: Sequence[str] | None = None,
    ) -> InteractionResult:
        """A button or menu interaction as a modified client would send it from ``message``: any
        custom_id, component type and values. ``click``/``select`` refuse a component the message
        lacks, as Discord does; this one sends it anyway, so that a bot's own check of where a
        click comes from can be tested (the payload's ``message`` stays the real one). The user
        must still see the message."""
        channel = self.state.channels[message.channel_id]
        if message.id not in self.state.messages:
            raise LookupError(f"message {message.id} was deleted")
        message = self.state.messages[message.id]
        if not message.visible_to(user):
            raise PermissionError(f"{user.username} cannot see that ephemeral message")
        self._check_access(user, channel, perms.VIEW_CHANNEL)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = [str(v) for v in values]
        record = self.interactions.new_record(MESSAGE_COMPONENT, user, channel, custom_id, message=message)
        record.payload = {
            **self._interaction_base(record),
            "data": data,
            "message": payloads.message(self.state, message),
        }
        return self.interactions.dispatch(record)

    def _select_value(self, menu: dict[str, Any], builder: OptionBuilder, value: Any) -> str:
        type_ = menu["type"]
        if type_ == comp.STRING_SELECT:
            allowed = [o["value"] for o in menu.get("options") or []]
            if value not in allowed:
                raise ValueError(f"{value!r} is not an option of select {menu.get('custom_id')!r}: {allowed}")
            return str(value)
        if isinstance(value, Member):
            value = value.user
        if isinstance(value, User) and type_ in (comp.USER_SELECT, comp.MENTIONABLE_SELECT):
            builder.resolve_user(value)
        elif isinstance(value, Role) and type_ in (comp.ROLE_SELECT, comp.MENTIONABLE_SELECT):
            builder.resolve_role(value)
        elif isinstance(value, Channel) and type_ == comp.CHANNEL_SELECT:
            builder.resolve_channel(value)
        else:
            raise TypeError(f"select {menu.get('custom_id')!r} (type {type_}) cannot take {value!r}")
        return str(value.id)

    def _component_interaction(self, user: User, message: Message, data: dict[str, Any]) -> InteractionResult:
        channel = self.state.channels[message.channel_id]
        if message.id not in self.state.messages:
            raise LookupError(f"message {message.id} was deleted")
        message = self.state.messages[message.id]  # as it is now, not as a stale copy shows it
        on_message = {c.get("custom_id") for c in comp.walk(message.components)}
        if data["custom_id"] not in on_message:  # Discord refuses a click on a component the message lacks
            raise LookupError(f"message {message.id} has no component {data['custom_id']!r}: it has {on_message}")
        if not message.visible_to(user):
            raise PermissionError(f"{user.username} cannot see that ephemeral message")
        self._check_access(user, channel, perms.VIEW_CHANNEL)
        if data.get("id") is None:
            data.pop("id")
        record = self.interactions.new_record(MESSAGE_COMPONENT, user, channel, data["custom_id"], message=message)
        record.payload = {
            **self._interaction_base(record),
            "data": data,
            "message": payloads.message(self.state, message),
        }
        return self.interactions.dispatch(record)

    # -- modals --------------------------------------------------------------------------------------

    async def submit_modal(
        self, user: User, source: InteractionResult, values: dict[str, str | list[str]] | None = None
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to `source`."""
        opened = source.record
        if opened.callback_type != MODAL:
            raise ValueError(f"interaction {opened.name!r} was answered with type {opened.callback_type}, not a modal")
        if opened.user.id != user.id:
            raise PermissionError("only the user who opened the modal can submit it")
        modal = copy.deepcopy(opened.callback_data)
        comp.assign_ids(modal.get("components") or [])
        remaining = dict(values or {})
        submitted = [self._modal_component(c, remaining) for c in modal.get("components") or []]
        if remaining:
            raise ValueError(f"the modal has no input(s) {sorted(remaining)}")
        record = self.interactions.new_record(
            MODAL_SUBMIT, user, opened.channel, modal.get("custom_id", ""), message=opened.message
        )
        record.source = opened
        data = {"custom_id": modal.get("custom_id"), "components": submitted}
        record.payload = {**self._interaction_base(record), "data": data}
        if opened.message is not None:
            record.payload["message"] = payloads.message(self.state, opened.message)
        return self.interactions.dispatch(record)

    def _modal_component(self, component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        type_ = component.get("type")
        if type_ == comp.ACTION_ROW:
            children = [self._modal_component(c, values) for c in component.get("components") or []]
            return {"type": comp.ACTION_ROW, "id": component.get("id"), "components": children}
        if type_ == comp.LABEL:
            inner = self._modal_component(component["component"], values)
            return {"type": comp.LABEL, "id": component.get("id"), "component": inner}
        if type_ == comp.TEXT_DISPLAY:
            return {"type": comp.TEXT_DISPLAY, "id": component.get("id")}
        custom_id = component.get("custom_id", "")
        if type_ == comp.TEXT_INPUT:
            value = str(values.pop(custom_id, component.get("value") or ""))
            if component.get("required", True) and not value:
                raise ValueError(f"modal input {custom_id!r} is required")
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if value and not low <= len(value) <= high:
                raise ValueError(f"modal input {custom_id!r} takes {low}..{high} characters")
            return {"type": comp.TEXT_INPUT, "id": component.get("id"), "custom_id": custom_id, "value": value}
        chosen = values.pop(custom_id, [])
        chosen = [chosen] if isinstance(chosen, str) else list(chosen)
        return {"type": type_, "id": component.get("id"), "custom_id": custom_id, "values": [str(v) for v in chosen]}

    # -- plain messages ------------------------------------------------------------------------------

    async def send_message(
        self,
        user: User,
        channel: Channel,
        content: str = "",
        *,
        files: Sequence[Upload] = (),
        embeds: Sequence[dict[str, Any]] = (),
        reply_to: Message | None = None,
    ) -> Message:
        """Post a message as a user (MESSAGE_CREATE reaches the bot)."""
        self._check_access(user, channel, perms.VIEW_CHANNEL | perms.SEND_MESSAGES)
        payload: dict[str, Any] = {"content": content}
        if embeds:
            payload["embeds"] = list(embeds)
        if reply_to is not None:
            payload["message_reference"] = {"message_id": str(reply_to.id), "channel_id": str(reply_to.channel_id)}
        uploads = [UploadedFile(i, f.filename, f.content, f.content_type) for i, f in enumerate(files)]
        self.service.check_thread_open(channel)
        return self.service.post_message(channel, user, Body(payload, uploads))

    async def react(self, user: User, message: Message, emoji: str, *, add: bool = True) -> None:
        """Add (or remove) a user's reaction; emoji is unicode or `name:id`."""
        self._check_access(user, self.state.channels[message.channel_id], perms.VIEW_CHANNEL)
        self.service.set_reaction(message, emoji, user, add=add)

    # -- shared --------------------------------------------------------------------------------------

    def _check_access(self, user: User, channel: Channel, needed: int) -> None:
        if channel.is_dm:
            if channel.recipient_ids != [user.id]:
                raise PermissionError(f"{user.username} is not in that DM channel")
            return
        guild = self.state.guild_of(channel)
        if guild is None or user.id not in guild.members:
            raise PermissionError(f"{user.username} is not a member of that guild")
        value = self.state.permissions_in(channel, user.id)
        if channel.is_thread:
            needed = (needed & ~perms.SEND_MESSAGES) | (
                perms.SEND_MESSAGES_IN_THREADS if needed & perms.SEND_MESSAGES else 0
            )
        if not perms.has(value, needed):
            raise PermissionError(f"{user.username} lacks permissions {needed:#x} in #{channel.name}")

    def _store_upload(self, upload: Upload) -> Attachment:
        attachment_id = self.state.ids.next()
        attachment = Attachment(
            id=attachment_id,
            filename=upload.filename,
            content=upload.content,
            url=f"{self.base_url}/attachments/0/{attachment_id}/{quote(upload.filename)}",
            content_type=upload.content_type or mimetypes.guess_type(upload.filename)[0],
            ephemeral=True,
        )
        self.state.attachments[attachment.id] = attachment
        return attachment

    def _interaction_base(self, record: InteractionRecord) -> dict[str, Any]:
        state, channel, user, guild = self.state, record.channel, record.user, record.guild
        user_perms = state.permissions_in(channel, user.id)
        base: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(state.application.id),
            "type": record.type,
            "token": record.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": payloads.channel(state, channel, permissions=user_perms),
            "app_permissions": str(state.permissions_in(channel, state.bot.id)),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.upload_limit,
        }
        if guild is not None:
            base.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=payloads.member(guild.members[user.id], permissions=user_perms),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            base.update(user=payloads.user(user), authorizing_integration_owners={"0": "0"}, context=1)
        return base
