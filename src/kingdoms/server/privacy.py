"""Private games: listed nowhere, and opened only with a seat's token or the game's
share key.

A game created with ``"private": true`` gets a *share key* besides its seat tokens
(only its hash is stored, in the game's ``meta``): the creator passes the share
link on to whoever may watch, replay or read the review.  Everything of a private
game that shows its course — the record, the replay, the review, spectating — asks
for one of those secrets, in the ``X-Seat-Tokens`` header (comma-separated), a
``?key=`` query (for plain links such as a record download) or, on the WebSocket, the
``tokens`` of a spectator's hello.  Without one the game does not exist for the
client: every route — the summary ``GET /api/games/<id>`` too, and a player's hello
with a wrong token — answers exactly as for an id that names no game
(:func:`no_such_game`, ``404 no_game``), so not even whether the id is right is told.

>>> from kingdoms.server.table import Table
>>> key, digest = new_share_key()
>>> class Game:  # the parts of a Table used here
...     meta = {"private": True, SHARE_HASH: digest}
...     def seat_of(self, token): return 0 if token == "seat-token" else None
>>> may_open(Game(), ["seat-token"]), may_open(Game(), [key]), may_open(Game(), ["guess"])
(True, True, False)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, Protocol

from starlette.requests import HTTPConnection

from kingdoms.server.table import RequestError, hash_token

PRIVATE = "private"
"""The ``meta`` flag of a private game."""
SHARE_HASH = "share_hash"
"""The ``meta`` entry holding the hash of a private game's share key."""
MAX_TOKENS = 16
"""Secrets read from one request at most."""


class _Game(Protocol):
    meta: Any

    def seat_of(self, token: str) -> int | None: ...


def new_share_key() -> tuple[str, str]:
    """A fresh share key and the hash stored for it."""
    key = secrets.token_urlsafe(18)
    return key, hash_token(key)


def is_private(game: _Game) -> bool:
    return bool(game.meta.get(PRIVATE))


def holds_share_key(game: _Game, tokens: Sequence[str]) -> bool:
    digest = game.meta.get(SHARE_HASH)
    if not isinstance(digest, str) or not digest:
        return False
    return any(isinstance(t, str) and secrets.compare_digest(hash_token(t), digest) for t in tokens)


def may_open(game: _Game, tokens: Sequence[str]) -> bool:
    """Whether a client holding ``tokens`` may see the course of ``game``."""
    if not is_private(game):
        return True
    if holds_share_key(game, tokens):
        return True
    return any(isinstance(t, str) and game.seat_of(t) is not None for t in tokens)


NO_SUCH_GAME = "no such game"
"""The one answer to an id that names no game and to a private game shown no secret."""


def no_such_game() -> RequestError:
    """The error for a game the client may not know of: unknown, or private and locked."""
    return RequestError("no_game", NO_SUCH_GAME)


def check_open(game: _Game, tokens: Sequence[str]) -> None:
    """Refuse a private game to a client without its secrets, with the very answer an
    unknown id gets (:func:`no_such_game`)."""
    if not may_open(game, tokens):
        raise no_such_game()


def request_tokens(conn: HTTPConnection) -> list[str]:
    """The secrets a request shows: ``X-Seat-Tokens`` (comma-separated) and ``?key=``."""
    raw = conn.headers.get("x-seat-tokens", "")
    tokens = [t.strip() for t in raw.split(",") if t.strip()]
    key = conn.query_params.get("key")
    if key:
        tokens.append(key)
    return [t for t in tokens if len(t) <= 100][:MAX_TOKENS]
