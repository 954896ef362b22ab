"""The first picks: kings come out of the hand one at a time, so only the king drawn
next is known — not in the view, the log, the server's messages or records of running
games, and determinizations resample the rest.  Records made before keep replaying."""

from __future__ import annotations

import asyncio
import collections
import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kingdoms.core import get_game, new_game
from kingdoms.core.record import GameRecord
from kingdoms.kingdomino.state import FIRST_PICKS, KingdominoState
from kingdoms.server.app import create_app
from kingdoms.server.master import GameMaster
from kingdoms.server.storage import Storage
from tests.kingdomino.helpers import game

DATA = Path(__file__).parent / "data"


def _first_pick_states(players: int, seed: int) -> list[KingdominoState]:
    st = game(players, seed=seed)
    out = []
    while st.phase == FIRST_PICKS:
        out.append(st.clone())
        st.apply(st.legal_actions()[0])
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_and_log_show_only_the_kings_drawn(players: int) -> None:
    for seed in range(5):
        for st in _first_pick_states(players, seed):
            drawn = st.pick_order[: st.pick_pos + 1]
            for p in range(players):
                view = st.view(p)
                assert view["pick_order"] == drawn
                assert view["to_move"] == drawn[-1]
                for event in st.log_for(p):
                    assert "order" not in event
                    if event["type"] == "setup":
                        assert event["first"] == st.pick_order[0]


def test_the_whole_order_is_public_once_every_king_is_out() -> None:
    st = game(4, seed=3)
    while st.phase == FIRST_PICKS:
        st.apply(st.legal_actions()[0])
    assert st.view(0)["pick_order"] == st.pick_order


def test_the_hidden_order_differs_between_games_that_begin_alike() -> None:
    """The view after setup does not tell the order: many orders share a first king."""
    orders = collections.defaultdict(set)
    for seed in range(80):
        st = game(4, seed=seed)
        orders[st.pick_order[0]].add(tuple(st.pick_order))
    assert all(len(v) > 1 for v in orders.values())


def test_determinize_resamples_the_kings_not_drawn_yet() -> None:
    st = game(4, seed=5)
    st.apply(st.legal_actions()[0])  # one king out, the second drawn
    assert st.pick_pos == 1
    seen = set()
    for i in range(60):
        det = st.determinize(2, random.Random(i))
        assert det.pick_order[:2] == st.pick_order[:2]
        assert sorted(det.pick_order) == sorted(st.pick_order)
        assert det.view(2) == st.view(2)
        seen.add(tuple(det.pick_order[2:]))
    assert len(seen) == 2  # both orders of the two kings still in the hand


def test_state_from_view_completes_the_order_at_random() -> None:
    st = game(2, seed=8)
    view = st.view(1)
    assert len(view["pick_order"]) == 1
    seen = set()
    for i in range(40):
        rebuilt = get_game("kingdomino").state_from_view(view, random.Random(i))
        assert isinstance(rebuilt, KingdominoState)
        assert rebuilt.pick_order[0] == st.pick_order[0]
        assert sorted(rebuilt.pick_order) == [0, 0, 1, 1]
        assert rebuilt.view(1) == view
        seen.add(tuple(rebuilt.pick_order))
    assert len(seen) == 3  # the three orders of the other three kings


def test_records_made_before_replay_identically() -> None:
    """Records saved by the previous build (the order shuffled at setup and shown)
    replay to the very same kingdoms and scores."""
    cases = json.loads((DATA / "records_v1.json").read_text())
    assert len(cases) == 4
    for case in cases:
        st = GameRecord.from_json(case["record"]).replay()
        assert isinstance(st, KingdominoState)
        assert st.is_terminal()
        out = st.outcome()
        assert out is not None and list(out.scores) == case["scores"]
        assert [[list(p) for p in b.placed] for b in st.boards] == case["placed"]
        assert st.first == case["first_player"]


def test_the_server_never_sends_the_hidden_order() -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game("kingdomino", [{"kind": "human"}] * 4, {}, seed=21)
        inboxes: list[list[dict[str, Any]]] = [[] for _ in range(4)]

        def sender(p: int) -> Any:
            async def send(msg: dict[str, Any]) -> None:
                inboxes[p].append(json.loads(json.dumps(msg)))

            return send

        for p in range(4):
            await gm.subscribe(table.id, [tokens[p]], sender(p))  # type: ignore[list-item]
        state = table.state
        assert isinstance(state, KingdominoState)
        order = list(state.pick_order)
        for k in range(4):
            for p in range(4):
                msg = inboxes[p][-1]
                assert msg["view"]["pick_order"] == order[: k + 1]
                assert all("order" not in e for e in msg["log"])
            seat = table.state.current_player
            action = table.state.legal_actions()[0]
            await gm.act(table, (seat,), {"action": action, "state_id": table.state.step})

    asyncio.run(main())


def test_records_of_running_games_are_refused() -> None:
    """Whoever had the seed could recompute the order: no record while the game runs."""
    app = create_app("sqlite://", allow_seeds=False)
    with TestClient(app) as client:
        res = client.post(
            "/api/games", json={"game": "kingdomino", "seats": [{"kind": "human"}] * 3}
        )
        assert res.status_code in (200, 201)
        gid = res.json()["id"]
        assert client.get(f"/api/games/{gid}/record").status_code == 409
        assert client.get(f"/api/games/{gid}/replay?step=0").status_code == 409
        info = client.get(f"/api/games/{gid}").json()
        assert "seed" not in info and "pick_order" not in json.dumps(info)


def test_a_new_game_still_shuffles_the_kings_with_the_same_seed() -> None:
    """The order is drawn from the same seed as before (records stay valid)."""
    a, b = new_game("kingdomino", players=3, seed=4), new_game("kingdomino", players=3, seed=4)
    assert isinstance(a, KingdominoState) and isinstance(b, KingdominoState)
    assert a.pick_order == b.pick_order
