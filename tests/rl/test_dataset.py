"""Datasets of games (kingdoms.rl.dataset, ``kingdoms dataset export``): Minari,
Parquet and JSON Lines, from simulator runs, self-play and a server's database; every
row rebuilds the state it was taken from."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("minari")
pytest.importorskip("pyarrow")

from kingdoms.core.registry import get_game
from kingdoms.core.state import TERMINAL
from kingdoms.rl import dataset as ds

SECRET = "correct horse battery staple"


def _games_with_fingerprints(
    game: str, players: int, options: dict, count: int
) -> tuple[list[ds.GameRow], list[list[str]]]:
    """Random games played here, with the fingerprint of the state before each action."""
    rows, prints = [], []
    for i in range(count):
        g = get_game(game)
        state = g.create(g.config(players, 40 + i, options))
        rng = random.Random(i)
        seen = []
        while state.current_player != TERMINAL and state.step < 400:
            seen.append(state.fingerprint())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        outcome = state.outcome()
        rows.append(
            ds.GameRow(
                id=f"g{i}", game=game, players=players, seed=40 + i, options=options,
                actions=list(state.history), source="simulator",
                seats=[{"kind": "bot", "bot": "random"}] * players,
                returns=outcome.returns() if outcome else [0.0] * players,
                finished=outcome is not None,
            )
        )  # fmt: skip
        prints.append(seen)
    return rows, prints


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("kingdomino", 3, {"variants": ["harmony"]}), ("dominion", 2, {"kingdom": "First Game"})],
)
def test_every_row_rebuilds_its_state(
    tmp_path: Path, game: str, players: int, options: dict
) -> None:
    rows, prints = _games_with_fingerprints(game, players, options, 2)
    summary = ds.export(rows, tmp_path / "out")
    assert summary["games"] == 2 and summary["steps"] == sum(len(p) for p in prints)
    data = ds.Dataset(tmp_path / "out")
    encoder = ds.encoder_for(game, players)
    size = ds.num_actions(game, players, options)
    steps = list(data.steps())
    assert len(steps) == summary["steps"]
    for row in steps:
        state = data.state_of(row)
        assert state.fingerprint() == prints[row["game"]][row["step"]]  # the original
        assert state.current_player == row["seat"]
        assert np.array_equal(encoder.encode(state, row["seat"]), row["observation"])
        assert row["legal_actions"] == sorted(state.legal_actions())
        assert row["action"] in row["legal_actions"]
        assert row["outcome"] == rows[row["game"]].returns[row["seat"]]
    # each seat's last decision is marked once
    assert sum(r["last"] for r in steps) == 2 * players
    # Parquet: the same rows, with the mask
    import pyarrow.parquet as pq

    table = pq.read_table(tmp_path / "out" / "steps.parquet").to_pylist()
    assert len(table) == len(steps)
    for pr, jr in zip(table, steps, strict=True):
        assert pr["observation"] == jr["observation"] and pr["action"] == jr["action"]
        assert np.flatnonzero(pr["action_mask"]).tolist() == jr["legal_actions"]
        assert len(pr["action_mask"]) == size
    games = pq.read_table(tmp_path / "out" / "games.parquet").to_pylist()
    assert [g["actions"] for g in games] == [r.actions for r in rows]
    # Minari: one episode per seat; the infos name the game and step of each observation
    dataset = ds.load_minari(tmp_path / "out", summary["minari_id"])
    assert dataset.total_episodes == 2 * players
    assert dataset.total_steps == summary["steps"]
    for episode in dataset.iterate_episodes():
        game_ix = int(episode.infos["game"][0, 0])
        seat = int(episode.infos["seat"][0, 0])
        for t in range(len(episode.actions)):
            state = data.state(game_ix, int(episode.infos["step"][t, 0]))
            assert state.current_player == seat
            assert state.fingerprint() == prints[game_ix][int(episode.infos["step"][t, 0])]
            assert np.array_equal(
                episode.observations["observation"][t], encoder.encode(state, seat)
            )
            assert episode.observations["action_mask"][t][episode.actions[t]] == 1
        assert episode.rewards[-1] == rows[game_ix].returns[seat]
        assert bool(episode.terminations[-1]) == rows[game_ix].finished


def test_simulator_and_self_play_sources(tmp_path: Path) -> None:
    sim = list(ds.from_simulator("kingdomino", ["greedy", "random"], 2, seed=5))
    assert [r.seats[0]["bot"] for r in sim] == ["greedy", "random"]  # seats turn round
    assert all(r.finished and r.source == "simulator" for r in sim)
    again = list(ds.from_simulator("kingdomino", ["greedy", "random"], 2, seed=5))
    assert [r.actions for r in again] == [r.actions for r in sim]  # reproducible
    chosen: list[Any] = []

    def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        chosen.append(observation.dtype)
        return int(np.flatnonzero(mask)[0])

    self_play = list(ds.from_self_play("dominion", 2, first_legal, 1, seed=3, max_steps=300))
    assert self_play[0].source == "self-play" and chosen[0] == np.float32
    summary = ds.export(self_play, tmp_path / "sp", formats=("jsonl",))
    assert summary["files"] == ["games.jsonl", "steps.jsonl"]
    data = ds.Dataset(tmp_path / "sp")
    last = data.state(0, len(self_play[0].actions))
    assert last.step == len(self_play[0].actions)
    with pytest.raises(Exception, match="no step"):
        data.state(0, 10**6)
    with pytest.raises(Exception, match="one game"):
        ds.export(sim + self_play, tmp_path / "mixed")


VIEWS: dict[str, dict[tuple[int, int], Any]] = {}
"""What the server sent each seat of each game played in a test: (seat, state id) → view."""


def _play_over_the_api(
    client: Any,
    meta: dict[str, Any],
    profiles: list[str | None],
    seed: int,
    game: str = "kingdomino",
) -> str:
    """A 2-player game between two people, each on their own socket (with a profile if
    given), played to its end through the server's API; the views the server sent
    each seat are kept in ``VIEWS``."""
    created = client.post(
        "/api/games",
        json={"game": game, "seats": [{"kind": "human"}] * 2, "seed": seed, **meta},
    ).json()
    views = VIEWS.setdefault(str(created["id"]), {})
    socks = []
    for seat, profile in zip(created["seats"], profiles, strict=True):
        ws = client.websocket_connect(f"/ws/{created['id']}")
        ws.__enter__()
        hello: dict[str, Any] = {"type": "hello", "tokens": [seat["token"]]}
        if profile is not None:
            hello["profile"] = {"name": profile, "secret": SECRET}
        ws.send_json(hello)
        socks.append(ws)
    acted = -1
    finished = False
    while not finished:
        for ws in socks:
            msg = ws.receive_json()
            while msg.get("type") != "state":
                msg = ws.receive_json()
            finished = bool(msg["finished"])
            views[(msg["seat"], msg["state_id"])] = msg["view"]
            if not finished and msg["seat"] == msg["current_player"] and msg["state_id"] > acted:
                acted = msg["state_id"]
                legal = msg["legal"]
                ws.send_json(
                    {"type": "action", "action": legal[acted % len(legal)]["action"],
                     "state_id": acted}
                )  # fmt: skip
    for ws in socks:
        ws.__exit__(None, None, None)
    return str(created["id"])


def _same_as_the_server_sent(
    data: ds.Dataset, row: ds.GameRow, views: dict[tuple[int, int], Any]
) -> None:
    """Every state of ``row`` rebuilt from the dataset shows each seat exactly the view
    the server sent that seat at that point of the game (and at its end)."""
    assert {step for _, step in views} == set(range(len(row.actions) + 1))
    states = {}
    for (seat, step), sent in sorted(views.items(), key=lambda kv: kv[0][1]):
        if step not in states:
            states = {step: data.state(row.id, step)}
        rebuilt = json.loads(json.dumps(states[step].view(seat)))
        assert rebuilt == sent, (row.id, seat, step)


def test_export_from_a_server_with_real_games(tmp_path: Path) -> None:
    """Games played through the server's API, exported from its database: finished
    public games only (a private one and an unfinished one left out), people
    anonymised, ``--rated-only``; every step rebuilds the server's own state."""
    from click.testing import CliRunner
    from starlette.testclient import TestClient

    from kingdoms.cli import main
    from kingdoms.core.record import GameRecord
    from kingdoms.core.state import GameConfig
    from kingdoms.server.app import create_app
    from kingdoms.server.storage import Storage

    url = f"sqlite:///{tmp_path / 'db' / 'kingdoms.sqlite'}"
    with TestClient(create_app(url, bot_delay=0, allow_seeds=True, message_rate=None)) as client:
        for name in ("Anna Novakova", "Bob Builder"):
            assert (
                client.post("/api/profiles", json={"name": name, "secret": SECRET}).status_code
                == 201
            )
        public = _play_over_the_api(client, {}, [None, None], seed=1)
        rated = _play_over_the_api(
            client, {"rated": True}, ["Anna Novakova", "Bob Builder"], seed=2
        )
        private = _play_over_the_api(client, {"private": True}, [None, None], seed=3)
        dominion = _play_over_the_api(
            client, {"options": {"kingdom": "First Game"}}, [None, None], seed=4, game="dominion"
        )
        running = client.post(
            "/api/games", json={"game": "kingdomino", "seats": [{"kind": "human"}] * 2}
        ).json()["id"]
    store = Storage(url)
    originals = {gid: store.load_game(gid) for gid in (public, rated, private, running, dominion)}
    store.close()
    assert originals[running].status != "finished"
    out = tmp_path / "export"
    result = CliRunner().invoke(
        main, ["dataset", "export", "--source", "server", "--db", url, "--game", "kingdomino",
               "--out", str(out)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{") :])
    data = ds.Dataset(out)
    assert summary["games"] == 2 and len(data.games) == 2
    for row in data.games:
        assert row.source == "server" and row.finished
        # the row's game is one of the two public finished games, replayed exactly
        stored = next(s for s in (originals[public], originals[rated]) if s.actions == row.actions)
        assert row.rated == (stored is originals[rated])
        record = GameRecord(
            GameConfig(stored.game, stored.players, stored.seed, stored.options),
            tuple(stored.actions),
        )
        for step in range(0, len(row.actions) + 1, 7):
            assert data.state(row.id, step).fingerprint() == record.replay(step).fingerprint()
        _same_as_the_server_sent(data, row, VIEWS[stored.id])
        assert [s["kind"] for s in row.seats] == ["human", "human"]
    # Dominion: every state the server sent either person, rebuilt from the export
    result = CliRunner().invoke(
        main, ["dataset", "export", "--source", "server", "--db", url, "--game", "dominion",
               "--out", str(tmp_path / "dominion")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (row,) = ds.Dataset(tmp_path / "dominion").games
    assert row.actions == originals[dominion].actions and "cellar" in row.options["kingdom"]
    assert [s["player"] for s in row.seats] == ["player-1", "player-2"]  # nothing of the rest
    _same_as_the_server_sent(ds.Dataset(tmp_path / "dominion"), row, VIEWS[dominion])
    # a step holds the acting seat's observation and nothing of what it may not see:
    # the same vector from any state that seat cannot tell from the real one
    exported = ds.Dataset(tmp_path / "dominion")
    encoder = ds.encoder_for("dominion", 2)
    steps = list(exported.steps())
    assert len(steps) == len(row.actions)
    rng = random.Random(3)
    for step in steps[::5]:
        assert set(step) == {"game", "game_id", "step", "seat", "observation",
                             "legal_actions", "action", "outcome", "last"}  # fmt: skip
        state = exported.state_of(step)
        other = state.determinize(step["seat"], rng)
        assert other.fingerprint() != state.fingerprint() or step["step"] < 2
        assert np.array_equal(encoder.encode(other, step["seat"]), step["observation"])
    # nobody's name, profile or token is in the export
    text = "".join(p.read_text(errors="ignore") for p in out.rglob("*") if p.is_file())
    for secret in ["Anna", "Bob", "Player 1", SECRET, public, rated, private]:
        assert secret not in text
    players = sorted({s["player"] for g in data.games for s in g.seats})
    assert players == ["player-1", "player-2", "player-3", "player-4"]
    # rated only
    only = tmp_path / "rated"
    result = CliRunner().invoke(
        main, ["dataset", "export", "--source", "server", "--db", url, "--game", "kingdomino",
               "--rated-only", "--out", str(only), "--format", "jsonl"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rated_rows = ds.Dataset(only).games
    assert len(rated_rows) == 1 and rated_rows[0].rated
    assert rated_rows[0].actions == originals[rated].actions
    # a bad request changes nothing and says what is wrong
    result = CliRunner().invoke(
        main, ["dataset", "export", "--source", "server", "--game", "kingdomino",
               "--out", str(tmp_path / "none")]
    )  # fmt: skip
    assert result.exit_code != 0 and "--db" in result.output
    assert not (tmp_path / "none").exists()


def _server_with_finished_games(tmp_path: Path, ids: list[str]) -> str:
    """A server database holding finished public Kingdomino games with the given ids,
    played at random here; its URL."""
    from kingdoms.server.storage import STATUS_FINISHED, Storage, StoredGame

    url = f"sqlite:///{tmp_path / 'ids.sqlite'}"
    store = Storage(url)
    for n, gid in enumerate(ids):
        g = get_game("kingdomino")
        state = g.create(g.config(2, 60 + n, {}))
        rng = random.Random(n)
        while state.current_player != TERMINAL:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        store.create_game(
            StoredGame(id=gid, game="kingdomino", players=2, seed=60 + n, options={},
                       seats=[{"kind": "human"}] * 2, status=STATUS_FINISHED,
                       outcome={"winners": list(state.outcome().winners)},
                       actions=list(state.history), created=float(n))
        )  # fmt: skip
    store.close()
    return url


def test_server_game_ids_cannot_be_linked_to_the_server(tmp_path: Path) -> None:
    """A server game's id in a dataset is not a plain hash of the server's id (which
    its public pages show, and which anyone can hash): each export draws a fresh
    salt, so two exports give different ids and neither matches the server's; the
    same ``--salt`` gives the same ids again; every game still rebuilds its states."""
    import hashlib

    from click.testing import CliRunner

    from kingdoms.cli import main

    server_ids = ["1", "2", "a1b2c3d4e5f6"]
    url = _server_with_finished_games(tmp_path, server_ids)

    def export(name: str, *extra: str) -> ds.Dataset:
        result = CliRunner().invoke(
            main, ["dataset", "export", "--source", "server", "--db", url, "--game",
                   "kingdomino", "--format", "jsonl", "--out", str(tmp_path / name), *extra]
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        return ds.Dataset(tmp_path / name)

    first, second = export("first"), export("second")
    salted, again = export("salted", "--salt", "s3cret"), export("again", "--salt", "s3cret")
    other = export("other", "--salt", "other")
    ids = {name: [g.id for g in d.games] for name, d in
           [("first", first), ("second", second), ("salted", salted), ("again", again),
            ("other", other)]}  # fmt: skip
    plain = set()
    for sid in server_ids:
        digest = hashlib.sha256(sid.encode()).hexdigest()
        plain |= {digest, digest[:16], f"server-{digest[:16]}", sid, f"server-{sid}"}
    for name, got in ids.items():
        assert len(set(got)) == len(server_ids), name
        assert all(i.startswith("server-") for i in got)
        assert not plain & set(got), name
        text = "".join(p.read_text() for p in (tmp_path / name).rglob("*") if p.is_file())
        assert "s3cret" not in text and not any(f'"{sid}"' in text for sid in server_ids)
    assert not set(ids["first"]) & set(ids["second"])  # unlinkable across exports
    assert ids["salted"] == ids["again"]  # reproducible with the same salt
    assert not set(ids["salted"]) & set(ids["other"])
    assert not set(ids["salted"]) & set(ids["first"])
    # the ids are stable within an export: steps name their game by it, and every
    # game still rebuilds, by its id, the states of the game the server stored
    from kingdoms.server.storage import Storage

    store = Storage(url)
    stored = [store.load_game(sid) for sid in server_ids]
    store.close()
    for data in (first, salted):
        assert {s["game_id"] for s in data.steps()} == {g.id for g in data.games}
        for row in data.games:
            (original,) = [s for s in stored if s is not None and s.actions == row.actions]
            g = get_game("kingdomino")
            state = g.create(g.config(2, original.seed, {}))
            for step, action in enumerate(original.actions):
                if step % 9 == 0:
                    assert data.state(row.id, step).fingerprint() == state.fingerprint()
                state.apply(action)
            assert data.state(row.id, len(row.actions)).fingerprint() == state.fingerprint()
    # an empty salt is everyone's salt: refused, nothing written
    result = CliRunner().invoke(
        main, ["dataset", "export", "--source", "server", "--db", url, "--game", "kingdomino",
               "--salt", "", "--out", str(tmp_path / "empty")]
    )  # fmt: skip
    assert result.exit_code != 0 and "salt" in result.output
    assert not (tmp_path / "empty").exists()
    # a salt means nothing to the other sources
    result = CliRunner().invoke(
        main, ["dataset", "export", "--source", "simulator", "--game", "kingdomino",
               "--salt", "x", "--out", str(tmp_path / "sim")]
    )  # fmt: skip
    assert result.exit_code != 0 and "--salt" in result.output


def test_a_damaged_dataset_says_what_is_wrong(tmp_path: Path) -> None:
    """A damaged file, a row that is not a game, an action that is not legal, a game or
    step that is not there: each an :class:`InvalidArgument` naming the file and row or
    the game and step, never a bare ``KeyError``/``JSONDecodeError``."""
    from kingdoms.core.errors import InvalidArgument

    rows = list(ds.from_simulator("kingdomino", ["random", "random"], 2, seed=5))
    ds.export(rows, tmp_path / "ok", ["jsonl", "parquet"])
    good = (tmp_path / "ok" / "games.jsonl").read_text()
    data = ds.Dataset(tmp_path / "ok")
    for game, step, words in [
        ("nope", 1, "no game 'nope'"),
        (7, 1, "no game 7"),
        (0, 10_000, "has no step 10000"),
    ]:
        with pytest.raises(InvalidArgument, match=words):
            data.state(game, step)
    first = json.loads(good.splitlines()[0])
    illegal = dict(first, actions=[*first["actions"][:3], 999_999])
    cases = [
        (good.splitlines()[0] + "\n" + good.splitlines()[1][:40] + "\n", "line 2: not JSON"),
        (json.dumps({"id": "x"}) + "\n", "line 1: not a game row \\(no 'game'\\)"),
        ("[1, 2]\n", "line 1: not a game row"),
        (json.dumps(dict(first, actions="abc")) + "\n", "line 1: not a game row"),
    ]
    for i, (text, words) in enumerate(cases):
        folder = tmp_path / f"bad{i}"
        folder.mkdir()
        (folder / "games.jsonl").write_text(text)
        with pytest.raises(InvalidArgument, match=words) as err:
            ds.Dataset(folder)
        assert "games.jsonl" in str(err.value)
    folder = tmp_path / "illegal"
    folder.mkdir()
    (folder / "games.jsonl").write_text(json.dumps(illegal) + "\n")
    with pytest.raises(InvalidArgument, match=f"game {first['id']}, step 3: action 999999"):
        ds.Dataset(folder).state(0, 4)
    assert ds.Dataset(folder).state(0, 3).step == 3  # the rows before it still load
    # a damaged Parquet file, a missing or damaged steps file
    folder = tmp_path / "parquet"
    folder.mkdir()
    raw = (tmp_path / "ok" / "games.parquet").read_bytes()
    (folder / "games.parquet").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(InvalidArgument, match=r"games\.parquet: not a readable Parquet file"):
        ds.Dataset(folder)
    with pytest.raises(InvalidArgument, match=r"no steps\.jsonl"):
        list(ds.Dataset(tmp_path / "illegal").steps())
    (tmp_path / "ok" / "steps.jsonl").write_text('{"game": 0, "step": 0, "seat": 0}\n{"ga\n')
    with pytest.raises(InvalidArgument, match=r"steps\.jsonl, line 2: not JSON"):
        list(data.steps())


def test_a_bad_command_line_says_what_is_wrong(tmp_path: Path) -> None:
    """An unknown flag, an unknown format or too few bots: exit code 2 or 1 with the
    flag named, and no folder written."""
    from click.testing import CliRunner

    from kingdoms.cli import main

    out = tmp_path / "out"
    base = ["dataset", "export", "--game", "kingdomino", "--out", str(out)]
    for extra, words in [
        (
            ["--source", "server", "--db", "sqlite:///x", "--ratd-only"],
            "No such option '--ratd-only'. Did you mean '--rated-only'?",
        ),
        (["--source", "simulator", "--format", "csv"], "'csv' is not one of"),
        (["--source", "simulator", "--bots", "random"], "--bots needs 2 specs, got 1"),
        (["--source", "nowhere"], "'nowhere' is not one of"),
    ]:
        result = CliRunner().invoke(main, base + extra)
        assert result.exit_code in (1, 2) and words in result.output, result.output
        assert not out.exists()
