"""Hidden information over the wire: whole random games of the real games played
through the game master, every message each seat receives inspected.

A message may depend only on what its seat may know: rebuilding the game with every
hidden part resampled (``determinize``) must give the very same view, and log
events carry secrets (drawn cards, cards discarded together) only to their owner —
and, during a Possession turn, to its possessor."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from kingdoms.server.master import GameMaster
from kingdoms.server.storage import Storage

CASES = [
    ("dominion", 3, {"kingdom": "Interaction"}),
    ("dominion", 2, {"sets": ["base", "base-1e", "base-2e", "alchemy"]}),
    ("dominion", 4, {"kingdom": "Forbidden Arts"}),
    ("kingdomino", 2, {}),
    ("kingdomino", 4, {"variants": ["dynasty"]}),
]


@pytest.mark.parametrize(("game", "players", "options"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_websocket_traffic_never_reveals_hidden_information(
    game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game(game, [{"kind": "human"}] * players, options, seed=seed)
        inboxes: list[list[dict[str, Any]]] = [[] for _ in range(players)]

        def sender(p: int) -> Any:
            async def send(msg: dict[str, Any]) -> None:
                inboxes[p].append(json.loads(json.dumps(msg)))

            return send

        for p in range(players):
            await gm.subscribe(table.id, [tokens[p]], sender(p))  # type: ignore[list-item]
        rng = random.Random(seed)
        differed = 0
        possessing: list[int | None] = [None] * players  # whose turn each seat possesses
        for step in range(5000):
            state = table.state
            for p in range(players):
                msg = inboxes[p][-1]
                assert msg["state_id"] == state.step
                for event in msg["log"]:
                    if event["type"] == "turn":
                        by = event.get("possessed_by")
                        possessing[p] = event["player"] if by == p else None
                    if "cards" in event and event["type"] in ("draw", "discard"):
                        assert event["player"] in (p, possessing[p]), (
                            f"seat {p} saw another seat's {event['type']}"
                        )
                if step % 3 == 0:
                    det = state.determinize(p, random.Random(rng.random()))
                    assert json.loads(json.dumps(det.view(p))) == msg["view"], (
                        f"seat {p}'s view depends on something it may not know"
                    )
                    differed += det.fingerprint() != state.fingerprint()
            if state.is_terminal():
                break
            seat = state.current_player
            action = rng.choice(state.legal_actions())
            await gm.act(table, (seat,), {"action": action, "state_id": state.step})
        assert table.state.is_terminal()
        assert differed > 0  # the hidden parts really were resampled

    asyncio.run(main())
