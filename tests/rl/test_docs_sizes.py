"""docs/rl.md's observation tables and sizes match the encoders (every field's
length for every player count, and the totals quoted)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kingdoms.dominion.data import NUM_CARDS
from kingdoms.rl.dominion_obs import DominionEncoder
from kingdoms.rl.kingdomino_obs import KingdominoEncoder

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")


def table(heading: str) -> dict[str, str]:
    """field -> length expression of the table under the heading starting ``heading``."""
    part = DOC[DOC.index(heading) :]
    rows: dict[str, str] = {}
    started = False
    for line in part.splitlines()[1:]:
        if line.startswith("| field |"):
            started = True
            continue
        if started and not line.startswith("|"):
            break
        if started and not line.startswith("| ---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1]
    return rows


def length(expr: str, **names: int) -> int:
    text = expr.replace("·", "*").replace(" ", "")
    text = re.sub(r"(\d)([A-Za-z(])", r"\1*\2", text)
    text = re.sub(r"([A-Za-z)])(?=[A-Za-z(])", r"\1*", text)
    return int(eval(text, {"__builtins__": {}}, dict(names)))  # our own doc


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_dominion_table(players: int) -> None:
    enc = DominionEncoder(players)
    rows = table("### Dominion")
    assert set(rows) == set(enc.layout)
    for name, expr in rows.items():
        got = enc.layout[name].stop - enc.layout[name].start
        assert length(expr, n=players, K=NUM_CARDS) == got, (name, expr, got)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kingdomino_table(players: int) -> None:
    enc = KingdominoEncoder(players)
    rows = table("### Kingdomino")
    assert set(rows) == set(enc.layout)
    line = 3 if players == 3 else 4
    for name, expr in rows.items():
        got = enc.layout[name].stop - enc.layout[name].start
        assert length(expr, n=players, L=line) == got, (name, expr, got)


def test_quoted_totals() -> None:
    two, three = DominionEncoder(2).size, DominionEncoder(3).size
    assert f"| observation | {two} int16 with 2 players (+{three - two} per extra player)" in DOC
    sizes = [KingdominoEncoder(n).size for n in (2, 3, 4)]
    assert f"{sizes[0]} int16 with 2 players, {sizes[1]} with 3, {sizes[2]} with 4" in DOC
