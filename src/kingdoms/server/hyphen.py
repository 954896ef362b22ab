"""Soft hyphens in the names drawn on small cards, so that a long name breaks between
syllables with a hyphen ("Mie-|dzia-|ki") rather than anywhere or not at all.

Browsers hyphenate (``hyphens: auto``) only with a dictionary for the language, which
Chromium on Linux lacks; the server adds soft hyphens (U+00AD, invisible unless a line
breaks there) from the hyphenation dictionaries of LibreOffice (``pyphen``).

>>> hyphenated("Miedziaki", "pl").replace(SHY, "-")
'Mie-dzia-ki'
>>> hyphenated("Alchymistův poskok", "cs").replace(SHY, "-")
'Al-chy-mis-tův po-skok'
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

import pyphen

SHY: Final = "\u00ad"
DICTIONARIES: Final = {"en": "en_US", "pl": "pl_PL", "cs": "cs_CZ"}


@cache
def _dictionary(lang: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=DICTIONARIES.get(lang, "en_US"))


@cache
def hyphenated(text: str, lang: str) -> str:
    """``text`` with soft hyphens between the syllables of each word."""
    dic = _dictionary(lang)
    return " ".join(dic.inserted(word, hyphen=SHY) for word in text.split(" "))


def with_hyphenated_names(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """A game's client data with ``name_hy`` (the name with soft hyphens) beside every
    ``cards[id].name``; other data unchanged."""
    cards = data.get("cards")
    if not isinstance(cards, dict):
        return data
    out = {}
    for key, card in cards.items():
        if isinstance(card, dict) and isinstance(card.get("name"), str):
            card = {**card, "name_hy": hyphenated(card["name"], lang)}
        out[key] = card
    return {**data, "cards": out}


__all__ = ["SHY", "hyphenated", "with_hyphenated_names"]
