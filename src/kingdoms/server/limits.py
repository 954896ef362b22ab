"""What the server accepts from strangers: sizes, texts, JSON and bot options.

Everything a client sends is checked here before it reaches the game master or
the database; a refusal is a :class:`~kingdoms.server.table.RequestError` that
names what was wrong.

>>> check_text("Ada", "name")
'Ada'
>>> check_text("\\ud800", "name")
Traceback (most recent call last):
...
kingdoms.server.table.RequestError: name must be valid Unicode (no lone surrogates)
>>> parse_json(b'[[[1]]]', max_depth=2)
Traceback (most recent call last):
...
kingdoms.server.table.RequestError: JSON nested deeper than 2 levels
>>> bounded_bot_spec("mcts:time=inf", ServerLimits())
Traceback (most recent call last):
...
kingdoms.server.table.RequestError: bot option time must be a finite number
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kingdoms.bots.base import SEARCH_BOTS, format_bot_spec, parse_bot_spec
from kingdoms.core.errors import InvalidConfig
from kingdoms.server.table import RequestError


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The server's configurable maxima (``kingdoms serve`` exposes the main ones)."""

    max_body: int = 16_384
    """Bytes in one HTTP request body (larger: 413)."""
    max_json_depth: int = 32
    """Nesting of arrays and objects in a request or message (deeper: 400)."""
    max_name: int = 40
    """Characters in a seat name."""
    max_text: int = 200
    """Characters in any other text a client sends (bot specs, option strings...)."""
    send_queue: int = 256
    """Messages that may wait to be written to one connection; a connection further
    behind (it does not read) is closed (see :class:`~kingdoms.server.table.Outbox`)."""
    send_queue_bytes: int = 4 << 20
    """Characters that may wait to be written to one connection (same as above)."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to say ``hello`` before it is closed."""
    spectators_per_game: int = 1000
    """Spectators one game may have at once (more are refused: ``too_many``)."""
    spectators_per_address: int = 16
    """Spectator connections one client address may hold at once, over all games."""
    unjoined_per_address: int = 100
    """Games one client address may have waiting for their players at once (more are
    refused until some are joined or expire)."""
    evict_after: float = 300.0
    """Seconds an unwatched game without a running bot stays in memory (reloaded on demand)."""
    max_resident: int = 5000
    """Games kept in memory at most (idle ones beyond are dropped, least recently used first)."""
    bot_think: float = 5.0
    """Seconds a bot may think per move (``time`` of search bots)."""
    bot_iterations: int = 20_000
    """Iterations a search bot may run per move."""
    bot_workers: int = 2
    """Bot moves computed at once, across all games (the server's bot CPU)."""
    bot_game_seconds: float = 600.0
    """Seconds of thinking all the bots of one game of bots alone may use in all; then
    they answer at once (a uniformly random legal action), so the game ends soon."""
    bot_games_per_client: int = 2
    """Games of bots alone with a search bot (:func:`bot_heavy`) that one client address
    may have running at once (more: 429 ``too_many_bot_games``)."""
    ipv6_prefix: int = 64
    """IPv6 addresses count as one client per network of this prefix length (an ordinary
    IPv6 user holds a whole /64); IPv4 addresses one client each (see :func:`client_id`)."""
    reviews_per_client: int = 2
    """Reviews of other people's games one client may have waiting or running at once."""
    review_workers: int = 1
    """Processes analysing reviews (their own, at ``nice 19``, stopped while any bot move
    waits or runs: see :class:`kingdoms.server.review.ReviewGate`)."""
    review_queue: int = 50
    """Reviews asked for by strangers (not a seat of the game) waiting at once, in all;
    a game's own players are never refused for a full queue."""


DEFAULT_LIMITS = ServerLimits()

_NUMBER_BOUND = 1_000_000
"""Any other numeric bot option must lie within ± this."""


FORBIDDEN_CHARS = (
    "\\x00-\\x1f\\x7f-\\x9f"  # C0 and C1 control characters
    "\\u00ad\\u061c\\u180e"  # invisible formatting
    "\\u200b-\\u200c\\u200e-\\u200f"  # zero-width (the joiner of emoji sequences stays)
    "\\u2028-\\u202e\\u2060-\\u206f"  # line/paragraph separators, bidi overrides
    "\\ufeff\\ufff9-\\ufffb"
)
"""Characters refused in any client text, as the body of a regular-expression class
(the same in Python and in the OpenAPI description's ``pattern``).  Lone surrogates
are refused too: they are not Unicode scalar values, so no JSON schema string holds one."""

TEXT_PATTERN = f"^[^{FORBIDDEN_CHARS}]*$"
_FORBIDDEN = re.compile(f"[{FORBIDDEN_CHARS}\\ud800-\\udfff]")


def check_text(value: Any, what: str, max_len: int = DEFAULT_LIMITS.max_text) -> str:
    """``value`` if it is text that can be stored and shown safely, else a ``bad_text`` error.

    Valid Unicode scalar values only (no lone surrogates), no control, invisible or
    direction-changing characters (:data:`FORBIDDEN_CHARS`), at most ``max_len``
    characters."""
    if not isinstance(value, str):
        raise RequestError("bad_text", f"{what} must be text")
    if len(value) > max_len:
        raise RequestError("bad_text", f"{what} is too long (at most {max_len} characters)")
    bad = _FORBIDDEN.search(value)
    if bad is not None:
        if 0xD800 <= ord(bad.group()) <= 0xDFFF:
            raise RequestError("bad_text", f"{what} must be valid Unicode (no lone surrogates)")
        raise RequestError("bad_text", f"{what} must not contain control or invisible characters")
    return value


def check_json_text(value: Any, what: str, limits: ServerLimits = DEFAULT_LIMITS) -> None:
    """Every string (keys included) inside a decoded JSON value passes :func:`check_text`."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            check_text(item, what, limits.max_text)
        elif isinstance(item, dict):
            for key, sub in item.items():
                check_text(key, what, limits.max_text)
                stack.append(sub)
        elif isinstance(item, list):
            stack.extend(item)


def json_depth_ok(raw: str | bytes, max_depth: int) -> bool:
    """Whether brackets in ``raw`` nest at most ``max_depth`` deep (strings skipped).

    Runs in linear time without recursion, so that it can guard the parser.

    >>> json_depth_ok('{"a": [[1], [2], [3]]}', 3), json_depth_ok('[[[[1]]]]', 3)
    (True, False)
    >>> json_depth_ok('{"t": "[[[[[["}', 2), json_depth_ok(b'[{"a": 1}]', 1)
    (True, False)
    """
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    if text.count("[") + text.count("{") <= max_depth:
        return True  # no more brackets than levels (most messages): nothing to walk
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(
    raw: str | bytes, max_depth: int = DEFAULT_LIMITS.max_json_depth, max_size: int | None = None
) -> Any:
    """Decode a client's JSON or raise ``bad_json``: size and depth are checked first."""
    if max_size is not None and len(raw) > max_size:
        raise RequestError("too_large", f"body too large (over {max_size} bytes)")
    if not json_depth_ok(raw, max_depth):
        raise RequestError("bad_json", f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as err:
        raise RequestError("bad_json", f"body is not JSON: {err}") from err


def bounded_bot_spec(spec: Any, limits: ServerLimits, clamp: bool = False) -> str:
    """The bot spec to run for a client's ``spec``, within the server's maxima.

    Refuses (``bad_config``) non-finite numbers, a think time over ``bot_think``
    seconds and more than ``bot_iterations`` iterations; a search bot limited only
    by iterations also gets the think-time cap.  With ``clamp`` (games stored before
    the limits were lowered) values over the maxima are lowered instead of refused."""
    spec = check_text(spec, "bot", limits.max_text)
    try:
        name, params = parse_bot_spec(spec)
    except InvalidConfig as err:
        raise RequestError("bad_config", str(err)) from err
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            if key == "clock" and value != "cpu":  # think time is CPU time: same play under load
                if not clamp:
                    raise RequestError("bad_config", "bot option clock must be cpu here")
                value = "cpu"
            out[key] = value
            continue
        if not math.isfinite(value):
            if clamp:
                continue
            raise RequestError("bad_config", f"bot option {key} must be a finite number")
        if key == "time" and value > limits.bot_think:
            if not clamp:
                raise RequestError(
                    "bad_config", f"bot option time must be at most {limits.bot_think:g} seconds"
                )
            value = limits.bot_think
        elif key == "iterations" and value > limits.bot_iterations:
            if not clamp:
                raise RequestError(
                    "bad_config", f"bot option iterations must be at most {limits.bot_iterations}"
                )
            value = limits.bot_iterations
        elif abs(value) > _NUMBER_BOUND:
            if not clamp:
                raise RequestError(
                    "bad_config", f"bot option {key} must lie within ±{_NUMBER_BOUND}"
                )
            value = math.copysign(_NUMBER_BOUND, value)
        out[key] = value
    if name in SEARCH_BOTS and "iterations" in out and "time" not in out:
        out["time"] = limits.bot_think
    return format_bot_spec(name, out)


def client_id(address: str, ipv6_prefix: int = 64) -> str:
    """The client an address belongs to, as every per-client limit counts it: an IPv4
    address itself, an IPv6 address its network of ``ipv6_prefix`` bits (one ordinary
    IPv6 user holds a /64), however it is spelled; an IPv4 address mapped into IPv6 is
    that IPv4 address.  Anything else (a Unix socket, a test client) is kept as is.

    >>> client_id("203.0.113.7"), client_id("::ffff:203.0.113.7")
    ('203.0.113.7', '203.0.113.7')
    >>> client_id("2001:DB8:0:1:0:0:0:1") == client_id("2001:db8:0:1::ffff") == "2001:db8:0:1::/64"
    True
    >>> client_id("2001:db8:0:2::1"), client_id("2001:db8::1", ipv6_prefix=128)
    ('2001:db8:0:2::/64', '2001:db8::1/128')
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        net = ipaddress.IPv6Network((ip, max(0, min(ipv6_prefix, 128))), strict=False)
        return str(net)
    return str(ip)


def client_key(address: str) -> str:
    """A client address as kept with the games it creates (a hash, not the address):
    what the per-address limits count, over every server process of one database.

    >>> client_key("203.0.113.7") == client_key("203.0.113.7") != client_key("203.0.113.8")
    True
    """
    return hashlib.sha256(f"kingdoms-client:{address}".encode()).hexdigest()[:16]


def bot_heavy(seats: Sequence[Any]) -> bool:
    """Whether a game of these seats is bots alone with a search bot among them: such a
    game costs bot CPU at every step with nobody waiting for it.  Seats are the request's
    unchecked data: anything but a list of objects is not such a game (the game's own
    checks refuse it afterwards).

    >>> bot_heavy([{"kind": "bot", "bot": "mcts:time=1"}, {"kind": "bot", "bot": "random"}])
    True
    >>> bot_heavy([{"kind": "human"}, {"kind": "bot", "bot": "mcts"}])
    False
    >>> bot_heavy([[None, None], {"kind": "bot", "bot": "mcts"}])
    False
    """
    if not seats or any(not isinstance(s, Mapping) or s.get("kind") != "bot" for s in seats):
        return False
    names = [str(s.get("bot") or "random").partition(":")[0].strip() for s in seats]
    return any(n in SEARCH_BOTS for n in names)
