"""The lobby's HTTP JSON API: games on offer, creating, listing and finished records.

Every endpoint is described in :data:`kingdoms.server.openapi.OPENAPI` (served at
``/openapi.json``); a test keeps the description and the routes in sync.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kingdoms.bots.base import bot_names
from kingdoms.core.errors import KingdomsError
from kingdoms.core.registry import available_games, get_game
from kingdoms.i18n import LANGUAGES, catalog, plurals
from kingdoms.server.botnames import DEFAULT_BOTS
from kingdoms.server.guard import RATE_DEFERRED, rate_limited, retry_after
from kingdoms.server.hyphen import with_hyphenated_names
from kingdoms.server.limits import bot_heavy, check_json_text, client_key, parse_json
from kingdoms.server.logtext import seat_names, with_names
from kingdoms.server.master import GameMaster, RequestError, Table, public_seats
from kingdoms.server.openapi import describe
from kingdoms.server.privacy import (
    PRIVATE,
    SHARE_HASH,
    check_open,
    new_share_key,
    no_such_game,
    request_tokens,
)
from kingdoms.server.ratings import profile_client
from kingdoms.server.spectate import current_scores
from kingdoms.server.storage import STATUS_ABANDONED, STATUS_FINISHED, STATUS_RUNNING


def _master(request: Request) -> GameMaster:
    master: GameMaster = request.app.state.master
    return master


def error_response(err: RequestError, status: int = 400) -> JSONResponse:
    if err.code == "no_game":
        status = 404
    elif err.code == "bad_token":
        status = 403
    elif err.code in ("broken_game", "not_finished"):
        status = 409
    elif err.code == "expired":
        status = 410
    elif err.code == "too_large":
        status = 413
    elif err.code == "too_many":
        status = 429
    elif err.code == "storage":
        status = 503
    body: dict[str, Any] = {"error": err.code, "message": str(err)}
    if err.detail:
        body["detail"] = err.detail
    return JSONResponse(body, status_code=status)


def game_catalog() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in available_games():
        try:
            game = get_game(name)
            bots = bot_names(name)
        except (ImportError, KingdomsError):  # a game not built into this install
            continue
        out.append(
            {
                "name": game.name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "bots": bots,
                "default_bot": DEFAULT_BOTS.get(game.name, bots[0] if bots else None),
                "options": game.lobby_options(),
                "board": game.web.board,
                "css": list(game.web.css),
            }
        )
    return out


async def list_catalog(request: Request) -> Response:
    """The games this server offers, with player counts, bots and options."""
    return JSONResponse({"games": game_catalog(), "languages": list(LANGUAGES)})


async def create_game(request: Request) -> Response:
    """Create a game; returns one secret invite link per human seat."""
    limits = _master(request).limits
    body = await request.body()  # at most limits.max_body bytes: see kingdoms.server.guard
    try:
        data = parse_json(body or b"null", limits.max_json_depth, limits.max_body)
        check_json_text(data, "text in the request", limits)
    except RequestError as err:
        return error_response(err)
    if not isinstance(data, dict):
        return error_response(RequestError("bad_config", "body must be a JSON object"))
    for key in ("game", "players", "seats", "options", "seed", "profile"):
        if key in data and data[key] is None:
            return error_response(RequestError("bad_config", f"'{key}' must not be null"))
    game, seats = data.get("game"), data.get("seats")
    if not isinstance(game, str) or not game:
        return error_response(RequestError("bad_config", "'game' must be a game name"))
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        return error_response(RequestError("bad_config", "'players' must be an integer"))
    if seats is None and isinstance(players, int) and not isinstance(players, bool):
        seats = [{"kind": "human"} for _ in range(min(max(players, 0), 16))]
    if not isinstance(seats, list):
        return error_response(RequestError("bad_config", "'seats' must be a list"))
    if isinstance(players, int) and players != len(seats):
        return error_response(RequestError("bad_config", "'players' and 'seats' disagree"))
    options = data.get("options", {})
    if not isinstance(options, dict):
        return error_response(RequestError("bad_config", "'options' must be an object"))
    seed = data.get("seed")
    if seed is not None and not request.app.state.allow_seeds:
        # a player who knows the seed could foresee every shuffle
        return error_response(RequestError("bad_config", "this server does not accept seeds"))
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        return error_response(RequestError("bad_config", "'rated' must be true or false"))
    private = data.get("private", False)  # its review hidden unless a seat shares it
    if not isinstance(private, bool):
        return error_response(RequestError("bad_config", "'private' must be true or false"))
    meta: dict[str, Any] = {"rated": True} if rated else {}
    share_key = None
    if private:  # listed nowhere; opened with a seat's token or the share key
        share_key, meta[SHARE_HASH] = new_share_key()
        meta[PRIVATE] = True
    address = request.client.host if request.client else "?"
    if "profile" in data:
        # a signed-in player has quotas of its own: a school behind one address is
        # not one client (the profile is proven: a wrong secret is refused)
        try:
            address = await profile_client(request, data["profile"], address)
        except RequestError as err:
            # a wrong profile is bad settings of the request, like any other (400)
            status = 429 if err.code == "rate_limited" else 400
            return error_response(err, status)
        limiter = request.scope.get(RATE_DEFERRED)
        if limiter is not None:  # the create rate: the profile's own bucket
            wait = limiter.wait_time(address, "create")
            if wait > 0:
                headers = {"Retry-After": retry_after(wait).decode()}
                return JSONResponse(rate_limited("create"), 429, headers=headers)
    if bot_heavy(seats):
        # games of bots alone that search: a few at once per client address (counted
        # in the database as the game is stored: over every server process)
        meta["creator"] = client_key(address)
    try:
        table, tokens = await _master(request).open_game(
            game, seats, options, seed, meta=meta, address=address
        )
    except RequestError as err:
        if err.code == "too_many_bot_games":
            return JSONResponse(
                {"error": err.code, "message": str(err)},
                status_code=429,
                headers={"Retry-After": "30"},
            )
        return error_response(err)
    base = str(request.base_url).rstrip("/")
    out_seats = public_seats(table.seats)
    for seat, token in zip(out_seats, tokens, strict=True):
        if token is not None:
            seat["token"] = token
            seat["link"] = f"{base}/game/{table.id}#t={token}"
    humans = [t for t in tokens if t is not None]
    out: dict[str, Any] = {
        "id": table.id,
        "game": table.state.config.game,
        "options": dict(table.state.config.options),
        "seats": out_seats,
        "hotseat_link": f"{base}/game/{table.id}#t={','.join(humans)}" if humans else None,
        "private": private,
    }
    if share_key is not None:  # for whoever may watch, replay and read the review
        out["share_key"] = share_key
        out["share_link"] = f"{base}/game/{table.id}#k={share_key}"
    return JSONResponse(out, status_code=201)


async def list_games(request: Request) -> Response:
    """Games newest first; ``?status=running|finished``.  Private games are never
    listed."""
    status = request.query_params.get("status")
    if status not in (None, STATUS_RUNNING, STATUS_FINISHED, STATUS_ABANDONED):
        return error_response(
            RequestError("bad_query", "status must be running, finished or abandoned")
        )
    master = _master(request)
    games = [master.summary(g) for g in master.storage.list_games(status)]
    return JSONResponse({"games": games})


async def _table(request: Request) -> Table:
    return await _master(request).fetch(request.path_params["game_id"])


async def get_game_info(request: Request) -> Response:
    """One game's public summary (no secrets); a private game's only with a seat's
    token or its share key (else the answer of an unknown id)."""
    master = _master(request)
    try:
        table = await _table(request)
        check_open(table, request_tokens(request))
    except RequestError as err:
        return error_response(err)
    stored = master.storage.load_game(table.id)
    if stored is None:
        return error_response(no_such_game())
    return JSONResponse(master.summary(stored))


async def _finished(request: Request) -> Table:
    table = await _table(request)
    check_open(table, request_tokens(request))  # a private game: its secrets first
    if not table.finished:
        raise RequestError("not_finished", "the record is available once the game is over")
    return table


async def get_record(request: Request) -> Response:
    """The game record (JSON, readable by ``kingdoms replay``) of a finished game."""
    try:
        table = await _finished(request)
    except RequestError as err:
        return error_response(err)
    return Response(
        table.record().dumps(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="kingdoms-{table.id}.json"'},
    )


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


async def get_replay(request: Request) -> Response:
    """A finished game at step ``?step=n`` seen by ``?seat=k``: view and full log so far."""
    try:
        table = await _finished(request)
        step = int(request.query_params.get("step", table.state.step))
        seat = int(request.query_params.get("seat", 0))
    except RequestError as err:
        return error_response(err)
    except ValueError:
        return error_response(RequestError("bad_query", "step and seat must be integers"))
    if not 0 <= step <= table.state.step or not 0 <= seat < table.state.num_players:
        return error_response(RequestError("bad_query", "step or seat out of range"))
    lang = _lang(request)
    master = _master(request)
    # CPU work (snapshots every few steps, cached) kept off the event loop
    body = await asyncio.to_thread(_replay_body, master, table, step, seat, lang)
    return JSONResponse(body)


def _replay_body(master: GameMaster, table: Table, step: int, seat: int, lang: str) -> Any:
    state = master.replays.state_at(table.id, table.record(), step)
    events = state.log_for(None)
    names = seat_names(table.seats, lang)
    return {
        "game_id": table.id,
        "game": state.config.game,
        "step": step,
        "steps": table.state.step,
        "seat": seat,
        "current_player": state.current_player,
        "view": state.view(seat),
        "scores": current_scores(state),
        "outcome": table.outcome_json() if step == table.state.step else None,
        "log": [
            {**e, "text": with_names(state.event_to_str(e, lang), names, lang)} for e in events
        ],
        "seats": public_seats(table.seats),
    }


async def get_messages(request: Request) -> Response:
    """The interface's message catalog for ``lang`` (msgid → text)."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return error_response(RequestError("bad_query", f"unknown language {lang!r}"), 404)
    return JSONResponse({"lang": lang, "messages": catalog(lang), "plurals": plurals(lang)})


async def get_game_data(request: Request) -> Response:
    """A game's static data for boards in ``lang`` (card names, costs, texts; tiles)."""
    name, lang = request.path_params["game"], request.path_params["lang"]
    if lang not in LANGUAGES:
        return error_response(RequestError("bad_query", f"unknown language {lang!r}"), 404)
    try:
        game = get_game(name)
    except KingdomsError as err:
        return error_response(RequestError("no_game", str(err)), 404)
    return JSONResponse(with_hyphenated_names(game.client_data(lang), lang))


async def openapi(request: Request) -> Response:
    """This API's OpenAPI description."""
    state = request.app.state
    doc = getattr(state, "openapi", None)
    if doc is None:
        doc = state.openapi = describe(game_catalog(), _master(request).limits, state.allow_seeds)
    return JSONResponse(doc)


async def games(request: Request) -> Response:
    """``/api/games``: list (GET) or create (POST) — one route, so that its 405
    answers name both methods."""
    if request.method == "POST":
        return await create_game(request)
    return await list_games(request)


ROUTES = [
    Route("/api/catalog", list_catalog, methods=["GET"]),
    Route("/api/catalog/{game}/{lang}", get_game_data, methods=["GET"]),
    Route("/api/games", games, methods=["GET", "POST"]),
    Route("/api/games/{game_id}", get_game_info, methods=["GET"]),
    Route("/api/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/api/games/{game_id}/replay", get_replay, methods=["GET"]),
    Route("/api/i18n/{lang}", get_messages, methods=["GET"]),
    Route("/openapi.json", openapi, methods=["GET"]),
]
