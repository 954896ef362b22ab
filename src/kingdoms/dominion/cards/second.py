"""The seven kingdom cards new in the second edition of the base game (§4 of the
card rulings): Artisan, Bandit, Harbinger, Merchant, Poacher, Sentry, Vassal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdoms.dominion import actions as A
from kingdoms.dominion.cards.registry import answers, card, decision, task
from kingdoms.dominion.cards.steps import ask_gain
from kingdoms.dominion.cards.steps import hand_choices as _hand_choices
from kingdoms.dominion.data import BY_ID, COPPER, GOLD, IS_ACTION, IS_TREASURE
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

ARTISAN = BY_ID["artisan"]
BANDIT = BY_ID["bandit"]
HARBINGER = BY_ID["harbinger"]
POACHER = BY_ID["poacher"]
SENTRY = BY_ID["sentry"]
VASSAL = BY_ID["vassal"]


def _choices(cards: list[int]) -> list[int]:
    return [A.encode(A.CHOOSE, c) for c in sorted(set(cards))]


# -- Artisan: gain a card up to $5 to your hand, then put a card from hand onto the deck
@card("artisan")
def _artisan(st: DominionState, p: int, pid: int) -> None:
    st.push("artisan_put", p)
    ask_gain(st, p, ARTISAN, 5, 0)


@task("artisan_put")
def _artisan_put(st: DominionState, fr: Frame) -> None:
    if st.hands[fr.who]:
        st.push("artisan", fr.who, ARTISAN)


@decision("artisan")
def _artisan_options(st: DominionState, fr: Frame) -> list[int]:
    return _hand_choices(st.hands[fr.who])


@answers("artisan")
def _artisan_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    p = fr.who
    st.hands[p].remove(c)
    st.decks[p].append(c)
    if st.logging:
        st._log("topdeck", p, count=1)


# -- Bandit: gain a Gold; others reveal 2, trash a non-Copper Treasure, discard the rest
@card("bandit")
def _bandit(st: DominionState, p: int, pid: int) -> None:
    st.gain(p, GOLD)
    st.then(*(Frame("bandit_victim", p, 0, q) for q in st.others(p) if not st.immune[q]))


@task("bandit_victim")
def _bandit_victim(st: DominionState, fr: Frame) -> None:
    q = fr.a
    aside = st.aside[q]
    st.reveal_top(q, 2, aside)
    targets = sorted({c for c in aside if IS_TREASURE[c] and c != COPPER})
    if len(targets) > 1:
        st.push("bandit", q, BANDIT, q)  # the victim chooses
    elif targets:
        _bandit_trash(st, q, targets[0])
    else:
        st.discard_all(q, aside)


def _bandit_trash(st: DominionState, q: int, c: int) -> None:
    aside = st.aside[q]
    st.trash_from(q, aside, c)
    st.discard_all(q, aside)


@decision("bandit")
def _bandit_options(st: DominionState, fr: Frame) -> list[int]:
    return _choices([c for c in st.aside[fr.a] if IS_TREASURE[c] and c != COPPER])


@answers("bandit")
def _bandit_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    _bandit_trash(st, fr.a, c)


# -- Harbinger: +1 Card +1 Action; may put a card from the discard pile onto the deck
@card("harbinger")
def _harbinger(st: DominionState, p: int, pid: int) -> None:
    st.draw(p, 1)
    st.actions += 1
    if st.discards[p]:
        st.push("harbinger", p, HARBINGER)


@decision("harbinger")
def _harbinger_options(st: DominionState, fr: Frame) -> list[int]:
    return [*_choices(st.discards[fr.who]), A.A_DONE]


@answers("harbinger")
def _harbinger_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind == A.DONE:
        return
    p = fr.who
    disc = st.discards[p]
    idx = len(disc) - 1 - disc[::-1].index(c)
    del disc[idx]
    st.decks[p].append(c)
    if st.logging:
        st._log("topdeck", p, count=1)


# -- Merchant: +1 Card +1 Action; the first Silver played this turn gives +$1
@card("merchant")
def _merchant(st: DominionState, p: int, pid: int) -> None:
    st.draw(p, 1)
    st.actions += 1
    if not st.silver_played:
        st.merchants += 1


# -- Poacher: +1 Card +1 Action +$1; discard a card per empty Supply pile
@card("poacher")
def _poacher(st: DominionState, p: int, pid: int) -> None:
    st.draw(p, 1)
    st.actions += 1
    st.coins += 1
    empty = st.empty_piles()
    hand = st.hands[p]
    if not empty or not hand:
        return
    if len(hand) <= empty:
        for c in list(hand):
            st.discard_from(p, hand, c)
        return
    st.push("poacher", p, POACHER, empty)


@decision("poacher")
def _poacher_options(st: DominionState, fr: Frame) -> list[int]:
    return _hand_choices(st.hands[fr.who])


@answers("poacher")
def _poacher_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    p = fr.who
    st.discard_from(p, st.hands[p], c)
    if fr.a > 1 and st.hands[p]:
        st.push("poacher", p, POACHER, fr.a - 1)


# -- Sentry: +1 Card +1 Action; look at the top 2: trash, discard, put back in any order
@card("sentry")
def _sentry(st: DominionState, p: int, pid: int) -> None:
    st.draw(p, 1)
    st.actions += 1
    looking = st.looking[p]
    for _ in range(2):
        c = st.take_top(p)
        if c < 0:
            break
        looking.append(c)
    if not looking:
        return
    st.push("sentry_back", p)
    st.push("sentry_discard_ask", p)
    st.push("sentry_trash", p, SENTRY)


def _sentry_pick(code: str, trash: bool) -> None:
    """Sentry's "trash any" and "discard any" of the cards looked at (done stops)."""

    @decision(code)
    def _options(st: DominionState, fr: Frame) -> list[int]:
        return [*_choices(st.looking[fr.who]), A.A_DONE]

    @answers(code)
    def _answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
        if kind == A.DONE:
            return
        p, looking = fr.who, st.looking[fr.who]
        if trash:
            st.trash_from(p, looking, c)
        else:
            st.discard_from(p, looking, c)
        if looking:
            st.push(code, p, SENTRY)


_sentry_pick("sentry_trash", trash=True)
_sentry_pick("sentry_discard", trash=False)


@task("sentry_discard_ask")
def _sentry_discard_ask(st: DominionState, fr: Frame) -> None:
    if st.looking[fr.who]:
        st.push("sentry_discard", fr.who, SENTRY)


@task("sentry_back")
def _sentry_back(st: DominionState, fr: Frame) -> None:
    p = fr.who
    looking = st.looking[p]
    if len(looking) == 2 and looking[0] != looking[1]:
        st.push("sentry_order", p, SENTRY)
        return
    st.decks[p].extend(looking)
    looking.clear()


@decision("sentry_order")
def _sentry_order_options(st: DominionState, fr: Frame) -> list[int]:
    return _choices(st.looking[fr.who])


@answers("sentry_order")
def _sentry_order_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """The chosen card goes back on top; the other under it."""
    p = fr.who
    looking = st.looking[p]
    looking.remove(c)
    st.decks[p].extend(looking)
    st.decks[p].append(c)
    looking.clear()


# -- Vassal: +$2; discard the top card; if it is an Action you may play it
@card("vassal")
def _vassal(st: DominionState, p: int, pid: int) -> None:
    st.coins += 2
    c = st.take_top(p)
    if c < 0:
        return
    st.discards[p].append(c)
    if st.logging:
        st._log("discard", p, card=st_card_id(c), source="deck")
    if IS_ACTION[c]:
        st.push("vassal", p, VASSAL, c)


@decision("vassal")
def _vassal_options(st: DominionState, fr: Frame) -> list[int]:
    return [A.A_YES, A.A_NO]


@answers("vassal")
def _vassal_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    p, found = fr.who, fr.a
    disc = st.discards[p]
    if kind == A.YES and disc and disc[-1] == found:
        disc.pop()
        st.in_play[p].append(found)
        st.play_card(p, found, st.new_play_id())


def st_card_id(c: int) -> str:
    from kingdoms.dominion.data import CARDS

    return CARDS[c].id
