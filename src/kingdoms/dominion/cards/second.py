"""The seven kingdom cards new in the second edition of the base game (§4 of the
card rulings): Artisan, Bandit, Harbinger, Merchant, Poacher, Sentry, Vassal.

Each card is one :func:`declare`; its own code (``Custom()`` step) and decisions are
right below it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdoms.dominion import actions as A
from kingdoms.dominion.cards.declare import declare
from kingdoms.dominion.cards.registry import ATTACK_READS, card
from kingdoms.dominion.cards.steps import (
    Custom,
    DiscardPerEmptyPile,
    EachOtherTrashesRevealed,
    GainCard,
    GainUpTo,
    LookTrashDiscardReorder,
    MayTopdeckFromDiscard,
    Plus,
    TopdeckFromHand,
    asks,
    yes_no,
)
from kingdoms.dominion.data import CARDS, IS_ACTION
from kingdoms.dominion.decisions import YES_NO, DecisionSpec
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

ACTION = ("Action",)
TRASH, DISCARD = "trash {card}", "discard {card}"


# -- Artisan: gain a card up to $5 to your hand, then put a card from hand onto the deck
declare("artisan", 6, ACTION, "base-2e", GainUpTo(5, to="hand"), TopdeckFromHand(),
    gain="Gain a card.",
    topdeck="Artisan: put a card from your hand onto your deck.")  # fmt: skip

# -- Bandit: gain a Gold; others reveal 2, trash a non-Copper Treasure, discard the rest
declare("bandit", 5, ("Action", "Attack"), "base-2e", GainCard("gold"),
    EachOtherTrashesRevealed("Treasure", spare="copper"),
    trash="Bandit: choose the Treasure to trash.")  # fmt: skip
ATTACK_READS["bandit"] = False  # reads hidden cards only by moving them or asking a decision

# -- Harbinger: +1 Card +1 Action; may put a card from the discard pile onto the deck
declare("harbinger", 3, ACTION, "base-2e", Plus(cards=1, actions=1), MayTopdeckFromDiscard(),
    topdeck="Harbinger: put a card from your discard pile onto your deck?")  # fmt: skip

# -- Merchant: +1 Card +1 Action; the first Silver played this turn gives +$1
declare("merchant", 3, ACTION, "base-2e", Plus(cards=1, actions=1), Custom())


@card("merchant")
def _merchant(st: DominionState, p: int, pid: int) -> None:
    if not st.silver_played:
        st.merchants += 1


# -- Poacher: +1 Card +1 Action +$1; discard a card per empty Supply pile
declare("poacher", 4, ACTION, "base-2e", Plus(cards=1, actions=1, coins=1),
    DiscardPerEmptyPile(), discard="Poacher: discard a card.")  # fmt: skip

# -- Sentry: +1 Card +1 Action; look at the top 2: trash, discard, put back in any order
declare("sentry", 5, ACTION, "base-2e", Plus(cards=1, actions=1), LookTrashDiscardReorder(2),
    trash="Sentry: trash any of these cards.",
    discard="Sentry: discard any of these cards.",
    order="Sentry: which card goes on top?")  # fmt: skip

# -- Vassal: +$2; discard the top card; if it is an Action you may play it
VASSAL = declare("vassal", 3, ACTION, "base-2e", Plus(coins=2), Custom(),
    play="Vassal: play the discarded Action card?").index  # fmt: skip


@card("vassal")
def _vassal(st: DominionState, p: int, pid: int) -> None:
    c = st.take_top(p)
    if c < 0:
        return
    st.discards[p].append(c)
    if st.logging:
        st._log("discard", p, card=CARDS[c].id, source="deck")
    if IS_ACTION[c]:
        st.push("vassal", p, VASSAL, c)


def _vassal_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    p, found = fr.who, fr.a
    disc = st.discards[p]
    if kind == A.YES and disc and disc[-1] == found:
        disc.pop()
        st.in_play[p].append(found)
        st.play_card(p, found, st.new_play_id(), VASSAL)


asks(
    "vassal",
    DecisionSpec(
        YES_NO,
        "vassal.play",
        zone="discard",
        subject=3,
        yes="play {card}",
        no="don't play {card}",
    ),
    yes_no,
    _vassal_answer,
)
