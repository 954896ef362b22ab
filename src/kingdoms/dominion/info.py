"""Dominion described as data for front ends: actions, cards, lobby options.

* :func:`action_info` — a legal action as ``{"kind": ..., "card": ...}`` so a board
  can make the card it names clickable;
* :func:`card_catalog` — every card's name, cost, types and text in one language
  (texts from ``data/texts.csv``);
* :func:`lobby_options` — the choices a lobby offers when creating a game.
"""

from __future__ import annotations

import csv
import io
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

KINDS = tuple(name.replace(" ", "_") for name in A.KIND_NAMES)
_NO_CARD = frozenset({A.DONE, A.YES, A.NO, A.PLAY_ALL_TREASURES, A.END_PHASE})


def action_info(st: DominionState, action: int) -> dict[str, Any]:
    """``{"kind": "buy", "card": "province"}``; plus the pending decision's kind."""
    kind, c = A.decode(action)
    out: dict[str, Any] = {"kind": KINDS[kind]}
    if kind not in _NO_CARD:
        out["card"] = CARDS[c].id
    if st.stack:
        from kingdoms.dominion.decisions import purpose_of

        out["decision"] = st.stack[-1].code
        out["purpose"] = purpose_of(st.stack[-1])
    return out


@cache
def texts() -> dict[str, dict[str, str]]:
    """Card id -> {lang: rules text} (our own short wording)."""
    raw = resources.files("kingdoms.dominion").joinpath("data", "texts.csv").read_text("utf-8")
    return {
        row["id"]: {"en": row["text_en"], "pl": row["text_pl"], "cs": row["text_cs"]}
        for row in csv.DictReader(io.StringIO(raw))
    }


def card_catalog(lang: str = "en") -> dict[str, Any]:
    """Every card for a board: ``{"cards": {id: {name, cost, potions, types, text, set}}}``."""
    table = texts()
    return {
        "cards": {
            c.id: {
                "name": c.name(lang),
                "cost": c.cost[0],
                "potions": c.cost[1],
                "types": sorted(c.types),
                "text": table.get(c.id, {}).get(lang) or table.get(c.id, {}).get("en", ""),
                "set": c.set,
            }
            for c in CARDS
        }
    }


def lobby_options() -> dict[str, Any]:
    """What a lobby offers: kingdom (recommended sets by name, random from chosen
    sets, or typed card names), rules versions."""
    from kingdoms.dominion.kingdom import RECOMMENDED

    kingdoms: list[list[Any]] = [["random", "Random kingdom"]]
    kingdoms += [[names[0], names[0]] for names in RECOMMENDED]
    return {
        "kingdom": {"label": "Kingdom", "choices": kingdoms},
        "cards": {
            "label": "Or these cards (comma-separated)",
            "type": "text",
            "into": "kingdom",
        },
        "sets": {
            "label": "Random cards from",
            "choices": [
                [["base", "base-1e"], "Base game, first edition"],
                [["base", "base-2e"], "Base game, second edition"],
                [["base", "base-1e", "base-2e"], "Base game, both editions"],
                [["base", "base-1e", "alchemy"], "Base game + Alchemy"],
                [["base", "base-1e", "base-2e", "alchemy"], "Everything"],
            ],
        },
        "alchemy_cards": {
            "label": "Alchemy cards in a random kingdom",
            "choices": [
                [None, "Any number"],
                ["3-5", "3–5 (as the Alchemy rulebook advises)"],
                ["0", "None"],
            ],
        },
        "base_edition": {
            "label": "Base card wording",
            "choices": [[1, "First edition"], [2, "Second edition"]],
        },
        "alchemy_errata": {
            "label": "Alchemy wording",
            "choices": [[False, "As printed"], [True, "With the 2022/2023 errata"]],
        },
    }
