"""The classic single-card bots: their buy lists as the issue gives them, their play
rules, and the end-of-game guard in every bundled bot."""

from __future__ import annotations

import random
import re

import pytest

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bots import StrategyBot, decision_purpose
from kingdoms.bots.dominion.bundled import bundled_names, bundled_strategy, bundled_text
from kingdoms.bots.dominion.lang import parse_text
from kingdoms.bots.dominion.strategy import Situation

END = ["Duchy if left(Province) <= 4", "Estate if left(Province) <= 2"]
# Each bot's buy list, entry by entry, transcribed from the published definitions.
CLASSIC: dict[str, list[str]] = {
    "smithy": [
        "Province if total_money > 15", *END, "Gold", "Duchy if left(Province) <= 6",
        "Smithy if count(Smithy) < count(Treasure) / 11", "Silver",
    ],
    "militia": [
        "Province if count(Gold) > 0", "Duchy if left(Province) <= 6",
        "Estate if left(Province) <= 2", "Gold", "Militia if count(Militia) < 3", "Silver",
    ],
    "laboratory": ["Province if count(Gold) > 0", *END, "Gold", "Laboratory", "Silver"],
    "witch": [
        "Province if count(Gold) > 0", "Duchy if left(Province) <= 5",
        "Estate if left(Province) <= 2", "Witch if count(Witch) == 0", "Gold",
        "Witch if count(Witch) < 2", "Silver",
    ],
    "moat": [
        "Province if total_money > 16", *END, "Gold", "Duchy if left(Province) <= 6",
        "Moat if count(Treasure) >= 10 and count(Moat) == 0", "Silver",
        "Moat if count(Moat) < 2",
    ],
    "adventurer": [
        "Province if count(Gold) > 0", *END,
        "Adventurer if count(Gold) > 0 and count(Adventurer) == 0", "Gold",
        "Duchy if left(Province) <= 5", "Silver",
    ],
    "bureaucrat": [
        "Province if count(Gold) > 0", "Duchy if left(Province) <= 5",
        "Estate if left(Province) <= 2", "Gold", "Duchy if left(Province) <= 6",
        "Bureaucrat if count(Bureaucrat) == 0",
        "Bureaucrat if count(Bureaucrat) < count(Treasure) / 20", "Silver",
    ],
    "chancellor": [
        "Province if count(Gold) > 0", *END, "Gold", "Duchy if left(Province) <= 6",
        "Chancellor if count(Chancellor) < count(Treasure) / 19",
        "Chancellor if count(Chancellor) == 0", "Silver",
    ],
    "council-room": [
        "Province if count(Gold) > 0", *END, "Gold", "Duchy if left(Province) <= 6",
        "Council Room if count(Council Room) == 0",
        "Council Room if count(Council Room) < total_money / 13", "Silver",
    ],
    "festival": [
        "Province if count(Gold) > 0", *END, "Gold", "Duchy if left(Province) <= 6",
        "Festival", "Silver",
    ],
    "herbalist": [
        "Province if count(Gold) > 0", *END, "Gold", "Duchy if left(Province) <= 6",
        "Herbalist if count(Herbalist) <= count(Silver) - 8", "Silver",
    ],
    "familiar": [
        "Province", "Duchy if left(Province) <= 5", "Estate if left(Province) <= 2", "Gold",
        "Familiar", "Potion if count(Potion) < 1", "Silver",
    ],
}  # fmt: skip


def _norm(entry: str) -> str:
    return re.sub(r"\s+", "", entry).lower()


@pytest.mark.parametrize("name", sorted(CLASSIC))
def test_classic_buy_lists_are_the_published_ones(name: str) -> None:
    entries = parse_text(bundled_text(name), name).entries
    assert [_norm(e.raw) for e in entries] == [_norm(e) for e in CLASSIC[name]]


@pytest.mark.parametrize("name", sorted(CLASSIC))
def test_classic_bots_play_their_card_first(name: str) -> None:
    assert bundled_strategy(name).play_cards == (name.replace("-", "_"),)


def _sit(owned: dict[str, int], others: tuple[tuple[int, int], ...]) -> Situation:
    supply = {"province": 1, "duchy": 8, "estate": 8, "gold": 30, "silver": 40, "copper": 46}
    return Situation(
        coins=8,
        owned=owned,
        supply=supply,
        costs=adapter.COSTS,
        potion_costs=adapter.POTION_COSTS,
        treasure_values=adapter.TREASURE_VALUES,
        treasure_ids=adapter.TREASURE_IDS,
        types=adapter.TYPES,
        others=others,
        taken=12,
    )


@pytest.mark.parametrize(
    "name", [n for n in bundled_names() if "province" in bundled_strategy(n).wanted()]
)
def test_every_bundled_bot_skips_the_last_province_while_behind(name: str) -> None:
    owned = {"gold": 7, "silver": 2, "estate": 3}  # $25 of money, 3 VP
    strategy = bundled_strategy(name)
    assert strategy.guard
    # ahead after the buy: the last Province wins the game
    assert strategy.choose(_sit(owned, ((5, 12),))) == "province"
    # 10 VP behind: the last Province would lose it; the walk falls through
    behind = strategy.choose(_sit(owned, ((13, 12),)))
    assert behind != "province" and behind is not None
    # tied after the buy with more turns taken: lost on the tie-break, skip it too
    assert strategy.choose(_sit(owned, ((9, 11),))) != "province"


KINGDOM = ["militia", "bureaucrat", "chancellor", "herbalist", "village", "smithy"]
KINGDOM += ["cellar", "moat", "market", "festival"]


def _answers(name: str, hand: list[str], attack: str) -> list[str]:
    """What bot ``name`` in seat 1 answers to ``attack`` played by seat 0."""
    from kingdoms.dominion.state import DominionState

    st_ = DominionState.scenario(2, KINGDOM, turn=0, hands={0: [attack, *["copper"] * 4], 1: hand})
    st_.apply_checked(st_.parse_action(f"play {attack.title()}"))
    bot = StrategyBot(bundled_strategy(name))
    out = []
    rng = random.Random(0)
    while st_.current_player == 1:
        view = st_.view(1)
        action = bot.act(view, st_.legal_actions(), rng)
        if decision_purpose(view):
            out.append(st_.action_to_str(action))
        st_.apply_checked(action)
    return out


@pytest.mark.parametrize("name", bundled_names())
def test_hit_by_militia_and_bureaucrat_as_the_reference_plays(name: str) -> None:
    assert _answers(name, ["gold", "curse", "silver", "estate", "copper"], "militia") == [
        "discard Curse",
        "discard Estate",
    ]
    assert _answers(name, ["gold", "silver", "copper", "silver", "copper"], "militia") == [
        "discard Copper",
        "discard Copper",
    ]
    assert _answers(name, ["gold", "silver", "gold", "silver", "copper"], "militia") == [
        "discard Copper",
        "discard Silver",
    ]
    assert _answers(name, ["gold", "duchy", "estate", "copper", "copper"], "bureaucrat")[0] in (
        "put Duchy on deck",
        "put Estate on deck",
    )
