"""The OpenAPI description of the lobby's HTTP API (served at ``/openapi.json``).

Hand-written and kept in sync with :data:`kingdoms.server.lobby.ROUTES` by a test;
:func:`describe` fills in what depends on the server (its games, bots, limits).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from kingdoms.server.limits import TEXT_PATTERN, ServerLimits

_ERROR = {"$ref": "#/components/schemas/Error"}
_JSON = "application/json"


def _resp(desc: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": desc, "content": {_JSON: {"schema": schema or {"type": "object"}}}}


def _gid() -> dict[str, Any]:
    return {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}


_LIMITED = {
    "description": "too many requests from this client",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    "content": {_JSON: {"schema": _ERROR}},
}
_GONE = _resp("nobody joined the game in time: expired", _ERROR)
_GAME_LINKS = {
    "GetGame": {
        "operationId": "getGame",
        "parameters": {"game_id": "$response.body#/id"},
        "description": "the new game's summary",
    },
    "GetRecord": {
        "operationId": "getRecord",
        "parameters": {"game_id": "$response.body#/id"},
        "description": "its record, once it is over",
    },
    "GetReplay": {
        "operationId": "getReplay",
        "parameters": {"game_id": "$response.body#/id"},
        "description": "any step of it, once it is over",
    },
}


def _body(schema: str, required: bool = True) -> dict[str, Any]:
    """A JSON request body of the named schema."""
    return {
        "required": required,
        "content": {_JSON: {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


OPENAPI: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {
        "title": "kingdoms server",
        "version": "1",
        "description": "Lobby API. Play happens over the WebSocket /ws/{game_id}; "
        "see kingdoms.server.protocol for its messages.",
    },
    "paths": {
        "/api/profiles": {
            "post": {
                "summary": "Create a profile: a name and a secret kept by the browser",
                "requestBody": _body("Profile"),
                "responses": {
                    "201": _resp("the profile's id and name"),
                    "400": _resp("bad name or secret", _ERROR),
                    "409": _resp("the name is taken", _ERROR),
                    "429": _resp("too many attempts", _ERROR),
                },
            }
        },
        "/api/profiles/login": {
            "post": {
                "summary": "Check a profile's name and secret",
                "requestBody": _body("Profile"),
                "responses": {
                    "200": _resp("the profile's id and name"),
                    "400": _resp("malformed body", _ERROR),
                    "403": _resp("no such profile or wrong secret", _ERROR),
                    "429": _resp("too many attempts", _ERROR),
                },
            }
        },
        "/api/ratings": {
            "get": {
                "summary": "Leaderboard of a game: ?game=<name>&players=2 (or 3-6)",
                "parameters": [
                    {
                        "name": "game",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,39}$"},
                    },
                    {
                        "name": "players",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 2, "maximum": 6},
                    },
                ],
                "responses": {"200": _resp("ratings"), "400": _resp("bad query", _ERROR)},
            }
        },
        "/api/catalog": {
            "get": {
                "summary": "Games offered, with player counts, bots and options",
                "responses": {"200": _resp("the catalog")},
            }
        },
        "/api/catalog/{game}/{lang}": {
            "get": {
                "summary": "A game's data for boards in a language (cards, texts, tiles)",
                "parameters": [
                    {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "lang", "in": "path", "required": True, "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": _resp("the data"),
                    "404": _resp("unknown game or language", _ERROR),
                },
            }
        },
        "/api/games": {
            "get": {
                "summary": "List games, newest first",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {"type": "string", "enum": ["running", "finished", "abandoned"]},
                    }
                ],
                "responses": {"200": _resp("games"), "400": _resp("bad query", _ERROR)},
            },
            "post": {
                "summary": "Create a game; returns secret invite links for human seats",
                "requestBody": _body("NewGame"),
                "description": "Settings the game's rules refuse (options, player counts, "
                "bots) and a profile with a wrong name or secret are answered 400 even "
                "when they fit this schema.",
                "responses": {
                    "201": {**_resp("the new game"), "links": _GAME_LINKS},
                    "400": _resp("bad settings", _ERROR),
                    "413": _resp("body too large", _ERROR),
                    "429": _LIMITED,
                    "503": _resp("the database is unavailable; try again", _ERROR),
                },
            },
        },
        "/api/games/{game_id}": {
            "get": {
                "summary": "A game's public summary",
                "operationId": "getGame",
                "parameters": [_gid()],
                "responses": {
                    "200": _resp("summary"),
                    "404": _resp("no such game", _ERROR),
                    "409": _resp("a stored game that no longer loads", _ERROR),
                    "410": _GONE,
                },
            }
        },
        "/api/games/{game_id}/record": {
            "get": {
                "summary": "Download a finished game's record",
                "operationId": "getRecord",
                "parameters": [_gid()],
                "responses": {
                    "200": _resp("the record"),
                    "404": _resp("no such game", _ERROR),
                    "409": _resp("not finished, or a stored game that no longer loads", _ERROR),
                    "410": _GONE,
                    "429": _LIMITED,
                },
            }
        },
        "/api/games/{game_id}/replay": {
            "get": {
                "summary": "A finished game at one step, seen by one seat, with the full log",
                "operationId": "getReplay",
                "parameters": [
                    _gid(),
                    {"name": "step", "in": "query", "schema": {"type": "integer"}},
                    {"name": "seat", "in": "query", "schema": {"type": "integer"}},
                    {"name": "lang", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": _resp("the game at that step"),
                    "400": _resp("bad query", _ERROR),
                    "404": _resp("no such game", _ERROR),
                    "409": _resp("not finished, or a stored game that no longer loads", _ERROR),
                    "410": _GONE,
                    "429": _LIMITED,
                },
            }
        },
        "/api/games/{game_id}/review": {
            "get": {
                "summary": "The game's review (winning chances, mistakes) as this client may "
                "see it (seat tokens in the X-Seat-Tokens header)",
                "operationId": "getReview",
                "parameters": [
                    _gid(),
                    {"name": "lang", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": _resp("the review so far (status none: nobody asked for it)"),
                    "404": _resp("no such game", _ERROR),
                    "409": _resp("a stored game that no longer loads", _ERROR),
                    "410": _GONE,
                    "429": _LIMITED,
                },
            },
            "post": {
                "summary": "Ask for the review of a finished game (queued, lowest priority)",
                "operationId": "requestReview",
                "parameters": [_gid()],
                "requestBody": _body("ReviewRequest", required=False),
                "responses": {
                    "202": _resp("queued or running; the review so far"),
                    "200": _resp("the review so far"),
                    "400": _resp("bad body or profile", _ERROR),
                    "404": _resp("no such game", _ERROR),
                    "409": _resp("not finished", _ERROR),
                    "410": _GONE,
                    "429": _resp("too many reviews waiting (or profile attempts)", _ERROR),
                },
            },
        },
        "/api/games/{game_id}/review/share": {
            "post": {
                "summary": "Show (shared: true) or hide a seat's review to everyone; the "
                "seat's token in the X-Seat-Tokens header",
                "operationId": "shareReview",
                "parameters": [_gid()],
                "requestBody": _body("Share", required=False),
                "responses": {
                    "200": _resp("the seats shared now"),
                    "400": _resp("bad body", _ERROR),
                    "403": _resp("no seat token", _ERROR),
                    "404": _resp("no such game or no review", _ERROR),
                    "410": _GONE,
                    "429": _LIMITED,
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
                    "name": {"type": "string", "maxLength": 40, "pattern": TEXT_PATTERN},
                    "bot": {
                        "type": "string",
                        "maxLength": 200,
                        "pattern": TEXT_PATTERN,
                        "description": "bot spec, e.g. big-money or mcts:time=1",
                    },
                },
            },
            "Profile": {
                "type": "object",
                "required": ["name", "secret"],
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 40},
                    "secret": {
                        "type": "string",
                        "minLength": 12,
                        "maxLength": 200,
                        "description": "made and kept by the browser; never shown",
                    },
                },
            },
            "ReviewRequest": {
                "type": "object",
                "properties": {
                    "profile": {
                        "$ref": "#/components/schemas/Profile",
                        "description": "a signed-in stranger: the request counts in the "
                        "profile's own reviews quota, not its address's",
                    }
                },
            },
            "Share": {
                "type": "object",
                "properties": {
                    "shared": {
                        "type": "boolean",
                        "default": True,
                        "description": "true: everyone may see the seat's review",
                    }
                },
            },
            "NewGame": {
                "type": "object",
                "required": ["game"],
                "properties": {
                    "game": {"type": "string", "minLength": 1},
                    "players": {"type": "integer"},
                    "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}},
                    "options": {"type": "object", "description": "game options (kingdom…)"},
                    "seed": {
                        "type": "integer",
                        "description": "only on servers started to allow seeds (tests)",
                    },
                    "rated": {"type": "boolean", "default": False},
                    "profile": {
                        "$ref": "#/components/schemas/Profile",
                        "description": "a signed-in creator: the game counts in the "
                        "profile's own per-client quotas, not its address's",
                    },
                    "private": {
                        "type": "boolean",
                        "default": False,
                        "description": "listed nowhere; its record, replay, review and "
                        "spectators need a seat token or its share link",
                    },
                },
            },
        }
    },
}


def describe(
    games: Sequence[dict[str, Any]], limits: ServerLimits, allow_seeds: bool
) -> dict[str, Any]:
    """The description of one server: its games (``/api/catalog`` entries), limits and
    whether it accepts seeds."""
    doc = copy.deepcopy(OPENAPI)
    schemas = doc["components"]["schemas"]
    new = schemas["NewGame"]["properties"]
    if games:
        new["game"]["enum"] = [g["name"] for g in games]
        low = min(int(g["min_players"]) for g in games)
        high = max(int(g["max_players"]) for g in games)
        new["players"].update(minimum=low, maximum=high)
        new["seats"].update(minItems=low, maxItems=high)
        first = games[0]
        # bots alone: the game soon ends, so links to its record and replay lead somewhere
        bots = [{"kind": "bot", "bot": "random"}] * int(first["min_players"])
        schemas["NewGame"]["example"] = {"game": first["name"], "seats": bots}
        names = [g["name"] for g in games]
        for param in doc["paths"]["/api/catalog/{game}/{lang}"]["get"]["parameters"]:
            if param["name"] == "game":
                param["example"] = names[0]
    for path, name in (("/api/catalog/{game}/{lang}", "lang"), ("/api/i18n/{lang}", "lang")):
        for param in doc["paths"][path]["get"]["parameters"]:
            if param["name"] == name:
                param["example"] = "en"
    schemas["Seat"]["properties"]["name"]["maxLength"] = limits.max_name
    schemas["Seat"]["properties"]["bot"]["maxLength"] = limits.max_text
    if not allow_seeds:
        del new["seed"]
    return doc
