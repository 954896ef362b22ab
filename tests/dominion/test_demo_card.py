"""A card from a later expansion added by one test-only module (``demo_card.py``):
it plays through the public API, its actions live in a range appended after the card
list's action space, and old records still replay identically.

Adding a card changes the process's card tables, so each test runs in a forked child
process that imports the module: the other tests never see the card.
"""

from __future__ import annotations

import importlib
import multiprocessing
import random
import traceback
from collections.abc import Callable
from typing import Any

import pytest

from kingdoms.core import new_game
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID, CARDS, NUM_CARDS
from kingdoms.dominion.extend import CardDataError, add_card
from kingdoms.dominion.info import card_catalog
from kingdoms.i18n import catalog
from tests.dominion import test_records_compat as compat
from tests.dominion.helpers import FIRST_GAME, do, make

KINGDOM = ["courtyard", *FIRST_GAME[1:]]


def with_the_card(test: Callable[[Any], None]) -> Callable[[], None]:
    """Run ``test(demo_card)`` in a forked child that imports the demo module."""

    def run() -> None:
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)

        def child() -> None:
            try:
                test(importlib.import_module("tests.dominion.demo_card"))
                send.send("")
            except BaseException:
                send.send(traceback.format_exc())

        proc = ctx.Process(target=child)
        proc.start()
        send.close()  # the child's copy stays open: if it dies, recv raises EOFError
        try:
            failure = receive.recv()
        except EOFError:
            failure = f"the child process died (exit code {proc.exitcode})"
        proc.join()
        if failure:
            pytest.fail(failure)

    run.__name__ = run.__qualname__ = test.__name__
    run.__doc__ = test.__doc__
    return run


def test_without_the_module_the_card_does_not_exist() -> None:
    assert "courtyard" not in BY_ID and len(CARDS) == NUM_CARDS
    assert A.NUM_ACTIONS == A.BASE_ACTIONS


@with_the_card
def test_the_added_card_takes_new_ids_and_keeps_every_old_one(demo_card: Any) -> None:
    COURTYARD = demo_card.COURTYARD
    assert COURTYARD == NUM_CARDS and CARDS[COURTYARD].id == "courtyard"
    assert A.NUM_ACTIONS == A.BASE_ACTIONS + A.NUM_KINDS == A.NUM_KINDS * NUM_CARDS + A.NUM_KINDS
    for kind in range(A.NUM_KINDS):
        assert A.encode(kind, BY_ID["gold"]) == kind * NUM_CARDS + BY_ID["gold"]  # unchanged
        action = A.encode(kind, COURTYARD)
        assert A.BASE_ACTIONS <= action < A.NUM_ACTIONS
        assert A.decode(action) == (kind, COURTYARD)


@with_the_card
def test_old_records_replay_identically_with_the_card_added(demo_card: Any) -> None:
    assert demo_card.COURTYARD == NUM_CARDS
    for record in compat.RECORDS:
        compat.test_old_action_logs_replay_identically(record)


@with_the_card
def test_the_card_is_bought_through_the_public_api(demo_card: Any) -> None:
    COURTYARD = demo_card.COURTYARD
    state = new_game("dominion", players=2, seed=3, options={"kingdom": KINGDOM})
    view = state.view(0)
    assert {"card": "courtyard", "count": 10, "cost": [2, 0]} in view["supply"]
    state.apply_checked(A.A_ALL_TREASURES)
    buy = A.encode(A.BUY, COURTYARD)
    assert buy in state.legal_actions() and buy >= A.BASE_ACTIONS
    assert state.action_to_str(buy, "pl") == "kup: Dziedziniec"
    state.apply_checked(buy)
    assert state.view(0)["players"][0]["owned"]["courtyard"] == 1


@with_the_card
def test_playing_it_asks_its_decision_structured_and_translated(demo_card: Any) -> None:
    s = make(
        kingdom=KINGDOM,
        hands={0: ["courtyard", "estate"]},
        decks={0: ["copper", "silver", "gold", "duchy"]},
    )
    do(s, "play Courtyard")
    d = s.view(0)["decision"]
    assert d["kind"] == "choose_cards" and d["purpose"] == "courtyard.topdeck"
    assert d["prompt"] == demo_card.PROMPT and d["card"] == "courtyard"
    assert {c["card"] for c in d["choices"]} == {"estate", "copper", "silver", "gold"}
    assert "choices" not in s.view(1)["decision"]  # the hand stays hidden
    do(s, "put Estate on deck")
    assert s.decks[0][-1] == BY_ID["estate"] and not s.stack
    for lang, name in (("pl", "Dziedziniec"), ("cs", "Nádvoří")):
        assert catalog(lang)[demo_card.PROMPT]
        entry = card_catalog(lang)["cards"]["courtyard"]
        assert entry["name"] == name and entry["text"].startswith("+3 kart")


@with_the_card
def test_random_games_with_the_card_run_to_the_end(demo_card: Any) -> None:
    for seed in range(3):
        state = new_game("dominion", players=3, seed=seed, options={"kingdom": KINGDOM})
        rng = random.Random(seed)
        for _ in range(3000):
            if state.is_terminal():
                break
            state.apply_checked(rng.choice(state.legal_actions()))
            state.view(state.current_player if state.current_player >= 0 else 0)
        state.check_invariants()


@with_the_card
def test_a_card_id_already_taken_is_refused_and_nothing_changes(demo_card: Any) -> None:
    before = len(CARDS), A.NUM_ACTIONS
    with pytest.raises(CardDataError, match="already exists"):
        add_card("courtyard", card_set="intrigue", cost=2, types=["Action"], names={}, texts={})
    with pytest.raises(CardDataError, match="pl, cs"):
        add_card("lurker", card_set="intrigue", cost=2, types=["Action"],
                 names={"en": "Lurker"}, texts={"en": "+1 Action."})  # fmt: skip
    assert (len(CARDS), A.NUM_ACTIONS) == before and "lurker" not in BY_ID


@with_the_card
def test_an_attack_added_at_run_time_is_an_attack_moat_included(demo_card: Any) -> None:
    """An added card with the Attack type is treated as one with no other edit: a
    player holding Moat may reveal it, and is then unaffected."""
    from kingdoms.dominion.cards.declare import declare
    from kingdoms.dominion.cards.steps import EachOtherGains, Plus

    add_card(
        "test_hex",
        card_set="test",
        cost=3,
        types=["Action", "Attack"],
        names={"en": "Test Hex", "pl": "Klątwa testowa", "cs": "Testovací kletba"},
        texts={"en": "+$2. Others gain a Curse.", "pl": "+2. Inni: Klątwa.", "cs": "+2."},
    )
    declare("test_hex", 3, ["Action", "Attack"], "test", Plus(coins=2), EachOtherGains("curse"))
    kingdom = ["test_hex", *(c for c in FIRST_GAME if c != "cellar")]  # Moat among them
    s = make(kingdom=kingdom, hands={0: ["test_hex"], 1: ["moat", "estate"]})
    do(s, "play Test Hex")
    assert s.current_player == 1 and s.view(1)["decision"]["purpose"] == "moat.reveal"
    do(s, "reveal Moat")
    assert s.coins == 2 and BY_ID["curse"] not in s.discards[1] and not s.stack
    s = make(kingdom=kingdom, hands={0: ["test_hex"], 1: ["estate"]})  # no Moat: attacked
    do(s, "play Test Hex")
    assert s.discards[1] == [BY_ID["curse"]]
