"""The Alchemy kingdom cards (§5 of the card rulings) and the Clean-up abilities
of Alchemist and Herbalist.

Each card is one :func:`declare`; its own code (``Custom()`` step) and decisions are
right below it.  Potion itself is a basic Treasure (its potion is counted in
:meth:`DominionState.treasure_value`, as is Philosopher's Stone); Vineyard is
scored in :mod:`kingdoms.dominion.rules`.  Possession's extra turns are run by the
turn rules (:meth:`DominionState._next_turn`); its gains and trashes by
:mod:`kingdoms.dominion.effects`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kingdoms.dominion import actions as A
from kingdoms.dominion.cards.base import HELD
from kingdoms.dominion.cards.declare import declare
from kingdoms.dominion.cards.registry import ATTACK_READS, card, task
from kingdoms.dominion.cards.steps import (
    Custom,
    DrawPerCost,
    EachOtherGains,
    GainUpTo,
    Plus,
    RevealTopEach,
    RevealUntil,
    TopdeckTreasureAtCleanup,
    TrashOneFromHand,
    asks,
    choices,
    reveal_until,
    yes_no,
)
from kingdoms.dominion.data import (
    CARDS,
    COPPER,
    DUCHY,
    GOLD,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    POTION,
)
from kingdoms.dominion.decisions import CHOOSE_CARDS, ORDER, YES_NO, DecisionSpec
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

ALCHEMY = "alchemy"
ACTION = ("Action",)
ATTACK = ("Action", "Attack")
TOPDECK = "put {card} on deck"

# -- Alchemist: +2 Cards +1 Action; at Clean-up, with a Potion in play, you may put it
#    onto your deck (see the Clean-up below)
ALCHEMIST: Final = declare("alchemist", 3, ACTION, ALCHEMY, Plus(cards=2, actions=1),
    potions=1,
    topdeck="Alchemist: put it onto your deck?").index  # fmt: skip


# -- Apothecary: +1 Card +1 Action; reveal 4: Coppers and Potions to hand, the rest back
APOTHECARY = declare("apothecary", 2, ACTION, ALCHEMY, Plus(cards=1, actions=1), Custom(),
    potions=1,
    order="Apothecary: put the cards back (the last one ends on top).").index  # fmt: skip


@card("apothecary")
def _apothecary(st: DominionState, p: int, pid: int) -> None:
    aside = st.aside[p]
    for c in st.reveal_top(p, 4, aside):
        if c in (COPPER, POTION):
            aside.remove(c)
            st.hands[p].append(c)
    _apothecary_next(st, p)


def _apothecary_next(st: DominionState, p: int) -> None:
    aside = st.aside[p]
    if len(set(aside)) > 1:
        st.push("apothecary", p, APOTHECARY)
    else:
        st.will_put_on_deck(p)
        st.decks[p].extend(aside)
        aside.clear()


def _apothecary_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """Put ``c`` back onto the deck now (the last card put back ends on top)."""
    p = fr.who
    st.aside[p].remove(c)
    st.will_put_on_deck(p)
    st.decks[p].append(c)
    _apothecary_next(st, p)


asks(
    "apothecary",
    DecisionSpec(ORDER, "apothecary.order", zone="set_aside", pick="put back {card} now"),
    lambda st, fr: choices(st.aside[fr.who]),
    _apothecary_answer,
)


# -- Apprentice: +1 Action; trash a card from hand: +1 Card per $1, +2 if it costs a potion
declare("apprentice", 5, ACTION, ALCHEMY, Plus(actions=1), TrashOneFromHand(then=DrawPerCost(2)),
    trash="Apprentice: trash a card to draw.")  # fmt: skip

# -- Familiar: +1 Card +1 Action; each other player gains a Curse
declare("familiar", 3, ATTACK, ALCHEMY, Plus(cards=1, actions=1), EachOtherGains("curse"),
    potions=1)  # fmt: skip
ATTACK_READS["familiar"] = False  # reads hidden cards only by moving them or asking a decision

# -- Golem: reveal until 2 non-Golem Actions; discard the rest; play them in your order.
#    The found cards are held by Golem's own frames (fields listed in HELD), not by the
#    shared set-aside zone that Library, Adventurer, Apothecary... empty when they finish.
GOLEM = declare("golem", 4, ACTION, ALCHEMY, Custom(),
    potions=1,
    order="Golem: which Action is played first?").index  # fmt: skip


def _golem_finds(c: int) -> bool:
    return IS_ACTION[c] and c != GOLEM


@card("golem")
def _golem(st: DominionState, p: int, pid: int) -> None:
    _, found, others = reveal_until(st, p, 2, _golem_finds)
    st.reveal(p, found + others)
    st.discards[p].extend(others)
    if len(found) == 2 and found[0] != found[1]:
        st.push("golem", p, GOLEM, found[0], found[1])
    else:
        for c in found:
            st.push("golem_play", p, c)


def _golem_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """``c`` is played first, then the other found card."""
    p = fr.who
    other = fr.b if c == fr.a else fr.a
    st.then(Frame("golem_play", p, c), Frame("golem_play", p, other))


asks(
    "golem",
    DecisionSpec(ORDER, "golem.order", zone="set_aside", pick="play {card} first"),
    lambda st, fr: choices([fr.a, fr.b]),
    _golem_answer,
)


@task("golem_play")
def _golem_play(st: DominionState, fr: Frame) -> None:
    p, c = fr.who, fr.card
    st.in_play[p].append(c)
    st.play_card(p, c, st.new_play_id(), GOLEM)


HELD["golem"] = (3, 4)
HELD["golem_play"] = (2,)

# -- Herbalist: +1 Buy +$1; at Clean-up you may put a Treasure from play onto your deck
HERBALIST: Final = declare("herbalist", 2, ACTION, ALCHEMY, Plus(buys=1, coins=1),
    TopdeckTreasureAtCleanup(),
    topdeck="Herbalist: put a Treasure from play onto your deck?").index  # fmt: skip


# -- Philosopher's Stone: a Treasure worth $1 per 5 cards in your deck and discard pile
#    (counted by the engine)
declare("philosophers_stone", 3, ("Treasure",), ALCHEMY, potions=1)

# -- Possession: the player to your left takes an extra turn after this one, which you
#    decide
declare("possession", 6, ACTION, ALCHEMY, Custom(), potions=1)


@card("possession")
def _possession(st: DominionState, p: int, pid: int) -> None:
    target = (p + 1) % st.num_players
    st.created.append((target, p))
    if st.logging:
        st._log("possession", p, target=target)


# -- Scrying Pool: +1 Action; each player's top card: you choose discard or put back;
#    then reveal from your deck until a non-Action; all of those to your hand
def _not_action(c: int) -> bool:
    return not IS_ACTION[c]


declare("scrying_pool", 2, ATTACK, ALCHEMY,
    Plus(actions=1), RevealTopEach(), RevealUntil(1, _not_action, keep_all=True), potions=1,
    discard="Scrying Pool: discard this card or put it back?")  # fmt: skip
ATTACK_READS["scrying_pool"] = False  # reads hidden cards only by moving them or asking a decision


# -- Transmute: trash a card from hand; Action -> Duchy, Treasure -> Transmute, Victory -> Gold
def _transmute_gains(st: DominionState, p: int, card: int, c: int) -> None:
    if IS_ACTION[c]:
        st.gain(p, DUCHY)
    if IS_TREASURE[c]:
        st.gain(p, card)
    if IS_VICTORY[c]:
        st.gain(p, GOLD)


declare("transmute", 0, ACTION, ALCHEMY, TrashOneFromHand(then=_transmute_gains),
    potions=1,
    trash="Transmute: trash a card.")  # fmt: skip

# -- University: +2 Actions; you may gain an Action card costing up to $5
declare("university", 2, ACTION, ALCHEMY,
    Plus(actions=2), GainUpTo(5, optional=True, only="Action"), potions=1,
    gain="Gain a card.")  # fmt: skip

# -- Vineyard: 1 VP per 3 Action cards you have (scored by the rules)
declare("vineyard", 0, ("Victory",), ALCHEMY, potions=1)


# -- Clean-up: Alchemist and Herbalist --------------------------------------------------
def start_cleanup(st: DominionState, p: int) -> None:
    """Push the Clean-up decisions Alchemist and Herbalist may need (if any).

    Printed wording: a card's ability triggers as it is discarded from play, so
    the player picks the order cards leave play — asked only while the order can
    still matter.  With ``alchemy_errata``: every Alchemist may be topdecked at the
    start of Clean-up (if a Potion is in play), and each Herbalist play lets one
    Treasure discarded from play go onto the deck.  The Alchemists come first: the
    start of Clean-up is before any card is discarded from play, so a Herbalist's
    Treasure lands on top of them (the stack runs the last frame pushed first)."""
    play = st.in_play[p]
    if st.alchemy_errata:
        if st.herbalists:
            st.push("herbalist_ask", p, 0, st.herbalists)
        if POTION in play:
            for _ in range(play.count(ALCHEMIST)):
                st.push("alchemist", p, ALCHEMIST, 1)
        return
    if _order_matters(play):
        st.push("cleanup", p, 0)


_POTION: Final = POTION
_IS_TREASURE: Final = IS_TREASURE


def _order_matters(play: list[int]) -> bool:
    """An Alchemist with a Potion in play, or a Herbalist with a Treasure."""
    if ALCHEMIST not in play and HERBALIST not in play:
        return False  # nearly always
    alchemist = potion = herbalist = treasure = False
    is_treasure = _IS_TREASURE
    for c in play:
        if c == ALCHEMIST:
            alchemist = True
        elif c == HERBALIST:
            herbalist = True
        elif is_treasure[c]:
            treasure = True
            if c == _POTION:
                potion = True
    return (alchemist and potion) or (herbalist and treasure)


def _cleanup_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """Discard ``c`` from play next (done: the rest, in any order)."""
    p = fr.who
    if kind == A.DONE:
        return
    play = st.in_play[p]
    play.remove(c)
    st.discards[p].append(c)
    st.push("cleanup_next", p)
    if c == ALCHEMIST and POTION in play:
        st.push("alchemist", p, ALCHEMIST, 0)
    elif c == HERBALIST and any(IS_TREASURE[d] for d in play):
        st.push("herbalist", p, HERBALIST, 0, 1)


asks(
    "cleanup",
    DecisionSpec(
        ORDER,
        "cleanup.order",
        "Clean-up: choose the card that leaves play next.",
        "play",
        pick="discard {card} from play",
    ),
    lambda st, fr: [*choices(st.in_play[fr.who]), A.A_DONE],
    _cleanup_answer,
)


@task("cleanup_next")
def _cleanup_next(st: DominionState, fr: Frame) -> None:
    if _order_matters(st.in_play[fr.who]):
        st.push("cleanup", fr.who, 0)


def _alchemist_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """Yes: this Alchemist goes onto the deck (from play, or just discarded)."""
    if kind != A.YES:
        return
    p = fr.who
    zone = st.in_play[p] if fr.a else st.discards[p]
    idx = len(zone) - 1 - zone[::-1].index(ALCHEMIST)
    del zone[idx]
    st.will_put_on_deck(p)
    st.decks[p].append(ALCHEMIST)
    if st.logging:
        st._log("topdeck", p, card="alchemist")


asks(
    "alchemist",
    DecisionSpec(
        YES_NO,
        "alchemist.topdeck",
        zone="play",
        yes="put Alchemist on deck",
        no="discard Alchemist",
    ),
    yes_no,
    _alchemist_answer,
)


@task("herbalist_ask")
def _herbalist_ask(st: DominionState, fr: Frame) -> None:
    p, left = fr.who, fr.a
    if left > 0 and any(IS_TREASURE[c] for c in st.in_play[p]):
        st.push("herbalist", p, HERBALIST, 0, left)


def _herbalist_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """Put the chosen Treasure from play onto the deck (done: none)."""
    if kind == A.DONE:
        return
    p = fr.who
    st.in_play[p].remove(c)
    st.will_put_on_deck(p)
    st.decks[p].append(c)
    if st.logging:
        st._log("topdeck", p, card=CARDS[c].id)
    if st.alchemy_errata:
        st.push("herbalist_ask", p, 0, fr.b - 1)


asks(
    "herbalist",
    DecisionSpec(CHOOSE_CARDS, "herbalist.topdeck", zone="play", pick=TOPDECK),
    lambda st, fr: [*choices([c for c in st.in_play[fr.who] if IS_TREASURE[c]]), A.A_DONE],
    _herbalist_answer,
)


@task("cleanup_finish")
def _cleanup_finish(st: DominionState, fr: Frame) -> None:
    st.finish_turn(fr.who)
