"""Interactions: records, the callback endpoint's rules, follow-up webhooks, and awaitable results."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from emulator import payloads
from emulator.bodies import Body
from emulator.errors import (
    ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    form_error,
    not_found,
)
from emulator.gateway import Gateway
from emulator.model import EPHEMERAL, LOADING, Channel, Guild, Message, State, User
from emulator.service import Service
from emulator.validation import validate_choices, validate_modal
from emulator.waiting import PATIENCE, Signal

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
CHAT_INPUT_COMMAND_MESSAGE = 20

ALLOWED_CALLBACKS = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}


class InteractionFailed(Exception):
    """The bot's answer to an interaction was refused by the emulator (e.g. 10062 after the deadline)."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(f"the interaction response was refused: {error}")
        self.error = error


@dataclass(eq=False)
class InteractionRecord:
    """One interaction and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    name: str
    payload: dict[str, Any] = field(default_factory=dict)
    message: Message | None = None
    source: InteractionRecord | None = None
    dispatched_at: float = 0.0
    shards: list[tuple[int, int]] = field(default_factory=list)  # [id, count] of the sessions it went to
    created: float = field(default_factory=time.time)
    callback_type: int | None = None
    callback_data: dict[str, Any] = field(default_factory=dict)
    callback_delay: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    ephemeral: bool = False
    errors: list[ApiError] = field(default_factory=list)
    expired: bool = False

    def metadata(self) -> dict[str, Any]:
        """`interaction_metadata` of the messages this interaction produced."""
        owners = {"0": str(self.guild.id)} if self.guild else {"1": str(self.user.id)}
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": payloads.user(self.user),
            "authorizing_integration_owners": owners,
        }
        if self.type == APPLICATION_COMMAND:
            data["name"] = self.name
            data["command_type"] = 1
        if self.message is not None:
            data["interacted_message_id"] = str(self.message.id)
        if self.original is not None:
            data["original_response_message_id"] = str(self.original.id)
        if self.type == MODAL_SUBMIT and self.source is not None:
            data["triggering_interaction_metadata"] = self.source.metadata()
        return data


@dataclass
class InteractionResponse:
    """The bot's first callback: its type, the message it produced or touched, its raw data."""

    type: int
    message: Message | None
    data: dict[str, Any]
    ephemeral: bool
    delay: float

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal sent (callback type 9)."""
        return self.data if self.type == MODAL else None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """The autocomplete choices (callback type 8)."""
        return list(self.data.get("choices") or []) if self.type == AUTOCOMPLETE_RESULT else None


class InteractionResult:
    """Handle returned by emu.slash/click/...: await the bot's response and follow-ups."""

    def __init__(self, record: InteractionRecord, signal: Signal) -> None:
        self.record = record
        self._signal = signal

    @property
    def id(self) -> int:
        """Interaction id."""
        return self.record.id

    @property
    def token(self) -> str:
        """Interaction token."""
        return self.record.token

    @property
    def payload(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload that was dispatched."""
        return self.record.payload

    @property
    def responded(self) -> bool:
        """True once a callback was accepted."""
        return self.record.callback_type is not None

    @property
    def original(self) -> Message | None:
        """The current original response message, if any."""
        return self.record.original

    @property
    def errors(self) -> list[ApiError]:
        """Errors the emulator answered to the bot for this interaction."""
        return self.record.errors

    def _response(self) -> InteractionResponse | None:
        rec = self.record
        if rec.callback_type is None:
            if rec.errors:
                raise InteractionFailed(rec.errors[-1])
            return None
        message = rec.message if rec.callback_type in (DEFERRED_UPDATE, UPDATE_MESSAGE) else rec.original
        return InteractionResponse(
            rec.callback_type, message, rec.callback_data, rec.ephemeral, rec.callback_delay or 0
        )

    async def response(self, timeout: float = PATIENCE) -> InteractionResponse:
        """Wait for the bot's first callback (raises InteractionFailed if it was refused)."""
        return await self._signal.wait_until(self._response, timeout, f"a response to interaction {self.record.name!r}")

    async def followups(self, n: int = 1, timeout: float = PATIENCE) -> list[Message]:
        """Wait until the bot sent n follow-ups; the first may be the deferred original, now filled in."""

        def probe() -> list[Message] | None:
            return list(self.record.followups[:n]) if len(self.record.followups) >= n else None

        return await self._signal.wait_until(probe, timeout, f"{n} follow-up(s) to {self.record.name!r}")

    async def final_message(self, timeout: float = PATIENCE) -> Message:
        """Wait for an original response that is no longer 'thinking'."""

        def probe() -> Message | None:
            self._response()
            original = self.record.original
            return original if original is not None and not original.loading else None

        return await self._signal.wait_until(probe, timeout, f"the final response to {self.record.name!r}")

    async def choices(self, timeout: float = PATIENCE) -> list[dict[str, Any]]:
        """Wait for autocomplete choices."""
        response = await self.response(timeout)
        if response.choices is None:
            raise AssertionError(f"expected autocomplete choices, got callback type {response.type}")
        return response.choices

    async def modal(self, timeout: float = PATIENCE) -> dict[str, Any]:
        """Wait for a modal."""
        response = await self.response(timeout)
        if response.modal is None:
            raise AssertionError(f"expected a modal, got callback type {response.type}")
        return response.modal

    async def error(self, timeout: float = PATIENCE) -> ApiError:
        """Wait until the emulator refused something the bot sent for this interaction."""

        def probe() -> ApiError | None:
            return self.record.errors[-1] if self.record.errors else None

        return await self._signal.wait_until(probe, timeout, f"an error answered for {self.record.name!r}")


class InteractionHost(Protocol):
    """What the interaction machinery needs from the emulator."""

    state: State
    gateway: Gateway
    service: Service
    signal: Signal
    interaction_deadline: float
    interaction_token_ttl: float

    def notify(self) -> None:
        """Wake anyone waiting on emulator state."""


class Interactions:
    """Creates interactions and applies the bot's callbacks and webhook calls to them."""

    def __init__(self, host: InteractionHost) -> None:
        self.host = host
        self.records: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}

    def new_record(
        self, type_: int, user: User, channel: Channel, name: str, *, message: Message | None = None
    ) -> InteractionRecord:
        """A fresh interaction id and token."""
        state = self.host.state
        record = InteractionRecord(
            id=state.ids.next(),
            token=f"emu_{secrets.token_urlsafe(24)}",
            type=type_,
            user=user,
            channel=channel,
            guild=state.guild_of(channel),
            name=name,
            message=message,
        )
        self.records[record.id] = record
        self._by_token[record.token] = record
        return record

    def dispatch(self, record: InteractionRecord) -> InteractionResult:
        """Send INTERACTION_CREATE and start the response clock."""
        if not self.host.gateway.ready:
            raise RuntimeError("the bot has no gateway session: start it and wait until it is ready")
        record.dispatched_at = asyncio.get_running_loop().time()
        sent = self.host.gateway.dispatch("INTERACTION_CREATE", record.payload)
        record.shards = [(session.shard[0], session.shard[1]) for session in sent]
        self.host.notify()
        return InteractionResult(record, self.host.signal)

    # -- POST /interactions/{id}/{token}/callback -----------------------------------------------------

    def callback(self, interaction_id: str, token: str, body: Body) -> dict[str, Any]:
        """Apply the bot's callback; returns the `with_response` body."""
        try:
            record = self.records.get(int(interaction_id))
        except ValueError:
            record = None
        if record is None or record.token != token:
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        try:
            return self._callback(record, body)
        except ApiError as error:
            record.errors.append(error)
            self.host.notify()
            raise

    def _callback(self, record: InteractionRecord, body: Body) -> dict[str, Any]:
        elapsed = asyncio.get_running_loop().time() - record.dispatched_at
        if record.callback_type is not None:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        if record.expired or elapsed > self.host.interaction_deadline:
            record.expired = True
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        type_ = int(body.payload.get("type") or 0)
        data = dict(body.payload.get("data") or {})
        allowed = set(ALLOWED_CALLBACKS.get(record.type, set()))
        if record.type == MODAL_SUBMIT and record.message is None:
            allowed -= {DEFERRED_UPDATE, UPDATE_MESSAGE}
        if type_ not in allowed:
            raise form_error("type", "INTERACTION_RESPONSE_TYPE_INVALID", f"Callback type {type_} is invalid here")
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        service, bot = self.host.service, self.host.state.bot
        message: Message | None = None
        if type_ == CHANNEL_MESSAGE:
            message = service.post_message(
                record.channel,
                bot,
                Body(data, body.files),
                ephemeral_to=record.user.id if ephemeral else None,
                webhook_id=self.host.state.application.id,
                interaction_metadata=record.metadata(),
                type_=CHAT_INPUT_COMMAND_MESSAGE if record.type == APPLICATION_COMMAND else 0,
            )
            record.original = message
        elif type_ == DEFERRED_CHANNEL_MESSAGE:
            message = service.post_message(
                record.channel,
                bot,
                Body({}),
                ephemeral_to=record.user.id if ephemeral else None,
                webhook_id=self.host.state.application.id,
                interaction_metadata=record.metadata(),
                type_=CHAT_INPUT_COMMAND_MESSAGE if record.type == APPLICATION_COMMAND else 0,
                extra_flags=LOADING,
            )
            record.original = message
        elif type_ in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            assert record.message is not None
            if type_ == UPDATE_MESSAGE:
                service.edit_message(record.message, Body(data, body.files))
            record.original = message = record.message
            ephemeral = record.message.ephemeral
        elif type_ == AUTOCOMPLETE_RESULT:
            validate_choices(list(data.get("choices") or []))
        elif type_ == MODAL:
            validate_modal(data)
        record.callback_type, record.callback_data = type_, data
        record.callback_delay, record.ephemeral = elapsed, ephemeral
        self.host.notify()
        return self._callback_response(record, type_, message, ephemeral)

    def _callback_response(
        self, record: InteractionRecord, type_: int, message: Message | None, ephemeral: bool
    ) -> dict[str, Any]:
        inner: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": type_ == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": ephemeral,
        }
        if message is not None and type_ != DEFERRED_UPDATE:
            inner["response_message_id"] = str(message.id)
        if type_ not in (CHANNEL_MESSAGE, UPDATE_MESSAGE):  # Discord describes a resource for 4, 7 and 12 only
            return {"interaction": inner}
        assert message is not None
        resource = {"type": type_, "message": payloads.message(self.host.state, message)}
        return {"interaction": inner, "resource": resource}

    # -- /webhooks/{application_id}/{token}... ------------------------------------------------------

    def _record_for_webhook(self, application_id: str, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or application_id != str(self.host.state.application.id):
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        if time.time() - record.created > self.host.interaction_token_ttl:
            raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return record

    def _guarded(self, record: InteractionRecord, action: Any) -> Any:
        try:
            return action()
        except ApiError as error:
            record.errors.append(error)
            self.host.notify()
            raise

    def followup(self, application_id: str, token: str, body: Body, thread_id: str | None = None) -> Message:
        """POST /webhooks/{app}/{token}: a follow-up, or the filling-in of a deferred original."""
        record = self._record_for_webhook(application_id, token)
        return self._guarded(record, lambda: self._followup(record, body, thread_id))

    def _followup(self, record: InteractionRecord, body: Body, thread_id: str | None) -> Message:
        if record.callback_type is None:
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        service = self.host.service
        original = record.original
        if record.callback_type == DEFERRED_CHANNEL_MESSAGE and original is not None and original.loading:
            message = service.edit_message(original, body, finish_loading=True)
        else:
            channel = self.host.state.channel(thread_id) if thread_id else record.channel
            ephemeral = bool(int(body.payload.get("flags") or 0) & EPHEMERAL)
            message = service.post_message(
                channel,
                self.host.state.bot,
                body,
                ephemeral_to=record.user.id if ephemeral else None,
                webhook_id=self.host.state.application.id,
                interaction_metadata=record.metadata(),
            )
        record.followups.append(message)
        self.host.notify()
        return message

    def webhook_message(self, application_id: str, token: str, message_id: str) -> Message:
        """GET /webhooks/{app}/{token}/messages/{id or @original}."""
        record = self._record_for_webhook(application_id, token)
        return self._guarded(record, lambda: self._find(record, message_id))

    def edit(self, application_id: str, token: str, message_id: str, body: Body) -> Message:
        """PATCH /webhooks/{app}/{token}/messages/{id or @original}."""
        record = self._record_for_webhook(application_id, token)

        def run() -> Message:
            message = self._find(record, message_id)
            return self.host.service.edit_message(message, body, finish_loading=message.loading)

        return self._guarded(record, run)

    def delete(self, application_id: str, token: str, message_id: str) -> None:
        """DELETE /webhooks/{app}/{token}/messages/{id or @original}."""
        record = self._record_for_webhook(application_id, token)
        self._guarded(record, lambda: self.host.service.delete_message(self._find(record, message_id)))

    def _find(self, record: InteractionRecord, message_id: str) -> Message:
        state = self.host.state
        if message_id == "@original":
            candidate = record.original
        else:
            try:
                wanted = int(message_id)
            except ValueError:
                raise not_found(UNKNOWN_MESSAGE, "Message") from None
            candidates = [m for m in (record.original, *record.followups) if m is not None and m.id == wanted]
            candidate = candidates[0] if candidates else None
        if candidate is None or candidate.id not in state.messages:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return candidate
