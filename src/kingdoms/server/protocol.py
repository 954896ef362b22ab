"""The WebSocket protocol between a browser and the game master.

Client → server (JSON objects; the first must be ``hello``)::

    {"type": "hello", "tokens": ["<seat token>", ...], "lang": "en"}
    {"type": "hello", "watch": true, "lang": "en"}      (a spectator: public view only)
    {"type": "hello", "watch": true, "profile": {"name": "Ann", "secret": "..."}}
                          (a signed-in spectator: counted in its profile's places)
    {"type": "action", "action": 12, "state_id": 34, "seat": 0, "ref": 7}
    {"type": "action", "text": "Buy Silver", "state_id": 34}
    {"type": "undo", "state_id": 35}
    {"type": "resign", "seat": 0}                      (ends the game; the seat comes last)
    {"type": "lang", "lang": "pl"}
    {"type": "ping"}

Server → client::

    {"type": "state", "seat": 0, "state_id": 35, "view": {...}, "log_start": 80,
     "log": [{..., "text": "..."}], "legal": [{"action": 3, "text": "..."}], ...}
    {"type": "ack", "ref": 7, "state_id": 35}
    {"type": "error", "code": "stale", "message": "...", "ref": 7}
    {"type": "pong"}

A connection that sends more than its burst of messages gets one ``slow_down``
error and is closed (code 1008); so is one that has not said ``hello`` within
the server's ``hello_timeout`` (error ``hello_timeout``), and one that does not
read what it is sent (it falls too far behind: see
:class:`~kingdoms.server.table.Outbox`).

``seat`` in an action is needed only when one connection holds several seats
(hot-seat) and the choice is ambiguous.  Errors go to the sender only and
change nothing.

>>> decode('{"type": "ping"}')
{'type': 'ping'}
>>> decode('{"type": "jump"}')
Traceback (most recent call last):
...
kingdoms.server.table.RequestError: unknown message type 'jump'; expected one of hello, ...
"""

from __future__ import annotations

import time
from typing import Any

from kingdoms.server.limits import check_json_text, parse_json
from kingdoms.server.table import RequestError

MAX_MESSAGE = 4096
"""Longest client message accepted, in characters."""

CLIENT_TYPES = ("hello", "action", "undo", "lang", "ping", "resign")


def decode(raw: str | bytes | None) -> dict[str, Any]:
    """Parse one client message or raise :class:`RequestError` ``bad_message``."""
    if raw is None:
        raise RequestError("bad_message", "send JSON text messages")
    if len(raw) > MAX_MESSAGE:
        raise RequestError("bad_message", f"message too long (over {MAX_MESSAGE} characters)")
    try:
        msg = parse_json(raw, max_depth=8)
        check_json_text(msg, "text in the message")
    except RequestError as err:
        raise RequestError("bad_message", str(err)) from err
    if not isinstance(msg, dict):
        raise RequestError("bad_message", "a message must be a JSON object")
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise RequestError(
            "bad_message",
            f"unknown message type {kind!r}; expected one of {', '.join(CLIENT_TYPES)}",
        )
    return msg


def hello_tokens(msg: dict[str, Any]) -> list[str]:
    tokens = msg.get("tokens")
    if tokens is None and isinstance(msg.get("token"), str):
        tokens = [msg["token"]]
    if not isinstance(tokens, list) or not tokens or len(tokens) > 8:
        raise RequestError("bad_token", "hello needs 'tokens': a list of seat tokens")
    if not all(isinstance(t, str) and 0 < len(t) <= 100 for t in tokens):
        raise RequestError("bad_token", "tokens must be short strings")
    return tokens


def error(err: RequestError, ref: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": err.code, "message": str(err)}
    if ref is not None:
        out["ref"] = ref
    return out


def safe_ref(msg: dict[str, Any]) -> Any:
    """The client's request reference, echoed back if it is a small int or string."""
    ref = msg.get("ref")
    if isinstance(ref, int | str) and not isinstance(ref, bool) and len(str(ref)) <= 40:
        return ref
    return None


class RateLimit:
    """A token bucket per connection: ``burst`` messages at once, ``rate`` per second after."""

    def __init__(self, rate: float = 10.0, burst: float = 30.0) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.last = time.monotonic()

    def take(self) -> bool:
        """Count one message; ``False`` if the bucket is empty (the connection floods)."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def check(self) -> None:
        """Like :meth:`take`, raising ``slow_down`` when the bucket is empty."""
        if not self.take():
            raise RequestError("slow_down", "too many messages; wait a moment")
