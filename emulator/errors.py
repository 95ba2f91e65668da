"""Discord API errors as the emulator raises and serialises them."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An HTTP error answered the way Discord answers it (status, JSON code and message)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        body.update(self.extra)
        return body

    def __repr__(self) -> str:
        return f"ApiError(status={self.status}, code={self.code}, message={self.message!r})"


# Discord JSON error codes the emulator uses.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_ROLE = 10011
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_COMMAND = 10063
ENTITY_TOO_LARGE = 40005
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_EDIT_OTHERS = 50005
EMPTY_MESSAGE = 50006
CANNOT_DM_USER = 50007
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083


def not_found(code: int, what: str) -> ApiError:
    """A 404 'Unknown X' error."""
    return ApiError(404, code, f"Unknown {what}")


def form_error(path: str, code: str, message: str) -> ApiError:
    """A 400 Invalid Form Body error with one field error, nested like Discord's."""
    node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path.split(".")):
        node = {part: node}
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors=node)


def missing_permissions() -> ApiError:
    """403 Missing Permissions."""
    return ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")


def missing_access() -> ApiError:
    """403 Missing Access."""
    return ApiError(403, MISSING_ACCESS, "Missing Access")
