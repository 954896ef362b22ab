"""The cards a seat put on top of its own deck itself (``known_top``): kept by the
engine, shown to that seat alone, read by the strategy language's ``known_top(X)``,
written by the import for Vassal as Geronimoo's Dominion Simulator plays it."""

from __future__ import annotations

import random

import pytest

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.conditions import ExprError, compile_condition
from kingdoms.bots.dominion.geronimoo_play import VASSAL_FIRST, play_style
from kingdoms.bots.dominion.lang import parse_strategy
from kingdoms.bots.dominion.observation import Observation, observe
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID
from kingdoms.dominion.game import GAME
from kingdoms.dominion.state import DominionState

KINGDOM = ["sentry", "harbinger", "vassal", "laboratory", "poacher", "militia", "throne_room"]
KINGDOM += ["smithy", "market", "village"]
VASSAL_BOT = (
    'name = "V"\nbuy = ["Province", "Gold", "Laboratory", "Silver"]\n'
    f'play = ["Vassal if {VASSAL_FIRST}", "Harbinger", "Laboratory", "Militia", "Vassal"]\n'
    '[decisions]\n"harbinger.topdeck" = ["Laboratory", "Gold"]\n'
)


def _do(st: DominionState, text: str) -> None:
    found = [a for a in st.legal_actions() if st.action_to_str(a) == text]
    assert found, (text, [st.action_to_str(a) for a in st.legal_actions()])
    st.apply(found[0])


def _harbinger_state() -> DominionState:
    st = DominionState.scenario(
        2,
        KINGDOM,
        hands={0: ["harbinger", "vassal", "militia", "copper", "copper"]},
        decks={0: ["estate", "estate", "silver", "copper"]},
        discards={0: ["laboratory", "gold"]},
    )
    st.logging = False
    return st


def _ids(st: DominionState, p: int) -> list[str]:
    from kingdoms.dominion.data import CARDS

    return [CARDS[c].id for c in st.known_top(p)]


def test_a_card_put_back_is_known_to_its_seat_alone_until_drawn() -> None:
    st = _harbinger_state()
    assert _ids(st, 0) == []
    _do(st, "play Harbinger")
    _do(st, "put Laboratory on deck")
    assert _ids(st, 0) == ["laboratory"]
    assert st.view(0)["known_top"] == ["laboratory"]
    assert st.view(1)["known_top"] == [] and st.public_view()["known_top"] == []
    assert "laboratory" not in str(st.view(1)["engine"])
    obs = observe(st, 0)
    assert obs.known_top == ("laboratory",) == Observation.from_view(st.view(0)).known_top
    assert observe(st, 1).known_top == ()
    # copies, saved games, determinizations and states rebuilt from the view keep it
    assert _ids(st.clone(), 0) == ["laboratory"]
    assert _ids(DominionState.restore(st.snapshot()), 0) == ["laboratory"]
    assert _ids(st.determinize(0, random.Random(3)), 0) == ["laboratory"]
    assert _ids(st.determinize(1, random.Random(3)), 0) == []  # seat 1 does not know it
    rebuilt = GAME.state_from_view(st.view(0), random.Random(1))
    assert isinstance(rebuilt, DominionState) and _ids(rebuilt, 0) == ["laboratory"]
    assert rebuilt.view(0) == st.view(0)
    # Vassal discards it (revealed and moved): nothing known any more
    _do(st, "play Vassal")
    assert _ids(st, 0) == []


def test_sentry_order_is_known_and_a_shuffle_forgets_it() -> None:
    st = DominionState.scenario(
        2,
        KINGDOM,
        hands={0: ["sentry", "copper", "copper", "copper", "copper"]},
        decks={0: ["estate", "laboratory", "poacher"]},
        discards={0: ["gold", "silver"]},
    )
    _do(st, "play Sentry")  # draws the Estate, looks at Laboratory and Poacher
    while st.action_to_str(st.legal_actions()[0]) != "put Laboratory on top":
        _do(st, "done")
    _do(st, "put Laboratory on top")
    assert _ids(st, 0) == ["laboratory", "poacher"]
    st.draw(0, 1)
    assert _ids(st, 0) == ["poacher"]
    st.draw(0, 2)  # the Poacher, then a card of the shuffled discard pile
    assert _ids(st, 0) == [] and st.decks[0]


def test_known_top_in_conditions() -> None:
    st = _harbinger_state()
    _do(st, "play Harbinger")
    _do(st, "put Laboratory on deck")
    s = adapter.situation_observed(observe(st, 0))
    holds = {t: compile_condition(t).fn(s) for t in ("known_top(Action)", "known_top(Treasure)")}
    assert holds == {"known_top(Action)": 1, "known_top(Treasure)": 0}
    assert compile_condition("known_top(Laboratory)").fn(s) == 1
    assert compile_condition("known_top(Terminal)").fn(s) == 0
    assert bool(compile_condition(VASSAL_FIRST).fn(s))
    with pytest.raises(ExprError, match="did you mean 'known_top'"):
        compile_condition("known_tpo(Action) > 0")
    with pytest.raises(ExprError, match="did you mean 'Laboratory'"):
        compile_condition("known_top(Laboratoyr) > 0")


def test_the_vassal_rule_plays_vassal_first_onto_a_known_action() -> None:
    st = _harbinger_state()
    bot = StrategyBot(parse_strategy(VASSAL_BOT))

    def act() -> int:
        return bot.act(observe(st, 0), st.legal_actions(), random.Random(0))

    assert act() == A.encode(A.PLAY, BY_ID["harbinger"])  # nothing known: Harbinger
    _do(st, "play Harbinger")
    st.apply(act())  # puts the Laboratory back
    assert _ids(st, 0) == ["laboratory"]
    assert act() == A.encode(A.PLAY, BY_ID["vassal"])  # Vassal before the Militia
    st.apply(act())
    assert st.action_to_str(st.legal_actions()[0]) == "play Laboratory"
    st.apply(act())
    assert st.actions == 1  # Vassal played the Laboratory: an Action left for Militia


def test_the_import_writes_the_vassal_rule_first() -> None:
    style = play_style([("vassal", None), ("sentry", None), ("militia", None)], {}, False)
    assert style.play[0] == f"Vassal if {VASSAL_FIRST}"
    assert "Vassal" in style.play[1:]
    assert not any("known_top" in e for e in play_style([("sentry", None)], {}, False).play)


def test_the_native_core_leaves_known_top_bots_to_the_python_engine() -> None:
    from kingdoms.bots.dominion.native import NotNative, _plan

    with pytest.raises(NotNative, match="known_top"):
        _plan(StrategyBot(parse_strategy(VASSAL_BOT)), False)


def test_bureaucrat_tops_are_known_each_to_its_own_seat() -> None:
    """The Silver gained onto the player's deck is known to that player; the Victory
    card the other seat put back from its hand, to that seat; neither to the other."""
    st = DominionState.scenario(
        2,
        ["bureaucrat", *KINGDOM[1:]],
        hands={0: ["bureaucrat", "copper", "copper", "copper", "copper"], 1: ["estate"] * 5},
    )
    _do(st, "play Bureaucrat")
    while st.stack:
        st.apply(st.legal_actions()[0])
    assert (_ids(st, 0), _ids(st, 1)) == (["silver"], ["estate"])
    assert (st.view(0)["known_top"], st.view(1)["known_top"]) == (["silver"], ["estate"])


def test_a_possessor_does_not_learn_the_known_top_of_the_seat_it_possesses() -> None:
    st = DominionState.scenario(
        2, KINGDOM, turn=1, decks={1: ["laboratory", "copper", "estate", "silver"]}
    )
    st.deck_unknown[1] = 3  # seat 1 put its Laboratory back itself
    assert _ids(st, 1) == ["laboratory"]
    assert _ids(st.determinize(1, random.Random(2)), 1) == ["laboratory"]
    st.controller = 0  # seat 0 possesses seat 1 this turn: it sees seat 1's hand only
    for seed in range(8):
        d = st.determinize(0, random.Random(seed))
        assert _ids(d, 1) == [] and sorted(d.decks[1]) == sorted(st.decks[1])
