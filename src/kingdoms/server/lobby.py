"""The lobby's HTTP JSON API: games on offer, creating, listing and finished records.

Every endpoint is described in :data:`OPENAPI` (served at ``/openapi.json``);
a test keeps the description and the routes in sync.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kingdoms.bots.base import bot_names
from kingdoms.core.errors import KingdomsError
from kingdoms.core.registry import available_games, get_game
from kingdoms.i18n import LANGUAGES, catalog
from kingdoms.server.master import GameMaster, RequestError, Table, public_seats
from kingdoms.server.storage import STATUS_FINISHED, STATUS_RUNNING

MAX_BODY = 16_384


def _master(request: Request) -> GameMaster:
    master: GameMaster = request.app.state.master
    return master


def error_response(err: RequestError, status: int = 400) -> JSONResponse:
    if err.code == "no_game":
        status = 404
    elif err.code == "bad_token":
        status = 403
    elif err.code == "broken_game":
        status = 409
    return JSONResponse({"error": err.code, "message": str(err)}, status_code=status)


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
                "options": getattr(game, "lobby_options", lambda: {})(),
            }
        )
    return out


async def list_catalog(request: Request) -> Response:
    """The games this server offers, with player counts, bots and options."""
    return JSONResponse({"games": game_catalog(), "languages": list(LANGUAGES)})


async def create_game(request: Request) -> Response:
    """Create a game; returns one secret invite link per human seat."""
    body = await request.body()
    if len(body) > MAX_BODY:
        return error_response(RequestError("bad_config", "request too large"))
    try:
        data = json.loads(body or b"null")
    except ValueError as err:
        return error_response(RequestError("bad_config", f"body is not JSON: {err}"))
    if not isinstance(data, dict):
        return error_response(RequestError("bad_config", "body must be a JSON object"))
    game, seats = data.get("game"), data.get("seats")
    if not isinstance(game, str):
        return error_response(RequestError("bad_config", "'game' must be a game name"))
    players = data.get("players")
    if seats is None and isinstance(players, int) and not isinstance(players, bool):
        seats = [{"kind": "human"} for _ in range(min(max(players, 0), 16))]
    if not isinstance(seats, list):
        return error_response(RequestError("bad_config", "'seats' must be a list"))
    if isinstance(players, int) and players != len(seats):
        return error_response(RequestError("bad_config", "'players' and 'seats' disagree"))
    options = data.get("options") or {}
    if not isinstance(options, dict):
        return error_response(RequestError("bad_config", "'options' must be an object"))
    try:
        table, tokens = _master(request).create_game(game, seats, options, data.get("seed"))
    except RequestError as err:
        return error_response(err)
    base = str(request.base_url).rstrip("/")
    out_seats = public_seats(table.seats)
    for seat, token in zip(out_seats, tokens, strict=True):
        if token is not None:
            seat["token"] = token
            seat["link"] = f"{base}/game/{table.id}#t={token}"
    humans = [t for t in tokens if t is not None]
    return JSONResponse(
        {
            "id": table.id,
            "game": table.state.config.game,
            "options": dict(table.state.config.options),
            "seats": out_seats,
            "hotseat_link": f"{base}/game/{table.id}#t={','.join(humans)}" if humans else None,
        },
        status_code=201,
    )


async def list_games(request: Request) -> Response:
    """Games newest first; ``?status=running|finished``."""
    status = request.query_params.get("status")
    if status not in (None, STATUS_RUNNING, STATUS_FINISHED):
        return error_response(RequestError("bad_query", "status must be running or finished"))
    master = _master(request)
    games = [master.summary(g) for g in master.storage.list_games(status)]
    return JSONResponse({"games": games})


def _table(request: Request) -> Table:
    return _master(request).get(request.path_params["game_id"])


async def get_game_info(request: Request) -> Response:
    """One game's public summary (no secrets)."""
    master = _master(request)
    try:
        table = _table(request)
    except RequestError as err:
        return error_response(err)
    stored = master.storage.load_game(table.id)
    if stored is None:
        return error_response(RequestError("no_game", "no such game"))
    return JSONResponse(master.summary(stored))


def _finished(request: Request) -> Table:
    table = _table(request)
    if not table.finished:
        raise RequestError("not_finished", "the record is available once the game is over")
    return table


async def get_record(request: Request) -> Response:
    """The game record (JSON, readable by ``kingdoms replay``) of a finished game."""
    try:
        table = _finished(request)
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
        table = _finished(request)
        step = int(request.query_params.get("step", table.state.step))
        seat = int(request.query_params.get("seat", 0))
    except RequestError as err:
        return error_response(err)
    except ValueError:
        return error_response(RequestError("bad_query", "step and seat must be integers"))
    if not 0 <= step <= table.state.step or not 0 <= seat < table.state.num_players:
        return error_response(RequestError("bad_query", "step or seat out of range"))
    lang = _lang(request)
    state = table.record().replay(step)
    events = state.log_for(None)
    return JSONResponse(
        {
            "game_id": table.id,
            "game": state.config.game,
            "step": step,
            "steps": table.state.step,
            "seat": seat,
            "current_player": state.current_player,
            "view": state.view(seat),
            "log": [{**e, "text": state.event_to_str(e, lang)} for e in events],
            "seats": public_seats(table.seats),
        }
    )


async def get_messages(request: Request) -> Response:
    """The interface's message catalog for ``lang`` (msgid → text)."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return error_response(RequestError("bad_query", f"unknown language {lang!r}"), 404)
    return JSONResponse({"lang": lang, "messages": catalog(lang)})


async def openapi(request: Request) -> Response:
    """This API's OpenAPI description."""
    return JSONResponse(OPENAPI)


ROUTES = [
    Route("/api/catalog", list_catalog, methods=["GET"]),
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/games/{game_id}", get_game_info, methods=["GET"]),
    Route("/api/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/api/games/{game_id}/replay", get_replay, methods=["GET"]),
    Route("/api/i18n/{lang}", get_messages, methods=["GET"]),
    Route("/openapi.json", openapi, methods=["GET"]),
]

_ERROR = {"$ref": "#/components/schemas/Error"}
_JSON = "application/json"


def _resp(desc: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": desc, "content": {_JSON: {"schema": schema or {"type": "object"}}}}


def _gid() -> dict[str, Any]:
    return {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}


OPENAPI: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {
        "title": "kingdoms server",
        "version": "1",
        "description": "Lobby API. Play happens over the WebSocket /ws/{game_id}; "
        "see kingdoms.server.protocol for its messages.",
    },
    "paths": {
        "/api/catalog": {
            "get": {
                "summary": "Games offered, with player counts, bots and options",
                "responses": {"200": _resp("the catalog")},
            }
        },
        "/api/games": {
            "get": {
                "summary": "List games, newest first",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {"type": "string", "enum": ["running", "finished"]},
                    }
                ],
                "responses": {"200": _resp("games"), "400": _resp("bad query", _ERROR)},
            },
            "post": {
                "summary": "Create a game; returns secret invite links for human seats",
                "requestBody": {
                    "required": True,
                    "content": {_JSON: {"schema": {"$ref": "#/components/schemas/NewGame"}}},
                },
                "responses": {"201": _resp("the new game"), "400": _resp("bad settings", _ERROR)},
            },
        },
        "/api/games/{game_id}": {
            "get": {
                "summary": "A game's public summary",
                "parameters": [_gid()],
                "responses": {"200": _resp("summary"), "404": _resp("no such game", _ERROR)},
            }
        },
        "/api/games/{game_id}/record": {
            "get": {
                "summary": "Download a finished game's record",
                "parameters": [_gid()],
                "responses": {
                    "200": _resp("the record"),
                    "400": _resp("not finished", _ERROR),
                    "404": _resp("no such game", _ERROR),
                },
            }
        },
        "/api/games/{game_id}/replay": {
            "get": {
                "summary": "A finished game at one step, seen by one seat, with the full log",
                "parameters": [
                    _gid(),
                    {"name": "step", "in": "query", "schema": {"type": "integer"}},
                    {"name": "seat", "in": "query", "schema": {"type": "integer"}},
                    {"name": "lang", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": _resp("the game at that step"),
                    "400": _resp("bad query or not finished", _ERROR),
                    "404": _resp("no such game", _ERROR),
                },
            }
        },
        "/api/i18n/{lang}": {
            "get": {
                "summary": "Interface messages for a language",
                "parameters": [
                    {"name": "lang", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {"200": _resp("catalog"), "404": _resp("unknown language", _ERROR)},
            }
        },
        "/openapi.json": {
            "get": {"summary": "This description", "responses": {"200": _resp("OpenAPI")}}
        },
    },
    "components": {
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error", "message"],
                "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
            },
            "Seat": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": ["human", "bot"]},
                    "name": {"type": "string", "maxLength": 40},
                    "bot": {"type": "string", "description": "bot spec, e.g. big-money"},
                },
            },
            "NewGame": {
                "type": "object",
                "required": ["game"],
                "properties": {
                    "game": {"type": "string"},
                    "players": {"type": "integer"},
                    "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}},
                    "options": {"type": "object", "description": "game options (kingdom…)"},
                    "seed": {"type": "integer"},
                },
            },
        }
    },
}
