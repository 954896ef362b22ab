"""The simulator's turn cap: a Dominion game stops once its first player has taken
more than ``max_turns`` turns and is scored as it stands (Geronimoo's rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdoms.core.errors import InvalidConfig
from kingdoms.sim.runner import DEFAULT_MAX_TURNS, play_state, simulate

NEVER = 'name = "Never Buys"\nbuy = ["Province if count(Gold) > 99"]\n'
KINGDOM = {"kingdom": "First Game"}


@pytest.fixture
def never(tmp_path: Path) -> str:
    path = tmp_path / "never.toml"
    path.write_text(NEVER, encoding="utf-8")
    return str(path)


def test_two_never_buying_bots_stop_at_the_cap_with_a_normal_score(never: str) -> None:
    report = simulate("dominion", [never, never], games=6, seed=3, options=KINGDOM)
    assert report.max_turns == DEFAULT_MAX_TURNS == 60
    assert report.capped == 6
    for r in report.results:
        assert r.summary["capped"] is True
        assert r.summary["ending"] == "turn limit"
        assert r.scores == (3.0, 3.0)  # three Estates each
        # tied on VP: the seat that took fewer turns (not the first) wins outright
        assert len(r.winners) == 1 and r.winners[0] != r.first
    assert report.wins == [3, 3]  # seats rotate
    state, _ = play_state("dominion", [never, never], 0, 3, KINGDOM)
    assert state.turns[state.first] == 61
    assert state.turns[1 - state.first] == 60
    assert state.outcome() is None  # stopped, not ended by the rules


def test_a_smaller_cap_and_no_cap(never: str) -> None:
    report = simulate("dominion", [never, never], games=2, seed=3, options=KINGDOM, max_turns=5)
    assert report.capped == 2
    assert all(r.summary["turns"] == 6 for r in report.results)
    # games that end by the rules are not touched by the cap
    plain = simulate("dominion", ["big-money", "smithy"], games=6, seed=2, options=KINGDOM)
    none = simulate(
        "dominion", ["big-money", "smithy"], games=6, seed=2, options=KINGDOM, max_turns=0
    )
    assert plain.capped == 0 and none.max_turns == 0
    assert [r.winners for r in plain.results] == [r.winners for r in none.results]
    assert [r.scores for r in plain.results] == [r.scores for r in none.results]


@pytest.mark.parametrize("bad", [-1, 1.5, True, "60"])
def test_bad_caps_are_refused(never: str, bad: object) -> None:
    with pytest.raises(InvalidConfig, match="max_turns"):
        simulate("dominion", [never, never], games=1, options=KINGDOM, max_turns=bad)  # type: ignore[arg-type]
