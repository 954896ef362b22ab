"""The game master: turns, freshness, legality, persistence, bots, undo, recovery."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from toygame import DRAW, PASS

from kingdoms.server.master import GameMaster, RequestError
from kingdoms.server.storage import Storage


async def _until(check: Any, timeout: float = 120.0) -> None:
    """Wait for the event ``check`` tells of (polled); the bound only ends a hang (a
    loaded machine is slow), the test's own assertion then fails."""
    end = time.monotonic() + timeout
    while not check() and time.monotonic() < end:
        await asyncio.sleep(0.01)


class Inbox:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        json.dumps(msg)  # everything sent must be JSON
        self.messages.append(msg)

    def last(self, seat: int) -> dict[str, Any]:
        return [m for m in self.messages if m["seat"] == seat][-1]


HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_turns_freshness_and_legality(tmp_path: Path) -> None:
    async def main() -> None:
        gm = GameMaster(Storage(f"sqlite:///{tmp_path}/k.sqlite"), bot_delay=0)
        table, tokens = gm.create_game("toy", HUMANS, seed=1)
        a, b = Inbox(), Inbox()
        _, sub_a = await gm.subscribe(table.id, [tokens[0]], a.send)
        _, sub_b = await gm.subscribe(table.id, [tokens[1]], b.send)
        first = a.last(0)
        assert first["state_id"] == 0 and first["current_player"] == 0
        assert [x["text"] for x in first["legal"]][-1] == "pass"
        assert b.last(1)["legal"] == []  # not Bob's turn: no choices shown
        before = gm.storage.load_game(table.id).actions  # type: ignore[union-attr]
        bad = [
            ((1,), {"action": PASS, "state_id": 0}, "not_your_turn"),
            ((0,), {"action": PASS, "state_id": 3}, "stale"),
            ((0,), {"action": PASS}, "bad_message"),
            ((0,), {"action": "x", "state_id": 0}, "bad_message"),
            ((0,), {"action": True, "state_id": 0}, "bad_message"),
            ((0,), {"action": 999, "state_id": 0}, "illegal"),
            ((0,), {"text": "fly away", "state_id": 0}, "illegal"),
            ((0,), {"action": PASS, "state_id": 0, "seat": 1}, "wrong_seat"),
        ]
        for seats, msg, code in bad:
            with pytest.raises(RequestError) as err:
                await gm.act(table, seats, msg)
            assert err.value.code == code, (msg, err.value)
        assert gm.storage.load_game(table.id).actions == before == []  # type: ignore[union-attr]
        assert await gm.act(table, (0,), {"text": "pass", "state_id": 0}) == 1
        assert gm.storage.load_game(table.id).actions == [PASS]  # type: ignore[union-attr]
        assert a.last(0)["state_id"] == 1 and b.last(1)["legal"]
        # each push carries only the new log lines
        assert b.last(1)["log_start"] > 0 and b.last(1)["log"][-1]["type"] == "pass"
        gm.unsubscribe(table, sub_a)
        gm.unsubscribe(table, sub_b)

    run(main())


def test_bad_tokens_and_games(tmp_path: Path) -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, _tokens = gm.create_game("toy", HUMANS, seed=1)
        inbox = Inbox()
        for tokens in ([], ["nope"], [None], [123]):
            with pytest.raises(RequestError) as err:
                await gm.subscribe(table.id, tokens, inbox.send)  # type: ignore[arg-type]
            assert err.value.code == "bad_token"
        for gid in ("zzz", "../etc", ""):
            with pytest.raises(RequestError) as err:
                await gm.subscribe(gid, ["x"], inbox.send)
            assert err.value.code == "no_game"
        for seats, code in (
            ([], "bad_config"),
            ([{"kind": "alien"}] * 2, "bad_config"),
            ([{"kind": "bot", "bot": "nosuchbot"}] * 2, "bad_config"),
            ([{"kind": "human"}] * 9, "bad_config"),
        ):
            with pytest.raises(RequestError) as err:
                gm.create_game("toy", seats)
            assert err.value.code == code
        with pytest.raises(RequestError):
            gm.create_game("toy", HUMANS, options={"hand": 99})
        with pytest.raises(RequestError):
            gm.create_game("chess", HUMANS)
        assert inbox.messages == []

    run(main())


def test_hidden_information_per_seat() -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game("toy", HUMANS, seed=4)
        a, b = Inbox(), Inbox()
        await gm.subscribe(table.id, [tokens[0]], a.send)
        await gm.subscribe(table.id, [tokens[1]], b.send)
        await gm.act(table, (0,), {"action": DRAW, "state_id": 0})
        hand_b = table.state.hands[1]  # type: ignore[attr-defined]
        hand_a = table.state.hands[0]  # type: ignore[attr-defined]
        assert all(m["seat"] == 0 for m in a.messages)
        assert all(m["seat"] == 1 for m in b.messages)
        record = table.record()
        for m in a.messages:
            assert "cards" not in json.dumps([e for e in m["log"] if e.get("player") == 1])
            # each message shows seat 0 its hand as it was at that message's step
            assert m["view"] == json.loads(json.dumps(record.replay(m["state_id"]).view(0)))
        for m in b.messages:
            assert not any("cards" in e for e in m["log"] if e.get("player") == 0)
        assert a.last(0)["view"]["hand"] == sorted(hand_a)
        assert b.last(1)["view"]["hand"] == sorted(hand_b)

    run(main())


def test_bots_play_and_games_finish(tmp_path: Path) -> None:
    async def main() -> None:
        gm = GameMaster(Storage(f"sqlite:///{tmp_path}/k.sqlite"), bot_delay=0)
        seats = [{"kind": "bot", "bot": "random"}] * 3
        table, tokens = gm.create_game("toy", seats, seed=9)
        assert tokens == [None, None, None]
        await _until(lambda: table.finished)
        assert table.finished
        stored = gm.storage.load_game(table.id)
        assert stored is not None and stored.status == "finished"
        assert stored.actions == table.state.history and stored.outcome["winners"]
        await gm.stop()

    run(main())


def test_human_vs_bot_and_restart_recovery(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/k.sqlite"

    async def first() -> tuple[str, str, str]:
        gm = GameMaster(Storage(url), bot_delay=0)
        table, tokens = gm.create_game("toy", [HUMANS[0], {"kind": "bot", "bot": "random"}], seed=3)
        inbox = Inbox()
        await gm.subscribe(table.id, [tokens[0]], inbox.send)
        await gm.act(table, (0,), {"action": PASS, "state_id": 0})
        await _until(lambda: table.state.current_player == 0 and inbox.last(0)["state_id"] == 2)
        assert table.state.step == 2 and inbox.last(0)["state_id"] == 2
        await gm.stop()
        gm.storage.close()
        return table.id, tokens[0], table.state.fingerprint()  # type: ignore[return-value]

    gid, token, fingerprint = run(first())

    async def second() -> None:
        gm = GameMaster(Storage(url), bot_delay=0)
        await gm.start()
        table = gm.get(gid)
        assert table.state.fingerprint() == fingerprint
        inbox = Inbox()
        await gm.subscribe(gid, [token], inbox.send)
        assert inbox.last(0)["state_id"] == 2 and inbox.last(0)["legal"]
        assert table.seats[0]["joined"]
        await gm.act(table, (0,), {"action": PASS, "state_id": 2})
        await gm.stop()

    run(second())


def test_undo_rules() -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game("toy", HUMANS, seed=5)
        a, b = Inbox(), Inbox()
        await gm.subscribe(table.id, [tokens[0]], a.send)
        await gm.subscribe(table.id, [tokens[1]], b.send)
        assert a.last(0)["can_undo"] is False  # nothing to undo
        card = table.state.legal_actions()[0]
        await gm.act(table, (0,), {"action": card, "state_id": 0})
        assert a.last(0)["can_undo"] is True and b.last(1)["can_undo"] is False
        with pytest.raises(RequestError) as err:
            await gm.undo(table, (1,), {"state_id": 1})
        assert err.value.code == "cannot_undo" and "not yours" in str(err.value)
        with pytest.raises(RequestError) as err:
            await gm.undo(table, (0,), {"state_id": 0})
        assert err.value.code == "stale"
        assert await gm.undo(table, (0,), {"state_id": 1}) == 0
        assert gm.storage.load_game(table.id).actions == []  # type: ignore[union-attr]
        assert a.last(0)["state_id"] == 0 and a.last(0)["legal"]
        assert a.last(0)["log_start"] == 0  # the log shrank: sent again whole
        # a draw reveals a card and uses chance: it cannot be taken back
        await gm.act(table, (0,), {"action": DRAW, "state_id": 0})
        with pytest.raises(RequestError) as err:
            await gm.undo(table, (0,), {"state_id": 1})
        assert "chance" in str(err.value) or "revealed" in str(err.value)
        # once the other player acted, the earlier action is theirs to keep
        await gm.act(table, (1,), {"action": PASS, "state_id": 1})
        assert b.last(1)["can_undo"] is True
        await gm.act(table, (0,), {"action": PASS, "state_id": 2})
        with pytest.raises(RequestError):
            await gm.undo(table, (1,), {"state_id": 3})
        # the undo survives a restart: storage holds exactly the remaining actions
        assert gm.storage.load_game(table.id).actions == table.state.history  # type: ignore[union-attr]

    run(main())


def test_hot_seat_connection_holds_several_seats() -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game("toy", HUMANS, seed=2)
        inbox = Inbox()
        _, sub = await gm.subscribe(table.id, tokens, inbox.send)  # type: ignore[arg-type]
        assert sub.seats == (0, 1)
        assert {m["seat"] for m in inbox.messages} == {0, 1}
        await gm.act(table, sub.seats, {"action": PASS, "state_id": 0})
        await gm.act(table, sub.seats, {"action": PASS, "state_id": 1})
        assert table.state.step == 2

    run(main())


@pytest.mark.postgres
def test_master_on_postgres(storage_url: str) -> None:
    async def main() -> None:
        gm = GameMaster(Storage(storage_url), bot_delay=0)
        table, _ = gm.create_game("toy", [{"kind": "bot"}] * 2, seed=1)
        await _until(lambda: table.finished)
        assert table.finished
        gm2 = GameMaster(Storage(storage_url))
        assert gm2.get(table.id).state.fingerprint() == table.state.fingerprint()

    run(main())


def test_a_failed_write_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from kingdoms.server.storage import StorageError

    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game("toy", HUMANS, seed=1)
        inbox = Inbox()
        await gm.subscribe(table.id, [tokens[0]], inbox.send)
        before = table.state.fingerprint()
        sent = len(inbox.messages)

        def broken(*args: Any, **kwargs: Any) -> None:
            raise StorageError("disk full")

        monkeypatch.setattr(gm.storage, "append_action", broken)
        with pytest.raises(RequestError) as err:
            await gm.act(table, (0,), {"action": PASS, "state_id": 0})
        assert err.value.code == "storage"
        assert table.state.fingerprint() == before and len(inbox.messages) == sent
        monkeypatch.undo()
        assert await gm.act(table, (0,), {"action": PASS, "state_id": 0}) == 1

    run(main())


def test_racing_duplicate_actions_apply_once() -> None:
    """Two tabs of the same seat send the same choice at once: one wins, one is stale."""

    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, _tokens = gm.create_game("toy", HUMANS, seed=1)
        msg = {"action": PASS, "state_id": 0}
        results = await asyncio.gather(
            *(gm.act(table, (0,), msg) for _ in range(5)), return_exceptions=True
        )
        assert results.count(1) == 1
        assert all(isinstance(r, RequestError) and r.code == "stale" for r in results if r != 1)
        assert gm.storage.load_game(table.id).actions == [PASS]  # type: ignore[union-attr]

    run(main())


def test_undo_then_bot_seat_next_and_restart_with_undone_action(tmp_path: Path) -> None:
    """An undone action is gone from storage: a restart does not bring it back."""
    url = f"sqlite:///{tmp_path}/k.sqlite"

    async def main() -> str:
        gm = GameMaster(Storage(url), bot_delay=0)
        table, _tokens = gm.create_game("toy", HUMANS, seed=8)
        await gm.act(table, (0,), {"action": PASS, "state_id": 0})
        await gm.undo(table, (0,), {"state_id": 1})
        return table.id

    gid = run(main())
    gm = GameMaster(Storage(url))
    assert gm.get(gid).state.step == 0


def test_a_game_that_no_longer_replays_is_reported_not_fatal(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/k.sqlite"
    store = Storage(url)
    gm = GameMaster(store, bot_delay=0)
    table, _ = gm.create_game("toy", HUMANS, seed=1)
    good, _ = gm.create_game("toy", HUMANS, seed=2)
    store.append_action(table.id, 0, 0, 99)  # not a legal action: the record is corrupt
    fresh = GameMaster(Storage(url), bot_delay=0)

    async def start() -> None:
        await fresh.start()
        await fresh.resumed.wait()  # the pass over unfinished games gets past the bad one

    run(start())  # the server still starts; the good game still loads
    assert fresh.get(good.id).state.step == 0 and table.id not in fresh.tables
    with pytest.raises(RequestError) as err:
        fresh.get(table.id)
    assert err.value.code == "broken_game"


def test_bots_retry_when_the_database_hiccups(monkeypatch: pytest.MonkeyPatch) -> None:
    from kingdoms.server.storage import StorageError

    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        gm.retry_delay = 0.01
        real = gm.storage.append_action
        failures = [3]

        def flaky(*args: Any, **kwargs: Any) -> None:
            if failures[0] > 0:
                failures[0] -= 1
                raise StorageError("database is locked")
            real(*args, **kwargs)

        monkeypatch.setattr(gm.storage, "append_action", flaky)
        table, _ = gm.create_game("toy", [{"kind": "bot"}] * 2, seed=1)
        await _until(lambda: table.finished)
        assert table.finished and failures == [0]
        assert gm.storage.load_game(table.id).actions == table.state.history  # type: ignore[union-attr]

    run(main())


def test_bots_resume_after_a_restart_mid_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/k.sqlite"

    async def first() -> tuple[str, int]:
        gm = GameMaster(Storage(url), bot_delay=0.01)
        table, _ = gm.create_game("toy", [{"kind": "bot"}] * 3, seed=4)
        await _until(lambda: table.state.step >= 4)
        await gm.stop()  # the server goes down in the middle of the game
        return table.id, table.state.step

    gid, step = run(first())
    assert 4 <= step < 12

    async def second() -> None:
        gm = GameMaster(Storage(url), bot_delay=0)
        await gm.start()
        table = gm.get(gid)
        assert table.state.step == step  # exactly where it was
        await _until(lambda: table.finished)
        assert table.finished
        assert gm.storage.load_game(gid).status == "finished"  # type: ignore[union-attr]

    run(second())
