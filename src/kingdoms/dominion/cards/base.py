"""The 25 first-edition base-set kingdom cards (Gardens included), in card-list order.

Each card is one :func:`declare`; a card with a real special case has a ``Custom()``
step, its code registered with ``@card`` right below the declaration, together with
the decisions it asks (their prompts are in the declaration).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdoms.dominion import actions as A
from kingdoms.dominion.cards.declare import declare
from kingdoms.dominion.cards.registry import (
    ATTACK_READS,
    HAND_HINTS,
    REACTION_ASKS,
    HandHint,
    task,
)
from kingdoms.dominion.cards.steps import (
    DiscardAnyThenDraw,
    DrawToSettingAside,
    EachOtherDiscardsDownTo,
    EachOtherDraws,
    EachOtherGains,
    EachOtherTopdecks,
    EachOtherTrashesRevealed,
    GainCard,
    GainRule,
    GainUpTo,
    MayDiscardDeck,
    PlayActionTwice,
    Plus,
    RevealTopEach,
    RevealUntil,
    TrashCardFor,
    TrashOfTypeFromHand,
    TrashOneFromHand,
    TrashThis,
    TrashUpTo,
    asks,
    gain_costing_more,
    yes_no,
)
from kingdoms.dominion.data import (
    IS_TREASURE,
    IS_VICTORY,
)
from kingdoms.dominion.decisions import YES_NO, DecisionSpec
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

HELD: dict[str, tuple[int, ...]] = {}
"""Frames that hold set-aside cards of their deciding player: code -> frame fields
holding a card id.  Such cards belong to the effect that set them aside (its frame),
so no other card's effect can take them; they count as that player's set-aside cards."""

ACTION = ("Action",)
ATTACK = ("Action", "Attack")
TRASH, TOPDECK = "trash {card}", "put {card} on deck"


def _is_treasure(c: int) -> bool:
    return IS_TREASURE[c]


def _is_victory(c: int) -> bool:
    return IS_VICTORY[c]


def _has_treasure(st: DominionState, p: int) -> bool:
    return any(IS_TREASURE[c] for c in st.hands[p])


# -- Adventurer: reveal until 2 Treasures; they go to the hand, the rest is discarded
declare("adventurer", 6, ACTION, "base-1e", RevealUntil(2, _is_treasure))

# -- Bureaucrat: gain a Silver onto the deck; each other player topdecks a Victory card
declare("bureaucrat", 4, ATTACK, "base", GainCard("silver", to="deck"),
    EachOtherTopdecks("Victory"),
    topdeck="Bureaucrat: put a Victory card onto your deck.")  # fmt: skip
ATTACK_READS["bureaucrat"] = True  # shows a hand without a Victory card, which stays

# -- Cellar: +1 Action; discard any number of cards, then draw that many
declare("cellar", 2, ACTION, "base", Plus(actions=1), DiscardAnyThenDraw(),
    discard="Cellar: discard cards, then draw as many (done to stop).")  # fmt: skip

# -- Chancellor: +$2; you may put your deck into your discard pile
declare("chancellor", 3, ACTION, "base-1e", Plus(coins=2), MayDiscardDeck(),
    discard_deck="Chancellor: put your deck into your discard pile?")  # fmt: skip

# -- Chapel: trash up to 4 cards from your hand
declare("chapel", 2, ACTION, "base", TrashUpTo(4),
    trash="Chapel: trash up to 4 cards (done to stop).")  # fmt: skip

# -- Council Room: +4 Cards +1 Buy; each other player draws a card
declare("council_room", 5, ACTION, "base", Plus(cards=4, buys=1), EachOtherDraws(1))

# -- Feast: trash this card; gain a card costing up to $5
declare("feast", 4, ACTION, "base-1e", TrashThis(), GainUpTo(5), gain="Gain a card.")

# -- Festival: +2 Actions +1 Buy +$2
declare("festival", 5, ACTION, "base", Plus(0, 2, 1, 2))

# -- Gardens: 1 VP per 10 cards you have (scored by the rules)
declare("gardens", 4, ("Victory",), "base")

# -- Laboratory: +2 Cards +1 Action
declare("laboratory", 5, ACTION, "base", Plus(cards=2, actions=1))

# -- Library: draw to 7 cards; you may set aside Action cards drawn, discarded after
declare("library", 5, ACTION, "base", DrawToSettingAside(7, "Action"),
    set_aside="Library: set this Action card aside?")  # fmt: skip

# -- Market: +1 Card +1 Action +1 Buy +$1
declare("market", 5, ACTION, "base", Plus(1, 1, 1, 1))

# -- Militia: +$2; each other player discards down to 3 cards
declare("militia", 4, ATTACK, "base", Plus(coins=2), EachOtherDiscardsDownTo(3),
    discard="Militia: discard down to 3 cards.")  # fmt: skip
ATTACK_READS["militia"] = False  # reads hidden cards only by moving them or asking a decision

# -- Mine: you may trash a Treasure from your hand; gain a Treasure to your hand
#    costing up to $3 more (first edition: the trash is not optional)
declare("mine", 5, ACTION, "base",
    TrashOfTypeFromHand("Treasure", gain_costing_more(3), optional_in=(2,)),
    gains=GainRule(to="hand", only="Treasure"),
    trash="Mine: trash a Treasure to upgrade it.", gain="Gain a card.")  # fmt: skip


# -- Moat: +2 Cards; when another player plays an Attack, you may reveal it from your
#    hand to be unaffected by it
MOAT = declare("moat", 2, ("Action", "Reaction"), "base", Plus(cards=2),
    reveal="An Attack is played: reveal Moat to be unaffected?").index  # fmt: skip


@task("moat_ask")
def _moat_ask(st: DominionState, fr: Frame) -> None:
    if MOAT in st.hands[fr.who]:
        st.push("moat", fr.who, fr.card)


def _moat_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind == A.YES:
        st.immune[fr.who] = True
        st.reveal(fr.who, [MOAT])


asks(
    "moat",
    DecisionSpec(YES_NO, "moat.reveal", yes="reveal Moat", no="don't reveal"),
    yes_no,
    _moat_answer,
)
# asked only of a seat holding a Moat
HAND_HINTS["moat"] = HandHint(lambda fr, c: c == MOAT)
REACTION_ASKS.add("moat")

# -- Moneylender: you may trash a Copper from your hand for +$3 (first edition: you do)
declare("moneylender", 4, ACTION, "base", TrashCardFor("copper", 3, optional_in=(2,)),
    trash="Moneylender: trash a Copper for +$3?")  # fmt: skip

# -- Remodel: trash a card from your hand; gain a card costing up to $2 more
declare("remodel", 4, ACTION, "base", TrashOneFromHand(then=gain_costing_more(2)),
    trash="Remodel: trash a card.",
    gain="Gain a card.")  # fmt: skip

# -- Smithy: +3 Cards
declare("smithy", 4, ACTION, "base", Plus(cards=3))

# -- Spy: +1 Card +1 Action; each player reveals the top card of their deck, you choose:
#    discard it or put it back
declare("spy", 4, ATTACK, "base-1e", Plus(cards=1, actions=1), RevealTopEach(),
    discard="Spy: discard this card or put it back?")  # fmt: skip
ATTACK_READS["spy"] = False  # reads hidden cards only by moving them or asking a decision

# -- Thief: each other player reveals 2 cards; you trash a Treasure of them and may gain
#    the trashed Treasures
declare("thief", 4, ATTACK, "base-1e", EachOtherTrashesRevealed("Treasure", by_you=True,
                                                                 may_gain=True),
    trash="Thief: trash one of the revealed Treasures.",
    gain="Thief: gain the trashed Treasures?")  # fmt: skip
ATTACK_READS["thief"] = False  # reads hidden cards only by moving them or asking a decision

# -- Throne Room: you may play an Action card from your hand twice (first edition: you
#    must, if you have one)
declare("throne_room", 4, ACTION, "base", PlayActionTwice(optional_in=(2,)),
    play="Throne Room: choose an Action card to play twice.")  # fmt: skip

# -- Village: +1 Card +2 Actions
declare("village", 3, ACTION, "base", Plus(cards=1, actions=2))

# -- Witch: +2 Cards; each other player gains a Curse
declare("witch", 5, ATTACK, "base", Plus(2), EachOtherGains("curse"))
ATTACK_READS["witch"] = False  # reads hidden cards only by moving them or asking a decision

# -- Woodcutter: +1 Buy +$2
declare("woodcutter", 3, ACTION, "base-1e", Plus(buys=1, coins=2))

# -- Workshop: gain a card costing up to $4
declare("workshop", 3, ACTION, "base", GainUpTo(4), gain="Gain a card.")
