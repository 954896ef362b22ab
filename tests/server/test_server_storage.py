"""The storage interface, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from kingdoms.server.storage import (
    STATUS_FINISHED,
    STATUS_RUNNING,
    ClientQuota,
    StaleWrite,
    Storage,
    StorageError,
    StoredGame,
    TooMany,
)


def _game(gid: str = "abc123") -> StoredGame:
    return StoredGame(
        id=gid,
        game="toy",
        players=2,
        seed=2**40 + 3,
        options={"hand": 3},
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "name": "Bo", "bot": "random"}],
    )


def test_round_trip(storage_url: str) -> None:
    store = Storage(storage_url)
    store.create_game(_game())
    for i, a in enumerate([5, 7, 2]):
        store.append_action("abc123", i, seat=i % 2, action=a)
    got = store.load_game("abc123")
    assert got is not None
    assert (got.game, got.players, got.seed, got.options) == ("toy", 2, 2**40 + 3, {"hand": 3})
    assert got.seats[1]["bot"] == "random" and got.actions == [5, 7, 2]
    assert got.status == STATUS_RUNNING and store.unfinished_ids() == ["abc123"]
    assert store.load_game("nope") is None
    store.close()


def test_actions_must_come_in_order(storage_url: str) -> None:
    store = Storage(storage_url)
    store.create_game(_game())
    store.append_action("abc123", 0, 0, 1)
    with pytest.raises(StorageError):
        store.append_action("abc123", 0, 0, 1)  # already stored
    with pytest.raises(StorageError):
        store.append_action("abc123", 5, 0, 1)  # a gap
    with pytest.raises(StorageError):
        store.append_action("other", 0, 0, 1)  # unknown game
    with pytest.raises(StorageError):
        store.create_game(_game())  # duplicate id
    assert store.load_game("abc123").actions == [1]  # type: ignore[union-attr]


def test_a_move_stores_its_version_and_the_end_in_one_write(storage_url: str) -> None:
    """Each write returns the game's new version; a stale version, a wrong step or a
    finished game store nothing; the last action stores the ending with it (the SQLite
    write path and PostgreSQL's one statement alike)."""
    store = Storage(storage_url)
    store.create_game(_game())
    assert store.append_action("abc123", 0, 0, 4, version=0) == 1
    assert store.append_action("abc123", 1, 1, 6, version=1) == 2
    with pytest.raises(StaleWrite):
        store.append_action("abc123", 2, 0, 8, version=1)  # someone wrote meanwhile
    with pytest.raises(StaleWrite):
        store.append_action("abc123", 1, 0, 8, version=2)  # not the next action
    outcome = {"scores": [3, 1], "winners": [0]}
    assert store.append_action("abc123", 2, 0, 8, outcome, finished=True, version=2) == 3
    with pytest.raises(StaleWrite):
        store.append_action("abc123", 3, 1, 1, version=3)  # the game is over
    got = store.load_game("abc123")
    assert got is not None and got.actions == [4, 6, 8] and got.version == 3
    assert got.status == STATUS_FINISHED and got.outcome == outcome and got.steps == 3
    store.close()


def test_truncate_seats_and_status(storage_url: str) -> None:
    store = Storage(storage_url)
    store.create_game(_game())
    for i in range(4):
        store.append_action("abc123", i, 0, i)
    store.truncate_actions("abc123", 3)
    store.append_action("abc123", 3, 0, 9)
    seats = [{"kind": "human", "name": "Ann", "joined": True}, {"kind": "bot", "name": "Bo"}]
    store.update_seats("abc123", seats)
    store.set_status("abc123", STATUS_FINISHED, {"scores": [1, 2], "winners": [1]})
    got = store.load_game("abc123")
    assert got is not None and got.actions == [0, 1, 2, 9] and got.seats == seats
    assert got.status == STATUS_FINISHED and got.outcome == {"scores": [1, 2], "winners": [1]}
    assert store.unfinished_ids() == []
    assert [g.id for g in store.list_games(STATUS_FINISHED)] == ["abc123"]
    assert store.list_games(STATUS_RUNNING) == []


def test_data_survives_a_new_connection(storage_url: str) -> None:
    store = Storage(storage_url)
    store.create_game(_game("g1"))
    store.create_game(_game("g2"))
    store.append_action("g2", 0, 1, 4)
    store.close()
    again = Storage(storage_url)
    assert again.count_games() == 2
    assert again.load_game("g2").actions == [4]  # type: ignore[union-attr]
    assert sorted(again.unfinished_ids()) == ["g1", "g2"]


def test_games_of_one_client_are_counted_and_older_databases_get_the_column(
    storage_url: str,
) -> None:
    from sqlalchemy import inspect, text

    store = Storage(storage_url)
    with store.engine.begin() as conn:  # a database made before the creator column
        conn.execute(text("DROP INDEX ix_games_creator"))
        conn.execute(text("ALTER TABLE games DROP COLUMN creator"))
    store.close()
    store = Storage(storage_url)
    inspector = inspect(store.engine)
    assert "creator" in {c["name"] for c in inspector.get_columns("games")}
    assert "ix_games_creator" in {i["name"] for i in inspector.get_indexes("games")}
    waiting = _game("w1")
    waiting.seats[0]["joined"] = False
    waiting.creator = "k1"
    joined = _game("j1")
    joined.seats[0]["joined"] = True
    joined.creator = "k1"
    searching = StoredGame(
        id="s1", game="toy", players=2, seed=1, options={}, creator="k1",
        seats=[{"kind": "bot", "bot": "mcts"}] * 2, meta={"creator": "k1"},
    )  # fmt: skip
    for game in (waiting, joined, searching):
        store.create_game(game)
    other = _game("o1")
    other.seats[0]["joined"] = False
    other.creator = "k2"
    store.create_game(other)
    assert store.client_games("k1") == (1, 1)
    extra = _game("x1")
    extra.creator = "k1"
    with pytest.raises(TooMany) as err:  # one waiting already: nothing stored
        store.create_game(extra, quota=ClientQuota("k1", waiting=1))
    assert (err.value.what, err.value.count) == ("waiting", 1)
    with pytest.raises(TooMany) as err:
        store.create_game(extra, quota=ClientQuota("k1", waiting=5, heavy=1))
    assert err.value.what == "heavy" and store.load_game("x1") is None
    store.create_game(extra, quota=ClientQuota("k1", waiting=5, heavy=2))
    assert store.client_games("k1") == (1, 1)  # x1 waits for nobody (no "joined" key)
    assert store.load_game("w1").creator == "k1"  # type: ignore[union-attr]
    store.set_status("w1", STATUS_FINISHED)
    store.set_status("s1", STATUS_FINISHED)
    assert store.client_games("k1") == (0, 0) and store.client_games("k2") == (1, 0)
    store.close()
