"""Spectators: a public link shows a running game live, and nothing hidden.

Every message a spectator receives during whole random games must not change when
any hidden part is resampled (``determinize`` for any seat), and its log carries no
event secret (no drawn cards)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from kingdoms.server.app import create_app
from kingdoms.server.master import GameMaster
from kingdoms.server.spectate import public_view, watch
from kingdoms.server.storage import Storage

CASES = [
    ("dominion", 3, {"kingdom": "Interaction"}),
    ("dominion", 2, {"kingdom": "Forbidden Arts"}),
    ("kingdomino", 3, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_spectator_messages_hold_no_hidden_information(
    game: str, players: int, options: dict[str, Any]
) -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, _ = gm.create_game(game, [{"kind": "human"}] * players, options, seed=4)
        inbox: list[dict[str, Any]] = []

        async def send(msg: dict[str, Any]) -> None:
            inbox.append(json.loads(json.dumps(msg)))

        await watch(gm, table.id, send)
        rng = random.Random(7)
        checked = 0
        for step in range(3000):
            state = table.state
            msg = inbox[-1]
            assert msg["state_id"] == state.step and msg["seat"] is None
            assert msg["legal"] == [] and not msg["view"].get("hand")
            for event in msg["log"]:
                assert not (event["type"] == "draw" and "cards" in event), "a draw's cards leaked"
            if step % 4 == 0 and not state.is_terminal():
                for p in range(players):
                    det = state.determinize(p, random.Random(rng.random()))
                    assert json.loads(json.dumps(public_view(det))) == msg["view"], (
                        f"the spectator's view depends on what seat {p} does not know"
                    )
                checked += 1
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            await gm.act(table, (state.current_player,), {"action": action, "state_id": state.step})
        assert table.state.is_terminal() and inbox[-1]["finished"] and checked > 5
        assert inbox[-1]["outcome"]["scores"] == list(table.state.outcome().scores)  # type: ignore[union-attr]
        # the public view still shows the table: piles, other players' counts, kingdoms
        view = inbox[-1]["view"]
        assert ("supply" in view and "players" in view) or "kingdoms" in view

    asyncio.run(main())


def test_a_spectator_watches_over_the_websocket_and_cannot_act() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0, allow_seeds=True)) as client:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        game = client.post(
            "/api/games", json={"game": "dominion", "seats": seats, "seed": 3}
        ).json()
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_json({"type": "hello", "watch": True, "lang": "pl"})
            msg = ws.receive_json()
            assert msg["type"] == "state" and msg["spectator"] is True
            assert not msg["view"]["hand"] and msg["legal"] == []
            assert [s["name"] for s in msg["seats"]] == ["Ann", "Bob"]
            assert msg["scores"] == [3.0, 3.0]
            ws.send_json({"type": "action", "action": 0, "state_id": msg["state_id"]})
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "wrong_seat"
            with client.websocket_connect(f"/ws/{game['id']}") as player:
                player.send_json(
                    {"type": "hello", "tokens": [game["seats"][0]["token"]], "lang": "en"}
                )
                mine = player.receive_json()
                legal = mine["legal"][-1]["action"]
                player.send_json({"type": "action", "action": legal, "state_id": mine["state_id"]})
                # the spectator sees the move live
                live = ws.receive_json()
                assert live["state_id"] == mine["state_id"] + 1 and not live["view"]["hand"]
