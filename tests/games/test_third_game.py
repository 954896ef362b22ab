"""Adding a game is one package plus one entry point: a test-only Nim
(``tests/games/nim.py``) is installed the way a third-party game would be (a
distribution's ``kingdoms.games`` entry point) and every front end offers it
without an edit."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kingdoms.core import registry

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kingdoms"


def _install(where: Path) -> None:
    """A distribution ``kingdoms-nim`` whose only content is the entry point."""
    dist = where / "kingdoms_nim-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: kingdoms-nim\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[kingdoms.games]\nnim = tests.games.nim:GAME\n")


@pytest.fixture
def nim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    _install(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    registry._entry_points.cache_clear()
    yield tmp_path
    registry._entry_points.cache_clear()


def test_the_entry_point_registers_the_game(nim: Path) -> None:
    assert "nim" in registry.available_games()
    state = registry.new_game("nim", players=2, seed=1, options={"heap": 10})
    assert state.legal_actions() == [1, 2, 3]
    with pytest.raises(registry.InvalidConfig, match="heap"):
        registry.new_game("nim", options={"heap": 11})


def test_without_the_entry_point_there_is_no_nim() -> None:
    registry._entry_points.cache_clear()
    assert "nim" not in registry.available_games()


def test_the_lobby_offers_the_game_and_plays_it(nim: Path) -> None:
    from kingdoms.server.app import create_app

    with TestClient(create_app("sqlite://", bot_delay=0)) as client:
        games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
        assert {"dominion", "kingdomino", "nim"} <= set(games)
        entry = games["nim"]
        assert entry["title"] == "Nim" and entry["min_players"] == entry["max_players"] == 2
        assert entry["bots"] == ["random"]  # no search bots: Nim cannot rebuild views
        assert entry["options"]["heap"]["choices"][1] == [10, "10"]
        assert (entry["board"], entry["css"]) == ("generic", [])
        assert client.get("/api/catalog/nim/en").json() == {}
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        res = client.post(
            "/api/games", json={"game": "nim", "seats": seats, "options": {"heap": 15}}
        )
        assert res.status_code == 201, res.text
        game_id = res.json()["id"]
        deadline = time.monotonic() + 30
        info = client.get(f"/api/games/{game_id}").json()
        while info["status"] != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
            info = client.get(f"/api/games/{game_id}").json()
        assert (info["game"], info["status"]) == ("nim", "finished")
        record = client.get(f"/api/games/{game_id}/record").json()
        assert sum(record["actions"]) == 15  # the bots took the whole heap
        assert "nim" in client.get("/openapi.json").text


def _kingdoms(nim: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(nim)])}
    return subprocess.run(
        [sys.executable, "-m", "kingdoms", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def test_kingdoms_sim_runs_the_game(nim: Path) -> None:
    out = _kingdoms(nim, "sim", "nim", "--bots", "random,random", "-n", "6", "--heap", "15",
                    "--json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["game"] == "nim" and report["games"] == 6
    assert sum(report["wins"]) == 6
    listed = _kingdoms(nim, "sim", "--help")
    assert re.search(r"^\s+nim\b", listed.stdout, re.M), listed.stdout
    flags = _kingdoms(nim, "sim", "nim", "--help")
    assert "--heap [7|10|15]" in flags.stdout
    bad = _kingdoms(nim, "sim", "nim", "--bots", "random,random", "--options", '{"heap": 4}')
    assert bad.returncode != 0 and "heap must be one of" in bad.stderr


def test_no_front_end_names_the_third_game() -> None:
    """Nim reached the lobby and the simulator above with no line of ``src`` about it."""
    named = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*")
        if p.suffix in (".py", ".js", ".html") and re.search(r"\bnim\b", p.read_text(), re.I)
    ]
    assert named == []
