"""Positions with a known best move: the review must flag the wrong move and prefer a
right one (``kingdoms.review`` checks that it means something).

* ``province-at-8`` — Dominion, late (3 Provinces left, even scores), $8: buying Gold
  instead of a Province is a mistake.
* ``last-province-loses`` — Dominion, the last Province left, 9 VP behind: buying it
  ends the game lost; anything else keeps a chance.
* ``middle-kingdom`` — Kingdomino with the Middle Kingdom (the kingdom must stay in the
  5×5 window centred on the castle for 10 points), last round, ahead by 7: a placement
  outside the window loses the 10 points and the game; five placements keep it.

>>> [p.name for p in POSITIONS]
['province-at-8', 'last-province-loses', 'middle-kingdom']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kingdoms.core.state import GameConfig, State
from kingdoms.review.analysis import Budget, Decision, analyse_position

FIRST_GAME = [
    "cellar", "market", "militia", "mine", "moat",
    "remodel", "smithy", "village", "woodcutter", "workshop",
]  # fmt: skip


def _money(extra: list[str]) -> list[str]:
    return ["copper"] * 7 + ["estate"] * 3 + extra


def _dominion(hand: list[str], mine: list[str], theirs: list[str], provinces: int) -> State:
    from kingdoms.dominion.state import DominionState

    state = DominionState.scenario(
        2,
        FIRST_GAME,
        hands={0: hand},
        discards={0: _money(mine), 1: _money(theirs)},
        decks={0: [], 1: []},
        supply={"province": provinces},
    )
    state.turns[0] = state.turns[1] = 15
    state.apply_checked(state.parse_action("play all treasures"))
    return state


def province_at_8() -> State:
    return _dominion(
        ["gold", "gold", "silver", "estate", "estate"],
        ["silver"] * 3 + ["gold"] * 2 + ["province"] * 2,
        ["silver"] * 4 + ["gold"] * 3 + ["province"] * 2,
        provinces=3,
    )


def last_province_loses() -> State:
    return _dominion(
        ["gold", "gold", "silver", "copper", "estate"],
        ["silver"] * 3 + ["gold"] * 3 + ["province"] * 3,
        ["silver"] * 3 + ["gold"] * 2 + ["province"] * 4 + ["duchy"],
        provinces=1,
    )


MIDDLE_KINGDOM_GAME = [
    759, 757, 752, 751, 75, 777, 75, 766, 88, 733, 60, 740, 102, 758, 88, 775, 102, 774,
    61, 732, 104, 769, 91, 767, 62, 739, 637, 738, 116, 773, 286, 772, 245, 744, 242,
    743, 246, 771, 666, 735, 665,
]  # fmt: skip
"""The first 41 actions of a 2-player Middle Kingdom game (seed 17, two
``planning-greedy`` bots): seat 2 places its last-but-one domino next."""


def middle_kingdom() -> State:
    from kingdoms.core.registry import state_from_config

    config = GameConfig(
        "kingdomino", 2, 17, {"variants": ["middle-kingdom"], "middle_kingdom_rule": "window"}
    )
    state = state_from_config(config)
    for action in MIDDLE_KINGDOM_GAME[:40]:
        state.apply_checked(action)
    return state


def _keeps_middle(state: State, action: int) -> bool:
    from kingdoms.kingdomino.state import KingdominoState

    assert isinstance(state, KingdominoState)
    return bool(state.boards[state.current_player].keeps_middle(action))


@dataclass(frozen=True)
class KnownPosition:
    name: str
    build: Callable[[], State]
    wrong: str
    """The move the review must flag (its text)."""
    right: Callable[[State, int], bool]
    """Whether a move is one of the right ones."""


POSITIONS = (
    KnownPosition(
        "province-at-8",
        province_at_8,
        "buy Gold",
        lambda s, a: s.action_to_str(a) == "buy Province",
    ),
    KnownPosition(
        "last-province-loses",
        last_province_loses,
        "buy Province",
        lambda s, a: s.action_to_str(a) != "buy Province",
    ),
    KnownPosition("middle-kingdom", middle_kingdom, "place 43 at -2,-1 left", _keeps_middle),
)


def check(position: KnownPosition, budget: Budget | None = None) -> tuple[bool, Decision]:
    """Review the wrong move of ``position``: whether it was flagged with a right move
    preferred, and the analysis."""
    state = position.build()
    decision = analyse_position(state, state.parse_action(position.wrong), budget)
    if decision is None:
        raise AssertionError(f"{position.name}: the wrong move was taken as trivial")
    return decision.flagged and position.right(state, decision.best), decision
