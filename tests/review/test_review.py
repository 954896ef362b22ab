"""The game review: known positions, hidden information, trivial moves, budgets,
resuming, the process pool and the JSON form."""

from __future__ import annotations

import random

import pytest

from kingdoms.bots.base import make_bot
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.record import GameRecord
from kingdoms.core.runner import run_game
from kingdoms.review import Budget, Review, analyse_position, positions, review_game
from kingdoms.review.checks import POSITIONS, check, last_province_loses, province_at_8


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_known_positions_flag_the_wrong_move_and_prefer_a_right_one(position) -> None:  # type: ignore[no-untyped-def]
    ok, decision = check(position, Budget(iterations=400))
    assert ok, decision
    assert decision.loss > 3 * decision.loss_se


def test_the_right_move_is_not_flagged() -> None:
    state = province_at_8()
    decision = analyse_position(state, state.parse_action("buy Province"), Budget(iterations=200))
    assert decision is not None and not decision.flagged and decision.loss == 0.0
    assert decision.best_text["en"] == "buy Province"


def test_analysis_reads_only_the_seats_view() -> None:
    """Two states the seat cannot tell apart (the other seat's cards and every deck
    resampled) give the same analysis, number for number."""
    state = last_province_loses()
    other = state.determinize(0, random.Random(5))
    assert other.fingerprint() != state.fingerprint()
    assert other.view(0) == state.view(0)
    chosen = state.parse_action("buy Duchy")
    budget = Budget(iterations=60)
    a, b = analyse_position(state, chosen, budget), analyse_position(other, chosen, budget)
    assert a is not None and b is not None
    a.cpu_seconds = b.cpu_seconds = 0.0
    assert a == b


def test_trivial_moves_are_skipped() -> None:
    from kingdoms.dominion.state import DominionState

    hand = DominionState.scenario(2, None, hands={0: ["copper"] * 5})
    assert analyse_position(hand, hand.parse_action("play all treasures")) is None
    # playing one Copper instead is analysed: it is compared with playing them all
    one = analyse_position(hand, hand.parse_action("play Copper"), Budget(iterations=20))
    assert one is not None and one.legal > 1 and not one.flagged
    assert one.best_text["en"] in ("play all treasures", "play Copper")


def test_budget_parsing_and_errors() -> None:
    assert Budget.parse("300").iterations == 300
    assert Budget.parse("2s").seconds == 2.0
    b = Budget.parse("iterations=50,seconds=1.5,game=30,width=3")
    assert (b.iterations, b.seconds, b.game_seconds, b.width) == (50, 1.5, 30.0, 3)
    for bad in ("", "lots", "iterations=x", "speed=3", "iterations=0", "seconds=-1"):
        with pytest.raises(InvalidConfig):
            Budget.parse(bad)


def _kingdomino_record(seed: int = 4) -> GameRecord:
    state = run_game("kingdomino", [make_bot("kingdomino", "greedy")] * 2, seed=seed)
    return state.record(seats=("ann", "bob"))


def test_a_whole_game_resumes_and_runs_on_a_pool_with_the_same_result() -> None:
    record = _kingdomino_record()
    budget = Budget(iterations=6, width=2)
    seen: list[tuple[int, int]] = []
    full = review_game(record, budget=budget, progress=lambda d, t: seen.append((d, t)))
    assert full.complete and seen[-1][0] == seen[-1][1] == full.positions
    assert {d.seat for d in full.decisions} == {0, 1}
    assert all(d.iterations == 6 for d in full.decisions)
    # resumed: half known, the other half analysed, the same numbers
    steps = positions(record, None, 2)
    by_step = {d.step: d for d in full.decisions}
    known = {s: by_step.get(s) for s in steps[: len(steps) // 2]}
    fresh: list[int] = []
    resumed = review_game(
        record, budget=budget, known=known, on_result=lambda s, d: fresh.append(s), workers=2
    )
    assert sorted(fresh) == steps[len(steps) // 2 :]
    strip = [(d.step, d.best, d.win, d.loss, d.flagged) for d in full.decisions]
    assert [(d.step, d.best, d.win, d.loss, d.flagged) for d in resumed.decisions] == strip
    assert resumed.cpu_seconds > 0


def test_one_seat_json_round_trip_and_stop() -> None:
    record = _kingdomino_record()
    review = review_game(record, seats=[1], budget=Budget(iterations=4, width=2))
    assert {d.seat for d in review.decisions} == {1}
    again = Review.from_json(review.to_json())
    assert again.to_json() == review.to_json()
    assert review.names == ["ann", "bob"]
    stopped = review_game(record, budget=Budget(iterations=4, width=2), stop=lambda: True)
    assert not stopped.complete and not stopped.decisions
    with pytest.raises(InvalidConfig):
        review_game(record, seats=[2])


def test_unfinished_games_are_not_reviewed() -> None:
    state = run_game("kingdomino", [make_bot("kingdomino", "greedy")] * 2, seed=4)
    record = GameRecord(config=state.config, actions=tuple(state.history[:10]))
    with pytest.raises(InvalidConfig, match="not finished"):
        review_game(record)


def test_weakened_bots_random_buys_are_what_gets_flagged() -> None:
    """The short version of bench/review_precision.py: one game, every flag on a
    random buy."""
    from kingdoms.review.precision import MONEY_KINGDOM, measure

    totals = measure(
        [3], noise=0.15, budget=Budget.parse("iterations=60,width=3"),
        options={"kingdom": MONEY_KINGDOM},
    )  # fmt: skip
    assert totals.random_buys >= 2
    assert totals.flagged_random >= 1
    assert totals.flagged == totals.flagged_random
