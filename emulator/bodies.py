"""Request bodies: JSON, or multipart/form-data with `payload_json` and `files[n]` parts."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from emulator.errors import ApiError, form_error

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$|^file(\d*)$")


@dataclass
class UploadedFile:
    """One uploaded file part."""

    index: int
    filename: str
    content: bytes
    content_type: str | None = None


@dataclass
class Body:
    """A parsed request body: the JSON payload and any files."""

    payload: dict[str, Any] = field(default_factory=dict)
    files: list[UploadedFile] = field(default_factory=list)


# A multipart body once read (by the check against Discord's API description): its stream
# cannot be read twice, so the handler gets the same Body (aiohttp 3.12+ wants typed keys).
_BODY: Any = web.RequestKey("emulator.body", Body) if hasattr(web, "RequestKey") else "emulator.body"


async def read_body(request: web.Request) -> Body:
    """Parse JSON or multipart the way discord.py sends them."""
    if request.content_type.startswith("multipart/"):
        if _BODY not in request:
            request[_BODY] = await _read_multipart(request)
        cached: Body = request[_BODY]
        return cached
    raw = await request.read()
    if not raw:
        return Body()
    try:
        payload = json.loads(raw)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
    if not isinstance(payload, dict):
        raise form_error("_root", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
    return Body(payload=payload)


async def _read_multipart(request: web.Request) -> Body:
    reader = await request.multipart()
    body = Body()
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):  # nested multipart: not something discord.py sends
            continue
        name = part.name or ""
        data = await part.read(decode=False)
        if name == "payload_json":
            try:
                body.payload = json.loads(bytes(data))
            except ValueError:
                raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
            continue
        match = _FILE_FIELD.match(name)
        if match is None:
            continue
        index = int(match.group(1) or match.group(2) or len(body.files))
        content_type = part.headers.get("Content-Type")
        body.files.append(UploadedFile(index, part.filename or f"file{index}", bytes(data), content_type))
    return body
