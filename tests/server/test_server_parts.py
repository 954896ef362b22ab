"""The parts of the game master, each made and used on its own (no ``GameMaster``):
given the real objects it needs — a real SQLite storage, real database threads, real
connection queues — and nothing else."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from toygame import DRAW, LENGTH, PASS

from kingdoms.server.limits import ServerLimits
from kingdoms.server.master_base import Database, Leases
from kingdoms.server.master_bots import Bots
from kingdoms.server.master_relay import Relay
from kingdoms.server.master_store import TableStore
from kingdoms.server.master_sync import Sync
from kingdoms.server.master_turns import Turns
from kingdoms.server.storage import Storage
from kingdoms.server.table import Outbox, RequestError, Subscriber, Table

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


async def _until(check: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait for the event ``check`` tells of (polled once per pass of the event loop);
    the bound only ends a hang, the test's own assertion then fails."""
    end = time.monotonic() + timeout
    while not check() and time.monotonic() < end:
        await asyncio.sleep(0)


class Socket:
    """The far end of a connection: an :class:`Outbox` emptied by its writer task, as
    the server's WebSocket handler does."""

    def __init__(self, box: Outbox) -> None:
        self.box = box
        self.messages: list[dict[str, Any]] = []
        self.task = asyncio.get_running_loop().create_task(box.run(self._write))

    async def _write(self, text: str) -> None:
        self.messages.append(json.loads(text))


def _ended(table: Table) -> None:
    """End ``table`` early (as a resignation does)."""
    table.ended = {"scores": [], "winners": [], "details": {"ended": "resigned"}}


def test_the_table_store_alone_keeps_loads_and_evicts_games(tmp_path: Path) -> None:
    async def main() -> None:
        storage = Storage(f"sqlite:///{tmp_path}/k.sqlite")
        db = Database(storage)
        resident: list[str] = []
        busy: set[str] = set()
        store = TableStore(
            storage,
            db,
            Leases(storage),
            ServerLimits(evict_after=60.0, max_resident=2),
            resident=lambda t: resident.append(t.id),
            in_use=busy.__contains__,
        )
        made = [store.create_game("toy", HUMANS, seed=i) for i in range(4)]
        tables = [t for t, _ in made]
        assert resident == [t.id for t in tables]  # each game in memory is announced
        assert list(store.tables) == resident
        first = tables[0]
        # a move stored behind the store's back: the next load of the game replays it
        first.version = storage.append_action(first.id, 0, 0, PASS, version=first.version)
        first.subscribers.append(Subscriber((0,), Outbox()))  # watched: it stays
        busy.add(tables[1].id)  # another part works on it: it stays
        for i, table in enumerate(tables):
            table.used = float(i)
        # over max_resident: the least recently used idle games go, the others stay
        assert store.evict_idle(now=10.0) == 2
        assert list(store.tables) == [first.id, tables[1].id]
        reloaded = await store.fetch(tables[2].id)
        assert reloaded is not tables[2]
        assert reloaded.state.snapshot() == tables[2].state.snapshot()
        assert resident[-1] == tables[2].id
        assert store.get(tables[2].id) is reloaded  # kept: not loaded twice
        first.subscribers.clear()
        busy.clear()
        # idle for evict_after: every one goes (they are stored)
        assert store.evict_idle(now=time.monotonic() + 61) == 3
        assert not store.tables
        again = await store.fetch(first.id)
        assert again.state.step == 1 and again.state.history == [PASS]
        # the seats' tokens, in the order given, and nothing for a wrong one
        tokens = [t for t in made[3][1] if t]
        table = store.get(tables[3].id)
        assert store.authenticate(table, [tokens[1], tokens[0]]) == (1, 0)
        with pytest.raises(RequestError) as err:
            store.authenticate(table, ["not-a-token"])
        assert err.value.code == "bad_token"
        with pytest.raises(RequestError) as err:
            await store.fetch("nosuchgame")
        assert err.value.code == "no_game"
        # a finished game leaves memory once nobody watches it
        watcher = Subscriber((), Outbox())
        table.subscribers.append(watcher)
        _ended(table)
        store.release(table)
        assert table.id in store.tables
        table.subscribers.clear()
        store.release(table)
        assert table.id not in store.tables
        store.forget([again.id])  # expired: forgotten
        assert again.id not in store.tables
        db.shutdown()
        storage.close()

    asyncio.run(main())


def test_the_relay_alone_gives_each_connection_its_own_view(tmp_path: Path) -> None:
    async def main() -> None:
        storage = Storage(f"sqlite:///{tmp_path}/k.sqlite")
        db = Database(storage)
        store = TableStore(storage, db, Leases(storage))
        woken: list[Table] = []
        limits = ServerLimits(spectators_per_address=1)
        relay = Relay(store, db, limits, wake=woken.append)
        table, tokens = store.create_game("toy", HUMANS, seed=5)
        ann, bob = Socket(Outbox()), Socket(Outbox())
        _, sub_ann = await relay.subscribe(table.id, [tokens[0] or ""], ann.box)
        _, sub_bob = await relay.subscribe(table.id, [tokens[1] or ""], bob.box)
        assert woken == [table, table]  # a bot that stopped would go on
        stored = storage.load_game(table.id)
        assert stored is not None and all(s["joined"] for s in stored.seats)
        await _until(lambda: bool(ann.messages and bob.messages))
        state = table.state
        for sock, seat in ((ann, 0), (bob, 1)):
            (msg,) = sock.messages
            assert msg["seat"] == seat and msg["view"] == json.loads(json.dumps(state.view(seat)))
        assert [x["text"] for x in ann.messages[0]["legal"]][-1] == "pass"
        assert bob.messages[0]["legal"] == []  # not Bob's turn: no choices

        # spectators: bounded per address; their message comes after the players'
        eve = Socket(Outbox())
        spectator = Subscriber((), eve.box, address="192.0.2.7")
        relay.add_spectator(table, spectator)
        with pytest.raises(RequestError) as err:
            relay.add_spectator(table, Subscriber((), Outbox(), address="192.0.2.7"))
        assert err.value.code == "too_many"
        new = table.state.clone()
        new.apply_checked(DRAW)  # a secret draw: only Ann sees the card
        async with table.lock:
            table.state = new
            await relay.push(table)
        assert len(ann.box) + len(ann.messages) == 2
        assert len(eve.box) == 0 and not eve.messages  # not yet: after a pass of the loop
        await _until(lambda: bool(eve.messages) and len(ann.messages) == 2)
        (public,) = eve.messages
        assert public["state_id"] == 1 and "hand" not in public["view"]
        assert ann.messages[-1]["view"]["hand"] == sorted(new.hands[0])  # type: ignore[attr-defined]
        assert bob.messages[-1]["view"]["hand"] == sorted(new.hands[1])  # type: ignore[attr-defined]
        assert "cards" not in json.dumps(bob.messages[-1]["log"])  # Ann's draw stays hers

        # a connection that fell behind is dropped; the others go on
        slow = Outbox(max_messages=1)
        _, sub_slow = await relay.subscribe(table.id, [tokens[1] or ""], slow)
        assert len(slow) == 1
        async with table.lock:
            await relay.push(table)
        assert slow.overflowed and sub_slow not in table.subscribers
        assert sub_bob in table.subscribers

        # a finished game nobody watches any more leaves the store; the spectator's
        # place at its address is given back
        _ended(table)
        for sub in (sub_ann, sub_bob, spectator):
            relay.unsubscribe(table, sub)
        assert not table.subscribers and table.id not in store.tables
        other, _ = store.create_game("toy", HUMANS, seed=6)
        relay.add_spectator(other, Subscriber((), Outbox(), address="192.0.2.7"))
        for sock in (ann, bob, eve):
            sock.box.close()
            await sock.task
        db.shutdown()
        storage.close()

    asyncio.run(main())


def test_the_turn_rules_and_the_bots_alone(tmp_path: Path) -> None:
    async def main() -> None:
        storage = Storage(f"sqlite:///{tmp_path}/k.sqlite")
        db = Database(storage)
        leases = Leases(storage)
        bots: list[Bots] = []

        def wake(table: Table) -> None:
            woken.append(table.id)
            for part in bots:
                part.schedule(table)

        woken: list[str] = []
        store = TableStore(storage, db, leases, resident=wake)
        relay = Relay(store, db)
        sync = Sync(storage, db, leases, store, relay, wake)
        turns = Turns(storage, db, leases, store, relay, sync, wake)
        ended: list[str] = []
        turns.finish_hooks.append(lambda t: ended.append(t.id))

        # a person's turn: checked, stored, published
        table, tokens = store.create_game("toy", HUMANS, seed=2)
        ann = Socket(Outbox())
        await relay.subscribe(table.id, [tokens[0] or ""], ann.box)
        woken.clear()
        refused = [
            ((1,), {"action": PASS, "state_id": 0}, "not_your_turn"),
            ((0,), {"action": PASS, "state_id": 4}, "stale"),
            ((0,), {"action": 99, "state_id": 0}, "illegal"),
            ((0,), {"action": PASS, "state_id": 0, "seat": 1}, "wrong_seat"),
        ]
        for seats, message, code in refused:
            with pytest.raises(RequestError) as err:
                await turns.act(table, seats, message)
            assert err.value.code == code
        stored = storage.load_game(table.id)
        assert stored is not None and stored.actions == [] and not woken  # nothing happened
        assert await turns.act(table, (0,), {"text": "pass", "state_id": 0}) == 1
        stored = storage.load_game(table.id)
        assert stored is not None and stored.actions == [PASS] and woken == [table.id]
        await _until(lambda: len(ann.messages) == 2)
        assert ann.messages[-1]["state_id"] == 1 and ann.messages[-1]["can_undo"]
        # Ann takes her pass back (nothing was revealed): the record loses it too
        assert turns.undo_refusal(table, 1) is not None  # Bob did not move
        assert await turns.undo(table, (0,), {"state_id": 1}) == 0
        stored = storage.load_game(table.id)
        assert stored is not None and stored.actions == []
        with pytest.raises(RequestError) as err:
            await turns.undo(table, (0,), {"state_id": 0})
        assert err.value.code == "cannot_undo"

        # the bots play through the same rules, to the end of their game
        bots.append(Bots(db, leases, store, turns, delay=0))
        turns.finish_hooks.insert(0, bots[0].game_ended)
        game, _ = store.create_game("toy", BOTS, seed=3)
        # the event: the finished game, unwatched, has left memory
        await _until(lambda: game.id not in store.tables)
        assert game.finished and ended == [game.id]
        stored = storage.load_game(game.id)
        assert stored is not None and stored.status == "finished"
        assert len(stored.actions) == LENGTH and stored.actions == game.state.history
        assert game.id not in bots[0].spent
        ann.box.close()
        await ann.task
        db.shutdown()
        storage.close()

    asyncio.run(main())
