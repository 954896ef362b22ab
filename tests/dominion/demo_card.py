"""A card from a later expansion, added by this module alone: Courtyard (Intrigue).

"+3 Cards. Put a card from your hand onto your deck."  Its facts, names and rules
text in en/pl/cs, its effect (a reusable step and a step of its own that asks a
decision), its prompt and the prompt's translations are all here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdoms.dominion.cards.declare import declare
from kingdoms.dominion.cards.steps import Plus, Step, asks, hand_choices
from kingdoms.dominion.data import BY_ID
from kingdoms.dominion.decisions import CHOOSE_CARDS, DecisionSpec
from kingdoms.dominion.extend import add_card, add_translations

if TYPE_CHECKING:
    from kingdoms.dominion.frames import Frame
    from kingdoms.dominion.state import DominionState

PROMPT = "Courtyard: put a card from your hand onto your deck."


class TopdeckFromHand(Step):
    """Put a card from the hand onto the deck (the player chooses which)."""

    verb = "topdeck"

    def run(self, st: DominionState, p: int, card: int) -> None:
        if st.hands[p]:
            st.push("topdeck_from_hand", p, card)


def _topdeck(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    st.hands[fr.who].remove(c)
    st.decks[fr.who].append(c)


if "courtyard" not in BY_ID:
    COURTYARD = add_card(
        "courtyard",
        card_set="intrigue",
        cost=2,
        types=["Action"],
        names={"en": "Courtyard", "pl": "Dziedziniec", "cs": "Nádvoří"},
        texts={
            "en": "+3 Cards. Put a card from your hand onto your deck.",
            "pl": "+3 karty. Połóż kartę z ręki na swojej talii.",
            "cs": "+3 karty. Polož kartu z ruky na svůj dobírací balíček.",
        },
    )
    asks(
        "topdeck_from_hand",
        DecisionSpec(CHOOSE_CARDS, "*.topdeck", PROMPT, pick="put {card} on deck"),
        lambda st, fr: hand_choices(st.hands[fr.who]),
        _topdeck,
    )
    declare(
        "courtyard", 2, ["Action"], "intrigue", Plus(cards=3), TopdeckFromHand(), topdeck=PROMPT
    )
    add_translations("pl", {PROMPT: "Dziedziniec: połóż kartę z ręki na swojej talii."})
    add_translations("cs", {PROMPT: "Nádvoří: polož kartu z ruky na svůj balíček."})
else:
    COURTYARD = BY_ID["courtyard"]
