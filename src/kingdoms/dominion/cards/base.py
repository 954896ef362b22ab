"""The basic cards and the 25 first-edition base-set kingdom cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdoms.dominion import actions as A
from kingdoms.dominion.cards.declare import declare
from kingdoms.dominion.cards.registry import (
    ANSWERS,
    DECISION_ACTIONS,
    EFFECTS,
    card,
    task,
)
from kingdoms.dominion.cards.steps import (
    DiscardAnyThenDraw,
    EachOtherDiscardsDownTo,
    EachOtherDraws,
    EachOtherGains,
    GainUpTo,
    Plus,
    RevealTopEach,
    TrashOneFromHand,
    TrashUpTo,
    ask_gain,
    gain_costing_more,
)
from kingdoms.dominion.cards.steps import hand_choices as _hand_choices
from kingdoms.dominion.data import (
    BY_ID,
    CARDS,
    COIN_COST,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    POTION_COST,
    SILVER,
)
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

ATTACKS: frozenset[int] = frozenset(c.index for c in CARDS if c.is_attack)
HELD: dict[str, tuple[int, ...]] = {}
"""Frames that hold set-aside cards of their deciding player: code -> frame fields
holding a card id.  Such cards belong to the effect that set them aside (its frame),
so no other card's effect can take them; they count as that player's set-aside cards."""

MOAT = BY_ID["moat"]
COPPER = BY_ID["copper"]
MINE = BY_ID["mine"]
FEAST = BY_ID["feast"]


# -- declared cards: facts, steps, prompts ---------------------------------------------
ACTION = ("Action",)
ATTACK = ("Action", "Attack")
declare("festival", cost=5, types=ACTION, card_set="base", steps=[Plus(0, 2, 1, 2)])
declare("laboratory", cost=5, types=ACTION, card_set="base", steps=[Plus(cards=2, actions=1)])
declare("market", cost=5, types=ACTION, card_set="base", steps=[Plus(1, 1, 1, 1)])
declare("moat", cost=2, types=("Action", "Reaction"), card_set="base", steps=[Plus(cards=2)])
declare("smithy", cost=4, types=ACTION, card_set="base", steps=[Plus(cards=3)])
declare("village", cost=3, types=ACTION, card_set="base", steps=[Plus(cards=1, actions=2)])
declare("woodcutter", cost=3, types=ACTION, card_set="base-1e", steps=[Plus(buys=1, coins=2)])
declare(
    "cellar",
    cost=2,
    types=ACTION,
    card_set="base",
    steps=[Plus(actions=1), DiscardAnyThenDraw()],
    prompts={"discard": "Cellar: discard cards, then draw as many (done to stop)."},
)
declare(
    "chapel",
    cost=2,
    types=ACTION,
    card_set="base",
    steps=[TrashUpTo(4)],
    prompts={"trash": "Chapel: trash up to 4 cards (done to stop)."},
)
declare(
    "workshop",
    cost=3,
    types=ACTION,
    card_set="base",
    steps=[GainUpTo(4)],
    prompts={"gain": "Gain a card."},
)
declare(
    "militia",
    cost=4,
    types=ATTACK,
    card_set="base",
    steps=[Plus(coins=2), EachOtherDiscardsDownTo(3)],
    prompts={"discard": "Militia: discard down to 3 cards."},
)
declare("witch", cost=5, types=ATTACK, card_set="base", steps=[Plus(2), EachOtherGains("curse")])
declare(
    "remodel",
    cost=4,
    types=ACTION,
    card_set="base",
    steps=[TrashOneFromHand(then=gain_costing_more(2))],
    prompts={"trash": "Remodel: trash a card."},
)
declare(
    "spy",
    cost=4,
    types=ATTACK,
    card_set="base-1e",
    steps=[Plus(cards=1, actions=1), RevealTopEach()],
    prompts={"discard": "Spy: discard this card or put it back?"},
)
declare(
    "council_room",
    cost=5,
    types=ACTION,
    card_set="base",
    steps=[Plus(cards=4, buys=1), EachOtherDraws(1)],
)


# -- tasks --------------------------------------------------------------------------
@task("reset_immune")
def _reset_immune(st: DominionState, fr: Frame) -> None:
    for q in range(st.num_players):
        st.immune[q] = False


@task("moat_ask")
def _moat_ask(st: DominionState, fr: Frame) -> None:
    if MOAT in st.hands[fr.who]:
        st.push("moat", fr.who, fr.card)


@task("effect")
def _effect(st: DominionState, fr: Frame) -> None:
    EFFECTS[fr.card](st, fr.who, fr.a)


@task("play")
def _play(st: DominionState, fr: Frame) -> None:
    st.play_card(fr.who, fr.card, fr.a)


# -- Action cards -------------------------------------------------------------------
@card("adventurer")
def _adventurer(st: DominionState, p: int, pid: int) -> None:
    aside = st.aside[p]
    found: list[int] = []
    revealed: list[int] = []
    while len(found) < 2:
        c = st.take_top(p)
        if c < 0:
            break
        revealed.append(c)
        if IS_TREASURE[c]:
            found.append(c)
        else:
            aside.append(c)
    st.reveal(p, revealed)
    st.hands[p].extend(found)
    for c in list(aside):
        st.discard_from(p, aside, c)


@card("bureaucrat")
def _bureaucrat(st: DominionState, p: int, pid: int) -> None:
    st.gain(p, SILVER, "deck")
    st.then(*(Frame("bureaucrat_victim", q) for q in st.others(p) if not st.immune[q]))


@task("bureaucrat_victim")
def _bureaucrat_victim(st: DominionState, fr: Frame) -> None:
    q = fr.who
    hand = st.hands[q]
    victories = sorted({c for c in hand if IS_VICTORY[c]})
    if not victories:
        st.reveal(q, hand)
    elif len(victories) == 1:
        _topdeck(st, q, victories[0])
    else:
        st.push("bureaucrat", q, BY_ID["bureaucrat"])


def _topdeck(st: DominionState, q: int, c: int) -> None:
    st.reveal(q, [c])
    st.hands[q].remove(c)
    st.decks[q].append(c)


@card("chancellor")
def _chancellor(st: DominionState, p: int, pid: int) -> None:
    st.coins += 2
    if st.decks[p]:
        st.push("chancellor", p, BY_ID["chancellor"])


@card("feast")
def _feast(st: DominionState, p: int, pid: int) -> None:
    play = st.in_play[p]
    if pid not in st.moved and FEAST in play:
        st.moved.append(pid)
        # trash the Feast this play refers to (the last one put into play)
        idx = len(play) - 1 - play[::-1].index(FEAST)
        del play[idx]
        st.trash_card(p, FEAST)
    ask_gain(st, p, FEAST, 5, 0)


@card("library")
def _library(st: DominionState, p: int, pid: int) -> None:
    st.push("library_loop", p)


@task("library_loop")
def _library_loop(st: DominionState, fr: Frame) -> None:
    p = fr.who
    hand = st.hands[p]
    while len(hand) < 7:
        if st.draw(p, 1) == 0:
            break
        c = hand[-1]
        if IS_ACTION[c]:
            st.push("library_loop", p)
            st.push("library", p, BY_ID["library"], c)
            return
    aside = st.aside[p]
    for c in list(aside):
        st.discard_from(p, aside, c)


@card("mine")
def _mine(st: DominionState, p: int, pid: int) -> None:
    if any(IS_TREASURE[c] for c in st.hands[p]):
        st.push("mine", p, MINE)


@card("moneylender")
def _moneylender(st: DominionState, p: int, pid: int) -> None:
    if COPPER in st.hands[p]:
        if st.edition == 1:
            st.trash_from(p, st.hands[p], COPPER)
            st.coins += 3
        else:
            st.push("moneylender", p, BY_ID["moneylender"])


@card("thief")
def _thief(st: DominionState, p: int, pid: int) -> None:
    st.stolen.clear()
    victims = [Frame("thief_victim", p, 0, q) for q in st.others(p) if not st.immune[q]]
    st.then(*victims, Frame("thief_gain_ask", p))


@task("thief_victim")
def _thief_victim(st: DominionState, fr: Frame) -> None:
    p, q = fr.who, fr.a
    aside = st.aside[q]
    st.reveal_top(q, 2, aside)
    treasures = sorted({c for c in aside if IS_TREASURE[c]})
    if len(treasures) > 1:
        st.push("thief_trash", p, BY_ID["thief"], q)
        return
    if treasures:
        _thief_take(st, p, q, treasures[0])
    else:
        st.discard_all(q, aside)


def _thief_take(st: DominionState, p: int, q: int, c: int) -> None:
    aside = st.aside[q]
    st.trash_from(q, aside, c)
    st.stolen.append(c)
    st.discard_all(q, aside)


@task("thief_gain_ask")
def _thief_gain_ask(st: DominionState, fr: Frame) -> None:
    if st.stolen:
        st.push("thief_gain", fr.who, BY_ID["thief"])


@card("throne_room")
def _throne_room(st: DominionState, p: int, pid: int) -> None:
    if any(IS_ACTION[c] for c in st.hands[p]):
        st.push("throne", p, BY_ID["throne_room"])


# -- decisions ----------------------------------------------------------------------
def decision_actions(st: DominionState, fr: Frame) -> list[int]:
    code, who = fr.code, fr.who
    extra = DECISION_ACTIONS.get(code)
    if extra is not None:
        return extra(st, fr)
    hand = st.hands[who]
    if code in ("moat", "chancellor", "library", "moneylender"):
        return [A.A_YES, A.A_NO]
    if code == "bureaucrat":
        return _hand_choices(hand, lambda c: IS_VICTORY[c])
    if code == "mine":
        out = _hand_choices(hand, lambda c: IS_TREASURE[c])
        return [*out, A.A_DONE] if st.edition == 2 else out
    if code == "throne":
        out = _hand_choices(hand, lambda c: IS_ACTION[c])
        return [*out, A.A_DONE] if st.edition == 2 else out
    if code == "thief_trash":
        return [
            A.encode(A.CHOOSE, c) for c in sorted({c for c in st.aside[fr.a] if IS_TREASURE[c]})
        ]
    if code == "thief_gain":
        return [*(A.encode(A.CHOOSE, c) for c in sorted(set(st.stolen))), A.A_DONE]
    raise KeyError(code)


def answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    code, p = fr.code, fr.who
    extra = ANSWERS.get(code)
    if extra is not None:
        extra(st, fr, kind, c)
        return
    hand = st.hands[p]
    if code == "moat":
        if kind == A.YES:
            st.immune[p] = True
            st.reveal(p, [MOAT])
    elif code == "chancellor":
        if kind == A.YES:
            deck = st.decks[p]
            deck.reverse()
            st.discards[p].extend(deck)
            st.decks[p] = []
            if st.logging:
                st._log("deck_discarded", p, count=len(deck))
    elif code == "library":
        if kind == A.YES:
            hand.remove(fr.a)
            st.aside[p].append(fr.a)
    elif code == "mine":
        if kind != A.DONE:
            st.trash_from(p, hand, c)
            ask_gain(st, p, MINE, COIN_COST[c] + 3, POTION_COST[c])
    elif code == "moneylender":
        if kind == A.YES:
            st.trash_from(p, hand, COPPER)
            st.coins += 3
    elif code == "bureaucrat":
        _topdeck(st, p, c)
    elif code == "thief_trash":
        _thief_take(st, p, fr.a, c)
    elif code == "thief_gain":
        if kind != A.DONE:
            st.trash.remove(c)
            st.stolen.remove(c)
            st.discards[st.gainer(p)].append(c)
            if st.logging:
                st._log("gain", p, card=CARDS[c].id, to="discard", source="trash")
            if st.stolen:
                st.push("thief_gain", p, fr.card)
        else:
            st.stolen.clear()
    elif code == "throne":
        if kind != A.DONE:
            hand.remove(c)
            st.in_play[p].append(c)
            pid = st.new_play_id()
            st.push("play", p, c, pid)
            st.push("play", p, c, pid)
    else:
        raise KeyError(code)
