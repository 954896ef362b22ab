"""bench/geronimoo_fidelity.py: per-bot seeds, a results file that resumes a stopped
run, the table with both sides' game counts and the 2.5-point mark, and the list of
refused bots with every reason.  Our side only (a short run on a small bot file);
the Java side runs when a compiled DominionSimulator is given (``KINGDOMS_GERONIMOO``)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "geronimoo_fidelity.py"

BOTS = """<players>
<player name="Big Money Ultimate">
  <buy name="Province"/>
  <buy name="Gold"/>
  <buy name="Silver"/>
</player>
<player name="Smithy Test">
  <buy name="Province"/>
  <buy name="Gold"/>
  <buy name="Smithy">
    <condition>
      <left type="countCardsInDeck" attribute="Smithy"/>
      <operator type="smallerThan"/>
      <right type="constant" attribute="1.0"/>
    </condition>
  </buy>
  <buy name="Silver"/>
</player>
<player name="Moat Test">
  <buy name="Province"/>
  <buy name="Moat"/>
  <buy name="Silver"/>
</player>
<player name="Foreign Test">
  <buy name="Colony"/>
  <buy name="Duke"/>
  <buy name="Silver"/>
</player>
</players>
"""


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("geronimoo_fidelity", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def xml(tmp_path: Path) -> Path:
    path = tmp_path / "bots.xml"
    path.write_text(BOTS, encoding="utf-8")
    return path


def test_each_bot_has_its_own_seed() -> None:
    bench = load()
    assert bench.bot_seed(2024, "Smithy Test") == bench.bot_seed(2024, "Smithy Test")
    assert bench.bot_seed(2024, "Smithy Test") != bench.bot_seed(2024, "Moat Test")
    assert bench.bot_seed(2024, "Smithy Test") != bench.bot_seed(2025, "Smithy Test")
    assert 0 <= bench.bot_seed(2024, "Smithy Test") < 2**31  # a Java long and a seed here


def test_a_run_resumes_from_its_results_and_a_bot_does_not_depend_on_the_others(
    xml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load()
    results = tmp_path / "r.jsonl"
    base = ["--bots", str(xml), "--side", "here", "-n", "6", "--results", str(results)]
    assert bench.main([*base, "--only", "Smithy Test", "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)
    lines = results.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["bot"] == "Smithy Test"
    # the same file: Smithy is not played again, only Moat and the opponent
    assert bench.main([*base, "--format", "json"]) == 0
    rows = {r["bot"]: r for r in json.loads(capsys.readouterr().out)}
    lines = results.read_text().splitlines()
    assert [json.loads(line)["bot"] for line in lines] == [
        "Smithy Test", "Big Money Ultimate", "Moat Test",
    ]  # fmt: skip
    assert rows["Smithy Test"] == first[0]
    # a fresh run of every bot gives Smithy the same figure (its own seed)
    fresh = tmp_path / "fresh.jsonl"
    argv = ["--bots", str(xml), "--side", "here", "-n", "6", "--results", str(fresh)]
    assert bench.main([*argv, "--format", "json"]) == 0
    again = {r["bot"]: r for r in json.loads(capsys.readouterr().out)}
    assert again["Smithy Test"]["here"] == rows["Smithy Test"]["here"]
    assert rows["Smithy Test"]["here_games"] == 6 and "geronimoo" not in rows["Smithy Test"]


def test_the_table_shows_both_sides_games_and_marks_what_is_outside(
    xml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load()
    results = tmp_path / "r.jsonl"
    store = bench.Results(results)
    store.add("here", "Smithy Test", 20000, 7, 14000.0, 1.0)
    store.add("geronimoo", "Smithy Test", 20000, 7, 14400.0, 1.0)  # 70.0 vs 72.0
    store.add("here", "Moat Test", 20000, 7, 10000.0, 1.0)
    store.add("geronimoo", "Moat Test", 20000, 7, 11000.0, 1.0)  # 50.0 vs 55.0
    store.add("here", "Big Money Ultimate", 3000, 7, 1500.0, 1.0)  # not this run's count
    argv = ["--bots", str(xml), "-n", "20000", "--seed", "7", "--results", str(results)]
    assert bench.main([*argv, "--table-only", "--format", "markdown"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "| bot | games here | here | games Geronimoo | Geronimoo | difference | within 2.5 |"
    )
    table = {line.split(" | ")[0][2:]: line for line in out[2:]}
    assert table["Smithy Test"] == (
        "| Smithy Test | 20,000 | 70.0 % [69.4–70.6] | 20,000 | 72.0 % [71.4–72.6] | -2.0 | yes |"
    )
    assert table["Moat Test"].endswith("| -5.0 | **no** |")
    assert table["Big Money Ultimate"] == "| Big Money Ultimate | — | — | — | — | — | — |"
    # the file read back gives the same rows
    assert bench.Results(results).rows == store.rows


def test_a_bad_results_line_is_named(xml: Path, tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text('{"side": "here", "bot": "Smithy Test"}\n')
    with pytest.raises(SystemExit, match=r"r\.jsonl:1: not a result line"):
        load().main(["--bots", str(xml), "--side", "here", "--results", str(results)])


def test_bad_arguments_are_refused(xml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load()
    assert bench.main(["--bots", str(xml), "--side", "here", "--only", "Nobody"]) == 2
    assert "--only names no importable bot: Nobody" in capsys.readouterr().err
    assert bench.main(["--bots", str(xml), "--side", "here", "-n", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
    assert bench.main(["--bots", str(xml), "--table-only"]) == 2
    assert "--table-only needs --results" in capsys.readouterr().err
    assert bench.main(["--bots", str(xml)]) == 2  # both sides need the simulator
    assert "--geronimoo PATH" in capsys.readouterr().err


def test_refused_bots_are_listed_with_every_reason(
    xml: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert load().main(["--bots", str(xml), "--refused", "--format", "markdown"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "- Foreign Test: the card 'Colony' does not exist here; the card 'Duke' does not exist here"
    ]
    assert "1 of 4 bots refused" in captured.err


@pytest.mark.skipif(
    not os.environ.get("KINGDOMS_GERONIMOO") or not shutil.which("javac"),
    reason="no compiled DominionSimulator given (KINGDOMS_GERONIMOO) or no javac",
)
def test_both_sides_against_the_java_peer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load()
    root = os.environ["KINGDOMS_GERONIMOO"]
    results = tmp_path / "r.jsonl"
    argv = ["--geronimoo", root, "-n", "30", "--only", "Smithy", "--results", str(results)]
    assert bench.main([*argv, "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["here_games"] == row["geronimoo_games"] == 30 and "difference" in row
    sides = [json.loads(line)["side"] for line in results.read_text().splitlines()]
    assert sorted(sides) == ["geronimoo", "here"]
