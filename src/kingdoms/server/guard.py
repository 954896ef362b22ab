"""The outer layer of the web app: security headers, body limits and rate limits.

:class:`Guard` is plain ASGI middleware around the whole app:

* every HTTP response (API, pages, static files, errors) gets ``nosniff``, a
  ``Referrer-Policy`` and, where HTML is served, a Content-Security-Policy whose
  sockets may reach only the page's own host (:func:`csp_for`);
* a request whose ``Content-Length`` exceeds the limit is refused with 413 before
  its body is read, and a body sent without one stops being read past the limit;
* per-client token buckets on costly endpoints answer 429 with ``Retry-After``;
  a game creation that carries a profile is left to its handler, which charges the
  proven profile's own bucket (:data:`RATE_DEFERRED`);
* the request's client (``scope["client"]``, the peer or the address a trusted proxy
  forwarded: see ``--forwarded-allow-ips``) becomes the *client* every per-client limit
  counts: an IPv4 address, or an IPv6 address's /64
  (:func:`~kingdoms.server.limits.client_id`); the peer's own address stays in
  ``scope["kingdoms.peer"]``.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from kingdoms.server.limits import client_id

log = logging.getLogger(__name__)

PEER = "kingdoms.peer"
"""Where :class:`Guard` keeps the address a request came from, before it names the client."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy when the request named no usable host: only
the page's own origin ('self', which covers its WebSocket in current browsers)."""

_HOST = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")


def csp_for(host: bytes | str | None) -> str:
    """The Content-Security-Policy of a page asked for with this ``Host`` header: its
    sockets may go to its own origin only — ``'self'`` plus ``ws://`` and ``wss://``
    of that very host (browsers older than CSP 3 do not count a socket to the same
    host as ``'self'``); never to another host.  A malformed host gets ``'self'``.

    >>> csp_for(b"games.example:8000").split("; ")[1]
    "connect-src 'self' ws://games.example:8000 wss://games.example:8000"
    >>> csp_for("evil.example wss:").split("; ")[1]
    "connect-src 'self'"
    """
    text = host.decode("latin-1") if isinstance(host, bytes) else host
    if not text or len(text) > 260 or not _HOST.fullmatch(text):
        return CSP
    own = f"connect-src 'self' ws://{text} wss://{text}"
    return CSP.replace("connect-src 'self'", own, 1)


ABORT = "kingdoms.abort"

RATE_DEFERRED = "kingdoms.rate_deferred"
"""Scope key: the :class:`RateLimiter` whose check the Guard left to the handler,
because the request carries a signed-in profile (``{"profile": {name, secret}}`` in a
game creation): once the handler has proven the profile it charges that profile's own
bucket (``profile:<id>``), not the address's.  A wrong profile is refused and charges
nobody; profile attempts are themselves rate-limited per address."""

PROFILE_KINDS = frozenset({"create"})
"""Kinds of request whose body may carry the profile they count for."""


def _carries_profile(payload: bytes) -> bool:
    """Whether ``payload`` is a JSON object with a ``profile`` of ``{name, secret}``."""
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return False
    profile = data.get("profile") if isinstance(data, dict) else None
    return isinstance(profile, dict) and all(
        isinstance(profile.get(k), str) for k in ("name", "secret")
    )


"""Scope key of a WebSocket's function that closes it at once, dropping what it has not
read (uvicorn's ASGI ``send`` is a method of its connection, which holds the transport)."""

COMMON_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


@dataclass(frozen=True, slots=True)
class RateRule:
    """``rate`` requests per second per client for requests matching ``method`` and
    a path that ``kind`` recognises, in bursts of up to ``burst``."""

    kind: str
    rate: float
    burst: float


def request_kind(method: str, path: str) -> str | None:
    """Which rate-limited kind of request this is (``None``: not limited)."""
    if method == "POST" and path == "/api/games":
        return "create"
    if method == "GET" and path.startswith("/api/games/"):
        if path.endswith("/replay"):
            return "replay"
        if path.endswith("/record"):
            return "record"
    return None


def rate_limited(kind: str) -> dict[str, Any]:
    """The body of a 429 for a ``kind`` request over its rate."""
    return _err("rate_limited", f"too many {kind} requests; retry later")


def retry_after(wait: float) -> bytes:
    """The ``Retry-After`` header's value for a wait of ``wait`` seconds."""
    return str(max(1, math.ceil(wait))).encode()


class RateLimiter:
    """Token buckets per (client, kind); remembers at most ``max_clients`` clients."""

    def __init__(self, rules: dict[str, RateRule], max_clients: int = 10_000) -> None:
        self.rules = rules
        self.max_clients = max_clients
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def wait_time(self, client: str, kind: str, now: float | None = None) -> float:
        """0 if the request may go ahead (and count it), else seconds until it may."""
        rule = self.rules.get(kind)
        if rule is None:
            return 0.0
        now = time.monotonic() if now is None else now
        key = (client, kind)
        level, last = self._buckets.pop(key, (rule.burst, now))
        level = min(rule.burst, level + (now - last) * rule.rate)
        if level < 1:
            self._buckets[key] = (level, now)
            return (1 - level) / rule.rate
        self._buckets[key] = (level - 1, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return 0.0


async def _send_json(send: Send, status: int, body: dict[str, Any], extra: list[Any]) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
                *COMMON_HEADERS,
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


class Guard:
    """ASGI middleware: see the module's description."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        limiter: RateLimiter | None = None,
        ipv6_prefix: int = 64,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.limiter = limiter
        self.ipv6_prefix = ipv6_prefix

    async def _over_rate(self, scope: Scope, send: Send, kind: str) -> bool:
        """Count one ``kind`` request of the scope's client address; when over its rate,
        answer 429 and return True."""
        assert self.limiter is not None
        client = (scope.get("client") or ("?", 0))[0]
        wait = self.limiter.wait_time(str(client), kind)
        if wait <= 0:
            return False
        await _send_json(send, 429, rate_limited(kind), [(b"retry-after", retry_after(wait))])
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if client and PEER not in scope:  # one person, one client: see client_id
            scope[PEER] = client[0]
            scope["client"] = (client_id(str(client[0]), self.ipv6_prefix), client[1])
        if scope["type"] != "http":
            if scope["type"] == "websocket":  # a way to drop a client that does not read
                transport = getattr(getattr(send, "__self__", None), "transport", None)
                if transport is not None and hasattr(transport, "abort"):
                    scope[ABORT] = transport.abort
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared < 0:
                await _send_json(send, 400, _err("bad_request", "bad Content-Length"), [])
                return
            if declared > self.max_body:
                await _send_json(send, 413, _too_large(self.max_body), [])
                return
        kind = None
        if self.limiter is not None:
            kind = request_kind(scope.get("method", ""), scope.get("path", ""))
            # a request that may count for a profile is checked once its body is read
            deferred = kind is None or kind in PROFILE_KINDS
            if not deferred and await self._over_rate(scope, send, str(kind)):
                return

        # the body is read here, at most max_body bytes of it, whatever the client says
        chunks: list[bytes] = []
        received = 0
        more = scope.get("method", "GET") not in ("GET", "HEAD", "OPTIONS") or length is not None
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_body:
                await _send_json(send, 413, _too_large(self.max_body), [])
                return
            chunks.append(chunk)
            more = bool(message.get("more_body"))
        payload = b"".join(chunks)
        if self.limiter is not None and kind in PROFILE_KINDS:
            if _carries_profile(payload):
                scope[RATE_DEFERRED] = self.limiter
            elif await self._over_rate(scope, send, kind):
                return
        replayed = False

        async def buffered_receive() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": payload, "more_body": False}
            return await receive()

        async def secured_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw = list(message.get("headers") or [])
                names = {k.lower() for k, _ in raw}
                extra = [h for h in COMMON_HEADERS if h[0] not in names]
                ctype = next((v for k, v in raw if k.lower() == b"content-type"), b"")
                if ctype.startswith(b"text/html"):
                    # the policy names the host the page was asked for (see csp_for)
                    raw = [(k, v) for k, v in raw if k.lower() != b"content-security-policy"]
                    extra.append(
                        (b"content-security-policy", csp_for(headers.get(b"host")).encode())
                    )
                message["headers"] = raw + extra
            await send(message)

        await self.app(scope, buffered_receive, secured_send)


def _err(code: str, message: str) -> dict[str, str]:
    return {"error": code, "message": message}


def _too_large(limit: int) -> dict[str, str]:
    return _err("too_large", f"request body too large (at most {limit} bytes)")


class RepeatFilter(logging.Filter):
    """Lets the same message through at most ``burst`` times per ``period`` seconds,
    then once more with how many were dropped (no log floods from repeated errors)."""

    def __init__(self, burst: int = 5, period: float = 10.0) -> None:
        super().__init__()
        self.burst, self.period = burst, period
        self._seen: OrderedDict[tuple[str, str], list[float]] = OrderedDict()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = time.monotonic()
        window_start, count, dropped = self._seen.pop(key, [now, 0, 0])
        if now - window_start > self.period:
            if dropped:
                record.msg = f"{record.msg} (and {int(dropped)} more like it)"
            window_start, count, dropped = now, 0, 0
        count += 1
        keep = count <= self.burst
        if not keep:
            dropped += 1
        self._seen[key] = [window_start, count, dropped]
        while len(self._seen) > 1000:
            self._seen.popitem(last=False)
        return keep


def install_repeat_filter(names: tuple[str, ...] = ("", "uvicorn", "uvicorn.error")) -> None:
    """Put one :class:`RepeatFilter` on the handlers of the given loggers (idempotent)."""
    shared = RepeatFilter()
    for name in names:
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, RepeatFilter) for f in handler.filters):
                handler.addFilter(shared)
