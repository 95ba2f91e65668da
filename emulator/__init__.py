"""A loopback fake Discord (HTTP API v10 + gateway) for testing discord.py bots; see README.md."""

from __future__ import annotations

from emulator.bodies import Body, UploadedFile
from emulator.commands import Upload
from emulator.emulator import Emulator
from emulator.errors import ApiError
from emulator.faults import ErrorRule, Faults, RateLimitRule
from emulator.interactions import InteractionFailed, InteractionResponse, InteractionResult
from emulator.model import ApplicationCommand, Attachment, Channel, Guild, Member, Message, Role, User

__all__ = [
    "ApiError",
    "ApplicationCommand",
    "Attachment",
    "Body",
    "Channel",
    "Emulator",
    "ErrorRule",
    "Faults",
    "Guild",
    "InteractionFailed",
    "InteractionResponse",
    "InteractionResult",
    "Member",
    "Message",
    "RateLimitRule",
    "Role",
    "Upload",
    "UploadedFile",
    "User",
]
