"""Worker processes: batches (not one game per task), streamed in order, seeds explicit."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kingdoms.sim import simulate
from kingdoms.sim.runner import GameResult

KINGDOM = {"kingdom": "First Game"}
BOTS = ["big-money", "smithy"]


def _scores(results: Sequence[GameResult]) -> list[tuple[float, ...]]:
    return [r.scores for r in results]


def test_workers_get_batches_and_stream_them_back_in_order() -> None:
    sizes: list[int] = []
    report = simulate(
        "dominion", BOTS, 12, seed=5, options=KINGDOM, workers=2, batch=4, progress=sizes.append
    )
    assert sizes == [4, 4, 4]  # three batches of games, each reported as it arrives
    assert [r.index for r in report.results] == list(range(12))


def test_early_stopping_with_workers_stops_at_the_same_game() -> None:
    def after_first_batch(results: list[GameResult]) -> bool:
        return len(results) >= 3

    kw = {"options": KINGDOM, "batch": 3, "stop": after_first_batch}
    one = simulate("dominion", BOTS, 60, seed=2, **kw)  # type: ignore[arg-type]
    two = simulate("dominion", BOTS, 60, seed=2, workers=2, **kw)  # type: ignore[arg-type]
    assert one.games == two.games == 3
    assert _scores(one.results) == _scores(two.results)


def test_no_random_state_is_shared_across_the_fork() -> None:
    """The parent's global generator is inherited by forked workers; the games must
    not depend on it (every game and seat derives its own generator)."""
    runs = []
    for parent_seed in (1, 2):
        random.seed(parent_seed)
        report = simulate("dominion", ["random", "random"], 8, seed=4, options=KINGDOM, workers=2)
        runs.append(_scores(report.results))
    single = simulate("dominion", ["random", "random"], 8, seed=4, options=KINGDOM)
    assert runs[0] == runs[1] == _scores(single.results)
    other_seed = simulate("dominion", ["random", "random"], 8, seed=5, options=KINGDOM)
    assert _scores(other_seed.results) != _scores(single.results)
