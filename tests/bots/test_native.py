"""The native Dominion core plays the games the Python engine plays.

Every test compares the native core with the Python engine (the reference) on the
same configuration, seed and bots: the random generator and shuffle word for word,
whole games (history and the final state's snapshot), the simulator's results, and
the fallback that says why a game stays on the engine.  Without the extension (the
pure-Python path) the native core is not there to compare, and the tests skip.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any

import pytest

from kingdoms.bots.base import make_bot
from kingdoms.bots.dominion import native
from kingdoms.bots.dominion.bots import StrategyBot, _play_game
from kingdoms.bots.dominion.lang import parse_strategy
from kingdoms.core import new_game
from kingdoms.core.errors import IllegalAction
from kingdoms.core.runner import DEFAULT_MAX_STEPS, seat_rngs
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID, CARDS, NUM_CARDS
from kingdoms.dominion.state import DominionState
from kingdoms.sim import runner

pytestmark = pytest.mark.skipif(
    not native.available(), reason="the native core is not built (pure-Python path)"
)

WITCH_KINGDOM = [
    "witch", "moat", "smithy", "village", "laboratory",
    "festival", "market", "council_room", "chapel", "cellar",
]  # fmt: skip


def _mod() -> Any:
    import importlib

    return importlib.import_module("kingdoms.dominion._cnative")


@pytest.mark.parametrize(
    "seed", [0, 1, 5, 2**32 - 1, 2**32, 123_456_789_012_345, 2**48 - 1, 2**70 + 3]
)
def test_the_native_generator_is_seeded_as_random_random(seed: int) -> None:
    assert _mod().seeded_state(seed) == random.Random(seed).getstate()


def test_the_native_shuffle_is_random_shuffle() -> None:
    r = random.Random(7)
    for n in (0, 1, 2, 3, 10, 17, 40, 100, 300):
        state = r.getstate()
        expected = list(range(n))
        r.shuffle(expected)
        got, after = _mod().shuffled(list(range(n)), state)
        assert got == expected
        assert after == r.getstate()


def _both(
    specs: Sequence[str | StrategyBot], kingdom: object, seed: int, edition: int = 1
) -> tuple[DominionState, DominionState]:
    bots = [make_bot("dominion", s, files=True) if isinstance(s, str) else s for s in specs]
    opts = {"kingdom": kingdom, "base_edition": edition}
    a = new_game("dominion", players=len(bots), seed=seed, options=opts)
    b = new_game("dominion", players=len(bots), seed=seed, options=opts)
    assert isinstance(a, DominionState) and isinstance(b, DominionState)
    a.logging = b.logging = False
    assert native.why_not(a, bots) is None
    assert native.play_state(a, bots, DEFAULT_MAX_STEPS)
    _play_game(
        b, [x for x in bots if isinstance(x, StrategyBot)], seat_rngs(seed, len(bots)), 10**5
    )
    return a, b


LINEUPS = [
    (["big-money", "big-money"], "First Game"),
    (["big-money-ultimate", "smithy"], "First Game"),
    (["witch", "witch"], WITCH_KINGDOM),
    (["witch", "big-money", "smithy", "moat"], WITCH_KINGDOM),
    (["council-room", "witch", "laboratory"], WITCH_KINGDOM),
    (["festival", "moat", "witch", "big-money", "smithy", "witch-lab"], WITCH_KINGDOM),
    (["militia", "militia"], "First Game"),
    (["militia", "moat", "witch"], ["militia", *WITCH_KINGDOM[:9]]),
]


@pytest.mark.parametrize(("specs", "kingdom"), LINEUPS)
def test_native_games_are_the_engines_games(specs: list[str], kingdom: object) -> None:
    for seed in range(6):
        a, b = _both(specs, kingdom, seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        assert a.outcome() == b.outcome()


def test_kept_runs_follow_the_seats_strategies() -> None:
    """``play_state`` keeps the native run per kingdom, seats' strategies, cards owned
    and options (the public ``play_out`` plays many games of one kingdom with the
    same bots): line-ups taking turns on one kingdom, the same strategies in swapped
    seats, and two strategies of one name whose rules differ each play the engine's
    game, and a line-up met again builds nothing."""
    same_name = [
        StrategyBot(parse_strategy(f'name = "alike"\nbuy = ["Province", "Gold", "{c}", "Silver"]'))
        for c in ("Smithy", "Militia")
    ]
    lineups: list[list[str | StrategyBot]] = [
        ["big-money", "big-money"],
        ["smithy", "big-money"],
        ["big-money", "smithy"],
        ["militia", "moat"],
        [same_name[0], same_name[1]],
        [same_name[1], same_name[0]],
    ]
    native._STATE_RUNS.clear()
    for seed in range(3):
        for specs in lineups:
            a, b = _both(specs, "First Game", seed)
            assert a.history == b.history
            assert a.snapshot() == b.snapshot()
        kept = len(native._STATE_RUNS)
        assert kept == len(lineups)  # met again: found, not built anew
    first = new_game("dominion", players=2, seed=3, options={"kingdom": "First Game"})
    other = new_game("dominion", players=2, seed=3, options={"kingdom": WITCH_KINGDOM})
    first.logging = other.logging = False
    bots = [make_bot("dominion", "witch"), make_bot("dominion", "witch")]
    assert native.play_state(first, bots, DEFAULT_MAX_STEPS)
    assert native.play_state(other, bots, DEFAULT_MAX_STEPS)
    assert len(native._STATE_RUNS) == kept + 2  # another kingdom: another run


CONDITIONS = """
name = "conditions"
play = ["Smithy if not is(card, Village) and actions >= 1", "Action"]
buy = [
  "Province if total_money > 15 and vp_lead >= -30 or empty_piles >= 2",
  "Duchy if left(Province) <= 4 or gains_ok",
  "Gold if (coins - 6) * 2 >= 0 and not count(Gold) > 5",
  "Smithy if count(Smithy) < max(1, count(Treasure) // 9) and my_turns % 2 == 0",
  "Witch if count(card) < min(2, players) and cost(card) == cost(Witch)",
  "Silver if 1 < 2 <= turn and deck_size / 3 > -1 and -opp_vp <= vp + 100",
  "Village if vp_deficit < 50 and buys == 1 and potions == 0",
]
[decisions]
"moat.reveal" = false
"""


def test_conditions_and_answers_are_evaluated_as_the_engine_does() -> None:
    bad = parse_strategy(CONDITIONS.replace(" or gains_ok", " or gains_to_end < 3"))
    good = parse_strategy(CONDITIONS.replace(" or gains_ok", ""))
    for seed in range(8):
        a, b = _both([StrategyBot(good), "moat", "witch"], WITCH_KINGDOM, seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
    st = new_game("dominion", players=2, seed=0, options={"kingdom": WITCH_KINGDOM})
    assert isinstance(st, DominionState)
    st.logging = False
    assert native.why_not(st, [StrategyBot(bad), StrategyBot(good)]) == (
        "the condition variable 'gains_to_end'"
    )


def test_what_the_native_core_cannot_play_stays_on_the_engine() -> None:
    st = new_game("dominion", players=2, seed=0, options={"kingdom": "First Game"})
    assert isinstance(st, DominionState)
    bots = [make_bot("dominion", "big-money", files=True) for _ in range(2)]
    assert native.why_not(st, bots) == "logging is on (the native core writes no log)"
    st.logging = False
    assert native.why_not(st, bots) is None
    workshop = [make_bot("dominion", "workshop-gardens", files=True), bots[0]]
    # a Workshop can gain any card costing up to $4, Remodel among them, which gains a
    # card costing up to $2 more than the dearest card owned: every card of this
    # kingdom is native, but Merchant's step is not
    assert native.why_not(st, workshop) is None
    st = new_game(
        "dominion", players=2, seed=0, options={"kingdom": ["merchant", *WORKSHOP_KINGDOM[:9]]}
    )
    assert isinstance(st, DominionState)
    st.logging = False
    assert native.why_not(st, workshop) == "merchant has a Custom step"
    assert not native.play_state(st, workshop, DEFAULT_MAX_STEPS)
    assert st.history == []
    random_bot = [make_bot("dominion", "random"), bots[0]]
    assert "not a strategy bot" in str(native.why_not(st, random_bot))
    assert runner.native_reason(
        "dominion", ["chapel-lab", "big-money"], {"kingdom": "First Game"}
    ) == ("the condition function in_hand()")
    assert (
        runner.native_reason("dominion", ["big-money", "smithy"], {"kingdom": "First Game"}) is None
    )


WORKSHOP = """
name = "workshop-money"
buy = [
  "Province if total_money > 15",
  "Gold",
  "Workshop if count(Workshop) < 2",
  "Silver",
]
[decisions]
"workshop.gain" = ["Silver if coins >= 2", "Village if count(Village) < 1", "Smithy"]
"""

WORKSHOP_KINGDOM = [
    "workshop", "village", "smithy", "militia", "moat",
    "festival", "market", "laboratory", "witch", "council_room",
]  # fmt: skip


@pytest.mark.parametrize(
    "specs",
    [
        ["workshop-money", "big-money"],
        ["workshop-money", "witch", "militia"],
        ["workshop-money", "workshop-money", "moat", "smithy"],
    ],
)
def test_gains_within_a_cost_are_the_engines_gains(specs: list[str]) -> None:
    """Workshop's ``GainUpTo`` step runs natively: the seat's gain rules (its own
    with conditions, then the default's ``*.gain``) pick among the piles the engine
    offers, in its order."""
    bot = StrategyBot(parse_strategy(WORKSHOP))
    gained = 0
    for seed in range(8):
        seats = [bot if s == "workshop-money" else s for s in specs]
        a, b = _both(seats, WORKSHOP_KINGDOM, seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        gained += sum(1 for x in a.history if x // NUM_CARDS == A.GAIN)
    assert gained > 10


def test_a_gain_that_can_take_a_card_off_the_native_core_keeps_the_game_on_the_engine() -> None:
    """A seat with a Workshop can come to own any card costing up to $4: one whose
    steps are not native (Merchant here) keeps the game on the engine."""
    st = new_game(
        "dominion", players=2, seed=0, options={"kingdom": ["merchant", *WORKSHOP_KINGDOM[:9]]}
    )
    assert isinstance(st, DominionState)
    st.logging = False
    bots = [StrategyBot(parse_strategy(WORKSHOP)), make_bot("dominion", "big-money")]
    assert native.why_not(st, bots) == "merchant has a Custom step"


CHANCELLOR = """
name = "chancellor-choosy"
buy = ["Province if total_money > 15", "Gold", "Chancellor if count(Chancellor) < 2", "Silver"]
[decisions]
"chancellor.discard_deck" = ["no if my_turns % 3 == 0", "yes if deck_size > 14", "no"]
"""


@pytest.mark.parametrize(
    "specs", [["chancellor", "big-money"], ["chancellor-choosy", "chancellor", "militia"]]
)
def test_yes_no_questions_are_answered_as_the_engine_does(specs: list[str]) -> None:
    """Chancellor's ``MayDiscardDeck`` step runs natively: asked only with cards in
    the deck, answered by the seat's yes/no rules (with their conditions), the deck
    moved to the discard pile top card first."""
    choosy = StrategyBot(parse_strategy(CHANCELLOR))
    answers: set[int] = set()
    for seed in range(8):
        seats = [choosy if s == "chancellor-choosy" else s for s in specs]
        a, b = _both(seats, ["chancellor", *WORKSHOP_KINGDOM[1:]], seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        answers.update(x for x in a.history if x in (A.A_YES, A.A_NO))
    assert answers == ({A.A_YES, A.A_NO} if len(specs) > 2 else {A.A_YES})


def test_a_yes_no_rule_reading_a_card_keeps_the_game_on_the_engine() -> None:
    text = CHANCELLOR.replace("my_turns % 3 == 0", "count(card) > 1")
    st = new_game(
        "dominion", players=2, seed=0, options={"kingdom": ["chancellor", *WORKSHOP_KINGDOM[1:]]}
    )
    assert isinstance(st, DominionState)
    st.logging = False
    bots = [StrategyBot(parse_strategy(text)), make_bot("dominion", "big-money")]
    assert native.why_not(st, bots) == (
        "a condition reading a card in the chancellor.discard_deck rules"
    )


CELLAR = """
name = "cellar-money"
buy = ["Province if total_money > 15", "Gold", "Cellar if count(Cellar) < 2", "Silver"]
[decisions]
"cellar.discard" = ["Copper if coins < 1 and count(Gold) > 0", "Victory", "done"]
"""


@pytest.mark.parametrize(
    "specs", [["cellar-money", "big-money"], ["cellar-money", "militia", "witch"]]
)
def test_discard_then_draw_is_the_engines(specs: list[str]) -> None:
    """Cellar's ``DiscardAnyThenDraw`` step runs natively: one card at a time as the
    seat's discard rules (conditions included) pick, ``done`` to stop, then the draw."""
    bot = StrategyBot(parse_strategy(CELLAR))
    done = 0
    for seed in range(8):
        seats = [bot if s == "cellar-money" else s for s in specs]
        a, b = _both(seats, ["cellar", *WORKSHOP_KINGDOM[1:]], seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        done += a.history.count(A.A_DONE)
    assert done > 5


TOPDECKER = """
name = "topdecker"
buy = [
  "Province if total_money > 15", "Duchy if left(Province) <= 6", "Estate if left(Province) <= 3",
  "Gold", "Silver",
]
[decisions]
"bureaucrat.topdeck" = ["Province if left(Province) < 6 and not is(card, Estate)", "Estate"]
"""


@pytest.mark.parametrize(
    "specs",
    [
        ["bureaucrat", "topdecker"],
        ["bureaucrat", "topdecker", "moat", "big-money"],
        ["bureaucrat", "bureaucrat", "witch"],
    ],
)
def test_each_other_player_topdecks_as_the_engine_does(specs: list[str]) -> None:
    """Bureaucrat's ``GainCard`` (a Silver onto the deck) and ``EachOtherTopdecks``
    (a Victory card from each victim's hand onto its deck) run natively: one kind is
    put back without a question, more kinds as the victim's rules (conditions on the
    card and the supply) pick, Moat's reveal protects, a hand without one stays."""
    bot = StrategyBot(parse_strategy(TOPDECKER))
    chosen = 0
    for seed in range(8):
        seats = [bot if s == "topdecker" else s for s in specs]
        a, b = _both(seats, ["bureaucrat", *WORKSHOP_KINGDOM[1:]], seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        chosen += sum(
            1 for x in a.history if x // NUM_CARDS == A.CHOOSE and CARDS[x % NUM_CARDS].is_victory
        )
    assert chosen > 0


def test_a_topdeck_rule_reading_the_seat_keeps_the_game_on_the_engine() -> None:
    """Out of its turn, a victim's rules may read the card and the supply natively; a
    rule reading its own figures keeps the game on the engine."""
    text = TOPDECKER.replace("left(Province) < 6 and", "my_turns > 3 and")
    st = new_game(
        "dominion", players=2, seed=0, options={"kingdom": ["bureaucrat", *WORKSHOP_KINGDOM[1:]]}
    )
    assert isinstance(st, DominionState)
    st.logging = False
    bots = [make_bot("dominion", "bureaucrat", files=True), StrategyBot(parse_strategy(text))]
    assert native.why_not(st, bots) == (
        "a condition reading more than the card in the bureaucrat.topdeck rules"
    )


LIBRARY = """
name = "library-village"
play = ["Village", "Festival", "Library", "Smithy"]
buy = [
  "Province if total_money > 15", "Gold", "Library if count(Library) < 2",
  "Village if count(Village) < 2", "Smithy if count(Smithy) < 1", "Silver",
]
[decisions]
"library.set_aside" = ["no if is(card, Village) and count(card) > 1", "yes if actions == 0", "no"]
"""


@pytest.mark.parametrize(
    "specs", [["library-village", "big-money"], ["library-village", "militia", "witch"]]
)
def test_drawing_to_a_hand_size_setting_aside_is_the_engines(specs: list[str]) -> None:
    """Library's ``DrawToSettingAside`` step runs natively: one card at a time up to 7,
    each Action card drawn set aside or kept as the seat's yes/no rules (conditions on
    the card drawn included) say, the set-aside cards discarded after."""
    bot = StrategyBot(parse_strategy(LIBRARY))
    answers: set[int] = set()
    for seed in range(8):
        seats = [bot if s == "library-village" else s for s in specs]
        a, b = _both(seats, ["library", *WORKSHOP_KINGDOM[1:]], seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        answers.update(x for x in a.history if x in (A.A_YES, A.A_NO))
    assert answers == {A.A_YES, A.A_NO}


TRASHERS = """
name = "remodel-money"
play = ["Laboratory", "Apprentice", "Remodel"]
buy = [
  "Province if total_money > 15", "Gold", "Remodel if count(Remodel) < 1",
  "Apprentice if count(Apprentice) < 1 and players > 2", "Laboratory", "Silver",
]
[decisions]
"remodel.trash" = ["Gold if left(Province) <= 4", "Curse", "Estate", "Copper if total_money > 9"]
"remodel.gain" = ["Province", "Gold", "Laboratory if coins < 3", "Silver"]
"apprentice.trash" = ["Curse", "Estate", "Remodel if count(Remodel) > 0 and turn > 12", "Silver"]
"""


@pytest.mark.parametrize(
    "specs", [["remodel-money", "big-money"], ["remodel-money", "witch", "militia"]]
)
def test_trashing_from_the_hand_is_the_engines(specs: list[str]) -> None:
    """``TrashOneFromHand`` runs natively with a declared follow-up: Remodel's gain
    costing $2 more (the seat's trash and gain rules, conditions included, pick) and
    Apprentice's draw per $1 of cost; the trash pile is written back in order."""
    bot = StrategyBot(parse_strategy(TRASHERS))
    trashed = 0
    for seed in range(8):
        seats = [bot if s == "remodel-money" else s for s in specs]
        a, b = _both(seats, ["remodel", "apprentice", *WORKSHOP_KINGDOM[1:9]], seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        assert a.trash == b.trash
        trashed += len(a.trash)
    assert trashed > 10


FEAST = """
name = "feast-money"
buy = ["Province if total_money > 15", "Gold", "Feast if count(Feast) < 3", "Silver"]
[decisions]
"feast.gain" = ["Duchy if left(Province) <= 3", "Laboratory if count(Laboratory) < 2", "Market"]
"""


@pytest.mark.parametrize(
    "specs", [["feast-money", "big-money"], ["feast-money", "witch", "militia"]]
)
def test_a_card_trashing_itself_is_the_engines(specs: list[str]) -> None:
    """Feast's ``TrashThis`` (the Feast played leaves play for the trash) and its gain
    run natively."""
    bot = StrategyBot(parse_strategy(FEAST))
    trashed = 0
    for seed in range(8):
        seats = [bot if s == "feast-money" else s for s in specs]
        a, b = _both(seats, ["feast", *WORKSHOP_KINGDOM[1:]], seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        trashed += a.trash.count(BY_ID["feast"])
    assert trashed > 5


MONEYLENDER = """
name = "moneylender-money"
buy = ["Province if total_money > 15", "Gold", "Moneylender if count(Moneylender) < 1", "Silver"]
[decisions]
"moneylender.trash" = ["no if count(Copper) < 5", "yes"]
"""


@pytest.mark.parametrize("edition", [1, 2])
def test_trashing_a_named_card_for_coins_is_the_engines(edition: int) -> None:
    """Moneylender's ``TrashCardFor`` runs natively: a Copper for +$3, asked (the
    seat's yes/no rules, with their conditions) in the second edition only."""
    bot = StrategyBot(parse_strategy(MONEYLENDER))
    answers: set[int] = set()
    trashed = 0
    for seed in range(8):
        a, b = _both(
            [bot, "militia", "big-money"], ["moneylender", *WORKSHOP_KINGDOM[1:]], seed, edition
        )
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        answers.update(x for x in a.history if x in (A.A_YES, A.A_NO))
        trashed += a.trash.count(BY_ID["copper"])
    assert trashed > 5
    assert answers == (set() if edition == 1 else {A.A_YES, A.A_NO})


SECOND_KINGDOM = [
    "village", "smithy", "militia", "moat", "festival",
    "market", "laboratory", "witch", "council_room",
]  # fmt: skip
CARD_MONEY = """
name = "{card}-money"
play = ["Village", "{name}", "Smithy"]
buy = [
  "Province if total_money > 15", "Duchy if left(Province) <= 3",
  "{name} if count({name}) < 2", "Gold", "Village if count(Village) < 1", "Silver",
]
[decisions]
{decisions}
"""
STEP_CARDS = {
    # Chapel's TrashUpTo: up to 4 cards, one at a time, until done (conditions read
    # the seat's figures and the card)
    "chapel": (
        "Chapel",
        '"chapel.trash" = ["Curse", "Estate if left(Province) > 3", '
        '"Copper if total_money > 4 and count(Copper) > 3", "done"]',
    ),
    # Artisan's GainUpTo(5, to="hand") and TopdeckFromHand
    "artisan": (
        "Artisan",
        '"artisan.gain" = ["Smithy if count(Smithy) < 1", "Silver if coins < 3", "Laboratory"]\n'
        '"artisan.topdeck" = ["Estate if turn > 4", "Gold", "costliest Treasure"]',
    ),
    # Harbinger's MayTopdeckFromDiscard: a card of the discard pile, or done
    "harbinger": (
        "Harbinger",
        '"harbinger.topdeck" = ["Gold", "Laboratory if count(Laboratory) > 0", '
        '"Silver if turn > 6", "done"]',
    ),
    # Bandit's GainCard (a Gold) and EachOtherTrashesRevealed (each victim's rules,
    # reading the card and the supply, pick between two Treasures)
    "bandit": (
        "Bandit",
        '"bandit.trash" = ["Silver if left(Gold) > 20", "cheapest any"]',
    ),
    # Sentry's LookTrashDiscardReorder(2): trash any, discard any, the rest back in
    # the order the seat's rules pick
    "sentry": (
        "Sentry",
        '"sentry.trash" = ["Curse", "Estate if left(Province) > 3", '
        '"Copper if count(Silver) + count(Gold) > 3", "done"]\n'
        '"sentry.discard" = ["Victory", "Copper if turn > 8", "done"]\n'
        '"sentry.order" = ["Gold", "Sentry if actions > 0", "costliest any"]',
    ),
    # Spy's RevealTopEach: yes (discard) or no, about each seat's card (about_me)
    "spy": (
        "Spy",
        '"spy.discard" = ["yes if about_me and is(card, Victory)", '
        '"no if about_me", "yes if is(card, Gold) or is(card, Silver)", "no"]',
    ),
}


@pytest.mark.parametrize("card", sorted(STEP_CARDS))
def test_cards_of_declared_steps_are_played_natively_as_the_engine_plays_them(card: str) -> None:
    """Chapel, Artisan, Harbinger, Bandit, Sentry and Spy, each one declaration of
    reusable steps, are played by the native core (no fallback to the engine: ``_both``
    checks it) against Big Money, Militia, Witch and Moat seats and give the engine's
    games, decision by decision: history, snapshot and the trash in order."""
    name, decisions = STEP_CARDS[card]
    text = CARD_MONEY.format(card=card, name=name, decisions=decisions)
    bot = StrategyBot(parse_strategy(text))
    plain = StrategyBot(parse_strategy(CARD_MONEY.format(card=card, name=name, decisions="")))
    kingdom = [card, *SECOND_KINGDOM]
    played = asked = 0
    for seed in range(6):
        seats: list[str | StrategyBot] = (
            [bot, "big-money"] if seed % 3 == 0
            else [bot, "witch", "militia"] if seed % 3 == 1
            else [plain, "moat", bot, "big-money-ultimate"]
        )  # fmt: skip
        a, b = _both(seats, kingdom, seed, 2)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        assert a.trash == b.trash
        play = A.encode(A.PLAY, BY_ID[card])
        for i, x in enumerate(a.history[:-1]):
            if x == play:
                played += 1
                nxt = a.history[i + 1]
                asked += nxt in (A.A_YES, A.A_NO, A.A_DONE) or nxt // NUM_CARDS in (
                    A.CHOOSE,
                    A.GAIN,
                )
    assert played > 30
    assert asked > 5


POACHER = """
name = "poacher-money"
play = ["Village", "Poacher", "Smithy"]
buy = [
  "Province if total_money > 15", "Poacher if count(Poacher) < 3", "Gold",
  "Village if count(Village) < 1", "Silver",
]
[decisions]
"poacher.discard" = ["Curse", "Estate if turn > 4", "Copper if count(Gold) > 1",
  "cheapest Victory", "cheapest any"]
"""


@pytest.mark.parametrize("empty", [1, 2])
def test_discarding_a_card_per_empty_pile_is_the_engines(empty: int) -> None:
    """Poacher's ``DiscardPerEmptyPile`` runs natively: with ``empty`` Supply piles
    emptied before the game, each play discards that many cards (the seat's discard
    rules, with their conditions, pick one at a time; a hand of no more cards is
    discarded whole, unasked), as the engine does, move for move."""
    bot = StrategyBot(parse_strategy(POACHER))
    kingdom = ["poacher", *SECOND_KINGDOM]
    gone = [BY_ID[c] for c in ("council_room", "moat")[:empty]]
    played = asked = 0
    for seed in range(6):
        seats = [bot, "big-money"] if seed % 2 else [bot, "militia", "witch"]
        bots = [make_bot("dominion", s, files=True) if isinstance(s, str) else s for s in seats]
        states = []
        for _ in range(2):
            st = new_game("dominion", players=len(bots), seed=seed, options={"kingdom": kingdom})
            assert isinstance(st, DominionState)
            st.logging = False
            for c in gone:
                st.supply[c] = 0
            states.append(st)
        a, b = states
        assert native.why_not(a, bots) is None
        assert native.play_state(a, bots, DEFAULT_MAX_STEPS)
        _play_game(b, bots, seat_rngs(seed, len(bots)), 10**5)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        play = A.encode(A.PLAY, BY_ID["poacher"])
        for i, x in enumerate(a.history[:-1]):
            if x == play:
                played += 1
                asked += a.history[i + 1] // NUM_CARDS == A.CHOOSE
    assert played > 30
    assert asked > 10


THRONE = """
name = "throne-money"
play = ["Throne Room", "Village", "Feast", "Militia", "Smithy", "Moat"]
buy = [
  "Province if total_money > 15", "Throne Room if count(Throne Room) < 2",
  "Feast if count(Feast) < 1", "Gold", "Militia if count(Militia) < 1",
  "Smithy if count(Smithy) < 1", "Village if count(Village) < 1", "Silver",
]
[decisions]
"throne_room.play" = {play}
"""
THRONE_KINGDOM = [
    "throne_room", "feast", "militia", "moat", "village",
    "smithy", "witch", "market", "laboratory", "festival",
]  # fmt: skip


@pytest.mark.parametrize("edition", [1, 2])
def test_playing_an_action_twice_is_the_engines(edition: int) -> None:
    """Throne Room's ``PlayActionTwice`` runs natively: the seat's rules for the card
    to play twice, then its play priorities, pick (``done``: none, in the second
    edition only); the card is resolved twice as one play — an Attack asks each Moat
    twice, a Feast is trashed by its first resolution only, a Throne Room on a Throne
    Room plays two more cards twice — as the engine does, move for move."""
    bot = StrategyBot(
        parse_strategy(
            THRONE.format(
                play='["Feast if turn < 12", "Throne Room if actions == 0", "Smithy if coins < 3"]'
            )
        )
    )
    choosy = StrategyBot(parse_strategy(THRONE.format(play='["Feast", "Militia", "done"]')))
    played = chosen = feasts = thrones = 0
    choose = A.encode(A.CHOOSE, 0)
    for seed in range(6):
        seats: list[str | StrategyBot] = (
            [bot, "big-money"] if seed % 3 == 0
            else [bot, "moat", "witch"] if seed % 3 == 1
            else [bot, choosy, "militia"]
        )  # fmt: skip
        a, b = _both(seats, THRONE_KINGDOM, seed, edition)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        assert a.trash == b.trash
        play = A.encode(A.PLAY, BY_ID["throne_room"])
        for i, x in enumerate(a.history[:-1]):
            if x == play:
                played += 1
                nxt = a.history[i + 1]
                chosen += choose <= nxt < choose + NUM_CARDS
                feasts += nxt == choose + BY_ID["feast"]
                thrones += nxt == choose + BY_ID["throne_room"]
    assert played > 30
    assert chosen > 20
    assert feasts > 2
    assert thrones > 0


def test_a_throne_room_with_a_card_the_core_cannot_play_keeps_the_game_on_the_engine() -> None:
    """Throne Room is native, but a card it could play twice that is not (Merchant, which
    the seat buys) keeps the whole game on the engine: the core leaves it untouched."""
    text = THRONE.format(play='["Merchant", "Feast"]').replace(
        '"Silver",\n]', '"Merchant if count(Merchant) < 1", "Silver",\n]'
    )
    bot = StrategyBot(parse_strategy(text))
    kingdom = ["merchant", *THRONE_KINGDOM[:9]]
    st = new_game("dominion", players=2, seed=0, options={"kingdom": kingdom})
    assert isinstance(st, DominionState)
    st.logging = False
    big = make_bot("dominion", "big-money")
    assert native.why_not(st, [bot, big]) == "merchant has a Custom step"
    assert not native.play_state(st, [bot, big], DEFAULT_MAX_STEPS)
    assert st.history == []


THIEF = """
name = "thief-money"
play = ["Throne Room", "Thief", "Militia", "Smithy"]
buy = [
  "Province if total_money > 15", "Thief if count(Thief) < 2", "Gold",
  "Throne Room if count(Throne Room) < 1", "Silver",
]
[decisions]
"thief.trash" = ["Copper if about_me", "Gold", "Silver if my_turns % 2 == 0", "any"]
"thief.gain" = ["Gold", "Silver if count(Silver) < 3", "done"]
"""
THIEF_KINGDOM = [
    "thief", "throne_room", "militia", "moat", "smithy",
    "village", "witch", "market", "laboratory", "festival",
]  # fmt: skip


def test_thief_is_played_natively_as_the_engine_plays_it() -> None:
    """Thief's ``EachOtherTrashesRevealed`` (each unprotected victim reveals 2 cards;
    the player picks the Treasure trashed, its rules reading ``about_me`` as the
    victim's, then may gain the trashed ones, one at a time, ``done`` to stop) runs
    natively: whole games and games taken up mid-way (a trash holding copies of the
    cards stolen: the first copy leaves it, as the engine's ``list.remove``) are the
    engine's, move for move, trash included."""
    bot = StrategyBot(parse_strategy(THIEF))
    played = chosen = gained = declined = resumed = 0
    choose, done = A.encode(A.CHOOSE, 0), A.encode(A.DONE, 0)
    for seed in range(8):
        seats: list[str | StrategyBot] = (
            [bot, "big-money"] if seed % 3 == 0
            else [bot, "moat", "witch"] if seed % 3 == 1
            else [bot, bot, "militia"]
        )  # fmt: skip
        a, b = _both(seats, THIEF_KINGDOM, seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        assert a.trash == b.trash
        thief = A.encode(A.PLAY, BY_ID["thief"])
        answers = (A.encode(A.YES, 0), A.encode(A.NO, 0))  # a Moat revealed or not
        for i, x in enumerate(a.history):
            if x != thief:
                continue
            played += 1
            for y in a.history[i + 1 :]:  # the Thief's decisions: trash picks, gains
                if choose <= y < choose + NUM_CARDS:
                    chosen += 1
                    gained += y - choose in (BY_ID["gold"], BY_ID["silver"])
                elif y == done:
                    declined += 1
                elif y not in answers:
                    break
        # the same game taken up at turn 10 of its first player
        bots = [make_bot("dominion", x, files=True) if isinstance(x, str) else x for x in seats]
        mid = new_game("dominion", players=len(bots), seed=seed, options={"kingdom": THIEF_KINGDOM})
        assert isinstance(mid, DominionState)
        mid.logging = False
        rngs = seat_rngs(seed, len(bots))
        _play_game(mid, [x for x in bots if isinstance(x, StrategyBot)], rngs, 10**5, 10)
        if mid.current_player < 0 or mid.stack:
            continue
        resumed += any(CARDS[c].is_treasure for c in mid.trash)
        c, d = mid.clone(), mid.clone()
        assert isinstance(c, DominionState) and isinstance(d, DominionState)
        assert native.why_not(c, bots) is None
        assert native.play_state(c, bots, DEFAULT_MAX_STEPS)
        _play_game(d, [x for x in bots if isinstance(x, StrategyBot)], rngs, 10**5)
        assert c.history == d.history
        assert c.snapshot() == d.snapshot()
        assert c.trash == d.trash
    assert played > 30
    assert chosen > 20
    assert gained > 10
    assert declined > 5
    assert resumed > 2


HERBALIST = """
name = "herbalist-money"
play = ["Throne Room", "Herbalist", "Smithy"]
buy = [
  "Province if total_money > 15", "Gold", "Herbalist if count(Herbalist) < 3",
  "Throne Room if count(Throne Room) < 1", "Smithy if count(Smithy) < 1", "Silver",
]
[decisions]
"herbalist.topdeck" = ["Gold", "Silver if my_turns % 2 == 0", "done"]
"cleanup.order" = ["Copper if coins >= 7", "Herbalist if buys > 0", "Smithy", "any"]
"""
HERBALIST_KINGDOM = [
    "herbalist", "throne_room", "smithy", "moat", "village",
    "witch", "market", "laboratory", "festival", "cellar",
]  # fmt: skip


def _mid_turn(
    seats: Sequence[str | StrategyBot], kingdom: object, seed: int, turn: int
) -> tuple[DominionState, list[StrategyBot], list[random.Random]] | None:
    """The seeded game played on the engine until, at its first player's ``turn`` or
    later, a Herbalist has been played this turn (``herbalists`` counted) and no
    decision is pending: None if the game ends first."""
    bots = [make_bot("dominion", x, files=True) if isinstance(x, str) else x for x in seats]
    strategy = [x for x in bots if isinstance(x, StrategyBot)]
    st = new_game("dominion", players=len(bots), seed=seed, options={"kingdom": kingdom})
    assert isinstance(st, DominionState)
    st.logging = False
    rngs = seat_rngs(seed, len(bots))
    _play_game(st, strategy, rngs, 10**5, turn)
    while st.current_player >= 0:
        if st.herbalists and not st.stack and st.phase <= 1:
            return st, strategy, list(rngs)
        with contextlib.suppress(IllegalAction):  # one action, the game not over
            _play_game(st, strategy, rngs, 1)
    return None


def test_herbalist_is_played_natively_as_the_engine_plays_it() -> None:
    """Herbalist's Clean-up ability (``TopdeckTreasureAtCleanup``: printed wording, as
    the engine orders Clean-up) runs natively: while a Herbalist and a Treasure are in
    play the seat picks the card leaving play next by its ``cleanup.order`` rules
    (conditions included; none applies: ``done``, the rest leave together), and a
    Herbalist leaving with Treasures in play lets it put one onto its deck by its
    ``herbalist.topdeck`` rules.  Whole games, games taken up at a turn's start and
    in the middle of a turn after a Herbalist was played (Throne Room on it too) are
    the engine's, move for move; the default rules (Herbalist first) too."""
    bot = StrategyBot(parse_strategy(HERBALIST))
    plain = StrategyBot(  # Clean-up by the default rules
        parse_strategy("\n".join(x for x in HERBALIST.splitlines() if "cleanup" not in x))
    )
    choose, done = A.encode(A.CHOOSE, 0), A.encode(A.DONE, 0)
    treasures = {BY_ID[c] for c in ("copper", "silver", "gold")}
    played = topdecked = declined = resumed = 0
    for seed in range(8):
        seats: list[str | StrategyBot] = (
            [bot, "big-money"] if seed % 3 == 0
            else [bot, "moat", "witch"] if seed % 3 == 1
            else [bot, plain, "smithy"]
        )  # fmt: skip
        a, b = _both(seats, HERBALIST_KINGDOM, seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        assert a.trash == b.trash
        played += a.history.count(A.encode(A.PLAY, BY_ID["herbalist"]))
        topdecked += sum(1 for x in a.history if x - choose in treasures)
        declined += a.history.count(done)
        for turn in (6, 12):
            got = _mid_turn(seats, HERBALIST_KINGDOM, seed, turn)
            if got is None:
                continue
            mid, bots, rngs = got
            resumed += 1
            c, d = mid.clone(), mid.clone()
            assert isinstance(c, DominionState) and isinstance(d, DominionState)
            assert native.why_not(c, bots) is None
            assert native.play_state(c, bots, DEFAULT_MAX_STEPS)
            _play_game(d, bots, rngs, 10**5)
            assert c.history == d.history
            assert c.snapshot() == d.snapshot()
            assert c.trash == d.trash
    assert played > 30
    assert topdecked > 10
    assert declined > 10
    assert resumed > 8


def test_alchemist_keeps_a_herbalist_game_on_the_engine() -> None:
    """Alchemist's Clean-up question is not native: a seat that can own one keeps the
    game, Herbalist and all, on the engine, untouched by the core."""
    text = HERBALIST.replace('"Gold",', '"Gold", "Alchemist if count(Alchemist) < 1",')
    bot = StrategyBot(parse_strategy(text))
    st = new_game(
        "dominion", players=2, seed=0,
        options={"kingdom": ["alchemist", *HERBALIST_KINGDOM[:9]]},
    )  # fmt: skip
    assert isinstance(st, DominionState)
    st.logging = False
    big = make_bot("dominion", "big-money")
    assert native.why_not(st, [bot, big]) == "alchemist asks a decision of its own (topdeck)"
    assert not native.play_state(st, [bot, big], DEFAULT_MAX_STEPS)
    assert st.history == []


MINE = """
name = "mine-money"
play = ["Village", "Mine", "Smithy"]
buy = [
  "Province if total_money > 15", "Mine if count(Mine) < 2", "Gold",
  "Village if count(Village) < 1", "Silver",
]
[decisions]
"mine.trash" = ["Silver if left(Gold) > 25", "Copper if count(Silver) < 4", "done"]
"mine.gain" = ["Gold", "Silver"]
"""


@pytest.mark.parametrize("edition", [1, 2])
def test_trashing_a_card_of_a_type_to_gain_a_dearer_one_is_the_engines(edition: int) -> None:
    """Mine's ``TrashOfTypeFromHand`` (a Treasure, optional in the second edition,
    then a Treasure costing up to $3 more to the hand) runs natively: the seat's
    trash rules, conditions included, pick, and in the second edition no rule applying
    trashes nothing."""
    bot = StrategyBot(parse_strategy(MINE))
    done = trashed = 0
    for seed in range(8):
        seats = [bot, "big-money"] if seed % 2 else [bot, "witch", "militia"]
        a, b = _both(seats, ["mine", *SECOND_KINGDOM], seed, edition)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        assert a.trash == b.trash
        play = A.encode(A.PLAY, BY_ID["mine"])
        done += sum(
            1 for i, x in enumerate(a.history[:-1]) if x == play and a.history[i + 1] == A.A_DONE
        )
        trashed += sum(1 for c in a.trash if CARDS[c].is_treasure)
    assert trashed > 10
    assert (done > 0) == (edition == 2)


POTION_KINGDOM = [
    "familiar", "university", "laboratory", "village", "smithy",
    "market", "militia", "moat", "festival", "witch",
]  # fmt: skip


@pytest.mark.parametrize(
    "specs", [["familiar", "familiar-lab"], ["familiar-lab", "witch", "big-money"]]
)
def test_potion_costs_are_paid_as_the_engine_pays_them(specs: list[str]) -> None:
    """Potion makes a potion when played natively; cards costing one (Familiar) are
    bought with it, and the buy rules read ``potions``."""
    from kingdoms.dominion.data import BY_ID

    potions_bought = 0
    for seed in range(6):
        a, b = _both(specs, POTION_KINGDOM, seed)
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
        potions_bought += sum(a.owned_counts[p][BY_ID["familiar"]] for p in range(len(specs)))
    assert potions_bought > 0


def test_a_card_asking_a_decision_of_its_own_keeps_the_game_on_the_engine() -> None:
    """Alchemist's steps are native, but it asks (with a Potion in play) whether to go
    onto the deck at Clean-up: the engine plays it."""
    st = new_game(
        "dominion", players=2, seed=0, options={"kingdom": ["alchemist", *POTION_KINGDOM[1:]]}
    )
    assert isinstance(st, DominionState)
    st.logging = False
    text = WORKSHOP.replace('"Workshop if count(Workshop) < 2"', '"Alchemist"')
    bots = [StrategyBot(parse_strategy(text)), make_bot("dominion", "big-money")]
    assert native.why_not(st, bots) == "alchemist asks a decision of its own (topdeck)"


def test_a_game_that_outlasts_its_steps_is_left_untouched() -> None:
    st = new_game("dominion", players=2, seed=3, options={"kingdom": "First Game"})
    assert isinstance(st, DominionState)
    st.logging = False
    before = st.snapshot()
    bots = [make_bot("dominion", "big-money", files=True) for _ in range(2)]
    assert not native.play_state(st, bots, 10)
    assert st.snapshot() == before


@pytest.mark.parametrize(
    ("specs", "opts"),
    [
        (["big-money", "big-money-ultimate"], {"kingdom": "First Game"}),
        (["smithy", "smithy"], {"kingdom": "First Game"}),
        (["witch", "witch"], {"kingdom": WITCH_KINGDOM}),
        (["big-money"] * 4, {"kingdom": "First Game"}),
    ],
)
def test_the_simulator_plays_natively_the_engines_results(
    specs: list[str], opts: dict[str, object]
) -> None:
    assert runner.native_reason("dominion", specs, opts) is None
    run = runner._prepared("dominion", specs, opts)
    k = len(specs)
    for i in range(12):
        fast = runner._native_game(run, k, i, 7)
        state, seat_bot = runner._play(run, k, i, 7)
        assert fast == runner._result(run.g, state, seat_bot, i, None)


def test_games_past_the_turn_cap_are_replayed_by_the_engine() -> None:
    """With a turn cap the native core's games give the results of the engine's games
    played with the cap: a native game that passed the cap is replayed and stopped."""
    specs, opts = ["big-money", "smithy"], {"kingdom": "First Game"}
    run = runner._prepared("dominion", specs, opts, 17)
    capped = 0
    for i in range(24):
        fast = runner._play_one(run, 2, i, 7, False)
        state, seat_bot = runner._play(run, 2, i, 7)
        assert fast == runner._result(run.g, state, seat_bot, i, None)
        capped += bool(fast.summary.get("capped"))
    assert 0 < capped < 24  # both kinds of game were compared


def test_the_differential_soak_finds_no_difference() -> None:
    """The short version of ``bench/dominion_native_soak.py``."""
    native_games = 0
    for seed in range(150):
        played, diff = native.differential_game(seed)
        assert diff == ""
        native_games += played
    assert native_games >= 15


PURE_GAMES = r"""
import json, sys
from kingdoms.bots.base import make_bot
from kingdoms.bots.dominion.bots import _play_game
from kingdoms.core import new_game
from kingdoms.core.runner import seat_rngs
out = []
for specs, kingdom in json.loads(sys.argv[1]):
    for seed in range(3):
        st = new_game("dominion", players=len(specs), seed=seed, options={"kingdom": kingdom})
        st.logging = False
        bots = [make_bot("dominion", s, files=True) for s in specs]
        _play_game(st, bots, seat_rngs(seed, len(specs)), 100000)
        out.append([st.history, st.snapshot()])
print(json.dumps([__import__("kingdoms").build_kind(), out]))
"""


def test_native_games_are_the_pure_python_paths_games() -> None:
    """The reference itself: the pure-Python engine, in a process of its own."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import kingdoms

    lineups = [[specs, kingdom] for specs, kingdom in LINEUPS]
    env = dict(os.environ, KINGDOMS_PURE="1")
    env["PYTHONPATH"] = str(Path(kingdoms.__file__).resolve().parent.parent)
    args = [sys.executable, "-c", PURE_GAMES, json.dumps(lineups)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    kind, games = json.loads(done.stdout)
    assert kind == "pure"
    ours = []
    for specs, kingdom in LINEUPS:
        for seed in range(3):
            a, _ = _both(specs, kingdom, seed)
            ours.append([a.history, json.loads(json.dumps(a.snapshot()))])
    assert ours == games


def _mid_game_states(seeds: Sequence[int]) -> list[DominionState]:
    """States a few turns into seeded games on random kingdoms of every set (2–4
    players), some with a decision pending, as the search's rollouts start from."""
    from kingdoms.dominion.game import GAME

    out: list[DominionState] = []
    for seed in seeds:
        r = random.Random(seed)
        players = r.choice((2, 2, 3, 4))
        opts = GAME.normalize_options(
            {"sets": ["base", "base-1e", "base-2e", "alchemy"]}, players, seed
        )
        st = new_game("dominion", players=players, seed=seed, options=opts)
        assert isinstance(st, DominionState)
        st.logging = False
        for _ in range(r.randrange(0, 120)):
            if st.current_player < 0:
                break
            legal = st.legal_actions()
            st.apply(legal[r.randrange(len(legal))])
        if st.current_player >= 0:
            out.append(st)
    return out


def test_search_rollouts_on_the_native_core_are_the_engines_rollouts() -> None:
    """``mcts``/``best``/review rollouts (the ``kingdom`` policy) played through the
    native core give the game the Python engine gives from the same state."""
    from kingdoms.bots.dominion.search import finish_rollout, rollout_bots

    for st in _mid_game_states(range(60)):
        a, b = st.clone(), st.clone()
        finish_rollout(a, random.Random(1), DEFAULT_MAX_STEPS)
        bots = rollout_bots(b)[0]
        native.engine_rollout(b, bots, random.Random(1), DEFAULT_MAX_STEPS)
        assert a.current_player < 0
        assert a.history == b.history
        sa, sb = a.snapshot(), b.snapshot()
        del sa["rng"], sb["rng"]  # a native rollout leaves the state's generator as it was
        assert sa == sb


PURE_ROLLOUTS = r"""
import json, random, sys
from kingdoms.bots.dominion.search import finish_rollout
from kingdoms.core.serial import new_state_from
out = []
for text in json.loads(sys.stdin.read()):
    st = new_state_from(text)
    finish_rollout(st, random.Random(1), 100000)
    snap = st.snapshot()
    del snap["rng"]
    out.append([st.history, snap])
print(json.dumps([__import__("kingdoms").build_kind(), out]))
"""


def test_search_rollouts_are_the_same_on_the_pure_python_path() -> None:
    """A rollout (reseeded from the state's generator where no decision is pending
    first) is the same game on the pure-Python path, in a process of its own."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import kingdoms
    from kingdoms.bots.dominion.search import finish_rollout
    from kingdoms.core.serial import new_state_from

    states = _mid_game_states(range(200, 230))
    env = dict(os.environ, KINGDOMS_PURE="1")
    env["PYTHONPATH"] = str(Path(kingdoms.__file__).resolve().parent.parent)
    texts = [st.serialize() for st in states]
    args = [sys.executable, "-c", PURE_ROLLOUTS]
    done = subprocess.run(
        args, env=env, input=json.dumps(texts), capture_output=True, text=True, check=True
    )
    kind, games = json.loads(done.stdout)
    assert kind == "pure"
    ours = []
    for text in texts:
        st = new_state_from(text)
        finish_rollout(st, random.Random(1), 100000)
        snap = json.loads(json.dumps(st.snapshot()))
        del snap["rng"]
        ours.append([st.history, snap])
    assert ours == games


def test_search_rollouts_mostly_run_natively() -> None:
    """The cache of what the native core plays per kingdom and bots answers the same
    as :func:`native.why_not`, and most rollouts of random kingdoms are native."""
    from kingdoms.bots.dominion.search import rollout_bots

    native_count = 0
    states = _mid_game_states(range(60, 120))
    for st in states:
        if st.stack or st.phase > 1:
            continue
        bots, names = rollout_bots(st)
        key = native.rollout_key(st, names, native.owned_cards(st))
        expected = native.why_not(st, bots) is None
        copy = st.clone()
        got = native.play_rollout(copy, bots, key, DEFAULT_MAX_STEPS)
        assert (got == 1) == expected
        assert got in (1, 0, -2)
        native_count += expected
    assert native_count > 0


def test_a_game_played_on_from_its_middle_is_the_engines_game() -> None:
    """``play_state`` from random mid-game states (seats owning cards their bots never
    buy, some of them not native) gives the engine's game or leaves it to the engine."""
    played = 0
    for st in _mid_game_states(range(120, 170)):
        bots = [make_bot("dominion", "big-money-ultimate") for _ in range(st.num_players)]
        a, b = st.clone(), st.clone()
        if not native.play_state(a, bots, DEFAULT_MAX_STEPS):
            assert a.snapshot() == st.snapshot()
            continue
        played += 1
        _play_game(
            b,
            [x for x in bots if isinstance(x, StrategyBot)],
            seat_rngs(0, st.num_players),
            DEFAULT_MAX_STEPS,
        )
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()
    assert played > 0


def test_the_rollout_soak_finds_no_difference() -> None:
    """The short version of ``bench/dominion_native_soak.py --rollouts``."""
    native_rollouts = 0
    for seed in range(40):
        played, diff = native.differential_rollout(seed)
        assert diff == ""
        native_rollouts += played
    assert native_rollouts >= 3
