"""Cards from outside the card list (a later expansion), added at run time.

One module can add a card with everything it needs, without editing the engine::

    COURTYARD = add_card("courtyard", card_set="intrigue", cost=2, types=["Action"],
                         names={"en": "Courtyard", "pl": ..., "cs": ...},
                         texts={"en": "+3 Cards. Put a card ...", "pl": ..., "cs": ...})
    declare("courtyard", 2, ["Action"], "intrigue", Plus(cards=3), ..., topdeck="...")
    add_translations("pl", {"Courtyard: put a card ...": "..."})

The card gets the next index after the card list (``NUM_CARDS + i``) and its actions a
range appended after the card list's action space (:mod:`kingdoms.dominion.actions`),
so every existing action id stays what it was.  Every per-card table grows by one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion import actions as A
from kingdoms.dominion import data, info, kingdom, view
from kingdoms.dominion.cards import declare
from kingdoms.i18n import LANGUAGES, catalog


class CardDataError(InvalidConfig):
    """A card that cannot be added (its id is taken, or a language is missing)."""


def add_card(
    cid: str,
    *,
    card_set: str,
    cost: int,
    types: Sequence[str],
    names: Mapping[str, str],
    texts: Mapping[str, str],
    potions: int = 0,
    pile: str = "10",
) -> int:
    """Add card ``cid`` (its names and rules text in every language) and return its
    index.  Nothing changes if the card is refused."""
    if cid in data.BY_ID:
        raise CardDataError(f"card {cid!r} already exists")
    missing = [lang for lang in LANGUAGES if not names.get(lang) or not texts.get(lang)]
    if missing:
        raise CardDataError(f"card {cid!r} needs a name and a text in {', '.join(missing)}")
    card = data.Card.of(
        len(data.CARDS),
        cid,
        card_set,
        {lang: names[lang] for lang in LANGUAGES},
        (cost, potions),
        frozenset(types),
        pile,
    )
    data.CARDS.append(card)
    data.BY_ID[cid] = card.index
    data.IS_ACTION.append(card.is_action)
    data.IS_TREASURE.append(card.is_treasure)
    data.IS_VICTORY.append(card.is_victory)
    data.IS_ATTACK.append(card.is_attack)
    data.COIN_COST.append(cost)
    data.POTION_COST.append(potions)
    declare.COINS.append(0)
    declare.VP.append(0)
    view.IDS.append(cid)
    info.texts()[cid] = {lang: texts[lang] for lang in LANGUAGES}
    kingdom.add_names(card)
    A.NUM_ACTIONS = A.BASE_ACTIONS + (len(data.CARDS) - data.NUM_CARDS) * A.NUM_KINDS
    return card.index


def add_translations(lang: str, messages: Mapping[str, str]) -> None:
    """Add the translations (English msgid -> text) of a card's prompts and options."""
    if lang == "en":
        return
    catalog(lang).update(messages)
