"""The OpenAPI description of the lobby's HTTP API (served at ``/openapi.json``).

Hand-written and kept in sync with :data:`kingdoms.server.lobby.ROUTES` by a test.
"""

from __future__ import annotations

from typing import Any

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
        "/api/profiles": {
            "post": {
                "summary": "Create a profile: a name and a secret kept by the browser",
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
                "responses": {
                    "200": _resp("the profile's id and name"),
                    "403": _resp("no such profile or wrong secret", _ERROR),
                    "429": _resp("too many attempts", _ERROR),
                },
            }
        },
        "/api/ratings": {
            "get": {
                "summary": "Leaderboard of a game: ?game=<name>&players=2 (or 3-6)",
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
                    "seed": {
                        "type": "integer",
                        "description": "only on servers started to allow seeds (tests)",
                    },
                },
            },
        }
    },
}
