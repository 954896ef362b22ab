"""The bundled engine and combo strategies against big-money-ultimate on their own
kingdoms: win rates pinned (short runs here; 10,000-game figures in
docs/strategies.md)."""

from __future__ import annotations

import pytest

from kingdoms.bots.dominion.bundled import bundled_strategy, bundled_text
from kingdoms.bots.dominion.lang import check_text
from kingdoms.sim.runner import simulate
from kingdoms.sim.stats import wilson_interval

GAMES = 200
PINNED = {
    "chapel-lab": 0.645,
    "chapel-lab-militia": 0.807,
    "workshop-gardens": 0.948,
    "bureaucrat-gardens": 0.611,
    "village-smithy": 0.649,
    "throne-room-smithy": 0.536,
    "witch-lab": 0.960,
    "familiar-lab": 0.826,
}
"""Score (wins + half the shared wins) against big-money-ultimate in 10,000 games."""


@pytest.mark.parametrize("name", sorted(PINNED))
def test_engine_bot_win_rate_on_its_kingdom(name: str) -> None:
    strategy = bundled_strategy(name)
    assert len(strategy.kingdom) == 10
    assert check_text(bundled_text(name), name) == []
    report = simulate(
        "dominion", [name, "big-money-ultimate"], GAMES, 7, {"kingdom": list(strategy.kingdom)}
    )
    assert report.notes == []  # every card it names is in its kingdom
    score = (report.wins[0] + report.ties / 2) / report.games
    assert abs(score - PINNED[name]) <= 0.08, score


def test_chapel_lab_clearly_beats_big_money_ultimate_without_attacks() -> None:
    from kingdoms.dominion.data import BY_ID, CARDS

    strategy = bundled_strategy("chapel-lab")
    assert not any("Attack" in CARDS[BY_ID[c]].types for c in strategy.kingdom)
    report = simulate(
        "dominion",
        ["chapel-lab", "big-money-ultimate"],
        400,
        11,
        {"kingdom": list(strategy.kingdom)},
    )
    lo, _ = wilson_interval(report.wins[0] + report.ties / 2, report.games)
    assert lo > 0.55
