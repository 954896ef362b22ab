"""Player profiles and ratings (Weng-Lin, with openskill).

* A **profile** is a name and a secret.  The browser makes the secret and keeps it;
  the server stores only a salted scrypt hash.  Creating profiles and proving one
  are rate-limited per client address.
* A player proves a profile when joining a seat (``hello`` with ``profile``); the
  seat then carries the profile's id.
* A proven profile is a client of its own in the per-client quotas of the requests
  that carry it (:func:`profile_client`): creating games, asking for reviews,
  watching games — a school behind one address is not one client.
* A game created with ``"rated": true`` is **rated** when it ends (by its rules or
  a resignation; not when abandoned) if every human seat holds a profile, no
  profile holds two seats, and there are two seats or more.  Bots are rated too,
  by their name, so players see how strong each bot is.
* Only games that were played are rated: each seat made at least
  :data:`MIN_DECISIONS` decisions of its own (a resignation before that leaves the
  game unrated), and two profiles are rated against each other at most
  :data:`MAX_PAIR_GAMES` times per :data:`PAIR_WINDOW` seconds per game — so a
  client with two profiles cannot farm a rating from games resigned at once.
* Ratings are kept per game and separately for 2-player and 3–6-player games.
  The leaderboard orders by the conservative estimate ``mu - 3·sigma``.

>>> book = RatingBook(Storage("sqlite://").engine)
>>> ann = book.create_profile("Ann", "correct horse battery")
>>> book.check_profile("Ann", "correct horse battery") == ann
True
>>> book.rate_game("g1", "dominion", [f"p:{ann['id']}", "bot:big-money"], [10.0, 5.0])
True
>>> [row["name"] for row in book.leaderboard("dominion", 2)]
['Ann', 'bot:big-money']
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Column, Float, Integer, MetaData, String, Table, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kingdoms.core.record import GameRecord
from kingdoms.server.limits import DEFAULT_LIMITS, parse_json
from kingdoms.server.names import name_key
from kingdoms.server.protocol import RateLimit
from kingdoms.server.storage import STATUS_ABANDONED, Storage, create_tables, keys, required
from kingdoms.server.table import HUMAN, RequestError
from kingdoms.server.table import Table as GameTable

MAX_NAME = 40
MIN_DECISIONS = 10
"""Decisions each seat must have made for a game to be rated."""
MAX_PAIR_GAMES = 3
PAIR_WINDOW = 24 * 3600.0
"""At most MAX_PAIR_GAMES rated games between the same two profiles (of one game)
within PAIR_WINDOW seconds; later ones are not rated."""
MIN_SECRET, MAX_SECRET = 12, 200
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1

metadata = MetaData()

profiles_table = Table(
    "profiles",
    metadata,
    *keys(id=String(24)),
    Column("name", String(MAX_NAME * 4), nullable=False, unique=True),
    Column("name_key", String(MAX_NAME * 4), nullable=False, unique=True),
    *required(salt=String(64), secret_hash=String(128), created=Float),
)

ratings_table = Table(
    "ratings",
    metadata,
    *keys(subject=String(120), game=String(40), bucket=String(8)),
    *required(mu=Float, sigma=Float),
    Column("games", Integer, nullable=False, default=0),
    *required(updated=Float),
)

rated_games_table = Table(
    "rated_games",
    metadata,
    *keys(game_id=String(40)),
    *required(game=String(40), subjects=String(2000), at=Float),
)


def bucket_of(players: int) -> str:
    """Ratings are separate for 2-player and for 3–6-player games."""
    return "2p" if players == 2 else "multi"


def check_name(name: Any) -> str:
    """A profile or seat name: text, 1–40 characters, no control characters."""
    if not isinstance(name, str):
        raise RequestError("bad_profile", "the name must be text")
    text: str = unicodedata.normalize("NFC", name).strip()
    if not text or len(text) > MAX_NAME:
        raise RequestError("bad_profile", f"the name must have 1 to {MAX_NAME} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise RequestError("bad_profile", "the name may not contain control characters")
    return text


def _check_secret(secret: Any) -> str:
    if not isinstance(secret, str) or not MIN_SECRET <= len(secret) <= MAX_SECRET:
        raise RequestError(
            "bad_profile", f"the secret must be text of {MIN_SECRET} to {MAX_SECRET} characters"
        )
    return secret


def _hash(secret: str, salt: str) -> str:
    digest = hashlib.scrypt(
        secret.encode(), salt=bytes.fromhex(salt), n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P
    )
    return digest.hex()


def _rank(scores: Sequence[float], winners: Sequence[int], last: int | None) -> list[int]:
    """Ranks (1 = best) from the outcome: winners first, then by score; a seat that
    resigned comes last."""
    keys = []
    for i, s in enumerate(scores):
        keys.append((0 if i == last else 1, 1 if i in winners else 0, s))
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


class RatingBook:
    """Profiles and ratings in the server's database (tables created when missing,
    so an existing database gains them on the first start)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.model = PlackettLuce()
        create_tables(engine, metadata)
        self._rekey_names()

    def _rekey_names(self) -> None:
        """Give profiles made before names were compared by :func:`name_key` (case
        folding alone) their key; of names that now read the same, the oldest keeps
        it and the others keep their old key (they still sign in)."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(
                    profiles_table.c.id, profiles_table.c.name, profiles_table.c.name_key
                ).order_by(profiles_table.c.created)
            ).all()
            taken = {r.name_key for r in rows}
            for r in rows:
                key = name_key(r.name)
                if key != r.name_key and key not in taken:
                    conn.execute(
                        update(profiles_table)
                        .where(profiles_table.c.id == r.id)
                        .values(name_key=key)
                    )
                    taken.add(key)

    # -- profiles ----------------------------------------------------------------------
    def create_profile(self, name: Any, secret: Any) -> dict[str, str]:
        name = check_name(name)
        secret = _check_secret(secret)
        salt = secrets.token_hex(16)
        pid = secrets.token_hex(8)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(profiles_table).values(
                        id=pid,
                        name=name,
                        name_key=name_key(name),
                        salt=salt,
                        secret_hash=_hash(secret, salt),
                        created=time.time(),
                    )
                )
        except IntegrityError as err:
            raise RequestError(
                "name_taken", f"the name {name!r} is taken (or one that reads the same)"
            ) from err
        return {"id": pid, "name": name}

    def check_profile(self, name: Any, secret: Any) -> dict[str, str]:
        """The profile if ``secret`` is its secret; else ``RequestError`` bad_profile."""
        name = check_name(name)
        secret = _check_secret(secret)
        with self.engine.connect() as conn:
            row = conn.execute(
                select(profiles_table).where(profiles_table.c.name_key == name_key(name))
            ).first()
        if row is None or not hmac.compare_digest(_hash(secret, row.salt), row.secret_hash):
            raise RequestError("bad_profile", "no profile with that name and secret")
        return {"id": row.id, "name": row.name}

    def names(self, ids: Sequence[str]) -> dict[str, str]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(profiles_table.c.id, profiles_table.c.name).where(
                    profiles_table.c.id.in_(list(ids))
                )
            ).all()
        return {r.id: r.name for r in rows}

    # -- ratings -----------------------------------------------------------------------
    def rate_game(
        self,
        game_id: str,
        game: str,
        subjects: Sequence[str],
        scores: Sequence[float],
        winners: Sequence[int] = (),
        last: int | None = None,
    ) -> bool:
        """Update the ratings of ``subjects`` (one per seat) from a game's result;
        ``False`` when this game was rated already."""
        bucket = bucket_of(len(subjects))
        now = time.time()
        with self.engine.begin() as conn:
            if self._pair_bound_reached(conn, game, subjects, now):
                return False
            try:
                conn.execute(
                    insert(rated_games_table).values(
                        game_id=game_id, game=game, subjects=json.dumps(list(subjects)), at=now
                    )
                )
            except IntegrityError:
                return False
            rows = {
                r.subject: r
                for r in conn.execute(
                    select(ratings_table).where(
                        ratings_table.c.game == game,
                        ratings_table.c.bucket == bucket,
                        ratings_table.c.subject.in_(list(subjects)),
                    )
                ).all()
            }
            teams = []
            for s in subjects:
                row = rows.get(s)
                rating = (
                    self.model.rating(name=s)
                    if row is None
                    else self.model.rating(mu=row.mu, sigma=row.sigma, name=s)
                )
                teams.append([rating])
            ranks = _rank(scores, winners, last)
            new = self.model.rate(teams, ranks=[float(r) for r in ranks])
            for s, team in zip(subjects, new, strict=True):
                r = team[0]
                if s in rows:
                    conn.execute(
                        update(ratings_table)
                        .where(
                            ratings_table.c.subject == s,
                            ratings_table.c.game == game,
                            ratings_table.c.bucket == bucket,
                        )
                        .values(mu=r.mu, sigma=r.sigma, games=rows[s].games + 1, updated=now)
                    )
                else:
                    conn.execute(
                        insert(ratings_table).values(
                            subject=s,
                            game=game,
                            bucket=bucket,
                            mu=r.mu,
                            sigma=r.sigma,
                            games=1,
                            updated=now,
                        )
                    )
        return True

    def _pair_bound_reached(
        self, conn: Connection, game: str, subjects: Sequence[str], now: float
    ) -> bool:
        """Whether two of the profiles among ``subjects`` were rated against each
        other :data:`MAX_PAIR_GAMES` times in ``game`` within the last
        :data:`PAIR_WINDOW` seconds."""
        people = sorted({s for s in subjects if s.startswith("p:")})
        if len(people) < 2:
            return False
        rows = conn.execute(
            select(rated_games_table.c.subjects).where(
                rated_games_table.c.game == game,
                rated_games_table.c.at > now - PAIR_WINDOW,
                # games with any two of them hold at least one of all but the last
                or_(*(rated_games_table.c.subjects.contains(json.dumps(p)) for p in people[:-1])),
            )
        ).all()
        counts: dict[tuple[str, str], int] = {}
        for row in rows:
            try:
                seen = {s for s in json.loads(row.subjects) if isinstance(s, str)}
            except ValueError:
                continue
            for i, a in enumerate(people):
                for b in people[i + 1 :]:
                    if a in seen and b in seen:
                        counts[a, b] = counts.get((a, b), 0) + 1
        return any(n >= MAX_PAIR_GAMES for n in counts.values())

    def leaderboard(self, game: str, players: int, limit: int = 100) -> list[dict[str, Any]]:
        """Ratings of one game and bucket, best conservative estimate first."""
        bucket = bucket_of(players)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_table).where(
                    ratings_table.c.game == game, ratings_table.c.bucket == bucket
                )
            ).all()
        people = self.names([r.subject[2:] for r in rows if r.subject.startswith("p:")])
        out = []
        for r in rows:
            kind = "bot" if r.subject.startswith("bot:") else "profile"
            name = r.subject if kind == "bot" else people.get(r.subject[2:], "?")
            out.append(
                {
                    "name": name,
                    "kind": kind,
                    "bot": r.subject[4:] if kind == "bot" else None,
                    "mu": round(r.mu, 3),
                    "sigma": round(r.sigma, 3),
                    "rating": round(r.mu - 3 * r.sigma, 3),
                    "games": r.games,
                }
            )
        out.sort(key=lambda x: (-x["rating"], x["name"]))
        return out[:limit]

    # -- games -------------------------------------------------------------------------
    def subjects(self, table: GameTable) -> list[str] | None:
        """Who is rated for each seat, or ``None`` when the game is not rateable."""
        if not table.meta.get("rated") or len(table.seats) < 2:
            return None
        out: list[str] = []
        for seat in table.seats:
            if seat.get("kind") == HUMAN:
                pid = seat.get("profile")
                if not isinstance(pid, str):
                    return None
                out.append(f"p:{pid}")
            else:
                out.append(f"bot:{seat.get('bot') or 'random'}")
        people = [s for s in out if s.startswith("p:")]
        if not people or len(set(people)) != len(people):
            return None  # bots alone, or one profile on several seats
        return out

    def on_finish(self, storage: Storage) -> Any:
        """A finish hook for the game master: rate the game that just ended."""

        def hook(table: GameTable) -> None:
            subjects = self.subjects(table)
            outcome = table.outcome_json()
            if subjects is None or outcome is None:
                return
            details = outcome.get("details") or {}
            if details.get("ended") == STATUS_ABANDONED:
                return
            scores = [float(x) for x in outcome.get("scores") or []]
            if len(scores) != len(subjects) or not played(table):
                return
            self.rate_game(
                table.id,
                table.state.config.game,
                subjects,
                scores,
                outcome.get("winners") or [],
                details.get("resigned"),
            )

        return hook


def played(table: GameTable, minimum: int = MIN_DECISIONS) -> bool:
    """Whether every seat of ``table`` made at least ``minimum`` decisions (the game
    is replayed from its start until each has, or to its end)."""
    state = GameRecord(config=table.state.config, actions=()).replay()
    left = [minimum] * len(table.seats)
    missing = len(left) if minimum > 0 else 0
    for action in table.state.history:
        if missing == 0:
            return True
        seat = state.current_player
        if 0 <= seat < len(left) and left[seat] > 0:
            left[seat] -= 1
            if left[seat] == 0:
                missing -= 1
        state.apply(action)
    return missing == 0


# -- HTTP -----------------------------------------------------------------------------


def _book(request: Request) -> RatingBook:
    book: RatingBook = request.app.state.ratings
    return book


def _limited(request: Request) -> None:
    """At most a few profile requests per client address (bursts of 20, then 1 a second)."""
    host = request.client.host if request.client else "?"
    check_rate(request.app.state.profile_limits, host)


PROFILE_CLIENT = "profile:"
"""How a proven profile's client key begins (an address never does)."""


async def profile_client(conn: HTTPConnection, profile: Any, address: str) -> str:
    """The client a request is in every per-client quota: the profile it proves
    (``{name, secret}``, checked off the event loop, attempts rate-limited per
    ``address`` like every profile request), as ``profile:<id>``.  Raises
    :class:`RequestError` ``bad_profile`` (not such an object, or no profile with that
    name and secret) or ``rate_limited``; a refused profile counts for nobody."""
    if not isinstance(profile, dict):
        raise RequestError("bad_profile", "profile must be {name, secret}")
    check_rate(conn.app.state.profile_limits, address)
    book: RatingBook = conn.app.state.ratings
    found = await asyncio.to_thread(book.check_profile, profile.get("name"), profile.get("secret"))
    return PROFILE_CLIENT + found["id"]


def check_rate(limits: dict[str, RateLimit], host: str) -> None:
    """Count one profile attempt from ``host``; ``RequestError`` rate_limited when too many."""
    if host not in limits:
        if len(limits) > 10_000:
            limits.clear()
        limits[host] = RateLimit(1.0, 20)
    try:
        limits[host].check()
    except RequestError as err:
        raise RequestError("rate_limited", "too many attempts; wait a little") from err


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, parsed with the server's limits (size, depth)."""
    raw = await request.body()
    if len(raw) > 2048:
        raise RequestError("bad_profile", "request too large")
    master = getattr(request.app.state, "master", None)
    depth = master.limits.max_json_depth if master is not None else DEFAULT_LIMITS.max_json_depth
    data = parse_json(raw or b"null", depth)
    if not isinstance(data, dict):
        raise RequestError("bad_profile", "the body must be a JSON object")
    return data


def _error(err: RequestError) -> JSONResponse:
    status = {"rate_limited": 429, "name_taken": 409}.get(err.code, 400)
    if err.code == "bad_profile" and "no profile" in str(err):
        status = 403
    return JSONResponse({"error": err.code, "message": str(err)}, status_code=status)


async def create_profile(request: Request) -> Response:
    """Create a profile: ``{"name", "secret"}`` (the secret stays in the browser)."""
    return await _profile_request(request, RatingBook.create_profile, 201)


async def login(request: Request) -> Response:
    """Check a profile's name and secret (e.g. on another device)."""
    return await _profile_request(request, RatingBook.check_profile, 200)


async def _profile_request(
    request: Request, act: Callable[[RatingBook, Any, Any], dict[str, str]], status: int
) -> Response:
    """``act(book, name, secret)`` on the request's JSON body, within the rate limit."""
    try:
        _limited(request)
        data = await _body(request)
        profile = act(_book(request), data.get("name"), data.get("secret"))
    except RequestError as err:
        return _error(err)
    return JSONResponse(profile, status_code=status)


_GAME_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""A game's registered name, as the OpenAPI description states it."""


async def get_ratings(request: Request) -> Response:
    """The leaderboard of ``?game=`` for ``?players=2`` (2-player) or ``3``–``6``."""
    game = request.query_params.get("game", "")
    try:
        players = int(request.query_params.get("players", "2"))
    except ValueError:
        players = 0
    if not _GAME_NAME.fullmatch(game) or not 2 <= players <= 6:
        return JSONResponse(
            {"error": "bad_query", "message": "need ?game=<name>&players=2..6"}, status_code=400
        )
    return JSONResponse(
        {
            "game": game,
            "bucket": bucket_of(players),
            "ratings": _book(request).leaderboard(game, players),
        }
    )


async def claim_seats(
    book: RatingBook,
    master: Any,
    table: GameTable,
    seats: Sequence[int],
    profile: Any,
    limits: dict[str, RateLimit] | None = None,
    host: str = "?",
) -> None:
    """Attach a proven profile to the seats a connection holds (once per seat)."""
    if not isinstance(profile, dict):
        raise RequestError("bad_profile", "profile must be {name, secret}")
    if limits is not None:
        check_rate(limits, host)
    found = book.check_profile(profile.get("name"), profile.get("secret"))
    changes: dict[int, dict[str, Any]] = {}
    async with table.lock:
        for s in seats:
            seat = table.seats[s]
            if seat.get("kind") == HUMAN and not seat.get("profile"):
                seat["profile"] = found["id"]
                changes[s] = {"profile": found["id"]}
        if changes:  # merged with what other processes set meanwhile
            table.seats = master.storage.merge_seats(table.id, changes)


ROUTES = [
    Route("/api/profiles", create_profile, methods=["POST"]),
    Route("/api/profiles/login", login, methods=["POST"]),
    Route("/api/ratings", get_ratings, methods=["GET"]),
]
