"""Every registered game played through the master: each seat receives exactly its
own view and its own filtered log, records replay, bots finish the game.

Games whose engine is not installed yet are skipped."""

from __future__ import annotations

import asyncio
import importlib
import json
import random
from typing import Any

import pytest

from kingdoms.core import registry
from kingdoms.server.master import GameMaster
from kingdoms.server.storage import Storage


def _installed_games() -> list[str]:
    names = ["toy"]
    for name, target in sorted(registry._entry_points().items()):
        try:
            importlib.import_module(target.partition(":")[0])
        except ImportError:
            continue
        names.append(name)
    return names


@pytest.mark.parametrize("game", _installed_games())
def test_each_seat_receives_exactly_its_own_view_and_log(game: str) -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        players = 2
        table, tokens = gm.create_game(game, [{"kind": "human"}] * players)
        inboxes: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        logs: list[list[dict[str, Any]]] = [[] for _ in range(players)]

        def sender(p: int) -> Any:
            async def send(msg: dict[str, Any]) -> None:
                inboxes[p].append(json.loads(json.dumps(msg)))

            return send

        for p in range(players):
            await gm.subscribe(table.id, [tokens[p]], sender(p))  # type: ignore[list-item]
        rng = random.Random(7)
        for _ in range(150):
            state = table.state
            for p in range(players):
                msg = inboxes[p][-1]
                assert msg["seat"] == p and msg["state_id"] == state.step
                assert msg["view"] == json.loads(json.dumps(state.view(p)))
                logs[p] = logs[p][: msg["log_start"]] + msg["log"]
                plain = [{k: v for k, v in e.items() if k != "text"} for e in logs[p]]
                assert plain == json.loads(json.dumps(state.log_for(p)))
                legal = [x["action"] for x in msg["legal"]]
                assert legal == (state.legal_actions() if state.current_player == p else [])
            if state.is_terminal():
                break
            seat = state.current_player
            legal = state.legal_actions()
            await gm.act(table, (seat,), {"action": rng.choice(legal), "state_id": state.step})
        stored = gm.storage.load_game(table.id)
        assert stored is not None and stored.actions == table.state.history

    asyncio.run(main())
