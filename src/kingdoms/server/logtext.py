"""Log lines with the seats' names: "Alice plays Militia", not "player 1 plays Militia".

Games write a seat in their log texts as the catalog's ``player {n}`` (or
``Player {n}``) in the reader's language; the server (and the simulator's sample
log) knows the seats' names and puts them in, as given; a seat left with its default
name reads as the catalog's capitalised "Player {n}" in the reader's language.

>>> with_names("player 2 buys Gold", ["Ann", "Bob"], "en")
'Bob buys Gold'
>>> with_names("gracz 1 kupuje: Złoto (gracz 3)", ["Ala", "Olek"], "pl")
'Ala kupuje: Złoto (gracz 3)'
>>> with_names("gracz 2 dobiera 5 kart", ["Ala", None], "pl")
'Gracz 2 dobiera 5 kart'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from kingdoms.i18n import translator
from kingdoms.server.botnames import display_names

SEAT_MSGIDS = ("player {n}", "Player {n}")


@cache
def _pattern(lang: str) -> re.Pattern[str]:
    _ = translator(lang)
    forms = {_(m) for m in SEAT_MSGIDS} | set(SEAT_MSGIDS)
    alts = sorted((re.escape(f).replace(r"\{n\}", r"(\d+)") for f in forms), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(f"(?:{a})" for a in alts) + r")(?!\d)")


def seat_names(seats: Sequence[Mapping[str, Any]], lang: str = "en") -> list[str | None]:
    """The name each seat goes by in ``lang``: the one chosen, else its bot's, else
    "Player n"; repeated names numbered (:func:`kingdoms.server.botnames.display_names`).

    >>> seat_names([{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    ['Greedy 1', 'Greedy 2']
    """
    return list(display_names(seats, lang))


def with_names(text: str, names: Sequence[str | None], lang: str = "en") -> str:
    """``text`` with every "player n" of a seat replaced by its name (a seat with no
    chosen name: "Player n" in ``lang``); numbers beyond the seats stay as they are."""
    default = translator(lang)("Player {n}")

    def name(m: re.Match[str]) -> str:
        number = next(g for g in m.groups() if g is not None)
        seat = int(number) - 1
        if not 0 <= seat < len(names):
            return m.group(0)
        chosen = names[seat]
        return chosen if chosen is not None else default.format(n=seat + 1)

    return _pattern(lang).sub(name, text)
