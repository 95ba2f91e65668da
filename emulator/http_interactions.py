"""Interaction routes: the callback endpoint and the application's follow-up webhook."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from emulator import payloads
from emulator.bodies import read_body
from emulator.http_api import API, json_response, no_content

if TYPE_CHECKING:
    from emulator.emulator import Emulator

WEBHOOK = f"{API}/webhooks/{{app_id}}/{{token}}"


def _flag(request: web.Request, name: str) -> bool:
    return request.query.get(name, "").lower() in ("1", "true")


class InteractionRoutes:
    """POST /interactions/{id}/{token}/callback and /webhooks/{app_id}/{token}/..."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def register(self, app: web.Application) -> None:
        """Add the routes."""
        r = app.router
        r.add_post(f"{API}/interactions/{{interaction_id}}/{{token}}/callback", self.callback)
        r.add_post(WEBHOOK, self.execute)
        r.add_get(f"{WEBHOOK}/messages/{{message_id}}", self.get_message)
        r.add_patch(f"{WEBHOOK}/messages/{{message_id}}", self.edit_message)
        r.add_delete(f"{WEBHOOK}/messages/{{message_id}}", self.delete_message)

    async def callback(self, request: web.Request) -> web.Response:
        """The bot's first answer to an interaction."""
        body = await read_body(request)
        info = request.match_info
        result = self.emu.interactions.callback(info["interaction_id"], info["token"], body)
        if _flag(request, "with_response"):
            return json_response(result)
        return no_content()

    async def execute(self, request: web.Request) -> web.Response:
        """A follow-up message (`?wait=true` returns it)."""
        body = await read_body(request)
        info = request.match_info
        thread_id = request.query.get("thread_id")
        message = self.emu.interactions.followup(info["app_id"], info["token"], body, thread_id)
        if _flag(request, "wait"):
            return json_response(payloads.message(self.emu.state, message))
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        """GET @original or a follow-up."""
        info = request.match_info
        message = self.emu.interactions.webhook_message(info["app_id"], info["token"], info["message_id"])
        return json_response(payloads.message(self.emu.state, message))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH @original or a follow-up."""
        body = await read_body(request)
        info = request.match_info
        message = self.emu.interactions.edit(info["app_id"], info["token"], info["message_id"], body)
        return json_response(payloads.message(self.emu.state, message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE @original or a follow-up."""
        info = request.match_info
        self.emu.interactions.delete(info["app_id"], info["token"], info["message_id"])
        return no_content()
