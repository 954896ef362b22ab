"""Undo in real games through the game master: refused once a step showed anything
(a new Kingdomino line, the next king of the first picks), allowed otherwise."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from kingdoms.kingdomino.state import FIRST_PICKS, PICK, KingdominoState
from kingdoms.server.master import GameMaster
from kingdoms.server.storage import Storage
from kingdoms.server.table import RequestError

HUMANS = [{"kind": "human"}] * 4


class Inbox:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        self.messages.append(msg)


def test_kingdomino_undo_is_refused_once_a_new_line_is_out() -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game("kingdomino", HUMANS, {}, seed=3)
        inboxes = [Inbox() for _ in range(4)]
        for p in range(4):
            await gm.subscribe(table.id, [tokens[p]], inboxes[p].send)  # type: ignore[list-item]
        # the first picks: each draws the next king, which shows something unless only
        # one owner's kings were left in the hand; the last one brings out a line
        state = table.state
        assert isinstance(state, KingdominoState)
        refused = 0
        while state.phase == FIRST_PICKS:
            seat = state.current_player
            left = set(state.pick_order[state.pick_pos + 1 :])
            last = state.pick_pos + 1 == len(state.pick_order)
            await gm.act(
                table, (seat,), {"action": state.legal_actions()[0], "state_id": state.step}
            )
            state = table.state
            assert isinstance(state, KingdominoState)
            shows = len(left) > 1 or last
            assert inboxes[seat].messages[-1]["can_undo"] is not shows
            if shows:
                refused += 1
                with pytest.raises(RequestError) as err:
                    await gm.undo(table, (seat,), {"state_id": state.step})
                assert err.value.code == "cannot_undo" and "revealed" in str(err.value)
        assert refused == 3  # 4 kings: the third pick draws the one king left
        assert state.next  # the last first pick brought out the next line
        # a placement shows nothing: it can be taken back
        seat = state.current_player
        step = state.step
        await gm.act(table, (seat,), {"action": state.legal_actions()[0], "state_id": step})
        assert inboxes[seat].messages[-1]["can_undo"] is True
        assert await gm.undo(table, (seat,), {"state_id": step + 1}) == step
        # play the round out: the pick of the last king brings out a new line
        while True:
            state = table.state
            assert isinstance(state, KingdominoState)
            seat, rnd = state.current_player, state.round
            action = state.legal_actions()[0]
            await gm.act(table, (seat,), {"action": action, "state_id": state.step})
            after = table.state
            assert isinstance(after, KingdominoState)
            if after.round != rnd:
                assert action >= PICK
                assert inboxes[seat].messages[-1]["can_undo"] is False
                with pytest.raises(RequestError):
                    await gm.undo(table, (seat,), {"state_id": after.step})
                return
            assert inboxes[seat].messages[-1]["can_undo"] is True

    asyncio.run(main())


def test_catching_up_with_a_move_stored_elsewhere_keeps_the_state_before_it() -> None:
    """A move another process stored is applied forward, and the state before it is
    kept for the undo rule: no replay of the whole game on the next push."""

    async def main() -> None:
        store = Storage("sqlite://")
        gm = GameMaster(store, bot_delay=0)
        table, tokens = gm.create_game("kingdomino", HUMANS, {}, seed=3)
        await gm.subscribe(table.id, [tokens[0]], Inbox().send)  # type: ignore[list-item]
        before = table.state.clone()
        action = before.legal_actions()[0]
        # the move arrives through the database, as from another process
        store.append_action(
            table.id, before.step, before.current_player, action, version=table.version
        )
        stored = store.load_game(table.id)
        assert stored is not None and gm.sync.catch_up(table, stored)
        assert table.state.history == [*before.history, action]
        assert table.prev is not None and table.prev[0] == table.state.step
        assert table.prev[1].snapshot() == before.snapshot()
        assert table.prev[1] is not table.state

    asyncio.run(main())


def test_dominion_undo_follows_the_sampling_rule_through_the_game_master() -> None:
    """Random moves of a Dominion game full of Attacks and deck readers: after each, the
    mover may take it back exactly when sampling alone finds that it used no chance and
    showed nothing (the structural settlement and the order of the samples change only
    the cost); an undo of a step that showed something is refused."""
    import random

    from kingdoms.core.reveal import sampled_reveal

    kingdom = ["spy", "militia", "moat", "library", "cellar", "sentry", "witch",
               "bureaucrat", "throne_room", "vassal"]  # fmt: skip

    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game(
            "dominion", HUMANS[:2], {"kingdom": kingdom, "base_edition": 2}, seed=8
        )
        inboxes = [Inbox() for _ in range(2)]
        for p in range(2):
            await gm.subscribe(table.id, [tokens[p]], inboxes[p].send)  # type: ignore[list-item]
        rng = random.Random(8)
        seen = set()
        for _ in range(70):
            before = table.state.clone()
            seat = before.current_player
            legal = before.legal_actions()
            action = legal[rng.randrange(len(legal))]
            await gm.act(table, (seat,), {"action": action, "state_id": before.step})
            after = table.state
            chance = before.rng.getstate() != after.rng.getstate()
            undoable = not chance and sampled_reveal(before, action, after) is None
            assert inboxes[seat].messages[-1]["can_undo"] is undoable, before.step
            seen.add(undoable)
            if not undoable and not chance:
                with pytest.raises(RequestError) as err:
                    await gm.undo(table, (seat,), {"state_id": after.step})
                assert err.value.code == "cannot_undo"
        assert seen == {True, False}

    asyncio.run(main())
