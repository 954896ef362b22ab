"""bench/dominion_geronimoo.py: our side plays every matchup; the Java peer runs only
when a compiled DominionSimulator is given (``KINGDOMS_GERONIMOO``), else the bench
says it is skipped."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

import kingdoms

BENCH = Path(__file__).resolve().parents[2] / "bench" / "dominion_geronimoo.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dominion_geronimoo", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_our_side_plays_every_matchup() -> None:
    bench = load()
    names = [m.name for m in bench.MATCHUPS]
    assert names == [
        "Big Money mirror", "BMU mirror", "Smithy mirror", "Witch mirror", "4-player Big Money",
    ]  # fmt: skip
    for m in bench.MATCHUPS:
        games, cpu = bench.ours(m, 2, 1)
        assert games == 2 and cpu > 0


def test_without_the_peer_it_says_so_and_plays_our_side(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(load().ENV, raising=False)
    build = kingdoms.build_kind()
    argv = ["--games", "3", "--rounds", "1", "--only", "Big Money mirror", "--builds", build]
    assert load().main(argv) == 0
    out = capsys.readouterr().out
    assert "not given" in out and "only our side runs" in out
    assert f"ours {build} " in out and "ratio" not in out


@pytest.mark.skipif(
    not os.environ.get("KINGDOMS_GERONIMOO") or not shutil.which("javac"),
    reason="no compiled DominionSimulator given (KINGDOMS_GERONIMOO) or no javac",
)
def test_against_the_java_peer(capsys: pytest.CaptureFixture[str]) -> None:
    build = kingdoms.build_kind()
    argv = ["--games", "20", "--warmup", "20", "--rounds", "1", "--only", "Witch mirror"]
    assert load().main([*argv, "--builds", build]) == 0
    out = capsys.readouterr().out
    assert "peer: Geronimoo's DominionSimulator" in out
    assert f"ratio {build}/Java" in out
