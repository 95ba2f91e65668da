"""Faults injected on demand: 429s, arbitrary HTTP errors, closed DMs."""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from emulator.errors import CANNOT_DM_USER, ApiError
from emulator.model import User

_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def _split(route_prefix: str) -> tuple[str | None, str]:
    method, _, rest = route_prefix.strip().partition(" ")
    if method.upper() in _METHODS and rest:
        return method.upper(), _normalise(rest)
    return None, _normalise(route_prefix)


def _normalise(path: str) -> str:
    path = path.strip()
    for version in ("/api/v10", "/api/v9"):
        if path.startswith(version):
            return path[len(version) :] or "/"
    return path


@dataclass
class Rule:
    """One armed fault: matches METHOD + path prefix, fires `times` times."""

    method: str | None
    prefix: str
    times: int
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        """True when the rule still has shots left and fits the request."""
        return self.hits < self.times and (self.method in (None, method)) and _normalise(path).startswith(self.prefix)

    @property
    def spent(self) -> bool:
        """True once it has fired `times` times."""
        return self.hits >= self.times


@dataclass
class RateLimitRule(Rule):
    """Answer 429 with Discord's headers and body."""

    retry_after: float = 0.2
    is_global: bool = False
    limit: int = 5

    def error(self) -> ApiError:
        """The 429 to send."""
        bucket = hashlib.sha1(f"{self.method} {self.prefix}".encode()).hexdigest()[:32]
        headers = {
            "Retry-After": str(max(1, math.ceil(self.retry_after))),
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": "global" if self.is_global else "user",
            "Via": "1.1 google",
        }
        if self.is_global:
            headers["X-RateLimit-Global"] = "true"
        return ApiError(
            429,
            0,
            "You are being rate limited.",
            headers=headers,
            extra={"retry_after": self.retry_after, "global": self.is_global},
        )


@dataclass
class ErrorRule(Rule):
    """Answer an arbitrary status/code/message."""

    status: int = 500
    code: int = 0
    message: str = "Internal Server Error"

    def error(self) -> ApiError:
        """The error to send."""
        return ApiError(self.status, self.code, self.message)


class Faults:
    """Switchboard of injected failures, consulted by the HTTP layer."""

    def __init__(self) -> None:
        self.rules: list[RateLimitRule | ErrorRule] = []
        self.closed_dms: set[int] = set()

    def rate_limit(
        self, route_prefix: str, times: int = 1, retry_after: float = 0.2, *, is_global: bool = False
    ) -> RateLimitRule:
        """Answer 429 to the next `times` requests matching e.g. "POST /channels/123/messages"."""
        method, prefix = _split(route_prefix)
        rule = RateLimitRule(method, prefix, times, retry_after=retry_after, is_global=is_global)
        self.rules.append(rule)
        return rule

    def fail(
        self,
        route_prefix: str,
        status: int = 500,
        code: int = 0,
        message: str = "Internal Server Error",
        times: int = 1,
    ) -> ErrorRule:
        """Answer an arbitrary error to the next `times` matching requests."""
        method, prefix = _split(route_prefix)
        rule = ErrorRule(method, prefix, times, status=status, code=code, message=message)
        self.rules.append(rule)
        return rule

    def dm_closed(self, user: User, closed: bool = True) -> None:
        """Refuse (403, code 50007) every bot message to that user's DM channel."""
        if closed:
            self.closed_dms.add(user.id)
        else:
            self.closed_dms.discard(user.id)

    def check_dm(self, user_id: int) -> None:
        """Raise the 50007 error when the user's DMs are closed."""
        if user_id in self.closed_dms:
            raise ApiError(403, CANNOT_DM_USER, "Cannot send messages to this user")

    def check(self, method: str, path: str) -> None:
        """Raise the first armed fault matching the request, if any."""
        for rule in self.rules:
            if rule.matches(method, path):
                rule.hits += 1
                raise rule.error()

    def clear(self) -> None:
        """Disarm everything."""
        self.rules.clear()
        self.closed_dms.clear()
